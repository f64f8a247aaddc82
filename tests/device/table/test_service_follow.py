"""The table service follows the game from the camera: ``observe(reading)`` with a table and ``hold()`` feed its
camera game, ``set_camera_seat`` and ``camera_action`` answer the phones, ``state()["follow"]`` (and the ``state``
message, the one place the camera game's state is published) shows it. Readings are real ``Reading`` s of an 800x600
frame whose table is built from mpsz text (``tests/vision/read/table_frames.py``).
"""

from __future__ import annotations

import pytest

from device.table.camera_game import NothingPending
from device.table.service import TableService
from engine.errors import IllegalAction
from engine.game.events import Discard, Draw, HandStart
from engine.tiles import Tile
from tests.device.table.test_camera_game import FIRST_GO, HOLDS, WIN, Clock, detections_of, ponds_of, script
from tests.vision.read.table_frames import B, table
from tests.web.conftest import reading_of
from vision.read.table import TableObservation
from web.hand_request import BadRequest


def play(svc: TableService, frames: list[TableObservation | None]) -> None:
    for frame in frames:
        svc.observe(reading_of(detections_of(frame), frame))
        for _ in range(HOLDS):
            svc.hold()


@pytest.fixture
def svc(tmp_path):
    service = TableService(pin="123456", corrections_dir=str(tmp_path / "corrections"))
    yield service
    service.close()


def follow(svc: TableService) -> dict:
    return svc.state()["follow"]


def test_readings_with_a_table_play_the_hand_into_the_game(svc):
    sub = svc.bus.subscribe()
    play(svc, script("B:1z R:9p"))
    game = svc.game.game
    assert game.events == [
        HandStart(dora_indicator=Tile.parse("4p")),
        Draw(0),
        Discard(0, Tile.parse("1z")),
        Draw(1),
        Discard(1, Tile.parse("9p")),
    ]
    state = follow(svc)
    assert [e["text"] for e in state["events"]] == [
        "East 1: a new deal, dora indicator 4p",
        "Seat 1 (E) discards 1z",
        "Seat 2 (S) discards 9p",
    ]
    assert state["events"][1]["frame_id"] is not None  # the stored frame it was read in
    messages = sub.next(timeout=0)
    # each change published once: a frame as ``camera`` (the reading alone), each move it makes as ``state``
    assert [m.kind for m in messages] == ["camera", "state"] * 3
    assert all("follow" not in m.data for m in messages if m.kind == "camera")
    assert messages[-1].data["follow"] == state and "follow" not in messages[-1].data["camera"]
    assert svc.state()["game"]["seats"][0]["pond"][0]["tile"] == "1z"


def test_the_camera_game_stores_its_moves_through_the_game_session(svc, monkeypatch):
    """The camera game writes the game as the phones do, through the session (its lock, its one writer), never
    straight into the session's store."""
    stored = []
    append_all = svc.game.append_all
    monkeypatch.setattr(svc.game, "append_all", lambda events: stored.append(tuple(events)) or append_all(events))
    play(svc, script("B:1z R:9p"))
    assert [e for events in stored for e in events] == svc.game.game.events  # every event, the hand start too
    assert stored[-1] == (Draw(1), Discard(1, Tile.parse("9p")))


def test_a_reading_without_a_table_leaves_the_game_alone(svc):
    play(svc, [None, None])
    assert svc.game.game.events == [] and svc.state()["follow"]["events"] == []


@pytest.mark.parametrize("seat", [2, None])  # the site checks the seat (tests/web/test_camera_routes.py)
def test_the_camera_seat_set_from_a_phone(svc, seat):
    assert svc.set_camera_seat(seat)["camera_seat"] == seat
    play(svc, script("T:1z" if seat == 2 else "B:1z"))  # the dealer (seat 0) sits across from seat 2
    assert svc.game.game.events[-1] == Discard(0, Tile.parse("1z"))
    assert follow(svc)["camera_seat"] == seat
    named = svc.state()["camera"]["table_view"]
    assert named["named_by"] == ("camera" if seat is None else "game")


