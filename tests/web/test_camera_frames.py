"""``GET /api/camera/frame/<frame_id>.jpg``: the picture of the frame a contradiction was seen in, served to any
phone on the table's network (no PIN, like every read), and nothing else: an id not kept is a 404 in JSON.

Over the real TableService, its camera game fed the loop's readings (tests/device/table/test_service_clash_frames).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.table.service import TableService
from tests.device.table.test_service_clash_frames import observe, play
from tests.web.conftest import PIN
from web import create_app


@pytest.fixture
def service(tmp_path):
    svc = TableService(pin=PIN, db_path=str(tmp_path / "game.db"), corrections_dir=str(tmp_path / "corr"))
    svc.new_game(svc.rules, ["Ann", "Bo", "Cy", "Di"])
    last = play(svc, "B:1z T:4z")  # a discard out of turn at the top ...
    observe(svc, last)  # ... and the table as it is, read again: another frame, no other contradiction
    yield svc
    svc.close()


@pytest.fixture
def client(service):
    return create_app({"TESTING": True}, service).test_client()


def clash_frame_id(client) -> str:
    [clash] = client.get("/api/state").json["follow"]["contradictions"]
    assert clash["image"] is True
    return clash["frame_id"]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_contradictions_frame_is_served_as_a_jpeg_without_the_pin(client, method):
    frame_id = clash_frame_id(client)
    r = client.open(f"/api/camera/frame/{frame_id}.jpg", method=method)
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    assert r.headers["Cache-Control"] == "no-cache" and r.headers["ETag"]
    if method == "GET":
        picture = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape[:2] == (767, 1024)


def test_a_picture_unchanged_is_not_sent_again(client):
    frame_id = clash_frame_id(client)
    first = client.get(f"/api/camera/frame/{frame_id}.jpg")
    again = client.get(f"/api/camera/frame/{frame_id}.jpg", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


@pytest.mark.parametrize(
    "path",
    [
        "/api/camera/frame/nope.jpg",  # never kept
        "/api/camera/frame/{seen}.jpg",  # the frame the camera sees now: no contradiction in it
        "/api/camera/frame/{clash}.png",  # the kept frame, but not as a .jpg
        "/api/camera/frame/..%2Fcorr%2Fimages%2F{seen}.jpg",  # a path in the id reaches no file
        "/api/camera/frame/{clash}.jpg.jpg",
        "/api/camera/frame/.jpg",
    ],
)
def test_any_other_id_is_a_404_in_json(client, service, path):
    clash = clash_frame_id(client)
    seen = service.state()["camera"]["frame_id"]
    assert seen != clash
    service.corrections.correct(seen, 0, None)  # the frame now seen kept as a training example, on disk
    r = client.get(path.format(seen=seen, clash=clash))
    assert r.status_code == 404 and r.is_json and r.json["status"] == 404, r.data[:200]


def test_a_state_without_contradictions_offers_no_picture(tmp_path):
    svc = TableService(pin=PIN)
    svc.new_game(svc.rules, ["", "", "", ""])
    try:
        play(svc, "B:1z R:9p")
        client = create_app({"TESTING": True}, svc).test_client()
        assert client.get("/api/state").json["follow"]["contradictions"] == []
        frame_id = svc.state()["camera"]["frame_id"]
        assert client.get(f"/api/camera/frame/{frame_id}.jpg").status_code == 404
    finally:
        svc.close()
