"""Runtime apart from the lab: no module the table runs imports rendering, training or evaluation, not even inside a
function. The lab is :data:`tests.test_architecture.LAB` (``vision.synth``, ``vision.train``, ``vision.eval``,
``engine.conformance``, ``device.lab``); the command line's runtime commands (``device/commands``) import none of it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_architecture import is_lab

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function (``from a import b`` counts as a and a.b)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def runtime_files() -> list[Path]:
    files = []
    for package in ("engine", "vision", "device", "web"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if not is_lab(module):
                files.append(path)
    return files


@pytest.mark.parametrize("path", runtime_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_runtime_imports_no_lab_module(path):
    assert sorted(m for m in imported(path) if is_lab(m)) == []


@pytest.mark.parametrize(
    ("source", "lab"),
    [
        ("from vision.eval import evaluation\n", ["vision.eval", "vision.eval.evaluation"]),
        ("def f():\n    import vision.train.training\n", ["vision.train.training"]),
        ("from vision.read.detector import Detection\n", []),
    ],
)
def test_the_walk_sees_imports_anywhere(tmp_path, source, lab):
    path = tmp_path / "m.py"
    path.write_text(source)
    assert sorted(m for m in imported(path) if is_lab(m)) == lab
