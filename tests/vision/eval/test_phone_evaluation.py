"""vision.eval.phone_evaluation: phone-sized shots cut and tiled from labelled photos, and how readers are scored
on them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import parse_tiles
from tests.vision.fakes import BLACK, BLUE, FELT, BlocksNetwork, block_colour, drawn_five, encode, paint
from vision.eval.phone_evaluation import (
    Shot,
    blurred,
    blurred_shot,
    camerash_hands,
    camerash_loose,
    close_up,
    evaluate,
    glared,
    glared_hands,
    glared_shot,
    half_turned_hand,
    inked,
    inscribed,
    loose_tiles,
    mosaic,
    owner_text,
    phone_shots,
    score,
    squashed,
    text_read,
    tile_row,
    tilted,
    turned,
)
from vision.eval.real_photos import RealBox, RealPhoto
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box, Size
from vision.read.labels import BACK_CLASS, CLASS_NAMES, class_of_tile
from vision.read.rows import read_tiles
from vision.read.scale import PhotoDetector

#: Tiles of 30 x 40 px in a row of 12 on a 480 x 640 (height, width) photo. Classes three apart: enlarging rings
#: at a block's edge, and the blocks network would read a ring of a neighbouring class's colour as a tile.
TILES = [(3 * i, Box(20.0 + 50 * i, 200.0, 50.0 + 50 * i, 240.0)) for i in range(12)]


@pytest.fixture
def photo(tmp_path) -> RealPhoto:
    image = np.full((480, 640, 3), 128, np.uint8)
    boxes = []
    for cls, b in TILES:
        paint(image, cls, b)
        boxes.append(RealBox(cls, (b.x1 + b.x2) / 2 / 640, (b.y1 + b.y2) / 2 / 480, 30 / 640, 40 / 480))
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), image)
    return RealPhoto(image=path, folder="test", subset="valid", source="hand", boxes=tuple(boxes))


def test_a_close_up_frames_tiles_at_the_zoom_and_enlarges_them(photo):
    image = cv2.imread(str(photo.image))
    shot = close_up(photo, image, 0.2, np.random.default_rng(1), side=1600)
    h, w = shot.image.shape[:2]
    assert w == 1600 and h == pytest.approx(1200, abs=4)  # a 4:3 window of 200 x 266 px, enlarged 6 times
    assert shot.kind == "close-up 0.2"
    for _, b in shot.truth:  # whole tiles only, each 40 px tall x 6 = a fifth of the shot's height
        assert 0 <= b.x1 < b.x2 <= w and 0 <= b.y1 < b.y2 <= h
        assert b.y2 - b.y1 == pytest.approx(0.2 * h, rel=0.01)
    assert len(shot.truth) + len(shot.cut) <= 6 and len(shot.truth) >= 4
    for b in shot.cut:  # a tile the window's edge cuts is neither wanted nor held against a reader: what shows of it
        assert 0 <= b.x1 < b.x2 <= w and (b.x1 == 0 or b.x2 == w)


def test_a_mosaic_places_each_photo_in_its_cell(photo):
    image = cv2.imread(str(photo.image))
    shot = mosaic([photo] * 4, [image] * 4, 2, side=1280)
    assert shot.image.shape[:2] == (1280, 1280)
    assert len(shot.truth) == 48
    first_of_cell_3 = shot.truth[36][1]  # bottom right: x and y offset by 640; photo 640 wide, 480 tall -> 640
    assert first_of_cell_3.x1 == pytest.approx(640 + 20) and first_of_cell_3.y1 == pytest.approx(640 + 200 * 640 / 480)
    with pytest.raises(ValueError, match="takes 4 photos"):
        mosaic([photo], [image], 2)


SHOT = Shot("t", np.zeros((10, 10, 3), np.uint8), ((3, Box(0.0, 0.0, 10.0, 10.0)),), (Box(20.0, 0.0, 30.0, 10.0),))


@pytest.mark.parametrize(
    ("found", "right", "reported"),
    [
        ([(3, (0, 0, 10, 10))], 1, 1),  # the tile
        ([(4, (0, 0, 10, 10))], 0, 1),  # the wrong tile
        ([(3, (0, 0, 10, 4))], 0, 1),  # a box too short (IoU 0.4)
        ([(3, (0, 0, 10, 10)), (3, (1, 0, 10, 10))], 1, 2),  # read twice
        ([(5, (21, 0, 30, 10))], 0, 0),  # a box on what shows of a cut tile: ignored
        ([], 0, 0),
    ],
)
def test_score(found, right, reported):
    dets = [Detection.of_class(c, Box(*map(float, b)), 0.9 - 0.1 * i) for i, (c, b) in enumerate(found)]
    assert score(SHOT, dets) == (right, reported)


#: SHOT with a tile the labels leave out at x 40-50.
UNLABELLED_SHOT = Shot(SHOT.kind, SHOT.image, SHOT.truth, SHOT.cut, unlabelled=(Box(40.0, 0.0, 50.0, 10.0),))


@pytest.mark.parametrize(
    ("found", "right", "reported"),
    [
        ([(7, (40, 0, 50, 10))], 0, 0),  # a box on the unlabelled tile, any name: counted neither way
        ([(7, (36, 0, 48, 10))], 0, 0),  # two thirds of it on the tile
        ([(7, (30, 0, 44, 10))], 0, 1),  # mostly beside it: a box on nothing
        ([(3, (0, 0, 10, 10)), (7, (41, 1, 49, 9))], 1, 1),
    ],
)
def test_a_box_on_a_tile_the_labels_leave_out_is_not_counted(found, right, reported):
    dets = [Detection.of_class(c, Box(*map(float, b)), 0.9 - 0.1 * i) for i, (c, b) in enumerate(found)]
    assert score(UNLABELLED_SHOT, dets) == (right, reported)


@pytest.mark.parametrize(
    ("backs_judged", "found", "right", "reported"),
    [
        (False, [(BACK_CLASS, (40, 0, 50, 10))], 0, 0),  # a back on a set that labels none: not counted
        (True, [(BACK_CLASS, (40, 0, 50, 10))], 0, 1),  # where backs are labelled, a back on nothing is wrong
        (False, [(7, (40, 0, 50, 10))], 0, 1),  # a face on nothing is wrong either way
        (False, [(BACK_CLASS, (0, 0, 10, 10))], 0, 0),  # a labelled face read as a back: missed, not a wrong box
    ],
)
def test_a_back_is_judged_only_where_the_labels_name_backs(backs_judged, found, right, reported):
    shot = Shot(SHOT.kind, SHOT.image, SHOT.truth, SHOT.cut, backs_judged=backs_judged)
    dets = [Detection.of_class(c, Box(*map(float, b)), 0.9 - 0.1 * i) for i, (c, b) in enumerate(found)]
    assert score(shot, dets) == (right, reported)


#: A face-only label: the face of a tile whose whole box is (0, 0, 10, 14) with its top (x 1-9, y 4-12).
FACE = Box(1.0, 4.0, 9.0, 12.0)


@pytest.mark.parametrize(
    ("face_labels", "found", "right", "reported"),
    [
        (False, [(3, (0, 0, 10, 14))], 0, 1),  # the whole tile: IoU 0.46 ...
        (True, [(3, (0, 0, 10, 14))], 1, 1),  # ... held whole: that tile where labels box faces
        (True, [(3, (0, -6, 10, 14))], 1, 1),  # a standing tile's box with its top: IoU 0.32, the face held
        (True, [(4, (0, 0, 10, 14))], 0, 1),  # the face held, the wrong tile
        (True, [(3, (4, 4, 14, 13))], 0, 1),  # a box beside it: three eighths of the face outside (IoU 0.35)
        (True, [(3, (0, -16, 10, 14))], 0, 1),  # the face held in a box 4.7 times its size: IoU 0.21
    ],
)
def test_a_box_holding_a_face_only_label_is_its_tile(face_labels, found, right, reported):
    shot = Shot("t", SHOT.image, ((3, FACE),), face_labels=face_labels)
    dets = [Detection.of_class(c, Box(*map(float, b)), 0.9 - 0.1 * i) for i, (c, b) in enumerate(found)]
    assert score(shot, dets) == (right, reported)


def test_a_tile_the_edge_cuts_is_left_out_of_the_text_as_out_of_the_score():
    row = [
        (class_of_tile(t), Box(100.0 + 40 * i, 100.0, 130.0 + 40 * i, 140.0)) for i, t in enumerate(parse_tiles("123m"))
    ]
    shot = Shot("t", np.zeros((200, 300, 3), np.uint8), tuple(row), (Box(0.0, 100.0, 20.0, 140.0),), owner_text(row))
    assert shot.text == "123m"
    read = [Detection.of_class(c, b, 0.9) for c, b in row]
    on_cut = Detection.of_class(class_of_tile(parse_tiles("9p")[0]), Box(0.0, 100.0, 22.0, 140.0), 0.8)
    assert read_tiles([on_cut, *read]).text == "9p123m"  # what the reader reports
    assert text_read(shot, [on_cut, *read]) == "123m" and score(shot, [on_cut, *read]) == (3, 3)
    beside = Detection.of_class(on_cut.class_id, Box(240.0, 100.0, 270.0, 140.0), 0.8)  # a tile where none is
    assert text_read(shot, [*read, beside]) == "123m9p" and score(shot, [*read, beside]) == (3, 4)


@pytest.fixture
def photo_with_an_unlabelled_tile(photo) -> RealPhoto:
    """``photo`` with one more tile painted at its top right, marked as unlabelled rather than labelled."""
    image = cv2.imread(str(photo.image))
    paint(image, 1, Box(590.0, 60.0, 620.0, 100.0))
    cv2.imwrite(str(photo.image), image)
    region = (585 / 640, 55 / 480, 625 / 640, 105 / 480)
    return RealPhoto(photo.image, photo.folder, photo.subset, photo.source, photo.boxes, unlabelled=(region,))


def test_an_unlabelled_tile_is_held_against_no_reader_in_any_shot(photo_with_an_unlabelled_tile):
    """Every kind of shot carries the unlabelled region where its tile lands: a reader that boxes that tile as well
    as the labelled ones reads every shot exactly, and none so with the region left out."""
    marked = photo_with_an_unlabelled_tile
    unmarked = RealPhoto(marked.image, marked.folder, marked.subset, marked.source, marked.boxes)
    kinds = dict(zooms=(0.08,), mosaics=(2,), side=1600, turns=(0.0,), lights=("warm",), squashes=(0.8,))
    reader = {"read": PhotoDetector(BlocksNetwork())}
    shots = list(phone_shots([marked] * 4, **kinds))
    assert {s.kind for s in shots} == {"close-up 0.08", "mosaic 2x2", "turned 0", "light warm", "squashed 0.8"}
    assert all(s.unlabelled for s in shots)
    # the blocks network reads a block by its colour, so it cannot read a shot under a coloured light: that shot's
    # region is checked against the same photo's unlit one
    lit = [s for s in shots if s.kind == "light warm"]
    assert [s.unlabelled for s in lit] == [s.unlabelled for s in shots if s.kind == "turned 0"]
    readable = [s for s in shots if s.kind != "light warm"]
    assert evaluate(reader, readable)["read"]["all"].exact == len(readable) == 13
    unread = [s for s in phone_shots([unmarked] * 4, **kinds) if s.kind != "light warm"]
    assert evaluate(reader, unread)["read"]["all"].exact == 0


def test_a_reader_that_reads_every_tile_scores_one(photo):
    shots = list(phone_shots([photo], zooms=(0.2, 0.45), mosaics=(2,), side=1600))
    assert [s.kind for s in shots] == ["close-up 0.2", "close-up 0.45"]  # one photo: no 2x2 mosaic
    result = evaluate({"read": PhotoDetector(BlocksNetwork())}, shots)["read"]
    assert set(result) == {"close-up 0.2", "close-up 0.45", "all"}
    total = result["all"]
    assert (total.precision, total.recall, total.exact, total.shots) == (1.0, 1.0, 2, 2)
    assert total.as_json()["f1"] == 1.0


def test_shots_are_seeded(photo):
    def truths(seed: int) -> list:
        return [s.truth for s in phone_shots([photo] * 4, zooms=(0.3,), mosaics=(), side=800, seed=seed)]

    assert truths(5) == truths(5)
    assert truths(5) != truths(6)  # each close-up frames another tile


def _row(n: int) -> list[tuple[int, np.ndarray]]:
    """``n`` single-tile photos (240 x 320), each a block of its class's colour, classes three apart (of 34 kinds)."""
    return [(3 * i % 34, np.full((320, 240, 3), block_colour(3 * i % 34), np.uint8)) for i in range(n)]


