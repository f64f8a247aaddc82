"""``jantaku-lab bench soak`` and ``bench photo`` (:mod:`device.lab.site_bench`): bad input is one line."""

from __future__ import annotations

import pytest

from device.lab.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "soak", "--clients", "0"], "--clients"),
        (["bench", "photo", "--image", "/nonexistent.jpg"], "cannot read"),
        (["bench", "photo", "--model", "/nonexistent.onnx"], "no detector model"),
    ],
)
def test_command_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith(f"jantaku-lab {argv[0]}: ")
