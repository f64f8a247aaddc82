"""The camera's whole-table reading as the live page consumes it: seats named, dora given by the server."""

from __future__ import annotations

import dataclasses

import pytest

from device.table.service import TableService
from device.table.table_labels import table_labels
from engine.game.events import DeclaredDraw
from tests.vision.read.test_table import FRAME, FULL, lay
from tests.web.conftest import reading_of
from tests.web.test_events import frames
from vision.read.table import FrameSide, read_table


def table_with(indicators: str):
    """The test table of the reader's tests, its dead wall (left seat) showing ``indicators``."""
    seats = dict(FULL)
    seats[FrameSide.LEFT] = dataclasses.replace(seats[FrameSide.LEFT], indicators=indicators)
    return read_table(lay(seats), FRAME)


@pytest.mark.parametrize(
    ("indicators", "dora"),
    [
        ("3p", ["4p"]),  # the next number
        ("9m", ["1m"]),  # 9 wraps to 1
        ("4z", ["1z"]),  # North wraps to East
        ("7z", ["5z"]),  # Red dragon wraps to White
        ("0m", ["6m"]),  # a red five points to the six
        ("9m4z7z0m", ["1m", "1z", "5z", "6m"]),  # several (kan dora), in the order laid
    ],
)
def test_dora_from_the_indicators_the_camera_reads(client, service, indicators, dora):
    table = table_with(indicators)
    service.observe(reading_of("123m", table))
    cam = client.get("/api/state").json["camera"]
    assert cam["table"]["dora_indicators"] == table.as_json()["dora_indicators"]  # the reading, unchanged
    pairs = cam["table_view"]["dora"]
    assert [p["indicator"] for p in pairs] == [str(t) for t in table.dora_indicators]
    assert [p["dora"] for p in pairs] == dora


def test_the_event_stream_carries_the_same_view(client, service):
    service.observe(reading_of("123m", table_with("9m")))
    state = next(f["data"] for f in frames(client.get("/events").get_data(as_text=True)) if f["event"] == "state")
    assert state["camera"]["table_view"]["dora"] == [{"indicator": "9m", "dora": "1m"}]
    sub = service.bus.subscribe()
    service.observe(reading_of("123m", table_with("7z")))
    (msg,) = sub.next(timeout=0)
    assert msg.kind == "camera" and msg.data["table_view"]["dora"] == [{"indicator": "7z", "dora": "5z"}]


def test_seats_named_by_the_camera_when_the_service_does_not_know_who_sits_where(client, service):
    service.observe(reading_of("123m", table_with("3p")))
    view = client.get("/api/state").json["camera"]["table_view"]
    assert view["named_by"] == "camera"
    assert [(s["side"], s["label"], s["seat"]) for s in view["seats"]] == [
        ("bottom", "near", None),
        ("right", "right", None),
        ("top", "far", None),
        ("left", "left", None),
    ]


@pytest.mark.parametrize(
    ("camera_seat", "labels"),
    [
        # seats follow the order of play counter-clockwise: the camera's right edge holds the next seat
        (0, ["East · Ann", "South · Bo", "West · Cy", "North · Di"]),
        (2, ["West · Cy", "North · Di", "East · Ann", "South · Bo"]),
    ],
)
def test_seats_named_by_the_game_when_the_camera_seat_is_set(client, service, camera_seat, labels):
    service.new_game(service.rules, ["Ann", "Bo", "Cy", "Di"])
    service.set_camera_seat(camera_seat)
    service.observe(reading_of("123m", table_with("3p")))
    view = client.get("/api/state").json["camera"]["table_view"]
    assert view["named_by"] == "game" and [s["label"] for s in view["seats"]] == labels
    assert [s["seat"] for s in view["seats"]] == [(camera_seat + k) % 4 for k in range(4)]


def test_seat_winds_follow_the_dealer(client, service):
    service.new_game(service.rules, ["Ann", "Bo", "Cy", "Di"])
    service.set_camera_seat(0)
    service.record(DeclaredDraw((False, True, False, False)))  # the dealer was noten: the deal moves on
    service.observe(reading_of("123m", table_with("3p")))
    labels = [s["label"] for s in client.get("/api/state").json["camera"]["table_view"]["seats"]]
    assert labels == ["North · Ann", "East · Bo", "South · Cy", "West · Di"]


def test_no_table_no_view(client, service):
    service.observe(reading_of("123m"))
    cam = client.get("/api/state").json["camera"]
    assert cam["table"] is None and cam["table_view"] is None


@pytest.mark.parametrize("seat", [4, -1, "x", True, 1.5])
def test_a_camera_seat_that_is_no_seat_is_refused(seat):
    with pytest.raises(ValueError, match=r"0\.\.3"):
        TableService(pin="123456", camera_seat=seat)


def test_a_table_whose_indicators_are_not_tiles_is_refused():
    with pytest.raises(ValueError):
        table_labels({"seats": [], "dora_indicators": "9x"}, None, None)
    assert table_labels(None, None, None) is None
