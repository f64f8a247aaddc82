"""Reading only what changed: a camera's frame read in windows round the zones that changed since the last frame
read, the rest of the table kept from the last reading.

    reader = IncrementalReader(Reader.from_config(ReaderConfig.for_camera()))
    reading = reader.read(image)                # the first frame: read whole
    reading = reader.read(image, zones=boxes)   # the zones that changed (frame pixels): read round them only
    reading.windows                             # where it was read (empty: the whole frame)

Between two frames of a game one tile is discarded: the change gate (:class:`device.camera.loop.ChangeGate`) knows
which part of the frame changed, and reading only there takes one or two of the fifteen detector runs a whole
camera frame takes. The pure parts live here:

* :func:`read_windows`: each changed zone padded by :attr:`ZonePolicy.pad_tiles` tiles and grown to at least the
  detector's finest slice (:data:`~vision.read.detector.WINDOWS`, so its tiles are seen at the scale a whole read
  sees them), kept inside the frame; windows that overlap become one.
* :func:`merge_windows`: a window speaks for its inner part (:func:`inner_part`: the window less
  :attr:`ZonePolicy.margin_tiles` tiles along each side that lies inside the frame, where a tile may be cut by the
  window's edge). The new detections whose centre lies there replace the last reading's there; every other
  detection of the last reading is kept, except one the same tile as a new one (they overlap by half).
* :func:`refresh_windows`: so that a misread outside the zones cannot last, each zone read also reads one window
  more of a grid over the whole frame, the next one each time (:attr:`ZonePolicy.refresh`): every part of the table
  is read again within as many reads as the grid has windows (12 in a 2028 x 1520 frame), at the cost of one window
  a read instead of a whole frame now and then (which would hold up the discard it reads by a second).
* :meth:`ZonePolicy.whole_read_why`: when a frame is read whole instead (the first frame, the windows covering
  more than :attr:`ZonePolicy.max_share` of the frame, every :attr:`ZonePolicy.whole_every` reads when set).

The reading itself (the same detector and classifier, the table squared and read seat by seat) is
:meth:`vision.read.pipeline.Reader.read` with ``zones`` and ``previous``; :class:`IncrementalReader` keeps the last
reading for it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from vision.read.detector import WINDOWS, Detection
from vision.read.errors import ConfigError
from vision.read.geometry import Box, Size

if TYPE_CHECKING:
    from vision.read.pipeline import Reader, Reading

#: Two boxes sharing this much of the smaller one's area are the same tile.
SAME_TILE = 0.5


@dataclass(frozen=True, slots=True)
class ZonePolicy:
    """How a camera's reader reads only the zones that changed (:attr:`~vision.read.pipeline.ReaderConfig.zones`)."""

    #: Each changed zone grows by this many tiles (the median tile's long side in the last reading) on every side.
    pad_tiles: float = 1.5
    #: A window speaks for what lies this many tiles inside its edges (the frame's own edges excepted): a tile
    #: centred nearer may be cut by the window. At most ``pad_tiles``, so that the changed zone is spoken for.
    margin_tiles: float = 1.0
    #: The smallest window's side in frame pixels: the detector's finest slice, so tiles are seen at its scale.
    window: int = WINDOWS[0]
    #: Windows covering more than this share of the frame: the frame is read whole.
    max_share: float = 1 / 3
    #: Each zone read reads the next window of a grid over the frame too (:func:`refresh_windows`).
    refresh: bool = True
    #: Every this many reads, one is whole (None: only when the zones ask it).
    whole_every: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.margin_tiles <= self.pad_tiles:
            raise ConfigError(f"margin_tiles must be from 0 to pad_tiles ({self.pad_tiles}), not {self.margin_tiles}")
        if self.window < 1 or (self.whole_every is not None and self.whole_every < 1):
            raise ConfigError(f"window and whole_every must be at least 1, not {self.window} and {self.whole_every}")
        if not 0 < self.max_share <= 1:
            raise ConfigError(f"max_share must be above 0 and at most 1, not {self.max_share}")

    def whole_read_why(
        self, zones: Sequence[Box] | None, previous: Reading | None, frame: Size
    ) -> tuple[str, tuple[Box, ...]]:
        """Why a frame of ``frame``'s size must be read whole ("" when not), and the windows to read when not."""
        if zones is None or previous is None:
            return "no zones or no reading before", ()
        if self.whole_every is not None and previous.since_whole + 1 >= self.whole_every:
            return f"every {self.whole_every}th read is whole", ()
        if Size.of(previous.image) != frame:
            return "the frame's size changed", ()
        tile = tile_side(previous.detections)
        if tile is None or not zones:
            return "no tile read before to size the windows", ()
        windows = read_windows(zones, frame, tile, self)
        share = sum(w.area for w in windows) / (frame.width * frame.height)
        if share > self.max_share:
            return f"the windows cover {share:.0%} of the frame", ()
        if self.refresh:
            grid = refresh_windows(frame, tile, self)
            windows = joined([*windows, grid[previous.since_whole % len(grid)]])
        return "", windows


