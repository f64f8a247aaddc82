"""The table service: the one object the web site (and the camera loop) talks to.

It holds the current game (the engine's state, derived from the SQLite event log), answers scoring requests, reads
photos through the photo :class:`~vision.read.pipeline.Reader` it is given (``photo_reader``; a test gives
``Reader.around(its_fake_detector)``), keeps the camera reader's latest :class:`~vision.read.pipeline.Reading` pushed
by the device loop (:meth:`TableService.observe`, :meth:`TableService.hold`) and plays what it shows into the game
(:class:`~device.table.camera_game.CameraGame`: the phones undo, fix, resync and confirm through
:meth:`TableService.camera_action`), keeps the frames players correct as labelled examples, and publishes every change
on an :class:`~device.table.bus.EventBus` for the phones' event streams. Thread-safe: the web server calls it from
many threads, the camera loop from its own. From ``web`` it imports only the site's contract (the errors and message
types of :mod:`web.contract`) and the request parsing of :mod:`web.hand_request`.

>>> svc = TableService(pin="1234")
>>> svc.check_pin("1234", client="phone"), svc.check_pin("0000", client="phone")
(True, False)
>>> svc.state()["camera"] is None
True
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from device.table.access import TableAccess
from device.table.bus import EventBus
from device.table.camera_game import CameraGame
from device.table.clash_frames import KEEP, ClashFrames, Zone, clash_zone
from device.table.corrections import CorrectionStore, FrameTile
from device.table.game_session import SEAT_NAMES, GameSession
from device.table.pin import PinGuard, pin_proof
from device.table.storage import GameStore
from device.table.table_view import check_camera_seat, table_view
from engine.errors import EngineError
from engine.rules import RuleSet, preset
from engine.tiles import Tile, format_tiles
from vision.read.errors import UnreadableImage
from vision.read.follow import Clash
from vision.read.table import TableObservation, ViewSide
from web.contract import Busy, NoDetector, PinLocked, TooLarge
from web.hand_request import BadRequest, parse_rules, parse_score_request

log = logging.getLogger(__name__)

#: The contradictions of the dora indicators (``vision.read.follow.Clash`` values), outlined at the indicators.
DORA_CLASHES = frozenset({Clash.DORA_CHANGED.value, Clash.EXTRA_INDICATOR.value})

if TYPE_CHECKING:
    from vision.read.detector import Detection
    from vision.read.pipeline import Reader, Reading


@dataclass(frozen=True)
class ReadTile:
    """One tile read from an image, in reading order: the tile (None: face down), its box, confidence, row."""

    tile: Tile | None
    box: tuple[float, float, float, float]
    conf: float
    row: int = 0

    def to_dict(self, index: int) -> dict[str, Any]:
        return {
            "index": index,
            "tile": "back" if self.tile is None else str(self.tile),
            "box": [round(v, 1) for v in self.box],
            "conf": round(self.conf, 3),
            "row": self.row,
        }


@dataclass(frozen=True)
class CameraView:
    """What the camera sees now, as the device loop reports it (see :meth:`TableService.observe`)."""

    rows: tuple[tuple[Tile, ...], ...]
    at: float
    frame_id: str | None = None
    #: The kept frame's tiles in reading order (index into the frame, tile, row), for corrections.
    read: tuple[tuple[int, str, int], ...] = ()
    #: The frame read as a whole table, seat by seat (``vision.read.table.TableObservation.as_json()``), if it was.
    table: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [format_tiles(r) for r in self.rows],
            "tiles": [[str(t) for t in r] for r in self.rows],
            "at": self.at,
            "frame_id": self.frame_id,
            "read": [{"index": i, "tile": t, "row": r} for i, t, r in self.read],
            "table": self.table,
        }


class TableService:
    """Everything one table needs, shared by the web site and the camera loop."""

    def __init__(
        self,
        *,
        pin: str,
        rules: RuleSet | None = None,
        db_path: str | None = None,
        photo_reader: Reader | None = None,
        photo_max_side: int = 2048,
        corrections_dir: str | None = None,
        bus: EventBus | None = None,
        url: str = "",
        max_streams: int = 32,
        pin_attempts: int = 5,
        pin_window_s: float = 2.0,
        pin_guard: PinGuard | None = None,
        max_pending_reads: int = 3,
        camera_seat: int | None = None,
        auto_confirm_s: float = 0.0,
        clash_frames: int = KEEP,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not pin or not pin.isdigit() or not 4 <= len(pin) <= 12:
            raise ValueError("the table PIN is 4 to 12 digits")
        self._pin = pin
        #: The join token, the cookies' key and the sessions, kept beside the game log (a restart logs nobody out).
        self.access = TableAccess(db_path or ":memory:")
        #: Changes whenever the PIN does (and only then): sessions unlocked with an old PIN are locked again.
        self.pin_epoch = hmac.new(self.access.secret("pin_epoch_key").encode(), pin.encode(), "sha256").hexdigest()[:16]
        self.rules = rules or preset("standard")
        self.db_path = db_path
        #: Reads phone photos (:meth:`vision.read.pipeline.ReaderConfig.for_photo`), one read at a time with the
        #: camera's reader it shares its networks with.
        self.photo_reader = photo_reader
        self.photo_max_side = photo_max_side
        self.corrections = CorrectionStore(corrections_dir)
        self.bus = bus or EventBus(max_subscribers=max_streams)
        self.url = url
        #: The game seat (0..3) at the bottom edge of the camera's frame; None: not known, the phones name the
        #: table's seats as the camera sees them.
        self.camera_seat = check_camera_seat(camera_seat)
        self._lock = threading.RLock()
        self._camera: CameraView | None = None
        #: What is wrong with the camera, for the phones (:meth:`set_camera_problem`); None: nothing known.
        self.camera_problem: str | None = None
        #: Wrong PINs, per address: the ``pin_attempts``-th makes that address wait ``pin_window_s`` seconds, each
        #: later one twice as long (up to an hour); never for the whole table.
        self.pin_guard = pin_guard or PinGuard(attempts=pin_attempts, first_wait_s=pin_window_s)
        self._reads = threading.BoundedSemaphore(max_pending_reads)  # more waiting than this: "busy", try later
        self._decoding = threading.Lock()
        self.game = GameSession(self.rules, store=_open_store(db_path))
        #: What the camera sees, played into the game (``auto_confirm_s``: a result laid down settles itself after
        #: that many seconds; 0: a phone confirms it).
        self.camera_game = CameraGame(
            self.game, camera_seat=self.camera_seat, auto_confirm_s=auto_confirm_s, correct=self._keep_fix, clock=clock
        )
        #: The pictures of the frames the camera game's contradictions were seen in (the last ``clash_frames``).
        self.clash_frames = ClashFrames(keep=clash_frames)
        #: The frame the camera game saw last, as read (its stored id, the image, its table), for those pictures.
        self._seen: tuple[str, Any, TableObservation | None] | None = None

    # --- PIN ---------------------------------------------------------------------------------------------

    def check_pin(self, pin: Any, *, client: str = "") -> bool:
        """Whether ``pin`` is the table's PIN. Raises PinLocked while ``client``'s address waits after wrong PINs
        (see :class:`device.table.pin.PinGuard`: per address, never for the whole table)."""
        return self._checked(client, isinstance(pin, str) and hmac.compare_digest(pin.encode(), self._pin.encode()))

    def check_pin_proof(self, nonce: str, proof: Any, *, client: str = "") -> bool:
        """Whether ``proof`` is :func:`pin_proof` of the table's PIN for ``nonce`` (a challenge the site issued):
        the join page proves it knows the PIN without sending it. Counted like :meth:`check_pin`."""
        expected = pin_proof(self._pin, self.pin_salt, nonce)
        return self._checked(client, isinstance(proof, str) and hmac.compare_digest(proof.encode(), expected.encode()))

    def _checked(self, client: str, ok: bool) -> bool:
        wait = self.pin_guard.wait_s(client)
        if wait is not None:
            raise PinLocked(
                f"too many wrong PINs from this phone: try again in {wait} s, or scan the table's QR code", wait
            )
        if ok:
            self.pin_guard.succeeded(client)
        else:
            self.pin_guard.failed(client)
        return ok

    @property
    def pin_salt(self) -> str:
        """The table's salt for :func:`pin_proof`: public (the join page is given it), kept across restarts."""
        return self.access.secret("pin_salt")

    @property
    def site_key(self) -> str:
        """The key that signs the phones' cookies, kept across restarts (a restart logs nobody out)."""
        return self.access.secret("site_key", lambda: secrets.token_hex(32))

    def join_token(self) -> str:
        """The token the table's QR code carries (``/join/<token>``): it joins with no PIN."""
        return self.access.join_token()

    def check_join_token(self, token: Any) -> bool:
        return self.access.is_join_token(token)

    def rotate_join_token(self) -> str:
        """A new join token: the QR codes printed or shown before join no one from now on."""
        return self.access.rotate_join_token()

    # --- state and events --------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the live page shows, JSON-ready."""
        with self._lock:
            game = self.game.view()
            return {
                "at": time.time(),
                "seq": self.bus.seq,
                "table": {"url": self.url, "rules": self.rules.name},
                "game": game,
                "camera": self._camera_dict(self._camera, game["seats"] if game else None),
                "camera_problem": self.camera_problem,
                "corrections": self.corrections.summary(),
            }

    def publish_state(self) -> None:
        self.bus.publish("state", self.state())

    def set_camera_problem(self, problem: str | None) -> None:
        """What is wrong with the camera, said to the phones as it is ("camera not found: check the cable ...");
        None once it works again. Published only when it changes."""
        with self._lock:
            if problem == self.camera_problem:
                return
            self.camera_problem = problem
        self.publish_state()

    # --- scoring -----------------------------------------------------------------------------------------

    def score(self, payload: Any) -> dict[str, Any]:
        """Score a JSON request (see :mod:`web.hand_request`); returns ``ScoreResult.to_dict()``."""
        from engine.scoring import score_hand

        hand, ctx, rules = parse_score_request(payload, self.rules)
        result = score_hand(hand, ctx, rules)
        return result.to_dict()

    def waits(self, payload: Any) -> dict[str, Any]:
        """A player's own hand (not recorded): its waits, what each is worth, and furiten at this table."""
        if not isinstance(payload, dict):
            raise BadRequest("the request is a JSON object")
        unknown = sorted(str(k) for k in set(payload) - {"hand", "seat"})
        if unknown:
            raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
        return self.game.probe(payload)

    # --- reading images ----------------------------------------------------------------------------------

    def read_image(self, data: bytes, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Read the tiles in an encoded image; with 14 face-up tiles also score them.

        ``options`` may hold the scoring fields of :mod:`web.hand_request` (win_tile, tsumo, flags ...);
        without a ``win_tile`` the last tile read is taken as the winning tile.
        Raises BadRequest for bytes that are no image, NoDetector when the table has no ``photo_reader``.
        """
        reader = self.photo_reader
        if reader is None:
            raise NoDetector("no tile detector is installed on this table (see models/)")
        if not self._reads.acquire(blocking=False):
            raise Busy("the table is reading other photos: try again in a moment")
        try:
            return self._read_image(reader, data, options)
        finally:
            self._reads.release()

    def _read_image(self, reader: Reader, data: bytes, options: dict[str, Any] | None) -> dict[str, Any]:
        from vision.read.errors import UnreadableImage

        t0 = time.perf_counter()
        try:
            with self._decoding:  # one photo decoded at a time: a PNG is decoded whole, up to 120 MB for 40 MP
                image = decode_photo(data, self.photo_max_side)
        except UnreadableImage as exc:
            if isinstance(exc, TooLarge):
                raise
            raise BadRequest(str(exc)) from None
        t1 = time.perf_counter()
        reading = reader.read(image)  # waits for a read in progress (the camera's, another photo's)
        t2 = time.perf_counter()
        tiles = [
            ReadTile(d.tile, _box(d), float(d.conf), r) for r, row in enumerate(reading.rows) for d in row.detections
        ]
        height, width = image.shape[:2]
        frame_id = self.corrections.add_frame(
            _photo_encoder(data), width, height, [FrameTile(t.tile, t.box, t.conf) for t in tiles], size=len(data)
        )
        out = self._reading(frame_id, tiles, options or {})
        out.update(width=width, height=height)
        out["ms"] = {
            "decode": round((t1 - t0) * 1000, 1),
            "detect": round((t2 - t1) * 1000, 1),
            "total": round((time.perf_counter() - t0) * 1000, 1),
        }
        return out

    def _reading(self, frame_id: str | None, tiles: Sequence[ReadTile], options: dict[str, Any]) -> dict[str, Any]:
        face_up = [t.tile for t in tiles if t.tile is not None]
        rows: dict[int, list[Tile]] = defaultdict(list)
        for t in tiles:
            if t.tile is not None:
                rows[t.row].append(t.tile)
        out: dict[str, Any] = {
            "frame_id": frame_id,
            "tiles": " ".join(format_tiles(rows[r]) for r in sorted(rows)),
            "read": [t.to_dict(i) for i, t in enumerate(tiles)],
            "count": len(face_up),
            "complete": len(face_up) == 14,
            "score": None,
        }
        if len(face_up) == 14:
            request = {k: v for k, v in options.items() if k != "hand"}
            request["hand"] = format_tiles(face_up)
            if "win_tile" not in request:
                request["win_tile"] = str(face_up[-1])
            try:
                out["score"] = self.score(request)
            except (BadRequest, ValueError) as exc:  # InvalidHand is a ValueError
                out["score_error"] = str(exc)
        return out

    # --- the camera --------------------------------------------------------------------------------------

    def observe(self, reading: Reading) -> None:
        """The device loop reports what the camera sees now: the camera reader's
        :class:`~vision.read.pipeline.Reading` of a frame (its rows, detections, frame and table, kept as read; the
        frame is held for corrections when it has tiles). A reading with a table
        (:attr:`~vision.read.pipeline.Reading.table`) is played into the game by the camera game; what that changes is
        published (``state`` and ``follow``). Anything but a ``Reading`` raises TypeError.
        """
        from vision.read.pipeline import Reading

        if not isinstance(reading, Reading):
            raise TypeError(f"observe takes the camera reader's Reading, not {type(reading).__name__}")
        frame, dets = reading.image, list(reading.detections)
        frame_id = None
        read: tuple[tuple[int, str, int], ...] = ()
        if dets:
            index = {id(d): i for i, d in enumerate(dets)}
            read = tuple(
                (index[id(d)], str(d.tile), r)
                for r, row in enumerate(reading.rows)
                for d in row.detections
                if id(d) in index and d.tile is not None
            )
            height, width = frame.shape[:2]
            frame_id = self.corrections.add_frame(
                _jpeg_encoder(frame, None),
                width,
                height,
                [FrameTile(d.tile, _box(d), float(d.conf)) for d in dets],
                camera=True,
            )
        table = reading.table
        view = CameraView(reading.tile_rows, time.time(), frame_id, read, None if table is None else table.as_json())
        table_view(view.table, None, None)  # a table whose dora indicators are not tiles is refused here
        changed = False
        if table is not None:
            self._seen = None if frame_id is None else (frame_id, frame, table)
            changed = self.camera_game.observe(table, frame_id, dets)
        with self._lock:
            self._camera = view
            g = self.game.game
            data = self._camera_dict(view, [{"wind": g.seat_wind(s).letter, "name": g.seats[s]} for s in range(4)])
        self.bus.publish("camera", data)
        if changed:
            self._publish_follow()

    def hold(self) -> None:
        """The camera sees the table as in the last frame for one frame more (the loop's gate found it unchanged):
        the camera game counts it (a change must hold a few frames; a result may confirm itself)."""
        if self.camera_game.hold():
            self._publish_follow()

    def _publish_follow(self) -> None:
        self.publish_state()
        self.bus.publish("follow", self._follow_view())

    def set_camera_seat(self, seat: Any) -> dict[str, Any]:
        """The game seat (0..3; None: not known) at the bottom edge of the camera's frame. Returns the camera game's
        view (``state()["camera"]["follow"]``). Raises BadRequest for another value."""
        try:
            seat = check_camera_seat(seat)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        with self._lock:
            self.camera_seat = seat
            self.camera_game.set_camera_seat(seat)
        self._publish_follow()
        return self._follow_view()

    def camera_action(self, action: str, body: Any) -> dict[str, Any]:
        """A phone's answer to what the camera proposed: ``undo`` ``{"id": N}`` (a camera event, and every event
        after it), ``fix`` ``{"id": N, "tile": "5m", "seat": S}`` (tile and/or seat), ``resync`` ``{}`` (the table as
        seen now is right), ``confirm`` ``{}`` (the pending win or draw: points move), ``dismiss`` ``{}``.

        Returns the camera game's view (``state()["camera"]["follow"]``); ``confirm`` adds ``"result"`` (the
        engine's ``HandResult.to_dict()``). Raises BadRequest for an unknown action or a bad body, the engine's
        IllegalAction for what the rules refuse (:class:`~device.table.camera_game.NothingPending` when there is
        nothing to confirm or dismiss).
        """
        fields = {"undo": {"id"}, "fix": {"id", "tile", "seat"}, "resync": set(), "confirm": set(), "dismiss": set()}
        if action not in fields:
            raise BadRequest(f"unknown camera action {action!r} (undo, fix, resync, confirm, dismiss)")
        if not isinstance(body, dict):
            raise BadRequest("the request is a JSON object")
        unknown = sorted(str(k) for k in set(body) - fields[action])
        if unknown:
            raise BadRequest(f"unknown field(s) for {action}: {', '.join(unknown)}")
        cam, extra = self.camera_game, {}
        if action in ("undo", "fix"):
            event_id = body.get("id")
            if isinstance(event_id, bool) or not isinstance(event_id, int):
                raise BadRequest(f"id is a camera event's id (a number), not {event_id!r}")
            try:
                if action == "undo":
                    cam.undo(event_id)
                else:
                    tile, seat = _fix_fields(body)
                    extra["event"] = cam.fix(event_id, tile, seat).to_dict()
            except KeyError:
                raise BadRequest(f"no camera event {event_id} in this hand") from None
            except ValueError as exc:  # a fix that names nothing, or a field an event does not have
                if isinstance(exc, EngineError):
                    raise
                raise BadRequest(str(exc)) from None
        elif action == "confirm":
            extra["result"] = cam.confirm()
        else:
            getattr(cam, action)()
        self._publish_follow()
        return {**self._follow_view(), **extra}

    def _keep_fix(self, frame_id: str, index: int, tile: Tile) -> None:
        """A camera event fixed on a phone: the stored frame's tile corrected too (a training example)."""
        try:
            self.correct(frame_id, index, tile)
        except (LookupError, ValueError) as exc:  # the frame is no longer held: the game's fix stands
            log.info("camera fix of frame %s tile %d not kept: %s", frame_id, index, exc)

    def _camera_dict(self, view: CameraView | None, seats: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        """The camera view for the phones: as read, and ``table_view`` (seat names, dora; None without a table)."""
        if view is None:
            return None
        return {
            **view.to_dict(),
            "table_view": table_view(view.table, seats, self.camera_seat),
            "follow": self._follow_view(),
        }

    def _follow_view(self) -> dict[str, Any]:
        """The camera game's view for the phones (``state()["camera"]["follow"]``). Each contradiction says whether
        the picture of its frame is kept (``image``: :meth:`clash_frame` gives it): a contradiction seen in the frame
        the camera game saw last has its picture kept now, its zone outlined."""
        view = self.camera_game.view()
        clashes = view["contradictions"]
        seen = self._seen
        if seen is not None:
            frame_id, image, table = seen
            here = [c for c in clashes if c["frame_id"] == frame_id]
            if here:
                zones = (self._clash_zone(table, c) for c in here)
                self.clash_frames.keep(frame_id, image, [z for z in zones if z is not None])
        for c in clashes:
            c["image"] = c["frame_id"] is not None and c["frame_id"] in self.clash_frames
        return view

    def _clash_zone(self, table: TableObservation | None, clash: dict[str, Any]) -> Zone | None:
        """Where a contradiction lies in its frame: its side's (or its seat's) pond and melds, or the dora indicators
        for a clash of theirs; None where it names no place."""
        if clash["side"] is not None:
            return clash_zone(table, ViewSide(clash["side"]))
        if clash["seat"] is not None:  # a seat the rules refused: at its side of the camera's view
            return clash_zone(table, self.camera_game.side_of(clash["seat"]))
        if clash["clash"] in DORA_CLASHES:
            return clash_zone(table, None)
        return None

    def clash_frame(self, frame_id: str) -> bytes:
        """The picture (JPEG) of a frame a contradiction was seen in, its zone outlined; raises UnknownFrame for an
        id whose picture is not kept (only the last few are: :class:`~device.table.clash_frames.ClashFrames`)."""
        return self.clash_frames.jpeg(frame_id)

    @property
    def camera(self) -> CameraView | None:
        return self._camera

    def correct(self, frame_id: str, index: int, tile: Tile | None, *, remove: bool = False) -> dict[str, Any]:
        fix = self.corrections.correct(frame_id, index, tile, remove=remove)
        self.bus.publish("corrections", self.corrections.summary())
        return fix.to_dict()

    # --- the game ----------------------------------------------------------------------------------------

    def new_game(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a new game: ``{"rules": preset name or options, "names": [four names]}``."""
        rules = parse_rules(body.get("rules"), self.rules)
        names = body.get("names") or ["", "", "", ""]
        if (
            not isinstance(names, list)
            or len(names) != 4
            or not all(isinstance(n, str) and len(n) <= 20 for n in names)
        ):
            raise BadRequest("names is a list of four short names (empty for the default)")
        defaults = SEAT_NAMES
        seats = tuple(n.strip() or default for n, default in zip(names, defaults, strict=True))
        self.game.new(rules, seats)
        self.rules = rules
        self.camera_game.reset()
        self.publish_state()
        return {"rules": rules.name, "seats": list(seats)}

    def record(self, action: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """A change to the game from a phone: ``win``, ``draw``, ``abort``, ``chombo``, ``riichi`` or ``event``."""
        handler = {
            "win": self.game.win,
            "draw": self.game.draw,
            "abort": self.game.abort,
            "chombo": self.game.chombo,
            "riichi": self.game.riichi,
            "event": self.game.event,
        }.get(action)
        if handler is None:
            raise BadRequest(f"unknown action {action!r}")
        result = handler(body)
        self.publish_state()
        return None if result is None else result.to_dict()

    def preview_win(self, body: dict[str, Any]) -> dict[str, Any]:
        """What recording this win (``record("win", body)``) would move, seat by seat; nothing is recorded.

        The engine settles it exactly as it would the recorded win: liability (包, pao), honba, riichi sticks and
        several winners included. ``HandResult.to_dict()``: ``deltas`` by seat and each ``transfer`` with its reason.
        """
        return self.game.preview_win(body).to_dict()

    def apply_event(self, event: Any) -> Any:
        """An engine event from the camera pipeline (or a replay): applied and published."""
        result = self.game.apply(event)
        self.publish_state()
        return result

    def undo(self) -> dict[str, Any]:
        self.game.undo()
        self.publish_state()
        return {"undone": True}

    def export_game(self) -> dict[str, Any]:
        return self.game.export()

    def keyed_write(self, key: str, digest: str) -> tuple[int, str, bytes] | bool | None:
        """A keyed game write as the game's store knows it (see ``GameStore.keyed_write``): a retry after a crash."""
        return self.game.store.keyed_write(key, digest)

    def keep_answer(self, key: str, digest: str, status: int, mimetype: str, body: bytes) -> None:
        """The answer sent to a keyed game write, kept with its key for a retry."""
        self.game.store.keep_answer(key, digest, status, mimetype, body)

    def import_game(self, data: Any) -> dict[str, Any]:
        """Make a game file (``export_game`` output) the table's game: stored as a new game, every event checked."""
        self.game.import_game(data)
        self.rules = self.game.game.rules
        self.camera_game.reset()
        self.publish_state()
        return {"imported": True, "events": len(self.game.game.events)}

    def close(self) -> None:
        self.bus.close()
        self.game.close()
        self.access.close()


def _box(detection: Detection) -> tuple[float, float, float, float]:
    b = detection.box
    return (float(b.x1), float(b.y1), float(b.x2), float(b.y2))


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, without decoding it; None when not a readable JPEG.

    >>> import cv2, numpy as np
    >>> jpeg_size(cv2.imencode(".jpg", np.zeros((30, 50, 3), np.uint8))[1].tobytes())
    (50, 30)
    """
    if data[:2] != b"\xff\xd8":
        return None
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                return None
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return (width, height) if width and height else None
        i += 2 + length
    return None


#: The largest photo accepted, in pixels (a 12 MP phone photo is 12e6; a decompression bomb is far more). A JPEG is
#: decoded straight at a fraction of its size, so this bounds only the work.
MAX_PHOTO_PIXELS = 40_000_000
#: The largest PNG accepted (a phone's screenshot is 2-4 MP): a PNG is decoded whole, and OpenCV's decoder peaks at
#: about twice the decoded image, 6 bytes a pixel (100 MB at 16 MP). One photo is decoded at a time.
MAX_PNG_PIXELS = 16_000_000


class TooManyPixels(UnreadableImage, TooLarge):
    """A photo whose header gives more pixels than :data:`MAX_PHOTO_PIXELS`: refused before it is decoded (a 413)."""


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header; None when not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def decode_photo(data: bytes, max_side: int) -> Any:
    """A photo as an upright BGR array whose longer side is about ``max_side`` at most.

    A large JPEG (a 12 MP phone photo) is decoded straight at 1/2, 1/4 or 1/8 size (the JPEG decoder scales
    for free, and still applies the EXIF orientation); a PNG is decoded whole and shrunk. Other formats, and
    images over ``MAX_PHOTO_PIXELS`` (a PNG: ``MAX_PNG_PIXELS``), judged from the header before decoding, are
    refused (:class:`TooManyPixels`).
    """
    import cv2
    import numpy as np

    from vision.read.errors import UnreadableImage
    from vision.read.images import decode_image

    size = jpeg_size(data) or png_size(data)
    if size is None:
        raise UnreadableImage("upload: not a readable image (send a JPEG or PNG photo)")
    png = data[:2] != b"\xff\xd8"
    most = MAX_PNG_PIXELS if png else MAX_PHOTO_PIXELS
    if size[0] * size[1] > most:
        raise TooManyPixels(
            f"upload: {size[0]}x{size[1]} is too many pixels to read (at most {most // 10**6} MP"
            f"{' for a PNG' if png else ''}): send a smaller photo"
        )
    if max(size) > max_side and data[:2] == b"\xff\xd8":
        factor = next((f for f in (2, 4, 8) if max(size) / f <= max_side), 8)
        flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
        try:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
        except cv2.error:
            image = None
        if image is None or image.size == 0:
            raise UnreadableImage("upload: not a readable image (JPEG, PNG, BMP, TIFF, WebP ...)")
        return image
    image = decode_image(data, name="upload")
    h, w = image.shape[:2]
    if max(h, w) > max_side:
        scale = max_side / max(h, w)
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return image


def _fix_fields(body: dict[str, Any]) -> tuple[Tile | None, int | None]:
    """A fix's tile (one tile in mpsz) and seat (0..3), each optional; raises BadRequest."""
    tile, seat = body.get("tile"), body.get("seat")
    if tile is not None:
        try:
            tile = Tile.parse(tile) if isinstance(tile, str) else None
        except ValueError:
            tile = None
        if tile is None:
            raise BadRequest(f"tile is one tile in mpsz (5m, 0p, 7z), not {body.get('tile')!r}")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3):
        raise BadRequest(f"seat is 0..3, not {seat!r}")
    if tile is None and seat is None:
        raise BadRequest("a fix names a tile or a seat")
    return tile, seat


def _jpeg_encoder(image: Any, original: bytes | None) -> Callable[[], bytes]:
    """Encode a camera frame (a BGR array) as JPEG only when a correction needs it saved."""

    def encode() -> bytes:
        import cv2

        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise RuntimeError("could not encode the frame as JPEG")
        return buf.tobytes()

    return encode


def _photo_encoder(original: bytes) -> Callable[[], bytes]:
    """An uploaded photo as an upright JPEG, made only when a correction needs it saved.

    Only the uploaded bytes are held (a 12 MP photo decoded would take 36 MB): a plain JPEG is kept as it
    is; anything else (EXIF-rotated, PNG ...) is decoded upright and encoded again when needed.
    """

    def encode() -> bytes:
        if original[:2] == b"\xff\xd8" and b"Exif" not in original[:4096]:
            return original
        from vision.read.images import decode_image

        return _jpeg_encoder(decode_image(original), None)()

    return encode


def _open_store(db_path: str | None) -> GameStore:
    """The game's append-only event log (``device.table.storage``); in memory only without a path."""
    if db_path is None:
        return GameStore(":memory:")
    store = GameStore(db_path)
    if not store.games():
        _import_legacy_game(store, db_path)
    return store


def _import_legacy_game(store: GameStore, db_path: str) -> None:
    """A game left in the file by the table's earlier log (tables ``meta`` and ``events``): stored as a game here.

    That log deleted rows to undo; its tables are left as they are (read once, never written again).
    """
    import json
    import logging
    import sqlite3

    from engine.errors import EngineError

    db = sqlite3.connect(db_path)
    try:
        row = db.execute("SELECT data FROM meta WHERE id = 1").fetchone()
        events = [json.loads(r[0]) for r in db.execute("SELECT data FROM events ORDER BY id")] if row else []
    except sqlite3.OperationalError:  # no such tables: nothing to bring over
        return
    finally:
        db.close()
    if row is None:
        return
    try:
        store.import_json({**json.loads(row[0]), "events": events})
    except (EngineError, ValueError, TypeError) as exc:
        logging.getLogger(__name__).warning("the game in %s's old log cannot be replayed, not kept: %s", db_path, exc)


__all__ = ["BadRequest", "CameraView", "NoDetector", "PinLocked", "ReadTile", "TableService", "parse_rules"]
