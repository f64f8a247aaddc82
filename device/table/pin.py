"""The table's PIN: how one is made, how long it must be, and how wrong guesses are locked out.

A PIN is at least :data:`MIN_PIN_DIGITS` digits, drawn with :mod:`secrets`. Wrong guesses are limited twice:
per client (an address guessing is made to wait) and for the whole table (a burst of wrong guesses from many
addresses closes joining for a while; phones already joined are not asked for the PIN again and keep working).

>>> len(new_pin()), new_pin().isdigit()
(6, True)
>>> pin_problem("1234")
'the table PIN is 6 to 12 digits'
>>> pin_problem("024680") is None
True
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable

MIN_PIN_DIGITS = 6
MAX_PIN_DIGITS = 12


def new_pin(digits: int = MIN_PIN_DIGITS) -> str:
    """A random PIN of ``digits`` digits (leading zeros kept), from the operating system's secure source."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


def pin_problem(pin: str) -> str | None:
    """What is wrong with ``pin`` as a table's PIN, in one line; None when it will do."""
    if pin.isascii() and pin.isdigit() and MIN_PIN_DIGITS <= len(pin) <= MAX_PIN_DIGITS:
        return None
    return f"the table PIN is {MIN_PIN_DIGITS} to {MAX_PIN_DIGITS} digits"


class PinGuard:
    """Counts wrong PINs: ``wait_s(client)`` before checking one, ``failed(client)`` after a wrong one.

    * per client: more than ``attempts`` wrong within ``window_s`` and that client waits out the window;
    * the whole table: ``table_attempts`` wrong within ``table_window_s`` from all clients together and every
      client waits ``table_lock_s`` (a guesser with many addresses gets no more tries than one with one).

    >>> now = [0.0]
    >>> guard = PinGuard(attempts=5, table_attempts=3, table_window_s=60, table_lock_s=300, clock=lambda: now[0])
    >>> for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
    ...     guard.failed(address)
    >>> guard.wait_s("10.0.0.4")
    301
    >>> now[0] = 301.0; guard.wait_s("10.0.0.4") is None
    True
    """

    def __init__(
        self,
        *,
        attempts: int = 5,
        window_s: float = 60.0,
        table_attempts: int = 30,
        table_window_s: float = 600.0,
        table_lock_s: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 4096,
    ) -> None:
        self.attempts, self.window_s = attempts, window_s
        self.table_attempts, self.table_window_s, self.table_lock_s = table_attempts, table_window_s, table_lock_s
        self.clock = clock
        self._max_clients = max_clients
        self._clients: dict[str, deque[float]] = defaultdict(deque)
        self._table: deque[float] = deque()
        self._table_locked_until = float("-inf")
        self._lock = threading.Lock()

    @property
    def table_locked(self) -> bool:
        """Whether joining is closed for every client now."""
        with self._lock:
            return self.clock() < self._table_locked_until

    def wait_s(self, client: str) -> int | None:
        """Whole seconds ``client`` must wait before trying a PIN; None when it may try now."""
        now = self.clock()
        with self._lock:
            if now < self._table_locked_until:
                return int(self._table_locked_until - now) + 1
            fails = self._clients.get(client)
            if not fails:
                return None
            _forget_before(fails, now - self.window_s)
            if len(fails) >= self.attempts:
                return int(self.window_s - (now - fails[0])) + 1
            return None

    def failed(self, client: str) -> None:
        """Count one wrong PIN from ``client``."""
        now = self.clock()
        with self._lock:
            if client not in self._clients and len(self._clients) >= self._max_clients:
                self._forget_idle(now)
            self._clients[client].append(now)
            _forget_before(self._table, now - self.table_window_s)
            self._table.append(now)
            if len(self._table) >= self.table_attempts:
                self._table_locked_until = now + self.table_lock_s
                self._table.clear()

    def _forget_idle(self, now: float) -> None:
        for client in [c for c, fails in self._clients.items() if not fails or now - fails[-1] > self.window_s]:
            del self._clients[client]
        while len(self._clients) >= self._max_clients:  # all recent: the oldest entry goes
            del self._clients[next(iter(self._clients))]


def _forget_before(times: deque[float], cutoff: float) -> None:
    while times and times[0] < cutoff:
        times.popleft()
