"""Declared wins with several winners (double and triple ron) and with a liable player (包, pao).

The same situations as ``test_presets`` (there the engine follows the hand tile by tile), declared instead:
the results must follow the rule set's ``multiple_ron`` and pao options exactly as the engine's own ``Ron``.
"""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError, IllegalAction
from engine.game.events import (
    Abort,
    DeclaredAbort,
    DeclaredClaim,
    DeclaredRon,
    DeclaredWin,
    Event,
    HandStart,
    event_from_dict,
)
from engine.game.record import game_from_json, game_to_json, snapshot
from engine.game.results import Outcome
from engine.game.state import Game
from engine.game.table import Position
from engine.rules import MultipleRon, preset
from engine.tiles import Tile
from tests.engine.game.scenario import deal, play

T = Tile.parse

# All wait on 4p (test_presets' THREE_WAIT): seat 1 pinfu + ittsu 3 han 30 fu (3900 as a non-dealer, 5800 as the
# dealer); seat 2 tanyao shanpon 1 han 40 fu (1300); seat 3 tanyao 1 han 40 fu (1300).
ITTSU = "123456789m23p55s"
SHANPON = "345678p678s22s44p"
TANYAO = "234m567m56p777s22m"
HANDS = {1: ITTSU, 2: SHANPON, 3: TANYAO}


def ron(discarder: int, *seats: int, hands: dict[int, str] | None = None) -> DeclaredRon:
    hands = hands or HANDS
    return DeclaredRon(discarder, T("4p"), tuple(DeclaredClaim(s, hands[s]) for s in seats))


def game(rules: str = "standard", honba: int = 2, sticks: int = 1, **options: object) -> Game:
    """East 1 (dealer seat 0) with honba and riichi sticks on the table; a hand in progress."""
    r = preset(rules, **options)
    points = r.start_points
    g = Game(r, ("A", "B", "C", "D"), start=Position(0, honba, sticks, 0, (points - 1000 * sticks,) + (points,) * 3))
    g.apply(HandStart())
    g.validate()
    return g


def apply(g: Game, *events: Event) -> object:
    """Apply the events, checking the invariants (points conserved, tiles accounted for) after each."""
    result = None
    for e in events:
        result = g.apply(e)
        g.validate()
    return result


@pytest.mark.parametrize(
    ("rules", "event", "winners", "bumped", "deltas"),
    [
        # 001 and Tenhou: double ron, both paid; 2 honba (600) and the stick (1000) to seat 1, first after seat 0
        ("standard", ron(0, 1, 2), (1, 2), (), (-3900 - 600 - 1300, 3900 + 600 + 1000, 1300, 0)),
        ("tenhou", ron(0, 1, 2), (1, 2), (), (-3900 - 600 - 1300, 3900 + 600 + 1000, 1300, 0)),
        # 000: head-bump, seat 1 alone wins; seat 2 is recorded as bumped
        ("wrc", ron(0, 1, 2), (1,), (2,), (-3900 - 600, 3900 + 600 + 1000, 0, 0)),
        # turn order counts from the discarder, not the order the claims are listed in: after seat 2 comes seat 3
        ("wrc", ron(2, 1, 3), (3,), (1,), (0, 0, -1300 - 600, 1300 + 600 + 1000)),
        ("standard", ron(2, 1, 3), (3, 1), (), (0, 3900, -3900 - 1300 - 600, 1300 + 600 + 1000)),  # wins in turn
        # one declared winner is a plain declared ron
        ("standard", ron(0, 2), (2,), (), (-1300 - 600, 0, 1300 + 600 + 1000, 0)),
    ],
)
def test_double_ron(rules, event, winners, bumped, deltas):
    g = game(rules)
    r = apply(g, event)
    assert tuple(w.seat for w in r.wins) == winners
    assert r.bumped == bumped
    assert r.deltas == deltas
    assert (g.sticks, g.honba, g.dealer) == (0, 0, 1)  # the dealer did not win: the deal moves on


