"""glibc's malloc arenas capped at the command's start (see device.commands.memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Twelve threads allocate at once, then glibc lists its heaps (one per arena) as XML on stdout.
PROBE = """
import ctypes, sys, threading
if sys.argv[1] == "cap":
    from device.commands.memory import limit_malloc_arenas
    assert limit_malloc_arenas(2)
barrier = threading.Barrier(12)
def work():
    blobs = [bytearray(4096) for _ in range(500)]
    barrier.wait()
    del blobs
threads = [threading.Thread(target=work) for _ in range(12)]
for t in threads:
    t.start()
for t in threads:
    t.join()
libc = ctypes.CDLL("libc.so.6")
libc.fdopen.restype = ctypes.c_void_p
out = ctypes.c_void_p(libc.fdopen(1, b"w"))
libc.malloc_info(0, out)
libc.fflush(out)
"""


def heaps(mode: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    return out.count("<heap nr=")


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="malloc arenas are glibc's",
)
def test_limit_malloc_arenas_caps_the_heaps_threads_make():
    assert heaps("none") > 2  # the probe sees the arenas threads make
    assert heaps("cap") <= 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--pin", "12"], "--pin"),
        (["run", "--duration", "-1"], "--duration"),
    ],
)
def test_run_and_serve_cap_the_arenas_first(monkeypatch, capsys, argv, message):
    import device.commands.memory
    from device.cli import main

    calls = []
    monkeypatch.setattr(device.commands.memory, "limit_malloc_arenas", lambda *a: calls.append(a) or True)
    assert main(argv) == 2 and message in capsys.readouterr().err  # refused after the cap was set
    assert calls == [()]
