"""``jantaku-lab conformance video GAME_LOG...`` and ``jantaku-lab bench camera``: real game records filmed by the synth
renderer, fed through the camera loop into a table service, and the engine's events compared with the record.

``conformance video``: each Tenhou mjlog XML is filmed hand by hand (:mod:`vision.eval.table_script`), drawn with
one :class:`~vision.synth.table_render.TableStyle` per game (felt, light, camera pose), and played as frames, as fast
as they are processed, through the real :class:`~device.camera.loop.ServiceLoop` (change gate, reader,
``TableService.observe`` and ``hold``) into a real :class:`~device.table.service.TableService` whose camera game
applies what it sees and confirms a result laid down by itself after the demo's pause (3 s, counted in frames of
the camera's 2 a second: :class:`FrameClock`). Then the events the engine received are aligned, in order, with
the record's (:mod:`vision.eval.record_comparison`, over :func:`vision.eval.table_script.compared`: hand starts,
discards with riichi, calls, kans, dora flips): ``recovered`` are the record's events matched, ``false`` the
engine's that match none; a win is scored right when the engine's result for that hand moved each seat's points as
the record did. A hand the camera game
leaves unfinished is settled before the next deal as the players would on a phone (:func:`settle_by_hand`), so
that one lost hand does not lose the game's rest; its win never counts as scored right.

``--reader labels`` reads the renderer's exact boxes as the camera reads a frame (fast: the following, the table
reading and the engine under test); ``labels-centred`` the same about the table's true centre (the following and
the engine alone); ``models`` the shipped camera reader (the detector too; slow on a CPU). The renderer takes most
of the time (about a second a frame here): games are filmed side by side, one a core (``--jobs``).

``bench camera``: one filmed hand played in real time (a camera of ``--fps`` frames a second, each change held
still ``--turn-s`` seconds) through the loop with the camera reader, each frame read only round what changed
(``--whole``: whole): changed frames read per second of reading, runs and multiply-accumulates per read (whole
reads and zone reads apart), and the seconds from a discard landing (the first frame after the arm left) to its
event on the service's bus, median and worst; with a Raspberry Pi 5 estimate from each read's measured
multiply-accumulates (the read of each discard's landing taking their time on the Pi).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from device.camera.sources import EndOfStream, Frame
from device.cli import UserError
from device.lab.games import _files
from vision.eval.record_comparison import (
    GameFilmed,
    Landing,
    arrival,
    compare,
    discard_latencies,
    made_up,
    wins_scored,
)

#: The table's size in the frames, (height, width), as the renderer draws by default.
FRAME_SIZE = (1520, 2028)
#: The PIN of the service under test (nobody types it).
PIN = "246813"
#: ``labels``: the renderer's exact boxes, read as the camera reads them (the table's centre estimated in each
#: frame); ``labels-centred``: the same, read about the table's true centre (a camera fixed over a fixed table: the
#: following and the engine alone); ``models``: the shipped camera reader.
READERS = ("labels", "labels-centred", "models")
#: How long a read lasts: as long as it takes here, or as the Raspberry Pi 5 estimate says (the table going on).
PACES = ("here", "pi5")


# --- the filmed game as frames ---------------------------------------------------------------------------------


class FilmSource:
    """A :class:`~device.camera.sources.FrameSource` playing a :class:`~vision.eval.table_script.GameScript`'s shots:
    each rendered once (``render(scene, shot_index) -> (image, detections, centre)``) and held for its frames.
    ``current`` and ``centre``: the renderer's exact boxes and the table's true centre (x, y) in the frame last read;
    ``landings``: frame index -> the change landing there."""

    name = "film"

    def __init__(
        self,
        script: Any,
        render: Callable[[Any, int], tuple[np.ndarray, tuple, Any]],
        between_hands: Callable[[int], Any] | None = None,
    ) -> None:
        self.render = render
        #: Called with a hand's index before its first shot (the table cleared), from the second hand on.
        self.between_hands = between_hands
        self.plan: list[tuple[int, int, Any]] = [
            (h, n, shot) for h, hand in enumerate(script.hands) for n, shot in enumerate(hand.shots)
        ]
        self.frames = sum(shot.frames for _, _, shot in self.plan)
        self.landings: dict[int, Landing] = {}
        self.current: tuple = ()
        self.centre: tuple[float, float] | None = None
        self._at = -1  # the shot being shown
        self._left = 0  # its frames still to show
        self._count = 0
        self._image: np.ndarray | None = None
        self._scene: Any = None
        self._shots = 0
        self._to_pass = 0
        #: Frames the camera gave while the last read was busy, passed unseen before the frame last read.
        self.passed = 0

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass

    def pass_frames(self, count: int) -> None:
        """Let the next ``count`` frames go by unseen (a camera keeps filming while a slow read runs)."""
        self._to_pass += max(0, count)

    def read(self) -> Frame:
        self.passed = 0
        while self._to_pass:
            self._to_pass -= 1
            self._next()
            self.passed += 1
        self._next()
        if self._image is None:  # drawn only when a frame of the shot is seen
            assert self._scene is not None
            self._image, self.current, self.centre = self.render(self._scene, self._shots)
            self._shots += 1
        index = self._count - 1
        return Frame(self._image, index=index, timestamp=time.time(), origin=f"film#{index}")

    def _next(self) -> None:
        """Move on one frame (to the next shot when this one's frames are spent)."""
        if self._left == 0:
            self._at += 1
            if self._at >= len(self.plan):
                raise EndOfStream(f"{self.name}: end of the game after {self._count} frames")
            hand, number, shot = self.plan[self._at]
            if number == 0 and hand > 0 and self.between_hands is not None:
                self.between_hands(hand)
            self._scene, self._image = shot.scene, None
            self._left = shot.frames
            if shot.lands is not None:
                self.landings[self._count] = Landing(hand, shot.lands)
        self._left -= 1
        self._count += 1


class LabelsDetector:
    """A :class:`~vision.read.detector.Detector` giving the renderer's exact boxes of the frame the source showed
    last (the loop reads the frame it was just given)."""

    def __init__(self, source: FilmSource) -> None:
        self.source = source

    def detect(self, image: np.ndarray) -> list:
        return list(self.source.current)


def renderer(style: Any, seed: int, size: tuple[int, int] = FRAME_SIZE) -> Callable[[Any, int], tuple]:
    """``render(scene, index) -> (image, detections, centre)`` with the synth table renderer, in one style and one
    seed for the whole game (the felt's texture and each still tile's place stay put from frame to frame)."""
    from vision.synth.table_render import render_table

    def render(scene: Any, index: int) -> tuple[np.ndarray, tuple, tuple[float, float]]:
        drawn = render_table(scene, size=size, seed=seed, style=style)
        return drawn.image, tuple(drawn.detections()), drawn.centre

    return render


def game_style(seed: int, clutter: bool = False) -> Any:
    """One table's look (felt, light, camera pose), drawn from ``seed``; with ``clutter``, things besides the tiles
    lying still on the table (the same look otherwise)."""
    from vision.synth.table_render import TableStyle

    return TableStyle.seeded(seed, clutter=clutter)


def camera_reader(kind: str, source: Any, model: Path | None = None) -> Any:
    """The camera's reader (``read(image, zones=None) -> Reading``): around the renderer's boxes (``labels``; not
    squared to the table: the boxes are the frame's own; read whole), the same read about the table's true centre
    (``labels-centred``), or the shipped networks (``models``: only round the zones that changed, as a table reads)."""
    from vision.read.pipeline import IncrementalReader, Reader, ReaderConfig, TableMode

    if kind == "models":
        return IncrementalReader(Reader.from_config(ReaderConfig.for_camera(model)))
    reader = Reader.around(LabelsDetector(source), replace(ReaderConfig.for_camera(), table_mode=TableMode.NONE))
    return reader if kind == "labels" else CentredReader(reader, source)


@dataclass
class CentredReader:
    """A reader whose table is read about the centre the source tells (``source.centre``)."""

    reader: Any
    source: Any

    def read(self, image: np.ndarray, zones: Any = None) -> Any:
        from vision.read.geometry import Size
        from vision.read.table import read_table

        reading = self.reader.read(image, zones=zones)
        if reading.table is None:
            return reading
        return replace(reading, table=read_table(reading.detections, Size.of(image), centre=self.source.centre))


# --- the service under test --------------------------------------------------------------------------------------


def table_service(rules: Any, clock: Callable[[], float] = time.time) -> Any:
    """A fresh table service playing ``rules``: no storage, the camera at seat 0, a win or draw laid down confirmed by
    itself after the demo's pause (:data:`device.commands.run.DEMO_AUTO_CONFIRM_S`) on ``clock``."""
    from device.commands.run import DEMO_AUTO_CONFIRM_S
    from device.table.service import TableService

    return TableService(pin=PIN, rules=rules, camera_seat=0, auto_confirm_s=DEMO_AUTO_CONFIRM_S, clock=clock)


class FrameClock:
    """Seconds as a camera's frames count them: each frame read moves it on by one frame's time (a film played faster
    than real time keeps the table's pauses, such as the wait before a result confirms itself)."""

    def __init__(self, fps: float) -> None:
        self.step = 1.0 / fps
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        self.now += self.step


class PiPace:
    """A reader's reads costed as on a Raspberry Pi 5: the images each read feeds the networks (counted as they are
    fed) times each network's multiply-accumulates, over the Pi's assumed throughput (``gmacs`` 10^9 a second).
    ``start()`` before a read, ``macs()`` after it."""

    def __init__(self, reader: Any, gmacs: float) -> None:
        from vision.eval.reading_bench import ReadBench, file_macs

        self.networks = ReadBench(reader).networks  # their sessions now count the images fed
        self.per_image = {m.path: file_macs(m.path) for m in self.networks}
        self.gmacs = gmacs
        self._before: list[int] = []

    def start(self) -> None:
        self._before = [m.session.images for m in self.networks]

    def macs(self) -> int:
        """Multiply-accumulates since :meth:`start`."""
        return sum(
            self.per_image[m.path] * (m.session.images - b) for m, b in zip(self.networks, self._before, strict=True)
        )

    def pi5_ms(self, macs: int) -> float:
        from vision.eval.reading_bench import pi5_ms

        return pi5_ms(macs, self.gmacs)


@dataclass
class Watch:
    """Wraps the service's ``observe`` and ``hold``: after each, the engine events new since, and when they came.

    It follows the engine's own list: an event the camera game takes back (a discard corrected, the events after it
    applied again, a phone's undo) leaves :attr:`arrived`, and one applied again as it was keeps its first time.
    Call :meth:`entered_by_hand` after a person changed the game: what they entered is no camera event, and what the
    camera had given before stays counted."""

    service: Any
    clock: Callable[[], float] = time.perf_counter
    #: Every contradiction the camera game reported, in order (as ``state()["follow"]`` shows them).
    clashes: list[dict[str, Any]] = field(default_factory=list)
    #: The camera's events before the last person's change, (seconds on ``clock``, event).
    _kept: list[tuple[float, Any]] = field(default_factory=list)
    #: The engine's events as last seen, and when each came (None: not the camera's).
    _known: list[Any] = field(default_factory=list)
    _times: list[float | None] = field(default_factory=list)

    @property
    def arrived(self) -> list[tuple[float, Any]]:
        """(seconds on ``clock``, event) for every camera event the engine holds or held before a person's change."""
        return self._kept + [(t, e) for t, e in zip(self._times, self._known, strict=True) if t is not None]

    def observe(self, observation: Any) -> None:
        self.service.observe(observation)
        self._collect()

    def hold(self) -> None:
        self.service.hold()
        self._collect()

    def entered_by_hand(self) -> None:
        """A person changed the game (a hand's end entered, the game re-entered from the record): the engine's events
        now are not the camera's."""
        self._kept = self.arrived
        self._known = list(self.service.game.game.events)
        self._times = [None] * len(self._known)

    def _collect(self) -> None:
        events = list(self.service.game.game.events)
        same = 0
        while same < min(len(events), len(self._known)) and events[same] == self._known[same]:
            same += 1
        gone = list(zip(self._known[same:], self._times[same:], strict=True))
        now = self.clock()
        times = self._times[:same]
        for e in events[same:]:
            again = next((k for k, (old, _) in enumerate(gone) if old == e), None)
            times.append(gone.pop(again)[1] if again is not None else now)
        self._known, self._times = events, times
        self.clashes += [c for c in self.service.camera_game.contradictions if c not in self.clashes]


# --- comparing with the record -----------------------------------------------------------------------------------


def settle_by_hand(service: Any, script: Any, hand: int) -> str:
    """Before hand ``hand``'s deal, finish what the camera game left of the hand before, as the players would on a
    phone: its recorded end entered when the engine takes it, else the game re-entered from the record up to the
    new deal. Returns what was done ("" when the engine had finished the hand itself)."""
    from engine.errors import EngineError
    from vision.eval.table_script import ENDINGS

    game = service.game.game
    if game.hand is None:
        return ""
    end = script.hands[hand - 1].events[-1]
    if isinstance(end, ENDINGS):
        try:
            service.apply_event(end)
            return f"the hand's end entered by hand ({end.type})"
        except EngineError:
            pass
    data = service.export_game()
    data["events"] = [e.to_dict() for h in script.hands[:hand] for e in h.events]
    for key in ("history", "final", "scores"):
        data.pop(key, None)
    service.import_game(data)
    return "the game re-entered from the record"


# --- one game through the loop -------------------------------------------------------------------------------------


def film_game(
    script: Any, *, reader: str = "labels", seed: int = 0, style: Any = None, model: Path | None = None,
    size: tuple[int, int] = FRAME_SIZE, pace: float | None = None,
) -> GameFilmed:  # fmt: skip
    """Play one filmed game through the loop into a fresh service; its figures. ``pace`` (10^9 MAC a second; only
    with ``reader="models"``): each read takes as long as on that machine, and the frames the camera gives meanwhile
    go by unseen (:class:`PiPace`); None: every frame is seen."""
    from device.camera.loop import ServiceLoop
    from device.config import CameraConfig

    clock = FrameClock(CameraConfig().fps)
    service = table_service(script.start_game().rules, clock)
    watch = Watch(service)
    by_hand: list[str] = []
    settled: list[int] = []

    def between_hands(hand: int) -> None:
        done = settle_by_hand(service, script, hand)
        if done:
            by_hand.append(f"{script.hands[hand - 1].label}: {done}")
            settled.append(hand - 1)
        watch.entered_by_hand()

    source = FilmSource(script, renderer(style, seed, size), between_hands)
    read = camera_reader(reader, source, model)
    if pace is not None and reader != "models":
        raise ValueError("a read's pace is counted on the models' reads: pace needs reader='models'")
    paced = PiPace(read.reader, pace) if pace is not None else None
    taken: dict[int, float] = {}

    def read_frame(frame: Frame, zones: Any) -> Any:
        if paced is None:
            return read.read(frame.image, zones=zones)
        paced.start()
        reading = read.read(frame.image, zones=zones)
        source.pass_frames(int(paced.pi5_ms(paced.macs()) / 1000 // clock.step))
        return reading

    def on_frame(frame: Frame, _result: Any) -> None:
        for _ in range(1 + source.passed):  # the frames that went by unseen took their time too
            clock.tick()
        taken[frame.index] = watch.clock()

    loop = ServiceLoop(
        source, read_frame, watch.observe, hold=watch.hold, max_reads_per_second=1e9, on_frame=on_frame, zones=True
    )
    started = time.perf_counter()
    stats = loop.run()
    seconds = time.perf_counter() - started
    service.close()
    events, recovered, false, missed, made_up = compare(script, watch.arrived)
    wins, right, wrong = wins_scored(script, service.game.game.history, settled)
    return GameFilmed(
        script.source,
        hands=len(script.hands),
        frames=stats.frames,
        reads=stats.reads,
        seconds=seconds,
        events=events,
        recovered=recovered,
        false=false,
        wins=wins,
        wins_scored_right=right,
        missed=missed,
        made_up=made_up,
        clashes=[f"{c['clash']} seat {c['seat']} frame {c['frame']}: {c['detail']}" for c in watch.clashes],
        wrong_wins=wrong,
        by_hand=by_hand,
        latencies=discard_latencies(script, source.landings, taken, watch.arrived),
    )


# --- the commands ----------------------------------------------------------------------------------------------------


def scripts_of(paths: list[str], games: int | None) -> list[Any]:
    from vision.eval.table_script import script_file

    out = []
    for f in _files(paths):
        try:
            out += [s for s in script_file(f) if s.hands]
        except (ValueError, KeyError, IndexError) as exc:
            raise UserError(f"{f}: not a Tenhou game log ({exc})") from None
        if games is not None and len(out) >= games:
            return out[:games]
    return out


def run_video(
    paths: list[str], *, reader: str = "labels", games: int | None = None, seed: int = 0, style_seed: int | None = None,
    model: Path | None = None, size: tuple[int, int] = FRAME_SIZE, jobs: int | None = 1, pace: float | None = None,
    clutter: bool = False, progress: Callable[[GameFilmed], Any] | None = None,
) -> tuple[dict[str, int], list[GameFilmed]]:  # fmt: skip
    """The figures over every game (``{"games", "events", "recovered", "false", "wins_scored_right", "wins"}``)
    and each game's; ``jobs`` games filmed at once (each in its own process; None: one a core this process may use,
    at most one a game); ``clutter``: things besides the tiles lying on each table; ``progress`` sees each game
    filmed."""
    scripts = scripts_of(paths, games)
    if not scripts:
        raise UserError("no game with a hand in the given logs")
    style_seed = seed if style_seed is None else style_seed
    calls = [
        {"script": s, "reader": reader, "seed": seed + 1000 * i, "style": game_style(style_seed + i, clutter),
         "model": model, "size": size, "pace": pace}
        for i, s in enumerate(scripts)
    ]  # fmt: skip
    filmed: list[GameFilmed] = []
    with contextlib.ExitStack() as stack:
        if jobs is None:
            jobs = max(1, min(len(os.sched_getaffinity(0)), len(calls)))
        if jobs == 1:
            games_filmed: Iterable[GameFilmed] = map(_film_game, calls)
        else:
            from concurrent.futures import ProcessPoolExecutor

            games_filmed = stack.enter_context(ProcessPoolExecutor(jobs)).map(_film_game, calls)
        for game in games_filmed:
            filmed.append(game)
            if progress is not None:
                progress(game)
    total = {
        "games": len(filmed),
        "events": sum(g.events for g in filmed),
        "recovered": sum(g.recovered for g in filmed),
        "false": sum(g.false for g in filmed),
        "wins_scored_right": sum(g.wins_scored_right for g in filmed),
        "wins": sum(g.wins for g in filmed),
    }
    return total, filmed


def _film_game(call: dict[str, Any]) -> GameFilmed:
    return film_game(**call)


# --- conformance seating: the table's geometry alone, over every still shot -----------------------------------------


@dataclass
class GameSeated:
    """One game's still shots read about the centre the camera's geometry keeps, against reads about the true centre:
    ``misread`` shots read a seat otherwise (:func:`_seats_followed`: its pond, melds and whence each was called,
    indicators, open hand and the tile set apart); ``first`` the first few of them as (hand, shot)."""

    source: str
    shots: int
    misread: int
    first: list[tuple[int, int]]


def _seats_followed(table: Any) -> list[dict]:
    """Each seat as :func:`vision.eval.camera.seats_read` compares it, less the count of a standing hand's backs (a
    game's first shot, a few backs before the deal read about its own estimate, may lend one to a seat; the camera
    game counts a hand's backs only once a hand is laid open)."""
    from vision.eval.camera import seats_read

    return [{k: v for k, v in seat.items() if k != "hand_backs"} for seat in seats_read(table)]


def seat_game(
    script: Any, *, seed: int = 0, style: Any = None, hands: int | None = 1, size: tuple[int, int] = FRAME_SIZE
) -> GameSeated:
    """``script`` 's still shots (its first ``hands`` hands; None: all) as the renderer lays its tiles (exact boxes,
    no frame drawn: about a hundred shots a second) through one :class:`~vision.read.table.geometry.TableGeometry`,
    as the camera's reader keeps it; each read about the centre it gives and about the true centre."""
    from vision.read.table import read_table
    from vision.read.table.geometry import TableGeometry
    from vision.synth.table_render import table_boxes

    geometry, shots, misread = TableGeometry(), 0, []
    for h, hand in enumerate(script.hands if hands is None else script.hands[:hands]):
        for k, shot in enumerate(hand.shots):
            if shot.scene.arm is not None:
                continue
            laid = table_boxes(shot.scene, size=size, seed=seed, style=style)
            dets = laid.detections()
            if not dets:
                continue
            centre = geometry.observe(dets, laid.size)
            shots += 1
            if _seats_followed(read_table(dets, laid.size, centre=centre)) != _seats_followed(
                read_table(dets, laid.size, centre=laid.centre)
            ):
                misread.append((h, k))
    return GameSeated(script.source, shots, len(misread), misread[:6])


def run_seating(
    paths: list[str], *, seed: int = 0, style_seed: int | None = None, tilt: float | None = None,
    hands: int | None = 1, size: tuple[int, int] = FRAME_SIZE,
) -> tuple[dict[str, int], list[GameSeated]]:  # fmt: skip
    """``{"games", "shots", "misread", "games_misread"}`` over the logs' games, and each game's: the ``i``-th game at
    the render seed and table style :func:`run_video` gives it; ``tilt``: its camera instead at that angle from the
    side ``i`` names (bottom, right, top, left in turn)."""
    from vision.read.table import FrameSide

    scripts = scripts_of(paths, None)
    if not scripts:
        raise UserError("no game with a hand in the given logs")
    style_seed = seed if style_seed is None else style_seed
    seated = []
    for i, script in enumerate(scripts):
        style = game_style(style_seed + i)
        if tilt is not None:
            style = replace(style, camera=list(FrameSide)[(style_seed + i) % 4], tilt=tilt)
        seated.append(seat_game(script, seed=seed + 1000 * i, style=style, hands=hands, size=size))
    total = {
        "games": len(seated),
        "shots": sum(g.shots for g in seated),
        "misread": sum(g.misread for g in seated),
        "games_misread": sum(g.misread > 0 for g in seated),
    }
    return total, seated


def _cmd_seating(args: argparse.Namespace) -> int:
    if args.tilt is not None and not 0 <= args.tilt < 0.8:
        raise UserError(f"--tilt is the far edge's shortening, from 0 to under 0.8, not {args.tilt}")
    if args.hands < 0:
        raise UserError(f"--hands must be 0 (all) or more, not {args.hands}")
    total, seated = run_seating(
        args.paths, seed=args.seed, style_seed=args.style_seed, tilt=args.tilt, hands=args.hands or None,
        size=frame_size(args.size),
    )  # fmt: skip
    if args.json:
        print(json.dumps(total))
        return 0
    for g in seated:
        if g.misread:
            print(f"{Path(g.source).name}: {g.misread}/{g.shots} shots misread, first (hand, shot) {g.first}")
    games, misread, shots = total["games"], total["misread"], total["shots"]
    print(f"games {games}: {misread}/{shots} shots misread in {total['games_misread']} games")
    return 0


def frame_size(text: str) -> tuple[int, int]:
    """``HEIGHTxWIDTH`` pixels, e.g. ``1520x2028``."""
    try:
        height, width = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UserError(f"a frame size is HEIGHTxWIDTH pixels (e.g. 1520x2028), not {text!r}") from None
    if not (240 <= height <= 4000 and 320 <= width <= 6000):
        raise UserError(f"a frame size of 240x320 to 4000x6000 pixels, not {text}")
    return height, width


def _cmd_video(args: argparse.Namespace) -> int:
    if args.games is not None and args.games < 1:
        raise UserError(f"--games must be at least 1, not {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UserError(f"--jobs must be at least 1, not {args.jobs}")
    if args.pace != "here" and args.reader != "models":
        raise UserError("--pace pi5 paces the models' reads: use it with --reader models")
    from vision.eval.reading_bench import PI5_GMACS

    details = Path(args.details) if args.details else None
    if details is not None:
        try:
            details.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--details {details}: {exc.strerror}") from None
    total, filmed = run_video(
        args.paths, reader=args.reader, games=args.games, seed=args.seed, style_seed=args.style_seed,
        model=Path(args.model) if args.model else None, size=frame_size(args.size), jobs=args.jobs,
        pace=PI5_GMACS if args.pace == "pi5" else None, clutter=args.clutter, progress=_progress,
    )  # fmt: skip
    if details is not None:
        for g in filmed:
            (details / f"{Path(g.source).name}.txt").write_text("".join(f"{line}\n" for line in g.details(None)))
    if args.json:
        print(json.dumps(total))
        return 0
    print(f"{'game':<48} {'hands':>5} {'frames':>6} {'reads':>5} {'s':>6} {'events':>6} {'recov':>6} {'false':>5} wins")
    for g in filmed:
        print(
            f"{Path(g.source).name[:48]:<48} {g.hands:>5} {g.frames:>6} {g.reads:>5} {g.seconds:>6.0f} {g.events:>6} "
            f"{g.recovered:>6} {g.false:>5} {g.wins_scored_right}/{g.wins}"
        )
        for line in g.details():
            print(line)
    share = total["recovered"] / total["events"] if total["events"] else 0.0
    print(
        f"games {total['games']}: {total['recovered']}/{total['events']} events recovered ({share:.2%}), "
        f"{total['false']} false, wins scored right {total['wins_scored_right']}/{total['wins']}"
    )
    return 0


def _progress(game: GameFilmed) -> None:
    """On stderr, each game as it is filmed (a long run shows how it goes; stdout keeps the figures)."""
    print(
        f"{Path(game.source).name}: {game.recovered}/{game.events} recovered, {game.false} false, "
        f"wins {game.wins_scored_right}/{game.wins}, {game.hands} hands, {game.reads} reads, {game.seconds:.0f} s",
        *game.details(),
        sep="\n",
        file=sys.stderr,
        flush=True,
    )


def register(commands: Any) -> None:
    p = commands.conformance.add_parser(
        "video", help="film Tenhou game logs with the synth renderer, follow them through the camera loop, compare"
    )
    p.add_argument("paths", nargs="+", metavar="GAME_LOG", help="mjlog XML files or folders of them")
    p.add_argument("--json", action="store_true", help="one JSON object of the figures")
    p.add_argument(
        "--reader",
        choices=READERS,
        default="models",
        help="the shipped models (default: the camera as it runs), or the renderer's boxes (labels: the follower "
        "alone)",
    )
    p.add_argument(
        "--model",
        metavar="PATH",
        help="with --reader models: the detector (default: the camera's, models/tiles_camera.onnx)",
    )
    p.add_argument("--games", type=int, default=None, metavar="N", help="the first N games only")
    p.add_argument("--seed", type=int, default=0, help="the rendering's seed (default 0)")
    p.add_argument("--style-seed", type=int, default=None, metavar="S",
                   help="the seed each game's table style is drawn from (default: --seed)")  # fmt: skip
    p.add_argument("--size", default="x".join(map(str, FRAME_SIZE)), metavar="HxW",
                   help="the frames' height x width in pixels (default %(default)s, the demo camera's)")  # fmt: skip
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="games filmed at once, one process each (default: one a core, at most one a game)")  # fmt: skip
    p.add_argument("--clutter", action="store_true",
                   help="things besides the tiles lie still on each table through the game (a phone, paper, point "
                   "sticks, chips, dice, a cup, a box), in front of the players and in the corners")  # fmt: skip
    p.add_argument("--pace", choices=PACES, default="here",
                   help="here: every frame is read; pi5 (with --reader models): each read lasts as long as the Pi 5 "
                   "estimate says, and the frames filmed meanwhile go by unseen")  # fmt: skip
    p.add_argument("--details", metavar="DIR",
                   help="write each game's events missed and made up, contradictions, wrong wins and hands settled "
                   "by hand to DIR/<game>.txt (one line each, to diff between runs)")  # fmt: skip
    p.set_defaults(func=_cmd_video)

    q = commands.conformance.add_parser(
        "seating", help="the table's geometry alone: game logs' still shots read about the centre the camera keeps"
    )
    q.add_argument("paths", nargs="+", metavar="GAME_LOG", help="mjlog XML files or folders of them")
    q.add_argument("--json", action="store_true", help="one JSON object of the figures")
    q.add_argument("--seed", type=int, default=0, help="the rendering's seed, as conformance video's (default 0)")
    q.add_argument("--style-seed", type=int, default=None, metavar="S",
                   help="the seed each game's table style is drawn from (default: --seed)")  # fmt: skip
    q.add_argument(
        "--tilt",
        type=float,
        default=None,
        metavar="T",
        help="each camera at this angle instead (the far edge this share shorter), each side in turn",
    )
    q.add_argument("--hands", type=int, default=1, metavar="N", help="each game's first N hands (0: all; default 1)")
    q.add_argument("--size", default="x".join(map(str, FRAME_SIZE)), metavar="HxW",
                   help="the frames' height x width in pixels (default %(default)s)")  # fmt: skip
    q.set_defaults(func=_cmd_seating)

    b = commands.bench.add_parser(
        "camera", help="changed frames per second through the camera loop, and seconds from a discard to the bus"
    )
    b.add_argument("path", metavar="GAME_LOG", help="a Tenhou mjlog XML: its first hand is filmed")
    b.add_argument("--changes", type=int, default=16, help="changes at the table to play (default 16)")
    b.add_argument("--fps", type=float, default=None, help="the camera's frames a second (default: the config's)")
    b.add_argument("--turn-s", type=float, default=3.0, help="seconds each change lies still (default 3)")
    b.add_argument("--arm-s", type=float, default=0.5, help="seconds an arm hides the table (default 0.5)")
    b.add_argument("--seed", type=int, default=0, help="the table style's and rendering's seed")
    b.add_argument("--model", metavar="PATH", help="the detector (default: the camera's, models/tiles_camera.onnx)")
    b.add_argument("--pi5-gmacs", type=float, default=None, help="assumed Raspberry Pi 5 10^9 MAC/s (default 21)")
    b.add_argument("--whole", action="store_true", help="read every frame whole (not only round what changed)")
    b.add_argument("--pace", choices=PACES, default="here",
                   help="here: reads take what they take on this machine; pi5: each read lasts as long as the Pi 5 "
                   "estimate says (--pi5-gmacs), the table moving on meanwhile")  # fmt: skip
    b.add_argument("--json", action="store_true", help="one JSON object")
    b.set_defaults(func=_cmd_bench)


# --- bench camera: one hand in real time ---------------------------------------------------------------------------


class CameraClock:
    """A :class:`~device.camera.sources.FrameSource` showing pre-rendered shots on a timeline, as a camera would: each
    arm frame for ``arm_s`` seconds, each still scene ``turn_s``; ``read()`` gives what is in front of the lens now
    (the loop paces itself at the camera's frame rate). ``landed[i]``: when the ``i``-th landing's scene came up."""

    name = "camera-clock"

    def __init__(
        self,
        shots: Sequence[tuple[np.ndarray, tuple, tuple[float, float], Any]],
        *,
        turn_s: float,
        arm_s: float,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.shots = shots  # (image, detections, centre, Shot)
        self.clock = clock
        self.starts: list[float] = []
        at = 0.0
        for *_, shot in shots:
            self.starts.append(at)
            at += arm_s if shot.lands is None else turn_s
        self.length = at
        self.current: tuple = ()
        self.centre: tuple[float, float] | None = None
        self._t0: float | None = None
        self._count = 0

    def open(self) -> None:
        self._t0 = self.clock()

    def close(self) -> None:
        pass

    def landed(self, index: int) -> float:
        """When (on the clock) shot ``index`` came up."""
        assert self._t0 is not None
        return self._t0 + self.starts[index]

    def read(self) -> Frame:
        assert self._t0 is not None, "open() first"
        now = self.clock() - self._t0
        if now >= self.length:
            raise EndOfStream(f"{self.name}: the hand is over")
        at = max(i for i, start in enumerate(self.starts) if start <= now)
        image, self.current, self.centre, _ = self.shots[at]
        frame = Frame(image, index=self._count, timestamp=time.time(), origin=f"shot#{at}")
        self._count += 1
        return frame


@dataclass(frozen=True)
class ReadCost:
    """One read of ``bench camera``: when it began (on the source's clock), its milliseconds, runs and
    multiply-accumulates, and whether only the zones that changed were read."""

    started: float
    ms: float
    runs: int
    macs: int
    zoned: bool


@dataclass
class CameraBench:
    """``bench camera``'s figures."""

    reads: list[ReadCost]
    latencies: list[float]
    discards: int
    #: Each seen discard's landing time (on the source's clock), in the order of ``latencies``.
    landed: list[float] = field(default_factory=list)
    #: The engine events received, and the camera game's contradictions, for a run that saw fewer discards than shown.
    received: list[str] = field(default_factory=list)
    clashes: list[str] = field(default_factory=list)
    #: The events received that the hand's record, as far as it was shown, does not have.
    false: list[str] = field(default_factory=list)

    def pi5_latency(self, latency: float, landed: float, gmacs: float) -> float:
        """A discard's seconds to the bus with the read of its landing (the first read begun after it) taking its
        multiply-accumulates' time on a Pi 5 (the rest of the path taken as here)."""
        from vision.eval.reading_bench import pi5_ms

        read = next((r for r in self.reads if r.started >= landed), None)
        if read is None or read.started > landed + latency:
            return latency
        return latency + (pi5_ms(read.macs, gmacs) - read.ms) / 1000

    def as_json(self, gmacs: float) -> dict[str, Any]:
        from vision.eval.reading_bench import pi5_ms

        def kind(reads: Sequence[ReadCost]) -> dict[str, Any]:
            macs = statistics.mean(r.macs for r in reads) if reads else 0.0
            return {
                "reads": len(reads),
                "read_ms_median": round(statistics.median(r.ms for r in reads), 1) if reads else None,
                "runs_mean": round(statistics.mean(r.runs for r in reads), 2) if reads else None,
                "gmacs_mean": round(macs / 1e9, 2),
                "pi5_read_ms": round(pi5_ms(round(macs), gmacs), 1) if reads else None,
            }

        def spread(values: Sequence[float]) -> dict[str, float | None]:
            ordered = sorted(values)
            return {
                "median": round(statistics.median(ordered), 2) if ordered else None,
                "worst": round(ordered[-1], 2) if ordered else None,
            }

        reads = self.reads
        seconds = sum(r.ms for r in reads) / 1000
        macs = statistics.mean(r.macs for r in reads) if reads else 0.0
        pi5_read = pi5_ms(round(macs), gmacs)
        zoned = [r for r in reads if r.zoned]
        pi5_lat = [self.pi5_latency(t, at, gmacs) for t, at in zip(self.latencies, self.landed, strict=True)]
        pi5_seconds = sum(pi5_ms(r.macs, gmacs) for r in reads) / 1000
        return {
            "reads": len(reads),
            "changed_frames_per_s": round(len(reads) / seconds, 2) if seconds else None,
            "read_ms_median": round(statistics.median(r.ms for r in reads), 1) if reads else 0.0,
            "runs_per_read": round(statistics.mean(r.runs for r in reads), 2) if reads else None,
            "zone_reads_share": round(len(zoned) / len(reads), 2) if reads else None,
            "by_kind": {"whole": kind([r for r in reads if not r.zoned]), "zones": kind(zoned)},
            "discards": self.discards,
            "discards_seen": len(self.latencies),
            "discard_to_bus_s": spread(self.latencies),
            "macs_per_read": round(macs),
            "received": self.received,
            "contradictions": self.clashes,
            "false_events": self.false,
            "pi5": {
                "gmacs_per_s": gmacs,
                "read_ms": round(pi5_read, 1),
                "changed_frames_per_s": round(len(reads) / pi5_seconds, 2) if pi5_seconds else None,
                "discard_to_bus_s": spread(pi5_lat),
            },
        }


def bench_camera(
    script: Any, *, changes: int, fps: float, turn_s: float, arm_s: float, seed: int, model: Path | None,
    max_reads_per_second: float, zones: bool = True, gmacs: float | None = None, pace: bool = False,
) -> CameraBench:  # fmt: skip
    """The first hand's first ``changes`` changes of ``script`` played in real time through the loop, the service and
    the camera reader (the shipped networks, their operations counted); ``zones``: each frame read only round what
    changed, as the table reads it (else whole). ``pace``: each read lasts as long as on a Pi 5 of ``gmacs`` 10^9
    MAC a second (default :data:`~vision.eval.reading_bench.PI5_GMACS`), so the table moves on meanwhile."""
    from device.camera.loop import ServiceLoop
    from vision.eval.reading_bench import PI5_GMACS
    from vision.read.pipeline import IncrementalReader, Reader, ReaderConfig

    hand = script.hands[0]
    shots, landed = [], 0
    for shot in hand.shots[1:]:  # the cleared table before the deal is not part of a hand
        landed += shot.lands is not None
        if landed > changes:
            break
        shots.append(shot)
    render = renderer(game_style(seed), seed)
    source = CameraClock([(*render(shot.scene, i), shot) for i, shot in enumerate(shots)], turn_s=turn_s, arm_s=arm_s)
    reader = Reader.from_config(ReaderConfig.for_camera(model))
    costs = PiPace(reader, PI5_GMACS if gmacs is None else gmacs)
    incremental = IncrementalReader(reader)
    service = table_service(script.start_game().rules)
    watch = Watch(service)
    reads: list[ReadCost] = []

    def read_frame(frame: Frame, changed: Any = None) -> Any:
        costs.start()
        started = source.clock()
        reading = incremental.read(frame.image, changed)
        macs = costs.macs()
        reads.append(ReadCost(started, reading.ms, reading.runs, macs, bool(reading.slices)))
        if pace:
            time.sleep(max(0.0, costs.pi5_ms(macs) - (source.clock() - started) * 1000) / 1000)
        return reading

    loop = ServiceLoop(
        source, read_frame, watch.observe, hold=watch.hold, poll_fps=fps, max_reads_per_second=max_reads_per_second,
        zones=zones,
    )  # fmt: skip
    loop.run()
    service.close()
    from engine.game.events import Discard

    latencies, landings, discards = [], [], 0
    for i, shot in enumerate(shots):
        event = hand.events[shot.lands] if shot.lands is not None else None
        if isinstance(event, Discard):
            discards += 1
            came = arrival(event, source.landed(i), watch.arrived)
            if came is not None:
                latencies.append(came)
                landings.append(source.landed(i))
    return CameraBench(
        reads,
        latencies,
        discards,
        landings,
        [str(e) for _, e in watch.arrived],
        [f"{c['clash']} seat {c['seat']}: {c['detail']}" for c in watch.clashes],
        made_up(hand.events[: max((s.lands for s in shots if s.lands is not None), default=-1) + 1], watch.arrived),
    )


def _cmd_bench(args: argparse.Namespace) -> int:
    from device.config import CameraConfig, LoopConfig
    from vision.eval.reading_bench import PI5_GMACS, PI5_SOURCE

    for name in ("changes", "fps", "turn_s", "arm_s"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            raise UserError(f"--{name.replace('_', '-')} must be above 0")
    gmacs = PI5_GMACS if args.pi5_gmacs is None else args.pi5_gmacs
    if gmacs <= 0:
        raise UserError(f"--pi5-gmacs must be above 0, not {gmacs}")
    scripts = scripts_of([args.path], 1)
    if not scripts:
        raise UserError(f"no game with a hand in {args.path}")
    fps = args.fps or CameraConfig().fps
    bench = bench_camera(
        scripts[0], changes=args.changes, fps=fps, turn_s=args.turn_s, arm_s=args.arm_s, seed=args.seed,
        model=Path(args.model) if args.model else None, max_reads_per_second=LoopConfig().max_reads_per_second,
        zones=not args.whole, gmacs=gmacs, pace=args.pace == "pi5",
    )  # fmt: skip
    report = {
        "game": scripts[0].source, "fps": fps, "turn_s": args.turn_s, "arm_s": args.arm_s, "pace": args.pace,
        "pi5_source": PI5_SOURCE if args.pi5_gmacs is None else "given by --pi5-gmacs", **bench.as_json(gmacs),
    }  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return 0
    lat, pi5 = report["discard_to_bus_s"], report["pi5"]
    print(f"{report['game']}: first hand, {args.changes} changes, {fps} frames/s, each change still {args.turn_s} s")
    print(
        f"  here:  {report['changed_frames_per_s']} changed frames/s (read median {report['read_ms_median']} ms, "
        f"{report['reads']} reads); discard to the bus: median {lat['median']} s, worst {lat['worst']} s "
        f"({report['discards_seen']}/{report['discards']} discards seen; {len(bench.false)} false events, "
        f"{len(bench.clashes)} contradictions)"
    )
    for name, k in report["by_kind"].items():
        if k["reads"]:
            print(
                f"  {name + ':':<6} {k['reads']} reads, median {k['read_ms_median']} ms, {k['runs_mean']} runs and "
                f"{k['gmacs_mean']} GMAC a read (Pi 5 ~{k['pi5_read_ms']} ms)"
            )
    print(
        f"  Pi 5:  ~{pi5['changed_frames_per_s']} changed frames/s (read ~{pi5['read_ms']} ms for "
        f"{report['macs_per_read'] / 1e9:.2f} GMAC on average); discard to the bus: "
        f"median ~{pi5['discard_to_bus_s']['median']} s, worst ~{pi5['discard_to_bus_s']['worst']} s"
    )
    print(f"  ({report['pi5_source']})")
    return 0
