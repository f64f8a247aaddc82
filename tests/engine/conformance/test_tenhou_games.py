"""Tenhou game logs read into events and replayed as a camera sees them (``engine.conformance.tenhou_games``)."""

from __future__ import annotations

import re

import pytest

from engine.conformance.tenhou_games import DealCheck, EndCheck, parse_log, replay, rules_for_lobby
from engine.game.events import Ron, Tsumo
from engine.rules import GameLength
from tests.shared_data import TENHOU, TENHOU_MISSING

GAMES = TENHOU / "games"
needs_data = pytest.mark.skipif(not GAMES.is_dir(), reason=TENHOU_MISSING)


def test_a_camera_sees_no_concealed_tile() -> None:
    text = (
        '<mjloggm ver="2.3"><GO type="169"/><UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/>'
        '<INIT seed="0,0,0,1,1,10" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
        'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
        'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/><T52/><D52/><U53/><E0/>'
        '<RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0" hai1="13,14"/></mjloggm>'
    )
    (game,) = parse_log(text, "inline")
    starts = [s for s in game.steps if type(s).__name__ == "HandStart"]
    assert starts[0].hands == (None, None, None, None)  # type: ignore[attr-defined]
    draws = [s for s in game.steps if type(s).__name__ == "Draw"]
    assert all(d.tile is None for d in draws)  # type: ignore[attr-defined]
    discards = [s for s in game.steps if type(s).__name__ == "Discard"]
    assert [d.tsumogiri for d in discards] == [True, False]  # type: ignore[attr-defined]
    assert isinstance(game.steps[0], DealCheck) and isinstance(game.steps[-1], EndCheck)


def test_lobby_rules() -> None:
    assert rules_for_lobby(169)[0].game_length is GameLength.HANCHAN
    assert rules_for_lobby(161)[0].game_length is GameLength.EAST
    assert rules_for_lobby(169 | 0x02)[0].red_fives == (0, 0, 0)
    assert rules_for_lobby(169 | 0x04)[0].open_tanyao is False
    assert rules_for_lobby(0x19)[1] == "three-player game"
    assert rules_for_lobby(553)[0].kiriage


@needs_data
def test_double_ron_is_one_event() -> None:
    (game,) = parse_log((GAMES / "mjx_double-ron.mjlog").read_text(), "x")
    rons = [s for s in game.steps if isinstance(s, Ron)]
    assert any(len(r.claims) == 2 for r in rons)
    assert not any(isinstance(s, Tsumo) for s in game.steps[:3])


# the last hand of a real game (East 1, a dealer's tenhou that busts seat 3), its final result as logged (whole game
# points) and as a lobby with game points to 0.1 would give it: 85,300 less 30,000 return plus 20,000 uma and 20,000
# oka is 95.3; the two tied on 8,900 rank by seat order (-11.1, -31.1); -3,100 is -53.1
LAST_HAND = "mjx_2017040900gm-00a9-0000-af5434e3.mjlog"


@needs_data
@pytest.mark.parametrize(
    ("owari", "step"),
    [
        ("853,95.0,89,-11.0,89,-31.0,-31,-53.0", 1_000),  # whole game points: the ranked lobbies
        ("853,95.3,89,-11.1,89,-31.1,-31,-53.1", 100),  # game points to 0.1: the lobby's rule, stated only here
    ],
)
def test_final_points_to_a_tenth_follow_the_logged_result(owari: str, step: int) -> None:
    text = (GAMES / LAST_HAND).read_text()
    last_hand = text[: text.index("<INIT")] + text[text.rindex("<INIT") :]
    (game,) = parse_log(re.sub(r'owari="[^"]*"', f'owari="{owari}"', last_hand), "last hand")
    assert game.rules.final_points_step == step
    report = replay(game)
    assert report.disagreements == []
    assert report.finished and report.agree == report.hands == 1
