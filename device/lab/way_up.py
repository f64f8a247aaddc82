"""Subcommands of the way-up network (:mod:`vision.read.way_up`): ``train-way-up`` and ``eval way-up``.

``jantaku-lab train-way-up`` builds its upright crops once into ``datasets/crops/``
(:func:`vision.train.way_up_training.way_up_crops`), trains on the CPU and exports ``models/tile_way_up.onnx``;
torch is needed for training only.
``jantaku-lab eval way-up`` reads real tiles upright and turned a half turn: the real held-out split's crops and
camerash's single-tile photos (another set), by suit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.cli import UserError
from device.lab.training import require_cjk_font


def register(commands) -> None:
    tr = commands.top.add_parser("train-way-up", help="train the network that tells a tile upright from upside down")
    tr.add_argument("--cards", type=int, default=48000, help="upright cards to train on (default 48000)")
    tr.add_argument("--seed", type=int, default=4300, help="seed of the cards (default 4300)")
    tr.add_argument("--epochs", type=int, default=10, help="epochs (default 10)")
    tr.add_argument("--width", type=int, default=24, help="network width (default 24)")
    tr.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    tr.add_argument("--train-seed", type=int, default=0, help="seed of the training order and turns (default 0)")
    tr.add_argument("--crops", default="datasets/crops", help="where built crop sets are cached")
    tr.add_argument("--out", default="models/tile_way_up.onnx", help="ONNX file to write")
    tr.set_defaults(func=cmd_train)

    ev = commands.eval.add_parser("way-up", help="which way up real tiles read: real held-out crops, camerash")
    ev.add_argument("--model", metavar="PATH", help="way-up ONNX (default: models/tile_way_up.onnx)")
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.set_defaults(func=cmd_eval)


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cmd_train(args: argparse.Namespace) -> int:
    if args.cards < 1 or args.epochs < 1 or args.width < 2 or args.width % 2:
        raise UserError("--cards and --epochs must be at least 1, --width an even number of at least 2")
    require_cjk_font("train-way-up (its drawn faces)")
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise UserError("training the way-up network needs torch (pip install torch); reading does not") from exc
    from dataclasses import asdict, replace

    from device.lab.classifier import _cached
    from vision.train.classifier_training import CropSet
    from vision.train.way_up_training import WAY_UP_OPTIONS, export_way_up, train_way_up, way_up_crops

    name = f"way_up1_{args.cards}_s{args.seed}.npz"  # 1: way_up_card_set as first drawn
    progress = lambda k, n: _log(f"cards {k} / {n}")  # noqa: E731
    x = _cached(Path(args.crops) / name, lambda: CropSet(*way_up_crops(args.cards, args.seed, progress=progress))).x
    options = replace(WAY_UP_OPTIONS, epochs=args.epochs, width=args.width, seed=args.train_seed, threads=args.threads)
    model, history = train_way_up(x, options, log=_log)
    keep = ("epochs", "batch", "lr", "weight_decay", "width", "seed", "threads", "warmup")
    recipe = {"cards": args.cards, "cards_seed": args.seed, **{k: asdict(options)[k] for k in keep}, "history": history}
    out = export_way_up(model, args.out, {"training": json.dumps(recipe)})
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, **recipe}))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from vision.eval.way_up_evaluation import evaluate_way_up
    from vision.read.errors import ModelError
    from vision.read.way_up import OnnxWayUp, way_up_for

    try:
        model = OnnxWayUp(args.model) if args.model else way_up_for()
    except ModelError as exc:
        raise UserError(str(exc)) from exc
    if model is None:
        raise UserError("no way-up model: pass --model or train one (jantaku-lab train-way-up)")
    results = evaluate_way_up(model, progress=None if args.json else _log)
    if args.json:
        print(json.dumps(results))
        return 0
    for name, r in results.items():
        suits = "  ".join(f"{s} {v['pairs_right']:.3f} ({v['n']})" for s, v in r["by_suit"].items())
        print(
            f"{name}: {r['n']} tiles; upright read upright {r['upright_right']:.3f}, turned read upside down "
            f"{r['turned_right']:.3f}, turned surer than upright {r['pairs_right']:.3f}; by suit: {suits}"
        )
    return 0
