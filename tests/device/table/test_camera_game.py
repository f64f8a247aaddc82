"""The camera game: table reads frame by frame (built from mpsz text as real ``Detection`` s, see
``tests/vision/read/table_frames.py``; an 800x600 frame) played into a real ``GameSession``.

Each frame is observed once and held :data:`HOLDS` times (the loop reads a still table once, then finds it unchanged;
a change is fused over ``QUICK`` frames, then settled over ``SETTLE``), and the engine's own invariants (136 tiles
accounted for, points conserved, hand sizes) are checked after each.
"""

from __future__ import annotations

import pytest

from device.table.camera_game import CameraGame, NothingPending
from device.table.game_session import GameSession
from engine.errors import IllegalAction
from engine.game.events import AddedKan, Call, ClosedKan, Discard, DoraFlip, Draw, HandStart, Ron, RonClaim, Tsumo
from engine.game.table import Phase
from engine.melds import MeldKind
from engine.rules import preset
from engine.tiles import Tile, parse_tiles
from tests.vision.read.table_frames import B, L, R, T, table
from vision.read.follow import REVEAL_SETTLE, SETTLE
from vision.read.fusion import QUICK, STEADY
from vision.read.table import FrameSide, TableObservation

SIDE = {"B": B, "R": R, "T": T, "L": L}
#: Holds after each frame read for a change the game makes to be taken on its own frames (fused, then settled; a
#: hand laid face up, the longest, settled a frame longer).
HOLDS = QUICK + max(SETTLE, REVEAL_SETTLE) - 2
#: Holds after a frame read for a change no move makes (a tile read otherwise) to be reported.
STEADY_HOLDS = STEADY + SETTLE - 2


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def camera(**options) -> CameraGame:
    return CameraGame(GameSession(preset("standard")), **options)


def detections_of(frame: TableObservation | None) -> tuple:
    if frame is None:
        return ()
    return tuple(d for s in frame.seats for part in (s.hand, s.pond, s.wall) for d in part) + tuple(
        d for s in frame.seats for m in s.melds for d in m.detections
    )


def show(cam: CameraGame, frames: list[TableObservation | None], holds: int = HOLDS) -> str:
    """Each frame observed (stored as frame ``f<n>``, n counting observed and held frames), then held ``holds``
    times; the invariants after each. Returns the last frame's id."""
    frame_id = ""
    for frame in frames:
        frame_id = f"f{cam.frame + 1}"
        cam.observe(frame, frame_id, detections_of(frame))
        cam.session.game.validate()
        for _ in range(holds):
            cam.hold()
            cam.session.game.validate()
    return frame_id


def script(moves: str, dora: str = "4p", start: dict[FrameSide, str] | None = None) -> list[TableObservation]:
    """The frames of a hand: a fresh deal, then one frame per move (``B:1z`` the bottom seat discards 1z, ``B:^2z``
    sideways: riichi), each showing every pond so far."""
    ponds = dict(start or {})
    frames = [table(ponds, dora=dora)]
    for move in moves.split():
        side, tile = move.split(":")
        ponds[SIDE[side]] = ponds.get(SIDE[side], "") + tile
        frames.append(table(ponds, dora=dora))
    return frames


def ponds_of(moves: str) -> dict[FrameSide, str]:
    ponds: dict[FrameSide, str] = {}
    for move in moves.split():
        side, tile = move.split(":")
        ponds[SIDE[side]] = ponds.get(SIDE[side], "") + tile
    return ponds


def game_events(cam: CameraGame) -> list:
    return list(cam.session.game.events)


def D(seat: int, text: str, riichi: bool = False) -> Discard:
    return Discard(seat, Tile.parse(text), riichi=riichi)


def turns(*discards: Discard) -> list:
    """Discards in turn as the engine holds them: each after its seat's draw (tile unknown)."""
    return [e for d in discards for e in (Draw(d.seat), d)]


START = HandStart(dora_indicator=Tile.parse("4p"))
FIRST_GO = "B:1z R:9p T:4z L:6z B:9m R:1s T:8m L:9s B:^2z R:7z T:1p L:3m"
FIRST_GO_EVENTS = [
    START,
    *turns(D(0, "1z"), D(1, "9p"), D(2, "4z"), D(3, "6z"), D(0, "9m"), D(1, "1s"), D(2, "8m"), D(3, "9s")),
    *turns(D(0, "2z", riichi=True), D(1, "7z"), D(2, "1p"), D(3, "3m")),
]


# --- following a hand -------------------------------------------------------------------------------------------


