"""A weighted average of two networks' weights: one network, read as fast as either.

A network trained on from another (``jantaku-lab train-classifier --init``) learns something new (photos out of focus)
and drifts from what it read well before. Both lie in one basin of the loss, so the weights between them read about
as well as each where each was good ("robust fine-tuning", Wortsman et al. 2022: WiSE-FT). The two files must be
one graph with the same weights' names and shapes, and name the same classes; the blend is ``(1 - share) * first +
share * second``, weight by weight, and its metadata says what it blends: both files' names and their ``training``
records, and the share.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

#: Metadata both files must agree on: what the network is and what it names.
SAME_METADATA = ("kind", "names", "imgsz", "crop_margin")


class BlendError(ValueError):
    """Two files that cannot be blended (another graph, other weights, other classes), or a share out of range."""


def _graph_signature(proto) -> list[tuple]:
    return [(n.op_type, tuple(n.input), tuple(n.output)) for n in proto.graph.node]


def blend_onnx(
    first: str | os.PathLike[str],
    second: str | os.PathLike[str],
    share: float,
    out: str | os.PathLike[str],
) -> Path:
    """Write ``(1 - share) * first + share * second`` (each weight) to ``out``: ``first``'s graph and metadata,
    its ``training`` record moved with ``second``'s into ``blend`` metadata with the share. Raises
    :class:`BlendError` when the two are not one graph."""
    import onnx
    from onnx import numpy_helper

    if not 0.0 <= share <= 1.0:
        raise BlendError(f"share {share}: a share of the second network, 0 to 1")
    a, b = onnx.load(str(first)), onnx.load(str(second))
    if _graph_signature(a) != _graph_signature(b):
        raise BlendError(f"{first} and {second} are not the same graph")
    meta_a = {m.key: m.value for m in a.metadata_props}
    meta_b = {m.key: m.value for m in b.metadata_props}
    for key in SAME_METADATA:
        if meta_a.get(key) != meta_b.get(key):
            raise BlendError(f"{first} and {second} differ in their {key!r} metadata")
    weights_b = {i.name: numpy_helper.to_array(i) for i in b.graph.initializer}
    names_a = {i.name for i in a.graph.initializer}
    if names_a != set(weights_b):
        raise BlendError(f"{first} and {second} hold differently named weights")
    for init in a.graph.initializer:
        x, y = numpy_helper.to_array(init), weights_b[init.name]
        if x.shape != y.shape or x.dtype != y.dtype:
            raise BlendError(f"{init.name}: {x.shape} {x.dtype} in {first}, {y.shape} {y.dtype} in {second}")
        if np.issubdtype(x.dtype, np.floating):
            mixed = ((1.0 - share) * x.astype(np.float64) + share * y.astype(np.float64)).astype(x.dtype)
        elif np.array_equal(x, y):  # shapes and such: nothing to average
            mixed = x
        else:
            raise BlendError(f"{init.name}: whole-number weights that differ cannot be averaged")
        init.CopyFrom(numpy_helper.from_array(mixed, init.name))
    blend = {
        "share": share,
        "first": {"file": Path(first).name, "training": meta_a.get("training"), "blend": meta_a.get("blend")},
        "second": {"file": Path(second).name, "training": meta_b.get("training"), "blend": meta_b.get("blend")},
    }
    meta = {**meta_a, "blend": json.dumps(blend)}
    meta.pop("training", None)  # the blend was not trained: both records are inside ``blend``
    del a.metadata_props[:]
    for key, value in meta.items():
        a.metadata_props.add(key=key, value=value)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(a, str(out))
    return out
