"""A small publish/subscribe bus for the table's live updates (Server-Sent Events).

Every message gets a sequence number. The bus keeps the last ``backlog`` messages so a client that
reconnects with ``Last-Event-ID`` gets what it missed; a client that fell further behind is told to
resync (fetch the whole state again). Subscribers never block the publisher: each one only remembers
the last sequence number it has seen and waits on one shared condition.

>>> bus = EventBus(backlog=4)
>>> sub = bus.subscribe()
>>> _ = bus.publish("state", {"round": "E1"})
>>> [(m.seq, m.kind, m.data) for m in sub.next(timeout=0)]
[(1, 'state', {'round': 'E1'})]
>>> sub.next(timeout=0)   # nothing new: an empty list means "send a heartbeat"
[]
>>> sub.close(); bus.subscribers
0
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from web.contract import RESYNC, Message, TooManySubscribers


class EventBus:
    """Thread-safe fan-out of messages to any number of waiting subscribers."""

    def __init__(self, *, backlog: int = 256, max_subscribers: int = 64, clock: Callable[[], float] = time.time):
        self._cond = threading.Condition()
        self._log: deque[Message] = deque(maxlen=backlog)
        self._seq = 0
        self._subscribers = 0
        self._closed = False
        self.max_subscribers = max_subscribers
        self._clock = clock

    @property
    def seq(self) -> int:
        """The sequence number of the last published message (0 before any)."""
        return self._seq

    @property
    def subscribers(self) -> int:
        return self._subscribers

    def publish(self, kind: str, data: Any) -> Message:
        with self._cond:
            self._seq += 1
            msg = Message(self._seq, kind, data, self._clock())
            self._log.append(msg)
            self._cond.notify_all()
        return msg

    def subscribe(self, last_seq: int | None = None) -> Subscription:
        """A new subscriber; with ``last_seq`` (from ``Last-Event-ID``) it resumes after that message."""
        with self._cond:
            if self._subscribers >= self.max_subscribers:
                raise TooManySubscribers(f"the table already has {self._subscribers} open event streams")
            self._subscribers += 1
            start = self._seq if last_seq is None or last_seq > self._seq or last_seq < 0 else last_seq
            return Subscription(self, start)

    def close(self) -> None:
        """Wake every subscriber and end their streams (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def _release(self) -> None:
        with self._cond:
            self._subscribers -= 1

    def _wait(self, after: int, timeout: float | None) -> list[Message]:
        with self._cond:
            if self._seq <= after and not self._closed and timeout != 0:
                self._cond.wait_for(lambda: self._seq > after or self._closed, timeout=timeout)
            if self._seq <= after:
                return []
            oldest = self._log[0].seq if self._log else self._seq + 1
            if after + 1 < oldest:  # fell behind the backlog: the client must fetch the state again
                return [Message(self._seq, RESYNC, {"seq": self._seq}, self._clock())]
            return [m for m in self._log if m.seq > after]


class Subscription:
    """One client's place in the stream. Not thread-safe: one reader per subscription."""

    def __init__(self, bus: EventBus, after: int):
        self._bus = bus
        self.last_seq = after
        self._open = True

    def next(self, timeout: float | None = None) -> list[Message]:
        """The messages published since the last call, waiting up to ``timeout`` seconds for one.

        An empty list means the timeout passed with nothing new (time for a heartbeat).
        """
        if not self._open:
            return []
        msgs = self._bus._wait(self.last_seq, timeout)
        if msgs:
            self.last_seq = msgs[-1].seq
        return msgs

    @property
    def ended(self) -> bool:
        return not self._open or self._bus.closed

    def close(self) -> None:
        if self._open:
            self._open = False
            self._bus._release()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
