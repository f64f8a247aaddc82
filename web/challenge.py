"""The PIN's challenge: one-time nonces, so the join page proves it knows the PIN without sending it.

The page asks ``GET /join/challenge`` for a nonce and the table's salt, computes
``HMAC-SHA256(SHA-256(salt + ":" + PIN), nonce)`` (``web/static/join.js``; the server's side is the service's
``check_pin_proof``) and posts that with the nonce. A nonce answers once, within ``ttl_s``: a recorded join cannot
be played again.

>>> book = Challenges(ttl_s=60, clock=lambda: 0.0)
>>> nonce = book.issue()
>>> book.take(nonce), book.take(nonce), book.take("made-up")
(True, False, False)
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable


class Challenges:
    """Nonces issued and not yet answered (the newest ``capacity``), each good for ``ttl_s`` seconds."""

    def __init__(self, ttl_s: float = 120.0, capacity: int = 4096, *, clock: Callable[[], float] = time.monotonic):
        self.ttl_s, self.capacity, self.clock = ttl_s, capacity, clock
        self._issued: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def issue(self) -> str:
        nonce = secrets.token_urlsafe(24)
        now = self.clock()
        with self._lock:
            while self._issued and (
                len(self._issued) >= self.capacity or now - next(iter(self._issued.values())) >= self.ttl_s
            ):
                self._issued.popitem(last=False)
            self._issued[nonce] = now
        return nonce

    def take(self, nonce: object) -> bool:
        """Whether ``nonce`` was issued here, unanswered and in time; it answers no second time."""
        if not isinstance(nonce, str):
            return False
        with self._lock:
            issued = self._issued.pop(nonce, None)
        return issued is not None and self.clock() - issued < self.ttl_s
