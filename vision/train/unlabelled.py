"""Training on photos whose labels leave tiles out: what a detector finds there that no label names is painted out.

alanchoi00's photos label one player's hand; the discards in the middle, the other players' racks and the walls,
face up or down, are in the photo but unlabelled (in 4 of 10 training photos, 3 or more tiles the shipped
detector is sure of). Trained on as they are, they teach a detector that a tile lying on the table is background,
and crops of them teach the classifier that a tile is ``none``. So before training, every box the shipped
detector finds (:data:`PAINT_CONF` and up) that overlaps no labelled box is painted the letterbox grey, and the
labelled tiles are put back over the paint: the photo keeps its labelled tiles, its cloth, racks and hands, and
nothing it shows is taught wrong. A tile the detector misses stays, unlabelled: fewer than before, not none.

    photo_image = painted_out(image, unlabelled_finds(truth, found), keep=truth)

alanchoi00's labels box a tile's face only, where our detector boxes the whole tile (its boxes on alanchoi00's
photos are about 1.25 x as wide and 1.20 x as tall as the labels): trained on as they are, they pull the detector's
boxes tighter. ``box_scale`` grows each label about its centre (:func:`grown`) before the photo is painted and
written.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.eval.real_photos import RealBox, RealPhoto
from vision.read.geometry import Box
from vision.read.images import load_image
from vision.read.labels import labels_text
from vision.read.postprocess import PAD_VALUE

#: The detector's lowest confidence for what it finds to be painted out: low, since painting a phantom out costs
#: little (a patch of cloth unseen) and leaving a tile in costs a wrong lesson.
PAINT_CONF = 0.15
#: A find overlapping a labelled box by this IoU or more is that tile (boxed differently), not one left out.
SAME_TILE_IOU = 0.2
#: The least and the most a label's width or height may be scaled by (:func:`check_box_scale`).
BOX_SCALE_RANGE = (0.5, 2.0)
#: A find over this many times the largest labelled tile's area is no tile of that photo (a box round a whole group,
#: read from afar): painting it would grey out the photo.
MOST_AREA = 3.0


def check_box_scale(scale: tuple[float, float]) -> tuple[float, float]:
    """``scale`` (width and height factors) as floats; ValueError unless both lie in :data:`BOX_SCALE_RANGE`."""
    low, high = BOX_SCALE_RANGE
    if len(scale) != 2 or not all(math.isfinite(f) and low <= f <= high for f in scale):
        raise ValueError(f"a box scale is two factors (width, height) within {low:g}..{high:g}, not {scale!r}")
    return float(scale[0]), float(scale[1])


def grown(box: RealBox, scale: tuple[float, float]) -> RealBox:
    """``box`` (shares of its image) with its width and height times ``scale``'s factors about its centre, then
    clipped to the image (a box at the edge grows inwards only).

    >>> str(grown(RealBox(3, 0.5, 0.5, 0.2, 0.1), (1.5, 2.0)))
    '3 0.500000 0.500000 0.300000 0.200000'
    >>> str(grown(RealBox(3, 0.05, 0.5, 0.1, 0.1), (2.0, 1.0)))  # at the left edge: it grows inwards only
    '3 0.075000 0.500000 0.150000 0.100000'
    """
    half_w, half_h = box.w * scale[0] / 2, box.h * scale[1] / 2
    x1, x2 = max(0.0, box.cx - half_w), min(1.0, box.cx + half_w)
    y1, y2 = max(0.0, box.cy - half_h), min(1.0, box.cy + half_h)
    return replace(box, cx=(x1 + x2) / 2, cy=(y1 + y2) / 2, w=x2 - x1, h=y2 - y1)


def unlabelled_finds(truth: Sequence[Box], found: Iterable[Box]) -> list[Box]:
    """The boxes of ``found`` that overlap every box of ``truth`` by less than :data:`SAME_TILE_IOU` and are
    tile-sized (at most :data:`MOST_AREA` times the largest of ``truth``; any size when there is no truth)."""
    largest = max((t.area for t in truth), default=float("inf"))
    return [box for box in found if box.area <= MOST_AREA * largest and all(box.iou(t) < SAME_TILE_IOU for t in truth)]


def painted_out(image: np.ndarray, boxes: Sequence[Box], keep: Sequence[Box]) -> np.ndarray:
    """A copy of ``image`` with ``boxes`` painted the letterbox grey, then ``keep``'s pixels put back."""
    out = image.copy()
    h, w = image.shape[:2]

    def pixels(box: Box) -> tuple[slice, slice]:
        x1, y1 = max(0, int(np.floor(box.x1))), max(0, int(np.floor(box.y1)))
        x2, y2 = min(w, int(np.ceil(box.x2))), min(h, int(np.ceil(box.y2)))
        return slice(y1, max(y1, y2)), slice(x1, max(x1, x2))

    for box in boxes:
        out[pixels(box)] = PAD_VALUE
    for box in keep:
        rows, cols = pixels(box)
        out[rows, cols] = image[rows, cols]
    return out


