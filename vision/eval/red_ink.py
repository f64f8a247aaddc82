"""A plain five's ink recoloured red: a real-looking red five (赤ドラ) made from a real photo of a plain one.

None of our real photos shows a red five, so how often the reader calls a real red five red is measured on real
fives whose ink is repainted red where they lie (:mod:`vision.eval.red_five_evaluation`,
``jantaku-lab eval phone --red``).
A red five is its plain five with every figure red: the numeral of 5m (its 萬 is red already), all five pins of 5p,
all five sticks of 5s. So everything on the face that is not face is repainted, whatever its colour.

Pure numpy/OpenCV, no I/O: the input image is never changed; a repainted copy is returned.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.geometry import Box
from vision.read.red_fives import inside_of

#: How red ink reflects the face's light, per channel (B, G, R).
RED_INK = np.array([0.22, 0.18, 0.92], np.float32)
#: The ellipse that fills the figures in: this share of the box's short side (odd, at least 3 px).
CLOSING_SHARE = 0.18


def ink_weights(region: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(how much of each pixel is ink, 0..1; the face's colour behind each pixel, BGR float) of a tile's box
    ``region`` (BGR uint8)."""
    lab = cv2.cvtColor(region, cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness, chroma = lab[..., 0], np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    light = lightness >= np.quantile(lightness, 0.5)
    face_px = light & (chroma <= np.quantile(chroma[light], 0.6))
    face_lab = np.median(lab[face_px], axis=0)
    side = max(3, int(CLOSING_SHARE * min(region.shape[:2])) | 1)
    behind = cv2.morphologyEx(region, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    behind_lab = cv2.cvtColor(behind, cv2.COLOR_BGR2LAB).astype(np.float32)
    # the face's own hue, whatever the light's cast: the table and the gaps between tiles differ from it
    off_hue = np.hypot(behind_lab[..., 1] - face_lab[1], behind_lab[..., 2] - face_lab[2])
    face = (behind_lab[..., 0] > face_lab[0] - 70) & (off_hue < 22)
    within = cv2.erode(inside_of(face).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.float32)
    distance = np.linalg.norm(lab - behind_lab, axis=2)
    grain = min(float(np.quantile(distance[face_px], 0.9)) + 2, 10.0)  # the face's own texture and noise
    return np.clip((distance - grain) / 15, 0, 1) * within, behind.astype(np.float32)


def inked_red(image: np.ndarray, box: Box, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``image`` (BGR uint8) with the ink of the tile in ``box`` repainted red; the rest of the image is
    untouched. Raises ValueError for an image that is not BGR uint8 or a box that holds fewer than 4 x 4 of its
    pixels.

    How, inside the tile's box:

    - the face without its ink: a morphological closing by an ellipse about a fifth of the box's short side, which fills
      strokes and pins with the face around them and keeps the face's own light (a shaded half stays shaded);
    - the face itself: where that closing is light and of the face's own hue (the table and the gaps between tiles are
      not), and every pixel with face to its left, right, above and below (so not the table, nor the tile's sides);
    - ink: how far each pixel's colour is from the face behind it (CIELAB distance), above the face's own grain,
      ramped over 15 units, so that a stroke's soft edge is partly repainted as a printed edge is;
    - the red: the face's colour behind it, its channels scaled as red ink reflects light (R 0.92, G 0.18, B 0.22,
      times a brightness drawn in 0.85-1.05), so red ink in shade is dark red, not a flat colour pasted on.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 image (h, w, 3), got {image.dtype} {image.shape}")
    h, w = image.shape[:2]
    x1, y1 = max(round(box.x1), 0), max(round(box.y1), 0)
    x2, y2 = min(round(box.x2), w), min(round(box.y2), h)
    if x2 - x1 < 4 or y2 - y1 < 4:
        raise ValueError(f"the box {box} holds too little of the {h}x{w} image (h x w) to repaint")
    region = np.ascontiguousarray(image[y1:y2, x1:x2])
    weight, behind = ink_weights(region)
    red = behind * (RED_INK * np.float32(rng.uniform(0.85, 1.05)))
    weight = weight[..., None]
    out = image.copy()
    out[y1:y2, x1:x2] = np.clip(region * (1 - weight) + red * weight, 0, 255).astype(np.uint8)
    return out