@pytest.mark.parametrize("seed", range(4))
def test_a_row_of_tile_photos_is_a_hand_shot_with_each_tile_boxed(seed):
    shot = tile_row(_row(14), 0.1, np.random.default_rng(seed), side=1600)
    assert shot.image.shape == (1200, 1600, 3) and shot.kind == "other set 0.1"
    classes = [c for c, _ in _row(14)]
    assert [c for c, _ in shot.truth] == classes and not shot.cut  # a whole hand fits at 0.1
    # its owner's order: left to right, a meld set apart a group of its own
    assert [class_of_tile(t) for t in parse_tiles(shot.text.replace(" ", ""))] == classes
    assert shot.text.count(" ") <= 1
    for cls, b in shot.truth:
        assert 0 <= b.x1 < b.x2 <= 1600 and 0 <= b.y1 < b.y2 <= 1200
        assert 0.09 * 1200 < b.y2 - b.y1 < 0.13 * 1200  # the zoom, give or take the turn and the view
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 2  # the box is on its tile
    lefts = [b.x1 for _, b in shot.truth]
    assert lefts == sorted(lefts)


def test_a_close_row_cuts_the_tiles_at_the_edges_and_is_seeded():
    shot = tile_row(_row(14), 0.3, np.random.default_rng(1), side=1600)
    assert 4 <= len(shot.truth) < 14 and shot.cut  # tiles 270 px wide: the row runs off both sides
    for b in shot.cut:
        assert b.x1 == 0 or b.x2 == 1600
    again = tile_row(_row(14), 0.3, np.random.default_rng(1), side=1600)
    assert again.truth == shot.truth and np.array_equal(again.image, shot.image)
    with pytest.raises(ValueError, match="at least one tile"):
        tile_row([], 0.1, np.random.default_rng(1))


