"""Red fives (赤ドラ, aka dora) checked by the colour of their ink, not only by the networks' reading of shape.

No real labelled red five exists in our photos, so the networks tell 0m from 5m from renders alone; a wrong red
five changes a score by one han. This check looks at the crop of a tile already read as a five and measures how
much of its ink is strongly red where a plain five draws in other colours, suit by suit, because a plain five is not
free of red in most sets (:func:`check_red_five`). Where it is unsure, the networks' answer stands.

Pure numpy/OpenCV: no drawing, no I/O. ``check_red_five(crop, read)`` gives a :class:`RedFiveCheck` whose
``tile(read)`` is the five to keep (an example in its docstring).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from engine.tiles import FIVE_KINDS, Suit, Tile


class Verdict(Enum):
    """What the colour of a five's ink says."""

    RED = "red"
    PLAIN = "plain"
    UNSURE = "unsure"  # the evidence is weak: keep the network's answer


@dataclass(frozen=True, slots=True)
class RedFiveOptions:
    """The check's thresholds (shares are of ink pixels; colours after white balance, HSV with V and S in 0..1)."""

    #: Plain when the red-or-warm share of the ink where a plain five has no red is at most this.
    plain_at_most: float = 0.2
    #: Red when the red share of the ink is at least this in every region where a plain five has no red.
    red_at_least: float = 0.5
    #: Crops with a shorter side (pixels) are too small to tell colours apart: strokes blur into the face.
    min_side: int = 16
    #: Ink pixels a region needs before its red share counts (and at least this share of the region's pixels).
    min_ink: int = 6
    min_ink_share: float = 0.03
    #: Below this share of coloured ink (any hue, saturation and value as for red) the image shows no colour at all
    #: (a grey image, a washed-out crop): even a plain five's coloured 萬 / centre element is missing, so colour
    #: cannot decide.
    min_colour_share: float = 0.04
    #: A face darker than this (V of its median colour) gives no usable colours.
    min_face_value: float = 0.22
    #: The face: saturation at most this once white-balanced by the face's colour.
    face_saturation: float = 0.15
    #: Ink: clearly darker than the face (V below the face's by this, at the face level 0.9), or clearly saturated.
    ink_darker_by: float = 0.22
    ink_saturation: float = 0.3
    #: Strongly red: hue from ``360 - red_hue_magenta`` round to ``red_hue_orange`` degrees (crimson and pinkish reds
    #: count; orange, the colour of the plain five's 萬 in some sets, does not), saturation and value at least these.
    red_hue_orange: float = 22.0
    red_hue_magenta: float = 60.0
    #: A plain five's numeral / outer elements must not be even warm (red to orange-yellow: hue up to this): a red
    #: five whose red came out orange under some light is then unsure, not plain.
    warm_hue: float = 50.0
    #: Red, warm and "coloured" ink need this saturation and value (0.3: the red of real photos' centre pins, seen
    #: under a cast, is rarely more saturated; chosen on the real training split, checked on the held-out one).
    red_saturation: float = 0.3
    red_value: float = 0.22


DEFAULT_OPTIONS = RedFiveOptions()

#: Share of the crop's height and width trimmed on each side before the face is looked for: the crop's margin (the
#: classifier's crops add 8 % of the box on each side) shows the table and the neighbours.
TRIM = 0.08

#: The value the face's colour is scaled to by the white balance.
FACE_LEVEL = 0.9


@dataclass(frozen=True, slots=True)
class RedFiveCheck:
    """The verdict on one five, with the figures it rests on (so a result explains itself).

    ``key_share``: the figure the verdict rests on: for red, the red share of the ink in the least red region where a
    plain five has no red; for plain (and unsure), the red-or-warm share in the numeral's half (5m) or the median
    corner (5p / 5s); None when it could not be measured. ``red_share``: red share of all the ink on the face.
    """

    verdict: Verdict
    key_share: float | None
    red_share: float | None
    ink_pixels: int
    reason: str

    @property
    def sure(self) -> bool:
        return self.verdict is not Verdict.UNSURE

    def tile(self, read: Tile) -> Tile:
        """The five ``read`` (by a network) with its red flag as this check decides; ``read`` itself when unsure."""
        if self.verdict is Verdict.UNSURE:
            return read
        return Tile(read.kind, red=self.verdict is Verdict.RED)

    def __str__(self) -> str:
        return f"{self.verdict.value}: {self.reason}"


