"""Joining, the PIN and CSRF: reading is open, changing the game needs the PIN, every POST the CSRF token."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import PIN, Phone

GAME_ACTIONS = [
    ("/api/game/new", {"rules": "standard"}),
    (
        "/api/game/win",
        {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s", "flags": ["riichi"]},
    ),
    ("/api/game/draw", {"tenpai": [True, False, False, False]}),
    ("/api/game/abort", {"reason": "four_winds"}),
    ("/api/game/chombo", {"seat": 2}),
    ("/api/game/riichi", {"seat": 2}),
    ("/api/game/event", {"type": "hand_start"}),
    ("/api/game/undo", {}),
]


@pytest.mark.parametrize(("url", "body"), GAME_ACTIONS)
def test_game_actions_need_the_pin(phone, service, url, body):
    before = service.export_game()
    r = phone.post(url, json=body)
    assert r.status_code == 403 and "PIN" in r.json["error"]
    assert service.export_game() == before


@pytest.mark.parametrize(("url", "body"), GAME_ACTIONS)
def test_game_actions_need_csrf_even_with_the_pin(player, service, url, body):
    before = service.export_game()
    r = player.client.post(url, json=body)  # no token
    assert r.status_code == 403 and "CSRF" in r.json["error"]
    r = player.client.post(url, json=body, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert service.export_game() == before


def test_pin_header_works_for_scripts(phone, service):
    r = phone.post("/api/game/chombo", json={"seat": 2}, headers={"X-Table-PIN": PIN, "X-CSRF-Token": phone.token})
    assert r.status_code == 200, r.json
    assert service.game.game.scores == [28000, 28000, 17000, 27000] or service.game.game.scores[2] < 25000


def test_wrong_pin_on_the_join_page(phone, service):
    r = phone.unlock("0000")
    assert r.status_code == 403
    assert "not the table" in r.get_data(as_text=True)
    assert phone.post("/api/game/undo", json={}).status_code == 403


def test_join_needs_csrf(client):
    r = client.post("/join", data={"pin": PIN})
    assert r.status_code == 403


def test_wrong_pins_lock_out(app):
    p = Phone(app.test_client())
    for _ in range(5):  # the fifth makes this address wait
        assert p.unlock("1111").status_code == 403
    r = p.unlock(PIN)  # even the right PIN waits now, from this address
    assert r.status_code == 429
    assert "try again" in r.get_data(as_text=True)


def test_unlock_then_lock(player):
    assert player.post("/api/game/riichi", json={"seat": 0}).status_code == 200
    assert player.post("/leave").status_code == 303
    assert player.post("/api/game/riichi", json={"seat": 1}).status_code == 403


def test_cross_site_origin_refused(player):
    r = player.post(
        "/api/game/riichi", json={"seat": 0}, headers={"Origin": "http://evil.example", "X-CSRF-Token": player.token}
    )
    assert r.status_code == 403 and "cross-site" in r.json["error"]


def test_score_and_read_are_open(client):
    # no token, no PIN: read-only computations
    assert client.post("/api/score", json={"hand": "234m567p23488s678s", "win_tile": "8s"}).status_code == 200


def test_join_page_shows_qr_and_url(client, service):
    service.url = "http://192.168.1.20:8000/"
    html = client.get("/join").get_data(as_text=True)
    assert "http://192.168.1.20:8000/" in html and 'src="/qr.svg"' in html
    svg = client.get("/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data


def test_security_headers(client):
    r = client.get("/")
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY"


def test_pages_carry_a_csrf_token(client):
    for page in ("/", "/score", "/settle", "/join"):
        html = client.get(page).get_data(as_text=True)
        assert re.search(r'name="csrf-token" content="[\w-]{43}"', html), page
    assert "http" not in re.sub(r'(href|src)="/[^"]*"', "", client.get("/").get_data(as_text=True)).replace(
        "http-equiv", ""
    )  # no external resources
