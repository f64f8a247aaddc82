"""The end of the game per preset: what is automatic, and where the dealer chooses (agari-yame, tenpai-yame).

At a real table the dealer who wins (アガリ止め) or is tenpai at an exhaustive draw (聴牌止め) in the last hand
while first may end the game or play on. Where the rules allow it (``agari_yame``: Tenhou) the engine waits
between hands: ``DealerStops`` ends the game with the final results, the next ``HandStart`` means the dealer
played on. WRC (000, "No agari-yame") and 001 (South 4 goes on while the dealer repeats) never offer it.
Everything else stays automatic: South 4 over, busting, the extension's sudden death.
"""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction
from engine.game.events import DealerStops, Discard, Draw, ExhaustiveDraw, HandStart, Tsumo, event_from_dict
from engine.game.record import game_from_json, game_to_json, snapshot
from engine.game.state import Game
from engine.game.table import Position
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from tests.engine.game.scenario import deal, play

CHOICE = "dealer's choice"  # the dealer may stop or play on
PLAYS_ON = "plays on"  # the next hand follows; nobody may stop
OVER = "over"  # the game ended by itself

DEALER_HAND = "123456789m2345p"  # seat 0 (the dealer): tenpai on 2p and 5p
TSUMO_HAND = "123456789m23455p"  # seat 0 or 1 wins on 4p: menzen tsumo, pinfu, ittsuu (2,600 all / 1,300-2,600)


def _game(rules: str, scores: tuple[int, int, int, int], round_: int = 7, **options: object) -> Game:
    """South 4 (or ``round_``), no honba, seat 0 deals, every concealed hand unknown (as a camera sees it)."""
    return deal(rules, hands=("", "", "", ""), start=Position(round_, 0, 0, 0, scores), **options)


GO_AROUND = "0+? 0-9s 1+? 1-9s 2+? 2-1z 3+? 3-1z"  # a first go-around, so no win is tenhou or chiihou


def _dealer_tsumo(g: Game) -> None:
    play(g, GO_AROUND + " 0+?")
    g.apply(Tsumo(0, parse_tiles(TSUMO_HAND), Tile.parse("4p")))


def _other_tsumo(g: Game) -> None:
    play(g, GO_AROUND + " 0+? 0-9p 1+?")
    g.apply(Tsumo(1, parse_tiles(TSUMO_HAND), Tile.parse("4p")))


def _discards(shown: str) -> list[Tile]:
    """Tiles for the other discards: no fives (red fives cap the plain ones), none that the shown hand or the
    dora indicator 2z would push past four, kinds in turn so no first go-around repeats a wind."""
    left = [4] * 34
    for t in (*parse_tiles(shown), Tile.parse("2z")):
        left[t.kind] -= 1
    out = []
    for _ in range(4):
        for k in range(34):
            if k not in (4, 13, 22) and left[k] > 0:
                out.append(Tile(k))
                left[k] -= 1
    return out


def _dealer_tenpai_draw(g: Game, dealer_tenpai: bool = True) -> None:
    """The wall runs out (70 draws, each discarded at once); the dealer alone shows a tenpai hand, or nobody."""
    tiles = iter(_discards(DEALER_HAND))
    for i in range(70):
        seat = i % 4
        g.apply(Draw(seat))
        g.apply(Discard(seat, next(tiles), tsumogiri=True))
    hand = parse_tiles(DEALER_HAND) if dealer_tenpai else None
    g.apply(ExhaustiveDraw((hand, None, None, None)))


HOW = {"dealer wins": _dealer_tsumo, "dealer tenpai": _dealer_tenpai_draw, "other wins": _other_tsumo}

FIRST = (40_000, 20_000, 20_000, 20_000)
FIRST_WRC = (45_000, 25_000, 25_000, 25_000)
CASES = [
    # (rules, options, start scores, round, what happens, expected)
    ("tenhou", {}, FIRST, 7, "dealer wins", CHOICE),  # agari-yame
    ("tenhou", {}, FIRST, 7, "dealer tenpai", CHOICE),  # tenpai-yame
    ("standard", {}, FIRST, 7, "dealer wins", PLAYS_ON),  # 001: South 4 goes on while the dealer repeats
    ("standard", {}, FIRST, 7, "dealer tenpai", PLAYS_ON),
    ("standard", {"agari_yame": True}, FIRST, 7, "dealer wins", CHOICE),  # a table that plays agari-yame
    ("standard", {"agari_yame": True}, FIRST, 7, "dealer tenpai", CHOICE),
    ("wrc", {}, FIRST_WRC, 7, "dealer wins", PLAYS_ON),  # 000: "No agari-yame"
    ("wrc", {}, FIRST_WRC, 7, "dealer tenpai", PLAYS_ON),
    ("tenhou", {}, (20_000, 40_000, 20_000, 20_000), 7, "dealer wins", PLAYS_ON),  # not first after the win
    ("tenhou", {}, (22_000, 26_000, 26_000, 26_000), 7, "dealer wins", PLAYS_ON),  # first, under 30,000
    ("tenhou", {}, FIRST, 6, "dealer wins", PLAYS_ON),  # South 3 is not the last hand
    ("tenhou", {}, FIRST, 7, "other wins", OVER),  # South 4 over
    ("standard", {}, FIRST, 7, "other wins", OVER),
    ("wrc", {}, FIRST_WRC, 7, "other wins", OVER),
    ("tenhou", {}, (22_000, 26_000, 26_000, 26_000), 8, "dealer wins", PLAYS_ON),  # West 1, nobody at 30,000
    ("tenhou", {}, (29_000, 27_000, 22_000, 22_000), 8, "dealer wins", OVER),  # West 1: sudden death
    ("tenhou", {}, (40_000, 30_000, 1_000, 29_000), 7, "dealer wins", OVER),  # busting ends it at once
    ("standard", {}, (40_000, 30_000, 1_000, 29_000), 7, "dealer wins", OVER),
    ("standard", {"agari_yame": True}, (40_000, 30_000, 1_000, 29_000), 7, "dealer wins", OVER),
    ("wrc", {}, (40_000, 30_000, 1_000, 29_000), 7, "dealer wins", PLAYS_ON),  # no busting, no agari-yame
]


