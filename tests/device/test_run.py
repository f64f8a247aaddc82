"""``jantaku run``: starts on the demo with a fake detector, feeds the service, serves the site, stops cleanly."""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from device.camera.sources import FileReplaySource, Frame
from device.cli import main
from device.commands import run as run_module
from device.commands.run import FrameReader, RunOptions, TableRuntime, reading_summary, recorded_reader, run_table
from device.config import Config
from device.demo import RECORDING
from engine.tiles import format_tiles, parse_tiles
from vision.read.detector import Detection, FakeDetector
from vision.read.geometry import Box
from vision.read.labels import class_of_tile
from vision.read.pipeline import Reading
from vision.read.table import FrameSide

ROOT = Path(__file__).resolve().parents[2]
HAND = "123m456p789s1122z"


def hand_detections(text: str = HAND, y: float = 900.0) -> list[Detection]:
    """A row of face-up tiles 40x53 px, left to right, and two face-down ones above it."""
    dets = [
        Detection.of_class(class_of_tile(t), Box(300 + 42 * i, y, 340 + 42 * i, y + 53), 0.9)
        for i, t in enumerate(parse_tiles(text))
    ]
    dets += [Detection.of_class(37, Box(300 + 42 * i, 200, 340 + 42 * i, 253), 0.8) for i in range(2)]
    return dets


def camera(detect, *, squared: bool = False) -> FrameReader:
    """The loop's read of frames by a fake detector (``detect``: an image in, detections out), through the
    camera's reader: squared to the table or as they are."""
    from dataclasses import replace

    from vision.read.pipeline import Reader, ReaderConfig, TableMode

    config = replace(ReaderConfig.for_camera(), table_mode=TableMode.CAMERA if squared else TableMode.NONE)
    return FrameReader(Reader.around(FakeDetector(detect), config))


def fast_demo(**site) -> Config:
    """The demo, taken at 20 frames a second so a test sees it move."""
    return Config().with_overrides(camera={"kind": "demo", "fps": 20.0}, loop={"max_reads_per_second": 50.0}, site=site)


def test_pipeline_reads_rows_from_detections():
    source = FileReplaySource(RECORDING)
    source.open()
    frame = source.read()
    seen = []
    read = camera(lambda image: seen.append(image.shape) or hand_detections())
    reading = read(frame)
    assert isinstance(reading, Reading)  # the reader's own reading, not a wrapper round it
    assert reading.text == HAND and reading.backs == 2 and len(reading.detections) == 15
    assert reading.image.shape == (1520, 2028, 3)
    assert seen == [(1520, 2028, 3)]  # non-square, not transposed
    assert read.origin == "000.jpg"
    assert "000.jpg (2028x1520): 123m456p789s1122z [15 tiles, 2 face down" in reading_summary(reading, read.origin)


def test_pipeline_reads_a_whole_table_by_seat_but_not_a_close_up():
    from tests.vision.read.test_table import FRAME, FULL, lay

    frame = Frame(np.zeros((FRAME.height, FRAME.width, 3), np.uint8), origin="table.jpg")
    table = camera(lambda image: lay(FULL))(frame).table
    assert table is not None and table.seat(FrameSide.BOTTOM).hand_text == "1234m567p11z"
    assert format_tiles(table.dora_indicators) == "3p"
    assert camera(lambda image: hand_detections())(frame).table is None  # 15 tiles: a hand, not a table


def _turned_row_frame(height: int, width: int, degrees: float, n: int = 14) -> np.ndarray:
    """White tiles 30 x 40 px side by side in a row through the middle of a dark frame, turned ``degrees``."""
    import cv2

    frame = np.full((height, width, 3), 40, np.uint8)
    t = math.radians(degrees)
    along, across = np.array([math.cos(t), -math.sin(t)]), np.array([math.sin(t), math.cos(t)])
    for i in range(n):
        centre = np.array([width / 2, height / 2]) + (i - (n - 1) / 2) * 34 * along
        corners = [centre + a * 15 * along + b * 20 * across for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), (235, 235, 235))
    return frame


