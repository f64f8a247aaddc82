"""Hands that end with no winner: the exhaustive draw (tenpai and noten payments, nagashi mangan), abortive
draws (nine terminals, four winds, four riichi, four kans, triple ron) and when one is due, the draws the
players declare, and chombo (a penalty; the hand is played again). ``Game.apply`` calls the ``on_*`` functions.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.game.events import (
    Abort,
    AbortiveDraw,
    Chombo,
    DeclaredAbort,
    DeclaredDraw,
    DeclaredRon,
    Event,
    ExhaustiveDraw,
    Ron,
)
from engine.game.game_end import finish_hand
from engine.game.results import HandResult, Outcome
from engine.game.settlement import Settlement, Transfer, settle_chombo, settle_exhaustive
from engine.game.shape import YAOCHUU_KINDS, is_tenpai, kind_counts, meld_counts
from engine.game.table import Phase, Table
from engine.rules import MultipleRon
from engine.tiles import Tile, format_tiles


def abort_due(game: Table) -> Abort | None:
    """An abortive draw that must happen now instead of the next draw or call (rules permitting)."""
    h = game.hand
    if h is None or not game.rules.abortive_draws or h.phase is not Phase.REACT:
        return None
    riichi = sum(1 for p in h.players if p.riichi) + (1 if h.riichi_pending is not None else 0)
    if riichi == 4 and h.riichi_pending is not None:
        return Abort.FOUR_RIICHI
    if (
        not h.interrupted
        and len(h.first_discards) == 4
        and all(p.discards == 1 for p in h.players)
        and h.first_discards[0].kind in (27, 28, 29, 30)
        and all(t.kind == h.first_discards[0].kind for t in h.first_discards)
    ):
        return Abort.FOUR_WINDS
    if len(h.kans) == 4 and len(set(h.kans)) > 1:
        return Abort.FOUR_KANS
    return None


def on_exhaustive_draw(game: Table, e: ExhaustiveDraw) -> HandResult:
    h = game.hand
    assert h is not None
    if h.phase is not Phase.REACT or h.live != 0:
        raise IllegalAction(
            e, "an exhaustive draw comes after the last discard, with the wall empty", f"{h.live} tiles left"
        )
    if len(e.hands) != 4:
        raise IllegalAction(e, "an exhaustive draw lists four hands (None for noten)")
    tenpai = []
    shown_all: dict[int, tuple[Tile, ...]] = {}
    for s, shown in enumerate(e.hands):
        p = h.players[s]
        if shown is None:
            if p.riichi:
                raise IllegalAction(e, "a player in riichi must show the hand at an exhaustive draw", f"seat {s}")
            tenpai.append(False)
            continue
        game._revealed(e, s, tuple(shown), p.size)
        if not is_tenpai(kind_counts(shown), meld_counts(p.melds)):
            raise IllegalAction(
                e, "a hand shown as tenpai must be waiting", f"seat {s}: {format_tiles(shown, sort=True)}"
            )
        tenpai.append(True)
        shown_all[s] = tuple(shown)
    game._check_visible(e, (), shown_all)
    nagashi: tuple[int, ...] = ()
    if game.rules.nagashi_mangan:
        nagashi = tuple(
            s
            for s, p in enumerate(h.players)
            if p.pond and all(x.tile.kind in YAOCHUU_KINDS and not x.called for x in p.pond)
        )
    game._react_resolve()
    s = settle_exhaustive(tenpai, nagashi, game.dealer, game.rules)
    return finish_hand(
        game,
        Outcome.EXHAUSTIVE_DRAW,
        s,
        tenpai=(tenpai[0], tenpai[1], tenpai[2], tenpai[3]),
        nagashi=nagashi,
        dealer_repeats=tenpai[game.dealer],
    )


def on_abortive_draw(game: Table, e: AbortiveDraw, from_ron: Ron | DeclaredRon | None = None) -> HandResult:
    h = game.hand
    assert h is not None
    culprit: Event = from_ron or e
    if not game.rules.abortive_draws:
        raise IllegalAction(culprit, f"no abortive draws under the {game.rules.name} rules")
    if e.reason is Abort.NINE_TERMINALS:
        if e.seat is None:
            raise IllegalAction(e, "nine terminals is declared by a seat")
        p = game._player(e, e.seat)
        if h.phase is not Phase.DISCARD or h.actor != e.seat or p.discards or h.interrupted or p.after_call:
            raise IllegalAction(e, "nine terminals is declared on one's first draw, before any call")
        tiles = e.hand if e.hand is not None else (tuple(p.known) if p.hand_known else None)
        if tiles is None:
            raise IllegalAction(e, "nine terminals: the hand must be shown")
        game._revealed(e, e.seat, tuple(tiles), p.size)
        kinds = {t.kind for t in tiles if t.kind in YAOCHUU_KINDS}
        if len(kinds) < 9:
            raise IllegalAction(
                e,
                "nine terminals needs nine different terminals and honours",
                f"{len(kinds)} in {format_tiles(tiles, sort=True)}",
            )
    elif e.reason is Abort.TRIPLE_RON:
        if h.phase not in (Phase.REACT, Phase.KAN) and not isinstance(from_ron, DeclaredRon):
            raise IllegalAction(e, "a triple ron is on a discard")
        if game.rules.multiple_ron is not MultipleRon.DOUBLE:
            raise IllegalAction(e, f"a triple ron is not a draw under the {game.rules.name} rules")
    else:
        due = abort_due(game)
        if due is not e.reason:
            raise IllegalAction(e, f"the conditions of {e.reason.value} are not met")
    if h.phase is Phase.REACT and e.reason is not Abort.TRIPLE_RON:
        game._react_resolve()
    h.riichi_pending = None
    return finish_hand(game, Outcome.ABORTIVE_DRAW, Settlement(), abort=e.reason, dealer_repeats=True)


def on_chombo(game: Table, e: Chombo) -> HandResult:
    h = game.hand
    assert h is not None
    game._player(e, e.seat)
    s = settle_chombo(e.seat, game.dealer, game.rules)
    # riichi deposits made in this hand go back to their owners; the hand is replayed
    refunds = tuple(
        Transfer(None, seat, game.rules.riichi_deposit, "riichi deposit returned") for seat in h.riichi_paid_this_hand
    )
    s = Settlement(s.transfers + refunds, len(refunds))
    return finish_hand(
        game,
        Outcome.CHOMBO,
        s,
        dealer_repeats=True,
        replay=True,
        note=f"chombo by seat {e.seat}" + (f": {e.reason}" if e.reason else ""),
    )


def on_declared_draw(game: Table, e: DeclaredDraw) -> HandResult:
    h = game.hand
    assert h is not None
    if len(e.tenpai) != 4:
        raise IllegalAction(e, "an exhaustive draw says for each of the four seats whether it is tenpai")
    tenpai = (bool(e.tenpai[0]), bool(e.tenpai[1]), bool(e.tenpai[2]), bool(e.tenpai[3]))
    for s, p in enumerate(h.players):
        if p.riichi and not tenpai[s]:
            raise IllegalAction(e, "a player in riichi is tenpai at an exhaustive draw", f"seat {s}")
        if tenpai[s] and p.hand_known and not is_tenpai(kind_counts(p.known), meld_counts(p.melds)):
            raise IllegalAction(  # the hand is on record: the same test as a hand shown at the draw
                e, "a hand declared tenpai must be waiting", f"seat {s}: {format_tiles(p.known, sort=True)}"
            )
    for s in e.nagashi:
        game._player(e, s)
    if e.nagashi and not game.rules.nagashi_mangan:
        raise IllegalAction(e, f"no nagashi mangan under the {game.rules.name} rules")
    if h.phase is Phase.REACT:
        game._react_resolve()
    s = settle_exhaustive(tenpai, e.nagashi, game.dealer, game.rules)
    return finish_hand(
        game,
        Outcome.EXHAUSTIVE_DRAW,
        s,
        tenpai=tenpai,
        nagashi=tuple(e.nagashi),
        dealer_repeats=tenpai[game.dealer],
    )


def on_declared_abort(game: Table, e: DeclaredAbort) -> HandResult:
    h = game.hand
    assert h is not None
    if not game.rules.abortive_draws:
        raise IllegalAction(e, f"no abortive draws under the {game.rules.name} rules")
    if e.reason is Abort.TRIPLE_RON and game.rules.multiple_ron is not MultipleRon.DOUBLE:
        raise IllegalAction(e, f"a triple ron is not a draw under the {game.rules.name} rules")
    if h.phase is Phase.REACT:
        game._react_resolve()
    h.riichi_pending = None
    return finish_hand(game, Outcome.ABORTIVE_DRAW, Settlement(), abort=e.reason, dealer_repeats=True)
