"""``GET /events``: the table's live updates as Server-Sent Events.

The first frame is the whole state (or, for a client resuming with ``Last-Event-ID``, the messages it
missed). Then every change is pushed once, as it happens: ``state`` (the whole state: the game, the camera
and the camera game's ``follow``, each in its one place), ``camera`` (a new reading alone), ``corrections``;
an idle stream gets a ``heartbeat`` every ``JANTAKU_HEARTBEAT_S`` seconds so phones notice a dead connection
and reconnect. A stream ends after ``JANTAKU_STREAM_MAX_S`` seconds (the browser reconnects by itself,
resuming where it was), which also frees the server's threads from clients that went away silently.

One address holds at most ``JANTAKU_STREAMS_PER_ADDRESS`` streams, and guests (phones that have not joined)
leave ``JANTAKU_STREAMS_RESERVED`` of the table's streams free for joined phones (:class:`web.guard.StreamSlots`);
past either, the answer is 429 with ``Retry-After``. A stream whose phone went away gives its slot back at once:
the server is asked (waitress's ``waitress.client_disconnected``) every ``JANTAKU_DISCONNECT_CHECK_S`` seconds
and whenever a new stream needs a slot. A page names itself with ``?tab=ID`` (an id its tab keeps): its new
stream replaces the tab's old one, and a phone (its session) at its address's limit gives up its oldest stream;
a replaced stream gets a ``replaced`` event and ends.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from flask import Blueprint, Response, current_app, request, session

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


#: A tab id as a page sends it: a short token of letters, digits, ``-`` and ``_``.
_TAB = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _tab() -> str | None:
    raw = request.args.get("tab")
    return raw if raw is not None and _TAB.fullmatch(raw) else None


def _phone() -> str | None:
    """This browser's session, as a digest (the session id of a joined phone, else its CSRF token's)."""
    secret = session.get("sid") or session.get("csrf")
    return hashlib.sha256(secret.encode()).hexdigest()[:20] if isinstance(secret, str) else None


@bp.get("/events")
def events():
    svc = service()
    heartbeat = float(current_app.config["JANTAKU_HEARTBEAT_S"])
    max_s = float(current_app.config["JANTAKU_STREAM_MAX_S"])
    tick = min(heartbeat, float(current_app.config["JANTAKU_DISCONNECT_CHECK_S"]))
    last = _last_id()
    gone = request.environ.get("waitress.client_disconnected")  # a server that cannot tell: heartbeats find out
    try:
        slot = current_app.extensions["jantaku.streams"].take(
            client_id(), joined=joined(), tab=_tab(), phone=_phone(), gone=gone if callable(gone) else None
        )
    except NoStreamSlot as exc:
        return _busy(str(exc))
    try:
        sub = svc.bus.subscribe(last)
    except TooManySubscribers as exc:
        slot()
        return _busy(str(exc))

    def over() -> bool:
        return slot.ended.is_set() or (callable(gone) and bool(gone()))

    def stream():
        try:
            with sub:
                yield "retry: 2000\n\n"
                if last is None or last != sub.last_seq:
                    # a fresh client (or one too far behind to resume): the whole state first
                    state = svc.state()
                    yield Message(sub.last_seq, "state", state).sse()
                now = time.monotonic()
                end, beat = now + max_s, now + heartbeat
                while not sub.ended and not over():
                    now = time.monotonic()
                    if now >= end:
                        break
                    if now >= beat:  # writing also finds a dead connection on a server that cannot tell
                        beat = now + heartbeat
                        yield f"event: heartbeat\ndata: {json.dumps({'t': time.time(), 'seq': sub.last_seq})}\n\n"
                    messages = sub.next(timeout=max(0.0, min(tick, end - now, beat - now)))
                    for msg in messages:
                        if msg.kind == RESYNC:
                            yield Message(msg.seq, "state", svc.state()).sse()
                        else:
                            yield msg.sse()
                if slot.why == "replaced":
                    yield "event: replaced\ndata: {}\n\n"
        finally:
            slot()  # the slot is free the moment the stream ends, however it ends

    response = Response(stream(), mimetype="text/event-stream")
    # the server closes the response even when the stream never started (the phone went away first)
    response.call_on_close(sub.close)
    response.call_on_close(slot)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
