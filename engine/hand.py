"""Hands: concealed tiles plus melds, their notation and validation.

Hand notation (used by the CLI, the API and the tests)::

    CONCEALED [MELD ...]
    MELD = KIND ":" TILES ["/" FROM]
    KIND = chi | pon | kan | kakan | ankan
    FROM = L (left, kamicha) | A (across, toimen) | R (right, shimocha)

The first tile written in a called meld is the called tile; ``chi`` is always from the left
and FROM defaults to ``A`` for the others. Examples::

    123m456p789s11z 555p            (no: a meld needs its kind)
    23m456p789s11z pon:555z/L       (one pon of Red from the left, 10 concealed tiles)
    11123m ankan:1111p chi:324s kakan:7777z
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidHand, InvalidNotation
from engine.melds import Meld, MeldKind, Relative
from engine.rules import RuleSet
from engine.tiles import ASCII_SPACES, FIVE_KINDS, Tile, counts34, format_tiles, parse_tiles

_SOURCES = {"L": Relative.LEFT, "A": Relative.ACROSS, "R": Relative.RIGHT}


@dataclass(frozen=True)
class Hand:
    """A player's tiles: the concealed ones (in the order given) and the melds on the table."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    @property
    def concealed_count(self) -> int:
        return len(self.concealed)

    @property
    def is_closed(self) -> bool:
        """門前: no open meld (closed kans keep the hand closed)."""
        return not any(m.is_open for m in self.melds)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile: concealed first, then each meld's, all four of each kan."""
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    @property
    def size(self) -> int:
        """Tile count with each kan counted as three: 13 between turns, 14 with a drawn or winning tile."""
        return len(self.concealed) + 3 * len(self.melds)

    def with_tile(self, tile: Tile) -> Hand:
        return Hand((*self.concealed, tile), self.melds)

    def without_tile(self, tile: Tile) -> Hand:
        rest = list(self.concealed)
        try:
            rest.remove(tile)
        except ValueError:
            raise InvalidHand(f"tile {tile} is not among the concealed tiles {format_tiles(self.concealed)}") from None
        return Hand(tuple(rest), self.melds)

    def notation(self) -> str:
        parts = [format_tiles(self.concealed, sort=True)] + [m.notation() for m in self.melds]
        return " ".join(p for p in parts if p)


def parse_meld(token: str) -> Meld:
    """Parse one meld token such as ``pon:555z/L`` or ``ankan:1111m``."""
    kind_text, sep, rest = token.partition(":")
    if not sep:
        raise InvalidNotation(f"a meld is written KIND:TILES (chi, pon, kan, kakan, ankan), not {token!r}")
    try:
        kind = MeldKind(kind_text.lower())
    except ValueError:
        kinds = "chi, pon, kan, kakan or ankan"
        raise InvalidNotation(f"unknown meld kind {kind_text!r} in {token!r}; use {kinds}") from None
    tiles_text, slash, source_text = rest.partition("/")
    tiles = parse_tiles(tiles_text)
    if kind is MeldKind.CHI:
        source = Relative.LEFT
        if slash and source_text.upper() != "L":
            raise InvalidNotation(f"a chi is always called from the left (L), not {source_text!r}")
    elif slash:
        try:
            source = _SOURCES[source_text.upper()]
        except KeyError:
            raise InvalidNotation(f"a meld comes from L, A or R, not {source_text!r} (in {token!r})") from None
    else:
        source = Relative.ACROSS
    if kind is MeldKind.ANKAN:
        return Meld(kind, tiles, None, Relative.SELF)
    return Meld(kind, tiles, tiles[0] if tiles else None, source)


def parse_hand(text: str) -> Hand:
    """Parse hand notation (see the module doc). No validation beyond the melds' shapes.

    >>> h = parse_hand("234m234p11z chi:324s pon:555z/L")
    >>> h.concealed_count, h.is_closed
    (8, False)
    >>> h.notation()
    '234m234p11z chi:3s24s pon:5z55z/L'
    """
    # split on the tile notation's own spaces (ASCII only: others are unknown characters)
    tokens = [t for t in "".join(" " if ch in ASCII_SPACES else ch for ch in text).split(" ") if t]
    if not tokens:
        raise InvalidNotation("empty hand")
    concealed: list[Tile] = []
    melds: list[Meld] = []
    for tok in tokens:
        if ":" in tok:
            melds.append(parse_meld(tok))
        elif melds:
            raise InvalidNotation(f"concealed tiles come before the melds: {tok!r} follows a meld")
        else:
            concealed.extend(parse_tiles(tok))
    return Hand(tuple(concealed), tuple(melds))


def check_tiles(
    tiles: tuple[Tile, ...] | list[Tile], rules: RuleSet | None = None, *, plain_fives: bool = False
) -> None:
    """At most four of a kind, and no more red fives than the rule set's set has.

    ``plain_fives``: nor four plain fives of a suit whose set has a red one (the 001 set's four 5p are two plain,
    two red). Asked of tiles whose every five was written red or plain: a hand as written, a deal; not of the whole
    table as the camera reads it, where a red five may be read plain. Three plain 5p under 001 stay accepted: a
    hand typed without marking its red fives is read as typed.
    """
    counts = counts34(tiles)
    for kind, n in enumerate(counts):
        if n > 4:
            raise InvalidHand(f"{n} tiles of {Tile(kind)}: a set has only four of each kind")
    if rules is not None:
        for suit, kind in enumerate(FIVE_KINDS):
            reds = sum(1 for t in tiles if t.red and t.kind == kind)
            allowed = rules.red_fives[suit]
            if reds > allowed:
                name = Tile(kind, red=True)
                raise InvalidHand(f"{reds} red {name} but the {rules.name} rules have {allowed}")
            if plain_fives and allowed and counts[kind] - reds == 4:
                raise InvalidHand(
                    f"4 plain {Tile(kind)} but the {rules.name} rules' set has {4 - allowed} "
                    f"(and {allowed} red: write a red five as {Tile(kind, red=True)})"
                )


def validate_hand(hand: Hand, rules: RuleSet | None = None, *, sizes: tuple[int, ...] = (13, 14)) -> Hand:
    """Check a hand can exist: its size (kans counted as three), four of a kind at most, red fives."""
    if hand.size not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise InvalidHand(f"a hand has {want} tiles (kans counted as 3), this one has {hand.size}: {hand.notation()}")
    if len(hand.melds) > 4:
        raise InvalidHand(f"a hand has at most four melds, this one has {len(hand.melds)}")
    check_tiles(hand.all_tiles, rules, plain_fives=True)
    return hand
