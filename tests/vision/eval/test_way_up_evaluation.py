"""``jantaku-lab eval way-up``'s sets (:mod:`vision.eval.way_up_evaluation`): another set's pins, bamboo and white
dragons scored in the way their photo's characters, winds and dragons tell."""

from __future__ import annotations

import pytest

import vision.train.way_up_training as training
from tests.vision.read.test_way_up import band_model
from tests.vision.train.test_way_up_training import scene
from vision.eval.way_up_evaluation import _scores, _told_crops
from vision.read.labels import CLASS_NAMES
from vision.read.way_up import OnnxWayUp


@pytest.fixture
def model(tmp_path) -> OnnxWayUp:
    return OnnxWayUp(band_model(tmp_path / "way_up.onnx"))


def test_the_tiles_that_do_not_tell_are_scored_upright_in_told_photos(model, monkeypatch):
    shots = [
        scene(["1m", "2m", "2p", "8s", "5z"], True),  # told upside down: its three others turned back
        scene(["7z", "6z", "9p"], False),
        scene(["1p", "2p", "3p", "4p"], True),  # nothing tells: left out
    ]
    asked = []
    monkeypatch.setattr(
        training, "real_way_up_scenes", lambda sources, split: asked.append((sources, split)) or iter(shots)
    )
    crops, classes = _told_crops(model, "valid")
    assert asked == [(["alanchoi00"], "valid")]
    assert [CLASS_NAMES[c] for c in classes] == ["2p", "8s", "5z", "9p"]
    got = _scores(model, crops, classes)
    assert got["upright_right"] == got["turned_right"] == got["pairs_right"] == 1.0
    assert set(got["by_suit"]) == {"p", "s", "z"}


def test_a_split_with_no_told_photo_is_left_out(model, monkeypatch):
    monkeypatch.setattr(training, "real_way_up_scenes", lambda sources, split: iter([scene(["1p", "2p"], False)]))
    with pytest.raises(FileNotFoundError, match="no told photo"):
        _told_crops(model, "test")
