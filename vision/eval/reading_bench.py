"""What one read costs: model runs, milliseconds and multiply-accumulates per image, for a reader configuration,
beside the peer's single pass (``jantaku-lab bench read``).

    macs = count_macs(path)                               # one pass of a network, batch 1
    [timing] = time_reads([(ReadBench(reader), image)], rounds=5)   # reader: a Reader built with its models
    timing.runs, timing.median_ms

Each network's multiply-accumulates come from its ONNX graph (Conv, ConvTranspose, Gemm and MatMul nodes, their
shapes from onnx shape inference); a read's are each network's per-image count times the images it was fed (a
batched run of 8 crops counts 8). A Pi 5 estimate divides that by an assumed throughput (:data:`PI5_GMACS`).
"""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.read.detector import session_options

#: Assumed Raspberry Pi 5 throughput of onnxruntime on its four Cortex-A76 cores, in 10^9 multiply-accumulates a
#: second. From Arm's published YOLO26n figure (ONNX Runtime, Pi 5, 640x640, batch 1: 126.9 ms an image;
#: huggingface.co/Arm/Arm-Runtime-for-YOLO26-on-Raspberry-Pi-5) and Ultralytics' 5.4 GFLOPs for YOLO26n at 640
#: (2.7 G multiply-accumulates): 2.7 / 0.1269 = 21 G a second. An assumption, not a measurement on a Pi.
PI5_GMACS = 21.0
PI5_SOURCE = (
    "assumed 21 GMAC/s: Arm's YOLO26n on Raspberry Pi 5 with ONNX Runtime, 126.9 ms at 640 "
    "(huggingface.co/Arm/Arm-Runtime-for-YOLO26-on-Raspberry-Pi-5), over Ultralytics' 5.4 GFLOPs (2.7 GMAC) for "
    "YOLO26n; not measured on a Pi"
)


def count_macs(model, batch: int = 1) -> int:
    """Multiply-accumulates of one pass of ``model`` (an ``onnx.ModelProto`` or a path), every symbolic input
    dimension set to ``batch``. Counts Conv and ConvTranspose (per output element, its kernel's inputs), Gemm and
    MatMul (output elements times the shared dimension); other nodes add none.

    Raises ValueError when a counted node's shapes cannot be inferred."""
    import onnx
    from onnx import shape_inference

    if not isinstance(model, onnx.ModelProto):
        model = onnx.load(str(model))
    model = onnx.ModelProto.FromString(model.SerializeToString())  # inference works on a copy
    initializers = {t.name for t in model.graph.initializer}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        for dim in value.type.tensor_type.shape.dim:
            if not dim.HasField("dim_value"):
                dim.Clear()
                dim.dim_value = batch
    inferred = shape_inference.infer_shapes(model)
    shapes: dict[str, tuple[int, ...]] = {t.name: tuple(t.dims) for t in inferred.graph.initializer}
    for value in (*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output):
        dims = value.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") for d in dims):
            shapes[value.name] = tuple(d.dim_value for d in dims)

    def shape(name: str, node) -> tuple[int, ...]:
        if name not in shapes:
            raise ValueError(f"no inferred shape for {name!r}, an input or output of {node.op_type} {node.name!r}")
        return shapes[name]

    total = 0
    for node in inferred.graph.node:
        if node.op_type in ("Conv", "ConvTranspose"):
            weight = shape(node.input[1], node)
            counted = shape(node.output[0] if node.op_type == "Conv" else node.input[0], node)
            # Conv: each output element sums C_in/group x kernel products; ConvTranspose: each input element
            # spreads over C_out/group x kernel outputs; either way the weight's trailing dimensions
            total += math.prod(counted) * math.prod(weight[1:])
        elif node.op_type == "Gemm":
            a = shape(node.input[0], node)
            trans_a = next((att.i for att in node.attribute if att.name == "transA"), 0)
            total += math.prod(shape(node.output[0], node)) * (a[0] if trans_a else a[1])
        elif node.op_type == "MatMul":
            total += math.prod(shape(node.output[0], node)) * shape(node.input[0], node)[-1]
    return total


