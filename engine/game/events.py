"""Game events: what happens at the table, one typed, frozen value each.

A camera (or a player tapping a phone) sees public events only: discards, calls, riichi, dora
flips, and the hands shown at a win or an exhaustive draw. Concealed tiles are optional
everywhere (``None`` = not seen). Every event round-trips through JSON-ready dicts
(``to_dict()`` / ``event_from_dict()``). Seats are 0..3 in turn order (counter-clockwise); they do
not move during a game. Which seat is dealer, and the seat winds, follow from the game state.

The events: ``HandStart`` (dora indicator, optional known hands, optional round/honba/sticks/dealer
to cross-check), ``Draw`` (tile or None; after a kan it is the replacement tile), ``Discard``
(``tsumogiri``, ``riichi``, ``open_riichi``), ``Call`` (chi, pon, open kan on the last discard),
``AddedKan``, ``ClosedKan``, ``DoraFlip``, ``ShowHand`` (a concealed hand entered or seen mid-hand),
``Ron`` (one or more ``RonClaim``; chankan when it follows an added kan), ``Tsumo``, ``ExhaustiveDraw``
(the hands shown as tenpai), ``AbortiveDraw`` (``Abort`` reason), ``Chombo``, ``DealerStops`` (the
dealer ends the game where the rules give the choice: ``dealer_may_stop``; a ``HandStart`` plays on).
Results declared when the discards are not on record (a table without the camera): ``DeclaredWin``
(winner, discarder or tsumo, the hand, the winning tile, situational yaku from ``DECLARABLE``, the
seat liable for a yakuman: pao), ``DeclaredRon`` (several winners of one discard, each a
``DeclaredClaim``; head-bump, double and triple ron as for ``Ron``), ``DeclaredDraw`` (who is
tenpai, nagashi), ``DeclaredAbort``, ``DeclaredRiichi``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar

from engine.errors import EngineError, InvalidNotation
from engine.melds import MeldKind
from engine.tiles import Tile, format_tiles, parse_tiles

Tiles = tuple[Tile, ...]


class Abort(StrEnum):
    """途中流局: abortive draws (each on or off with ``RuleSet.abortive_draws``)."""

    NINE_TERMINALS = "nine_terminals"  # 九種九牌: declared on a first draw with 9+ kinds of terminals/honours
    FOUR_WINDS = "four_winds"  # 四風連打: the same wind discarded by all four on the first go-around
    FOUR_KANS = "four_kans"  # 四槓散了: a fourth kan, made by two or more players
    TRIPLE_RON = "triple_ron"  # 三家和: three players ron one discard
    FOUR_RIICHI = "four_riichi"  # 四家立直: all four in riichi


@dataclass(frozen=True)
class Event:
    """Base class. ``type`` names the event in JSON."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _dump(getattr(self, f.name))
        return out


def _dump(v: Any) -> Any:
    if isinstance(v, Tile):
        return str(v)
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, tuple):
        if v and all(isinstance(t, Tile) for t in v):
            return format_tiles(v)
        return [_dump(x) for x in v]
    if isinstance(v, RonClaim):
        return {"seat": v.seat, "hand": format_tiles(v.hand)}
    if isinstance(v, DeclaredClaim):
        return {"seat": v.seat, "hand": v.hand, "flags": list(v.flags), "pao": v.pao}
    return v


@dataclass(frozen=True)
class HandStart(Event):
    """配牌: a new hand is dealt and the first dora indicator flipped.

    ``round``, ``honba``, ``sticks`` and ``dealer`` may be given to check the table agrees with the
    engine (round 0..3 East 1-4, 4..7 South 1-4, 8.. West); ``hands`` are starting hands when known
    (13 tiles each; the dealer's 14th tile is the first ``Draw``).
    """

    type: ClassVar[str] = "hand_start"
    dora_indicator: Tile | None = None
    hands: tuple[Tiles | None, ...] = (None, None, None, None)
    round: int | None = None
    honba: int | None = None
    sticks: int | None = None
    dealer: int | None = None


@dataclass(frozen=True)
class Draw(Event):
    """自摸: a tile from the wall (after a kan: the replacement tile from the dead wall). ``tile`` if seen."""

    type: ClassVar[str] = "draw"
    seat: int
    tile: Tile | None = None


@dataclass(frozen=True)
class Discard(Event):
    """打牌. ``tsumogiri``: the tile just drawn was discarded (None: not seen). ``riichi``: declared with it."""

    type: ClassVar[str] = "discard"
    seat: int
    tile: Tile
    tsumogiri: bool | None = None
    riichi: bool = False
    open_riichi: bool = False


