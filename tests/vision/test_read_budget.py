"""The readers on the shipped models keep their budgets. The camera's reader reads a 640 frame in
:data:`vision.read.pipeline.CAMERA_MAX_RUNS` model runs (its table's turn already kept, as the camera loop reads
frame after frame) and reads the tiles it read when every crop was read in every view: a whole table of the demo
recording, and real held-out photos against the readings pinned in ``tests/vision/data/read_golden.json``. The photo
reader reads a 640 frame that calls for every view in :data:`vision.read.pipeline.PHOTO_MAX_RUNS`."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import pytest

from tests.vision import golden_reading as golden
from tests.vision.test_read_golden import GOLDEN, needs_photos
from vision.read.detector import default_model_path
from vision.read.pipeline import CAMERA_MAX_RUNS, PHOTO_MAX_RUNS, Models, Reader, ReaderConfig

pytestmark = pytest.mark.skipif(not default_model_path().is_file(), reason="no shipped model")


@pytest.fixture(scope="module")
def models() -> Models:
    return Models.load(ReaderConfig.for_camera())


#: Frames a new reader reads at most before its table's turn stops moving.
SETTLING_FRAMES = 4


def settled_read(config: ReaderConfig, models: Models, image):
    """The reading of ``image`` by a new reader once its table's turn stopped moving: the first frames measure the
    turn (each may read the frame again, squared, while the turn left in it is a degree or more), the last is a frame
    of a camera whose turn is kept, as the camera loop reads frame after frame."""
    reader = Reader.from_config(config, models=models)
    last = reader.read(image)
    for _ in range(SETTLING_FRAMES - 1):
        reading = reader.read(image)
        if reading.turn == last.turn:
            return reading
        last = reading
    raise AssertionError(f"the table's turn still moved after {SETTLING_FRAMES} frames: {last.turn}")


def demo_table_640():
    from device.demo import RECORDING
    from vision.eval.reading_bench import square_640

    return square_640(cv2.imread(str(RECORDING / "000.jpg")))


def test_a_640_table_is_read_within_the_budget_as_every_view_reads_it(models):
    camera = ReaderConfig.for_camera()
    image = demo_table_640()
    budget = settled_read(camera, models, image)
    every_view = settled_read(replace(camera, crop_views_below=None, crop_batch=None), models, image)
    assert len(budget.detections) >= 30  # a whole table's tiles, not a hand
    assert budget.runs <= CAMERA_MAX_RUNS < every_view.runs
    assert [d.label for d in budget.detections] == [d.label for d in every_view.detections]
    assert budget.text == every_view.text


@needs_photos
@pytest.mark.parametrize("pinned", range(len(golden.TABLE_PHOTOS)))
def test_real_held_out_photos_are_read_within_the_budget_as_pinned(models, pinned):
    from vision.read.images import load_image

    photo = golden.held_out()[golden.TABLE_PHOTOS[pinned]]
    want = GOLDEN["tables"][pinned]  # jantaku read --table: read as the camera reads, every crop in every view
    assert photo.relative_to(golden.photo_root()).as_posix() == want["file"]
    reading = settled_read(ReaderConfig.for_camera(), models, load_image(photo))
    assert reading.runs <= CAMERA_MAX_RUNS
    assert Counter(d.label for d in reading.detections) == Counter(d[0] for d in want["detections"])


def test_a_read_over_the_budget_is_told_once(models, caplog):
    reader = Reader.from_config(replace(ReaderConfig.for_camera(), max_runs=1), models=models)
    image = demo_table_640()
    with caplog.at_level("WARNING", logger="jantaku.read"):
        runs = [reader.read(image).runs for _ in range(2)]
    assert min(runs) > 1
    told = [r.getMessage() for r in caplog.records if "over the reader's budget of 1" in r.getMessage()]
    assert told == [f"a 640x640 image took {runs[0]} model runs, over the reader's budget of 1 (told once)"]


@pytest.fixture(scope="module")
def photo_models() -> Models:
    return Models.load(ReaderConfig.for_photo(threads=1))


#: Rendered whole tables with keys, cups and a phone on them (``jantaku-lab synth --seed 4242 --distractors 1``):
#: each calls for many extra readings (turned groups, white balance, holes, unsure crops).
CLUTTERED_TABLES = (60, 87)


@pytest.mark.parametrize("index", CLUTTERED_TABLES)
def test_the_photo_reader_keeps_its_budget_on_a_frame_that_calls_for_every_view(photo_models, index):
    from vision.synth import render

    image = render(4242, index, distractors=1.0).image
    assert max(image.shape[:2]) <= 640  # a frame read whole in one pass
    budget = Reader.from_config(ReaderConfig.for_photo(threads=1), models=photo_models).read(image)
    unbounded = Reader.from_config(replace(ReaderConfig.for_photo(threads=1), max_runs=None), models=photo_models)
    assert unbounded.read(image).runs > PHOTO_MAX_RUNS  # what it calls for
    assert budget.runs <= PHOTO_MAX_RUNS and budget.left_out  # what the budget made of it
