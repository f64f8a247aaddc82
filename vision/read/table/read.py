"""Reading a whole table from above: each seat's hand, open melds and discard pond, and the dora indicators.

The camera does not know who is East, so seats are named by the frame edge they sit at (:class:`ViewSide`):
``BOTTOM`` (the camera's own side), then ``RIGHT``, ``TOP``, ``LEFT``, which is also the order of play (turns go
counter-clockwise seen from above). Every seat is read in its own frame: *along* runs left to right as that player
sees it (image x for the bottom seat, -x for the top seat, -y for the right seat, +y for the left seat) and
*depth* runs from the table centre out towards the player. In that frame all seats look alike:

- the rows farthest out are the hand: concealed tiles (standing, laid open or face down), the drawn tile set apart
  at their right (a small gap), then at its right end the open melds, groups of 3-4 whose called tile lies
  sideways (its box is wide where its neighbours are deep; an added kan's fourth tile lies sideways against it,
  towards the centre); closed kans show their end tiles face down (beside a standing hand, whose tiles show no
  boxes, they are the row: they lie beyond the walls, as hands do); fewer than three tiles are never a meld;
- rows of mostly face-down tiles inside that are the wall; face-up tiles among them are dora indicators (a dead
  wall's last stacks with their dora and ura indicators turned may be mostly face up: some face down, where walls
  lie); at a corner the next seat's wall ends in line with this seat's, its stacks turned (only face-up tiles lie
  across their seat's axis);
- the other rows, nearest the centre, are the discard pond, read row by row from the centre outwards, each row left
  to right; the riichi tile lies sideways.

``read_table(detections, size)`` gives a :class:`TableObservation` (an example in its docstring).
"""

from __future__ import annotations

import enum
import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.tiles import Tile, format_tiles
from vision.read.detector import Detection
from vision.read.geometry import Size
from vision.read.rows import TileRun, count_backs, face_up

#: Frames with fewer tiles are close-ups (a hand, a few melds), not a whole table: no per-seat reading for them,
#: and no view made for a hand (a hand seen from a low angle, or from across the table). A table mid-game shows
#: far more: 4 hands or walls of 13-17 tiles, the ponds.
TABLE_MIN_TILES = 30

#: A tile is sideways when its along/depth ratio is at least 1 and this many times its row neighbours' ratio.
SIDEWAYS_RATIO = 1.3
#: A gap of this many tile widths along a row splits the concealed hand from the melds (or a meld from the next).
HAND_GAP = 0.6
#: A smaller gap that still separates two melds laid side by side.
MELD_GAP = 0.25
#: The gap (tile widths) that sets the drawn tile apart at the hand's right end: players leave a small one, and the
#: tiles of a hand touch (their boxes overlap or part by a few pixels).
DRAWN_GAP = 0.2
#: Closed kans face down at their ends lie at least this many times as far out as the nearest wall (in tiles):
#: hands lie about a third farther out than walls.
KAN_BEYOND = 1.15
#: Tiles lying across the seat's axis (along/depth) that may be an added kan's stacked pair (a flat tile lying
#: across is about 1.4).
STACKED_RATIO = 1.15
#: The most face-up tiles in a dead wall: five dora indicators and the ura indicators under them.
INDICATORS = 10
#: A dead wall's indicators alone across a corner lie at their wall's end, this many tile widths or more along from
#: their seat's axis (a pond's rows start three tiles left of it).
CORNER = 3.5
#: Walls lie about this share as far out as hands (tiles from the centre).
WALLS_OF_REACH = 0.75
#: Rows within this many tiles inside the nearest wall lie at the walls (a pond's outer row lies farther in).
WALL_NEAR = 1.0
#: The fewest tiles of a meld (chi, pon; a kan has four).
MELD_MIN = 3
#: Tiles within this share of a diagonal (second depth / first depth) are contested by two seats.
CONTESTED = 0.6
#: A wall row is at least this share face down.
WALL_BACKS = 0.5
#: Walls along x and along y whose stack pitches differ by less than this share are as long (an overhead camera, its
#: boxes a pixel or two off).
SAME_PITCH = 0.03
#: The table's centre lies in this middle share of the tiles' extent on each axis (see :func:`within_tiles`) ...
CENTRE_BOUND = 0.6
#: ... when this many tiles or more are seen (a whole table: fewer are a corner or a close-up, whose middle says
#: nothing of the table's).
WHOLE_TABLE = 24


