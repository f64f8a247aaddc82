"""Boxes the photo's edge cuts, kept only when sure: :mod:`vision.read.views.photo_edge`."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS
from vision.read.views.photo_edge import SURE_AT_EDGE, SureAtEdgeDetector, cut_by_edge

HEIGHT, WIDTH = 3000, 4000  # not square: the edge's margin is a share of the longer side (4 px)


@pytest.mark.parametrize(
    ("box", "cut"),
    [
        ((0, 1000, 300, 1400), True),  # the left edge
        ((3700, 1000, 4000, 1400), True),  # the right edge
        ((1000, 0, 1300, 400), True),  # the top
        ((1000, 2600, 1300, 2997), True),  # 3 px off the bottom
        ((1000, 2600, 1300, 2990), False),  # 10 px off it
        ((5, 1000, 300, 1400), False),  # 5 px off the left edge
        ((1000, 1000, 1300, 1400), False),
    ],
)
def test_cut_by_edge(box, cut):
    assert cut_by_edge(Box(*map(float, box)), Size(height=HEIGHT, width=WIDTH)) is cut


@pytest.mark.parametrize(
    ("box", "conf", "kept"),
    [
        ((0, 1000, 150, 1400), 0.3, False),  # a guess at a part of something: dropped
        ((0, 1000, 150, 1400), SURE_AT_EDGE, True),  # a tile the edge cuts, read surely
        ((1000, 0, 1300, 200), 0.49, False),
        ((0, 1000, 600, 1400), 0.3, False),  # wider than a tile: clutter, not a tile lying against the edge
        ((0, 1000, 300, 1400), 0.3, True),  # a whole tile's size: a tile lying against the edge
        ((0, 1000, 400, 1300), 0.3, True),  # ... lying sideways
        ((1000, 1000, 1300, 1400), 0.3, True),  # a weak box inside the frame is not this layer's to judge
    ],
)
def test_a_weak_box_the_edge_cuts_is_dropped(box, conf, kept):
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    inner = Detection.of_class(3, Box(2000.0, 1000.0, 2300.0, 1400.0), 0.9)
    found = Detection.of_class(5, Box(*map(float, box)), conf)
    assert SureAtEdgeDetector(FakeDetector([inner, found])).detect(image) == [inner] + [found] * kept


@pytest.mark.parametrize("others", [[], [Detection.of_class(3, Box(2000.0, 1000.0, 2300.0, 1400.0), 0.3)]])
def test_a_photo_with_no_sure_tile_away_from_its_edge_keeps_what_the_edge_cuts(others):
    """A tile filling the photo runs into its edge: with no sure tile elsewhere to be the photo's subject, it is."""
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    filling = Detection.of_class(5, Box(0.0, 2.0, 4000.0, 3000.0), 0.3)
    assert SureAtEdgeDetector(FakeDetector([filling, *others])).detect(image) == [filling, *others]


def test_a_back_at_the_edge_is_judged_alike():
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    back = Detection.of_class(BACK_CLASS, Box(3879.0, 127.0, 4000.0, 368.0), 0.38)  # a tray's dark plastic, stop 19
    tile = Detection.of_class(3, Box(2000.0, 1000.0, 2300.0, 1400.0), 0.8)  # tiles 300 x 400: the back is smaller
    assert SureAtEdgeDetector(FakeDetector([back, tile])).detect(image) == [tile]


def test_the_photo_reader_judges_boxes_at_the_edge_outermost():
    from tests.vision.fakes import BlocksNetwork, photo_reader

    reader = photo_reader(BlocksNetwork(), way_up=None).detector  # inside the boxes no tile makes dropped
    assert isinstance(reader, SureAtEdgeDetector)
    assert reader.stretches is reader.detector.stretches  # the layers inside still answer through it
