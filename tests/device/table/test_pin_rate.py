"""A bounded measurement on loopback: 200 addresses (127.0.0.x) guess the PIN as fast as a real ``jantaku serve``
answers, for :data:`WINDOW_S` seconds. The guesses it takes are no more than the limiter's own arithmetic allows
(:func:`device.table.pin.guess_days` extrapolates from the same schedule to the expected 103.5 days)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from device.table.pin import PinGuard

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
ADDRESSES = 200
WINDOW_S = 8.0


def guesses_allowed(guard: PinGuard, window_s: float) -> int:
    """Guesses one address may make in ``window_s`` when it guesses the moment each wait ends."""
    at, n = 0.0, 0
    while at < window_s:
        n += 1
        at += guard.wait_after(n)
    return n


def test_200_loopback_addresses_guess_no_faster_than_the_limiter_allows(tmp_path):
    (tmp_path / "pin").write_text("482913\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "serve", "--host", "127.0.0.1", "--port", "0", "--streams", "4",
         "--db", str(tmp_path / "g.db"), "--pin-file", str(tmp_path / "pin"), "--model", str(tmp_path / "no.onnx")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        port = int(proc.stdout.readline().split()[2].rsplit(":", 1)[1].strip("/"))
        taken = [0] * ADDRESSES
        start = threading.Barrier(ADDRESSES + 1)
        deadline = [0.0]

        def guesser(i: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(f"127.0.0.{i + 2}", 0))
            conn.request("GET", "/join")
            response = conn.getresponse()
            page = response.read().decode()
            cookie = response.getheader("Set-Cookie").split(";", 1)[0]
            csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
            headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
            start.wait()
            guess = 0
            while time.monotonic() < deadline[0]:
                conn.request("POST", "/join", body=f"pin={i:03d}{guess % 1000:03d}&csrf_token={csrf}", headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status == 403:  # a guess checked (and wrong)
                    taken[i] += 1
                    guess += 1
                elif response.status == 429:  # waiting: try again as soon as it may
                    wait = int(response.getheader("Retry-After") or 1)
                    time.sleep(min(wait, max(0.0, deadline[0] - time.monotonic())) or 0.05)
            conn.close()

        threads = [threading.Thread(target=guesser, args=(i,)) for i in range(ADDRESSES)]
        for t in threads:
            t.start()
        deadline[0] = time.monotonic() + WINDOW_S
        start.wait()
        began = time.monotonic()
        for t in threads:
            t.join()
        took = time.monotonic() - began
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    allowed = guesses_allowed(PinGuard(), took)
    total = sum(taken)
    print(f"\n{ADDRESSES} addresses, {took:.1f} s: {total} guesses checked ({max(taken)} at most from one address; "
          f"the limiter allows {allowed} an address)")  # fmt: skip
    assert max(taken) <= allowed
    assert total <= ADDRESSES * allowed
