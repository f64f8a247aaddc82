"""Frame sources: where the table's pictures come from.

Every source has the same small interface (:class:`FrameSource`): ``open()``, ``read() -> Frame``, ``close()``.
A :class:`Frame` holds a BGR ``uint8`` image of shape ``(height, width, 3)`` and says its height and width
explicitly, so nobody has to remember which of ``shape[0]``/``shape[1]`` is which.

Sources here: :class:`FileReplaySource` (a folder of images, or a video file, optionally paced and looped),
:class:`OpenCVSource` (a USB camera by index) and :class:`FakeSource` (scripted frames and failures, for tests).
The Raspberry Pi camera lives in :mod:`device.camera.picamera`, the only module that imports ``picamera2``.

Failures are typed: :class:`SourceUnavailable` when a source cannot be opened (no such camera, no such file),
:class:`SourceLost` when a camera vanishes mid-stream (the service loop closes it and reconnects with back-off),
:class:`EndOfStream` when a recording has played to its end.

>>> src = FakeSource([blank_frame(480, 640)])
>>> src.open(); frame = src.read(); (frame.height, frame.width, frame.image.shape)
(480, 640, (480, 640, 3))
>>> src.read()
Traceback (most recent call last):
...
device.camera.sources.EndOfStream: fake: end of stream after 1 frames
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mjpeg", ".mjpg"})
#: A recording folder may hold this manifest: the order of its frames and how long each is shown.
MANIFEST_NAME = "recording.json"


class SourceError(Exception):
    """Something went wrong with a frame source; the message names the source."""


class SourceUnavailable(SourceError):
    """The source could not be opened: no such camera, file or folder, or nothing readable in it."""


class SourceLost(SourceError):
    """An open source stopped delivering frames (a camera unplugged mid-stream). Reopening may work."""


class EndOfStream(SourceError):
    """A recording has played to its end (never raised by a looping replay or by a camera)."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture of the table: a BGR ``uint8`` array of shape ``(height, width, 3)``.

    ``index`` counts frames delivered by the source since it was created; ``timestamp`` is
    ``time.time()`` when the frame was taken; ``origin`` says where it came from (a file name, a camera).
    """

    image: np.ndarray
    index: int = 0
    timestamp: float = 0.0
    origin: str = ""

    def __post_init__(self) -> None:
        img = self.image
        if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
            shape = getattr(img, "shape", None)
            dtype = getattr(img, "dtype", type(img).__name__)
            raise ValueError(f"a frame is a (height, width, 3) uint8 BGR array, got shape {shape} of {dtype}")

    @property
    def height(self) -> int:
        return int(self.image.shape[0])

    @property
    def width(self) -> int:
        return int(self.image.shape[1])

    @property
    def size(self) -> tuple[int, int]:
        """``(height, width)`` in pixels."""
        return self.height, self.width


@runtime_checkable
class FrameSource(Protocol):
    """Where frames come from. ``read()`` blocks until the next frame (a paced replay waits its turn)."""

    name: str

    def open(self) -> None:
        """Start the source; raises :class:`SourceUnavailable` when it cannot."""

    def read(self) -> Frame:
        """The next frame; raises :class:`SourceLost` or :class:`EndOfStream`."""

    def close(self) -> None:
        """Release the device or file. Safe to call twice, and on a source that never opened."""


def to_bgr(image: np.ndarray) -> np.ndarray:
    """Any 8-bit grey, BGR or BGRA array as a contiguous BGR ``(height, width, 3)`` array."""
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        else:
            raise ValueError(f"expected an 8-bit image, got {image.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 1:
        image = cv2.cvtColor(image[:, :, 0], cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif not (image.ndim == 3 and image.shape[2] == 3):
        raise ValueError(f"expected a grey, BGR or BGRA image, got shape {image.shape}")
    return np.ascontiguousarray(image)


def blank_frame(height: int, width: int, colour: tuple[int, int, int] = (40, 110, 40), index: int = 0) -> Frame:
    """A plain frame of one colour (green felt by default)."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = colour
    return Frame(img, index=index, timestamp=time.time(), origin="blank")


class _Pacer:
    """Spaces calls ``1/fps`` seconds apart on the monotonic clock (no pacing when fps is None)."""

    def __init__(self, fps: float | None, sleep: Callable[[float], None] = time.sleep) -> None:
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.period = None if fps is None else 1.0 / fps
        self._sleep = sleep
        self._next: float | None = None

    def wait(self) -> None:
        """Wait for this frame's turn."""
        if self.period is None:
            return
        now = time.monotonic()
        if self._next is not None and self._next > now:
            self._sleep(self._next - now)
            now = self._next
        self._next = now + self.period

    def reset(self) -> None:
        self._next = None


@dataclass(frozen=True)
class _Entry:
    path: Path
    hold: int = 1  # how many consecutive frames show this image (a still table is taken again and again)


