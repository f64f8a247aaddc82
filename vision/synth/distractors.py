"""Things on a mahjong table that are not tiles, drawn unlabelled: the background a detector must learn to leave.

Real photos show a detector reading such things as tiles: a laptop's keys as White dragons, 3z, 2p and backs; blank
white objects as White dragons; an automatic table's centre panel, rim, felt slots, chips and sticks as backs. This
module draws them into rendered scenes (:func:`draw_on_table` before the tiles, :func:`draw_hands` after them) and
gives their flat pictures (:func:`flat_picture`) to the crop classifier's ``none`` cards.

Everything is in millimetres on the table plane (z up), as :mod:`vision.synth.layout` lays tiles out, and seen through
the scene's :class:`~vision.synth.camera.Camera`, so a key is as large beside a tile as it is on a real table.

>>> import numpy as np
>>> from vision.synth.camera import Camera
>>> cam = Camera.looking_at(320, 240, np.zeros(3), 500.0, 1.2, 0.3, 0.0, 1.0)
>>> image = np.full((240, 320, 3), 0.3, np.float32)
>>> cover = draw_object("keyboard", np.random.default_rng(0), image, cam, (0.0, 0.0), 0.2)
>>> bool(cover.any()), cover.shape
(True, (240, 320))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.camera import Camera

#: Pixels per millimetre of the flat pictures (a tile's face is 23-28.5 mm wide: 70-85 pixels).
PX_PER_MM = 3.0

#: The flat things (a picture laid on the table) and the solid ones (boxes, cups and dice, drawn as bodies).
FLAT_KINDS = ("keyboard", "paper", "phone", "table_panel", "table_rim", "felt_slots", "point_sticks", "chips")
SOLID_KINDS = ("white_box", "cup", "dice")
#: Every kind :func:`draw_object` draws on the table, and the hands :func:`draw_hands` lays over the tiles.
ON_TABLE_KINDS = (*FLAT_KINDS, *SOLID_KINDS)
DISTRACTOR_KINDS = (*ON_TABLE_KINDS, "hand")

#: Kinds that stand up from the table or sit on it: laid under a tile they would show through it, so they are kept
#: off the tiles (a keyboard, paper, slots or sticks under loose tiles are what real photos show).
_KEPT_OFF_TILES = frozenset({"white_box", "cup", "dice", "table_panel", "phone", "chips"})

_LETTERS = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"


@dataclass(frozen=True)
class Flat:
    """A flat thing seen from straight above: RGBA float32 at :data:`PX_PER_MM`, and ``spots`` (pixel x, y) where a
    detector's box lands on it (a key's centre, a die, a chip, the panel's display)."""

    rgba: np.ndarray
    spots: tuple[tuple[float, float], ...] = ()

    @property
    def size_mm(self) -> tuple[float, float]:
        """(width, height) in millimetres."""
        return self.rgba.shape[1] / PX_PER_MM, self.rgba.shape[0] / PX_PER_MM


# --- drawing on a picture in millimetres ----------------------------------------------------------------------------


def _canvas(w_mm: float, h_mm: float, rgba=(0.0, 0.0, 0.0, 0.0)) -> np.ndarray:
    w, h = max(2, round(w_mm * PX_PER_MM)), max(2, round(h_mm * PX_PER_MM))
    canvas = np.empty((h, w, 4), np.float32)
    canvas[:] = rgba
    return canvas


