"""Tile detection: an image in, typed :class:`Detection` values out.

The :class:`Detector` protocol is one method, ``detect(image)``; :class:`FakeDetector` answers from a script for
tests and demos, :class:`SlicedDetector` runs a :class:`Network` over a frame at several scales, such as
:class:`OnnxNetwork`, an ONNX file on onnxruntime (no torch anywhere on this path). A reader is built from
configuration in one place, :class:`vision.read.pipeline.Reader`.

>>> d = Detection.of_class(35, Box(10.0, 10.0, 50.0, 40.0), 0.9)
>>> d.tile, d.label, d.orientation
(Tile.parse('0p'), '0p', <Orientation.SIDEWAYS: 'sideways'>)
>>> FakeDetector([d]).detect(np.zeros((48, 64, 3), np.uint8)) == [d]
True
"""

from __future__ import annotations

import ast
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import ClassVar, Protocol

import numpy as np

from engine.tiles import Tile
from vision.read.errors import ModelError
from vision.read.geometry import Box, Size
from vision.read.labels import CLASS_NAMES, class_of_tile, tile_of_class
from vision.read.postprocess import (
    Letterbox,
    Raw,
    decode,
    intersection_matrix,
    ios_matrix,
    iou_matrix,
    nms,
    share_inside_matrix,
    to_tensor,
)

#: Where the shipped model lies in a checkout; ``$JANTAKU_MODEL`` overrides.
SHIPPED_MODEL = Path(__file__).resolve().parents[2] / "models" / "tiles.onnx"
#: The camera's own detector, where one is shipped: the photos' detector, trained on with things that are not tiles
#: and close-ups of single tiles, finds fewer phantoms in photos and loses tiles of the camera's table that this one
#: keeps, so the camera keeps it (``models/tiles_camera.md``).
SHIPPED_CAMERA_MODEL = SHIPPED_MODEL.with_name("tiles_camera.onnx")


def default_model_path(camera: bool = False) -> Path:
    """``$JANTAKU_MODEL`` if set (for both readers), else ``models/tiles.onnx`` of this checkout; with ``camera``,
    :data:`SHIPPED_CAMERA_MODEL` where it is shipped."""
    chosen = os.environ.get("JANTAKU_MODEL")
    if chosen is not None:
        return Path(chosen)
    return SHIPPED_CAMERA_MODEL if camera and SHIPPED_CAMERA_MODEL.is_file() else SHIPPED_MODEL


#: Network pixels from an inner slice border within which a box counts as cut by it.
CUT_MARGIN = 6.0


class Orientation(Enum):
    """How a tile lies as the box shows it: upright (taller than wide) or sideways (a called or riichi tile)."""

    UPRIGHT = "upright"
    SIDEWAYS = "sideways"

    @classmethod
    def of_box(cls, box: Box) -> Orientation:
        return cls.SIDEWAYS if box.width > box.height else cls.UPRIGHT


@dataclass(frozen=True, slots=True)
class Detection:
    """One tile found in a frame: the tile (None for a face-down tile), its box in frame pixels, the confidence.

    ``turn``: degrees (counter-clockwise as the frame shows it, -180 to 180) by which the frame was turned back to
    read the tile upright (:mod:`vision.read.views.turned_tiles`), 0 when read as the frame is; its box then bounds the
    turned tile and ``orientation`` is as the tile showed in that view.
    """

    tile: Tile | None
    box: Box
    conf: float
    orientation: Orientation
    turn: float = 0.0

    @classmethod
    def of_class(cls, class_id: int, box: Box, conf: float) -> Detection:
        return cls(tile_of_class(class_id), box, float(conf), Orientation.of_box(box))

    @property
    def is_back(self) -> bool:
        """裏向き: a face-down tile."""
        return self.tile is None

    @property
    def class_id(self) -> int:
        return class_of_tile(self.tile)

    @property
    def label(self) -> str:
        """The class name: mpsz (``5m``, ``0p``) or ``back``."""
        return CLASS_NAMES[self.class_id]

    def as_json(self) -> dict:
        out = {"tile": self.label, "box": self.box.as_list(), "conf": round(self.conf, 3)}
        if self.turn:
            out["turn"] = round(self.turn, 1)
        return out


