"""Furiten (振聴): when a player may not win by ron, judged from public events.

Three kinds, checked in this order:

* discard furiten (捨て牌振聴): a waiting tile is among the player's own discards, including
  discards another player called away;
* riichi furiten (立直後振聴): after the riichi declaration passed, a waiting tile was discarded
  (or added to a kan) by someone else and not won on: for the rest of the hand;
* temporary furiten (同巡振聴): a waiting tile passed since the player's own last turn; the
  player's next draw (or call) clears it.

A furiten player may still win by tsumo. The waits are those of the hand at the time of the ron,
which has not changed since the player's last discard (a riichi hand not since the declaration),
so judging when the hand is revealed gives the same answer as tracking it live.
``judge(concealed, pond, passed, passed_since_riichi)`` gives a ``Furiten`` (examples in its docstring).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.game.shape import waits
from engine.tiles import Tile, format_tiles


class FuritenKind(StrEnum):
    NONE = "none"
    DISCARD = "discard"
    RIICHI = "riichi"
    TEMPORARY = "temporary"


@dataclass(frozen=True)
class Furiten:
    """The verdict, with the waits and the tiles that cause it."""

    kind: FuritenKind
    waits: tuple[Tile, ...] = ()
    because: tuple[Tile, ...] = ()

    @property
    def is_furiten(self) -> bool:
        return self.kind is not FuritenKind.NONE

    def explain(self) -> str:
        if not self.is_furiten:
            return "not furiten"
        what = {
            FuritenKind.DISCARD: "own discard",
            FuritenKind.RIICHI: "passed after riichi",
            FuritenKind.TEMPORARY: "passed since own last turn",
        }[self.kind]
        return f"{self.kind.value} furiten: waits {format_tiles(self.waits)}, {what} {format_tiles(self.because)}"


def judge(
    concealed: Sequence[int],
    pond: Iterable[Tile],
    passed: Iterable[Tile],
    passed_since_riichi: Iterable[Tile],
) -> Furiten:
    """Judge furiten for concealed counts (3n+1 tiles, melds apart) from the three tile histories.

    >>> from engine.tiles import parse_tiles
    >>> from engine.game.shape import kind_counts
    >>> hand = kind_counts(parse_tiles("123456789m1122p"))   # waits on 1p and 2p
    >>> judge(hand, pond=[Tile.parse("2p")], passed=[], passed_since_riichi=[]).kind
    <FuritenKind.DISCARD: 'discard'>
    >>> judge(hand, pond=[], passed=[Tile.parse("1p")], passed_since_riichi=[]).kind
    <FuritenKind.TEMPORARY: 'temporary'>
    """
    wait_kinds = set(waits(concealed))
    wait_tiles = tuple(Tile(k) for k in sorted(wait_kinds))
    for kind, seen in (
        (FuritenKind.DISCARD, pond),
        (FuritenKind.RIICHI, passed_since_riichi),
        (FuritenKind.TEMPORARY, passed),
    ):
        hit = sorted({t.kind for t in seen} & wait_kinds)
        if hit:
            return Furiten(kind, wait_tiles, tuple(Tile(k) for k in hit))
    return Furiten(FuritenKind.NONE, wait_tiles)
