"""The camera game: what the camera sees of the table, played into the table's game as the engine's own events.

A :class:`CameraGame` joins a :class:`~vision.read.follow.TableFollower` (frames -> public events) and the table's
:class:`~device.table.game_session.GameSession` (the engine's game in its event log):

- a fresh deal seen (no hand in progress, every pond empty, no melds, a dora indicator turned) starts the hand:
  ``HandStart(dora_indicator=...)``;
- each event the follower settles is stored in the game's log like any other (so undo works and the game replays):
  the engine's ``Draw(seat)`` (tile unknown: the camera sees no draw) goes first where the seat must draw before it
  discards, declares a kan or wins by tsumo (a kan's replacement tile included); the seat whose discard is due comes
  from the engine, so a discard out of turn is refused by the follower;
- a refused event (by the follower: a :class:`~vision.read.follow.Contradiction`; by the rules: ``"refused"``) is
  reported with the frame it was seen in and never guessed over; the game stays as it was;
- a hand laid face up becomes a **pending result**: a tsumo (the seat to play; the tile set apart wins), a ron (the
  last discard wins), or, with the live wall empty, the tenpai hands of an exhaustive draw; a first-turn hand shown
  with nine kinds of terminals and honours is its seat's nine-terminals draw, and an abortive draw the rules find
  due from what was seen (four winds, four riichi, four kans) is pending too. The engine scores it from
  its own game (seat and round winds, riichi, ippatsu, dora; the ura indicators turned) as a preview; a ron on a
  furiten wait is flagged. :meth:`CameraGame.confirm` applies it (points move), :meth:`CameraGame.dismiss` drops it,
  and with ``auto_confirm_s`` it confirms itself that long after it was first seen (:meth:`CameraGame.tick`).

Every applied camera event is kept (:class:`CameraEvent`) for the phones, where it can be undone (the game back to
before it, the follower resynced to the frame now seen) or fixed (another tile, another seat; the stored frame's
tile corrected, kept as a training example). :meth:`CameraGame.state` is what the phones show.

>>> from engine.rules import preset
>>> from device.table.game_session import GameSession
>>> camera = CameraGame(GameSession(preset("standard")), camera_seat=2)
>>> camera.state()["camera_seat"], camera.state()["status"]
(2, 'waiting_for_deal')
"""

from __future__ import annotations

import copy
import itertools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from device.table.game_session import GameSession, applied_to_copy
from engine.errors import EngineError, IllegalAction
from engine.game.draws import abort_due
from engine.game.events import (
    Abort,
    AbortiveDraw,
    AddedKan,
    Call,
    ClosedKan,
    Discard,
    DoraFlip,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStart,
    Ron,
    RonClaim,
    Tsumo,
)
from engine.game.furiten import judge
from engine.game.shape import is_complete, kind_counts
from engine.game.state import Game
from engine.game.table import Phase
from engine.game.wins import win_context
from engine.hand import Hand
from engine.tiles import Tile, format_tiles
from vision.read.detector import Detection
from vision.read.follow import SETTLE, VANISH, Contradiction, Reveal, TableFollower, TableSnapshot
from vision.read.table import FrameSide, TableObservation

#: The most camera events kept (a hand has about 70 discards, a few calls and kans).
MAX_EVENTS = 200
#: The most contradictions kept at once (the oldest dropped first).
MAX_CONTRADICTIONS = 20
#: A hand under way whose deal the camera missed is joined when its table has been read on this many frames running,
#: each alike or grown by discards in turn, with at most this many discards in all (two go-rounds: later, a missed
#: call could hide among them).
JOIN_FRAMES = 3
JOIN_MOST_DISCARDS = 8
#: The phones' name of each abortive draw.
ABORT_NAMES = {
    Abort.NINE_TERMINALS: "Nine terminals",
    Abort.FOUR_WINDS: "Four winds",
    Abort.FOUR_KANS: "Four kans",
    Abort.TRIPLE_RON: "Triple ron",
    Abort.FOUR_RIICHI: "Four riichi",
}


class NothingPending(IllegalAction):
    """A confirm or dismiss with no result pending (the site answers it as any refused action)."""

    def __init__(self, what: str) -> None:
        EngineError.__init__(self, what)
        self.event, self.rule, self.detail = None, what, ""


@dataclass(frozen=True)
class CameraEvent:
    """An event the camera proposed and the game took: its ``id`` (for undo and fix), the stored frame it was seen in
    (``frame_id``: the corrections' id, None when no frame was kept) and the follower's frame counter (``frame``),
    its index in the game's events (``seq``), a line for the phones, and the event."""

    id: int
    frame_id: str | None
    frame: int
    seq: int
    text: str
    event: Event
    #: How many events the game held before it (and the draw inserted before it): undo goes back to there.
    before: int
    #: The index of the tile's detection in the stored frame (for a fix to correct), if it was found.
    detection: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "frame_id": self.frame_id,
            "frame": self.frame,
            "seq": self.seq,
            "text": self.text,
            "event": self.event.to_dict(),
        }