def _label(case: tuple) -> str:
    rules, options, scores, round_, how, expected = case
    opts = "".join(f",{k}={v}" for k, v in options.items())
    return f"{rules}{opts}-r{round_}-{scores[0]}-{how}-{expected}"


@pytest.mark.parametrize(("rules", "options", "scores", "round_", "how", "expected"), CASES, ids=map(_label, CASES))
def test_game_end_table(
    rules: str, options: dict, scores: tuple[int, int, int, int], round_: int, how: str, expected: str
) -> None:
    g = _game(rules, scores, round_, **options)
    HOW[how](g)
    g.validate()
    dealer_repeats = g.history[-1].dealer_repeats
    assert g.over is (expected == OVER)
    assert g.dealer_may_stop is (expected == CHOICE)
    assert snapshot(g)["dealer_may_stop"] is (expected == CHOICE)
    assert (g.final_results() is not None) is (expected == OVER)
    if expected == OVER:
        with pytest.raises(IllegalAction, match="the game is over"):
            g.apply(DealerStops())
        return
    if expected == PLAYS_ON:
        with pytest.raises(IllegalAction, match=r"no agari-yame|only after winning or being tenpai"):
            g.apply(DealerStops())
        assert not g.over
    # playing on: the next deal follows (the dealer repeats with one more honba, or the deal passes)
    stop_point = game_to_json(g)
    g.apply(HandStart(round=round_ + (0 if dealer_repeats else 1), honba=1 if dealer_repeats else 0))
    assert not g.dealer_may_stop and not g.over
    with pytest.raises(IllegalAction, match="a hand is in progress"):
        g.apply(DealerStops())
    if expected == CHOICE:
        # the other branch: the dealer stops there
        g = game_from_json(stop_point)
        assert g.dealer_may_stop
        g.apply(DealerStops(dealer=0))
        g.validate()
        assert g.over and not g.dealer_may_stop
        finals = g.final_results()
        assert finals is not None and min(finals, key=lambda r: r.rank).seat == 0


def test_stopping_gives_the_final_results() -> None:
    g = _game("tenhou", FIRST)
    _dealer_tsumo(g)
    assert g.scores == [47_800, 17_400, 17_400, 17_400] and (g.round, g.honba, g.dealer) == (7, 1, 0)
    g.apply(DealerStops())
    finals = sorted(g.final_results() or (), key=lambda r: r.seat)
    # Tenhou: 17,400 rounds to 17, less 30 returned, uma 20/10; ties ranked by seat; first takes the rest
    assert [r.rank for r in finals] == [1, 2, 3, 4]
    assert [r.points for r in finals] == [59.0, -3.0, -23.0, -33.0]


def test_tenpai_yame_final_results_and_sticks() -> None:
    g = _game("tenhou", FIRST)
    _dealer_tenpai_draw(g)
    assert g.scores == [43_000, 19_000, 19_000, 19_000] and g.honba == 1
    g.apply(DealerStops(dealer=0))
    assert [r.points for r in sorted(g.final_results() or (), key=lambda r: r.seat)] == [53.0, -1.0, -21.0, -31.0]


def test_dealer_noten_in_the_last_hand_ends_the_game() -> None:
    g = _game("tenhou", FIRST)
    _dealer_tenpai_draw(g, dealer_tenpai=False)
    assert g.over and not g.dealer_may_stop


def test_while_the_dealer_chooses() -> None:
    g = _game("tenhou", FIRST)
    _dealer_tsumo(g)
    with pytest.raises(IllegalAction, match=r"no hand in progress.*or the dealer stopping the game"):
        g.apply(Draw(0))
    with pytest.raises(IllegalAction, match="only the dealer may stop the game") as info:
        g.apply(DealerStops(dealer=2))
    assert "DealerStops" in str(info.value) and "seat 0, not 2" in str(info.value)
    with pytest.raises(IllegalAction, match="the deal must follow the game"):
        g.apply(HandStart(honba=0))  # the dealer repeats: one honba more
    assert g.dealer_may_stop and not g.over  # refused events change nothing
    # the stop is an event like any other: JSON, replay and undo
    g.apply(DealerStops(dealer=0))
    data = json.loads(json.dumps(game_to_json(g)))
    assert data["events"][-1] == {"type": "dealer_stops", "dealer": 0}
    again = game_from_json(data)
    assert again.over and again.final_results() == g.final_results()
    back = g.undo()
    assert back.dealer_may_stop and not back.over and back.final_results() is None


@pytest.mark.parametrize("event", [DealerStops(), DealerStops(dealer=3)])
def test_event_round_trip(event: DealerStops) -> None:
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_preset_options() -> None:
    assert preset("tenhou").agari_yame and not preset("wrc").agari_yame and not preset("standard").agari_yame
