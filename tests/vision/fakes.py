"""Stand-ins for a trained detector in tests: a numpy "network" that finds coloured blocks, and tiny ONNX files.

The blocks network sees the letterboxed tensor exactly as a real YOLO network would and answers in its output
format ``[batch, 4 + classes, anchors]``, so letterboxing, decoding, slicing and merging are all exercised for real.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.read.classifier import CROP_SIZE, MODEL_KIND
from vision.read.geometry import Box, Size
from vision.read.labels import CLASS_NAMES, NUM_CLASSES

ANCHORS = 64


def block_colour(class_id: int) -> tuple[int, int, int]:
    """The BGR colour the blocks network reads as ``class_id`` (distinct, far from the grey padding)."""
    return (10 + 6 * class_id, 250 - 5 * class_id, 30)


def paint(frame: np.ndarray, class_id: int, box: Box) -> None:
    """Paint a block of class ``class_id`` in a frame."""
    x1, y1, x2, y2 = (round(v) for v in (box.x1, box.y1, box.x2, box.y2))
    frame[y1:y2, x1:x2] = block_colour(class_id)


class BlocksNetwork:
    """Finds solid blocks of :func:`block_colour` in each input image; confidence 0.9 (0.6 for blocks under 6 px).

    Records the batch size of each call. With ``short``, a block cut by the input's edge is boxed that many pixels
    short of the edge, as a real network may box half a tile. With ``parts``, a block wider than half the input
    also yields a confident ``1p`` box of a fifth of its size in its middle, as a network shown a tile far bigger
    than it learnt may take a pip for a tile. With ``largest``, a block longer than that share of the input's
    shorter side is not seen at all, as a network misses a tile far bigger than any it learnt. ``scores`` gives some
    classes a confidence of their own (a tile the network half knows).
    """

    names = CLASS_NAMES

    def __init__(
        self,
        input_size: Size = Size(height=320, width=416),  # noqa: B008
        max_batch: int = 4,
        short: int = 0,
        parts: bool = False,
        largest: float | None = None,
        scores: dict[int, float] | None = None,
    ) -> None:
        self.input_size = input_size
        self.scores = scores or {}
        self.largest = largest
        self.max_batch = max_batch
        self.short = short
        self.parts = parts
        self.calls: list[int] = []

    @property
    def runs(self) -> int:
        """Calls so far, as :class:`~vision.read.detector.OnnxNetwork` counts its onnxruntime runs."""
        return len(self.calls)

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        assert batch.shape[1:] == (3, self.input_size.height, self.input_size.width), batch.shape
        assert batch.dtype == np.float32 and batch.min() >= 0 and batch.max() <= 1
        assert len(batch) <= self.max_batch
        self.calls.append(len(batch))
        out = np.zeros((len(batch), 4 + NUM_CLASSES, ANCHORS), np.float32)
        for b, chw in enumerate(batch):
            rgb = np.round(chw.transpose(1, 2, 0) * 255).astype(np.int16)
            k = 0
            for cls in range(NUM_CLASSES):
                bgr = block_colour(cls)
                target = np.array(bgr[::-1], np.int16)
                mask = (np.abs(rgb - target).max(axis=2) <= 3).astype(np.uint8)
                if not mask.any():
                    continue
                _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
                for x, y, w, h, area in stats[1:]:
                    if area < 4 or k >= ANCHORS:
                        continue
                    if self.largest is not None and max(w, h) > self.largest * min(
                        self.input_size.height, self.input_size.width
                    ):
                        continue
                    if self.short:
                        x2, y2 = x + w, y + h
                        x, y = x + self.short * (x == 0), y + self.short * (y == 0)
                        x2 -= self.short * (x2 == self.input_size.width)
                        y2 -= self.short * (y2 == self.input_size.height)
                        w, h = x2 - x, y2 - y
                    out[b, :4, k] = (x + w / 2, y + h / 2, w, h)
                    out[b, 4 + cls, k] = self.scores.get(cls, 0.9 if min(w, h) >= 6 else 0.6)
                    k += 1
                    if self.parts and w > self.input_size.width / 2 and k < ANCHORS:
                        out[b, :4, k] = (x + w / 2, y + h / 2, w / 5, h / 5)
                        out[b, 4 + 9, k] = 0.95
                        k += 1
        return out


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF APP1 segment carrying only the Orientation tag (1..8), as phones write it."""
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