@dataclass
class PendingResult:
    """A hand laid down and not yet confirmed: a tsumo, a ron (one or more winners), an exhaustive draw or an
    abortive one."""

    kind: str  # "tsumo" | "ron" | "draw" | "abort"
    seat: int | None
    discarder: int | None
    hand: str
    win_tile: Tile | None
    #: The events confirming applies, in order (a draw the camera did not see included).
    events: tuple[Event, ...]
    #: The engine's result on a copy of the game (``HandResult.to_dict()``); None when the rules refuse it.
    preview: dict[str, Any] | None
    furiten: bool = False
    furiten_reason: str = ""
    #: Why the rules refuse it (a furiten ron, no yaku, a hand that cannot be), "" when they take it.
    error: str = ""
    #: The scorer's reading of a refused win (yaku, han, fu), for the phones to show what was laid down.
    score: dict[str, Any] | None = None
    auto_confirm_at: float | None = None
    #: The revealed hands it was made from, by seat.
    reveals: dict[int, Reveal] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "discarder": self.discarder,
            "hand": self.hand,
            "win_tile": None if self.win_tile is None else str(self.win_tile),
            "preview": self.preview,
            "furiten": self.furiten,
            "furiten_reason": self.furiten_reason,
            "error": self.error,
            "score": self.score,
            "auto_confirm_at": self.auto_confirm_at,
        }


@dataclass
class _Frame:
    """The frame last seen: its table read, its stored id, the reading's detections (for corrections)."""

    table: TableObservation | None
    frame_id: str | None = None
    detections: tuple[Detection, ...] = ()


def expected_seat(game: Game) -> int | None:
    """The seat whose discard is due: the one holding 14 tiles, or the next one to draw; None between hands."""
    h = game.hand
    if h is None:
        return None
    if h.phase is Phase.REACT:
        assert h.discarder is not None
        return (h.discarder + 1) % 4
    return h.actor


def draws_before(game: Game, event: Event) -> tuple[Event, ...]:
    """The engine's ``Draw`` (tile unknown) that must come before ``event``: a discard, a kan from the hand, a tsumo or
    a nine-terminals draw by a seat that has not drawn yet (after another seat's discard, or a kan's replacement
    tile)."""
    h = game.hand
    declared = isinstance(event, AbortiveDraw) and event.reason is Abort.NINE_TERMINALS and event.seat is not None
    if h is None or not (declared or isinstance(event, Discard | AddedKan | ClosedKan | Tsumo)):
        return ()
    if h.phase in (Phase.REACT, Phase.DRAW, Phase.KAN):
        return (Draw(event.seat),)
    return ()


def _early_hand(table: TableObservation | None, dealer: int, side_of: Callable[[int], FrameSide]) -> Any:
    """What an early hand under way shows: (the dora indicator, its discards in turn from ``dealer``), when the table
    shows one indicator, no meld, no hand laid open, and ponds of at most :data:`JOIN_MOST_DISCARDS` tiles in all
    that turn order explains (each seat after the dealer as many discards as the one before it, or one fewer than
    the dealer); else None."""
    if table is None or len(table.dora_indicators) != 1:
        return None
    snapshot = TableSnapshot.of(table)
    if snapshot.open_hand or any(s.melds for s in snapshot.seats):
        return None
    order = [(dealer + k) % 4 for k in range(4)]
    ponds = {seat: snapshot.seat(side_of(seat)) for seat in order}
    sizes = [len(ponds[seat].pond) for seat in order]
    if not 0 < sum(sizes) <= JOIN_MOST_DISCARDS or any(b > a for a, b in itertools.pairwise(sizes)):
        return None
    if sizes[-1] < sizes[0] - 1:
        return None
    discards = []
    for turn in range(sizes[0]):
        for seat in order:
            pond = ponds[seat]
            if turn < len(pond.pond):
                discards.append(Discard(seat, pond.pond[turn], riichi=pond.riichi == turn))
    return snapshot.indicators[0], tuple(discards)


class _EarlyTable(NamedTuple):
    """An early hand under way read on ``frames`` frames running, each alike or grown by discards in turn: its
    indicator and discards (:func:`_early_hand`) and the table of the last of them."""

    indicator: Tile
    discards: tuple[Discard, ...]
    frames: int
    table: TableObservation


def _clear(table: TableObservation | None) -> bool:
    """Whether a table read shows a fresh deal (or a cleared table): no pond tile, no meld, no hand laid open."""
    if table is None:
        return False
    return all(not s.pond and not s.melds for s in table.seats) and not any(
        len(s.hand_tiles) > s.hand_backs and len(s.hand_tiles) >= 13 for s in table.seats
    )


