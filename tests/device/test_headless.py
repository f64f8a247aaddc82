"""A headless table says what is wrong: a missing camera on the phones as it is, ``jantaku run --check`` exiting 2
with one line when the model file or the camera's library is missing."""

from __future__ import annotations

import json
import time
import urllib.request

import numpy as np
import pytest

from device.camera.loop import Backoff, ServiceLoop
from device.camera.sources import FakeSource, Frame, SourceLost
from device.cli import main
from device.commands.run import RunOptions, TableRuntime
from device.config import Config
from vision.read.detector import FakeDetector


def frame(i: int) -> Frame:
    return Frame(np.full((120, 160, 3), 40 + i, np.uint8), i, time.time(), f"f{i}")


def test_the_loop_tells_what_is_wrong_with_the_camera_and_when_it_is_right_again():
    told: list[str | None] = []
    source = FakeSource([frame(0), SourceLost("usb camera 0: no frame"), frame(1)], open_failures=1)
    loop = ServiceLoop(
        source,
        lambda f, zones=None: f,
        lambda obs: None,
        on_problem=told.append,
        backoff=Backoff(first=0.0, longest=0.0),
    )
    loop.run()  # to the script's end
    assert told == [
        "camera not found: check the cable (fake: not there (scripted))",
        None,
        "camera stopped sending pictures: check the cable (usb camera 0: no frame)",
        None,
    ]


def test_an_unplugged_usb_camera_is_shown_on_the_phones(tmp_path):
    config = Config().with_overrides(
        camera={"kind": "opencv", "index": 57},  # no /dev/video57: a camera unplugged, or its cable loose
        game={"db": str(tmp_path / "t.db")},
        site={"host": "127.0.0.1", "port": 0, "pin": "246813"},
    )
    out = open(tmp_path / "console.txt", "w")  # noqa: SIM115 - closed below
    table = TableRuntime(config, RunOptions(out=out), detector=FakeDetector(lambda image: []))
    table.start()
    try:
        deadline = time.monotonic() + 10
        while True:
            with urllib.request.urlopen(table.url + "api/state", timeout=5) as r:
                problem = json.load(r)["camera_problem"]
            if problem or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert problem == "camera not found: check the cable (camera 57: no camera at /dev/video57)"
    finally:
        table.close()
        out.close()


@pytest.mark.parametrize(
    ("toml", "args", "message"),
    [
        (
            '[camera]\nkind = "opencv"\n[detector]\nmodel = "{tmp}/none.onnx"\n',
            [],
            "no detector model at {tmp}/none.onnx",
        ),
        ('[camera]\nkind = "opencv"\n', ["--model", "{tmp}/gone.onnx"], "no detector model at {tmp}/gone.onnx"),
        ('[camera]\nkind = "picamera"\n', [], "the picamera2 library is not installed"),
        ('[camera]\nkind = "replay"\npath = "{tmp}/nothing"\n', [], "no such file or folder"),
    ],
)
def test_run_check_exits_2_with_one_line_when_the_table_cannot_run(tmp_path, capsys, toml, args, message):
    path = tmp_path / "table.toml"
    path.write_text(toml.format(tmp=tmp_path))
    code = main(["run", "--config", str(path), "--check", *[a.format(tmp=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert message.format(tmp=tmp_path) in err


def test_run_check_passes_for_the_demo_and_a_usb_camera(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "demo"\n[detector]\nmodel = "none.onnx"\n')
    assert main(["run", "--config", str(path), "--check"]) == 0  # the demo plays on its recorded labels
    path.write_text('[camera]\nkind = "opencv"\n')
    assert main(["run", "--config", str(path), "--check"]) == 0  # the shipped model, and OpenCV
