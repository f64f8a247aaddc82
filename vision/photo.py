"""Reading a photo at the scale its tiles call for: the whole photo first, slices only when its tiles are small.

A photo's tiles may be any size: a phone close-up of a hand shows tiles a tenth of its width or more, an overhead
frame of a whole table shows them at 1-2 %. The camera's detector (:class:`vision.detector.SlicedDetector`) reads
every frame as a whole pyramid of views; on a close-up, its slices zoom in on tiles bigger than any the network
learnt and on the clutter around them (book spines, a phone, the mat's pattern), and box parts of both as tiles.
Measured on the real held-out photos cut close or tiled and enlarged to 4000 px (``jantaku eval phone``: 152 shots,
1,195 tiles, labels fixed as in :mod:`vision.real_photos`): the pyramid reads them at precision 0.64, recall 0.97,
39 shots exact, 1.2 s a shot; this reader at precision 0.96, recall 0.99, 124 shots exact, 63 ms.

So :class:`PhotoDetector` reads the whole photo first and judges its tiles' size by the median short side of the
boxes it found (the confident ones). Tiles the network learnt (``min_tile`` to ``max_tile`` of the input's side):
that reading stands, as slices would show the same tiles too big. Small tiles, or none found: the photo is read
again in slices, at the one scale that shows its tiles at about ``target`` of the input side (half scale when it
found nothing to judge by). Tiles bigger than any it learnt (a tile or two filling the photo), or nothing at all:
the photo is read again from afar, in the middle of a plain frame several times its size, so that its tiles come
out at sizes the network knows (a network shown a tile filling its input sees a pattern of pips, not a tile).

A hand is a row of tiles side by side, so a hole one tile wide between two tiles of a row is most likely a tile the
pass missed (another set's tile, glare): :meth:`PhotoDetector.fill_holes` reads a window round each such hole again,
at the scale that shows its tiles at ``target``, and keeps a tile found in the hole. Measured on hands of another
set's tiles (``jantaku eval phone``: camerash's photos in rows, 48 shots): misses 10 -> 1 of 595 tiles, F1 0.925 ->
0.932, with no extra box; tiles 0.06 of the shot high: F1 0.948 -> 0.963, 8 -> 11 of 16 hands exact.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import replace

import cv2
import numpy as np

from vision.detector import Detection, DetectorOptions, Network, SlicedDetector
from vision.geometry import Box, Size
from vision.postprocess import PAD_VALUE
from vision.reader import read_tiles

#: At most this many holes in rows are read again per photo (each costs one network pass).
MAX_HOLES = 6


class PhotoDetector:
    """A :class:`~vision.detector.Detector` for photos of any scale (see the module's docstring).

    ``passes`` records, per photo read, how it was read: ``"whole"``, ``"sliced@<scale>"`` or ``"afar@<factor>"``.
    """

    def __init__(
        self,
        network: Network,
        options: DetectorOptions | None = None,
        *,
        min_tile: float = 0.035,
        max_tile: float = 0.16,
        target: float = 0.072,
        afar: float = 5.0,
        max_afar: float = 4.0,
        sure: float = 0.5,
    ) -> None:
        self.network = network
        self.options = options or DetectorOptions()
        self.whole = SlicedDetector(network, replace(self.options, scales=()))
        #: Median short side, as a share of the input's side, from which the whole-photo reading stands (18 px of
        #: 512, the small end of the sizes the shipped model learnt) ...
        self.min_tile = min_tile
        #: ... and above which the photo is read again from afar (82 px of 512: bigger than any tile it learnt).
        self.max_tile = max_tile
        #: The size the slices show tiles at, as a share of the input's side (the middle of what it learnt).
        self.target = target
        #: How much smaller a photo in which the whole pass found nothing is shown (a single tile filling it) ...
        self.afar = afar
        #: ... and the most a photo of big tiles is shown smaller (it is brought to 1.5 x ``target``).
        self.max_afar = max_afar
        #: Confidence from which a box of the whole pass speaks for the photo's scale (all of them when none does).
        self.sure = sure
        #: How the last photos were read (a long-lived service reads many: only the last ones are kept).
        self.passes: deque[str] = deque(maxlen=64)

    @property
    def input_size(self) -> Size:
        return self.whole.input_size

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.whole.detect(image)
        if not found:  # nothing, or one tile filling the photo: far bigger than any the network learnt
            far = self.from_afar(image, self.afar)
            if far:
                return far
        h, w = image.shape[:2]
        net = self.whole.input_size
        side = min(net.height, net.width)
        whole_scale = min(net.height / h, net.width / w)  # network pixels per photo pixel, whole photo letterboxed
        sure = [d for d in found if d.conf >= self.sure] or found  # the scale of the tiles, not of a stray box
        sizes = sorted(min(d.box.x2 - d.box.x1, d.box.y2 - d.box.y1) * whole_scale for d in sure)
        median = sizes[len(sizes) // 2] if sizes else 0.0
        if found and median > self.max_tile * side:
            far = self.from_afar(image, min(self.max_afar, median / (1.5 * self.target * side)))
            if far:  # with the whole pass's sure boxes that no box from afar covers (smaller tiles further back)
                return _top_to_bottom(far + [d for d in sure if not _covered(d.box, far)])
        scale = 0.5
        if len(sizes) >= 3 and median > 0:  # bring the tiles it did see to the target size
            scale = self.target * side / (median / whole_scale)
        scale = min(1.0, max(scale, 1.5 * whole_scale))
        whole_again = net.height / scale >= h and net.width / scale >= w  # a slice as big as the photo
        if whole_again or (found and median >= self.min_tile * side):  # (a small photo: slices would be it whole)
            self.passes.append("whole")
            return self.fill_holes(image, found)
        self.passes.append(f"sliced@{scale:.2f}")
        return self.fill_holes(
            image, SlicedDetector(self.network, replace(self.options, scales=(scale,))).detect(image)
        )

    def fill_holes(self, image: np.ndarray, found: list[Detection]) -> list[Detection]:
        """``found`` and the tiles found by reading again round each hole of a row (a gap between two neighbours
        0.6 to 1.8 tiles wider than the row's usual gap): each hole in a square window in which the row's
        tiles come out at ``target`` of the input, a tile kept when its centre lies in the hole, its height is the
        row's (within 30 %) and it overlaps no tile already found."""
        h, w = image.shape[:2]
        extra: list[Detection] = []
        for row_box, tile, hole in _row_holes(found)[:MAX_HOLES]:
            window = round(min(tile.width, tile.height) / self.target)  # letterboxed: tiles at target of the input
            if window >= max(h, w):  # the whole pass read it at that scale or closer
                continue
            cx, cy = (hole.x1 + hole.x2) / 2, (hole.y1 + hole.y2) / 2
            x0 = int(min(max(cx - window / 2, 0), max(w - window, 0)))
            y0 = int(min(max(cy - window / 2, 0), max(h - window, 0)))
            for d in self.whole.detect(image[y0 : y0 + window, x0 : x0 + window]):
                b = Box(d.box.x1 + x0, d.box.y1 + y0, d.box.x2 + x0, d.box.y2 + y0)
                mx, my = (b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2
                fits = hole.x1 <= mx <= hole.x2 and row_box.y1 <= my <= row_box.y2
                if (
                    fits
                    and abs(b.height / tile.height - 1) <= 0.3
                    and not any(b.iou(o.box) > 0.3 for o in found + extra)
                ):
                    extra.append(replace(d, box=b))
        if extra and self.passes:  # the photo's one record: how it was read, and what its holes added
            self.passes[-1] += f"+holes{len(extra)}"
        return _top_to_bottom(found + extra) if extra else found

    def from_afar(self, image: np.ndarray, factor: float) -> list[Detection]:
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
        # the letterbox's grey, which the network learnt as nothing (camerash's tiles filling their photos, read
        # with jantaku eval phone: top-1 0.77 on grey, 0.70 on the colour of the photo's edges, often the tile's own)
        canvas = np.full((big_h, big_w, 3), PAD_VALUE, np.uint8)
        canvas[y0 : y0 + sh, x0 : x0 + sw] = image
        out = []
        for d in self.whole.detect(canvas):
            b = d.box
            inside = Box(max(b.x1 - x0, 0.0), max(b.y1 - y0, 0.0), min(b.x2 - x0, float(sw)), min(b.y2 - y0, float(sh)))
            if inside.x2 - inside.x1 >= 0.5 * (b.x2 - b.x1) and inside.y2 - inside.y1 >= 0.5 * (b.y2 - b.y1):
                out.append(replace(d, box=Box(inside.x1 * sx, inside.y1 * sy, inside.x2 * sx, inside.y2 * sy)))
        if out:
            self.passes.append(f"afar@{factor:.2f}")
        return out


def _row_holes(found: list[Detection]) -> list[tuple[Box, Box, Box]]:
    """(the row's extent, its median tile, the hole) for each gap between neighbours 0.6-1.8 tiles wider than the
    row's median gap, in rows of three or more tiles (:func:`vision.reader.read_tiles`'s rows), widest first."""
    holes = []
    for row in read_tiles(found).rows:
        boxes = [d.box for d in row.detections]
        if len(boxes) < 3:
            continue
        tw = float(np.median([b.width for b in boxes]))
        th = float(np.median([b.height for b in boxes]))
        y1 = float(np.median([b.y1 for b in boxes]))
        y2 = float(np.median([b.y2 for b in boxes]))
        extent = Box(boxes[0].x1, y1, boxes[-1].x2, y2)
        gaps = [b.x1 - a.x2 for a, b in itertools.pairwise(boxes)]
        usual = float(np.median(gaps))  # tiles laid apart have wide gaps, and none of them is a hole
        for (a, b), gap in zip(itertools.pairwise(boxes), gaps, strict=True):
            if 0.6 * tw <= gap - usual <= 1.8 * tw:
                holes.append((gap / tw, extent, Box(0.0, 0.0, tw, th), Box(a.x2, y1, b.x1, y2)))
    return [(e, t, h) for _, e, t, h in sorted(holes, key=lambda x: -x[0])]


def _covered(box: Box, others: list[Detection]) -> bool:
    """Whether half of ``box`` or more lies inside one of ``others``' boxes."""
    area = max((box.x2 - box.x1) * (box.y2 - box.y1), 1e-9)
    for o in others:
        ix = min(box.x2, o.box.x2) - max(box.x1, o.box.x1)
        iy = min(box.y2, o.box.y2) - max(box.y1, o.box.y1)
        if ix > 0 and iy > 0 and ix * iy >= 0.5 * area:
            return True
    return False


def _top_to_bottom(detections: list[Detection]) -> list[Detection]:
    """In the detector's order: by top edge, then left edge."""
    return sorted(detections, key=lambda d: (d.box.y1, d.box.x1))