class Detector(Protocol):
    """Anything that finds tiles in a BGR ``uint8`` image of shape (height, width, 3)."""

    def detect(self, image: np.ndarray) -> list[Detection]: ...


class DetectorLayer:
    """A detector that wraps another (its ``detector``), as the photo layers and the crop classifier do: what the
    layer does not have itself, the inner detector answers (``input_size``, ``network``, ``options``, ``passes``
    ...), so a reader's layers can be stacked in any order."""

    #: The layer's own attributes: never looked up in the inner detector (so a half-built layer fails plainly
    #: instead of recursing).
    own_attributes: ClassVar[frozenset[str]] = frozenset({"detector"})

    def __getattr__(self, name: str):
        if name in self.own_attributes:
            raise AttributeError(name)
        return getattr(self.detector, name)


@dataclass
class FakeDetector:
    """A detector that answers from a script: a fixed list, or a function of the image. Records the sizes it saw."""

    answer: Sequence[Detection] | Callable[[np.ndarray], Sequence[Detection]] = ()
    seen: list[Size] = field(default_factory=list)

    def detect(self, image: np.ndarray) -> list[Detection]:
        self.seen.append(Size.of(image))
        return list(self.answer(image) if callable(self.answer) else self.answer)


def laid_in_rows(rows: Sequence[Sequence[Tile]], *, top: float = 100.0, conf: float = 0.9) -> tuple[Detection, ...]:
    """The detections of ``rows`` of face-up tiles laid out plainly (30 x 40 px tiles 5 px apart from x = 40, rows 60
    px apart from ``top``), in reading order: what a :class:`FakeDetector` finds in a frame of 800 x 600 (tests,
    benchmarks). :func:`vision.read.rows.read_tiles` reads them back as the same rows.

    >>> from engine.tiles import parse_tiles
    >>> [(d.label, d.box.x1, d.box.y1) for d in laid_in_rows([parse_tiles("12m"), parse_tiles("7z")])]
    [('1m', 40.0, 100.0), ('2m', 75.0, 100.0), ('7z', 40.0, 160.0)]
    """
    return tuple(
        Detection.of_class(class_of_tile(t), Box(40.0 + 35 * i, top + 60 * r, 70.0 + 35 * i, top + 60 * r + 40), conf)
        for r, row in enumerate(rows)
        for i, t in enumerate(row)
    )


# --- the network ----------------------------------------------------------------------------------------------


class Network(Protocol):
    """A YOLO v8/11 detection network: ``[batch, 3, h, w]`` float RGB 0..1 in, ``[batch, 4 + classes, anchors]`` out."""

    input_size: Size
    #: The model's class names, in its output order.
    names: tuple[str, ...]
    #: The largest batch one call takes (1 for a model exported with a fixed batch of one).
    max_batch: int

    def __call__(self, batch: np.ndarray) -> np.ndarray: ...


#: Whether a session's threads spin, waiting for work, after each run (onnxruntime's default). Off: every session of a
#: reader sleeps between its runs, so that the session running has the cores.
SPIN_BETWEEN_RUNS = False


