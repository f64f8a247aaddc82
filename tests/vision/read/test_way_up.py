"""Which way up tiles lie (:mod:`vision.read.way_up`), and the half turn told by it
(:mod:`vision.read.views.upside_down`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from vision.read.classifier import CROP_SIZE, extract_crop
from vision.read.detector import Detection, FakeDetector
from vision.read.errors import ModelError
from vision.read.geometry import Box
from vision.read.labels import BACK_CLASS, class_of_tile
from vision.read.rows import read_tiles
from vision.read.views.turned_tiles import tile_turn
from vision.read.views.upside_down import HalfTurnDetector, half_turned
from vision.read.way_up import MIN_VOTERS, MODEL_KIND, NAMES, OnnxWayUp, upside_down_vote, way_up_for

HEIGHT, WIDTH = 300, 500  # not square


def band_model(path: Path, kind: str = MODEL_KIND, names=NAMES) -> Path:
    """A hand-built way-up model: a crop darker in its top half than in its bottom half is upright (a tile's glyph
    band at its top), darker at the bottom upside down: logits ``k * (bottom - top)`` and their negation."""
    import onnx
    from onnx import TensorProto, helper

    h, w = CROP_SIZE.height, CROP_SIZE.width
    weight = np.zeros((2, 3, h, w), np.float32)
    weight[0, :, h // 2 :] = 1.0  # upright: bright bottom ...
    weight[0, :, : h // 2] = -1.0  # ... dark top
    weight[1] = -weight[0]
    weight *= 40.0 / (3 * h * w)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["images", "w"], ["c"]), helper.make_node("Flatten", ["c"], ["logits"])],
        "band",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, h, w])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 2])],
        [helper.make_tensor("w", TensorProto.FLOAT, weight.shape, weight.flatten())],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for key, value in {"kind": kind, "names": repr(list(names))}.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))
    return path


def hand(names: list[str], upside_down: bool) -> tuple[np.ndarray, list[Detection]]:
    """A row of white tiles on grey cloth, each with a dark band along its top (where its glyph's top is), and the
    boxes a detector finds; ``upside_down``: the photo taken from across the table."""
    image = np.full((HEIGHT, WIDTH, 3), 90, np.uint8)
    found = []
    for k, name in enumerate(names):
        x1, y1 = 60 + 70 * k, 100
        cv2.rectangle(image, (x1, y1), (x1 + 59, y1 + 89), (235, 235, 235), -1)
        cv2.rectangle(image, (x1 + 5, y1 + 5), (x1 + 54, y1 + 30), (20, 20, 20), -1)
        box = Box(x1, y1, x1 + 60, y1 + 90)
        if upside_down:
            box = Box(WIDTH - box.x2, HEIGHT - box.y2, WIDTH - box.x1, HEIGHT - box.y1)
        found.append(Detection.of_class(class_of_tile(Tile.parse(name)), box, 0.8))
    return (half_turned(image) if upside_down else image), found


@pytest.fixture
def model(tmp_path) -> OnnxWayUp:
    return OnnxWayUp(band_model(tmp_path / "way_up.onnx"))


def test_the_model_reads_a_tile_upright_and_its_half_turn_upside_down(model):
    image, found = hand(["1m"], False)
    crop = extract_crop(image, found[0].box, model.input_size, model.margin)
    up, down = model.upside_down(np.stack([crop, crop[::-1, ::-1]]))
    assert up < 0.1 and down > 0.9
    assert model.upside_down(np.zeros((0, CROP_SIZE.height, CROP_SIZE.width, 3), np.uint8)).shape == (0,)


@pytest.mark.parametrize(
    ("upside_down", "sign"),
    [(False, -1), (True, 1)],
)
def test_the_vote_of_a_hand_says_which_way_up_it_lies(model, upside_down, sign):
    image, found = hand(["1m", "2m", "7z", "9m"], upside_down)
    vote = upside_down_vote(image, found, model)
    assert vote * sign > 0.8


def test_too_few_tiles_have_no_vote(model):
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    assert MIN_VOTERS == 4
    assert upside_down_vote(image, found[:3], model) is None  # a close-up of three tiles does not turn a photo
    assert upside_down_vote(image, found, model) > 0.8


def test_backs_and_sideways_boxes_have_no_vote(model):
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    backs = [Detection.of_class(BACK_CLASS, d.box, 0.9) for d in found]
    sideways = Detection.of_class(0, Box(10, 200, 100, 260), 0.9)  # wider than tall: turned back either way up
    assert upside_down_vote(image, [*backs, sideways], model) is None
    assert upside_down_vote(image, [*backs, sideways, *found], model) > 0.8
    assert upside_down_vote(image, [*backs, sideways, *found[:3]], model) is None


def test_a_tile_the_photos_edge_cuts_has_no_vote(model):
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    # the same four tiles, and one more boxed against the photo's left edge where it shows the cloth upright
    cut = Detection.of_class(0, Box(0, 100, 40, 190), 0.9)
    image[100:190, 0:40] = 235
    image[100:125, 0:40] = 20  # dark along its top: it would vote upright
    assert upside_down_vote(image, [cut, *found], model) == pytest.approx(upside_down_vote(image, found, model))
    assert upside_down_vote(image, [cut, *found[:3]], model) is None  # three voters left: too few


def _turned_hand(degrees: float) -> tuple[np.ndarray, list[Detection]]:
    """:func:`hand` upside down, turned ``degrees`` about its centre, each box bounding its turned tile."""
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    turn = cv2.getRotationMatrix2D((WIDTH / 2, HEIGHT / 2), degrees, 1.0)
    turned = cv2.warpAffine(image, turn, (WIDTH, HEIGHT), borderValue=(90, 90, 90))
    return turned, [Detection.of_class(d.class_id, d.box.moved(turn), d.conf) for d in found]


@pytest.mark.parametrize(("degrees", "votes"), [(0, True), (5, True), (-8, True), (22, False), (-22, False)])
def test_only_a_photo_lying_square_votes(model, degrees, votes):
    image, found = _turned_hand(degrees)
    assert all(d.box.height >= 1.15 * d.box.width for d in found)  # tall enough at 22 degrees: the turn decides
    vote = upside_down_vote(image, found, model)
    assert (vote is not None and vote > 0.5) if votes else vote is None


def test_a_tile_whose_turn_cannot_be_measured_votes_in_a_photo_lying_square(model):
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    x1, y1 = int(found[0].box.x1), int(found[0].box.y1)
    cv2.rectangle(image, (x1, y1), (x1 + 59, y1 + 89), (235, 235, 235), -1)
    cv2.circle(image, (x1 + 30, y1 + 45), 18, (20, 20, 20), 4)  # a pin's ring: no one direction to its gradients
    assert tile_turn(image, found[0].box, 0.6) is None
    assert upside_down_vote(image, found, model) is not None  # four voters, the ring one of them
    assert upside_down_vote(image, found[:1], model) is None  # nothing measured: the photo's turn is unknown


def test_a_file_that_is_no_way_up_model_is_refused(tmp_path):
    with pytest.raises(ModelError, match="not a way-up model"):
        OnnxWayUp(band_model(tmp_path / "a.onnx", kind="tile-classifier"))
    with pytest.raises(ModelError, match="classes"):
        OnnxWayUp(band_model(tmp_path / "b.onnx", names=("down", "up")))
    with pytest.raises(ModelError, match="no way-up model"):
        OnnxWayUp(tmp_path / "missing.onnx")


def test_the_shipped_model_is_found_or_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("JANTAKU_WAY_UP", "none")
    assert way_up_for() is None
    monkeypatch.setenv("JANTAKU_WAY_UP", str(tmp_path / "missing.onnx"))
    assert way_up_for() is None
    monkeypatch.setenv("JANTAKU_WAY_UP", str(band_model(tmp_path / "w.onnx")))
    assert isinstance(way_up_for(), OnnxWayUp)


def _even(found: list[Detection]) -> FakeDetector:
    """A probe as sure of the tiles either way up (another set's tiles): it never turns a photo by itself."""
    return FakeDetector(lambda image: list(found))


@pytest.mark.parametrize(
    ("upside_down", "text"),
    [(False, "12m7z9m"), (True, "12m7z9m")],  # from across the table: still in its owner's order
)
def test_a_photo_the_probe_cannot_tell_is_turned_by_its_tiles_faces(model, upside_down, text):
    image, found = hand(["1m", "2m", "7z", "9m"], upside_down)
    r = HalfTurnDetector(FakeDetector(lambda im: [d for d in _boxes_of(im, found, image)]), _even(found), model)
    got = r.detect(image)
    assert list(r.turned) == [upside_down]
    assert r.votes[-1] * (1 if upside_down else -1) > 0.8
    assert read_tiles(got).text == text


def _boxes_of(seen: np.ndarray, found: list[Detection], photo: np.ndarray) -> list[Detection]:
    """The boxes of ``found`` (the tiles of ``photo``), in the pixels of ``seen``: the photo or its half turn."""
    if seen.shape == photo.shape and np.array_equal(seen, photo):
        return list(found)
    h, w = photo.shape[:2]
    return [
        Detection.of_class(d.class_id, Box(w - d.box.x2, h - d.box.y2, w - d.box.x1, h - d.box.y1), d.conf)
        for d in found
    ]


def _surer_turned(found: list[Detection], photo: np.ndarray) -> FakeDetector:
    """A probe surer of the photo's half turn (0.9 against 0.5 as it is), whichever way up its tiles' faces lie."""

    def read(seen: np.ndarray) -> list[Detection]:
        as_is = seen.shape == photo.shape and np.array_equal(seen, photo)
        return [replace(d, conf=0.5 if as_is else 0.9) for d in _boxes_of(seen, found, photo)]

    return FakeDetector(read)


@pytest.mark.parametrize(
    ("names", "upside_down", "turned"),
    [
        (["1m", "2m", "7z", "9m"], False, False),  # faces surely upright: the probe is outvoted
        (["1m", "2m", "7z", "9m"], True, True),  # faces upside down too: turned
        (["1m", "2m", "7z"], False, True),  # too few tiles to vote: the probe tells
    ],
)
def test_faces_surely_upright_outvote_a_probe_surer_of_the_half_turn(model, names, upside_down, turned):
    image, found = hand(names, upside_down)
    r = HalfTurnDetector(FakeDetector(lambda im: _boxes_of(im, found, image)), _surer_turned(found, image), model)
    r.reads_turned(image)
    assert [r.probe.detect(image)[0].conf, r.probe.detect(half_turned(image))[0].conf] == [0.5, 0.9]
    assert r.reads_turned(image) is turned
    assert (r.votes[-1] is None) is (len(names) < MIN_VOTERS)


@pytest.mark.parametrize("upside_down", [False, True])
def test_a_photo_read_surer_turned_is_read_so_and_in_the_order_its_faces_stand(model, upside_down):
    """Another set's hand the detector reads surer on its half turn, whichever way up its faces stand: without
    ``vote_first`` it is read on its half turn (the surer boxes), and its tiles in the order of their faces."""
    image, found = hand(["1m", "2m", "7z", "9m"], upside_down)
    r = HalfTurnDetector(_surer_turned(found, image), _surer_turned(found, image), model, vote_first=False)
    got = r.detect(image)
    assert list(r.turned) == [upside_down] and {d.conf for d in got} == {0.9}
    assert read_tiles(got).text == "12m7z9m"


@pytest.mark.parametrize(("upside_down", "conf"), [(False, 0.5), (True, 0.9)])
def test_a_sure_vote_reads_a_photo_without_reading_its_half_turn(model, upside_down, conf):
    """With ``vote_first``, faces voted surely one way decide alone: the half turn is read only to read the photo
    on it (upside down), never to compare (upright: the photo as it is, its own boxes)."""
    image, found = hand(["1m", "2m", "7z", "9m"], upside_down)
    probe = _surer_turned(found, image)
    seen = []
    probe.detect = lambda im, read=probe.detect: seen.append(im.shape) or read(im)
    r = HalfTurnDetector(_surer_turned(found, image), probe, model)
    got = r.detect(image)
    assert list(r.turned) == [upside_down] and {d.conf for d in got} == {conf}
    assert read_tiles(got).text == "12m7z9m"
    assert len(seen) == 1  # the probe read the photo as it is, once


def test_without_a_way_up_model_the_probe_alone_tells(model):
    image, found = hand(["1m", "2m", "7z", "9m"], True)
    r = HalfTurnDetector(FakeDetector(lambda im: list(found)), _even(found))
    r.detect(image)
    assert list(r.turned) == [False] and list(r.votes) == [None]


def test_a_few_training_steps_export_a_model_that_loads(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.train.classifier_training import TrainOptions, _as_tensor
    from vision.train.way_up_training import export_way_up, train_way_up

    image, found = hand(["1m"], False)
    crop = extract_crop(image, found[0].box)
    crops = np.stack([crop] * 32)
    model, history = train_way_up(crops, TrainOptions(epochs=2, batch=8, width=4, threads=1, warmup=0.1))
    assert [h["epoch"] for h in history] == [1, 2]
    path = export_way_up(model, tmp_path / "tiny.onnx", {"training": "test"})
    loaded = OnnxWayUp(path)
    both = np.stack([crop, crop[::-1, ::-1]])
    with torch.no_grad():
        expected = torch.softmax(model(_as_tensor(torch, both)), 1)[:, 1].numpy()
    assert np.allclose(loaded.upside_down(both), expected, atol=1e-5)
