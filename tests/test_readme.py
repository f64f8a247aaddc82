"""The README as a newcomer meets it: set-up commands that work on stock Debian, a notation key the engine agrees
with, and every cause of a skipped test named with how to lift it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from mahjong import constants

from engine.hand import parse_hand, parse_meld
from engine.melds import MeldKind, Relative
from engine.tiles import Tile, Wind, parse_tiles

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README's ``## title`` section, up to the next ``## ``."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


def setup_commands() -> dict[str, str]:
    """The set-up block's commands, by their comment's number: {"1": "...", "2": "..."}."""
    block = section("Set up and run").split("```sh\n", 1)[1].split("```", 1)[0]
    commands: dict[str, str] = {}
    number = None
    for line in block.splitlines():
        heading = re.match(r"# (\d)\. ", line)
        if heading:
            number = heading.group(1)
        elif line.strip() and not line.startswith("#") and number is not None:
            commands[number] = line.strip()
            number = None
    return commands


def table_rows(text: str) -> list[tuple[str, str]]:
    """The two cells of each body row of the two-column markdown tables in ``text`` (headers left out)."""
    lines = text.splitlines()
    rows = []
    for line, below in zip(lines, [*lines[1:], ""], strict=True):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        separator = set(line) <= set("|- ")
        header = below.startswith("| ---")
        if line.startswith("|") and len(cells) == 2 and not separator and not header:
            rows.append((cells[0], cells[1]))
    return rows


# --- item 8: two commands from a clone, each making its venv ----------------------------------------------------


def test_the_two_set_up_commands_make_their_venv_and_use_only_its_pip():
    commands = setup_commands()
    assert sorted(commands) == ["1", "2"]
    for command in commands.values():
        steps = [s.strip() for s in command.split("&&")]
        assert steps[0].startswith("python3 -m venv ") and steps[0].endswith(" .venv")
        # a bare pip or python is the system's: stock Debian refuses it (externally-managed-environment)
        assert all(s.split()[0].startswith(".venv/bin/") for s in steps[1:]), command
    assert commands["1"].endswith(".venv/bin/jantaku run")
    assert commands["2"].endswith(".venv/bin/python -m pytest")
    assert "git clone " in section("Set up and run").split("# 1. ", 1)[0]


def test_ci_runs_the_readme_test_command_as_written():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert setup_commands()["2"] in ci


# --- item 9: the notation key, as the engine reads it ----------------------------------------------------------

HONOURS = {
    "east": constants.EAST, "south": constants.SOUTH, "west": constants.WEST, "north": constants.NORTH,
    "white": constants.HAKU, "green": constants.HATSU, "red": constants.CHUN,
}  # fmt: skip
SUIT_WORDS = {"m": "characters", "p": "circles", "s": "bamboo"}
KIND_WORDS = {
    MeldKind.CHI: "a chi", MeldKind.PON: "a pon", MeldKind.KAN: "an open kan", MeldKind.KAKAN: "an added kan",
    MeldKind.ANKAN: "a closed kan",
}  # fmt: skip
SOURCE_WORDS = {Relative.LEFT: "from the left", Relative.RIGHT: "from the right"}


def key_rows() -> list[tuple[str, str]]:
    return table_rows(section("Writing tiles and hands"))


def test_the_key_has_every_tile_row_and_every_meld_kind():
    written = [w for w, _ in key_rows()]
    assert {"`123m`", "`456p`", "`789s`", "`0m` `0p` `0s`", "`1z` `2z` `3z` `4z`", "`5z` `6z` `7z`"} <= set(written)
    melds = [parse_meld(w.strip("`")) for w in written if ":" in w]
    assert {m.kind for m in melds} == set(MeldKind)


@pytest.mark.parametrize(("written", "meaning"), [r for r in key_rows() if ":" not in r[0]])
def test_each_tile_row_means_what_the_engine_reads(written, meaning):
    groups = [parse_tiles(w) for w in re.findall(r"`([^`]+)`", written)]
    tiles = [t for g in groups for t in g]
    if all(t.red for t in tiles):
        assert "red five" in meaning and [t.kind % 9 for t in tiles] == [4, 4, 4]
        return
    if tiles[0].kind < 27:
        suit = "mps"[tiles[0].kind // 9]
        numbers = re.findall(r"\d", meaning)
        assert [str(t.number) for t in tiles] == numbers and SUIT_WORDS[suit] in meaning
        return
    names = re.findall(r"east|south|west|north|white|green|red", meaning.split(":", 1)[1])
    assert [HONOURS[n] for n in names] == [t.kind for t in tiles], (written, meaning)
    assert [Wind[n.upper()].tile for n in names if n in ("east", "south", "west", "north")] == [
        t for t in tiles if t.kind < 31
    ]


@pytest.mark.parametrize(("written", "meaning"), [r for r in key_rows() if ":" in r[0]])
def test_each_meld_row_means_what_the_engine_reads(written, meaning):
    meld = parse_meld(written.strip("`"))
    assert meaning.startswith(KIND_WORDS[meld.kind] + " of ")
    if meld.called is not None and meld.kind is MeldKind.CHI:
        assert f"the {meld.called.number} called from the left" in meaning
    if meld.source in SOURCE_WORDS:
        assert f"called {SOURCE_WORDS[meld.source]}" in meaning
    else:
        assert "from the" not in meaning  # across (the default) or a closed kan: the row names no seat
    plain = meld.tiles[0]
    assert plain == Tile(plain.kind)
    if plain.kind >= 27:
        assert next(n for n, k in HONOURS.items() if k == plain.kind) in meaning
    else:
        assert SUIT_WORDS["mps"[plain.kind // 9]] in meaning


def test_the_key_example_hand_parses_as_it_says():
    example = re.search(r"Example: `([^`]+)` is (\w+) concealed tiles and one pon", section("Writing tiles and hands"))
    hand = parse_hand(example.group(1))
    assert {"ten": 10}[example.group(2)] == len(hand.concealed)
    assert [m.kind for m in hand.melds] == [MeldKind.PON]


def test_the_lab_commands_are_in_their_own_page():
    lab = (ROOT / "docs" / "lab.md").read_text(encoding="utf-8")
    for command in ("conformance", "bench", "synth", "train", "train-classifier", "eval"):
        assert f"jantaku-lab {command} " in lab
        assert f"jantaku {command} " not in lab + README, command  # the table's command has no lab command
    assert "docs/lab.md" in README


# --- item 10: every cause of a skip, with how to lift it -------------------------------------------------------


def skipping_modules() -> set[str]:
    """Top-level names of the packages a test skips without (``importorskip``), less the project's own, its
    dependencies and its test extra (the README's test command installs those)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    # the README's test command installs the test extra too
    installed = {
        re.split(r"[<>=\[ ]", d)[0].replace("-", "_")
        for d in project["dependencies"] + project["optional-dependencies"]["test"]
    }
    names = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for module in re.findall(r"importorskip\(\s*[\"']([\w.]+)", path.read_text(encoding="utf-8")):
            top = module.split(".")[0]
            if top not in {"engine", "vision", "device", "web", "tests"} | installed:
                names.add(top)
    return names


def test_every_package_a_test_skips_without_is_listed_with_how_to_get_it():
    rows = table_rows(section("The tests"))
    named = {re.search(r"`([\w.]+)`", cause).group(1) for cause, _ in rows if "`" in cause}
    missing = skipping_modules() - named
    assert not missing, f"tests skip without {sorted(missing)}: name each in the README's skip table"
    assert {"torch", "ultralytics"} <= named


@pytest.mark.parametrize(
    ("reason_in_tests", "cause_in_readme"),
    [
        ("chromium not found", "chromium"),
        ("no CJK font installed", "CJK font"),
        ("Tenhou game records not found", "Tenhou game records"),
        ("real photos not found", "real labelled photos"),
        ("camerash", "camerash"),
        ("malloc arenas are glibc's", "glibc"),
    ],
)
def test_every_other_skip_reason_is_listed_with_how_to_lift_it(reason_in_tests, cause_in_readme):
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    assert reason_in_tests in sources  # the cause is still one a test skips for
    rows = {cause: lift for cause, lift in table_rows(section("The tests"))}
    lift = next(lift for cause, lift in rows.items() if cause_in_readme in cause)
    assert lift.strip()
