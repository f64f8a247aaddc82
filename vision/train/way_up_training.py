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
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.read.classifier import CROP_SIZE
from vision.read.way_up import MODEL_KIND, NAMES
from vision.train.classifier_training import (
    Jitter,
    TrainOptions,
    _as_tensor,
    appearance,
    build_network,
    export_onnx,
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
