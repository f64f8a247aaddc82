"""Red fives (赤ドラ, aka dora) checked by the colour of their ink, not only by the networks' reading of shape.

No real labelled red five exists in our photos, so the networks tell 0m from 5m from renders alone; a wrong red
five changes a score by one han. This check looks at the crop of a tile already read as a five and measures how
much of its ink is strongly red, where a plain five draws in other colours. It must be suit-aware, because a plain
five is not free of red in most sets:

- 5m: the 萬 is red on a plain tile too; only the numeral (伍 / 五) is black or blue. The key figure is the red share
  of the less red half of the face (the numeral's half, whichever way up the tile lies).
- 5p / 5s: the centre pin / stick is red on a plain tile; the four outer ones are blue, green or black. The key
  figure is the red share of the ink in the four corners (the median corner, so a red index numeral "5" printed in
  one corner does not count).

A red five has that figure high (its numeral and outer elements are red), a plain five near zero. Colours are
measured after white balance by the tile's own face (the face's median colour is made neutral), in HSV. When the
evidence is weak (a tiny crop, a dark or grey image, too little ink, no red anywhere, a figure between the margins)
the verdict is :attr:`Verdict.UNSURE` and the network's answer stands.

Pure numpy/OpenCV: no drawing, no I/O.

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

    #: A key figure at or below this is a plain five.
    plain_at_most: float = 0.2
    #: A key figure at or above this is a red five.
    red_at_least: float = 0.5
    #: Crops with a shorter side (pixels) are too small to tell colours apart: strokes blur into the face.
    min_side: int = 16
    #: Ink pixels a region needs before its red share counts (and at least this share of the region's pixels).
    min_ink: int = 12
    min_ink_share: float = 0.03
    #: Below this share of coloured ink (any hue, saturation and value as for red) the image shows no colour at all
    #: (a grey image, a washed-out crop): even a plain five's coloured 萬 / centre element is missing, so colour
    #: cannot decide.
    min_colour_share: float = 0.04
    #: A face darker than this (V of its median colour) gives no usable colours.
    min_face_value: float = 0.22
    #: Ink: clearly darker than the face (V below face by this), or clearly more saturated (S above this).
    ink_darker_by: float = 0.22
    ink_saturation: float = 0.3
    #: Strongly red: hue from ``360 - red_hue_magenta`` round to ``red_hue_orange`` degrees (crimson and pinkish reds
    #: count; orange, the colour of the plain five's 萬 in some sets, does not), saturation and value at least these.
    red_hue_orange: float = 22.0
    red_hue_magenta: float = 60.0
    red_saturation: float = 0.4
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

    ``key_share``: share of red among the ink where a plain five has no red (5m: the numeral's half; 5p / 5s: the
    outer corners), None when it could not be measured. ``red_share``: red share of all the ink on the face.
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


def _share(red: np.ndarray, ink: np.ndarray, options: RedFiveOptions) -> float | None:
    """Red share of the ink in one region; None when the region holds too little ink."""
    n = int(ink.sum())
    if n < options.min_ink or n < options.min_ink_share * ink.size:
        return None
    return float((red & ink).sum()) / n


def _regions(suit: Suit, h: int, w: int) -> tuple[str, list[tuple[slice, slice]]]:
    """Where a plain five of ``suit`` draws without red: (name, regions) in face pixels."""
    if suit is Suit.MAN:  # the numeral's half is found as the less red of the two
        return "the numeral's half", [(slice(0, h // 2), slice(0, w)), (slice(h - h // 2, h), slice(0, w))]
    ch, cw = round(0.4 * h), round(0.4 * w)
    corners = [(slice(0, ch), slice(0, cw)), (slice(0, ch), slice(w - cw, w))]
    corners += [(slice(h - ch, h), slice(0, cw)), (slice(h - ch, h), slice(w - cw, w))]
    return ("the outer pins" if suit is Suit.PIN else "the outer sticks"), corners


def check_red_five(crop: np.ndarray, read: Tile, options: RedFiveOptions = DEFAULT_OPTIONS) -> RedFiveCheck:
    """Whether the five in ``crop`` (BGR uint8, upright or upside down, with a little margin) is red, by its ink.

    ``read`` is the five the networks read (5m 5p 5s or 0m 0p 0s): it gives the suit. Raises ValueError for a crop
    that is not a BGR image and for a tile that is no five.
    """
    if crop.ndim != 3 or crop.shape[2] != 3 or crop.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 crop (h, w, 3), got {crop.dtype} {crop.shape}")
    if not is_five(read):
        raise ValueError(f"only a five can be checked for red, not {read}")
    h, w = crop.shape[:2]
    if min(h, w) < options.min_side:
        return _unsure(f"crop {h}x{w} (h x w) is under {options.min_side} px: too small for colours")
    ty, tx = round(TRIM * h), round(TRIM * w)
    rgb = crop[ty : h - ty, tx : w - tx, ::-1].astype(np.float32) / 255.0
    face_rgb = _face_colour(rgb, _hsv(rgb))
    if float(face_rgb.max()) < options.min_face_value:
        return _unsure(f"the face is too dark to judge colours (V {float(face_rgb.max()):.2f})")
    balanced = rgb * (FACE_LEVEL / np.maximum(face_rgb, 1e-3))  # white balance: the face becomes neutral grey
    hsv = _hsv(balanced)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    extent = _face_extent(np.abs(balanced - FACE_LEVEL).max(axis=2) < 0.12)
    if extent is None:
        return _unsure("no tile face found in the crop")
    top, bottom, left, right = extent  # the face without the table and the neighbours
    ink = (val < FACE_LEVEL - options.ink_darker_by) | (sat > options.ink_saturation)
    coloured = (sat >= options.red_saturation) & (val >= options.red_value)
    red = coloured & ((hue <= options.red_hue_orange) | (hue >= 360.0 - options.red_hue_magenta))
    ink, red, coloured = ink[top:bottom, left:right], red[top:bottom, left:right], coloured[top:bottom, left:right]
    n_ink = int(ink.sum())
    red_share, colour_share = _share(red, ink, options), _share(coloured, ink, options)
    if red_share is None or colour_share is None:
        return _unsure(f"too little ink on the face ({n_ink} px)", n_ink)
    if colour_share < options.min_colour_share:
        return _unsure(
            f"no coloured ink ({colour_share:.2f} of the ink): a grey or washed-out image", n_ink, red=red_share
        )
    name, regions = _regions(read.suit, *ink.shape)
    shares = [s for rows, cols in regions if (s := _share(red[rows, cols], ink[rows, cols], options)) is not None]
    if len(shares) < (2 if read.suit is Suit.MAN else 3):
        return _unsure(f"too little ink in {name}", n_ink, red=red_share)
    key = min(shares) if read.suit is Suit.MAN else float(np.median(shares))
    figures = f"{key:.2f} of the ink in {name} is red ({red_share:.2f} of all the ink)"
    limits = f"plain <= {options.plain_at_most:.2f}, red >= {options.red_at_least:.2f}"
    if key >= options.red_at_least:
        return RedFiveCheck(Verdict.RED, key, red_share, n_ink, f"{figures}; {limits}")
    if key <= options.plain_at_most:
        return RedFiveCheck(Verdict.PLAIN, key, red_share, n_ink, f"{figures}; {limits}")
    return RedFiveCheck(Verdict.UNSURE, key, red_share, n_ink, f"{figures}: between the margins ({limits})")
