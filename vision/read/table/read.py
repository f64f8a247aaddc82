"""The table read, step by step: :func:`read_table` estimates the centre (:mod:`~vision.read.table.centre`),
refines it between rows of one kind at opposite seats (:func:`_matched_centre`), gives each tile its seat and chains
the rows (:mod:`~vision.read.table.seats`), and names them seat by seat (:mod:`~vision.read.table.naming`).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.read.detector import Detection, Orientation
from vision.read.geometry import Box, Size
from vision.read.table.centre import WALLS_APART, WHOLE_TABLE, estimate_centre, tiles_middle, within_tiles
from vision.read.table.frame import _depth, _unit
from vision.read.table.kinds import _full_wall, _wall_like
from vision.read.table.naming import _nearest_wall, _one_row_past_the_walls, _reach, _seat_observation
from vision.read.table.observation import FrameSide, SeatObservation, TableObservation
from vision.read.table.seats import _seat_rows, _SeatRows
from vision.read.views.photo_edge import cut_by_edge


def _matched_centre(
    per_seat: list[_SeatRows], dets: Sequence[Detection], centre: tuple[float, float]
) -> tuple[float, float]:
    """The centre between rows of one kind at opposite seats, axis by axis: their walls (rows of four or more
    lying face down) where both show, else their innermost rows inside a hand (the first rows of the ponds).

    Hands may be unseen on one side and not the other (standing, seen edge on), which biases the first estimate;
    walls are laid as a square and ponds start just inside it, so opposite ones lie about equally far out.
    """
    walls, ponds = _wall_and_pond_depths(per_seat, dets)
    starts = _pond_starts(per_seat, dets)
    # where the ponds start says where their players' middles lie, along their seats' axes; with the signs that
    # turn it into an image shift (bottom: +x, top: -x, right: -y, left: +y)
    shift = []
    for (a, b), beside in (
        ((FrameSide.LEFT, FrameSide.RIGHT), ((FrameSide.BOTTOM, 1.0), (FrameSide.TOP, -1.0))),
        ((FrameSide.TOP, FrameSide.BOTTOM), ((FrameSide.LEFT, 1.0), (FrameSide.RIGHT, -1.0))),
    ):
        if a in walls and b in walls and _square(walls[a] + walls[b], dets):
            shift.append((walls[b] - walls[a]) / 2)
        elif a in ponds and b in ponds:
            shift.append((ponds[b] - ponds[a]) / 2)
        elif any(side in starts for side, _sign in beside):
            shift.append(statistics.mean(sign * starts[side] for side, sign in beside if side in starts))
        else:
            shift.append(0.0)
    return (centre[0] + shift[0], centre[1] + shift[1])


def _square(apart: float, dets: Sequence[Detection]) -> bool:
    """Whether two opposite walls lying ``apart`` pixels apart can be two sides of the walls' square
    (:data:`~vision.read.table.centre.WALLS_APART`, a tile's width for the stacks' pitch): a table's rim boxed as a row
    of backs lies much farther out."""
    unit = statistics.median(min(d.box.width, d.box.height) for d in dets)
    return WALLS_APART[0] <= apart / unit <= WALLS_APART[1]


def _wall_and_pond_depths(
    per_seat: list[_SeatRows], dets: Sequence[Detection]
) -> tuple[dict[FrameSide, float], dict[FrameSide, float]]:
    """How far out (pixels) each seat's innermost wall (:func:`_full_wall`) lies, and its pond's first row where that
    lies inside its wall (the innermost row of two or more inside the outermost that is not wall-like)."""
    walls: dict[FrameSide, float] = {}
    ponds: dict[FrameSide, float] = {}
    for s in per_seat:
        found = [r for r in s.rows if _full_wall(r, dets)]
        if found:  # the innermost: a hand laid face down lies beyond its wall
            walls[s.side] = _depth(found[0])
        inner = [r for r in s.rows[:-1] if len(r) >= 2 and not _wall_like(r, dets)]
        if inner and (not found or _depth(inner[0]) < _depth(found[0])):
            ponds[s.side] = _depth(inner[0])
    return walls, ponds


def _pond_starts(per_seat: list[_SeatRows], dets: Sequence[Detection]) -> dict[FrameSide, float]:
    """Where each seat's player's middle lies along that seat's axis (pixels from the centre), from its pond's first
    row (the innermost of two or more tiles that is not wall-like): it starts three tiles left of that middle (six to
    a row, centred)."""
    starts: dict[FrameSide, float] = {}
    for s in per_seat:
        inner = [r for r in s.rows[:-1] if len(r) >= 2 and not _wall_like(r, dets)]
        if inner:
            row = inner[0]
            step = _unit(row) + statistics.median(b.a0 - a.a1 for a, b in itertools.pairwise(row))
            starts[s.side] = row[0].a0 + 3 * step
    return starts


def _refined(good: Sequence[Detection], centre: tuple[float, float]) -> tuple[float, float]:
    """``centre`` moved between rows of one kind at opposite seats (:func:`_matched_centre`) until it settles."""
    per_seat, _ = _seat_rows(good, centre)
    unit = statistics.median(min(d.box.width, d.box.height) for d in good)
    for _ in range(3):
        matched = _matched_centre(per_seat, good, centre)
        if abs(matched[0] - centre[0]) + abs(matched[1] - centre[1]) < 0.25 * unit:
            break
        centre = matched
        per_seat, _ = _seat_rows(good, centre)
    return centre


def _estimated(good: Sequence[Detection], size: Size | None) -> tuple[float, float]:
    """The centre read_table estimates: :func:`estimate_centre` refined between opposite seats' rows; where that
    lands out of the middle of a whole table's tiles (:func:`within_tiles`: a meld at one seat with nothing outer
    across it, a dead wall across two walls drag it), weighed against the refinement from the tiles' middle: the one
    whose reading leaves fewer tiles fitting nowhere, then the one in the middle."""
    start = estimate_centre(good)
    if size is not None and not (0 <= start[0] <= size.width and 0 <= start[1] <= size.height):
        start = (size.width / 2, size.height / 2)
    found = _refined(good, start)
    if len(good) < WHOLE_TABLE or within_tiles(found, good):
        return found
    again = _refined(good, tiles_middle(good))
    return min(
        (found, again),
        key=lambda c: (len(read_table(good, size, centre=c).unassigned), not within_tiles(c, good)),
    )


#: The face-up tiles nearest a box whose size it is judged by (a camera at an angle sees near tiles bigger).
PAIR_NEIGHBOURS = 8
#: A box as deep as a tile lying is long (this share of its neighbours' median long side, or more; a sideways tile is
#: only a tile's width deep) ...
PAIR_DEPTH = 0.85
#: ... and this many of their tile widths long (a sideways tile is about 1.45) is two tiles boxed once.
PAIR_LENGTH = (1.65, 2.4)


def _pairs_split(dets: Sequence[Detection]) -> list[Detection]:
    """``dets`` with each box that holds two face-up tiles side by side (a detector boxes two alike touching tiles of a
    laid-down hand as one: too deep for a tile lying across, too long for one lying along, against the face-up tiles
    nearest it) split into two of its tile.

    >>> from engine.tiles import parse_tiles
    >>> from vision.read.labels import class_of_tile
    >>> row = [Detection.of_class(class_of_tile(t), Box(30.0 * i, 0.0, 30.0 * i + 29, 42.0), 0.9)
    ...        for i, t in enumerate(parse_tiles("12345678m"))]
    >>> pair = Detection.of_class(class_of_tile(parse_tiles("9m")[0]), Box(240.0, 0.0, 299.0, 42.0), 0.9)
    >>> [(str(d.tile), d.box.x1, d.box.x2) for d in _pairs_split([*row, pair])[-2:]]
    [('9m', 240.0, 269.5), ('9m', 269.5, 299.0)]
    """
    up = [d for d in dets if d.tile is not None]
    if len(up) <= PAIR_NEIGHBOURS:
        return list(dets)
    centres = np.array([d.box.center for d in up])
    shorts = np.array([min(d.box.width, d.box.height) for d in up])
    longs = np.array([max(d.box.width, d.box.height) for d in up])
    out: list[Detection] = []
    for d in dets:
        b = d.box
        short, long = min(b.width, b.height), max(b.width, b.height)
        if d.tile is None:
            out.append(d)
            continue
        far = np.hypot(*(centres - np.array(b.center)).T)
        near = np.argsort(far)[1 : PAIR_NEIGHBOURS + 1]  # itself first
        width, length = float(np.median(shorts[near])), float(np.median(longs[near]))
        if short < PAIR_DEPTH * length or not PAIR_LENGTH[0] * width <= long <= PAIR_LENGTH[1] * width:
            out.append(d)
            continue
        if b.width >= b.height:
            mid = (b.x1 + b.x2) / 2
            halves = (Box(b.x1, b.y1, mid, b.y2), Box(mid, b.y1, b.x2, b.y2))
        else:
            mid = (b.y1 + b.y2) / 2
            halves = (Box(b.x1, b.y1, b.x2, mid), Box(b.x1, mid, b.x2, b.y2))
        out += [replace(d, box=h, orientation=Orientation.of_box(h)) for h in halves]
    return out


#: A box read face up whose long side lies outside this range of the table's tiles' (the median long side of every
#: box read) is no tile lying on the table: a die or a coin below it; a sheet of paper, a phone, a cup or a box
#: above it. (Tiles read face up on filmed tables lie within 0.74 to 1.17 of it: a camera at an angle sees its near
#: tiles larger than its far ones; two face-up tiles boxed as one are split first.)
FACE_SIZED = (0.7, 1.8)
#: A box read face down this many times the tiles' long side or more is none either (two stacks of a wall boxed
#: once are about 1.5 times it, and are kept).
BACK_LARGEST = 1.8
#: With fewer boxes than this, their median says too little of the tiles' size: every box is kept.
SIZED_MIN = 9


def _sized_like_tiles(dets: Sequence[Detection], size: Size | None) -> tuple[list[Detection], list[Detection]]:
    """``dets`` split into the boxes sized like the table's tiles (:data:`FACE_SIZED`, :data:`BACK_LARGEST`) and
    the others.

    >>> from vision.read.labels import BACK_CLASS
    >>> tiles = [Detection.of_class(BACK_CLASS, Box(31.0 * i, 0.0, 31.0 * i + 30, 40.0), 0.9) for i in range(10)]
    >>> die = Detection.of_class(3, Box(400.0, 0.0, 20.0 + 400, 20.0), 0.9)
    >>> sheet = Detection.of_class(3, Box(0.0, 100.0, 90.0, 180.0), 0.9)
    >>> kept, odd = _sized_like_tiles([*tiles, die, sheet], None)
    >>> len(kept), [d.box.x1 for d in odd]
    (10, [400.0, 0.0])
    """
    if len(dets) < SIZED_MIN:
        return list(dets), []
    tile = statistics.median(max(d.box.width, d.box.height) for d in dets)
    kept, odd = [], []
    for d in dets:
        b = d.box
        ratio = max(b.width, b.height) / tile
        at_edge = size is not None and cut_by_edge(b, size)
        largest = BACK_LARGEST if d.tile is None else FACE_SIZED[1]
        small = d.tile is not None and ratio <= FACE_SIZED[0] and not at_edge  # a tile the edge cuts may be small
        (odd if small or ratio >= largest else kept).append(d)
    return kept, odd


def read_table(
    detections: Sequence[Detection], size: Size | None = None, *, centre: tuple[float, float] | None = None
) -> TableObservation:
    """Group the detections of an overhead frame of a whole table by seat and zone.

    ``size`` (the frame's) only bounds the centre: one outside the frame is replaced by the frame's middle.
    ``centre`` overrides the estimate (a fixed camera over a fixed table: the camera's reader keeps one from frame to
    frame, :mod:`vision.read.table.geometry`). Never raises on odd detections.

    Steps: estimate the centre (the middle of the tiles, refined between the outer rows of opposite seats, or from the
    seats beside where one is missing), give each tile the seat it lies deepest for (tiles near a diagonal, where a
    hand meets its neighbour's melds, go to the seat whose row they continue), chain rows along each seat's axis as
    :mod:`vision.read.rows` does; then centre again between rows of one kind at opposite seats (walls, else the ponds'
    first rows: a hand may be seen at one seat and not at the other; a centre that lands out of the tiles' middle is
    weighed against one found from that middle) and name the rows by depth and make-up. Whether
    the outermost row is a hand is judged by how far out it lies in tile widths against the farthest row that can only
    be a hand (walls lie about three quarters as far out; a standing hand seen edge on from straight above may show
    nothing a detector labels); a row inside the nearest wall is never a hand (a seat whose wall is drawn away shows
    its pond outermost). Near a diagonal a tile may be a neighbour's row end, unless it lies in a row along its seat's
    axis (a wall drawn down to a few stacks lies by the corner).

    Limits: the camera looks down on the table with the table's edges roughly along the frame's edges (within ~15
    degrees; boxes are axis-aligned, so a rolled view blurs rows together). With neither walls nor hands in view the
    centre comes from the ponds alone and may be off by tiles. A hand laid face down with no other hand in view is
    taken for a wall. A kakan's added tile laid sideways against its called tile (towards the pond) is read into its
    meld, as is one laid upright against it in the row; one stacked on it, seen from above as one box, is not seen.
    Tiles that fit nowhere (a lone tile beyond the hand, a box with no area, a face-down tile in a pond, a second
    sideways tile in a pond, one or two tiles at the hand's end that are neither a meld nor the drawn tile, a row past
    the walls that is not the seat's hand: chips, a card) go to ``unassigned``; boxes sized unlike the table's tiles
    (:func:`_sized_like_tiles`: far larger, or far smaller and face up) to ``not_tiles``, read as nothing else;
    nothing here raises on odd detections.

    >>> from engine.tiles import parse_tiles
    >>> from vision.read.geometry import Box
    >>> from vision.read.labels import BACK_CLASS, class_of_tile
    >>> def row(text, x, y):  # upright lying tiles, 30 x 40 px, left to right
    ...     return [Detection.of_class(class_of_tile(t), Box(x + 31 * i, y, x + 31 * i + 30, y + 40), 0.9)
    ...             for i, t in enumerate(parse_tiles(text))]
    >>> backs = [Detection.of_class(BACK_CLASS, Box(300 + 31 * i, 100, 330 + 31 * i, 130), 0.9) for i in range(13)]
    >>> obs = read_table(row("123m456p789s11z", 300, 700) + row("19p", 470, 560) + backs + row("2z", 600, 260))
    >>> bottom, top = obs.seat(FrameSide.BOTTOM), obs.seat(FrameSide.TOP)
    >>> bottom.hand_text, bottom.pond_text, top.hand_backs, top.pond_text, obs.seat(FrameSide.LEFT).present
    ('123m456p789s11z', '19p', 13, '2z', False)
    """
    good = _pairs_split([d for d in detections if d.box.width > 0 and d.box.height > 0])
    bad = [d for d in detections if not (d.box.width > 0 and d.box.height > 0)]
    good, odd = _sized_like_tiles(good, size)
    if not good:
        mid = (size.width / 2, size.height / 2) if size else (0.0, 0.0)
        return TableObservation(tuple(SeatObservation(s) for s in FrameSide), centre or mid, tuple(bad), tuple(odd))
    if centre is None:
        centre = _estimated(good, size)
    per_seat, unassigned = _seat_rows(good, centre)
    inside = _nearest_wall(per_seat, good)  # the rows dropped past the walls are never full walls: it holds after
    _one_row_past_the_walls(per_seat, good, inside, unassigned)
    reach = _reach(per_seat, good, inside)
    seats = [_seat_observation(s, good, inside, reach, unassigned) for s in per_seat]
    return TableObservation(tuple(seats), centre, tuple(bad) + tuple(good[i] for i in sorted(unassigned)), tuple(odd))
