"""The table between events: scores, round, honba, sticks, dealer, the hand in play, and what the rules read of it.

``Table`` holds the state ``Game`` is made of; the rules that change it are functions taking it, one module
per rule area (``turns``, ``calls``, ``riichi``, ``wins``, ``draws``, ``game_end``), and ``Game.apply``
(``engine.game.state``) sends each event to its function. Here too: the checks every rule shares (a seat,
tiles visible at once, a shown hand) and the deposit and passed tiles when a discard goes unclaimed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import EngineError, IllegalAction, InvalidHand
from engine.game.events import Event
from engine.game.furiten import Furiten, judge
from engine.game.results import FinalResult, HandResult, round_name
from engine.game.shape import kind_counts
from engine.hand import Hand, check_tiles
from engine.melds import Meld
from engine.rules import RuleSet
from engine.tiles import Tile, Wind, format_tiles

#: Tiles left in the live wall after the deal: 136 - 14 (dead wall) - 4 * 13.
LIVE_WALL = 70
DEAD_WALL = 14
UNSEEN = "?"  # the drawn tile was not seen


class Phase(StrEnum):
    BETWEEN_HANDS = "between_hands"  # before a deal (or after the game's end)
    DRAW = "draw"  # ``actor`` must draw (the dealer's first draw, or a kan's replacement tile)
    DISCARD = "discard"  # ``actor`` holds 14 and must discard, or win, or kan, or riichi
    REACT = "react"  # a discard lies on the table: ron, a call, or the next draw
    KAN = "kan"  # an added kan (or a closed kan that kokushi may rob) waits for chankan or the replacement draw
    GAME_OVER = "game_over"


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
    drawn: Tile | str | None = None  # the tile just drawn (UNSEEN when not seen), None after a call
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

    def ron_target(self) -> tuple[int, Tile, bool] | None:
        """What a ron now wins on: (the seat paying, the tile, whether it robs a kan): the last discard while the
        others may claim it, or the kan's tile while a kan waits to be robbed (chankan); None otherwise."""
        if self.phase is Phase.REACT:
            assert self.discarder is not None and self.last_discard is not None
            return self.discarder, self.last_discard, False
        if self.phase is Phase.KAN:
            assert self.kan_tile is not None
            return self.actor, self.kan_tile, True
        return None


@dataclass(frozen=True)
class Position:
    """Where a game joined late starts from: round, honba, sticks on the table, dealer seat, scores."""

    round: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, int, int, int]


class Table:
    """The state of a game: rules, four seats, scores and the hand in play; ``Game`` applies events to it.

    Reading the state: ``scores``, ``round`` / ``round_name`` / ``round_wind``, ``honba``, ``sticks``
    (riichi sticks on the table), ``dealer``, ``seat_wind(seat)``, ``phase`` and ``to_act``,
    ``dora_indicators`` / ``dora``, ``live_wall``, ``pond(seat)``, ``melds(seat)``, ``riichi(seat)``,
    ``known_hand(seat)``, ``furiten(seat)`` and ``furiten_warnings()`` (for hands that are known),
    ``kuikae_forbidden(seat)``, ``abort_due()``, ``history`` (a ``HandResult`` per hand: outcome,
    deltas, transfers with reasons, the scorer's result for each win), ``dealer_may_stop``, ``over`` and
    ``final_results()`` (rank, score, leftover sticks, uma, oka, game points), ``standings()``,
    ``validate()`` (the invariants).
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

    def furiten(self, seat: int) -> Furiten | None:
        """Furiten of a seat whose hand is known and waiting (13 tiles), else None."""
        if not self.hand:
            return None
        p = self.hand.players[seat]
        if not p.hand_known or p.size % 3 != 1:
            return None
        return judge(kind_counts(p.known), [x.tile for x in p.pond], p.passed, p.passed_since_riichi)

    def furiten_warnings(self) -> dict[int, Furiten]:
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

    # ------------------------------------------------------------------ checks every rule shares

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