def describe(game: Game, event: Event) -> str:
    """One line for the phones: who did what (seat names and winds from the game)."""

    def who(seat: int) -> str:
        return f"{game.seats[seat]} ({game.seat_wind(seat).letter})"

    if isinstance(event, HandStart):
        return f"{game.round_name}: a new deal, dora indicator {event.dora_indicator}"
    if isinstance(event, Discard):
        return f"{who(event.seat)} discards {event.tile}" + (" and declares riichi" if event.riichi else "")
    if isinstance(event, Call):
        return f"{who(event.seat)} calls {event.kind.value} {format_tiles(event.tiles)}"
    if isinstance(event, AddedKan):
        return f"{who(event.seat)} adds {event.tile} to a pon: kan"
    if isinstance(event, ClosedKan):
        return f"{who(event.seat)} declares a closed kan of {event.tiles[0]}"
    if isinstance(event, DoraFlip):
        return f"new dora indicator {event.indicator}"
    return event.type


class CameraGame:
    """The table's game played along with what the camera sees (the module's docstring). Thread-safe.

    ``session``: the table's game. ``camera_seat``: the game seat at the frame's bottom edge (None: seats are the
    frame's sides, bottom 0). ``auto_confirm_s``: seconds after which a pending result confirms itself (0: never).
    ``correct(frame_id, index, tile)``: keeps a fixed tile as a training example (the service's ``correct``).
    ``clock``: wall-clock seconds (``auto_confirm_at`` is shown to the phones). ``settle``, ``vanish`` and ``fuse``:
    the follower's (:class:`~vision.read.follow.TableFollower`; ``fuse``: frames fused over time before they are
    compared, :mod:`vision.read.fusion`).
    """

    def __init__(
        self,
        session: GameSession,
        *,
        camera_seat: int | None = None,
        auto_confirm_s: float = 0.0,
        correct: Callable[[str, int, Tile], Any] | None = None,
        clock: Callable[[], float] = time.time,
        settle: int = SETTLE,
        vanish: int = VANISH,
        fuse: bool = True,
    ) -> None:
        if auto_confirm_s < 0:
            raise ValueError(f"auto_confirm_s is 0 (never) or more seconds, not {auto_confirm_s}")
        self.session = session
        self.auto_confirm_s = auto_confirm_s
        self.correct = correct
        self.clock = clock
        self._lock = threading.RLock()
        self.follower = TableFollower(camera_seat=camera_seat, settle=settle, vanish=vanish, fuse=fuse)
        self.frame = 0
        self.events: list[CameraEvent] = []
        self.contradictions: list[dict[str, Any]] = []
        self.pending: PendingResult | None = None
        self._last = _Frame(None)
        self._next_id = 1
        self._synced = False  # the first frame seen with a hand in progress is taken as the truth
        #: The game's event count when a pending draw was dismissed (it is not proposed again until the game moves).
        self._dismissed: int | None = None
        #: A hand under way seen while none is in progress (:meth:`_join_hand_under_way`).
        self._early: _EarlyTable | None = None

    # --- frames ----------------------------------------------------------------------------------------------

    def observe(
        self, table: TableObservation | None, frame_id: str | None = None, detections: Sequence[Detection] = ()
    ) -> bool:
        """One frame's table read (None: too few tiles to read a table); ``frame_id`` the stored frame, ``detections``
        the reading's (in the stored frame's order). Returns whether anything the phones show changed."""
        with self._lock:
            self._last = _Frame(table, frame_id, tuple(detections))
            return self._step()

    def hold(self) -> bool:
        """The camera sees the table as in the last frame for one frame more (the loop's gate found it unchanged)."""
        with self._lock:
            return self._step()

    def tick(self) -> bool:
        """Confirm the pending result if its ``auto_confirm_at`` has come; returns whether it did."""
        with self._lock:
            p = self.pending
            if p is None or p.auto_confirm_at is None or self.clock() < p.auto_confirm_at:
                return False
            try:
                self.confirm()
            except EngineError as exc:  # the game changed meanwhile (a phone): the result no longer applies
                self._contradiction("refused", p.seat, None, str(exc))
                self.pending = None
            return True

    def _step(self) -> bool:
        self.frame += 1
        self._prune()
        game = self.session.game
        frame = self._last
        table = frame.table
        changed = False
        if game.hand is None:  # between hands: a cleared table (a fresh deal) is followed afresh
            changed = self.pending is not None
            self.pending = None
            if game.over:
                return changed
            if not _clear(table):
                changed |= self._join_hand_under_way(table)
                if self.session.game.hand is None:
                    return changed
                # joined as the frame before showed it: this frame, which may show more, goes on to the follower
            else:
                self._early = None
                if self.follower.accepted != TableSnapshot():
                    self._new_follower()
        elif not self._synced:  # a hand in progress when the camera starts: the table as first seen is its state
            if table is None:
                return self.tick()
            self.follower.accept(table)
            self._synced = True
            return self.tick()
        self._synced = True
        before = copy.deepcopy(self.follower, {id(self.follower._last): self.follower._last})
        update = self.follower.update(table, self.frame, expected_seat(game))
        for side in update.resolved:
            kept = [c for c in self.contradictions if not (c["side"] == _side_name(side) and c["clash"] != "refused")]
            changed |= len(kept) != len(self.contradictions)
            self.contradictions = kept
        for c in update.contradictions:
            self._contradiction(c.clash.value, c.seat, c.side, c.detail, c)
            changed = True
        if update.opening_indicator is not None:
            changed |= self._opening(update.opening_indicator)
        for applied, event in enumerate(update.events):  # applied: how many of them were taken before this one
            ok = self._apply_camera(event, inferred=any(event is e for e in update.inferred))
            changed = True
            if not ok:
                if not applied:  # nothing of this change taken: it stays to be seen again (and refused again)
                    self.follower = before
                break
        for seat, _, tile in update.late_riichi:
            self._riichi_read_late(seat, tile)
            changed = True
        for seat, _, taken, tile in update.misread:
            self._tile_read_late(seat, taken, tile)
            changed = True
        for seat, was, tile in update.moved_riichi:
            self._riichi_moved(seat, was, tile)
            changed = True
        for reveal in update.revealed:
            self._reveal(reveal)
            changed = True
        changed |= self._draw_due() or self._abort_due()
        return changed | self.tick()

    def _join_hand_under_way(self, table: TableObservation | None) -> bool:
        """A deal the camera missed (reads fell behind, or it started late) whose first discards lie on the table:
        once an early table has been seen on :data:`JOIN_FRAMES` frames running, each alike or grown by discards in
        turn (the table moves on while a slow read runs), the hand is started from its indicator and the discards
        seen on two frames at least taken in turn from the dealer, marked inferred; those seen once are left to the
        follower. Returns whether it was."""
        early = _early_hand(table, self.session.game.dealer, self.side_of)
        if early is None or self.follower.accepted.indicators[:1] == early[:1]:
            # (the hand that just ended still lies there: its indicator is the same; a new deal shows another, but
            # for one in 34 deals, which wait for the table to be cleared as before)
            self._early = None
            return False
        indicator, discards = early
        seen = self._early
        grown = seen is not None and seen.indicator == indicator and discards[: len(seen.discards)] == seen.discards
        self._early = _EarlyTable(indicator, discards, seen.frames + 1 if seen and grown else 1, table)
        if self._early.frames < JOIN_FRAMES:
            return False
        assert seen is not None  # joined on the table of the frame before: its discards were seen twice
        indicator, discards, table = seen.indicator, seen.discards, seen.table
        self._early = None
        self.events, self.contradictions = [], []
        if not self._apply_camera(HandStart(dora_indicator=indicator)):
            return True
        for discard in discards:
            if not self._apply_camera(discard, inferred=True):
                break
        self._new_follower()
        self.follower.accept(table)
        if discards:  # (accept took the riichi seats from the sideways tiles; the last discard is open to a call)
            last = discards[-1]
            self.follower.last_discard = (self.side_of(last.seat), last.tile)
        return True

    def _new_follower(self) -> None:
        f = self.follower
        self.follower = TableFollower(camera_seat=f.camera_seat, settle=f.settle, vanish=f.vanish, fuse=f.fuse)

    # --- applying events ---------------------------------------------------------------------------------------

    def _append(self, events: Sequence[Event]) -> Any:
        """Store the events in the game's log, all or none (raises EngineError, the game unchanged)."""
        return self.session.append_all(events)

    def _opening(self, indicator: Tile) -> bool:
        game = self.session.game
        if game.hand is None:
            start = HandStart(dora_indicator=indicator)
            self.events, self.contradictions = [], []
            return self._apply_camera(start)
        if game.dora_indicators[:1] != (indicator,):
            shown = format_tiles(game.dora_indicators) or "none"
            self._contradiction(
                "dora_changed",
                None,
                None,
                f"a hand is in progress with indicator {shown}, the camera sees a deal with {indicator}",
            )
            return True
        return False

    def _apply_camera(
        self, event: Event, frame: int | None = None, frame_id: str | None = None, inferred: bool = False
    ) -> bool:
        """Apply a camera event (after the draw it needs) and keep it; a refusal is reported. Returns whether taken.
        ``inferred``: its order was inferred (discards seen at once, taken in turn): its line for the phones says so."""
        game = self.session.game
        before = len(game.events)
        text = describe(game, event) + (" (seen at once with others: taken in turn)" if inferred else "")
        events = (*draws_before(game, event), event)
        try:
            self._append(events)
        except EngineError as exc:
            seat = getattr(event, "seat", None)
            self._contradiction("refused", seat, None, f"{text}: {exc}")
            return False
        detection = self._detection_of(event)
        frame_id = self._last.frame_id if frame_id is None else frame_id
        kept = CameraEvent(
            self._next_id,
            frame_id,
            self.frame if frame is None else frame,
            before + len(events) - 1,
            text,
            event,
            before,
            detection,
        )
        self._next_id += 1
        if self.pending is not None and self.pending.kind != "draw" and not isinstance(event, DoraFlip):
            self.pending = None  # the hand went on: the win laid down was not one
        self.events = [*self.events, kept][-MAX_EVENTS:]
        return True

    def _detection_of(self, event: Event) -> int | None:
        """The index, in the stored frame, of the tile an event was read from (a discard's, an indicator's)."""
        table, dets = self._last.table, self._last.detections
        if table is None or not dets:
            return None
        found: Detection | None = None
        if isinstance(event, Discard):
            side = self.side_of(event.seat)
            pond = [d for d in table.seat(side).pond if d.tile is not None]
            found = pond[-1] if pond and pond[-1].tile == event.tile else None
        elif isinstance(event, DoraFlip | HandStart):
            tile = event.indicator if isinstance(event, DoraFlip) else event.dora_indicator
            found = next((d for s in table.seats for d in s.wall if d.tile == tile), None)
        if found is None:
            return None
        for i, d in enumerate(dets):  # the reading's own detection, else one equal to it
            if d is found:
                return i
        return dets.index(found) if found in dets else None

    def side_of(self, seat: int) -> FrameSide:
        """The side of the camera's frame a game seat sits at (bottom for seat 0 while no camera seat is set)."""
        return tuple(FrameSide)[(seat - (self.follower.camera_seat or 0)) % 4]

    def _contradiction(
        self, clash: str, seat: int | None, side: FrameSide | None, detail: str, c: Contradiction | None = None
    ) -> None:
        entry = {
            "clash": clash,
            "seat": seat,
            "side": _side_name(side),
            "frame_id": self._last.frame_id,
            "detail": detail,
            "frame": c.frame if c is not None else self.frame,
        }
        same = [x for x in self.contradictions if (x["clash"], x["seat"], x["detail"]) == (clash, seat, detail)]
        if same:
            return
        self.contradictions = [*self.contradictions, entry][-MAX_CONTRADICTIONS:]

    # --- hands laid down ---------------------------------------------------------------------------------------

    def _reveal(self, reveal: Reveal) -> None:
        game = self.session.game
        h = game.hand
        if h is None:
            return
        if _is_ron(game, reveal):
            self._pending_ron(game, reveal)
        elif h.live == 0 and h.phase is Phase.REACT:  # the wall is empty: a hand shown is tenpai at the draw
            self._pending_draw(game, reveal)
        elif not self._pending_nine_terminals(game, reveal):
            self._pending_tsumo(game, reveal)

    def _draw_due(self) -> bool:
        """With the live wall empty after the last discard, an exhaustive draw is pending (hands shown join it)."""
        game = self.session.game
        h = game.hand
        if self.pending is not None or h is None or h.live != 0 or h.phase is not Phase.REACT:
            return False
        if self._dismissed == len(game.events):
            return False
        self._pending_draw(self.session.game, None)
        return True

    def _abort_due(self) -> bool:
        """An abortive draw the rules find due from the events seen (four winds, four riichi, four kans) is pending:
        the camera sees no more than the players stopping."""
        game = self.session.game
        if self.pending is not None or game.hand is None or self._dismissed == len(game.events):
            return False
        reason = abort_due(game)
        if reason is None:
            return False
        pending = PendingResult("abort", None, None, ABORT_NAMES[reason], None, (AbortiveDraw(reason),), None)
        self._score(game, pending)
        self._set_pending(pending, game)
        return True

    def _pending_nine_terminals(self, game: Game, reveal: Reveal) -> bool:
        """A hand shown on its seat's first turn with nine kinds of terminals and honours: that seat's
        nine-terminals draw is pending, when the rules take it (the engine judges the turn and the kinds). Returns
        whether it was."""
        hand = (*reveal.hand, *([reveal.apart] if reveal.apart is not None else []))
        if is_complete(kind_counts(hand)):
            return False  # a complete hand (thirteen orphans on the first draw) is a win
        declared = AbortiveDraw(Abort.NINE_TERMINALS, reveal.seat, hand)
        pending = PendingResult("abort", reveal.seat, None, f"{ABORT_NAMES[Abort.NINE_TERMINALS]}: {reveal.text}",
                                None, (*draws_before(game, declared), declared), None,
                                reveals={reveal.seat: reveal})  # fmt: skip
        self._score(game, pending)
        if pending.preview is None:
            return False
        self._set_pending(pending, game)
        return True

    def _pending_draw(self, game: Game, reveal: Reveal | None) -> None:
        reveals = dict(self.pending.reveals) if self.pending is not None and self.pending.kind == "draw" else {}
        if reveal is not None:
            reveals[reveal.seat] = reveal
        hands = tuple(
            None if s not in reveals else (*reveals[s].hand, *([reveals[s].apart] if reveals[s].apart else []))
            for s in range(4)
        )
        event = ExhaustiveDraw(hands)
        text = "; ".join(f"{game.seats[s]}: {reveals[s].text}" for s in sorted(reveals)) or "nobody tenpai"
        pending = PendingResult("draw", None, None, text, None, (event,), None, reveals=reveals)
        self._score(game, pending)
        self._set_pending(pending, game)

    def _pending_tsumo(self, game: Game, reveal: Reveal) -> None:
        events_of = []
        if reveal.apart is not None:
            candidates = [reveal.apart]
            concealed = (*reveal.hand, reveal.apart)
        else:  # no tile set apart: the winning tile that scores best, the rightmost of equals (drawn tiles go last)
            concealed = reveal.hand
            candidates = list(dict.fromkeys(reversed(reveal.hand)))
        for tile in candidates:
            tsumo = Tsumo(reveal.seat, concealed, tile, reveal.ura)
            events_of.append((*draws_before(game, tsumo), tsumo))
        best = None
        for events in events_of:
            p = PendingResult(
                "tsumo",
                reveal.seat,
                None,
                reveal.text,
                events[-1].win_tile,
                events,
                None,
                reveals={reveal.seat: reveal},
            )
            self._score(game, p)
            if best is None or _points(p) > _points(best):
                best = p
        assert best is not None
        self._set_pending(best, game)

    def _pending_ron(self, game: Game, reveal: Reveal) -> None:
        h = game.hand
        assert h is not None
        target = h.ron_target()  # the last discard, or an added kan's tile (搶槓: its owner pays)
        assert target is not None
        discarder, tile, _chankan = target
        reveals = dict(self.pending.reveals) if self.pending is not None and self.pending.kind == "ron" else {}
        reveals[reveal.seat] = reveal
        claims = []
        furiten_reasons = []
        for seat in sorted(reveals, key=lambda s: (s - discarder) % 4):
            r = reveals[seat]
            hand = r.hand if r.apart is None else (*r.hand, r.apart)
            rest = list(hand)
            won = [i for i, t in enumerate(rest) if t.deaka() == tile.deaka()]
            if won and len(rest) > h.players[seat].size:  # the discard set apart (read red or not): the engine adds it
                del rest[won[-1]]
            claims.append(RonClaim(seat, tuple(rest)))
            p = h.players[seat]
            f = judge(kind_counts(rest), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)
            if f.is_furiten:
                furiten_reasons.append(f"{game.seats[seat]}: {f.explain()}")
        ron = Ron(tuple(claims), reveal.ura)
        text = "; ".join(f"{game.seats[s]}: {reveals[s].text}" for s in sorted(reveals))
        pending = PendingResult(
            "ron",
            claims[0].seat,
            discarder,
            text,
            tile,
            (ron,),
            None,
            bool(furiten_reasons),
            "; ".join(furiten_reasons),
            reveals=reveals,
        )
        self._score(game, pending)
        self._set_pending(pending, game)

    def _score(self, game: Game, p: PendingResult) -> None:
        """The engine's result of ``p`` on a copy of the game (the preview), or why it refuses it."""
        try:
            result = applied_to_copy(game, *p.events)
            p.preview = None if result is None else result.to_dict()
        except EngineError as exc:
            p.preview, p.error = None, str(exc)
            p.score = _win_score(game, p)

    def _set_pending(self, p: PendingResult, game: Game) -> None:
        if p.preview is not None and self.auto_confirm_s > 0:
            p.auto_confirm_at = self.clock() + self.auto_confirm_s
        self.pending = p

    # --- the phones' actions -------------------------------------------------------------------------------

    def confirm(self) -> dict[str, Any]:
        """Apply the pending result (points move); returns the engine's ``HandResult.to_dict()``."""
        with self._lock:
            p = self.pending
            if p is None:
                raise NothingPending("no win or draw is pending")
            result = self._append(p.events)
            self.pending = None
            return result.to_dict()

    def dismiss(self) -> None:
        """Drop the pending result (the hand goes on)."""
        with self._lock:
            if self.pending is None:
                raise NothingPending("no win or draw is pending")
            self.pending = None
            self._dismissed = len(self.session.game.events)

    def undo(self, event_id: int) -> None:
        """The game back to before camera event ``event_id`` (and every event after it); the follower takes the
        frame now seen as the table's state."""
        with self._lock:
            kept = self._event(event_id)
            self._undo_to(kept.before)
            self.events = [e for e in self.events if e.id < event_id]
            self.pending = None
            self._resync()

    def fix(self, event_id: int, tile: Tile | None = None, seat: int | None = None) -> CameraEvent:
        """Camera event ``event_id`` as it should have been (another tile, another seat): the game back to before
        it, the fixed event applied, the later camera events applied again (up to one the rules refuse). The stored
        frame's tile is corrected (a training example). Raises EngineError when the fixed event is refused (the
        game is then as it was)."""
        with self._lock:
            kept = self._event(event_id)
            new = self._replaced(kept, _fixed(kept.event, tile, seat))
            if tile is not None and kept.detection is not None and kept.frame_id and self.correct is not None:
                self.correct(kept.frame_id, kept.detection, tile)
            self.pending = None
            return new

    def _replaced(self, kept: CameraEvent, fixed: Event) -> CameraEvent:
        """Camera event ``kept`` replaced by ``fixed``: the game back to before it, ``fixed`` applied, the later camera
        events applied again (up to one the rules refuse). Raises IllegalAction when ``fixed`` is refused (the game
        is then as it was)."""
        later = [e for e in self.events if e.id > kept.id]
        saved = list(self.events)
        self._undo_to(kept.before)
        self.events = [e for e in self.events if e.id < kept.id]
        try:
            self._append((*draws_before(self.session.game, fixed), fixed))
        except EngineError as exc:
            for e in [kept, *later]:  # the game back as it was: these were taken before
                self._append((*draws_before(self.session.game, e.event), e.event))
            self.events = saved
            raise IllegalAction(fixed, "the fixed event is refused", str(exc)) from None
        game = self.session.game
        new = replace(kept, id=self._next_id, seq=len(game.events) - 1, text=describe(game, fixed), event=fixed)
        self._next_id += 1
        self.events.append(new)
        for e in later:
            if not self._apply_camera(e.event, e.frame, e.frame_id):
                break
        return new

    def _last_discard(self, seat: int, tile: Tile, riichi: bool | None = None) -> CameraEvent | None:
        """The seat's last camera discard of ``tile`` (with or without riichi, as ``riichi`` asks; None: either)."""
        return next(
            (
                e
                for e in reversed(self.events)
                if isinstance(e.event, Discard)
                and e.event.seat == seat
                and e.event.tile == tile
                and (riichi is None or e.event.riichi is riichi)
            ),
            None,
        )

    def _riichi_read_late(self, seat: int, tile: Tile) -> None:
        """The seat's discard of ``tile``, taken upright, now lies sideways: the discard again, with its riichi."""
        kept = self._last_discard(seat, tile, riichi=False)
        if kept is None:
            return
        try:
            self._replaced(kept, replace(kept.event, riichi=True))
        except IllegalAction as exc:
            self._contradiction("refused", seat, self.side_of(seat), f"a riichi read late on {tile}: {exc}")

    def _tile_read_late(self, seat: int, taken: Tile, tile: Tile) -> None:
        """The seat's discard taken as ``taken`` has read as ``tile`` since: the discard again, as ``tile`` (the
        later camera events applied again); a contradiction when the rules refuse it (the tile was called)."""
        kept = self._last_discard(seat, taken)
        if kept is None:
            return
        try:
            self._replaced(kept, replace(kept.event, tile=tile))
        except IllegalAction as exc:
            self._contradiction("refused", seat, self.side_of(seat), f"a discard read {taken}, then {tile}: {exc}")

    def _riichi_moved(self, seat: int, was: Tile, tile: Tile) -> None:
        """The seat's riichi, taken on its discard of ``was``, lies on its discard of ``tile``: both discards again,
        the riichi on the second (the later camera events applied again); a contradiction when the rules refuse it."""
        taken, sideways = self._last_discard(seat, was, riichi=True), self._last_discard(seat, tile, riichi=False)
        if taken is None or sideways is None:
            return
        try:
            self._replaced(taken, replace(taken.event, riichi=False))
            sideways = self._last_discard(seat, tile, riichi=False)  # taken again if it came after
            if sideways is not None:
                self._replaced(sideways, replace(sideways.event, riichi=True))
        except IllegalAction as exc:
            self._contradiction("refused", seat, self.side_of(seat), f"the riichi moved from {was} to {tile}: {exc}")

    def resync(self) -> None:
        """Take the frame now seen as the table's true state (after a person fixed the table or the game)."""
        with self._lock:
            self._resync()

    def set_camera_seat(self, seat: int | None) -> None:
        """The game seat at the frame's bottom edge (None: not known)."""
        with self._lock:
            if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
                raise ValueError(f"camera_seat is a seat 0..3 (or None), not {seat!r}")
            self.follower.camera_seat = seat

    def reset(self) -> None:
        """Forget the hand followed so far (a new game, an imported one): the next fresh deal is followed."""
        with self._lock:
            self._new_follower()
            self.events, self.contradictions, self.pending = [], [], None
            self._synced, self._dismissed, self._early = False, None, None

    def _resync(self) -> None:
        table = self._last.table
        if self.session.game.hand is None:
            self._new_follower()
        elif table is not None:
            self.follower.accept(table)
        self.contradictions = []

    def _prune(self) -> None:
        """Drop the camera events the game no longer holds (a phone undid them)."""
        events = self.session.game.events
        self.events = [e for e in self.events if e.seq < len(events) and events[e.seq] == e.event]

    def _event(self, event_id: Any) -> CameraEvent:
        for e in self.events:
            if e.id == event_id:
                return e
        raise KeyError(event_id)

    def _undo_to(self, count: int) -> None:
        if (extra := len(self.session.game.events) - count) > 0:
            self.session.undo(extra)

    # --- what the phones show ------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """``{camera_seat, status, events, contradictions, pending}`` (see the service's ``state()``)."""
        with self._lock:
            self._prune()
            following = self.session.game.hand is not None
            return {
                "camera_seat": self.follower.camera_seat,
                "status": "following" if following else "waiting_for_deal",
                "events": [e.to_dict() for e in self.events],
                "contradictions": [dict(c) for c in self.contradictions],
                "pending": None if self.pending is None else self.pending.to_dict(),
            }


