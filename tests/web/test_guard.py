"""A table no stranger can take over: server-side sessions, event-stream slots,
idempotent game writes, corrections behind the PIN, photo reads behind the CSRF token."""

from __future__ import annotations

import io

import pytest

from device.table.service import TableService
from tests.web.conftest import Phone, jpeg
from web import create_app


class Clock:
    """A clock the test moves by hand (no sleeping, no timed assertions)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make_app(service: TableService, **config):
    return create_app({"TESTING": True, "JANTAKU_HEARTBEAT_S": 0.05, "JANTAKU_STREAM_MAX_S": 0.5, **config}, service)


def join_from(app, address: str, pin: str):
    phone = Phone(app.test_client())
    return phone, phone.client.post(
        "/join", data={"pin": pin, "csrf_token": phone.token}, environ_base={"REMOTE_ADDR": address}
    )


# --- sessions: locking ends them on the server, and they expire -------------------------------------------------


def test_a_cookie_copied_before_locking_no_longer_writes(app, player, service):
    copied = player.client.get_cookie("session").value
    assert player.post("/leave").status_code == 303
    thief = app.test_client()
    thief.set_cookie("session", copied)
    before = service.export_game()
    r = thief.post("/api/game/riichi", json={"seat": 0}, headers={"X-CSRF-Token": player.token})
    assert r.status_code == 403 and "PIN" in r.json["error"]
    assert service.export_game() == before


@pytest.mark.parametrize(
    ("hours_later", "status"),
    [
        (11.9, 200),  # within the session's 12 hours
        (12.1, 403),  # past them: join again
    ],
)
def test_sessions_expire(service, hours_later, status):
    app = make_app(service, JANTAKU_SESSION_MAX_S=12 * 3600)
    clock = Clock()
    app.extensions["jantaku.sessions"].clock = clock
    phone = Phone(app.test_client())
    assert phone.unlock().status_code == 303
    clock.now = hours_later * 3600
    assert phone.post("/api/game/chombo", json={"seat": 1}).status_code == status


# --- event streams: per address, and slots kept for joined phones ----------------------------------------------


def open_stream(client, address: str):
    return client.get("/events", environ_base={"REMOTE_ADDR": address}, buffered=False)


#: The stream limits the tests below set: 4 streams an address, 8 of the table's 32 kept for joined phones.
STREAMS = {"JANTAKU_STREAMS_PER_ADDRESS": 4, "JANTAKU_STREAMS_RESERVED": 8}


def test_one_address_cannot_take_every_stream(service):
    client = make_app(service, **STREAMS).test_client()
    streams = [open_stream(client, "10.0.0.66") for _ in range(service.bus.max_subscribers)]
    try:
        assert [r.status_code for r in streams].count(200) == 4
        assert all(r.status_code == 429 and r.headers["Retry-After"] for r in streams if r.status_code != 200)
        assert open_stream(client, "10.0.0.67").status_code == 200  # another phone still gets one
    finally:
        for r in streams:
            r.close()


def test_joined_phones_have_reserved_streams(service):
    app = make_app(service, **STREAMS)
    guest, player = app.test_client(), Phone(app.test_client())
    assert player.unlock().status_code == 303
    streams, address = [], 0
    while True:  # guests from ever more addresses, until they are refused
        address += 1
        r = open_stream(guest, f"10.1.{address // 200}.{address % 200}")
        streams.append(r)
        if r.status_code != 200:
            break
    try:
        assert r.status_code == 429 and len(streams) - 1 == service.bus.max_subscribers - 8
        mine = [open_stream(player.client, "10.2.0.1") for _ in range(2)]
        assert [m.status_code for m in mine] == [200, 200]
        for m in mine:
            m.close()
    finally:
        for s in streams:
            s.close()
    assert open_stream(guest, "10.1.9.9").status_code == 200  # closed streams give their slots back


# --- idempotent writes ------------------------------------------------------------------------------------------


def test_a_retried_write_with_the_same_key_records_once(player, service):
    key = {"Idempotency-Key": "3f6c-retry-1"}
    first = player.post("/api/game/chombo", json={"seat": 2}, headers=key)
    assert first.status_code == 200, first.json
    recorded = service.export_game()
    again = player.post("/api/game/chombo", json={"seat": 2}, headers=key)  # the answer was lost: sent again
    assert again.status_code == 200 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert service.export_game() == recorded


@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({"Idempotency-Key": "k1"}, {"seat": 1}, 422),  # the same key with another body
        ({"Idempotency-Key": ""}, {"seat": 2}, 400),  # an empty key
        ({"Idempotency-Key": "k" * 201}, {"seat": 2}, 400),  # an over-long key
    ],
)
def test_idempotency_key_misuse_changes_nothing(player, service, headers, body, status):
    assert player.post("/api/game/chombo", json={"seat": 2}, headers={"Idempotency-Key": "k1"}).status_code == 200
    recorded = service.export_game()
    r = player.post("/api/game/chombo", json=body, headers=headers)
    assert r.status_code == status and r.is_json
    assert service.export_game() == recorded


def test_without_a_key_a_write_sent_twice_is_recorded_twice(player, service):
    for _ in range(2):
        assert player.post("/api/game/chombo", json={"seat": 2}).status_code == 200
    assert service.game.game.scores[2] < service.game.game.scores[0] - 20000


def test_a_key_does_not_replay_for_a_phone_without_the_pin(player, phone, service):
    assert player.post("/api/game/chombo", json={"seat": 2}, headers={"Idempotency-Key": "k2"}).status_code == 200
    r = phone.post("/api/game/chombo", json={"seat": 2}, headers={"Idempotency-Key": "k2"})
    assert r.status_code == 403


def test_an_import_with_a_key_reads_its_body_and_replays(player, service):
    game = service.export_game()
    key = {"Idempotency-Key": "import-1"}
    first = player.post("/api/game/import", json=game, headers=key)
    assert first.status_code == 200, first.json
    again = player.post("/api/game/import", json=game, headers=key)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json


# --- photos and corrections -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "error"),
    [
        ({}, "CSRF"),  # another site's form carries no token
        ({"Origin": "http://evil.example"}, "cross-site"),
    ],
)
def test_a_photo_read_from_another_site_is_refused(client, service, headers, error):
    r = client.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")}, headers=headers)
    assert r.status_code == 403 and error in r.json["error"]
    assert service.corrections.summary()["held"] == 0


def test_corrections_need_the_pin(phone, service):
    fid = phone.post("/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg")}).json["frame_id"]
    r = phone.post("/api/corrections", json={"frame_id": fid, "index": 0, "tile": "1m"})
    assert r.status_code == 403 and "PIN" in r.json["error"]
    assert service.corrections.summary()["corrections"] == 0
    assert not list((service.corrections.root / "images").iterdir())


def test_a_key_is_the_clients_own_another_phone_with_the_same_key_writes(app, player, service):
    # two joined phones that happen to use the same key (a counter, "1") make two writes: no answer is shared
    other = Phone(app.test_client())
    assert other.unlock().status_code == 303
    assert player.post("/api/game/chombo", json={"seat": 2}, headers={"Idempotency-Key": "1"}).status_code == 200
    after_first = service.game.game.scores[2]
    r = other.post("/api/game/chombo", json={"seat": 2}, headers={"Idempotency-Key": "1"})
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers
    assert service.game.game.scores[2] < after_first  # recorded again


def test_the_corrections_export_needs_the_pin(phone, player):
    assert phone.get("/corrections/export.zip").status_code == 403
    assert player.get("/corrections/export.zip").status_code == 200
