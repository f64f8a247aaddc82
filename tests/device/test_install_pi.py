"""device/install-pi.sh on today's Raspberry Pi OS (trixie, Python 3.13): the venv keeps the system's numpy (the one
picamera2 is built against) and the Pi camera is optional. The whole install runs in a trixie root in
tests/device/test_install_pi_emulated.py (slow)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "device" / "install-pi.sh").read_text(encoding="utf-8")


def script_lines(first: str, last: str) -> str:
    """The script's lines from the one starting with ``first`` to the one starting with ``last``."""
    lines = SCRIPT.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next(i for i, line in enumerate(lines) if i >= start and line.startswith(last))
    return "\n".join(lines[start : end + 1])


def hold_for(tmp_path: Path, python3: str) -> str:
    """The numpy constraint install-pi.sh hands pip where ``python3`` is the system's python (a bash function)."""
    snippet = script_lines("SYSTEM_NUMPY=", "printf '%s\\n' \"$NUMPY_HOLD\"")
    (tmp_path / ".venv").mkdir(exist_ok=True)
    subprocess.run(["bash", "-euc", f"{python3}\nPREFIX={tmp_path}\n{snippet}\n"], check=True)
    return (tmp_path / ".venv" / "numpy.txt").read_text()


def test_pip_is_held_to_the_numpy_this_python_has(tmp_path):
    assert "numpy<2" not in SCRIPT.replace(" ", "")  # numpy 1.x has no wheel for Python 3.13: no pin of our own
    assert hold_for(tmp_path, f'python3() {{ {sys.executable} "$@"; }}') == f"numpy=={numpy.__version__}\n"
    pip = next(line for line in SCRIPT.splitlines() if '/.venv/bin/pip" install' in line)
    assert '-c "$PREFIX/.venv/numpy.txt"' in pip and "--system-site-packages" in SCRIPT


@pytest.mark.parametrize(
    ("system_numpy", "hold"),
    [
        ("2.2.4", "numpy==2.2.4"),  # trixie: the one picamera2 is built against
        ("2.3.1", "numpy==2.3.1"),
        ("1.26.4", "numpy==1.26.4"),  # Ubuntu 24.04
        ("1.24.2", "numpy>=1.26,<2"),  # Bookworm: too old for the project, and picamera2 needs a 1.x
    ],
)
def test_the_numpy_hold_follows_the_system(tmp_path, system_numpy, hold):
    assert hold_for(tmp_path, f"python3() {{ echo {system_numpy}; }}") == hold + "\n"


@pytest.mark.parametrize(
    ("policy", "installs_picamera2"),
    [
        ("python3-picamera2:\n  Installed: (none)\n  Candidate: 0.3.30-1\n", True),  # Raspberry Pi OS
        ("python3-picamera2:\n  Installed: (none)\n  Candidate: (none)\n", False),  # apt knows it, none to get
        ("", False),  # plain Debian: apt has never heard of it
    ],
)
def test_picamera2_is_installed_where_apt_offers_it_and_the_install_goes_on_without(
    tmp_path, policy, installs_picamera2
):
    snippet = script_lines("if apt-cache policy python3-picamera2", "fi")
    log = tmp_path / "apt.log"
    bash = (
        f'say() {{ echo "say: $*"; }}\n'
        f"apt-cache() {{ printf %b {policy!r}; }}\n"
        f'apt-get() {{ echo "$*" >> {log}; }}\n'
        f"{snippet}\necho went-on\n"
    )
    out = subprocess.run(["bash", "-euo", "pipefail", "-c", bash], capture_output=True, text=True, check=True).stdout
    installed = log.read_text() if log.exists() else ""
    assert ("python3-picamera2" in installed) == installs_picamera2
    assert out.rstrip().endswith("went-on")
    assert ("a USB camera and the demo work" in out) != installs_picamera2


def test_a_system_without_systemd_gets_the_install_and_a_way_to_start_it(tmp_path):
    snippet = SCRIPT[SCRIPT.index("if ! command -v systemctl") :]
    bash = f'say() {{ echo "say: $*"; }}\nPREFIX=/opt/jantaku CONFIG=/etc/jantaku/config.toml UNIT=x\n{snippet}'
    # a PATH with no systemctl on it (bash itself named by its full path)
    proc = subprocess.run(
        [shutil.which("bash"), "-c", bash], capture_output=True, text=True, env={"PATH": str(tmp_path)}
    )
    assert proc.returncode == 0, proc.stderr  # a container or a bare root: nothing to enable, nothing failed
    assert "start the table with /opt/jantaku/.venv/bin/jantaku run --config /etc/jantaku/config.toml" in proc.stdout
