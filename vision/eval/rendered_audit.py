"""Where a detector goes wrong on the rendered held-out set: each labelled tile found, named wrongly or missed, tallied
by how much of its face is in view, how squarely the camera sees it and how big it is in the network's input.

The question it answers: is the rendered set's mAP50 held down by labels no reader could name (a face half hidden, seen
edge-on, a few pixels wide), or by tiles in plain view? A tile is *right* when a reported box of its class overlaps it
at IoU 0.5 or more, *wrong* when the best-overlapping box (IoU 0.5 or more) names another tile, else *missed*; boxes are
what the detector reports at its operating threshold.

Run: ``python -m vision.eval.rendered_audit [--n 1000] [--model PATH]`` (prints the tables).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from vision.eval.evaluation import EVAL_SEED, RENDERED_IMAGES
from vision.read.detector import Detection, Detector
from vision.read.labels import CLASS_NAMES
from vision.read.postprocess import iou_matrix

#: A tile in plain view: this much of its face visible, seen at least this squarely, this many input pixels across.
PLAIN_VISIBLE, PLAIN_FACING, PLAIN_SIDE = 0.9, 0.5, 20.0

#: The bands of each table: (name, the tile's value, band edges).
BANDS = (
    ("face in view", lambda t: t.visible, (0.5, 0.7, 0.9, 1.01)),
    ("facing (cosine)", lambda t: t.facing, (0.22, 0.4, 0.6, 0.8, 1.01)),
    ("short side in the input, px", lambda t: t.side, (0.0, 14.0, 20.0, 30.0, 40.0, 1e9)),
)


@dataclass(frozen=True, slots=True)
class TileOutcome:
    """One labelled tile and what the detector made of it: ``found`` is its class id if right, another class id if
    wrong, None if missed."""

    class_id: int
    visible: float
    facing: float
    side: float  # the box's short side in the network's input, px
    found: int | None

    @property
    def outcome(self) -> str:
        return "missed" if self.found is None else "right" if self.found == self.class_id else "wrong"

    @property
    def plain(self) -> bool:
        return self.visible >= PLAIN_VISIBLE and self.facing >= PLAIN_FACING and self.side >= PLAIN_SIDE


def outcomes(labels: Sequence, detections: Sequence[Detection], input_scale: float) -> list[TileOutcome]:
    """Each label's outcome among ``detections`` (labels: anything with ``class_id``, ``box``, ``visible``,
    ``facing``); ``input_scale`` turns frame pixels into the network's input pixels.

    >>> from types import SimpleNamespace as Tile
    >>> from vision.read.geometry import Box
    >>> tiles = [Tile(class_id=3, box=(0, 0, 20, 30), visible=1.0, facing=0.9),
    ...          Tile(class_id=5, box=(40, 0, 60, 30), visible=0.6, facing=0.3),
    ...          Tile(class_id=7, box=(80, 0, 100, 30), visible=1.0, facing=1.0)]
    >>> found = [Detection.of_class(3, Box(1, 0, 20, 30), 0.9), Detection.of_class(6, Box(40, 1, 60, 30), 0.8)]
    >>> [(o.outcome, o.side, o.plain) for o in outcomes(tiles, found, 1.0)]
    [('right', 20.0, True), ('wrong', 20.0, False), ('missed', 20.0, True)]
    """
    boxes = np.array([label.box for label in labels], float).reshape(-1, 4)
    found = np.array([(d.box.x1, d.box.y1, d.box.x2, d.box.y2) for d in detections], float).reshape(-1, 4)
    ious = iou_matrix(boxes, found) if len(found) else np.zeros((len(boxes), 0))
    out = []
    for i, label in enumerate(labels):
        mine = [j for j in range(ious.shape[1]) if ious[i, j] >= 0.5]
        right = [j for j in mine if detections[j].class_id == label.class_id]
        best = right or sorted(mine, key=lambda j: -ious[i, j])
        x1, y1, x2, y2 = label.box
        side = min(x2 - x1, y2 - y1) * input_scale
        out.append(
            TileOutcome(
                label.class_id, label.visible, label.facing, side, detections[best[0]].class_id if best else None
            )
        )
    return out


def audit(
    detector: Detector, n: int = RENDERED_IMAGES, seed: int = EVAL_SEED, input_side: int = 512
) -> list[TileOutcome]:
    """Every labelled tile of rendered images ``0..n-1`` of set ``seed`` and what ``detector`` made of it (the frame
    read whole, letterboxed to ``input_side``)."""
    from vision.synth import render

    tiles: list[TileOutcome] = []
    for i in range(n):
        sample = render(seed, i)
        scale = input_side / max(sample.width, sample.height)
        tiles += outcomes(sample.labels, detector.detect(sample.image), scale)
    return tiles


def tally(tiles: Iterable[TileOutcome], band: Callable[[TileOutcome], float], edges: Sequence[float]) -> list[dict]:
    """Rows of right, wrong and missed per band ``[edges[k], edges[k+1])`` of ``band``."""
    tiles = list(tiles)
    rows = []
    for low, high in pairwise(edges):
        counts = Counter(t.outcome for t in tiles if low <= band(t) < high)
        total = sum(counts.values())
        rows.append(
            {
                "from": low,
                "to": high,
                "tiles": total,
                **{k: counts[k] for k in ("right", "wrong", "missed")},
                "error": (counts["wrong"] + counts["missed"]) / total if total else 0.0,
            }
        )
    return rows


def confusions(tiles: Iterable[TileOutcome], top: int = 12) -> list[tuple[str, str, int]]:
    """The commonest (true, read) pairs among wrong tiles, most first."""
    pairs = Counter((CLASS_NAMES[t.class_id], CLASS_NAMES[t.found]) for t in tiles if t.outcome == "wrong")
    return [(a, b, k) for (a, b), k in pairs.most_common(top)]


def main(argv: Sequence[str] | None = None) -> None:
    from pathlib import Path

    from vision.read.pipeline import Reader, ReaderConfig

    parser = argparse.ArgumentParser(prog="python -m vision.eval.rendered_audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=RENDERED_IMAGES, help="rendered held-out images")
    parser.add_argument("--model", default=None, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--conf", type=float, default=0.25, help="operating threshold")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("--n is a count of images: 1 or more")
    # the detector alone, as the reader's factory builds it (the audit is of the detector's own names)
    reader = Reader.from_config(ReaderConfig(Path(args.model) if args.model else None, classifier=None, conf=args.conf))
    detector = reader.detector
    input_size = reader.models.network.input_size
    tiles = audit(detector, args.n, input_side=max(input_size.height, input_size.width))
    for title, band, edges in BANDS:
        print(f"\n{title}:")
        for r in tally(tiles, band, edges):
            print(
                f"  {r['from']:>6.2f} - {min(r['to'], 999):>6.2f}  tiles {r['tiles']:>5}  right {r['right']:>5}  "
                f"wrong {r['wrong']:>4}  missed {r['missed']:>4}  error {r['error']:.3f}"
            )
    plain = [t for t in tiles if t.plain]
    counts = Counter(t.outcome for t in plain)
    print(
        f"\nin plain view (face {PLAIN_VISIBLE:g}+ in view, facing {PLAIN_FACING:g}+, {PLAIN_SIDE:g}+ px): "
        f"{len(plain)} of {len(tiles)} tiles, right {counts['right']}, wrong {counts['wrong']}, "
        f"missed {counts['missed']}"
    )
    print("  commonest misnamings there:", ", ".join(f"{a}->{b} {k}" for a, b, k in confusions(plain)))


if __name__ == "__main__":
    main()
