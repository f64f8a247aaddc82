"""Crop networks in 8 bits: static int8 quantization (QDQ) of an exported classifier, calibrated on real crops.

    quantize_crop_model("float.onnx", "int8.onnx", calibration_crops())

The crop classifier reads every tile of a frame, often twice: it is most of a reader's time. onnxruntime reads the
int8 graph on the CPU (x86 and the Pi's Arm cores alike) in about a third of the float graph's time. Weights are
int8 per output channel, activations uint8 at the ranges the calibration crops reach. The metadata (``kind``,
``names``, ``crop_margin``, ``training``) is kept, and ``quantized`` records how. onnxruntime's quantization tools
and ``onnx`` are needed here only; reading needs onnxruntime alone. To train on from a quantized file,
:func:`vision.train.classifier_training.network_from_onnx` reads its weights dequantized.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

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
        quantize_static(
            str(prepared),
            str(dst),
            Crops(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
        )
    source, out = onnx.load(str(src)), onnx.load(str(dst))
    meta = {m.key: m.value for m in source.metadata_props}
    meta["quantized"] = json.dumps({"weights": "int8 per channel", "activations": "uint8", "calibration": len(crops)})
    del out.metadata_props[:]
    for key, value in meta.items():
        out.metadata_props.add(key=key, value=value)
    onnx.save(out, str(dst))
    return dst
