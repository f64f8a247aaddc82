"""``jantaku run``: the table's main job — the camera loop and the phone site, together.

    jantaku run [--config FILE] [--demo | --camera N | --replay PATH] [--host H] [--port P] [--pin PIN]
                [--model ONNX] [--no-site] [--duration S]

With no config file the defaults apply; with no camera (``kind = "auto"``: a Pi camera, else USB camera 0)
the bundled demo recording plays, so ``pip install -e . && jantaku run`` shows the whole thing on any machine.
A camera asked for by name that is not there yet is waited for (with back-off), the site running meanwhile.

The camera loop (:class:`device.camera.loop.ServiceLoop`) feeds each new, still table through the camera's reader
(:meth:`vision.read.pipeline.ReaderConfig.for_camera`) into :meth:`device.table.service.TableService.observe`, and
tells :meth:`~device.table.service.TableService.hold` of each frame that shows the same table: the service plays what
it sees into the game (a discard settles over a few frames). The site (``web.create_app`` on waitress) shows it.
The demo settles the win it shows after :data:`DEMO_AUTO_CONFIRM_S` (``[game] auto_confirm_s`` when set) seconds of
its recording (:meth:`~device.camera.sources.FileReplaySource.clock`: however slowly a machine reads it, the win is
scored while it lies open); between its recorded hands :class:`device.demo.director.DemoDirector` plays others, and
starts a new game after each end.
SIGINT / SIGTERM (Ctrl-C, ``systemctl stop``) stop both cleanly.
"""

from __future__ import annotations

import logging
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from device.camera.loop import ChangeGate, ServiceLoop
from device.camera.sources import FileReplaySource, Frame, FrameSource
from device.cli import UserError
from device.commands.site import Site, print_welcome, start_site
from device.config import Config, ConfigError, find_config

if TYPE_CHECKING:  # vision is imported when a table is started, not for every command
    from collections.abc import Sequence

    from device.demo.director import DemoDirector
    from vision.read.detector import Detection, Detector
    from vision.read.geometry import Box
    from vision.read.pipeline import Reader, ReaderConfig, Reading

log = logging.getLogger("jantaku.run")

#: Seconds of the recording (:meth:`FileReplaySource.clock`) after which the demo's win settles itself (points move)
#: when the config sets no ``auto_confirm_s``.
DEMO_AUTO_CONFIRM_S = 3.0


# --- from a frame to an observation ------------------------------------------------------------------------


def reading_summary(reading: Reading, origin: str = "") -> str:
    """One line of what the camera read in a frame (``origin``: the frame's file name or source)."""
    h, w = reading.image.shape[:2]
    return (
        f"{origin or 'frame'} ({w}x{h}): {reading.text or '(no face-up tiles)'}"
        f" [{len(reading.detections)} tiles, {reading.backs} face down, {reading.ms:.0f} ms]"
    )


@dataclass
class FrameReader:
    """The loop's ``read``: a frame through the camera's :class:`~vision.read.pipeline.Reader`, only round the zones
    that changed when the loop tells them (:class:`~vision.read.pipeline.IncrementalReader`), into its
    :class:`~vision.read.pipeline.Reading` (the frame as read: squared to the table). With ``recorded``, the reader's
    detector is the recording's labels, told first which frame it is reading."""

    reader: Reader
    recorded: RecordedLabels | None = None
    #: Where the frame last read came from (its file name or source).
    origin: str = ""

    def __post_init__(self) -> None:
        from vision.read.pipeline import IncrementalReader

        self.incremental = IncrementalReader(self.reader)

    def __call__(self, frame: Frame, zones: Sequence[Box] | None = None) -> Reading:
        self.origin = frame.origin
        if self.recorded is not None:
            self.recorded.origin = frame.origin
        return self.incremental.read(frame.image, zones)


