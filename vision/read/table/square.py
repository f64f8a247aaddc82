"""A camera mounted turned to the table: its frames read square to the table's edges.

    turn = TableTurn()                                   # kept from frame to frame
    squared, found = turn.read(image, detector.detect)   # the frame turned back by the table's turn, its tiles
    in_photo = turn.in_frame(found, *squared.shape[:2])  # the boxes as the frame itself shows them

The table reader (:mod:`vision.read.table`) works along the frame's axes, so :class:`TableTurn` measures how the
table lies turned from the rows of tiles read (:func:`row_turn`: the 4-fold mean direction from each tile to its
nearest neighbour), keeps that turn, and reads each frame turned back by it, in the frame's own size. When a reading
leaves :data:`MIN_TABLE_TURN` or more (the first frames, a camera knocked), the turn is updated and the frame read
again. The turn is modulo a quarter turn: which side is whose seat stays as the camera sees it. The camera's reader
(:meth:`vision.read.pipeline.ReaderConfig.for_camera`) and ``jantaku read --table`` read so. What was measured
when: docs/experiments/2026-12-04-reading-history.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.postprocess import PAD_VALUE

#: Below this turn (degrees) frames are read as they are, and a turn left in a straightened frame smaller than this
#: does not move it: the table reader copes with a turn of a few degrees, and the row measure wobbles by a tenth
#: or two from frame to frame.
MIN_TABLE_TURN = 1.0
#: Sure tiles beside a neighbour before a frame's turn is trusted: a hand over an empty table says nothing of it.
MIN_VOTES = 8
#: How well the rows' directions must agree (the length of their 4-fold mean, 0 to 1; rows of a table: 0.99 or more).
MIN_AGREEMENT = 0.8
#: A tile's nearest neighbour counts when its centre lies within this many of the tile's long sides.
NEIGHBOUR_REACH = 1.5


def row_turn(
    detections: Sequence[Detection], sure: float = 0.5, min_votes: int = MIN_VOTES, agreement: float = MIN_AGREEMENT
) -> float | None:
    """How far the rows of tiles in a frame lie turned, degrees counter-clockwise as it shows them, modulo a quarter
    turn ([-45, 45)): the 4-fold mean direction from each tile read at ``sure`` confidence or more to its nearest
    neighbour (within :data:`NEIGHBOUR_REACH` of its long side); None when fewer than ``min_votes`` tiles have one, or
    their directions agree less than ``agreement`` (tiles lying loose).

    >>> from vision.read.geometry import Box
    >>> row = [Detection.of_class(0, Box(40.0 * i, 10.0, 40.0 * i + 38, 60.0), 0.9) for i in range(10)]
    >>> round(row_turn(row), 6)
    0.0
    """
    sure_ones = [d for d in detections if d.conf >= sure and d.box.area > 0]
    if len(sure_ones) < max(2, min_votes):
        return None
    centres = np.array([d.box.center for d in sure_ones], np.float64)
    reach = NEIGHBOUR_REACH * np.array([max(d.box.width, d.box.height) for d in sure_ones])
    apart = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(apart, np.inf)
    nearest = apart.argmin(axis=1)
    near = apart[np.arange(len(sure_ones)), nearest] <= reach
    if near.sum() < min_votes:
        return None
    step = centres[nearest[near]] - centres[near]
    mean = np.exp(4j * -np.arctan2(step[:, 1], step[:, 0])).mean()  # minus: an image's y axis points down
    if abs(mean) < agreement:
        return None
    return float((math.degrees(np.angle(mean) / 4) + 45.0) % 90.0 - 45.0)


@dataclass
class TableTurn:
    """How the table lies turned in a camera's frames (degrees counter-clockwise as they show it), kept from frame
    to frame; ``updates`` counts the times a reading moved it."""

    turn: float = 0.0
    min_turn: float = MIN_TABLE_TURN
    updates: int = 0

    def straightened(self, image: np.ndarray) -> np.ndarray:
        """``image`` turned back by the table's turn, in its own size (the letterbox's grey where the turn brings in
        what lay beyond it), or ``image`` itself when the turn is under ``min_turn``."""
        if abs(self.turn) < self.min_turn:
            return image
        h, w = image.shape[:2]
        # the frame's own size (the table lies in its middle; what the turn takes out past its corners is beyond
        # the table): the pyramid reads it in the slices it reads a frame of the camera squared by hand in
        return cv2.warpAffine(image, self._squaring(h, w), (w, h), flags=cv2.INTER_LINEAR, borderValue=(PAD_VALUE,) * 3)

    def in_frame(self, detections: Sequence[Detection], height: int, width: int) -> list[Detection]:
        """Detections of a straightened frame (of ``height`` x ``width``) as the frame itself shows them: each box
        the upright bounds of its tile turned back, its ``turn`` the table's (as :mod:`vision.read.views.turned_tiles`
        reports)."""
        if abs(self.turn) < self.min_turn:
            return list(detections)
        back = cv2.invertAffineTransform(self._squaring(height, width))
        out = []
        for d in detections:
            b = d.box.moved(back)
            box = Box(max(b.x1, 0.0), max(b.y1, 0.0), min(b.x2, float(width)), min(b.y2, float(height)))
            out.append(replace(d, box=box, turn=self.turn))
        return out

    def to_squared(self, boxes: Iterable[Box], height: int, width: int) -> tuple[Box, ...]:
        """Boxes of a frame of ``height`` x ``width`` as its straightened frame (:meth:`straightened`) shows them: the
        upright bounds of each turned, within the frame.

        >>> [b.as_list() for b in TableTurn(turn=90.0).to_squared([Box(0.0, 0.0, 20.0, 10.0)], 100, 100)]
        [[90.0, 0.0, 100.0, 20.0]]
        """
        if abs(self.turn) < self.min_turn:
            return tuple(boxes)
        squaring = self._squaring(height, width)
        out = []
        for b in boxes:
            m = b.moved(squaring)
            out.append(Box(max(m.x1, 0.0), max(m.y1, 0.0), min(m.x2, float(width)), min(m.y2, float(height))))
        return tuple(out)

    def read(self, image: np.ndarray, detect: Callable[[np.ndarray], Iterable[Detection]]) -> tuple[np.ndarray, list]:
        """``image`` read squared to the table by ``detect`` (an image in, detections out): (the straightened image,
        its detections). The turn left in that reading is measured (:meth:`update`); when it moved the table's
        turn, the image is straightened anew and read again."""
        straight = self.straightened(image)
        found = list(detect(straight))
        if self.update(found):
            straight = self.straightened(image)
            found = list(detect(straight))
        return straight, found

    def _squaring(self, height: int, width: int) -> np.ndarray:
        """The affine (2 x 3) that turns a frame back by the table's turn about its centre."""
        return cv2.getRotationMatrix2D((width / 2, height / 2), -self.turn, 1.0)

    def update(self, detections: Sequence[Detection]) -> bool:
        """Measure the turn left in a straightened frame from its ``detections`` (:func:`row_turn`); when it is
        ``min_turn`` or more, take it into the table's turn and say so (the frame is then worth reading again,
        straightened anew)."""
        left = row_turn(detections)
        if left is None or abs(left) < self.min_turn:
            return False
        self.turn = (self.turn + left + 45.0) % 90.0 - 45.0  # modulo a quarter turn, in [-45, 45)
        self.updates += 1
        return True
