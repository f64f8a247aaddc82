"""The real held-out photos as a phone shows them: cut close and enlarged, or tiled into a bigger scene.

The real photos we may test on are 640 x 640 screenshots with tiles of about 40-70 px; a phone photographs a hand
at 4000 x 3000 with tiles anywhere from 1 % to half of the frame. These shots recreate that from the held-out split
(:func:`vision.eval.real_photos.held_out_split`, never trained on): for each photo, a 4:3 window around one of its tiles
in which the tiles' median long side is ``zoom`` of the window's height ("close-ups"), and ``k x k`` mosaics of
photos (tiles small in a big frame), each enlarged (bilinear: no ringing) to ``side`` px on its long side.
Enlarging a 640 px photo adds no detail, so this measures how a reader copes with scale, not the sharpness a real
12 MP photo would add.

A tile cut by the window's edge is neither required nor held against a reader (a box on it is ignored), nor is a
tile the set leaves unlabelled (:data:`vision.eval.real_photos.UNLABELLED`: a box mostly inside such a region is
ignored). Seeded: the same seed gives the same shots.

Those photos are all of one set, the set the detector's real frames come from. :func:`tile_row` builds hands of
another set's tiles: single-tile photos (camerash's Chinese-set close-ups, :func:`camerash_hands`) laid side by
side in a row on a cloth, turned a little and seen a little from the side as a player photographs their hand.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.eval.evaluation import camerash_rows, camerash_tile
from vision.eval.real_photos import RealPhoto
from vision.eval.red_ink import inked_red
from vision.read.detector import Detection, Detector
from vision.read.errors import UnreadableImage
from vision.read.geometry import Box, Size
from vision.read.images import load_image
from vision.read.labels import class_of_tile, tile_of_class
from vision.read.red_fives import is_five
from vision.read.rows import read_tiles

#: Tiles' median long side as a share of the close-up window's height.
ZOOMS = (0.1, 0.2, 0.3, 0.45, 0.6, 0.8)
#: Mosaics of k x k photos.
MOSAICS = (2, 3)
#: Long side of every shot, px (a 12 MP phone photo).
SIDE = 4000
#: Turns of whole photos, degrees counter-clockwise: a hand photographed at a slant, from the side or from across.
TURNS = (15, 30, 45, 60, 75, 180)
#: Light a phone balanced badly, as gains on the photo's channels (B, G, R): a warm lamp, a cool one, a dim room.
LIGHTS = {"warm": (0.55, 0.85, 1.15), "cool": (1.2, 1.0, 0.7), "dim": (0.35, 0.35, 0.35)}
#: Heights the photos are squashed to: tiles seen from a lower angle. The real frames are stretched tall (their
#: boxes 2.4 times as tall as wide); at 0.45 a face is 1.1 as tall as wide, at 0.35 0.85 (a standing hand seen from
#: well above).
SQUASHES = (0.45, 0.35)


@dataclass(frozen=True)
class Shot:
    """One phone-sized image, the tiles it must read (class, box) and what it shows of the tiles its edge cuts."""

    kind: str
    image: np.ndarray
    truth: tuple[tuple[int, Box], ...]
    cut: tuple[Box, ...] = ()
    #: The tiles as their owner reads them (:func:`vision.read.rows.read_tiles` of the truth, upright), where the order
    #: is part of what is measured; None where it is not.
    text: str | None = None
    #: Regions showing tiles the labels leave out (:attr:`vision.eval.real_photos.RealPhoto.unlabelled`), as the shot
    #: shows them: a box mostly inside one is not counted either way.
    unlabelled: tuple[Box, ...] = ()
    #: False for a set that labels no tile backs: a back read on it is counted neither right nor wrong.
    backs_judged: bool = True
    #: True for a set whose labels box a tile's face alone, where a reader boxes the whole tile (its top and sides
    #: too): a box of the right tile holding its label's face whole (:data:`FACE_INSIDE`) is that tile down to an IoU
    #: of :data:`FACE_IOU`.
    face_labels: bool = False


def _boxes(photo: RealPhoto, height: int, width: int) -> list[tuple[int, Box]]:
    return [(b.class_id, Box(*b.xyxy(width, height))) for b in photo.boxes]


def _unlabelled(photo: RealPhoto, height: int, width: int) -> list[Box]:
    return [Box(*r) for r in photo.unlabelled_xyxy(width, height)]


def _clipped(box: Box, width: float, height: float) -> Box | None:
    """What a ``width`` x ``height`` rectangle at the origin shows of ``box``, or None."""
    if box.x2 <= 0 or box.y2 <= 0 or box.x1 >= width or box.y1 >= height:
        return None
    return Box(max(box.x1, 0.0), max(box.y1, 0.0), min(box.x2, float(width)), min(box.y2, float(height)))


def _enlarged(
    image: np.ndarray,
    truth: Sequence[tuple[int, Box]],
    cut: Sequence[Box],
    side: int,
    kind: str,
    unlabelled: Iterable[Box | None] = (),
) -> Shot:
    s = side / max(image.shape[:2])
    big = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR if s > 1 else cv2.INTER_AREA)

    def scaled(b: Box) -> Box:
        return Box(b.x1 * s, b.y1 * s, b.x2 * s, b.y2 * s)

    shown = tuple(scaled(b) for b in unlabelled if b is not None)
    return Shot(kind, big, tuple((c, scaled(b)) for c, b in truth), tuple(scaled(b) for b in cut), unlabelled=shown)


def close_up(photo: RealPhoto, image: np.ndarray, zoom: float, rng: np.random.Generator, side: int = SIDE) -> Shot:
    """A 4:3 window (clamped to the photo) around a random tile of ``photo``, tiles at ``zoom`` of its height."""
    h, w = image.shape[:2]
    boxes = _boxes(photo, h, w)
    if not boxes:
        raise ValueError(f"{photo.image.name}: no labelled tiles to frame")
    tile = float(np.median([max(b.x2 - b.x1, b.y2 - b.y1) for _, b in boxes]))
    wh = min(tile / zoom, h)
    ww = min(wh * 4 / 3, w)
    _, centre = boxes[int(rng.integers(len(boxes)))]
    x0 = int(min(max(round((centre.x1 + centre.x2 - ww) / 2), 0), w - int(ww)))
    y0 = int(min(max(round((centre.y1 + centre.y2 - wh) / 2), 0), h - int(wh)))
    crop = image[y0 : y0 + int(wh), x0 : x0 + int(ww)]
    ch, cw = crop.shape[:2]
    truth, cut = [], []
    for c, b in boxes:
        moved = Box(b.x1 - x0, b.y1 - y0, b.x2 - x0, b.y2 - y0)
        if moved.x1 >= 0 and moved.y1 >= 0 and moved.x2 <= cw and moved.y2 <= ch:
            truth.append((c, moved))
        elif (shown := _clipped(moved, cw, ch)) is not None:  # what the window shows of it
            cut.append(shown)
    unlabelled = [_clipped(Box(b.x1 - x0, b.y1 - y0, b.x2 - x0, b.y2 - y0), cw, ch) for b in _unlabelled(photo, h, w)]
    return _enlarged(crop, truth, cut, side, f"close-up {zoom:g}", unlabelled)


def mosaic(photos: Sequence[RealPhoto], images: Sequence[np.ndarray], k: int, side: int = SIDE) -> Shot:
    """``k x k`` photos (each resized to 640 x 640) side by side."""
    if len(photos) != k * k:
        raise ValueError(f"a {k}x{k} mosaic takes {k * k} photos, not {len(photos)}")
    cell = 640
    canvas = np.zeros((k * cell, k * cell, 3), np.uint8)
    truth, unlabelled = [], []
    for i, (photo, image) in enumerate(zip(photos, images, strict=True)):
        r, c = divmod(i, k)
        canvas[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell] = cv2.resize(image, (cell, cell))
        for cls, b in _boxes(photo, cell, cell):
            truth.append((cls, Box(b.x1 + c * cell, b.y1 + r * cell, b.x2 + c * cell, b.y2 + r * cell)))
        for b in _unlabelled(photo, cell, cell):
            unlabelled.append(Box(b.x1 + c * cell, b.y1 + r * cell, b.x2 + c * cell, b.y2 + r * cell))
    return _enlarged(canvas, truth, [], side, f"mosaic {k}x{k}", unlabelled)


def inscribed(height: int, width: int, degrees: float) -> Size:
    """The largest axis-aligned rectangle, centred, that lies inside a ``height`` x ``width`` image turned by
    ``degrees``: what a camera turned that much sees of the scene without the turned image's corners."""
    a = math.radians(degrees) % math.pi
    if a > math.pi / 2:
        a = math.pi - a
    sin, cos = math.sin(a), math.cos(a)
    long, short = max(width, height), min(width, height)
    if short <= 2 * sin * cos * long or abs(sin - cos) < 1e-10:  # half-constrained: two corners touch the long side
        x = 0.5 * short
        w, h = (x / sin, x / cos) if width >= height else (x / cos, x / sin)
    else:  # fully constrained: each corner touches a side
        cos2 = cos * cos - sin * sin
        w, h = (width * cos - height * sin) / cos2, (height * cos - width * sin) / cos2
    return Size(height=max(1, int(h)), width=max(1, int(w)))


