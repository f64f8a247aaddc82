"""Tile textures from the CC0 FluffyStuff artwork: faces with style variation, backs, and two-layer sides.

The artwork's face PNGs are glyphs on transparency (600x800); a face texture is a tile-coloured base with one glyph
drawn on it in a :class:`FaceStyle` (ink colours, stroke weight, blur, wear, Regular or Black artwork). Black artwork
glyphs are drawn on light faces with their white strokes turned to dark ink, which gives a second calligraphy and a
second palette of the same shapes.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.read.labels import BACK_CLASS, CLASS_NAMES

#: The artwork shipped beside this module (CC0, see its README); ``JANTAKU_TILE_ART`` overrides.
DEFAULT_ART = Path(__file__).resolve().parent / "artwork"

#: Texture size of one face (width, height): enough for tiles up to ~100 px on screen.
FACE_SIZE = (96, 128)

_SUIT_NAMES = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOUR_NAMES = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def art_name(class_id: int) -> str:
    """The artwork file name (no extension) of a class: ``Man1``, ``Pin5-Dora`` (red five), ``Chun``, ``Back``.

    >>> art_name(0), art_name(35), art_name(33), art_name(37)
    ('Man1', 'Pin5-Dora', 'Chun', 'Back')
    """
    if class_id == BACK_CLASS:
        return "Back"
    name = CLASS_NAMES[class_id]
    number, suit = name[0], name[1]
    if suit == "z":
        return _HONOUR_NAMES[int(number) - 1]
    if number == "0":
        return f"{_SUIT_NAMES[suit]}5-Dora"
    return f"{_SUIT_NAMES[suit]}{number}"


def art_dir(path: str | os.PathLike[str] | None = None) -> Path:
    base = Path(path) if path is not None else Path(os.environ.get("JANTAKU_TILE_ART", DEFAULT_ART))
    if not (base / "Export" / "Regular" / "Man1.png").exists():
        raise FileNotFoundError(f"tile artwork not found under {base} (set JANTAKU_TILE_ART)")
    return base


@functools.cache
def glyph(variant: str, class_id: int, base: str | None = None) -> np.ndarray:
    """The glyph of a class as float32 RGBA in 0..1 at 2x :data:`FACE_SIZE` (cached)."""
    path = art_dir(base) / "Export" / variant / f"{art_name(class_id)}.png"
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.shape[2] != 4:
        raise FileNotFoundError(f"cannot read RGBA artwork {path}")
    w, h = FACE_SIZE
    image = cv2.resize(image, (2 * w, 2 * h), interpolation=cv2.INTER_AREA)
    rgba = image.astype(np.float32) / 255.0
    rgba[..., :3] = rgba[..., 2::-1].copy()  # BGR -> RGB
    return rgba


@dataclass(frozen=True)
class FaceStyle:
    """How one tile set draws its faces."""

    variant: str = "Regular"  # "Regular" or "Black" artwork
    face_rgb: tuple[float, float, float] = (0.96, 0.95, 0.92)
    ink_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    hue_shift: float = 0.0  # degrees
    darken: float = 1.0
    weight: int = 0  # < 0 thinner strokes, > 0 bolder (pixels at 2x)
    blur: float = 0.0
    wear: float = 0.0  # 0..1: fraction of ink faded in patches
    haku_frame: str = "blank"  # "blank", "frame", "double", "mark" (a frame round a small red maker's mark)
    haku_rgb: tuple[float, float, float] = (0.15, 0.35, 0.75)
    dark_face: bool = False  # the Black artwork as drawn: dark faces, coloured glyphs


def side_stream(rng: np.random.Generator, salt: int) -> np.random.Generator:
    """A generator seeded from ``rng``'s present state and ``salt`` that leaves ``rng`` as it was: for draws added
    to a renderer later, so that the draws after them, and so every seed's images but what they add, stay the same.

    >>> rng = np.random.default_rng(7)
    >>> bool(side_stream(rng, 1).random() == side_stream(rng, 1).random() != side_stream(rng, 2).random())
    True
    >>> bool(rng.random() == np.random.default_rng(7).random())
    True
    """
    words = [salt]

    def collect(value) -> None:
        if isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, np.ndarray):
            words.extend(int(v) for v in value.ravel())
        elif isinstance(value, int):
            words.append(value)

    collect(rng.bit_generator.state)
    return np.random.default_rng(np.random.SeedSequence(words))


#: Salts of :func:`side_stream` for the White dragon's maker's mark: whether a style draws one, and its shape.
HAKU_MARK_SALT, HAKU_MARK_SHAPE_SALT = 55, 56
#: The maker's mark's red (RGB 0..1).
MARK_RED = (0.80, 0.12, 0.10)


def random_style(rng: np.random.Generator) -> FaceStyle:
    """A random tile set's face style (White dragons: a quarter each blank, framed, double framed, and framed round
    a maker's mark)."""
    variant = "Black" if rng.random() < 0.35 else "Regular"
    ivory = rng.uniform(0.86, 1.0)
    face = (ivory, ivory * rng.uniform(0.96, 1.0), ivory * rng.uniform(0.86, 1.0))
    style = FaceStyle(
        variant=variant,
        face_rgb=tuple(float(c) for c in face),
        ink_gain=tuple(float(g) for g in rng.uniform(0.75, 1.2, 3)),
        hue_shift=float(rng.normal(0, 8)),
        darken=float(rng.uniform(0.6, 1.05)),
        weight=int(rng.choice([-2, -1, 0, 0, 1, 2, 3])),
        blur=float(rng.choice([0.0, 0.0, rng.uniform(0.5, 1.6)])),
        wear=float(rng.choice([0.0, 0.0, rng.uniform(0.05, 0.35)])),
        haku_frame=str(rng.choice(["blank", "frame", "frame", "double"])),
        haku_rgb=tuple(float(c) for c in rng.choice([(0.15, 0.35, 0.75), (0.1, 0.1, 0.12), (0.1, 0.45, 0.25)])),
        dark_face=variant == "Black" and rng.random() < 0.08,
    )
    if style.haku_frame == "frame" and side_stream(rng, HAKU_MARK_SALT).random() < 0.5:
        # half the single frames get a mark, decided aside: the draws of every other face stay as they were
        style = replace(style, haku_frame="mark")
    return style


