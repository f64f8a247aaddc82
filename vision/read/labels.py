"""The detector's classes: 34 kinds, the three red fives, and ``back`` (face down), in a fixed order.

This order is stored in the ONNX model's metadata and in the model card; never reorder it.
YOLO class ids are converted to and from engine tiles only here.

>>> len(CLASS_NAMES), CLASS_NAMES[0], CLASS_NAMES[33], CLASS_NAMES[34], CLASS_NAMES[37]
(38, '1m', '7z', '0m', 'back')
>>> tile_of_class(35), class_of_tile(Tile.parse("0p"))
(Tile.parse('0p'), 35)
"""

from __future__ import annotations

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
