"""Each preset's differences, played on the same situations (standard = 001, wrc = 000, tenhou)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.game.events import Abort, AbortiveDraw, ExhaustiveDraw
from engine.game.results import Outcome
from engine.game.table import Position
from engine.tiles import parse_tiles
from tests.engine.game.scenario import deal, play

# Seat 0 discards 4p: seat 1 (pinfu + ittsu, 3900), seat 2 (tanyao shanpon, 1300) and seat 3 (tanyao) all
# win on it. Everyone draws once first (a ron before one's first draw would be renhou under wrc).
FIRST_TURNS = "0+9m 0-9m 1+9s 1-9s* 2+9p 2-9p* 3+1m 3-1m* "
THREE_WAIT = (
    "112233z6677z99s8s",
    "123456789m23p55s",
    "345678p678s22s44p",
    "234m567m56p777s22m",
)


def two_wait() -> tuple[str, ...]:
    return (*THREE_WAIT[:3], "")  # seat 3's hand unseen


@pytest.mark.parametrize(
    ("rules", "winners", "bumped", "deltas"),
    [
        # 001 and Tenhou: both paid; 2 honba (600) and the stick (1000) to seat 1, first after the discarder
        ("standard", (1, 2), (), (-3900 - 600 - 1300, 3900 + 600 + 1000, 1300, 0)),
        ("tenhou", (1, 2), (), (-3900 - 600 - 1300, 3900 + 600 + 1000, 1300, 0)),
        # 000: head-bump, seat 1 alone wins (no red fives and kiriage change nothing here)
        ("wrc", (1,), (2,), (-3900 - 600, 3900 + 600 + 1000, 0, 0)),
    ],
)
def test_double_ron(rules: str, winners: tuple[int, ...], bumped: tuple[int, ...], deltas: tuple[int, ...]) -> None:
    start = Position(round=0, honba=2, sticks=1, dealer=0, scores=(30000, 30000, 30000, 30000))
    g = deal(rules, hands=two_wait(), start=start)
    r = play(g, FIRST_TURNS + "0+4p 0-4p 1,2ron")
    assert tuple(w.seat for w in r.wins) == winners  # type: ignore[union-attr]
    assert r.bumped == bumped  # type: ignore[union-attr]
    assert r.deltas == deltas  # type: ignore[union-attr]
    assert g.sticks == 0 and g.honba == 0 and g.dealer == 1  # the dealer did not win: the deal moves on
    g.validate()


@pytest.mark.parametrize(
    ("rules", "outcome", "winners"),
    [
        ("standard", Outcome.ABORTIVE_DRAW, ()),  # 三家和: a triple ron is an abortive draw
        ("tenhou", Outcome.ABORTIVE_DRAW, ()),
        ("wrc", Outcome.RON, (1,)),  # head-bump: one winner
        ("standard-no-aborts", Outcome.RON, (1, 2, 3)),  # with aborts off, all three are paid
    ],
)
def test_triple_ron(rules: str, outcome: Outcome, winners: tuple[int, ...]) -> None:
    g = (
        deal("standard", hands=THREE_WAIT, abortive_draws=False)
        if rules.endswith("aborts")
        else deal(rules, hands=THREE_WAIT)
    )
    r = play(g, FIRST_TURNS + "0+4p 0-4p 1,2,3ron")
    assert r.outcome is outcome  # type: ignore[union-attr]
    assert tuple(w.seat for w in r.wins) == winners  # type: ignore[union-attr]
    if outcome is Outcome.ABORTIVE_DRAW:
        assert (g.dealer, g.honba) == (0, 1)  # the dealer repeats with one more honba


UNSEEN = ("", "", "", "")


@pytest.mark.parametrize("rules", ["standard", "tenhou", "wrc"])
def test_four_winds(rules: str) -> None:
    g = deal(rules, hands=UNSEEN)
    play(g, "0+? 0-1z 1+? 1-1z 2+? 2-1z 3+? 3-1z")
    if rules == "wrc":
        with pytest.raises(IllegalAction, match="no abortive draws under the wrc rules"):
            g.apply(AbortiveDraw(Abort.FOUR_WINDS))
        play(g, "0+?")  # play goes on
        return
    with pytest.raises(IllegalAction, match="abortive draw due \\(four_winds\\)"):
        play(g, "0+?")
    r = g.apply(AbortiveDraw(Abort.FOUR_WINDS))
    assert r.abort is Abort.FOUR_WINDS and (g.dealer, g.honba) == (0, 1)  # type: ignore[union-attr]


def test_four_winds_needs_the_same_wind_and_no_call() -> None:
    g = deal("standard", hands=UNSEEN)
    play(g, "0+? 0-1z 1+? 1-1z 2+? 2-1z 3+? 3-2z 0+?")  # East, East, East, South: no abort
    with pytest.raises(IllegalAction, match="conditions of four_winds"):
        g.apply(AbortiveDraw(Abort.FOUR_WINDS))


@pytest.mark.parametrize("rules", ["standard", "wrc"])
def test_four_riichi(rules: str) -> None:
    g = deal(rules, hands=UNSEEN)
    play(g, "0+? 0r-9s 1+? 1r-9s 2+? 2r-9m 3+? 3r-9m")
    if rules == "wrc":
        play(g, "0+?")
        assert g.sticks == 4
        return
    r = g.apply(AbortiveDraw(Abort.FOUR_RIICHI))
    assert g.sticks == 4 and r.riichi_sticks == (0, 1, 2, 3)  # type: ignore[union-attr]  # the 4th stick is paid
    assert sum(g.scores) == 4 * 25000 - 4000
    g.validate()


@pytest.mark.parametrize(("rules", "allowed"), [("standard", True), ("tenhou", True), ("wrc", False)])
def test_nine_terminals(rules: str, allowed: bool) -> None:
    hands = ("19m19p19s1234z55p6p", "", "", "")
    g = deal(rules, hands=hands)
    play(g, "0+6z")
    ev = AbortiveDraw(Abort.NINE_TERMINALS, 0)
    if allowed:
        assert g.apply(ev).outcome is Outcome.ABORTIVE_DRAW  # type: ignore[union-attr]
    else:
        with pytest.raises(IllegalAction, match="no abortive draws"):
            g.apply(ev)


def test_nine_terminals_needs_nine_kinds() -> None:
    g = deal("standard", hands=("19m19p19s1122z55p6p", "", "", ""))
    play(g, "0+6p")
    with pytest.raises(IllegalAction, match="nine different terminals and honours"):
        g.apply(AbortiveDraw(Abort.NINE_TERMINALS, 0))


@pytest.mark.parametrize(
    ("rules", "points", "refused"),
    [
        ("standard", 500, "1000 points"),  # 001 "at least 1,000 points"
        ("tenhou", 500, "1000 points"),
        ("wrc", 500, ""),  # 000 §06 "Declaring is still allowed below 1,000 points"
        ("wrc", 0, ""),
        ("wrc", -2000, ""),  # 000 §06 sets no floor, and 000 has no busting: below 0 too
        ("standard", -2000, "1000 points"),
    ],
)
def test_riichi_below_1000_points(rules: str, points: int, refused: str) -> None:
    start = Position(0, 0, 0, 0, (25000, points, 37000, 38_000 - points))
    g = deal(rules, hands=("112233z6677z99s8s", "123456789m23p55s", "", ""), start=start)
    play(g, "0+9m 0-9m 1+9p")
    if refused:
        with pytest.raises(IllegalAction, match=refused):
            play(g, "1r-9p")
    else:
        play(g, "1r-9p 2+?")
        assert g.scores[1] == points - 1000 and g.sticks == 1


def test_riichi_needs_tenpai_and_a_closed_hand() -> None:
    g = deal("standard")
    play(g, "0+9m 0-9m 1+9p")
    with pytest.raises(IllegalAction, match="riichi needs a tenpai hand"):
        play(g, "1r-2p")
    g = deal("standard")
    play(g, "0+2m 0-2m 3pon:2m22m")
    with pytest.raises(IllegalAction, match="closed hand"):
        play(g, "3r-8p")


@pytest.mark.parametrize(("rules", "over"), [("standard", True), ("tenhou", True), ("wrc", False)])
def test_busting(rules: str, over: bool) -> None:
    start = Position(0, 0, 0, 0, (37000, 30000, 3000, 30000))
    g = deal(rules, hands=("112233z6677z99s8s", "123456789m23p55s", "", ""), start=start)
    r = play(g, "0+9m 0-9m 1+9p 1-9p 2+? 2-1p 1ron")
    assert r.deltas == (0, 3900, -3900, 0)  # type: ignore[union-attr]
    assert g.over is over
    if over:
        finals = {f.seat: f for f in g.final_results() or ()}
        assert finals[2].rank == 4 and finals[2].score == -900


@pytest.mark.parametrize(("rules", "open_riichi", "paid"), [("standard", True, 32000), ("standard", False, None)])
def test_open_riichi_deal_in_pays_yakuman(rules: str, open_riichi: bool, paid: int | None) -> None:
    from engine.game.events import Discard

    g = deal(rules, open_riichi=open_riichi)
    play(g, "0+9m 0-9m 1+9p")
    ev = Discard(1, parse_tiles("9p")[0], tsumogiri=True, riichi=True, open_riichi=True)
    if paid is None:
        with pytest.raises(IllegalAction, match="open riichi is not played"):
            g.apply(ev)
        return
    g.apply(ev)
    r = play(g, "2+1p 2-1p 1ron")
    assert r.deltas[2] == -paid  # type: ignore[union-attr]


# Seat 1 pons three dragons; the third (Red) is fed by seat 0, who becomes liable (包).
PAO_HANDS = ("112233z6677z99s8s", "556677z23m66m9p1s8m", "", "")
PAO_SCRIPT = (
    "0+5z 0-5z 1pon:5z55z 1-9p 2+? 2-9s 3+? 3-8s "
    "0+? 0-6z 1pon:6z66z 1-1s 2+? 2-8m 3+? 3-7s "
    "0+? 0-7z 1pon:7z77z 1-8m 2+? 2-8p 3+? 3-7p 0+? 0-9p"
)


@pytest.mark.parametrize("rules", ["standard", "wrc", "tenhou"])
def test_pao_big_dragons_tsumo(rules: str) -> None:
    g = deal(rules, hands=PAO_HANDS)
    r = play(g, PAO_SCRIPT + " 1+4m 1tsumo")
    assert r.wins[0].pao == 0  # type: ignore[union-attr]
    assert r.deltas == (-32000, 32000, 0, 0)  # type: ignore[union-attr]  # the liable player pays it all


def test_pao_big_dragons_ron_is_split() -> None:
    g = deal("standard", hands=PAO_HANDS)
    r = play(g, PAO_SCRIPT + " 1+? 1-2s 2+? 2-4m 1ron")
    assert r.deltas == (-16000, 32000, -16000, 0)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("rules", "finish", "deltas"),
    [
        # Tenhou: "honba payments paid by the player to whom pao is applied"
        ("tenhou", "1+? 1-2s 2+? 2-4m 1ron", (-16600, 32600, -16000, 0)),
        ("standard", "1+? 1-2s 2+? 2-4m 1ron", (-16600, 32600, -16000, 0)),
        ("tenhou", "1+4m 1tsumo", (-32600, 32600, 0, 0)),
        # 000 §09 "Honba": "+300 from the discarder alone on ron" (seat 2 dealt in; seat 0 is liable)
        ("wrc", "1+? 1-2s 2+? 2-4m 1ron", (-16000, 32600, -16600, 0)),
        # 000 §09 "Honba": "+100 from each player on tsumo"; the liable player settles the yakuman in full
        ("wrc", "1+4m 1tsumo", (-32200, 32600, -200, -200)),
    ],
)
def test_pao_honba(rules: str, finish: str, deltas: tuple[int, ...]) -> None:
    g = deal(rules, hands=PAO_HANDS, start=Position(0, 2, 0, 0, (30000, 30000, 30000, 30000)))
    r = play(g, PAO_SCRIPT + " " + finish)
    assert r.wins[0].pao == 0  # type: ignore[union-attr]
    assert r.deltas == deltas  # type: ignore[union-attr]


def _empty_the_wall(g, seat0_yaochuu: bool = True) -> None:
    """70 draws and discards; seat 0 throws only terminals and honours, the others simples."""
    yao_tiles = (
        [f"{n}m" for n in "19"] + [f"{n}p" for n in "19"] + [f"{n}s" for n in "19"] + [f"{n}z" for n in "1234567"]
    )
    simples = [f"{n}{s}" for s in "mps" for n in "2345678"]
    used: dict[str, int] = {}
    tokens = []
    yi = si = 0
    for i in range(70):
        seat = i % 4
        if seat == 0 and seat0_yaochuu:
            tile = yao_tiles[yi % len(yao_tiles)]
            yi += 1
        else:
            tile = simples[si % len(simples)]
            si += 1
        used[tile] = used.get(tile, 0) + 1
        assert used[tile] <= 4
        tokens += [f"{seat}+?", f"{seat}-{tile}"]
    play(g, " ".join(tokens))


@pytest.mark.parametrize(
    ("rules", "deltas", "honba"),
    [
        # the dealer was noten: the deal moves on and the honba reset (001 Renchan: "The honba counter resets
        # to 0"; nagashi mangan is still an exhaustive draw there)
        ("standard", (12000, -4000, -4000, -4000), 0),
        ("wrc", (0, 0, 0, 0), 0),  # 000 has no nagashi mangan; "if East is noten ... all honba reset"
        ("tenhou", (12000, -4000, -4000, -4000), 1),  # Tenhou: every draw adds a honba
    ],
)
def test_nagashi_mangan(rules: str, deltas: tuple[int, ...], honba: int) -> None:
    g = deal(rules, hands=UNSEEN)
    _empty_the_wall(g)
    assert g.live_wall == 0
    r = g.apply(ExhaustiveDraw())
    assert r.deltas == deltas and r.outcome is Outcome.EXHAUSTIVE_DRAW  # type: ignore[union-attr]
    assert (g.dealer, g.honba) == (1, honba)


@pytest.mark.parametrize(
    ("rules", "options", "honba"),
    [
        ("standard", {}, 0),  # 001 Renchan: "the deal passes to the next player ... The honba counter resets to 0"
        ("wrc", {}, 0),  # 000 Dealer repeat: "Otherwise ... honba reset"
        ("tenhou", {}, 3),  # Tenhou: the deal passes with one more honba
        ("standard", {"noten_draw_adds_honba": True}, 3),
        ("tenhou", {"noten_draw_adds_honba": False}, 0),
    ],
)
def test_honba_after_a_draw_with_the_dealer_noten(rules: str, options: dict[str, bool], honba: int) -> None:
    g = deal(rules, hands=UNSEEN, start=Position(0, 2, 0, 0, (30000, 30000, 30000, 30000)), **options)
    _empty_the_wall(g, seat0_yaochuu=False)
    g.apply(ExhaustiveDraw((None, parse_tiles("19m19p19s1234567z"), None, None)))
    assert (g.dealer, g.honba) == (1, honba)


@pytest.mark.parametrize(
    ("rules", "dropped", "honba"),
    [
        ("standard", (), 0),  # recorded with the option: replays as played
        ("standard", ("noten_draw_adds_honba",), 3),  # recorded before it existed: the honba was added then
        ("wrc", ("noten_draw_adds_honba", "pao_whole_hand", "final_points_step"), 3),
        ("tenhou", ("noten_draw_adds_honba",), 3),
        ("tenhou", ("pao_whole_hand",), 3),  # pao paid for the fed yakuman only, as before the option
        ("wrc", ("pao_pays_honba",), 0),  # the liable player paid the honba before the option
    ],
)
def test_a_game_recorded_before_an_option_replays_as_it_was_played(
    rules: str, dropped: tuple[str, ...], honba: int
) -> None:
    from engine.game.record import game_from_json, game_to_json

    g = deal(rules, hands=UNSEEN, start=Position(0, 2, 0, 0, (30000, 30000, 30000, 30000)))
    _empty_the_wall(g, seat0_yaochuu=False)
    g.apply(ExhaustiveDraw((None, parse_tiles("19m19p19s1234567z"), None, None)))
    record = game_to_json(g)
    for option in dropped:
        del record["rules"][option]
    again = game_from_json(record)
    assert (again.dealer, again.honba) == (1, honba)
    assert again.rules.pao_whole_hand == (rules == "tenhou" and "pao_whole_hand" not in dropped)
    assert again.rules.pao_pays_honba == (rules != "wrc" or "pao_pays_honba" in dropped)


def test_noten_payments_and_tenpai_repeat() -> None:
    g = deal("standard", hands=UNSEEN)
    _empty_the_wall(g, seat0_yaochuu=False)
    r = g.apply(ExhaustiveDraw((parse_tiles("19m19p19s1234567z"), None, None, None)))
    assert r.deltas == (3000, -1000, -1000, -1000)  # type: ignore[union-attr]
    assert (g.dealer, g.honba) == (0, 1)  # tenpai dealer repeats


def test_exhaustive_draw_refused_before_the_wall_is_empty() -> None:
    g = deal("standard", hands=UNSEEN)
    play(g, "0+? 0-1m")
    with pytest.raises(IllegalAction, match="wall empty"):
        g.apply(ExhaustiveDraw())


@pytest.mark.parametrize(("rules", "refused"), [("standard", True), ("tenhou", True), ("wrc", False)])
def test_riichi_needs_tiles_left(rules: str, refused: bool) -> None:
    g = deal(rules, hands=UNSEEN)
    simples = [f"{n}{s}" for s in "mps" for n in "2345678"]
    play(g, " ".join(f"{i % 4}+? {i % 4}-{simples[i % len(simples)]}" for i in range(67)))
    play(g, "3+?")
    assert g.live_wall == 2
    if refused:
        with pytest.raises(IllegalAction, match="4 tiles left in the wall"):
            play(g, "3r-1z")
    else:
        play(g, "3r-1z 0+?")  # WRC allows riichi down to the last tile
        assert g.riichi(3)


# Seat 0 feeds seat 1 all three dragons (seat 0 liable for big dragons); seat 1's concealed 11z22z makes
# the hand all honours too: a double yakuman with one of the two fed.
PAO_DOUBLE_HANDS = ("", "556677z1122z9p1s8m", "", "")


@pytest.mark.parametrize(
    ("rules", "finish", "deltas"),
    [
        # Tenhou (a real log: tsumo double yakuman, the liable player paid 64,900 alone): the whole hand and
        # the 3 honba (900) from the liable player
        ("tenhou", "1+1z 1tsumo", (-64900, 64900, 0, 0)),
        # Tenhou, ron: the liable player and the discarder split the whole 64,000; the honba from the liable
        ("tenhou", "1+? 1-9m 2+1z 2-1z 1ron", (-32900, 64900, -32000, 0)),
        # standard as 000 (001 says nothing of pao): "the liable player settles that yakuman in full": 32,000 from
        # seat 0 (the dealer) for the fed yakuman; the other as a tsumo (16,000 + 8,000 + 8,000) with 100 per honba
        # from each
        ("standard", "1+1z 1tsumo", (-32000 - 16300, 64900, -8300, -8300)),
        # ron: half the fed yakuman from the liable player, with the honba; the rest from the discarder
        ("standard", "1+? 1-9m 2+1z 2-1z 1ron", (-16900, 64900, -48000, 0)),
    ],
)
def test_pao_with_a_double_yakuman(rules: str, finish: str, deltas: tuple[int, ...]) -> None:
    g = deal(rules, hands=PAO_DOUBLE_HANDS, start=Position(0, 3, 0, 0, (100000, 100000, 100000, 100000)))
    r = play(g, PAO_SCRIPT + " " + finish)
    assert r.wins[0].pao == 0  # type: ignore[union-attr]
    assert r.deltas == deltas  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("options", "points"),
    [
        # Tenhou ranked: scores rounded to thousands, first place takes the rest (53.8 + 20 oka + 20 uma -> 64)
        ({}, (64.0, 9.0, -24.0, -49.0)),
        # a Tenhou lobby with game points to 0.1 (a real log's final result: 63.8, -23.9, 9.3, -49.2)
        ({"final_points_step": 100}, (63.8, 9.3, -23.9, -49.2)),
    ],
)
def test_final_game_points_precision(options: dict[str, int], points: tuple[float, ...]) -> None:
    from engine.game.events import DeclaredDraw

    # South 4, dealer seat 3 noten at the draw: the game ends on these scores
    g = deal("tenhou", hands=UNSEEN, start=Position(7, 0, 0, 3, (53800, 29300, 16100, 800)), **options)
    g.apply(DeclaredDraw((False,) * 4))
    assert g.over
    assert tuple(f.points for f in g.final_results() or ()) == points
