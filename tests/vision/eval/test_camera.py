"""``jantaku-lab eval camera``'s tally (:mod:`vision.eval.camera`), on the demo recording with its own labels."""

from __future__ import annotations

import numpy as np
import pytest

from device.demo import RECORDING
from device.lab.vision import labelled_stills
from vision.eval.camera import evaluate, same_table, turned_frame
from vision.read.detector import FakeDetector

SEAT = {"side": "bottom", "hand": "123m", "melds": [{"tiles": "555z", "from": "left"}], "pond": "1z"}


def _seats(*hands: str) -> list[dict]:
    sides = ("bottom", "right", "top", "left")
    return [{**SEAT, "side": side, "hand": hand} for side, hand in zip(sides, hands, strict=True)]


@pytest.mark.parametrize(
    ("read", "labelled", "degrees", "same"),
    [
        (_seats("1m", "2m", "3m", "4m"), _seats("1m", "2m", "3m", "4m"), 10.0, True),
        (_seats("2m", "3m", "4m", "1m"), _seats("1m", "2m", "3m", "4m"), 10.0, False),  # seats a quarter round
        (_seats("2m", "3m", "4m", "1m"), _seats("1m", "2m", "3m", "4m"), 45.0, True),  # no bottom seat at 45
        (_seats("4m", "1m", "2m", "3m"), _seats("1m", "2m", "3m", "4m"), -45.0, True),  # the other way round
        (_seats("3m", "4m", "1m", "2m"), _seats("1m", "2m", "3m", "4m"), 45.0, False),  # half round: wrong
        (None, _seats("1m", "2m", "3m", "4m"), 45.0, False),
    ],
)
def test_tables_read_as_labelled(read, labelled, degrees, same):
    assert same_table(read, labelled, degrees) is same


@pytest.mark.parametrize("degrees", [10.0, -30.0])
def test_a_turned_frame_keeps_its_size_and_fills_with_the_mat(degrees):
    image = np.full((300, 500, 3), (40, 120, 60), np.uint8)
    image[140:160, 240:260] = 255
    out = turned_frame(image, degrees)
    assert out.shape == image.shape
    assert tuple(out[0, 0]) == (40, 120, 60)  # the corner the turn brings in: the mat's colour
    assert out[150, 250].min() > 200  # the middle stays


def test_the_recordings_own_labels_read_every_tile_and_table_square():
    frames = labelled_stills(RECORDING)
    by_image = {f.image.tobytes()[::9973]: f.labels for f in frames}
    labels = FakeDetector(lambda image: by_image[image.tobytes()[::9973]])
    for squared in (False, True):  # the demo's tables are square: squaring them reads the same frames
        tally = evaluate(labels, frames, [0.0], squared=squared)[0.0]
        assert tally.tables == len(frames) == 23
        assert tally.right == tally.tiles == 1132 and tally.other == 0 and tally.tables_read == 23