def test_a_single_declared_ron_settles_as_a_declared_win():
    one, two = game(), game()
    apply(one, ron(0, 1))
    apply(two, DeclaredWin(1, 0, ITTSU, T("4p")))
    assert one.history[-1].deltas == two.history[-1].deltas and one.scores == two.scores


def test_the_dealer_among_the_winners_repeats():
    g = game("standard")
    r = apply(g, DeclaredRon(1, T("4p"), (DeclaredClaim(0, ITTSU), DeclaredClaim(2, SHANPON))))
    # the dealer's 3 han 30 fu is 5800; honba and the stick to seat 2, first after seat 1
    assert r.deltas == (5800, -5800 - 1300 - 600, 1300 + 600 + 1000, 0)
    assert (g.round_name, g.honba, g.dealer) == ("East 1", 3, 0)


@pytest.mark.parametrize(
    ("rules", "options", "outcome", "winners", "deltas"),
    [
        # 三家和: a triple ron is an abortive draw (001, Tenhou): nothing paid, the dealer repeats, honba up
        ("standard", {}, Outcome.ABORTIVE_DRAW, (), (0, 0, 0, 0)),
        ("tenhou", {}, Outcome.ABORTIVE_DRAW, (), (0, 0, 0, 0)),
        # 000 head-bump: one winner
        ("wrc", {}, Outcome.RON, (1,), (-3900 - 600, 3900 + 600 + 1000, 0, 0)),
        # the option "triple ron": all three paid (also with the abortive draws off)
        (
            "standard",
            {"multiple_ron": MultipleRon.ALL},
            Outcome.RON,
            (1, 2, 3),
            (-3900 - 600 - 1300 - 1300, 3900 + 600 + 1000, 1300, 1300),
        ),
        (
            "standard",
            {"abortive_draws": False},
            Outcome.RON,
            (1, 2, 3),
            (-3900 - 600 - 1300 - 1300, 3900 + 600 + 1000, 1300, 1300),
        ),
    ],
)
def test_triple_ron(rules, options, outcome, winners, deltas):
    g = game(rules, **options)
    r = apply(g, ron(0, 1, 2, 3))
    assert r.outcome is outcome
    assert tuple(w.seat for w in r.wins) == winners
    assert r.deltas == deltas
    if outcome is Outcome.ABORTIVE_DRAW:
        assert r.abort is Abort.TRIPLE_RON
        assert (g.dealer, g.honba, g.sticks) == (0, 3, 1)  # the stick stays on the table


DAISANGEN = "234m8p pon:555z/L pon:666z pon:777z/R"  # big dragons (a yakuman: 32000, the dealer 48000)
DAISUUSHII = "2p pon:111z pon:222z pon:333z pon:444z"  # big winds: a double yakuman where the rules have them
SUUKANTSU = "5s kan:1111m/L ankan:9999p kan:7777s kakan:3333z"  # four quads


