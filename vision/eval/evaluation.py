"""Measuring a detector: a held-out rendered set, the held-out real photos, and real single-tile photos.

Each function takes a :class:`~vision.read.detector.Detector` and returns a typed result; the CLI (``jantaku-lab eval
detector``) prints them. Nothing here trains or changes a model.

- Rendered: images ``0..n-1`` of the renderer's set :data:`EVAL_SEED` (training uses other seeds), mAP50, mAP50-95
  and AP per class.

AP is computed over every candidate, as ultralytics validates (:data:`AP_OPTIONS`: conf 0.001, NMS per class);
precision and recall over what ``jantaku read`` reports at the operating threshold (one class per tile).
- Real photos: :func:`vision.eval.real_photos.held_out_split` (no training run sees it): precision, recall, mAP50, per
  class.
- camerash: 628 web photos of single Chinese-set tiles (evaluation only, never training): top-1 accuracy on the 34
  kinds we share (their seasons and flowers are not ours; they have no red fives, so a predicted red five counts as
  its five), and a confusion table.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.eval.metrics import DetectionResult, Pred, Truth, evaluate, map50_interval
from vision.read.detector import Detector, DetectorOptions, SlicedDetector
from vision.read.errors import UnreadableImage
from vision.read.geometry import Box
from vision.read.images import load_image
from vision.read.postprocess import Raw, nms

#: The renderer seed of the rendered held-out set. Training must never render with it.
EVAL_SEED = 90210

#: camerash's 240 x 320 crops beside the checkout; ``JANTAKU_CAMERASH`` overrides.
DEFAULT_CAMERASH = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-crops" / "camerash"

_CAMERASH_SUITS = {"dots": "p", "bamboo": "s", "characters": "m"}
_CAMERASH_HONOURS = {
    "east": "1z",
    "south": "2z",
    "west": "3z",
    "north": "4z",
    "white": "5z",
    "green": "6z",
    "red": "7z",
}

Progress = Callable[[int, int], None] | None


def _preds(image_id, detections) -> list[Pred]:
    return [Pred(image_id, d.class_id, (d.box.x1, d.box.y1, d.box.x2, d.box.y2), d.conf) for d in detections]


#: Candidates for AP are found as ultralytics validates: every class of every box down to conf 0.001, NMS per class
#: at IoU 0.7.
AP_OPTIONS = DetectorOptions(conf=0.001, iou=0.7, multi_label=True)


def _both(detector: Detector, image: np.ndarray, conf: float, image_id) -> tuple[list[Pred], list[Pred]]:
    """(candidates for AP, what ``jantaku read`` reports at ``conf``) from one network pass over ``image``.

    A :class:`SlicedDetector` gives both; any other detector gives its one answer for both.
    """
    if not isinstance(detector, SlicedDetector):
        found = _preds(image_id, detector.detect(image))
        return found, found
    ap_detector = SlicedDetector(
        detector.network, replace(detector.options, conf=AP_OPTIONS.conf, iou=AP_OPTIONS.iou, multi_label=True)
    )
    found = ap_detector.candidates(image)
    pooled = Raw.concat([c.raw for c in found])
    pooled = pooled.take(nms(pooled, AP_OPTIONS.iou))  # slices of one frame, per class
    candidates = [
        Pred(image_id, int(c), tuple(float(v) for v in b), float(sc))
        for b, sc, c in zip(pooled.boxes, pooled.scores, pooled.classes, strict=True)
    ]
    read = ap_detector.merge(found, replace(detector.options, conf=conf))  # one class per tile, as read
    return candidates, _preds(image_id, read)


@dataclass(frozen=True)
class Results:
    """The detector's AP and P/R; and P/R of what a second-stage reader reports (None without one)."""

    detector: DetectionResult
    read: DetectionResult | None = None
    #: the detector's mAP50 as a 95 % bootstrap interval over images (:func:`vision.eval.metrics.map50_interval`)
    map50_interval: tuple[float, float] | None = None


def _results(truths, preds, conf: float, read: list[Pred], two: list[Pred] | None) -> Results:
    return Results(
        evaluate(truths, preds, conf, read),
        None if two is None else evaluate(truths, preds, conf, two),
        map50_interval(truths, preds),
    )


#: Rendered held-out images measured by default: enough that the figure moves little from seed to seed (a few
#: hundred do not; :func:`vision.eval.metrics.map50_interval` gives the interval).
RENDERED_IMAGES = 1000


