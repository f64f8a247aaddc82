"""Training the tile crop classifier (:mod:`vision.read.classifier`): crop sets, a small CNN in torch, ONNX export.

Crops come from labelled scenes, each labelled box cut out as the runtime cuts a detector's box
(:func:`vision.read.classifier.extract_crop`), after jitter that stands for what differs at run time: the detector's box
a little off (each edge moved by a share of the tile), a small turn, a smaller or blurred tile, white balance,
brightness, contrast, noise and JPEG. Sources:

- rendered scenes (:func:`vision.synth.render`, their exact labels) or folders of them written by ``jantaku-lab synth``;
- the real photos' TRAINING split (:func:`vision.eval.real_photos.training_split`), several jittered crops per box.
  The held-out split is never read here except by :func:`crops_real_held_out`, for evaluation only;
- single-tile cards (:func:`crops_cards`, :mod:`vision.synth.cards`): faces of other sets drawn without the
  scene renderer, and ``none`` boxes (standing-hand tops among them).

Crop sets are ``.npz`` files (``x``: (N, h, w, 3) BGR uint8; ``y``: class ids) under ``datasets/crops/``.

Training runs on the CPU in ONE thread (the detector's training has the other cores), seeded; the network
(:class:`TileNet`: four conv-BN-ReLU stages, global average pooling, a linear layer) is exported to ONNX with the class
names, input size and crop margin in its metadata. torch is imported only here, never at run time.
"""

from __future__ import annotations

import json
import math
import os
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.eval.evaluation import EVAL_SEED  # the detector's held-out renderer seed: never trained on here
from vision.read.classifier import CROP_MARGIN, CROP_SIZE, MODEL_KIND, NOT_A_TILE, extract_crop
from vision.read.geometry import Box, Size
from vision.read.labels import CLASS_NAMES, NUM_CLASSES, parse_labels

Progress = Callable[[int, int], None] | None

#: Default renderer seed for classifier training scenes (never :data:`EVAL_SEED`).
TRAIN_SEED = 7100

#: The classifier's classes: ours, then "no tile" (crops of boxes that are no tile, so a detector's false box can
#: be dropped).
TRAIN_NAMES: tuple[str, ...] = (*CLASS_NAMES, NOT_A_TILE)
NONE_CLASS = len(CLASS_NAMES)

#: A background box overlaps every labelled tile by less than this IoU.
BACKGROUND_IOU = 0.3


@dataclass(frozen=True, slots=True)
class Scene:
    """A labelled image: BGR frame and (class id, box) pairs."""

    image: np.ndarray
    boxes: tuple[tuple[int, Box], ...]
    source: str


# --- scenes -------------------------------------------------------------------------------------------------


def rendered_scenes(seed: int, n: int, start: int = 0, drawn_faces: float = 0.0) -> Iterator[Scene]:
    """Scenes ``start .. start+n-1`` of renderer set ``seed``."""
    from vision.synth import render

    for i in range(start, start + n):
        sample = render(seed, i, None, drawn_faces)
        boxes = tuple((lab.class_id, Box(*lab.box)) for lab in sample.labels)
        yield Scene(sample.image, boxes, f"render:{seed}:{i}")


def yolo_scenes(folder: str | os.PathLike[str], limit: int | None = None) -> Iterator[Scene]:
    """Scenes of a YOLO folder (``images/*.jpg``, ``labels/*.txt``), as ``jantaku-lab synth`` writes."""
    from vision.read.images import load_image

    folder = Path(folder)
    images = sorted((folder / "images").glob("*.jpg"))
    if not images:
        raise FileNotFoundError(f"no images in {folder / 'images'}")
    for path in images[:limit]:
        label = folder / "labels" / (path.stem + ".txt")
        if not label.exists():
            continue
        image = load_image(path)
        h, w = image.shape[:2]
        boxes = tuple((b.class_id, Box(*b.xyxy(w, h))) for b in parse_labels(label.read_text(encoding="utf-8")))
        yield Scene(image, boxes, str(path))


