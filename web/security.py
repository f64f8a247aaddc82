"""PIN and CSRF.

* CSRF: each browser session gets a random token (``session["csrf"]``), put in every page
  (``<meta name="csrf-token">`` and hidden form fields). Every POST must send it back, in the form field
  ``csrf_token`` or the header ``X-CSRF-Token``; a POST whose ``Origin`` names another host is refused too.
  The read-only computations ``POST /api/score`` and ``/api/waits`` are exempt (scripts and checks call
  them directly); they change nothing in the game and keep nothing. A photo read (``/api/read``) keeps its
  frame for corrections, so it needs the token: another site cannot post photos through a player's browser.
* Joining: a change to the game needs the table joined. A phone joins by scanning the table's QR code (its join
  token, ``/join/<token>``: no PIN, no lock), or by the PIN on the join page, which sends only an answer to a
  one-time challenge (:mod:`web.challenge`), never the PIN itself; scripts may send the PIN in the header
  ``X-Table-PIN`` or the form field ``pin``. Joining opens a session on the server (:class:`web.guard.SessionTable`,
  kept in the table's database): "Lock this phone" ends it (a copy of the cookie is refused afterwards) and it
  ends by itself after ``JANTAKU_SESSION_MAX_S``. Wrong PINs slow only the address that sent them
  (:class:`device.table.pin.PinGuard`); the client's address is the connection's (``X-Forwarded-For`` is not
  trusted).
* Idempotency: a game write sent with an ``Idempotency-Key`` header answers a retry with the same key and
  body with the first answer, recording nothing again (:class:`web.guard.IdempotencyCache`). The game's writes
  (:func:`game_write`) store the key in the game's own database in the write's transaction, so a retry after the
  table restarts (a crash, a power cut) is answered as a replay too (``Idempotent-Replayed: true``).
* Revisions: a game write may name the game revision it was made on (header ``X-Game-Revision``, the
  ``state()["game"]["revision"]`` the page last saw; the pages always send it). When the game has moved on since
  (a double tap, another phone first, an undo racing a win) it is refused with 409 and the state now, and
  nothing is recorded. A write without the header (a script) is not checked.
"""

from __future__ import annotations

import functools
import hmac
import io
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, g, jsonify, request, session

from web.challenge import Challenges
from web.contract import CURRENT_WRITE, WriteIntent
from web.guard import IdempotencyCache, JoinRefused, KeyInUse, RateLimit, SessionTable, StoredAnswer, StreamSlots

CSRF_EXEMPT = {"api.score", "api.waits"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) != 43:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def _check_csrf() -> None:
    if request.method in SAFE_METHODS or request.endpoint in CSRF_EXEMPT or request.endpoint is None:
        return
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        abort(403, description="cross-site request refused")
    sent = request.headers.get("X-CSRF-Token")
    if sent is None and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        sent = request.form.get("csrf_token")
    expected = session.get("csrf")
    if not sent or not isinstance(expected, str) or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(403, description="missing or wrong CSRF token: reload the page")


def service():
    return current_app.extensions["jantaku"]


def client_id() -> str:
    return request.remote_addr or "?"


def has_pin() -> bool:
    """Whether this request may change the game: the session joined the table, or the header gives the PIN."""
    if "has_pin" not in g:  # asked once per request: a wrong header PIN counts once
        header = request.headers.get("X-Table-PIN")
        g.has_pin = joined() or (header is not None and _try_pin(header))
    return bool(g.has_pin)


def joined() -> bool:
    """Whether this browser session joined the table with the PIN, and its session is still open on the server."""
    return session.get("pin_ok") == _pin_epoch() and sessions().valid(session.get("sid"))


def sessions() -> SessionTable:
    return current_app.extensions["jantaku.sessions"]


def _pin_epoch() -> str:
    return getattr(service(), "pin_epoch", "1")


def _try_pin(pin: Any) -> bool:
    from web.contract import PinLocked

    try:
        ok = service().check_pin(pin, client=client_id())
    except PinLocked as exc:
        abort(429, description=str(exc), retry_after=exc.retry_after_s)
    return ok


def unlock(pin: Any) -> bool:
    """Check a PIN sent in clear (a script's form post); on success the session may change the game."""
    if not _try_pin(pin):
        return False
    _open_session()
    return True


def unlock_with_proof(nonce: Any, proof: Any) -> bool:
    """Check the join page's answer to a challenge (:mod:`web.challenge`): the PIN itself never crosses the
    network. A nonce not issued here, used, or too old is refused (403) before the PIN is checked."""
    if not challenges().take(nonce):
        abort(403, description="the join page's challenge has expired: reload the page and enter the PIN again")
    from web.contract import PinLocked

    try:
        ok = service().check_pin_proof(nonce, proof, client=client_id())
    except PinLocked as exc:
        abort(429, description=str(exc), retry_after=exc.retry_after_s)
    if ok:
        _open_session()
    return ok


