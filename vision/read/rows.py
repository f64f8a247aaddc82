"""Reading detections as a person reads a hand: rows from top to bottom, tiles left to right in each row.

A photo of a hand shows one row (or a few: the hand, a row of melds, the discards). Tiles of one row overlap
vertically; a row photographed at a slant drifts up or down along its length, so rows are grown by chaining
neighbours (a tile joins the row of the tile beside it) and then chains that share a height are joined (a meld set
apart from the hand is still on the hand's row). The mpsz text has one group per row, separated by spaces; face-down
tiles are counted, not written.

>>> from engine.tiles import Tile
>>> from vision.read.geometry import Box, linked_groups
>>> from vision.read.labels import class_of_tile
>>> def tile(text, x, y, w=30, h=40):
...     return Detection.of_class(class_of_tile(Tile.parse(text)), Box(x, y, x + w, y + h), 0.9)
>>> dets = [tile("3m", 70, 102), tile("1m", 0, 100), tile("2m", 35, 98), tile("7z", 300, 100), tile("5p", 10, 200)]
>>> read_tiles(dets).text
'123m7z 5p'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.tiles import Tile, format_tiles
from vision.read.detector import Detection
from vision.read.geometry import Box, linked_groups


def face_up(detections: Iterable[Detection]) -> tuple[Tile, ...]:
    """The face-up tiles among ``detections``, in their order."""
    return tuple(d.tile for d in detections if d.tile is not None)


def count_backs(detections: Iterable[Detection]) -> int:
    """How many of ``detections`` are face down (or seen from behind)."""
    return sum(d.is_back for d in detections)


class TileRun:
    """Mixin for a run of detections in reading order (a row here, a meld in :mod:`vision.read.table`)."""

    __slots__ = ()
    detections: tuple[Detection, ...]

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The face-up tiles, left to right."""
        return face_up(self.detections)

    @property
    def backs(self) -> int:
        return count_backs(self.detections)

    @property
    def text(self) -> str:
        """The face-up tiles as mpsz, in reading order (not sorted)."""
        return format_tiles(self.tiles)


@dataclass(frozen=True, slots=True)
class Row(TileRun):
    """One row of tiles in reading order (left to right), face-down tiles included."""

    detections: tuple[Detection, ...]


@dataclass(frozen=True, slots=True)
class Rows:
    """What a frame shows, row by row from the top (the whole reading, with how it was read:
    :class:`vision.read.pipeline.Reading`)."""

    rows: tuple[Row, ...]

    @property
    def text(self) -> str:
        """One mpsz group per row that has face-up tiles, separated by spaces."""
        return " ".join(row.text for row in self.rows if row.tiles)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for row in self.rows for t in row.tiles)

    @property
    def backs(self) -> int:
        return sum(row.backs for row in self.rows)


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def read_tiles(detections: Sequence[Detection], *, gap: float = 1.0, share: float = 0.5) -> Rows:
    """Group detections into rows and order them for reading.

    Two tiles are neighbours in a row when they overlap vertically by at least ``share`` of the shorter one and
    the horizontal gap between them is at most ``gap`` times the wider one. Rows whose vertical extents (median top
    to median bottom) overlap by ``share`` of the shorter are one row.
    """
    dets = list(detections)
    n = len(dets)
    if n == 0:
        return Rows(())
    boxes = _upright_boxes(dets)

    def neighbours(i: int, j: int) -> bool:
        a, b = boxes[i], boxes[j]
        if _overlap(a.y1, a.y2, b.y1, b.y2) < share * min(a.height, b.height):
            return False
        return max(a.x1, b.x1) - min(a.x2, b.x2) <= gap * max(a.width, b.width)

    groups = linked_groups(n, neighbours)
    # join chains that sit at one height (a meld set apart from the hand)
    extents = [_extent(boxes, g) for g in groups]  # kept beside the groups: only a merged group's extent changes
    merged = True
    while merged:
        merged = False
        for gi in range(len(groups)):
            for gj in range(gi + 1, len(groups)):
                (a0, a1), (b0, b1) = extents[gi], extents[gj]
                if _overlap(a0, a1, b0, b1) >= share * min(a1 - a0, b1 - b0):
                    groups[gi] = groups[gi] + groups.pop(gj)
                    extents.pop(gj)
                    extents[gi] = _extent(boxes, groups[gi])
                    merged = True
                    break
            if merged:
                break
    groups.sort(key=lambda g: statistics.median(boxes[i].center[1] for i in g))
    rows = tuple(Row(tuple(dets[i] for i in sorted(g, key=lambda i: boxes[i].center[0]))) for g in groups)
    return Rows(rows)


def _upright_boxes(dets: Sequence[Detection]) -> list[Box]:
    """The detections' boxes as the rows run: where most tiles were read turned (:mod:`vision.read.views.turned_tiles`),
    each box turned back by their median turn, and bounded upright again (a little larger than the tile, which only
    loosens what counts as a neighbour; a quarter turn swaps its sides)."""
    turn = typical_turn([d.turn for d in dets])
    if turn == 0:
        return [d.box for d in dets]
    a = math.radians(turn)
    cos, sin = math.cos(a), math.sin(a)
    out = []
    for d in dets:
        (x, y), w, h = d.box.center, d.box.width, d.box.height
        # undo a counter-clockwise turn as the image shows it (y points down)
        ux, uy = x * cos - y * sin, x * sin + y * cos
        uw, uh = w * abs(cos) + h * abs(sin), w * abs(sin) + h * abs(cos)
        out.append(Box(ux - uw / 2, uy - uh / 2, ux + uw / 2, uy + uh / 2))
    return out


def typical_turn(turns: Sequence[float]) -> float:
    """The median of ``turns`` (degrees) taken round the circle: about their mean direction, so that tiles read a
    half turn round, some at 179 and some at -179 degrees, are read at 180 and not at 0.

    >>> typical_turn([0.0, 0.0, 12.0]), typical_turn([179.0, -179.0, 178.0]), typical_turn([-170.0, 175.0])
    (0.0, 179.0, -177.5)
    """
    if not turns or all(t == 0 for t in turns):
        return 0.0
    a = np.radians(np.asarray(turns, np.float64))
    mean = float(np.degrees(np.arctan2(np.sin(a).sum(), np.cos(a).sum())))
    off = (np.asarray(turns, np.float64) - mean + 180.0) % 360.0 - 180.0
    return round(float(mean + np.median(off)), 6) + 0.0  # rounding off the trigonometry's last bits


def _extent(boxes, group: list[int]) -> tuple[float, float]:
    # statistics' median of a few numbers: np.median's value, without its cost of an array a call
    return statistics.median(boxes[i].y1 for i in group), statistics.median(boxes[i].y2 for i in group)
