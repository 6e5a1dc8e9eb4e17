"""Talking to a local `mkdocs serve` from a script or a test: a free port to start it on, and a GET
that answers None while the server is not (yet) answering instead of raising."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request


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
