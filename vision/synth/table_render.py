"""Drawing a :class:`~vision.synth.table_scene.TableScene` as a camera above the table sees it (lab only).

``render_table(scene, seed=...)`` gives a :class:`RenderedTable`: the frame (BGR), the exact box of every tile
lying in view (face up, or ``back`` for a face-down one; standing tiles show only their tops and are not labelled,
as the camera's reader does not read them; a tile at least half under the arm is not labelled either), as YOLO
label lines and as :class:`~vision.read.detector.Detection` s, the "labels reader".

Tiles are the CC0 FluffyStuff artwork (``vision/synth/artwork``) on a felt mat in a wooden frame. Every still tile
lies at a place that depends only on where it is (which seat's pond, which slot; which wall stack; which meld)
and on ``seed``: a tile never moves between two frames of one game. The conventions drawn are the ones
:func:`vision.read.table.read_table` reads:

- seats by the frame edge they sit at; each seat's hand row farthest out: the concealed hand (standing tiles'
  tops, or laid face up where they stood), the tile set apart at its right after a small gap, then after a wider
  gap the melds, the first made rightmost and each later one to its left; a meld's called tile lies sideways
  (leftmost when called from the kamicha, in the middle from the toimen, rightmost from the shimocha); an added
  kan's fourth tile lies sideways too, against the called tile on its side towards the pond (the two stacked one
  above the other seen from the player, as players lay it), out of the row; a closed kan shows its end tiles face
  down;
- the walls, 17 stacks a side in a pinwheel, shrinking in drawing order from the break; the dead wall's dora
  indicators face up from its third stack counted from the break; at a win the ura indicators turned face up
  and laid in the wall's row just beyond the break (where the first stacks were drawn), in order, so that the
  reader reads them as indicators ahead of the dora indicators; where that spot is in another wall, or would leave
  the row mostly face up, each lies under its dora indicator instead, showing towards the centre (read right
  after it);
- the ponds from the centre outwards, six to a row (the third row takes the rest), the riichi tile sideways, the
  riichi stick between the pond and the centre.

A :class:`TableStyle` (``TableStyle.seeded(n)``) varies the felt's colour, the light, the white balance, the
camera's pose (straight above, or at an angle from one side: a perspective warp), blur and sensor noise; and what
else lies on the table (``clutter``: a phone, paper, point sticks, chips, dice, a cup, a box, from
:mod:`vision.synth.distractors`), still for the whole game, in front of the players and in the corners, off the
tiles, unlabelled.

    >>> from engine.tiles import parse_tiles
    >>> from vision.synth.table_scene import SeatScene, TableScene
    >>> scene = TableScene(seats=(SeatScene(pond=parse_tiles("19m")),) + (SeatScene(),) * 3,
    ...                    dora_indicators=parse_tiles("4p"))
    >>> frame = render_table(scene, size=(380, 507), seed=1)
    >>> frame.image.shape, sorted(d.label for d in frame.detections() if not d.is_back)
    ((380, 507, 3), ['1m', '4p', '9m'])
"""

from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.tiles import Tile
from vision.read.detector import Detection
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, YoloBox, class_of_tile
from vision.read.table import FrameSide
from vision.synth.distractors import PX_PER_MM, flat_picture
from vision.synth.table_scene import WALL_STACKS, MeldScene, SeatScene, TableScene, Zone

#: The frame drawn unless told otherwise (height, width): a Pi HQ camera's binned mode, non-square.
FRAME = (1520, 2028)
# lengths in pixels of the default frame (other sizes scale them): a tile lying flat seen from above (26 x 35 mm
# at about 2 px/mm), a standing tile's thickness, the body's edge showing under a flat tile
TILE_W, TILE_H, DEPTH, SIDE = 51, 68, 38, 6
#: Where the ponds start (from the centre), the walls' middle line, the hand rows' inner edge (tile heights).
POND_IN, WALL_AT, HAND_IN = 2.3, 6.25, 7.8
#: Gaps along the hand row (tile widths): the tile set apart, between the hand and the melds, between melds.
APART_GAP, MELD_GAP, BETWEEN_MELDS = 0.4, 1.0, 0.5
#: The right end of the first meld (tile widths from the seat's middle).
MELD_RIGHT = 8.0
#: Where an ura indicator lies under its dora indicator when it cannot lie beyond the break: towards the centre
#: (tile depths) and to the right (tile widths).
URA_IN, URA_ALONG = 0.45, 0.15
#: A tile at least this share under the arm is hidden: not labelled.
HIDDEN = 0.5
#: The wooden frame round the felt (pixels of the default frame).
RIM = 58
_SIDES = tuple(FrameSide)
#: Things that lie still on a table through a game besides the tiles (kinds of :mod:`vision.synth.distractors`).
CLUTTER_KINDS = ("phone", "paper", "point_sticks", "chips", "dice", "cup", "white_box")
#: A tile's face width in millimetres (:data:`TILE_W` pixels of the default frame): things are drawn to its scale.
TILE_W_MM = 26.0
#: How far from the table's centre the tiles reach (tile heights: the hand rows, a called tile lying sideways beyond
#: them, a margin): clutter lies beyond it, in front of the players and in the corners.
TILES_REACH = HAND_IN + 2.0