class RecordedLabels:
    """A :class:`~vision.read.detector.Detector` for a machine without the detector model: the demo recording's own
    labels of the frame named :attr:`origin`, as detections.

    The recording is rendered, so its labels are exact: this shows the loop, reader and site working, not the
    detector. ``jantaku run`` says so when it falls back to it.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        #: The file name of the frame :meth:`detect` is shown (:class:`FrameReader` sets it).
        self.origin = ""

    def __call__(self, frame: Frame) -> list[Detection]:
        """The labels of ``frame`` (by its origin), in its size."""
        self.origin = frame.origin
        return self.detect(frame.image)

    def detect(self, image: np.ndarray) -> list[Detection]:
        from vision.read.detector import Detection
        from vision.read.geometry import Box
        from vision.read.labels import parse_labels

        path = self.folder / "labels" / (Path(self.origin).stem + ".txt")
        if not path.is_file():
            return []
        height, width = image.shape[:2]
        out = []
        for label in parse_labels(path.read_text()):
            # centre and size scaled first, then halved: the recording's boxes to the last bit as the demo reads them
            cx, cy, bw, bh = label.cx * width, label.cy * height, label.w * width, label.h * height
            out.append(Detection.of_class(label.class_id, Box(cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), 1.0))
        return out


def recorded_reader(recording: Path) -> FrameReader:
    """The loop's read of a recording by its own labels (:class:`RecordedLabels`) through the camera's reader,
    not squared to the table (the labels are of the frames as they are)."""
    from vision.read.pipeline import Reader, ReaderConfig, TableMode

    labels = RecordedLabels(recording)
    return FrameReader(Reader.around(labels, replace(ReaderConfig.for_camera(), table_mode=TableMode.NONE)), labels)


# --- choosing the source and the readers -------------------------------------------------------------------


def make_source(config: Config) -> tuple[FrameSource, bool]:
    """The frame source the config asks for, and whether it is the demo (:data:`~device.camera.kinds.CAMERA_KINDS`:
    ``auto`` falls back to the demo). A named camera is returned even when it is not there yet: the loop waits for
    it with back-off."""
    from device.camera.kinds import CAMERA_KINDS

    return CAMERA_KINDS[config.camera.kind].open(config.camera)


def model_path(config: Config, override: str | None = None, *, camera: bool = False) -> Path:
    """The detector model of the photos' reader (``camera``: of the camera's): ``override`` (``--model``, both), the
    config's ``camera_model`` (the camera's) or ``model``, else the shipped one
    (:func:`~vision.read.detector.default_model_path`)."""
    from vision.read.detector import default_model_path

    chosen = override or (config.detector.camera_model if camera else "") or config.detector.model
    return Path(chosen).expanduser() if chosen else default_model_path(camera=camera)


def reader_configs(config: Config, model: str | None = None) -> tuple[ReaderConfig, ReaderConfig]:
    """The camera's reader and the phone photos' reader, as the config asks (``--model`` overriding it)."""
    from vision.read.pipeline import ReaderConfig

    d = config.detector
    return (
        ReaderConfig.for_camera(model_path(config, model, camera=True), conf=d.conf, crop_views=d.crop_views),
        ReaderConfig.for_photo(model_path(config, model), conf=d.conf, crop_views=d.crop_views),
    )


def readers_around(detector: Detector) -> tuple[Reader, Reader]:
    """The camera's and the photos' readers round a detector of one's own (a test's fake): the camera's squared to
    the table, the photos' read as they are, one read at a time between them."""
    from vision.read.pipeline import Reader, ReaderConfig

    lock = threading.Lock()
    return Reader.around(detector, ReaderConfig.for_camera(), lock=lock), Reader.around(detector, lock=lock)


def make_readers(config: Config, *, model: str | None = None) -> tuple[Reader, Reader] | None:
    """The camera's and the photos' readers, each with its own detector and crop classifier (one detector for both
    where the config names one), one read at a time between them; None when a model file is missing (with a
    warning)."""
    from vision.read.errors import ModelError
    from vision.read.pipeline import Models, Reader

    camera, photo = reader_configs(config, model)
    for reader in (camera, photo):
        if reader.model is None or not reader.model.is_file():
            log.warning("no detector model at %s: photos and the camera cannot be read", reader.model)
            return None
    try:
        photo_models = Models.load(photo)
        camera_models = Models.load(camera, beside=photo_models)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    lock = threading.Lock()
    log.info("detectors loaded: the camera's %s, the photos' %s", camera.model, photo.model)
    return (
        Reader.from_config(camera, models=camera_models, lock=lock),
        Reader.from_config(photo, models=photo_models, lock=lock),
    )


# --- the whole table ---------------------------------------------------------------------------------------


@dataclass
class RunOptions:
    site: bool = True
    duration: float | None = None
    model: str | None = None
    out: TextIO = field(default_factory=lambda: sys.stdout)


