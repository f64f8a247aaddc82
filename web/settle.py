"""Settlement: the game's points move when a hand ends (win, draw, abortive draw, chombo); undo; export.

Every action here changes the game, so each needs the table's PIN (and, like every POST, the CSRF token). Each
may name the game revision it was made on (``X-Game-Revision``: a stale one is a 409) and carry an
``Idempotency-Key``, kept with the write (see :mod:`web.security`).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge

from engine.rules import PRESETS, preset_title
from web.api import json_body
from web.game_request import check_game_file, game_event, parse_new_game
from web.hand_request import BadRequest, parse_win_request
from web.limits import check_shape
from web.security import game_write, guests_limited, pin_required, service

bp = Blueprint("settle", __name__)


@bp.get("/settle")
def page():
    return render_template("settle.html", presets=[(name, preset_title(name)) for name in PRESETS])


def _done(result):
    return jsonify(ok=True, result=result, state=service().state())


@bp.post("/api/game/new")
@pin_required
@game_write
def new_game():
    """``{"rules": preset name or options, "names": [four names]}`` (an empty name: the seat's default)."""
    table = service()
    return _done(table.new_game(*parse_new_game(json_body(), table.rules)))


def _win_request():
    return parse_win_request(json_body(), service().rules)


@bp.post("/api/game/win")
@pin_required
@game_write
def win():
    return _done(service().win(_win_request()))


@bp.post("/api/game/win/preview")
@guests_limited
def win_preview():
    """The payments by seat that ``POST /api/game/win`` with this body would make, from the engine; nothing changes,
    so no PIN (the CSRF token still, as every POST from a page), but guests are rate-limited (the engine's work)."""
    return jsonify(service().preview_win(_win_request()))


@bp.post("/api/game/draw")
@pin_required
@game_write
def draw():
    return _done(service().record(game_event("draw", json_body())))


@bp.post("/api/game/abort")
@pin_required
@game_write
def abort_hand():
    return _done(service().record(game_event("abort", json_body())))


@bp.post("/api/game/chombo")
@pin_required
@game_write
def chombo():
    return _done(service().record(game_event("chombo", json_body())))


@bp.post("/api/game/riichi")
@pin_required
@game_write
def riichi():
    return _done(service().record(game_event("riichi", json_body())))


@bp.post("/api/game/event")
@pin_required
@game_write
def event():
    """One table event as the engine writes it (a discard, a call, a riichi ...), for scripts and the camera."""
    return _done(service().record(game_event("event", json_body())))


@bp.post("/api/game/undo")
@pin_required
@game_write
def undo():
    return _done(service().undo())


def _game_file() -> Any:
    """The uploaded game file, parsed: a JSON body, or a file in the multipart field ``game``; size-capped."""
    cap = current_app.config["JANTAKU_IMPORT_MAX_BYTES"]
    too_large = f"the game file is too large (at most {cap // 1024} KB)"
    if request.content_length is not None and request.content_length > cap + 64 * 1024:  # room for the form
        raise RequestEntityTooLarge(too_large)
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("game")
        if upload is None:
            raise BadRequest("no game file: send it in the field 'game'")
        raw = upload.read(cap + 1)
    elif request.is_json:
        raw = request.stream.read(cap + 1)
    else:
        raise BadRequest("send the game file as JSON (Content-Type: application/json) or in the multipart field 'game'")
    if len(raw) > cap:
        raise RequestEntityTooLarge(too_large)
    if not raw.strip():
        raise BadRequest("the game file is empty")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
        raise BadRequest(f"the game file is not valid JSON: {exc}"[:300]) from None
    check_shape(data, "the game file", max_string=None, max_items=None)
    return data


@bp.post("/api/game/import")
@pin_required
@game_write
def import_game():
    """A game file (``/api/game/export``) becomes the table's game; the current one stays in the store.

    Nothing changes unless the whole file is read, checked and replayed.
    """
    data = _game_file()
    check_game_file(data)
    return _done(service().import_game(data))


@bp.get("/api/game/export")
@bp.get("/game/export.json", endpoint="export_file")
def export():
    body = json.dumps(service().export_game(), ensure_ascii=False, indent=1)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="jantaku-game.json"'},
    )
