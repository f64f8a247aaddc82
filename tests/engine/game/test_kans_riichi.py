"""Riichi (ippatsu, double riichi), kans (rinshan, chankan, four kans, kan dora), haitei/houtei, chombo."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction
from engine.game.events import Abort, AbortiveDraw, Chombo, Ron, RonClaim, Tsumo
from engine.game.results import Outcome
from engine.game.state import Game
from engine.tiles import Tile, parse_tiles
from tests.engine.game.scenario import HANDS, deal, play


def _yaku(result: object) -> set[str]:
    return {y.name for w in result.wins for y in w.result.yaku}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("script", "has", "lacks"),
    [
        # riichi on seat 1's first discard, nothing called before: double riichi, and ippatsu on the next 1p
        ("0+9m 0-9m 1+9p 1r-9p 2+1p 2-1p 1ron", {"Double Riichi", "Ippatsu"}, {"Riichi"}),
        # riichi on the second discard: riichi and ippatsu
        (
            "0+9m 0-9m 1+9p 1-9p* 2+9s 2-9s 3+1z 3-1z 0+2z 0-2z 1+7z 1r-7z 2+1p 2-1p 1ron",
            {"Riichi", "Ippatsu"},
            {"Double Riichi"},
        ),
        # a call in between breaks ippatsu
        (
            "0+9m 0-9m 1+9p 1-9p* 2+9s 2-9s 3+1z 3-1z 0+2z 0-2z 1+7z 1r-7z 2+2m 2-2m 3pon:2m22m 3-8p 0+1p 0-1p 1ron",
            {"Riichi"},
            {"Ippatsu"},
        ),
        # the riichi player's own next discard ends the ippatsu window
        (
            "0+9m 0-9m 1+9p 1-9p* 2+9s 2-9s 3+1z 3-1z 0+2z 0-2z 1+7z 1r-7z 2+3s 2-3s 3+3z 3-3z 0+4z 0-4z 1+8s 1-8s* "
            "2+1p 2-1p 1ron",
            {"Riichi"},
            {"Ippatsu"},
        ),
        # ippatsu by tsumo
        (
            "0+9m 0-9m 1+9p 1-9p* 2+9s 2-9s 3+1z 3-1z 0+2z 0-2z 1+7z 1r-7z 2+3s 2-3s 3+3z 3-3z 0+4z 0-4z 1+1p 1tsumo",
            {"Riichi", "Ippatsu", "Menzen Tsumo"},
            set(),
        ),
    ],
)
def test_riichi_yaku(script: str, has: set[str], lacks: set[str]) -> None:
    r = play(deal(), script)
    assert has <= _yaku(r) and not (lacks & _yaku(r)), _yaku(r)


CHANKAN_HANDS = (HANDS[0], HANDS[1], HANDS[2], "2233m5667p44p456s")
CHANKAN = "0+9m 0-9m 1+9p 1-9p* 2+4p 2-4p 3pon:4p44p 3-2m 0+2z 0-2z 1+9s 1-9s* 2+3s 2-3s 3+4p 3kakan:4p"


def test_chankan_robs_an_added_kan() -> None:
    g = deal(hands=CHANKAN_HANDS)
    r = play(g, CHANKAN + " 1ron")
    assert "Chankan" in _yaku(r) and r.deltas == (0, 7700, 0, -7700)  # type: ignore[union-attr]


def test_passing_a_chankan_is_furiten_until_the_next_draw() -> None:
    g = deal(hands=CHANKAN_HANDS)
    play(g, CHANKAN + " 3+7z 3-7z 0+1p 0-1p")
    with pytest.raises(IllegalAction, match="temporary furiten"):
        play(g, "1ron")


@pytest.mark.parametrize("rules", ["standard", "wrc", "tenhou"])
def test_a_closed_kan_is_not_robbed_except_for_thirteen_orphans(rules: str) -> None:
    g = deal(rules, hands=(HANDS[0], HANDS[1], HANDS[2], ""))
    play(g, "0+9m 0-9m 1+9p 1-9p* 2+9s 2-9s 3+? 3ankan:4444p")
    claim = Ron((RonClaim(1, parse_tiles("123456789m23p55s")),))
    rule = "only be robbed for thirteen orphans" if rules == "tenhou" else "on a discard"
    with pytest.raises(IllegalAction, match=rule):
        g.apply(claim)


FOUR_QUADS = (HANDS[0], "1111m2222m3333m5p", HANDS[2], "")
FOUR_QUADS_SCRIPT = (
    "0+9m 0-9m 1+4p 1ankan:1111m flip:1s 1+4p 1ankan:2222m flip:2s 1+4p 1ankan:3333m flip:3s 1+9s 1-9s "
    "2+4p 2-4p 1kan:4p444p 1+5p"
)


@pytest.mark.parametrize(
    ("rules", "deltas"), [("wrc", (0, 32000, -32000, 0)), ("standard", (-16000, 32000, -8000, -8000))]
)
def test_four_quads_pao_only_under_wrc(rules: str, deltas: tuple[int, ...]) -> None:
    g = deal(rules, hands=FOUR_QUADS)
    r = play(g, FOUR_QUADS_SCRIPT + " 1tsumo")
    assert _yaku(r) == {"Suu Kantsu"}  # a yakuman hand lists its yakuman only
    assert r.deltas == deltas  # type: ignore[union-attr]


def test_rinshan_after_a_closed_kan() -> None:
    g = deal("standard", hands=(HANDS[0], "1111m456m789m23p5s", HANDS[2], ""))
    r = play(g, "0+9m 0-9m 1+5s 1ankan:1111m 1+4p 1tsumo")
    assert {"Rinshan Kaihou", "Menzen Tsumo"} <= _yaku(r)


def test_kan_dora_counts_once_flipped() -> None:
    g = deal("standard", hands=FOUR_QUADS)
    play(g, "0+9m 0-9m 1+4p 1ankan:1111m")
    assert g.dora_indicators == (Tile.parse("2z"),)
    play(g, "flip:4p")
    assert g.dora == (Tile.parse("3z"), Tile.parse("5p"))
    with pytest.raises(IllegalAction, match="only after a kan"):
        play(g, "flip:4s")


@pytest.mark.parametrize(("rules", "abort"), [("standard", True), ("wrc", False)])
def test_four_kans_by_two_players(rules: str, abort: bool) -> None:
    g = deal(rules, hands=("", "", "", ""))
    play(g, "0+? 0ankan:1111m 0+? 0ankan:2222m 0+? 0-9s 1+? 1ankan:3333m 1+? 1ankan:4444m 1+? 1-9s")
    if abort:
        with pytest.raises(IllegalAction, match="four_kans"):
            play(g, "2+?")
        assert g.apply(AbortiveDraw(Abort.FOUR_KANS)).outcome is Outcome.ABORTIVE_DRAW  # type: ignore[union-attr]
    else:
        play(g, "2+?")
        with pytest.raises(IllegalAction, match="at most four kans"):
            play(g, "2ankan:5555m")


def _to_the_last_draw(g: Game) -> None:
    """69 draws and discards of simples (seat 1 makes the 70th and last draw)."""
    simples = [f"{n}{s}" for s in "mps" for n in "2345678"]
    tokens = []
    for i in range(69):
        tokens += [f"{i % 4}+?", f"{i % 4}-{simples[i % len(simples)]}"]
    play(g, " ".join(tokens))


def test_haitei_and_houtei() -> None:
    seven_pairs = parse_tiles("1199m1199p11s99s1z")
    g = deal("standard", hands=("", "", "", ""))
    _to_the_last_draw(g)
    play(g, "1+1z")
    assert g.live_wall == 0
    r = g.apply(Tsumo(1, (*seven_pairs, Tile.parse("1z")), Tile.parse("1z")))
    assert "Haitei Raoyue" in _yaku(r)
    g = deal("standard", hands=("", "", "", ""))
    _to_the_last_draw(g)
    play(g, "1+? 1-1z")
    with pytest.raises(IllegalAction, match="houtei"):
        play(g, "2pon:1z11z")
    r = g.apply(Ron((RonClaim(2, seven_pairs),)))
    assert "Houtei Raoyui" in _yaku(r)
    json.dumps(r.to_dict())  # type: ignore[union-attr]  # results are JSON-ready


def test_chombo_pays_a_mangan_and_the_hand_is_replayed() -> None:
    g = deal("standard")
    play(g, "0+9m 0-9m 1+9p 1r-9p 2+3s")
    r = g.apply(Chombo(2, "false ron"))
    assert r.deltas == (4000, 3000, -8000, 2000)  # type: ignore[union-attr]  # seat 1's riichi stick comes back
    assert (g.round, g.honba, g.dealer, g.sticks) == (0, 0, 0, 0)
    g.validate()
