"""The second stage of tile reading: each detected box cropped from the full frame and classified on its own.

A YOLO detector learns where tiles are long before it learns which of 38 classes each one is. So the detector's
boxes are cut out of the ORIGINAL frame (a 12 MP photo gives a sharp crop even when the detector read a shrunk or
sliced view), turned upright by the box's aspect (a box wider than tall is a sideways tile: it is turned a quarter
clockwise, so it comes out upright or upside down, and the classifier learnt both), resized to the classifier's
fixed input (:data:`CROP_SIZE`, height 64 by width 48), and read by a small CNN on onnxruntime
(:class:`OnnxTileClassifier`, ``models/tile_classifier.onnx``). Its class names are in the model's metadata.

:class:`TwoStageDetector` wraps any :class:`~vision.read.detector.Detector` (same protocol): the detector's boxes, the
classifier's tiles. A tile read as a five then has its red flag checked by the colour of its ink
(:mod:`vision.read.red_fives`; no real red five was ever labelled, so the networks learnt red from renders alone): where
the check is sure, it decides red or plain; :class:`RedFiveChecked` does the same behind a detector used alone.
:func:`classifier_for` says which classifier (if any) goes with a detector model: the shipped one
with the shipped detector, or ``$JANTAKU_CLASSIFIER``; :func:`with_classifier` puts it behind the detector.

Crop extraction is pure numpy/OpenCV: nothing here draws, and nothing here imports torch.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np

from vision.read.budget import RunBudget
from vision.read.detector import (
    Detection,
    Detector,
    DetectorLayer,
    Orientation,
    SlicedDetector,
    open_session,
    parse_names,
)
from vision.read.errors import ModelError
from vision.read.geometry import Box, Size
from vision.read.labels import CLASS_NAMES, tile_of_class
from vision.read.postprocess import Raw, nms
from vision.read.red_fives import DEFAULT_OPTIONS, RedFiveCheck, RedFiveOptions, Verdict, check_red_five, is_five
from vision.read.zones import shifted, whole_over_cut

#: The classifier's input: (height, width) of an upright tile crop.
CROP_SIZE = Size(height=64, width=48)

#: Share of the box's width (height) added on each side before cropping: the tile's edge stays in the crop when the
#: detector's box is a little tight.
CROP_MARGIN = 0.08

#: Where the shipped classifier lies in a checkout; ``$JANTAKU_CLASSIFIER`` overrides (``none`` turns it off).
SHIPPED_CLASSIFIER = Path(__file__).resolve().parents[2] / "models" / "tile_classifier.onnx"
#: The shipped classifier of phone photos, where one is shipped: trained on with other physical sets' photos, it
#: names their tiles better, and the camera's table (standing hands' tops, walls) worse, so the camera keeps its own.
SHIPPED_PHOTO_CLASSIFIER = SHIPPED_CLASSIFIER.with_name("tile_classifier_photo.onnx")

#: The name of the classifier's optional extra class: the crop shows no tile (a detector's false box: half a tile,
#: two halves, a glyph, a prop). A box the classifier reads as this is dropped by :class:`TwoStageDetector`.
NOT_A_TILE = "none"

#: A box whose likeliest tile the classifier gives less than this is no tile we know, and is dropped: the flowers
#: and seasons of Chinese sets, clutter. Real tiles read well above it; a higher bar drops sure tiles too.
MIN_TILE_PROB = 0.2

#: The ``kind`` the classifier's metadata must carry (so a detector file is not loaded as a classifier).
MODEL_KIND = "tile-classifier"


def is_sideways(box: Box) -> bool:
    """Whether a box shows a tile lying sideways (wider than tall): a called tile, a riichi tile.

    >>> is_sideways(Box(0.0, 0.0, 50.0, 30.0)), is_sideways(Box(0.0, 0.0, 30.0, 50.0))
    (True, False)
    """
    return box.width > box.height


def _check_image(image: np.ndarray) -> None:
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 image (h, w, 3), got {image.dtype} {image.shape}")


def extract_crop(
    image: np.ndarray, box: Box, size: Size = CROP_SIZE, margin: float = CROP_MARGIN, *, turn: bool = True
) -> np.ndarray:
    """The box cut out of a BGR frame, widened by ``margin``, turned upright, resized to ``size`` (height, width).

    Parts of the widened box outside the frame repeat the frame's edge pixels. A sideways box (wider than tall) is
    turned a quarter clockwise when ``turn`` is set, so the crop's long side is vertical as in ``size``.
    Shrinking averages pixels (``INTER_AREA``); enlarging interpolates linearly.

    >>> frame = np.zeros((30, 80, 3), np.uint8); frame[:, 40:] = 255      # left half black, right half white
    >>> crop = extract_crop(frame, Box(20.0, 5.0, 60.0, 25.0), Size(height=8, width=4), margin=0.0)
    >>> crop.shape, int(crop[0, :, 0].mean()), int(crop[-1, :, 0].mean())   # turned: left half is now on top
    ((8, 4, 3), 0, 255)
    >>> extract_crop(np.zeros((120, 200, 3), np.uint8), Box(10.0, 20.0, 40.0, 60.0)).shape   # CROP_SIZE by default
    (64, 48, 3)
    """
    _check_image(image)
    if not (box.width > 0 and box.height > 0):
        raise ValueError(f"an empty box cannot be cropped: {box}")
    h, w = image.shape[:2]
    dx, dy = box.width * margin, box.height * margin
    x1, y1 = math.floor(box.x1 - dx), math.floor(box.y1 - dy)
    x2, y2 = math.ceil(box.x2 + dx), math.ceil(box.y2 + dy)
    x2, y2 = max(x2, x1 + 1), max(y2, y1 + 1)
    cx1, cy1, cx2, cy2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    if cx1 >= cx2 or cy1 >= cy2:
        raise ValueError(f"box {box.as_list()} lies outside the {w}x{h} (w x h) frame")
    crop = image[cy1:cy2, cx1:cx2]
    pads = (cy1 - y1, y2 - cy2, cx1 - x1, x2 - cx2)
    if any(pads):
        crop = cv2.copyMakeBorder(crop, *pads, borderType=cv2.BORDER_REPLICATE)
    if turn and is_sideways(box):
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    ch, cw = crop.shape[:2]
    shrink = ch >= size.height and cw >= size.width
    crop = cv2.resize(crop, (size.width, size.height), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return np.ascontiguousarray(crop)


#: The longest side of the crop the red-five check reads: the box at its own resolution up to this (colours need
#: no more, and a 12 MP photo's tile is not worth resizing in full).
RED_CHECK_SIDE = 96


def native_crop(image: np.ndarray, box: Box, margin: float = CROP_MARGIN, longest: int = RED_CHECK_SIDE) -> np.ndarray:
    """The box cut out and turned upright as :func:`extract_crop` does, at the box's own resolution (its long side
    no more than ``longest``): a small tile stays small, so the colour check can tell it is too small to judge.

    >>> native_crop(np.zeros((300, 400, 3), np.uint8), Box(10.0, 20.0, 60.0, 40.0), margin=0.0).shape  # sideways
    (50, 20, 3)
    """
    if not (box.width > 0 and box.height > 0):
        raise ValueError(f"an empty box cannot be cropped: {box}")
    grow = 1 + 2 * margin
    long_side, short_side = max(box.width, box.height) * grow, min(box.width, box.height) * grow
    scale = min(1.0, longest / long_side)
    size = Size(height=max(1, round(long_side * scale)), width=max(1, round(short_side * scale)))
    return extract_crop(image, box, size, margin)


def check_red_fives(
    image: np.ndarray,
    found: Sequence[Detection],
    margin: float = CROP_MARGIN,
    options: RedFiveOptions = DEFAULT_OPTIONS,
) -> tuple[list[Detection], list[RedFiveCheck | None]]:
    """``found`` with each five's red flag as the colour check decides where it is sure (else as read), and the
    check of each detection (None for a tile that is no five)."""
    _check_image(image)
    out: list[Detection] = []
    checks: list[RedFiveCheck | None] = []
    for det in found:
        if not is_five(det.tile):
            out.append(det)
            checks.append(None)
            continue
        try:
            crop = native_crop(image, det.box, margin)
        except ValueError as exc:  # an empty box or one off the frame (a detector alone may give one): keep the read
            check = RedFiveCheck(Verdict.UNSURE, None, None, 0, f"no crop to judge: {exc}")
        else:
            check = check_red_five(crop, det.tile, options)
        out.append(replace(det, tile=check.tile(det.tile)))
        checks.append(check)
    return out, checks


def to_input(crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """BGR ``uint8`` crops (N, h, w, 3) as the network's input: float32 RGB 0..1, shape (N, 3, h, w).

    >>> to_input(np.full((2, 4, 3, 3), 255, np.uint8)).shape
    (2, 3, 4, 3)
    """
    batch = np.asarray(crops)
    if batch.ndim != 4 or batch.shape[3] != 3 or batch.dtype != np.uint8:
        raise ValueError(f"expected BGR uint8 crops (n, h, w, 3), got {batch.dtype} {batch.shape}")
    return np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255.0)


#: What each of :func:`crop_views` is, in its order.
VIEW_NAMES = ("as cut", "half turn", "down right", "up left")


def crop_views(batch: np.ndarray) -> list[np.ndarray]:
    """The views of crops (N, h, w, 3) the classifier reads and averages: each crop as cut, turned a half turn (a
    tile reads the same upside down, and both ways were learnt), and shifted by 1/24 of its width down and right,
    then up and left (the edges repeated): a detector's box is never exact, and a read that holds under those small
    moves is the one to trust.

    >>> batch = np.zeros((1, 8, 6, 3), np.uint8); batch[0, 2, 1] = 255     # one bright pixel at row 2, column 1
    >>> [tuple(int(i) for i in np.argwhere(view[0, :, :, 0])[0]) for view in crop_views(batch)]
    [(2, 1), (5, 4), (3, 2), (1, 0)]
    """
    return [crop_view(batch, v) for v in range(len(VIEW_NAMES))]


def crop_view(batch: np.ndarray, view: int) -> np.ndarray:
    """View number ``view`` of :func:`crop_views` alone (a reading of some views makes only those)."""
    if view == 0:
        return batch
    if view == 1:
        return np.ascontiguousarray(batch[:, ::-1, ::-1])
    h, w = batch.shape[1:3]
    step = max(1, round(w / 24))
    if view == 2:  # the crop moved down and right: its top and left edges repeated
        padded = np.pad(batch, ((0, 0), (step, 0), (step, 0), (0, 0)), mode="edge")
        return np.ascontiguousarray(padded[:, :h, :w])
    if view == 3:  # up and left
        padded = np.pad(batch, ((0, 0), (0, step), (0, step), (0, 0)), mode="edge")
        return np.ascontiguousarray(padded[:, step : step + h, step : step + w])
    raise ValueError(f"no crop view {view}: views are 0-{len(VIEW_NAMES) - 1} ({', '.join(VIEW_NAMES)})")


def views_mean(probs: np.ndarray, none: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Crops read in several views (``probs``: V, N, 38) as one reading each: which tile, the views' mean; whether
    a tile at all, ``none`` (N,), the crop's as cut (a half tile at a frame's edge, shifted, looks more like a whole
    one: averaging "no tile" kept two of them on the real frames). Rows sum to 1 less ``none``.

    >>> probs, none = views_mean(np.array([[[0.8, 0.0]], [[0.2, 0.4]]]), np.array([0.4]))
    >>> probs.round(3).tolist(), none.tolist()
    ([[0.429, 0.171]], [0.4])
    """
    tiles = probs.sum(axis=0)
    which = tiles / np.maximum(tiles.sum(axis=1, keepdims=True), 1e-12)
    return which * (1.0 - none)[:, None], none


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax.

    >>> softmax(np.array([[0.0, 0.0], [0.0, 100.0]])).round(3).tolist()
    [[0.5, 0.5], [0.0, 1.0]]
    """
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True, slots=True)
class TileGuess:
    """What the classifier makes of one crop: the likeliest tile class, its probability, the runner-up, and the
    probability that the crop shows no tile at all (0 for a model without a :data:`NOT_A_TILE` class)."""

    class_id: int
    prob: float
    second_id: int
    second_prob: float
    none_prob: float = 0.0

    @property
    def label(self) -> str:
        return CLASS_NAMES[self.class_id]

    @property
    def is_tile(self) -> bool:
        """Whether some tile class is likelier than "no tile"."""
        return self.prob >= self.none_prob

    def names_a_tile(self, at_least: float) -> bool:
        """Whether it names its tile with ``at_least`` this probability, and likelier than "no tile"."""
        return self.is_tile and self.prob >= at_least

    @classmethod
    def of_probs(cls, probs: np.ndarray, none_prob: float = 0.0) -> TileGuess:
        order = np.argsort(-probs, kind="stable")
        return cls(int(order[0]), float(probs[order[0]]), int(order[1]), float(probs[order[1]]), float(none_prob))


class OnnxCropModel:
    """A network on onnxruntime that reads tile crops (:func:`extract_crop`): ``[batch, 3, h, w]`` RGB 0..1 in,
    logits out. The metadata carries ``kind`` (the subclass's :attr:`kind`) and ``crop_margin``; the input's height
    and width are fixed in the graph, its batch may be too (shorter batches are then padded)."""

    #: The metadata ``kind`` the model must carry, and what the model is called in errors.
    kind = ""
    what = "crop model"

    def __init__(self, path: str | os.PathLike[str], *, threads: int | None = 1, max_batch: int = 64) -> None:
        self.path = Path(path)
        self.session, self.load_seconds = open_session(self.path, threads, f"no {self.what} at {self.path}")
        meta = dict(self.session.get_modelmeta().custom_metadata_map)
        self.metadata = meta
        if meta.get("kind") != self.kind:
            raise ModelError(f"{self.path}: not a {self.what} (metadata kind {meta.get('kind')!r})")
        inputs = self.session.get_inputs()
        shape = inputs[0].shape
        if len(inputs) != 1 or len(shape) != 4 or not all(isinstance(v, int) for v in shape[2:]):
            raise ModelError(f"{self.path}: expected one input [batch, 3, h, w] with a fixed h and w, got {shape}")
        self.input_name = inputs[0].name
        self.input_size = Size(height=shape[2], width=shape[3])
        self.margin = float(meta.get("crop_margin", CROP_MARGIN))
        batch_dim = shape[0]
        self.max_batch = batch_dim if isinstance(batch_dim, int) else max_batch
        self._fixed = isinstance(batch_dim, int)
        #: onnxruntime runs made so far (one per chunk of ``max_batch`` crops).
        self.runs = 0

    def checked(self, crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """``crops`` as one array, refused unless they are (N, h, w, 3) of the model's input size."""
        batch = np.asarray(crops)
        if batch.ndim != 4 or batch.shape[1:3] != (self.input_size.height, self.input_size.width):
            size = f"{self.input_size.height}x{self.input_size.width}"
            raise ValueError(f"crops must be {size} (h x w), got {batch.shape}")
        return batch

    def _chunk(self, max_batch: int | None) -> int:
        """The inputs one run reads, asked for ``max_batch`` (a model with a fixed batch always reads its own)."""
        return self.max_batch if self._fixed or max_batch is None else max_batch

    def runs_for(self, crops: int, max_batch: int | None = None) -> int:
        """The runs :meth:`logits` takes to read ``crops`` model inputs in chunks of ``max_batch``."""
        return math.ceil(crops / max(self._chunk(max_batch), 1))

    def logits(self, batch: np.ndarray, outputs: int, max_batch: int | None = None) -> np.ndarray:
        """The network's logits (N, ``outputs``) for a batch of model input (:func:`to_input`), read in chunks of
        ``max_batch`` (None: the model's own :attr:`max_batch`; a model with a fixed batch always reads its own)."""
        step = self._chunk(max_batch)
        if step < 1:
            raise ValueError(f"max_batch must be at least 1, not {step}")
        out = []
        for start in range(0, len(batch), step):
            chunk = batch[start : start + step]
            n = len(chunk)
            if self._fixed and n < step:
                chunk = np.concatenate([chunk, np.zeros((step - n, *chunk.shape[1:]), chunk.dtype)])
            self.runs += 1
            out.append(self.session.run(None, {self.input_name: chunk})[0][:n])
        return np.concatenate(out) if out else np.zeros((0, outputs), np.float32)

    def crops(self, image: np.ndarray, boxes: Sequence[Box]) -> np.ndarray:
        """The model's crops of ``boxes`` in a frame: (N, h, w, 3) BGR uint8."""
        if not boxes:
            return np.zeros((0, self.input_size.height, self.input_size.width, 3), np.uint8)
        return np.stack([extract_crop(image, b, self.input_size, self.margin) for b in boxes])


class OnnxTileClassifier(OnnxCropModel):
    """A tile crop classifier on onnxruntime: ``[batch, 3, h, w]`` RGB 0..1 in, ``[batch, classes]`` logits out.

    The metadata carries ``kind`` (:data:`MODEL_KIND`), ``names`` (class names in output order, mapped to ours by
    name; :data:`NOT_A_TILE` may be one of them), and ``crop_margin``; the input's height and width are fixed in the
    graph. With ``views`` (the default), each crop is read in the views of :func:`crop_views`: which tile it shows
    is their mean, whether it shows one is the crop's as cut. Four times the network's work, for a tile named right
    more often; ``views=False`` reads each crop once, as trained.
    """

    kind = MODEL_KIND
    what = "tile classifier"

    def __init__(
        self, path: str | os.PathLike[str], *, threads: int | None = 1, max_batch: int = 64, views: bool = True
    ) -> None:
        super().__init__(path, threads=threads, max_batch=max_batch)
        self.views = views
        self.names = parse_names(self.metadata.get("names"), self.path)
        unknown = [n for n in self.names if n not in CLASS_NAMES and n != NOT_A_TILE]
        if unknown:
            raise ModelError(f"{self.path}: classes {unknown[:5]} are not tile classes")
        #: Column of each of our classes in the output, or -1 where the model lacks it.
        self._columns = np.array([self.names.index(n) if n in self.names else -1 for n in CLASS_NAMES])
        #: Column of "no tile", or None.
        self._none = self.names.index(NOT_A_TILE) if NOT_A_TILE in self.names else None

    @property
    def view_names(self) -> tuple[str, ...]:
        """The views of each crop this classifier reads (:data:`VIEW_NAMES`, or the crop as cut alone)."""
        return VIEW_NAMES if self.views else VIEW_NAMES[:1]

    def probabilities(self, crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """Probabilities (N, 38) in our class order for upright BGR crops of the model's input size (with a
        :data:`NOT_A_TILE` class, each row sums to 1 minus that class's probability: see :meth:`all_probabilities`)."""
        return self.all_probabilities(crops)[0]

    def all_probabilities(
        self, crops: Sequence[np.ndarray] | np.ndarray, views: bool | None = None, *, max_batch: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(probabilities (N, 38) in our class order, probability (N,) of "no tile"). Read in views (``views``, or
        the classifier's own choice for None), the share of each tile class is the views' mean, and "no tile" is
        the crop's as cut (rows still sum to 1: :func:`views_mean`). ``max_batch``: most crops a run reads (see
        :meth:`logits`)."""
        batch = self.checked(crops)
        if not (self.views if views is None else views) or not len(batch):
            return self._read(to_input(batch), max_batch)
        probs, nones = self.view_probabilities(batch, range(len(VIEW_NAMES)), max_batch)
        return views_mean(probs, nones[0])

    def view_probabilities(
        self, crops: Sequence[np.ndarray] | np.ndarray, which: Sequence[int], max_batch: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each crop read in the views of :func:`crop_views` numbered ``which``, all in one batch (in runs of
        ``max_batch``): probabilities (V, N, 38) in our class order and of "no tile" (V, N), view by view."""
        batch = self.checked(crops)
        probs, nones = self._read(to_input(np.concatenate([crop_view(batch, v) for v in which])), max_batch)
        return probs.reshape(len(which), len(batch), -1), nones.reshape(len(which), len(batch))

    def _read(self, batch: np.ndarray, max_batch: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        logits = self.logits(batch, len(self.names), max_batch)
        probs = softmax(logits.astype(np.float64))
        ours = np.zeros((len(probs), len(CLASS_NAMES)))
        have = self._columns >= 0
        ours[:, have] = probs[:, self._columns[have]]
        none = probs[:, self._none] if self._none is not None else np.zeros(len(probs))
        return ours, none

    def classify(
        self, image: np.ndarray, boxes: Sequence[Box], views: bool | None = None, *, max_batch: int | None = None
    ) -> list[TileGuess]:
        """One guess per box of a frame (read in views, and in runs of ``max_batch``, as :meth:`all_probabilities`
        says)."""
        if not boxes:
            return []
        probs, none = self.all_probabilities(self.crops(image, boxes), views, max_batch=max_batch)
        return [TileGuess.of_probs(p, n) for p, n in zip(probs, none, strict=True)]


#: :attr:`TwoStageDetector.weak_tile_prob`: a weak box the classifier names this surely is kept as that tile; tiles
#: it knows read well above it, flowers (which riichi does not use) well below.
WEAK_TILE_PROB = 0.6
#: A weak box is first read once, as cut, and read in all the views only where that reading names a tile with this
#: probability: most weak boxes (face-down tiles of a wall, the mat) are no tile, and four views cost four reads.
WEAK_SCREEN_PROB = 0.3

#: The views (numbers into :func:`crop_views`) a reader on a budget reads every crop in first: as cut and a half
#: turn (tiles lying turned are what the views change most; the shifts change least).
FIRST_VIEWS = (0, 1)
#: :attr:`TwoStageDetector.views_below` of the camera's reader: a crop whose :data:`FIRST_VIEWS` name its tile at
#: least this surely reads the same in all four views. Measured on 8,323 crops of the real sets
#: (docs/experiments/2026-12-04-reading-budget.md): the surest crop that the shifts changed was named at 0.74 in the
#: first two views; as cut alone, crops named at 0.94 were changed.
SURE_IN_TWO_VIEWS = 0.85


@dataclass
class TwoStageDetector(DetectorLayer):
    """A :class:`~vision.read.detector.Detector`: the inner detector's boxes, each tile read by the crop classifier.

    The confidence stays the detector's (it says there is a tile there); the tile is the classifier's. A box the
    classifier reads as no tile (:data:`NOT_A_TILE`, for a model that has that class), or names no tile with
    ``min_tile_prob`` (:data:`MIN_TILE_PROB`), is dropped unless ``drop_non_tiles`` is off. With
    ``keep_detector_above`` set, a detection the detector is at least that sure of keeps its own class (and is
    never dropped). Boxes named the same tile that overlap at ``duplicate_iou`` are one tile
    (:func:`one_box_per_tile`). With ``red_check`` (the default), a five's red flag follows the colour check
    (:func:`check_red_fives`) where it is sure. The weak boxes an inner detector keeps aside (just under its
    confidence) are tiles too where the classifier names them surely (:attr:`weak_tile_prob`).
    """

    own_attributes: ClassVar[frozenset[str]] = frozenset({"detector", "classifier"})

    detector: Detector
    classifier: OnnxTileClassifier
    keep_detector_above: float | None = None
    drop_non_tiles: bool = True
    min_tile_prob: float = MIN_TILE_PROB
    red_check: RedFiveOptions | None = DEFAULT_OPTIONS
    #: Two boxes the classifier names the same tile that overlap at least this much (IoU) are one tile: the
    #: weaker goes (None: keep both). The detector's own suppression is across classes at a higher IoU, so a
    #: weak box straddling two tiles, named after one of them, would otherwise read that tile twice.
    duplicate_iou: float | None = 0.3
    #: With an inner detector that keeps weak boxes aside (``detect_with_weak``: :class:`~vision.read.detector.
    #: SlicedDetector`, :class:`~vision.read.scale.PhotoDetector`): a weak box stands when the classifier names its tile
    #: with at least this probability (None: weak boxes are not asked for). Another set's tile the detector half
    #: knows (a White dragon framing a maker's mark) scores just under the detector's confidence, and the
    #: classifier names it surely (:data:`WEAK_TILE_PROB`).
    weak_tile_prob: float | None = WEAK_TILE_PROB
    #: With a classifier that reads crops in views: every crop is first read in :data:`FIRST_VIEWS` (the found boxes
    #: and the weak ones together, one batch), and in its other views only where those name its tile with less than
    #: this probability (and it shows a tile at all), or it is a weak box that passes the screen as cut
    #: (:data:`WEAK_SCREEN_PROB`): two classifier batches a frame, the second only as large as the unsure crops.
    #: None: every found crop is read in all its views at once (:data:`SURE_IN_TWO_VIEWS` for the camera's reader).
    views_below: float | None = None
    #: Most crops one classifier run reads (None: the classifier's own ``max_batch``).
    batch: int | None = None
    #: The read's model runs (:class:`~vision.read.budget.RunBudget`): the unsure crops are read in their other views
    #: only while that fits (else each is named by its first two); None: always.
    budget: RunBudget | None = None
    #: Milliseconds of the last call spent in the classifier (crops, network and the red-five check).
    last_classifier_ms: float = field(default=0.0, init=False)
    #: The red-five check of each detection of the last call (None for a tile that is no five, or with no check).
    last_red_checks: list[RedFiveCheck | None] = field(default_factory=list, init=False)

    def detect(self, image: np.ndarray) -> list[Detection]:
        # the inner detector's own method, not one a layer hands down from further in (in other coordinates)
        if self.weak_tile_prob is None or not callable(getattr(type(self.detector), "detect_with_weak", None)):
            return self.classify_detections(image, self.detector.detect(image))
        found, weak = self.detector.detect_with_weak(image)
        return self.classify_detections(image, found, weak)

    def detect_in_slices(
        self,
        image: np.ndarray,
        slices: Sequence[tuple[int, int, int, int]],
        whole: Sequence[tuple[int, int, int, int]] = (),
    ) -> list[Detection]:
        """The tiles the inner detector finds in each slice ``(x1, y1, x2, y2)`` of ``image`` (in ``image``'s
        pixels), and in each of the ``whole`` slices read whole (shrunk to the network's input in one run: a
        coarser slice, as a whole read's pyramid has), named in one classifier pass over ``image`` (so a read of
        several slices costs one classifier run, not one a slice, and a crop by a slice's edge keeps the frame
        round it)."""
        with_weak = self.weak_tile_prob is not None and callable(getattr(type(self.detector), "detect_with_weak", None))
        shrunk = _read_whole(self.detector) if whole else self.detector
        found: list[list[Detection]] = []
        weak: list[Detection] = []
        for detector, (x1, y1, x2, y2) in [*((self.detector, w) for w in slices), *((shrunk, w) for w in whole)]:
            crop = image[y1:y2, x1:x2]
            strong, faint = detector.detect_with_weak(crop) if with_weak else (detector.detect(crop), [])
            found.append(shifted(strong, x1, y1))
            weak += shifted(faint, x1, y1)
        read = [Box(float(x1), float(y1), float(x2), float(y2)) for x1, y1, x2, y2 in [*slices, *whole]]
        return self.classify_detections(image, whole_over_cut(found, read, Size.of(image)), weak)

    def classify_detections(
        self, image: np.ndarray, found: Sequence[Detection], weak: Sequence[Detection] = ()
    ) -> list[Detection]:
        """The detections of ``image`` (from any detector) with each tile as the classifier reads it, and those of
        the ``weak`` boxes that it names a tile with :attr:`weak_tile_prob`."""
        started = time.perf_counter()
        if self.weak_tile_prob is None:
            weak = ()
        if self.views_below is not None and self.classifier.views:
            boxes, guesses = self._read_unsure_in_views(image, found, weak)
        else:
            if weak:
                first = self.classifier.classify(image, [d.box for d in weak], views=False, max_batch=self.batch)
                weak = [d for d, g in zip(weak, first, strict=True) if g.names_a_tile(WEAK_SCREEN_PROB)]
            boxes = [*found, *weak]
            guesses = self.classifier.classify(image, [d.box for d in boxes], max_batch=self.batch)
        out = []
        for k, (det, guess) in enumerate(zip(boxes, guesses, strict=True)):
            if k >= len(found):  # a weak box: only a tile the classifier is sure of
                if not guess.names_a_tile(self.weak_tile_prob):
                    continue
            elif self.keep_detector_above is not None and det.conf >= self.keep_detector_above:
                out.append(det)
                continue
            elif self.drop_non_tiles and not guess.names_a_tile(self.min_tile_prob):
                continue
            out.append(replace(det, tile=tile_of_class(guess.class_id), orientation=Orientation.of_box(det.box)))
        if self.duplicate_iou is not None:
            out = one_box_per_tile(out, self.duplicate_iou)
        if self.red_check is not None:
            out, self.last_red_checks = check_red_fives(image, out, self.classifier.margin, self.red_check)
        else:
            self.last_red_checks = [None] * len(out)
        self.last_classifier_ms = (time.perf_counter() - started) * 1000
        return out

    def _read_unsure_in_views(
        self, image: np.ndarray, found: Sequence[Detection], weak: Sequence[Detection]
    ) -> tuple[list[Detection], list[TileGuess]]:
        """The boxes to judge (``found``, then the weak boxes that pass the screen) and the classifier's guess of
        each, read as :attr:`views_below` says."""
        classifier, boxes = self.classifier, [*found, *weak]
        if not boxes:
            return [], []
        crops = classifier.crops(image, [d.box for d in boxes])
        probs, nones = classifier.view_probabilities(crops, FIRST_VIEWS, self.batch)
        first = [TileGuess.of_probs(p, n) for p, n in zip(*views_mean(probs, nones[0]), strict=True)]
        # a crop more likely no tile than not is dropped whatever its other views say ("no tile" is the crop's as
        # cut, and the views' mean leaves a tile no more than the rest); a weak box is screened as cut, as before
        unsure = [g.none_prob <= 0.5 and g.prob < self.views_below for g in first[: len(found)]]
        as_cut = [TileGuess.of_probs(p, n) for p, n in zip(probs[0][len(found) :], nones[0][len(found) :], strict=True)]
        screened = [g.names_a_tile(WEAK_SCREEN_PROB) for g in as_cut]
        again = np.flatnonzero([*unsure, *screened])
        guesses = list(first)
        rest = [v for v in range(len(VIEW_NAMES)) if v not in FIRST_VIEWS]
        if len(again) and self._views_fit(len(again) * len(rest)):
            more, _ = classifier.view_probabilities(crops[again], rest, self.batch)  # "no tile" is the crop's as cut
            every = np.concatenate([probs[:, again], more])
            for k, p, n in zip(again, *views_mean(every, nones[0][again]), strict=True):
                guesses[k] = TileGuess.of_probs(p, n)
        keep = [*range(len(found)), *(len(found) + k for k, ok in enumerate(screened) if ok)]
        return [boxes[k] for k in keep], [guesses[k] for k in keep]

    def _views_fit(self, crops: int) -> bool:
        """Whether the read's budget (none: always) affords the runs of ``crops`` more crop views; the first
        reading's unsure crops come before the readings kept back for views."""
        if self.budget is None:
            return True
        runs = self.classifier.runs_for(crops, self.batch)
        return self.budget.affords(runs, "crop_views", first_reading_part=not self.budget.first_reading_done)


def one_box_per_tile(detections: Sequence[Detection], iou: float) -> list[Detection]:
    """``detections`` less each one that overlaps a more confident detection of the same tile (or face-down)
    at ``iou`` or more; the order is kept.

    >>> from engine.tiles import Tile
    >>> a = Detection(Tile.parse("6s"), Box(0, 0, 50, 75), 0.9, Orientation.UPRIGHT)
    >>> b = Detection(Tile.parse("6s"), Box(18, 0, 63, 75), 0.4, Orientation.UPRIGHT)   # straddles the next tile
    >>> c = Detection(Tile.parse("6s"), Box(52, 0, 102, 75), 0.8, Orientation.UPRIGHT)  # the next tile: a pair
    >>> [d.conf for d in one_box_per_tile([a, b, c], 0.3)]
    [0.9, 0.8]
    """
    if not detections:
        return []
    raw = Raw(
        np.array([(d.box.x1, d.box.y1, d.box.x2, d.box.y2) for d in detections], np.float64),
        np.array([d.conf for d in detections], np.float64),
        np.array([d.class_id for d in detections], np.int64),
    )
    # class-aware NMS on the classifier's classes; nms suppresses above its threshold, this at ``iou`` itself too
    kept = np.sort(nms(raw, float(np.nextafter(iou, 0.0))))
    return [detections[i] for i in kept]


@dataclass
class RedFiveChecked(DetectorLayer):
    """A :class:`~vision.read.detector.Detector` used alone, with its fives' red flags checked by colour as
    :class:`TwoStageDetector` does (:func:`check_red_fives`)."""

    detector: Detector
    red_options: RedFiveOptions = DEFAULT_OPTIONS
    margin: float = CROP_MARGIN
    #: The check of each detection of the last call (None for a tile that is no five).
    last_red_checks: list[RedFiveCheck | None] = field(default_factory=list, init=False)

    def detect(self, image: np.ndarray) -> list[Detection]:
        out, self.last_red_checks = check_red_fives(image, self.detector.detect(image), self.margin, self.red_options)
        return out


def default_classifier_path(for_photos: bool = False) -> Path | None:
    """``$JANTAKU_CLASSIFIER`` if set (``none`` or empty: no classifier), else ``models/tile_classifier.onnx`` (with
    ``for_photos``, :data:`SHIPPED_PHOTO_CLASSIFIER` where it is shipped)."""
    value = os.environ.get("JANTAKU_CLASSIFIER")
    if value is None:
        return SHIPPED_PHOTO_CLASSIFIER if for_photos and SHIPPED_PHOTO_CLASSIFIER.is_file() else SHIPPED_CLASSIFIER
    if value.strip().lower() in {"", "none", "off", "0"}:
        return None
    return Path(value)


def classifier_for(
    model: str | os.PathLike[str] | None, *, views: bool = True, threads: int | None = 1, for_photos: bool = False
) -> OnnxTileClassifier | None:
    """The crop classifier to read with the detector model at ``model`` (None: the default model), or None.

    ``$JANTAKU_CLASSIFIER`` decides when set (a path, or ``none``). Otherwise the shipped classifier joins a detector
    model shipped beside it in ``models/`` (the default one); a detector model from elsewhere (a training run, a
    test's model) is read on its own unless ``$JANTAKU_CLASSIFIER`` asks for the classifier. ``views``: read each
    crop in the views of :func:`crop_views` (or once); ``threads``: onnxruntime's intra-op threads (None: its default).
    """
    explicit = os.environ.get("JANTAKU_CLASSIFIER") is not None
    path = default_classifier_path(for_photos)
    if path is None:
        return None
    if not explicit:
        if model is not None and Path(model).expanduser().resolve().parent != SHIPPED_CLASSIFIER.parent:
            return None
        if not path.is_file():
            return None
    return OnnxTileClassifier(path, views=views, threads=threads)


def with_classifier(
    detector: Detector,
    classifier: OnnxTileClassifier | str | os.PathLike[str] | None,
    *,
    views_below: float | None = None,
    batch: int | None = None,
    budget: RunBudget | None = None,
) -> Detector:
    """``detector`` with ``classifier`` (a model or its path) as its second stage; ``detector`` itself for None.
    ``views_below``, ``batch`` and ``budget``: as :class:`TwoStageDetector` has them."""
    if classifier is None:
        return detector
    if not isinstance(classifier, OnnxTileClassifier):
        classifier = OnnxTileClassifier(classifier)
    return TwoStageDetector(detector, classifier, views_below=views_below, batch=batch, budget=budget)


def _read_whole(detector: Detector) -> Detector:
    """``detector`` reading each image whole in one view (a sliced detector without its slices); another as it is."""
    if isinstance(detector, SlicedDetector):
        return SlicedDetector(detector.network, replace(detector.options, scales=()))
    return detector
