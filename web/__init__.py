"""The phone site: a Flask app built by :func:`create_app`, one blueprint per area.

The app talks only to a :class:`device.service.TableService`, found at ``app.extensions["jantaku"]``.
Reading is open to anyone on the table's network; every change to the game needs the table's PIN, and
every form and JSON action carries the session's CSRF token. Errors are JSON with a 4xx status.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask

#: Defaults; ``create_app(config)`` overrides any of them.
DEFAULTS: dict[str, Any] = {
    # 12 MP phone photos are 3-8 MB as JPEG.
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
    # Seconds between heartbeats on an idle event stream, and the longest one stream stays open
    # (the browser reconnects by itself and resumes from Last-Event-ID).
    "JANTAKU_HEARTBEAT_S": 15.0,
    "JANTAKU_STREAM_MAX_S": 600.0,
    # The largest game file ``POST /api/game/import`` reads (a whole hanchan's export is about 100 KB).
    "JANTAKU_IMPORT_MAX_BYTES": 2 * 1024 * 1024,
    # The largest JSON body any other endpoint reads (a request is a few hundred bytes); see web/limits.py.
    "JANTAKU_JSON_MAX_BYTES": 64 * 1024,
    "JANTAKU_PIN": None,
    "JANTAKU_DB": None,
    "JANTAKU_CORRECTIONS": None,
    "JANTAKU_URL": "",
    # The game seat (0..3, seat 1 = 0) at the bottom edge of the table camera's frame; None: the phones name the
    # seats the camera reads by where they sit in the frame (near, right, far, left).
    "JANTAKU_CAMERA_SEAT": None,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the site. ``config["JANTAKU_SERVICE"]`` is the TableService to use; without one, a service
    is made from ``JANTAKU_PIN``, ``JANTAKU_DB``, ``JANTAKU_CORRECTIONS``, ``JANTAKU_URL`` and
    ``JANTAKU_CAMERA_SEAT``."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config["SECRET_KEY"] = secrets.token_hex(32)
    if config:
        app.config.update(config)

    service = app.config.get("JANTAKU_SERVICE")
    if service is None:
        from device.service import TableService

        from device.pin import new_pin

        pin = app.config.get("JANTAKU_PIN") or new_pin()
        service = TableService(
            pin=pin,
            db_path=app.config.get("JANTAKU_DB"),
            corrections_dir=app.config.get("JANTAKU_CORRECTIONS"),
            url=app.config.get("JANTAKU_URL", ""),
            camera_seat=app.config.get("JANTAKU_CAMERA_SEAT"),
        )
    app.extensions["jantaku"] = service

    from web import api, corrections, errors, events, score, security, settle, table

    security.init_app(app)
    errors.init_app(app)
    for module in (table, score, settle, api, events, corrections):
        app.register_blueprint(module.bp)
    return app
