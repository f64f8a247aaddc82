"""The front door itself: errors that belong to no one command."""

from __future__ import annotations


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


def test_a_lab_module_broken_on_our_own_import_is_not_skipped(monkeypatch):
    # a lab command module importing a module of ours that is gone (a move left half done) must fail loudly,
    # not vanish from the command line as if the lab's packages were missing
    import sys

    import pytest

    from device import cli

    monkeypatch.setattr(cli, "LAB_COMMAND_MODULES", ("tests.device.lab_module_broken",))
    monkeypatch.setitem(sys.modules, "vision.gone", None)
    real = cli.importlib.import_module

    def broken(name):
        if name == "tests.device.lab_module_broken":
            import vision.gone  # noqa: F401
        return real(name)

    monkeypatch.setattr(cli.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="vision.gone"):
        cli.build_parser()


def test_a_lab_module_missing_a_foreign_package_is_skipped(monkeypatch):
    import sys

    from device import cli

    monkeypatch.setattr(cli, "LAB_COMMAND_MODULES", ("tests.device.lab_needs_torch",))
    monkeypatch.setitem(sys.modules, "torch", None)
    real = cli.importlib.import_module

    def needs_torch(name):
        if name == "tests.device.lab_needs_torch":
            import torch  # noqa: F401
        return real(name)

    monkeypatch.setattr(cli.importlib, "import_module", needs_torch)
    parser = cli.build_parser()
    assert parser.parse_args(["score", "123m456p789s23s55z", "--win", "4s"]).command == "score"
