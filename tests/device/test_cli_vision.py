"""``jantaku read`` end to end, on tiny ONNX models with fixed outputs (the lab's ``eval`` and ``bench`` commands:
tests/device/lab/test_vision_commands.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from device.cli import main
from tests.vision.fakes import ROW_AND_A_BACK, constant_onnx, encode, grey_photo, with_exif_orientation

pytest.importorskip("onnx", reason="building test ONNX files needs the onnx package (pip install onnx)")

REPO = Path(__file__).resolve().parents[2]

ROW = ROW_AND_A_BACK


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    return constant_onnx(tmp_path_factory.mktemp("model") / "tiles.onnx", ROW)


@pytest.fixture
def photo(tmp_path) -> Path:
    return grey_photo(tmp_path / "hand.jpg")


def test_read_json(model, photo, capsys):
    assert main(["read", str(photo), "--model", str(model), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    record = json.loads(out[0])
    assert set(record) == {"file", "tiles", "detections", "ms", "runs", "left_out"}
    assert record["file"] == str(photo) and record["tiles"] == "12m5z"
    assert record["detections"][0] == {"tile": "1m", "box": [42.5, 40.0, 57.5, 60.0], "conf": 0.9}
    assert {d["tile"] for d in record["detections"]} == {"1m", "2m", "5z", "back"}
    assert isinstance(record["ms"], float) and record["ms"] >= 0
    # the photo read whole, its half turn probed (three face-up tiles are too few for the way-up vote), and read
    # again balanced (its faces are a dim grey)
    assert record["runs"] == 3 and record["left_out"] == []  # within the photo reader's budget


def test_read_honours_exif_before_detecting(model, tmp_path, capsys):
    # stored 160 x 128 (h x w), turned by EXIF to 128 x 160: boxes are in the upright frame
    path = tmp_path / "portrait.jpg"
    path.write_bytes(with_exif_orientation(encode(np.full((160, 128, 3), 90, np.uint8)), 6))
    assert main(["read", str(path), "--model", str(model), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["detections"][0]["box"] == [42.5, 40.0, 57.5, 60.0]


def test_read_plain_text_and_annotation(model, photo, tmp_path, capsys):
    out_file = tmp_path / "annotated.png"
    assert main(["read", str(photo), "--model", str(model), "--annotate", str(out_file)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{photo}: 12m5z") and "1 face down" in line
    from vision.read.images import load_image

    drawn = load_image(out_file)
    assert drawn.shape == (128, 160, 3) and not (drawn == load_image(photo)).all()


def test_read_many_with_one_bad(model, photo, tmp_path, capsys):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    folder = tmp_path / "annotated"
    rc = main(["read", str(photo), str(bad), str(photo), "--model", str(model), "--json", "--annotate", str(folder)])
    captured = capsys.readouterr()
    assert rc == 2
    assert len(captured.out.splitlines()) == 2
    assert captured.err.strip().splitlines() == [
        f"jantaku read: {bad}: not a readable image (JPEG, PNG, BMP, TIFF, WebP ...)"
    ]
    assert (folder / "hand.annotated.jpg").is_file()


def test_read_works_without_torch(model, photo):
    """A fresh install has no torch: block it (and ultralytics) and read a photo in a fresh interpreter."""
    script = (
        "import sys\n"
        "sys.modules['torch'] = None\n"
        "sys.modules['ultralytics'] = None\n"
        "from device.cli import main\n"
        f"rc = main(['read', {str(photo)!r}, '--model', {str(model)!r}, '--json'])\n"
        "loaded = sorted(m for m, v in sys.modules.items() if v is not None and m.split('.')[0] in "
        "('torch', 'torchvision', 'ultralytics'))\n"
        "print('LOADED', loaded)\n"
        "sys.exit(rc)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert json.loads(lines[0])["tiles"] == "12m5z"
    assert lines[1] == "LOADED []"


def test_read_table_groups_by_seat(model, photo, capsys):
    """``--table`` adds the per-seat grouping (vision.read.table); without it the JSON line keeps its four keys."""
    assert main(["read", str(photo), "--model", str(model), "--json", "--table"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {"file", "tiles", "detections", "ms", "runs", "left_out", "table"}
    table = record["table"]
    assert [s["side"] for s in table["seats"]] == ["bottom", "right", "top", "left"]
    from engine.tiles import parse_tiles

    groups = [s["hand"] for s in table["seats"]] + [s["pond"] for s in table["seats"]]
    groups += [m["tiles"] for s in table["seats"] for m in s["melds"]]
    groups += [d["tile"] for d in table["unassigned"] if d["tile"] != "back"]
    assert sorted(t for g in groups for t in parse_tiles(g)) == sorted(parse_tiles("12m5z"))  # each tile once
    assert table["backs"] == 1  # the face-down tile, wherever it went
    assert main(["read", str(photo), "--model", str(model), "--table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{photo}: 12m5z") and any(": hand " in line for line in lines[1:])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["read", "{photo}", "--model", "{tmp}/none.onnx"], "no detector model at"),
        (["read", "{photo}", "--model", "{model}", "--conf", "1.5"], "--conf must be"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(model, photo, tmp_path, capsys, argv, message):
    argv = [a.format(photo=photo, tmp=tmp_path, model=model) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err
