"""Scoring a win: yaku, fu, han, limit and payments, valued by the ``mahjong`` package.

The package does the valuation (decompositions, yaku, fu, the best-paying reading). This module
maps our ``Hand``, ``WinContext`` and ``RuleSet`` onto its inputs, and applies the few places where
our rule documents differ from it (each has a test in ``tests/engine/test_scoring.py``):

* renhou as a flat mangan, not cumulative with other yaku (WRC): the hand's own value when higher;
* two red 5p (001's set): the package knows one red id per suit, the second is added here;
* a double-wind pair worth 2 fu where a rule set says so (the package always gives 4);
* double open riichi worth 4 han (001: "Double Riichi and Open Riichi may combine for +4 han");
* a ron on an open riichi paid as a yakuman (001), not added to a real yakuman.

>>> from engine.hand import parse_hand
>>> from engine.rules import preset
>>> ctx = WinContext(Tile.parse("8s"), riichi=True, seat_wind=Wind.SOUTH, discarder=Wind.WEST)
>>> r = score_hand(parse_hand("234m456p67888s555z"), ctx, preset("wrc"))
>>> r.han, r.fu, r.ron_points, [y.name for y in r.yaku]
(2, 40, 2600, ['Riichi', 'Yakuhai (haku)'])
>>> for item in r.fu_items:
...     print(item.fu, item.reason)
20 base (futei)
10 concealed ron (menzen kafu)
8 concealed triplet of terminals/honours
2 pair wait (tanki)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YAKU_ID_TO_TENHOU_ID
from mahjong.meld import Meld as MjMeld

from engine.errors import InvalidHand
from engine.hand import Hand, check_tiles, validate_hand
from engine.melds import MeldKind
from engine.rules import KazoeLimit, Renhou, RuleSet
from engine.tenhou import EXTRA_YAKU, YAKU, YakuName
from engine.tiles import FIVE_KINDS, Tile, Wind


@dataclass(frozen=True)
class WinContext:
    """How a hand was won: everything the tiles alone do not say."""

    win_tile: Tile
    tsumo: bool = False
    seat_wind: Wind = Wind.EAST  # the winner's seat wind (EAST = dealer)
    round_wind: Wind = Wind.EAST
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False  # with riichi or double_riichi, or alone (then it implies riichi)
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[Tile, ...] = ()  # including kan-dora indicators
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    sticks: int = 0  # riichi sticks on the table (kyotaku) that go to this winner
    discarder: Wind | None = None  # seat wind of the discarder for a ron (None for tsumo, or unknown)

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind is Wind.EAST


class Limit(Enum):
    """The payment tier (満貫 and up); NONE below mangan."""

    NONE = 0
    MANGAN = 2000  # 満貫
    HANEMAN = 3000  # 跳満
    BAIMAN = 4000  # 倍満
    SANBAIMAN = 6000  # 三倍満
    YAKUMAN = 8000  # 役満 (base per yakuman)

    @property
    def base(self) -> int:
        return self.value


@dataclass(frozen=True)
class YakuItem:
    name: str  # romanised, as the mahjong package and most players write it
    name_ja: str
    han: int
    yakuman_multiple: int = 0  # 1 for a yakuman, 2 for a double yakuman, 0 otherwise
    gloss: str = ""  # a short English explanation


@dataclass(frozen=True)
class FuItem:
    fu: int
    reason: str


@dataclass(frozen=True)
class Payment:
    """One payer's share, honba included. ``payer`` is None for a ron whose discarder is unknown."""

    payer: Wind | None
    amount: int


