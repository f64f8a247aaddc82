"""Timing detector models on onnxruntime, ours beside a peer's, in one process with the same thread settings.

The peer is the PyPI package ``mahjong-detector`` (a YOLO11n at 640, 34 classes): its ``model.onnx`` is found in the
installed package without importing it. Runs alternate between the models so that background load on a shared CPU
falls on both alike; each figure is the median over the runs of one ``session.run`` on a 1 x 3 x 640 x 640 frame.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.read.detector import session_options
from vision.read.errors import ModelError

PEER_PACKAGE = "mahjong_detector"


def peer_model_path() -> Path:
    """The ONNX file inside the installed ``mahjong-detector`` package."""
    spec = importlib.util.find_spec(PEER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("the peer package mahjong-detector is not installed (pip install mahjong-detector==0.0.6)")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.onnx"))
        if found:
            return found[0]
    raise ModelError(f"no .onnx file in the installed {PEER_PACKAGE} package")


@dataclass(frozen=True, slots=True)
class Timing:
    """Milliseconds per frame of one model: the median and the spread over ``runs`` runs."""

    path: Path
    input_shape: tuple[int, ...]
    runs: int
    median_ms: float
    p10_ms: float
    p90_ms: float
    load_ms: float


def _session(path: Path, threads: int | None):
    import onnxruntime as ort

    started = time.perf_counter()
    session = ort.InferenceSession(str(path), sess_options=session_options(threads), providers=["CPUExecutionProvider"])
    return session, (time.perf_counter() - started) * 1000


def _feed(session, size: tuple[int, int], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A random frame at the model's own input size (a 640 x 640 frame letterboxed to it), else at ``size``."""
    import ast

    inp = session.get_inputs()[0]
    batch = inp.shape[0] if isinstance(inp.shape[0], int) else 1
    height, width = inp.shape[2], inp.shape[3]
    if not (isinstance(height, int) and isinstance(width, int)):
        imgsz = session.get_modelmeta().custom_metadata_map.get("imgsz")
        value = ast.literal_eval(imgsz) if imgsz else size
        height, width = (value, value) if isinstance(value, int) else value
    return {inp.name: rng.random((batch, 3, height, width), dtype=np.float32)}


def compare(
    ours: str | os.PathLike[str],
    peer: str | os.PathLike[str],
    *,
    runs: int = 30,
    warmup: int = 3,
    threads: int | None = None,
    size: tuple[int, int] = (640, 640),
) -> tuple[Timing, Timing]:
    """Median ms per frame of each model, runs interleaved, the same session options.

    Each model reads the frame at its own input size (its static input shape, else its metadata ``imgsz``, else
    ``size``): a 640 x 640 frame costs a model with a 416 input a 416 run.
    """
    rng = np.random.default_rng(0)
    sessions = [_session(Path(p), threads) for p in (ours, peer)]
    feeds = [_feed(s, size, rng) for s, _ in sessions]
    times: list[list[float]] = [[], []]
    for r in range(warmup + runs):
        for k in (0, 1) if r % 2 == 0 else (1, 0):
            session, _ = sessions[k]
            started = time.perf_counter()
            session.run(None, feeds[k])
            if r >= warmup:
                times[k].append((time.perf_counter() - started) * 1000)
    out = []
    for (_, load_ms), path, ms, feed in zip(sessions, (ours, peer), times, feeds, strict=True):
        q = statistics.quantiles(ms, n=10)
        shape = tuple(next(iter(feed.values())).shape)
        out.append(Timing(Path(path), shape, runs, statistics.median(ms), q[0], q[-1], load_ms))
    return out[0], out[1]
