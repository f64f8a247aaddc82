"""A tap is recorded once: idempotency keys kept in the game's database (a retry after kill -9 is a replay), and
writes that name the game revision they were made on (a stale one is a 409 and records nothing).

The races run two phones (two test clients, their own cookies) in threads released together by a barrier, 25 times
each, through the real routes."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from device.table.service import TableService
from tests.serve_command import serve_args
from tests.web.conftest import PIN, Phone
from vision.read.pipeline import Reader
from web import create_app

ROOT = Path(__file__).resolve().parents[2]

# seat 1 rons the dealer's 8s: riichi pinfu-less 234m567p23488s678s (3900); seat 2 on the same discard (tanyao)
WIN_1 = {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s", "riichi": True}
WIN_2 = {"winner": 2, "discarder_seat": 0, "hand": "234m567p234s67888s", "win_tile": "8s"}
DRAW = {"tenpai": [True, False, False, False]}
RACES = 25
SERVE_PIN = "246813"  # jantaku serve asks for 6 digits at least


def history(service) -> list[dict]:
    return service.state()["game"]["history"]


def revision(service) -> str:
    return service.state()["game"]["revision"]


def at(rev: str, key: str | None = None) -> dict[str, str]:
    """The headers a page sends with a tap: the revision it saw, and the tap's own key."""
    headers = {"X-Game-Revision": rev}
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def together(*posts):
    """Each ``(phone, url, body, headers)`` posted in its own thread, released at once; the status codes, in order."""
    barrier = threading.Barrier(len(posts))
    codes: list[int | None] = [None] * len(posts)

    def run(i: int, post) -> None:
        phone, url, body, headers = post
        barrier.wait()
        codes[i] = phone.post(url, json=body, headers=headers).status_code

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(posts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return codes


@pytest.fixture
def phones(app):
    """Two joined phones, each with its own session."""
    out = []
    for _ in range(2):
        p = Phone(app.test_client())
        assert p.unlock().status_code == 303
        out.append(p)
    return out


# --- revisions -------------------------------------------------------------------------------------------------


def test_a_double_tap_on_confirm_win_is_recorded_once(player, service):
    rev = revision(service)
    first = player.post("/api/game/win", json=WIN_1, headers=at(rev, "tap-1"))
    second = player.post("/api/game/win", json=WIN_1, headers=at(rev, "tap-2"))  # the same tap's page, again
    assert (first.status_code, second.status_code) == (200, 409)
    assert "nothing was recorded" in second.json["error"]
    assert second.json["revision"] == revision(service) == second.json["state"]["game"]["revision"]
    assert [h["deltas"] for h in history(service)] == [[-3900, 3900, 0, 0]]


@pytest.mark.parametrize(
    ("case", "first", "second"),
    [
        # two phones confirm the same win
        ("the same win", ("/api/game/win", WIN_1), ("/api/game/win", WIN_1)),
        # two different wins for one hand
        ("two wins", ("/api/game/win", WIN_1), ("/api/game/win", WIN_2)),
        # a win and a draw for one hand
        ("win and draw", ("/api/game/win", WIN_1), ("/api/game/draw", DRAW)),
    ],
)
def test_two_phones_writing_one_hand_record_one(phones, service, case, first, second):
    for n in range(RACES):
        before = len(history(service))
        rev = revision(service)
        codes = together(
            (phones[0], *first, at(rev, f"a{n}")),
            (phones[1], *second, at(rev, f"b{n}")),
        )
        assert sorted(codes) == [200, 409], (case, n, codes)
        assert len(history(service)) == before + 1, (case, n)
        assert phones[0].post("/api/game/undo", json={}, headers=at(revision(service))).status_code == 200


def test_two_undo_taps_apply_one(phones, service):
    for n in range(RACES):
        before = service.state()["game"]["events"]
        assert phones[0].post("/api/game/win", json=WIN_1, headers=at(revision(service))).status_code == 200
        rev = revision(service)
        codes = together(*((p, "/api/game/undo", {}, at(rev, f"u{n}")) for p in phones))
        assert sorted(codes) == [200, 409], (n, codes)
        assert service.state()["game"]["events"] == before, n  # the win taken back once, with its hand start


@pytest.mark.parametrize(
    ("writes", "undos", "outcomes"),
    [
        (["draw", "win"], 1, ["exhaustive_draw"]),
        (["draw", "win"], 2, []),  # each Undo takes back one write: the hand start written with the win goes too
        (["draw", "win", "draw"], 2, ["exhaustive_draw"]),
        (["win"], 1, []),
    ],
)
def test_each_undo_takes_back_one_write(phones, service, writes, undos, outcomes):
    for write in writes:
        url, body = {"draw": ("/api/game/draw", DRAW), "win": ("/api/game/win", WIN_1)}[write]
        assert phones[0].post(url, json=body, headers=at(revision(service))).status_code == 200
    for _ in range(undos):
        assert phones[0].post("/api/game/undo", json={}, headers=at(revision(service))).status_code == 200
    assert [h["outcome"] for h in history(service)] == outcomes


def test_an_undo_racing_a_new_win_never_removes_the_new_win(phones, service):
    assert phones[0].post("/api/game/draw", json=DRAW, headers=at(revision(service))).status_code == 200
    outcomes = set()
    for n in range(RACES):
        rev = revision(service)
        undo_code, win_code = together(
            (phones[0], "/api/game/undo", {}, at(rev, f"u{n}")),
            (phones[1], "/api/game/win", WIN_1, at(rev, f"w{n}")),
        )
        assert sorted((undo_code, win_code)) == [200, 409], (n, undo_code, win_code)
        if win_code == 200:  # the win stands: the undo was refused, not applied to the win
            assert [h["outcome"] for h in history(service)] == ["exhaustive_draw", "ron"], n
            assert phones[0].post("/api/game/undo", json={}, headers=at(revision(service))).status_code == 200
        else:  # the undo took back the draw; the win made on the state with the draw was refused
            assert history(service) == [], n
            assert phones[0].post("/api/game/draw", json=DRAW, headers=at(revision(service))).status_code == 200
        outcomes.add((undo_code, win_code))
    assert outcomes  # which phone wins a race varies; each race recorded exactly one of them


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/game/draw", DRAW),
        ("/api/game/chombo", {"seat": 2}),
        ("/api/game/riichi", {"seat": 1}),
        ("/api/game/abort", {"reason": "nine_terminals"}),
        ("/api/game/event", {"type": "hand_start"}),
        ("/api/game/new", {"rules": "standard"}),
        ("/api/game/undo", {}),
    ],
)
def test_a_stale_write_is_refused_with_the_state_now(player, service, url, body):
    stale = revision(service)
    assert player.post("/api/game/draw", json=DRAW).status_code == 200  # another phone, without a revision
    before = service.state()["game"]
    r = player.post(url, json=body, headers=at(stale))
    assert r.status_code == 409, r.json
    assert r.json["state"]["game"]["revision"] == before["revision"] == revision(service)
    assert service.state()["game"] == before


