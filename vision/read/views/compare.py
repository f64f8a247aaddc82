"""Which of two readings of one photo is surer: the photo as it is, or another view of it mapped back to its pixels
(its half turn, :mod:`vision.read.views.upside_down`; stretched taller, :mod:`vision.read.views.low_angle`). The
detector is surer of tiles it sees as it learnt them, so the view that shows them so reads them with more confidence,
tile by tile."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.read.detector import Detection

#: How much surer the other view's boxes must be, in mean confidence, for the photo to be read that way ...
MARGIN = 0.02
#: ... the tiles both readings found, paired, in mean confidence ...
PAIRED_MARGIN = 0.03
#: ... and the share of those tiles each read surer in the other view.
PAIRED_SHARE = 0.65
#: Boxes of the two readings at this IoU or more are one tile.
PAIR_IOU = 0.5


def surety(found: Sequence[Detection]) -> float:
    """The mean confidence of the boxes a reading found (0 for none)."""
    return float(np.mean([d.conf for d in found])) if found else 0.0


def paired_margins(as_is: Sequence[Detection], other: Sequence[Detection]) -> list[float]:
    """For each box of ``as_is``, the confidence of the box of ``other`` (the other view's, mapped back) that is the
    same tile (IoU :data:`PAIR_IOU` or more; the best) minus its own; tiles found by one reading only are left out."""
    out = []
    for d in as_is:
        best = max(other, key=lambda e: e.box.iou(d.box), default=None)
        if best is not None and best.box.iou(d.box) >= PAIR_IOU:
            out.append(best.conf - d.conf)
    return out


def reads_surer(as_is: Sequence[Detection], other: Sequence[Detection]) -> bool:
    """Whether the other view's reading (``other``, mapped back) is surer than the photo's as it is, by each of
    :data:`MARGIN`, :data:`PAIRED_MARGIN` and :data:`PAIRED_SHARE`."""
    if surety(other) <= surety(as_is) + MARGIN:
        return False
    paired = paired_margins(as_is, other)
    if not paired:
        return False
    return float(np.mean(paired)) > PAIRED_MARGIN and float(np.mean([m > 0 for m in paired])) >= PAIRED_SHARE
