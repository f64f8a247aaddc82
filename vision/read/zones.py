"""Reading only what changed: a camera's frame read in slices round the zones that changed since the last frame
read, the rest of the table kept from the last reading.

    reader = IncrementalReader(Reader.from_config(ReaderConfig.for_camera()))  # both of vision.read.pipeline
    reading = reader.read(image)                # the first frame: read whole
    reading = reader.read(image, zones=boxes)   # the zones that changed (frame pixels): read round them only
    reading.slices                              # where it was read (empty: the whole frame)

Between two frames of a game one tile is discarded: the change gate (:class:`device.camera.loop.ChangeGate`) knows
which part of the frame changed, and reading only there takes one or two of the fifteen detector runs a whole
camera frame takes. The pure parts live here:

* :func:`grid_slices` and :func:`read_slices`: the frame's slices are the detector's finest, where a whole read
  reads them (:data:`~vision.read.detector.SLICE_SIDES`, at the scale the network learnt its tiles at), so a slice
  reads what the whole read's reads; a zone is read in the slices whose inner part meets it, padded by
  :attr:`ZonePolicy.pad_tiles` tiles.
* :func:`merge_slices`: a slice speaks for its inner part (:func:`inner_part`: the slice less
  :meth:`ZonePolicy.margin` along each side that lies inside the frame, where a tile may be cut by the slice's
  edge). The new detections whose centre lies there are taken; an old one goes when a new one is the same tile
  (they overlap by half), or, not found again, where the gate saw the table change or deep inside a slice (a tile
  near a slice's edge is found less surely by that slice alone than by a whole read's overlapping slices).
* So that a misread outside the zones cannot last, each zone read also reads the next slice of the grid
  (:attr:`ZonePolicy.refresh`): every part of the table is read again within as many reads as the grid has slices
  (12 in a 2028 x 1520 frame), at the cost of one slice a read, instead of a whole read now and then holding up
  the discard it reads by a second.
* :meth:`ZonePolicy.whole_read_why`: when a frame is read whole instead (the first frame, zones touching more than
  :attr:`ZonePolicy.max_share` of the slices, every :attr:`ZonePolicy.whole_every` reads when set).

The reading itself (the same detector and classifier, the table squared and read seat by seat) is
:meth:`vision.read.pipeline.Reader.read` with ``zones`` and ``previous``;
:class:`~vision.read.pipeline.IncrementalReader` keeps the last reading for it.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from vision.read.detector import CUT_MARGIN, SLICE_SIDES, Detection, DetectorOptions, cut_by_border, plan_slices
from vision.read.errors import ConfigError
from vision.read.geometry import Box, Size
from vision.read.postprocess import intersection_matrix


class Previous(Protocol):
    """What the policy needs of the last reading (a :class:`vision.read.pipeline.Reading`)."""

    @property
    def image(self) -> np.ndarray: ...
    @property
    def detections(self) -> tuple[Detection, ...]: ...
    @property
    def since_whole(self) -> int: ...


#: Two boxes sharing this much of the smaller one's area are the same tile.
SAME_TILE = 0.5


@dataclass(frozen=True, slots=True)
class ZonePolicy:
    """How a camera's reader reads only the zones that changed (:attr:`~vision.read.pipeline.ReaderConfig.zones`)."""

    #: Each changed zone grows by this many tiles (the median tile's long side in the last reading) on every side (the
    #: gate's zones reach a cell past what changed already).
    pad_tiles: float = 0.25
    #: A slice speaks for what lies this many tiles inside its edges (the frame's own edges excepted): a tile
    #: centred nearer may be cut by the slice. Never more than half the slices' overlap (:meth:`margin`), so that
    #: their inner parts cover the frame.
    margin_tiles: float = 1.0
    #: The slices' side: the detector's finest (:data:`~vision.read.detector.SLICE_SIDES`, square, overlapping by
    #: ``overlap``), where a whole read reads them, so a slice reads what the whole read's reads.
    slice_side: int = SLICE_SIDES[0]
    overlap: float = DetectorOptions().overlap
    #: Zones touching more than this share of the grid's slices: the frame is read whole.
    max_share: float = 1 / 3
    #: Each zone read reads the next slice of the grid too (:attr:`vision.read.pipeline.Reading.since_whole`).
    refresh: bool = True
    #: Every this many reads, one is whole (None: only when the zones ask it).
    whole_every: int | None = None
    #: The zones are read in the coarser slices of this many pixels too, each shrunk to the network's input (one
    #: run), as a whole read's pyramid reads them: a tile the finest slices miss (a blank White dragon they take for
    #: a face-down tile) a coarser slice finds. What it finds counts only inside the finest slices' inner parts (it
    #: adds or confirms; it never takes a tile away). None: the finest slices only.
    coarse_slice_side: int | None = SLICE_SIDES[-1]

    def __post_init__(self) -> None:
        if self.pad_tiles < 0 or self.margin_tiles < 0:
            raise ConfigError(
                f"pad_tiles and margin_tiles must be 0 or more, not {self.pad_tiles} and {self.margin_tiles}"
            )
        if self.slice_side < 1 or (self.whole_every is not None and self.whole_every < 1):
            raise ConfigError(
                f"slice_side and whole_every must be at least 1, not {self.slice_side} and {self.whole_every}"
            )
        if self.coarse_slice_side is not None and self.coarse_slice_side <= self.slice_side:
            raise ConfigError(
                f"coarse_slice_side must be larger than slice_side ({self.slice_side}), not {self.coarse_slice_side}"
            )
        if not 0 < self.max_share <= 1 or not 0 <= self.overlap < 1:
            raise ConfigError(f"max_share must be above 0 and at most 1 and overlap from 0 to under 1, not "
                              f"{self.max_share} and {self.overlap}")  # fmt: skip

    def margin(self, tile: float) -> float:
        """The margin in pixels for tiles ``tile`` pixels long."""
        return min(self.margin_tiles * tile, self.overlap * self.slice_side / 2)

    def padded(self, zones: Sequence[Box], tile: float) -> list[Box]:
        """``zones`` grown by :attr:`pad_tiles` tiles of ``tile`` pixels on every side."""
        pad = self.pad_tiles * tile
        return [Box(z.x1 - pad, z.y1 - pad, z.x2 + pad, z.y2 + pad) for z in zones]

    def whole_read_why(
        self, zones: Sequence[Box] | None, previous: Previous | None, frame: Size
    ) -> tuple[str, tuple[Box, ...]]:
        """Why a frame of ``frame``'s size must be read whole ("" when not), and the slices to read when not."""
        if zones is None or previous is None:
            return "no zones or no reading before", ()
        if self.whole_every is not None and previous.since_whole + 1 >= self.whole_every:
            return f"every {self.whole_every}th read is whole", ()
        if Size.of(previous.image) != frame:
            return "the frame's size changed", ()
        tile = tile_side(previous.detections)
        if tile is None or not zones:
            return "no tile read before to size the slices", ()
        grid = grid_slices(frame, self)
        if len(grid) < 2:
            return "the frame is one slice", ()
        slices = read_slices(zones, frame, tile, self)
        if len(slices) > self.max_share * len(grid):
            return f"the zones touch {len(slices)} of the {len(grid)} slices", ()
        due = grid[previous.since_whole % len(grid)]
        if self.refresh and due not in slices:
            slices = tuple(w for w in grid if w in slices or w == due)
        return "", slices


