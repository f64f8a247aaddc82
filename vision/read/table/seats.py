"""Whose each tile is, and each seat's rows: :func:`_assign_seats` gives a tile the seat it lies deepest for (near a
diagonal, the seat whose row it continues; a corner's turned wall stacks, the other seat), and :func:`_seat_rows`
chains each seat's tiles into rows (:class:`_SeatRows`), an added kan's fourth tile kept out of them
(:func:`_stacked`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from vision.read.detector import Detection
from vision.read.table.frame import CONTESTED, _depth, _depths, _joins, _overlap, _rows, _Span, _span, _unit
from vision.read.table.kinds import _wall_like
from vision.read.table.observation import _SIDES, FrameSide

#: Tiles lying across the seat's axis (along/depth) that may be an added kan's stacked pair (a flat tile lying
#: across is about 1.4).
STACKED_RATIO = 1.15


#: Per seat (0..3), each detection in that seat's frame.
_Frames = dict[int, list[_Span]]


def _assign_seats(dets: Sequence[Detection], centre: tuple[float, float]) -> list[int]:
    """The seat (0..3) of each detection: the one it lies deepest for; near a diagonal, the seat whose row it
    continues (a hand's end meets the next seat's melds there). Only face-up tiles lie across their seat's axis
    (riichi, called, added), next to face-up ones: at a corner the next wall's end stacks lie in line with this
    one's row, turned, and are not its own."""
    seat, contested = _deepest_seats(dets, centre)
    spans = {k: [_span(i, d, _SIDES[k], centre) for i, d in enumerate(dets)] for k in range(4)}
    first_contested = dict(contested)
    _settle(seat, contested, spans, dets)
    _give_added_kans(seat, contested, first_contested, spans, dets)
    _give_corner_stacks(seat, contested, spans, dets)
    for i, (first, _second) in contested.items():
        if seat[i] < 0:
            seat[i] = first
    return seat


def _deepest_seats(
    dets: Sequence[Detection], centre: tuple[float, float]
) -> tuple[list[int], dict[int, tuple[int, int]]]:
    """Each detection's seat where it lies clearly deepest for one (-1 elsewhere), and the contested ones (near a
    diagonal: :data:`CONTESTED`) by index, with the two seats they lie deepest for."""
    seat = [-1] * len(dets)
    contested: dict[int, tuple[int, int]] = {}
    for i, d in enumerate(dets):
        depths = _depths(d, centre)
        order = sorted(range(4), key=lambda k: -depths[k])
        first, second = order[0], order[1]
        if depths[first] > 0 and depths[second] > CONTESTED * depths[first]:
            contested[i] = (first, second)
        else:
            seat[i] = first
    return seat, contested


def _settle(seat: list[int], contested: dict[int, tuple[int, int]], spans: _Frames, dets: Sequence[Detection]) -> None:
    """Give each contested tile (taken out of ``contested``) the first of its two seats whose row it continues, until
    none does: a tile lying across a seat's axis continues no face-down row there (a corner's turned wall stack)."""
    changed = True
    while changed and contested:
        changed = False
        for i, (first, second) in list(contested.items()):
            fits = [
                k
                for k in (first, second)
                if any(
                    seat[j] == k
                    and _joins(spans[k][i], spans[k][j], 2.0, 0.5)
                    and not (spans[k][i].ratio >= STACKED_RATIO and (dets[i].is_back or dets[j].is_back))
                    for j in range(len(dets))
                )
            ]
            if fits:
                seat[i] = fits[0]
                del contested[i]
                changed = True


def _turned(spans: _Frames, pair: tuple[int, int], i: int) -> bool:
    """Whether a contested tile lies across the axis of the first of its seats and along the second's."""
    first, second = pair
    return spans[first][i].ratio >= STACKED_RATIO and spans[second][i].ratio < 1.0


def _give_added_kans(
    seat: list[int],
    contested: dict[int, tuple[int, int]],
    first_contested: dict[int, tuple[int, int]],
    spans: _Frames,
    dets: Sequence[Detection],
) -> None:
    """An added kan's fourth tile by a corner may lie in line with the next seat's wall and have joined its row: it
    is its meld's, whose called tile (that seat's, across its axis in a row of its upright tiles) it lies against."""
    for i, pair in first_contested.items():
        if dets[i].is_back:
            continue
        for k in pair:
            added = spans[k][i]
            if k == seat[i] or added.ratio < STACKED_RATIO:
                continue
            upright = [s for j, s in enumerate(spans[k]) if j != i and seat[j] == k and s.ratio < 1.0]
            if any(
                seat[j] == k
                and not dets[j].is_back
                and called.ratio >= STACKED_RATIO
                and _lies_against(added, called)
                and _called_in_row(called, upright)
                for j, called in enumerate(spans[k])
            ):
                seat[i] = k
                contested.pop(i, None)
                break


