"""Corrections of misread tiles: each is kept with its frame as a labelled example (YOLO export).

A correction changes no game, so it needs no PIN; like every POST it needs the page's CSRF token.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.hand_request import BadRequest
from engine.errors import EngineError
from engine.tiles import Tile
from web.api import json_body
from web.security import service

bp = Blueprint("corrections", __name__)


@bp.post("/api/corrections")
def correct():
    body = json_body()
    frame_id, index, tile_text = body.get("frame_id"), body.get("index"), body.get("tile")
    if not isinstance(frame_id, str) or not frame_id or len(frame_id) > 64:
        raise BadRequest("frame_id is the id a read returned")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise BadRequest("index is the tile's index in the read (0, 1, ...)")
    if not isinstance(tile_text, str):
        raise BadRequest("tile is mpsz (e.g. '5p'), 'back' (face down) or 'none' (not a tile)")
    remove = tile_text == "none"
    tile = None
    if not remove and tile_text != "back":
        try:
            tile = Tile.parse(tile_text)
        except EngineError as exc:
            raise BadRequest(f"tile: {exc}") from None
    try:
        fix = service().correct(frame_id, index, tile, remove=remove)
    except IndexError as exc:
        raise BadRequest(str(exc)) from None
    return jsonify(fix)


@bp.get("/api/corrections")
def summary():
    return jsonify(service().corrections.summary())


@bp.get("/corrections/export.zip")
def export():
    return Response(
        service().corrections.export_yolo(),
        mimetype="application/zip",
        headers={"Content-Disposition": 'attachment; filename="jantaku-corrections-yolo.zip"'},
    )
