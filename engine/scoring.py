"""Scoring a win: yaku, fu, han, limit and payments, valued by the ``mahjong`` package.

The package does the valuation (decompositions, yaku, fu, the best-paying reading). This module
maps our ``Hand``, ``WinContext`` and ``RuleSet`` onto its inputs, and applies the few places where
our rule documents differ from it (each has a test in ``tests/engine/test_scoring.py``):

* renhou as a flat mangan, not cumulative with other yaku (WRC): the hand's own value when higher;
* two red 5p (001's set): the package knows one red id per suit, the second is added here;
* a double-wind pair worth 2 fu where a rule set says so (the package always gives 4);
* double open riichi worth 4 han (001: "Double Riichi and Open Riichi may combine for +4 han");
* a ron on an open riichi paid as a yakuman (001), not added to a real yakuman.

Call ``score_hand(hand, ctx, rules)`` for a ``ScoreResult`` (an example in its docstring).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, replace
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
from engine.tiles import FIVE_KINDS, Tile, Wind
from engine.yaku_names import EXTRA_YAKU, YAKU, YakuName


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
                {
                    "name": y.name,
                    "name_ja": y.name_ja,
                    "gloss": y.gloss,
                    "han": y.han,
                    "yakuman_multiple": y.yakuman_multiple,
                }
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

_AKA_ID = 121  # the mahjong package's yaku id of Aka Dora
_RENHOU_MANGAN = YakuItem("Renhou", "人和", 5, 0, "Blessing of man: a flat mangan, not cumulative")


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


@dataclass(slots=True)
class Prepared:
    """The package's inputs for one hand, built once: 136-ids, melds, indicators, config."""

    tiles: list[int]
    win_tile: int
    melds: list[MjMeld]
    dora: list[int]
    ura: list[int]
    config: HandConfig
    extra_reds: int = 0  # red fives beyond the one red id per suit that 136-ids have


_FIVES = frozenset(FIVE_KINDS)
_FIVE_OFFSET = tuple(1 if k in FIVE_KINDS else 0 for k in range(34))
_NO_OFFSET = (0,) * 34
_EAST = Wind.EAST


_MELD_TYPES = {
    MeldKind.CHI: (MjMeld.CHI, True),
    MeldKind.PON: (MjMeld.PON, True),
    MeldKind.KAN: (MjMeld.KAN, True),
    MeldKind.KAKAN: (MjMeld.SHOUMINKAN, True),
    MeldKind.ANKAN: (MjMeld.KAN, False),
}


_MELD_BY_VALUE = {kind.value: value for kind, value in _MELD_TYPES.items()}


