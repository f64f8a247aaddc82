"""Reading a whole table from above, seat by seat: see :mod:`vision.read.table.read`."""

from vision.read.table.read import (
    TABLE_MIN_TILES,
    MeldObservation,
    SeatObservation,
    TableObservation,
    ViewSide,
    estimate_centre,
    read_table,
    tiles_middle,
    within_tiles,
)

__all__ = [
    "TABLE_MIN_TILES",
    "MeldObservation",
    "SeatObservation",
    "TableObservation",
    "ViewSide",
    "estimate_centre",
    "read_table",
    "tiles_middle",
    "within_tiles",
]
