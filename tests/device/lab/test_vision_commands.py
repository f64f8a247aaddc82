"""``jantaku-lab eval detector``/``phone``, ``bench detector``, ``synth``, ``train`` and ``train-classifier``
end to end, on tiny ONNX models with fixed outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from device.lab.cli import build_parser, main
from tests.vision.fakes import ROW_AND_A_BACK, constant_onnx, encode, grey_photo

pytest.importorskip("onnx", reason="building test ONNX files needs the onnx package (pip install onnx)")

REPO = Path(__file__).resolve().parents[3]

ROW = ROW_AND_A_BACK


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    return constant_onnx(tmp_path_factory.mktemp("model") / "tiles.onnx", ROW)


@pytest.fixture
def photo(tmp_path) -> Path:
    return grey_photo(tmp_path / "hand.jpg")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "detector", "--model", "{model}", "--only", "synth"], "--only takes rendered, real, crops"),
        (["eval", "detector", "--model", "{model}", "--only", "rendered", "--n", "0"], "--n is a count of rendered"),
        (["eval", "phone", "--model", "{model}", "--zooms", "2"], "--zooms are above 0 and at most 1"),
        (["eval", "phone", "--model", "{model}", "--mosaics", "two"], "--mosaics whole numbers"),
        (["eval", "phone", "--model", "{model}", "--hands", "-1"], "--hands >= 0"),
        (["eval", "phone", "--model", "{model}", "--turns", "a,b"], "--turns take numbers"),
        (["eval", "phone", "--model", "{model}", "--loose", "-2"], "--loose is a count"),
        (["eval", "camera", "--model", "{model}", "--turns", "ten"], "--turns takes numbers"),
        (["eval", "phone", "--model", "{model}", "--lights", "warm,purple"], "no light purple"),
        (["eval", "phone", "--model", "{model}", "--squashes", "0.5,1.5"], "--squashes are above 0"),
        (["eval", "phone", "--model", "{model}", "--squashes", "low"], "--glares and --turns take numbers"),
        (["eval", "phone", "--model", "{model}", "--blurs", "0.9"], "--blurs are shares of a tile's width"),
        (["eval", "phone", "--model", "{model}", "--tilts", "0.6,1.2"], "--tilts are the far edge's share"),
        (["eval", "phone", "--model", "{model}", "--tilts", "far"], "--glares and --turns take numbers"),
        (["eval", "phone", "--model", "{model}", "--glares", "bright"], "--glares and --turns take numbers"),
        (["eval", "phone", "--model", "{model}", "--glares", "0.5,1.5"], "--glares are the reflection's strength"),
        (["train-classifier", "--crops", "{tmp}/crops", "--glare", "2"], "--glare is a share of each batch"),
        (["eval", "phone", "--model", "{model}", "--readers", "read,eyes"], "--readers: one or more of pyramid"),
        (["eval", "phone", "--model", "{model}", "--readers", ","], "--readers: one or more of pyramid"),
        (["bench", "detector", "--model", "{model}", "--runs", "5"], "--runs must be at least 20"),
        (["eval", "real", "--model", "{model}", "--every", "0"], "--every N reads every Nth photo: N at least 1"),
        (["eval", "phantoms", "--model", "{model}", "--data", "{tmp}/nowhere"], "no images/ folder"),
        (["eval", "phantoms", "--model", "{model}", "--data", "{tmp}", "--limit", "0"], "--limit is a count"),
        (["eval", "phantoms", "--model", "{model}", "--data", "{tmp}", "--views", "eyes"], "--views: none, or one"),
        (
            ["eval", "phantoms", "--model", "{model}", "--data", "{tmp}", "--reader", "camera", "--views", "none"],
            "the camera's reader has none",
        ),
        (
            ["eval", "real", "--model", "{model}", "--reader", "camera", "--views", "none"],
            "the camera's reader has none",
        ),
        (["train-classifier", "--crops", "{tmp}/crops", "--cards", "-5"], "are counts: 0 or more"),
        (["train-classifier", "--crops", "{tmp}/crops", "--cards-bonus", "-5"], "are counts: 0 or more"),
        (["train-classifier", "--crops", "{tmp}/crops", "--cards-brush", "-5"], "are counts: 0 or more"),
        (["train-classifier", "--crops", "{tmp}/crops", "--cards-distractors", "-5"], "are counts: 0 or more"),
        (["synth", "--n", "1", "--out", "{tmp}/synth", "--distractors", "1.5"], "--distractors must be within 0..1"),
        (["synth", "--n", "1", "--out", "{tmp}/synth", "--close-ups", "-0.1"], "--close-ups must be within 0..1"),
        (["train-classifier", "--crops", "{tmp}/crops", "--warmup", "1"], "--warmup is a share"),
        (["train-classifier", "--crops", "{tmp}/crops", "--blur", "1.5"], "--blur is a share"),
        (["train-classifier", "--crops", "{tmp}/crops", "--box-noise", "0.5"], "--box-noise is a share"),
        (["train-classifier", "--crops", "{tmp}/crops", "--blur-sigma", "2", "1"], "--blur-sigma LO HI"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(model, photo, tmp_path, capsys, argv, message):
    argv = [a.format(photo=photo, tmp=tmp_path, model=model) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize(
    ("argv", "cards_bonus"),
    [
        ([], 0),  # none unless asked for
        (["--cards-bonus", "8000"], 8000),
    ],
)
def test_train_classifier_takes_a_count_of_bonus_cards(argv, cards_bonus):
    assert build_parser().parse_args(["train-classifier", *argv]).cards_bonus == cards_bonus


@pytest.mark.parametrize(("argv", "cards_distractors"), [([], 0), (["--cards-distractors", "6000"], 6000)])
def test_train_classifier_takes_a_count_of_distractor_cards(argv, cards_distractors):
    assert build_parser().parse_args(["train-classifier", *argv]).cards_distractors == cards_distractors


@pytest.mark.parametrize(("argv", "distractors"), [([], 0.0), (["--distractors", "0.3"], 0.3)])  # none unless asked
def test_synth_takes_a_share_of_images_with_distractors(argv, distractors):
    assert build_parser().parse_args(["synth", "--n", "1", "--out", "x", *argv]).distractors == distractors


@pytest.mark.parametrize(
    ("command", "option", "message"),
    [
        (["synth", "--n", "1", "--out", "{tmp}/synth"], "--drawn-faces", "--drawn-faces needs a CJK font"),
        (["train-classifier", "--crops", "{tmp}/crops"], "--cards-brush", "--cards-brush needs a CJK font"),
    ],
)
def test_drawn_characters_without_a_cjk_font_are_refused_before_anything_is_written(
    tmp_path, capsys, monkeypatch, command, option, message
):
    from vision.synth import glyphs

    # without a font the faces would fall back to the artwork: the same seed would give other images
    monkeypatch.setattr(glyphs, "cjk_fonts", lambda: ())
    assert main([a.format(tmp=tmp_path) for a in command] + [option, "0.5" if option == "--drawn-faces" else "10"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "synth").exists() and not (tmp_path / "crops").exists()


@pytest.mark.parametrize(("option", "key"), [("--distractors", "distractors"), ("--close-ups", "close_ups")])
def test_synth_renders_distractors_and_close_ups_when_asked(tmp_path, capsys, option, key):
    import json

    out = tmp_path / "synth"
    assert main(["synth", "--n", "2", "--out", str(out), "--size", "200x120", option, "1", "--seed", "4"]) == 0
    assert json.loads((out / "synth.json").read_text())[key] == 1.0
    assert len(list((out / "images").glob("*.jpg"))) == 2


@pytest.mark.parametrize(("argv", "box_noise"), [([], None), (["--box-noise", "0.1"], 0.1)])  # None: Jitter's own
def test_train_classifier_takes_a_box_noise(argv, box_noise):
    assert build_parser().parse_args(["train-classifier", *argv]).box_noise == box_noise


@pytest.mark.parametrize(("argv", "cards_brush"), [([], 0), (["--cards-brush", "30000"], 30000)])
def test_train_classifier_takes_a_count_of_brushed_cards(argv, cards_brush):
    assert build_parser().parse_args(["train-classifier", *argv]).cards_brush == cards_brush


def test_bench_prints_both_medians_and_the_ratio(model, tmp_path, capsys):
    peer = constant_onnx(tmp_path / "peer.onnx", [], input_shape=(1, 3, 640, 640), names=("1m",) * 34)
    ours = constant_onnx(tmp_path / "ours.onnx", [], input_shape=(1, 3, 640, 640))
    assert main(["bench", "detector", "--model", str(ours), "--peer", str(peer), "--runs", "20", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("median") == 2 and "ratio ours / peer" in out


@pytest.mark.parametrize(
    ("init", "message"),
    [("{tmp}/none.onnx", "--init"), ("{model}", "not a tile classifier")],  # no file; a detector, not a classifier
)
def test_train_classifier_refuses_an_init_that_is_no_classifier_before_building_crops(
    model, tmp_path, capsys, init, message
):
    pytest.importorskip("torch")
    argv = ["train-classifier", "--crops", str(tmp_path / "crops"), "--cards", "2", "--init"]
    assert main([*argv, init.format(tmp=tmp_path, model=model)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err
    assert not (tmp_path / "crops").exists()


@pytest.mark.parametrize(
    ("onnx", "with_image", "message"),
    [
        ("models/tile_classifier.onnx", True, "not a Jantaku detector"),  # a classifier, not a detector
        ("models/tiles.onnx", False, "no images to calibrate on"),
    ],
)
def test_train_from_an_onnx_refuses_what_it_cannot_start_from(tmp_path, capsys, onnx, with_image, message):
    data = tmp_path / "data"
    (data / "images").mkdir(parents=True)
    if with_image:
        (data / "images" / "a.png").write_bytes(encode(np.full((48, 64, 3), 90, np.uint8), ".png"))
    model = str(REPO / onnx)
    argv = ["train", "--data", str(data), "--val", str(data), "--model", model, "--project", str(tmp_path / "runs")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize(
    ("asked", "read"),
    [
        (["--readers", "read"], ["jantaku read"]),
        # --views names the photo reader's views: the camera's reader, which has none, is read beside it all the same
        (["--readers", "read,camera", "--views", "none"], ["jantaku read", "camera"]),
    ],
)
def test_eval_phone_reads_with_the_readers_asked_for(model, capsys, asked, read):
    from vision.eval.real_photos import held_out_split

    try:
        held_out_split()
    except FileNotFoundError as exc:
        pytest.skip(f"no real photos in this checkout: {exc}")
    argv = ["eval", "phone", "--model", str(model), "--zooms", "0.45", "--mosaics", "", "--turns", "", "--lights", ""]
    argv += ["--squashes", "", "--no-camerash", "--side", "800", *asked, "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["readers"]) == read
    assert all(report["readers"][name]["all"]["shots"] == 24 for name in read)


def test_eval_phone_blurs_camerash_hands_as_it_blurs_the_photos(model, capsys):
    from vision.eval.evaluation import camerash_rows
    from vision.eval.phone_evaluation import HAND_ZOOMS
    from vision.eval.real_photos import held_out_split

    try:
        held_out_split()
        camerash_rows()
    except FileNotFoundError as exc:
        pytest.skip(f"no real photos or no camerash photos in this checkout: {exc}")
    argv = ["eval", "phone", "--model", str(model), "--zooms", "", "--mosaics", "", "--turns", "", "--lights", ""]
    argv += ["--squashes", "", "--blurs", "0.03", "--hands", "1", "--loose", "0", "--side", "800"]
    argv += ["--readers", "read", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    kinds = report["camerash_hands_blurred"]["jantaku read"]
    assert sorted(kinds) == ["all"] + [f"other set {z:g} blurred 0.03" for z in sorted(HAND_ZOOMS)]
    assert kinds["all"]["shots"] == report["camerash_hands"]["jantaku read"]["all"]["shots"] == len(HAND_ZOOMS)
    assert report["readers"]["jantaku read"]["all"]["shots"] == 24  # the held-out photos, blurred


def test_eval_phone_red_reads_the_photos_and_hands_that_show_a_five_with_their_fives_red(model, capsys):
    from vision.eval.evaluation import camerash_rows
    from vision.eval.real_photos import held_out_split
    from vision.read.labels import tile_of_class
    from vision.read.red_fives import is_five

    try:
        photos = held_out_split()
        camerash_rows()
    except FileNotFoundError as exc:
        pytest.skip(f"no real photos or no camerash photos in this checkout: {exc}")
    argv = ["eval", "phone", "--model", str(model), "--zooms", "", "--mosaics", "", "--turns", "", "--lights", ""]
    argv += ["--squashes", "", "--red", "--hands", "3", "--loose", "0", "--side", "800", "--readers", "read", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    showing = [p for p in photos if any(is_five(tile_of_class(b.class_id)) for b in p.boxes)]
    assert 0 < len(showing) < len(photos)
    kinds = report["readers"]["jantaku read"]
    assert sorted(kinds) == ["all", "fives inked red"] and kinds["all"]["shots"] == len(showing)
    red = report["camerash_hands_red"]["jantaku read"]
    assert set(red) <= {"all"} | {f"other set {z:g} red fives" for z in (0.06, 0.1, 0.16)}
    assert red["all"]["shots"] <= report["camerash_hands"]["jantaku read"]["all"]["shots"]


#: Where the model's boxes land on a 128 x 160 frame (tests.vision.fakes.ROW_AND_A_BACK at half its input
#: coordinates): class, x1, y1, x2, y2.
ROW_ON_THE_PHOTO = {"1m": (0, 42.5, 40, 57.5, 60), "2m": (1, 58.5, 40, 73.5, 60), "5z": (31, 74.5, 40, 89.5, 60),
                    "back": (37, 42.5, 62, 57.5, 82)}  # fmt: skip


@pytest.mark.parametrize("reader", ["pyramid", "camera"])
@pytest.mark.parametrize(
    ("labelled", "phantoms", "read_as"),
    [
        (["1m", "2m", "5z", "back"], 0, {}),  # every box the model reads is a labelled tile
        (["1m", "2m"], 2, {"5z": 1, "back": 1}),  # the 5z and the back lie where no tile is
        ([], 4, {"1m": 1, "2m": 1, "5z": 1, "back": 1}),  # a scene of no tile: every box is a phantom
    ],
)
def test_eval_phantoms_counts_boxes_over_no_labelled_tile(model, tmp_path, capsys, labelled, phantoms, read_as, reader):
    from vision.read.labels import YoloBox, labels_text

    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    grey_photo(folder / "images" / "s0.jpg")
    boxes = [
        YoloBox.of_pixels(ROW_ON_THE_PHOTO[t][0], ROW_ON_THE_PHOTO[t][1:], width=160, height=128) for t in labelled
    ]
    (folder / "labels" / "s0.txt").write_text(labels_text(boxes), encoding="utf-8")
    argv = ["eval", "phantoms", "--model", str(model), "--data", str(folder), "--reader", reader]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["shots"], report["tiles"], report["recall"]) == (1, len(labelled), 1.0 if labelled else 0.0)
    assert (report["phantoms"], report["images_with_phantoms"], report["read_as"]) == (
        phantoms,
        min(phantoms, 1),
        read_as,
    )
    assert main(argv) == 0
    assert f"{phantoms} phantom boxes" in capsys.readouterr().out
