"""The training recipe: offline data.yaml, the peer's weights in our class order, and a smoke run (slow)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.labels import BACK_CLASS, CLASS_NAMES
from vision.train import training


@pytest.mark.parametrize(
    ("ours", "peer"),
    [
        ("1m", "1m"),
        ("9s", "9s"),
        ("0m", "5m"),
        ("0s", "5s"),
        ("1z", "tou"),
        ("3z", "sha"),
        ("5z", "haku"),
        ("6z", "hatsu"),
        ("7z", "chun"),
    ],
)
def test_peer_rows(ours, peer):
    assert training.PEER_NAMES[training.peer_row_of(CLASS_NAMES.index(ours))] == peer


def test_back_has_no_peer_row():
    assert training.peer_row_of(BACK_CLASS) is None


def test_data_yaml_is_local_and_complete(tmp_path):
    for d in ("a", "b", "v"):
        (tmp_path / d / "images").mkdir(parents=True)
    path = training.write_data_yaml(tmp_path / "data.yaml", [tmp_path / "a", tmp_path / "b"], [tmp_path / "v"])
    text = path.read_text()
    assert "download" not in text
    assert f"  - {tmp_path / 'a' / 'images'}" in text and f"  - {tmp_path / 'v' / 'images'}" in text
    assert "nc: 38" in text and "  37: 'back'" in text and "  34: '0m'" in text
    with pytest.raises(FileNotFoundError):
        training.write_data_yaml(tmp_path / "x.yaml", [tmp_path / "missing"], [tmp_path / "v"])


def test_font_found():
    font = training.find_font()
    assert font is None or font.suffix == ".ttf"


@pytest.mark.slow
def test_peer_checkpoint_reproduces_the_peer(tmp_path):
    """Our 38-class checkpoint made from the peer's ONNX gives the peer's boxes and class scores, reordered."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    ort = pytest.importorskip("onnxruntime")
    md = pytest.importorskip("mahjong_detector")
    from pathlib import Path

    training.offline_environment(tmp_path / "yolo")
    ckpt = torch.load(training.checkpoint_from_peer(tmp_path / "peer.pt"), weights_only=False)
    model = ckpt["model"].eval()
    x = np.random.default_rng(0).random((1, 3, 320, 256)).astype(np.float32)  # non-square
    session = ort.InferenceSession(str(Path(md.__file__).parent / "model.onnx"))
    full = np.zeros((1, 3, 640, 640), np.float32)
    full[..., :320, :256] = x
    with torch.no_grad():
        ours = model(torch.from_numpy(full))[0].numpy()
    assert ours.shape[1] == 4 + len(CLASS_NAMES)
    peer = session.run(None, {"images": full})[0]
    assert np.abs(ours[:, :4] - peer[:, :4]).max() < 0.05
    for name in ("1m", "0p", "7z"):
        row = training.peer_row_of(CLASS_NAMES.index(name))
        assert np.abs(ours[:, 4 + CLASS_NAMES.index(name)] - peer[:, 4 + row]).max() < 1e-3


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")  # torch's TorchScript ONNX exporter warns (tracer, deprecation) as it works
def test_smoke_train_and_export(tmp_path):
    """A few rendered images, one epoch from the peer's weights, then ONNX export with our metadata."""
    pytest.importorskip("ultralytics")
    pytest.importorskip("mahjong_detector")  # the peer's weights are the start (pip install mahjong-detector)
    import json

    import onnx

    from vision.synth import write_dataset

    write_dataset(tmp_path / "d", 6, seed=3, size=(320, 240))
    data = training.write_data_yaml(tmp_path / "data.yaml", [tmp_path / "d"], [tmp_path / "d"])
    init = training.checkpoint_from_peer(tmp_path / "peer.pt")
    recipe = training.Recipe(epochs=1, imgsz=256, batch=4, workers=0)
    run = training.train(data, str(init), recipe, tmp_path / "runs", "smoke")
    best = run / "weights" / "best.pt"
    assert best.exists()
    out = training.export_onnx(best, tmp_path / "tiles.onnx", 256, {"jantaku_data_version": "test"})
    meta = {p.key: p.value for p in onnx.load(str(out)).metadata_props}
    assert json.loads(meta["jantaku_classes"]) == list(CLASS_NAMES)
    assert meta["jantaku_data_version"] == "test"


def _onnx_start(tmp_path, images):
    pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    training.offline_environment(tmp_path / "yolo")
    return training.checkpoint_from_onnx(tmp_path / "start.pt", training.REPO / "models" / "tiles.onnx", images)


@pytest.mark.slow
def test_a_checkpoint_of_our_onnx_reads_as_it_does_and_trains_from_where_it_is(tmp_path):
    """A fresh machine has the shipped ONNX only. Its checkpoint gives the ONNX's outputs, and in train mode (batch
    statistics) about the same maps: norms left at identity, as the peer's copy has them, would not."""
    torch = pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    from vision.read.images import load_image
    from vision.read.postprocess import to_tensor
    from vision.synth import write_dataset

    write_dataset(tmp_path / "d", 2, seed=3, size=(320, 256))  # non-square
    frames = to_tensor([load_image(p) for p in sorted((tmp_path / "d" / "images").iterdir())])
    height, width = frames.shape[2:]
    full = np.zeros((2, 3, 512, 512), np.float32)  # as the model reads them: letterboxed to its input
    full[..., :height, :width] = frames
    model = torch.load(_onnx_start(tmp_path, full), weights_only=False)["model"]
    session = ort.InferenceSession(str(training.REPO / "models" / "tiles.onnx"))
    model.eval()
    with torch.no_grad():
        ours, maps = model(torch.from_numpy(full))
    shipped = np.concatenate([session.run(None, {"images": full[i : i + 1]})[0] for i in range(2)])
    assert np.abs(ours.numpy()[:, :4] - shipped[:, :4]).max() < 0.05
    assert np.abs(ours.numpy()[:, 4:] - shipped[:, 4:]).max() < 1e-3

    def train_mode_error(m) -> float:
        m.train()
        with torch.no_grad():
            trained = m(torch.from_numpy(full))
        return max(float((trained[k] - maps[k]).abs().max() / maps[k].abs().max()) for k in ("boxes", "scores"))

    at_identity = training.checkpoint_from_peer(tmp_path / "id.pt", training.REPO / "models" / "tiles.onnx")
    identity = torch.load(at_identity, weights_only=False)["model"]
    assert train_mode_error(model) < 1e-3 < 0.1 < train_mode_error(identity)


def test_only_our_detectors_onnx_makes_a_checkpoint(tmp_path):
    with pytest.raises(ValueError, match="not a Jantaku detector"):
        training.checkpoint_from_onnx(tmp_path / "x.pt", training.REPO / "models" / "tile_classifier.onnx", None)
