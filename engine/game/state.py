"""The game state: a reducer over events, from the first deal to the final results.

``Game.apply(event)`` checks the event against the rules and the state, then updates the state;
a refused event raises ``IllegalAction`` naming the event and the rule, and leaves the state as
it was. Everything else (scores, ponds, furiten, history) is read from the state, and the whole
game is its rule set, its seat names and its event list: ``Game.replay`` rebuilds it.

Concealed tiles are optional: a player's hand is a list of known tiles plus a number of unseen
ones. Legality that needs the hand (riichi tenpai, kuikae with no legal discard left, furiten)
is judged when the hand becomes known: at once if it is, otherwise when it is shown at a win or
at an exhaustive draw.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import EngineError, IllegalAction, InvalidHand
from engine.game import calls, furiten, settlement
from engine.game.events import (
    DECLARABLE,
    Abort,
    AbortiveDraw,
    AddedKan,
    Call,
    Chombo,
    ClosedKan,
    DealerStops,
    DeclaredAbort,
    DeclaredClaim,
    DeclaredDraw,
    DeclaredRiichi,
    DeclaredRon,
    DeclaredWin,
    Discard,
    DoraFlip,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStart,
    Ron,
    RonClaim,
    ShowHand,
    Tsumo,
)
from engine.game.shape import YAOCHUU_KINDS, is_tenpai, kind_counts, waits
from engine.hand import Hand, check_tiles, parse_hand
from engine.melds import Meld, MeldKind, Relative
from engine.rules import PAO_YAKUMAN, GameLength, MultipleRon, RuleSet, pao_yakuman
from engine.tiles import Tile, Wind, format_tiles

#: Tiles left in the live wall after the deal: 136 - 14 (dead wall) - 4 * 13.
LIVE_WALL = 70
DEAD_WALL = 14
_UNSEEN = "?"  # the drawn tile was not seen


class Phase(StrEnum):
    BETWEEN_HANDS = "between_hands"  # before a deal (or after the game's end)
    DRAW = "draw"  # ``actor`` must draw (the dealer's first draw, or a kan's replacement tile)
    DISCARD = "discard"  # ``actor`` holds 14 and must discard, or win, or kan, or riichi
    REACT = "react"  # a discard lies on the table: ron, a call, or the next draw
    KAN = "kan"  # an added kan (or a closed kan that kokushi may rob) waits for chankan or the replacement draw
    GAME_OVER = "game_over"


class Outcome(StrEnum):
    RON = "ron"
    TSUMO = "tsumo"
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    ABORTIVE_DRAW = "abortive_draw"
    CHOMBO = "chombo"


ROUND_NAMES = ("East", "South", "West", "North")


def round_name(index: int) -> str:
    """``0`` -> ``East 1``, ``7`` -> ``South 4``."""
    return f"{ROUND_NAMES[index // 4 % 4]} {index % 4 + 1}"


@dataclass
class PondTile:
    tile: Tile
    tsumogiri: bool | None = None
    riichi: bool = False
    called: bool = False  # taken by another player's call


@dataclass
class Player:
    """One seat's part of the hand in progress."""

    known: list[Tile] = field(default_factory=list)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    pond: list[PondTile] = field(default_factory=list)
    drawn: Tile | str | None = None  # the tile just drawn (_UNSEEN when not seen), None after a call
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    ippatsu: bool = False
    discards: int = 0
    draws: int = 0
    passed: list[Tile] = field(default_factory=list)  # passed since the player's own last turn
    passed_since_riichi: list[Tile] = field(default_factory=list)
    kuikae: frozenset[int] = frozenset()
    after_call: bool = False
    pao: int | None = None  # the seat liable for this player's big dragons / big winds / four kans
    pao_yakuman: str = ""

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown

    @property
    def hand_known(self) -> bool:
        return self.unknown == 0

    @property
    def is_closed(self) -> bool:
        return not any(m.is_open for m in self.melds)

    def take(self, tile: Tile, prefer_unknown: bool = False) -> None:
        """Remove a tile from the hand (from the known tiles if it is there, else an unseen one)."""
        if not prefer_unknown and tile in self.known:
            self.known.remove(tile)
        elif self.unknown > 0:
            self.unknown -= 1
        elif tile in self.known:
            self.known.remove(tile)
        else:
            raise InvalidHand(f"{tile} is not in the hand {format_tiles(self.known, sort=True)}")

    def can_take(self, tiles: list[Tile]) -> bool:
        need = Counter(tiles)
        have = Counter(self.known)
        missing = sum(max(0, n - have[t]) for t, n in need.items())
        return missing <= self.unknown


