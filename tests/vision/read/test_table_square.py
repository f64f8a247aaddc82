"""A camera turned to the table (:mod:`vision.read.table.square`): the rows' turn measured from boxes, kept from frame
to frame, and frames straightened by it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.postprocess import PAD_VALUE
from vision.read.table.square import MIN_TABLE_TURN, TableTurn, row_turn

TILE_H, TILE_W = 40.0, 30.0


def turned_box(cx: float, cy: float, degrees: float, h: float = TILE_H, w: float = TILE_W) -> Box:
    """The upright bounds of a tile centred at (cx, cy), turned counter-clockwise as an image shows it."""
    t = math.radians(degrees)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    bw, bh = w * c + h * s, w * s + h * c
    return Box(cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)


def row(n: int, degrees: float, start=(100.0, 300.0), conf: float = 0.9, gap: float = 2.0) -> list[Detection]:
    """``n`` tiles side by side in a row running ``degrees`` counter-clockwise from the image's x axis."""
    t = math.radians(degrees)
    step = TILE_W + gap
    return [
        Detection.of_class(
            0, turned_box(start[0] + i * step * math.cos(t), start[1] - i * step * math.sin(t), degrees), conf
        )
        for i in range(n)
    ]


def table(degrees: float) -> list[Detection]:
    """A hand along the bottom and a wall up the right, both turned ``degrees`` about (400, 300)."""
    t = math.radians(degrees)
    out = []
    for x, y, along in ((150.0, 520.0, 0.0), (640.0, 500.0, 90.0)):
        # the row's start turned about the middle, the row running along its own edge turned as much
        dx, dy = x - 400.0, y - 300.0
        sx, sy = 400.0 + dx * math.cos(t) + dy * math.sin(t), 300.0 - dx * math.sin(t) + dy * math.cos(t)
        out += row(13, along + degrees, (sx, sy))
    return out


@pytest.mark.parametrize("degrees", [0.0, 3.0, -6.0, 10.0, 20.0, -30.0, 44.0])
def test_a_row_measures_its_turn(degrees):
    assert row_turn(row(14, degrees)) == pytest.approx(degrees, abs=0.5)


@pytest.mark.parametrize("degrees", [0.0, 10.0, -25.0, 40.0])
def test_rows_along_and_across_the_table_agree_modulo_a_quarter(degrees):
    assert row_turn(table(degrees)) == pytest.approx(degrees, abs=0.5)


@pytest.mark.parametrize(
    ("case", "detections"),
    [
        ("too few tiles", row(5, 10.0)),
        ("unsure tiles do not vote", row(14, 10.0, conf=0.3)),
        ("no neighbour within reach", row(14, 10.0, gap=3 * TILE_H)),
        ("nothing", []),
    ],
)
def test_no_turn_without_rows(case, detections):
    assert row_turn(detections) is None, case


def test_tiles_lying_loose_say_nothing_of_a_table():
    rng = np.random.default_rng(3)
    loose = [
        Detection.of_class(0, turned_box(x, y, float(rng.uniform(-45, 45))), 0.9)
        for x, y in zip(rng.uniform(0, 800, 30), rng.uniform(0, 600, 30), strict=True)
    ]
    # pairs of neighbours at random directions: their 4-fold mean is short
    assert row_turn(loose + row(3, 0.0)) is None


def test_the_turn_is_kept_and_moved_only_by_a_turn_left_of_a_degree_or_more():
    turn = TableTurn()
    assert turn.update(table(20.0)) and turn.turn == pytest.approx(20.0, abs=0.5) and turn.updates == 1
    assert not turn.update(table(0.3))  # the frame read squared: a wobble left
    assert not turn.update(row(4, 15.0))  # too few tiles to say
    assert turn.turn == pytest.approx(20.0, abs=0.5) and turn.updates == 1
    assert turn.update(table(-5.0)) and turn.turn == pytest.approx(15.0, abs=0.8)  # a camera knocked
    wrapped = TableTurn(turn=40.0)
    assert wrapped.update(table(10.0)) and wrapped.turn == pytest.approx(-40.0, abs=0.5)  # modulo a quarter turn
    assert MIN_TABLE_TURN <= 2.0  # the table reader loses seats at 6 degrees


@pytest.mark.parametrize(("height", "width"), [(300, 500), (480, 360)])
def test_frames_are_straightened_in_their_own_size(height, width):
    image = np.zeros((height, width, 3), np.uint8)
    cx, cy, r, degrees = width / 2, height / 2, 100.0, 30.0
    t = math.radians(degrees)
    x, y = round(cx + r * math.cos(t)), round(cy - r * math.sin(t))  # a point 30 degrees up from the x axis
    image[y - 2 : y + 3, x - 2 : x + 3] = 255
    assert TableTurn(turn=0.5).straightened(image) is image  # under a degree: as it is
    straight = TableTurn(turn=degrees).straightened(image)
    assert straight.shape == image.shape
    ys, xs = np.nonzero(straight[..., 0] > 128)
    assert xs.mean() == pytest.approx(cx + r, abs=1.5) and ys.mean() == pytest.approx(cy, abs=1.5)  # on the x axis
    assert tuple(straight[0, 0]) == (PAD_VALUE,) * 3  # the corners the turn brings in: the letterbox's grey


def test_boxes_of_a_straightened_frame_are_given_back_as_the_frame_shows_them():
    height, width, degrees = 300, 500, 30.0
    turn = TableTurn(turn=degrees)
    t = math.radians(degrees)
    # a tile at (cx + 100, cy) in the straightened frame lies 30 degrees up from the x axis in the frame itself
    found = [Detection.of_class(0, Box(335.0, 135.0, 365.0, 165.0), 0.9)]
    (back,) = turn.in_frame(found, height, width)
    cx, cy = width / 2 + 100 * math.cos(t), height / 2 - 100 * math.sin(t)
    assert back.box.center == pytest.approx((cx, cy), abs=0.01)
    assert back.box.width == pytest.approx(30 * (math.cos(t) + math.sin(t)), abs=0.01)  # bounds of the turned tile
    assert back.turn == degrees and back.tile == found[0].tile and back.conf == found[0].conf
    assert TableTurn(turn=0.4).in_frame(found, height, width) == found  # frames read as they are: as they are
