"""alanchoi00's photos of other sets: classes mapped to ours, flowers forgiven; read whole per set; no copies."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.eval import other_sets
from vision.eval.near_duplicates import DUPLICATE_BITS, check, closest_pairs, dhash
from vision.eval.real_sets import SetResult, plain_class, plain_detection, shot_of
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES


def _set(tmp_path: Path, lines: dict[str, list[str]], split: str = "valid") -> Path:
    (tmp_path / "classes.txt").write_text("\n".join(other_sets.ALANCHOI_NAMES) + "\n", "utf-8")
    for name, rows in lines.items():
        (tmp_path / split / "images").mkdir(parents=True, exist_ok=True)
        (tmp_path / split / "labels").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(tmp_path / split / "images" / f"{name}.jpg"), np.full((96, 160, 3), 90, np.uint8))
        (tmp_path / split / "labels" / f"{name}.txt").write_text("\n".join(rows) + "\n", "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [(0, "1m"), (8, "9m"), (9, "1p"), (18, "1s"), (27, "1z"), (31, "5z"), (33, "7z"), (34, None)],
)
def test_their_classes_are_ours_and_a_flower_is_none(theirs, ours):
    got = other_sets.class_of_alanchoi(theirs)
    assert (CLASS_NAMES[got] if got is not None else None) == ours


def test_a_class_outside_their_list_is_refused():
    with pytest.raises(ValueError, match="no class 35"):
        other_sets.class_of_alanchoi(35)


def test_a_split_reads_tiles_in_our_classes_and_flowers_as_unlabelled_regions(tmp_path):
    root = _set(tmp_path, {"a": ["4 0.5 0.5 0.1 0.2", "34 0.25 0.5 0.1 0.2", "bad line"]})
    [photo] = other_sets.load_split("valid", root)
    assert [b.name for b in photo.boxes] == ["5m"]
    assert photo.unlabelled == pytest.approx([(0.2, 0.4, 0.3, 0.6)])
    assert photo.skipped == 1
    # the flower's region in pixels, as a reader is forgiven a box on it
    assert photo.in_unlabelled(Box(32, 38, 48, 58), 160, 96)
    assert not photo.in_unlabelled(Box(72, 38, 88, 58), 160, 96)


def test_a_folder_with_another_class_list_is_refused(tmp_path):
    (tmp_path / "classes.txt").write_text("1m\n1p\n", "utf-8")
    with pytest.raises(ValueError, match="not the class order"):
        other_sets.root_dir(tmp_path)
    with pytest.raises(FileNotFoundError, match="JANTAKU_ALANCHOI"):
        other_sets.root_dir(tmp_path / "missing")
    with pytest.raises(ValueError, match="splits"):
        other_sets.load_split("holdout", tmp_path)


def test_a_red_five_counts_as_its_plain_five_on_both_sides(tmp_path):
    root = _set(tmp_path, {"a": ["13 0.5 0.5 0.1 0.2"]})
    shot = shot_of(other_sets.load_split("valid", root)[0])
    assert shot.image.shape[:2] == (96, 160)  # height, width as the photo is
    assert [CLASS_NAMES[c] for c, _ in shot.truth] == ["5p"]
    red = Detection.of_class(CLASS_NAMES.index("0p"), Box(72, 38, 88, 58), 0.9)
    assert CLASS_NAMES[plain_detection(red).class_id] == "5p"
    assert CLASS_NAMES[plain_class(CLASS_NAMES.index("0s"))] == "5s"


def test_a_photo_naming_one_tile_more_often_than_a_set_holds_it_is_set_aside(tmp_path):
    one_pin = [f"9 {0.05 + 0.06 * i:.2f} 0.5 0.05 0.1" for i in range(14)]  # every tile of a row called 1p
    spare_blanks = [f"31 {0.05 + 0.1 * i:.2f} 0.3 0.05 0.1" for i in range(8)] + ["0 0.5 0.7 0.05 0.1"]
    root = _set(tmp_path, {"a_row": one_pin, "b_blanks": spare_blanks, "c_hand": ["0 0.5 0.5 0.1 0.2"] * 4})
    sound, aside = other_sets.sound_photos("valid", root)
    assert [p.source for p in sound] == ["b_blanks", "c_hand"]  # eight White dragons: a set's spare blanks
    assert [p.source for p in aside] == ["a_row"]


def test_a_photo_stretched_past_any_lens_is_set_aside(tmp_path):
    strip = [f"{c} 0.5 {0.05 + 0.1 * i:.2f} 0.9 0.08" for i, c in enumerate(range(9))]  # tiles 11 times as wide
    squat = [f"{c} {0.1 + 0.2 * i:.2f} 0.5 0.15 0.07" for i, c in enumerate(range(4))]  # a low angle: 2.1 times
    root = _set(tmp_path, {"a_strip": strip, "b_squat": squat})
    sound, aside = other_sets.sound_photos("valid", root)
    assert [p.source for p in sound] == ["b_squat"] and [p.source for p in aside] == ["a_strip"]
    assert "stretched" in other_sets.why_set_aside(aside[0])


def test_the_sets_photos_set_aside_are_the_mislabelled_and_the_stretched():
    try:
        aside = {split: other_sets.sound_photos(split)[1] for split in other_sets.SPLITS}
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    mislabelled = [p.source for p in aside["valid"] if other_sets.mislabelled(p)]
    assert mislabelled == [f"IMG_{n}_JPG" for n in (2778, 2779, 2780, 2781, 2783, 2786, 2788)]
    assert {split: len(photos) for split, photos in aside.items()} == {"train": 1, "valid": 40, "test": 1}


def test_a_set_result_reports_the_runs_each_photo_took():
    result = SetResult(runs=[3, 9, 4])
    assert result.as_json()["runs_median"] == 4 and result.as_json()["runs_max"] == 9


def _scene(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return cv2.resize(rng.integers(0, 255, (24, 32, 3), np.uint8), (320, 240), interpolation=cv2.INTER_CUBIC)


def test_a_resized_recompressed_copy_is_a_near_duplicate_and_another_scene_is_not(tmp_path):
    photo = _scene(1)
    copy = cv2.imdecode(cv2.imencode(".jpg", cv2.resize(photo, (200, 150)), [cv2.IMWRITE_JPEG_QUALITY, 60])[1], 1)
    assert int(np.sum(dhash(photo) != dhash(copy))) < DUPLICATE_BITS
    assert int(np.sum(dhash(photo) != dhash(_scene(2)))) > 3 * DUPLICATE_BITS
    paths = {}
    for name, image in {"eval": copy, "train_a": _scene(2), "train_b": photo, "other": _scene(3)}.items():
        paths[name] = tmp_path / f"{name}.png"
        cv2.imwrite(str(paths[name]), image)
    report = check([paths["eval"], paths["other"]], [paths["train_a"], paths["train_b"]])
    assert [(e.name, t.name) for _, e, t in report.under(DUPLICATE_BITS)] == [("eval.png", "train_b.png")]
    assert report.evaluation == 2 and report.training == 2


def test_closest_pairs_are_hamming_distances():
    a = np.array([[1, 0, 1, 1], [0, 0, 0, 0]], bool)
    b = np.array([[1, 1, 1, 1], [0, 0, 0, 1]], bool)
    bits, nearest = closest_pairs(a, b)
    assert bits.tolist() == [1, 1] and nearest.tolist() == [0, 1]