def _colour(rgb, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return (*(float(v) for v in rgb), float(alpha))


def _rounded(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """A rounded rectangle's outline (mm, N x 2)."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    pts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for a in np.radians(np.linspace(a0, a0 + 90, 7)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.asarray(pts)


def _fill(canvas: np.ndarray, outline_mm: np.ndarray, rgba) -> None:
    pts = np.round(np.asarray(outline_mm) * PX_PER_MM * 16).astype(np.int32)
    cv2.fillPoly(canvas, [pts], rgba, cv2.LINE_AA, shift=4)


def _disc(canvas: np.ndarray, cx: float, cy: float, r: float, rgba) -> None:
    a = np.linspace(0, 2 * math.pi, 28, endpoint=False)
    _fill(canvas, np.c_[cx + r * np.cos(a), cy + r * np.sin(a)], rgba)


def _text(canvas: np.ndarray, text: str, cx: float, cy: float, height_mm: float, rgba, thick: float = 0.12) -> None:
    """Text centred on (cx, cy) mm, ``height_mm`` tall (Hershey, as a key's or a display's print)."""
    scale = height_mm * PX_PER_MM / 22.0
    thickness = max(1, round(height_mm * PX_PER_MM * thick))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    # OpenCV writes text on 8-bit images only: the ink goes through an 8-bit mask the size of the text
    pad = thickness + 2
    mask = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(mask, text, (pad, pad + th), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thickness, cv2.LINE_AA)
    x0, y0 = round(cx * PX_PER_MM - tw / 2) - pad, round(cy * PX_PER_MM - th / 2) - pad
    h, w = canvas.shape[:2]
    x1, y1 = min(w, x0 + mask.shape[1]), min(h, y0 + mask.shape[0])
    cx0, cy0 = max(0, x0), max(0, y0)
    if x1 <= cx0 or y1 <= cy0:
        return
    ink = (mask[cy0 - y0 : y1 - y0, cx0 - x0 : x1 - x0].astype(np.float32) / 255 * rgba[3])[..., None]
    roi = canvas[cy0:y1, cx0:x1]
    roi[..., :3] = roi[..., :3] * (1 - ink) + np.asarray(rgba[:3], np.float32) * ink


def _spot(x_mm: float, y_mm: float) -> tuple[float, float]:
    return x_mm * PX_PER_MM, y_mm * PX_PER_MM


def _grey(rng: np.random.Generator, lo: float, hi: float, tint: float = 0.03) -> np.ndarray:
    return np.clip(rng.uniform(lo, hi) + rng.uniform(-tint, tint, 3), 0, 1)


# --- the flat things ------------------------------------------------------------------------------------------------


def keyboard(rng: np.random.Generator) -> Flat:
    """A laptop's key grid: rounded keys about 15-17 mm wide on a 17-19.5 mm pitch, light keys with dark letters or
    dark keys with light letters, on the laptop's deck; rows staggered, the bottom row with a space bar; sometimes the
    palm rest below with its blank trackpad."""
    pitch = rng.uniform(17.0, 19.5)
    key = pitch * rng.uniform(0.78, 0.9)
    rows, cols = int(rng.integers(3, 7)), int(rng.integers(8, 15))
    dark_keys = rng.random() < 0.5
    key_rgb = _grey(rng, 0.05, 0.2) if dark_keys else _grey(rng, 0.82, 0.97)
    letter_rgb = _grey(rng, 0.75, 0.95) if dark_keys else _grey(rng, 0.05, 0.3)
    deck_rgb = _grey(rng, 0.55, 0.85) if rng.random() < 0.5 else _grey(rng, 0.08, 0.3)
    margin = pitch * rng.uniform(0.3, 0.9)
    w, h = cols * pitch + pitch + 2 * margin, rows * pitch + 2 * margin
    palm_rest = pitch * rng.uniform(3.5, 5.0) if rng.random() < 0.4 else 0.0  # the deck below the keys, a trackpad
    canvas = _canvas(w, h + palm_rest)
    _fill(canvas, _rounded(0, 0, w, h + palm_rest, pitch * 0.5), _colour(deck_rgb))
    spots = []
    if palm_rest:
        pad_w, pad_h = min(w * 0.8, pitch * rng.uniform(4, 6.5)), palm_rest * rng.uniform(0.6, 0.85)
        x0, y0 = (w - pad_w) / 2, h + (palm_rest - pad_h) / 2 - margin / 2
        pad = np.clip(deck_rgb + rng.choice([-1, 1]) * rng.uniform(0.02, 0.08), 0, 1)
        _fill(canvas, _rounded(x0, y0, x0 + pad_w, y0 + pad_h, pitch * 0.3), _colour(pad))
        spots.append(_spot(w / 2, y0 + pad_h / 2))
    radius = key * rng.uniform(0.08, 0.22)
    letters_at_corner = rng.random() < 0.4
    for r in range(rows):
        x = margin + (0.0, 0.5, 0.75, 1.0, 0.25, 0.0)[r % 6] * pitch
        y = margin + r * pitch + (pitch - key) / 2
        c = 0
        while x + key <= w - margin + 1e-6:
            span = 1
            if r == rows - 1 and c == 2 and cols > 8:
                span = min(int(rng.integers(4, 7)), cols - 4)  # the space bar
            elif rng.random() < 0.07:
                span = 2  # shift, enter, tab
            kw = key + (span - 1) * pitch
            if x + kw > w - margin + 1e-6:
                break
            shade = rng.uniform(0.93, 1.05)
            _fill(canvas, _rounded(x, y + key * 0.06, x + kw, y + key * 1.04, radius), _colour(key_rgb * 0.75))
            _fill(canvas, _rounded(x, y, x + kw, y + key, radius), _colour(np.clip(key_rgb * shade, 0, 1)))
            if span == 1:
                letter = _LETTERS[int(rng.integers(len(_LETTERS)))]
                lx, ly = (x + key * 0.3, y + key * 0.32) if letters_at_corner else (x + key / 2, y + key / 2)
                _text(canvas, letter, lx, ly, key * rng.uniform(0.25, 0.42), _colour(letter_rgb))
                spots.append(_spot(x + key / 2, y + key / 2))
            x += kw + (pitch - key)
            c += 1
    return Flat(canvas, tuple(spots))


def paper(rng: np.random.Generator) -> Flat:
    """A white card or sheet (a business card, a playing card, a score sheet), blank or printed with faint lines."""
    w, h = ((55, 91), (63, 88), (74, 105), (105, 148), (90, 90))[int(rng.integers(5))]
    w, h = w * rng.uniform(0.95, 1.05), h * rng.uniform(0.95, 1.05)
    canvas = _canvas(w, h)
    base = np.clip(rng.uniform(0.88, 0.99) - np.array([0.0, rng.uniform(0, 0.03), rng.uniform(0, 0.08)]), 0, 1)
    _fill(canvas, _rounded(0, 0, w, h, rng.uniform(0, 4)), _colour(base))
    if rng.random() < 0.5:  # printed lines of text or a ruled score sheet
        ink = _grey(rng, 0.2, 0.6)
        step = rng.uniform(4, 9)
        for y in np.arange(h * 0.12, h * 0.9, step):
            length = w * rng.uniform(0.3, 0.8)
            _fill(canvas, _rounded(w * 0.1, y, w * 0.1 + length, y + step * 0.25, 0), _colour(ink, 0.6))
    return Flat(canvas, (_spot(w / 2, h / 2), _spot(w / 2, h / 4), _spot(w / 2, 3 * h / 4)))


def phone(rng: np.random.Generator) -> Flat:
    """A phone lying on the table: dark glass with rounded corners, the screen off (a reflection), on (bright, with
    icons) or the phone face down (its back and cameras)."""
    w, h = rng.uniform(66, 79), rng.uniform(138, 166)
    r = rng.uniform(6, 12)
    canvas = _canvas(w, h)
    shows = rng.choice(["off", "on", "back"], p=[0.4, 0.35, 0.25])
    body = _grey(rng, 0.02, 0.12) if shows != "back" else rng.uniform(0.05, 0.9, 3)
    _fill(canvas, _rounded(0, 0, w, h, r), _colour(body))
    bezel = rng.uniform(1.5, 4.5)
    spots = [_spot(w / 2, h / 2), _spot(w / 2, h * 0.25), _spot(w / 2, h * 0.75)]
    if shows == "back":
        lens = _rounded(5, 5, 5 + w * 0.4, 5 + w * 0.4, w * 0.08)
        _fill(canvas, lens, _colour(body * 0.7))
        for k in range(int(rng.integers(1, 4))):
            _disc(canvas, 5 + w * (0.1 + 0.2 * (k % 2)), 5 + w * (0.1 + 0.2 * (k // 2)), w * 0.07, _colour((0.03,) * 3))
        spots.append(_spot(5 + w * 0.2, 5 + w * 0.2))
        return Flat(canvas, tuple(spots))
    sx0, sy0, sx1, sy1 = bezel, bezel * 1.5, w - bezel, h - bezel * 1.5
    if shows == "off":  # black glass with a lamp's reflection across it
        glass = canvas[round(sy0 * PX_PER_MM) : round(sy1 * PX_PER_MM), round(sx0 * PX_PER_MM) : round(sx1 * PX_PER_MM)]
        gh, gw = glass.shape[:2]
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        a = rng.uniform(0, math.pi)
        band = np.exp(
            -((((xx / gw - 0.5) * math.cos(a) + (yy / gh - 0.5) * math.sin(a)) / rng.uniform(0.08, 0.3)) ** 2)
        )
        glass[..., :3] = np.clip(glass[..., :3] + rng.uniform(0.05, 0.35) * band[..., None], 0, 1)
        return Flat(canvas, tuple(spots))
    screen = rng.uniform(0.4, 1.0, 3)
    _fill(canvas, _rounded(sx0, sy0, sx1, sy1, r * 0.7), _colour(screen))
    icon = (sx1 - sx0) / 4
    for row in range(int(rng.integers(2, 6))):
        for col in range(4):
            if rng.random() < 0.8:
                x, y = sx0 + col * icon + icon * 0.15, sy0 + 14 + row * icon * 1.2
                _fill(canvas, _rounded(x, y, x + icon * 0.7, y + icon * 0.7, icon * 0.2), _colour(rng.uniform(0, 1, 3)))
                spots.append(_spot(x + icon * 0.35, y + icon * 0.35))
    return Flat(canvas, tuple(spots))


def table_panel(rng: np.random.Generator) -> Flat:
    """An automatic table's square centre panel: dark, bevelled, with a small points display, the dice window (a
    clear dome over two dice) and the seats' wind lamps."""
    side = rng.uniform(130, 220)
    canvas = _canvas(side, side)
    base = _grey(rng, 0.03, 0.22)
    _fill(canvas, _rounded(0, 0, side, side, side * rng.uniform(0.02, 0.1)), _colour(np.clip(base * 1.6 + 0.05, 0, 1)))
    bevel = side * rng.uniform(0.03, 0.07)
    _fill(canvas, _rounded(bevel, bevel, side - bevel, side - bevel, side * 0.05), _colour(base))
    c = side / 2
    window = side * rng.uniform(0.18, 0.3)
    dome = np.clip(base + rng.uniform(0.05, 0.25), 0, 1)
    if rng.random() < 0.5:
        _disc(canvas, c, c, window, _colour(dome))
    else:
        _fill(canvas, _rounded(c - window, c - window, c + window, c + window, window * 0.3), _colour(dome))
    spots = [_spot(c, c)]
    for k in range(2):  # the two dice under the dome
        die = window * rng.uniform(0.32, 0.45)
        dx, dy = c + (k - 0.5) * window * 0.8 - die / 2, c + rng.uniform(-0.3, 0.3) * window - die / 2
        _fill(canvas, _rounded(dx, dy, dx + die, dy + die, die * 0.2), _colour(_grey(rng, 0.85, 0.97)))
        _pips(canvas, int(rng.integers(1, 7)), dx, dy, die)
    digits = "".join(str(int(d)) for d in rng.integers(0, 10, int(rng.integers(2, 6))))
    ink = ((1.0, 0.2, 0.1), (0.2, 1.0, 0.3), (1.0, 0.6, 0.1), (0.3, 0.7, 1.0))[int(rng.integers(4))]
    for seat in range(4 if rng.random() < 0.6 else 1):
        # a points display (and a lamp) in front of each seat: the panel's picture turned a quarter per seat
        box_w, box_h = side * rng.uniform(0.25, 0.4), side * rng.uniform(0.07, 0.12)
        x0, y0 = c - box_w / 2, side - bevel - box_h - side * 0.06
        block = _canvas(side, side)
        _fill(block, _rounded(x0, y0, x0 + box_w, y0 + box_h, 1.0), _colour((0.02, 0.02, 0.02)))
        _text(block, digits, c, y0 + box_h / 2, box_h * 0.6, _colour(ink))
        lit = rng.random() < 0.3
        _disc(block, c + box_w * 0.7, y0 + box_h / 2, box_h * 0.3, _colour(ink if lit else base * 1.8))
        block = np.rot90(block, seat)
        alpha = block[..., 3:]
        canvas[..., :3] = canvas[..., :3] * (1 - alpha) + block[..., :3] * alpha
        spots.append(_spot(*np.asarray(_rotated((c, y0 + box_h / 2), seat, side))))
    return Flat(canvas, tuple(spots))


def _rotated(point, quarters: int, side: float) -> tuple[float, float]:
    """Where ``point`` (mm) of a square picture ``side`` wide lands when the picture is turned by np.rot90."""
    x, y = point
    for _ in range(quarters % 4):
        x, y = y, side - x
    return x, y


def _pips(canvas: np.ndarray, value: int, x0: float, y0: float, side: float, ink=None) -> None:
    """A die's face of ``value`` in the square (x0, y0, side) mm: black pips, the one a large red pip."""
    at = {
        1: [(0.5, 0.5)],
        2: [(0.28, 0.28), (0.72, 0.72)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.28, 0.22), (0.28, 0.5), (0.28, 0.78), (0.72, 0.22), (0.72, 0.5), (0.72, 0.78)],
    }[value]
    for fx, fy in at:
        colour = (0.8, 0.08, 0.08) if value == 1 else (ink if ink is not None else (0.05, 0.05, 0.05))
        _disc(canvas, x0 + fx * side, y0 + fy * side, side * (0.16 if value == 1 else 0.085), _colour(colour))


