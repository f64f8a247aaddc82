"""Whole-table observations for tests, built seat by seat from mpsz text as real ``Detection`` s in
``SeatObservation`` s: a ``^`` in a pond marks the tile after it as lying sideways; a meld is its tiles and the index of
its sideways tile (None for a closed kan, whose ends are then laid face down); a hand laid face up is its tiles, with
``+`` before the tile set apart. Used by the follower's tests and the camera game's.
"""

from __future__ import annotations

from engine.tiles import Tile, parse_tiles
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.labels import class_of_tile
from vision.read.table import FrameSide, MeldObservation, SeatObservation, TableObservation

B, R, T, L = FrameSide.BOTTOM, FrameSide.RIGHT, FrameSide.TOP, FrameSide.LEFT
W, H = 28.0, 38.0  # px: a tile lying upright; a sideways one is H along by W deep


def _row(tiles: list[Tile | None], sideways: int | None = None) -> tuple[Detection, ...]:
    out, x = [], 0.0
    for i, tile in enumerate(tiles):
        along, deep = (H, W) if i == sideways else (W, H)
        out.append(Detection.of_class(class_of_tile(tile), Box(x, 0.0, x + along, deep), 0.9))
        x += along + 1.0
    return tuple(out)


#: A meld's "sideways tile" for a misread one: every tile face up, none sideways.
NONE_SIDEWAYS = -1


def _meld(side: FrameSide, text: str, called: int | None) -> MeldObservation:
    if set(text) == {"?"}:  # tiles face down only ("???"), none sideways
        return MeldObservation(_row([None] * len(text)), None, side)
    tiles: list[Tile | None] = list(parse_tiles(text))
    if called == NONE_SIDEWAYS:
        return MeldObservation(_row(tiles), None, side)
    if called is None:  # a closed kan: the two middle tiles shown, the ends face down
        tiles = [None, *tiles[:2], None]
    return MeldObservation(_row(tiles, called), called, side)


def table(
    ponds: dict[FrameSide, str] | None = None,
    melds: dict[FrameSide, tuple[tuple[str, int | None], ...]] | None = None,
    dora: str = "",
    hands: dict[FrameSide, str] | None = None,
) -> TableObservation:
    """A table read: each side's pond (``^`` before the sideways tile), melds, the dora indicators (face up in
    the left seat's wall among face-down stacks), and hands laid face up (``+`` before the tile set apart)."""
    ponds, melds, hands = ponds or {}, melds or {}, hands or {}
    seats = []
    for side in FrameSide:
        before, _, after = ponds.get(side, "").partition("^")
        tiles = list(parse_tiles(before + after))
        riichi = len(parse_tiles(before)) if "^" in ponds.get(side, "") else None
        wall = _row([None, None, *parse_tiles(dora), None]) if side is L else ()
        shown, _, apart = hands.get(side, "").partition("+")
        seats.append(
            SeatObservation(
                side,
                hand=_row(list(parse_tiles(shown))),
                drawn=_row(list(parse_tiles(apart)))[0] if apart else None,
                pond=_row(tiles, riichi),
                riichi=riichi,
                melds=tuple(_meld(side, text, called) for text, called in melds.get(side, ())),
                wall=wall,
            )
        )
    return TableObservation(tuple(seats), (400.0, 300.0))
