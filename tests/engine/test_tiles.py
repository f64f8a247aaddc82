"""Tiles and mpsz notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidNotation
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
