"""One conversation with one console through the table server: a :class:`~pyramid.net.channel.Channel`.

Why a conversation and not the broker connection: the broker relays every
console's messages over this console's one MQTT connection, so what a TCP
connection is on the home network — a guest asking for the seat, then the
match until it drops — is here the messages between two accounts that carry
one conversation number (MQTT 5's correlation data, 16 random hex digits the
guest picks each time it asks for the seat). A message of an earlier
conversation (queued before a drop) never reaches a newer one. The guest's
first words go to the host's seat topic, the rest to the play topics; each
message is one protocol line, checked exactly as on the LAN (length, rate,
fields), and the same read timeouts and pings apply.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from pyramid.net.views import Via
from pyramid.net.channel import RateBucket
from pyramid.net.errors import PeerFault
from pyramid.net.errors import ProtocolError
from pyramid.net.limits import Limits
from pyramid.net.protocol import MAX_MESSAGE, Message, decode, encode

#: Messages sent and not yet acknowledged by the broker beyond which the conversation is dropped
#: (the server, or this console's link to it, does not keep up).
MAX_UNSENT_MESSAGES = 64
#: Bytes received and not yet read beyond which the conversation is dropped: as a TCP connection's
#: reader stops at twice the longest message (a whole match resent at once is ~6 KB).
INBOX_BYTES = 2 * MAX_MESSAGE

Publish = Callable[[str, bytes, bytes], "asyncio.Future[None] | None"]


def new_conversation() -> bytes:
    """A conversation number: 64 random bits as 16 hex digits."""
    return secrets.token_hex(8).encode()


class ServerWire:
    """The conversation ``conversation`` with the console of ``account``, through the server."""

    def __init__(self, account: str, conversation: bytes, limits: Limits, publish: Publish, first_topic: str,
                 topic: str, on_close: Callable[["ServerWire"], None]) -> None:
        self.account, self.conversation, self.limits = account, conversation, limits
        self.peer = f"{account}@server"
        self._publish, self._topic, self._on_close = publish, topic, on_close
        self._sending_to = first_topic  # the guest's first words go to the seat topic
        self._bucket = RateBucket(limits, self.peer)
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._waiting = 0  # bytes in the inbox
        self._unsent: set[asyncio.Future[None]] = set()
        self._fault: PeerFault | None = None
        self.closed = False
        self.finished = False
        self.via: Via = "server"

    # -- from the server session --------------------------------------------------------
    def deliver(self, payload: bytes) -> None:
        """A message of this conversation arrived (called by the session, on the network thread)."""
        if self.closed:
            return
        if len(payload) > MAX_MESSAGE:
            self._drop(PeerFault("too_long", f"{self.peer} sent a message longer than {MAX_MESSAGE} bytes"))
        elif self._waiting + len(payload) > INBOX_BYTES:
            self._drop(PeerFault("flood", f"{self.peer} sent more than {INBOX_BYTES} bytes unread"))
        else:
            self._waiting += len(payload)
            self._inbox.put_nowait(payload)

    def lost(self, why: str) -> None:
        """The peer is gone from the server (its last will), or this console's link to the server dropped."""
        self._drop(PeerFault("closed", f"{self.peer}: {why}"))

    def _drop(self, fault: PeerFault) -> None:
        if self._fault is None:
            self._fault = fault
        self.close()

    # -- the Channel --------------------------------------------------------------------
    async def receive(self, timeout: float | None = None) -> Message:
        limit = self.limits.read_timeout if timeout is None else timeout
        if self.closed and self._inbox.empty():
            raise self._fault or PeerFault("closed", f"the conversation with {self.peer} is closed")
        try:
            async with asyncio.timeout(limit):
                payload = await self._inbox.get()
        except TimeoutError:
            raise PeerFault("timeout", f"no message from {self.peer} within {limit:g} s") from None
        if payload is None:
            raise self._fault or PeerFault("closed", f"the conversation with {self.peer} is closed")
        self._waiting -= len(payload)
        self._bucket.spend()
        self._sending_to = self._topic  # the other side spoke: the conversation is under way
        if not payload.endswith(b"\n") or b"\n" in payload[:-1]:
            raise PeerFault("protocol", f"{self.peer}: a message is one line ending in a newline")
        try:
            return decode(payload)
        except ProtocolError as error:
            raise PeerFault("protocol", f"{self.peer}: {error}") from None

    def send(self, message: Message) -> None:
        if self.closed or self.finished:
            raise PeerFault("closed", f"the conversation with {self.peer} is closed")
        self._unsent = {future for future in self._unsent if not future.done()}
        if len(self._unsent) >= MAX_UNSENT_MESSAGES:
            raise PeerFault("unsent", f"the server does not take what is sent to {self.peer}")
        future = self._publish(self._sending_to, encode(message), self.conversation)
        if future is None:
            raise PeerFault("closed", "not connected to the table server")
        self._unsent.add(future)

    def refund(self) -> None:
        self._bucket.refund()

    def finish(self) -> None:
        self.finished = True

    async def linger(self, within: float) -> None:
        """Wait until the server has taken the last messages (QoS 1: acknowledged), then close."""
        unsent = {future for future in self._unsent if not future.done()}
        if unsent and not self.closed:
            await asyncio.wait(unsent, timeout=within)
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        while not self._inbox.empty():
            self._inbox.get_nowait()
        self._waiting = 0
        self._inbox.put_nowait(None)  # wakes a reader: the conversation is over
        self._on_close(self)
