"""The table's centre: the estimate of one frame (:func:`vision.read.table.read_table`) on tables that used to drag
it off the table, and the centre a fixed camera keeps from frame to frame (:class:`TableGeometry`, the camera's
reader's): taken once frames agree, kept through an arm over the table, part of it misread and estimates off the
same way frame after frame, moved with the tiles when the camera is knocked; a camera at an angle.

The frames are the exact boxes of tables drawn by the scene branch's renderer (``data/rendered_tables.json`` says
which), in non-square frames (2028 x 1520 and 1600 x 900).
"""

from __future__ import annotations

import functools
import json
import statistics
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.synth.test_table_render import melds_of, wanted_melds
from tests.vision.synth.test_table_render import seat as scene_seat
from tests.vision.synth.test_table_render import table as scene_table
from vision.read.detector import Detection
from vision.read.geometry import Box, Size
from vision.read.pipeline import Reader, ReaderConfig, TableMode
from vision.read.table import FrameSide, read_table
from vision.read.table import geometry as geometry_module
from vision.read.table.geometry import (
    AGREE,
    FINER,
    SETTLE,
    Perspective,
    TableGeometry,
    placed,
    read_estimated,
    registered_shift,
)
from vision.synth.table_render import TableStyle, render_table, table_boxes

DATA = json.loads((Path(__file__).parent / "data" / "rendered_tables.json").read_text())
DEMO = DATA["demo"]
ARM_FRAMES = [k for k, e in enumerate(DEMO) if e["shows"].endswith("reaches in")]


def detections(entry: dict, shift: tuple[float, float] = (0.0, 0.0)) -> list[Detection]:
    dx, dy = shift
    return [Detection.of_class(c, Box(x1 + dx, y1 + dy, x2 + dx, y2 + dy), 0.9) for c, x1, y1, x2, y2 in entry["boxes"]]


def size_of(entry: dict) -> Size:
    height, width = entry["size"]
    return Size(height=height, width=width)


def unit_of(entry: dict) -> float:
    """A tile's short side (pixels), as the reader measures one."""
    return statistics.median(min(x2 - x1, y2 - y1) for _c, x1, y1, x2, y2 in entry["boxes"])


def apart(a, b) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def seats_json(obs) -> list[dict]:
    return [s.as_json() for s in obs.seats]


# --- one frame's estimate ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DATA["tables"]))
def test_the_estimate_stays_on_tables_that_dragged_it_off(name):
    """A meld at one seat across a seat showing neither wall nor hand, a dead wall across two walls, four kans,
    walls drawn down: the estimate lay hundreds of pixels off (tiles under the wrong seats); now within half a tile,
    and every seat reads as it reads about the true centre."""
    entry = DATA["tables"][name]
    dets, size = detections(entry), size_of(entry)
    obs = read_table(dets, size)
    assert apart(obs.centre, entry["centre"]) <= 0.5 * unit_of(entry)
    truth = read_table(dets, size, centre=tuple(entry["centre"]))
    assert seats_json(obs) == seats_json(truth) and len(obs.unassigned) == len(truth.unassigned)


# --- the centre kept from frame to frame ---------------------------------------------------------------------------


def followed(frames: list[list[Detection]], size: Size, geometry: TableGeometry | None = None) -> list:
    """The centre each frame is read about, frame by frame."""
    geometry = geometry or TableGeometry()
    return [geometry.observe(dets, size) for dets in frames]


def test_an_arm_over_the_table_never_moves_the_kept_centre():
    """The demo's frames in order, arms reaching in between discards: the centre is taken once frames agree and
    every frame after is read about it."""
    geometry = TableGeometry()
    centres = followed([detections(e) for e in DEMO], size_of(DEMO[0]), geometry)
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    taken = next(k for k, c in enumerate(centres) if c is geometry.centre)
    assert taken <= 2 * SETTLE and geometry.moves == 1
    assert [k for k in ARM_FRAMES if k > taken]  # arms came after it was taken
    assert all(apart(c, truth) <= 0.25 * unit for c in centres[taken:])
    # the arm frames once fooled a frame's own estimate by more than a tile; the four walls' square now places it
    assert max(apart(read_table(detections(DEMO[k]), size_of(DEMO[k])).centre, truth) for k in ARM_FRAMES) < 0.25 * unit


