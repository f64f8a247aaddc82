"""The detector's training recipe: dataset assembly, fully offline ultralytics training, ONNX export, validation.

Only this module touches ultralytics (AGPL-3.0), and only inside functions: importing it costs nothing. Call
:func:`offline_environment` before anything else; it makes ultralytics work with no network at all
(``YOLO_OFFLINE``, no auto-install, settings inside the workspace with ``sync=False``, a local TTF as Arial.ttf).

Weights can start from a model yaml (``yolo11n.yaml``, random), from our own checkpoint, or from the peer package
``mahjong-detector``'s YOLO11n (PyPI, MIT; its weights are ultralytics-trained, hence AGPL-3.0), whose 34 tile classes
are copied into our class order (:func:`checkpoint_from_peer`). The shipped model's card records which.

>>> peer_row_of(CLASS_NAMES.index("1z")), peer_row_of(CLASS_NAMES.index("0p")), peer_row_of(BACK_CLASS)
(33, 13, None)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vision.read.labels import BACK_CLASS, CLASS_NAMES, NUM_CLASSES

REPO = Path(__file__).resolve().parents[2]
#: Where ultralytics keeps its settings and fonts (ignored by git).
CONFIG_DIR = REPO / ".yolo"

#: The class order of PyPI ``mahjong-detector`` 0.0.6 (from its model metadata).
PEER_NAMES = (
    "1m",
    "1p",
    "1s",
    "2m",
    "2p",
    "2s",
    "3m",
    "3p",
    "3s",
    "4m",
    "4p",
    "4s",
    "5m",
    "5p",
    "5s",
    "6m",
    "6p",
    "6s",
    "7m",
    "7p",
    "7s",
    "8m",
    "8p",
    "8s",
    "9m",
    "9p",
    "9s",
    "chun",
    "haku",
    "hatsu",
    "nan",
    "pe",
    "sha",
    "tou",
)
#: Image files of a YOLO folder's ``images/``, as the renderer and the real photos write them.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
_PEER_HONOURS = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}


def peer_row_of(class_id: int) -> int | None:
    """The peer model's class row that best starts our class (a red five starts from its plain five)."""
    if class_id == BACK_CLASS:
        return None
    name = CLASS_NAMES[class_id].replace("0", "5")
    for row, peer in enumerate(PEER_NAMES):
        if _PEER_HONOURS.get(peer, peer) == name:
            return row
    raise ValueError(f"no peer class for {CLASS_NAMES[class_id]}")


