"""Boxes the photo's edge cuts: kept only where the reader is sure of them.

A box that runs into the frame's edge shows part of what it boxes: a tile half out of the shot, or the clutter
around a table (book spines, a tray, a phone) taken at a guess for a tile cut by the edge.
:class:`SureAtEdgeDetector` (``SureAtEdgeDetector(inner)``; the reader's outermost view, ``photo_edge``) drops the
boxes within :data:`EDGE` of the frame's edge that are less sure than :data:`SURE_AT_EDGE` and not of a whole tile's
size (:data:`WHOLE_TILE`), where the photo shows a sure tile away from its edge; every other box is left as it is.
A photo of one tile filling the frame is read as it is. What was measured when:
docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.read.detector import Detection, Detector, DetectorLayer
from vision.read.geometry import Box, Size

#: How near the frame's edge a box runs to be cut by it: this share of the frame's longer side (at least a pixel).
EDGE = 0.001
#: The confidence a box the edge cuts needs to be kept ...
SURE_AT_EDGE = 0.5
#: ... unless it is of a whole tile's size: its sides within these shares of the median sides of the photo's sure
#: tiles away from the edge (either way round: a tile lying sideways), a whole tile lying against the edge.
WHOLE_TILE = (0.85, 1.4)


def cut_by_edge(box: Box, size: Size, edge: float = EDGE) -> bool:
    """Whether ``box`` runs to within ``edge`` (a share of the longer side) of the edge of a frame of ``size``.

    >>> frame = Size(height=3000, width=4000)
    >>> cut_by_edge(Box(0.0, 100.0, 300.0, 500.0), frame), cut_by_edge(Box(3000.0, 2600.0, 3997.0, 2999.0), frame)
    (True, True)
    >>> cut_by_edge(Box(10.0, 100.0, 300.0, 500.0), frame)
    False
    """
    margin = max(1.0, edge * max(size.height, size.width))
    return box.x1 <= margin or box.y1 <= margin or box.x2 >= size.width - margin or box.y2 >= size.height - margin


@dataclass
class SureAtEdgeDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` whose boxes cut by the frame's edge are kept only when at least
    ``sure`` (see the module's docstring)."""

    detector: Detector
    sure: float = SURE_AT_EDGE
    edge: float = EDGE

    def detect(self, image: np.ndarray) -> list[Detection]:
        size = Size.of(image)
        found = self.detector.detect(image)
        inside = [not cut_by_edge(d.box, size, self.edge) for d in found]
        subject = [d.box for d, within in zip(found, inside, strict=True) if within and d.conf >= self.sure]
        if not subject:
            return found  # no sure tile away from the edge: what the edge cuts is what the photo shows
        tile = (float(np.median([b.width for b in subject])), float(np.median([b.height for b in subject])))
        return [
            d
            for d, within in zip(found, inside, strict=True)
            if within or d.conf >= self.sure or whole_tile_sized(d.box, tile)
        ]


def whole_tile_sized(box: Box, tile: tuple[float, float], within: tuple[float, float] = WHOLE_TILE) -> bool:
    """Whether ``box``'s sides are within ``within`` of a tile's (width, height), either way round.

    >>> tile = (60.0, 80.0)
    >>> whole_tile_sized(Box(0.0, 0.0, 60.0, 80.0), tile), whole_tile_sized(Box(0.0, 0.0, 80.0, 60.0), tile)
    (True, True)
    >>> whole_tile_sized(Box(0.0, 0.0, 30.0, 80.0), tile), whole_tile_sized(Box(0.0, 0.0, 130.0, 80.0), tile)
    (False, False)
    """
    low, high = within

    def fits(w: float, h: float) -> bool:
        return low <= box.width / w <= high and low <= box.height / h <= high

    w, h = tile
    return w > 0 and h > 0 and (fits(w, h) or fits(h, w))
