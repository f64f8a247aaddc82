"""Close-ups in renders (``render(..., close_ups=...)``): off by default (every image as before), seeded, and a tile
spanning much of the frame, as a phone photo of one tile shows it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.vision.fakes import artwork
from vision.synth import render, write_dataset
from vision.synth.render import CLOSE_UP_SHARE


@pytest.fixture(autouse=True)
def _artwork():
    artwork()


@pytest.mark.parametrize(("seed", "index", "height", "width"), [(1, 0, 240, 320), (7, 3, 360, 240)])
def test_without_close_ups_a_render_is_as_before(seed, index, height, width):
    plain = render(seed, index, (width, height))
    none = render(seed, index, (width, height), close_ups=0.0)
    assert np.array_equal(plain.image, none.image) and plain.yolo_text() == none.yolo_text()


@pytest.mark.parametrize(("seed", "height", "width"), [(5, 240, 320), (13, 320, 256)])
def test_close_ups_are_seeded_and_show_a_tile_far_bigger_than_a_table_scene_does(seed, height, width):
    def widest(sample) -> float:
        return max(((lab.box[2] - lab.box[0]) / min(height, width) for lab in sample.labels), default=0.0)

    near, far = [], []
    for index in range(8):
        a = render(seed, index, (width, height), close_ups=1.0)
        b = render(seed, index, (width, height), close_ups=1.0)
        assert np.array_equal(a.image, b.image) and a.yolo_text() == b.yolo_text()
        assert all(0 <= lab.box[0] < lab.box[2] <= width and 0 <= lab.box[1] < lab.box[3] <= height for lab in a.labels)
        near.append(widest(a))
        far.append(widest(render(seed, index, (width, height))))
    # most close-ups show a tile at least CLOSE_UP_SHARE[0] of the short side (one may show only the table beside
    # a tile whose face turns away, and none is labelled); tiles are then far bigger than in the same scene unposed
    # (a small frame shows a near tile large too)
    assert sum(w >= CLOSE_UP_SHARE[0] for w in near) >= 5
    assert float(np.median(near)) >= 1.4 * float(np.median(far))


def test_write_dataset_records_the_close_up_share(tmp_path):
    write_dataset(tmp_path / "d", 1, seed=5, size=(256, 192), close_ups=0.25)
    assert json.loads((tmp_path / "d" / "synth.json").read_text())["close_ups"] == 0.25
