"""The table's current game on disk: an append-only event log in SQLite (WAL), replayed at start.

One row of game metadata (rules, seats) and one row per event, each committed before the phone is told it
happened. Undo deletes the last row. A new game clears the log.

>>> store = GameStore(":memory:")
>>> store.load() is None
True
>>> store.reset({"rules": {"name": "standard"}, "seats": ["A", "B", "C", "D"]})
>>> store.append({"type": "hand_start"}); store.append({"type": "chombo", "seat": 1})
>>> store.pop(); store.load()
({'rules': {'name': 'standard'}, 'seats': ['A', 'B', 'C', 'D']}, [{'type': 'hand_start'}])
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any


class GameStore:
    def __init__(self, path: str) -> None:
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            path = str(Path(path).expanduser())
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)")
        self._db.execute("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)")

    def load(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """``(meta, events)`` of the stored game, or None when there is none."""
        with self._lock:
            row = self._db.execute("SELECT data FROM meta WHERE id = 1").fetchone()
            if row is None:
                return None
            events = [json.loads(r[0]) for r in self._db.execute("SELECT data FROM events ORDER BY id")]
            return json.loads(row[0]), events

    def reset(self, meta: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM events")
            self._db.execute("INSERT OR REPLACE INTO meta (id, data) VALUES (1, ?)", (json.dumps(meta),))
            self._db.execute("COMMIT")

    def append(self, event: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute("INSERT INTO events (data) VALUES (?)", (json.dumps(event),))

    def pop(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM events WHERE id = (SELECT MAX(id) FROM events)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
