"""The engine's arrows run one way: no import loop between its modules (a module never imports, even inside a
function, one that imports it back, nor the package ``__init__`` that re-exports it), nothing from the other
packages, and its runtime never imports its lab (``engine.conformance``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.test_layout import imported

ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each engine module's engine imports, each named by the module that defines it (``a.b.c`` -> ``a.b``)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        graph[module] = set()
        for name in imported(path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                graph[module].add(name)
    return graph


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: each strongly connected group of two or more modules, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_import_loop_in_engine():
    assert loops(import_graph(engine_modules())) == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),  # scoring <-> the Tenhou format, as it was
        ({"p": {"p.s"}, "p.s": {"p"}}, [["p", "p.s"]]),  # a module importing its package's __init__ back
        ({"a": {"b"}, "b": set()}, []),
    ],
)
def test_loops_are_found(graph, expected):
    assert loops(graph) == expected


@pytest.mark.parametrize("module", sorted(engine_modules()))
def test_engine_imports_only_engine_and_its_runtime_no_lab(module):
    path = engine_modules()[module]
    others = sorted(m for m in imported(path) if m.split(".")[0] in ("vision", "device", "web"))
    lab = sorted(m for m in imported(path) if m.startswith("engine.conformance"))
    assert others == []
    if not module.startswith("engine.conformance"):
        assert lab == []
