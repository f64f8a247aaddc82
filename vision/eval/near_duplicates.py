"""Near-duplicate check: no evaluation photo may be a copy of a training photo (resized, recompressed, re-exported).

A photo's difference hash (:func:`dhash`) is 256 bits: its grey image shrunk to 17 x 16, each bit whether a pixel is
brighter than its right-hand neighbour. Copies of one photo differ in a few bits; photos of other scenes in about
half of them (128). :func:`closest_pairs` compares every evaluation image with every training image.

    report = check(evaluation_paths, training_paths)
    report.closest[0]            # (bits, evaluation image, training image): the nearest pair
    report.under(DUPLICATE_BITS) # the pairs that are copies
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: Pairs this close (bits of 256) are copies of one photo: a copy resized, recompressed or lightly cropped differs in
#: under 10; photos of one table taken seconds apart, in 30 or more.
DUPLICATE_BITS = 24

HASH_SIDE = 16


def dhash(image: np.ndarray) -> np.ndarray:
    """The 256-bit difference hash of a BGR or grey image, as a (256,) bool array."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (HASH_SIDE + 1, HASH_SIDE), interpolation=cv2.INTER_AREA).astype(np.int16)
    return (small[:, 1:] > small[:, :-1]).reshape(-1)


def hashes(paths: Iterable[Path]) -> tuple[list[Path], np.ndarray]:
    """The readable images among ``paths`` and their hashes, (N, 256) bool."""
    kept, out = [], []
    for path in paths:
        image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if image is None:
            continue
        kept.append(Path(path))
        out.append(dhash(image))
    return kept, np.array(out, bool).reshape(len(out), HASH_SIDE * HASH_SIDE)


@dataclass(frozen=True)
class Report:
    """For each evaluation image, its nearest training image: (bits apart, evaluation image, training image),
    nearest first."""

    closest: tuple[tuple[int, Path, Path], ...]
    evaluation: int
    training: int

    def under(self, bits: int) -> list[tuple[int, Path, Path]]:
        return [c for c in self.closest if c[0] <= bits]


def closest_pairs(evaluation: np.ndarray, training: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``evaluation`` (N, 256), the bits to its nearest row of ``training`` (M, 256) and its index."""
    if not len(evaluation) or not len(training):
        return np.zeros(len(evaluation), int), np.zeros(len(evaluation), int)
    e, t = evaluation.astype(np.int32), training.astype(np.int32)
    # Hamming distance of bit vectors: a.(1-b) + (1-a).b, for all pairs at once
    distance = e @ (1 - t).T + (1 - e) @ t.T
    nearest = distance.argmin(axis=1)
    return distance[np.arange(len(e)), nearest], nearest


def check(evaluation: Sequence[Path], training: Sequence[Path]) -> Report:
    """Every evaluation image against every training image (unreadable files are left out of both)."""
    eval_paths, eval_hashes = hashes(evaluation)
    train_paths, train_hashes = hashes(training)
    bits, nearest = closest_pairs(eval_hashes, train_hashes)
    pairs = (
        sorted(
            ((int(b), p, train_paths[int(n)]) for b, p, n in zip(bits, eval_paths, nearest, strict=True)),
            key=lambda c: (c[0], str(c[1])),
        )
        if train_paths
        else []
    )
    return Report(tuple(pairs), len(eval_paths), len(train_paths))
