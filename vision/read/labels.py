"""The detector's classes: 34 kinds, the three red fives, and ``back`` (face down), in a fixed order.

This order is stored in the ONNX model's metadata and in the model card; never reorder it.
YOLO class ids are converted to and from engine tiles only here, and YOLO label files (``labels/<image>.txt``, one
``class cx cy w h`` line a box) are written and read only here (:class:`YoloBox`).

>>> len(CLASS_NAMES), CLASS_NAMES[0], CLASS_NAMES[33], CLASS_NAMES[34], CLASS_NAMES[37]
(38, '1m', '7z', '0m', 'back')
>>> tile_of_class(35), class_of_tile(Tile.parse("0p"))
(Tile.parse('0p'), 35)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.tiles import FIVE_KINDS, NUM_KINDS, Tile

CLASS_NAMES: tuple[str, ...] = (
    *(str(Tile(k)) for k in range(NUM_KINDS)),
    *(str(Tile(k, red=True)) for k in FIVE_KINDS),
    "back",
)
BACK_CLASS = 37
NUM_CLASSES = len(CLASS_NAMES)


def tile_of_class(class_id: int) -> Tile | None:
    """The tile a class id stands for; None for ``back``."""
    if class_id == BACK_CLASS:
        return None
    if not 0 <= class_id < NUM_CLASSES:
        raise ValueError(f"class id {class_id} is outside 0..{NUM_CLASSES - 1}")
    if class_id < NUM_KINDS:
        return Tile(class_id)
    return Tile(FIVE_KINDS[class_id - NUM_KINDS], red=True)


def class_of_tile(tile: Tile | None) -> int:
    """The class id of a tile; None is ``back``."""
    if tile is None:
        return BACK_CLASS
    if tile.red:
        return NUM_KINDS + FIVE_KINDS.index(tile.kind)
    return tile.kind


@dataclass(frozen=True, slots=True)
class YoloBox:
    """One line of a YOLO label file: a class id (ours, or a foreign set's before it is mapped) and a box as shares
    of the image's width and height (centre x, centre y, width, height).

    >>> box = YoloBox.parse("13 0.5 0.25 0.25 0.5")
    >>> box, box.xyxy(width=200, height=100)
    (YoloBox(class_id=13, cx=0.5, cy=0.25, w=0.25, h=0.5), (75.0, 0.0, 125.0, 50.0))
    >>> str(YoloBox.of_pixels(13, (75, 0, 125, 50), width=200, height=100))
    '13 0.500000 0.250000 0.250000 0.500000'
    """

    class_id: int
    cx: float
    cy: float
    w: float
    h: float

    @classmethod
    def parse(cls, line: str) -> YoloBox:
        """A label line ``class cx cy w h``; ValueError for any other."""
        parts = line.split()
        try:
            if len(parts) != 5:
                raise ValueError
            return cls(int(parts[0]), *(float(p) for p in parts[1:]))
        except ValueError:
            raise ValueError(f"a YOLO label line is 'class cx cy w h', not {line.strip()!r}") from None

    @classmethod
    def of_pixels(
        cls, class_id: int, xyxy: tuple[float, float, float, float], *, width: float, height: float
    ) -> YoloBox:
        """The label of a box given in pixels (x1, y1, x2, y2) of an image of this size."""
        x1, y1, x2, y2 = xyxy
        return cls(class_id, (x1 + x2) / 2 / width, (y1 + y2) / 2 / height, (x2 - x1) / width, (y2 - y1) / height)

    def xyxy(self, width: float, height: float) -> tuple[float, float, float, float]:
        """The box in pixels (x1, y1, x2, y2) of an image of this size."""
        return (
            (self.cx - self.w / 2) * width,
            (self.cy - self.h / 2) * height,
            (self.cx + self.w / 2) * width,
            (self.cy + self.h / 2) * height,
        )

    def __str__(self) -> str:
        return f"{self.class_id} {self.cx:.6f} {self.cy:.6f} {self.w:.6f} {self.h:.6f}"


def parse_labels(text: str) -> list[YoloBox]:
    """Every box of a label file's text (blank lines skipped; a bad line: ValueError naming it).

    >>> parse_labels("0 0.5 0.5 0.1 0.1\\n\\n37 0.2 0.2 0.1 0.1\\n")
    [YoloBox(class_id=0, cx=0.5, cy=0.5, w=0.1, h=0.1), YoloBox(class_id=37, cx=0.2, cy=0.2, w=0.1, h=0.1)]
    """
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(YoloBox.parse(line))
        except ValueError as exc:
            raise ValueError(f"label line {number}: {exc}") from None
    return out


def boxes_and_skipped(text: str) -> tuple[list[tuple[int, YoloBox]], int]:
    """Every box of a label file's text with its line's index (from 0, blank lines counted), and how many lines
    could not be read (skipped and counted, for data sets whose odd lines are counted rather than refused).

    >>> boxes, skipped = boxes_and_skipped("0 0.5 0.5 0.1 0.1\\n\\nbad\\n37 0.2 0.2 0.1 0.1\\n")
    >>> [(number, box.class_id) for number, box in boxes], skipped
    ([(0, 0), (3, 37)], 1)
    """
    boxes, skipped = [], 0
    for number, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        try:
            boxes.append((number, YoloBox.parse(line)))
        except ValueError:
            skipped += 1
    return boxes, skipped


def labels_text(boxes: Iterable[YoloBox]) -> str:
    """A label file's text: one line a box, each ended by a newline.

    >>> labels_text([YoloBox(0, 0.5, 0.5, 0.1, 0.1)])
    '0 0.500000 0.500000 0.100000 0.100000\\n'
    """
    return "".join(f"{box}\n" for box in boxes)
