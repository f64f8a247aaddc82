"""Tile reading, in rooms by job:

- :mod:`vision.read` — the runtime the table runs: one reader built from configuration
  (:mod:`vision.read.pipeline`), the detector, the crop classifier, the extra views (:mod:`vision.read.views`),
  rows and whole-table reading. It imports nothing from the lab.
- the lab, which the table never runs: :mod:`vision.synth` (rendering scenes and cards), :mod:`vision.train`
  (training and exporting the networks), :mod:`vision.eval` (measuring them).

vision uses the engine's tile types and imports nothing from ``device`` or ``web``.
"""