def _give_corner_stacks(
    seat: list[int], contested: dict[int, tuple[int, int]], spans: _Frames, dets: Sequence[Detection]
) -> None:
    """What joins no seat's row lies in a corner by itself (a wall's or the dead wall's last stacks, the rest drawn):
    a face-down tile lying across its deepest seat's axis and along the other's is the other's; a face-up one too
    where it lies in a row there with others alike (a called tile lies across its own seat's axis, by itself)."""
    for i in [i for i in contested if dets[i].is_back and _turned(spans, contested[i], i)]:
        seat[i] = contested.pop(i)[1]
    _settle(seat, contested, spans, dets)
    for i in [i for i in contested if _turned(spans, contested[i], i)]:
        second = contested[i][1]
        beside = [spans[second][j] for j in contested if j != i and spans[second][j].ratio < 1.0]
        if any(_joins(spans[second][i], s, 2.0, 0.5) for s in beside):
            seat[i] = second


@dataclass
class _SeatRows:
    side: FrameSide
    rows: list[list[_Span]]
    #: Added kans' fourth tiles, kept out of the rows: by the index of the called tile each lies against.
    stacked: dict[int, _Span] = field(default_factory=dict)

    def reach(self, dets: Sequence[Detection]) -> float | None:
        """How far out the outermost row lies, in tiles (scale-free: the far seat of a tilted camera looks smaller),
        when it is a row of three or more that can only be a hand (not face down and lying, as walls are)."""
        for row in reversed(self.rows):
            if len(row) >= 3:
                return None if _wall_like(row, dets) else _depth(row) / _unit(row)
        return None


def _seat_rows(good: Sequence[Detection], centre: tuple[float, float]) -> tuple[list[_SeatRows], list[int]]:
    """Each seat's rows about ``centre``, and the tiles that fit no row."""
    seat_of = _assign_seats(good, centre)
    unassigned: list[int] = []
    per_seat: list[_SeatRows] = []
    for k, side in enumerate(_SIDES):
        spans = [_span(i, d, side, centre) for i, d in enumerate(good) if seat_of[i] == k]
        stacked = _stacked(spans)
        rows = _rows([s for s in spans if s not in stacked.values()])
        # a lone tile out beyond every row of two or more fits no zone (a tile in a player's hand, a stray box)
        while len(rows) >= 2 and len(rows[-1]) == 1:
            outer = next((r for r in reversed(rows) if len(r) >= 2), None)
            if outer is None or rows[-1][0].d0 - max(s.d1 for s in outer) < 1.5 * _unit(outer):
                break
            unassigned.append(rows.pop()[0].index)
        per_seat.append(_SeatRows(side, rows, stacked))
    return per_seat, unassigned


def _stacked(spans: Sequence[_Span]) -> dict[int, _Span]:
    """Added kans' fourth tiles: a tile lying across the seat's axis against another lying across beside upright
    ones (a meld's called tile), on its side towards the centre, the two about in line along (no other two tiles lie
    so: a pond has one sideways tile; tiles seen across in this seat's frame that lie in a row of their own belong
    to another seat's frame). By the index of the called tile."""
    across = [s for s in spans if s.ratio >= STACKED_RATIO]
    upright = [s for s in spans if s.ratio < 1.0]
    out: dict[int, _Span] = {}
    for called in across:
        if not _called_in_row(called, upright):
            continue
        for added in across:
            if added is called or added in out.values() or called.index in out:
                continue
            if _lies_against(added, called):
                out[called.index] = added
    return out


def _called_in_row(called: _Span, upright: Sequence[_Span]) -> bool:
    """Whether a tile lying across its seat's axis lies in a row of upright ones (as a meld's called tile does)."""
    return any(_joins(called, s, 0.3, 0.5) for s in upright)


def _lies_against(added: _Span, called: _Span) -> bool:
    """Whether ``added`` lies as an added kan's fourth tile against ``called`` (both across the seat's axis): in
    line along, touching it on its side towards the centre."""
    in_line = _overlap(called.a0, called.a1, added.a0, added.a1) >= 0.7 * min(called.along, added.along)
    touching = abs(called.d0 - added.d1) <= 0.3 * min(called.deep, added.deep)
    return in_line and touching and added.d0 < called.d0
