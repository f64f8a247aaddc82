"""Calls: chi, pon and kans (on a discard, added to a pon, from the hand), who may call what, priority between
claims, kuikae (食い替え), and the liability (包, pao) a call can make. ``on_call``, ``on_added_kan`` and
``on_closed_kan`` check a call event against the rules and the table, then make it; ``Game.apply`` calls them.

>>> from engine.tiles import Tile
>>> sorted(str(Tile(k)) for k in kuikae_forbidden(MeldKind.CHI, Tile.parse("3p"), parse_tiles("345p")))
['3p', '6p']
>>> resolve_claims(discarder=0, claims=[Claim(2, ClaimKind.PON), Claim(1, ClaimKind.CHI)])
(Claim(seat=2, kind=<ClaimKind.PON: 'pon'>),)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import IllegalAction
from engine.game.draws import abort_due
from engine.game.events import AddedKan, Call, ClosedKan, Event
from engine.game.shape import kind_counts, waits
from engine.game.table import Phase, Player, Table
from engine.melds import Meld, MeldKind, Relative
from engine.rules import MultipleRon, RuleSet
from engine.tiles import Tile, format_tiles, parse_tiles

__all__ = [
    "Claim",
    "ClaimKind",
    "call_shape_error",
    "kuikae_forbidden",
    "on_added_kan",
    "on_call",
    "on_closed_kan",
    "parse_tiles",
    "resolve_claims",
]


class ClaimKind(StrEnum):
    """What a player says when a tile is discarded, strongest first."""

    RON = "ron"
    KAN = "kan"
    PON = "pon"
    CHI = "chi"

    @property
    def priority(self) -> int:
        """栄和 > 明槓 = ポン > チー."""
        return {ClaimKind.RON: 3, ClaimKind.KAN: 2, ClaimKind.PON: 2, ClaimKind.CHI: 1}[self]


@dataclass(frozen=True)
class Claim:
    seat: int
    kind: ClaimKind


def _turn_distance(discarder: int, seat: int) -> int:
    return (seat - discarder) % 4


def resolve_claims(discarder: int, claims: Iterable[Claim], rules: RuleSet | None = None) -> tuple[Claim, ...]:
    """Which of several simultaneous claims on one discard go ahead.

    Ron beats kan and pon, which beat chi. Several rons: all of them (double ron), or under a
    head-bump rule (頭ハネ) only the first in turn after the discarder. Only one call otherwise
    (a pon and a chi cannot both happen).
    """
    claims = [c for c in claims if c.seat != discarder]
    if not claims:
        return ()
    best = max(c.kind.priority for c in claims)
    top = sorted((c for c in claims if c.kind.priority == best), key=lambda c: _turn_distance(discarder, c.seat))
    if best == ClaimKind.RON.priority:
        if rules is not None and rules.multiple_ron is MultipleRon.HEAD_BUMP:
            return (top[0],)
        return tuple(top)
    return (top[0],)


def call_shape_error(kind: MeldKind, tiles: tuple[Tile, ...], called: Tile, caller: int, discarder: int) -> str:
    """Why this call on this discard is impossible, or "" if its shape and direction are fine."""
    if kind not in (MeldKind.CHI, MeldKind.PON, MeldKind.KAN):
        return f"{kind.value} is not called on a discard"
    if caller == discarder:
        return "a player cannot call their own discard"
    if called not in tiles:
        return f"the meld must contain the discarded tile {called}"
    size = 4 if kind is MeldKind.KAN else 3
    if len(tiles) != size:
        return f"a {kind.value} has {size} tiles, not {len(tiles)}"
    kinds = sorted(t.kind for t in tiles)
    if kind is MeldKind.CHI:
        if caller != (discarder + 1) % 4:
            return "chi only from the player on the left (the next player in turn calls the discard)"
        if kinds[0] >= 27 or kinds[0] // 9 != kinds[2] // 9 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
            return "a chi is three in a row of one suit"
    elif len(set(kinds)) != 1:
        return f"a {kind.value} is {size} tiles of one kind"
    return ""


def kuikae_forbidden(kind: MeldKind, called: Tile, meld_tiles: tuple[Tile, ...]) -> frozenset[int]:
    """Tile kinds that may not be discarded right after this call (食い替え禁止).

    After a pon: the called kind. After a chi: the called kind (現物) and, when the called tile sits
    at one end of the run, the tile beyond the other end (筋), e.g. chi 3p with 45p forbids 3p and 6p.
    """
    if kind is MeldKind.PON:
        return frozenset({called.kind})
    if kind is not MeldKind.CHI:
        return frozenset()
    low = min(t.kind for t in meld_tiles)
    out = {called.kind}
    num = low % 9  # 0-based number of the lowest tile
    if called.kind == low and num + 3 <= 8:
        out.add(low + 3)
    elif called.kind == low + 2 and num >= 1:
        out.add(low - 1)
    return frozenset(out)


# ---------------------------------------------------------------------- call events on the table


def on_call(game: Table, e: Call) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    if h.phase is not Phase.REACT:
        raise IllegalAction(e, "a call is made on a discard that lies on the table")
    assert h.discarder is not None and h.last_discard is not None
    why = call_shape_error(e.kind, e.tiles, h.last_discard, e.seat, h.discarder)
    if why:
        raise IllegalAction(e, why)
    if p.riichi:
        raise IllegalAction(e, "a player in riichi may only ron, not call")
    if h.live == 0:
        raise IllegalAction(e, "the last discard (houtei) cannot be called")
    if e.kind is MeldKind.KAN and len(h.kans) >= 4:
        raise IllegalAction(e, "at most four kans in a hand")
    due = abort_due(game)
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
    forbidden = frozenset() if game.rules.kuikae_allowed else kuikae_forbidden(e.kind, h.last_discard, e.tiles)
    if p.hand_known and e.kind is not MeldKind.KAN:
        left = list(p.known)
        for t in rest:
            left.remove(t)
        if all(t.kind in forbidden for t in left):
            raise IllegalAction(e, "kuikae (swap-calling) is forbidden", "no tile could be discarded after it")
    # -- change the state
    game._react_resolve()
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
    _check_pao(game, p, discarder)
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


def _check_pao(game: Table, p: Player, feeder: int) -> None:
    """包: the call that completes big dragons or big winds (or four kans, where played) makes the feeder liable."""
    sets = [m.kind_index for m in p.melds if m.kind is not MeldKind.CHI]
    newest = p.melds[-1]
    if newest.kind_index in (31, 32, 33) and sum(1 for k in sets if k in (31, 32, 33)) == 3:
        p.pao, p.pao_yakuman = feeder, "Daisangen"
    elif newest.kind_index in (27, 28, 29, 30) and sum(1 for k in sets if k in (27, 28, 29, 30)) == 4:
        p.pao, p.pao_yakuman = feeder, "Dai Suushii"
    elif game.rules.pao_suukantsu and newest.kind is MeldKind.KAN and sum(1 for m in p.melds if m.kind.is_kan) == 4:
        p.pao, p.pao_yakuman = feeder, "Suu Kantsu"


def _kan_checks(game: Table, e: Event, p: Player) -> None:
    h = game.hand
    assert h is not None
    if h.phase is not Phase.DISCARD or h.actor != getattr(e, "seat", -1):
        raise IllegalAction(e, "a kan from the hand is declared in one's own turn, after drawing")
    if p.after_call:
        raise IllegalAction(e, "no kan right after a chi or pon: discard first")
    if len(h.kans) >= 4:
        raise IllegalAction(e, "at most four kans in a hand")
    if h.live == 0:
        raise IllegalAction(e, "no kan on the last tile of the wall")


def on_added_kan(game: Table, e: AddedKan) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    _kan_checks(game, e, p)
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


def on_closed_kan(game: Table, e: ClosedKan) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    _kan_checks(game, e, p)
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
    if game.rules.kokushi_chankan_on_ankan:
        h.kan_tile = e.tiles[0]
        h.kan_closed = True
        h.phase = Phase.KAN
    else:
        h.phase = Phase.DRAW
