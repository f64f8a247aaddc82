"""The table follower: whole-table observations of successive frames -> the engine's public events.

Tables are built seat by seat from mpsz text (a ``^`` in a pond marks the tile after it as lying sideways; a meld
is its tiles and the index of its sideways tile, None for a closed kan, whose ends are then laid face down), as
real ``Detection`` s in ``SeatObservation`` s; the follower must take each settled change as the event it shows,
wait out what is hidden, and refuse what no event explains.
"""

from __future__ import annotations

import json

import cv2
import pytest

from engine.game.events import AddedKan, Call, ClosedKan, Discard, DoraFlip, Draw, HandStart
from engine.game.state import Game
from engine.game.table import Phase
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, format_tiles, parse_tiles
from tests.vision.read.table_frames import NONE_SIDEWAYS, B, L, R, T, table
from vision.read.follow import REVEAL_SETTLE, RIICHI_SETTLE, SETTLE, VANISH, Clash, FollowUpdate, Reveal, TableFollower
from vision.read.fusion import QUICK, STEADY, WINDOW
from vision.read.table import TableObservation
from vision.read.table_snapshot import TableSnapshot

#: Frames a change the game makes (a discard, a call, a kan, a dora flip, a hand laid down) takes to be taken: fused
#: over QUICK frames, then settled over SETTLE.
TAKE = QUICK + SETTLE - 1
#: ... and one declaring riichi (its new tile sideways).
TAKE_RIICHI = QUICK + max(SETTLE, RIICHI_SETTLE) - 1
#: Frames a hand laid face up takes to be revealed: fused over QUICK frames, then held REVEAL_SETTLE.
SHOWN = QUICK + REVEAL_SETTLE - 1
#: Frames any other change (a tile read otherwise, inserted, or gone from inside a pond) takes to be reported: fused
#: over STEADY frames, then settled.
REPORT = STEADY + SETTLE - 1
#: Frames the last tile of a pond (or an added kan's fourth) takes to be reported gone: fused away over QUICK frames as
#: a call's would be, then missing VANISH frames.
GONE = QUICK + VANISH - 1


def follow(frames: list[TableObservation], follower: TableFollower | None = None) -> list[FollowUpdate]:
    follower = follower or TableFollower()
    return [follower.update(frame, i) for i, frame in enumerate(frames)]


def events(updates: list[FollowUpdate]) -> list:
    return [e for u in updates for e in u.events]


def clashes(updates: list[FollowUpdate]) -> list[Clash]:
    return [c.clash for u in updates for c in u.contradictions]


def started(start: TableObservation, **options) -> TableFollower:
    follower = TableFollower(**options)
    follower.accept(start)
    return follower


def D(seat: int, text: str, riichi: bool = False) -> Discard:
    return Discard(seat, Tile.parse(text), riichi=riichi)


def played(proposed: list) -> Game:
    """The follower's events applied to a new game from East 1's start, with the draws the camera does not see
    (the seat to act draws before it discards)."""
    game = Game(preset("standard"))
    game.apply(HandStart(dora_indicator=Tile.parse("4p")))
    for event in proposed:
        if isinstance(event, Discard | ClosedKan | AddedKan) and game.phase in (Phase.DRAW, Phase.REACT):
            game.apply(Draw(event.seat))
        game.apply(event)
    return game


# --- settling -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("settle", [1, 2, 3])
def test_a_discard_seen_for_settle_frames_makes_one_event(settle):
    frames = [table()] * 2 + [table({B: "1z"})] * (QUICK + settle + 3)
    updates = follow(frames, TableFollower(settle=settle))
    assert events(updates) == [D(0, "1z")]
    # taken on the frame it has held ``settle`` frames, fused (held QUICK frames) from its QUICK-th
    assert updates[2 + QUICK - 1 + settle - 1].events == (D(0, "1z"),)
    assert clashes(updates) == []


# one seat's pond (the bottom's) from an accepted start: the frames, then the events and contradictions they make
POND_CASES = [
    # a discard
    ("1z", ["1z9m"] * TAKE, [D(0, "9m")], []),
    # an arm over the whole pond for 5 frames (read empty, then partly), then the pond back: nothing happens
    ("1z9m2z", [""] * 2 + ["1z"] * 3 + ["1z9m2z"] * 3, [], []),
    # an arm over the pond's end only
    ("1z9m2z", ["1z9m"] * 5 + ["1z9m2z"] * 2, [], []),
    # an arm over the pond's start while the discard lands: taken once the whole pond shows
    ("1z9m", ["9m", "9m5p"] + ["1z9m5p"] * TAKE, [D(0, "5p")], []),
    # the new tile misread in one frame, then read right: the right event, once
    ("1z", ["1z8m"] + ["1z9m"] * TAKE, [D(0, "9m")], []),
    # an old tile misread in one frame
    ("1z9m", ["1z8m", "1z9m", "1z9m"], [], []),
    # an old tile read otherwise, and it holds: a contradiction, not a guess
    # a tile the follower did not see land read otherwise steadily: a contradiction (a discard seen landing is
    # corrected instead: test_a_pond_tile_read_otherwise_steadily_is_a_discard_to_correct)
    ("1z9m", ["1z8m"] * REPORT, [], [Clash.POND_CHANGED]),
    ("1z9m", ["2z8m"] * REPORT, [], [Clash.POND_CHANGED]),
    # a pond tile gone for good and no call: a contradiction once it has been gone VANISH frames (fused away first)
    ("1z9m2z", ["1z2z"] * (STEADY + VANISH - 1), [], [Clash.VANISHED]),
    # the last tile gone and no call
    ("1z9m", ["1z"] * (VANISH + 3), [], [Clash.VANISHED]),
    # a tile appearing mid-pond
    ("1z9m", ["1z5p9m"] * REPORT, [], [Clash.TILE_INSERTED]),
    # two new tiles at once
    ("1z", ["1z9m2z"] * REPORT, [], [Clash.MANY_DISCARDS]),
    # a riichi discard lies sideways
    ("1z9m", ["1z9m^2z"] * TAKE_RIICHI, [D(0, "2z", riichi=True)], []),
    # a riichi is not taken sooner: the frames that would take an upright discard leave it waiting
    ("1z9m", ["1z9m^2z"] * TAKE, [], []),
    # the sideways tile read upright in one frame: still the riichi (the frames that settle show it sideways)
    ("1z9m", ["1z9m2z"] + ["1z9m^2z"] * TAKE_RIICHI, [D(0, "2z", riichi=True)], []),
]


