"""HTTPS for the phone site (``[site] tls = true``): a self-signed certificate made once and kept, and a TLS front.

    cert, key = kept_certificate(data_folder)          # made on the first call, the same files ever after
    front = TlsFront(ssl_context(cert, key), "0.0.0.0", 8443, backend_port=site.port)

Waitress speaks no TLS, so :class:`TlsFront` accepts the phones' TLS connections (handshake within
:data:`HANDSHAKE_S`, at most ``per_address`` connections an address) and relays each, decrypted, to the waitress
site listening on loopback. The site learns each phone's real address through :class:`RealAddress`, which maps the
relay's own loopback port back to the phone: the per-address limits keep working, and no header is trusted.

The certificate is made with the ``cryptography`` package when it is installed (Raspberry Pi OS ships it), else
with the ``openssl`` command; it names ``localhost``, this machine's ``.local`` name and its addresses.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import logging
import os
import select
import shutil
import socket
import ssl
import subprocess
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from device.cli import UserError

log = logging.getLogger("jantaku.tls")

CERT_NAME, KEY_NAME = "site-cert.pem", "site-key.pem"
#: Seconds a phone has to finish the TLS handshake (one that stalls is closed, freeing its slot).
HANDSHAKE_S = 10.0
#: Seconds a read of a part-sent TLS record, or a write to a phone that reads nothing, may take.
RECORD_S = 30.0
#: The certificate's life: phones are told to trust it once, so it lasts.
CERT_DAYS = 3650


def kept_certificate(
    folder: Path, names: list[str] | None = None, addresses: list[str] | None = None
) -> tuple[Path, Path]:
    """The site's certificate and key in ``folder``, made (self-signed) the first time and kept after."""
    cert, key = folder / CERT_NAME, folder / KEY_NAME
    if cert.is_file() and key.is_file():
        return cert, key
    folder.mkdir(parents=True, exist_ok=True)
    names = names or ["localhost", socket.gethostname().split(".")[0] + ".local"]
    addresses = addresses or ["127.0.0.1"]
    try:
        import cryptography  # noqa: F401
    except ImportError:
        _make_with_openssl(cert, key, names, addresses)
    else:
        _make_with_cryptography(cert, key, names, addresses)
    os.chmod(key, 0o600)
    log.info("tls: made a self-signed certificate %s", cert)
    return cert, key


def _make_with_cryptography(cert: Path, key: Path, names: list[str], addresses: list[str]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[-1])])
    now = datetime.datetime.now(datetime.UTC)
    alt = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=CERT_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(private, hashes.SHA256())
    )
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def _make_with_openssl(cert: Path, key: Path, names: list[str], addresses: list[str]) -> None:
    if shutil.which("openssl") is None:
        raise UserError(
            "tls: neither the cryptography package nor the openssl command is here "
            "(apt install python3-cryptography, or openssl)"
        )
    alt = ",".join([f"DNS:{n}" for n in names] + [f"IP:{a}" for a in addresses])
    done = subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            str(CERT_DAYS),
            "-subj",
            f"/CN={names[-1]}",
            "-addext",
            f"subjectAltName={alt}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise UserError(f"tls: openssl could not make a certificate ({done.stderr.strip().splitlines()[-1:]})")


def ssl_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


class TlsFront:
    """Accepts TLS on ``host:port`` and relays each connection, decrypted, to ``127.0.0.1:backend_port``.

    ``peers`` maps the relay's loopback port (the site's ``REMOTE_PORT``) to the phone's address."""

    def __init__(
        self,
        context: ssl.SSLContext,
        host: str,
        port: int,
        *,
        backend_port: int,
        per_address: int = 16,
        limit: int = 200,
    ) -> None:
        self.context, self.backend_port = context, backend_port
        self.per_address, self.limit = per_address, limit
        self.peers: dict[int, str] = {}
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()
        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._listener = socket.create_server((host, port), family=family)
        except OSError as exc:
            raise UserError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        self.port = self._listener.getsockname()[1]
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="jantaku-tls", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._thread.join(3.0)

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, addr = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._held[addr[0]] >= self.per_address or sum(self._held.values()) >= self.limit:
                    conn.close()  # over this address's share, or full: the others' connections untouched
                    continue
                self._held[addr[0]] += 1
            threading.Thread(target=self._serve, args=(conn, addr[0]), daemon=True).start()

    def _serve(self, raw: socket.socket, address: str) -> None:
        phone: ssl.SSLSocket | None = None
        backend: socket.socket | None = None
        local_port = None
        try:
            raw.settimeout(HANDSHAKE_S)
            phone = self.context.wrap_socket(raw, server_side=True)
            backend = socket.create_connection(("127.0.0.1", self.backend_port))
            local_port = backend.getsockname()[1]
            self.peers[local_port] = address  # before the first byte reaches the site
            _relay(phone, backend)
        except OSError:
            pass  # a failed handshake (a phone that refused the certificate), or a connection gone
        finally:
            if local_port is not None:
                self.peers.pop(local_port, None)
            for s in (phone, raw, backend):
                if s is not None:
                    with contextlib.suppress(OSError):
                        s.close()
            with self._lock:
                self._held[address] -= 1
                if self._held[address] <= 0:
                    del self._held[address]


def _relay(phone: ssl.SSLSocket, backend: socket.socket) -> None:
    """Bytes both ways until either side closes, in one thread (an SSL socket is not read and written from two)."""
    for s in (phone, backend):
        s.settimeout(RECORD_S)
    while True:
        ready = [phone] if phone.pending() else select.select([phone, backend], [], [], 300.0)[0]
        for source in ready:
            data = source.recv(65536)
            if not data:
                return
            (backend if source is phone else phone).sendall(data)


class RealAddress:
    """WSGI middleware: a request relayed by a :class:`TlsFront` gets the phone's address as ``REMOTE_ADDR``, and
    ``wsgi.url_scheme`` https (a direct loopback connection is left as it is)."""

    def __init__(self, app: Any, front: TlsFront) -> None:
        self.app, self.front = app, front

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        port = environ.get("REMOTE_PORT")
        address = self.front.peers.get(int(port)) if port and str(port).isdigit() else None
        if address is not None and environ.get("REMOTE_ADDR") == "127.0.0.1":
            environ["REMOTE_ADDR"] = address
            environ["wsgi.url_scheme"] = "https"
        return self.app(environ, start_response)
