"""Photos under coloured or dim light, white-balanced by their tiles' faces (:mod:`vision.read.views.white_balance`)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import Tile
from tests.vision.read.views.test_turned_tiles import INKS, row, scene
from vision.read.budget import ClaimsMetDetector, RunBudget
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box
from vision.read.labels import BACK_CLASS, class_of_tile
from vision.read.views.white_balance import BalancedDetector, balanced, face_colour, gains

LIGHTS = {"as taken": (1.0, 1.0, 1.0), "warm": (0.55, 0.85, 1.15), "cool": (1.2, 1.0, 0.7), "dim": (0.35, 0.35, 0.35)}


def lit(image: np.ndarray, light: str) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.array(LIGHTS[light], np.float32), 0, 255).astype(np.uint8)


def inked_reader(image: np.ndarray) -> list[Detection]:
    """The fake network: the tiles of :func:`tests.vision.read.views.test_turned_tiles.row` at their known places,
    each named by its glyph's ink when that is within 60 (summed over B, G, R) of one it learnt, else read as a White
    dragon (a cast light moves the colours, and it misnames them)."""
    out = []
    for _, box in TRUTH:
        cx, cy = (round(v) for v in box.center)
        ink = image[cy - 2 : cy + 3, cx - 2 : cx + 3].reshape(-1, 3).astype(float).mean(axis=0)
        near = min(INKS, key=lambda n: float(np.abs(ink - INKS[n]).sum()))
        name = near if np.abs(ink - INKS[near]).sum() <= 60 else "5z"
        out.append(Detection.of_class(class_of_tile(Tile.parse(name)), box, 0.9))
    return out


IMAGE, TRUTH = scene(row(6, 0.0))


@pytest.mark.parametrize("light", list(LIGHTS))
def test_the_faces_colour_is_measured_through_the_glyphs(light):
    face = face_colour(lit(IMAGE, light), [b for _, b in TRUTH])
    expected = np.array((235, 240, 240)) * np.array(LIGHTS[light])
    assert np.abs(face - np.clip(expected, 0, 255)).max() <= 6
    assert face_colour(IMAGE, []) is None


@pytest.mark.parametrize(
    ("face", "balance"),
    [
        ((215, 209, 198), False),  # the real photos' faces: near white
        ((190, 205, 215), False),  # an ivory face (BGR)
        ((120, 180, 230), True),  # under a warm lamp
        ((250, 210, 140), True),  # under a cool one
        ((80, 78, 76), True),  # in a dim room
    ],
)
def test_only_faces_off_white_or_dim_are_balanced(face, balance):
    g = gains(np.array(face, float))
    assert (g is not None) == balance
    if g is not None:
        assert np.allclose(np.array(face) * g, 215, atol=1)


@pytest.mark.parametrize("light", ["warm", "cool", "dim"])
def test_a_balanced_photo_has_white_faces(light):
    cast = lit(IMAGE, light)
    out = balanced(cast, gains(face_colour(cast, [b for _, b in TRUTH])))
    assert out.shape == cast.shape and out.dtype == np.uint8
    face = face_colour(out, [b for _, b in TRUTH])
    assert face.max() / face.min() < 1.05 and abs(face.mean() - 215) < 6


@pytest.mark.parametrize("light", ["warm", "cool", "dim"])
def test_a_photo_under_coloured_light_is_read_again_balanced(light):
    cast = lit(IMAGE, light)
    expected = [name for name, _ in TRUTH]
    assert [d.label for d in inked_reader(cast)] != expected  # the fake misnames the inks under this light
    fake = FakeDetector(inked_reader)
    reader = BalancedDetector(fake)
    assert [d.label for d in reader.detect(cast)] == expected
    assert len(fake.seen) == 2 and reader.last_gains is not None


def test_a_photo_in_good_light_is_read_once_as_it_is():
    fake = FakeDetector(inked_reader)
    reader = BalancedDetector(fake)
    assert [d.label for d in reader.detect(IMAGE)] == [name for name, _ in TRUTH]
    assert len(fake.seen) == 1 and reader.last_gains is None


def test_face_down_tiles_do_not_speak_for_the_light():
    # dark green backs would read as a dim, green-cast face: only face-up tiles are measured
    image = IMAGE.copy()
    backs = []
    for _, b in TRUTH:
        image[int(b.y1) : int(b.y2), int(b.x1) : int(b.x2)] = (40, 110, 30)
        backs.append(Detection.of_class(BACK_CLASS, b, 0.9))
    face = Box(20, 20, 60, 70)
    image[20:70, 20:60] = (230, 235, 235)
    up = Detection.of_class(0, face, 0.9)
    fake = FakeDetector([*backs, up])
    reader = BalancedDetector(fake)
    reader.detect(image)
    assert len(fake.seen) == 1 and reader.last_gains is None


def test_a_cast_photo_is_read_once_when_the_budget_is_spent():
    cast = lit(IMAGE, "warm")
    fake = FakeDetector(inked_reader)
    budget = RunBudget(lambda: len(fake.seen))
    reader = BalancedDetector(ClaimsMetDetector(fake, budget), budget=budget)
    with budget.reading(1):
        found = reader.detect(cast)
    assert len(fake.seen) == 1 and reader.last_gains is None and budget.left_out == ("white_balance",)
    assert [d.label for d in found] == [d.label for d in inked_reader(cast)]  # as the cast photo reads