def eval_rendered(
    detector: Detector,
    n: int = RENDERED_IMAGES,
    seed: int = EVAL_SEED,
    conf_threshold: float = 0.25,
    progress: Progress = None,
    reader: Detector | None = None,
) -> Results:
    """The detector on rendered images ``0..n-1`` of set ``seed`` (read at their own size); with ``reader`` (the
    detector with a second stage, as ``jantaku read`` reads), P and R of that too."""
    from vision.synth import render

    truths: list[Truth] = []
    preds: list[Pred] = []
    read: list[Pred] = []
    two: list[Pred] = []
    for i in range(n):
        sample = render(seed, i)
        truths += [Truth(i, label.class_id, label.box) for label in sample.labels]
        candidates, found = _both(detector, sample.image, conf_threshold, i)
        preds += candidates
        read += found
        if reader is not None:
            two += _preds(i, reader.detect(sample.image))
        if progress:
            progress(i + 1, n)
    return _results(truths, preds, conf_threshold, read, two if reader is not None else None)


def eval_real(
    detector: Detector,
    root: str | os.PathLike[str] | None = None,
    conf_threshold: float = 0.25,
    progress: Progress = None,
    reader: Detector | None = None,
) -> Results:
    """The detector on the held-out real photos (labels mapped to our classes by :mod:`vision.eval.real_photos`); with
    ``reader``, P and R of that too. A box mostly on a tile the labels leave out (``RealPhoto.in_unlabelled``) is
    counted neither right nor wrong."""
    from vision.eval.real_photos import held_out_split

    photos = held_out_split(root)
    truths: list[Truth] = []
    preds: list[Pred] = []
    read: list[Pred] = []
    two: list[Pred] = []
    for i, photo in enumerate(photos):
        image = load_image(photo.image)
        h, w = image.shape[:2]
        truths += [Truth(i, b.class_id, b.xyxy(w, h)) for b in photo.boxes]
        candidates, found = _both(detector, image, conf_threshold, i)
        preds += _labelled(photo, candidates, h, w)
        read += _labelled(photo, found, h, w)
        if reader is not None:
            two += _labelled(photo, _preds(i, reader.detect(image)), h, w)
        if progress:
            progress(i + 1, len(photos))
    return _results(truths, preds, conf_threshold, read, two if reader is not None else None)


def _labelled(photo, found: list[Pred], height: int, width: int) -> list[Pred]:
    """``found`` less the boxes on tiles ``photo``'s labels leave out (counted neither way)."""
    return [p for p in found if not photo.in_unlabelled(Box(*p.box), width, height)]


def camerash_tile(label_name: str) -> Tile | None:
    """Our tile for a camerash label (``dots-5`` -> 5p, ``honors-green`` -> 6z); None for seasons and flowers.

    >>> [camerash_tile(n) for n in ("dots-5", "characters-9", "honors-white", "bonus-plum")]
    [Tile.parse('5p'), Tile.parse('9m'), Tile.parse('5z'), None]
    """
    group, _, value = label_name.strip().partition("-")
    if group in _CAMERASH_SUITS and value.isdigit():
        return Tile.parse(value + _CAMERASH_SUITS[group])
    if group == "honors" and value in _CAMERASH_HONOURS:
        return Tile.parse(_CAMERASH_HONOURS[value])
    return None


#: Felt green (BGR) of the frame a lone tile photo is placed on.
FELT = (60, 110, 40)


def on_table(
    image: np.ndarray, factor: float = 8.0, colour: tuple[int, int, int] = FELT, long_side: int | None = 640
) -> np.ndarray:
    """A close-up tile photo shown as a camera sees a tile on a table: in the middle of a felt frame ``factor`` times
    its size (the tile spans 1/``factor`` of the frame, 12.5 % by default, where the training tiles lie: 4-15 % of
    the frame's long side), the frame then scaled to ``long_side`` pixels (None: kept at full size).

    camerash photos are cropped to the tile's face, so the tile's outline is the photo's edge.
    """
    h, w = image.shape[:2]
    big_h, big_w = round(h * factor), round(w * factor)
    scale = 1.0 if long_side is None else long_side / max(big_h, big_w)
    if scale < 1:
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        h, w = image.shape[:2]
        big_h, big_w = round(big_h * scale), round(big_w * scale)
    out = np.empty((big_h, big_w, 3), np.uint8)
    out[:] = colour
    y, x = (big_h - h) // 2, (big_w - w) // 2
    out[y : y + h, x : x + w] = image
    return out