def tile_side(detections: Sequence[Detection]) -> float | None:
    """The median long side of the detections' boxes (None for none).

    >>> tile_side([Detection.of_class(0, Box(0.0, 0.0, 40.0, 60.0), 0.9)])
    60.0
    """
    sides = [max(d.box.width, d.box.height) for d in detections]
    return float(statistics.median(sides)) if sides else None


def read_windows(zones: Sequence[Box], frame: Size, tile: float, policy: ZonePolicy) -> tuple[Box, ...]:
    """The windows to read round ``zones`` (frame pixels) in a frame of ``frame``'s size whose tiles are ``tile``
    pixels long: each zone padded by ``policy.pad_tiles`` tiles, grown about its centre to at least
    ``policy.window`` pixels a side (the frame's side, when smaller) and moved inside the frame, on whole pixels;
    two windows whose bounds are no bigger than the two together are one, top to bottom.

    >>> read_windows([Box(1000.0, 700.0, 1060.0, 780.0)], Size(height=1520, width=2028), 60.0, ZonePolicy())
    (Box(x1=710.0, y1=420.0, x2=1350.0, y2=1060.0),)
    """
    pad = policy.pad_tiles * tile
    return joined([_grown(Box(z.x1 - pad, z.y1 - pad, z.x2 + pad, z.y2 + pad), frame, policy.window) for z in zones])


def joined(windows: Sequence[Box]) -> tuple[Box, ...]:
    """``windows``, two whose bounds are no bigger than the two together made one, top to bottom."""
    out = list(windows)
    merged = True
    while merged:  # a union may overlap a third window
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                bounds = Box(min(a.x1, b.x1), min(a.y1, b.y1), max(a.x2, b.x2), max(a.y2, b.y2))
                if bounds.area <= a.area + b.area - a.intersection(b):  # one window reads no more pixels
                    out[i] = bounds
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return tuple(sorted(out, key=lambda w: (w.y1, w.x1)))


def refresh_windows(frame: Size, tile: float, policy: ZonePolicy) -> tuple[Box, ...]:
    """A grid of windows of ``policy.window`` pixels a side over a frame of ``frame``'s size whose tiles are ``tile``
    pixels long, overlapping by twice the margin so that their inner parts (:func:`inner_part`) cover the frame;
    row by row.

    >>> len(refresh_windows(Size(height=1520, width=2028), 60.0, ZonePolicy()))
    12
    """
    margin = policy.margin_tiles * tile

    def starts(length: int) -> list[float]:
        side = min(policy.window, length)
        step = max(side - 2 * margin, 1.0)
        count = 1 + max(0, math.ceil((length - side) / step))
        return [round(i * (length - side) / (count - 1)) if count > 1 else 0.0 for i in range(count)]

    side_x, side_y = min(policy.window, frame.width), min(policy.window, frame.height)
    xs, ys = starts(frame.width), starts(frame.height)
    return tuple(Box(float(x), float(y), float(x + side_x), float(y + side_y)) for y in ys for x in xs)


