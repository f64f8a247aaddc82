"""The live table page, joining (QR code, PIN) and leaving."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, redirect, render_template, request, url_for

from web.security import lock, service, unlock

bp = Blueprint("table", __name__)


def table_url() -> str:
    """The URL phones should open: the service's configured one, else the one this request came in on."""
    return service().url or request.host_url


@bp.get("/")
def live():
    return render_template("live.html")


@bp.route("/join", methods=["GET", "POST"])
def join():
    error = None
    status = 200
    if request.method == "POST":
        pin = request.form.get("pin", "")
        if unlock(pin):
            return redirect(url_for("table.live"), code=303)
        error, status = "That is not the table's PIN.", 403
    return render_template("join.html", table_url=table_url(), error=error), status


@bp.post("/leave")
def leave():
    lock()
    return redirect(url_for("table.join"), code=303)


@bp.get("/qr.svg")
def qr():
    buf = io.BytesIO()
    segno.make(table_url(), error="m").save(buf, kind="svg", scale=6, border=2, dark="#111", light="#fff")
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
