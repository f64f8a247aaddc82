"""Real photos of other physical sets: alanchoi00's phone photos (``../shared/data/real-photos/alanchoi00``).

The set ("chinese-mahjong-detection" v4, riichimahjongdetection on Roboflow Universe, CC BY 4.0) shows several Hong
Kong / Chinese style sets on mats, wood, trays and racks. Its class ids 0-33 name ``1m``...``7z`` in the same order
as ours; 34 is ``flower`` (flowers and seasons: a tile body but no riichi tile). A flower is no tile at a riichi
table, so a reader is not asked to find one and not held to account for one: its box is an
:attr:`~vision.eval.real_photos.RealPhoto.unlabelled` region here, and training reads it as background.

Some photos cannot judge a reader, and :func:`sound_photos` sets them aside (:func:`why_set_aside`):
- seven ``valid`` photos (``IMG_2778``...``IMG_2788``) label every tile ``1p`` (9m, 3s, 8p among them): their labels
  name no tile at all;
- 33 ``valid`` photos and one of ``test`` are a strip of a photo stretched to the export's square, ten times or more
  one way: tiles no camera shows.

``train/`` holds one copy of each distinct training photo (Roboflow's augmented copies dropped); ``valid/`` and
``test/`` were never augmented and are for validation only.

>>> class_of_alanchoi(0), class_of_alanchoi(31), class_of_alanchoi(34)
(0, 31, None)
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from pathlib import Path

from vision.eval.real_photos import RealBox, RealPhoto
from vision.read.labels import CLASS_NAMES, boxes_and_skipped

#: Where the set lies in a checkout (``/work/main`` beside ``/work/shared``); ``JANTAKU_ALANCHOI`` overrides.
DEFAULT_ROOT = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-photos" / "alanchoi00"

#: The set's folder name, as :attr:`RealPhoto.folder` records it.
NAME = "alanchoi00"

SPLITS = ("train", "valid", "test")

#: The set's class list (``classes.txt``): ours for 0-33, then the flowers.
ALANCHOI_NAMES = (*CLASS_NAMES[:34], "flower")
FLOWER = 34


#: More boxes naming one tile than this in a photo are no set's tiles but a label gone wrong: a set holds four of
#: each tile, a Hong Kong set up to eight White dragons with its spare blanks.
MOST_OF_ONE_TILE = 8


#: A photo whose labelled boxes are (in the median) this many times as tall as wide, or as wide as tall, was
#: stretched past any lens's view by the export (the set's photos: 0.41-2.75, or 5.1 and more).
MOST_STRETCH = 4.0


def class_of_alanchoi(class_id: int) -> int | None:
    """Our class id for one of the set's ids; None for a flower."""
    if not 0 <= class_id < len(ALANCHOI_NAMES):
        raise ValueError(f"alanchoi00 has no class {class_id}")
    return None if class_id == FLOWER else class_id


def root_dir(root: str | os.PathLike[str] | None = None) -> Path:
    """The set's directory: the argument, else ``$JANTAKU_ALANCHOI``, else the shared data beside the checkout."""
    path = Path(root) if root is not None else Path(os.environ.get("JANTAKU_ALANCHOI", DEFAULT_ROOT))
    if not (path / "classes.txt").is_file():
        raise FileNotFoundError(
            f"alanchoi00's photos not found at {path} (classes.txt missing): the chinese-mahjong-detection v4 set"
            " (CC BY 4.0) of ../shared/data/real-photos; set JANTAKU_ALANCHOI to it"
        )
    names = tuple((path / "classes.txt").read_text(encoding="utf-8").split())
    if names != ALANCHOI_NAMES:
        raise ValueError(f"{path}/classes.txt lists {names[:3]}...: not the class order this loader maps")
    return path


def load_split(split: str, root: str | os.PathLike[str] | None = None) -> list[RealPhoto]:
    """One split's photos, boxes in our classes, flowers as unlabelled regions; in file-name order."""
    if split not in SPLITS:
        raise ValueError(f"alanchoi00 has splits {', '.join(SPLITS)}, not {split!r}")
    folder = root_dir(root) / split
    photos = []
    for image in sorted((folder / "images").glob("*.jpg")):
        path = folder / "labels" / (image.stem + ".txt")
        boxes: list[RealBox] = []
        flowers: list[tuple[float, float, float, float]] = []
        read, skipped = boxes_and_skipped(path.read_text(encoding="utf-8") if path.exists() else "")
        for _, label in read:
            cx, cy, w, h = label.cx, label.cy, label.w, label.h
            ours = class_of_alanchoi(label.class_id)
            if ours is None:
                flowers.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
            else:
                boxes.append(RealBox(ours, cx, cy, w, h))
        photos.append(RealPhoto(image, NAME, split, image.stem, tuple(boxes), skipped, tuple(flowers)))
    return photos


def mislabelled(photo: RealPhoto) -> bool:
    """Whether ``photo``'s labels name one tile more often than a set holds it (:data:`MOST_OF_ONE_TILE`).

    >>> from dataclasses import replace
    >>> box = RealBox(9, 0.5, 0.5, 0.1, 0.2)
    >>> photo = RealPhoto(Path("IMG_2778_JPG.jpg"), NAME, "valid", "IMG_2778_JPG", (box,) * 14)
    >>> mislabelled(photo), mislabelled(replace(photo, boxes=(box,) * 4))
    (True, False)
    """
    counts = Counter(b.class_id for b in photo.boxes)
    return bool(counts) and max(counts.values()) > MOST_OF_ONE_TILE


def stretched(photo: RealPhoto) -> bool:
    """Whether ``photo``'s boxes are, in the median, :data:`MOST_STRETCH` times as tall as wide or more, or as wide as
    tall (the set's photos are square exports: a box's shares of the photo compare as its pixels do).

    >>> tall = RealBox(3, 0.5, 0.5, 0.06, 0.9)
    >>> photo = RealPhoto(Path("a.jpg"), NAME, "valid", "a", (tall,) * 3)
    >>> stretched(photo), stretched(RealPhoto(Path("b.jpg"), NAME, "valid", "b", (RealBox(3, 0.5, 0.5, 0.1, 0.14),)))
    (True, False)
    """
    if not photo.boxes:
        return False
    ratio = statistics.median(b.h / b.w for b in photo.boxes)
    return not 1 / MOST_STRETCH < ratio < MOST_STRETCH


def why_set_aside(photo: RealPhoto) -> str | None:
    """Why ``photo`` cannot judge a reader (its labels name one tile more often than a set holds it, or it was
    stretched past any camera's view), or None."""
    if mislabelled(photo):
        return f"its labels name one tile more than {MOST_OF_ONE_TILE} times"
    if stretched(photo):
        return f"stretched: its tiles {MOST_STRETCH:g} times as tall as wide or more, or as wide as tall"
    return None


def sound_photos(split: str, root: str | os.PathLike[str] | None = None) -> tuple[list[RealPhoto], list[RealPhoto]]:
    """One split's photos as :func:`load_split` reads them, parted into those a reader can be judged on and those
    set aside (:func:`why_set_aside`)."""
    sound: list[RealPhoto] = []
    aside: list[RealPhoto] = []
    for photo in load_split(split, root):
        (sound if why_set_aside(photo) is None else aside).append(photo)
    return sound, aside
