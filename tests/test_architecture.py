"""The house's arrows run one way, and the Pi's runtime never imports the lab.

Reads every module of engine, vision, device and web with ``ast`` (imports inside functions count) and checks:
no loop between top-level folders, no loop between modules of one folder, no arrow against the allowed direction
(:data:`ALLOWED`), no runtime module importing a lab module (:data:`LAB`) or naming one to import by name. A second
test imports the whole runtime in a fresh interpreter where the lab's packages (ultralytics, torch, torchvision,
Pillow) cannot be imported. The table's ``jantaku --help`` lists only what a table needs (:data:`TABLE_COMMANDS`);
the lab's commands are ``jantaku-lab``'s (:data:`LAB_COMMANDS`).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "device", "web")

#: The folders each top-level folder may import (besides itself).
ALLOWED = {
    "engine": set(),
    "vision": {"engine"},
    "web": {"engine"},  # the site reads no tiles itself: the service hands it readings
    "device": {"engine", "vision", "web"},
}

#: The lab's packages: what the Pi never runs (rendering, training, evaluation, conformance, benchmarks, and the lab's
#: command line ``jantaku-lab``). Every other module of the four packages is the runtime.
LAB = ("vision.synth", "vision.train", "vision.eval", "engine.conformance", "device.lab")

#: What ``jantaku --help`` lists: what a table needs (``run --check`` checks a Pi's set-up).
TABLE_COMMANDS = {"run", "serve", "score", "waits", "read", "token", "card"}
#: What ``jantaku-lab --help`` lists, and ``jantaku`` never does.
LAB_COMMANDS = {
    "bench", "conformance", "eval", "synth", "train", "export", "val-model", "train-classifier", "blend-classifier",
    "train-way-up", "quantize-classifier",
}  # fmt: skip

#: Packages only the lab needs; the runtime must import without them.
LAB_DEPENDENCIES = ("ultralytics", "torch", "torchvision", "PIL")


def module_files() -> dict[str, Path]:
    """Every module of the four packages by dotted name (a package by its own name, for its ``__init__``)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that ``name`` (a module, or a name inside one) lives in, if any."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports. ``from a.b import c`` imports ``a.b`` (and ``a.b.c`` when that
    is a module): Python runs ``a.b`` first either way."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                names = [base] + [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                target = _owner(name, modules)
                if target is not None and target != module:
                    graph[module].add(target)
    return graph


def loops(graph: dict[str, set[str]], nodes: set[str]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one node (Tarjan), each as a sorted tuple."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def is_lab(module: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in LAB)


def _top(module: str) -> str:
    return module.partition(".")[0]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(module_files())


def test_the_walk_sees_imports_inside_functions(graph):
    # device.commands.serve imports the table service inside serve_command only
    assert "device.table.service" in graph["device.commands.serve"]


def test_no_loop_between_top_level_folders(graph):
    folders = defaultdict(set)
    for module, targets in graph.items():
        folders[_top(module)] |= {_top(t) for t in targets} - {_top(module)}
    assert loops(folders, set(PACKAGES)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_loop_between_modules_of_one_folder(graph, package):
    modules = {m for m in module_files() if _top(m) == package}
    found = set(loops(graph, modules))
    assert not found, f"import loops in {package}: {sorted(found)}"


def test_arrows_run_the_allowed_way(graph):
    against = sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if _top(target) != _top(module) and _top(target) not in ALLOWED[_top(module)]
    )
    assert not against, f"imports against the allowed direction {ALLOWED}: {against}"


def test_the_runtime_imports_no_lab_module(graph):
    edges = sorted((m, t) for m, targets in graph.items() for t in targets if not is_lab(m) and is_lab(t))
    assert not edges, f"runtime modules importing the lab: {edges}"


#: What the table service (``device/table``) takes from the site: its contract (the errors, message and request types
#: of ``web.contract``) and the address key its PIN guard counts by. Reading a request is the site's alone: each
#: phone request is checked once, and the service is handed what it says.
TABLE_FROM_WEB = {"web.contract", "web.guard"}


def test_the_table_service_takes_only_the_sites_contract(graph):
    taken = {
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("device.table")
        for target in targets
        if target.split(".")[0] == "web" and target not in TABLE_FROM_WEB
    }
    assert sorted(taken) == []


@pytest.mark.parametrize("package", LAB)
def test_each_lab_package_exists(package):
    # a lab package renamed away would leave its new name counted as runtime, unchecked
    assert package in module_files(), f"{package} is named in LAB but is no package"


def lab_names_in_strings(path: Path) -> list[str]:
    """The string constants of a module that are a lab module's name, as ``importlib.import_module`` takes it
    (prose that mentions one, a docstring's cross-reference, is no import)."""
    return [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_lab(node.value)
    ]


def test_no_runtime_module_names_a_lab_module_to_import():
    named = {
        module: names
        for module, path in module_files().items()
        if not is_lab(module) and (names := lab_names_in_strings(path))
    }
    assert not named, f"runtime modules naming lab modules (an import by name is an import): {named}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('importlib.import_module("device.lab.video")', ["device.lab.video"]),
        ('MODULES = ("device.commands.run", "vision.eval")', ["vision.eval"]),
        ('"""See :mod:`device.lab.cli` for the lab."""', []),
        ('import_module("device.commands.score")', []),
    ],
)
def test_lab_names_in_strings_finds_a_lab_module_named_in_any_string(tmp_path, source, expected):
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    assert lab_names_in_strings(path) == expected


