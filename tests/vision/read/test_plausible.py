"""Boxes no tile makes: a face-down tile in no row or stack, a blank face alone read unsurely; the rest of a photo kept,
a lone tile too."""

import numpy as np
import pytest

from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, CLASS_NAMES
from vision.read.plausible import PlausibleDetector, implausible, plausible


def tile(name: str, x: float, y: float, conf: float = 0.9, w: float = 30, h: float = 40) -> Detection:
    cls = BACK_CLASS if name == "back" else CLASS_NAMES.index(name)
    return Detection.of_class(cls, Box(x, y, x + w, y + h), conf)


def row(names: str, x: float = 100, y: float = 300) -> list[Detection]:
    """Tiles side by side, 30 wide and 40 high, left to right from (x, y)."""
    return [tile(n, x + 31 * i, y) for i, n in enumerate(names.split())]


HAND = row("1m 2m 3m 4p 5p 6p 7s")


@pytest.mark.parametrize(
    ("extra", "dropped"),
    [
        ([tile("7p", 500, 60, conf=0.4)], []),  # a tile lying loose, alone and unsure, stays
        ([tile("5z", 500, 60, conf=0.9)], []),  # a lone tile read surely stays
        ([tile("5z", 500, 60, conf=0.4)], [("5z", "blank_alone")]),  # a blank white thing alone, read unsurely
        ([tile("5z", 500, 60, conf=0.4), tile("9p", 531, 60, conf=0.4)], []),  # a White dragon beside a tile
        ([tile("5z", 100 + 31 * 7, 300, conf=0.3)], []),  # ... at a hand's end
        ([tile("3z", 100 + 31 * 7, 300, conf=0.3)], []),  # an unsure tile at the row's end is in the row
        ([tile("back", 500, 60)], [("back", "back_alone")]),  # a felt's slot read as a face-down tile
        ([tile("back", 500, 60), tile("back", 500, 101)], []),  # a stack of two
        ([tile("back", 100 + 31 * 7, 300)], []),  # a closed kan's end, beside a face-up tile
        ([tile("back", 100, 300 + 41)], []),  # a face-down tile in the row below's place
        ([tile("back", 500, 60, w=90, h=120), tile("back", 400, 60)], [("back", "back_alone")] * 2),  # two sizes
    ],
)
def test_boxes_no_tile_makes_are_dropped_and_a_hands_tiles_are_not(extra, dropped):
    found = HAND + extra
    got = implausible(found)
    assert [(str(d.tile or "back"), why) for d, why in got] == dropped
    assert plausible(found) == [d for d in found if all(d is not g for g, _ in got)]


def test_a_photo_of_a_few_tiles_is_left_as_it_is():
    few = [tile("5z", 10, 10, conf=0.3), tile("back", 300, 200), tile("1m", 600, 100, conf=0.2)]
    assert implausible(few) == [] and plausible(few) == few


def test_a_row_down_the_frame_is_a_row_too():
    column = [tile("back", 200, 50 + 41 * i, w=30, h=40) for i in range(5)]
    lying = [tile("back", 400, 60, w=40, h=30)] + [tile("9s", 400, 91 + 31 * i, w=40, h=30) for i in range(3)]
    assert implausible(column + lying) == []


def test_the_layer_reports_its_detectors_tiles_less_those_no_tile_makes():
    image = np.zeros((480, 720, 3), np.uint8)  # 480 high, 720 wide
    layer = PlausibleDetector(FakeDetector([*HAND, tile("back", 600, 60)]))
    assert layer.detect(image) == HAND
    assert layer.seen == [Size(height=480, width=720)]  # what the layer does not have, the inner detector answers
