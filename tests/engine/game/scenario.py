"""A tiny script language for game scenarios in tests.

Steps are separated by spaces: ``0+5z`` seat 0 draws 5z (``0+?`` an unseen tile), ``0-5z`` discards
5z (``0-5z*`` straight after drawing it, ``0r-5z`` with riichi), ``1pon:5z55z`` / ``1chi:3p45p`` /
``1kan:5z555z`` call the last discard, ``1kakan:5z``, ``1ankan:5555z``, ``flip:3m`` a kan dora,
``1ron`` (several: ``1,2ron``) wins on the last discard with the seat's known hand, ``1tsumo``.
"""

from __future__ import annotations

import re

from engine.game.events import (
    AddedKan,
    Call,
    ClosedKan,
    Discard,
    DoraFlip,
    Draw,
    Event,
    HandStart,
    Ron,
    RonClaim,
    Tsumo,
)
from engine.game.state import Game
from engine.game.table import Position
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles

#: Four starting hands used by most scenarios: seat 1 waits on 1p and 4p.
HANDS = (
    "112233z6677z99s8s",  # seat 0 (dealer): honours, no waits
    "123456789m23p55s",  # seat 1: waits 1p 4p (pinfu shape)
    "1199p4445z12367s",  # seat 2
    "2233m5667p88p456s",  # seat 3: can chi 4p with 56p
)


def deal(
    rules: str = "standard",
    hands: tuple[str, ...] = HANDS,
    dora: str = "2z",
    start: Position | None = None,
    **options: object,
) -> Game:
    g = Game(preset(rules, **options), ("A", "B", "C", "D"), start=start)
    g.apply(HandStart(Tile.parse(dora), tuple(parse_tiles(h) if h else None for h in hands)))
    return g


def step(g: Game, token: str) -> Event:
    if token.startswith("flip:"):
        return DoraFlip(Tile.parse(token[5:]))
    m = re.fullmatch(r"([0-3](?:,[0-3])*)(.*)", token)
    assert m, token
    seats = [int(x) for x in m.group(1).split(",")]
    seat, rest = seats[0], m.group(2)
    h = g.hand
    assert h is not None
    if rest.startswith("+"):
        return Draw(seat, None if rest[1:] == "?" else Tile.parse(rest[1:]))
    if rest.startswith("r-") or rest.startswith("-"):
        riichi = rest.startswith("r")
        text = rest.split("-", 1)[1]
        tsumogiri = text.endswith("*")
        return Discard(seat, Tile.parse(text.rstrip("*")), tsumogiri=True if tsumogiri else None, riichi=riichi)
    if rest == "ron":
        return Ron(tuple(RonClaim(s, tuple(h.players[s].known)) for s in seats))
    if rest == "tsumo":
        p = h.players[seat]
        assert isinstance(p.drawn, Tile)
        return Tsumo(seat, tuple(p.known), p.drawn)
    kind, _, tiles = rest.partition(":")
    if kind == "kakan":
        return AddedKan(seat, Tile.parse(tiles))
    if kind == "ankan":
        return ClosedKan(seat, parse_tiles(tiles))
    return Call(seat, MeldKind(kind), parse_tiles(tiles))


def play(g: Game, script: str) -> object:
    """Apply every step; returns the last event's result (a HandResult when it ended the hand)."""
    result = None
    for token in script.split():
        result = g.apply(step(g, token))
    return result
