"""The host side: a listener that seats one opponent at this console's table and takes invites.

Every accepted connection is first checked (:func:`~pyramid.net.addresses.is_allowed_peer`),
then admitted among at most ``max_pending`` connections not yet seated, then
must say hello and ask for the seat (or deliver an invite) within
``hello_deadline`` in all. Anything wrong drops that connection only, logged
once per address; the table stays open.

Admission is fair rather than first come (issue 26: four idle connections from
each of two addresses, reopened as they closed, kept every real console out).
One address may hold at most ``max_pending_per_address`` slots; one more from
it is turned away. When every slot is taken, the newcomer is let in and the
oldest connection of the address holding the most slots gives way, unless one
of the newcomer's address was turned away in the last second (then it is turned
away itself: see :data:`EVICTION_PAUSE`). Whoever is
turned away is told ``busy`` (hello, refuse) and read on until it closes, so
the refusal is not lost to a reset; a console told ``busy`` tries again for a
few seconds (``busy_patience``). A real console speaks at once and is served
in a round trip, so strangers holding slots only ever push each other out.
While it turns connections away the host says so (:class:`Crowded`).

The seat belongs to the guest holding its token: after a drop it is kept for
``seat_hold`` seconds for that token only, and under the name it was taken with.
The listener also runs with no table open (the network menu), where it only
takes invites and refuses seats with ``no_table``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from pyramid.engine.duel.levels import LEVELS
from pyramid.net.addresses import is_allowed_peer
from pyramid.net.channel import Channel
from pyramid.net.errors import PeerFault
from pyramid.net.connection import Wire
from pyramid.net.context import NetContext, log
from pyramid.net.events import (
    Crowded, InviteReceived, Listening, ListenFailed, OpponentJoined, OpponentLeft, PeerConnection,
)
from pyramid.net.link import MatchLink, new_token
from pyramid.net.protocol import (
    MAX_MESSAGE, PROTOCOL_VERSION, Accept, Hello, Invite, Join, Leave, Refuse, TableInfo,
)

#: Connections the kernel queues before the listener accepts them.
BACKLOG = 64
#: Seconds a connection's task is given to end once its wire is closed (it ends at the next turn of the loop).
CLOSED_WIRE_GRACE = 1.0
#: Seconds without turning a connection away before the host no longer says it is crowded.
CROWDED_QUIET = 10.0
#: Seconds after one of its connections was turned away during which an address may push nobody
#: out: strangers reconnecting as fast as they can would otherwise push each other out thousands
#: of times a second, and a real console with them before it is served (1 run in 5 of the
#: admission test under a loaded CI). Now each address pushes out at most one a second.
EVICTION_PAUSE = 1.0


@dataclass(frozen=True, slots=True)
class Seat:
    """The seat given to a join: the table's match, the seat's token, and whether the same guest came back to it."""

    link: MatchLink
    token: str
    resumed: bool


@dataclass(frozen=True, slots=True)
class Seating:
    """A guest accepted at the table: the match, the name it sits under, whether it came back."""

    link: MatchLink
    name: str
    resumed: bool


def seat_for(link: MatchLink | None, request: Join) -> Seat | Refuse:
    """The answer to a join at this table: a new seat (a free seat, the guest's level within the
    table's), the same seat back (its token), or the refusal that says why not."""
    if link is None or link.ended is not None:
        return Refuse("no_table" if link is None else "closed")
    if link.token is None and request.token == "":
        if LEVELS.index(request.level) > LEVELS.index(link.level):
            return Refuse("level")  # the table's level is the highest its host accepts
        return Seat(link, new_token(), False)
    if link.token is not None and request.token == link.token:
        return Seat(link, link.token, True)
    return Refuse("full" if request.token == "" else "bad_token")


class TableHost:
    """The listener and, while a table is open, its one seat."""

    def __init__(self, context: NetContext, on_change: Callable[[], None]) -> None:
        self.context = context
        self.link: MatchLink | None = None
        self._on_change = on_change  # called when seats free changes (discovery re-announces)
        self._server: asyncio.Server | None = None
        #: Connections not yet seated, oldest first (a dict keeps the order they came in).
        self._pending: dict[Channel, None] = {}
        #: Connections told ``busy``: read on until they close (see the module note).
        self._turned_away: set[Channel] = set()
        self._turned_from: dict[str, float] = {}  # address → when a connection of it was last turned away
        self._crowded: asyncio.TimerHandle | None = None
        self._hold: asyncio.TimerHandle | None = None
        self._connections: set[Channel] = set()
        self._serving: set[asyncio.Task[None]] = set()  # one task a connection, until it has ended
        self.port = 0
        self.address = ""
        self.loopback_only = False

    @property
    def listening(self) -> bool:
        return self._server is not None

    @property
    def seats_free(self) -> int:
        link = self.link
        return 1 if link is not None and link.ended is None and link.token is None else 0

    async def listen(self, host: str, port: int) -> bool:
        """Start listening on ``host``:``port`` (``""``: every IPv4 interface); post Listening or ListenFailed."""
        if self._server is not None:
            return True
        try:
            self._server = await asyncio.start_server(
                self._serve, host or "0.0.0.0", port, limit=MAX_MESSAGE, backlog=BACKLOG, reuse_address=True,
            )
        except OSError as error:
            self.context.emit(ListenFailed(host, port, str(error)))
            return False
        self.port = int(self._server.sockets[0].getsockname()[1])
        self.address = host
        self.loopback_only = host.startswith("127.") or host in ("::1", "localhost")
        self.context.emit(Listening(host, self.port))
        return True

    def open(self, link: MatchLink) -> None:
        """Open a table for ``link``: a saved link with a token keeps its seat for that guest a while."""
        self.close_table()
        self.link = link
        if link.token is not None:
            self._hold_seat()
        self._on_change()

    def close_table(self) -> None:
        """Close the table (the opponent is told), keep listening for invites."""
        link, self.link = self.link, None
        self._cancel_hold()
        if link is not None and link.ended is None:
            link.end("left", Leave("closed"))
        if link is not None:
            self._on_change()

    async def stop(self) -> None:
        """Stop listening and close every connection; the seated guest is told first.

        The guest's connection is given ``farewell_linger`` to read the leave
        (see :meth:`~pyramid.net.connection.Wire.finish`); the others close at
        once. It returns when every connection's task has ended, so none is left
        to be cancelled half-way by the network thread's stop.
        """
        server, self._server = self._server, None
        link = self.link
        self.close_table()
        if self._crowded is not None:
            self._crowded.cancel()
            self._crowded = None
        if server is None:
            return
        server.close()
        seated = link.wire if link is not None else None
        for wire in list(self._connections):
            if wire is not seated:
                wire.close()
        serving = set(self._serving)
        if serving:
            await asyncio.wait(serving, timeout=self.context.limits.farewell_linger)
        for wire in list(self._connections):
            wire.close()
        serving = set(self._serving)
        if serving:
            await asyncio.wait(serving, timeout=CLOSED_WIRE_GRACE)
        await server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        wire = Wire(reader, writer, self.context.limits)
        if not is_allowed_peer(wire.peer):
            self.context.log_drop(wire.peer, "address", "not a loopback, link-local or private address")
            wire.close()
            return
        await self._carry(wire)

    def serve_channel(self, channel: Channel) -> None:
        """Serve a conversation that came another way (a seat asked for through the table server)
        exactly as a connection: admitted, greeted, seated."""
        if self._server is None:
            channel.close()
            return
        asyncio.ensure_future(self._carry(channel))

    async def _carry(self, wire: Channel) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        self._connections.add(wire)
        try:
            if not self._admit(wire):
                await wire.linger(self.context.limits.hello_deadline)
                return
            try:
                seated = await self._greet(wire)
            except PeerFault as fault:
                if fault.reason != "closed" and wire not in self._turned_away:
                    self.context.log_drop(wire.peer, fault.reason, str(fault))
                seated = None
            finally:
                self._pending.pop(wire, None)
            if wire in self._turned_away:
                await wire.linger(self.context.limits.hello_deadline)
            elif seated is not None:
                await self._seat(seated, wire)
        finally:
            self._turned_away.discard(wire)
            self._connections.discard(wire)
            wire.close()

    def _admit(self, wire: Channel) -> bool:
        """Take ``wire`` among the connections not yet seated, or turn it away (see the module note)."""
        limits = self.context.limits
        if sum(1 for other in self._pending if other.peer == wire.peer) >= limits.max_pending_per_address:
            self._turn_away(wire, "its address holds every slot it may")
            return False
        if len(self._pending) >= limits.max_pending:
            now = asyncio.get_running_loop().time()
            if now - self._turned_from.get(wire.peer, -EVICTION_PAUSE) < EVICTION_PAUSE:
                self._turn_away(wire, "its address was turned away a moment ago: it may push nobody out yet")
                return False
            counts = Counter(other.peer for other in self._pending)
            busiest = max(counts.values())
            oldest = next(other for other in self._pending if counts[other.peer] == busiest)
            del self._pending[oldest]
            self._turn_away(oldest, "it gave way to a newer connection")
        self._pending[wire] = None
        return True

    def _turn_away(self, wire: Channel, why: str) -> None:
        """Tell ``wire`` the host is ``busy`` and say nothing more; its task reads on until it closes."""
        self._turned_away.add(wire)
        now = asyncio.get_running_loop().time()
        if len(self._turned_from) >= 256:  # bounded: forget the addresses whose pause is over
            self._turned_from = {peer: at for peer, at in self._turned_from.items() if now - at < EVICTION_PAUSE}
        self._turned_from[wire.peer] = now
        self.context.log_drop(wire.peer, "busy", f"turned away: {why}")
        try:
            wire.send(Hello(PROTOCOL_VERSION, self.context.name))
            wire.send(Refuse("busy"))
        except PeerFault:
            pass  # it does not read: the linger ends it
        wire.finish()
        if self._crowded is None:
            self.context.emit(Crowded(True))
        else:
            self._crowded.cancel()
        self._crowded = asyncio.get_running_loop().call_later(CROWDED_QUIET, self._quiet_again)

    def _quiet_again(self) -> None:
        self._crowded = None
        self.context.emit(Crowded(False))

    async def _greet(self, wire: Channel) -> Seating | None:
        """Hello, then a join (the seat taken, or refused: None) or an invite (None)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.context.limits.hello_deadline  # for the hello and the join together
        hello = await wire.receive(until - loop.time())
        if not isinstance(hello, Hello):
            raise PeerFault("protocol", f"{wire.peer} did not start with a hello")
        wire.send(Hello(PROTOCOL_VERSION, self.context.name))
        if hello.v != PROTOCOL_VERSION:
            wire.send(Refuse("version"))
            return None
        link = self.link
        if link is not None:
            wire.send(TableInfo(self.context.name, link.match_number, link.level, self.seats_free))
        request = await wire.receive(max(0.0, until - loop.time()))
        if wire in self._turned_away:
            raise PeerFault("busy", f"{wire.peer} was turned away")
        if isinstance(request, Invite):
            self.context.emit(InviteReceived(hello.name, wire.peer, request.port, request.match))
            return None
        if not isinstance(request, Join):
            raise PeerFault("protocol", f"{wire.peer} sent {type(request).__name__} instead of a join or an invite")
        answer = seat_for(link, request)
        if isinstance(answer, Refuse):
            wire.send(answer)
            return None
        link = answer.link
        wire.send(Accept(answer.token, link.match_number, link.level))  # PeerFault if it is gone: the seat stays free
        link.via = wire.via
        if answer.resumed and link.opponent_name is not None:
            if hello.name != link.opponent_name:  # the seat was taken under a name: it keeps it
                log.info("%s came back to the seat of %r as %r; kept as %r", wire.peer, link.opponent_name,
                         hello.name[:40], link.opponent_name)
            return Seating(link, link.opponent_name, True)
        link.token, link.opponent_name = answer.token, hello.name
        return Seating(link, hello.name, answer.resumed)

    async def _seat(self, seated: Seating, wire: Channel) -> None:
        """Carry the match with the guest just accepted.

        The guest counts as seated (:class:`OpponentJoined`, the seat kept
        after a drop) only once it speaks after the accept, as a console does at
        once (its resend). A connection that says hello, asks for the seat and
        goes, whether a player who gave up joining or a hostile peer, leaves the
        seat free instead of holding it for ``seat_hold``.
        """
        link, name, resumed = seated.link, seated.name, seated.resumed
        self._cancel_hold()
        spoke = False

        def joined() -> None:
            nonlocal spoke
            spoke = True
            if not resumed:
                self._on_change()
            self.context.emit(OpponentJoined(name, resumed))
            if resumed:
                self.context.emit(PeerConnection(True))

        fault = await link.serve(wire, joined, first_word_within=self.context.limits.hello_deadline)
        if fault is None or link is not self.link or link.wire is not None:
            return  # the match ended, the table changed, or the guest is already back on a newer connection
        if not spoke and not resumed:
            link.token = link.opponent_name = None
            self.context.log_drop(wire.peer, fault.reason, f"{fault}, before a word after the accept: the seat is free")
            return
        log.info("the opponent's connection dropped (%s): %s", fault.reason, fault)
        if spoke:
            self.context.emit(PeerConnection(False))
        self._hold_seat()

    def _hold_seat(self) -> None:
        self._cancel_hold()
        self._hold = asyncio.get_running_loop().call_later(self.context.limits.seat_hold, self._release)

    def _cancel_hold(self) -> None:
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None

    def _release(self) -> None:
        """The guest stayed away longer than the seat is kept: the match is recorded as left."""
        self._hold = None
        link = self.link
        if link is not None and link.ended is None and not link.connected:
            link.give_up("timeout")
            self.context.emit(OpponentLeft("timeout"))
            self._on_change()
