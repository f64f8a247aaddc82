"""White dragons (5z) of several makes, among them camerash's: a frame round a small red maker's mark, in the
detector's renders (the artwork's faces, :mod:`vision.synth.art`; faces drawn with fonts, :mod:`vision.synth.glyphs`)
and in the classifier's cards (:mod:`vision.synth.cards`)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.read.labels import CLASS_NAMES
from vision.synth import art, cards, glyphs

HAKU = CLASS_NAMES.index("5z")
FACE_RGB = (0.95, 0.93, 0.85)
#: A White dragon draws no character: the font is chosen but never opened, so no CJK font need be installed.
NO_FONT_NEEDED = ("unopened.ttf",)
BLUE, BLACK, GREEN = (0.15, 0.35, 0.75), (0.1, 0.1, 0.12), (0.1, 0.45, 0.25)


def _red(pixels: np.ndarray) -> np.ndarray:
    return (pixels[..., 0] > 0.5) & (pixels[..., 1] < 0.3) & (pixels[..., 2] < 0.3)


def _centre(face: np.ndarray) -> np.ndarray:
    """The middle fifth of the face each way (the mark is 15-30 % of its width)."""
    h, w = face.shape[:2]
    return face[int(h * 0.4) : int(h * 0.6), int(w * 0.4) : int(w * 0.6)]


def _rim(face: np.ndarray) -> np.ndarray:
    """The face outside its middle three fifths across and down, where a frame runs."""
    h, w = face.shape[:2]
    ring = np.ones((h, w), bool)
    ring[int(h * 0.3) : int(h * 0.7), int(w * 0.3) : int(w * 0.7)] = False
    return face[ring]


def _near(pixels: np.ndarray, rgb, within: float = 0.12) -> np.ndarray:
    return np.abs(pixels - np.asarray(rgb, np.float32)).max(axis=-1) < within


@pytest.mark.parametrize(
    ("make", "rgb", "marked", "framed"),
    [
        ("mark", BLUE, True, True),  # camerash's: a blue frame round a red mark
        ("mark", BLACK, True, True),
        ("mark", GREEN, True, True),
        ("frame", BLUE, False, True),
        ("double", GREEN, False, True),
        ("blank", BLUE, False, False),
    ],
)
def test_a_rendered_white_dragon_has_a_red_mark_at_its_centre_only_in_the_mark_make(make, rgb, marked, framed):
    for seed in range(8):
        face = art.face_texture(HAKU, art.FaceStyle(haku_frame=make, haku_rgb=rgb), np.random.default_rng(seed))
        assert _red(_centre(face)).any() == marked, seed
        assert _near(_rim(face), rgb).any() == framed, seed  # the frame, in the style's colour, near the border


def test_a_mark_is_a_frame_with_a_mark_drawn_aside():
    """Same seed, same frame and same draws after it: the mark adds pixels at the centre and changes nothing else."""
    for seed in range(8):
        plain_rng, marked_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        plain = art.face_texture(HAKU, art.FaceStyle(haku_frame="frame"), plain_rng)
        marked = art.face_texture(HAKU, art.FaceStyle(haku_frame="mark"), marked_rng)
        assert plain_rng.random() == marked_rng.random()
        assert np.array_equal(_rim(plain), _rim(marked)) and not np.array_equal(plain, marked)


def test_random_styles_draw_each_make_about_a_quarter_of_the_time_and_the_same_for_a_seed():
    makes = Counter(art.random_style(np.random.default_rng(seed)).haku_frame for seed in range(2000))
    assert set(makes) == {"blank", "frame", "double", "mark"}
    assert all(0.2 < n / 2000 < 0.3 for n in makes.values()), makes
    for seed in range(40):  # seeded: a style and the draws after it are the same every time
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        assert art.random_style(a) == art.random_style(b) and a.random() == b.random()


@pytest.mark.parametrize(
    ("module", "chooser", "draw", "make", "marked", "framed"),
    [
        # faces drawn with fonts (the detector's renders with --drawn-faces)
        (glyphs, "_haku_make", "procedural_face", "mark", True, True),
        (glyphs, "_haku_make", "procedural_face", "frame", False, True),
        (glyphs, "_haku_make", "procedural_face", "blank", False, False),
        # the classifier's cards
        (cards, "_haku_kind", "drawn_face", "mark", True, True),
        (cards, "_haku_kind", "drawn_face", "frame", False, True),
        (cards, "_haku_kind", "drawn_face", "double", False, True),
        (cards, "_haku_kind", "drawn_face", "ornate", False, True),
    ],
)
def test_a_drawn_white_dragon_has_a_red_mark_only_in_the_mark_make(monkeypatch, module, chooser, draw, make, marked,
                                                                    framed):  # fmt: skip
    monkeypatch.setattr(module, chooser, lambda rng: make)
    for seed in range(8):
        face = getattr(module, draw)(HAKU, FACE_RGB, np.random.default_rng(seed), NO_FONT_NEEDED)
        assert _red(_centre(face)).any() == marked, seed
        assert (~_near(_rim(face), FACE_RGB, 0.3)).any() == framed, seed


def test_white_dragons_drawn_with_fonts_are_marked_about_a_quarter_of_the_time():
    makes = Counter(glyphs._haku_make(np.random.default_rng(seed)) for seed in range(2000))
    assert 0.35 < makes["blank"] / 2000 < 0.45 and 0.19 < makes["mark"] / 2000 < 0.29, makes


def test_white_dragon_cards_are_marked_about_as_often_as_double_framed():
    kinds = Counter(cards._haku_kind(np.random.default_rng(seed)) for seed in range(2000))
    assert 0.11 < kinds["mark"] / 2000 < 0.19 and 0.16 < kinds["double"] / 2000 < 0.24, kinds
    assert 0.06 < kinds["frame"] / 2000 < 0.14, kinds
