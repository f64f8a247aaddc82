"""Where the table's centre lies in the frame, from the tiles alone: :func:`estimate_centre` (between opposite
seats' outer rows, or from the seats beside, or from the walls' square), and the middle of the tiles' extent
(:func:`tiles_middle`, :func:`within_tiles`) that bounds it.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from vision.read.detector import Detection
from vision.read.table.frame import CONTESTED, _depths, _joins, _span
from vision.read.table.kinds import WALL_BACKS
from vision.read.table.observation import _SIDES, FrameSide

#: Walls along x and along y whose stack pitches differ by less than this share are as long (an overhead camera, its
#: boxes a pixel or two off).
SAME_PITCH = 0.03
#: The table's centre lies in this middle share of the tiles' extent on each axis (see :func:`within_tiles`) ...
CENTRE_BOUND = 0.6
#: ... when this many tiles or more are seen (a whole table: fewer are a corner or a close-up, whose middle says
#: nothing of the table's).
WHOLE_TABLE = 24
#: Two wall stacks whose centres lie at most this many stack lengths apart along the row are side by side (the
#: next but one lies two lengths off).
ADJACENT_STACKS = 1.5
#: Opposite walls' lines lie this many stack pitches apart (a wall is 17 stacks long and the four are pushed into a
#: square about that long; a table's rim or an automatic table's edge boxed as a row of backs lies much farther out).
WALLS_APART = (14.0, 21.0)


def _percentile(values: Sequence[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, max(0, round(q * (len(v) - 1))))]


def estimate_centre(detections: Sequence[Detection], rounds: int = 12) -> tuple[float, float]:
    """The table centre (x, y) in pixels: the middle of the tiles, refined from opposite seats.

    Along each axis the centre lies midway between the outer rows of the two seats across it (left and right give
    x; two walls however short one is); where one of them is missing, or the two disagree with the seats beside it
    by more than two tiles, at the middle of the seats beside it (their rows are centred on it, give or take the
    melds). Where one of them is missing and the other and both seats beside show walls (:func:`_wall_row`: the
    outermost row of lying stacks, whatever lies beyond it), the walls' square places it: as far in from that wall's
    line as the walls beside lie from each other's middle (walls shrink
    from one end as tiles are drawn, so their middles may be tiles off the table's axis; early in a hand only walls
    may be seen), that distance scaled by the walls' stack pitches across the two axes (:func:`_depth_per_width`: a
    camera at an angle shows the table's depth shorter than its width).
    """
    if not detections:
        raise ValueError("no detections to find a table centre in")
    centre = tiles_middle(detections)
    unit = statistics.median(min(d.box.width, d.box.height) for d in detections)
    for _ in range(rounds):
        cx, cy = _centre_round(detections, centre, unit)
        moved = abs(cx - centre[0]) + abs(cy - centre[1])
        centre = (cx, cy)
        if moved < 0.5:
            break
    return centre


@dataclass(frozen=True, slots=True)
class _Axis:
    """An image axis and the seats across it (the one at its low end, then the one at its high end)."""

    index: int
    low: FrameSide
    high: FrameSide


_X = _Axis(0, FrameSide.LEFT, FrameSide.RIGHT)
_Y = _Axis(1, FrameSide.TOP, FrameSide.BOTTOM)


@dataclass(frozen=True, slots=True)
class _Seen:
    """The tiles about a centre, seat by seat: each one's centre point, those surely that seat's
    (:func:`_settled`), and the detections."""

    points: dict[FrameSide, list[tuple[float, float]]]
    sure: dict[FrameSide, list[tuple[float, float]]]
    dets: dict[FrameSide, list[Detection]]

    @classmethod
    def about(cls, detections: Sequence[Detection], centre: tuple[float, float]) -> _Seen:
        seen = cls({s: [] for s in FrameSide}, {s: [] for s in FrameSide}, {s: [] for s in FrameSide})
        for d, (k, certain) in zip(detections, _settled(detections, centre), strict=True):
            seen.points[_SIDES[k]].append(d.box.center)
            seen.dets[_SIDES[k]].append(d)
            if certain:
                seen.sure[_SIDES[k]].append(d.box.center)
        return seen

    def both(self, axis: _Axis) -> bool:
        """Whether both seats across ``axis`` surely show enough tiles (:func:`_both`)."""
        return _both(self.sure[axis.low], self.sure[axis.high])

    def walls(self, centre: tuple[float, float], unit: float) -> dict[FrameSide, list[Detection]]:
        """Each seat's wall (:func:`_wall_row`), for the seats that surely show three tiles or more and a wall."""
        return {
            s: row for s in FrameSide if len(self.sure[s]) >= 3 and (row := _wall_row(self.dets[s], s, centre, unit))
        }