class ViewSide(enum.Enum):
    """A seat, named by the edge of the camera's frame it sits at; listed in the order of play."""

    BOTTOM = "bottom"
    RIGHT = "right"
    TOP = "top"
    LEFT = "left"

    @property
    def turns(self) -> int:
        """Quarter turns counter-clockwise from the bottom seat (seen from above)."""
        return _SIDES.index(self)

    @property
    def shimocha(self) -> ViewSide:
        """下家: the next player, to this player's right."""
        return _SIDES[(self.turns + 1) % 4]

    @property
    def toimen(self) -> ViewSide:
        """対面: the player across."""
        return _SIDES[(self.turns + 2) % 4]

    @property
    def kamicha(self) -> ViewSide:
        """上家: the previous player, to this player's left."""
        return _SIDES[(self.turns + 3) % 4]


_SIDES = tuple(ViewSide)


@dataclass(frozen=True, slots=True)
class MeldObservation(TileRun):
    """One open meld as laid: its tiles in the owner's reading order and which one lies sideways (None: ankan).

    An added kan's fourth tile (``added``, its index; None: none) lies against the called tile towards the pond; it
    is read into the row next to the called tile, after it unless the called tile is rightmost (then before it), so
    that the called tile keeps the place that tells whence it came."""

    detections: tuple[Detection, ...]
    called: int | None
    owner: ViewSide
    added: int | None = None

    @property
    def called_from(self) -> ViewSide | None:
        """Whose discard was called, from where the sideways tile lies: leftmost from the kamicha, rightmost from
        the shimocha, between from the toimen. None for a meld with no sideways tile (a closed kan)."""
        if self.called is None:
            return None
        if self.called == 0:
            return self.owner.kamicha
        if self.called == len(self.detections) - 1:
            return self.owner.shimocha
        return self.owner.toimen


@dataclass(frozen=True, slots=True)
class SeatObservation:
    """What lies in front of one seat, each part in that player's reading order."""

    side: ViewSide
    #: 手牌: the concealed hand, left to right as its player sees it; face-down tiles included.
    hand: tuple[Detection, ...] = ()
    #: 副露: open melds, left to right.
    melds: tuple[MeldObservation, ...] = ()
    #: 河: discards in play order (rows from the centre outwards, each left to right).
    pond: tuple[Detection, ...] = ()
    #: Index into ``pond`` of the tile laid sideways (the riichi declaration), if any.
    riichi: int | None = None
    #: The wall in front of this seat (face-down tiles and any face-up dora indicators), left to right.
    wall: tuple[Detection, ...] = ()
    #: ツモ牌: the tile set apart at the right of the concealed hand (drawn, or the winning tile shown), if any.
    drawn: Detection | None = None

    @property
    def present(self) -> bool:
        return bool(self.hand or self.melds or self.pond or self.wall)

    @property
    def hand_tiles(self) -> tuple[Tile, ...]:
        return face_up(self.hand)

    @property
    def hand_text(self) -> str:
        return format_tiles(self.hand_tiles)

    @property
    def drawn_tile(self) -> Tile | None:
        return None if self.drawn is None else self.drawn.tile

    @property
    def hand_backs(self) -> int:
        """Concealed tiles seen from behind or laid face down."""
        return count_backs(self.hand)

    @property
    def pond_tiles(self) -> tuple[Tile, ...]:
        return face_up(self.pond)

    @property
    def pond_text(self) -> str:
        return format_tiles(self.pond_tiles)

    @property
    def wall_backs(self) -> int:
        return count_backs(self.wall)

    @property
    def indicators(self) -> tuple[Tile, ...]:
        """Face-up tiles in this seat's wall: dora indicators."""
        return face_up(self.wall)

    def as_json(self) -> dict:
        return {
            "side": self.side.value,
            "hand": self.hand_text,
            "hand_backs": self.hand_backs,
            "drawn": None if self.drawn_tile is None else str(self.drawn_tile),
            "melds": [
                {
                    "tiles": m.text,
                    "backs": m.backs,
                    "called": m.called,
                    "from": None if m.called_from is None else m.called_from.value,
                }
                for m in self.melds
            ],
            "pond": self.pond_text,
            "riichi": self.riichi,
            "wall_backs": self.wall_backs,
            "indicators": format_tiles(self.indicators),
        }


