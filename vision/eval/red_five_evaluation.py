"""Measuring the red-five colour check (:mod:`vision.read.red_fives`): red vs plain on rendered fives, false reds on
real ones.

- Rendered: the labelled fives of the renderer's held-out set (:data:`~vision.eval.evaluation.EVAL_SEED`), each crop
  read by the crop classifier; among those it reads as the right five (5m or 0m for a 5m ...), how often the red flag is
  right as the network reads it and after the colour check.
- Real: the fives of the real photos (held-out and training splits) and of camerash (evaluation only); none is red,
  so every red verdict is a false red.
- Real, inked red: the same fives with their ink repainted red where they lie (:func:`vision.eval.red_ink.inked_red`):
  each is a red five, so every plain verdict is a false plain. No real photo of ours shows a red five; this is the
  nearest measure of how the reader sees one.

Run: ``python -m vision.eval.red_five_evaluation [--n 1000] [--light warm]`` (one thread; prints the figures; a light of
``jantaku-lab eval phone``'s casts every frame). "Check alone" gives the verdicts on the true five's suit; "classifier
then check" reads each five's box with the crop classifier first, as the reader does, and counts red/plain right
among fives it reads as the right five.
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.tiles import Tile
from vision.eval.evaluation import EVAL_SEED, FELT, camerash_rows, camerash_tile
from vision.eval.red_ink import inked_red
from vision.read.classifier import OnnxTileClassifier, native_crop
from vision.read.geometry import Box
from vision.read.labels import tile_of_class
from vision.read.red_fives import DEFAULT_OPTIONS, RedFiveOptions, Verdict, check_red_five, is_five


@dataclass
class RedFlagResult:
    """Red vs plain among fives read as the right five: right before (network) and after (with the check)."""

    n: int = 0
    right_network: int = 0
    right_checked: int = 0
    #: (truth "red"/"plain", what the network said, the check's verdict, what came out) -> count
    cases: Counter = field(default_factory=Counter)
    wrong_kind: int = 0  # fives the network read as another tile (not counted in n)

    def add(self, truth: Tile, read: Tile | None, verdict: Verdict, checked: Tile | None) -> None:
        if read is None or checked is None or read.deaka() != truth.deaka():
            self.wrong_kind += 1
            return
        self.n += 1
        self.right_network += read.red == truth.red
        self.right_checked += checked.red == truth.red
        colour = {True: "red", False: "plain"}
        self.cases[(colour[truth.red], colour[read.red], verdict.value, colour[checked.red])] += 1

    def errors(self, after: bool) -> tuple[int, int]:
        """(false reds, false plains) before (network) or after the check."""
        col = 3 if after else 1
        false_red = sum(k for c, k in self.cases.items() if c[0] == "plain" and c[col] == "red")
        false_plain = sum(k for c, k in self.cases.items() if c[0] == "red" and c[col] == "plain")
        return false_red, false_plain

    def line(self) -> str:
        if not self.n:
            return f"no five read as the right five ({self.wrong_kind} read as another tile)"
        (r0, p0), (r1, p1) = self.errors(False), self.errors(True)
        reds = sum(k for c, k in self.cases.items() if c[0] == "red")
        return (
            f"{self.n} fives read as the right five ({reds} red): red/plain right {self.right_network / self.n:.3f} "
            f"network only ({r0} false red, {p0} false plain), {self.right_checked / self.n:.3f} with the check "
            f"({r1} false red, {p1} false plain); {self.wrong_kind} read as another tile"
        )


Sample = tuple[np.ndarray, Box, Tile]  # a frame, a five's box in it, the true tile


def eval_fives(
    classifier: OnnxTileClassifier, samples: Iterable[Sample], options: RedFiveOptions = DEFAULT_OPTIONS
) -> RedFlagResult:
    """Each five read by ``classifier`` from its frame, then checked by colour on its crop (as
    :class:`~vision.read.classifier.TwoStageDetector` does)."""
    result = RedFlagResult()
    for frame, box, truth in samples:
        read = tile_of_class(classifier.classify(frame, [box])[0].class_id)
        if read is None or not is_five(read):
            result.add(truth, read, Verdict.UNSURE, None)
            continue
        check = check_red_five(native_crop(frame, box, classifier.margin), read, options)
        result.add(truth, read, check.verdict, check.tile(read))
    return result


def rendered_fives(n: int = 1000, seed: int = EVAL_SEED) -> Iterator[Sample]:
    """The labelled fives of rendered images ``0..n-1`` of set ``seed``."""
    from vision.synth import render

    for i in range(n):
        sample = render(seed, i)
        for label in sample.labels:
            tile = tile_of_class(label.class_id)
            if is_five(tile):
                yield sample.image, Box(*label.box), tile


def real_photo_fives(split: str) -> Iterator[Sample]:
    """The labelled fives of the real photos' ``held-out`` or ``training`` split (all plain)."""
    from vision.eval.real_photos import held_out_split, training_split
    from vision.read.images import load_image

    photos = held_out_split() if split == "held-out" else training_split()
    for photo in photos:
        fives = [b for b in photo.boxes if is_five(tile_of_class(b.class_id))]
        if not fives:
            continue
        image = load_image(photo.image)
        h, w = image.shape[:2]
        for b in fives:
            yield image, Box(*b.xyxy(w, h)), tile_of_class(b.class_id)


