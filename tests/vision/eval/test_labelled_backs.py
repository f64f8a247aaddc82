"""Backs labelled by eye on alanchoi00's photos (:mod:`vision.eval.labelled_backs`): which a reading still reads."""

from __future__ import annotations

import pytest

from vision.eval import other_sets
from vision.eval.labelled_backs import BackTally, LabelledBack, labelled_backs
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import BACK_CLASS, CLASS_NAMES

WALL = LabelledBack(Box(0, 0, 30, 40), tile=True)
SLOT = LabelledBack(Box(100, 0, 130, 40), tile=False, what="an automatic table's slot")


def read(name: str, x: float) -> Detection:
    return Detection.of_class(BACK_CLASS if name == "back" else CLASS_NAMES.index(name), Box(x, 2, x + 30, 42), 0.6)


@pytest.mark.parametrize(
    ("found", "expected"),
    [
        ([read("back", 1), read("back", 101)], {"no_tile": 1, "no_tile_read": 1, "tiles": 1, "tiles_read": 1}),
        ([read("back", 1)], {"no_tile": 1, "no_tile_read": 0, "tiles": 1, "tiles_read": 1}),  # the slot dropped
        ([read("5z", 101)], {"no_tile": 1, "no_tile_read": 1, "tiles": 1, "tiles_read": 0}),  # a slot read as a face
        (
            [read("back", 16)],
            {"no_tile": 1, "no_tile_read": 0, "tiles": 1, "tiles_read": 0},
        ),  # a box half over it: IoU 0.28
        ([], {"no_tile": 1, "no_tile_read": 0, "tiles": 1, "tiles_read": 0}),
    ],
)
def test_a_labelled_back_is_read_when_any_box_lies_over_it(found, expected):
    tally = BackTally()
    tally.count((WALL, SLOT), found)
    assert tally.as_json() == expected


def test_the_labels_name_photos_of_the_sets_they_are_for():
    valid, test = labelled_backs("alanchoi00-valid"), labelled_backs("alanchoi00-test")
    assert labelled_backs("leo-held-out") == {}
    counts = [
        sum(b.tile is tile for backs in labels.values() for b in backs)
        for labels in (valid, test)
        for tile in (True, False)
    ]
    assert counts == [113, 8, 45, 3]  # 158 tiles, 11 no tile
    assert all(b.what for labels in (valid, test) for backs in labels.values() for b in backs if not b.tile)
    try:
        names = {split: {p.image.name for p in other_sets.load_split(split)} for split in ("valid", "test")}
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    assert set(valid) <= names["valid"] and set(test) <= names["test"]
