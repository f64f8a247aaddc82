"""The TOML config: defaults, typed fields, and one clear line naming the key for every mistake."""

from __future__ import annotations

import pytest

from device.config import Config, ConfigError, example_toml, find_config, load_config, parse_config


def write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_need_no_file(monkeypatch, tmp_path):
    monkeypatch.delenv("JANTAKU_CONFIG", raising=False)
    monkeypatch.setattr("device.config.DEFAULT_LOCATIONS", (tmp_path / "nope.toml",))
    config = find_config(None)
    assert config == Config()
    assert (config.camera.kind, config.game.rules, config.site.host, config.site.port) == (
        "auto",
        "standard",
        "0.0.0.0",
        8000,
    )


def test_a_full_file(tmp_path):
    path = write(
        tmp_path,
        """
[camera]
kind = "opencv"
index = 2
width = 1920
height = 1080
fps = 5              # an integer where a number is expected is fine

[detector]
model = "/opt/models/tiles.onnx"

[game]
rules = "wrc"
db = "~/table.db"

[site]
host = "127.0.0.1"
port = 8080
pin = "864213"
""",
    )
    config = load_config(path)
    assert config.camera.kind == "opencv" and config.camera.index == 2
    assert (config.camera.width, config.camera.height, config.camera.fps) == (1920, 1080, 5.0)
    assert isinstance(config.camera.fps, float)
    assert config.detector.model == "/opt/models/tiles.onnx" and config.detector.conf == 0.25  # default kept
    assert config.detector.crop_views is True
    assert config.game.rules == "wrc" and config.game.db_path.name == "table.db" and "~" not in str(config.game.db_path)
    assert (config.site.host, config.site.port, config.site.pin) == ("127.0.0.1", 8080, "864213")
    assert config.source == str(path)


def test_the_documented_example_is_valid(tmp_path):
    config = load_config(write(tmp_path, example_toml()))
    assert config.camera.kind == "auto" and config.loop.max_reads_per_second == 1.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[camera]\nkind = "webcam"',
            "camera.kind: expected one of auto, picamera, opencv, replay, demo, got 'webcam'",
        ),
        ('[camera]\nindex = "0"', "camera.index: expected an integer, got '0'"),
        ("[camera]\nindex = -1", "camera.index: expected 0 or more, got -1"),
        ("[camera]\nwidth = 1.5", "camera.width: expected an integer, got 1.5"),
        ("[camera]\nfps = true", "camera.fps: expected a number, got True"),
        ("[camera]\nfps = 0", "camera.fps: expected more than 0 and at most 120, got 0.0"),
        ('[camera]\nkind = "replay"', "camera.path: a replay needs a path"),
        ("[camera]\nzoom = 2", "camera.zoom: unknown key (known: kind, index, width, height, fps, path)"),
        ("[detector]\nconf = 1.5", "detector.conf: expected between 0 and 1, got 1.5"),
        ('[detector]\ncrop_views = "no"', "detector.crop_views: expected true or false, got 'no'"),
        ("[loop]\nmax_reads_per_second = 0", "loop.max_reads_per_second: expected more than 0"),
        ('[game]\nrules = "mleague"', "game.rules: expected one of standard, wrc, tenhou, got 'mleague'"),
        ("[game]\ncamera_seat = 5", "game.camera_seat: expected 1..4 (0: not known), got 5"),
        ("[game]\nauto_confirm_s = -1", "game.auto_confirm_s: expected 0 (never) to 3600 seconds, got -1.0"),
        ('[game]\nauto_confirm_s = "5"', "game.auto_confirm_s: expected a number, got '5'"),
        ("[site]\nport = 70000", "site.port: expected 0..65535, got 70000"),
        ('[site]\nport = "80"', "site.port: expected an integer, got '80'"),
        ("[site]\npin = 1234", "site.pin: expected a string, got 1234"),
        ('[site]\npin = "12a4"', "site.pin: expected 6-12 digits, got '12a4'"),
        ('[site]\npin = "2468"', "site.pin: expected 6-12 digits, got '2468'"),  # 4 digits: guessed in seconds
        ("[web]\nport = 80", "web: unknown section (known: camera, detector, loop, game, site)"),
        ("camera = 3", "camera: expected a [camera] table, got 3"),
        ("[camera\nkind = 1", "not valid TOML"),
    ],
)
def test_bad_files_name_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = str(info.value)
    assert "\n" not in line
    assert line.startswith(f"{path}: ")
    assert message in line


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "bin.toml")


def test_search_order(monkeypatch, tmp_path):
    home = write(tmp_path, "[site]\nport = 9001")
    monkeypatch.setattr("device.config.DEFAULT_LOCATIONS", (tmp_path / "nope.toml", home))
    monkeypatch.delenv("JANTAKU_CONFIG", raising=False)
    assert find_config(None).site.port == 9001
    env = tmp_path / "env.toml"
    env.write_text("[site]\nport = 9002")
    monkeypatch.setenv("JANTAKU_CONFIG", str(env))
    assert find_config(None).site.port == 9002
    explicit = tmp_path / "explicit.toml"
    explicit.write_text("[site]\nport = 9003")
    assert find_config(explicit).site.port == 9003


def test_overrides_are_checked_like_the_file():
    config = Config().with_overrides(site={"port": 9000, "host": "127.0.0.1"}, camera={"kind": "demo"})
    assert (config.site.port, config.site.host, config.camera.kind) == (9000, "127.0.0.1", "demo")
    with pytest.raises(ConfigError, match=r"command line: site\.port: expected 0\.\.65535"):
        Config().with_overrides(site={"port": -1})
    with pytest.raises(ConfigError, match=r"camera\.zoom: unknown key"):
        Config().with_overrides(camera={"zoom": 2})


def test_parse_config_accepts_an_empty_document():
    assert parse_config({}) == Config(source="config")