#: A fixed "YOLO"'s boxes for the command-line tests (network input 256 x 320, h x w): three tiles in one row and a
#: face-down tile in the row below, under the first (a lone one would be dropped as no tile: vision.read.plausible).
#: On a 128 x 160 frame (read whole, scaled up 2x, no padding) they land at half these coordinates.
ROW_AND_A_BACK = [
    (0, 100, 100, 30, 40, 0.9),
    (1, 132, 100, 30, 40, 0.8),
    (31, 164, 100, 30, 40, 0.7),
    (37, 100, 144, 30, 40, 0.6),
]


def grey_photo(path: Path) -> Path:
    """A plain grey 128 x 160 JPEG written to ``path`` (the constant model's boxes are what it shows; not dark: a back
    on dark grey is read as a slot, :mod:`vision.read.plausible`)."""
    path.write_bytes(encode(np.full((128, 160, 3), 120, np.uint8)))
    return path


def constant_onnx(
    path: Path,
    boxes: list[tuple[int, float, float, float, float, float]],
    *,
    input_shape: tuple = (1, 3, 256, 320),
    names: tuple[str, ...] = CLASS_NAMES,
    imgsz: str | None = None,
    anchors: int = 16,
) -> Path:
    """A tiny ONNX "YOLO" whose output is fixed: ``boxes`` of (class, cx, cy, w, h, score) in input pixels.

    The output depends on the input only through its batch size (``0 * mean(input) + constant``), so the model
    runs in milliseconds while everything around it (metadata, shapes, batching, letterbox) is real.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    const = np.zeros((1, 4 + len(names), anchors), np.float32)
    for k, (cls, cx, cy, w, h, score) in enumerate(boxes):
        const[0, :4, k] = (cx, cy, w, h)
        const[0, 4 + cls, k] = score
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["m"], axes=[1, 2, 3], keepdims=1),  # [B,1,1,1]
        helper.make_node("Reshape", ["m", "shape"], ["m3"]),  # [B,1,1]
        helper.make_node("Mul", ["m3", "zero"], ["z"]),
        helper.make_node("Add", ["z", "const"], ["output0"]),  # [B, 4+nc, anchors]
    ]
    graph = helper.make_graph(
        nodes,
        "constant_yolo",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, list(input_shape))],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [input_shape[0], 4 + len(names), anchors])],
        initializer=[
            numpy_helper.from_array(np.array([-1, 1, 1], np.int64), "shape"),
            numpy_helper.from_array(np.zeros((1,), np.float32), "zero"),
            numpy_helper.from_array(const, "const"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    meta = {"names": repr(dict(enumerate(names))), "task": "detect"}
    if imgsz:
        meta["imgsz"] = imgsz
    helper.set_model_props(model, meta)
    onnx.save(model, str(path))
    return path


#: The hand-built model reads the crop's mean colour: red -> 1m, green -> 6z, blue -> back.
COLOUR_CLASSES = {"1m": 0, "6z": 1, "back": 2, "none": 2}  # RGB channel whose mean wins


def colour_model(
    path: Path,
    names: tuple[str, ...] = ("1m", "6z", "back"),
    kind: str | None = MODEL_KIND,
    size: Size = CROP_SIZE,
) -> Path:
    """A tiny ONNX crop classifier: global average pool per RGB channel, times a matrix that gives class
    ``names[c]`` the score of channel ``COLOUR_CLASSES[names[c]]`` (every other class scores 0; a model of one
    class reads every crop as that class)."""
    import onnx
    from onnx import TensorProto, helper

    w = np.zeros((3, len(names)), np.float32)
    for j, name in enumerate(names):
        if name in COLOUR_CLASSES:
            w[COLOUR_CLASSES[name], j] = 20.0
    nodes = [
        helper.make_node("GlobalAveragePool", ["images"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["flat"]),
        helper.make_node("MatMul", ["flat", "w"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes,
        "colour",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, size.height, size.width])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", len(names)])],
        [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.flatten())],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for key, value in {"kind": kind, "names": repr(list(names))}.items():
        if value is not None:
            model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))
    return path


def artwork():
    """The renderer's artwork module, or skip the test where the CC0 artwork is not installed."""
    import pytest

    from vision.synth import art

    try:
        art.art_dir()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    return art


