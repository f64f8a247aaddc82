"""The end of a hand and of the game: the score changes applied, honba and the dealer's repeat, the next
round, busting, the extension, the dealer's choice to stop (agari-yame), and the final results (leftover
sticks, uma, oka, game points). ``finish_hand`` is how every hand ends; ``Game.apply`` calls
``on_dealer_stops``.
"""

from __future__ import annotations

import math

from engine.errors import IllegalAction
from engine.game.events import Abort, DealerStops
from engine.game.results import FinalResult, HandResult, Outcome, WinRecord
from engine.game.settlement import Settlement
from engine.game.table import Table
from engine.rules import GameLength


def finish_hand(
    game: Table,
    outcome: Outcome,
    s: Settlement,
    *,
    wins: tuple[WinRecord, ...] = (),
    tenpai: tuple[bool, bool, bool, bool] | None = None,
    nagashi: tuple[int, ...] = (),
    abort: Abort | None = None,
    bumped: tuple[int, ...] = (),
    dealer_repeats: bool = False,
    replay: bool = False,
    note: str = "",
) -> HandResult:
    h = game.hand
    assert h is not None
    deltas = s.deltas
    for i in range(4):
        game.scores[i] += deltas[i]
    game.sticks -= s.sticks_taken
    result = HandResult(
        round=game.round,
        honba=game.honba,
        dealer=game.dealer,
        outcome=outcome,
        deltas=deltas,
        transfers=s.transfers,
        scores=tuple(game.scores),
        wins=wins,
        tenpai=tenpai,
        nagashi=nagashi,
        abort=abort,
        bumped=bumped,
        riichi_sticks=tuple(h.riichi_paid_this_hand),
        dealer_repeats=dealer_repeats,
        note=note,
    )
    game.history.append(result)
    game.hand = None
    if replay:
        if game.rules.busting and any(x < 0 for x in game.scores):
            end_game(game)
        return result
    # one more honba when the dealer repeats; when the deal passes, none after a win, and after a draw as the rules
    # say (noten_draw_adds_honba)
    repeats_honba = dealer_repeats or (not wins and game.rules.noten_draw_adds_honba)
    honba_next = game.honba + 1 if repeats_honba else 0
    _advance(game, dealer_repeats, honba_next)
    return result


def _advance(game: Table, dealer_repeats: bool, honba_next: int) -> None:
    rules = game.rules
    last = 3 if rules.game_length is GameLength.EAST else 7
    limit = last + 4  # the extension ends with its fourth hand at the latest
    ends = may_stop = False
    if rules.busting and any(x < 0 for x in game.scores):
        ends = True
    elif game.round >= last:
        top = game.standings()[0]
        reached = any(x >= rules.return_points for x in game.scores)
        kept = game.history[-1].outcome in (Outcome.RON, Outcome.TSUMO, Outcome.EXHAUSTIVE_DRAW)
        if dealer_repeats:
            if game.round > last and reached:
                ends = True  # the extension is sudden death
            elif rules.agari_yame and kept and top == game.dealer and game.scores[top] >= rules.return_points:
                # アガリ止め / 聴牌止め: the dealer, first after winning (or being tenpai) in the last hand,
                # may end the game here or play on: the dealer's choice, the next event says which
                may_stop = True
        elif not rules.extension or reached or game.round + 1 > limit:
            ends = True
    game.honba = honba_next
    if not dealer_repeats:
        game.dealer = (game.dealer + 1) % 4
        game.round += 1
    if ends:
        end_game(game)
    else:
        game.dealer_may_stop = may_stop


def end_game(game: Table) -> None:
    """Final results: leftover sticks to first place, then uma and oka (split on ties where the rules say)."""
    rules = game.rules
    order = game.standings()
    left = game.sticks * rules.riichi_deposit if rules.leftover_sticks_to_first else 0
    raw = list(game.scores)
    raw[order[0]] += left
    uma = {seat: rules.uma[rank] for rank, seat in enumerate(order)}
    oka = {seat: (rules.oka if rank == 0 else 0) for rank, seat in enumerate(order)}
    if rules.split_tied_uma:
        for score in set(raw):
            tied = [s for s in order if raw[s] == score]
            if len(tied) > 1:
                u = sum(uma[s] for s in tied) / len(tied)
                o = sum(oka[s] for s in tied) / len(tied)
                for s in tied:
                    uma[s], oka[s] = u, o
    values: dict[int, float] = {}
    if rules.round_final_points:
        # the score rounded to thousands (or final_points_step), halves away from zero (Tenhou: 25,500 ->
        # 26, -7,500 -> -8), less the return points; first place takes the remainder so the sum is zero
        unit = rules.final_points_step
        for seat in order[1:]:
            rounded = _round_half_away(raw[seat] / unit) * unit
            values[seat] = round((rounded - rules.return_points + uma[seat] + oka[seat]) / 1000, 3)
        values[order[0]] = round(-sum(values.values()), 3)
    else:
        for seat in order:
            values[seat] = round((raw[seat] - rules.return_points + uma[seat] + oka[seat]) / 1000, 3)
    finals = [
        FinalResult(
            seat=seat,
            name=game.seats[seat],
            rank=rank + 1,
            score=raw[seat],
            sticks=left if rank == 0 else 0,
            uma=int(uma[seat]),
            oka=int(oka[seat]),
            points=float(values[seat]) + 0.0,
        )
        for rank, seat in enumerate(order)
    ]
    if left:
        game.scores[order[0]] += left
        game.sticks = 0
    game._final = tuple(sorted(finals, key=lambda r: r.seat))
    game.over = True


def on_dealer_stops(game: Table, e: DealerStops) -> None:
    if game.hand is not None:
        raise IllegalAction(e, "a hand is in progress")
    if not game.dealer_may_stop:
        why = (
            f"no agari-yame under the {game.rules.name} rules"
            if not game.rules.agari_yame
            else "the dealer may stop the game only after winning or being tenpai in the last hand, in first "
            f"place with at least {game.rules.return_points:,} points"
        )
        raise IllegalAction(e, why)
    if e.dealer is not None and e.dealer != game.dealer:
        raise IllegalAction(e, "only the dealer may stop the game", f"the dealer is seat {game.dealer}, not {e.dealer}")
    game.dealer_may_stop = False
    end_game(game)


def _round_half_away(x: float) -> int:
    """Round to a whole number, halves away from zero (25.5 -> 26, -7.5 -> -8), as Tenhou's final scores."""
    return math.floor(x + 0.5 + 1e-9) if x >= 0 else -math.floor(-x + 0.5 + 1e-9)
