"""The camera's game from the phones: the camera's seat and the actions on what it proposed, PIN-guarded like every
game write (CSRF, PIN, idempotency keys), bad bodies 400, actions the rules refuse 409, all as JSON."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from tests.web.conftest import PIN
from tests.web.follow_fake import CameraAction, FollowingService, camera_event
from vision.read.pipeline import Reader

#: A ron the camera saw: riichi pinfu tanyao, seat 2 on the dealer's 8s (3,900).
RON = {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["riichi"]}

#: Each write, its body, and the call the service gets.
WRITES = [
    ("/api/camera/seat", {"seat": 2}, ("seat", 2)),
    ("/api/camera/seat", {"seat": 0}, ("seat", 0)),
    ("/api/camera/seat", {"seat": None}, ("seat", None)),  # not known any more
    ("/api/camera/undo", {"id": 1}, ("undo", {"id": 1})),
    ("/api/camera/fix", {"id": 1, "tile": "0p"}, ("fix", {"id": 1, "tile": "0p"})),
    ("/api/camera/fix", {"id": 0, "tile": "7z", "seat": 3}, ("fix", {"id": 0, "tile": "7z", "seat": 3})),
    ("/api/camera/fix", {"id": 0, "seat": 3}, ("fix", {"id": 0, "seat": 3})),  # another seat, the same tile
    ("/api/camera/resync", {}, ("resync", {})),
    ("/api/camera/confirm", {}, ("confirm", {})),
    ("/api/camera/dismiss", {}, ("dismiss", {})),
]


@pytest.fixture
def service(detector, tmp_path):
    svc = FollowingService(
        pin=PIN,
        photo_reader=Reader.around(detector),
        db_path=str(tmp_path / "game.db"),
        corrections_dir=str(tmp_path / "corr"),
    )
    svc.follow["events"] = [
        camera_event(0, "Seat 1 discards 1z", {"type": "discard", "seat": 0, "tile": "1z"}, "f-0"),
        camera_event(1, "Seat 2 discards 5p", {"type": "discard", "seat": 1, "tile": "5p"}, "f-1"),
    ]
    svc.follow["contradictions"] = [
        {
            "clash": "vanished",
            "seat": 2,
            "side": "top",
            "frame_id": "f-2",
            "detail": "a pond tile vanished",
            "frame": None,
        }
    ]
    svc.pend_win(RON)
    yield svc
    svc.close()


@pytest.mark.parametrize(("url", "body", "call"), WRITES)
def test_a_joined_phone_is_heard(player, service, url, body, call):
    r = player.post(url, json=body)
    assert r.status_code == 200, r.json
    assert service.calls == [call]
    assert r.json["ok"] is True
    assert r.json["state"]["follow"] == service.follow  # the answer carries the state after it


@pytest.mark.parametrize(("url", "body", "call"), WRITES[:1] + WRITES[3:4])
def test_the_pin_in_a_header_is_heard(phone, service, url, body, call):
    r = phone.post(url, json=body, headers={"X-Table-PIN": PIN})
    assert r.status_code == 200, r.json
    assert service.calls == [call]


@pytest.mark.parametrize(("url", "body", "_call"), WRITES)
@pytest.mark.parametrize(
    ("who", "headers", "error"),
    [
        ("guest", {}, "PIN"),  # a phone that has not joined
        ("guest", {"X-Table-PIN": "0000"}, "PIN"),  # a wrong PIN
        ("player", {"X-CSRF-Token": "forged"}, "CSRF"),  # another site posting through a joined phone
    ],
)
def test_refused_without_the_pin_or_the_token(phone, player, service, url, body, _call, who, headers, error):
    client = {"guest": phone, "player": player}[who]
    before = service.export_game()
    r = client.post(url, json=body, headers=dict(headers))  # Phone.post adds its token to the dict it is given
    assert r.status_code == 403 and r.is_json and error in r.json["error"]
    assert service.calls == [] and service.export_game() == before


@pytest.mark.parametrize(
    ("url", "body", "error"),
    [
        ("/api/camera/seat", {"seat": 4}, "seat is a seat, 0..3"),
        ("/api/camera/seat", {"seat": -1}, "seat is a seat, 0..3"),
        ("/api/camera/seat", {"seat": True}, "seat is a seat, 0..3"),  # JSON true is no seat number
        ("/api/camera/seat", {"seat": "1"}, "seat is a seat, 0..3"),
        ("/api/camera/seat", {"seat": 1.0}, "seat is a seat, 0..3"),
        ("/api/camera/seat", {}, "needs seat"),
        ("/api/camera/seat", {"seat": 1, "side": "top"}, "unknown field(s) for the camera's seat: side"),
        ("/api/camera/explode", {}, "unknown camera action 'explode'"),
        ("/api/camera/undo", {}, "undo needs id"),
        ("/api/camera/undo", {"id": "1"}, "id is the camera event's id"),
        ("/api/camera/undo", {"id": True}, "id is the camera event's id"),
        ("/api/camera/undo", {"id": -2}, "id is the camera event's id"),
        ("/api/camera/undo", {"id": 1, "tile": "5m"}, "unknown field(s) for undo: tile"),
        ("/api/camera/fix", {"id": 1}, "a fix names a tile, a seat or both"),
        ("/api/camera/fix", {"id": 1, "tile": "55m"}, "tile: expected one tile"),
        ("/api/camera/fix", {"id": 1, "tile": "8z"}, "tile: honour tiles are 1z..7z"),
        ("/api/camera/fix", {"id": 1, "tile": 5}, "tile is one tile in mpsz"),
        ("/api/camera/fix", {"id": 1, "tile": "5m", "seat": 4}, "seat is a seat, 0..3"),
        ("/api/camera/confirm", {"now": True}, "unknown field(s) for confirm: now"),
        ("/api/camera/resync", {"frame_id": "f-2"}, "unknown field(s) for resync: frame_id"),
        ("/api/camera/dismiss", [], "the body is a JSON object"),
        ("/api/camera/seat", "2", "the body is a JSON object"),
    ],
)
def test_a_bad_body_is_a_400_that_says_why(player, service, url, body, error):
    r = player.post(url, json=body)
    assert r.status_code == 400 and r.is_json, r.get_data(as_text=True)
    assert error in r.json["error"]
    assert service.calls == []


@pytest.mark.parametrize(
    ("data", "content_type", "error"),
    [
        ("seat=2", "application/x-www-form-urlencoded", "send JSON"),
        ("{seat: 2}", "application/json", "not valid JSON"),
    ],
)
def test_a_body_that_is_no_json_object_is_a_400(player, service, data, content_type, error):
    r = player.post("/api/camera/seat", data=data, content_type=content_type)
    assert r.status_code == 400 and error in r.json["error"]
    assert service.calls == []


@pytest.mark.parametrize(
    ("url", "body", "refused", "error"),
    [
        ("/api/camera/confirm", {}, "nothing is pending", "CameraAction refused: nothing is pending"),
        ("/api/camera/undo", {"id": 0}, "the hand has ended", "CameraAction refused: the hand has ended"),
        ("/api/camera/fix", {"id": 1, "tile": "5m"}, "5m: a fifth 5m", "CameraAction refused: 5m: a fifth 5m"),
    ],
)
def test_refused_by_the_rules_is_a_409(player, service, url, body, refused, error):
    service.refuse[url.rsplit("/", 1)[1]] = refused
    before = service.export_game()
    r = player.post(url, json=body)
    assert r.status_code == 409 and r.is_json and r.json == {"error": error, "status": 409}
    assert service.export_game() == before


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ValueError("a dora_flip has no seat to fix"), 400),  # any value the camera game cannot take
        (IllegalAction(CameraAction("fix"), "the fixed event is refused", "5p: a fifth 5p"), 409),
    ],
)
def test_what_the_camera_game_raises_is_a_json_error(player, service, monkeypatch, error, status):
    def raising(action, event_id=None, tile=None, seat=None):
        raise error

    monkeypatch.setattr(service, "camera_action", raising)
    r = player.post("/api/camera/fix", json={"id": 0, "tile": "5p", "seat": 1})
    assert r.status_code == status and r.json == {"error": str(error), "status": status}


def test_an_event_the_service_does_not_hold_is_a_400_not_a_500(player, service):
    r = player.post("/api/camera/undo", json={"id": 99})
    assert r.status_code == 400 and "no camera event 99" in r.json["error"]


def test_a_retried_confirm_with_the_same_key_confirms_once(player, service):
    key = {"Idempotency-Key": "confirm-ron-1"}
    first = player.post("/api/camera/confirm", json={}, headers=key)
    assert first.status_code == 200, first.json
    points = [s["points"] for s in first.json["state"]["game"]["seats"]]
    assert points == [21100, 28900, 25000, 25000]  # the ron moved the points
    again = player.post("/api/camera/confirm", json={}, headers=key)  # the answer was lost: sent again
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert service.calls == [("confirm", {})]
    assert [s["points"] for s in service.state()["game"]["seats"]] == points
    # without the key the second confirm reaches the service, which has nothing pending now
    assert player.post("/api/camera/confirm", json={}).status_code == 409


def test_a_refusal_is_replayed_too(player, service):
    service.refuse["undo"] = "the hand has ended"
    key = {"Idempotency-Key": "undo-0"}
    assert player.post("/api/camera/undo", json={"id": 0}, headers=key).status_code == 409
    service.refuse.clear()
    again = player.post("/api/camera/undo", json={"id": 0}, headers=key)
    assert again.status_code == 409 and again.headers["Idempotent-Replayed"] == "true"
    assert service.calls == [("undo", {"id": 0})]


def test_the_follow_state_reaches_the_event_stream(player, service):
    sub = service.bus.subscribe()
    assert player.post("/api/camera/seat", json={"seat": 3}).status_code == 200
    [message] = sub.next(timeout=0)  # once: the state message carries the camera game's state
    assert message.kind == "state" and message.data["follow"]["camera_seat"] == 3
    assert player.get("/api/state").json["follow"]["camera_seat"] == 3