@dataclass(frozen=True)
class Call(Event):
    """チー / ポン / 大明槓 on the last discard. ``tiles`` are the whole meld, the called tile included."""

    type: ClassVar[str] = "call"
    seat: int
    kind: MeldKind
    tiles: Tiles


@dataclass(frozen=True)
class AddedKan(Event):
    """加槓: the fourth tile added to one's own pon (other players may rob it: chankan)."""

    type: ClassVar[str] = "added_kan"
    seat: int
    tile: Tile


@dataclass(frozen=True)
class ClosedKan(Event):
    """暗槓: four of a kind from the hand."""

    type: ClassVar[str] = "closed_kan"
    seat: int
    tiles: Tiles


@dataclass(frozen=True)
class DoraFlip(Event):
    """A kan-dora indicator turned over (槓ドラ)."""

    type: ClassVar[str] = "dora_flip"
    indicator: Tile


@dataclass(frozen=True)
class RonClaim:
    """One winner of a ron: the seat and the concealed tiles shown (the winning tile may be included)."""

    seat: int
    hand: Tiles


@dataclass(frozen=True)
class Ron(Event):
    """栄和: one or more players win on the last discard (or on an added kan: chankan).

    Under head-bump rules only the first claimant after the discarder wins; the others are recorded.
    """

    type: ClassVar[str] = "ron"
    claims: tuple[RonClaim, ...]
    ura_indicators: Tiles = ()


@dataclass(frozen=True)
class Tsumo(Event):
    """自摸和: a win on one's own draw. ``hand`` is the 14 concealed tiles (kans apart) with ``win_tile``."""

    type: ClassVar[str] = "tsumo"
    seat: int
    hand: Tiles
    win_tile: Tile
    ura_indicators: Tiles = ()


@dataclass(frozen=True)
class ExhaustiveDraw(Event):
    """荒牌流局: the wall is empty. ``hands`` are the hands shown as tenpai (None: noten or hidden)."""

    type: ClassVar[str] = "exhaustive_draw"
    hands: tuple[Tiles | None, ...] = (None, None, None, None)


@dataclass(frozen=True)
class AbortiveDraw(Event):
    """途中流局. ``seat`` and ``hand`` for nine terminals (the declarer shows the hand)."""

    type: ClassVar[str] = "abortive_draw"
    reason: Abort
    seat: int | None = None
    hand: Tiles | None = None


@dataclass(frozen=True)
class ShowHand(Event):
    """A seat's concealed tiles become known mid-hand (the player enters them, or a camera sees them).

    Nothing happens at the table; the engine can now warn of furiten ahead and check riichi tenpai.
    """

    type: ClassVar[str] = "show_hand"
    seat: int
    tiles: Tiles


@dataclass(frozen=True)
class Chombo(Event):
    """錯和 / 冲和: a penalty (false win, illegal act): the offender pays a mangan; the hand is replayed."""

    type: ClassVar[str] = "chombo"
    seat: int
    reason: str = ""


@dataclass(frozen=True)
class DealerStops(Event):
    """アガリ止め / 聴牌止め: the dealer ends the game after winning or being tenpai in the last hand in first place.

    Where the rules let the dealer stop (``RuleSet.agari_yame``) the game waits between hands for the
    dealer's choice: this event ends it with the final results; a ``HandStart`` instead means the dealer
    plays on. ``dealer`` may be given to check the table agrees with the engine.
    """

    type: ClassVar[str] = "dealer_stops"
    dealer: int | None = None


# --------------------------------------------------------------------------- declared results
#
# A table without the camera (or a hand the camera lost) still needs its points moved: the players declare how a
# hand ended (or that a seat declared riichi), and the engine scores and settles it. No discard needs to be on
# record; what the players state is checked as far as the state allows (seats, riichi, rules, a complete hand).

#: The situational yaku a player may state with a declared win (names of ``engine.scoring.WinContext`` fields).
DECLARABLE = (
    "riichi",
    "double_riichi",
    "open_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
)


@dataclass(frozen=True)
class DeclaredWin(Event):
    """A win as the players declare it. ``discarder`` None: tsumo. ``hand`` in hand notation (melds allowed),
    with or without ``win_tile``; ``flags`` are situational yaku from ``DECLARABLE``; ``dora_indicators`` are
    used when the game has none on record. ``pao``: the seat liable (包) for a big dragons, big winds or (where
    the rules say) four quads in the hand, having fed its last set.

    >>> e = DeclaredWin(1, 0, "234m567p23488s678s", Tile.parse("8s"), ("riichi",), (), parse_tiles("3p"))
    >>> e.to_dict()["flags"], event_from_dict(e.to_dict()) == e
    (['riichi'], True)
    """

    type: ClassVar[str] = "declared_win"
    seat: int
    discarder: int | None
    hand: str
    win_tile: Tile
    flags: tuple[str, ...] = ()
    dora_indicators: Tiles = ()
    ura_indicators: Tiles = ()
    pao: int | None = None


