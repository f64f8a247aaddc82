"""Shanten, waits with unseen counts, and the value of each wait."""

from __future__ import annotations

import pytest

from engine.errors import InvalidHand
from engine.hand import parse_hand
from engine.rules import preset
from engine.scoring import WinContext
from engine.tiles import Tile, Wind, parse_tiles
from engine.waits import find_waits, shanten


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s1122z", 0),  # shanpon
        ("123456789m1234z", 2),
        ("19m19p19s1234567z", 0),  # thirteen orphans, 13-sided
        ("1122m3344p5566s7z", 0),  # seven pairs, tanki on 7z
        ("1357m2468p1357s9s", 4),
        ("234m567p345s8s chi:678s", 0),  # open hand: no seven pairs or orphans
        ("1m ankan:2222p pon:333z chi:123s kan:4444s", 0),  # four melds, tanki
    ],
)
def test_shanten(hand, expected):
    assert shanten(parse_hand(hand)) == expected


WAITS = [
    # hand, waits, unseen counts (hand tiles and `seen` excluded)
    ("123m456p789s1122z", "1z2z", [2, 2]),
    ("1112345678999m", "123456789m", [1, 3, 3, 3, 3, 3, 3, 3, 1]),  # nine gates
    ("19m19p19s1234567z", "19m19p19s1234567z", [3] * 13),
    ("23m456p789s11z555z", "1m4m", [4, 4]),
    ("13m456p789s11z555z", "2m", [4]),  # kanchan
    ("12m456p789s11z555z", "3m", [4]),  # penchan
    ("1111m456p789s555z", "", []),  # 1111m + ... waits on 1m? all four held: no wait
]


@pytest.mark.parametrize(("hand", "waits", "unseen"), WAITS)
def test_waits(hand, waits, unseen):
    w = find_waits(parse_hand(hand), value=False)
    assert [x.tile for x in w.waits] == list(parse_tiles(waits))
    assert [x.unseen for x in w.waits] == unseen
    assert w.tenpai == bool(waits)


def test_unseen_counts_known_tiles():
    w = find_waits(parse_hand("23m456p789s11z555z"), known=parse_tiles("1m1m4m"), value=False)
    assert [(str(x.tile), x.unseen) for x in w.waits] == [("1m", 2), ("4m", 3)]


def test_not_tenpai():
    w = find_waits(parse_hand("123456789m1234z"))
    assert (w.shanten, w.tenpai, w.waits) == (2, False, ())


def test_wait_values():
    # riichi, non-dealer: 1m gives 23m+1m (no pinfu: South pair is a value pair for South) ...
    ctx = WinContext(Tile.parse("1m"), seat_wind=Wind.SOUTH, riichi=True, dora_indicators=parse_tiles("3m"))
    w = find_waits(parse_hand("23m456p789s22z567s"), ctx=ctx, rules=preset("standard"))
    by_tile = {str(x.tile): x for x in w.waits}
    assert set(by_tile) == {"1m", "4m"}
    one, four = by_tile["1m"], by_tile["4m"]
    # 1m: riichi 1 han, 40 fu (20 + 10 menzen + 2 pair of seat wind), ron 1,300
    assert (one.ron.han, one.ron.fu, one.ron.points) == (1, 40, 1300)
    # 4m is a dora: riichi + dora = 2 han 40 fu, ron 2,600; tsumo: + menzen tsumo, 20 + 2 + 2 = 30 fu, 1,000/2,000
    assert (four.ron.han, four.ron.points) == (2, 2600)
    assert (four.tsumo.han, four.tsumo.fu, four.tsumo.tsumo_points) == (3, 30, (2000, 1000))


def test_wait_without_yaku():
    w = find_waits(parse_hand("13m456p789s22z567s"), ctx=WinContext(Tile(0), seat_wind=Wind.WEST))
    # kanchan, no riichi, a South pair for West in the East round: a ron has no yaku; a tsumo has menzen tsumo
    assert [str(x.tile) for x in w.waits] == ["2m"]
    assert all(not x.ron.is_win and x.ron.reason == "no yaku" for x in w.waits)
    assert all(x.tsumo.is_win for x in w.waits)


def test_bad_input():
    with pytest.raises(InvalidHand):
        find_waits(parse_hand("123m456p789s11222z"))  # 14 tiles
    with pytest.raises(InvalidHand):
        find_waits(parse_hand("1111m456p789s555z"), known=parse_tiles("1m"))


def test_wait_on_the_last_five_is_the_red_one():
    # Tenhou's set has three plain 5m; holding all three, the 5m that wins is the red one (+1 aka dora)
    w = find_waits(
        parse_hand("555m46m789p234s55z"),
        ctx=WinContext(Tile(0), seat_wind=Wind.SOUTH, riichi=True),
        rules=preset("tenhou"),
    )
    five = next(x for x in w.waits if str(x.tile) == "5m")
    assert five.ron.is_win
    assert "Aka Dora" in {y.name for y in five.ron.yaku}