class CountingSession:
    """An onnxruntime session that also counts the images it was fed (the first input's batch dimension)."""

    def __init__(self, session) -> None:
        self.session = session
        self.images = 0

    def run(self, output_names, feed: dict, *args, **kwargs):
        self.images += len(next(iter(feed.values())))
        return self.session.run(output_names, feed, *args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.session, name)


@dataclass(frozen=True, slots=True)
class NetworkCost:
    """One network of a reader: its file, one image's multiply-accumulates, and the runs and images of a read."""

    path: Path
    macs_per_image: int
    runs: int
    images: int

    @property
    def macs(self) -> int:
        return self.macs_per_image * self.images


@dataclass(frozen=True)
class ReadTiming:
    """Reads of one image by one reader, over ``rounds`` rounds: milliseconds, runs and operations per read."""

    ms: tuple[float, ...]
    #: onnxruntime runs of each read.
    runs_per_read: tuple[int, ...]
    #: Per network, its cost in the last read.
    networks: tuple[NetworkCost, ...] = field(default=())

    @property
    def best_ms(self) -> float:
        return min(self.ms)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms)

    @property
    def runs(self) -> int:
        return int(statistics.median(self.runs_per_read))

    @property
    def macs(self) -> int:
        return sum(n.macs for n in self.networks)

    def as_json(self, gmacs: float = PI5_GMACS) -> dict:
        return {
            "runs": self.runs,
            "runs_per_read": list(self.runs_per_read),
            "best_ms": round(self.best_ms, 1),
            "median_ms": round(self.median_ms, 1),
            "macs": self.macs,
            "pi5_ms_estimate": round(pi5_ms(self.macs, gmacs), 1),
            "networks": [
                {"model": n.path.name, "runs": n.runs, "images": n.images, "macs_per_image": n.macs_per_image}
                for n in self.networks
            ],
        }


@functools.cache
def file_macs(path: Path) -> int:
    """:func:`count_macs` of the network in the file at ``path``, counted once per file (every bench on one set of
    networks asks it again)."""
    return count_macs(path)


def pi5_ms(macs: int, gmacs: float = PI5_GMACS) -> float:
    """Milliseconds ``macs`` multiply-accumulates take at ``gmacs`` 10^9 a second."""
    return macs / (gmacs * 1e9) * 1000


class ReadBench:
    """A reader (:class:`~vision.read.pipeline.Reader`) whose networks count what each read feeds them.

    ``reader``: a built reader with ``models`` (the networks' ``session`` are wrapped in :class:`CountingSession`)."""

    def __init__(self, reader) -> None:
        self.reader = reader
        self.networks = [m for m in (reader.models.network, reader.models.classifier, reader.models.way_up) if m]
        for m in self.networks:
            if not isinstance(m.session, CountingSession):
                m.session = CountingSession(m.session)
        self._macs = {m.path: file_macs(m.path) for m in self.networks}

    def read(self, image: np.ndarray) -> tuple[float, int, tuple[NetworkCost, ...]]:
        """One read of ``image``: its milliseconds, its runs and each network's cost."""
        before = [(m.runs, m.session.images) for m in self.networks]
        reading = self.reader.read(image)
        costs = tuple(
            NetworkCost(m.path, self._macs[m.path], m.runs - runs, m.session.images - images)
            for m, (runs, images) in zip(self.networks, before, strict=True)
        )
        return reading.ms, reading.runs, costs