def painted_photos(photos: Iterable[RealPhoto], detector) -> Iterator[tuple[RealPhoto, np.ndarray, int]]:
    """Each photo, its image with the tiles its labels leave out painted out (``detector``: a
    :class:`~vision.read.detector.Detector` at :data:`PAINT_CONF`), and how many boxes were painted."""
    for photo in photos:
        image = load_image(photo.image)
        h, w = image.shape[:2]
        truth = [Box(*b.xyxy(w, h)) for b in photo.boxes]
        flowers = [Box(*r) for r in photo.unlabelled_xyxy(w, h)]  # labelled, as no riichi tile: not painted
        boxes = unlabelled_finds(truth + flowers, (d.box for d in detector.detect(image)))
        yield photo, painted_out(image, boxes, keep=truth + flowers), len(boxes)


def write_painted_yolo(
    photos: Iterable[RealPhoto],
    out: str | os.PathLike[str],
    detector,
    repeats: int = 1,
    box_scale: tuple[float, float] = (1.0, 1.0),
) -> tuple[int, int]:
    """Write the painted photos as a YOLO folder (``images/``, ``labels/``; each photo ``repeats`` times, its image
    written once), each label :func:`grown` by ``box_scale`` (width, height factors; 1, 1: as labelled); returns
    (images written, boxes painted)."""
    box_scale = check_box_scale(box_scale)
    if box_scale != (1.0, 1.0):
        # The grown boxes stand for the labelled tiles in the painting too, not the labelled faces: the detector's
        # own box of a labelled tile (its whole body) then matches its label and is not painted as a tile left
        # out, and the pixels put back over the paint are the whole grown box, so that no neighbour's paint greys
        # the rim of a tile its label now takes in (a label round grey would teach a box round nothing).
        photos = (replace(p, boxes=tuple(grown(b, box_scale) for b in p.boxes)) for p in photos)
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir(parents=True)
    written = painted = 0
    for photo, image, n in painted_photos(photos, detector):
        painted += n
        first = out / "images" / f"real_{photo.folder}_{photo.source}_0.jpg"
        cv2.imwrite(str(first), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = labels_text(photo.boxes)
        for r in range(repeats):
            stem = f"real_{photo.folder}_{photo.source}_{r}"
            if r:
                (out / "images" / f"{stem}.jpg").symlink_to(first.name)
            (out / "labels" / f"{stem}.txt").write_text(lines, encoding="utf-8")
            written += 1
    return written, painted


def shipped_finder():
    """The shipped detector at :data:`PAINT_CONF`, reading a photo at its tiles' scale (no classifier)."""
    from vision.read.detector import DetectorOptions, OnnxNetwork, default_model_path
    from vision.read.scale import PhotoDetector

    return PhotoDetector(OnnxNetwork(default_model_path()), DetectorOptions(conf=PAINT_CONF, weak_conf=None))
