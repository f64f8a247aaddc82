"""The table reader: a whole table from above, grouped by seat (named by frame edge) and zone.

Tables are built in each seat's own frame (along: left to right as its player sees it; depth: from the centre out)
and placed in a 1600 x 900 frame, turned by whole quarter turns, with seats left out; the reader must give every
tile back to the seat and zone it was laid in, in that player's reading order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from engine.tiles import Tile, format_tiles, parse_tiles
from vision.read.detector import Detection
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, class_of_tile
from vision.read.rows import count_backs
from vision.read.table import FrameSide, estimate_centre, read_table

FRAME = Size(height=900, width=1600)
CENTRE = (790.0, 455.0)  # off the frame's middle: the reader must find it
W, H, STAND = 26.0, 34.0, 22.0  # px: a tile lying upright is W along by H deep; a standing one seen from above
STEP = W + 1.0
HAND_DEPTH, WALL_DEPTH, POND_DEPTH = 300.0, 190.0, 90.0


def _box(side: FrameSide, centre: tuple[float, float], a0: float, a1: float, d0: float, d1: float) -> Box:
    """The image box of a span in ``side``'s frame (the inverse of the reader's own transform)."""
    cx, cy = centre
    if side is FrameSide.BOTTOM:
        return Box(cx + a0, cy + d0, cx + a1, cy + d1)
    if side is FrameSide.RIGHT:
        return Box(cx + d0, cy - a1, cx + d1, cy - a0)
    if side is FrameSide.TOP:
        return Box(cx - a1, cy - d1, cx - a0, cy - d0)
    return Box(cx - d1, cy + a0, cx - d0, cy + a1)


def _det(tile: Tile | None, box: Box) -> Detection:
    return Detection.of_class(class_of_tile(tile), box, 0.9)


@dataclass(frozen=True)
class Seat:
    """One seat's tiles as laid. ``hand``: mpsz laid face up, or a number of tiles standing (seen from behind).
    ``melds``: (mpsz, index of the sideways tile; None for a closed kan, its ends face down).
    ``wall``: stacks in front of the seat (top tier seen), with face-up ``indicators`` from its third stack left
    (``indicators_from``: that many stacks past the drawn ones).
    ``drawn``: a tile set apart ``drawn_gap`` px right of the hand, before the melds. ``wall_drawn``: stacks gone
    from the wall's left end (as its player sees it), drawn; ``wall_drawn_right``: from its right end."""

    hand: str | int = 13
    melds: tuple[tuple[str, int | None], ...] = ()
    pond: str = ""
    riichi: int | None = None
    wall: int = 0
    indicators: str = ""
    indicators_from: int = 2
    hand_start: float = -180.0
    hand_gap: float = 30.0  # px between the hand and its melds
    meld_gap: float = 8.0  # px between melds
    drawn: str = ""
    drawn_gap: float = 10.0
    wall_drawn: int = 0
    wall_drawn_right: int = 0
    wall_shift: float = 0.0  # px along: walls laid as a pinwheel, each end past its neighbour's outer face
    pond_depth: float = POND_DEPTH
    hand_depth: float = HAND_DEPTH


def lay(seats: dict[FrameSide, Seat], turns: int = 0, centre=CENTRE) -> list[Detection]:
    """Detections of a table: each seat's spec laid at its side turned ``turns`` quarter turns counter-clockwise."""
    out: list[Detection] = []
    for side, seat in seats.items():
        at = list(FrameSide)[(side.turns + turns) % 4]

        def put(tile: Tile | None, a0: float, along: float, d1: float, deep: float, at=at) -> None:
            out.append(_det(tile, _box(at, centre, a0, a0 + along, d1 - deep, d1)))

        outer = seat.hand_depth + H
        a = seat.hand_start
        if isinstance(seat.hand, int):
            for _ in range(seat.hand):
                put(None, a, W, seat.hand_depth + STAND, STAND)
                a += STEP
        else:
            for t in parse_tiles(seat.hand):
                put(t, a, W, outer, H)
                a += STEP
        for t in parse_tiles(seat.drawn):
            a += seat.drawn_gap - 1
            put(t, a, W, outer, H)
            a += STEP
        a += seat.hand_gap - 1
        for text, called in seat.melds:
            tiles = parse_tiles(text)
            for i, t in enumerate(tiles):
                if i == called:
                    put(t, a, H, outer, W)  # sideways, against the table's edge
                    a += H + 1
                else:
                    face_down = called is None and i in (0, len(tiles) - 1)
                    put(None if face_down else t, a, W, outer, H)
                    a += STEP
            a += seat.meld_gap - 1
        for i, t in enumerate(parse_tiles(seat.pond)):
            row, col = divmod(i, 6)
            if row > 2:
                row, col = 2, i - 12
            if col == 0:
                a = -3 * STEP
            d1 = seat.pond_depth + row * (H + 1) + H
            if i == seat.riichi:
                put(t, a, H, d1 - (H - W) / 2, W)
                a += H + 1
            else:
                put(t, a, W, d1, H)
                a += STEP
        shown = list(parse_tiles(seat.indicators))
        for k in range(seat.wall_drawn, seat.wall - seat.wall_drawn_right):
            tile = shown.pop(0) if k >= seat.wall_drawn + seat.indicators_from and shown else None
            put(tile, seat.wall_shift - seat.wall * STEP / 2 + k * STEP, W, WALL_DEPTH + H, H)
    return out


