"""A filmed game's events against its record (:mod:`vision.eval.record_comparison`): events recovered in order,
false ones, wins scored as the record scored them."""

from __future__ import annotations

import pytest

from engine.conformance.tenhou_games import DealCheck, EndCheck, LoggedGame
from engine.game.events import Call, Discard, DoraFlip, Draw, HandStart, Tsumo
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from vision.eval.record_comparison import align, compare, made_up, wins_scored
from vision.eval.table_script import script_game


def _t(text: str) -> Tile:
    return Tile.parse(text)


@pytest.mark.parametrize(
    ("expected", "got", "pairs"),
    [
        ("abc", "abc", [(0, 0), (1, 1), (2, 2)]),
        ("abc", "ac", [(0, 0), (2, 1)]),  # one missed
        ("abc", "axbc", [(0, 0), (1, 2), (2, 3)]),  # one made up
        ("abc", "cba", [(2, 0)]),  # out of order: only one in order
        ("", "ab", []),
    ],
)
def test_align_pairs_the_longest_run_in_order(expected: str, got: str, pairs: list) -> None:
    assert align(expected, got) == pairs


HAND = [
    HandStart(_t("1z")),
    Draw(0),
    Discard(0, _t("3m")),
    Call(1, MeldKind.CHI, parse_tiles("3m24m")),
    Discard(1, _t("9s"), riichi=True),
    DoraFlip(_t("2p")),
]


def _script(*events, end=None):
    steps = [DealCheck(0, 0, 0, 0, (25_000,) * 4), *events] + ([end] if end else [])
    return script_game(LoggedGame("made-up", preset("tenhou"), ("a", "b", "c", "d"), 0, steps))


@pytest.mark.parametrize(
    ("got", "recovered", "false", "missed"),
    [
        (HAND, 5, 0, []),
        ([HAND[0], Draw(0), HAND[2], HAND[4], HAND[5]], 4, 0, ["E1-0 " + str(HAND[3])]),  # the call missed
        ([HAND[0], Discard(0, _t("3m"), tsumogiri=True), *HAND[3:]], 5, 0, []),  # tsumogiri is not compared
        ([HAND[0], HAND[2], Discard(2, _t("3m")), *HAND[3:]], 5, 1, []),  # one made up
        ([HAND[0], HAND[2], HAND[3], Discard(1, _t("9s")), HAND[5]], 4, 1, ["E1-0 " + str(HAND[4])]),  # no riichi
    ],
)
def test_compare_counts_recovered_and_false(got: list, recovered: int, false: int, missed: list) -> None:
    arrived = [(float(i), e) for i, e in enumerate(got)]
    assert compare(_script(*HAND), arrived)[:4] == (5, recovered, false, missed)
    assert len(made_up(HAND, arrived)) == false  # a hand's events alone (bench camera's first hand)


class _Result:
    def __init__(self, round_: int, honba: int, deltas: tuple) -> None:
        self.round, self.honba, self.deltas = round_, honba, deltas

    def summary(self) -> str:
        return "East 1 0 honba: ..."


@pytest.mark.parametrize(
    ("history", "right"),
    [
        ([_Result(0, 0, (3900, -1300, -1300, -1300))], 1),
        ([_Result(0, 0, (3900, -3900, 0, 0))], 0),  # points moved otherwise
        ([_Result(1, 0, (3900, -1300, -1300, -1300))], 0),  # another hand's
        ([], 0),  # the engine never ended it
    ],
)
def test_a_win_is_right_when_it_moves_the_recorded_points(history: list, right: int) -> None:
    end = EndCheck((3900, -1300, -1300, -1300), (28900, 23700, 23700, 23700))
    script = _script(HandStart(_t("1z")), Draw(0), Tsumo(0, parse_tiles("123456789m11222p"), _t("2p")), end=end)
    wins, scored_right, wrong = wins_scored(script, history)
    assert (wins, scored_right, len(wrong)) == (1, right, 1 - right)
    assert wins_scored(script, history, settled=[0])[:2] == (1, 0)  # a hand a person finished is never right