def _shift_hue(rgb: np.ndarray, degrees: float) -> np.ndarray:
    if abs(degrees) < 0.5:
        return rgb
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)  # float32: H in 0..360
    hsv[..., 0] = (hsv[..., 0] + degrees) % 360.0
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


def face_texture(class_id: int, style: FaceStyle, rng: np.random.Generator) -> np.ndarray:
    """One face as float32 RGB 0..1 of :data:`FACE_SIZE` (height x width x 3); glyph top at row 0."""
    w, h = FACE_SIZE
    rgba = glyph(style.variant, class_id).copy()
    ink, alpha = rgba[..., :3], rgba[..., 3]
    if style.variant == "Black" and not style.dark_face:
        # light strokes of the dark-face artwork become dark ink on a light face
        light = (ink.min(axis=2) > 0.75)[..., None]
        ink = np.where(light, np.float32(0.08), ink)
    if not style.dark_face:
        ink = _shift_hue(np.ascontiguousarray(ink), style.hue_shift)
        ink = np.clip(ink * np.asarray(style.ink_gain, np.float32) * style.darken, 0, 1)
    if style.weight:
        kernel = np.ones((abs(style.weight) + 1, abs(style.weight) + 1), np.uint8)
        alpha = cv2.dilate(alpha, kernel) if style.weight > 0 else cv2.erode(alpha, kernel)
    if style.wear > 0:
        noise = cv2.resize(rng.random((8, 6)).astype(np.float32), (2 * w, 2 * h), interpolation=cv2.INTER_CUBIC)
        alpha = alpha * np.clip(1.0 - style.wear * 2.5 * np.clip(noise - 0.4, 0, 1), 0, 1)
    base = np.empty((2 * h, 2 * w, 3), np.float32)
    base[:] = (0.12, 0.12, 0.13) if style.dark_face else style.face_rgb
    if class_id == CLASS_NAMES.index("5z") and style.haku_frame != "blank":
        _draw_haku_frame(base, style, rng)
    face = base * (1 - alpha[..., None]) + ink * alpha[..., None]
    if style.blur > 0:
        face = cv2.GaussianBlur(face, (0, 0), style.blur)
    face = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    return face


