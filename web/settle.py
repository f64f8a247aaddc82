"""Settlement: the game's points move when a hand ends (win, draw, abortive draw, chombo); undo; export.

Every action here changes the game, so each needs the table's PIN (and, like every POST, the CSRF token).
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template

from web.api import json_body
from web.security import pin_required, service

bp = Blueprint("settle", __name__)


@bp.get("/settle")
def page():
    return render_template("settle.html")


def _done(result):
    return jsonify(ok=True, result=result, state=service().state())


@bp.post("/api/game/new")
@pin_required
def new_game():
    return _done(service().new_game(json_body()))


@bp.post("/api/game/win")
@pin_required
def win():
    return _done(service().record("win", json_body()))


@bp.post("/api/game/draw")
@pin_required
def draw():
    return _done(service().record("draw", json_body()))


@bp.post("/api/game/abort")
@pin_required
def abort_hand():
    return _done(service().record("abort", json_body()))


@bp.post("/api/game/chombo")
@pin_required
def chombo():
    return _done(service().record("chombo", json_body()))


@bp.post("/api/game/riichi")
@pin_required
def riichi():
    return _done(service().record("riichi", json_body()))


@bp.post("/api/game/event")
@pin_required
def event():
    """One table event as the engine writes it (a discard, a call, a riichi ...), for scripts and the camera."""
    return _done(service().record("event", json_body()))


@bp.post("/api/game/undo")
@pin_required
def undo():
    return _done(service().undo())


@bp.get("/api/game/export")
@bp.get("/game/export.json", endpoint="export_file")
def export():
    body = json.dumps(service().export_game(), ensure_ascii=False, indent=1)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="jantaku-game.json"'},
    )
