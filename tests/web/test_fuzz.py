"""Fuzzing the JSON and multipart endpoints: whatever arrives, the answer is JSON with a 2xx or 4xx status
(never a 500), and a refused request changes nothing."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.table.service import TableService
from tests.web.conftest import PIN, Phone, ScriptedDetector, jpeg
from vision.read.pipeline import Reader
from web import create_app

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)
FIELDS = [
    "hand",
    "win_tile",
    "tsumo",
    "ron",
    "seat_wind",
    "round_wind",
    "flags",
    "dora",
    "ura",
    "honba",
    "sticks",
    "discarder",
    "rules",
    "riichi",
    "ippatsu",
    "winner",
    "discarder_seat",
    "tenpai",
    "reason",
    "seat",
    "names",
    "type",
    "tile",
    "double",
    "frame_id",
    "index",
    "hands",
    "claims",
]
MPSZ = st.text(alphabet="0123456789mpsz :/LARchiponkaq", max_size=40)
plausible = st.dictionaries(
    st.sampled_from(FIELDS),
    json_values | MPSZ | st.sampled_from(["E", "S", "1m", "5z", "0p", "standard", "wrc"]) | st.integers(-2, 5),
    max_size=8,
)

_APP = {}


def phone() -> tuple[Phone, TableService]:
    """One app for the whole module (hypothesis runs many examples); a fresh unlocked phone each time."""
    if not _APP:
        svc = TableService(pin=PIN, photo_reader=Reader.around(ScriptedDetector()))
        _APP["svc"] = svc
        # every example joins afresh from the test client's one address: no joins-a-minute limit here
        _APP["app"] = create_app(
            {"TESTING": True, "MAX_CONTENT_LENGTH": 256 * 1024, "JANTAKU_JOINS_PER_MINUTE": 10**9}, svc
        )
    p = Phone(_APP["app"].test_client())
    assert p.unlock().status_code == 303
    return p, _APP["svc"]


def check(r) -> None:
    assert r.status_code < 500, r.get_data(as_text=True)
    assert r.is_json, r.get_data(as_text=True)[:200]
    if r.status_code >= 400:
        assert isinstance(r.json["error"], str) and r.json["error"]


@FUZZ
@given(body=st.one_of(plausible, json_values))
def test_score_never_fails(body):
    p, _ = phone()
    check(p.post("/api/score", json=body))


@FUZZ
@given(
    raw=st.binary(max_size=200),
    ctype=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
)
def test_score_with_raw_bytes(raw, ctype):
    p, _ = phone()
    r = p.post("/api/score", data=raw, content_type=ctype)
    check(r)
    assert r.status_code == 400 or r.status_code == 200


ACTIONS = ["win", "draw", "abort", "chombo", "riichi", "event", "new"]


@FUZZ
@given(action=st.sampled_from(ACTIONS), body=st.one_of(plausible, json_values))
def test_game_actions_refused_change_nothing(action, body):
    p, svc = phone()
    before = json.dumps(svc.export_game(), sort_keys=True)
    r = p.post(f"/api/game/{action}", json=body)
    check(r)
    if r.status_code != 200:
        assert json.dumps(svc.export_game(), sort_keys=True) == before
    elif svc.game.game.over or len(svc.game.game.events) > 40:
        svc.game.new(svc.rules, ("East", "South", "West", "North"))


@FUZZ
@given(
    action=st.sampled_from([*ACTIONS, "undo"]),
    pin=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=14),
    body=plausible,
)
def test_wrong_pin_changes_nothing(action, pin, body):
    p, svc = phone()
    p.post("/leave")
    before = json.dumps(svc.export_game(), sort_keys=True)
    headers = {"X-CSRF-Token": p.token}
    if pin != PIN:
        headers["X-Table-PIN"] = pin
        r = p.client.post(f"/api/game/{action}", json=body, headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.9"})
        check(r)
        assert r.status_code in (403, 429)
        assert json.dumps(svc.export_game(), sort_keys=True) == before


@FUZZ
@given(
    data=st.one_of(st.binary(max_size=2000), st.just(jpeg(64, 48)).map(lambda b: b[: len(b) // 2])),
    field=st.sampled_from(["image", "photo", "file"]),
    extra=st.dictionaries(
        st.sampled_from(["win_tile", "tsumo", "honba", "options", "riichi", "rules", "dora"]),
        st.text(max_size=20),
        max_size=3,
    ),
)
def test_read_with_junk_uploads(data, field, extra):
    p, svc = phone()
    before = json.dumps(svc.export_game(), sort_keys=True)
    form = {field: (io.BytesIO(data), "upload.jpg"), **extra}
    r = p.post("/api/read", data=form)
    check(r)
    assert 400 <= r.status_code < 500
    assert json.dumps(svc.export_game(), sort_keys=True) == before


@FUZZ
@given(
    extra=st.dictionaries(
        st.sampled_from(
            ["win_tile", "tsumo", "honba", "sticks", "options", "riichi", "rules", "dora", "seat_wind", "discarder"]
        ),
        st.text(max_size=20),
        max_size=4,
    )
)
def test_read_with_odd_options(extra):
    p, _ = phone()
    r = p.post("/api/read", data={"image": (io.BytesIO(jpeg(96, 64)), "x.jpg"), **extra})
    check(r)
    if r.status_code == 200:
        assert r.json["count"] == 14


def test_oversized_upload_is_413_and_changes_nothing():
    p, svc = phone()
    before = json.dumps(svc.export_game(), sort_keys=True)
    r = p.post("/api/read", data={"image": (io.BytesIO(b"\xff\xd8" + b"\0" * 300 * 1024), "big.jpg")})
    check(r)
    assert r.status_code == 413
    assert json.dumps(svc.export_game(), sort_keys=True) == before


@FUZZ
@given(
    body=st.one_of(
        plausible,
        json_values,
        st.fixed_dictionaries({"hand": MPSZ}, optional={"seat": st.integers(-1, 4) | json_values}),
    )
)
def test_waits_never_fail(body):
    p, svc = phone()
    before = json.dumps(svc.export_game(), sort_keys=True)
    check(p.post("/api/waits", json=body))
    assert json.dumps(svc.export_game(), sort_keys=True) == before


@FUZZ
@given(body=st.one_of(plausible, json_values))
def test_corrections_never_fail(body):
    p, _ = phone()
    check(p.post("/api/corrections", json=body))
