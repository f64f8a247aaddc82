"""The reading pinned before the reading pipeline was re-laid (issue 30): what ``jantaku read --json`` and the
camera loop made of fixed images, kept in ``tests/vision/data/read_golden.json``.

    python -m tests.vision.golden_reading           # write the file anew (only when a change of readings is meant)
    python -m tests.vision.golden_reading variants  # (re)write only the photos read as taken otherwise

Photos: the real held-out split (:func:`vision.eval.real_photos.held_out_split`, beside the checkout in ../shared), read
by ``jantaku read --json`` one by one, and a few of them with ``--table``. Camera: the first frames of the demo
recording (in the repo), in order through the camera loop's reader with the shipped models, and through the
recording's own labels (the demo without a model).
"""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stdout
from pathlib import Path

GOLDEN = Path(__file__).parent / "data" / "read_golden.json"
#: Photos of the held-out split also read with ``--table`` (indices into the split, in its order).
TABLE_PHOTOS = (0, 7)
#: Photos of the held-out split also read as taken otherwise (indices into the split), each in every variant below,
#: so that each of the photo reader's views has photos to work on: upside down (from across the table), squashed
#: (seen from a low angle), turned in the frame (tiles lying turned), under warm dim light (white balance), and cut
#: by the photo's edge.
VARIANT_PHOTOS = (0, 4, 14, 18)
#: How many of the demo recording's frames the camera loop reads, in order (every fifth).
CAMERA_FRAMES = 5


def photo_root() -> Path:
    """Where the real photos lie (as :mod:`vision.eval.real_photos` finds them)."""
    import os

    from vision.eval.real_photos import DEFAULT_ROOT

    return Path(os.environ.get("JANTAKU_REAL_PHOTOS", DEFAULT_ROOT))


def held_out() -> list[Path]:
    from vision.eval.real_photos import held_out_split

    return [p.image for p in held_out_split()]


def detection_record(d: dict) -> list:
    """One detection of ``read --json`` as kept: tile (or class name), box to a tenth of a pixel, conf to 3
    places, turn."""
    return [d.get("tile") or d.get("class"), [round(v, 1) for v in d["box"]], round(d["conf"], 3), d.get("turn", 0)]


def read_json(paths: list[Path], *extra: str, root: Path | None = None) -> list[dict]:
    """``jantaku read --json`` over ``paths`` (in this process), each record kept without its time."""
    from device.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["read", "--json", *extra, *map(str, paths)])
    assert rc == 0, rc
    records = []
    root = root or photo_root()
    for line in out.getvalue().splitlines():
        r = json.loads(line)
        record = {
            "file": str(Path(r["file"]).relative_to(root)),
            "tiles": r["tiles"],
            "detections": [detection_record(d) for d in r["detections"]],
        }
        if "table" in r:
            record["table"] = r["table"]
        records.append(record)
    return records


def variant(image, name: str):
    """``image`` (BGR) as taken otherwise: see :data:`VARIANT_PHOTOS`."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    if name == "upside_down":
        return np.ascontiguousarray(image[::-1, ::-1])
    if name == "low_angle":
        return cv2.resize(image, (w, max(1, round(h * 0.35))), interpolation=cv2.INTER_AREA)
    if name == "turned":
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), 30.0, 1.0)
        return cv2.warpAffine(image, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if name == "warm_dim":
        return np.clip(image.astype(np.float32) * np.array([0.45, 0.6, 0.8], np.float32), 0, 255).astype(np.uint8)
    if name == "edge_cut":
        return np.ascontiguousarray(image[:, w // 6 : w - w // 6])
    raise ValueError(name)


VARIANTS = ("upside_down", "low_angle", "turned", "warm_dim", "edge_cut")


def variant_files(folder: Path) -> list[Path]:
    """:data:`VARIANT_PHOTOS` in each of :data:`VARIANTS`, written losslessly to ``folder`` (``<index>_<name>.png``)."""
    import cv2

    from vision.read.images import load_image

    photos = held_out()
    out = []
    for i in VARIANT_PHOTOS:
        image = load_image(photos[i])
        for name in VARIANTS:
            path = folder / f"{i:02d}_{name}.png"
            cv2.imwrite(str(path), variant(image, name))
            out.append(path)
    return out


def read_variants(folder: Path) -> list[dict]:
    """``jantaku read --json`` over :func:`variant_files`, each record named by its file."""
    records = read_json(variant_files(folder), root=folder)
    return records


def camera_frames() -> list:
    """Frames of the demo recording (every fifth of the first ones), as the camera delivers them."""
    from device.camera.sources import Frame
    from device.demo import RECORDING
    from vision.read.images import load_image

    paths = sorted(RECORDING.glob("*.jpg"))[: 5 * CAMERA_FRAMES : 5]
    return [Frame(load_image(p), index=i, origin=str(p)) for i, p in enumerate(paths)]


def observation_record(reading, origin: str) -> dict:
    """What the camera loop's reader made of one frame (from ``origin``): rows, backs, the detections, the table's
    summary."""
    return {
        "origin": Path(origin).name,
        "rows": [" ".join(str(t) for t in row) for row in reading.tile_rows],
        "backs": reading.backs,
        "detections": [detection_record(d.as_json()) for d in reading.detections],
        "table": None if reading.table is None else reading.table.as_json(),
    }


def camera_readings(read_frame) -> list[dict]:
    """``read_frame`` (a frame in, a :class:`~vision.read.pipeline.Reading` out) over :func:`camera_frames`, in
    order."""
    return [observation_record(read_frame(frame), frame.origin) for frame in camera_frames()]


def camera_readers() -> dict:
    """The camera loop's readers as ``jantaku run`` builds them: the shipped models (squared to the table), and the
    demo's recorded labels. (The golden file was written with the loop's ``Pipeline`` of before issue 30.)"""
    from device.commands.run import FrameReader, make_readers, recorded_reader
    from device.config import Config
    from device.demo import RECORDING

    camera, _photo = make_readers(Config())
    return {"model": FrameReader(camera), "recorded": recorded_reader(RECORDING)}


def write(camera_readers: dict) -> dict:
    photos = held_out()
    golden = {
        "photos": read_json(photos),
        "tables": read_json([photos[i] for i in TABLE_PHOTOS], "--table"),
        "camera": {name: camera_readings(read) for name, read in camera_readers.items()},
    }
    GOLDEN.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    return golden


def write_variants() -> None:
    """Add the variants' readings to the golden file (run with the code they pin)."""
    import tempfile

    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as folder:
        golden["variants"] = read_variants(Path(folder))
    GOLDEN.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["variants"]:
    write_variants()
elif __name__ == "__main__":
    g = write(camera_readers())
    print(f"{GOLDEN}: {len(g['photos'])} photos, {len(g['tables'])} tables, camera {sorted(g['camera'])}",
          file=sys.stderr)  # fmt: skip