def test_a_bad_revision_header_is_a_400(player, service):
    r = player.post("/api/game/draw", json=DRAW, headers={"X-Game-Revision": "x" * 41})
    assert r.status_code == 400 and "X-Game-Revision" in r.json["error"]
    assert history(service) == []


# --- keys kept in the database ---------------------------------------------------------------------------------


def test_a_key_recorded_but_never_answered_is_replayed_after_a_restart(tmp_path, detector):
    """The table stopped between the commit and the answer: the retry is a replay made from the state."""
    db = str(tmp_path / "game.db")
    key = {"Idempotency-Key": "draw-1", "X-Table-PIN": PIN}

    def site():
        svc = TableService(
            pin=PIN, photo_reader=Reader.around(detector), db_path=db, corrections_dir=str(tmp_path / "corr")
        )
        return svc, Phone(create_app({"TESTING": True}, svc).test_client())

    svc, phone = site()
    assert phone.post("/api/game/draw", json=DRAW, headers=dict(key)).status_code == 200
    svc.game.store._db.execute("UPDATE write_keys SET status = NULL, mimetype = NULL, body = NULL")
    svc.close()
    svc, phone = site()
    r = phone.post("/api/game/draw", json=DRAW, headers=dict(key))
    assert r.status_code == 200 and r.headers.get("Idempotent-Replayed") == "true"
    assert len(r.json["state"]["game"]["history"]) == len(history(svc)) == 1
    r = phone.post("/api/game/draw", json={"tenpai": [False] * 4}, headers=dict(key))  # the key, another body
    assert r.status_code == 422 and len(history(svc)) == 1
    svc.close()


