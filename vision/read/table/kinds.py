"""What kind a seat's row is, from its make-up and how far out it lies in tile widths: a wall (:func:`_wall_like`,
:func:`_full_wall`), a wall's last stacks (:func:`_wall_end`), a dead wall's indicators (:func:`_indicators_row`),
closed kans (:func:`_closed_kan`, :func:`_closed_kans`), a hand (:func:`_looks_like_hand`,
:func:`_kans_beyond_the_wall`); what is none of these is a pond.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from vision.read.detector import Detection
from vision.read.table.frame import _depth, _gaps, _Span, _unit

#: A gap (tile widths) smaller than a hand's from its melds (:data:`~vision.read.table.hand.HAND_GAP`) that still
#: separates two melds laid side by side.
MELD_GAP = 0.25
#: Closed kans face down at their ends lie at least this many times as far out as the nearest wall (in tiles):
#: hands lie about a third farther out than walls.
KAN_BEYOND = 1.15
#: The most face-up tiles in a dead wall: five dora indicators and the ura indicators under them.
INDICATORS = 10
#: A dead wall's indicators alone across a corner lie at their wall's end, this many tile widths or more along from
#: their seat's axis (a pond's rows start three tiles left of it).
CORNER = 3.5
#: Walls lie about this share as far out as hands (tiles from the centre).
WALLS_OF_REACH = 0.75
#: Rows within this many tiles inside the nearest wall lie at the walls (a pond's outer row lies farther in).
WALL_NEAR = 1.0
#: A wall row is at least this share face down.
WALL_BACKS = 0.5


def _wall_like(row: Sequence[_Span], dets: Sequence[Detection]) -> bool:
    """Three or more tiles, mostly face down and lying (deeper than wide, as a wall's top tier is; a hand standing
    towards its player shows a shallow box from above)."""
    backs = sum(dets[s.index].is_back for s in row)
    return len(row) >= 3 and backs >= WALL_BACKS * len(row) and statistics.median(1 / s.ratio for s in row) >= 1.1


def _full_wall(row: Sequence[_Span], dets: Sequence[Detection]) -> bool:
    """A wall of four or more stacks, to measure other rows by: wall-like, and not closed kans (face down at both
    ends like a wall's stacks, but laid where hands lie, see :func:`_closed_kans`)."""
    return len(row) >= 4 and _wall_like(row, dets) and not _closed_kans(row, _gaps(row), dets)


def _closed_kan(piece: Sequence[_Span], dets: Sequence[Detection]) -> bool:
    """Whether four tiles are a closed kan as laid: the ends face down, the two between face up and alike."""
    if len(piece) != 4 or not (dets[piece[0].index].is_back and dets[piece[-1].index].is_back):
        return False
    middle = [dets[s.index].tile for s in piece[1:-1]]
    return None not in middle and len({t.deaka() for t in middle if t is not None}) == 1


def _closed_kans(row: Sequence[_Span], gaps: Sequence[float], dets: Sequence[Detection]) -> bool:
    """Whether a run of tiles is one or more closed kans and nothing else (split at the gaps between melds)."""
    if not row or len(row) % 4:
        return False
    cuts = [j for j in range(1, len(row)) if gaps[j] > MELD_GAP]
    return cuts == list(range(4, len(row), 4)) and all(_closed_kan(row[j : j + 4], dets) for j in range(0, len(row), 4))


def _looks_like_hand(row: list[_Span], reach: float | None, inside: float | None, dets: Sequence[Detection]) -> bool:
    """Whether a seat's outermost row is its hand. Hands lie about as far out as ``reach`` (in tile widths, from
    rows that can only be hands; 85% of it for a face-up row, 88% for a face-down lying one); a wall lies about
    three quarters as far, a pond less: the hand may be out of view, or standing so that the camera sees only its
    top edge. A face-down lying row with no hand to compare is a wall."""
    depth = _depth(row) / _unit(row)
    if inside is not None and depth < inside:
        return False
    if _wall_like(row, dets) or _wall_end(row, dets, inside) or _indicators_row(row, dets, inside, reach):
        return reach is not None and depth >= 0.88 * reach
    return reach is None or depth >= 0.85 * reach


def _kans_beyond_the_wall(rows: Sequence[Sequence[_Span]], inside: float | None, dets: Sequence[Detection]) -> bool:
    """Whether a seat's outermost row is closed kans beside a hand standing unseen: face down at both ends like a
    wall's stacks, but laid as kans (see :func:`_closed_kans`) and beyond a wall (its seat's own, or out past the
    nearest one by :data:`KAN_BEYOND`: walls are a square, hands lie outside it)."""
    row = rows[-1]
    if not _closed_kans(row, _gaps(row), dets):
        return False
    unit = _unit(row)
    own_wall = any(_wall_like(r, dets) and _depth(r) < _depth(row) - unit for r in rows[:-1])
    return own_wall or (inside is not None and _depth(row) / unit >= KAN_BEYOND * inside)


def _indicators_row(row: Sequence[_Span], dets: Sequence[Detection], inside: float | None, reach: float | None) -> bool:
    """A dead wall's few stacks left in one wall with their indicators turned, dora and ura (up to ten face up: the
    row may be mostly face up): some face down (a pond shows none) and about as far out (in tiles) as the nearest
    wall of three or more stacks, ``inside``, or with none (the live wall drawn to its end) as walls lie from the
    hands, ``reach`` (a pond lies nearer the centre, a hand farther out). Where the dead wall crosses a corner and
    kans drew the stacks beyond its first indicator, the indicators on that side lie alone, face up (five at most,
    the dora's and four kans'), by the corner (:data:`CORNER`): such a row counts only within half a tile of a
    measured wall's depth (a pond's last row lies a tile and more inside the walls)."""
    measured = inside is not None
    if inside is None:
        if reach is None:
            return False
        inside = WALLS_OF_REACH * reach
    backs = sum(dets[s.index].is_back for s in row)
    unit = _unit(row)
    depth = _depth(row) / unit
    face_up = len(row) - backs
    if backs == 0:
        along = [(s.a0 + s.a1) / 2 / unit for s in row]
        by_corner = min(along) >= CORNER or max(along) <= -CORNER
        return (
            measured
            and by_corner
            and face_up <= INDICATORS // 2
            and inside - WALL_NEAR / 2 <= depth <= KAN_BEYOND * inside
        )
    return 0 < face_up <= INDICATORS and inside - WALL_NEAR <= depth <= KAN_BEYOND * inside


def _wall_end(row: Sequence[_Span], dets: Sequence[Detection], inside: float | None) -> bool:
    """One or two stacks left of a wall drawn down (too few for :func:`_wall_like`): face down, lying, and about as
    far out (in tiles) as the nearest wall of three or more stacks, ``inside``."""
    return (
        inside is not None
        and 0 < len(row) < 3
        and all(dets[s.index].is_back for s in row)
        and statistics.median(1 / s.ratio for s in row) >= 1.1
        and _depth(row) / _unit(row) >= 0.9 * inside
    )