def join_with_token(token: Any) -> bool:
    """Join with the table's join token (its QR code): no PIN, and no PIN lock applies."""
    if not service().check_join_token(token):
        return False
    _open_session()
    return True


def _open_session() -> None:
    sessions().close(session.get("sid"))
    try:
        session["sid"] = sessions().open(client_id())
    except JoinRefused as exc:
        session.pop("sid", None)
        abort(429, description=str(exc), retry_after=exc.retry_after_s)
    session["pin_ok"] = _pin_epoch()


def challenges() -> Challenges:
    return current_app.extensions["jantaku.challenges"]


def lock() -> None:
    """End this phone's session on the server: the cookie, and any copy of it, no longer changes the game."""
    sessions().close(session.pop("sid", None))
    session.pop("pin_ok", None)


def pin_required(route: Callable) -> Callable:
    """The route changes the game: refuse it (403, JSON) without the table's PIN."""

    @functools.wraps(route)
    def wrapped(*args: Any, **kwargs: Any):
        if not has_pin():
            abort(403, description="this needs the table's PIN (join the table first)")
        return route(*args, **kwargs)

    wrapped.changes_game = True  # type: ignore[attr-defined]  # writes accept an Idempotency-Key
    return wrapped


def guests_limited(route: Callable) -> Callable:
    """A costly read: phones without the PIN may ask a few times a second per address, and all together a few
    more (``JANTAKU_GUEST_COSTLY_PER_S``, ``JANTAKU_GUESTS_COSTLY_PER_S``); past that a 429 with Retry-After.
    Joined phones are not limited."""

    @functools.wraps(route)
    def wrapped(*args: Any, **kwargs: Any):
        if not has_pin():
            wait = current_app.extensions["jantaku.guest_limit"].wait_s(client_id())
            if wait is not None:
                response = jsonify(
                    error="too many requests from guests: join the table, or try again in a moment", status=429
                )
                response.status_code = 429
                response.headers["Retry-After"] = str(int(wait))
                return response
        return route(*args, **kwargs)

    return wrapped


#: The header a game write names the revision it was made on with.
REVISION_HEADER = "X-Game-Revision"


def game_write(route: Callable) -> Callable:
    """The route records a write in the game: the service checks the revision the phone names (``X-Game-Revision``)
    and stores the request's ``Idempotency-Key`` with the write, both as it records it (:class:`WriteIntent`)."""

    @functools.wraps(route)
    def wrapped(*args: Any, **kwargs: Any):
        revision = request.headers.get(REVISION_HEADER)
        if revision is not None and not (1 <= len(revision) <= 40 and revision.isascii() and revision.isprintable()):
            abort(400, description=f"{REVISION_HEADER} is the game's revision as the state gives it (e.g. '1.12')")
        token = CURRENT_WRITE.set(WriteIntent(revision=revision, key=g.get("idempotency")))
        try:
            return route(*args, **kwargs)
        finally:
            CURRENT_WRITE.reset(token)

    return wrapped


def _replay_idempotent() -> Response | None:
    """Before a game write with an ``Idempotency-Key``: the first answer again for a retry, else note the key."""
    key = request.headers.get("Idempotency-Key")
    route = current_app.view_functions.get(request.endpoint or "")
    if key is None or request.method != "POST" or not getattr(route, "changes_game", False):
        return None
    if not 1 <= len(key) <= 200 or not key.isascii() or not key.isprintable():
        abort(400, description="Idempotency-Key is 1 to 200 printable ASCII characters")
    if not has_pin():
        return None  # the route refuses it
    body = request.get_data(cache=True)
    # routes that read the body as a stream (a game file) read it from here; forms and JSON use the cached copy
    request.__dict__["stream"] = io.BytesIO(body)
    digest = IdempotencyCache.digest(request.method, request.path, body)
    cache: IdempotencyCache = current_app.extensions["jantaku.idempotency"]
    # a key is the client's own: another phone (or script) using the same key is another write
    key = f"{session.get('sid') if joined() else 'pin@' + client_id()}:{key}"
    try:
        answer = cache.begin(key, digest)
    except KeyInUse as exc:
        abort(409 if exc.busy else 422, description=str(exc))
    if answer is None:
        answer = _stored_answer(key, digest)
        if answer is None:
            g.idempotency = (key, digest)
            return None
        cache.finish(key, digest, answer)
    replay = Response(answer.body, status=answer.status, mimetype=answer.mimetype)
    replay.headers["Idempotent-Replayed"] = "true"
    return replay