def table_rim(rng: np.random.Generator) -> Flat:
    """A stretch of the table's rim: a long band of plastic or wood with a highlight along its inner edge, sometimes a
    point-stick drawer's slot and a cup holder in it."""
    length, width = rng.uniform(500, 1100), rng.uniform(35, 90)
    canvas = _canvas(length, width)
    wood = rng.random() < 0.35
    base = rng.uniform(0.25, 0.55, 1) * (1.0, 0.7, 0.45) if wood else _grey(rng, 0.03, 0.5)
    _fill(canvas, _rounded(0, 0, length, width, 0), _colour(base))
    lip = width * rng.uniform(0.08, 0.2)
    _fill(canvas, _rounded(0, width - lip, length, width, 0), _colour(np.clip(base + rng.uniform(0.1, 0.35), 0, 1)))
    _fill(canvas, _rounded(0, 0, length, lip * 0.5, 0), _colour(base * 0.6))
    spots = [_spot(x, width / 2) for x in np.linspace(length * 0.1, length * 0.9, 6)]
    if rng.random() < 0.6:  # the point-stick drawer's slot
        x = rng.uniform(0.1, 0.6) * length
        _fill(canvas, _rounded(x, width * 0.3, x + rng.uniform(80, 180), width * 0.6, 2), _colour(base * 0.3))
    if rng.random() < 0.4:  # a cup holder
        x = rng.uniform(0.2, 0.8) * length
        _disc(canvas, x, width * 0.45, width * 0.38, _colour(base * 0.5))
        _disc(canvas, x, width * 0.45, width * 0.3, _colour(base * 0.25))
        spots.append(_spot(x, width * 0.45))
    return Flat(canvas, tuple(spots))


