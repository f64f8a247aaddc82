"""The camera loop's reading of whole tables with the camera turned to the table (``jantaku-lab eval camera``).

The demo recording's still tables (rendered, so their labels are exact) are each turned whole about the frame's
centre, as a camera mounted turned to the table sees them (the frame keeps its size; what the turn brings in from
beyond the recording is the mat's median colour), and read by the camera's reader
(:meth:`vision.read.pipeline.ReaderConfig.for_camera`) as it is and squared to the table, one reader (its table's
turn kept) for the frames of each turn, as the loop keeps it. The caller hands the frames and their labels in
(:class:`LabelledFrame`: ``device.lab.vision.labelled_stills`` for the demo recording). Tally per turn: the labelled
tiles read (as multisets of tiles per frame: a turned frame moves every box), the boxes more than those, and the tables
read seat by seat as their labels read (hand, melds, pond, riichi tile, dora indicators; the count of wall backs aside,
since doubled wall stacks are read apart even square). A camera turned by 45 degrees has no bottom seat: there,
the seats read a quarter turn round either way count as read.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from vision.read.detector import Detection, Detector, FakeDetector
from vision.read.pipeline import Reader, ReaderConfig, TableMode

#: Turns of the camera to the table, degrees counter-clockwise.
TURNS = (0.0, 10.0, 20.0, 30.0, 45.0)


def turned_frame(image: np.ndarray, degrees: float) -> np.ndarray:
    """``image`` turned ``degrees`` counter-clockwise about its centre, its size kept, the mat's median colour
    where the turn brings in what lay beyond it."""
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    mat = tuple(int(v) for v in np.median(image.reshape(-1, 3), axis=0))
    return cv2.warpAffine(image, turn, (w, h), flags=cv2.INTER_LINEAR, borderValue=mat)


def seats_read(table: Any) -> list[dict] | None:
    """A table observation's seats as compared here (each seat's JSON without its count of wall backs)."""
    if table is None:
        return None
    return [{k: v for k, v in seat.as_json().items() if k != "wall_backs"} for seat in table.seats]


def _renamed(seats: list[dict]) -> list[dict]:
    """Seats without the names of their sides (their own, and the side each meld was called from)."""
    out = []
    for seat in seats:
        melds = [{k: v for k, v in m.items() if k != "from"} for m in seat["melds"]]
        out.append({**{k: v for k, v in seat.items() if k != "side"}, "melds": melds})
    return out


def same_table(read: list[dict] | None, labelled: list[dict] | None, degrees: float) -> bool:
    """Whether a table's seats read as labelled; at 45 degrees (modulo a quarter turn) also a quarter turn round
    (each seat's tiles on the side next to its own, either way)."""
    if read == labelled:
        return True
    if read is None or labelled is None or abs(abs((degrees + 45.0) % 90.0 - 45.0) - 45.0) > 1e-9:
        return False
    got, want = _renamed(read), _renamed(labelled)
    return got in (want[1:] + want[:1], want[-1:] + want[:-1])


@dataclass
class CameraTally:
    """Per turn: labelled tiles, those read, boxes more than those, tables, tables read as labelled."""

    tiles: int = 0
    right: int = 0
    other: int = 0
    tables: int = 0
    tables_read: int = 0
    seconds: list[float] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "tiles": self.tiles,
            "right": self.right,
            "other_boxes": self.other,
            "tables": self.tables,
            "tables_read": self.tables_read,
            "median_s": round(float(np.median(self.seconds)), 2) if self.seconds else None,
        }


@dataclass(frozen=True, eq=False)
class LabelledFrame:
    """A frame of a table (BGR) and its labelled tiles, by name."""

    name: str
    image: np.ndarray
    labels: tuple[Detection, ...]


def evaluate(
    detector: Detector,
    frames: Sequence[LabelledFrame],
    turns: Iterable[float] = TURNS,
    *,
    squared: bool,
) -> dict[float, CameraTally]:
    """Each of ``turns``: every frame of ``frames`` turned so, read by ``detector`` as the camera's reader reads,
    squared to the table (one reader, its table's turn kept, across the frames of each turn) or as they are."""
    camera = replace(ReaderConfig.for_camera(), table_mode=TableMode.CAMERA if squared else TableMode.NONE)
    as_labelled = replace(ReaderConfig.for_camera(), table_mode=TableMode.NONE)
    truths = []
    for frame in frames:
        truth = Reader.around(FakeDetector(frame.labels), as_labelled).read(frame.image)
        truths.append((frame, Counter(d.tile for d in truth.detections), seats_read(truth.table)))
    out: dict[float, CameraTally] = {}
    for degrees in turns:
        reader = Reader.around(detector, camera)
        tally = out.setdefault(degrees, CameraTally())
        for frame, want, seats in truths:
            image = turned_frame(frame.image, degrees) if degrees else frame.image
            started = time.perf_counter()
            seen = reader.read(image)
            tally.seconds.append(time.perf_counter() - started)
            got = Counter(d.tile for d in seen.detections)
            right = sum(min(got[t], k) for t, k in want.items())
            tally.tiles += sum(want.values())
            tally.right += right
            tally.other += sum(got.values()) - right
            tally.tables += 1
            tally.tables_read += same_table(seats_read(seen.table), seats, degrees)
    return out
