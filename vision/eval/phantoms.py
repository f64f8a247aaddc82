"""Phantom tiles: boxes a reader reports over no labelled tile (``jantaku-lab eval phantoms``).

A reader that sees tiles in keyboard keys, cups, phones or an automatic table's slots reports boxes where the labels
have none. On rendered scenes drawn with such things (``jantaku-lab synth --distractors 1``), whose labels name every
readable tile, each reported box whose IoU with every labelled tile is under :data:`PHANTOM_IOU` is a phantom. Tiles
the renderer leaves unlabelled (mostly hidden, seen edge on, or cut by the frame) count too when read: the same for
every model measured.

    scenes = labelled_scenes(Path("datasets/synth4242d_test"))
    tally = count_phantoms(reader, scenes)
    tally.as_json()        # phantoms per image, images with one, the most in one image, P, R, by tile read
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vision.eval.phone_evaluation import Shot, Tally, score
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.images import load_image
from vision.read.labels import parse_labels
from vision.read.pipeline import Reader

#: A reported box overlapping every labelled tile by less than this IoU lies over no tile.
PHANTOM_IOU = 0.2
#: Image files of a YOLO folder's ``images/`` (as ``jantaku-lab synth`` writes them).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def phantoms(found: Iterable[Detection], tiles: Sequence[Box], iou: float = PHANTOM_IOU) -> list[Detection]:
    """The boxes of ``found`` over no tile of ``tiles``: IoU under ``iou`` with each.

    >>> from vision.read.labels import CLASS_NAMES
    >>> tile = Box(0.0, 0.0, 10.0, 14.0)
    >>> on_tile = Detection.of_class(CLASS_NAMES.index("1m"), Box(1.0, 0.0, 11.0, 14.0), 0.9)
    >>> on_key = Detection.of_class(CLASS_NAMES.index("5z"), Box(30.0, 0.0, 40.0, 14.0), 0.4)
    >>> [str(d.tile) for d in phantoms([on_tile, on_key], [tile])]
    ['5z']
    """
    return [d for d in found if all(d.box.iou(t) < iou for t in tiles)]


def labelled_scenes(folder: Path, limit: int | None = None) -> Iterator[Shot]:
    """The images of a YOLO folder (``images/``, ``labels/`` in our classes), in name order (the first ``limit``
    only, when given), as shots: each image with its labelled tiles in pixels."""
    files = sorted(f for f in (Path(folder) / "images").glob("*") if f.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise FileNotFoundError(f"{folder}: no images/ of .jpg or .png files (jantaku-lab synth --out writes one)")
    for path in files[:limit]:
        image = load_image(path)
        height, width = image.shape[:2]
        label_file = path.parent.parent / "labels" / f"{path.stem}.txt"
        labels = parse_labels(label_file.read_text(encoding="utf-8")) if label_file.is_file() else []
        truth = tuple((b.class_id, Box(*b.xyxy(width, height))) for b in labels)
        yield Shot(path.name, image, truth)


@dataclass
class PhantomTally:
    """One reader over a set of labelled scenes: phantom boxes per image, and tiles read right (:class:`Tally`)."""

    tally: Tally = field(default_factory=Tally)
    #: Phantom boxes of each image, in order.
    per_image: list[int] = field(default_factory=list)
    #: Phantom boxes by the tile they were read as (``back`` for a face-down one).
    read_as: Counter = field(default_factory=Counter)

    def add(self, shot: Shot, found: Sequence[Detection], ms: float = 0.0) -> list[Detection]:
        """Count one scene's reading; returns its phantoms."""
        right, reported = score(shot, found)
        self.tally.count(right, reported, len(shot.truth), ms)
        ghosts = phantoms(found, [box for _, box in shot.truth])
        self.per_image.append(len(ghosts))
        self.read_as.update("back" if d.tile is None else str(d.tile) for d in ghosts)
        return ghosts

    def as_json(self) -> dict:
        images = len(self.per_image)
        total = sum(self.per_image)
        return self.tally.as_json() | {
            "phantoms": total,
            "phantoms_per_image": round(total / images, 3) if images else None,
            "images_with_phantoms": sum(1 for n in self.per_image if n),
            "most_in_one_image": max(self.per_image, default=0),
            "read_as": dict(self.read_as.most_common(8)),
        }


def count_phantoms(reader: Reader, scenes: Iterable[Shot]) -> PhantomTally:
    """Read each scene whole with ``reader`` and count its phantoms and its tiles read right."""
    tally = PhantomTally()
    for shot in scenes:
        reading = reader.read(shot.image)
        tally.add(shot, reading.detections, reading.ms)
    return tally