FULL = {
    FrameSide.BOTTOM: Seat(
        hand="1234m567p11z", hand_start=-200, melds=(("999s", 1),), pond="19m2z8p7z3s4s", riichi=4, wall=14
    ),
    FrameSide.RIGHT: Seat(
        hand=7, melds=(("345p", 0), ("666z", 2)), pond="1z2z3z4z5z6z7z1m9m1p9p1s9s", wall=12, hand_start=-175
    ),
    FrameSide.TOP: Seat(hand="234s567s", melds=(("5505m", 1), ("2222p", None)), pond="3m4m", wall=13, hand_start=-190),
    FrameSide.LEFT: Seat(hand=13, pond="5s6s7s8s9s1m2m", riichi=6, wall=15, indicators="3p"),
}


def _shown(meld: str, called: int | None) -> str:
    """The face-up tiles of a meld: all, or a closed kan's middle two."""
    tiles = parse_tiles(meld)
    return format_tiles(t for i, t in enumerate(tiles) if called is not None or 0 < i < len(tiles) - 1)


def expected(seat: Seat) -> dict:
    """What the reader should give for a seat spec (independent of the reader: from the spec)."""
    return {
        "hand": "" if isinstance(seat.hand, int) else format_tiles(parse_tiles(seat.hand)),
        "hand_backs": seat.hand if isinstance(seat.hand, int) else 0,
        "drawn": format_tiles(parse_tiles(seat.drawn)),
        "melds": [_shown(m, c) for m, c in seat.melds],
        "called": [c for _m, c in seat.melds],
        "pond": format_tiles(parse_tiles(seat.pond)),
        "riichi": seat.riichi,
        "wall_backs": seat.wall - seat.wall_drawn - seat.wall_drawn_right - len(parse_tiles(seat.indicators)),
        "indicators": seat.indicators,
    }


def observed(obs, side: FrameSide) -> dict:
    s = obs.seat(side)
    return {
        "hand": s.hand_text,
        "hand_backs": s.hand_backs,
        "drawn": "" if s.drawn_tile is None else format_tiles([s.drawn_tile]),
        "melds": [m.text for m in s.melds],
        "called": [m.called for m in s.melds],
        "pond": s.pond_text,
        "riichi": s.riichi,
        "wall_backs": s.wall_backs,
        "indicators": format_tiles(s.indicators),
    }


@pytest.mark.parametrize(
    ("turns", "missing"),
    [
        (0, ()),  # as laid: bottom is the camera's side
        (1, ()),  # the table turned a quarter: the bottom seat's tiles now lie at the right edge
        (2, ()),
        (3, ()),
        (0, (FrameSide.TOP,)),  # three players (or one out of view)
        (1, (FrameSide.BOTTOM,)),
        (0, (FrameSide.LEFT, FrameSide.RIGHT)),
    ],
)
def test_full_table_by_seat_and_zone(turns, missing):
    seats = {side: seat for side, seat in FULL.items() if side not in missing}
    obs = read_table(lay(seats, turns), FRAME)
    for side in FrameSide:
        at = list(FrameSide)[(side.turns + turns) % 4]
        if side in missing:
            assert not obs.seat(at).present, at
            continue
        assert observed(obs, at) == expected(FULL[side]), (side, at)
    assert obs.unassigned == ()
    # with a seat missing, the centre along that axis comes from the hands beside it, whose melds shift them
    slack = W if missing else 0.5 * W
    assert abs(obs.centre[0] - CENTRE[0]) < slack and abs(obs.centre[1] - CENTRE[1]) < slack


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_dora_indicators_and_the_dead_wall(turns):
    obs = read_table(lay(FULL, turns), FRAME)
    assert format_tiles(obs.dora_indicators) == "3p"
    assert obs.dead_wall is list(FrameSide)[(FrameSide.LEFT.turns + turns) % 4]


@pytest.mark.parametrize(
    ("side", "meld", "called_from"),
    [
        (FrameSide.RIGHT, 0, FrameSide.BOTTOM),  # leftmost sideways: from the kamicha (bottom plays before right)
        (FrameSide.RIGHT, 1, FrameSide.TOP),  # rightmost: from the shimocha
        (FrameSide.TOP, 0, FrameSide.BOTTOM),  # in between: from across
        (FrameSide.TOP, 1, None),  # closed kan
        (FrameSide.BOTTOM, 0, FrameSide.TOP),
    ],
)
def test_called_from(side, meld, called_from):
    obs = read_table(lay(FULL), FRAME)
    assert obs.seat(side).melds[meld].called_from is called_from


