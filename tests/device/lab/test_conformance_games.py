"""``jantaku-lab conformance games``: real Tenhou games replayed as a camera sees them, compared hand by hand."""

from __future__ import annotations

import json

import pytest

from device.lab.cli import main
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


def test_bad_path_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "games", "/no/such/file.xml"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.count("\n") == 1
