"""Phantom tiles (:mod:`vision.eval.phantoms`): boxes over no labelled tile, counted per image."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.fakes import encode
from vision.eval.phantoms import PhantomTally, labelled_scenes, phantoms
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import BACK_CLASS, YoloBox, class_of_tile, labels_text


def _class(name: str) -> int:
    return BACK_CLASS if name == "back" else class_of_tile(Tile.parse(name))


def _read(name: str, x: float, conf: float = 0.9) -> Detection:
    """A 10 x 14 box at ``x`` read as ``name``."""
    return Detection.of_class(_class(name), Box(x, 0.0, x + 10.0, 14.0), conf)


#: Labelled tiles: a row of three 10 x 14 tiles at x 0, 10, 20.
ROW = [Box(float(x), 0.0, x + 10.0, 14.0) for x in (0, 10, 20)]


@pytest.mark.parametrize(
    ("found", "expected"),
    [
        ([("1m", 0), ("2m", 10), ("3m", 20)], []),  # each box on a tile: none
        ([("1m", 1), ("5z", 40)], ["5z"]),  # a key beside the row read as haku
        ([("9p", 25)], []),  # a box shifted half a tile still lies over one (IoU 1/3)
        ([("back", 31), ("5z", 60), ("2p", 90)], ["back", "5z", "2p"]),  # a keyboard's keys past the row
        ([("3z", 28)], ["3z"]),  # overlapping a tile by a fifth of its width: over none (IoU 0.11)
    ],
)
def test_phantoms_are_boxes_over_no_labelled_tile(found, expected):
    boxes = [_read(name, x) for name, x in found]
    assert ["back" if d.tile is None else str(d.tile) for d in phantoms(boxes, ROW)] == expected


def test_no_labelled_tile_makes_every_box_a_phantom():
    assert len(phantoms([_read("1m", 0), _read("5z", 40)], [])) == 2


def _scene_folder(root: Path, scenes: dict[str, list[tuple[str, float]]]) -> Path:
    """A YOLO folder of 100 x 50 grey images, each labelled with 10 x 14 tiles at (x, 0)."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for stem, tiles in scenes.items():
        (root / "images" / f"{stem}.jpg").write_bytes(encode(np.full((50, 100, 3), 90, np.uint8)))
        boxes = [YoloBox.of_pixels(_class(name), (x, 0, x + 10, 14), width=100, height=50) for name, x in tiles]
        (root / "labels" / f"{stem}.txt").write_text(labels_text(boxes), encoding="utf-8")
    return root


def test_labelled_scenes_read_a_yolo_folder_in_pixels(tmp_path):
    folder = _scene_folder(tmp_path / "set", {"b": [("1m", 0), ("back", 20)], "a": [("7z", 40)]})
    scenes = list(labelled_scenes(folder))
    assert [s.kind for s in scenes] == ["a.jpg", "b.jpg"]
    assert [(c, b.as_list()) for c, b in scenes[1].truth] == [
        (_class("1m"), [0.0, 0.0, 10.0, 14.0]),
        (BACK_CLASS, [20.0, 0.0, 30.0, 14.0]),
    ]
    assert [s.kind for s in labelled_scenes(folder, limit=1)] == ["a.jpg"]


def test_labelled_scenes_of_a_folder_without_images_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no images/"):
        list(labelled_scenes(tmp_path))


@pytest.mark.parametrize(
    ("readings", "per_image", "read_as", "exact"),
    [
        # image 1: the row read right; image 2: the row read right and two keys read as 5z
        (
            [[("1m", 0), ("2m", 10), ("3m", 20)], [("1m", 0), ("2m", 10), ("3m", 20), ("5z", 40), ("5z", 60)]],
            [0, 2],
            {"5z": 2},
            1,
        ),
        # image 1: one tile missed and a back on the felt; image 2: nothing read
        ([[("1m", 0), ("2m", 10), ("back", 70)], []], [1, 0], {"back": 1}, 0),
    ],
)
def test_tally_counts_phantoms_per_image_beside_tiles_read(tmp_path, readings, per_image, read_as, exact):
    folder = _scene_folder(tmp_path / "set", {f"{i}": [("1m", 0), ("2m", 10), ("3m", 20)] for i in range(2)})
    tally = PhantomTally()
    for shot, found in zip(labelled_scenes(folder), readings, strict=True):
        tally.add(shot, [_read(name, x) for name, x in found])
    report = tally.as_json()
    assert tally.per_image == per_image
    assert report["phantoms"] == sum(per_image)
    assert report["phantoms_per_image"] == sum(per_image) / 2
    assert report["images_with_phantoms"] == sum(1 for n in per_image if n)
    assert report["most_in_one_image"] == max(per_image)
    assert report["read_as"] == read_as
    assert report["exact"] == exact and report["tiles"] == 6
