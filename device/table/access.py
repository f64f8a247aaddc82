"""Who may change the game, kept in the table's database so that a restart logs nobody out.

Two tables beside the game log (same SQLite file, own connection):

* ``access_secrets``: the table's kept secrets, each made once: the join token the QR code carries
  (:meth:`TableAccess.join_token`, 192 bits), the key that signs the phones' cookies, the salt of the PIN's
  challenge and the key of the PIN's epoch.
* ``access_sessions``: the joined phones' sessions (:class:`web.guard.SessionTable` keeps them in memory and
  writes them through here). Only a digest of each session id is stored: a copy of the database file lets no one
  act as a joined phone.

>>> access = TableAccess(":memory:")
>>> token = access.join_token(); len(token) >= 32, access.is_join_token(token), access.is_join_token("guess")
(True, True, False)
>>> new = access.rotate_join_token(); access.is_join_token(token), access.is_join_token(new)
(False, True)
>>> access.secret("site_key") == access.secret("site_key")
True
"""

from __future__ import annotations

import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS access_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    made REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS access_sessions (
    key TEXT PRIMARY KEY,          -- sha256 of the session id the cookie carries
    address TEXT NOT NULL,         -- the address it joined from
    joined REAL NOT NULL,          -- when it joined (seconds since the epoch)
    used REAL NOT NULL             -- when it was last used, to within a minute
);
"""

#: Bytes of randomness in a join token (token_urlsafe: 32 characters): well over the 128 bits asked of it.
JOIN_TOKEN_BYTES = 24


class TableAccess:
    """The table's kept secrets and sessions in the SQLite file at ``path`` (``":memory:"``: for this run only)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        path = str(path)
        if path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            path = str(Path(path).expanduser())
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- secrets --------------------------------------------------------------------------------------------

    def secret(self, name: str, make: Callable[[], str] = lambda: secrets.token_urlsafe(32)) -> str:
        """The kept secret ``name``, made by ``make`` the first time it is asked for."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO access_secrets (name, value, made) VALUES (?, ?, ?)", (name, make(), time.time())
            )
            return self._db.execute("SELECT value FROM access_secrets WHERE name = ?", (name,)).fetchone()[0]

    def join_token(self) -> str:
        """The token the table's QR code carries: scanning it joins the table with no PIN."""
        return self.secret("join_token", lambda: secrets.token_urlsafe(JOIN_TOKEN_BYTES))

    def rotate_join_token(self) -> str:
        """A new join token; the old one joins no one from now on (phones already joined stay joined)."""
        token = secrets.token_urlsafe(JOIN_TOKEN_BYTES)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO access_secrets (name, value, made) VALUES ('join_token', ?, ?)",
                (token, time.time()),
            )
        return token

    def is_join_token(self, token: object) -> bool:
        """Whether ``token`` is the current join token (read from the file each time: a rotation by
        ``jantaku token rotate`` in another process counts at once)."""
        if not isinstance(token, str) or not token:
            return False
        return hmac.compare_digest(token.encode(), self.join_token().encode())

    # --- sessions (the rows behind web.guard.SessionTable) -------------------------------------------------

    def load_sessions(self) -> list[tuple[str, str, float, float]]:
        """Every kept session: (key, address, joined, used), least recently used first."""
        with self._lock:
            return list(self._db.execute("SELECT key, address, joined, used FROM access_sessions ORDER BY used"))

    def save_session(self, key: str, address: str, joined: float, used: float) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO access_sessions (key, address, joined, used) VALUES (?, ?, ?, ?)",
                (key, address, joined, used),
            )

    def delete_session(self, key: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM access_sessions WHERE key = ?", (key,))

    def delete_sessions(self) -> int:
        """End every session (every phone joins again); returns how many there were."""
        with self._lock:
            return self._db.execute("DELETE FROM access_sessions").rowcount