def turned(photo: RealPhoto, image: np.ndarray, degrees: float, side: int = SIDE) -> Shot:
    """``photo`` turned ``degrees`` counter-clockwise about its centre, the largest upright rectangle inside it
    (:func:`inscribed`) kept and enlarged: a phone held at a slant. Each tile's box bounds its turned labelled box;
    a tile the rectangle cuts is ``cut``."""
    h, w = image.shape[:2]
    keep = inscribed(h, w, degrees)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    turn[:, 2] += [(keep.width - w) / 2, (keep.height - h) / 2]  # the kept rectangle's corner at the origin
    warped = cv2.warpAffine(image, turn, (keep.width, keep.height), flags=cv2.INTER_LINEAR)
    return _kept_shot(photo, h, w, warped, lambda b: b.moved(turn), side, f"turned {degrees:g}")


def _kept_shot(photo: RealPhoto, h: int, w: int, warped: np.ndarray, move, side: int, kind: str) -> Shot:
    """The shot of ``warped`` (the ``h`` x ``w`` photo warped, a rectangle of it kept), each labelled box moved by
    ``move``: tiles wholly inside are the truth, tiles its edge cuts are ``cut``."""
    height, width = warped.shape[:2]
    truth, cut = [], []
    for c, b in _boxes(photo, h, w):
        moved = move(b)
        if moved.x1 >= 0 and moved.y1 >= 0 and moved.x2 <= width and moved.y2 <= height:
            truth.append((c, moved))
        elif (shown := _clipped(moved, width, height)) is not None:
            cut.append(shown)
    unlabelled = [_clipped(move(b), width, height) for b in _unlabelled(photo, h, w)]
    return _enlarged(warped, truth, cut, side, kind, unlabelled)


