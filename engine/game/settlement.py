"""Settlement (精算): who pays whom at the end of a hand, per rule set.

Built on the scorer's per-hand values (``ron_points``, ``tsumo_points``, ``base_points``); this
module adds what depends on the table: honba (本場), riichi sticks (供託), several winners on one
discard, liability (包, pao), nagashi mangan (流し満貫) and noten payments (不聴罰符). Every point
moved is a ``Transfer`` with a reason, so a result explains itself.

Several rons on one discard: every winner is paid by the discarder; honba and the sticks go to the
first winner in turn after the discarder (001, Tenhou). Under a head-bump rule only that first
claimant wins at all (000); the game state decides who the winners are.

Pao: the liable player pays a tsumo's whole value, or half of a ron's value (the discarder pays
the other half); the honba are paid by the liable player either way (Tenhou's published rules:
"honba payments paid by the player to whom pao is applied"), or, where ``RuleSet.pao_pays_honba`` is off
(000 §09 "Honba"), as on any win: by the discarder on a ron, by each player on a tsumo. What the liable player covers is
``WinPay.pao_base``: the yakuman it fed, or the whole hand where ``RuleSet.pao_whole_hand`` says so
(the game sets it when it scores the win).

Call ``settle_ron``, ``settle_tsumo``, ``settle_exhaustive`` or ``settle_chombo`` for a ``Settlement``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules import RuleSet, preset

__all__ = [
    "Settlement",
    "Transfer",
    "WinPay",
    "preset",
    "settle_chombo",
    "settle_exhaustive",
    "settle_ron",
    "settle_tsumo",
]


@dataclass(frozen=True)
class Transfer:
    """Points from ``payer`` to ``payee``; ``payer`` None means from the table (riichi sticks)."""

    payer: int | None
    payee: int
    amount: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True)
class Settlement:
    transfers: tuple[Transfer, ...] = ()
    sticks_taken: int = 0  # riichi sticks (count) collected from the table

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        d = [0, 0, 0, 0]
        for t in self.transfers:
            d[t.payee] += t.amount
            if t.payer is not None:
                d[t.payer] -= t.amount
        return (d[0], d[1], d[2], d[3])


@dataclass(frozen=True)
class WinPay:
    """One winner's hand value as the scorer gave it (no honba, no sticks), and any liable player."""

    seat: int
    ron_points: int
    tsumo_points: tuple[int, int]  # (from the dealer, from each non-dealer)
    base_points: int
    pao_seat: int | None = None
    pao_base: int = 0  # the part of base_points the liable player covers (8000 per pao yakuman)
    label: str = field(default="")


def _round100(x: int) -> int:
    return (x + 99) // 100 * 100


def _turn(discarder: int, seat: int) -> int:
    return (seat - discarder) % 4


def settle_ron(
    wins: Sequence[WinPay], discarder: int, dealer: int, honba: int, sticks: int, rules: RuleSet
) -> Settlement:
    """Every winner paid by the discarder; honba and ``sticks`` (count) to the first in turn."""
    out: list[Transfer] = []
    ordered = sorted(wins, key=lambda w: _turn(discarder, w.seat))
    for i, w in enumerate(ordered):
        bonus = rules.honba_ron * honba if i == 0 else 0
        label = w.label or "ron"
        if w.pao_seat is not None and w.pao_seat != discarder and w.pao_base:
            mult = 6 if w.seat == dealer else 4
            covered = _round100(mult * w.pao_base) // 2
            liable_bonus, discarder_bonus = (bonus, 0) if rules.pao_pays_honba else (0, bonus)
            out.append(Transfer(w.pao_seat, w.seat, covered + liable_bonus, f"{label}: liability (pao), half"))
            out.append(
                Transfer(discarder, w.seat, w.ron_points - covered + discarder_bonus, f"{label}: discarder's share")
            )
        else:
            out.append(Transfer(discarder, w.seat, w.ron_points + bonus, label))
        if i == 0 and sticks:
            out.append(Transfer(None, w.seat, sticks * rules.riichi_deposit, f"{sticks} riichi stick(s)"))
    return Settlement(tuple(t for t in out if t.amount), sticks if ordered else 0)


