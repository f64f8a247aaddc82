"""Shanten, tenpai and waits of a 13-tile hand, with what each wait is worth.

Shanten (向聴) is how many tiles a hand is from tenpai (聴牌, ready): 0 is tenpai, -1 a complete hand.
A wait is a tile kind that completes the hand; a kind the hand already holds all four of is no wait.

>>> from engine.hand import parse_hand
>>> w = find_waits(parse_hand("123m456p789s1122z"))
>>> w.shanten, [str(x.tile) for x in w.waits], [x.unseen for x in w.waits]
(0, ['1z', '2z'], [2, 2])
>>> shanten(parse_hand("19m19p19s1234567z"))    # thirteen orphans, 13-sided wait
0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from mahjong.shanten import Shanten

from engine.errors import InvalidHand
from engine.game.shape import meld_counts
from engine.game.shape import waits as shape_waits
from engine.hand import Hand, check_tiles, validate_hand
from engine.rules import RuleSet, preset
from engine.scoring import ScoreResult, WinContext, check_win_input, prepare, score_prepared
from engine.tiles import FIVE_KINDS, Tile, counts34


def shanten(hand: Hand) -> int:
    """Shanten of the concealed tiles (seven pairs and thirteen orphans only for a hand with no meld)."""
    counts = counts34(hand.concealed)
    if hand.melds:
        return Shanten.calculate_shanten_for_regular_hand(counts)
    return Shanten.calculate_shanten(counts)


@dataclass(frozen=True)
class Wait:
    """One waiting tile kind: how many are unseen, and the hand's value by ron and by tsumo."""

    tile: Tile
    unseen: int
    ron: ScoreResult | None = None
    tsumo: ScoreResult | None = None

    def to_dict(self) -> dict[str, Any]:
        def value(r: ScoreResult | None) -> dict[str, Any] | None:
            return None if r is None else r.to_dict()

        return {"tile": str(self.tile), "unseen": self.unseen, "ron": value(self.ron), "tsumo": value(self.tsumo)}


@dataclass(frozen=True)
class WaitsResult:
    shanten: int
    waits: tuple[Wait, ...] = ()

    @property
    def tenpai(self) -> bool:
        return bool(self.waits)

    @property
    def unseen(self) -> int:
        """Tiles left that win: the sum over the waits."""
        return sum(w.unseen for w in self.waits)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "tenpai": self.tenpai,
            "unseen": self.unseen,
            "waits": [w.to_dict() for w in self.waits],
        }


def find_waits(
    hand: Hand,
    known: Iterable[Tile] = (),
    ctx: WinContext | None = None,
    rules: RuleSet | None = None,
    *,
    value: bool = True,
) -> WaitsResult:
    """Shanten and, when tenpai, the waits of a 13-tile hand.

    ``known`` are other tiles seen (discards, other melds, dora indicators) for the unseen counts; the
    hand's own tiles and ``ctx``'s indicators always count as seen. With ``value`` each wait is scored by
    ron and by tsumo under ``ctx`` (its ``win_tile``, ``tsumo`` and ``discarder`` are replaced; the
    discarder of a ron is left unknown).
    """
    rules = rules or preset("standard")
    validate_hand(hand, rules, sizes=(13,))
    known = tuple(known)
    seen_tiles = hand.all_tiles + known
    if ctx is not None:
        seen_tiles += ctx.dora_indicators + ctx.ura_indicators
    check_tiles(hand.all_tiles + (ctx.dora_indicators + ctx.ura_indicators if ctx else ()), rules)
    seen = counts34(seen_tiles)
    if any(n > 4 for n in seen):
        raise InvalidHand("more than four of a kind among the hand and the known tiles")
    n = shanten(hand)
    if n != 0:
        return WaitsResult(n)
    waits = []
    # the engine's one tenpai test (a kind held four times, concealed or melded, is no wait)
    for k in shape_waits(counts34(hand.concealed), meld_counts(hand.melds)):
        tile = Tile(k)
        ron = tsumo = None
        if value:
            tile = _physical(tile, hand, rules)
            base = ctx or WinContext(tile)
            ron = _value(hand, replace(base, win_tile=tile, tsumo=False, discarder=None), rules)
            tsumo = _value(
                hand,
                replace(base, win_tile=tile, tsumo=True, discarder=None, chankan=False, houtei=False, renhou=False),
                rules,
            )
        waits.append(Wait(Tile(k), max(0, 4 - seen[k]), ron, tsumo))
    return WaitsResult(n, tuple(waits))  # shanten 0 with no wait: every winning tile is in the hand


def _physical(tile: Tile, hand: Hand, rules: RuleSet) -> Tile:
    """The winning tile as it can physically come: a red five when the hand holds every plain five the set has."""
    if tile.kind in FIVE_KINDS and rules.has_red_fives:
        reds = rules.red_fives[FIVE_KINDS.index(tile.kind)]
        plain = sum(1 for t in hand.all_tiles if t.kind == tile.kind and not t.red)
        if reds and plain >= 4 - reds:
            return Tile(tile.kind, red=True)
    return tile


def _value(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """The hand completed by ``ctx.win_tile``; a context impossible for this win (e.g. rinshan by ron) is no win."""
    full = hand.with_tile(ctx.win_tile)
    try:
        check_win_input(full, ctx, rules)
        return score_prepared(prepare(full, ctx, rules), ctx, rules)
    except InvalidHand as exc:
        return ScoreResult(is_win=False, reason=str(exc), tsumo=ctx.tsumo)