@dataclass(frozen=True, slots=True)
class TableStyle:
    """How the table and the camera look: felt colour (BGR), light falloff (0: even) from ``light_at`` (shares of
    the frame's width and height), overall gain and white balance (B, G, R factors), the camera's pose (``camera``
    None: straight above; a side: at an angle from that side, the far edge ``tilt`` shorter than the near one),
    Gaussian blur (sigma, pixels), sensor noise (sigma, grey levels) and ``clutter``, the kinds of things lying on
    the table beside the tiles (:data:`CLUTTER_KINDS`). ``TableStyle()`` is the bundled demo's."""

    felt: tuple[int, int, int] = (58, 112, 46)
    light: float = 0.0
    light_at: tuple[float, float] = (0.45, 0.4)
    gain: float = 1.0
    white: tuple[float, float, float] = (1.0, 1.0, 1.0)
    camera: FrameSide | None = None
    tilt: float = 0.0
    blur: float = 0.0
    noise: float = 1.6
    clutter: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.tilt < 0.5:
            raise ValueError(f"a camera's tilt shortens the far edge by 0 to 0.5 of the near one, not {self.tilt}")
        if self.blur < 0 or self.noise < 0 or self.gain <= 0:
            raise ValueError("blur and noise are at least 0, gain above 0")
        if unknown := [k for k in self.clutter if k not in CLUTTER_KINDS]:
            raise ValueError(f"clutter is of the kinds {', '.join(CLUTTER_KINDS)}; not {', '.join(unknown)}")

    @classmethod
    def seeded(cls, seed: int, clutter: bool = False) -> TableStyle:
        """A style drawn at random from ``seed``: one of a few felt colours, light, white balance, a camera
        straight above (half the time) or at a mild angle from one side, some blur and noise; with ``clutter``, two
        to six things on the table besides (the rest of the style is the same with or without)."""
        kinds: tuple[str, ...] = ()
        if clutter:
            pick = np.random.default_rng([seed, 0xC1])
            kinds = tuple(str(k) for k in pick.choice(CLUTTER_KINDS, int(pick.integers(2, 7))))
        rng = np.random.default_rng([seed, 0x57])
        felts = ((58, 112, 46), (40, 90, 30), (110, 70, 30), (60, 50, 120), (80, 85, 80))
        felt = np.array(felts[rng.integers(len(felts))], float) * rng.uniform(0.85, 1.15)
        overhead = rng.random() < 0.5
        return cls(
            felt=tuple(int(v) for v in np.clip(felt, 0, 255)),
            light=float(rng.uniform(0.0, 0.35)),
            light_at=(float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.3, 0.7))),
            gain=float(rng.uniform(0.8, 1.12)),
            white=tuple(float(v) for v in rng.uniform(0.9, 1.1, 3)),
            camera=None if overhead else _SIDES[rng.integers(4)],
            tilt=0.0 if overhead else float(rng.uniform(0.03, 0.12)),
            blur=float(rng.choice([0.0, rng.uniform(0.3, 1.2)])),
            noise=float(rng.uniform(1.0, 4.0)),
            clutter=kinds,
        )


@dataclass(frozen=True)
class TableBoxes:
    """The exact boxes of a scene's tiles lying in view (class of :mod:`vision.read.labels`, box in pixels), the
    table's centre (x, y) and the frame's size, as :func:`render_table` would draw them (:func:`table_boxes`)."""

    boxes: tuple[tuple[int, Box], ...]
    centre: tuple[float, float]
    size: Size

    def detections(self) -> tuple[Detection, ...]:
        """The boxes as detections of full confidence: what a perfect detector would report."""
        return tuple(Detection.of_class(c, b, 1.0) for c, b in self.boxes)


@dataclass(frozen=True)
class RenderedTable:
    """A rendered frame: ``image`` (BGR uint8), ``boxes``, the class (:mod:`vision.read.labels`) and exact box
    in pixels of every tile lying in view, and ``centre``, the table's centre (x, y) in the frame (for
    ``read_table(..., centre=)``: a camera fixed over a table)."""

    image: np.ndarray
    boxes: tuple[tuple[int, Box], ...]
    centre: tuple[float, float]

    @property
    def size(self) -> Size:
        return Size.of(self.image)

    @property
    def labels(self) -> list[str]:
        """YOLO label lines: class, box centre x and y, width and height, each a share of the frame's."""
        h, w = self.image.shape[:2]
        return [str(YoloBox.of_pixels(c, (b.x1, b.y1, b.x2, b.y2), width=w, height=h)) for c, b in self.boxes]

    def detections(self) -> tuple[Detection, ...]:
        """The boxes as detections of full confidence: what a perfect detector would report."""
        return TableBoxes(self.boxes, self.centre, self.size).detections()


# --- the artwork -------------------------------------------------------------------------------------------------


@functools.cache
def _art(name: str) -> np.ndarray:
    from vision.synth.art import art_dir

    path = art_dir() / "Export" / "Regular" / f"{name}.png"
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise FileNotFoundError(f"cannot read {path} (the CC0 tile artwork of vision/synth/artwork)")
    return img


def tile_art(name: str, size: tuple[int, int]) -> np.ndarray:
    """The tile picture (BGRA) at ``size`` = (width, height): the artwork's glyph over its blank front, or its back."""
    from vision.synth.art import art_name

    if name == "back":
        img = _art("Back")
    else:
        glyph = _art(art_name(class_of_tile(Tile.parse(name)))).astype(np.float32)
        front = _art("Front").astype(np.float32)
        a = glyph[:, :, 3:] / 255
        bgr = glyph[:, :, :3] * a + front[:, :, :3] * (1 - a)
        alpha = 255 * a + front[:, :, 3:] * (1 - a)
        img = np.concatenate([bgr, alpha], axis=2).round().astype(np.uint8)
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


@functools.cache
def flat_tile(name: str, width: int, height: int, side: int) -> np.ndarray:
    """A tile lying flat (face up, or ``back``) seen from above, with its body's edge showing below it (BGRA)."""
    face = tile_art(name, (width, height))
    patch = np.zeros((height + side, width, 4), np.uint8)
    patch[side:, :, :3] = (70, 140, 225) if name == "back" else (200, 215, 225)
    patch[side:, :, 3] = 255
    patch[height - 4 :, :, :3] = (60, 125, 215)  # the back layer of the body
    alpha = face[:, :, 3:4].astype(np.float32) / 255
    top = patch[:height].astype(np.float32)
    top[:, :, :3] = face[:, :, :3] * alpha + top[:, :, :3] * (1 - alpha)
    top[:, :, 3] = np.maximum(top[:, :, 3], face[:, :, 3])
    patch[:height] = top.astype(np.uint8)
    return patch