@dataclass(frozen=True, slots=True)
class TableObservation:
    """A whole table: the four seats (bottom, right, top, left; empty where nobody's tiles were seen), the dora
    indicators, the estimated centre (x, y) in pixels, and the detections that fit nowhere."""

    seats: tuple[SeatObservation, ...]
    centre: tuple[float, float]
    unassigned: tuple[Detection, ...] = ()

    def seat(self, side: ViewSide) -> SeatObservation:
        return self.seats[side.turns]

    @property
    def dora_indicators(self) -> tuple[Tile, ...]:
        """ドラ表示牌: the face-up tiles among the walls, seat by seat."""
        return tuple(t for s in self.seats for t in s.indicators)

    @property
    def dead_wall(self) -> ViewSide | None:
        """The seat whose wall shows the dora indicators (the dead wall), if any does."""
        for s in self.seats:
            if s.indicators:
                return s.side
        return None

    @property
    def backs(self) -> int:
        """All face-down tiles seen, unassigned ones included."""
        inside = sum(s.hand_backs + s.wall_backs + sum(m.backs for m in s.melds) for s in self.seats)
        return inside + count_backs(self.unassigned)

    def describe(self) -> list[str]:
        """One line per seat that shows tiles, then the dora indicators and what fit nowhere (for a terminal)."""
        lines = []
        for s in self.seats:
            if not s.present:
                continue
            parts = [f"hand {s.hand_text or '-'}" + (f" +{s.hand_backs} face down" if s.hand_backs else "")]
            if s.drawn_tile is not None:
                parts[0] += f" drawn {s.drawn_tile}"
            for m in s.melds:
                source = f" from {m.called_from.value}" if m.called_from else " closed"
                parts.append(f"meld {m.text or '-'}" + (f"+{m.backs} down" if m.backs else "") + source)
            if s.pond:
                parts.append(
                    f"pond {s.pond_text}" + (f" (riichi on discard {s.riichi + 1})" if s.riichi is not None else "")
                )
            if s.wall:
                parts.append(f"wall {len(s.wall)}")
            lines.append(f"{s.side.value:>6}: " + ", ".join(parts))
        if self.dora_indicators:
            lines.append(f"  dora indicators {format_tiles(self.dora_indicators)} (dead wall: {self.dead_wall.value})")
        if self.unassigned:
            lines.append(f"  unassigned: {len(self.unassigned)}")
        return lines

    def as_json(self) -> dict:
        return {
            "centre": [round(v, 1) for v in self.centre],
            "seats": [s.as_json() for s in self.seats],
            "dora_indicators": format_tiles(self.dora_indicators),
            "dead_wall": None if self.dead_wall is None else self.dead_wall.value,
            "backs": self.backs,
            "unassigned": [d.as_json() for d in self.unassigned],
        }


# --- geometry in a seat's frame -----------------------------------------------------------------------------


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


def _span(index: int, det: Detection, side: ViewSide, centre: tuple[float, float]) -> _Span:
    b, (cx, cy) = det.box, centre
    x0, x1, y0, y1 = b.x1 - cx, b.x2 - cx, b.y1 - cy, b.y2 - cy
    if side is ViewSide.BOTTOM:
        return _Span(index, x0, x1, y0, y1)
    if side is ViewSide.RIGHT:
        return _Span(index, -y1, -y0, x0, x1)
    if side is ViewSide.TOP:
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
    n = len(spans)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if _joins(spans[i], spans[j], gap, share):
                parent[find(i)] = find(j)
    chains: dict[int, list[_Span]] = {}
    for i in range(n):
        chains.setdefault(find(i), []).append(spans[i])
    groups = list(chains.values())
    merged = True
    while merged:
        merged = False
        for gi in range(len(groups)):
            for gj in range(gi + 1, len(groups)):
                a0, a1 = _extent(groups[gi])
                b0, b1 = _extent(groups[gj])
                if _overlap(a0, a1, b0, b1) >= share * min(a1 - a0, b1 - b0):
                    groups[gi] = groups[gi] + groups.pop(gj)
                    merged = True
                    break
            if merged:
                break
    for g in groups:
        g.sort(key=lambda s: s.a0 + s.a1)
    groups.sort(key=_depth)
    return groups


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


# --- the centre and the seats -------------------------------------------------------------------------------


def _percentile(values: Sequence[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, max(0, round(q * (len(v) - 1))))]


