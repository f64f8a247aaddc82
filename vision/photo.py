"""Reading a photo at the scale its tiles call for: the whole photo first, slices only when its tiles are small.

A photo's tiles may be any size: a phone close-up of a hand shows tiles a tenth of its width or more, an overhead
frame of a whole table shows them at 1-2 %. The camera's detector (:class:`vision.detector.SlicedDetector`) reads
every frame as a whole pyramid of views; on a close-up, its slices zoom in on tiles bigger than any the network
learnt and on the clutter around them (book spines, a phone, the mat's pattern), and box parts of both as tiles.
Measured on the real held-out photos cut close or tiled and enlarged to 4000 px
(``jantaku eval phone``, 104 shots, 1,070 tiles): the pyramid read them at precision 0.64, recall 0.98, 21 shots
exact, 1.7 s a shot; read this way, precision 0.95, recall 0.98, 72 shots exact, 65 ms.

So :class:`PhotoDetector` reads the whole photo first. When the tiles it found are big enough at the network's
input (their median short side at least ``min_tile`` of the input's side), that reading stands: slices would show
the same tiles too big. Otherwise (no tile found, or small ones) it reads the photo again in slices, at the one
scale that shows its tiles at about ``target`` of the input side, judged from what the whole pass found (half
scale when it found nothing to judge by).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detector import Detection, DetectorOptions, Network, SlicedDetector


class PhotoDetector:
    """A :class:`~vision.detector.Detector` for photos of any scale (see the module's docstring).

    ``passes`` records, per photo read, ``"whole"`` or ``"sliced@<scale>"``: how it was read.
    """

    def __init__(
        self,
        network: Network,
        options: DetectorOptions | None = None,
        *,
        min_tile: float = 0.035,
        target: float = 0.072,
    ) -> None:
        self.network = network
        self.options = options or DetectorOptions()
        self.whole = SlicedDetector(network, replace(self.options, scales=()))
        #: Median short side, as a share of the input's side, above which the whole-photo reading stands (15 px
        #: of 416, the small end of the sizes the shipped model learnt).
        self.min_tile = min_tile
        #: The size the slices show tiles at, as a share of the input's side (the middle of what it learnt).
        self.target = target
        self.passes: list[str] = []

    @property
    def input_size(self):
        return self.whole.input_size

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.whole.detect(image)
        h, w = image.shape[:2]
        net = self.whole.input_size
        side = min(net.height, net.width)
        whole_scale = min(net.height / h, net.width / w)  # network pixels per photo pixel, whole photo letterboxed
        sizes = sorted(min(d.box.x2 - d.box.x1, d.box.y2 - d.box.y1) * whole_scale for d in found)
        median = sizes[len(sizes) // 2] if sizes else 0.0
        if found and median >= self.min_tile * side:
            self.passes.append("whole")
            return found
        scale = 0.5
        if len(sizes) >= 3 and median > 0:  # bring the tiles it did see to the target size
            scale = self.target * side / (median / whole_scale)
        scale = min(1.0, max(scale, 1.5 * whole_scale))
        self.passes.append(f"sliced@{scale:.2f}")
        return SlicedDetector(self.network, replace(self.options, scales=(scale,))).detect(image)