@pytest.fixture
def camerash(tmp_path):
    """A made-up camerash folder: 12 photos of tiles riichi shares, each a block of its class's colour (classes three
    apart, as :data:`TILES`), and a flower, which no shot may hold."""
    (tmp_path / "tiles-data").mkdir()
    (tmp_path / "tiles-resized").mkdir()
    suits = {"m": "characters", "p": "dots", "s": "bamboo"}
    winds = {"1z": "east", "4z": "north", "7z": "red"}
    rows = []
    for cls in [*range(0, 34, 3), None]:
        name = CLASS_NAMES[cls] if cls is not None else "flower"
        label = winds.get(name) or (f"{suits[name[1]]}-{name[0]}" if cls is not None else "bonus-plum")
        label = label if "-" in label else f"honors-{label}"
        rows.append(f"{name}.png,0,{label}\n")
        colour = block_colour(cls if cls is not None else 1)
        (tmp_path / "tiles-resized" / f"{name}.png").write_bytes(
            encode(np.full((320, 240, 3), colour, np.uint8), ".png")
        )
    (tmp_path / "tiles-data" / "data.csv").write_text("\ufeffimage-name,label,label-name\n" + "".join(rows), "utf-8")
    return tmp_path


def test_camerash_hands_are_rows_of_its_riichi_tiles_that_a_reader_reads(camerash):
    tmp_path = camerash
    shots = list(camerash_hands(2, zooms=(0.06, 0.1), seed=2, side=1600, root=tmp_path))
    assert [s.kind for s in shots] == ["other set 0.06"] * 2 + ["other set 0.1"] * 2
    for shot in shots:
        classes = [c for c, _ in shot.truth]
        assert len(classes) + len(shot.cut) == 12 and len(set(classes)) == 12  # all 12 photos, none twice
        assert set(classes) <= set(range(0, 34, 3))  # never the flower
    again = camerash_hands(2, zooms=(0.06,), seed=2, side=1600, root=tmp_path)
    assert [s.truth for s in again] == [s.truth for s in shots[:2]]
    reader = PhotoDetector(BlocksNetwork())
    for shot in shots:  # each tile where its box says, of its class (the fake also boxes slivers where two tiles'
        # colours blend into a third class's: boxes under a third of a tile wide are left out)
        tile_w = float(np.median([b.width for _, b in shot.truth]))
        boxes = [d for d in reader.detect(shot.image) if d.box.width > tile_w / 3]
        assert score(shot, boxes) == (len(shot.truth), len(shot.truth))