def session_options(threads: int | None = None):
    """onnxruntime session options: ``threads`` intra-op threads (None: onnxruntime's default), sequential graph, and
    threads that sleep between runs (:data:`SPIN_BETWEEN_RUNS`)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.inter_op_num_threads = 1
    # a reader runs several sessions in turn (detector, classifier, way-up) with Python between them: a pool left
    # spinning after its run takes the cores from the next session's run
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if SPIN_BETWEEN_RUNS else "0")
    if threads:
        opts.intra_op_num_threads = threads
    opts.log_severity_level = 3
    return opts


def open_session(path: Path, threads: int | None, missing: str):
    """An onnxruntime CPU session on ``path`` and the seconds it took to load; ``missing`` names what is absent.

    A missing or unloadable file is a :class:`ModelError` with one clear line.
    """
    import onnxruntime as ort

    if not path.is_file():
        raise ModelError(missing)
    started = time.perf_counter()
    try:
        options = session_options(threads)
        session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for bad files
        raise ModelError(f"{path}: not a loadable ONNX model ({str(exc).splitlines()[0]})") from exc
    return session, time.perf_counter() - started


class OnnxNetwork:
    """A YOLO ONNX model on onnxruntime (CPU). Class names and input size come from the model itself."""

    def __init__(self, path: str | os.PathLike[str], *, threads: int | None = None, max_batch: int = 8) -> None:
        self.path = Path(path)
        self.session, self.load_seconds = open_session(
            self.path, threads, f"no detector model at {self.path} (pass --model PATH or set JANTAKU_MODEL)"
        )
        inputs, outputs = self.session.get_inputs(), self.session.get_outputs()
        if len(inputs) != 1 or len(inputs[0].shape) != 4:
            raise ModelError(f"{self.path}: expected one image input [batch, 3, h, w], got {[i.shape for i in inputs]}")
        self.input_name = inputs[0].name
        self.output_name = outputs[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        self.metadata = dict(meta)
        self.names = parse_names(meta.get("names"), self.path)
        self.input_size = _input_size(inputs[0].shape, meta.get("imgsz"), self.path)
        batch_dim = inputs[0].shape[0]
        #: A fixed batch size the model was exported with, or None when its batch axis is dynamic.
        self.fixed_batch = batch_dim if isinstance(batch_dim, int) else None
        self.max_batch = self.fixed_batch or max_batch
        #: onnxruntime runs made so far (a batch of up to ``max_batch`` slices is one run).
        self.runs = 0
        out_shape = outputs[0].shape
        if isinstance(out_shape[1], int) and out_shape[1] != 4 + len(self.names):
            raise ModelError(
                f"{self.path}: output has {out_shape[1]} rows, expected 4 + {len(self.names)} classes "
                f"(a YOLO v8/11 detection head, exported without NMS)"
            )

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        n = len(batch)
        if self.fixed_batch and n != self.fixed_batch:  # a model exported with a fixed batch: fill it up
            if n > self.fixed_batch:
                raise ValueError(f"{self.path} takes batches of {self.fixed_batch}, got {n}")
            batch = np.concatenate([batch, np.zeros((self.fixed_batch - n, *batch.shape[1:]), batch.dtype)])
        self.runs += 1
        return self.session.run([self.output_name], {self.input_name: batch})[0][:n]


def parse_names(text: str | None, where: object = "model") -> tuple[str, ...]:
    """Class names from model metadata: ultralytics' ``{0: '1m', ...}``, or a list.

    >>> parse_names("{0: '1m', 1: 'back'}"), parse_names("['1m', '2m']")
    (('1m', 'back'), ('1m', '2m'))
    """
    if not text:
        raise ModelError(f"{where}: no class names in the model metadata ('names')")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise ModelError(f"{where}: unreadable class names in the model metadata: {text[:80]!r}") from exc
    if isinstance(value, dict):
        if sorted(value) != list(range(len(value))):
            raise ModelError(f"{where}: class ids in the metadata are not 0..{len(value) - 1}")
        return tuple(str(value[i]) for i in range(len(value)))
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value)
    raise ModelError(f"{where}: class names in the metadata are neither a dict nor a list")


def _input_size(shape: Sequence, imgsz: str | None, where: object) -> Size:
    h, w = shape[2], shape[3]
    if isinstance(h, int) and isinstance(w, int):
        return Size(height=h, width=w)
    if imgsz:
        value = ast.literal_eval(imgsz)
        if isinstance(value, int):
            return Size(height=value, width=value)
        return Size(height=int(value[0]), width=int(value[1]))  # ultralytics stores imgsz as [h, w]
    raise ModelError(f"{where}: the input size is dynamic and the metadata has no 'imgsz'")


def class_map(names: Sequence[str], where: object = "model") -> np.ndarray:
    """Our class id for each of a model's classes, matched by name (so a model may order or subset them)."""
    unknown = [n for n in names if n not in CLASS_NAMES]
    if unknown:
        raise ModelError(f"{where}: classes {unknown[:5]} are not tile classes ({', '.join(CLASS_NAMES[:3])} ...)")
    return np.array([CLASS_NAMES.index(n) for n in names], dtype=np.int64)


