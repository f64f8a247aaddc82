"""Between pixels and the network: letterbox in, decode + NMS + un-letterbox out. Pure numpy (and one resize).

Nothing here draws, reads files or knows about tiles; sizes are explicit :class:`~vision.read.geometry.Size`
(height, width), because a swapped height and width only shows on non-square frames.

The network sees the frame scaled to fit its input (aspect ratio kept) and padded with grey; its YOLO (v8/11) head
gives ``[batch, 4 + classes, anchors]``: box centre x, centre y, width, height in input pixels, then a score per class.

>>> lb = Letterbox.fit(Size(height=480, width=960), Size(height=640, width=640))
>>> lb.scale, lb.pad_top, lb.pad_left, lb.resized
(0.6666666666666666, 160, 0, Size(height=320, width=640))
>>> lb.to_source(np.array([[0.0, 160.0, 640.0, 480.0]])).tolist()
[[0.0, 0.0, 960.0, 480.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.geometry import Size

#: The padding grey ultralytics trains with.
PAD_VALUE = 114


@dataclass(frozen=True, slots=True)
class Letterbox:
    """How a source frame was fitted into the network input: scaled by ``scale``, then padded top and left."""

    source: Size
    target: Size
    scale: float
    pad_top: int
    pad_left: int

    @classmethod
    def fit(cls, source: Size, target: Size) -> Letterbox:
        """Scale ``source`` to fit inside ``target`` keeping its aspect ratio, centred (upscaling allowed)."""
        scale = min(target.height / source.height, target.width / source.width)
        resized = _resized(source, scale, target)
        return cls(
            source=source,
            target=target,
            scale=scale,
            pad_top=(target.height - resized.height) // 2,
            pad_left=(target.width - resized.width) // 2,
        )

    @property
    def resized(self) -> Size:
        """The size of the scaled frame inside the padding."""
        return _resized(self.source, self.scale, self.target)

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The padded, resized image (same dtype and channels), of shape ``target``."""
        if Size.of(image) != self.source:
            raise ValueError(f"image is {Size.of(image)} (w x h), this letterbox was fitted for {self.source}")
        r = self.resized
        if r != self.source:
            interp = cv2.INTER_AREA if self.scale < 1 else cv2.INTER_LINEAR
            image = cv2.resize(image, (r.width, r.height), interpolation=interp)
        out = np.full((self.target.height, self.target.width, *image.shape[2:]), PAD_VALUE, dtype=image.dtype)
        out[self.pad_top : self.pad_top + r.height, self.pad_left : self.pad_left + r.width] = image
        return out

    def to_source(self, boxes: np.ndarray) -> np.ndarray:
        """Map ``[K, 4]`` x1, y1, x2, y2 boxes from network-input pixels to source pixels, clipped to the frame."""
        out = np.asarray(boxes, dtype=np.float64).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_left) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_top) / self.scale
        out[:, [0, 2]] = np.clip(out[:, [0, 2]], 0, self.source.width)
        out[:, [1, 3]] = np.clip(out[:, [1, 3]], 0, self.source.height)
        return out


def _resized(source: Size, scale: float, target: Size) -> Size:
    return Size(
        height=min(target.height, max(1, round(source.height * scale))),
        width=min(target.width, max(1, round(source.width * scale))),
    )


def to_tensor(images: list[np.ndarray]) -> np.ndarray:
    """BGR ``uint8`` images of one size -> float32 ``[batch, 3, height, width]`` RGB in 0..1."""
    batch = np.stack(images)[..., ::-1]  # BGR -> RGB
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)


@dataclass(frozen=True, slots=True)
class Raw:
    """Candidate boxes of one image: ``boxes`` ``[K, 4]`` x1, y1, x2, y2; ``scores`` ``[K]``; ``classes`` ``[K]``."""

    boxes: np.ndarray
    scores: np.ndarray
    classes: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def take(self, index) -> Raw:
        return Raw(self.boxes[index], self.scores[index], self.classes[index])

    @classmethod
    def empty(cls) -> Raw:
        return cls(np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=np.int64))

    @classmethod
    def concat(cls, parts: list[Raw]) -> Raw:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.boxes for p in parts]),
            np.concatenate([p.scores for p in parts]),
            np.concatenate([p.classes for p in parts]),
        )


