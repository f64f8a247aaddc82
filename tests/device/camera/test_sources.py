"""Frame sources: replay of folders and videos, the fake camera, the USB camera's failure modes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import ClassVar

import cv2
import numpy as np
import pytest

from device.camera.sources import (
    EndOfStream,
    FakeSource,
    FileReplaySource,
    Frame,
    FrameSource,
    OpenCVSource,
    SourceLost,
    SourceUnavailable,
    first_available,
    to_bgr,
)

H, W = 120, 200  # non-square on purpose: height != width


def marked(i: int, h: int = H, w: int = W) -> np.ndarray:
    """A non-square frame whose top-left block encodes ``i`` (to check order after a round trip)."""
    img = np.full((h, w, 3), 30, np.uint8)
    img[: h // 2, : w // 2] = (10 * i % 256, 100, 200)
    return img


def value(frame: Frame) -> int:
    return int(frame.image[5, 5, 0])


@pytest.fixture
def folder(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:03}.png"), marked(i))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_frame_reports_height_and_width():
    frame = Frame(np.zeros((H, W, 3), np.uint8))
    assert (frame.height, frame.width, frame.size) == (H, W, (H, W))


@pytest.mark.parametrize(
    "bad",
    [np.zeros((H, W), np.uint8), np.zeros((H, W, 3), np.float32), np.zeros((H, W, 4), np.uint8), "image"],
)
def test_frame_refuses_what_is_not_bgr(bad):
    with pytest.raises(ValueError, match="height, width, 3"):
        Frame(bad)


@pytest.mark.parametrize(
    ("image", "expected"),
    [
        (np.full((H, W), 7, np.uint8), (7, 7, 7)),  # grey
        (np.full((H, W, 1), 9, np.uint8), (9, 9, 9)),  # grey with a channel axis
        (np.dstack([np.full((H, W), c, np.uint8) for c in (1, 2, 3, 255)]), (1, 2, 3)),  # BGRA drops alpha
        (np.full((H, W, 3), 1000, np.uint16), (3, 3, 3)),  # 16-bit: the high byte
    ],
)
def test_to_bgr(image, expected):
    out = to_bgr(image)
    assert out.shape == (H, W, 3) and out.dtype == np.uint8
    assert tuple(out[0, 0]) == expected


def test_sources_satisfy_the_protocol(folder):
    for source in (FileReplaySource(folder), OpenCVSource(0), FakeSource()):
        assert isinstance(source, FrameSource)


def test_folder_replay_in_name_order_then_end(folder):
    src = FileReplaySource(folder)
    src.open()
    frames = [src.read() for _ in range(3)]
    assert [value(f) for f in frames] == [0, 10, 20]
    assert [(f.height, f.width) for f in frames] == [(H, W)] * 3
    assert [f.index for f in frames] == [0, 1, 2]
    assert frames[1].origin == "001.png"
    with pytest.raises(EndOfStream):
        src.read()
    src.close()
    src.close()  # twice is fine


def test_folder_replay_loops(folder):
    src = FileReplaySource(folder, loop=True)
    src.open()
    assert [value(src.read()) for _ in range(7)] == [0, 10, 20, 0, 10, 20, 0]


def test_manifest_orders_and_holds_frames(folder):
    (folder / "recording.json").write_text(
        json.dumps({"frames": [{"file": "002.png", "hold": 2}, {"file": "000.png"}, {"file": "002.png"}]})
    )
    src = FileReplaySource(folder, fps=50, loop=True)
    src.open()
    t0 = time.monotonic()
    frames = [src.read() for _ in range(5)]
    elapsed = time.monotonic() - t0
    assert [value(f) for f in frames] == [20, 20, 0, 20, 20]  # the first held twice, then round again
    assert [f.origin for f in frames] == ["002.png", "002.png", "000.png", "002.png", "002.png"]
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert elapsed >= 0.075  # paced: four periods of 20 ms between five frames


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("{not json", "not a recording manifest"),
        (json.dumps({"frames": [{"name": "000.png"}]}), "not a recording manifest"),
        (json.dumps({"frames": [{"file": "gone.png"}]}), "missing frames gone.png"),
        (json.dumps({"frames": [{"file": "000.png", "hold": 0}]}), "a hold is at least 1"),
    ],
)
def test_bad_manifest_is_a_clear_error(folder, manifest, message):
    (folder / "recording.json").write_text(manifest)
    with pytest.raises(SourceUnavailable, match=message):
        FileReplaySource(folder).open()


def test_video_replay(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (W, H))
    assert writer.isOpened()
    for i in range(4):
        writer.write(marked(i * 5))
    writer.release()
    src = FileReplaySource(path, loop=True)
    src.open()
    frames = [src.read() for _ in range(6)]
    assert [(f.height, f.width) for f in frames] == [(H, W)] * 6
    expected = [0, 50, 100, 150, 0, 50]  # looped back to the start after four frames (JPEG: within a few levels)
    assert all(abs(value(f) - e) <= 6 for f, e in zip(frames, expected, strict=True)), [value(f) for f in frames]
    once = FileReplaySource(path)
    once.open()
    for _ in range(4):
        once.read()
    with pytest.raises(EndOfStream):
        once.read()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing", None, "no such file or folder"),
        ("empty", "dir", "no images in the folder"),
        ("notes.txt", "text", "neither a folder of images nor a video"),
        ("broken.mp4", "text", "cannot open the video"),
    ],
)
def test_replay_that_cannot_open(tmp_path, name, content, message):
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif content == "text":
        path.write_text("hello")
    with pytest.raises(SourceUnavailable, match=message):
        FileReplaySource(path).open()


def test_unreadable_image_mid_replay_is_lost(folder):
    (folder / "003.png").write_bytes(b"not a png")
    src = FileReplaySource(folder)
    src.open()
    for _ in range(3):
        src.read()
    with pytest.raises(SourceLost, match=r"cannot read 003\.png"):
        src.read()


def test_read_before_open_is_lost(folder):
    with pytest.raises(SourceLost, match="before open"):
        FileReplaySource(folder).read()


class FlakyCapture:
    """Stands in for cv2.VideoCapture: delivers ``good`` frames, then fails like an unplugged camera."""

    def __init__(self, good: int, opened: bool = True) -> None:
        self.good, self.opened, self.released, self.props = good, opened, False, {}

    def isOpened(self):  # OpenCV's name
        return self.opened

    def set(self, prop, val):
        self.props[prop] = val
        return True

    def read(self):
        if self.good <= 0:
            return False, None
        self.good -= 1
        return True, marked(self.good)

    def release(self):
        self.released = True


def test_usb_camera_vanishing_mid_stream_raises_source_lost():
    cap = FlakyCapture(good=2)
    src = OpenCVSource(3, width=W, height=H, capture_factory=lambda index: cap)
    src.open()
    assert cap.props == {cv2.CAP_PROP_FRAME_WIDTH: W, cv2.CAP_PROP_FRAME_HEIGHT: H, cv2.CAP_PROP_BUFFERSIZE: 1}
    assert src.read().size == (H, W)
    src.read()
    with pytest.raises(SourceLost, match="camera 3: the camera stopped delivering frames"):
        src.read()
    src.close()
    assert cap.released


def test_usb_camera_that_does_not_open():
    cap = FlakyCapture(good=0, opened=False)
    with pytest.raises(SourceUnavailable, match="camera 1: cannot open"):
        OpenCVSource(1, capture_factory=lambda index: cap).open()
    assert cap.released


def test_missing_usb_camera_is_unavailable_not_a_crash():
    # no camera at such an index on any machine that runs the tests
    with pytest.raises(SourceUnavailable, match="camera 97"):
        OpenCVSource(97).open()


def test_fake_source_scripts_failures_and_counts_calls():
    src = FakeSource([marked(1), SourceLost("fake: unplugged"), marked(2)], open_failures=1)
    with pytest.raises(SourceUnavailable):
        src.open()
    src.open()
    assert value(src.read()) == 10
    with pytest.raises(SourceLost, match="unplugged"):
        src.read()
    with pytest.raises(SourceLost, match="before open"):  # a lost camera must be reopened
        src.read()
    src.open()
    assert value(src.read()) == 20
    with pytest.raises(EndOfStream):
        src.read()
    assert (src.opens, src.reads) == (3, 3)


def test_first_available_skips_what_does_not_open(folder):
    picked = first_available([lambda: OpenCVSource(97), lambda: FileReplaySource(folder)])
    assert picked is not None
    source, reasons = picked
    assert isinstance(source, FileReplaySource)
    assert len(reasons) == 1 and "camera 97" in reasons[0]
    assert first_available([lambda: OpenCVSource(97)]) is None


class FakePicamera2:
    """Stands in for picamera2.Picamera2: frames of the configured size, then a capture failure."""

    cameras: ClassVar[list] = [{"Model": "imx477"}]
    good = 2
    instances: ClassVar[list] = []

    def __init__(self, index: int) -> None:
        self.index, self.config, self.started, self.closed = index, None, False, False
        FakePicamera2.instances.append(self)

    @classmethod
    def global_camera_info(cls):
        return cls.cameras

    def create_still_configuration(self, main, buffer_count):
        return {"main": main, "buffer_count": buffer_count}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, stream):
        if FakePicamera2.good <= 0:
            raise RuntimeError("Camera frontend has timed out!")
        FakePicamera2.good -= 1
        width, height = self.config["main"]["size"]
        return np.full((height, width, 3), 77, np.uint8)

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    import types

    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.good, FakePicamera2.instances = 2, []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


def test_importing_the_pi_camera_module_does_not_import_picamera2():
    code = "import sys, device.camera.picamera, device.camera.sources; print('picamera2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_pi_camera_without_picamera2_is_unavailable(monkeypatch):
    from device.camera.picamera import PiCameraSource, picamera_available

    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a machine without it
    with pytest.raises(SourceUnavailable, match="picamera2 is not installed"):
        PiCameraSource().open()
    assert picamera_available() is False


def test_pi_camera_frames_and_loss(fake_picamera2):
    from device.camera.picamera import PiCameraSource, picamera_available

    assert picamera_available()
    src = PiCameraSource(0, width=W, height=H)
    assert isinstance(src, FrameSource)
    src.open()
    cam = FakePicamera2.instances[-1]
    assert cam.started and cam.config["main"] == {"size": (W, H), "format": "RGB888"}
    assert [src.read().size for _ in range(2)] == [(H, W), (H, W)]
    with pytest.raises(SourceLost, match=r"capture failed .*timed out"):
        src.read()
    src.close()
    assert cam.closed and not cam.started


def test_pi_camera_index_beyond_the_cameras_found(fake_picamera2):
    from device.camera.picamera import PiCameraSource

    with pytest.raises(SourceUnavailable, match=r"pi camera 1: no such camera \(1 found\)"):
        PiCameraSource(1).open()
