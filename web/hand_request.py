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

Anything wrong raises :class:`BadRequest` (a ValueError) with a message for the player. A win confirmed on a phone
(``POST /api/game/win``) is read by :func:`parse_win_request`; a photo's scoring options (the hand is read from the
photo) by :func:`parse_score_options`. These are the only checks of these requests: the table service is handed
the engine values and the typed requests of :mod:`web.contract`.

>>> hand, ctx, rules = parse_score_request({"hand": "123m456p789s11z22z", "win_tile": "2z", "tsumo": True})
>>> hand.size, str(ctx.win_tile), ctx.tsumo, rules.name
(14, '2z', True, 'standard')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.game.events import DECLARABLE
from engine.hand import Hand, parse_hand
from engine.rules import PRESETS, RuleSet, option_value, preset
from engine.tiles import Tile, Wind, format_tiles, parse_tiles
from web.contract import BadRequest, ScoreOptions, Winner, WinRequest

if TYPE_CHECKING:
    from engine.scoring import WinContext

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


def parse_score_request(payload: Any, default_rules: RuleSet | None = None) -> tuple[Hand, WinContext, RuleSet]:
    """``(hand, ctx, rules)`` for :func:`engine.scoring.score_hand`; raises BadRequest."""
    _check_fields(payload, _KNOWN)
    rules = parse_rules(payload.get("rules"), default_rules or preset("standard"))
    hand = _hand(payload.get("hand"))
    hand, ctx = _options(payload, rules).for_hand(hand)
    return hand, ctx, rules


def parse_score_options(payload: Any, default_rules: RuleSet) -> ScoreOptions:
    """A scoring request without its hand (a photo's tiles are the hand): every field but ``hand`` checked as
    :func:`parse_score_request` checks it, ``hand`` ignored; raises BadRequest.

    >>> parse_score_options({"tsumo": True, "riichi": True}, preset("wrc")).flags
    ('riichi',)
    """
    _check_fields(payload, _KNOWN)
    return _options(payload, parse_rules(payload.get("rules"), default_rules))


def _check_fields(payload: Any, known: set[str] | frozenset[str]) -> None:
    if not isinstance(payload, dict):
        raise BadRequest("the request is a JSON object")
    unknown = sorted(str(k) for k in set(payload) - known)
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")


def _hand(text: Any) -> Hand:
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("hand is required: mpsz text such as '123m456p789s11z22z'")
    if len(text) > 200:
        raise BadRequest("hand is too long")
    try:
        return parse_hand(text)
    except EngineError as exc:
        raise BadRequest(f"hand: {exc}") from None


def _options(payload: dict[str, Any], rules: RuleSet) -> ScoreOptions:
    """The scoring fields of a request whose fields and rules are checked."""
    win = _tiles(payload.get("win_tile"), "win_tile", 1)
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
    return ScoreOptions(
        rules=rules,
        win_tile=win[0] if win else None,
        tsumo=tsumo,
        seat_wind=seat,
        round_wind=_wind(payload.get("round_wind", "E"), "round_wind"),
        flags=tuple(f for f in FLAGS if flags.get(f)),
        dora=_tiles(payload.get("dora", payload.get("dora_indicators")), "dora"),
        ura=_tiles(payload.get("ura", payload.get("ura_indicators")), "ura"),
        honba=_count(payload.get("honba", 0), "honba"),
        sticks=_count(payload.get("sticks", 0), "sticks"),
        discarder=discarder,
    )