def felt_slots(rng: np.random.Generator) -> Flat:
    """Slots and grooves cut in an automatic table's felt (where the walls rise): dark, half see-through rectangles
    with a lit lip, one or a few side by side."""
    length = rng.uniform(200, 460)
    count = 1 if rng.random() < 0.6 else int(rng.integers(2, 4))
    slot = rng.uniform(5, 30)
    gap = rng.uniform(10, 50)
    width = count * slot + (count - 1) * gap + 4
    canvas = _canvas(length, width)
    depth = rng.uniform(0.45, 0.85)
    spots = []
    for k in range(count):
        y = 2 + k * (slot + gap)
        _fill(canvas, _rounded(0, y, length, y + slot, slot * rng.uniform(0, 0.5)), (0.0, 0.0, 0.0, depth))
        _fill(canvas, _rounded(0, y + slot - 1.2, length, y + slot, 0), (1.0, 1.0, 1.0, rng.uniform(0.05, 0.25)))
        spots += [_spot(x, y + slot / 2) for x in np.linspace(length * 0.15, length * 0.85, 4)]
    return Flat(canvas, tuple(spots))


def point_sticks(rng: np.random.Generator) -> Flat:
    """A few point sticks (tenbou): thin white sticks with their value's dots, side by side or scattered."""
    count = int(rng.integers(1, 7))
    stick_l, stick_w = rng.uniform(85, 112), rng.uniform(7, 12)
    gap = rng.uniform(1.5, 20)
    canvas = _canvas(stick_l * 1.4, count * (stick_w + gap) + stick_w)
    spots = []
    for k in range(count):
        x0 = rng.uniform(0, stick_l * 0.38)
        y0 = stick_w / 2 + k * (stick_w + gap)
        body = np.clip(rng.uniform(0.88, 0.99) - np.array([0, 0, rng.uniform(0, 0.06)]), 0, 1)
        _fill(canvas, _rounded(x0, y0, x0 + stick_l, y0 + stick_w, stick_w / 2), _colour(body))
        value = rng.choice(["100", "1000", "5000", "10000"])
        cy = y0 + stick_w / 2
        if value == "1000":
            _disc(canvas, x0 + stick_l / 2, cy, stick_w * 0.28, _colour((0.8, 0.1, 0.1)))
        elif value == "100":  # eight small black dots, in two groups of four
            for g in (0.3, 0.7):
                for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
                    _disc(
                        canvas,
                        x0 + stick_l * g + dx * stick_w * 0.18,
                        cy + dy * stick_w * 0.18,
                        stick_w * 0.1,
                        _colour((0.05, 0.05, 0.05)),
                    )
        else:
            ink = (0.8, 0.1, 0.1) if value == "5000" else (0.1, 0.1, 0.1)
            for f in (0.2, 0.35, 0.5, 0.65, 0.8):
                _disc(canvas, x0 + stick_l * f, cy, stick_w * 0.18, _colour(ink))
        spots.append(_spot(x0 + stick_l / 2, cy))
    return Flat(canvas, tuple(spots))