def real_scenes(held_out: bool = False, root: str | os.PathLike[str] | None = None) -> Iterator[Scene]:
    """The real photos of the training split (``held_out=False``) or of the held-out split (evaluation only)."""
    from vision.eval.real_photos import held_out_split, training_split
    from vision.read.images import load_image

    photos = held_out_split(root) if held_out else training_split(root)
    for photo in photos:
        image = load_image(photo.image)
        h, w = image.shape[:2]
        yield Scene(image, tuple((b.class_id, Box(*b.xyxy(w, h))) for b in photo.boxes), str(photo.image))


def other_set_scenes(split: str = "train", root: str | os.PathLike[str] | None = None) -> Iterator[Scene]:
    """alanchoi00's photos of other physical sets (:mod:`vision.eval.other_sets`): its tiles in our classes, its
    flowers and seasons as :data:`NONE_CLASS` (a tile body, but no riichi tile), and the tiles its labels leave out
    painted out (:mod:`vision.train.unlabelled`), so that no background crop is cut from one. Only ``train`` is for
    training."""
    from vision.eval.other_sets import load_split
    from vision.train.unlabelled import painted_photos, shipped_finder

    for photo, image, _ in painted_photos(load_split(split, root), shipped_finder()):
        h, w = image.shape[:2]
        tiles = [(b.class_id, Box(*b.xyxy(w, h))) for b in photo.boxes]
        flowers = [(NONE_CLASS, Box(*r)) for r in photo.unlabelled_xyxy(w, h)]
        yield Scene(image, (*tiles, *flowers), str(photo.image))


# --- jitter -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Jitter:
    """How far a training crop strays from a clean crop of its label."""

    #: Standard deviation of each box edge's shift, as a share of the box's width (x edges) or height (y edges).
    box_noise: float = 0.06
    #: Largest turn in degrees.
    max_turn: float = 8.0
    #: Chance of reading the tile at a lower resolution (shrunk to 35-90 % then enlarged back).
    low_res: float = 0.35
    #: Chance of a Gaussian blur.
    blur: float = 0.2
    #: Chance of re-encoding as JPEG (quality 30-90).
    jpeg: float = 0.5
    #: Largest per-channel gain away from 1 (white balance).
    channel_gain: float = 0.1
    #: Largest brightness shift in grey levels, and contrast factor range.
    brightness: float = 30.0
    contrast: tuple[float, float] = (0.7, 1.25)
    #: Chance of additive Gaussian noise (sigma 2-8 grey levels).
    noise: float = 0.3


NO_JITTER = Jitter(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, (1.0, 1.0), 0.0)


def jittered_box(box: Box, rng: np.random.Generator, noise: float) -> Box:
    """The box with each edge moved by a normal share of its size (kept at least a third of its size)."""
    if noise <= 0:
        return box
    dx1, dx2 = rng.normal(0, noise, 2) * box.width
    dy1, dy2 = rng.normal(0, noise, 2) * box.height
    x1, x2 = box.x1 + dx1, box.x2 + dx2
    y1, y2 = box.y1 + dy1, box.y2 + dy2
    if x2 - x1 < box.width / 3:
        x1, x2 = box.x1, box.x2
    if y2 - y1 < box.height / 3:
        y1, y2 = box.y1, box.y2
    return Box(x1, y1, x2, y2)


def jittered_crop(
    image: np.ndarray, box: Box, rng: np.random.Generator, jitter: Jitter = Jitter(), size: Size = CROP_SIZE
) -> np.ndarray:
    """A training crop of ``box``: as :func:`extract_crop` cuts it at run time, after :class:`Jitter`."""
    box = jittered_box(box, rng, jitter.box_noise)
    if jitter.max_turn > 0:
        # turn a patch around the box (the crop is then cut from the turned patch at the same place)
        pad = 0.35 * max(box.width, box.height)
        px1, py1 = max(0, math.floor(box.x1 - pad)), max(0, math.floor(box.y1 - pad))
        px2 = min(image.shape[1], math.ceil(box.x2 + pad))
        py2 = min(image.shape[0], math.ceil(box.y2 + pad))
        if px2 - px1 >= 2 and py2 - py1 >= 2:
            patch = image[py1:py2, px1:px2]
            cx, cy = box.center
            angle = float(rng.uniform(-jitter.max_turn, jitter.max_turn))
            m = cv2.getRotationMatrix2D((cx - px1, cy - py1), angle, 1.0)
            patch = cv2.warpAffine(patch, m, (px2 - px1, py2 - py1), borderMode=cv2.BORDER_REPLICATE)
            image, box = patch, Box(box.x1 - px1, box.y1 - py1, box.x2 - px1, box.y2 - py1)
    crop = extract_crop(image, box, size, CROP_MARGIN)
    return appearance(crop, rng, jitter)