def estimate_centre(detections: Sequence[Detection], rounds: int = 12) -> tuple[float, float]:
    """The table centre (x, y) in pixels: the middle of the tiles, refined from opposite seats.

    Along each axis the centre lies midway between the outer rows of the two seats across it (left and right give
    x; two walls however short one is); where one of them is missing, or the two disagree with the seats beside it
    by more than two tiles, at the middle of the seats beside it (their rows are centred on it, give or take the
    melds). Where one of them is missing and the outer rows of the other and of both seats beside are walls, the
    walls' square places it: as far in from that wall as the walls beside lie from each other's middle (walls shrink
    from one end as tiles are drawn, so their middles may be tiles off the table's axis; early in a hand only walls
    may be seen), that distance scaled by the walls' stack pitches across the two axes (:func:`_depth_per_width`: a
    camera at an angle shows the table's depth shorter than its width).
    """
    if not detections:
        raise ValueError("no detections to find a table centre in")
    centre = tiles_middle(detections)
    unit = statistics.median(min(d.box.width, d.box.height) for d in detections)
    for _ in range(rounds):
        by_side: dict[ViewSide, list[tuple[float, float]]] = {s: [] for s in ViewSide}
        sure: dict[ViewSide, list[tuple[float, float]]] = {s: [] for s in ViewSide}
        dets_of: dict[ViewSide, list[Detection]] = {s: [] for s in ViewSide}
        for d, (k, certain) in zip(detections, _settled(detections, centre), strict=True):
            by_side[_SIDES[k]].append(d.box.center)
            dets_of[_SIDES[k]].append(d)
            if certain:
                sure[_SIDES[k]].append(d.box.center)
        cx, cy = centre
        left, right = by_side[ViewSide.LEFT], by_side[ViewSide.RIGHT]
        top, bottom = by_side[ViewSide.TOP], by_side[ViewSide.BOTTOM]
        # each axis two ways: between the outer rows of the seats across it (precise when both show the same
        # kind of row: two hands, or two walls), and at the middle of the seats beside it (within about a tile)
        # (two opposite walls lie as far out as each other however short one is: a wall drawn down to a few stacks
        # by a corner is no neighbour's row end, which lies across this seat's axis)
        walled = {s for s in ViewSide if len(sure[s]) >= 3 and _outer_is_wall(dets_of[s], s, centre, unit)}
        across_x = beside_x = across_y = beside_y = None
        if _both(sure[ViewSide.LEFT], sure[ViewSide.RIGHT]) or {ViewSide.LEFT, ViewSide.RIGHT} <= walled:
            across_x = (_percentile([p[0] for p in left], 0.1) + _percentile([p[0] for p in right], 0.9)) / 2
        if len(top) + len(bottom) >= 3:
            beside_x = statistics.median(p[0] for p in _outer(by_side, (ViewSide.TOP, ViewSide.BOTTOM), centre))
        if _both(sure[ViewSide.TOP], sure[ViewSide.BOTTOM]) or {ViewSide.TOP, ViewSide.BOTTOM} <= walled:
            across_y = (_percentile([p[1] for p in top], 0.1) + _percentile([p[1] for p in bottom], 0.9)) / 2
        if len(left) + len(right) >= 3:
            beside_y = statistics.median(p[1] for p in _outer(by_side, (ViewSide.LEFT, ViewSide.RIGHT), centre))
        # the walls' square, from the lines the walls lie on (the rows of stacks, whatever lies beyond them: a
        # standing hand's top edges read as tiles, a hand laid open)
        walls = {s: row for s in ViewSide if len(sure[s]) >= 3 and (row := _wall_row(dets_of[s], s, centre, unit))}
        line = {s: _line(row, s) for s, row in walls.items()}
        if across_y is None and across_x is not None and {ViewSide.LEFT, ViewSide.RIGHT} <= walls.keys():
            half = (line[ViewSide.RIGHT] - line[ViewSide.LEFT]) / 2
            half *= _depth_per_width(walls, centre, unit)
            if ViewSide.BOTTOM in walls and not _both(sure[ViewSide.TOP], sure[ViewSide.BOTTOM]):
                beside_y = line[ViewSide.BOTTOM] - half
            elif ViewSide.TOP in walls and not _both(sure[ViewSide.TOP], sure[ViewSide.BOTTOM]):
                beside_y = line[ViewSide.TOP] + half
        if across_x is None and across_y is not None and {ViewSide.TOP, ViewSide.BOTTOM} <= walls.keys():
            half = (line[ViewSide.BOTTOM] - line[ViewSide.TOP]) / 2
            half /= _depth_per_width(walls, centre, unit)
            if ViewSide.RIGHT in walls and not _both(sure[ViewSide.LEFT], sure[ViewSide.RIGHT]):
                beside_x = line[ViewSide.RIGHT] - half
            elif ViewSide.LEFT in walls and not _both(sure[ViewSide.LEFT], sure[ViewSide.RIGHT]):
                beside_x = line[ViewSide.LEFT] + half
        cx = _pick(across_x, beside_x, cx, unit)
        cy = _pick(across_y, beside_y, cy, unit)
        moved = abs(cx - centre[0]) + abs(cy - centre[1])
        centre = (cx, cy)
        if moved < 0.5:
            break
    return centre


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


def _outer_row(dets: Sequence[Detection], side: ViewSide, centre: tuple[float, float], unit: float) -> list[Detection]:
    """A seat's outer row: its tiles within a tile of its farthest."""
    if not dets:
        return []
    depth = [_depths(d, centre)[side.turns] for d in dets]
    far = _percentile(depth, 0.9)
    return [d for d, x in zip(dets, depth, strict=True) if x >= far - unit]


def _outer_is_wall(dets: Sequence[Detection], side: ViewSide, centre: tuple[float, float], unit: float) -> bool:
    """Whether a seat's outer row (:func:`_outer_row`) is a wall: three or more, mostly face down and lying (deeper
    than wide in that seat's frame; a hand standing seen from behind shows shallow boxes)."""
    if len(dets) < 3:
        return False
    outer = _outer_row(dets, side, centre, unit)
    backs = sum(d.is_back for d in outer)
    spans = [_span(0, d, side, centre) for d in outer]
    return len(outer) >= 3 and backs >= WALL_BACKS * len(outer) and statistics.median(1 / s.ratio for s in spans) >= 1.1


