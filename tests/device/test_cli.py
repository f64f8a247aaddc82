"""The front doors themselves, ``jantaku`` and ``jantaku-lab``: errors that belong to no one command."""

from __future__ import annotations

import pytest


def test_a_missing_optional_package_is_one_line_and_exit_2(monkeypatch, capsys):
    # the renderer draws glyphs with Pillow, an optional extra: without it, one line naming the package
    import sys

    from device.lab.cli import main

    monkeypatch.setitem(sys.modules, "PIL", None)
    for name in [m for m in sys.modules if m.startswith("vision.synth")]:
        monkeypatch.delitem(sys.modules, name)
    assert main(["synth", "--n", "1", "--out", "unused"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'PIL'" in err and "[train]" in err and err.startswith("jantaku-lab synth: ")


def test_every_command_module_registers_in_a_full_install():
    # the lab's modules are skipped only when a package they need is missing: here every one is installed
    import importlib

    from device.cli import COMMAND_MODULES
    from device.lab.cli import LAB_COMMAND_MODULES

    for name in COMMAND_MODULES + LAB_COMMAND_MODULES:
        assert callable(importlib.import_module(name).register), name


@pytest.mark.parametrize(
    ("needs", "skipped"),
    [
        ("vision.gone", False),  # one of ours, gone (a move left half done): fails loudly, never vanishes
        ("torch", True),  # a package of the lab's extras this install lacks: that module's commands are absent
    ],
)
def test_a_lab_module_that_cannot_import_is_skipped_only_for_a_foreign_package(monkeypatch, needs, skipped):
    import sys

    from device.lab import cli

    monkeypatch.setattr(cli, "LAB_COMMAND_MODULES", ("device.lab.hands", "tests.device.lab_module"))
    monkeypatch.setitem(sys.modules, needs, None)
    real = cli.importlib.import_module

    def lab_module(name):
        if name == "tests.device.lab_module":
            real(needs)
        return real(name)

    monkeypatch.setattr(cli.importlib, "import_module", lab_module)
    if not skipped:
        with pytest.raises(ModuleNotFoundError, match=needs):
            cli.build_parser()
        return
    parser = cli.build_parser()
    assert parser.parse_args(["conformance", "wins", "wins.jsonl"]).what == "wins"


@pytest.mark.parametrize(
    ("module", "argv", "usage"),
    [
        ("device.cli", ["bench", "score"], "jantaku: error: argument command: invalid choice: 'bench'"),
        ("device.lab.cli", ["run"], "jantaku-lab: error: argument command: invalid choice: 'run'"),
    ],
)
def test_each_front_door_refuses_the_others_commands_in_one_line(capsys, module, argv, usage):
    import importlib

    with pytest.raises(SystemExit) as exited:
        importlib.import_module(module).main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(usage)


def test_python_m_device_lab_runs_the_lab_command_line():
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "-m", "device.lab", "--help"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: jantaku-lab ") and "conformance" in done.stdout


@pytest.mark.parametrize(("script", "target"), [("jantaku", "device.cli:main"), ("jantaku-lab", "device.lab.cli:main")])
def test_each_command_line_is_a_console_script_of_the_install(script, target):
    import importlib
    import tomllib
    from pathlib import Path

    scripts = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[script] == target
    module, _, name = target.partition(":")
    assert callable(getattr(importlib.import_module(module), name))


@pytest.mark.parametrize("module", ["device.cli", "device.lab"])
def test_python_m_gives_a_users_mistake_in_one_line(tmp_path, module):
    """``python -m`` runs the command line as ``__main__``: a mistake the commands raise is still one line, exit 2."""
    import subprocess
    import sys
    from pathlib import Path

    argv = (
        ["run", "--config", str(tmp_path / "none.toml")] if module == "device.cli" else ["eval", "real", "--conf", "2"]
    )
    done = subprocess.run(
        [sys.executable, "-m", module, *argv],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