def chips(rng: np.random.Generator) -> Flat:
    """A few chips or coins in a loose cluster: coloured chips with white edge marks, or metal coins."""
    count = int(rng.integers(1, 8))
    d = rng.uniform(20, 40)
    spread = d * rng.uniform(1.2, 3.0)
    canvas = _canvas(spread + d * 1.1, spread + d * 1.1)
    coins = rng.random() < 0.4
    spots = []
    for _ in range(count):
        cx, cy = rng.uniform(d * 0.55, spread + d * 0.55, 2)
        r = d / 2 * rng.uniform(0.9, 1.1)
        if coins:
            metal = np.array((0.8, 0.65, 0.3) if rng.random() < 0.5 else (0.75, 0.75, 0.75)) * rng.uniform(0.7, 1.1)
            _disc(canvas, cx, cy, r, _colour(np.clip(metal * 0.8, 0, 1)))
            _disc(canvas, cx, cy, r * 0.85, _colour(np.clip(metal, 0, 1)))
            if rng.random() < 0.3:  # a holed coin
                _disc(canvas, cx, cy, r * 0.18, _colour(metal * 0.3))
        else:
            colour = rng.uniform(0.1, 0.9, 3)
            _disc(canvas, cx, cy, r, _colour(colour))
            for a in np.linspace(0, 2 * math.pi, 8, endpoint=False) + rng.uniform(0, 1):
                _disc(canvas, cx + r * 0.82 * math.cos(a), cy + r * 0.82 * math.sin(a), r * 0.12, _colour((0.95,) * 3))
            _disc(canvas, cx, cy, r * 0.62, _colour(np.clip(colour * 1.15, 0, 1)))
        spots.append(_spot(cx, cy))
    return Flat(canvas, tuple(spots))


def hand(rng: np.random.Generator) -> Flat:
    """A hand seen from above, flat on the table or hovering: a palm, four fingers and a thumb, a sleeve's cuff."""
    skin = np.array([rng.uniform(0.55, 0.95), rng.uniform(0.38, 0.75), rng.uniform(0.28, 0.6)])
    palm_w, palm_l = rng.uniform(70, 95), rng.uniform(85, 110)
    finger_l, finger_w = rng.uniform(55, 85), palm_w / 4 * rng.uniform(0.8, 0.95)
    sleeve_l = rng.uniform(60, 220)
    w, h = palm_w * 2.0, finger_l + palm_l + sleeve_l + 10
    canvas = _canvas(w, h)
    cx = w / 2
    top = 5 + finger_l
    skin_rgba = _colour(skin)
    for k in range(4):  # the fingers, the middle ones longest, spread a little
        fx = cx + (k - 1.5) * palm_w / 4
        length = finger_l * (0.8, 0.97, 1.0, 0.75)[k] * rng.uniform(0.92, 1.05)
        tilt = (k - 1.5) * rng.uniform(0, 6)
        _fill(
            canvas,
            _rounded(fx - finger_w / 2 + tilt, top - length, fx + finger_w / 2, top + 10, finger_w / 2),
            skin_rgba,
        )
        _fill(
            canvas,
            _rounded(
                fx - finger_w * 0.3 + tilt,
                top - length + 2,
                fx + finger_w * 0.3 + tilt * 0.8,
                top - length + finger_w * 0.6,
                finger_w * 0.3,
            ),
            _colour(np.clip(skin * 1.1, 0, 1)),
        )
    _fill(canvas, _rounded(cx - palm_w / 2, top, cx + palm_w / 2, top + palm_l, palm_w * 0.35), skin_rgba)
    side = 1 if rng.random() < 0.5 else -1  # the thumb, out to one side
    tx = cx + side * palm_w * 0.5
    thumb = np.array(
        [
            [tx - 9, top + palm_l * 0.8],
            [tx + 9, top + palm_l * 0.8],
            [tx + side * 30 + 8, top + palm_l * 0.15],
            [tx + side * 30 - 8, top + palm_l * 0.15],
        ]
    )
    _fill(canvas, thumb, skin_rgba)
    _disc(canvas, tx + side * 30, top + palm_l * 0.15, 8.5, skin_rgba)
    cloth = rng.uniform(0.05, 0.9, 3)
    cuff = top + palm_l * 0.85
    _fill(canvas, _rounded(cx - palm_w * 0.62, cuff, cx + palm_w * 0.62, h, 6), _colour(cloth))
    weave = canvas[round(cuff * PX_PER_MM) :, ..., :3]
    weave *= 0.85 + 0.3 * rng.random(weave.shape[:2])[..., None].astype(np.float32) * (weave.sum(-1) > 0)[..., None]
    return Flat(canvas, (_spot(cx, top + palm_l / 2), _spot(cx, top - finger_l / 2)))


_FLAT_PICTURES = {
    "keyboard": keyboard,
    "paper": paper,
    "phone": phone,
    "table_panel": table_panel,
    "table_rim": table_rim,
    "felt_slots": felt_slots,
    "point_sticks": point_sticks,
    "chips": chips,
    "hand": hand,
}


