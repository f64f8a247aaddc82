"""Crop networks in 8 bits: static int8 quantization (QDQ) of an exported classifier, calibrated on real crops.

    quantize_crop_model("float.onnx", "int8.onnx", calibration_crops())

The crop classifier reads every tile of a frame, often twice: it is most of a reader's time, and onnxruntime reads
an int8 graph on the CPU (x86 and the Pi's Arm cores alike) faster than the float one. Weights are int8 per output
channel in 7 bits (``reduce_range``), activations uint8 at the ranges the calibration crops reach; the first
convolution and the class scores stay float (:func:`float_layers`). Seven bits because x86 cores without VNNI (AVX2
alone) multiply uint8 by int8 in pairs summed into int16, which saturates with full 8-bit weights: the same file would
read otherwise on another CPU. In 7 bits every kernel sums exactly (:func:`widest_int8_weight` checks a file).

The metadata (``kind``, ``names``, ``crop_margin``, ``training``) is kept, and ``quantized`` records how.
onnxruntime's quantization tools and ``onnx`` are needed here only; reading needs onnxruntime alone. To train on from
a quantized file, :func:`vision.train.classifier_training.network_from_onnx` reads its weights dequantized.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

#: The widest int8 weight a quantized file may hold: 7 bits, so that no x86 kernel's int16 pair sums saturate
#: (255 x 64 x 2 = 32,640; onnxruntime's ``reduce_range`` keeps weights in -64..64).
WIDEST_WEIGHT = 64
#: Calibration crops: real tiles and their backgrounds, and rendered ones.
CALIBRATION_REAL = 1500
CALIBRATION_RENDERED = 500
#: Every this-many-th calibration crop is turned a half turn, as the reader's views turn them.
TURNED_EVERY = 4


def calibration_crops(real: int = CALIBRATION_REAL, rendered: int = CALIBRATION_RENDERED, seed: int = 0) -> np.ndarray:
    """``real`` crops of the training photos (leo-miura's training split, alanchoi00's ``train``: labelled boxes and
    two background boxes a photo) and ``rendered`` of renderer set 21, drawn at random (BGR uint8, (n, h, w, 3)),
    a quarter of them turned a half turn. Never a validation photo."""
    from vision.train.classifier_training import NO_JITTER, crops_of, rendered_scenes
    from vision.train.way_up_training import real_way_up_scenes

    rng = np.random.default_rng(seed)
    pools = [
        (crops_of(real_way_up_scenes(), jitter=NO_JITTER, background=2, seed=seed + 1).x, real),
        (crops_of(rendered_scenes(21, 40), jitter=NO_JITTER, background=2, seed=seed + 2).x, rendered),
    ]
    x = np.concatenate([pool[rng.choice(len(pool), min(n, len(pool)), replace=False)] for pool, n in pools if n])
    rng.shuffle(x)
    x[::TURNED_EVERY] = x[::TURNED_EVERY, ::-1, ::-1]
    return x


def float_layers(model) -> list[str]:
    """The names of the nodes of ``model`` (an ``onnx.ModelProto``) left in float: its first convolution, which reads
    the crop's three colours, and its last Gemm, the class scores. A sliver of the network's work, and in 7 bits they
    cost the most agreement with the float network of the layers that cheap."""
    nodes = list(model.graph.node)
    first = next((n.name for n in nodes if n.op_type == "Conv"), None)
    last = next((n.name for n in reversed(nodes) if n.op_type == "Gemm"), None)
    return [name for name in (first, last) if name]


def quantize_crop_model(
    src: str | os.PathLike[str], dst: str | os.PathLike[str], crops: np.ndarray, batch: int = 100
) -> Path:
    """Write ``src`` (a crop network this project exported) quantized to int8 at ``dst``, calibrated on ``crops``
    (BGR uint8 of the network's input size); its metadata kept, with ``quantized`` added."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.read.classifier import to_input

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.starts = iter(range(0, len(crops), batch))

        def get_next(self):
            start = next(self.starts, None)
            return None if start is None else {"images": to_input(crops[start : start + batch])}

    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(src), str(prepared))
        kept = float_layers(onnx.load(str(prepared)))
        quantize_static(
            str(prepared),
            str(dst),
            Crops(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,  # exact on every x86 kernel (see the module's docstring)
            nodes_to_exclude=kept,
        )
    source, out = onnx.load(str(src)), onnx.load(str(dst))
    meta = {m.key: m.value for m in source.metadata_props}
    meta["quantized"] = json.dumps(
        {"weights": "int8 per channel, 7 bits", "activations": "uint8", "float": kept, "calibration": len(crops)}
    )
    del out.metadata_props[:]
    for key, value in meta.items():
        out.metadata_props.add(key=key, value=value)
    onnx.save(out, str(dst))
    return dst


def widest_int8_weight(model: str | os.PathLike[str]) -> int:
    """The largest magnitude among the int8 initializers of an ONNX file (0 when it holds none): at most
    :data:`WIDEST_WEIGHT` for a file every CPU reads alike."""
    import onnx
    from onnx import numpy_helper

    widest = 0
    for tensor in onnx.load(str(model)).graph.initializer:
        if tensor.data_type == onnx.TensorProto.INT8:
            widest = max(widest, int(np.abs(numpy_helper.to_array(tensor).astype(np.int16)).max(initial=0)))
    return widest
