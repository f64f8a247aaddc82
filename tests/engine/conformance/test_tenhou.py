"""Decoding Tenhou's 136-ids, meld codes and yaku lists."""

import gzip
import json

import pytest

from engine.conformance.tenhou import (
    check_win,
    decode_meld,
    decode_meld_ids,
    decode_win,
    meld_source_seat,
    parse_yaku,
    rules_for_go_type,
    tile_from_136,
    tiles_from_136,
)
from engine.errors import InvalidNotation
from engine.melds import MeldKind, Relative
from engine.scoring import score_hand
from engine.tiles import Tile, Wind
from tests.shared_data import TENHOU, TENHOU_MISSING


@pytest.mark.parametrize(
    ("tile_id", "red", "expected"),
    [
        (0, True, "1m"),
        (16, True, "0m"),  # copy 0 of 5m is the red one when red fives are played
        (16, False, "5m"),  # ... and a plain five otherwise
        (17, True, "5m"),
        (52, True, "0p"),
        (88, True, "0s"),
        (89, True, "5s"),
        (108, True, "1z"),
        (135, True, "7z"),
    ],
)
def test_tile_from_136(tile_id, red, expected):
    assert tile_from_136(tile_id, red) == Tile.parse(expected)


def test_tiles_from_string_and_bad_id():
    assert tiles_from_136("0,16,135", red=True) == (Tile.parse("1m"), Tile.parse("0m"), Tile.parse("7z"))
    with pytest.raises(InvalidNotation):
        tile_from_136(136, True)


@pytest.mark.parametrize(
    ("code", "kind", "notation", "source", "ids"),
    [
        # chi of 3s (copy 0) holding 4s (copy 1) and 5s (copy 2), from the left: (16*3+0)<<10 | 4 | 1<<5 | 2<<7 | 3
        (49447, MeldKind.CHI, "chi:3s45s", Relative.LEFT, (80, 85, 90)),
        # pon of White from the right (a real record's meld)
        (47625, MeldKind.PON, "pon:5z55z/R", Relative.RIGHT, (125, 126, 127)),
        # pon of 5p with the red one called, from the right; copy 3 unused
        (20073, MeldKind.PON, "pon:0p55p/R", Relative.RIGHT, (52, 53, 54)),
        # added kan on that pon: bit 0x10 instead of 0x08, the unused copy is the added tile
        (20073 - 0x8 + 0x10, MeldKind.KAKAN, "kakan:0p555p/R", Relative.RIGHT, (52, 53, 54, 55)),
        # closed kan of 1m: tile id << 8, relative 0
        (0 << 8, MeldKind.ANKAN, "ankan:1111m", Relative.SELF, (0, 1, 2, 3)),
        (12 << 8 | 0, MeldKind.ANKAN, "ankan:4444m", Relative.SELF, (12, 13, 14, 15)),
        # open kan of East on a discard of copy 1 from across
        ((109 << 8) | 2, MeldKind.KAN, "kan:1z111z", Relative.ACROSS, (108, 109, 110, 111)),
    ],
)
def test_decode_meld(code, kind, notation, source, ids):
    d = decode_meld_ids(code, red=True)
    assert d.meld.kind is kind
    assert d.meld.notation() == notation
    assert d.meld.source is source
    assert d.ids == ids
    assert decode_meld(code, who=1) == d.meld


def test_red_five_off_in_melds():
    assert decode_meld(20073, red=False).notation() == "pon:5p55p/R"


def test_source_seat_and_nuki():
    assert meld_source_seat(47625, who=3) == 0  # right of seat 3 is seat 0
    assert meld_source_seat(0, who=2) == 2
    with pytest.raises(InvalidNotation):
        decode_meld(0x20 | (120 << 8))


def test_parse_yaku():
    assert parse_yaku("1,1,0,1,7,1,52,1,53,0", None) == {1: 1, 0: 1, 7: 1, 52: 1}
    assert parse_yaku(None, "39,42") == {39: 13, 42: 13}


# --- real win records -----------------------------------------------------------------------------------------------

WINS = TENHOU / "wins.jsonl.gz"
needs_wins = pytest.mark.skipif(not WINS.is_file(), reason=TENHOU_MISSING)


def _records():
    with gzip.open(WINS, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@needs_wins
def test_decode_win_record():
    rec = _records()[2]  # South's open tanyao tsumo: a pon of 5p with the red one called, a chi of 4s
    win = decode_win(rec)
    assert win.ctx.tsumo and win.ctx.seat_wind is Wind.SOUTH and win.ctx.honba == 1
    assert [m.notation() for m in win.hand.melds] == ["pon:0p55p/R", "chi:4s35s"]
    assert win.rules.has_red_fives and win.rules.open_tanyao
    assert (win.fu, win.points, win.yaku) == (30, 2000, {8: 1, 54: 1})
    assert check_win(rec).agrees


@needs_wins
def test_go_type_bits():
    assert rules_for_go_type(0x02 | 0x04).red_fives == (0, 0, 0)
    assert not rules_for_go_type(0x04).open_tanyao
    assert rules_for_go_type(553).kiriage and not rules_for_go_type(169).kiriage


@needs_wins
def test_the_check_can_fail():
    # a real suuankou tanki ron: 32,000 on Tenhou; with double yakuman on it would be 64,000
    rec = next(r for r in _records() if r.get("yakuman") == "41")
    assert check_win(rec).agrees
    win = decode_win(rec)
    doubled = score_hand(win.hand, win.ctx, win.rules.with_options(double_yakuman=True))
    assert doubled.points == 64000 != win.points


def test_three_player_refused():
    with pytest.raises(InvalidNotation):
        decode_win({"go_type": 0x10 | 9})