def cast(image: np.ndarray, gains: Sequence[float]) -> np.ndarray:
    """``image`` (BGR uint8) with its channels scaled by ``gains`` (B, G, R), clipped: a light's colour cast."""
    return np.clip(image.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def lit(photo: RealPhoto, image: np.ndarray, light: str, side: int = SIDE) -> Shot:
    """``photo`` enlarged, under one of :data:`LIGHTS` (each channel scaled, clipped)."""
    h, w = image.shape[:2]
    cast_image = cast(image, LIGHTS[light])
    return _enlarged(cast_image, _boxes(photo, h, w), [], side, f"light {light}", _unlabelled(photo, h, w))


def squashed(photo: RealPhoto, image: np.ndarray, height: float, side: int = SIDE) -> Shot:
    """``photo`` squashed to ``height`` of its height, enlarged: its tiles seen from a lower angle."""
    h, w = image.shape[:2]
    warped = cv2.resize(image, (w, max(1, round(h * height))), interpolation=cv2.INTER_AREA)
    truth = [(c, Box(b.x1, b.y1 * height, b.x2, b.y2 * height)) for c, b in _boxes(photo, h, w)]
    unlabelled = [Box(b.x1, b.y1 * height, b.x2, b.y2 * height) for b in _unlabelled(photo, h, w)]
    return _enlarged(warped, truth, [], side, f"squashed {height:g}", unlabelled)


def tilted(photo: RealPhoto, image: np.ndarray, top: float, side: int = SIDE) -> Shot:
    """``photo`` as a phone tilted away from the player sees it: its far (top) edge ``top`` of its near edge's width,
    lines converging as in a camera (a homography: the far tiles smaller and squatter), the largest upright
    rectangle inside it kept and enlarged (nothing beyond the photo is invented). Each tile's box bounds its
    tilted labelled box; a tile the rectangle cuts is ``cut``."""
    if not 0 < top <= 1:
        raise ValueError(f"a tilted photo's far edge is above 0 and at most 1 of its near edge, not {top:g}")
    h, w = image.shape[:2]
    inset = (1 - top) * w / 2
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[inset, 0], [w - inset, 0], [w, h], [0, h]])
    # the kept rectangle: bottom on the near edge, as wide as the trapezoid where its top edge meets the slanted
    # sides; (t + (1 - t) u) (1 - u) is largest at u = (1 - 2t) / (2 (1 - t)), at the far edge when t >= 1/2
    u = max(0.0, (1 - 2 * top) / (2 * (1 - top))) if top < 1 else 0.0
    keep = Size(height=max(1, round(h * (1 - u))), width=max(1, round(w * (top + (1 - top) * u))))
    move = np.array([[1, 0, -(w - keep.width) / 2], [0, 1, -u * h], [0, 0, 1]], np.float64)
    homography = move @ cv2.getPerspectiveTransform(corners, seen)
    warped = cv2.warpPerspective(image, homography, (keep.width, keep.height), flags=cv2.INTER_LINEAR)
    return _kept_shot(photo, h, w, warped, lambda b: b.projected(homography), side, f"tilted {top:g}")


