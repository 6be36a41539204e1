"""A hostile test client's two moves: connect to a console on 127.0.0.1, and wait to be thrown out."""

from __future__ import annotations

import socket


def connect(port: int, guard: float) -> socket.socket:
    """A connection to 127.0.0.1:``port`` whose every wait ends after ``guard`` seconds (a test never hangs)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=guard)
    sock.settimeout(guard)
    return sock


def closed_by_peer(sock: socket.socket) -> bool:
    """Read until the other side closes the connection (True); what it sent before does not matter.

    A peer that never closes ends the read with the socket's time-out, which fails the test.
    """
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, BrokenPipeError):
        pass
    sock.close()
    return True