def camerash_fives(root: str | os.PathLike[str] | None = None) -> Iterator[Sample]:
    """camerash's fives (characters-5, dots-5, bamboo-5; all plain): each photo is a tile's face, so it is set on
    felt and its whole extent is the box."""
    from vision.read.images import load_image

    base, rows = camerash_rows(root)
    for name, label in rows:
        tile = camerash_tile(label)
        if tile is None or not is_five(tile):
            continue
        image = load_image(base / "tiles-resized" / name)
        h, w = image.shape[:2]
        pad = max(h, w) // 4
        frame = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=FELT)
        yield frame, Box(float(pad), float(pad), float(pad + w), float(pad + h)), tile


def inked_fives(samples: Iterable[Sample], seed: int = 0) -> Iterator[Sample]:
    """Each five of ``samples`` with its ink repainted red (:func:`vision.eval.red_ink.inked_red`), as its red five;
    seeded (the red's brightness)."""
    rng = np.random.default_rng(seed)
    for frame, box, truth in samples:
        yield inked_red(frame, box, rng), box, Tile(truth.kind, red=True)


def lit(samples: Iterable[Sample], gains: tuple[float, float, float]) -> Iterator[Sample]:
    """Each frame of ``samples`` under a light that scales its channels (B, G, R) by ``gains``
    (:func:`vision.eval.phone_evaluation.cast`)."""
    from vision.eval.phone_evaluation import cast

    for frame, box, truth in samples:
        yield cast(frame, gains), box, truth


def verdicts(samples: Iterable[Sample], options: RedFiveOptions = DEFAULT_OPTIONS) -> Counter:
    """The check's verdicts on the true tiles' suits alone (no network): ``Counter`` of (truth, verdict)."""
    out: Counter = Counter()
    for frame, box, truth in samples:
        check = check_red_five(native_crop(frame, box), truth, options)
        out[("red" if truth.red else "plain", check.verdict.value)] += 1
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="rendered held-out images")
    parser.add_argument("--classifier", default=None, help="crop classifier (default: the shipped one)")
    parser.add_argument("--light", default=None, help="every frame under one of jantaku-lab eval phone's lights")
    args = parser.parse_args(argv)
    from vision.eval.phone_evaluation import LIGHTS

    if args.light is not None and args.light not in LIGHTS:
        parser.error(f"--light: one of {', '.join(LIGHTS)}, not {args.light!r}")
    cv2.setNumThreads(1)
    from vision.read.classifier import SHIPPED_CLASSIFIER

    classifier = OnnxTileClassifier(args.classifier or SHIPPED_CLASSIFIER, threads=1)
    sets = {
        "real photos held-out": lambda: real_photo_fives("held-out"),
        "real photos training": lambda: real_photo_fives("training"),
        "camerash": camerash_fives,
        "real photos held-out, inked red": lambda: inked_fives(real_photo_fives("held-out")),
        "real photos training, inked red": lambda: inked_fives(real_photo_fives("training")),
        "camerash, inked red": lambda: inked_fives(camerash_fives()),
        f"rendered seed {EVAL_SEED} x{args.n}": lambda: rendered_fives(args.n),
    }
    gains = LIGHTS[args.light] if args.light is not None else None
    suffix = f", light {args.light}" if gains is not None else ""
    for name, made in sets.items():

        def samples(made=made) -> Iterator[Sample]:
            return lit(made(), gains) if gains is not None else made()

        print(f"{name}{suffix}: check alone {dict(sorted(verdicts(samples()).items()))}", flush=True)
        print(f"{name}{suffix}: classifier then check: {eval_fives(classifier, samples()).line()}", flush=True)


if __name__ == "__main__":
    main()