def test_a_fresh_deal_takes_the_centre_at_once():
    """The demo's first frame shows three walls (the deal took the fourth; the hands stand, unlabelled): the centre
    is taken from it, and a frame of an arm reaching over the table that comes next, hiding the seats on its left,
    is read about it (its own estimate lies tiles off)."""
    geometry = TableGeometry()
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    arm = [d for d in detections(DEMO[ARM_FRAMES[0]]) if d.box.center[0] > truth[0] - 2 * unit]
    centres = followed([detections(DEMO[0]), arm], size_of(DEMO[0]), geometry)
    assert all(apart(c, truth) <= 0.25 * unit for c in centres) and geometry.moves == 1
    assert apart(read_table(arm, size_of(DEMO[0])).centre, truth) > unit


#: The frame at which the camera is knocked.
KNOCKED = 8


@pytest.mark.parametrize("shift", [
    (180.0, -90.0),
    (-240.0, 0.0),
    (-120.0, -120.0),
    (0.0, 130.0),  # 2.5 tiles down reads with no tile unassigned about the old centre too (seats otherwise)
    (70.0, 40.0),  # a tile and a half
    (25.0, -20.0),  # half a tile
])  # fmt: skip
def test_a_camera_moved_is_followed_at_once(shift):
    """The camera knocked: from frame :data:`KNOCKED` on the table lies ``shift`` away in the frame (arms still
    reaching in every other frame). Its tiles all moved by one shift from the last still frame's, so that frame is
    read about the table's new place already, and so is every frame after; the centre moved once."""
    frames = [detections(e, shift if k >= KNOCKED else (0.0, 0.0)) for k, e in enumerate(DEMO)]
    geometry = TableGeometry()
    centres = followed(frames, size_of(DEMO[0]), geometry)
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    moved = (truth[0] + shift[0], truth[1] + shift[1])
    assert [k for k in range(KNOCKED, len(DEMO)) if apart(centres[k], moved) > 0.25 * unit] == []
    assert geometry.moves == 2


def _half_moved(entry: dict) -> list[Detection]:
    """The tiles left of the table's middle moved 2 tiles up and right, the others where they lay: no one shift."""
    middle = entry["centre"][0]
    return [d if d.box.center[0] > middle else _moved(d, (100.0, -100.0)) for d in detections(entry)]


def _mirrored(entry: dict) -> list[Detection]:
    """Another table: the frame's tiles mirrored left to right."""
    width = entry["size"][1]
    return [replace(d, box=Box(width - d.box.x2, d.box.y1, width - d.box.x1, d.box.y2)) for d in detections(entry)]


def _moved(d: Detection, shift: tuple[float, float]) -> Detection:
    b = d.box
    return replace(d, box=Box(b.x1 + shift[0], b.y1 + shift[1], b.x2 + shift[0], b.y2 + shift[1]))


