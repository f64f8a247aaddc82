"""The live game: events in, a checked game state out (pure: no I/O).

A ``Game`` is built from a ``RuleSet`` and four seat names and updated one event at a time; a refused
event raises ``IllegalAction(event, rule, detail)`` with the state unchanged. A game is its rules,
seats and events, so it is stored as an event log and rebuilt by replay::

    from engine.game import Game, HandStart, Draw, Discard, Call, Ron, RonClaim
    g = Game(preset("standard"), ("Ann", "Bo", "Cy", "Di"))        # seat 0 deals first
    g.apply(HandStart(dora_indicator=Tile.parse("3m")))             # hands unknown: as a camera sees it
    g.apply(Draw(0))                                                # tile=None: not seen
    g.apply(Discard(0, Tile.parse("9m"), tsumogiri=True))
    g.apply(Call(1, MeldKind.CHI, parse_tiles("9m78m")))             # the meld, called tile included
    ...
    result = g.apply(Ron((RonClaim(2, hand_tiles),), ura_indicators=()))   # HandResult when a hand ends

The event types and their fields: ``engine.game.events``; what a game can be asked (scores, round,
ponds, furiten, final results, ...): ``Table``; replay, undo and joining part-way: ``Game``; JSON and
snapshots: ``engine.game.record``. One module per rule area, of plain functions taking the table:
``turns``, ``calls``, ``riichi``, ``wins``, ``draws``, ``game_end``, ``furiten``, ``settlement``
(payments), ``shape`` (waits, tenpai). Random legal games for tests: ``engine.conformance.selfplay``.
"""

from engine.game.events import (
    DECLARABLE,
    Abort,
    AbortiveDraw,
    AddedKan,
    Call,
    Chombo,
    ClosedKan,
    DealerStops,
    DeclaredAbort,
    DeclaredClaim,
    DeclaredDraw,
    DeclaredRiichi,
    DeclaredRon,
    DeclaredWin,
    Discard,
    DoraFlip,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStart,
    Ron,
    RonClaim,
    ShowHand,
    Tsumo,
    event_from_dict,
)
from engine.game.furiten import Furiten, FuritenKind
from engine.game.results import FinalResult, HandResult, Outcome, WinRecord, round_name
from engine.game.state import Game
from engine.game.table import Phase, Position

__all__ = [
    "DECLARABLE",
    "Abort",
    "AbortiveDraw",
    "AddedKan",
    "Call",
    "Chombo",
    "ClosedKan",
    "DealerStops",
    "DeclaredAbort",
    "DeclaredClaim",
    "DeclaredDraw",
    "DeclaredRiichi",
    "DeclaredRon",
    "DeclaredWin",
    "Discard",
    "DoraFlip",
    "Draw",
    "Event",
    "ExhaustiveDraw",
    "FinalResult",
    "Furiten",
    "FuritenKind",
    "Game",
    "HandResult",
    "HandStart",
    "Outcome",
    "Phase",
    "Position",
    "Ron",
    "RonClaim",
    "ShowHand",
    "Tsumo",
    "WinRecord",
    "event_from_dict",
    "round_name",
]
