"""Games on disk: an append-only event log in SQLite (WAL), the state derived by replaying it.

Each game is one row of metadata (rule set with every option, seat names, first dealer, start
position) and a log of rows that are only ever appended: an event, or an ``undo`` marker that
takes back the last event still in force. ``append`` checks the event against the engine first
(a refused event raises ``IllegalAction`` and is not stored) and returns once the row is
committed with ``synchronous=FULL``: a process killed at any moment afterwards loses nothing,
and a process killed mid-write loses at most the row it was writing.

A phone's write may carry a key (its ``Idempotency-Key`` and a digest of the request): the key is stored in the
write's own transaction (table ``write_keys``), so a retry after a crash finds the write recorded
(:meth:`GameStore.keyed_write`) and records nothing again. Each game's *revision* (:meth:`GameStore.revision`, the
number of rows in its log, undo rows included) only ever grows: a write made on an older one is stale.

>>> from engine.rules import preset
>>> from engine.game.events import HandStart, Draw
>>> store = GameStore(":memory:")
>>> gid = store.create(preset("standard"), ("Ann", "Bo", "Cy", "Di"))
>>> store.append(gid, HandStart()); store.append(gid, Draw(0))
>>> _ = store.undo(gid); len(store.game(gid).events)
1
>>> store.export_json(gid)["format"]
'jantaku-game/1'
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.game.events import Event, event_from_dict
from engine.game.record import game_from_json, game_to_json, rules_from_dict
from engine.game.state import Game
from engine.game.table import Position
from engine.rules import RuleSet

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    meta TEXT NOT NULL            -- game_to_json(game) without its events
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,          -- 0, 1, 2 ... per game
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo')),
    data TEXT,                     -- the event as JSON (NULL for an undo)
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS write_keys (
    key TEXT PRIMARY KEY,          -- the client's Idempotency-Key, scoped by who sent it
    digest TEXT NOT NULL,          -- what the request asked (method, path, body)
    at REAL NOT NULL,
    status INTEGER,                -- the answer sent, once known (NULL: recorded, the answer never sent)
    mimetype TEXT,
    body BLOB
);
"""

#: The write keys kept (the newest); a retry comes seconds after its first try, not thousands of writes later.
KEEP_WRITE_KEYS = 4096

#: A write's key as the store keeps it: (the scoped Idempotency-Key, the request's digest).
WriteKey = tuple[str, str]


class StorageError(EngineError):
    """A game or a file that cannot be read."""


class KeyReused(StorageError):
    """A write key already stored for another request (another digest)."""


