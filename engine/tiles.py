"""Tiles: the one tile type, and mpsz notation.

A tile is one of 34 kinds (0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 East South West North
White Green Red) plus a flag for a red five. mpsz text (``123m0p55z``) is parsed and printed
here only; algorithms inside the engine use 34-count arrays.

>>> parse_tiles("123m0p55z")
(Tile.parse('1m'), Tile.parse('2m'), Tile.parse('3m'), Tile.parse('0p'), Tile.parse('5z'), Tile.parse('5z'))
>>> format_tiles(parse_tiles("3m12m0p5z5z"), sort=True)
'123m0p55z'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from engine.errors import InvalidNotation

SUITS = "mpsz"
NUM_KINDS = 34
#: Kinds of the three fives that may be red: 5m, 5p, 5s.
FIVE_KINDS = (4, 13, 22)


class Suit(IntEnum):
    MAN = 0
    PIN = 1
    SOU = 2
    HONOR = 3


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One physical tile: a kind 0..33 and whether it is a red five (aka dora)."""

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < NUM_KINDS:
            raise InvalidNotation(f"tile kind {self.kind} is outside 0..33")
        if self.red and self.kind not in FIVE_KINDS:
            raise InvalidNotation(f"only fives can be red, not {_kind_text(self.kind)}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile, e.g. ``5m``, ``0p`` (red five) or ``7z`` (Red dragon)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise InvalidNotation(f"expected one tile, got {_excerpt(text)}")
        return tiles[0]

    @property
    def suit(self) -> Suit:
        return Suit(self.kind // 9)

    @property
    def number(self) -> int:
        """1..9 within a suit; 1..7 for honours (East..Red). A red five is 5."""
        return self.kind % 9 + 1

    @property
    def is_honor(self) -> bool:
        """字牌: winds and dragons."""
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        """老頭牌: a 1 or 9 of a suit."""
        return not self.is_honor and self.number in (1, 9)

    @property
    def is_yaochuu(self) -> bool:
        """么九牌: terminals and honours."""
        return self.is_honor or self.is_terminal

    @property
    def is_simple(self) -> bool:
        """中張牌: 2..8 of a suit."""
        return not self.is_yaochuu

    def deaka(self) -> Tile:
        """The same kind without the red flag."""
        return Tile(self.kind) if self.red else self

    def dora_from_indicator(self) -> Tile:
        """The dora that this tile points to when it is a dora indicator (9 -> 1, N -> E, Red -> White)."""
        k = self.kind
        if k < 27:
            return Tile(k - k % 9 + (k % 9 + 1) % 9)
        if k < 31:
            return Tile(27 + (k - 27 + 1) % 4)
        return Tile(31 + (k - 31 + 1) % 3)

    def __str__(self) -> str:
        return "0" + SUITS[self.kind // 9] if self.red else _kind_text(self.kind)

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


def _kind_text(kind: int) -> str:
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


#: Every plain kind, in kind order.
ALL_KINDS: tuple[Tile, ...] = tuple(Tile(k) for k in range(NUM_KINDS))
RED_FIVES: tuple[Tile, ...] = tuple(Tile(k, red=True) for k in FIVE_KINDS)


#: What tile notation is written with, besides the suit letters: ASCII only (``str.isdigit`` and
#: ``str.isspace`` take in other scripts' digits and spaces).
ASCII_DIGITS = frozenset("0123456789")
ASCII_SPACES = frozenset(" \t\r\n")


def _excerpt(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut short when long."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse mpsz text into tiles in the order written. Spaces are ignored.

    Digits are collected until a suit letter; ``0`` is a red five; honours are 1z..7z. Only ASCII
    digits count: ``²``, ``①`` or a full-width ``１`` is an unknown character, not a 2 or a 1.

    >>> parse_tiles("10m 5z")
    (Tile.parse('1m'), Tile.parse('0m'), Tile.parse('5z'))
    """  # noqa: RUF002 - the full-width one is the character refused
    tiles: list[Tile] = []
    pending: list[str] = []
    for ch in text:
        if ch in ASCII_SPACES:
            continue
        if ch in ASCII_DIGITS:
            pending.append(ch)
        elif ch in SUITS:
            if not pending:
                raise InvalidNotation(f"suit letter {ch!r} without digits in {_excerpt(text)}")
            suit = SUITS.index(ch)
            for d in pending:
                n = int(d)
                if suit == 3:
                    if not 1 <= n <= 7:
                        raise InvalidNotation(f"honour tiles are 1z..7z, not {d}z (in {_excerpt(text)})")
                    tiles.append(Tile(27 + n - 1))
                elif n == 0:
                    tiles.append(Tile(suit * 9 + 4, red=True))
                else:
                    tiles.append(Tile(suit * 9 + n - 1))
            pending.clear()
        elif ch in SUITS.upper():
            raise InvalidNotation(f"suit letters are lower case: {ch.lower()!r}, not {ch!r} (in {_excerpt(text)})")
        else:
            raise InvalidNotation(f"unknown character {ch!r} (U+{ord(ch):04X}) in tiles {_excerpt(text)}")
    if pending:
        raise InvalidNotation(f"digits {''.join(pending)!r} without a suit letter in {_excerpt(text)}")
    return tuple(tiles)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = False) -> str:
    """Print tiles as mpsz, grouping consecutive tiles of one suit (``123m0p55z``).

    With ``sort`` the tiles are sorted by kind first (a red five sorts as a five, before plain fives).
    """
    seq: Sequence[Tile] = sorted(tiles, key=sort_key) if sort else list(tiles)
    out: list[str] = []
    digits: list[str] = []
    suit: int | None = None
    for t in seq:
        s = t.kind // 9
        if suit is not None and s != suit:
            out.append("".join(digits) + SUITS[suit])
            digits = []
        suit = s
        digits.append("0" if t.red else str(t.number))
    if suit is not None:
        out.append("".join(digits) + SUITS[suit])
    return "".join(out)


def sort_key(tile: Tile) -> tuple[int, int]:
    """Kind order; a red five just before the plain fives of its suit."""
    return (tile.kind, 0 if tile.red else 1)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """How many of each of the 34 kinds (red fives counted as fives)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t.kind] += 1
    return counts


class Wind(IntEnum):
    """Seat and round winds. ``Wind.EAST.tile`` is 1z."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    @property
    def tile(self) -> Tile:
        return Tile(27 + self.value)

    @property
    def letter(self) -> str:
        return "ESWN"[self.value]

    @classmethod
    def parse(cls, text: str) -> Wind:
        """``E``/``S``/``W``/``N`` (or the full English name)."""
        key = text.strip().upper()[:1]
        if key not in "ESWN" or not key:
            raise InvalidNotation(f"a wind is E, S, W or N, not {text!r}")
        return cls("ESWN".index(key))
