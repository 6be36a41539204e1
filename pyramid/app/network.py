"""Where the network thread's events go, and how the console makes its network (only when it is needed)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from pyramid.net.network import Network
    from pyramid.net.server.account import ServerAccount


class EventSink:
    """Where the network thread posts its events: the main loop's queue once it exists.

    The network can start before the queue does (``--table`` opens a table
    while the session is built, before the inputs open); what it posts until
    then is kept and handed over, in order, by :meth:`attach`.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._early: list[object] = []
        self._post: Callable[[object], None] | None = None

    def __call__(self, event: object) -> None:
        with self._lock:
            if self._post is None:
                self._early.append(event)
                return
            post = self._post
        post(event)

    def attach(self, post: Callable[[object], None]) -> None:
        with self._lock:
            self._post = post
            early, self._early = self._early, []
        for event in early:
            post(event)


def network_opener(sink: EventSink, server: "ServerAccount | None" = None) -> Callable[[str], "Network"]:
    """How the console makes its :class:`~pyramid.net.network.Network` (only when a network screen needs
    it), with the settings file's table server if one is set."""

    def open_network(name: str) -> "Network":
        from pyramid.net.network import Network

        return Network(name, sink, server=server)

    return open_network
