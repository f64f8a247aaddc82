"""The game state: refused events name the event and the rule, JSON, undo, snapshots, the end of the game."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError, IllegalAction
from engine.game.events import Discard, Draw, HandStart, event_from_dict
from engine.game.record import game_from_json, game_to_json, snapshot
from engine.game.state import Game
from engine.game.table import Position
from engine.rules import preset
from engine.tiles import Tile
from tests.engine.game.scenario import deal, play


@pytest.mark.parametrize(
    ("script", "rule"),
    [
        ("0+9m 1+9p", "turn order"),  # seat 0 must discard first
        ("0+9m 0-9m 2+1p", "turn order"),  # seat 1 draws next
        ("0+9m 0-5p", "must be in the hand"),
        ("0+9m 0-6z*", "tsumogiri discards the drawn tile"),
        ("0+9m 0-9m 1+9p 1r-9p 2+1p 2-1p 3+1z 3-1z 0+2z 0-2z 1+9s 1-2m", "hand is locked"),
        ("0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 3ron", "not a win"),  # seat 3's hand is not complete with 1p
        ("0+9m 0tsumo", "not a win"),
        ("0+5z 0-5z 1+9p 1-9p 2+5z 2-5z 3+5z 3-5z 0+5z", "four of each tile"),
        ("0+9m 0-9m 1+9p 1-9p 2+1p 2-1p 1kakan:1p", "in one's own turn"),
        ("0+9m 0ankan:9999m", "the four tiles must be in the hand"),
        ("0+9m 0-9m flip:3m", "only after a kan"),
    ],
)
def test_refused_events_name_event_and_rule(script: str, rule: str) -> None:
    g = deal()
    *before, last = script.split()
    play(g, " ".join(before))
    n = len(g.events)
    before = json.dumps(snapshot(g))
    with pytest.raises(IllegalAction, match=rule) as info:
        play(g, last)
    assert info.value.event is not None and info.value.rule
    assert type(info.value.event).__name__ in str(info.value)  # the message starts with the event
    assert len(g.events) == n and json.dumps(snapshot(g)) == before  # nothing changed


def test_no_hand_and_game_over() -> None:
    g = Game(preset("standard"))
    with pytest.raises(IllegalAction, match="no hand in progress"):
        g.apply(Draw(0))
    g.apply(HandStart())
    with pytest.raises(IllegalAction, match="a hand is in progress"):
        g.apply(HandStart())


def test_hand_start_must_agree_with_the_game() -> None:
    g = Game(preset("standard"))
    with pytest.raises(IllegalAction, match=r"the deal must follow the game.*honba is 0"):
        g.apply(HandStart(honba=1))
    g.apply(HandStart(round=0, honba=0, sticks=0, dealer=0))


def test_json_roundtrip_and_undo() -> None:
    g = deal()
    play(g, "0+9m 0-9m 1+9p 1r-9p 2+1p")
    data = json.loads(json.dumps(game_to_json(g)))
    again = game_from_json(data)
    assert again.events == g.events and again.scores == g.scores and again.sticks == 1
    back = g.undo()
    assert back.events == g.events[:-1] and back.sticks == 0  # the riichi stick is paid when the discard passes
    assert back.to_act == 2
    with pytest.raises(EngineError, match="nothing to undo"):
        Game(preset("wrc")).undo()
    with pytest.raises(EngineError, match="unknown event type"):
        event_from_dict({"type": "teleport"})
    with pytest.raises(EngineError):
        event_from_dict({"type": "discard", "seat": 0, "tile": "9x"})


@pytest.mark.parametrize("count", [1, 2, 3])
def test_undo_takes_back_count_events_as_that_many_undos_do(count: int) -> None:
    g = deal()
    play(g, "0+9m 0-9m 1+9p 1r-9p 2+1p")
    one_by_one = g
    for _ in range(count):
        one_by_one = one_by_one.undo()
    back = g.undo(count)
    assert back.events == one_by_one.events == g.events[:-count]
    assert (back.scores, back.sticks, back.to_act) == (one_by_one.scores, one_by_one.sticks, one_by_one.to_act)


@pytest.mark.parametrize(("count", "message"), [(0, "one event or more"), (99, "events to undo")])
def test_an_undo_of_no_events_or_more_than_there_are_is_refused(count: int, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        deal().undo(count)


def test_snapshot_for_a_display() -> None:
    g = deal()
    play(g, "0+9m 0-9m 1+4p 1-4p 2+3s")
    snap = json.loads(json.dumps(snapshot(g)))
    assert snap["round_name"] == "East 1" and snap["to_act"] == 2
    assert snap["players"][1]["pond"][0]["tile"] == "4p"
    assert snap["players"][1]["furiten"].startswith("discard furiten")
    assert snap["dora_indicators"] == "2z" and snap["live_wall"] == 67


HANDS_S4 = ("112233z6677z99s8s", "123456789m23p55s", "", "")
S4_SCRIPT = "3+? 3-1s 0+9m 0-9m 1+9p 1-9p 2+? 2-1p 1ron"


def test_final_results_standard_rounding_and_oka() -> None:
    g = deal("standard", hands=HANDS_S4, start=Position(7, 0, 0, 3, (21100, 25000, 28900, 25000)))
    play(g, S4_SCRIPT)
    assert g.over
    finals = {f.seat: f for f in g.final_results() or ()}
    # seat 1 first (28,900 + oka 20,000 + uma 15,000), seats 2 and 3 tie at 25,000: seat order decides
    assert [finals[s].rank for s in range(4)] == [4, 1, 2, 3]
    assert [finals[s].points for s in range(4)] == [-24.0, 34.0, 0.0, -10.0]


def test_final_results_wrc_split_tied_uma() -> None:
    g = deal("wrc", hands=HANDS_S4, start=Position(7, 0, 0, 3, (26100, 30000, 33900, 30000)))
    play(g, S4_SCRIPT)
    assert g.over
    pts = {f.seat: f.points for f in g.final_results() or ()}
    assert pts == {0: -18.9, 1: 18.9, 2: 0.0, 3: 0.0}  # 2nd and 3rd share +5 and -5


@pytest.mark.parametrize(("rules", "may_stop"), [("tenhou", True), ("standard", False)])
def test_agari_yame(rules: str, may_stop: bool) -> None:
    # South 4, seat 0 deals and is first: after a win the dealer may end the game only where the rules have
    # agari-yame (the whole table of game ends is in test_game_end.py)
    hands = ("", "", "", "")
    g = deal(rules, hands=hands, start=Position(7, 0, 0, 0, (40000, 20000, 20000, 20000)))
    play(g, "0+?")
    g.apply(_tsumo_any(g))
    assert not g.over and g.dealer_may_stop is may_stop


def _tsumo_any(g: Game):
    from engine.game.events import Tsumo
    from engine.tiles import parse_tiles

    hand = parse_tiles("123456789m23455p")  # riichi-less tsumo: menzen tsumo + pinfu? (1-4p wait done on 4p)
    return Tsumo(0, hand, Tile.parse("4p"))


def test_discard_after_call_has_no_tsumogiri() -> None:
    g = deal()
    play(g, "0+2m 0-2m 3pon:2m22m")
    with pytest.raises(IllegalAction, match="no tile was drawn"):
        g.apply(Discard(3, Tile.parse("8p"), tsumogiri=True))


@pytest.mark.parametrize(("rules", "over"), [("tenhou", False), ("standard", True), ("wrc", True)])
def test_extension_when_nobody_reached_the_return_points(rules: str, over: bool) -> None:
    # South 4 ends with everyone below 30,000: Tenhou plays on into the West round
    g = deal(rules, hands=HANDS_S4, start=Position(7, 0, 0, 3, (25000, 25000, 25000, 25000)))
    play(g, S4_SCRIPT)
    assert g.over is over
    if not over:
        assert g.round_name == "West 1" and g.dealer == 0