# --- slices: slices and the whole frame ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slice:
    """A region of the frame that the network reads on its own: pixels ``[y0:y1, x0:x1]``."""

    x0: int
    y0: int
    x1: int
    y1: int
    #: The pyramid level's scale (network pixels per frame pixel, at most); 0 for the whole-frame pass.
    level: float

    @property
    def size(self) -> Size:
        return Size(height=self.y1 - self.y0, width=self.x1 - self.x0)


def _starts(length: int, side: int, overlap: float) -> list[int]:
    if side >= length:
        return [0]
    stride = side * (1 - overlap)
    n = math.ceil((length - side) / stride) + 1
    return [round(i * (length - side) / (n - 1)) for i in range(n)]


#: Default slice sides in frame pixels. The detector learnt tiles spanning about 3-12.5 % of its input's side
#: (rendered tiles 20-80 px in 640 frames; see the model card), so a slice of side ``W`` reads tiles of about
#: ``0.03 W`` to ``0.125 W``: 640 px slices read tiles of 20-80 px (a 12 MP overhead frame shows 50-90 px),
#: 1600 px slices 50-200 px, and the whole frame the biggest (a close-up phone photo).
SLICE_SIDES = (640, 1600)

#: Slices smaller than the network's input, scaled UP to it, can read the smallest tiles of a small frame (400 px
#: slices: tiles of 12-50 px, which a 416 input sees at 8-33 px when it reads a 640 frame whole); used only for
#: frames whose long side is at most :data:`SMALL_FRAME` (elsewhere they would cost hundreds of slices). Off by
#: default: on real photos they box more false tiles than they find.
SMALL_SLICE_SIDES: tuple[int, ...] = ()
SMALL_FRAME = 1280


def plan_slices(
    frame: Size,
    net: Size,
    scales: Sequence[float] | None = None,
    overlap: float = 0.25,
    slice_sides: Sequence[int] = SLICE_SIDES,
    small_slice_sides: Sequence[int] = SMALL_SLICE_SIDES,
) -> list[Slice]:
    """The slices of a frame: overlapping slices at each level of a pyramid, then the whole frame.

    Levels are square slices of ``slice_sides`` frame pixels (the network's aspect when it is not square; with
    ``small_slice_sides`` too for frames of long side up to :data:`SMALL_FRAME`), or, when
    ``scales`` is given, slices that the network sees at each of those scales (network pixels per frame pixel).
    A level is skipped when its slice would cover the whole frame anyway (the whole-frame pass does that).

    >>> slices = plan_slices(Size(height=480, width=1000), Size(height=320, width=320), scales=(1.0,))
    >>> [(v.x0, v.y0, v.x1, v.y1) for v in slices]
    [(0, 0, 320, 320), (227, 0, 547, 320), (453, 0, 773, 320), (680, 0, 1000, 320), (0, 160, 320, 480), \
(227, 160, 547, 480), (453, 160, 773, 480), (680, 160, 1000, 480), (0, 0, 1000, 480)]
    >>> slices = plan_slices(Size(height=600, width=1500), Size(height=416, width=416))
    >>> [(v.size.width, round(v.level, 2)) for v in slices]
    [(640, 0.65), (640, 0.65), (640, 0.65), (1500, 0.0)]
    """
    if scales is None:
        side = max(net.height, net.width)
        sides = [*slice_sides, *(small_slice_sides if max(frame.height, frame.width) <= SMALL_FRAME else ())]
        scales = sorted((side / w for w in sides), reverse=True)
    slices = []
    for scale in scales:
        wh, ww = round(net.height / scale), round(net.width / scale)
        if wh >= frame.height and ww >= frame.width:
            continue
        for y in _starts(frame.height, wh, overlap):
            for x in _starts(frame.width, ww, overlap):
                slices.append(Slice(x, y, min(x + ww, frame.width), min(y + wh, frame.height), scale))
    slices.append(Slice(0, 0, frame.width, frame.height, 0.0))
    return slices