@pytest.mark.parametrize(("before", "after", "shift"), [
    (lambda: detections(DEMO[6]), lambda: detections(DEMO[6], (0.0, 130.0)), (0.0, 130.0)),
    (lambda: detections(DEMO[6]), lambda: detections(DEMO[8], (-240.0, 35.0)), (-240.0, 35.0)),  # a discard since
    (lambda: detections(DEMO[6]), lambda: detections(DEMO[7], (180.0, -90.0)), (180.0, -90.0)),  # an arm over it
    (lambda: detections(DEMO[6]), lambda: detections(DEMO[7]), (0.0, 0.0)),  # an arm, the camera still
    (lambda: detections(DEMO[18]), lambda: detections(DEMO[20], (0.0, 130.0)), (0.0, 130.0)),  # face-up tiles decide
    (lambda: detections(DEMO[6]), lambda: _half_moved(DEMO[6]), None),  # no one shift for most tiles
    (lambda: detections(DEMO[6]), lambda: _mirrored(DEMO[6]), None),
    (lambda: detections(DEMO[20]), lambda: _mirrored(DEMO[20]), None),  # with ponds: the face-up tiles decide
    (lambda: detections(DEMO[6]), lambda: detections(DEMO[6])[:5], None),  # too few tiles to say
    (lambda: [], lambda: detections(DEMO[6]), None),
])  # fmt: skip
def test_a_frame_is_registered_on_the_last_still_one_by_one_shift(before, after, shift):
    found = registered_shift(placed(before()), placed(after()), unit_of(DEMO[6]))
    if shift is None:
        assert found is None
    else:
        assert found is not None and apart(found, shift) < 1.0


@pytest.mark.parametrize("odd", [1, SETTLE - 1])
@pytest.mark.parametrize("shift", [(180.0, -90.0), (0.0, 130.0)])
def test_a_bump_is_followed_there_and_back(odd, shift):
    """The camera bumped for a frame or two and back: each frame is read about where the table lies in it."""
    frames = [detections(e, shift if KNOCKED <= k < KNOCKED + odd else (0.0, 0.0)) for k, e in enumerate(DEMO)]
    geometry = TableGeometry()
    centres = followed(frames, size_of(DEMO[0]), geometry)
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    where = [(truth[0] + shift[0], truth[1] + shift[1]) if KNOCKED <= k < KNOCKED + odd else truth
             for k in range(len(DEMO))]  # fmt: skip
    assert [k for k, c in enumerate(centres) if k >= 2 and apart(c, where[k]) > 0.25 * unit] == []
    assert geometry.moves == 3


@pytest.mark.parametrize("share", [3, 4])
def test_part_of_the_table_misread_elsewhere_does_not_move_it(share):
    """Every ``share``-th tile read a few tiles off for several frames (not the whole table moving): the centre
    stays."""
    shift = (180.0, -90.0)
    frames = [
        [replace(d, box=Box(d.box.x1 + shift[0], d.box.y1 + shift[1], d.box.x2 + shift[0], d.box.y2 + shift[1]))
         if KNOCKED <= k < KNOCKED + 2 * SETTLE and i % share == 0 else d for i, d in enumerate(detections(e))]
        for k, e in enumerate(DEMO)
    ]  # fmt: skip
    geometry = TableGeometry()
    centres = followed(frames, size_of(DEMO[0]), geometry)
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    assert all(apart(c, truth) <= 0.25 * unit for c in centres[KNOCKED - 2 :])
    assert geometry.moves == 1


DRIFT = json.loads((Path(__file__).parent / "data" / "drifting_estimate.json").read_text())["frames"]


def test_an_estimate_off_the_same_way_frame_after_frame_does_not_move_it():
    """A real game's hand (``data/drifting_estimate.json``): with two walls drawn away and the hands standing
    unseen, each frame's own estimate lies a tile and a half off the same way; the table never moved, so the kept
    centre stays (it once moved there, and the ponds were read at the wrong seats)."""
    frames = [detections(e) for e in DRIFT]
    size, truth, unit = size_of(DRIFT[1]), DRIFT[1]["centre"], unit_of(DRIFT[1])
    off = [k for k, f in enumerate(frames) if f and apart(read_table(f, size).centre, truth) > unit]
    assert len(off) >= SETTLE  # the frames would move it, were their estimates trusted
    geometry = TableGeometry()
    centres = followed(frames, size, geometry)
    assert [k for k, c in enumerate(centres) if k >= 1 and apart(c, truth) > 0.25 * unit] == []


