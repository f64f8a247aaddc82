"""The shipped ONNX files read alike on every CPU the product runs on (the Pi's Arm cores, x86 with or without VNNI):
an int8 file's weights lie in 7 bits, where x86's AVX2 kernels, summing uint8 x int8 products in int16 pairs, cannot
saturate (vision.train.quantize). With full 8-bit weights the same file reads otherwise on an AVX2-only machine
(docs/experiments/2026-12-06-real-sets.md, session 56)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("onnx", reason="reading a model's weights needs the onnx package")

from vision.train.quantize import WIDEST_WEIGHT, widest_int8_weight

MODELS = Path(__file__).resolve().parents[1] / "models"
INT8 = ["tile_classifier", "tile_classifier_photo"]


@pytest.mark.parametrize("model", INT8)
def test_the_shipped_int8_classifiers_weights_lie_in_seven_bits(model):
    assert 0 < widest_int8_weight(MODELS / f"{model}.onnx") <= WIDEST_WEIGHT
