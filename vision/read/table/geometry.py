"""A fixed camera's table geometry, kept from frame to frame: where the table's centre lies in its frames.

    geometry = TableGeometry()                          # one per camera, kept from frame to frame
    centre = geometry.observe(detections, size)         # the centre to read this frame about
    table = read_table(detections, size, centre=centre)

:func:`~vision.read.table.read_table` estimates the centre from each frame's tiles alone, and a frame can mislead
it: an arm over a seat's tiles hides half a row, a hand is laid open at one seat only. A camera over a table stays
put, so the centre is taken from a frame that shows the walls (a fresh deal: their square places it), or once the
estimates of :data:`SETTLE` frames agree (within :data:`AGREE` tile widths), then kept: a frame whose estimate
lies within :data:`FINER` of it is read about that estimate (finer, by a pixel or two: a frame reads as
``read_table`` alone reads it), one whose estimate lies elsewhere about the kept centre. It moves with the tiles: a
frame whose tiles all moved by one shift from the last frame that agreed with it (:func:`registered_shift`: a camera
knocked, the table pushed) moves it by that shift at once. Otherwise (the camera moved while nothing was read) only
when :data:`SETTLE` frames agree on a new place and the kept centre reads each of them clearly worse than their own
estimate (:data:`WORSE_BY` more tiles fitting no seat's rows: an estimate can be off the same way frame after frame,
two walls drawn away leaving the ponds' first tiles to place it); a frame whose estimate agrees with the kept centre
clears that count. Until a centre is taken each frame is read about its own estimate, as ``read_table`` alone reads it.
The camera's reader keeps one (:class:`~vision.read.pipeline.Reader`); :meth:`TableGeometry.reset` forgets it (the
frame itself turned).

A camera at an angle from a side shows the far tiles smaller, and the table's middle nearer the far rows than their
midpoint in the frame: a frame's estimate is made in the view from straight above that the tiles' sizes give
(:class:`Perspective`, :func:`read_estimated`) and taken back into the frame.
"""

from __future__ import annotations

import math
import statistics
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from vision.read.detector import Detection
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS
from vision.read.table.observation import TableObservation
from vision.read.table.read import read_table

#: Frames whose estimates agree before the centre is taken, or moved (among the last ``2 * SETTLE - 1`` frames that
#: lay elsewhere: an arm frame between them does not break the run).
SETTLE = 3
#: Estimates within this many tile widths of each other agree.
AGREE = 1.0
#: A frame's estimate within this many tile widths of the kept centre is finer than it and read about; one farther,
#: though it agrees, is off by most of a tile (a meld laid at one seat drags it) and the frame is read about the kept
#: centre.
FINER = 0.5
#: Face-down stacks a seat's wall shows for a frame's walls to place the centre at once.
WALL_STACKS = 5
#: Tiles more fitting no seat's rows about the kept centre than about a frame's own estimate, for that frame to
#: count towards moving it (one or two are as often a wall drawn down to a stack by a corner, which the kept centre
#: reads right and a wrong estimate of the same frames hides).
WORSE_BY = 2
#: A frame's tiles lie as a still frame's, moved by one shift, when this share of them (of the fewer of the two frames')
#: finds a tile of its kind there, within :data:`REGISTER_NEAR` tile widths ...
REGISTER_SHARE = 0.6
REGISTER_NEAR = 0.3
#: ... and at least this many do; a shift of more than this many tile widths moves the kept centre.
REGISTER_MIN = 8
MOVED = 0.25
#: Tiles' apparent sizes varying by this share or more across a frame show a camera at an angle ...
TILT = 0.08
#: ... in a frame of this many tiles or more (fewer say little of how sizes vary).
PERSPECTIVE_MIN_TILES = 24


