"""Turn a phone's game write (``POST /api/game/...``) into the engine's events, checked once, here.

A phone may send anything: each field is checked against the type the engine's event gives it (:func:`event_of`)
before the table service is handed the event; what the rules then refuse is the engine's to say. A game file
(``POST /api/game/import``) is checked the same way, event by event (:func:`check_game_file`); replaying it is the
store's. A win is read by :func:`web.hand_request.parse_win_request`.

>>> event_of({"type": "declared_riichi", "seat": 2})
DeclaredRiichi(seat=2, double=False)
>>> game_event("chombo", {"seat": 5})
Traceback (most recent call last):
...
web.contract.BadRequest: seat is a seat, 0..3, not 5
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from engine.errors import EngineError
from engine.game.events import Chombo, DeclaredClaim, Event, RonClaim, event_from_dict
from engine.rules import RuleSet, preset
from engine.tiles import Tile
from web.contract import BadRequest
from web.hand_request import parse_rules, seat_of

#: The longest name a game file may give a seat.
_SEAT_NAME_MAX = 40


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
    "tuple[RonClaim, ...]": lambda v: (
        isinstance(v, tuple)
        and all(isinstance(c, RonClaim) and isinstance(c.seat, int) and _is_tiles(c.hand) for c in v)
    ),
    "tuple[DeclaredClaim, ...]": lambda v: isinstance(v, tuple) and all(isinstance(c, DeclaredClaim) for c in v),
}


def _check_fields(event: Event) -> Event:
    """Refuse an event whose fields have the wrong types (a phone may send anything)."""
    for f in fields(event):
        check = _FIELD_CHECKS.get(str(f.type))
        if check is not None and not check(getattr(event, f.name)):
            raise EngineError(f"{event.type}: {f.name} has the wrong type ({getattr(event, f.name)!r})")
    return event


def event_of(d: Any) -> Event:
    """An event from a phone's dict (the engine's events, the declared ones included), types checked.

    Raises EngineError.
    """
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        raise EngineError(f"an event is an object with a 'type', not {d!r}"[:200])
    try:
        return _check_fields(event_from_dict(d))
    except EngineError:
        raise
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise EngineError(f"bad {d['type']} event: {exc}"[:300]) from None


def game_event(action: str, body: dict[str, Any]) -> Event:
    """The event a settlement write is (``POST /api/game/<action>``): ``draw`` ``{"tenpai": [4 booleans],
    "nagashi": [seats]}``, ``abort`` ``{"reason"}``, ``chombo`` ``{"seat", "reason"}``, ``riichi`` ``{"seat",
    "double"}``, or ``event`` (any engine event as the engine writes it). Raises BadRequest or EngineError."""
    if action == "draw":
        return event_of({"type": "declared_draw", "tenpai": body.get("tenpai"), "nagashi": body.get("nagashi", [])})
    if action == "abort":
        return event_of({"type": "declared_abort", "reason": body.get("reason")})
    if action == "chombo":
        reason = body.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise BadRequest("reason is a short text")
        return Chombo(seat_of(body.get("seat"), "seat"), reason)
    if action == "riichi":
        return event_of({"type": "declared_riichi", "seat": body.get("seat"), "double": body.get("double", False)})
    if action == "event":
        return event_of(body)
    raise BadRequest(f"unknown action {action!r}")


def parse_new_game(body: dict[str, Any], default_rules: RuleSet) -> tuple[RuleSet, list[str]]:
    """A new game (``POST /api/game/new``): ``{"rules": preset name or options, "names": [four names]}``; the rules
    (``default_rules`` when not given) and the four names, stripped ("" for a seat's default name)."""
    rules = parse_rules(body.get("rules"), default_rules)
    names = body.get("names") or ["", "", "", ""]
    if not isinstance(names, list) or len(names) != 4 or not all(isinstance(n, str) and len(n) <= 20 for n in names):
        raise BadRequest("names is a list of four short names (empty for the default)")
    return rules, [n.strip() for n in names]


# --- game files ----------------------------------------------------------------------------------------

#: The most events a game file may hold (a long hanchan has about two thousand).
MAX_FILE_EVENTS = 20_000


def check_game_file(data: Any) -> None:
    """A game file (``GameSession.export`` output, maybe edited by hand) as a phone may send it; raises EngineError
    or BadRequest naming what is wrong. Replaying the events is left to the store."""
    if not isinstance(data, dict) or not {"rules", "events"} <= set(data):
        raise EngineError("a game file is an object with 'rules', 'seats' and 'events' (the game export)")
    if data.get("format", "jantaku-game/1") != "jantaku-game/1":
        raise EngineError(f"unknown game file format {data.get('format')!r}; this site reads jantaku-game/1")
    rules = data["rules"]
    if not isinstance(rules, dict) or not isinstance(rules.get("name"), str):
        raise EngineError("rules is an object with a 'name' and the rule options")
    parse_rules({"preset": rules["name"], **{k: v for k, v in rules.items() if k != "name"}}, preset("standard"))
    seats = data.get("seats")
    if seats is not None and (
        not isinstance(seats, list | tuple)
        or len(seats) != 4
        or not all(isinstance(n, str) and len(n) <= _SEAT_NAME_MAX for n in seats)
    ):
        raise EngineError("seats is a list of four short names")
    events = data["events"]
    if not isinstance(events, list) or len(events) > MAX_FILE_EVENTS:
        raise EngineError(f"events is a list of at most {MAX_FILE_EVENTS} events")
    for i, e in enumerate(events):
        try:
            event_of(e)
        except EngineError as exc:
            raise EngineError(f"event {i}: {exc}") from None