def decode(output: np.ndarray, num_classes: int, conf_threshold: float = 0.25, *, multi_label: bool = False) -> Raw:
    """Candidates of ONE image from a YOLO v8/11 head output ``[4 + num_classes, anchors]`` (or ``[1, ...]``).

    Each anchor keeps its best class (with ``multi_label``, every class scoring at least ``conf_threshold``);
    anchors scoring below ``conf_threshold``, or boxed under one pixel wide or high, are dropped. Boxes stay in
    network-input pixels (see :meth:`Letterbox.to_source`).

    >>> out = np.zeros((4 + 2, 3), dtype=np.float32)
    >>> out[:4, 0] = [50, 40, 20, 10]; out[4:, 0] = [0.1, 0.9]    # anchor 0: class 1
    >>> out[:4, 1] = [10, 10, 4, 4]; out[4:, 1] = [0.2, 0.1]      # anchor 1: below threshold
    >>> raw = decode(out, num_classes=2)
    >>> raw.boxes.tolist(), raw.scores.round(2).tolist(), raw.classes.tolist()
    ([[40.0, 35.0, 60.0, 45.0]], [0.9], [1])
    """
    out = np.asarray(output)
    if out.ndim == 3:
        if out.shape[0] != 1:
            raise ValueError(f"decode takes one image's output; got a batch of {out.shape[0]}")
        out = out[0]
    if out.ndim != 2 or out.shape[0] != 4 + num_classes:
        raise ValueError(
            f"expected a YOLO head output of shape [4 + {num_classes}, anchors] = [{4 + num_classes}, N], got "
            f"{list(np.asarray(output).shape)}"
        )
    scores_all = out[4:]
    sized = (out[2] >= 1) & (out[3] >= 1)  # boxes under a pixel wide are no tile
    if multi_label:  # every class above the threshold, as ultralytics validates
        classes, anchors = np.nonzero((scores_all >= conf_threshold) & sized[None, :])
        scores = scores_all[classes, anchors]
    else:
        best = scores_all.argmax(axis=0)
        top = scores_all[best, np.arange(out.shape[1])]
        anchors = np.flatnonzero((top >= conf_threshold) & sized)
        classes, scores = best[anchors], top[anchors]
    cx, cy, w, h = out[:4, anchors].astype(np.float64)
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return Raw(boxes, scores.astype(np.float64), classes.astype(np.int64))


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box in ``a`` ``[K, 4]`` with every box in ``b`` ``[M, 4]``: ``[K, M]``."""
    inter = intersection_matrix(a, b)
    union = _areas(a)[:, None] + _areas(b)[None, :] - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)


def ios_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over the smaller box's area, ``[K, M]``: 1.0 when one box lies inside the other."""
    inter = intersection_matrix(a, b)
    smaller = np.minimum(_areas(a)[:, None], _areas(b)[None, :])
    return np.divide(inter, smaller, out=np.zeros_like(inter), where=smaller > 0)


def share_inside_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The share of each box of ``a`` ``[K, 4]`` lying inside each of ``b`` ``[M, 4]``, ``[K, M]``: 0 for a box of
    ``a`` of no area (as :meth:`vision.read.geometry.Box.share_inside`)."""
    inter = intersection_matrix(a, b)
    own = np.broadcast_to(_areas(a)[:, None], inter.shape)
    return np.divide(inter, own, out=np.zeros_like(inter), where=own > 0)


def _areas(boxes: np.ndarray) -> np.ndarray:
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def intersection_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area each box of ``a`` ([K, 4], x1 y1 x2 y2) shares with each of ``b`` ([M, 4]), ``[K, M]``."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


#: :func:`nms` over at most this many boxes takes every pair's IoU at once (a photo's candidates: a few hundred);
#: over more, the kept boxes' one by one, in memory that grows with the boxes rather than their square.
NMS_MATRIX_MOST = 1024


def nms(raw: Raw, iou_threshold: float = 0.5, *, class_aware: bool = True) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first.

    A box is dropped when it overlaps a better-scoring kept box by more than ``iou_threshold``; with
    ``class_aware`` (the default) only boxes of the same class suppress each other.

    >>> raw = Raw(np.array([[0, 0, 10, 10], [1, 0, 11, 10], [1, 0, 11, 10]], float), np.array([0.9, 0.8, 0.7]),
    ...           np.array([3, 3, 5]))
    >>> nms(raw).tolist(), nms(raw, class_aware=False).tolist()
    ([0, 2], [0])
    """
    if len(raw) == 0:
        return np.zeros(0, dtype=np.int64)
    boxes = np.asarray(raw.boxes, dtype=np.float64)
    if class_aware:  # move each class to its own region of the plane: boxes of different classes never overlap
        span = float(np.abs(boxes).max()) * 2 + 1
        boxes = boxes + (raw.classes.astype(np.float64) * span)[:, None]
    order = np.argsort(-raw.scores, kind="stable")
    keep = []
    if len(order) <= NMS_MATRIX_MOST:
        # every pair's IoU at once, best first; then one pass down the order, each kept box dropping those after it
        overlapping = iou_matrix(boxes[order], boxes[order]) > iou_threshold
        dropped = np.zeros(len(order), bool)
        for i in range(len(order)):
            if not dropped[i]:
                keep.append(order[i])
                dropped[i + 1 :] |= overlapping[i, i + 1 :]
        return np.array(keep, dtype=np.int64)
    areas = _areas(boxes)
    while len(order):
        i = order[0]
        keep.append(i)
        rest = order[1:]
        w = np.minimum(boxes[i, 2], boxes[rest, 2]) - np.maximum(boxes[i, 0], boxes[rest, 0])
        h = np.minimum(boxes[i, 3], boxes[rest, 3]) - np.maximum(boxes[i, 1], boxes[rest, 1])
        inter = np.clip(w, 0, None) * np.clip(h, 0, None)
        union = areas[i] + areas[rest] - inter
        iou = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        order = rest[iou <= iou_threshold]
    return np.array(keep, dtype=np.int64)