def time_reads(
    benches: Sequence[tuple[ReadBench | PeerDetector, np.ndarray]], rounds: int, warmup: int = 1
) -> list[ReadTiming]:
    """Each (reader, image) read ``warmup`` times untimed, then ``rounds`` times, the readers taking turns round by
    round so that background load falls on all alike."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    ms: list[list[float]] = [[] for _ in benches]
    runs: list[list[int]] = [[] for _ in benches]
    costs: list[tuple[NetworkCost, ...]] = [() for _ in benches]
    for r in range(warmup + rounds):
        for k, (bench, image) in enumerate(benches):
            took, n, costs[k] = bench.read(image)
            if r >= warmup:
                ms[k].append(took)
                runs[k].append(n)
    return [ReadTiming(tuple(m), tuple(n), c) for m, n, c in zip(ms, runs, costs, strict=True)]


class PeerDetector:
    """The peer's ONNX detector, one pass per frame: the frame resized to its input, RGB, 0-1, NCHW (its whole
    reading is this one run and its box decoding, which is not timed here)."""

    def __init__(self, path: Path, threads: int | None = None) -> None:
        import onnxruntime as ort

        self.path = path
        self.session = ort.InferenceSession(str(path), session_options(threads), providers=["CPUExecutionProvider"])
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        height, width = inp.shape[2], inp.shape[3]
        self.size = (width if isinstance(width, int) else 640, height if isinstance(height, int) else 640)
        self.macs = file_macs(path)

    def read(self, image: np.ndarray) -> tuple[float, int, tuple[NetworkCost, ...]]:
        """One pass over ``image`` (BGR uint8), as :meth:`ReadBench.read`: its milliseconds (preprocessing
        included), its one run, its cost."""
        import cv2

        started = time.perf_counter()
        frame = cv2.resize(image, self.size) if image.shape[1::-1] != self.size else image
        batch = np.ascontiguousarray(frame[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        self.session.run(None, {self.input_name: batch})
        return (time.perf_counter() - started) * 1000, 1, (NetworkCost(self.path, self.macs, 1, 1),)


def square_640(image: np.ndarray, side: int = 640) -> np.ndarray:
    """``image``'s centre square, resized to ``side`` x ``side``."""
    import cv2

    height, width = image.shape[:2]
    s = min(height, width)
    top, left = (height - s) // 2, (width - s) // 2
    return cv2.resize(image[top : top + s, left : left + s], (side, side), interpolation=cv2.INTER_AREA)


@dataclass(frozen=True, slots=True)
class ViewCost:
    """What one extra view adds to a read (a read with every view, less one without this one): the medians and
    means over images of the runs and milliseconds it adds, over how many images, and on how many it added runs."""

    view: str
    runs: float
    ms: float
    images: int
    mean_runs: float = 0.0
    mean_ms: float = 0.0
    images_with_runs: int = 0

    def as_json(self) -> dict:
        return {
            "runs": self.runs,
            "ms": round(self.ms, 1),
            "mean_runs": round(self.mean_runs, 2),
            "mean_ms": round(self.mean_ms, 1),
            "images": self.images,
            "images_with_runs": self.images_with_runs,
        }


def view_costs(
    readers: dict[str, ReadBench], images: Sequence[np.ndarray], rounds: int = 1
) -> tuple[ViewCost, list[ViewCost]]:
    """The whole read's runs and ms (as the cost of ``"all"``), and each view's cost, from ``readers`` keyed
    ``"all"`` (every view) and by each view's name (every view but that one), each reading every image ``rounds``
    times (its median ms per image)."""
    names = [name for name in readers if name != "all"]
    keys = ["all", *names]
    pairs = [(readers[k], image) for image in images for k in keys]
    timings = time_reads(pairs, rounds)
    per_image = [dict(zip(keys, timings[i : i + len(keys)], strict=True)) for i in range(0, len(timings), len(keys))]
    out = []
    for name in ["all", *names]:
        runs = [t["all"].runs - (t[name].runs if name != "all" else 0) for t in per_image]
        ms = [t["all"].median_ms - (t[name].median_ms if name != "all" else 0) for t in per_image]
        out.append(
            ViewCost(
                name,
                statistics.median(runs),
                statistics.median(ms),
                len(per_image),
                float(statistics.mean(runs)),
                statistics.mean(ms),
                sum(r > 0 for r in runs),
            )
        )
    return out[0], out[1:]
