"""Training the way-up network (:mod:`vision.read.way_up`) on the CPU: upright cards, half of them turned a half turn.

The crops are :func:`vision.synth.cards.way_up_card_set`'s (every face class, artwork, faces drawn from fonts and
faces a brush draws; never a sideways cut; the tile's band over its face half the time, so that where the band lies
says nothing: trained without that, the network read the real set's standing tiles, whose tops show over their
faces, as upside down), each with the classifier's appearance jitter. Each batch turns a random half of its crops
a half turn, and those are the "upside down" ones. The network is the classifier's
(:func:`vision.train.classifier_training.build_network`) with two outputs. torch is needed here only.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.read.classifier import CROP_SIZE
from vision.read.geometry import Box, Size
from vision.read.way_up import MAX_TURN, MODEL_KIND, NAMES, UPRIGHT_BOX
from vision.train.classifier_training import (
    Jitter,
    Scene,
    TrainOptions,
    _as_tensor,
    appearance,
    build_network,
    export_onnx,
    jittered_crop,
    train_step,
)

Progress = Callable[[int, int], None] | None


def way_up_crops(n: int, seed: int, progress: Progress = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` upright crops (BGR uint8, (n, h, w, 3)) and their tile class ids: :func:`way_up_card_set` cards with
    the appearance jitter of :func:`vision.train.classifier_training.appearance`, built in steps (bounded memory)."""
    from vision.synth.cards import way_up_card_set

    xs, ys = [], []
    for start in range(0, n, 2000):
        x, y = way_up_card_set(min(2000, n - start), seed, start=start)
        rng = np.random.default_rng([seed, 1, start])
        xs.append(np.stack([appearance(c, rng, Jitter()) for c in x]))
        ys.append(y)
        if progress:
            progress(start + len(y), n)
    if not xs:
        return np.zeros((0, CROP_SIZE.height, CROP_SIZE.width, 3), np.uint8), np.zeros(0, np.int64)
    return np.concatenate(xs), np.concatenate(ys)


#: Tile classes whose faces have a way up in any set: the characters, the winds, and the green and red dragons. A
#: white dragon is blank or a frame, and pins and bamboo (with another set's corner indices) often look alike both
#: ways: those are what real photos teach.
TELLING_CLASSES = frozenset((*range(9), 27, 28, 29, 30, 32, 33))
#: Boxes with a shorter side under this many pixels give no crop.
MIN_SIDE = 8
#: A photo's way up is told when at least this many of its telling tiles vote ...
MIN_TELLING = 2
#: ... their mean ``2 p - 1`` is past this either way ...
TELLING_VOTE = 0.5
#: ... and at least this share of them stand on that side (a grid of tiles laid every way is left out).
TELLING_AGREE = 0.8
#: Real crops stray further from their boxes than the cards' (the detector's boxes move by a few pixels from one
#: model to the next, and the vote must not flip with them).
REAL_JITTER = Jitter(box_noise=0.1)


@dataclass(frozen=True, slots=True)
class RealWayUp:
    """Upright crops of real photos (:func:`real_way_up_crops`) and what was kept."""

    crops: np.ndarray
    #: Photos whose tiles' way up was told upright, told upside down (their crops turned back), and not told.
    upright: int
    upside_down: int
    untold: int


def voting_boxes(scene: Scene, turn_of=None) -> list[tuple[int, Box]]:
    """The labelled boxes of ``scene`` whose crops stand upright or upside down: tall ones, and sideways ones, which
    the crop turns a quarter clockwise (:func:`vision.read.classifier.extract_crop`); none cut by the photo's edge,
    in a photo lying square (its tiles' median turn, ``turn_of(image, box)``, by default
    :func:`vision.read.views.turned_tiles.tile_turn`, within :data:`~vision.read.way_up.MAX_TURN`, and so each
    tile's where measured). Empty where the photo does not lie square."""
    from vision.read.views.photo_edge import cut_by_edge
    from vision.read.views.turned_tiles import tile_turn

    turn_of = turn_of or (lambda image, box: tile_turn(image, box, 0.6))
    size = Size.of(scene.image)
    standing = [
        (c, b)
        for c, b in scene.boxes
        if min(b.width, b.height) >= MIN_SIDE
        and max(b.height / b.width, b.width / b.height) >= UPRIGHT_BOX
        and not cut_by_edge(b, size)
    ]
    turns = [turn_of(scene.image, b) for _, b in standing]
    measured = [t for t in turns if t is not None]
    if not measured or abs(float(np.median(measured))) > MAX_TURN:
        return []
    return [cb for cb, t in zip(standing, turns, strict=True) if t is None or abs(t) <= MAX_TURN]


