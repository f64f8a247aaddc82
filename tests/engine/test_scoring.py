"""Scoring: the rule documents' worked examples and tables, and the cases engines get wrong.

Hands are 14 tiles in hand notation with the winning tile among the concealed ones. Unless a case
says otherwise the winner sits South (not the dealer) in the East round, and a ron comes from West.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.errors import InvalidHand
from engine.hand import Hand, parse_hand
from engine.rules import KazoeLimit, Renhou, preset
from engine.scoring import Limit, Payment, WinContext, score_hand, settle
from engine.tiles import Tile, Wind, parse_tiles

T = Tile


def score(hand: str, win: str, rules: str = "standard", overrides: dict | None = None, **ctx):
    ctx.setdefault("seat_wind", Wind.SOUTH)
    if not ctx.get("tsumo"):
        ctx.setdefault("discarder", Wind.WEST if ctx["seat_wind"] is not Wind.WEST else Wind.NORTH)
    for key in ("dora_indicators", "ura_indicators"):
        if key in ctx:
            ctx[key] = parse_tiles(ctx[key])
    return score_hand(parse_hand(hand), WinContext(Tile.parse(win), **ctx), preset(rules, **(overrides or {})))


def names(result) -> set[str]:
    return {y.name for y in result.yaku}


# --- 000 (WRC book), "Two worked examples" and the legal-hand example -------------------------------------------


def test_wrc_worked_example_5200_ron():
    # Riichi + All Simples + 1 dora = 3 han; 20 + closed ron 10 + concealed simple triplet 4 + closed wait 2 = 36 -> 40
    r = score("234567m666p35s88s4s", "4s", "wrc", riichi=True, dora_indicators="1m")
    assert names(r) == {"Riichi", "Tanyao", "Dora"}
    assert (r.han, r.fu) == (3, 40)
    assert r.base_points == 1280
    assert r.ron_points == 5200
    assert r.total == 5200
    assert sum(f.fu for f in r.fu_items) == 40  # 36 plus 4 for rounding up
    reasons = {f.reason: f.fu for f in r.fu_items}
    assert reasons["concealed ron (menzen kafu)"] == 10
    assert reasons["concealed triplet of simples"] == 4
    assert reasons["closed wait (kanchan)"] == 2


def test_wrc_worked_example_2700_tsumo():
    # Riichi + Pinfu + Fully Concealed = 3 han, pinfu self-draw fixed at 20 fu: 1,300 + 700 + 700
    r = score("123m456789p34599s", "5s", "wrc", riichi=True, tsumo=True)
    assert names(r) == {"Riichi", "Pinfu", "Menzen Tsumo"}
    assert (r.han, r.fu, r.base_points) == (3, 20, 640)
    assert r.tsumo_points == (1300, 700)
    assert r.payments == (Payment(Wind.EAST, 1300), Payment(Wind.WEST, 700), Payment(Wind.NORTH, 700))
    assert r.total == 2700


def test_wrc_all_simples_example():
    # 234p 456s 678m 333p 77m: All Simples, 1 han, "no dora, no other yaku needed"
    r = score("678m77m234p333p456s", "2p", "wrc")
    assert names(r) == {"Tanyao"}
    assert r.han == 1
    assert r.is_win


# --- 001 (implementation spec): payment table, fu tables, score levels -----------------------------------------

PAYMENTS_001 = [
    # base, dealer?, ron, tsumo (from dealer, from each non-dealer)
    (2000, False, 8000, (4000, 2000)),  # mangan
    (3000, False, 12000, (6000, 3000)),  # haneman
    (4000, False, 16000, (8000, 4000)),  # baiman
    (6000, False, 24000, (12000, 6000)),  # sanbaiman
    (8000, False, 32000, (16000, 8000)),  # yakuman
    (2000, True, 12000, (0, 4000)),
    (3000, True, 18000, (0, 6000)),
    (4000, True, 24000, (0, 8000)),
    (6000, True, 36000, (0, 12000)),
    (8000, True, 48000, (0, 16000)),
    (1280, False, 5200, (2600, 1300)),  # base formula, rounded up to 100
    (640, False, 2600, (1300, 700)),
    (1280, True, 7700, (0, 2600)),
]


@pytest.mark.parametrize(("base", "dealer", "ron", "tsumo"), PAYMENTS_001)
def test_001_payment_table(base, dealer, ron, tsumo):
    seat = Wind.EAST if dealer else Wind.SOUTH
    rules = preset("standard")
    ron_pts, tsumo_pts, payments, _, _ = settle(base, WinContext(Tile(0), seat_wind=seat, discarder=Wind.NORTH), rules)
    assert ron_pts == ron
    assert tsumo_pts == tsumo
    assert payments == (Payment(Wind.NORTH, ron),)
    _, _, payments, _, total = settle(base, WinContext(Tile(0), tsumo=True, seat_wind=seat), rules)
    assert total == (tsumo[0] + 2 * tsumo[1] if not dealer else 3 * tsumo[1])


def test_001_honba_and_sticks():
    # each honba +300 to a ron (from the discarder), +100 from each payer on a tsumo; sticks to the winner
    ron = score("234567m666p35s88s4s", "4s", riichi=True, dora_indicators="1m", honba=2, sticks=1)
    assert ron.payments == (Payment(Wind.WEST, 5200 + 600),)
    assert (ron.sticks_won, ron.total) == (1000, 6800)
    tsumo = score("123m456789p34599s", "5s", riichi=True, tsumo=True, honba=1, sticks=2)
    assert [p.amount for p in tsumo.payments] == [1400, 800, 800]
    assert tsumo.total == 3000 + 2000
    dealer = score("123m456789p34599s", "5s", riichi=True, tsumo=True, honba=1, seat_wind=Wind.EAST)
    assert dealer.payments == (Payment(Wind.SOUTH, 1400), Payment(Wind.WEST, 1400), Payment(Wind.NORTH, 1400))


# A closed riichi tanyao pinfu tsumo (4 han, 20 fu) plus dora from indicators: one row per score level of 001.
LEVEL_HAND = "234m567p34567888s"
LEVELS_001 = [
    # indicators, han, limit, non-dealer tsumo shares (indicator 7s makes the three 8s dora)
    ("", 4, Limit.NONE, (2600, 1300)),  # 4h20f: base 1,280
    ("1m", 5, Limit.MANGAN, (4000, 2000)),
    ("1m2m", 6, Limit.HANEMAN, (6000, 3000)),
    ("7s", 7, Limit.HANEMAN, (6000, 3000)),
    ("7s1m", 8, Limit.BAIMAN, (8000, 4000)),
    ("7s1m2m3m", 10, Limit.BAIMAN, (8000, 4000)),
    ("7s1m2m3m4p", 11, Limit.SANBAIMAN, (12000, 6000)),
    ("7s1m2m3m4p5p", 12, Limit.SANBAIMAN, (12000, 6000)),
    ("7s1m2m3m4p5p6p", 13, Limit.YAKUMAN, (16000, 8000)),  # counted yakuman
]


@pytest.mark.parametrize(("dora", "han", "limit", "shares"), LEVELS_001)
def test_001_score_levels(dora, han, limit, shares):
    r = score(LEVEL_HAND, "6s", riichi=True, tsumo=True, dora_indicators=dora)
    assert {"Riichi", "Menzen Tsumo", "Pinfu", "Tanyao"} <= names(r)
    assert (r.han, r.limit, r.tsumo_points) == (han, limit, shares)
    assert r.counted == (han >= 13)


FU_001 = [
    # hand, win, ctx, the fu item expected, total fu -- the meld, pair and wait fu tables of 001
    ("234m567p88s chi:678s pon:222m/L", "2m", {}, (2, "open triplet of simples"), 30),
    ("234m567p88s chi:678s pon:111z/L", "2m", {}, (4, "open triplet of terminals/honours"), 30),  # East: round wind
    ("234m222p567p88s678s", "2m", {"riichi": True}, (4, "concealed triplet of simples"), 40),
    ("234m999p567p88s678s", "2m", {"riichi": True}, (8, "concealed triplet of terminals/honours"), 40),
    ("345m567p88s chi:678s kan:2222m/L", "3m", {}, (8, "open kan of simples"), 30),
    ("345m567p88s chi:678s kakan:2222m/L", "3m", {}, (8, "open kan of simples"), 30),
    ("234m567p55z chi:678s kan:7777z/L", "2m", {}, (16, "open kan of terminals/honours"), 40),
    ("234p567p789s55s ankan:2222m", "2p", {"riichi": True}, (16, "closed kan of simples"), 50),
    ("234p567p789s55s ankan:1111m", "2p", {"riichi": True}, (32, "closed kan of terminals/honours"), 70),
    ("234m567p345s678s55z", "2m", {"riichi": True}, (2, "pair of a value tile"), 40),  # dragon pair
    ("234m567p345s678s22z", "2m", {"riichi": True}, (2, "pair of a value tile"), 40),  # seat wind South
    (
        "234m567p345s678s11z",
        "2m",
        {"riichi": True, "seat_wind": Wind.EAST},
        (4, "pair of the double wind (seat and round)"),
        40,
    ),
    ("234m567p345s678s44z", "2m", {"riichi": True}, None, 30),  # a guest wind pair: pinfu, no fu
    ("123m567p345s678s88s", "3m", {"riichi": True}, (2, "edge wait (penchan)"), 40),
    ("234m567p345s678s88s", "3m", {"riichi": True}, (2, "closed wait (kanchan)"), 40),
    ("234m567p345s678s99p", "9p", {"riichi": True}, (2, "pair wait (tanki)"), 40),
    ("234m567p345s678s88s", "2m", {"riichi": True, "tsumo": True}, None, 20),  # pinfu tsumo fixed 20
    ("234m567p345s678s88s", "2m", {"riichi": True}, None, 30),  # pinfu ron fixed 30
    ("22m33m44p55p66s77s88s", "8s", {}, (25, "seven pairs (chiitoitsu): always 25"), 25),
    ("234m567p88s chi:678s chi:345s", "2m", {}, (2, "open hand without fu (open pinfu shape)"), 30),  # kuipin
]


@pytest.mark.parametrize(("hand", "win", "ctx", "item", "fu"), FU_001)
def test_001_fu_tables(hand, win, ctx, item, fu):
    r = score(hand, win, **ctx)
    assert r.is_win, r.reason
    assert r.fu == fu
    assert sum(f.fu for f in r.fu_items) == fu
    if item is not None:
        assert item in [(f.fu, f.reason) for f in r.fu_items]
    else:
        assert "Pinfu" in names(r)


# --- the tricky cases ---------------------------------------------------------------------------------------------

TRICKY = [
    # name, hand, win, rules, overrides, ctx, han, fu, points, yaku expected in, yaku expected out
    (
        "pinfu tsumo is 20 fu, no tsumo fu",
        "234m567p34567888s",
        "6s",
        "standard",
        {},
        {"tsumo": True},
        3,
        20,
        2700,
        {"Pinfu", "Menzen Tsumo", "Tanyao"},
        set(),
    ),
    (
        "open pinfu shape is 30 fu",
        "234m567p345s88s chi:678s",
        "2m",
        "standard",
        {},
        {},
        1,
        30,
        1000,
        {"Tanyao"},
        {"Pinfu"},
    ),
    (
        "closed terminal kan 32 fu",
        "234p567p789s55s ankan:1111m",
        "2p",
        "standard",
        {},
        {"riichi": True},
        1,
        70,
        2300,
        {"Riichi"},
        set(),
    ),
    (
        "open terminal/honour kan 16 fu",
        "234p567p789s55s kan:7777z/L",
        "2p",
        "standard",
        {},
        {},
        1,
        40,
        1300,
        {"Yakuhai (chun)"},
        set(),
    ),
    (
        "closed simple kan 16 fu",
        "234p567p789s55s ankan:2222m",
        "2p",
        "standard",
        {},
        {"riichi": True},
        1,
        50,
        1600,
        {"Riichi"},
        set(),
    ),
    ("open simple kan 8 fu", "234p567p678s55s kan:2222m/L", "2p", "standard", {}, {}, 1, 30, 1000, {"Tanyao"}, set()),
    (
        "ryanpeikou beats chiitoitsu",
        "223344m556677p88s",
        "8s",
        "standard",
        {},
        {},
        4,
        40,
        8000,
        {"Ryanpeikou", "Tanyao"},
        {"Chiitoitsu"},
    ),
    (
        "a real chiitoitsu",
        "22m33m44p55p66s77s88s",
        "8s",
        "standard",
        {},
        {},
        3,
        25,
        3200,
        {"Chiitoitsu", "Tanyao"},
        {"Ryanpeikou"},
    ),
    (
        "no sanankou on a shanpon ron",
        "111m678m555p22777s",
        "7s",
        "standard",
        {},
        {"riichi": True},
        1,
        50,
        1600,
        {"Riichi"},
        {"San Ankou"},
    ),
    (
        "sanankou on the same shanpon by tsumo",
        "111m678m555p22777s",
        "7s",
        "standard",
        {},
        {"riichi": True, "tsumo": True},
        4,
        40,
        8000,
        {"Riichi", "San Ankou", "Menzen Tsumo"},
        set(),
    ),
    (
        "double-wind pair 4 fu",
        "111m567p345s789s11z",
        "5p",
        "standard",
        {},
        {"riichi": True, "seat_wind": Wind.EAST},
        1,
        50,
        2400,
        {"Riichi"},
        set(),
    ),
    (
        "double-wind pair 2 fu where a rule set says so",
        "111m567p345s789s11z",
        "5p",
        "standard",
        {"double_wind_pair_fu": 2},
        {"riichi": True, "seat_wind": Wind.EAST},
        1,
        40,
        2000,
        {"Riichi"},
        set(),
    ),
    (
        "kiriage off: 4h30f is 7,700",
        "234m567p34567888s",
        "6s",
        "standard",
        {},
        {"riichi": True, "dora_indicators": "1m"},
        4,
        30,
        7700,
        {"Riichi", "Pinfu", "Tanyao", "Dora"},
        set(),
    ),
    (
        "kiriage on: 4h30f is a mangan",
        "234m567p34567888s",
        "6s",
        "wrc",
        {},
        {"riichi": True, "dora_indicators": "1m"},
        4,
        30,
        8000,
        {"Riichi", "Pinfu", "Tanyao", "Dora"},
        set(),
    ),
    (
        "kiriage off: 3h60f is 7,700",
        "999p34555678s ankan:2222m",
        "5s",
        "standard",
        {},
        {"riichi": True, "ippatsu": True, "dora_indicators": "2s"},
        3,
        60,
        7700,
        {"Riichi", "Ippatsu", "Dora"},
        set(),
    ),
    (
        "kiriage on: 3h60f is a mangan",
        "999p34555678s ankan:2222m",
        "5s",
        "wrc",
        {},
        {"riichi": True, "ippatsu": True, "dora_indicators": "2s"},
        3,
        60,
        8000,
        {"Riichi", "Ippatsu", "Dora"},
        set(),
    ),
    (
        "double yakuman on: suuankou tanki",
        "111m222p333s444z55z",
        "5z",
        "standard",
        {},
        {"tsumo": True},
        26,
        50,
        64000,
        {"Suu Ankou Tanki"},
        set(),
    ),
    (
        "double yakuman off (wrc): suuankou tanki is single",
        "111m222p333s444z55z",
        "5z",
        "wrc",
        {},
        {"tsumo": True},
        13,
        50,
        32000,
        {"Suu Ankou Tanki"},
        set(),
    ),
    (
        "double yakuman off (tenhou)",
        "111m222p333s444z55z",
        "5z",
        "tenhou",
        {},
        {"tsumo": True},
        13,
        50,
        32000,
        {"Suu Ankou Tanki"},
        set(),
    ),
    (
        "composite yakuman stack even without double yakuman",
        "111z22z555z666z777z",
        "1z",
        "wrc",
        {},
        {},
        26,
        60,
        64000,
        {"Daisangen", "Tsuu Iisou"},
        set(),
    ),
    (
        "counted yakuman (13 han)",
        "11122233345678m",
        "8m",
        "standard",
        {},
        {"riichi": True, "tsumo": True, "ippatsu": True, "dora_indicators": "9m7m"},
        13,
        40,
        32000,
        {"Chinitsu"},
        set(),
    ),
    (
        "counted yakuman capped at sanbaiman by option",
        "11122233345678m",
        "8m",
        "standard",
        {"kazoe": KazoeLimit.SANBAIMAN},
        {"riichi": True, "tsumo": True, "ippatsu": True, "dora_indicators": "9m7m"},
        13,
        40,
        24000,
        {"Chinitsu"},
        set(),
    ),
    (
        "highest paying: kanchan reading 40 fu",
        "88m678678789s444z",
        "8s",
        "standard",
        {},
        {"tsumo": True},
        2,
        40,
        2700,
        {"Menzen Tsumo", "Iipeiko"},
        set(),
    ),
    (
        "highest paying: sanankou 2h50f over iipeikou",
        "234m11p777888999s",
        "1p",
        "standard",
        {},
        {},
        2,
        50,
        3200,
        {"San Ankou"},
        {"Iipeiko"},
    ),
    (
        "highest paying: junchan iipeikou over sanankou",
        "111222333m11p789s",
        "8s",
        "standard",
        {},
        {"riichi": True},
        5,
        40,
        8000,
        {"Junchan", "Iipeiko", "Riichi"},
        {"San Ankou"},
    ),
]


@pytest.mark.parametrize(
    ("hand", "win", "rules", "overrides", "ctx", "han", "fu", "points", "has", "lacks"),
    [pytest.param(*case[1:], id=case[0]) for case in TRICKY],
)
def test_tricky(hand, win, rules, overrides, ctx, han, fu, points, has, lacks):
    r = score(hand, win, rules, overrides, **ctx)
    assert r.is_win, r.reason
    assert (r.han, r.fu, r.points) == (han, fu, points)
    assert has <= names(r)
    assert not (lacks & names(r))


def test_limit_names():
    assert score("111m222p333s444z55z", "5z", tsumo=True).limit_name == "double yakuman"
    assert score("111m222p333s444z55z", "5z", "wrc", tsumo=True).limit_name == "yakuman"
    counted = score("11122233345678m", "8m", riichi=True, tsumo=True, ippatsu=True, dora_indicators="9m7m")
    assert (counted.limit_name, counted.yakuman_count) == ("counted yakuman", 1)
    kiriage = score("234m567p34567888s", "6s", "wrc", riichi=True, dora_indicators="1m")
    assert (kiriage.limit, kiriage.limit_name) == (Limit.MANGAN, "kiriage mangan")
    assert score("234m567p34567888s", "6s", riichi=True, dora_indicators="1m").limit_name == ""


def test_yakuman_items():
    r = score("111m222p333s444z55z", "5z", tsumo=True)
    assert [(y.name, y.name_ja, y.han, y.yakuman_multiple) for y in r.yaku] == [
        ("Suu Ankou Tanki", "四暗刻単騎", 26, 2)
    ]


# --- renhou under each preset (000: a flat mangan, not cumulative; 001 and Tenhou: not a yaku) -------------------

RENHOU_HAND = "234m567p34567888s"  # tanyao + pinfu by ron: 2h30f, 2,000


@pytest.mark.parametrize(
    ("rules", "overrides", "points", "yaku"),
    [
        ("wrc", {}, 8000, {"Renhou"}),  # flat mangan, the other yaku not added
        ("standard", {}, 2000, {"Tanyao", "Pinfu"}),  # 001 has no renhou
        ("tenhou", {}, 2000, {"Tanyao", "Pinfu"}),
        ("standard", {"renhou": Renhou.YAKUMAN}, 32000, {"Renhou"}),
        ("standard", {"renhou": Renhou.HAN5}, 12000, {"Renhou", "Tanyao", "Pinfu"}),  # 7 han haneman, cumulative
    ],
)
def test_renhou(rules, overrides, points, yaku):
    r = score(RENHOU_HAND, "6s", rules, overrides, renhou=True)
    assert r.points == points
    assert names(r) == yaku


def test_renhou_mangan_not_cumulative_keeps_a_higher_hand():
    # a closed chinitsu is worth more than the flat mangan: the hand scores as itself
    r = score("11123455678999m", "5m", "wrc", renhou=True)
    assert "Renhou" not in names(r)
    assert r.points >= 12000


def test_renhou_mangan_gives_a_win_to_a_hand_without_yaku():
    no_yaku = "234m567p345s678s11z"  # round wind pair, no pinfu, no tanyao
    assert score(no_yaku, "2m", "standard", renhou=True).reason == "no yaku"
    r = score(no_yaku, "2m", "wrc", renhou=True)
    assert (r.is_win, r.points, r.limit) == (True, 8000, Limit.MANGAN)


def test_renhou_context_checked():
    with pytest.raises(InvalidHand):
        score(RENHOU_HAND, "6s", "wrc", renhou=True, tsumo=True)


# --- open riichi (001: +2 han; with double riichi +4; a ron on it is paid as a yakuman) ---------------------------


def test_open_riichi():
    r = score(LEVEL_HAND, "6s", "standard", {"open_riichi": True}, open_riichi=True, tsumo=True)
    assert {y.name: y.han for y in r.yaku}["Open Riichi"] == 2
    assert r.han == 2 + 3  # open riichi + tsumo, pinfu, tanyao
    double = score(
        LEVEL_HAND, "6s", "standard", {"open_riichi": True}, open_riichi=True, double_riichi=True, tsumo=True
    )
    assert {y.name: y.han for y in double.yaku}["Double Open Riichi"] == 4
    ron = score(LEVEL_HAND, "6s", "standard", {"open_riichi": True}, open_riichi=True)
    assert (ron.limit, ron.points) == (Limit.YAKUMAN, 32000)
    with pytest.raises(InvalidHand, match="open riichi"):
        score(LEVEL_HAND, "6s", "standard", open_riichi=True)


# --- red fives ----------------------------------------------------------------------------------------------------


def test_two_red_5p_under_standard():
    # 001's set has two red 5p; 136-ids have one, so the second is counted by us
    r = score("234m340067p34588s", "2m", riichi=True)
    assert {y.name: y.han for y in r.yaku}["Aka Dora"] == 2
    assert r.han == 1 + 1 + 1 + 2  # riichi, pinfu, tanyao, two red fives
    with pytest.raises(InvalidHand, match="red"):
        score("234m340067p34588s", "2m", "tenhou", riichi=True)


def test_plain_five_is_not_red():
    r = score("234m345567p34588s", "2m", riichi=True)
    assert "Aka Dora" not in names(r)


# --- not a win, and bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "win", "reason"),
    [
        ("234m567p345s678s11z", "2m", "no yaku"),
        ("234m567p88s chi:678s pon:444z", "2m", "no yaku"),  # open, a North pon is no yakuhai for South in East
        ("234m567p345s678s17z", "2m", "not a complete hand"),
    ],
)
def test_not_a_win(hand, win, reason):
    r = score(hand, win)
    assert (r.is_win, r.reason) == (False, reason)


def test_dora_does_not_make_a_yaku():
    r = score("234m567p345s678s11z", "2m", dora_indicators="1m4z")
    assert (r.is_win, r.reason) == (False, "no yaku")


@pytest.mark.parametrize(
    ("hand", "win", "rules", "message"),
    [
        ("234m567p345s678s1z", "2m", "standard", "14 tiles"),  # 13 tiles
        ("2222m567p345s678s11z", "2m", "standard", "14 tiles"),
        ("22222m67p345s678s11z", "2m", "standard", "five"),
        ("234m567p345s678s11z", "9m", "standard", "not among"),
        ("234m067p345s678s11z", "2m", "wrc", "red"),
    ],
)
def test_bad_input(hand, win, rules, message):
    with pytest.raises(InvalidHand):
        score(hand, win, rules)


def test_impossible_context():
    with pytest.raises(InvalidHand, match="ippatsu"):
        score(LEVEL_HAND, "6s", ippatsu=True)
    with pytest.raises(InvalidHand, match="riichi"):
        score("234m567p345s88s chi:678s", "2m", riichi=True)


def test_to_dict():
    d = score("234567m666p35s88s4s", "4s", "wrc", riichi=True, dora_indicators="1m").to_dict()
    assert d["han"] == 3 and d["fu"] == 40 and d["payments"] == [{"payer": "W", "amount": 5200}]
    assert d["yaku"][0]["name_ja"]


# --- the wrapper's shortcuts build the same objects as the slow way -----------------------------------------------


def test_fast_built_result_is_a_normal_result():
    import dataclasses

    r = score("234567m666p35s88s4s", "4s", "wrc", riichi=True, dora_indicators="1m")
    again = dataclasses.replace(r)  # through the generated __init__
    assert again == r and hash(again.yaku) == hash(r.yaku)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.han = 5


def test_prepared_melds_match_the_package_meld():
    from mahjong.meld import Meld as MjMeld

    from engine.scoring import prepare

    hand = parse_hand("22m chi:678s kakan:3333m/L ankan:9999p pon:555z")
    ctx = WinContext(Tile.parse("2m"), tsumo=True, seat_wind=Wind.SOUTH)
    p = prepare(hand, ctx, preset("standard"))
    for m in p.melds:
        normal = MjMeld(meld_type=m.type, tiles=list(m.tiles), opened=m.opened)
        assert normal.tiles_34  # the package caches it on first use; ours comes with it
        assert vars(m) == vars(normal)
    assert [(m.type, m.opened, len(m.tiles)) for m in p.melds] == [
        ("chi", True, 3),
        ("shouminkan", True, 4),
        ("kan", False, 4),
        ("pon", True, 3),
    ]
    assert len(p.tiles) == 2 + 3 + 4 + 4 + 3  # every tile of every kan goes to the package


@pytest.mark.parametrize(
    ("hand", "win", "red_ids"),
    [
        ("234m340067p34588s", "2m", {52}),  # two red 5p: one id 52, the other a plain id (counted apart)
        ("234m345567p34588s", "2m", set()),  # plain fives never get a red id
        ("234m406p567p34588s", "0p", {52}),
    ],
)
def test_red_ids(hand, win, red_ids):
    from engine.scoring import prepare

    p = prepare(parse_hand(hand), WinContext(Tile.parse(win), seat_wind=Wind.SOUTH), preset("standard"))
    assert {i for i in p.tiles if i in (16, 52, 88)} == red_ids
    assert p.win_tile // 4 == Tile.parse(win).kind
    assert (p.win_tile == 52) == (win == "0p")


# --- properties over random complete hands -------------------------------------------------------------------------


_sequence = st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda p: [T(p[0] * 9 + p[1] + i) for i in range(3)])
_triplet = st.integers(0, 33).map(lambda k: [T(k)] * 3)
_group = st.one_of(_sequence, _triplet)


@settings(max_examples=150, deadline=None)
@given(
    groups=st.lists(_group, min_size=4, max_size=4),
    pair=st.integers(0, 33),
    win_index=st.integers(0, 13),
    tsumo=st.booleans(),
    riichi=st.booleans(),
    seat=st.sampled_from(list(Wind)),
    honba=st.integers(0, 3),
    sticks=st.integers(0, 2),
    rules=st.sampled_from(["wrc", "standard", "tenhou"]),
)
def test_complete_hands_score_consistently(groups, pair, win_index, tsumo, riichi, seat, honba, sticks, rules):
    tiles = [t for g in groups for t in g] + [T(pair)] * 2
    assume(max(tiles.count(t) for t in tiles) <= 4)
    reds = preset(rules).red_fives  # a set with red fives has fewer plain ones
    assume(all(tiles.count(T(k)) <= 4 - n for k, n in zip((4, 13, 22), reds, strict=True)))
    hand = Hand(tuple(tiles))
    discarder = None if tsumo else Wind((seat + 1) % 4)
    ctx = WinContext(
        tiles[win_index], tsumo=tsumo, riichi=riichi, seat_wind=seat, honba=honba, sticks=sticks, discarder=discarder
    )
    r = score_hand(hand, ctx, preset(rules))
    assert r.reason != "not a complete hand"  # four sets and a pair always complete
    if not r.is_win:
        assert r.reason == "no yaku" and not riichi and not tsumo  # riichi and menzen tsumo are yaku
        return
    assert r.han >= 1 and r.yaku
    assert r.fu in (0, 25) or r.fu % 10 == 0  # kokushi has no fu; chiitoitsu 25
    assert sum(f.fu for f in r.fu_items) == r.fu
    assert r.total == sum(p.amount for p in r.payments) + r.sticks_won
    assert r.sticks_won == 1000 * sticks
    payers = {p.payer for p in r.payments}
    if tsumo:
        assert payers == set(Wind) - {seat}
        assert r.total - r.sticks_won == r.points + 300 * honba
    else:
        assert payers == {discarder} and r.payments[0].amount == r.ron_points + 300 * honba
    # a ron pays at least what the three tsumo shares add up to, less rounding
    dealer, other = r.tsumo_points
    assert r.ron_points + 300 >= (dealer + 2 * other if seat is not Wind.EAST else 3 * other)


def test_nagashi_mangan():
    from engine.scoring import score_nagashi_mangan

    r = score_nagashi_mangan(WinContext(Tile(0), seat_wind=Wind.SOUTH, honba=1, sticks=1), preset("standard"))
    assert (r.limit, r.tsumo_points, r.total) == (Limit.MANGAN, (4000, 2000), 8000 + 300 + 1000)
    assert r.yaku[0].name_ja == "流し満貫"
    with pytest.raises(InvalidHand, match="nagashi"):
        score_nagashi_mangan(WinContext(Tile(0)), preset("wrc"))  # 000: "No nagashi mangan"


def test_renhou_notes():
    assert score(RENHOU_HAND, "6s", "standard", renhou=True).notes == ("renhou is no yaku under the standard rules",)
    assert "flat mangan" in score(RENHOU_HAND, "6s", "wrc", renhou=True).notes[0]
