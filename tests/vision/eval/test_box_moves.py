"""The classifier's steadiness when a box moves (:mod:`vision.eval.box_moves`): a hand-built colour classifier,
tiles inside a block of one colour, across two colours, and on no tile."""

from __future__ import annotations

import numpy as np
import pytest

from device.lab.cli import main
from tests.vision.fakes import colour_model
from vision.eval.box_moves import moved, name_changes
from vision.eval.phone_evaluation import Shot
from vision.read.classifier import OnnxTileClassifier
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES

pytest.importorskip("onnx", reason="building test ONNX files needs the onnx package (pip install onnx)")

RED, GREEN, BLUE = (0, 0, 255), (0, 255, 0), (255, 0, 0)  # BGR: 1m, 6z and no tile to the colour classifier


def test_the_moved_copies_shift_and_grow_by_a_share_of_each_side():
    box = Box(100.0, 50.0, 140.0, 110.0)  # 40 wide, 60 tall
    copies = moved(box, 0.05)
    assert len(copies) == 8
    assert [(c.center[0] - 120.0, c.center[1] - 80.0) for c in copies[:4]] == [(2, 0), (-2, 0), (0, 3), (0, -3)]
    assert [(c.width, c.height) for c in copies[4:]] == [(42, 60), (38, 60), (40, 63), (40, 57)]


@pytest.mark.parametrize(
    ("box", "label", "right", "unsteady"),
    [
        ((100, 100, 160, 180), "1m", 1, 0),  # inside the red block: 1m however it moves
        ((268, 100, 328, 180), "1m", 1, 1),  # across red and green, a little more red: moved right it reads 6z
        ((450, 100, 510, 180), "1m", 0, 0),  # on blue: no tile however it moves (and not right)
    ],
)
def test_a_tile_is_unsteady_where_a_moved_box_reads_it_otherwise(tmp_path, box, label, right, unsteady):
    frame = np.zeros((300, 600, 3), np.uint8)
    frame[:, :300], frame[:, 300:420], frame[:, 420:] = RED, GREEN, BLUE
    shot = Shot("blocks", frame, ((CLASS_NAMES.index(label), Box(*map(float, box))),))
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    tally = name_changes(clf, [shot])
    assert (tally.tiles, tally.right, tally.unsteady, tally.readings) == (1, right, unsteady, 8)
    assert (tally.changed > 0) == bool(unsteady)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "moves", "--share", "0.8"], "--share is a share of the box's side"),
        (["eval", "moves", "--hands", "0"], "--hands is a count"),
        (["eval", "moves", "--model", "{tmp}/none.onnx"], "none.onnx"),
    ],
)
def test_eval_moves_refuses_bad_input_in_one_line(tmp_path, capsys, argv, message):
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err
