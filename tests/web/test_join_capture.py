"""A capture of a join on loopback holds no PIN: a real browser joins through the join page's JavaScript, every
byte between it and the real server recorded by a relay in the middle (what a packet capture on the Wi-Fi shows)."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest

from device.table.service import TableService
from tests.web.conftest import serving

pytestmark = pytest.mark.browser

PIN = "482913"


class Recorder:
    """A TCP relay on a free loopback port to ``port``, keeping every byte each way."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.bytes = bytearray()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:  # closed
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:  # the server has stopped (the browser may open a connection ahead, after the test)
                phone.close()
                continue
            for a, b in ((phone, server), (server, phone)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def close(self) -> None:
        # shutdown wakes the accept blocked in the other thread; close alone does not on Linux
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()

    def pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                with self.lock:
                    self.bytes += data
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def site(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "g.db"))
    with serving(service):
        yield service


def test_a_capture_of_a_join_holds_no_pin(context, site):
    recorder = Recorder(int(site.url.rsplit(":", 1)[1].strip("/")))
    base = f"http://127.0.0.1:{recorder.port}"
    try:
        page = context.new_page()
        page.goto(base + "/join")
        page.fill("#pin", PIN)
        page.click("#pin-form button[type=submit]")
        page.wait_for_url(base + "/")
        assert page.inner_text("#join-link") == "Joined"
        page.close()
    finally:
        recorder.close()
    with recorder.lock:
        captured = bytes(recorder.bytes)
    assert b"POST /join " in captured and b"proof=" in captured and b"GET /join/challenge " in captured
    assert PIN.encode() not in captured  # not in a form, a header, a URL, a cookie or an answer


def test_a_tcpdump_capture_of_a_join_on_loopback_holds_no_pin(context, site, tmp_path):
    """The same with a real packet capture (``tcpdump -i lo``, from apt; it needs the right to capture)."""
    import shutil
    import signal
    import subprocess
    import time

    if shutil.which("tcpdump") is None:
        pytest.skip("tcpdump is not installed (apt-get install tcpdump)")
    port = int(site.url.rsplit(":", 1)[1].strip("/"))
    pcap = tmp_path / "join.pcap"
    capture = subprocess.Popen(
        ["tcpdump", "-i", "lo", "-U", "-s", "0", "-w", str(pcap), "tcp", "port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)  # tcpdump is listening
    if capture.poll() is not None:
        pytest.skip(f"tcpdump cannot capture here: {capture.stderr.read().strip()}")
    try:
        page = context.new_page()
        page.goto(site.url + "join")
        page.fill("#pin", PIN)
        page.click("#pin-form button[type=submit]")
        page.wait_for_url(site.url)
        time.sleep(2.0)  # tcpdump writes what it saw
    finally:
        capture.send_signal(signal.SIGINT)
        capture.wait(timeout=10)
    packets = pcap.read_bytes()
    assert b"POST /join " in packets and b"proof=" in packets  # the join is in the capture ...
    assert PIN.encode() not in packets  # ... and the PIN is not


def test_a_phone_scanning_the_join_code_lands_on_the_table_joined(context, site):
    page = context.new_page()
    page.goto(site.url + "join/" + site.join_token())  # what the camera app opens from the QR code
    page.wait_for_url(site.url)
    assert page.inner_text("#join-link") == "Joined"


def test_over_https_a_browser_joins_with_the_pin(browser, tmp_path):
    """``tls = true`` end to end: the browser accepts the table's own certificate once, then joins by the page's
    challenge (the pure-JS proof works on https as on http)."""
    from device.commands.site import start_site

    service = TableService(pin=PIN, db_path=str(tmp_path / "t.db"))
    site = start_site(service, "127.0.0.1", 0, tls_folder=tmp_path)
    ctx = browser.new_context(ignore_https_errors=True)  # the phone's "proceed" on its first visit
    try:
        assert service.url.startswith("https://")
        page = ctx.new_page()
        page.goto(service.url + "join")
        page.fill("#pin", PIN)
        page.click("#pin-form button[type=submit]")
        page.wait_for_url(service.url)
        assert page.inner_text("#join-link") == "Joined"
        secure = [c for c in ctx.cookies() if c["name"] == "session"]
        assert secure and secure[0]["secure"]
    finally:
        ctx.close()
        service.bus.close()
        site.close()
        service.close()
