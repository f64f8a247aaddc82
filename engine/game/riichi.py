"""Riichi (立直): what a declaration needs (a closed tenpai hand, the deposit, tiles left in the wall), played
with a discard or declared on its own when the discards are not on record. The deposit itself is paid when
the declaring discard goes unclaimed (``Table._react_resolve``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.game.events import DeclaredRiichi, Discard, Event
from engine.game.shape import is_tenpai, kind_counts, meld_counts
from engine.game.table import Player, Table
from engine.tiles import format_tiles


def check_riichi(game: Table, e: Discard, p: Player) -> None:
    h = game.hand
    assert h is not None
    if e.open_riichi and not game.rules.open_riichi:
        raise IllegalAction(e, f"open riichi is not played under the {game.rules.name} rules")
    if p.riichi:
        raise IllegalAction(e, "riichi is declared once")
    check_closed_and_deposit(game, e, e.seat, p)
    if h.live < game.rules.riichi_min_tiles_left:
        raise IllegalAction(
            e, f"riichi needs {game.rules.riichi_min_tiles_left} tiles left in the wall", f"{h.live} left"
        )
    if p.hand_known:
        rest = list(p.known)
        rest.remove(e.tile)
        if not is_tenpai(kind_counts(rest), meld_counts(p.melds)):
            raise IllegalAction(e, "riichi needs a tenpai hand", f"{format_tiles(rest, sort=True)} is not waiting")


def check_closed_and_deposit(game: Table, e: Event, seat: int, p: Player) -> None:
    """What every riichi needs, played or declared: a closed hand and the points for the deposit."""
    if not p.is_closed:
        raise IllegalAction(e, "riichi needs a closed hand (no chi, pon or open kan)")
    floor = game.rules.riichi_min_points
    if floor is not None and game.scores[seat] < floor:
        raise IllegalAction(
            e,
            f"riichi needs {floor} points for the deposit",
            f"seat {seat} has {game.scores[seat]}",
        )


def on_declared_riichi(game: Table, e: DeclaredRiichi) -> None:
    h = game.hand
    assert h is not None
    p = game._player(e, e.seat)
    if p.riichi or h.riichi_pending == e.seat:
        raise IllegalAction(e, "already in riichi: riichi is declared once")
    check_closed_and_deposit(game, e, e.seat, p)
    p.riichi = True
    p.double_riichi = e.double
    game.scores[e.seat] -= game.rules.riichi_deposit
    game.sticks += 1
    h.riichi_paid_this_hand.append(e.seat)
