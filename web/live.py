"""The live table page, joining (the QR code's join token, or the PIN by challenge) and leaving."""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from web.security import challenges, join_with_token, joined, lock, pin_required, service, unlock, unlock_with_proof

bp = Blueprint("table", __name__)  # its endpoints keep the page's name: table.live, table.join


def table_url() -> str:
    """The URL phones should open: the service's configured one, else the one this request came in on."""
    return service().url or request.host_url


def join_url() -> str:
    """The URL that joins the table with no PIN: the table's, with its join token."""
    return table_url().rstrip("/") + "/join/" + service().join_token()


@bp.get("/")
def live():
    return render_template("live.html")


@bp.route("/join", methods=["GET", "POST"])
def join():
    if request.method == "GET":
        return render_template("join.html", table_url=table_url(), error=None)
    try:
        if "proof" in request.form:  # the join page: an answer to a challenge, not the PIN
            ok = unlock_with_proof(request.form.get("nonce"), request.form.get("proof"))
        elif "pin" in request.form:  # a script's post
            ok = unlock(request.form.get("pin", ""))
        else:
            ok = False
    except HTTPException as exc:  # a wait, an expired challenge, a full table: said on the page
        return _join_page_error(exc.description or exc.name, exc.code or 400, getattr(exc, "retry_after", None))
    if ok:
        return redirect(url_for("table.live"), code=303)
    return _join_page_error("That is not the table's PIN.", 403)


def _join_page_error(message: str, status: int, retry_after: Any = None) -> Response:
    response = Response(render_template("join.html", table_url=table_url(), error=message), status=status)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


@bp.get("/join/challenge")
def challenge():
    """A one-time nonce and the table's salt, for the join page's proof of the PIN (see :mod:`web.challenge`)."""
    response = jsonify({"nonce": challenges().issue(), "salt": service().pin_salt})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/join/<token>")
def join_by_token(token: str):
    """The table's QR code: joins this phone with no PIN, then opens the table.

    A page that moves on by itself, not a redirect: a phone's camera app opens the link as a cross-site navigation,
    and a redirect from it would be cross-site too, so the browser would withhold the new SameSite=Strict cookie
    from the table's page. The page's own move to the table is same-site."""
    try:
        joined_now = join_with_token(token)
    except HTTPException as exc:  # a full table, or too many joins from this address
        return _join_page_error(exc.description or exc.name, exc.code or 400, getattr(exc, "retry_after", None))
    if not joined_now:
        return _join_page_error("This join code is old: scan the QR code the table shows now, or enter the PIN.", 403)
    response = Response(render_template("joined.html"))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/join/new-code")
@pin_required
def new_join_code():
    """A joined player makes a new join token: printed cards and photos of the old QR code join no one."""
    service().rotate_join_token()
    return redirect(url_for("table.join"), code=303)


@bp.post("/leave")
def leave():
    lock()
    return redirect(url_for("table.join"), code=303)


@bp.get("/qr.svg")
def qr():
    """The table's address (watching only) as a QR code."""
    return _qr_svg(table_url())


@bp.get("/join-qr.svg")
def join_qr():
    """The join token's QR code, shown only to a joined phone (to let another player join)."""
    if not joined():
        abort(403, description="only a joined phone shows the join code")
    return _qr_svg(join_url())


def _qr_svg(text: str) -> Response:
    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=6, border=2, dark="#111", light="#fff")
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