@dataclass(frozen=True, slots=True)
class Candidates:
    """What one slice found, in frame pixels, and which boxes touch a slice border inside the frame (cut tiles)."""

    raw: Raw
    cut: np.ndarray

    def refined(self, conf: float, iou: float) -> Candidates:
        """Only boxes of at least ``conf``, suppressed again per class at ``iou``."""
        keep = np.flatnonzero(self.raw.scores >= conf)
        sub = self.raw.take(keep)
        kept = keep[nms(sub, iou)]
        return Candidates(self.raw.take(kept), self.cut[kept])


#: The floor of :attr:`DetectorOptions.weak_conf`: another set's tile the network half knows scores just under the
#: shipped detector's own threshold (0.25).
WEAK_CONF = 0.15


@dataclass(frozen=True, slots=True)
class DetectorOptions:
    """How a :class:`SlicedDetector` reads a frame."""

    #: Lowest confidence kept.
    conf: float = 0.25
    #: A floor under ``conf`` (None: none): boxes scoring from it up to ``conf`` that overlap no tile found are kept
    #: aside as weak boxes (:meth:`SlicedDetector.detect_with_weak`) for a crop classifier to judge
    #: (:attr:`vision.read.classifier.TwoStageDetector.weak_tile_prob`). What :meth:`SlicedDetector.detect` returns is
    #: what it returns without the floor.
    weak_conf: float | None = WEAK_CONF
    #: IoU above which a box suppresses a weaker box of the same class within one slice.
    iou: float = 0.5
    #: IoU above which boxes of any class from any slices are the same tile (the weaker one goes).
    merge_iou: float = 0.55
    #: Pyramid levels as slice sides in frame pixels (see :data:`SLICE_SIDES`); the whole frame is always read.
    slice_sides: tuple[int, ...] = SLICE_SIDES
    #: Slices read only in small frames, scaled up to the input (see :data:`SMALL_SLICE_SIDES`).
    small_slice_sides: tuple[int, ...] = SMALL_SLICE_SIDES
    #: Or as network pixels per frame pixel for the slices of each level (overrides ``slice_sides``; ``()``: the whole
    #: frame only).
    scales: tuple[float, ...] | None = None
    #: Fraction by which neighbouring slices overlap.
    overlap: float = 0.25
    #: In a slice, boxes longer than this share of the network input's shorter side are dropped: a tile that big
    #: is read whole by a coarser slice, and a network shown a tile far larger than it learnt may box parts of it.
    max_slice_tile: float = 0.35
    #: A box lying this much inside (intersection over its own area) a box at least :attr:`inner_area` times its
    #: area is a part of that tile (a face's glyph, a pip), not a tile of its own.
    inside: float = 0.85
    inner_area: float = 4.0
    #: Of two boxes of any classes where the smaller lies this much inside the other, only the more confident is a
    #: tile (a network unsure of a tile may box half of it as another class).
    contained: float = 0.8
    #: A box this much covered (share of its area) by more confident boxes together shows no tile of its own: it
    #: straddles neighbours already found (a box across the gap between two tiles of a row).
    covered: float = 0.85
    #: Keep every class scoring above ``conf`` at an anchor, not only its best (for AP, as ultralytics validates).
    multi_label: bool = False
    #: Most candidates per slice before NMS.
    max_candidates: int = 3000
    #: Most detections per frame (the most confident).
    max_detections: int = 300