def load_manifest(folder: Path) -> list[_Entry] | None:
    """The frames listed in ``recording.json``: ``{"frames": [{"file": "000.jpg", "hold": 3}, ...]}`` (None:
    the folder has none); a manifest that is not one, or that lists a missing frame, raises
    :class:`SourceUnavailable`."""
    manifest = folder / MANIFEST_NAME
    if not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        entries = [_Entry(folder / item["file"], int(item.get("hold", 1))) for item in data["frames"]]
        if any(e.hold < 1 for e in entries):
            raise ValueError("a hold is at least 1")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SourceUnavailable(f"{manifest}: not a recording manifest ({exc})") from exc
    missing = [e.path.name for e in entries if not e.path.is_file()]
    if missing:
        raise SourceUnavailable(f"{manifest}: lists missing frames {', '.join(missing[:3])}")
    return entries


def manifest_fps(folder: Path) -> float | None:
    """The frame rate a recording's ``hold`` counts were made for (its manifest's ``"fps"``); None: not given."""
    try:
        fps = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8")).get("fps")
    except (OSError, ValueError, AttributeError):
        return None
    return float(fps) if isinstance(fps, int | float) and fps > 0 else None


class FileReplaySource:
    """Plays a folder of images (sorted by name, or in the order of its ``recording.json``) or a video file.

    ``fps`` paces frames like a camera would (None: as fast as they are read); ``loop`` starts again at the
    end instead of raising :class:`EndOfStream`. In a manifest, ``hold`` delivers an image that many times in a
    row, as a camera takes a still table again and again between two discards.

    Frames are taken when they are read, never dropped: a reader slower than ``fps`` plays the recording slower.
    :meth:`clock` is the recording's own time (each frame delivered one frame of the rate the recording was made
    at, the manifest's ``fps``), for what must wait a while of the recording rather than of the wall clock (the
    demo's result settling itself while the winning hand lies open, however slowly the frames are read).
    """

    def __init__(self, path: str | os.PathLike[str], *, fps: float | None = None, loop: bool = False) -> None:
        self.path = Path(path)
        self.name = f"replay {self.path}"
        self.loop = loop
        self.fps = fps
        self._pacer = _Pacer(fps)
        #: The rate the recording was made at, frames a second (the manifest's ``fps``; else the playback's; else 1).
        self.recording_fps = fps or 1.0
        self._epoch: float | None = None  # wall-clock time of the first frame delivered
        self._entries: list[_Entry] | None = None
        self._video: cv2.VideoCapture | None = None
        self._pos = 0
        self._count = 0
        self._held: tuple[np.ndarray, str] | None = None
        self._repeats_left = 0

    @property
    def is_video(self) -> bool:
        return self.path.is_file() and self.path.suffix.lower() in VIDEO_SUFFIXES

    def open(self) -> None:
        self.close()
        if self.path.is_dir():
            entries = load_manifest(self.path)
            if entries is None:
                entries = [_Entry(p) for p in sorted(self.path.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES]
            if not entries:
                raise SourceUnavailable(f"{self.name}: no images in the folder")
            self._entries = entries
            self.recording_fps = manifest_fps(self.path) or self.fps or 1.0
        elif self.is_video:
            cap = cv2.VideoCapture(str(self.path))
            if not cap.isOpened():
                cap.release()
                raise SourceUnavailable(f"{self.name}: cannot open the video")
            self._video = cap
        elif self.path.exists():
            raise SourceUnavailable(
                f"{self.name}: neither a folder of images nor a video ({', '.join(sorted(VIDEO_SUFFIXES))})"
            )
        else:
            raise SourceUnavailable(f"{self.name}: no such file or folder")
        self._pos = 0
        self._held = None
        self._repeats_left = 0
        self._pacer.reset()

    def __len__(self) -> int:
        """Frames in one pass (a video's count is the container's estimate)."""
        if self._entries is not None:
            return len(self._entries)
        if self._video is not None:
            return int(self._video.get(cv2.CAP_PROP_FRAME_COUNT))
        return 0

    def read(self) -> Frame:
        if self._entries is None and self._video is None:
            raise SourceLost(f"{self.name}: read before open")
        self._pacer.wait()
        if self._entries is not None:
            image, origin = self._read_image()
        else:
            image, origin = self._read_video()
        now = time.time()
        if self._epoch is None:
            self._epoch = now
        frame = Frame(image, index=self._count, timestamp=now, origin=origin)
        self._count += 1
        return frame

    def clock(self) -> float:
        """The recording's time of the frame delivered last, as a wall-clock time (``time.time()`` before the first
        frame): the first frame's wall-clock time plus one frame of :attr:`recording_fps` for each frame after it.

        With frames read as fast as ``fps`` paces them, it keeps up with the wall clock; with a slower reader it falls
        behind, as the recording does."""
        if self._epoch is None:
            return time.time()
        return self._epoch + max(0, self._count - 1) / self.recording_fps

    def _read_image(self) -> tuple[np.ndarray, str]:
        assert self._entries is not None
        if self._held is not None and self._repeats_left > 0:
            self._repeats_left -= 1
            return self._held
        if self._pos >= len(self._entries):
            if not self.loop:
                raise EndOfStream(f"{self.name}: end of stream after {self._pos} frames")
            self._pos = 0
        entry = self._entries[self._pos]
        self._pos += 1
        image = cv2.imread(str(entry.path), cv2.IMREAD_COLOR)  # honours EXIF orientation
        if image is None:
            raise SourceLost(f"{self.name}: cannot read {entry.path.name}")
        self._held = (to_bgr(image), entry.path.name)
        self._repeats_left = entry.hold - 1
        return self._held

    def _read_video(self) -> tuple[np.ndarray, str]:
        assert self._video is not None
        ok, image = self._video.read()
        if not ok and self.loop and self._pos > 0:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._pos = 0
            ok, image = self._video.read()
        if not ok or image is None:
            raise EndOfStream(f"{self.name}: end of stream after {self._pos} frames")
        self._pos += 1
        return to_bgr(image), f"{self.path.name}#{self._pos - 1}"

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
        self._video = None
        self._entries = None


def _quiet_opencv() -> None:
    """OpenCV prints its own warnings for missing cameras; we report those ourselves, in one line."""
    with contextlib.suppress(AttributeError):  # very old OpenCV builds lack it
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def video_device_exists(index: int) -> bool | None:
    """Whether ``/dev/video{index}`` exists on Linux; None where that cannot be told (other systems)."""
    if sys.platform.startswith("linux"):
        return Path(f"/dev/video{index}").exists()
    return None


class OpenCVSource:
    """A USB (UVC) camera by index through OpenCV, at the asked resolution when the camera offers it."""

    def __init__(
        self,
        index: int = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        capture_factory: Callable[[int], cv2.VideoCapture] | None = None,
    ) -> None:
        self.index = index
        self.name = f"camera {index}"
        self.width, self.height, self.fps = width, height, fps
        self._factory = capture_factory or cv2.VideoCapture
        self._cap: cv2.VideoCapture | None = None
        self._count = 0

    def open(self) -> None:
        self.close()
        if self._factory is cv2.VideoCapture:
            _quiet_opencv()
            if video_device_exists(self.index) is False:
                raise SourceUnavailable(f"{self.name}: no camera at /dev/video{self.index}")
        cap = self._factory(self.index)
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            raise SourceUnavailable(f"{self.name}: cannot open the camera")
        if self.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        if self.fps:
            cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued seconds ago
        self._cap = cap
        log.info("%s open", self.name)

    def read(self) -> Frame:
        if self._cap is None:
            raise SourceLost(f"{self.name}: read before open")
        try:
            ok, image = self._cap.read()
        except cv2.error as exc:
            raise SourceLost(f"{self.name}: {exc}") from exc
        if not ok or image is None:
            raise SourceLost(f"{self.name}: the camera stopped delivering frames")
        frame = Frame(to_bgr(image), index=self._count, timestamp=time.time(), origin=self.name)
        self._count += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap = None


#: What a :class:`FakeSource` step may be: a frame, an image array, or an exception to raise on that read.
FakeStep = Frame | np.ndarray | BaseException


@dataclass
class FakeSource:
    """Scripted frames for tests: each ``read()`` takes the next step.

    A step that is an exception is raised by that read (e.g. :class:`SourceLost` to simulate an unplugged
    camera). ``open_failures`` makes the first N ``open()`` calls raise :class:`SourceUnavailable`;
    ``loop`` replays the script forever. ``opens``/``closes`` count calls, for assertions.
    """

    steps: Sequence[FakeStep] = ()
    loop: bool = False
    open_failures: int = 0
    name: str = "fake"
    opens: int = 0
    closes: int = 0
    reads: int = 0
    _pos: int = field(default=0, repr=False)
    _open: bool = field(default=False, repr=False)
    _count: int = field(default=0, repr=False)

    def open(self) -> None:
        self.opens += 1
        if self.open_failures > 0:
            self.open_failures -= 1
            raise SourceUnavailable(f"{self.name}: not there (scripted)")
        self._open = True

    def read(self) -> Frame:
        if not self._open:
            raise SourceLost(f"{self.name}: read before open")
        if self._pos >= len(self.steps):
            if not self.loop or not self.steps:
                raise EndOfStream(f"{self.name}: end of stream after {self._pos} frames")
            self._pos = 0
        step = self.steps[self._pos]
        self._pos += 1
        self.reads += 1
        if isinstance(step, BaseException):
            if isinstance(step, SourceLost):
                self._open = False
            raise step
        image = step.image if isinstance(step, Frame) else step
        frame = Frame(to_bgr(image), index=self._count, timestamp=time.time(), origin=f"{self.name}#{self._pos - 1}")
        self._count += 1
        return frame

    def close(self) -> None:
        self.closes += 1
        self._open = False


def first_available(candidates: Iterable[Callable[[], FrameSource]]) -> tuple[FrameSource, list[str]] | None:
    """Open the first candidate that opens; returns it (open) and why the ones before it failed."""
    reasons: list[str] = []
    for make in candidates:
        source = make()
        try:
            source.open()
        except SourceUnavailable as exc:
            reasons.append(str(exc))
            source.close()
            continue
        return source, reasons
    return None