@pytest.mark.parametrize(
    ("side", "key"),
    [
        # the top player's tiles are upside down to the camera: its reading order runs right to left in x
        (FrameSide.TOP, lambda d: -d.box.center[0]),
        (FrameSide.BOTTOM, lambda d: d.box.center[0]),
        (FrameSide.RIGHT, lambda d: -d.box.center[1]),  # the right player's left hand end is at the frame's bottom
        (FrameSide.LEFT, lambda d: d.box.center[1]),
    ],
)
def test_reading_order_follows_each_player(side, key):
    hands = {s: Seat(hand="123456789m1234z", melds=()) for s in FrameSide}
    obs = read_table(lay(hands), FRAME)
    seat = obs.seat(side)
    assert seat.hand_text == "123456789m1234z"
    assert list(seat.hand) == sorted(seat.hand, key=key)


@pytest.mark.parametrize(
    "seat",
    [
        # melds laid against the hand: the sideways tile shows where they begin
        Seat(hand="123m456p77z", hand_gap=1, melds=(("555z", 2),)),
        Seat(hand="123m456p77z", hand_gap=1, melds=(("789s", 0),)),
        Seat(hand="123m456p77z", hand_gap=1, melds=(("3333s", 1),)),
        # melds laid touching: cut into the pieces that each look like one meld
        Seat(hand="1234m77z", meld_gap=1, melds=(("111z", 1), ("4444p", 3))),
        Seat(hand="1234m77z", meld_gap=1, melds=(("4444p", 3), ("111z", 1))),
        Seat(hand="1234m77z", meld_gap=1, melds=(("2222p", None), ("312s", 0))),
        Seat(hand="77z", meld_gap=1, melds=(("666m", 1), ("1111p", 0), ("678s", 0), ("5505s", 2))),
    ],
)
def test_melds_without_clear_gaps(seat):
    obs = read_table(lay({FrameSide.BOTTOM: seat, FrameSide.TOP: FULL[FrameSide.TOP]}), FRAME)
    assert observed(obs, FrameSide.BOTTOM) == expected(seat)


@pytest.mark.parametrize(
    "seat",
    [
        Seat(hand="234567m345p678s5p", drawn="0p"),  # a tsumo shown: the winning tile set apart
        Seat(hand="234567m345p678s5p", drawn="0p", drawn_gap=6),  # a small gap is enough
        Seat(hand="123m456p77z", drawn="7z", melds=(("555z", 2),)),  # between the hand and its melds
        Seat(hand="1m", drawn="1m", melds=(("666m", 1), ("1111p", 0), ("678s", 0), ("555z", 2))),
        Seat(hand="234567m345p678s5p", drawn="", melds=(("555z", 2),)),  # none: hand tiles touch
    ],
)
def test_the_drawn_tile_set_apart(seat):
    obs = read_table(lay({FrameSide.BOTTOM: seat, FrameSide.TOP: FULL[FrameSide.TOP]}), FRAME)
    assert observed(obs, FrameSide.BOTTOM) == expected(seat)
    assert obs.unassigned == ()


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
@pytest.mark.parametrize(
    ("hand", "pair"),
    [
        ("2340556668899p", 11),  # a ron's hand laid down, its last two 9p boxed once (as long as a tile across)
        ("1122m345p678s55z", 0),  # the first two
        ("1122m345p678s55z", 2),
    ],
)
def test_two_alike_tiles_boxed_once_are_two_tiles(turns, hand, pair):
    seat = Seat(hand=hand, drawn="9p")
    laid = lay({FrameSide.BOTTOM: seat, FrameSide.TOP: FULL[FrameSide.TOP]}, turns)
    a, b = laid[pair], laid[pair + 1]
    both = Box(min(a.box.x1, b.box.x1), min(a.box.y1, b.box.y1), max(a.box.x2, b.box.x2), max(a.box.y2, b.box.y2))
    merged = [*laid[:pair], replace(a, box=both), *laid[pair + 2 :]]
    obs = read_table(merged, FRAME)
    assert observed(obs, list(FrameSide)[turns]) == expected(seat)
    assert obs.unassigned == ()


