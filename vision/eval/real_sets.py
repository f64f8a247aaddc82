"""Real photos read whole, as ``jantaku read`` reads a phone's photo: per set, tiles right, photos read exactly, runs.

The sets (:data:`SETS`) are the real labelled photos no model was trained on: leo-miura's held-out split and
alanchoi00's ``valid`` and ``test`` photos (other physical sets), less the photos whose labels are wrong or that the
export stretched past any camera's view (:data:`SET_ASIDE`). A red five counts as its plain five on both sides
(alanchoi00 labels none; a red five's flag is checked by colour, :mod:`vision.eval.red_five_evaluation`). Flowers,
the tiles a set leaves unlabelled (:attr:`Shot.unlabelled`) and backs (neither set labels them) are forgiven either
way; a box on an alanchoi00 tile holding its face-only label is that tile (:attr:`Shot.face_labels`).

    results = evaluate_sets({"shipped": reader}, ["alanchoi00-valid"])
    results["alanchoi00-valid"]["shipped"].as_json()     # precision, recall, f1, exact, shots, runs per photo
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from vision.eval import other_sets, real_photos
from vision.eval.labelled_backs import BackTally, labelled_backs
from vision.eval.phone_evaluation import Shot, Tally, score
from vision.eval.real_photos import RealPhoto
from vision.read.detector import Detection
from vision.read.geometry import Box
from vision.read.images import load_image
from vision.read.labels import CLASS_NAMES
from vision.read.pipeline import Reader

#: The sets by name: how to load each one's photos (those whose labels can judge a reader).
SETS: dict[str, Callable[[], list[RealPhoto]]] = {
    "leo-held-out": real_photos.held_out_split,
    "alanchoi00-valid": lambda: other_sets.sound_photos("valid")[0],
    "alanchoi00-test": lambda: other_sets.sound_photos("test")[0],
}

#: The photos of each set left out of :data:`SETS` as no judge of a reader (:func:`other_sets.why_set_aside`).
SET_ASIDE: dict[str, Callable[[], list[RealPhoto]]] = {
    "alanchoi00-valid": lambda: other_sets.sound_photos("valid")[1],
    "alanchoi00-test": lambda: other_sets.sound_photos("test")[1],
}

_PLAIN = {CLASS_NAMES.index(red): CLASS_NAMES.index("5" + red[1]) for red in ("0m", "0p", "0s")}


def plain_class(class_id: int) -> int:
    """A red five's class as its plain five; any other class as it is.

    >>> CLASS_NAMES[plain_class(CLASS_NAMES.index("0p"))], CLASS_NAMES[plain_class(CLASS_NAMES.index("7z"))]
    ('5p', '7z')
    """
    return _PLAIN.get(class_id, class_id)


def plain_detection(d: Detection) -> Detection:
    """The detection with a red five read as its plain five."""
    return replace(d, tile=d.tile.deaka()) if d.tile is not None and d.tile.red else d


def shot_of(photo: RealPhoto) -> Shot:
    """The photo as it is (its kind: the file's name), its truth in plain fives, its unlabelled regions (flowers
    among them) forgiven, and a back read on it not judged: neither set labels the backs its photos show. alanchoi00's
    labels box faces alone (:attr:`Shot.face_labels`)."""
    image = load_image(photo.image)
    height, width = image.shape[:2]
    truth = tuple((plain_class(b.class_id), Box(*b.xyxy(width, height))) for b in photo.boxes)
    unlabelled = tuple(Box(*r) for r in photo.unlabelled_xyxy(width, height))
    faces = photo.folder == other_sets.NAME  # alanchoi00 boxes a tile's face alone
    return Shot(photo.image.name, image, truth, unlabelled=unlabelled, backs_judged=False, face_labels=faces)


def shots(name: str, limit: int | None = None, every: int = 1) -> Iterator[Shot]:
    """The shots of one set of :data:`SETS`, in its order: every ``every``-th photo from the first (the first
    ``limit`` of those only, when given)."""
    if name not in SETS:
        raise ValueError(f"no real set {name!r}: the sets are {', '.join(SETS)}")
    if every < 1:
        raise ValueError(f"every {every}th photo: at least 1")
    for photo in SETS[name]()[::every][:limit]:
        yield shot_of(photo)


@dataclass
class SetResult:
    """One reader on one set: the tally, and the onnxruntime runs each photo took."""

    tally: Tally = field(default_factory=Tally)
    runs: list[int] = field(default_factory=list)
    #: Photos not read exactly: (file name, tiles right, boxes reported, tiles there).
    misses: list[tuple[str, int, int, int]] = field(default_factory=list)
    #: The set's photos not read, their labels wrong or the photo stretched past any camera's view (:data:`SET_ASIDE`).
    set_aside: list[str] = field(default_factory=list)
    #: The backs labelled by eye that the reader still reads (:mod:`vision.eval.labelled_backs`); None for a set
    #: with none.
    backs: BackTally | None = None

    def as_json(self) -> dict:
        runs = sorted(self.runs)
        backs = {} if self.backs is None else {"labelled_backs": self.backs.as_json()}
        return (
            self.tally.as_json()
            | {
                "runs_median": runs[len(runs) // 2] if runs else None,
                "runs_max": runs[-1] if runs else None,
                "set_aside": len(self.set_aside),
            }
            | backs
        )


def evaluate_sets(
    readers: dict[str, Reader], names: Sequence[str], limit: int | None = None, every: int = 1
) -> dict[str, dict[str, SetResult]]:
    """Per set, per reader: what it read of each photo whole (:func:`~vision.eval.phone_evaluation.score`), and of
    the set's backs labelled by eye (:mod:`vision.eval.labelled_backs`); every ``every``-th photo of each set only,
    when given."""
    out: dict[str, dict[str, SetResult]] = {}
    for name in names:
        aside = [p.image.name for p in SET_ASIDE[name]()] if name in SET_ASIDE else []
        backs = labelled_backs(name)
        results = out.setdefault(
            name, {r: SetResult(set_aside=list(aside), backs=BackTally() if backs else None) for r in readers}
        )
        for shot in shots(name, limit, every):
            for label, reader in readers.items():
                started = time.perf_counter()
                reading = reader.read(shot.image)
                ms = (time.perf_counter() - started) * 1000
                found = [plain_detection(d) for d in reading.detections]
                right, reported = score(shot, found)
                result = results[label]
                exact = result.tally.count(right, reported, len(shot.truth), ms)
                result.runs.append(reading.runs)
                if result.backs is not None:
                    result.backs.count(backs.get(shot.kind, ()), reading.detections)
                if not exact:
                    result.misses.append((shot.kind, right, reported, len(shot.truth)))
    return out
