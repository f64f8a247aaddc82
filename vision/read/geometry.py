"""Sizes and boxes in pixels: explicit (height, width), never a bare tuple whose order must be guessed.

>>> Size(height=3000, width=4000).aspect
1.3333333333333333
>>> Box(10.0, 20.0, 40.0, 60.0).width, Box(10.0, 20.0, 40.0, 60.0).height, Box(10.0, 20.0, 40.0, 60.0).center
(30.0, 40.0, (25.0, 40.0))
>>> Box(0, 0, 10, 10).iou(Box(5, 0, 15, 10))
0.3333333333333333
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Size:
    """An image size in pixels. Always built by keyword or from an array's ``shape[:2]`` (height first)."""

    height: int
    width: int

    def __post_init__(self) -> None:
        if self.height <= 0 or self.width <= 0:
            raise ValueError(f"a size needs positive height and width, got {self.height}x{self.width} (h x w)")

    @classmethod
    def of(cls, image) -> Size:
        """The size of an image array (``shape`` is height, width[, channels])."""
        return cls(height=int(image.shape[0]), width=int(image.shape[1]))

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.width / self.height

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box in pixels: left, top, right, bottom (x1 < x2, y1 < y2)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def width(self) -> float:
        return self.x2 - self.x1

    @property
    def height(self) -> float:
        return self.y2 - self.y1

    @property
    def area(self) -> float:
        return max(0.0, self.width) * max(0.0, self.height)

    @property
    def center(self) -> tuple[float, float]:
        """(x, y)."""
        return ((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """(x, y) of the four corners, clockwise from the top left (as an image shows it)."""
        return ((self.x1, self.y1), (self.x2, self.y1), (self.x2, self.y2), (self.x1, self.y2))

    def moved(self, affine) -> Box:
        """The upright bounds of this box's corners moved by a 2 x 3 affine (rows ``(a, b, c)``, ``(d, e, f)``:
        x' = a x + b y + c, y' = d x + e y + f), such as OpenCV's.

        >>> Box(0.0, 0.0, 2.0, 1.0).moved([[0.0, -1.0, 10.0], [1.0, 0.0, 0.0]])  # a quarter turn, moved right
        Box(x1=9.0, y1=0.0, x2=10.0, y2=2.0)
        """
        return self.projected([*affine, (0.0, 0.0, 1.0)])  # an affine is a homography that keeps w at 1

    def projected(self, homography) -> Box:
        """The upright bounds of this box's corners under a 3 x 3 homography (OpenCV's: x' = (a x + b y + c) / w,
        y' = (d x + e y + f) / w, w = g x + h y + i), such as a camera tilted away from the plane sees it.

        >>> Box(0.0, 0.0, 2.0, 1.0).projected([[2.0, 0.0, 1.0], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]])  # scaled, moved
        Box(x1=1.0, y1=0.0, x2=5.0, y2=2.0)
        """
        (a, b, c), (d, e, f), (g, h, i) = homography
        ws = [float(g * x + h * y + i) for x, y in self.corners]
        if min(ws) <= 0:
            raise ValueError("the homography sends a corner of the box to infinity or behind the camera")
        xs = [float(a * x + b * y + c) / w for (x, y), w in zip(self.corners, ws, strict=True)]
        ys = [float(d * x + e * y + f) / w for (x, y), w in zip(self.corners, ws, strict=True)]
        return Box(min(xs), min(ys), max(xs), max(ys))

    def intersection(self, other: Box) -> float:
        w = min(self.x2, other.x2) - max(self.x1, other.x1)
        h = min(self.y2, other.y2) - max(self.y1, other.y1)
        return max(0.0, w) * max(0.0, h)

    def share_inside(self, other: Box) -> float:
        """The share of this box's area that lies inside ``other`` (0 for a box of no area).

        >>> region = Box(5.0, 0.0, 20.0, 20.0)
        >>> Box(0.0, 0.0, 10.0, 10.0).share_inside(region), Box(6.0, 0.0, 6.0, 5.0).share_inside(region)
        (0.5, 0.0)
        """
        area = self.area
        return self.intersection(other) / area if area > 0 else 0.0

    def iou(self, other: Box) -> float:
        inter = self.intersection(other)
        union = self.area + other.area - inter
        return inter / union if union > 0 else 0.0

    def as_list(self, ndigits: int = 1) -> list[float]:
        return [round(v, ndigits) for v in (self.x1, self.y1, self.x2, self.y2)]


def linked_groups(n: int, linked: Callable[[int, int], bool]) -> list[list[int]]:
    """The items ``0..n-1`` grouped by the links ``linked(i, j)`` (asked for each pair, ``i < j``) and every chain of
    them: each group in increasing order, the groups in the order of their first items.

    >>> linked_groups(5, lambda i, j: j == i + 2)
    [[0, 2, 4], [1, 3]]
    """
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if linked(i, j):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
