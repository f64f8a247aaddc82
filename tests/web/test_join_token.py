"""Joining that no stranger can close: the QR code's join token (no PIN, no lock), the PIN slowed per address only,
the PIN proved by challenge (never sent), bursts of joins that log no phone out, sessions kept across restarts."""

from __future__ import annotations

import re

import pytest

from device.table.pin import pin_proof
from device.table.service import TableService
from tests.web.conftest import Phone
from web import create_app

PIN = "482913"


def make_app(service: TableService, **config):
    return create_app({"TESTING": True, **config}, service)


@pytest.fixture
def service(tmp_path):
    svc = TableService(pin=PIN, db_path=str(tmp_path / "table.db"))
    yield svc
    svc.close()


def phone_at(app, address: str) -> Phone:
    phone = Phone(app.test_client())
    phone.client.environ_base["REMOTE_ADDR"] = address
    return phone


def writes(phone: Phone) -> int:
    return phone.post("/api/game/chombo", json={"seat": 1}).status_code


def proof_join(phone: Phone, pin: str = PIN):
    """What join.js does: ask a challenge, post the nonce and the proof (never the PIN)."""
    challenge = phone.get("/join/challenge").json
    proof = pin_proof(pin, challenge["salt"], challenge["nonce"])
    return phone.client.post("/join", data={"csrf_token": phone.token, "nonce": challenge["nonce"], "proof": proof})


# --- the PIN is slowed per address, never for everyone ----------------------------------------------------------


def test_40_wrong_pins_from_40_addresses_then_a_new_phone_joins_and_writes(service):
    app = make_app(service)
    for i in range(40):
        guesser = phone_at(app, f"10.0.1.{i}")
        codes = [proof_join(guesser, f"{i:03d}{g:03d}").status_code for g in range(7)]
        assert codes == [403] * 5 + [429] * 2  # four free, the fifth makes it wait
    player = phone_at(app, "10.0.2.1")
    assert proof_join(player).status_code == 303
    assert writes(player) == 200
    assert phone_at(app, "10.0.2.2").unlock(PIN).status_code == 303  # a script's form post too


def test_a_phone_scanning_the_join_token_joins_while_its_address_waits(service):
    app = make_app(service)
    phone = phone_at(app, "10.0.3.1")
    for _ in range(5):
        assert proof_join(phone, "000000").status_code == 403
    waiting = proof_join(phone)
    assert waiting.status_code == 429  # this address waits for the PIN, and the page says how long ...
    assert waiting.headers["Retry-After"] == "2" and "try again in 2 s" in waiting.get_data(as_text=True)
    assert waiting.mimetype == "text/html"
    r = phone.get(f"/join/{service.join_token()}")  # ... but the QR code's token joins it now
    assert r.status_code == 200 and 'http-equiv="refresh" content="1; url=/"' in r.get_data(as_text=True)
    assert writes(phone) == 200


def test_x_forwarded_for_is_not_trusted():
    service = TableService(pin=PIN)
    app = make_app(service)
    phone = phone_at(app, "10.0.4.1")
    codes = [
        phone.client.post(
            "/join", data={"csrf_token": phone.token, "pin": "000000"}, headers={"X-Forwarded-For": f"10.9.9.{i}"}
        ).status_code
        for i in range(7)
    ]
    assert codes == [403] * 5 + [429] * 2  # a made-up header does not make one address many
    service.close()


# --- the join token --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "status"),
    [
        ("right", 200),  # a page that opens the table by itself (not a redirect: see web/live.py)
        ("wrong", 403),
        ("", 404),  # /join/ is no token
    ],
)
def test_the_join_token_joins_only_when_it_is_the_tables(service, token, status):
    app = make_app(service)
    phone = phone_at(app, "10.0.5.1")
    token = {"right": service.join_token(), "wrong": "x" * 32, "": ""}[token]
    r = phone.get(f"/join/{token}")
    assert r.status_code == status
    assert writes(phone) == (200 if status == 200 else 403)


def test_the_join_token_is_unguessable_and_kept(service, tmp_path):
    token = service.join_token()
    assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # 32 urlsafe characters: 192 bits
    again = TableService(pin=PIN, db_path=str(tmp_path / "table.db"))
    assert again.join_token() == token
    again.close()


def test_a_joined_player_shows_the_join_code_and_makes_a_new_one(service):
    app = make_app(service)
    guest = phone_at(app, "10.0.6.1")
    assert guest.get("/join-qr.svg").status_code == 403  # only a joined phone shows the join code
    assert guest.post("/join/new-code").status_code == 403  # and only a joined phone changes it
    old = service.join_token()
    player = phone_at(app, "10.0.6.2")
    assert player.get(f"/join/{old}").status_code == 200
    page = player.get("/join").get_data(as_text=True)
    assert 'id="join-qr"' in page and 'id="new-join-code"' in page
    assert player.get("/join-qr.svg").mimetype == "image/svg+xml"
    assert player.post("/join/new-code").status_code == 303
    assert service.join_token() != old
    late = phone_at(app, "10.0.6.3")
    assert late.get(f"/join/{old}").status_code == 403  # a photo of the old code joins no one
    assert writes(player) == 200  # phones already joined stay joined