def _wall_row(dets: Sequence[Detection], side: ViewSide, centre: tuple[float, float], unit: float) -> list[Detection]:
    """A seat's wall: its outermost row (tiles within a tile's width in depth) of three or more that is mostly face
    down and lying (:data:`WALL_BACKS`; deeper than wide in that seat's frame: a standing hand seen from behind shows
    shallow boxes); [] when it shows none. Rows beyond it are passed over (a standing hand's top edges boxed as tiles,
    a hand laid open)."""
    depth = [_depths(d, centre)[side.turns] for d in dets]
    left = sorted(range(len(dets)), key=lambda i: -depth[i])
    while len(left) >= 3:
        far = depth[left[0]]
        row = [i for i in left if depth[i] >= far - unit]
        spans = [_span(0, dets[i], side, centre) for i in row]
        backs = sum(dets[i].is_back for i in row)
        if len(row) >= 3 and backs >= WALL_BACKS * len(row) and statistics.median(1 / s.ratio for s in spans) >= 1.1:
            return [dets[i] for i in row]
        left = [i for i in left if depth[i] < far - unit]
    return []


def _line(row: Sequence[Detection], side: ViewSide) -> float:
    """Where a seat's row lies across its axis: the median of its tiles' y (bottom, top) or x (left, right)."""
    axis = 0 if side in (ViewSide.LEFT, ViewSide.RIGHT) else 1
    return statistics.median(d.box.center[axis] for d in row)


def _stack_pitch(wall: Sequence[Detection], side: ViewSide, unit: float) -> float | None:
    """The spacing of a seat's wall stacks along its row (the median gap, a face-up indicator on its stack counted
    once); None for a wall of fewer than four stacks."""
    axis = 1 if side in (ViewSide.LEFT, ViewSide.RIGHT) else 0
    along = sorted(d.box.center[axis] for d in wall)
    gaps = [b - a for a, b in itertools.pairwise(along) if b - a > 0.3 * unit]
    return statistics.median(gaps) if len(gaps) >= 3 else None


def _depth_per_width(walls: dict[ViewSide, list[Detection]], centre: tuple[float, float], unit: float) -> float:
    """How long a length along y looks against the same along x: the stack pitch of the walls lying along y over
    that of those along x (1 without a wall each way). A camera at an angle foreshortens the table's depth, and the
    view from straight above the tiles' sizes give (:class:`vision.read.table.geometry.Perspective`) keeps that;
    within :data:`SAME_PITCH` of 1, 1."""

    def pitch(sides: tuple[ViewSide, ViewSide]) -> float | None:
        found = [p for s in sides if s in walls and (p := _stack_pitch(walls[s], s, unit)) is not None]
        return statistics.mean(found) if found else None

    along_y, along_x = pitch((ViewSide.LEFT, ViewSide.RIGHT)), pitch((ViewSide.TOP, ViewSide.BOTTOM))
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
    by_side: dict[ViewSide, list[tuple[float, float]]], sides: tuple[ViewSide, ...], centre: tuple[float, float]
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


def _assign_seats(dets: Sequence[Detection], centre: tuple[float, float]) -> list[int]:
    """The seat (0..3) of each detection: the one it lies deepest for; near a diagonal, the seat whose row it
    continues (a hand's end meets the next seat's melds there). Only face-up tiles lie across their seat's axis
    (riichi, called, added), next to face-up ones: at a corner the next wall's end stacks lie in line with this
    one's row, turned, and are not its own."""
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
    spans = {k: [_span(i, d, _SIDES[k], centre) for i, d in enumerate(dets)] for k in range(4)}

    def settle() -> None:
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

    def turned(i: int) -> bool:
        first, second = contested[i]
        return spans[first][i].ratio >= STACKED_RATIO and spans[second][i].ratio < 1.0

    first_contested = dict(contested)
    settle()
    # an added kan's fourth tile by a corner may lie in line with the next seat's wall and have joined its row: it is
    # its meld's, whose called tile (that seat's, across its axis in a row of its upright tiles) it lies against
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
    # what joins no seat's row lies in a corner by itself (a wall's or the dead wall's last stacks, the rest drawn):
    # a face-down tile lying across its deepest seat's axis and along the other's is the other's; a face-up one too
    # where it lies in a row there with others alike (a called tile lies across its own seat's axis, by itself)
    for i in [i for i in contested if dets[i].is_back and turned(i)]:
        seat[i] = contested.pop(i)[1]
    settle()
    for i in [i for i in contested if turned(i)]:
        second = contested[i][1]
        beside = [spans[second][j] for j in contested if j != i and spans[second][j].ratio < 1.0]
        if any(_joins(spans[second][i], s, 2.0, 0.5) for s in beside):
            seat[i] = second
    for i, (first, _second) in contested.items():
        if seat[i] < 0:
            seat[i] = first
    return seat


