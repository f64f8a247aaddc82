"""The camera game through the reader's slips: a hand played while the reader reads a landing tile twice for as long
as it lies still, misses the dora indicators or a pond, misreads a tile, or reads no table at all for a while, is
played into the game whole, with no contradiction ever shown. Read frame by frame alone (the follower before its
frames were fused), each slip shows the phones a contradiction; the tile read twice lost the hand's rest (13 of its
25 events: many discards, two discarders, out of turn, as at a real table).

Frames are built from mpsz text as real ``Detection`` s (``tests/vision/read/table_frames.py``) and played into a
real ``GameSession``; each read frame is held as the loop holds a still table, and a slip is a frame read (and held)
like any other."""

from __future__ import annotations

import pytest

from device.table.camera_game import CameraGame
from device.table.game_session import GameSession
from engine.rules import preset
from tests.device.table.test_camera_game import FIRST_GO, FIRST_GO_EVENTS, HOLDS, game_events, ponds_of, script
from tests.vision.read.table_frames import B, L, T, table
from vision.read.follow import VANISH
from vision.read.table import TableObservation

FRAMES = script(FIRST_GO)  # the deal, then one frame per discard, each showing every pond so far
MOVES = FIRST_GO.split()


def played(cam: CameraGame, frames: list[tuple[TableObservation | None, int]]) -> set[str]:
    """Each frame read, then held ``holds`` times; the engine's invariants after each. Returns every contradiction
    the phones were shown meanwhile (clash: detail)."""
    shown = set()
    for frame, holds in frames:
        cam.observe(frame)
        for k in range(holds + 1):
            if k:
                cam.hold()
            cam.session.game.validate()
            shown |= {f"{c['clash']}: {c['detail']}" for c in cam.state()["contradictions"]}
    return shown


def read_as(n: int, ponds: dict | None = None, dora: str = "4p") -> TableObservation:
    """The table after FIRST_GO's first ``n`` discards, some of it read otherwise: ``ponds`` (by side), ``dora``."""
    return table({**ponds_of(" ".join(MOVES[:n])), **(ponds or {})}, dora=dora)


def with_slips(misread: dict[int, TableObservation], after: dict[int, list[tuple[TableObservation | None, int]]]):
    """The hand's frames, each read and held HOLDS times, the n-th read as ``misread[n]`` (read and held alike: the
    loop holds a still table as read), and ``after[n]`` read after it."""
    out = []
    for n, frame in enumerate(FRAMES):
        out.append((misread.get(n, frame), HOLDS))
        out += after.get(n, [])
    return out


# the reader's slips: the top seat's 8m read twice as it lands (6z8m8s -> 6z8m68s at a real table), for all the
# frames it lies still; then read right only with the left seat's discard
MISREAD = {7: read_as(7, ponds={T: "4z88m"})}
AFTER = {
    # no table read for VANISH frames (a hand over the lens)
    2: [(None, VANISH - 1)],
    # the dora indicators not seen for VANISH frames
    4: [(read_as(4, dora=""), VANISH - 1)],
    # the bottom pond read empty for five frames, a tile of the left pond misread meanwhile
    10: [(read_as(10, ponds={B: "", L: "6z8s"}), 4)],
}


def test_a_hand_with_the_readers_slips_is_played_whole():
    cam = CameraGame(GameSession(preset("standard")))
    shown = played(cam, with_slips(MISREAD, AFTER))
    assert game_events(cam) == FIRST_GO_EVENTS
    assert shown == set()
    texts = [e["text"] for e in cam.state()["events"]]
    assert texts[7:9] == [  # the top seat's discard seen only with the left seat's: both taken, in turn
        "Seat 3 (W) discards 8m (seen at once with others: taken in turn)",
        "Seat 4 (N) discards 9s (seen at once with others: taken in turn)",
    ]


@pytest.mark.parametrize(("misread", "after"), [(MISREAD, {}), *[({}, {n: slip}) for n, slip in AFTER.items()]])
def test_read_frame_by_frame_alone_each_slip_shows_the_phones_a_contradiction(misread, after):
    cam = CameraGame(GameSession(preset("standard")), fuse=False)
    assert played(cam, with_slips(misread, after))
