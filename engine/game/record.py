"""The game record: a ``Game`` as JSON-ready data and back, and a snapshot of its state for a display.

A game is its rules (every option), seats, first dealer, start position and events; ``game_from_json``
rebuilds it by replay, so a stored game is checked event by event as it is read back.

>>> from engine.rules import preset
>>> g = Game(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
>>> game_from_json(game_to_json(g)).scores
[25000, 25000, 25000, 25000]
>>> snapshot(g)["round_name"]
'East 1'
"""

from __future__ import annotations

from dataclasses import asdict, fields
from enum import Enum
from typing import Any

from engine.errors import EngineError
from engine.game.events import event_from_dict
from engine.game.state import Game
from engine.game.table import Position
from engine.rules import RuleSet, option_value, preset
from engine.tiles import format_tiles


def game_to_json(game: Game) -> dict[str, Any]:
    """The game as data: its rules (every option), seats and events. ``game_from_json`` rebuilds it."""
    return {
        "format": "jantaku-game/1",
        "rules": rules_to_dict(game.rules),
        "seats": list(game.seats),
        "first_dealer": game.first_dealer,
        "start": None if game.start is None else {**game.start.__dict__, "scores": list(game.start.scores)},
        "events": [e.to_dict() for e in game.events],
    }


def game_from_json(data: dict[str, Any]) -> Game:
    """The game ``game_to_json`` wrote, rebuilt by replaying its events; EngineError for a malformed one."""
    if not isinstance(data, dict) or "rules" not in data or "events" not in data:
        raise EngineError("a game file is an object with 'rules', 'seats' and 'events'")
    rules = rules_from_dict(data["rules"])
    events = [event_from_dict(e) for e in data["events"]]
    start = data.get("start")
    try:
        pos = (
            None
            if start is None
            else Position(
                int(start["round"]),
                int(start["honba"]),
                int(start["sticks"]),
                int(start["dealer"]),
                tuple(int(x) for x in start["scores"]),
            )
        )
    except (KeyError, TypeError, ValueError):
        raise EngineError(f"a start position has round, honba, sticks, dealer and scores: {start!r}") from None
    return Game.replay(
        rules, data.get("seats", ("East", "South", "West", "North")), events, data.get("first_dealer", 0), pos
    )


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every option of a rule set as JSON-ready data (enums by value, tuples as lists)."""
    data = asdict(rules)
    for k, v in data.items():
        if isinstance(v, Enum):
            data[k] = v.value
        elif isinstance(v, tuple):
            data[k] = list(v)
    return data


#: Options added after games were first recorded, with the behaviour every game recorded without them was played
#: under: such a game (a saved log, an old export) replays to the points it had, not to today's preset.
RECORDED_BEFORE: dict[str, Any] = {
    "noten_draw_adds_honba": True,
    "pao_whole_hand": False,
    "final_points_step": 1_000,
    "pao_pays_honba": True,
}


def rules_from_dict(d: dict[str, Any]) -> RuleSet:
    """A RuleSet from ``rules_to_dict``'s data (enums by value, tuples as lists). An option the data lacks is the
    preset's, except those of :data:`RECORDED_BEFORE`, which keep the rule the game was recorded under.

    >>> rules_from_dict({"name": "standard"}).noten_draw_adds_honba  # recorded before the option existed
    True
    >>> rules_from_dict(rules_to_dict(preset("standard"))).noten_draw_adds_honba
    False
    """
    if not isinstance(d, dict) or "name" not in d:
        raise EngineError("rules are an object with a 'name'")
    base = preset(str(d["name"]))  # an unknown name is an error, not a rule set of defaults
    d = {**RECORDED_BEFORE, **d}
    kwargs: dict[str, Any] = {}
    for f in fields(RuleSet):
        if f.name not in d or f.name == "name":
            continue
        v = d[f.name]
        kwargs[f.name] = option_value(base, f.name, list(v) if isinstance(v, tuple) else v)
    return base.with_options(**kwargs) if kwargs else base


def snapshot(game: Game) -> dict[str, Any]:
    """The game's state, JSON-ready, for a display."""
    h = game.hand
    out: dict[str, Any] = {
        "seats": list(game.seats),
        "rules": game.rules.name,
        "round": game.round,
        "round_name": game.round_name,
        "honba": game.honba,
        "sticks": game.sticks,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "phase": game.phase.value,
        "to_act": game.to_act,
        "over": game.over,
        "dealer_may_stop": game.dealer_may_stop,
        "hands_played": len(game.history),
    }
    if h is not None:
        out["dora_indicators"] = format_tiles(h.dora_indicators)
        out["live_wall"] = h.live
        out["players"] = [
            {
                "seat_wind": game.seat_wind(s).letter,
                "pond": [
                    {"tile": str(x.tile), "riichi": x.riichi, "called": x.called, "tsumogiri": x.tsumogiri}
                    for x in p.pond
                ],
                "melds": [m.notation() for m in p.melds],
                "riichi": p.riichi,
                "hand": format_tiles(p.known, sort=True) if p.hand_known else None,
                "tiles_in_hand": p.size,
                "furiten": (f.explain() if (f := game.furiten(s)) and f.is_furiten else None),
                "kuikae": format_tiles(game.kuikae_forbidden(s)),
            }
            for s, p in enumerate(h.players)
        ]
    if game.history:
        out["last_hand"] = game.history[-1].to_dict()
    finals = game.final_results()
    if finals:
        out["final"] = [r.to_dict() for r in finals]
    return out