def appearance(crop: np.ndarray, rng: np.random.Generator, jitter: Jitter = Jitter()) -> np.ndarray:
    """Resolution, blur, colour, noise and JPEG jitter of a crop (same size out)."""
    h, w = crop.shape[:2]
    if rng.random() < jitter.low_res:
        f = rng.uniform(0.35, 0.9)
        small = cv2.resize(crop, (max(4, round(w * f)), max(4, round(h * f))), interpolation=cv2.INTER_AREA)
        crop = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < jitter.blur:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.4, 1.3))
    out = crop.astype(np.float32)
    if jitter.channel_gain > 0:
        out *= rng.uniform(1 - jitter.channel_gain, 1 + jitter.channel_gain, 3).astype(np.float32)
    lo, hi = jitter.contrast
    c = rng.uniform(lo, hi)
    mean = out.mean()
    out = (out - mean) * c + mean + rng.uniform(-jitter.brightness, jitter.brightness)
    if rng.random() < jitter.noise:
        out += rng.normal(0, rng.uniform(2, 8), out.shape).astype(np.float32)
    crop = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < jitter.jpeg:
        ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])
        if ok:
            crop = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return crop


# --- crop sets ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CropSet:
    """Crops (N, h, w, 3) BGR uint8 and their class ids; ``meta``: what a cache keeps beside them (JSON)."""

    x: np.ndarray
    y: np.ndarray
    meta: dict = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.y)

    def save(self, path: str | os.PathLike[str], **meta) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=self.x, y=self.y, meta=json.dumps(self.meta | meta))
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CropSet:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
            return cls(data["x"], data["y"].astype(np.int64), meta)

    @classmethod
    def concat(cls, sets: Iterable[CropSet]) -> CropSet:
        sets = [s for s in sets if len(s)]
        if not sets:
            return cls(np.zeros((0, CROP_SIZE.height, CROP_SIZE.width, 3), np.uint8), np.zeros(0, np.int64))
        return cls(np.concatenate([s.x for s in sets]), np.concatenate([s.y for s in sets]))

    def counts(self) -> np.ndarray:
        return np.bincount(self.y, minlength=len(TRAIN_NAMES))


def background_boxes(scene: Scene, rng: np.random.Generator, n: int, tries: int = 20) -> list[Box]:
    """Up to ``n`` tile-sized boxes of a scene that overlap no labelled tile (IoU < :data:`BACKGROUND_IOU`): half a
    tile and half its neighbour, a gap, the table, a prop. Sizes and places follow the scene's own tiles."""
    if not scene.boxes:
        return []
    h, w = scene.image.shape[:2]
    truth = [b for _, b in scene.boxes]
    out: list[Box] = []
    for _ in range(n * tries):
        if len(out) >= n:
            break
        ref = truth[int(rng.integers(len(truth)))]
        bw, bh = ref.width * rng.uniform(0.6, 1.5), ref.height * rng.uniform(0.6, 1.5)
        if rng.random() < 0.3:
            bw, bh = bh, bw
        if rng.random() < 0.6:  # beside a tile: shifted off it by more than half its size
            cx, cy = ref.center
            cx += rng.choice([-1, 1]) * rng.uniform(0.5, 1.2) * ref.width * (rng.random() < 0.7)
            cy += rng.choice([-1, 1]) * rng.uniform(0.5, 1.2) * ref.height * (rng.random() < 0.5)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        x1, y1 = float(max(0.0, cx - bw / 2)), float(max(0.0, cy - bh / 2))
        box = Box(x1, y1, float(min(w, cx + bw / 2)), float(min(h, cy + bh / 2)))
        if box.width < 6 or box.height < 6 or max(box.iou(t) for t in truth) >= BACKGROUND_IOU:
            continue
        out.append(box)
    return out