def coarse_slices(zones: Sequence[Box], frame: Size, tile: float, policy: ZonePolicy) -> tuple[Box, ...]:
    """The slices of :attr:`ZonePolicy.coarse_slice_side` pixels to read ``zones`` in too (:func:`read_slices` on the
    coarser grid; the whole frame when one such slice covers it; none when the policy has no coarse slice)."""
    if policy.coarse_slice_side is None:
        return ()
    coarse = replace(policy, slice_side=policy.coarse_slice_side, coarse_slice_side=None)
    if not grid_slices(frame, coarse):
        return (Box(0.0, 0.0, float(frame.width), float(frame.height)),)
    return read_slices(zones, frame, tile, coarse)


def tile_side(detections: Sequence[Detection]) -> float | None:
    """The median long side of the detections' boxes (None for none).

    >>> tile_side([Detection.of_class(0, Box(0.0, 0.0, 40.0, 60.0), 0.9)])
    60.0
    """
    sides = [max(d.box.width, d.box.height) for d in detections]
    return float(statistics.median(sides)) if sides else None


def grid_slices(frame: Size, policy: ZonePolicy) -> tuple[Box, ...]:
    """The slices of a frame of ``frame``'s size: the slices of ``policy.slice_side`` pixels a side the detector's
    pyramid reads it in (:func:`~vision.read.detector.plan_slices`), row by row; none when one covers the frame.

    >>> [w.as_list(0) for w in grid_slices(Size(height=480, width=1000), ZonePolicy())]
    [[0.0, 0.0, 640.0, 480.0], [360.0, 0.0, 1000.0, 480.0]]
    """
    side = Size(height=policy.slice_side, width=policy.slice_side)
    slices = plan_slices(frame, side, scales=(1.0,), overlap=policy.overlap, slice_sides=(), small_slice_sides=())
    return tuple(Box(float(v.x0), float(v.y0), float(v.x1), float(v.y1)) for v in slices if v.level)