def _side_name(side: FrameSide | None) -> str | None:
    return None if side is None else side.value


def _is_ron(game: Game, reveal: Reveal) -> bool:
    """Whether a hand laid open while a discard lies on the table wins on it: it took the tile from the pond; or it
    shows one tile short of a whole hand (the winning tile still in the pond); or it is whole and another seat's than
    the next one to draw (that one may have drawn its winning tile). With the wall empty nobody draws: a whole hand
    wins on the discard, one a tile short is tenpai at the exhaustive draw. While an added kan waits for its
    replacement draw, another's hand laid open robs it (搶槓)."""
    h = game.hand
    assert h is not None
    target = h.ron_target()
    if target is None or reveal.seat == target[0]:
        return False
    discarder, _tile, robs_kan = target
    if robs_kan or reveal.from_pond:  # a kan's owner shows a tsumo (rinshan), any other hand robs the kan
        return True
    whole = len(reveal.hand) + (reveal.apart is not None) > 13 - 3 * len(reveal.melds)
    if h.live == 0:
        return whole
    return not whole or reveal.seat != (discarder + 1) % 4


def _points(p: PendingResult) -> int:
    if p.preview is None:
        return -1
    return max(p.preview["deltas"])


def _win_score(game: Game, p: PendingResult) -> dict[str, Any] | None:
    """The scorer's result of a win the rules refuse (furiten ...), for the phones: yaku, han, fu."""
    from engine.scoring import score_hand

    h = game.hand
    if h is None or p.kind == "draw" or p.seat is None or p.win_tile is None:
        return None
    event = p.events[-1]
    concealed = event.hand if isinstance(event, Tsumo) else (*event.claims[0].hand, p.win_tile)  # type: ignore[attr-defined]
    if len(concealed) != h.players[p.seat].size + 1 and isinstance(event, Ron):
        concealed = event.claims[0].hand
    tsumo = p.kind == "tsumo"
    ura = event.ura_indicators  # type: ignore[attr-defined]
    try:
        ctx = win_context(game, p.seat, p.win_tile, tsumo, p.discarder, False, ura, game.honba, game.sticks)
        return score_hand(Hand(tuple(concealed), tuple(h.players[p.seat].melds)), ctx, game.rules).to_dict()
    except (EngineError, ValueError):
        return None


def _fixed(event: Event, tile: Tile | None, seat: int | None) -> Event:
    """``event`` with another tile and/or seat."""
    if seat is not None and not hasattr(event, "seat"):
        raise ValueError(f"a {event.type} has no seat to fix")
    changes: dict[str, Any] = {} if seat is None else {"seat": seat}
    if tile is not None:
        if isinstance(event, Discard | AddedKan):
            changes["tile"] = tile
        elif isinstance(event, DoraFlip):
            changes["indicator"] = tile
        elif isinstance(event, HandStart):
            changes["dora_indicator"] = tile
        elif isinstance(event, ClosedKan):
            changes["tiles"] = (tile,) * 4
        else:
            raise ValueError(f"a {event.type}'s tiles are not fixed one by one: undo it")
    if not changes:
        raise ValueError("a fix names a tile or a seat")
    return replace(event, **changes)  # type: ignore[type-var]


__all__ = ["CameraEvent", "CameraGame", "NothingPending", "PendingResult", "describe", "draws_before", "expected_seat"]
