"""Hands: notation with melds, and validation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidHand, InvalidNotation
from engine.hand import parse_hand, validate_hand
from engine.melds import MeldKind, Relative
from engine.rules import preset
from engine.tiles import Tile


@pytest.mark.parametrize(
    ("text", "concealed", "melds", "closed"),
    [
        ("123m456p789s1122z", 13, [], True),
        ("234m234p11z chi:324s pon:555z/L", 8, [MeldKind.CHI, MeldKind.PON], False),
        ("11123m ankan:1111p", 5, [MeldKind.ANKAN], True),  # a closed kan keeps the hand closed
        (
            "1m kan:5555p/R kakan:7777z chi:123s pon:222s",
            1,
            [MeldKind.KAN, MeldKind.KAKAN, MeldKind.CHI, MeldKind.PON],
            False,
        ),
    ],
)
def test_parse_hand(text, concealed, melds, closed):
    h = parse_hand(text)
    assert h.concealed_count == concealed
    assert [m.kind for m in h.melds] == melds
    assert h.is_closed == closed
    assert parse_hand(h.notation()) == h


def test_meld_called_tile_and_source():
    h = parse_hand("11z pon:555z/L kan:0555p/R chi:324s")
    pon, kan, chi = h.melds
    assert (pon.called, pon.source) == (Tile.parse("5z"), Relative.LEFT)
    assert (kan.called, kan.source) == (Tile.parse("0p"), Relative.RIGHT)
    assert (chi.called, chi.source) == (Tile.parse("3s"), Relative.LEFT)
    assert len(h.all_tiles) == 2 + 3 + 4 + 3  # all four tiles of the kan


@pytest.mark.parametrize(
    "text",
    [
        "123m pon:556z",  # not a pon
        "123m chi:135m",  # not a sequence
        "123m chi:789z",  # honours never form a chi
        "123m chi:123s/R",  # a chi comes from the left
        "123m pon:555z/X",
        "123m pin:555z",
        "pon:555z 123m",  # concealed tiles come first
        "",
    ],
)
def test_bad_notation(text):
    with pytest.raises((InvalidNotation, InvalidHand)):
        parse_hand(text)


@pytest.mark.parametrize(
    ("text", "rules", "message"),
    [
        ("123m456p789s112z", "standard", "13 or 14"),  # 12 tiles
        ("123m456p789s112223z", "standard", "13 or 14"),  # 15 tiles
        ("11111m456p789s12z", "standard", "four"),  # five of a kind
        ("1111m456p789s1z ankan:1111m", "standard", "four"),  # five counting the kan
        ("0m456p789s1122z33z", "wrc", "red"),  # no red fives in the WRC set
        ("00p456m789s1122z3z", "tenhou", "red"),  # Tenhou has one red 5p
    ],
)
def test_validate(text, rules, message):
    with pytest.raises(InvalidHand, match=message):
        validate_hand(parse_hand(text), preset(rules))


def test_two_red_5p_allowed_by_001():
    validate_hand(parse_hand("00p456m789s1122z3z"), preset("standard"))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14))
def test_notation_round_trip(kinds):
    h = parse_hand("".join(str(Tile(k)) for k in kinds))
    assert parse_hand(h.notation()).concealed == tuple(sorted(h.concealed))
