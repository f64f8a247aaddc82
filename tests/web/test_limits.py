"""Bad input before parsing: body size, JSON depth, field lengths, non-ASCII tiles, a full disk.

Every case answers a 4xx (or 507) with a JSON error, and the game is as it was.
"""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from tests.web.conftest import jpeg

DEEP = '{"hand": ' + "[" * 1000 + "]" * 1000 + "}"  # Python's json recurses once a level: 1,000 is past its limit
WIN = {"winner": 1, "discarder_seat": 0, "hand": "234m567p23488s678s", "win_tile": "8s"}
SCORE = {"hand": "123m456p789s234s55z", "win_tile": "4s"}


def recorded(service) -> str:
    return json.dumps(service.export_game())


@pytest.mark.parametrize(
    ("pin", "url"),
    [
        (False, "/api/score"),  # no PIN needed
        (False, "/api/waits"),
        (True, "/api/corrections"),  # corrections need the PIN
        (True, "/api/game/new"),
        (True, "/api/game/win"),
        (True, "/api/game/win/preview"),
        (True, "/api/game/draw"),
        (True, "/api/game/abort"),
        (True, "/api/game/chombo"),
        (True, "/api/game/riichi"),
        (True, "/api/game/event"),
        (True, "/api/game/import"),
    ],
)
def test_json_nested_1000_deep_is_400(phone, player, service, pin, url):
    before = recorded(service)
    r = (player if pin else phone).post(url, data=DEEP, content_type="application/json")
    assert r.status_code == 400, r.json
    assert "nested too deeply" in r.json["error"] or "not valid JSON" in r.json["error"]
    assert recorded(service) == before


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (DEEP, "options is nested too deeply"),
        (json.dumps({"dora": "1m" * 5000}), "dora is 10,000 characters long, at most 256"),
        ("[" * 40_000 + "]" * 40_000, "options is too long (80,000 characters"),
    ],
)
def test_read_options_are_checked_before_parsing(player, service, options, message):
    before = recorded(service)
    r = player.post(
        "/api/read",
        data={"image": (io.BytesIO(jpeg()), "x.jpg"), "options": options},
        content_type="multipart/form-data",
    )
    assert r.status_code == 400, r.json
    assert message in r.json["error"]
    assert recorded(service) == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        # the whole body is capped (64 KB) before it is read
        ({**SCORE, "dora": "1m" * 1_000_000}, 413, "the body is too large (at most 64 KB)"),
        ({**SCORE, "dora": ["1m"] * 200_000}, 413, "the body is too large"),
        # under the cap, each field is capped before its tiles are parsed
        ({**SCORE, "dora": "1m" * 5000}, 400, "dora is 10,000 characters long, at most 256"),
        ({**SCORE, "dora": ["1m"] * 100}, 400, "dora has 100 entries, at most 64"),
        ({**SCORE, "hand": "1m" * 1000}, 400, "hand is 2,000 characters long"),
        ({**SCORE, "rules": {"preset": "wrc", "x" * 300: True}}, 400, "a key in rules is 300 characters long"),
        # tiles are ASCII digits and mpsz: other scripts' digits are not read as numbers
        ({**SCORE, "hand": "²23m456p789s23s55z"}, 400, "hand: unknown character '²'"),
        ({**SCORE, "hand": "①23m456p789s23s55z"}, 400, "hand: unknown character '①'"),
        ({**SCORE, "hand": "１２３m456p789s234s55z"}, 400, "hand: unknown character '１'"),  # was read as 123m
        ({**SCORE, "hand": "١٢٣m456p789s234s55z"}, 400, "hand: unknown character '١'"),  # Arabic-Indic
        ({**SCORE, "win_tile": "４s"}, 400, "win_tile: unknown character '４'"),
        ({**SCORE, "dora": "①m"}, 400, "dora: unknown character '①'"),
        ({**SCORE, "ura": ["٣m"]}, 400, "unknown character '٣'"),
    ],
)
def test_score_fields_are_checked_before_parsing(phone, service, body, status, message):
    before = recorded(service)
    r = phone.post("/api/score", json=body)
    assert r.status_code == status, r.json
    assert message in r.json["error"]
    assert recorded(service) == before


