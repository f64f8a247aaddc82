"""A fixed camera's table geometry, kept from frame to frame: where the table's centre lies in its frames.

    geometry = TableGeometry()                          # one per camera, kept from frame to frame
    centre = geometry.observe(detections, size)         # the centre to read this frame about
    table = read_table(detections, size, centre=centre)

:func:`~vision.read.table.read_table` estimates the centre from each frame's tiles alone, and a frame can mislead
it: an arm over a seat's tiles hides half a row, a hand is laid open at one seat only, two walls drawn away leave
the ponds' first tiles to place it. A camera over a table stays put, so the centre is taken from a frame that shows
the walls (a fresh deal: their square places it), or once the estimates of :data:`SETTLE` frames agree (within
:data:`AGREE` tile widths), then kept: a frame whose estimate agrees with it is read about that estimate (finer, by a
pixel or two: a frame reads as ``read_table`` alone reads it), one whose estimate lies elsewhere about the kept
centre. It moves with the tiles: when most tiles of a frame lie shifted together from where the frame before showed
them (:func:`camera_shift`: a camera knocked, the table pushed), by that shift at once. Otherwise (the camera moved
while nothing was read) only when :data:`SETTLE` frames agree on a new place and the kept centre reads each of them
clearly worse than that place (:data:`WORSE_BY` more tiles fitting no seat's rows); a frame whose estimate agrees
with the kept centre clears that count. Until a centre
is taken each frame is read about its own estimate, as ``read_table`` alone reads it. The camera's reader keeps one
(:class:`~vision.read.pipeline.Reader`); :meth:`TableGeometry.reset` forgets it (the frame itself turned).
"""

from __future__ import annotations

import statistics
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.read.detector import Detection
from vision.read.geometry import Size
from vision.read.table import TableObservation, read_table

#: Frames whose estimates agree before the centre is taken, or moved (among the last ``2 * SETTLE - 1`` frames that
#: lay elsewhere: an arm frame between them does not break the run).
SETTLE = 3
#: Estimates within this many tile widths of each other agree.
AGREE = 1.0
#: Face-down stacks a seat's wall shows for a frame's walls to place the centre at once.
WALL_STACKS = 5
#: Tiles more fitting no seat's rows about the kept centre than about a frame's own estimate, for that frame to
#: count towards moving it: one or two are as often a wall drawn down to a stack by a corner, which the kept centre
#: reads right and a wrong estimate of the same frames hides.
WORSE_BY = 2
#: A camera's shift between two frames is looked for within this many tile widths ...
SEARCH = 6.0
#: ... and taken when this share of the tiles both frames could show moved by it together ...
RIGID = 0.6
#: ... and at least this many.
MIN_SHARED = 8


def _apart(a: tuple[float, float], b: tuple[float, float]) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def _reads_as_well(
    detections: Sequence[Detection], size: Size | None, kept: tuple[float, float], seen: TableObservation
) -> bool:
    """Whether a frame read about the ``kept`` centre leaves fewer than :data:`WORSE_BY` tiles more fitting nowhere
    than about its own estimate (``seen``). A reading only otherwise is no evidence: an estimate can be wrong the
    same way frame after frame (a meld at one seat, a pond's first tiles with the walls drawn away drag it), and
    would move a right centre."""
    return len(read_table(detections, size, centre=kept).unassigned) < len(seen.unassigned) + WORSE_BY