# --- the PIN by challenge ----------------------------------------------------------------------------------------


def test_the_join_page_never_names_the_pin_field():
    service = TableService(pin=PIN)
    page = make_app(service).test_client().get("/join").get_data(as_text=True)
    pin_input = re.search(r"<input[^>]*id=\"pin\"[^>]*>", page).group(0)
    assert "name=" not in pin_input  # a form post without join.js sends no PIN
    assert 'name="proof"' in page and "join.js" in page
    service.close()


@pytest.mark.parametrize(
    ("case", "status"),
    [
        ("proof", 303),
        ("wrong pin", 403),
        ("replayed nonce", 403),  # a recorded join cannot be played again
        ("made-up nonce", 403),
    ],
)
def test_the_challenge(service, case, status):
    app = make_app(service)
    phone = phone_at(app, "10.0.7.1")
    challenge = phone.get("/join/challenge").json
    nonce, salt = challenge["nonce"], challenge["salt"]
    data = {"csrf_token": phone.token, "nonce": nonce, "proof": pin_proof(PIN, salt, nonce)}
    if case == "wrong pin":
        data["proof"] = pin_proof("000000", salt, nonce)
    elif case == "replayed nonce":
        first = phone.client.post("/join", data=data)
        assert first.status_code == 303
        phone.post("/leave")
    elif case == "made-up nonce":
        data["nonce"] = "n" * 32
        data["proof"] = pin_proof(PIN, salt, data["nonce"])
    assert phone.client.post("/join", data=data).status_code == status


# --- a burst of joins logs no phone out --------------------------------------------------------------------------


def test_a_burst_of_joins_from_one_address_never_logs_a_phone_out(service):
    app = make_app(service)
    player = phone_at(app, "10.0.8.1")
    assert player.unlock(PIN).status_code == 303
    burst = phone_at(app, "10.0.8.66")
    codes = [burst.unlock(PIN).status_code for _ in range(4100)]  # the probe's burst
    assert codes.count(303) == 20 and set(codes) == {303, 429}  # 20 joins a minute from one address
    assert len(app.extensions["jantaku.sessions"]) <= 1 + 8  # and it holds at most 8 sessions
    assert writes(player) == 200


def test_a_burst_of_joins_from_many_addresses_never_logs_a_phone_in_use_out(service):
    app = make_app(service, JANTAKU_SESSIONS=64)
    player = phone_at(app, "10.0.9.1")
    assert player.unlock(PIN).status_code == 303
    codes = [phone_at(app, f"10.1.{i // 250}.{i % 250}").unlock(PIN).status_code for i in range(200)]
    assert codes[:63] == [303] * 63 and set(codes[63:]) == {429}  # the table is full of sessions in use
    assert writes(player) == 200


def test_at_capacity_the_least_recently_used_idle_session_makes_room(service):
    app = make_app(service, JANTAKU_SESSIONS=4)
    sessions = app.extensions["jantaku.sessions"]
    now = [1000.0]
    sessions.clock = lambda: now[0]
    phones = [phone_at(app, f"10.2.0.{i}") for i in range(4)]
    for phone in phones:
        assert phone.unlock(PIN).status_code == 303
    now[0] += sessions.idle_s + 1
    assert writes(phones[0]) == 200  # phone 0 is in use again; phone 1 is the least recently used
    assert phone_at(app, "10.2.0.9").unlock(PIN).status_code == 303
    assert [writes(p) for p in phones] == [200, 403, 200, 200]


# --- a restart logs nobody out -----------------------------------------------------------------------------------


def test_a_joined_phone_still_writes_after_the_service_restarts(tmp_path):
    first = TableService(pin=PIN, db_path=str(tmp_path / "table.db"))
    phone = phone_at(make_app(first), "10.3.0.1")
    assert proof_join(phone).status_code == 303
    cookie = phone.client.get_cookie("session").value
    first.close()
    second = TableService(pin=PIN, db_path=str(tmp_path / "table.db"))
    again = phone_at(make_app(second), "10.3.0.1")
    again.client.set_cookie("session", cookie)
    again.token = phone.token
    assert writes(again) == 200
    assert again.post("/leave").status_code == 303  # a locked phone stays locked after the next restart
    second.close()
    third = TableService(pin=PIN, db_path=str(tmp_path / "table.db"))
    later = phone_at(make_app(third), "10.3.0.1")
    later.client.set_cookie("session", cookie)
    later.token = phone.token
    assert writes(later) == 403
    third.close()
