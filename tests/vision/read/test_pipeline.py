"""The one reader (:mod:`vision.read.pipeline`): which views run is data, composed in one order; a reading counts
the network runs it took; unknown views are refused by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.fakes import BlocksNetwork, colour_model, paint
from vision.read.budget import ClaimsMetDetector
from vision.read.classifier import OnnxTileClassifier, TwoStageDetector
from vision.read.detector import FakeDetector, SlicedDetector
from vision.read.errors import ConfigError
from vision.read.geometry import Box
from vision.read.pipeline import VIEWS, Models, Reader, ReaderConfig, TableMode
from vision.read.plausible import OVERHEAD, PHOTO, PlausibleDetector
from vision.read.scale import PhotoDetector
from vision.read.views.low_angle import SquatDetector
from vision.read.views.photo_edge import SureAtEdgeDetector
from vision.read.views.turned_tiles import UprightDetector
from vision.read.views.upside_down import HalfTurnDetector
from vision.read.views.white_balance import BalancedDetector

LAYER = {
    "photo_edge": SureAtEdgeDetector,  # a weak box the photo's edge cuts is dropped
    "low_angle": SquatDetector,  # squat tiles (seen from a low angle) read stretched taller
    "upside_down": HalfTurnDetector,  # a photo from across the table is read turned
    "white_balance": BalancedDetector,  # photos under coloured light are white-balanced
    "turned_tiles": UprightDetector,  # turned tiles read upright
}


def hand(n: int = 8) -> np.ndarray:
    """A photo of ``n`` blocks in a row, 1m to 8m, that the blocks network reads at the whole photo's scale."""
    image = np.full((320, 640, 3), 40, np.uint8)
    for i in range(n):
        paint(image, i, Box(40 + 68 * i, 120, 100 + 68 * i, 200))
    return image


def layers(detector) -> list[type]:
    """The types of ``detector``'s layers, outermost first, down to its core."""
    out = []
    while True:
        out.append(type(detector))
        inner = detector.__dict__.get("detector")
        if inner is None:
            return out
        detector = inner


@pytest.mark.parametrize(
    ("views", "expected"),
    [
        ((), []),
        (("upside_down",), ["upside_down"]),
        (("turned_tiles", "photo_edge"), ["photo_edge", "turned_tiles"]),  # named in any order, composed in one
        (tuple(reversed(VIEWS)), list(VIEWS)),
    ],
)
def test_the_views_named_are_composed_in_one_order(views, expected):
    reader = Reader.from_config(ReaderConfig(at_tiles_scale=True, views=views), models=Models(BlocksNetwork()))
    priced = [ClaimsMetDetector] if views else []  # the views price another reading by the readings made
    assert layers(reader.detector) == [LAYER[v] for v in expected] + priced + [PhotoDetector]


def test_the_photo_reader_probes_with_the_reader_inside_the_classifier(tmp_path):
    classifier = OnnxTileClassifier(colour_model(tmp_path / "c.onnx"))
    reader = Reader.from_config(ReaderConfig.for_photo(), models=Models(BlocksNetwork(), classifier))
    # the boxes no tile makes dropped outermost, after every view
    views = [LAYER[v] for v in VIEWS]
    assert layers(reader.detector) == [PlausibleDetector, *views, ClaimsMetDetector, TwoStageDetector, PhotoDetector]
    half_turn = reader.detector.detector.detector.detector
    stage = half_turn.detector.detector.detector.detector  # under the turned view and the pricing layer
    assert half_turn.probe is stage.detector  # its readings of the photo serve the classifier's stage too
    assert stage.classifier is classifier


@pytest.mark.parametrize(
    ("config", "core"),
    [(ReaderConfig.for_camera(), SlicedDetector), (ReaderConfig.for_photo(pyramid=True), SlicedDetector)],
)
def test_the_camera_and_pyramid_readers_run_no_views(config, core):
    assert layers(Reader.from_config(config, models=Models(BlocksNetwork())).detector) == [core]


def test_an_overhead_table_photo_is_read_without_views_less_the_boxes_no_tile_makes_there():
    reader = Reader.from_config(ReaderConfig.for_photo(table=True), models=Models(BlocksNetwork()))
    assert layers(reader.detector) == [PlausibleDetector, SlicedDetector]
    assert reader.detector.rules == OVERHEAD and ReaderConfig.for_photo().plausibility == PHOTO


def test_no_views_is_one_network_pass_and_the_upside_down_view_more():
    image = hand()
    plain, turned = BlocksNetwork(), BlocksNetwork()
    bare = Reader.from_config(ReaderConfig(at_tiles_scale=True), models=Models(plain)).read(image)
    viewed = Reader.from_config(ReaderConfig(at_tiles_scale=True, views=("upside_down",)), models=Models(turned))
    reading = viewed.read(image)
    assert bare.runs == len(plain.calls) == 1  # the whole photo, once: its tiles are at the size the network knows
    assert reading.runs == len(turned.calls) > 1  # probed as it is and turned half round
    assert reading.text == bare.text == "12345678m"


