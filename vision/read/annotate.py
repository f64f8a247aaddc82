"""Drawing detections on a copy of a frame, for people (``jantaku read --annotate``). Nothing else draws.

>>> import numpy as np
>>> from vision.read.geometry import Box
>>> from vision.read.detector import Detection
>>> frame = np.zeros((120, 200, 3), np.uint8)
>>> out = annotate(frame, [Detection.of_class(0, Box(20.0, 30.0, 60.0, 90.0), 0.87)])
>>> out.shape, int(frame.sum()), bool(out[30, 20:60].any())
((120, 200, 3), 0, True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.read.detector import Detection
from vision.read.errors import UnreadableImage

#: Box colours (BGR) by suit: man red, pin blue, sou green, honours purple, backs grey.
_COLOURS = ((40, 40, 220), (200, 90, 30), (40, 160, 40), (160, 40, 160), (128, 128, 128))


def _colour(det: Detection) -> tuple[int, int, int]:
    return _COLOURS[4] if det.tile is None else _COLOURS[det.tile.suit]


def annotate(image: np.ndarray, detections: Sequence[Detection], *, show_conf: bool = True) -> np.ndarray:
    """A copy of ``image`` with each detection's box and label (``5m 0.93``) drawn; line width follows frame size."""
    out = image.copy()
    thick = max(1, round(min(out.shape[:2]) / 400))
    scale = max(0.4, min(out.shape[:2]) / 1200)
    for det in detections:
        x1, y1, x2, y2 = (round(v) for v in (det.box.x1, det.box.y1, det.box.x2, det.box.y2))
        colour = _colour(det)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        text = f"{det.label} {det.conf:.2f}" if show_conf else det.label
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        top = max(0, y1 - th - base - 2)
        cv2.rectangle(out, (x1, top), (x1 + tw + 2, top + th + base + 2), colour, -1)
        cv2.putText(out, text, (x1 + 1, top + th + 1), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thick)
    return out


def write_image(path: str | os.PathLike[str], image: np.ndarray) -> Path:
    """Write an image; the format follows the file name (``.jpg``, ``.png``)."""
    path = Path(path)
    try:
        ok, buf = cv2.imencode(path.suffix or ".jpg", image)
    except cv2.error:
        ok = False
    if not ok:
        raise UnreadableImage(f"{path}: cannot encode an image with suffix {path.suffix!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.tobytes())
    return path
