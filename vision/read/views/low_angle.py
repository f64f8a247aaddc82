"""Reading tiles seen from a low angle: a standing hand photographed from above, a hand laid down shot aslant.

A tile's face is about 4:3 tall; seen at a slant it comes out squat, and the detector reads squat tiles badly (its
real frames were stretched tall, and a box wider than tall is taken for a tile lying sideways).
:class:`SquatDetector` (``detector = SquatDetector(inner)``; the reader's ``low_angle`` view) reads the photo as it
is; when most of its sure face-up boxes are squat (:data:`SQUAT`), it reads the photo again stretched taller, so that
their median comes out :data:`STRETCHED_TO` as tall as wide (shrunk to at most :data:`MOST_PIXELS`), and keeps that
reading when it is surer (:func:`vision.read.views.compare.reads_surer`). Tiles lying sideways stretched tall read
less surely, so they keep their own reading; a photo of tiles lying as they should is read once. What was measured
when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import Detection, Detector, DetectorLayer
from vision.read.geometry import Box
from vision.read.table import TABLE_MIN_TILES
from vision.read.views.compare import reads_surer

#: A box at most this many times as tall as wide is squat (a face is about 1.33 tall, a real frame's 2.4) ...
SQUAT = 1.2
#: ... and a photo is tried stretched when at least this share of its sure face-up boxes are.
SQUAT_SHARE = 0.5
#: The median height over width the stretch gives those boxes (the detector reads 1.5 to 2.4 alike) ...
STRETCHED_TO = 1.8
#: ... stretching by at most this much.
MOST_STRETCH = 3.0
#: A photo is read stretched only when its stretch is more than this (less reads as it is).
MIN_STRETCH = 1.05
#: The rank of the reading squat tiles claim from the read's budget (:meth:`vision.read.budget.RunBudget.claim`):
#: after a turned group's, before sideways tiles read upright (:mod:`vision.read.views.turned_tiles`).
CLAIM_RANK = 1
#: A stretched view larger than this (pixels) is shrunk, both ways alike, to it: a 12 MP phone photo.
MOST_PIXELS = 12_000_000
#: Confidence from which a box speaks for the photo's tiles (all of them when none is this sure).
SURE = 0.5


def squat_stretch(found: Sequence[Detection]) -> float | None:
    """How much taller to read a photo whose reading is ``found`` (see the module's docstring), or None. A whole
    table (:data:`~vision.read.table.TABLE_MIN_TILES` tiles or more) is seen from above: its walls and sideways
    tiles lie squat, and are read as they lie."""
    if len(found) >= TABLE_MIN_TILES:
        return None
    faces = [d for d in found if not d.is_back and d.box.area > 0]
    sure = [d for d in faces if d.conf >= SURE] or faces
    if not sure:
        return None
    tall = np.array([d.box.height / d.box.width for d in sure])
    if float(np.mean(tall <= SQUAT)) < SQUAT_SHARE:
        return None
    return float(min(MOST_STRETCH, STRETCHED_TO / float(np.median(tall))))


def wanted_stretch(found: Sequence[Detection]) -> float | None:
    """:func:`squat_stretch` when it is worth a reading (more than :data:`MIN_STRETCH`), else None."""
    stretch = squat_stretch(found)
    return stretch if stretch is not None and stretch > MIN_STRETCH else None


def stretched(image: np.ndarray, stretch: float, most_pixels: int = MOST_PIXELS) -> tuple[np.ndarray, float, float]:
    """``image`` ``stretch`` times taller (shrunk both ways to ``most_pixels`` at most), and its scales (x, y)."""
    h, w = image.shape[:2]
    k = min(1.0, math.sqrt(most_pixels / (h * w * stretch)))
    out_w, out_h = max(1, round(w * k)), max(1, round(h * stretch * k))
    view = cv2.resize(image, (out_w, out_h), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return view, out_w / w, out_h / h


def detection_unstretched(d: Detection, sx: float, sy: float) -> Detection:
    """A detection read on a view scaled (``sx``, ``sy``), in the photo's pixels."""
    b = d.box
    return replace(d, box=Box(b.x1 / sx, b.y1 / sy, b.x2 / sx, b.y2 / sy))


class SquatDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reads squat tiles stretched taller (see the module's docstring).
    ``stretches`` records, per photo read (the last 64), the stretch it was read at (1.0: as it is)."""

    def __init__(self, detector: Detector, budget: RunBudget | None = None) -> None:
        self.detector = detector
        #: The read's model runs: the stretched photo is read only when another reading fits, kept back for it from
        #: the first reading that shows squat tiles.
        self.budget = budget or RunBudget()
        self.budget.claim("low_angle", lambda image, found: wanted_stretch(found) is not None, CLAIM_RANK)
        self.stretches: deque[float] = deque(maxlen=64)

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.detector.detect(image)
        stretch = wanted_stretch(found)
        if stretch is None:
            self.budget.release("low_angle")
        if stretch is None or not self.budget.affords_read("low_angle"):
            self.stretches.append(1.0)
            return found
        view, sx, sy = stretched(image, stretch)
        again = [detection_unstretched(d, sx, sy) for d in self.detector.detect(view)]
        if not reads_surer(found, again):
            self.stretches.append(1.0)
            return found
        self.stretches.append(round(sy / sx, 2))
        return again
