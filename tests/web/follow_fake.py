"""A table service whose camera game is scripted by the test, for the site's camera routes and pages.

:class:`FollowingService` is the real :class:`~device.table.service.TableService` (PIN, game, event bus) with the
camera game's two methods (``set_camera_seat``, ``camera_action``) and ``state()["follow"]`` shaped as
the shared design says (DESIGN32, piece 5), acting on a dict the test fills. A pending win is priced by the real
engine (``preview_win``) and confirming it records it, so the page shows real yaku and the points really move.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from device.table.service import TableService
from engine.errors import IllegalAction
from engine.tiles import Tile
from web.hand_request import BadRequest, parse_win_request


@dataclass(frozen=True)
class CameraAction:
    """What a refused action names in its message ("CameraAction refused: ...")."""

    name: str


def camera_event(ident: int, text: str, event: dict[str, Any], frame_id: str | None = None) -> dict[str, Any]:
    """One camera event as ``state()["follow"]["events"]`` holds it."""
    return {"id": ident, "frame_id": frame_id, "seq": ident, "text": text, "event": event}


class FollowingService(TableService):
    """``follow`` is the camera game's state as the phones get it; ``calls`` the camera methods called, in order;
    ``refuse`` maps an action to the rule that refuses it (``camera_action`` raises ``IllegalAction``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.follow: dict[str, Any] = {
            "camera_seat": None,
            "status": "following",
            "events": [],
            "contradictions": [],
            "pending": None,
        }
        self.calls: list[tuple[str, Any]] = []
        self.refuse: dict[str, str] = {}
        self._pending_body: dict[str, Any] | None = None

    def state(self) -> dict[str, Any]:
        state = super().state()
        state["follow"] = copy.deepcopy(self.follow)
        return state

    def publish_follow(self) -> None:
        """The camera game moved: published once, as the real service does (the state message carries ``follow``)."""
        self.publish_state()

    def pend_win(
        self, body: dict[str, Any], *, furiten_reason: str = "", auto_confirm_at: float | None = None, refused: str = ""
    ) -> None:
        """A win the camera saw laid out, as ``POST /api/game/win`` would take ``body``; priced by the engine.
        ``refused``: why the rules refuse it (then no preview, only the scorer's value, as the camera game gives)."""
        tsumo = bool(body.get("tsumo"))
        self._pending_body = None if refused else body
        preview = self.preview_win(parse_win_request(body))
        self.follow["pending"] = {
            "kind": "tsumo" if tsumo else "ron",
            "seat": body["winner"],
            "discarder": None if tsumo else body["discarder_seat"],
            "hand": body["hand"],
            "win_tile": body["win_tile"],
            "preview": None if refused else preview,
            "furiten": bool(furiten_reason),
            "furiten_reason": furiten_reason,
            "error": refused,
            "score": preview["wins"][0]["score"] if refused else None,
            "auto_confirm_at": auto_confirm_at,
        }
        self.publish_follow()

    def set_camera_seat(self, seat: int | None) -> dict[str, Any]:
        self.calls.append(("seat", seat))
        self.feed.camera_seat = seat
        self.follow["camera_seat"] = seat
        self.publish_follow()  # the camera reading names its sides by the game's seats now: in the same state
        return copy.deepcopy(self.follow)

    def camera_action(
        self, action: str, event_id: int | None = None, tile: Tile | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        given = {"id": event_id, "tile": None if tile is None else str(tile), "seat": seat}
        body = {k: v for k, v in given.items() if v is not None}  # as the phone sent it
        self.calls.append((action, body))
        if action in self.refuse:
            raise IllegalAction(CameraAction(action), self.refuse[action])
        if action in ("undo", "fix"):
            events = self.follow["events"]
            at = next((i for i, e in enumerate(events) if e["id"] == body["id"]), None)
            if at is None:  # as the device's service answers it
                raise BadRequest(f"no camera event {body['id']} in this hand")
            fixed = events[at]
            del events[at:]  # the game goes back to before it
            if action == "fix":
                event = {**fixed["event"], **{k: body[k] for k in ("tile", "seat") if k in body}}
                events.append({**fixed, "text": f"fixed: {event.get('tile')}", "event": event})
        elif action in ("confirm", "dismiss"):
            if self.follow["pending"] is None:
                raise IllegalAction(CameraAction(action), "nothing is pending")
            self.follow["pending"] = None
            if action == "confirm" and self._pending_body is not None:
                self.win(parse_win_request(self._pending_body))
        elif action == "resync":
            self.follow["contradictions"] = []
        self.publish_follow()
        return copy.deepcopy(self.follow)
