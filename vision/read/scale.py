"""Reading a photo at the scale its tiles call for: the whole photo first, slices only when its tiles are small.

    detector = PhotoDetector(network, DetectorOptions())
    detections = detector.detect(image)          # a BGR uint8 photo of any size
    detector.passes[-1]                          # how it was read: "whole", "sliced@0.50", "afar@8.00", "+holes1"

:class:`PhotoDetector` reads the whole photo and judges its tiles' size by the median short side of the sure boxes.
Tiles of the sizes the network learnt (``min_tile`` to ``max_tile`` of its input): that reading stands. Small tiles,
or none: the photo is read again in slices at the scale that shows them at ``target``. Tiles bigger than any it
learnt, nothing found, or nothing sure: the photo is read from afar, in the middle of a plain frame ``afar`` times
its size. A one-tile hole in a row of tiles is read again close up (:meth:`PhotoDetector.fill_holes`). The camera
reads by the slice pyramid instead (:class:`vision.read.detector.SlicedDetector`); both are built by
:mod:`vision.read.pipeline`. What was measured when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

import statistics
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import Detection, DetectorOptions, Network, SlicedDetector, apart_from
from vision.read.geometry import Box, Size
from vision.read.postprocess import PAD_VALUE

#: At most this many holes in rows are read again per photo (each costs one network pass).
MAX_HOLES = 6


@dataclass(frozen=True, slots=True)
class Hole:
    """A gap in a row of tiles that could hold one more: the gap's box (the neighbours' height), and their mean
    height and width in photo pixels."""

    box: Box
    tile_height: float
    tile_width: float


class PhotoDetector:
    """A :class:`~vision.read.detector.Detector` for photos of any scale (see the module's docstring).

    ``passes`` records, per photo read, how it was read: ``"whole"``, ``"sliced@<scale>"`` or ``"afar@<factor>"``,
    with ``"+holes<n>"`` when re-reading holes in rows (:meth:`fill_holes`) added ``n`` tiles.
    """

    def __init__(
        self,
        network: Network,
        options: DetectorOptions | None = None,
        *,
        min_tile: float = 0.035,
        max_tile: float = 0.125,
        target: float = 0.072,
        afar: tuple[float, ...] = (8.0, 12.0),
        max_afar: float = 4.0,
        sure: float = 0.5,
        min_slice_gain: float = 1.5,
        budget: RunBudget | None = None,
    ) -> None:
        self.network = network
        #: The read's model runs: a pass from afar is made only while it fits with what its reading still takes once
        #: the detector is done (:attr:`~vision.read.budget.RunBudget.rest_of_reading`), and past the read's first
        #: reading or for a hole in a row read again, only while another reading fits after that too; a reading's
        #: first pass always.
        self.budget = budget or RunBudget()
        self.options = options or DetectorOptions()
        # with the options' weak_conf, the weak boxes of the pass that read the photo are kept aside
        # (detect_with_weak); every choice of how to read it is made on the tiles found at the options' conf
        self.whole = SlicedDetector(network, replace(self.options, scales=()))
        #: Median short side, as a share of the input's side, from which the whole-photo reading stands (18 px of
        #: 512, the small end of the sizes the shipped model learnt) ...
        self.min_tile = min_tile
        #: ... and above which the photo is read again from afar (64 px of 512: the widest tile faces it learnt).
        self.max_tile = max_tile
        #: The size the slices show tiles at, as a share of the input's side (the middle of what it learnt).
        self.target = target
        #: How much smaller a photo is shown when the whole pass is no help, each tried in turn until one reads a
        #: tile: nothing found (a single tile filling it), or nothing sure, nor from afar at the scale its unsure
        #: boxes (pips, a part of the face) suggest. A tile filling a 240 x 320 photo comes out at 44-60 px of 512
        #: at 8 (the camera's own close-ups are read so, :func:`vision.eval.evaluation.on_table`), 30-40 at 12 ...
        self.afar = tuple(sorted(afar))
        if not self.afar or min(self.afar) <= 1.0:
            raise ValueError(f"afar: factors above 1 to show a photo smaller, got {afar}")
        #: ... and the most a photo of big tiles is shown smaller (it is brought to 1.5 x ``target``).
        self.max_afar = max_afar
        #: Confidence from which a box of the whole pass speaks for the photo's scale (all of them when none does).
        self.sure = sure
        #: Slices are read only when they show the photo at least this many times as big as the whole pass did.
        self.min_slice_gain = min_slice_gain
        #: How the last photos were read (a long-lived service reads many: only the last ones are kept).
        self.passes: deque[str] = deque(maxlen=64)
        self._held = threading.local()  # what :meth:`remembering` holds, per thread

    @property
    def input_size(self) -> Size:
        return self.whole.input_size

    @contextmanager
    def remembering(self, *images: np.ndarray) -> Iterator[None]:
        """While within: the reading of each of ``images`` is kept, and that same array read again is answered from
        it, not read again (its record in ``passes`` repeated). :class:`~vision.read.views.upside_down.HalfTurnDetector`
        probes a photo and its half turn with this reader, then reads one of them again behind the crop classifier: a
        12 MP photo's second reading cost 0.1 s. The caller holds ``images`` unchanged meanwhile; each is known by
        identity, so a copy or view of one is read anew."""
        before = getattr(self._held, "readings", None)
        self._held.readings = {id(a): (a, None) for a in images}
        try:
            yield
        finally:
            self._held.readings = before

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self.detect_with_weak(image)[0]

    def detect_with_weak(self, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
        """The tiles :meth:`detect` finds, and the weak boxes beside them (none without the options'
        ``weak_conf``): those of the pass that read the photo
        (:meth:`~vision.read.detector.SlicedDetector.detect_with_weak`) that overlap no tile it found."""
        readings = getattr(self._held, "readings", None)
        held = readings.get(id(image)) if readings else None
        if held is None or held[0] is not image:
            return self._read_weak(image)
        if held[1] is None:
            found, weak = self._read_weak(image)
            readings[id(image)] = (image, (tuple(found), tuple(weak), self.passes[-1] if self.passes else ""))
            return found, weak
        found, weak, how = held[1]
        self.passes.append(how)
        return list(found), list(weak)

    def _read_weak(self, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
        found, weak = self._read(image)
        return found, apart_from(weak, found)

    def _read(self, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
        """The photo's tiles, and the weak boxes of the pass they came from (:meth:`detect_with_weak`)."""
        # passes from afar leave room for the rest of this reading; past the read's first reading (a probe of the
        # half turn, a view's), for a reading after it too
        first = self.budget.spent == 0
        leaving = self.budget.rest_of_reading + (0 if first else self.budget.least_reading)
        found, weak = self.whole.detect_with_weak(image)
        if not found:  # nothing, or one tile filling the photo: far bigger than any the network learnt
            for factor in self.afar:
                if not self.budget.affords(1, "afar", leaving=leaving, first_reading_part=first):
                    break
                far, far_weak = self.from_afar_weak(image, factor)
                if far:
                    self.passes.append(f"afar@{factor:.2f}")
                    return far, far_weak
        h, w = image.shape[:2]
        net = self.whole.input_size
        side = min(net.height, net.width)
        whole_scale = min(net.height / h, net.width / w)  # network pixels per photo pixel, whole photo letterboxed
        certain = [d for d in found if d.conf >= self.sure]
        unsure = bool(found) and not certain  # big tiles may be read so: neither their tiles nor size to be trusted
        sure = certain or found  # the scale of the tiles, not of a stray box
        sizes = sorted(min(d.box.x2 - d.box.x1, d.box.y2 - d.box.y1) * whole_scale for d in sure)
        median = sizes[len(sizes) // 2] if sizes else 0.0
        too_big = median > self.max_tile * side
        if found and (too_big or (unsure and median >= self.min_tile * side)):
            factor = min(self.max_afar, max(median / (1.5 * self.target * side), 2.0 if unsure else 1.0))
            # unsure: further still when that finds nothing sure (a face's pips read as tiles at the first factor)
            for tried in [factor, *(f for f in self.afar if unsure and f > factor)]:
                if not self.budget.affords(1, "afar", leaving=leaving, first_reading_part=first):
                    break
                far, far_weak = self.from_afar_weak(image, tried)
                # tiles too big: any reading from afar; only unsure: one from afar that is sure of something
                if far and (too_big or any(d.conf >= self.sure for d in far)):
                    self.passes.append(f"afar@{tried:.2f}")
                    # with the whole pass's sure boxes that no box from afar covers (smaller tiles further back)
                    return _top_to_bottom(far + [d for d in certain if not _covered(d.box, far)]), far_weak
        scale = 0.5
        if len(sizes) >= 3 and median > 0:  # bring the tiles it did see to the target size
            scale = self.target * side / (median / whole_scale)
        # slices show the tiles at least min_slice_gain times as big as the whole photo did, never scaled up: where
        # the cap leaves them hardly bigger (a 640 frame: 1.25 times, in five runs), or a slice is the photo, the
        # whole reading stands
        least = self.min_slice_gain * whole_scale
        scale = min(1.0, max(scale, least))
        whole_again = (net.height / scale >= h and net.width / scale >= w) or scale < least
        if whole_again or (found and median >= self.min_tile * side):  # (a small photo: slices would be it whole)
            self.passes.append("whole")
            return self.fill_holes(image, found), weak
        sliced = SlicedDetector(self.network, replace(self.options, scales=(scale,)))
        # past the read's first reading (a view's canvas, a stretched photo), slices only while they fit
        rest = self.budget.rest_of_reading
        if not first and not self.budget.affords(sliced.runs_for(Size.of(image)), "slices", leaving=rest):
            self.passes.append("whole")
            return self.fill_holes(image, found), weak
        self.passes.append(f"sliced@{scale:.2f}")
        found, weak = sliced.detect_with_weak(image)
        return self.fill_holes(image, found), weak

    def fill_holes(self, image: np.ndarray, found: list[Detection]) -> list[Detection]:
        """``found`` and the tiles found by reading again round each hole in a row (:func:`_holes`): each hole in a
        square slice in which its neighbours come out at ``target`` of the input (skipped when that is no closer
        than the whole photo was read); a tile is kept when its centre lies in the hole, its height is the
        neighbours' (within 30 %) and it overlaps no tile already found."""
        h, w = image.shape[:2]
        net = self.whole.input_size
        whole_scale = min(net.height / h, net.width / w)
        extra: list[Detection] = []
        for hole in _holes(found)[:MAX_HOLES]:
            # a square slice, letterboxed to the input, shows the hole's neighbours at ``target`` of it
            side = round(min(hole.tile_width, hole.tile_height) / self.target)
            if side < 8 or min(net.height, net.width) / side <= whole_scale:  # read as close or closer already
                continue
            # a hole's run only while a reading of a view (the photo's pass and the classifier's) still fits after it
            if not self.budget.affords(1, "holes", leaving=self.budget.rest_of_reading + self.budget.least_reading):
                break
            gap = hole.box
            cx, cy = (gap.x1 + gap.x2) / 2, (gap.y1 + gap.y2) / 2
            x0 = int(min(max(cx - side / 2, 0), max(w - side, 0)))
            y0 = int(min(max(cy - side / 2, 0), max(h - side, 0)))
            for d in self.whole.detect(image[y0 : y0 + side, x0 : x0 + side]):
                b = Box(d.box.x1 + x0, d.box.y1 + y0, d.box.x2 + x0, d.box.y2 + y0)
                mx, my = (b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2
                if (
                    gap.x1 <= mx <= gap.x2
                    and gap.y1 <= my <= gap.y2
                    and abs(b.height / hole.tile_height - 1) <= 0.3
                    and not any(b.iou(o.box) > 0.3 for o in found + extra)
                ):
                    extra.append(replace(d, box=b))
        if extra and self.passes:  # the photo's one record: how it was read, and what its holes added
            self.passes[-1] += f"+holes{len(extra)}"
        return _top_to_bottom(found + extra) if extra else found

    def from_afar(self, image: np.ndarray, factor: float) -> list[Detection]:
        """The tiles of :meth:`from_afar_weak`."""
        return self.from_afar_weak(image, factor)[0]

    def from_afar_weak(self, image: np.ndarray, factor: float) -> tuple[list[Detection], list[Detection]]:
        """The photo read whole in the middle of a plain grey frame ``factor`` times its size, as a camera further
        away would see it; boxes with less than half their width or height inside the photo are dropped, the rest
        clipped to it.

        The frame is built at most twice the network's input (the photo shrunk first): it is shrunk to the input
        anyway, and a 12 MP photo four times over would be 190 MP.
        """
        h, w = image.shape[:2]
        net = self.whole.input_size
        shrink = min(1.0, 2 * max(net.height, net.width) / (factor * max(h, w)))
        if shrink < 1.0:
            image = cv2.resize(
                image, (max(1, round(w * shrink)), max(1, round(h * shrink))), interpolation=cv2.INTER_AREA
            )
        sh, sw = image.shape[:2]
        sx, sy = w / sw, h / sh  # photo pixels per shrunk pixel (the resize rounds, so not 1 / shrink exactly)
        big_h, big_w = round(sh * factor), round(sw * factor)
        y0, x0 = (big_h - sh) // 2, (big_w - sw) // 2
        # the letterbox's grey, which the network learnt as nothing (the photo's edge colour is often the tile's own)
        canvas = np.full((big_h, big_w, 3), PAD_VALUE, np.uint8)
        canvas[y0 : y0 + sh, x0 : x0 + sw] = image

        def in_photo(found: list[Detection]) -> list[Detection]:
            out = []
            for d in found:
                b = d.box
                x1, y1 = max(b.x1 - x0, 0.0), max(b.y1 - y0, 0.0)
                inside = Box(x1, y1, min(b.x2 - x0, float(sw)), min(b.y2 - y0, float(sh)))
                if inside.x2 - inside.x1 >= 0.5 * (b.x2 - b.x1) and inside.y2 - inside.y1 >= 0.5 * (b.y2 - b.y1):
                    out.append(replace(d, box=Box(inside.x1 * sx, inside.y1 * sy, inside.x2 * sx, inside.y2 * sy)))
            return out

        found, weak = self.whole.detect_with_weak(canvas)
        return in_photo(found), in_photo(weak)


def row_neighbours(boxes: Sequence[Box]) -> list[tuple[int, int, float]]:
    """(i, j, gap) for each of ``boxes`` (of some area) that has a neighbour on its right in a row: ``boxes[j]``, the
    nearest (the first of the nearest) of those right of it (its left edge past 70 % of box i's width), within 30 %
    of its height, overlapping it vertically by half the lower one's height or more, and at most 2.5 of the wider
    one's widths away; ``gap`` the space between them (negative where they overlap)."""
    if not boxes:
        return []
    x1, y1, x2, y2 = np.array([(b.x1, b.y1, b.x2, b.y2) for b in boxes], np.float64).T
    w, h = x2 - x1, y2 - y1
    gap = x1[None, :] - x2[:, None]  # [i, j]: from box i's right edge to box j's left
    right = x1[None, :] >= x2[:, None] - 0.3 * w[:, None]
    alike = np.abs(h[None, :] / h[:, None] - 1) <= 0.3
    overlap = np.minimum(y2[:, None], y2[None, :]) - np.maximum(y1[:, None], y1[None, :])
    beside = overlap >= 0.5 * np.minimum(h[:, None], h[None, :])
    near = gap <= 2.5 * np.maximum(w[:, None], w[None, :])
    linked = right & alike & beside & near
    np.fill_diagonal(linked, False)
    nearest = np.where(linked, gap, np.inf).argmin(axis=1)
    return [(i, int(j), float(gap[i, j])) for i, j in enumerate(nearest) if linked[i, j]]


def _holes(found: list[Detection]) -> list[Hole]:
    """The gaps in rows that could hold one more tile, widest first.

    Each tile's neighbour on the right is the nearest tile of about its height (within 30 %) overlapping it
    vertically by half or more (so a row turned a little still counts). A gap between neighbours is a hole when it
    is 0.6 to 1.8 tiles wider than the median of the other neighbours' gaps (tiles laid apart have wide gaps, and
    none of them is a hole) and one of the two has a neighbour of its own (three tiles in a line).
    """
    boxes = [d.box for d in found if d.box.width > 0 and d.box.height > 0]
    pairs = row_neighbours(boxes)
    in_line = {k: 0 for k in range(len(boxes))}
    for i, j, _ in pairs:
        in_line[i] += 1
        in_line[j] += 1
    holes = []
    for n, (i, j, gap) in enumerate(pairs):
        others = [g for m, (_, _, g) in enumerate(pairs) if m != n]
        if not others or in_line[i] + in_line[j] < 3:
            continue
        a, b = boxes[i], boxes[j]
        width = (a.width + b.width) / 2
        if 0.6 * width <= gap - statistics.median(others) <= 1.8 * width:
            box = Box(a.x2, min(a.y1, b.y1), b.x1, max(a.y2, b.y2))
            holes.append(Hole(box, (a.height + b.height) / 2, width))
    return sorted(holes, key=lambda h: -(h.box.x2 - h.box.x1) / h.tile_width)


def _covered(box: Box, others: list[Detection]) -> bool:
    """Whether half of ``box`` or more lies inside one of ``others``' boxes."""
    return any(box.share_inside(o.box) >= 0.5 for o in others)


def _top_to_bottom(detections: list[Detection]) -> list[Detection]:
    """In the detector's order: by top edge, then left edge."""
    return sorted(detections, key=lambda d: (d.box.y1, d.box.x1))