# --- naming the rows ---------------------------------------------------------------------------------------


@dataclass
class _SeatRows:
    side: ViewSide
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


def _wall_like(row: Sequence[_Span], dets: Sequence[Detection]) -> bool:
    """Three or more tiles, mostly face down and lying (deeper than wide, as a wall's top tier is; a hand standing
    towards its player shows a shallow box from above)."""
    backs = sum(dets[s.index].is_back for s in row)
    return len(row) >= 3 and backs >= WALL_BACKS * len(row) and statistics.median(1 / s.ratio for s in row) >= 1.1


def _full_wall(row: Sequence[_Span], dets: Sequence[Detection]) -> bool:
    """A wall of four or more stacks, to measure other rows by: wall-like, and not closed kans (face down at both
    ends like a wall's stacks, but laid where hands lie, see :func:`_closed_kans`)."""
    return len(row) >= 4 and _wall_like(row, dets) and not _closed_kans(row, _gaps(row), dets)


def _split_hand(
    row: list[_Span], dets: Sequence[Detection]
) -> tuple[list[_Span], _Span | None, list[list[_Span]], list[_Span]]:
    """The concealed part, the drawn tile, the melds and the tiles that fit none of them, of the outermost row
    (melds lie at its right end; the drawn tile is set apart between the concealed part and the melds)."""
    side = _sideways(row)
    gaps = _gaps(row)
    # segments split by gaps wide enough to set a hand apart from its melds
    cuts = [0] + [j for j in range(1, len(row)) if gaps[j] > HAND_GAP] + [len(row)]
    segments = [(cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1)]
    start = len(row)
    for a, b in reversed(segments[1:]):  # from the right, while segments look like melds
        if b - a >= 3 or any(side[a:b]):
            start = a
        else:
            break
    sideways_in_hand = [j for j in range(start) if side[j]]
    if sideways_in_hand:  # a meld laid against the hand: it starts at most three tiles before its called tile
        first = sideways_in_hand[0]

        def fit(j: int) -> tuple[int, float]:
            pieces = _split_melds(row[j:], gaps[j:], side[j:], dets)
            return sum(_meld_score(p, side[j + i : j + i + len(p)], dets) for i, p in _offsets(pieces)), gaps[j]

        start = max(range(max(0, first - 3), first + 1), key=fit)
    # closed kans laid last lie next to the hand (beside a standing hand, whose tiles show no boxes, they start the
    # row): no concealed part shows face down at both ends with two alike between
    while start >= 4 and _closed_kan(row[start - 4 : start], dets) and (start == 4 or gaps[start - 4] > MELD_GAP):
        start -= 4
    hand, region = row[:start], row[start:]
    drawn = None
    if len(hand) >= 2 and gaps[len(hand) - 1] > DRAWN_GAP and not dets[hand[-1].index].is_back:
        hand, drawn = hand[:-1], hand[-1]
    melds: list[list[_Span]] = []
    leftover: list[_Span] = []
    for k, piece in enumerate(_split_melds(region, gaps[start:], side[start:], dets)):
        if len(piece) >= MELD_MIN:
            melds.append(piece)
            continue
        # too few for a meld: set apart right after the hand, one face-up tile (a face-down one beside it is a
        # neighbour's wall end or a misread) is the drawn tile; the rest fit nowhere
        up = [s for s in piece if not dets[s.index].is_back]
        if k == 0 and drawn is None and hand and gaps[start] > DRAWN_GAP and len(up) == 1 and len(piece) <= 2:
            drawn = up[0]
            leftover += [s for s in piece if s is not drawn]
        else:
            leftover += piece
    return hand, drawn, melds, leftover


def _split_melds(
    region: list[_Span], gaps: list[float], side: list[bool], dets: Sequence[Detection]
) -> list[list[_Span]]:
    """Melds from a run of meld tiles: split at visible gaps; a run too long for one meld (laid without a gap) is
    cut into threes and fours so that each piece looks most like one meld (see :func:`_meld_score`), the wider
    gaps breaking ties."""
    if not region:
        return []
    cuts = [0] + [j for j in range(1, len(region)) if gaps[j] > MELD_GAP] + [len(region)]
    melds: list[list[_Span]] = []
    for k in range(len(cuts) - 1):
        a, b = cuts[k], cuts[k + 1]
        if b - a <= 4:
            melds.append(region[a:b])
            continue
        best = max(
            _compositions(b - a),
            key=lambda sizes: (
                sum(_meld_score(region[i:j], side[i:j], dets) for i, j in _pieces(a, sizes)),
                sum(gaps[i] for i, _j in _pieces(a, sizes)[1:]),
            ),
        )
        melds += [region[i:j] for i, j in _pieces(a, best)]
    return melds