def test_a_hand_of_discards_in_turn_with_riichi_is_played_into_the_game():
    cam = camera()
    show(cam, script(FIRST_GO))
    assert game_events(cam) == FIRST_GO_EVENTS
    game = cam.session.game
    assert game.dora_indicators == parse_tiles("4p")
    assert game.riichi(0) and game.sticks == 1 and game.scores[0] == 24000
    state = cam.state()
    assert state["status"] == "following" and state["contradictions"] == []
    kept = state["events"]
    assert [e["event"]["type"] for e in kept] == ["hand_start"] + ["discard"] * 12
    assert kept[9]["text"] == "Seat 1 (E) discards 2z and declares riichi"
    assert [e["seq"] for e in kept] == [0, *range(2, 25, 2)]  # each discard after the draw the engine inserted
    assert kept[1]["frame_id"] == f"f{HOLDS + 2}"  # the discard settled on the frame's hold: the frame it was seen in


BEFORE = {B: "1z", R: "9p"}  # the hand so far: seat 2 (the top) is due


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        # an arm over the bottom pond for several frames (read empty), then the pond back: no event
        ([table({R: "9p"}, dora="4p")] * 4 + [table(BEFORE, dora="4p")], []),
        # the arm leaves a tile that is read 3s for one frame, then 2s: one discard, the right one
        (
            [table({**BEFORE, T: "3s"}, dora="4p"), table({**BEFORE, T: "2s"}, dora="4p")],
            turns(D(2, "2s")),
        ),
        # the whole frame unreadable (a hand over the lens) for a while: nothing happens
        ([None] * 4 + [table(BEFORE, dora="4p")], []),
    ],
)
def test_what_hides_or_misreads_a_tile_for_a_while_makes_no_false_event(frames, expected):
    cam = camera()
    show(cam, script("B:1z R:9p"))
    before = game_events(cam)
    for frame in frames:  # one frame each, no hold: the change gate read every one as a new table
        cam.observe(frame, None, detections_of(frame))
        cam.session.game.validate()
    for _ in range(HOLDS):
        cam.hold()
    assert game_events(cam)[len(before) :] == expected
    assert cam.state()["contradictions"] == []


@pytest.mark.parametrize(
    ("dora", "moves", "clash", "seat", "detail"),
    [
        # a discard by a seat whose turn it is not: the follower refuses it (the turn from the engine)
        ("4p", "B:1z T:4z", "out_of_turn", 2, "4z by seat 2, seat 1 is due"),
        # two pond tiles read otherwise, and it holds (one alone is a discard read wrong as it landed: corrected)
        ("4p", "B:1z R:9p T:4z L:6z B:2z R:3s R:=8p4s", "pond_changed", 1, "9p3s -> 8p4s"),
        # a fifth white dragon: the rules refuse the discard (every copy in sight), the game stays as it was
        ("5z", "B:5z R:5z T:5z L:5z", "refused", 3, "a set has four of each tile"),
    ],
)
def test_a_contradiction_is_reported_with_its_frame_and_the_game_is_unchanged(dora, moves, clash, seat, detail):
    cam = camera()
    frames = [table({}, dora=dora)]
    ponds: dict[FrameSide, str] = {}
    for move in moves.split():
        side, tile = move.split(":")
        if tile.startswith("="):  # the seat's pond read otherwise
            ponds[SIDE[side]] = tile[1:]
        else:
            ponds[SIDE[side]] = ponds.get(SIDE[side], "") + tile
        frames.append(table(ponds, dora=dora))
    show(cam, frames[:-1])
    before = game_events(cam)
    frame_id = show(cam, frames[-1:], holds=STEADY_HOLDS)
    assert game_events(cam) == before
    reported = cam.state()["contradictions"]
    assert [(c["clash"], c["seat"]) for c in reported] == [(clash, seat)]
    assert detail in reported[0]["detail"]
    assert reported[0]["frame_id"] == frame_id
    cam.resync()  # a person says the table is right now: the game was fixed by hand, or is right
    assert cam.state()["contradictions"] == []


def test_after_a_resync_the_follower_takes_the_table_as_it_is():
    cam = camera()
    show(cam, script("B:1z T:4z"))  # out of turn: refused
    cam.resync()
    show(cam, [table({B: "1z", R: "9p", T: "4z"}, dora="4p")])  # the right seat discards: seat 1 was due
    assert game_events(cam)[-2:] == turns(D(1, "9p"))


@pytest.mark.parametrize(
    ("camera_seat", "moves", "expected"),
    [
        (None, "B:1z R:9p", turns(D(0, "1z"), D(1, "9p"))),
        # seat 2 at the bottom edge: the dealer (seat 0) sits across, seat 1 at the left
        (2, "T:1z L:9p B:4z", turns(D(0, "1z"), D(1, "9p"), D(2, "4z"))),
        (3, "R:1z T:9p", turns(D(0, "1z"), D(1, "9p"))),
    ],
)
def test_the_camera_seat_names_the_game_seats(camera_seat, moves, expected):
    cam = camera(camera_seat=camera_seat)
    show(cam, script(moves))
    assert game_events(cam) == [START, *expected]


