"""The bundled demo recording: what ``jantaku run`` plays when there is no camera.

``recording/`` holds JPEG frames of one whole hand (discards, a pon, a riichi, an added kan with its dora, East's
tsumo), ``recording.json`` (their order; per frame how long the table stays still, the arm over it, what it shows
and the engine events it should make; the winner and the payments) and ``labels/`` (exact YOLO boxes).
:mod:`device.lab.demo_make` renders it, seeded.
"""

from pathlib import Path

RECORDING = Path(__file__).resolve().parent / "recording"