def _draw_haku_frame(base: np.ndarray, style: FaceStyle, rng: np.random.Generator) -> None:
    h, w = base.shape[:2]
    mx, my = int(w * rng.uniform(0.16, 0.26)), int(h * rng.uniform(0.14, 0.22))
    thick = max(2, int(w * rng.uniform(0.03, 0.07)))
    cv2.rectangle(base, (mx, my), (w - mx, h - my), style.haku_rgb, thick, lineType=cv2.LINE_AA)
    if style.haku_frame == "double":
        inset = thick * 2 + 2
        cv2.rectangle(
            base, (mx + inset, my + inset), (w - mx - inset, h - my - inset), style.haku_rgb, max(1, thick // 2)
        )
    elif style.haku_frame == "mark":
        _draw_maker_mark(base, maker_mark(rng, w))


@dataclass(frozen=True)
class MakerMark:
    """A White dragon's small red maker's mark about its face's centre: its red (RGB 0..1), its ``shape`` ("disc",
    "seal", or "strokes": one down through the centre and a few across, each ``(offset down, half reach)``), its half
    size and the strokes' thickness (pixels of the face it was drawn for)."""

    red: tuple[float, float, float]
    shape: str
    half: float
    thick: int
    across: tuple[tuple[float, float], ...] = ()


def maker_mark(rng: np.random.Generator, width: float) -> MakerMark:
    """The maker's mark of a White dragon face ``width`` pixels wide, 15-30 % of it, as camerash's White dragon prints
    one inside its blue frame; drawn from a side stream of ``rng`` (:func:`side_stream`), so that the face's own draws
    stay as they were."""
    side = side_stream(rng, HAKU_MARK_SHAPE_SALT)
    size = width * side.uniform(0.15, 0.30)
    red = tuple(float(v) for v in np.clip(np.asarray(MARK_RED) * side.uniform(0.85, 1.15, 3), 0, 1))
    shape, half = str(side.choice(["disc", "seal", "strokes"])), size / 2
    across = ()
    if shape == "strokes":
        across = tuple(
            (float(dy), float(half * side.uniform(0.6, 1.0))) for dy in side.uniform(-half, half, side.integers(1, 4))
        )
    return MakerMark(red, shape, half, max(2, round(size / 6)), across)  # type: ignore[arg-type]


def _draw_maker_mark(base: np.ndarray, mark: MakerMark) -> None:
    """``mark`` drawn at the centre of the face ``base`` (RGB 0..1)."""
    h, w = base.shape[:2]
    cx, cy, half, red = w / 2, h / 2, mark.half, mark.red
    if mark.shape == "disc":
        cv2.circle(base, (round(cx), round(cy)), round(half), red, -1, lineType=cv2.LINE_AA)
    elif mark.shape == "seal":
        cv2.rectangle(base, (round(cx - half), round(cy - half)), (round(cx + half), round(cy + half)), red, -1)
    else:
        cv2.line(base, (round(cx), round(cy - half)), (round(cx), round(cy + half)), red, mark.thick, cv2.LINE_AA)
        for dy, reach in mark.across:
            y = round(cy + dy)
            cv2.line(base, (round(cx - reach), y), (round(cx + reach), y), red, mark.thick, cv2.LINE_AA)


#: Back colours of real sets (RGB 0..1): yellow, orange, blue, green, navy, red, pink, black, grey, white-ish.
BACK_COLOURS = (
    (0.93, 0.78, 0.25),
    (0.95, 0.55, 0.15),
    (0.15, 0.40, 0.80),
    (0.10, 0.50, 0.30),
    (0.10, 0.15, 0.40),
    (0.75, 0.12, 0.12),
    (0.90, 0.50, 0.60),
    (0.08, 0.08, 0.09),
    (0.55, 0.56, 0.58),
    (0.35, 0.65, 0.85),
)


def random_back_rgb(rng: np.random.Generator) -> np.ndarray:
    base = np.asarray(BACK_COLOURS[rng.integers(len(BACK_COLOURS))], np.float32)
    return np.clip(base * rng.uniform(0.85, 1.12, 3).astype(np.float32), 0, 1)


def back_texture(back_rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The back face: the back colour with a faint gradient (float32 RGB, :data:`FACE_SIZE`)."""
    w, h = FACE_SIZE
    ramp = np.linspace(rng.uniform(0.9, 1.0), rng.uniform(1.0, 1.1), h, dtype=np.float32)[:, None, None]
    tex = np.broadcast_to(back_rgb, (h, w, 3)) * ramp
    return np.clip(tex, 0, 1).astype(np.float32)


def side_texture(face_rgb: np.ndarray, back_rgb: np.ndarray, front_share: float, length: int = 64) -> np.ndarray:
    """A side of the body: row 0 is the face edge, the last row the back edge (ivory layer, then back colour)."""
    rows = 24
    split = round(rows * front_share)
    tex = np.empty((rows, length, 3), np.float32)
    tex[:split] = face_rgb * 0.97
    tex[split:] = back_rgb
    return tex
