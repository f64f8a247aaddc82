"""What the site needs of the table service: the methods it calls, the errors it maps to status codes, and the
event stream's message types.

The site is handed a service (``create_app(config, service)``) and imports nothing from ``device``; the
device's :class:`device.table.service.TableService` meets :class:`TableServiceLike` and raises these errors.

Each phone request is checked once, here in the site (:mod:`web.hand_request`, :mod:`web.camera`): the service is
handed engine values and the typed requests below (:class:`ScoreOptions`, :class:`WinRequest`), never the request's
JSON, and checks only what needs the game (a ron on a discard the record does not have, a camera event gone).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.hand import Hand
from engine.rules import RuleSet
from engine.tiles import Tile, Wind

if TYPE_CHECKING:
    from engine.game.events import Event
    from engine.scoring import WinContext

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


class BadRequest(ValueError):
    """A request the service cannot act on; the message says why (a 400)."""


@dataclass(frozen=True)
class ScoreOptions:
    """A scoring request's fields but the hand (``web.hand_request.parse_score_options``): how a hand is scored.

    >>> from engine.hand import parse_hand
    >>> from engine.rules import preset
    >>> hand, ctx = ScoreOptions(preset("standard"), tsumo=True).for_hand(parse_hand("123m456p789s11z22z2z"))
    >>> str(ctx.win_tile), ctx.tsumo, hand.size
    ('2z', True, 14)
    """

    rules: RuleSet
    #: The winning tile; None: the last concealed tile of a 14-tile hand.
    win_tile: Tile | None = None
    tsumo: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    #: The situational flags set (names of ``engine.game.events.DECLARABLE``).
    flags: tuple[str, ...] = ()
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    honba: int = 0
    sticks: int = 0
    #: The discarder's seat wind for a ron (None: a tsumo, or not said).
    discarder: Wind | None = None

    def for_hand(self, hand: Hand) -> tuple[Hand, WinContext]:
        """``hand`` with the winning tile (added to 13 tiles) and its context, for ``engine.scoring.score_hand``.
        Raises BadRequest when the winning tile is not given and the hand is not 14 tiles to take it from."""
        from engine.scoring import WinContext

        win = self.win_tile
        if win is None:
            if hand.size != 14 or not hand.concealed:
                raise BadRequest("win_tile is required (the winning tile, e.g. '5p')")
            win = hand.concealed[-1]  # the last tile written is the winning tile
        if hand.size == 13:
            hand = hand.with_tile(win)
        ctx = WinContext(
            win_tile=win,
            tsumo=self.tsumo,
            seat_wind=self.seat_wind,
            round_wind=self.round_wind,
            dora_indicators=self.dora,
            ura_indicators=self.ura,
            honba=self.honba,
            sticks=self.sticks,
            discarder=self.discarder,
            **dict.fromkeys(self.flags, True),
        )
        return hand, ctx


@dataclass(frozen=True)
class Winner:
    """One winner of a win a phone confirms (``web.hand_request.parse_win_request``)."""

    seat: int
    #: The winning hand: 14 tiles (kans as 3), the winning tile among the concealed ones.
    hand: Hand
    win_tile: Tile
    #: The situational yaku claimed (names of ``engine.game.events.DECLARABLE``, in its order).
    flags: tuple[str, ...] = ()
    #: The player liable (包, pao) for a big dragons, big winds or four quads in the hand; None: nobody.
    liable: int | None = None


@dataclass(frozen=True)
class WinRequest:
    """A win confirmed on a phone: one winner (a tsumo or a ron), or up to three winners of one discard, each named
    once, all on the same tile."""

    winners: tuple[Winner, ...]
    #: The seat that dealt in; None: a tsumo.
    discarder: int | None = None
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()

    @property
    def tsumo(self) -> bool:
        return self.discarder is None


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


#: The game write being answered in this thread (set by the site around a game write's route; None: none).
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
    """The table service's methods and attributes the site calls; each may raise the errors above."""

    url: str
    #: The table's rules: what a request's partial ``rules`` object is read over.
    rules: RuleSet
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
    # ``ScoreResult.to_dict()`` of a hand (``web.hand_request.parse_score_request`` reads a request into these)
    def score(self, hand: Hand, context: WinContext, rules: RuleSet) -> dict[str, Any]: ...
    # a player's own 13 tiles: waits, their value and furiten (at ``seat``'s place; None: priced as a non-dealer's)
    def waits(self, hand: Hand, seat: int | None) -> dict[str, Any]: ...
    def read_image(self, data: bytes, options: ScoreOptions | None = None) -> dict[str, Any]: ...
    def correct(self, frame_id: str, index: int, tile: Tile | None, *, remove: bool = False) -> dict[str, Any]: ...
    # a new game: its rules and the four players' names ("" for a seat's default name)
    def new_game(self, rules: RuleSet, names: Sequence[str]) -> dict[str, Any]: ...
    # a win (``HandResult.to_dict()``), and what recording it would move (nothing recorded)
    def win(self, request: WinRequest) -> dict[str, Any] | None: ...
    def preview_win(self, request: WinRequest) -> dict[str, Any]: ...
    # an event a phone sent (``web.game_request.game_event``: a declared draw, abort, chombo, riichi, or any event)
    def record(self, event: Event) -> dict[str, Any] | None: ...
    def undo(self) -> dict[str, Any]: ...
    # a keyed game write as the table's store knows it: None (not recorded), True (recorded, answer not kept) or the
    # answer ``(status, mimetype, body)``; raises ValueError for a key recorded with another digest
    def keyed_write(self, key: str, digest: str) -> tuple[int, str, bytes] | bool | None: ...
    def keep_answer(self, key: str, digest: str, status: int, mimetype: str, body: bytes) -> None: ...
    def export_game(self) -> dict[str, Any]: ...
    def import_game(self, data: Any) -> dict[str, Any]: ...
    # the camera following the game: the game seat at the frame's bottom edge (0..3, None: not known), and the
    # phones' answers to what it proposed (undo, fix, resync, confirm, dismiss); both return
    # ``state()["follow"]`` (confirm adds ``"result"``, fix ``"event"``)
    def set_camera_seat(self, seat: int | None) -> dict[str, Any]: ...
    def camera_action(
        self, action: str, event_id: int | None = None, tile: Tile | None = None, seat: int | None = None
    ) -> dict[str, Any]: ...
    # the picture (JPEG) of a frame a contradiction was seen in (``follow.contradictions[i]`` has ``"image": true``
    # while it is kept); raises UnknownFrame for any other id
    def clash_frame(self, frame_id: str) -> bytes: ...