def is_five(tile: Tile | None) -> bool:
    """Whether a tile is a five that may be red (5m 5p 5s, plain or red)."""
    return tile is not None and tile.kind in FIVE_KINDS


def _unsure(reason: str, ink: int = 0, key: float | None = None, red: float | None = None) -> RedFiveCheck:
    return RedFiveCheck(Verdict.UNSURE, key, red, ink, reason)


def _hsv(rgb: np.ndarray) -> np.ndarray:
    """float RGB 0..1 -> HSV with H in degrees 0..360, S and V in 0..1."""
    return cv2.cvtColor(np.ascontiguousarray(np.clip(rgb, 0, 1), dtype=np.float32), cv2.COLOR_RGB2HSV)


def _face_colour(rgb: np.ndarray, hsv: np.ndarray) -> np.ndarray:
    """The face's colour: the median of the light, unsaturated pixels (ink is darker or more saturated; the table
    and the tile's sides at a crop's edges are darker or coloured)."""
    v, s = hsv[..., 2], hsv[..., 1]
    light = v >= np.quantile(v, 0.5)
    face = light & (s <= np.quantile(s[light], 0.6))
    return np.median(rgb[face], axis=0)


def _face_extent(face: np.ndarray, share: float = 0.25) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the rows and columns in which the face makes at least ``share``: the tile's
    face without the table around it. None when nothing qualifies."""
    rows = np.flatnonzero(face.mean(axis=1) >= share)
    cols = np.flatnonzero(face.mean(axis=0) >= share)
    if rows.size < 2 or cols.size < 2:
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def inside_of(mask: np.ndarray) -> np.ndarray:
    """Pixels with some ``mask`` pixel to their left, right, above and below: within the face, so not the table,
    the tile's sides or the strip of its back beyond it."""
    m = mask.astype(np.int32)
    left, up = np.cumsum(m, axis=1) > 0, np.cumsum(m, axis=0) > 0
    right, down = np.cumsum(m[:, ::-1], axis=1)[:, ::-1] > 0, np.cumsum(m[::-1], axis=0)[::-1] > 0
    return left & right & up & down


def _extent(mask: np.ndarray, low: float = 0.02, high: float = 0.98) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) holding all but the outermost few per cent of ``mask``'s pixels; None if empty."""
    ys, xs = np.nonzero(mask)
    if ys.size < 2:
        return None
    (top, bottom), (left, right) = np.quantile(ys, [low, high]), np.quantile(xs, [low, high])
    return int(top), int(np.ceil(bottom)) + 1, int(left), int(np.ceil(right)) + 1


def _share(red: np.ndarray, ink: np.ndarray, options: RedFiveOptions) -> float | None:
    """Red share of the ink in one region; None when the region holds too little ink."""
    n = int(ink.sum())
    if n < options.min_ink or n < options.min_ink_share * ink.size:
        return None
    return float((red & ink).sum()) / n