def seat_of(value: Any, field: str) -> int:
    """A seat, 0..3 (0 sits East in the first hand); raises BadRequest naming ``field``.

    >>> seat_of(2, "winner")
    2
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise BadRequest(f"{field} is a seat, 0..3, not {value!r}")
    return value


# --- a win confirmed on a phone ----------------------------------------------------------------------------

#: What each winner of a several-winner ron may say for itself; everything else is shared by the winners.
_WINNER_FIELDS = frozenset({"winner", "hand", "win_tile", "flags", "liable_seat", *FLAGS})
#: What a win request says beside a scoring request's fields (the seat winds are the game's).
_WIN_FIELDS = frozenset({*_KNOWN, "winner", "winners", "discarder_seat", "liable_seat"})


def parse_win_request(body: Any, default_rules: RuleSet | None = None) -> WinRequest:
    """A win confirmed on a phone (``POST /api/game/win`` and its preview), checked whole; raises BadRequest.

    One winner: ``{"winner", "hand", "win_tile", flags..., "tsumo" or "discarder_seat", "liable_seat"}``
    (``liable_seat``: the player liable (包, pao) for a big dragons, big winds or four quads in the hand). Several
    winners of one discard: ``"winners": [{"winner", "hand", "win_tile", flags..., "liable_seat"}, ...]`` with the
    shared fields (``discarder_seat``, ``dora``, ``ura``) beside it. Each winner's hand is read as a scoring
    request's (:func:`parse_score_request`; the seat winds are the game's, so ``seat_wind``, ``round_wind`` and
    ``discarder`` are not read).

    >>> w = parse_win_request({"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s"})
    >>> w.discarder, w.winners[0].seat, str(w.winners[0].win_tile), w.tsumo
    (0, 1, '8s', False)
    """
    if not isinstance(body, dict):
        raise BadRequest("the request is a JSON object")
    entries = _winner_entries(body)
    tsumo = body.get("tsumo", False)
    if not isinstance(tsumo, bool):
        raise BadRequest(f"tsumo is true or false, not {tsumo!r}")
    if tsumo and len(entries) > 1:
        raise BadRequest("a tsumo has one winner: several winners are a ron on one discard")
    discarder = None if tsumo else seat_of(body.get("discarder_seat"), "discarder_seat")
    rules = default_rules or preset("standard")
    wins = [_winner(entry, discarder, rules) for entry in entries]
    seats = [w.seat for w in wins]
    if len(set(seats)) != len(seats):
        raise BadRequest(f"each winner is named once, not {seats}")
    tiles = {w.win_tile for w in wins}
    if len(tiles) > 1:
        raise BadRequest(f"the winners of one discard win on the same tile, not {format_tiles(tiles, sort=True)}")
    return WinRequest(tuple(wins), discarder, *_shared_indicators(body))


def _shared_indicators(body: dict[str, Any]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    return (
        _tiles(body.get("dora", body.get("dora_indicators")), "dora"),
        _tiles(body.get("ura", body.get("ura_indicators")), "ura"),
    )


def _winner_entries(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The body as one request per winner: itself, or each of ``winners`` with the shared fields added."""
    winners = body.get("winners")
    if winners is None:
        return [body]
    if "winner" in body or "hand" in body:
        raise BadRequest("name the winners either in 'winners' or as 'winner' and 'hand', not both")
    if not isinstance(winners, list) or not 1 <= len(winners) <= 3 or not all(isinstance(w, dict) for w in winners):
        raise BadRequest("winners is a list of one to three objects {winner, hand, win_tile, flags, liable_seat}")
    shared = {k: v for k, v in body.items() if k != "winners"}
    out = []
    for i, w in enumerate(winners):
        unknown = sorted(str(k) for k in set(w) - _WINNER_FIELDS)
        if unknown:
            raise BadRequest(
                f"winners[{i}]: unknown field(s) {', '.join(unknown)}; a winner has "
                f"{', '.join(sorted(_WINNER_FIELDS - set(FLAGS)))} and flags"
            )
        out.append({**shared, **w})
    return out


def _winner(entry: dict[str, Any], discarder: int | None, rules: RuleSet) -> Winner:
    seat = seat_of(entry.get("winner"), "winner")
    liable = entry.get("liable_seat")
    liable = None if liable is None else seat_of(liable, "liable_seat")
    _check_fields(entry, _WIN_FIELDS)
    request = {k: v for k, v in entry.items() if k in _KNOWN and k not in ("discarder", "seat_wind", "round_wind")}
    request["tsumo"] = discarder is None
    parse_rules(request.get("rules"), rules)  # read and checked, not used: a game's rules are its own
    hand = _hand(request.get("hand"))
    options = _options(request, rules)
    if discarder == seat:
        raise BadRequest("the discarder cannot be the winner")
    hand, ctx = options.for_hand(hand)
    return Winner(seat, hand, ctx.win_tile, options.flags, liable)