def test_setting_the_camera_seat_mid_hand_names_the_next_discards_by_it():
    cam = camera()
    show(cam, script("B:1z"))
    cam.set_camera_seat(3)  # seat 3 at the bottom edge: the right edge holds seat 0
    show(cam, [table({B: "1z", R: "9p"}, dora="4p")], STEADY_HOLDS)  # seat 0 discarding again: out of turn
    assert cam.state()["contradictions"][-1]["clash"] == "out_of_turn"
    with pytest.raises(ValueError):
        cam.set_camera_seat(4)


# --- calls, kans and dora flips ---------------------------------------------------------------------------------


def test_a_pon_then_an_added_kan_with_its_dora_flip_and_the_replacement_draw():
    cam = camera()
    dora = "4p"
    frames = script("B:7s", dora)
    pon = {R: (("7s7s7s", 0),)}  # the called tile leftmost: from the bottom seat, its kamicha
    ponds: dict[FrameSide, str] = {}
    for move in ["R:9p", "T:4z", "L:6z", "B:1z"]:
        side, tile = move.split(":")
        ponds[SIDE[side]] = ponds.get(SIDE[side], "") + tile
        frames.append(table(ponds, pon, dora))
    kan = {R: (("7s7s7s7s", 0),)}
    frames.append(table(ponds, kan, "4p1s"))
    frames.append(table({**ponds, R: "9p2p"}, kan, "4p1s"))
    show(cam, [*frames[:2], table({}, pon, dora), *frames[2:]])
    assert game_events(cam) == [
        START,
        *turns(D(0, "7s")),
        Call(1, MeldKind.PON, parse_tiles("777s")),
        D(1, "9p"),  # after a call: no draw
        *turns(D(2, "4z"), D(3, "6z"), D(0, "1z")),
        Draw(1),
        AddedKan(1, Tile.parse("7s")),
        DoraFlip(Tile.parse("1s")),
        Draw(1),  # the kan's replacement tile
        D(1, "2p"),
    ]
    game = cam.session.game
    assert game.dora_indicators == parse_tiles("4p1s")
    assert [m.notation() for m in game.melds(1)] == ["kakan:7s777s/L"]  # the called 7s from the left
    assert [e["event"]["type"] for e in cam.state()["events"]][-4:] == ["discard", "added_kan", "dora_flip", "discard"]


@pytest.mark.xfail(
    strict=True,
    reason="filmed with the models (mjx_encdec-kan-opened-01 E1-0, 12 events and a tsumo lost): once the wall stack "
    "beside an added kan of blank White dragons was drawn, zone reads read the kan as a pon and its fourth tile as a "
    "sideways tile at the end of the seat's pond. The fusion takes both as moves (a robbed kan, a pond one longer); "
    "the follower refuses the pond's tile (in the film out of turn; here, when the seat is due, as its riichi "
    "discard: riichi needs a closed hand), and the seat's real discard, read before it, is never taken (in the film "
    "tile_inserted, then the rest of the hand out of turn). A kan going back to three is a move only just after it "
    "was added (a robbed kan): not built",
)
def test_an_added_kan_read_as_a_pon_and_a_pond_tile_long_after_it_was_added_is_a_misreading():
    cam = camera()
    dora = "4p1s"
    pon, kan = {R: (("7s7s7s", 0),)}, {R: (("7s7s7s7s", 0),)}
    ponds = {B: "7s1z", R: "9p2p", T: "4z", L: "6z"}
    frames = script("B:7s", "4p")
    frames += [table({B: "", R: "9p"}, pon, "4p")]  # (the called 7s gone from the bottom pond)
    frames += [table({B: "", R: "9p", T: "4z"}, pon, "4p"), table({R: "9p", T: "4z", L: "6z"}, pon, "4p")]
    frames += [table({B: "1z", R: "9p", T: "4z", L: "6z"}, pon, "4p")]
    frames += [table({B: "1z", R: "9p", T: "4z", L: "6z"}, kan, dora), table({**ponds, B: "1z"}, kan, dora)]
    ponds = {B: "1z", R: "9p2p", T: "4z", L: "6z"}
    # the kan read as a pon and its fourth tile as the right pond's sideways last tile, turn after turn
    misread = [
        table({**ponds, R: "9p2p^7s", T: "4z3s"}, pon, dora),
        table({**ponds, R: "9p2p^7s", T: "4z3s", L: "6z5s"}, pon, dora),
        table({**ponds, R: "9p2p^7s", T: "4z3s", L: "6z5s", B: "1z6s"}, pon, dora),
        table({**ponds, R: "9p2p3m^7s", T: "4z3s", L: "6z5s", B: "1z6s"}, pon, dora),  # its real discard, 3m
    ]
    right = table({**ponds, R: "9p2p3m", T: "4z3s", L: "6z5s", B: "1z6s"}, kan, dora)
    show(cam, [*frames, *misread, right, right])
    assert game_events(cam)[-8:] == turns(D(2, "3s"), D(3, "5s"), D(0, "6s"), D(1, "3m"))
    assert not any(isinstance(e, Discard) and e.tile == Tile.parse("7s") and e.seat == 1 for e in game_events(cam))


