"""``[site] tls = true``: the site serves https on a self-signed certificate made once and kept, with Secure cookies."""

from __future__ import annotations

import http.client
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
