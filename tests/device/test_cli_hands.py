"""``jantaku score`` and ``waits`` (the lab's ``conformance wins`` and ``bench score``:
tests/device/lab/test_hands_commands.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- score -----------------------------------------------------------------------------------------------------


def test_score_human(capsys):
    code, out, _ = run(
        capsys,
        "score",
        "234567m666p35s88s4s",
        "--win",
        "4s",
        "--riichi",
        "--dora",
        "1m",
        "--seat",
        "S",
        "--rules",
        "wrc",
        "--from",
        "W",
    )
    assert code == 0
    assert "Riichi (立直)" in out and "Tanyao (断幺九)" in out and "Dora (ドラ)" in out
    assert "closed wait (kanchan)" in out
    assert "3 han 40 fu" in out
    assert "West pays 5,200" in out
    assert "total 5,200" in out


def test_score_tsumo_payments_and_13_tiles(capsys):
    # a 13-tile HAND gets --win added
    code, out, _ = run(capsys, "score", "123m456789p3459s", "--win", "1s", "--tsumo", "--riichi", "--seat", "S")
    assert (code, out.strip()) == (1, "not a win: not a complete hand")
    code, out, _ = run(
        capsys,
        "score",
        "123m456789p3499s",
        "--win",
        "5s",
        "--tsumo",
        "--riichi",
        "--seat",
        "S",
        "--honba",
        "1",
        "--sticks",
        "1",
    )
    assert code == 0
    assert "East pays 1,400" in out and "West pays 800" in out and "riichi sticks 1,000" in out
    assert "total 4,000" in out


def test_score_json(capsys):
    code, out, _ = run(
        capsys, "score", "234m567p88s chi:678s pon:555z/L", "--win", "2m", "--tsumo", "--seat", "S", "--json"
    )
    assert code == 0
    d = json.loads(out)
    assert d["is_win"] and d["han"] == 1 and d["fu"] == 30
    assert [y["name"] for y in d["yaku"]] == ["Yakuhai (haku)"]
    # 20 + open honour triplet 4 + tsumo 2 = 26 -> 30 fu; 1 han 30 fu: 300 from each non-dealer, 500 from the dealer
    assert d["tsumo_points"] == [500, 300] and d["total"] == 1100
    assert {p["payer"] for p in d["payments"]} == {"E", "W", "N"}


def test_score_limits(capsys):
    code, out, _ = run(capsys, "score", "111m222p333s444z55z", "--win", "5z", "--tsumo", "--seat", "S")
    assert code == 0 and "double yakuman" in out and "Suu Ankou Tanki (四暗刻単騎)" in out and "64,000" in out
    code, out, _ = run(
        capsys, "score", "234m567p34567888s", "--win", "6s", "--riichi", "--dora", "1m", "--seat", "S", "--rules", "wrc"
    )
    assert "kiriage mangan" in out and "8,000" in out


def test_no_yaku_is_exit_1(capsys):
    code, out, err = run(capsys, "score", "234m567p345s678s11z", "--win", "2m", "--seat", "S")
    assert (code, out.strip(), err) == (1, "not a win: no yaku", "")
    code, out, _ = run(capsys, "score", "234m567p345s678s11z", "--win", "2m", "--seat", "S", "--json")
    assert code == 1 and json.loads(out)["reason"] == "no yaku"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["234m567p345s678s1x", "--win", "2m"], "unknown character"),  # unknown tile
        (["234m567p345s678s11z8z", "--win", "2m"], "honour tiles"),
        (["234m567p345s11z", "--win", "2m"], "14 tiles"),  # wrong count
        (["2222m567p345s678s11z", "--win", "2m"], "14 tiles"),
        (["22222m7p345s678s11z", "--win", "2m"], "only four"),  # five of a kind
        (["234m067p345s678s11z", "--win", "2m", "--rules", "wrc"], "red"),  # more red fives than the rules have
        (["00p0p456m789s123s1z", "--win", "1z", "--rules", "standard"], "red"),  # three red 5p, 001 has two
        (["234m567p345s678s11z", "--win", "9m"], "not among"),  # winning tile not in the hand
        (["234m567p345s678s11z", "--win", "2m", "--seat", "Q"], "wind"),
        (["234m567p345s678s11z", "--win", "2m", "--open-riichi"], "open riichi"),
        (["234m567p345s678s11z", "--win", "2m", "--ippatsu"], "ippatsu"),
        # --rule: the site's rule-option checks, one line naming the option
        (["234m567p345s678s11z", "--win", "2m", "--rule", "no_such=1"], "unknown rule option 'no_such'"),
        (["234m567p345s678s11z", "--win", "2m", "--rule", "kiriage=maybe"], "rule option kiriage is true or false"),
        (["234m567p345s678s11z", "--win", "2m", "--rule", "renhou=big"], "rule option renhou is one of"),
        (["234m567p345s678s11z", "--win", "2m", "--rule", "red_fives=[1,1]"], "list of 3 whole numbers"),
        (["234m567p345s678s11z", "--win", "2m", "--rule", "kiriage"], "KEY=VALUE"),
        # tiles are ASCII digits and mpsz: other scripts' digits end in one line, not a traceback or a misreading
        (["²23m456p789s23s55z", "--win", "4s"], "unknown character '²'"),
        (["①23m456p789s23s55z", "--win", "4s"], "unknown character '①'"),
        (["１２３m456p789s234s55z", "--win", "4s"], "unknown character '１'"),  # was read as 123m
        (["٣٤٥m456p789s234s55z", "--win", "4s"], "unknown character '٣'"),
        (["123m456p789s234s55z", "--win", "４s"], "unknown character '４'"),
        (["123m456p789s234s55z", "--win", "4s", "--dora", "①m"], "unknown character '①'"),
        (["123m456p789s234s55z", "--win", "4s", "--ura", "²p"], "unknown character '²'"),
        # 13 tiles and no --win: nothing says which tile won
        (["234m567p345s678s1z"], "--win"),
    ],
)
def test_bad_input_exit_2(capsys, args, message):
    code, out, err = run(capsys, "score", *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "code", "line"),
    [
        # open riichi turned on from the command line: dealing into it pays as a yakuman (dealer 48,000)
        (["234567m666p35s88s4s", "--win", "4s", "--open-riichi", "--rule", "open_riichi=true"], 0, "total 48,000"),
        # red fives put back into the wrc set
        (["234m067p345s678s22m", "--win", "2m", "--rules", "wrc", "--rule", "red_fives=[1,1,1]"], 0, "Aka"),
        # a second option on top; enum values as plain text
        (["234567m666p35s88s4s", "--win", "4s", "--rule", "kiriage=true", "--rule", "renhou=yakuman"], 0, "2,000"),
    ],
)
def test_score_rule_options(capsys, args, code, line):
    got, out, err = run(capsys, "score", *args)
    assert (got, err) == (code, "")
    assert line in out


@pytest.mark.parametrize(
    ("hand", "win"),
    [
        ("234567m666p35s88s4s", "4s"),  # the README's example: 14 tiles, the last one written won
        ("234m567p88s354s chi:678s", "4s"),  # with a meld after the concealed tiles
        ("123m456789p3499s5s", "5s"),
    ],
)
def test_score_14_tiles_without_win(capsys, hand, win):
    assert run(capsys, "score", hand, "--json") == run(capsys, "score", hand, "--win", win, "--json")


@pytest.mark.parametrize(
    ("args", "bad"),
    [(["１２３m456p789s23s5z"], "１"), (["123m456p789s23s5z", "--seen", "①p"], "①"), (["12²m456p789s23s5z"], "²")],
)
def test_waits_non_ascii_digits_exit_2(capsys, args, bad):
    code, out, err = run(capsys, "waits", *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"unknown character {bad!r}" in err


def test_waits_takes_rule_options(capsys):
    code, out, err = run(capsys, "waits", "234567m666p35s88s", "--rule", "renhou=nope")
    assert code == 2 and "rule option renhou" in err
    code, out, _ = run(capsys, "waits", "234567m666p35s88s", "--rules", "wrc", "--rule", "kiriage=false", "--json")
    assert code == 0 and json.loads(out)["rules"] == "wrc"


# --- waits -----------------------------------------------------------------------------------------------------


def test_waits_human(capsys):
    code, out, _ = run(capsys, "waits", "23m456p789s22z567s", "--riichi", "--seat", "S", "--dora", "3m")
    assert code == 0
    assert out.startswith("tenpai: 2 wait(s), 8 tile(s) unseen")
    assert "1m  unseen 4  ron 1,300" in out
    assert "4m  unseen 4  ron 2,600" in out


def test_waits_json(capsys):
    code, out, _ = run(capsys, "waits", "1112345678999m", "--json", "--seen", "1m")
    d = json.loads(out)
    assert (code, d["shanten"], d["tenpai"]) == (0, 0, True)
    assert [w["tile"] for w in d["waits"]] == [f"{n}m" for n in range(1, 10)]
    assert d["waits"][0]["unseen"] == 0  # the fourth 1m was seen
    assert d["waits"][4]["ron"]["limit_name"] == "double yakuman"  # junsei chuuren under standard


def test_waits_not_tenpai_and_bad(capsys):
    code, out, _ = run(capsys, "waits", "123456789m1234z")
    assert (code, out.strip()) == (0, "2-shanten (not tenpai)")
    code, _, err = run(capsys, "waits", "123m")
    assert code == 2 and "13 tiles" in err


def readme_commands(name: str) -> list[list[str]]:
    """The README's ``jantaku NAME ...`` example lines as arguments, optional ``[...]`` parts left out."""
    import re
    import shlex

    readme = Path(__file__).resolve().parents[2] / "README.md"
    lines = [ln.split("#")[0] for ln in readme.read_text(encoding="utf-8").splitlines()]
    return [shlex.split(re.sub(r"\[[^\]]*\]", "", ln))[1:] for ln in lines if ln.startswith(f"jantaku {name} ")]


@pytest.mark.parametrize("args", readme_commands("score") + readme_commands("waits"))
def test_readme_examples_run(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 0 and err == "" and out