def told_way(classes: Sequence[int], upside_down: np.ndarray) -> bool | None:
    """Whether a photo's tiles lie upside down, told by its :data:`TELLING_CLASSES` alone (``upside_down``: each
    tile's probability of lying upside down); None when too few tell (:data:`MIN_TELLING`), or they do not agree
    (:data:`TELLING_VOTE`, :data:`TELLING_AGREE`).

    >>> told_way([0, 1, 2, 10], np.array([0.1, 0.2, 0.05, 0.9])), told_way([0, 1, 2], np.array([0.9, 0.8, 0.95]))
    (False, True)
    >>> told_way([0, 10, 11], np.array([0.1, 0.9, 0.9])), told_way([0, 1, 2], np.array([0.1, 0.9, 0.1]))
    (None, None)
    """
    telling = np.array([c in TELLING_CLASSES for c in classes], bool)
    p = np.asarray(upside_down, np.float64)[telling]
    if len(p) < MIN_TELLING:
        return None
    vote = float(np.mean(2 * p - 1))
    if abs(vote) < TELLING_VOTE or np.mean((p > 0.5) == (vote > 0)) < TELLING_AGREE:
        return None
    return vote > 0


def scene_way(scene: Scene, model) -> tuple[list[tuple[int, Box]], np.ndarray, bool | None]:
    """A scene's voting boxes (:func:`voting_boxes`), their crops as ``model`` (a
    :class:`~vision.read.way_up.OnnxWayUp`) cuts them, and whether its tiles lie upside down as its telling tiles
    read by ``model`` tell (:func:`told_way`; None: not told, or no box votes)."""
    boxes = voting_boxes(scene)
    if not boxes:
        size = model.input_size
        return [], np.zeros((0, size.height, size.width, 3), np.uint8), None
    cut = model.crops(scene.image, [b for _, b in boxes])
    return boxes, cut, told_way([c for c, _ in boxes], model.upside_down(cut))


def real_way_up_crops(
    scenes: Iterable[Scene], judge, *, per_box: int = 2, jitter: Jitter = REAL_JITTER, seed: int = 0
) -> RealWayUp:
    """Upright crops of every voting box of the real photos whose way up their telling tiles agree on
    (:func:`scene_way`, read by ``judge``, a :class:`~vision.read.way_up.OnnxWayUp`): ``per_box`` jittered crops of
    each, those of a photo told upside down turned a half turn. A real photo's labels say which tile it shows, not
    which way it stands; its characters, winds and dragons say that for its pins, bamboo, white dragons and flowers,
    which the cards alone teach badly."""
    rng = np.random.default_rng(seed)
    crops, counts = [], {True: 0, False: 0, None: 0}
    for scene in scenes:
        boxes, _, way = scene_way(scene, judge)
        counts[way] += 1
        if way is not None:
            for _, box in boxes:
                for _ in range(per_box):
                    crop = jittered_crop(scene.image, box, rng, jitter, judge.input_size)
                    crops.append(crop[::-1, ::-1] if way else crop)
    size = judge.input_size
    x = np.ascontiguousarray(np.stack(crops)) if crops else np.zeros((0, size.height, size.width, 3), np.uint8)
    return RealWayUp(x, upright=counts[False], upside_down=counts[True], untold=counts[None])


#: The real photos :func:`real_way_up_scenes` can give: the one real set's training split, and alanchoi00's.
REAL_SOURCES = ("leo", "alanchoi00")