def _centre_round(detections: Sequence[Detection], centre: tuple[float, float], unit: float) -> tuple[float, float]:
    """One round of :func:`estimate_centre`: the centre placed anew from the tiles' seats about ``centre``."""
    seen = _Seen.about(detections, centre)
    walls = seen.walls(centre, unit)
    off = _off_square(seen, walls, centre, unit)
    if off:
        detections = [d for d in detections if id(d) not in off]
        seen = _Seen.about(detections, centre)
        walls = seen.walls(centre, unit)
    # each axis two ways: between the outer rows of the seats across it (precise when both show the same kind of
    # row: two hands, or two walls), and at the middle of the seats beside it (within about a tile) (two opposite
    # walls lie as far out as each other however short one is: a wall drawn down to a few stacks by a corner is no
    # neighbour's row end, which lies across this seat's axis)
    walled = {s for s in FrameSide if len(seen.sure[s]) >= 3 and _outer_is_wall(seen.dets[s], s, centre, unit)}
    across = {axis: _across(seen, axis, walled) for axis in (_X, _Y)}
    beside = {axis: _beside(seen, axis, other, centre) for axis, other in ((_X, _Y), (_Y, _X))}
    # the walls' square, from the lines the walls lie on (the rows of stacks, whatever lies beyond them: a standing
    # hand's top edges read as tiles, a hand laid open)
    line = {s: _line(row, s) for s, row in walls.items()}
    for axis, other in ((_Y, _X), (_X, _Y)):
        if across[axis] is None and across[other] is not None and {other.low, other.high} <= walls.keys():
            half = (line[other.high] - line[other.low]) / 2
            # that distance along the other axis, as long along this one
            scale = _depth_per_width(walls, centre, unit)
            half = half * scale if axis is _Y else half / scale
            if axis.high in walls and not seen.both(axis):
                beside[axis] = line[axis.high] - half
            elif axis.low in walls and not seen.both(axis):
                beside[axis] = line[axis.low] + half
    # two walls outermost lie as far out as each other: the seats beside (a wall drawn short, a hand unseen) do not
    # overrule them
    for axis in (_X, _Y):
        if {axis.low, axis.high} <= walled:
            beside[axis] = None
    return (
        _pick(across[_X], beside[_X], centre[0], unit),
        _pick(across[_Y], beside[_Y], centre[1], unit),
    )


def _off_square(
    seen: _Seen, walls: dict[FrameSide, list[Detection]], centre: tuple[float, float], unit: float
) -> set[int]:
    """The ids of the detections in a row of backs that lies where no wall can (a table's rim, a slot's edge): of two
    opposite walls (:func:`_wall_row`) lying nearer or farther apart than :data:`WALLS_APART` stack pitches, the one
    whose line lies farther from where a wall belongs, as far out from the middle of the seats beside as half the
    square (both, without seats beside to place that middle). ``walls``: the seats' walls (:meth:`_Seen.walls`)."""
    off: set[int] = set()
    for axis, other in ((_X, _Y), (_Y, _X)):
        if not {axis.low, axis.high} <= walls.keys():
            continue
        # the walls beside lie along this axis: their stacks' pitch is measured the way the pair lies apart
        pitches = [p for s in (other.low, other.high) if s in walls and (p := _stack_pitch(walls[s], s, unit))]
        pitch = statistics.mean(pitches) if pitches else unit
        low, high = _line(walls[axis.low], axis.low), _line(walls[axis.high], axis.high)
        if WALLS_APART[0] <= (high - low) / pitch <= WALLS_APART[1]:
            continue
        middle = _beside(seen, axis, other, centre)
        half = sum(WALLS_APART) / 4 * pitch
        if middle is None:
            dropped = [axis.low, axis.high]
        else:
            dropped = [max((axis.low, axis.high), key=lambda s: abs(abs(_line(walls[s], s) - middle) - half))]
        off |= {id(d) for s in dropped for d in walls[s]}
    return off