@pytest.mark.parametrize(("start", "frames", "expected", "contradictions"), POND_CASES)
def test_a_pond_followed(start, frames, expected, contradictions):
    follower = started(table({B: start}))
    updates = follow([table({B: text}) for text in frames], follower)
    assert events(updates) == expected
    assert clashes(updates) == contradictions


@pytest.mark.parametrize(
    ("frames", "contradictions", "taken_as_read"),
    [
        (["1z9m"] * VANISH, [Clash.VANISHED], False),  # the last discard gone (an arm may still be over it)
        (["1z9m2z5p6p"] * TAKE, [Clash.MANY_DISCARDS], False),  # the turn's to judge
        (["5p"] * REPORT, [Clash.POND_CHANGED], True),  # the seat's own tiles: taken as read, to go on from
    ],
)
def test_a_contradiction_leaves_the_state_as_it_was_until_a_person_resyncs(frames, contradictions, taken_as_read):
    """A contradiction is shown once and makes no event. One of a seat's own tiles (RESYNCED_CLASHES) that still
    reads so a frame later is taken as that seat's tiles (its next moves are followed); any other leaves the state as
    it was until a person resyncs."""
    follower = started(table({B: "1z9m2z", R: "9p"}))
    before = follower.accepted
    updates = follow([table({B: text, R: "9p"}) for text in frames] * 3, follower)  # reported once, not per frame
    assert clashes(updates) == contradictions
    assert events(updates) == []
    if taken_as_read:
        assert follower.accepted == TableSnapshot.of(table({B: frames[0], R: "9p"}))
    else:
        assert follower.accepted == before
    follower.accept(table({B: frames[0], R: "9p"}))  # a person says the table is right
    assert events(follow([table({B: frames[0], R: "9p1s"})] * TAKE, follower)) == [D(1, "1s")]


def test_a_seat_taken_as_read_after_a_contradiction_goes_back_when_read_right_again():
    """A pond misread steadily (two tiles otherwise) is shown once and taken as read; read right again with one tile
    more, the seat goes back to what it was, the contradiction is resolved, and the new tile is a discard."""
    follower = started(table({B: "1z9m", R: "9p"}))
    shown = follow([table({B: "2z8m", R: "9p"})] * (REPORT + 1), follower)
    assert clashes(shown) == [Clash.POND_CHANGED] and follower.accepted.seat(B).pond == tuple(parse_tiles("2z8m"))
    back = follow([table({B: "1z9m3s", R: "9p"})] * REPORT, follower)  # the new tile at once, the old ones in time
    assert events(back) == [D(0, "3s")] and clashes(back) == []
    assert [s for u in back for s in u.resolved] == [B]
    assert follower.accepted.seat(B).pond == tuple(parse_tiles("1z9m3s"))


@pytest.mark.parametrize("backs", ["???", "????"])
def test_a_row_of_face_down_tiles_by_a_seat_is_no_meld(backs):
    """Three or four face-down boxes read where a seat's melds lie (a standing hand's tops boxed as backs) make no
    meld and no contradiction, and hold up none of the seat's discards."""
    follower = started(table({B: "1z", R: "9p"}))
    updates = follow([table({B: "1z", R: "9p"}, {T: ((backs, None),)})] * REPORT, follower)
    updates += follow([table({B: "1z", R: "9p", T: "4z"}, {T: ((backs, None),)})] * TAKE, follower)
    assert events(updates) == [D(2, "4z")] and clashes(updates) == []


def test_two_seats_discarding_in_one_change_is_a_contradiction():
    follower = started(table({B: "1z", R: "9p"}))
    updates = follow([table({B: "1z2z", R: "9p1s"})] * TAKE, follower)
    assert events(updates) == []
    assert sorted(c.side.value for u in updates for c in u.contradictions) == ["bottom", "right"]
    assert set(clashes(updates)) == {Clash.TWO_DISCARDERS}


# ponds grown in one change (the reads fell behind): the ponds before (every seat has discarded once, or the left
# seat is due), the ponds that grew, then the events taken (their order inferred) and the contradictions
ROUND = {B: "1z", R: "9p", T: "4z", L: "6z"}
BEHIND_CASES = [
    # the seat due and the next one: taken in turn
    (ROUND, {B: "1z9m", R: "9p1s"}, [D(0, "9m"), D(1, "1s")], []),
    # round the table: the left seat, then the bottom one
    ({B: "1z", R: "9p", T: "4z"}, {L: "6z", B: "1z9m"}, [D(3, "6z"), D(0, "9m")], []),
    # three seats in turn, a riichi among them
    (ROUND, {B: "1z9m", R: "9p^1s", T: "4z8m"}, [D(0, "9m"), D(1, "1s", riichi=True), D(2, "8m")], []),
    # not from the seat due (the bottom seat's turn skipped): a contradiction
    (ROUND, {R: "9p1s", T: "4z8m"}, [], [Clash.TWO_DISCARDERS] * 2),
    # more than a go-round behind: each new tile a discard, in turn
    (
        ROUND,
        {B: "1z9m2m", R: "9p1s", T: "4z8m", L: "6z3p"},
        [D(0, "9m"), D(1, "1s"), D(2, "8m"), D(3, "3p"), D(0, "2m")],
        [],
    ),
    # filmed with the models: the top seat's first discard (a blank 5z) unseen for a go-round and a half, then seen
    (
        {B: "1z", R: "9p"},
        {T: "5z8s", L: "2m2z", B: "1z4z5m", R: "9p9m"},
        [D(2, "5z"), D(3, "2m"), D(0, "4z"), D(1, "9m"), D(2, "8s"), D(3, "2z"), D(0, "5m")],
        [],
    ),
    # two new tiles of one seat and nobody else's: no turn order explains them
    (ROUND, {B: "1z9m2m"}, [], [Clash.MANY_DISCARDS]),
    # a turn skipped in the middle (the right seat's second discard missing): a contradiction
    (ROUND, {B: "1z9m2m", R: "9p", T: "4z8m", L: "6z3p"}, [], [Clash.MANY_DISCARDS, *[Clash.TWO_DISCARDERS] * 2]),
]