def read_slices(zones: Sequence[Box], frame: Size, tile: float, policy: ZonePolicy) -> tuple[Box, ...]:
    """The slices (:func:`grid_slices`) to read round ``zones`` (frame pixels) in a frame of ``frame``'s size whose
    tiles are ``tile`` pixels long: for each zone padded by ``policy.pad_tiles`` tiles, the fewest columns and rows of
    the grid whose inner parts (:func:`inner_part`) cover it along each axis, and the slices where they cross; row by
    row.

    >>> frame = Size(height=1520, width=2028)
    >>> [w.as_list(0)[:2] for w in read_slices([Box(900.0, 850.0, 1120.0, 1100.0)], frame, 60.0, ZonePolicy())]
    [[463.0, 440.0], [925.0, 440.0], [463.0, 880.0], [925.0, 880.0]]
    """
    grid = grid_slices(frame, policy)
    margin = policy.margin(tile)
    columns = sorted({(w.x1, w.x2) for w in grid})
    rows = sorted({(w.y1, w.y2) for w in grid})
    inner_columns = [(a + margin if a > 0 else a, b - margin if b < frame.width else b) for a, b in columns]
    inner_rows = [(a + margin if a > 0 else a, b - margin if b < frame.height else b) for a, b in rows]
    chosen: set[tuple[int, int]] = set()
    for z in policy.padded(zones, tile):
        across = _cover(max(z.x1, 0.0), min(z.x2, float(frame.width)), inner_columns)
        down = _cover(max(z.y1, 0.0), min(z.y2, float(frame.height)), inner_rows)
        chosen |= {(r, c) for r in down for c in across}
    return tuple(Box(columns[c][0], rows[r][0], columns[c][1], rows[r][1]) for r, c in sorted(chosen))


def _cover(low: float, high: float, spans: Sequence[tuple[float, float]]) -> list[int]:
    """The fewest of ``spans`` (sorted, overlapping, from 0 to the frame's side) that cover ``[low, high]``: from
    ``low`` on, each time the one reaching furthest among those that begin by where the cover has reached."""
    picked: list[int] = []
    at = low
    while True:
        reach = [i for i, (a, _) in enumerate(spans) if a <= at]
        best = max(reach, key=lambda i: spans[i][1]) if reach else 0
        if picked and spans[best][1] <= at:  # no span goes further (they leave a gap): stop here
            return picked
        picked.append(best)
        if spans[best][1] >= high:
            return picked
        at = spans[best][1]


def inner_part(frame_slice: Box, frame: Size, margin: float) -> Box:
    """The part of ``frame_slice`` its reading speaks for: ``margin`` pixels in from each edge that lies inside the
    frame (a tile there may be cut by the slice), up to the frame's own edges.

    >>> inner_part(Box(0.0, 100.0, 640.0, 740.0), Size(height=1520, width=2028), 60.0)
    Box(x1=0.0, y1=160.0, x2=580.0, y2=680.0)
    """
    return Box(
        frame_slice.x1 + margin if frame_slice.x1 > 0 else frame_slice.x1,
        frame_slice.y1 + margin if frame_slice.y1 > 0 else frame_slice.y1,
        frame_slice.x2 - margin if frame_slice.x2 < frame.width else frame_slice.x2,
        frame_slice.y2 - margin if frame_slice.y2 < frame.height else frame_slice.y2,
    )


