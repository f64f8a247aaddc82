"""What lies on a table at one moment, as the renderer draws it from above: each seat's hand, melds and pond, the
walls, the dead wall's indicators, and an arm reaching in.

These values describe a scene; :func:`vision.synth.table_render.render_table` draws one (lab only: the runtime
never renders). Seats are named by the frame edge they sit at (:class:`~vision.read.table.FrameSide`), listed in
the order of play: bottom, right, top, left.

    >>> from engine.tiles import parse_tiles
    >>> east = SeatScene(pond=parse_tiles("19m4z"), riichi=2)
    >>> scene = TableScene(seats=(east, SeatScene(), SeatScene(), SeatScene()), dora_indicators=parse_tiles("4p"))
    >>> scene.seat(FrameSide.BOTTOM).pond_text
    '19m4z'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.tiles import Tile, format_tiles
from vision.read.table import FrameSide

#: Tiles of the four walls at the deal's start (17 stacks of two per side), the dead wall included.
WALL_TILES = 136
#: The dead wall's tiles (7 stacks of two).
DEAD_WALL_TILES = 14
#: Stacks in each seat's wall.
WALL_STACKS = 17


class Zone(enum.Enum):
    """A part of the table an arm reaches for: a seat's pond (where its next discard goes), its melds (where the
    next one is laid), its hand, the live wall (where the next tile is drawn), the dead wall (its indicators)."""

    POND = "pond"
    MELDS = "melds"
    HAND = "hand"
    WALL = "wall"
    DEAD_WALL = "dead_wall"


@dataclass(frozen=True, slots=True)
class MeldScene:
    """An open meld (or a closed kan) as laid at its owner's right, its tiles in the owner's reading order.

    ``called``: the index of the tile laid sideways (None: a closed kan, its two end tiles face down).
    ``added``: the fourth tile of an added kan, laid against the called tile (how: :mod:`vision.synth.table_render`).
    """

    tiles: tuple[Tile, ...]
    called: int | None = None
    added: Tile | None = None

    def __post_init__(self) -> None:
        if not 3 <= len(self.tiles) <= 4:
            raise ValueError(f"a meld has 3 or 4 tiles, not {len(self.tiles)}")
        if self.called is not None and self.called not in range(len(self.tiles)):
            raise ValueError(f"the called tile's index {self.called} is not in the meld")
        if self.called is None and len(self.tiles) != 4:
            raise ValueError("a meld with no called tile is a closed kan of four")
        if self.added is not None and (len(self.tiles) != 3 or self.called is None):
            raise ValueError("an added kan's fourth tile goes on a pon")

    @property
    def closed(self) -> bool:
        return self.called is None


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat's tiles. ``melds`` in the order they were made (the first lies rightmost).

    ``hand``: the concealed tiles standing (a count; seen from above as their tops), or, once laid down face up
    (a win, or tenpai at a draw), the tiles themselves. ``apart``: the tile set apart at the hand's right (a drawn
    tile: True when standing unseen, the tile when shown; the ron tile taken from the pond, shown). ``pond``: the
    discards in order, six to a row; ``riichi``: the index of the one laid sideways. ``stick``: a riichi stick lies
    in front of the pond.
    """

    hand: int | tuple[Tile, ...] = 13
    apart: Tile | bool | None = None
    melds: tuple[MeldScene, ...] = ()
    pond: tuple[Tile, ...] = ()
    riichi: int | None = None
    stick: bool = False

    def __post_init__(self) -> None:
        if self.riichi is not None and self.riichi not in range(len(self.pond)):
            raise ValueError(f"the riichi tile's index {self.riichi} is not in a pond of {len(self.pond)}")

    @property
    def revealed(self) -> bool:
        return not isinstance(self.hand, int)

    @property
    def pond_text(self) -> str:
        return format_tiles(self.pond)


@dataclass(frozen=True, slots=True)
class TableScene:
    """The whole table: the seats by side, the tiles left in the live wall, the dora indicators shown on the dead
    wall (ura indicators too, once turned at a win), and an arm reaching in from one side (None: no arm) towards
    ``arm_zone`` of the seat at ``arm_to`` (None: its own).

    ``wall_break``: the side whose wall was broken and the stack (0..16, counted from that wall's right end as its
    player sees it) the live wall is drawn from; tiles are drawn clockwise seen from above (towards that player's
    left), and the dead wall is the 7 stacks before the break (to its right). Dora indicators lie face up from the
    dead wall's third stack counted from the break, kan dora one stack further each; ura indicators under them.
    """

    seats: tuple[SeatScene, SeatScene, SeatScene, SeatScene] = field(
        default_factory=lambda: (SeatScene(), SeatScene(), SeatScene(), SeatScene())
    )
    live_wall: int = WALL_TILES - DEAD_WALL_TILES - 13 * 4
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    arm: FrameSide | None = None
    arm_zone: Zone = Zone.POND
    arm_to: FrameSide | None = None
    wall_break: tuple[FrameSide, int] = (FrameSide.LEFT, 14)

    def __post_init__(self) -> None:
        if len(self.seats) != 4:
            raise ValueError(f"a table has four seats, not {len(self.seats)}")
        if not 0 <= self.live_wall <= WALL_TILES - DEAD_WALL_TILES:
            raise ValueError(f"the live wall holds 0..{WALL_TILES - DEAD_WALL_TILES} tiles, not {self.live_wall}")
        if not 0 <= len(self.dora_indicators) <= 5:
            raise ValueError("the dead wall shows 0 to 5 dora indicators")
        if len(self.ura_indicators) > len(self.dora_indicators):
            raise ValueError("an ura indicator lies under each dora indicator, no more")
        if self.wall_break[1] not in range(WALL_STACKS):
            raise ValueError(f"the wall breaks at a stack 0..{WALL_STACKS - 1}, not {self.wall_break[1]}")

    def seat(self, side: FrameSide) -> SeatScene:
        return self.seats[side.turns]
