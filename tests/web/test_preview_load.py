"""The win preview (``POST /api/game/win/preview``) is computed without the game's lock, and guests may ask for it
only a few times a second: a crowd of guests previewing does not slow a player's page.

``test_state_latency_while_guests_hammer_the_preview`` (slow) is the measurement: a player's ``GET /api/state`` p50
over loopback while 8 threads post previews (20 a second each at most), each from its own loopback address, on a
real threaded server; run it with ``-m slow -s`` to see the figures.
"""

from __future__ import annotations

import http.client
import json
import re
import statistics
import threading
import time
import urllib.parse

import pytest

from device.table.service import TableService
from engine.game.state import Game
from tests.web.conftest import PIN, serving
from tests.web.test_writes import WIN_1
from web.game_request import game_event

ALL_TENPAI = {"tenpai": [True] * 4}  # the dealer stays, no points move: a game as long as we like


def test_guests_are_limited_and_players_are_not(app, phone, player, service):
    app.extensions["jantaku.guest_limit"].clock = lambda: 100.0  # the clock stands still: no token comes back
    before = service.state()["game"]
    guest = [phone.post("/api/game/win/preview", json=WIN_1) for _ in range(12)]
    assert [r.status_code for r in guest] == [200] * 10 + [429] * 2  # a burst of 10 (then 5 a second)
    assert guest[-1].headers["Retry-After"] == "1" and "join the table" in guest[-1].json["error"]
    assert [player.post("/api/game/win/preview", json=WIN_1).status_code for _ in range(20)] == [200] * 20
    assert service.state()["game"] == before


def test_the_state_answers_while_a_preview_is_being_computed(phone, player, service, monkeypatch):
    """The preview's engine work happens on its own copy, without the game's lock: a player's state is answered
    meanwhile."""
    computing, finish = threading.Event(), threading.Event()
    real_apply = Game.apply

    def slow_apply(game, event):  # the preview thread's engine work, held until the state has been read
        if threading.current_thread().name == "preview":
            computing.set()
            finish.wait(10)
        return real_apply(game, event)

    monkeypatch.setattr(Game, "apply", slow_apply)
    preview = threading.Thread(
        target=lambda: phone.post("/api/game/win/preview", json=WIN_1), name="preview", daemon=True
    )
    preview.start()
    assert computing.wait(10)
    answered = []
    reader = threading.Thread(target=lambda: answered.append(player.get("/api/state").status_code), daemon=True)
    reader.start()
    reader.join(3)
    finish.set()
    preview.join(10)
    assert answered == [200]


class Client:
    """One phone over HTTP from its own loopback address (``127.0.0.<n>``), with its cookies and CSRF token; ``pin``
    adds the table's PIN to every POST."""

    def __init__(self, url: str, n: int, pin: str | None = None):
        parts = urllib.parse.urlsplit(url)
        self.conn = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=30, source_address=(f"127.0.0.{n}", 0)
        )
        self.pin, self.cookie = pin, ""
        _, page = self._send("GET", "/join")
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.decode()).group(1)

    def _send(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        headers = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        self.conn.request(method, path, body, headers)
        r = self.conn.getresponse()
        data = r.read()
        cookie = r.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return r.status, data

    def post(self, path: str, body: dict) -> int:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        if self.pin:
            headers["X-Table-PIN"] = self.pin
        return self._send("POST", path, json.dumps(body).encode(), headers)[0]

    def get(self, path: str) -> int:
        return self._send("GET", path)[0]


def state_p50_ms(hands: int, hammers: int, as_players: bool, seconds: float = 6.0) -> tuple[float, float, int]:
    """(p50, p90) in ms of a player's ``GET /api/state`` while ``hammers`` threads post previews (each at most 20 a
    second) on a game of ``hands`` hands, and the previews answered 200."""
    service = TableService(pin=PIN, max_streams=4)
    for _ in range(hands):
        service.record(game_event("draw", ALL_TENPAI))
    with serving(service):
        url = service.url
        stop = threading.Event()
        answered = [0]

        def hammer(i: int) -> None:
            client = Client(url, 10 + i, PIN if as_players else None)
            while not stop.is_set():
                t0 = time.perf_counter()
                if client.post("/api/game/win/preview", WIN_1) == 200:
                    answered[0] += 1
                stop.wait(max(0.0, 0.05 - (time.perf_counter() - t0)))

        threads = [threading.Thread(target=hammer, args=(i,), daemon=True) for i in range(hammers)]
        for t in threads:
            t.start()
        player = Client(url, 2, PIN)
        time.sleep(0.5)
        times = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            player.get("/api/state")
            times.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join(30)
    q = statistics.quantiles(times, n=10)
    return statistics.median(times), q[8], answered[0]


@pytest.mark.slow
def test_state_latency_while_guests_hammer_the_preview():
    hands = 150  # 300 events: a long hanchan
    quiet = state_p50_ms(hands, 0, False)
    guests = state_p50_ms(hands, 8, False)
    players = state_p50_ms(hands, 8, True)
    for name, (p50, p90, n) in (("quiet", quiet), ("8 guests", guests), ("8 players", players)):
        print(f"state p50 {p50:7.1f} ms  p90 {p90:7.1f} ms  ({name}, {n} previews answered)")
    assert guests[0] < 50 and players[0] < 100