def flat_picture(kind: str, rng: np.random.Generator) -> Flat:
    """The picture of a thing of ``kind`` seen from straight above (solid kinds: their top face)."""
    if kind in _FLAT_PICTURES:
        return _FLAT_PICTURES[kind](rng)
    if kind == "white_box":
        return _box_top(rng, rng.uniform(60, 220), rng.uniform(40, 160), _grey(rng, 0.84, 0.98, 0.02))
    if kind == "cup":
        r = rng.uniform(35, 48)
        canvas = _canvas(2 * r + 2, 2 * r + 2)
        body = _grey(rng, 0.85, 0.98, 0.02) if rng.random() < 0.7 else rng.uniform(0.1, 0.9, 3)
        _disc(canvas, r + 1, r + 1, r, _colour(body))
        _disc(canvas, r + 1, r + 1, r * 0.86, _colour(_cup_inside(rng, body)))
        return Flat(canvas, (_spot(r + 1, r + 1),))
    if kind == "dice":
        side = rng.uniform(12, 18)
        canvas = _canvas(side, side)
        _fill(canvas, _rounded(0, 0, side, side, side * 0.15), _colour(_grey(rng, 0.85, 0.98)))
        _pips(canvas, int(rng.integers(1, 7)), 0, 0, side)
        return Flat(canvas, (_spot(side / 2, side / 2),))
    raise ValueError(f"unknown distractor kind {kind!r}; one of {DISTRACTOR_KINDS}")


def _box_top(rng: np.random.Generator, w: float, d: float, rgb) -> Flat:
    canvas = _canvas(w, d)
    _fill(canvas, _rounded(0, 0, w, d, rng.uniform(0, 3)), _colour(rgb))
    if rng.random() < 0.3:  # a little print: a label or a logo
        x, y = rng.uniform(0.1, 0.6) * w, rng.uniform(0.1, 0.6) * d
        _fill(canvas, _rounded(x, y, x + w * 0.25, y + d * 0.12, 1), _colour(rng.uniform(0, 1, 3)))
    return Flat(canvas, (_spot(w / 2, d / 2), _spot(w / 4, d / 2), _spot(3 * w / 4, d / 2)))


def _cup_inside(rng: np.random.Generator, body) -> np.ndarray:
    liquids = ((0.2, 0.1, 0.04), (0.45, 0.28, 0.1), (0.55, 0.45, 0.15), (0.6, 0.45, 0.3))
    if rng.random() < 0.6:
        return np.asarray(liquids[int(rng.integers(len(liquids)))]) * rng.uniform(0.8, 1.1)
    return np.asarray(body) * rng.uniform(0.55, 0.8)  # empty: the inside in its own shadow


# --- seen through the camera ----------------------------------------------------------------------------------------


def _rectangle(centre, yaw: float, w: float, h: float, z: float) -> np.ndarray:
    """World corners (4 x 3) of a w x h mm rectangle at height z, in a picture's order: top-left, top-right,
    bottom-right, bottom-left."""
    c, s = math.cos(yaw), math.sin(yaw)
    local = np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2], [-w / 2, -h / 2]])
    return np.c_[
        centre[0] + local[:, 0] * c - local[:, 1] * s, centre[1] + local[:, 0] * s + local[:, 1] * c, np.full(4, z)
    ]


def _in_sight(uv: np.ndarray, z: np.ndarray) -> bool:
    return bool((z > 1).all() and np.isfinite(uv).all() and np.abs(uv).max() < 1e6)