def _apart(a: tuple[float, float], b: tuple[float, float]) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def _reads_as_well(
    detections: Sequence[Detection], size: Size | None, kept: tuple[float, float], seen: TableObservation
) -> bool:
    """Whether a frame read about the ``kept`` centre leaves fewer than :data:`WORSE_BY` tiles more fitting nowhere
    than about its own estimate (``seen``). A reading only otherwise is no evidence: an estimate can be wrong the
    same way frame after frame (a meld at one seat, a pond's first tiles with two walls drawn away drag it), and
    would move a right centre."""
    return len(read_table(detections, size, centre=kept).unassigned) < len(seen.unassigned) + WORSE_BY


def _walled(table: TableObservation) -> bool:
    """Whether a table read shows walls of :data:`WALL_STACKS` or more stacks at three seats or four and no tile
    fitting nowhere: the walls' square places the centre (a fresh deal, before any pond; the deal takes its tiles
    from one wall, which may be gone)."""
    return not table.unassigned and sum(s.wall_backs >= WALL_STACKS for s in table.seats) >= 3


@dataclass(frozen=True)
class Perspective:
    """A camera at an angle, as its frames show it: a tile's apparent size grows linearly across the frame, from the
    far side to the near one (``w = 1 + g (x - x0) + h (y - y0)``, 1 at ``(x0, y0)``). A frame's points are taken
    to a view from straight above (the same tiles at one size, the table's lines still straight and its parallels
    parallel) by :meth:`unwarped`, and back by :meth:`in_frame`.

    A homography's area scale is its denominator cubed, and the denominator of the frame -> table map is linear in
    the frame's coordinates: the cube root of the tiles' areas, fitted linearly over the frame, is ``w`` up to a
    factor (:meth:`of`).
    """

    x0: float
    y0: float
    g: float
    h: float

    @classmethod
    def of(cls, detections: Sequence[Detection]) -> Perspective | None:
        """The perspective the tiles' sizes show, or None when their sizes vary by less than :data:`TILT` across
        them (a camera straight above), or there are too few (under :data:`PERSPECTIVE_MIN_TILES`)."""
        if len(detections) < PERSPECTIVE_MIN_TILES:
            return None
        centres = np.array([d.box.center for d in detections], float)
        size = np.array([d.box.area for d in detections], float) ** (1 / 3)
        x0, y0 = (float(v) for v in np.median(centres, axis=0))
        design = np.column_stack([np.ones(len(size)), centres[:, 0] - x0, centres[:, 1] - y0])
        keep = np.ones(len(size), bool)
        for _ in range(2):  # fitted again without the sizes far off the fit (a box cut by the frame's edge, a misread)
            coef = np.linalg.lstsq(design[keep], size[keep], rcond=None)[0]
            residual = np.abs(design @ coef - size)
            keep = residual <= max(3 * float(np.median(residual[keep])), 1e-9)
        a, b, c = (float(v) for v in coef)
        if a <= 0:
            return None
        w = 1 + design[:, 1] * b / a + design[:, 2] * c / a
        if w.min() <= 0 or w.max() / w.min() < 1 + TILT:
            return None
        return cls(x0, y0, b / a, c / a)

    def unwarped(self, detections: Sequence[Detection]) -> list[Detection]:
        """The detections as a camera straight above would see them (each box around its corners taken there)."""
        out = []
        for d in detections:
            xs, ys = zip(*(self._up(x, y) for x, y in d.box.corners), strict=True)
            out.append(replace(d, box=Box(min(xs), min(ys), max(xs), max(ys))))
        return out

    def _up(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = x - self.x0, y - self.y0
        w = 1 + self.g * dx + self.h * dy
        return self.x0 + dx / w, self.y0 + dy / w

    def in_frame(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of the view from above (:meth:`unwarped`) where the frame shows it."""
        ux, uy = point[0] - self.x0, point[1] - self.y0
        w = 1 / (1 - self.g * ux - self.h * uy)
        return self.x0 + ux * w, self.y0 + uy * w


#: A tile as :func:`registered_shift` matches it: its class (:mod:`vision.read.labels`) and its box's centre.
Placed = tuple[int, float, float]


def placed(detections: Sequence[Detection]) -> list[Placed]:
    """The detections as :func:`registered_shift` matches them."""
    return [(d.class_id, *d.box.center) for d in detections]


def registered_shift(before: Sequence[Placed], after: Sequence[Placed], unit: float) -> tuple[float, float] | None:
    """The shift (x, y, pixels) that lays ``after``'s tiles on ``before``'s, tile for tile of the same kind, when most
    of them agree on one (:data:`REGISTER_SHARE`, :data:`REGISTER_MIN`); None when they do not (a frame unlike the
    other, an arm over most of the table). ``unit``: a tile's width. Where both frames show enough face-up tiles only
    those count: a wall's face-down stacks moved along the wall lie on each other.

    >>> tiles = [(k % 3, 40.0 * k, 30.0 * (k % 4)) for k in range(12)]
    >>> registered_shift(tiles, [(c, x + 100, y - 20) for c, x, y in tiles], 30.0)
    (100.0, -20.0)
    >>> registered_shift(tiles, [(c, x + 100 * (k % 2), y) for k, (c, x, y) in enumerate(tiles)], 30.0) is None
    True
    """
    if not before or not after:
        return None
    face_up = [[t for t in tiles if t[0] != BACK_CLASS] for tiles in (before, after)]
    if min(len(tiles) for tiles in face_up) >= REGISTER_MIN:
        before, after = face_up
    near = REGISTER_NEAR * unit
    grid: dict[tuple[int, int, int], list[tuple[float, float]]] = defaultdict(list)
    for c, x, y in before:
        grid[c, math.floor(x / near), math.floor(y / near)].append((x, y))
    by_class: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for c, x, y in before:
        by_class[c].append((x, y))
    # the shifts between tiles of one kind, face-up kinds first (few of each), voted for on a grid of ``near``
    pairs = [(c, x, y) for c, x, y in after if len(by_class[c]) <= 4] or list(after[:8])
    votes = Counter((round((x - bx) / near), round((y - by) / near)) for c, x, y in pairs for bx, by in by_class[c])
    best: list[tuple[float, float]] = []
    for cell, _ in votes.most_common(5):
        moved = _moved_by(after, grid, (cell[0] * near, cell[1] * near), near)
        if len(moved) > len(best):
            best = moved
    if len(best) < max(REGISTER_MIN, REGISTER_SHARE * min(len(before), len(after))):
        return None
    return statistics.median(d[0] for d in best), statistics.median(d[1] for d in best)


def _moved_by(
    after: Sequence[Placed],
    grid: dict[tuple[int, int, int], list[tuple[float, float]]],
    shift: tuple[float, float],
    near: float,
) -> list[tuple[float, float]]:
    """The shifts of ``after``'s tiles that find a tile of their kind within ``near`` of where ``shift`` lays them in
    the other frame (``grid``: its tiles by kind and cell of ``near``), the first found for each."""
    dx, dy = shift
    moved = []
    for c, x, y in after:
        gx, gy = math.floor((x - dx) / near), math.floor((y - dy) / near)
        found = [
            (x - bx, y - by)
            for i in (-1, 0, 1)
            for j in (-1, 0, 1)
            for bx, by in grid.get((c, gx + i, gy + j), ())
            if abs(x - dx - bx) <= near and abs(y - dy - by) <= near
        ]
        if found:
            moved.append(found[0])
    return moved


def read_estimated(detections: Sequence[Detection], size: Size | None) -> TableObservation:
    """One frame read about its own estimate of the table's centre: :func:`~vision.read.table.read_table` 's, made
    from the view from straight above when the tiles' sizes show a camera at an angle (:class:`Perspective`): seen at
    an angle, the middle between the near rows and the far ones lies nearer the far ones than their midpoint."""
    perspective = Perspective.of(detections)
    if perspective is None:
        return read_table(detections, size)
    centre = perspective.in_frame(read_table(perspective.unwarped(detections)).centre)
    return read_table(detections, size, centre=centre)


@dataclass
class TableGeometry:
    """The table's centre (x, y, pixels) in one fixed camera's frames; None until taken (the module's docstring).
    ``moves`` counts the times it was taken or moved. Thread-safe: :meth:`observe` one frame at a time.

    >>> from vision.read.geometry import Box
    >>> from vision.read.labels import BACK_CLASS
    >>> def wall(x, y, across):  # 10 face-down stacks, 30 x 40 px (40 x 30 when ``across``)
    ...     w, h = (40, 30) if across else (30, 40)
    ...     return [Detection.of_class(BACK_CLASS, Box(x + i * (w + 1) * (not across), y + i * (h + 1) * across,
    ...             x + i * (w + 1) * (not across) + w, y + i * (h + 1) * across + h), 0.9) for i in range(10)]
    >>> walls = wall(345, 290, False) + wall(345, 670, False) + wall(290, 345, True) + wall(670, 345, True)
    >>> geometry, size = TableGeometry(), Size(height=1000, width=1000)
    >>> [round(v) for v in geometry.observe(walls, size)]  # the walls of a fresh deal: taken at once
    [500, 500]
    >>> bumped = wall(545, 290, False) + wall(545, 670, False) + wall(490, 345, True) + wall(870, 345, True)
    >>> geometry.observe(bumped, size) == geometry.centre  # one frame lying elsewhere: read about the kept centre
    True
    """

    settle: int = SETTLE
    agree: float = AGREE
    centre: tuple[float, float] | None = None
    moves: int = 0
    _pending: list[tuple[float, float]] = field(default_factory=list, repr=False)
    #: The tiles of the last frame read about the kept centre (its own estimate agreeing with it), where a frame
    #: whose tiles all moved by one shift is registered.
    _still: list[Placed] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def observe(self, detections: Sequence[Detection], size: Size | None = None) -> tuple[float, float] | None:
        """The centre to read this frame's ``detections`` about (the frame of ``size``): its own estimate where that
        agrees with the kept centre, or no centre is kept yet; else the kept one (None for a frame with no tile while
        none is kept). The frame counts towards taking or moving the kept centre (the module's docstring)."""
        good = [d for d in detections if d.box.width > 0 and d.box.height > 0]
        if not good:
            return self.centre
        seen = read_estimated(good, size)
        estimate = seen.centre
        unit = statistics.median(min(d.box.width, d.box.height) for d in good)
        near = self.agree * unit
        tiles = placed(good)
        with self._lock:
            kept = self.centre
            if kept is None and _walled(seen):  # a fresh deal's walls square the table: taken at once
                return self._take(estimate, tiles)
            shift = registered_shift(self._still, tiles, unit) if kept is not None else None
            if kept is not None and shift is not None and math.hypot(*shift) > MOVED * unit:
                # the tiles all moved as one (the camera knocked, the table pushed): the table lies there now
                return self._take((kept[0] + shift[0], kept[1] + shift[1]), tiles)
            if kept is not None and _apart(estimate, kept) <= near:
                self._pending.clear()  # this frame agrees with the kept centre: its own estimate is finer, if near
                self._still = tiles
                return estimate if _apart(estimate, kept) <= FINER * unit else kept
            if kept is not None and (shift is not None or _reads_as_well(good, size, kept, seen)):
                # the tiles lie where they lay (the estimate is off), or no evidence either way (an arm, a misread)
                return kept
            # the last few frames that lay elsewhere (an arm frame between them does not break a run)
            self._pending = [*self._pending, estimate][-(2 * self.settle - 1) :]
            close = [p for p in self._pending if _apart(p, estimate) <= near]
            if len(close) >= self.settle:
                middle = statistics.median(p[0] for p in close), statistics.median(p[1] for p in close)
                return self._take(middle, tiles)
            return kept if kept is not None else estimate

    def _take(self, centre: tuple[float, float], tiles: list[Placed]) -> tuple[float, float]:
        """Keep ``centre`` (taken or moved) and the frame's ``tiles`` as the still frame a later one is registered on.
        Call with the lock held."""
        self.centre = centre
        self.moves += 1
        self._pending.clear()
        self._still = tiles
        return centre

    def reset(self) -> None:
        """Forget the centre (the camera's frames are now turned or cropped otherwise)."""
        with self._lock:
            self.centre = None
            self._pending.clear()
            self._still = []
