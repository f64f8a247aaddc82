"""Detection metrics: average precision per class (101-point), mAP50 and mAP50-95, precision and recall.

AP follows ultralytics' computation (see :func:`average_precision`), so that figures compare with its validation.
Pure numpy over plain records: ground truth ``(image, class, box)`` and predictions ``(image, class, box, conf)``,
boxes as x1, y1, x2, y2 pixels. A prediction is a true positive at IoU ``t`` when it is the best-scoring unmatched
prediction of its class overlapping an unmatched ground-truth box of its class in its image by at least ``t``.

>>> gt = [Truth(0, 3, (0, 0, 10, 10)), Truth(0, 5, (20, 0, 30, 10))]
>>> pred = [Pred(0, 3, (0, 0, 10, 10), 0.9), Pred(0, 5, (21, 0, 31, 10), 0.8), Pred(0, 5, (50, 0, 60, 10), 0.95)]
>>> r = evaluate(gt, pred)
>>> round(r.map50, 3), r.per_class[3].ap50, r.per_class[5].tp, r.per_class[5].fp
(0.746, 0.995, 1, 1)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.read.postprocess import iou_matrix

#: IoU thresholds of mAP50-95.
IOU_THRESHOLDS = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))


@dataclass(frozen=True, slots=True)
class Truth:
    image: Hashable
    class_id: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Pred:
    image: Hashable
    class_id: int
    box: tuple[float, float, float, float]
    conf: float


@dataclass(frozen=True, slots=True)
class ClassResult:
    """One class: its ground-truth count, AP at 0.5 and averaged over 0.5..0.95, and P/R at the operating threshold."""

    class_id: int
    n_truth: int
    ap50: float
    ap50_95: float
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.n_truth if self.n_truth else 0.0


@dataclass(frozen=True, slots=True)
class DetectionResult:
    """Means over the classes that have ground truth (as ultralytics reports them); P and R pooled over all boxes."""

    per_class: dict[int, ClassResult]
    conf_threshold: float

    @property
    def _present(self) -> list[ClassResult]:
        return [c for c in self.per_class.values() if c.n_truth]

    @property
    def map50(self) -> float:
        return float(np.mean([c.ap50 for c in self._present])) if self._present else 0.0

    @property
    def map50_95(self) -> float:
        return float(np.mean([c.ap50_95 for c in self._present])) if self._present else 0.0

    @property
    def tp(self) -> int:
        return sum(c.tp for c in self.per_class.values())

    @property
    def fp(self) -> int:
        return sum(c.fp for c in self.per_class.values())

    @property
    def fn(self) -> int:
        return sum(c.fn for c in self.per_class.values())

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def average_precision(tp: np.ndarray, conf: np.ndarray, n_truth: int) -> float:
    """AP of predictions (``tp`` flags, confidences) against ``n_truth`` boxes, computed as ultralytics does: the
    precision envelope, linearly interpolated at 101 recall points and integrated (trapezoids), so that figures
    compare with a model card's ultralytics validation.

    >>> round(average_precision(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), 2), 4)
    0.8283
    """
    if n_truth == 0 or len(tp) == 0:
        return 0.0
    order = np.argsort(-conf, kind="stable")
    hits = np.asarray(tp, bool)[order]
    ctp = np.cumsum(hits)
    cfp = np.cumsum(~hits)
    recall = np.concatenate([[0.0], ctp / n_truth, [1.0]])
    precision = np.concatenate([[1.0], ctp / (ctp + cfp), [0.0]])
    envelope = np.flip(np.maximum.accumulate(np.flip(precision)))
    points = np.linspace(0, 1, 101)
    curve = np.interp(points, recall, envelope)
    return float(np.sum((curve[1:] + curve[:-1]) / 2 * np.diff(points)))


def _match(truths: Sequence[Truth], preds: Sequence[Pred], threshold: float) -> np.ndarray:
    """True-positive flags of ``preds`` (one image, one class) at one IoU threshold, greedy by confidence."""
    flags = np.zeros(len(preds), bool)
    if not truths or not preds:
        return flags
    ious = iou_matrix(np.array([p.box for p in preds], float), np.array([t.box for t in truths], float))
    taken = np.zeros(len(truths), bool)
    for i in np.argsort([-p.conf for p in preds], kind="stable"):
        candidates = np.where(~taken & (ious[i] >= threshold), ious[i], -1.0)
        j = int(candidates.argmax())
        if candidates[j] >= threshold:
            taken[j] = True
            flags[i] = True
    return flags


def _grouped(records: Iterable[Truth] | Iterable[Pred]) -> dict[tuple, list]:
    """Records by (class, image)."""
    out: dict[tuple, list] = defaultdict(list)
    for r in records:
        out[(r.class_id, r.image)].append(r)
    return out


def evaluate(
    truths: Iterable[Truth],
    preds: Iterable[Pred],
    conf_threshold: float = 0.25,
    read: Iterable[Pred] | None = None,
) -> DetectionResult:
    """AP per class at each IoU threshold, and TP/FP/FN at IoU 0.5 for predictions with ``conf >= conf_threshold``.

    ``preds`` are every candidate (for AP); ``read``, when given, are what the detector finally reports (for P and R):
    AP ranks candidates of every class, while a reader keeps one class per tile.
    """
    gt, pr = _grouped(truths), _grouped(preds)
    rd = pr if read is None else _grouped(read)
    classes = {k[0] for k in (*gt, *pr, *rd)}
    per_class = {}
    for cls in sorted(classes):
        keys = {k for k in (*gt, *pr, *rd) if k[0] == cls}
        n_truth = sum(len(gt[k]) for k in keys if k in gt)
        confs = np.array([p.conf for k in keys for p in pr.get(k, [])], float)
        aps = []
        for threshold in IOU_THRESHOLDS:
            flags = np.concatenate(
                [_match(gt.get(k, []), pr.get(k, []), threshold) for k in keys] or [np.zeros(0, bool)]
            )
            aps.append(average_precision(flags, confs, n_truth))
        tp = fp = 0
        for k in keys:
            kept = [p for p in rd.get(k, []) if p.conf >= conf_threshold]
            hits = int(_match(gt.get(k, []), kept, 0.5).sum())
            tp += hits
            fp += len(kept) - hits
        per_class[cls] = ClassResult(cls, n_truth, aps[0], float(np.mean(aps)), tp, fp, n_truth - tp)
    return DetectionResult(per_class, conf_threshold)


def map50_interval(
    truths: Iterable[Truth],
    preds: Iterable[Pred],
    resamples: int = 200,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """A bootstrap interval of mAP50 over images: how far the figure would move on another set of images drawn as
    these were (renders vary a lot from one image to the next, so 200 of them pin mAP50 down to a few points only).

    Matching is done once per image; each resample draws the images with replacement and recomputes every class's AP
    from their predictions and truths, counted as often as their image was drawn.

    >>> gt = [Truth(i, 0, (0, 0, 10, 10)) for i in range(20)]
    >>> pred = [Pred(i, 0, (0, 0, 10, 10) if i % 4 else (50, 50, 60, 60), 0.9) for i in range(20)]
    >>> low, high = map50_interval(gt, pred)
    >>> whole = evaluate(gt, pred).map50                # 15 of 20 found
    >>> round(whole, 3), low < whole < high, 0.4 < low, high <= 1.0
    (0.718, True, True, True)
    """
    if resamples < 1 or not 0 < level < 1:
        raise ValueError("resamples is at least 1 and level between 0 and 1")
    gt, pr = _grouped(truths), _grouped(preds)
    images = sorted({k[1] for k in (*gt, *pr)}, key=repr)
    if not images:
        return 0.0, 0.0
    index = {image: i for i, image in enumerate(images)}
    # per class: each prediction's image, hit flag and confidence; the truth count per image
    keys_of: dict[int, list[tuple]] = defaultdict(list)
    for k in {*gt, *pr}:
        keys_of[k[0]].append(k)
    per_class = []
    for cls in sorted({k[0] for k in gt}):
        keys = keys_of[cls]
        where = np.array([index[k[1]] for k in keys for _ in pr.get(k, [])], int)
        flags = np.concatenate([_match(gt.get(k, []), pr.get(k, []), 0.5) for k in keys] or [np.zeros(0, bool)])
        confs = np.array([p.conf for k in keys for p in pr.get(k, [])], float)
        counts = np.zeros(len(images), int)
        for k in keys:
            counts[index[k[1]]] += len(gt.get(k, []))
        per_class.append((where, flags, confs, counts))
    rng = np.random.default_rng(seed)
    maps = []
    for _ in range(resamples):
        drawn = np.bincount(rng.integers(0, len(images), len(images)), minlength=len(images))
        aps = []
        for where, flags, confs, counts in per_class:
            n_truth = int(drawn @ counts)
            if n_truth:
                times = drawn[where]
                aps.append(average_precision(np.repeat(flags, times), np.repeat(confs, times), n_truth))
        maps.append(float(np.mean(aps)) if aps else 0.0)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(maps, [tail, 100 - tail])
    return float(low), float(high)