def _regions(suit: Suit, h: int, w: int) -> tuple[str, list[tuple[slice, slice]]]:
    """Where a plain five of ``suit`` draws without red, in the drawing's pixels: (name, regions). For 5m the first
    two regions (top and bottom half) are where the numeral may lie: the crop is upright or upside down."""
    if suit is Suit.MAN:
        top, bottom = (slice(0, h // 2), slice(0, w)), (slice(h - h // 2, h), slice(0, w))
        left, right = (slice(0, h), slice(0, w // 2)), (slice(0, h), slice(w - w // 2, w))
        return "halves", [top, bottom, left, right]
    ch, cw = round(0.4 * h), round(0.4 * w)
    corners = [(slice(0, ch), slice(0, cw)), (slice(0, ch), slice(w - cw, w))]
    corners += [(slice(h - ch, h), slice(0, cw)), (slice(h - ch, h), slice(w - cw, w))]
    return ("outer pins" if suit is Suit.PIN else "outer sticks"), corners


def _plain_figure(suit: Suit, shares: list[float | None]) -> float | None:
    """The red-or-warm share where a plain five leaves red out: the less of top and bottom half for 5m (its
    numeral's half), the median corner for 5p / 5s (so a red index "5" in one corner does not count)."""
    if suit is Suit.MAN:
        ends = [x for x in shares[:2] if x is not None]
        return min(ends) if len(ends) == 2 else None
    measured = [x for x in shares if x is not None]
    return float(np.median(measured)) if len(measured) >= 3 else None


def _red_figure(shares: list[float | None]) -> float | None:
    """The red share of the least red region (each half of 5m, each corner): a red five is red in every one, so a
    neighbouring tile's ink that shows in one region, or a tile turned a quarter in its crop, is never taken for red."""
    measured = [x for x in shares if x is not None]
    return min(measured) if len(measured) == len(shares) else None


def check_red_five(crop: np.ndarray, read: Tile, options: RedFiveOptions = DEFAULT_OPTIONS) -> RedFiveCheck:
    """Whether the five in ``crop`` (BGR uint8, upright or upside down, with a little margin) is red, by its ink.

    ``read`` is the five the networks read (5m 5p 5s or 0m 0p 0s): it gives the suit. Raises ValueError for a crop
    that is not a BGR image and for a tile that is no five.

    - 5m: the 萬 is red on a plain tile too; only the numeral (伍 / 五) is black or blue. Plain: the numeral's half (the
      less red of top and bottom half: the crop is upright or upside down) holds (almost) no red or warm ink. Red: every
      half (top, bottom, left, right) is mostly red.
    - 5p / 5s: the centre pin / stick is red on a plain tile; the four outer ones are blue, green or black. Plain: the
      median corner holds (almost) no red or warm ink (so a red index "5" printed in one corner does not count). Red:
      every corner is mostly red.

    Red must be red everywhere and plain must be plain where it counts, so a neighbouring tile's ink showing in one
    region, or a tile lying a quarter turned in its crop, leaves the check unsure rather than wrong. Colours are
    measured after white balance by the tile's own face (the median colour of its light, dull pixels is made neutral),
    in HSV. When the evidence is weak (a tiny crop, a dark face, a grey or washed-out image, too little ink, figures
    between the margins) the verdict is :attr:`Verdict.UNSURE` and the network's answer stands. The verdict carries the
    figure it rests on and a sentence saying why.

    >>> face = np.full((80, 60, 3), 235, np.uint8)
    >>> plain, red = face.copy(), face.copy()
    >>> for img, numeral in ((plain, (30, 30, 30)), (red, (40, 40, 210))):   # BGR
    ...     img[10:35, 15:45] = numeral          # the numeral, top half
    ...     img[45:70, 15:45] = (40, 40, 210)    # the red 萬, bottom half
    >>> check_red_five(plain, Tile.parse("5m")).verdict, check_red_five(red, Tile.parse("5m")).verdict
    (<Verdict.PLAIN: 'plain'>, <Verdict.RED: 'red'>)
    >>> check_red_five(red, Tile.parse("5m")).tile(Tile.parse("5m"))
    Tile.parse('0m')
    """
    if crop.ndim != 3 or crop.shape[2] != 3 or crop.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 crop (h, w, 3), got {crop.dtype} {crop.shape}")
    if not is_five(read):
        raise ValueError(f"only a five can be checked for red, not {read}")
    h, w = crop.shape[:2]
    if min(h, w) < max(options.min_side, 1):  # an empty crop is too small whatever the options say
        return _unsure(f"crop {h}x{w} (h x w) is under {max(options.min_side, 1)} px: too small for colours")
    ty, tx = round(TRIM * h), round(TRIM * w)
    rgb = crop[ty : h - ty, tx : w - tx, ::-1].astype(np.float32) / 255.0
    face_rgb = _face_colour(rgb, _hsv(rgb))
    if float(face_rgb.max()) < options.min_face_value:
        return _unsure(f"the face is too dark to judge colours (V {float(face_rgb.max()):.2f})")
    balanced = rgb * (FACE_LEVEL / np.maximum(face_rgb, 1e-3))  # white balance: the face becomes neutral grey
    hsv = _hsv(balanced)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    # the face: neutral once balanced and not much darker than the reference (the table and the gaps between tiles
    # are coloured or darker); a tile seen from a low angle shows a lit top above its shaded face, both kept
    face = (sat < options.face_saturation) & (val >= 0.5 * FACE_LEVEL)
    extent = _face_extent(face)
    if extent is None:
        return _unsure("no tile face found in the crop")
    top, bottom, left, right = extent
    box = (slice(top, bottom), slice(left, right))
    if not face[box].any():
        return _unsure("no tile face found in the crop")
    face_value = float(np.median(val[box][face[box]]))  # the face's own brightness, where the ink lies
    darker = val < face_value * (1 - options.ink_darker_by / FACE_LEVEL)
    ink = inside_of(face) & ~face & (darker | (sat > options.ink_saturation))
    coloured = (sat >= options.red_saturation) & (val >= options.red_value)
    red = coloured & ((hue <= options.red_hue_orange) | (hue >= 360.0 - options.red_hue_magenta))
    warm = coloured & ((hue <= options.warm_hue) | (hue >= 360.0 - options.red_hue_magenta))
    ink, red, warm, coloured = ink[box], red[box], warm[box], coloured[box]
    drawing = _extent(ink)
    if drawing is None:
        return _unsure("no ink on the face")
    top, bottom, left, right = drawing  # the drawing: its halves or corners are where a plain five has no red
    box = (slice(top, bottom), slice(left, right))
    ink, red, warm, coloured = ink[box], red[box], warm[box], coloured[box]
    n_ink = int(ink.sum())
    red_share, colour_share = _share(red, ink, options), _share(coloured, ink, options)
    if red_share is None or colour_share is None:
        return _unsure(f"too little ink on the face ({n_ink} px)", n_ink)
    if colour_share < options.min_colour_share:
        return _unsure(
            f"no coloured ink ({colour_share:.2f} of the ink): a grey or washed-out image", n_ink, red=red_share
        )
    name, regions = _regions(read.suit, *ink.shape)
    plain = _plain_figure(read.suit, [_share(warm[r, c], ink[r, c], options) for r, c in regions])
    red_figure = _red_figure([_share(red[r, c], ink[r, c], options) for r, c in regions])
    limits = f"plain <= {options.plain_at_most:.2f}, red >= {options.red_at_least:.2f}"
    overall = f"{red_share:.2f} of all the ink red"
    if red_figure is not None and red_figure >= options.red_at_least:
        reason = f"every one of the {name} is red: {red_figure:.2f} of the ink in the least red ({overall}); {limits}"
        return RedFiveCheck(Verdict.RED, red_figure, red_share, n_ink, reason)
    where = "the numeral's half" if read.suit is Suit.MAN else f"the {name} (median corner)"
    if plain is None:
        return _unsure(f"too little ink in the {name}", n_ink, red=red_share)
    if plain <= options.plain_at_most:
        reason = f"{plain:.2f} of the ink in {where} is red or warm ({overall}); {limits}"
        return RedFiveCheck(Verdict.PLAIN, plain, red_share, n_ink, reason)
    least = "n/a" if red_figure is None else f"{red_figure:.2f}"
    reason = f"{plain:.2f} of the ink in {where} is red or warm, {least} red in the least red of the {name}: between"
    reason += f" ({limits})"
    return RedFiveCheck(Verdict.UNSURE, plain, red_share, n_ink, reason)
