"""Ports for the servers the tests start themselves (Mosquitto, sshd) on 127.0.0.1.

A port found free by binding port 0 is the kernel's next ephemeral one: released, it can be handed
to any other socket of the machine before the server binds it, and with the suite on every core
(issue 48) another test's connection took one (Mosquitto then failed to start). These ports come
from below the ephemeral range, a band of its own for each xdist worker, each checked free.
"""

from __future__ import annotations

import itertools
import os
import socket

#: Below Linux's ephemeral range (32768–60999 by default): no connection is given one of these.
FIRST = 20000
#: Ports a worker's band holds (gw0 20000–20999, gw1 21000–21999, …).
BAND = 1000

_worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_candidates = itertools.cycle(range(FIRST + (_worker % 12) * BAND, FIRST + (_worker % 12 + 1) * BAND))


def free_port() -> int:
    """A port of this worker's band that nothing listens on or is bound to now."""
    for port in _candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("unreachable: the band cycles")