def _offsets(pieces: list[list[_Span]]) -> list[tuple[int, list[_Span]]]:
    out, i = [], 0
    for p in pieces:
        out.append((i, p))
        i += len(p)
    return out


def _compositions(n: int) -> list[tuple[int, ...]]:
    """Ways to lay ``n`` tiles as melds of three and four (with a short piece at the left when none fits)."""
    if n <= 4:
        return [(n,)]
    out = [(*rest, size) for size in (3, 4) if n - size >= 3 for rest in _compositions(n - size)]
    return out or [(n - 3, 3)]


def _pieces(start: int, sizes: tuple[int, ...]) -> list[tuple[int, int]]:
    out, i = [], start
    for size in sizes:
        out.append((i, i + size))
        i += size
    return out


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


def _meld_score(piece: list[_Span], side: list[bool], dets: Sequence[Detection]) -> int:
    """How much a run of tiles looks like one meld: one tile sideways (or a closed kan's face-down ends), and
    tiles of one kind (pon, kan) or a run of one suit (chi)."""
    n_side = sum(side)
    backs = [dets[s.index].is_back for s in piece]
    closed_kan = len(piece) == 4 and n_side == 0 and backs[0] and backs[-1] and not any(backs[1:-1])
    score = 2 if n_side == 1 or closed_kan else -2
    if len(piece) < 3:
        score -= 3
    kinds = sorted(t.deaka().kind for s in piece if (t := dets[s.index].tile) is not None)
    if len(kinds) >= 2 and (
        len(set(kinds)) == 1
        or (
            len(kinds) == 3
            and kinds[0] < 27
            and kinds[2] // 9 == kinds[0] // 9
            and kinds == list(range(kinds[0], kinds[0] + 3))
        )
    ):
        score += 1
    return score


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


def _seat_observation(
    seat: _SeatRows,
    dets: Sequence[Detection],
    has_hand: bool,
    inside: float | None,
    reach: float | None,
    unassigned: list[int],
) -> SeatObservation:
    side, rows = seat.side, [list(r) for r in seat.rows]
    hand_row: list[_Span] = []
    if has_hand and rows:
        hand_row = rows.pop()
    hand, drawn, meld_rows, leftover = _split_hand(hand_row, dets) if hand_row else ([], None, [], [])
    unassigned += [s.index for s in leftover]
    melds = [_meld(m, seat.stacked, dets, side) for m in meld_rows]
    joined = {d.index for m in meld_rows for d in m}
    unassigned += [a.index for c, a in seat.stacked.items() if c not in joined]  # against no meld: fits nowhere
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
        for s in row:
            if dets[s.index].is_back:  # a face-down tile in the pond is no discard (or a misread)
                unassigned.append(s.index)
            else:
                pond_spans.append(s)
    # the riichi tile: across where the other discards lie along (compared with the whole pond: it may start a row);
    # a pond shows one (when it is called the next discard is laid sideways instead): others across fit no seat
    # (another seat's discards, read about a centre off the table's)
    across = []
    for s in pond_spans:
        others = [o.ratio for o in pond_spans if o is not s]
        if s.ratio >= 1.0 and (s.ratio >= SIDEWAYS_RATIO * statistics.median(others) if others else s.ratio >= 1.2):
            across.append(s)
    unassigned += [s.index for s in across[1:]]
    pond_spans = [s for s in pond_spans if s not in across[1:]]
    riichi = pond_spans.index(across[0]) if across else None
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


def _meld(row: list[_Span], stacked: dict[int, _Span], dets: Sequence[Detection], side: ViewSide) -> MeldObservation:
    """A meld from its row, with an added kan's fourth tile (in ``stacked``, by its called tile) read in beside the
    called tile (see :class:`MeldObservation`)."""
    flags = _sideways(row)
    called = flags.index(True) if any(flags) else None
    if called is None or row[called].index not in stacked:
        return MeldObservation(tuple(dets[s.index] for s in row), called, side)
    added = called if called == len(row) - 1 else called + 1
    row = [*row[:added], stacked[row[called].index], *row[added:]]
    called += called == added
    return MeldObservation(tuple(dets[s.index] for s in row), called, side, added)


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