@pytest.mark.parametrize(
    ("extra", "drawn", "unassigned"),
    [
        # a face-down tile lying across beside the drawn tile (a neighbour's wall end, along that seat's axis: read
        # as that wall's last stack): no meld of two
        ([("0p", 0.0, W, H), (None, STEP - 2, H, W)], "0p", []),
        # two tiles set apart, one sideways: too few for a meld, two for a drawn tile
        ([("1s", 0.0, W, H), ("2s", STEP, H, W)], "", ["1s", "2s"]),
        # a lone tile lying across set apart: the drawn tile
        ([("6z", 0.0, H, W)], "6z", []),
    ],
)
def test_no_meld_of_fewer_than_three(extra, drawn, unassigned):
    """Tiles right of the bottom hand (``extra``: tile, along from 10 px past the hand, along, deep)."""
    seat = Seat(hand="234567m345p678s")
    dets = lay({FrameSide.BOTTOM: seat, FrameSide.TOP: FULL[FrameSide.TOP]})
    start = seat.hand_start + 12 * STEP + 10.0
    outer = HAND_DEPTH + H
    for text, a0, along, deep in extra:
        tile = None if text is None else Tile.parse(text)
        dets.append(_det(tile, _box(FrameSide.BOTTOM, CENTRE, start + a0, start + a0 + along, outer - deep, outer)))
    obs = read_table(dets, FRAME)
    bottom = obs.seat(FrameSide.BOTTOM)
    assert bottom.hand_text == "234567m345p678s" and bottom.melds == ()
    assert ("" if bottom.drawn_tile is None else format_tiles([bottom.drawn_tile])) == drawn
    assert [d.label for d in obs.unassigned] == unassigned


WALLS = {  # before the first discard: hands standing, seen edge on (no boxes), one wall out of view or taken
    FrameSide.BOTTOM: Seat(hand=0, wall=15),
    FrameSide.RIGHT: Seat(hand=0, wall=15, wall_drawn=6),  # drawn from: its middle lies three stacks off the axis
    FrameSide.LEFT: Seat(hand=0, wall=15, indicators="4p"),
}


@pytest.mark.parametrize(
    ("turns", "seats"),
    [
        (0, WALLS),
        (1, WALLS),
        (2, WALLS),
        (3, WALLS),
        (0, {**WALLS, FrameSide.LEFT: Seat(hand=0, wall=15, wall_drawn=8, indicators="4p")}),
        (1, {**WALLS, FrameSide.BOTTOM: Seat(hand=0, wall=12, wall_drawn=4)}),
        (0, {**WALLS, FrameSide.TOP: Seat(hand=0, wall=15, wall_drawn=10)}),  # five stacks across
    ],
)
def test_walls_only(turns, seats):
    """Only walls in view, some shrunk from one end: the centre lies as far in from a lone wall as the walls beside
    it lie from their middle (their own middles are off the table's axis)."""
    obs = read_table(lay(seats, turns), FRAME)
    for side in FrameSide:
        at = list(FrameSide)[(side.turns + turns) % 4]
        if side not in seats:
            assert not obs.seat(at).present, at
            continue
        assert observed(obs, at) == expected(seats[side]), (side, at)
    assert obs.unassigned == ()
    assert abs(obs.centre[0] - CENTRE[0]) < 0.5 * W and abs(obs.centre[1] - CENTRE[1]) < 0.5 * W


def assert_read_as_laid(obs, seats: dict[FrameSide, Seat], turns: int) -> None:
    """Every seat of a table laid by :func:`lay` (all four present) reads back as its spec."""
    for side in FrameSide:
        at = list(FrameSide)[(side.turns + turns) % 4]
        assert observed(obs, at) == expected(seats[side]), (side, at)


def _late(kan: str = "9999s", indicators: str = "9m4s3z") -> dict[FrameSide, Seat]:
    """Late in a hand, hands standing unseen: the bottom seat's closed kan lies where its hand stands (face down at
    both ends, like a wall's stacks), the top seat's pond has filled its third row towards its dead wall (five stacks,
    kan dora turned) and its pon lies beyond, and the one live wall left is down to three stacks."""
    late = {"hand": 0, "pond_depth": 80.0, "hand_depth": 260.0}
    return {
        FrameSide.BOTTOM: Seat(melds=((kan, None),), pond="3z2z6z3s4p7s1z2p1m1m5p4z6z", **late),
        FrameSide.RIGHT: Seat(pond="2p3p9p9p6z1p3s2s7s3z5p1m1m", **late),
        FrameSide.TOP: Seat(
            melds=(("777z", 1),), pond="9m2m1p5z6z1s6p4z4z1z2z1s0p7s2s1s4s2z", wall=5, indicators=indicators, **late
        ),
        FrameSide.LEFT: Seat(pond="3z1p2p3p4z6p3s5z3s4p5z4s7s", wall=3, **late),
    }


@pytest.mark.parametrize(
    ("turns", "seats"), [(0, _late()), (1, _late()), (2, _late()), (3, _late()), (0, _late(indicators="9m"))]
)
def test_a_closed_kan_is_no_wall_to_measure_the_dead_wall_by(turns, seats):
    """A closed kan lies face down at both ends like a wall's stacks, but where hands lie: taken for the nearest
    wall, it put the dead wall inside the walls' square, read into the top seat's pond (mjx_2017031200 E3-2)."""
    obs = read_table(lay(seats, turns), FRAME)
    assert_read_as_laid(obs, seats, turns)
    assert obs.dead_wall is list(FrameSide)[(FrameSide.TOP.turns + turns) % 4]