@pytest.mark.parametrize(
    ("rules", "honba", "event", "deltas"),
    [
        # tsumo: the liable player pays it all (000, Tenhou)
        ("standard", 0, DeclaredWin(1, None, DAISANGEN, T("8p"), pao=0), (-32000, 32000, 0, 0)),
        ("standard", 0, DeclaredWin(1, None, DAISANGEN, T("8p"), pao=2), (0, 32000, -32000, 0)),
        ("wrc", 0, DeclaredWin(1, None, DAISANGEN, T("8p"), pao=3), (0, 32000, 0, -32000)),
        ("standard", 0, DeclaredWin(0, None, DAISANGEN, T("8p"), pao=2), (48000, 0, -48000, 0)),  # dealer wins
        # ron: the liable player and the discarder share it half and half
        ("standard", 0, DeclaredWin(1, 2, DAISANGEN, T("8p"), pao=0), (-16000, 32000, -16000, 0)),
        ("wrc", 0, DeclaredWin(1, 2, DAISANGEN, T("8p"), pao=0), (-16000, 32000, -16000, 0)),
        # the liable player dealt in: pays it all, as any discarder
        ("standard", 0, DeclaredWin(1, 0, DAISANGEN, T("8p"), pao=0), (-32000, 32000, 0, 0)),
        # honba are paid by the liable player (Tenhou)
        ("tenhou", 2, DeclaredWin(1, 2, DAISANGEN, T("8p"), pao=0), (-16600, 32600, -16000, 0)),
        # big winds: a double yakuman under 001 (the liable player covers both), single under 000
        ("standard", 0, DeclaredWin(1, None, DAISUUSHII, T("2p"), pao=3), (0, 64000, 0, -64000)),
        ("wrc", 0, DeclaredWin(1, None, DAISUUSHII, T("2p"), pao=3), (0, 32000, 0, -32000)),
        # four quads: liability under 000 only
        ("wrc", 0, DeclaredWin(1, None, SUUKANTSU, T("5s"), pao=0), (-32000, 32000, 0, 0)),
        # a double ron, one winner with a liable player: seat 1 (first after seat 3) takes nothing extra here
        (
            "standard",
            0,
            DeclaredRon(3, T("8p"), (DeclaredClaim(1, DAISANGEN, pao=0), DeclaredClaim(2, "234m567p67p88s678s"))),
            (-16000, 32000, 2000, -16000 - 2000),
        ),
        (
            "wrc",
            0,
            DeclaredRon(3, T("8p"), (DeclaredClaim(1, DAISANGEN, pao=0), DeclaredClaim(2, "234m567p67p88s678s"))),
            (-16000, 32000, 0, -16000),
        ),
    ],
)
def test_declared_pao(rules, honba, event, deltas):
    g = game(rules, honba=honba, sticks=0)
    r = apply(g, event)
    assert r.deltas == deltas
    assert any(w.pao is not None for w in r.wins)


@pytest.mark.parametrize(
    ("rules", "event", "rule"),
    [
        ("standard", DeclaredWin(1, None, DAISANGEN, T("8p"), pao=1), "another player than the winner"),
        ("standard", DeclaredWin(1, 0, ITTSU, T("4p"), pao=2), r"only for big dragons, big winds under the standard"),
        ("wrc", DeclaredWin(1, 0, ITTSU, T("4p"), pao=2), r"only for big dragons, big winds, four kans under the wrc"),
        # four quads carry no liability under 001
        ("standard", DeclaredWin(1, None, SUUKANTSU, T("5s"), pao=0), "only for big dragons, big winds under"),
        # a concealed big dragons: nobody fed a set of it
        ("standard", DeclaredWin(1, 0, "234m8p555666777z", T("8p"), pao=2), "last set called"),
        ("standard", DeclaredWin(1, 0, DAISANGEN, T("8p"), pao=7), r"a seat is 0\.\.3"),
        # several winners
        ("standard", ron(1, 1, 2), "another player than the discarder, once"),
        ("standard", DeclaredRon(0, T("4p"), (DeclaredClaim(1, ITTSU), DeclaredClaim(1, ITTSU))), "once"),
        ("standard", DeclaredRon(0, T("4p"), ()), "needs a winner"),
        ("standard", ron(0, 1, 2, hands={1: ITTSU, 2: "345678p678s22s45p"}), "not a win"),
        ("standard", ron(0, 2, 3, hands={2: SHANPON, 3: "44p234m567m777s22m"}), "four of each tile"),  # six 4p
        # a bumped claimant's hand is not scored, but it must be a hand
        ("wrc", ron(0, 1, 2, hands={1: ITTSU, 2: "4p4p?"}), "cannot be read"),
    ],
)
def test_refused_declarations_change_nothing(rules, event, rule):
    g = game(rules)
    n, before = len(g.events), json.dumps(snapshot(g))
    with pytest.raises(IllegalAction, match=rule):
        g.apply(event)
    assert len(g.events) == n and json.dumps(snapshot(g)) == before
    g.validate()


@pytest.mark.parametrize(
    ("multiple_ron", "refused"),
    [
        (MultipleRon.DOUBLE, False),  # 001: 三家和 is an abortive draw
        (MultipleRon.ALL, True),  # the option "triple ron": three winners, no draw
    ],
)
def test_a_declared_triple_ron_draw_needs_rules_that_make_it_one(multiple_ron, refused):
    g = game("standard", multiple_ron=multiple_ron)
    if refused:
        with pytest.raises(IllegalAction, match="a triple ron is not a draw under the standard rules"):
            g.apply(DeclaredAbort(Abort.TRIPLE_RON))
    else:
        assert apply(g, DeclaredAbort(Abort.TRIPLE_RON)).abort is Abort.TRIPLE_RON


