"""The game state: a reducer over events, from the first deal to the final results.

``Game.apply(event)`` checks the event against the rules and the state, then updates the state;
a refused event raises ``IllegalAction`` naming the event and the rule, and leaves the state as
it was. Everything else (scores, ponds, furiten, history) is read from the state, and the whole
game is its rule set, its seat names and its event list: ``Game.replay`` rebuilds it.

Concealed tiles are optional: a player's hand is a list of known tiles plus a number of unseen
ones. Legality that needs the hand (riichi tenpai, kuikae with no legal discard left, furiten)
is judged when the hand becomes known: at once if it is, otherwise when it is shown at a win or
at an exhaustive draw.

Where each rule lives: ``_HANDLERS`` below sends each event type to its function: ``turns`` (deal, draw,
discard, dora flip, a shown hand), ``calls`` (chi, pon, kans, pao), ``riichi``, ``wins`` (ron, tsumo,
declared wins), ``draws`` (exhaustive, abortive, declared draws, chombo), ``game_end`` (honba, the
dealer's repeat, the end of the game, final results). The state itself is ``engine.game.table.Table``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import EngineError, IllegalAction, InvalidHand
from engine.game.calls import on_added_kan, on_call, on_closed_kan
from engine.game.draws import (
    abort_due,
    on_abortive_draw,
    on_chombo,
    on_declared_abort,
    on_declared_draw,
    on_exhaustive_draw,
)
from engine.game.events import Abort, DealerStops, Event, HandStart
from engine.game.game_end import on_dealer_stops
from engine.game.results import HandResult
from engine.game.riichi import on_declared_riichi
from engine.game.table import DEAD_WALL, Phase, Position, Table
from engine.game.turns import on_discard, on_dora_flip, on_draw, on_hand_start, on_show_hand
from engine.game.wins import on_declared_ron, on_declared_win, on_ron, on_tsumo
from engine.rules import RuleSet

#: Each event type's rule: a function that checks the event against the table, then changes it.
_HANDLERS: dict[str, Callable[[Table, Any], HandResult | None]] = {
    "hand_start": on_hand_start,
    "draw": on_draw,
    "discard": on_discard,
    "call": on_call,
    "added_kan": on_added_kan,
    "closed_kan": on_closed_kan,
    "dora_flip": on_dora_flip,
    "show_hand": on_show_hand,
    "ron": on_ron,
    "tsumo": on_tsumo,
    "exhaustive_draw": on_exhaustive_draw,
    "abortive_draw": on_abortive_draw,
    "chombo": on_chombo,
    "dealer_stops": on_dealer_stops,
    "declared_riichi": on_declared_riichi,
    "declared_win": on_declared_win,
    "declared_ron": on_declared_ron,
    "declared_draw": on_declared_draw,
    "declared_abort": on_declared_abort,
}


class Game(Table):
    """A whole game: rules, four seats, and the state after the events applied so far.

    ``Game(rules, seats=("East", "South", "West", "North"), first_dealer=0, start=None)``; ``start`` is a
    ``Position`` for a game joined part-way. Reading the state: see ``Table``.
    ``Game.replay(rules, seats, events)`` rebuilds a game; ``undo()`` gives a new game without the last
    event; ``engine.game.record`` turns a game into JSON and back (``game_to_json`` / ``game_from_json``,
    ``rules_to_dict`` / ``rules_from_dict``) and into one JSON-ready dict for a display (``snapshot``).

    >>> from engine.rules import preset
    >>> g = Game(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
    >>> g.round_name, g.dealer, g.scores
    ('East 1', 0, [25000, 25000, 25000, 25000])
    """

    # ------------------------------------------------------------------ rebuilding by replay

    @classmethod
    def replay(
        cls, rules: RuleSet, seats: Any, events: list[Event], first_dealer: int = 0, start: Position | None = None
    ) -> Game:
        g = cls(rules, seats, first_dealer, start)
        for e in events:
            g.apply(e)
        return g

    def undo(self, count: int = 1) -> Game:
        """A new game with the last ``count`` events taken back (the state is rebuilt by one replay)."""
        if count < 1:
            raise EngineError(f"an undo takes back one event or more, not {count}")
        if len(self.events) < count:
            raise EngineError("nothing to undo" if not self.events else f"only {len(self.events)} events to undo")
        return Game.replay(self.rules, self.seats, self.events[:-count], self.first_dealer, self.start)

    # ------------------------------------------------------------------ applying events

    def apply(self, event: Event) -> HandResult | None:
        """Apply one event; returns the hand's result when the event ended a hand.

        Raises ``IllegalAction(event, rule)`` for an event the rules refuse; the state is unchanged then.
        """
        handler = _HANDLERS.get(event.type)
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
            result = handler(self, event)
        except InvalidHand as exc:
            raise IllegalAction(event, "impossible tiles", str(exc)) from None
        self.events.append(event)
        return result

    def abort_due(self) -> Abort | None:
        """An abortive draw that must happen now instead of the next draw or call (rules permitting)."""
        return abort_due(self)

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


__all__ = ["Game"]