@pytest.mark.parametrize(("before", "grown", "expected", "contradictions"), BEHIND_CASES)
def test_discards_seen_at_once_by_the_seat_due_and_the_next_are_taken_in_turn(before, grown, expected, contradictions):
    follower = started(table(before))
    due = len(before) % 4  # each seat has discarded once so far, in turn from the dealer
    # (a pond grown by more than a tile is no one move: the fusion waits STEADY frames for it)
    updates = [follower.update(table({**before, **grown}), i, due) for i in range(REPORT)]
    assert events(updates) == expected
    assert [e for u in updates for e in u.inferred] == expected  # marked as inferred
    assert clashes(updates) == contradictions
    if expected:  # the engine takes them in that order, after the discards before (each seat drawing first)
        so_far = [D(seat, before[side]) for seat, side in enumerate((B, R, T, L)) if side in before]
        assert played([*so_far, *expected]).events[-1] == expected[-1]


def test_a_discard_out_of_turn_beside_the_seat_dues_is_shown_then_put_in_turn():
    """The seat due and the seat after the next seen at once (the right seat's discard between not seen yet): the
    seat due's discard is taken, the other one is out of turn (shown), and once it has held a frame past that the
    seat is taken as read, so that its next moves are followed. When the right seat's discard is seen, the top
    seat's tile is its discard in turn: both taken, marked inferred, the contradiction resolved; the left seat goes
    on."""
    follower = started(table(ROUND))
    # the top seat's tile shown out of turn after REPORT frames (a misread until then), taken as read a frame later
    updates = [follower.update(table({**ROUND, B: "1z9m", T: "4z8m"}), i, 0) for i in range(REPORT + 1)]
    assert events(updates) == [D(0, "9m")]
    assert clashes(updates) == [Clash.OUT_OF_TURN]
    assert follower.accepted.seat(T).pond == parse_tiles("4z8m")  # taken as read: no event
    both = table({**ROUND, B: "1z9m", R: "9p1s", T: "4z8m"})
    later = [follower.update(both, REPORT + i, 1) for i in range(TAKE)]
    assert events(later) == [D(1, "1s"), D(2, "8m")]
    assert [e for u in later for e in u.inferred] == events(later)
    assert T in [side for u in later for side in u.resolved] and clashes(later) == []
    left = [
        follower.update(table({**ROUND, B: "1z9m", R: "9p1s", T: "4z8m", L: "6z3p"}), 2 * REPORT + i, 3)
        for i in range(TAKE)
    ]
    assert events(left) == [D(3, "3p")] and clashes(left) == []


def test_a_discard_out_of_turn_after_a_call_unseen_is_never_put_in_turn():
    """Filmed with the models (``mjx_upd-bef-chankan-twice`` E2): the right seat's 5z left its pond for a pon the
    reader never saw (blank tiles), and the left seat, its caller, discarded out of turn. That tile is no discard read
    before the seat due's: when the top seat discards, it is not taken in turn (filmed, it and the next were, out of
    order: false events). And the right seat's next discard, landing in the 5z's slot, is its next discard, not the
    5z read wrong (filmed, the 5z was taken back as 3z)."""
    follower = started(table({B: "1z", R: "9p", T: "4z", L: "6z"}))
    frame = iter(range(1000))
    assert events(follow_from(follower, frame, [table({B: "1z", R: "9p5z", T: "4z", L: "6z"})] * TAKE, 1)) == [
        D(1, "5z")
    ]
    called = follow_from(follower, frame, [table({B: "1z", R: "9p", T: "4z", L: "6z"})] * STEADY, 2)
    early = follow_from(follower, frame, [table({B: "1z", R: "9p", T: "4z", L: "6z2s"})] * REPORT, 2)
    assert events(called + early) == [] and Clash.OUT_OF_TURN in clashes(early)
    due = follow_from(follower, frame, [table({B: "1z", R: "9p", T: "4z8m", L: "6z2s"})] * TAKE, 2)
    assert events(due) == [D(2, "8m")]  # the left seat's 2s stays a contradiction, never a discard in turn
    slot = follow_from(follower, frame, [table({B: "1z", R: "9p3z", T: "4z8m", L: "6z2s"})] * REPORT, 3)
    assert not any(u.misread for u in slot)


def follow_from(follower: TableFollower, frames, tables: list, expected_seat: int) -> list[FollowUpdate]:
    return [follower.update(t, next(frames), expected_seat) for t in tables]


@pytest.mark.parametrize(
    ("expected_seat", "expected", "contradictions"), [(0, [D(0, "9m")], []), (1, [], [Clash.OUT_OF_TURN])]
)
def test_a_discard_out_of_turn_is_a_contradiction(expected_seat, expected, contradictions):
    follower = started(table({B: "1z"}))
    updates = [follower.update(table({B: "1z9m"}), i, expected_seat) for i in range(REPORT)]
    assert events(updates) == expected
    assert clashes(updates) == contradictions


@pytest.mark.parametrize("fuse", [True, False])
def test_a_discard_out_of_turn_waits_as_long_as_any_change_no_move_makes(fuse):
    """A tile landing at the end of a pond whose seat is not due is no move the rules allow next: until it has held
    STEADY frames it may be a misread (a pond's last tile boxed twice), so it waits, shown as pending, and then is
    shown once."""
    follower = started(table({B: "1z"}), fuse=fuse)
    updates = [follower.update(table({B: "1z9m"}), i, 1) for i in range(2 * REPORT)]
    shown_at = [i for i, u in enumerate(updates) if u.contradictions]
    assert shown_at == [REPORT - 1 if fuse else STEADY - 1]
    assert all(u.pending for u in updates[TAKE - 1 : shown_at[0]])
    assert events(updates) == []


