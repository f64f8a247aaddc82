"""Furiten: the verdict on a hand's waits (a table), then whole situations played through the game."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.game.furiten import FuritenKind, judge
from engine.game.record import game_from_json, game_to_json
from engine.game.results import Outcome
from engine.game.shape import kind_counts
from engine.tiles import parse_tiles
from tests.engine.game.scenario import deal, play

N, D, T, R = FuritenKind.NONE, FuritenKind.DISCARD, FuritenKind.TEMPORARY, FuritenKind.RIICHI


@pytest.mark.parametrize(
    ("hand", "pond", "passed", "since_riichi", "kind"),
    [
        ("123456789m1122p", "", "", "", N),  # shanpon 1p/2p, nothing seen
        ("123456789m1122p", "2p", "", "", D),  # one wait in the own pond blocks both
        ("123456789m1122p", "3p", "", "", N),  # a neighbour of a wait is not a wait
        ("123456789m1122p", "", "1p", "", T),  # passed since own turn
        ("123456789m1122p", "", "", "2p", R),  # passed after riichi
        ("123456789m1122p", "2p", "1p", "1p", D),  # discard furiten is reported first
        ("123456789m23p55s", "", "1p", "", T),  # ryanmen: the low end passed
        ("123456789m23p55s", "", "4p", "", T),  # ... the high end passed
        ("123456789m23p55s", "4p", "", "", D),  # the other end of the ryanmen discarded
        ("123456789m23p55s", "", "", "1p", R),
        ("123456789m23p55s", "0p", "", "", N),  # 5p is not a wait of 23p
        ("123456789m24p55s", "", "3p", "", T),  # kanchan
        ("123456789m12p55s", "3p", "", "", D),  # penchan
        ("1112345678999m", "5m", "", "", D),  # nine gates waits on every man tile
        ("1112345678999m", "", "", "", N),
        ("19m19p19s1234567z", "1m", "", "", D),  # kokushi 13-sided wait
        ("19m19p19s1234566z", "7z", "", "", D),  # kokushi single wait on Red
        ("19m19p19s1234566z", "1z", "", "", N),  # ... East is not its wait
        ("1122334455667m", "7m", "", "", D),  # chiitoitsu tanki on 7m (also 1-4-7m shapes)
        ("1122334455667m", "", "", "", N),
        ("1234m", "1m", "", "", D),  # nobetan 1m/4m
        ("1234m", "", "4m", "", T),
        ("1234m", "2m", "", "", N),  # 2m is not a wait of 1234m
        ("5m", "5m", "", "", D),  # a bare tanki after four melds
        ("5m", "0m", "", "", D),  # a red five is the same kind
        ("5m", "", "", "", N),
    ],
)
def test_judge(hand: str, pond: str, passed: str, since_riichi: str, kind: FuritenKind) -> None:
    f = judge(kind_counts(parse_tiles(hand)), parse_tiles(pond), parse_tiles(passed), parse_tiles(since_riichi))
    assert f.kind is kind, f.explain()


# Seat 1 holds 123456789m23p55s (waits 1p 4p). "ron" refused names the furiten kind; "win" ends the hand.
@pytest.mark.parametrize(
    ("script", "expect"),
    [
        # no furiten: a ron on the first 1p
        ("0+9m 0-9m 1+9p 1-9p* 2+1p 2-1p 1ron", "win"),
        # discard furiten: seat 1 threw its own wait 4p; ron on 1p refused, tsumo on 1p allowed
        ("0+9m 0-9m 1+4p 1-4p 2+1p 2-1p 1ron", "discard"),
        ("0+9m 0-9m 1+4p 1-4p 2+3s 2-3s 3+3z 3-3z 0+2z 0-2z 1+1p 1tsumo", "win"),
        # temporary furiten: seat 1 let 1p pass; ron on the next 4p refused until seat 1 draws
        ("0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 3+1z 3-1z 0+4p 0-4p 1ron", "temporary"),
        # ... cleared by seat 1's own draw
        ("0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 3+1z 3-1z 0+2z 0-2z 1+9s 1-9s 2+4p 2-4p 1ron", "win"),
        # ... and a tsumo is allowed while temporarily furiten
        ("0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 3+1z 3-1z 0+2z 0-2z 1+4p 1tsumo", "win"),
        # passing a tile that is not a wait changes nothing
        ("0+9m 0-9m 1+9p 1-9p 2+3s 2-3s 3+3z 3-3z 0+1p 0-1p 1ron", "win"),
        # a pass across a call: 4p was chi'd by seat 3, seat 1 still passed it
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p56p 3-2m 0+1p 0-1p 1ron", "temporary"),
        # ... and seat 1's next draw clears it
        ("0+9m 0-9m 1+9p 1-9p 2+4p 2-4p 3chi:4p56p 3-2m 0+2z 0-2z 1+9s 1-9s 2+1p 2-1p 1ron", "win"),
        # a pass across a pon (seat 3 pons 2m, which is not a wait): no furiten
        ("0+2m 0-2m 3pon:2m22m 3-8p 0+1p 0-1p 1ron", "win"),
        # riichi furiten: after riichi, 4p passed; the own draw does not clear it
        ("0+9m 0-9m 1+9p 1r-9p 2+4p 2-4p 3+1z 3-1z 0+2z 0-2z 1+9s 1-9s* 2+1p 2-1p 1ron", "riichi"),
        # ... a tsumo is still allowed
        ("0+9m 0-9m 1+9p 1r-9p 2+4p 2-4p 3+1z 3-1z 0+2z 0-2z 1+1p 1tsumo", "win"),
        # riichi and nothing passed: ron (with ippatsu)
        ("0+9m 0-9m 1+9p 1r-9p 2+1p 2-1p 1ron", "win"),
        # a tile passed before the riichi counts only until seat 1's own draw
        ("0+4p 0-4p 1+9p 1r-9p 2+3s 2-3s 3+3z 3-3z 0+2z 0-2z 1+9s 1-9s* 2+1p 2-1p 1ron", "win"),
        # a tsumo on the very tile that was passed (temporary furiten) is allowed
        ("0+9m 0-9m 1+9p 1-9p* 2+1p 2-1p 3+1z 3-1z 0+2z 0-2z 1+1p 1tsumo", "win"),
    ],
)
def test_furiten_situations(script: str, expect: str) -> None:
    g = deal()
    if expect == "win":
        result = play(g, script)
        assert result is not None and result.outcome in (Outcome.RON, Outcome.TSUMO)  # type: ignore[union-attr]
        return
    *before, last = script.split()
    play(g, " ".join(before))
    with pytest.raises(IllegalAction, match=f"furiten: no ron .*{expect} furiten"):
        play(g, last)
    assert g.hand is not None  # the refused ron changed nothing: the hand goes on


def test_warning_ahead_when_the_hand_is_known() -> None:
    g = deal()
    play(g, "0+9m 0-9m 1+4p 1-4p")
    assert g.furiten_warnings()[1].kind is FuritenKind.DISCARD
    g = deal()
    play(g, "0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 3+1z")
    assert g.furiten(1).kind is FuritenKind.TEMPORARY  # type: ignore[union-attr]
    play(g, "3-1z 0+2z 0-2z 1+9s")
    assert g.furiten(1) is None  # 14 tiles: no waits to judge
    play(g, "1-9s")
    assert not g.furiten(1).is_furiten  # type: ignore[union-attr]


def test_unknown_hand_judged_when_shown() -> None:
    # seat 1's hand is not known: the furiten is found when the hand is shown at the ron
    g = deal(hands=("112233z6677z99s8s", "", "1199p4445z12367s", "2233m5667p88p456s"))
    play(g, "0+9m 0-9m 1+? 1-4p 2+1p 2-1p")
    assert g.furiten(1) is None
    from engine.game.events import Ron, RonClaim

    with pytest.raises(IllegalAction, match="discard furiten"):
        g.apply(Ron((RonClaim(1, parse_tiles("123456789m23p55s")),)))


def test_a_hand_entered_mid_hand_is_warned_ahead() -> None:
    from engine.game.events import ShowHand

    g = deal(hands=("112233z6677z99s8s", "", "1199p4445z12367s", "2233m5667p88p456s"))
    play(g, "0+9m 0-9m 1+? 1-4p 2+3s")
    assert g.furiten(1) is None and not g.furiten_warnings()
    with pytest.raises(IllegalAction, match="wrong number of tiles"):
        g.apply(ShowHand(1, parse_tiles("123456789m23p5s")))
    g.apply(ShowHand(1, parse_tiles("123456789m23p55s")))
    assert g.furiten_warnings()[1].kind is FuritenKind.DISCARD
    assert game_from_json(game_to_json(g)).furiten(1).kind is FuritenKind.DISCARD  # type: ignore[union-attr]
