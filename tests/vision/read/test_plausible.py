"""Boxes no tile makes: a face-down tile in no row or stack, a blank face alone read unsurely, a group of boxes side by
side none read surely; the rest of a photo kept, a lone tile too."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, CLASS_NAMES
from vision.read.plausible import OVERHEAD, PlausibleDetector, groups, implausible, neighbours, plausible


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
        ([tile("5z", 500, 60, conf=0.4), tile("9p", 531, 60, conf=0.6)], []),  # a White dragon beside a tile
        # two tiles side by side, neither read surely, in a photo read surely elsewhere: a rim's segments, two keys
        (
            [tile("5z", 500, 60, conf=0.4), tile("9p", 531, 60, conf=0.45)],
            [("5z", "unsure_group"), ("9p", "unsure_group")],
        ),
        ([tile("7p", 500, 60, conf=0.4), tile("9p", 600, 60, conf=0.45)], []),  # two unsure tiles lying apart
        ([tile("3z", 100 + 31 * 7, 300, conf=0.3), tile("2p", 100 + 31 * 8, 300, conf=0.3)], []),  # a hand's last two
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


def key_grid(x: float, y: float, rows: int = 3, cols: int = 5) -> list[Detection]:
    """A keyboard's keys, 16 wide and high on a 19 pitch, read unsurely as blank, West or back."""
    names = ["5z", "3z", "back", "2p"]
    return [
        tile(names[(r + c) % 4], x + 19 * c, y + 19 * r, conf=0.27 + 0.02 * ((r * cols + c) % 10), w=16, h=16)
        for r in range(rows)
        for c in range(cols)
    ]


@pytest.mark.parametrize(
    ("extra", "dropped"),
    [
        ([tile("back", 500, 60, conf=0.3)], [("back", "back_alone")]),  # a slot of an automatic table's felt
        ([tile("back", 500, 60, conf=0.8)], []),  # a tile lying face down, read surely
        ([tile("5z", 500, 60, conf=0.4)], [("5z", "blank_alone")]),
        ([tile("5z", 500, 60, conf=0.4), tile("9p", 531, 60, conf=0.45)], []),  # a wall's far tiles, read unsurely
    ],
)
def test_an_overhead_tables_rules_keep_a_sure_lone_back_and_unsure_groups(extra, dropped):
    found = HAND + extra
    got = implausible(found, OVERHEAD)
    assert [(str(d.tile or "back"), why) for d, why in got] == dropped
    assert PlausibleDetector(FakeDetector(found), OVERHEAD).detect(np.full((300, 700, 3), 200, np.uint8)) == [
        d for d in found if all(d is not g for g, _ in got)
    ]


def test_a_keyboards_keys_beside_a_hand_read_surely_are_no_tiles():
    keys = key_grid(100, 150)  # just above the hand: keys are too small to be the hand's neighbours
    got = implausible(HAND + keys)
    assert [d for d, _ in got] == keys and {why for _, why in got} == {"unsure_group"}
    assert plausible(HAND + keys) == HAND


def test_a_photo_read_unsurely_throughout_is_left_as_it_is():
    unsure_hand = [replace(d, conf=0.35) for d in HAND]
    assert implausible(unsure_hand + key_grid(100, 150)) == []


def test_an_unsure_run_joined_to_a_sure_tile_is_kept():
    run = [
        *(tile(n, 100 + 31 * i, 300, conf=0.3) for i, n in enumerate(["1s", "2s", "3s", "4s"])),
        tile("5s", 224, 300),
    ]
    assert implausible([*run, tile("back", 400, 60), tile("back", 400, 101)]) == []


@given(
    st.lists(
        st.tuples(st.floats(0, 400), st.floats(0, 300), st.floats(4, 60), st.floats(4, 60)), min_size=0, max_size=25
    )
)
def test_groups_part_the_boxes_and_hold_each_box_with_its_neighbours(boxes):
    found = [tile("1m", x, y, w=w, h=h) for x, y, w, h in boxes]
    parts = groups(found)
    assert sorted(id(d) for g in parts for d in g) == sorted(id(d) for d in found)
    group_of = {id(d): i for i, g in enumerate(parts) for d in g}
    for d in found:
        assert all(group_of[id(o)] == group_of[id(d)] for o in neighbours(d, found))
    for g in parts:
        assert [d for d in found if any(d is m for m in g)] == g  # each group in the photo's order


def photo_with(*patches: tuple[Detection, tuple[int, int, int]]) -> np.ndarray:
    """A light cloth, 480 high and 720 wide, with each box painted in its BGR colour."""
    image = np.full((480, 720, 3), (170, 190, 200), np.uint8)
    for d, bgr in patches:
        b = d.box
        image[int(b.y1) : int(b.y2), int(b.x1) : int(b.x2)] = bgr
    return image


SLOT = tile("back", 100 + 31 * 7, 300, conf=0.8)  # at the hand's end, so in its row
DARK, NAVY, ORANGE = (40, 40, 45), (90, 30, 10), (40, 140, 230)


@pytest.mark.parametrize(
    ("colour", "wall", "dropped"),
    [
        (DARK, [], True),  # an automatic table's slot (or a dark cloth) read as a face-down tile beside the hand
        (ORANGE, [], False),  # a face-down tile of an orange-backed set
        (NAVY, [], False),  # dark, but blue: a navy-backed set's tile
        (DARK, [(tile("back", 500, 60), DARK), (tile("back", 500, 101), DARK)], False),  # a dark set: its stack
        (DARK, [(tile("back", 500, 60), ORANGE), (tile("back", 500, 101), ORANGE)], True),  # the set's are orange
    ],
)
def test_a_dark_grey_back_in_no_wall_or_stack_is_no_tile_unless_the_sets_backs_are_dark(colour, wall, dropped):
    found = [*HAND, SLOT, *(d for d, _ in wall)]
    image = photo_with((SLOT, colour), *wall)
    got = implausible(found, image=image)
    assert got == ([(SLOT, "dark_back")] if dropped else [])
    assert implausible(found) == []  # no image, no colour to tell by
    assert PlausibleDetector(FakeDetector(found)).detect(image) == [d for d in found if not (dropped and d is SLOT)]
