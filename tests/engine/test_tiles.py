"""Tiles and mpsz notation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidNotation
from engine.hand import parse_hand
from engine.tiles import ALL_KINDS, RED_FIVES, Tile, Wind, counts34, format_tiles, parse_tiles

tiles = st.sampled_from(ALL_KINDS + RED_FIVES)


@pytest.mark.parametrize(
    ("text", "kinds", "reds"),
    [
        ("123m", [0, 1, 2], 0),
        ("0m", [4], 1),  # red five
        ("0p0s", [13, 22], 2),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33], 0),  # East South West North White Green Red
        ("19m 19p", [0, 8, 9, 17], 0),  # spaces are ignored
    ],
)
def test_parse(text, kinds, reds):
    parsed = parse_tiles(text)
    assert [t.kind for t in parsed] == kinds
    assert sum(t.red for t in parsed) == reds


@pytest.mark.parametrize("text", ["8z", "0z", "m", "12", "1x", "5q"])
def test_parse_errors(text):
    with pytest.raises(InvalidNotation):
        parse_tiles(text)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        # digits from other scripts are not tile numbers, though str.isdigit() says they are digits
        ("²23m456p789s23s55z", "²"),  # superscript two: int() cannot read it
        ("①m", "①"),  # circled one
        ("１２３m", "１"),  # full-width digits: read as 1 2 3 before
        ("٣m", "٣"),  # Arabic-Indic three
        ("۴p", "۴"),  # extended Arabic-Indic four
        ("५s", "५"),  # Devanagari five
        ("𝟕z", "𝟕"),  # mathematical bold seven
        ("123ｍ", "ｍ"),  # a full-width suit letter
        ("123m\u3000456p", "\u3000"),  # an ideographic space
        ("123m\u00a0456p", "\xa0"),  # a no-break space
        ("1m\x00", "\x00"),
    ],
)
def test_only_ascii_digits_and_suits(text, bad):
    with pytest.raises(InvalidNotation, match=re.escape(f"unknown character {bad!r}")):
        parse_tiles(text)
    with pytest.raises(InvalidNotation, match="unknown character"):
        parse_hand(f"123m456p789s11z {text}")


@pytest.mark.parametrize(("text", "told"), [("123M", "'m', not 'M'"), ("4P", "'p', not 'P'"), ("7Z", "'z', not 'Z'")])
def test_upper_case_suit_letters_are_told_to_be_lower_case(text, told):
    with pytest.raises(InvalidNotation, match=re.escape(f"suit letters are lower case: {told}")):
        parse_tiles(text)


def test_long_text_is_cut_short_in_the_message():
    with pytest.raises(InvalidNotation) as caught:
        parse_tiles("1m" * 100_000 + "x")
    assert len(str(caught.value)) < 200


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from("0123456789mpsz "), st.characters()), max_size=30))
def test_any_text_parses_and_round_trips_or_is_a_notation_error(text):
    try:
        parsed = parse_tiles(text)
    except InvalidNotation:
        return
    assert set(text) <= set("0123456789mpsz \t\r\n")
    assert parse_tiles(format_tiles(parsed)) == parsed


def test_tile_properties():
    assert Tile.parse("1m").is_terminal and Tile.parse("7z").is_honor and Tile.parse("5s").is_simple
    assert Tile.parse("9p").dora_from_indicator() == Tile.parse("1p")
    assert Tile.parse("4z").dora_from_indicator() == Tile.parse("1z")  # North -> East
    assert Tile.parse("7z").dora_from_indicator() == Tile.parse("5z")  # Red -> White
    assert Tile.parse("0m").deaka() == Tile.parse("5m")
    assert Wind.parse("s") is Wind.SOUTH and Wind.WEST.tile == Tile.parse("3z")
    with pytest.raises(InvalidNotation):
        Tile(4, red=False).__class__(3, red=True)  # only fives can be red


@settings(max_examples=200, deadline=None)
@given(st.lists(tiles, max_size=20))
def test_mpsz_round_trip(seq):
    text = format_tiles(seq)
    assert parse_tiles(text) == tuple(seq)
    assert parse_tiles(format_tiles(seq, sort=True)) == tuple(sorted(seq, key=lambda t: (t.kind, not t.red)))


@settings(max_examples=100, deadline=None)
@given(tiles)
def test_repr_round_trip(tile):
    assert eval(repr(tile), {"Tile": Tile}) == tile
    assert Tile.parse(str(tile)) == tile


@given(st.lists(tiles, max_size=14))
def test_counts34(seq):
    counts = counts34(seq)
    assert sum(counts) == len(seq) and len(counts) == 34