def _grown(box: Box, frame: Size, window: int) -> Box:
    """``box`` at least ``window`` pixels a side (at most the frame's), inside the frame, on whole pixels."""
    x1, x2 = _span(box.x1, box.x2, window, frame.width)
    y1, y2 = _span(box.y1, box.y2, window, frame.height)
    return Box(x1, y1, x2, y2)


def _span(low: float, high: float, least: int, length: int) -> tuple[float, float]:
    """The interval ``[low, high]`` grown about its middle to at least ``least`` (at most ``length``), then moved
    into ``[0, length]`` and cut to it, on whole numbers."""
    side = min(max(high - low, least), length)
    middle = (low + high) / 2
    start = min(max(middle - side / 2, 0.0), length - side)
    return float(round(start)), float(min(round(start + side), length))


def inner_part(window: Box, frame: Size, margin: float) -> Box:
    """The part of ``window`` its reading speaks for: ``margin`` pixels in from each edge that lies inside the frame
    (a tile there may be cut by the window), up to the frame's own edges.

    >>> inner_part(Box(0.0, 100.0, 640.0, 740.0), Size(height=1520, width=2028), 60.0)
    Box(x1=0.0, y1=160.0, x2=580.0, y2=680.0)
    """
    return Box(
        window.x1 + margin if window.x1 > 0 else window.x1,
        window.y1 + margin if window.y1 > 0 else window.y1,
        window.x2 - margin if window.x2 < frame.width else window.x2,
        window.y2 - margin if window.y2 < frame.height else window.y2,
    )


def _centred_in(detection: Detection, part: Box) -> bool:
    x, y = detection.box.center
    return part.x1 <= x < part.x2 and part.y1 <= y < part.y2


def _same_tile(a: Box, b: Box) -> bool:
    smaller = min(a.area, b.area)
    return smaller > 0 and a.intersection(b) >= SAME_TILE * smaller


def merge_windows(
    previous: Sequence[Detection], fresh: Sequence[Sequence[Detection]], windows: Sequence[Box], frame: Size,
    margin: float,
) -> list[Detection]:  # fmt: skip
    """The last reading's detections (``previous``) with what each window read (``fresh[i]``: ``windows[i]``'s, in
    frame pixels) in place of theirs: in each window's inner part (:func:`inner_part`, ``margin`` pixels in) the new
    detections centred there (where windows overlap, the more confident of two the same tile); elsewhere the old
    ones, but for one the same tile as a new one. Top to bottom, each row left to right as the detector gives them
    (by the boxes' top, then left edge)."""
    parts = [inner_part(w, frame, margin) for w in windows]
    taken: list[Detection] = []
    found_inside = [d for part, found in zip(parts, fresh, strict=True) for d in found if _centred_in(d, part)]
    for d in sorted(found_inside, key=lambda d: -d.conf):
        if not any(_same_tile(d.box, t.box) for t in taken):
            taken.append(d)
    kept = [
        d
        for d in previous
        if not any(_centred_in(d, part) for part in parts) and not any(_same_tile(d.box, t.box) for t in taken)
    ]
    return sorted([*kept, *taken], key=lambda d: (d.box.y1, d.box.x1))


def shifted(detections: Sequence[Detection], dx: float, dy: float) -> list[Detection]:
    """Detections of a window whose top left lies at (``dx``, ``dy``), in the frame's pixels."""
    return [replace(d, box=Box(d.box.x1 + dx, d.box.y1 + dy, d.box.x2 + dx, d.box.y2 + dy)) for d in detections]


@dataclass
class IncrementalReader:
    """A camera's reader that remembers its last reading and reads each frame only round the zones that changed
    since (:meth:`read`); :meth:`forget` makes the next read whole (the camera moved or reconnected)."""

    reader: Reader
    last: Reading | None = None

    def read(self, image, zones: Sequence[Box] | None = None) -> Reading:
        """``image`` read round ``zones`` (frame pixels; None: whole) after the last reading, as
        :meth:`vision.read.pipeline.Reader.read` does it."""
        self.last = self.reader.read(image, zones=zones, previous=self.last)
        return self.last

    def forget(self) -> None:
        self.last = None