def blurred(photo: RealPhoto, image: np.ndarray, share: float, side: int = SIDE) -> Shot:
    """``photo`` out of focus, enlarged: a Gaussian blur of ``share`` of its tiles' median width (the short side of
    each box), so that the blur is the same to every tile whatever the shot's scale."""
    h, w = image.shape[:2]
    boxes = _boxes(photo, h, w)
    if not boxes:
        raise ValueError(f"{photo.image.name}: no labelled tiles to blur by their width")
    soft = _out_of_focus(image, boxes, share)
    return _enlarged(soft, boxes, [], side, f"blurred {share:g}", _unlabelled(photo, h, w))


def blurred_shot(shot: Shot, share: float) -> Shot:
    """``shot`` out of focus as :func:`blurred` blurs a photo (``share`` of its tiles' median width); same tiles to
    read, its kind named with the blur."""
    if not shot.truth:
        raise ValueError(f"{shot.kind}: no tiles to blur by their width")
    return replace(shot, kind=f"{shot.kind} blurred {share:g}", image=_out_of_focus(shot.image, shot.truth, share))


def _out_of_focus(image: np.ndarray, boxes: Sequence[tuple[int, Box]], share: float) -> np.ndarray:
    """``image`` Gaussian-blurred by ``share`` of the median short side of ``boxes`` (0: as it is)."""
    width = float(np.median([min(b.width, b.height) for _, b in boxes]))
    return cv2.GaussianBlur(image, (0, 0), share * width) if share > 0 else image


def glared_shot(shot: Shot, strength: float, rng: np.random.Generator) -> Shot:
    """``shot`` with a lamp's reflection on glossy tiles: a thin streak of white along the tiles (through their
    median height, across 0.3-0.7 of the shot's width, 0.05-0.12 of a tile's height thick) and a spot on each of
    two tiles, ``strength`` at its centre (1: white), then clipped: the faces washed out there. Same tiles to read;
    its kind named with the strength."""
    if not shot.truth:
        raise ValueError(f"{shot.kind}: no tiles to put a reflection on")
    h, w = shot.image.shape[:2]
    boxes = [b for _, b in shot.truth]
    tile_h = float(np.median([b.height for b in boxes]))
    tile_w = float(np.median([b.width for b in boxes]))
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    y = float(np.median([b.y1 + b.height * rng.uniform(0.15, 0.85) for b in boxes]))
    x0 = rng.uniform(0, 0.5) * w
    x1 = x0 + rng.uniform(0.3, 0.7) * w
    thick = tile_h * rng.uniform(0.05, 0.12)
    ends = np.clip(np.minimum(xs - x0, x1 - xs) / (1.5 * tile_w), 0, 1)  # the streak fades in and out
    light = np.exp(-0.5 * ((ys - y) / thick) ** 2) * ends
    for k in rng.choice(len(boxes), size=min(2, len(boxes)), replace=False):
        b = boxes[int(k)]
        cx, cy, r = rng.uniform(b.x1, b.x2), rng.uniform(b.y1, b.y2), tile_w * rng.uniform(0.12, 0.3)
        light = np.maximum(light, np.exp(-0.5 * (((xs - cx) / r) ** 2 + ((ys - cy) / (0.6 * r)) ** 2)))
    lit_image = shot.image.astype(np.float32) + (255 * strength * light)[..., None]
    return replace(shot, kind=f"{shot.kind} glare {strength:g}", image=np.clip(lit_image, 0, 255).astype(np.uint8))


def glared_hands(shots: Iterable[Shot], strengths: Sequence[float], seed: int = 0) -> Iterator[Shot]:
    """Each of ``shots`` under a lamp's reflection of each of ``strengths`` (:func:`glared_shot`); the reflection
    on shot ``k`` at strength ``j`` depends on ``seed``, ``k`` and ``j`` only."""
    for k, shot in enumerate(shots):
        for j, strength in enumerate(strengths):
            yield glared_shot(shot, strength, np.random.default_rng([seed, 12, k, j]))


def glared(photo: RealPhoto, image: np.ndarray, strength: float, rng: np.random.Generator, side: int = SIDE) -> Shot:
    """The whole of ``photo``, enlarged, with a lamp's reflection on its tiles (:func:`glared_shot`)."""
    h, w = image.shape[:2]
    boxes = _boxes(photo, h, w)
    if not boxes:
        raise ValueError(f"{photo.image.name}: no labelled tiles to put a reflection on")
    whole = _enlarged(image, boxes, [], side, "glare", _unlabelled(photo, h, w))
    return replace(glared_shot(whole, strength, rng), kind=f"glare {strength:g}")


