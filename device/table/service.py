"""The table service: the one object the web site (and the camera loop) talks to.

It holds the current game (the engine's state, derived from the SQLite event log: :mod:`device.table.game_session`),
scores hands, reads photos (:mod:`device.table.photos`: the photo :class:`~vision.read.pipeline.Reader` it is
given, ``photo_reader``; a test gives ``Reader.around(its_fake_detector)``), keeps what the camera sees and plays it
into the game (:mod:`device.table.camera_feed`: the device loop pushes each
:class:`~vision.read.pipeline.Reading` through :meth:`TableService.observe` and :meth:`TableService.hold`; the phones
undo, fix, resync and confirm through :meth:`TableService.camera_action`), keeps the frames players correct as
labelled examples, and publishes every change on an :class:`~device.table.bus.EventBus` for the phones' event
streams.

The site checks each request (:mod:`web.hand_request`, :mod:`web.camera`) and hands the service engine values and
the typed requests of :mod:`web.contract`; the service checks only what needs the game. From ``web`` it imports only
that contract (its errors, message and request types).

Locks. Thread-safe: the web server calls it from many threads, the camera loop from its own. Four locks are held
one inside another, always in this order (a thread holding one takes only those after it):

1. the service's ``_lock`` (its state and the camera's latest reading, shared with its :class:`CameraFeed`);
2. the camera game's (:class:`~device.table.camera_game.CameraGame`: what the camera proposed);
3. the game session's (:class:`~device.table.game_session.GameSession`: one write at a time, the revision);
4. the store's (:class:`~device.table.storage.GameStore`: the SQLite connection).

The other locks guard one thing each and are never held while another is taken: the photo reads' slots and the
one decode at a time (:class:`~device.table.photos.PhotoDesk`), the reader's own, the corrections', the clash
pictures', the access secrets', the PIN guard's and the event bus's.

>>> svc = TableService(pin="482913")
>>> svc.check_pin("482913", client="phone"), svc.check_pin("000000", client="phone")
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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from device.table.access import TableAccess
from device.table.bus import EventBus
from device.table.camera_feed import CameraFeed, CameraReading
from device.table.camera_game import CameraGame
from device.table.clash_frames import KEEP
from device.table.corrections import CorrectionStore
from device.table.game_session import SEAT_NAMES, GameSession
from device.table.photos import PhotoDesk
from device.table.pin import PinGuard, pin_problem, pin_proof
from device.table.storage import open_store
from device.table.table_labels import check_camera_seat
from engine.errors import EngineError
from engine.hand import Hand
from engine.rules import RuleSet, preset
from engine.tiles import Tile
from web.contract import BadRequest, PinLocked, ScoreOptions, WinRequest

if TYPE_CHECKING:
    from engine.game.events import Event
    from engine.scoring import WinContext
    from vision.read.pipeline import Reader, Reading

log = logging.getLogger(__name__)


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
        problem = pin_problem(pin)
        if problem is not None:
            raise ValueError(problem)
        self._pin = pin
        #: The join token, the cookies' key and the sessions, kept beside the game log (a restart logs nobody out).
        self.access = TableAccess(db_path or ":memory:")
        #: Changes whenever the PIN does (and only then): sessions unlocked with an old PIN are locked again.
        self.pin_epoch = hmac.new(self.access.secret("pin_epoch_key").encode(), pin.encode(), "sha256").hexdigest()[:16]
        self.rules = rules or preset("standard")
        self.db_path = db_path
        self.corrections = CorrectionStore(corrections_dir)
        #: Reads phone photos (:meth:`vision.read.pipeline.ReaderConfig.for_photo`), one read at a time with the
        #: camera's reader it shares its networks with.
        self.photos = PhotoDesk(photo_reader, self.corrections, max_side=photo_max_side, max_pending=max_pending_reads)
        self.bus = bus or EventBus(max_subscribers=max_streams)
        self.url = url
        camera_seat = check_camera_seat(camera_seat)
        self._lock = threading.RLock()
        #: What is wrong with the camera, for the phones (:meth:`set_camera_problem`); None: nothing known.
        self.camera_problem: str | None = None
        #: Wrong PINs, per address: the ``pin_attempts``-th makes that address wait ``pin_window_s`` seconds, each
        #: later one twice as long (up to an hour); never for the whole table.
        self.pin_guard = pin_guard or PinGuard(attempts=pin_attempts, first_wait_s=pin_window_s)
        self.game = GameSession(self.rules, store=open_store(db_path))
        #: What the camera sees, played into the game (``auto_confirm_s``: a result laid down settles itself after
        #: that many seconds; 0: a phone confirms it).
        self.camera_game = CameraGame(
            self.game, camera_seat=camera_seat, auto_confirm_s=auto_confirm_s, correct=self._keep_fix, clock=clock
        )
        #: The camera's latest reading, the camera game it plays into and the pictures of its contradictions.
        self.feed = CameraFeed(
            self.game,
            self.camera_game,
            self.corrections,
            self.bus,
            lock=self._lock,
            publish_state=self.publish_state,
            camera_seat=camera_seat,
            clash_frames=clash_frames,
        )

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
            game = self.game.state()
            return {
                "at": time.time(),
                "seq": self.bus.seq,
                "table": {"url": self.url, "rules": self.rules.name},
                "game": game,
                "camera": self.feed.to_dict(game["seats"] if game else None),
                # the camera game's state, here only (None until the camera has seen something)
                "follow": None if self.feed.latest is None else self.feed.follow_state(),
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

    # --- scoring and reading photos ----------------------------------------------------------------------

    def score(self, hand: Hand, context: WinContext, rules: RuleSet) -> dict[str, Any]:
        """``ScoreResult.to_dict()`` of ``hand`` won as ``context`` says, under ``rules``."""
        from engine.scoring import score_hand

        return score_hand(hand, context, rules).to_dict()

    def waits(self, hand: Hand, seat: int | None) -> dict[str, Any]:
        """A player's own hand (not recorded): its waits, what each is worth, and furiten at this table (at
        ``seat``'s place; None: priced as a non-dealer's)."""
        return self.game.probe(hand, seat)

    def read_image(self, data: bytes, options: ScoreOptions | None = None) -> dict[str, Any]:
        """Read the tiles in an encoded image; with 14 face-up tiles also score them by ``options`` (None: the table's
        rules, a ron; without a win tile the last tile read is the winning tile). See
        :meth:`device.table.photos.PhotoDesk.read` for what it raises."""
        return self.photos.read(data, options or ScoreOptions(self.rules))

    @property
    def photo_reader(self) -> Reader | None:
        """The reader of phone photos (None: no detector installed: reading a photo is a 503)."""
        return self.photos.reader

    @photo_reader.setter
    def photo_reader(self, reader: Reader | None) -> None:
        self.photos.reader = reader

    # --- the camera --------------------------------------------------------------------------------------

    def observe(self, reading: Reading) -> None:
        """The device loop reports what the camera sees now (see :meth:`CameraFeed.observe`)."""
        self.feed.observe(reading)

    def hold(self) -> None:
        """The camera sees the table as in the last frame for one frame more (see :meth:`CameraFeed.hold`)."""
        self.feed.hold()

    @property
    def camera(self) -> CameraReading | None:
        return self.feed.latest

    @property
    def camera_seat(self) -> int | None:
        """The game seat (0..3) at the bottom edge of the camera's frame; None: not known."""
        return self.feed.camera_seat

    def set_camera_seat(self, seat: int | None) -> dict[str, Any]:
        """The game seat (0..3; None: not known) at the bottom edge of the camera's frame. Returns the camera game's
        state (``state()["follow"]``)."""
        self.feed.set_camera_seat(seat)
        return self.feed.follow_state()

    def camera_action(
        self, action: str, event_id: int | None = None, tile: Tile | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        """A phone's answer to what the camera proposed (``web.camera.ACTIONS``, checked by the site):
        ``undo`` camera event ``event_id`` (and every event after it), ``fix`` it (its ``tile`` and/or ``seat``),
        ``resync`` (the table as seen now is right), ``confirm`` (the pending win or draw: points move), ``dismiss``.

        Returns the camera game's state (``state()["follow"]``); ``confirm`` adds ``"result"`` (the
        engine's ``HandResult.to_dict()``), ``fix`` ``"event"``. Raises BadRequest for an event not in this hand or a
        fix the event cannot take, the engine's IllegalAction for what the rules refuse
        (:class:`~device.table.camera_game.NothingPending` when there is nothing to confirm or dismiss).
        """
        cam, extra = self.camera_game, {}
        if action in ("undo", "fix"):
            try:
                if action == "undo":
                    cam.undo(event_id)
                else:
                    extra["event"] = cam.fix(event_id, tile, seat).to_dict()
            except KeyError:
                raise BadRequest(f"no camera event {event_id} in this hand") from None
            except ValueError as exc:  # a field the event does not have (a seat for the hand start)
                if isinstance(exc, EngineError):
                    raise
                raise BadRequest(str(exc)) from None
        elif action == "confirm":
            extra["result"] = cam.confirm()
        elif action == "resync":
            cam.resync()
        elif action == "dismiss":
            cam.dismiss()
        else:
            raise ValueError(f"unknown camera action {action!r}")
        self.publish_state()
        return {**self.feed.follow_state(), **extra}

    def _keep_fix(self, frame_id: str, index: int, tile: Tile) -> None:
        """A camera event fixed on a phone: the stored frame's tile corrected too (a training example)."""
        try:
            self.correct(frame_id, index, tile)
        except (LookupError, ValueError) as exc:  # the frame is no longer held: the game's fix stands
            log.info("camera fix of frame %s tile %d not kept: %s", frame_id, index, exc)

    def clash_frame(self, frame_id: str) -> bytes:
        """The picture (JPEG) of a frame a contradiction was seen in (see :meth:`CameraFeed.clash_frame`)."""
        return self.feed.clash_frame(frame_id)

    def correct(self, frame_id: str, index: int, tile: Tile | None, *, remove: bool = False) -> dict[str, Any]:
        fix = self.corrections.correct(frame_id, index, tile, remove=remove)
        self.bus.publish("corrections", self.corrections.summary())
        return fix.to_dict()

    # --- the game ----------------------------------------------------------------------------------------

    def new_game(self, rules: RuleSet, names: Sequence[str]) -> dict[str, Any]:
        """Start a new game under ``rules``, the four players named ``names`` ("" for a seat's default name)."""
        seats = tuple(n or default for n, default in zip(names, SEAT_NAMES, strict=True))
        self.game.new(rules, seats)
        self.rules = rules
        self.camera_game.reset()
        self.publish_state()
        return {"rules": rules.name, "seats": list(seats)}

    def record(self, event: Event) -> dict[str, Any] | None:
        """An event a phone sent (a declared draw, abort, chombo or riichi, or any engine event): applied and
        published; its result's ``to_dict()`` (None for an event with no result)."""
        result = self.game.event(event)
        self.publish_state()
        return None if result is None else result.to_dict()

    def win(self, request: WinRequest) -> dict[str, Any] | None:
        """Record a win confirmed on a phone (see :meth:`GameSession.win`); its ``HandResult.to_dict()``."""
        result = self.game.win(request)
        self.publish_state()
        return None if result is None else result.to_dict()

    def preview_win(self, request: WinRequest) -> dict[str, Any]:
        """What recording this win (:meth:`win`) would move, seat by seat; nothing is recorded.

        The engine settles it exactly as it would the recorded win: liability (包, pao), honba, riichi sticks and
        several winners included. ``HandResult.to_dict()``: ``deltas`` by seat and each ``transfer`` with its reason.
        """
        return self.game.preview_win(request).to_dict()

    def apply_event(self, event: Any) -> Any:
        """An engine event from the camera pipeline (or a replay): applied and published."""
        result = self.game.apply(event)
        self.publish_state()
        return result

    def undo(self) -> dict[str, Any]:
        """A phone's Undo: what was recorded last taken back (:meth:`GameSession.undo_write`)."""
        self.game.undo_write()
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


__all__ = ["BadRequest", "CameraReading", "PinLocked", "TableService"]