def lay_flat(image: np.ndarray, cam: Camera, flat: Flat, corners: np.ndarray, cover: np.ndarray, shade=1.0) -> bool:
    """Warp ``flat`` onto the world quad ``corners`` (:func:`_rectangle`'s order) in ``image`` (float RGB, in
    place), marking the pixels it covers in ``cover`` (uint8, 1); False when it is behind the camera or out of view."""
    uv, z = cam.project(corners)
    if not _in_sight(uv, z):
        return False
    h, w = image.shape[:2]
    x0, y0 = np.floor(uv.min(axis=0)).astype(int)
    x1, y1 = np.ceil(uv.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return False
    rgba = flat.rgba
    # shrink the picture first to about the size it is drawn at: warping alone would alias keys' letters and pips
    reach = max(np.linalg.norm(uv[1] - uv[0]), np.linalg.norm(uv[2] - uv[3])) / rgba.shape[1]
    reach = max(reach, max(np.linalg.norm(uv[3] - uv[0]), np.linalg.norm(uv[2] - uv[1])) / rgba.shape[0])
    if reach < 0.5:
        f = max(reach * 1.5, 2.0 / min(rgba.shape[:2]))
        rgba = cv2.resize(rgba, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    th, tw = rgba.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    m = cv2.getPerspectiveTransform(src, (uv - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(rgba, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = np.clip(warped[..., 3:], 0, 1)
    roi = image[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha) + np.clip(warped[..., :3] * shade, 0, 1) * alpha
    cover[y0:y1, x0:x1] |= (alpha[..., 0] > 0.3).astype(np.uint8)
    return True


def _fill_world(image: np.ndarray, cam: Camera, pts: np.ndarray, rgb, cover: np.ndarray) -> None:
    uv, z = cam.project(pts)
    if not _in_sight(uv, z):
        return
    hull = cv2.convexHull(np.round(uv * 16).astype(np.int32))
    cv2.fillConvexPoly(image, hull, tuple(float(v) for v in rgb), cv2.LINE_AA, shift=4)
    cv2.fillConvexPoly(cover, hull, 1, cv2.LINE_8, shift=4)


def _drop_shadow(image: np.ndarray, cam: Camera, base: np.ndarray, height: float, rng: np.random.Generator) -> None:
    """A soft shadow of a solid on the table, cast away from a lamp above."""
    a = rng.uniform(0, 2 * math.pi)
    reach = height * rng.uniform(0.2, 0.8)
    moved = base + np.array([math.cos(a) * reach, math.sin(a) * reach, 0.0])
    uv, z = cam.project(np.r_[base, moved])
    if not _in_sight(uv, z):
        return
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(uv * 4).astype(np.int32)), 1.0, cv2.LINE_8, shift=2)
    if mask.any():
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1.5, 5.0))
        image *= (1 - rng.uniform(0.2, 0.5) * mask)[..., None]


def _solid_box(rng, image, cam, centre, yaw, w, d, h, top: Flat, sides_rgb, cover) -> None:
    """A box standing on the table: its sides lit by a lamp above, its top the picture ``top``."""
    base = _rectangle(centre, yaw, w, d, 0.0)
    lid = _rectangle(centre, yaw, w, d, h)
    _drop_shadow(image, cam, base, h, rng)
    light = np.array([*rng.normal(0, 0.5, 2), 1.0])
    light /= np.linalg.norm(light)
    for k in range(4):
        a, b = k, (k + 1) % 4
        face = np.array([lid[a], lid[b], base[b], base[a]])
        mid = face.mean(axis=0)
        normal = np.cross(lid[b] - lid[a], base[a] - lid[a])
        normal /= np.linalg.norm(normal)
        if normal @ (mid - np.array([*centre, mid[2]])) < 0:
            normal = -normal
        if normal @ (cam.pos - mid) <= 0:
            continue
        shade = 0.55 + 0.35 * max(0.0, float(normal @ light))
        _fill_world(image, cam, face, np.clip(np.asarray(sides_rgb) * shade, 0, 1), cover)
    if cam.pos[2] > h:
        lay_flat(image, cam, top, lid, cover, shade=0.95 + 0.1 * float(light[2]))


def _circle(centre, r: float, z: float, n: int = 36) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.c_[centre[0] + r * np.cos(a), centre[1] + r * np.sin(a), np.full(n, z)]


def _cup(rng, image, cam, centre, cover) -> None:
    """A mug: a slightly tapered cylinder with a handle, its rim and what is inside seen from above or aslant."""
    r, h = rng.uniform(33, 46), rng.uniform(70, 105)
    body = _grey(rng, 0.85, 0.98, 0.02) if rng.random() < 0.7 else rng.uniform(0.1, 0.9, 3)
    bottom, top = _circle(centre, r * rng.uniform(0.8, 0.95), 0.0), _circle(centre, r, h)
    _drop_shadow(image, cam, bottom, h, rng)
    a = rng.uniform(0, 2 * math.pi)
    arc = np.linspace(-math.pi / 2, math.pi / 2, 9)
    out = r + 6 + 16 * np.cos(arc)
    handle = np.c_[centre[0] + out * math.cos(a), centre[1] + out * math.sin(a), h * 0.5 + h * 0.3 * np.sin(arc)]
    beyond = (cam.pos[:2] - np.asarray(centre)) @ np.array([math.cos(a), math.sin(a)]) < 0

    def draw_handle() -> None:
        uv, z = cam.project(handle)
        if _in_sight(uv, z):
            mm = np.linalg.norm(uv[4] - cam.project(handle[4:5] + np.array([0, 0, 8.0]))[0][0]) / 8
            pts = np.round(uv * 16).astype(np.int32).reshape(-1, 1, 2)
            width = max(1, round(mm * 7))
            cv2.polylines(image, [pts], False, tuple(float(v) * 0.85 for v in body), width, cv2.LINE_AA, shift=4)
            cv2.polylines(cover, [pts], False, 1, width, cv2.LINE_8, shift=4)

    if beyond:
        draw_handle()
    _fill_world(image, cam, np.r_[bottom, top], np.asarray(body) * rng.uniform(0.7, 0.9), cover)
    if not beyond:
        draw_handle()
    if cam.pos[2] > h:
        _fill_world(image, cam, top, np.clip(np.asarray(body) * 1.05, 0, 1), cover)
        _fill_world(image, cam, _circle(centre, r * 0.86, h), _cup_inside(rng, body), cover)


def draw_object(
    kind: str, rng: np.random.Generator, image: np.ndarray, cam: Camera, centre, yaw: float, z: float | None = None
) -> np.ndarray:
    """Draw one thing of ``kind`` (:data:`DISTRACTOR_KINDS`) centred on the table point ``centre`` (x, y mm), turned
    by ``yaw``, into ``image`` (float32 RGB, in place); returns the pixels it covers (uint8 mask, 1). ``z``: the
    height a flat thing lies at (default: its own, a hand's a little above the tiles)."""
    cover = np.zeros(image.shape[:2], np.uint8)
    if kind == "white_box":
        w, d, h = rng.uniform(50, 200), rng.uniform(40, 150), rng.uniform(20, 110)
        rgb = _grey(rng, 0.84, 0.98, 0.02)
        _solid_box(rng, image, cam, centre, yaw, w, d, h, _box_top(rng, w, d, rgb), rgb, cover)
    elif kind == "dice":
        for _ in range(int(rng.integers(1, 3))):
            top = flat_picture("dice", rng)
            side = top.size_mm[0]
            at = np.asarray(centre) + rng.normal(0, side, 2)
            _solid_box(rng, image, cam, at, yaw + rng.uniform(0, 1.5), side, side, side, top, (0.85, 0.85, 0.82), cover)
    elif kind == "cup":
        _cup(rng, image, cam, centre, cover)
    elif kind in _FLAT_PICTURES:
        flat = _FLAT_PICTURES[kind](rng)
        height = {"hand": rng.uniform(22, 45), "phone": 8.0, "table_panel": 4.0}.get(kind, 0.5) if z is None else z
        w, h = flat.size_mm
        if kind == "phone":  # a slab: its shadow is its own outline (chips' picture is their loose cluster's square)
            _drop_shadow(image, cam, _rectangle(centre, yaw, w, h, 0.0), height + 4, rng)
        lay_flat(image, cam, flat, _rectangle(centre, yaw, w, h, height), cover, rng.uniform(0.85, 1.1))
    else:
        raise ValueError(f"unknown distractor kind {kind!r}; one of {DISTRACTOR_KINDS}")
    return cover


def table_point(rng: np.random.Generator, cam: Camera, spread: float = 1.0) -> tuple[float, float] | None:
    """A point of the table (x, y mm) seen at a random pixel of the frame (``spread``: of the frame about its centre,
    1 the whole frame); None when that pixel's ray misses the table."""
    u, v = (0.5 + (rng.random(2) - 0.5) * spread) * (cam.width, cam.height)
    ray = cam.rot.T @ np.array([(u - cam.cx) / cam.fx, (v - cam.cy) / cam.fy, 1.0])
    if ray[2] > -1e-3:
        return None
    t = -cam.pos[2] / ray[2]
    if t > 20 * cam.pos[2] + 3000:  # near the horizon: too far off to draw at any size
        return None
    return float(cam.pos[0] + t * ray[0]), float(cam.pos[1] + t * ray[1])


def tile_footprint(cam: Camera, corners: list[np.ndarray], shape: tuple[int, int], margin: int = 3) -> np.ndarray:
    """The pixels (uint8 mask, 1) the tiles' bodies cover, grown by ``margin``: where a solid thing must not go."""
    mask = np.zeros(shape, np.uint8)
    for pts in corners:
        uv, z = cam.project(pts)
        if _in_sight(uv, z):
            cv2.fillConvexPoly(mask, cv2.convexHull(np.round(uv).astype(np.int32)), 1)
    if margin:
        mask = cv2.dilate(mask, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    return mask


#: How a scene's distractors are chosen: a laptop and what lies around it, an automatic table's features, or things
#: anywhere on the table (weights).
SETTINGS = {"laptop": 0.3, "automatic_table": 0.35, "clutter": 0.35}


def _plan(rng: np.random.Generator) -> list[str]:
    setting = rng.choice(list(SETTINGS), p=list(SETTINGS.values()))
    if setting == "laptop":
        extra = rng.choice(["phone", "cup", "paper", "white_box", "keyboard"], int(rng.integers(0, 3)))
        return ["keyboard", *extra]
    if setting == "automatic_table":
        kinds = ["table_panel", "table_rim", "felt_slots"]
        extra = rng.choice(["felt_slots", "point_sticks", "chips", "dice", "point_sticks"], int(rng.integers(1, 4)))
        return [*kinds, *extra]
    return list(rng.choice(ON_TABLE_KINDS, int(rng.integers(2, 6))))


def draw_on_table(
    rng: np.random.Generator, image: np.ndarray, cam: Camera, tiles: np.ndarray, tries: int = 8
) -> tuple[str, ...]:
    """Lay several things that are not tiles on the table (before the tiles are drawn: ``image`` float32 RGB, in
    place); those that stand up are kept off ``tiles`` (:func:`tile_footprint`). Returns the kinds drawn, in order."""
    drawn = []
    for kind in _plan(rng):
        for _ in range(tries):
            if kind == "table_panel" and rng.random() < 0.7:  # at the table's centre, squared to it
                centre, yaw = (float(rng.normal(0, 10)), float(rng.normal(0, 10))), float(rng.normal(0, 0.03))
            else:
                centre = table_point(rng, cam, 0.9 if kind == "keyboard" else 1.2)
                yaw = float(rng.uniform(0, math.pi))
                if kind in ("table_rim", "felt_slots") and rng.random() < 0.7:  # along the table's sides
                    yaw = float(rng.integers(4) * math.pi / 2 + rng.normal(0, 0.02))
            if centre is None:
                continue
            trial = image.copy()
            cover = draw_object(kind, rng, trial, cam, centre, yaw)
            if not cover.any() or (kind in _KEPT_OFF_TILES and (cover & tiles).any()):
                continue
            image[:] = trial
            drawn.append(str(kind))
            break
    return tuple(drawn)


def draw_hands(rng: np.random.Generator, image: np.ndarray, ids: np.ndarray, cam: Camera) -> tuple[str, ...]:
    """Hands over the table, after the tiles (``image`` float32 RGB, in place): their pixels are marked -2 in ``ids``
    as :func:`vision.synth.scene.overlays` marks its arms, so a tile they hide loses its label as any occluded one
    does. Returns the kinds drawn."""
    drawn = []
    for _ in range(int(rng.integers(1, 3))):
        centre = table_point(rng, cam, 1.1)
        if centre is None:
            continue
        cover = draw_object("hand", rng, image, cam, centre, float(rng.uniform(0, 2 * math.pi)))
        if cover.any():
            ids[cover > 0] = -2
            drawn.append("hand")
    return tuple(drawn)
