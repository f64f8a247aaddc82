"""install-pi.sh on today's Raspberry Pi OS base, without a Pi: a Debian trixie arm64 root under qemu-user-static
(device/check-pi-trixie.sh), the install run in it, then the demo there until it scores a hand. Slow: the
emulated install and demo take tens of minutes (docs/pi.md has the figures)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "device" / "check-pi-trixie.sh"

pytestmark = pytest.mark.slow


def test_the_check_script_is_valid_bash_and_runs_the_install_and_the_demo():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    text = SCRIPT.read_text(encoding="utf-8")
    assert "./device/install-pi.sh" in text and "jantaku run --demo" in text


@pytest.mark.skipif(os.geteuid() != 0, reason="debootstrap and chroot need root")
@pytest.mark.skipif(
    not (shutil.which("debootstrap") and shutil.which("qemu-aarch64-static")),
    reason="apt-get install debootstrap qemu-user-static binfmt-support",
)
def test_install_pi_works_on_trixie_arm64_and_the_demo_scores_a_hand(tmp_path):
    env = dict(os.environ, ROOT=str(tmp_path / "root"), LOG=str(tmp_path / "logs"), DEMO_TIMEOUT="5400")
    proc = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=4 * 3600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    times = dict(line.split() for line in (tmp_path / "logs" / "times.txt").read_text().splitlines())
    assert {"install", "demo-first-score"} <= set(times)
    install_log = (tmp_path / "logs" / "install.log").read_text()
    assert "numpy 2.2.4 from the system" in install_log  # the venv uses the system's numpy (trixie's)
    assert "python3-picamera2 is not in this system's apt sources" in install_log  # and goes on without it
    assert "scored:" in proc.stdout