@pytest.mark.parametrize(
    ("height", "width", "degrees", "kept"),
    [
        (640, 640, 0, Size(height=640, width=640)),
        (640, 640, 180, Size(height=640, width=640)),
        (480, 640, 90, Size(height=640, width=480)),  # a quarter turn: the photo on its side
        (640, 640, 45, Size(height=452, width=452)),  # 640 / sqrt(2)
        (640, 640, -30, Size(height=468, width=468)),
        (480, 640, 15, Size(height=344, width=570)),
    ],
)
def test_inscribed(height, width, degrees, kept):
    got = inscribed(height, width, degrees)
    assert abs(got.height - kept.height) <= 1 and abs(got.width - kept.width) <= 1


@pytest.mark.parametrize("degrees", [0.0, 30.0, -45.0, 90.0])
def test_a_turned_shot_keeps_each_whole_tile_boxed_round_its_turned_block(photo, degrees):
    image = cv2.imread(str(photo.image))
    shot = turned(photo, image, degrees, side=1600)
    h, w = shot.image.shape[:2]
    assert max(h, w) == 1600 and shot.kind == f"turned {degrees:g}"
    assert len(shot.truth) + len(shot.cut) <= len(TILES) and shot.truth
    for cls, b in shot.truth:
        assert 0 <= b.x1 < b.x2 <= w and 0 <= b.y1 < b.y2 <= h
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 3  # the box is on its tile
    if degrees == 0.0:
        assert len(shot.truth) == len(TILES) and not shot.cut
    shots = list(phone_shots([photo], zooms=(), mosaics=(), side=800, turns=(degrees, 10.0)))
    assert [s.kind for s in shots] == [f"turned {degrees:g}", "turned 10"]


