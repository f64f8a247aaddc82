"""Subcommands that make the detector: ``synth`` (render labelled images), ``train``, ``export``.

    jantaku-lab synth --n 2400 --out datasets/synth1/train --seed 1 --workers 2
    jantaku-lab synth --n 2400 --out datasets/synth2/train --seed 2 --distractors 0.3   # and things that are not tiles
    jantaku-lab synth --n 360 --out datasets/close/train --seed 3 --close-ups 1   # single tiles filling the frame
    jantaku-lab train --data datasets/synth1/train --val datasets/synth1/val --real-repeats 8 \\
        --model peer --epochs 12 --imgsz 416 --name tiles416
    jantaku-lab train --name tiles416 --resume
    jantaku-lab export runs/detect/tiles416/weights/best.pt --out models/tiles.onnx --imgsz 640

``train`` needs the optional dependencies (``pip install -e .[train]``: ultralytics, onnx, onnxslim, and torch).
Everything runs offline; generated data and runs belong in the ignored ``datasets/`` and ``runs/`` folders.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from device.cli import UserError


def register(commands) -> None:
    synth = commands.top.add_parser("synth", help="render labelled training images (YOLO format)")
    synth.add_argument("--n", type=int, required=True, help="number of images")
    synth.add_argument("--out", required=True, help="output folder (gets images/ and labels/)")
    synth.add_argument("--seed", type=int, default=0, help="renderer seed (default 0)")
    synth.add_argument("--start", type=int, default=0, help="first image index (default 0)")
    synth.add_argument("--size", default=None, help="fixed WIDTHxHEIGHT (default: several sizes)")
    synth.add_argument("--workers", type=int, default=1, help="processes (default 1; output does not depend on it)")
    synth.add_argument(
        "--drawn-faces",
        type=float,
        default=0.0,
        help="share of images whose tiles are drawn with CJK fonts and procedural pins/sticks (default 0)",
    )
    synth.add_argument(
        "--distractors",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of images that also show things that are not tiles, unlabelled: keyboards, white boxes and cups, "
        "phones, an automatic table's panel, rim and slots, sticks, chips, dice, hands (default 0)",
    )
    synth.add_argument(
        "--close-ups",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of images taken close up, the camera aimed at one tile that spans 25-70%% of the frame's short "
        "side, as a phone photo of a single tile (default 0)",
    )
    synth.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help="time budget: start no new batch after this many seconds (renders a prefix of the set)",
    )
    synth.set_defaults(func=cmd_synth)

    train = commands.top.add_parser("train", help="train the tile detector (ultralytics, offline)")
    train.add_argument("--data", nargs="*", default=[], metavar="DIR", help="rendered training folders")
    train.add_argument("--val", nargs="*", default=[], metavar="DIR", help="validation folders")
    train.add_argument("--real-repeats", type=int, default=8, help="copies of the real training split (0: none)")
    train.add_argument(
        "--other-sets-repeats",
        type=int,
        default=0,
        help="copies of alanchoi00's training photos, other physical sets (default 0: none)",
    )
    train.add_argument(
        "--other-sets-box-scale",
        default="1,1",
        metavar="W,H",
        help="grow alanchoi00's training labels (faces only) by these width and height factors about their centres, "
        "clipped to the photo, towards our whole-tile boxes (e.g. 1.25,1.20; default 1,1: as labelled)",
    )
    train.add_argument(
        "--model",
        default="peer",
        help="yolo11n.yaml / yolov8n.yaml (from scratch), a local .pt checkpoint, an exported detector .onnx of ours "
        "(models/tiles.onnx: on from the shipped weights, norms calibrated on the --data images), or 'peer' "
        "(default): mahjong-detector's YOLO11n weights mapped to our classes",
    )
    train.add_argument("--epochs", type=int, default=12)
    train.add_argument("--imgsz", type=int, default=416)
    train.add_argument("--batch", type=int, default=16)
    train.add_argument("--device", default="cpu", help="cpu, 0, 0,1 ... (default cpu)")
    train.add_argument("--workers", type=int, default=2, help="data loader workers")
    train.add_argument("--lr0", type=float, default=0.002)
    train.add_argument("--hours", type=float, default=None, help="budget in hours, over --epochs; the schedule fits it")
    train.add_argument("--close-mosaic", type=int, default=2, help="last epochs without mosaic (default 2)")
    train.add_argument("--warmup-epochs", type=float, default=1.0, help="epochs warming up (default 1)")
    train.add_argument(
        "--warmup-bias-lr",
        type=float,
        default=None,
        help="the biases' rate at the warm-up's start (default 0.1 from scratch; lr0 when --model is a trained one)",
    )
    train.add_argument("--freeze", type=int, default=0, help="first layers kept fixed (10: the backbone; default 0)")
    train.add_argument("--cache", action="store_true", help="cache decoded images in RAM")
    train.add_argument(
        "--final-val-only",
        action="store_true",
        help="validate after the last epoch only (epochs of seconds on a GPU; best.pt is then the last)",
    )
    train.add_argument("--project", default="runs/detect", help="runs folder (default runs/detect)")
    train.add_argument("--name", default="tiles", help="run name (default tiles)")
    train.add_argument("--resume", action="store_true", help="resume runs/detect/NAME from weights/last.pt")
    train.set_defaults(func=cmd_train)

    export = commands.top.add_parser("export", help="export a trained checkpoint to ONNX with our metadata")
    export.add_argument("weights", help="a checkpoint (.pt)")
    export.add_argument("--out", default="models/tiles.onnx")
    export.add_argument("--imgsz", type=int, default=640, help="ONNX input size (default 640)")
    export.add_argument("--train-imgsz", type=int, default=416, help="the size it was trained at (metadata)")
    export.set_defaults(func=cmd_export)

    val = commands.top.add_parser("val-model", help="ultralytics mAP of a checkpoint: rendered held-out, real held-out")
    val.add_argument("weights", help="a checkpoint (.pt) or an exported .onnx")
    val.add_argument("--imgsz", type=int, nargs="+", default=[416, 640], help="input sizes to measure at")
    val.add_argument("--n", type=int, default=200, help="rendered held-out images (default 200)")
    val.add_argument("--out", default="datasets/eval", help="where the held-out sets are written")
    val.add_argument("--per-class", action="store_true", help="also print mAP50 per class")
    val.set_defaults(func=cmd_val)


class _Bar:
    """A one-line text progress bar on stderr."""

    def __init__(self, label: str) -> None:
        self.label, self.start = label, time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / max(time.monotonic() - self.start, 1e-6)
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.1f}/s{end}")
        sys.stderr.flush()


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size must be WIDTHxHEIGHT, not {text!r}") from None
    if not (32 <= w <= 8192 and 32 <= h <= 8192):
        raise UserError(f"--size {text} is outside 32..8192")
    return w, h


def _box_scale(text: str) -> tuple[float, float]:
    from vision.train.unlabelled import BOX_SCALE_RANGE, check_box_scale

    low, high = BOX_SCALE_RANGE
    wrong = f"--other-sets-box-scale must be WIDTH,HEIGHT factors within {low:g}..{high:g} (e.g. 1.25,1.20)"
    try:
        width, height = (float(v) for v in text.split(","))
        return check_box_scale((width, height))
    except ValueError:
        raise UserError(f"{wrong}, not {text!r}") from None


def require_cjk_font(what: str) -> None:
    """Refuse ``what`` (a command or option that draws tile characters) where no CJK font is installed."""
    from vision.synth.glyphs import cjk_fonts

    if not cjk_fonts():
        raise UserError(f"{what} needs a CJK font (Debian: fonts-arphic-ukai, fonts-ipafont-mincho ...)")


def cmd_synth(args: argparse.Namespace) -> int:
    from vision.synth import write_dataset

    if args.n <= 0:
        raise UserError("--n must be positive")
    if args.workers <= 0:
        raise UserError("--workers must be positive")
    if not 0.0 <= args.drawn_faces <= 1.0:
        raise UserError("--drawn-faces must be within 0..1")
    if not 0.0 <= args.distractors <= 1.0:
        raise UserError("--distractors must be within 0..1")
    if not 0.0 <= args.close_ups <= 1.0:
        raise UserError("--close-ups must be within 0..1")
    if args.drawn_faces > 0:
        # without one the character faces fall back to the artwork: the same seed would render other images
        require_cjk_font("--drawn-faces")
    if args.max_seconds is not None and args.max_seconds <= 0:
        raise UserError("--max-seconds must be positive")
    try:
        from vision.eval.evaluation import EVAL_SEED
    except ImportError:
        EVAL_SEED = None
    if args.seed == EVAL_SEED:
        raise UserError(f"seed {EVAL_SEED} is the rendered held-out set of 'jantaku-lab eval detector': pick another")
    try:
        total = write_dataset(
            args.out,
            args.n,
            seed=args.seed,
            start=args.start,
            size=_size(args.size),
            workers=args.workers,
            progress=_Bar("synth"),
            drawn_faces=args.drawn_faces,
            max_seconds=args.max_seconds,
            distractors=args.distractors,
            close_ups=args.close_ups,
        )
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from None
    rendered = json.loads((Path(args.out) / "synth.json").read_text(encoding="utf-8"))["n"]
    stopped = f" (stopped by --max-seconds {args.max_seconds:g})" if rendered < args.n else ""
    print(f"\n{rendered} images, {total} labelled tiles in {args.out}{stopped}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from vision.train import training
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise UserError(f"training needs the [train] extras: {exc}") from None
    project, name = Path(args.project), args.name
    box_scale = _box_scale(args.other_sets_box_scale)
    if box_scale != (1.0, 1.0) and args.other_sets_repeats <= 0:
        raise UserError("--other-sets-box-scale grows alanchoi00's labels: give --other-sets-repeats 1 or more too")
    if args.resume:
        try:
            run = training.train(Path(), "", training.Recipe(), project, name, resume=True)
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from None
        print(f"resumed {run}")
        return 0
    if not args.data:
        raise UserError("--data: give at least one rendered folder (jantaku-lab synth --out DIR)")
    if not args.val:
        raise UserError("--val: give a validation folder (render one with another --seed)")
    model = args.model
    if model == "peer":
        model = str(training.checkpoint_from_peer(project / name / "init_peer.pt"))
    elif model.endswith(".onnx") and Path(model).is_file():
        try:
            images = training.calibration_batch([Path(d) for d in args.data], args.imgsz)
            model = str(training.checkpoint_from_onnx(project / name / "init_onnx.pt", Path(model), images))
        except (FileNotFoundError, ValueError) as exc:
            raise UserError(f"--model {args.model}: {exc}") from None
    elif not (model.endswith(".yaml") or Path(model).is_file()):
        raise UserError(f"--model {model}: not a model yaml and not a local checkpoint")
    spec = training.DataSpec(
        tuple(Path(d) for d in args.data),
        tuple(Path(d) for d in args.val),
        args.real_repeats,
        args.other_sets_repeats,
        box_scale,
    )
    try:
        data_yaml = training.assemble(spec, project / name / "data")
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from None
    recipe = training.Recipe(
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        workers=args.workers,
        lr0=args.lr0,
        cache=args.cache,
        close_mosaic=args.close_mosaic,
        hours=args.hours,
        val_every_epoch=not args.final_val_only,
        warmup_epochs=args.warmup_epochs,
        freeze=args.freeze,
        warmup_bias_lr=args.warmup_bias_lr
        if args.warmup_bias_lr is not None
        else (0.1 if args.model == "peer" or args.model.endswith(".yaml") else args.lr0),
    )
    run = training.train(data_yaml, model, recipe, project, name)
    print(f"trained {run}: weights in {run / 'weights'}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from vision.synth import DATA_VERSION
    from vision.train import training

    weights = Path(args.weights)
    if not weights.is_file():
        raise UserError(f"{weights} does not exist")
    meta = {
        "jantaku_data_version": DATA_VERSION,
        "jantaku_input": f"{args.imgsz}x{args.imgsz} letterboxed RGB, 0..1",
        "jantaku_train_imgsz": str(args.train_imgsz),
        "jantaku_tile_scale": "trained on tiles 4-15% of the frame's long side; slice larger frames to match",
    }
    out = training.export_onnx(weights, Path(args.out), args.imgsz, meta)
    size = out.stat().st_size / 1e6
    print(f"{out}: {size:.1f} MB")
    if size > 15:
        raise UserError(f"{out} is {size:.1f} MB, over the 15 MB limit")
    return 0


def cmd_val(args: argparse.Namespace) -> int:
    from vision.eval.evaluation import EVAL_SEED
    from vision.synth import DATA_VERSION, write_dataset
    from vision.train import training

    weights = Path(args.weights)
    if not weights.is_file():
        raise UserError(f"{weights} does not exist")
    out = Path(args.out)
    rendered = out / f"rendered_{DATA_VERSION}_{EVAL_SEED}_{args.n}"
    if not (rendered / "labels").is_dir() or len(list((rendered / "labels").glob("*.txt"))) != args.n:
        write_dataset(rendered, args.n, seed=EVAL_SEED, workers=2, progress=_Bar("held-out render"))
    sets = {
        f"rendered held-out (seed {EVAL_SEED}, {args.n} images, {DATA_VERSION})": training.write_data_yaml(
            out / "rendered.yaml", [rendered], [rendered]
        ),
        "real held-out (vision.eval.real_photos.held_out_split)": training.write_real_heldout(out),
    }
    for title, data_yaml in sets.items():
        for imgsz in args.imgsz:
            metrics = training.validate(weights, data_yaml, imgsz)
            print(f"{title} @ {imgsz}: {metrics.summary()}")
            if args.per_class:
                print("  " + " ".join(f"{k}={v:.2f}" for k, v in sorted(metrics.per_class_map50.items())))
    return 0