class TableRuntime:
    """Source, detector, service, loop and site for one table. ``start()``, then ``stop()``/``close()``."""

    def __init__(self, config: Config, options: RunOptions | None = None, *, detector: Detector | None = None) -> None:
        self.config = config
        self.options = options or RunOptions()
        self.stop_event = threading.Event()
        self.source, self.demo = make_source(config)
        #: The camera's reader and the phone photos' reader (None: no model), one read at a time between them.
        self.readers = make_readers(config, model=self.options.model) if detector is None else readers_around(detector)
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.service = self._make_service()
        read: FrameReader | None = None
        if self.readers is not None:
            read = FrameReader(self.readers[0])
        elif self.demo:
            from device.demo import RECORDING

            log.warning("playing the demo with its recorded labels in place of the detector")
            read = recorded_reader(RECORDING)
        self.read = read
        self.loop: ServiceLoop | None = None
        if read is not None:
            lc = config.loop
            self.loop = ServiceLoop(
                self.source,
                read,
                self._observe,
                gate=ChangeGate(lc.change_threshold, lc.motion_threshold),
                max_reads_per_second=lc.max_reads_per_second,
                poll_fps=None if isinstance(self.source, FileReplaySource) else config.camera.fps,
                stop=self.stop_event,
                hold=self.service.hold,
                zones=True,
                on_problem=self.service.set_camera_problem,
            )
        self.site: Site | None = None
        self.url = ""
        self.observations = 0
        self.director: DemoDirector | None = None
        if self.demo and self.loop is not None:  # the recorded hand again and again: other hands between, new games
            from device.demo.director import DemoDirector

            self.director = DemoDirector(self.service)

    def _make_service(self) -> Any:
        from device.commands.access import default_pin_file, table_pin
        from device.table.service import TableService
        from engine.rules import preset

        if self.demo:  # the demo's games are not the table's: keep them out of its database
            self._tmp = tempfile.TemporaryDirectory(prefix="jantaku-demo-")
            db = Path(self._tmp.name) / "demo.db"
            corrections = Path(self._tmp.name) / "corrections"
        else:
            db = self.config.game.db_path
            corrections = db.parent / "corrections"
            try:
                db.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigError(
                    f"{self.config.source or 'config'}: game.db: cannot create {db.parent} ({exc})"
                ) from None
        site = self.config.site
        pin_file = Path(site.pin_file).expanduser() if site.pin_file and not self.demo else default_pin_file(db)
        # never printed or logged (the console is the journal under systemd): where it is, is
        pin, self.pin_where = table_pin(None, site.pin, pin_file)
        try:
            return TableService(
                pin=pin,
                rules=preset(self.config.game.rules),
                db_path=str(db),
                photo_reader=self.readers[1] if self.readers is not None else None,
                corrections_dir=str(corrections),
                camera_seat=self.config.game.camera_seat - 1 if self.config.game.camera_seat else None,
                auto_confirm_s=self.config.game.auto_confirm_s or (DEMO_AUTO_CONFIRM_S if self.demo else 0.0),
                # the demo's result settles after a while of the recording, not of the wall clock: on a machine
                # slower than the recording it lies open as long as on any other
                clock=self.source.clock if self.demo and isinstance(self.source, FileReplaySource) else time.time,
            )
        except (sqlite3.Error, OSError) as exc:  # a read-only or full disk, a file that is no database
            from device.table.storage import storage_problem

            raise ConfigError(f"{self.config.source or 'config'}: game.db: {storage_problem(db, exc)}") from None

    def _observe(self, reading: Reading) -> None:
        self.observations += 1
        self.service.observe(reading)
        summary = reading_summary(reading, self.read.origin if self.read is not None else "")
        if not self.options.site:
            print(summary, file=self.options.out, flush=True)
        else:
            log.info("camera: %s", summary)

    def start(self) -> None:
        out = self.options.out
        if self.options.site:
            try:
                import web  # noqa: F401
            except ImportError as exc:  # a checkout without the site: the loop still runs
                log.warning("the phone site is not available (%s): printing what the camera reads", exc)
                self.options.site = False
        if self.options.site:
            self.site = start_site(
                self.service,
                self.config.site.host,
                self.config.site.port,
                {"JANTAKU_SESSION_MAX_S": self.config.site.session_hours * 3600},
                tls_folder=self.config.game.db_path.parent if self.config.site.tls else None,
            )
            self.url = self.service.url
            print_welcome(self.service, self.pin_where, out, demo=self.demo)
        source = "the demo recording" if self.demo else getattr(self.source, "name", "the camera")
        if self.loop is not None:
            print(f"jantaku: reading {source}; Ctrl-C stops", file=out, flush=True)
            if self.director is not None:
                self.director.start()
            self.loop.start()
        else:
            print("jantaku: no detector model: the camera is not read (the site works)", file=out, flush=True)

    def wait(self) -> None:
        """Until stopped (a signal, :meth:`stop`, ``duration``) or the recording ends."""
        deadline = None if self.options.duration is None else time.monotonic() + self.options.duration
        while not self.stop_event.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            self.stop_event.wait(0.2 if left is None else min(0.2, left))
            if self.loop is not None and self.loop.join(0) and not self.options.site:
                break  # the loop ended (a recording played out) and there is no site to keep up

    def stop(self) -> None:
        self.stop_event.set()

    def close(self) -> None:
        self.stop_event.set()
        if self.director is not None:
            self.director.stop()
        if self.loop is not None and not self.loop.join(timeout=10):
            log.warning("loop: still busy with a frame after 10 s; leaving it")
        self.service.bus.close()  # ends the phones' event streams
        if self.site is not None:
            self.site.close()
        self.service.close()
        if self._tmp is not None:
            self._tmp.cleanup()


