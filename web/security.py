"""PIN and CSRF.

* CSRF: each browser session gets a random token (``session["csrf"]``), put in every page
  (``<meta name="csrf-token">`` and hidden form fields). Every POST must send it back, in the form field
  ``csrf_token`` or the header ``X-CSRF-Token``; a POST whose ``Origin`` names another host is refused too.
  The read-only computations ``POST /api/score``, ``/api/read`` and ``/api/waits`` are exempt (scripts and
  checks call them directly); they change nothing in the game.
* PIN: a change to the game needs the table's PIN, entered once on the join page (the session remembers
  it) or sent in the header ``X-Table-PIN``. Wrong PINs are counted per client and locked out for a while.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request, session

CSRF_EXEMPT = {"api.score", "api.read", "api.waits"}
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
    """Whether this request may change the game: the session holds the PIN, or the header gives it."""
    if session.get("pin_ok") == _pin_epoch():
        return True
    header = request.headers.get("X-Table-PIN")
    if header is not None:
        return _try_pin(header)
    return False


def _pin_epoch() -> str:
    return getattr(service(), "pin_epoch", "1")


def _try_pin(pin: Any) -> bool:
    from web.contract import PinLocked

    try:
        ok = service().check_pin(pin, client=client_id())
    except PinLocked as exc:
        abort(429, description=str(exc))
    return ok


def unlock(pin: Any) -> bool:
    """Check a PIN typed on the join page; on success the session may change the game."""
    if not _try_pin(pin):
        return False
    session["pin_ok"] = _pin_epoch()
    return True


def lock() -> None:
    session.pop("pin_ok", None)


def pin_required(view: Callable) -> Callable:
    """The view changes the game: refuse it (403, JSON) without the table's PIN."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any):
        if not has_pin():
            abort(403, description="this needs the table's PIN (join the table first)")
        return view(*args, **kwargs)

    return wrapped


def init_app(app: Flask) -> None:
    app.before_request(_check_csrf)

    @app.context_processor
    def _inject() -> dict[str, Any]:
        return {"csrf_token": csrf_token, "unlocked": session.get("pin_ok") == _pin_epoch()}

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
