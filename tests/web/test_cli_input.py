"""``jantaku score`` and ``waits`` refuse what the site refuses, with the site's own checks; and the command behaves
as a shell tool: a closed pipe and an early Ctrl-C end it quietly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.cli import main

ROOT = Path(__file__).resolve().parents[2]
HAND = "234567m666p35s88s4s"  # riichi-less tanyao-less: 1 han 40 fu for the dealer by ron (2,000)
FOUR_PLAIN_5P = "123m678s11z222z ankan:5555p"  # the 001 set (standard) has two red 5p: two plain ones only


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "body", "message"),
    [
        # honba and sticks: the site's bounds (0..100), ASCII digits only
        (["--honba", "100000000000000000000"], {"honba": 10**20}, "0..100"),
        (["--honba", "101"], {"honba": 101}, "0..100"),
        (["--sticks", "101"], {"sticks": 101}, "0..100"),
        (["--honba", "-1"], {"honba": -1}, "0..100"),
        (["--honba", "٣"], None, "ASCII digits"),  # Arabic-Indic three: int() reads it as 3
        (["--sticks", "\uff13"], None, "ASCII digits"),  # a full-width three
        # a set has four of each five: at most 4 red, and none beyond what is there
        (["--rule", "red_fives=[9,9,9]"], {"rules": {"preset": "standard", "red_fives": [9, 9, 9]}}, "0..4 each"),
        (["--rule", "red_fives=[0,-1,0]"], {"rules": {"preset": "standard", "red_fives": [0, -1, 0]}}, "0..4 each"),
        # one tile per indicator: 10m is no tile (it read as 1m and a red 5m)
        (["--dora", "10m"], {"dora": ["10m"]}, "'10m' is not one tile"),
    ],
)
def test_score_refuses_what_the_site_refuses(capsys, client, argv, body, message):
    code, out, err = run(capsys, "score", HAND, *argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and message in err and err.startswith("jantaku score: "), err
    if body is not None:  # the same request to the site: the same check refuses it
        r = client.post("/api/score", json={"hand": HAND, **body})
        assert r.status_code == 400 and message in r.json["error"], r.json


@pytest.mark.parametrize(
    ("hand", "rules", "refused"),
    [
        (FOUR_PLAIN_5P, "standard", "4 plain 5p but the standard rules' set has 2"),  # 001: two red 5p
        (FOUR_PLAIN_5P, "tenhou", "4 plain 5p but the tenhou rules' set has 3"),  # one red 5p
        (FOUR_PLAIN_5P, "wrc", ""),  # 000: no red fives, four plain 5p
        ("123m678s11z222z ankan:0055p", "standard", ""),  # two red, two plain
        ("123m678s11z222z ankan:5550p", "standard", ""),  # three plain: taken as typed (see check_tiles)
        ("123m678s11z222z ankan:5555m", "standard", "4 plain 5m but the standard rules' set has 3"),
    ],
)
def test_plain_fives_beyond_the_set_are_refused(capsys, client, hand, rules, refused):
    code, out, err = run(capsys, "score", hand, "--win", "1z", "--tsumo", "--rules", rules)
    r = client.post("/api/score", json={"hand": hand, "win_tile": "1z", "tsumo": True, "rules": rules})
    if refused:
        assert code == 2 and out == "" and refused in err and len(err.splitlines()) == 1, err
        assert r.status_code == 400 and refused in r.json["error"]
    else:
        assert code == 0, err
        assert r.status_code == 200 and r.json["is_win"]


@pytest.mark.parametrize(
    ("rules", "hands", "status"),
    [
        ("standard", ["123m5555p678s11z2z", None, None, None], 400),  # four plain 5p: 001's set has two
        ("standard", ["123m0055p678s11z2z", None, None, None], 200),
        ("wrc", ["123m5555p678s11z2z", None, None, None], 200),
    ],
)
def test_a_hand_start_with_plain_fives_beyond_the_set(player, service, rules, hands, status):
    assert player.post("/api/game/new", json={"rules": rules}).status_code == 200
    before = service.export_game()
    r = player.post("/api/game/event", json={"type": "hand_start", "dora_indicator": "1z", "hands": hands})
    assert r.status_code == status, r.json
    if status == 400:
        assert "4 plain 5p" in r.json["error"]
        assert service.export_game() == before


def test_double_and_open_riichi_score_as_the_site_does(capsys, client):
    # 001: double riichi and open riichi combine (+4 han), where the rules play open riichi
    hand = "234m567p23488s678s"
    code, out, err = run(
        capsys,
        "score",
        hand,
        "--win",
        "8s",
        "--double-riichi",
        "--open-riichi",
        "--seat",
        "S",
        "--rule",
        "open_riichi=true",
        "--json",
    )
    assert code == 0, err
    body = {
        "hand": hand,
        "win_tile": "8s",
        "double_riichi": True,
        "open_riichi": True,
        "seat_wind": "S",
        "rules": {"preset": "standard", "open_riichi": True},
    }
    site = client.post("/api/score", json=body).json
    mine = json.loads(out)
    assert (mine["han"], mine["points"]) == (site["han"], site["points"])
    assert any(y["han"] == 4 for y in mine["yaku"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "123M456p789s11z22z"], "lower case: 'm', not 'M'"),
        (["waits", "123m456P789s1122z"], "lower case: 'p', not 'P'"),
        (["waits", "123m456p789s1122z", "--dora", "10m"], "'10m' is not one tile"),
    ],
)
def test_small_refusals(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and message in err and len(err.splitlines()) == 1, err


def test_serve_takes_the_preset_name_in_any_case():
    from device.cli import build_parser

    assert build_parser().parse_args(["serve", "--rules", "WRC"]).rules == "wrc"


@pytest.mark.parametrize("name", ["WRC", "Wrc", "wrc"])
def test_rule_preset_names_are_case_insensitive(capsys, name):
    assert run(capsys, "score", HAND, "--rules", name, "--json")[0] == 0
    code, out, err = run(capsys, "waits", "123m456p789s1122z", "--rules", name, "--json")
    assert code == 0 and '"rules": "wrc"' in out, err


def _jantaku(*argv: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "device.cli", *argv], cwd=ROOT, env=env, text=True, stderr=subprocess.PIPE, **kw
    )


@pytest.mark.parametrize(
    ("argv", "codes"),
    [
        (["waits", "123m456p789s1122z"], {141}),  # 128 + SIGPIPE, as a shell tool
        (["score", "--help"], {0, 141}),  # argparse itself lets a failed write of its help pass
    ],
)
def test_a_closed_pipe_ends_it_quietly(argv, codes):
    # `jantaku waits ... | head -c 0`: the reader is gone before anything is written
    proc = _jantaku(*argv, stdout=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err
    assert proc.returncode in codes


#: What the ``jantaku`` console script runs, with a line on stderr as the interpreter hands over to it.
STUB = "import sys; print('up', file=sys.stderr, flush=True); from device.cli import main; sys.exit(main())"


@pytest.mark.parametrize("delay", [0.02, 0.05, 0.1, 0.2, 0.3])
def test_ctrl_c_while_it_starts_is_one_line(delay):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", STUB, "waits", "123m456p789s1122z"],
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr.readline() == "up\n"  # Python itself has started (its own start-up is not ours)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    if proc.returncode in (0, -signal.SIGINT):
        # it had finished already: main returned, and a Ctrl-C during the interpreter's own exit (its handlers
        # back to the default) ends it by the signal, as any shell tool; the answer was whole by then
        assert err == "" and out.startswith("tenpai: 2 wait(s)") and "2z" in out, (proc.returncode, out, err)
    else:
        assert (proc.returncode, err) == (130, "jantaku: interrupted\n")
