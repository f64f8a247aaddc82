"""The front door itself: errors that belong to no one command."""

from __future__ import annotations

import pytest


def test_a_missing_optional_package_is_one_line_and_exit_2(monkeypatch, capsys):
    # the renderer draws glyphs with Pillow, an optional extra: without it, one line naming the package
    import sys

    from device.cli import main

    monkeypatch.setitem(sys.modules, "PIL", None)
    for name in [m for m in sys.modules if m.startswith("vision.synth")]:
        monkeypatch.delitem(sys.modules, name)
    assert main(["synth", "--n", "1", "--out", "unused"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'PIL'" in err and "[train]" in err


def test_every_command_module_registers_in_a_full_install():
    # the lab's modules are skipped only when a package they need is missing: here every one is installed
    import importlib

    from device.cli import COMMAND_MODULES, LAB_COMMAND_MODULES

    for name in COMMAND_MODULES + LAB_COMMAND_MODULES:
        assert callable(importlib.import_module(name).register), name


@pytest.mark.parametrize(
    ("needs", "skipped"),
    [
        ("vision.gone", False),  # one of ours, gone (a move left half done): fails loudly, never vanishes
        ("torch", True),  # a package of the lab's extras this install lacks: the lab's commands are absent
    ],
)
def test_a_lab_module_that_cannot_import_is_skipped_only_for_a_foreign_package(monkeypatch, needs, skipped):
    import sys

    from device import cli

    monkeypatch.setattr(cli, "LAB_COMMAND_MODULES", ("tests.device.lab_module",))
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
    assert parser.parse_args(["score", "123m456p789s23s55z", "--win", "4s"]).command == "score"
