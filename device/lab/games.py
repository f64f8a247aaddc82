"""``jantaku-lab conformance games PATH... [--json]``: replay real Tenhou games through the game engine.

Each PATH is an mjlog XML file, a Tenhou client session log, or a folder of them. Games are
replayed as a camera sees them (public events only) with the ``tenhou`` preset, and every hand's score
changes, the deals in between and the final scores are compared with the server's record.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from device.cli import UserError


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and not f.name.startswith("."))
        elif p.is_file():
            out.append(p)
        else:
            raise UserError(f"no such file or folder: {p}")
    return out


def run_conformance(paths: list[str]) -> dict[str, Any]:
    from engine.conformance.tenhou_games import parse_file, replay

    games = hands = agree = wins = skipped = fchecks = fagree = partial = stops = played_on = 0
    disagreements: list[dict[str, Any]] = []
    for f in _files(paths):
        try:
            logged_games = parse_file(f)
        except (ValueError, KeyError, IndexError) as exc:
            disagreements.append({"source": str(f), "kind": "unreadable", "detail": str(exc)})
            continue
        for g in logged_games:
            if g.skipped:
                skipped += 1
                continue
            rep = replay(g)
            games += 1
            hands += rep.hands
            partial += rep.partial
            agree += rep.agree
            wins += rep.wins
            fchecks += rep.furiten_checks
            fagree += rep.furiten_agree
            stops += rep.dealer_stops
            played_on += rep.dealer_played_on
            disagreements += rep.disagreements
    return {
        "games": games,
        "hands": hands,
        "agree": agree,
        "wins": wins,
        "partial_hands": partial,
        "skipped_games": skipped,
        "furiten_checks": fchecks,
        "furiten_agree": fagree,
        "dealer_stops": stops,
        "dealer_played_on": played_on,
        "disagreements": disagreements,
    }


def _cmd(args: argparse.Namespace) -> int:
    out = run_conformance(args.paths)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        for d in out["disagreements"]:
            print(
                f"{d.get('source')} {d.get('hand', '')} {d['kind']}: {d['detail']}"
                + (f" expected {d['expected']} got {d['got']}" if "expected" in d else "")
            )
        print(
            f"games {out['games']} (skipped {out['skipped_games']}), hands {out['hands']}, "
            f"agree {out['agree']}, wins {out['wins']}, unfinished hands {out['partial_hands']}, "
            f"furiten warnings {out['furiten_agree']}/{out['furiten_checks']}, "
            f"dealer stopped {out['dealer_stops']}, played on {out['dealer_played_on']}"
        )
    return 0 if out["agree"] == out["hands"] and not out["disagreements"] else 1


def register(commands) -> None:
    p = commands.conformance.add_parser("games", help="replay Tenhou game logs (mjlog XML or session logs)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=_cmd)
