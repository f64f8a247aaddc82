"""Subcommands of the way-up network (:mod:`vision.read.way_up`): ``train-way-up`` and ``eval way-up``.

``jantaku-lab train-way-up`` builds its upright crops once into ``datasets/crops/``
(:func:`vision.train.way_up_training.way_up_crops`), with ``--real`` beside them the real training photos' tiles whose
way up their photo's characters, winds and dragons tell (:func:`vision.train.way_up_training.real_way_up_crops`), trains
on the CPU and exports ``models/tile_way_up.onnx``; torch is needed for training only.
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

#: alanchoi00 and leo-miura (:data:`vision.train.way_up_training.REAL_SOURCES`), without importing torch's side
REAL_SOURCES = ("leo", "alanchoi00")


def register(commands) -> None:
    tr = commands.top.add_parser("train-way-up", help="train the network that tells a tile upright from upside down")
    tr.add_argument("--cards", type=int, default=48000, help="upright cards to train on (default 48000)")
    tr.add_argument("--seed", type=int, default=4300, help="seed of the cards (default 4300)")
    tr.add_argument("--epochs", type=int, default=10, help="epochs (default 10)")
    tr.add_argument("--width", type=int, default=24, help="network width (default 24)")
    tr.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    tr.add_argument("--train-seed", type=int, default=0, help="seed of the training order and turns (default 0)")
    tr.add_argument(
        "--real",
        action="append",
        choices=REAL_SOURCES,
        default=[],
        help="also the training photos of this real source (repeat for more); their way up told by their telling tiles",
    )
    tr.add_argument("--real-per-box", type=int, default=4, help="jittered crops of each real tile (default 4)")
    tr.add_argument(
        "--judge", metavar="PATH", help="way-up ONNX that tells the real photos' way up (default: the shipped one)"
    )
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
    if args.cards < 1 or args.epochs < 1 or args.width < 2 or args.width % 2 or args.real_per_box < 1:
        raise UserError("--cards, --epochs and --real-per-box must be at least 1, --width an even number of at least 2")
    require_cjk_font("train-way-up (its drawn faces)")
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise UserError("training the way-up network needs torch (pip install torch); reading does not") from exc
    from dataclasses import asdict, replace

    from device.lab.classifier import cached_crops
    from vision.train.classifier_training import CropSet
    from vision.train.way_up_training import WAY_UP_OPTIONS, export_way_up, train_way_up, way_up_crops

    judge = _judge(args) if args.real else None  # a bad judge is refused before the cards are drawn
    name = f"way_up1_{args.cards}_s{args.seed}.npz"  # 1: way_up_card_set as first drawn
    progress = lambda k, n: _log(f"cards {k} / {n}")  # noqa: E731
    x = cached_crops(
        Path(args.crops) / name, lambda: CropSet(*way_up_crops(args.cards, args.seed, progress=progress))
    ).x
    real = {}
    if args.real:
        x, real = _with_real(x, judge, args)
    options = replace(WAY_UP_OPTIONS, epochs=args.epochs, width=args.width, seed=args.train_seed, threads=args.threads)
    model, history = train_way_up(x, options, log=_log)
    keep = ("epochs", "batch", "lr", "weight_decay", "width", "seed", "threads", "warmup")
    recipe = {"cards": args.cards, "cards_seed": args.seed, **real}
    recipe |= {**{k: asdict(options)[k] for k in keep}, "history": history}
    out = export_way_up(model, args.out, {"training": json.dumps(recipe)})
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, **recipe}))
    return 0


def _way_up(path: str | None, missing: str):
    """The way-up model at ``path``, or the shipped one; a bad file, or none at all (``missing`` says what to do), is
    a :class:`~device.cli.UserError`."""
    from vision.read.errors import ModelError
    from vision.read.way_up import OnnxWayUp, way_up_for

    try:
        model = OnnxWayUp(path) if path else way_up_for()
    except ModelError as exc:
        raise UserError(str(exc)) from exc
    if model is None:
        raise UserError(missing)
    return model


def _judge(args: argparse.Namespace):
    """The way-up model that tells the real photos' way up: ``--judge``, or the shipped one."""
    return _way_up(args.judge, "--real needs a way-up model to tell the photos' way up: pass --judge")


def _with_real(cards, judge, args: argparse.Namespace):
    """``cards`` and the real sources' upright crops (cached by source, crops per box and ``judge``, with how many
    photos each kept), and what to record of them."""
    import hashlib

    import numpy as np

    from device.lab.classifier import cached_crops
    from vision.train.classifier_training import CropSet
    from vision.train.way_up_training import real_way_up_crops, real_way_up_scenes

    judge_id = hashlib.sha256(judge.path.read_bytes()).hexdigest()[:12]
    sources = sorted(set(args.real))
    kept: dict[str, dict] = {}
    crops = [cards]
    for source in sources:

        def build(source=source):
            got = real_way_up_crops(real_way_up_scenes([source]), judge, per_box=args.real_per_box, seed=args.seed)
            photos = {"upright": got.upright, "upside_down": got.upside_down, "untold": got.untold}
            return CropSet(got.crops, np.zeros(len(got.crops), np.int64), {"photos": photos})

        name = f"way_up_real1_{source}_x{args.real_per_box}_{judge_id}_s{args.seed}.npz"
        got = cached_crops(Path(args.crops) / name, build)
        kept[source] = got.meta.get("photos")
        _log(f"{source}: photos {kept[source]}")
        crops.append(got.x)
    x = np.concatenate(crops)
    real = {"real": sources, "real_per_box": args.real_per_box, "judge_sha256": judge_id}
    return x, real | {"real_crops": len(x) - len(cards), "real_photos": kept}


def cmd_eval(args: argparse.Namespace) -> int:
    from vision.eval.way_up_evaluation import evaluate_way_up

    model = _way_up(args.model, "no way-up model: pass --model or train one (jantaku-lab train-way-up)")
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