DRAGGED = json.loads((Path(__file__).parent / "data" / "meld_drags_estimate.json").read_text())


def test_an_estimate_most_of_a_tile_off_is_not_read_about(monkeypatch):
    """A real game's frame (``data/meld_drags_estimate.json``) whose own estimate a new meld dragged most of a tile
    off (the walls' square now places it, so the drag is put back here), though within a tile of the kept centre: the
    frame is read about the kept centre, as about the true one (about the dragged estimate, the right seat's chi lay
    in its pond)."""
    still, dragged = (detections(e) for e in DRAGGED["frames"])
    entry, kept = DRAGGED["frames"][1], tuple(DRAGGED["kept"])
    size, truth, unit = size_of(entry), entry["centre"], unit_of(entry)
    assert apart(read_table(dragged, size).centre, truth) <= 0.25 * unit
    # the estimate the meld once dragged: 54 px to the right
    drag = read_table(dragged, size, centre=(truth[0] + 54.3, truth[1]))
    assert FINER * unit < apart(drag.centre, kept) <= AGREE * unit  # the frame would be read about it, were it trusted
    real_estimate = geometry_module.read_estimated

    def estimated(dets, size):
        return drag if list(dets) == dragged else real_estimate(dets, size)

    monkeypatch.setattr(geometry_module, "read_estimated", estimated)
    geometry = TableGeometry(centre=kept)
    assert geometry.observe(still, size) != kept  # a frame whose estimate lies near: read about that, finer
    assert geometry.observe(dragged, size) == kept
    at_truth = read_table(dragged, size, centre=tuple(truth))
    assert seats_json(read_table(dragged, size, centre=kept)) == seats_json(at_truth)
    assert [m.text for m in at_truth.seat(FrameSide.RIGHT).melds] == ["768p"]


def test_frames_with_no_tile_leave_it_as_it_was():
    geometry = TableGeometry()
    assert geometry.observe([], size_of(DEMO[0])) is None
    followed([detections(e) for e in DEMO[:8]], size_of(DEMO[0]), geometry)
    kept = geometry.centre
    assert kept is not None and geometry.observe([], size_of(DEMO[0])) == kept
    geometry.reset()
    assert geometry.centre is None


# --- the camera's reader keeps one --------------------------------------------------------------------------------


class Replay:
    """A detector that gives the frames' boxes in turn, whatever the image."""

    def __init__(self, frames: list[list[Detection]]) -> None:
        self.frames = iter(frames)

    def detect(self, image: np.ndarray) -> list[Detection]:
        return next(self.frames)


# --- a camera at an angle from a side -----------------------------------------------------------------------------

#: A hand as the camera sees it: the deal (three walls, the hands standing), an arm reaching in, the first discard,
#: ponds with a riichi and a pon, then a kan and a hand laid open with its tile set apart.
ANGLED_HAND = [
    scene_table(scene_seat(), scene_seat(), scene_seat(), scene_seat(), live=70),
    replace(scene_table(scene_seat(), scene_seat(), scene_seat(), scene_seat(), live=69), arm=FrameSide.BOTTOM),
    scene_table(scene_seat("1z"), scene_seat(), scene_seat(), scene_seat(), live=69),
    scene_table(scene_seat("19m4z2p", riichi=3), scene_seat("9p1s7z", melds="666z^"), scene_seat("4z8m2p"),
                scene_seat("9s3m6z"), live=50),
    scene_table(scene_seat("19m4z2p3s", riichi=3), scene_seat("9p1s7z2s", melds="666z^ 3333m<"),
                scene_seat("4z8m2p1p"), scene_seat("9s3m6z5z", hand="234567m345p67s", apart="8s"), live=40,
                dora="4p1s"),
]  # fmt: skip


