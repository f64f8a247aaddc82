"""The crop classifier's runtime: crop extraction on non-square frames, sideways boxes turned upright, a hand-built
ONNX classifier read through :class:`OnnxTileClassifier`, and :class:`TwoStageDetector` over a fake detector."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from device.lab.cli import main
from engine.tiles import Tile
from tests.vision.fakes import colour_model
from vision.read.classifier import (
    CROP_SIZE,
    MIN_TILE_PROB,
    MODEL_KIND,
    OnnxTileClassifier,
    TwoStageDetector,
    classifier_for,
    crop_view,
    crop_views,
    extract_crop,
    with_classifier,
)
from vision.read.detector import Detection, DetectorLayer, FakeDetector, Orientation
from vision.read.errors import ModelError
from vision.read.geometry import Box, Size
from vision.read.labels import CLASS_NAMES, class_of_tile
from vision.train.classifier_training import Jitter, jittered_box, jittered_crop

BLUE, GREEN, RED = (255, 0, 0), (0, 255, 0), (0, 0, 255)  # BGR


def frame_with(h: int, w: int, blocks) -> np.ndarray:
    frame = np.full((h, w, 3), 128, np.uint8)
    for colour, (x1, y1, x2, y2) in blocks:
        frame[y1:y2, x1:x2] = colour
    return frame


# --- crops ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("height", "width", "box"),
    [
        (480, 1000, (700, 50, 760, 130)),  # wide frame, tile near the right edge
        (1000, 480, (40, 800, 100, 880)),  # tall frame, tile near the bottom
        (3000, 4000, (3000, 100, 3090, 220)),  # 12 MP frame: a 90 x 120 tile shrunk to the input
    ],
)
def test_crop_of_a_non_square_frame_is_the_box_itself(height, width, box):
    frame = frame_with(height, width, [(RED, box)])
    crop = extract_crop(frame, Box(*map(float, box)), margin=0.0)
    assert crop.shape == (CROP_SIZE.height, CROP_SIZE.width, 3)
    assert (crop == RED).all()  # x and y were not swapped: the crop lies wholly in the red block


def test_margin_takes_in_the_tiles_surroundings():
    frame = frame_with(300, 500, [(RED, (200, 100, 260, 180))])
    crop = extract_crop(frame, Box(200.0, 100.0, 260.0, 180.0), margin=0.2)
    assert (crop[CROP_SIZE.height // 2, CROP_SIZE.width // 2] == RED).all()
    assert (crop[0, 0] == 128).all() and (crop[-1, -1] == 128).all()


@pytest.mark.parametrize(
    ("box", "sideways"),
    [
        ((100, 50, 220, 130), True),  # 120 wide, 80 tall: a called / riichi tile lying sideways
        ((100, 50, 180, 170), False),  # 80 wide, 120 tall: upright
    ],
)
def test_sideways_boxes_are_turned_a_quarter_clockwise(box, sideways):
    x1, y1, x2, y2 = box
    xm, ym = (x1 + x2) // 2, (y1 + y2) // 2
    # left half red, right half blue; for the upright case, top half red, bottom half blue
    blocks = (
        [(RED, (x1, y1, xm, y2)), (BLUE, (xm, y1, x2, y2))]
        if sideways
        else [(RED, (x1, y1, x2, ym)), (BLUE, (x1, ym, x2, y2))]
    )
    frame = frame_with(240, 400, blocks)
    crop = extract_crop(frame, Box(*map(float, box)), margin=0.0)
    assert crop.shape == (64, 48, 3)
    # turned clockwise, the left half comes on top: in both cases red is on top, blue below
    assert (crop[:28] == RED).all() and (crop[-28:] == BLUE).all()


def test_not_turned_when_asked():
    frame = frame_with(240, 400, [(RED, (100, 50, 160, 130)), (BLUE, (160, 50, 220, 130))])
    crop = extract_crop(frame, Box(100.0, 50.0, 220.0, 130.0), Size(height=40, width=60), margin=0.0, turn=False)
    assert crop.shape == (40, 60, 3) and (crop[:, :25] == RED).all() and (crop[:, -25:] == BLUE).all()


def test_box_over_the_frame_edge_repeats_edge_pixels():
    frame = frame_with(100, 160, [(GREEN, (140, 0, 160, 30))])
    crop = extract_crop(frame, Box(140.0, -10.0, 175.0, 30.0), margin=0.0)
    assert crop.shape == (64, 48, 3) and (crop == GREEN).all()


@pytest.mark.parametrize(
    ("box", "message"),
    [
        ((500.0, 10.0, 540.0, 60.0), "outside"),
        ((10.0, 10.0, 10.0, 60.0), "empty"),
    ],
)
def test_bad_boxes_are_refused(box, message):
    with pytest.raises(ValueError, match=message):
        extract_crop(np.zeros((100, 160, 3), np.uint8), Box(*box))


def test_jitter_is_seeded_and_keeps_the_size():
    frame = frame_with(200, 300, [(RED, (100, 50, 140, 110))])
    a = jittered_crop(frame, Box(100.0, 50.0, 140.0, 110.0), np.random.default_rng(3), Jitter())
    b = jittered_crop(frame, Box(100.0, 50.0, 140.0, 110.0), np.random.default_rng(3), Jitter())
    assert a.shape == (64, 48, 3) and (a == b).all()
    box = jittered_box(Box(0.0, 0.0, 30.0, 40.0), np.random.default_rng(0), 0.3)
    assert box.width >= 10 and box.height >= 40 / 3


# --- a hand-built ONNX classifier ----------------------------------------------------------------------------


def test_onnx_classifier_reads_crops_in_our_class_order(tmp_path):
    # the model's own order differs from ours: columns are matched by name
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("back", "1m", "6z")))
    assert clf.input_size == Size(height=64, width=48)
    crops = np.stack([np.full((64, 48, 3), c, np.uint8) for c in (RED, GREEN, BLUE)])
    probs = clf.probabilities(crops)
    assert probs.shape == (3, len(CLASS_NAMES))
    assert [CLASS_NAMES[i] for i in probs.argmax(1)] == ["1m", "6z", "back"]
    assert np.allclose(probs.sum(1), 1.0)


@pytest.mark.parametrize(
    ("kind", "names", "message"),
    [
        (None, ("1m", "6z"), "not a tile classifier"),
        ("yolo", ("1m", "6z"), "not a tile classifier"),
        (MODEL_KIND, ("1m", "dragon"), "not tile classes"),
    ],
)
def test_models_that_are_no_tile_classifier_are_refused(tmp_path, kind, names, message):
    with pytest.raises(ModelError, match=message):
        OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=names, kind=kind))


def test_missing_and_broken_files_are_model_errors(tmp_path):
    with pytest.raises(ModelError, match="no tile classifier"):
        OnnxTileClassifier(tmp_path / "none.onnx")
    (tmp_path / "bad.onnx").write_bytes(b"not onnx")
    with pytest.raises(ModelError, match="not a loadable"):
        OnnxTileClassifier(tmp_path / "bad.onnx")


def test_views_decide_which_tile_and_the_crop_as_cut_whether_a_tile(tmp_path):
    # colour classes: red 1m, green 6z, blue "no tile"; blue over the top half, red (and green) below, so that
    # the views of crop_views read differently (a shift moves rows of each colour in or out)
    path = colour_model(tmp_path / "c.onnx", names=("1m", "6z", "none"))
    crops = np.zeros((3, 64, 48, 3), np.uint8)
    crops[:, :31], crops[:, 31:] = BLUE, RED
    crops[1, 48:], crops[2, 31:40] = GREEN, GREEN
    once, viewed = OnnxTileClassifier(path, views=False), OnnxTileClassifier(path)
    assert once.view_names == ("as cut",) and viewed.view_names == ("as cut", "half turn", "down right", "up left")
    each = [once.all_probabilities(v) for v in crop_views(crops)]
    assert each[2][1][0] - each[3][1][0] > 0.2  # moved down, more of the blue: the views differ
    probs, none = viewed.all_probabilities(crops)
    mean = np.mean([p for p, _ in each], axis=0)
    assert np.allclose(none, each[0][1], atol=1e-6)  # no tile: as cut
    assert np.allclose(probs / probs.sum(1, keepdims=True), mean / mean.sum(1, keepdims=True), atol=1e-6)
    assert np.allclose(probs.sum(1) + none, 1.0)


def test_crops_of_the_wrong_size_are_refused(tmp_path):
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    with pytest.raises(ValueError, match="64x48"):
        clf.probabilities(np.zeros((1, 48, 64, 3), np.uint8))


# --- two stages ----------------------------------------------------------------------------------------------


def test_two_stage_detector_keeps_boxes_and_takes_the_classifiers_tiles(tmp_path):
    # a non-square frame; the detector finds three boxes and calls every one 1p (a detector unsure of classes)
    boxes = {RED: (600, 40, 660, 120), GREEN: (100, 300, 220, 380), BLUE: (20, 20, 80, 100)}  # green lies sideways
    frame = frame_with(420, 900, [(c, b) for c, b in boxes.items()])
    one_p = class_of_tile(Tile.parse("1p"))
    found = [Detection.of_class(one_p, Box(*map(float, b)), 0.4) for b in boxes.values()]
    two = TwoStageDetector(FakeDetector(found), OnnxTileClassifier(colour_model(tmp_path / "c.onnx")))
    out = two.detect(frame)
    assert [d.label for d in out] == ["1m", "6z", "back"]
    assert [d.box for d in out] == [d.box for d in found]
    assert [d.conf for d in out] == [0.4, 0.4, 0.4]
    assert out[1].orientation is Orientation.SIDEWAYS


def test_two_stage_names_the_boxes_of_several_slices_in_one_classifier_run(tmp_path):
    # a non-square frame read in two slices (a camera's zone read): each slice's box in frame pixels, named once
    frame = frame_with(420, 900, [(RED, (100, 40, 160, 120)), (GREEN, (600, 300, 720, 380))])
    one_p = class_of_tile(Tile.parse("1p"))
    inner = FakeDetector(lambda crop: [Detection.of_class(one_p, Box(100.0, 40.0, 160.0, 120.0), 0.5)]
                         if crop[80, 130].tolist() == list(RED) else
                         [Detection.of_class(one_p, Box(200.0, 0.0, 320.0, 80.0), 0.5)])  # fmt: skip
    classifier = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    two = TwoStageDetector(inner, classifier, red_check=None)
    out = two.detect_in_slices(frame, [(0, 0, 400, 420), (400, 300, 900, 420)])
    assert [(d.label, d.box) for d in out] == [("1m", Box(100.0, 40.0, 160.0, 120.0)), ("6z", Box(600, 300, 720, 380))]
    assert inner.seen == [Size(height=420, width=400), Size(height=120, width=500)]
    assert classifier.runs == 1


@pytest.mark.parametrize("cut_conf", [0.9, 0.5])  # the cut box more confident than the whole one, and less
def test_a_tile_cut_by_one_slice_is_read_whole_from_the_slice_beside(tmp_path, cut_conf):
    # a sideways tile across the border two slices share: the left slice boxes it short at its border (upright, as
    # a riichi tile read upright), the right one whole; the whole box speaks for the tile, whatever the confidences
    frame = frame_with(420, 900, [(RED, (100, 40, 160, 120)), (GREEN, (440, 200, 560, 260))])
    one_p = class_of_tile(Tile.parse("1p"))

    def found(crop):
        if crop[80, 130].tolist() == list(RED):  # the left slice, x 0..500
            return [Detection.of_class(one_p, Box(100.0, 40.0, 160.0, 120.0), 0.8),
                    Detection.of_class(one_p, Box(440.0, 200.0, 500.0, 260.0), cut_conf)]  # fmt: skip
        return [Detection.of_class(one_p, Box(40.0, 200.0, 160.0, 260.0), 0.7)]  # the right slice, x 400..900

    two = TwoStageDetector(FakeDetector(found), OnnxTileClassifier(colour_model(tmp_path / "c.onnx")), red_check=None)
    out = two.detect_in_slices(frame, [(0, 0, 500, 420), (400, 0, 900, 420)])
    assert [(d.label, d.box, d.orientation) for d in out] == [
        ("1m", Box(100.0, 40.0, 160.0, 120.0), Orientation.UPRIGHT),
        ("6z", Box(440.0, 200.0, 560.0, 260.0), Orientation.SIDEWAYS),
    ]


def test_two_stage_reads_whole_slices_shrunk_in_one_run_each(tmp_path):
    # a tile too big for the finest slice (a network misses a tile far larger than it learnt), found in a
    # coarser slice read whole, shrunk to the input, as a whole read's pyramid finds it
    from tests.vision.fakes import BlocksNetwork, paint
    from vision.read.detector import SlicedDetector

    frame = np.full((900, 1400, 3), 40, np.uint8)
    paint(frame, class_of_tile(Tile.parse("1m")), Box(500.0, 300.0, 800.0, 500.0))
    network = BlocksNetwork(max_batch=1, largest=0.3)
    classifier = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    two = TwoStageDetector(SlicedDetector(network), classifier, red_check=None)
    assert two.detect_in_slices(frame, [(380, 260, 1020, 900)]) == []
    fine = network.runs
    out = two.detect_in_slices(frame, [(380, 260, 1020, 900)], whole=[(0, 0, 1400, 900)])
    assert len(out) == 1 and out[0].box.iou(Box(500.0, 300.0, 800.0, 500.0)) > 0.95  # (boxed at a third the scale)
    assert network.runs - fine == fine + 1  # the whole slice in one run
    assert classifier.runs == 1  # the boxes of every slice named at once


def test_two_stage_drops_boxes_the_classifier_reads_as_no_tile(tmp_path):
    # a model with a "none" class: blue crops are no tile (a detector's false box)
    boxes = {RED: (600, 40, 660, 120), BLUE: (20, 20, 80, 100), GREEN: (100, 300, 220, 380)}
    frame = frame_with(420, 900, [(c, b) for c, b in boxes.items()])
    found = [Detection.of_class(9, Box(*map(float, b)), 0.5) for b in boxes.values()]
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    guesses = clf.classify(frame, [d.box for d in found])
    assert [g.is_tile for g in guesses] == [True, False, True]
    assert guesses[1].none_prob > 0.9 and guesses[0].none_prob < 0.1
    assert [d.label for d in TwoStageDetector(FakeDetector(found), clf).detect(frame)] == ["1m", "6z"]
    kept = TwoStageDetector(FakeDetector(found), clf, drop_non_tiles=False).detect(frame)
    assert len(kept) == 3


def test_two_stage_drops_boxes_the_classifier_names_no_tile_surely(tmp_path):
    # a grey crop is each of the colour model's three classes by a third: no tile it knows, at min_tile_prob 0.5
    boxes = {RED: (600, 40, 660, 120), (128, 128, 128): (20, 20, 80, 100)}
    frame = frame_with(420, 900, [(c, b) for c, b in boxes.items()])
    found = [Detection.of_class(9, Box(*map(float, b)), 0.5) for b in boxes.values()]
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    assert [round(g.prob, 2) for g in clf.classify(frame, [d.box for d in found])] == [1.0, 0.33]
    assert TwoStageDetector(FakeDetector(found), clf).min_tile_prob == MIN_TILE_PROB < 1 / 3
    assert len(TwoStageDetector(FakeDetector(found), clf).detect(frame)) == 2
    assert [d.label for d in TwoStageDetector(FakeDetector(found), clf, min_tile_prob=0.5).detect(frame)] == ["1m"]
    kept = TwoStageDetector(FakeDetector(found), clf, min_tile_prob=0.5, drop_non_tiles=False).detect(frame)
    assert len(kept) == 2


def test_two_stage_can_keep_confident_detector_classes(tmp_path):
    frame = frame_with(200, 300, [(RED, (10, 10, 50, 60)), (RED, (100, 10, 140, 60))])
    five_s = class_of_tile(Tile.parse("5s"))
    found = [
        Detection.of_class(five_s, Box(10.0, 10.0, 50.0, 60.0), 0.95),
        Detection.of_class(five_s, Box(100.0, 10.0, 140.0, 60.0), 0.3),
    ]
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    out = TwoStageDetector(FakeDetector(found), clf, keep_detector_above=0.9).detect(frame)
    assert [d.label for d in out] == ["5s", "1m"]


@dataclass
class WeakBoxesDetector:
    """A detector that also hands over weak boxes (as :meth:`vision.read.scale.PhotoDetector.detect_with_weak` does)."""

    found: list
    weak: list

    def detect(self, image):
        return list(self.found)

    def detect_with_weak(self, image):
        return list(self.found), list(self.weak)


@dataclass
class PassingLayer(DetectorLayer):
    """A layer that hands everything it lacks to its inner detector (as the photo layers do)."""

    detector: object

    def detect(self, image):
        return self.detector.detect(image)


@pytest.mark.parametrize(
    ("weak_tile_prob", "layered", "labels"),
    [
        (None, False, ["1m"]),  # weak boxes not asked for
        (0.6, False, ["1m", "6z"]),  # the green weak box is surely 6z; the grey one is a third of each class
        (0.3, False, ["1m", "6z", "1m"]),  # grey: 1m by a third, the likeliest class, kept at this low a bar
        (0.6, True, ["1m"]),  # a layer's borrowed method would give boxes in the inner detector's coordinates
    ],
)
def test_two_stage_keeps_a_weak_box_only_where_the_classifier_is_sure(tmp_path, weak_tile_prob, layered, labels):
    blocks = [(RED, (10, 10, 50, 60)), (GREEN, (100, 10, 140, 60)), ((128, 128, 128), (200, 10, 240, 60))]
    frame = frame_with(200, 300, blocks)
    found = [Detection.of_class(9, Box(10.0, 10.0, 50.0, 60.0), 0.9)]
    weak = [Detection.of_class(9, Box(*map(float, b)), 0.2) for _, b in blocks[1:]]
    inner = WeakBoxesDetector(found, weak)
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    two = TwoStageDetector(PassingLayer(inner) if layered else inner, clf, weak_tile_prob=weak_tile_prob)
    out = two.detect(frame)
    assert [d.label for d in out] == labels
    assert all(d.conf == 0.2 for d in out[1:])  # the detector's own confidence, as every box keeps


def test_weak_boxes_are_read_in_all_views_only_past_a_first_look(tmp_path, monkeypatch):
    # names ("1m", "none", "6z"): a blue crop is no tile, so its weak box goes after one look, as cut
    blocks = [(RED, (10, 10, 50, 60)), (GREEN, (100, 10, 140, 60)), (BLUE, (200, 10, 240, 60))]
    frame = frame_with(200, 300, blocks)
    found = [Detection.of_class(9, Box(10.0, 10.0, 50.0, 60.0), 0.9)]
    weak = [Detection.of_class(9, Box(*map(float, b)), 0.2) for _, b in blocks[1:]]
    clf = OnnxTileClassifier(colour_model(tmp_path / "c.onnx", names=("1m", "none", "6z")))
    reads = []
    classify = clf.classify

    def spy(image, boxes, views=None, **kwargs):
        reads.append((len(boxes), views))
        return classify(image, boxes, views, **kwargs)

    monkeypatch.setattr(clf, "classify", spy)
    out = TwoStageDetector(WeakBoxesDetector(found, weak), clf).detect(frame)
    assert [d.label for d in out] == ["1m", "6z"]
    assert reads == [(2, False), (2, None)]  # both weak boxes looked at once; the tile and the green one in views


def test_classifier_for_a_detector_model(tmp_path, monkeypatch):
    monkeypatch.delenv("JANTAKU_CLASSIFIER", raising=False)
    assert classifier_for(tmp_path / "elsewhere.onnx") is None  # a model from a training run or a test: alone
    model = colour_model(tmp_path / "c.onnx")
    monkeypatch.setenv("JANTAKU_CLASSIFIER", str(model))  # asked for: with any detector model
    assert isinstance(classifier_for(tmp_path / "elsewhere.onnx"), OnnxTileClassifier)
    monkeypatch.setenv("JANTAKU_CLASSIFIER", "none")
    assert classifier_for(None) is None
    monkeypatch.setenv("JANTAKU_CLASSIFIER", str(tmp_path / "absent.onnx"))  # asked for and missing: an error
    with pytest.raises(ModelError, match="no tile classifier"):
        classifier_for(None)


def test_photos_take_the_photo_classifier_where_one_is_shipped(tmp_path, monkeypatch):
    import vision.read.classifier as module

    monkeypatch.delenv("JANTAKU_CLASSIFIER", raising=False)
    shipped = colour_model(tmp_path / "tile_classifier.onnx")
    monkeypatch.setattr(module, "SHIPPED_CLASSIFIER", shipped)
    monkeypatch.setattr(module, "SHIPPED_PHOTO_CLASSIFIER", tmp_path / "tile_classifier_photo.onnx")
    assert module.default_classifier_path(for_photos=True) == shipped  # none shipped for photos: the one
    colour_model(tmp_path / "tile_classifier_photo.onnx")
    assert module.default_classifier_path(for_photos=True) == tmp_path / "tile_classifier_photo.onnx"
    assert module.default_classifier_path() == shipped  # the camera's
    assert module.classifier_for(None, for_photos=True).path == tmp_path / "tile_classifier_photo.onnx"
    monkeypatch.setenv("JANTAKU_CLASSIFIER", str(shipped))  # asked for: for photos too
    assert module.default_classifier_path(for_photos=True) == shipped


def test_with_classifier(tmp_path):
    detector = FakeDetector([])
    assert with_classifier(detector, None) is detector
    two = with_classifier(detector, colour_model(tmp_path / "c.onnx"))
    assert isinstance(two, TwoStageDetector) and two.detector is detector


def test_eval_classifier_without_a_model_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["eval", "classifier", "--model", str(tmp_path / "none.onnx")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no tile classifier" in err


def _two_colour_crops():
    """64 crops of two classes told apart by colour: red crops are 1m, blue crops are back."""
    from vision.train.classifier_training import CropSet

    rng = np.random.default_rng(0)
    x = np.stack([np.full((64, 48, 3), RED if i % 2 else BLUE, np.uint8) for i in range(64)])
    x = np.clip(x.astype(int) + rng.integers(-20, 20, x.shape), 0, 255).astype(np.uint8)
    return CropSet(x, np.where(np.arange(64) % 2, CLASS_NAMES.index("1m"), CLASS_NAMES.index("back")))


def test_a_few_training_steps_export_to_onnx_that_reads_as_torch_does(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.train.classifier_training import TRAIN_NAMES, TrainOptions, evaluate_torch, export_onnx, train

    data = _two_colour_crops()
    x = data.x
    model, report = train(data, TrainOptions(epochs=3, batch=16, width=8, seed=1))
    assert report.steps == 12
    path = export_onnx(model, tmp_path / "tiny.onnx", {"training": "test"})
    clf = OnnxTileClassifier(path, views=False)
    assert clf.names == TRAIN_NAMES and clf.metadata["training"] == "test"
    probs, none = clf.all_probabilities(x)
    with torch.no_grad():
        logits = model(torch.from_numpy(np.ascontiguousarray(x[..., ::-1].transpose(0, 3, 1, 2))).float() / 255)
    expected = torch.softmax(logits, 1).numpy()
    assert np.allclose(probs, expected[:, : len(CLASS_NAMES)], atol=1e-5)
    assert np.allclose(none, expected[:, -1], atol=1e-5)
    assert (evaluate_torch(model, data) == probs.argmax(1)).all()


def test_an_exported_classifier_loads_back_to_read_as_the_file_and_trains_on_from_there(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.train.classifier_training import TrainOptions, evaluate_torch, export_onnx, network_from_onnx, train

    data = _two_colour_crops()
    x, y = data.x, data.y
    model, _ = train(data, TrainOptions(epochs=2, batch=16, width=8, seed=1))
    path = export_onnx(model, tmp_path / "first.onnx")
    loaded = network_from_onnx(path)
    tensor = torch.from_numpy(np.ascontiguousarray(x[..., ::-1].transpose(0, 3, 1, 2))).float() / 255
    with torch.no_grad():
        assert torch.allclose(loaded(tensor), model(tensor), atol=1e-4)
    # on from there: the folded norms keep their fixed statistics, the weights move, the file's reading holds
    more, report = train(data, TrainOptions(epochs=1, batch=16, lr=1e-3, seed=2, init=str(path)))
    assert report.steps == 4
    norm = next(m for m in more.modules() if isinstance(m, torch.nn.BatchNorm2d))
    assert float(norm.running_mean.abs().max()) == 0.0
    first_conv = more.features[0][0].weight
    assert not torch.allclose(first_conv, loaded.features[0][0].weight)
    assert (evaluate_torch(loaded, data) == evaluate_torch(model, data)).all()
    assert (evaluate_torch(more, data) == y).mean() >= (evaluate_torch(loaded, data) == y).mean()


@pytest.mark.parametrize(("height", "width", "sigma"), [(64, 48, 0.8), (64, 48, 2.4), (30, 70, 1.5)])
def test_online_blur_is_opencvs_gaussian_blur_with_edges_repeated(height, width, sigma):
    torch = pytest.importorskip("torch")
    import cv2

    from vision.train.classifier_training import blur_batch

    crop = np.random.default_rng(3).integers(0, 256, (height, width, 3)).astype(np.uint8)
    x = torch.from_numpy(crop.transpose(2, 0, 1)[None].astype(np.float32) / 255)
    out = blur_batch(torch, x, 1.0, (sigma, sigma), torch.Generator().manual_seed(0))
    expected = cv2.GaussianBlur(crop.astype(np.float32) / 255, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
    assert out.shape == x.shape
    assert np.abs(out[0].numpy().transpose(1, 2, 0) - expected).max() < 2e-3


def test_online_blur_takes_its_share_of_the_batch_and_leaves_the_rest():
    torch = pytest.importorskip("torch")
    from vision.train.classifier_training import blur_batch

    x = torch.rand(400, 3, 16, 12, generator=torch.Generator().manual_seed(1))
    out = blur_batch(torch, x, 0.25, (0.6, 2.6), torch.Generator().manual_seed(2))
    changed = (out - x).abs().flatten(1).amax(1) > 1e-6
    assert 70 <= int(changed.sum()) <= 130  # about a quarter of 400
    assert torch.equal(out[~changed], x[~changed])
    assert blur_batch(torch, x, 0.0, (0.6, 2.6), torch.Generator()) is x
    # smoother where blurred: neighbouring pixels differ less
    rough = (x[changed][..., 1:] - x[changed][..., :-1]).abs().mean()
    assert (out[changed][..., 1:] - out[changed][..., :-1]).abs().mean() < 0.6 * rough


@pytest.mark.parametrize(("height", "width"), [(64, 48), (30, 70)])
def test_online_glare_brightens_its_share_of_the_batch_and_leaves_the_rest(height, width):
    torch = pytest.importorskip("torch")
    from vision.train.classifier_training import glare_batch

    x = torch.rand(400, 3, height, width, generator=torch.Generator().manual_seed(1)) * 0.5
    out = glare_batch(torch, x, 0.25, torch.Generator().manual_seed(2))
    changed = (out - x).abs().flatten(1).amax(1) > 1e-6
    assert out.shape == x.shape
    assert 70 <= int(changed.sum()) <= 130  # about a quarter of 400
    assert torch.equal(out[~changed], x[~changed])
    assert glare_batch(torch, x, 0.0, torch.Generator()) is x
    # light is only added, the same to every channel (white), and the result stays an image
    assert bool((out >= x - 1e-7).all()) and float(out.max()) <= 1.0
    added = out[changed] - x[changed]
    unclipped = (out[changed] < 1.0).all(dim=1)
    for channel in (1, 2):
        assert torch.allclose(added[:, 0][unclipped], added[:, channel][unclipped], atol=1e-4)
    # a reflection, not a wash: each glared crop is brightened by at least 0.3 somewhere, but not everywhere
    peak = added.flatten(1).amax(1)
    assert bool((peak > 0.3).all())
    assert float((added > 0.05).float().mean()) < 0.5


def test_a_file_that_is_no_exported_classifier_is_refused(tmp_path):
    pytest.importorskip("torch")
    import onnx
    from onnx import TensorProto, helper

    from vision.train.classifier_training import network_from_onnx

    graph = helper.make_graph(
        [helper.make_node("Relu", ["images"], ["logits"])],
        "not-a-classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 64, 48])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 3, 64, 48])],
    )
    path = tmp_path / "relu.onnx"
    onnx.save(helper.make_model(graph), str(path))
    with pytest.raises(ValueError, match="not a tile classifier"):
        network_from_onnx(path)


# --- one box per tile -----------------------------------------------------------------------------------------

_W, _H = 50, 75  # a tile's box in frame pixels (height > width: upright)


def _at(label: str, x: float, conf: float, y: float = 0.0) -> Detection:
    from vision.read.labels import CLASS_NAMES

    return Detection.of_class(CLASS_NAMES.index(label), Box(x, y, x + _W, y + _H), conf)


@pytest.mark.parametrize(
    ("case", "detections", "kept"),
    [
        ("a pair side by side stays a pair", [("6s", 0, 0.9), ("6s", 52, 0.8)], [0.9, 0.8]),
        (
            "a weak box straddling two tiles, named after the left one",
            [("6s", 0, 0.9), ("6s", 18, 0.4), ("7s", 52, 0.9)],
            [0.9, 0.9],
        ),
        ("named after the right one", [("6s", 0, 0.9), ("7s", 34, 0.43), ("7s", 52, 0.97)], [0.9, 0.97]),
        ("overlapping boxes of two different tiles both stay", [("6s", 0, 0.9), ("7s", 18, 0.4)], [0.9, 0.4]),
        ("face-down tiles too", [("back", 0, 0.9), ("back", 10, 0.5)], [0.9]),
        ("the weaker goes whatever the order", [("2z", 10, 0.5), ("2z", 0, 0.9)], [0.9]),
        ("nothing", [], []),
    ],
)
def test_one_box_per_tile(case, detections, kept):
    from vision.read.classifier import one_box_per_tile

    out = one_box_per_tile([_at(*d) for d in detections], 0.3)
    assert [d.conf for d in out] == kept, case


def test_each_crop_view_alone_is_that_view_of_all_of_them():
    batch = np.random.default_rng(3).integers(0, 255, (2, 64, 48, 3), dtype=np.uint8)
    every = crop_views(batch)
    # the shifted views repeat the crop's edge where it moved away from it: 2 px of a 48 px crop
    assert np.array_equal(every[2][:, 2:, 2:], batch[:, :-2, :-2]) and np.array_equal(every[2][:, 0], every[2][:, 2])
    assert np.array_equal(every[3][:, :-2, :-2], batch[:, 2:, 2:])
    assert all(np.array_equal(crop_view(batch, v), view) for v, view in enumerate(every))
    with pytest.raises(ValueError, match="no crop view 4"):
        crop_view(batch, 4)
