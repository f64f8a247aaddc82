"""Reading only what changed (:mod:`vision.read.zones`): the slices read round the changed zones (non-square
frames), the merge into the last reading (a tile added, removed, kept outside, cut by a slice's edge), when a frame
is read whole instead, and the camera's reader reading a frame round a zone through a network that reads pixels."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.fakes import BlocksNetwork, paint
from vision.read.detector import Detection
from vision.read.errors import ConfigError
from vision.read.geometry import Box, Size
from vision.read.labels import class_of_tile
from vision.read.pipeline import IncrementalReader, Models, Reader, ReaderConfig, Reading
from vision.read.zones import ZonePolicy, coarse_slices, grid_slices, inner_part, merge_slices, read_slices

FRAME = Size(height=1520, width=2028)  # the demo camera's 4:3 frame


def tile(mpsz: str, x: float, y: float, w: float = 40.0, h: float = 56.0, conf: float = 0.9) -> Detection:
    """A detection of ``mpsz`` centred at (``x``, ``y``)."""
    return Detection.of_class(class_of_tile(Tile.parse(mpsz)), Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2), conf)


def named(detections) -> list[tuple[str, tuple[float, float]]]:
    return [(d.label, d.box.center) for d in detections]


# the demo camera's frame is read in 4 x 3 slices of 640 px (the detector's finest slices): columns from x 0, 463,
# 925 and 1388, rows from y 0, 440 and 880; with 60 px tiles each speaks for what lies 36 px inside its inner edges
COL = {0: (0, 640), 1: (463, 1103), 2: (925, 1565), 3: (1388, 2028)}
ROW = {0: (0, 640), 1: (440, 1080), 2: (880, 1520)}


def at(row: int, col: int) -> Box:
    return Box(COL[col][0], ROW[row][0], COL[col][1], ROW[row][1])


@pytest.mark.parametrize(
    ("zones", "frame", "tile_px", "expected"),
    [
        ([Box(700, 600, 760, 680)], FRAME, 60, [at(1, 1)]),  # a discard inside one slice's inner part
        ([Box(1020, 700, 1080, 780)], FRAME, 60, [at(1, 2)]),  # where two overlap: the one that holds it
        ([Box(900, 850, 1120, 1100)], FRAME, 60, [at(1, 1), at(1, 2), at(2, 1), at(2, 2)]),  # across both: four
        ([Box(10, 10, 50, 60)], FRAME, 60, [at(0, 0)]),  # at the top left corner
        ([Box(1900, 1400, 1940, 1460)], FRAME, 60, [at(2, 3)]),  # at the bottom right corner
        ([Box(300, 300, 1300, 500)], FRAME, 60, [at(0, 0), at(0, 1), at(0, 2)]),  # a long zone: a row of slices
        ([Box(1900, 1400, 1940, 1460), Box(10, 10, 50, 60)], FRAME, 60, [at(0, 0), at(2, 3)]),  # two far apart
        ([Box(600, 600, 640, 660), Box(800, 700, 840, 760)], FRAME, 60, [at(1, 1)]),  # two in one slice
        # a frame lower than a slice: one row of two slices the frame's height
        ([Box(500, 200, 540, 260)], Size(height=480, width=1000), 40, [Box(360, 0, 1000, 480)]),
    ],
)
def test_the_slices_round_the_changed_zones(zones, frame, tile_px, expected):
    assert list(read_slices(zones, frame, tile_px, ZonePolicy())) == expected


@pytest.mark.parametrize(
    ("frame", "count"),
    [
        (FRAME, 12),
        (Size(height=900, width=1400), 6),
        (Size(height=480, width=1000), 2),  # lower than a slice: one row
        (Size(height=600, width=600), 0),  # smaller than a slice: read whole
    ],
)
@pytest.mark.parametrize("tile_px", [40.0, 60.0, 200.0])  # the margin never passes half the slices' overlap
def test_the_slices_speak_for_the_whole_frame(frame, count, tile_px):
    policy = ZonePolicy()
    grid = grid_slices(frame, policy)
    assert len(grid) == count
    covered = np.zeros((frame.height, frame.width), bool)
    for w in grid:
        assert w.x1 >= 0 and w.y1 >= 0 and w.x2 <= frame.width and w.y2 <= frame.height
        part = inner_part(w, frame, policy.margin(tile_px))
        covered[round(part.y1) : round(part.y2), round(part.x1) : round(part.x2)] = True
    assert covered.all() or not grid


@pytest.mark.parametrize(
    ("zone", "frame", "expected"),
    [
        # the camera's frame: two 1600 px slices across it; the one whose inner part holds the zone
        (Box(900.0, 850.0, 1120.0, 1100.0), Size(height=1520, width=2028), [Box(428.0, 0.0, 2028.0, 1520.0)]),
        (Box(100.0, 100.0, 160.0, 160.0), Size(height=1520, width=2028), [Box(0.0, 0.0, 1600.0, 1520.0)]),
        # a frame one coarse slice covers: the frame itself
        (Box(100.0, 100.0, 160.0, 160.0), Size(height=900, width=1400), [Box(0.0, 0.0, 1400.0, 900.0)]),
    ],
)
def test_the_zones_are_read_in_a_coarser_slice_too(zone, frame, expected):
    assert list(coarse_slices([zone], frame, 60.0, ZonePolicy())) == expected
    assert coarse_slices([zone], frame, 60.0, ZonePolicy(coarse_slice_side=None)) == ()


@pytest.mark.parametrize(
    ("frame_slice", "expected"),
    [
        (Box(400, 200, 1040, 840), Box(460, 260, 980, 780)),  # inside the frame: the margin all round
        (Box(0, 880, 640, 1520), Box(0, 940, 580, 1520)),  # at the left and bottom edges: no margin there
        (Box(0, 0, 2028, 1520), Box(0, 0, 2028, 1520)),  # the whole frame
    ],
)
def test_a_slice_speaks_for_its_inner_part(frame_slice, expected):
    assert inner_part(frame_slice, FRAME, 60.0) == expected


SLICE = Box(400, 200, 1040, 840)  # inner part (60 px margin): 460..980 x 260..780
OUTSIDE = tile("1z", 100, 100)  # far from the slice


@pytest.mark.parametrize(
    ("previous", "fresh", "expected"),
    [
        # a tile discarded in the slice: added, the tile outside kept
        ([OUTSIDE], [tile("1m", 700, 500)], [("1z", (100, 100)), ("1m", (700, 500))]),
        # a tile gone from the slice: removed, the tile outside kept
        ([OUTSIDE, tile("1m", 700, 500)], [], [("1z", (100, 100))]),
        # a tile read otherwise in the slice: the new reading
        ([tile("1m", 700, 500)], [tile("2m", 701, 500)], [("2m", (701, 500))]),
        # the slice's reading never speaks outside it: an old tile there stays even when the slice saw it otherwise
        ([tile("3m", 1200, 500)], [tile("4m", 1200, 500)], [("3m", (1200, 500))]),
        # a tile cut by the slice's right edge (centre within the margin): the old whole one is kept
        ([tile("5m", 1030, 500)], [tile("6m", 1025, 500, w=30)], [("5m", (1030, 500))]),
        # a tile across the inner part's edge read a few pixels over: one tile, the new reading
        ([tile("7m", 985, 400)], [tile("7m", 975, 400)], [("7m", (975, 400))]),
        # a tile the slice reads near its edge but outside its inner part, not there before: not taken
        ([], [tile("8m", 1020, 300)], []),
        # rows come out top to bottom, left to right
        ([tile("9p", 1500, 900), OUTSIDE], [tile("1p", 600, 300), tile("2p", 500, 300)],
         [("1z", (100, 100)), ("2p", (500, 300)), ("1p", (600, 300)), ("9p", (1500, 900))]),
    ],
)  # fmt: skip
def test_the_slices_reading_merged_into_the_last(previous, fresh, expected):
    assert named(merge_slices(previous, [fresh], [SLICE], FRAME, 60.0)) == expected


@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        ([], ["1m"]),  # nothing changed there: a tile near the slice's edge not found again is the slice's miss
        ([Box(940, 460, 1000, 540)], []),  # the gate saw it change: gone
        ([Box(600, 460, 660, 540)], ["1m"]),  # a change elsewhere in the slice says nothing of it
    ],
)
def test_a_tile_near_the_slices_edge_goes_only_where_the_table_changed(changed, expected):
    near_edge = tile("1m", 970, 500)  # in the inner part (up to 980), not in the core (up to 920)
    merged = merge_slices([near_edge], [[]], [SLICE], FRAME, 60.0, changed)
    assert [d.label for d in merged] == expected


def test_a_slice_at_the_frames_edge_speaks_up_to_it():
    frame_slice = Box(0, 880, 640, 1520)
    edge = tile("5z", 300, 1500)  # lying over the frame's bottom edge
    assert named(merge_slices([], [[edge]], [frame_slice], FRAME, 60.0)) == [("5z", (300, 1500))]


def test_two_slices_each_speak_for_their_own():
    left, right = Box(0, 0, 640, 640), Box(1388, 880, 2028, 1520)
    previous = [tile("1s", 300, 300), tile("2s", 1700, 1200), tile("3s", 1000, 700)]
    fresh = [[tile("4s", 300, 300)], [tile("5s", 1700, 1200), tile("6s", 1900, 1400)]]
    merged = merge_slices(previous, fresh, [left, right], FRAME, 60.0)
    assert named(merged) == [("4s", (300, 300)), ("3s", (1000, 700)), ("5s", (1700, 1200)), ("6s", (1900, 1400))]


def test_where_two_slices_overlap_a_tile_is_taken_once():
    upper, lower = Box(210, 20, 850, 660), Box(710, 520, 1350, 1160)
    fresh = [[tile("3p", 780, 590, conf=0.8)], [tile("3p", 781, 591, conf=0.9)]]  # inside both inner parts
    merged = merge_slices([tile("3p", 780, 590)], fresh, [upper, lower], FRAME, 60.0)
    assert [(d.label, d.box.center, d.conf) for d in merged] == [("3p", (781, 591), 0.9)]


def reading(detections, *, size: Size = FRAME, since_whole: int = 0) -> Reading:
    image = np.zeros((size.height, size.width, 3), np.uint8)
    return Reading(image, tuple(detections), (), since_whole=since_whole)


ZONE = (Box(1000, 700, 1060, 780),)
TILES = [tile("1m", 100, 100), tile("2m", 400, 300)]


@pytest.mark.parametrize(
    ("zones", "previous", "why"),
    [
        (ZONE, reading(TILES), ""),  # read round the zone
        (None, reading(TILES), "no zones or no reading before"),  # the loop asks for the whole frame
        (ZONE, None, "no zones or no reading before"),  # the first frame
        ((), reading(TILES), "no tile read before to size the slices"),
        (ZONE, reading([]), "no tile read before to size the slices"),
        (ZONE, reading(TILES, since_whole=6), ""),
        (ZONE, reading(TILES, since_whole=7), "every 8th read is whole"),  # a misread outside lasts 8 reads at most
        (ZONE, reading(TILES, size=Size(height=1520, width=2000)), "the frame's size changed"),
        ((Box(0, 0, 1200, 900),), reading(TILES), "the zones touch 6 of the 12 slices"),  # over a third
        ((Box(100, 100, 140, 160), Box(1900, 100, 1940, 160), Box(100, 1400, 140, 1460)), reading(TILES), ""),
        ((Box(100, 100, 140, 160), Box(1900, 100, 1940, 160), Box(100, 1400, 140, 1460), Box(1900, 1400, 1940, 1460),
          Box(1020, 100, 1060, 160)), reading(TILES), "the zones touch 5 of the 12 slices"),
        (ZONE, reading(TILES, size=Size(height=600, width=600)), "the frame's size changed"),
        ((Box(10, 10, 50, 60),), reading(TILES, size=Size(height=600, width=600)), "the frame is one slice"),
    ],
)  # fmt: skip
def test_when_a_frame_is_read_whole(zones, previous, why):
    frame = Size.of(previous.image) if why == "the frame is one slice" else FRAME
    got, slices = ZonePolicy(whole_every=8).whole_read_why(zones, previous, frame)
    assert got == why
    assert bool(slices) == (why == "")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"margin_tiles": -1.0}, "pad_tiles and margin_tiles must be 0 or more"),
        ({"max_share": 0.0}, "max_share must be above 0"),
        ({"whole_every": 0}, "whole_every must be at least 1"),
    ],
)
def test_a_bad_policy_is_refused_by_name(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        ZonePolicy(**kwargs)


# --- the reader: the blocks network reads what each slice shows ------------------------------------------------

BLOCK_H, BLOCK_W = 56, 40
TABLE = Size(height=900, width=1400)  # non-square


def block(image: np.ndarray, mpsz: str, x: int, y: int) -> Box:
    box = Box(x, y, x + BLOCK_W, y + BLOCK_H)
    paint(image, class_of_tile(Tile.parse(mpsz)), box)
    return box


def table(extra: dict[str, tuple[int, int]] | None = None) -> np.ndarray:
    """A row of 1m-6m blocks, 1p alone at the right, and ``extra`` blocks (mpsz -> top left)."""
    image = np.full((TABLE.height, TABLE.width, 3), 40, np.uint8)
    for i in range(6):
        block(image, f"{i + 1}m", 100 + 80 * i, 200)
    block(image, "1p", 1200, 700)
    for mpsz, (x, y) in (extra or {}).items():
        block(image, mpsz, x, y)
    return image


def blocks_reader(policy: ZonePolicy = ZonePolicy(refresh=False)) -> tuple[Reader, BlocksNetwork]:  # noqa: B008
    network = BlocksNetwork(max_batch=1)  # one run per slice: runs count the slices read
    config = ReaderConfig(classifier=None, zones=policy)
    return Reader.from_config(config, models=Models(network)), network


def test_the_reader_reads_only_round_the_zone_and_keeps_the_rest():
    reader, _ = blocks_reader()
    first = reader.read(table())
    assert first.slices == () and first.since_whole == 0
    assert first.text == "123456m 1p"
    # a 7m laid down in the middle; the 1p far off repainted 9p, outside the zone the gate saw change
    image = table({"7m": (700, 600)})
    block(image, "9p", 1200, 700)
    second = reader.read(image, zones=[Box(700, 600, 740, 656)], previous=first)
    assert second.slices == (Box(380, 260, 1020, 900),) and second.since_whole == 1
    assert second.text == "123456m 7m 1p"  # the 1p kept: not read again
    assert 0 < second.runs < first.runs
    # the 7m taken back up
    third = reader.read(table(), zones=[Box(700, 600, 740, 656)], previous=second)
    assert third.text == "123456m 1p" and third.since_whole == 2
    # no zones: the frame read whole again, the 1p now seen as 9p
    whole = reader.read(image, previous=third)
    assert whole.slices == () and whole.since_whole == 0 and whole.text == "123456m 7m 9p"


def test_a_tile_cut_by_the_slice_keeps_its_last_reading():
    reader, _ = blocks_reader()
    across = {"2p": (1000, 600)}  # across the right edge (x 1020) of the slice round the zone below
    first = reader.read(table(across))
    assert first.text == "123456m 2p 1p"
    second = reader.read(table({**across, "7m": (700, 600)}), zones=[Box(700, 600, 740, 656)], previous=first)
    assert second.slices == (Box(380, 260, 1020, 900),)  # it sees the 2p's left half only
    assert second.text == "123456m 7m2p 1p"
    assert [d.box for d in second.detections if d.label == "2p"] == [d.box for d in first.detections if d.label == "2p"]


def test_the_incremental_reader_remembers_its_last_reading():
    reader, network = blocks_reader()
    incremental = IncrementalReader(reader)
    zone = [Box(700, 600, 740, 656)]
    assert incremental.read(table(), zone).slices == ()  # nothing read before: whole
    assert incremental.read(table({"7m": (700, 600)}), zone).text == "123456m 7m 1p"
    assert incremental.last is not None and incremental.last.slices
    incremental.forget()
    runs = network.runs
    assert incremental.read(table({"7m": (700, 600)}), zone).slices == ()
    assert network.runs - runs == reader.read(table()).runs  # a whole read's runs


def test_a_reader_around_a_detector_reads_whole_unless_it_reads_pixels():
    from vision.read.detector import FakeDetector

    fake = FakeDetector([tile("1m", 100, 100)])
    zone = [Box(700, 600, 740, 656)]
    image = np.zeros((TABLE.height, TABLE.width, 3), np.uint8)
    for reads_pixels, slices in ((False, 0), (True, 2)):  # the zone's slice and a refresh slice
        reader = Reader.around(fake, ReaderConfig.for_camera(), reads_pixels=reads_pixels)
        first = reader.read(image)
        assert len(reader.read(image, zones=zone, previous=first).slices) == slices


def test_each_zone_read_reads_the_next_refresh_slice_too():
    policy = ZonePolicy()
    grid = grid_slices(TABLE, policy)
    reader, _ = blocks_reader(policy)
    reading = reader.read(table())
    zone = [Box(700, 600, 740, 656)]
    for k in range(len(grid) + 1):
        reading = reader.read(table({"7m": (700, 600)}), zones=zone, previous=reading)
        due = grid[k % len(grid)]
        assert any(w.intersection(due) == due.area for w in reading.slices), (k, reading.slices)


def test_a_misread_outside_the_zones_lasts_no_longer_than_the_refresh_grid():
    policy = ZonePolicy()
    grid = grid_slices(TABLE, policy)
    reader, _ = blocks_reader(policy)
    reading = reader.read(table())
    image = table({"7m": (700, 600)})
    block(image, "9p", 1200, 700)  # the 1p is a 9p after all: the gate never saw it change
    texts = []
    for _ in grid:
        reading = reader.read(image, zones=[Box(700, 600, 740, 656)], previous=reading)
        texts.append(reading.text)
    assert texts[0] == "123456m 7m 1p" and texts[-1] == "123456m 7m 9p"
    # without the refresh it would last until a whole read
    reader, _ = blocks_reader()
    reading = reader.read(table())
    for _ in grid:
        reading = reader.read(image, zones=[Box(700, 600, 740, 656)], previous=reading)
    assert reading.text == "123456m 7m 1p"