#: The melds of :data:`ANGLED_HAND`'s frames, by frame and seat (as its scenes write them).
ANGLED_MELDS = {3: {FrameSide.RIGHT: "666z^"}, 4: {FrameSide.RIGHT: "666z^ 3333m<"}}


def misplaced(table, scene, melds: dict[FrameSide, str]) -> list[str]:
    """What a table read puts in another seat or zone than ``scene`` has it: each seat's pond (in order, and its
    riichi tile), melds (tiles, and whence the called tile came), hand laid open and tile set apart, a face-up tile
    read in a standing hand (seen from above it shows none), and the dora indicators."""
    out = []
    for side in FrameSide:
        read, truth = table.seat(side), scene.seat(side)
        if (read.pond_tiles, read.riichi) != (truth.pond, truth.riichi):
            out.append(f"{side.value} pond {read.pond_text} (riichi {read.riichi})")
        if melds_of(table, side) != wanted_melds(melds.get(side, "")):
            out.append(f"{side.value} melds {melds_of(table, side)}")
        hand = (truth.hand, truth.apart) if truth.revealed else ((), None)
        if (read.hand_tiles, read.drawn_tile) != hand:
            out.append(f"{side.value} hand {read.hand_text} + {read.drawn_tile}")
    if table.dora_indicators != scene.dora_indicators:
        out.append(f"indicators {table.dora_indicators}")
    return out


@functools.cache
def angled(camera: FrameSide, tilt: float, size: tuple[int, int], wall_break=None, seed: int = 3) -> tuple:
    """:data:`ANGLED_HAND` (its walls broken at ``wall_break``, else the left seat's 14th stack) drawn by the
    renderer with its camera at an angle from ``camera``'s side."""
    style = TableStyle(camera=camera, tilt=tilt, noise=0.0)
    scenes = [s if wall_break is None else replace(s, wall_break=wall_break) for s in ANGLED_HAND]
    return tuple(render_table(scene, size=size, seed=seed, style=style) for scene in scenes)


@pytest.mark.parametrize(("camera", "tilt", "size", "wall_break"), [
    (FrameSide.BOTTOM, 0.15, (1520, 2028), None),
    (FrameSide.RIGHT, 0.3, (900, 1600), None),
    (FrameSide.TOP, 0.3, (1440, 1080), None),  # a frame standing on its end
    (FrameSide.LEFT, 0.3, (1520, 2028), None),
    (FrameSide.BOTTOM, 0.45, (900, 1600), None),
    (FrameSide.LEFT, 0.45, (1520, 2028), (FrameSide.BOTTOM, 9)),
    # the far edge 0.45 shorter than the near one: the midpoint between the near rows and the far ones in the frame
    # lay a tile off the table's middle, and the first discard was read in the next seat's pond
    (FrameSide.RIGHT, 0.45, (1520, 2028), None),
    (FrameSide.RIGHT, 0.45, (1440, 1080), None),
    (FrameSide.TOP, 0.45, (1520, 2028), None),
    (FrameSide.BOTTOM, 0.45, (1520, 2028), (FrameSide.TOP, 14)),
    # the deal's three walls, the far one missing, placed the centre a tile off (the view from above keeps the
    # table's foreshortening, now measured by the walls' stack pitch); the hand laid open at the left was then read
    # about it, into the pond
])  # fmt: skip
def test_a_camera_at_an_angle_reads_every_tile_in_its_seat_and_zone(camera, tilt, size, wall_break):
    """The camera's reader (its kept centre) over the renderer's exact boxes of a hand seen at an angle from a side:
    every frame but the arm's reads each seat's pond, melds, hand and the indicators as the scene lays them, and
    leaves no more tiles fitting no seat than a read about the table's true centre does."""
    frames = angled(camera, tilt, size, wall_break, 11 if wall_break else 3)
    reader = Reader.around(
        Replay([f.detections() for f in frames]), replace(ReaderConfig.for_camera(), table_mode=TableMode.NONE)
    )
    wrong = {}
    for k, (scene, frame) in enumerate(zip(ANGLED_HAND, frames, strict=True)):
        table = reader.read(np.zeros((*size, 3), np.uint8)).table
        if scene.arm is not None:
            continue
        truth = read_table(frame.detections(), frame.size, centre=frame.centre)
        assert len(table.unassigned) <= len(truth.unassigned), k
        if misplaced(table, scene, ANGLED_MELDS.get(k, {})):
            wrong[k] = misplaced(table, scene, ANGLED_MELDS.get(k, {}))
    assert wrong == {}