def find_font() -> Path | None:
    """A local TrueType font (any will do: ultralytics only draws plot labels with it)."""
    candidates = []
    try:
        out = subprocess.run(["fc-list", ":fontformat=TrueType", "file"], capture_output=True, text=True, timeout=10)
        candidates += [line.split(":")[0].strip() for line in out.stdout.splitlines()]
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        import matplotlib

        candidates.append(str(Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"))
    except ImportError:
        pass
    for path in sorted(candidates, key=lambda p: ("DejaVuSans.ttf" not in p, p)):
        if path.endswith(".ttf") and Path(path).is_file():
            return Path(path)
    return None


def offline_environment(config_dir: Path = CONFIG_DIR) -> None:
    """Make ultralytics run with no network: env vars, a workspace settings dir with sync off, local fonts.

    Must run before ultralytics is first imported in this process.
    """
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    fonts = config_dir / "Ultralytics"
    fonts.mkdir(parents=True, exist_ok=True)
    font = find_font()
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if font is not None and not (fonts / name).exists():
            shutil.copyfile(font, fonts / name)
    from ultralytics import settings

    wanted = {
        "sync": False,
        "hub": False,
        "wandb": False,
        "mlflow": False,
        "tensorboard": False,
        "clearml": False,
        "comet": False,
        "dvc": False,
        "neptune": False,
        "raytune": False,
    }
    settings.update({key: value for key, value in wanted.items() if key in settings})


# ---------------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class DataSpec:
    """What a training run reads: rendered sets, the real training split repeated, and the validation set."""

    train_dirs: tuple[Path, ...]
    val_dirs: tuple[Path, ...]
    real_repeats: int = 0
    #: Copies of alanchoi00's training photos (other sets, :mod:`vision.eval.other_sets`; 0: none).
    other_sets_repeats: int = 0
    #: Width and height factors alanchoi00's training labels are grown by about their centres, clipped to the photo
    #: (:func:`vision.train.unlabelled.grown`): its labels box a tile's face, ours the whole tile. 1, 1: as labelled.
    other_sets_box_scale: tuple[float, float] = (1.0, 1.0)


def write_data_yaml(path: Path, train: Sequence[Path], val: Sequence[Path]) -> Path:
    """A data.yaml with absolute local paths only (a missing path or a ``download`` key would fetch things)."""
    for d in (*train, *val):
        if not (Path(d) / "images").is_dir():
            raise FileNotFoundError(f"{d} has no images/ folder")
    lines = ["# written by vision.train.training: local paths only", "path: /", "train:"]
    lines += [f"  - {Path(d).resolve() / 'images'}" for d in train]
    lines += ["val:"]
    lines += [f"  - {Path(d).resolve() / 'images'}" for d in val]
    lines += [f"nc: {NUM_CLASSES}", "names:"]
    lines += [f"  {i}: '{name}'" for i, name in enumerate(CLASS_NAMES)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def assemble(spec: DataSpec, out: Path) -> Path:
    """Write the real training split (repeated) beside the rendered sets and a data.yaml over all; returns it."""
    train = list(spec.train_dirs)
    if spec.real_repeats > 0:
        from vision.eval import real_photos

        real_dir = out / "real_train"
        shutil.rmtree(real_dir, ignore_errors=True)
        real_photos.write_yolo(real_photos.training_split(), real_dir, repeats=spec.real_repeats)
        train.append(real_dir)
    if spec.other_sets_repeats > 0:
        from vision.eval import other_sets
        from vision.train.unlabelled import shipped_finder, write_painted_yolo

        other_dir = out / "other_sets_train"  # its unlabelled tiles painted out: vision.train.unlabelled
        write_painted_yolo(
            other_sets.load_split("train"),
            other_dir,
            shipped_finder(),
            spec.other_sets_repeats,
            box_scale=spec.other_sets_box_scale,
        )
        train.append(other_dir)
    return write_data_yaml(out / "data.yaml", train, spec.val_dirs)


def write_real_heldout(out: Path) -> Path:
    """The real held-out split as a YOLO folder with its own data.yaml (for validation only); returns the yaml."""
    from vision.eval import real_photos

    folder = out / "real_heldout"
    shutil.rmtree(folder, ignore_errors=True)
    real_photos.write_yolo(real_photos.held_out_split(), folder)
    return write_data_yaml(out / "real_heldout.yaml", [folder], [folder])


# ---------------------------------------------------------------------------------------------------- weights


def checkpoint_from_peer(out: Path, onnx_path: Path | None = None, yaml: str = "yolo11n.yaml") -> Path:
    """An ultralytics checkpoint of ``yaml`` with 38 classes holding the peer YOLO11n's weights.

    The peer's ONNX initialisers carry the ultralytics parameter names with batch norm folded into each conv; they
    are copied conv by conv (batch norm set to identity), and the class rows of the head are reordered into ours.
    ``back`` keeps its fresh initialisation.
    """
    if onnx_path is None:
        import mahjong_detector

        onnx_path = Path(mahjong_detector.__file__).parent / "model.onnx"
    import onnx

    model, copied = _model_from_onnx(onnx.load(str(onnx_path)), onnx_path.name, yaml)
    return _save_checkpoint(model, out, f"peer {onnx_path.name}", copied)


def checkpoint_from_onnx(out: Path, onnx_path: Path, images, yaml: str = "yolo11n.yaml") -> Path:
    """An ultralytics checkpoint of one of our exported detectors (``jantaku-lab export``), to train on from where it
    stopped when its ``.pt`` is gone (a fresh machine has only the shipped ONNX).

    Export folds each batch norm into its conv. Set to identity, as :func:`checkpoint_from_peer` does, the norms
    would give the same outputs in eval mode, but training normalises by the batch's statistics, which would
    rescale every channel at the first step and undo what the model learnt. So the norms are calibrated
    (:func:`calibrate_norms`) on ``images`` (float32 ``[n, 3, h, w]`` RGB 0..1, letterboxed as the model reads
    them): eval outputs stay exact and training starts where the model is.
    """
    import onnx

    proto = onnx.load(str(onnx_path))
    classes = {p.key: p.value for p in proto.metadata_props}.get("jantaku_classes")
    if classes is None or json.loads(classes) != list(CLASS_NAMES):
        raise ValueError(f"{onnx_path} is not a Jantaku detector of our {NUM_CLASSES} classes (jantaku-lab export)")
    model, copied = _model_from_onnx(proto, onnx_path.name, yaml)
    calibrate_norms(model, images)
    return _save_checkpoint(model, out, f"onnx {onnx_path.name}, norms calibrated on {len(images)} images", copied)


def calibration_batch(folders: Sequence[Path], imgsz: int, n: int = 32):
    """``n`` images spread evenly over the ``images/`` of ``folders`` (YOLO folders), letterboxed to ``imgsz`` as
    the model reads them: float32 ``[n, 3, imgsz, imgsz]`` RGB 0..1, for :func:`checkpoint_from_onnx`."""
    import numpy as np

    from vision.read.geometry import Size
    from vision.read.images import load_image
    from vision.read.postprocess import Letterbox, to_tensor

    files = sorted(f for d in folders for f in (Path(d) / "images").glob("*") if f.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise FileNotFoundError(f"no images to calibrate on under {', '.join(str(d) for d in folders)}")
    picked = [files[int(i)] for i in np.linspace(0, len(files) - 1, min(n, len(files)))]
    target = Size(height=imgsz, width=imgsz)
    frames = []
    for f in picked:
        image = load_image(f)
        frames.append(Letterbox.fit(Size.of(image), target).apply(image))
    return to_tensor(frames)


def calibrate_norms(model, images) -> None:
    """Give each batch norm of ``model`` (ultralytics, norms at identity after folding) the statistics of its input
    on ``images``, and weights that undo them: in eval mode ``w (z - m) / s + b`` with ``w = s`` and ``b = bias +
    m`` is ``z + bias`` again, exactly; in train mode a batch like ``images`` normalises by about ``m`` and ``s``,
    so the outputs stay about the same. One pass suffices: no layer's output changes, so neither do its inputs."""
    import torch

    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    stats: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}

    def record(module, inputs):
        z = inputs[0].double()
        stats[id(module)] = (z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False))

    hooks = [m.register_forward_pre_hook(record) for m in norms]
    model.eval()
    try:
        with torch.no_grad():
            model(torch.as_tensor(images, dtype=torch.float32))
    finally:
        for hook in hooks:
            hook.remove()
    with torch.no_grad():
        for m in norms:
            mean, var = stats[id(m)]
            scale = torch.sqrt(m.running_var.double() + m.eps) / m.weight.double()  # what eval divides by now
            bias = m.bias.double() - m.running_mean.double() / scale  # eval now gives z / scale + bias
            spread = torch.sqrt(var + m.eps)
            m.running_mean.copy_(mean)
            m.running_var.copy_(var)
            m.weight.copy_(spread / scale)
            m.bias.copy_(bias + mean / scale)


def _model_from_onnx(proto, file_name: str, yaml: str):
    """A ``yaml`` DetectionModel of our classes holding the weights of the loaded ONNX model ``proto`` (from
    ``file_name``; batch norm folded into each conv: the conv keeps the weight, its norm becomes identity plus the
    bias) and how many tensors were copied. A head of the peer's 34 classes is reordered into ours."""
    import numpy as np
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import DetectionModel

    weights = {t.name: numpy_helper.to_array(t) for t in proto.graph.initializer if t.name.startswith("model.")}
    model = DetectionModel(yaml, nc=NUM_CLASSES, verbose=False)
    state = model.state_dict()
    copied = 0
    for name, value in weights.items():
        tensor = torch.from_numpy(np.array(value))
        if name.endswith(".conv.weight") and name[: -len(".weight")] + ".bias" in weights:  # Conv + folded BN
            prefix = name[: -len(".conv.weight")]
            bias = torch.from_numpy(np.array(weights[prefix + ".conv.bias"]))
            state[name] = tensor
            state[prefix + ".bn.weight"] = torch.ones_like(bias)
            state[prefix + ".bn.bias"] = bias
            state[prefix + ".bn.running_mean"] = torch.zeros_like(bias)
            state[prefix + ".bn.running_var"] = torch.ones_like(bias) - 1e-3  # eps of ultralytics' BatchNorm2d
            copied += 1
        elif name.endswith(".conv.bias"):
            continue
        elif name in state and state[name].shape == tensor.shape:
            state[name] = tensor
            copied += 1
        elif name in state and name.startswith("model.23.cv3.") and tensor.shape[0] == len(PEER_NAMES):
            rows = state[name].clone()
            for ours in range(NUM_CLASSES):
                peer = peer_row_of(ours)
                if peer is not None:
                    rows[ours] = tensor[peer]
            state[name] = rows
            copied += 1
        else:
            raise ValueError(f"parameter {name} {tuple(tensor.shape)} of {file_name} does not fit {yaml}")
    model.load_state_dict(state)
    model.names = dict(enumerate(CLASS_NAMES))
    return model, copied


def _save_checkpoint(model, out: Path, source: str, copied: int) -> Path:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {}, "source": source, "copied": copied}, out)
    return out


