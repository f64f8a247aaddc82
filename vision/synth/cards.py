"""Single-tile training cards for the crop classifier, drawn without the 3-D scene renderer.

A card is one crop as the runtime cuts it from a detector's box (:func:`vision.read.classifier.extract_crop`: widened by
the crop margin, a sideways box turned a quarter clockwise, resized to :data:`~vision.read.classifier.CROP_SIZE`). The
tile is laid on a small flat patch (cloth, the tile's front, its thickness band in a back colour, sometimes its
neighbours in a row), the patch is tilted and turned a little, lit unevenly, sometimes with glare, and the tile's box
is cut from it with the runtime's own function.

Faces are the CC0 artwork in a random :class:`~vision.synth.art.FaceStyle`, or drawn here with far more variety than
:func:`vision.synth.glyphs.procedural_face`, aimed at what other real sets do differently: formal numerals (伍 for
5), number and honour ink in black, blue, dark green or red, White dragons as plain, framed, ornate or framed
characters, small latin corner indices, pins as plain, concentric, wheel or flower rings, sticks of several shapes,
and the 1 of bamboo as the artwork's bird recoloured and warped or as a bird drawn from a few shapes.

Everything is seeded: the same ``numpy`` generator state gives the same card, byte for byte. Nothing here imports
torch; the appearance jitter (resolution, blur, colour, noise, JPEG) is added by the training code.

``card(class_id, rng)`` draws one card, :func:`none_card` a box that holds no tile, ``card_set(n, seed)`` a batch.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.read.classifier import CROP_MARGIN, CROP_SIZE, extract_crop
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, CLASS_NAMES, NUM_CLASSES
from vision.synth import art, distractors
from vision.synth.glyphs import _PIN_LAYOUT, _SOU_LAYOUT, cjk_fonts, draw_maker_mark

#: Drawing size of a face (width, height): twice the artwork's face texture, shrunk once at the end.
_DRAW = (art.FACE_SIZE[0] * 2, art.FACE_SIZE[1] * 2)

_NUMBERS = "一二三四五六七八九"
_HONOURS = "東南西北白發中"
_WIND_INDEX = "ESWN"
#: Characters some sets print inside the White dragon's frame (a maker's mark, a lucky word).
_HAKU_INNER = "才白福壽喜財龍鳳春證券耀吉"

#: Inks (RGB 0..1) real sets print numbers and honours in.
_INKS = {
    "black": (0.08, 0.08, 0.1),
    "blue": (0.1, 0.22, 0.62),
    "navy": (0.07, 0.12, 0.4),
    "green": (0.04, 0.42, 0.2),
    "red": (0.8, 0.1, 0.12),
}
_BIRD_COLOURS = (
    (0.8, 0.1, 0.12),
    (0.05, 0.45, 0.2),
    (0.1, 0.25, 0.7),
    (0.1, 0.1, 0.1),
    (0.95, 0.7, 0.1),
    (0.95, 0.45, 0.1),
    (0.5, 0.2, 0.6),
)
#: Cloth colours (RGB 0..1): felt greens, blues, greys, wood, dark red.
_CLOTH = (
    (0.16, 0.42, 0.22),
    (0.1, 0.3, 0.18),
    (0.12, 0.25, 0.5),
    (0.3, 0.3, 0.32),
    (0.45, 0.3, 0.18),
    (0.08, 0.08, 0.09),
    (0.45, 0.1, 0.1),
    (0.6, 0.6, 0.58),
)

_FIVES = {CLASS_NAMES.index(n): n for n in ("0m", "0p", "0s")}
_ONE_SOU = CLASS_NAMES.index("1s")
_HAKU = CLASS_NAMES.index("5z")

#: Share of each kind among :func:`none_card`'s random draws.
_NONE_SHARES = {"cloth": 0.15, "gap": 0.3, "half": 0.2, "standing": 0.35}
#: The kinds of ``none`` card. ``bonus`` (a flower or season tile, which riichi does not use) and ``distractor``
#: (a thing on the table that is not a tile: a key, a phone, a box, a panel, :mod:`vision.synth.distractors`) are
#: drawn only when asked for: left out of the random draws, so the cards of every seed stay as they were (they come
#: as sets of their own, :func:`bonus_card_set` and :func:`distractor_card_set`).
NONE_KINDS = (*_NONE_SHARES, "bonus", "distractor")


# --- small helpers -------------------------------------------------------------------------------------------


def _u8(c) -> tuple[int, int, int]:
    return tuple(int(255 * min(max(float(v), 0.0), 1.0)) for v in c)


def _jit(rng: np.random.Generator, c, amount: float = 0.15) -> tuple[float, float, float]:
    return tuple(float(v) for v in np.clip(np.asarray(c) * rng.uniform(1 - amount, 1 + amount, 3), 0, 1))


def _ink(rng: np.random.Generator, weights: dict[str, float]) -> tuple[float, float, float]:
    names = list(weights)
    p = np.asarray([weights[n] for n in names], np.float64)
    return _jit(rng, _INKS[names[int(rng.choice(len(names), p=p / p.sum()))]])


@functools.lru_cache(maxsize=64)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _sized(path: str, size: float) -> ImageFont.FreeTypeFont:
    return _font(path, max(8, round(float(size) / 8) * 8))  # few sizes: loading a CJK font is slow


def _text(draw, centre, text: str, font, colour, stroke: int = 0) -> None:
    draw.text(centre, text, font=font, fill=_u8(colour), anchor="mm", stroke_width=stroke, stroke_fill=_u8(colour))


def _glyph(
    img, centre, text: str, font, colour, stroke: int, brush: np.random.Generator | None, lift_top: bool = False
) -> None:
    """``text`` drawn on ``img``: as the font draws it (``brush`` None), or as a brush would vary it (see
    :func:`_brushed`), so that the classifier learns a character's shape rather than four fonts' strokes.
    ``lift_top`` (with a brush): its top stroke drawn apart from the rest (:func:`_lifted_top`)."""
    if brush is None:
        _text(ImageDraw.Draw(img), centre, text, font, colour, stroke)
        return
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).text(centre, text, font=font, fill=255, anchor="mm", stroke_width=stroke, stroke_fill=255)
    mask = np.asarray(mask)
    if lift_top:
        mask = _lifted_top(mask, font.size, brush)
    ink = _brushed(mask, centre, font.size, brush)
    img.paste(Image.new("RGB", img.size, _u8(colour)), (0, 0), Image.fromarray(ink))


def _brushed(mask: np.ndarray, centre, size: float, rng: np.random.Generator) -> np.ndarray:
    """A glyph's mask (uint8) as another hand or brush would draw it: sheared, squeezed and turned about its
    centre, its strokes bent by a smooth random field (a standard deviation of 1-7 % of the glyph's size), made
    bolder by up to 4 % of its size or thinner by a pixel (unless that would take 40 % of its ink: a Mincho
    font's thin strokes would break)."""
    h, w = mask.shape
    a = math.radians(rng.uniform(-8, 8))
    sx, sy, shear = rng.uniform(0.8, 1.2), rng.uniform(0.85, 1.15), rng.uniform(-0.3, 0.3)
    m = np.array([[sx * math.cos(a), -sy * math.sin(a) + shear, 0], [sx * math.sin(a), sy * math.cos(a), 0]])
    c = np.asarray(centre, np.float64)
    m[:, 2] = c - m[:, :2] @ c
    inv = cv2.invertAffineTransform(m)
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    amp = rng.uniform(0.01, 0.07) * size
    grid = int(rng.integers(3, 7))  # how many bends across the glyph
    fx, fy = (
        cv2.resize(rng.normal(0, 1, (grid, grid)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * amp
        for _ in range(2)
    )
    mx = inv[0, 0] * gx + inv[0, 1] * gy + inv[0, 2] + fx
    my = inv[1, 0] * gx + inv[1, 1] * gy + inv[1, 2] + fy
    out = cv2.remap(mask, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR, borderValue=0)
    k = -1 if rng.random() < 0.2 else round(rng.uniform(0.0, 0.04) * size)  # stroke weight, pixels of the drawing
    if k > 0:
        out = cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
    elif k < 0:
        thinner = cv2.erode(out, np.ones((3, 3), np.uint8))
        if np.count_nonzero(thinner > 127) >= 0.6 * np.count_nonzero(out > 127):  # not where strokes would break
            out = thinner
    return out


def _lifted_top(mask: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """A glyph's mask (uint8) with its top stroke lifted clear of the strokes under it, widened and tilted: how
    Chinese sets write the West wind, a sweeping 一 floating over its box, where every font joins the two. The top
    stroke is the rows down to where the ink, past its widest row there, falls under 45 % of that width."""
    rows = np.count_nonzero(mask > 127, axis=1)
    inked = np.flatnonzero(rows)
    if inked.size == 0:
        return mask
    top = int(inked[0])
    window = rows[top : top + max(2, int(0.3 * (inked[-1] - top)))]
    peak = top + int(np.argmax(window))
    after = np.flatnonzero(rows[peak:] < 0.45 * rows[peak])
    if after.size == 0:
        return mask
    end = peak + int(after[0])  # first row under the top stroke
    stroke, rest = mask.copy(), mask.copy()
    stroke[end:], rest[:end] = 0, 0
    cols = np.flatnonzero(stroke.max(axis=0))
    cx, cy = float(cols.mean()), (top + end) / 2
    angle, wider = float(rng.uniform(-4, 10)), float(rng.uniform(1.0, 1.3))  # angle > 0: rising to the right
    m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    m[0, :2] *= wider
    m[0, 2] = cx - m[0, 0] * cx - m[0, 1] * cy
    # lifted so that even the end the tilt lowers stays clear of the rest
    dip = abs(math.sin(math.radians(angle))) * wider * (cols[-1] - cols[0]) / 2
    m[1, 2] -= rng.uniform(0.04, 0.12) * size + dip
    lifted = cv2.warpAffine(stroke, m, (mask.shape[1], mask.shape[0]), flags=cv2.INTER_LINEAR, borderValue=0)
    return np.maximum(lifted, rest)


def random_face_rgb(rng: np.random.Generator) -> tuple[float, float, float]:
    """A tile front: white, ivory or cream."""
    kind = rng.random()
    if kind < 0.4:  # white (automatic-table tiles, many Chinese sets)
        v = rng.uniform(0.9, 1.0)
        return (v, v * rng.uniform(0.98, 1.0), v * rng.uniform(0.96, 1.0))
    if kind < 0.8:  # ivory
        v = rng.uniform(0.86, 0.99)
        return (v, v * rng.uniform(0.95, 0.99), v * rng.uniform(0.85, 0.94))
    v = rng.uniform(0.85, 0.97)  # cream
    return (v, v * rng.uniform(0.9, 0.96), v * rng.uniform(0.72, 0.85))


# --- faces drawn here ------------------------------------------------------------------------------------------


def _pin(draw, cx: float, cy: float, r: float, style: str, outer, inner, face, rng: np.random.Generator) -> None:
    box = lambda rr: (cx - rr, cy - rr, cx + rr, cy + rr)  # noqa: E731
    line = max(2, int(r * rng.uniform(0.14, 0.26)))
    if style == "ring":  # a ring and a dot
        draw.ellipse(box(r), outline=_u8(outer), width=line)
        draw.ellipse(box(r * rng.uniform(0.3, 0.5)), fill=_u8(inner))
    elif style == "concentric":  # rings of alternating colours
        k = int(rng.integers(2, 5))
        for i in range(k):
            rr = r * (1 - i / k)
            draw.ellipse(box(rr), outline=_u8(outer if i % 2 == 0 else inner), width=max(1, int(r / k * 0.7)))
        draw.ellipse(box(r / k * 0.6), fill=_u8(inner if k % 2 else outer))
    elif style == "wheel":  # a ring with spokes
        draw.ellipse(box(r), outline=_u8(outer), width=line)
        spokes = int(rng.integers(6, 13))
        for i in range(spokes):
            a = 2 * math.pi * i / spokes
            draw.line(
                (cx, cy, cx + 0.8 * r * math.cos(a), cy + 0.8 * r * math.sin(a)),
                fill=_u8(inner),
                width=max(1, line // 2),
            )
        draw.ellipse(box(r * 0.28), fill=_u8(outer))
    elif style == "flower":  # petals round a centre, inside a ring
        draw.ellipse(box(r), outline=_u8(outer), width=max(1, line // 2))
        petals = int(rng.integers(5, 10))
        for i in range(petals):
            a = 2 * math.pi * i / petals
            px, py = cx + 0.55 * r * math.cos(a), cy + 0.55 * r * math.sin(a)
            draw.ellipse((px - 0.22 * r, py - 0.22 * r, px + 0.22 * r, py + 0.22 * r), fill=_u8(inner))
        draw.ellipse(box(r * 0.22), fill=_u8(outer))
    else:  # "solid": a disc with a light ring inside
        draw.ellipse(box(r), fill=_u8(outer))
        draw.ellipse(box(r * 0.6), outline=_u8(face), width=max(1, line // 2))
        draw.ellipse(box(r * 0.3), fill=_u8(inner))


def _packed_six(draw, w: int, h: int, mx: float, my: float, style: str, inks, face, rng: np.random.Generator) -> None:
    """The 6 of dots as Chinese sets print it: a pair of pins at the top, often smaller, and a square of four
    touching ones below, apart from the pair; the pair green and the four red, the other way round (15 %), or the
    four in two colours as the 6 drawn otherwise (20 %)."""
    green, redc, blue = inks
    r = (w - 2 * mx) * rng.uniform(0.17, 0.21)
    d = r * rng.uniform(0.95, 1.08)  # half the distance between neighbouring pins' centres
    pair_r = r * rng.uniform(0.75, 1.0)
    pair_y = my + pair_r + rng.uniform(0.0, 0.06) * (h - 2 * my)
    low_y = h - my - r - rng.uniform(0.0, 0.05) * (h - 2 * my)  # the four's bottom row
    pair_d = pair_r * rng.uniform(0.98, 1.15)
    kind = rng.random()
    if kind < 0.65:
        pair_ink, four_inks = green, (redc,) * 4
    elif kind < 0.8:
        pair_ink, four_inks = redc, (green,) * 4
    else:
        pair_ink, four_inks = green, (blue, redc, blue, redc)
    for x in (w / 2 - pair_d, w / 2 + pair_d):
        _pin(draw, x, pair_y, pair_r, style, pair_ink, pair_ink if rng.random() < 0.6 else redc, face, rng)
    centres = [(w / 2 + sx * d, low_y - 2 * d * row) for row in (1, 0) for sx in (-1, 1)]
    for (x, y), ink in zip(centres, four_inks, strict=True):
        _pin(draw, x, y, r, style, ink, ink if rng.random() < 0.6 else face, face, rng)


def _stick(draw, cx: float, cy: float, sw: float, sh: float, style: str, colour, face, angle: float = 0.0) -> None:
    if abs(angle) > 1e-3:  # a tilted stick: a thick line with round caps
        dx, dy = math.sin(angle) * sh / 2, math.cos(angle) * sh / 2
        draw.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=_u8(colour), width=max(2, int(sw)))
        return
    x0, y0, x1, y1 = cx - sw / 2, cy - sh / 2, cx + sw / 2, cy + sh / 2
    if style == "rounded":
        draw.rounded_rectangle((x0, y0, x1, y1), radius=sw / 2, fill=_u8(colour))
        for node in (0.33, 0.67):
            ny = y0 + node * sh
            draw.line((x0, ny, x1, ny), fill=_u8(face), width=max(1, int(sw * 0.15)))
    elif style == "bone":  # a thin stem with knots at both ends and in the middle
        draw.rectangle((cx - sw * 0.22, y0, cx + sw * 0.22, y1), fill=_u8(colour))
        for ny in (y0 + sw * 0.3, cy, y1 - sw * 0.3):
            draw.ellipse((x0, ny - sw * 0.3, x1, ny + sw * 0.3), fill=_u8(colour))
    elif style == "outline":
        draw.rounded_rectangle((x0, y0, x1, y1), radius=sw / 3, outline=_u8(colour), width=max(2, int(sw * 0.25)))
        draw.line((cx, y0 + sw * 0.3, cx, y1 - sw * 0.3), fill=_u8(colour), width=max(1, int(sw * 0.15)))
    else:  # "segments": three stacked beads
        for k in range(3):
            sy = y0 + (k + 0.5) * sh / 3
            draw.ellipse((x0, sy - sh / 6.5, x1, sy + sh / 6.5), fill=_u8(colour))


def _bird(draw, w: int, h: int, rng: np.random.Generator, line_art: bool = False) -> None:
    """A bird in profile, from an ellipse body, a round head, a beak, a fan of tail feathers and a wing: filled, or
    (``line_art``) drawn in outline, upright, its tail hanging, as many Chinese sets print a perched sparrow."""
    colours = [_jit(rng, _BIRD_COLOURS[int(i)]) for i in rng.permutation(len(_BIRD_COLOURS))[:4]]
    line = max(2, int(w * rng.uniform(0.015, 0.035))) if line_art else 0

    def polygon(points, colour) -> None:
        if line_art:
            draw.polygon(points, outline=_u8(colour), width=line)
        else:
            draw.polygon(points, fill=_u8(colour))

    def ellipse(box, colour) -> None:
        if line_art:
            draw.ellipse(box, outline=_u8(colour), width=line)
        else:
            draw.ellipse(box, fill=_u8(colour))

    facing = 1 if rng.random() < 0.5 else -1
    bx, by = w * rng.uniform(0.42, 0.58), h * rng.uniform(0.48, 0.62)
    rx, ry = w * rng.uniform(0.2, 0.3), h * rng.uniform(0.1, 0.16)
    tilt = rng.uniform(-0.5, 0.2) * facing
    if line_art:  # perched upright: the body turned towards vertical
        rx, ry, tilt = ry * 1.1, rx * 1.2, rng.uniform(-0.4, 0.4)
    pts = lambda cx, cy, ax, ay, t, n=24: [  # noqa: E731
        (
            cx + ax * math.cos(a) * math.cos(t) - ay * math.sin(a) * math.sin(t),
            cy + ax * math.cos(a) * math.sin(t) + ay * math.sin(a) * math.cos(t),
        )
        for a in np.linspace(0, 2 * math.pi, n, endpoint=False)
    ]
    # tail: feathers fanning back and up from the rear of the body
    tx, ty = bx - facing * rx * 0.8, by
    feathers = int(rng.integers(2, 6))
    length = h * rng.uniform(0.25, 0.45)
    for k in range(feathers):
        a = math.radians(rng.uniform(200, 260)) if facing > 0 else math.radians(rng.uniform(280, 340))
        if line_art:  # hanging down behind
            a = math.radians(rng.uniform(95, 130) if facing > 0 else rng.uniform(50, 85))
        a += (k - feathers / 2) * 0.12
        ex, ey = tx + length * math.cos(a), ty + length * math.sin(a)
        nx, ny = -math.sin(a) * w * 0.04, math.cos(a) * w * 0.04
        polygon([(tx, ty), (ex + nx, ey + ny), (ex - nx, ey - ny)], colours[k % 2 + 1])
        if rng.random() < 0.5:  # an eye spot at the feather's end
            ellipse((ex - w * 0.03, ey - w * 0.03, ex + w * 0.03, ey + w * 0.03), colours[3])
    polygon(pts(bx, by, rx, ry, tilt), colours[0])
    polygon(pts(bx - facing * rx * 0.1, by, rx * 0.6, ry * 0.55, tilt - 0.3 * facing), colours[1])
    hx, hy, hr = bx + facing * rx * 0.95, by - ry * rng.uniform(0.9, 1.6), w * rng.uniform(0.07, 0.11)
    ellipse((hx - hr, hy - hr, hx + hr, hy + hr), colours[0])
    draw.ellipse(
        (hx + facing * hr * 0.3 - hr * 0.2, hy - hr * 0.35, hx + facing * hr * 0.3 + hr * 0.2, hy + hr * 0.05),
        fill=_u8((0.05, 0.05, 0.05)),
    )
    polygon(
        [
            (hx + facing * hr * 0.8, hy - hr * 0.3),
            (hx + facing * hr * 2.0, hy + hr * 0.1),
            (hx + facing * hr * 0.8, hy + hr * 0.4),
        ],
        colours[3],
    )
    if rng.random() < 0.5:  # a crest
        polygon(
            [(hx, hy - hr), (hx - facing * hr * 0.6, hy - hr * 2.2), (hx - facing * hr * 0.2, hy - hr * 0.6)],
            colours[2],
        )
    legs_y = by + ry
    for dx in (-0.2, 0.2):
        draw.line(
            (bx + dx * rx, legs_y - ry * 0.2, bx + dx * rx, legs_y + h * 0.1),
            fill=_u8(colours[3]),
            width=max(2, int(w * 0.02)),
        )
    if rng.random() < 0.5:  # a perch
        draw.line(
            (w * 0.2, legs_y + h * 0.1, w * 0.8, legs_y + h * 0.1), fill=_u8(colours[1]), width=max(2, int(w * 0.03))
        )


def _spiral(draw, cx: float, cy: float, r: float, turns: float, start: float, sense: int, colour, width: float):
    """A curl (a wing tip, a branch's end): a spiral winding in from radius ``r`` about (cx, cy)."""
    ts = np.linspace(0, 1, max(8, int(24 * turns)))
    points = [
        (
            cx + r * (1 - 0.8 * t) * math.cos(start + sense * 2 * math.pi * turns * t),
            cy + r * (1 - 0.8 * t) * math.sin(start + sense * 2 * math.pi * turns * t),
        )
        for t in ts
    ]
    _stroke(draw, points, colour, width)


def _ornate_bird(draw, w: int, h: int, rng: np.random.Generator) -> None:
    """A perched bird as Chinese sets print their 1 of bamboo: a round head with an eye and a crest of flames on
    top, a body of a few sweeping strokes, wings that end in curls, a long tail hanging to the foot (a filled
    blade, hatched, or a sheaf of strokes), often on a branch that ends in curls; 2-4 inks, thick strokes."""
    inks = [_jit(rng, _BIRD_COLOURS[int(i)]) for i in rng.permutation(4)]  # red, green, blue, black in some order
    if rng.random() < 0.4:  # red and green lead most often
        inks = [_jit(rng, _BIRD_COLOURS[0]), _jit(rng, _BIRD_COLOURS[1]), *inks[:2]]
    lw = w * rng.uniform(0.03, 0.06)
    facing = 1 if rng.random() < 0.5 else -1
    cx = w * rng.uniform(0.42, 0.58)
    hr = w * rng.uniform(0.08, 0.13)
    hx, hy = cx + facing * w * rng.uniform(-0.05, 0.08), h * rng.uniform(0.17, 0.3)
    body_y = h * rng.uniform(0.5, 0.62)  # where the body meets the perch
    tail_y = h * rng.uniform(0.82, 0.95)
    body_w = w * rng.uniform(0.14, 0.26)
    head_ink, body_ink, wing_ink, tail_ink = inks[0], inks[1], inks[int(rng.integers(1, 4))], inks[0]
    if rng.random() < 0.4:
        tail_ink = inks[int(rng.integers(1, 4))]
    # tail first, so the body overlaps its root
    root = (cx - facing * body_w * 0.2, body_y)
    tip = (cx - facing * w * rng.uniform(-0.05, 0.2), tail_y)
    style = str(rng.choice(["blade", "hatched", "sheaf"], p=[0.35, 0.35, 0.3]))
    if style == "sheaf":
        for k in range(int(rng.integers(2, 5))):
            off = (k - 1.5) * w * rng.uniform(0.03, 0.06)
            mid = ((root[0] + tip[0]) / 2 + off * 1.5 + facing * w * rng.uniform(-0.08, 0.08), (root[1] + tip[1]) / 2)
            _stroke(draw, _curve(root, mid, (tip[0] + off, tip[1] - abs(off))), tail_ink, lw, taper=True)
    else:
        half = w * rng.uniform(0.05, 0.1)
        ts = np.linspace(0, 1, 12)
        spine = [(root[0] + (tip[0] - root[0]) * t, root[1] + (tip[1] - root[1]) * t) for t in ts]
        left = [(x - half * (1 - t), y) for (x, y), t in zip(spine, ts, strict=True)]
        right = [(x + half * (1 - t), y) for (x, y), t in zip(spine, ts, strict=True)]
        if style == "blade" and rng.random() < 0.7:
            draw.polygon(left + right[::-1], fill=_u8(tail_ink))
        else:
            draw.polygon(left + right[::-1], outline=_u8(tail_ink), width=max(1, int(lw * 0.8)))
        if style == "hatched":  # chevrons down the blade
            for t in np.linspace(0.15, 0.8, int(rng.integers(3, 7))):
                x, y = root[0] + (tip[0] - root[0]) * t, root[1] + (tip[1] - root[1]) * t
                a = half * (1 - t) * 0.9
                draw.line(
                    ((x - a, y - a * 0.6), (x, y), (x + a, y - a * 0.6)),
                    fill=_u8(tail_ink),
                    width=max(1, int(lw * 0.6)),
                )
    # branch across the foot, ending in curls, sometimes with leaves
    if rng.random() < 0.75:
        by = body_y + h * rng.uniform(-0.02, 0.06)
        x0, x1 = w * rng.uniform(0.08, 0.25), w * rng.uniform(0.75, 0.92)
        branch_ink = inks[int(rng.integers(1, 4))]
        _stroke(draw, _curve((x0, by + h * 0.03), (w * 0.5, by - h * rng.uniform(0.0, 0.06)), (x1, by)), branch_ink, lw)
        for x, sense in ((x0, -1), (x1, 1)):
            if rng.random() < 0.7:
                _spiral(
                    draw,
                    x + sense * w * 0.03,
                    by - h * 0.02,
                    w * rng.uniform(0.04, 0.07),
                    rng.uniform(0.6, 1.2),
                    rng.uniform(0, 2 * math.pi),
                    sense,
                    branch_ink,
                    lw * 0.8,
                )
        for _ in range(int(rng.integers(0, 4))):
            _leaf(
                draw,
                rng.uniform(x0, x1),
                by,
                rng.uniform(-2.6, -0.5),
                w * rng.uniform(0.08, 0.15),
                w * rng.uniform(0.03, 0.06),
                _pick(rng, _LEAF_INKS),
            )
    # body: two sweeping strokes from the head's throat down to the perch, sometimes filled
    neck = (hx, hy + hr)
    front = (cx + facing * body_w, (hy + body_y) / 2 + h * rng.uniform(-0.03, 0.05))
    back = (cx - facing * body_w * rng.uniform(0.5, 1.0), (hy + body_y) / 2)
    foot = (cx, body_y)
    outline = _curve(neck, front, foot) + _curve(foot, back, (hx - facing * hr * 0.6, hy + hr * 0.6))
    if rng.random() < 0.35:
        fill = _jit(rng, _BIRD_COLOURS[int(rng.integers(len(_BIRD_COLOURS)))])
        draw.polygon(outline, fill=_u8(fill))
    _stroke(draw, outline, body_ink, lw)
    if rng.random() < 0.5:  # breast feathers: short arcs down the front
        for t in np.linspace(0.3, 0.8, int(rng.integers(2, 5))):
            y = hy + (body_y - hy) * t
            x = cx + facing * body_w * 0.3
            _stroke(draw, _curve((x - body_w * 0.3, y), (x, y + h * 0.025), (x + body_w * 0.3, y)), inks[2], lw * 0.6)
    # wings: strokes sweeping out from the back and up, each ending in a curl
    for _ in range(int(rng.integers(1, 4))):
        side = -facing if rng.random() < 0.7 else facing
        start = (cx + side * body_w * 0.3, hy + (body_y - hy) * rng.uniform(0.25, 0.6))
        end = (cx + side * w * rng.uniform(0.28, 0.42), hy + (body_y - hy) * rng.uniform(-0.1, 0.7))
        bend = ((start[0] + end[0]) / 2, min(start[1], end[1]) - h * rng.uniform(0.0, 0.08))
        _stroke(draw, _curve(start, bend, end), wing_ink, lw)
        if rng.random() < 0.7:
            _spiral(
                draw,
                end[0],
                end[1] + w * 0.03,
                w * rng.uniform(0.025, 0.05),
                rng.uniform(0.6, 1.1),
                -math.pi / 2,
                side,
                wing_ink,
                lw * 0.8,
            )
    # head: a ring (or a disc) with the eye, a beak, a crest of flames
    if rng.random() < 0.8:
        draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), outline=_u8(head_ink), width=max(1, int(lw)))
    else:
        draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=_u8(head_ink))
    er = hr * rng.uniform(0.25, 0.45)
    ex, ey = hx + facing * hr * rng.uniform(0.0, 0.35), hy - hr * rng.uniform(0.0, 0.2)
    eye = _jit(rng, _BIRD_COLOURS[0]) if rng.random() < 0.4 else _jit(rng, _BIRD_COLOURS[3])
    if rng.random() < 0.5:
        draw.ellipse((ex - er, ey - er, ex + er, ey + er), outline=_u8(eye), width=max(1, int(lw * 0.6)))
        er *= 0.4
    draw.ellipse((ex - er, ey - er, ex + er, ey + er), fill=_u8(eye))
    bx = hx + facing * hr
    draw.polygon(
        [(bx, hy - hr * 0.25), (bx + facing * hr * rng.uniform(0.5, 1.1), hy + hr * 0.1), (bx, hy + hr * 0.35)],
        fill=_u8(inks[int(rng.integers(4))]),
    )
    crest = inks[0] if rng.random() < 0.7 else inks[int(rng.integers(1, 4))]
    for k in range(int(rng.integers(1, 5))):
        a = -math.pi / 2 + facing * (k - 1) * rng.uniform(0.2, 0.5)
        s0 = (hx + hr * math.cos(a) * 0.9, hy + hr * math.sin(a) * 0.9)
        length = h * rng.uniform(0.05, 0.12)
        end = (s0[0] - facing * length * rng.uniform(0.3, 1.0), s0[1] - length)
        _stroke(draw, _curve(s0, (s0[0] + facing * length * 0.3, s0[1] - length * 0.6), end), crest, lw, taper=True)


def _corner_index(draw, name: str, w: int, h: int, fonts: tuple[str, ...], rng: np.random.Generator) -> None:
    """A small latin index in a top corner: the number of a suit tile, the wind's letter, a dragon's letter."""
    number, suit = name[0], name[1]
    if suit == "z":
        text = _WIND_INDEX[int(number) - 1] if int(number) <= 4 else str(rng.choice(["P", "F", "C", "B", "G", "R"]))
    else:
        text = "5" if number == "0" else number
    font = _sized(fonts[int(rng.integers(len(fonts)))], h * rng.uniform(0.1, 0.15))
    x = w * rng.uniform(0.08, 0.15) if rng.random() < 0.6 else w * rng.uniform(0.85, 0.92)
    _text(draw, (x, h * rng.uniform(0.06, 0.11)), text, font, _ink(rng, {"red": 2, "black": 2, "blue": 1}))


def drawn_face(
    class_id: int, face_rgb, rng: np.random.Generator, fonts: tuple[str, ...] | None = None, *, brush: bool = False
) -> np.ndarray:
    """A face of ``class_id`` drawn here (float32 RGB 0..1, :data:`~vision.synth.art.FACE_SIZE`); faces that need
    characters need a CJK font (:func:`random_face` falls back to the artwork without one, see :func:`can_draw`).
    ``brush``: numbers and honours drawn as a brush varies them (:func:`_brushed`; half of the West winds with
    their top stroke apart, :func:`_lifted_top`), the 1 of bamboo as an ornate perched bird (half), a bird in line
    art (35 %) or a filled one, the 6 of dots packed as Chinese sets print it (:func:`_packed_six`) (off, the
    generator's draws are as they were)."""
    fonts = cjk_fonts() if fonts is None else fonts
    name = CLASS_NAMES[class_id]
    if class_id == BACK_CLASS:
        raise ValueError("a back has no face")
    if not fonts and name[1] in "mz":
        raise ValueError(f"drawing a {name} face needs a CJK font, and none is installed (fonts-arphic-ukai, others)")
    w, h = _DRAW
    img = Image.new("RGB", (w, h), _u8(face_rgb))
    draw = ImageDraw.Draw(img)
    number, suit = (5 if name[0] == "0" else int(name[0])), name[1]
    red = class_id in _FIVES
    mx, my = w * rng.uniform(0.08, 0.16), h * rng.uniform(0.07, 0.13)
    index = bool(fonts) and rng.random() < 0.25 and class_id != _HAKU
    if index:  # leave the corner free
        my += h * 0.05

    def at(x: float, y: float) -> tuple[float, float]:
        return mx + x * (w - 2 * mx), my + y * (h - 2 * my)

    if suit == "p":
        colours = [_jit(rng, _INKS[k]) for k in ("blue", "green", "red", "black")]
        blue, green, redc, black = colours
        if rng.random() < 0.3:  # some sets swap blue and green, or draw in black
            blue, green = green, blue
        if rng.random() < 0.15:
            blue = black
        style = str(rng.choice(["ring", "concentric", "wheel", "flower", "solid"], p=[0.3, 0.3, 0.15, 0.15, 0.1]))
        if brush and number == 6 and not red:
            _packed_six(draw, w, h, mx, my, style, (green, redc, blue), face_rgb, rng)
            layout = []
        else:
            layout = _PIN_LAYOUT[number]
        n = len(layout)
        r = (w - 2 * mx) * (0.44 if n == 1 else 0.21 if n <= 4 else 0.16 if n <= 6 else 0.13) * rng.uniform(0.88, 1.08)
        for k, (x, y) in enumerate(layout):
            cx, cy = at(x, y)
            if red:
                outer = inner = redc
            elif number == 1:
                outer, inner = (green, redc) if rng.random() < 0.5 else (blue, redc)
            elif number in (1, 5) and k == n // 2:
                outer, inner = redc, redc
            elif (number in (6, 7) and k < (2 if number == 6 else 3)) or (number == 9 and k < 3):
                outer, inner = green, green if rng.random() < 0.5 else redc
            else:
                outer = blue if (k % 2 == 0 or number in (2, 8)) else redc
                inner = outer if rng.random() < 0.5 else (redc if outer is not redc else blue)
            _pin(draw, cx, cy, r, style, outer, inner, face_rgb, rng)
            if number == 1 and rng.random() < 0.6:  # the big pin's extra rim
                draw.ellipse(
                    (cx - r * 1.08, cy - r * 1.08, cx + r * 1.08, cy + r * 1.08),
                    outline=_u8(redc if rng.random() < 0.5 else blue),
                    width=max(2, int(r * 0.06)),
                )
    elif suit == "s" and number == 1:
        pick = rng.random() if brush else 1.0
        if pick < 0.5:
            _ornate_bird(draw, w, h, rng)
        else:
            _bird(draw, w, h, rng, line_art=pick < 0.85)
    elif suit == "s":
        layout = _SOU_LAYOUT[number]
        style = str(rng.choice(["rounded", "bone", "outline", "segments"], p=[0.4, 0.25, 0.15, 0.2]))
        green, blue, redc = (_jit(rng, _INKS[k]) for k in ("green", "blue", "red"))
        if rng.random() < 0.2:
            blue = _jit(rng, _INKS["black"])
        sh = (h - 2 * my) * (0.38 if number in (2, 3, 4, 5, 6, 8) else 0.27) * rng.uniform(0.9, 1.05)
        sw = (w - 2 * mx) * (0.11 if len(layout) > 6 else 0.14) * rng.uniform(0.8, 1.2)
        tilted = number == 8 and rng.random() < 0.4  # the M / W shape of many 8s
        for k, (x, y) in enumerate(layout):
            cx, cy = at(x, y)
            colour = (
                redc
                if red or (number == 5 and k == 2) or (number == 7 and k == 0) or (number == 9 and x == 0.5)
                else green
                if k % 3 != 2
                else blue
            )
            angle = (
                (0.35 if k % 2 == 0 else -0.35) * (1 if y < 0.5 else -1) if tilted and x not in (0.16, 0.84) else 0.0
            )
            _stick(draw, cx, cy, sw, sh, style, colour, face_rgb, angle)
    else:
        font = fonts[int(rng.integers(len(fonts)))]
        stroke = int(rng.integers(0, 3))
        if suit == "m":
            size = min((h - 2 * my) * 0.47, (w - 2 * mx) * 0.95) * rng.uniform(0.78, 1.0)
            if red:
                ink = _jit(rng, _INKS["red"])
            else:
                ink = _ink(rng, {"black": 4, "blue": 3, "navy": 1, "green": 1, "red": 1 if number != 5 else 0})
            char = "伍" if number == 5 and rng.random() < 0.5 else _NUMBERS[number - 1]
            _glyph(img, at(0.5, 0.24), char, _sized(font, size), ink, stroke, rng if brush else None)
            wan = "萬" if rng.random() < 0.85 else "万"
            wan_ink = _jit(rng, _INKS["red"]) if rng.random() < 0.85 or red else ink
            _glyph(img, at(0.5, 0.72), wan, _sized(font, size), wan_ink, stroke, rng if brush else None)
        elif number == 5:
            _haku(draw, at, w, fonts, rng)
        else:
            if number == 6:
                colour = _ink(rng, {"green": 6, "blue": 1, "black": 1})
            elif number == 7:
                colour = _jit(rng, _INKS["red"])
            else:
                colour = _ink(rng, {"black": 4, "blue": 3, "navy": 1, "green": 1, "red": 1})
            size = (w - 2 * mx) * rng.uniform(0.8, 1.05)
            lift = brush and number == 3 and rng.random() < 0.5  # West: half with its top stroke apart
            glyph, sized = _HONOURS[number - 1], _sized(font, size)
            _glyph(img, at(0.5, 0.5), glyph, sized, colour, stroke, rng if brush else None, lift)
    if index:
        _corner_index(draw, name, w, h, fonts, rng)
    face = np.asarray(img.resize(art.FACE_SIZE, Image.LANCZOS), np.float32) / 255.0
    return face


def _haku(draw, at, w: int, fonts: tuple[str, ...], rng: np.random.Generator) -> None:
    """The White dragon: blank, a frame, a double or ornate frame, a frame round a character, or round a small
    maker's mark (:func:`_haku_kind`)."""
    kind = _haku_kind(rng)
    if kind == "blank":
        return
    colour = _ink(rng, {"blue": 5, "black": 3, "green": 1, "red": 1})
    fx, fy = rng.uniform(0.02, 0.15), rng.uniform(0.04, 0.14)
    x0, y0 = at(fx, fy)
    x1, y1 = at(1 - fx * rng.uniform(0.8, 1.2), 1 - fy * rng.uniform(0.8, 1.2))
    thick = max(3, int(w * rng.uniform(0.025, 0.07)))
    radius = thick * rng.uniform(0, 2.5)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=_u8(colour), width=thick)
    if kind in ("double", "ornate", "inner") and rng.random() < 0.8:
        inset = thick + w * rng.uniform(0.02, 0.05)
        draw.rounded_rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
            radius=radius,
            outline=_u8(colour),
            width=max(1, thick // 2),
        )
    if kind == "ornate":  # corner knots and ticks along the sides
        for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            s = thick * rng.uniform(1.2, 2.2)
            draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=_u8(colour))
        ticks = int(rng.integers(3, 7))
        for k in range(1, ticks):
            ty = y0 + (y1 - y0) * k / ticks
            draw.line((x0 - thick, ty, x0 + 2 * thick, ty), fill=_u8(colour), width=max(1, thick // 2))
            draw.line((x1 + thick, ty, x1 - 2 * thick, ty), fill=_u8(colour), width=max(1, thick // 2))
    if kind == "inner" and fonts:
        inner = _ink(rng, {"red": 3, "blue": 2, "black": 1})
        font = _sized(fonts[int(rng.integers(len(fonts)))], min(x1 - x0, y1 - y0) * rng.uniform(0.3, 0.55))
        _text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), str(rng.choice(list(_HAKU_INNER))), font, inner)
    if kind == "mark":  # drawn aside, as the kind was: the frame's draws are a plain frame's
        draw_maker_mark(draw, ((x0 + x1) / 2, (y0 + y1) / 2), art.maker_mark(rng, w))


def _haku_kind(rng: np.random.Generator) -> str:
    """How a White dragon card is drawn: "blank" 15 %, "frame" 10 %, "mark" (a frame round a small red maker's
    mark) 15 %, "double" 20 %, "ornate" 15 %, "inner" (round a character) 25 %. The draws of ``rng`` are those
    before the mark: which frames get one is drawn aside (:func:`~vision.synth.art.side_stream`)."""
    kind = str(rng.choice(["blank", "frame", "double", "ornate", "inner"], p=[0.15, 0.25, 0.2, 0.15, 0.25]))
    if kind == "frame" and art.side_stream(rng, art.HAKU_MARK_SALT).random() < 0.6:
        kind = "mark"
    return kind


def can_draw(class_id: int, fonts: tuple[str, ...]) -> bool:
    """Whether :func:`drawn_face` can draw a class with these fonts (pins, sticks and the bird need none)."""
    if class_id == BACK_CLASS:
        return False
    name = CLASS_NAMES[class_id]
    return name[1] in "ps" or bool(fonts)


def _art_bird(face_rgb, rng: np.random.Generator) -> np.ndarray:
    """The artwork's 1 of bamboo, recoloured (hue turned, channels swapped) and warped (mirrored, turned, sheared)."""
    w, h = art.FACE_SIZE
    rgba = art.glyph(str(rng.choice(["Regular", "Black"])), _ONE_SOU).copy()
    ink, alpha = rgba[..., :3], rgba[..., 3]
    ink = np.ascontiguousarray(ink[..., rng.permutation(3)])
    ink = art._shift_hue(ink, float(rng.uniform(0, 360)))
    ink = np.clip(ink * rng.uniform(0.6, 1.1), 0, 1)
    hh, ww = alpha.shape
    a = math.radians(rng.uniform(-12, 12))
    s = rng.uniform(0.75, 1.05)
    m = np.array(
        [[s * math.cos(a), -s * math.sin(a) + rng.uniform(-0.2, 0.2), 0], [s * math.sin(a), s * math.cos(a), 0]],
        np.float32,
    )
    if rng.random() < 0.5:
        m[0] *= -1
    centre = np.array([ww / 2, hh / 2], np.float32)
    m[:, 2] = centre - m[:, :2] @ centre + rng.normal(0, 0.04, 2).astype(np.float32) * (ww, hh)
    ink = cv2.warpAffine(ink, m, (ww, hh))
    alpha = cv2.warpAffine(alpha, m, (ww, hh))[..., None]
    face = np.asarray(face_rgb, np.float32) * (1 - alpha) + ink * alpha
    return cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)


def random_face(class_id: int, rng: np.random.Generator, face_rgb=None, drawn: float = 0.6) -> np.ndarray:
    """A face (or the back) of ``class_id`` as float32 RGB 0..1 of :data:`~vision.synth.art.FACE_SIZE`: drawn here
    with chance ``drawn`` (when it can be), else the artwork in a random style."""
    face_rgb = random_face_rgb(rng) if face_rgb is None else face_rgb
    if class_id == BACK_CLASS:
        return art.back_texture(art.random_back_rgb(rng), rng)
    if class_id == _ONE_SOU and rng.random() < 0.35:
        return _art_bird(face_rgb, rng)
    fonts = cjk_fonts()
    if rng.random() < drawn and can_draw(class_id, fonts):
        return drawn_face(class_id, face_rgb, rng, fonts)
    style = art.random_style(rng)
    style = (
        art.FaceStyle(**{**{f: getattr(style, f) for f in style.__dataclass_fields__}, "face_rgb": face_rgb})
        if (not style.dark_face)
        else style
    )
    return art.face_texture(class_id, style, rng)


# --- bonus tiles: flowers and seasons, which riichi does not use ---------------------------------------------------

#: The eight bonus tiles' characters, each with the index 1..4 sets print beside it: the seasons, then the flowers
#: (plum, orchid, chrysanthemum, bamboo).
_BONUS_CHARS = {"春": 1, "夏": 2, "秋": 3, "冬": 4, "梅": 1, "蘭": 2, "菊": 3, "竹": 4}
#: The plant each flower tile shows (the seasons show any plant, or a scene).
_BONUS_PLANTS = {"梅": "branch", "蘭": "orchid", "菊": "chrysanthemum", "竹": "bamboo"}
_PLANTS = ("branch", "orchid", "chrysanthemum", "bamboo")
#: Inks (RGB 0..1) of bonus pictures: stems, leaves, blossoms.
_STEM_INKS = ((0.4, 0.24, 0.12), (0.1, 0.1, 0.1), (0.1, 0.35, 0.18), (0.3, 0.2, 0.15))
_LEAF_INKS = ((0.05, 0.45, 0.2), (0.2, 0.55, 0.15), (0.05, 0.3, 0.25), (0.1, 0.35, 0.55))
_BLOSSOM_INKS = (
    (0.8, 0.1, 0.12),
    (0.92, 0.45, 0.55),
    (0.15, 0.3, 0.75),
    (0.95, 0.75, 0.1),
    (0.55, 0.2, 0.6),
    (0.95, 0.5, 0.1),
    (0.1, 0.1, 0.1),
)


def _pick(rng: np.random.Generator, inks) -> tuple[float, float, float]:
    return _jit(rng, inks[int(rng.integers(len(inks)))])


def _curve(p0, p1, p2, n: int = 16) -> list[tuple[float, float]]:
    """Points of the quadratic Bézier curve from ``p0`` to ``p2`` pulled towards ``p1``."""
    return [
        (
            (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t**2 * p2[0],
            (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t**2 * p2[1],
        )
        for t in np.linspace(0, 1, n)
    ]


def _stroke(draw, points, colour, width: float, taper: bool = False) -> None:
    """A brush stroke along ``points``: even, or thinning to a point (a leaf blade, a grass stroke)."""
    if not taper:
        draw.line(points, fill=_u8(colour), width=max(1, int(width)), joint="curve")
        return
    for k in range(len(points) - 1):
        draw.line((points[k], points[k + 1]), fill=_u8(colour), width=max(1, int(width * (1 - k / len(points)))))


def _leaf(draw, x: float, y: float, angle: float, length: float, width: float, colour) -> None:
    """A lens-shaped leaf from its stalk at (x, y) along ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    ts = np.linspace(0, 1, 9)
    half = [width / 2 * math.sin(math.pi * t) for t in ts]
    side = [(x + t * length * c - h * s, y + t * length * s + h * c) for t, h in zip(ts, half, strict=True)]
    other = [(x + t * length * c + h * s, y + t * length * s - h * c) for t, h in zip(ts, half, strict=True)]
    draw.polygon(side + other[::-1], fill=_u8(colour))


def _blossom(draw, cx: float, cy: float, r: float, rng: np.random.Generator, colour, centre) -> None:
    """A flower seen from the front: a ring of 4-6 round petals and a centre, or a single bud (a dot)."""
    if rng.random() < 0.25:
        r *= rng.uniform(0.25, 0.45)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_u8(colour))
        return
    petals = int(rng.integers(4, 7))
    turn = rng.uniform(0, 2 * math.pi)
    pr = r * rng.uniform(0.38, 0.5)
    for k in range(petals):
        a = turn + 2 * math.pi * k / petals
        px, py = cx + (r - pr) * math.cos(a), cy + (r - pr) * math.sin(a)
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=_u8(colour))
    cr = r * rng.uniform(0.15, 0.28)
    draw.ellipse((cx - cr, cy - cr, cx + cr, cy + cr), fill=_u8(centre))


def _plant(draw, region, plant: str, inks: dict, rng: np.random.Generator) -> None:
    """A plant drawn in ``region`` (x0, y0, x1, y1) from curved strokes, leaves and blossoms."""
    x0, y0, x1, y1 = region
    rw, rh = x1 - x0, y1 - y0
    stem, leaf, flower, centre = inks["stem"], inks["leaf"], inks["flower"], inks["centre"]
    if plant == "orchid":  # long arching blades from one base, flowers on thin stalks
        bx, by = x0 + rw * rng.uniform(0.3, 0.7), y1 - rh * rng.uniform(0.0, 0.08)
        for _ in range(int(rng.integers(3, 8))):
            ex, ey = x0 + rw * rng.uniform(-0.05, 1.05), y0 + rh * rng.uniform(0.0, 0.6)
            pull = (bx + (ex - bx) * rng.uniform(0.1, 0.5) + rw * rng.uniform(-0.3, 0.3), ey + rh * 0.2)
            _stroke(draw, _curve((bx, by), pull, (ex, ey)), leaf, rw * rng.uniform(0.03, 0.06), taper=True)
        for _ in range(int(rng.integers(1, 4))):
            fx, fy = x0 + rw * rng.uniform(0.15, 0.85), y0 + rh * rng.uniform(0.1, 0.55)
            _stroke(draw, _curve((bx, by), (fx, (fy + by) / 2), (fx, fy)), stem, max(1.0, rw * 0.012))
            length = rw * rng.uniform(0.1, 0.17)
            a = rng.uniform(0, 2 * math.pi)
            for _ in range(int(rng.integers(3, 6))):  # petals round the flower, unevenly spaced
                a += rng.uniform(0.9, 1.6)
                _leaf(draw, fx, fy, a, length, length * rng.uniform(0.35, 0.5), flower)
            draw.ellipse((fx - rw * 0.02, fy - rw * 0.02, fx + rw * 0.02, fy + rw * 0.02), fill=_u8(centre))
        return
    if plant == "bamboo":  # leaning, curved culms with knots, and fans of narrow leaves
        for _ in range(int(rng.integers(1, 4))):
            bx = x0 + rw * rng.uniform(0.15, 0.85)
            tx, ty = bx + rw * rng.uniform(-0.45, 0.45), y0 + rh * rng.uniform(0.0, 0.3)
            pts = _curve((bx, y1), (bx + rw * rng.uniform(-0.3, 0.3), (y1 + ty) / 2), (tx, ty), 9)
            width = rw * rng.uniform(0.025, 0.05)
            _stroke(draw, pts, stem, width)
            for k in range(2, len(pts) - 1, 2):
                px, py = pts[k]
                draw.line((px - width, py, px + width, py), fill=_u8(leaf), width=max(1, int(width * 0.3)))
                if rng.random() < 0.6:
                    down = rng.uniform(0.3, 1.3) * (1 if rng.random() < 0.5 else -1)
                    for j in range(int(rng.integers(2, 5))):
                        length = rw * rng.uniform(0.15, 0.3)
                        a = math.pi / 2 - down + (j - 1) * rng.uniform(0.25, 0.5)
                        _leaf(draw, px, py, a, length, length * rng.uniform(0.16, 0.26), leaf)
        return
    # "branch" (plum: a crooked twig with blossoms) and "chrysanthemum" (a stem, broad leaves, heads of many petals)
    bx, by = x0 + rw * rng.uniform(0.2, 0.8), y1
    tx, ty = x0 + rw * rng.uniform(0.1, 0.9), y0 + rh * rng.uniform(0.05, 0.35)
    main = _curve((bx, by), (bx + rw * rng.uniform(-0.5, 0.5), (by + ty) / 2), (tx, ty), 12)
    width = rw * rng.uniform(0.025, 0.05)
    _stroke(draw, main, stem, width)
    tips = [main[-1]]
    for _ in range(int(rng.integers(1, 4))):
        sx, sy = main[int(rng.integers(3, len(main) - 2))]
        a = -math.pi / 2 + rng.uniform(0.5, 1.3) * (1 if rng.random() < 0.5 else -1)
        length = rh * rng.uniform(0.2, 0.4)
        ex, ey = sx + length * math.cos(a), sy + length * math.sin(a)
        ex, ey = min(max(ex, x0), x1), min(max(ey, y0), y1)
        mid = ((sx + ex) / 2 + rw * rng.uniform(-0.1, 0.1), (sy + ey) / 2 + rh * rng.uniform(-0.1, 0.1))
        twig = _curve((sx, sy), mid, (ex, ey), 8)
        _stroke(draw, twig, stem, width * 0.6)
        tips.append(twig[-1])
    for _ in range(int(rng.integers(2, 7))):  # leaves along the stem
        sx, sy = main[int(rng.integers(2, len(main)))]
        a = -math.pi / 2 + rng.uniform(0.6, 1.4) * (1 if rng.random() < 0.5 else -1)
        length = rw * (rng.uniform(0.15, 0.25) if plant == "chrysanthemum" else rng.uniform(0.08, 0.15))
        _leaf(draw, sx, sy, a, length, length * rng.uniform(0.4, 0.6), leaf)
    if plant == "chrysanthemum":
        for tx, ty in tips[: int(rng.integers(1, 4))]:
            r = rw * rng.uniform(0.12, 0.2)
            petals = int(rng.integers(12, 25))
            for k in range(petals):
                a = 2 * math.pi * k / petals
                _leaf(draw, tx, ty, a, r, r * rng.uniform(0.2, 0.32), flower)
            draw.ellipse((tx - r * 0.2, ty - r * 0.2, tx + r * 0.2, ty + r * 0.2), fill=_u8(centre))
        return
    spots = tips + [main[int(rng.integers(3, len(main)))] for _ in range(int(rng.integers(1, 5)))]
    for sx, sy in spots:
        _blossom(draw, sx, sy, rw * rng.uniform(0.07, 0.13), rng, flower, centre)


def _scenery(draw, region, inks: dict, face_rgb, rng: np.random.Generator) -> None:
    """A season's scene round the plant: a sun disc or a crescent moon up in a corner, grass along the ground."""
    x0, y0, x1, y1 = region
    rw, rh = x1 - x0, y1 - y0
    if rng.random() < 0.7:
        r = rw * rng.uniform(0.09, 0.16)
        cx = x0 + r + rw * rng.uniform(0, 0.1) if rng.random() < 0.5 else x1 - r - rw * rng.uniform(0, 0.1)
        cy = y0 + r + rh * rng.uniform(0, 0.1)
        sky = _pick(rng, ((0.8, 0.1, 0.12), (0.95, 0.6, 0.1), (0.15, 0.3, 0.75), (0.1, 0.1, 0.1)))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_u8(sky))
        if rng.random() < 0.5:  # a crescent: the disc with a face-coloured disc across it
            dx = r * rng.uniform(0.35, 0.6) * (1 if rng.random() < 0.5 else -1)
            draw.ellipse((cx + dx - r, cy - r * 1.05, cx + dx + r, cy + r * 0.95), fill=_u8(face_rgb))
    if rng.random() < 0.7:
        gy = y1 - rh * rng.uniform(0.0, 0.06)
        if rng.random() < 0.5:  # the ground
            wave = [(x0 + rw * t, gy + rh * 0.02 * math.sin(7 * t + rng.uniform(0, 1))) for t in np.linspace(0, 1, 12)]
            _stroke(draw, wave, inks["leaf"], max(1.0, rw * 0.015))
        for _ in range(int(rng.integers(3, 9))):
            gx = x0 + rw * rng.uniform(0, 1)
            tip = (gx + rw * rng.uniform(-0.12, 0.12), gy - rh * rng.uniform(0.08, 0.2))
            _stroke(draw, _curve((gx, gy), (gx, (gy + tip[1]) / 2), tip, 6), inks["leaf"], rw * 0.025, taper=True)


def bonus_face(face_rgb, rng: np.random.Generator, fonts: tuple[str, ...] | None = None) -> np.ndarray:
    """A flower or season tile's face (float32 RGB 0..1, :data:`~vision.synth.art.FACE_SIZE`): one of 春夏秋冬梅蘭菊竹
    and/or a drawn plant or small scene, sometimes an index 1..4 in a corner. Nothing of a riichi face: no pins or
    stick rows, no 萬, winds or dragons. Without a CJK font the face is the picture alone."""
    fonts = cjk_fonts() if fonts is None else fonts
    w, h = _DRAW
    img = Image.new("RGB", (w, h), _u8(face_rgb))
    draw = ImageDraw.Draw(img)
    char = str(rng.choice(list(_BONUS_CHARS)))
    mx, my = w * rng.uniform(0.08, 0.14), h * rng.uniform(0.06, 0.11)
    inner = (mx, my, w - mx, h - my)
    layouts = ["top", "bottom", "picture", "large", "corner"]
    layout = str(rng.choice(layouts, p=[0.3, 0.1, 0.25, 0.12, 0.23])) if fonts else "picture"
    if rng.random() < 0.25:  # one ink for the whole face, as some sets print
        ink = _ink(rng, {"blue": 3, "black": 2, "green": 2, "red": 2})
        inks = {"stem": ink, "leaf": ink, "flower": ink, "centre": face_rgb, "char": ink}
    else:
        inks = {
            "stem": _pick(rng, _STEM_INKS),
            "leaf": _pick(rng, _LEAF_INKS),
            "flower": _pick(rng, _BLOSSOM_INKS),
            "centre": _pick(rng, ((0.95, 0.8, 0.1), (0.8, 0.1, 0.12), (0.1, 0.1, 0.1))),
            "char": _ink(rng, {"red": 3, "green": 2, "blue": 2, "black": 2, "navy": 1}),
        }
    plant = _BONUS_PLANTS.get(char) if rng.random() < 0.6 else None
    plant = plant or _PLANTS[int(rng.integers(len(_PLANTS)))]
    iw, ih = w - 2 * mx, h - 2 * my
    picture = {
        "top": (mx, my + ih * 0.36, w - mx, h - my),
        "bottom": (mx, my, w - mx, my + ih * 0.66),
        "picture": inner,
        "corner": inner,
    }.get(layout)
    if picture is not None:
        _plant(draw, picture, plant, inks, rng)
        if rng.random() < (0.5 if char in "春夏秋冬" else 0.2):
            _scenery(draw, picture, inks, face_rgb, rng)
    corner = None
    if layout != "picture":
        font = fonts[int(rng.integers(len(fonts)))]
        stroke = int(rng.integers(0, 3))
        if layout == "large":
            size, at = iw * rng.uniform(0.75, 0.95), (w / 2, h / 2)
        elif layout == "corner":
            size = ih * rng.uniform(0.14, 0.2)
            corner = (int(rng.integers(2)), int(rng.integers(2)))  # (right, bottom)
            at = (mx + size / 2 + corner[0] * (iw - size), my + size / 2 + corner[1] * (ih - size))
        else:
            size = min(ih * rng.uniform(0.26, 0.32), iw * 0.8)
            at = (w / 2 + iw * rng.uniform(-0.05, 0.05), my + ih * 0.17 if layout == "top" else h - my - ih * 0.16)
        _text(draw, at, char, _sized(font, size), inks["char"], stroke)
    if fonts and rng.random() < 0.5:  # the index: the tile's own number, or any 1..4 when only a picture shows
        number = _BONUS_CHARS[char] if layout != "picture" else int(rng.integers(1, 5))
        text = str(number) if rng.random() < 0.6 else _NUMBERS[number - 1]
        font = _sized(fonts[int(rng.integers(len(fonts)))], h * rng.uniform(0.1, 0.14))
        right = 1 - corner[0] if corner is not None and corner[1] == 0 else int(rng.random() < 0.5)  # a free corner
        x = w * rng.uniform(0.85, 0.9) if right else w * rng.uniform(0.1, 0.15)
        y = h * rng.uniform(0.07, 0.11)
        ink = inks["char"] if rng.random() < 0.5 else _ink(rng, {"red": 2, "black": 2, "blue": 1, "green": 1})
        _text(draw, (x, y), text, font, ink)
    return np.asarray(img.resize(art.FACE_SIZE, Image.LANCZOS), np.float32) / 255.0


# --- the patch a card is cut from ------------------------------------------------------------------------------


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.asarray(_jit(rng, _CLOTH[int(rng.integers(len(_CLOTH)))], 0.2), np.float32)
    noise = cv2.resize(rng.random((max(2, h // 16), max(2, w // 16))).astype(np.float32), (w, h))
    grain = rng.normal(0, rng.uniform(0.005, 0.03), (h, w, 1)).astype(np.float32)
    return np.clip(base * (0.9 + 0.2 * noise[..., None]) + grain, 0, 1)


@functools.lru_cache(maxsize=8)
def _corner_mask(h: int, w: int, radius: int) -> np.ndarray:
    mask = np.zeros((h, w), np.float32)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 1.0, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 1.0, -1)
    for cx, cy in (
        (radius, radius),
        (w - 1 - radius, radius),
        (radius, h - 1 - radius),
        (w - 1 - radius, h - 1 - radius),
    ):
        cv2.circle(mask, (cx, cy), radius, 1.0, -1)
    return mask


def _tile_image(
    face: np.ndarray,
    tw: int,
    th: int,
    band: int,
    band_front: float,
    front_rgb,
    back_rgb,
    rng: np.random.Generator,
    *,
    face_down: bool = False,
    band_over: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """A tile seen from its owner's side: its top (face, or back when ``face_down``) over its thickness band;
    RGB float and an alpha mask (rounded corners), size (th + band, tw). ``band_over``: the band over the face, the
    face still upright (a standing tile seen from above its front: its top edge shows over its face)."""
    if band_over and band:
        out, mask = _tile_image(
            face[::-1, ::-1], tw, th, band, band_front, front_rgb, back_rgb, rng, face_down=face_down
        )
        return np.ascontiguousarray(out[::-1, ::-1]), np.ascontiguousarray(mask[::-1, ::-1])
    margin = rng.uniform(0.0, 0.08)  # plain front round the printed face
    top = np.empty((th, tw, 3), np.float32)
    top[:] = face[0, 0] if not face_down else face.mean(axis=(0, 1))
    mx, my = int(tw * margin), int(th * margin)
    top[my : th - my, mx : tw - mx] = cv2.resize(face, (tw - 2 * mx, th - 2 * my), interpolation=cv2.INTER_AREA)
    # a bevelled edge: the rim darker, a highlight along one side
    rim = max(1, int(min(tw, th) * rng.uniform(0.02, 0.06)))
    shade = np.ones((th, tw), np.float32)
    shade[:rim] *= rng.uniform(0.8, 1.05)
    shade[-rim:] *= rng.uniform(0.75, 0.95)
    shade[:, :rim] *= rng.uniform(0.8, 1.0)
    shade[:, -rim:] *= rng.uniform(0.8, 1.0)
    top *= shade[..., None]
    out = np.empty((th + band, tw, 3), np.float32)
    out[:th] = top
    if band:
        split = round(float(band * band_front))
        first, second = (back_rgb, front_rgb) if face_down else (front_rgb, back_rgb)
        out[th : th + split] = np.asarray(first, np.float32) * 0.9
        out[th + split :] = np.asarray(second, np.float32) * 0.85
    radius = max(1, int(min(tw, th) * rng.uniform(0.03, 0.12)))
    return out, _corner_mask(th + band, tw, radius)


def _paste(canvas: np.ndarray, image: np.ndarray, mask: np.ndarray, x: int, y: int) -> None:
    h, w = image.shape[:2]
    ch, cw = canvas.shape[:2]
    x1, y1, x2, y2 = max(0, x), max(0, y), min(cw, x + w), min(ch, y + h)
    if x1 >= x2 or y1 >= y2:
        return
    sub = (slice(y1 - y, y2 - y), slice(x1 - x, x2 - x))
    m = mask[sub][..., None]
    canvas[y1:y2, x1:x2] = canvas[y1:y2, x1:x2] * (1 - m) + image[sub] * m


def _shadow(canvas: np.ndarray, x: int, y: int, w: int, h: int, rng: np.random.Generator) -> None:
    dx, dy = int(rng.integers(-3, 6)), int(rng.integers(0, 7))
    y1, y2, x1, x2 = max(0, y + dy), min(canvas.shape[0], y + h + dy), max(0, x + dx), min(canvas.shape[1], x + w + dx)
    canvas[y1:y2, x1:x2] *= rng.uniform(0.55, 0.85)


def _light(canvas: np.ndarray, rng: np.random.Generator, glare_box: tuple[int, int, int, int] | None) -> np.ndarray:
    h, w = canvas.shape[:2]
    a = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = (xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a)
    out = canvas * (rng.uniform(0.75, 1.1) + rng.uniform(0, 0.45) * ramp)[..., None]
    if glare_box is not None and rng.random() < 0.3:  # a specular spot or streak on the tile's face
        x, y, tw, th = glare_box
        gx, gy = x + rng.uniform(0, tw), y + rng.uniform(0, th)
        sx, sy = tw * rng.uniform(0.08, 0.4), th * rng.uniform(0.05, 0.3)
        spot = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2))
        out = out + (rng.uniform(0.3, 0.9) * spot)[..., None]
    return np.clip(out, 0, 1)


def _warp(canvas: np.ndarray, boxes: list[np.ndarray], rng: np.random.Generator, strength: float = 0.06):
    """A slight perspective and turn of the patch; the corners of each box's quad follow."""
    h, w = canvas.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.normal(0, strength, (4, 2)).astype(np.float32) * (w, h) * 0.5
    a = math.radians(rng.uniform(-7, 7))
    c, s = math.cos(a), math.sin(a)
    dst = (dst - (w / 2, h / 2)) @ np.float32([[c, s], [-s, c]]) + (w / 2, h / 2)
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    out = cv2.warpPerspective(canvas, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    moved = [cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2) for q in boxes]
    return out, moved


def _box_of(quad: np.ndarray, rng: np.random.Generator, noise: float, limit: tuple[int, int]) -> Box:
    x1, y1 = quad.min(axis=0)
    x2, y2 = quad.max(axis=0)
    bw, bh = x2 - x1, y2 - y1
    d = rng.normal(0, noise, 4) * (bw, bh, bw, bh)
    h, w = limit
    x1, y1 = float(np.clip(x1 + d[0], 0, w - 2)), float(np.clip(y1 + d[1], 0, h - 2))
    x2, y2 = float(np.clip(x2 + d[2], x1 + 2, w)), float(np.clip(y2 + d[3], y1 + 2, h))
    return Box(x1, y1, x2, y2)


def _quad(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def _cut(canvas: np.ndarray, box: Box, rng: np.random.Generator, size: Size, sideways: float = 0.3) -> np.ndarray:
    """The runtime's crop of ``box``, sometimes with the patch turned a quarter (a sideways tile: the box is then
    wider than tall and the runtime turns it back, upright or upside down)."""
    image = (np.clip(canvas, 0, 1)[..., ::-1] * 255).astype(np.uint8)  # RGB float -> BGR uint8
    if rng.random() < sideways:
        h = image.shape[0]
        w = image.shape[1]
        if rng.random() < 0.5:  # turned a quarter anticlockwise: the runtime's quarter clockwise makes it upright
            image = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
            box = Box(box.y1, w - box.x2, box.y2, w - box.x1)
        else:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            box = Box(h - box.y2, box.x1, h - box.y1, box.x2)
    return extract_crop(image, box, size, CROP_MARGIN)


def _scene_params(rng: np.random.Generator) -> dict:
    tw = int(rng.uniform(30, 80))
    th = int(tw * rng.uniform(1.22, 1.45))
    angle = rng.random()
    band = 0 if angle < 0.25 else int(th * rng.uniform(0.03, 0.4))  # 0: seen from straight above
    return {
        "tw": tw,
        "th": th,
        "band": band,
        "band_front": float(rng.uniform(0.25, 0.75)),
        "front_rgb": random_face_rgb(rng),
        "back_rgb": art.random_back_rgb(rng),
    }


def card(class_id: int, rng: np.random.Generator, size: Size = CROP_SIZE) -> np.ndarray:
    """One card of ``class_id`` (a face class or ``back``): a BGR uint8 crop of ``size`` (height, width)."""
    if not 0 <= class_id < NUM_CLASSES:
        raise ValueError(f"no class {class_id} (0..{NUM_CLASSES - 1})")
    p = _scene_params(rng)
    front, back_rgb = p["front_rgb"], p["back_rgb"]
    face_down = class_id == BACK_CLASS
    face = art.back_texture(back_rgb, rng) if face_down else random_face(class_id, rng, front)
    if face_down:
        face = face * np.float32(rng.uniform(0.9, 1.05))
    return _lay(face, p, rng, size, face_down=face_down)


def _lay(
    face: np.ndarray,
    p: dict,
    rng: np.random.Generator,
    size: Size,
    *,
    face_down: bool = False,
    band_over: bool = False,
    sideways: float = 0.3,
) -> np.ndarray:
    """The crop of a tile with ``face`` in the scene ``p`` (:func:`_scene_params`): alone as a close-up, or on
    cloth, in a row or not, lit, warped and cut with the runtime's crop. ``band_over``: the tiles' bands over their
    faces (:func:`_tile_image`); ``sideways``: the share cut as a sideways tile (:func:`_cut`)."""
    if rng.random() < 0.12:  # a close-up of the face alone (the crop is the face: what a tight photo shows)
        image = (np.clip(face, 0, 1)[..., ::-1] * 255).astype(np.uint8)
        fh, fw = image.shape[:2]
        x0, y0 = rng.uniform(0, 0.06, 2) * (fw, fh)
        box = Box(float(x0), float(y0), float(fw - rng.uniform(0, 0.06) * fw), float(fh - rng.uniform(0, 0.06) * fh))
        return extract_crop(image, box, size, CROP_MARGIN)
    tw, th, band, front, back_rgb = p["tw"], p["th"], p["band"], p["front_rgb"], p["back_rgb"]
    tile, mask = _tile_image(
        face, tw, th, band, p["band_front"], front, back_rgb, rng, face_down=face_down, band_over=band_over
    )
    ch, cw = int(th * 2.2 + band), int(tw * 3.4)
    canvas = _cloth(rng, ch, cw)
    x, y = (cw - tw) // 2, (ch - th - band) // 2
    row = rng.random() < 0.55  # in a hand row: neighbours on both sides, a small gap
    if row:
        gap = int(rng.integers(0, max(2, tw // 12)))
        for side in (-1, 1):
            if rng.random() < 0.85:
                other = int(rng.integers(NUM_CLASSES - 1)) if rng.random() < 0.8 else BACK_CLASS
                nface = art.back_texture(back_rgb, rng) if other == BACK_CLASS else _quick_face(other, front, rng)
                nt, nm = _tile_image(
                    nface,
                    tw,
                    th,
                    band,
                    p["band_front"],
                    front,
                    back_rgb,
                    rng,
                    face_down=other == BACK_CLASS,
                    band_over=band_over,
                )
                nx = x + side * (tw + gap)
                _shadow(canvas, nx, y, tw, th + band, rng)
                _paste(canvas, nt, nm, nx, y)
    _shadow(canvas, x, y, tw, th + band, rng)
    _paste(canvas, tile, mask, x, y)
    canvas = _light(canvas, rng, (x, y, tw, th))
    canvas, (quad,) = _warp(canvas, [_quad(x, y, tw, th + band)], rng)
    box = _box_of(quad, rng, 0.04, canvas.shape[:2])
    return _cut(canvas, box, rng, size, sideways)


def _quick_face(class_id: int, face_rgb, rng: np.random.Generator) -> np.ndarray:
    """A neighbour's face (only its sliver shows): one of a few artwork faces per class, rendered once, on this
    card's front colour."""
    face = _pooled_face(class_id, int(rng.integers(_POOL)))
    return face * (np.asarray(face_rgb, np.float32) / np.float32(0.95))


_POOL = 6


@functools.lru_cache(maxsize=NUM_CLASSES * _POOL)
def _pooled_face(class_id: int, k: int) -> np.ndarray:
    rng = np.random.default_rng([99, class_id, k])
    style = art.random_style(rng)
    style = art.FaceStyle(
        **{
            **{f: getattr(style, f) for f in style.__dataclass_fields__},
            "face_rgb": (0.95, 0.95, 0.95),
            "dark_face": False,
        }
    )
    face = art.face_texture(class_id, style, rng)
    face.setflags(write=False)
    return face


def none_card(rng: np.random.Generator, size: Size = CROP_SIZE, kind: str | None = None) -> np.ndarray:
    """A crop of a box that holds no riichi tile (``kind``: one of :data:`NONE_KINDS`; when None, a random one
    other than ``bonus``).

    ``none`` cards are boxes that hold no tile: cloth, the gap between two tiles, half a tile, and the tops of
    standing tiles seen from above (a thin strip, half face colour, half back colour, stretched to the crop: a
    detector reads such tops of a standing hand as White dragons), and, only when asked for, flower and season tiles
    (:func:`bonus_face`: Chinese sets hold them, riichi does not) and things on the table that are not tiles
    (:func:`distractor_card`). A tile back is no ``none``: it is class ``back``.
    """
    if kind is None:
        kind = str(rng.choice(list(_NONE_SHARES), p=list(_NONE_SHARES.values())))
    if kind not in NONE_KINDS:
        raise ValueError(f"unknown none card kind {kind!r}; one of {NONE_KINDS}")
    if kind == "standing":
        return standing_top_card(rng, size)
    if kind == "bonus":
        p = _scene_params(rng)
        return _lay(bonus_face(p["front_rgb"], rng), p, rng, size)
    if kind == "distractor":
        return distractor_card(rng, size)
    p = _scene_params(rng)
    tw, th, band, front, back_rgb = p["tw"], p["th"], p["band"], p["front_rgb"], p["back_rgb"]
    ch, cw = int(th * 2.4 + band), int(tw * 4.4)
    canvas = _cloth(rng, ch, cw)
    y = (ch - th - band) // 2
    x0 = (cw - tw) // 2
    if kind == "cloth":
        canvas = _light(canvas, rng, None)
        bw, bh = tw * rng.uniform(0.7, 1.3), (th + band) * rng.uniform(0.7, 1.3)
        box = Box(float(cw / 2 - bw / 2), float(ch / 2 - bh / 2), float(cw / 2 + bw / 2), float(ch / 2 + bh / 2))
        return _cut(canvas, box, rng, size)
    gap = int(rng.integers(0, max(2, tw // 8)))
    count = 3 if kind == "gap" else 1
    xs = [x0 + (k - count // 2) * (tw + gap) for k in range(count)]
    for nx in xs:
        cls = int(rng.integers(NUM_CLASSES))
        face = art.back_texture(back_rgb, rng) if cls == BACK_CLASS else _quick_face(cls, front, rng)
        t, m = _tile_image(face, tw, th, band, p["band_front"], front, back_rgb, rng, face_down=cls == BACK_CLASS)
        _shadow(canvas, nx, y, tw, th + band, rng)
        _paste(canvas, t, m, nx, y)
    canvas = _light(canvas, rng, (x0, y, tw, th))
    if kind == "gap":  # the box straddles two neighbours: half of each
        shift = rng.uniform(0.4, 0.6) * (tw + gap) * (1 if rng.random() < 0.5 else -1)
        quad = _quad(x0 + shift, y, tw, th + band)
    else:  # half a tile: the box slides off it sideways or lengthwise, onto the cloth
        if rng.random() < 0.6:
            quad = _quad(x0 + rng.choice([-1, 1]) * rng.uniform(0.5, 0.8) * tw, y, tw, th + band)
        else:
            quad = _quad(x0, y + rng.choice([-1, 1]) * rng.uniform(0.5, 0.8) * (th + band), tw, th + band)
    canvas, (quad,) = _warp(canvas, [quad], rng)
    return _cut(canvas, _box_of(quad, rng, 0.04, canvas.shape[:2]), rng, size)


def distractor_card(rng: np.random.Generator, size: Size = CROP_SIZE, kind: str | None = None) -> np.ndarray:
    """A box a detector puts on a thing that is not a tile (``kind``: one of
    :data:`~vision.synth.distractors.DISTRACTOR_KINDS`, else a random one): a key of a laptop's keyboard, a blank white
    box's top, paper, a phone, a cup, an automatic table's panel, rim or slot, a point stick, a chip, a die, a hand.

    The thing's picture seen from above (:func:`vision.synth.distractors.flat_picture`) lies on cloth; the box, about
    a tile's size at the thing's own scale (a tile is 23-28.5 mm wide), sits on one of its spots (a key, a die, the
    display) or anywhere on it, and is cut as the other ``none`` cards are (lit, warped, the runtime's crop)."""
    if kind is None:
        kind = str(rng.choice(distractors.DISTRACTOR_KINDS))
    flat = distractors.flat_picture(kind, rng)
    ppm = distractors.PX_PER_MM
    scale = rng.uniform(30, 80) / (rng.uniform(23, 28.5) * ppm)  # the tile's width on the card, as card() draws it
    picture = cv2.resize(flat.rgba, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    tw = max(8, round(rng.uniform(23, 28.5) * ppm * scale))
    th = round(tw * rng.uniform(1.22, 1.45))
    ph, pw = picture.shape[:2]
    ch, cw = max(ph, th) + 2 * th, max(pw, tw) + 2 * tw
    canvas = _cloth(rng, ch, cw)
    x, y = (cw - pw) // 2, (ch - ph) // 2
    _paste(canvas, np.ascontiguousarray(picture[..., :3]), np.ascontiguousarray(picture[..., 3]), x, y)
    if flat.spots and rng.random() < 0.75:
        sx, sy = flat.spots[int(rng.integers(len(flat.spots)))]
        cx, cy = x + sx * scale, y + sy * scale
    else:  # anywhere the thing is
        rows, cols = np.nonzero(picture[..., 3] > 0.5)
        k = int(rng.integers(len(rows))) if len(rows) else 0
        cx, cy = (x + cols[k], y + rows[k]) if len(rows) else (cw / 2, ch / 2)
    if rng.random() < 0.3:  # a box the thing's own shape (a key, a die) rather than a tile's
        th = round(tw * rng.uniform(0.8, 1.1))
    canvas = _light(canvas, rng, None)
    quad = _quad(cx - tw / 2, cy - th / 2, tw, th)
    canvas, (quad,) = _warp(canvas, [quad], rng)
    return _cut(canvas, _box_of(quad, rng, 0.06, canvas.shape[:2]), rng, size)


def standing_top_card(rng: np.random.Generator, size: Size = CROP_SIZE) -> np.ndarray:
    """A box on the top of a standing tile seen from (nearly) straight above: a thin strip, part face colour and
    part back colour, in a row of such strips, cut and stretched to the crop as a detector's box would be."""
    tw = int(rng.uniform(30, 80))
    depth = max(4, int(tw * rng.uniform(0.4, 0.85)))  # the tile's thickness, seen from above
    front, back_rgb = random_face_rgb(rng), art.random_back_rgb(rng)
    share = rng.uniform(0.3, 0.7)
    # a steep view also shows a little of one side: the face (the owner's seat) or the back (across the table)
    side = int(depth * rng.uniform(0, 0.8)) if rng.random() < 0.5 else 0
    side_rgb = np.asarray(front if rng.random() < 0.5 else back_rgb, np.float32)
    ch, cw = int(depth * 5 + side + 10), int(tw * 5)
    canvas = _cloth(rng, ch, cw)
    y = (ch - depth - side) // 2
    gap = int(rng.integers(0, 3))
    face_first = rng.random() < 0.5
    for k in range(-3, 4):
        x = (cw - tw) // 2 + k * (tw + gap)
        strip = np.empty((depth + side, tw, 3), np.float32)
        split = round(float(depth * share))
        a, b = (front, back_rgb) if face_first else (back_rgb, front)
        strip[:split] = np.asarray(a, np.float32) * rng.uniform(0.9, 1.05)
        strip[split:depth] = np.asarray(b, np.float32) * rng.uniform(0.9, 1.05)
        if side:
            strip[depth:] = side_rgb * rng.uniform(0.6, 0.85)
            if rng.random() < 0.5:  # a hint of the printed face on the steeply seen side
                cv2.line(
                    strip,
                    (tw // 3, depth + side // 2),
                    (2 * tw // 3, depth + side // 2),
                    _jit(rng, _INKS["black"]),
                    max(1, side // 4),
                )
        strip[:, :1] *= 0.6  # the dark line between two tiles
        strip[:, -1:] *= 0.6
        _shadow(canvas, x, y, tw, depth + side, rng)
        _paste(canvas, strip, np.ones(strip.shape[:2], np.float32), x, y)
    canvas = _light(canvas, rng, None)
    x = (cw - tw) // 2
    # the detector's box: about one tile wide (sometimes two), the strip's height or a little more
    bw = tw * (rng.uniform(0.8, 1.2) if rng.random() < 0.8 else rng.uniform(1.6, 2.2))
    grow = rng.uniform(0.0, 0.8) * depth
    quad = _quad(x + rng.uniform(-0.3, 0.3) * tw, y - grow / 2, bw, depth + side + grow)
    canvas, (quad,) = _warp(canvas, [quad], rng, 0.03)
    box = _box_of(quad, rng, 0.03, canvas.shape[:2])
    return _cut(canvas, box, rng, size, sideways=0.5)


def card_set(
    n: int, seed: int, none_share: float = 0.08, size: Size = CROP_SIZE, start: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Cards ``start .. start+n-1`` (BGR uint8, (n, h, w, 3)) and their class ids: the classes in turn,
    ``none_share`` of them ``none`` (id :data:`~vision.read.labels.NUM_CLASSES`). Card ``i`` depends on ``seed`` and
    ``i`` only."""
    if n < 0 or not 0.0 <= none_share <= 1.0:
        raise ValueError(f"need n >= 0 and 0 <= none_share <= 1, got n={n}, none_share={none_share}")

    def draw(i: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        if rng.random() < none_share:
            return none_card(rng, size), NUM_CLASSES
        return card(i % NUM_CLASSES, rng, size), i % NUM_CLASSES

    return _seeded_set(n, seed, size, start, draw)


def _seeded_set(
    n: int, seed: int, size: Size, start: int, draw: Callable[[int, np.random.Generator], tuple[np.ndarray, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Cards ``start .. start+n-1`` and their class ids: card ``i`` is ``draw(i, rng)`` with ``rng`` seeded by
    ``seed`` and ``i`` alone, so any stretch of a set can be drawn on its own."""
    if n < 0:
        raise ValueError(f"need n >= 0, got n={n}")
    xs = np.empty((n, size.height, size.width, 3), np.uint8)
    ys = np.empty(n, np.int64)
    for j in range(n):
        xs[j], ys[j] = draw(start + j, np.random.default_rng([seed, start + j]))
    return xs, ys


#: The classes whose faces a brush draws: characters (the man suit with its red five, the winds, Green and Red), the
#: 1 of bamboo's bird and the 6 of dots as Chinese sets pack it. The ones :func:`brush_card_set` draws.
BRUSHED_CLASSES = tuple(
    i for i, n in enumerate(CLASS_NAMES) if n[1] == "m" or (n[1] == "z" and n[0] in "123467") or n in ("1s", "6p")
)


def _check_brushed(class_id: int) -> None:
    if class_id not in BRUSHED_CLASSES:
        raise ValueError(f"brushed cards are of characters, 1s and 6p, not {CLASS_NAMES[class_id]}")


def brush_card(class_id: int, rng: np.random.Generator, size: Size = CROP_SIZE) -> np.ndarray:
    """A card of a class of :data:`BRUSHED_CLASSES` whose face is drawn as a brush draws it (:func:`drawn_face`
    with ``brush``): other sets' calligraphy, which no installed font draws, their birds and their 6 of dots."""
    _check_brushed(class_id)
    fonts = cjk_fonts()
    if not fonts:
        raise ValueError("brushed cards need a CJK font (Debian: fonts-arphic-ukai, fonts-ipafont-mincho ...)")
    p = _scene_params(rng)
    return _lay(drawn_face(class_id, p["front_rgb"], rng, fonts, brush=True), p, rng, size)


def brush_card_set(n: int, seed: int, size: Size = CROP_SIZE, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Brushed cards ``start .. start+n-1`` (:func:`brush_card`; BGR uint8, (n, h, w, 3)) and their class ids, the
    classes of :data:`BRUSHED_CLASSES` in turn. Card ``i`` depends on ``seed`` and ``i`` only."""

    def draw(i: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        c = BRUSHED_CLASSES[i % len(BRUSHED_CLASSES)]
        return brush_card(c, rng, size), c

    return _seeded_set(n, seed, size, start, draw)


def way_up_card(class_id: int, rng: np.random.Generator, size: Size = CROP_SIZE, *, brush: bool = False) -> np.ndarray:
    """A card of a face class whose face is upright in the crop, for learning which way up a tile lies: never cut
    as a sideways tile (the runtime turns those back either way up), its band over its face half the time (a
    standing tile seen from above its front) so that where the band lies says nothing. ``brush``: a face of
    :data:`BRUSHED_CLASSES` drawn as a brush draws it (:func:`brush_card`), else as :func:`card` draws it."""
    if class_id == BACK_CLASS or not 0 <= class_id < NUM_CLASSES:
        raise ValueError(f"a way-up card is of a face class, not {class_id}")
    p = _scene_params(rng)
    band_over = bool(rng.random() < 0.5)
    if brush:
        _check_brushed(class_id)
        face = drawn_face(class_id, p["front_rgb"], rng, cjk_fonts(), brush=True)
    else:
        face = random_face(class_id, rng, p["front_rgb"])
    return _lay(face, p, rng, size, band_over=band_over, sideways=0.0)


#: Face classes (all but ``back``): the ones :func:`way_up_card_set` draws.
FACE_CLASSES = tuple(c for c in range(NUM_CLASSES) if c != BACK_CLASS)


def way_up_card_set(n: int, seed: int, size: Size = CROP_SIZE, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Upright cards ``start .. start+n-1`` (:func:`way_up_card`; BGR uint8, (n, h, w, 3)) and their class ids:
    every third brushed (with a CJK font installed), the rest of every face class in turn. Card ``i`` depends on
    ``seed`` and ``i`` only."""
    brushed = bool(cjk_fonts())

    def draw(i: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        if brushed and i % 3 == 2:
            c = BRUSHED_CLASSES[(i // 3) % len(BRUSHED_CLASSES)]
            return way_up_card(c, rng, size, brush=True), c
        c = FACE_CLASSES[i % len(FACE_CLASSES)]
        return way_up_card(c, rng, size), c

    return _seeded_set(n, seed, size, start, draw)


def distractor_card_set(n: int, seed: int, size: Size = CROP_SIZE, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Cards ``start .. start+n-1`` of things on the table that are not tiles (:func:`distractor_card`, the kinds of
    :data:`~vision.synth.distractors.DISTRACTOR_KINDS` in turn; BGR uint8, (n, h, w, 3)), all of class ``none`` (id
    :data:`~vision.read.labels.NUM_CLASSES`). Card ``i`` depends on ``seed`` and ``i`` only."""
    kinds = distractors.DISTRACTOR_KINDS
    return _seeded_set(
        n, seed, size, start, lambda i, rng: (distractor_card(rng, size, kinds[i % len(kinds)]), NUM_CLASSES)
    )


def bonus_card_set(n: int, seed: int, size: Size = CROP_SIZE, start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Bonus cards ``start .. start+n-1`` (flower and season tiles, :func:`bonus_face`; BGR uint8, (n, h, w, 3)),
    all of class ``none`` (id :data:`~vision.read.labels.NUM_CLASSES`). Card ``i`` depends on ``seed`` and ``i``
    only."""
    return _seeded_set(n, seed, size, start, lambda i, rng: (none_card(rng, size, kind="bonus"), NUM_CLASSES))
