"""The reading budget: crops read in their first two views and only the unsure ones in the other two
(:attr:`vision.read.classifier.TwoStageDetector.views_below`), in as few classifier runs as the batch allows, the
budget as data in :class:`vision.read.pipeline.ReaderConfig`, and the runs of one read
(:class:`vision.read.budget.RunBudget`) that the views' extra readings must fit in. Hand-built colour classifiers,
fake detectors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.fakes import colour_model
from tests.vision.read.test_classifier import BLUE, GREEN, RED, WeakBoxesDetector, frame_with
from vision.read.budget import ClaimsMetDetector, RunBudget
from vision.read.classifier import SURE_IN_TWO_VIEWS, OnnxTileClassifier, TwoStageDetector
from vision.read.detector import Detection, FakeDetector
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


def counted(answer=(), least_reading=1):
    """A fake detector whose every reading counts one model run, and a budget counting them."""
    fake = FakeDetector(answer)
    return fake, RunBudget(lambda: len(fake.seen), least_reading=least_reading)


def test_a_read_affords_parts_and_readings_while_they_fit_and_names_those_left_out():
    fake, budget = counted(least_reading=2)
    image = np.zeros((90, 160, 3), np.uint8)
    assert budget.affords(1000, "turned_tiles")  # outside a read: no limit
    with budget.reading(5):
        fake.detect(image)
        fake.detect(image)
        assert budget.spent == 2
        assert budget.affords_read("white_balance")  # 2 + 2 <= 5
        assert not budget.affords(1, "holes", leaving=3)  # 2 + 1 + 3 > 5
        fake.detect(image)
        fake.detect(image)
        assert not budget.affords_read("turned_tiles")  # 4 + 2 > 5
        assert budget.affords(1, "afar") and not budget.affords(0, "photo_edge", leaving=2)
    assert budget.left_out == ("holes", "turned_tiles", "photo_edge")
    with budget.reading(None):  # a new read: nothing left out, no limit
        assert budget.affords(1000, "turned_tiles") and budget.left_out == () and budget.spent == 0


@pytest.mark.parametrize(
    ("first_passes", "classifier_runs", "limit", "affords_a_reading"),
    [
        (1, 1, 6, True),  # a photo read in one pass: 2 + 3 <= 6
        (1, 4, 6, False),  # ... its reading gone on: 5 + 3 > 6
        (5, 1, 30, True),  # a big photo sliced in five at first: five times the runs
        (5, 22, 30, True),  # 27 + 3 <= 30
        (5, 23, 30, False),
    ],
)
def test_a_photo_whose_first_pass_takes_several_runs_may_take_as_many_times_the_limit(
    first_passes, classifier_runs, limit, affords_a_reading
):
    passes, others = [0], [0]
    budget = RunBudget(lambda: passes[0] + others[0], least_reading=3, passes=lambda: passes[0])
    with budget.reading(6):
        passes[0] += first_passes  # the first pass's slices
        others[0] += classifier_runs
        assert budget.affords_read("turned_tiles") is affords_a_reading
        assert budget.limit == limit
        passes[0] += 10  # passes after the first do not raise it
        assert budget.limit == limit
    with budget.reading(6):  # each read counts its own first pass
        passes[0] += 1
        assert budget.limit == 6
    assert budget.limit is None  # outside a read


def test_a_layer_that_does_not_ask_is_not_stopped():
    # the first reading is the photo's: a budget refuses only what asks for it
    fake, budget = counted([Detection.of_class(9, Box(1.0, 1.0, 20.0, 30.0), 0.9)])
    core = ClaimsMetDetector(fake, budget)
    with budget.reading(1):
        core.detect(np.zeros((40, 60, 3), np.uint8))
        core.detect(np.zeros((40, 60, 3), np.uint8))
        assert budget.spent == 2


def test_unsure_crops_keep_their_first_two_views_when_no_run_is_left(tmp_path):
    frame = frame_with(100, 400, [(COLOURS[n], b) for n, b in BLOCKS.items()])
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    inner = WeakBoxesDetector(boxes_of(["red", "reddish", "green"], 0.9), [])
    budget = RunBudget(lambda: clf.runs)
    two = TwoStageDetector(inner, clf, views_below=SURE_IN_TWO_VIEWS, budget=budget)
    with budget.reading(1):
        labels = [d.label for d in two.detect(frame)]
    assert (clf.runs, budget.left_out) == (1, ("crop_views",))  # the reddish block was not read again
    assert labels == ["1m", "1m", "6z"]
    with budget.reading(2):
        assert [d.label for d in two.detect(frame)] == labels and clf.runs == 3 and budget.left_out == ()


@pytest.mark.parametrize(("calls_for", "inner_fits"), [(True, False), (False, True)])
def test_a_claim_met_by_the_first_detections_keeps_a_reading_back_for_its_view(calls_for, inner_fits):
    fake, budget = counted()
    budget.claim("low_angle", lambda image, found: calls_for)
    core = ClaimsMetDetector(fake, budget)
    image = np.zeros((90, 160, 3), np.uint8)
    with budget.reading(3):
        core.detect(image)  # the first reading: 1 run, and a reading (1) kept back when the claim is met
        core.detect(image)
        assert budget.affords_read("turned_tiles") is inner_fits  # 2 + 1 (+ 1 kept) against 3
        assert budget.affords_read("low_angle")  # what was kept back is its own
    with budget.reading(3):
        core.detect(image)
        budget.release("low_angle")  # its signal no longer calls for it
        core.detect(image)
        assert budget.affords_read("turned_tiles")


def test_claims_are_kept_lowest_rank_first_while_they_fit():
    fake, budget = counted(least_reading=2)
    budget.claim("low_angle", lambda image, found: True, rank=1)
    budget.claim("turned_tiles", lambda image, found: True, rank=0)
    image = np.zeros((90, 160, 3), np.uint8)
    with budget.reading(6):
        ClaimsMetDetector(fake, budget).detect(image)  # 1 run; its classifier's 1 to come: room for two readings
        assert budget.kept == 4
    with budget.reading(5):
        ClaimsMetDetector(fake, budget).detect(image)  # room for one: the lower rank's
        assert budget.kept == 2 and budget.affords_read("turned_tiles") and budget.kept == 0


def test_the_first_readings_own_parts_come_before_the_readings_kept_back():
    fake, budget = counted()
    budget.claim("turned_tiles", lambda image, found: True)
    image = np.zeros((90, 160, 3), np.uint8)
    with budget.reading(3):
        fake.detect(image)
        budget.meet_claims(image, [])  # a reading kept back: 1 run
        fake.detect(image)
        assert budget.affords(1, "crop_views", first_reading_part=True)  # 2 + 1, the reading kept aside
        assert not budget.affords(1, "holes")  # 2 + 1 + 1 kept


def test_a_claim_is_weighed_only_when_something_asks_beside_it():
    fake, budget = counted()
    weighed: list[str] = []
    budget.claim("turned_tiles", lambda image, found: weighed.append("turned_tiles") or True)
    budget.claim("low_angle", lambda image, found: weighed.append("low_angle") or True, rank=1)
    image = np.zeros((90, 160, 3), np.uint8)
    with budget.reading(10):
        ClaimsMetDetector(fake, budget).detect(image)
        assert budget.affords(1, "crop_views", first_reading_part=True) and weighed == []  # the first reading's
        assert budget.affords_read("turned_tiles")  # its own claim given up unweighed; the other weighed
        assert weighed == ["low_angle"] and budget.kept == 1