class Table:
    """``jantaku serve`` in a subprocess on a free local port, spoken to as a phone with the PIN header."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from device.cli import main; sys.exit(main(sys.argv[1:]))",
                *serve_args(tmp_path / "table" / "game.db", pin=SERVE_PIN),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        deadline = time.monotonic() + 60
        self.url = None
        while self.url is None and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("jantaku serve stopped before it printed its address")
            found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            self.url = found and found.group(1)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        page = self.opener.open(self.url + "join", timeout=10).read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def post(self, path: str, body: bytes, headers: dict[str, str]):
        req = urllib.request.Request(
            self.url + path.lstrip("/"),
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "X-CSRF-Token": self.csrf,
                "X-Table-PIN": SERVE_PIN,
                **headers,
            },
        )
        try:
            with self.opener.open(req, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read()

    def state(self) -> dict:
        import json

        return json.loads(self.opener.open(self.url + "api/state", timeout=10).read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)  # a power cut, as far as the process can tell
        self.proc.wait(10)
        self.proc.stdout.close()


def test_a_retry_after_kill_9_is_answered_as_a_replay_and_recorded_once(tmp_path):
    import json

    body = json.dumps(DRAW).encode()
    table = Table(tmp_path)
    try:
        status, headers, first = table.post("/api/game/draw", body, {"Idempotency-Key": "tap-after-crash"})
        assert status == 200 and "Idempotent-Replayed" not in headers
    finally:
        table.kill()
    table = Table(tmp_path)  # restarted on the same game log
    try:
        status, headers, again = table.post("/api/game/draw", body, {"Idempotency-Key": "tap-after-crash"})
        assert status == 200 and headers.get("Idempotent-Replayed") == "true"
        assert json.loads(again)["result"] == json.loads(first)["result"]
        assert len(table.state()["game"]["history"]) == 1
    finally:
        table.kill()


@pytest.mark.slow
def test_writes_cut_by_kill_9_at_any_moment_are_recorded_once_when_retried(tmp_path):
    """The tester's probe: a keyed write, kill -9 a moment after it is sent (0 to 40 ms: before, during or after
    the commit), a restart, the same write again; 12 times. Each is recorded exactly once."""
    import json
    import random

    body = json.dumps({"tenpai": [True] * 4}).encode()  # no points move: the game never ends
    rng = random.Random(44)
    table = Table(tmp_path)
    replayed = 0
    try:
        for n in range(12):
            before = len(table.state()["game"]["history"])
            key = {"Idempotency-Key": f"cut-{n}"}
            sender = threading.Thread(target=_quietly, args=(table.post, "/api/game/draw", body, key))
            sender.start()
            time.sleep(rng.uniform(0.0, 0.04))
            table.kill()
            sender.join(10)
            table = Table(tmp_path)
            status, headers, _ = table.post("/api/game/draw", body, key)
            assert status == 200, n
            replayed += headers.get("Idempotent-Replayed") == "true"
            assert len(table.state()["game"]["history"]) == before + 1, n
    finally:
        table.kill()
    print(f"12 writes cut by kill -9: each recorded once; {replayed} retries answered as replays")


def _quietly(call, *args):
    with contextlib.suppress(OSError):  # the table was killed under it
        call(*args)
