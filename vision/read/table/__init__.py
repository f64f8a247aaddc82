"""Reading a whole table from above: each seat's hand, open melds and discard pond, and the dora indicators.

The camera does not know who is East, so seats are named by the frame edge they sit at (:class:`FrameSide`):
``BOTTOM`` (the camera's own side), then ``RIGHT``, ``TOP``, ``LEFT``, which is also the order of play (turns go
counter-clockwise seen from above). Every seat is read in its own frame: *along* runs left to right as that player
sees it (image x for the bottom seat, -x for the top seat, -y for the right seat, +y for the left seat) and
*depth* runs from the table centre out towards the player. In that frame all seats look alike:

- the rows farthest out are the hand: concealed tiles (standing, laid open or face down), the drawn tile set apart
  at their right (a small gap), then at its right end the open melds, groups of 3-4 whose called tile lies
  sideways (its box is wide where its neighbours are deep; an added kan's fourth tile lies sideways against it,
  towards the centre); closed kans show their end tiles face down (beside a standing hand, whose tiles show no
  boxes, they are the row: they lie beyond the walls, as hands do); fewer than three tiles are never a meld;
- rows of mostly face-down tiles inside that are the wall; face-up tiles among them are dora indicators (a dead
  wall's last stacks with their dora and ura indicators turned may be mostly face up: some face down, where walls
  lie); at a corner the next seat's wall ends in line with this seat's, its stacks turned (only face-up tiles lie
  across their seat's axis);
- the other rows, nearest the centre, are the discard pond, read row by row from the centre outwards, each row left
  to right; the riichi tile lies sideways.

``read_table(detections, size)`` gives a :class:`TableObservation` (an example in its docstring).

The package reads in steps, a module each: :mod:`~vision.read.table.observation` (what a table reads as),
:mod:`~vision.read.table.frame` (tiles and rows in a seat's frame), :mod:`~vision.read.table.kinds` (what kind a row
is), :mod:`~vision.read.table.centre` (the table's centre from the tiles alone), :mod:`~vision.read.table.seats`
(whose each tile is, each seat's rows), :mod:`~vision.read.table.hand` (a hand's concealed part, drawn tile and
melds), :mod:`~vision.read.table.naming` (each seat's rows named), :mod:`~vision.read.table.read` (the steps put
together). A camera's frames add two: :mod:`~vision.read.table.geometry` (the centre kept from frame to frame) and
:mod:`~vision.read.table.square` (a camera turned to the table).
"""

from vision.read.table.centre import estimate_centre, tiles_middle, within_tiles
from vision.read.table.observation import (
    TABLE_MIN_TILES,
    FrameSide,
    MeldObservation,
    SeatObservation,
    TableObservation,
)
from vision.read.table.read import read_table

__all__ = [
    "TABLE_MIN_TILES",
    "FrameSide",
    "MeldObservation",
    "SeatObservation",
    "TableObservation",
    "estimate_centre",
    "read_table",
    "tiles_middle",
    "within_tiles",
]
