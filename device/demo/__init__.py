"""The bundled demo recording: what ``jantaku run`` plays when there is no camera.

``recording/`` holds JPEG frames, ``recording.json`` (their order, how long the table stays still, what each
shows) and ``labels/`` (exact YOLO boxes). :mod:`device.lab.demo_make` renders it, seeded.
"""

from pathlib import Path

RECORDING = Path(__file__).resolve().parent / "recording"
