"""Which way up a photo's tiles lie: a small network that tells a tile's face upright from upside down.

:class:`~vision.read.views.upside_down.HalfTurnDetector` tells a photo taken from across the table by the detector's
confidence, which is surer of upright tiles only for the one real set it was trained on: another set's tiles it reads as
surely either way up, so their photos stayed reversed. Characters, winds and dragons have a way up in any set, and so do
birds, corner indices and most numbers of pins and bamboo. :class:`OnnxWayUp` (``models/tile_way_up.onnx``,
trained on upright cards of every face class by :mod:`vision.train.way_up_training`) gives each tile crop the
probability that it is upside down; :func:`upside_down_vote` is the mean over a photo's upright, face-up tiles of
``2 p - 1`` (tiles that look the same both ways give about 0 and do not sway it). The crops are the classifier's
(:func:`vision.read.classifier.extract_crop`): the same size, margin and pixels. Only boxes of tiles lying upright or
upside down vote (:data:`UPRIGHT_BOX`): the runtime turns a sideways box a quarter clockwise, which leaves it
either way up, and a tile lying corner up says nothing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.read.classifier import OnnxCropModel, softmax, to_input
from vision.read.detector import Detection, parse_names
from vision.read.errors import ModelError

#: The ``kind`` the model's metadata must carry.
MODEL_KIND = "tile-way-up"

#: The model's classes, in output order.
NAMES = ("upright", "upside down")

#: Where the shipped model lies in a checkout; ``$JANTAKU_WAY_UP`` overrides (``none`` turns it off).
SHIPPED_WAY_UP = Path(__file__).resolve().parents[2] / "models" / "tile_way_up.onnx"


class OnnxWayUp(OnnxCropModel):
    """The way-up network on onnxruntime: ``[batch, 3, h, w]`` RGB 0..1 crops in, logits of :data:`NAMES` out."""

    kind = MODEL_KIND
    what = "way-up model"

    def __init__(self, path: str | os.PathLike[str], *, threads: int | None = 1, max_batch: int = 64) -> None:
        super().__init__(path, threads=threads, max_batch=max_batch)
        if parse_names(self.metadata.get("names"), self.path) != NAMES:
            raise ModelError(f"{self.path}: its classes are not {list(NAMES)}")

    def upside_down(self, crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """Probability (N,) that each BGR crop of the model's input size shows its tile upside down."""
        logits = self.logits(to_input(self.checked(crops)), len(NAMES))
        return softmax(logits.astype(np.float64))[:, 1]


#: A box at least this many times as tall as wide: a tile standing upright or upside down, not sideways (a face is
#: about 4:3) ...
UPRIGHT_BOX = 1.15
#: ... in a photo lying square: the median outline turn (:func:`vision.read.views.turned_tiles.tile_turn`) of its tall
#: boxes within this many degrees of the box's axes. The network learnt tiles turned at most 8 degrees, and a tile read
#: corner up says nothing of its way up. A tile whose own outline is measured beyond it does not vote either; one
#: whose outline is not found (tiles touching in a row) does.
MAX_TURN = 15.0
#: ... and a photo with fewer voting tiles has no vote: one to three tiles are too few to turn a whole photo.
MIN_VOTERS = 4


def upside_down_vote(image: np.ndarray, found: Sequence[Detection], model: OnnxWayUp) -> float | None:
    """The mean of ``2 p - 1`` over the face-up tiles of ``found`` that lie upright or upside down (:data:`UPRIGHT_BOX`,
    :data:`MAX_TURN`), ``p`` the model's probability that the tile is upside down: 1 all surely upside down, -1 all
    surely upright, about 0 where the tiles cannot tell. None where the photo does not lie square, or with fewer than
    :data:`MIN_VOTERS` voting tiles. A box the photo's edge cuts (:func:`vision.read.views.photo_edge.cut_by_edge`)
    shows part of a face and does not vote."""
    from vision.read.geometry import Size
    from vision.read.views.photo_edge import cut_by_edge
    from vision.read.views.turned_tiles import tile_turn

    size = Size.of(image)
    tall = [
        d.box
        for d in found
        if not d.is_back
        and d.box.area > 0
        and d.box.height >= UPRIGHT_BOX * d.box.width
        and not cut_by_edge(d.box, size)
    ]
    turns = [tile_turn(image, b, 0.6) for b in tall]
    measured = [t for t in turns if t is not None]
    if not measured or abs(float(np.median(measured))) > MAX_TURN:
        return None
    boxes = [b for b, t in zip(tall, turns, strict=True) if t is None or abs(t) <= MAX_TURN]
    if len(boxes) < MIN_VOTERS:
        return None
    return float(np.mean(2.0 * model.upside_down(model.crops(image, boxes)) - 1.0))


def way_up_for(path: str | os.PathLike[str] | None = None) -> OnnxWayUp | None:
    """The way-up model at ``path``; by default ``$JANTAKU_WAY_UP`` or the shipped one (None where it is off or
    not there: a photo is then told by the detector alone)."""
    if path is None:
        path = os.environ.get("JANTAKU_WAY_UP") or SHIPPED_WAY_UP
        if str(path).lower() == "none" or not Path(path).is_file():
            return None
    return OnnxWayUp(path)
