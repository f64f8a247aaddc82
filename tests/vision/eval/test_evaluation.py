"""Detection metrics on hand-made cases, and the single-tile evaluation on a small made-up camerash folder."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.fakes import encode
from vision.eval.evaluation import camerash_tile, eval_bonus, eval_crops, on_table
from vision.eval.metrics import Pred, Truth, average_precision, evaluate, map50_interval
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import class_of_tile

T = (0.0, 0.0, 10.0, 10.0)


#: What ultralytics' AP gives a perfect ranking (its recall curve ends at precision 0): the best mAP50 it reports.
PERFECT = 0.995


@pytest.mark.parametrize(
    ("truths", "preds", "map50", "precision", "recall"),
    [
        # perfect
        ([Truth(0, 1, T)], [Pred(0, 1, T, 0.9)], PERFECT, 1.0, 1.0),
        # right place, wrong class: a miss and a false positive
        ([Truth(0, 1, T)], [Pred(0, 2, T, 0.9)], 0.0, 0.0, 0.0),
        # right class, other image
        ([Truth(0, 1, T)], [Pred(1, 1, T, 0.9)], 0.0, 0.0, 0.0),
        # two predictions on one tile: one true, one false positive, ranked below: AP stays 1
        ([Truth(0, 1, T)], [Pred(0, 1, T, 0.9), Pred(0, 1, (1, 0, 11, 10), 0.5)], PERFECT, 0.5, 1.0),
        # a box that overlaps by IoU 1/3 is not a hit at 0.5
        ([Truth(0, 1, T)], [Pred(0, 1, (5, 0, 15, 10), 0.9)], 0.0, 0.0, 0.0),
        # below the operating threshold: counts for AP, not for P and R
        ([Truth(0, 1, T)], [Pred(0, 1, T, 0.1)], PERFECT, 0.0, 0.0),
        # nothing predicted
        ([Truth(0, 1, T), Truth(0, 2, T)], [], 0.0, 0.0, 0.0),
    ],
)
def test_evaluate(truths, preds, map50, precision, recall):
    r = evaluate(truths, preds, conf_threshold=0.25)
    assert r.map50 == pytest.approx(map50, abs=1e-9)
    assert (r.precision, r.recall) == (pytest.approx(precision), pytest.approx(recall))


def test_map50_95_rewards_tight_boxes():
    loose = evaluate([Truth(0, 1, T)], [Pred(0, 1, (0, 0, 10, 13), 0.9)])  # IoU 0.77
    tight = evaluate([Truth(0, 1, T)], [Pred(0, 1, T, 0.9)])
    assert loose.map50 == tight.map50 == pytest.approx(PERFECT)
    assert loose.map50_95 == pytest.approx(0.6 * PERFECT) and tight.map50_95 == pytest.approx(PERFECT)


def _images(n: int, missed_every: int) -> tuple[list[Truth], list[Pred]]:
    """``n`` images of one tile each, of two classes; every ``missed_every``-th image's box lands off its tile."""
    truths = [Truth(i, i % 2, T) for i in range(n)]
    preds = [Pred(i, i % 2, T if i % missed_every else (50, 50, 60, 60), 0.5 + i / (4 * n)) for i in range(n)]
    return truths, preds


def test_map50_interval_holds_the_whole_sets_figure_and_narrows_with_more_images():
    widths = []
    for n in (40, 1000):
        truths, preds = _images(n, missed_every=5)
        low, high = map50_interval(truths, preds)
        assert low < evaluate(truths, preds).map50 < high
        widths.append(high - low)
    assert widths[1] < widths[0] / 3  # 25 times the images: about a fifth of the width


@pytest.mark.parametrize(
    ("truths", "preds", "interval"),
    [
        # every tile found, in every resample: the best AP there is, no spread
        ([Truth(i, 1, T) for i in range(10)], [Pred(i, 1, T, 0.9) for i in range(10)], (PERFECT, PERFECT)),
        # nothing found
        ([Truth(i, 1, T) for i in range(10)], [], (0.0, 0.0)),
        # nothing at all
        ([], [], (0.0, 0.0)),
    ],
)
def test_map50_interval_edges(truths, preds, interval):
    assert map50_interval(truths, preds) == pytest.approx(interval)


def test_map50_interval_is_seeded_and_checks_its_arguments():
    truths, preds = _images(60, missed_every=3)
    assert map50_interval(truths, preds, seed=4) == map50_interval(truths, preds, seed=4)
    with pytest.raises(ValueError, match="resamples"):
        map50_interval(truths, preds, resamples=0)
    with pytest.raises(ValueError, match="level"):
        map50_interval(truths, preds, level=1.0)


