"""How steadily a crop classifier names a tile when its box moves by a few per cent, as a new detector's boxes do.

    tally = name_changes(classifier, shots)          # shots: labelled images (camerash's hands, a real set)
    tally.as_json()   # {"tiles", "right", "unsteady", "changed", "readings", ...}

Each labelled box is read as labelled, then in :func:`moved` copies (shifted either way along each axis, and grown
or shrunk in width and in height, by ``share`` of its side). A reading is the tile the classifier names, or no tile
where it names none (its likeliest is "no tile", or under :data:`~vision.read.classifier.MIN_TILE_PROB`), as the
two-stage reader drops it. ``unsteady`` counts the tiles whose reading some moved copy changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vision.eval.phone_evaluation import Shot
from vision.read.classifier import MIN_TILE_PROB, OnnxTileClassifier, TileGuess
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES

#: How far each copy moves, as a share of the box's side.
MOVE_SHARE = 0.05
NO_TILE = "none"


def moved(box: Box, share: float = MOVE_SHARE) -> list[Box]:
    """Eight copies of ``box``: shifted right, left, down and up by ``share`` of its side, then wider, narrower,
    taller and shorter by ``share`` of it about its centre.

    >>> [(b.x1, b.y1, b.x2, b.y2) for b in moved(Box(0.0, 0.0, 100.0, 200.0), 0.1)][::3]
    [(10.0, 0.0, 110.0, 200.0), (0.0, -20.0, 100.0, 180.0), (0.0, -10.0, 100.0, 210.0)]
    """
    w, h = box.width * share, box.height * share
    shifts = [(w, 0.0), (-w, 0.0), (0.0, h), (0.0, -h)]
    out = [Box(box.x1 + dx, box.y1 + dy, box.x2 + dx, box.y2 + dy) for dx, dy in shifts]
    for gw, gh in ((w, 0.0), (-w, 0.0), (0.0, h), (0.0, -h)):
        out.append(Box(box.x1 - gw / 2, box.y1 - gh / 2, box.x2 + gw / 2, box.y2 + gh / 2))
    return out


def reading(guess: TileGuess) -> str:
    """The tile a guess names (mpsz or ``back``), or :data:`NO_TILE` where a two-stage reader would drop its box."""
    return guess.label if guess.names_a_tile(MIN_TILE_PROB) else NO_TILE


@dataclass
class MoveTally:
    tiles: int = 0
    #: Tiles read right from their labelled boxes.
    right: int = 0
    #: Tiles whose reading some moved copy of the box changes.
    unsteady: int = 0
    #: Moved copies read otherwise than the labelled box, of :attr:`readings`.
    changed: int = 0
    readings: int = 0

    def as_json(self) -> dict:
        return {
            "tiles": self.tiles,
            "right": self.right,
            "unsteady": self.unsteady,
            "unsteady_share": round(self.unsteady / self.tiles, 4) if self.tiles else None,
            "changed": self.changed,
            "readings": self.readings,
        }


def name_changes(
    classifier: OnnxTileClassifier, shots: Iterable[Shot], share: float = MOVE_SHARE, *, max_batch: int | None = None
) -> MoveTally:
    """Each labelled tile of ``shots`` read from its box and from its :func:`moved` copies (``share``), tallied."""
    tally = MoveTally()
    for shot in shots:
        boxes: Sequence[Box] = [box for _, box in shot.truth]
        if not boxes:
            continue
        base = [reading(g) for g in classifier.classify(shot.image, boxes, max_batch=max_batch)]
        flat = [copy for b in boxes for copy in moved(b, share)]
        read = [reading(g) for g in classifier.classify(shot.image, flat, max_batch=max_batch)]
        k = len(flat) // len(boxes)  # copies a box
        for i, (class_id, _) in enumerate(shot.truth):
            mine = read[i * k : (i + 1) * k]
            changes = sum(r != base[i] for r in mine)
            tally.tiles += 1
            tally.right += base[i] == CLASS_NAMES[class_id]
            tally.unsteady += changes > 0
            tally.changed += changes
            tally.readings += len(mine)
    return tally
