"""Reading order: rows top to bottom, tiles left to right, one mpsz group per row, backs counted not written."""

from __future__ import annotations

import random

import pytest

from engine.tiles import parse_tiles
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import BACK_CLASS, class_of_tile
from vision.read.rows import read_tiles

W, H = 30.0, 40.0  # an upright tile seen from above


def row(text: str, x: float, y: float, *, slope: float = 0.0, gap: float = 2.0, sideways: str = "") -> list[Detection]:
    """Detections of tiles laid left to right from (x, y); ``b`` in text is a face-down tile; indexes in ``sideways``
    (digits) lie sideways (wider than tall, bottom-aligned); ``slope`` is the drift down per pixel to the right."""
    out = []
    cx = x
    tokens = []
    for part in text.split("|"):
        tokens += ["back"] if part == "b" else [str(t) for t in parse_tiles(part)]
    for i, tok in enumerate(tokens):
        w, h = (H, W) if str(i) in sideways.split(",") else (W, H)
        top = y + slope * (cx - x) + (H - h)
        cls = BACK_CLASS if tok == "back" else class_of_tile(parse_tiles(tok)[0])
        out.append(Detection.of_class(cls, Box(cx, top, cx + w, top + h), 0.9))
        cx += w + gap
    return out


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # a closed hand: one row
        ([("123m456p789s1122z", 0, 100, {})], "123m456p789s1122z"),
        # reading order is left to right, not sorted
        ([("9m1m5z", 0, 100, {})], "91m5z"),
        # red fives stay red
        ([("0m0p0s5m", 0, 100, {})], "0m0p0s5m"),
        # two rows: the upper one first
        ([("456s", 0, 300, {}), ("123m", 0, 100, {})], "123m 456s"),
        # a hand photographed at a slant (10 px drift over 17 px per tile: 14 tiles drift 240 px)
        ([("1112345678999m", 0, 100, {"slope": 0.5})], "1112345678999m"),
        # a meld far to the right of the hand is on the hand's row; its called tile lies sideways
        ([("1234567m", 0, 100, {}), ("555z", 500, 100, {"sideways": "0"})], "1234567m555z"),
        # a closed kan with two tiles face down: backs are counted, not written
        ([("b|3p|3p|b", 0, 100, {}), ("11m", 0, 200, {})], "33p 11m"),
        # a row of only backs (a wall) writes nothing
        ([("b|b|b|b", 0, 50, {}), ("1z", 0, 200, {})], "1z"),
        # nothing found
        ([], ""),
    ],
)
def test_reading_order(rows, expected):
    dets = [d for text, x, y, kw in rows for d in row(text, x, y, **kw)]
    random.Random(7).shuffle(dets)  # detector order carries no meaning
    assert read_tiles(dets).text == expected


def test_two_rows_at_a_slant_stay_apart():
    dets = row("123456789m", 0, 100, slope=0.3) + row("123456789p", 0, 170, slope=0.3)
    reading = read_tiles(dets)
    assert reading.text == "123456789m 123456789p"
    assert [len(r.detections) for r in reading.rows] == [9, 9]


def test_backs_are_counted():
    reading = read_tiles(row("b|1m|b", 0, 0))
    assert reading.backs == 2 and reading.tiles == parse_tiles("1m")


def test_tiles_read_a_half_turn_round_read_as_one_row_in_their_owners_order():
    """The turns of tiles read upside down straddle 180 degrees (179 and -179): the row's turn is 180, not 0."""
    from engine.tiles import Tile
    from vision.read.detector import Orientation

    boxes = [Box(300.0 - 40 * k, 50.0, 330.0 - 40 * k, 90.0) for k in range(4)]  # owner's first tile at the right
    turns = [179.0, -179.0, 178.0, -178.5]
    dets = [
        Detection(Tile.parse(n), b, 0.9, Orientation.UPRIGHT, t)
        for n, b, t in zip(("1p", "2p", "3p", "4p"), boxes, turns, strict=True)
    ]
    assert read_tiles(dets).text == "1234p"
