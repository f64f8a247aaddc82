"""The loop reading only what changed: the gate's zones (non-square frames), its reference kept where nothing was
read, the zones handed to ``read(frame, zones)`` (None for a whole read), and a reader reading round them."""

from __future__ import annotations

import numpy as np
import pytest

from device.camera.loop import Backoff, ChangeGate, Decision, ServiceLoop
from device.camera.sources import FakeSource, Frame, SourceLost
from tests.device.camera.test_loop import TILE_H, TILE_W, H, W, felt, script_of_a_discard, with_tile
from tests.vision.read.test_zones import blocks_reader, table
from vision.read.geometry import Box
from vision.read.pipeline import IncrementalReader

#: How far a zone may reach past what changed: the gate's cells (20 px in an 800 px frame), grown by one, and blurred.
REACH = 60


def changed(gate: ChangeGate, before: np.ndarray, after: np.ndarray):
    gate.consider(Frame(before))
    gate.accept()
    gate.consider(Frame(after))  # the first still frame: moving
    return gate.consider(Frame(after))


def around(box: Box, reach: float) -> Box:
    return Box(box.x1 - reach, box.y1 - reach, box.x2 + reach, box.y2 + reach)


def holds(outer: Box, inner: Box) -> bool:
    return outer.x1 <= inner.x1 and outer.y1 <= inner.y1 and outer.x2 >= inner.x2 and outer.y2 >= inner.y2


@pytest.mark.parametrize(
    "places",
    [
        [(300, 420)],  # one tile mid-table
        [(0, W - TILE_W)],  # a tile in the top right corner
        [(H - TILE_H, 0)],  # a tile in the bottom left corner
        [(100, 100), (450, 650)],  # two tiles far apart: two zones
    ],
)
def test_the_gate_tells_where_the_table_changed(places):
    after = felt(1)
    for y, x in places:
        after = with_tile(after, y=y, x=x)
    result = changed(ChangeGate(), felt(0), after)
    assert result.decision is Decision.CHANGED
    assert result.zones is not None and len(result.zones) == len(places)
    tiles = sorted((Box(x, y, x + TILE_W, y + TILE_H) for y, x in places), key=lambda b: (b.y1, b.x1))
    for zone, tile in zip(sorted(result.zones, key=lambda b: (b.y1, b.x1)), tiles, strict=True):
        assert holds(zone, tile) and holds(around(tile, REACH), zone), (zone, tile)


@pytest.mark.parametrize(
    ("decision_of", "zones"),
    [
        (lambda gate: gate.consider(Frame(felt(0))), None),  # the first frame: everything
        (lambda gate: changed(gate, felt(0), np.ascontiguousarray(felt(1)[:, : W - 100])), None),  # a new resolution
    ],
)
def test_the_gate_gives_no_zones_when_everything_changed(decision_of, zones):
    assert decision_of(ChangeGate()).zones is zones


def with_shade(img: np.ndarray, by: int) -> np.ndarray:
    """A faint change over a 60 px square at the top left (a shadow creeping in)."""
    out = img.astype(np.int16)
    out[60:120, 60:120] += by
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_change_too_faint_to_count_adds_up_where_nothing_was_read():
    gate = ChangeGate()
    # a tile laid down while a faint shade creeps in far from it: read round the tile only
    result = changed(gate, felt(0), with_shade(with_tile(felt(1)), 4))
    assert result.decision is Decision.CHANGED and len(result.zones) == 1
    assert not holds(result.zones[0], Box(60, 60, 120, 120))
    gate.accept()
    # the shade deepens: against the frame read it has changed enough now, against the last frame only a little
    again = with_shade(with_tile(felt(2)), 8)
    gate.consider(Frame(again))
    result = gate.consider(Frame(again))
    assert result.decision is Decision.CHANGED
    assert len(result.zones) == 1 and holds(result.zones[0], Box(60, 60, 120, 120))


class ZoneRecorder:
    """A stand-in reader: records the frames read and the zones each was handed."""

    def __init__(self) -> None:
        self.reads: list[tuple[int, tuple[Box, ...] | None]] = []

    def read(self, frame: Frame, zones: tuple[Box, ...] | None) -> int:
        self.reads.append((frame.index, zones))
        return frame.index


def zone_loop(steps, read, observed: list) -> ServiceLoop:
    return ServiceLoop(
        FakeSource(steps), read, observed.append, max_reads_per_second=1000.0, backoff=Backoff(0.001, 0.004), zones=True
    )


def test_the_loop_hands_the_changed_zones_to_the_reader():
    rec, observed = ZoneRecorder(), []
    zone_loop(script_of_a_discard(), rec.read, observed).run()
    assert [index for index, _ in rec.reads] == [0, 6] and observed == [0, 6]
    assert rec.reads[0][1] is None  # the first frame: whole
    zones = rec.reads[1][1]
    tile = Box(420, 300, 420 + TILE_W, 300 + TILE_H)  # where script_of_a_discard lays its tile
    assert zones is not None and len(zones) == 1 and holds(zones[0], tile) and holds(around(tile, REACH), zones[0])


def test_after_the_camera_was_lost_the_next_read_is_whole():
    rec, observed = ZoneRecorder(), []
    steps = [felt(0), SourceLost("fake: unplugged"), with_tile(felt(1)), with_tile(felt(2)), felt(3), felt(4)]
    zone_loop(steps, rec.read, observed).run()
    # frame 2 (the tile, still) after reconnecting: whole; frame 4 (the tile gone): round it
    assert [(index, zones is None) for index, zones in rec.reads] == [(0, True), (2, True), (4, False)]


def test_the_loop_reads_a_new_tile_round_its_zone_only():
    reader, network = blocks_reader()
    incremental = IncrementalReader(reader)
    runs: list[int] = []

    def read(frame: Frame, zones):
        before = network.runs
        reading = incremental.read(frame.image, zones)
        runs.append(network.runs - before)
        return reading

    laid = table({"7m": (700, 600)})
    observed: list = []
    zone_loop([table(), table(), laid, laid, laid], read, observed).run()
    whole, zoned = observed
    assert (whole.slices, whole.text) == ((), "123456m 1p")
    assert len(zoned.slices) == 1 and zoned.text == "123456m 7m 1p"
    assert runs == [whole.runs, zoned.runs] and 0 < runs[1] < runs[0]
