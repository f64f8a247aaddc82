"""The Raspberry Pi camera (libcamera, through ``picamera2``): the only module that imports ``picamera2``.

``picamera2`` comes from Raspberry Pi OS (``apt install python3-picamera2``); the project's virtual environment
sees it through ``--system-site-packages`` (see ``device/install-pi.sh``). It is imported when the camera is
opened, never at import time, so everything else runs on machines without it.

picamera2's ``"RGB888"`` format is, despite its name, laid out B, G, R in memory: exactly the BGR arrays the
rest of the project uses, with no conversion.
"""

from __future__ import annotations

import importlib
import logging
import time
from typing import Any

from device.camera.sources import Frame, SourceLost, SourceUnavailable, to_bgr

log = logging.getLogger(__name__)


def _import_picamera2() -> Any:
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:
        raise SourceUnavailable(
            "pi camera: picamera2 is not installed (on Raspberry Pi OS: sudo apt install python3-picamera2, "
            "and a venv made with --system-site-packages)"
        ) from exc


def picamera_available() -> bool:
    """Whether picamera2 imports and libcamera lists at least one camera (never raises)."""
    try:
        module = _import_picamera2()
        return bool(module.Picamera2.global_camera_info())
    except Exception:  # no module, no libcamera, no camera: all mean "not here"
        return False


class PiCameraSource:
    """A Raspberry Pi camera module (e.g. the HQ camera) by libcamera index, BGR frames at ``width`` x ``height``."""

    def __init__(self, index: int = 0, *, width: int = 2028, height: int = 1520, buffers: int = 2) -> None:
        self.index = index
        self.width, self.height = width, height
        self.buffers = buffers
        self.name = f"pi camera {index}"
        self._camera: Any = None
        self._count = 0

    def open(self) -> None:
        self.close()
        module = _import_picamera2()
        try:
            cameras = module.Picamera2.global_camera_info()
        except Exception as exc:
            raise SourceUnavailable(f"{self.name}: libcamera cannot list cameras ({exc})") from exc
        if len(cameras) <= self.index:
            raise SourceUnavailable(f"{self.name}: no such camera ({len(cameras)} found)")
        try:
            camera = module.Picamera2(self.index)
            config = camera.create_still_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"}, buffer_count=self.buffers
            )
            camera.configure(config)
            camera.start()
        except Exception as exc:
            raise SourceUnavailable(f"{self.name}: cannot start ({exc})") from exc
        self._camera = camera
        log.info("%s open at %dx%d", self.name, self.width, self.height)

    def read(self) -> Frame:
        if self._camera is None:
            raise SourceLost(f"{self.name}: read before open")
        try:
            array = self._camera.capture_array("main")
        except Exception as exc:  # libcamera errors surface as RuntimeError, OSError, TimeoutError ...
            raise SourceLost(f"{self.name}: capture failed ({exc})") from exc
        if array is None:
            raise SourceLost(f"{self.name}: capture returned nothing")
        frame = Frame(to_bgr(array[:, :, :3]), index=self._count, timestamp=time.time(), origin=self.name)
        self._count += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        for step in ("stop", "close"):
            try:
                getattr(camera, step)()
            except Exception as exc:  # a camera that vanished may fail to stop: it is gone either way
                log.debug("%s: %s failed: %s", self.name, step, exc)