def _stored_answer(key: str, digest: str) -> StoredAnswer | None:
    """A keyed write the game's store recorded before (this process, or one before a restart): its answer, or
    an answer made now when the first one was never sent; None for a write never recorded. A key the store
    holds for another request is a 422 (the memory cache forgets it then, so it answers the same next time)."""
    cache: IdempotencyCache = current_app.extensions["jantaku.idempotency"]
    try:
        known = service().keyed_write(key, digest)
    except ValueError as exc:
        cache.abandon(key, digest)
        abort(422, description=str(exc))
    except BaseException:
        cache.abandon(key, digest)
        raise
    if known is None:
        return None
    if known is True:  # recorded, then the table stopped before answering: the state says what it did
        made = jsonify(ok=True, result=None, state=service().state())
        return StoredAnswer(200, made.get_data(), made.mimetype)
    status, mimetype, body = known
    return StoredAnswer(status, body, mimetype)


def _remember_idempotent(response: Response) -> Response:
    pending = g.pop("idempotency", None)
    if pending is not None:
        cache: IdempotencyCache = current_app.extensions["jantaku.idempotency"]
        if response.status_code < 500 and not response.is_streamed:
            answer = StoredAnswer(response.status_code, response.get_data(), response.mimetype)
            cache.finish(*pending, answer)
            if response.status_code < 300:  # a game write recorded its key: keep its answer beside it
                try:
                    service().keep_answer(*pending, answer.status, answer.mimetype, answer.body)
                except Exception as exc:  # the write stands; a retry gets an answer made from the state
                    current_app.logger.warning("the answer to a keyed write was not kept: %r", exc)
        else:
            cache.abandon(*pending)
    return response


def _forget_unanswered(_exc: BaseException | None) -> None:
    pending = g.pop("idempotency", None)
    if pending is not None:
        current_app.extensions["jantaku.idempotency"].abandon(*pending)


def init_app(app: Flask) -> None:
    app.config.setdefault("JANTAKU_SESSION_MAX_S", 12 * 3600.0)
    app.config.setdefault("JANTAKU_STREAMS_PER_ADDRESS", 4)
    app.config.setdefault("JANTAKU_SESSIONS", 4096)  # joined phones' sessions kept at most
    app.config.setdefault("JANTAKU_SESSIONS_PER_ADDRESS", 8)  # one address's sessions (its oldest makes room)
    app.config.setdefault("JANTAKU_JOINS_PER_MINUTE", 20)  # joins one address may make a minute
    app.config.setdefault("JANTAKU_IDEMPOTENCY_KEYS", 1024)
    streams = int(app.extensions["jantaku"].bus.max_subscribers)
    app.config.setdefault("JANTAKU_STREAMS_RESERVED", max(1, min(8, streams // 4)))
    # sessions are kept in the table's database when the service has one (a restart logs nobody out)
    app.extensions["jantaku.sessions"] = SessionTable(
        float(app.config["JANTAKU_SESSION_MAX_S"]),
        capacity=int(app.config["JANTAKU_SESSIONS"]),
        per_address=int(app.config["JANTAKU_SESSIONS_PER_ADDRESS"]),
        joins_per_minute=int(app.config["JANTAKU_JOINS_PER_MINUTE"]),
        rows=getattr(app.extensions["jantaku"], "access", None),
    )
    app.extensions["jantaku.challenges"] = Challenges()
    app.extensions["jantaku.streams"] = StreamSlots(
        total=streams,
        reserved=int(app.config["JANTAKU_STREAMS_RESERVED"]),
        per_address=int(app.config["JANTAKU_STREAMS_PER_ADDRESS"]),
    )
    app.extensions["jantaku.idempotency"] = IdempotencyCache(int(app.config["JANTAKU_IDEMPOTENCY_KEYS"]))
    # a guest changing the score page's choices previews a few times a second at most; a crowd of guests is held
    # to what the table can spare while it answers its players
    app.config.setdefault("JANTAKU_GUEST_COSTLY_PER_S", 5.0)
    app.config.setdefault("JANTAKU_GUESTS_COSTLY_PER_S", 20.0)
    app.extensions["jantaku.guest_limit"] = RateLimit(
        per_address=float(app.config["JANTAKU_GUEST_COSTLY_PER_S"]),
        total=float(app.config["JANTAKU_GUESTS_COSTLY_PER_S"]),
        burst=10,
    )
    app.before_request(_check_csrf)
    app.before_request(_replay_idempotent)
    app.after_request(_remember_idempotent)
    app.teardown_request(_forget_unanswered)

    @app.context_processor
    def _inject() -> dict[str, Any]:
        return {"csrf_token": csrf_token, "unlocked": joined()}

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
            "frame-ancestors 'none'",
        )
        return response