def crops_of(
    scenes: Iterable[Scene],
    *,
    per_box: int = 1,
    background: int = 0,
    jitter: Jitter = Jitter(),
    seed: int = 0,
    size: Size = CROP_SIZE,
    min_side: float = 6.0,
    progress: Progress = None,
    total: int = 0,
) -> CropSet:
    """``per_box`` crops of every labelled box of every scene (boxes whose shorter side is under ``min_side`` px
    are skipped: no tile is read from so few pixels), and ``background`` crops per scene of boxes that are no tile
    (class :data:`NONE_CLASS`)."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for n, scene in enumerate(scenes, 1):
        for class_id, box in scene.boxes:
            if min(box.width, box.height) < min_side:
                continue
            for _ in range(per_box):
                xs.append(jittered_crop(scene.image, box, rng, jitter, size))
                ys.append(class_id)
        for box in background_boxes(scene, rng, background):
            xs.append(jittered_crop(scene.image, box, rng, jitter, size))
            ys.append(NONE_CLASS)
        if progress:
            progress(n, total)
    if not xs:
        return CropSet.concat([])
    return CropSet(np.stack(xs), np.array(ys, np.int64))


def crops_cards(
    n: int,
    seed: int,
    none_share: float = 0.08,
    jitter: Jitter = Jitter(),
    size: Size = CROP_SIZE,
    progress: Progress = None,
) -> CropSet:
    """``n`` single-tile cards (:mod:`vision.synth.cards`: other sets' faces, tile fronts, bands, neighbours,
    cloth, glare; ``none_share`` of them boxes with no tile, standing-hand tops among them), each with the
    appearance jitter of :func:`appearance`. Card ``i`` depends on ``seed`` and ``i`` only."""
    from vision.synth.cards import card_set

    return _jittered_cards(lambda k, start: card_set(k, seed, none_share, size, start=start), n, seed, jitter, progress)


def crops_bonus_cards(
    n: int, seed: int, jitter: Jitter = Jitter(), size: Size = CROP_SIZE, progress: Progress = None
) -> CropSet:
    """``n`` cards of flower and season tiles (:func:`vision.synth.cards.bonus_card_set`), all ``none``: Chinese
    sets hold them and riichi does not. Jittered as :func:`crops_cards`; card ``i`` depends on ``seed`` and ``i``."""
    from vision.synth.cards import bonus_card_set

    return _jittered_cards(lambda k, start: bonus_card_set(k, seed, size, start=start), n, seed, jitter, progress)


def crops_distractor_cards(
    n: int, seed: int, jitter: Jitter = Jitter(), size: Size = CROP_SIZE, progress: Progress = None
) -> CropSet:
    """``n`` cards of things on the table that are not tiles (:func:`vision.synth.cards.distractor_card_set`: keys,
    white boxes, paper, phones, cups, an automatic table's panel, rim and slots, sticks, chips, dice, hands), all
    ``none``. Jittered as :func:`crops_cards`; card ``i`` depends on ``seed`` and ``i``."""
    from vision.synth.cards import distractor_card_set

    return _jittered_cards(lambda k, start: distractor_card_set(k, seed, size, start=start), n, seed, jitter, progress)


def crops_brush_cards(
    n: int, seed: int, jitter: Jitter = Jitter(), size: Size = CROP_SIZE, progress: Progress = None
) -> CropSet:
    """``n`` cards of characters with brushed glyphs and of birds in line art
    (:func:`vision.synth.cards.brush_card_set`: other sets' calligraphy and birds). Jittered as
    :func:`crops_cards`; card ``i`` depends on ``seed`` and ``i``."""
    from vision.synth.cards import brush_card_set

    return _jittered_cards(lambda k, start: brush_card_set(k, seed, size, start=start), n, seed, jitter, progress)


def _jittered_cards(make, n: int, seed: int, jitter: Jitter, progress: Progress) -> CropSet:
    """Cards ``make(count, start)`` in steps (bounded memory), each with the appearance jitter of
    :func:`appearance`, seeded by ``seed`` and the step's start."""
    xs, ys = [], []
    step = 2000
    for start in range(0, n, step):
        x, y = make(min(step, n - start), start)
        rng = np.random.default_rng([seed, 1, start])
        xs.append(np.stack([appearance(c, rng, jitter) for c in x]))
        ys.append(y)
        if progress:
            progress(start + len(y), n)
    if not xs:
        return CropSet.concat([])
    return CropSet(np.concatenate(xs), np.concatenate(ys))


def crops_real_held_out(root: str | os.PathLike[str] | None = None, size: Size = CROP_SIZE) -> CropSet:
    """Clean crops of the labelled boxes of the real HELD-OUT split: for evaluation only, never training."""
    return crops_of(real_scenes(held_out=True, root=root), jitter=NO_JITTER, size=size)


def crops_rendered_held_out(n: int = 200, size: Size = CROP_SIZE) -> CropSet:
    """Clean crops of the labelled boxes of rendered images ``0..n-1`` of the held-out set :data:`EVAL_SEED`."""
    return crops_of(rendered_scenes(EVAL_SEED, n), jitter=NO_JITTER, size=size)


# --- the network --------------------------------------------------------------------------------------------


def build_network(num_classes: int = NUM_CLASSES, width: int = 32):
    """:class:`TileNet`, built lazily so that importing this module does not import torch."""
    import torch
    from torch import nn

    def stage(cin: int, cout: int, stride: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class TileNet(nn.Module):
        """RGB 0..1 crops in, logits out: normalisation inside, so the runtime only scales pixels to 0..1."""

        def __init__(self) -> None:
            super().__init__()
            w = width
            self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1))
            self.register_buffer("std", torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1))
            self.features = nn.Sequential(
                stage(3, w // 2, 2),  # 32 x 24
                stage(w // 2, w, 1),
                nn.MaxPool2d(2),  # 16 x 12
                stage(w, 2 * w, 1),
                nn.MaxPool2d(2),  # 8 x 6
                stage(2 * w, 4 * w, 1),
                stage(4 * w, 4 * w, 1),
            )
            self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * w, num_classes))

        def forward(self, x):
            x = (x - self.mean) / self.std
            x = self.features(x)
            return self.head(x.mean(dim=(2, 3)))

    return TileNet()


