"""Lab subcommands of the tile detector: ``eval detector``, ``eval camera``, ``eval phone``, ``bench detector``.

They read through the same :class:`vision.read.pipeline.Reader` as ``jantaku read`` (the reader options of
:mod:`device.commands.read`) and measure it with :mod:`vision.eval`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from device.cli import UserError
from device.commands.read import load_models, make_reader, model_args, operating_conf, reader_config
from vision.read.errors import VisionError

if TYPE_CHECKING:
    from vision.read.pipeline import ReaderConfig

#: ``--crop-views``: which crops the classifier reads in its other views.
CROP_VIEWS = ("all", "unsure")


def crop_views_arg(parser: argparse.ArgumentParser, reader: str, default: str) -> None:
    parser.add_argument(
        "--crop-views",
        choices=CROP_VIEWS,
        default=default,
        help=f"which crops the classifier of {reader} reads in its other views: all of them at once, or only those "
        f"its first two views leave unsure (the camera reader's budget) (default {default})",
    )


def with_crop_views(config, choice: str):
    """``config`` with the crop classifier reading ``choice`` (:data:`CROP_VIEWS`) of the crops in their other
    views: ``unsure`` as the camera's reader reads them, ``all`` as the photos' reader does."""
    from vision.read.classifier import SURE_IN_TWO_VIEWS
    from vision.read.pipeline import CAMERA_CROP_BATCH

    if choice == "unsure":
        return replace(config, crop_views_below=SURE_IN_TWO_VIEWS, crop_batch=CAMERA_CROP_BATCH)
    return replace(config, crop_views_below=None, crop_batch=None)


def register(commands) -> None:
    ev = commands.eval.add_parser("detector", help="rendered held-out set, real held-out photos, real single tiles")
    model_args(ev)
    crop_views_arg(ev, "the reader (jantaku read --pyramid)", "all")
    ev.add_argument("--only", default="rendered,real,crops", help="comma list of rendered, real, crops")
    ev.add_argument(
        "--n", type=int, default=None, help="rendered held-out images (default 1000: fewer pin mAP50 down less)"
    )
    ev.add_argument("--seed", type=int, default=None, help="renderer seed of the held-out set (default: the fixed one)")
    ev.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    ev.set_defaults(func=cmd_eval)

    camera = commands.eval.add_parser(
        "camera", help="the demo's tables with the camera turned to the table: read as they are, and squared to it"
    )
    model_args(camera)
    crop_views_arg(camera, "the camera's reader", "unsure")
    camera.add_argument("--turns", help="turns of the camera, degrees, comma list (default 0,10,20,30,45)")
    camera.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    camera.set_defaults(func=cmd_eval_camera)

    phone = commands.eval.add_parser(
        "phone", help="real held-out photos cut close or tiled, enlarged to phone size: the pyramid vs jantaku read"
    )
    model_args(phone)
    crop_views_arg(phone, "the pyramid reader", "all")
    phone.add_argument(
        "--zooms", help="close-ups: tile long side / frame height, comma list (default 0.1,0.2,0.3,0.45,0.6,0.8)"
    )
    phone.add_argument("--mosaics", help="k x k mosaics of photos, comma list (default 2,3)")
    phone.add_argument(
        "--turns", help="photos turned whole, degrees counter-clockwise, comma list (default 15,30,45,60,75,180)"
    )
    phone.add_argument("--lights", help="photos under badly balanced light, comma list (default warm,cool,dim)")
    phone.add_argument(
        "--squashes", help="photos squashed to these shares of their height: tiles seen lower (default 0.45,0.35)"
    )
    phone.add_argument(
        "--blurs",
        help="photos and camerash hands out of focus: blur sigma / tiles' width, comma list "
        "(default none; try 0.03,0.05)",
    )
    phone.add_argument(
        "--tilts",
        help="photos seen by a phone tilted away: the far edge's share of the near edge's width, comma list "
        "(default none; try 0.8,0.6)",
    )
    phone.add_argument(
        "--glares",
        help="photos and camerash hands under a lamp's reflection on glossy tiles: its strength at the centre "
        "(1: white), comma list (default none; try 0.5,0.9)",
    )
    phone.add_argument(
        "--red",
        action="store_true",
        help="also the photos and camerash hands that show a five, with every five's ink repainted red: red fives "
        "to read (none of the real photos shows one)",
    )
    phone.add_argument("--side", type=int, default=4000, help="long side of each shot, px (default 4000)")
    phone.add_argument("--seed", type=int, default=0, help="which tile each close-up frames (default 0)")
    phone.add_argument("--no-camerash", action="store_true", help="skip camerash's tiles (single, and in hands)")
    phone.add_argument(
        "--hands", type=int, default=16, help="hands of camerash's tiles per zoom (0.06, 0.1, 0.16; default 16)"
    )
    phone.add_argument(
        "--loose", type=int, default=12, help="shots of camerash's tiles lying loose and askew per zoom (default 12)"
    )
    phone.add_argument(
        "--readers",
        help="which readers, comma list of pyramid, scale (at its tiles' scale), read (jantaku read), camera (the "
        "camera's reader, each shot as it is); default all but camera. The pyramid takes most of the run's time",
    )
    phone.add_argument(
        "--views",
        help="the extra views jantaku read runs, comma list of photo_edge, low_angle, upside_down, white_balance, "
        "turned_tiles, or none (default: all of them, as jantaku read): to measure a view's removal",
    )
    phone.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    phone.set_defaults(func=cmd_eval_phone)

    real = commands.eval.add_parser(
        "real", help="real photos no model trained on, read whole as jantaku read reads them: P, R, exact, runs"
    )
    model_args(real)
    real.add_argument("--classifier", metavar="PATH", help="crop classifier ONNX (default: the one beside the model)")
    real.add_argument("--sets", help="comma list of leo-held-out, alanchoi00-valid, alanchoi00-test (default all)")
    real.add_argument("--views", help="the photo reader's views: none, or a comma list (default every view)")
    real.add_argument(
        "--reader",
        choices=("photo", "camera"),
        default="photo",
        help="photo: as jantaku read reads a photo (default); camera: as jantaku run reads the camera (its own "
        "detector and classifier), each photo as it is",
    )
    real.add_argument("--limit", type=int, default=None, help="at most this many photos of each set")
    real.add_argument(
        "--every", type=int, default=1, help="every Nth photo of each set, from the first (default 1: all of them)"
    )
    real.add_argument("--misses", action="store_true", help="also list the photos not read exactly")
    real.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    real.set_defaults(func=cmd_eval_real)

    ghosts = commands.eval.add_parser(
        "phantoms", help="boxes read over no labelled tile on rendered scenes (jantaku-lab synth --distractors 1)"
    )
    model_args(ghosts)
    ghosts.add_argument("--data", required=True, metavar="DIR", help="a YOLO folder (jantaku-lab synth --out DIR)")
    ghosts.add_argument(
        "--reader",
        choices=PHANTOM_READERS,
        default="photo",
        help="photo: as jantaku read reads a photo (default); table: as jantaku read --table; pyramid: the slice "
        "pyramid, no views; camera: as jantaku run reads the camera (its own detector), each image as it is",
    )
    ghosts.add_argument("--limit", type=int, default=None, help="at most this many images")
    ghosts.add_argument("--views", help="the photo reader's views: none, or a comma list (default every view)")
    ghosts.add_argument("--json", action="store_true", help="print one JSON object instead of a line")
    ghosts.set_defaults(func=cmd_eval_phantoms)

    moves = commands.eval.add_parser(
        "moves", help="how often a crop classifier renames a tile of camerash's hands when its box moves a little"
    )
    moves.add_argument("--model", metavar="PATH", help="crop classifier ONNX (default: the photos' classifier)")
    moves.add_argument("--share", type=float, default=None, help="each move, a share of the box's side (default 0.05)")
    moves.add_argument("--hands", type=int, default=16, help="hands of camerash's tiles per zoom (default 16)")
    moves.add_argument("--json", action="store_true", help="print one JSON object instead of a line")
    moves.set_defaults(func=cmd_eval_moves)

    dup = commands.eval.add_parser(
        "duplicates", help="every evaluation photo against every training photo: no copy of one in the other"
    )
    dup.add_argument("--bits", type=int, default=None, help="pairs this close are copies (default: DUPLICATE_BITS)")
    dup.add_argument("--json", action="store_true", help="print one JSON object")
    dup.set_defaults(func=cmd_eval_duplicates)

    bench = commands.bench.add_parser("detector", help="ms per 640x640 frame, ours beside mahjong-detector")
    bench.add_argument("--model", metavar="PATH", help="our ONNX model (default: models/tiles.onnx)")
    bench.add_argument("--peer", metavar="PATH", help="the peer's ONNX model (default: from mahjong-detector)")
    bench.add_argument("--runs", type=int, default=30, help="timed runs per model (at least 20; default 30)")
    bench.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads (default: its own)")
    bench.set_defaults(func=cmd_bench)

    read = commands.bench.add_parser(
        "read", help="runs, ms and operations per read, camera and photo readers, beside mahjong-detector's one pass"
    )
    model_args(read)
    crop_views_arg(read, "the camera's reader", "unsure")
    read.add_argument(
        "--image",
        nargs="+",
        metavar="F",
        help="images to read as they are (default: a demo frame's centre cut to 640x640, and a generated "
        "4000x3000 photo of a hand)",
    )
    read.add_argument("--rounds", type=int, default=5, help="timed reads per reader and image (default 5)")
    read.add_argument("--peer", metavar="PATH", help="the peer's ONNX model (default: from mahjong-detector)")
    read.add_argument(
        "--pi5-gmacs",
        type=float,
        default=None,
        help="assumed Raspberry Pi 5 throughput, 10^9 multiply-accumulates a second (default 21: see the output)",
    )
    read.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    read.set_defaults(func=cmd_bench_read)

    views = commands.bench.add_parser(
        "views", help="what each extra view of jantaku read adds: runs and ms, median over the real held-out photos"
    )
    model_args(views)
    views.add_argument("--rounds", type=int, default=1, help="reads per photo and reader (default 1)")
    views.add_argument(
        "--shots",
        choices=("photos", "phone"),
        default="photos",
        help="photos: the real held-out photos as they are (default); phone: eval phone's shots of them at 4000 px, "
        "one of each kind (close-up 0.3, 2x2 mosaics, turned 180, warm light, squashed 0.35), costs per kind",
    )
    views.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    views.set_defaults(func=cmd_bench_views)


def _progress(label: str):
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        print(f"\r{label}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)

    return show


def cmd_eval(args: argparse.Namespace) -> int:
    from vision.eval import evaluation
    from vision.read.labels import CLASS_NAMES

    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = set(parts) - {"rendered", "real", "crops"}
    if unknown:
        raise UserError(f"--only takes rendered, real, crops; not {', '.join(sorted(unknown))}")
    # AP candidates are found down to conf 0.001 inside the evaluation; P, R and single-tile top-1 count what the
    # detector reports at the operating threshold (on a single tile, finding nothing is a miss).
    conf = operating_conf(args)
    # what jantaku read --pyramid reads with (the detector and the crop classifier shipped beside it, if any), and
    # the detector alone, on the same networks
    config = with_crop_views(reader_config(args, pyramid=True), args.crop_views)
    models = load_models(config)
    detector = make_reader(replace(config, classifier=None), replace(models, classifier=None)).detector
    two_stage = make_reader(config, models) if models.classifier is not None else None
    report: dict = {"model": str(models.network.path), "conf": conf}
    if models.classifier is not None:
        report["classifier"] = str(models.classifier.path)
    try:
        if "rendered" in parts:
            seed = evaluation.EVAL_SEED if args.seed is None else args.seed
            n = evaluation.RENDERED_IMAGES if args.n is None else args.n
            if n < 1:
                raise UserError(f"--n is a count of rendered images: 1 or more, not {n}")
            both = evaluation.eval_rendered(detector, n, seed, conf, _progress("rendered"), two_stage)
            r = both.detector
            report["rendered"] = {
                "images": n,
                "seed": seed,
                "map50": round(r.map50, 4),
                **_interval(both),
                "map50_95": round(r.map50_95, 4),
                "precision": round(r.precision, 4),
                "recall": round(r.recall, 4),
                "per_class": evaluation.class_table(r, CLASS_NAMES),
                **_as_read(both.read),
            }
        if "real" in parts:
            both = evaluation.eval_real(detector, conf_threshold=conf, progress=_progress("real"), reader=two_stage)
            r = both.detector
            report["real"] = {
                "map50": round(r.map50, 4),
                **_interval(both),
                "map50_95": round(r.map50_95, 4),
                "precision": round(r.precision, 4),
                "recall": round(r.recall, 4),
                "f1": round(r.f1, 4),
                "per_class": evaluation.class_table(r, CLASS_NAMES),
                **_as_read(both.read),
            }
        if "crops" in parts:
            crops = {}
            readers = [("detector", detector)] + ([("as read", two_stage)] if two_stage is not None else [])
            for (label, who), placement in ((r, p) for r in readers for p in ("table", "as-is")):
                c = evaluation.eval_crops(who, placement=placement, progress=_progress(f"crops {label} {placement}"))
                crops[f"{label}, {placement}"] = {
                    "n": c.n,
                    "top1": round(c.top1, 4),
                    "per_tile": {str(t): [sum(k.values()), k[t]] for t, k in c.predictions.items()},
                    "confusions": [[str(t), str(p) if p else "none", k] for t, p, k in c.confusions()],
                }
            report["crops"] = crops
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from exc
    if args.json:
        print(json.dumps(report))
    else:
        _print_eval(report)
    return 0


def labelled_stills(recording: Path) -> list:
    """The recording's frames the loop reads (held for more than one tick), each with its labels, for
    :func:`vision.eval.camera.evaluate`."""
    import cv2

    from device.camera.sources import MANIFEST_NAME, Frame, load_manifest
    from device.commands.run import RecordedLabels
    from vision.eval.camera import LabelledFrame

    entries = load_manifest(recording)
    if entries is None:
        raise FileNotFoundError(f"{recording}: no {MANIFEST_NAME}")
    labels = RecordedLabels(recording)
    out = []
    for entry in entries:
        if entry.hold > 1:
            image = cv2.imread(str(entry.path))
            out.append(LabelledFrame(entry.path.name, image, tuple(labels(Frame(image, origin=entry.path.name)))))
    return out


def cmd_eval_camera(args: argparse.Namespace) -> int:
    from device.demo import RECORDING
    from vision.eval.camera import TURNS, evaluate

    try:
        turns = TURNS if args.turns is None else [float(t) for t in args.turns.split(",") if t.strip()]
    except ValueError as exc:
        raise UserError(f"--turns takes numbers, comma separated: {exc}") from exc
    from vision.read.pipeline import ReaderConfig

    # as jantaku run reads the camera, frame by frame (the evaluation squares frames to the table itself)
    model = Path(args.model) if args.model else None
    camera = replace(ReaderConfig.for_camera(model, conf=operating_conf(args)), threads=args.threads)
    reader = make_reader(with_crop_views(camera, args.crop_views))
    frames = labelled_stills(RECORDING)
    report = {
        name: {f"{t:g}": tally.as_json() for t, tally in evaluate(reader, frames, turns, squared=sq).items()}
        for name, sq in (("as they are", False), ("squared to the table", True))
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print("the demo's tables, the camera turned to the table (labelled tiles read, boxes more, tables read by seat):")
    for name, by_turn in report.items():
        print(f"  {name}:")
        for t, r in by_turn.items():
            print(
                f"    {t:>5} degrees: tiles {r['right']}/{r['tiles']}, {r['other_boxes']} boxes more, tables "
                f"{r['tables_read']}/{r['tables']}, median {r['median_s']} s a frame"
            )
    return 0


#: ``jantaku-lab eval phone --readers``: each key, and the name its figures go under.
PHONE_READERS = {"pyramid": "pyramid", "scale": "at scale", "read": "jantaku read", "camera": "camera"}
#: The readers ``eval phone`` reads with when ``--readers`` names none: the photo readers.
PHONE_DEFAULT_READERS = ("pyramid", "scale", "read")


def cmd_eval_phone(args: argparse.Namespace) -> int:
    from vision.eval.phone_evaluation import (
        LIGHTS,
        MOSAICS,
        SQUASHES,
        TURNS,
        ZOOMS,
        blurred_shot,
        camerash_hands,
        camerash_loose,
        evaluate,
        glared_hands,
        half_turned_hand,
        phone_shots,
    )
    from vision.eval.real_photos import held_out_split

    try:
        zooms = ZOOMS if args.zooms is None else [float(z) for z in args.zooms.split(",") if z.strip()]
        mosaics = MOSAICS if args.mosaics is None else [int(k) for k in args.mosaics.split(",") if k.strip()]
        turns = TURNS if args.turns is None else [float(t) for t in args.turns.split(",") if t.strip()]
        lights = list(LIGHTS) if args.lights is None else [t.strip() for t in args.lights.split(",") if t.strip()]
        squashes = SQUASHES if args.squashes is None else [float(f) for f in args.squashes.split(",") if f.strip()]
        blurs = [] if args.blurs is None else [float(f) for f in args.blurs.split(",") if f.strip()]
        tilts = [] if args.tilts is None else [float(f) for f in args.tilts.split(",") if f.strip()]
        glares = [] if args.glares is None else [float(f) for f in args.glares.split(",") if f.strip()]
    except ValueError as exc:
        raise UserError(
            "--zooms, --squashes, --blurs, --tilts, --glares and --turns take numbers, --mosaics whole numbers, comma "
            f"separated: {exc}"
        ) from exc
    if any(not 0 < f <= 1 for f in tilts):
        raise UserError("--tilts are the far edge's share of the near edge's width: above 0, at most 1")
    if any(not 0 < f <= 1 for f in glares):
        raise UserError("--glares are the reflection's strength at its centre: above 0, at most 1 (white)")
    if any(not 0 <= f <= 0.5 for f in blurs):
        raise UserError("--blurs are shares of a tile's width: 0 to 0.5")
    if any(not 0 < f <= 1 for f in squashes):
        raise UserError("--squashes are above 0 and at most 1 (a share of the photo's height)")
    if any(not 0 < z <= 1 for z in zooms) or any(k < 1 for k in mosaics) or args.side < 64 or args.hands < 0:
        raise UserError("--zooms are above 0 and at most 1, --mosaics at least 1, --side at least 64, --hands >= 0")
    if args.loose < 0:
        raise UserError("--loose is a count of shots: 0 or more")
    if unknown := [t for t in lights if t not in LIGHTS]:
        raise UserError(f"--lights: no light {', '.join(unknown)} (there are {', '.join(LIGHTS)})")
    wanted = (
        list(PHONE_DEFAULT_READERS)
        if args.readers is None
        else [r.strip() for r in args.readers.split(",") if r.strip()]
    )
    if not wanted or (unknown := [r for r in wanted if r not in PHONE_READERS]):
        raise UserError(f"--readers: one or more of {', '.join(PHONE_READERS)}, comma separated")
    read = replace(reader_config(args), views=parse_views(args.views))
    configs = {
        "pyramid": with_crop_views(reader_config(args, pyramid=True), args.crop_views),
        # at its tiles' scale only: what reading turned tiles upright and balancing the light add to it
        "scale": replace(read, views=()),
        "read": read,
    }
    camera = camera_reader_config(args, views=False)
    try:
        models = load_models(read)
        makers = {key: lambda key=key: make_reader(configs[key], models) for key in configs}
        # the camera reads with its own detector, and shares the photo readers' network where it is the same file
        makers["camera"] = lambda: make_reader(camera, load_models(camera, beside=models))
        readers = {PHONE_READERS[key]: makers[key]() for key in PHONE_READERS if key in wanted}
        photos = held_out_split()
    except (VisionError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    shots = phone_shots(
        photos, zooms, mosaics, args.side, args.seed, turns, lights, squashes, blurs, tilts, glares, args.red
    )
    result = evaluate(readers, shots)
    report = _tallies_json(result)
    single, hands, hands_turned, hands_blurred, hands_glared, hands_red, loose = {}, {}, {}, {}, {}, {}, {}
    if not args.no_camerash:  # a phone photo of one tile: camerash's close-ups as they are, the tile filling them
        from vision.eval.evaluation import eval_bonus, eval_crops

        try:
            for name, reader in readers.items():
                c = eval_crops(reader, placement="as-is", progress=_progress(f"camerash as-is, {name}"))
                bonus = eval_bonus(reader)  # flowers and seasons: no riichi tile, so any tile named is wrong
                named = sum(k for t, k in bonus.items() if t is not None)
                single[name] = {"n": c.n, "top1": round(c.top1, 4), "bonus_read_as_tile": [named, sum(bonus.values())]}
            if args.hands:  # another set's tiles in a row, as a phone photographs a hand (and from across)
                read = evaluate(readers, camerash_hands(args.hands, seed=args.seed, side=args.side))
                hands = _tallies_json(read)
                shots = map(half_turned_hand, camerash_hands(args.hands, seed=args.seed, side=args.side))
                hands_turned = _tallies_json(evaluate(readers, shots))
                if blurs:  # the same hands out of focus (each hand drawn once, then blurred by each share)
                    shots = (
                        blurred_shot(shot, b)
                        for shot in camerash_hands(args.hands, seed=args.seed, side=args.side)
                        for b in blurs
                    )
                    hands_blurred = _tallies_json(evaluate(readers, shots))
                if glares:  # the same hands under a lamp's reflection
                    shots = glared_hands(camerash_hands(args.hands, seed=args.seed, side=args.side), glares, args.seed)
                    hands_glared = _tallies_json(evaluate(readers, shots))
                if args.red:  # the same hands that hold a five, their fives inked red
                    shots = camerash_hands(args.hands, seed=args.seed, side=args.side, red=True)
                    hands_red = _tallies_json(evaluate(readers, shots))
            if args.loose:  # another set's tiles lying loose, each turned its own way
                read = evaluate(readers, camerash_loose(args.loose, seed=args.seed, side=args.side))
                loose = _tallies_json(read)
        except FileNotFoundError as exc:
            print(f"jantaku-lab eval phone: camerash skipped: {exc}", file=sys.stderr)
    if args.json:
        print(
            json.dumps(
                {
                    "side": args.side,
                    "seed": args.seed,
                    "readers": report,
                    "camerash_as_is": single,
                    "camerash_hands": hands,
                    "camerash_hands_turned": hands_turned,
                    "camerash_hands_blurred": hands_blurred,
                    "camerash_hands_glared": hands_glared,
                    "camerash_hands_red": hands_red,
                    "camerash_loose": loose,
                }
            )
        )
        return 0
    print(f"real held-out photos at phone size ({args.side} px long side), precision / recall / F1, exact shots:")
    for name, kinds in report.items():
        print(f"  {name}:")
        _print_tallies(kinds)
        if name in single:
            one = single[name]
            named, n = one["bonus_read_as_tile"]
            print(f"    {'one tile filling':>16}: top-1 {one['top1']:.3f} on {one['n']} camerash photos")
            print(f"    {'flowers, seasons':>16}: {named} of {n} camerash bonus tiles read as a riichi tile (wrong)")
    for title, tallies in (
        ("in rows, as a hand is photographed", hands),
        ("in rows, photographed from across the table (to read in the owner's order)", hands_turned),
        ("in rows, out of focus (blur / tiles' width)", hands_blurred),
        ("in rows, under a lamp's reflection (its strength)", hands_glared),
        ("in rows, their fives inked red", hands_red),
        ("lying loose, each turned its own way", loose),
    ):
        if tallies:
            print(f"another set's tiles (camerash's photos) {title}; tile height / shot height:")
            for name, kinds in tallies.items():
                print(f"  {name}:")
                _print_tallies(kinds)
    return 0


def parse_views(text: str | None) -> tuple[str, ...]:
    """``--views``: the views named (in :data:`~vision.read.pipeline.VIEWS`' order), ``none``, or all when None."""
    from vision.read.pipeline import VIEWS

    if text is None:
        return VIEWS
    names = [v.strip() for v in text.split(",") if v.strip()]
    if names == ["none"]:
        return ()
    unknown = [v for v in names if v not in VIEWS]
    if not names or unknown:
        named = f" (not {', '.join(map(repr, unknown))})" if unknown else ""
        raise UserError(f"--views: none, or one or more of {', '.join(VIEWS)}, comma separated{named}")
    return tuple(v for v in VIEWS if v in names)


def _tallies_json(result: dict) -> dict:
    """Per reader, per kind of shot: the tally as JSON."""
    return {name: {kind: t.as_json() for kind, t in kinds.items()} for name, kinds in result.items()}


def _print_tallies(kinds: dict) -> None:
    for kind, r in sorted(kinds.items(), key=lambda kv: kv[0] == "all"):  # each kind of shot, then all of them
        print(
            f"    {kind:>16}: P {r['precision']:.3f}  R {r['recall']:.3f}  F1 {r['f1']:.3f}  "
            f"exact {r['exact']}/{r['shots']}  ({r['tiles']} tiles, median {r['median_ms']} ms)"
            + (f"  in order {r['in_order']}/{r['texts']}" if r.get("texts") else "")
        )


def _as_read(result) -> dict:
    """P, R and F1 of what ``jantaku read`` reports with its second stage (empty without one)."""
    if result is None:
        return {}
    return {"as_read": {k: round(getattr(result, k), 4) for k in ("precision", "recall", "f1")}}


def _interval(results) -> dict:
    low, high = results.map50_interval
    return {"map50_interval": [round(low, 4), round(high, 4)]}


def _print_eval(report: dict) -> None:
    print(f"model: {report['model']}")
    for key, title in (("rendered", "rendered held-out set"), ("real", "real photos, held-out split")):
        if key not in report:
            continue
        r = report[key]
        extra = f" ({r['images']} images, seed {r['seed']})" if key == "rendered" else ""
        low, high = r["map50_interval"]
        print(
            f"\n{title}{extra}: mAP50 {r['map50']:.4f} (95 % of image sets: {low:.4f}-{high:.4f})  "
            f"mAP50-95 {r['map50_95']:.4f}  "
            f"P {r['precision']:.4f}  R {r['recall']:.4f}  (P, R at conf {report['conf']}, IoU 0.5)"
        )
        if "as_read" in r:
            a = r["as_read"]
            print(
                f"  as read (detector + crop classifier): P {a['precision']:.4f}  R {a['recall']:.4f}  F1 {a['f1']:.4f}"
            )
        print(f"  {'class':<6}{'n':>5}{'AP50':>8}{'AP50-95':>9}{'P':>8}{'R':>8}")
        for row in r["per_class"]:
            print(
                f"  {row['class']:<6}{row['n']:>5}{row['ap50']:>8.3f}{row['ap50_95']:>9.3f}"
                f"{row['precision']:>8.3f}{row['recall']:>8.3f}"
            )
    if "crops" in report:
        print()
        for label, c in report["crops"].items():
            print(f"camerash single tiles ({label}): top-1 {c['top1']:.4f} on {c['n']} photos of shared kinds")
        for label, c in report["crops"].items():
            if not label.endswith("table"):
                continue
            print(f"\n  per tile ({label}): " + "  ".join(f"{t} {ok}/{n}" for t, (n, ok) in c["per_tile"].items()))
            print(
                f"  confusions ({label}; true -> predicted: count): "
                + ", ".join(f"{t}->{p}: {k}" for t, p, k in c["confusions"])
            )


def cmd_bench(args: argparse.Namespace) -> int:
    from vision.eval.bench import compare, peer_model_path
    from vision.read.detector import default_model_path

    if args.runs < 20:
        raise UserError(f"--runs must be at least 20, not {args.runs}")
    ours = Path(args.model) if args.model else default_model_path()
    try:
        peer = Path(args.peer) if args.peer else peer_model_path()
        for path in (ours, peer):
            if not path.is_file():
                raise UserError(f"no model at {path}")
        a, b = compare(ours, peer, runs=args.runs, threads=args.threads)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    threads = args.threads or "onnxruntime default"
    print(f"ms per 640x640 frame, onnxruntime CPU, {args.runs} runs each, interleaved, threads: {threads}")
    for label, t in (("ours", a), ("peer mahjong-detector 0.0.6", b)):
        print(
            f"  {label:<28} median {t.median_ms:7.1f}  p10 {t.p10_ms:6.1f}  p90 {t.p90_ms:6.1f}  "
            f"load {t.load_ms:5.0f} ms  (input {'x'.join(map(str, t.input_shape))}, {t.path.name})"
        )
    ratio = a.median_ms / b.median_ms
    print(f"  ratio ours / peer: {ratio:.3f}  (target <= 1.1)")
    return 0


#: ``jantaku-lab bench read``: the readers measured, by the name their figures go under.
BENCH_READERS = ("camera", "photo")


def bench_images(paths: list[str] | None) -> list[tuple[str, str, object]]:
    """``jantaku-lab bench read``'s images: (name, where it came from, BGR array)."""
    import cv2
    import numpy as np

    from vision.eval.reading_bench import square_640
    from vision.read.images import load_image

    if paths:
        try:
            return [(Path(p).name, p, load_image(p)) for p in paths]
        except VisionError as exc:
            raise UserError(str(exc)) from exc
    from device.demo import RECORDING
    from device.lab.site_bench import make_photo

    frame = RECORDING / "000.jpg"
    photo = cv2.imdecode(np.frombuffer(make_photo(), np.uint8), cv2.IMREAD_COLOR)
    return [
        ("frame_640", f"{frame}, its centre square resized to 640x640", square_640(cv2.imread(str(frame)))),
        ("photo_12mp", "bench photo's generated 4000x3000 hand (device/lab/site_bench.py make_photo)", photo),
    ]


def cmd_bench_read(args: argparse.Namespace) -> int:
    from vision.eval.bench import peer_model_path
    from vision.eval.reading_bench import PI5_GMACS, PI5_SOURCE, PeerDetector, ReadBench, time_reads
    from vision.read.pipeline import ReaderConfig

    if args.rounds < 1:
        raise UserError(f"--rounds must be at least 1, not {args.rounds}")
    gmacs = PI5_GMACS if args.pi5_gmacs is None else args.pi5_gmacs
    if gmacs <= 0:
        raise UserError(f"--pi5-gmacs must be above 0, not {gmacs}")
    images = bench_images(args.image)
    model = Path(args.model) if args.model else None
    conf = operating_conf(args)
    configs = {
        "camera": with_crop_views(
            replace(ReaderConfig.for_camera(model, conf=conf), threads=args.threads), args.crop_views
        ),
        "photo": ReaderConfig.for_photo(model, conf=conf, threads=args.threads),
    }
    photo_models = load_models(configs["photo"])
    # each reader's own detector and classifier, one detector shared where both name it, as jantaku run loads them
    per_reader = {"camera": load_models(configs["camera"], beside=photo_models), "photo": photo_models}
    benches = {name: ReadBench(make_reader(config, per_reader[name])) for name, config in configs.items()}
    peer, peer_missing = None, None
    try:
        peer = PeerDetector(Path(args.peer) if args.peer else peer_model_path(), args.threads)
    except VisionError as exc:
        peer_missing = str(exc)
    except Exception as exc:  # onnxruntime's own errors on a file that is not a model
        raise UserError(f"the peer model {args.peer}: {exc}") from exc
    who = [*BENCH_READERS, *(["peer"] if peer else [])]
    pairs = [(benches[w] if w != "peer" else peer, image) for _, _, image in images for w in who]
    timings = iter(time_reads(pairs, args.rounds))
    report: dict = {
        "rounds": args.rounds,
        "threads": args.threads,
        "pi5": {"gmacs_per_s": gmacs, "source": PI5_SOURCE if args.pi5_gmacs is None else "given by --pi5-gmacs"},
        "peer": str(peer.path) if peer else None,
        **({"peer_missing": peer_missing} if peer_missing else {}),
        "images": [],
    }
    for name, source, image in images:
        entry: dict = {"name": name, "source": source, "size": [image.shape[1], image.shape[0]]}
        for w in who:
            entry[w] = next(timings).as_json(gmacs)
        if peer:
            entry["peer"].pop("networks")
            peer_ms = entry["peer"]["median_ms"]
            entry["ratio_to_peer"] = {w: round(entry[w]["median_ms"] / peer_ms, 2) for w in BENCH_READERS}
        report["images"].append(entry)
    if args.json:
        print(json.dumps(report))
        return 0
    threads = args.threads or "its default"
    print(f"per read, onnxruntime CPU, threads: {threads}, {args.rounds} rounds each, interleaved")
    print(f"Pi 5 estimate: {report['pi5']['source']}")
    if peer_missing:
        print(f"no peer: {peer_missing}")
    for entry in report["images"]:
        print(f"  {entry['name']} ({entry['size'][0]}x{entry['size'][1]}; {entry['source']}):")
        for w in who:
            r = entry[w]
            ratio = f"  {entry['ratio_to_peer'][w]}x the peer" if w in entry.get("ratio_to_peer", {}) else ""
            print(
                f"    {w:<7} {r['runs']:>3} runs  best {r['best_ms']:8.1f} ms  median {r['median_ms']:8.1f} ms  "
                f"{r['macs'] / 1e9:7.2f} GMAC  Pi 5 ~{r['pi5_ms_estimate']:8.0f} ms{ratio}"
            )
    return 0


#: ``jantaku-lab bench views --shots phone``: one of each kind of eval phone's shots (its options --zooms 0.3
#: --mosaics 2 --turns 180 --lights warm --squashes 0.35, at its default 4000 px).
BENCH_VIEW_SHOTS = {"zooms": (0.3,), "mosaics": (2,), "turns": (180.0,), "lights": ("warm",), "squashes": (0.35,)}


def cmd_bench_views(args: argparse.Namespace) -> int:
    from vision.eval.phone_evaluation import phone_shots
    from vision.eval.reading_bench import ReadBench, view_costs
    from vision.eval.real_photos import held_out_split
    from vision.read.images import load_image
    from vision.read.pipeline import VIEWS

    if args.rounds < 1:
        raise UserError(f"--rounds must be at least 1, not {args.rounds}")
    full = reader_config(args)
    models = load_models(full)
    configs = {"all": full, "none": replace(full, views=())}
    configs |= {v: replace(full, views=tuple(w for w in VIEWS if w != v)) for v in VIEWS}
    readers = {name: ReadBench(make_reader(config, models)) for name, config in configs.items()}
    try:
        photos = held_out_split()
    except (VisionError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    if args.shots == "phone":  # kind by kind, one kind's 12 MP shots in memory at a time
        shots = itertools.groupby(phone_shots(photos, **BENCH_VIEW_SHOTS), key=lambda shot: shot.kind)
        groups = ((kind, [shot.image for shot in group]) for kind, group in shots)
    else:
        groups = iter([("as they are", [load_image(p.image) for p in photos])])
    report = {"shots": args.shots, "rounds": args.rounds, "threads": args.threads, "kinds": {}}
    for kind, images in groups:
        # "none" goes in as if it were a view: every view's cost together
        whole, views = view_costs(readers, images, args.rounds)
        costs = {c.view: c.as_json() for c in views}
        report["kinds"][kind] = {
            "images": len(images),
            "read": whole.as_json(),
            "all_views": costs.pop("none"),
            "views": costs,
        }
    if args.json:
        print(json.dumps(report))
        return 0
    print("what each view adds to jantaku read on the real held-out photos: median (mean) runs and ms a read")
    for kind, entry in report["kinds"].items():
        read = entry["read"]
        print(f"  {kind} ({entry['images']} images; a read: {read['runs']:g} runs, {read['ms']:.1f} ms):")
        for view, c in (*entry["views"].items(), ("all of them", entry["all_views"])):
            print(
                f"    {view:<14} {c['runs']:>5g} ({c['mean_runs']:5.2f}) runs  {c['ms']:8.1f} ({c['mean_ms']:8.1f}) ms"
                f"  adds runs on {c['images_with_runs']}/{c['images']}"
            )
    return 0


def cmd_eval_real(args: argparse.Namespace) -> int:
    from vision.eval.real_sets import SETS, evaluate_sets

    names = list(SETS) if args.sets is None else [n.strip() for n in args.sets.split(",") if n.strip()]
    if not names or (unknown := [n for n in names if n not in SETS]):
        named = f" (not {', '.join(unknown)})" if names else ""
        raise UserError(f"--sets: one or more of {', '.join(SETS)}, comma separated{named}")
    if args.limit is not None and args.limit < 1:
        raise UserError("--limit is a count of photos: at least 1")
    if args.every < 1:
        raise UserError(f"--every N reads every Nth photo: N at least 1, not {args.every}")
    if args.reader == "camera":
        config = camera_reader_config(args)
    else:
        config = replace(reader_config(args), views=parse_views(args.views))
    if args.classifier:
        if not Path(args.classifier).is_file():
            raise UserError(f"--classifier {args.classifier}: no such file")
        config = replace(config, classifier=Path(args.classifier))
    reader = make_reader(config)
    try:
        results = evaluate_sets({"read": reader}, names, args.limit, every=args.every)
    except (VisionError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    report = {name: by_reader["read"].as_json() for name, by_reader in results.items()}
    if args.misses:
        for name, by_reader in results.items():
            report[name]["misses"] = by_reader["read"].misses
    if args.json:
        print(json.dumps(report))
        return 0
    for name, r in report.items():
        print(
            f"{name:>18}: P {r['precision']:.3f}  R {r['recall']:.3f}  F1 {r['f1']:.3f}  "
            f"exact {r['exact']}/{r['shots']}  ({r['tiles']} tiles, median {r['median_ms']} ms, "
            f"runs median {r['runs_median']} max {r['runs_max']})"
            + (f"; {r['set_aside']} photos set aside (labels wrong, or stretched)" if r["set_aside"] else "")
        )
        if backs := r.get("labelled_backs"):
            print(
                f"{'':>20}backs labelled by eye: {backs['no_tile_read']} of {backs['no_tile']} that are no tile read, "
                f"{backs['tiles_read']} of {backs['tiles']} tiles"
            )
        for miss in r.get("misses", ()):
            print(f"    {miss[0]}: {miss[1]} right of {miss[2]} read, {miss[3]} there")
    return 0


def camera_reader_config(args: argparse.Namespace, views: bool = True) -> ReaderConfig:
    """The camera's reader as the options ask (``--model``, ``--conf``, ``--threads``), reading each image as it is:
    not squared to a table, so that its boxes are the image's, to compare with the image's labels. ``views``: whether
    ``--views`` would name this reader's views (and so is refused); false where it names another reader's."""
    from vision.read.pipeline import ReaderConfig, TableMode

    if views and args.views is not None:
        raise UserError("--views are the photo reader's: the camera's reader has none")
    model = Path(args.model) if args.model else None
    camera = ReaderConfig.for_camera(model, conf=operating_conf(args))
    return replace(camera, threads=args.threads, table_mode=TableMode.NONE)


#: ``jantaku-lab eval phantoms --reader``: the photo reader as each of these reads, or the camera's reader.
PHANTOM_READERS = ("photo", "table", "pyramid", "camera")


def cmd_eval_phantoms(args: argparse.Namespace) -> int:
    from vision.eval.phantoms import count_phantoms, labelled_scenes

    if args.limit is not None and args.limit < 1:
        raise UserError("--limit is a count of images: at least 1")
    if args.reader == "camera":
        config = camera_reader_config(args)
    else:
        config = reader_config(args, table=args.reader == "table", pyramid=args.reader == "pyramid")
        config = replace(config, views=parse_views(args.views)) if args.views is not None else config
    data = Path(args.data)
    if not (data / "images").is_dir():
        raise UserError(f"--data {data}: no images/ folder (jantaku-lab synth --out DIR writes one)")
    reader = make_reader(config)
    try:
        report = count_phantoms(reader, labelled_scenes(data, args.limit)).as_json()
    except (VisionError, FileNotFoundError, ValueError) as exc:
        raise UserError(f"--data {data}: {exc}") from exc
    report = {"data": str(data), "reader": args.reader} | report
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{report['shots']} images, {report['tiles']} tiles: {report['phantoms']} phantom boxes "
        f"({report['phantoms_per_image']} an image, in {report['images_with_phantoms']} images, at most "
        f"{report['most_in_one_image']}); P {report['precision']:.3f}  R {report['recall']:.3f}  "
        f"F1 {report['f1']:.3f}  exact {report['exact']}/{report['shots']}"
    )
    if report["read_as"]:
        print("  read as: " + ", ".join(f"{tile} {n}" for tile, n in report["read_as"].items()))
    return 0


def cmd_eval_moves(args: argparse.Namespace) -> int:
    from vision.eval.box_moves import MOVE_SHARE, name_changes
    from vision.eval.phone_evaluation import camerash_hands
    from vision.read.classifier import SHIPPED_PHOTO_CLASSIFIER, OnnxTileClassifier

    share = MOVE_SHARE if args.share is None else args.share
    if not 0 < share <= 0.5:
        raise UserError("--share is a share of the box's side: above 0 and at most 0.5")
    if args.hands < 1:
        raise UserError("--hands is a count: at least 1")
    path = Path(args.model) if args.model else SHIPPED_PHOTO_CLASSIFIER
    try:
        classifier = OnnxTileClassifier(path)
        report = name_changes(classifier, camerash_hands(args.hands), share).as_json()
    except (VisionError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from exc
    report = {"model": str(path), "share": share} | report
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{report['tiles']} tiles of camerash's hands, {report['right']} read right as boxed; moved {share:g} of a "
        f"side, {report['unsteady']} read otherwise at least once ({report['changed']} of {report['readings']} "
        "readings)"
    )
    return 0


def cmd_eval_duplicates(args: argparse.Namespace) -> int:
    """Exit 1 when an evaluation photo is a copy of a training photo."""
    from vision.eval import other_sets, real_photos
    from vision.eval.evaluation import DEFAULT_CAMERASH
    from vision.eval.near_duplicates import DUPLICATE_BITS, check

    bits = DUPLICATE_BITS if args.bits is None else args.bits
    try:
        training = [p.image for p in real_photos.training_split()] + [p.image for p in other_sets.load_split("train")]
        evaluation = [p.image for p in real_photos.held_out_split()]
        evaluation += [p.image for split in ("valid", "test") for p in other_sets.load_split(split)]
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from exc
    evaluation += sorted(DEFAULT_CAMERASH.glob("tiles-resized/**/*.jpg"))  # evaluation only, when present
    report = check(evaluation, training)
    copies = report.under(bits)
    result = {
        "evaluation": report.evaluation,
        "training": report.training,
        "nearest_bits": report.closest[0][0] if report.closest else None,
        "nearest": [[b, str(e), str(t)] for b, e, t in report.closest[:5]],
        "copies": [[b, str(e), str(t)] for b, e, t in copies],
        "bits": bits,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{report.evaluation} evaluation photos against {report.training} training photos (256-bit dhash)")
        for b, e, t in report.closest[:5]:
            print(f"  {b:3d} bits: {e.name} ~ {t.name}")
        print(f"copies (at most {bits} bits apart): {len(copies)}")
    return 1 if copies else 0