def _across(seen: _Seen, axis: _Axis, walled: set[FrameSide]) -> float | None:
    """The centre along ``axis`` midway between the outer rows of the seats across it, when both show enough tiles
    or both show a wall outermost; None otherwise."""
    if not (seen.both(axis) or {axis.low, axis.high} <= walled):
        return None
    low = _percentile([p[axis.index] for p in seen.points[axis.low]], 0.1)
    high = _percentile([p[axis.index] for p in seen.points[axis.high]], 0.9)
    return (low + high) / 2


def _beside(seen: _Seen, axis: _Axis, other: _Axis, centre: tuple[float, float]) -> float | None:
    """The centre along ``axis`` at the middle of the outer rows of the seats beside it (those across ``other``),
    when they show three tiles or more; None otherwise."""
    if len(seen.points[other.low]) + len(seen.points[other.high]) < 3:
        return None
    return statistics.median(p[axis.index] for p in _outer(seen.points, (other.low, other.high), centre))


def _settled(dets: Sequence[Detection], centre: tuple[float, float]) -> list[tuple[int, bool]]:
    """Each detection's deepest seat (0..3) and whether it surely is that seat's: away from a diagonal, or beside
    another of that seat's tiles along that seat's axis. Near a diagonal a tile may be the end of a neighbour's row,
    but such ends lie one behind the other in this seat's frame; a row along it is this seat's (a wall drawn down to
    a few stacks lies at its far end, by the corner, and would otherwise leave its seat looking empty)."""
    seat, sure = [], []
    for d in dets:
        depths = _depths(d, centre)
        order = sorted(range(4), key=lambda k: -depths[k])
        seat.append(order[0])
        sure.append(depths[order[1]] <= CONTESTED * depths[order[0]])
    spans = [_span(i, d, _SIDES[seat[i]], centre) for i, d in enumerate(dets)]
    for i in range(len(dets)):
        if not sure[i]:
            sure[i] = any(
                j != i and seat[j] == seat[i] and _joins(spans[i], spans[j], 2.0, 0.5) for j in range(len(dets))
            )
    return list(zip(seat, sure, strict=True))


def _outer_row(dets: Sequence[Detection], side: FrameSide, centre: tuple[float, float], unit: float) -> list[Detection]:
    """A seat's outer row: its tiles within a tile of its farthest."""
    if not dets:
        return []
    depth = [_depths(d, centre)[side.turns] for d in dets]
    far = _percentile(depth, 0.9)
    return [d for d, x in zip(dets, depth, strict=True) if x >= far - unit]


def _is_wall(row: Sequence[Detection], side: FrameSide, centre: tuple[float, float]) -> bool:
    """Whether a row of a seat's tiles is a wall: three or more, mostly face down (:data:`WALL_BACKS`) and lying
    (deeper than wide in that seat's frame; a hand standing seen from behind shows shallow boxes)."""
    if len(row) < 3:
        return False
    backs = sum(d.is_back for d in row)
    spans = [_span(0, d, side, centre) for d in row]
    return backs >= WALL_BACKS * len(row) and statistics.median(1 / s.ratio for s in spans) >= 1.1


def _outer_is_wall(dets: Sequence[Detection], side: FrameSide, centre: tuple[float, float], unit: float) -> bool:
    """Whether a seat's outer row (:func:`_outer_row`) is a wall (:func:`_is_wall`)."""
    return len(dets) >= 3 and _is_wall(_outer_row(dets, side, centre, unit), side, centre)


def _wall_row(dets: Sequence[Detection], side: FrameSide, centre: tuple[float, float], unit: float) -> list[Detection]:
    """A seat's wall: its outermost row (tiles within a tile's width in depth) that is a wall (:func:`_is_wall`); []
    when it shows none. Rows beyond it are passed over (a standing hand's top edges boxed as tiles,
    a hand laid open)."""
    depth = [_depths(d, centre)[side.turns] for d in dets]
    left = sorted(range(len(dets)), key=lambda i: -depth[i])
    while len(left) >= 3:
        far = depth[left[0]]
        row = [dets[i] for i in left if depth[i] >= far - unit]
        if _is_wall(row, side, centre):
            return row
        left = [i for i in left if depth[i] < far - unit]
    return []


def _line(row: Sequence[Detection], side: FrameSide) -> float:
    """Where a seat's row lies across its axis: the median of its tiles' y (bottom, top) or x (left, right)."""
    axis = 0 if side in (FrameSide.LEFT, FrameSide.RIGHT) else 1
    return statistics.median(d.box.center[axis] for d in row)