@pytest.mark.parametrize(
    ("views", "unknown"),
    [(("sideways",), "'sideways'"), (("upside_down", "squat", "half_turn"), "'squat', 'half_turn'")],
)
def test_an_unknown_view_is_refused_by_name(views, unknown):
    with pytest.raises(ConfigError, match=unknown):
        ReaderConfig(views=views)


@pytest.mark.parametrize(
    ("config", "mode"),
    [
        (ReaderConfig(), TableMode.NONE),
        (ReaderConfig.for_camera(), TableMode.CAMERA),  # squared to the table, its turn kept frame to frame
        (ReaderConfig.for_photo(table=True), TableMode.PHOTO),  # squared anew, boxes as the photo shows them
        (ReaderConfig.for_photo(), TableMode.NONE),
        (ReaderConfig.for_photo(pyramid=True), TableMode.NONE),
    ],
)
def test_each_shipped_reader_reads_tables_in_one_mode(config, mode):
    assert config.table_mode is mode


def test_a_table_mode_that_is_no_mode_is_refused_naming_the_modes():
    with pytest.raises(ConfigError, match="none, camera, photo"):
        ReaderConfig(table_mode="camera")


@pytest.mark.parametrize(
    ("mode", "keeps_a_turn"),
    [
        (TableMode.NONE, False),  # the image read as it is
        (TableMode.CAMERA, True),  # squared, the table's turn kept from frame to frame
        (TableMode.PHOTO, False),  # squared, its turn measured anew for each image
    ],
)
def test_a_reader_keeps_the_tables_turn_only_as_a_camera(mode, keeps_a_turn):
    image = hand(3)
    reader = Reader.from_config(ReaderConfig(table_mode=mode), models=Models(BlocksNetwork()))
    assert reader.read(image).text == "123m"
    assert (reader._table_turn is not None) is keeps_a_turn


def test_a_reader_round_a_detector_of_ones_own_runs_no_views():
    with pytest.raises(ConfigError, match="need a network"):
        Reader.around(FakeDetector(), ReaderConfig.for_photo())


def test_a_reading_has_rows_backs_and_what_it_took():
    image = hand(3)
    image[250:300, 40:80] = (10 + 6 * 37, 250 - 5 * 37, 30)  # a face-down tile (class 37) under the row
    reading = Reader.from_config(ReaderConfig(), models=Models(BlocksNetwork())).read(image)
    assert reading.text == "123m" and reading.backs == 1 and len(reading.rows) == 2
    assert reading.image is image and reading.table is None and reading.turn == 0.0 and reading.runs >= 1


@pytest.mark.parametrize(
    ("config", "env", "detector"),
    [
        (ReaderConfig.for_camera(), None, "<camera>"),  # the camera's own, where it is shipped
        (ReaderConfig.for_photo(), None, "<photo>"),
        (ReaderConfig.for_photo(table=True), None, "<photo>"),  # a photo of a table is still a photo
        (ReaderConfig.for_camera(Path("mine.onnx")), None, "mine.onnx"),  # a model named is read by either
        (ReaderConfig.for_photo(Path("mine.onnx")), "env.onnx", "mine.onnx"),
        (ReaderConfig.for_camera(), "env.onnx", "env.onnx"),  # $JANTAKU_MODEL names both readers' detector
        (ReaderConfig.for_photo(), "env.onnx", "env.onnx"),
    ],
)
def test_each_reader_reads_with_its_own_detector_unless_one_is_named(monkeypatch, config, env, detector):
    from vision.read.detector import SHIPPED_CAMERA_MODEL, SHIPPED_MODEL

    if env is None:
        monkeypatch.delenv("JANTAKU_MODEL", raising=False)
    else:
        monkeypatch.setenv("JANTAKU_MODEL", env)
    shipped = {"<camera>": SHIPPED_CAMERA_MODEL if SHIPPED_CAMERA_MODEL.is_file() else SHIPPED_MODEL}
    shipped["<photo>"] = SHIPPED_MODEL
    assert Models.detector_path(config) == shipped.get(detector, Path(detector))


def test_a_reader_loaded_beside_another_shares_its_detector_only_when_it_names_the_same_file(tmp_path):
    pytest.importorskip("onnx", reason="a model file is made with the onnx package")
    from tests.vision.fakes import constant_onnx

    one, other = (constant_onnx(tmp_path / name, []) for name in ("one.onnx", "other.onnx"))
    first = Models.load(ReaderConfig.for_photo(one, pyramid=True))
    assert Models.load(ReaderConfig.for_camera(one), beside=first).network is first.network
    assert Models.load(ReaderConfig.for_camera(other), beside=first).network.path == other
