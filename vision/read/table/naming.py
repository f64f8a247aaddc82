"""Naming a seat's rows: the hand (when its outermost row is one), then each row inside it, centre outwards, a wall
or the pond, and the pond's riichi tile: :func:`_seat_observation` makes one
:class:`~vision.read.table.observation.SeatObservation`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from vision.read.detector import Detection
from vision.read.table.frame import SIDEWAYS_RATIO, _depth, _Span, _unit
from vision.read.table.hand import _meld, _split_hand
from vision.read.table.kinds import (
    WALL_BACKS,
    _full_wall,
    _indicators_row,
    _kans_beyond_the_wall,
    _looks_like_hand,
    _wall_end,
)
from vision.read.table.observation import SeatObservation
from vision.read.table.seats import _SeatRows

#: How far beyond the nearest wall's line (in the seat's tile widths) a row lies before it is past the walls: a wall's
#: stacks lie within about half a tile of their line, and ponds lie inside the walls' square.
BEYOND_THE_WALLS = 1.0


def _nearest_wall(per_seat: Sequence[_SeatRows], dets: Sequence[Detection]) -> float | None:
    """How far out (in tiles) the nearest wall lies, ``inside`` (None: no wall of four stacks or more).

    Walls are a square with the hands outside it: a row inside the nearest wall (in tiles) is a pond, even the outer
    row of a seat whose wall is drawn away (taken for a hand, it would make every wall look like one)."""
    walls = [_depth(w[0]) / _unit(w[0]) for s in per_seat if (w := [r for r in s.rows if _full_wall(r, dets)])]
    return min(walls) if walls else None


def _seat_width(rows: Sequence[Sequence[_Span]]) -> float:
    """A tile's width at a seat (pixels): the median over all its rows, so a row of odd boxes is measured by the
    seat's tiles, not by itself."""
    return statistics.median(s.along for r in rows for s in r)


def _past_the_walls(row: Sequence[_Span], width: float, inside: float | None) -> bool:
    """Whether ``row`` lies out past the nearest wall (``inside``, in tiles; :data:`BEYOND_THE_WALLS`), measured in
    the seat's tile ``width``."""
    return inside is not None and _depth(row) / width > inside + BEYOND_THE_WALLS


def _one_row_past_the_walls(
    per_seat: Sequence[_SeatRows], dets: Sequence[Detection], inside: float | None, unassigned: list[int]
) -> None:
    """Keep at most one row a seat past the walls (``inside``: :func:`_nearest_wall`), its hand's: the row with the
    most tiles there (then the innermost); the indices of the others' tiles are added to ``unassigned``, their rows
    dropped.

    Past the walls each player has one row, the hand with its melds and drawn tile in line; another row there is
    something on the table read as tiles (chips, a card, a die), which taken for the hand would push the hand inward
    into the pond. A wall of four stacks or more is never dropped (walls need not be a perfect square)."""
    if inside is None:  # no wall to measure by: nothing is known to lie past the walls
        return
    for seat in per_seat:
        if not seat.rows:
            continue
        width = _seat_width(seat.rows)
        past = [r for r in seat.rows if _past_the_walls(r, width, inside) and not _full_wall(r, dets)]
        if len(past) < 2:
            continue
        hand = max(past, key=lambda r: (len(r), -_depth(r)))
        for row in past:
            if row is not hand:
                seat.rows.remove(row)
                unassigned += [s.index for s in row]


def _reach(per_seat: Sequence[_SeatRows], dets: Sequence[Detection], inside: float | None) -> float | None:
    """How far out (in tiles) hands lie, ``reach`` (None: no outer row that can only be a hand), given the nearest
    wall's depth ``inside`` (:func:`_nearest_wall`): as far out as the seat's whose outer row past that wall lies
    farthest (walls never lie beyond hands, and a hand standing face to its player may be seen only by its top edge,
    which no detector labels)."""
    reaches = [r for s in per_seat if (r := s.reach(dets)) is not None and (inside is None or r > inside)]
    return max(reaches) if reaches else None


def _has_hand(seat: _SeatRows, dets: Sequence[Detection], inside: float | None, reach: float | None) -> bool:
    """Whether a seat's outermost row is its hand: it lies as far out as hands do (:func:`_looks_like_hand`), or it
    is closed kans beyond the walls (:func:`_kans_beyond_the_wall`)."""
    return bool(seat.rows) and (
        _looks_like_hand(seat.rows[-1], reach, inside, dets) or _kans_beyond_the_wall(seat.rows, inside, dets)
    )


