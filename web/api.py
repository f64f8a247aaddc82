"""The JSON API, stable for scripts and checks.

* ``GET /api/state``: everything the live page shows (game, camera, corrections).
* ``POST /api/score``: a scoring request (JSON, see :mod:`web.hand_request`) -> ``ScoreResult.to_dict()``.
* ``POST /api/read``: multipart, the image in field ``image`` (scoring options in other fields, or a JSON
  object in field ``options``) -> the tiles read and, with 14 tiles, the score.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request

from engine.errors import EngineError
from engine.hand import parse_hand
from web.hand_request import FLAGS, BadRequest, parse_score_options, parse_score_request, seat_of
from web.limits import check_shape, parse_json_text, read_json
from web.security import service

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> Any:
    """The request's JSON object, or a 400 that says what is wrong."""
    if not request.is_json:
        raise BadRequest("send JSON (Content-Type: application/json)")
    data = read_json(current_app.config["JANTAKU_JSON_MAX_BYTES"])
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    return data


@bp.get("/state")
def state():
    return jsonify(service().state())


@bp.post("/score")
def score():
    table = service()
    return jsonify(table.score(*parse_score_request(json_body(), table.rules)))


@bp.post("/waits")
def waits():
    """A player's own 13 tiles (``{"hand": ..., "seat": 0..3}``): waits, values, furiten. Nothing is kept."""
    body = json_body()
    unknown = sorted(str(k) for k in set(body) - {"hand", "seat"})
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}")
    seat = body.get("seat")
    seat = None if seat is None else seat_of(seat, "seat")
    text = body.get("hand")
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise BadRequest("hand is required: your 13 tiles in mpsz, melds after them (pon:555z ...)")
    try:
        hand = parse_hand(text)
    except EngineError as exc:
        raise BadRequest(str(exc)) from None
    return jsonify(service().waits(hand, seat))


_FORM_FIELDS = ("win_tile", "seat_wind", "round_wind", "dora", "ura", "discarder", "rules")


def _read_options() -> dict[str, Any]:
    form = request.form
    options: dict[str, Any] = {}
    if "options" in form:
        options = parse_json_text(form["options"], "options")
        if not isinstance(options, dict):
            raise BadRequest("options is a JSON object")
    for key in _FORM_FIELDS:
        if form.get(key):
            options[key] = form[key]
    check_shape(options, "options")
    for key in ("honba", "sticks"):
        if form.get(key):
            if not form[key].isascii():  # int() reads full-width and other scripts' digits
                raise BadRequest(f"{key} is a whole number")
            try:
                options[key] = int(form[key])
            except ValueError:
                raise BadRequest(f"{key} is a whole number") from None
    for key in ("tsumo", *FLAGS):
        if key in form:
            options[key] = form[key].lower() in ("1", "true", "on", "yes")
    return options


@bp.post("/read")
def read():
    if request.mimetype != "multipart/form-data":
        raise BadRequest("send the image as multipart/form-data in the field 'image'")
    upload = request.files.get("image")
    if upload is None:
        raise BadRequest("no image: send it in the field 'image'")
    data = upload.read()
    if not data:
        raise BadRequest("the image is empty")
    table = service()
    return jsonify(table.read_image(data, parse_score_options(_read_options(), table.rules)))
