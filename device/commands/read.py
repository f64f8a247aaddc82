"""The tile detector's runtime subcommand, ``read`` (its lab ones, ``eval ...`` and ``bench detector``:
device.lab.vision).

``jantaku read IMAGE... [--json] [--annotate OUT] [--model PATH] [--table]`` prints, per image, the face-up tiles in
reading order (mpsz, one group per row); with ``--json`` one JSON line per image::

    {"file": ..., "tiles": "123m 55z", "detections": [{"tile": "1m", "box": [x1, y1, x2, y2], "conf": 0.97}, ...],
     "ms": <inference milliseconds>}

``--table`` (an overhead photo of a whole table) adds each seat's hand, melds, pond and wall, and the dora
indicators (:mod:`vision.read.table`): a line per seat, or ``"table"`` in the JSON line.

Nothing on this path imports torch or ultralytics: the model runs on onnxruntime.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from device.cli import UserError
from vision.read.errors import VisionError

if TYPE_CHECKING:
    from vision.read.pipeline import Models, Reader, ReaderConfig

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def register(commands) -> None:
    read = commands.top.add_parser("read", help="read the tiles in photos (mpsz, one group per row)")
    read.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument("--annotate", metavar="OUT", help="write the image with labelled boxes: a file, or a folder")
    read.add_argument(
        "--table",
        action="store_true",
        help="an overhead photo of a whole table: also group the tiles by seat (hand, melds, pond, wall, dora)",
    )
    read.add_argument(
        "--pyramid",
        action="store_true",
        help="read every level of the slice pyramid, as the camera does (so does --table; default: the whole photo "
        "first, then slices or a view from afar as its tiles' size calls for)",
    )
    model_args(read)
    read.set_defaults(func=cmd_read)


def model_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        metavar="PATH",
        help="ONNX detector (default: $JANTAKU_MODEL, else models/tiles.onnx; the camera's reader:"
        " models/tiles_camera.onnx)",
    )
    parser.add_argument("--conf", type=float, default=None, help="lowest confidence kept (default 0.25)")
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads (default: its own)")


def operating_conf(args: argparse.Namespace) -> float:
    from vision.read.detector import DetectorOptions

    conf = DetectorOptions().conf if args.conf is None else args.conf
    if not 0 < conf <= 1:
        raise UserError(f"--conf must be above 0 and at most 1, not {conf}")
    return conf


def _annotation_path(out: Path, image: Path, many: bool) -> Path:
    if out.suffix.lower() in IMAGE_SUFFIXES and not many:
        return out
    return out / f"{image.stem}.annotated.jpg"


def reader_config(args: argparse.Namespace, **photo) -> ReaderConfig:
    """The photo reader's configuration the options ask for (``--model``, ``--conf``, ``--threads``)."""
    from vision.read.pipeline import ReaderConfig

    model = Path(args.model) if args.model else None
    return ReaderConfig.for_photo(model, conf=operating_conf(args), threads=args.threads, **photo)


def load_models(config: ReaderConfig, beside: Models | None = None) -> Models:
    from vision.read.pipeline import Models

    try:
        return Models.load(config, beside)
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def make_reader(config: ReaderConfig, models: Models | None = None) -> Reader:
    from vision.read.pipeline import Reader

    try:
        return Reader.from_config(config, models=models)
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def cmd_read(args: argparse.Namespace) -> int:
    from vision.read.annotate import annotate, write_image
    from vision.read.images import load_image

    # a photo's tiles may be any size and lie turned: read it at the scale they call for, upright; an overhead photo
    # of a whole table is read as the camera reads one, where a wrong guess would lose the table
    reader = make_reader(reader_config(args, pyramid=args.pyramid, table=args.table))
    failed = 0
    for name in args.images:
        try:
            image = load_image(name)
        except VisionError as exc:
            print(f"jantaku read: {exc}", file=sys.stderr)
            failed += 1
            continue
        reading = reader.read(image)
        if args.json:
            record = {
                "file": name,
                "tiles": reading.text,
                "detections": [d.as_json() for d in reading.detections],
                "ms": round(reading.ms, 1),
                "runs": reading.runs,
                "left_out": list(reading.left_out),  # extra readings the reading budget left out
            }
            if reading.table is not None:
                record["table"] = reading.table.as_json()
                # the table's own points (its centre, boxes it could not place) are of the photo turned back so
                record["table"]["turn"] = round(reading.turn, 1)
            print(json.dumps(record), flush=True)
        else:
            backs = f", {reading.backs} face down" if reading.backs else ""
            print(
                f"{name}: {reading.text or '(no tiles)'}  [{len(reading.tiles)} tiles{backs}, {reading.ms:.0f} ms]",
                flush=True,
            )
            for line in reading.table.describe() if reading.table is not None else ():
                print(f"  {line}", flush=True)
        if args.annotate:
            path = _annotation_path(Path(args.annotate), Path(name), len(args.images) > 1)
            write_image(path, annotate(image, list(reading.detections)))
    return 2 if failed else 0  # each unreadable image has had its one line on stderr
