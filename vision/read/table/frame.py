"""Tiles in one seat's frame and the rows they make there.

A detection seen from a seat (:func:`_span`) has *along* (left to right as that player sees it) and *depth* (from
the table's centre out towards the player); :func:`_rows` chains neighbours along the seat's axis into rows, ordered
centre outwards, each left to right. The helpers measure a row in tile widths (:func:`_unit`, :func:`_gaps`) and
find its sideways tiles (:func:`_sideways`).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from vision.read.detector import Detection
from vision.read.geometry import linked_groups
from vision.read.table.observation import FrameSide

#: A tile is sideways when its along/depth ratio is at least 1 and this many times its row neighbours' ratio.
SIDEWAYS_RATIO = 1.3
#: Tiles within this share of a diagonal (second depth / first depth) are contested by two seats.
CONTESTED = 0.6


@dataclass(frozen=True, slots=True)
class _Span:
    """A detection in one seat's frame: along (left to right for that player) and depth (centre outwards)."""

    index: int
    a0: float
    a1: float
    d0: float
    d1: float

    @property
    def along(self) -> float:
        return self.a1 - self.a0

    @property
    def deep(self) -> float:
        return self.d1 - self.d0

    @property
    def ratio(self) -> float:
        return self.along / self.deep


def _span(index: int, det: Detection, side: FrameSide, centre: tuple[float, float]) -> _Span:
    b, (cx, cy) = det.box, centre
    x0, x1, y0, y1 = b.x1 - cx, b.x2 - cx, b.y1 - cy, b.y2 - cy
    if side is FrameSide.BOTTOM:
        return _Span(index, x0, x1, y0, y1)
    if side is FrameSide.RIGHT:
        return _Span(index, -y1, -y0, x0, x1)
    if side is FrameSide.TOP:
        return _Span(index, -x1, -x0, -y1, -y0)
    return _Span(index, y0, y1, -x1, -x0)


def _depths(det: Detection, centre: tuple[float, float]) -> list[float]:
    """How far out the tile's centre lies for each seat (bottom, right, top, left)."""
    x, y = det.box.center
    dx, dy = x - centre[0], y - centre[1]
    return [dy, dx, -dy, -dx]


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _joins(a: _Span, b: _Span, gap: float, share: float) -> bool:
    """Whether two tiles are neighbours in one row: they overlap in depth and lie close along."""
    if _overlap(a.d0, a.d1, b.d0, b.d1) < share * min(a.deep, b.deep):
        return False
    return max(a.a0, b.a0) - min(a.a1, b.a1) <= gap * max(min(a.along, a.deep), min(b.along, b.deep))


def _rows(spans: Sequence[_Span], gap: float = 2.0, share: float = 0.5) -> list[list[_Span]]:
    """Rows along the seat's axis: chains of neighbours, then chains at one depth joined (a meld set apart)."""
    groups = _at_one_depth(_chains(spans, gap, share), share)
    for g in groups:
        g.sort(key=lambda s: s.a0 + s.a1)
    groups.sort(key=_depth)
    return groups


def _chains(spans: Sequence[_Span], gap: float, share: float) -> list[list[_Span]]:
    """Chains of neighbours (:func:`_joins`), each in the order of ``spans``."""
    groups = linked_groups(len(spans), lambda i, j: _joins(spans[i], spans[j], gap, share))
    return [[spans[i] for i in group] for group in groups]


def _at_one_depth(groups: list[list[_Span]], share: float) -> list[list[_Span]]:
    """``groups`` with any two that overlap in depth by ``share`` of the shallower joined, one pair at a time (the
    first pair found each time), until none do."""
    merged = True
    while merged:
        merged = _join_first_pair(groups, share)
    return groups


def _join_first_pair(groups: list[list[_Span]], share: float) -> bool:
    """Join the first two groups that overlap in depth (the second into the first); whether any did."""
    for gi in range(len(groups)):
        for gj in range(gi + 1, len(groups)):
            a0, a1 = _extent(groups[gi])
            b0, b1 = _extent(groups[gj])
            if _overlap(a0, a1, b0, b1) >= share * min(a1 - a0, b1 - b0):
                groups[gi] = groups[gi] + groups.pop(gj)
                return True
    return False


def _extent(row: Sequence[_Span]) -> tuple[float, float]:
    return statistics.median(s.d0 for s in row), statistics.median(s.d1 for s in row)


def _depth(row: Sequence[_Span]) -> float:
    return statistics.median((s.d0 + s.d1) / 2 for s in row)


def _unit(row: Sequence[_Span]) -> float:
    """A tile's width along this row (pixels): the same for tiles lying and standing (seen from above a standing
    tile is shallow, not narrow); the few sideways tiles do not move the median."""
    return statistics.median(s.along for s in row)


def _gaps(row: Sequence[_Span]) -> list[float]:
    """The gap before each tile of a row (in tile widths; 0 before the first)."""
    unit = _unit(row)
    return [0.0] + [(row[j].a0 - row[j - 1].a1) / unit for j in range(1, len(row))]


def _sideways(row: Sequence[_Span]) -> list[bool]:
    """Which tiles of a row (in along order) lie across it: wide where their neighbours are deep."""
    out = []
    for i, s in enumerate(row):
        near = [row[j].ratio for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < len(row)]
        if not near:
            out.append(s.ratio >= 1.2)
            continue
        out.append(s.ratio >= 1.0 and s.ratio >= SIDEWAYS_RATIO * statistics.median(near))
    return out
