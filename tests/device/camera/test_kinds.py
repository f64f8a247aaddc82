"""Camera kinds are registered in one place (:data:`device.camera.kinds.CAMERA_KINDS`): a kind added there is a
valid ``[camera] kind``, is what ``jantaku run`` opens, and says what it lacks to ``jantaku run --check``."""

from __future__ import annotations

import numpy as np
import pytest

from device.camera.kinds import CAMERA_KINDS, CameraKind
from device.camera.sources import FakeSource, Frame
from device.cli import main
from device.commands.run import make_source
from device.config import ConfigError, load_config


def _still(camera):
    return FakeSource([Frame(np.zeros((camera.height, camera.width, 3), np.uint8), 0, 0.0, "still")]), False


@pytest.fixture
def still_kind(monkeypatch):
    """A camera kind the table might gain: one entry in the registry, nothing anywhere else."""
    kind = CameraKind("still", _still, lambda camera: "camera kind still: no still camera on this bench")
    monkeypatch.setitem(CAMERA_KINDS, "still", kind)
    return kind


def test_a_registered_kind_is_a_valid_config_and_is_what_run_opens(tmp_path, still_kind):
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "still"\nwidth = 64\nheight = 48\n')
    source, is_demo = make_source(load_config(path))
    assert isinstance(source, FakeSource) and not is_demo
    source.open()
    assert source.read().image.shape == (48, 64, 3)


def test_a_registered_kind_says_what_it_lacks_to_run_check(tmp_path, capsys, still_kind):
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "still"\n')  # the shipped model
    assert main(["run", "--config", str(path), "--check"]) == 2
    assert capsys.readouterr().err == "jantaku run: camera kind still: no still camera on this bench\n"


@pytest.mark.parametrize(
    ("kind", "is_demo", "needs_model"),
    [
        ("demo", True, False),  # the bundled recording plays on its own labels
        ("replay", False, True),
    ],
)
def test_the_shipped_kinds_open_their_sources(tmp_path, kind, is_demo, needs_model):
    from device.demo import RECORDING

    path = tmp_path / "table.toml"
    path.write_text(f'[camera]\nkind = "{kind}"\npath = "{RECORDING}"\n')
    source, demo = make_source(load_config(path))
    assert demo is is_demo and CAMERA_KINDS[kind].needs_model is needs_model
    assert str(RECORDING) in source.name


def test_a_kind_nobody_registered_is_refused_naming_the_registered_ones(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "webcam"\n')
    with pytest.raises(ConfigError, match=f"expected one of {', '.join(CAMERA_KINDS)}, got 'webcam'"):
        load_config(path)