def real_way_up_scenes(sources: Sequence[str] = REAL_SOURCES, *, split: str = "train") -> Iterator[Scene]:
    """The training photos of ``sources`` (:data:`REAL_SOURCES`) as scenes: leo-miura's training split
    (:func:`vision.train.classifier_training.real_scenes`), and alanchoi00's ``train`` split, its flowers as
    :data:`~vision.train.classifier_training.NONE_CLASS` (a flower has a way up too). ``split`` names another of
    alanchoi00's splits, for evaluation only."""
    from vision.eval.other_sets import load_split
    from vision.read.images import load_image
    from vision.train.classifier_training import NONE_CLASS, real_scenes

    unknown = set(sources) - set(REAL_SOURCES)
    if unknown:
        raise ValueError(f"no real source {sorted(unknown)}; there are {list(REAL_SOURCES)}")
    if "leo" in sources:
        yield from real_scenes(held_out=False)
    if "alanchoi00" in sources:
        for photo in load_split(split):
            image = load_image(photo.image)
            h, w = image.shape[:2]
            tiles = [(b.class_id, Box(*b.xyxy(w, h))) for b in photo.boxes]
            flowers = [(NONE_CLASS, Box(*r)) for r in photo.unlabelled_xyxy(w, h)]
            yield Scene(image, (*tiles, *flowers), str(photo.image))


#: How :func:`train_way_up` runs by default (the classifier's options; ``init`` and ``max_seconds`` are not used).
WAY_UP_OPTIONS = TrainOptions(epochs=10, batch=128, lr=3e-3, width=24, threads=2, warmup=0.1)


def train_way_up(crops: np.ndarray, options: TrainOptions = WAY_UP_OPTIONS, log: Callable[[str], None] | None = None):
    """Train the way-up network on upright ``crops``; returns (model, history of per-epoch dicts)."""
    import torch
    from torch import nn

    threads_before = torch.get_num_threads()
    torch.set_num_threads(options.threads)
    try:
        torch.manual_seed(options.seed)
        gen = torch.Generator().manual_seed(options.seed)
        rng = np.random.default_rng(options.seed)
        model = build_network(len(NAMES), options.width)
        opt = torch.optim.AdamW(model.parameters(), lr=options.lr, weight_decay=options.weight_decay)
        loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
        total = options.epochs * max(1, math.ceil(len(crops) / options.batch))
        step, history, started = 0, [], time.perf_counter()
        for epoch in range(options.epochs):
            model.train()
            order = rng.permutation(len(crops))
            correct = seen = 0
            for s in range(0, len(order), options.batch):
                idx = np.sort(order[s : s + options.batch])
                progress = step / total
                if progress < options.warmup:
                    lr = options.lr * (0.04 + 0.96 * progress / options.warmup)
                else:
                    lr = options.lr * 0.5 * (1 + math.cos(math.pi * (progress - options.warmup) / (1 - options.warmup)))
                for group in opt.param_groups:
                    group["lr"] = lr
                x = _as_tensor(torch, crops[idx])
                n = len(idx)
                turned = torch.rand(n, generator=gen) < 0.5  # these are the upside-down ones
                x = torch.where(turned.view(n, 1, 1, 1), torch.flip(x, dims=(2, 3)), x)
                gain = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.3
                shift = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.16
                x = (x * gain + shift).clamp(0, 1)
                correct += train_step(model, loss_fn, opt, x, turned.long())
                step += 1
                seen += n
            entry = {"epoch": epoch + 1, "train_acc": round(correct / max(seen, 1), 4)}
            entry["seconds"] = round(time.perf_counter() - started, 1)
            history.append(entry)
            if log:
                log(json.dumps(entry))
        model.eval()
        return model, history
    finally:
        torch.set_num_threads(threads_before)


def export_way_up(model, path: str | os.PathLike[str], metadata: dict | None = None) -> Path:
    """Write the model as ONNX (:func:`vision.train.classifier_training.export_onnx`) with the way-up ``kind`` and
    ``names``."""
    return export_onnx(model, path, metadata, kind=MODEL_KIND, names=NAMES)
