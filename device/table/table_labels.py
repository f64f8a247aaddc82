"""What the phones need to show a table the camera read seat by seat: who sits where, and the dora.

The reader (:mod:`vision.read.table`) names seats by the edge of the frame they sit at and gives the dora
indicators as laid. The phones need the seats by the game's names (when the service knows which game seat
sits at the camera's bottom edge) and the dora each indicator gives: both made here, on the server, so the
page computes no rule of the game.

>>> v = table_labels({"dora_indicators": "9m0p7z"}, None, None)
>>> [(d["indicator"], d["dora"]) for d in v["dora"]], v["named_by"]
([('9m', '1m'), ('0p', '6p'), ('7z', '5z')], 'camera')
>>> [s["label"] for s in v["seats"]]
['near', 'right', 'far', 'left']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.tiles import parse_tiles

#: The reader's frame edges in its order (the order of play, counter-clockwise seen from above).
SIDES = ("bottom", "right", "top", "left")
#: How a player at the table calls each frame edge when the game's seats are not known.
SIDE_NAMES = {"bottom": "near", "right": "right", "top": "far", "left": "left"}
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def check_camera_seat(seat: Any) -> int | None:
    """The game seat (0..3) at the bottom edge of the camera's frame, or None (not known)."""
    if seat is None or seat == "":
        return None
    if isinstance(seat, bool) or not isinstance(seat, int | str) or not str(seat).isdigit() or int(seat) > 3:
        raise ValueError(f"the camera's bottom seat is 0..3 (or unset), not {seat!r}")
    return int(seat)


def table_labels(
    table: dict[str, Any] | None, seats: Sequence[dict[str, Any]] | None, camera_seat: int | None
) -> dict[str, Any] | None:
    """Seat names and dora for ``table`` (``TableObservation.as_json()``); None without a table.

    With the game's ``seats`` (each with ``wind`` and ``name``, by seat number, as in ``state()["game"]``) and
    ``camera_seat`` (the game seat at the frame's bottom edge) each side is named by that seat's wind and player;
    the sides follow the order of play, so the right edge holds the next seat. Otherwise the sides are named as
    seen from the camera (``named_by: "camera"``). Each dora indicator comes with the dora it gives (9m -> 1m,
    4z -> 1z, 7z -> 5z; a red five points to the six).
    """
    if table is None:
        return None
    indicators = parse_tiles(str(table.get("dora_indicators") or ""))
    by_game = seats is not None and camera_seat is not None
    named = []
    for turns, side in enumerate(SIDES):
        entry: dict[str, Any] = {"side": side, "label": SIDE_NAMES[side], "seat": None, "wind": None, "name": None}
        if by_game:
            seat = (camera_seat + turns) % 4
            info = seats[seat]
            name = info.get("name") or f"seat {seat + 1}"
            entry.update(seat=seat, wind=info["wind"], name=name, label=f"{WIND_NAMES[info['wind']]} · {name}")
        named.append(entry)
    return {
        "named_by": "game" if by_game else "camera",
        "seats": named,
        "dora": [{"indicator": str(t), "dora": str(t.dora_from_indicator())} for t in indicators],
    }
