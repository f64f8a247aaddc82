"""The table's PIN: how one is made, how long it must be, and how wrong guesses are locked out.

A PIN is at least :data:`MIN_PIN_DIGITS` digits, drawn with :mod:`secrets`. Wrong guesses are slowed per address
(:class:`PinGuard`: each wrong PIN past a few makes that address wait twice as long), never for the whole table:
a guesser cannot close joining for the players. Players who scan the table's QR code join with its token and are
never asked for the PIN.

>>> len(new_pin()), new_pin().isdigit()
(6, True)
>>> pin_problem("1234")
'the table PIN is 6 to 12 digits'
>>> pin_problem("024680") is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable

from web.guard import client_key

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


def pin_proof(pin: str, salt: str, nonce: str) -> str:
    """What the join page sends in place of the PIN: HMAC-SHA256, keyed by SHA-256 of ``salt:pin``, of the server's
    one-time ``nonce``, in hex. ``web/static/join.js`` computes the same in the phone's browser.

    >>> pin_proof("482913", "salt", "nonce")[:16]
    'fba98780f2755ec5'
    """
    key = hashlib.sha256(f"{salt}:{pin}".encode()).digest()
    return hmac.new(key, nonce.encode(), hashlib.sha256).hexdigest()


class PinGuard:
    """Slows PIN guessing per address, never for everyone: ``wait_s(client)`` before checking a PIN,
    ``failed(client)`` after a wrong one, ``succeeded(client)`` after the right one.

    An address's first few wrong PINs cost nothing (a typo or two); its ``attempts``-th makes it wait
    ``first_wait_s``, and each one after that twice as long as the last, up to ``max_wait_s``. An address that
    guesses nothing for ``forget_after_s`` starts again. No count is kept for the whole table: a guesser on many
    addresses slows only those addresses, and a phone with the right PIN (or the QR code's join token) joins
    whatever they do.
    :func:`guess_days` gives how long a guesser needs at the best rate these limits allow.

    >>> now = [0.0]
    >>> guard = PinGuard(attempts=2, first_wait_s=10, max_wait_s=30, clock=lambda: now[0])
    >>> guard.failed("10.0.0.1"); guard.wait_s("10.0.0.1")
    >>> guard.failed("10.0.0.1"); guard.wait_s("10.0.0.1"), guard.wait_s("10.0.0.2")
    (10, None)
    >>> now[0] = 10.0; guard.failed("10.0.0.1"); guard.wait_s("10.0.0.1")
    20
    >>> now[0] = 30.0; guard.failed("10.0.0.1"); guard.wait_s("10.0.0.1")  # at most max_wait_s
    30
    """

    def __init__(
        self,
        *,
        attempts: int = 5,
        first_wait_s: float = 2.0,
        max_wait_s: float = 3600.0,
        forget_after_s: float = 24 * 3600.0,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 4096,
    ) -> None:
        self.attempts, self.first_wait_s, self.max_wait_s = attempts, first_wait_s, max_wait_s
        self.forget_after_s = forget_after_s
        self.clock = clock
        self._max_clients = max_clients
        # client key -> (wrong PINs in a row, when the last one came, until when it waits)
        self._clients: dict[str, tuple[int, float, float]] = {}
        self._lock = threading.Lock()

    def wait_after(self, wrong: int) -> float:
        """Seconds an address waits after its ``wrong``-th wrong PIN in a row."""
        if wrong < self.attempts:
            return 0.0
        return min(self.max_wait_s, self.first_wait_s * 2.0 ** min(wrong - self.attempts, 60))

    def wait_s(self, client: str) -> int | None:
        """Whole seconds ``client`` must wait before trying a PIN; None when it may try now."""
        now = self.clock()
        with self._lock:
            held = self._clients.get(client_key(client))
            if held is None or now >= held[2]:
                return None
            return max(1, math.ceil(held[2] - now))

    def failed(self, client: str) -> None:
        """Count one wrong PIN from ``client``."""
        key, now = client_key(client), self.clock()
        with self._lock:
            wrong, last, _until = self._clients.pop(key, (0, now, now))
            if now - last > self.forget_after_s:
                wrong = 0
            wrong += 1
            if len(self._clients) >= self._max_clients:
                self._forget_some(now)
            self._clients[key] = (wrong, now, now + self.wait_after(wrong))

    def succeeded(self, client: str) -> None:
        """The right PIN from ``client``: its count starts again."""
        with self._lock:
            self._clients.pop(client_key(client), None)

    def _forget_some(self, now: float) -> None:
        forget = self.forget_after_s
        stale = [k for k, (_w, last, until) in self._clients.items() if now >= until or now - last > forget]
        for key in stale:
            del self._clients[key]
        while len(self._clients) >= self._max_clients:  # every one waiting: the one with the fewest wrong PINs goes
            del self._clients[min(self._clients, key=lambda k: self._clients[k][0])]


def guess_days(guard: PinGuard, addresses: int, digits: int = MIN_PIN_DIGITS) -> float:
    """Expected days for a guesser on ``addresses`` addresses to find a ``digits``-digit PIN under ``guard``'s
    limits, every address guessing as fast as it may (the search ends, on average, halfway through the PINs).

    Each address makes its free tries at once, then one more each time its wait ends; once the wait reaches
    ``max_wait_s``, every address adds one guess per ``max_wait_s``.

    >>> round(guess_days(PinGuard(), 200))
    104
    """
    needed = 10**digits / 2
    ramp_s, ramp_guesses, wrong = 0.0, 0, 0
    while True:  # one address's own start, guess by guess, until its waits stop growing
        wrong += 1
        ramp_guesses += 1
        wait = guard.wait_after(wrong)
        if wait >= guard.max_wait_s:
            break
        ramp_s += wait
    if ramp_guesses * addresses >= needed:  # pragma: no cover - limits this loose are refused by no one
        return 0.0
    return (ramp_s + (needed / addresses - ramp_guesses) * guard.max_wait_s) / 86400.0