def inked(photo: RealPhoto, image: np.ndarray, rng: np.random.Generator, side: int = SIDE) -> Shot:
    """The whole of ``photo``, enlarged, with every five's ink repainted red (:func:`vision.eval.red_ink.inked_red`):
    each one a red five to read. Raises ValueError for a photo with no five."""
    h, w = image.shape[:2]
    boxes = _boxes(photo, h, w)
    if not any(is_five(tile_of_class(c)) for c, _ in boxes):
        raise ValueError(f"{photo.image.name}: no five to ink red")
    truth = []
    for c, b in boxes:
        if is_five(tile := tile_of_class(c)):
            image = inked_red(image, b, rng)
            c = class_of_tile(Tile(tile.kind, red=True))
        truth.append((c, b))
    return _enlarged(image, truth, [], side, "fives inked red", _unlabelled(photo, h, w))


def phone_shots(
    photos: Sequence[RealPhoto],
    zooms: Iterable[float] = ZOOMS,
    mosaics: Iterable[int] = MOSAICS,
    side: int = SIDE,
    seed: int = 0,
    turns: Iterable[float] = (),
    lights: Iterable[str] = (),
    squashes: Iterable[float] = (),
    blurs: Iterable[float] = (),
    tilts: Iterable[float] = (),
    glares: Iterable[float] = (),
    red: bool = False,
) -> Iterator[Shot]:
    """Every close-up of every photo at each zoom, then the mosaics of consecutive photos, then every photo at
    each of ``turns``, under each of ``lights``, squashed to each of ``squashes``, blurred by each of ``blurs``,
    tilted to each of ``tilts``, then with a lamp's reflection of each of ``glares``, then (``red``) every photo
    showing a five with its fives inked red (lazily: 12 MP each)."""
    photos = [p for p in photos if p.boxes]
    rng = np.random.default_rng(seed)
    for zoom in zooms:
        for photo in photos:
            yield close_up(photo, _load(photo), zoom, rng, side)
    for k in mosaics:
        for start in range(0, len(photos) - k * k + 1, k * k):
            group = photos[start : start + k * k]
            yield mosaic(group, [_load(p) for p in group], k, side)
    for degrees in turns:
        for photo in photos:
            yield turned(photo, _load(photo), degrees, side)
    for light in lights:
        for photo in photos:
            yield lit(photo, _load(photo), light, side)
    for height in squashes:
        for photo in photos:
            yield squashed(photo, _load(photo), height, side)
    for share in blurs:
        for photo in photos:
            yield blurred(photo, _load(photo), share, side)
    for top in tilts:
        for photo in photos:
            yield tilted(photo, _load(photo), top, side)
    for g, strength in enumerate(glares):
        for i, photo in enumerate(photos):
            yield glared(photo, _load(photo), strength, np.random.default_rng([seed, 11, g, i]), side)
    if red:
        for i, photo in enumerate(photos):
            if any(is_five(tile_of_class(b.class_id)) for b in photo.boxes):
                yield inked(photo, _load(photo), np.random.default_rng([seed, 13, i]), side)


#: Tiles' height as a share of a hand shot's height: a whole 14-tile row fits a 4:3 frame up to about 0.12.
HAND_ZOOMS = (0.06, 0.1, 0.16)
#: The size every single-tile photo of a hand is drawn at (camerash's own).
TILE_PHOTO = Size(height=320, width=240)
#: Cloth colours (BGR) a hand of single-tile photos lies on: felt greens, blue, grey, wood.
_CLOTHS = ((60, 110, 40), (45, 80, 25), (120, 70, 30), (80, 80, 78), (40, 75, 120))


