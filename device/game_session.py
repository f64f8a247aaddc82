"""The table's game as the phones see and change it: the engine's ``Game`` plus results declared by players.

When the camera follows the hand, the engine knows every discard and a win confirmed on a phone becomes the
engine's own ``Ron`` or ``Tsumo`` event: the engine judges furiten, riichi, ippatsu and the rest by itself.
A table without the camera (or a hand the camera lost) still needs its points moved, so the players may
*declare* how a hand ended; those declarations are events too, kept in the same log, replayed and undone
like any other:

* ``declared_win``: a winner, ron from a seat or tsumo, the revealed hand, the winning tile and the situational
  yaku the players state (riichi, ippatsu, haitei ...); scored by ``engine.scoring`` and settled by
  ``engine.game.settlement`` (honba, riichi sticks, dealer repeat, end of game: the engine's own rules);
* ``declared_draw``: an exhaustive draw with who was tenpai (noten payments);
* ``declared_abort``: an abortive draw of a named kind (where the rules have them);
* ``declared_riichi``: a riichi declaration (the deposit goes on the table).

``TableGame`` is the engine's ``Game`` with handlers for these four events; everything else (the state, the
history, the final results with uma and oka) is the engine's.

>>> from engine.rules import preset
>>> g = TableGame(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
>>> _ = g.apply(HandStart())
>>> r = g.apply(DeclaredWin(seat=1, discarder=0, hand="234m567p23488s678s", win_tile=Tile.parse("8s"),
...                         flags=("riichi",)))
>>> r.deltas, g.round_name
((-3900, 3900, 0, 0), 'East 2')
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import EngineError, IllegalAction
from engine.game import settlement
from engine.game.events import Abort, Chombo, DealerStops, Event, HandStart, Ron, RonClaim, Tsumo, event_from_dict
from engine.game.shape import kind_counts, waits
from engine.game.state import Game, Outcome, Phase, WinRecord, round_name, rules_from_dict
from engine.hand import Hand, parse_hand
from engine.rules import RuleSet
from engine.tiles import Tile, format_tiles, parse_tiles

Tiles = tuple[Tile, ...]

#: Names of the seats when the players give none (seat 1 is the first dealer).
SEAT_NAMES = ("Seat 1", "Seat 2", "Seat 3", "Seat 4")

#: The situational yaku a player may declare with a win (names of ``WinContext`` fields).
DECLARABLE = ("riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
              "tenhou", "chiihou", "renhou")


@dataclass(frozen=True)
class DeclaredWin(Event):
    """A win as the players declare it (no discard needs to be on record). ``discarder`` None: tsumo."""

    type: ClassVar[str] = "declared_win"
    seat: int
    discarder: int | None
    hand: str  # hand notation (engine/hand.py), with or without the winning tile
    win_tile: Tile
    flags: tuple[str, ...] = ()
    dora_indicators: Tiles = ()  # used when the game has none on record
    ura_indicators: Tiles = ()


@dataclass(frozen=True)
class DeclaredDraw(Event):
    """An exhaustive draw as declared: who is tenpai (hands not shown), who made nagashi mangan (流し満貫)."""

    type: ClassVar[str] = "declared_draw"
    tenpai: tuple[bool, ...]
    nagashi: tuple[int, ...] = ()


@dataclass(frozen=True)
class DeclaredAbort(Event):
    type: ClassVar[str] = "declared_abort"
    reason: Abort


@dataclass(frozen=True)
class DeclaredRiichi(Event):
    type: ClassVar[str] = "declared_riichi"
    seat: int
    double: bool = False


DECLARED = {cls.type: cls for cls in (DeclaredWin, DeclaredDraw, DeclaredAbort, DeclaredRiichi)}


def _is_tiles(v: Any) -> bool:
    return isinstance(v, tuple) and all(isinstance(t, Tile) for t in v)


#: What each field annotation of the engine's events allows (checked before an event from a phone is applied).
_FIELD_CHECKS = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "int | None": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    "bool": lambda v: isinstance(v, bool),
    "bool | None": lambda v: v is None or isinstance(v, bool),
    "str": lambda v: isinstance(v, str) and len(v) <= 200,
    "Tile": lambda v: isinstance(v, Tile),
    "Tile | None": lambda v: v is None or isinstance(v, Tile),
    "Tiles": _is_tiles,
    "Tiles | None": lambda v: v is None or _is_tiles(v),
    "tuple[Tiles | None, ...]": lambda v: isinstance(v, tuple) and all(h is None or _is_tiles(h) for h in v),
    "tuple[RonClaim, ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(c, RonClaim) and isinstance(c.seat, int) and _is_tiles(c.hand) for c in v),
}


def _check_fields(event: Event) -> Event:
    """Refuse an event whose fields have the wrong types (a phone may send anything)."""
    from dataclasses import fields

    for f in fields(event):
        check = _FIELD_CHECKS.get(str(f.type))
        if check is not None and not check(getattr(event, f.name)):
            raise EngineError(f"{event.type}: {f.name} has the wrong type ({getattr(event, f.name)!r})")
    return event


def event_of(d: dict[str, Any]) -> Event:
    """An event from its dict: the engine's events and the declared ones. Raises EngineError."""
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        raise EngineError(f"an event is an object with a 'type', not {d!r}"[:200])
    cls = DECLARED.get(d["type"])
    if cls is None:
        try:
            return _check_fields(event_from_dict(d))
        except EngineError:
            raise
        except (TypeError, KeyError, ValueError, AttributeError) as exc:
            raise EngineError(f"bad {d['type']} event: {exc}"[:300]) from None
    try:
        if cls is DeclaredWin:
            discarder = d.get("discarder")
            return DeclaredWin(
                seat=_seat(d.get("seat"), "seat"),
                discarder=None if discarder is None else _seat(discarder, "discarder"),
                hand=_text(d.get("hand"), "hand"),
                win_tile=Tile.parse(_text(d.get("win_tile"), "win_tile")),
                flags=tuple(_flag(f) for f in d.get("flags", ())),
                dora_indicators=parse_tiles(d.get("dora_indicators") or ""),
                ura_indicators=parse_tiles(d.get("ura_indicators") or ""),
            )
        if cls is DeclaredDraw:
            tenpai = d.get("tenpai")
            if not isinstance(tenpai, list | tuple) or len(tenpai) != 4 or not all(isinstance(t, bool) for t in tenpai):
                raise EngineError("tenpai is four true/false values, one per seat")
            nagashi = d.get("nagashi") or []
            if not isinstance(nagashi, list | tuple):
                raise EngineError("nagashi is a list of seats")
            return DeclaredDraw(tuple(tenpai), tuple(sorted({_seat(s, "nagashi") for s in nagashi})))
        if cls is DeclaredAbort:
            try:
                return DeclaredAbort(Abort(d.get("reason")))
            except ValueError:
                raise EngineError(f"an abortive draw is one of {', '.join(a.value for a in Abort)}") from None
        double = d.get("double", False)
        if not isinstance(double, bool):
            raise EngineError("double is true or false")
        return DeclaredRiichi(_seat(d.get("seat"), "seat"), double)
    except TypeError as exc:
        raise EngineError(f"bad {d.get('type')} event: {exc}") from None