@dataclass(frozen=True)
class DeclaredClaim:
    """One winner of a declared ron: the seat, the hand (notation, melds allowed), its situational yaku, and the
    seat liable (包) for a yakuman in it, if any (see ``DeclaredWin``)."""

    seat: int
    hand: str
    flags: tuple[str, ...] = ()
    pao: int | None = None


@dataclass(frozen=True)
class DeclaredRon(Event):
    """Several players ron one discard (double ron, triple ron), as declared: what happens follows the rules'
    ``multiple_ron`` exactly as for the engine's own ``Ron`` (head-bump: the first in turn after the discarder
    wins alone; a triple ron may be an abortive draw). Indicators are shared, as is the winning tile.

    >>> claims = (DeclaredClaim(1, "123456789m23p55s"), DeclaredClaim(2, "345678p678s22s44p"))
    >>> e = DeclaredRon(0, Tile.parse("4p"), claims)
    >>> [c["seat"] for c in e.to_dict()["claims"]], event_from_dict(e.to_dict()) == e
    ([1, 2], True)
    """

    type: ClassVar[str] = "declared_ron"
    discarder: int
    win_tile: Tile
    claims: tuple[DeclaredClaim, ...]
    dora_indicators: Tiles = ()
    ura_indicators: Tiles = ()


@dataclass(frozen=True)
class DeclaredDraw(Event):
    """An exhaustive draw as declared: who is tenpai (hands not shown), who made nagashi mangan (流し満貫)."""

    type: ClassVar[str] = "declared_draw"
    tenpai: tuple[bool, ...]
    nagashi: tuple[int, ...] = ()


@dataclass(frozen=True)
class DeclaredAbort(Event):
    """An abortive draw of a named kind, as declared (the rules must have abortive draws)."""

    type: ClassVar[str] = "declared_abort"
    reason: Abort


@dataclass(frozen=True)
class DeclaredRiichi(Event):
    """A riichi declaration as declared (the discard was not seen): the deposit goes on the table."""

    type: ClassVar[str] = "declared_riichi"
    seat: int
    double: bool = False


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        HandStart,
        Draw,
        Discard,
        Call,
        AddedKan,
        ClosedKan,
        DoraFlip,
        Ron,
        Tsumo,
        ExhaustiveDraw,
        AbortiveDraw,
        ShowHand,
        Chombo,
        DealerStops,
        DeclaredWin,
        DeclaredRon,
        DeclaredDraw,
        DeclaredAbort,
        DeclaredRiichi,
    )
}

_TILE_FIELDS = {"tile", "dora_indicator", "indicator", "win_tile"}
_TILES_FIELDS = {"tiles", "ura_indicators", "hand"}
_HANDS_FIELDS = {"hands"}


def _tiles(v: Any) -> Tiles:
    if isinstance(v, str):
        return parse_tiles(v)
    if isinstance(v, list | tuple):
        return tuple(Tile.parse(x) if isinstance(x, str) else x for x in v)
    raise InvalidNotation(f"expected tiles, got {v!r}")


def event_from_dict(d: dict[str, Any]) -> Event:
    """The inverse of ``Event.to_dict``; bad input raises ``EngineError``.

    >>> from engine.tiles import Tile
    >>> e = Discard(seat=1, tile=Tile.parse("0p"), riichi=True)
    >>> e.to_dict()
    {'type': 'discard', 'seat': 1, 'tile': '0p', 'tsumogiri': None, 'riichi': True, 'open_riichi': False}
    >>> event_from_dict(e.to_dict()) == e
    True
    """
    if not isinstance(d, dict) or "type" not in d:
        raise EngineError(f"an event is an object with a 'type', not {d!r}")
    cls = EVENT_TYPES.get(d["type"])
    if cls is None:
        raise EngineError(f"unknown event type {d['type']!r}; known: {', '.join(EVENT_TYPES)}")
    if cls in _DECLARED:
        return _declared_from_dict(cls, d)
    kwargs: dict[str, Any] = {}
    names = {f.name for f in fields(cls)}
    for key, v in d.items():
        if key == "type":
            continue
        if key not in names:
            raise EngineError(f"unknown field {key!r} for a {cls.type} event")
        if v is None:
            kwargs[key] = None
        elif key in _TILE_FIELDS:
            kwargs[key] = Tile.parse(v)
        elif key in _TILES_FIELDS:
            kwargs[key] = _tiles(v)
        elif key in _HANDS_FIELDS:
            kwargs[key] = tuple(None if h is None else _tiles(h) for h in v)
        elif key == "kind":
            kwargs[key] = MeldKind(v)
        elif key == "reason" and cls is AbortiveDraw:
            kwargs[key] = Abort(v)
        elif key == "claims":
            kwargs[key] = tuple(RonClaim(int(c["seat"]), _tiles(c["hand"])) for c in v)
        else:
            kwargs[key] = v
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise EngineError(f"bad {cls.type} event {d!r}: {exc}") from None


