"""Reading a photo taken from across the table: tiles upside down, a hand facing the other way.

A winning hand is laid down facing its owner, so the player who photographs it from across the table sees it upside
down; loose tiles lie any way up. :mod:`vision.upright` stands turned tiles straight only modulo a quarter turn: it
cannot tell a tile upside down from one upright. The crop classifier reads both alike (it averages each crop with
its half turn, :func:`vision.classifier.crop_views`), but the detector does not: all its real frames were upright.
Measured on the real held-out photos turned a half turn (``jantaku eval phone``, "turned 180", stop 14): tile F1
0.949 and 7 of 24 read exactly, against 0.983 and 17 of 24 for the same photos upright.

The detector is surer of upright tiles, and that tells which way up a photo is: over the 24 real held-out photos,
read at their tiles' scale, the mean confidence of the boxes is higher upright than turned a half turn in all 24
(by 0.003 to 0.31). So :class:`HalfTurnDetector` reads the photo and its half turn with a probe (the detector at
the tiles' scale, no classifier), and when the half turn reads surer by more than :data:`MARGIN`, the photo is read
turned a half turn and the tiles are mapped back; each then carries ``turn`` 180 more, so that a hand reads in its
owner's order (:func:`vision.reader.read_tiles`). Another set's tiles, whose faces the detector reads as well either
way up, come out near even and are read as the photo is.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import numpy as np

from vision.detector import Detection, Detector
from vision.geometry import Box

#: How much surer (mean box confidence) the half turn must read for the photo to be read that way: another set's
#: hands photographed upright came out within 0.04 either way; the half-turned real photos up to 0.31 surer turned.
MARGIN = 0.05


def half_turned(image: np.ndarray) -> np.ndarray:
    """``image`` turned a half turn (a copy)."""
    return np.ascontiguousarray(image[::-1, ::-1])


def wrapped(degrees: float) -> float:
    """``degrees`` in (-180, 180].

    >>> wrapped(190.0), wrapped(-180.0), wrapped(180.0), wrapped(30.0)
    (-170.0, 180.0, 180.0, 30.0)
    """
    out = (degrees + 180.0) % 360.0 - 180.0
    return 180.0 if out == -180.0 else out


def detection_back(d: Detection, height: int, width: int) -> Detection:
    """A detection read on the half turn of a ``height`` x ``width`` photo, in the photo's pixels: its box turned
    back and its ``turn`` a half turn more."""
    b = d.box
    return replace(d, box=Box(width - b.x2, height - b.y2, width - b.x1, height - b.y1), turn=wrapped(d.turn + 180.0))


def surety(found: list[Detection]) -> float:
    """The mean confidence of the boxes a probe found (0 for none)."""
    return float(np.mean([d.conf for d in found])) if found else 0.0


class HalfTurnDetector:
    """A :class:`~vision.detector.Detector` that reads a photo its half turn shows upright turned that way (see the
    module's docstring). ``probe`` reads both ways to tell; ``detector`` reads the photo. ``turned`` records, per
    photo read (the last 64), whether it was read turned."""

    def __init__(self, detector: Detector, probe: Detector, margin: float = MARGIN) -> None:
        self.detector = detector
        self.probe = probe
        self.margin = margin
        self.turned: deque[bool] = deque(maxlen=64)

    def reads_turned(self, image: np.ndarray, turned: np.ndarray | None = None) -> bool:
        """Whether the probe reads ``image``'s half turn (``turned``, made when None) surer by :attr:`margin`."""
        turned = half_turned(image) if turned is None else turned
        return surety(self.probe.detect(turned)) > surety(self.probe.detect(image)) + self.margin

    def detect(self, image: np.ndarray) -> list[Detection]:
        turned = half_turned(image)
        flip = self.reads_turned(image, turned)
        self.turned.append(flip)
        if not flip:
            return self.detector.detect(image)
        h, w = image.shape[:2]
        return [detection_back(d, h, w) for d in self.detector.detect(turned)]

    def __getattr__(self, name: str):  # input_size, network, options, passes ... of the inner detector
        if name == "detector":
            raise AttributeError(name)
        return getattr(self.detector, name)