def _stack_pitch(wall: Sequence[Detection], side: FrameSide, unit: float) -> float | None:
    """The spacing of a seat's wall stacks along its row: the median gap between stacks side by side (a face-up
    indicator on its stack counted once); None for a wall showing fewer than three such gaps. Stacks touch, so a gap
    much longer than a stack is long along the row passes over stacks unread, or outside the row found: it is no
    pitch (the pitches' ratio sizes the table's depth, :func:`_depth_per_width`)."""
    axis = 1 if side in (FrameSide.LEFT, FrameSide.RIGHT) else 0
    along = sorted(d.box.center[axis] for d in wall)
    length = statistics.median(d.box.height if axis else d.box.width for d in wall)
    gaps = [b - a for a, b in itertools.pairwise(along) if 0.3 * unit < b - a <= ADJACENT_STACKS * length]
    return statistics.median(gaps) if len(gaps) >= 3 else None


def _depth_per_width(walls: dict[FrameSide, list[Detection]], centre: tuple[float, float], unit: float) -> float:
    """How long a length along y looks against the same along x: the stack pitch of the walls lying along y over
    that of those along x (1 without a wall each way). A camera at an angle foreshortens the table's depth, and the
    view from straight above the tiles' sizes give (:class:`vision.read.table.geometry.Perspective`) keeps that;
    within :data:`SAME_PITCH` of 1, 1."""

    def pitch(sides: tuple[FrameSide, FrameSide]) -> float | None:
        found = [p for s in sides if s in walls and (p := _stack_pitch(walls[s], s, unit)) is not None]
        return statistics.mean(found) if found else None

    along_y, along_x = pitch((FrameSide.LEFT, FrameSide.RIGHT)), pitch((FrameSide.TOP, FrameSide.BOTTOM))
    ratio = along_y / along_x if along_y and along_x else 1.0
    return 1.0 if abs(ratio - 1) < SAME_PITCH else ratio


def _pick(across: float | None, beside: float | None, before: float, unit: float) -> float:
    """The centre along one axis: between the seats across it, unless the seats beside it put it more than two
    tiles away (one side's hand unseen: its wall was taken for its outer row)."""
    if across is not None and (beside is None or abs(across - beside) <= 2 * unit):
        return across
    return beside if beside is not None else before


def _both(a: list, b: list) -> bool:
    """Whether two opposite seats both show enough tiles to place the centre between them (a handful at one
    side are more likely the ends of its neighbours' rows)."""
    return min(len(a), len(b)) >= max(3.0, 0.3 * max(len(a), len(b)))


def _outer(
    by_side: dict[FrameSide, list[tuple[float, float]]], sides: tuple[FrameSide, ...], centre: tuple[float, float]
) -> list[tuple[float, float]]:
    """The points of these seats lying at least half as far out as their outer rows: hands and walls, which are
    centred on the table's axis (a neighbour's pond tiles taken for a seat's own lie nearer the centre)."""
    out = []
    for side in sides:
        points = by_side[side]
        if not points:
            continue
        depth = [[p[1] - centre[1], p[0] - centre[0], centre[1] - p[1], centre[0] - p[0]][side.turns] for p in points]
        far = _percentile(depth, 0.9)
        out += [p for p, d in zip(points, depth, strict=True) if d >= 0.5 * far]
    return out or [p for side in sides for p in by_side[side]]


def tiles_middle(detections: Sequence[Detection]) -> tuple[float, float]:
    """The middle of the tiles' extent (x, y): between the 2nd and 98th percentiles of their centres, axis by axis
    (a stray box does not move it)."""
    xs = [d.box.center[0] for d in detections]
    ys = [d.box.center[1] for d in detections]
    return (_percentile(xs, 0.02) + _percentile(xs, 0.98)) / 2, (_percentile(ys, 0.02) + _percentile(ys, 0.98)) / 2


def within_tiles(centre: tuple[float, float], detections: Sequence[Detection], share: float = CENTRE_BOUND) -> bool:
    """Whether ``centre`` lies in the middle ``share`` of the tiles' extent on both axes: the table's centre has
    rows of tiles on all four sides (walls, hands or ponds), so an estimate out near one edge of them is wrong."""
    for axis in (0, 1):
        values = [d.box.center[axis] for d in detections]
        low, high = _percentile(values, 0.02), _percentile(values, 0.98)
        middle, half = (low + high) / 2, share * (high - low) / 2
        if abs(centre[axis] - middle) > half:
            return False
    return True
