"""The camera's game from the phones: which seat sits at the camera's bottom edge, and a person's word on what
the camera proposed (undo or fix one of its events, accept the table as it is now, confirm or dismiss a win or
draw it laid out).

* ``POST /api/camera/seat`` ``{"seat": 0..3 | null}``: the game seat at the frame's bottom edge (null: not known).
* ``GET /api/camera/frame/<frame_id>.jpg``: the picture of a frame a contradiction was seen in, its zone outlined
  (the contradictions in ``follow`` say ``"image": true`` while it is kept; only the last few are). Like
  every read of the table it needs no PIN; an id whose picture is not kept is a 404.
* ``POST /api/camera/<action>``: ``undo`` ``{"id": N}`` (the camera event), ``fix`` ``{"id": N, "tile": "5m",
  "seat": S}`` (a tile, a seat or both), ``resync`` ``{}``, ``confirm`` ``{}`` (the pending win or draw),
  ``dismiss`` ``{}``.

Each changes the game, so each needs the table's PIN (and, like every POST, the CSRF token) and accepts an
``Idempotency-Key``. A body that is not one of these is a 400; an action the game's rules refuse (the engine's
``IllegalAction``: nothing pending to confirm, an event that cannot be undone) is a 409. Each answers
``{"ok": true, "result": ..., "state": ...}`` like the settlement's writes. What the camera proposed is in
``GET /api/state`` at ``follow`` and pushed on the event stream in the ``state`` message.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from engine.errors import EngineError, IllegalAction
from engine.tiles import Tile
from web.api import json_body
from web.errors import error_response
from web.hand_request import BadRequest, seat_of
from web.security import pin_required, service

bp = Blueprint("camera", __name__, url_prefix="/api/camera")

#: Each action's fields: name -> required (True) or optional (False).
ACTIONS: dict[str, dict[str, bool]] = {
    "undo": {"id": True},
    "fix": {"id": True, "tile": False, "seat": False},  # a tile, a seat or both: see check_action
    "resync": {},
    "confirm": {},
    "dismiss": {},
}


@bp.errorhandler(IllegalAction)
def _refused(exc: IllegalAction):
    """The game's rules refuse it: a conflict with the game's state, not a malformed request."""
    return error_response(409, str(exc))


@bp.errorhandler(ValueError)
def _bad_value(exc: ValueError):
    """Any other value the camera game cannot take (the contract's BadRequest, an engine error, a seat it refuses)
    is the request's fault: a 400 that says why, never a 500."""
    return error_response(400, str(exc))


def _done(result: Any):
    return jsonify(ok=True, result=result, state=service().state())


def _fields(body: dict[str, Any], wanted: dict[str, bool], what: str) -> None:
    unknown = sorted(str(k) for k in set(body) - set(wanted))
    if unknown:
        raise BadRequest(f"unknown field(s) for {what}: {', '.join(unknown)}")
    missing = [k for k, required in wanted.items() if required and k not in body]
    if missing:
        raise BadRequest(f"{what} needs {', '.join(missing)}")


@bp.get("/frame/<frame_id>.jpg")
def frame(frame_id: str):
    """The picture of a frame a contradiction was seen in (read-only, no PIN); 404 JSON for an id not kept."""
    picture = Response(service().clash_frame(frame_id), mimetype="image/jpeg")
    picture.headers["Cache-Control"] = "no-cache"  # redrawn when another clash is seen in the same frame
    picture.add_etag()
    return picture.make_conditional(request)


@bp.post("/seat")
@pin_required
def seat():
    """The game seat at the camera's bottom edge, from the phone of the player who sits there."""
    body = json_body()
    _fields(body, {"seat": True}, "the camera's seat")
    value = body["seat"]
    return _done(service().set_camera_seat(None if value is None else seat_of(value, "seat")))


def check_action(action: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body of ``action``, checked: known fields only, an event id, a tile in mpsz (made a ``Tile``), a seat 0..3.

    >>> check_action("fix", {"id": 3, "tile": "0p"})
    {'id': 3, 'tile': Tile.parse('0p')}
    >>> check_action("undo", {"id": -1})
    Traceback (most recent call last):
    ...
    web.contract.BadRequest: id is the camera event's id (0, 1, ...)
    """
    if action not in ACTIONS:
        raise BadRequest(f"unknown camera action {action!r}: one of {', '.join(ACTIONS)}")
    _fields(body, ACTIONS[action], action)
    if "id" in body:
        ident = body["id"]
        if isinstance(ident, bool) or not isinstance(ident, int) or ident < 0:
            raise BadRequest("id is the camera event's id (0, 1, ...)")
    if "tile" in body:
        if not isinstance(body["tile"], str):
            raise BadRequest("tile is one tile in mpsz, e.g. '5m' ('0m' the red five)")
        try:
            body["tile"] = Tile.parse(body["tile"])
        except EngineError as exc:
            raise BadRequest(f"tile: {exc}") from None
    if "seat" in body:
        seat_of(body["seat"], "seat")
    if action == "fix" and "tile" not in body and "seat" not in body:
        raise BadRequest("a fix names a tile, a seat or both")
    return body


@bp.post("/<action>")
@pin_required
def act(action: str):
    """One of :data:`ACTIONS` on what the camera proposed; see the module's docstring."""
    body = check_action(action, json_body())
    return _done(service().camera_action(action, body.get("id"), body.get("tile"), body.get("seat")))
