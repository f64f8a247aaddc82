"""A Tenhou game filmed (:mod:`vision.eval.table_script`): the scenes a camera sees, and the events they should make."""

from __future__ import annotations

import pytest

from engine.conformance.tenhou_games import DealCheck, LoggedGame
from engine.game.events import Call, Discard, DoraFlip, Draw, Event, HandStart, Ron, RonClaim, Tsumo
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from tests.shared_data import TENHOU, TENHOU_MISSING
from vision.eval.table_script import (
    END_STILL,
    STILL,
    Shot,
    compared,
    event_key,
    expected_game,
    scene_tiles,
    script_file,
    script_game,
)
from vision.read.table import FrameSide
from vision.synth.table_scene import Zone

GAMES = TENHOU / "games"
needs_data = pytest.mark.skipif(not GAMES.is_dir(), reason=TENHOU_MISSING)


def _t(text: str) -> Tile:
    return Tile.parse(text)


def _film(*events: Event, still: int = 3) -> list[Shot]:
    """One made-up hand (East 1, dealer seat 0) filmed: its shots."""
    steps = [DealCheck(0, 0, 0, 0, (25_000,) * 4), HandStart(_t("1z")), *events]
    logged = LoggedGame("made-up", preset("tenhou"), ("a", "b", "c", "d"), 0, steps)
    return script_game(logged, still=still).hands[0].shots


def _still(shots: list[Shot]) -> Shot:
    """The last still frame."""
    return [s for s in shots if s.scene.arm is None][-1]


# --- real records: every frame accounts for the 136 tiles, the events replay in the engine ---------------------

# a whole game, double ron, chankan, four kans, riichi tile called, nine terminals, a riichi ron with ura
RECORDS = [
    "mjx_2010122717gm-00a9-0000-8e787e61.mjlog",
    "mjx_double-ron.mjlog",
    "mjx_encdec-chankan-ippatsu.mjlog",
    "mjx_upd-aft-kan4.mjlog",
    "mjx_upd-aft-riichi+discard-chi-riichisc+chi.mjlog",
    "mjx_upd-aft-draw-kyuusyu-kyuusyu.mjlog",
    "dnovikoff_ratio.xml",
]


@needs_data
@pytest.mark.parametrize("name", RECORDS)
def test_every_frame_holds_136_tiles(name: str) -> None:
    (game,) = script_file(GAMES / name)
    counts = {scene_tiles(shot.scene) for hand in game.hands for shot in hand.shots}
    assert counts == {0, 136}  # 0: the table cleared between hands


@needs_data
@pytest.mark.parametrize("name", RECORDS)
def test_the_events_replay_and_move_the_recorded_points(name: str) -> None:
    (game,) = script_file(GAMES / name)
    engine = expected_game(game)  # raises IllegalAction at an event the engine refuses
    ended = [hand.end.deltas for hand in game.hands if hand.end is not None]
    assert [tuple(r.deltas) for r in engine.history] == ended


@needs_data
def test_each_change_lands_once_on_a_still_frame() -> None:
    (game,) = script_file(GAMES / RECORDS[0])
    for hand in game.hands:
        landed = [s.lands for s in hand.shots if s.lands is not None]
        shown = [i for i, e in enumerate(hand.events) if not isinstance(e, Draw)]
        assert sorted(set(landed)) == shown  # ura indicators land a second time on their win
        assert all(s.frames == 1 for s in hand.shots if s.scene.arm is not None)
        assert hand.shots[-1].frames == (END_STILL if hand.end is not None else STILL)  # a result lies a while


# --- made-up hands: each change drawn as the table conventions say --------------------------------------------


@pytest.mark.parametrize(
    ("caller", "discarder", "called_index"),
    [
        (1, 0, 0),  # from the kamicha: leftmost
        (2, 0, 1),  # from the toimen: the middle
        (3, 0, 2),  # from the shimocha: rightmost
    ],
)
def test_a_called_tile_lies_sideways_towards_the_discarder(caller: int, discarder: int, called_index: int) -> None:
    kind, tiles = (MeldKind.CHI, "3m24m") if caller == 1 else (MeldKind.PON, "333m")
    shots = _film(Draw(discarder), Discard(discarder, _t("3m")), Call(caller, kind, parse_tiles(tiles)))
    seat = _still(shots).scene.seats[caller]
    arm = shots[-2].scene
    assert (arm.arm, arm.arm_zone, arm.arm_to) == (list(FrameSide)[caller], Zone.POND, list(FrameSide)[discarder])
    (meld,) = seat.melds
    assert meld.called == called_index and meld.tiles[called_index] == _t("3m")
    assert _still(shots).scene.seats[discarder].pond == ()
    assert seat.hand == 11