@pytest.mark.parametrize("camera", list(FrameSide))
@pytest.mark.parametrize("tilt", [0.15, 0.25, 0.35, 0.45])
def test_a_deals_walls_place_the_centre_for_a_camera_at_an_angle(camera, tilt):
    """A fresh deal (no pond, hands standing unseen) broken at each seat's wall in three places, seen at an angle:
    its walls alone place the centre within 0.9 of a tile, and for two breaks in three within half a tile (the
    square of the walls was taken with the table's depth as foreshortened as its width: up to 1.9 tiles off)."""
    off = []
    for side in FrameSide:
        for stack in (3, 9, 14):
            scene = replace(ANGLED_HAND[0], wall_break=(side, stack))
            frame = table_boxes(scene, size=(1520, 2028), seed=3, style=TableStyle(camera=camera, tilt=tilt))
            dets = frame.detections()
            unit = statistics.median(min(d.box.width, d.box.height) for d in dets)
            off.append(apart(read_estimated(dets, frame.size).centre, frame.centre) / unit)
    assert max(off) <= 0.9 and sum(o > 0.5 for o in off) <= len(off) / 3, [round(o, 2) for o in off]


@pytest.mark.parametrize(("camera", "tilt"), [(None, 0.0), (FrameSide.RIGHT, 0.03)])
def test_a_camera_straight_above_or_nearly_shows_no_perspective(camera, tilt):
    """Tiles of one size across the frame (within :data:`~vision.read.table.geometry.TILT`): the frame's centre is
    :func:`~vision.read.table.read_table` 's own."""
    frame = render_table(ANGLED_HAND[3], size=(1520, 2028), seed=3, style=TableStyle(camera=camera, tilt=tilt))
    assert Perspective.of(frame.detections()) is None


@pytest.mark.parametrize("camera", list(FrameSide))
def test_the_perspective_is_read_from_the_tiles_sizes(camera):
    """The far side's tiles look smaller: the view from above (:meth:`Perspective.unwarped`) shows them all at about
    one size, and a point taken there and back lies where it was."""
    frame = angled(camera, 0.3, (1520, 2028))[3]
    dets = frame.detections()
    perspective = Perspective.of(dets)
    assert perspective is not None

    def spread(ds) -> float:
        areas = sorted(d.box.area for d in ds)
        return areas[int(0.9 * len(areas))] / areas[int(0.1 * len(areas))]

    assert spread(dets) > 1.4 and spread(perspective.unwarped(dets)) < 1.2
    there = perspective.in_frame(perspective.unwarped(dets[:1])[0].box.center)
    assert apart(there, dets[0].box.center) < 0.2 * unit_of(
        {"boxes": [(0, *d.box.corners[0], *d.box.corners[2]) for d in dets]}
    )