@pytest.mark.parametrize("height", [1.0, 0.45, 0.35])
def test_a_squashed_shot_keeps_each_tile_boxed_on_its_squat_block(photo, height):
    image = cv2.imread(str(photo.image))
    shot = squashed(photo, image, height, side=1600)
    h, w = shot.image.shape[:2]
    assert (
        w == 1600
        and h == round(image.shape[0] * height * 1600 / image.shape[1])
        and shot.kind == f"squashed {height:g}"
    )
    assert len(shot.truth) == len(TILES) and not shot.cut
    for (cls, b), (_, upright) in zip(shot.truth, squashed(photo, image, 1.0, side=1600).truth, strict=True):
        assert b.height == pytest.approx(upright.height * height) and b.width == pytest.approx(upright.width)
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 3  # the box is on its tile
    kinds = [s.kind for s in phone_shots([photo], zooms=(), mosaics=(), side=800, squashes=(height, 0.5))]
    assert kinds == [f"squashed {height:g}", "squashed 0.5"]


@pytest.mark.parametrize("seed", range(3))
def test_loose_tiles_lie_apart_each_turned_its_own_way(seed):
    tiles = _row(8)
    shot = loose_tiles(tiles, 0.12, np.random.default_rng(seed), side=1600)
    assert shot.image.shape == (1200, 1600, 3) and shot.kind == "loose 0.12" and not shot.cut
    assert [c for c, _ in shot.truth] == [c for c, _ in tiles]
    for i, (cls, b) in enumerate(shot.truth):
        assert 0 <= b.x1 < b.x2 <= 1600 and 0 <= b.y1 < b.y2 <= 1200
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 2
        for _, other in shot.truth[i + 1 :]:  # none lies on another
            ox, oy = other.center
            assert not (b.x1 <= ox <= b.x2 and b.y1 <= oy <= b.y2)
    # turned each its own way: the boxes are not all a tile's upright shape
    shapes = {round(b.width / b.height, 1) for _, b in shot.truth}
    assert len(shapes) > 2
    again = loose_tiles(tiles, 0.12, np.random.default_rng(seed), side=1600)
    assert again.truth == shot.truth
    with pytest.raises(ValueError, match="do not fit"):
        loose_tiles(tiles, 0.9, np.random.default_rng(seed), side=1600)
    with pytest.raises(ValueError, match="at least one tile"):
        loose_tiles([], 0.1, np.random.default_rng(seed))


def test_camerash_loose_shots_are_of_its_riichi_tiles_and_seeded(camerash):
    shots = list(camerash_loose(2, zooms=(0.08, 0.14), seed=3, side=1600, root=camerash))
    assert [s.kind for s in shots] == ["loose 0.08"] * 2 + ["loose 0.14"] * 2
    for shot in shots:
        classes = [c for c, _ in shot.truth]
        assert 5 <= len(classes) <= 9 and len(set(classes)) == len(classes)
        assert set(classes) <= set(range(0, 34, 3))  # never the flower
    again = camerash_loose(2, zooms=(0.08,), seed=3, side=1600, root=camerash)
    assert [s.truth for s in again] == [s.truth for s in shots[:2]]