@pytest.mark.parametrize(
    ("camera_seat", "side", "seat"),
    [
        (None, B, 0),
        (None, R, 1),
        (2, B, 2),
        (2, R, 3),  # the right edge holds the next seat in turn order
        (2, T, 0),
        (2, L, 1),
        (3, R, 0),
    ],
)
def test_camera_seat_names_the_game_seats(camera_seat, side, seat):
    updates = follow([table({side: "7z"})] * TAKE, TableFollower(camera_seat=camera_seat))
    assert events(updates) == [D(seat, "7z")]


# --- calls and kans -------------------------------------------------------------------------------------------

# the bottom seat discards the last tile of its pond; then a meld shows at a seat and the tile leaves the pond
CALL_CASES = [
    # pon by the right seat: the called tile leftmost (from its kamicha, the bottom seat)
    ("5p", R, ("5p5p5p", 0), [Call(1, MeldKind.PON, parse_tiles("555p"))], []),
    # pon by the top seat: the called tile in the middle (from across)
    ("5p", T, ("5p5p5p", 1), [Call(2, MeldKind.PON, parse_tiles("555p"))], []),
    # pon by the left seat: the called tile rightmost (from its shimocha, the bottom seat)
    ("5p", L, ("5p5p5p", 2), [Call(3, MeldKind.PON, parse_tiles("555p"))], []),
    # chi by the right seat
    ("5p", R, ("5p4p6p", 0), [Call(1, MeldKind.CHI, parse_tiles("5p4p6p"))], []),
    # open kan by the top seat
    ("3z", T, ("3z3z3z3z", 1), [Call(2, MeldKind.KAN, parse_tiles("3333z"))], []),
    # a red five discarded, its meld read without the red: the call takes the discard as it was taken
    ("0p", R, ("5p5p5p", 0), [Call(1, MeldKind.PON, parse_tiles("055p"))], []),
    # the sideways tile says the right seat called from the top seat, but the bottom seat discarded
    ("5p", R, ("5p5p5p", 2), [], [Clash.CALL_MISMATCH]),
    # a meld of another tile than the discard
    ("5p", R, ("7s7s7s", 0), [], [Clash.CALL_MISMATCH]),
]


@pytest.mark.parametrize(("discard", "caller", "meld", "expected", "contradictions"), CALL_CASES)
def test_a_call_takes_the_last_discard_out_of_its_pond(discard, caller, meld, expected, contradictions):
    follower = started(table({B: "1z", R: "9p", T: "4z"}))
    ponds = {B: "1z", R: "9p", T: "4z"}
    updates = follow([table({**ponds, B: "1z" + discard})] * TAKE, follower)
    assert events(updates) == [D(0, discard)]
    updates = follow([table(ponds, {caller: (meld,)})] * TAKE, follower)
    assert events(updates) == expected
    assert clashes(updates) == contradictions
    if expected:  # the discarder's pond lost the tile; the caller discards next
        assert played([D(0, discard), *expected]).hand.players[caller.turns].melds  # the engine takes the call
        assert follower.accepted.seat(B).pond == parse_tiles("1z")
        after = {**ponds, caller: ponds.get(caller, "") + "2s"}
        assert events(follow([table(after, {caller: (meld,)})] * TAKE, follower)) == [D(caller.turns, "2s")]


@pytest.mark.parametrize("laid_left", [True, False])
def test_a_second_meld_beside_the_first(laid_left):
    pon = ("1z1z1z", 2)
    follower = started(table({B: "1z"}, {R: (pon,)}))
    follow([table({B: "1z5p"}, {R: (pon,)})] * TAKE, follower)
    chi = ("5p4p6p", 0)
    updates = follow([table({B: "1z"}, {R: (chi, pon) if laid_left else (pon, chi)})] * TAKE, follower)
    assert events(updates) == [Call(1, MeldKind.CHI, parse_tiles("5p4p6p"))]
    assert clashes(updates) == []


@pytest.mark.parametrize(
    "old_pon_read",
    [
        ("5z5z5z", 1),  # as accepted
        ("5z5z5z", 0),  # its sideways tile read at another place
        ("5z5z5z5z", NONE_SIDEWAYS),  # a blank 5z boxed twice
    ],
)
def test_a_call_beside_a_pon_read_otherwise_is_taken_and_the_pon_left_as_it_was(old_pon_read):
    """Filmed with the models: the left seat's white-dragon pon flickered between three and four boxes; its chi of
    the top seat's 5p beside it was never taken, and the hand's rest was lost."""
    pon = ("5z5z5z", 1)
    follower = started(table({T: "4z", L: "9p"}, {L: (pon,)}))
    follow([table({T: "4z5p", L: "9p"}, {L: (pon,)})] * TAKE, follower)
    updates = follow([table({T: "4z", L: "9p"}, {L: (("5p3p4p", 0), old_pon_read)})] * TAKE, follower)
    assert events(updates) == [Call(3, MeldKind.CHI, parse_tiles("5p3p4p"))]
    assert clashes(updates) == []
    assert [m.text for m in follower.accepted.seat(L).melds] == ["5z5z5z", "5p3p4p"]
    after = follow([table({T: "4z", L: "9p7z"}, {L: (("5p3p4p", 0), old_pon_read)})] * TAKE, follower)
    assert events(after) == [D(3, "7z")] and clashes(after) == []


