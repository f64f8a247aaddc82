"""The phone site's HTTP server: waitress, with limits that keep one guest from filling it.

* each address holds at most ``per_address`` connections; a connection past that is closed as it is accepted, so
  idle half-sent requests from one address cannot fill the server's ``connection_limit`` and lock every phone out;
* at ``connection_limit`` the server keeps accepting and closes the connection idle longest that owes no answer
  (a request half sent, or none), so strangers on many addresses cannot lock the phones out either;
* a connection idle for ``channel_timeout`` seconds (a request never finished) is closed, checked every
  ``cleanup_interval`` seconds;
* a body larger than the app's ``MAX_CONTENT_LENGTH`` is refused (413) from its ``Content-Length`` before any
  of it is read (waitress would otherwise spool up to 1 GB to disk before the app could refuse it).

Event streams are limited per address and kept for joined phones by the app itself (:mod:`web.guard`); a closed
connection is seen while its request still runs (``channel_request_lookahead``), so a stream's slot is freed
as soon as its phone goes.
"""

from __future__ import annotations

from typing import Any

from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

#: Connections one address may hold: a phone's browser opens about 6, plus its event stream.
CONNECTIONS_PER_ADDRESS = 16
#: Connections the whole server holds (each a file descriptor; waitress's select() copes with far more).
CONNECTION_LIMIT = 200


class GuardedServer(TcpWSGIServer):
    """A waitress server that closes a new connection when its address already holds ``per_address``."""

    def __init__(self, *args: Any, per_address: int = CONNECTIONS_PER_ADDRESS, **kwargs: Any) -> None:
        self.per_address = per_address
        super().__init__(*args, **kwargs)

    def readable(self) -> bool:
        super().readable()  # its upkeep: connections idle past channel_timeout closed every cleanup_interval
        return bool(self.accepting)  # past connection_limit too: accept() makes room

    def accept(self) -> tuple[Any, Any] | None:
        pair = super().accept()
        if pair is None:
            return None
        conn, addr = pair
        channels = list(self.active_channels.values())
        held = sum(1 for channel in channels if _host(channel.addr) == _host(addr))
        if held >= self.per_address:
            conn.close()  # over this address's share: refused at once, the others' connections untouched
            return None
        if len(channels) >= self.adj.connection_limit:
            idle = [channel for channel in channels if _owes_nothing(channel)]
            if not idle:  # every connection is being answered: this one waits its turn elsewhere
                conn.close()
                return None
            min(idle, key=lambda channel: channel.last_activity).handle_close()
        return pair


def _owes_nothing(channel: Any) -> bool:
    """Whether closing ``channel`` loses no answer: no whole request waits or runs, nothing is left to send."""
    return not channel.requests and not getattr(channel, "total_outbufs_len", 0)


def _host(addr: Any) -> Any:
    return addr[0] if isinstance(addr, tuple) else addr


def create_site_server(
    app: Any,
    host: str,
    port: int,
    *,
    threads: int,
    per_address: int = CONNECTIONS_PER_ADDRESS,
    connection_limit: int = CONNECTION_LIMIT,
    channel_timeout: int = 30,
    cleanup_interval: int = 10,
) -> GuardedServer:
    """A started (listening, not yet running) :class:`GuardedServer` for ``app`` on one address.

    Raises OSError when the address cannot be served (in use, not this machine's)."""
    max_body = getattr(app, "config", {}).get("MAX_CONTENT_LENGTH")
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        cleanup_interval=cleanup_interval,
        # the connection stays readable while its request runs, so a phone that closes an event stream is seen
        # at once (``waitress.client_disconnected``), not only when a later heartbeat fails to send
        channel_request_lookahead=1,
        **({"max_request_body_size": int(max_body)} if max_body else {}),
    )
    if len(adj.listen) != 1:
        raise OSError(f"{host} names {len(adj.listen)} addresses: give one")
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return GuardedServer(app, {}, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0], per_address=per_address)
