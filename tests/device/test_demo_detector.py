"""The shipped detector on the demo recording: what ``jantaku run`` shows on a machine without a camera.

Slow (the sliced detector over the 23 still frames of 2028x1520 on the CPU); skipped while there is no model in
``models/``.
The demo is rendered, so its labels are exact: the detector's boxes are matched with them (IoU >= 0.5).

Measured with the first shipped model (YOLO11n 416, 6 CPU epochs): of 650 labelled tiles (face up and face down)
616 found with the right class, 23 with a wrong one, 11 missed; 268 boxes more than there are tiles, mostly the
tops of standing hands read as White dragons (5z, the blank variant) and doubled wall stacks. The two targets it
did not meet were marked ``xfail`` (not strict). Since then the crop classifier learnt standing-hand tops as "no
tile", the detector trained 11 epochs more, and boxes the classifier names the same tile that overlap are one tile
(a weak box straddling two tiles had read one of them twice in the winning hand): 650 of 650 right, 15 boxes more
than there are tiles (doubled wall stacks), precision 0.977, recall 1.0. All three are plain tests now. The
detector of run 5 (512 input, GPU epochs): 650 of 650 right, 5 boxes more than tiles, precision 0.992. On the
demo of a whole hand (issue 32: a pon, an added kan, the ura indicators): 1132 of 1132 right, no box more.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import cv2
import pytest

from device.camera.sources import Frame
from device.commands.run import FrameReader, RecordedLabels
from device.demo import RECORDING
from device.lab.vision import labelled_stills
from engine.tiles import parse_tiles

pytestmark = pytest.mark.slow

MANIFEST = json.loads((RECORDING / "recording.json").read_text())
STILL = [f.name for f in labelled_stills(RECORDING)]  # the tables the loop reads


@pytest.fixture(scope="module")
def detector():
    from device.commands.run import make_readers, model_path
    from device.config import Config

    path = model_path(Config(), camera=True)
    if not path.is_file():
        pytest.skip(f"no detector model at {path}")
    camera, _photo = make_readers(Config())  # what jantaku run reads the camera with
    return camera


def frame(name: str) -> Frame:
    return Frame(cv2.imread(str(RECORDING / name)), origin=name)


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0

    @property
    def recall(self) -> float:
        return self.right / (self.right + self.wrong + self.missed)

    @property
    def precision(self) -> float:
        return self.right / (self.right + self.wrong + self.extra)


@pytest.fixture(scope="module")
def tally(detector) -> Tally:
    t = Tally()
    for name in STILL:
        f = frame(name)
        truth = RecordedLabels(RECORDING)(f)
        found = detector.detect(f.image)
        used: set[int] = set()
        for label in truth:
            scored = [(label.box.iou(d.box), i) for i, d in enumerate(found) if i not in used]
            best, index = max(scored, default=(0.0, -1))
            if best < 0.5:
                t.missed += 1
                continue
            used.add(index)
            if found[index].label == label.label:
                t.right += 1
            else:
                t.wrong += 1
        t.extra += len(found) - len(used)
    return t


def test_the_detector_finds_the_tiles_of_the_demo(tally):
    assert tally.recall >= 0.9, tally


def test_the_detector_sees_no_tile_that_is_not_there(tally):
    assert tally.precision >= 0.95, tally


def test_the_detector_reads_the_winning_hand_of_the_demo(detector):
    winner = MANIFEST["winner"]
    obs = FrameReader(detector)(frame(STILL[-1]))
    assert parse_tiles(winner["hand"] + winner["win_tile"]) in obs.tile_rows
