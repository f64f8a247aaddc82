"""Declared results: a hand's end (or a riichi) as the players state it when the discards are not on record."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError, IllegalAction
from engine.game.events import (
    Abort,
    Chombo,
    DeclaredAbort,
    DeclaredDraw,
    DeclaredRiichi,
    DeclaredWin,
    Draw,
    Event,
    HandStart,
    event_from_dict,
)
from engine.game.record import game_from_json, game_to_json, snapshot
from engine.game.results import Outcome
from engine.game.state import Game
from engine.rules import preset
from engine.tiles import Tile, parse_tiles

T = Tile.parse
RON = DeclaredWin(1, 0, "234m567p23488s678s", T("8s"), ("riichi",))  # riichi pinfu tanyao, 3 han 30 fu
TSUMO = DeclaredWin(0, None, "234m567p23488s678s", T("8s"))  # dealer menzen tsumo pinfu tanyao, 3 han 20 fu


def play(events: list[Event], rules: str = "standard") -> Game:
    """Apply the events (a hand start before each hand), checking the invariants after every one."""
    g = Game(preset(rules), ("Ann", "Bo", "Cy", "Di"))
    for e in events:
        if g.hand is None and not isinstance(e, HandStart):
            g.apply(HandStart())
            g.validate()
        g.apply(e)
        g.validate()
    return g


@pytest.mark.parametrize(
    ("events", "scores", "honba", "sticks", "round_name", "outcome"),
    [
        ([RON], [21100, 28900, 25000, 25000], 0, 0, "East 2", Outcome.RON),  # 3900, plus the stick
        ([TSUMO], [25000 + 3900, 23700, 23700, 23700], 1, 0, "East 1", Outcome.TSUMO),  # 1300 all, dealer repeats
        ([DeclaredRiichi(2), TSUMO], [25000 + 3900 + 1000, 23700, 22700, 23700], 1, 0, "East 1", Outcome.TSUMO),
        # the dealer noten: the deal passes and the honba reset (001 Renchan), nagashi mangan or not
        (
            [DeclaredDraw((False, True, False, False))],
            [24000, 28000, 24000, 24000],
            0,
            0,
            "East 2",
            Outcome.EXHAUSTIVE_DRAW,
        ),
        ([DeclaredDraw((False,) * 4, (2,))], [21000, 23000, 33000, 23000], 0, 0, "East 2", Outcome.EXHAUSTIVE_DRAW),
        (
            [DeclaredRiichi(3), DeclaredAbort(Abort.FOUR_WINDS)],
            [25000, 25000, 25000, 24000],
            1,
            1,
            "East 1",
            Outcome.ABORTIVE_DRAW,
        ),
        ([DeclaredRiichi(3), Chombo(3)], [29000, 27000, 27000, 17000], 0, 0, "East 1", Outcome.CHOMBO),  # refunded
    ],
)
def test_declared_results_settle(events, scores, honba, sticks, round_name, outcome):
    g = play(events)
    assert (g.scores, g.honba, g.sticks, g.round_name) == (scores, honba, sticks, round_name)
    assert g.history[-1].outcome is outcome


@pytest.mark.parametrize(
    ("before", "event", "rules", "rule"),
    [
        ([DeclaredRiichi(1)], DeclaredRiichi(1), "standard", "already in riichi"),
        ([DeclaredRiichi(1)], DeclaredDraw((True, False, False, False)), "standard", "in riichi is tenpai"),
        ([], DeclaredWin(1, 1, "234m567p23488s678s", T("8s")), "standard", "another player's discard"),
        ([], DeclaredWin(1, 0, "234m567p23499s567s", T("8s")), "standard", "must hold the winning tile"),
        ([], DeclaredWin(1, 0, "123m567p23488s679s", T("9s")), "standard", "not a win"),
        ([], DeclaredWin(1, 0, "234m567p23488s678s", T("8s"), ("tenpai",)), "standard", "unknown situational"),
        ([], DeclaredWin(5, 0, "234m567p23488s678s", T("8s")), "standard", "a seat is 0..3"),
        ([], DeclaredAbort(Abort.FOUR_WINDS), "tenhou_no_aborts", "no abortive draws"),
        ([], DeclaredDraw((False,) * 4, (1,)), "wrc", "no nagashi mangan"),
    ],
)
def test_refused_declarations_change_nothing(before, event, rules, rule):
    if rules == "tenhou_no_aborts":
        g = Game(preset("standard", abortive_draws=False), ("A", "B", "C", "D"))
        g.apply(HandStart())
    else:
        g = play([*before, Draw(0)], rules)
    n, before = len(g.events), json.dumps(snapshot(g))
    with pytest.raises(IllegalAction, match=rule):
        g.apply(event)
    assert len(g.events) == n and json.dumps(snapshot(g)) == before


def test_declared_events_round_trip_through_json_and_replay():
    events = [
        DeclaredRiichi(2, double=True),
        RON,
        DeclaredDraw((True, False, False, True)),
        DeclaredAbort(Abort.NINE_TERMINALS),
        DeclaredWin(3, None, "123m456p789s111z22z", T("2z"), ("haitei",), parse_tiles("1z"), parse_tiles("9m")),
    ]
    for e in events:
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
    g = play(events)
    again = game_from_json(json.loads(json.dumps(game_to_json(g))))
    assert again.events == g.events and again.scores == g.scores and again.history == g.history
    assert g.undo().scores == play(events[:-1]).scores


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "declared_draw", "tenpai": [True, False]}, "four true/false"),
        ({"type": "declared_draw", "tenpai": [True, False, False, "yes"]}, "four true/false"),
        ({"type": "declared_riichi", "seat": True}, "seat 0..3"),
        ({"type": "declared_riichi", "seat": 1, "double": "no"}, "true or false"),
        ({"type": "declared_abort", "reason": "bored"}, "one of nine_terminals"),
        ({"type": "declared_win", "seat": 0, "discarder": None, "hand": "", "win_tile": "1m"}, "hand is required"),
        ({"type": "declared_win", "seat": 0, "hand": "123m", "win_tile": "1m", "flags": ["x"]}, "unknown situational"),
        ({"type": "declared_win", "seat": 0, "hand": "123m", "win_tile": "1m", "colour": 1}, "unknown field"),
    ],
)
def test_bad_declared_dicts_are_refused(data, message):
    with pytest.raises(EngineError, match=message):
        event_from_dict(data)
