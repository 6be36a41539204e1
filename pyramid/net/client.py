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

from pyramid.net.addresses import OutsideHomeNetwork
from pyramid.net.views import Via
from pyramid.net.channel import Channel, PeerFault
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
    limits = context.limits
    loop = asyncio.get_running_loop()
    dropped_at = asked_at = loop.time()
    pause = limits.retry_first
    link = joining.link
    while joining.wanted() and (link is None or link.ended is None):
        try:
            wire = await (connect() if connect is not None else open_wire(host, port, limits))
        except (OSError, TimeoutError) as error:
            if link is None:
                reason = "outside" if isinstance(error, OutsideHomeNetwork) else "unreachable"
                context.emit(JoinFailed(reason, f"{host}:{port}: {error or 'timed out'}"))
                return
        else:
            try:
                name, answer = await _ask_for_seat(context, wire, link, joining.level)
            except PeerFault as refusal:
                if link is None:
                    reason = "protocol" if refusal.reason != "closed" else "unreachable"
                    context.emit(JoinFailed(reason, str(refusal)))
                    return
            else:
                busy = isinstance(answer, Refuse) and answer.reason == "busy"
                if busy and link is None and loop.time() - asked_at < limits.busy_patience:
                    wire.close()  # more connections at once than the host serves: ask again shortly, and
                    log.info("%s:%s is busy; asking again", host, port)  # often (the slots turn over fast)
                    await asyncio.sleep(limits.retry_first)
                    continue
                if busy and link is not None:
                    wire.close()  # the seat is still ours: try again as after a drop
                elif isinstance(answer, Refuse):
                    wire.close()
                    if link is not None:
                        link.ended = "closed"
                        context.emit(OpponentLeft("closed"))
                    else:
                        context.emit(JoinFailed(answer.reason, f"{host}:{port} refused the seat ({answer.reason})"))
                    return
                else:
                    resumed = link is not None
                    if link is None:
                        link = joining.link = MatchLink("guest", answer.match, answer.level, address=(host, port),
                                                        via=via)
                        adopt(link)
                    if link.opponent_name is None:
                        link.opponent_name = name  # a seat taken back keeps the host's name it was taken under
                    link.token = answer.token
                    context.emit(Seated(link.opponent_name, answer.match, answer.level, resumed))
                    if resumed:
                        context.emit(PeerConnection(True))
                    pause = limits.retry_first
                    fault = await link.serve(wire)
                    if fault is None:
                        return
                    log.info("the table's connection dropped (%s): %s", fault.reason, fault)
                    context.emit(PeerConnection(False))
                    dropped_at = loop.time()
                    continue
        if loop.time() - dropped_at >= limits.seat_hold:
            link.ended = "timeout"
            context.emit(OpponentLeft("timeout"))
            return
        await asyncio.sleep(pause)
        pause = min(pause * 2, limits.retry_longest)


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