def test_the_arm_comes_first_over_the_table_as_it_was() -> None:
    shots = _film(Draw(0), Discard(0, _t("9p")))
    arm, still = shots[-2], shots[-1]
    assert arm.scene.arm is FrameSide.BOTTOM and arm.scene.seats[0].pond == () and arm.frames == 1
    assert still.scene.seats[0].pond == parse_tiles("9p") and still.frames == 3 and still.lands == 2
    assert (arm.scene.live_wall, still.scene.live_wall) == (70, 69)


def test_riichi_tile_sideways_and_the_stick_once_the_discard_passed() -> None:
    shots = _film(Draw(0), Discard(0, _t("9p"), riichi=True), Draw(1), Discard(1, _t("1s")))
    declared = next(s for s in shots if s.lands == 2).scene.seats[0]
    assert declared.riichi == 0 and not declared.stick
    assert _still(shots).scene.seats[0].stick


def test_a_called_riichi_tile_makes_the_next_discard_sideways() -> None:
    shots = _film(
        Draw(0),
        Discard(0, _t("3m"), riichi=True),
        Call(1, MeldKind.CHI, parse_tiles("3m24m")),
        Discard(1, _t("9s")),
        Draw(2),
        Discard(2, _t("9s")),
        Draw(3),
        Discard(3, _t("9s")),
        Draw(0),
        Discard(0, _t("8p")),
    )
    east = _still(shots).scene.seats[0]
    assert east.pond == parse_tiles("8p") and east.riichi == 0 and east.stick


def test_a_ron_takes_its_tile_from_the_pond_and_turns_the_ura_indicators() -> None:
    hand = parse_tiles("123456789m11122p")  # as Tenhou records it: the winning tile included
    shots = _film(
        Draw(0),
        Discard(0, _t("2p"), riichi=True),
        Draw(1),
        Discard(1, _t("1p")),
        Ron((RonClaim(0, hand),), ura_indicators=parse_tiles("7s")),
    )
    win, ura = shots[-3], shots[-1]
    east = win.scene.seats[0]
    assert east.hand == parse_tiles("123456789m1122p") and east.apart == _t("1p")
    assert win.scene.seats[1].pond == () and win.scene.ura_indicators == ()
    assert ura.scene.ura_indicators == parse_tiles("7s") and ura.lands == win.lands
    assert scene_tiles(win.scene) == 136


def test_a_tsumo_sets_the_drawn_tile_apart() -> None:
    shots = _film(Draw(0), Tsumo(0, parse_tiles("123456789m11222p"), _t("2p")))
    east = _still(shots).scene.seats[0]
    assert east.hand == parse_tiles("123456789m1122p") and east.apart == _t("2p")
    assert _still(shots).scene.live_wall == 69


def test_a_kan_dora_is_its_own_change() -> None:
    from engine.game.events import ClosedKan

    shots = _film(Draw(0), ClosedKan(0, parse_tiles("0555m")), DoraFlip(_t("3s")))
    kan = next(s for s in shots if s.lands == 2).scene
    (meld,) = kan.seats[0].melds
    assert meld.closed and meld.tiles[1:3] == parse_tiles("05m")  # the red five shows, the ends lie face down
    assert kan.dora_indicators == parse_tiles("1z")
    assert _still(shots).scene.dora_indicators == parse_tiles("1z3s") and _still(shots).lands == 3


@pytest.mark.parametrize(
    ("event", "key"),
    [
        (HandStart(_t("1z"), round=3), ("hand_start", "1z")),
        (Discard(2, _t("0p"), tsumogiri=True, riichi=True), ("discard", 2, "0p", True)),
        (Call(1, MeldKind.CHI, parse_tiles("3m24m")), ("call", 1, "chi", ("2m", "3m", "4m"))),
        (DoraFlip(_t("5z")), ("dora_flip", "5z")),
    ],
)
def test_what_must_agree(event: Event, key: tuple) -> None:
    assert event_key(event) == key


def test_compared_leaves_draws_and_ends_out() -> None:
    events = [HandStart(_t("1z")), Draw(0), Discard(0, _t("1m")), Tsumo(1, parse_tiles("1m"), _t("1m"))]
    assert compared(events) == events[::2][:2]