def dequantized_weights(proto, initializers: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The float values of a quantized (QDQ) graph's stored weights: each ``DequantizeLinear`` of an initializer, by
    its output's name, ``(q - zero point) * scale`` along its axis. Empty for a float graph."""
    out = {}
    for node in proto.graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in initializers:
            continue
        q = initializers[node.input[0]].astype(np.float32)
        scale = initializers[node.input[1]].astype(np.float32)
        zero = initializers[node.input[2]].astype(np.float32) if len(node.input) > 2 else np.zeros_like(scale)
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        if scale.ndim == 1 and q.ndim > 1:  # per channel along ``axis``
            shape = [1] * q.ndim
            shape[axis] = -1
            scale, zero = scale.reshape(shape), zero.reshape(shape)
        out[node.output[0]] = ((q - zero) * scale).astype(np.float32)
    return out


def network_from_onnx(path: str | os.PathLike[str]):
    """:class:`TileNet` holding the weights of a classifier this module exported (:func:`export_onnx`), to train
    on from there. The export folds each batch norm into its convolution, so the norms come back as the identity
    plus the convolution's bias (mean 0, variance 1 - eps, scale 1, shift the bias): in eval mode the network reads
    exactly as the file does; :func:`train` keeps such norms in eval mode (their statistics fixed)."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    proto = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i).copy() for i in proto.graph.initializer}  # writable, for torch
    weights |= dequantized_weights(proto, weights)  # an int8 file (quantize-classifier): its weights as it reads them
    convs = [n for n in proto.graph.node if n.op_type == "Conv"]
    gemms = [n for n in proto.graph.node if n.op_type == "Gemm"]
    meta = {m.key: m.value for m in proto.metadata_props}
    if not convs or len(gemms) != 1 or any(len(n.input) < 3 for n in convs) or meta.get("kind") != MODEL_KIND:
        raise ValueError(f"{path}: not a tile classifier exported by jantaku-lab train-classifier")
    if meta.get("names") != repr(list(TRAIN_NAMES)):
        raise ValueError(f"{path}: its classes are not the ones trained here ({len(TRAIN_NAMES)}: tiles, then none)")
    first = weights[convs[0].input[1]]
    head_w, head_b = weights[gemms[0].input[1]], weights[gemms[0].input[2]]
    model = build_network(head_w.shape[0], first.shape[0] * 2)
    model_convs = [m for m in model.features.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in model.features.modules() if isinstance(m, nn.BatchNorm2d)]
    if len(model_convs) != len(convs) or any(
        tuple(m.weight.shape) != weights[n.input[1]].shape for m, n in zip(model_convs, convs, strict=True)
    ):
        raise ValueError(f"{path}: its layers are not TileNet's at width {first.shape[0] * 2}")
    with torch.no_grad():
        for conv, norm, node in zip(model_convs, norms, convs, strict=True):
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]]))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(weights[node.input[2]]))
        model.head[2].weight.copy_(torch.from_numpy(head_w))
        model.head[2].bias.copy_(torch.from_numpy(head_b))
    return model.eval()


@dataclass(frozen=True)
class TrainOptions:
    """How :func:`train` runs."""

    epochs: int = 8
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 1e-4
    seed: int = 0
    threads: int = 1
    width: int = 32
    #: Stop after this many seconds: the learning-rate schedule then runs on whichever is further along, the steps
    #: or the time, so a run cut short by a busy machine still ends annealed.
    max_seconds: float | None = None
    #: Share of the run spent warming up to ``lr`` (then a cosine decay to zero).
    warmup: float = 0.15
    #: Start from this classifier (an ONNX file :func:`export_onnx` wrote; :func:`network_from_onnx`) instead of
    #: fresh weights; ``width`` is then the file's.
    init: str | None = None
    #: Share of each batch blurred afresh at every step (:func:`blur_batch`), and the range of the blur's
    #: standard deviation in crop pixels: a photo out of focus. The crop sets' own blur is rarer and milder (at
    #: most 1.3 px, :class:`Jitter`); a blur of 0.05 of a tile's width (2 px here) misread most camerash hands.
    blur: float = 0.0
    blur_sigma: tuple[float, float] = (0.6, 2.6)
    #: Share of each batch given a light's reflection afresh at every step (:func:`glare_batch`): glossy tiles
    #: under a lamp. The scene cards' own glare is rarer (:func:`vision.synth.cards._light`, 3 cards in 10).
    glare: float = 0.0


@dataclass(frozen=True)
class TrainReport:
    """What a training run did: sizes, time, and the last epoch's figures."""

    samples: int
    steps: int
    seconds: float
    train_accuracy: float
    val_accuracy: float | None
    history: tuple[dict, ...]


def _augment_batch(torch, x, generator):
    """Online augmentation on a float batch (N, 3, h, w): half turned upside down (a tile facing another seat or a
    sideways tile turned the other way), brightness and contrast."""
    n = x.shape[0]
    flip = torch.rand(n, generator=generator) < 0.5
    x = torch.where(flip.view(n, 1, 1, 1), torch.flip(x, dims=(2, 3)), x)
    gain = 1 + (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 0.3
    shift = (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 0.16
    return (x * gain + shift).clamp(0, 1)


def gaussian_kernels(torch, sigmas, radius: int):
    """Normalised 1-D Gaussian kernels (len(sigmas), 2 * radius + 1), one per standard deviation."""
    taps = torch.arange(-radius, radius + 1, dtype=torch.float32)
    k = torch.exp(-0.5 * (taps.view(1, -1) / sigmas.view(-1, 1)) ** 2)
    return k / k.sum(dim=1, keepdim=True)


def blur_batch(torch, x, share: float, sigma: tuple[float, float], generator):
    """A float batch (N, 3, h, w) with about ``share`` of its crops Gaussian-blurred, each by its own standard
    deviation drawn uniformly from ``sigma`` (pixels; edges repeated, as ``cv2.GaussianBlur`` does)."""
    import torch.nn.functional as F

    if share <= 0:
        return x
    chosen = torch.nonzero(torch.rand(x.shape[0], generator=generator) < share).flatten()
    if not len(chosen):
        return x
    lo, hi = sigma
    sigmas = lo + (hi - lo) * torch.rand(len(chosen), generator=generator)
    radius = max(1, math.ceil(3 * hi))
    k = gaussian_kernels(torch, sigmas, radius).repeat_interleave(3, dim=0)  # one kernel per crop and channel
    c, h, w = x.shape[1:]
    part = x[chosen].reshape(1, len(chosen) * c, h, w)
    part = F.pad(part, (radius, radius, radius, radius), mode="replicate")
    part = F.conv2d(part, k.view(-1, 1, 1, 2 * radius + 1), groups=len(chosen) * c)  # along rows
    part = F.conv2d(part, k.view(-1, 1, 2 * radius + 1, 1), groups=len(chosen) * c)  # along columns
    out = x.clone()
    out[chosen] = part.reshape(len(chosen), c, h, w)
    return out


def glare_batch(torch, x, share: float, generator):
    """A float batch (N, 3, h, w) with about ``share`` of its crops given a light's reflection: white added under a
    Gaussian ellipse at any angle, a spot (up to 0.4 of the crop's shorter side) or a streak (long and thin, as a
    lamp shows along a row of glossy faces), 0.4 to 1 strong at its centre, then clipped: the face washed out there."""
    if share <= 0:
        return x
    chosen = torch.nonzero(torch.rand(x.shape[0], generator=generator) < share).flatten()
    if not len(chosen):
        return x
    n, (h, w) = len(chosen), x.shape[2:]

    def uniform(lo, hi):
        return lo + (hi - lo) * torch.rand(n, 1, 1, generator=generator)

    cx, cy = uniform(0.0, w), uniform(0.0, h)
    streak = torch.rand(n, 1, 1, generator=generator) < 0.5
    size = min(h, w)  # a crop's width when it stands upright
    long_side = torch.where(streak, uniform(0.6, 1.5), uniform(0.08, 0.4)) * size
    short_side = torch.where(streak, uniform(0.04, 0.12), uniform(0.06, 0.3)) * size
    angle = uniform(0.0, math.pi)
    ys = torch.arange(h, dtype=torch.float32).view(1, h, 1) - cy
    xs = torch.arange(w, dtype=torch.float32).view(1, 1, w) - cx
    along = xs * torch.cos(angle) + ys * torch.sin(angle)
    across = -xs * torch.sin(angle) + ys * torch.cos(angle)
    light = uniform(0.4, 1.0) * torch.exp(-0.5 * ((along / long_side) ** 2 + (across / short_side) ** 2))
    out = x.clone()
    out[chosen] = (x[chosen] + light.unsqueeze(1)).clamp(0, 1)
    return out


def _as_tensor(torch, x: np.ndarray):
    return torch.from_numpy(np.ascontiguousarray(x[..., ::-1].transpose(0, 3, 1, 2))).float().div_(255.0)


def evaluate_torch(model, data: CropSet, batch: int = 512) -> np.ndarray:
    """Predicted class ids of a crop set by a torch model (eval mode)."""
    import torch

    model.eval()
    preds = []
    with torch.no_grad():
        for s in range(0, len(data), batch):
            preds.append(model(_as_tensor(torch, data.x[s : s + batch])).argmax(1).numpy())
    return np.concatenate(preds) if preds else np.zeros(0, np.int64)


def train(
    data: CropSet,
    options: TrainOptions = TrainOptions(),
    val: CropSet | None = None,
    log: Callable[[str], None] | None = None,
):
    """Train :class:`TileNet` on a crop set; returns (model, :class:`TrainReport`). Seeded; one thread by default."""
    import torch

    threads_before = torch.get_num_threads()
    torch.set_num_threads(options.threads)
    try:
        return _train(torch, data, options, val, log)
    finally:
        torch.set_num_threads(threads_before)


def _train_mode(model, nn, fixed_norms: bool) -> None:
    """Training mode; with ``fixed_norms`` (a network loaded from a file, whose norms are folded into its
    convolutions) the batch norms keep their fixed statistics (a batch's would undo what the file learnt)."""
    model.train()
    if fixed_norms:
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


def train_step(model, loss_fn, opt, x, y) -> int:
    """One optimiser step on a batch ``x`` with targets ``y``; how many of the batch the model got right."""
    logits = model(x)
    loss = loss_fn(logits, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return int((logits.argmax(1) == y).sum())


def _train(torch, data: CropSet, options: TrainOptions, val: CropSet | None, log):
    from torch import nn

    torch.manual_seed(options.seed)
    gen = torch.Generator().manual_seed(options.seed)
    rng = np.random.default_rng(options.seed)
    model = network_from_onnx(options.init) if options.init else build_network(len(TRAIN_NAMES), options.width)
    steps_per_epoch = max(1, math.ceil(len(data) / options.batch))
    total_steps = steps_per_epoch * options.epochs
    opt = torch.optim.AdamW(model.parameters(), lr=options.lr, weight_decay=options.weight_decay)

    def lr_at(progress: float) -> float:
        if progress < options.warmup:
            return options.lr * (0.04 + 0.96 * progress / options.warmup)
        return options.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - options.warmup) / (1 - options.warmup))))

    # classes seen rarely (red fives, some honours) weigh more, up to 4x
    counts = data.counts().astype(np.float64)
    weights = np.where(counts > 0, np.clip(counts.mean() / np.maximum(counts, 1), 0.5, 4.0), 1.0)
    loss_fn = nn.CrossEntropyLoss(weight=torch.tensor(weights, dtype=torch.float32), label_smoothing=0.05)
    started = time.perf_counter()
    history = []
    step = 0
    correct = seen = 0
    stop = False
    for epoch in range(options.epochs):
        _train_mode(model, nn, fixed_norms=bool(options.init))
        order = rng.permutation(len(data))
        correct = seen = 0
        for s in range(0, len(order), options.batch):
            idx = np.sort(order[s : s + options.batch])
            progress = step / total_steps
            if options.max_seconds:
                progress = max(progress, (time.perf_counter() - started) / options.max_seconds)
            if progress >= 1.0:
                stop = True
                break
            lr = lr_at(progress)
            for group in opt.param_groups:
                group["lr"] = lr
            x = _augment_batch(torch, _as_tensor(torch, data.x[idx]), gen)
            x = blur_batch(torch, x, options.blur, options.blur_sigma, gen)  # as it is when options.blur is 0
            x = glare_batch(torch, x, options.glare, gen)  # the same when options.glare is 0
            y = torch.from_numpy(data.y[idx])
            correct += train_step(model, loss_fn, opt, x, y)
            step += 1
            seen += len(idx)
        entry = {
            "epoch": epoch + 1,
            "train_acc": round(correct / max(seen, 1), 4),
            "seconds": round(time.perf_counter() - started, 1),
            "lr": round(opt.param_groups[0]["lr"], 6),
        }
        if val is not None and len(val):
            entry["val_acc"] = round(float((evaluate_torch(model, val) == val.y).mean()), 4)
        history.append(entry)
        if log:
            log(json.dumps(entry))
        if stop:
            break
    model.eval()
    report = TrainReport(
        samples=len(data),
        steps=step,
        seconds=round(time.perf_counter() - started, 1),
        train_accuracy=history[-1]["train_acc"] if history else 0.0,
        val_accuracy=history[-1].get("val_acc") if history else None,
        history=tuple(history),
    )
    return model, report


