"""``jantaku-lab train``'s options for alanchoi00's photos: bad values refused in one line, good ones passed on."""

from __future__ import annotations

import pytest

from device.lab.cli import main


def _train(tmp_path, *extra: str) -> list[str]:
    data = tmp_path / "data"
    (data / "images").mkdir(parents=True, exist_ok=True)
    return ["train", "--data", str(data), "--val", str(data), "--model", "yolo11n.yaml", *extra]


@pytest.mark.parametrize(
    ("scale", "message"),
    [
        ("1.25", "--other-sets-box-scale must be WIDTH,HEIGHT factors within 0.5..2"),  # one factor
        ("1.25,1.20,1", "--other-sets-box-scale must be WIDTH,HEIGHT"),  # three
        ("1.25,tall", "--other-sets-box-scale must be WIDTH,HEIGHT"),
        ("0,1.2", "--other-sets-box-scale must be WIDTH,HEIGHT"),  # no box left
        ("1.25,3", "--other-sets-box-scale must be WIDTH,HEIGHT"),  # three tiles tall
        ("nan,1.2", "--other-sets-box-scale must be WIDTH,HEIGHT"),
    ],
)
def test_a_bad_box_scale_is_one_line_and_exit_2(tmp_path, capsys, scale, message):
    argv = _train(tmp_path, "--other-sets-repeats", "1", "--other-sets-box-scale", scale, "--project", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err and repr(scale) in err
    assert not (tmp_path / "tiles").exists()  # refused before anything was written


def test_a_box_scale_without_alanchoi00s_photos_is_refused(tmp_path, capsys):
    assert main(_train(tmp_path, "--other-sets-box-scale", "1.25,1.20", "--project", str(tmp_path))) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "give --other-sets-repeats 1 or more" in err


@pytest.mark.parametrize(
    ("argv", "scale"),
    [
        ([], (1.0, 1.0)),  # as labelled unless asked
        (["--other-sets-box-scale", "1.25,1.20"], (1.25, 1.2)),
    ],
)
def test_the_box_scale_reaches_the_training_data(tmp_path, capsys, monkeypatch, argv, scale):
    from vision.train import training

    specs = []

    def assemble(spec, out):  # stands in for writing the data: the spec is what is checked
        specs.append(spec)
        raise FileNotFoundError("stopped before writing")

    monkeypatch.setattr(training, "assemble", assemble)
    assert main(_train(tmp_path, "--other-sets-repeats", "1", *argv, "--project", str(tmp_path))) == 2
    [spec] = specs
    assert spec.other_sets_repeats == 1 and spec.other_sets_box_scale == scale


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--real-per-box", "0"], "--real-per-box must be at least 1"),
        (["--real", "leo", "--judge", "{tmp}/none.onnx"], "no way-up model at"),
    ],
)
def test_train_way_up_refuses_bad_real_options_in_one_line(tmp_path, capsys, monkeypatch, extra, message):
    import device.lab.way_up as way_up

    monkeypatch.setattr(way_up, "require_cjk_font", lambda what: None)
    built = []
    monkeypatch.setattr("vision.train.way_up_training.way_up_crops", lambda *a, **k: built.append(a))
    crops = tmp_path / "crops"
    argv = ["train-way-up", "--crops", str(crops), "--out", str(tmp_path / "w.onnx"), *extra]
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err
    assert not built and not crops.exists() and not (tmp_path / "w.onnx").exists()  # refused before any work


def test_train_way_up_names_the_real_sources_the_trainer_knows():
    from device.lab.way_up import REAL_SOURCES
    from vision.train.way_up_training import REAL_SOURCES as KNOWN

    assert REAL_SOURCES == KNOWN


def test_train_way_ups_real_crops_are_cached_with_the_photos_they_kept(tmp_path, monkeypatch):
    import argparse

    import numpy as np

    import vision.train.way_up_training as training
    from device.lab.way_up import _with_real
    from tests.vision.read.test_way_up import band_model
    from tests.vision.train.test_way_up_training import scene
    from vision.read.way_up import OnnxWayUp

    judge = OnnxWayUp(band_model(tmp_path / "judge.onnx"))
    shots = [scene(["1m", "2m", "8p"], True), scene(["2p", "8p", "5z"], False)]
    monkeypatch.setattr(training, "real_way_up_scenes", lambda sources: iter(shots))
    args = argparse.Namespace(real=["leo"], real_per_box=2, seed=3, crops=str(tmp_path / "crops"))
    cards = np.zeros((5, *judge.crops(shots[0].image, []).shape[1:]), np.uint8)
    first = _with_real(cards, judge, args)
    monkeypatch.setattr(training, "real_way_up_scenes", lambda sources: pytest.fail("read again"))
    again = _with_real(cards, judge, args)
    assert first[1] == again[1]
    assert first[1]["real_photos"] == {"leo": {"upright": 0, "upside_down": 1, "untold": 1}}
    assert first[1]["real_crops"] == 6 and len(first[0]) == len(again[0]) == 11
    assert np.array_equal(first[0], again[0])


def test_eval_way_up_refuses_a_missing_model_in_one_line(tmp_path, capsys):
    assert main(["eval", "way-up", "--model", str(tmp_path / "none.onnx")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no way-up model at" in err