@pytest.mark.parametrize(
    ("action", "event_id", "tile", "seat", "message"),
    # what the game says no to; the request itself is checked by the site (tests/web/test_camera_routes.py)
    [
        ("undo", 99, None, None, "no camera event 99"),
        ("fix", 99, "5m", None, "no camera event 99"),
        ("fix", 1, None, 2, "no seat to fix"),  # the hand start
    ],
)
def test_camera_actions_the_game_refuses_are_bad_requests(svc, action, event_id, tile, seat, message):
    play(svc, script("B:1z"))
    with pytest.raises(BadRequest, match=message):
        svc.camera_action(action, event_id, None if tile is None else Tile.parse(tile), seat)


def test_undo_and_fix_from_a_phone(svc):
    play(svc, script("B:1z R:9p"))
    ids = [e["id"] for e in follow(svc)["events"]]
    fixed = svc.camera_action("fix", ids[2], Tile.parse("8p"))
    assert fixed["event"]["event"] == {
        "type": "discard",
        "seat": 1,
        "tile": "8p",
        "tsumogiri": None,
        "riichi": False,
        "open_riichi": False,
    }
    assert svc.game.game.events[-1] == Discard(1, Tile.parse("8p"))
    assert svc.corrections.summary()["corrections"] == 1  # the frame's tile fixed too: a training example
    undone = svc.camera_action("undo", ids[1])
    assert [e["id"] for e in undone["events"]] == ids[:1]
    assert svc.game.game.events == [HandStart(dora_indicator=Tile.parse("4p"))]


def test_a_win_confirmed_from_a_phone_moves_the_points(svc):
    play(svc, [*script(FIRST_GO), table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})])
    pending = follow(svc)["pending"]
    assert pending["kind"] == "tsumo" and pending["preview"]["deltas"] == [25000, -8000, -8000, -8000]
    assert svc.camera_action("dismiss")["pending"] is None
    with pytest.raises(NothingPending):
        svc.camera_action("dismiss")
    play(svc, [table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})])
    assert follow(svc)["pending"] is None  # dismissed: the same hand does not propose it again
    svc.camera_action("resync")  # the table as it is now: the hand laid open is seen afresh
    play(svc, [table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})])
    confirmed = svc.camera_action("confirm")
    assert confirmed["result"]["deltas"] == [25000, -8000, -8000, -8000]
    game = svc.state()["game"]
    assert [s["points"] for s in game["seats"]] == [49000, 17000, 17000, 17000]
    assert game["history"][-1]["outcome"] == "tsumo"
    with pytest.raises(IllegalAction):
        svc.camera_action("confirm")


def test_the_service_confirms_a_win_by_itself_after_auto_confirm_s(tmp_path):
    clock = Clock()
    svc = TableService(pin="123456", auto_confirm_s=3.0, clock=clock)
    try:
        play(svc, [*script(FIRST_GO), table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})])
        assert follow(svc)["pending"]["auto_confirm_at"] == clock.now + 3.0
        clock.now += 3.0
        svc.hold()
        assert svc.state()["game"]["history"][-1]["deltas"] == [25000, -8000, -8000, -8000]
    finally:
        svc.close()


def test_a_new_game_forgets_the_hand_followed(svc):
    play(svc, script("B:1z"))
    svc.new_game(svc.rules, ["", "", "", ""])
    assert follow(svc)["events"] == [] and follow(svc)["status"] == "waiting_for_deal"
    play(svc, [table({}, dora="4p"), table({B: "1z"}, dora="4p")])  # the next deal, seen afresh
    assert svc.game.game.events[-1] == Discard(0, Tile.parse("1z"))
    assert [e["event"]["type"] for e in follow(svc)["events"]] == ["hand_start", "discard"]
