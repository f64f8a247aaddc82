"""The shipped detector on the demo recording: what ``jantaku run`` shows on a machine without a camera.

Slow (the sliced detector over 2028x1520 frames on the CPU); skipped while there is no model in ``models/``.
The demo's labels are exact (it is rendered), so the detector's reading is compared with them tile for tile.
"""

from __future__ import annotations

import json

import cv2
import pytest

from device.commands.run import Pipeline, RecordedLabels
from device.demo import RECORDING
from device.sources import Frame
from engine.tiles import parse_tiles

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def detector():
    from device.commands.run import make_detector, model_path
    from device.config import Config

    path = model_path(Config())
    if not path.is_file():
        pytest.skip(f"no detector model at {path}")
    return make_detector(Config())  # what jantaku run reads the camera with


def frame(name: str) -> Frame:
    return Frame(cv2.imread(str(RECORDING / name)), origin=name)


def test_the_detector_reads_the_winning_hand_of_the_demo(detector):
    manifest = json.loads((RECORDING / "recording.json").read_text())
    last = manifest["frames"][-1]["file"]
    winner = manifest["winner"]
    obs = Pipeline(lambda f: detector.detect(f.image))(frame(last))
    assert parse_tiles(winner["hand"] + winner["win_tile"]) in obs.rows


@pytest.mark.parametrize("name", ["000.jpg", "012.jpg", "026.jpg"])
def test_the_detector_finds_the_face_up_tiles_the_labels_show(detector, name):
    f = frame(name)
    truth = sorted(str(t) for row in Pipeline(RecordedLabels(RECORDING))(f).rows for t in row)
    seen = sorted(str(t) for row in Pipeline(lambda fr: detector.detect(fr.image))(f).rows for t in row)
    assert seen == truth
