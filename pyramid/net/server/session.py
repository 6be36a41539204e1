"""This console's one connection to the table server, on the network thread's event loop.

Why aiomqtt: it drives paho-mqtt (the Eclipse client, MQTT 5) on the asyncio
loop the network thread already runs, so the server adds no thread of its own
and waits in the same ``epoll`` as the home network's sockets. Measured for
issue 30 with paho-mqtt 2.2.0 alone and through aiomqtt 2.5.1: the same round
trips (docs/network.md). The socket is set ``TCP_NODELAY``: a move is a small
message answered at once, which Nagle's algorithm and delayed acknowledgements
held 40 ms a hop (a round trip through the broker 88 ms, 0.46 ms without).

The session connects when the network thread starts with a server set (never
otherwise), says it is present (``status`` "here", retained; its last will
"gone"), reads what is addressed to it and every advert, and reconnects after a
drop (1 s doubling to 30 s, each pause drawn between half of it and all of it:
``Limits.server_retry_spread``). It
connects with an identifier no other account can take (:func:`client_identifier`); a
connection that another one signed in as the same account took over is said as the
state ``taken_over`` and tried again after a longer pause. What it reads is routed by topic and sender
(:mod:`~pyramid.net.server.topics`) and bounded: each sender at the protocol's
rate, at most :data:`MAX_CONVERSATIONS` conversations and :data:`MAX_ADVERTS`
adverts; everything else about a message is checked where it is used, exactly
as on the home network. Nothing the server says is trusted beyond who sent it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import socket
import ssl
from collections.abc import Callable
from typing import Any, NamedTuple

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from pyramid.net.advert import TableAd
from pyramid.net.channel import RateBucket
from pyramid.net.context import NetContext, log
from pyramid.net.errors import NetError, PeerFault, ProtocolError
from pyramid.net.events import InviteReceived, ServerState, ServerStateName, TableGone, TableSeen
from pyramid.net.protocol import MAX_MESSAGE, Invite, decode, encode
from pyramid.net.server import topics
from pyramid.net.server.account import ServerAccount, ServerSettingsError, client_identifier, read_password, tls_context
from pyramid.net.server.daily import DailyResults
from pyramid.net.server.inbox import telling
from pyramid.net.server.wire import ServerWire, new_conversation

#: Conversations (seat requests and seated players) held at once; a newer request beyond is dropped.
MAX_CONVERSATIONS = 32
#: Adverts remembered (the tables listed); a club's server with more shows the first ones.
MAX_ADVERTS = 256
#: Senders whose rate is followed; the oldest is forgotten beyond.
MAX_SENDERS = 256
#: Messages read from the server and not yet routed (beyond, the longest sender's newest is dropped: FairInbox).
MAX_QUEUED = 256
#: An advert expires on the server after this long (MQTT 5 message expiry); re-published before.
ADVERT_EXPIRY = 600
ADVERT_REFRESH = 480.0
#: Seconds the session's last words (gone, the advert withdrawn) are given when it stops.
FAREWELL = 2.0
#: The connection's keepalive: a server that stopped answering is noticed within 1.5 times this.
KEEPALIVE = 30
#: Connect refusals that are the account's or its password's (MQTT 3 and 5 reason codes).
REFUSED_CODES = frozenset({4, 5, 134, 135})
#: MQTT 5's DISCONNECT reason: another connection with this client identifier took its place.
SESSION_TAKEN_OVER = 142
#: The MQTT 5 user property of this console's "here" and "gone" that names its connection (TakenOver).
CONNECTION_PROPERTY = "connection"
#: TLS alerts by which the server refuses this console's client certificate (OpenSSL's reason names).
REFUSED_ALERTS = frozenset({"TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_BAD_CERTIFICATE", "SSLV3_ALERT_CERTIFICATE_EXPIRED",
                            "SSLV3_ALERT_CERTIFICATE_REVOKED", "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
                            "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE", "TLSV13_ALERT_CERTIFICATE_REQUIRED",
                            "TLSV1_ALERT_ACCESS_DENIED"})

Accept = Callable[[ServerWire], None]


class Presence(NamedTuple):
    """A console's last status on the server: here or gone, and the connection that said it (None: a
    status that names none, from a console before issue 45)."""

    here: bool
    connection: str | None


class TakenOver(Exception):
    """Another connection signed in as this console's account took its place on the server.

    An account's client identifier is the account's own, so a second connection of the same account
    (another console set to it, or someone holding its password) replaces this one. A server that
    says so (MQTT 5's DISCONNECT "Session taken over") is heard; Mosquitto 2.0 just closes the
    connection. So this console's "here" and its last will "gone" name its connection (a user
    property, which other consoles ignore), and on coming back after a drop the console reads its own
    retained status before saying "here" again: one that names another connection, or none, means
    another connection of its account was on the server since (its "here", or its will, published
    when this console's return replaced it). It then leaves without a word (its "here" would tell the
    other connection the same) and tries again after a longer pause, this time to stay: the status it
    finds then (the will its return fires, or the other's goodbye) no longer tells whether the other
    is still there, and if it is, its own return soon says so to one of the two. Two consoles set to
    one account take turns instead of knocking each other off every second. At a process's first
    connection another connection's status is this console's own from before a restart, and is not
    read so."""


class _PendingPublishes(logging.Filter):
    """aiomqtt warns at each publish while more than ten wait for the server's acknowledgement: the
    normal state of a resend batch (a match's moves sent at once), not news for the journal."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().endswith("pending publish calls.")


#: aiomqtt's and paho's log lines.
MQTT_LOG = logging.getLogger("pyramid.net.mqtt")
MQTT_LOG.addFilter(_PendingPublishes())


class TableServerSession:
    """The console of ``account`` on the table server: tables seen, conversations, its own advert."""

    def __init__(self, context: NetContext, account: ServerAccount) -> None:
        self.context, self.account = context, account
        #: Where seat requests go while this console listens (its TableHost), else they are dropped.
        self.accept_seats: Accept | None = None
        self.browsing = False
        self.state: ServerStateName = "connecting"
        self._detail: str | None = None  # none posted yet
        self._client: aiomqtt.Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._conversations: dict[tuple[str, bytes], ServerWire] = {}
        self._adverts: dict[str, TableAd] = {}
        self._senders: dict[str, RateBucket] = {}
        self._present: dict[str, Presence] = {}  # each console's last status, and its connection
        self._told_expiry: set[str] = set()  # senders whose advert without a valid expiry was logged
        self._advert: TableAd | None = None  # this console's own, re-published on each connection
        self._refresh: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Future[Any]] = set()  # publishes and subscriptions until the server has them
        self._jitter = random.Random()
        self._reached = False  # the last connection got as far as "connected"
        self._connections = 0  # connections that got that far, this one included
        self._connection = secrets.token_hex(8)  # names this process's "here" and "gone" (TakenOver)
        self._replaced = False  # this connection found another one's status as its own
        self._gave_way = False  # the last attempt left for another connection (TakenOver)
        #: The daily results: this console's to share, the boards it follows (issue 50).
        self.daily = DailyResults(context, account.user, self)
        #: aiomqtt's queue class, made once: its inboxes tell this session what they drop.
        self._inbox = telling(self._dropped)

    @property
    def address(self) -> str:
        return self.account.address

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    # -- what the network asks -------------------------------------------------------------
    async def conversation_with(self, host: str) -> ServerWire:
        """A new conversation with the console of account ``host`` (a guest asking for its seat);
        ``TimeoutError`` when the server is not connected within the connect timeout,
        ``ConnectionRefusedError`` when that console's last word on the server was "gone" (as a
        home-network console that is off refuses the connection: the guest tries again later)."""
        self.start()
        async with asyncio.timeout(self.context.limits.connect_timeout):
            await self._connected.wait()
        presence = self._present.get(host)
        if presence is not None and not presence.here:
            raise ConnectionRefusedError(f"{host} is not on the table server")
        me = self.account.user
        return self._open(host, new_conversation(), topics.seat(host, me))

    def announce(self, ad: TableAd | None) -> None:
        """Publish this console's table (or its presence in the network menu), or withdraw it (None)."""
        self._advert = ad
        if self._refresh is not None:
            self._refresh.cancel()
            self._refresh = None
        self._publish_advert()

    def browse(self) -> None:
        """List the server's tables (those already known at once), then as they come and go."""
        self.start()
        if not self.browsing:
            self.browsing = True
            for ad in self._adverts.values():
                self.context.emit(TableSeen(ad))

    def invite(self, account: str, port: int, match_number: int) -> bool:
        """Invite the console of ``account`` to this console's table (listening on ``port`` at home: the
        message's field, checked as on the LAN; the invited console answers through the server);
        False when not connected."""
        invite = Invite(self.context.name, port, match_number)
        return self._publish(topics.invite(account, self.account.user), encode(invite)) is not None

    async def stop(self) -> None:
        """Say goodbye (status "gone", the advert withdrawn) and disconnect."""
        client = self._client
        if client is not None:
            try:
                async with asyncio.timeout(FAREWELL):
                    await client.publish(topics.advert(self.account.user), b"", qos=1, retain=True)
                    await client.publish(topics.status(self.account.user), b"gone", qos=1, retain=True,
                                         properties=self._named(PacketTypes.PUBLISH))  # as its will does
            except (aiomqtt.MqttError, TimeoutError) as error:
                log.info("the table server did not take the goodbye: %s", error)
        if self._refresh is not None:
            self._refresh.cancel()
        self.daily.stop()
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=FAREWELL)
        self._lose_all("this console left the table server")

    # -- the connection ------------------------------------------------------------------------
    async def _run(self) -> None:
        limits = self.context.limits
        pause = limits.server_retry_first
        while True:
            try:
                password = read_password(self.account)
                tls = tls_context(self.account)
                identifier = client_identifier(self.account, password)
            except ServerSettingsError as error:
                self._set_state("misconfigured", str(error))
                return
            if self.state not in ("unreachable", "taken_over"):  # trying again keeps saying why it failed
                self._set_state("connecting", "")
            self._reached = False
            try:
                await self._connect(password, tls, identifier)
            except aiomqtt.MqttCodeError as error:
                if _code(error.rc) in REFUSED_CODES:
                    self._set_state("refused", str(error))
                    return
                self._set_state("unreachable", str(error))
            except (aiomqtt.MqttError, OSError) as error:
                alert = _refusal_alert(error) if self.account.certificate is not None else None
                if alert is not None:
                    self._set_state("refused", f"the server refused this console's certificate: {alert}")
                    return
                if _disconnect_code(error) == SESSION_TAKEN_OVER:
                    pause = self._taken_over()
                else:
                    self._set_state("unreachable", str(error) or type(error).__name__)
            except TakenOver:
                pause = self._taken_over()
                self._gave_way = True
            if self._reached and self.state != "taken_over":  # a drop after a connection: from the first pause
                pause = limits.server_retry_first
            await asyncio.sleep(self._jitter.uniform(pause * (1 - limits.server_retry_spread), pause))
            pause = min(pause * 2, max(limits.server_retry_longest, pause))

    def _named(self, packet: int) -> Properties:
        """Properties that name this console's connection (:class:`TakenOver`)."""
        properties = Properties(packet)  # type: ignore[no-untyped-call]  # paho's is untyped
        properties.UserProperty = [(CONNECTION_PROPERTY, self._connection)]
        return properties

    def _taken_over(self) -> float:
        """Say that another connection of this account took this console's place; the pause before
        trying again."""
        log.warning("table server %s: another connection signed in as %s took this console's place",
                    self.address, self.account.user)
        self._set_state("taken_over", f"another connection signed in as {self.account.user}")
        return self.context.limits.server_taken_over_pause

    async def _connect(self, password: str | None, tls: ssl.SSLContext, identifier: str) -> None:
        me = self.account.user
        will = aiomqtt.Will(topics.status(me), b"gone", qos=1, retain=True, properties=self._named(PacketTypes.WILLMESSAGE))
        client = aiomqtt.Client(
            self.account.host, self.account.port, username=me, password=password, identifier=identifier,
            protocol=aiomqtt.ProtocolVersion.V5, will=will, keepalive=KEEPALIVE, tls_context=tls,
            timeout=self.context.limits.connect_timeout, max_queued_incoming_messages=MAX_QUEUED, queue_type=self._inbox,
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)], logger=MQTT_LOG,
        )
        try:
            async with client:
                self._client = client
                # The statuses are not the last subscription: their retained messages come before the
                # last one's acknowledgement, and are read before this console says "here".
                self._replaced = False
                for topic in topics.subscriptions(me):
                    await client.subscribe(topic, qos=1)
                for _ in range(len(client.messages)):
                    self._route(await anext(client.messages))
                if self._replaced:
                    raise TakenOver
                await client.publish(topics.status(me), b"here", qos=1, retain=True,
                                     properties=self._named(PacketTypes.PUBLISH))
                self._connections += 1
                self._gave_way = False
                self._connected.set()
                self._set_state("connected", "")
                self._reached = True
                self._publish_advert()
                self.daily.connected()
                async for message in client.messages:
                    try:
                        self._route(message)
                    except Exception:  # one message must not end the connection: logged, the next read
                        log.exception("a message from the table server could not be handled")
        finally:
            self._client = None
            self._connected.clear()
            self._lose_all("the connection to the table server dropped")

    def _set_state(self, state: ServerStateName, detail: str) -> None:
        """Post the server's state when it changes (a server down is tried again and again: its
        "unreachable" is said once, not at every attempt)."""
        if state == self.state and detail == self._detail:
            return
        log.info("table server %s: %s %s", self.address, state, detail)
        self.state, self._detail = state, detail
        self.context.emit(ServerState(self.address, state, detail))

    # -- sending -----------------------------------------------------------------------------
    def _publish(self, topic: str, payload: bytes, conversation: bytes | None = None, *, retain: bool = False,
                 expiry: int | None = None) -> asyncio.Future[None] | None:
        """Send (QoS 1) without waiting; the future ends when the server has it. None when not connected."""
        client = self._client
        if client is None:
            return None
        properties = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]  # paho's is untyped
        if conversation is not None:
            properties.CorrelationData = conversation
        if expiry is not None:
            properties.MessageExpiryInterval = expiry
        task = asyncio.ensure_future(client.publish(topic, payload, qos=1, retain=retain, properties=properties))
        self._track(task)
        return task

    def publish_retained(self, topic: str, payload: bytes, expiry: int | None) -> asyncio.Future[None] | None:
        """A retained message (empty: the one there removed), kept ``expiry`` seconds; None when not connected."""
        return self._publish(topic, payload, retain=True, expiry=expiry)

    def subscribe(self, topic: str) -> None:
        """Read ``topic`` from now on (its retained messages first); nothing when not connected (the
        daily results subscribe again on each connection)."""
        if self._client is not None:
            self._track(asyncio.ensure_future(self._client.subscribe(topic, qos=1)))

    def unsubscribe(self, topic: str) -> None:
        if self._client is not None:
            self._track(asyncio.ensure_future(self._client.unsubscribe(topic)))

    def _track(self, task: asyncio.Future[Any]) -> None:
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Future[Any]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.info("a message to the table server was not taken: %s", task.exception())

    def _publish_advert(self) -> None:
        ad = self._advert
        payload = b"" if ad is None else json.dumps(ad.txt(), ensure_ascii=False).encode()
        if self._publish(topics.advert(self.account.user), payload, retain=True,
                         expiry=None if ad is None else ADVERT_EXPIRY) is not None and ad is not None:
            self._refresh = asyncio.get_running_loop().call_later(ADVERT_REFRESH, self._publish_advert)

    # -- receiving ---------------------------------------------------------------------------
    def _route(self, message: aiomqtt.Message) -> None:
        """One message from the server, taken by what it is: nothing out of shape, this console's own
        status read back, a conversation's next message, else (within the sender's rate) by its kind."""
        where = topics.parse(message.topic.value, self.account.user)
        payload = message.payload
        if where is None or not isinstance(payload, bytes) or len(payload) > MAX_MESSAGE:
            log.info("ignored a message on %r from the table server", message.topic.value[:80])
            return
        if where.sender == self.account.user and where.kind != "daily":  # its own advert and status, read back
            self._own(where.kind, message)  # (its own daily result is on its board, as a friend's)
            return
        conversation = getattr(message.properties, "CorrelationData", None)
        under_way = self._conversations.get((where.sender, conversation)) if isinstance(conversation, bytes) else None
        if under_way is not None and where.kind in ("seats", "play"):
            under_way.deliver(payload)  # limited by the conversation, as a connection is (moves refunded)
        elif self._within_rate(where.sender):
            self._by_kind(where.sender, where.kind, payload, message, conversation)
        else:
            self._dropped(message.topic.value)

    def _dropped(self, topic: str) -> None:
        """A message under ``topic`` was dropped unread (a flood): a daily result is read again later."""
        where = topics.read(topic)
        if where is not None and where.kind == "daily":
            self.daily.missed(topic)

    def _own(self, kind: str, message: aiomqtt.Message) -> None:
        """This console's own retained status, read on coming back: another connection's since?"""
        if kind == "status" and message.retain and self._connections and not self._gave_way:
            self._replaced = self._replaced or _connection_of(message) != self._connection

    def _by_kind(self, sender: str, kind: str, payload: bytes, message: aiomqtt.Message, conversation: object) -> None:
        match kind:
            case "adverts":
                self._on_advert(sender, payload, getattr(message.properties, "MessageExpiryInterval", None))
            case "status":
                if payload in (b"here", b"gone"):
                    self._remember(sender, Presence(payload == b"here", _connection_of(message)))
            case "invites":
                self._on_invite(sender, payload)
            case "daily":
                self.daily.receive(sender, message.topic.value, payload)
            case "seats" | "play":
                if isinstance(conversation, bytes) and len(conversation) == 16 and conversation.isalnum():
                    self._on_conversation(sender, conversation, payload, seat=kind == "seats")
                else:
                    self.context.log_drop(f"{sender}@server", "protocol", "a message of no conversation")

    def _within_rate(self, sender: str) -> bool:
        bucket = self._senders.pop(sender, None)
        if bucket is None:
            if len(self._senders) >= MAX_SENDERS:
                self._senders.pop(next(iter(self._senders)))
            bucket = RateBucket(self.context.limits, f"{sender}@server")
        self._senders[sender] = bucket  # most recent last
        try:
            bucket.spend()
        except PeerFault as fault:
            self.context.log_drop(bucket.peer, fault.reason, str(fault))
            return False
        return True

    def _on_advert(self, sender: str, payload: bytes, expiry: object) -> None:
        """An advert, or its withdrawal (empty). One that would stay on the server for ever, or for longer
        than a console's (:data:`ADVERT_EXPIRY`), is no console's: a console's goes by itself when the
        console does, so an advert that does not is ignored (and said once in the log)."""
        if not payload:
            self._forget_advert(sender)
            return
        if type(expiry) is not int or not 1 <= expiry <= ADVERT_EXPIRY:
            if sender not in self._told_expiry and len(self._told_expiry) < MAX_SENDERS:
                self._told_expiry.add(sender)
                log.info("ignored the advert of %s on the table server: its expiry %r is not 1 to %d s",
                         sender, expiry, ADVERT_EXPIRY)
            self._forget_advert(sender)
            return
        try:
            ad = TableAd.from_server(sender, json.loads(payload))
        except (ValueError, ProtocolError) as error:
            self.context.log_drop(f"{sender}@server", "advert", str(error)[:200])
            return
        if sender not in self._adverts and len(self._adverts) >= MAX_ADVERTS:
            return
        self._adverts[sender] = ad
        if self.browsing:
            self.context.emit(TableSeen(ad))

    def _forget_advert(self, sender: str) -> None:
        if self._adverts.pop(sender, None) is not None and self.browsing:
            self.context.emit(TableGone(f"server:{sender}"))

    def _remember(self, sender: str, presence: Presence) -> None:
        """``sender``'s status. A "gone" naming another connection than the "here" seen last is the will
        of an earlier connection of that account, published late (the server notices a dead
        connection only after its keep-alive): the console is still here, on its newer connection.
        Taken as gone, it dropped the live console's seat and advert (seen in a test: an invite
        joined and refused "not on the table server", the advert coming a moment later)."""
        known = self._present.get(sender)
        if (not presence.here and known is not None and known.here and None not in (known.connection, presence.connection)
                and known.connection != presence.connection):
            log.info("ignored the last will of an earlier connection of %s on the table server", sender)
            return
        self._present.pop(sender, None)
        if len(self._present) >= MAX_SENDERS:
            self._present.pop(next(iter(self._present)))
        self._present[sender] = presence
        if not presence.here:
            self._gone(sender)

    def _gone(self, sender: str) -> None:
        """``sender``'s console left the server or stopped answering (its last will)."""
        self._forget_advert(sender)
        for (account, _), wire in list(self._conversations.items()):
            if account == sender:
                wire.lost("its console is not answering the table server")

    def _on_invite(self, sender: str, payload: bytes) -> None:
        try:
            invite = decode(payload)
        except NetError as error:
            self.context.log_drop(f"{sender}@server", "protocol", str(error)[:200])
            return
        if isinstance(invite, Invite):
            known = self._present.get(sender)
            if known is not None and not known.here:
                # An invite under the sender's own topic (the ACL binds it) says it is here now: its
                # "gone" read before was a late will of an earlier connection, met with no "here" to tell
                # it by (this console subscribed after it). Taken as gone, the invite's join was refused
                # "not on the table server", the sender's new advert coming a moment later.
                self._present[sender] = Presence(True, None)
            self.context.emit(InviteReceived(invite.host, sender, 0, invite.match, "server"))

    def _on_conversation(self, sender: str, conversation: bytes, payload: bytes, seat: bool) -> None:
        """A message of no conversation under way: a seat asked for starts one, anything else is stale."""
        accept = self.accept_seats
        if not seat or accept is None or len(self._conversations) >= MAX_CONVERSATIONS:
            self.context.log_drop(f"{sender}@server", "closed", "a message of no conversation under way")
            return
        wire = self._open(sender, conversation, topics.play(self.account.user, sender))
        accept(wire)
        wire.deliver(payload)

    def _open(self, account: str, conversation: bytes, first_topic: str) -> ServerWire:
        me = self.account.user
        wire = ServerWire(account, conversation, self.context.limits, self._publish, first_topic,
                          topics.play(me, account), self._closed)
        self._conversations[(account, conversation)] = wire
        return wire

    def _closed(self, wire: ServerWire) -> None:
        self._conversations.pop((wire.account, wire.conversation), None)

    def _lose_all(self, why: str) -> None:
        for wire in list(self._conversations.values()):
            wire.lost(why)


