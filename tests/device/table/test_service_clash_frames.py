"""A contradiction reported to the phones with its frame: the service keeps the picture of the frame the camera
game saw it in (shrunk, the clash's zone outlined), the last few only, found by the frame's id and by nothing else.

The frames are table reads built from mpsz text (``tests/vision/read/table_frames.py``), each seat's tiles moved to
its own place in a grey 2028 x 1520 frame (a camera's), observed as the camera loop's ``Reading`` s.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from device.table.clash_frames import ClashFrames, clash_zone
from device.table.service import TableService
from tests.device.table.test_camera_game import HOLDS, SIDE, STEADY_HOLDS, detections_of
from tests.vision.read.table_frames import B, L, R, T, table
from tests.web.conftest import reading_of
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.table import FrameSide, SeatObservation, TableObservation
from web.contract import UnknownFrame

HEIGHT, WIDTH = 1520, 2028
#: Where each seat's rows begin in the frame (table_frames lays every seat's rows from the origin).
PLACE = {B: (800.0, 1300.0), R: (1500.0, 700.0), T: (800.0, 100.0), L: (100.0, 700.0)}


def _moved(d: Detection, dx: float, dy: float) -> Detection:
    b = d.box
    return replace(d, box=Box(b.x1 + dx, b.y1 + dy, b.x2 + dx, b.y2 + dy))


def placed(seen: TableObservation) -> TableObservation:
    """``seen`` with each seat's tiles at its own place (:data:`PLACE`)."""

    def seat(s: SeatObservation) -> SeatObservation:
        dx, dy = PLACE[s.side]
        move = lambda ds: tuple(_moved(d, dx, dy) for d in ds)  # noqa: E731
        return replace(
            s,
            hand=move(s.hand),
            pond=move(s.pond),
            wall=move(s.wall),
            melds=tuple(replace(m, detections=move(m.detections)) for m in s.melds),
            drawn=None if s.drawn is None else _moved(s.drawn, dx, dy),
        )

    return TableObservation(tuple(seat(s) for s in seen.seats), (WIDTH / 2, HEIGHT / 2))


def frames_of(moves: str, dora: str = "4p") -> list[TableObservation]:
    """A fresh deal, then a frame per move (``T:4z`` the top seat discards 4z; ``R:=8p`` the right seat's pond read
    as 8p), each showing every pond so far."""
    ponds: dict[FrameSide, str] = {}
    out = [placed(table({}, dora=dora))]
    for move in moves.split():
        side, tile = move.split(":")
        ponds[SIDE[side]] = tile[1:] if tile.startswith("=") else ponds.get(SIDE[side], "") + tile
        out.append(placed(table(ponds, dora=dora)))
    return out


def observe(service: TableService, seen: TableObservation, holds: int = HOLDS) -> None:
    """One frame as the camera loop gives it (a grey frame, the table's tiles as its detections), then held."""
    service.observe(reading_of(detections_of(seen), seen, np.full((HEIGHT, WIDTH, 3), 128, np.uint8)))
    for _ in range(holds):
        service.hold()


def play(service: TableService, moves: str, dora: str = "4p") -> TableObservation:
    """The hand's frames; the last held until it settles. Returns the last frame."""
    frames = frames_of(moves, dora)
    for seen in frames[:-1]:
        observe(service, seen)
    observe(service, frames[-1], holds=STEADY_HOLDS)
    return frames[-1]


def contradictions(service: TableService) -> list[dict]:
    return service.state()["follow"]["contradictions"]


def red_outline(jpeg: bytes) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    """The picture's (width, height) and the bounds (x1, y1, x2, y2) of its red pixels."""
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    b, g, r = (picture[..., k].astype(int) for k in range(3))
    ys, xs = np.nonzero((r > 170) & (g < 90) & (b < 90))
    assert len(xs), "no red outline"
    return (picture.shape[1], picture.shape[0]), (xs.min(), ys.min(), xs.max(), ys.max())


@pytest.fixture
def service():
    svc = TableService(pin="123456")
    svc.new_game(svc.rules, ["Ann", "Bo", "Cy", "Di"])
    yield svc
    svc.close()


