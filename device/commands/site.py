"""The phone site's start-up, shared by ``jantaku run`` and ``jantaku serve``: the site (:func:`web.create_app`
over a table service) on waitress in a thread, the address phones reach it at, and its QR code.

    site = start_site(service, "0.0.0.0", 8000)   # serving; site.url is also the service's url
    ...
    site.close()
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from pathlib import Path
from typing import Any, TextIO

from device.cli import UserError

log = logging.getLogger("jantaku.site")

#: Waitress threads beyond the event streams, for pages, API calls and photos.
SPARE_THREADS = 8


def site_threads(service: Any) -> int:
    """Waitress threads a site needs: one per event stream the service allows, and spare ones."""
    return int(service.bus.max_subscribers) + SPARE_THREADS


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


class Site:
    """The phone site on waitress, in a thread; :meth:`close` stops it from any thread."""

    def __init__(self, app: Any, host: str, port: int, threads: int = 8, *, tls: Any = None, **limits: int) -> None:
        """``limits``: :func:`device.commands.http_server.create_site_server`'s (``per_address`` connections ...).
        ``tls``: an ``ssl.SSLContext``: serve https on ``host:port`` (:class:`device.commands.tls.TlsFront`), the
        site itself on loopback behind it."""
        from device.commands.http_server import CONNECTION_LIMIT, CONNECTIONS_PER_ADDRESS, create_site_server

        self.front = None
        try:
            if tls is None:
                self.server = create_site_server(app, host, port, threads=threads, **limits)
            else:
                from device.commands.tls import RealAddress, TlsFront

                per_address = limits.pop("per_address", CONNECTIONS_PER_ADDRESS)
                # every relayed connection comes from loopback: the front keeps the per-address share
                self.server = create_site_server(
                    app, "127.0.0.1", 0, threads=threads, per_address=CONNECTION_LIMIT, **limits
                )
                self.front = TlsFront(
                    tls, host, port, backend_port=int(self.server.effective_port), per_address=per_address
                )
                app.wsgi_app = RealAddress(app.wsgi_app, self.front)
        except OSError as exc:
            raise UserError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        self.port = int(self.front.port if self.front else self.server.effective_port)  # type: ignore[union-attr]
        self.scheme = "https" if self.front else "http"
        self._thread = threading.Thread(target=self._serve, name="jantaku-site", daemon=True)

    def _serve(self) -> None:
        try:
            self.server.run()
        except Exception:  # pragma: no cover - logged, the main thread notices the site is gone
            log.exception("site: the web server stopped")

    def start(self) -> None:
        self._thread.start()
        if self.front is not None:
            self.front.start()

    def close(self, timeout: float = 3.0) -> None:
        from waitress import wasyncore

        if self.front is not None:
            self.front.close()
        server = self.server
        # close every socket from inside the server's own loop (closing them from here races its select())
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))  # type: ignore[union-attr]
        except OSError:
            # seen rarely under load at shutdown: the loop's wake-up pipe is already gone, so the loop cannot be
            # asked; close the sockets from here
            wasyncore.close_all(server._map)  # type: ignore[union-attr]
        self._thread.join(timeout)
        server.task_dispatcher.shutdown(timeout=timeout)  # type: ignore[union-attr]


def print_qr(url: str, out: TextIO) -> None:
    try:
        import segno

        segno.make(url, error="m").terminal(out=out, compact=True)
    except Exception:  # a console that cannot show it: the URL is printed anyway
        pass


def print_welcome(service: Any, pin_where: str, out: TextIO, prefix: str = "jantaku: ", *, demo: bool = False) -> None:
    """The table's address and where its PIN is, never the PIN itself (the console may be the journal). On a
    terminal, the QR code that joins with no PIN; elsewhere how to print the join card (the demo, whose games are
    thrown away, prints its join link)."""
    print(f"{prefix}the table is at {service.url}  ({pin_where})", file=out, flush=True)
    join = service.url.rstrip("/") + "/join/" + service.join_token()
    if out.isatty():
        print(f"{prefix}scan to join (no PIN needed):", file=out, flush=True)
        print_qr(join, out)
    elif demo:
        print(f"{prefix}the demo's join link: {join}", file=out, flush=True)
    else:
        print(f"{prefix}join code: print it with `jantaku card --out card.pdf`", file=out, flush=True)
    out.flush()


def start_site(
    service: Any, host: str, port: int, config: dict[str, Any] | None = None, *, tls_folder: Path | None = None
) -> Site:
    """Serve the site over ``service`` on ``host:port`` (port 0: any free one) and set ``service.url`` to the
    address the phones use (this machine's LAN address when ``host`` is every interface).

    ``tls_folder``: serve https with the self-signed certificate kept there (made the first time); the cookies
    are then ``Secure``."""
    from web import create_app

    tls = None
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if tls_folder is not None:
        from device.commands.tls import kept_certificate, ssl_context

        names = ["localhost", socket.gethostname().split(".")[0] + ".local"]
        addresses = sorted({"127.0.0.1", lan_address()} | ({host} if _is_address(host) else set()))
        tls = ssl_context(*kept_certificate(tls_folder, names, addresses))
        config = {**(config or {}), "SESSION_COOKIE_SECURE": True}
    site = Site(create_app(config, service), host, port, threads=site_threads(service), tls=tls)
    service.url = f"{site.scheme}://{shown}:{site.port}/"
    site.start()
    return site


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return host not in ("0.0.0.0", "::")