def _centred_in(detection: Detection, part: Box) -> bool:
    x, y = detection.box.center
    return part.x1 <= x < part.x2 and part.y1 <= y < part.y2


def _same_tile(a: Box, b: Box) -> bool:
    smaller = min(a.area, b.area)
    return smaller > 0 and a.intersection(b) >= SAME_TILE * smaller


def merge_slices(
    previous: Sequence[Detection], fresh: Sequence[Sequence[Detection]], slices: Sequence[Box], frame: Size,
    margin: float, changed: Sequence[Box] = (),
) -> list[Detection]:  # fmt: skip
    """The last reading's detections (``previous``) with what each slice read (``fresh[i]``: ``slices[i]``'s, in
    frame pixels) merged in: the new detections centred in a slice's inner part (:func:`inner_part`, ``margin``
    pixels in; where slices overlap, the more confident of two the same tile) are taken; an old one goes when it is
    the same tile as a new one, or when, not found again, it lay centred in an inner part where the table ``changed``
    (the zones the gate saw change) or in a slice's core (twice the margin in): a tile nearer a slice's edge is
    found less surely in that slice alone, and where nothing changed it cannot have gone. Top to bottom, each row
    left to right as the detector gives them (by the boxes' top, then left edge)."""
    parts = [inner_part(w, frame, margin) for w in slices]
    cores = [inner_part(w, frame, 2 * margin) for w in slices]
    taken: list[Detection] = []
    found_inside = [d for part, found in zip(parts, fresh, strict=True) for d in found if _centred_in(d, part)]
    for d in sorted(found_inside, key=lambda d: -d.conf):
        if not any(_same_tile(d.box, t.box) for t in taken):
            taken.append(d)

    def gone(d: Detection) -> bool:
        if any(_same_tile(d.box, t.box) for t in taken) or any(_centred_in(d, core) for core in cores):
            return True
        return any(_centred_in(d, part) for part in parts) and any(_centred_in(d, zone) for zone in changed)

    return sorted([*(d for d in previous if not gone(d)), *taken], key=lambda d: (d.box.y1, d.box.x1))


def whole_over_cut(found: Sequence[Sequence[Detection]], slices: Sequence[Box], frame: Size) -> list[Detection]:
    """What each slice found (``found[i]``: ``slices[i]``'s, in frame pixels) together, less each box cut by its own
    slice's border inside the frame that lies half inside a box another slice found whole: the whole one speaks
    for that tile (as :meth:`~vision.read.detector.SlicedDetector.merge` has it; a cut box may be the more
    confident, and a sideways tile boxed short reads upright)."""
    every = [d for f in found for d in f]
    if not every:
        return []
    boxes = np.array([[d.box.x1, d.box.y1, d.box.x2, d.box.y2] for d in every], dtype=np.float64)
    cut = np.concatenate([
        cut_by_border(boxes[i : i + len(f)], (w.x1, w.y1, w.x2, w.y2), frame, CUT_MARGIN)
        for i, f, w in zip(np.cumsum([0, *map(len, found)]), found, slices, strict=False)
    ])  # fmt: skip
    if cut.any() and (~cut).any():
        inside = intersection_matrix(boxes[cut], boxes[~cut])
        areas = (boxes[cut, 2] - boxes[cut, 0]) * (boxes[cut, 3] - boxes[cut, 1])
        covered = (inside >= 0.5 * areas[:, None]).any(axis=1) & (areas > 0)
        cut[np.flatnonzero(cut)[~covered]] = False
    else:
        cut[:] = False
    return [d for d, drop in zip(every, cut, strict=True) if not drop]


def shifted(detections: Sequence[Detection], dx: float, dy: float) -> list[Detection]:
    """Detections of a slice whose top left lies at (``dx``, ``dy``), in the frame's pixels."""
    return [replace(d, box=Box(d.box.x1 + dx, d.box.y1 + dy, d.box.x2 + dx, d.box.y2 + dy)) for d in detections]