def export_onnx(
    model,
    path: str | os.PathLike[str],
    metadata: dict | None = None,
    size: Size = CROP_SIZE,
    *,
    kind: str = MODEL_KIND,
    names: Sequence[str] = TRAIN_NAMES,
) -> Path:
    """Write the model as ONNX (dynamic batch, fixed h x w) with ``kind``, ``names`` and ``crop_margin`` metadata
    (the classifier's, or another network's of the same crops: :mod:`vision.train.way_up_training`)."""
    import onnx
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    dummy = torch.zeros(1, 3, size.height, size.width)
    tmp = path.with_suffix(".tmp.onnx")
    with warnings.catch_warnings():  # the TorchScript exporter (the dynamo one needs onnxscript) says it is legacy
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (dummy,),
            str(tmp),
            input_names=["images"],
            output_names=["logits"],
            dynamic_axes={"images": {0: "batch"}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    proto = onnx.load(str(tmp))
    meta = {
        "kind": kind,
        "names": repr(list(names)),
        "imgsz": repr([size.height, size.width]),
        "crop_margin": str(CROP_MARGIN),
        **{k: str(v) for k, v in (metadata or {}).items()},
    }
    del proto.metadata_props[:]
    for k, v in meta.items():
        proto.metadata_props.add(key=k, value=v)
    onnx.save(proto, str(path))
    tmp.unlink()
    return path


def report_dict(report: TrainReport, options: TrainOptions) -> dict:
    return {
        **asdict(options),
        "samples": report.samples,
        "steps": report.steps,
        "seconds": report.seconds,
        "train_accuracy": report.train_accuracy,
        "val_accuracy": report.val_accuracy,
    }