@pytest.mark.parametrize(
    ("dora", "moves", "camera_seat", "clash", "side"),
    [
        # a discard out of turn: the follower names the side
        ("4p", "B:1z T:4z", None, "out_of_turn", T),
        # two pond tiles read otherwise, and it holds (one alone is a discard to correct)
        ("4p", "B:1z R:9p T:4z L:6z B:2z R:3s R:=8p4s", None, "pond_changed", R),
        # a fifth white dragon refused by the rules, which name only the seat (3): its side from the camera's seat
        ("5z", "B:5z R:5z T:5z L:5z", None, "refused", L),
        ("5z", "L:5z B:5z R:5z T:5z", 1, "refused", T),  # seat 3 sits at the top when seat 1 is at the bottom
    ],
)
def test_a_contradiction_keeps_its_frame_with_the_clash_outlined(service, dora, moves, camera_seat, clash, side):
    service.set_camera_seat(camera_seat)
    last = play(service, moves, dora)
    [reported] = contradictions(service)
    assert reported["clash"] == clash and reported["image"] is True
    picture = service.clash_frame(reported["frame_id"])
    (width, height), (x1, y1, x2, y2) = red_outline(picture)
    assert (width, height) == (1024, round(HEIGHT * 1024 / WIDTH))  # shrunk, the frame's shape kept
    scale = width / WIDTH
    pond = last.seat(side).pond
    unit = 28 * scale  # a tile's width in the picture
    # the outline goes round the seat's pond, a tile or less away from it
    assert x1 <= min(d.box.x1 for d in pond) * scale <= x1 + unit and y1 <= min(d.box.y1 for d in pond) * scale
    assert x2 - unit <= max(d.box.x2 for d in pond) * scale <= x2 and max(d.box.y2 for d in pond) * scale <= y2
    assert y2 - y1 <= 4 * unit  # one row: nothing of another seat inside


def test_a_clash_seen_later_in_the_same_frame_is_outlined_too():
    """Two clashes in one frame (at the top's pond and the left's wall): both zones outlined."""
    seen = placed(table({B: "1z", T: "4z"}, dora="4p"))
    zones = [clash_zone(seen, T), clash_zone(seen, L)]
    frames = ClashFrames()
    image = np.full((HEIGHT, WIDTH, 3), 128, np.uint8)
    frames.keep("f1", image, zones[:1])
    one = frames.jpeg("f1")
    frames.keep("f1", image, zones)
    assert frames.jpeg("f1") != one and frames.ids() == ["f1"]
    # (the left seat's zone reaches further left than the top's: the outline's left edge moved)
    assert red_outline(frames.jpeg("f1"))[1][0] < red_outline(one)[1][0]


def test_only_the_frames_of_contradictions_are_served(service):
    """The frame the camera game sees without any contradiction, a made-up id, an id with a path: none is served."""
    play(service, "B:1z R:9p")
    frame_id = service.state()["camera"]["frame_id"]
    assert frame_id and contradictions(service) == []
    for asked in (frame_id, "nope", "../corrections/images/" + frame_id, ""):
        with pytest.raises(UnknownFrame):
            service.clash_frame(asked)


def test_only_the_last_few_pictures_are_kept(service):
    """Kept one at a time (``clash_frames=1``): a contradiction after a resync drops the earlier one's picture;
    the earlier contradiction's card no longer offers one."""
    small = TableService(pin="123456", clash_frames=1)
    small.new_game(small.rules, ["", "", "", ""])
    try:
        play(small, "B:1z T:4z")
        [first] = contradictions(small)
        small.camera_action("resync")  # the table is right: the 4z is taken as the top's pond
        frames = frames_of("B:1z T:4z B:9m")  # ... and the bottom seat discards again, out of turn
        observe(small, frames[-1], holds=STEADY_HOLDS)
        [second] = contradictions(small)
        assert second["frame_id"] != first["frame_id"] and second["image"] is True
        small.clash_frame(second["frame_id"])
        with pytest.raises(UnknownFrame):
            small.clash_frame(first["frame_id"])
    finally:
        small.close()


@pytest.mark.parametrize(
    ("keep", "added", "kept"),
    [
        (8, ["f1", "f2"], ["f1", "f2"]),
        (2, ["f1", "f2", "f3"], ["f2", "f3"]),  # the oldest dropped first
        (2, ["f1", "f2", "f1", "f3"], ["f1", "f3"]),  # a frame drawn again counts as new
    ],
)
def test_the_pictures_kept_are_bounded(keep, added, kept):
    frames = ClashFrames(keep=keep)
    for n, frame_id in enumerate(added):  # each time another zone: drawn again
        frames.keep(frame_id, np.zeros((90, 160, 3), np.uint8), [(n, n, n + 20.0, n + 20.0)])
    assert frames.ids() == kept
    for frame_id in set(added) - set(kept):
        with pytest.raises(UnknownFrame):
            frames.jpeg(frame_id)


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((1520, 2028, 3), (1024, 767)),  # a camera's frame: its longer side shrunk to 1024
        ((2028, 1520, 3), (767, 1024)),
        ((600, 800, 3), (800, 600)),  # small enough already: as it is
    ],
)
def test_a_picture_is_shrunk_to_1024_pixels_at_most(shape, expected):
    frames = ClashFrames()
    frames.keep("f", np.zeros(shape, np.uint8), [])
    picture = cv2.imdecode(np.frombuffer(frames.jpeg("f"), np.uint8), cv2.IMREAD_COLOR)
    assert (picture.shape[1], picture.shape[0]) == expected
