"""Subcommands of the tile crop classifier: ``train-classifier``, ``blend-classifier`` and ``eval classifier``.

``jantaku-lab train-classifier`` builds crop sets once into ``datasets/crops/`` (rendered scenes of YOLO folders written
by ``jantaku-lab synth`` and/or freshly rendered scenes, the real photos' training split, with ``--cards N`` single-tile
cards of other sets' faces from :mod:`vision.synth.cards`, with ``--cards-brush N`` cards of character tiles
drawn with brushed glyphs, of 1s birds and of 6p as other sets draw them, with ``--cards-bonus N`` cards of
flower and season tiles as no tile, and with ``--cards-distractors N`` cards of things on the table that are not tiles
(keys, white boxes, phones, an automatic table's panel, rim and slots, sticks, chips, dice, hands) as no tile),
trains the small CNN on the CPU in one thread, and exports ``models/tile_classifier.onnx``. torch is needed for
training only.

``jantaku-lab blend-classifier FIRST SECOND --share S`` averages the weights of a classifier and of one trained on from
it (:mod:`vision.train.weight_blend`).

``jantaku-lab eval classifier`` measures top-1 on held-out rendered crops (renderer seed of the detector's held-out
set), on crops of the real held-out split's labelled boxes, and on camerash single-tile photos, each with its
confusions; with ``--detector`` it also reads the real held-out photos with the detector alone and with the
classifier as its second stage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from device.cli import UserError
from device.lab.training import require_cjk_font
from vision.read.errors import VisionError

if TYPE_CHECKING:
    from vision.read.classifier import TwoStageDetector
    from vision.read.detector import Detector

DEFAULT_CROPS = Path("datasets/crops")
#: The bonus cards' seed is ``--cards-seed`` plus this: card ``i`` of each set is then drawn from its own stream.
BONUS_SEED_OFFSET = 1_000_003
#: The brushed cards' seed is ``--cards-seed`` plus this (likewise).
BRUSH_SEED_OFFSET = 2_000_003
#: The distractor cards' seed is ``--cards-seed`` plus this (likewise).
DISTRACTOR_SEED_OFFSET = 3_000_003


def register(commands) -> None:
    tr = commands.top.add_parser("train-classifier", help="train the tile crop classifier (CPU, one thread)")
    tr.add_argument("--data", nargs="*", default=[], metavar="DIR", help="YOLO folders of rendered scenes")
    tr.add_argument("--limit", type=int, default=None, help="at most this many images of each --data folder")
    tr.add_argument("--render", type=int, default=0, metavar="N", help="also render N fresh scenes")
    tr.add_argument("--render-seed", type=int, default=7100, help="renderer seed of those scenes (default 7100)")
    tr.add_argument("--real-repeats", type=int, default=16, help="jittered crops per real training box (0: none)")
    tr.add_argument("--background", type=int, default=2, help="no-tile crops per rendered scene (default 2)")
    tr.add_argument("--real-background", type=int, default=24, help="no-tile crops per real photo (default 24)")
    tr.add_argument(
        "--other-sets-repeats",
        type=int,
        default=0,
        help="jittered crops per box of alanchoi00's training photos, other physical sets; flowers as none, tiles "
        "its labels leave out painted out (default 0)",
    )
    tr.add_argument(
        "--cards", type=int, default=0, metavar="N", help="also N single-tile cards (vision.synth.cards; default 0)"
    )
    tr.add_argument("--cards-seed", type=int, default=500, help="seed of the cards (default 500)")
    tr.add_argument("--cards-none", type=float, default=0.08, help="share of no-tile cards (default 0.08)")
    tr.add_argument(
        "--cards-bonus",
        type=int,
        default=0,
        metavar="N",
        help="also N no-tile cards of flower and season tiles, which riichi does not use (default 0)",
    )
    tr.add_argument(
        "--cards-distractors",
        type=int,
        default=0,
        metavar="N",
        help="also N no-tile cards of things on the table that are not tiles: laptop keys, white boxes, paper, phones, "
        "cups, an automatic table's panel, rim and slots, point sticks, chips, dice, hands (default 0)",
    )
    tr.add_argument(
        "--cards-brush",
        type=int,
        default=0,
        metavar="N",
        help="also N cards of character tiles (man, winds, Green, Red) with brushed glyphs and of 1s birds and 6p "
        "as other sets draw them",
    )
    tr.add_argument("--crops", default=str(DEFAULT_CROPS), metavar="DIR", help="where crop sets are cached")
    tr.add_argument("--epochs", type=int, default=12)
    tr.add_argument("--batch", type=int, default=128)
    tr.add_argument("--lr", type=float, default=3e-3)
    tr.add_argument("--width", type=int, default=32, help="channels of the first full stage (default 32)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument(
        "--init",
        metavar="ONNX",
        help="go on from this classifier (one train-classifier wrote; its width is kept) instead of fresh weights",
    )
    tr.add_argument("--warmup", type=float, default=0.15, help="share of the run warming up to --lr (default 0.15)")
    tr.add_argument(
        "--box-noise",
        type=float,
        default=None,
        metavar="SHARE",
        help="standard deviation of each box edge's shift in the crops of labelled boxes (rendered, real, other sets), "
        "as a share of the box's size: the detector's boxes stray so (default: Jitter's, 0.06)",
    )
    tr.add_argument(
        "--blur",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of each batch blurred afresh at every step, as a photo out of focus (default 0)",
    )
    tr.add_argument(
        "--blur-sigma",
        type=float,
        nargs=2,
        default=(0.6, 2.6),
        metavar=("LO", "HI"),
        help="range of that blur's standard deviation in crop pixels (default 0.6 2.6; a crop is 48 px wide)",
    )
    tr.add_argument(
        "--glare",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of each batch given a lamp's reflection afresh at every step, as on glossy tiles (default 0)",
    )
    tr.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    tr.add_argument("--max-minutes", type=float, default=None, help="stop training after this long")
    tr.add_argument("--out", default="models/tile_classifier.onnx", help="ONNX file to write")
    tr.set_defaults(func=cmd_train)

    bl = commands.top.add_parser(
        "blend-classifier",
        help="average two classifiers' weights (one trained on from the other): read as fast as either",
    )
    bl.add_argument("first", help="classifier ONNX (the one trained on from, e.g. the shipped one)")
    bl.add_argument("second", help="classifier ONNX trained on from FIRST (train-classifier --init FIRST)")
    bl.add_argument("--share", type=float, default=0.5, help="the second's share of each weight, 0 to 1 (default 0.5)")
    bl.add_argument("--out", required=True, help="ONNX file to write")
    bl.set_defaults(func=cmd_blend)

    qu = commands.top.add_parser(
        "quantize-classifier", help="a crop classifier in 8 bits (int8), calibrated on real crops: read 3 times as fast"
    )
    qu.add_argument("model", help="classifier ONNX exported by train-classifier (float)")
    qu.add_argument("--out", required=True, help="ONNX file to write")
    qu.add_argument("--seed", type=int, default=0, help="seed of the calibration crops (default 0)")
    qu.set_defaults(func=cmd_quantize)

    ev = commands.eval.add_parser("classifier", help="top-1 of the crop classifier: rendered, real, camerash")
    ev.add_argument("--model", metavar="PATH", help="classifier ONNX (default: models/tile_classifier.onnx)")
    ev.add_argument("--only", default="rendered,real,crops", help="comma list of rendered, real, crops")
    ev.add_argument("--n", type=int, default=200, help="held-out rendered images (default 200)")
    ev.add_argument(
        "--detector",
        metavar="PATH",
        help="also read the real held-out photos (and camerash, as eval detector does) with this detector, alone and "
        "with the classifier",
    )
    ev.add_argument("--conf", type=float, default=0.25, help="the detector's operating confidence (default 0.25)")
    ev.add_argument(
        "--one-view",
        action="store_true",
        help="read each crop once, not in the four views the runtime averages (as the network was trained)",
    )
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.set_defaults(func=cmd_eval)


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cached_crops(path: Path, build) -> object:
    """The crop set saved at ``path``, or ``build()``'s, saved there first (training's crops are made once a
    folder: the same seed and counts read back)."""
    from vision.train.classifier_training import CropSet

    if path.is_file():
        data = CropSet.load(path)
        _log(f"{path}: {len(data)} crops (cached)")
        return data
    started = time.perf_counter()
    data = build()
    data.save(path)
    _log(f"{path}: {len(data)} crops in {time.perf_counter() - started:.0f} s")
    return data


def cmd_train(args: argparse.Namespace) -> int:
    from vision.train.classifier_training import (
        EVAL_SEED,
        CropSet,
        Jitter,
        TrainOptions,
        crops_bonus_cards,
        crops_brush_cards,
        crops_cards,
        crops_distractor_cards,
        crops_of,
        crops_real_held_out,
        export_onnx,
        other_set_scenes,
        real_scenes,
        rendered_scenes,
        report_dict,
        train,
        yolo_scenes,
    )

    if args.render_seed == EVAL_SEED:
        raise UserError(f"--render-seed {EVAL_SEED} is the held-out set's seed; pick another")
    if args.epochs < 1 or args.batch < 1:
        raise UserError("--epochs and --batch must be at least 1")
    counts = (args.cards, args.cards_bonus, args.cards_distractors, args.cards_brush, args.render, args.real_repeats,
              args.other_sets_repeats)  # fmt: skip
    if min(counts) < 0:
        raise UserError(
            "--cards, --cards-bonus, --cards-distractors, --cards-brush, --render, --real-repeats and "
            "--other-sets-repeats are counts: 0 or more"
        )
    if not 0.0 <= args.warmup < 1.0:
        raise UserError("--warmup is a share of the run: at least 0, under 1")
    if not 0.0 <= args.blur <= 1.0:
        raise UserError("--blur is a share of each batch: 0 to 1")
    if args.box_noise is not None and not 0.0 <= args.box_noise <= 0.3:
        raise UserError("--box-noise is a share of a box's size: 0 to 0.3")
    if not 0.0 <= args.glare <= 1.0:
        raise UserError("--glare is a share of each batch: 0 to 1")
    if not 0.0 < args.blur_sigma[0] <= args.blur_sigma[1] <= 8.0:
        raise UserError("--blur-sigma LO HI: 0 < LO <= HI <= 8 (pixels of a crop 64 high, 48 wide)")
    if args.cards_brush:  # before any crop set is built
        require_cjk_font("--cards-brush")
    try:  # after the arguments: a wrong option is named whether or not torch is here
        import torch  # noqa: F401
    except ImportError as exc:
        raise UserError("training the classifier needs torch (pip install torch); reading does not") from exc
    width = args.width
    if args.init:
        from vision.train.classifier_training import network_from_onnx

        try:
            width = network_from_onnx(args.init).features[0][0].out_channels * 2
        except Exception as exc:  # onnx raises its own kinds for a file that is not a model
            raise UserError(f"--init {args.init}: {exc}") from exc
    crops = Path(args.crops)
    parts = []
    jitter = Jitter() if args.box_noise is None else Jitter(box_noise=args.box_noise)
    # crops cut with another box noise are another set: cached under their own name
    noise = "" if jitter.box_noise == Jitter().box_noise else f"_bn{jitter.box_noise:g}"
    for i, folder in enumerate(args.data):
        folder = Path(folder)
        if not (folder / "images").is_dir():
            raise UserError(f"{folder}: no images/ folder (a YOLO folder as jantaku-lab synth writes)")
        stem = f"{folder.parent.name}_{folder.name}_{args.limit or 'all'}"
        name = f"{stem}_bg{args.background}_s{args.seed + i}{noise}.npz"
        parts.append(
            cached_crops(
                crops / name,
                lambda f=folder, s=args.seed + i: crops_of(
                    yolo_scenes(f, args.limit), background=args.background, jitter=jitter, seed=s
                ),
            )
        )
    if args.render:
        name = f"render_{args.render_seed}_{args.render}_bg{args.background}_s{args.seed}{noise}.npz"
        parts.append(
            cached_crops(
                crops / name,
                lambda: crops_of(
                    rendered_scenes(args.render_seed, args.render),
                    background=args.background,
                    jitter=jitter,
                    seed=args.seed + 100,
                ),
            )
        )
    if args.real_repeats:
        try:
            name = f"real_train_x{args.real_repeats}_bg{args.real_background}_s{args.seed}{noise}.npz"
            parts.append(
                cached_crops(
                    crops / name,
                    lambda: crops_of(
                        real_scenes(held_out=False),
                        per_box=args.real_repeats,
                        background=args.real_background,
                        jitter=jitter,
                        seed=args.seed + 200,
                    ),
                )
            )
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from exc
    if args.other_sets_repeats:
        try:
            name = (
                f"other_sets_painted_train_x{args.other_sets_repeats}_bg{args.real_background}_s{args.seed}{noise}.npz"
            )
            parts.append(
                cached_crops(
                    crops / name,
                    lambda: crops_of(
                        other_set_scenes("train"),
                        per_box=args.other_sets_repeats,
                        background=args.real_background,
                        jitter=jitter,
                        seed=args.seed + 300,
                    ),
                )
            )
        except FileNotFoundError as exc:
            raise UserError(str(exc)) from exc
    if args.cards:
        if not 0.0 <= args.cards_none <= 1.0:
            raise UserError("--cards-none is a share: 0 to 1")
        name = f"cards_{args.cards}_none{args.cards_none:g}_s{args.cards_seed}.npz"
        parts.append(cached_crops(crops / name, lambda: crops_cards(args.cards, args.cards_seed, args.cards_none)))
    bonus_seed = args.cards_seed + BONUS_SEED_OFFSET
    if args.cards_bonus:
        name = f"cards_bonus_{args.cards_bonus}_s{bonus_seed}.npz"
        parts.append(cached_crops(crops / name, lambda: crops_bonus_cards(args.cards_bonus, bonus_seed)))
    distractor_seed = args.cards_seed + DISTRACTOR_SEED_OFFSET
    if args.cards_distractors:
        name = f"cards_distractors_{args.cards_distractors}_s{distractor_seed}.npz"
        parts.append(
            cached_crops(crops / name, lambda: crops_distractor_cards(args.cards_distractors, distractor_seed))
        )
    brush_seed = args.cards_seed + BRUSH_SEED_OFFSET
    if args.cards_brush:
        name = f"cards_brush4_{args.cards_brush}_s{brush_seed}.npz"  # 4: v7 cards + lifted West, packed 6p
        parts.append(cached_crops(crops / name, lambda: crops_brush_cards(args.cards_brush, brush_seed)))
    data = CropSet.concat(parts)
    if not len(data):
        raise UserError(
            "no training crops: pass --data DIR, --render N, --real-repeats K, --cards N, --cards-brush N, "
            "--cards-bonus N or --cards-distractors N"
        )
    try:
        val = crops_real_held_out()  # watched, never used to choose anything
    except FileNotFoundError:
        val = None
    _log(f"training on {len(data)} crops; classes seen: {int((data.counts() > 0).sum())} of {len(data.counts())}")
    options = TrainOptions(
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        seed=args.seed,
        threads=args.threads,
        width=width,
        max_seconds=args.max_minutes * 60 if args.max_minutes else None,
        warmup=args.warmup,
        init=args.init,
        blur=args.blur,
        blur_sigma=tuple(args.blur_sigma),
        glare=args.glare,
    )
    model, report = train(data, options, val=val, log=_log)
    meta = report_dict(report, options)
    rendered = [f"render:{args.render_seed}:{args.render}"] if args.render else []
    meta["sources"] = [str(p) for p in args.data] + rendered
    meta["real_repeats"] = args.real_repeats
    meta["other_sets_repeats"] = args.other_sets_repeats
    meta["box_noise"] = jitter.box_noise
    if args.cards:
        meta["cards"] = {"n": args.cards, "seed": args.cards_seed, "none_share": args.cards_none}
    if args.cards_bonus:
        meta["cards_bonus"] = {"n": args.cards_bonus, "seed": bonus_seed}
    if args.cards_distractors:
        meta["cards_distractors"] = {"n": args.cards_distractors, "seed": distractor_seed}
    if args.cards_brush:
        meta["cards_brush"] = {"n": args.cards_brush, "seed": brush_seed}
    out = export_onnx(model, args.out, {"training": json.dumps(meta)})
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, **meta}))
    return 0


def cmd_blend(args: argparse.Namespace) -> int:
    from vision.read.classifier import OnnxTileClassifier
    from vision.train.weight_blend import BlendError, blend_onnx

    for path in (args.first, args.second):
        if not Path(path).is_file():
            raise UserError(f"{path}: no such file")
    try:
        import onnx  # noqa: F401
    except ImportError as exc:
        raise UserError("blending needs the onnx package (pip install onnx); reading does not") from exc
    try:
        out = blend_onnx(args.first, args.second, args.share, args.out)
    except BlendError as exc:
        raise UserError(str(exc)) from exc
    except Exception as exc:  # onnx raises its own kinds for a file that is not a model
        raise UserError(f"{args.first}, {args.second}: {exc}") from exc
    try:
        OnnxTileClassifier(out)  # the blend opens as a classifier, or the error says why
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, "share": args.share}))
    return 0


def cmd_quantize(args: argparse.Namespace) -> int:
    from vision.read.classifier import OnnxTileClassifier

    try:
        source = OnnxTileClassifier(args.model)  # a classifier, or the error says why
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    if "quantized" in source.metadata:
        raise UserError(f"{args.model}: already quantized; quantize the float file it came from")
    try:
        from vision.train.quantize import calibration_crops, quantize_crop_model
    except ImportError as exc:
        raise UserError("quantizing needs the onnx package (pip install onnx); reading does not") from exc
    started = time.perf_counter()
    crops = calibration_crops(seed=args.seed)
    out = quantize_crop_model(args.model, args.out, crops)
    try:
        OnnxTileClassifier(out)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    seconds = round(time.perf_counter() - started, 1)
    print(json.dumps({"out": str(out), "bytes": out.stat().st_size, "calibration": len(crops), "seconds": seconds}))
    return 0


def _confusions(true, pred, names) -> list[tuple[str, str, int]]:
    c = Counter((names(t), names(p)) for t, p in zip(true, pred, strict=True) if t != p)
    return [(t, p, k) for (t, p), k in c.most_common()]


def _class_name(c) -> str:
    from vision.read.classifier import NOT_A_TILE
    from vision.read.labels import CLASS_NAMES

    return CLASS_NAMES[int(c)] if c >= 0 else NOT_A_TILE


def _per_class(true, pred) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t, p in zip(true, pred, strict=True):
        row = out.setdefault(_class_name(t), [0, 0])
        row[0] += int(t == p)
        row[1] += 1
    return out


def camerash_crops(root=None, margin: float | None = None):
    """camerash single-tile photos of the tiles we share, each the whole photo as one upright crop, and the truth.

    The label mapping is :func:`vision.eval.evaluation.camerash_tile` (their seasons and flowers are skipped)."""

    from vision.eval.evaluation import camerash_rows, camerash_tile
    from vision.read.classifier import CROP_MARGIN, CROP_SIZE, extract_crop
    from vision.read.geometry import Box
    from vision.read.images import load_image
    from vision.read.labels import class_of_tile

    margin = CROP_MARGIN if margin is None else margin
    base, rows = camerash_rows(root)
    xs, ys = [], []
    for name, label in rows:
        tile = camerash_tile(label)
        if tile is None:
            continue
        try:
            image = load_image(base / "tiles-resized" / name)
        except VisionError:
            continue
        h, w = image.shape[:2]
        # the photo is the tile's face: its box is the whole photo, cropped as at run time (the margin beyond the
        # photo's edge repeats its edge pixels)
        xs.append(extract_crop(image, Box(0.0, 0.0, float(w), float(h)), CROP_SIZE, margin))
        ys.append(class_of_tile(tile))
    return xs, ys


def cmd_eval(args: argparse.Namespace) -> int:
    import numpy as np

    from vision.read.classifier import OnnxTileClassifier, default_classifier_path
    from vision.read.labels import FIVE_KINDS, NUM_KINDS
    from vision.train.classifier_training import crops_real_held_out, crops_rendered_held_out

    path = Path(args.model) if args.model else default_classifier_path()
    if path is None:
        raise UserError("no classifier: pass --model PATH")
    try:
        classifier = OnnxTileClassifier(path, views=not args.one_view)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = only - {"rendered", "real", "crops"}
    if unknown:
        raise UserError(f"--only takes rendered, real, crops; not {', '.join(sorted(unknown))}")
    result: dict = {"model": str(path), "bytes": path.stat().st_size, "views": classifier.view_names}

    def top1(name, x, y, deaka=False):
        started = time.perf_counter()
        probs, none = classifier.all_probabilities(np.asarray(x)) if len(x) else (np.zeros((0, 38)), np.zeros(0))
        ms = (time.perf_counter() - started) * 1000 / max(1, len(x))
        pred = np.where(probs.max(1) >= none, probs.argmax(1), -1)  # -1: read as no tile (a miss)
        if deaka:  # camerash has no red fives: a red five read as a five is right
            pred = np.array([FIVE_KINDS[p - NUM_KINDS] if NUM_KINDS <= p < NUM_KINDS + 3 else p for p in pred])
        y = np.asarray(y)
        result[name] = {
            "n": len(y),
            "top1": round(float((pred == y).mean()), 4) if len(y) else None,
            "ms_per_crop": round(ms, 3),
            "per_class": _per_class(y, pred),
            "confusions": _confusions(y, pred, _class_name)[:20],
        }

    try:
        if "rendered" in only:
            data = crops_rendered_held_out(args.n)
            top1("rendered", data.x, data.y)
        if "real" in only:
            data = crops_real_held_out()
            top1("real", data.x, data.y)
        if "crops" in only:
            x, y = camerash_crops(margin=classifier.margin)
            top1("camerash", x, y, deaka=True)
        if args.detector and "real" in only:
            result["detector_real"] = _detector_real(args, classifier)
        if args.detector and "crops" in only:
            result["detector_camerash"] = _detector_camerash(args, classifier)
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from exc
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"classifier {path} ({result['bytes']} bytes), each crop read as: {', '.join(result['views'])}")
    for name in ("rendered", "real", "camerash"):
        if name in result:
            r = result[name]
            print(f"\n{name}: top-1 {r['top1']} on {r['n']} crops ({r['ms_per_crop']} ms per crop)")
            print("  confusions (true -> read: count): " + ", ".join(f"{t}->{p}: {k}" for t, p, k in r["confusions"]))
            weak = sorted(((k, c / n, n) for k, (c, n) in r["per_class"].items() if c < n), key=lambda v: v[1])
            print("  classes under 100 %: " + ", ".join(f"{k} {a:.2f} (n={n})" for k, a, n in weak[:20]))
    if "detector_real" in result:
        print("\nreal held-out photos, read with the detector (same threshold):")
        for name, r in result["detector_real"].items():
            print(
                f"  {name:>12}: precision {r['precision']}, recall {r['recall']}, F1 {r['f1']}, "
                f"frames read exactly {r['exact']}/{r['frames']}"
            )
    if "detector_camerash" in result:
        print("\ncamerash photos shown as a tile on a table (the protocol of jantaku-lab eval detector), top-1:")
        for name, r in result["detector_camerash"].items():
            print(f"  {name:>12}: {r['top1']} on {r['n']}; confusions: {r['confusions']}")
    return 0


def _readers(args, classifier) -> tuple[Detector, TwoStageDetector]:
    """The detector alone and with ``classifier`` (the one under test) as its second stage, as the reader's
    factory builds them (:mod:`vision.read.pipeline`), on one network."""
    from device.commands.read import make_reader
    from vision.read.classifier import TwoStageDetector
    from vision.read.pipeline import Models, ReaderConfig

    config = ReaderConfig(Path(args.detector) if args.detector else None, classifier=None, conf=args.conf)
    alone = make_reader(config)
    assert alone.models is not None
    two = make_reader(config, Models(alone.models.network, classifier)).detector
    assert isinstance(two, TwoStageDetector)
    return alone.detector, two


def _detector_camerash(args, classifier) -> dict:
    """camerash top-1 as ``jantaku-lab eval detector`` measures it (:func:`vision.eval.evaluation.eval_crops`), with the
    detector alone and with the classifier as second stage."""
    from vision.eval.evaluation import eval_crops

    detector, two = _readers(args, classifier)
    out = {}
    for name, d in (("detector", detector), ("two_stage", two)):
        r = eval_crops(d)
        top = ", ".join(f"{t}->{p}: {k}" for t, p, k in r.confusions()[:10])
        out[name] = {"n": r.n, "top1": round(r.top1, 4), "confusions": top}
    return out


def _detector_real(args, classifier) -> dict:
    """Precision / recall (IoU 0.5, right class) of what the detector reports on the real held-out photos, alone and
    with the classifier; a box mostly on a tile the labels leave out counts neither way."""
    from vision.eval.real_photos import held_out_split
    from vision.read.images import load_image

    detector, two = _readers(args, classifier)
    stats = {"detector": [0, 0, 0, 0], "two_stage": [0, 0, 0, 0]}  # tp, n_pred, n_true, exact frames
    photos = held_out_split()
    for photo in photos:
        image = load_image(photo.image)
        h, w = image.shape[:2]
        truth = [(b.class_id, b.xyxy(w, h)) for b in photo.boxes]
        base = detector.detect(image)
        both = two.classify_detections(image, base)
        for name, found in (("detector", base), ("two_stage", both)):
            dets = [d for d in found if not photo.in_unlabelled(d.box, w, h)]
            tp = _matches(truth, [(d.class_id, (d.box.x1, d.box.y1, d.box.x2, d.box.y2), d.conf) for d in dets])
            s = stats[name]
            s[0] += tp
            s[1] += len(dets)
            s[2] += len(truth)
            s[3] += int(tp == len(truth) == len(dets))
    out = {}
    for name, (tp, npred, ntrue, exact) in stats.items():
        p = tp / npred if npred else 0.0
        r = tp / ntrue if ntrue else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        out[name] = {
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(f1, 4),
            "exact": exact,
            "frames": len(photos),
        }
    return out


def _matches(truth, preds, iou: float = 0.5) -> int:
    """Greedy matching, most confident first: a prediction is right when it overlaps an unmatched truth of its class
    at IoU >= ``iou``."""
    from vision.read.geometry import Box

    used = set()
    tp = 0
    for c, box, _ in sorted(preds, key=lambda p: -p[2]):
        b = Box(*box)
        best, best_iou = None, iou
        for i, (tc, tbox) in enumerate(truth):
            if i in used or tc != c:
                continue
            v = b.iou(Box(*tbox))
            if v >= best_iou:
                best, best_iou = i, v
        if best is not None:
            used.add(best)
            tp += 1
    return tp
