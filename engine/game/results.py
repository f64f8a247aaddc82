"""What a hand and a game come to: the outcome, each win, the score changes, the final ranks and game points.

``HandResult`` is what ``Game.apply`` returns when an event ends a hand (and what ``Game.history`` holds);
``FinalResult`` is one seat's line of ``Game.final_results()`` once the game is over.

>>> round_name(0), round_name(7)
('East 1', 'South 4')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.game.events import Abort
from engine.game.settlement import Transfer


class Outcome(StrEnum):
    RON = "ron"
    TSUMO = "tsumo"
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    ABORTIVE_DRAW = "abortive_draw"
    CHOMBO = "chombo"


ROUND_NAMES = ("East", "South", "West", "North")


def round_name(index: int) -> str:
    """``0`` -> ``East 1``, ``7`` -> ``South 4``."""
    return f"{ROUND_NAMES[index // 4 % 4]} {index % 4 + 1}"


@dataclass(frozen=True)
class WinRecord:
    seat: int
    from_seat: int | None  # None for tsumo
    hand: str  # the winning hand in notation
    win_tile: str
    result: Any  # engine.scoring.ScoreResult
    pao: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "from": self.from_seat,
            "hand": self.hand,
            "win_tile": self.win_tile,
            "pao": self.pao,
            "score": self.result.to_dict(),
        }


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what it moved. ``deltas`` per seat; riichi sticks paid during the hand apart."""

    round: int
    honba: int
    dealer: int
    outcome: Outcome
    deltas: tuple[int, int, int, int]
    transfers: tuple[Transfer, ...]
    scores: tuple[int, int, int, int]  # after the hand
    wins: tuple[WinRecord, ...] = ()
    tenpai: tuple[bool, bool, bool, bool] | None = None
    nagashi: tuple[int, ...] = ()
    abort: Abort | None = None
    bumped: tuple[int, ...] = ()  # claimants who lost a ron to head-bump
    riichi_sticks: tuple[int, ...] = ()  # seats that paid a riichi deposit this hand
    dealer_repeats: bool = False
    note: str = ""

    @property
    def round_name(self) -> str:
        return round_name(self.round)

    def summary(self) -> str:
        head = f"{self.round_name} {self.honba} honba: "
        if self.outcome in (Outcome.RON, Outcome.TSUMO):
            parts = []
            for w in self.wins:
                how = "tsumo" if w.from_seat is None else f"ron from seat {w.from_seat}"
                r = w.result
                val = r.limit_name or f"{r.han} han {r.fu} fu"
                parts.append(f"seat {w.seat} {how}, {val}")
            head += "; ".join(parts)
        elif self.outcome is Outcome.EXHAUSTIVE_DRAW:
            ten = [str(s) for s in range(4) if self.tenpai and self.tenpai[s]]
            head += "exhaustive draw, tenpai: " + (", ".join(ten) or "none")
            if self.nagashi:
                head += f"; nagashi mangan: {', '.join(map(str, self.nagashi))}"
        elif self.outcome is Outcome.ABORTIVE_DRAW:
            head += f"abortive draw ({self.abort.value if self.abort else ''})"
        else:
            head += self.note or "chombo"
        return head + f"; deltas {list(self.deltas)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "round_name": self.round_name,
            "honba": self.honba,
            "dealer": self.dealer,
            "outcome": self.outcome.value,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "transfers": [t.to_dict() for t in self.transfers],
            "wins": [w.to_dict() for w in self.wins],
            "tenpai": None if self.tenpai is None else list(self.tenpai),
            "nagashi": list(self.nagashi),
            "abort": self.abort.value if self.abort else None,
            "bumped": list(self.bumped),
            "riichi_sticks": list(self.riichi_sticks),
            "dealer_repeats": self.dealer_repeats,
            "summary": self.summary(),
        }


@dataclass(frozen=True)
class FinalResult:
    """One seat's result: rank 1..4, raw score, and the game points (in thousands) after uma and oka."""

    seat: int
    name: str
    rank: int
    score: int
    sticks: int  # leftover riichi sticks added (points)
    uma: int
    oka: int
    points: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)
