"""Squat tiles (seen from a low angle) read stretched taller: :mod:`vision.read.views.low_angle`."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.budget import ClaimsMetDetector, RunBudget
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS
from vision.read.views.low_angle import MOST_STRETCH, STRETCHED_TO, SquatDetector, squat_stretch, stretched

HEIGHT, WIDTH = 300, 800  # not square


def _row(width: float, height: float, n: int = 6, conf: float = 0.9, top: float = 100.0) -> list[Detection]:
    return [
        Detection.of_class(k, Box(20 + k * (width + 5), top, 20 + k * (width + 5) + width, top + height), conf)
        for k in range(n)
    ]


@pytest.mark.parametrize(
    ("boxes", "stretch"),
    [
        (_row(60, 80), None),  # faces 1.33 tall: read as they are
        (_row(80, 60), STRETCHED_TO / 0.75),  # squat: stretched until 1.8 tall
        (_row(80, 30), MOST_STRETCH),  # very squat: at most 3 times
        (_row(60, 80, 4) + _row(80, 60, 2), None),  # mostly upright, two tiles sideways (a meld's called tiles)
        (_row(60, 80, 3, conf=0.3) + _row(80, 60, 3), STRETCHED_TO / 0.75),  # the sure boxes speak
        ([Detection.of_class(BACK_CLASS, b.box, 0.9) for b in _row(80, 60)], None),  # backs have no face to read
        ([], None),
    ],
)
def test_a_photo_is_tried_stretched_when_most_of_its_sure_faces_are_squat(boxes, stretch):
    got = squat_stretch(boxes)
    assert got == (None if stretch is None else pytest.approx(stretch))


def test_the_stretched_view_is_taller_and_no_larger_than_the_pixels_allowed():
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    view, sx, sy = stretched(image, 2.0)
    assert Size.of(view) == Size(height=600, width=800) and (sx, sy) == (1.0, 2.0)
    view, sx, sy = stretched(image, 2.0, most_pixels=120_000)  # shrunk both ways alike to 0.25 of the pixels
    assert Size.of(view) == Size(height=300, width=400) and (sx, sy) == (0.5, 1.0)


def _reads(sure_stretched: bool) -> FakeDetector:
    """A detector that reads squat boxes unsurely as the photo is; on a view stretched taller it finds the same
    tiles, tall there, surely (squat tiles) or less surely (tiles lying sideways, stretched into nothing it knows)."""

    def answer(image: np.ndarray) -> list[Detection]:
        h, w = image.shape[:2]
        if (h, w) == (HEIGHT, WIDTH):
            return _row(80, 60, conf=0.6)
        sy, sx = h / HEIGHT, w / WIDTH
        row = _row(80, 60, conf=0.95 if sure_stretched else 0.4)
        return [
            Detection.of_class(d.class_id, Box(d.box.x1 * sx, d.box.y1 * sy, d.box.x2 * sx, d.box.y2 * sy), d.conf)
            for d in row
        ]

    return FakeDetector(answer)


def test_squat_tiles_are_read_stretched_and_boxed_in_the_photos_pixels():
    inner = _reads(sure_stretched=True)
    reader = SquatDetector(inner)
    found = reader.detect(np.zeros((HEIGHT, WIDTH, 3), np.uint8))
    assert inner.seen[1] == Size(height=round(HEIGHT * STRETCHED_TO / 0.75), width=WIDTH)
    assert list(reader.stretches) == [pytest.approx(STRETCHED_TO / 0.75, abs=0.01)]
    assert [d.conf for d in found] == [0.95] * 6
    for d, want in zip(found, _row(80, 60), strict=True):
        assert d.box.iou(want.box) > 0.99


def test_a_stretched_reading_that_is_less_sure_is_not_kept():
    inner = _reads(sure_stretched=False)
    reader = SquatDetector(inner)
    found = reader.detect(np.zeros((HEIGHT, WIDTH, 3), np.uint8))
    assert len(inner.seen) == 2 and list(reader.stretches) == [1.0]
    assert found == _row(80, 60, conf=0.6)


def test_a_photo_of_upright_faces_is_read_once():
    inner = FakeDetector(lambda image: _row(60, 80))
    reader = SquatDetector(inner)
    assert reader.detect(np.zeros((HEIGHT, WIDTH, 3), np.uint8)) == _row(60, 80)
    assert len(inner.seen) == 1 and list(reader.stretches) == [1.0]


@pytest.mark.parametrize(("limit", "readings"), [(1, 1), (2, 2)])
def test_squat_tiles_are_read_stretched_only_when_the_budget_affords_it(limit, readings):
    inner = _reads(sure_stretched=True)
    budget = RunBudget(lambda: len(inner.seen))
    reader = SquatDetector(ClaimsMetDetector(inner, budget), budget)
    with budget.reading(limit):
        reader.detect(np.zeros((HEIGHT, WIDTH, 3), np.uint8))
    assert len(inner.seen) == readings
    assert budget.left_out == (("low_angle",) if readings == 1 else ())