def tile_row(tiles: Sequence[tuple[int, np.ndarray]], zoom: float, rng: np.random.Generator, side: int = SIDE) -> Shot:
    """A 4:3 phone shot of ``tiles`` (class, photo of one tile filling it, drawn at :data:`TILE_PHOTO`) side by
    side in one row on a cloth, tiles ``zoom`` of the shot's height tall: the row turned up to 6 degrees and seen
    from its near side (its far edge up to 15 % narrower), sometimes parted into a hand and a meld of three. The row
    is centred; tiles the shot's edge cuts are ``cut``. Each tile's box bounds its corners as they are moved.
    ``text`` is the whole tiles' :func:`owner_text`, so that a hand's order is measured too."""
    if not tiles:
        raise ValueError("a row needs at least one tile")
    th, tw = TILE_PHOTO.height, TILE_PHOTO.width
    gaps = rng.uniform(0.0, 0.03, len(tiles)) * tw  # gaps[k]: between tiles k and k + 1
    if len(tiles) >= 6 and rng.random() < 0.4:  # the last three tiles set apart: a meld
        gaps[len(tiles) - 4] += rng.uniform(0.3, 0.8) * tw
    xs = np.concatenate([[0.0], np.cumsum(tw + gaps[:-1])])
    row_w = xs[-1] + tw
    out_h = round(side * 3 / 4)
    scale = zoom * out_h / th  # shot pixels per tile-photo pixel
    # the row drawn at shot scale straight onto the cloth, then moved by one homography
    cloth = np.array(_CLOTHS[int(rng.integers(len(_CLOTHS)))], np.float32) * rng.uniform(0.8, 1.15)
    canvas = np.empty((out_h, side, 3), np.uint8)
    canvas[:] = np.clip(cloth, 0, 255).astype(np.uint8)
    x0 = side / 2 - row_w * scale / 2
    y0 = out_h / 2 - th * scale / 2
    flat = []
    for (_, photo), x in zip(tiles, xs, strict=True):
        dy = rng.uniform(-0.02, 0.02) * th
        quad = np.array([[x, dy], [x + tw, dy], [x + tw, dy + th], [x, dy + th]], np.float64) * scale + [x0, y0]
        flat.append(quad)
        a, b = np.floor(quad.min(0)).astype(int), np.ceil(quad.max(0)).astype(int)
        lo, hi = np.maximum(a, 0), np.minimum(b, [side, out_h])
        if (hi <= lo).any():
            continue
        big = cv2.resize(photo, (int(b[0] - a[0]), int(b[1] - a[1])), interpolation=cv2.INTER_LINEAR)
        canvas[lo[1] : hi[1], lo[0] : hi[0]] = big[lo[1] - a[1] : hi[1] - a[1], lo[0] - a[0] : hi[0] - a[0]]
    squeeze = rng.uniform(0.0, 0.15) * side / 2  # the far (upper) edge drawn narrower
    src = np.float32([[0, 0], [side, 0], [side, out_h], [0, out_h]])
    dst = np.float32([[squeeze, 0], [side - squeeze, 0], [side, out_h], [0, out_h]])
    narrowed = cv2.getPerspectiveTransform(src, dst)
    turn = np.vstack([cv2.getRotationMatrix2D((side / 2, out_h / 2), rng.uniform(-6, 6), 1.0), [0, 0, 1]])
    move = turn @ narrowed
    image = cv2.warpPerspective(canvas, move, (side, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    truth, cut = [], []
    for (cls, _), quad in zip(tiles, flat, strict=True):
        q = cv2.perspectiveTransform(quad.reshape(1, 4, 2), move).reshape(4, 2)
        box = Box(*(float(v) for v in (*q.min(0), *q.max(0))))
        if box.x1 >= 0 and box.y1 >= 0 and box.x2 <= side and box.y2 <= out_h:
            truth.append((cls, box))
        elif (shown := _clipped(box, side, out_h)) is not None:
            cut.append(shown)
    return Shot(f"other set {zoom:g}", image, tuple(truth), tuple(cut), owner_text(truth))


def owner_text(truth: Iterable[tuple[int, Box]]) -> str:
    """The tiles of ``truth`` (class, box; seen upright) as their owner reads them:
    :func:`vision.read.rows.read_tiles`."""
    return read_tiles([Detection.of_class(c, b, 1.0) for c, b in truth]).text


#: Tiles' height as a share of a loose-tiles shot's height.
LOOSE_ZOOMS = (0.08, 0.14)


def loose_tiles(
    tiles: Sequence[tuple[int, np.ndarray]], zoom: float, rng: np.random.Generator, side: int = SIDE
) -> Shot:
    """A 4:3 phone shot of ``tiles`` (class, photo of one tile filling it) lying loose on a cloth, each turned its
    own way (any angle), ``zoom`` of the shot's height tall, none touching: one to a cell of a grid of the shot,
    placed at random in its cell. Each tile's box bounds its turned photo. Tiles that find no cell are left out."""
    if not tiles:
        raise ValueError("a shot needs at least one tile")
    th, tw = TILE_PHOTO.height, TILE_PHOTO.width
    out_h = round(side * 3 / 4)
    scale = zoom * out_h / th
    diagonal = math.hypot(th, tw) * scale  # a tile turned any way stays inside a circle this wide
    cols, rows = int(side // (diagonal * 1.15)), int(out_h // (diagonal * 1.15))
    if not cols or not rows:
        raise ValueError(f"tiles {zoom:g} of the shot's height do not fit it turned")
    cell_w, cell_h = side / cols, out_h / rows
    cells = rng.permutation(cols * rows)[: len(tiles)]
    cloth = np.array(_CLOTHS[int(rng.integers(len(_CLOTHS)))], np.float32) * rng.uniform(0.8, 1.15)
    image = np.empty((out_h, side, 3), np.uint8)
    image[:] = np.clip(cloth, 0, 255).astype(np.uint8)
    truth = []
    for (cls, photo), cell in zip(tiles, cells, strict=False):
        r, c = divmod(int(cell), cols)
        cx = c * cell_w + diagonal / 2 + rng.uniform(0, cell_w - diagonal)
        cy = r * cell_h + diagonal / 2 + rng.uniform(0, cell_h - diagonal)
        degrees = float(rng.uniform(-180, 180))
        big = cv2.resize(photo, (round(tw * scale), round(th * scale)), interpolation=cv2.INTER_AREA)
        bh, bw = big.shape[:2]
        move = cv2.getRotationMatrix2D((bw / 2, bh / 2), degrees, 1.0)
        move[:, 2] += [cx - bw / 2, cy - bh / 2]
        mask = cv2.warpAffine(np.full((bh, bw), 255, np.uint8), move, (side, out_h), flags=cv2.INTER_LINEAR)
        laid = cv2.warpAffine(big, move, (side, out_h), flags=cv2.INTER_LINEAR)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        image = (laid * alpha + image * (1 - alpha)).astype(np.uint8)
        truth.append((cls, Box(0.0, 0.0, float(bw), float(bh)).moved(move)))
    return Shot(f"loose {zoom:g}", image, tuple(truth))


def camerash_loose(
    shots: int,
    zooms: Iterable[float] = LOOSE_ZOOMS,
    seed: int = 0,
    side: int = SIDE,
    root: str | os.PathLike[str] | None = None,
) -> Iterator[Shot]:
    """``shots`` photos per zoom of 5 to 9 of camerash's single-tile photos lying loose, each turned its own way
    (:func:`loose_tiles`); shot ``k`` of zoom ``z`` depends on ``seed``, ``z`` and ``k`` only."""
    base, pool = _camerash_pool(root)
    for z, zoom in enumerate(zooms):
        for k in range(shots):
            rng = np.random.default_rng([seed, 7, z, k])
            tiles = _camerash_pick(rng, int(rng.integers(5, 10)), base, pool)
            if tiles:
                yield loose_tiles(tiles, zoom, rng, side)


def _camerash_pool(root: str | os.PathLike[str] | None) -> tuple[Path, list[tuple[str, int]]]:
    """camerash's folder and its photos of riichi tiles (file name, class)."""
    base, rows = camerash_rows(root)
    pool = [(name, class_of_tile(t)) for name, label in rows if (t := camerash_tile(label)) is not None]
    if not pool:
        raise FileNotFoundError(f"no camerash photo of a riichi tile under {base}")
    return base, pool


def _camerash_pick(
    rng: np.random.Generator, n: int, base: Path, pool: Sequence[tuple[str, int]], red: bool = False
) -> list[tuple[int, np.ndarray]]:
    """``n`` photos of ``pool`` drawn at random, no photo twice (an unreadable one left out); with ``red``, each
    five's ink repainted red (:func:`vision.eval.red_ink.inked_red`, the photo being its tile), as its red five, the
    draw otherwise the same."""
    tiles = []
    for i in rng.choice(len(pool), size=min(n, len(pool)), replace=False):
        name, cls = pool[int(i)]
        try:
            photo = load_image(base / "tiles-resized" / name)
        except UnreadableImage:
            continue
        if red and is_five(tile := tile_of_class(cls)):
            h, w = photo.shape[:2]
            # seeded by the photo, not by ``rng``: the hand is laid out as it is without red
            photo = inked_red(photo, Box(0.0, 0.0, float(w), float(h)), np.random.default_rng(int(i)))
            cls = class_of_tile(Tile(tile.kind, red=True))
        tiles.append((cls, photo))
    return tiles


def camerash_hands(
    hands: int,
    zooms: Iterable[float] = HAND_ZOOMS,
    seed: int = 0,
    side: int = SIDE,
    root: str | os.PathLike[str] | None = None,
    red: bool = False,
) -> Iterator[Shot]:
    """``hands`` rows of 13 or 14 of camerash's single-tile photos (the 34 kinds riichi shares with that Chinese set,
    drawn at random, no photo twice in a hand) per zoom, as :func:`tile_row` lays them out. Hand ``k`` of zoom ``z``
    depends on ``seed``, ``z`` and ``k`` only; an unreadable photo is left out of its hand. With ``red``, only the
    hands holding a five, each five inked red (:func:`_camerash_pick`): otherwise the same hands."""
    base, pool = _camerash_pool(root)
    for z, zoom in enumerate(zooms):
        for k in range(hands):
            rng = np.random.default_rng([seed, z, k])
            tiles = _camerash_pick(rng, int(rng.integers(13, 15)), base, pool, red)
            if tiles and (not red or any(tile_of_class(c).red for c, _ in tiles)):
                shot = tile_row(tiles, zoom, rng, side)
                yield replace(shot, kind=f"{shot.kind} red fives") if red else shot


def half_turned_hand(shot: Shot) -> Shot:
    """A hand's shot as the player across the table photographs it: turned a half turn, its tiles with it; to be
    read in its owner's order all the same (``text``: :func:`owner_text` of the upright truth)."""
    from vision.read.views.upside_down import half_turn_affine, half_turned

    turn = half_turn_affine(*shot.image.shape[:2])

    def back(b: Box) -> Box:
        return b.moved(turn)

    truth = tuple((c, back(b)) for c, b in shot.truth)
    turned = half_turned(shot.image)
    return Shot(f"{shot.kind} turned 180", turned, truth, tuple(back(b) for b in shot.cut), owner_text(shot.truth))


def _load(photo: RealPhoto) -> np.ndarray:
    return load_image(photo.image)


@dataclass
class Tally:
    """Tiles read right (class and IoU >= 0.5), boxes reported (boxes on cut tiles not counted), tiles there."""

    right: int = 0
    reported: int = 0
    tiles: int = 0
    exact: int = 0
    shots: int = 0
    ms: list[float] = field(default_factory=list)
    #: Shots with a ``text`` to read, and those read as it (the tiles, and their order).
    texts: int = 0
    in_order: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.reported if self.reported else 0.0

    @property
    def recall(self) -> float:
        return self.right / self.tiles if self.tiles else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def count(self, right: int, reported: int, tiles: int, ms: float) -> bool:
        """Add one shot's figures; returns whether it was read exactly."""
        exact = right == tiles == reported
        self.right += right
        self.reported += reported
        self.tiles += tiles
        self.exact += exact
        self.shots += 1
        self.ms.append(ms)
        return exact

    def as_json(self) -> dict:
        return {
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
            "exact": self.exact,
            "shots": self.shots,
            "tiles": self.tiles,
            "median_ms": round(float(np.median(self.ms)), 1) if self.ms else None,
            **({"in_order": self.in_order, "texts": self.texts} if self.texts else {}),
        }


#: A box (of the right tile) holding this share of a face-only label's box or more ...
FACE_INSIDE = 0.9
#: ... is that tile down to this IoU with it: a whole tile's box is about 1.5 times its face's; a standing tile's
#: with its top, or a tile's with the rim of a tray it lies in, about twice.
FACE_IOU = 0.3


def _judged(shot: Shot, detections: Iterable[Detection]) -> tuple[list[Detection], list[Detection], list[Detection]]:
    """(right, wrong, not counted) of one shot's detections: greedy matching, most confident first (a box to the label
    of its tile it overlaps most, at IoU 0.5, or down to :data:`FACE_IOU` on a face-only label it holds); a box on a
    cut tile, mostly inside an unlabelled region, or a back on a shot whose backs are not judged, is not counted."""
    used: set[int] = set()
    right, wrong, ignored = [], [], []
    for d in sorted(detections, key=lambda d: -d.conf):
        best, best_iou = None, 0.0
        for i, (cls, box) in enumerate(shot.truth):
            if i in used or cls != d.class_id or (v := d.box.iou(box)) < best_iou:
                continue
            if v >= 0.5 or (shot.face_labels and v >= FACE_IOU and box.share_inside(d.box) >= FACE_INSIDE):
                best, best_iou = i, v
        if best is not None:
            used.add(best)
            right.append(d)
        elif (
            any(d.box.iou(b) > 0.3 for b in shot.cut)
            or any(d.box.share_inside(u) >= 0.5 for u in shot.unlabelled)
            or (d.tile is None and not shot.backs_judged)
        ):
            ignored.append(d)
        else:
            wrong.append(d)
    return right, wrong, ignored


def score(shot: Shot, detections: Iterable[Detection]) -> tuple[int, int]:
    """(right, reported) for one shot: greedy matching, most confident first; a box on a cut tile, or mostly inside
    an unlabelled region, is not counted."""
    right, wrong, _ = _judged(shot, detections)
    return len(right), len(right) + len(wrong)


def text_read(shot: Shot, detections: Sequence[Detection]) -> str:
    """The tiles ``detections`` read on ``shot`` as their owner reads them (:func:`vision.read.rows.read_tiles`), less
    the boxes :func:`score` does not count: a tile the shot's edge cuts is no more wanted in the text than as a box."""
    _, _, ignored = _judged(shot, detections)
    skip = {id(d) for d in ignored}
    return read_tiles([d for d in detections if id(d) not in skip]).text


def evaluate(readers: dict[str, Detector], shots: Iterable[Shot]) -> dict[str, dict[str, Tally]]:
    """Per reader, per kind of shot (and ``"all"``): the tally of what it read."""
    out: dict[str, dict[str, Tally]] = {name: {} for name in readers}
    for shot in shots:
        for name, reader in readers.items():
            started = time.perf_counter()
            found = reader.detect(shot.image)
            ms = (time.perf_counter() - started) * 1000
            right, reported = score(shot, found)
            in_order = shot.text is not None and text_read(shot, found) == shot.text
            for kind in (shot.kind, "all"):
                t = out[name].setdefault(kind, Tally())
                t.count(right, reported, len(shot.truth), ms)
                if shot.text is not None:
                    t.texts += 1
                    t.in_order += in_order
    return out
