"""The phone site: a Flask app built by :func:`create_app`, one blueprint per area.

The app is handed its table service (anything meeting :class:`web.contract.TableServiceLike`; the device's
``TableService``) and keeps it at ``app.extensions["jantaku"]``; it imports nothing from ``device``.
Reading is open to anyone on the table's network; every change to the game needs the table's PIN, and
every form and JSON action carries the session's CSRF token. Errors are JSON with a 4xx status.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from web.contract import TableServiceLike

#: Defaults; ``create_app(config)`` overrides any of them.
DEFAULTS: dict[str, Any] = {
    # 12 MP phone photos are 3-8 MB as JPEG.
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
    # Seconds between heartbeats on an idle event stream, and the longest one stream stays open
    # (the browser reconnects by itself and resumes from Last-Event-ID).
    "JANTAKU_HEARTBEAT_S": 15.0,
    "JANTAKU_STREAM_MAX_S": 600.0,
    # How often a stream asks the server whether its phone has gone (waitress tells at once; see web/events.py).
    "JANTAKU_DISCONNECT_CHECK_S": 0.5,
    # The largest game file ``POST /api/game/import`` reads (a whole hanchan's export is about 100 KB).
    "JANTAKU_IMPORT_MAX_BYTES": 2 * 1024 * 1024,
    # The largest JSON body any other endpoint reads (a request is a few hundred bytes); see web/limits.py.
    "JANTAKU_JSON_MAX_BYTES": 64 * 1024,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
}


def create_app(config: dict[str, Any] | None, service: TableServiceLike) -> Flask:
    """Build the site around ``service``; ``config`` overrides any of :data:`DEFAULTS`.

    The caller builds the service (the command line: ``device.commands.site.start_site``; tests: a fixture)."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    # the service's kept key (a restart logs nobody out), else one for this run
    app.config["SECRET_KEY"] = getattr(service, "site_key", None) or secrets.token_hex(32)
    if config:
        app.config.update(config)
    app.extensions["jantaku"] = service

    from web import api, camera, corrections, errors, events, live, score, security, settle

    security.init_app(app)
    errors.init_app(app)
    for module in (live, score, settle, api, events, corrections, camera):
        app.register_blueprint(module.bp)
    return app