@dataclass
class HandState:
    """The hand in progress: wall, dora, players, whose turn, what lies on the table."""

    dora_indicators: list[Tile]
    players: list[Player]
    live: int = LIVE_WALL
    phase: Phase = Phase.DRAW
    actor: int = 0
    last_discard: Tile | None = None
    discarder: int | None = None
    kan_tile: Tile | None = None  # the tile of an added kan (or a robbable closed kan) being declared
    kan_closed: bool = False
    pending_kan_dora: int = 0
    rinshan: bool = False  # the actor's last draw was a kan's replacement tile
    interrupted: bool = False  # a call or kan happened: the first go-around is over
    kans: list[int] = field(default_factory=list)  # seat of each kan, in order
    riichi_pending: int | None = None  # a riichi declared with the last discard, deposit not yet paid
    first_discards: list[Tile] = field(default_factory=list)
    riichi_paid_this_hand: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class WinRecord:
    seat: int
    from_seat: int | None  # None for tsumo
    hand: str  # the winning hand in notation
    win_tile: str
    result: Any  # engine.scoring.ScoreResult
    pao: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "from": self.from_seat,
            "hand": self.hand,
            "win_tile": self.win_tile,
            "pao": self.pao,
            "score": self.result.to_dict(),
        }


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what it moved. ``deltas`` per seat; riichi sticks paid during the hand apart."""

    round: int
    honba: int
    dealer: int
    outcome: Outcome
    deltas: tuple[int, int, int, int]
    transfers: tuple[settlement.Transfer, ...]
    scores: tuple[int, int, int, int]  # after the hand
    wins: tuple[WinRecord, ...] = ()
    tenpai: tuple[bool, bool, bool, bool] | None = None
    nagashi: tuple[int, ...] = ()
    abort: Abort | None = None
    bumped: tuple[int, ...] = ()  # claimants who lost a ron to head-bump
    riichi_sticks: tuple[int, ...] = ()  # seats that paid a riichi deposit this hand
    dealer_repeats: bool = False
    note: str = ""

    @property
    def round_name(self) -> str:
        return round_name(self.round)

    def summary(self) -> str:
        head = f"{self.round_name} {self.honba} honba: "
        if self.outcome in (Outcome.RON, Outcome.TSUMO):
            parts = []
            for w in self.wins:
                how = "tsumo" if w.from_seat is None else f"ron from seat {w.from_seat}"
                r = w.result
                val = r.limit_name or f"{r.han} han {r.fu} fu"
                parts.append(f"seat {w.seat} {how}, {val}")
            head += "; ".join(parts)
        elif self.outcome is Outcome.EXHAUSTIVE_DRAW:
            ten = [str(s) for s in range(4) if self.tenpai and self.tenpai[s]]
            head += "exhaustive draw, tenpai: " + (", ".join(ten) or "none")
            if self.nagashi:
                head += f"; nagashi mangan: {', '.join(map(str, self.nagashi))}"
        elif self.outcome is Outcome.ABORTIVE_DRAW:
            head += f"abortive draw ({self.abort.value if self.abort else ''})"
        else:
            head += self.note or "chombo"
        return head + f"; deltas {list(self.deltas)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "round_name": self.round_name,
            "honba": self.honba,
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "transfers": [t.to_dict() for t in self.transfers],
            "wins": [w.to_dict() for w in self.wins],
            "tenpai": None if self.tenpai is None else list(self.tenpai),
            "nagashi": list(self.nagashi),
            "abort": self.abort.value if self.abort else None,
            "bumped": list(self.bumped),
            "riichi_sticks": list(self.riichi_sticks),
            "dealer_repeats": self.dealer_repeats,
            "summary": self.summary(),
        }


@dataclass(frozen=True)
class Position:
    """Where a game joined late starts from: round, honba, sticks on the table, dealer seat, scores."""

    round: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, int, int, int]


@dataclass(frozen=True)
class FinalResult:
    """One seat's result: rank 1..4, raw score, and the game points (in thousands) after uma and oka."""

    seat: int
    name: str
    rank: int
    score: int
    sticks: int  # leftover riichi sticks added (points)
    uma: int
    oka: int
    points: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Game:
    """A whole game: rules, four seats, and the state after the events applied so far.

    >>> from engine.rules import preset
    >>> g = Game(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
    >>> g.round_name, g.dealer, g.scores
    ('East 1', 0, [25000, 25000, 25000, 25000])
    """

    def __init__(
        self,
        rules: RuleSet,
        seats: tuple[str, ...] | list[str] = ("East", "South", "West", "North"),
        first_dealer: int = 0,
        start: Position | None = None,
    ) -> None:
        if len(seats) != 4:
            raise EngineError(f"a game has four seats, not {len(seats)}")
        if not 0 <= first_dealer < 4:
            raise EngineError(f"the first dealer is a seat 0..3, not {first_dealer}")
        self.rules = rules
        self.seats = tuple(seats)
        self.first_dealer = first_dealer
        self.start = start
        self.scores: list[int] = [rules.start_points] * 4
        self.round = 0
        self.honba = 0
        self.sticks = 0  # riichi sticks on the table (count)
        self.dealer = first_dealer
        if start is not None:
            if len(start.scores) != 4 or not 0 <= start.dealer < 4:
                raise EngineError(f"a start position has four scores and a dealer seat: {start}")
            self.scores = list(start.scores)
            self.round, self.honba, self.sticks, self.dealer = start.round, start.honba, start.sticks, start.dealer
        self.over = False
        #: The dealer may end the game now (agari-yame / tenpai-yame): ``DealerStops`` ends it, a ``HandStart``
        #: plays on. Set between hands only, where the rules give the dealer the choice.
        self.dealer_may_stop = False
        self.hand: HandState | None = None
        self.history: list[HandResult] = []
        self.events: list[Event] = []
        self._final: tuple[FinalResult, ...] | None = None

    def __repr__(self) -> str:
        state = "over" if self.over else f"{self.round_name}, {self.honba} honba, {self.phase.value}"
        return f"<Game {self.rules.name}: {state}, scores {self.scores}, {len(self.events)} events>"

    # ------------------------------------------------------------------ reading the state

    @property
    def round_name(self) -> str:
        return round_name(self.round)

    @property
    def round_wind(self) -> Wind:
        return Wind(self.round // 4 % 4)

    def seat_wind(self, seat: int) -> Wind:
        return Wind((seat - self.dealer) % 4)

    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.GAME_OVER
        return Phase.BETWEEN_HANDS if self.hand is None else self.hand.phase

    @property
    def to_act(self) -> int | None:
        """The seat expected to act next (draw or discard), None between hands."""
        h = self.hand
        if h is None:
            return None
        if h.phase is Phase.REACT:
            return (h.actor + 1) % 4
        return h.actor

    @property
    def dora_indicators(self) -> tuple[Tile, ...]:
        return tuple(self.hand.dora_indicators) if self.hand else ()

    @property
    def dora(self) -> tuple[Tile, ...]:
        return tuple(t.dora_from_indicator() for t in self.dora_indicators)

    @property
    def live_wall(self) -> int:
        return self.hand.live if self.hand else 0

    def pond(self, seat: int) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.hand.players[seat].pond) if self.hand else ()

    def melds(self, seat: int) -> tuple[Meld, ...]:
        return tuple(self.hand.players[seat].melds) if self.hand else ()

    def riichi(self, seat: int) -> bool:
        return bool(self.hand and self.hand.players[seat].riichi)

    def known_hand(self, seat: int) -> Hand | None:
        """The seat's concealed tiles and melds when every concealed tile is known."""
        if not self.hand:
            return None
        p = self.hand.players[seat]
        return Hand(tuple(p.known), tuple(p.melds)) if p.hand_known else None

    def furiten(self, seat: int) -> furiten.Furiten | None:
        """Furiten of a seat whose hand is known and waiting (13 tiles), else None."""
        if not self.hand:
            return None
        p = self.hand.players[seat]
        if not p.hand_known or p.size % 3 != 1:
            return None
        return furiten.judge(kind_counts(p.known), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)

    def furiten_warnings(self) -> dict[int, furiten.Furiten]:
        """Seats with a known hand that are furiten now (a ron would be refused)."""
        out = {}
        for s in range(4):
            f = self.furiten(s)
            if f is not None and f.is_furiten:
                out[s] = f
        return out

    def kuikae_forbidden(self, seat: int) -> tuple[Tile, ...]:
        if not self.hand:
            return ()
        return tuple(Tile(k) for k in sorted(self.hand.players[seat].kuikae))

    def final_results(self) -> tuple[FinalResult, ...] | None:
        """Ranks, uma, oka and leftover sticks once the game is over; None before."""
        return self._final

    def standings(self) -> tuple[int, ...]:
        """Seats from first to last place (ties: the seat nearer the first dealer ranks higher)."""
        return tuple(sorted(range(4), key=lambda s: (-self.scores[s], (s - self.first_dealer) % 4)))

    # ------------------------------------------------------------------ rebuilding by replay

    @classmethod
    def replay(
        cls, rules: RuleSet, seats: Any, events: list[Event], first_dealer: int = 0, start: Position | None = None
    ) -> Game:
        g = cls(rules, seats, first_dealer, start)
        for e in events:
            g.apply(e)
        return g

    def undo(self) -> Game:
        """A new game with the last event taken back (the state is rebuilt by replay)."""
        if not self.events:
            raise EngineError("nothing to undo")
        return Game.replay(self.rules, self.seats, self.events[:-1], self.first_dealer, self.start)

    # ------------------------------------------------------------------ applying events

    def apply(self, event: Event) -> HandResult | None:
        """Apply one event; returns the hand's result when the event ended a hand.

        Raises ``IllegalAction(event, rule)`` for an event the rules refuse; the state is unchanged then.
        """
        handler = getattr(self, "_on_" + event.type, None)
        if handler is None:
            raise IllegalAction(event, "unknown event")
        if self.over:
            raise IllegalAction(event, "the game is over")
        if self.hand is None and not isinstance(event, HandStart | DealerStops):
            raise IllegalAction(
                event,
                "no hand in progress: the next event is a hand start (deal)"
                + (" or the dealer stopping the game" if self.dealer_may_stop else ""),
            )
        try:
            result = handler(event)
        except InvalidHand as exc:
            raise IllegalAction(event, "impossible tiles", str(exc)) from None
        self.events.append(event)
        return result

    # Each handler checks everything first and only then changes the state.

    def _player(self, event: Event, seat: int) -> Player:
        if not 0 <= seat < 4:
            raise IllegalAction(event, "a seat is 0..3")
        assert self.hand is not None
        return self.hand.players[seat]

    def _check_visible(
        self, event: Event, extra: tuple[Tile, ...] = (), shown: dict[int, tuple[Tile, ...]] | None = None
    ) -> None:
        """No more than four of a kind (and the rule set's red fives) among all tiles known at once.

        ``extra``: tiles about to appear; ``shown``: concealed tiles revealed by a seat, in place of its known ones.
        """
        h = self.hand
        assert h is not None
        seen: list[Tile] = list(h.dora_indicators) + list(extra)
        for s, p in enumerate(h.players):
            seen += shown[s] if shown and s in shown else p.known
            seen += [x.tile for x in p.pond if not x.called]
            for m in p.melds:
                seen += m.tiles
        try:
            check_tiles(seen, self.rules)
        except InvalidHand as exc:
            raise IllegalAction(event, "a set has four of each tile", str(exc)) from None

    def _on_dealer_stops(self, e: DealerStops) -> None:
        if self.hand is not None:
            raise IllegalAction(e, "a hand is in progress")
        if not self.dealer_may_stop:
            why = (
                f"no agari-yame under the {self.rules.name} rules"
                if not self.rules.agari_yame
                else "the dealer may stop the game only after winning or being tenpai in the last hand, in first "
                f"place with at least {self.rules.return_points:,} points"
            )
            raise IllegalAction(e, why)
        if e.dealer is not None and e.dealer != self.dealer:
            raise IllegalAction(
                e, "only the dealer may stop the game", f"the dealer is seat {self.dealer}, not {e.dealer}"
            )
        self.dealer_may_stop = False
        self._end_game()

    def _on_hand_start(self, e: HandStart) -> None:
        if self.hand is not None:
            raise IllegalAction(e, "a hand is in progress")
        expect = {"round": self.round, "honba": self.honba, "sticks": self.sticks, "dealer": self.dealer}
        for key, want in expect.items():
            got = getattr(e, key)
            if got is not None and got != want:
                raise IllegalAction(
                    e,
                    "the deal must follow the game",
                    f"{key} is {want} ({self.round_name}, {self.honba} honba, {self.sticks} sticks, dealer "
                    f"seat {self.dealer}), not {got}",
                )
        if len(e.hands) != 4:
            raise IllegalAction(e, "a deal has four hands")
        players = []
        for hand in e.hands:
            if hand is None:
                players.append(Player(unknown=13))
            elif len(hand) != 13:
                raise IllegalAction(e, "each player is dealt 13 tiles", f"got {len(hand)}")
            else:
                players.append(Player(known=list(hand)))
        state = HandState(
            dora_indicators=[e.dora_indicator] if e.dora_indicator else [],
            players=players,
            actor=self.dealer,
            phase=Phase.DRAW,
        )
        old, self.hand = self.hand, state
        try:
            self._check_visible(e)
        except IllegalAction:
            self.hand = old
            raise
        self.dealer_may_stop = False  # a deal where the dealer could have stopped: the dealer plays on

    def _react_resolve(self) -> None:
        """The last discard was not won on: the riichi deposit is paid and everyone else passed the tile."""
        h = self.hand
        assert h is not None and h.discarder is not None and h.last_discard is not None
        d = h.discarder
        if h.riichi_pending is not None:
            p = h.players[h.riichi_pending]
            p.riichi = True
            p.ippatsu = True
            p.passed_since_riichi = []
            self.scores[h.riichi_pending] -= self.rules.riichi_deposit
            self.sticks += 1
            h.riichi_paid_this_hand.append(h.riichi_pending)
            h.riichi_pending = None
        for s, p in enumerate(h.players):
            if s != d:
                p.passed.append(h.last_discard)
                if p.riichi:
                    p.passed_since_riichi.append(h.last_discard)

    def abort_due(self) -> Abort | None:
        """An abortive draw that must happen now instead of the next draw or call (rules permitting)."""
        h = self.hand
        if h is None or not self.rules.abortive_draws or h.phase is not Phase.REACT:
            return None
        riichi = sum(1 for p in h.players if p.riichi) + (1 if h.riichi_pending is not None else 0)
        if riichi == 4 and h.riichi_pending is not None:
            return Abort.FOUR_RIICHI
        if (
            not h.interrupted
            and len(h.first_discards) == 4
            and all(p.discards == 1 for p in h.players)
            and h.first_discards[0].kind in (27, 28, 29, 30)
            and all(t.kind == h.first_discards[0].kind for t in h.first_discards)
        ):
            return Abort.FOUR_WINDS
        if len(h.kans) == 4 and len(set(h.kans)) > 1:
            return Abort.FOUR_KANS
        return None

    def _on_draw(self, e: Draw) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        rinshan = False
        if h.phase is Phase.REACT:
            assert h.discarder is not None
            if e.seat != (h.discarder + 1) % 4:
                raise IllegalAction(e, "turn order", f"seat {(h.discarder + 1) % 4} draws next, not seat {e.seat}")
            if h.live == 0:
                raise IllegalAction(e, "the wall is empty: the hand ends in an exhaustive draw")
            due = self.abort_due()
            if due is not None:
                raise IllegalAction(e, f"abortive draw due ({due.value}): the hand ends, no more draws")
        elif h.phase is Phase.DRAW:
            if e.seat != h.actor:
                raise IllegalAction(e, "turn order", f"seat {h.actor} draws next, not seat {e.seat}")
            rinshan = bool(h.kans)  # a draw phase after the deal's first draw is a kan's replacement
        elif h.phase is Phase.KAN:
            if e.seat != h.actor:
                raise IllegalAction(e, "turn order", f"seat {h.actor} draws the kan's replacement tile")
            rinshan = True
        else:
            raise IllegalAction(e, "turn order", f"seat {h.actor} must discard first")
        if e.tile is not None:
            self._check_visible(e, (e.tile,))
        # -- change the state
        if h.phase is Phase.REACT:
            self._react_resolve()
        elif h.phase is Phase.KAN:
            assert h.kan_tile is not None
            for s, q in enumerate(h.players):
                if s != h.actor:
                    q.passed.append(h.kan_tile)
                    if q.riichi:
                        q.passed_since_riichi.append(h.kan_tile)
            for q in h.players:
                q.ippatsu = False
            h.kan_tile = None
        h.live -= 1
        if e.tile is None:
            p.unknown += 1
            p.drawn = _UNSEEN
        else:
            p.known.append(e.tile)
            p.drawn = e.tile
        p.draws += 1
        p.passed = []  # temporary furiten ends with the player's own draw
        p.after_call = False
        p.kuikae = frozenset()
        h.rinshan = rinshan
        h.actor = e.seat
        h.phase = Phase.DISCARD

    def _on_discard(self, e: Discard) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        if h.phase is not Phase.DISCARD or h.actor != e.seat:
            raise IllegalAction(e, "turn order", f"it is not seat {e.seat}'s turn to discard")
        if e.tile.kind in p.kuikae:
            raise IllegalAction(
                e,
                "kuikae (swap-calling) is forbidden",
                f"after this call {format_tiles(self.kuikae_forbidden(e.seat))} may not be discarded",
            )
        drawn = p.drawn
        if e.tsumogiri and drawn is None:
            raise IllegalAction(e, "no tile was drawn (after a call the discard comes from the hand)")
        if e.tsumogiri and isinstance(drawn, Tile) and drawn != e.tile:
            raise IllegalAction(e, "tsumogiri discards the drawn tile", f"drawn {drawn}, discarded {e.tile}")
        prefer_unknown = bool(e.tsumogiri) and drawn == _UNSEEN
        if not (e.tile in p.known or p.unknown > 0):
            raise IllegalAction(
                e, "the discarded tile must be in the hand", f"{e.tile} not in {format_tiles(p.known, sort=True)}"
            )
        if p.riichi and (e.tsumogiri is False or (isinstance(drawn, Tile) and drawn != e.tile)):
            raise IllegalAction(e, "after riichi the hand is locked: only the drawn tile may be discarded")
        if e.riichi or e.open_riichi:
            self._check_riichi(e, p)
        if e.tile not in p.known:
            self._check_visible(e, (e.tile,))
        # -- change the state
        p.take(e.tile, prefer_unknown=prefer_unknown)
        first = p.discards == 0 and not h.interrupted
        p.pond.append(PondTile(e.tile, e.tsumogiri, e.riichi or e.open_riichi))
        p.discards += 1
        if p.ippatsu and not (e.riichi or e.open_riichi):
            p.ippatsu = False  # the go-around after riichi ended without a win
        if e.riichi or e.open_riichi:
            h.riichi_pending = e.seat
            p.double_riichi = first
            p.open_riichi = e.open_riichi
        if not h.interrupted and len(h.first_discards) < 4:
            h.first_discards.append(e.tile)
        p.drawn = None
        p.kuikae = frozenset()
        p.after_call = False
        p.passed = []
        h.last_discard = e.tile
        h.discarder = e.seat
        h.rinshan = False
        h.phase = Phase.REACT

    def _check_riichi_closed_and_deposit(self, e: Event, seat: int, p: Player) -> None:
        """What every riichi needs, played or declared: a closed hand and the points for the deposit."""
        if not p.is_closed:
            raise IllegalAction(e, "riichi needs a closed hand (no chi, pon or open kan)")
        if self.scores[seat] < self.rules.riichi_min_points:
            raise IllegalAction(
                e,
                f"riichi needs {self.rules.riichi_min_points} points for the deposit",
                f"seat {seat} has {self.scores[seat]}",
            )

    def _check_riichi(self, e: Discard, p: Player) -> None:
        h = self.hand
        assert h is not None
        if e.open_riichi and not self.rules.open_riichi:
            raise IllegalAction(e, f"open riichi is not played under the {self.rules.name} rules")
        if p.riichi:
            raise IllegalAction(e, "riichi is declared once")
        self._check_riichi_closed_and_deposit(e, e.seat, p)
        if h.live < self.rules.riichi_min_tiles_left:
            raise IllegalAction(
                e, f"riichi needs {self.rules.riichi_min_tiles_left} tiles left in the wall", f"{h.live} left"
            )
        if p.hand_known:
            rest = list(p.known)
            rest.remove(e.tile)
            if not is_tenpai(kind_counts(rest)):
                raise IllegalAction(e, "riichi needs a tenpai hand", f"{format_tiles(rest, sort=True)} is not waiting")

    def _on_call(self, e: Call) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        if h.phase is not Phase.REACT:
            raise IllegalAction(e, "a call is made on a discard that lies on the table")
        assert h.discarder is not None and h.last_discard is not None
        why = calls.call_shape_error(e.kind, e.tiles, h.last_discard, e.seat, h.discarder)
        if why:
            raise IllegalAction(e, why)
        if p.riichi:
            raise IllegalAction(e, "a player in riichi may only ron, not call")
        if h.live == 0:
            raise IllegalAction(e, "the last discard (houtei) cannot be called")
        if e.kind is MeldKind.KAN and len(h.kans) >= 4:
            raise IllegalAction(e, "at most four kans in a hand")
        due = self.abort_due()
        if due is not None:
            raise IllegalAction(e, f"abortive draw due ({due.value}): no calls")
        rest = list(e.tiles)
        rest.remove(h.last_discard)
        if not p.can_take(rest):
            raise IllegalAction(
                e,
                "the caller must hold the other tiles of the meld",
                f"{format_tiles(rest)} not in {format_tiles(p.known, sort=True)}",
            )
        forbidden = (
            frozenset() if self.rules.kuikae_allowed else calls.kuikae_forbidden(e.kind, h.last_discard, e.tiles)
        )
        if p.hand_known and e.kind is not MeldKind.KAN:
            left = list(p.known)
            for t in rest:
                left.remove(t)
            if all(t.kind in forbidden for t in left):
                raise IllegalAction(e, "kuikae (swap-calling) is forbidden", "no tile could be discarded after it")
        # -- change the state
        self._react_resolve()
        for t in rest:
            p.take(t)
        discarder = h.discarder
        h.players[discarder].pond[-1].called = True
        meld = Meld(e.kind, tuple(e.tiles), h.last_discard, Relative.of(e.seat, discarder))
        p.melds.append(meld)
        h.interrupted = True
        for q in h.players:
            q.ippatsu = False
        p.passed = []
        self._check_pao(p, discarder)
        if e.kind is MeldKind.KAN:
            h.kans.append(e.seat)
            h.pending_kan_dora += 1
            h.phase = Phase.DRAW
            p.drawn = None
        else:
            p.kuikae = forbidden
            p.after_call = True
            p.drawn = None
            h.phase = Phase.DISCARD
        h.actor = e.seat
        h.last_discard = None

    def _check_pao(self, p: Player, feeder: int) -> None:
        """包: the call that completes big dragons or big winds (or four kans, where played) makes the feeder liable."""
        sets = [m.kind_index for m in p.melds if m.kind is not MeldKind.CHI]
        newest = p.melds[-1]
        if newest.kind_index in (31, 32, 33) and sum(1 for k in sets if k in (31, 32, 33)) == 3:
            p.pao, p.pao_yakuman = feeder, "Daisangen"
        elif newest.kind_index in (27, 28, 29, 30) and sum(1 for k in sets if k in (27, 28, 29, 30)) == 4:
            p.pao, p.pao_yakuman = feeder, "Dai Suushii"
        elif self.rules.pao_suukantsu and newest.kind is MeldKind.KAN and sum(1 for m in p.melds if m.kind.is_kan) == 4:
            p.pao, p.pao_yakuman = feeder, "Suu Kantsu"

    def _kan_checks(self, e: Event, p: Player) -> None:
        h = self.hand
        assert h is not None
        if h.phase is not Phase.DISCARD or h.actor != getattr(e, "seat", -1):
            raise IllegalAction(e, "a kan from the hand is declared in one's own turn, after drawing")
        if p.after_call:
            raise IllegalAction(e, "no kan right after a chi or pon: discard first")
        if len(h.kans) >= 4:
            raise IllegalAction(e, "at most four kans in a hand")
        if h.live == 0:
            raise IllegalAction(e, "no kan on the last tile of the wall")

    def _on_added_kan(self, e: AddedKan) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        self._kan_checks(e, p)
        idx = next((i for i, m in enumerate(p.melds) if m.kind is MeldKind.PON and m.kind_index == e.tile.kind), None)
        if idx is None:
            raise IllegalAction(e, "an added kan needs a pon of that tile on the table")
        if not p.can_take([e.tile]):
            raise IllegalAction(e, "the added tile must be in the hand")
        # -- change the state
        p.take(e.tile)
        pon = p.melds[idx]
        p.melds[idx] = Meld(MeldKind.KAKAN, (*pon.tiles, e.tile), pon.called, pon.source)
        h.kans.append(e.seat)
        h.pending_kan_dora += 1
        h.interrupted = True
        h.kan_tile = e.tile
        h.kan_closed = False
        p.drawn = None
        h.phase = Phase.KAN

    def _on_closed_kan(self, e: ClosedKan) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        self._kan_checks(e, p)
        if len(e.tiles) != 4 or len({t.kind for t in e.tiles}) != 1:
            raise IllegalAction(e, "a closed kan is four tiles of one kind")
        if not p.can_take(list(e.tiles)):
            raise IllegalAction(e, "the four tiles must be in the hand")
        if p.riichi:
            kind = e.tiles[0].kind
            if isinstance(p.drawn, Tile) and p.drawn.kind != kind:
                raise IllegalAction(e, "after riichi only the drawn tile may make a closed kan")
            if p.hand_known and isinstance(p.drawn, Tile):
                before = list(p.known)
                before.remove(p.drawn)
                after = [t for t in p.known if t.kind != kind]
                if sorted(waits(kind_counts(before))) != sorted(waits(kind_counts(after))):
                    raise IllegalAction(e, "after riichi a closed kan may not change the waits")
        # -- change the state
        for t in e.tiles:
            p.take(t)
        p.melds.append(Meld(MeldKind.ANKAN, tuple(e.tiles), None, Relative.SELF))
        h.kans.append(e.seat)
        h.pending_kan_dora += 1
        h.interrupted = True
        for q in h.players:
            q.ippatsu = False
        p.drawn = None
        if self.rules.kokushi_chankan_on_ankan:
            h.kan_tile = e.tiles[0]
            h.kan_closed = True
            h.phase = Phase.KAN
        else:
            h.phase = Phase.DRAW

    def _on_dora_flip(self, e: DoraFlip) -> None:
        h = self.hand
        assert h is not None
        if h.pending_kan_dora <= 0:
            raise IllegalAction(e, "a new dora indicator is turned over only after a kan")
        self._check_visible(e, (e.indicator,))
        h.dora_indicators.append(e.indicator)
        h.pending_kan_dora -= 1

    def _on_show_hand(self, e: ShowHand) -> None:
        p = self._player(e, e.seat)
        shown = self._revealed(e, e.seat, tuple(e.tiles), p.size)
        self._check_visible(e, (), {e.seat: shown})
        p.known = list(shown)  # a drawn tile that was not seen stays unnamed: a tsumogiri takes any copy
        p.unknown = 0

    # ------------------------------------------------------------------ wins

    def _context(
        self,
        seat: int,
        win_tile: Tile,
        tsumo: bool,
        discarder: int | None,
        chankan: bool,
        ura: tuple[Tile, ...],
        honba: int,
        sticks: int,
    ) -> Any:
        from engine.scoring import WinContext

        h = self.hand
        assert h is not None
        p = h.players[seat]
        first_turn = not h.interrupted and p.discards == 0
        return WinContext(
            win_tile=win_tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            riichi=p.riichi and not p.double_riichi and not p.open_riichi,
            double_riichi=p.riichi and p.double_riichi,
            open_riichi=p.riichi and p.open_riichi,
            ippatsu=p.riichi and p.ippatsu,
            rinshan=tsumo and h.rinshan,
            chankan=chankan,
            haitei=tsumo and h.live == 0 and not h.rinshan,
            houtei=not tsumo and not chankan and h.live == 0,
            tenhou=tsumo and first_turn and seat == self.dealer,
            chiihou=tsumo and first_turn and seat != self.dealer,
            renhou=not tsumo and first_turn and seat != self.dealer and p.draws == 0,
            dora_indicators=tuple(h.dora_indicators),
            ura_indicators=ura if p.riichi else (),
            honba=honba,
            sticks=sticks,
            discarder=None if discarder is None else self.seat_wind(discarder),
        )

    def _score(
        self,
        event: Event,
        seat: int,
        concealed: tuple[Tile, ...],
        win_tile: Tile,
        tsumo: bool,
        discarder: int | None,
        chankan: bool,
        ura: tuple[Tile, ...],
    ) -> tuple[Any, settlement.WinPay]:
        h = self.hand
        assert h is not None
        p = h.players[seat]
        hand = Hand(concealed, tuple(p.melds))
        ctx = self._context(seat, win_tile, tsumo, discarder, chankan, ura, 0, 0)
        result = _scored_win(event, seat, hand, ctx, self.rules)
        pao_base = 0
        pao_seat = None
        if p.pao is not None:
            pao_base = _pao_base(result, p.pao_yakuman)
            if pao_base:
                pao_seat = p.pao
        return result, _win_pay(seat, result, tsumo, pao_seat, pao_base)

    def _revealed(self, event: Event, seat: int, shown: tuple[Tile, ...], size: int) -> tuple[Tile, ...]:
        """Check a shown hand against what is known of the seat's hand; ``size`` is the expected count."""
        h = self.hand
        assert h is not None
        p = h.players[seat]
        if len(shown) != size:
            raise IllegalAction(
                event,
                "the shown hand has the wrong number of tiles",
                f"seat {seat} holds {size} concealed tiles, {len(shown)} shown",
            )
        missing = Counter(p.known) - Counter(shown)
        if missing:
            raise IllegalAction(
                event,
                "the shown hand differs from the known tiles",
                f"seat {seat}'s {format_tiles(missing.elements())} missing",
            )
        return shown

    def _triple_ron_aborts(self, claimants: int) -> bool:
        """三家和: three players ron one discard and the rules make that an abortive draw (001, Tenhou)."""
        return claimants == 3 and self.rules.abortive_draws and self.rules.multiple_ron is MultipleRon.DOUBLE

    def _head_bump(self, claims: list[Any]) -> tuple[list[Any], tuple[int, ...]]:
        """The claims that win (given in turn after the discarder) and the seats bumped: under head-bump (頭ハネ,
        000) the first claimant wins alone; otherwise every claimant wins (double ron, triple ron)."""
        if self.rules.multiple_ron is MultipleRon.HEAD_BUMP and len(claims) > 1:
            return claims[:1], tuple(c.seat for c in claims[1:])
        return claims, ()

    def _on_ron(self, e: Ron) -> HandResult:
        h = self.hand
        assert h is not None
        if h.phase is Phase.REACT:
            assert h.discarder is not None and h.last_discard is not None
            discarder, win_tile, chankan = h.discarder, h.last_discard, False
        elif h.phase is Phase.KAN:
            assert h.kan_tile is not None
            discarder, win_tile, chankan = h.actor, h.kan_tile, True
        else:
            raise IllegalAction(e, "a ron is on a discard (or an added kan) that lies on the table")
        if not e.claims:
            raise IllegalAction(e, "a ron needs a winner")
        seats = [c.seat for c in e.claims]
        if len(set(seats)) != len(seats) or any(not 0 <= s < 4 or s == discarder for s in seats):
            raise IllegalAction(e, "each winner is another player than the discarder, once")
        claims = sorted(e.claims, key=lambda c: (c.seat - discarder) % 4)
        if self._triple_ron_aborts(len(claims)):
            return self._on_abortive_draw(AbortiveDraw(Abort.TRIPLE_RON), from_ron=e)
        claims, bumped = self._head_bump(claims)
        wins: list[WinRecord] = []
        pays: list[settlement.WinPay] = []
        for c in claims:
            p = h.players[c.seat]
            shown = c.hand
            if len(shown) == p.size:
                shown = (*shown, win_tile)
            shown = self._revealed(e, c.seat, shown, p.size + 1)
            if win_tile not in shown:
                raise IllegalAction(e, "the shown hand must hold the winning tile", f"{win_tile}")
            rest = list(shown)
            rest.remove(win_tile)
            f = furiten.judge(kind_counts(rest), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)
            if f.is_furiten:
                raise IllegalAction(e, "furiten: no ron", f"seat {c.seat}: {f.explain()}")
            result, pay = self._score(e, c.seat, shown, win_tile, False, discarder, chankan, e.ura_indicators)
            if chankan and h.kan_closed and not any(y.name.startswith("Kokushi") for y in result.yaku):
                raise IllegalAction(e, "a closed kan can only be robbed for thirteen orphans")
            wins.append(
                WinRecord(
                    c.seat, discarder, Hand(shown, tuple(p.melds)).notation(), str(win_tile), result, pay.pao_seat
                )
            )
            pays.append(pay)
        revealed: dict[int, tuple[Tile, ...]] = {}
        for c in claims:
            rest_c = list(c.hand)
            if len(rest_c) == h.players[c.seat].size + 1:
                rest_c.remove(win_tile)
            revealed[c.seat] = tuple(rest_c)
        self._check_visible(e, tuple(e.ura_indicators), revealed)
        s = settlement.settle_ron(pays, discarder, self.dealer, self.honba, self.sticks, self.rules)
        h.riichi_pending = None  # a riichi declared with the winning discard is void: no deposit
        return self._finish(
            Outcome.RON, s, wins=tuple(wins), bumped=bumped, dealer_repeats=any(w.seat == self.dealer for w in wins)
        )

    def _on_tsumo(self, e: Tsumo) -> HandResult:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        if h.phase is not Phase.DISCARD or h.actor != e.seat:
            raise IllegalAction(e, "a tsumo is declared in one's own turn, after drawing")
        if p.after_call:
            raise IllegalAction(e, "no tsumo after a chi or pon: the hand was not completed by a draw")
        shown = self._revealed(e, e.seat, tuple(e.hand), p.size)
        if e.win_tile not in shown:
            raise IllegalAction(e, "the shown hand must hold the winning tile", f"{e.win_tile}")
        if isinstance(p.drawn, Tile) and p.drawn != e.win_tile:
            raise IllegalAction(e, "a tsumo wins on the drawn tile", f"drawn {p.drawn}, not {e.win_tile}")
        self._check_visible(e, tuple(e.ura_indicators), {e.seat: shown})
        result, pay = self._score(e, e.seat, shown, e.win_tile, True, None, False, e.ura_indicators)
        win = WinRecord(e.seat, None, Hand(shown, tuple(p.melds)).notation(), str(e.win_tile), result, pay.pao_seat)
        s = settlement.settle_tsumo(pay, self.dealer, self.honba, self.sticks, self.rules)
        return self._finish(Outcome.TSUMO, s, wins=(win,), dealer_repeats=e.seat == self.dealer)

    # ------------------------------------------------------------------ draws

    def _on_exhaustive_draw(self, e: ExhaustiveDraw) -> HandResult:
        h = self.hand
        assert h is not None
        if h.phase is not Phase.REACT or h.live != 0:
            raise IllegalAction(
                e, "an exhaustive draw comes after the last discard, with the wall empty", f"{h.live} tiles left"
            )
        if len(e.hands) != 4:
            raise IllegalAction(e, "an exhaustive draw lists four hands (None for noten)")
        tenpai = []
        shown_all: dict[int, tuple[Tile, ...]] = {}
        for s, shown in enumerate(e.hands):
            p = h.players[s]
            if shown is None:
                if p.riichi:
                    raise IllegalAction(e, "a player in riichi must show the hand at an exhaustive draw", f"seat {s}")
                tenpai.append(False)
                continue
            self._revealed(e, s, tuple(shown), p.size)
            if not is_tenpai(kind_counts(shown)):
                raise IllegalAction(
                    e, "a hand shown as tenpai must be waiting", f"seat {s}: {format_tiles(shown, sort=True)}"
                )
            tenpai.append(True)
            shown_all[s] = tuple(shown)
        self._check_visible(e, (), shown_all)
        nagashi: tuple[int, ...] = ()
        if self.rules.nagashi_mangan:
            nagashi = tuple(
                s
                for s, p in enumerate(h.players)
                if p.pond and all(x.tile.kind in YAOCHUU_KINDS and not x.called for x in p.pond)
            )
        self._react_resolve()
        s = settlement.settle_exhaustive(tenpai, nagashi, self.dealer, self.rules)
        return self._finish(
            Outcome.EXHAUSTIVE_DRAW,
            s,
            tenpai=(tenpai[0], tenpai[1], tenpai[2], tenpai[3]),
            nagashi=nagashi,
            dealer_repeats=tenpai[self.dealer],
            honba_up=True,
        )

    def _on_abortive_draw(self, e: AbortiveDraw, from_ron: Ron | DeclaredRon | None = None) -> HandResult:
        h = self.hand
        assert h is not None
        culprit: Event = from_ron or e
        if not self.rules.abortive_draws:
            raise IllegalAction(culprit, f"no abortive draws under the {self.rules.name} rules")
        if e.reason is Abort.NINE_TERMINALS:
            if e.seat is None:
                raise IllegalAction(e, "nine terminals is declared by a seat")
            p = self._player(e, e.seat)
            if h.phase is not Phase.DISCARD or h.actor != e.seat or p.discards or h.interrupted or p.after_call:
                raise IllegalAction(e, "nine terminals is declared on one's first draw, before any call")
            tiles = e.hand if e.hand is not None else (tuple(p.known) if p.hand_known else None)
            if tiles is None:
                raise IllegalAction(e, "nine terminals: the hand must be shown")
            self._revealed(e, e.seat, tuple(tiles), p.size)
            kinds = {t.kind for t in tiles if t.kind in YAOCHUU_KINDS}
            if len(kinds) < 9:
                raise IllegalAction(
                    e,
                    "nine terminals needs nine different terminals and honours",
                    f"{len(kinds)} in {format_tiles(tiles, sort=True)}",
                )
        elif e.reason is Abort.TRIPLE_RON:
            if h.phase not in (Phase.REACT, Phase.KAN) and not isinstance(from_ron, DeclaredRon):
                raise IllegalAction(e, "a triple ron is on a discard")
            if self.rules.multiple_ron is not MultipleRon.DOUBLE:
                raise IllegalAction(e, f"a triple ron is not a draw under the {self.rules.name} rules")
        else:
            due = self.abort_due()
            if due is not e.reason:
                raise IllegalAction(e, f"the conditions of {e.reason.value} are not met")
        if h.phase is Phase.REACT and e.reason is not Abort.TRIPLE_RON:
            self._react_resolve()
        h.riichi_pending = None
        return self._finish(
            Outcome.ABORTIVE_DRAW, settlement.Settlement(), abort=e.reason, dealer_repeats=True, honba_up=True
        )

    def _on_chombo(self, e: Chombo) -> HandResult:
        h = self.hand
        assert h is not None
        self._player(e, e.seat)
        s = settlement.settle_chombo(e.seat, self.dealer, self.rules)
        # riichi deposits made in this hand go back to their owners; the hand is replayed
        refunds = tuple(
            settlement.Transfer(None, seat, self.rules.riichi_deposit, "riichi deposit returned")
            for seat in h.riichi_paid_this_hand
        )
        s = settlement.Settlement(s.transfers + refunds, len(refunds))
        return self._finish(
            Outcome.CHOMBO,
            s,
            dealer_repeats=True,
            replay=True,
            note=f"chombo by seat {e.seat}" + (f": {e.reason}" if e.reason else ""),
        )

    # ------------------------------------------------------------------ declared results (no camera)
    #
    # The players say how the hand ended (or that a seat declared riichi) when the discards are not on record.
    # The engine scores the declared hand and settles it like its own results: honba, riichi sticks, dealer
    # repeat and the end of the game follow the rules.

    def _on_declared_riichi(self, e: DeclaredRiichi) -> None:
        h = self.hand
        assert h is not None
        p = self._player(e, e.seat)
        if p.riichi or h.riichi_pending == e.seat:
            raise IllegalAction(e, "already in riichi: riichi is declared once")
        self._check_riichi_closed_and_deposit(e, e.seat, p)
        p.riichi = True
        p.double_riichi = e.double
        self.scores[e.seat] -= self.rules.riichi_deposit
        self.sticks += 1
        h.riichi_paid_this_hand.append(e.seat)

    def _on_declared_win(self, e: DeclaredWin) -> HandResult:
        self._player(e, e.seat)
        if e.discarder is not None:
            self._player(e, e.discarder)
            if e.discarder == e.seat:
                raise IllegalAction(e, "a ron is on another player's discard")
        claim = DeclaredClaim(e.seat, e.hand, e.flags, e.pao)
        return self._settle_declared(e, e.discarder, e.win_tile, [claim], e.dora_indicators, e.ura_indicators)

    def _on_declared_ron(self, e: DeclaredRon) -> HandResult:
        self._player(e, e.discarder)
        if not e.claims:
            raise IllegalAction(e, "a ron needs a winner")
        seats = [c.seat for c in e.claims]
        for s in seats:
            self._player(e, s)
        if len(set(seats)) != len(seats) or e.discarder in seats:
            raise IllegalAction(e, "each winner is another player than the discarder, once")
        claims = sorted(e.claims, key=lambda c: (c.seat - e.discarder) % 4)
        for c in claims:  # every claimant's hand must at least be readable, bumped or not
            self._declared_hand(e, c, e.win_tile)
        if self._triple_ron_aborts(len(claims)):
            return self._on_abortive_draw(AbortiveDraw(Abort.TRIPLE_RON), from_ron=e)
        winners, bumped = self._head_bump(claims)
        return self._settle_declared(
            e, e.discarder, e.win_tile, winners, e.dora_indicators, e.ura_indicators, bumped=bumped
        )

    def _declared_hand(self, e: Event, c: DeclaredClaim, win_tile: Tile) -> Hand:
        """A declared winner's hand, read and holding the winning tile."""
        unknown = sorted(set(c.flags) - set(DECLARABLE))
        if unknown:
            raise IllegalAction(e, "unknown situational yaku", ", ".join(unknown))
        try:
            hand = parse_hand(c.hand)
        except EngineError as exc:
            raise IllegalAction(e, "the hand cannot be read", f"seat {c.seat}: {exc}") from None
        if hand.size == 13:
            hand = hand.with_tile(win_tile)
        if win_tile not in hand.concealed:
            raise IllegalAction(e, "the shown hand must hold the winning tile", f"seat {c.seat}: {win_tile}")
        return hand

    def _settle_declared(
        self,
        e: Event,
        discarder: int | None,
        win_tile: Tile,
        claims: list[DeclaredClaim],
        dora: tuple[Tile, ...],
        ura: tuple[Tile, ...],
        bumped: tuple[int, ...] = (),
    ) -> HandResult:
        """Score each declared winner (in turn after the discarder) and settle them as the engine's own wins."""
        h = self.hand
        assert h is not None
        tsumo = discarder is None
        indicators = tuple(h.dora_indicators) or dora
        wins: list[WinRecord] = []
        pays: list[settlement.WinPay] = []
        shown: list[Tile] = [*indicators, *ura]
        for c in claims:
            hand = self._declared_hand(e, c, win_tile)
            result, pay = self._score_declared(e, c, hand, win_tile, discarder, indicators, ura)
            wins.append(WinRecord(c.seat, discarder, hand.notation(), str(win_tile), result, pay.pao_seat))
            pays.append(pay)
            rest = list(hand.all_tiles)
            rest.remove(win_tile)  # one discard won by all: the winning tile counts once
            shown += rest
        try:
            check_tiles([*shown, win_tile], self.rules)
        except InvalidHand as exc:
            raise IllegalAction(e, "a set has four of each tile", str(exc)) from None
        if discarder is None:
            s = settlement.settle_tsumo(pays[0], self.dealer, self.honba, self.sticks, self.rules)
        else:
            s = settlement.settle_ron(pays, discarder, self.dealer, self.honba, self.sticks, self.rules)
        h.riichi_pending = None  # a riichi declared with the winning discard is void: no deposit
        return self._finish(
            Outcome.TSUMO if tsumo else Outcome.RON,
            s,
            wins=tuple(wins),
            bumped=bumped,
            dealer_repeats=any(w.seat == self.dealer for w in wins),
        )

    def _score_declared(
        self,
        e: Event,
        c: DeclaredClaim,
        hand: Hand,
        win_tile: Tile,
        discarder: int | None,
        dora: tuple[Tile, ...],
        ura: tuple[Tile, ...],
    ) -> tuple[Any, settlement.WinPay]:
        from engine.scoring import WinContext

        h = self.hand
        assert h is not None
        p = h.players[c.seat]
        tsumo = discarder is None
        flags = set(c.flags)
        riichi = p.riichi or bool(flags & {"riichi", "double_riichi", "open_riichi"})
        double = "double_riichi" in flags or p.double_riichi
        ctx = WinContext(
            win_tile=win_tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(c.seat),
            round_wind=self.round_wind,
            riichi=riichi and not double,
            double_riichi=double,
            open_riichi="open_riichi" in flags,
            ippatsu="ippatsu" in flags,
            rinshan="rinshan" in flags and tsumo,
            chankan="chankan" in flags and not tsumo,
            haitei="haitei" in flags and tsumo,
            houtei="houtei" in flags and not tsumo,
            tenhou="tenhou" in flags and tsumo and c.seat == self.dealer,
            chiihou="chiihou" in flags and tsumo and c.seat != self.dealer,
            renhou="renhou" in flags and not tsumo and c.seat != self.dealer,
            dora_indicators=dora,
            ura_indicators=ura if riichi else (),
            discarder=None if discarder is None else self.seat_wind(discarder),
        )
        result = _scored_win(e, c.seat, hand, ctx, self.rules)
        pao_seat, pao_base = self._declared_pao(e, c, hand, result)
        return result, _win_pay(c.seat, result, tsumo, pao_seat, pao_base)

    def _declared_pao(self, e: Event, c: DeclaredClaim, hand: Hand, result: Any) -> tuple[int | None, int]:
        """包 on a declared win: the liable seat named with it, or the one the engine saw feed the last set.

        Checked: a seat other than the winner; a yakuman with liability under the rules in the scored hand; its
        last set called (a pon or open kan; for four quads an open kan), since a concealed set was fed by no one.
        """
        h = self.hand
        assert h is not None
        p = h.players[c.seat]
        if c.pao is None:
            if p.pao is None:
                return None, 0
            base = _pao_base(result, p.pao_yakuman)
            return (p.pao, base) if base else (None, 0)
        self._player(e, c.pao)
        if c.pao == c.seat:
            raise IllegalAction(e, "the liable player (pao) is another player than the winner", f"seat {c.seat}")
        if p.pao is not None and p.pao != c.pao:
            raise IllegalAction(
                e, "liability (pao) falls on the player who fed the last set", f"seat {p.pao} fed it, not {c.pao}"
            )
        names = pao_yakuman(self.rules)
        held = [n for n in names if _pao_base(result, n)]
        for name in held:  # a hand holding two (big dragons and four quads): the first one fed is covered
            if any(_pao_meld(name, m) for m in hand.melds):
                return c.pao, _pao_base(result, name)
        if held:
            raise IllegalAction(
                e,
                "liability (pao) needs the yakuman's last set called from the liable player",
                f"{', '.join(held)}: no called set of it in {hand.notation()}",
            )
        raise IllegalAction(
            e,
            f"liability (pao) is only for {', '.join(PAO_YAKUMAN[n] for n in names)} under the "
            f"{self.rules.name} rules",
            f"none in seat {c.seat}'s scored hand",
        )

    def _on_declared_draw(self, e: DeclaredDraw) -> HandResult:
        h = self.hand
        assert h is not None
        if len(e.tenpai) != 4:
            raise IllegalAction(e, "an exhaustive draw says for each of the four seats whether it is tenpai")
        tenpai = (bool(e.tenpai[0]), bool(e.tenpai[1]), bool(e.tenpai[2]), bool(e.tenpai[3]))
        for s, p in enumerate(h.players):
            if p.riichi and not tenpai[s]:
                raise IllegalAction(e, "a player in riichi is tenpai at an exhaustive draw", f"seat {s}")
        for s in e.nagashi:
            self._player(e, s)
        if e.nagashi and not self.rules.nagashi_mangan:
            raise IllegalAction(e, f"no nagashi mangan under the {self.rules.name} rules")
        if h.phase is Phase.REACT:
            self._react_resolve()
        s = settlement.settle_exhaustive(tenpai, e.nagashi, self.dealer, self.rules)
        return self._finish(
            Outcome.EXHAUSTIVE_DRAW,
            s,
            tenpai=tenpai,
            nagashi=tuple(e.nagashi),
            dealer_repeats=tenpai[self.dealer],
            honba_up=True,
        )

    def _on_declared_abort(self, e: DeclaredAbort) -> HandResult:
        h = self.hand
        assert h is not None
        if not self.rules.abortive_draws:
            raise IllegalAction(e, f"no abortive draws under the {self.rules.name} rules")
        if e.reason is Abort.TRIPLE_RON and self.rules.multiple_ron is not MultipleRon.DOUBLE:
            raise IllegalAction(e, f"a triple ron is not a draw under the {self.rules.name} rules")
        if h.phase is Phase.REACT:
            self._react_resolve()
        h.riichi_pending = None
        return self._finish(
            Outcome.ABORTIVE_DRAW, settlement.Settlement(), abort=e.reason, dealer_repeats=True, honba_up=True
        )

    # ------------------------------------------------------------------ end of a hand, end of the game

    def _finish(
        self,
        outcome: Outcome,
        s: settlement.Settlement,
        *,
        wins: tuple[WinRecord, ...] = (),
        tenpai: tuple[bool, bool, bool, bool] | None = None,
        nagashi: tuple[int, ...] = (),
        abort: Abort | None = None,
        bumped: tuple[int, ...] = (),
        dealer_repeats: bool = False,
        honba_up: bool = False,
        replay: bool = False,
        note: str = "",
    ) -> HandResult:
        h = self.hand
        assert h is not None
        deltas = s.deltas
        for i in range(4):
            self.scores[i] += deltas[i]
        self.sticks -= s.sticks_taken
        result = HandResult(
            round=self.round,
            honba=self.honba,
            dealer=self.dealer,
            outcome=outcome,
            deltas=deltas,
            transfers=s.transfers,
            scores=tuple(self.scores),
            wins=wins,
            tenpai=tenpai,
            nagashi=nagashi,
            abort=abort,
            bumped=bumped,
            riichi_sticks=tuple(h.riichi_paid_this_hand),
            dealer_repeats=dealer_repeats,
            note=note,
        )
        self.history.append(result)
        self.hand = None
        if replay:
            if self.rules.busting and any(x < 0 for x in self.scores):
                self._end_game()
            return result
        # after a win: one more honba if the dealer won, else none; after a draw: one more honba, unless the
        # deal passes and the rules reset them (noten_draw_adds_honba)
        honba_next = (self.honba + 1 if dealer_repeats else 0) if wins else self.honba + int(honba_up)
        if honba_up and not dealer_repeats and not self.rules.noten_draw_adds_honba:
            honba_next = 0
        self._advance(dealer_repeats, honba_next)
        return result

    def _advance(self, dealer_repeats: bool, honba_next: int) -> None:
        rules = self.rules
        last = 3 if rules.game_length is GameLength.EAST else 7
        limit = last + 4  # the extension ends with its fourth hand at the latest
        ends = may_stop = False
        if rules.busting and any(x < 0 for x in self.scores):
            ends = True
        elif self.round >= last:
            top = self.standings()[0]
            reached = any(x >= rules.return_points for x in self.scores)
            kept = self.history[-1].outcome in (Outcome.RON, Outcome.TSUMO, Outcome.EXHAUSTIVE_DRAW)
            if dealer_repeats:
                if self.round > last and reached:
                    ends = True  # the extension is sudden death
                elif rules.agari_yame and kept and top == self.dealer and self.scores[top] >= rules.return_points:
                    # アガリ止め / 聴牌止め: the dealer, first after winning (or being tenpai) in the last hand,
                    # may end the game here or play on: the dealer's choice, the next event says which
                    may_stop = True
            elif not rules.extension or reached or self.round + 1 > limit:
                ends = True
        if dealer_repeats:
            self.honba = honba_next
        else:
            self.honba = honba_next
            self.dealer = (self.dealer + 1) % 4
            self.round += 1
        if ends:
            self._end_game()
        else:
            self.dealer_may_stop = may_stop

    def _end_game(self) -> None:
        """Final results: leftover sticks to first place, then uma and oka (split on ties where the rules say)."""
        rules = self.rules
        order = self.standings()
        left = self.sticks * rules.riichi_deposit if rules.leftover_sticks_to_first else 0
        raw = list(self.scores)
        raw[order[0]] += left
        uma = {seat: rules.uma[rank] for rank, seat in enumerate(order)}
        oka = {seat: (rules.oka if rank == 0 else 0) for rank, seat in enumerate(order)}
        if rules.split_tied_uma:
            for score in set(raw):
                tied = [s for s in order if raw[s] == score]
                if len(tied) > 1:
                    u = sum(uma[s] for s in tied) / len(tied)
                    o = sum(oka[s] for s in tied) / len(tied)
                    for s in tied:
                        uma[s], oka[s] = u, o
        values: dict[int, float] = {}
        if rules.round_final_points:
            # the score rounded to thousands (or final_points_step), halves away from zero (Tenhou: 25,500 ->
            # 26, -7,500 -> -8), less the return points; first place takes the remainder so the sum is zero
            unit = rules.final_points_step
            for seat in order[1:]:
                rounded = _round_half_away(raw[seat] / unit) * unit
                values[seat] = round((rounded - rules.return_points + uma[seat] + oka[seat]) / 1000, 3)
            values[order[0]] = round(-sum(values.values()), 3)
        else:
            for seat in order:
                values[seat] = round((raw[seat] - rules.return_points + uma[seat] + oka[seat]) / 1000, 3)
        finals = [
            FinalResult(
                seat=seat,
                name=self.seats[seat],
                rank=rank + 1,
                score=raw[seat],
                sticks=left if rank == 0 else 0,
                uma=int(uma[seat]),
                oka=int(oka[seat]),
                points=float(values[seat]) + 0.0,
            )
            for rank, seat in enumerate(order)
        ]
        if left:
            self.scores[order[0]] += left
            self.sticks = 0
        self._final = tuple(sorted(finals, key=lambda r: r.seat))
        self.over = True

    # ------------------------------------------------------------------ invariants

    def validate(self) -> None:
        """Check the invariants; raises EngineError naming the broken one.

        136 tiles accounted for, points plus deposits conserved, at most four kans, one dealer,
        hand sizes consistent with melds.
        """
        rules = self.rules
        total = sum(self.scores) + self.sticks * rules.riichi_deposit
        expected = 4 * rules.start_points
        if self.start is not None:
            expected = sum(self.start.scores) + self.start.sticks * rules.riichi_deposit
        if total != expected:
            raise EngineError(f"points not conserved: {self.scores} + {self.sticks} sticks = {total}")
        if not 0 <= self.dealer < 4:
            raise EngineError(f"dealer {self.dealer} is not a seat")
        if self.dealer_may_stop and (self.over or self.hand is not None):
            raise EngineError("the dealer's choice to stop is offered only between hands of a game not over")
        h = self.hand
        if h is None:
            return
        if len(h.kans) > 4:
            raise EngineError(f"{len(h.kans)} kans")
        tiles = DEAD_WALL + h.live
        for s, p in enumerate(h.players):
            in_hand = p.size
            expect = 13 - 3 * len(p.melds)
            holding = h.phase is Phase.DISCARD and h.actor == s
            if in_hand != expect + (1 if holding else 0):
                raise EngineError(f"seat {s} holds {in_hand} tiles, expected {expect + (1 if holding else 0)}")
            tiles += in_hand + sum(len(m.tiles) for m in p.melds) + sum(1 for x in p.pond if not x.called)
        if tiles != 136:
            raise EngineError(f"{tiles} tiles accounted for, not 136")
        if len(h.dora_indicators) > 1 + len(h.kans):
            raise EngineError("more dora indicators than kans allow")


