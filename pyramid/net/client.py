"""The guest side: join a table by address, keep the seat across drops, and send invites.

A guest connects, says hello, asks for the seat (with its token when it comes
back) and then carries the match over that connection. When the connection
drops it keeps trying, with growing pauses (``retry_first`` doubling up to
``retry_longest``), for as long as the host keeps the seat (``seat_hold``);
after that the opponent counts as gone. A refusal on the first join is a
:class:`~pyramid.net.events.JoinFailed`; a refusal when coming back means the
host no longer has the seat (:class:`~pyramid.net.events.OpponentLeft`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Literal

from pyramid.net.addresses import OutsideHomeNetwork
from pyramid.net.views import Via
from pyramid.net.channel import Channel
from pyramid.net.errors import PeerFault
from pyramid.net.connection import open_wire
from pyramid.net.context import NetContext, log
from pyramid.net.events import InviteSent, JoinFailed, OpponentLeft, PeerConnection, Seated
from pyramid.net.link import MatchLink
from pyramid.net.protocol import PROTOCOL_VERSION, Accept, Hello, Invite, Join, Leave, Refuse, TableInfo

#: Opens one attempt's channel to the table (``OSError``/``TimeoutError`` when it cannot).
Connect = Callable[[], Awaitable[Channel]]


class GuestJoin:
    """One join, from the player's choice until the seat is left: what :func:`run_guest` and the
    player's leaving (:meth:`give_up`, on the network thread) share.

    Why more than cancelling the task: the player may give up at any moment
    of the join, and the host must not be left holding a seat for nobody.
    Until seated (connecting, waiting for the host's answer, waiting to
    retry) the attempt is cancelled and its connection closed; a host that
    accepted meanwhile sees a seat never spoken from, which it frees (see
    :meth:`~pyramid.net.table.TableHost._seat`). Once seated, the seat is
    left with a ``leave``, even if the console had not yet seen it.
    """

    def __init__(self, link: MatchLink | None, level: str) -> None:
        self.link = link  # the seat: a saved one from the start, else once the host accepts
        self.level = level  # the player's own skill level, stated when asking for a new seat
        self.task: asyncio.Task[None] | None = None  # run_guest's, once it runs
        self.given_up = False

    def wanted(self) -> bool:
        """Whether the player still wants the seat (given up before the task ran: it ends at once)."""
        return not self.given_up

    def give_up(self) -> None:
        """The player left (called on the network thread)."""
        self.given_up = True
        link = self.link
        if link is not None:
            link.end("left", Leave("left"))  # told at once if connected; its serve then lingers and returns
        if self.task is not None and (link is None or not link.connected):
            self.task.cancel()  # not seated on a connection: nobody to tell


async def run_guest(
    context: NetContext, host: str, port: int, joining: GuestJoin, adopt: Callable[[MatchLink], None],
    via: Via = "lan", connect: Connect | None = None,
) -> None:
    """Sit at ``host``:``port`` and carry the match until it ends there or the player gives up.

    ``joining.link`` is a saved seat to come back to, or None to ask for a new
    one; a new seat's link is made from the host's accept and handed to
    ``adopt`` before the :class:`Seated` event is posted. ``connect`` opens
    each attempt's channel (through the table server: ``host`` is the host's
    account, ``port`` 0); by default a TCP connection on the home network.
    """
    await _Guest(context, host, port, joining, adopt, via, connect).run()


#: How one attempt at the seat ended: the join is over, ask again at once, or wait and ask again.
Attempt = Literal["done", "again", "wait"]


class _Guest:
    """:func:`run_guest`'s attempts, each one a step (issue 48: one function of complexity 27): connect,
    ask for the seat, then carry the match while the connection holds."""

    def __init__(self, context: NetContext, host: str, port: int, joining: GuestJoin,
                 adopt: Callable[[MatchLink], None], via: Via, connect: Connect | None) -> None:
        self.context, self.host, self.port, self.joining, self.adopt, self.via = context, host, port, joining, adopt, via
        self.connect = connect if connect is not None else lambda: open_wire(host, port, context.limits)
        self.loop = asyncio.get_running_loop()
        self.dropped_at = self.asked_at = self.loop.time()
        self.pause = context.limits.retry_first

    async def run(self) -> None:
        limits = self.context.limits
        while self.joining.wanted() and (self.joining.link is None or self.joining.link.ended is None):
            outcome = await self._attempt()
            if outcome == "done":
                return
            if outcome == "again":
                continue
            link = self.joining.link
            if link is not None and self.loop.time() - self.dropped_at >= limits.seat_hold:
                link.give_up("timeout")
                self.context.emit(OpponentLeft("timeout"))
                return
            await asyncio.sleep(self.pause)
            self.pause = min(self.pause * 2, limits.retry_longest)

    async def _attempt(self) -> Attempt:
        """One connection: a first join that cannot connect or is answered wrongly fails; a seat already
        held waits and asks again."""
        first = self.joining.link is None
        try:
            wire = await self.connect()
        except (OSError, TimeoutError) as error:
            if first:
                reason = "outside" if isinstance(error, OutsideHomeNetwork) else "unreachable"
                self.context.emit(JoinFailed(reason, f"{self.host}:{self.port}: {error or 'timed out'}"))
            return "done" if first else "wait"
        try:
            name, answer = await _ask_for_seat(self.context, wire, self.joining.link, self.joining.level)
        except PeerFault as refusal:
            if first:
                self.context.emit(JoinFailed("protocol" if refusal.reason != "closed" else "unreachable", str(refusal)))
            return "done" if first else "wait"
        if isinstance(answer, Refuse):
            return await self._refused(wire, answer)
        return await self._seated(wire, name, answer)

    async def _refused(self, wire: Channel, answer: Refuse) -> Attempt:
        """The host said no: busy (ask again shortly while patient; a seat held asks as after a drop), or
        for good (a first join fails; a seat held is gone)."""
        wire.close()
        link, limits = self.joining.link, self.context.limits
        busy = answer.reason == "busy"
        if busy and link is None and self.loop.time() - self.asked_at < limits.busy_patience:
            # More connections at once than the host serves: ask again shortly, and often (the slots turn over fast).
            log.info("%s:%s is busy; asking again", self.host, self.port)
            await asyncio.sleep(limits.retry_first)
            return "again"
        if busy and link is not None:
            return "wait"  # the seat is still ours: try again as after a drop
        if link is not None:
            link.give_up("closed")
            self.context.emit(OpponentLeft("closed"))
        else:
            self.context.emit(JoinFailed(answer.reason, f"{self.host}:{self.port} refused the seat ({answer.reason})"))
        return "done"

    async def _seated(self, wire: Channel, name: str, answer: Accept) -> Attempt:
        """Seated (a new seat's link made and adopted first): carry the match until it ends, or the
        connection drops and the seat is asked for again at once."""
        link = self.joining.link
        resumed = link is not None
        if link is None:
            link = self.joining.link = MatchLink("guest", answer.match, answer.level, address=(self.host, self.port),
                                                 via=self.via)
            self.adopt(link)
        if link.opponent_name is None:
            link.opponent_name = name  # a seat taken back keeps the host's name it was taken under
        link.token = answer.token
        self.context.emit(Seated(link.opponent_name, answer.match, answer.level, resumed))
        if resumed:
            self.context.emit(PeerConnection(True))
        self.pause = self.context.limits.retry_first
        fault = await link.serve(wire)
        if fault is None:
            return "done"
        log.info("the table's connection dropped (%s): %s", fault.reason, fault)
        self.context.emit(PeerConnection(False))
        self.dropped_at = self.loop.time()
        return "again"


async def _ask_for_seat(context: NetContext, wire: Channel, link: MatchLink | None,
                        level: str) -> tuple[str, Accept | Refuse]:
    """Hello and join; the host's name and its accept or refusal (PeerFault for anything else).

    The wire is closed when no answer comes: a fault, or the player giving up
    (the task cancelled), so no connection is left behind.
    """
    deadline = context.limits.hello_deadline
    try:
        wire.send(Hello(PROTOCOL_VERSION, context.name))
        wire.send(Join("" if link is None or link.token is None else link.token, level))
        name = ""
        while True:
            message = await wire.receive(deadline)
            if isinstance(message, Hello):
                name = message.name
            elif isinstance(message, (Accept, Refuse)):
                if not name:
                    raise PeerFault("protocol", f"{wire.peer} answered before its hello")
                if isinstance(message, Accept) and link is not None and message.match != link.match_number:
                    raise PeerFault("protocol",
                                    f"{wire.peer} seated us at match {message.match}, not {link.match_number}")
                return name, message
            elif not isinstance(message, TableInfo):
                raise PeerFault("protocol", f"{wire.peer} sent {type(message).__name__} before seating")
    except BaseException:
        wire.close()
        raise


async def send_invite(context: NetContext, address: str, port: int, table_port: int, match_number: int) -> None:
    """Deliver an invite to the console listening on ``address``:``port``; post :class:`InviteSent`."""
    try:
        wire = await open_wire(address, port, context.limits)
    except (OSError, TimeoutError) as error:
        context.emit(InviteSent(address, port, False, str(error) or "timed out"))
        return
    try:
        wire.send(Hello(PROTOCOL_VERSION, context.name))
        wire.send(Invite(context.name, table_port, match_number))
        answer = await wire.receive(context.limits.hello_deadline)
        if not isinstance(answer, Hello):
            raise PeerFault("protocol", f"{address} answered {type(answer).__name__}")
        try:  # the listener closes after its hello, or tells a busy refusal first
            after = await wire.receive(context.limits.hello_deadline)
        except PeerFault as fault:
            if fault.reason != "closed":
                raise
        else:
            raise PeerFault("busy" if after == Refuse("busy") else "protocol", f"{address} answered {after}")
        context.emit(InviteSent(address, port, True, ""))
    except PeerFault as fault:
        context.emit(InviteSent(address, port, False, str(fault)))
    finally:
        wire.close()