@pytest.mark.parametrize(
    ("turns", "top", "left"),
    [(turns, (16, "6z"), (7, "34p6m8s")) for turns in range(4)]
    + [(turns, (13, "6z34p6m"), (10, "8s")) for turns in (0, 3)],
)
def test_a_dead_wall_s_indicators_alone_across_a_corner(turns, top, left):
    """Four kans drew the two stacks beyond the first dora indicator: where the dead wall crosses a corner, the
    indicators on the far side lie alone, face up, in the next seat's wall line (mjx_2016052515 E1-2, and
    mjx_upd-aft-kan4 with the wall broken elsewhere); they are no discards. ``top``, ``left``: the stacks drawn
    from the top wall's left end and the left wall's right end, and the indicators left in each."""
    seats = _late()
    corner = {"wall": 17, "wall_shift": -STEP, "indicators_from": 0}
    seats[FrameSide.TOP] = replace(seats[FrameSide.TOP], wall_drawn=top[0], indicators=top[1], **corner)
    seats[FrameSide.LEFT] = replace(seats[FrameSide.LEFT], wall_drawn_right=left[0], indicators=left[1], **corner)
    obs = read_table(lay(seats, turns), FRAME)
    assert_read_as_laid(obs, seats, turns)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_face_up_tile_alone_at_a_wall_s_depth_off_the_corner_is_no_indicator(turns):
    """A face-up tile alone as far out as the walls but by its seat's axis (a discard read about a centre a tile off)
    is no dead wall's indicator across a corner: those lie at the wall's end."""
    seats = _late()
    alone = {"wall": 1, "indicators": "7m", "indicators_from": 0, "melds": (("222p", 1),)}
    seats[FrameSide.LEFT] = replace(seats[FrameSide.LEFT], **alone)
    seats[FrameSide.RIGHT] = replace(seats[FrameSide.RIGHT], wall=4)
    obs = read_table(lay(seats, turns), FRAME)
    assert format_tiles(obs.dora_indicators) == "9m4s3z"


def _still(right_left: int = 5, top: str = "4z8m2p", pond_depth: float = 70.0) -> dict[FrameSide, Seat]:
    """Mid-hand, hands standing (no boxes), walls of 17 laid as a pinwheel: the top wall drawn away, the right
    one down to ``right_left`` stacks at its left end, past the bottom wall's outer face (near the diagonal)."""
    wall = {"wall": 17, "wall_shift": -STEP, "pond_depth": pond_depth}
    return {
        FrameSide.BOTTOM: Seat(hand=0, pond="1z9m2z", riichi=2, **wall),
        FrameSide.RIGHT: Seat(hand=0, pond="9p1s7z", wall_drawn_right=17 - right_left, **wall),
        FrameSide.TOP: Seat(hand=0, pond=top, pond_depth=pond_depth),
        FrameSide.LEFT: Seat(hand=0, pond="6z9s3m", indicators="4p", **wall),
    }


@pytest.mark.parametrize(
    ("turns", "seats"),
    [
        (0, _still()),
        (1, _still()),
        (2, _still()),
        (3, _still()),
        (0, _still(right_left=4)),
        (1, _still(right_left=6)),
        (2, _still(top="4z8m")),
        (3, _still(pond_depth=60.0)),
    ],
)
def test_a_wall_drawn_down_to_the_corner(turns, seats):
    """A wall drawn down to a few stacks by the corner lies near the diagonal, like a neighbour's row end: its seat
    still counts across the table (the demo's frames 020-024 put the centre 5 tiles off), and a pond where the
    wall is gone, inside the walls' square, is no hand. Stacks past a neighbour's outer face may count with its
    wall (the pinwheel's corners), so walls are checked in all."""
    obs = read_table(lay(seats, turns), FRAME)
    assert abs(obs.centre[0] - CENTRE[0]) < 0.5 * W and abs(obs.centre[1] - CENTRE[1]) < 0.5 * W
    for side in FrameSide:
        at = list(FrameSide)[(side.turns + turns) % 4]
        got, want = observed(obs, at), expected(seats[side])
        assert {**got, "wall_backs": 0} == {**want, "wall_backs": 0}, (side, at)
    assert sum(s.wall_backs for s in obs.seats) + count_backs(obs.unassigned) == sum(
        expected(seat)["wall_backs"] for seat in seats.values()
    )