def test_a_closed_kan_its_dora_flip_and_the_replacement_draw():
    cam = camera()
    kan = {R: (("7m7m", None),)}  # the two middle tiles shown, the ends face down
    show(cam, [*script("B:1z"), table({B: "1z"}, kan, "4p1s"), table({B: "1z", R: "2p"}, kan, "4p1s")])
    assert game_events(cam)[3:] == [
        Draw(1),
        ClosedKan(1, parse_tiles("7777m")),
        DoraFlip(Tile.parse("1s")),
        Draw(1),  # the kan's replacement tile
        D(1, "2p"),
    ]


# --- undo and fix -----------------------------------------------------------------------------------------------


def test_undo_of_a_camera_event_takes_the_game_back_to_before_it():
    cam = camera()
    show(cam, script("B:1z R:9p T:4z"))
    kept = cam.state()["events"]
    cam.undo(kept[2]["id"])  # the right seat's 9p, and the 4z after it
    assert game_events(cam) == [START, *turns(D(0, "1z"))]
    assert [e["id"] for e in cam.state()["events"]] == [kept[0]["id"], kept[1]["id"]]
    show(cam, [table({B: "1z", R: "9p", T: "4z"}, dora="4p")] * 2)  # resynced: the table as seen makes no event
    assert game_events(cam) == [START, *turns(D(0, "1z"))]
    with pytest.raises(KeyError):
        cam.undo(999)


@pytest.mark.parametrize(
    ("which", "side", "tile", "expected", "texts"),
    [
        # the right seat's 9p was an 8p: fixed, and the top seat's 4z after it applied again
        (2, R, "8p", turns(D(0, "1z"), D(1, "8p"), D(2, "4z")), ["Seat 2 (S) discards 8p", "Seat 3 (W) discards 4z"]),
        # the latest discard fixed
        (3, T, "3z", turns(D(0, "1z"), D(1, "9p"), D(2, "3z")), ["Seat 2 (S) discards 9p", "Seat 3 (W) discards 3z"]),
    ],
)
def test_a_fix_replaces_the_event_keeps_the_later_ones_and_corrects_the_frame(which, side, tile, expected, texts):
    corrected = []
    cam = camera(correct=lambda frame_id, index, tile: corrected.append((frame_id, index, tile)))
    frames = script("B:1z R:9p T:4z")
    show(cam, frames)
    kept = cam.state()["events"]
    fixed = cam.fix(kept[which]["id"], Tile.parse(tile))
    assert game_events(cam) == [START, *expected]
    assert fixed.event == expected[2 * which - 1]
    assert [e["text"] for e in cam.state()["events"]][-2:] == texts
    frame = frames[which]  # the frame the tile was read in: its detection corrected
    index = detections_of(frame).index(frame.seat(side).pond[-1])
    assert corrected == [(kept[which]["frame_id"], index, Tile.parse(tile))]


def test_a_fix_the_rules_refuse_leaves_the_game_as_it_was():
    cam = camera()
    show(cam, script("B:1z R:9p T:4z"))
    before, kept = game_events(cam), cam.state()["events"]
    with pytest.raises(IllegalAction):
        cam.fix(kept[2]["id"], seat=3)  # seat 3 did not have the turn
    assert game_events(cam) == before
    assert cam.state()["events"] == kept


# --- the win ------------------------------------------------------------------------------------------------------

WIN = "234m567m345p678s5p"  # 13 tiles waiting on 5p (a single wait)