@pytest.mark.parametrize(
    ("url", "body", "message"),
    [
        ("/api/waits", {"hand": "１２３m456p789s23s5z"}, "unknown character '１'"),
        ("/api/waits", {"hand": "12³m456p789s23s5z"}, "unknown character '³'"),
        ("/api/game/win", {**WIN, "hand": "２３４m567p23488s678s"}, "unknown character '２'"),  # was recorded as a win
        ("/api/game/win", {**WIN, "win_tile": "８s"}, "unknown character '８'"),
        ("/api/game/event", {"type": "discard", "seat": 0, "tile": "①m"}, "unknown character '①'"),
        ("/api/game/new", {"seats": ["A" * 1000, "B", "C", "D"]}, "seats.0 is 1,000 characters long"),
    ],
)
def test_game_and_waits_fields(player, service, url, body, message):
    before = recorded(service)
    r = player.post(url, json=body)
    assert r.status_code == 400, r.json
    assert message in r.json["error"]
    assert recorded(service) == before


@pytest.mark.parametrize("honba", ["３", "٣", "²"])
def test_read_form_numbers_are_ascii(player, honba):
    r = player.post(
        "/api/read", data={"image": (io.BytesIO(jpeg()), "x.jpg"), "honba": honba}, content_type="multipart/form-data"
    )
    assert r.status_code == 400 and "honba is a whole number" in r.json["error"]


class FullDisk:
    """The game store's SQLite connection with every write refused as SQLite refuses one on a full disk."""

    def __init__(self, db, error: Exception):
        self.db, self.error = db, error

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("INSERT"):
            raise self.error
        return self.db.execute(sql, *args)

    def executemany(self, sql, *args):
        raise self.error

    def __getattr__(self, name):
        return getattr(self.db, name)


@pytest.mark.parametrize(
    "error", [sqlite3.OperationalError("database or disk is full"), OSError(28, "No space left on device")]
)
@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/game/win", WIN),
        ("/api/game/draw", {"tenpai": [True, True, False, False]}),
        ("/api/game/riichi", {"seat": 2}),
        ("/api/game/new", {"rules": "wrc"}),
    ],
)
def test_a_full_disk_is_507_and_reads_go_on(player, service, error, url, body):
    assert player.post("/api/game/riichi", json={"seat": 1}).status_code == 200
    before, games = recorded(service), service.game.store.games()
    store = service.game.store
    store._db = FullDisk(store._db, error)
    r = player.post(url, json=body)
    assert r.status_code == 507, r.json
    assert r.json["error"].startswith("the disk is full")
    # nothing changed, and the table is still read
    assert recorded(service) == before and store.games() == games
    assert player.get("/api/state").status_code == 200
    assert player.get("/api/game/export").status_code == 200
    assert player.post("/api/score", json={**SCORE, "tsumo": True}).status_code == 200
    store._db = store._db.db
    assert player.post(url, json=body).status_code == 200  # space again: the write goes through


def test_a_rule_option_that_would_break_the_final_count_is_400(player, service):
    before = recorded(service)
    r = player.post("/api/game/new", json={"rules": {"preset": "tenhou", "final_points_step": 0}})
    assert r.status_code == 400 and "final_points_step" in r.json["error"]
    assert recorded(service) == before


class FillsUp(FullDisk):
    """The disk fills after one more row: the first INSERT goes through, the next ones are refused."""

    def __init__(self, db, error: Exception):
        super().__init__(db, error)
        self.room = 1

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("INSERT"):
            if self.room == 0:
                raise self.error
            self.room -= 1
        return self.db.execute(sql, *args)


def test_a_disk_filling_between_a_hand_start_and_its_event_records_neither(player, service):
    # the first riichi of a hand starts the hand too: the two rows are stored together or not at all
    before = recorded(service)
    store = service.game.store
    store._db = FillsUp(store._db, sqlite3.OperationalError("database or disk is full"))
    r = player.post("/api/game/riichi", json={"seat": 1})
    assert r.status_code == 507, r.json
    store._db = store._db.db
    assert recorded(service) == before
    assert store.events(service.game.game_id) == []