def camera_shift(
    before: Sequence[Detection], after: Sequence[Detection], unit: float
) -> tuple[float, float] | None:
    """How far the whole table moved in the frame (dx, dy pixels) between two frames' tiles, when most of them moved
    together (a camera knocked, the table pushed); None when they stayed put or agree on no shift.

    Each shift a tile of ``after`` and a tile of ``before`` of the same class within :data:`SEARCH` tile widths
    propose is scored by the tiles of ``after`` it carries onto a tile of the same class in ``before`` (within a
    quarter of a tile); the best is taken when it carries at least :data:`RIGID` of the tiles the two frames could
    share (an arm hides some, a discard adds one) and clearly more than staying put does.

    >>> from vision.read.geometry import Box
    >>> row = [Detection.of_class(k % 34, Box(40 * k, 100, 40 * k + 30, 140), 0.9) for k in range(12)]
    >>> moved = [Detection.of_class(d.class_id, Box(d.box.x1 + 70, d.box.y1 - 20, d.box.x2 + 70, d.box.y2 - 20), 0.9)
    ...          for d in row]
    >>> camera_shift(row, moved, 30.0), camera_shift(row, row[:-1], 30.0)
    ((70.0, -20.0), None)
    """
    if min(len(before), len(after)) < MIN_SHARED:
        return None
    old = np.array([d.box.center for d in before], dtype=np.float64)
    new = np.array([d.box.center for d in after], dtype=np.float64)
    old_class = np.array([d.class_id for d in before])
    new_class = np.array([d.class_id for d in after])
    same = new_class[:, None] == old_class[None, :]
    offsets = new[:, None, :] - old[None, :, :]  # after - before, for every pair
    near = same & (np.hypot(offsets[..., 0], offsets[..., 1]) <= SEARCH * unit)
    faces = [i for i, d in enumerate(after) if not d.is_back] or list(range(len(after)))
    candidates = {(0.0, 0.0)} | {tuple(offsets[i, j]) for i in faces[:: max(1, len(faces) // 24)] for j in np.flatnonzero(near[i])}

    def carried(shift: tuple[float, float]) -> int:
        gap = np.hypot(offsets[..., 0] - shift[0], offsets[..., 1] - shift[1])
        return int(np.count_nonzero((same & (gap <= 0.25 * unit)).any(axis=1)))

    scored = {c: carried(c) for c in candidates}
    best = max(scored, key=lambda c: (scored[c], -np.hypot(*c)))
    if np.hypot(*best) < 0.25 * unit:
        return None
    if scored[best] < max(MIN_SHARED, RIGID * min(len(before), len(after))) or scored[best] < 2 * scored[(0.0, 0.0)]:
        return None
    gap = np.hypot(offsets[..., 0] - best[0], offsets[..., 1] - best[1])
    pairs = np.argwhere(same & (gap <= 0.25 * unit))
    moved = offsets[pairs[:, 0], pairs[:, 1]]
    return float(np.median(moved[:, 0])), float(np.median(moved[:, 1]))


def _walled(table: TableObservation) -> bool:
    """Whether a table read shows walls of :data:`WALL_STACKS` or more stacks at three seats or four and no tile
    fitting nowhere: the walls' square places the centre (a fresh deal, before any pond; the deal takes its tiles
    from one wall, which may be gone)."""
    return not table.unassigned and sum(s.wall_backs >= WALL_STACKS for s in table.seats) >= 3


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
    _previous: Sequence[Detection] = field(default=(), repr=False)  # the tiles of the frame before
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def observe(self, detections: Sequence[Detection], size: Size | None = None) -> tuple[float, float] | None:
        """The centre to read this frame's ``detections`` about (the frame of ``size``): its own estimate where that
        agrees with the kept centre, or no centre is kept yet; else the kept one (None for a frame with no tile while
        none is kept). The frame counts towards taking or moving the kept centre (the module's docstring)."""
        good = [d for d in detections if d.box.width > 0 and d.box.height > 0]
        if not good:
            return self.centre
        seen = read_table(good, size)
        estimate = seen.centre
        unit = statistics.median(min(d.box.width, d.box.height) for d in good)
        near = self.agree * unit
        with self._lock:
            kept = self.centre
            shift = camera_shift(self._previous, good, unit) if kept is not None else None
            self._previous = good
            if kept is not None and shift is not None:  # the tiles moved together: the camera (or table) moved
                kept = self.centre = (kept[0] + shift[0], kept[1] + shift[1])
                self.moves += 1
                self._pending.clear()
            if kept is None and _walled(seen):  # a fresh deal's walls square the table: taken at once
                self.centre, self.moves = estimate, self.moves + 1
                self._pending.clear()
                return estimate
            if kept is not None and _apart(estimate, kept) <= near:
                self._pending.clear()  # this frame agrees with the kept centre: its own estimate is finer
                return estimate
            if kept is not None and _reads_as_well(good, size, kept, seen):
                return kept  # no evidence either way (an arm over the table, a misread)
            # the last few frames that lay elsewhere (an arm frame between them does not break a run)
            self._pending = [*self._pending, estimate][-(2 * self.settle - 1) :]
            close = [p for p in self._pending if _apart(p, estimate) <= near]
            if len(close) >= self.settle:
                self.centre = statistics.median(p[0] for p in close), statistics.median(p[1] for p in close)
                self.moves += 1
                self._pending.clear()
                return self.centre
            return kept if kept is not None else estimate

    def reset(self) -> None:
        """Forget the centre (the camera's frames are now turned or cropped otherwise)."""
        with self._lock:
            self.centre = None
            self._pending.clear()
            self._previous = ()