def _scored_win(event: Event, seat: int, hand: Hand, ctx: Any, rules: RuleSet) -> Any:
    """The hand scored; a hand that is no win refuses ``event``."""
    from engine.scoring import score_hand

    result = score_hand(hand, ctx, rules)
    if not result.is_win:
        raise IllegalAction(event, f"not a win: {result.reason}", f"seat {seat}: {hand.notation()}")
    return result


def _win_pay(seat: int, result: Any, tsumo: bool, pao_seat: int | None, pao_base: int) -> settlement.WinPay:
    """What a scored win is paid, as settlement reads it."""
    return settlement.WinPay(
        seat,
        result.ron_points,
        result.tsumo_points,
        result.base_points,
        pao_seat,
        pao_base,
        label=f"seat {seat} " + ("tsumo" if tsumo else "ron"),
    )


def _pao_base(result: Any, yakuman: str) -> int:
    """The base points a liable player covers: the named yakuman's, when the scored hand holds it."""
    fed = [y for y in result.yaku if y.name == yakuman and y.yakuman_multiple]
    return 8000 * fed[0].yakuman_multiple if fed else 0


def _pao_meld(yakuman: str, m: Meld) -> bool:
    """Whether ``m`` can be the set a liable player fed: called dragons, called winds, or (four quads) an open kan."""
    if yakuman == "Daisangen":
        return m.is_open and m.kind is not MeldKind.CHI and m.kind_index in (31, 32, 33)
    if yakuman == "Dai Suushii":
        return m.is_open and m.kind is not MeldKind.CHI and m.kind_index in (27, 28, 29, 30)
    return m.kind is MeldKind.KAN


def _round_half_away(x: float) -> int:
    """Round to a whole number, halves away from zero (25.5 -> 26, -7.5 -> -8), as Tenhou's final scores."""
    return math.floor(x + 0.5 + 1e-9) if x >= 0 else -math.floor(-x + 0.5 + 1e-9)


__all__ = ["FinalResult", "Game", "HandResult", "Outcome", "Phase", "Position", "RonClaim", "WinRecord", "round_name"]
