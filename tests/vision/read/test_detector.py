"""The detector around the network: images in (EXIF, bad input), slices, batching, merging across slices, ONNX files."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import Tile
from tests.vision.fakes import BlocksNetwork, constant_onnx, encode, paint, with_exif_orientation
from vision.read.detector import (
    Detection,
    DetectorLayer,
    DetectorOptions,
    FakeDetector,
    OnnxNetwork,
    Orientation,
    SlicedDetector,
    apart_from,
    parse_names,
    plan_slices,
)
from vision.read.errors import ModelError, UnreadableImage
from vision.read.geometry import Box, Size
from vision.read.images import decode_image, load_image
from vision.read.labels import class_of_tile

# --- images -----------------------------------------------------------------------------------------------------


def _marked_frame() -> np.ndarray:
    """A 60 x 80 (h x w) frame, white block in the top-left corner."""
    frame = np.zeros((60, 80, 3), np.uint8)
    frame[:20, :20] = 255
    return frame


@pytest.mark.parametrize(
    ("orientation", "shape", "corner"),
    [
        (1, (60, 80), "top-left"),  # as stored
        (3, (60, 80), "bottom-right"),  # turned 180
        (6, (80, 60), "top-right"),  # phone held upright: turn 90 clockwise
        (8, (80, 60), "bottom-left"),  # turn 90 anticlockwise
    ],
)
def test_exif_orientation_is_honoured(tmp_path, orientation, shape, corner):
    path = tmp_path / "phone.jpg"
    path.write_bytes(with_exif_orientation(encode(_marked_frame()), orientation))
    image = load_image(path)
    assert image.shape == (*shape, 3) and image.dtype == np.uint8
    h, w = shape
    y, x = np.argwhere(image[..., 0] > 128).mean(axis=0)
    assert ("top" if y < h / 2 else "bottom") + "-" + ("left" if x < w / 2 else "right") == corner


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"hello, not an image\n", "not a readable image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "not a readable image"),  # a JPEG cut off in its header
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "HEIC/HEIF photo"),  # an iPhone photo
    ],
)
def test_bad_files_raise_unreadable_image(tmp_path, content, message):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(UnreadableImage, match=message):
        load_image(path)


def test_missing_path_and_directory(tmp_path):
    with pytest.raises(UnreadableImage, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(UnreadableImage, match="not a file"):
        load_image(tmp_path)


def test_grey_and_png_images_come_back_as_bgr():
    grey = np.full((30, 50), 77, np.uint8)
    image = decode_image(encode(grey, ".png"))
    assert image.shape == (30, 50, 3) and (image == 77).all()


# --- detections -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "orientation"),
    [
        (Box(0.0, 0.0, 30.0, 40.0), Orientation.UPRIGHT),
        (Box(0.0, 0.0, 40.0, 30.0), Orientation.SIDEWAYS),
    ],
)
def test_orientation_from_box(box, orientation):
    assert Detection.of_class(0, box, 0.9).orientation is orientation


def test_back_and_red_five_detections():
    back = Detection.of_class(37, Box(0.0, 0.0, 30.0, 40.0), 0.5)
    assert back.is_back and back.tile is None and back.label == "back"
    red = Detection.of_class(class_of_tile(Tile.parse("0s")), Box(0.0, 0.0, 30.0, 40.0), 0.5)
    assert red.tile == Tile.parse("0s") and red.as_json() == {"tile": "0s", "box": [0, 0, 30, 40], "conf": 0.5}


def test_fake_detector_answers_from_its_script():
    hit = Detection.of_class(4, Box(1.0, 2.0, 3.0, 4.0), 0.7)
    fake = FakeDetector(lambda image: [hit] if image.mean() > 0 else [])
    assert fake.detect(np.ones((20, 30, 3), np.uint8)) == [hit]
    assert fake.detect(np.zeros((20, 30, 3), np.uint8)) == []
    assert fake.seen == [Size(height=20, width=30)] * 2


# --- slices and merging ------------------------------------------------------------------------------------------


def test_slices_cover_the_frame_at_every_level():
    frame, net = Size(height=3000, width=4000), Size(height=640, width=640)
    slices = plan_slices(frame, net, scales=(1.0, 0.35), overlap=0.25)
    assert slices[-1].size == frame and slices[-1].level == 0
    for level in (1.0, 0.35):
        level_slices = [v for v in slices if v.level == level]
        covered = np.zeros((frame.height, frame.width), bool)
        for v in level_slices:
            covered[v.y0 : v.y1, v.x0 : v.x1] = True
            assert v.size == Size(height=round(640 / level), width=round(640 / level))
        assert covered.all()
    assert len([v for v in slices if v.level == 1.0]) == 8 * 6


def test_small_frames_are_read_whole_and_in_upscaled_slices():
    net = Size(height=416, width=416)
    assert [v.level for v in plan_slices(Size(height=480, width=640), net, small_slice_sides=())] == [0.0]
    small = plan_slices(Size(height=480, width=640), net, small_slice_sides=(400,))  # 400 px slices scaled up to 416
    assert [(v.size.width, v.size.height) for v in small] == [(400, 400)] * 4 + [(640, 480)]
    big = plan_slices(Size(height=3000, width=4000), net, small_slice_sides=(400,))  # none in a 12 MP frame
    assert min(v.size.width for v in big) == 640


def _scene(frame_size: Size, tiles: list[tuple[int, Box]]) -> np.ndarray:
    frame = np.full((frame_size.height, frame_size.width, 3), 60, np.uint8)
    for cls, box in tiles:
        paint(frame, cls, box)
    return frame


def _assert_found(found: list[Detection], truth: list[tuple[int, Box]], min_iou: float = 0.8) -> None:
    assert len(found) == len(truth), [(d.label, d.box) for d in found]
    for cls, box in truth:
        best = max(found, key=lambda d: d.box.iou(box))
        assert best.class_id == cls and best.box.iou(box) >= min_iou, (cls, box, best)


@pytest.mark.parametrize("short", [0, 4])
def test_tiles_across_slice_borders_are_found_once(short):
    # 1400 x 2000 frame (h x w), network input 320 x 416 (non-square): native slices, coarse slices, whole frame.
    # With ``short`` the network boxes a cut tile 4 px short of the slice border.
    net = BlocksNetwork(Size(height=320, width=416), max_batch=4, short=short)
    detector = SlicedDetector(net, DetectorOptions(scales=(1.0, 0.35), overlap=0.25))
    frame_size = Size(height=1400, width=2000)
    slices = plan_slices(frame_size, net.input_size, (1.0, 0.35), 0.25)
    inner_x = sorted({v.x1 for v in slices if v.level == 1.0 and v.x1 < 2000})
    inner_y = sorted({v.y1 for v in slices if v.level == 1.0 and v.y1 < 1400})
    truth = []
    for i in range(12):  # a row of small tiles (28 x 38 px) crossing several slice borders
        truth.append((i % 34, Box(150.0 + i * 30, 290.0, 178.0 + i * 30, 328.0)))
    x, y = inner_x[2], inner_y[1]
    truth.append((37, Box(x - 14.0, y - 20.0, x + 14.0, y + 18.0)))  # a face-down tile on a slice corner
    truth.append((35, Box(1600.0, 150.0, 1640.0, 178.0)))  # a sideways red five
    truth.append((31, Box(1100.0, 750.0, 1700.0, 1390.0)))  # a close-up tile bigger than any native slice
    found = detector.detect(_scene(frame_size, truth))
    _assert_found(found, truth)
    assert {d.orientation for d in found if d.class_id == 35} == {Orientation.SIDEWAYS}
    assert sum(net.calls) == len(slices) and max(net.calls) == 4 and len(net.calls) == -(-len(slices) // 4)


class _HalfBoxNetwork(BlocksNetwork):
    """Also boxes the left half of each block as the next class, less confidently (an unsure network)."""

    def __call__(self, batch):
        out = super().__call__(batch)
        for b in range(len(out)):
            found = np.flatnonzero(out[b, 4:].max(axis=0) > 0)
            for k, j in enumerate(found, start=len(found)):
                cx, cy, w, h = out[b, :4, j]
                cls = int(out[b, 4:, j].argmax())
                out[b, :4, k] = (cx - w / 4, cy, w / 2, h)
                out[b, 4 + (cls + 1) % 34, k] = 0.5
        return out


def _read_row(network: BlocksNetwork, pitch: float) -> tuple[list, list[tuple[int, Box]]]:
    """A row of four 40 x 52 px tiles, ``pitch`` px apart left edge to left edge, read whole by ``network``; what
    was found and the truth."""
    truth = [(c, Box(100.0 + pitch * i, 100.0, 140.0 + pitch * i, 152.0)) for i, c in enumerate((0, 9, 18, 27))]
    found = SlicedDetector(network, DetectorOptions(scales=())).detect(_scene(Size(height=300, width=400), truth))
    return found, truth


def test_a_half_box_of_another_class_inside_a_tile_is_dropped():
    _assert_found(*_read_row(_HalfBoxNetwork(), 50.0))


class _StraddlingNetwork(BlocksNetwork):
    """Also boxes the gap between each two neighbouring blocks of a row, half of each, unsurely (0.3)."""

    def __call__(self, batch):
        out = super().__call__(batch)
        for b in range(len(out)):
            found = sorted(np.flatnonzero(out[b, 4:].max(axis=0) > 0), key=lambda j: out[b, 0, j])
            for k, (left, right) in enumerate(itertools.pairwise(found), start=len(found)):
                out[b, :4, k] = (out[b, 0, left] + out[b, 0, right]) / 2, out[b, 1, left], *out[b, 2:4, left]
                out[b, 4 + 5, k] = 0.3
        return out


def test_a_box_across_the_gap_between_two_tiles_is_dropped():
    found, truth = _read_row(_StraddlingNetwork(), 44.0)
    _assert_found(found, truth)
    assert len(found) == len(truth)


@pytest.mark.parametrize(
    ("boxes", "kept"),
    [
        # two neighbours (0.9, 0.8), then a box across the gap between them (0.3): covered whole by the two
        ([(0, 0, 40, 50), (44, 0, 84, 50), (22, 0, 62, 50)], [0, 1]),
        # the same box more confident than one neighbour: the neighbour is half covered and stays, it is not
        ([(0, 0, 40, 50), (22, 0, 62, 50), (44, 0, 84, 50)], [0, 1, 2]),
        # a tile half under a more confident one (a tile lying on another) stays
        ([(0, 0, 40, 50), (20, 10, 60, 60)], [0, 1]),
        # a row of tiles edge to edge: none covers another
        ([(0, 0, 40, 50), (40, 0, 80, 50), (80, 0, 120, 50)], [0, 1, 2]),
        # a box inside the union of four around it
        ([(0, 0, 30, 30), (30, 0, 60, 30), (0, 30, 30, 60), (30, 30, 60, 60), (15, 15, 45, 45)], [0, 1, 2, 3]),
    ],
)
def test_covered_boxes_are_suppressed_best_first(boxes, kept):
    from vision.read.detector import _suppress_covered
    from vision.read.postprocess import Raw

    scores = np.array([0.9, 0.8, 0.3, 0.25, 0.2][: len(boxes)], np.float32)
    raw = Raw(np.array(boxes, np.float32), scores, np.zeros(len(boxes), np.int64))
    assert _suppress_covered(raw, 0.9).tolist() == kept


def test_a_close_up_is_read_as_whole_tiles_not_their_parts():
    # a phone close-up: 1200 x 1600 frame, tiles 260 x 340 px, bigger than the network learnt in a 320 x 416 slice
    net = BlocksNetwork(Size(height=320, width=416), parts=True)
    truth = [(c, Box(100.0 + 300 * i, 400.0, 360.0 + 300 * i, 740.0)) for i, c in enumerate((4, 13, 22, 33))]
    found = SlicedDetector(net).detect(_scene(Size(height=1200, width=1600), truth))
    _assert_found(found, truth)


@pytest.mark.parametrize(
    ("frame", "net"),
    [((480, 640), (640, 640)), ((640, 480), (640, 640)), ((300, 900), (320, 416)), ((1080, 1920), (384, 640))],
)
def test_single_pass_boxes_land_where_the_tiles_are(frame, net):
    frame_size = Size(*frame)
    h, w = frame
    truth = [
        (2, Box(w * 0.1, h * 0.2, w * 0.1 + 40, h * 0.2 + 54)),
        (20, Box(w * 0.7, h * 0.6, w * 0.7 + 54, h * 0.6 + 40)),
    ]
    detector = SlicedDetector(BlocksNetwork(Size(*net)), DetectorOptions(scales=()))
    _assert_found(detector.detect(_scene(frame_size, truth)), truth, min_iou=0.85)


def test_detector_rejects_non_images():
    detector = SlicedDetector(BlocksNetwork())
    with pytest.raises(ValueError, match="BGR uint8"):
        detector.detect(np.zeros((10, 10), np.uint8))
    with pytest.raises(ValueError, match="BGR uint8"):
        detector.detect(np.zeros((10, 10, 3), np.float32))


# --- ONNX models ------------------------------------------------------------------------------------------------

onnx = pytest.importorskip("onnx", reason="building test ONNX files needs the onnx package (pip install onnx)")


def test_onnx_network_reads_names_and_input_size_from_the_model(tmp_path):
    path = constant_onnx(tmp_path / "m.onnx", [(0, 160, 128, 32, 48, 0.9)], input_shape=(1, 3, 256, 320))
    net = OnnxNetwork(path)
    assert net.input_size == Size(height=256, width=320) and net.max_batch == 1
    assert net.names[0] == "1m" and net.names[-1] == "back"
    assert net.load_seconds < 1.0


def test_dynamic_onnx_takes_its_size_from_metadata_and_batches(tmp_path):
    path = constant_onnx(
        tmp_path / "m.onnx", [(0, 160, 128, 32, 48, 0.9)], input_shape=("batch", 3, "h", "w"), imgsz="[256, 320]"
    )
    net = OnnxNetwork(path, max_batch=8)
    assert net.input_size == Size(height=256, width=320) and net.fixed_batch is None and net.max_batch == 8
    assert net(np.zeros((5, 3, 256, 320), np.float32)).shape == (5, 42, 16)


def test_onnx_detector_maps_boxes_back_to_a_non_square_frame(tmp_path):
    # network input 256 x 320 (h x w); frame 1024 x 1600: scale 0.2, padded 25 px above: (128 - 25) / 0.2 = 515 centre
    path = constant_onnx(tmp_path / "m.onnx", [(13, 160, 128, 32, 48, 0.9), (37, 60, 100, 20, 30, 0.1)])
    found = SlicedDetector(OnnxNetwork(path), DetectorOptions(scales=())).detect(np.zeros((1024, 1600, 3), np.uint8))
    assert [(d.label, d.box.as_list()) for d in found] == [("5p", [720.0, 395.0, 880.0, 635.0])]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("1m", "2m", "dragon"), "not tile classes"),
    ],
)
def test_models_with_foreign_classes_are_refused(tmp_path, names, message):
    path = constant_onnx(tmp_path / "m.onnx", [], names=names)
    with pytest.raises(ModelError, match=message):
        SlicedDetector(OnnxNetwork(path))


@pytest.mark.parametrize("shortcut", ["OnnxDetector", "load_detector"])
def test_an_onnx_file_becomes_a_detector_one_way(shortcut):
    # a SlicedDetector on an OnnxNetwork, built by the reader's one factory: no second way that tests alone used
    import vision.read.detector

    assert not hasattr(vision.read.detector, shortcut)


def test_missing_and_broken_models(tmp_path):
    with pytest.raises(ModelError, match="no detector model"):
        OnnxNetwork(tmp_path / "none.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a loadable ONNX model"):
        OnnxNetwork(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [(None, "no class names"), ("{1: 'a'}", "not 0..0"), ("{0: ", "unreadable"), ("42", "neither")],
)
def test_bad_names_metadata(text, message):
    with pytest.raises(ModelError, match=message):
        parse_names(text)


def test_candidates_merge_again_at_a_higher_threshold():
    truth = [(3, Box(50.0, 50.0, 90.0, 104.0)), (4, Box(200.0, 60.0, 205.0, 65.0))]  # the small one scores 0.6
    detector = SlicedDetector(BlocksNetwork(), DetectorOptions(scales=(), conf=0.25))
    found = detector.candidates(_scene(Size(height=240, width=360), truth))
    assert [d.label for d in detector.merge(found)] == ["4m", "5m"]
    assert [d.label for d in detector.merge(found, DetectorOptions(conf=0.7))] == ["4m"]


def test_a_layer_answers_with_its_inner_detector_what_it_lacks():
    """DetectorLayer: the photo layers stack in any order because each forwards what it lacks to its inner
    detector; its own attributes, unset (a layer half built), raise plainly instead of recursing."""
    from vision.read.classifier import TwoStageDetector
    from vision.read.views.low_angle import SquatDetector

    inner = FakeDetector()
    inner.input_size = Size(height=480, width=640)
    stacked = SquatDetector(SquatDetector(inner))
    assert stacked.input_size == Size(height=480, width=640) and stacked.seen is inner.seen
    assert isinstance(stacked, DetectorLayer)
    half_built = SquatDetector.__new__(SquatDetector)
    with pytest.raises(AttributeError, match="detector"):
        _ = half_built.input_size
    inner.classifier = "the inner detector's"  # a classifier layer's classifier is its own, never the inner's
    unnamed = TwoStageDetector.__new__(TwoStageDetector)
    unnamed.detector = inner
    with pytest.raises(AttributeError, match="classifier"):
        _ = unnamed.classifier
    with pytest.raises(AttributeError, match="no_such"):
        _ = stacked.no_such


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_sessions_sleep_between_runs_and_take_the_threads_asked(threads):
    """A reader's sessions run in turn: one left spinning after its run would take the cores from the next."""
    from vision.read.detector import SPIN_BETWEEN_RUNS, session_options

    opts = session_options(threads)
    assert not SPIN_BETWEEN_RUNS
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert opts.intra_op_num_threads == (threads or 0) and opts.inter_op_num_threads == 1


@given(st.integers(0, 2**32 - 1), st.integers(0, 25), st.integers(0, 25))
@settings(max_examples=60, deadline=None)
def test_apart_from_keeps_the_boxes_on_no_tile_of_the_others(seed, n, m):
    rng = np.random.default_rng(seed)

    def boxes(k: int) -> list[Detection]:
        xy = rng.choice([0.0, 10.0, 20.0, 25.0, 40.0], (k, 2))
        wh = rng.choice([0.0, 5.0, 10.0, 20.0], (k, 2))  # some of no area
        return [Detection.of_class(0, Box(x, y, x + w, y + h), 0.5) for (x, y), (w, h) in zip(xy, wh, strict=True)]

    found, others = boxes(n), boxes(m)
    same_tile = [any(d.box.iou(o.box) > 0.3 or d.box.share_inside(o.box) >= 0.5 for o in others) for d in found]
    assert apart_from(found, others) == [d for d, same in zip(found, same_tile, strict=True) if not same]