@pytest.mark.parametrize(("config", "kept"), [
    (replace(ReaderConfig.for_camera(), table_mode=TableMode.NONE), True),  # the camera's reader of recorded labels
    (ReaderConfig.for_camera(), True),
    (ReaderConfig.for_photo(table=True), False),  # photos: each read on its own
])  # fmt: skip
def test_the_camera_reader_reads_each_table_about_the_kept_centre(config, kept):
    """The demo's frames, then one where an arm hides the left seat's wall: the camera's reader reads every frame
    about the centre it keeps; a photo is read about its own estimate, which lies tiles off in the last."""
    height, width = DEMO[0]["size"]
    truth, unit = DEMO[0]["centre"], unit_of(DEMO[0])
    frames = [detections(e) for e in DEMO]
    frames.append([d for d in frames[-1] if d.box.center[0] > truth[0] - 7 * unit])
    reader = Reader.around(Replay(frames), config)
    centres = [reader.read(np.zeros((height, width, 3), np.uint8)).table.centre for _ in frames]
    off = [k for k, c in enumerate(centres[2 * SETTLE :], 2 * SETTLE) if apart(c, truth) > 0.25 * unit]
    assert (off == []) is kept, off


SHORT_WALL = json.loads((Path(__file__).parent / "data" / "short_wall_estimate.json").read_text())["frames"]


def test_a_wall_drawn_down_to_a_corner_still_squares_the_table():
    """A real game's deal and first discards (``data/short_wall_estimate.json``): the bottom wall is down to a few
    stacks by a corner, the left one to two, the hands stand unseen. The bottom's short wall lies as far out as the
    top's, so each frame's own estimate stays within half a tile (it once swung 2.5 tiles right as the ponds filled,
    and the first discards were read at the wrong seats), and the ponds read as about the true centre."""
    for entry in SHORT_WALL:
        dets, size, truth = detections(entry), size_of(entry), tuple(entry["centre"])
        obs = read_table(dets, size)
        assert apart(obs.centre, truth) <= 0.5 * unit_of(entry), entry["shows"]
        assert seats_json(obs) == seats_json(read_table(dets, size, centre=truth)), entry["shows"]
    last = read_table(detections(SHORT_WALL[-1]), size_of(SHORT_WALL[-1]))
    assert [last.seat(side).pond_text for side in FrameSide] == ["2z", "8m", "3z", ""]


STANDING_HANDS = json.loads((Path(__file__).parent / "data" / "standing_hands_estimate.json").read_text())["frames"]


def test_walls_square_the_table_when_standing_hands_are_boxed_beyond_them():
    """A filmed game read by the shipped models (``data/standing_hands_estimate.json``): the deal took the top wall and
    half the left one, and the standing hands' top edges are boxed here and there beyond the walls, so no seat's
    outermost row is a wall. The walls' square still places the centre (it lay 130-175 px low, and the bottom seat's
    first discard was read as the left seat's), and the camera keeps it."""
    geometry = TableGeometry()
    for entry in STANDING_HANDS:
        dets, size, truth = detections(entry), size_of(entry), tuple(entry["centre"])
        assert apart(read_table(dets, size).centre, truth) <= 0.5 * unit_of(entry), entry["shows"]
        assert apart(geometry.observe(dets, size), truth) <= 0.5 * unit_of(entry), entry["shows"]
    last = STANDING_HANDS[-1]
    obs = read_table(detections(last), size_of(last), centre=geometry.centre)
    assert [obs.seat(side).pond_text for side in FrameSide] == ["9p", "1s", "9s", ""]


RIM = json.loads((Path(__file__).parent / "data" / "rim_estimate.json").read_text())["frames"]


def test_a_rim_boxed_as_a_row_of_backs_is_no_wall():
    """A filmed game read by the shipped models (``data/rim_estimate.json``): the deal took the right wall, and the
    table's rim at the frame's edge is boxed as seven backs, a "wall" 28 stack pitches from the left one. It lies off
    the square the other walls make, so the centre is placed by those (it lay 240 px right, and the hand was lost),
    and the camera keeps it."""
    geometry = TableGeometry()
    for entry in RIM:
        dets, size, truth = detections(entry), size_of(entry), tuple(entry["centre"])
        assert apart(read_table(dets, size).centre, truth) <= 0.5 * unit_of(entry), entry["shows"]
        assert apart(geometry.observe(dets, size), truth) <= 0.5 * unit_of(entry), entry["shows"]
