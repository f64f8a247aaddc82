"""``[site] tls = true``: the site serves https on a self-signed certificate made once and kept, with Secure cookies,
and the per-address limits still see each phone's own address."""

from __future__ import annotations

import http.client
import re
import ssl

from device.commands.site import start_site
from device.table.service import TableService

PIN = "482913"


def https_get(port: int, cafile, path: str = "/join") -> tuple[http.client.HTTPResponse, bytes, bytes]:
    context = ssl.create_default_context(cafile=str(cafile))  # trusts the kept certificate, and checks the name
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    der = conn.sock.getpeercert(binary_form=True)
    conn.close()
    return response, body, der


def serve_once(tmp_path):
    service = TableService(pin=PIN, db_path=str(tmp_path / "t.db"))
    site = start_site(service, "127.0.0.1", 0, tls_folder=tmp_path)
    return service, site


def test_tls_serves_https_with_the_kept_certificate_across_restarts(tmp_path):
    seen = []
    for _restart in range(2):
        service, site = serve_once(tmp_path)
        try:
            assert service.url == f"https://127.0.0.1:{site.port}/"
            response, body, der = https_get(site.port, tmp_path / "site-cert.pem")
            assert response.status == 200 and b"Join this table" in body
            assert "Secure" in response.getheader("Set-Cookie")  # the cookie never goes out on plain http
            seen.append(der)
        finally:
            service.bus.close()
            site.close()
            service.close()
    assert seen[0] == seen[1]  # the same certificate: a phone told to trust it once is not asked again
    assert (tmp_path / "site-key.pem").stat().st_mode & 0o777 == 0o600


def https_session(port: int, cafile, source: str) -> tuple[http.client.HTTPSConnection, str, str]:
    """A phone on ``source`` (a loopback address of its own): its connection, cookie and CSRF token."""
    context = ssl.create_default_context(cafile=str(cafile))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10, source_address=(source, 0))
    conn.request("GET", "/join")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    return conn, cookie, csrf


def test_over_tls_the_limits_see_each_phones_own_address(tmp_path):
    service, site = serve_once(tmp_path)
    try:
        conn, cookie, csrf = https_session(site.port, tmp_path / "site-cert.pem", "127.0.0.2")
        codes = []
        for _ in range(service.pin_guard.attempts + 1):
            conn.request(
                "POST",
                "/join",
                body="pin=000000&csrf_token=" + csrf,
                headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
            )
            response = conn.getresponse()
            response.read()
            codes.append(response.status)
        assert codes == [403] * service.pin_guard.attempts + [429]
        # the wait is 127.0.0.2's, the phone's own, not the loopback address the front relays from
        assert service.pin_guard.wait_s("127.0.0.2") is not None
        assert service.pin_guard.wait_s("127.0.0.1") is None
        other, cookie, csrf = https_session(site.port, tmp_path / "site-cert.pem", "127.0.0.3")
        other.request(
            "POST",
            "/join",
            body=f"pin={PIN}&csrf_token={csrf}",
            headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        assert other.getresponse().status == 303
    finally:
        service.bus.close()
        site.close()
        service.close()


def test_jantaku_run_with_tls_serves_https_and_its_qr_carries_it(tmp_path):
    from device.commands.run import RunOptions, TableRuntime
    from device.config import Config
    from vision.read.detector import FakeDetector

    config = Config().with_overrides(
        camera={"kind": "demo", "fps": 20.0},
        game={"db": str(tmp_path / "t.db")},
        site={"host": "127.0.0.1", "port": 0, "pin": "246813", "tls": True},
    )
    out = open(tmp_path / "console.txt", "w")  # noqa: SIM115 - closed below
    table = TableRuntime(config, RunOptions(out=out), detector=FakeDetector(lambda image: []))
    table.start()
    try:
        assert table.url == f"https://127.0.0.1:{table.site.port}/"
        response, body, _ = https_get(table.site.port, tmp_path / "site-cert.pem", "/join")
        assert response.status == 200 and b"https://127.0.0.1:" in body  # the page's QR and link: https
    finally:
        table.close()
        out.close()
    assert "246813" not in (tmp_path / "console.txt").read_text()


def test_the_tls_front_keeps_one_address_to_its_share(tmp_path):
    """Connections that never finish their handshake hold only their own address's share."""
    import socket

    service, site = serve_once(tmp_path)
    stalled = []
    try:
        for _ in range(16):  # the share of one address (CONNECTIONS_PER_ADDRESS)
            stalled.append(socket.create_connection(("127.0.0.1", site.port), source_address=("127.0.0.4", 0)))
        extra = socket.create_connection(("127.0.0.1", site.port), source_address=("127.0.0.4", 0))
        extra.settimeout(5)
        assert extra.recv(1) == b""  # closed as it was accepted
        extra.close()
        response, _body, _ = https_get(site.port, tmp_path / "site-cert.pem")  # another address: served
        assert response.status == 200
    finally:
        for s in stalled:
            s.close()
        service.bus.close()
        site.close()
        service.close()
