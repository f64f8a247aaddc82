"""Frames fused over time: a slip of the reader — a pond tile misread, a tile read twice, a zone read empty, an arm
over a pond, the dora indicators or a meld not seen, no table read at all — for a few frames makes no event and no
contradiction, and the game's next move is taken as before.

Tables are built seat by seat from mpsz text as real ``Detection`` s (``tests/vision/read/table_frames.py``) and
followed by the real :class:`~vision.read.follow.TableFollower`, whose frames are fused by default.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.game.events import Call, Discard
from engine.melds import MeldKind
from engine.tiles import Tile, parse_tiles
from tests.vision.read.table_frames import B, L, R, T, table
from vision.read.follow import SETTLE, VANISH, Clash, FollowUpdate, TableFollower
from vision.read.fusion import QUICK, STEADY, WINDOW, TableFusion
from vision.read.table import FrameSide, TableObservation
from vision.read.table_snapshot import TableSnapshot

#: Frames a change the game makes takes to be taken: fused over QUICK frames, then settled over SETTLE.
TAKE = QUICK + SETTLE - 1

# the hand so far: the left seat (seat 3) is due; the top seat called a pon from across
PONDS = {B: "1z9m2z", R: "9p4s1s", T: "6z8m8s", L: "3m5s"}
MELDS = {T: (("5p5p5p", 1),)}
DORA = "4p"
NEXT = {**PONDS, L: "3m5s7z"}  # the left seat's discard


def seen(ponds: dict[FrameSide, str] = PONDS, melds=MELDS, dora: str = DORA) -> TableObservation:
    return table(ponds, melds, dora)


def D(seat: int, text: str) -> Discard:
    return Discard(seat, Tile.parse(text))


def follow(follower: TableFollower, frames: list[TableObservation | None], due: int | None = 3) -> list[FollowUpdate]:
    return [follower.update(frame, i, due) for i, frame in enumerate(frames)]


def events(updates: list[FollowUpdate]) -> list:
    return [e for u in updates for e in u.events]


def clashes(updates: list[FollowUpdate]) -> list[str]:
    return [str(c) for u in updates for c in u.contradictions]


def started(**options) -> TableFollower:
    follower = TableFollower(**options)
    follower.accept(seen())
    return follower


# what the reader slipped on, as the frames it gave (the table otherwise as it is), for how many frames
SLIPS = [
    # a pond tile misnamed (the top seat's 8s read 9s)
    *[(f"misread for {n}", [seen({**PONDS, T: "6z8m9s"})] * n) for n in (1, 2, 5)],
    # a tile read twice in a pond (the reads seen at a real table: 6z8m8s -> 6z8m68s)
    *[(f"inserted for {n}", [seen({**PONDS, T: "6z8m68s"})] * n) for n in (1, 2, 5)],
    # a pond read empty (a dropout: the zone not read)
    *[(f"pond empty for {n}", [seen({**PONDS, B: ""})] * n) for n in (1, 2, 5, VANISH)],
    # an arm over the pond's end, then over its start
    *[(f"end hidden for {n}", [seen({**PONDS, B: "1z"})] * n) for n in (1, 2, 5, VANISH)],
    *[(f"start hidden for {n}", [seen({**PONDS, B: "9m2z"})] * n) for n in (1, 2, 5, VANISH)],
    # an arm over part of the pond, less and less of it (an arm leaving)
    ("arm leaving", [seen({**PONDS, B: ""})] * 2 + [seen({**PONDS, B: "2z"})] * 2 + [seen({**PONDS, B: "9m2z"})] * 2),
    # the dora indicators and a meld not seen for as long as the real detector missed them
    ("dora missing", [seen(dora="")] * VANISH),
    ("meld missing", [seen(melds={})] * VANISH),
    # no table read at all (a hand over the lens)
    ("no table", [None] * VANISH),
    # several at once: a misread, a dropout elsewhere, the indicators missing
    ("all at once", [seen({**PONDS, T: "6z8m9s", B: ""}, dora="")] * 5),
]


@pytest.mark.parametrize(("slip", "frames"), SLIPS, ids=[s for s, _ in SLIPS])
def test_a_slip_makes_no_event_and_no_contradiction_and_the_next_discard_is_taken(slip, frames):
    follower = started()
    slipped = follow(follower, frames + [seen()] * TAKE)
    assert events(slipped) == [] and clashes(slipped) == []
    assert follower.accepted == TableSnapshot.of(seen())
    after = follow(follower, [seen(NEXT)] * TAKE)
    assert events(after) == [D(3, "7z")] and clashes(after) == []


# the same slips while the next move lands: the frames, and the events they make
LANDING = [
    # the new tile misread in its first frame
    ([seen({**PONDS, L: "3m5s6z"})] + [seen(NEXT)] * TAKE, [D(3, "7z")]),
    # the new tile under an arm over the pond's start, then the whole pond
    ([seen({**PONDS, L: "5s7z"})] + [seen(NEXT)] * TAKE, [D(3, "7z")]),
    # another pond's tile misread (and read twice) in the frames the discard lands in
    ([seen({**NEXT, T: "6z8m9s"}), seen({**NEXT, T: "6z8m68s"})] + [seen(NEXT)] * TAKE, [D(3, "7z")]),
    # the discarder's own pond read one tile short for a frame after it lands
    ([seen(NEXT), seen({**NEXT, L: "3m5s"})] + [seen(NEXT)] * TAKE, [D(3, "7z")]),
]


@pytest.mark.parametrize(("frames", "expected"), LANDING)
def test_a_slip_while_a_discard_lands_gives_the_right_discard_once(frames, expected):
    follower = started()
    updates = follow(follower, frames)
    assert events(updates) == expected and clashes(updates) == []


def test_a_call_of_the_discard_with_a_pond_misread_meanwhile():
    """The left seat's discard, then the bottom seat's pon of it; the top seat's pond misread in the frames between."""
    follower = started()
    follow(follower, [seen(NEXT)] * TAKE)
    pon = {**MELDS, B: (("7z7z7z", 0),)}  # the called tile leftmost: from the bottom seat's kamicha, the left seat
    frames = [seen({**PONDS, T: "6z8m9s"}, pon), seen(PONDS, pon), seen({**PONDS, T: "6z8m68s"}, pon)]
    updates = follow(follower, frames + [seen(PONDS, pon)] * TAKE, due=None)
    assert events(updates) == [Call(0, MeldKind.PON, parse_tiles("777z"))] and clashes(updates) == []


