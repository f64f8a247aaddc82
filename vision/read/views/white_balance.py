"""Reading photos taken under coloured or dim light: the tiles' own faces as the white to balance by.

A tile's face is near white in any set, so :class:`BalancedDetector` (``BalancedDetector(inner)``; the reader's
``white_balance`` view) reads the photo, takes the colour of the faces it found (:func:`face_colour`: the bright
middle of each sure box), and when that colour is off white by more than tiles are (:data:`MAX_CAST`) or dim, reads
the photo again with each channel scaled so that the faces come out white (:func:`balanced`). A photo whose faces
are white already is read once. What was measured when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import Detection, Detector, DetectorLayer
from vision.read.geometry import Box

#: Largest channel over smallest of the faces' colour from which a photo counts as cast: tiles are ivory to white
#: (the real photos' faces: 1.03-1.10; the renders' ivory fronts up to 1.12).
MAX_CAST = 1.2
#: Brightness (mean of the channels, 0-255) below which the faces count as dim: the real photos' faces are 200-215.
MIN_FACE = 140.0
#: The face colour a balanced photo is brought to (each channel, 0-255).
WHITE = 215.0
#: The most a channel is scaled by (a face this far off is something else, or lit by one colour alone).
MAX_GAIN = 3.0


def face_colour(image: np.ndarray, boxes: Sequence[Box]) -> np.ndarray | None:
    """The median colour (BGR, float) of the brightest 40 % of the middle 60 % of each box: the tile faces, not
    their glyphs, nor the cloth at the boxes' edges. None without a box to measure."""
    h, w = image.shape[:2]
    samples = []
    for b in boxes:
        cx, cy = b.center
        hw, hh = 0.3 * b.width, 0.3 * b.height
        x1, y1, x2, y2 = max(int(cx - hw), 0), max(int(cy - hh), 0), min(int(cx + hw) + 1, w), min(int(cy + hh) + 1, h)
        region = image[y1:y2, x1:x2].reshape(-1, 3).astype(np.float32)
        if len(region) < 4:
            continue
        light = region.max(axis=1)
        samples.append(region[light >= np.percentile(light, 60)])
    if not samples:
        return None
    return np.median(np.concatenate(samples), axis=0)


def gains(face: np.ndarray) -> np.ndarray | None:
    """Per-channel gains that bring ``face`` to white, or None when it is white enough already."""
    face = np.maximum(np.asarray(face, np.float64), 1.0)
    cast = float(face.max() / face.min())
    if cast <= MAX_CAST and float(face.mean()) >= MIN_FACE:
        return None
    return np.clip(WHITE / face, 1.0 / MAX_GAIN, MAX_GAIN)


def balanced(image: np.ndarray, channel_gains: np.ndarray) -> np.ndarray:
    """``image`` with each channel scaled by ``channel_gains`` (BGR), clipped to 0-255."""
    lut = np.clip(np.arange(256, dtype=np.float64)[:, None] * np.asarray(channel_gains)[None, :], 0, 255)
    lut = lut.round().astype(np.uint8)
    out = np.empty_like(image)
    for c in range(3):
        out[..., c] = lut[image[..., c], c]
    return out


@dataclass
class BalancedDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reads a cast or dim photo again white-balanced by its tiles' faces
    (see the module's docstring). ``last_gains`` are the gains the last photo was read again with (None: as it was).
    """

    detector: Detector
    #: Confidence from which a box's face speaks for the light (all boxes when none is this sure).
    sure: float = 0.5
    #: The read's model runs: the balanced photo is read only when another reading fits. It claims none from the
    #: read's first detections: their faces (the detector's own boxes, before the classifier) called for a balance
    #: the reading's did not, and the reading kept back cost the unsure crops their views (alanchoi00 valid: 5 photos
    #: fewer exact).
    budget: RunBudget = field(default_factory=RunBudget)
    last_gains: tuple[float, float, float] | None = None

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.detector.detect(image)
        self.last_gains = None
        sure = [d.box for d in found if d.conf >= self.sure and not d.is_back] or [d.box for d in found]
        face = face_colour(image, sure)
        g = None if face is None else gains(face)
        if g is None or not self.budget.affords_read("white_balance"):
            return found
        self.last_gains = (float(g[0]), float(g[1]), float(g[2]))
        return self.detector.detect(balanced(image, g))
