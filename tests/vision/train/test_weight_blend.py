"""Blending two classifiers' weights (:mod:`vision.train.weight_blend`), on the shipped classifier and edited copies."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="blending needs the onnx package (pip install onnx)")
from onnx import numpy_helper  # noqa: E402

from device.lab.cli import main  # noqa: E402
from vision.read.classifier import OnnxTileClassifier  # noqa: E402
from vision.train.weight_blend import BlendError, blend_onnx  # noqa: E402

MODELS = Path(__file__).resolve().parents[3] / "models"
SHIPPED = MODELS / "tile_classifier.onnx"

pytestmark = pytest.mark.skipif(not SHIPPED.is_file(), reason="no shipped classifier in this checkout")


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> Path:
    """The shipped classifier as a float file (the shipped file is int8, and a blend averages float weights: the
    weights a classifier is trained on from)."""
    pytest.importorskip("torch")
    from vision.train.classifier_training import export_onnx, network_from_onnx

    training = metadata(SHIPPED)["training"]
    path = tmp_path_factory.mktemp("blend-first") / "tile_classifier.onnx"
    return export_onnx(network_from_onnx(SHIPPED), path, {"training": training})


def weights(path) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}


def metadata(path) -> dict[str, str]:
    return {m.key: m.value for m in onnx.load(str(path)).metadata_props}


def edited(
    source: Path, path: Path, *, seed: int = 0, meta: dict[str, str] | None = None, extra_node: bool = False
) -> Path:
    """A copy of the classifier ``source`` with every float weight moved a little (as training on would move it);
    with ``extra_node``, its logits also pass through one more node (another graph)."""
    proto = onnx.load(str(source))
    if extra_node:
        out = proto.graph.output[0].name
        proto.graph.node[-1].output[0] = "before_identity"
        proto.graph.node.append(onnx.helper.make_node("Identity", ["before_identity"], [out]))
    rng = np.random.default_rng(seed)
    for init in proto.graph.initializer:
        x = numpy_helper.to_array(init)
        if init.name not in ("mean", "std"):
            x = (x + rng.normal(0, 0.05, x.shape)).astype(x.dtype)
        init.CopyFrom(numpy_helper.from_array(x, init.name))
    for m in proto.metadata_props:
        if meta and m.key in meta:
            m.value = meta[m.key]
        elif m.key == "training":
            m.value = json.dumps({"seed": seed})
    onnx.save(proto, str(path))
    return path


@pytest.fixture(scope="module")
def second(first, tmp_path_factory) -> Path:
    return edited(first, tmp_path_factory.mktemp("blend") / "second.onnx", seed=1)


@pytest.mark.parametrize("share", [0.0, 0.25, 0.5, 1.0])
def test_each_weight_is_the_shares_mix_of_the_two(first, second, tmp_path, share):
    out = blend_onnx(first, second, share, tmp_path / "blend.onnx")
    a, b, mixed = weights(first), weights(second), weights(out)
    assert set(mixed) == set(a)
    for name, x in a.items():
        assert mixed[name].dtype == x.dtype
        np.testing.assert_allclose(mixed[name], (1 - share) * x + share * b[name], rtol=1e-6, atol=1e-7)


def test_the_blend_opens_as_a_classifier_and_says_what_it_blends(first, second, tmp_path):
    out = blend_onnx(first, second, 0.5, tmp_path / "blend.onnx")
    clf = OnnxTileClassifier(out)
    crops = np.random.default_rng(0).integers(0, 256, (3, clf.input_size.height, clf.input_size.width, 3), np.uint8)
    probs = clf.probabilities(crops)
    assert probs.shape[0] == 3 and np.all(probs >= 0) and np.all(probs.sum(axis=1) <= 1 + 1e-4)  # tiles; none aside
    meta = metadata(out)
    blend = json.loads(meta["blend"])
    assert blend["share"] == 0.5
    assert blend["first"]["file"] == first.name and blend["second"]["file"] == "second.onnx"
    assert blend["first"]["training"] == metadata(first)["training"]
    assert json.loads(blend["second"]["training"]) == {"seed": 1}
    assert "training" not in meta  # a blend was not trained as the first was
    assert {k: meta[k] for k in ("kind", "names", "imgsz", "crop_margin")} == {
        k: metadata(first)[k] for k in ("kind", "names", "imgsz", "crop_margin")
    }


def test_at_share_0_the_blend_reads_as_the_first(first, second, tmp_path):
    out = blend_onnx(first, second, 0.0, tmp_path / "blend.onnx")
    crops = np.random.default_rng(1).integers(0, 256, (4, 64, 48, 3), np.uint8)
    mine, theirs = OnnxTileClassifier(out), OnnxTileClassifier(first)
    np.testing.assert_array_equal(mine.probabilities(crops), theirs.probabilities(crops))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda first, tmp: edited(first, tmp / "longer.onnx", extra_node=True), "not the same graph"),
        (lambda first, tmp: MODELS / "tile_way_up.onnx", "'kind' metadata"),
        (lambda first, tmp: edited(first, tmp / "renamed.onnx", meta={"names": "['1m']"}), "'names' metadata"),
    ],
)
def test_two_networks_that_are_not_one_graph_are_refused(first, tmp_path, make, message):
    other = make(first, tmp_path)
    if not Path(other).is_file():
        pytest.skip(f"no {other} in this checkout")
    with pytest.raises(BlendError, match=message):
        blend_onnx(first, other, 0.5, tmp_path / "blend.onnx")
    assert not (tmp_path / "blend.onnx").exists()


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_out_of_range_is_refused(first, second, tmp_path, share):
    with pytest.raises(BlendError, match="0 to 1"):
        blend_onnx(first, second, share, tmp_path / "blend.onnx")


def test_cli_blends_and_names_bad_input_in_one_line(first, second, tmp_path, capsys):
    out = tmp_path / "blend.onnx"
    assert main(["blend-classifier", str(first), str(second), "--share", "0.3", "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["share"] == 0.3 and out.is_file()
    for argv, message in [
        ([str(first), str(second), "--share", "2"], "0 to 1"),
        ([str(first), str(tmp_path / "missing.onnx")], "no such file"),
        ([str(first), str(edited(first, tmp_path / "longer.onnx", extra_node=True))], "not the same graph"),
    ]:
        assert main(["blend-classifier", *argv, "--out", str(tmp_path / "x.onnx")]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and message in err
