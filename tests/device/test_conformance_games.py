"""``jantaku conformance games``: real Tenhou games replayed in camera view, compared hand by hand."""

from __future__ import annotations

import json

import pytest

from device.cli import main
from device.tenhou_logs import DealCheck, EndCheck, parse_log, rules_for_lobby
from engine.game.events import Ron, Tsumo
from engine.rules import GameLength
from tests.shared_data import TENHOU, TENHOU_MISSING

DATA = TENHOU
GAMES = DATA / "games"
SESSIONS = DATA / "sessions"
needs_data = pytest.mark.skipif(not GAMES.is_dir(), reason=TENHOU_MISSING)

# situations worth a fast check: double ron, chankan, pao, nagashi, every abortive draw, West round, kans
PICKED = [
    "mjx_double-ron.mjlog",
    "mjx_encdec-chankan-ippatsu.mjlog",
    "mjx_pao-tsumo.mjlog",
    "dnovikoff_pao.xml",
    "mjx_upd-aft-nm.mjlog",
    "mjx_upd-aft-kan4.mjlog",
    "mjx_upd-aft-reach4.mjlog",
    "mjx_encdec-four-winds-no-winner.mjlog",
    "mjx_upd-aft-ron3.mjlog",
    "mjx_upd-aft-draw-kyuusyu-kyuusyu.mjlog",
    "mjx_encdec-game-end.mjlog",
    "mjx_encdec-rinshan-fu.mjlog",
    "dnovikoff_newattr2023.xml",
    "dnovikoff_ratio.xml",
    "mjx_trans-furiten-false-pos.mjlog",
]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["conformance", "games", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


@needs_data
def test_picked_games_agree(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, *(str(GAMES / f) for f in PICKED))
    assert out["games"] == len(PICKED)
    assert out["disagreements"] == [] and out["agree"] == out["hands"] > 60
    assert code == 0


@needs_data
@pytest.mark.parametrize(
    ("path", "stops", "played_on"),
    [
        ("games/dnovikoff_bug1.xml", 0, 1),  # S4-1: the dealer, first and tenpai, played on to S4-2
        ("sessions/logs2/82093_2018-01-22_18_41_02.log", 1, 0),  # the same situation: the dealer stopped
    ],
)
def test_the_dealer_chooses_to_stop_or_play_on(
    capsys: pytest.CaptureFixture[str], path: str, stops: int, played_on: int
) -> None:
    code, out = _run(capsys, str(DATA / path))
    assert out["disagreements"] == [] and out["agree"] == out["hands"] > 0 and code == 0
    assert (out["dealer_stops"], out["dealer_played_on"]) == (stops, played_on)


@needs_data
@pytest.mark.slow
def test_all_games(capsys: pytest.CaptureFixture[str]) -> None:
    _code, out = _run(capsys, str(GAMES))
    assert out["games"] == 136
    # dnovikoff_bug1.xml S4-1: the dealer, first and tenpai in South 4, played on; in a 2018 session log the same
    # situation ended the game: tenpai-yame is the dealer's choice, and the replay follows the log's
    assert out["disagreements"] == []
    assert out["agree"] == out["hands"] == 902


@needs_data
@pytest.mark.slow
def test_all_sessions(capsys: pytest.CaptureFixture[str]) -> None:
    _code, out = _run(capsys, str(SESSIONS))
    assert out["agree"] == out["hands"] and out["hands"] > 1900 and out["disagreements"] == []
    assert out["furiten_agree"] == out["furiten_checks"] > 100


def test_camera_view_hides_concealed_tiles() -> None:
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


def test_bad_path_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "games", "/no/such/file.xml"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.count("\n") == 1