@dataclass(frozen=True)
class CropResult:
    """Top-1 on single-tile photos: per true tile, the predictions (None: nothing face up found)."""

    predictions: dict[Tile, Counter] = field(default_factory=dict)
    skipped: int = 0

    @property
    def n(self) -> int:
        return sum(sum(c.values()) for c in self.predictions.values())

    @property
    def correct(self) -> int:
        return sum(c[t] for t, c in self.predictions.items())

    @property
    def top1(self) -> float:
        return self.correct / self.n if self.n else 0.0

    def confusions(self) -> list[tuple[Tile, Tile | None, int]]:
        """(true, predicted, count) for every wrong prediction, most frequent first."""
        out = [(t, p, k) for t, c in self.predictions.items() for p, k in c.items() if p != t]
        return sorted(out, key=lambda x: (-x[2], x[0], str(x[1])))


#: camerash photos labelled wrong, each checked by eye: image -> (the label's name, the tile's name). 133 shows
#: eight blue rings in two columns (a pin tile, no character); 350 nine pins under a printed "9".
CAMERASH_LABEL_FIXES = {
    "133.jpg": ("characters-8", "dots-8"),
    "350.jpg": ("dots-8", "dots-9"),
}


def camerash_rows(root: str | os.PathLike[str] | None = None) -> tuple[Path, list[tuple[str, str]]]:
    """The camerash set's folder and its (image name, label name) rows, with :data:`CAMERASH_LABEL_FIXES` applied
    where a row still carries the label a fix corrects; ``JANTAKU_CAMERASH`` overrides the place."""
    base = Path(root) if root is not None else Path(os.environ.get("JANTAKU_CAMERASH", DEFAULT_CAMERASH))
    table = base / "tiles-data" / "data.csv"
    if not table.is_file():
        raise FileNotFoundError(f"camerash labels not found at {table} (set JANTAKU_CAMERASH)")
    with table.open(encoding="utf-8-sig", newline="") as f:
        rows = [(r["image-name"], r["label-name"]) for r in csv.DictReader(f)]
    return base, [(name, _fixed_label(name, label)) for name, label in rows]


def _fixed_label(name: str, label: str) -> str:
    was, tile = CAMERASH_LABEL_FIXES.get(name, (None, None))
    return tile if label == was else label


def eval_crops(
    detector: Detector,
    root: str | os.PathLike[str] | None = None,
    *,
    placement: str = "table",
    progress: Progress = None,
) -> CropResult:
    """Top-1 of the detector's most confident face-up tile on each camerash photo of a tile we share.

    ``placement``: ``table`` shows the photo as a tile on a table (:func:`on_table`), ``as-is`` reads the close-up
    photo as it is (the tile fills the frame, far bigger than any tile the model learnt).
    """
    base, rows = camerash_rows(root)
    predictions: dict[Tile, Counter] = {}
    skipped = 0
    for i, (name, label) in enumerate(rows):
        truth = camerash_tile(label)
        if truth is None:
            skipped += 1
            continue
        try:
            best = _most_confident_face(detector, base / "tiles-resized" / name, placement)
        except UnreadableImage:
            skipped += 1
            continue
        predictions.setdefault(truth, Counter())[best.deaka() if best else None] += 1
        if progress:
            progress(i + 1, len(rows))
    return CropResult(dict(sorted(predictions.items())), skipped)


def eval_bonus(detector: Detector, root: str | os.PathLike[str] | None = None, *, placement: str = "as-is") -> Counter:
    """What the detector reads on camerash's flower and season tiles (Chinese sets' bonus tiles, no riichi tile):
    its most confident face-up tile per photo, None for nothing. Every tile it names there is a false positive."""
    base, rows = camerash_rows(root)
    read: Counter = Counter()
    for name, label in rows:
        if camerash_tile(label) is not None or not label.startswith("bonus-"):
            continue
        try:
            read[_most_confident_face(detector, base / "tiles-resized" / name, placement)] += 1
        except UnreadableImage:
            continue
    return read


def _most_confident_face(detector: Detector, path: Path, placement: str) -> Tile | None:
    """The most confident face-up tile the detector reads on one camerash photo (placed as ``placement`` says:
    see :func:`eval_crops`), None for none."""
    image = load_image(path)
    if placement == "table":
        image = on_table(image)
    faces = [d for d in detector.detect(image) if d.tile is not None]
    return max(faces, key=lambda d: d.conf).tile if faces else None


def class_table(result: DetectionResult, names: Sequence[str]) -> list[dict]:
    """Rows for printing: class name, ground-truth count, AP50, AP50-95, precision, recall."""
    return [
        {
            "class": names[c.class_id],
            "n": c.n_truth,
            "ap50": round(c.ap50, 4),
            "ap50_95": round(c.ap50_95, 4),
            "precision": round(c.precision, 4),
            "recall": round(c.recall, 4),
        }
        for c in result.per_class.values()
    ]
