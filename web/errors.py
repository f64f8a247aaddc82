"""Errors as JSON: every failure is ``{"error": message, "status": code}`` with a 4xx status.

Pages (GET of an HTML page) get a small HTML error page instead. Bad input that reaches the service
(BadRequest, the engine's errors) is a 400; an unknown frame a 404; a stale game write a 409 (with the
revision and state now); an upload too large to take in a 413; a missing detector a 503; a full disk a 507.
"""

from __future__ import annotations

import errno
import json
import sqlite3

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge


def _wants_html() -> bool:
    return (
        request.method == "GET"
        and not request.path.startswith(("/api/", "/events"))
        and (request.accept_mimetypes.accept_html)
    )


def error_response(status: int, message: str):
    if _wants_html():
        return render_template("error.html", status=status, message=message), status
    response = jsonify(error=message, status=status)
    response.status_code = status
    return response


def is_disk_full(exc: BaseException) -> bool:
    """SQLite's "database or disk is full" (SQLITE_FULL), or a file write's ENOSPC / EDQUOT."""
    if isinstance(exc, sqlite3.OperationalError):
        return "disk is full" in str(exc) or getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def init_app(app: Flask) -> None:
    from engine.errors import EngineError
    from web.contract import Busy, NoDetector, StaleWrite, TooLarge, UnknownFrame
    from web.hand_request import BadRequest

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        if exc.code == 413 and exc.description == RequestEntityTooLarge.description:  # Flask's own, for any upload
            limit = app.config.get("MAX_CONTENT_LENGTH") or 0
            return error_response(413, f"the upload is too large (at most {limit // (1024 * 1024)} MB)")
        return error_response(exc.code or 400, exc.description or exc.name)

    @app.errorhandler(TooLarge)
    def _too_large(exc: Exception):
        return error_response(413, str(exc))

    @app.errorhandler(BadRequest)
    @app.errorhandler(EngineError)
    def _bad(exc: Exception):
        return error_response(400, str(exc))

    @app.errorhandler(UnknownFrame)
    def _unknown(exc: Exception):
        return error_response(404, str(exc.args[0]) if exc.args else "unknown frame")

    @app.errorhandler(NoDetector)
    def _no_detector(exc: Exception):
        return error_response(503, str(exc))

    @app.errorhandler(StaleWrite)
    def _stale(exc: StaleWrite):  # the page shows the state it gets, then the player taps again if still needed
        response = error_response(409, str(exc))
        if response.is_json:
            body = response.get_json()
            body.update(revision=exc.revision, state=app.extensions["jantaku"].state())
            response.set_data(json.dumps(body))
        return response

    @app.errorhandler(Busy)
    def _busy(exc: Exception):
        response = error_response(429, str(exc))
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(sqlite3.OperationalError)
    @app.errorhandler(OSError)
    def _storage(exc: Exception):
        if is_disk_full(exc):  # the write was refused as a whole; the game stays as it was, reads still work
            app.logger.error("disk full on %s %s: %r", request.method, request.path, exc)
            return error_response(507, "the disk is full: nothing was recorded (free some space and try again)")
        return _internal(InternalServerError(original_exception=exc))

    @app.errorhandler(InternalServerError)
    def _internal(exc: InternalServerError):
        app.logger.error("internal error on %s %s: %r", request.method, request.path, exc.original_exception)
        return error_response(500, "internal error")