def test_a_tsumo_laid_down_is_scored_by_the_engine_and_settled_on_confirm():
    cam = camera()
    frames = script(FIRST_GO)
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    show(cam, [*frames, laid])
    pending = cam.state()["pending"]
    assert (pending["kind"], pending["seat"], pending["discarder"], pending["win_tile"]) == ("tsumo", 0, None, "0p")
    assert pending["furiten"] is False and pending["error"] == ""
    yaku = {y["name"] for y in pending["preview"]["wins"][0]["score"]["yaku"]}
    assert {"Riichi", "Ippatsu", "Menzen Tsumo", "Tanyao"} <= yaku  # from the game: riichi, ippatsu, dora
    assert pending["preview"]["deltas"] == [25000, -8000, -8000, -8000]  # baiman, 8000 all, the riichi stick
    assert cam.session.game.history == []  # nothing moved yet
    result = cam.confirm()
    game = cam.session.game
    assert game.hand is None and result["deltas"] == pending["preview"]["deltas"]
    assert game.scores == [49000, 17000, 17000, 17000]
    assert game.events[-2:] == [Draw(0), Tsumo(0, parse_tiles(WIN + "0p"), Tile.parse("0p"))]
    assert cam.state()["pending"] is None
    with pytest.raises(NothingPending):
        cam.confirm()


@pytest.mark.parametrize(
    ("hand", "win_tile"),
    [
        (WIN + "+0p", "0p"),  # the winning tile set apart
        (WIN + "0p", "0p"),  # none set apart (the gap not seen): the one that scores best, the rightmost of equals
        ("0p" + WIN, "5p"),
    ],
)
def test_a_tsumo_s_winning_tile(hand, win_tile):
    cam = camera()
    show(cam, [*script(FIRST_GO), table(ponds_of(FIRST_GO), dora="4p", hands={B: hand})])
    pending = cam.state()["pending"]
    assert (pending["kind"], pending["win_tile"]) == ("tsumo", win_tile)
    assert pending["preview"]["deltas"] == [25000, -8000, -8000, -8000]


def test_after_a_hand_the_cleared_table_and_a_new_deal_start_the_next_hand():
    cam = camera()
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    show(cam, [*script(FIRST_GO), laid])
    cam.confirm()
    show(cam, [laid, table({}), table({}, dora="7z"), table({B: "5s"}, dora="7z")])
    game = cam.session.game
    assert (game.round_name, game.honba, game.dora_indicators) == ("East 1", 1, parse_tiles("7z"))  # the dealer won
    assert game.events[-3:] == [HandStart(dora_indicator=Tile.parse("7z")), *turns(D(0, "5s"))]
    assert [e["event"]["type"] for e in cam.state()["events"]] == ["hand_start", "discard"]


