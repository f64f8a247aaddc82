"""The demo on a machine slower than its recording (a Pi, or the emulated arm64 root of device/check-pi-trixie.sh,
where one read takes minutes): the recording is read frame by frame, never skipped, and the winning hand it lays
open is scored while it lies there, before the recording starts over, however long each read takes.

The reads are made slow by the recording's own detector (:class:`~device.commands.run.RecordedLabels`) taking its
time, through the real runtime: source, gate, loop, reader, service and camera game.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest

from device.camera.sources import FileReplaySource
from device.commands.run import DEMO_AUTO_CONFIRM_S, RecordedLabels, RunOptions, TableRuntime
from device.config import Config
from device.demo import RECORDING

MANIFEST = json.loads((RECORDING / "recording.json").read_text(encoding="utf-8"))
STILL = [f["file"] for f in MANIFEST["frames"] if f["arm"] is None]  # the tables one pass reads, in order


def play_until_scored(tmp_path, monkeypatch, *, fps: float, read_s: float) -> tuple[list[tuple[str, int]], Any]:
    """``jantaku run --demo`` (no site) at ``fps`` frames a second, each read taking ``read_s`` seconds more, until
    the first hand is scored (or two passes). Returns each read's image with the hands scored when it began."""
    config = Config().with_overrides(camera={"kind": "demo", "fps": fps}, loop={"max_reads_per_second": 1000.0})
    table = TableRuntime(config, RunOptions(site=False, model=str(tmp_path / "none.onnx"), out=io.StringIO()))
    reads: list[tuple[str, int]] = []
    detect = RecordedLabels.detect

    def slow_detect(self, image):
        reads.append((self.origin, len(table.service.game.game.history)))
        time.sleep(read_s)
        return detect(self, image)

    monkeypatch.setattr(RecordedLabels, "detect", slow_detect)
    try:
        table.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not table.service.game.game.history and len(reads) < 2 * len(STILL):
            time.sleep(0.05)
    finally:
        table.close()
    return reads, table


@pytest.mark.parametrize(
    "fps, read_s",
    [
        (120.0, 0.1),  # a read takes 12 frames of the recording (the emulated root: about 500)
        pytest.param(2.0, 0.0, marks=pytest.mark.slow),  # the demo's own rate, 50 s: a fast machine's demo
    ],
)
def test_the_recorded_hand_is_scored_while_it_lies_open_however_slow_the_reads(tmp_path, monkeypatch, fps, read_s):
    reads, table = play_until_scored(tmp_path, monkeypatch, fps=fps, read_s=read_s)
    history = table.service.game.game.history
    assert history, f"no hand scored after {len(reads)} reads"
    before_score = [image for image, scored in reads if not scored]
    assert before_score == STILL  # every still table read once, and the hand scored before the recording restarts
    first = history[0]
    assert (first.outcome.value, list(first.deltas)) == ("tsumo", MANIFEST["winner"]["deltas"])


def test_the_replay_clock_is_the_recordings_time():
    """The demo's results wait :data:`DEMO_AUTO_CONFIRM_S` of the recording: frames delivered at its own rate."""
    source = FileReplaySource(RECORDING, fps=None, loop=True)
    source.open()
    assert source.recording_fps == MANIFEST["fps"] == 2
    before = time.time()
    source.read()
    epoch = source.clock()
    assert before <= epoch <= time.time()
    for _ in range(int(DEMO_AUTO_CONFIRM_S * MANIFEST["fps"])):
        source.read()  # read at once: the wall clock has hardly moved
    assert source.clock() - epoch == pytest.approx(DEMO_AUTO_CONFIRM_S)
    source.close()
