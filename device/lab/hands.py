"""Lab hand subcommands: ``conformance wins`` (rescore real Tenhou wins against the server's) and ``bench score``
(hands per second through ``score_hand`` against calling the mahjong package directly).

    jantaku-lab conformance wins ../shared/data/tenhou/wins.jsonl.gz
    jantaku-lab bench score --rounds 9
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld as MjMeld

from engine.conformance.tenhou import check_win, decode_win, is_three_player
from engine.errors import EngineError
from engine.scoring import check_win_input, estimate, prepare, score_hand

#: Where the real Tenhou win records live beside the project.
DEFAULT_WINS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tenhou" / "wins.jsonl.gz"


def register(commands: Any) -> None:
    c = commands.conformance.add_parser(
        "wins",
        help="rescore real Tenhou wins and compare with the server",
        description="Rescore every four-player record of a Tenhou win-record file (.jsonl or .jsonl.gz) with the "
        "tenhou preset (red fives and open tanyao from go_type) and compare han, fu, points and yaku. "
        "Three-player records are skipped. Exit 0 when all agree, 1 otherwise.",
    )
    c.add_argument("file", type=Path, help="wins.jsonl[.gz]")
    c.add_argument("--json", action="store_true", help='one object {"checked", "agree", "skipped", "disagreements"}')
    c.set_defaults(func=cmd_conformance_wins)

    b = commands.bench.add_parser(
        "score",
        help="hands per second through score_hand against calling mahjong directly",
        description="Scores the real win records through score_hand and through the mahjong package alone on the "
        "same prepared inputs, in the same run, and prints hands per second and the ratio of our time to theirs.",
    )
    b.add_argument("file", type=Path, nargs="?", default=DEFAULT_WINS, help=f"win records (default {DEFAULT_WINS})")
    b.add_argument("--rounds", type=int, default=9, help="timed rounds, the best of each kept (default 9)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_score)


# --- conformance wins ---------------------------------------------------------------------------------------------


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        raise EngineError(f"no such file: {path}")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise EngineError(f"{path}:{n}: not JSON ({exc.msg})") from None


def conformance_wins(path: Path) -> dict[str, Any]:
    checked = agree = skipped = 0
    disagreements = []
    for rec in read_records(path):
        if is_three_player(rec):
            skipped += 1
            continue
        checked += 1
        try:
            result = check_win(rec)
        except (EngineError, KeyError, ValueError) as exc:
            disagreements.append({"record": rec, "differences": [f"unreadable record: {exc}"]})
            continue
        if result.agrees:
            agree += 1
        else:
            disagreements.append(
                {"record": rec, "differences": list(result.differences), "ours": result.ours, "theirs": result.theirs}
            )
    return {"checked": checked, "agree": agree, "skipped": skipped, "disagreements": disagreements}


def cmd_conformance_wins(args: argparse.Namespace) -> int:
    report = conformance_wins(args.file)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        n, k = report["checked"], report["agree"]
        pct = 100.0 * k / n if n else 100.0
        print(f"wins: {k}/{n} agree ({pct:.2f}%) on han, fu, points and yaku; {report['skipped']} three-player skipped")
        for d in report["disagreements"]:
            rec = d["record"]
            print(
                f"- {rec.get('log_id', '?')} round {rec.get('round')} who {rec.get('who')}: "
                + "; ".join(d["differences"])
            )
            print(f"  record: {json.dumps(rec, ensure_ascii=False)}")
    return 0 if report["agree"] == report["checked"] else 1


# --- bench score ----------------------------------------------------------------------------------------------------


def cmd_bench_score(args: argparse.Namespace) -> int:
    cases = []
    for rec in read_records(args.file):
        if is_three_player(rec):
            continue
        win = decode_win(rec)
        cases.append((win.hand, win.ctx, win.rules))
    if not cases:
        raise EngineError(f"no four-player records in {args.file}")
    # Inputs prepared beforehand, outside the timing: 136-ids, melds as (type, ids, opened), indicator ids, the
    # HandConfig's flags and the rule options. Two references, both timed in the same run as ours:
    #  - "mahjong call": what a direct caller of the package runs per hand on that data: HandConfig(...),
    #    Meld(...) objects and HandCalculator.estimate_hand_value(...);
    #  - "mahjong alone": estimate_hand_value only, on HandConfig and Meld objects built beforehand too.
    # Ours starts from Hand, WinContext and RuleSet, so both ratios carry all of our overhead: validation,
    # conversion, rule adjustments and the result objects.
    prepared = []
    calls = []
    for hand, ctx, rules in cases:
        check_win_input(hand, ctx, rules)
        p = prepare(hand, ctx, rules)
        kwargs = _config_args(p)
        prepared.append(replace(p, config=HandConfig(**kwargs)))
        melds = tuple((m.type, m.tiles, m.opened) for m in p.melds)
        calls.append((p.tiles, p.win_tile, melds, p.dora, p.ura, kwargs))
    prebuilt_melds = [m for p in prepared for m in p.melds]

    def mahjong_call() -> None:
        for tiles, win_tile, melds, dora, ura, kwargs in calls:
            HandCalculator.estimate_hand_value(
                tiles,
                win_tile,
                melds=[MjMeld(meld_type=t, tiles=ids, opened=o) for t, ids, o in melds],
                dora_indicators=dora,
                config=HandConfig(**kwargs),
                ura_dora_indicators=ura,
            )

    def mahjong_alone() -> None:
        for p in prepared:
            estimate(p)

    def ours() -> None:
        for hand, ctx, rules in cases:
            score_hand(hand, ctx, rules)

    def timed(run: Any) -> float:
        # the package caches each Meld's 34-array on first use: start every round without it, as ours does
        for m in prebuilt_melds:
            m.__dict__.pop("tiles_34", None)
        gc.collect()
        t0 = time.process_time()  # CPU time of this process: steadier than wall time on a shared machine
        run()
        return time.process_time() - t0

    runs = [ours, mahjong_call, mahjong_alone]
    best = dict.fromkeys(runs, float("inf"))
    for i in range(max(1, args.rounds)):
        for run in runs[i % 3 :] + runs[: i % 3]:  # rotate the order between rounds
            best[run] = min(best[run], timed(run))
    n = len(cases)
    out = {
        "hands": n,
        "rounds": args.rounds,
        "ours_hands_per_s": round(n / best[ours], 1),
        "mahjong_call_hands_per_s": round(n / best[mahjong_call], 1),
        "mahjong_alone_hands_per_s": round(n / best[mahjong_alone], 1),
        "ratio": round(best[ours] / best[mahjong_call], 3),
        "ratio_to_estimate_alone": round(best[ours] / best[mahjong_alone], 3),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{n} real hands, best of {args.rounds} rounds, CPU time of this process:")
        print(f"  score_hand                               {out['ours_hands_per_s']:>10,.0f} hands/s")
        print(f"  mahjong call (config, melds, estimate)   {out['mahjong_call_hands_per_s']:>10,.0f} hands/s")
        print(f"  mahjong estimate alone (all prebuilt)    {out['mahjong_alone_hands_per_s']:>10,.0f} hands/s")
        print(f"ratio (our time / mahjong call time): {out['ratio']:.3f}")
        print(f"ratio (our time / estimate alone):    {out['ratio_to_estimate_alone']:.3f}")
    return 0


def _config_args(p: Any) -> dict[str, Any]:
    c = p.config
    names = (
        "is_tsumo",
        "is_riichi",
        "is_ippatsu",
        "is_rinshan",
        "is_chankan",
        "is_haitei",
        "is_houtei",
        "is_daburu_riichi",
        "is_tenhou",
        "is_renhou",
        "is_chiihou",
        "is_open_riichi",
        "player_wind",
        "round_wind",
    )
    return {**{k: getattr(c, k) for k in names}, "options": c.options}
