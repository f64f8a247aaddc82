"""The rendered set's audit: each label's outcome, tallied by how plainly the tile shows."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.vision.fakes import artwork
from vision.eval.rendered_audit import TileOutcome, audit, confusions, outcomes, tally
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box


def _tile(cls, x, visible=1.0, facing=1.0):
    return SimpleNamespace(class_id=cls, box=(x, 0.0, x + 20.0, 30.0), visible=visible, facing=facing)


@pytest.mark.parametrize(
    ("found", "outcome"),
    [
        ([Detection.of_class(4, Box(0, 0, 20, 30), 0.9)], "right"),
        ([Detection.of_class(5, Box(0, 0, 20, 30), 0.9)], "wrong"),
        # a box of its class anywhere on it beats a closer box of another class
        ([Detection.of_class(5, Box(0, 0, 20, 30), 0.9), Detection.of_class(4, Box(2, 0, 20, 30), 0.5)], "right"),
        ([Detection.of_class(4, Box(10, 0, 30, 30), 0.9)], "missed"),  # IoU 1/3
        ([], "missed"),
    ],
)
def test_outcomes(found, outcome):
    assert [o.outcome for o in outcomes([_tile(4, 0.0)], found, 0.5)] == [outcome]


def test_a_tile_is_in_plain_view_only_when_visible_facing_and_big_enough():
    base = {"class_id": 1, "found": 1}
    assert TileOutcome(visible=0.95, facing=0.6, side=25.0, **base).plain
    assert not TileOutcome(visible=0.6, facing=0.6, side=25.0, **base).plain
    assert not TileOutcome(visible=0.95, facing=0.3, side=25.0, **base).plain
    assert not TileOutcome(visible=0.95, facing=0.6, side=12.0, **base).plain


def test_tally_and_confusions():
    tiles = [
        TileOutcome(1, 1.0, 1.0, 30.0, 1),
        TileOutcome(1, 1.0, 1.0, 12.0, None),
        TileOutcome(2, 1.0, 1.0, 12.0, 3),
        TileOutcome(2, 1.0, 1.0, 35.0, 3),
    ]
    rows = tally(tiles, lambda t: t.side, (0.0, 20.0, 40.0))
    assert [(r["tiles"], r["right"], r["wrong"], r["missed"], r["error"]) for r in rows] == [
        (2, 0, 1, 1, 1.0),
        (2, 1, 1, 0, 0.5),
    ]
    assert confusions(tiles) == [("3m", "4m", 2)]  # class ids 2 and 3


def test_audit_of_rendered_scenes_reads_their_labels():
    artwork()
    from vision.synth import render

    scenes = [render(5, i).labels for i in range(3)]  # the first shows no tile
    labels = [label for scene in scenes for label in scene]
    assert labels and all(0.5 <= label.visible <= 1.0 and 0.22 <= label.facing <= 1.0 for label in labels)
    shown = iter(scenes)
    truthful = FakeDetector(lambda image: [Detection.of_class(t.class_id, Box(*t.box), 0.9) for t in next(shown)])
    tiles = audit(truthful, n=3, seed=5)
    assert len(tiles) == len(labels) and all(t.outcome == "right" for t in tiles)
    assert {t.outcome for t in audit(FakeDetector(), n=3, seed=5)} == {"missed"}
