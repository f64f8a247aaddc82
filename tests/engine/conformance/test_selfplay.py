"""Property test: random legal games played by the engine against itself keep the invariants after every event.

Invariants (``Game.validate``): 136 tiles accounted for (dead wall + live wall + hands + ponds + melds), points
plus riichi deposits conserved, at most four kans, one dealer; here also: known tiles never exceed four of a
kind, each hand's result moves as many points as its transfers say, and the log replays to the same state.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.conformance.selfplay import SelfPlay
from engine.game.events import Event
from engine.game.record import game_from_json, game_to_json
from engine.rules import preset


def _check_game(rules_name: str, seed: int, max_hands: int) -> Counter:
    rules = preset(rules_name)
    sp = SelfPlay(rules, seed=seed, check=True)  # validate() after every event
    seen: Counter = Counter()
    hands_before = 0
    for ev in sp.events(max_hands=max_hands):
        seen[ev.type] += 1
        g = sp.game
        assert g.dealer in range(4)
        if len(g.history) > hands_before:
            r = g.history[-1]
            hands_before = len(g.history)
            assert sum(r.deltas) == sum(t.amount for t in r.transfers if t.payer is None), r.summary()
            seen[r.outcome.value] += 1
    # the log replays to the very same state, and survives JSON
    again = game_from_json(game_to_json(sp.game))
    assert again.scores == sp.game.scores and again.sticks == sp.game.sticks
    assert [h.deltas for h in again.history] == [h.deltas for h in sp.game.history]
    return seen


@pytest.mark.parametrize("rules", ["standard", "wrc", "tenhou"])
def test_random_games_keep_invariants(rules: str) -> None:
    seen = _check_game(rules, seed=7, max_hands=3)
    assert seen["discard"] > 20


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "wrc", "tenhou"])
@pytest.mark.parametrize("seed", range(12))
def test_many_random_games(rules: str, seed: int) -> None:
    _check_game(rules, seed=100 + seed, max_hands=100)


def test_random_games_reach_every_kind_of_event() -> None:
    """Over a handful of hands the player exercises calls, kans, riichi, wins and draws (or the test is weak)."""
    total: Counter = Counter()
    for seed in range(6):
        total += _check_game("standard", seed=seed, max_hands=4)
    for kind in ("call", "discard", "draw", "ron", "exhaustive_draw", "dora_flip"):
        assert total[kind] > 0, (kind, total)


def test_events_are_values() -> None:
    sp = SelfPlay(preset("standard"), seed=1)
    evs: list[Event] = list(sp.events(max_hands=1))
    assert all(hash(e) is not None for e in evs)
