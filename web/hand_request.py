"""Turn a JSON scoring request (from the phone page or ``POST /api/score``) into engine values.

A request is a JSON object::

    {"hand": "123m456p789s1z 55z pon:777z",   # mpsz with the meld notation of engine/hand.py
     "win_tile": "1z",                        # must be among the concealed tiles; added if the hand has 13
     "tsumo": false,                          # or "ron": true
     "seat_wind": "E", "round_wind": "E",     # E/S/W/N or 0..3
     "riichi": true, "ippatsu": false, ...    # each situational flag by name, or "flags": ["riichi", ...]
     "dora": "4m", "ura": "",                 # indicator tiles (mpsz), kan-dora included
     "honba": 0, "sticks": 0, "discarder": "S",
     "rules": "standard"}                     # a preset name, or {"preset": "wrc", "kiriage": true}

Anything wrong raises :class:`BadRequest` (a ValueError) with a message for the player.

>>> hand, ctx, rules = parse_score_request({"hand": "123m456p789s11z22z", "win_tile": "2z", "tsumo": True})
>>> hand.size, str(ctx.win_tile), ctx.tsumo, rules.name
(14, '2z', True, 'standard')
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.game.events import DECLARABLE
from engine.hand import Hand, parse_hand
from engine.rules import PRESETS, RuleSet, option_value, preset
from engine.tiles import Tile, Wind, parse_tiles

#: The situational flags a request may set (the WinContext fields of that name): those a player may declare.
FLAGS = DECLARABLE
_KNOWN = {
    "hand",
    "win_tile",
    "tsumo",
    "ron",
    "seat_wind",
    "round_wind",
    "flags",
    "dora",
    "ura",
    "dora_indicators",
    "ura_indicators",
    "honba",
    "sticks",
    "discarder",
    "rules",
    *FLAGS,
}


class BadRequest(ValueError):
    """A request the service cannot act on; the message says why."""


def _wind(value: Any, field: str) -> Wind:
    if isinstance(value, bool):
        raise BadRequest(f"{field} is a wind (E, S, W, N), not {value!r}")
    if isinstance(value, int):
        if 0 <= value <= 3:
            return Wind(value)
        raise BadRequest(f"{field} is a wind 0..3 or E/S/W/N, not {value}")
    if isinstance(value, str) and value:
        try:
            return Wind.parse(value)
        except EngineError as exc:
            raise BadRequest(f"{field}: {exc}") from None
    raise BadRequest(f"{field} is a wind (E, S, W, N), not {value!r}")


#: The most honba or riichi sticks a request may count (the points stay within what a game can pay).
MAX_COUNT = 100


def _count(value: Any, field: str, limit: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise BadRequest(f"{field} is a whole number 0..{limit}, not {value!r}")
    return value


def count_text(text: str, field: str) -> int:
    """A count typed as text (a form field, a command-line option): ASCII digits only, 0..``MAX_COUNT``.

    >>> count_text("3", "honba")
    3
    """
    if not (text.isascii() and text.isdigit()):  # int() reads the digits of other scripts too
        raise BadRequest(f"{field} is a whole number 0..{MAX_COUNT} in ASCII digits, not {text!r}")
    return _count(int(text), field)


def indicators(value: Any, field: str) -> tuple[Tile, ...]:
    """Dora or ura indicators as a request gives them: mpsz text, or a list of one tile each."""
    return _tiles(value, field)


def _tiles(value: Any, field: str, limit: int = 10) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, list):  # one indicator each: "10m" is no tile (it would read as 1m and a red 5m)
        for v in value:
            if not isinstance(v, str) or len(_tiles(v, field)) != 1:
                raise BadRequest(f"{field}: {v!r} is not one tile; give each indicator as one tile, e.g. 1m or 0p")
        value = "".join(value)
    if not isinstance(value, str):
        raise BadRequest(f"{field} is mpsz text such as '3m5z', not {value!r}")
    try:
        tiles = parse_tiles(value)
    except EngineError as exc:
        raise BadRequest(f"{field}: {exc}") from None
    if len(tiles) > limit:
        raise BadRequest(f"{field} has {len(tiles)} tiles, at most {limit}")
    return tiles


def _option(base: RuleSet, key: str, v: Any) -> Any:
    """A rule option's JSON value, checked against the option's type (``engine.rules.option_value``)."""
    try:
        return option_value(base, key, v)
    except EngineError as exc:
        raise BadRequest(f"rules: {exc}") from None


def parse_rules(value: Any, default: RuleSet) -> RuleSet:
    """``None`` (the table's rules), a preset name, or ``{"preset": name, option: value, ...}``."""
    if value is None:
        return default
    try:
        if isinstance(value, str):
            return preset(value)
        if isinstance(value, dict):
            options = dict(value)
            name = options.pop("preset", default.name)
            if not isinstance(name, str):
                raise BadRequest(f"rules.preset is a name, not {name!r}")
            base = preset(name) if name in PRESETS else default
            for key, v in options.items():
                options[key] = _option(base, key, v)
            return base.with_options(**options) if options else base
    except EngineError as exc:
        raise BadRequest(f"rules: {exc}") from None
    except TypeError as exc:
        raise BadRequest(f"rules: {exc}") from None
    raise BadRequest(f"rules is a preset name or an object, not {value!r}")


def parse_score_request(payload: Any, default_rules: RuleSet | None = None):
    """``(hand, ctx, rules)`` for :func:`engine.scoring.score_hand`; raises BadRequest."""
    from engine.scoring import WinContext

    if not isinstance(payload, dict):
        raise BadRequest("the request is a JSON object")
    unknown = sorted(str(k) for k in set(payload) - _KNOWN)
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
    rules = parse_rules(payload.get("rules"), default_rules or preset("standard"))
    text = payload.get("hand")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("hand is required: mpsz text such as '123m456p789s11z22z'")
    if len(text) > 200:
        raise BadRequest("hand is too long")
    try:
        hand: Hand = parse_hand(text)
    except EngineError as exc:
        raise BadRequest(f"hand: {exc}") from None
    win = _tiles(payload.get("win_tile"), "win_tile", 1)
    if not win:
        if hand.size == 14 and hand.concealed:
            win = (hand.concealed[-1],)  # the last tile written is the winning tile
        else:
            raise BadRequest("win_tile is required (the winning tile, e.g. '5p')")
    if hand.size == 13:
        hand = hand.with_tile(win[0])

    flags: dict[str, bool] = {}
    listed = payload.get("flags", [])
    if not isinstance(listed, list) or not all(isinstance(f, str) for f in listed):
        raise BadRequest("flags is a list of names such as ['riichi', 'ippatsu']")
    for name in listed:
        if name not in FLAGS:
            raise BadRequest(f"unknown flag {name!r}; known: {', '.join(FLAGS)}")
        flags[name] = True
    for name in FLAGS:
        if name in payload:
            if not isinstance(payload[name], bool):
                raise BadRequest(f"{name} is true or false, not {payload[name]!r}")
            flags[name] = payload[name]

    if "tsumo" in payload and not isinstance(payload["tsumo"], bool):
        raise BadRequest(f"tsumo is true or false, not {payload['tsumo']!r}")
    if "ron" in payload and not isinstance(payload["ron"], bool):
        raise BadRequest(f"ron is true or false, not {payload['ron']!r}")
    tsumo = bool(payload.get("tsumo", not payload.get("ron", True)))
    seat = _wind(payload.get("seat_wind", "E"), "seat_wind")
    discarder = None
    if not tsumo and payload.get("discarder") is not None:
        discarder = _wind(payload["discarder"], "discarder")
        if discarder == seat:
            raise BadRequest("the discarder cannot be the winner")
    ctx = WinContext(
        win_tile=win[0],
        tsumo=tsumo,
        seat_wind=seat,
        round_wind=_wind(payload.get("round_wind", "E"), "round_wind"),
        dora_indicators=_tiles(payload.get("dora", payload.get("dora_indicators")), "dora"),
        ura_indicators=_tiles(payload.get("ura", payload.get("ura_indicators")), "ura"),
        honba=_count(payload.get("honba", 0), "honba"),
        sticks=_count(payload.get("sticks", 0), "sticks"),
        discarder=discarder,
        **flags,
    )
    return hand, ctx, rules