# ---------------------------------------------------------------------------------------------------- train


@dataclass(frozen=True)
class Recipe:
    """Hyper-parameters of a run; the defaults are the CPU recipe of the shipped model."""

    epochs: int = 12
    imgsz: int = 416
    batch: int = 16
    device: str = "cpu"
    workers: int = 2
    patience: int = 50
    lr0: float = 0.002
    optimizer: str = "AdamW"
    close_mosaic: int = 2
    warmup_epochs: float = 1.0
    #: The biases' learning rate at the warm-up's start. Ultralytics' 0.1 suits random weights; going on from a
    #: converged model it shakes the head (the first epoch's mAP halves), so a fine-tune sets it to lr0.
    warmup_bias_lr: float = 0.1
    #: Layers kept fixed from the start (10: YOLO11n's backbone), so a short run adapts the neck and head.
    freeze: int = 0
    cache: bool = False
    seed: int = 0
    hours: float | None = None  # a wall-clock budget: ultralytics fits the schedule to it (overrides epochs)
    val_every_epoch: bool = True  # False: validate after the last epoch only (short epochs on a lent GPU)

    def train_kwargs(self) -> dict:
        budget = {"time": self.hours} if self.hours else {}
        return budget | {
            "epochs": self.epochs,
            "imgsz": self.imgsz,
            "batch": self.batch,
            "device": self.device,
            "workers": self.workers,
            "patience": self.patience,
            "lr0": self.lr0,
            "optimizer": self.optimizer,
            "close_mosaic": self.close_mosaic,
            "warmup_epochs": self.warmup_epochs,
            "warmup_bias_lr": self.warmup_bias_lr,
            "freeze": self.freeze or None,
            "cache": self.cache,
            "seed": self.seed,
            "deterministic": False,
            "amp": False,  # its check downloads weights
            "plots": False,
            "fliplr": 0.0,  # mirrored glyphs are not tiles
            "flipud": 0.0,
            "degrees": 0.0,  # orientation comes from the renderer
            "mosaic": 1.0,
            "scale": 0.4,
            "translate": 0.1,
            "hsv_h": 0.02,
            "hsv_s": 0.5,
            "hsv_v": 0.4,
            "val": self.val_every_epoch,
            "exist_ok": True,
        }


