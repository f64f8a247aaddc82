"""The reading pinned before the reading pipeline was re-laid (issue 30): what ``jantaku read --json`` and the
camera loop made of fixed images, kept in ``tests/vision/data/read_golden.json``.

    python -m tests.vision.golden_reading          # write the file anew (only when a change of readings is meant)

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


def read_json(paths: list[Path], *extra: str) -> list[dict]:
    """``jantaku read --json`` over ``paths`` (in this process), each record kept without its time."""
    from device.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["read", "--json", *extra, *map(str, paths)])
    assert rc == 0, rc
    records = []
    root = photo_root()
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


def camera_frames() -> list:
    """Frames of the demo recording (every fifth of the first ones), as the camera delivers them."""
    from device.demo import RECORDING
    from device.sources import Frame
    from vision.read.images import load_image

    paths = sorted(RECORDING.glob("*.jpg"))[: 5 * CAMERA_FRAMES : 5]
    return [Frame(load_image(p), index=i, origin=str(p)) for i, p in enumerate(paths)]


def observation_record(obs) -> dict:
    """What the camera loop's reader made of one frame: rows, backs, the detections, the table's summary."""
    return {
        "origin": Path(obs.origin).name,
        "rows": [" ".join(str(t) for t in row) for row in obs.rows],
        "backs": obs.backs,
        "detections": [detection_record(d.as_json()) for d in obs.detections],
        "table": None if obs.table is None else obs.table.as_json(),
    }


def camera_readings(read_frame) -> list[dict]:
    """``read_frame`` (a frame in, an observation out) over :func:`camera_frames`, in order."""
    return [observation_record(read_frame(frame)) for frame in camera_frames()]


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


if __name__ == "__main__":
    g = write(camera_readers())
    print(f"{GOLDEN}: {len(g['photos'])} photos, {len(g['tables'])} tables, camera {sorted(g['camera'])}", file=sys.stderr)
