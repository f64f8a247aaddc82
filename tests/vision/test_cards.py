"""Single-tile training cards (:mod:`vision.synth.cards`): seeded, the runtime's crop size, every class, no tile."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from vision.classifier import CROP_SIZE
from vision.classifier_training import NONE_CLASS, crops_bonus_cards, crops_cards
from vision.geometry import Size
from vision.labels import BACK_CLASS, CLASS_NAMES, NUM_CLASSES
from vision.synth import art, cards

from .fakes import artwork


@pytest.fixture(autouse=True)
def _artwork():
    artwork()


@pytest.mark.parametrize(
    "size",
    [CROP_SIZE, Size(height=40, width=30), Size(height=32, width=56)],  # the runtime's, a smaller one, a wide one
)
def test_cards_have_the_asked_size(size):
    for seed in range(3):
        crop = cards.card(seed * 7 % NUM_CLASSES, np.random.default_rng(seed), size)
        assert crop.shape == (size.height, size.width, 3) and crop.dtype == np.uint8
        none = cards.none_card(np.random.default_rng(seed), size)
        assert none.shape == (size.height, size.width, 3) and none.dtype == np.uint8
        bonus = cards.none_card(np.random.default_rng(seed), size, kind="bonus")
        assert bonus.shape == (size.height, size.width, 3) and bonus.dtype == np.uint8


@pytest.mark.parametrize("class_id", range(NUM_CLASSES))
def test_every_class_renders_and_is_seeded(class_id):
    a = cards.card(class_id, np.random.default_rng([4, class_id]))
    b = cards.card(class_id, np.random.default_rng([4, class_id]))
    assert a.shape == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert np.array_equal(a, b)
    assert float(a.std()) > 2.0  # not a flat image


def test_other_seeds_give_other_cards():
    a = cards.card(0, np.random.default_rng(1))
    b = cards.card(0, np.random.default_rng(2))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("kind", cards.NONE_KINDS)
def test_none_cards_of_every_kind(kind):
    a = cards.none_card(np.random.default_rng(3), kind=kind)
    assert a.shape == (CROP_SIZE.height, CROP_SIZE.width, 3) and a.dtype == np.uint8
    assert np.array_equal(a, cards.none_card(np.random.default_rng(3), kind=kind))


def test_standing_tops_are_none_cards_of_their_kind():
    for seed in range(3):
        top = cards.standing_top_card(np.random.default_rng(seed))
        assert np.array_equal(top, cards.none_card(np.random.default_rng(seed), kind="standing"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cards.card(NUM_CLASSES, np.random.default_rng(0)), "no class"),
        (lambda: cards.card(-1, np.random.default_rng(0)), "no class"),
        (lambda: cards.none_card(np.random.default_rng(0), kind="table"), "unknown none card kind"),
        (lambda: cards.drawn_face(BACK_CLASS, (1.0, 1.0, 1.0), np.random.default_rng(0)), "no face"),
        (lambda: cards.card_set(3, 0, none_share=1.5), "none_share"),
        (lambda: cards.bonus_card_set(-1, 0), "n >= 0"),
    ],
)
def test_bad_requests_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_card_set_takes_the_classes_in_turn_and_depends_on_the_index_only():
    x, y = cards.card_set(80, seed=11, none_share=0.25)
    assert x.shape == (80, CROP_SIZE.height, CROP_SIZE.width, 3) and y.shape == (80,)
    faces = np.flatnonzero(y != NUM_CLASSES)
    assert np.array_equal(y[faces], faces % NUM_CLASSES)
    assert 5 <= int((y == NUM_CLASSES).sum()) <= 40  # about a quarter are no tile
    tail_x, tail_y = cards.card_set(30, seed=11, none_share=0.25, start=50)
    assert np.array_equal(tail_x, x[50:]) and np.array_equal(tail_y, y[50:])


@pytest.mark.parametrize("class_id", [c for c in range(NUM_CLASSES) if c != BACK_CLASS])
def test_drawn_faces_of_every_face_class(class_id):
    face = cards.drawn_face(class_id, (0.95, 0.93, 0.85), np.random.default_rng(class_id))
    w, h = art.FACE_SIZE
    assert face.shape == (h, w, 3) and face.dtype == np.float32
    assert float(face.min()) >= 0.0 and float(face.max()) <= 1.0
    assert float(face.std()) > 0.01 or CLASS_NAMES[class_id] == "5z"  # a White dragon may be blank


def test_crops_cards_is_a_crop_set_with_the_none_class():
    data = crops_cards(40, seed=2, none_share=0.3)
    assert len(data) == 40 and data.x.shape[1:] == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert set(np.unique(data.y)) <= set(range(NUM_CLASSES)) | {NONE_CLASS}
    assert (data.y == NONE_CLASS).any()
    again = crops_cards(40, seed=2, none_share=0.3)
    assert np.array_equal(again.x, data.x) and np.array_equal(again.y, data.y)


@pytest.mark.parametrize(
    ("call", "digest"),
    [
        # kind=None: the random kinds and their draws, as before the bonus kind came
        (lambda: cards.none_card(np.random.default_rng(0)), "0a68c36b8793dcc2"),
        (lambda: cards.none_card(np.random.default_rng(1)), "385fb4cadcd3b4f3"),
        (lambda: cards.none_card(np.random.default_rng(2)), "d8c73786cd30ce19"),
        (lambda: cards.none_card(np.random.default_rng(3)), "7459cbebd3597e78"),
        (lambda: cards.none_card(np.random.default_rng(4)), "9e8660720a2f29bd"),
        (lambda: cards.none_card(np.random.default_rng(5)), "70d25fa4ea7a39db"),
        (lambda: cards.none_card(np.random.default_rng(6)), "65e59bd7e42f4ac8"),
        (lambda: cards.none_card(np.random.default_rng(7)), "19aab6860483435a"),
        # each kind asked for
        (lambda: cards.none_card(np.random.default_rng(3), kind="cloth"), "d5c021969c87e237"),
        (lambda: cards.none_card(np.random.default_rng(3), kind="gap"), "7b79ff470c378c7c"),
        (lambda: cards.none_card(np.random.default_rng(3), kind="half"), "63f14657310b2065"),
        (lambda: cards.none_card(np.random.default_rng(3), kind="standing"), "0d261b3c18e26542"),
        # backs (face cards are left out: their draws depend on the CJK fonts installed)
        (lambda: cards.card(BACK_CLASS, np.random.default_rng(0)), "8db467ec6f6ce807"),
        (lambda: cards.card(BACK_CLASS, np.random.default_rng(1)), "4c3d5e8a8da81461"),
        (lambda: cards.card(BACK_CLASS, np.random.default_rng(2)), "1c19d2c8bb595c7b"),
    ],
)
def test_cards_are_as_they_were(call, digest):
    """Cards recorded before bonus cards came: a new kind must not change an old seed's card. A new numpy, OpenCV
    or Pillow may change these bytes too; then record them again from a commit known to be right."""
    assert hashlib.sha256(call().tobytes()).hexdigest()[:16] == digest


@pytest.mark.parametrize("fonts", [None, ()])  # the installed CJK fonts; none (the picture alone)
def test_bonus_faces_are_drawn_and_seeded(fonts):
    for seed in range(6):
        face = cards.bonus_face((0.95, 0.93, 0.85), np.random.default_rng(seed), fonts)
        w, h = art.FACE_SIZE
        assert face.shape == (h, w, 3) and face.dtype == np.float32
        assert float(face.min()) >= 0.0 and float(face.max()) <= 1.0
        assert float(face.std()) > 0.01  # something is drawn
        again = cards.bonus_face((0.95, 0.93, 0.85), np.random.default_rng(seed), fonts)
        assert np.array_equal(face, again)


def test_bonus_card_set_is_all_none_and_depends_on_the_index_only():
    x, y = cards.bonus_card_set(12, seed=5)
    assert x.shape == (12, CROP_SIZE.height, CROP_SIZE.width, 3) and x.dtype == np.uint8
    assert (y == NUM_CLASSES).all()
    assert np.array_equal(x[3], cards.none_card(np.random.default_rng([5, 3]), kind="bonus"))
    tail_x, _ = cards.bonus_card_set(4, seed=5, start=8)
    assert np.array_equal(tail_x, x[8:])
    assert len({c.tobytes() for c in x}) == 12


def test_crops_bonus_cards_are_seeded_none_crops():
    data = crops_bonus_cards(10, seed=4)
    assert len(data) == 10 and data.x.shape[1:] == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert (data.y == NONE_CLASS).all()
    again = crops_bonus_cards(10, seed=4)
    assert np.array_equal(again.x, data.x)
