"""How well the way-up network (:mod:`vision.read.way_up`) reads real tiles: each crop upright and turned a half turn.

Two sets, neither trained on: the real held-out split's labelled boxes (the one real set; its standing tiles show
their tops over their faces) and camerash's single-tile photos (other sets, shown as a tile on a table the way
:func:`vision.eval.evaluation.eval_crops` shows them). Per set and suit: the share of upright crops read upright, of
turned ones read upside down, and of tiles read surer upside down turned than upright (the pair). Pins and bamboo
often look the same both ways; characters and honours never do.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from vision.read.classifier import extract_crop
from vision.read.geometry import Box
from vision.read.labels import CLASS_NAMES
from vision.read.way_up import OnnxWayUp


def _camerash_crops(model: OnnxWayUp, root: str | os.PathLike[str] | None) -> tuple[np.ndarray, np.ndarray]:
    """camerash's photos of riichi tiles (:func:`vision.eval.phone_evaluation._camerash_pool`) as crops of a tile on a
    table; an unreadable photo is left out."""
    from vision.eval.evaluation import on_table
    from vision.eval.phone_evaluation import _camerash_pool
    from vision.read.errors import UnreadableImage
    from vision.read.images import load_image

    base, pool = _camerash_pool(root)
    crops, classes = [], []
    for name, cls in pool:
        try:
            photo = load_image(base / "tiles-resized" / name)
        except UnreadableImage:
            continue
        frame = on_table(photo, factor=3.0, long_side=None)
        h, w = photo.shape[:2]
        y, x = (frame.shape[0] - h) // 2, (frame.shape[1] - w) // 2
        crops.append(extract_crop(frame, Box(x, y, x + w, y + h), model.input_size, model.margin))
        classes.append(cls)
    return np.stack(crops), np.asarray(classes)


def _told_crops(model: OnnxWayUp, split: str) -> tuple[np.ndarray, np.ndarray]:
    """alanchoi00's ``split`` photos (other sets): the standing tiles that do not tell their own way up (pins, bamboo,
    white dragons) of each photo whose characters, winds and dragons do, as ``model`` reads those
    (:func:`vision.train.way_up_training.scene_way`), cut upright. The photos' labels say no way up, so the photo's own
    telling tiles stand for it: the crops score what the network reads of the faces it cannot learn from glyphs."""
    from vision.read.labels import CLASS_NAMES
    from vision.train.way_up_training import TELLING_CLASSES, real_way_up_scenes, scene_way

    crops, classes = [], []
    for scene in real_way_up_scenes(["alanchoi00"], split=split):
        boxes, cut, way = scene_way(scene, model)
        if way is None:
            continue
        for (c, _), crop in zip(boxes, cut, strict=True):
            if c < len(CLASS_NAMES) and CLASS_NAMES[c][1] in "mpsz" and c not in TELLING_CLASSES:
                crops.append(crop[::-1, ::-1] if way else crop)
                classes.append(c)
    if not crops:
        raise FileNotFoundError(f"no told photo in alanchoi00 {split}")
    return np.ascontiguousarray(np.stack(crops)), np.asarray(classes)


def _scores(model: OnnxWayUp, crops: np.ndarray, classes: np.ndarray) -> dict:
    up = model.upside_down(crops)
    down = model.upside_down(np.ascontiguousarray(crops[:, ::-1, ::-1]))

    def shares(sel: np.ndarray) -> dict:
        return {
            "n": int(sel.sum()),
            "upright_right": round(float((up[sel] < 0.5).mean()), 3),
            "turned_right": round(float((down[sel] > 0.5).mean()), 3),
            "pairs_right": round(float((down[sel] > up[sel]).mean()), 3),
        }

    out = shares(np.ones(len(classes), bool))
    suits = np.array([CLASS_NAMES[c][1] for c in classes])
    out["by_suit"] = {s: shares(suits == s) for s in "mpsz" if (suits == s).any()}
    return out


def evaluate_way_up(
    model: OnnxWayUp, camerash_root: str | os.PathLike[str] | None = None, progress: Callable[[str], None] | None = None
) -> dict:
    """Per set (``real held-out``, ``camerash``, ``alanchoi00 valid, told``; a set not installed is left out):
    :func:`_scores`."""
    from vision.train.classifier_training import crops_real_held_out

    results = {}
    try:
        real = crops_real_held_out(size=model.input_size)
        results["real held-out"] = _scores(model, real.x, real.y)
    except FileNotFoundError as exc:
        if progress:
            progress(f"real held-out left out: {exc}")
    try:
        results["camerash"] = _scores(model, *_camerash_crops(model, camerash_root))
    except FileNotFoundError as exc:
        if progress:
            progress(f"camerash left out: {exc}")
    try:
        results["alanchoi00 valid, told"] = _scores(model, *_told_crops(model, "valid"))
    except FileNotFoundError as exc:
        if progress:
            progress(f"alanchoi00 left out: {exc}")
    return results
