"""``GET /events``: the whole state first, then each change, heartbeats when idle, resume with Last-Event-ID."""

from __future__ import annotations

import json
import threading
import time

from tests.web.conftest import reading_of


def frames(text: str) -> list[dict]:
    """Parse an SSE body into its frames: {"id", "event", "data"} (comments and retry lines skipped)."""
    out = []
    for block in text.split("\n\n"):
        frame: dict = {}
        for line in block.splitlines():
            key, _, value = line.partition(": ")
            if key in ("id", "event"):
                frame[key] = value
            elif key == "data":
                frame["data"] = json.loads(value)
        if "event" in frame:
            out.append(frame)
    return out


def when_subscribed(service, action):
    """Run ``action`` in a thread as soon as a client has opened its stream."""

    def run():
        deadline = time.monotonic() + 10
        while service.bus.subscribers == 0 and time.monotonic() < deadline:
            time.sleep(0.005)
        action()

    t = threading.Thread(target=run)
    t.start()
    return t


def test_stream_starts_with_the_state_then_pushes_changes(client, service):
    when_subscribed(service, lambda: service.observe(reading_of("123m 55z")))
    r = client.get("/events")
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache"
    got = frames(r.get_data(as_text=True))  # the stream ends after JANTAKU_STREAM_MAX_S (0.5 s in tests)
    kinds = [f["event"] for f in got]
    assert kinds[0] == "state" and set(got[0]["data"]) >= {"game", "camera", "seq"}
    camera = [f for f in got if f["event"] == "camera"]
    assert camera and camera[0]["data"]["rows"] == ["123m", "55z"]
    assert "heartbeat" in kinds  # 0.05 s heartbeat in tests


def test_resume_with_last_event_id_replays_what_was_missed(client, service):
    service.observe(reading_of("1m"))
    seen = service.bus.seq
    service.observe(reading_of("2m"))
    service.observe(reading_of("3m"))
    got = frames(client.get("/events", headers={"Last-Event-ID": str(seen)}).get_data(as_text=True))
    assert [f["data"]["rows"] for f in got if f["event"] == "camera"] == [["2m"], ["3m"]]
    assert got[0]["event"] == "camera"  # no full state needed
    assert int(got[0]["id"]) == seen + 1


def test_a_client_too_far_behind_gets_the_whole_state(client, service):
    for i in range(300):  # more than the backlog
        service.observe(reading_of(f"{i % 9 + 1}p"))
    got = frames(client.get("/events?last_id=1").get_data(as_text=True))
    assert got[0]["event"] == "state"


def test_game_changes_are_pushed(app, service, player):
    received = []

    def listen():
        received.append(app.test_client().get("/events").get_data(as_text=True))

    done = []
    when_subscribed(service, lambda: done.append(player.post("/api/game/riichi", json={"seat": 1}).status_code))
    listen()
    assert done == [200]
    states = [f for f in frames(received[0]) if f["event"] == "state"]
    assert states[-1]["data"]["game"]["sticks"] == 1


def test_too_many_streams_is_429(client, service):
    service.bus.max_subscribers = 0
    r = client.get("/events")
    assert r.status_code == 429 and r.json["error"].startswith("the table already has")