def _upright(observation: TableObservation, side: FrameSide) -> TableObservation:
    """``observation`` with ``side``'s melds read with no tile sideways."""
    seat = observation.seat(side)
    melds = tuple(replace(m, called=None) for m in seat.melds)
    return replace(observation, seats=tuple(replace(s, melds=melds) if s is seat else s for s in observation.seats))


def test_a_meld_read_with_no_tile_sideways_for_a_while_is_the_same_meld():
    """The top seat's pon read upright in the frames the bottom seat's pon is laid (seen filming a logged game with
    the shipped models): the call is taken, no meld changed."""
    follower = started()
    follow(follower, [seen(NEXT)] * TAKE)
    pon = {**MELDS, B: (("7z7z7z", 0),)}
    frames = [_upright(seen(PONDS, pon), T)] * QUICK + [seen(PONDS, pon)] * TAKE
    updates = follow(follower, frames, due=None)
    assert events(updates) == [Call(0, MeldKind.PON, parse_tiles("777z"))] and clashes(updates) == []


# the slips the follower saw at a real table, frame by frame alone (``fuse=False``): each a contradiction, and
# with the frames fused none of them
ISSUE = [
    ("inserted for 2", [seen({**PONDS, T: "6z8m68s"})] * 2, Clash.TILE_INSERTED),
    ("misread for 5", [seen({**PONDS, T: "6z8m9s"})] * 5, Clash.POND_CHANGED),
    ("dora missing", [seen(dora="")] * VANISH, Clash.VANISHED),
    ("meld missing", [seen(melds={})] * VANISH, Clash.VANISHED),
    ("pond empty", [seen({**PONDS, B: ""})] * VANISH, Clash.VANISHED),
]


@pytest.mark.parametrize(("slip", "frames", "clash"), ISSUE, ids=[s for s, _, _ in ISSUE])
@pytest.mark.parametrize("fuse", [False, True])
def test_the_slips_seen_at_a_real_table_are_contradictions_only_frame_by_frame(slip, frames, clash, fuse):
    follower = started(fuse=fuse)
    updates = follow(follower, frames + [seen()] * TAKE)
    assert [c.clash for u in updates for c in u.contradictions] == ([] if fuse else [clash])


# --- the fusion's own rules ---------------------------------------------------------------------------------------


def _doubtful(observation: TableObservation, side: FrameSide, conf: float) -> TableObservation:
    """``observation`` with ``side``'s pond read at confidence ``conf``."""
    seat = observation.seat(side)
    pond = tuple(replace(d, conf=conf) for d in seat.pond)
    return replace(observation, seats=tuple(replace(s, pond=pond) if s is seat else s for s in observation.seats))