@pytest.mark.parametrize("turns", range(4))
@pytest.mark.parametrize("kept", [(0, 2, 4, 6, 8), (0, 3, 5, 8), (0, 1, 4, 5, 8)])
def test_a_wall_read_with_stacks_missing_does_not_stretch_the_table(turns, kept):
    """Walls only, one out of view, and the wall beside it read with stacks missing (unread, or outside the row
    found): the gaps over missing stacks are no stack pitch, so the table's depth is not taken for longer than its
    width and the centre stays in the walls' square (a filmed game's hand lost its seats so)."""
    seats = {
        FrameSide.TOP: Seat(hand=0, wall=15),
        **{s: Seat(hand=0, wall=9) for s in (FrameSide.LEFT, FrameSide.RIGHT)},
    }
    right = list(FrameSide)[(FrameSide.RIGHT.turns + turns) % 4]
    laid = lay(seats, turns)
    right_wall = [d for d in laid if _side_of(d, right)]
    dropped = {id(d) for k, d in enumerate(sorted(right_wall, key=lambda d: _along(d, right))) if k not in kept}
    cx, cy = estimate_centre([d for d in laid if id(d) not in dropped])
    assert abs(cx - CENTRE[0]) < 0.5 * W and abs(cy - CENTRE[1]) < 0.5 * W


def _side_of(d: Detection, side: FrameSide) -> bool:
    """Whether ``d`` lies beyond the walls' depth on ``side`` of :data:`CENTRE`."""
    x, y = d.box.center
    depth = {FrameSide.BOTTOM: y - CENTRE[1], FrameSide.RIGHT: x - CENTRE[0], FrameSide.TOP: CENTRE[1] - y,
             FrameSide.LEFT: CENTRE[0] - x}[side]  # fmt: skip
    return depth > WALL_DEPTH


def _along(d: Detection, side: FrameSide) -> float:
    return d.box.center[0 if side in (FrameSide.BOTTOM, FrameSide.TOP) else 1]


def test_centre_is_estimated_without_a_seat():
    seats = {side: seat for side, seat in FULL.items() if side is not FrameSide.TOP}
    cx, cy = estimate_centre(lay(seats, centre=(700.0, 500.0)))
    assert abs(cx - 700) < W and abs(cy - 500) < W


@pytest.mark.parametrize(
    ("extra", "unassigned"),
    [
        ([_det(Tile.parse("5z"), Box(100.0, 880.0, 126.0, 899.0))], ["5z"]),  # beyond the bottom hand
        ([_det(Tile.parse("1m"), Box(300.0, 300.0, 300.0, 330.0))], ["1m"]),  # a box with no width
    ],
)
def test_what_fits_nowhere_is_unassigned(extra, unassigned):
    obs = read_table(lay(FULL) + extra, FRAME)
    assert [d.label for d in obs.unassigned] == unassigned
    assert observed(obs, FrameSide.BOTTOM) == expected(FULL[FrameSide.BOTTOM])


@pytest.mark.parametrize(
    ("extra", "not_tiles"),
    [
        # things on the table a detector boxed, far from a tile's size: no tile, and the table reads as it lay
        ([_det(Tile.parse("4p"), Box(1450.0, 60.0, 1466.0, 76.0))], ["4p"]),  # a die, half a tile long
        ([_det(Tile.parse("3m"), Box(1380.0, 300.0, 1480.0, 400.0))], ["3m"]),  # a sheet of paper three tiles long
        ([_det(None, Box(60.0, 300.0, 100.0, 380.0))], ["back"]),  # a phone lying face down, read as a back
        ([_det(Tile.parse("1s"), Box(1200.0, 700.0, 1290.0, 712.0))], ["1s"]),  # a point stick
        # sized as tiles are: kept
        ([_det(None, Box(100.0, 100.0, 108.0, 130.0))], []),  # a tile standing, its top edge: narrow, a tile long
        ([_det(Tile.parse("2s"), Box(0.0, 400.0, 16.0, 430.0))], []),  # a tile the frame's edge cuts
        ([_det(None, Box(1450.0, 60.0, 1466.0, 76.0))], []),  # a small back: face down, never judged too small
        ([_det(Tile.parse("9p"), Box(1450.0, 60.0, 1480.0, 90.0))], []),  # a chip as large as a tile: size can't tell
    ],
)
def test_boxes_sized_unlike_the_tiles_are_no_tiles(extra, not_tiles):
    obs = read_table(lay(FULL) + extra, FRAME)
    assert [d.label for d in obs.not_tiles] == not_tiles
    for side in FrameSide:
        assert observed(obs, side) == expected(FULL[side]), side
    assert len(obs.unassigned) == len(extra) - len(not_tiles)  # the rest lie beyond the hands: they fit nowhere


def _row_past_the_hands(side: FrameSide, text: str, depth: float, a0: float = -40.0) -> list[Detection]:
    """Things on the table read as a row of tiles (mpsz; ``x`` a back), lying ``depth`` px out in ``side``'s frame:
    chips, a card, a die as large as a tile."""
    out, a = [], a0
    for t in text.split():
        out.append(_det(None if t == "x" else Tile.parse(t), _box(side, CENTRE, a, a + W, depth, depth + H)))
        a += STEP
    return out


