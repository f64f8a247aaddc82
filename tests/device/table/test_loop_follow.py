"""The camera follows the game end to end: frames through the real loop (change gate, reader, ``observe`` and
``hold``) into a real ``TableService``, whose camera game plays them into the game.

The bundled demo is read by the camera's reader from its own labels (``RecordedLabels``: no detector model needed);
a whole hand with its win is scripted as table reads of 800x600 frames (the loop's reader returns them), each table
shown as three identical frames: an arm leaving (moving), still (read), still again (held).
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from device.camera.loop import ServiceLoop
from device.camera.sources import FakeSource, FileReplaySource, Frame
from device.commands.run import DEMO_AUTO_CONFIRM_S, RunOptions, TableRuntime, recorded_reader
from device.config import Config
from device.demo import RECORDING
from device.table.service import TableService
from engine.game.events import Draw
from tests.device.table.test_camera_game import FIRST_GO, FIRST_GO_EVENTS, WIN, detections_of, ponds_of, script
from tests.vision.read.table_frames import B, table
from tests.web.conftest import reading_of
from vision.read.detector import FakeDetector
from web.game_request import event_of


def test_the_demo_through_the_loop_is_played_scored_and_settled():
    """The demo read by its recorded labels: the engine receives the events its manifest lists, in order (the
    unseen draws aside: a kan's replacement draw and its dora flip come in either order), and the win is scored
    and settled by itself (auto-confirm) with the manifest's payments; nothing is proposed that the demo does not
    show."""
    manifest = json.loads((RECORDING / "recording.json").read_text())
    expected = [event_of(e) for f in manifest["frames"] for e in f["events"]]
    svc = TableService(pin="123456", auto_confirm_s=DEMO_AUTO_CONFIRM_S, clock=Ticking())
    try:
        loop = ServiceLoop(
            FileReplaySource(RECORDING),
            recorded_reader(RECORDING),
            svc.observe,
            hold=svc.hold,
            max_reads_per_second=1e3,
        )
        stats = loop.run()
        assert stats.errors == 0
        played = svc.game.game.events
        assert [e for e in played if not isinstance(e, Draw)] == [e for e in expected if not isinstance(e, Draw)]
        assert sum(isinstance(e, Draw) for e in played) == sum(isinstance(e, Draw) for e in expected)
        follow = svc.state()["follow"]
        assert follow["contradictions"] == [] and follow["pending"] is None
        (hand,) = svc.state()["game"]["history"]
        assert hand["deltas"] == manifest["winner"]["deltas"]
    finally:
        svc.close()


def scripted_loop(svc: TableService, tables: list, still_after: int = 0) -> ServiceLoop:
    """A loop over three frames per table (moving, read, held), each table's frames alike and unlike the others';
    the last one stays ``still_after`` frames more."""
    images = []
    for k, _ in enumerate(tables):
        image = np.full((600, 800, 3), 60, np.uint8)
        image[20 + 8 * k : 60 + 8 * k, 30:70] = 230  # a tile laid down somewhere new each time
        images += [image] * 3
    images += images[-1:] * still_after

    def read(frame: Frame):
        seen = tables[min(frame.index // 3, len(tables) - 1)]
        return reading_of(detections_of(seen), seen)

    return ServiceLoop(FakeSource(images), read, svc.observe, hold=svc.hold, max_reads_per_second=1e3)


class Ticking:
    """A clock a second further on each time it is read: time passes as frames do, no sleeping."""

    def __init__(self) -> None:
        self._count = itertools.count(1000)

    def __call__(self) -> float:
        return float(next(self._count))


@pytest.mark.parametrize(("auto_confirm_s", "settled"), [(3.0, True), (0.0, False)])
def test_a_whole_hand_with_its_tsumo_through_the_loop_settles_by_itself(auto_confirm_s, settled):
    svc = TableService(pin="123456", auto_confirm_s=auto_confirm_s, clock=Ticking())
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    try:
        stats = scripted_loop(svc, [*script(FIRST_GO), laid], still_after=5).run()  # the winner waits
        assert stats.errors == 0 and stats.reads == 14  # the deal, 12 discards, the hand laid down
        state = svc.state()
        assert svc.game.game.events[: len(FIRST_GO_EVENTS)] == FIRST_GO_EVENTS
        follow = state["follow"]
        if settled:
            assert follow["pending"] is None
            assert state["game"]["history"][-1]["outcome"] == "tsumo"
            assert [s["points"] for s in state["game"]["seats"]] == [49000, 17000, 17000, 17000]
        else:
            assert follow["pending"]["kind"] == "tsumo" and follow["pending"]["auto_confirm_at"] is None
            assert state["game"]["history"] == []
    finally:
        svc.close()


@pytest.mark.parametrize(
    ("camera", "game", "auto_confirm_s"),
    [
        ({"kind": "demo"}, {}, DEMO_AUTO_CONFIRM_S),  # the demo settles its win by itself
        ({"kind": "demo"}, {"auto_confirm_s": 7.5}, 7.5),
        ({"kind": "replay", "path": str(RECORDING)}, {}, 0.0),  # a table of one's own: a phone confirms
    ],
)
def test_the_runtime_holds_unchanged_frames_and_auto_confirms_the_demo(camera, game, auto_confirm_s):
    config = Config().with_overrides(camera=camera, game=game)
    runtime = TableRuntime(config, RunOptions(site=False), detector=FakeDetector(lambda image: []))
    try:
        assert runtime.service.camera_game.auto_confirm_s == auto_confirm_s
        assert runtime.loop is not None and runtime.loop.hold == runtime.service.hold
    finally:
        runtime.close()
