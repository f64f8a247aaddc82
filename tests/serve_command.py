"""The ``jantaku serve`` command line the tests start a real table with: on loopback, a free port, a game log in a
test's folder, and no detector model (photos are not read)."""

from __future__ import annotations

from pathlib import Path


def serve_args(db: Path, *, pin: str | None = None, pin_file: Path | None = None) -> list[str]:
    """``serve`` and its options: the game log ``db``, the PIN given (``pin``) or read from ``pin_file``."""
    args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)]
    if pin is not None:
        args += ["--pin", pin]
    if pin_file is not None:
        args += ["--pin-file", str(pin_file)]
    return [*args, "--model", str(db.parent / "no-model.onnx")]