def _white_blobs(image: np.ndarray) -> list[Detection]:
    """A fake detector: each white blob's bounds, as a 1m."""
    import cv2

    count, _, stats, _ = cv2.connectedComponentsWithStats((image[..., 0] > 128).astype(np.uint8))
    return [
        Detection.of_class(0, Box(float(x), float(y), float(x + w), float(y + h)), 0.9)
        for x, y, w, h, area in stats[1:count]
        if area > 50
    ]


def test_pipeline_squares_frames_to_a_turned_table_and_keeps_the_turn():
    frame = Frame(_turned_row_frame(480, 640, 20.0), origin="turned.jpg")
    seen: list[np.ndarray] = []

    def detect(image: np.ndarray) -> list[Detection]:
        seen.append(image)
        return _white_blobs(image)

    def spread(obs: Reading) -> float:  # how far the boxes climb, bottom to top
        return max(d.box.y2 for d in obs.detections) - min(d.box.y1 for d in obs.detections)

    assert spread(camera(detect)(frame)) > 150  # as it is: the row climbs 20 degrees across the frame
    seen.clear()
    pipeline = camera(detect, squared=True)
    obs = pipeline(frame)
    assert len(seen) == 2 and obs.turn == pytest.approx(20.0, abs=1.5)  # measured, then read again squared
    assert obs.image.shape == (480, 640, 3) and obs.image is seen[-1]  # the reading is of the squared frame
    assert [len(r) for r in obs.tile_rows] == [14]
    assert spread(obs) < 46  # squared: one row along the frame's x axis
    seen.clear()
    next_frame = pipeline(frame)
    assert [len(r) for r in next_frame.tile_rows] == [14] and len(seen) == 1  # the next frame: read squared at once


def test_recorded_labels_of_the_demo_show_the_winning_hand():
    manifest = json.loads((RECORDING / "recording.json").read_text())
    last = manifest["frames"][-1]["file"]
    frame = Frame(__import__("cv2").imread(str(RECORDING / last)), origin=last)
    obs = recorded_reader(RECORDING)(frame)
    winner = manifest["winner"]
    assert obs.tile_rows[-1] == parse_tiles(winner["hand"] + winner["win_tile"])  # the bottom row: the hand laid down


def test_runtime_on_the_demo_with_a_fake_detector_feeds_the_service_and_stops():
    fake = FakeDetector(lambda image: hand_detections())
    out = open(os.devnull, "w")  # noqa: SIM115 - closed below
    t0 = time.monotonic()
    table = run_table(fast_demo(), RunOptions(site=False, duration=2.0, out=out), detector=fake)
    elapsed = time.monotonic() - t0
    out.close()
    assert table.demo
    assert elapsed < 8
    stats = table.loop.stats
    assert stats.frames >= 10 and stats.reads >= 2 and stats.errors == 0
    assert stats.unchanged > 0 and stats.moving > 0  # the gate kept the detector off most frames
    assert stats.reads < stats.frames / 2
    assert table.observations == stats.reads
    camera = table.service.camera
    assert camera is not None and camera.rows == (parse_tiles(HAND),)
    assert not table.loop._thread.is_alive()


def test_cli_runs_the_demo_and_prints_what_it_reads(monkeypatch, capsys, tmp_path):
    fake = FakeDetector(hand_detections())
    monkeypatch.setattr(run_module, "make_readers", lambda config, model=None: run_module.readers_around(fake))
    monkeypatch.setenv("JANTAKU_CONFIG", str(tmp_path / "c.toml"))
    (tmp_path / "c.toml").write_text("[camera]\nfps = 20.0\n[loop]\nmax_reads_per_second = 50.0\n")
    t0 = time.monotonic()
    assert main(["run", "--demo", "--no-site", "--duration", "1.5"]) == 0
    assert time.monotonic() - t0 < 8
    out = capsys.readouterr().out
    assert "000.jpg (2028x1520): 123m456p789s1122z" in out
    assert "jantaku: " in out and " read, " in out


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def test_the_site_serves_what_the_camera_sees():
    pytest.importorskip("web.api", reason="the web site is not in this checkout")
    fake = FakeDetector(lambda image: hand_detections())
    out = open(os.devnull, "w")  # noqa: SIM115 - closed below
    table = TableRuntime(fast_demo(host="127.0.0.1", port=0, pin="246813"), RunOptions(out=out), detector=fake)
    table.start()
    try:
        assert table.url.startswith("http://127.0.0.1:") and table.site.port > 0
        deadline = time.monotonic() + 10
        state = get_json(table.url + "api/state")
        while state["camera"] is None and time.monotonic() < deadline:
            time.sleep(0.1)
            state = get_json(table.url + "api/state")
        assert state["camera"]["rows"] == [HAND]
    finally:
        t0 = time.monotonic()
        table.close()
        out.close()
    assert time.monotonic() - t0 < 8
    with pytest.raises(OSError):
        get_json(table.url + "api/state")  # the site is down


