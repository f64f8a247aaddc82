"""vision.eval.red_ink: a plain five's ink repainted red reads as its red five; the face, the table and the rest of the
frame are left as they were."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.fakes import BLACK, BLUE, FELT, GREEN, drawn_five
from vision.eval.red_ink import inked_red
from vision.read.classifier import native_crop
from vision.read.geometry import Box
from vision.read.red_fives import Verdict, check_red_five

#: A 300 x 420 (height, width) frame of felt; the five lies in a box at (150, 80).
FRAME = (300, 420)


def framed(text: str, outer, gains=(1.0, 1.0, 1.0), size=(120, 90)) -> tuple[np.ndarray, Box]:
    """A drawn five (:func:`drawn_five`, felt round its face) in a frame of felt, under a colour cast."""
    five = drawn_five(text, *size, outer)
    frame = np.empty((*FRAME, 3), np.uint8)
    frame[:] = FELT
    h, w = five.shape[:2]
    frame[80 : 80 + h, 150 : 150 + w] = five
    cast = np.clip(frame * np.array(gains, np.float32)[::-1], 0, 255).astype(np.uint8)  # gains R, G, B
    return cast, Box(150.0, 80.0, 150.0 + w, 80.0 + h)


@pytest.mark.parametrize(
    ("text", "outer", "gains", "size"),
    [
        ("5m", BLUE, (1.0, 1.0, 1.0), (120, 90)),  # a black numeral
        ("5p", BLUE, (1.0, 1.0, 1.0), (120, 90)),
        ("5p", BLACK, (1.0, 1.0, 1.0), (96, 60)),
        ("5s", GREEN, (1.0, 1.0, 1.0), (120, 90)),
        ("5s", BLACK, (0.85, 1.0, 1.15), (96, 60)),  # a cool cast
        ("5p", GREEN, (1.15, 1.0, 0.8), (120, 90)),  # a warm one
        ("5m", BLUE, (0.9, 0.9, 0.9), (64, 48)),  # small and dim
    ],
)
def test_a_plain_five_inked_red_reads_as_its_red_five(text, outer, gains, size):
    frame, box = framed(text, outer, gains, size)
    assert check_red_five(native_crop(frame, box), Tile.parse(text)).verdict is Verdict.PLAIN
    inked = inked_red(frame, box, np.random.default_rng(0))
    check = check_red_five(native_crop(inked, box), Tile.parse(text))
    assert check.verdict is Verdict.RED, check.reason
    assert check.tile(Tile.parse(text)) == Tile(Tile.parse(text).kind, red=True)


def test_only_the_ink_on_the_face_is_repainted():
    frame, box = framed("5p", BLUE)
    inked = inked_red(frame, box, np.random.default_rng(1))
    changed = np.any(inked != frame, axis=2)
    inside = np.zeros(FRAME, bool)
    inside[80:200, 150:240] = True
    assert not changed[~inside].any()  # nothing outside the box
    face = np.zeros(FRAME, bool)
    face[92:188, 159:231] = True  # the drawn face (a margin of 0.1 of the box each side)
    assert not changed[inside & ~face].any()  # not the felt round the face inside the box
    ink = np.any(frame != frame[100, 165], axis=2) & face  # ink: what is not the face's colour on it
    assert changed[ink].mean() > 0.9 and changed[face & ~ink].mean() < 0.1
    red = inked[changed]
    assert (red[:, 2] > 1.5 * red[:, 1]).all() and (red[:, 2] > 1.5 * red[:, 0]).all()  # BGR: red, not pink or grey


def test_inking_is_seeded_and_leaves_its_input_alone():
    frame, box = framed("5s", GREEN)
    before = frame.copy()
    a, b = inked_red(frame, box, np.random.default_rng(3)), inked_red(frame, box, np.random.default_rng(3))
    assert np.array_equal(a, b) and np.array_equal(frame, before)


@pytest.mark.parametrize(
    ("image", "box", "message"),
    [
        (np.zeros((40, 30), np.uint8), Box(0.0, 0.0, 30.0, 40.0), "BGR uint8"),
        (np.zeros((40, 30, 3), np.float32), Box(0.0, 0.0, 30.0, 40.0), "BGR uint8"),
        (np.zeros((40, 30, 3), np.uint8), Box(10.0, 10.0, 12.0, 30.0), "too little"),
        (np.zeros((40, 30, 3), np.uint8), Box(50.0, 50.0, 80.0, 90.0), "too little"),  # beyond the image
    ],
)
def test_bad_input_is_refused_clearly(image, box, message):
    with pytest.raises(ValueError, match=message):
        inked_red(image, box, np.random.default_rng(0))
