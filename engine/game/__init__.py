"""The live game: events in, a checked game state out (pure: no I/O).

A ``Game`` is built from a ``RuleSet`` and four seat names and updated one event at a time; every
event is checked against the rules first, and a refused one raises ``IllegalAction(event, rule,
detail)`` with the state unchanged. The whole game is its rules, seats and events, so it can be
stored as an event log and rebuilt by replay (``device/storage.py`` keeps it in SQLite).

Making and feeding a game::

    from engine.rules import preset
    from engine.game import Game, HandStart, Draw, Discard, Call, Ron, RonClaim, Tsumo, ExhaustiveDraw
    g = Game(preset("standard"), ("Ann", "Bo", "Cy", "Di"))        # seat 0 deals first
    g.apply(HandStart(dora_indicator=Tile.parse("3m")))             # hands unknown: a camera's view
    g.apply(Draw(0))                                                # tile=None: not seen
    g.apply(Discard(0, Tile.parse("9m"), tsumogiri=True))
    g.apply(Call(1, MeldKind.CHI, parse_tiles("9m78m")))             # the meld, called tile included
    ...
    result = g.apply(Ron((RonClaim(2, hand_tiles),), ura_indicators=()))   # HandResult when a hand ends

Events (``engine.game.events``, frozen, ``to_dict()`` / ``event_from_dict()``): ``HandStart``
(dora indicator, optional known hands, optional round/honba/sticks/dealer to cross-check),
``Draw`` (tile or None; after a kan it is the replacement tile), ``Discard`` (``tsumogiri``,
``riichi``, ``open_riichi``), ``Call`` (chi, pon, open kan on the last discard), ``AddedKan``,
``ClosedKan``, ``DoraFlip``, ``ShowHand`` (a concealed hand entered or seen mid-hand), ``Ron``
(one or more ``RonClaim``; chankan when it follows an added kan), ``Tsumo``, ``ExhaustiveDraw``
(the hands shown as tenpai), ``AbortiveDraw`` (``Abort`` reason), ``Chombo``, ``DealerStops`` (the
dealer ends the game where the rules give the choice: ``dealer_may_stop``; a ``HandStart`` plays on).
Results the players declare when the discards are not on record (a table without the camera):
``DeclaredWin`` (winner, discarder or tsumo, the hand, the winning tile, situational yaku from
``DECLARABLE``, the seat liable for a yakuman: pao), ``DeclaredRon`` (several winners of one discard, each a
``DeclaredClaim``; head-bump, double and triple ron as for ``Ron``), ``DeclaredDraw`` (who is tenpai,
nagashi), ``DeclaredAbort``, ``DeclaredRiichi``.

Reading the state: ``scores``, ``round`` / ``round_name`` / ``round_wind``, ``honba``, ``sticks``
(riichi sticks on the table), ``dealer``, ``seat_wind(seat)``, ``phase`` and ``to_act``,
``dora_indicators`` / ``dora``, ``live_wall``, ``pond(seat)``, ``melds(seat)``, ``riichi(seat)``,
``known_hand(seat)``, ``furiten(seat)`` and ``furiten_warnings()`` (for hands that are known),
``kuikae_forbidden(seat)``, ``abort_due()``, ``history`` (a ``HandResult`` per hand: outcome,
deltas, transfers with reasons, the scorer's result for each win), ``dealer_may_stop``, ``over`` and
``final_results()`` (rank, score, leftover sticks, uma, oka, game points), ``standings()``,
``validate()`` (the invariants).

Persistence: ``Game.replay(rules, seats, events)``, ``undo()`` (a new game without the last event),
``Position`` to start a game part-way; ``engine.game.record``: ``game_to_json(game)`` /
``game_from_json(data)``, ``rules_to_dict`` / ``rules_from_dict``, ``snapshot(game)`` (one JSON-ready
dict for a display).

Modules: ``events`` (the event types), ``state`` (``Game``: each event sent to its rule), ``table`` (the
state the rules read and change, ``Position``), and one module per rule area, of plain functions taking
the table: ``turns`` (deal, draw, discard, dora flip), ``calls`` (call shapes, claim priority, kuikae,
chi/pon/kan events, pao), ``riichi``, ``wins`` (ron, tsumo, multiple ron, declared wins, pao), ``draws``
(exhaustive, abortive, nagashi, chombo), ``game_end`` (honba, dealer repeat, the end of the game, final
results); ``results`` (``HandResult``, ``FinalResult``), ``record`` (JSON and snapshots), ``furiten``,
``settlement`` (payments: honba, sticks, multiple ron, pao, nagashi, noten, chombo), ``shape`` (complete
hands, waits, tenpai). Random legal games for tests: ``engine.conformance.selfplay``.
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
