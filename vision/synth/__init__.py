"""Labelled training images rendered from the CC0 FluffyStuff tile artwork.

Tiles are 3-D bodies (a face, a back in one of several colours, two-layer sides) laid out as in real play (hands
standing or laid down, melds with called and added tiles, closed kans, discard ponds with a riichi tile, walls and
the dead wall, loose tiles), seen by a randomly posed camera over felt, cloth or wood, with shadows, props, hands,
and camera effects; with ``distractors``, things that are not tiles, unlabelled (:mod:`vision.synth.distractors`).
Labels are exact: a tile is labelled when its face (or, for ``back``, its back) is mostly in view; its box bounds all
of its visible pixels. Everything is a pure function of ``(seed, index)``.

>>> sample = render(seed=1, index=0, size=(320, 240))
>>> sample.image.shape, all(0 <= l.box[0] < l.box[2] <= 320 for l in sample.labels)
((240, 320, 3), True)
"""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from vision.synth import glyphs
from vision.synth.render import Label, Sample, render

__all__ = ["DATA_VERSION", "Label", "Sample", "render", "write_dataset"]

#: Bumped whenever rendering changes what a (seed, index) gives; recorded in the model card.
DATA_VERSION = "synth-1"


def _write_one(args: tuple[Path, int, int, tuple[int, int] | None, float, float, float]) -> int:
    out, seed, index, size, drawn_faces, distractors, close_ups = args
    sample = render(seed, index, size, drawn_faces, distractors, close_ups)
    stem = f"s{seed}_{index:06d}"
    # label first, then the image under a temporary name renamed into place: a render stopped at any moment
    # leaves no image without its labels (a trainer would read it as a frame with no tiles in it)
    (out / "labels" / f"{stem}.txt").write_text(sample.yolo_text(), encoding="utf-8")
    partial = out / "images" / f".{stem}.jpg.part"
    partial.write_bytes(sample.jpeg())
    partial.replace(out / "images" / f"{stem}.jpg")
    return len(sample.labels)


def write_dataset(
    out: str | os.PathLike[str],
    n: int,
    seed: int = 0,
    start: int = 0,
    size: tuple[int, int] | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    drawn_faces: float = 0.0,
    max_seconds: float | None = None,
    distractors: float = 0.0,
    close_ups: float = 0.0,
) -> int:
    """Render images ``start .. start+n-1`` of set ``seed`` into ``out/images`` and ``out/labels`` (YOLO format).

    Returns the number of labelled tiles. Files already there are overwritten; the result does not depend on
    ``workers``. ``synth.json`` records what was rendered (data version, seed, range, drawn-face share, fonts, the
    share of images with unlabelled things that are not tiles: ``distractors``, and of close-ups: ``close_ups``, see
    :func:`render`).
    With ``max_seconds`` (a lent machine's time budget), no new batch of images starts after that many seconds:
    the set is then a prefix ``start .. start+k-1``, the same images a full render gives, and ``synth.json``
    says ``n: k``.
    """
    began = time.monotonic()
    out = Path(out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    manifest = {
        "data_version": DATA_VERSION,
        "seed": seed,
        "start": start,
        "n": n,
        "size": size,
        "drawn_faces": drawn_faces,
        "distractors": distractors,
        "close_ups": close_ups,
        "fonts": list(glyphs.cjk_fonts()) if drawn_faces > 0 else [],
    }
    (out / "synth.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    jobs = [(out, seed, i, size, drawn_faces, distractors, close_ups) for i in range(start, start + n)]
    total = done = 0
    # with a time budget, work goes out in batches and the clock is read between them (one image at a time in
    # this process, a few per worker in a pool); without one, all at once
    batch = max(len(jobs), 1) if max_seconds is None else 1 if workers <= 1 else workers * 8
    with contextlib.ExitStack() as stack:
        run: Callable = map
        if workers > 1:
            # spawn, not fork: a forked child inherits the locks of the parent's thread pools (OpenCV, onnxruntime,
            # torch) and can hang on them; a test process that read images before rendering hung that way once.
            pool = stack.enter_context(
                ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
            )
            run = functools.partial(pool.map, chunksize=max(1, min(8, batch // workers)))
        for first in range(0, len(jobs), batch):
            if max_seconds is not None and time.monotonic() - began >= max_seconds:
                break
            for count in run(_write_one, jobs[first : first + batch]):
                total += count
                done += 1
                if progress:
                    progress(done, n)
    if done < n:
        manifest["n"] = done
        manifest["stopped_after_seconds"] = max_seconds
        (out / "synth.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return total
