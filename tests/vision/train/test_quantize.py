"""Crop networks in 8 bits (:mod:`vision.train.quantize`): the int8 file reads as the float one did, keeps what the
reader checks, and trains on from its weights dequantized."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("onnx", reason="quantizing needs the onnx package")
torch = pytest.importorskip("torch")

from device.lab.cli import main  # noqa: E402
from vision.read.classifier import OnnxTileClassifier  # noqa: E402
from vision.train.classifier_training import (  # noqa: E402
    TrainOptions,
    evaluate_torch,
    export_onnx,
    network_from_onnx,
    train,
)
from vision.train.quantize import WIDEST_WEIGHT, quantize_crop_model, widest_int8_weight  # noqa: E402


def two_colour_crops():
    from tests.vision.read.test_classifier import _two_colour_crops

    return _two_colour_crops()


@pytest.fixture(scope="module")
def float_and_int8(tmp_path_factory):
    data = two_colour_crops()
    model, _ = train(data, TrainOptions(epochs=3, batch=16, width=8, seed=1))
    folder = tmp_path_factory.mktemp("quantize")
    first = export_onnx(model, folder / "float.onnx", {"training": json.dumps({"note": "test"})})
    int8 = quantize_crop_model(first, folder / "int8.onnx", data.x)
    return data, first, int8


def test_the_int8_file_reads_the_crops_as_the_float_one_and_keeps_its_metadata(float_and_int8):
    data, first, int8 = float_and_int8
    a, b = OnnxTileClassifier(first, views=False), OnnxTileClassifier(int8, views=False)
    pa, _ = a.all_probabilities(data.x)
    pb, _ = b.all_probabilities(data.x)
    assert (pa.argmax(1) == pb.argmax(1)).mean() >= 0.95
    assert np.abs(pa - pb).max() < 0.2
    assert {k: v for k, v in b.metadata.items() if k != "quantized"} == a.metadata
    assert json.loads(b.metadata["quantized"])["calibration"] == len(data.x)
    assert int8.stat().st_size < first.stat().st_size


def test_the_int8_weights_lie_in_seven_bits_so_every_cpu_sums_them_exactly(float_and_int8):
    _, first, int8 = float_and_int8
    assert 0 < widest_int8_weight(int8) <= WIDEST_WEIGHT
    assert widest_int8_weight(first) == 0  # the float file holds no int8 weight


def test_the_first_convolution_and_the_class_scores_stay_float(float_and_int8):
    import onnx

    _, _, int8 = float_and_int8
    graph = onnx.load(str(int8)).graph
    kept = json.loads(OnnxTileClassifier(int8, views=False).metadata["quantized"])["float"]
    convs = [n for n in graph.node if n.op_type == "Conv"]
    assert kept == [convs[0].name, next(n.name for n in graph.node if n.op_type == "Gemm")]
    made = {o: n for n in graph.node for o in n.output}  # a quantized layer's weight comes out of a DequantizeLinear
    assert [made.get(c.input[1]) is None for c in convs] == [True, False, False, False, False]


def test_an_int8_file_trains_on_from_its_weights_dequantized(float_and_int8):
    data, first, int8 = float_and_int8
    back = network_from_onnx(int8)
    assert (evaluate_torch(back, data) == evaluate_torch(network_from_onnx(first), data)).mean() >= 0.95


@pytest.mark.parametrize(
    ("which", "message"),
    [("int8", "already quantized"), ("missing", "no tile classifier at")],
)
def test_quantize_classifier_refuses_in_one_line(float_and_int8, tmp_path, capsys, which, message):
    _, _, int8 = float_and_int8
    model = {"int8": str(int8), "missing": str(tmp_path / "none.onnx")}[which]
    assert main(["quantize-classifier", model, "--out", str(tmp_path / "out.onnx")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err
    assert not (tmp_path / "out.onnx").exists()
