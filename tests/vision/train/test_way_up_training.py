"""Real photos' tiles for the way-up network (:mod:`vision.train.way_up_training`): a photo's way up told by its
characters, winds and dragons, and every standing tile of it cut upright."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import parse_tiles
from tests.vision.read.test_way_up import HEIGHT, WIDTH, band_model, hand
from vision.read.geometry import Box
from vision.read.labels import class_of_tile
from vision.read.way_up import OnnxWayUp
from vision.train.classifier_training import NONE_CLASS, Scene
from vision.train.way_up_training import (
    MIN_TELLING,
    TELLING_CLASSES,
    real_way_up_crops,
    real_way_up_scenes,
    told_way,
    voting_boxes,
)


@pytest.fixture
def judge(tmp_path) -> OnnxWayUp:
    return OnnxWayUp(band_model(tmp_path / "way_up.onnx"))


def scene(names: list[str], upside_down: bool) -> Scene:
    image, found = hand(names, upside_down)
    return Scene(image, tuple((d.class_id, d.box) for d in found), "drawn")


@pytest.mark.parametrize(
    ("tiles", "p", "way"),
    [
        ("123m", [0.1, 0.2, 0.1], False),  # characters stood upright
        ("1m7z", [0.9, 0.8], True),  # two telling tiles upside down
        ("1m", [0.9], None),  # one is too few
        ("1m2p3p", [0.1, 0.9, 0.9], None),  # pins do not tell
        ("12m3z", [0.1, 0.9, 0.1], None),  # a third disagrees
        ("1234m", [0.1, 0.1, 0.1, 0.9], None),  # a quarter disagrees
        ("12345m", [0.1, 0.1, 0.1, 0.1, 0.6], False),  # one in five may
        ("12m", [0.4, 0.4], None),  # unsure
        ("5z6z", [0.9, 0.9], None),  # a white dragon does not tell
    ],
)
def test_a_photos_way_up_is_told_by_its_characters_winds_and_dragons(tiles, p, way):
    classes = [class_of_tile(t) for t in parse_tiles(tiles)]
    assert told_way(classes, np.array(p)) is way


def test_the_telling_classes_are_the_characters_winds_and_green_and_red_dragons():
    assert {class_of_tile(t) for t in parse_tiles("123456789m1234z67z")} == TELLING_CLASSES
    assert MIN_TELLING >= 2


@pytest.mark.parametrize("upside_down", [False, True])
def test_every_standing_tile_of_a_told_photo_is_cut_upright(judge, upside_down):
    shot = scene(["1m", "2m", "2p", "8p", "7z", "5z"], upside_down)
    got = real_way_up_crops([shot], judge, per_box=3, seed=1)
    assert (got.upright, got.upside_down, got.untold) == ((0, 1, 0) if upside_down else (1, 0, 0))
    assert got.crops.shape == (18, judge.input_size.height, judge.input_size.width, 3)
    assert (judge.upside_down(got.crops) < 0.5).all()  # the pins and the white dragon too


@pytest.mark.parametrize(
    "names",
    [
        ["1p", "2p", "8p", "5z"],  # nothing tells
        ["1m"],  # too few
    ],
)
def test_a_photo_whose_way_is_not_told_gives_no_crop(judge, names):
    got = real_way_up_crops([scene(names, True)], judge)
    assert (got.upright, got.upside_down, got.untold, len(got.crops)) == (0, 0, 1, 0)


def test_sideways_tiles_stand_and_a_photo_lying_askew_gives_none():
    shot = scene(["1m", "2m", "3m"], False)
    sideways = Scene(shot.image, ((0, Box(10, 200, 100, 260)), *shot.boxes), "drawn")
    assert len(voting_boxes(sideways, turn_of=lambda image, box: 2.0)) == 4
    assert voting_boxes(sideways, turn_of=lambda image, box: 30.0) == []
    one_askew = iter([2.0, 30.0, 1.0, None])
    assert len(voting_boxes(sideways, turn_of=lambda image, box: next(one_askew))) == 3
    cut = Scene(shot.image, ((0, Box(0, 100, 60, 190)), *shot.boxes), "drawn")  # cut by the photo's edge
    assert len(voting_boxes(cut, turn_of=lambda image, box: 0.0)) == 3
    assert shot.image.shape[:2] == (HEIGHT, WIDTH)


def test_real_sources_are_named():
    with pytest.raises(ValueError, match="no real source"):
        next(real_way_up_scenes(["camerash"]))


@pytest.mark.slow
def test_alanchoi00s_flowers_are_scenes_boxes_but_no_tile():
    pytest.importorskip("vision.eval.other_sets")
    try:
        first = next(real_way_up_scenes(["alanchoi00"]))
    except FileNotFoundError:
        pytest.skip("alanchoi00 is not installed")
    assert all(0 <= c <= NONE_CLASS for c, _ in first.boxes)
