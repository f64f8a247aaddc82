"""``jantaku-lab conformance video`` and ``bench camera`` (:mod:`device.lab.video`): a filmed hand through the real
loop, reader, service and camera game (its comparison with the record: tests/vision/eval/test_record_comparison.py)."""

from __future__ import annotations

import pytest

from engine.conformance.tenhou_games import DealCheck, EndCheck
from engine.game.events import Call, Discard, Draw, HandStart, Tsumo
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import parse_tiles
from tests.shared_data import TENHOU, TENHOU_MISSING
from tests.vision.eval.test_record_comparison import HAND, _script, _t


def test_the_film_holds_each_shot_and_marks_where_changes_land() -> None:
    import numpy as np

    from device.camera.sources import EndOfStream
    from device.lab.video import FilmSource

    script = _script(*HAND)
    drawn = []

    def render(scene, index):
        drawn.append(index)
        return np.full((8, 8, 3), index, np.uint8), (f"boxes of {index}",), (4.0, 4.0)

    source = FilmSource(script, render)
    frames = []
    with pytest.raises(EndOfStream):
        while True:
            frames.append((source.read(), source.current))
    shots = script.hands[0].shots
    assert len(frames) == source.frames == sum(s.frames for s in shots)
    assert drawn == list(range(len(shots)))  # each shot rendered once, however long it is held
    assert all(f.image[0, 0, 0] == int(boxes[0].split()[-1]) for f, boxes in frames)
    landed = [script.hands[0].events[landing.event] for _, landing in sorted(source.landings.items())]
    assert landed == [e for e in script.hands[0].events if not isinstance(e, Draw)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["conformance", "video", "no/such.mjlog"], "no such file or folder"),
        (["conformance", "video", "x.mjlog", "--games", "0"], "--games must be at least 1"),
        (["conformance", "video", "x.mjlog", "--jobs", "0"], "--jobs must be at least 1"),
        (["conformance", "video", "x.mjlog", "--size", "12"], "HEIGHTxWIDTH"),
        (["conformance", "seating", "x.mjlog", "--tilt", "0.9"], "--tilt is the far edge's shortening"),
        (["conformance", "seating", "x.mjlog", "--hands", "-1"], "--hands must be 0 (all) or more"),
        (["bench", "camera", "x.mjlog", "--turn-s", "0"], "--turn-s must be above 0"),
        (["bench", "camera", "x.mjlog", "--pi5-gmacs", "-1"], "--pi5-gmacs must be above 0"),
        (["conformance", "video", "x.mjlog", "--reader", "labels", "--pace", "pi5"], "use it with --reader models"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from device.lab.cli import main

    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# --- filmed hands through the real loop, reader (the renderer's boxes), service and camera game ------------------


def test_a_deal_and_a_discard_reach_the_engine() -> None:
    from device.lab.video import film_game, game_style

    script = _script(HandStart(_t("1z")), Draw(0), Discard(0, _t("9m")))
    filmed = film_game(script, style=game_style(3))
    assert (filmed.events, filmed.recovered, filmed.false) == (2, 2, 0), filmed.clashes
    assert len(filmed.latencies) == 1  # the discard's landing frame to its event


CALL_AND_RIICHI = (
    HandStart(_t("1z")),
    Draw(0),
    Discard(0, _t("9m")),
    Draw(1),
    Discard(1, _t("1p")),
    Call(2, MeldKind.PON, parse_tiles("111p")),
    Discard(2, _t("5z")),
    Draw(3),
    Discard(3, _t("3s"), riichi=True),
)


@pytest.mark.slow
@pytest.mark.parametrize("reader", ["labels-centred", "labels"])
def test_a_hand_with_a_call_and_a_riichi_is_followed(reader: str) -> None:
    from device.lab.video import film_game, game_style

    filmed = film_game(_script(*CALL_AND_RIICHI), reader=reader, style=game_style(5))
    assert (filmed.events, filmed.recovered, filmed.false) == (6, 6, 0), (filmed.missed, filmed.clashes)


def test_a_short_hand_filmed_and_read_with_the_shipped_models() -> None:
    """CI's one filmed hand through the camera as it runs (the shipped detector and classifier, zone reads, frames
    fused): every event recovered, none made up. (The top seat's first discard, a blank White dragon, is found only
    by a coarser slice than the finest: a zone read that read those alone missed it, and the riichi after it
    came out of turn.)"""
    from device.lab.video import film_game, game_style

    filmed = film_game(_script(*CALL_AND_RIICHI), reader="models", style=game_style(5))
    assert (filmed.recovered, filmed.false) == (filmed.events, 0), (filmed.missed, filmed.made_up, filmed.clashes)


@pytest.mark.parametrize("style", [1, 5])
def test_a_short_hand_filmed_on_a_table_with_things_besides_the_tiles(style: int) -> None:
    """The same hand with dice, paper, a phone, a cup or a box lying still on the table (style 1: dice and a phone;
    5: dice, a cup, boxes and paper): the detector reads some of them as tiles, far from a tile's size; taken for a
    seat's pond they kept the deal from ever being seen."""
    from device.lab.video import film_game, game_style

    filmed = film_game(_script(*CALL_AND_RIICHI), reader="models", style=game_style(style, clutter=True))
    assert (filmed.recovered, filmed.false) == (filmed.events, 0), (filmed.missed, filmed.made_up, filmed.clashes)


@pytest.mark.skipif(not (TENHOU / "games").is_dir(), reason=TENHOU_MISSING)
@pytest.mark.parametrize("clutter", [False, True])
def test_conformance_video_clutter_lays_things_on_every_table(clutter: bool, monkeypatch, capsys) -> None:
    import json

    from device.lab import video
    from device.lab.cli import main

    styles = []

    def film(call):  # a deal and a discard in the call's style, not the whole logged game
        styles.append(call["style"])
        return video.film_game(_script(HandStart(_t("1z")), Draw(0), Discard(0, _t("9m"))), style=call["style"])

    monkeypatch.setattr(video, "_film_game", film)
    log = str(TENHOU / "games" / "mjx_obs-pon-discard.mjlog")
    argv = ["conformance", "video", log, log, "--reader", "labels", "--jobs", "1", "--json"]
    assert main(argv + ["--clutter"] * clutter) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert len(styles) == 2 and all(bool(s.clutter) is clutter for s in styles)


@pytest.mark.skipif(not (TENHOU / "games").is_dir(), reason=TENHOU_MISSING)
def test_a_logged_game_filmed_and_read_with_the_shipped_models() -> None:
    """CI's one logged game through the camera as it runs, as the 20-game list films it (its 2nd game: render seed
    1007, style 8): a Tenhou hand of 28 events with a riichi, every one recovered and none made up."""
    from device.lab.video import film_game, game_style, scripts_of

    (script,) = scripts_of([str(TENHOU / "games" / "mjx_upd-sutehai-furiten.mjlog")], None)
    filmed = film_game(script, reader="models", seed=1007, style=game_style(8))
    assert (filmed.events, filmed.recovered, filmed.false) == (28, 28, 0), (
        filmed.missed,
        filmed.made_up,
        filmed.clashes,
    )


def test_the_camera_clock_shows_what_is_in_front_of_the_lens_now() -> None:
    import numpy as np

    from device.camera.sources import EndOfStream
    from device.lab.video import CameraClock
    from vision.eval.table_script import Shot

    now = [0.0]
    arm, still = Shot(None), Shot(None, 4, lands=1)  # an arm frame (0.5 s), then a change lying still (3 s)
    shots = [(np.full((4, 4, 3), i, np.uint8), (f"boxes {i}",), (2.0, 2.0), s) for i, s in enumerate([arm, still])]
    source = CameraClock(shots, turn_s=3.0, arm_s=0.5, clock=lambda: now[0])
    source.open()
    seen = []
    for t in (0.0, 0.4, 0.5, 3.4):
        now[0] = t
        seen.append((int(source.read().image[0, 0, 0]), source.current))
    assert seen == [(0, ("boxes 0",)), (0, ("boxes 0",)), (1, ("boxes 1",)), (1, ("boxes 1",))]
    assert source.landed(1) == 0.5
    now[0] = 3.5
    with pytest.raises(EndOfStream):
        source.read()


def test_frames_filmed_during_a_slow_read_go_by_unseen_and_undrawn() -> None:
    import numpy as np

    from device.lab.video import FilmSource

    script = _script(*HAND)
    drawn = []

    def render(scene, index):
        drawn.append(index)
        return np.zeros((6, 10, 3), np.uint8), (), (5.0, 3.0)

    source = FilmSource(script, render)
    first = source.read()
    source.pass_frames(source.frames - 2)  # a read that lasted all but the film's last frame
    last = source.read()
    assert (first.index, source.passed, last.index) == (0, source.frames - 2, source.frames - 1)
    assert len(drawn) == 2  # the shots nobody saw were never drawn
    assert len(source.landings) == len([e for e in script.hands[0].events if not isinstance(e, Draw)])


def test_the_frame_clock_counts_frames() -> None:
    from device.lab.video import FrameClock

    clock = FrameClock(2.0)
    for _ in range(6):
        clock.tick()
    assert clock() == 3.0  # six frames at two a second: the demo's pause before a result confirms itself


@pytest.mark.parametrize(
    ("seen", "done"),
    [
        ([], ""),  # the camera game never started the hand: nothing to finish
        ([HandStart(_t("1z")), Draw(0)], "the hand's end entered by hand (tsumo)"),
        ([HandStart(_t("1z")), Draw(0), Discard(0, _t("2p"))], "the game re-entered from the record"),  # diverged
    ],
)
def test_a_hand_left_unfinished_is_settled_as_players_would(seen: list, done: str) -> None:
    from device.lab.video import settle_by_hand, table_service

    win = Tsumo(0, parse_tiles("123456789m11222p"), _t("2p"))
    end = EndCheck((0,) * 4, (25_000,) * 4)
    second = (DealCheck(0, 1, 0, 0, (25_000,) * 4), HandStart(_t("2z")))
    script = _script(HandStart(_t("1z")), Draw(0), win, end, *second)
    assert len(script.hands) == 2
    service = table_service(preset("tenhou"))
    try:
        for event in seen:
            service.apply_event(event)
        assert settle_by_hand(service, script, 1) == done
        if done:
            assert service.game.game.hand is None and service.game.game.events[-1] == win
    finally:
        service.close()


# --- conformance seating: the geometry alone -----------------------------------------------------------------------


@pytest.mark.parametrize("camera", [None, "bottom", "left"])
def test_a_hand_with_a_call_and_a_riichi_is_seated_as_about_the_true_centre(camera) -> None:
    from device.lab.video import seat_game
    from vision.read.table import FrameSide
    from vision.synth.table_render import TableStyle

    style = TableStyle() if camera is None else TableStyle(camera=FrameSide(camera), tilt=0.15)
    seated = seat_game(_script(*CALL_AND_RIICHI), seed=5, style=style)
    assert seated.shots >= 5 and (seated.misread, seated.first) == (0, [])


def test_a_centre_kept_tiles_off_misreads_the_shots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a geometry that keeps a centre two tiles off puts the ponds at other seats."""
    from device.lab.video import seat_game
    from vision.read.table.geometry import TableGeometry

    observe = TableGeometry.observe

    def two_tiles_off(self, dets, size=None):
        x, y = observe(self, dets, size)
        return x + 100.0, y - 100.0

    monkeypatch.setattr(TableGeometry, "observe", two_tiles_off)
    seated = seat_game(_script(*CALL_AND_RIICHI), seed=5)
    assert seated.misread > 0 and seated.first[0][0] == 0


class _Game:
    """The bits of a table service a :class:`~device.lab.video.Watch` reads: the engine's events, the contradictions."""

    def __init__(self) -> None:
        self.events: list = []
        self.contradictions: list = []
        self.game = self
        self.camera_game = self

    def observe(self, events: list) -> None:
        self.events = list(events)

    def hold(self) -> None:
        pass


_9M, _9M_AS_6M = Discard(seat=0, tile=_t("9m")), Discard(seat=0, tile=_t("6m"))
_NEXT = Discard(seat=1, tile=_t("1z"))


@pytest.mark.parametrize(("steps", "arrived"), [
    # each step: the engine's events after an observe (or "hand": a person entered them); then (time, event) held
    ([[_9M_AS_6M], [_9M_AS_6M, _NEXT]], [(0, _9M_AS_6M), (1, _NEXT)]),
    # the discard corrected and the event after it applied again: the wrong one is gone, the next keeps its time
    ([[_9M_AS_6M], [_9M_AS_6M, _NEXT], [_9M, _NEXT]], [(2, _9M), (1, _NEXT)]),
    # a phone's undo: gone
    ([[_9M, _NEXT], [_9M]], [(0, _9M)]),
    # what a person entered is no camera event; what the camera gave before stays, even when re-entered otherwise
    ([[_9M_AS_6M], "hand", [_9M, _NEXT]], [(0, _9M_AS_6M), (2, _NEXT)]),
])  # fmt: skip
def test_the_watch_follows_the_engines_list(steps: list, arrived: list) -> None:
    from device.lab.video import Watch

    game, ticks = _Game(), iter(range(100))
    watch = Watch(game, clock=lambda: next(ticks))
    for step in steps:
        if step == "hand":
            game.events = [_9M]
            watch.entered_by_hand()
            next(ticks)
        else:
            watch.observe(step)
    assert watch.arrived == arrived
