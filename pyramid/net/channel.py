"""What carries one conversation with a peer, whichever transport: the seam of the match logic.

A match (:class:`~pyramid.net.link.MatchLink`), the host's seating
(:class:`~pyramid.net.table.TableHost`) and a guest's join speak to a
:class:`Channel`: on the home network one TCP connection
(:class:`~pyramid.net.connection.Wire`), through a table server one peer's
messages relayed by the broker (:class:`~pyramid.net.server.wire.ServerWire`).
Both carry the same protocol lines under the same limits, so nothing above
this seam knows which transport a table uses, and every check made on the LAN
is made on what the server relays.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from pyramid.net.views import Via
from pyramid.net.errors import PeerFault
from pyramid.net.limits import Limits
from pyramid.net.protocol import Message


class Channel(Protocol):
    """One conversation with one peer: ordered protocol messages both ways, bounded and timed out."""

    limits: Limits
    #: Who the peer is, for the log and for admission (an address, or a server account).
    peer: str
    closed: bool
    #: The transport: a TCP connection on the home network, or a conversation through the table server.
    via: Via

    async def receive(self, timeout: float | None = None) -> Message:
        """The next message within ``timeout`` (default: the read timeout); :class:`PeerFault` if not."""

    def send(self, message: Message) -> None:
        """Queue ``message`` (never waits); :class:`PeerFault` if the channel is closed or the peer
        does not take what it is sent."""

    def refund(self) -> None:
        """Give back the rate token of the last message received (a move that advanced the match)."""

    def finish(self) -> None:
        """Say nothing more; what was sent is still delivered."""

    async def linger(self, within: float) -> None:
        """After :meth:`finish`: let the last messages reach the peer (``within`` seconds at most), then close."""

    def close(self) -> None:
        """Close at once (idempotent)."""


class RateBucket:
    """The messages-a-second limit every channel applies to what it receives (a token bucket).

    Each message costs one token; ``rate`` tokens come back a second, up to ``burst``.
    """

    def __init__(self, limits: Limits, peer: str) -> None:
        self.limits, self.peer = limits, peer
        self._tokens = limits.burst
        self._refilled = asyncio.get_running_loop().time()

    def spend(self) -> None:
        """Take one token; :class:`PeerFault` ("flood") when none is left."""
        now = asyncio.get_running_loop().time()
        self._tokens = min(self.limits.burst, self._tokens + (now - self._refilled) * self.limits.rate)
        self._refilled = now
        if self._tokens < 1:
            raise PeerFault("flood", f"{self.peer} sent more than {self.limits.rate:g} messages a second")
        self._tokens -= 1

    def refund(self) -> None:
        self._tokens = min(self.limits.burst, self._tokens + 1)
