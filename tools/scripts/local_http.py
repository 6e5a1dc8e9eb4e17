"""Local HTTP for scripts and tests: a free port to start `mkdocs serve` on, a GET that answers None while the
server is not (yet) answering instead of raising, the quiet request handler every local site server uses, and
whether a page's request leaves the local server."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit


class QuietHandler:
    """Mixed into a request handler (before http.server's class): no access log, and a connection the browser drops
    mid-file (a page closed, a load cut short) ends its request quietly, with no traceback in the test log; it is
    not the site's fault, and the server goes on serving (tests/test_gates.py checks the quiet drop and the serving on)."""

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def handle(self):
        try:
            super().handle()
        except ConnectionError:
            pass


def is_external(url: str, origin: str) -> bool:
    """Whether ``url`` asks a host other than ``origin`` (host:port) over the network."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != origin


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, timeout: float = 10.0) -> bytes | None:
    """The body of ``url``, or None if the server refuses, is not up yet or answers with an error."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.read()
    except (urllib.error.URLError, OSError):
        return None