def train(data_yaml: Path, model: str, recipe: Recipe, project: Path, name: str, resume: bool = False) -> Path:
    """Train (or resume) and return the run directory (``weights/best.pt``, ``weights/last.pt``, ``results.csv``)."""
    offline_environment()
    from ultralytics import YOLO

    if resume:
        last = project / name / "weights" / "last.pt"
        if not last.exists():
            raise FileNotFoundError(f"nothing to resume: {last} does not exist")
        YOLO(str(last)).train(resume=True)
    else:
        if model.endswith(".pt") and not Path(model).is_file():
            raise FileNotFoundError(f"{model} is not a local checkpoint (a bare *.pt name would be downloaded)")
        YOLO(model).train(data=str(data_yaml), project=str(project.resolve()), name=name, **recipe.train_kwargs())
    return project / name


@dataclass(frozen=True)
class Metrics:
    """Ultralytics box metrics of a model on one labelled set."""

    images: int
    boxes: int
    precision: float
    recall: float
    map50: float
    map50_95: float
    per_class_map50: dict[str, float]

    def summary(self) -> str:
        return (
            f"images={self.images} boxes={self.boxes} P={self.precision:.3f} R={self.recall:.3f} "
            f"mAP50={self.map50:.3f} mAP50-95={self.map50_95:.3f}"
        )


