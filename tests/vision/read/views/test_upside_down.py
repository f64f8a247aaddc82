"""A photo taken from across the table, read turned a half turn (:mod:`vision.read.views.upside_down`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from vision.read.budget import RunBudget
from vision.read.detector import Detection, FakeDetector, Orientation
from vision.read.geometry import Box
from vision.read.labels import class_of_tile
from vision.read.rows import read_tiles
from vision.read.views.compare import reads_surer
from vision.read.views.upside_down import HalfTurnDetector, detection_back, half_turned

#: Each tile's middle is painted its own colour (BGR), which the fake reader names it by.
COLOURS = {"1m": (40, 40, 200), "2m": (40, 200, 40), "3m": (200, 40, 40), "7z": (200, 200, 40)}
HEIGHT, WIDTH = 300, 500  # not square: a half turn must map x by the width and y by the height


def hand(names: list[str], upside_down: bool) -> np.ndarray:
    """A row of tiles on a grey cloth, each white with a dark band along its top edge (where a glyph's top is) and
    its colour in the middle; ``upside_down``: the photo of that row taken from across the table."""
    image = np.full((HEIGHT, WIDTH, 3), 90, np.uint8)
    for k, name in enumerate(names):
        x1, y1 = 60 + 70 * k, 100
        cv2.rectangle(image, (x1, y1), (x1 + 59, y1 + 89), (235, 235, 235), -1)
        cv2.rectangle(image, (x1 + 5, y1 + 5), (x1 + 54, y1 + 20), (20, 20, 20), -1)
        cv2.rectangle(image, (x1 + 20, y1 + 35), (x1 + 39, y1 + 60), COLOURS[name], -1)
    return half_turned(image) if upside_down else image


def read(image: np.ndarray) -> list[Detection]:
    """The fake network: every white tile, named by its middle's colour, surer (0.9) when its dark band is at its
    top than when it is at its bottom (0.6), as the detector is surer of upright tiles than of upside-down ones."""
    tiles = cv2.bitwise_not(cv2.inRange(image, (90, 90, 90), (90, 90, 90)))  # all but the cloth
    count, _, stats, _ = cv2.connectedComponentsWithStats(tiles)
    out = []
    for x, y, w, h, area in stats[1:count]:
        if area < 400:
            continue
        middle = image[y + h // 2, x + w // 2].astype(int)
        name = min(COLOURS, key=lambda n: int(np.abs(middle - COLOURS[n]).sum()))
        top, bottom = image[y + 12, x + w // 2], image[y + h - 12, x + w // 2]
        conf = 0.9 if top.max() < 60 <= bottom.min() else 0.6
        out.append(Detection.of_class(class_of_tile(Tile.parse(name)), Box(x, y, x + w, y + h), conf))
    return out


def reader() -> HalfTurnDetector:
    return HalfTurnDetector(FakeDetector(read), probe=FakeDetector(read))


def test_the_fake_reads_each_tile_and_is_surer_of_upright_ones():
    up, down = read(hand(["1m", "2m", "3m"], False)), read(hand(["1m", "2m", "3m"], True))
    assert [str(d.tile) for d in sorted(up, key=lambda d: d.box.x1)] == ["1m", "2m", "3m"]
    assert [str(d.tile) for d in sorted(down, key=lambda d: d.box.x1)] == ["3m", "2m", "1m"]
    assert {d.conf for d in up} == {0.9} and {d.conf for d in down} == {0.6}


@pytest.mark.parametrize(
    ("names", "upside_down", "turned", "text"),
    [
        (["1m", "2m", "3m"], False, False, "123m"),
        (["1m", "2m", "3m"], True, True, "123m"),  # from across the table: read in its owner's order
        (["7z", "1m", "2m", "3m"], True, True, "7z123m"),
    ],
)
def test_a_hand_reads_in_its_owners_order_either_way_up(names, upside_down, turned, text):
    photo = hand(names, upside_down)
    r = reader()
    found = r.detect(photo)
    assert list(r.turned) == [turned]
    assert read_tiles(found).text == text
    assert {d.conf for d in found} == {0.9}  # each tile as it reads upright
    truth = {str(d.tile): d.box for d in read(photo)}  # where the tiles lie in the photo itself
    for d in found:
        assert d.box.iou(truth[str(d.tile)]) > 0.98
        assert d.turn == (180.0 if turned else 0.0)
        assert d.orientation is Orientation.UPRIGHT


def test_an_upright_photo_is_read_once_as_it_is():
    inner, probe = FakeDetector(read), FakeDetector(read)
    r = HalfTurnDetector(inner, probe)
    photo = hand(["1m", "2m"], False)
    assert r.detect(photo) == read(photo)
    assert len(inner.seen) == 1 and len(probe.seen) == 2  # the probe reads it both ways, the reader once


def test_a_photo_near_even_either_way_is_read_as_it_is():
    """Another set's tiles, which the detector reads as surely either way up: read as the photo is."""
    photo = hand(["1m", "2m"], True)
    even = FakeDetector(lambda image: [Detection.of_class(0, Box(0, 0, 10, 14), 0.8)])
    r = HalfTurnDetector(FakeDetector(read), probe=even)
    r.detect(photo)
    assert list(r.turned) == [False]


def _tiles(*confs: float, at: int = 0) -> list[Detection]:
    """Detections of tiles side by side (tile ``k`` at ``k + at``), each with its confidence."""
    return [
        Detection.of_class(0, Box(20.0 * (k + at), 0.0, 20.0 * (k + at) + 15, 20.0), c) for k, c in enumerate(confs)
    ]


@pytest.mark.parametrize(
    ("as_is", "turned_back", "surer"),
    [
        (_tiles(0.6, 0.6, 0.6), _tiles(0.9, 0.9, 0.9), True),  # every tile surer turned
        (_tiles(0.8, 0.8, 0.8), _tiles(0.83, 0.83, 0.83), False),  # near even: within the margins
        # surer on the whole only because the half turn boxed one tile more, its paired tiles less sure
        (_tiles(0.8, 0.8, 0.5), _tiles(0.78, 0.78) + _tiles(0.95, at=5), False),
        (_tiles(0.6, 0.6, 0.6), _tiles(0.9, 0.9, 0.9) + _tiles(0.3, 0.3, 0.3, at=5), False),  # weak boxes more
        (_tiles(0.7, 0.7, 0.7, 0.4), _tiles(0.68, 0.68, 0.68, 0.95), False),  # one tile much surer, most less
        (_tiles(0.5), _tiles(0.9, at=3), False),  # no tile found by both
        ([], _tiles(0.9), False),
        (_tiles(0.5), _tiles(0.9), True),  # one tile, surer turned: a single tile photographed upside down
    ],
)
def test_the_half_turn_must_read_surer_on_the_whole_and_tile_by_tile(as_is, turned_back, surer):
    assert reads_surer(as_is, turned_back) is surer


def test_a_photo_with_no_tiles_is_read_as_it_is():
    r = HalfTurnDetector(FakeDetector(()), probe=FakeDetector(()))
    assert r.detect(np.full((HEIGHT, WIDTH, 3), 90, np.uint8)) == [] and list(r.turned) == [False]


@pytest.mark.parametrize("turn", [0.0, 30.0, -90.0, 180.0])
def test_a_detection_mapped_back_twice_is_where_it_was(turn):
    d = Detection(Tile.parse("5p"), Box(10.0, 20.0, 50.0, 80.0), 0.7, Orientation.UPRIGHT, turn)
    back = detection_back(d, HEIGHT, WIDTH)
    assert back.box == Box(WIDTH - 50.0, HEIGHT - 80.0, WIDTH - 10.0, HEIGHT - 20.0)
    assert abs(((back.turn - turn) % 360) - 180) < 1e-9
    assert detection_back(back, HEIGHT, WIDTH) == d


def test_the_layers_pass_on_what_the_reader_has():
    inner = FakeDetector(())
    inner.options = "options"  # type: ignore[attr-defined]
    assert HalfTurnDetector(inner, FakeDetector(())).options == "options"


def test_the_half_turn_is_probed_only_when_the_budget_affords_it():
    inner, probe = FakeDetector(read), FakeDetector(read)
    budget = RunBudget(lambda: len(inner.seen) + len(probe.seen))
    r = HalfTurnDetector(inner, probe, budget=budget)
    photo = hand(["1m", "2m"], True)  # upside down: the probe reads its half turn surer
    with budget.reading(1):
        r.detect(photo)
    assert len(probe.seen) == 1 and list(r.turned) == [False] and budget.left_out == ("upside_down",)
    with budget.reading(3):
        r.detect(photo)
    assert list(r.turned) == [False, True] and budget.left_out == ()