def _seat(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 4:
        raise EngineError(f"{name} is a seat 0..3, not {v!r}")
    return v


def _text(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 200:
        raise EngineError(f"{name} is required (mpsz text)")
    return v


def _flag(v: Any) -> str:
    if v not in DECLARABLE:
        raise EngineError(f"unknown situational yaku {v!r}; known: {', '.join(DECLARABLE)}")
    return v


class TableGame(Game):
    """The engine's game, also accepting the declared events of this module."""

    def undo(self) -> TableGame:
        if not self.events:
            raise EngineError("nothing to undo")
        return TableGame.replay(self.rules, self.seats, self.events[:-1], self.first_dealer, self.start)

    @classmethod
    def load(cls, data: dict[str, Any]) -> TableGame:
        """The inverse of ``to_json`` (declared events included)."""
        if not isinstance(data, dict) or "rules" not in data or "events" not in data:
            raise EngineError("a game file is an object with 'rules', 'seats' and 'events'")
        rules = rules_from_dict(data["rules"])
        events = [event_of(e) for e in data["events"]]
        return cls.replay(rules, data.get("seats", ("East", "South", "West", "North")), events,
                          data.get("first_dealer", 0))

    # --- declared events -------------------------------------------------------------------------------

    def _on_declared_riichi(self, e: DeclaredRiichi) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        if p.riichi:
            raise IllegalAction(e, "already in riichi")
        if not p.is_closed:
            raise IllegalAction(e, "riichi needs a closed hand")
        if self.scores[e.seat] < self.rules.riichi_min_points:
            raise IllegalAction(e, f"riichi needs at least {self.rules.riichi_min_points} points")
        p.riichi = True
        p.double_riichi = e.double
        self.scores[e.seat] -= self.rules.riichi_deposit
        self.sticks += 1
        h.riichi_paid_this_hand.append(e.seat)

    def _on_declared_win(self, e: DeclaredWin):
        from engine.scoring import WinContext, score_hand

        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        tsumo = e.discarder is None
        if not tsumo:
            self._player(e, e.discarder)  # type: ignore[arg-type]
            if e.discarder == e.seat:
                raise IllegalAction(e, "a ron is on another player's discard")
        try:
            hand = parse_hand(e.hand)
        except EngineError as exc:
            raise IllegalAction(e, "the hand cannot be read", str(exc)) from None
        if hand.size == 13:
            hand = hand.with_tile(e.win_tile)
        if e.win_tile not in hand.concealed:
            raise IllegalAction(e, "the shown hand must hold the winning tile", str(e.win_tile))
        flags = set(e.flags)
        riichi = p.riichi or bool(flags & {"riichi", "double_riichi", "open_riichi"})
        double = "double_riichi" in flags or p.double_riichi
        ctx = WinContext(
            win_tile=e.win_tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(e.seat),
            round_wind=self.round_wind,
            riichi=riichi and not double,
            double_riichi=double,
            open_riichi="open_riichi" in flags,
            ippatsu="ippatsu" in flags,
            rinshan="rinshan" in flags and tsumo,
            chankan="chankan" in flags and not tsumo,
            haitei="haitei" in flags and tsumo,
            houtei="houtei" in flags and not tsumo,
            tenhou="tenhou" in flags and tsumo and e.seat == self.dealer,
            chiihou="chiihou" in flags and tsumo and e.seat != self.dealer,
            renhou="renhou" in flags and not tsumo and e.seat != self.dealer,
            dora_indicators=tuple(h.dora_indicators) or e.dora_indicators,
            ura_indicators=e.ura_indicators if riichi else (),
            discarder=None if tsumo else self.seat_wind(e.discarder),  # type: ignore[arg-type]
        )
        result = score_hand(hand, ctx, self.rules)
        if not result.is_win:
            raise IllegalAction(e, f"not a win: {result.reason}", f"seat {e.seat}: {hand.notation()}")
        pay = settlement.WinPay(e.seat, result.ron_points, result.tsumo_points, result.base_points,
                                label=f"seat {e.seat} " + ("tsumo" if tsumo else "ron"))
        if tsumo:
            s = settlement.settle_tsumo(pay, self.dealer, self.honba, self.sticks, self.rules)
        else:
            s = settlement.settle_ron([pay], e.discarder, self.dealer, self.honba, self.sticks, self.rules)  # type: ignore[arg-type]
        h.riichi_pending = None
        win = WinRecord(e.seat, e.discarder, hand.notation(), str(e.win_tile), result)
        return self._finish(Outcome.TSUMO if tsumo else Outcome.RON, s, wins=(win,),
                            dealer_repeats=e.seat == self.dealer)

    def _on_declared_draw(self, e: DeclaredDraw):
        h = self.hand
        assert h is not None
        tenpai = tuple(bool(t) for t in e.tenpai)
        for s, p in enumerate(h.players):
            if p.riichi and not tenpai[s]:
                raise IllegalAction(e, "a player in riichi is tenpai at an exhaustive draw", f"seat {s}")
        if e.nagashi and not self.rules.nagashi_mangan:
            raise IllegalAction(e, f"no nagashi mangan under the {self.rules.name} rules")
        if h.phase is Phase.REACT:
            self._react_resolve()
        s = settlement.settle_exhaustive(tenpai, e.nagashi, self.dealer, self.rules)
        return self._finish(Outcome.EXHAUSTIVE_DRAW, s, tenpai=(tenpai[0], tenpai[1], tenpai[2], tenpai[3]),
                            nagashi=e.nagashi, dealer_repeats=tenpai[self.dealer], honba_up=True)

    def _on_declared_abort(self, e: DeclaredAbort):
        h = self.hand
        assert h is not None
        if not self.rules.abortive_draws:
            raise IllegalAction(e, f"no abortive draws under the {self.rules.name} rules")
        if h.phase is Phase.REACT:
            self._react_resolve()
        h.riichi_pending = None
        return self._finish(Outcome.ABORTIVE_DRAW, settlement.Settlement(), abort=e.reason, dealer_repeats=True,
                            honba_up=True)

    # --- what the phones show ----------------------------------------------------------------------------

    def probe(self, seat: int | None, hand: Hand) -> dict[str, Any]:
        """A player's own 13-tile hand, told only to their phone: waits, their value, and furiten from the table.

        Nothing is recorded: the hand stays on the phone. With ``seat`` the values use that seat's wind, riichi
        and the dora on the table, unseen counts leave out every tile in sight, and furiten is judged from the
        seat's discards and the tiles passed since.
        """
        from engine.game import furiten
        from engine.scoring import WinContext
        from engine.waits import find_waits

        h = self.hand
        filler = hand.concealed[0] if hand.concealed else Tile(0)
        known: list[Tile] = []
        if seat is None:
            ctx = WinContext(filler, round_wind=self.round_wind)
        elif h is None:
            ctx = WinContext(filler, seat_wind=self.seat_wind(seat), round_wind=self.round_wind)
        else:
            ctx = self._context(seat, filler, False, None, False, (), self.honba, 0)
            for s, p in enumerate(h.players):
                known += [x.tile for x in p.pond if not x.called]
                if s != seat:
                    known += [t for m in p.melds for t in m.tiles]
        result = find_waits(hand, known, ctx, self.rules)
        out = result.to_dict()
        out["furiten"] = None
        if seat is not None and h is not None and result.tenpai:
            p = h.players[seat]
            f = furiten.judge(kind_counts(hand.concealed), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)
            if f.is_furiten:
                out["furiten"] = {"kind": f.kind.value, "detail": f.explain(), "waits": format_tiles(f.waits)}
        return out

    def waits_of(self, seat: int) -> list[dict[str, Any]]:
        """For a seat whose concealed hand is known and waiting: each wait and what a ron on it would score."""
        from engine.scoring import score_hand

        h = self.hand
        if h is None:
            return []
        p = h.players[seat]
        if not p.hand_known or p.size % 3 != 1:
            return []
        out = []
        for kind in waits(kind_counts(p.known)):
            tile = Tile(kind)
            ctx = self._context(seat, tile, False, None, False, (), self.honba, 0)
            try:
                r = score_hand(Hand((*p.known, tile), tuple(p.melds)), ctx, self.rules)
            except EngineError:
                continue
            score = None
            if r.is_win:
                score = {"han": r.han, "fu": r.fu, "points": r.ron_points, "limit_name": r.limit_name}
            out.append({"tile": str(tile), "score": score, "reason": r.reason})
        return out

    def view(self) -> dict[str, Any]:
        """Everything the live page shows, JSON-ready."""
        h = self.hand
        seats = []
        furiten_now = self.furiten_warnings() if h else {}
        for s in range(4):
            p = h.players[s] if h else None
            f = furiten_now.get(s)
            seats.append({
                "seat": s,
                "name": self.seats[s],
                "wind": self.seat_wind(s).letter,
                "points": self.scores[s],
                "riichi": bool(p and p.riichi),
                "pond": [] if p is None else [
                    {"tile": str(x.tile), "riichi": x.riichi, "called": x.called, "tsumogiri": bool(x.tsumogiri)}
                    for x in p.pond
                ],
                "melds": [] if p is None else [m.notation() for m in p.melds],
                "hand": format_tiles(p.known, sort=True) if p is not None and p.hand_known else None,
                "furiten": None if f is None else {"kind": f.kind.value, "detail": f.explain(),
                                                   "waits": format_tiles(f.waits)},
                "waits": self.waits_of(s) if p is not None else [],
            })
        ura: list[str] = []
        if h is None and self.events and isinstance(self.events[-1], Ron | Tsumo | DeclaredWin):
            ura = [str(t) for t in self.events[-1].ura_indicators]
        final = None
        results = self.final_results()
        if results:
            final = [
                {"seat": r.seat, "name": r.name, "place": r.rank, "points": r.score, "bonus": r.uma + r.oka,
                 "result": r.points}
                for r in sorted(results, key=lambda r: r.rank)
            ]
        return {
            "rules": self.rules.name,
            "round": {"index": self.round, "name": self.round_name, "wind": self.round_wind.letter},
            "honba": self.honba,
            "sticks": self.sticks,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "in_hand": h is not None,
            "wall_left": h.live if h is not None and any(p.draws for p in h.players) else None,
            "dora_indicators": [str(t) for t in self.dora_indicators],
            "dora": [str(t) for t in self.dora],
            "ura_indicators": ura,
            "seats": seats,
            "history": [
                {"hand": f"{round_name(r.round)} · {r.honba} honba", "result": _result_text(r, self.seats),
                 "deltas": list(r.deltas), "scores": list(r.scores), "outcome": r.outcome.value}
                for r in self.history
            ],
            "finished": self.over,
            # agari-yame / tenpai-yame: the dealer may end the game now (the engine's ``dealer_stops`` event, e.g.
            # ``POST /api/game/event {"type": "dealer_stops"}``) or play on (record the next hand as usual)
            "dealer_may_stop": self.dealer_may_stop,
            "final": final,
            "events": len(self.events),
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
    """The current game, its event log, and the actions the phones take on it. Thread-safe.

    ``store`` (optional) persists the events: ``append(event_dict)``, ``pop()`` and ``load() -> (meta, events)``,
    ``reset(meta)``; without one the game lives in memory.
    """

    def __init__(self, rules: RuleSet, seats: tuple[str, ...] = SEAT_NAMES, store: Any = None) -> None:
        self._lock = threading.RLock()
        self.store = store
        self.game = TableGame(rules, seats)
        if store is not None:
            loaded = store.load()
            if loaded is not None:
                meta, events = loaded
                self.game = TableGame.load({**meta, "events": events})
            else:
                store.reset(self._meta())

    def _meta(self) -> dict[str, Any]:
        data = self.game.to_json()
        data.pop("events")
        return data

    def view(self) -> dict[str, Any]:
        with self._lock:
            return self.game.view()

    def new(self, rules: RuleSet, seats: tuple[str, ...]) -> None:
        with self._lock:
            self.game = TableGame(rules, seats)
            if self.store is not None:
                self.store.reset(self._meta())

    def apply(self, event: Event) -> Any:
        """Apply one event (starting a hand first when none is in progress and the event needs one)."""
        with self._lock:
            events = [event]
            if self.game.hand is None and not isinstance(event, HandStart | DealerStops) and not self.game.over:
                events.insert(0, HandStart())
            done = 0
            try:
                for e in events:
                    result = self.game.apply(e)
                    done += 1
            except Exception:
                if done:  # take back the hand start made for this event: all or nothing
                    g = self.game
                    self.game = TableGame.replay(g.rules, g.seats, g.events[:-done], g.first_dealer, g.start)
                raise
            if self.store is not None:
                for e in events:
                    self.store.append(e.to_dict())
            return result

    def undo(self) -> None:
        with self._lock:
            self.game = self.game.undo()
            if self.store is not None:
                self.store.pop()

    def win(self, body: dict[str, Any]) -> Any:
        """Confirm a win from a phone: the engine's Ron/Tsumo when it saw the winning tile, else a declared win."""
        from device.hand_request import parse_score_request

        seat = _seat(body.get("winner"), "winner")
        tsumo = bool(body.get("tsumo", False))
        discarder = None if tsumo else _seat(body.get("discarder_seat"), "discarder_seat")
        request = {k: v for k, v in body.items() if k not in ("winner", "discarder_seat", "discarder", "seat_wind")}
        with self._lock:
            g = self.game
            request["round_wind"] = g.round_wind.letter
            request["seat_wind"] = g.seat_wind(seat).letter
            if discarder is not None:
                request["discarder"] = g.seat_wind(discarder).letter
            hand, ctx, _ = parse_score_request(request, g.rules)
            flags = tuple(f for f in DECLARABLE if getattr(ctx, f))
            h = g.hand
            concealed = tuple(hand.concealed)
            if h is not None and not hand.melds:
                tracked = h.players[seat]
                if tsumo and h.phase is Phase.DISCARD and h.actor == seat and not tracked.melds:
                    return self.apply(Tsumo(seat, concealed, ctx.win_tile, ctx.ura_indicators))
                if (not tsumo and h.phase is Phase.REACT and h.discarder == discarder
                        and h.last_discard == ctx.win_tile and not tracked.melds):
                    rest = list(concealed)
                    rest.remove(ctx.win_tile)
                    return self.apply(Ron((RonClaim(seat, tuple(rest)),), ctx.ura_indicators))
            return self.apply(DeclaredWin(seat, discarder, hand.notation(), ctx.win_tile, flags,
                                          ctx.dora_indicators, ctx.ura_indicators))

    def draw(self, body: dict[str, Any]) -> Any:
        return self.apply(event_of({"type": "declared_draw", "tenpai": body.get("tenpai"),
                                    "nagashi": body.get("nagashi", [])}))

    def abort(self, body: dict[str, Any]) -> Any:
        return self.apply(event_of({"type": "declared_abort", "reason": body.get("reason")}))

    def chombo(self, body: dict[str, Any]) -> Any:
        reason = body.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise EngineError("reason is a short text")
        return self.apply(Chombo(_seat(body.get("seat"), "seat"), reason))

    def riichi(self, body: dict[str, Any]) -> Any:
        return self.apply(event_of({"type": "declared_riichi", "seat": body.get("seat"),
                                    "double": body.get("double", False)}))

    def probe(self, body: dict[str, Any]) -> dict[str, Any]:
        seat = body.get("seat")
        seat = None if seat is None else _seat(seat, "seat")
        text = body.get("hand")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise EngineError("hand is required: your 13 tiles in mpsz, melds after them (pon:555z ...)")
        hand = parse_hand(text)
        with self._lock:
            return self.game.probe(seat, hand)

    def event(self, body: dict[str, Any]) -> Any:
        return self.apply(event_of(body))

    def export(self) -> dict[str, Any]:
        with self._lock:
            data = self.game.to_json()
            data["history"] = [r.to_dict() for r in self.game.history]
            results = self.game.final_results()
            data["final"] = None if results is None else [r.to_dict() for r in results]
            data["scores"] = list(self.game.scores)
            return data
