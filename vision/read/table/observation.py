"""What a whole table reads as: :class:`TableObservation`, one :class:`SeatObservation` per :class:`FrameSide`
(hand, drawn tile, melds, pond, wall), each open meld a :class:`MeldObservation`.

These are the values :func:`~vision.read.table.read_table` returns and the follower compares; they hold detections
and explain themselves (:meth:`TableObservation.describe`, :meth:`TableObservation.as_json`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.tiles import Tile, format_tiles
from vision.read.detector import Detection
from vision.read.rows import TileRun, count_backs, face_up

#: Frames with fewer tiles are close-ups (a hand, a few melds), not a whole table: no per-seat reading for them,
#: and no view made for a hand (a hand seen from a low angle, or from across the table). A table mid-game shows
#: far more: 4 hands or walls of 13-17 tiles, the ponds.
TABLE_MIN_TILES = 30


class FrameSide(enum.Enum):
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
    def shimocha(self) -> FrameSide:
        """下家: the next player, to this player's right."""
        return _SIDES[(self.turns + 1) % 4]

    @property
    def toimen(self) -> FrameSide:
        """対面: the player across."""
        return _SIDES[(self.turns + 2) % 4]

    @property
    def kamicha(self) -> FrameSide:
        """上家: the previous player, to this player's left."""
        return _SIDES[(self.turns + 3) % 4]


_SIDES = tuple(FrameSide)


@dataclass(frozen=True, slots=True)
class MeldObservation(TileRun):
    """One open meld as laid: its tiles in the owner's reading order and which one lies sideways (None: ankan).

    An added kan's fourth tile (``added``, its index; None: none) lies against the called tile towards the pond; it
    is read into the row next to the called tile, after it unless the called tile is rightmost (then before it), so
    that the called tile keeps the place that tells whence it came."""

    detections: tuple[Detection, ...]
    called: int | None
    owner: FrameSide
    added: int | None = None

    @property
    def called_from(self) -> FrameSide | None:
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

    side: FrameSide
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
    indicators, the estimated centre (x, y) in pixels, the detections that fit nowhere (``unassigned``) and those
    sized unlike the table's tiles (``not_tiles``: things on the table a detector boxed, such as dice or paper)."""

    seats: tuple[SeatObservation, ...]
    centre: tuple[float, float]
    unassigned: tuple[Detection, ...] = ()
    not_tiles: tuple[Detection, ...] = ()

    def seat(self, side: FrameSide) -> SeatObservation:
        return self.seats[side.turns]

    @property
    def dora_indicators(self) -> tuple[Tile, ...]:
        """ドラ表示牌: the face-up tiles among the walls, seat by seat."""
        return tuple(t for s in self.seats for t in s.indicators)

    @property
    def dead_wall(self) -> FrameSide | None:
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
        if self.not_tiles:
            lines.append(f"  sized unlike a tile: {len(self.not_tiles)}")
        return lines

    def as_json(self) -> dict:
        return {
            "centre": [round(v, 1) for v in self.centre],
            "seats": [s.as_json() for s in self.seats],
            "dora_indicators": format_tiles(self.dora_indicators),
            "dead_wall": None if self.dead_wall is None else self.dead_wall.value,
            "backs": self.backs,
            "unassigned": [d.as_json() for d in self.unassigned],
            "not_tiles": [d.as_json() for d in self.not_tiles],
        }
