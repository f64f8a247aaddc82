"""Corrections of misread tiles: each is kept with its frame as a labelled example (YOLO export).

A correction keeps a frame on the table's disk, so it needs the table's PIN (and, like every POST, the page's
CSRF token). The store keeps a bounded number of frames, dropping the oldest (see
:class:`device.table.corrections.CorrectionStore`). The export is streamed, file by file, without holding the store's
lock, so the table keeps answering while a large export downloads.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from engine.errors import EngineError
from engine.tiles import Tile
from web.api import json_body
from web.hand_request import BadRequest
from web.security import pin_required, service

bp = Blueprint("corrections", __name__)


@bp.post("/api/corrections")
@pin_required
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
@pin_required  # the players' corrected photos, and a download that holds a worker: for the table, not for guests
def export():
    return Response(
        service().corrections.export_yolo_chunks(),
        mimetype="application/zip",
        headers={"Content-Disposition": 'attachment; filename="jantaku-corrections-yolo.zip"'},
    )
