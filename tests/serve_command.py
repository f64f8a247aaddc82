"""The ``jantaku serve`` command line the tests start a real table with: on loopback, a free port, a game log in a
test's folder, and no detector model (photos are not read)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path


def serve_args(db: Path, *, pin: str | None = None, pin_file: Path | None = None) -> list[str]:
    """``serve`` and its options: the game log ``db``, the PIN given (``pin``) or read from ``pin_file``."""
    args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)]
    if pin is not None:
        args += ["--pin", pin]
    if pin_file is not None:
        args += ["--pin-file", str(pin_file)]
    return [*args, "--model", str(db.parent / "no-model.onnx")]


def takes_ctrl_c() -> None:
    """A child's ``preexec_fn``: Ctrl-C as a terminal delivers it. A suite run from a background shell
    (``nohup ... &``) ignores SIGINT, and a child inherits that (Python then installs no KeyboardInterrupt handler):
    a server stopped by SIGINT would never stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_serve(db: Path, pin: str) -> tuple[subprocess.Popen, str]:
    """``jantaku serve`` started in a subprocess (stop it with SIGINT, as Ctrl-C does): the process and the first line
    it prints (``Jantaku table: URL ...``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", *serve_args(db, pin=pin)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=takes_ctrl_c,
    )
    line = proc.stdout.readline()
    assert line.startswith("Jantaku table: http://127.0.0.1:"), line
    return proc, line
