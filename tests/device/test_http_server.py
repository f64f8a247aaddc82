"""The site's waitress server over real sockets on loopback: one address's idle connections and streams cannot
lock the other phones out, and an over-long body is refused before it is sent.

Linux answers on every 127.0.0.x address, so each address here stands for one phone (or one stranger).
"""

from __future__ import annotations

import http.client
import socket
from contextlib import ExitStack

import pytest

from device.commands.http_server import CONNECTIONS_PER_ADDRESS
from device.commands.site import Site
from tests.web.conftest import detector, service  # noqa: F401 (the site's fixtures)
from web import create_app

STRANGER, PHONE = "127.0.0.2", "127.0.0.3"
#: Guards against a hang when the server does not answer (the failure this file tests for), not a timing.
WAIT_S = 10


@pytest.fixture
def site(service):  # noqa: F811 - the fixture imported above
    app = create_app(
        {
            "TESTING": True,
            "JANTAKU_HEARTBEAT_S": 0.05,
            "JANTAKU_STREAM_MAX_S": 0.5,
            "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
            "JANTAKU_STREAMS_PER_ADDRESS": 4,
        },
        service,
    )
    site = Site(app, "127.0.0.1", 0, threads=int(service.bus.max_subscribers) + 8)
    site.start()
    yield site
    service.bus.close()
    site.close()


def connect(site: Site, address: str, stack: ExitStack) -> socket.socket:
    sock = stack.enter_context(socket.create_connection(("127.0.0.1", site.port), WAIT_S, (address, 0)))
    return sock


def get(site: Site, address: str, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=WAIT_S, source_address=(address, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def status_line(sock: socket.socket) -> str:
    """The first line the server sends on ``sock``; empty when it closed the connection."""
    try:
        return sock.recv(64).split(b"\r\n", 1)[0].decode()
    except ConnectionResetError:
        return ""


def test_half_open_requests_from_one_address_do_not_stop_another(site):
    with ExitStack() as stack:
        for _ in range(110):  # more than waitress's default limit of 100 connections
            connect(site, STRANGER, stack).sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\n")  # never ends
        assert get(site, PHONE, "/api/state") == 200


def test_half_open_requests_from_many_addresses_do_not_lock_the_phones_out(service):  # noqa: F811 - the fixture imported above
    app = create_app({"TESTING": True, "JANTAKU_HEARTBEAT_S": 0.05}, service)
    site = Site(app, "127.0.0.1", 0, threads=8, per_address=4, connection_limit=24)
    site.start()
    try:
        with ExitStack() as stack:
            for n in range(10, 16):  # six strangers, each within its own share, together at the server's limit
                for _ in range(4):
                    sock = connect(site, f"127.0.0.{n}", stack)
                    sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\n")  # never ends
            assert get(site, PHONE, "/api/state") == 200
            assert get(site, PHONE, "/api/state") == 200
    finally:
        service.bus.close()
        site.close()


def test_idle_event_streams_from_one_address_leave_streams_for_others(site):
    with ExitStack() as stack:
        socks = [connect(site, STRANGER, stack) for _ in range(CONNECTIONS_PER_ADDRESS)]
        for sock in socks:
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n")
        answers = [status_line(sock) for sock in socks]
        assert answers.count("HTTP/1.1 200 OK") == 4
        assert get(site, PHONE, "/api/state") == 200
        phone = connect(site, PHONE, stack)
        phone.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n")
        assert status_line(phone) == "HTTP/1.1 200 OK"


def test_an_over_long_body_is_refused_before_it_is_sent(site):
    with ExitStack() as stack:
        sock = connect(site, STRANGER, stack)
        sock.sendall(
            b"POST /api/read HTTP/1.1\r\nHost: table\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 1000000000\r\n\r\n"
        )  # 1 GB announced, none of it sent
        assert status_line(sock) == "HTTP/1.1 413 Request Entity Too Large"
