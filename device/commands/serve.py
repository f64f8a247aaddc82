"""``jantaku serve``: the phone site alone (no camera), over a table service with its game log on disk.

    jantaku serve [--host H] [--port P] [--pin PIN] [--db PATH] [--rules NAME] [--model ONNX] [--streams N]

``serve`` runs :func:`web.create_app` over a :class:`~device.table.service.TableService` on waitress
(:mod:`device.commands.site`), with enough threads for every open event stream (each phone's stream holds one
thread) plus some for ordinary requests. The table's URL is printed on the console, and which file holds the
PIN (never the PIN itself). Its benches (``bench soak``, ``bench photo``) are in :mod:`device.lab.site_bench`.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device.cli import UserError
from engine.rules import PRESETS

if TYPE_CHECKING:
    from vision.read.pipeline import Reader

#: Most open event streams (phones) by default.
DEFAULT_STREAMS = 32


def photo_reader(model: str | None) -> Reader | None:
    """The phone photos' reader (:meth:`vision.read.pipeline.ReaderConfig.for_photo`) on the model at ``model``
    (None: the default one), or None when there is no model file."""
    from device.commands.read import make_reader
    from device.commands.run import model_path
    from device.config import Config
    from vision.read.pipeline import ReaderConfig

    path = model_path(Config(), model)
    return make_reader(ReaderConfig.for_photo(path)) if path.is_file() else None


# --- serve ----------------------------------------------------------------------------------------------------


def serve_command(args: argparse.Namespace) -> int:
    from device.commands.memory import limit_malloc_arenas

    limit_malloc_arenas()  # before any thread allocates (see device.commands.memory)
    from device.commands.access import default_pin_file, table_pin
    from device.commands.site import print_welcome, start_site
    from device.table.pin import pin_problem
    from device.table.service import TableService
    from engine.rules import preset

    if args.pin and pin_problem(args.pin):
        raise UserError(f"--pin: {pin_problem(args.pin)}")
    if not 1 <= args.streams <= 512:
        raise UserError("--streams is 1..512")
    reader = photo_reader(args.model)
    if reader is None:
        print("jantaku serve: no detector model: photos cannot be read (pass --model)", file=sys.stderr)
    db = Path(args.db).expanduser()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--db: cannot create {db.parent} ({exc.strerror})") from None
    pin_file = Path(args.pin_file).expanduser() if args.pin_file else default_pin_file(db)
    pin, pin_where = table_pin(args.pin, "", pin_file)
    try:
        service = TableService(
            pin=pin,
            rules=preset(args.rules),
            db_path=str(db),
            photo_reader=reader,
            corrections_dir=str(db.parent / "corrections"),
            max_streams=args.streams,
        )
    except (sqlite3.Error, OSError) as exc:  # a read-only or full disk, a file that is no database
        from device.table.storage import storage_problem

        raise UserError(storage_problem(db, exc)) from None
    site = start_site(service, args.host, args.port)
    try:
        print(f"Jantaku table: {service.url}   (rules {args.rules}, game log {db})", flush=True)
        print_welcome(service, pin_where, sys.stdout)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        service.bus.close()
        site.close()
        service.close()
    return 0


def register(commands: Any) -> None:
    p = commands.top.add_parser("serve", help="the phone site alone (no camera): join, score, settle")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--pin", default="", help="the table's PIN, 6-12 digits (shows in ps: prefer --pin-file)")
    p.add_argument(
        "--pin-file",
        default="",
        metavar="PATH",
        help="a file holding the PIN (default: pin beside --db, made with a random PIN if missing)",
    )
    p.add_argument("--db", default="~/.local/share/jantaku/jantaku.db", help="the game's event log (SQLite)")
    p.add_argument("--rules", default="standard", type=str.lower, choices=tuple(PRESETS))
    p.add_argument("--model", default=None, help="detector ONNX (default: models/tiles.onnx)")
    p.add_argument("--streams", type=int, default=DEFAULT_STREAMS, help="most open event streams (phones)")
    p.set_defaults(func=serve_command)