@dataclass(frozen=True)
class ScoreResult:
    is_win: bool
    reason: str = ""  # "" for a win; otherwise why not ("no yaku", "not a complete hand")
    yaku: tuple[YakuItem, ...] = ()
    fu_items: tuple[FuItem, ...] = ()
    han: int = 0
    fu: int = 0
    limit: Limit = Limit.NONE
    yakuman_count: int = 0  # 1 single, 2 double ...; counted yakuman is 1
    counted: bool = False  # 数え役満: 13+ han without a yakuman pattern
    kiriage: bool = False  # 切り上げ満貫 applied
    base_points: int = 0
    ron_points: int = 0  # what a discarder pays, without honba and sticks
    tsumo_points: tuple[int, int] = (0, 0)  # (from the dealer, from each non-dealer); dealer's 0 if winner is dealer
    payments: tuple[Payment, ...] = ()
    sticks_won: int = 0
    total: int = 0  # all the winner receives
    tsumo: bool = False
    notes: tuple[str, ...] = ()  # where our rules overrode the package's value, in words

    @property
    def limit_name(self) -> str:
        """``mangan`` ... ``yakuman``, ``counted yakuman``, ``double yakuman``, ``kiriage mangan``; "" below."""
        if self.limit is Limit.YAKUMAN:
            if self.counted:
                return "counted yakuman"
            return {1: "yakuman", 2: "double yakuman", 3: "triple yakuman"}.get(
                self.yakuman_count, f"{self.yakuman_count}x yakuman"
            )
        if self.limit is Limit.MANGAN and self.kiriage:
            return "kiriage mangan"
        return "" if self.limit is Limit.NONE else self.limit.name.lower()

    @property
    def points(self) -> int:
        """The hand's value without honba and sticks: ron points, or the sum of the tsumo shares."""
        if not self.tsumo:
            return self.ron_points
        dealer, other = self.tsumo_points
        return dealer + 2 * other if dealer else 3 * other

    def to_dict(self) -> dict[str, Any]:
        return {
            "is_win": self.is_win,
            "reason": self.reason,
            "yaku": [
                {"name": y.name, "name_ja": y.name_ja, "han": y.han, "yakuman_multiple": y.yakuman_multiple}
                for y in self.yaku
            ],
            "fu_items": [{"fu": f.fu, "reason": f.reason} for f in self.fu_items],
            "han": self.han,
            "fu": self.fu,
            "limit": self.limit.name.lower(),
            "limit_name": self.limit_name,
            "yakuman_count": self.yakuman_count,
            "counted": self.counted,
            "kiriage": self.kiriage,
            "base_points": self.base_points,
            "ron_points": self.ron_points,
            "tsumo_points": list(self.tsumo_points),
            "tsumo": self.tsumo,
            "points": self.points,
            "payments": [
                {"payer": p.payer.letter if p.payer is not None else None, "amount": p.amount} for p in self.payments
            ],
            "sticks_won": self.sticks_won,
            "total": self.total,
            "notes": list(self.notes),
        }


# --- mapping onto the mahjong package -------------------------------------------------------------------------

_FU_REASONS = {
    FuCalculator.BASE: "base (futei)",
    FuCalculator.PENCHAN: "edge wait (penchan)",
    FuCalculator.KANCHAN: "closed wait (kanchan)",
    FuCalculator.VALUED_PAIR: "pair of a value tile",
    FuCalculator.DOUBLE_VALUED_PAIR: "pair of the double wind (seat and round)",
    FuCalculator.PAIR_WAIT: "pair wait (tanki)",
    FuCalculator.TSUMO: "self-draw (tsumo)",
    FuCalculator.HAND_WITHOUT_FU: "open hand without fu (open pinfu shape)",
    FuCalculator.CLOSED_PON: "concealed triplet of simples",
    FuCalculator.OPEN_PON: "open triplet of simples",
    FuCalculator.CLOSED_TERMINAL_PON: "concealed triplet of terminals/honours",
    FuCalculator.OPEN_TERMINAL_PON: "open triplet of terminals/honours",
    FuCalculator.CLOSED_KAN: "closed kan of simples",
    FuCalculator.OPEN_KAN: "open kan of simples",
    FuCalculator.CLOSED_TERMINAL_KAN: "closed kan of terminals/honours",
    FuCalculator.OPEN_TERMINAL_KAN: "open kan of terminals/honours",
}

_RENHOU_MANGAN = YakuItem("Renhou", "人和", 5, 0, "Blessing of man: a flat mangan, not cumulative")
_WIND_TILES = (27, 28, 29, 30)


@functools.lru_cache(maxsize=64)
def _yaku_name(yaku_id: int, name: str) -> YakuName:
    tenhou_id = YAKU_ID_TO_TENHOU_ID.get(yaku_id)
    if tenhou_id is not None:
        return YAKU[tenhou_id]
    return EXTRA_YAKU.get(name, YakuName(name, name, ""))


@functools.lru_cache(maxsize=32)
def optional_rules(rules: RuleSet) -> OptionalRules:
    """The package's options for our rule set (the parts it can express)."""
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.has_red_fives,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_SANBAIMAN
        if rules.kazoe is KazoeLimit.SANBAIMAN
        else HandConstants.KAZOE_LIMITED,
        kiriage=rules.kiriage,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=rules.renhou is Renhou.YAKUMAN,
        has_sashikomi_yakuman=False,  # a ron on open riichi is handled here (paid as yakuman, not added)
    )


