"""``jantaku-lab bench read`` end to end on a tiny frame, one round, a fixed-output ONNX model as ours and as
the peer."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from device.lab.cli import main
from tests.vision.fakes import constant_onnx, encode

pytest.importorskip("onnx", reason="building test ONNX files needs the onnx package (pip install onnx)")

# two tiles in a row, in network pixels of the 256 x 320 input
ROW = [(0, 100, 100, 30, 40, 0.9), (1, 132, 100, 30, 40, 0.8)]


@pytest.fixture(scope="module")
def bench_files(tmp_path_factory) -> tuple[Path, Path]:
    """Our model (also the peer's stand-in) and a frame, not square, to read."""
    folder = tmp_path_factory.mktemp("bench")
    (folder / "frame.jpg").write_bytes(encode(np.full((128, 160, 3), 90, np.uint8)))
    return constant_onnx(folder / "tiles.onnx", ROW), folder / "frame.jpg"


@pytest.fixture(scope="module")
def model(bench_files) -> Path:
    return bench_files[0]


@pytest.fixture(scope="module")
def frame(bench_files) -> Path:
    return bench_files[1]


def bench_json(capsys, *argv: str) -> dict:
    assert main(["bench", "read", *argv, "--rounds", "1", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    return json.loads(out[0])


def test_bench_read_json_beside_the_peer(model, frame, capsys):
    report = bench_json(capsys, "--model", str(model), "--peer", str(model), "--image", str(frame))
    assert report["rounds"] == 1 and report["peer"] == str(model)
    assert report["pi5"]["gmacs_per_s"] > 0 and "not measured on a Pi" in report["pi5"]["source"]
    (image,) = report["images"]
    assert (image["name"], image["size"]) == ("frame.jpg", [160, 128])
    for who in ("camera", "photo", "peer"):
        r = image[who]
        assert r["runs_per_read"] == [r["runs"]] and r["best_ms"] == r["median_ms"] > 0
        assert r["macs"] >= 0 and r["pi5_ms_estimate"] >= 0
    assert image["peer"]["runs"] == 1
    # each reader names what its networks took; a detector run here feeds it one image
    detector = image["camera"]["networks"][0]
    assert detector["model"] == "tiles.onnx" and detector["runs"] == detector["images"] == image["camera"]["runs"]
    assert set(image["ratio_to_peer"]) == {"camera", "photo"}
    assert image["ratio_to_peer"]["camera"] == pytest.approx(
        image["camera"]["median_ms"] / image["peer"]["median_ms"], abs=0.01
    )


def test_bench_read_without_the_peer_reports_ours_alone(model, frame, capsys, monkeypatch):
    from vision.eval import bench
    from vision.read.errors import ModelError

    def missing():
        raise ModelError("the peer package mahjong-detector is not installed")

    monkeypatch.setattr(bench, "peer_model_path", missing)
    report = bench_json(capsys, "--model", str(model), "--image", str(frame))
    assert report["peer"] is None and "not installed" in report["peer_missing"]
    (image,) = report["images"]
    assert "camera" in image and "photo" in image and "peer" not in image and "ratio_to_peer" not in image


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--pi5-gmacs", "0"], "--pi5-gmacs must be above 0"),
        (["--image", "no-such-file.jpg"], "no-such-file.jpg"),
    ],
)
def test_bench_read_refuses_bad_input(model, argv, message, capsys):
    assert main(["bench", "read", "--model", str(model), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# --- eval phone --views: which views jantaku read runs, to measure one's removal ---------------------------------


@pytest.mark.parametrize(
    ("text", "views"),
    [
        (None, ("photo_edge", "low_angle", "upside_down", "white_balance", "turned_tiles")),  # today's: all
        ("none", ()),
        ("turned_tiles,photo_edge", ("photo_edge", "turned_tiles")),  # in the one order they compose in
        (" low_angle , ", ("low_angle",)),
    ],
)
def test_eval_phone_views(text, views):
    from device.lab.vision import parse_views

    assert parse_views(text) == views


@pytest.mark.parametrize("text", ["", "squash", "none,low_angle", "photo_edge,halfturn"])
def test_eval_phone_refuses_unknown_views(text):
    from device.cli import UserError
    from device.lab.vision import parse_views

    with pytest.raises(UserError, match="--views: none, or one or more of photo_edge"):
        parse_views(text)


def test_eval_phone_default_reader_runs_every_view():
    from device.lab.cli import build_parser
    from device.lab.vision import parse_views
    from vision.read.pipeline import ReaderConfig

    args = build_parser().parse_args(["eval", "phone"])
    assert parse_views(args.views) == ReaderConfig.for_photo().views
