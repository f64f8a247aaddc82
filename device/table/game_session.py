"""The table's game as the phones see and change it: the engine's ``Game`` in the one event log.

When the camera follows the hand, the engine knows every discard and a win confirmed on a phone becomes the
engine's own ``Ron`` or ``Tsumo`` event, whatever the hand (melds, a liable player, a robbed kan): the phone adds
the concealed tiles, and the engine judges furiten, riichi, ippatsu, rinshan and the rest from its record.
A table without the camera (or a hand the camera lost) still needs its points moved, so the players may
*declare* how a hand ended: the engine's declared events (``engine.game.events``: ``DeclaredWin``, ``DeclaredRon``,
``DeclaredDraw``, ``DeclaredAbort``, ``DeclaredRiichi``), kept in the same log, replayed and undone like any
other. The game is stored in ``device.table.storage.GameStore`` (append-only; undo appends an undo row).

>>> from engine.rules import preset
>>> s = GameSession(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
>>> r = s.apply(DeclaredWin(seat=1, discarder=0, hand="234m567p23488s678s", win_tile=Tile.parse("8s"),
...                         flags=("riichi",)))
>>> r.deltas, s.game.round_name, [e.type for e in s.game.events]
((-3900, 3900, 0, 0), 'East 2', ['hand_start', 'declared_win'])
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import Any

from device.table.storage import GameStore
from engine.errors import EngineError
from engine.game.events import (
    DealerStops,
    DeclaredClaim,
    DeclaredRon,
    DeclaredWin,
    Event,
    HandStart,
    Ron,
    RonClaim,
    Tsumo,
)
from engine.game.results import Outcome, round_name
from engine.game.shape import kind_counts, meld_counts, waits
from engine.game.state import Game
from engine.game.wins import win_context
from engine.hand import Hand
from engine.melds import MeldKind
from engine.rules import RuleSet, pao_yakuman
from engine.tiles import Tile, Wind, format_tiles
from web.contract import CURRENT_WRITE, StaleWrite, WinRequest

Tiles = tuple[Tile, ...]

#: Names of the seats when the players give none (seat 1 is the first dealer).
SEAT_NAMES = ("Seat 1", "Seat 2", "Seat 3", "Seat 4")


def _win_event(game: Game, request: WinRequest) -> Event:
    """The event a win confirmed from a phone is (see :meth:`GameSession.win`): the engine's own Ron or Tsumo,
    checked against the record, when the engine follows the hand (:func:`on_record`); else a declared win or ron."""
    if on_record(game):
        return _recorded_win(game, request)
    first, discarder = request.winners[0], request.discarder
    if len(request.winners) == 1:
        return DeclaredWin(
            first.seat,
            discarder,
            first.hand.notation(),
            first.win_tile,
            first.flags,
            request.dora,
            request.ura,
            first.liable,
        )
    assert discarder is not None
    claims = tuple(DeclaredClaim(w.seat, w.hand.notation(), w.flags, w.liable) for w in request.winners)
    return DeclaredRon(discarder, first.win_tile, claims, request.dora, request.ura)


def on_record(game: Game) -> bool:
    """Whether the engine follows the hand in progress (it saw a draw, a discard, a call or a dealt hand).

    A win is then the engine's own ``Ron`` or ``Tsumo``, checked against that record. Otherwise (no hand in
    progress, or one the table did not record: at most a riichi declared) the players declare it.
    """
    h = game.hand
    return h is not None and any(p.draws or p.discards or p.melds or p.known for p in h.players)


#: The riichi flags, one claim: the record says which of them the seat declared.
_RIICHI_FLAGS = frozenset({"riichi", "double_riichi", "open_riichi"})


def _meld_key(melds: Any) -> list[tuple[str, tuple[tuple[int, bool], ...]]]:
    """Melds as compared with the record: kind and tiles; an open quad is one whether called or added."""
    open_quads = (MeldKind.KAN, MeldKind.KAKAN)
    return sorted(
        ("kan" if m.kind in open_quads else m.kind.value, tuple(sorted((t.kind, t.red) for t in m.tiles)))
        for m in melds
    )


def _recorded_win(game: Game, request: WinRequest) -> Event:
    """The engine's own ``Tsumo`` or ``Ron`` for a win a phone confirms on a hand on record.

    The phone adds only what the table cannot know: the concealed tiles (and the ura indicators). The rest is the
    record's and is checked against it here: the tile won on and who discarded it, each winner's melds, the liable
    seat, the dora indicators, and every situational yaku claimed (the engine itself judges riichi, ippatsu,
    rinshan, chankan, haitei, houtei ... from the record, and furiten, and the concealed tiles against what it saw).
    """
    h = game.hand
    assert h is not None
    wins, discarder = request.winners, request.discarder
    first = wins[0]
    tsumo = discarder is None
    chankan = False
    if not tsumo:
        target = h.ron_target()
        if target is None:
            raise EngineError("a ron is on the discard lying on the table (or a kan being added): the record has none")
        on, tile, chankan = target
        if (on, tile) != (discarder, first.win_tile):
            raise EngineError(
                f"a ron is on the last discard: the record has seat {on}'s {tile}, not seat {discarder}'s "
                f"{first.win_tile}"
            )
    dora = request.dora
    if dora and sorted(dora) != sorted(h.dora_indicators):
        raise EngineError(
            f"the dora indicators are on record: {format_tiles(h.dora_indicators) or 'none'}, not {format_tiles(dora)}"
        )
    shown = []
    for w in wins:
        p = h.players[w.seat]
        if w.hand.melds and _meld_key(w.hand.melds) != _meld_key(p.melds):
            on_table = " ".join(m.notation() for m in p.melds) or "none"
            raise EngineError(f"seat {w.seat}'s melds differ from the record: {on_table} on the table")
        if w.liable is not None and w.liable != p.pao:
            if p.pao is None:
                raise EngineError(f"no liability (pao) on record for seat {w.seat}: nobody fed a yakuman's last set")
            raise EngineError(f"liability (pao) falls on the player who fed the last set: seat {p.pao}, not {w.liable}")
        recorded = win_context(game, w.seat, first.win_tile, tsumo, discarder, chankan, (), 0, 0)
        for flag in w.flags:
            held = any(getattr(recorded, f) for f in _RIICHI_FLAGS) if flag in _RIICHI_FLAGS else False
            if not (getattr(recorded, flag) or held):
                raise EngineError(f"seat {w.seat}: {flag} is not so in the record of this hand")
        concealed = tuple(w.hand.concealed)
        if tsumo and len(concealed) == p.size - 1:  # the concealed tiles without the winning one
            concealed = (*concealed, first.win_tile)
        shown.append((w.seat, concealed))
    if tsumo:
        return Tsumo(first.seat, shown[0][1], first.win_tile, request.ura)
    return Ron(tuple(RonClaim(seat, concealed) for seat, concealed in shown), request.ura)


def _needs_hand_start(game: Game, event: Event) -> bool:
    """Whether ``event`` comes with a hand start first: no hand is in progress and the event is played in one."""
    return game.hand is None and not isinstance(event, HandStart | DealerStops) and not game.over


def applied_to_copy(game: Game, *events: Event) -> Any:
    """The result of ``events`` in turn (after the hand start the first needs) on a copy of ``game``, the last
    event's; ``game`` is unchanged. Raises the engine's error for an event the rules refuse."""
    return applied_to(copy_game(game), *events)


def copy_game(game: Game) -> Game:
    """A copy of ``game`` that applying events to leaves ``game`` as it is. The events and hand results are frozen
    values, never changed once made: the copy shares them, and copies only the state around them."""
    shared: dict[int, Any] = {id(e): e for e in game.events}
    shared.update((id(r), r) for r in game.history)
    return copy.deepcopy(game, shared)


def applied_to(trial: Game, *events: Event) -> Any:
    """:func:`applied_to_copy` on ``trial`` itself (a copy the caller owns, changed by it)."""
    if events and _needs_hand_start(trial, events[0]):
        trial.apply(HandStart())
    result = None
    for event in events:
        result = trial.apply(event)
    return result


# --- what the phones show ----------------------------------------------------------------------------


def probe(game: Game, seat: int | None, hand: Hand) -> dict[str, Any]:
    """A player's own 13-tile hand, told only to their phone: waits, their value, and furiten from the table.

    Nothing is recorded: the hand stays on the phone. With ``seat`` the values use that seat's wind, riichi
    and the dora on the table, unseen counts leave out every tile in sight, and furiten is judged from the
    seat's discards and the tiles passed since. Without it the hand is priced as a non-dealer's (three seats
    in four), on the first of South, West, North that is not the round wind. ``priced_as`` says which.
    """
    from engine.game import furiten
    from engine.scoring import WinContext
    from engine.waits import find_waits

    h = game.hand
    filler = hand.concealed[0] if hand.concealed else Tile(0)
    known: list[Tile] = []
    if seat is None:
        wind = next(w for w in (Wind.SOUTH, Wind.WEST, Wind.NORTH) if w != game.round_wind)
        ctx = WinContext(filler, seat_wind=wind, round_wind=game.round_wind)
    elif h is None:
        ctx = WinContext(filler, seat_wind=game.seat_wind(seat), round_wind=game.round_wind)
    else:
        ctx = win_context(game, seat, filler, False, None, False, (), game.honba, 0)
        for s, p in enumerate(h.players):
            known += [x.tile for x in p.pond if not x.called]
            if s != seat:
                known += [t for m in p.melds for t in m.tiles]
    result = find_waits(hand, known, ctx, game.rules)
    out = result.to_dict()
    out["priced_as"] = {"seat": seat, "seat_wind": ctx.seat_wind.letter, "dealer": ctx.seat_wind == Wind.EAST}
    out["furiten"] = None
    if seat is not None and h is not None and result.tenpai:
        p = h.players[seat]
        f = furiten.judge(kind_counts(hand.concealed), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)
        if f.is_furiten:
            out["furiten"] = {"kind": f.kind.value, "detail": f.explain(), "waits": format_tiles(f.waits)}
    return out


def waits_of(game: Game, seat: int) -> list[dict[str, Any]]:
    """For a seat whose concealed hand is known and waiting: each wait and what a ron on it would score."""
    from engine.scoring import score_hand

    h = game.hand
    if h is None:
        return []
    p = h.players[seat]
    if not p.hand_known or p.size % 3 != 1:
        return []
    out = []
    for kind in waits(kind_counts(p.known), meld_counts(p.melds)):
        tile = Tile(kind)
        ctx = win_context(game, seat, tile, False, None, False, (), game.honba, 0)
        try:
            r = score_hand(Hand((*p.known, tile), tuple(p.melds)), ctx, game.rules)
        except EngineError:
            continue
        score = None
        if r.is_win:
            score = {"han": r.han, "fu": r.fu, "points": r.ron_points, "limit_name": r.limit_name}
        out.append({"tile": str(tile), "score": score, "reason": r.reason})
    return out


def _seat_state(game: Game, s: int, furiten_now: dict[int, Any]) -> dict[str, Any]:
    """One seat as the live page shows it: name, wind, points, pond, melds, a known hand, furiten and waits."""
    h = game.hand
    p = h.players[s] if h else None
    f = furiten_now.get(s)
    return {
        "seat": s,
        "name": game.seats[s],
        "wind": game.seat_wind(s).letter,
        "points": game.scores[s],
        "riichi": bool(p and p.riichi),
        "pond": []
        if p is None
        else [
            {"tile": str(x.tile), "riichi": x.riichi, "called": x.called, "tsumogiri": bool(x.tsumogiri)}
            for x in p.pond
        ],
        "melds": [] if p is None else [m.notation() for m in p.melds],
        "hand": format_tiles(p.known, sort=True) if p is not None and p.hand_known else None,
        "furiten": None if f is None else {"kind": f.kind.value, "detail": f.explain(), "waits": format_tiles(f.waits)},
        "waits": waits_of(game, s) if p is not None else [],
    }


def game_state(game: Game) -> dict[str, Any]:
    """Everything the live page shows, JSON-ready."""
    h = game.hand
    furiten_now = game.furiten_warnings() if h else {}
    seats = [_seat_state(game, s, furiten_now) for s in range(4)]
    ura: tuple[Tile, ...] = ()
    if h is None and game.events and isinstance(game.events[-1], Ron | Tsumo | DeclaredWin | DeclaredRon):
        ura = tuple(game.events[-1].ura_indicators)
    final = None
    results = game.final_results()
    if results:
        final = [
            {
                "seat": r.seat,
                "name": r.name,
                "place": r.rank,
                "points": r.score,
                "bonus": r.uma + r.oka,
                "uma": r.uma,
                "oka": r.oka,
                "sticks": r.sticks,
                "result": r.points,
            }
            for r in sorted(results, key=lambda r: r.rank)
        ]
    return {
        "rules": game.rules.name,
        # the yakuman a liable player (pao) may be named for under these rules: the score page offers only these
        "pao_yakuman": list(pao_yakuman(game.rules)),
        "round": {"index": game.round, "name": game.round_name, "wind": game.round_wind.letter},
        "honba": game.honba,
        "sticks": game.sticks,
        "dealer": game.dealer,
        "phase": game.phase.value,
        "to_act": game.to_act,
        "in_hand": h is not None,
        "wall_left": h.live if h is not None and any(p.draws for p in h.players) else None,
        "dora_indicators": [str(t) for t in game.dora_indicators],
        "dora": [str(t) for t in game.dora],
        "ura_indicators": [str(t) for t in ura],
        "ura": [str(t.dora_from_indicator()) for t in ura],  # the phones show the engine's dora, never their own
        "seats": seats,
        "history": [
            {
                "hand": f"{round_name(r.round)} · {r.honba} honba",
                "result": _result_text(r, game.seats),
                "deltas": list(r.deltas),
                "scores": list(r.scores),
                "outcome": r.outcome.value,
            }
            for r in game.history
        ],
        "finished": game.over,
        # agari-yame / tenpai-yame: the dealer may end the game now (the engine's ``dealer_stops`` event, e.g.
        # ``POST /api/game/event {"type": "dealer_stops"}``) or play on (record the next hand as usual)
        "dealer_may_stop": game.dealer_may_stop,
        "final": final,
        "events": len(game.events),
    }


def _result_text(r: Any, names: tuple[str, ...]) -> str:
    if r.outcome in (Outcome.RON, Outcome.TSUMO):
        parts = []
        for w in r.wins:
            value = w.result.limit_name or f"{w.result.han} han {w.result.fu} fu"
            how = "tsumo" if w.from_seat is None else f"ron from {names[w.from_seat]}"
            parts.append(f"{names[w.seat]} {how}, {value}")
        return "; ".join(parts)
    if r.outcome is Outcome.EXHAUSTIVE_DRAW:
        ten = [names[s] for s in range(4) if r.tenpai and r.tenpai[s]]
        return "draw, tenpai: " + (", ".join(ten) or "none")
    if r.outcome is Outcome.ABORTIVE_DRAW:
        return f"abortive draw ({r.abort.value if r.abort else ''})"
    return r.note or "chombo"


class GameSession:
    """The current game and the actions the phones take on it. Thread-safe.

    The game lives in a ``device.table.storage.GameStore`` (an append-only event log; in memory when none is given):
    every event is committed before the phone is told it happened, an undo appends an undo row, and a session
    opened on the same file finds the latest game there by replaying its log.
    """

    def __init__(self, rules: RuleSet, seats: tuple[str, ...] = SEAT_NAMES, store: GameStore | None = None) -> None:
        self._lock = threading.RLock()
        self.store = store if store is not None else GameStore(":memory:")
        ids = self.store.games()
        #: The id of the current game in the store: the latest one, or a new one.
        self.game_id = ids[-1] if ids else self.store.create(rules, seats)
        self.store.game(self.game_id)  # replay now: a log that cannot be replayed fails here, not on a phone

    def revision(self) -> str:
        """The game's revision: ``"<game id>.<rows in its log>"``; any write (an undo too) makes a new one."""
        with self._lock:
            return f"{self.game_id}.{self.store.revision(self.game_id)}"

    def _claim_write(self) -> tuple[str, str] | None:
        """Before a write, under the lock: refuse it if the phone saw another revision (:class:`StaleWrite`), and
        take its key for the store (see :class:`web.contract.WriteIntent`; both once per request)."""
        intent = CURRENT_WRITE.get()
        if intent is None:
            return None
        if intent.revision is not None:
            now = self.revision()
            if intent.revision != now:
                raise StaleWrite(
                    "the game changed since this phone last saw it (another phone or a second tap was first): "
                    "nothing was recorded; check the table and try again",
                    now,
                )
            intent.revision = None
        key, intent.key = intent.key, None
        return key

    def snapshot(self) -> Game:
        """A private copy of the game now, for the caller to change: :func:`copy_game` shares the frozen events and
        results, so the lock is held only for the little state around them."""
        with self._lock:
            return copy_game(self.game)

    @property
    def game(self) -> Game:
        """The current game's state (replayed from the store's log; read it, change it through this session)."""
        return self.store.game(self.game_id)

    def state(self) -> dict[str, Any]:
        with self._lock:
            return {**game_state(self.game), "revision": self.revision()}

    def new(self, rules: RuleSet, seats: tuple[str, ...]) -> None:
        with self._lock:
            self.game_id = self.store.create(rules, seats, key=self._claim_write())

    def apply(self, event: Event) -> Any:
        """Apply one event (starting a hand first when none is in progress and the event needs one).

        All or nothing: the event is checked (after the hand start it needs) before anything is stored.
        """
        with self._lock:
            key = self._claim_write()
            if _needs_hand_start(self.game, event):  # the two stored together, or neither (a refused event)
                return self.store.append_all(self.game_id, (HandStart(), event), key=key)
            return self.store.append(self.game_id, event, key=key)

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` events in one write: the store appends an undo row for each (the log keeps
        the events)."""
        with self._lock:
            self.store.undo(self.game_id, key=self._claim_write(), count=count)

    def undo_write(self) -> None:
        """Take back what a phone recorded last: the last event, and the hand start written before it when that is
        left with no event after it (:func:`_needs_hand_start`; the next write starts the hand again). A second
        Undo then takes back the write before, not a hand start no one sees."""
        with self._lock:
            events = self.game.events
            self.undo(2 if len(events) >= 2 and isinstance(events[-2], HandStart) else 1)

    def append_all(self, events: Sequence[Event]) -> Any:
        """Store ``events`` in the game's log, all or none (the camera game's moves: a draw and its discard ...);
        returns the last one's result. Raises the engine's error for an event the rules refuse, the game unchanged."""
        with self._lock:
            return self.store.append_all(self.game_id, tuple(events))

    def win(self, request: WinRequest) -> Any:
        """Confirm a win from a phone: on a hand the engine follows, its own Ron/Tsumo checked against the record
        (furiten, the tile won on, melds, liability, situational yaku: :func:`_recorded_win`); else a declared win
        or, for several winners of one discard (double or triple ron; what happens then is the rules'
        ``multiple_ron``), a declared ron. Raises EngineError for what cannot be."""
        with self._lock:
            return self.apply(_win_event(self.game, request))

    def preview_win(self, request: WinRequest) -> Any:
        """What :meth:`win` would record (the engine's ``HandResult``), recording nothing.

        The same event is built and applied as by :meth:`win`, to a copy of the game: the payments by seat
        (liability included) are the ones confirming the win would move.
        """
        trial = self.snapshot()  # the engine's work is done on a private copy, without the game's lock
        return applied_to(trial, _win_event(trial, request))

    def probe(self, hand: Hand, seat: int | None) -> dict[str, Any]:
        """A player's own 13 tiles (see :func:`probe`); nothing is recorded."""
        with self._lock:
            return probe(self.game, seat, hand)

    def event(self, event: Event) -> Any:
        """Apply an event a phone sent; a declared win is refused on a hand the engine follows."""
        with self._lock:
            if isinstance(event, DeclaredWin | DeclaredRon) and on_record(self.game):
                # the engine follows this hand: its win is a ron or tsumo, checked against the record (a stored
                # log's declared wins still replay; only new ones are refused)
                raise EngineError(f"{event.type}: the hand is on record; send its ron or tsumo (or POST /api/game/win)")
            return self.apply(event)

    def export(self) -> dict[str, Any]:
        """The game as a file (``GameStore.export_json``: the events in force), with its history and scores."""
        with self._lock:
            data = self.store.export_json(self.game_id)
            g = self.game
            data["history"] = [r.to_dict() for r in g.history]
            results = g.final_results()
            data["final"] = None if results is None else [r.to_dict() for r in results]
            data["scores"] = list(g.scores)
            return data

    def import_game(self, data: Any) -> None:
        """Make a game file (``export`` output) the current game: stored as a new game, every event replayed.

        All or nothing: the whole game is replayed before it is stored (the site checked the file first:
        ``web.game_request.check_game_file``); a refused file leaves the current game as it was.
        """
        with self._lock:
            self.game_id = self.store.import_json(data, key=self._claim_write())

    def close(self) -> None:
        self.store.close()
