"""The multiply-accumulate counter of ``jantaku-lab bench read`` on tiny graphs whose counts are worked out by hand, and
the session that counts the images a network is fed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.eval.reading_bench import CountingSession, NetworkCost, ReadTiming, count_macs, pi5_ms, view_costs

onnx = pytest.importorskip("onnx", reason="building test ONNX graphs needs the onnx package")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def graph_of(node, inputs: dict, weights: dict, output: str = "y"):
    """A one-node model: ``inputs`` name -> shape (str dims are symbolic), ``weights`` name -> shape."""
    return helper.make_model(
        helper.make_graph(
            [node],
            "one_node",
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in inputs.items()],
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, None)],
            [numpy_helper.from_array(np.zeros(s, np.float32), n) for n, s in weights.items()],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )


CASES = [
    # 3x3 conv, 3 -> 4 channels, same padding on 8x8: 4 x 8 x 8 outputs, each 3 x 3 x 3 products
    (
        helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
        {"x": (1, 3, 8, 8)},
        {"w": (4, 3, 3, 3)},
        1,
        4 * 8 * 8 * 27,
    ),
    # the same conv with a symbolic batch, counted at batch 2: twice the outputs
    (
        helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
        {"x": ("N", 3, 8, 8)},
        {"w": (4, 3, 3, 3)},
        2,
        2 * 4 * 8 * 8 * 27,
    ),
    # depthwise 3x3, stride 2, no padding, on 4 channels 9x9: 4 x 4 x 4 outputs, each 1 x 3 x 3 products
    (
        helper.make_node("Conv", ["x", "w"], ["y"], group=4, strides=[2, 2]),
        {"x": (1, 4, 9, 9)},
        {"w": (4, 1, 3, 3)},
        1,
        4 * 4 * 4 * 9,
    ),
    # 1x1 conv with a bias: the bias adds no products
    (
        helper.make_node("Conv", ["x", "w", "b"], ["y"]),
        {"x": (1, 16, 5, 7)},
        {"w": (8, 16, 1, 1), "b": (8,)},
        1,
        8 * 5 * 7 * 16,
    ),
    # 2x2 transposed conv, stride 2, 4 -> 2 channels on 3x3: each of 4 x 3 x 3 inputs spreads over 2 x 2 x 2
    (
        helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2]),
        {"x": (1, 4, 3, 3)},
        {"w": (4, 2, 2, 2)},
        1,
        4 * 3 * 3 * 8,
    ),
    # Gemm [5 x 6] . [6 x 3]
    (helper.make_node("Gemm", ["a", "b"], ["y"]), {"a": (5, 6)}, {"b": (6, 3)}, 1, 5 * 3 * 6),
    # Gemm with A transposed: A is [6 x 5], the shared dimension is its first
    (helper.make_node("Gemm", ["a", "b"], ["y"], transA=1), {"a": (6, 5)}, {"b": (6, 3)}, 1, 5 * 3 * 6),
    # batched MatMul [2 x 4 x 7] . [7 x 3]
    (helper.make_node("MatMul", ["a", "b"], ["y"]), {"a": (2, 4, 7)}, {"b": (7, 3)}, 1, 2 * 4 * 3 * 7),
    # an element-wise node costs none
    (helper.make_node("Relu", ["x"], ["y"]), {"x": (1, 3, 8, 8)}, {}, 1, 0),
]


@pytest.mark.parametrize(("node", "inputs", "weights", "batch", "expected"), CASES)
def test_count_macs_of_one_node(node, inputs, weights, batch, expected):
    assert count_macs(graph_of(node, inputs, weights), batch=batch) == expected


def test_count_macs_adds_up_a_chain(tmp_path):
    """Conv then Gemm over its flattened output, saved and counted from the file."""
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"]),  # 1x2x4x4 -> 1x3x3x3 with a 2x2 kernel: 27 outputs x 8
        helper.make_node("Flatten", ["c"], ["f"]),  # 1 x 27
        helper.make_node("Gemm", ["f", "g"], ["y"]),  # 1 x 27 . 27 x 5
    ]
    weights = [numpy_helper.from_array(np.zeros(s, np.float32), n) for n, s in (("w", (3, 2, 2, 2)), ("g", (27, 5)))]
    model = helper.make_model(
        helper.make_graph(
            nodes,
            "chain",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            weights,
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    path = tmp_path / "chain.onnx"
    onnx.save(model, str(path))
    assert count_macs(path) == 27 * 8 + 5 * 27


def test_count_macs_refuses_a_shape_it_cannot_infer():
    # the weight's shape is an input of unknown rank: nothing to count it by
    node = helper.make_node("Conv", ["x", "w"], ["y"])
    model = helper.make_model(
        helper.make_graph(
            [node],
            "unknown",
            [
                helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
                helper.make_tensor_value_info("w", TensorProto.FLOAT, None),
            ],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    with pytest.raises(ValueError, match="no inferred shape"):
        count_macs(model)


class RecordingSession:
    def __init__(self) -> None:
        self.feeds: list[tuple[int, ...]] = []

    def run(self, names, feed):
        self.feeds.append(next(iter(feed.values())).shape)
        return ["out"]

    def get_inputs(self):
        return ["images"]


@pytest.mark.parametrize(("batches", "images"), [([1], 1), ([8, 8, 3], 19), ([], 0)])
def test_counting_session_counts_images_fed(batches, images):
    inner = RecordingSession()
    session = CountingSession(inner)
    for n in batches:
        assert session.run(None, {"images": np.zeros((n, 3, 4, 4), np.float32)}) == ["out"]
    assert session.images == images
    assert [s[0] for s in inner.feeds] == batches
    assert session.get_inputs() == ["images"]  # the rest of the session is the wrapped one's


def test_read_timing_adds_each_networks_macs():
    costs = (NetworkCost(Path("d.onnx"), 1000, runs=2, images=2), NetworkCost(Path("c.onnx"), 10, runs=1, images=7))
    timing = ReadTiming(ms=(30.0, 10.0, 20.0), runs_per_read=(3, 3, 3), networks=costs)
    assert (timing.best_ms, timing.median_ms, timing.runs, timing.macs) == (10.0, 20.0, 3, 2070)
    assert timing.as_json(gmacs=1.0)["pi5_ms_estimate"] == round(pi5_ms(2070, 1.0), 1)


@pytest.mark.parametrize(("macs", "gmacs", "ms"), [(21_000_000_000, 21.0, 1000.0), (2_100_000_000, 21.0, 100.0)])
def test_pi5_ms(macs, gmacs, ms):
    assert pi5_ms(macs, gmacs) == pytest.approx(ms)


class FixedBench:
    """A reader stand-in: each read of an image takes the runs and milliseconds its table gives."""

    def __init__(self, per_image: dict[int, tuple[int, float]]) -> None:
        self.per_image = per_image

    def read(self, image):
        runs, ms = self.per_image[int(image[0, 0])]
        return ms, runs, ()


def test_view_costs_are_medians_of_the_differences():
    images = [np.full((2, 2), k, np.uint8) for k in (0, 1, 2)]
    readers = {
        "all": FixedBench({0: (10, 100.0), 1: (12, 150.0), 2: (30, 900.0)}),
        "photo_edge": FixedBench({0: (8, 80.0), 1: (12, 140.0), 2: (10, 100.0)}),  # adds 2, 0, 20 runs
        "upside_down": FixedBench({0: (10, 100.0), 1: (12, 150.0), 2: (30, 900.0)}),  # adds nothing
    }
    whole, costs = view_costs(readers, images, rounds=2)
    assert (whole.view, whole.runs, whole.ms, whole.mean_runs, whole.images_with_runs) == ("all", 12, 150.0, 52 / 3, 3)
    assert [(c.view, c.runs, c.ms, c.images, c.images_with_runs) for c in costs] == [
        ("photo_edge", 2, 20.0, 3, 2),  # medians of (2, 0, 20) runs and (20, 10, 800) ms
        ("upside_down", 0, 0.0, 3, 0),
    ]