def _seat_observation(
    seat: _SeatRows,
    dets: Sequence[Detection],
    inside: float | None,
    reach: float | None,
    unassigned: list[int],
) -> SeatObservation:
    """One seat's rows named: its outermost row the hand where it is one (:func:`_has_hand`; split by
    :func:`_split_hand`), the rows inside it wall or pond (:func:`_wall_and_pond`), the pond's riichi tile
    (:func:`_riichi`); ``inside`` and ``reach`` as :func:`_nearest_wall` and :func:`_reach` give them. The indices of
    the tiles that fit none of them are added to ``unassigned``."""
    side, rows = seat.side, [list(r) for r in seat.rows]
    has_hand = _has_hand(seat, dets, inside, reach)
    hand_row: list[_Span] = []
    if has_hand and rows:
        hand_row = rows.pop()
    hand, drawn, meld_rows, leftover = _split_hand(hand_row, dets) if hand_row else ([], None, [], [])
    unassigned += [s.index for s in leftover]
    melds = [_meld(m, seat.stacked, dets, side) for m in meld_rows]
    joined = {d.index for m in meld_rows for d in m}
    unassigned += [a.index for c, a in seat.stacked.items() if c not in joined]  # against no meld: fits nowhere
    width = _seat_width(seat.rows) if seat.rows else 0.0
    wall, pond_spans = _wall_and_pond(rows, dets, inside, reach, width, unassigned)
    pond_spans, riichi = _riichi(pond_spans, unassigned)
    pond = [dets[s.index] for s in pond_spans]
    return SeatObservation(
        side,
        tuple(dets[s.index] for s in hand),
        tuple(melds),
        tuple(pond),
        riichi,
        tuple(wall),
        None if drawn is None else dets[drawn.index],
    )


def _wall_and_pond(
    rows: Sequence[Sequence[_Span]],
    dets: Sequence[Detection],
    inside: float | None,
    reach: float | None,
    width: float,
    unassigned: list[int],
) -> tuple[list[Detection], list[_Span]]:
    """The wall (its tiles, rows centre outwards) and the pond (its face-up tiles) among the rows inside a seat's
    hand (``width``: the seat's tile width, :func:`_seat_width`); a face-down tile in the pond, and a row past the
    walls that is no wall (ponds lie inside them: :func:`_past_the_walls`), are added to ``unassigned``."""
    wall: list[Detection] = []
    pond_spans: list[_Span] = []
    for row in rows:  # centre outwards
        backs = sum(dets[s.index].is_back for s in row)
        # lying or not: a hand was taken above
        if (
            (len(row) >= 3 and backs >= WALL_BACKS * len(row))
            or _wall_end(row, dets, inside)
            or _indicators_row(row, dets, inside, reach)
        ):
            wall += [dets[s.index] for s in row]
            continue
        if _past_the_walls(row, width, inside):
            unassigned += [s.index for s in row]
            continue
        for s in row:
            if dets[s.index].is_back:  # a face-down tile in the pond is no discard (or a misread)
                unassigned.append(s.index)
            else:
                pond_spans.append(s)
    return wall, pond_spans


def _riichi(pond_spans: list[_Span], unassigned: list[int]) -> tuple[list[_Span], int | None]:
    """The pond without a second tile laid across (added to ``unassigned``), and the index in it of the riichi tile,
    if any.

    The riichi tile lies across where the other discards lie along (compared with the whole pond: it may start a
    row); a pond shows one (when it is called the next discard is laid sideways instead): others across fit no seat
    (another seat's discards, read about a centre off the table's)."""
    across = []
    for s in pond_spans:
        others = [o.ratio for o in pond_spans if o is not s]
        if s.ratio >= 1.0 and (s.ratio >= SIDEWAYS_RATIO * statistics.median(others) if others else s.ratio >= 1.2):
            across.append(s)
    unassigned += [s.index for s in across[1:]]
    pond_spans = [s for s in pond_spans if s not in across[1:]]
    riichi = pond_spans.index(across[0]) if across else None
    return pond_spans, riichi