@pytest.mark.parametrize(
    ("frames", "pond"),
    [
        # a tile misnamed for STEADY - 1 frames stays; for STEADY frames, read surely, it is read otherwise
        ([seen({**PONDS, T: "6z8m9s"})] * (STEADY - 1), "6z8m8s"),
        ([seen()] * (WINDOW - STEADY) + [seen({**PONDS, T: "6z8m9s"})] * STEADY, "6z8m9s"),
        # doubtful reads of another tile against sure ones: they must outweigh them, not only outnumber them
        ([seen()] * (WINDOW - STEADY) + [_doubtful(seen({**PONDS, T: "6z8m9s"}), T, 0.3)] * STEADY, "6z8m8s"),
        # the last tile gone for QUICK frames (a call takes it); two tiles gone, only after STEADY frames
        ([seen({**PONDS, T: "6z8m"})] * QUICK, "6z8m"),
        ([seen({**PONDS, T: "6z"})] * QUICK, "6z8m8s"),
        ([seen({**PONDS, T: "6z"})] * STEADY, "6z"),
        # a tile landing; two landing at once (one read twice?) only once they have held STEADY frames
        ([seen({**PONDS, T: "6z8m8s1p"})] * QUICK, "6z8m8s1p"),
        ([seen({**PONDS, T: "6z8m8s1p1p"})] * (STEADY - 1), "6z8m8s"),
        ([seen({**PONDS, T: "6z8m8s1p1p"})] * STEADY, "6z8m8s1p1p"),
        # tiles hidden inside the pond for good are gone once it has read so STEADY frames; shown again, they are
        # back in QUICK frames (not left out as tiles read twice)
        ([seen({**PONDS, T: "8s"})] * STEADY, "8s"),
        ([seen({**PONDS, T: "8s"})] * STEADY + [seen()] * QUICK, "6z8m8s"),
        # a tile read twice inside the pond is left out until the pond has read so STEADY frames
        ([seen({**PONDS, T: "6z8m68s"})] * (STEADY - 1), "6z8m8s"),
        ([seen({**PONDS, T: "6z8m68s"})] * STEADY, "6z8m68s"),
        # the pond's start hidden (an arm over it) as a tile lands: its last tiles and the new one read, laid at its end
        ([seen({**PONDS, T: "8m8s1p"})] * QUICK, "6z8m8s1p"),
        ([seen({**PONDS, T: "8s1p"})] * QUICK, "6z8m8s1p"),
    ],
)
def test_a_pond_believed(frames, pond):
    fusion = TableFusion()
    fusion.reset(TableSnapshot.of(seen()))
    for frame in frames:
        snapshot = fusion.fuse(frame)
    assert snapshot.seat(T).pond == parse_tiles(pond)


WIN = "234m567m345p678s5p"  # 13 tiles laid face up by the bottom seat


@pytest.mark.parametrize(
    ("frames", "melds", "dora", "open_hand"),
    [
        # a new meld, an indicator turned, a hand laid face up: moves of the game, believed in QUICK frames
        ([seen(melds={**MELDS, R: (("2s3s4s", 0),)})] * QUICK, 2, "4p", False),
        ([seen(dora="4p1s")] * QUICK, 1, "4p1s", False),
        ([table(PONDS, MELDS, DORA, hands={B: WIN})] * QUICK, 1, "4p", True),
        # a meld or an indicator gone is no move: believed only after STEADY frames
        ([seen(melds={})] * (STEADY - 1), 1, "4p", False),
        ([seen(melds={})] * STEADY, 0, "4p", False),
        ([seen(dora="")] * (STEADY - 1), 1, "4p", False),
        ([seen(dora="")] * STEADY, 1, "", False),
        # a hand laid face up, then no table read for a while: a frame that shows nothing closes no hand
        ([table(PONDS, MELDS, DORA, hands={B: WIN})] * QUICK + [None] * (STEADY - 1), 1, "4p", True),
    ],
)
def test_melds_indicators_and_hands_believed(frames, melds, dora, open_hand):
    fusion = TableFusion()
    fusion.reset(TableSnapshot.of(seen()))
    for frame in frames:
        snapshot = fusion.fuse(frame)
    assert sum(len(s.melds) for s in snapshot.seats) == melds
    assert snapshot.indicators == parse_tiles(dora)
    assert snapshot.open_hand is open_hand