@pytest.mark.parametrize(
    ("side", "things", "depth", "seat"),
    [
        # a standing hand (its top edges boxed as backs), things past it read as tiles
        (FrameSide.LEFT, "3s 3s", 400.0, FULL[FrameSide.LEFT]),
        (FrameSide.LEFT, "4p", 420.0, FULL[FrameSide.LEFT]),
        (FrameSide.RIGHT, "4p 5z", 400.0, FULL[FrameSide.RIGHT]),  # the hand and its melds kept
        # a hand laid face up with melds; chips past it read as three backs in a row, a wall's stacks to a detector
        (FrameSide.TOP, "x x x", 400.0, FULL[FrameSide.TOP]),
        (FrameSide.TOP, "8s 8s", 380.0, FULL[FrameSide.TOP]),
        # a hand standing unseen (nothing boxed): the things may be read as its hand, never as its pond
        (FrameSide.LEFT, "3s 3s", 400.0, replace(FULL[FrameSide.LEFT], hand=0)),
    ],
)
def test_things_past_the_hands_are_no_pond_and_no_hand(side, things, depth, seat):
    laid = {**FULL, side: seat}
    extra = _row_past_the_hands(side, things, depth)
    obs = read_table(lay(laid) + extra, FRAME)
    for other in FrameSide:
        if other is not side:
            assert observed(obs, other) == expected(laid[other]), other
    got, want = observed(obs, side), expected(seat)
    if seat.hand == 0:
        got = {k: v for k, v in got.items() if k not in ("hand", "hand_backs")}
        want = {k: v for k, v in want.items() if k not in ("hand", "hand_backs")}
    assert got == want


@pytest.mark.parametrize(
    "detections",
    [
        [],
        [_det(Tile.parse("1m"), Box(10.0, 10.0, 36.0, 44.0))],
        [_det(None, Box(10.0, 10.0, 36.0, 44.0)), _det(None, Box(10.0, 10.0, 36.0, 44.0))],  # one box twice
        [_det(Tile.parse("1m"), Box(5.0, 5.0, 5.0, 5.0))],
    ],
)
def test_odd_input_never_raises(detections):
    obs = read_table(detections, FRAME)
    placed = sum(len(s.hand) + len(s.pond) + len(s.wall) + sum(len(m.detections) for m in s.melds) for s in obs.seats)
    assert placed + len(obs.unassigned) + len(obs.not_tiles) == len(detections)
    assert len(obs.seats) == 4 and [s.side for s in obs.seats] == list(FrameSide)


def test_json_is_per_seat():
    obs = read_table(lay(FULL), FRAME)
    data = obs.as_json()
    assert [s["side"] for s in data["seats"]] == ["bottom", "right", "top", "left"]
    assert data["seats"][0]["pond"] == "19m2z8p7z34s" and data["seats"][0]["riichi"] == 4
    assert data["dora_indicators"] == "3p" and data["dead_wall"] == "left"
    assert data["seats"][1]["melds"][0] == {"tiles": "345p", "backs": 0, "called": 0, "from": "bottom"}
    assert [s["drawn"] for s in data["seats"]] == [None] * 4
    drawn = read_table(
        lay({FrameSide.BOTTOM: Seat(hand="1234m", drawn="0p"), FrameSide.TOP: FULL[FrameSide.TOP]}), FRAME
    )
    assert drawn.as_json()["seats"][0]["drawn"] == "0p" and "drawn 0p" in drawn.describe()[0]


# --- tables laid out by the renderer ------------------------------------------------------------------------
# The renderer's table layouts (vision.synth.layout) record where each body belongs (Placement); projected by an
# overhead camera from the bottom seat's side, the boxes of the tiles whose face or back the renderer would label
# are detections with ground truth. Some layouts overlap themselves (melds laid over the hand, a pond's third row
# over the wall: bodies that interpenetrate); those seats count for seats but not for zones.

RENDERED_SEEDS = range(12)