def run_table(config: Config, options: RunOptions | None = None, *, detector: Detector | None = None) -> TableRuntime:
    """Start a table, run it until stopped, and close it; returns it (its stats, for checks)."""
    table = TableRuntime(config, options, detector=detector)
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, lambda *_: table.stop())
    try:
        table.start()
        table.wait()
    finally:
        table.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return table


# --- the command -------------------------------------------------------------------------------------------


def setup_logging(verbose: bool = False) -> None:
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("waitress").setLevel(logging.WARNING)


def config_from_args(args: Any) -> Config:
    config = find_config(args.config)
    camera: dict[str, Any] = {}
    if args.demo:
        camera["kind"] = "demo"
    elif args.camera is not None:
        camera.update(kind="opencv", index=args.camera)
    elif args.replay:
        camera.update(kind="replay", path=args.replay)
    site = {k: v for k, v in (("host", args.host), ("port", args.port), ("pin", args.pin)) if v is not None}
    return config.with_overrides(camera=camera, site=site)


def readiness_problem(config: Config, model: str | None = None) -> str | None:
    """What keeps this table from running as configured, in one line (``jantaku run --check``); None when ready.

    The detector model must be a file (the demo plays without one), and the configured camera's library must
    import: picamera2 for ``picamera``, OpenCV for ``opencv``; a replay's path must exist."""
    from device.camera.kinds import CAMERA_KINDS

    kind = CAMERA_KINDS[config.camera.kind]
    path = model_path(config, model)
    if kind.needs_model and not path.is_file():
        return f"no detector model at {path}: the camera cannot be read (set [detector] model, or --model)"
    return kind.missing(config.camera)


def run_command(args: Any) -> int:
    from device.commands.memory import limit_malloc_arenas

    limit_malloc_arenas()  # before any thread allocates (see device.commands.memory)
    if args.duration is not None and args.duration <= 0:
        raise UserError("--duration must be more than 0 seconds")
    config = config_from_args(args)
    if args.check:
        problem = readiness_problem(config, args.model)
        if problem:
            raise UserError(problem)
        print(f"jantaku run: config {config.source or '(built-in defaults)'} is valid")
        for section in ("camera", "detector", "loop", "game", "site"):
            values = {k: v for k, v in vars(getattr(config, section)).items() if k != "pin"}
            print(f"  [{section}] " + ", ".join(f"{k}={v!r}" for k, v in values.items()))
        return 0
    setup_logging(args.verbose)
    if config.source:
        log.info("config %s", config.source)
    table = run_table(config, RunOptions(site=not args.no_site, duration=args.duration, model=args.model))
    if table.loop is not None:
        s = table.loop.stats
        print(
            f"jantaku: {s.frames} frames, {s.reads} read, {s.unchanged} unchanged, {s.moving} moving, "
            f"{s.errors} errors, {s.reconnects} reconnects",
            file=sys.stdout,
        )
    return 0


def register(commands: Any) -> None:
    p = commands.top.add_parser(
        "run",
        help="the table: camera loop and phone site (plays the bundled demo when there is no camera)",
        description=__doc__.splitlines()[0],
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="TOML config (default: $JANTAKU_CONFIG, "
        "~/.config/jantaku/config.toml, /etc/jantaku/config.toml, else built-in defaults)",
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument("--demo", action="store_true", help="play the bundled demo recording")
    src.add_argument("--camera", type=int, metavar="N", help="USB camera N (OpenCV index)")
    src.add_argument("--replay", metavar="PATH", help="a folder of images or a video, played in a loop")
    p.add_argument("--host", help="address to serve on (default 0.0.0.0: the whole LAN)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--pin", help="the table's PIN, 6-12 digits (shows in ps: prefer [site] pin_file)")
    p.add_argument(
        "--model",
        metavar="ONNX",
        help="detector model of both readers (default: the config's, else the"
        " shipped models/tiles_camera.onnx for the camera and models/tiles.onnx for photos)",
    )
    p.add_argument("--no-site", action="store_true", help="camera loop only: print what it reads")
    p.add_argument("--duration", type=float, metavar="S", help="stop after S seconds")
    p.add_argument(
        "--check",
        action="store_true",
        help="check the config, the model file and the camera's library; print it and exit (2: not ready)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log every frame")
    p.set_defaults(func=run_command)


__all__ = ["FrameReader", "RunOptions", "TableRuntime", "reading_summary", "register", "run_table"]
