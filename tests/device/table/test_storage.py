"""The append-only game store: replay, undo, JSON, refused events, and a process killed mid-write."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.table.storage import GameStore, StorageError
from engine.conformance.selfplay import SelfPlay
from engine.errors import IllegalAction
from engine.game.events import Discard, Draw, HandStart
from engine.rules import preset
from engine.tiles import Tile


def test_append_replay_undo_roundtrip(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = GameStore(path)
    gid = store.create(preset("wrc"), ("Ann", "Bo", "Cy", "Di"))
    sp = SelfPlay(preset("wrc"), seed=3)
    events = []
    for ev in sp.events(max_hands=2):
        store.append(gid, ev)
        events.append(ev)
    store.close()
    again = GameStore(path)  # a restart: the state comes from the log alone
    g = again.game(gid)
    assert g.events == events
    assert g.scores == sp.game.scores and len(g.history) == len(sp.game.history)
    g2 = again.undo(gid)
    assert g2.events == events[:-1]
    assert again.events(gid) == events[:-1]
    # the undo is itself a row: the log only grows
    rows = again._db.execute("SELECT COUNT(*) FROM log WHERE game_id = ?", (gid,)).fetchone()[0]
    assert rows == len(events) + 1


@pytest.mark.parametrize(("count", "left"), [(1, 2), (2, 1), (3, 0), (4, None), (0, None)])
def test_undo_takes_back_count_events_in_one_write_or_none(tmp_path: Path, count: int, left: int | None) -> None:
    store = GameStore(tmp_path / "games.db")
    gid = store.create(preset("standard"), ("A", "B", "C", "D"))
    first = list(itertools.islice(SelfPlay(preset("standard"), seed=3).events(max_hands=1), 3))  # a start, a draw ...
    store.append_all(gid, first[:2])
    store.append(gid, first[2])
    revision = store.revision(gid)
    if left is None:
        with pytest.raises(StorageError):
            store.undo(gid, count=count)
        assert len(store.events(gid)) == 3 and store.revision(gid) == revision
        return
    assert len(store.undo(gid, count=count).events) == left
    assert len(store.events(gid)) == left and store.revision(gid) == revision + count  # replayed from the log


def test_refused_event_is_not_stored() -> None:
    store = GameStore(":memory:")
    gid = store.create(preset("standard"), ("A", "B", "C", "D"))
    store.append(gid, HandStart())
    with pytest.raises(IllegalAction, match="turn order"):
        store.append(gid, Draw(2))
    assert len(store.events(gid)) == 1
    store.append(gid, Draw(0))
    assert store.game(gid).to_act == 0


def test_json_export_import(tmp_path: Path) -> None:
    store = GameStore(":memory:")
    gid = store.create(preset("standard", open_riichi=True), ("A", "B", "C", "D"))
    for ev in SelfPlay(preset("standard", open_riichi=True), seed=5).events(max_hands=1):
        store.append(gid, ev)
    store.export_file(gid, tmp_path / "g.json")
    gid2 = store.import_file(tmp_path / "g.json")
    a, b = store.game(gid), store.game(gid2)
    assert a.rules == b.rules and a.scores == b.scores and a.events == b.events
    other = store.create(preset("wrc"), ("A", "B", "C", "D"), first_dealer=2)
    store.append(other, HandStart())
    store.append(other, Draw(2))
    store.export_file(other, tmp_path / "h.json")
    assert json.loads((tmp_path / "h.json").read_text())["first_dealer"] == 2
    assert store.game(store.import_file(tmp_path / "h.json")).to_act == 2


def test_import_rejects_bad_files(tmp_path: Path) -> None:
    store = GameStore(":memory:")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(StorageError, match="cannot read"):
        store.import_file(tmp_path / "bad.json")
    data = {
        "rules": {"name": "standard"},
        "seats": ["A", "B", "C", "D"],
        "events": [{"type": "hand_start"}, {"type": "discard", "seat": 0, "tile": "1m"}],
    }
    with pytest.raises(IllegalAction, match="turn order"):  # every imported event is checked again
        store.import_json(data)
    with pytest.raises(StorageError, match="no game"):
        store.game(99)


_WRITER = r"""
import sys
from device.table.storage import GameStore
from engine.conformance.selfplay import SelfPlay
from engine.rules import preset
store = GameStore(sys.argv[1])
gid = store.create(preset("standard"), ("A", "B", "C", "D"))
n = 0
for seed in range(1000):
    sp = SelfPlay(preset("standard"), seed=seed, check=False)
    gid = store.create(preset("standard"), ("A", "B", "C", "D"))
    for ev in sp.events(max_hands=3):
        store.append(gid, ev)
        n += 1
        print(gid, n, flush=True)   # reported only after the commit
"""


def test_kill_during_writes_loses_no_committed_event(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert proc.stdout is not None
    committed: dict[int, int] = {}
    per_game: dict[int, int] = {}
    deadline = time.time() + 60
    while sum(per_game.values()) < 150 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        gid, _n = map(int, line.split())
        per_game[gid] = per_game.get(gid, 0) + 1
        committed = dict(per_game)
    os.kill(proc.pid, signal.SIGKILL)  # mid-stream: it is writing the next events right now
    proc.wait()
    assert sum(committed.values()) >= 150, "the writer did not get going"
    store = GameStore(db)
    for gid, n in committed.items():
        g = store.game(gid)  # replays and re-checks every stored event
        assert len(g.events) >= n
        g.validate()
    assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_discard_tile_round_trips_through_storage() -> None:
    store = GameStore(":memory:")
    gid = store.create(preset("standard"), ("A", "B", "C", "D"))
    store.append(gid, HandStart(Tile.parse("1z")))
    store.append(gid, Draw(0, Tile.parse("0p")))
    store.append(gid, Discard(0, Tile.parse("0p"), tsumogiri=True, riichi=False))
    store._games.clear()
    assert store.game(gid).pond(0) == (Tile.parse("0p"),)


def _earlier_log(path: Path, events: list[dict]) -> None:
    """A game file as the table's earlier log left it: tables ``meta`` and ``events``."""
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)")
    db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)")
    meta = {"rules": {"name": "standard"}, "seats": ["a", "b", "c", "d"], "first_dealer": 0}
    db.execute("INSERT INTO meta VALUES (1, ?)", (json.dumps(meta),))
    db.executemany("INSERT INTO events (data) VALUES (?)", [(json.dumps(e),) for e in events])
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("events", "kept"),
    [
        ([{"type": "hand_start"}, {"type": "draw", "seat": 0}], [HandStart(), Draw(0)]),
        ([{"type": "hand_start"}, {"type": "draw", "seat": 2}], None),  # seat 2 draws out of turn: not replayable
    ],
)
def test_open_store_brings_over_the_earlier_logs_game_once(tmp_path: Path, events, kept) -> None:
    from device.table.storage import open_store

    path = tmp_path / "game.db"
    _earlier_log(path, events)
    for _ in range(2):  # the second opening finds the game in the one log, and brings nothing over again
        store = open_store(str(path))
        try:
            if kept is None:
                assert store.games() == []
            else:
                assert store.games() == [1] and store.game(1).events == kept and store.game(1).seats == tuple("abcd")
        finally:
            store.close()