@pytest.mark.parametrize(
    ("argv", "config", "message"),
    [
        (["--config", "{tmp}/bad.toml"], '[site]\nport = "x"', "site.port: expected an integer, got 'x'"),
        (["--config", "{tmp}/missing.toml"], None, "missing.toml: no such config file"),
        (["--replay", "{tmp}/nothing-here"], None, "nothing-here: no such file or folder"),
        (["--port", "99999"], None, "site.port: expected 0..65535, got 99999"),
        (["--pin", "12"], None, "site.pin: expected 6-12 digits, got '12'"),
        (["--pin", "24680"], None, "site.pin: expected 6-12 digits, got '24680'"),
        (["--duration", "0"], None, "--duration must be more than 0 seconds"),
        (["--demo", "--model", "{tmp}/bad.toml"], "not a model", "bad.toml: not a loadable ONNX model"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv, config, message):
    monkeypatch.delenv("JANTAKU_CONFIG", raising=False)
    monkeypatch.setattr("device.config.DEFAULT_LOCATIONS", ())
    if config is not None:
        (tmp_path / "bad.toml").write_text(config)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(["run", "--no-site", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("jantaku run: ") and "\n" not in err and message in err
    assert "Traceback" not in err


def test_a_missing_named_camera_is_waited_for(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(
        run_module, "make_readers", lambda config, model=None: run_module.readers_around(FakeDetector())
    )
    # the game log in tmp_path, never the real home's ~/.local/share/jantaku
    (tmp_path / "c.toml").write_text(f"[game]\ndb = {str(tmp_path / 'table' / 'jantaku.db')!r}\n")
    monkeypatch.setenv("JANTAKU_CONFIG", str(tmp_path / "c.toml"))
    assert main(["run", "--camera", "97", "--no-site", "--duration", "0.5"]) == 0
    assert "0 frames, 0 read" in capsys.readouterr().out
    assert (tmp_path / "table" / "jantaku.db").is_file()


def test_the_run_tests_leave_the_home_folder_alone(tmp_path):
    """The tests that start ``jantaku run`` keep the game log out of the real home (run here with a fresh HOME)."""
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    env.pop("JANTAKU_CONFIG", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{__file__}::test_a_missing_named_camera_is_waited_for",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert not (tmp_path / ".local" / "share" / "jantaku").exists()


def _clean_env(tmp_path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    env.pop("JANTAKU_CONFIG", None)
    return env


def test_fresh_run_needs_no_config_no_camera_and_no_torch(tmp_path):
    code = (
        "import sys; from device.cli import main; "
        "rc = main(['run', '--no-site', '--duration', '3']); "
        "print('TORCH' if 'torch' in sys.modules else 'NO-TORCH'); sys.exit(rc)"
    )
    env = _clean_env(tmp_path)
    env["JANTAKU_MODEL"] = str(tmp_path / "none.onnx")  # a machine without the model still plays the demo
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "NO-TORCH" in proc.stdout
    assert "000.jpg (2028x1520)" in proc.stdout  # the demo played: its first frame was read
    assert "Traceback" not in proc.stderr


def test_sigterm_stops_it_cleanly(tmp_path):
    env = _clean_env(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--demo", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        started = threading.Event()

        def watch():
            for line in proc.stdout:
                if "reading the demo recording" in line:
                    started.set()

        threading.Thread(target=watch, daemon=True).start()
        assert started.wait(30), "jantaku run did not start"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in proc.stderr.read()


def test_check_prints_the_config_without_the_pin(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text('[site]\npin = "975318"\nport = 8080\n')
    assert main(["run", "--config", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert f"config {path} is valid" in out and "port=8080" in out and "975318" not in out


def test_the_pi_install_writes_a_valid_config_and_a_unit_that_runs_it(tmp_path):
    script = (ROOT / "device" / "install-pi.sh").read_text()
    assert subprocess.run(["bash", "-n", str(ROOT / "device" / "install-pi.sh")]).returncode == 0
    toml = script.split("<<TOML\n", 1)[1].split("\nTOML\n", 1)[0].replace("$PIN", "042713")
    (tmp_path / "config.toml").write_text(toml)
    from device.config import load_config

    config = load_config(tmp_path / "config.toml")
    assert (config.camera.kind, config.site.pin, str(config.game.db_path)) == (
        "auto",
        "042713",
        "/var/lib/jantaku/jantaku.db",
    )
    unit = (ROOT / "device" / "systemd" / "jantaku.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert exec_start == "ExecStart=/opt/jantaku/.venv/bin/jantaku run --config /etc/jantaku/config.toml"
    assert "StateDirectory=jantaku" in unit and "KillSignal=SIGTERM" in unit
    assert "Environment=MALLOC_ARENA_MAX=2" in unit.splitlines()  # glibc reads it as the process starts


def test_the_pi_install_makes_a_six_digit_pin_with_pythons_secrets():
    script = (ROOT / "device" / "install-pi.sh").read_text()
    assert "$RANDOM" not in script  # 15 bits from a predictable generator
    line = next(line.strip() for line in script.splitlines() if line.strip().startswith("PIN=$("))
    command = line.replace('"$PREFIX/.venv/bin/python"', shlex.quote(sys.executable)) + '\nprintf %s "$PIN"'
    pins = {
        subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        for _ in range(3)
    }
    assert all(len(pin) == 6 and pin.isdigit() for pin in pins) and len(pins) > 1
    assert "--system-site-packages" in script and "python3-picamera2" in script


def test_camera_reads_and_photo_reads_take_turns():
    camera, photo = run_module.readers_around(FakeDetector(hand_detections()))
    done = threading.Event()
    with photo.lock:  # a phone's photo is being read
        worker = threading.Thread(target=lambda: (camera.read(np.zeros((48, 64, 3), np.uint8)), done.set()))
        worker.start()
        assert not done.wait(0.2)  # the camera's read waits its turn
    assert done.wait(2)
    worker.join()


def test_the_runtime_reads_photos_and_the_camera_one_at_a_time():
    out = open(os.devnull, "w")  # noqa: SIM115 - closed below
    table = TableRuntime(fast_demo(), RunOptions(site=False, out=out), detector=FakeDetector())
    try:
        camera, photo = table.readers
        assert camera.lock is photo.lock
        assert table.service.photo_reader is photo  # the service reads photos by the runtime's photo reader
        assert table.loop.read.reader is camera
    finally:
        table.close()
        out.close()


def test_the_site_has_a_thread_for_every_phone_stream():
    out = open(os.devnull, "w")  # noqa: SIM115 - closed below
    table = TableRuntime(fast_demo(host="127.0.0.1", port=0), RunOptions(out=out), detector=FakeDetector())
    table.start()
    try:
        assert table.site.server.adj.threads > table.service.bus.max_subscribers
    finally:
        table.close()
        out.close()


@pytest.mark.parametrize(("camera_seat", "service_seat"), [(0, None), (1, 0), (4, 3)])
def test_the_camera_seat_reaches_the_service(tmp_path, camera_seat, service_seat):
    config = Config().with_overrides(camera={"kind": "demo"}, game={"camera_seat": camera_seat})
    table = TableRuntime(config, RunOptions(site=False), detector=FakeDetector(lambda image: []))
    try:
        assert table.service.camera_seat == service_seat  # the config counts seats from 1, the service from 0
    finally:
        table.close()


@pytest.mark.parametrize("views", [True, False])
def test_the_config_says_whether_the_crop_classifier_reads_views(views, monkeypatch):
    from vision.read.classifier import SHIPPED_CLASSIFIER

    if not (run_module.model_path(Config(), camera=True).is_file() and SHIPPED_CLASSIFIER.is_file()):
        pytest.skip("no shipped detector and classifier in models/")
    monkeypatch.delenv("JANTAKU_CLASSIFIER", raising=False)
    monkeypatch.delenv("JANTAKU_MODEL", raising=False)
    camera, photo = run_module.make_readers(Config().with_overrides(detector={"crop_views": views}))
    assert camera.models.classifier.views is views and photo.models.classifier.views is views
    # each reader its own shipped detector (where the camera's is shipped) and classifier
    from vision.read.classifier import SHIPPED_PHOTO_CLASSIFIER
    from vision.read.detector import SHIPPED_CAMERA_MODEL, SHIPPED_MODEL

    assert photo.models.network.path == SHIPPED_MODEL
    assert camera.models.network.path == (SHIPPED_CAMERA_MODEL if SHIPPED_CAMERA_MODEL.is_file() else SHIPPED_MODEL)

    assert camera.models.classifier.path == SHIPPED_CLASSIFIER
    photos = SHIPPED_PHOTO_CLASSIFIER if SHIPPED_PHOTO_CLASSIFIER.is_file() else SHIPPED_CLASSIFIER
    assert photo.models.classifier.path == photos


@pytest.mark.parametrize(
    ("override", "detector", "camera", "photo"),
    [
        (None, {}, "<camera>", "<photo>"),  # the shipped ones: the camera's own
        (None, {"model": "a.onnx"}, "a.onnx", "a.onnx"),  # the config's model for both
        (None, {"camera_model": "c.onnx"}, "c.onnx", "<photo>"),
        (None, {"model": "a.onnx", "camera_model": "c.onnx"}, "c.onnx", "a.onnx"),
        ("m.onnx", {"model": "a.onnx", "camera_model": "c.onnx"}, "m.onnx", "m.onnx"),  # --model: both
    ],
)
def test_each_reader_s_detector_model_as_the_config_and_model_option_name_it(
    monkeypatch, override, detector, camera, photo
):
    from vision.read.detector import SHIPPED_CAMERA_MODEL, SHIPPED_MODEL

    monkeypatch.delenv("JANTAKU_MODEL", raising=False)
    shipped = {"<camera>": SHIPPED_CAMERA_MODEL if SHIPPED_CAMERA_MODEL.is_file() else SHIPPED_MODEL}
    shipped["<photo>"] = SHIPPED_MODEL
    config = Config().with_overrides(detector=detector)
    for_camera, for_photo = run_module.reader_configs(config, override)
    assert for_camera.model == shipped.get(camera, Path(camera))
    assert for_photo.model == shipped.get(photo, Path(photo))


def test_jantaku_model_names_both_readers_detector(monkeypatch, tmp_path):
    monkeypatch.setenv("JANTAKU_MODEL", str(tmp_path / "x.onnx"))
    assert [c.model for c in run_module.reader_configs(Config())] == [tmp_path / "x.onnx"] * 2


def test_readers_naming_one_detector_share_its_network(tmp_path, monkeypatch):
    pytest.importorskip("onnx", reason="a model file is made with the onnx package")
    from tests.vision.fakes import constant_onnx

    monkeypatch.delenv("JANTAKU_CLASSIFIER", raising=False)
    for folder in ("a", "c"):
        (tmp_path / folder).mkdir()
    shared = constant_onnx(tmp_path / "a" / "tiles.onnx", [])
    camera, photo = run_module.make_readers(Config().with_overrides(detector={"model": str(shared)}))
    assert camera.models.network is photo.models.network
    own = constant_onnx(tmp_path / "c" / "tiles.onnx", [])
    config = Config().with_overrides(detector={"model": str(shared), "camera_model": str(own)})
    camera, photo = run_module.make_readers(config)
    assert camera.models.network.path == own and photo.models.network.path == shared


def test_a_missing_camera_model_reads_nothing_with_a_warning(tmp_path, caplog):
    config = Config().with_overrides(detector={"camera_model": str(tmp_path / "none.onnx")})
    assert run_module.make_readers(config) is None
    assert "none.onnx" in caplog.text