def test_a_hand_from_across_the_table_is_to_be_read_in_its_owners_order():
    upright = tile_row(_row(13), 0.1, np.random.default_rng(2), side=1600)
    shot = half_turned_hand(upright)
    assert shot.kind == "other set 0.1 turned 180" and shot.image.shape == upright.image.shape
    assert np.array_equal(shot.image, upright.image[::-1, ::-1])
    for (c, b), (c0, b0) in zip(shot.truth, upright.truth, strict=True):
        assert c == c0 and b == Box(1600 - b0.x2, 1200 - b0.y2, 1600 - b0.x1, 1200 - b0.y1)
    assert shot.text == read_tiles([Detection.of_class(c, b, 1.0) for c, b in upright.truth]).text  # the owner's
    as_seen = [Detection.of_class(c, b, 0.9) for c, b in shot.truth]  # every tile, read as it lies (reversed)
    turned_back = [Detection(d.tile, d.box, d.conf, d.orientation, 180.0) for d in as_seen]  # read upside down
    result = evaluate({"as seen": FakeDetector(as_seen), "turned": FakeDetector(turned_back)}, [shot])
    assert result["as seen"]["all"].exact == result["turned"]["all"].exact == 1  # every tile right either way ...
    assert (result["as seen"]["all"].in_order, result["turned"]["all"].in_order) == (0, 1)  # ... in order, one
    assert result["turned"]["all"].as_json()["texts"] == 1


