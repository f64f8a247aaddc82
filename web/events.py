"""``GET /events``: the table's live updates as Server-Sent Events.

The first frame is the whole state (or, for a client resuming with ``Last-Event-ID``, the messages it
missed). Then every change is pushed as it happens: ``state`` (the game), ``camera`` (what the camera
sees), ``corrections``; an idle stream gets a ``heartbeat`` every ``JANTAKU_HEARTBEAT_S`` seconds so
phones notice a dead connection and reconnect. A stream ends after ``JANTAKU_STREAM_MAX_S`` seconds
(the browser reconnects by itself, resuming where it was), which also frees the server's threads from
clients that went away silently.

One address holds at most ``JANTAKU_STREAMS_PER_ADDRESS`` streams, and guests (phones that have not joined)
leave ``JANTAKU_STREAMS_RESERVED`` of the table's streams free for joined phones (:class:`web.guard.StreamSlots`);
past either, the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import json
import time

from flask import Blueprint, Response, current_app, request

from web.contract import RESYNC, Message, TooManySubscribers
from web.errors import error_response
from web.guard import NoStreamSlot
from web.security import client_id, joined, service

bp = Blueprint("events", __name__)


def _last_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _busy(message: str) -> Response:
    response = error_response(429, message)
    response.headers["Retry-After"] = "5"
    return response


@bp.get("/events")
def events():
    svc = service()
    heartbeat = float(current_app.config["JANTAKU_HEARTBEAT_S"])
    max_s = float(current_app.config["JANTAKU_STREAM_MAX_S"])
    last = _last_id()
    try:
        give_back = current_app.extensions["jantaku.streams"].take(client_id(), joined=joined())
    except NoStreamSlot as exc:
        return _busy(str(exc))
    try:
        sub = svc.bus.subscribe(last)
    except TooManySubscribers as exc:
        give_back()
        return _busy(str(exc))

    def stream():
        with sub:
            yield "retry: 2000\n\n"
            if last is None or last != sub.last_seq:
                # a fresh client (or one too far behind to resume): the whole state first
                state = svc.state()
                yield Message(sub.last_seq, "state", state).sse()
            end = time.monotonic() + max_s
            while not sub.ended:
                left = end - time.monotonic()
                if left <= 0:
                    break
                messages = sub.next(timeout=min(heartbeat, left))
                if not messages:
                    if sub.ended:
                        break
                    yield f"event: heartbeat\ndata: {json.dumps({'t': time.time(), 'seq': sub.last_seq})}\n\n"
                    continue
                for msg in messages:
                    if msg.kind == RESYNC:
                        yield Message(msg.seq, "state", svc.state()).sse()
                    else:
                        yield msg.sse()

    response = Response(stream(), mimetype="text/event-stream")
    # the server closes the response even when the stream never started (the phone went away first)
    response.call_on_close(sub.close)
    response.call_on_close(give_back)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
