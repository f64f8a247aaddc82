"""The frames the camera game's contradictions were seen in, kept small for the phones.

When the camera game reports a contradiction (a pond tile vanished, a discard out of turn ...), the frame it was seen
in is kept as a small JPEG (its longer side at most :data:`MAX_SIDE` pixels) with the zone of each clash outlined:
the seat's pond and melds (:func:`clash_zone`), or the dora indicators. Only the last ``keep`` frames are held, in
memory, the oldest dropped first; each is found by its frame's id (the corrections' id the contradiction names) and
by nothing else. This is the one place the camera's frames are drawn on: the reader's post-processing draws nothing.

>>> import numpy as np
>>> frames = ClashFrames(keep=1)
>>> frames.keep("f1", np.zeros((600, 800, 3), np.uint8), [(10.0, 10.0, 60.0, 50.0)])
>>> frames.jpeg("f1")[:2], "f2" in frames
(b'\\xff\\xd8', False)
>>> frames.keep("f2", np.zeros((600, 800, 3), np.uint8), [])
>>> frames.ids()
['f2']
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np

from vision.read.detector import Detection
from vision.read.table import FrameSide, TableObservation
from web.contract import UnknownFrame

#: The longest side (pixels) of a kept picture: enough to see each tile on a phone, about 100 KB as JPEG.
MAX_SIDE = 1024
#: Pictures kept by default (a hand rarely shows more contradictions before a person resyncs).
KEEP = 8
#: JPEG quality of a kept picture.
QUALITY = 80
#: A zone's outline stands this many tile widths off its tiles (a vanished tile's place shows inside it).
MARGIN = 0.5

#: A zone: left, top, right, bottom in the frame's pixels.
Zone = tuple[float, float, float, float]


def clash_zone(table: TableObservation | None, side: FrameSide | None) -> Zone | None:
    """Where a clash lies in the frame ``table`` was read from: ``side``'s pond and melds (else all of that seat's
    tiles), or, for ``side`` None, the dora indicators (the wall's face-up tiles); None when the read shows none.

    >>> from vision.read.geometry import Box
    >>> from vision.read.labels import BACK_CLASS, class_of_tile
    >>> from vision.read.table import SeatObservation
    >>> from engine.tiles import Tile
    >>> tile = Detection.of_class(class_of_tile(Tile.parse("1m")), Box(100, 200, 130, 240), 0.9)
    >>> seats = tuple(SeatObservation(s, pond=(tile,) if s is FrameSide.TOP else ()) for s in FrameSide)
    >>> clash_zone(TableObservation(seats, (400.0, 300.0)), FrameSide.TOP)
    (85.0, 185.0, 145.0, 255.0)
    >>> clash_zone(TableObservation(seats, (400.0, 300.0)), FrameSide.LEFT) is None
    True
    """
    if table is None:
        return None
    if side is None:
        tiles: Sequence[Detection] = [d for s in table.seats for d in s.wall if d.tile is not None]
    else:
        seat = table.seat(side)
        tiles = [*seat.pond, *(d for m in seat.melds for d in m.detections)]
        if not tiles:
            tiles = [*seat.hand, *([seat.drawn] if seat.drawn is not None else []), *seat.wall]
    return _around(tiles)


def _around(tiles: Sequence[Detection]) -> Zone | None:
    if not tiles:
        return None
    unit = float(np.median([min(d.box.width, d.box.height) for d in tiles]))
    pad = MARGIN * unit
    return (
        min(d.box.x1 for d in tiles) - pad,
        min(d.box.y1 for d in tiles) - pad,
        max(d.box.x2 for d in tiles) + pad,
        max(d.box.y2 for d in tiles) + pad,
    )


def outlined(image: np.ndarray, zones: Iterable[Zone], max_side: int = MAX_SIDE) -> np.ndarray:
    """A copy of ``image`` (BGR) shrunk to ``max_side`` pixels at most on its longer side, each zone outlined in red
    (a white line inside it, to show on any cloth); ``image`` itself is left as it was."""
    import cv2

    height, width = image.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        picture = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    else:
        picture = image.copy()
    line = max(2, round(max(picture.shape[:2]) / 300))
    for x1, y1, x2, y2 in zones:
        a = (round(x1 * scale), round(y1 * scale))
        b = (round(x2 * scale), round(y2 * scale))
        cv2.rectangle(picture, a, b, (0, 0, 255), line + 2, cv2.LINE_AA)
        cv2.rectangle(picture, a, b, (255, 255, 255), max(1, line // 2), cv2.LINE_AA)
    return picture


class ClashFrames:
    """The last ``keep`` pictures of frames a contradiction was seen in, by frame id. Thread-safe."""

    def __init__(self, keep: int = KEEP, max_side: int = MAX_SIDE) -> None:
        if keep < 1:
            raise ValueError(f"keep is 1 or more pictures, not {keep}")
        self.max_side = max_side
        self._keep = keep
        self._lock = threading.Lock()
        #: frame id -> (the zones drawn, the JPEG), oldest first.
        self._pictures: OrderedDict[str, tuple[tuple[Zone, ...], bytes]] = OrderedDict()

    def keep(self, frame_id: str, image: np.ndarray, zones: Iterable[Zone]) -> None:
        """Keep ``image`` (the frame, BGR) as ``frame_id``'s picture with ``zones`` outlined; a frame kept already is
        drawn again only when its zones changed (another clash seen in it). The oldest picture past ``keep`` is
        dropped."""
        import cv2

        drawn = tuple(zones)
        with self._lock:
            held = self._pictures.get(frame_id)
            if held is not None and held[0] == drawn:
                return
        ok, buf = cv2.imencode(".jpg", outlined(image, drawn, self.max_side), [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        if not ok:
            raise RuntimeError(f"could not encode frame {frame_id} as JPEG")
        with self._lock:
            self._pictures[frame_id] = (drawn, buf.tobytes())
            self._pictures.move_to_end(frame_id)
            while len(self._pictures) > self._keep:
                self._pictures.popitem(last=False)

    def jpeg(self, frame_id: str) -> bytes:
        """The kept picture of ``frame_id``; raises UnknownFrame for an id not kept (never kept, or dropped)."""
        with self._lock:
            held = self._pictures.get(frame_id)
        if held is None:
            raise UnknownFrame(f"no picture of frame {frame_id[:64]!r} is kept (only the last {self._keep} are)")
        return held[1]

    def ids(self) -> list[str]:
        """The frames whose pictures are kept, oldest first."""
        with self._lock:
            return list(self._pictures)

    def __contains__(self, frame_id: object) -> bool:
        with self._lock:
            return frame_id in self._pictures


__all__ = ["KEEP", "MAX_SIDE", "ClashFrames", "Zone", "clash_zone", "outlined"]
