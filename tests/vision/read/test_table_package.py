"""The table reader is a package, one module per step of reading a table (:mod:`vision.read.table`): each step's
module says its job, the package gives the public names, the modules it folded in are gone (no shims), and no
function in it branches more than ruff's C901 allows at :data:`MAX_COMPLEXITY`."""

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import vision.read.table as table

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "vision" / "read" / "table"
#: The most branches (McCabe) a function of the table package may have: the reader's steps stay readable.
MAX_COMPLEXITY = 10


#: Each module of the package, and how its docstring starts (its job).
STEPS = [
    ("observation", "What a whole table reads as"),
    ("frame", "Tiles in one seat's frame"),
    ("kinds", "What kind a seat's row is"),
    ("centre", "Where the table's centre lies"),
    ("seats", "Whose each tile is"),
    ("hand", "A seat's outermost row when it is a hand"),
    ("naming", "Naming a seat's rows"),
    ("read", "The table read, step by step"),
    ("geometry", "A fixed camera's table geometry"),
    ("square", "A camera mounted turned to the table"),
]


@pytest.mark.parametrize(("module", "job"), STEPS)
def test_each_step_is_a_module_that_says_its_job(module, job):
    doc = importlib.import_module(f"vision.read.table.{module}").__doc__
    assert doc is not None and doc.startswith(job)


#: What importers take from ``vision.read.table`` (as before it was a package).
PUBLIC = (
    "read_table",
    "TableObservation",
    "SeatObservation",
    "MeldObservation",
    "FrameSide",
    "TABLE_MIN_TILES",
    "estimate_centre",
    "tiles_middle",
    "within_tiles",
)


@pytest.mark.parametrize("name", PUBLIC)
def test_the_package_gives_its_public_names(name):
    assert name in table.__all__
    value = getattr(table, name)
    assert getattr(value, "__module__", "vision.read.table").startswith("vision.read.table")


@pytest.mark.parametrize("folded", ["vision.read.table_geometry", "vision.read.table_square"])
def test_the_folded_modules_are_gone(folded):
    assert importlib.util.find_spec(folded) is None


def test_no_function_of_the_package_is_too_complex():
    assert PACKAGE.is_dir()
    limit = f"lint.mccabe.max-complexity={MAX_COMPLEXITY}"
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "C901", "--config", limit, str(PACKAGE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert found.returncode == 0, found.stdout + found.stderr


def test_every_module_of_the_package_is_a_step_named_here():
    assert {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"} == {module for module, _job in STEPS}
