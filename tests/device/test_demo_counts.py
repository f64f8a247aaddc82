"""The demo's figures in device/README-pi.md, measured: one pass of the recording through the loop and its gate."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from device.camera.loop import ChangeGate, ServiceLoop
from device.camera.sources import FileReplaySource
from device.config import Config
from device.demo import RECORDING

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def one_pass() -> tuple[int, tuple[str, ...]]:
    """Frames the camera takes in one pass of the demo, and the images the loop reads, with the runtime's gate.

    Frames come as fast as they are read and reads are not rate limited: at the runtime's 2 frames and at most
    1 read a second the reads lie 2 s or more apart, so the limit never drops one there either."""
    loop_config = Config().loop
    read: list[str] = []
    loop = ServiceLoop(
        FileReplaySource(RECORDING, fps=None, loop=False),
        lambda frame, zones: frame.origin,
        read.append,
        gate=ChangeGate(loop_config.change_threshold, loop_config.motion_threshold),
        max_reads_per_second=1e6,
        zones=True,
    )
    stats = loop.run()
    return stats.frames, tuple(read)


def test_readme_pi_gives_the_frames_and_reads_of_one_demo_pass():
    text = (ROOT / "device" / "README-pi.md").read_text(encoding="utf-8")
    claim = re.search(r"One pass of the demo is (\d+) frames and gives (\d+) reads", text)
    assert claim, "README-pi states the demo's frames and reads"
    frames, read = one_pass()
    assert (frames, len(read)) == (int(claim.group(1)), int(claim.group(2)))


def test_the_demo_reads_every_still_table_once_and_no_arm():
    manifest = json.loads((RECORDING / "recording.json").read_text(encoding="utf-8"))
    still = [f["file"] for f in manifest["frames"] if f["arm"] is None]
    frames, read = one_pass()
    assert frames == sum(f["hold"] for f in manifest["frames"])
    assert read == tuple(still)