def _matched_centre(
    per_seat: list[_SeatRows], dets: Sequence[Detection], centre: tuple[float, float]
) -> tuple[float, float]:
    """The centre between rows of one kind at opposite seats, axis by axis: their walls (rows of four or more
    lying face down) where both show, else their innermost rows inside a hand (the first rows of the ponds).

    Hands may be unseen on one side and not the other (standing, seen edge on), which biases the first estimate;
    walls are laid as a square and ponds start just inside it, so opposite ones lie about equally far out.
    """
    walls: dict[ViewSide, float] = {}
    ponds: dict[ViewSide, float] = {}
    for s in per_seat:
        found = [r for r in s.rows if _full_wall(r, dets)]
        if found:  # the innermost: a hand laid face down lies beyond its wall
            walls[s.side] = _depth(found[0])
        inner = [r for r in s.rows[:-1] if len(r) >= 2 and not _wall_like(r, dets)]
        if inner and (not found or _depth(inner[0]) < _depth(found[0])):
            ponds[s.side] = _depth(inner[0])
    # where a pond's first row starts: three tiles left of its player's middle (six to a row, centred), along
    # that seat's axis; with the signs that turn it into an image shift (bottom: +x, top: -x, right: -y, left: +y)
    starts: dict[ViewSide, float] = {}
    for s in per_seat:
        inner = [r for r in s.rows[:-1] if len(r) >= 2 and not _wall_like(r, dets)]
        if inner:
            row = inner[0]
            step = _unit(row) + statistics.median(b.a0 - a.a1 for a, b in itertools.pairwise(row))
            starts[s.side] = row[0].a0 + 3 * step
    shift = []
    for (a, b), beside in (
        ((ViewSide.LEFT, ViewSide.RIGHT), ((ViewSide.BOTTOM, 1.0), (ViewSide.TOP, -1.0))),
        ((ViewSide.TOP, ViewSide.BOTTOM), ((ViewSide.LEFT, 1.0), (ViewSide.RIGHT, -1.0))),
    ):
        if a in walls and b in walls:
            shift.append((walls[b] - walls[a]) / 2)
        elif a in ponds and b in ponds:
            shift.append((ponds[b] - ponds[a]) / 2)
        elif any(side in starts for side, _sign in beside):
            shift.append(statistics.mean(sign * starts[side] for side, sign in beside if side in starts))
        else:
            shift.append(0.0)
    return (centre[0] + shift[0], centre[1] + shift[1])


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
    sideways tile in a pond, one or two tiles at the hand's end that are neither a meld nor the drawn tile) go to
    ``unassigned``; nothing here raises on odd detections.

    >>> from engine.tiles import parse_tiles
    >>> from vision.read.geometry import Box
    >>> from vision.read.labels import BACK_CLASS, class_of_tile
    >>> def row(text, x, y):  # upright lying tiles, 30 x 40 px, left to right
    ...     return [Detection.of_class(class_of_tile(t), Box(x + 31 * i, y, x + 31 * i + 30, y + 40), 0.9)
    ...             for i, t in enumerate(parse_tiles(text))]
    >>> backs = [Detection.of_class(BACK_CLASS, Box(300 + 31 * i, 100, 330 + 31 * i, 130), 0.9) for i in range(13)]
    >>> obs = read_table(row("123m456p789s11z", 300, 700) + row("19p", 470, 560) + backs + row("2z", 600, 260))
    >>> bottom, top = obs.seat(ViewSide.BOTTOM), obs.seat(ViewSide.TOP)
    >>> bottom.hand_text, bottom.pond_text, top.hand_backs, top.pond_text, obs.seat(ViewSide.LEFT).present
    ('123m456p789s11z', '19p', 13, '2z', False)
    """
    good = [d for d in detections if d.box.width > 0 and d.box.height > 0]
    bad = [d for d in detections if not (d.box.width > 0 and d.box.height > 0)]
    if not good:
        mid = (size.width / 2, size.height / 2) if size else (0.0, 0.0)
        return TableObservation(tuple(SeatObservation(s) for s in ViewSide), centre or mid, tuple(bad))
    if centre is None:
        centre = _estimated(good, size)
    per_seat, unassigned = _seat_rows(good, centre)
    # how far out hands lie, from the seat whose outer row lies farthest (walls never lie beyond hands, and a
    # hand standing face to its player may be seen only by its top edge, which no detector labels)
    # walls are a square with the hands outside it: a row inside the nearest wall (in tiles) is a pond, even the
    # outer row of a seat whose wall is drawn away (taken for a hand, it would make every wall look like one)
    walls = [_depth(w[0]) / _unit(w[0]) for s in per_seat if (w := [r for r in s.rows if _full_wall(r, good)])]
    inside = min(walls) if walls else None
    reaches = [r for s in per_seat if (r := s.reach(good)) is not None and (inside is None or r > inside)]
    reach = max(reaches) if reaches else None
    seats = []
    for s in per_seat:
        has_hand = bool(s.rows) and (
            _looks_like_hand(s.rows[-1], reach, inside, good) or _kans_beyond_the_wall(s.rows, inside, good)
        )
        seats.append(_seat_observation(s, good, has_hand, inside, reach, unassigned))
    return TableObservation(tuple(seats), centre, tuple(bad) + tuple(good[i] for i in sorted(unassigned)))