@dataclass
class Prepared:
    """The package's inputs for one hand, built once: 136-ids, melds, indicators, config."""

    tiles: list[int]
    win_tile: int
    melds: list[MjMeld]
    dora: list[int]
    ura: list[int]
    config: HandConfig
    extra_reds: int = 0  # red fives beyond the one red id per suit that 136-ids have
    notes: list[str] = field(default_factory=list)


def _allocate(tiles: Iterable[Tile], aka: bool, used: list[int], extra: list[int]) -> list[int]:
    """Give each tile a distinct 136-id; red fives get ids 16/52/88 only when ``aka`` and only if red.

    ``used`` holds a bitmask of taken copies per kind; ``extra[0]`` counts red fives that had no red id left.
    """
    out = []
    for t in tiles:
        k = t.kind
        mask = used[k]
        if aka and k in FIVE_KINDS:
            if t.red and not mask & 1:
                copy = 0
            else:
                if t.red:
                    extra[0] += 1
                copy = next((c for c in (1, 2, 3) if not mask >> c & 1), -1)
                if copy < 0:
                    raise InvalidHand(f"more plain {t.deaka()} than a set with a red {t.deaka()} holds")
        else:
            copy = next(c for c in (0, 1, 2, 3) if not mask >> c & 1)
        used[k] = mask | 1 << copy
        out.append(k * 4 + copy)
    return out


_MELD_TYPES = {
    MeldKind.CHI: (MjMeld.CHI, True),
    MeldKind.PON: (MjMeld.PON, True),
    MeldKind.KAN: (MjMeld.KAN, True),
    MeldKind.KAKAN: (MjMeld.SHOUMINKAN, True),
    MeldKind.ANKAN: (MjMeld.KAN, False),
}


def check_win_input(hand: Hand, ctx: WinContext, rules: RuleSet) -> None:
    """Raise InvalidHand for a hand and context that cannot exist."""
    validate_hand(hand, rules, sizes=(14,))
    extra = ctx.dora_indicators + ctx.ura_indicators
    if extra:
        check_tiles(hand.all_tiles + extra, rules)
    if ctx.win_tile not in hand.concealed and ctx.win_tile.deaka() not in (t.deaka() for t in hand.concealed):
        raise InvalidHand(f"the winning tile {ctx.win_tile} is not among the concealed tiles of {hand.notation()}")
    if ctx.open_riichi and not rules.open_riichi:
        raise InvalidHand(f"open riichi is not played under the {rules.name} rules")
    if ctx.tsumo and ctx.discarder is not None:
        raise InvalidHand("a tsumo has no discarder")
    if ctx.renhou and (ctx.tsumo or ctx.is_dealer or hand.melds):
        raise InvalidHand("renhou is a non-dealer's ron before their first draw, with no meld")
    if ctx.discarder is not None and ctx.discarder is ctx.seat_wind:
        raise InvalidHand("the winner cannot deal into their own hand")


def prepare(hand: Hand, ctx: WinContext, rules: RuleSet) -> Prepared:
    """Convert to the package's inputs (after ``check_win_input``)."""
    aka = rules.has_red_fives
    used = [0] * 34
    extra = [0]
    concealed = _allocate(hand.concealed, aka, used, extra)
    tiles = list(concealed)
    melds = []
    for m in hand.melds:
        ids = _allocate(m.tiles, aka, used, extra)
        tiles.extend(ids)
        kind, opened = _MELD_TYPES[m.kind]
        melds.append(MjMeld(meld_type=kind, tiles=ids, opened=opened))
    # the winning tile: the concealed copy that matches it exactly (red flag too), else by kind
    win = ctx.win_tile
    try:
        win_id = concealed[hand.concealed.index(win)]
    except ValueError:
        win_id = next(i for t, i in zip(hand.concealed, concealed, strict=True) if t.kind == win.kind)
    riichi = ctx.riichi or ctx.double_riichi or ctx.open_riichi
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=riichi and not ctx.double_riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_open_riichi=ctx.open_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        is_renhou=ctx.renhou and rules.renhou in (Renhou.YAKUMAN, Renhou.HAN5),
        player_wind=27 + ctx.seat_wind,
        round_wind=27 + ctx.round_wind,
        options=optional_rules(rules),
    )
    if ctx.double_riichi and ctx.open_riichi:
        config.yaku.daburu_open_riichi.han_closed = 4  # 001: double riichi and open riichi combine for +4
    return Prepared(
        tiles=tiles,
        win_tile=win_id,
        melds=melds,
        dora=[t.kind * 4 + 1 for t in ctx.dora_indicators],
        ura=[t.kind * 4 + 1 for t in ctx.ura_indicators],
        config=config,
        extra_reds=extra[0],
    )


