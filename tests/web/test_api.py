"""The JSON API: /api/state, /api/score, /api/read, corrections, and their errors (JSON, 4xx)."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.web.conftest import jpeg

# hand (with the winning tile), winning tile, flags -> han, fu, limit name, total
SCORE_CASES = [
    # riichi + tsumo + pinfu + tanyao, dealer: 4 han 20 fu = 2600 all
    ({"hand": "234m567p23488s678s", "win_tile": "8s", "tsumo": True, "riichi": True}, 4, 20, "", 7800),
    # a ron of Red dragons only on a pair wait, non-dealer: 20 + 10 closed ron + 8 + 2 tanki = 40 fu, 1 han = 1300
    ({"hand": "234m456p678s777z55s", "win_tile": "5s", "seat_wind": "S", "discarder": "E"}, 1, 40, "", 1300),
    # four concealed triplets by tsumo: yakuman (non-dealer 32000)
    ({"hand": "111m222p333s444z55z", "win_tile": "4z", "tsumo": True, "seat_wind": "W"}, None, None, "yakuman", 32000),
    # the 13-tile form (the winning tile is added): riichi ippatsu pinfu tanyao dora 1 = 5 han, dealer mangan
    (
        {"hand": "234m567p23488s67s", "win_tile": "5s", "flags": ["riichi", "ippatsu"], "dora": "4s"},
        5,
        30,
        "mangan",
        12000,
    ),
    # honba and sticks go to the winner: riichi pinfu tanyao 3 han 30 fu = 3900, + 2 honba + 1 stick
    (
        {
            "hand": "234m567p23488s678s",
            "win_tile": "8s",
            "riichi": True,
            "seat_wind": "S",
            "discarder": "W",
            "honba": 2,
            "sticks": 1,
        },
        3,
        30,
        "",
        3900 + 600 + 1000,
    ),
]


@pytest.mark.parametrize(("request_", "han", "fu", "limit", "total"), SCORE_CASES)
def test_score(client, request_, han, fu, limit, total):
    r = client.post("/api/score", json=request_)
    assert r.status_code == 200, r.json
    body = r.json
    assert body["is_win"]
    assert (body["limit_name"], body["total"]) == (limit, total)
    if han is not None:
        assert (body["han"], body["fu"]) == (han, fu)
    assert body["yaku"] and all({"name", "han", "name_ja"} <= set(y) for y in body["yaku"])


def test_score_no_yaku_is_a_result_not_an_error(client):
    # open hand with a terminal: no tanyao, no yaku
    r = client.post("/api/score", json={"hand": "567p23488s678s chi:123m", "win_tile": "8s", "seat_wind": "W"})
    assert r.status_code == 200
    assert (r.json["is_win"], r.json["reason"]) == (False, "no yaku")


def test_score_unknown_field(client):
    r = client.post("/api/score", json={"hand": "234m567p23488s678s", "win_tile": "8s", "hnad": 1})
    assert r.status_code == 400 and "hnad" in r.json["error"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "hand is required"),
        ({"hand": "123m"}, "win_tile"),
        ({"hand": "123x"}, "unknown character"),
        ({"hand": "11111m234p567s11z", "win_tile": "1z"}, "four of each kind"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "seat_wind": "Q"}, "wind"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "honba": -1}, "honba"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "riichi": "yes"}, "riichi"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["lucky"]}, "unknown flag"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": "mahjong soul"}, "unknown rule preset"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": {"kiriage": [1]}}, "true or false"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": {"no_such": True}}, "unknown rule option"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": {"game_length": "long"}}, "one of east"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": {"uma": [1, 2]}}, "4 whole numbers"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "rules": {"start_points": 1.5}}, "whole number"),
        ({"hand": "234m567p23488s678s", "win_tile": "1z"}, "win"),
        ({"hand": "234m567p23488s678s", "win_tile": "8s", "discarder": "E"}, "discarder"),
    ],
)
def test_score_bad_requests_are_400_json(client, body, message):
    r = client.post("/api/score", json=body)
    assert r.status_code == 400, r.json
    assert message in r.json["error"]


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{not json", "application/json"),
        ("[1, 2]", "application/json"),
        ("hand=1m", "text/plain"),
        ("", "application/json"),
    ],
)
def test_score_needs_a_json_object(client, data, content_type):
    r = client.post("/api/score", data=data, content_type=content_type)
    assert r.status_code == 400
    assert r.json["status"] == 400


def test_score_with_rules(client):
    hand = {
        "hand": "234m567p23488s678s",
        "win_tile": "8s",
        "riichi": True,
        "dora": "6s",
        "seat_wind": "S",
        "discarder": "E",
    }
    # 4 han 30 fu: 7700 normally, a kiriage mangan (8000) under wrc
    assert client.post("/api/score", json=hand | {"rules": "standard"}).json["total"] == 7700
    assert client.post("/api/score", json=hand | {"rules": "wrc"}).json["total"] == 8000
    kiriage = {"rules": {"preset": "standard", "kiriage": True}}
    assert client.post("/api/score", json=hand | kiriage).json["total"] == 8000


def test_state(client, service):
    body = client.get("/api/state").json
    assert set(body) >= {"seq", "table", "game", "camera", "corrections"}
    assert body["table"]["rules"] == "standard"


def test_read_a_complete_hand_scores_it(phone, detector):
    r = phone.post("/api/read", data={"image": (io.BytesIO(jpeg(800, 450)), "hand.jpg"), "tsumo": "true"})
    assert r.status_code == 200, r.json
    body = r.json
    assert body["tiles"] == "123m456p789s11222z"
    assert body["count"] == 14 and body["complete"]
    assert (body["width"], body["height"]) == (800, 450)
    assert body["score"]["is_win"] and body["score"]["tsumo"]
    assert [t["tile"] for t in body["read"]][:3] == ["1m", "2m", "3m"]
    assert body["frame_id"]


def test_read_an_incomplete_hand_gives_tiles_only(phone, detector):
    detector.text = "123m456p"
    body = phone.post("/api/read", data={"image": (io.BytesIO(jpeg(500, 700)), "hand.jpg")}).json
    assert (body["tiles"], body["complete"], body["score"]) == ("123m456p", False, None)


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"photo": (io.BytesIO(b"x"), "x.jpg")}, 400, "no image"),
        ({"image": (io.BytesIO(b""), "x.jpg")}, 400, "empty"),
        ({"image": (io.BytesIO(b"not an image at all"), "x.jpg")}, 400, "not a readable image"),
        ({"image": (io.BytesIO(b"\xff\xd8\xff\xe0" + b"\0" * 100), "x.jpg")}, 400, "image"),
        ({"image": (io.BytesIO(b"x" * (3 * 1024 * 1024)), "big.jpg")}, 413, "too large"),
        ({"image": (io.BytesIO(jpeg()), "x.jpg"), "honba": "many"}, 400, "honba"),
        ({"image": (io.BytesIO(jpeg()), "x.jpg"), "options": "{"}, 400, "options"),
        # the scoring options are checked before the photo is read, whatever it holds
        ({"image": (io.BytesIO(jpeg()), "x.jpg"), "options": '{"win_tile": "5x"}'}, 400, "win_tile"),
        ({"image": (io.BytesIO(jpeg()), "x.jpg"), "options": '{"riichi": "yes"}'}, 400, "riichi is true or false"),
        ({"image": (io.BytesIO(jpeg()), "x.jpg"), "seat_wind": "Q"}, 400, "seat_wind"),
    ],
)
def test_read_errors(phone, detector, data, status, message):
    r = phone.post("/api/read", data=data)
    assert r.status_code == status
    assert message in r.json["error"]


def test_read_needs_multipart(phone):
    assert phone.post("/api/read", json={"image": "x"}).status_code == 400


def test_read_without_a_detector_is_503(phone, service):
    service.photo_reader = None
    r = phone.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")})
    assert r.status_code == 503 and "detector" in r.json["error"]


def test_correction_kept_as_yolo_example(player, service):
    body = player.post("/api/read", data={"image": (io.BytesIO(jpeg(640, 480)), "x.jpg")}).json
    fid = body["frame_id"]
    r = player.post("/api/corrections", json={"frame_id": fid, "index": 2, "tile": "4m"})
    assert r.status_code == 200, r.json
    assert (r.json["before"], r.json["after"]) == ("3m", "4m")
    r = player.post("/api/corrections", json={"frame_id": fid, "index": 13, "tile": "none"})
    assert r.json["after"] == "none"
    labels = (service.corrections.root / "labels" / f"{fid}.txt").read_text().splitlines()
    assert len(labels) == 13  # one removed
    assert labels[2].split()[0] == "3"  # 4m is class 3
    assert (service.corrections.root / "images" / f"{fid}.jpg").read_bytes()[:2] == b"\xff\xd8"
    z = zipfile.ZipFile(io.BytesIO(player.get("/corrections/export.zip").data))
    names = set(z.namelist())
    assert {"data.yaml", "corrections.jsonl", f"images/{fid}.jpg", f"labels/{fid}.txt"} <= names
    assert "  37: 'back'" in z.read("data.yaml").decode()
    assert player.get("/api/corrections").json["corrections"] == 2


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"frame_id": "nope", "index": 0, "tile": "1m"}, 404),
        ({"frame_id": "", "index": 0, "tile": "1m"}, 400),
        ({"frame_id": "x", "index": -1, "tile": "1m"}, 400),
        ({"frame_id": "x", "index": True, "tile": "1m"}, 400),
        ({"frame_id": "x", "index": 0, "tile": "9z"}, 400),
        ({"frame_id": "x", "index": 0, "tile": 5}, 400),
    ],
)
def test_correction_errors(player, body, status):
    assert player.post("/api/corrections", json=body).status_code == status


def test_correction_index_out_of_range(player):
    fid = player.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")}).json["frame_id"]
    r = player.post("/api/corrections", json={"frame_id": fid, "index": 99, "tile": "1m"})
    assert r.status_code == 400 and "no tile 99" in r.json["error"]


def test_correction_needs_csrf(client):
    r = client.post("/api/corrections", json={"frame_id": "x", "index": 0, "tile": "1m"})
    assert r.status_code == 403


@pytest.mark.parametrize(("orientation", "size"), [(1, (640, 360)), (6, (360, 640)), (8, (360, 640))])
def test_read_honours_the_exif_orientation_of_phone_photos(phone, orientation, size):
    from tests.vision.fakes import with_exif_orientation

    photo = with_exif_orientation(jpeg(640, 360), orientation)
    body = phone.post("/api/read", data={"image": (io.BytesIO(photo), "phone.jpg")}).json
    assert (body["width"], body["height"]) == size


def test_corrected_rotated_photo_is_saved_upright(player, service):
    import cv2
    import numpy as np

    from tests.vision.fakes import with_exif_orientation

    photo = with_exif_orientation(jpeg(640, 360), 6)
    fid = player.post("/api/read", data={"image": (io.BytesIO(photo), "player.jpg")}).json["frame_id"]
    assert player.post("/api/corrections", json={"frame_id": fid, "index": 0, "tile": "9m"}).status_code == 200
    saved = (service.corrections.root / "images" / f"{fid}.jpg").read_bytes()
    img = cv2.imdecode(np.frombuffer(saved, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape[:2] == (640, 360)  # upright, as the labels are


def test_too_many_photos_at_once_is_429(phone, service):
    for _ in range(3):
        assert service.photos._reads.acquire(blocking=False)  # three reads in progress
    try:
        r = phone.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")})
        assert r.status_code == 429 and r.headers["Retry-After"] == "2"
    finally:
        for _ in range(3):
            service.photos._reads.release()
    assert phone.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")}).status_code == 200


@pytest.mark.parametrize(
    ("hand", "reason"),
    [
        # a chi written with its called tile first (engine/hand.py notation) reads as the same meld
        ("567p23488s678s chi:213m", "no yaku"),
        ("567p23488s678s chi:123m", "no yaku"),
        ("234p23488s678s chi:324m", ""),  # open tanyao
    ],
)
def test_chi_notation_with_the_called_tile_first(client, hand, reason):
    r = client.post("/api/score", json={"hand": hand, "win_tile": "8s", "seat_wind": "W"})
    assert r.json["reason"] == reason