@pytest.mark.parametrize(
    ("seen", "expected"),
    [
        # reads fell behind: the deal and three discards went by unseen; the hand is joined, the discards inferred
        ({B: "1z", R: "9p", T: "2s"}, [START, *turns(D(0, "1z"), D(1, "9p"), D(2, "2s"))]),
        # a riichi among them (its tile sideways)
        ({B: "1z^5m", R: "9p", T: "2s", L: "3m"},
         [START, *turns(D(0, "1z"), D(1, "9p"), D(2, "2s"), D(3, "3m"), D(0, "5m", riichi=True))]),
        # ponds no turn order explains (the seat after the dealer ahead of it): nothing is guessed
        ({B: "1z", R: "9p2m"}, []),
        ({R: "9p"}, []),
        # more than two go-rounds: a call could hide among them, so the table waits for a person or the next deal
        ({B: "1z2z3z", R: "9p8p7p", T: "2s3s3s"}, []),
    ],
)  # fmt: skip
def test_a_hand_whose_deal_the_camera_missed_is_joined_from_its_early_discards(seen, expected):
    cam = camera()
    show(cam, [table(seen, dora="4p")], holds=3)
    assert game_events(cam) == expected
    if expected:  # followed on from there: the next seat's discard is taken as usual
        after = {**seen, L: seen.get(L, "") + "7z"} if len(seen) < 4 else {**seen, R: seen[R] + "7z"}
        show(cam, [table(after, dora="4p")])
        assert game_events(cam)[-1] == (D(3, "7z") if len(seen) < 4 else D(1, "7z"))
        assert cam.state()["contradictions"] == []
        assert all("taken in turn" in e["text"] for e in cam.state()["events"][1 : len(expected) // 2 + 1])


@pytest.mark.parametrize(
    ("frames", "joined", "then"),
    [
        # reads slower than the table (a Pi's whole read lasts more than a turn): each frame shows a discard more; the
        # hand is joined on the third with the discards seen twice, and the follower takes the one seen once
        ([{B: "1z"}, {B: "1z", R: "9p"}, {B: "1z", R: "9p", T: "2s"}], [D(0, "1z"), D(1, "9p")], [D(2, "2s")]),
        ([{B: "1z"}, {B: "1z"}, {B: "1z", R: "9p"}], [D(0, "1z")], [D(1, "9p")]),
        # a tile read otherwise on the way (1z then 2z): the frames before it are no ground; joined two frames on
        ([{B: "1z"}, {B: "2z", R: "9p"}, {B: "2z", R: "9p", T: "2s"}, {B: "2z", R: "9p", T: "2s", L: "3m"}],
         [D(0, "2z"), D(1, "9p"), D(2, "2s")], [D(3, "3m")]),
        # a pond grown out of turn (the top seat before the right one) is no hand under way
        ([{B: "1z"}, {B: "1z", T: "2s"}, {B: "1z", T: "2s", R: "9p"}], None, None),
    ],
)  # fmt: skip
def test_a_hand_whose_reads_fell_behind_the_table_is_joined_from_frames_grown_in_turn(frames, joined, then):
    cam = camera()
    show(cam, [table(ponds, dora="4p") for ponds in frames], holds=0)
    if joined is None:
        assert game_events(cam) == []
        return
    assert game_events(cam) == [START, *turns(*joined)]
    cam.hold()  # the last frame seen again
    assert game_events(cam) == [START, *turns(*joined, *then)]
    assert cam.state()["contradictions"] == []


def test_a_riichi_read_late_corrects_its_discard_and_the_hand_goes_on():
    """Filmed with the models: a riichi tile read upright while its discard settled, sideways only after; the
    discard was taken without its riichi, and the hand's win was scored without it."""
    cam = camera()
    go = "B:1z R:9p T:4z L:6z B:2z"
    show(cam, script(go))
    assert game_events(cam)[-1] == D(0, "2z") and not cam.session.game.riichi(0)
    ponds = ponds_of(go)
    # the same pond, its last tile now lying sideways (a tile read otherwise: fused over STEADY frames)
    show(cam, [table({**ponds, B: "1z^2z"}, dora="4p")], holds=STEADY_HOLDS + SETTLE)
    assert game_events(cam)[-1] == D(0, "2z", riichi=True)
    assert cam.state()["contradictions"] == []
    show(cam, [table({**ponds, B: "1z^2z", R: "9p1s"}, dora="4p")])
    assert game_events(cam)[-2:] == turns(D(1, "1s"))
    game = cam.session.game  # the riichi stands once the next seat has drawn: its stick on the table
    assert game.riichi(0) and game.sticks == 1 and game.scores[0] == 24000


def test_a_riichi_read_on_an_older_discard_is_no_riichi():
    """Filmed with the models (``mjx_double-ron`` E2): the right seat's first discard read sideways for a while, four
    discards after it was taken, as the top seat's tile was called. A riichi is declared with its discard, so only the
    seat's last discard, just landed, can have been read upright wrongly: the older one was taken as a riichi, the
    seat's pon that followed was refused (a player in riichi may not call), and the hand was lost."""
    cam = camera()
    go = "B:1z R:9p T:4z L:6z B:2z R:3z T:8s L:7z"
    show(cam, script(go))
    ponds = ponds_of(go)
    show(cam, [table({**ponds, B: "^1z2z"}, dora="4p")], holds=STEADY_HOLDS + SETTLE + 4)
    assert not any(isinstance(e, Discard) and e.riichi for e in game_events(cam))
    assert not cam.session.game.riichi(0)
    show(cam, [table({**ponds, B: "1z2z5m"}, dora="4p")])  # read upright again, and the seat's next discard
    assert game_events(cam)[-1] == D(0, "5m") and cam.state()["contradictions"] == []


def test_the_table_of_a_hand_just_ended_is_never_joined_but_a_new_deal_is():
    cam = camera()
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    show(cam, [*script(FIRST_GO), laid])
    cam.confirm()
    ended = len(game_events(cam))
    show(cam, [table({B: "1z", R: "9p"}, dora="4p")])  # the old table, most of it hidden: its indicator is the same
    assert len(game_events(cam)) == ended
    show(cam, [table({B: "5s", R: "6s"}, dora="7z")])  # the cleared table and the new deal missed
    assert game_events(cam)[ended:] == [HandStart(dora_indicator=Tile.parse("7z")), *turns(D(0, "5s"), D(1, "6s"))]


@pytest.mark.parametrize(
    ("moves", "hand", "furiten", "reason"),
    [
        # the left seat discards the bottom seat's wait; the bottom seat takes it from the pond and sets it apart
        ("L:5p", WIN + "+5p", False, ""),
        # the tile left in the pond (nothing set apart): the last discard wins all the same
        ("L:5p", WIN, False, ""),
        # a wait on 7z the bottom seat discarded itself: discard furiten, flagged before anyone confirms
        ("L:7z", "234m567m345p678s7z+7z", True, "discard furiten: waits 7z, own discard 7z"),
    ],
)
def test_a_ron_on_the_last_discard(moves, hand, furiten, reason):
    cam = camera()
    go = FIRST_GO.replace("L:3m", moves) if not furiten else FIRST_GO.replace("B:1z", "B:7z").replace("R:7z", "R:1z")
    go = go.replace("L:3m", moves)
    ponds = ponds_of(go)
    if "+" in hand:  # the winner took the tile from the discarder's pond
        ponds[L] = ponds[L][:-2]
    show(cam, [*script(go), table(ponds, dora="4p", hands={B: hand})])
    pending = cam.state()["pending"]
    assert (pending["kind"], pending["seat"], pending["discarder"]) == ("ron", 0, 3)
    assert pending["furiten"] is furiten and reason in pending["furiten_reason"]
    before = game_events(cam)
    if furiten:
        assert pending["preview"] is None and "furiten" in pending["error"]
        assert pending["score"]["han"] >= 1  # what the hand would have been worth, for the phones
        with pytest.raises(IllegalAction):
            cam.confirm()
        assert game_events(cam) == before
        return
    assert pending["preview"]["deltas"][3] < 0 < pending["preview"]["deltas"][0]
    cam.confirm()
    assert game_events(cam) == [*before, Ron((RonClaim(0, parse_tiles(WIN)),))]
    assert cam.session.game.history[-1].deltas == tuple(pending["preview"]["deltas"])


def test_a_ron_on_an_added_kan_s_tile_robs_the_kan():
    """搶槓: the right seat adds the fourth 7s to its pon; the left seat lays its hand open waiting on 7s, the tile
    taken from the kan (back to a pon) and set apart: a ron on the kan's tile, paid by the kan's owner, with chankan."""
    cam = camera()
    frames = script("B:7s")
    pon, kan = {R: (("7s7s7s", 0),)}, {R: (("7s7s7s7s", 0),)}
    ponds: dict[FrameSide, str] = {}
    for move in ["R:9p", "T:4z", "L:6z", "B:1z"]:
        side, tile = move.split(":")
        ponds[SIDE[side]] = ponds.get(SIDE[side], "") + tile
        frames.append(table(ponds, pon, "4p"))
    robber = "234m567m345p11z56s"  # waiting on 4s and 7s
    frames += [table(ponds, kan, "4p"), table(ponds, pon, "4p", hands={L: robber + "+7s"})]
    show(cam, [*frames[:2], table({}, pon, "4p"), *frames[2:]])
    pending = cam.state()["pending"]
    assert (pending["kind"], pending["seat"], pending["discarder"], pending["furiten"]) == ("ron", 3, 1, False)
    assert pending["preview"]["deltas"][1] < 0 < pending["preview"]["deltas"][3]
    assert pending["preview"]["deltas"][0] == pending["preview"]["deltas"][2] == 0
    before = game_events(cam)
    assert before[-2:] == [Draw(1), AddedKan(1, Tile.parse("7s"))]
    cam.confirm()
    assert game_events(cam) == [*before, Ron((RonClaim(3, parse_tiles(robber)),))]
    win = cam.session.game.history[-1].wins[0].to_dict()
    assert (win["from"], win["win_tile"]) == (1, "7s") and "Chankan" in str(win["score"]["yaku"])


@pytest.mark.parametrize(
    ("auto_confirm_s", "waits", "confirmed"),
    [
        (5.0, [4.0], False),  # not yet
        (5.0, [4.0, 1.0], True),  # its time has come: the next frame held confirms it
        (0.0, [3600.0], False),  # 0: never by itself
    ],
)
def test_a_pending_result_confirms_itself_after_auto_confirm_s(auto_confirm_s, waits, confirmed):
    clock = Clock()
    cam = camera(auto_confirm_s=auto_confirm_s, clock=clock)
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    show(cam, [*script(FIRST_GO), laid])
    pending = cam.state()["pending"]
    assert pending["auto_confirm_at"] == (clock.now + auto_confirm_s if auto_confirm_s else None)
    for wait in waits:
        clock.now += wait
        cam.hold()
    assert (cam.state()["pending"] is None) == confirmed
    assert len(cam.session.game.history) == int(confirmed)


def test_dismiss_drops_the_pending_win_and_the_hand_goes_on():
    cam = camera()
    laid = table(ponds_of(FIRST_GO), dora="4p", hands={B: WIN + "+0p"})
    show(cam, [*script(FIRST_GO), laid])
    cam.dismiss()
    assert cam.state()["pending"] is None and cam.session.game.hand is not None
    with pytest.raises(NothingPending):
        cam.dismiss()


def wall_emptied(last: str) -> tuple[CameraGame, dict[FrameSide, str]]:
    """A hand joined with its wall nearly drawn (the service restarted mid-hand): the camera takes the table as it
    is, then sees the hand's last discard (``last``, by seat 1, the right side)."""
    session = GameSession(preset("standard"))
    session.apply(HandStart(dora_indicator=Tile.parse("4p")))
    kinds = [*range(34), *range(34)]  # 68 discards: two of each kind, in turn
    for n, kind in enumerate(kinds):
        session.apply(Draw(n % 4))
        session.apply(Discard(n % 4, Tile(kind)))
    session.apply(Draw(0))
    session.apply(Discard(0, Tile.parse("2z")))  # the 69th: one tile left in the wall
    cam = CameraGame(session)
    ponds = {s: "" for s in FrameSide}
    for e in session.game.events:
        if isinstance(e, Discard):
            ponds[tuple(FrameSide)[e.seat]] += str(e.tile)
    show(cam, [table(ponds, dora="4p")])  # the first frame: taken as the truth
    ponds[R] += last
    show(cam, [table(ponds, dora="4p")])
    assert session.game.hand.live == 0 and session.game.phase is Phase.REACT
    assert cam.state()["pending"]["kind"] == "draw"  # nobody tenpai, unless hands are shown
    return cam, ponds


@pytest.mark.parametrize(
    ("last", "shown", "kind"),
    [
        # a hand a tile short (waiting on 2m-5m) shown with the wall empty: tenpai at the exhaustive draw
        ("3z", "123m456p789s2345m", "draw"),
        # a whole hand with the last discard taken from its pond: a ron on the last discard (houtei)
        ("1z", "123m345m456p789s1z+1z", "ron"),
    ],
)
def test_with_the_live_wall_empty_a_hand_laid_open_is_tenpai_at_the_draw_or_a_houtei_ron(last, shown, kind):
    cam, ponds = wall_emptied(last)
    if kind == "ron":
        ponds[R] = ponds[R][:-2]
    show(cam, [table(ponds, dora="4p", hands={B: shown})])
    pending = cam.state()["pending"]
    assert pending["kind"] == kind and pending["error"] == ""
    if kind == "draw":
        assert pending["preview"]["tenpai"] == [True, False, False, False]
    else:
        yaku = {y["name"] for y in pending["preview"]["wins"][0]["score"]["yaku"]}
        assert "Houtei Raoyui" in yaku and pending["discarder"] == 1
    cam.confirm()
    assert cam.session.game.history[-1].outcome.value == ("exhaustive_draw" if kind == "draw" else "ron")


# --- abortive draws ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ("B:1z R:1z T:1z L:1z", "four_winds"),  # the same wind by all four on the first go-around
        ("B:^9m R:^9p T:^1s L:^1m", "four_riichi"),  # the fourth riichi discard passed
        ("B:1z R:1z T:1z L:2z", None),  # four winds, not the same
        ("B:1z R:1z T:1z", None),  # three so far
    ],
)
def test_an_abortive_draw_due_from_what_was_seen_is_pending_and_replays_the_hand(moves, reason):
    cam = camera()
    show(cam, script(moves))
    pending = cam.state()["pending"]
    if reason is None:
        assert pending is None
        return
    assert pending["kind"] == "abort" and pending["error"] == ""
    assert pending["preview"]["outcome"] == "abortive_draw" and pending["preview"]["deltas"][:4] == [0, 0, 0, 0]
    cam.confirm()
    game = cam.session.game
    assert game.hand is None and game.history[-1].abort.value == reason and game.dealer == 0


#: 13 tiles dealt to the bottom seat and its first draw: nine kinds of terminals and honours (or not), all shown.
@pytest.mark.parametrize(
    ("shown", "kind"),
    [
        ("19m19p19s1234z556m+7m", "abort"),  # nine terminals: ten kinds
        ("19m19p1s1234z5567m+6m", "abort"),  # nine kinds exactly
        ("19m19p1s123z55567m+6m", "tsumo"),  # eight kinds: no draw (a tsumo the rules refuse)
        ("19m19p19s1234567z+1m", "tsumo"),  # thirteen orphans on the first draw: a win, not a draw
    ],
)
def test_a_first_turn_hand_with_nine_kinds_of_terminals_shown_is_a_nine_terminals_draw(shown, kind):
    cam = camera()
    show(cam, [table({}, dora="4p"), table({}, dora="4p", hands={B: shown})])
    pending = cam.state()["pending"]
    assert pending["kind"] == kind
    if kind == "abort":
        assert pending["seat"] == 0 and pending["preview"]["outcome"] == "abortive_draw"
        cam.confirm()
        assert cam.session.game.history[-1].abort.value == "nine_terminals"