def _refusal_alert(error: BaseException) -> str | None:
    """The TLS alert refusing the client certificate behind ``error``, if that is what it is: aiomqtt
    re-raises the handshake's ``ssl.SSLError`` as an ``MqttError`` with its text only, the original
    kept as the context."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ssl.SSLError) and seen.reason in REFUSED_ALERTS:
            return str(seen.reason)
        seen = seen.__cause__ or seen.__context__
    return None


def _connection_of(message: aiomqtt.Message) -> str | None:
    """The connection a "here" names (:data:`CONNECTION_PROPERTY`), if it names one."""
    pairs = getattr(message.properties, "UserProperty", None) or []
    return next((value for name, value in pairs if name == CONNECTION_PROPERTY), None)


def _disconnect_code(error: BaseException) -> int | None:
    """The server's reason for a dropped connection behind ``error``: aiomqtt ends the messages'
    iteration with an ``MqttError`` whose cause is the ``MqttCodeError`` of the DISCONNECT."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, aiomqtt.MqttCodeError):
            return _code(seen.rc)
        seen = seen.__cause__ or seen.__context__
    return None


def _code(rc: object) -> int | None:
    """A reason code as a number (paho gives an int or a ReasonCode)."""
    value = getattr(rc, "value", rc)
    return value if isinstance(value, int) else None
