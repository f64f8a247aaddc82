"""Boxes no tile makes: a face-down tile lies in a wall, a stack, a closed kan or a hand laid down, never alone.

    kept = plausible(detections)                 # what a photo's reader reports
    [(d, why) for d, why in implausible(detections)]
    detector = PlausibleDetector(inner)          # the same, as a layer round a detector (the photo reader's)

The rule, measured on the real sets (``jantaku-lab eval real``; docs/experiments/2026-12-06-real-sets.md): in a photo of
:data:`MIN_TILES` or more boxes, a ``back`` with no tile beside it in a row (a wall, a closed kan's ends, a hand laid
face down) and no other ``back`` near it (a stack) is no tile: a felt's slot, a chip or a panel read as a back lies
so. A photo of a few tiles is left as it is: with nothing beside them, no rule can tell.

A face-up box alone is kept, however unsure: tiles lying loose on a cloth, each its own way, lie apart and are read
unsurely (camerash's loose shots: a rule dropping lone boxes under 0.5 cost 9 of 24 shots). But for a White dragon:
its face is blank, and a blank white thing alone (a key, a card, a die, a box) reads as one; one read under
:data:`LONE_BLANK_CONF` with no tile beside it is no tile (``blank_alone``). Measured over the real sets, camerash's
shots and the distractor renders, that drops three rendered phantoms and no tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.tiles import Tile
from vision.read.detector import Detection, Detector, DetectorLayer

#: Photos with fewer boxes are read as they are.
MIN_TILES = 4
#: A box's neighbour lies within this many of its long sides (centre to centre) ...
REACH = 1.6
#: ... and has between 1/:data:`SIZE_RATIO` and :data:`SIZE_RATIO` times its area: tile-sized.
SIZE_RATIO = 2.0
#: A White dragon read under this confidence with no tile-sized box near it is no tile.
LONE_BLANK_CONF = 0.5
#: The blank tile.
_BLANK = Tile.parse("5z")
#: A tile beside a back in its row: centres this many of the back's widths apart at most, along the row ...
ROW_GAP = 1.4
#: ... and off the row's line by under this share of the back's height.
ROW_SLIP = 0.5


def _tile_sized(a: Detection, b: Detection) -> bool:
    if a.box.area <= 0 or b.box.area <= 0:
        return False
    return 1 / SIZE_RATIO <= b.box.area / a.box.area <= SIZE_RATIO


def neighbours(d: Detection, others: Iterable[Detection]) -> list[Detection]:
    """The tile-sized boxes of ``others`` (``d`` itself left out) whose centres lie within :data:`REACH` of ``d``'s
    long side."""
    cx, cy = d.box.center
    reach = REACH * max(d.box.width, d.box.height)
    out = []
    for o in others:
        ox, oy = o.box.center
        if (ox - cx) ** 2 + (oy - cy) ** 2 <= reach**2 and o is not d and _tile_sized(d, o):
            out.append(o)
    return out


def _in_a_row(d: Detection, others: Iterable[Detection]) -> bool:
    """Whether a tile-sized box lies beside ``d`` along a row, either way (across the frame or down it)."""
    cx, cy = d.box.center
    w, h = d.box.width, d.box.height
    for o in others:
        if o is d or not _tile_sized(d, o):
            continue
        ox, oy = o.box.center
        beside = abs(ox - cx) <= ROW_GAP * w and abs(oy - cy) < ROW_SLIP * h
        above = abs(oy - cy) <= ROW_GAP * h and abs(ox - cx) < ROW_SLIP * w
        if beside or above:
            return True
    return False


def implausible(detections: Sequence[Detection]) -> list[tuple[Detection, str]]:
    """The boxes no tile makes (see the module's docstring), each with the rule's name (``back_alone``,
    ``blank_alone``), in their order."""
    if len(detections) < MIN_TILES:
        return []
    out = []
    backs = [d for d in detections if d.is_back]
    for d in detections:
        if d.is_back and not neighbours(d, backs) and not _in_a_row(d, detections):
            out.append((d, "back_alone"))
        elif d.tile == _BLANK and d.conf < LONE_BLANK_CONF and not neighbours(d, detections):
            out.append((d, "blank_alone"))
    return out


def plausible(detections: Sequence[Detection]) -> list[Detection]:
    """``detections`` less :func:`implausible`'s, in their order."""
    dropped = {id(d) for d, _ in implausible(detections)}
    return [d for d in detections if id(d) not in dropped]


class PlausibleDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reports ``detector``'s tiles less the boxes no tile makes
    (:func:`plausible`)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector

    def detect(self, image):
        return plausible(self.detector.detect(image))
