"""What the follower compares between frames: the table's public tiles place by place (each seat's pond and melds,
the dora indicators, the hands laid face up), read from one :class:`~vision.read.table.TableObservation`
(:meth:`TableSnapshot.of`) or fused over many (:mod:`vision.read.fusion`).

Zones, by index (:meth:`TableSnapshot.zone`): 0..3 the seats by side, :data:`DORA` the dora indicators, :data:`HAND`
.. :data:`HAND` + 3 the seats' hands laid face up, by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile
from vision.read.table import FrameSide, MeldObservation, SeatObservation, TableObservation

_SIDES = tuple(FrameSide)
#: The zone index of the dora indicators (zones 0..3 are the seats, by side).
DORA = 4
#: The zone index of the bottom seat's concealed hand, when it lies face up (5..8: the seats' hands, by side).
HAND = 5


@dataclass(frozen=True, slots=True)
class MeldSnapshot:
    """A meld as compared between frames: its tiles (None: face down), which lies sideways, whence it came."""

    tiles: tuple[Tile | None, ...]
    called: int | None = None
    source: FrameSide | None = None

    @classmethod
    def of(cls, meld: MeldObservation) -> MeldSnapshot:
        return cls(tuple(d.tile for d in meld.detections), meld.called, meld.called_from)

    @property
    def face_up(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t is not None)

    @property
    def text(self) -> str:
        return "".join(str(t) if t is not None else "?" for t in self.tiles)


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One seat's public tiles: its pond in order, the index of the sideways pond tile, its melds."""

    pond: tuple[Tile, ...] = ()
    riichi: int | None = None
    melds: tuple[MeldSnapshot, ...] = ()

    @classmethod
    def of(cls, seat: SeatObservation) -> SeatSnapshot:
        tiles = seat.pond_tiles  # the reader leaves face-down tiles out of ponds: the riichi index holds
        riichi = seat.riichi if len(tiles) == len(seat.pond) else None
        # a row of face-down tiles alone is no meld a move makes (a closed kan shows two faces): a standing hand's
        # tops boxed as backs beside the walls
        melds = tuple(v for m in seat.melds if (v := MeldSnapshot.of(m)).face_up)
        return cls(tiles, riichi, melds)


@dataclass(frozen=True, slots=True)
class OpenHand:
    """A concealed hand read face up: its tiles and the one set apart at their right (None: none apart)."""

    tiles: tuple[Tile, ...]
    apart: Tile | None = None

    @classmethod
    def of(cls, seat: SeatObservation) -> OpenHand | None:
        """The seat's hand when it lies face up: at least the tiles a waiting hand holds (13, three fewer per meld)
        read face up, more of them than face down; else None (standing, face down, or not seen)."""
        tiles, apart = seat.hand_tiles, seat.drawn_tile
        shown = len(tiles) + (apart is not None)
        if shown < 13 - 3 * len(seat.melds) or len(tiles) <= seat.hand_backs:
            return None
        return cls(tiles, apart)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table as compared between frames: four seats (by side), the dora indicators, and the hands that
    lie face up (by side; None where a hand is not open)."""

    seats: tuple[SeatSnapshot, ...] = (SeatSnapshot(),) * 4
    indicators: tuple[Tile, ...] = ()
    hands: tuple[OpenHand | None, ...] = (None,) * 4

    @classmethod
    def of(cls, table: TableObservation) -> TableSnapshot:
        seats = [table.seat(s) for s in _SIDES]
        return cls(
            tuple(SeatSnapshot.of(s) for s in seats), table.dora_indicators, tuple(OpenHand.of(s) for s in seats)
        )

    def seat(self, side: FrameSide) -> SeatSnapshot:
        return self.seats[side.turns]

    def zone(self, index: int) -> SeatSnapshot | tuple[Tile, ...] | OpenHand | None:
        if index >= HAND:
            return self.hands[index - HAND]
        return self.indicators if index == DORA else self.seats[index]

    @property
    def open_hand(self) -> bool:
        """Whether any hand lies face up (a win or a draw is being shown)."""
        return any(h is not None for h in self.hands)


def minus(big: Sequence, small: Sequence) -> list | None:
    """``big`` without the items of ``small`` (as multisets), or None when ``small`` is not within ``big``.

    >>> minus([1, 2, 2, 3], [2, 3]), minus([1, 2], [3])
    ([1, 2], None)
    """
    rest = list(big)
    for x in small:
        if x not in rest:
            return None
        rest.remove(x)
    return rest