def encode(image: np.ndarray, suffix: str = ".jpg") -> bytes:
    ok, buf = cv2.imencode(suffix, image)
    assert ok
    return buf.tobytes()


FACE, FELT = (228, 236, 240), (60, 110, 40)  # BGR: ivory face, green felt
BLACK, BLUE, GREEN, RED = (30, 30, 30), (150, 60, 20), (40, 110, 30), (40, 40, 200)

_PIN = [(0.27, 0.22), (0.73, 0.22), (0.5, 0.5), (0.27, 0.78), (0.73, 0.78)]
_STICK = [(0.22, 0.27), (0.78, 0.27), (0.5, 0.5), (0.22, 0.73), (0.78, 0.73)]


def drawn_five(text: str, h: int = 120, w: int = 90, outer=BLUE, margin: float = 0.1) -> np.ndarray:
    """A five drawn as the reader crops it: a light face on felt; 5m: numeral on top and a red 萬 below; 5p / 5s:
    four outer pins / sticks in ``outer`` and a red centre one; a red five (0m 0p 0s) draws all of it red."""
    tile = Tile.parse(text)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = FELT
    my, mx = round(margin * h), round(margin * w)
    face = img[my : h - my, mx : w - mx]
    face[:] = FACE
    fh, fw = face.shape[:2]
    if text[1] == "m":
        numeral = RED if tile.red else BLACK
        cv2.rectangle(face, (fw // 5, fh // 10), (4 * fw // 5, 4 * fh // 10), numeral, max(2, fw // 12))
        cv2.line(face, (fw // 5, fh // 4), (4 * fw // 5, fh // 4), numeral, max(2, fw // 12))
        cv2.rectangle(face, (fw // 5, 6 * fh // 10), (4 * fw // 5, 9 * fh // 10), RED, max(2, fw // 12))
        cv2.line(face, (fw // 2, 55 * fh // 100), (fw // 2, 95 * fh // 100), RED, max(2, fw // 12))
        return img
    for i, (x, y) in enumerate(_PIN if text[1] == "p" else _STICK):
        colour = RED if tile.red or i == 2 else outer
        centre = (round(x * fw), round(y * fh))
        if text[1] == "p":
            cv2.circle(face, centre, round(0.18 * fw), colour, max(2, fw // 14))
        else:
            half = (max(2, fw // 14), round(0.17 * fh))
            cv2.rectangle(
                face, (centre[0] - half[0], centre[1] - half[1]), (centre[0] + half[0], centre[1] + half[1]), colour, -1
            )
    return img


def photo_reader(network, classifier=None, way_up="shipped"):
    """The composed detector of ``jantaku read``'s photo reader (:meth:`ReaderConfig.for_photo`) on ``network``,
    ``classifier`` (a model, its path, or None) and ``way_up`` (a model, None, or ``"shipped"``: the installed one)."""
    from vision.read.classifier import OnnxTileClassifier
    from vision.read.pipeline import Models, Reader, ReaderConfig
    from vision.read.way_up import way_up_for

    if classifier is not None and not isinstance(classifier, OnnxTileClassifier):
        classifier = OnnxTileClassifier(classifier)
    if isinstance(way_up, str):
        way_up = way_up_for()
    return Reader.from_config(ReaderConfig.for_photo(), models=Models(network, classifier, way_up)).detector
