"""Calls on a discard: who may call what, priority between claims, and kuikae (食い替え).

>>> from engine.tiles import Tile
>>> sorted(str(Tile(k)) for k in kuikae_forbidden(MeldKind.CHI, Tile.parse("3p"), parse_tiles("345p")))
['3p', '6p']
>>> resolve_claims(discarder=0, claims=[Claim(2, ClaimKind.PON), Claim(1, ClaimKind.CHI)])
(Claim(seat=2, kind=<ClaimKind.PON: 'pon'>),)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.melds import MeldKind
from engine.rules import MultipleRon, RuleSet
from engine.tiles import Tile, parse_tiles

__all__ = ["Claim", "ClaimKind", "call_shape_error", "kuikae_forbidden", "parse_tiles", "resolve_claims"]


class ClaimKind(StrEnum):
    """What a player says when a tile is discarded, strongest first."""

    RON = "ron"
    KAN = "kan"
    PON = "pon"
    CHI = "chi"

    @property
    def priority(self) -> int:
        """栄和 > 明槓 = ポン > チー."""
        return {ClaimKind.RON: 3, ClaimKind.KAN: 2, ClaimKind.PON: 2, ClaimKind.CHI: 1}[self]


@dataclass(frozen=True)
class Claim:
    seat: int
    kind: ClaimKind


def _turn_distance(discarder: int, seat: int) -> int:
    return (seat - discarder) % 4


def resolve_claims(discarder: int, claims: Iterable[Claim], rules: RuleSet | None = None) -> tuple[Claim, ...]:
    """Which of several simultaneous claims on one discard go ahead.

    Ron beats kan and pon, which beat chi. Several rons: all of them (double ron), or under a
    head-bump rule (頭ハネ) only the first in turn after the discarder. Only one call otherwise
    (a pon and a chi cannot both happen).
    """
    claims = [c for c in claims if c.seat != discarder]
    if not claims:
        return ()
    best = max(c.kind.priority for c in claims)
    top = sorted((c for c in claims if c.kind.priority == best), key=lambda c: _turn_distance(discarder, c.seat))
    if best == ClaimKind.RON.priority:
        if rules is not None and rules.multiple_ron is MultipleRon.HEAD_BUMP:
            return (top[0],)
        return tuple(top)
    return (top[0],)


def call_shape_error(kind: MeldKind, tiles: tuple[Tile, ...], called: Tile, caller: int, discarder: int) -> str:
    """Why this call on this discard is impossible, or "" if its shape and direction are fine."""
    if kind not in (MeldKind.CHI, MeldKind.PON, MeldKind.KAN):
        return f"{kind.value} is not called on a discard"
    if caller == discarder:
        return "a player cannot call their own discard"
    if called not in tiles:
        return f"the meld must contain the discarded tile {called}"
    size = 4 if kind is MeldKind.KAN else 3
    if len(tiles) != size:
        return f"a {kind.value} has {size} tiles, not {len(tiles)}"
    kinds = sorted(t.kind for t in tiles)
    if kind is MeldKind.CHI:
        if caller != (discarder + 1) % 4:
            return "chi only from the player on the left (the next player in turn calls the discard)"
        if kinds[0] >= 27 or kinds[0] // 9 != kinds[2] // 9 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
            return "a chi is three in a row of one suit"
    elif len(set(kinds)) != 1:
        return f"a {kind.value} is {size} tiles of one kind"
    return ""


def kuikae_forbidden(kind: MeldKind, called: Tile, meld_tiles: tuple[Tile, ...]) -> frozenset[int]:
    """Tile kinds that may not be discarded right after this call (食い替え禁止).

    After a pon: the called kind. After a chi: the called kind (現物) and, when the called tile sits
    at one end of the run, the tile beyond the other end (筋), e.g. chi 3p with 45p forbids 3p and 6p.
    """
    if kind is MeldKind.PON:
        return frozenset({called.kind})
    if kind is not MeldKind.CHI:
        return frozenset()
    low = min(t.kind for t in meld_tiles)
    out = {called.kind}
    num = low % 9  # 0-based number of the lowest tile
    if called.kind == low and num + 3 <= 8:
        out.add(low + 3)
    elif called.kind == low + 2 and num >= 1:
        out.add(low - 1)
    return frozenset(out)