def estimate(p: Prepared) -> Any:
    """Call the package on prepared inputs (the same call the bench makes directly)."""
    return HandCalculator.estimate_hand_value(
        p.tiles, p.win_tile, melds=p.melds, dora_indicators=p.dora, config=p.config, ura_dora_indicators=p.ura
    )


_LIMIT_BY_HAN = ((13, Limit.YAKUMAN), (11, Limit.SANBAIMAN), (8, Limit.BAIMAN), (6, Limit.HANEMAN), (5, Limit.MANGAN))


def _limit_of(han: int, fu: int, has_yakuman: bool, rules: RuleSet) -> tuple[Limit, int, bool, bool]:
    """(limit, yakuman_count, counted, kiriage) for a total han and fu."""
    if has_yakuman:
        return Limit.YAKUMAN, max(1, han // 13), False, False
    if han >= 13:
        if rules.kazoe is KazoeLimit.SANBAIMAN:
            return Limit.SANBAIMAN, 0, False, False
        return Limit.YAKUMAN, 1, True, False
    for min_han, limit in _LIMIT_BY_HAN:
        if han >= min_han:
            return limit, 0, False, False
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return Limit.MANGAN, 0, False, True
    if fu * 2 ** (2 + han) >= 2000:
        return Limit.MANGAN, 0, False, False
    return Limit.NONE, 0, False, False


def _round100(x: int) -> int:
    return (x + 99) // 100 * 100


def settle(base: int, ctx: WinContext, rules: RuleSet) -> tuple[int, tuple[int, int], tuple[Payment, ...], int, int]:
    """From base points: (ron_points, tsumo_points, payments, sticks_won, total) for this context."""
    sticks_won = ctx.sticks * rules.riichi_deposit
    if ctx.tsumo:
        if ctx.is_dealer:
            each = _round100(2 * base)
            tsumo_points = (0, each)
        else:
            tsumo_points = (_round100(2 * base), _round100(base))
        bonus = rules.honba_tsumo * ctx.honba
        payments = tuple(
            Payment(w, (tsumo_points[0] if w is Wind.EAST else tsumo_points[1]) + bonus)
            for w in Wind
            if w is not ctx.seat_wind
        )
        ron_points = _round100((6 if ctx.is_dealer else 4) * base)
    else:
        ron_points = _round100((6 if ctx.is_dealer else 4) * base)
        tsumo_points = (0, _round100(2 * base)) if ctx.is_dealer else (_round100(2 * base), _round100(base))
        payments = (Payment(ctx.discarder, ron_points + rules.honba_ron * ctx.honba),)
    total = sum(p.amount for p in payments) + sticks_won
    return ron_points, tsumo_points, payments, sticks_won, total


def _fu_items(details: list[dict[str, Any]] | None, fu: int, rules: RuleSet) -> tuple[list[FuItem], int]:
    """Itemised fu (summing to ``fu`` with a rounding item), and the fu after our rule adjustments."""
    if not details:
        return [], fu
    if len(details) == 1 and details[0]["fu"] == 25:
        return [FuItem(25, "seven pairs (chiitoitsu): always 25")], 25
    items = []
    raw = 0
    for d in details:
        reason, value = d["reason"], d["fu"]
        if reason == FuCalculator.BASE and value == 30:
            items.append(FuItem(20, _FU_REASONS[reason]))
            items.append(FuItem(10, "concealed ron (menzen kafu)"))
        elif reason == FuCalculator.DOUBLE_VALUED_PAIR and rules.double_wind_pair_fu != 4:
            value = rules.double_wind_pair_fu
            items.append(FuItem(value, _FU_REASONS[reason]))
        else:
            items.append(FuItem(value, _FU_REASONS.get(reason, reason)))
        raw += value
    fu = (raw + 9) // 10 * 10
    if fu != raw:
        items.append(FuItem(fu - raw, f"rounded up to {fu}"))
    # base first, as people count it
    items.sort(key=lambda f: f.reason != _FU_REASONS[FuCalculator.BASE])
    return items, fu


def score_hand(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """Score a complete 14-tile hand (kans count 3; the winning tile among ``hand.concealed``).

    Raises InvalidHand for input that cannot exist; returns ``is_win=False`` with a reason for an
    incomplete hand or a hand with no yaku.
    """
    check_win_input(hand, ctx, rules)
    p = prepare(hand, ctx, rules)
    return score_prepared(p, ctx, rules)


def score_prepared(p: Prepared, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """The second half of ``score_hand``: call the package and build our result."""
    res = estimate(p)
    renhou_mangan = ctx.renhou and rules.renhou is Renhou.MANGAN
    if res.error:
        if res.error == HandCalculator.ERR_NO_YAKU and renhou_mangan:
            return _renhou_mangan(ctx, rules)
        if res.error == HandCalculator.ERR_NO_YAKU:
            return ScoreResult(is_win=False, reason="no yaku", tsumo=ctx.tsumo)
        if res.error == HandCalculator.ERR_HAND_NOT_WINNING:
            return ScoreResult(is_win=False, reason="not a complete hand", tsumo=ctx.tsumo)
        raise InvalidHand(f"impossible win context: {res.error.replace('_', ' ')}")

    config = p.config
    han = res.han
    yaku_objs = res.yaku
    has_yakuman = any(y.is_yakuman for y in yaku_objs)
    notes: list[str] = []
    yaku = []
    for y in yaku_objs:
        name = _yaku_name(y.yaku_id, y.name)
        y_han = y.han_open if res.is_open_hand and y.han_open else y.han_closed
        if p.extra_reds and y.yaku_id == config.yaku.aka_dora.yaku_id:
            y_han += p.extra_reds
        yaku.append(YakuItem(name.en, name.ja, y_han, y_han // 13 if y.is_yakuman else 0, name.gloss))
    if p.extra_reds and not has_yakuman:
        if not any(y.name == "Aka Dora" for y in yaku):
            name = YAKU[54]
            yaku.append(YakuItem(name.en, name.ja, p.extra_reds, 0, name.gloss))
        han += p.extra_reds
        notes.append(f"{p.extra_reds} more red five(s) than 136-ids can mark, counted here")

    fu_items, fu = _fu_items(res.fu_details, res.fu, rules)
    if fu != res.fu:
        notes.append(f"double-wind pair counted {rules.double_wind_pair_fu} fu under the {rules.name} rules")

    limit, yakuman_count, counted, kiriage = _limit_of(han, fu, has_yakuman, rules)
    if limit is Limit.YAKUMAN:
        base = 8000 * yakuman_count
    elif limit is not Limit.NONE:
        base = limit.base
    else:
        base = fu * 2 ** (2 + han)

    if renhou_mangan and base < Limit.MANGAN.base:
        return _renhou_mangan(ctx, rules)
    if ctx.open_riichi and not ctx.tsumo and rules.open_riichi and limit is not Limit.YAKUMAN:
        limit, yakuman_count, counted, kiriage, base = Limit.YAKUMAN, 1, False, False, 8000
        notes.append("a ron on an open riichi is paid as a yakuman")

    ron, tsumo_pts, payments, sticks_won, total = settle(base, ctx, rules)
    return ScoreResult(
        is_win=True,
        yaku=tuple(yaku),
        fu_items=tuple(fu_items),
        han=han,
        fu=fu,
        limit=limit,
        yakuman_count=yakuman_count,
        counted=counted,
        kiriage=kiriage,
        base_points=base,
        ron_points=ron,
        tsumo_points=tsumo_pts,
        payments=payments,
        sticks_won=sticks_won,
        total=total,
        tsumo=ctx.tsumo,
        notes=tuple(notes),
    )


def _renhou_mangan(ctx: WinContext, rules: RuleSet) -> ScoreResult:
    ron, tsumo_pts, payments, sticks_won, total = settle(Limit.MANGAN.base, ctx, rules)
    return ScoreResult(
        is_win=True,
        yaku=(_RENHOU_MANGAN,),
        han=5,
        limit=Limit.MANGAN,
        base_points=Limit.MANGAN.base,
        ron_points=ron,
        tsumo_points=tsumo_pts,
        payments=payments,
        sticks_won=sticks_won,
        total=total,
        tsumo=ctx.tsumo,
        notes=(f"renhou is a flat mangan, not cumulative, under the {rules.name} rules",),
    )


__all__ = [
    "FuItem",
    "Limit",
    "Payment",
    "ScoreResult",
    "WinContext",
    "YakuItem",
    "score_hand",
]