def settle_tsumo(win: WinPay, dealer: int, honba: int, sticks: int, rules: RuleSet) -> Settlement:
    out: list[Transfer] = []
    bonus = rules.honba_tsumo * honba
    label = win.label or "tsumo"
    shares = {
        s: (win.tsumo_points[0] if s == dealer else win.tsumo_points[1]) + bonus for s in range(4) if s != win.seat
    }
    if win.pao_seat is not None and win.pao_base:
        if win.pao_base >= win.base_points:
            if rules.pao_pays_honba:
                out.append(Transfer(win.pao_seat, win.seat, sum(shares.values()), f"{label}: liability (pao), all"))
            else:  # the hand from the liable player, the honba from each player as on any tsumo
                hand = sum(shares.values()) - bonus * len(shares)
                out.append(Transfer(win.pao_seat, win.seat, hand, f"{label}: liability (pao), all"))
                out.extend(Transfer(s, win.seat, bonus, f"{label}: honba") for s in shares)
        else:  # only the fed yakuman is covered; the rest is paid as a normal tsumo
            mult = 6 if win.seat == dealer else 4
            out.append(Transfer(win.pao_seat, win.seat, _round100(mult * win.pao_base), f"{label}: liability (pao)"))
            rest = win.base_points - win.pao_base
            for s in shares:
                part = _round100(rest * (2 if s == dealer or win.seat == dealer else 1)) + bonus
                out.append(Transfer(s, win.seat, part, label))
    else:
        out.extend(Transfer(s, win.seat, amount, label) for s, amount in shares.items())
    if sticks:
        out.append(Transfer(None, win.seat, sticks * rules.riichi_deposit, f"{sticks} riichi stick(s)"))
    return Settlement(tuple(t for t in out if t.amount), sticks)


def settle_exhaustive(tenpai: Sequence[bool], nagashi: Sequence[int], dealer: int, rules: RuleSet) -> Settlement:
    """Nagashi mangan (paid as a mangan tsumo, replacing the noten payments), or noten payments.

    >>> t = settle_exhaustive(tenpai=(True, False, False, False), nagashi=(), dealer=0, rules=preset("standard"))
    >>> t.deltas
    (3000, -1000, -1000, -1000)
    """
    out: list[Transfer] = []
    if nagashi:
        for seat in nagashi:
            for s in range(4):
                if s != seat:
                    amount = 4000 if (seat == dealer or s == dealer) else 2000
                    out.append(Transfer(s, seat, amount, "nagashi mangan"))
        return Settlement(tuple(out))
    n = sum(1 for t in tenpai if t)
    if 0 < n < 4:
        receive = rules.noten_total // n
        pay = rules.noten_total // (4 - n)
        payers = [s for s in range(4) if not tenpai[s]]
        payees = [s for s in range(4) if tenpai[s]]
        # pair payers with payees so that every transfer is a real amount between two seats
        owed = {s: pay for s in payers}
        for p in payees:
            need = receive
            for s in payers:
                take = min(need, owed[s])
                if take:
                    out.append(Transfer(s, p, take, "noten payment"))
                    owed[s] -= take
                    need -= take
    return Settlement(tuple(out))


def settle_chombo(seat: int, dealer: int, rules: RuleSet) -> Settlement:
    """A mangan-sized penalty paid to the other three, as if they had won a mangan tsumo from the offender."""
    del rules
    out = []
    for s in range(4):
        if s != seat:
            out.append(Transfer(seat, s, 4000 if (seat == dealer or s == dealer) else 2000, "chombo penalty"))
    return Settlement(tuple(out))