class GameStore:
    """Games in one SQLite file. Thread-safe; keeps each game's replayed state in memory."""

    def __init__(self, path: str | Path) -> None:
        path = str(path)
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            path = str(Path(path).expanduser())
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._games: dict[int, Game] = {}
        self._prune_write_keys()

    def _prune_write_keys(self) -> None:
        with self._lock:
            n = self._db.execute("SELECT COUNT(*) FROM write_keys").fetchone()[0]
            if n > KEEP_WRITE_KEYS:
                self._db.execute(
                    "DELETE FROM write_keys WHERE key NOT IN (SELECT key FROM write_keys ORDER BY at DESC LIMIT ?)",
                    (KEEP_WRITE_KEYS,),
                )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -------------------------------------------------------------- games

    def create(
        self,
        rules: RuleSet,
        seats: tuple[str, ...] | list[str],
        first_dealer: int = 0,
        start: Position | None = None,
        *,
        key: WriteKey | None = None,
    ) -> int:
        """A new, empty game; returns its id. ``key``: the write's key, stored with it (see :meth:`keyed_write`)."""
        game = Game(rules, seats, first_dealer, start)
        return self._insert(game, key)

    def _insert(self, game: Game, key: WriteKey | None = None) -> int:
        meta = game_to_json(game)
        events = meta.pop("events")
        with self._lock:
            with self._transaction(key):
                cur = self._db.execute(
                    "INSERT INTO games (created, meta) VALUES (?, ?)", (time.time(), json.dumps(meta))
                )
                gid = int(cur.lastrowid or 0)
                self._log_events(gid, 0, events)
            self._games[gid] = game
            return gid

    @contextmanager
    def _transaction(self, key: WriteKey | None = None) -> Iterator[None]:
        """The block's writes all stored, or none (the caller holds ``_lock``); ``key`` stored with them."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if key is not None:
                self._db.execute("INSERT INTO write_keys (key, digest, at) VALUES (?, ?, ?)", (*key, time.time()))
            yield
            self._db.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk does): then ROLLBACK raises "no transaction is
            # active", which must not hide the error that ended the transaction
            if self._db.in_transaction:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    # -------------------------------------------------------------- write keys

    def keyed_write(self, key: str, digest: str) -> tuple[int, str, bytes] | bool | None:
        """What the store knows of the write with ``key``: None (never recorded), True (recorded, its answer not
        kept) or its answer ``(status, mimetype, body)``. Raises :class:`KeyReused` for a key recorded with another
        digest."""
        with self._lock:
            row = self._db.execute(
                "SELECT digest, status, mimetype, body FROM write_keys WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        if row[0] != digest:
            raise KeyReused("this Idempotency-Key was used for another request: send a new key")
        if row[1] is None:
            return True
        return int(row[1]), str(row[2]), bytes(row[3])

    def keep_answer(self, key: str, digest: str, status: int, mimetype: str, body: bytes) -> None:
        """The answer sent to a keyed write, for a retry to get it again (a no-op for a key the store lacks)."""
        with self._lock:
            self._db.execute(
                "UPDATE write_keys SET status = ?, mimetype = ?, body = ? WHERE key = ? AND digest = ?",
                (status, mimetype, body, key, digest),
            )

    def revision(self, game_id: int) -> int:
        """The number of rows in the game's log (undo rows included): it grows with every write, never shrinks."""
        with self._lock:
            return self._next_seq(game_id)

    def _log_events(self, game_id: int, first_seq: int, events: Sequence[dict[str, Any]]) -> None:
        now = time.time()
        for n, data in enumerate(events):
            self._db.execute(
                "INSERT INTO log (game_id, seq, kind, data, at) VALUES (?, ?, 'event', ?, ?)",
                (game_id, first_seq + n, json.dumps(data), now),
            )

    def games(self) -> list[int]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY id")]

    def events(self, game_id: int) -> list[Event]:
        """The events in force: the log replayed with each undo taking back the last event."""
        with self._lock:
            rows = self._db.execute("SELECT kind, data FROM log WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        out: list[Event] = []
        for kind, data in rows:
            if kind == "undo":
                if out:
                    out.pop()
            else:
                out.append(event_from_dict(json.loads(data)))
        return out

    def game(self, game_id: int) -> Game:
        """The game's state, replayed from the log (cached after the first time)."""
        with self._lock:
            g = self._games.get(game_id)
            if g is None:
                row = self._db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise StorageError(f"no game {game_id} in this store")
                meta = json.loads(row[0])
                meta["events"] = [e.to_dict() for e in self.events(game_id)]
                g = game_from_json(meta)
                self._games[game_id] = g
            return g

    # -------------------------------------------------------------- the log

    def _next_seq(self, game_id: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM log WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def append(self, game_id: int, event: Event, *, key: WriteKey | None = None) -> Any:
        """Check the event against the game, then commit it. Returns what ``Game.apply`` returned."""
        return self.append_all(game_id, (event,), key=key)

    def append_all(self, game_id: int, events: Sequence[Event], *, key: WriteKey | None = None) -> Any:
        """Check the events against the game one after another, then commit them together: all or none (a hand
        start and the event it was made for), with ``key``. Returns what ``Game.apply`` returned for the last."""
        with self._lock:
            g = self.game(game_id)
            result: Any = None
            applied = 0
            try:
                for event in events:
                    result = g.apply(event)  # a refused event leaves the state as it was ...
                    applied += 1
            except EngineError:
                if applied:  # ... but not the events before it: rebuild from the disk next time
                    self._games.pop(game_id, None)
                raise
            except BaseException:
                self._games.pop(game_id, None)  # an unexpected failure: rebuild from the disk next time
                raise
            try:
                with self._transaction(key):
                    self._log_events(game_id, self._next_seq(game_id), [event.to_dict() for event in events])
            except BaseException:
                self._games.pop(game_id, None)  # the disk is the truth: replay next time
                raise
            return result

    def undo(self, game_id: int, *, key: WriteKey | None = None, count: int = 1) -> Game:
        """Take back the last ``count`` events in force (as many ``undo`` rows are appended together, with ``key``);
        returns the game as it now is."""
        with self._lock:
            g = self.game(game_id)
            try:
                undone = g.undo(count)  # checked before anything is written
            except EngineError as exc:
                raise StorageError(str(exc)) from None
            first = self._next_seq(game_id)
            with self._transaction(key):
                now = time.time()
                for n in range(count):
                    self._db.execute(
                        "INSERT INTO log (game_id, seq, kind, data, at) VALUES (?, ?, 'undo', NULL, ?)",
                        (game_id, first + n, now),
                    )
            self._games[game_id] = undone
            return undone

    # -------------------------------------------------------------- JSON

    def export_json(self, game_id: int) -> dict[str, Any]:
        """The game as ``engine.game.record.game_to_json`` writes it (events in force only)."""
        return game_to_json(self.game(game_id))

    def import_json(self, data: dict[str, Any], *, key: WriteKey | None = None) -> int:
        """Store a game from ``export_json`` output (every event is replayed and checked); returns its id."""
        try:
            game = game_from_json(data)
        except EngineError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a shape the file should not have
            raise StorageError(f"not a game file: {exc}") from None
        return self._insert(game, key)

    def export_file(self, game_id: int, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.export_json(game_id), ensure_ascii=False, indent=1), encoding="utf-8")

    def import_file(self, path: str | Path) -> int:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StorageError(f"cannot read game file {path}: {exc}") from None
        return self.import_json(data)


def open_store(db_path: str | None) -> GameStore:
    """The table's game log at ``db_path`` (in memory only without a path); a file with no game yet brings over the
    game its earlier log left there (:func:`import_legacy_game`)."""
    if db_path is None:
        return GameStore(":memory:")
    store = GameStore(db_path)
    if not store.games():
        import_legacy_game(store, db_path)
    return store


def import_legacy_game(store: GameStore, db_path: str) -> None:
    """A game left in the file by the table's earlier log (tables ``meta`` and ``events``): stored as a game here.

    That log deleted rows to undo; its tables are left as they are (read once, never written again).
    """
    db = sqlite3.connect(db_path)
    try:
        row = db.execute("SELECT data FROM meta WHERE id = 1").fetchone()
        events = [json.loads(r[0]) for r in db.execute("SELECT data FROM events ORDER BY id")] if row else []
    except sqlite3.OperationalError:  # no such tables: nothing to bring over
        return
    finally:
        db.close()
    if row is None:
        return
    try:
        store.import_json({**json.loads(row[0]), "events": events})
    except (EngineError, ValueError, TypeError) as exc:
        log.warning("the game in %s's old log cannot be replayed, not kept: %s", db_path, exc)


def storage_problem(db: str | Path, exc: BaseException) -> str:
    """The one line that says why the game log at ``db`` (or its folder) cannot be opened at start-up."""
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return f"cannot open the game log {db}: {reason} (is the disk full or read-only?)"


def rules_of(meta: dict[str, Any]) -> RuleSet:
    """The rule set stored in a game's metadata."""
    return rules_from_dict(meta["rules"])
