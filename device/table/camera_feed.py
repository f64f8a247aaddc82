"""What the camera sees, as the device loop pushes it: each reading kept and played into the camera game, frames
that hold still counted, and the pictures of the frames the camera game's contradictions were seen in.

The table service (:mod:`device.table.service`) holds one :class:`CameraFeed` and answers the phones with it: the
camera's latest reading in ``state()["camera"]`` and the camera game's state in ``state()["follow"]``; each change is
published once: ``state`` when the camera game moved, else ``camera`` (the reading alone).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from device.table.bus import EventBus
from device.table.camera_game import CameraGame
from device.table.clash_frames import KEEP, ClashFrames, Zone, clash_zone
from device.table.corrections import CorrectionStore, FrameTile
from device.table.game_session import GameSession
from device.table.photos import box_of, jpeg_encoder
from device.table.table_labels import table_labels
from engine.tiles import Tile, format_tiles
from vision.read.follow import Clash
from vision.read.table import FrameSide, TableObservation

if TYPE_CHECKING:
    from vision.read.pipeline import Reading

#: The contradictions of the dora indicators (``vision.read.follow.Clash`` values), outlined at the indicators.
DORA_CLASHES = frozenset({Clash.DORA_CHANGED.value, Clash.EXTRA_INDICATOR.value})


@dataclass(frozen=True)
class CameraReading:
    """What the camera sees now, as the device loop reports it (see :meth:`CameraFeed.observe`)."""

    rows: tuple[tuple[Tile, ...], ...]
    at: float
    frame_id: str | None = None
    #: The kept frame's tiles in reading order (index into the frame, tile, row), for corrections.
    read: tuple[tuple[int, str, int], ...] = ()
    #: The frame read as a whole table, seat by seat (``vision.read.table.TableObservation.as_json()``), if it was.
    table: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [format_tiles(r) for r in self.rows],
            "tiles": [[str(t) for t in r] for r in self.rows],
            "at": self.at,
            "frame_id": self.frame_id,
            "read": [{"index": i, "tile": t, "row": r} for i, t, r in self.read],
            "table": self.table,
        }


class CameraFeed:
    """The camera's latest reading and the camera game it plays into, for one table.

    ``lock`` is the table service's (the latest reading is read with the game's state under it); ``publish_state``
    publishes the service's whole state. ``clash_frames``: how many pictures of contradictions to keep.
    """

    def __init__(
        self,
        game: GameSession,
        camera_game: CameraGame,
        corrections: CorrectionStore,
        bus: EventBus,
        *,
        lock: threading.RLock,
        publish_state: Callable[[], None],
        camera_seat: int | None = None,
        clash_frames: int = KEEP,
    ) -> None:
        self.game = game
        self.camera_game = camera_game
        self.corrections = corrections
        self.bus = bus
        self._lock = lock
        self._publish_state = publish_state
        #: The game seat (0..3) at the bottom edge of the camera's frame; None: not known, the phones name the
        #: table's seats as the camera sees them.
        self.camera_seat = camera_seat
        self.latest: CameraReading | None = None
        #: The pictures of the frames the camera game's contradictions were seen in (the last ``clash_frames``).
        self.clash_frames = ClashFrames(keep=clash_frames)
        #: The frame the camera game saw last, as read (its stored id, the image, its table), for those pictures.
        self._seen: tuple[str, Any, TableObservation | None] | None = None

    def observe(self, reading: Reading) -> None:
        """The device loop reports what the camera sees now: the camera reader's
        :class:`~vision.read.pipeline.Reading` of a frame (its rows, detections, frame and table, kept as read; the
        frame is held for corrections when it has tiles). A reading with a table
        (:attr:`~vision.read.pipeline.Reading.table`) is played into the game by the camera game; what that changes is
        published once: as ``state`` when the camera game moved, else as ``camera`` (the reading alone). Anything but
        a ``Reading`` raises TypeError.
        """
        from vision.read.pipeline import Reading

        if not isinstance(reading, Reading):
            raise TypeError(f"observe takes the camera reader's Reading, not {type(reading).__name__}")
        frame, dets = reading.image, list(reading.detections)
        frame_id = None
        read: tuple[tuple[int, str, int], ...] = ()
        if dets:
            index = {id(d): i for i, d in enumerate(dets)}
            read = tuple(
                (index[id(d)], str(d.tile), r)
                for r, row in enumerate(reading.rows)
                for d in row.detections
                if id(d) in index and d.tile is not None
            )
            height, width = frame.shape[:2]
            frame_id = self.corrections.add_frame(
                jpeg_encoder(frame),
                width,
                height,
                [FrameTile(d.tile, box_of(d), float(d.conf)) for d in dets],
                camera=True,
            )
        table = reading.table
        latest = CameraReading(
            reading.tile_rows, time.time(), frame_id, read, None if table is None else table.as_json()
        )
        table_labels(latest.table, None, None)  # a table whose dora indicators are not tiles is refused here
        changed = False
        if table is not None:
            self._seen = None if frame_id is None else (frame_id, frame, table)
            changed = self.camera_game.observe(table, frame_id, dets)
        with self._lock:
            self.latest = latest
            g = self.game.game
            data = self.to_dict([{"wind": g.seat_wind(s).letter, "name": g.seats[s]} for s in range(4)])
        if changed:  # the game and the camera game moved with the reading: the one state message carries all three
            self._publish_state()
        else:
            self.bus.publish("camera", data)

    def hold(self) -> None:
        """The camera sees the table as in the last frame for one frame more (the loop's gate found it unchanged):
        the camera game counts it (a change must hold a few frames; a result may confirm itself)."""
        if self.camera_game.hold():
            self._publish_state()

    def set_camera_seat(self, seat: int | None) -> None:
        """The game seat (0..3; None: not known) at the bottom edge of the camera's frame."""
        with self._lock:
            self.camera_seat = seat
            self.camera_game.set_camera_seat(seat)
        self._publish_state()

    def to_dict(self, seats: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        """The camera's latest reading for the phones: as read, and ``table_view`` (seat names, dora:
        :func:`~device.table.table_labels.table_labels`; None without a table)."""
        latest = self.latest
        if latest is None:
            return None
        return {
            **latest.to_dict(),
            "table_view": table_labels(latest.table, seats, self.camera_seat),
        }

    def follow_state(self) -> dict[str, Any]:
        """The camera game's state for the phones (``state()["follow"]``). Each contradiction says whether
        the picture of its frame is kept (``image``: :meth:`clash_frame` gives it): a contradiction seen in the frame
        the camera game saw last has its picture kept now, its zone outlined."""
        state = self.camera_game.state()
        clashes = state["contradictions"]
        seen = self._seen
        if seen is not None:
            frame_id, image, table = seen
            here = [c for c in clashes if c["frame_id"] == frame_id]
            if here:
                zones = (self._clash_zone(table, c) for c in here)
                self.clash_frames.keep(frame_id, image, [z for z in zones if z is not None])
        for c in clashes:
            c["image"] = c["frame_id"] is not None and c["frame_id"] in self.clash_frames
        return state

    def _clash_zone(self, table: TableObservation | None, clash: dict[str, Any]) -> Zone | None:
        """Where a contradiction lies in its frame: its side's (or its seat's) pond and melds, or the dora indicators
        for a clash of theirs; None where it names no place."""
        if clash["side"] is not None:
            return clash_zone(table, FrameSide(clash["side"]))
        if clash["seat"] is not None:  # a seat the rules refused: at its side of the camera's frame
            return clash_zone(table, self.camera_game.side_of(clash["seat"]))
        if clash["clash"] in DORA_CLASHES:
            return clash_zone(table, None)
        return None

    def clash_frame(self, frame_id: str) -> bytes:
        """The picture (JPEG) of a frame a contradiction was seen in, its zone outlined; raises UnknownFrame for an
        id whose picture is not kept (only the last few are: :class:`~device.table.clash_frames.ClashFrames`)."""
        return self.clash_frames.jpeg(frame_id)