def test_a_meld_laid_before_the_tile_leaves_the_pond_waits_for_it():
    follower = started(table({B: "1z"}))
    follow([table({B: "1z5p"})] * TAKE, follower)
    meld = {R: (("5p5p5p", 0),)}
    waiting = follow([table({B: "1z5p"}, meld)] * (TAKE + 1), follower)
    assert events(waiting) == [] and clashes(waiting) == []
    assert any(p.side is R for p in waiting[-1].pending)
    taken = follow([table({B: "1z"}, meld)] * TAKE, follower)
    assert events(taken) == [Call(1, MeldKind.PON, parse_tiles("555p"))]
    assert clashes(taken) == []


@pytest.mark.parametrize(
    ("meld", "expected", "contradictions"),
    [
        # the call and the caller's discard settle in one change: the call first
        (("5p5p5p", 0), [Call(1, MeldKind.PON, parse_tiles("555p")), D(1, "2s")], []),
        # a meld no discard explains: the caller's discard is not taken over it either
        (("7s7s7s", 0), [], [Clash.CALL_MISMATCH]),
    ],
)
def test_a_call_and_the_callers_discard_in_one_change(meld, expected, contradictions):
    follower = started(table({B: "1z", R: "9p"}))
    follow([table({B: "1z5p", R: "9p"})] * TAKE, follower)
    updates = follow([table({B: "1z", R: "9p2s"}, {R: (meld,)})] * TAKE, follower)
    assert events(updates) == expected
    assert clashes(updates) == contradictions


def test_frames_with_no_table_read_hide_everything_for_a_while():
    follower = started(table({B: "1z9m", R: "9p"}, dora="4p"))
    assert follower.hold(0) == FollowUpdate()  # the accepted frame holds: nothing new
    updates = follow([None] * STEADY + [table({B: "1z9m", R: "9p"}, dora="4p")] * QUICK, follower)
    assert events(updates) == [] and clashes(updates) == []
    assert {p.side for p in updates[STEADY - 1].pending} == {B, R, None}
    assert updates[-1].pending == ()


def test_a_riichi_tile_called_leaves_the_next_sideways_discard_no_new_riichi():
    follower = started(table({B: "1z"}))
    follow([table({B: "1z^2z"})] * TAKE, follower)
    follow([table({B: "1z"}, {R: (("2z2z2z", 0),)})] * TAKE, follower)
    updates = follow([table({B: "1z^3s"}, {R: (("2z2z2z", 0),)})] * TAKE, follower)
    assert events(updates) == [D(0, "3s", riichi=False)]


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ((("5p5p5p", 0),), (("5p5p5p5p", 0),), [AddedKan(1, Tile.parse("5p"))]),
        ((("1z1z1z", 2),), (("1z1z1z1z", 2),), [AddedKan(1, Tile.parse("1z"))]),
        ((), (("5p5p", None),), [ClosedKan(1, parse_tiles("5555p"))]),
        ((("1z1z1z", 2),), (("1z1z1z", 2), ("7m7m", None)), [ClosedKan(1, parse_tiles("7777m"))]),
    ],
)
def test_kans_from_the_hand(before, after, expected):
    follower = started(table({R: "9p"}, {R: before}))
    updates = follow([table({R: "9p"}, {R: after})] * TAKE, follower)
    assert events(updates) == expected
    assert clashes(updates) == []


@pytest.mark.parametrize(("caller", "called"), [(L, 1), (B, 2), (T, 0)])
def test_a_pon_of_a_blank_5z_boxed_as_four_is_the_pon(caller, called):
    """Filmed with the models (``mjx_upd-bef-chankan-twice`` E2): the left seat pons the right seat's 5z, and the blank
    tiles are boxed as four, none sideways: no meld a move makes, but the pon of the discard that left the pond (it
    was held as a kan out of turn, the left seat's next discard was out of turn, and the hand was lost)."""
    seat = {B: 0, R: 1, T: 2, L: 3}[caller]
    follower = started(table({R: "9p", T: "4z"}))
    follow([table({R: "9p5z", T: "4z"})] * TAKE, follower)
    ponds = {R: "9p", T: "4z", caller: ("4z" if caller is T else "") + "2s"}
    shown = table(ponds, {caller: (("5z5z5z5z", NONE_SIDEWAYS),)})
    updates = [follower.update(shown, TAKE + i, expected_seat=2) for i in range(TAKE)]
    assert events(updates) == [Call(seat, MeldKind.PON, parse_tiles("555z")), D(seat, "2s")]
    assert clashes(updates) == []
    assert follower.accepted.seat(caller).melds[0].called == called


def test_a_pon_read_with_a_tile_beside_it_is_the_pon():
    """Filmed with the models (``mjx_pao-tsumo`` E1): the bottom seat's pon of the top seat's 2m read ``2m4s2m2m``
    (a tile beside it read into its row) for a while: no meld of four a call makes (call_mismatch), so the pon was
    never taken, and every later discard was out of turn. The one call its tiles make less one tile is taken, and the
    meld read right again, or with the tile beside it, is that pon."""
    follower = started(table({B: "1z", R: "9p", T: "4z"}))
    frame = iter(range(1000))
    assert events(follow_from(follower, frame, [table({B: "1z", R: "9p", T: "4z2m"})] * TAKE, 2)) == [D(2, "2m")]
    misread = (("2m4s2m2m", 2),)
    called = follow_from(follower, frame, [table({B: "1z", R: "9p", T: "4z"}, {B: misread})] * TAKE, 3)
    assert events(called) == [Call(0, MeldKind.PON, parse_tiles("222m"))] and clashes(called) == []
    after = follow_from(follower, frame, [table({B: "1z7m", R: "9p", T: "4z"}, {B: misread})] * TAKE, 0)
    after += follow_from(follower, frame, [table({B: "1z7m", R: "9p", T: "4z"}, {B: (("2m2m2m", 1),)})] * TAKE, 1)
    assert events(after) == [D(0, "7m")] and clashes(after) == []


def test_a_pon_read_as_four_with_none_sideways_is_no_added_kan():
    follower = started(table({R: "9p"}, {R: (("5z5z5z", 1),)}))
    misread = table({R: "9p"}, {R: (("5z5z5z5z", NONE_SIDEWAYS),)})  # a blank 5z of the pon boxed twice
    updates = [follower.update(misread, i, 1) for i in range(REPORT)]
    assert not any(isinstance(e, AddedKan) for e in events(updates))