@pytest.mark.parametrize("share", [0.0, 0.03, 0.1])
def test_a_blurred_shot_keeps_its_boxes_and_softens_the_tiles_edges_by_their_width(photo, share):
    image = cv2.imread(str(photo.image))
    shot = blurred(photo, image, share, side=1600)
    sharp = blurred(photo, image, 0.0, side=1600)
    assert shot.kind == f"blurred {share:g}" and shot.image.shape == sharp.image.shape
    assert shot.truth == sharp.truth and len(shot.truth) == len(TILES) and not shot.cut
    # the blur shows as a softer image: less detail (the Laplacian's spread) the more it blurs
    detail = cv2.Laplacian(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
    sharp_detail = cv2.Laplacian(cv2.cvtColor(sharp.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
    assert detail == sharp_detail if share == 0 else detail < 0.8 * sharp_detail
    for cls, b in shot.truth:  # each box still sits on its tile's colour at its middle
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 6
    kinds = [s.kind for s in phone_shots([photo], zooms=(), mosaics=(), side=800, blurs=(share, 0.05))]
    assert kinds == [f"blurred {share:g}", "blurred 0.05"]


@pytest.mark.parametrize("share", [0.03, 0.08])
def test_a_blurred_hand_keeps_its_tiles_and_text_and_blurs_by_its_tiles_width(share):
    hand = tile_row(_row(14), 0.1, np.random.default_rng(1), side=1600)
    shot = blurred_shot(hand, share)
    assert shot.kind == f"other set 0.1 blurred {share:g}" and shot.image.shape == hand.image.shape
    assert (shot.truth, shot.cut, shot.text) == (hand.truth, hand.cut, hand.text)
    width = float(np.median([min(b.width, b.height) for _, b in hand.truth]))
    assert np.array_equal(shot.image, cv2.GaussianBlur(hand.image, (0, 0), share * width))
    assert blurred_shot(hand, 0.0).image is hand.image
    with pytest.raises(ValueError, match="no tiles to blur"):
        blurred_shot(Shot("empty", hand.image, ()), share)


@pytest.mark.parametrize("strength", [0.5, 1.0])
def test_a_glared_hand_keeps_its_tiles_and_only_brightens_them_white_where_the_lamp_shows(strength):
    hand = tile_row(_row(14), 0.1, np.random.default_rng(1), side=1600)
    shot = glared_shot(hand, strength, np.random.default_rng(4))
    assert shot.kind == f"other set 0.1 glare {strength:g}" and shot.image.shape == hand.image.shape
    assert (shot.truth, shot.cut, shot.text) == (hand.truth, hand.cut, hand.text)
    added = shot.image.astype(int) - hand.image.astype(int)
    assert added.min() >= 0  # light is only added
    lit = added.max(axis=2) > 8
    assert 0.001 < lit.mean() < 0.2  # a streak and spots, not a wash over the shot
    # the reflection lies on the tiles: most of its light falls inside their boxes
    inside = np.zeros(lit.shape, bool)
    for _, b in hand.truth:
        inside[int(b.y1) : int(b.y2) + 1, int(b.x1) : int(b.x2) + 1] = True
    assert (lit & inside).sum() > 0.5 * lit.sum()
    # as strong as asked at its centre: at full strength some pixels are washed out white, at half no pixel
    # gains more than half of white
    assert added.max() <= round(255 * strength)
    if strength == 1.0:
        assert (shot.image.min(axis=2) == 255).any()
    again = glared_shot(hand, strength, np.random.default_rng(4))
    assert np.array_equal(again.image, shot.image)  # seeded
    with pytest.raises(ValueError, match="no tiles to put a reflection on"):
        glared_shot(Shot("empty", hand.image, ()), strength, np.random.default_rng(0))


def test_glared_hands_and_photos_are_each_seeded_by_their_place(photo):
    hands = [tile_row(_row(14), 0.1, np.random.default_rng(k), side=1600) for k in range(2)]
    shots = list(glared_hands(hands, [0.5, 0.9], seed=3))
    assert [s.kind for s in shots] == ["other set 0.1 glare 0.5", "other set 0.1 glare 0.9"] * 2
    # the second hand glared first in its own run gets the first place's reflection, not its own
    assert not np.array_equal(shots[2].image, next(iter(glared_hands(hands[1:], [0.5], seed=3))).image)
    assert np.array_equal(shots[0].image, next(iter(glared_hands(hands, [0.5], seed=3))).image)
    image = cv2.imread(str(photo.image))
    shot = glared(photo, image, 0.9, np.random.default_rng(0), side=1600)
    assert shot.kind == "glare 0.9" and len(shot.truth) == len(TILES) and not shot.cut
    kinds = [s.kind for s in phone_shots([photo], zooms=(), mosaics=(), side=800, glares=(0.5, 0.9))]
    assert kinds == ["glare 0.5", "glare 0.9"]


@pytest.mark.parametrize("top", [1.0, 0.8, 0.6, 0.3])
def test_a_tilted_shot_shows_only_the_photo_and_keeps_each_tile_it_shows_boxed_on_its_block(photo, top):
    image = cv2.imread(str(photo.image))
    shot = tilted(photo, image, top, side=1600)
    assert shot.kind == f"tilted {top:g}" and max(shot.image.shape[:2]) == 1600
    assert shot.image.min() > 0  # the kept rectangle lies inside the tilted photo: no black beyond its edges
    if top == 1.0:
        assert shot.image.shape[:2] == (1200, 1600) and len(shot.truth) == len(TILES) and not shot.cut
    else:  # the far edge narrower: the sides of the near edge fall outside the kept rectangle
        assert len(shot.truth) < len(TILES) and len(shot.truth) + len(shot.cut) <= len(TILES)
        # under a half, the rectangle is widest below the far edge: the row, at 200-240 of 480, lies above it
        assert (len(shot.truth) > 0) == (top >= 0.5)
    h, w = shot.image.shape[:2]
    for cls, b in shot.truth:
        assert 0 <= b.x1 < b.x2 <= w and 0 <= b.y1 < b.y2 <= h
        cx, cy = round((b.x1 + b.x2) / 2), round((b.y1 + b.y2) / 2)
        assert np.abs(shot.image[cy, cx].astype(int) - block_colour(cls)).max() <= 3  # the box is on its tile
    for b in shot.cut:  # what the edge shows of a cut tile: at the edge
        assert b.x1 <= 1e-6 or b.x2 >= w - 1e-6
    kinds = [s.kind for s in phone_shots([photo], zooms=(), mosaics=(), side=800, tilts=(top, 0.5))]
    assert kinds == [f"tilted {top:g}", "tilted 0.5"]


def test_a_tilted_shot_shows_far_tiles_smaller_and_squatter():
    image = np.full((600, 400, 3), 128, np.uint8)
    near, far = Box(180.0, 500.0, 220.0, 550.0), Box(180.0, 50.0, 220.0, 100.0)  # one column, far and near
    boxes = []
    for cls, b in ((0, far), (9, near)):
        paint(image, cls, b)
        boxes.append(RealBox(cls, (b.x1 + b.x2) / 2 / 400, (b.y1 + b.y2) / 2 / 600, 40 / 400, 50 / 600))
    photo = RealPhoto(image=Path("column.png"), folder="test", subset="valid", source="column", boxes=tuple(boxes))
    shot = tilted(photo, image, 0.6, side=1200)
    (_, f), (_, n) = shot.truth
    assert f.width < 0.75 * n.width and f.height < 0.75 * n.height
    assert f.height / f.width < n.height / n.width  # squatter: the far rows are foreshortened most
    with pytest.raises(ValueError, match="at most 1"):
        tilted(photo, image, 1.5)


@pytest.fixture
def photo_with_fives(tmp_path) -> RealPhoto:
    """A 300 x 420 (height, width) photo of a plain 5p and 5s (drawn fives on felt) beside a 1m block."""
    image = np.empty((300, 420, 3), np.uint8)
    image[:] = FELT
    boxes = []
    for k, (text, outer) in enumerate((("5p", BLUE), ("5s", BLACK))):
        image[80:200, 60 + 120 * k : 150 + 120 * k] = drawn_five(text, 120, 90, outer)
        cls = class_of_tile(parse_tiles(text)[0])
        boxes.append(RealBox(cls, (105 + 120 * k) / 420, 140 / 300, 90 / 420, 120 / 300))
    paint(image, 0, Box(320.0, 100.0, 350.0, 140.0))
    boxes.append(RealBox(0, 335 / 420, 120 / 300, 30 / 420, 40 / 300))
    path = tmp_path / "fives.png"
    cv2.imwrite(str(path), image)
    return RealPhoto(image=path, folder="test", subset="valid", source="fives", boxes=tuple(boxes))


def test_a_photo_inked_red_asks_for_its_fives_red_and_the_rest_as_they_were(photo_with_fives, photo):
    from vision.read.classifier import native_crop
    from vision.read.red_fives import Verdict, check_red_five

    image = cv2.imread(str(photo_with_fives.image))
    shot = inked(photo_with_fives, image, np.random.default_rng(0), side=840)
    assert shot.kind == "fives inked red" and shot.image.shape[:2] == (600, 840)
    assert [CLASS_NAMES[c] for c, _ in shot.truth] == ["0p", "0s", "1m"]
    for c, box in shot.truth[:2]:
        check = check_red_five(native_crop(shot.image, box), parse_tiles(CLASS_NAMES[c])[0])
        assert check.verdict is Verdict.RED, check.reason
    block = shot.truth[2][1]  # the 1m is not repainted
    enlarged = cv2.resize(image, (840, 600), interpolation=cv2.INTER_LINEAR)
    y, x = round((block.y1 + block.y2) / 2), round((block.x1 + block.x2) / 2)
    assert np.array_equal(shot.image[y, x], enlarged[y, x])
    with pytest.raises(ValueError, match="no five"):
        inked(photo, cv2.imread(str(photo.image)), np.random.default_rng(0))
    shots = list(phone_shots([photo, photo_with_fives], (), (), 840, red=True))
    assert [s.kind for s in shots] == ["fives inked red"]  # only the photo that shows a five


def test_camerash_hands_with_red_fives_are_the_hands_that_hold_a_five_with_it_red(tmp_path):
    (tmp_path / "tiles-resized").mkdir()
    (tmp_path / "tiles-data").mkdir()
    suits = {"m": "characters", "p": "dots", "s": "bamboo"}
    rows = ["5p.png,0,dots-5\n"]
    cv2.imwrite(str(tmp_path / "tiles-resized" / "5p.png"), drawn_five("5p", 320, 240, BLUE, margin=0.04))
    for cls in [c for c in range(27) if c not in (4, 13, 22)]:  # 24 photos of tiles that are no five
        name = CLASS_NAMES[cls]
        rows.append(f"{name}.png,0,{suits[name[1]]}-{name[0]}\n")
        block = np.full((320, 240, 3), block_colour(cls), np.uint8)
        cv2.imwrite(str(tmp_path / "tiles-resized" / f"{name}.png"), block)
    (tmp_path / "tiles-data" / "data.csv").write_text("\ufeffimage-name,label,label-name\n" + "".join(rows), "utf-8")
    plain_5p, red_5p = class_of_tile(parse_tiles("5p")[0]), class_of_tile(parse_tiles("0p")[0])
    plain = list(camerash_hands(8, zooms=(0.06,), seed=1, side=1600, root=tmp_path))
    red = list(camerash_hands(8, zooms=(0.06,), seed=1, side=1600, root=tmp_path, red=True))
    holding = [s for s in plain if plain_5p in [c for c, _ in s.truth]]
    assert 0 < len(holding) < len(plain)  # some hands hold the five, some do not
    assert [s.kind for s in red] == ["other set 0.06 red fives"] * len(holding)
    for r, p in zip(red, holding, strict=True):  # the same hand, laid out the same, its five red
        assert [b for _, b in r.truth] == [b for _, b in p.truth]
        assert [red_5p if c == plain_5p else c for c, _ in p.truth] == [c for c, _ in r.truth]
        (box,) = [b for c, b in r.truth if c == red_5p]
        tile = r.image[round(box.y1) : round(box.y2), round(box.x1) : round(box.x2)]
        assert (tile[..., 2].astype(int) - tile[..., 0] > 80).mean() > 0.1  # its pins painted red (BGR)
