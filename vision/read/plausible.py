"""Boxes no tile makes: a face-down tile lies in a wall, a stack, a closed kan or a hand laid down, never alone.

    kept = plausible(detections, image=image)    # what a photo's reader reports (the image: for dark_back)
    [(d, why) for d, why in implausible(detections, image=image)]
    detector = PlausibleDetector(inner)          # the same, as a layer round a detector (the photo reader's)
    detector = PlausibleDetector(inner, OVERHEAD) # an overhead photo of a whole table (jantaku read --table)

The rule, measured on the real sets (``jantaku-lab eval real``; docs/experiments/2026-12-06-real-sets.md): in a photo of
:data:`MIN_TILES` or more boxes, a ``back`` with no tile beside it in a row (a wall, a closed kan's ends, a hand laid
face down) and no other ``back`` near it (a stack) is no tile: a felt's slot, a chip or a panel read as a back lies
so. A photo of a few tiles is left as it is: with nothing beside them, no rule can tell.

A face-up box alone is kept, however unsure: tiles lying loose on a cloth, each its own way, lie apart and are read
unsurely (camerash's loose shots: a rule dropping lone boxes under 0.5 cost 9 of 24 shots). But for a White dragon:
its face is blank, and a blank white thing alone (a key, a card, a die, a box) reads as one; one read under
:data:`LONE_BLANK_CONF` with no tile beside it is no tile (``blank_alone``). Measured over the real sets, camerash's
shots and the distractor renders, that drops three rendered phantoms and no tile.

Tiles side by side (a hand, a wall, a pond's row) are read surely somewhere along the row; the keys of a keyboard, a
felt's slots or a rim's segments lie side by side too, each read unsurely. A group of boxes joined by tile-sized
neighbours, :data:`MIN_GROUP` or more, none read at :data:`UNSURE_GROUP_CONF` or surer, in a photo that holds a box
read at :data:`SURE_CONF` or surer elsewhere, is no tile (``unsure_group``). Measured on the real sets, it drops
only boxes over no tile there (three of alanchoi00's valid photos, six of its test photos), no tile on camerash or
leo-miura, and two rendered tiles with two rendered phantoms. A photo whose every box is unsure is left as it is: a
set the reader is unsure of throughout is better read unsurely than not at all.

A back with no other back near it (in no wall or stack), whose middle is dark and grey (:data:`DARK_VALUE`,
:data:`GREY_SATURATION`), is no tile in a photo whose walls and stacks are not as dark (``dark_back``): an automatic
table's slots and rim, a dark cloth read as a face-down tile beside the tiles, so in a row with them. Hand-labelled
on alanchoi00's valid and test photos (169 backs read, none labelled there): 11 are no tile (slots of an automatic
table, trousers, a table's edge); read with this rule, 7 of them go and none of the 158 real backs. It needs the
image, and costs two sure lone dark backs of the renders (tiles lying face down, of a dark-backed set). A dark set's
closed kan in a photo showing no wall of it would lose its ends.

An overhead photo of a whole table (:data:`OVERHEAD`) keeps a back alone read at :data:`LONE_BACK_CONF` or surer, and
drops no unsure group. Its tiles are small, and a wall's far tiles are read unsurely side by side. On the distractor
renders read as a table, the photo's rules drop 21 sure lone backs (tiles lying face down) for 2 phantoms read as
surely. Under 0.5, where the issue's automatic-table slots, rim and chips were read (0.15-0.5), they drop 18 phantoms
for 1 tile. The unsure groups there are 5 tiles for 3 phantoms. A dark grey back alone goes there as in a photo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import Tile
from vision.read.detector import Detection, Detector, DetectorLayer
from vision.read.geometry import Box, linked_groups

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
#: A group of this many boxes or more ...
MIN_GROUP = 2
#: ... none read at this confidence or surer ...
UNSURE_GROUP_CONF = 0.5
#: ... in a photo with a box read this surely outside the group, is no tile.
SURE_CONF = 0.7
#: A back's middle darker than this (HSV value, 0-255) ...
DARK_VALUE = 95
#: ... and greyer than this (HSV saturation, 0-255) is dark and grey.
GREY_SATURATION = 80
#: An overhead table's back alone read this surely is a tile turned face down.
LONE_BACK_CONF = 0.5
#: A tile beside a back in its row: centres this many of the back's widths apart at most, along the row ...
ROW_GAP = 1.4
#: ... and off the row's line by under this share of the back's height.
ROW_SLIP = 0.5


@dataclass(frozen=True)
class Plausibility:
    """Which of the rules (the module's docstring) a reader applies."""

    #: Drop a back alone only when read under this (1.0: however surely).
    lone_back_below: float = 1.0
    #: Drop the groups of boxes none read surely.
    unsure_groups: bool = True
    #: Drop a dark grey back in no wall or stack (given the image).
    dark_backs: bool = True


#: A photo's rules (``jantaku read``, phone uploads).
PHOTO = Plausibility()
#: An overhead photo of a whole table's rules (``jantaku read --table``).
OVERHEAD = Plausibility(lone_back_below=LONE_BACK_CONF, unsure_groups=False)


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


def _neighbour_pairs(detections: Sequence[Detection]) -> np.ndarray:
    """``[i, j]`` is True where ``detections[j]`` is among :func:`neighbours` of ``detections[i]`` (one matrix, not a
    loop of loops: a whole table holds a few hundred boxes)."""
    boxes = np.array([(d.box.x1, d.box.y1, d.box.x2, d.box.y2) for d in detections], dtype=float).reshape(-1, 4)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    area = w * h
    reach = REACH * np.maximum(w, h)
    near = (cx[None, :] - cx[:, None]) ** 2 + (cy[None, :] - cy[:, None]) ** 2 <= reach[:, None] ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = area[None, :] / area[:, None]
    sized = (area[:, None] > 0) & (area[None, :] > 0) & (ratio >= 1 / SIZE_RATIO) & (ratio <= SIZE_RATIO)
    pairs = near & sized
    np.fill_diagonal(pairs, False)
    return pairs


def groups(detections: Sequence[Detection]) -> list[list[Detection]]:
    """``detections`` parted into groups: a box is in the group of each of its tile-sized neighbours
    (:func:`neighbours`). Each group keeps ``detections``' order; the groups are in the order of their first box."""
    pairs = _neighbour_pairs(detections)
    linked = (pairs | pairs.T).tolist()  # either one a neighbour of the other
    return [[detections[i] for i in group] for group in linked_groups(len(detections), lambda i, j: linked[i][j])]


def dark_grey(image: np.ndarray, box: Box) -> bool:
    """Whether the middle of ``box`` (half its width and height) in ``image`` (BGR) is dark and grey: its median
    value under :data:`DARK_VALUE` and median saturation under :data:`GREY_SATURATION`."""
    height, width = image.shape[:2]
    dx, dy = box.width / 4, box.height / 4
    x1, y1 = max(0, int(box.x1 + dx)), max(0, int(box.y1 + dy))
    x2, y2 = min(width, int(box.x2 - dx) + 1), min(height, int(box.y2 - dy) + 1)
    if x2 <= x1 or y2 <= y1:
        return False
    hsv = cv2.cvtColor(np.ascontiguousarray(image[y1:y2, x1:x2]), cv2.COLOR_BGR2HSV)
    return bool(np.median(hsv[..., 2]) < DARK_VALUE and np.median(hsv[..., 1]) < GREY_SATURATION)


def _dark_lone_backs(backs: Sequence[Detection], alone: set[int], image: np.ndarray) -> set[int]:
    """The ids of the backs ``dark_back`` drops (the module's docstring); ``alone``: the ids of the backs with no
    back near."""
    dark = [d for d in backs if id(d) in alone and dark_grey(image, d.box)]
    if not dark or any(dark_grey(image, d.box) for d in backs if id(d) not in alone):
        return set()  # a dark set: its walls are as dark
    return {id(d) for d in dark}


def _unsure_groups(detections: Sequence[Detection]) -> set[int]:
    """The ids of the boxes in groups no tile makes (``unsure_group``, the module's docstring)."""
    out: set[int] = set()
    for group in groups(detections):
        if len(group) < MIN_GROUP or max(d.conf for d in group) >= UNSURE_GROUP_CONF:
            continue
        members = {id(d) for d in group}
        if any(d.conf >= SURE_CONF and id(d) not in members for d in detections):
            out |= members
    return out


def implausible(
    detections: Sequence[Detection], rules: Plausibility = PHOTO, image: np.ndarray | None = None
) -> list[tuple[Detection, str]]:
    """The boxes no tile makes under ``rules`` (see the module's docstring), each with the rule's name
    (``back_alone``, ``blank_alone``, ``unsure_group``, ``dark_back``), in their order. ``image`` (BGR, the one
    the boxes were read in): for ``dark_back``, which is not applied without it."""
    if len(detections) < MIN_TILES:
        return []
    out = []
    backs = [d for d in detections if d.is_back]
    alone = {id(d) for d in backs if not neighbours(d, backs)}  # in no wall or stack
    unsure = _unsure_groups(detections) if rules.unsure_groups else set()
    dark = _dark_lone_backs(backs, alone, image) if rules.dark_backs and image is not None else set()
    for d in detections:
        if id(d) in alone and d.conf < rules.lone_back_below and not _in_a_row(d, detections):
            out.append((d, "back_alone"))
        elif d.tile == _BLANK and d.conf < LONE_BLANK_CONF and not neighbours(d, detections):
            out.append((d, "blank_alone"))
        elif id(d) in unsure:
            out.append((d, "unsure_group"))
        elif id(d) in dark:
            out.append((d, "dark_back"))
    return out


def plausible(
    detections: Sequence[Detection], rules: Plausibility = PHOTO, image: np.ndarray | None = None
) -> list[Detection]:
    """``detections`` less :func:`implausible`'s under ``rules`` (``image``: as it takes it), in their order."""
    dropped = {id(d) for d, _ in implausible(detections, rules, image)}
    return [d for d in detections if id(d) not in dropped]


class PlausibleDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` that reports ``detector``'s tiles less the boxes no tile makes
    under ``rules`` (:func:`plausible`)."""

    def __init__(self, detector: Detector, rules: Plausibility = PHOTO) -> None:
        self.detector = detector
        self.rules = rules

    def detect(self, image):
        return plausible(self.detector.detect(image), self.rules, image)