class SlicedDetector:
    """Reads a frame as a pyramid of slices through a :class:`Network` and merges what each slice found.

    A 12 MP overhead frame shows a tile at 50-90 px, far too small once the whole frame is shrunk to a 416 or 640 input,
    while a close-up phone photo shows tiles bigger than any slice. So the frame is read as a pyramid of slices
    (:func:`plan_slices`): 640 px slices, 1600 px slices, and the whole frame, each scaled to the network's input. All
    slices go through the network in batches (one onnxruntime call per batch when the model's batch axis is dynamic);
    each slice's boxes are decoded and suppressed per class, mapped back to the frame; boxes cut by an inner border
    are dropped where a whole copy exists; slices are merged by suppressing overlaps across slices and classes (one
    physical tile, one detection), and a box that more confident boxes cover together (across the gap between two
    tiles) goes too.
    """

    def __init__(self, network: Network, options: DetectorOptions | None = None) -> None:
        self.network = network
        self.options = options or DetectorOptions()
        self.classes = class_map(network.names, getattr(network, "path", "model"))

    @property
    def input_size(self) -> Size:
        return self.network.input_size

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self._tiles(self.candidates(image))

    @property
    def floor(self) -> float:
        """The lowest confidence a box is decoded at: ``conf``, or ``weak_conf`` under it."""
        weak = self.options.weak_conf
        return self.options.conf if weak is None else min(weak, self.options.conf)

    def detect_with_weak(self, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
        """The tiles found at ``conf``, and the weak boxes beside them (none without ``weak_conf``): scoring from
        ``weak_conf`` to under ``conf``, each on no tile found (:func:`apart_from`). The tiles are
        exactly those found without the floor: greedy suppression lets a box go only for a more confident one,
        and every rule of the merge runs again on the boxes at ``conf``."""
        found = self.candidates(image)
        strong = self._tiles(found)
        if self.floor >= self.options.conf:
            return strong, []
        every = self.merge(found)
        return strong, apart_from([d for d in every if d.conf < self.options.conf], strong)

    def _tiles(self, found: list[Candidates]) -> list[Detection]:
        """The tiles among candidates decoded down to the floor: those scoring ``conf`` and up, merged anew."""
        return self.merge(found, self.options if self.floor < self.options.conf else None)

    def runs_for(self, size: Size) -> int:
        """The network runs a frame of ``size`` takes: its slices (:func:`plan_slices`), in batches."""
        opts = self.options
        slices = plan_slices(size, self.input_size, opts.scales, opts.overlap, opts.slice_sides, opts.small_slice_sides)
        return math.ceil(len(slices) / max(1, self.network.max_batch))

    def candidates(self, image: np.ndarray) -> list[Candidates]:
        """What each slice found (after its own per-class NMS), in frame pixels: the input of :meth:`merge`."""
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected a BGR uint8 image (h, w, 3), got {image.dtype} {image.shape}")
        frame = Size.of(image)
        opts = self.options
        slices = plan_slices(
            frame, self.input_size, opts.scales, opts.overlap, opts.slice_sides, opts.small_slice_sides
        )
        raws = self.run([image[v.y0 : v.y1, v.x0 : v.x1] for v in slices])
        return [self._in_frame(raw, frame_slice, frame) for raw, frame_slice in zip(raws, slices, strict=True)]

    def run(self, crops: Sequence[np.ndarray]) -> list[Raw]:
        """Each crop letterboxed to the network input, in batches; candidates per crop in crop pixels (after NMS)."""
        net = self.input_size
        boxes = [Letterbox.fit(Size.of(c), net) for c in crops]
        out: list[Raw] = []
        step = max(1, self.network.max_batch)
        for start in range(0, len(crops), step):
            chunk = range(start, min(start + step, len(crops)))
            tensor = to_tensor([boxes[i].apply(crops[i]) for i in chunk])
            result = self.network(tensor)
            for j, i in enumerate(chunk):
                raw = decode(result[j], len(self.network.names), self.floor, multi_label=self.options.multi_label)
                if len(raw) > self.options.max_candidates:
                    raw = raw.take(np.argsort(-raw.scores)[: self.options.max_candidates])
                raw = raw.take(nms(raw, self.options.iou))
                out.append(Raw(boxes[i].to_source(raw.boxes), raw.scores, self.classes[raw.classes]))
        return out

    def _in_frame(self, raw: Raw, frame_slice: Slice, frame: Size) -> Candidates:
        """The slice's boxes in frame pixels, and which of them touch a slice border inside the frame (cut tiles)."""
        if frame_slice.level and len(raw):  # too big for a slice: the coarser slices read it
            net = self.input_size
            longest = np.maximum(raw.boxes[:, 2] - raw.boxes[:, 0], raw.boxes[:, 3] - raw.boxes[:, 1])
            raw = raw.take(longest * frame_slice.level <= self.options.max_slice_tile * min(net.height, net.width))
        boxes = raw.boxes + np.array([frame_slice.x0, frame_slice.y0, frame_slice.x0, frame_slice.y0], dtype=np.float64)
        # a tile cut by the border may be boxed a few pixels short of it: within CUT_MARGIN network pixels counts
        margin = CUT_MARGIN / (frame_slice.level or 1.0)
        bounds = (frame_slice.x0, frame_slice.y0, frame_slice.x1, frame_slice.y1)
        cut = cut_by_border(boxes, bounds, frame, margin) if frame_slice.level else np.zeros(len(raw), dtype=bool)
        return Candidates(Raw(boxes, raw.scores, raw.classes), cut)

    def merge(self, found: Sequence[Candidates], options: DetectorOptions | None = None) -> list[Detection]:
        """One detection per tile from every slice's candidates (see the module's docstring), top to bottom.

        With ``options`` (say, a higher ``conf`` and a lower ``iou`` than the candidates were found with), the
        candidates are first cut to that confidence and suppressed again per class.
        """
        opts = options or self.options
        if options is not None:
            found = [c.refined(opts.conf, opts.iou) for c in found]
        pool = Raw.concat([c.raw for c in found])
        cut = np.concatenate([c.cut for c in found]) if found else np.zeros(0, bool)
        if len(pool) == 0:
            return []
        if cut.any() and (~cut).any():  # a cut box inside a whole box: the whole one speaks for that tile
            covered = (ios_matrix(pool.boxes[cut], pool.boxes[~cut]) > 0.5).any(axis=1)
            drop = np.flatnonzero(cut)[covered]
            pool = pool.take(np.setdiff1d(np.arange(len(pool)), drop))
        pool = pool.take(nms(pool, opts.merge_iou, class_aware=False))
        if len(pool) > 1:  # parts of a big tile found as tiles of their own
            areas = (pool.boxes[:, 2] - pool.boxes[:, 0]) * (pool.boxes[:, 3] - pool.boxes[:, 1])
            inside = ios_matrix(pool.boxes, pool.boxes) >= opts.inside
            bigger = areas[None, :] >= opts.inner_area * areas[:, None]
            part = (inside & bigger).any(axis=1)
            pool = pool.take(np.flatnonzero(~part))
        pool = pool.take(_suppress_contained(pool, opts.contained))
        pool = pool.take(_suppress_covered(pool, opts.covered))
        pool = pool.take(np.argsort(-pool.scores, kind="stable")[: opts.max_detections])
        order = np.lexsort((pool.boxes[:, 0], pool.boxes[:, 1]))
        return [
            Detection.of_class(int(pool.classes[i]), Box(*(float(v) for v in pool.boxes[i])), float(pool.scores[i]))
            for i in order
        ]


def cut_by_border(
    boxes: np.ndarray, bounds: tuple[float, float, float, float], frame: Size, margin: float
) -> np.ndarray:
    """Which ``boxes`` ([N, 4] x1 y1 x2 y2, frame pixels), found in the slice ``bounds`` (x1, y1, x2, y2), reach within
    ``margin`` of a border of it that lies inside the frame: tiles the slice cut, boxed short.

    >>> cut_by_border(np.array([[1060.0, 998, 1103, 1060], [1000, 998, 1060, 1060]]), (463, 440, 1103, 1080),
    ...               Size(height=1520, width=2028), 6.0).tolist()
    [True, False]
    """
    x0, y0, x1, y1 = bounds
    cut = np.zeros(len(boxes), dtype=bool)
    if x0 > 0:
        cut |= boxes[:, 0] <= x0 + margin
    if y0 > 0:
        cut |= boxes[:, 1] <= y0 + margin
    if x1 < frame.width:
        cut |= boxes[:, 2] >= x1 - margin
    if y1 < frame.height:
        cut |= boxes[:, 3] >= y1 - margin
    return cut


def apart_from(found: Sequence[Detection], others: Sequence[Detection]) -> list[Detection]:
    """The detections of ``found`` on no tile of ``others``: none of ``others``' boxes overlaps theirs at IoU 0.3 or
    holds half of it."""
    if not found or not others:
        return list(found)
    a = np.array([(d.box.x1, d.box.y1, d.box.x2, d.box.y2) for d in found], np.float64)
    b = np.array([(o.box.x1, o.box.y1, o.box.x2, o.box.y2) for o in others], np.float64)
    same_tile = ((iou_matrix(a, b) > 0.3) | (share_inside_matrix(a, b) >= 0.5)).any(axis=1)
    return [d for d, same in zip(found, same_tile, strict=True) if not same]


def _suppress_contained(raw: Raw, threshold: float) -> np.ndarray:
    """Indices kept by greedy suppression, best score first, of boxes lying ``threshold`` inside a kept box."""
    order = np.argsort(-raw.scores, kind="stable")
    ios = ios_matrix(raw.boxes[order], raw.boxes[order])
    dropped = np.zeros(len(order), bool)
    for i in range(len(order)):
        if not dropped[i]:
            dropped[i + 1 :] |= ios[i, i + 1 :] >= threshold
    return np.sort(order[~dropped])


def _suppress_covered(raw: Raw, threshold: float) -> np.ndarray:
    """Indices kept, best score first, of boxes not covered ``threshold`` of their area by the boxes kept before
    them together."""
    order = np.argsort(-raw.scores, kind="stable")
    boxes = raw.boxes[order].astype(np.float64)
    # the union of the kept boxes inside a box is at most the sum of their intersections with it: a box whose sum
    # stays under the threshold is kept without the exact share (most boxes: a tile overlaps its neighbours' edges)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    overlap = intersection_matrix(boxes, boxes)
    kept: list[int] = []
    for i, box in enumerate(boxes):
        if not kept or overlap[i, kept].sum() < threshold * areas[i] or _covered_share(box, boxes[kept]) < threshold:
            kept.append(i)
    return np.sort(order[kept])


def _covered_share(box: np.ndarray, others: np.ndarray) -> float:
    """The share of ``box``'s area (x1, y1, x2, y2) inside the union of ``others`` ([K, 4]): exact, on the grid the
    boxes' edges cut it into."""
    x1, y1, x2, y2 = box
    area = (x2 - x1) * (y2 - y1)
    clipped = np.clip(others, [x1, y1, x1, y1], [x2, y2, x2, y2])
    clipped = clipped[(clipped[:, 2] > clipped[:, 0]) & (clipped[:, 3] > clipped[:, 1])]
    if area <= 0 or len(clipped) == 0:
        return 0.0
    xs, ys = np.unique(clipped[:, [0, 2]]), np.unique(clipped[:, [1, 3]])
    cx, cy = (xs[:-1] + xs[1:]) / 2, (ys[:-1] + ys[1:]) / 2  # cell centres
    inside = (
        (cx[None, None, :] > clipped[:, 0, None, None])
        & (cx[None, None, :] < clipped[:, 2, None, None])
        & (cy[None, :, None] > clipped[:, 1, None, None])
        & (cy[None, :, None] < clipped[:, 3, None, None])
    ).any(axis=0)
    return float((np.diff(ys)[:, None] * np.diff(xs)[None, :])[inside].sum() / area)
