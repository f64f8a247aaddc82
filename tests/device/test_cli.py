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