def test_average_precision_orders_by_confidence():
    # the false positive ranked first halves the precision at every recall
    assert average_precision(np.array([False, True]), np.array([0.9, 0.8]), 1) == pytest.approx(0.5, abs=0.01)
    assert average_precision(np.array([True, False]), np.array([0.9, 0.8]), 1) == pytest.approx(PERFECT)


@pytest.mark.parametrize(
    ("label", "tile"),
    [
        ("dots-1", "1p"),
        ("bamboo-9", "9s"),
        ("characters-5", "5m"),
        ("honors-east", "1z"),
        ("honors-north", "4z"),
        ("honors-white", "5z"),
        ("honors-green", "6z"),
        ("honors-red", "7z"),
        ("bonus-spring", None),
        ("bonus-chrysanthemum", None),
    ],
)
def test_camerash_labels(label, tile):
    assert camerash_tile(label) == (Tile.parse(tile) if tile else None)


def test_eval_crops_counts_top1_and_confusions(tmp_path):
    (tmp_path / "tiles-data").mkdir()
    (tmp_path / "tiles-resized").mkdir()
    rows = [
        ("1.jpg", "dots-5"),
        ("2.jpg", "dots-5"),
        ("3.jpg", "bamboo-2"),
        ("4.jpg", "bonus-plum"),
        ("5.jpg", "honors-red"),
    ]
    (tmp_path / "tiles-data" / "data.csv").write_text(
        "\ufeffimage-name,label,label-name\n" + "".join(f"{n},0,{lab}\n" for n, lab in rows), encoding="utf-8"
    )
    # the fake reads the photo's brightness in the middle: 10 -> red 5p (counts as 5p), 20 -> 5s, else nothing
    answers = {10: "0p", 20: "5s"}
    for (name, _), value in zip(rows, (10, 20, 20, 10, 99), strict=True):
        (tmp_path / "tiles-resized" / name).write_bytes(encode(np.full((320, 240, 3), value, np.uint8), ".png"))

    def fake(image):
        h, w = image.shape[:2]
        value = int(image[h // 2, w // 2, 0])
        if value not in answers:
            return []
        box = Box(100.0, 100.0, 140.0, 150.0)
        return [Detection.of_class(class_of_tile(Tile.parse(answers[value])), box, 0.8)]

    detector = FakeDetector(fake)
    result = eval_crops(detector, tmp_path)
    assert (result.n, result.correct, result.skipped) == (4, 1, 1)
    assert result.top1 == 0.25
    p5, s2, s5, z7 = (Tile.parse(t) for t in ("5p", "2s", "5s", "7z"))
    assert result.confusions() == [(p5, s5, 1), (s2, s5, 1), (z7, None, 1)]
    assert detector.seen[0] == Size(height=640, width=480)  # placed on a table, the frame scaled to 640
    # the one flower (4.jpg, brightness 10) is read as a red 5p: a tile named where there is none
    assert eval_bonus(detector, tmp_path) == Counter({Tile.parse("0p"): 1})


def test_on_table_keeps_the_photo_in_the_middle():
    photo = np.full((40, 30, 3), 200, np.uint8)
    big = on_table(photo, 2.0, colour=(1, 2, 3), long_side=None)
    assert big.shape == (80, 60, 3) and (big[0, 0] == (1, 2, 3)).all() and (big[20:60, 15:45] == photo).all()
    assert (big[19, 15] == (1, 2, 3)).all() and (big[60, 44] == (1, 2, 3)).all()


def test_on_table_scales_the_frame_to_its_long_side():
    photo = np.full((320, 240, 3), 200, np.uint8)  # camerash's size: 240 wide, 320 high
    big = on_table(photo, 8.0)
    assert big.shape == (640, 480, 3)
    tile = np.argwhere(big[..., 0] == 200)
    assert (tile.max(axis=0) - tile.min(axis=0) + 1).tolist() == [80, 60]  # an eighth of the frame


def test_camerash_rows_fix_the_labels_checked_by_eye_and_only_those(tmp_path):
    """A row keeps its label unless it is one a fix corrects (a fixed set, or another set, is read as it is)."""
    from vision.eval.evaluation import CAMERASH_LABEL_FIXES, camerash_rows

    (tmp_path / "tiles-data").mkdir()
    (tmp_path / "tiles-data" / "data.csv").write_text(
        "\ufeffimage-name,label,label-name\n"
        "133.jpg,26,characters-8\n"  # a fix: eight pins labelled as characters
        "350.jpg,9,dots-9\n"  # already right: kept
        "2.jpg,26,characters-8\n",
        encoding="utf-8",
    )
    base, rows = camerash_rows(tmp_path)
    assert base == tmp_path
    assert rows == [("133.jpg", "dots-8"), ("350.jpg", "dots-9"), ("2.jpg", "characters-8")]
    assert all(camerash_tile(was) != camerash_tile(tile) for was, tile in CAMERASH_LABEL_FIXES.values())
