"""Measuring the red-five colour check (:mod:`vision.red_fives`): red vs plain on rendered fives, false reds on real
ones.

- Rendered: the labelled fives of the renderer's held-out set (:data:`~vision.evaluation.EVAL_SEED`), each crop read
  by the crop classifier; among those it reads as the right five (5m or 0m for a 5m ...), how often the red flag is
  right as the network reads it and after the colour check.
- Real: the fives of the real photos (held-out and training splits) and of camerash (evaluation only); none is red,
  so every red verdict is a false red.

Run: ``python -m vision.red_five_evaluation [--n 1000]`` (one thread; prints the figures).
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.tiles import Tile
from vision.classifier import OnnxTileClassifier, native_crop
from vision.evaluation import EVAL_SEED, FELT, camerash_rows, camerash_tile
from vision.geometry import Box
from vision.labels import tile_of_class
from vision.red_fives import RedFiveOptions, Verdict, check_red_five, is_five


@dataclass
class RedFlagResult:
    """Red vs plain among fives read as the right five: right before (network) and after (with the check)."""

    n: int = 0
    right_network: int = 0
    right_checked: int = 0
    verdicts: Counter = field(default_factory=Counter)  # (truth "red"/"plain", verdict) -> count
    wrong_kind: int = 0  # fives the network read as another tile (not counted in n)

    def add(self, truth: Tile, read: Tile | None, verdict: Verdict, checked: Tile | None) -> None:
        if read is None or read.deaka() != truth.deaka():
            self.wrong_kind += 1
            return
        self.n += 1
        self.right_network += read.red == truth.red
        self.right_checked += checked is not None and checked.red == truth.red
        self.verdicts[("red" if truth.red else "plain", verdict.value)] += 1

    def line(self) -> str:
        if not self.n:
            return "no fives"
        return (
            f"{self.n} fives read as the right five: red/plain right {self.right_network / self.n:.3f} network only, "
            f"{self.right_checked / self.n:.3f} with the check; verdicts {dict(sorted(self.verdicts.items()))}; "
            f"{self.wrong_kind} read as another tile"
        )


def eval_rendered(
    classifier: OnnxTileClassifier, n: int = 1000, seed: int = EVAL_SEED, options: RedFiveOptions | None = None
) -> RedFlagResult:
    """The labelled fives of rendered images ``0..n-1`` of set ``seed``, read by ``classifier``, then checked."""
    from vision.synth import render

    result = RedFlagResult()
    for i in range(n):
        sample = render(seed, i)
        labels = [lab for lab in sample.labels if is_five(tile_of_class(lab.class_id))]
        if not labels:
            continue
        boxes = [Box(*lab.box) for lab in labels]
        for lab, box, guess in zip(labels, boxes, classifier.classify(sample.image, boxes), strict=True):
            truth, read = tile_of_class(lab.class_id), tile_of_class(guess.class_id)
            if read is None or not is_five(read):
                result.add(truth, read, Verdict.UNSURE, None)
                continue
            check = check_red_five(native_crop(sample.image, box, classifier.margin), read, *_opts(options))
            result.add(truth, read, check.verdict, check.tile(read))
    return result


def _opts(options: RedFiveOptions | None) -> tuple:
    return () if options is None else (options,)


def false_reds(crops: Iterable[tuple[np.ndarray, Tile]], options: RedFiveOptions | None = None) -> Counter:
    """Verdicts on crops of plain fives: ``Counter`` of verdict values (every ``red`` is a false red)."""
    return Counter(check_red_five(crop, tile, *_opts(options)).verdict.value for crop, tile in crops)


def real_photo_fives(split: str) -> Iterable[tuple[np.ndarray, Tile]]:
    """(crop, tile) of every labelled five of the real photos' ``held-out`` or ``training`` split."""
    from vision.images import load_image
    from vision.real_photos import held_out_split, training_split

    photos = held_out_split() if split == "held-out" else training_split()
    for photo in photos:
        fives = [b for b in photo.boxes if is_five(tile_of_class(b.class_id))]
        if not fives:
            continue
        image = load_image(photo.image)
        h, w = image.shape[:2]
        for b in fives:
            yield native_crop(image, Box(*b.xyxy(w, h))), tile_of_class(b.class_id)


def camerash_fives(root: str | os.PathLike[str] | None = None) -> Iterable[tuple[np.ndarray, Tile]]:
    """(crop, tile) of camerash's fives (characters-5, dots-5, bamboo-5), cropped as the reader crops a tile: each
    photo is the tile's face, so it is set on felt and its whole extent is the box."""
    from vision.images import load_image

    base, rows = camerash_rows(root)
    for name, label in rows:
        tile = camerash_tile(label)
        if tile is None or not is_five(tile):
            continue
        image = load_image(base / "tiles-resized" / name)
        h, w = image.shape[:2]
        pad = max(h, w) // 4
        frame = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=FELT)
        yield native_crop(frame, Box(float(pad), float(pad), float(pad + w), float(pad + h))), tile


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="rendered held-out images")
    parser.add_argument("--classifier", default=None, help="crop classifier (default: the shipped one)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    from vision.classifier import SHIPPED_CLASSIFIER

    for split in ("held-out", "training"):
        print(f"real photos {split}: {dict(false_reds(real_photo_fives(split)))}")
    print(f"camerash: {dict(false_reds(camerash_fives()))}")
    classifier = OnnxTileClassifier(args.classifier or SHIPPED_CLASSIFIER, threads=1)
    print(f"rendered seed {EVAL_SEED}, {args.n} images: {eval_rendered(classifier, args.n).line()}")


if __name__ == "__main__":
    main()