def help_commands(main, argv=("--help",)) -> set[str]:
    """The subcommands a command line's ``--help`` lists (its ``{a,b,c}`` usage line)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 0
    return set(re.search(r"\{([^}]+)\}", out.getvalue()).group(1).split(","))


def test_jantaku_help_lists_what_a_table_needs_and_no_lab_command():
    from device.cli import main

    listed = help_commands(main)
    assert listed == TABLE_COMMANDS, f"lab commands in jantaku --help: {sorted(listed & LAB_COMMANDS)}"


def test_the_lab_commands_are_jantaku_labs():
    from device.lab.cli import main

    assert help_commands(main) == LAB_COMMANDS


#: Command modules whose name is no command they register, and why.
NOT_NAMED_AFTER_A_COMMAND = {"device.commands.access": "token and card: the table's access (its PIN and join code)"}


def registered_commands() -> dict[str, set[str]]:
    """Each runtime command module and the ``jantaku`` commands it registers."""
    from device.cli import build_parser

    parser = build_parser()
    (subcommands,) = (a for a in parser._actions if a.dest == "command")
    modules: dict[str, set[str]] = defaultdict(set)
    for name, sub in subcommands.choices.items():
        modules[sub.get_default("func").__module__].add(name)
    return modules


def test_each_command_module_takes_its_commands_name():
    misnamed = {
        module: sorted(commands)
        for module, commands in registered_commands().items()
        if module.rpartition(".")[2] not in commands and module not in NOT_NAMED_AFTER_A_COMMAND
    }
    assert not misnamed, f"command modules named after no command they register: {misnamed}"


#: Module names that meant several things, and what each names now (one meaning per noun).
NOUNS = {
    "events": {"engine.game.events", "web.events"},  # the game's events; the phones' /events stream
    "bus": {"device.table.bus"},  # the publish/subscribe bus of the table's live updates
    "live": {"web.live"},  # the live table page and joining it
}


@pytest.mark.parametrize(("noun", "modules"), NOUNS.items())
def test_each_noun_names_the_modules_it_means(noun, modules):
    assert {m for m in module_files() if m.rpartition(".")[2] == noun} == modules


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("vision.synth", True),
        ("vision.synth.render", True),
        ("device.lab.hands", True),
        ("vision.synthesis", False),  # a prefix names a package, not the start of a word
        ("vision.read.pipeline", False),
        ("device.commands.score", False),
    ],
)
def test_lab_is_named_by_package_prefix(module, expected):
    assert is_lab(module) is expected


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [("a", "b")]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [("a", "b", "c")]),
        ({"a": {"b"}, "b": {"c"}}, []),
    ],
)
def test_loops_finds_each_strongly_connected_component(edges, expected):
    nodes = set(edges) | {t for ts in edges.values() for t in ts}
    assert loops(edges, nodes) == expected


# --- the runtime without the lab's packages ---------------------------------------------------------------------

_WITHOUT_LAB = r"""
import importlib, importlib.abc, sys

BLOCKED = {blocked!r}


class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is a lab dependency", name=name)
        return None


for name in list(sys.modules):
    if name.partition(".")[0] in BLOCKED:
        del sys.modules[name]
sys.meta_path.insert(0, Absent())
failed = []
for module in {modules!r}:
    try:
        importlib.import_module(module)
    except Exception as exc:
        failed.append(f"{{module}}: {{type(exc).__name__}}: {{exc}}")
from device.cli import main

for argv in {commands!r}:
    try:
        main(argv)
    except SystemExit as exc:
        if exc.code:
            failed.append(f"jantaku {{' '.join(argv)}}: exit {{exc.code}}")
leaked = sorted(n for n in sys.modules if n.partition(".")[0] in BLOCKED)
if leaked:
    failed.append(f"lab packages imported: {{leaked}}")
print("\n".join(failed))
sys.exit(1 if failed else 0)
"""

#: The runtime's commands, each asked for its help (parsing builds every registered command's parser).
RUNTIME_COMMANDS = [
    ["--help"],
    ["run", "--help"],
    ["serve", "--help"],
    ["score", "--help"],
    ["waits", "--help"],
    ["read", "--help"],
]


def test_the_runtime_imports_and_its_commands_parse_without_the_lab_packages():
    runtime = sorted(m for m in module_files() if not is_lab(m) and not m.startswith("tests"))
    code = _WITHOUT_LAB.format(blocked=LAB_DEPENDENCIES, modules=runtime, commands=RUNTIME_COMMANDS)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]


_LAB_WITHOUT_ITS_PACKAGES = r"""
import importlib.abc, sys

BLOCKED = {blocked!r}


class Absent(importlib.abc.MetaPathFinder):  # as on a Pi: the packages are not installed
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, Absent())
from device.lab.cli import main

sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize(
    ("argv", "listed"),
    [
        (["--help"], "conformance"),
        (["conformance", "--help"], "wins"),  # the engine's checks need none of the lab's packages
        (["bench", "--help"], "score"),
    ],
)
def test_the_lab_commands_that_need_no_lab_package_run_without_them(argv, listed):
    code = _LAB_WITHOUT_ITS_PACKAGES.format(blocked=LAB_DEPENDENCIES, argv=argv)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert done.stdout.startswith("usage: jantaku-lab ") and listed in done.stdout