@pytest.mark.parametrize(
    ("before", "misread"),
    [
        ((("5z5z5z", 1),), (("5z5z5z5z", 1),)),  # a blank 5z of a pon boxed twice: the pon grown to four
        ((), (("5p5p", None),)),  # a closed kan where none was made
    ],
)
def test_a_kan_out_of_its_seats_turn_waits_and_the_seat_due_goes_on(before, misread):
    """Seen filming a game with the models: the left seat's white-dragon pon read as four tiles while the top seat
    (due) discarded; the kan, refused by the engine for its turn, held up the discard, and the hand's rest was lost."""
    follower = started(table({T: "4z", L: "9p"}, {L: before}))
    shown = table({T: "4z2p", L: "9p"}, {L: misread})
    updates = [follower.update(shown, i, expected_seat=2) for i in range(TAKE)]
    assert events(updates) == [D(2, "2p")]
    assert clashes(updates) == []
    assert any(p.side is L and "out of turn" in p.why for p in updates[-1].pending)
    # the left seat's own turn: the kan is taken if the table still shows it
    later = [follower.update(shown, TAKE + i, expected_seat=3) for i in range(SETTLE)]
    assert len(events(later)) == 1 and isinstance(events(later)[0], AddedKan | ClosedKan)


@pytest.mark.parametrize("fuse", [True, False])
@pytest.mark.parametrize("misread", [("1s7z7z", 2), ("1s7z7z", 0)])
def test_a_meld_read_with_one_tile_otherwise_is_no_new_meld(fuse, misread):
    """Filmed with the models (``mjx_double-ron`` E2): the right seat's 7z pon read 1s7z7z as it discarded, the
    sideways tile read first, for five reads. It is the same pon misread, for no move changes a tile of a meld: no
    call of a discard that is not there (call_mismatch), and the seat's discard beside it is taken. Filmed, the
    call_mismatch held up the discard, the next seat's pon of it was refused too, and the hand was lost."""
    follower = started(table({R: "9p", T: "4z"}, {R: (("7z7z7z", 2),)}), fuse=fuse)
    shown = table({R: "9p2m", T: "4z"}, {R: (misread,)})
    updates = [follower.update(shown, i, expected_seat=1) for i in range(TAKE)]
    assert events(updates) == [D(1, "2m")] and clashes(updates) == []
    assert [m.text for m in follower.accepted.seat(R).melds] == ["7z7z7z"]


def test_a_meld_hidden_holds_up_no_discard_of_its_seat():
    """The reader misses the top seat's pon for long enough that the fused table loses it; the seat's discard
    meanwhile is still taken (seen at a real table: a pon missed for seven reads lost the hand's rest)."""
    pon = {T: (("5z5z5z", 1),)}
    follower = started(table({B: "1z", R: "9p", T: "4z"}, pon))
    missed = follow([table({B: "1z", R: "9p", T: "4z"})] * STEADY, follower)
    assert any(p.side is T for p in missed[-1].pending)  # the meld's tiles wait as hidden
    updates = [follower.update(table({B: "1z", R: "9p", T: "4z2p"}), i, 2) for i in range(TAKE)]
    assert events(updates) == [D(2, "2p")]
    assert clashes(missed + updates) == []
    assert follower.accepted.seat(T).melds == TableSnapshot.of(table(melds=pon)).seat(T).melds  # the pon is kept


@pytest.mark.parametrize(("fuse", "unseen_before"), [(True, 0), (True, STEADY), (False, 0), (False, QUICK)])
def test_a_call_while_an_earlier_meld_of_the_caller_is_not_seen(fuse, unseen_before):
    """The right seat's pon of 1z is not seen (for ``unseen_before`` frames before, and) while it pons the bottom
    seat's 5p (seen filming a logged game with the shipped models): the call is taken, the 1z pon kept."""
    old_pon, new_pon = ("1z1z1z", 2), ("5p5p5p", 0)
    follower = started(table({B: "1z", R: "9p"}, {R: (old_pon,)}), fuse=fuse)
    follow([table({B: "1z5p", R: "9p"}, {R: (old_pon,)})] * TAKE, follower)
    unseen = follow([table({B: "1z5p", R: "9p"})] * unseen_before, follower)
    updates = follow([table({B: "1z", R: "9p"}, {R: (new_pon,)})] * TAKE, follower)
    assert events(unseen + updates) == [Call(1, MeldKind.PON, parse_tiles("555p"))]
    assert clashes(unseen + updates) == []
    assert len(follower.accepted.seat(R).melds) == 2


def test_a_meld_vanishing_is_hidden_then_a_contradiction():
    follower = started(table({R: "9p"}, {R: (("5p5p5p", 0),)}))
    updates = follow([table({R: "9p"})] * (STEADY + VANISH - 1), follower)  # fused away, then missing VANISH frames
    assert events(updates) == []
    assert clashes(updates) == [Clash.VANISHED]


# --- dora indicators ------------------------------------------------------------------------------------------


KAN = {T: (("3z3z3z3z", 1),)}  # an open kan on the table (from across)
TWO_KANS = {T: (("3z3z3z3z", 1),), L: (("7m7m", None),)}