def _plain_fives_over(tiles: tuple[Tile, ...], reds: tuple[int, int, int]) -> bool:
    """Four plain fives of a suit whose set has a red one (``engine.hand.check_tiles``'s ``plain_fives``)."""
    plain = [0, 0, 0]
    for t in tiles:
        if t.kind in (4, 13, 22) and not t.red:
            plain[t.kind // 9] += 1
    return any(n == 4 and r for n, r in zip(plain, reds, strict=True))


def check_context(hand: Hand, ctx: WinContext, rules: RuleSet) -> None:
    """The checks that need no counting: the hand's size and the context's flags."""
    melds = hand.melds
    if len(hand.concealed) + 3 * len(melds) != 14 or len(melds) > 4:
        validate_hand(hand, rules, sizes=(14,))
    if ctx.open_riichi and not rules.open_riichi:
        raise InvalidHand(f"open riichi is not played under the {rules.name} rules")
    if ctx.discarder is not None and (ctx.tsumo or ctx.discarder is ctx.seat_wind):
        raise InvalidHand("a tsumo has no discarder" if ctx.tsumo else "the winner cannot deal into their own hand")
    if ctx.renhou and (ctx.tsumo or ctx.seat_wind is _EAST or melds):
        raise InvalidHand("renhou is a non-dealer's ron before their first draw, with no meld")


def check_win_input(hand: Hand, ctx: WinContext, rules: RuleSet) -> None:
    """Raise InvalidHand for a hand and context that cannot exist (what ``score_hand`` checks)."""
    check_context(hand, ctx, rules)
    prepare(hand, ctx, rules)


_local = threading.local()


def _config(ctx: WinContext, rules: RuleSet) -> HandConfig:
    """The package's HandConfig for these flags, built once per thread and flags.

    The package writes only per-call values into it (dora counts, set before they are read), so a
    config can be reused by the next hand in the same thread once the previous result has been read.
    """
    riichi = ctx.riichi or ctx.double_riichi or ctx.open_riichi
    key = (
        ctx.tsumo,
        riichi and not ctx.double_riichi,
        ctx.double_riichi,
        ctx.open_riichi,
        ctx.ippatsu,
        ctx.rinshan,
        ctx.chankan,
        ctx.haitei,
        ctx.houtei,
        ctx.tenhou,
        ctx.chiihou,
        ctx.renhou and rules.renhou in (Renhou.YAKUMAN, Renhou.HAN5),
        ctx.seat_wind,
        ctx.round_wind,
    )
    # per thread, per rule set (by identity: hashing a RuleSet costs more than the lookup saves)
    try:
        per_rules = _local.configs
    except AttributeError:
        per_rules = _local.configs = {}
    entry = per_rules.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(per_rules) > 64:
            per_rules.clear()
        entry = per_rules[id(rules)] = (rules, {})
    cache = entry[1]
    config = cache.get(key)
    if config is None:
        config = HandConfig(
            is_tsumo=key[0],
            is_riichi=key[1],
            is_daburu_riichi=key[2],
            is_open_riichi=key[3],
            is_ippatsu=key[4],
            is_rinshan=key[5],
            is_chankan=key[6],
            is_haitei=key[7],
            is_houtei=key[8],
            is_tenhou=key[9],
            is_chiihou=key[10],
            is_renhou=key[11],
            player_wind=27 + ctx.seat_wind,
            round_wind=27 + ctx.round_wind,
            options=optional_rules(rules),
        )
        if ctx.double_riichi and ctx.open_riichi:
            config.yaku.daburu_open_riichi.han_closed = 4  # 001: double riichi and open riichi combine for +4
        if len(cache) > 1024:
            cache.clear()
        cache[key] = config
    return config


def prepare(hand: Hand, ctx: WinContext, rules: RuleSet) -> Prepared:
    """Convert to the package's inputs, checking the tiles on the way (four of a kind at most, counting the
    indicators; red fives the rules have; the winning tile among the concealed tiles)."""
    aka = rules.has_red_fives
    offset = _FIVE_OFFSET if aka else _NO_OFFSET  # with red fives, plain fives use copies 1-3
    state = [0] * 68  # ids taken per kind besides a five's red id; then red tiles per kind
    tiles: list[int] = []
    append = tiles.append
    extra = 0  # red fives beyond the one red id per suit (001's second red 5p)
    fault = False
    for t in hand.concealed:
        k = t.kind
        if t.red:
            reds = state[34 + k]
            state[34 + k] = reds + 1
            if aka and not reds:
                append(k * 4)
                continue
            extra += 1
        copy = state[k] + offset[k]
        if copy > 3:
            fault = True
            break
        state[k] += 1
        append(k * 4 + copy)
    # the winning tile: the red id for a red winning tile, else the first plain copy (ids are dealt in order)
    win = ctx.win_tile
    k = win.kind
    red_held = aka and state[34 + k] > 0 and k in _FIVES
    if red_held and (win.red or not state[k]):
        win_id = k * 4
    elif state[k]:
        win_id = k * 4 + offset[k]
    else:
        win_id = -1
    melds = []
    if not fault:
        new_meld = MjMeld.__new__
        for m in hand.melds:
            ids = []
            for t in m.tiles:
                k = t.kind
                if t.red:
                    reds = state[34 + k]
                    state[34 + k] = reds + 1
                    if aka and not reds:
                        ids.append(k * 4)
                        continue
                    extra += 1
                copy = state[k] + offset[k]
                if copy > 3:
                    fault = True
                    break
                state[k] += 1
                ids.append(k * 4 + copy)
            tiles.extend(ids)
            ids.sort()  # the package reads a chi from its lowest tile: ``chi:213m`` (called tile first) is 123m
            # the package's Meld, built without its __init__/__setattr__ (a hook for reassigning tiles, which
            # nobody does here); the same attributes as MjMeld(meld_type, tiles, opened) sets
            meld_type, opened = _MELD_BY_VALUE[m.kind._value_]
            mm = new_meld(MjMeld)
            mm.__dict__.update(
                type=meld_type,
                tiles=tuple(ids),
                opened=opened,
                called_tile=None,
                who=None,
                from_who=None,
                tiles_34=[x >> 2 for x in ids],  # its cached 34-array, which the package reads
            )
            melds.append(mm)
    # indicators are tiles too: with them, still four of a kind at most (the exact check runs on a fault)
    over = fault
    dora = []
    for t in ctx.dora_indicators:
        k = t.kind
        state[k] += 1
        state[34 + k] += t.red
        over = over or state[k] > 3
        dora.append(k * 4 + 1)
    ura = []
    for t in ctx.ura_indicators:
        k = t.kind
        state[k] += 1
        state[34 + k] += t.red
        over = over or state[k] > 3
        ura.append(k * 4 + 1)
    allowed = rules.red_fives
    if (
        over
        or state[38] > allowed[0]
        or state[47] > allowed[1]
        or state[56] > allowed[2]
        or (aka and _plain_fives_over(hand.all_tiles, allowed))  # the package's set has one red five a suit
    ):
        check_tiles(hand.all_tiles + ctx.dora_indicators + ctx.ura_indicators, rules)
        check_tiles(hand.all_tiles, rules, plain_fives=True)
        if fault:
            raise InvalidHand(f"more plain fives than a set with red fives holds: {hand.notation()}")
    if win_id < 0:
        raise InvalidHand(f"the winning tile {win} is not among the concealed tiles of {hand.notation()}")
    return Prepared(
        tiles=tiles,
        win_tile=win_id,
        melds=melds,
        dora=dora,
        ura=ura,
        config=_config(ctx, rules),
        extra_reds=extra,
    )


def estimate(p: Prepared) -> Any:
    """Call the package on prepared inputs (the same call the bench makes directly)."""
    return HandCalculator.estimate_hand_value(
        p.tiles, p.win_tile, melds=p.melds, dora_indicators=p.dora, config=p.config, ura_dora_indicators=p.ura
    )


_NONE, _MANGAN, _YAKUMAN, _SANBAIMAN = Limit.NONE, Limit.MANGAN, Limit.YAKUMAN, Limit.SANBAIMAN
_LIMIT_BY_HAN = (
    (None,) * 5 + (Limit.MANGAN,) + (Limit.HANEMAN,) * 2 + (Limit.BAIMAN,) * 3 + (Limit.SANBAIMAN,) * 2
)  # indexed by han, 0..12


def _limit_of(han: int, fu: int, has_yakuman: bool, rules: RuleSet) -> tuple[Limit, int, bool, bool]:
    """(limit, yakuman_count, counted, kiriage) for a total han and fu."""
    if has_yakuman:
        return _YAKUMAN, max(1, han // 13), False, False
    if han >= 13:
        if rules.kazoe is KazoeLimit.SANBAIMAN:
            return _SANBAIMAN, 0, False, False
        return _YAKUMAN, 1, True, False
    limit = _LIMIT_BY_HAN[han]
    if limit is not None:
        return limit, 0, False, False
    if rules.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return _MANGAN, 0, False, True
    if fu << (2 + han) >= 2000:
        return _MANGAN, 0, False, False
    return _NONE, 0, False, False


@functools.lru_cache(maxsize=4096)
def _payment(payer: Wind | None, amount: int) -> Payment:
    return Payment(payer, amount)


_WINDS = tuple(Wind)
_TSUMO_PAYMENTS: dict[tuple[Wind, int, int], tuple[Payment, ...]] = {}


def settle(base: int, ctx: WinContext, rules: RuleSet) -> tuple[int, tuple[int, int], tuple[Payment, ...], int, int]:
    """From base points: (ron_points, tsumo_points, payments, sticks_won, total) for this context."""
    sticks_won = ctx.sticks * rules.riichi_deposit
    dealer = ctx.seat_wind is _EAST
    one = (base + 99) // 100 * 100
    two = (2 * base + 99) // 100 * 100
    ron_points = ((6 if dealer else 4) * base + 99) // 100 * 100
    tsumo_points = (0, two) if dealer else (two, one)
    if ctx.tsumo:
        bonus = rules.honba_tsumo * ctx.honba
        seat = ctx.seat_wind
        from_dealer = tsumo_points[0] + bonus
        from_other = tsumo_points[1] + bonus
        key = (seat, from_dealer, from_other)
        payments = _TSUMO_PAYMENTS.get(key)
        if payments is None:
            if len(_TSUMO_PAYMENTS) > 4096:
                _TSUMO_PAYMENTS.clear()
            payments = _TSUMO_PAYMENTS[key] = tuple(
                Payment(w, from_dealer if w is _EAST else from_other) for w in _WINDS if w is not seat
            )
        total = from_other * 3 if dealer else from_dealer + 2 * from_other
    else:
        total = ron_points + rules.honba_ron * ctx.honba
        payments = (_payment(ctx.discarder, total),)
    return ron_points, tsumo_points, payments, sticks_won, total + sticks_won


_BASE = FuCalculator.BASE
_DOUBLE_WIND = FuCalculator.DOUBLE_VALUED_PAIR
_CHIITOI = (FuItem(25, "seven pairs (chiitoitsu): always 25"),)
_BASE_ITEMS = {
    20: (FuItem(20, _FU_REASONS[_BASE]),),
    30: (FuItem(20, _FU_REASONS[_BASE]), FuItem(10, "concealed ron (menzen kafu)")),
}
#: FuItem objects by (reason, fu) and rounding items by size: built once, shared by every result.
_FU_ITEM: dict[tuple[str, int], FuItem] = {}
_ROUNDING = {n: FuItem(n, "rounding up to the next 10") for n in range(1, 10)}


def _fu_items(details: list[dict[str, Any]] | None, fu: int, rules: RuleSet) -> tuple[tuple[FuItem, ...], int]:
    """Itemised fu (summing to ``fu`` with a rounding item; base first, as people count it), and the fu
    after our rule adjustments (a double-wind pair worth 2 where the rules say so)."""
    if not details:
        return (), fu
    if len(details) == 1 and details[0]["fu"] == 25:
        return _CHIITOI, 25
    items: list[FuItem] = []
    raw = 0
    base: tuple[FuItem, ...] = ()
    for d in details:
        reason = d["reason"]
        value = d["fu"]
        if reason == _BASE:
            base = _BASE_ITEMS[value]
        else:
            if reason == _DOUBLE_WIND:
                value = rules.double_wind_pair_fu
            item = _FU_ITEM.get((reason, value))
            if item is None:
                item = _FU_ITEM[reason, value] = FuItem(value, _FU_REASONS.get(reason, reason))
            items.append(item)
        raw += value
    fu = (raw + 9) // 10 * 10
    if fu != raw:
        items.append(_ROUNDING[fu - raw])
    return base + tuple(items), fu


#: YakuItem objects by (yaku id << 8 | han): built once, shared by every result.
_YAKU_ITEMS: dict[int, YakuItem] = {}


def _yaku_item(yaku_id: int, name: str, han: int, is_yakuman: bool) -> YakuItem:
    item = _YAKU_ITEMS.get(yaku_id << 8 | han)
    if item is None:
        n = _yaku_name(yaku_id, name)
        item = _YAKU_ITEMS[yaku_id << 8 | han] = YakuItem(n.en, n.ja, han, han // 13 if is_yakuman else 0, n.gloss)
    return item


def score_hand(hand: Hand, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """Score a complete 14-tile hand (kans count 3; the winning tile among ``hand.concealed``).

    Raises InvalidHand for input that cannot exist; returns ``is_win=False`` with a reason for an
    incomplete hand or a hand with no yaku.

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
    check_context(hand, ctx, rules)
    return score_prepared(prepare(hand, ctx, rules), ctx, rules)


def score_prepared(p: Prepared, ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """The second half of ``score_hand``: call the package and build our result."""
    res = estimate(p)
    renhou_mangan = ctx.renhou and rules.renhou is Renhou.MANGAN
    if res.error:
        if res.error == HandCalculator.ERR_NO_YAKU and renhou_mangan:
            return _renhou_mangan(ctx, rules)
        if res.error == HandCalculator.ERR_NO_YAKU:
            return ScoreResult(
                is_win=False,
                reason="no yaku",
                tsumo=ctx.tsumo,
                notes=(f"renhou is no yaku under the {rules.name} rules",) if ctx.renhou else (),
            )
        if res.error == HandCalculator.ERR_HAND_NOT_WINNING:
            return ScoreResult(is_win=False, reason="not a complete hand", tsumo=ctx.tsumo)
        raise InvalidHand(f"impossible win context: {res.error.replace('_', ' ')}")

    han = res.han
    yaku_objs = res.yaku
    is_open = res.is_open_hand
    has_yakuman = False
    yaku = []
    extra_reds = p.extra_reds
    for y in yaku_objs:
        y_han = y.han_open if is_open and y.han_open else y.han_closed
        if y.is_yakuman:
            has_yakuman = True
        elif extra_reds and y.yaku_id == _AKA_ID:
            y_han += extra_reds
        item = _YAKU_ITEMS.get(y.yaku_id << 8 | y_han)
        yaku.append(item if item is not None else _yaku_item(y.yaku_id, y.name, y_han, y.is_yakuman))
    notes: list[str] = []
    if extra_reds and not has_yakuman:
        if not any(y.yaku_id == _AKA_ID for y in yaku_objs):
            yaku.append(_yaku_item(_AKA_ID, "Aka Dora", extra_reds, False))
        han += extra_reds
        notes.append(f"{extra_reds} more red five(s) than 136-ids can mark, counted here")

    fu_items, fu = _fu_items(res.fu_details, res.fu, rules)
    if fu != res.fu:
        notes.append(f"double-wind pair counted {rules.double_wind_pair_fu} fu under the {rules.name} rules")

    if han < 5 and not has_yakuman:  # the common case, inline: below mangan, or mangan by fu or kiriage
        yakuman_count, counted, kiriage = 0, False, False
        base = fu << (2 + han)
        if rules.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
            limit, base, kiriage = _MANGAN, 2000, True
        elif base >= 2000:
            limit, base = _MANGAN, 2000
        else:
            limit = _NONE
    else:
        limit, yakuman_count, counted, kiriage = _limit_of(han, fu, has_yakuman, rules)
        base = 8000 * yakuman_count if limit is _YAKUMAN else limit.value

    if ctx.renhou:
        if renhou_mangan and base < 2000:
            return _renhou_mangan(ctx, rules)
        if rules.renhou is Renhou.NONE:
            notes.append(f"renhou is no yaku under the {rules.name} rules")
        elif renhou_mangan:
            notes.append("renhou is a flat mangan, not cumulative: this hand is worth more without it")
    if ctx.open_riichi and not ctx.tsumo and rules.open_riichi and limit is not _YAKUMAN:
        limit, yakuman_count, counted, kiriage, base = _YAKUMAN, 1, False, False, 8000
        notes.append("a ron on an open riichi is paid as a yakuman")

    ron, tsumo_pts, payments, sticks_won, total = settle(base, ctx, rules)
    # the hot path builds the frozen result by setting its __dict__ directly: three times cheaper than the
    # generated __init__ (one object.__setattr__ per field), and the same object (every field is set here)
    result = object.__new__(ScoreResult)
    object.__setattr__(
        result,
        "__dict__",
        {
            "is_win": True,
            "reason": "",
            "yaku": tuple(yaku),
            "fu_items": fu_items,
            "han": han,
            "fu": fu,
            "limit": limit,
            "yakuman_count": yakuman_count,
            "counted": counted,
            "kiriage": kiriage,
            "base_points": base,
            "ron_points": ron,
            "tsumo_points": tsumo_pts,
            "payments": payments,
            "sticks_won": sticks_won,
            "total": total,
            "tsumo": ctx.tsumo,
            "notes": tuple(notes) if notes else (),
        },
    )
    return result


def _flat_mangan(ctx: WinContext, rules: RuleSet, yaku: YakuItem, **extra: Any) -> ScoreResult:
    """A mangan whatever the hand (renhou under WRC, nagashi mangan), settled for ``ctx``."""
    ron, tsumo_pts, payments, sticks_won, total = settle(Limit.MANGAN.base, ctx, rules)
    return ScoreResult(
        is_win=True,
        yaku=(yaku,),
        han=5,
        limit=Limit.MANGAN,
        base_points=Limit.MANGAN.base,
        ron_points=ron,
        tsumo_points=tsumo_pts,
        payments=payments,
        sticks_won=sticks_won,
        total=total,
        tsumo=ctx.tsumo,
        **extra,
    )


def _renhou_mangan(ctx: WinContext, rules: RuleSet) -> ScoreResult:
    note = f"renhou is a flat mangan, not cumulative, under the {rules.name} rules"
    return _flat_mangan(ctx, rules, _RENHOU_MANGAN, notes=(note,))


def score_nagashi_mangan(ctx: WinContext, rules: RuleSet) -> ScoreResult:
    """流し満貫: a mangan paid as a tsumo by the player in ``ctx.seat_wind`` (honba and sticks as in ``ctx``).

    Raises InvalidHand where the rules have no nagashi mangan (WRC).
    """
    if not rules.nagashi_mangan:
        raise InvalidHand(f"there is no nagashi mangan under the {rules.name} rules")
    name = EXTRA_YAKU["Nagashi Mangan"]
    yaku = YakuItem(name.en, name.ja, 5, 0, name.gloss)
    return _flat_mangan(replace(ctx, tsumo=True, discarder=None), rules, yaku, fu=30)


__all__ = [
    "FuItem",
    "Limit",
    "Payment",
    "ScoreResult",
    "WinContext",
    "YakuItem",
    "score_hand",
    "score_nagashi_mangan",
]