_DECLARED_FIELDS = {
    DeclaredWin: {"seat", "discarder", "hand", "win_tile", "flags", "dora_indicators", "ura_indicators", "pao"},
    DeclaredRon: {"discarder", "win_tile", "claims", "dora_indicators", "ura_indicators"},
    DeclaredDraw: {"tenpai", "nagashi"},
    DeclaredAbort: {"reason"},
    DeclaredRiichi: {"seat", "double"},
}
_DECLARED = set(_DECLARED_FIELDS)


def _declared_from_dict(cls: type[Event], d: dict[str, Any]) -> Event:
    """A declared event from its dict, every field checked (players type these on their phones)."""
    for key in d:
        if key != "type" and key not in _DECLARED_FIELDS[cls]:
            raise EngineError(f"unknown field {key!r} for a {cls.type} event")
    if cls is DeclaredWin:
        discarder = d.get("discarder")
        return DeclaredWin(
            seat=_seat(d.get("seat"), "seat"),
            discarder=None if discarder is None else _seat(discarder, "discarder"),
            hand=_text(d.get("hand"), "hand"),
            win_tile=Tile.parse(_text(d.get("win_tile"), "win_tile")),
            flags=_flags(d.get("flags")),
            dora_indicators=_tiles(d["dora_indicators"]) if d.get("dora_indicators") else (),
            ura_indicators=_tiles(d["ura_indicators"]) if d.get("ura_indicators") else (),
            pao=None if d.get("pao") is None else _seat(d["pao"], "pao"),
        )
    if cls is DeclaredRon:
        claims = d.get("claims")
        if not isinstance(claims, list | tuple) or not 1 <= len(claims) <= 3:
            raise EngineError("claims is a list of one to three winners ({seat, hand, flags, pao})")
        return DeclaredRon(
            discarder=_seat(d.get("discarder"), "discarder"),
            win_tile=Tile.parse(_text(d.get("win_tile"), "win_tile")),
            claims=tuple(_claim(c) for c in claims),
            dora_indicators=_tiles(d["dora_indicators"]) if d.get("dora_indicators") else (),
            ura_indicators=_tiles(d["ura_indicators"]) if d.get("ura_indicators") else (),
        )
    if cls is DeclaredDraw:
        tenpai = d.get("tenpai")
        if not isinstance(tenpai, list | tuple) or len(tenpai) != 4 or not all(isinstance(t, bool) for t in tenpai):
            raise EngineError("tenpai is four true/false values, one per seat")
        nagashi = d.get("nagashi") or ()
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


def _seat(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 4:
        raise EngineError(f"{name} is a seat 0..3, not {v!r}")
    return v


def _text(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 200:
        raise EngineError(f"{name} is required (mpsz text)")
    return v


def _flags(v: Any) -> tuple[str, ...]:
    if not v:
        return ()
    if not isinstance(v, list | tuple):
        raise EngineError(f"flags is a list of situational yaku: {', '.join(DECLARABLE)}")
    return tuple(_flag(f) for f in v)


def _claim(v: Any) -> DeclaredClaim:
    if not isinstance(v, dict):
        raise EngineError(f"a claim is an object with seat, hand, flags and pao, not {v!r}"[:200])
    unknown = sorted(str(k) for k in set(v) - {"seat", "hand", "flags", "pao"})
    if unknown:
        raise EngineError(f"unknown field(s) {', '.join(unknown)} in a declared_ron claim")
    return DeclaredClaim(
        seat=_seat(v.get("seat"), "seat"),
        hand=_text(v.get("hand"), "hand"),
        flags=_flags(v.get("flags")),
        pao=None if v.get("pao") is None else _seat(v["pao"], "pao"),
    )


def _flag(v: Any) -> str:
    if v not in DECLARABLE:
        raise EngineError(f"unknown situational yaku {v!r}; known: {', '.join(DECLARABLE)}")
    return v