@pytest.mark.parametrize(
    ("kans", "start", "frames", "expected", "opening", "contradictions"),
    [
        (KAN, "4p", ["4p1s"] * TAKE, [DoraFlip(Tile.parse("1s"))], [], []),
        (TWO_KANS, "4p1s", ["4p1s7z"] * TAKE, [DoraFlip(Tile.parse("7z"))], [], []),
        ({}, "", ["4p"] * TAKE, [], [Tile.parse("4p")], []),  # the hand's first indicator goes with the hand's start
        ({}, "4p", [""] * 3 + ["4p"] * 2, [], [], []),  # hidden for a while
        (KAN, "4p", ["4p1s", "4p", "4p"], [], [], []),  # one misread frame
        ({}, "4p", ["5p"] * REPORT, [], [], [Clash.DORA_CHANGED]),
        ({}, "4p", ["4p1s"] * TAKE, [], [], [Clash.EXTRA_INDICATOR]),  # no kan: an ura indicator turned at a win
        (KAN, "4p1s", ["4p1s7z"] * TAKE, [], [], [Clash.EXTRA_INDICATOR]),
    ],
)
def test_dora_indicators(kans, start, frames, expected, opening, contradictions):
    follower = started(table(melds=kans, dora=start))
    updates = follow([table(melds=kans, dora=text) for text in frames], follower)
    assert events(updates) == expected
    assert [u.opening_indicator for u in updates if u.opening_indicator] == opening
    assert clashes(updates) == contradictions


def test_a_closed_kan_and_its_indicator_in_one_change():
    follower = started(table(dora="4p"))
    updates = follow([table(melds={B: (("5p5p", None),)}, dora="4p1s")] * TAKE, follower)
    assert events(updates) == [ClosedKan(0, parse_tiles("5555p")), DoraFlip(Tile.parse("1s"))]
    assert played(events(updates)).dora_indicators == parse_tiles("4p1s")


# --- hands laid face up -----------------------------------------------------------------------------------------

PONDS = {B: "1z9m^2z", R: "9p1s", T: "4z8m", L: "6z9s3m"}
WIN = "234m567m345p678s5p"  # 13 tiles: waiting on 5p


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        # a tsumo: the hand laid face up, the winning tile set apart
        ([table(PONDS, dora="4p", hands={B: WIN + "+0p"})] * SHOWN, [Reveal(0, B, parse_tiles(WIN), Tile.parse("0p"))]),
        # one frame is no reveal (a hand being laid down, a misread)
        ([table(PONDS, dora="4p", hands={B: WIN + "+0p"}), table(PONDS, dora="4p")] * 2, []),
        # then the ura indicator turned beside the dora indicator: the reveal again, with it; no contradiction
        (
            [table(PONDS, dora="4p", hands={B: WIN + "+0p"})] * SHOWN
            + [table(PONDS, dora="4p7z", hands={B: WIN + "+0p"})] * SHOWN,
            [
                Reveal(0, B, parse_tiles(WIN), Tile.parse("0p")),
                Reveal(0, B, parse_tiles(WIN), Tile.parse("0p"), ura=parse_tiles("7z")),
            ],
        ),
        # a hand of 12 face-up tiles is no open hand (13 at least, 3 fewer per meld)
        ([table(PONDS, dora="4p", hands={B: WIN[:-2]})] * 3, []),
    ],
)
def test_a_hand_laid_face_up_is_revealed_once_settled(frames, expected):
    follower = started(table(PONDS, dora="4p"))
    updates = follow(frames, follower)
    assert [r for u in updates for r in u.revealed] == expected
    assert events(updates) == [] and clashes(updates) == []


def test_a_ron_takes_the_last_discard_out_of_its_pond_and_sets_it_apart():
    follower = started(table(PONDS, dora="4p"))
    follow([table({**PONDS, L: "6z9s3m5p"}, dora="4p")] * TAKE, follower)  # the left seat discards 5p
    won = table(PONDS, dora="4p", hands={B: WIN + "+5p"})  # the tile leaves the left pond, set apart at the bottom
    updates = follow([won] * (VANISH + 3), follower)
    revealed = [r for u in updates for r in u.revealed]
    assert revealed == [Reveal(0, B, parse_tiles(WIN), Tile.parse("5p"), from_pond=True)]
    assert events(updates) == [] and clashes(updates) == []  # no vanished tile: the winner took it


ROBBER = "234m567m34p678s11z"  # 13 tiles waiting on 2p and 5p


def test_a_ron_on_an_added_kan_takes_its_fourth_tile_back_to_the_pon():
    """搶槓: the kan made last goes back to its pon as the winner lays the tile apart: a reveal from the kan, no
    vanished tile."""
    pon, kan = {R: (("5p5p5p", 0),)}, {R: (("5p5p5p5p", 0),)}
    follower = started(table(PONDS, pon, dora="4p"))
    made = follow([table(PONDS, kan, dora="4p")] * TAKE, follower)
    assert events(made) == [AddedKan(1, Tile.parse("5p"))]
    updates = follow([table(PONDS, pon, dora="4p", hands={B: ROBBER + "+5p"})] * (VANISH + 3), follower)
    assert [r for u in updates for r in u.revealed] == [
        Reveal(0, B, parse_tiles(ROBBER), Tile.parse("5p"), from_pond=True)
    ]
    assert follower.accepted.seat(R).melds[0].tiles == parse_tiles("555p")
    assert events(updates) == [] and clashes(updates) == []


@pytest.mark.parametrize(
    ("after_kan", "frames", "contradictions"),
    [
        ([], [table(PONDS, {R: (("5p5p5p", 0),)}, dora="4p")] * 2
             + [table(PONDS, {R: (("5p5p5p5p", 0),)}, dora="4p")] * 2, []),  # an arm over the tile, then it shows again
        ([], [table(PONDS, {R: (("5p5p5p", 0),)}, dora="4p")] * GONE, [Clash.VANISHED]),  # no hand open: not robbed
        (["9p1s2s"],
         [table({**PONDS, R: "9p1s2s"}, {R: (("5p5p5p", 0),)}, dora="4p", hands={B: ROBBER + "+5p"})] * GONE,
         [Clash.VANISHED]),  # the kan's owner discarded since: its tile is no more open to a ron
    ],
)  # fmt: skip
def test_an_added_kan_back_to_its_pon_otherwise_is_hidden_then_a_contradiction(after_kan, frames, contradictions):
    follower = started(table(PONDS, {R: (("5p5p5p", 0),)}, dora="4p"))
    follow([table(PONDS, {R: (("5p5p5p5p", 0),)}, dora="4p")] * TAKE, follower)
    for pond in after_kan:
        follow([table({**PONDS, R: pond}, {R: (("5p5p5p5p", 0),)}, dora="4p")] * TAKE, follower)
    updates = follow(frames, follower)
    assert events(updates) == [] and clashes(updates) == contradictions


