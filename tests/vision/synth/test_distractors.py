"""Things that are not tiles, drawn unlabelled into renders (:mod:`vision.synth.distractors`) and as ``none`` cards:
seeded, off by default (every image as before), in the frame, and leaving the labels of tiles they do not hide."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.fakes import artwork
from vision.read.classifier import CROP_SIZE
from vision.read.geometry import Size
from vision.read.labels import NUM_CLASSES
from vision.synth import cards, distractors, render, write_dataset
from vision.synth.camera import Camera
from vision.train.classifier_training import NONE_CLASS, crops_distractor_cards


@pytest.fixture(autouse=True)
def _artwork():
    artwork()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


#: Each render's mean colour in an 8 x 8 grid, written by the renderer before distractors came (commit d7ddced). A
#: grid of means, not a digest of the pixels: OpenCV's warps round a few pixels otherwise on another CPU (AVX2 against
#: AVX-512), while a distractor drawn or a random draw moved changes whole cells.
BEFORE_DISTRACTORS = json.loads((Path(__file__).parent / "data" / "renders_before_distractors.json").read_text())
#: How far a cell's mean may stray (grey levels): far above a CPU's rounding, far below any object drawn.
CELL_TOLERANCE = 0.5


def _grid_means(image: np.ndarray) -> np.ndarray:
    height, width = image.shape[:2]
    return image.astype(np.float64).reshape(8, height // 8, 8, width // 8, 3).mean(axis=(1, 3))


@pytest.mark.parametrize(
    ("seed", "index", "height", "width", "labels"),
    [
        # the labels' digests recorded from the renderer before distractors came (commit d7ddced)
        (1, 0, 240, 320, "942d3f7c9dbe54a8c645516cda42e11b"),
        (7, 3, 360, 240, "fef3912ab72a61fb7727694b9a786b99"),
        (11, 5, 224, 400, "97c05fd6d17e4ec67dd7b1e8fb4d0108"),
        (21, 2, 288, 352, "fbcfd9a16405340de04cdcc34c12b8db"),
    ],
)
def test_without_distractors_a_render_is_as_before(seed, index, height, width, labels):
    plain, none = render(seed, index, (width, height)), render(seed, index, (width, height), distractors=0.0)
    assert np.array_equal(plain.image, none.image) and plain.yolo_text() == none.yolo_text()
    assert plain.image.shape == (height, width, 3) and plain.distractors == none.distractors == ()
    assert _digest(plain.yolo_text().encode()) == labels
    before = np.array(BEFORE_DISTRACTORS[f"{seed}-{index}-{height}x{width}"])
    assert np.abs(_grid_means(plain.image) - before).max() <= CELL_TOLERANCE


@pytest.mark.parametrize(("seed", "index", "height", "width"), [(5, 2, 240, 360), (5, 5, 360, 240), (9, 1, 224, 400)])
def test_distractors_are_seeded(seed, index, height, width):
    a = render(seed, index, (width, height), distractors=1.0)
    b = render(seed, index, (width, height), distractors=1.0)
    assert a.distractors and a.distractors == b.distractors
    assert np.array_equal(a.image, b.image) and a.yolo_text() == b.yolo_text()
    assert not np.array_equal(a.image, render(seed, index, (width, height)).image)


def _box_meets(box, mask: np.ndarray) -> bool:
    x1, y1, x2, y2 = (int(v) for v in box)
    return bool(mask[max(0, y1 - 2) : y2 + 2, max(0, x1 - 2) : x2 + 2].any())


@pytest.mark.parametrize(("seed", "height", "width"), [(5, 240, 360), (13, 320, 256)])
def test_distractors_land_in_the_frame_and_leave_the_labels_of_tiles_they_do_not_hide(seed, height, width):
    """Things on the table lie under the tiles (labels unchanged); a hand over them hides some: a label it does not
    touch stays as it was, one it touches keeps its class and shrinks or goes, as under any arm."""
    drawn = 0
    for index in range(6):
        plain = render(seed, index, (width, height))
        busy = render(seed, index, (width, height), distractors=1.0)
        changed = np.abs(busy.image.astype(int) - plain.image.astype(int)).max(axis=2) > 0
        drawn += bool(changed.any())
        assert busy.distractors or not changed.any()  # a flat thing may lie wholly under the tiles
        if "hand" not in busy.distractors:
            assert busy.labels == plain.labels
            continue
        for label in plain.labels:
            if not _box_meets(label.box, changed):
                assert label in busy.labels
        for label in busy.labels:
            if label not in plain.labels:
                x1, y1, x2, y2 = label.box
                assert any(
                    p.class_id == label.class_id
                    and p.box[0] <= x1
                    and p.box[1] <= y1
                    and x2 <= p.box[2]
                    and y2 <= p.box[3]
                    for p in plain.labels
                )
    assert drawn >= 4


def _camera(height: int, width: int, elevation: float) -> Camera:
    return Camera.looking_at(width, height, np.zeros(3), 600.0, elevation, 0.4, 0.0, 1.0)


@pytest.mark.parametrize("kind", distractors.DISTRACTOR_KINDS)
@pytest.mark.parametrize(("height", "width", "elevation"), [(240, 360, 1.45), (300, 200, 0.6)])  # above, aslant
def test_each_kind_is_drawn_seeded_in_the_frame(kind, height, width, elevation):
    cam = _camera(height, width, elevation)
    images = []
    for _ in range(2):
        image = np.full((height, width, 3), 0.4, np.float32)
        cover = distractors.draw_object(kind, np.random.default_rng(3), image, cam, (10.0, -5.0), 0.3)
        images.append(image)
        assert cover.shape == (height, width) and cover.any()
        assert (np.abs(image - 0.4).max(axis=2) > 1e-3)[cover > 0].mean() > 0.5  # it shows where it says it is
    assert np.array_equal(images[0], images[1])


@pytest.mark.parametrize("kind", distractors.DISTRACTOR_KINDS)
def test_flat_pictures_have_their_spots_on_them(kind):
    flat = distractors.flat_picture(kind, np.random.default_rng(1))
    h, w = flat.rgba.shape[:2]
    assert flat.rgba.dtype == np.float32 and flat.rgba.shape[2] == 4
    assert flat.rgba[..., 3].max() > 0.4  # felt slots are half see-through
    assert flat.spots and all(0 <= x < w and 0 <= y < h for x, y in flat.spots)
    assert np.array_equal(flat.rgba, distractors.flat_picture(kind, np.random.default_rng(1)).rgba)


def test_hands_over_tiles_mark_their_pixels_as_occluding():
    height, width = 240, 360
    cam = _camera(height, width, 1.3)
    ids = np.arange(height * width, dtype=np.int32).reshape(height, width) % 40  # tiles everywhere
    image = np.full((height, width, 3), 0.5, np.float32)
    before = ids.copy()
    kinds = distractors.draw_hands(np.random.default_rng(4), image, ids, cam)
    hidden = ids == -2
    assert kinds and set(kinds) == {"hand"} and hidden.any()
    assert np.array_equal(ids[~hidden], before[~hidden])  # the rest of the tiles untouched


def test_standing_things_are_kept_off_the_tiles():
    """Where tiles fill the frame only things lying flat (a keyboard, paper, slots, sticks) go under them."""
    height, width = 240, 360
    cam = _camera(height, width, 1.2)
    everywhere = np.ones((height, width), np.uint8)
    for seed in range(8):
        image = np.full((height, width, 3), 0.4, np.float32)
        kinds = distractors.draw_on_table(np.random.default_rng(seed), image, cam, everywhere)
        assert not set(kinds) & {"white_box", "cup", "dice", "table_panel", "phone", "chips"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: distractors.flat_picture("tile", np.random.default_rng(0)), "unknown distractor kind"),
        (
            lambda: distractors.draw_object(
                "lamp",
                np.random.default_rng(0),
                np.zeros((20, 30, 3), np.float32),
                _camera(20, 30, 1.0),
                (0.0, 0.0),
                0.0,
            ),
            "unknown distractor kind",
        ),
    ],
)
def test_unknown_kinds_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_write_dataset_records_the_distractor_share(tmp_path):
    import json

    write_dataset(tmp_path / "d", 1, seed=5, size=(256, 192), distractors=0.5)
    assert json.loads((tmp_path / "d" / "synth.json").read_text())["distractors"] == 0.5


# --- the crop classifier's none cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", distractors.DISTRACTOR_KINDS)
@pytest.mark.parametrize("size", [CROP_SIZE, Size(height=32, width=56)])
def test_distractor_cards_of_every_kind(kind, size):
    a = cards.distractor_card(np.random.default_rng(2), size, kind)
    assert a.shape == (size.height, size.width, 3) and a.dtype == np.uint8 and float(a.std()) > 0.5
    assert np.array_equal(a, cards.distractor_card(np.random.default_rng(2), size, kind))


def test_distractor_card_set_is_all_none_takes_the_kinds_in_turn_and_depends_on_the_index_only():
    n = len(distractors.DISTRACTOR_KINDS) + 2
    x, y = cards.distractor_card_set(n, seed=6)
    assert x.shape == (n, CROP_SIZE.height, CROP_SIZE.width, 3) and (y == NUM_CLASSES).all()
    kind = distractors.DISTRACTOR_KINDS[3]
    assert np.array_equal(x[3], cards.distractor_card(np.random.default_rng([6, 3]), CROP_SIZE, kind))
    tail, _ = cards.distractor_card_set(4, seed=6, start=n - 4)
    assert np.array_equal(tail, x[n - 4 :])
    assert np.array_equal(
        cards.none_card(np.random.default_rng(1), kind="distractor"), cards.distractor_card(np.random.default_rng(1))
    )


def test_crops_distractor_cards_are_seeded_none_crops():
    data = crops_distractor_cards(8, seed=4)
    assert len(data) == 8 and data.x.shape[1:] == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert (data.y == NONE_CLASS).all()
    assert np.array_equal(crops_distractor_cards(8, seed=4).x, data.x)
