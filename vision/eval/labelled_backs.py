"""Backs read on alanchoi00's valid and test photos, labelled by eye as a tile or no tile: that set labels no backs,
so its own labels cannot judge them (``Shot.backs_judged``).

    labels = labelled_backs("alanchoi00-valid")    # {photo file name: (LabelledBack, ...)}; {} for other sets
    tally = BackTally()
    tally.count(labels.get(shot.kind, ()), detections)
    tally.as_json()                                # {"no_tile": 8, "no_tile_read": 3, "tiles": 133, "tiles_read": 133}

The boxes (``labelled_backs.json``) are the backs ``jantaku read`` read on those photos at
docs/experiments/2026-12-06-real-sets.md's session 59, each looked at in a crop: 158 are face-down tiles of walls, 11
are no tile (an automatic table's slots and the felt beside one, a dark box, a table's dark edge, dark trousers). A
reading still reads a labelled box when it reports any box, of any tile, over it at :data:`SAME_IOU` or more.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from vision.read.detector import Detection
from vision.read.geometry import Box

#: The labels, by set (``jantaku-lab eval real``'s names), photo file name and box.
LABELS = Path(__file__).with_name("labelled_backs.json")
#: A reported box over a labelled one by this IoU or more reads it.
SAME_IOU = 0.5


@dataclass(frozen=True)
class LabelledBack:
    """A box a back was read in, in the photo's pixels: a tile lying face down or not (``what`` it is then)."""

    box: Box
    tile: bool
    what: str = ""


@cache
def _all() -> dict[str, dict[str, tuple[LabelledBack, ...]]]:
    data = json.loads(LABELS.read_text(encoding="utf-8"))
    return {
        name: {
            photo: tuple(LabelledBack(Box(*b["box"]), bool(b["tile"]), b.get("what", "")) for b in backs)
            for photo, backs in photos.items()
        }
        for name, photos in data.items()
    }


def labelled_backs(name: str) -> dict[str, tuple[LabelledBack, ...]]:
    """The labelled backs of set ``name`` by photo file name ({} for a set with none)."""
    return _all().get(name, {})


@dataclass
class BackTally:
    """How many labelled backs, tiles and no tiles, a reader still reads."""

    no_tile: int = 0
    no_tile_read: int = 0
    tiles: int = 0
    tiles_read: int = 0

    def count(self, labels: Sequence[LabelledBack], detections: Iterable[Detection]) -> None:
        """One photo: its labelled backs, and the boxes a reader reported on it."""
        boxes = [d.box for d in detections]
        for label in labels:
            read = any(label.box.iou(b) >= SAME_IOU for b in boxes)
            if label.tile:
                self.tiles += 1
                self.tiles_read += read
            else:
                self.no_tile += 1
                self.no_tile_read += read

    def as_json(self) -> dict[str, int]:
        return asdict(self)
