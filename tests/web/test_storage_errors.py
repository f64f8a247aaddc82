"""Storage errors: a full disk answers 507 with a sentence and records nothing; storage that cannot be opened at
start-up is one line on stderr and exit 2."""

from __future__ import annotations

import sqlite3

import pytest

from device.cli import main
from device.table import storage
from tests.serve_command import serve_args
from tests.web.test_writes import DRAW, WIN_1

FULL = "the disk is full: nothing was recorded (free some space and try again)"


class FullDisk:
    """The game store's connection on a full disk: a write fails as SQLite fails it (SQLITE_FULL, and SQLite has
    rolled the transaction back already); reads work."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def a_game_file(player, service) -> dict:
    assert player.post("/api/game/draw", json=DRAW).status_code == 200
    return service.export_game()


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/game/win", WIN_1),
        ("/api/game/draw", DRAW),
        ("/api/game/chombo", {"seat": 2}),
        ("/api/game/riichi", {"seat": 1}),
        ("/api/game/new", {"rules": "wrc", "names": ["A", "B", "C", "D"]}),
        ("/api/game/import", a_game_file),
        ("/api/game/undo", {}),
    ],
)
def test_a_full_disk_answers_507_and_records_nothing(player, service, url, body):
    if callable(body):
        body = body(player, service)
    else:
        assert player.post("/api/game/riichi", json={"seat": 0}).status_code == 200  # something to undo
    before = service.state()["game"]
    store = service.game.store
    real, store._db = store._db, FullDisk(store._db)
    try:
        r = player.post(url, json=body, headers={"Idempotency-Key": "k1"})
        assert (r.status_code, r.json["error"]) == (507, FULL)
        assert service.state()["game"] == before
    finally:
        store._db = real
    r = player.post(url, json=body, headers={"Idempotency-Key": "k1"})  # space freed: the same tap goes through
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers


def test_a_database_that_reaches_its_page_limit_answers_507(player, service):
    """SQLite's own SQLITE_FULL (its page limit reached), not a stand-in: a long game file does not fit."""
    for _ in range(100):  # a long game in force: every seat tenpai, the dealer stays
        assert player.post("/api/game/draw", json={"tenpai": [True] * 4}).status_code == 200
    game = service.export_game()
    db = service.game.store._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    games = service.game.store.games()
    r = player.post("/api/game/import", json=game)
    assert (r.status_code, r.json["error"]) == (507, FULL)
    assert service.game.store.games() == games


def connect_full(path, *args, **kwargs):
    db = sqlite3_connect(path, *args, **kwargs)
    db.execute("PRAGMA max_page_count = 1")  # room for nothing: the schema does not fit
    return db


def connect_read_only(path, *args, **kwargs):
    kwargs.pop("check_same_thread", None)
    return sqlite3_connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False, **kwargs)


sqlite3_connect = sqlite3.connect


@pytest.mark.parametrize(
    ("case", "connect", "reason"),
    [
        ("a full disk", connect_full, "database or disk is full"),
        ("a read-only disk", connect_read_only, "attempt to write a readonly database"),
        ("a folder where the file should be", None, "unable to open database file"),
    ],
)
def test_storage_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, case, connect, reason):
    db = tmp_path / "table" / "game.db"
    db.parent.mkdir()
    if connect is connect_read_only:
        sqlite3.connect(db).close()  # an empty database file, opened read-only
    if connect is None:
        db.mkdir()
    else:
        monkeypatch.setattr(storage.sqlite3, "connect", connect)
    assert main(serve_args(db, pin="246813")) == 2, case
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith("jantaku serve: no detector model"), err  # the model: a warning
    assert err[1] == f"jantaku serve: cannot open the game log {db}: {reason} (is the disk full or read-only?)"
