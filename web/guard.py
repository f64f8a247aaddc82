"""What keeps one stranger from taking the table over: server-side sessions, event-stream slots, idempotent writes.

* :class:`SessionTable`: a phone that enters the PIN (or scans the join token) gets a session id, kept here with
  its join time (and in the table's database, so a restart logs nobody out). The signed cookie only names it;
  "Lock this phone" deletes it, so a copy of the cookie is refused afterwards, and every session ends
  ``max_age_s`` after it joined. A burst of joins never ends a session in use.
* :class:`StreamSlots`: the live-update streams one address may hold, and the slots kept for joined phones.
* :class:`IdempotencyCache`: a game write sent again with the same ``Idempotency-Key`` (a retry after a lost
  answer) gets the first answer back and records nothing again.
* :class:`RateLimit`: how often guests (phones without the PIN) may ask for a costly computation.

All four are built per app by :func:`web.security.init_app` and live in ``app.extensions``; all are thread-safe.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


def client_key(address: str) -> str:
    """The key limits per address are kept under: an IPv4 address, or an IPv6 address's /64 network (one phone may
    take any address in its /64, so counting each would give a guesser 2**64 of them).

    >>> client_key("192.168.1.20"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.9")
    ('192.168.1.20', '2001:db8:1:2::/64', '10.0.0.9')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class JoinRefused(RuntimeError):
    """A join that cannot be let in now: too many from this address, or every session in use."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class SessionRows(Protocol):
    """Where sessions are kept across restarts (:class:`device.table.access.TableAccess`)."""

    def load_sessions(self) -> list[tuple[str, str, float, float]]: ...
    def save_session(self, key: str, address: str, joined: float, used: float) -> None: ...
    def delete_session(self, key: str) -> None: ...
    def delete_sessions(self) -> int: ...


@dataclass
class _Session:
    address: str
    joined: float
    used: float
    saved_used: float


class SessionTable:
    """Joined phones' sessions: ``open(address)`` on a right PIN or join token, ``valid(sid)`` on each request,
    ``close(sid)`` to lock.

    A burst of joins never logs out a phone in use:

    * one address joins at most ``joins_per_minute`` times a minute (:class:`JoinRefused` past that), and holds at
      most ``per_address`` sessions: its own least recently used one ends when it opens another;
    * at ``capacity`` the least recently used session ends only if it has been idle ``idle_s``; when every session
      is in use the join is refused instead.

    With ``rows`` (the table's database) every session is kept there too, so a restart logs nobody out; only a
    digest of the id is stored.

    >>> now = [0.0]
    >>> table = SessionTable(max_age_s=60, clock=lambda: now[0])
    >>> sid = table.open("10.0.0.1")
    >>> table.valid(sid), table.valid("forged"), table.valid(None)
    (True, False, False)
    >>> now[0] = 61.0; table.valid(sid)
    False
    >>> sid = table.open("10.0.0.1"); table.close(sid); table.valid(sid)
    False
    """

    #: A session's last use is written to the database at most this often (seconds).
    SAVE_USE_EVERY_S = 60.0

    def __init__(
        self,
        max_age_s: float = 12 * 3600.0,
        *,
        clock: Callable[[], float] = time.time,
        capacity: int = 4096,
        per_address: int = 8,
        idle_s: float = 1800.0,
        joins_per_minute: int = 20,
        rows: SessionRows | None = None,
    ) -> None:
        self.max_age_s = max_age_s
        self.clock = clock
        self.capacity, self.per_address, self.idle_s = capacity, per_address, idle_s
        self.joins_per_minute = joins_per_minute
        self._rows = rows
        self._sessions: OrderedDict[str, _Session] = OrderedDict()  # digest -> session, least recently used first
        self._joins: dict[str, deque[float]] = {}  # address -> when it joined, this last minute
        self._lock = threading.Lock()
        if rows is not None:
            for key, address, joined, used in rows.load_sessions():
                self._sessions[key] = _Session(address, joined, used, used)

    @staticmethod
    def _key(sid: str) -> str:
        return hashlib.sha256(sid.encode()).hexdigest()

    def open(self, address: str = "") -> str:
        """A new session id for a phone at ``address`` that has just given the right PIN or join token.

        Raises :class:`JoinRefused` when this address joins too often, or every session is in use."""
        who = client_key(address)
        now = self.clock()
        with self._lock:
            self._forget_expired(now)
            joins = self._joins.setdefault(who, deque())
            while joins and now - joins[0] >= 60.0:
                joins.popleft()
            if len(joins) >= self.joins_per_minute:
                raise JoinRefused(
                    "too many joins from this address: try again in a minute", int(60.0 - (now - joins[0])) + 1
                )
            own = [key for key, s in self._sessions.items() if s.address == who]
            if len(own) >= self.per_address:
                self._end(own[0])  # this address's own least recently used session
            elif len(self._sessions) >= self.capacity:
                key, oldest = next(iter(self._sessions.items()))
                if now - oldest.used < self.idle_s:
                    raise JoinRefused(
                        f"all {self.capacity} sessions at this table are in use: try again later",
                        int(self.idle_s - (now - oldest.used)) + 1,
                    )
                self._end(key)
            joins.append(now)
            if len(self._joins) > 4 * self.capacity:  # addresses that joined over a minute ago are forgotten
                self._joins = {a: t for a, t in self._joins.items() if t and now - t[-1] < 60.0}
            sid = secrets.token_urlsafe(24)
            key = self._key(sid)
            self._sessions[key] = _Session(who, now, now, now)
            if self._rows is not None:
                self._rows.save_session(key, who, now, now)
        return sid

    def valid(self, sid: object) -> bool:
        """Whether ``sid`` names a session that is open and not expired (and marks it as in use)."""
        if not isinstance(sid, str):
            return False
        key = self._key(sid)
        now = self.clock()
        with self._lock:
            session = self._sessions.get(key)
            if session is None:
                return False
            if now - session.joined >= self.max_age_s:
                self._end(key)
                return False
            session.used = now
            self._sessions.move_to_end(key)
            if self._rows is not None and now - session.saved_used >= self.SAVE_USE_EVERY_S:
                session.saved_used = now
                self._rows.save_session(key, session.address, session.joined, now)
            return True

    def close(self, sid: object) -> None:
        """End the session (a locked phone); unknown ids are ignored."""
        if isinstance(sid, str):
            with self._lock:
                self._end(self._key(sid))

    def close_all(self) -> None:
        """End every session: every phone joins again."""
        with self._lock:
            self._sessions.clear()
            if self._rows is not None:
                self._rows.delete_sessions()

    def _end(self, key: str) -> None:
        if self._sessions.pop(key, None) is not None and self._rows is not None:
            self._rows.delete_session(key)

    def _forget_expired(self, now: float) -> None:
        for key in [k for k, s in self._sessions.items() if now - s.joined >= self.max_age_s]:
            self._end(key)

    def __len__(self) -> int:
        return len(self._sessions)


class NoStreamSlot(RuntimeError):
    """This address (or every guest together) holds all the event streams it may."""


@dataclass(eq=False)
class StreamSlot:
    """One event stream's hold on a slot. Call it to give the slot back (safe to call twice); ``ended`` is set
    when the slot was taken from it (``why``: ``"replaced"`` by a newer stream of the same tab or phone, ``"gone"``
    when its client was found disconnected): its stream should stop."""

    address: str
    joined: bool
    tab: str | None
    phone: str | None
    gone: Callable[[], bool] | None
    _owner: StreamSlots
    ended: threading.Event = field(default_factory=threading.Event)
    why: str = ""

    def __call__(self) -> None:
        self._owner.give_back(self)


class StreamSlots:
    """Event streams held, per address and by guests (phones that have not joined).

    One address holds at most ``per_address`` streams; guests together hold at most ``total - reserved``, so
    ``reserved`` streams stay free for joined phones whatever the guests do. Streams whose client is gone (their
    ``gone()`` says so) are given back before a new one is counted; a new stream from the same ``tab`` replaces
    that tab's old one, and a phone (``phone``: its session) at its address's limit replaces its own oldest.

    >>> slots = StreamSlots(total=4, reserved=2, per_address=1)
    >>> a = slots.take("10.0.0.1", joined=False); b = slots.take("10.0.0.2", joined=False)
    >>> slots.take("10.0.0.3", joined=False)
    Traceback (most recent call last):
    ...
    web.guard.NoStreamSlot: the live-update streams for guests are all taken: join the table, or try again later
    >>> c = slots.take("10.0.0.3", joined=True)
    >>> a(); slots.guests
    1
    >>> d = slots.take("10.0.0.4", joined=True, tab="t1"); e = slots.take("10.0.0.4", joined=True, tab="t1")
    >>> d.ended.is_set(), d.why, e.ended.is_set()
    (True, 'replaced', False)
    """

    def __init__(self, *, total: int, reserved: int, per_address: int) -> None:
        self.total, self.reserved, self.per_address = total, reserved, per_address
        self._by_address: Counter[str] = Counter()
        self._held: list[StreamSlot] = []  # oldest first
        self.guests = 0
        self._lock = threading.RLock()

    def take(
        self,
        address: str,
        *,
        joined: bool,
        tab: str | None = None,
        phone: str | None = None,
        gone: Callable[[], bool] | None = None,
    ) -> StreamSlot:
        """Hold a slot for a stream from ``address`` (``tab``: the page's own id; ``phone``: its session; ``gone``:
        whether its client has disconnected); returns the :class:`StreamSlot`, which gives it back when called.
        Raises :class:`NoStreamSlot` when the address, or the guests together, hold all they may."""
        with self._lock:
            for held in [h for h in self._held if h.gone is not None and _quietly(h.gone)]:
                self._end(held, "gone")
            if tab is not None:
                for held in [h for h in self._held if h.address == address and h.tab == tab]:
                    self._end(held, "replaced")  # the page that opened it has gone: the tab's newest stream wins
            if self._by_address[address] >= self.per_address and phone is not None:
                mine = [h for h in self._held if h.address == address and h.phone == phone]
                if mine:
                    self._end(mine[0], "replaced")
            if self._by_address[address] >= self.per_address:
                raise NoStreamSlot(f"this address already has {self.per_address} live-update streams open")
            if not joined and self.guests >= self.total - self.reserved:
                raise NoStreamSlot(
                    "the live-update streams for guests are all taken: join the table, or try again later"
                )
            slot = StreamSlot(address, joined, tab, phone, gone, self)
            self._held.append(slot)
            self._by_address[address] += 1
            self.guests += not joined
        return slot

    def give_back(self, slot: StreamSlot) -> None:
        """Free ``slot`` (done by calling it); a slot already given back is left as it is."""
        with self._lock:
            if slot not in self._held:
                return
            self._held.remove(slot)
            self._by_address[slot.address] -= 1
            if self._by_address[slot.address] <= 0:
                del self._by_address[slot.address]
            self.guests -= not slot.joined

    def _end(self, slot: StreamSlot, why: str) -> None:
        slot.why = why
        slot.ended.set()
        self.give_back(slot)

    def held(self, address: str | None = None) -> int:
        """Streams held now (from ``address``, or all)."""
        with self._lock:
            return len(self._held) if address is None else self._by_address[address]


def _quietly(check: Callable[[], bool]) -> bool:
    try:
        return bool(check())
    except Exception:  # a server that cannot tell: assume the client is still there
        return False


@dataclass(frozen=True)
class StoredAnswer:
    """The first answer to a keyed write: status, body and content type, sent again as they were."""

    status: int
    body: bytes
    mimetype: str


class KeyInUse(RuntimeError):
    """The key was sent with another request (``busy`` False), or its first request is still being answered."""

    def __init__(self, message: str, *, busy: bool) -> None:
        super().__init__(message)
        self.busy = busy


class IdempotencyCache:
    """The answers to the last ``capacity`` keyed writes, by key, with a digest of the request each answered.

    ``begin(key, digest)``: the stored answer (a retry: send it, record nothing), or None (a new key: go on, then
    ``finish`` or ``abandon``). Raises :class:`KeyInUse` for the same key with another request, or while its first
    request is still running.

    >>> cache = IdempotencyCache(capacity=2)
    >>> cache.begin("k1", "d1") is None
    True
    >>> cache.finish("k1", "d1", StoredAnswer(200, b"{}", "application/json"))
    >>> cache.begin("k1", "d1").status
    200
    """

    def __init__(self, capacity: int = 1024) -> None:
        self._capacity = capacity
        self._answers: OrderedDict[str, tuple[str, StoredAnswer | None]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def digest(*parts: bytes | str) -> str:
        """A digest of what a request asks (method, path, body), to tell a retry from another request."""
        h = hashlib.sha256()
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            h.update(len(data).to_bytes(8, "big") + data)
        return h.hexdigest()

    def begin(self, key: str, digest: str) -> StoredAnswer | None:
        with self._lock:
            held = self._answers.get(key)
            if held is None:
                self._answers[key] = (digest, None)
                while len(self._answers) > self._capacity:
                    self._answers.popitem(last=False)
                return None
            if held[0] != digest:
                raise KeyInUse("this Idempotency-Key was used for another request: send a new key", busy=False)
            if held[1] is None:
                raise KeyInUse(
                    "the first request with this Idempotency-Key is still being answered: retry shortly", busy=True
                )
            return held[1]

    def finish(self, key: str, digest: str, answer: StoredAnswer) -> None:
        with self._lock:
            if self._answers.get(key, (None,))[0] == digest:
                self._answers[key] = (digest, answer)

    def abandon(self, key: str, digest: str) -> None:
        """The request failed before it was answered: the key may be used again."""
        with self._lock:
            held = self._answers.get(key)
            if held is not None and held[0] == digest and held[1] is None:
                del self._answers[key]


class RateLimit:
    """Requests allowed per address, and for every address together: two token buckets, each refilled at its rate
    per second up to ``burst`` requests.

    >>> now = [0.0]
    >>> limit = RateLimit(per_address=1.0, total=10.0, burst=2, clock=lambda: now[0])
    >>> [limit.wait_s("10.0.0.1") for _ in range(3)]
    [None, None, 1.0]
    >>> limit.wait_s("10.0.0.2") is None
    True
    >>> now[0] = 1.0; limit.wait_s("10.0.0.1") is None
    True
    """

    def __init__(
        self,
        *,
        per_address: float,
        total: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        capacity: int = 4096,
    ) -> None:
        self.per_address, self.total, self.burst = per_address, total, burst
        self.clock = clock
        self._capacity = capacity
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (tokens, when), oldest first
        self._all: tuple[float, float] | None = None  # every address's bucket, full until first asked
        self._lock = threading.Lock()

    def _refill(self, bucket: tuple[float, float], rate: float, most: float, now: float) -> float:
        tokens, then = bucket
        return min(most, tokens + (now - then) * rate)

    def wait_s(self, address: str) -> float | None:
        """None: allowed, and counted; else the seconds (rounded up) until ``address`` may ask again."""
        now = self.clock()
        with self._lock:
            mine = self._refill(self._buckets.pop(address, (self.burst, now)), self.per_address, self.burst, now)
            most_all = self.burst * self.total / self.per_address
            everyone = self._refill(self._all or (most_all, now), self.total, most_all, now)
            if mine >= 1 and everyone >= 1:
                mine, everyone, wait = mine - 1, everyone - 1, None
            else:
                wait = max(
                    (1 - mine) / self.per_address if mine < 1 else 0.0,
                    (1 - everyone) / self.total if everyone < 1 else 0.0,
                )
                wait = float(-(-wait // 1)) if wait > 1 else 1.0
            self._buckets[address] = (mine, now)
            self._all = (everyone, now)
            while len(self._buckets) > self._capacity:
                self._buckets.popitem(last=False)
            return wait
