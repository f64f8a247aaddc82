"""``jantaku serve`` over real sockets: event streams that phones abandon give their slots back at once.

A page left (a tab switched, a link followed) closes its stream's connection. The server sees the close while the
stream still runs (waitress's ``channel_request_lookahead``) and frees the slot, so the next page of that phone gets
its stream at once instead of 429 for a heartbeat or two (15-30 s).
"""

from __future__ import annotations

import signal
import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.serve_command import start_serve

#: Streams one address may hold (``JANTAKU_STREAMS_PER_ADDRESS``).
PER_ADDRESS = 4


@pytest.fixture
def served(tmp_path):
    """A ``jantaku serve`` subprocess on loopback: its (host, port)."""
    proc, line = start_serve(tmp_path / "g.db", "864213")
    try:
        url = urlsplit(line.split()[2])
        yield url.hostname, url.port
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=15)


def open_stream(address, query: str = "") -> tuple[socket.socket, int, float]:
    """A page's ``GET /events`` (``query``: e.g. ``?tab=ID``): the socket, the answer's status and the seconds it
    took to come."""
    started = time.monotonic()
    sock = socket.create_connection(address, timeout=10)
    sock.sendall(f"GET /events{query} HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(256)
        if not chunk:
            break
        head += chunk
    status = int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return sock, status, time.monotonic() - started


def test_abandoned_streams_give_their_slots_back_at_once(served):
    # six pages opened in a row from one address, each left open: four get a stream, the rest 429
    opened = [open_stream(served) for _ in range(6)]
    assert [status for _sock, status, _s in opened] == [200] * PER_ADDRESS + [429] * 2
    for sock, _status, _s in opened:  # and all six left at once
        sock.close()
    # the next pages get their streams at once, as many as the address may hold
    again = [open_stream(served) for _ in range(PER_ADDRESS)]
    try:
        assert [status for _sock, status, _s in again] == [200] * PER_ADDRESS
        assert max(seconds for _sock, _status, seconds in again) < 1.0
    finally:
        for sock, _status, _s in again:
            sock.close()


def read_until(sock: socket.socket, marker: bytes, seconds: float = 5.0) -> bytes:
    """What ``sock`` receives until ``marker`` (or the connection ends, or ``seconds`` pass)."""
    sock.settimeout(seconds)
    got = b""
    try:
        while marker not in got:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
    except TimeoutError:
        pass
    return got


def test_a_tabs_new_stream_replaces_its_old_one(served):
    # four tabs of one phone hold the address's four streams; a new page in the first tab takes that tab's stream
    tabs = [open_stream(served, f"?tab=tab{i}") for i in range(PER_ADDRESS)]
    try:
        assert [status for _sock, status, _s in tabs] == [200] * PER_ADDRESS
        assert open_stream(served, "?tab=another")[1] == 429  # a fifth tab waits its turn
        sock, status, seconds = open_stream(served, "?tab=tab0")
        tabs.append((sock, status, seconds))
        assert status == 200 and seconds < 1.0
        # the old page (if it is still there) is told, and its stream ends (the last chunk of the answer)
        old = read_until(tabs[0][0], b"\r\n0\r\n\r\n")
        assert b"event: replaced" in old and old.endswith(b"\r\n0\r\n\r\n")
    finally:
        for sock, _status, _s in tabs:
            sock.close()
