"""Melds: chi, pon, open kan, added kan, closed kan; which tile was called and from whom."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from engine.errors import InvalidHand
from engine.tiles import Tile, format_tiles, sort_key


class MeldKind(StrEnum):
    CHI = "chi"  # チー: a sequence called from the player on the left
    PON = "pon"  # ポン
    KAN = "kan"  # 大明槓: open kan on a discard
    KAKAN = "kakan"  # 加槓: a pon upgraded with the fourth tile (added kan)
    ANKAN = "ankan"  # 暗槓: closed kan

    @property
    def is_kan(self) -> bool:
        return self in (MeldKind.KAN, MeldKind.KAKAN, MeldKind.ANKAN)

    @property
    def is_open(self) -> bool:
        """Whether the meld opens the hand (every kind but a closed kan)."""
        return self is not MeldKind.ANKAN


class Relative(int, Enum):
    """Where the called tile came from, relative to the caller."""

    SELF = 0
    RIGHT = 1  # 下家 shimocha
    ACROSS = 2  # 対面 toimen
    LEFT = 3  # 上家 kamicha

    @classmethod
    def of(cls, caller: int, discarder: int) -> Relative:
        return cls((discarder - caller) % 4)


@dataclass(frozen=True)
class Meld:
    """A meld on the table. ``called`` is the tile taken from ``source`` (None for a closed kan)."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    source: Relative = Relative.LEFT

    def __post_init__(self) -> None:
        size = 4 if self.kind.is_kan else 3
        if len(self.tiles) != size:
            shown = format_tiles(self.tiles)
            raise InvalidHand(f"a {self.kind.value} has {size} tiles, not {len(self.tiles)}: {shown}")
        kinds = sorted(t.kind for t in self.tiles)
        if self.kind is MeldKind.CHI:
            if kinds[0] >= 27 or kinds[0] // 9 != kinds[2] // 9 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
                raise InvalidHand(f"a chi is three in a row of one suit, not {format_tiles(self.tiles)}")
            if self.source is not Relative.LEFT:
                raise InvalidHand("a chi can only be called from the player on the left")
        elif len(set(kinds)) != 1:
            raise InvalidHand(f"a {self.kind.value} is {size} of one kind, not {format_tiles(self.tiles)}")
        if self.kind is MeldKind.ANKAN:
            if self.called is not None:
                raise InvalidHand("a closed kan has no called tile")
        elif self.called is not None and self.called not in self.tiles:
            raise InvalidHand(f"called tile {self.called} is not in the meld {format_tiles(self.tiles)}")

    @property
    def is_open(self) -> bool:
        return self.kind.is_open

    @property
    def kind_index(self) -> int:
        """The lowest tile kind of the meld (the kind itself for pon and kan)."""
        return min(t.kind for t in self.tiles)

    def notation(self) -> str:
        """The meld in hand notation, e.g. ``chi:3m24m`` or ``ankan:1111m`` (called tile first)."""
        rest = list(self.tiles)
        head = ""
        if self.called is not None:
            rest.remove(self.called)
            head = str(self.called)
        body = format_tiles(sorted(rest, key=sort_key))
        text = f"{self.kind.value}:{head}{body}"
        if self.kind is not MeldKind.ANKAN and self.kind is not MeldKind.CHI and self.source is not Relative.ACROSS:
            text += "/" + {Relative.LEFT: "L", Relative.RIGHT: "R", Relative.SELF: "S"}[self.source]
        return text