def test_without_an_open_hand_the_last_discard_leaving_is_still_a_contradiction():
    follower = started(table(PONDS, dora="4p"))
    follow([table({**PONDS, L: "6z9s3m5p"}, dora="4p")] * TAKE, follower)
    updates = follow([table(PONDS, dora="4p")] * GONE, follower)
    assert clashes(updates) == [Clash.VANISHED]


def test_a_contradiction_that_no_longer_holds_is_resolved():
    follower = started(table({B: "1z9m"}))
    reported = follow([table({B: "2z8m"})] * REPORT, follower)
    assert clashes(reported) == [Clash.POND_CHANGED]
    back = follow([table({B: "1z9m"})] * REPORT, follower)
    assert [s for u in back for s in u.resolved] == [B]


@pytest.mark.parametrize("fuse", [True, False])
def test_a_pond_tile_read_otherwise_steadily_is_a_discard_to_correct(fuse):
    """Fused, the discard the follower took last, read as another tile for STEADY frames soon after it landed, is the
    game's to correct (read wrong as it landed): no event, no contradiction, the accepted pond as now read. Frame by
    frame alone, one frame is no evidence to correct a discard by; and an older tile read otherwise (the last
    discard called away and the seat's next one in its place, say) is a contradiction."""
    follower = started(table({B: "1z"}), fuse=fuse)
    assert events(follow([table({B: "1z9m"})] * TAKE, follower)) == [D(0, "9m")]
    updates = follow([table({B: "1z8m"})] * REPORT, follower)
    corrected = [m for u in updates for m in u.misread]
    if fuse:
        assert corrected == [(0, 1, Tile.parse("9m"), Tile.parse("8m"))] and clashes(updates) == []
        assert follower.accepted.seat(B).pond == tuple(parse_tiles("1z8m"))
    else:
        assert corrected == [] and clashes(updates) == [Clash.POND_CHANGED]
    later = started(table({B: "1z"}), fuse=fuse)
    follow([table({B: "1z9m"})] * TAKE + [table({B: "1z9m"})] * (WINDOW + STEADY), later)
    assert clashes(follow([table({B: "1z8m"})] * REPORT, later)) == [Clash.POND_CHANGED]


def test_a_call_out_of_turn_order_and_the_callers_discard_in_one_change():
    """The engine expects the seat after the discarder to discard; a pon by the seat across takes the turn."""
    follower = started(table({B: "1z", R: "9p"}))
    follow([table({B: "1z5p", R: "9p"})] * TAKE, follower)
    meld = {T: (("5p5p5p", 1),)}
    updates = [follower.update(table({B: "1z", R: "9p", T: "2s"}, meld), i, expected_seat=1) for i in range(TAKE)]
    assert events(updates) == [Call(2, MeldKind.PON, parse_tiles("555p")), D(2, "2s")]
    assert clashes(updates) == []


# --- the bundled demo -----------------------------------------------------------------------------------------


def test_the_demo_recording_followed_by_its_own_labels():
    """The demo, read by the camera's reader from the recording's own labels, each frame shown ``hold`` times (the
    change gate reads it once and finds it unchanged after): its discards in order, the riichi on the third of the
    East seat's, South's pon of North's 6z (the tile gone from North's pond), South's added kan and its kan dora,
    no contradiction, and East's winning hand laid down read as its reveal (the table's centre kept)."""
    from device.camera.sources import Frame
    from device.commands.run import recorded_reader
    from device.demo import RECORDING

    manifest = json.loads((RECORDING / "recording.json").read_text())
    reader = recorded_reader(RECORDING)
    follower = TableFollower(camera_seat=0)  # East sits at the frame's bottom edge
    updates, frame_index = {}, 0
    for entry in manifest["frames"]:
        image = cv2.imread(str(RECORDING / entry["file"]))
        observation = reader(Frame(image, origin=entry["file"])).table
        got = [follower.update(observation, frame_index)]
        got += [follower.hold(frame_index + k) for k in range(1, entry["hold"])]
        frame_index += entry["hold"]
        updates[entry["file"]] = got
    win_frame = manifest["frames"][-1]["file"]
    before_win = [u for name, got in updates.items() if name != win_frame for u in got]
    expected = [
        D(0, "1z"), D(1, "9p"), D(2, "4z"), D(3, "9s"),
        D(0, "9m"), D(1, "1s"), D(2, "8m"), D(3, "3m"),
        D(0, "2z", riichi=True), D(1, "7z"), D(2, "2p"), D(3, "6z"),
        Call(1, MeldKind.PON, parse_tiles("666z")), D(1, "1m"), D(2, "8p"), D(3, "3z"),
        D(0, "4s"), AddedKan(1, Tile.parse("6z")), DoraFlip(Tile.parse("2m")), D(1, "5s"), D(2, "1p"), D(3, "7p"),
    ]  # fmt: skip
    assert events(before_win) == expected
    assert played(expected[:12]).sticks == 1  # the engine takes the discards: the riichi stick is on the table
    assert [u.opening_indicator for u in before_win if u.opening_indicator] == [Tile.parse("4p")]
    assert clashes(before_win) == []
    win = updates[win_frame]
    assert events(win) == [] and clashes(win) == []  # the hand laid down makes no discard or call
    # East's winning hand laid face up, the winning tile set apart (read about the centre the reader keeps)
    revealed = {(r.seat, format_tiles(r.hand), r.apart) for u in win for r in u.revealed}
    assert revealed == {(0, "234567m345p678s5p", Tile.parse("0p"))}  # in the order laid
    assert follower.accepted.seat(B).pond == parse_tiles("1z9m2z4s")
    assert follower.accepted.seat(L).pond == parse_tiles("9s3m3z7p")  # the 6z South called is gone
