"""A filmed game's engine events against its record (``jantaku-lab conformance video`` and ``bench camera``,
:mod:`device.lab.video`): the events recovered in order, the false ones, the wins scored as the record scored them,
and the seconds from a discard landing to its event. Pure: the lab's video code films and plays the game, this
module counts what came of it.

    expected, recovered, false, missed, made_up = compare(script, arrived)   # arrived: [(seconds, event), ...]
    wins, right, wrong = wins_scored(script, engine_history, settled=hands_finished_by_a_person)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Landing:
    """A frame where a change lands (the first still frame after the arm): the hand and the event it shows."""

    hand: int
    event: int


def align(expected: Sequence, got: Sequence) -> list[tuple[int, int]]:
    """The longest common subsequence of two sequences of keys, as (expected index, got index) pairs in order.

    >>> align("abcde", "xbcyd")
    [(1, 1), (2, 2), (3, 4)]
    """
    n, m = len(expected), len(got)
    length = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = length[i], length[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if expected[i] == got[j] else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if expected[i] == got[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif length[i + 1][j] >= length[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def wins_scored(script: Any, history: Sequence[Any], settled: Iterable[int] = ()) -> tuple[int, int, list[str]]:
    """(wins in the record, wins whose hand the engine ended moving each seat's points as the record did, and for
    each other win what the record moved and what the engine did). ``settled``: the hands (by index) a person
    finished, never scored right."""
    from engine.game.events import Ron, Tsumo

    results = {(r.round, r.honba): r for r in history}
    wins = right = 0
    wrong = []
    by_hand = set(settled)
    for i, hand in enumerate(script.hands):
        if hand.end is None or not any(isinstance(e, Ron | Tsumo) for e in hand.events):
            continue
        wins += 1
        got = None if i in by_hand else results.get((hand.deal.round, hand.deal.honba))
        if got is not None and tuple(got.deltas) == hand.end.deltas:
            right += 1
        else:
            engine = "no result" if got is None else f"{got.summary()} {tuple(got.deltas)}"
            engine = "settled by hand" if i in by_hand else engine
            wrong.append(f"{hand.label} {type(hand.events[-1]).__name__}: the record moved {hand.end.deltas}, {engine}")
    return wins, right, wrong


@dataclass
class GameFilmed:
    """One game's figures, and the first events missed and made up (for the readable table)."""

    source: str
    hands: int
    frames: int
    reads: int
    seconds: float
    events: int
    recovered: int
    false: int
    wins: int
    wins_scored_right: int
    missed: list[str] = field(default_factory=list)
    made_up: list[str] = field(default_factory=list)
    #: The contradictions the camera game reported (``clash seat: detail``).
    clashes: list[str] = field(default_factory=list)
    #: The wins not scored as the record scored them: what the record moved, what the engine did.
    wrong_wins: list[str] = field(default_factory=list)
    #: The hands the camera game did not finish, settled as a person would on a phone before the next deal.
    by_hand: list[str] = field(default_factory=list)
    #: Seconds from each discard's landing frame being taken to its event reaching the engine.
    latencies: list[float] = field(default_factory=list)

    def details(self, most: int | None = 8) -> list[str]:
        """The first ``most`` (None: all) events missed, false events and contradictions, and every wrong win and
        fixed hand."""
        return [
            *(f"    missed {line}" for line in self.missed[:most]),
            *(f"    false  {line}" for line in self.made_up[:most]),
            *(f"    clash  {line}" for line in self.clashes[:most]),
            *(f"    win    {line}" for line in self.wrong_wins),
            *(f"    fixed  {line}" for line in self.by_hand),
        ]


def compare(script: Any, arrived: Sequence[tuple[float, Any]]) -> tuple[int, int, int, list[str], list[str]]:
    """(expected events, recovered, false, the missed ones, the made-up ones) of a game's events against its
    record's, each missed or made-up event written with its hand."""
    from vision.eval.table_script import compared, event_key

    expected = [(hand.label, e) for hand in script.hands for e in compared(hand.events)]
    got = compared(e for _, e in arrived)
    pairs = align([event_key(e) for _, e in expected], [event_key(e) for e in got])
    matched_e, matched_g = {i for i, _ in pairs}, {j for _, j in pairs}
    missed = [f"{label} {e}" for i, (label, e) in enumerate(expected) if i not in matched_e]
    made_up = [str(e) for j, e in enumerate(got) if j not in matched_g]
    return len(expected), len(pairs), len(got) - len(pairs), missed, made_up


def made_up(expected: Sequence[Any], arrived: Sequence[tuple[float, Any]]) -> list[str]:
    """The events received (of the kinds compared with a record) that no event of ``expected`` recovers, in order:
    the false events of a run that played ``expected``."""
    from vision.eval.table_script import compared, event_key

    want, got = compared(expected), compared(e for _, e in arrived)
    matched = {j for _, j in align([event_key(e) for e in want], [event_key(e) for e in got])}
    return [str(e) for j, e in enumerate(got) if j not in matched]


def discard_latencies(
    script: Any, landings: dict[int, Landing], taken: dict[int, float], arrived: Sequence[tuple[float, Any]]
) -> list[float]:
    """Seconds from each discard's landing frame being taken to its event reaching the engine."""
    from engine.game.events import Discard

    out = []
    for frame, landing in sorted(landings.items()):
        event = script.hands[landing.hand].events[landing.event]
        came = arrival(event, taken[frame], arrived) if isinstance(event, Discard) and frame in taken else None
        if came is not None:
            out.append(came)
    return out


def arrival(event: Any, at: float, arrived: Sequence[tuple[float, Any]]) -> float | None:
    """Seconds from ``at`` to the first event the engine received at or after it that recovers ``event``."""
    from vision.eval.table_script import event_key

    key = event_key(event)
    return next((t - at for t, e in arrived if t >= at and event_key(e) == key), None)
