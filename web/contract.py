"""What the site needs of the table service: the methods it calls, the errors it maps to status codes, and the
event stream's message types.

The site is handed a service (``create_app(config, service)``) and imports nothing from ``device``; the
device's :class:`device.table.service.TableService` meets :class:`TableServiceLike` and raises these errors.
The request errors (:class:`web.hand_request.BadRequest`) live with the request parsing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.tiles import Tile

#: The ``event:`` name of the message telling a stream it missed messages and must reload the state.
RESYNC = "resync"


@dataclass(frozen=True)
class Message:
    """One published update: its sequence number, kind (the SSE ``event:`` name) and JSON data."""

    seq: int
    kind: str
    data: Any
    #: Wall-clock time of publication (``time.time()``), for latency measurements.
    at: float = field(default=0.0, compare=False)

    def sse(self) -> str:
        """The message as one Server-Sent Events frame."""
        payload = json.dumps(self.data, separators=(",", ":"), ensure_ascii=False)
        lines = "".join(f"data: {line}\n" for line in payload.splitlines() or [""])
        return f"id: {self.seq}\nevent: {self.kind}\n{lines}\n"


class TooManySubscribers(RuntimeError):
    """The bus already has its maximum number of open streams."""


class PinLocked(PermissionError):
    """Too many wrong PINs from one address: wait ``retry_after_s`` seconds (None: not said) before trying again."""

    def __init__(self, message: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class Busy(RuntimeError):
    """Too many photos are being read at once."""


class NoDetector(RuntimeError):
    """Photo reading needs a detector, and none is installed."""


class TooLarge(ValueError):
    """An upload too large to take in (a photo with too many pixels to decode): a 413."""


class UnknownFrame(LookupError):
    """A frame id that is not (or no longer) held."""


class StaleWrite(RuntimeError):
    """A write made on a game revision that is no longer the game's (a double tap, another phone first): nothing
    was recorded. ``revision`` is the game's revision now."""

    def __init__(self, message: str, revision: str) -> None:
        super().__init__(message)
        self.revision = revision


@dataclass
class WriteIntent:
    """What a phone's game write says about itself, read by the service as it records the write:

    * ``revision``: the game revision (``state()["game"]["revision"]``) the phone saw when it was tapped; the service
      refuses the write with :class:`StaleWrite` when the game has moved on since (None: not checked);
    * ``key``: the scoped ``Idempotency-Key`` and the request's digest, stored in the write's own transaction.

    Each is used by the first write of the request and then cleared."""

    revision: str | None = None
    key: tuple[str, str] | None = None


#: The game write being answered in this thread (set by the site around a game write's view; None: none).
CURRENT_WRITE: ContextVar[WriteIntent | None] = ContextVar("jantaku_current_write", default=None)


class SubscriptionLike(Protocol):
    """One open event stream (see ``device.table.bus.Subscription``), closed on leaving ``with``."""

    last_seq: int

    @property
    def ended(self) -> bool: ...
    def next(self, timeout: float | None = None) -> list[Message]: ...
    def __enter__(self) -> SubscriptionLike: ...
    def __exit__(self, *exc: object) -> None: ...


class EventBusLike(Protocol):
    """The service's fan-out of published messages."""

    @property
    def seq(self) -> int: ...
    def subscribe(self, last_seq: int | None = None) -> SubscriptionLike: ...


class CorrectionsLike(Protocol):
    """The service's store of corrected camera frames."""

    def summary(self) -> dict[str, Any]: ...
    def export_yolo_chunks(self) -> Iterator[bytes]: ...


class TableServiceLike(Protocol):
    """The table service's methods and attributes the site calls; each may raise the errors above or
    :class:`web.hand_request.BadRequest`."""

    url: str
    bus: EventBusLike
    corrections: CorrectionsLike

    def check_pin(self, pin: Any, *, client: str = "") -> bool: ...

    # joining without sending the PIN: the join page's proof of it for a one-time nonce (HMAC-SHA256 keyed by
    # SHA-256 of ``pin_salt:PIN``), and the join token the table's QR code carries
    pin_salt: str

    def check_pin_proof(self, nonce: str, proof: Any, *, client: str = "") -> bool: ...
    def join_token(self) -> str: ...
    def check_join_token(self, token: Any) -> bool: ...
    def rotate_join_token(self) -> str: ...
    def state(self) -> dict[str, Any]: ...
    def score(self, payload: Any) -> dict[str, Any]: ...
    def waits(self, payload: Any) -> dict[str, Any]: ...
    def read_image(self, data: bytes, options: dict[str, Any] | None = None) -> dict[str, Any]: ...
    def correct(self, frame_id: str, index: int, tile: Tile | None, *, remove: bool = False) -> dict[str, Any]: ...
    def new_game(self, body: dict[str, Any]) -> dict[str, Any]: ...
    def record(self, action: str, body: dict[str, Any]) -> dict[str, Any] | None: ...
    def preview_win(self, body: dict[str, Any]) -> dict[str, Any]: ...
    def undo(self) -> dict[str, Any]: ...
    # a keyed game write as the table's store knows it: None (not recorded), True (recorded, answer not kept) or the
    # answer ``(status, mimetype, body)``; raises ValueError for a key recorded with another digest
    def keyed_write(self, key: str, digest: str) -> tuple[int, str, bytes] | bool | None: ...
    def keep_answer(self, key: str, digest: str, status: int, mimetype: str, body: bytes) -> None: ...
    def export_game(self) -> dict[str, Any]: ...
    def import_game(self, data: Any) -> dict[str, Any]: ...
    # the camera following the game: the game seat at the frame's bottom edge (0..3, None: not known), and the
    # phones' answers to what it proposed (undo, fix, resync, confirm, dismiss); both return
    # ``state()["camera"]["follow"]`` (confirm adds ``"result"``, fix ``"event"``)
    def set_camera_seat(self, seat: int | None) -> dict[str, Any]: ...
    def camera_action(self, action: str, body: dict[str, Any]) -> dict[str, Any]: ...
    # the picture (JPEG) of a frame a contradiction was seen in (``follow.contradictions[i]`` has ``"image": true``
    # while it is kept); raises UnknownFrame for any other id
    def clash_frame(self, frame_id: str) -> bytes: ...
