"""What every part of the network thread shares: the player's name, the limits, the event sink, the log.

A hostile peer is "dropped and logged once": :meth:`NetContext.log_drop` writes
the first drop of each address and only counts the following ones, in a table
of bounded size, so a flood of connections cannot flood the journal.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pyramid.net.events import NetEvent, Post
from pyramid.net.limits import Limits

log = logging.getLogger("pyramid.net")

#: How many peer addresses the drop log remembers.
MAX_LOGGED_PEERS = 256


@dataclass
class NetContext:
    name: str
    post: Post
    limits: Limits = field(default_factory=Limits)
    drops: dict[str, int] = field(default_factory=dict)

    def emit(self, event: NetEvent) -> None:
        """Hand ``event`` to the main loop; a failing sink is logged, never raised into the network."""
        try:
            self.post(event)
        except Exception:  # the sink is the console's: its failure must not stop the network thread
            log.exception("the network event sink failed on %r", event)

    def log_drop(self, peer: str, reason: str, detail: str) -> None:
        """Log the first dropped connection of ``peer``; count the others."""
        count = self.drops.get(peer, 0)
        if count == 0:
            if len(self.drops) >= MAX_LOGGED_PEERS:
                self.drops.pop(next(iter(self.drops)))
            log.warning("dropped a connection from %s (%s): %s", peer, reason, detail)
        self.drops[peer] = count + 1