def validate(weights: Path, data_yaml: Path, imgsz: int, batch: int = 16, device: str = "cpu") -> Metrics:
    """Ultralytics validation of a checkpoint (or ONNX file) on the ``val`` set of a data.yaml."""
    offline_environment()
    from ultralytics import YOLO

    result = YOLO(str(weights), task="detect").val(
        data=str(data_yaml), imgsz=imgsz, batch=batch, device=device, plots=False, verbose=False, workers=0
    )
    box = result.box
    names = result.names
    per_class = {names[int(c)]: float(m) for c, m in zip(box.ap_class_index, box.ap50, strict=True)}
    counts = getattr(box, "nt_per_class", None)
    if counts is None:
        counts = getattr(result, "nt_per_class", None)
    return Metrics(
        images=_count_val_images(data_yaml),
        boxes=int(counts.sum()) if counts is not None else -1,
        precision=float(box.mp),
        recall=float(box.mr),
        map50=float(box.map50),
        map50_95=float(box.map),
        per_class_map50=per_class,
    )


def _count_val_images(data_yaml: Path) -> int:
    """Images in the ``val`` folders of a data.yaml written by :func:`write_data_yaml`."""
    folders, in_val = [], False
    for line in Path(data_yaml).read_text(encoding="utf-8").splitlines():
        if line.startswith("val:"):
            in_val = True
        elif in_val and line.startswith("  - "):
            folders.append(Path(line[4:].strip()))
        elif not line.startswith(" "):
            in_val = False
    return sum(1 for f in folders for p in f.glob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def export_onnx(weights: Path, out: Path, imgsz: int, metadata: dict[str, str]) -> Path:
    """Export to ONNX (opset 17, simplified) and add our metadata (class list, input size, data version...)."""
    offline_environment()
    import onnx
    from ultralytics import YOLO

    exported = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, simplify=True, opset=17, dynamic=False))
    model = onnx.load(str(exported))
    props = {p.key: p.value for p in model.metadata_props}
    props.update(metadata)
    props["jantaku_classes"] = json.dumps(list(CLASS_NAMES))
    del model.metadata_props[:]
    for key, value in props.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, str(value)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out