@functools.cache
def standing_tile(width: int, depth: int) -> np.ndarray:
    """A standing tile seen from above: its top edge, the back colour towards the centre and ivory towards its
    player (BGRA)."""
    patch = np.zeros((depth, width, 4), np.uint8)
    patch[:, :, 3] = 255
    patch[: depth * 2 // 5, :, :3] = (60, 125, 225)
    patch[depth * 2 // 5 :, :, :3] = (212, 226, 234)
    patch[depth * 2 // 5 - 1, :, :3] = (150, 160, 170)
    cv2.rectangle(patch, (0, 0), (width - 1, depth - 1), (120, 130, 140, 255), 1)
    return patch


@functools.cache
def riichi_stick(length: int, thickness: int) -> np.ndarray:
    """A 1000-point riichi stick (white with a red dot), BGRA."""
    patch = np.zeros((thickness, length, 4), np.uint8)
    cv2.rectangle(patch, (0, 0), (length - 1, thickness - 1), (238, 240, 242, 255), -1)
    cv2.circle(patch, (length // 2, thickness // 2), max(1, thickness * 5 // 14), (40, 40, 210, 255), -1)
    return patch


@functools.lru_cache(maxsize=4)
def felt(height: int, width: int, colour: tuple[int, int, int], seed: int) -> np.ndarray:
    """A felt mat with texture and a light falling off to the edges, in a wooden frame (BGR)."""
    rng = np.random.default_rng([seed, 0xFE17])
    h, w, s = height, width, min(height / FRAME[0], width / FRAME[1])
    base = np.empty((h, w, 3), np.float32)
    base[:] = colour
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), max(0.5, 3 * s)) * 18
    blotch = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 4
    base += (grain + blotch)[:, :, None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base *= (1.08 - 0.22 * (((xx - w * 0.45) / w) ** 2 + ((yy - h * 0.4) / h) ** 2) * 2.2)[:, :, None]
    rim = round(RIM * s)
    wood = np.empty((h, w, 3), np.float32)
    wood[:] = (40, 75, 120)
    wood += (cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (41, 1), 0) * 30)[:, :, None]
    inside = np.zeros((h, w), bool)
    inside[rim:-rim, rim:-rim] = True
    return np.clip(np.where(inside[:, :, None], base, wood), 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=2)
def clutter_pieces(size: tuple[int, int], kinds: tuple[str, ...], seed: int, tries: int = 300) -> tuple[Placed, ...]:
    """Where each thing of ``kinds`` lies on the table in a frame of ``size`` (height, width): drawn from above at
    the tiles' scale, turned at random, on the felt beyond the tiles' reach (:data:`TILES_REACH`) and apart from
    each other. A thing that finds no such place in ``tries`` is left out. The same arguments give the same pieces
    (the same arrays: still things keep their sprites from frame to frame)."""
    geo = Geometry(size)
    rng = np.random.default_rng([seed, 0xC1])
    h, w = size
    rim = round(RIM * geo.scale) + 2  # on the felt
    cx, cy = geo.centre
    reach = TILES_REACH * geo.h
    per_mm = geo.w / TILE_W_MM / PX_PER_MM
    taken = np.zeros((h, w), bool)
    taken[max(0, round(cy - reach)) : round(cy + reach), max(0, round(cx - reach)) : round(cx + reach)] = True
    placed: list[Placed] = []
    for kind in kinds:
        flat = flat_picture(kind, rng)
        fh, fw = flat.rgba.shape[:2]
        size_px = (max(2, round(fw * per_mm)), max(2, round(fh * per_mm)))
        rgba = cv2.resize(flat.rgba, size_px, interpolation=cv2.INTER_AREA)
        patch = np.clip(rgba[:, :, [2, 1, 0, 3]] * 255, 0, 255).astype(np.uint8)  # RGBA 0..1 -> BGRA
        for _ in range(tries):
            p = Placed(patch, float(rng.uniform(rim, w - rim)), float(rng.uniform(rim, h - rim)),
                       int(rng.integers(4)), float(rng.uniform(-30, 30)))  # fmt: skip
            corners = face_corners(p)
            x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 4
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 8  # with its shadow
            if x0 < rim or y0 < rim or x1 > w - rim or y1 > h - rim or taken[y0:y1, x0:x1].any():
                continue
            taken[y0:y1, x0:x1] = True
            placed.append(p)
            break
    return tuple(placed)


# --- compositing -----------------------------------------------------------------------------------------------


@dataclass
class Placed:
    """A patch (BGRA) placed at a centre, turned by quarter turns (counter-clockwise) and a small tilt (degrees);
    ``cls`` names the tile for its label (None: not labelled)."""

    patch: np.ndarray
    cx: float
    cy: float
    quarters: int = 0
    tilt: float = 0.0
    cls: int | None = None


def _tilting(h: int, w: int, tilt: float) -> tuple[np.ndarray, int, np.ndarray]:
    """For a patch of ``h`` x ``w`` (turned by its quarters already): the affine matrix that tilts it (degrees)
    into a square of side ``diag`` (returned), and the corners of its face in that square."""
    diag = math.ceil(math.hypot(w, h)) + 4
    m = cv2.getRotationMatrix2D((w / 2, h / 2), tilt, 1.0)
    m[0, 2] += (diag - w) / 2
    m[1, 2] += (diag - h) / 2
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return m, diag, corners @ m[:, :2].T + m[:, 2]


def turned(patch: np.ndarray, quarters: int, tilt: float) -> tuple[np.ndarray, np.ndarray]:
    """The patch turned by quarter turns and a tilt (degrees); and the corners of its face, turned."""
    p = np.rot90(patch, quarters % 4).copy() if quarters % 4 else patch
    m, diag, corners = _tilting(*p.shape[:2], tilt)
    out = cv2.warpAffine(p, m, (diag, diag), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out, corners


def face_corners(p: Placed) -> np.ndarray:
    """The four corners of a placed piece's face in the frame, where :func:`compose` draws it."""
    h, w = p.patch.shape[:2]
    _m, diag, corners = _tilting(*((w, h) if p.quarters % 2 else (h, w)), p.tilt)
    return corners + np.array([round(p.cx - diag / 2), round(p.cy - diag / 2)], np.float64)


@dataclass(frozen=True)
class Layer:
    """Paint over a region: ``premultiplied`` (float32 BGR times alpha; None: black) and ``clear`` (float32,
    1 - alpha, one channel), offset by (``dx``, ``dy``) from where it is painted."""

    premultiplied: np.ndarray | None
    clear: np.ndarray
    dx: int = 0
    dy: int = 0

    @classmethod
    def of(cls, rgb: np.ndarray | None, a: np.ndarray, dx: int = 0, dy: int = 0) -> Layer:
        """``rgb`` (float32; None: black) with alpha ``a`` (float32 0..1), kept only where ``a`` is above 0 (the
        rest would paint the canvas as it is)."""
        rows, cols = np.flatnonzero(a.any(axis=1)), np.flatnonzero(a.any(axis=0))
        if not len(rows):
            return cls(None, np.ones((0, 0, 1), np.float32), dx, dy)
        y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        a = a[y0:y1, x0:x1, None]
        premultiplied = None if rgb is None else rgb[y0:y1, x0:x1] * a
        return cls(premultiplied, 1 - a, dx + int(x0), dy + int(y0))

    def paint(self, canvas: np.ndarray, x0: int, y0: int) -> None:
        """Paint over ``canvas`` (BGR uint8) at the offset (x0, y0), clipped to the canvas."""
        h, w = self.clear.shape[:2]
        x0, y0 = x0 + self.dx, y0 + self.dy
        cy0, cx0 = max(0, y0), max(0, x0)
        cy1, cx1 = min(canvas.shape[0], y0 + h), min(canvas.shape[1], x0 + w)
        if cy1 <= cy0 or cx1 <= cx0:
            return
        inside = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
        sub = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
        sub *= self.clear[inside]
        if self.premultiplied is not None:
            sub += self.premultiplied[inside]
        canvas[cy0:cy1, cx0:cx1] = sub  # a weighted mean of two grey levels: 0..255, truncated


def blend(canvas: np.ndarray, rgb: np.ndarray | None, a: np.ndarray, x0: int, y0: int) -> None:
    """Paint ``rgb`` (float32; None: black) over ``canvas`` with alpha ``a`` (0..1) at the offset (x0, y0), clipped
    to the canvas."""
    Layer.of(rgb, a).paint(canvas, x0, y0)


@dataclass(frozen=True)
class Sprite:
    """A patch turned as it is placed, ready to paint: the turned square's size (height, width), its soft shadow
    (down and to the right) and its face as layers over the square, and the face's corners in the square."""

    size: tuple[int, int]
    shadow: Layer
    face: Layer
    corners: np.ndarray


class _Identity:
    """An array as a cache key, by identity: the patches are made once each (:func:`flat_tile`, ...) and a key
    keeps its array alive, so that no other array takes its id."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __hash__(self) -> int:
        return id(self.array)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.array is self.array


# a game's still tiles keep their patch and pose from shot to shot: a few hundred sprites cover a hand
@functools.lru_cache(maxsize=512)
def _sprite(patch: _Identity, quarters: int, tilt: float) -> Sprite:
    img, corners = turned(patch.array, quarters, tilt)
    alpha = img[:, :, 3].astype(np.float32) / 255
    shadow = Layer.of(None, cv2.GaussianBlur(alpha, (0, 0), 3) * 0.35, 4, 5)
    return Sprite(img.shape[:2], shadow, Layer.of(img[:, :, :3].astype(np.float32), alpha), corners)


def sprite(p: Placed) -> Sprite:
    """The piece's patch turned and shaded as placed (made once for a patch and a pose)."""
    return _sprite(_Identity(p.patch), p.quarters % 4, p.tilt)


def compose(pieces: list[Placed], background: np.ndarray) -> np.ndarray:
    """Draw the pieces in order, each with a soft shadow down and to the right (their faces' corners:
    :func:`face_corners`)."""
    canvas = background.copy()
    for p in pieces:
        s = sprite(p)
        x0 = round(p.cx - s.size[1] / 2)
        y0 = round(p.cy - s.size[0] / 2)
        s.shadow.paint(canvas, x0, y0)
        s.face.paint(canvas, x0, y0)
    return canvas


def seed_text(value: object) -> bytes:
    """``repr(value)`` as a render's random draws are seeded from it, a side spelt as when those seeds were first
    drawn (``FrameSide`` was named ``ViewSide``), so that a scene renders the same pixels as it always did.

    >>> seed_text((1, FrameSide.TOP))
    b"(1, <ViewSide.TOP: 'top'>)"
    """
    return repr(value).replace("<FrameSide.", "<ViewSide.").encode()


@functools.lru_cache(maxsize=4096)  # a game's tile places, asked for again every shot
def jitter(seed: int, *key: object) -> float:
    """A small tilt in degrees, the same for the same tile place (``key``) in every frame of a game (``seed``)."""
    return float(np.random.default_rng(zlib.crc32(seed_text((seed, *key)))).normal(0, 1.2))


# --- where things lie ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """The table's layout in a frame of ``size`` (height, width): lengths scale with the frame."""

    size: tuple[int, int]

    @property
    def scale(self) -> float:
        return min(self.size[0] / FRAME[0], self.size[1] / FRAME[1])

    def px(self, length: float) -> int:
        """A length of the default frame, in this frame's pixels (at least 1)."""
        return max(1, round(length * self.scale))

    @property
    def w(self) -> int:
        return self.px(TILE_W)

    @property
    def h(self) -> int:
        return self.px(TILE_H)

    @property
    def side(self) -> int:
        return self.px(SIDE)

    @property
    def centre(self) -> tuple[float, float]:
        return self.size[1] / 2, self.size[0] / 2 + 12.7 * self.scale

    def at(self, side: FrameSide, u: float, v: float) -> tuple[float, float]:
        """A point in a seat's own frame (``u`` to that player's right, ``v`` from the centre away from them:
        negative towards them) in frame pixels."""
        dx, dy = [(u, -v), (-v, -u), (-u, v), (v, u)][side.turns]
        cx, cy = self.centre
        return cx + dx, cy + dy

    def seat_frame(self, side: FrameSide, x: float, y: float) -> tuple[float, float]:
        """The inverse of :meth:`at`: (u, v) of a frame point in a seat's frame."""
        cx, cy = self.centre
        dx, dy = x - cx, y - cy
        return [(dx, -dy), (-dy, -dx), (-dx, dy), (dy, dx)][side.turns]

    # depths (v) of the zones, negative: towards the seat
    def pond_slot(self, n: int, riichi: int | None = None) -> tuple[float, float]:
        """(u, v) of the middle of pond slot ``n``: six to a row for two rows, the third row takes the rest (eight
        fit before the next seat's wall); the sideways tile (index ``riichi``) takes a tile height along its row."""
        row, col = (n // 6, n % 6) if n < 12 else (2, n - 12)
        first = n - col
        wide = [riichi is not None and k == riichi for k in range(first, n + 1)]
        u = -3 * self.w + sum(self.h if s else self.w for s in wide[:-1]) + (self.h if wide[-1] else self.w) / 2
        v = -(POND_IN * self.h + row * (self.h + self.side) + (self.h + self.side) / 2)
        return u, v

    @property
    def wall_v(self) -> float:
        return -WALL_AT * self.h

    def wall_u(self, stack: int) -> float:
        """The middle of a wall stack (0..16 from the wall's right end as its player sees it); the walls make a
        pinwheel, each shifted to its player's left so the corners do not overlap."""
        return WALL_STACKS * self.w / 2 - self.w * (stack + 0.5) - (self.h + self.px(4))

    @property
    def flat_v(self) -> float:
        """The middle of a flat tile in the hand row."""
        return -(HAND_IN * self.h + (self.h + self.side) / 2)

    @property
    def standing_v(self) -> float:
        return -(HAND_IN * self.h + self.px(DEPTH) / 2)

    def hand_u(self, k: int) -> float:
        return -7.5 * self.w + k * self.w

    def apart_u(self, n: int) -> float:
        return self.hand_u(n) + APART_GAP * self.w


def stacks_in_drawing_order(wall_break: tuple[FrameSide, int]) -> list[tuple[FrameSide, int]]:
    """Every wall stack (side, stack from that wall's right end) in drawing order, from the break clockwise (seen
    from above); the last 7 are the dead wall, its last stack the one beside the break."""
    clockwise = (FrameSide.BOTTOM, FrameSide.LEFT, FrameSide.TOP, FrameSide.RIGHT)
    order = [(s, i) for s in clockwise for i in range(WALL_STACKS)]
    start = order.index(wall_break)
    return order[start:] + order[:start]


# --- the scene, piece by piece ----------------------------------------------------------------------------------


@dataclass
class _Drawing:
    scene: TableScene
    geo: Geometry
    seed: int
    pieces: list[Placed] = field(default_factory=list)

    def tile(self, name: str, side: FrameSide, u: float, v: float, key: tuple, *, sideways: bool = False,
             shake: float = 1.0) -> None:  # fmt: skip
        g = self.geo
        x, y = g.at(side, u, v)
        cls = BACK_CLASS if name == "back" else class_of_tile(Tile.parse(name))
        patch = flat_tile(name, g.w, g.h, g.side)
        self.pieces.append(Placed(patch, x, y, side.turns + sideways, jitter(self.seed, *key) * shake, cls))

    def draw(self) -> list[Placed]:
        self.walls()
        for side in _SIDES:
            seat = self.scene.seat(side)
            self.pond(side, seat)
            self.hand(side, seat)
            self.melds(side, seat)
        return self.pieces

    def walls(self) -> None:
        g, scene = self.geo, self.scene
        order = stacks_in_drawing_order(scene.wall_break)
        live, dead = order[:-7], order[-7:]
        standing = set(live[len(live) - math.ceil(scene.live_wall / 2) :]) if scene.live_wall else set()
        kans = max(0, len(scene.dora_indicators) - 1)
        taken = {dead[-1 - j] for j in range(kans // 2)}  # replacement tiles: a stack is gone after two
        standing |= set(dead) - taken
        shown = {dead[-3 - k]: str(t) for k, t in enumerate(scene.dora_indicators)}
        beyond = self.ura_beyond_the_break(live, standing, shown)
        wall_from = len(self.pieces)
        for side in _SIDES:
            for i in range(WALL_STACKS):
                if (side, i) in standing:
                    name = shown.get((side, i), "back")
                    self.tile(name, side, g.wall_u(i), g.wall_v, ("wall", side.value, i), shake=0.4)
        ura_from = len(self.pieces)
        for k, t in enumerate(scene.ura_indicators):
            if beyond:  # in the wall's row where the first stacks were drawn, read ahead of the dora indicators
                side, i = live[len(scene.ura_indicators) - 1 - k]
                u, v = g.wall_u(i), g.wall_v
            else:  # under their dora indicators, showing towards the centre: read each after its dora indicator
                side, i = dead[-3 - k]
                u, v = g.wall_u(i) + URA_ALONG * g.w, g.wall_v + URA_IN * (g.h + g.side)
            self.tile(str(t), side, u, v, ("ura", side.value, i), shake=0.4)
        if not beyond:  # drawn first: the wall lies over them
            self.pieces[wall_from:] = self.pieces[ura_from:] + self.pieces[wall_from:ura_from]

    def ura_beyond_the_break(
        self, live: list[tuple[FrameSide, int]], standing: set[tuple[FrameSide, int]], shown: dict
    ) -> bool:
        """Whether the ura indicators lie beyond the break: where the first stacks were drawn (gone by a win) in
        the dora indicators' own wall, which stays mostly face down with them (else the reader would not take that
        row for a wall)."""
        n = len(self.scene.ura_indicators)
        if not n:
            return False
        side = next(iter(shown))[0]
        slots = live[:n]
        if any(s != side for s, _i in slots) or any(slot in standing for slot in slots):
            return False
        row = [slot for slot in standing if slot[0] == side]
        face_up = sum(slot in shown for slot in row) + n
        return len(row) + n - face_up >= face_up

    def pond(self, side: FrameSide, seat: SeatScene) -> None:
        g = self.geo
        for n, t in enumerate(seat.pond):
            u, v = g.pond_slot(n, seat.riichi)
            self.tile(str(t), side, u, v, ("pond", side.value, n), sideways=n == seat.riichi)
        if seat.stick:
            x, y = g.at(side, 0, -(POND_IN - 0.45) * g.h)
            stick = riichi_stick(g.px(190), g.px(18))
            self.pieces.append(Placed(stick, x, y, side.turns, jitter(self.seed, "stick", side.value) * 0.5))

    def hand(self, side: FrameSide, seat: SeatScene) -> None:
        g = self.geo
        if isinstance(seat.hand, int):
            n = seat.hand
            for k in range(n + (seat.apart is True)):
                u = g.hand_u(k) if k < n else g.apart_u(n)
                x, y = g.at(side, u, g.standing_v)
                shake = jitter(self.seed, "hand", side.value, k) * 0.3
                self.pieces.append(Placed(standing_tile(g.w, g.px(DEPTH)), x, y, side.turns, shake))
        else:
            n = len(seat.hand)
            for k, t in enumerate(seat.hand):
                self.tile(str(t), side, g.hand_u(k), g.flat_v, ("shown", side.value, k), shake=0.3)
        if isinstance(seat.apart, Tile):
            self.tile(str(seat.apart), side, g.apart_u(n), g.flat_v, ("apart", side.value), shake=0.3)

    def meld_lengths(self, meld: MeldScene) -> list[float]:
        return [self.geo.h if k == meld.called else self.geo.w for k in range(len(meld.tiles))]

    def melds_right(self, seat: SeatScene) -> float:
        """The right end of the first meld: fixed, unless the melds would reach the hand (then they lie further
        right)."""
        g = self.geo
        n = seat.hand if isinstance(seat.hand, int) else len(seat.hand)
        hand_end = g.apart_u(n) + g.w / 2 if seat.apart is not None else g.hand_u(n) - g.w / 2
        total = sum(sum(self.meld_lengths(m)) for m in seat.melds) + BETWEEN_MELDS * g.w * (len(seat.melds) - 1)
        return max(MELD_RIGHT * g.w, hand_end + MELD_GAP * g.w + total)

    def melds(self, side: FrameSide, seat: SeatScene) -> None:
        g = self.geo
        right = self.melds_right(seat)
        for j, meld in enumerate(seat.melds):
            lengths = self.meld_lengths(meld)
            u = right - sum(lengths)
            for k, t in enumerate(meld.tiles):
                key = ("meld", side.value, j, k)
                name = "back" if meld.closed and k in (0, 3) else str(t)
                if k == meld.called:
                    v = g.flat_v - (g.h + g.side) / 2 + g.w / 2  # lying across, its edge in line with the others'
                    self.tile(name, side, u + lengths[k] / 2, v, key, sideways=True, shake=0.3)
                    if meld.added is not None:  # sideways too, against the called tile's side towards the pond
                        added = (*key, "added")
                        self.tile(str(meld.added), side, u + lengths[k] / 2, v + g.w, added, sideways=True, shake=0.3)
                else:
                    self.tile(name, side, u + lengths[k] / 2, g.flat_v, key, shake=0.3)
                u += lengths[k]
            right -= sum(lengths) + BETWEEN_MELDS * g.w

    def arm_target(self) -> tuple[float, float]:
        """Where the arm's hand reaches: the zone that changes (frame pixels)."""
        g, scene = self.geo, self.scene
        side = scene.arm_to or scene.arm
        assert side is not None
        seat = scene.seat(side)
        if scene.arm_zone is Zone.POND:
            return g.at(side, *g.pond_slot(len(seat.pond), seat.riichi))
        if scene.arm_zone is Zone.MELDS:
            return g.at(side, self.melds_right(seat) - 2 * g.w - 4 * g.w * len(seat.melds), g.flat_v)
        if scene.arm_zone is Zone.HAND:
            return g.at(side, 0, g.flat_v)
        order = stacks_in_drawing_order(scene.wall_break)
        if scene.arm_zone is Zone.WALL:
            live = order[:-7]
            wall_side, i = live[max(0, len(live) - math.ceil(scene.live_wall / 2))]
        else:
            wall_side, i = order[-3 - max(0, len(scene.dora_indicators) - 1)]
        return g.at(wall_side, g.wall_u(i), g.wall_v)


def arm_layer(geo: Geometry, side: FrameSide, target: tuple[float, float], seed: int):
    """A player's forearm and hand reaching from their edge of the frame to ``target``: a function painting it on
    a canvas, and its mask (float 0..1)."""
    u, _v = geo.seat_frame(side, *target)
    sx, sy = geo.at(side, u * 0.6 + geo.px(150), -geo.px(1140))
    tx, ty = target
    tone = np.array((120, 160, 205), np.float32) + np.random.default_rng([seed, side.turns]).normal(0, 8, 3)
    h, w = geo.size
    layer = np.zeros((h, w), np.uint8)
    cv2.line(layer, (round(sx), round(sy)), (round(tx), round(ty)), 255, geo.px(120))
    cv2.ellipse(layer, (round(tx), round(ty)), (geo.px(78), geo.px(68)), 0, 0, 360, 255, -1)
    x, y, bw, bh = cv2.boundingRect(layer)
    region = grown((x, y, x + bw, y + bh), blur_reach(4, layer), geo.size)  # all the soft mask's pixels above 0
    x0, y0, x1, y1 = region
    soft_in = blurred_within(layer, 4, region).astype(np.float32) / 255
    soft = np.zeros((h, w), np.float32)
    soft[y0:y1, x0:x1] = soft_in

    def paint(canvas: np.ndarray) -> None:
        shade = blurred_within(layer, 25, region).astype(np.float32) / 255
        colour = np.empty((*shade.shape, 3), np.float32)
        colour[:] = tone
        colour *= (0.75 + 0.3 * shade)[:, :, None]
        dy, dx = geo.px(23), geo.px(18)
        blend(canvas, None, soft_in * 0.45, x0 + dx, y0 + dy)  # the arm's shadow, down and to the right
        blend(canvas, colour, soft_in, x0, y0)

    return paint, soft


def blur_reach(sigma: float, image: np.ndarray) -> int:
    """How far (pixels) OpenCV's Gaussian blur of ``sigma`` reaches in ``image``, and one more: its kernel's size
    when left unset is 3 sigma a side for 8-bit images, 4 for others."""
    size = round(sigma * (3 if image.dtype == np.uint8 else 4) * 2 + 1) | 1
    return size // 2 + 1


def grown(region: tuple[int, int, int, int], by: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """A region (x0, y0, x1, y1) grown by ``by`` pixels on each side, within a frame of ``size`` (height, width)."""
    x0, y0, x1, y1 = region
    return max(0, x0 - by), max(0, y0 - by), min(size[1], x1 + by), min(size[0], y1 + by)


def blurred_within(image: np.ndarray, sigma: float, region: tuple[int, int, int, int]) -> np.ndarray:
    """``image`` Gaussian-blurred (sigma, the default border), as a whole, but only the ``region`` (x0, y0, x1,
    y1) of it: a window reaching the kernel's length beyond the region is blurred, where the frame allows."""
    x0, y0, x1, y1 = region
    wx0, wy0, wx1, wy1 = grown(region, blur_reach(sigma, image), image.shape[:2])
    window = cv2.GaussianBlur(image[wy0:wy1, wx0:wx1], (0, 0), sigma)
    return window[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0]


def _hidden(corners: np.ndarray, mask: np.ndarray) -> bool:
    x1, y1 = np.floor(corners.min(axis=0)).astype(int)
    x2, y2 = np.ceil(corners.max(axis=0)).astype(int)
    h, w = mask.shape
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    return x2 > x1 and y2 > y1 and float(mask[y1:y2, x1:x2].mean()) >= HIDDEN


# --- the camera ---------------------------------------------------------------------------------------------------


def camera_warp(size: tuple[int, int], style: TableStyle) -> np.ndarray | None:
    """The homography of a camera at an angle from ``style.camera``'s side: that edge of the frame widened and the
    far one narrowed by half the tilt each (None: straight above)."""
    if style.camera is None or style.tilt == 0:
        return None
    h, w = size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    near, far = 1 + style.tilt / 2, 1 - style.tilt / 2
    # the corners as a camera at the bottom sees them (near: the bottom edge), turned for the other sides
    scaled = {
        FrameSide.BOTTOM: [(0, far), (1, far), (2, near), (3, near)],
        FrameSide.TOP: [(0, near), (1, near), (2, far), (3, far)],
        FrameSide.RIGHT: [(0, far), (1, near), (2, near), (3, far)],
        FrameSide.LEFT: [(0, near), (1, far), (2, far), (3, near)],
    }[style.camera]
    dst = src.copy()
    horizontal = style.camera in (FrameSide.BOTTOM, FrameSide.TOP)
    for corner, k in scaled:
        if horizontal:
            dst[corner, 0] = w / 2 + (src[corner, 0] - w / 2) * k
        else:
            dst[corner, 1] = h / 2 + (src[corner, 1] - h / 2) * k
    return cv2.getPerspectiveTransform(src, dst)


#: Rows the light and the sensor noise are worked on at a time (their floats stay in the processor's cache).
BAND = 32


@dataclass(frozen=True)
class Exposure:
    """The light over a frame in one style: ``gained``, each grey level times the gain and white balance (a
    look-up table of 256 x 1 x 3, float32), and ``falloff``, the light falling off from ``style.light_at`` (float32
    per pixel, each in three channels; None: even light)."""

    gained: np.ndarray
    falloff: np.ndarray | None

    def lit(self, canvas: np.ndarray, rows: slice) -> np.ndarray:
        """The canvas's ``rows`` under this light (float32)."""
        out = cv2.LUT(canvas[rows], self.gained)
        if self.falloff is not None:
            cv2.multiply(out, self.falloff[rows], dst=out)
        return out


# one style per game: its light is worked out once
@functools.lru_cache(maxsize=2)
def exposure(height: int, width: int, style: TableStyle) -> Exposure:
    h, w = height, width
    gained = np.arange(256, dtype=np.float32)[:, None] * (style.gain * np.array(style.white, np.float32))
    falloff = None
    if style.light:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        fx, fy = style.light_at
        one = 1 - style.light * (((xx - w * fx) / w) ** 2 + ((yy - h * fy) / h) ** 2) * 2
        falloff = np.repeat(one[:, :, None], 3, axis=2)
    return Exposure(gained[:, None, :], falloff)


def bands(height: int) -> list[slice]:
    """A frame's rows, :data:`BAND` at a time."""
    return [slice(y, min(height, y + BAND)) for y in range(0, height, BAND)]


class SensorNoise:
    """Gaussian noise of ``sigma`` grey levels drawn from ``rng``, added band by band in the frame's order (the
    same numbers as drawn for the whole frame at once)."""

    def __init__(self, sigma: float, rng: np.random.Generator, width: int) -> None:
        self.sigma, self.rng = sigma, rng
        self._drawn = np.empty((BAND, width, 3), np.float64)
        self._noise = np.empty((BAND, width, 3), np.float32)

    def add_to(self, band: np.ndarray) -> None:
        """Add the next ``band``'s noise to it (float32, in place)."""
        drawn, noise = self._drawn[: len(band)], self._noise[: len(band)]
        self.rng.standard_normal(out=drawn)
        np.multiply(drawn, self.sigma, out=noise, casting="unsafe")  # as normal(0, sigma) drawn, then float32
        band += noise


def developed(image: np.ndarray, noise: SensorNoise | None, out: np.ndarray, rows: slice) -> None:
    """The sensor's output (uint8) of ``image``, the light on ``rows`` of the frame (float32, in place): noise
    added, clipped, truncated into ``out``."""
    if noise is not None:
        noise.add_to(image)
    np.clip(image, 0, 255, out=image)
    out[rows] = image


def render_table(
    scene: TableScene, *, size: tuple[int, int] = FRAME, seed: int, style: TableStyle | None = None
) -> RenderedTable:
    """Draw ``scene`` as seen from above in a frame of ``size`` (height, width). ``seed`` fixes the felt's texture,
    each still tile's small tilt (by its place), the arm's skin tone and the sensor noise (with the scene): render a
    game's frames with one seed and one ``style`` (default: :class:`TableStyle` ()) and still tiles never move."""
    style = style or TableStyle()
    geo = Geometry((int(size[0]), int(size[1])))
    drawing = _Drawing(scene, geo, seed)
    pieces = drawing.draw()
    clutter = clutter_pieces(geo.size, style.clutter, seed) if style.clutter else ()
    canvas = compose([*clutter, *pieces], felt(geo.size[0], geo.size[1], style.felt, seed))
    mask = None
    if scene.arm is not None:
        paint, mask = arm_layer(geo, scene.arm, drawing.arm_target(), seed)
        paint(canvas)
    h, w = geo.size
    light = exposure(h, w, style)
    warp = camera_warp(geo.size, style)
    noise = None
    if style.noise:
        noise = SensorNoise(style.noise, np.random.default_rng([seed, zlib.crc32(seed_text(scene))]), w)
    image = np.empty((h, w, 3), np.float32)
    for rows in bands(h):
        image[rows] = light.lit(canvas, rows)
    if warp is not None:
        image = cv2.warpPerspective(image, warp, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    out = np.empty((h, w, 3), np.uint8)
    for rows in bands(h):
        seen = blurred_within(image, style.blur, (0, rows.start, w, rows.stop)) if style.blur else image[rows]
        developed(seen, noise, out, rows)
    boxes, centre = _labelled(pieces, geo, mask, warp)
    return RenderedTable(out, boxes, centre)


def table_boxes(
    scene: TableScene, *, size: tuple[int, int] = FRAME, seed: int, style: TableStyle | None = None
) -> TableBoxes:
    """The boxes and centre :func:`render_table` gives for the same arguments, without drawing the frame (a
    hundred times faster: for sweeps over many scenes read by the labels reader)."""
    geo = Geometry((int(size[0]), int(size[1])))
    drawing = _Drawing(scene, geo, seed)
    pieces = drawing.draw()
    mask = None if scene.arm is None else arm_layer(geo, scene.arm, drawing.arm_target(), seed)[1]
    boxes, centre = _labelled(pieces, geo, mask, camera_warp(geo.size, style or TableStyle()))
    return TableBoxes(boxes, centre, Size(height=geo.size[0], width=geo.size[1]))


def _labelled(
    pieces: list[Placed], geo: Geometry, mask: np.ndarray | None, warp: np.ndarray | None
) -> tuple[tuple[tuple[int, Box], ...], tuple[float, float]]:
    """The class and box of every labelled piece in view and not hidden under the arm (``mask``), seen through the
    camera's ``warp``; and the table's centre in the frame."""
    corners_of = [(p.cls, face_corners(p)) for p in pieces if p.cls is not None]
    if mask is not None:
        corners_of = [(c, k) for c, k in corners_of if not _hidden(k, mask)]
    centre = np.array([[geo.centre]], np.float32)
    if warp is not None:
        corners_of = [(c, cv2.perspectiveTransform(k[None].astype(np.float32), warp)[0]) for c, k in corners_of]
        centre = cv2.perspectiveTransform(centre, warp)
    boxes = tuple(b for c, k in corners_of if (b := _box(c, k, geo.size)) is not None)
    return boxes, (float(centre[0, 0, 0]), float(centre[0, 0, 1]))


def _box(cls: int, corners: np.ndarray, size: tuple[int, int]) -> tuple[int, Box] | None:
    """The class and the frame-clipped box around a tile's corners; None when less than half of it is in view."""
    h, w = size
    x1, y1 = corners.min(axis=0)
    x2, y2 = corners.max(axis=0)
    whole = (x2 - x1) * (y2 - y1)
    cx1, cy1, cx2, cy2 = max(0.0, x1), max(0.0, y1), min(float(w), x2), min(float(h), y2)
    if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.5 * whole:
        return None
    return cls, Box(float(cx1), float(cy1), float(cx2), float(cy2))
