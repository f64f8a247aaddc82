"""The camera kinds a table can be configured with (``[camera] kind``), registered in one place.

Each :class:`CameraKind` says how to open its frame source and what keeps it from opening (``jantaku run --check``);
:data:`CAMERA_KINDS` is the registry the config checks ``kind`` against and ``jantaku run`` opens from. A new
source is one more entry here. The sources' libraries are imported only when a kind is opened.

    source, is_demo = CAMERA_KINDS[config.camera.kind].open(config.camera)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from device.cli import UserError

if TYPE_CHECKING:
    from device.camera.sources import FrameSource


class CameraConfig(Protocol):
    """What a kind reads of ``[camera]`` (:class:`device.config.CameraConfig`, which checks ``kind`` against
    :data:`CAMERA_KINDS`: the config imports this registry, not the other way)."""

    index: int
    width: int
    height: int
    fps: float
    path: str


log = logging.getLogger(__name__)


def _nothing_missing(camera: CameraConfig) -> str | None:
    return None


@dataclass(frozen=True)
class CameraKind:
    """One ``[camera] kind``: how to open its source, and what it needs."""

    name: str
    #: The frame source ``camera`` asks for, and whether it is the bundled demo. A named camera is returned even
    #: when it is not there yet: the loop waits for it with back-off.
    open: Callable[[CameraConfig], tuple[FrameSource, bool]]
    #: What keeps this kind from opening on this machine, in one line (None: nothing).
    missing: Callable[[CameraConfig], str | None] = _nothing_missing
    #: Its frames are read by the detector model (the demo plays its own labels without one).
    needs_model: bool = True


def demo_source(camera: CameraConfig) -> FrameSource:
    """The bundled demo recording, played in a loop at the camera's rate."""
    from device.camera.sources import FileReplaySource
    from device.demo import RECORDING

    return FileReplaySource(RECORDING, fps=camera.fps, loop=True)


def _open_demo(camera: CameraConfig) -> tuple[FrameSource, bool]:
    return demo_source(camera), True


def _open_replay(camera: CameraConfig) -> tuple[FrameSource, bool]:
    from device.camera.sources import FileReplaySource, SourceUnavailable

    source = FileReplaySource(Path(camera.path).expanduser(), fps=camera.fps, loop=True)
    try:  # a recording that cannot play will never play: say so now
        source.open()
    except SourceUnavailable as exc:
        raise UserError(str(exc)) from None
    source.close()
    return source, False


def _open_picamera(camera: CameraConfig) -> tuple[FrameSource, bool]:
    from device.camera.picamera import PiCameraSource

    return PiCameraSource(camera.index, width=camera.width, height=camera.height), False


def _open_opencv(camera: CameraConfig) -> tuple[FrameSource, bool]:
    from device.camera.sources import OpenCVSource

    return OpenCVSource(camera.index, width=camera.width, height=camera.height, fps=camera.fps), False


def _open_auto(camera: CameraConfig) -> tuple[FrameSource, bool]:
    """A Pi camera, else the USB camera, else the demo."""
    from device.camera.picamera import picamera_available
    from device.camera.sources import SourceUnavailable

    if picamera_available():
        return _open_picamera(camera)
    usb, _ = _open_opencv(camera)
    try:
        usb.open()
    except SourceUnavailable as exc:
        log.warning("no camera found (%s): playing the bundled demo recording", exc)
        return _open_demo(camera)
    usb.close()
    return usb, False


def _library_missing(module: str, message: str) -> Callable[[CameraConfig], str | None]:
    def missing(camera: CameraConfig) -> str | None:
        import importlib.util

        return message if importlib.util.find_spec(module) is None else None

    return missing


def _replay_missing(camera: CameraConfig) -> str | None:
    if not Path(camera.path).expanduser().exists():
        return f"camera kind replay: no such file or folder {camera.path}"
    return None


#: Every camera kind by its name, in the order the config's error lists them.
CAMERA_KINDS: dict[str, CameraKind] = {
    kind.name: kind
    for kind in (
        CameraKind("auto", _open_auto),
        CameraKind(
            "picamera",
            _open_picamera,
            _library_missing(
                "picamera2",
                "camera kind picamera: the picamera2 library is not installed (apt install python3-picamera2)",
            ),
        ),
        CameraKind(
            "opencv",
            _open_opencv,
            _library_missing(
                "cv2", "camera kind opencv: OpenCV (cv2) is not installed (pip install opencv-python-headless)"
            ),
        ),
        CameraKind("replay", _open_replay, _replay_missing),
        CameraKind("demo", _open_demo, needs_model=False),
    )
}
