"""One TCP connection carrying protocol lines, with every limit a hostile peer could test.

Why asyncio streams: one background thread serves the listener, every
connection and the discovery subprocesses by waiting in one ``epoll`` call,
with timers instead of polling; ``StreamReader`` with ``limit`` refuses an
over-long line after :data:`~pyramid.net.protocol.MAX_MESSAGE` bytes (it stops
reading the socket once its buffer holds twice that), so memory per connection
is bounded whatever the peer sends. Plain threads with ``selectors`` would
re-implement exactly this.

:meth:`Wire.receive` raises :class:`PeerFault` for every way a peer can
misbehave (too long, too slow, too fast, not the protocol, gone); the owner
drops the connection and logs it once.
"""

from __future__ import annotations

import asyncio
import logging

from pyramid.net.addresses import OutsideHomeNetwork, is_allowed_peer
from pyramid.net.views import Via
from pyramid.net.channel import RateBucket
from pyramid.net.errors import PeerFault
from pyramid.net.errors import ProtocolError
from pyramid.net.limits import Limits
from pyramid.net.protocol import MAX_MESSAGE, Message, decode, encode

log = logging.getLogger("pyramid.net")

#: Bytes waiting to be sent to a peer that does not read, beyond which it is dropped.
MAX_UNSENT = 4 * MAX_MESSAGE


class Wire:
    """A :class:`~pyramid.net.channel.Channel` on one TCP stream pair, enforcing :class:`Limits`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limits: Limits) -> None:
        self.reader, self.writer, self.limits = reader, writer, limits
        peer = writer.get_extra_info("peername")
        self.peer: str = str(peer[0]) if isinstance(peer, tuple) else "?"
        self._bucket = RateBucket(limits, self.peer)
        self.closed = False
        self.finished = False  # this side said its last word (see finish)
        self.via: Via = "lan"

    async def receive(self, timeout: float | None = None) -> Message:
        """The next message; ``timeout`` (default: the read timeout) bounds the wait for a whole line."""
        limit = self.limits.read_timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(limit):
                line = await self.reader.readuntil(b"\n")
        except TimeoutError:
            raise PeerFault("timeout", f"no complete message from {self.peer} within {limit:g} s") from None
        except asyncio.LimitOverrunError:
            raise PeerFault("too_long", f"{self.peer} sent a line longer than {MAX_MESSAGE} bytes") from None
        except asyncio.IncompleteReadError:
            raise PeerFault("closed", f"{self.peer} closed the connection") from None
        except (ConnectionError, OSError) as error:
            raise PeerFault("closed", f"connection to {self.peer} failed: {error}") from None
        self._bucket.spend()
        try:
            return decode(line)
        except ProtocolError as error:
            raise PeerFault("protocol", f"{self.peer}: {error}") from None

    def refund(self) -> None:
        """Give back the token of the last message (a move that advanced the match)."""
        self._bucket.refund()

    def send(self, message: Message) -> None:
        """Queue ``message`` for sending (never waits); :class:`PeerFault` if the peer stopped reading."""
        if self.closed or self.finished or self.writer.transport.is_closing():
            raise PeerFault("closed", f"the connection to {self.peer} is closed")
        if self.writer.transport.get_write_buffer_size() > MAX_UNSENT:
            raise PeerFault("unsent", f"{self.peer} does not read what it is sent")
        self.writer.write(encode(message))

    def finish(self) -> None:
        """Say nothing more: the peer reads what was sent, then the end of the stream.

        Why not :meth:`close`: closing a socket while the peer's last messages
        sit unread in it makes the kernel answer with a reset, and a reset makes
        the peer's kernel throw away what it has not yet handed to the peer,
        the farewell included. So the side that leaves only shuts its writing
        half here and reads on (:meth:`linger`) until the peer closes too.
        """
        if self.closed or self.finished:
            return
        self.finished = True
        if self.writer.can_write_eof() and not self.writer.transport.is_closing():
            try:
                self.writer.write_eof()
            except OSError:  # the peer is already gone (ENOTCONN): nothing is left to say it to
                self.close()

    async def linger(self, within: float) -> None:
        """After :meth:`finish`: read and discard until the peer closes, ``within`` seconds or
        :data:`MAX_UNSENT` bytes at most (a peer that keeps talking is cut off), then close."""
        if self.closed:
            return
        discarded = 0
        try:
            async with asyncio.timeout(within):
                while discarded <= MAX_UNSENT:
                    data = await self.reader.read(MAX_MESSAGE)
                    if not data:
                        break
                    discarded += len(data)
        except (TimeoutError, ConnectionError, OSError):
            pass  # the peer did not close in time, or went away: either way the wire ends here
        finally:
            self.close()

    def close(self) -> None:
        """Close at once (idempotent); unsent bytes are flushed by the transport if it can."""
        if not self.closed:
            self.closed = True
            self.writer.close()


async def open_wire(host: str, port: int, limits: Limits) -> Wire:
    """Connect to ``host``:``port`` within the connect timeout; ``OSError``/``TimeoutError`` if not
    (:class:`OutsideHomeNetwork`, before trying, for an address off the home network)."""
    if not is_allowed_peer(host):
        raise OutsideHomeNetwork(host)
    async with asyncio.timeout(limits.connect_timeout):
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_MESSAGE)
    return Wire(reader, writer, limits)