# test_presets' pao scene: seat 1 pons three dragons, the third fed by seat 0; the engine saw it.
PAO_HANDS = ("112233z6677z99s8s", "556677z23m66m9p1s8m", "", "")
PAO_SCRIPT = (
    "0+5z 0-5z 1pon:5z55z 1-9p 2+? 2-9s 3+? 3-8s "
    "0+? 0-6z 1pon:6z66z 1-1s 2+? 2-8m 3+? 3-7s "
    "0+? 0-7z 1pon:7z77z 1-8m 2+? 2-8p 3+? 3-7p 0+? 0-9p"
)
SEEN = "23m66m pon:555z pon:666z pon:777z"


@pytest.mark.parametrize(
    ("pao", "deltas", "rule"),
    [
        (None, (-32000, 32000, 0, 0), None),  # not named: the engine's own record of who fed the set
        (0, (-32000, 32000, 0, 0), None),
        (2, None, "falls on the player who fed the last set"),
    ],
)
def test_pao_the_engine_saw(pao, deltas, rule):
    g = deal("standard", hands=PAO_HANDS)
    play(g, PAO_SCRIPT)
    event = DeclaredWin(1, None, SEEN, T("4m"), pao=pao)
    if rule:
        with pytest.raises(IllegalAction, match=rule):
            g.apply(event)
        return
    r = apply(g, event)
    assert r.deltas == deltas and r.wins[0].pao == 0


def test_declared_ron_and_pao_round_trip_through_json_replay_and_undo():
    events = [
        HandStart(),
        DeclaredRon(0, T("4p"), (DeclaredClaim(1, ITTSU, ("riichi",)), DeclaredClaim(2, SHANPON)), (T("1z"),)),
        HandStart(),
        DeclaredWin(1, 2, DAISANGEN, T("8p"), pao=0),
    ]
    for e in events:
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
    g = Game(preset("standard"), ("A", "B", "C", "D"))
    apply(g, *events)
    again = game_from_json(json.loads(json.dumps(game_to_json(g))))
    assert again.events == g.events and again.scores == g.scores and again.history == g.history
    assert g.undo().scores == Game.replay(g.rules, g.seats, events[:-1]).scores


def test_a_declared_win_logged_before_pao_existed_still_reads():
    old = {"type": "declared_win", "seat": 1, "discarder": 0, "hand": ITTSU, "win_tile": "4p", "flags": []}
    assert event_from_dict(old) == DeclaredWin(1, 0, ITTSU, T("4p"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "declared_ron", "discarder": 0, "win_tile": "4p", "claims": []}, "one to three winners"),
        ({"type": "declared_ron", "discarder": 0, "win_tile": "4p", "claims": [{"seat": 1}] * 4}, "one to three"),
        (
            {
                "type": "declared_ron",
                "discarder": 0,
                "win_tile": "4p",
                "claims": [{"seat": 1, "hand": ITTSU, "tsumo": True}],
            },
            "unknown field",
        ),
        ({"type": "declared_ron", "discarder": 0, "win_tile": "4p", "claims": ["1"]}, "a claim is an object"),
        (
            {"type": "declared_ron", "discarder": 9, "win_tile": "4p", "claims": [{"seat": 1, "hand": ITTSU}]},
            "discarder is a seat",
        ),
        (
            {
                "type": "declared_ron",
                "discarder": 0,
                "win_tile": "4p",
                "claims": [{"seat": 1, "hand": ITTSU, "pao": "x"}],
            },
            "pao is a seat",
        ),
        (
            {"type": "declared_win", "seat": 1, "discarder": 0, "hand": ITTSU, "win_tile": "4p", "pao": True},
            "pao is a seat",
        ),
    ],
)
def test_bad_declared_ron_dicts_are_refused(data, message):
    with pytest.raises(EngineError, match=message):
        event_from_dict(data)
