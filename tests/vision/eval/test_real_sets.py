"""The real sets read whole (:mod:`vision.eval.real_sets`): which photos of a set are read."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.fakes import encode
from vision.eval import real_sets
from vision.eval.real_photos import RealBox, RealPhoto
from vision.read.labels import BACK_CLASS


@pytest.fixture
def seven_photos(tmp_path, monkeypatch):
    """A set ``tiny`` of seven grey photos p0..p6, each with one face-down tile."""
    photos = []
    for i in range(7):
        path = tmp_path / f"p{i}.jpg"
        path.write_bytes(encode(np.full((40, 60, 3), 90, np.uint8)))
        photos.append(RealPhoto(path, "tiny", "valid", f"p{i}", (RealBox(BACK_CLASS, 0.5, 0.5, 0.2, 0.4),)))
    monkeypatch.setitem(real_sets.SETS, "tiny", lambda: photos)


@pytest.mark.parametrize(
    ("limit", "every", "read"),
    [
        (None, 1, ["p0", "p1", "p2", "p3", "p4", "p5", "p6"]),  # the whole set
        (None, 3, ["p0", "p3", "p6"]),  # every third photo, from the first
        (2, 3, ["p0", "p3"]),  # the first two of those
        (3, 1, ["p0", "p1", "p2"]),
    ],
)
def test_shots_take_every_nth_photo_then_the_limit(seven_photos, limit, every, read):
    assert [s.kind for s in real_sets.shots("tiny", limit, every)] == [f"{name}.jpg" for name in read]


def test_every_below_one_is_refused(seven_photos):
    with pytest.raises(ValueError, match="at least 1"):
        list(real_sets.shots("tiny", every=0))