def _rendered_table(seed: int, size: Size = FRAME, bottom: int = 0):
    """Detections and ground truth of a renderer layout, the camera over the centre leaning from seat ``bottom``'s
    side (that seat at the frame's bottom edge), and the seats whose layout overlaps itself."""
    import math

    import numpy as np

    from vision.synth import layout
    from vision.synth.camera import Camera
    from vision.synth.render import MIN_COSINE

    rng = np.random.default_rng([seed, 0])
    tw = float(rng.uniform(23, 28.5))
    tile = layout.TileSize(  # drawn as the renderer draws a tile set
        tw, tw * float(rng.uniform(1.26, 1.40)), tw * float(rng.uniform(0.6, 0.85)), float(rng.uniform(0.2, 2.0))
    )
    tags: list = []
    bodies = layout.table_layout(rng, tile, tags)
    fx = (size.width / 2) / math.tan(math.radians(30))
    reach = max(max(abs(b.centre[0]), abs(b.centre[1])) for b in bodies) + 40.0  # the whole table in view
    cam = Camera.looking_at(
        size.width,
        size.height,
        np.zeros(3),
        reach * fx / (size.height / 2 - 30),
        math.radians(84),
        -math.pi / 2 + bottom * math.pi / 2,
        0.0,
        math.radians(60),
    )
    dets, truth = [], []
    for body, tag in zip(bodies, tags, strict=True):
        uv, _z = cam.project(body.corners())
        lo, hi = uv.min(axis=0), uv.max(axis=0)
        if tag.hidden or lo[0] < 0 or lo[1] < 0 or hi[0] > size.width or hi[1] > size.height:
            continue
        axes, to_camera = np.asarray(body.axes), cam.pos - np.asarray(body.centre)
        for sign, class_id in ((1.0, body.class_id), (-1.0, BACK_CLASS)):  # the face first, as the renderer
            if axes @ np.array([0.0, 0.0, sign]) @ to_camera / np.linalg.norm(to_camera) >= MIN_COSINE:
                dets.append(Detection.of_class(class_id, Box(*map(float, lo), *map(float, hi)), 0.9))
                truth.append(tag)
                break
    clashing = set()
    for i in range(len(bodies)):
        for j in range(i + 1, len(bodies)):
            a, b = tags[i], tags[j]
            if a.seat == b.seat and a.zone != b.zone:
                pa, pb = bodies[i].corners()[:, :2], bodies[j].corners()[:, :2]
                if (np.minimum(pa.max(0), pb.max(0)) - np.maximum(pa.min(0), pb.min(0)) > 2.0).all():
                    clashing.add(a.seat)
    return dets, truth, clashing


def _placed(obs) -> dict[int, tuple[int, str, int]]:
    """Detection id -> (seat, zone, position in that zone) as the reader placed it."""
    out = {}
    for s in obs.seats:
        zones = {"hand": s.hand, "pond": s.pond, "wall": s.wall, "meld": [d for m in s.melds for d in m.detections]}
        for zone, dets in zones.items():
            for k, d in enumerate(dets):
                out[id(d)] = (s.side.turns, zone, k)
    return out


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_layout_tags_leave_the_layout_as_it_was(seed):
    """Recording placements draws nothing from the generator: data version synth-1 renders the same images."""
    import numpy as np

    from vision.synth import layout

    tile = layout.TileSize()
    a_rng, b_rng = np.random.default_rng([seed, 0]), np.random.default_rng([seed, 0])
    tags: list = []
    plain, tagged = layout.table_layout(a_rng, tile), layout.table_layout(b_rng, tile, tags)
    assert plain == tagged and len(tags) == len(tagged) and a_rng.random() == b_rng.random()
    assert {t.zone for t in tags} <= {"hand", "meld", "pond", "wall"} and {t.seat for t in tags} == {0, 1, 2, 3}


@pytest.mark.parametrize("bottom", [0, 1, 2, 3])
def test_rendered_tables_by_seat_zone_and_discard_order(bottom):
    """The camera leans from each seat's side in turn: the seat at the frame's bottom is seat ``bottom``."""
    seats = zones = zoned = ponds = ponds_in_order = total = 0
    for seed in RENDERED_SEEDS:
        dets, truth, clashing = _rendered_table(seed, bottom=bottom)
        read = read_table(dets, FRAME)
        placed = {k: ((seat + bottom) % 4, zone, i) for k, (seat, zone, i) in _placed(read).items()}
        got = [placed.get(id(d)) for d in dets]
        total += len(dets)
        seats += sum(g is not None and g[0] == t.seat for g, t in zip(got, truth, strict=True))
        for seat in set(range(4)) - clashing:
            mine = [(g, t) for g, t in zip(got, truth, strict=True) if t.seat == seat]
            zoned += len(mine)
            zones += sum(g is not None and g[:2] == (t.seat, t.zone) for g, t in mine)
            pond = [(g[2], t.index) for g, t in mine if t.zone == "pond" and g is not None and g[1] == "pond"]
            if len(pond) >= 2:
                ponds += 1
                ponds_in_order += [i for _k, i in sorted(pond)] == sorted(i for _k, i in pond)
    figures = f"seats {seats}/{total}, zones {zones}/{zoned}, ponds in order {ponds_in_order}/{ponds}"
    assert total > 1000 and zoned > 200, figures
    assert seats / total >= 0.97, figures  # measured 0.976 to 0.998 when written
    assert zones / zoned >= 0.94, figures  # 0.951 to 0.997
    assert ponds >= 10 and ponds_in_order / ponds >= 0.9, figures
