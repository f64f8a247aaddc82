"""The camera reader's budget: crops read in their first two views and only the unsure ones in the other two
(:attr:`vision.read.classifier.TwoStageDetector.views_below`), in as few classifier runs as the batch allows, and the
budget as data in :class:`vision.read.pipeline.ReaderConfig`. Hand-built colour classifiers, fake detectors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.fakes import colour_model
from tests.vision.read.test_classifier import BLUE, GREEN, RED, WeakBoxesDetector, frame_with
from vision.read.classifier import SURE_IN_TWO_VIEWS, OnnxTileClassifier, TwoStageDetector
from vision.read.detector import Detection
from vision.read.errors import ConfigError
from vision.read.geometry import Box
from vision.read.pipeline import CAMERA_CROP_BATCH, CAMERA_MAX_RUNS, PHOTO_MAX_RUNS, ReaderConfig

#: Red a little over green and blue: the colour classifier names it 1m, at about 0.54 (unsure).
REDDISH = (122, 122, 133)  # BGR

BLOCKS = {
    "red": (10, 10, 50, 60),
    "reddish": (100, 10, 140, 60),
    "green": (200, 10, 240, 60),
    "blue": (300, 10, 340, 60),
}
COLOURS = {"red": RED, "reddish": REDDISH, "green": GREEN, "blue": BLUE}


def boxes_of(names: list[str], conf: float) -> list[Detection]:
    return [Detection.of_class(9, Box(*map(float, BLOCKS[n])), conf) for n in names]


def read(views_below: float | None, found: list[str], weak: list[str], tmp_path, batch: int | None = None):
    """(labels read, crops of each classifier run) of a frame with every block, the named boxes handed over."""
    frame = frame_with(100, 400, [(COLOURS[n], b) for n, b in BLOCKS.items()])
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    fed: list[int] = []
    logits = clf.logits

    def spy(batch_in, outputs, max_batch=None):
        fed.append(len(batch_in))
        return logits(batch_in, outputs, max_batch)

    clf.logits = spy
    two = TwoStageDetector(WeakBoxesDetector(boxes_of(found, 0.9), boxes_of(weak, 0.2)), clf)
    two.views_below, two.batch = views_below, batch
    return [d.label for d in two.detect(frame)], fed


@pytest.mark.parametrize(
    ("found", "weak", "labels", "all_views_fed", "unsure_fed"),
    [
        # sure crops: read in two views, no second run
        (["red", "green"], [], ["1m", "6z"], [8], [4]),
        # the unsure crop alone is read in its two other views
        (["red", "reddish", "green"], [], ["1m", "1m", "6z"], [12], [6, 2]),
        # a crop more likely no tile than a tile is dropped after the first look
        (["red", "blue"], [], ["1m"], [8], [4]),
        # weak boxes: looked at with the found ones; the one that passes the screen is read in views, even when sure
        (["red"], ["green", "blue"], ["1m", "6z"], [2, 8], [6, 2]),
        (["reddish"], ["green"], ["1m", "6z"], [1, 8], [4, 4]),
    ],
)
def test_only_unsure_crops_are_read_in_views_and_the_tiles_are_those_of_all_views(
    tmp_path, found, weak, labels, all_views_fed, unsure_fed
):
    every, fed_every = read(None, found, weak, tmp_path)
    unsure, fed_unsure = read(SURE_IN_TWO_VIEWS, found, weak, tmp_path)
    assert every == unsure == labels
    assert fed_every == all_views_fed  # as before: the weak screen, then every crop in four views
    assert fed_unsure == unsure_fed


@pytest.mark.parametrize(("batch", "runs"), [(None, 2), (2, 4), (1, 8)])
def test_crop_batch_sets_the_crops_of_a_run(tmp_path, batch, runs):
    # 3 found crops in two views, then the unsure one's other 2: 8 crops, in runs of ``batch`` (None: the model's 64)
    labels, fed = read(SURE_IN_TWO_VIEWS, ["red", "reddish", "green"], [], tmp_path, batch)
    assert labels == ["1m", "1m", "6z"]
    assert len(fed) == 2  # two passes whatever the batch ...
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    two = TwoStageDetector(WeakBoxesDetector(boxes_of(["red", "reddish", "green"], 0.9), []), clf)
    two.views_below, two.batch = SURE_IN_TWO_VIEWS, batch
    two.detect(frame_with(100, 400, [(COLOURS[n], b) for n, b in BLOCKS.items()]))
    assert clf.runs == runs  # ... each in ceil(crops / batch) runs


def test_the_camera_reader_carries_the_budget():
    camera, photo = ReaderConfig.for_camera(), ReaderConfig.for_photo()
    assert (camera.max_runs, camera.crop_views_below is not None) == (CAMERA_MAX_RUNS, True)
    photo_budget = (PHOTO_MAX_RUNS, SURE_IN_TWO_VIEWS, CAMERA_CROP_BATCH)
    assert (photo.max_runs, photo.crop_views_below, photo.crop_batch) == photo_budget


@pytest.mark.parametrize(
    ("field", "value"),
    [("crop_views_below", 0.0), ("crop_views_below", 1.5), ("crop_batch", 0), ("max_runs", 0)],
)
def test_a_budget_out_of_range_is_refused(field, value):
    with pytest.raises(ConfigError, match=field):
        ReaderConfig(**{field: value})


def test_a_batch_of_zero_is_refused(tmp_path):
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    with pytest.raises(ValueError, match="max_batch"):
        clf.logits(np.zeros((1, 3, 64, 48), np.float32), 3, max_batch=0)
