"""The host side: a listener that seats one opponent at this console's table and takes invites.

Every accepted connection is first checked (:func:`~pyramid.net.addresses.is_allowed_peer`),
then counted among at most ``max_pending`` connections not yet seated (more are
closed on arrival, so 200 connections at once cost 200 accept calls and
nothing more), then must say hello and ask for the seat (or deliver an invite)
within ``hello_deadline``. Anything wrong drops that connection only, logged
once per address; the table stays open. One address may hold at most
``max_pending_per_address`` of those slots, so a single hostile machine cannot
keep a real opponent from reaching the table. The seat belongs to the guest holding
its token: after a drop it is kept for ``seat_hold`` seconds for that token only.
The listener also runs with no table open (the network menu), where it only
takes invites and refuses seats with ``no_table``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pyramid.net.addresses import is_allowed_peer
from pyramid.net.connection import PeerFault, Wire
from pyramid.net.context import NetContext, log
from pyramid.net.events import InviteReceived, Listening, ListenFailed, OpponentJoined, OpponentLeft, PeerConnection
from pyramid.net.link import MatchLink, new_token
from pyramid.net.protocol import (
    MAX_MESSAGE, PROTOCOL_VERSION, Accept, Hello, Invite, Join, Leave, Refuse, TableInfo,
)

#: Connections the kernel queues before the listener accepts them.
BACKLOG = 64
#: Seconds a connection's task is given to end once its wire is closed (it ends at the next turn of the loop).
CLOSED_WIRE_GRACE = 1.0


class TableHost:
    """The listener and, while a table is open, its one seat."""

    def __init__(self, context: NetContext, on_change: Callable[[], None]) -> None:
        self.context = context
        self.link: MatchLink | None = None
        self._on_change = on_change  # called when seats free changes (discovery re-announces)
        self._server: asyncio.Server | None = None
        self._pending = 0
        self._pending_by_peer: dict[str, int] = {}
        self._hold: asyncio.TimerHandle | None = None
        self._connections: set[Wire] = set()
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
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        wire = Wire(reader, writer, self.context.limits)
        if not is_allowed_peer(wire.peer):
            self.context.log_drop(wire.peer, "address", "not a loopback, link-local or private address")
            wire.close()
            return
        limits = self.context.limits
        from_peer = self._pending_by_peer.get(wire.peer, 0)
        if self._pending >= limits.max_pending or from_peer >= limits.max_pending_per_address:
            self.context.log_drop(wire.peer, "busy", "no pending slot free for it")
            wire.close()
            return
        self._pending += 1
        self._pending_by_peer[wire.peer] = from_peer + 1
        self._connections.add(wire)
        try:
            seated = await self._greet(wire)
        except PeerFault as fault:
            if fault.reason != "closed":
                self.context.log_drop(wire.peer, fault.reason, str(fault))
            seated = None
        finally:
            self._pending -= 1
            left = self._pending_by_peer.pop(wire.peer) - 1
            if left:
                self._pending_by_peer[wire.peer] = left
        try:
            if seated is not None:
                await self._seat(seated, wire)
        finally:
            self._connections.discard(wire)
            wire.close()

    async def _greet(self, wire: Wire) -> tuple[MatchLink, str, bool] | None:
        """Hello, then a join (the link, the guest's name, resumed) or an invite (None)."""
        deadline = self.context.limits.hello_deadline
        hello = await wire.receive(deadline)
        if not isinstance(hello, Hello):
            raise PeerFault("protocol", f"{wire.peer} did not start with a hello")
        wire.send(Hello(PROTOCOL_VERSION, self.context.name))
        if hello.v != PROTOCOL_VERSION:
            wire.send(Refuse("version"))
            return None
        link = self.link
        if link is not None:
            wire.send(TableInfo(self.context.name, link.match_number, link.level, self.seats_free))
        request = await wire.receive(deadline)
        if isinstance(request, Invite):
            self.context.emit(InviteReceived(hello.name, wire.peer, request.port, request.match))
            return None
        if not isinstance(request, Join):
            raise PeerFault("protocol", f"{wire.peer} sent {type(request).__name__} instead of a join or an invite")
        if link is None or link.ended is not None:
            wire.send(Refuse("no_table" if link is None else "closed"))
            return None
        if link.token is None and request.token == "":
            token, resumed = new_token(), False
        elif link.token is not None and request.token == link.token:
            token, resumed = link.token, True
        else:
            wire.send(Refuse("full" if request.token == "" else "bad_token"))
            return None
        wire.send(Accept(token, link.match_number, link.level))  # PeerFault if it is gone: the seat stays free
        link.token, link.opponent_name = token, hello.name
        return link, hello.name, resumed

    async def _seat(self, seated: tuple[MatchLink, str, bool], wire: Wire) -> None:
        """Carry the match with the guest just accepted.

        The guest counts as seated (:class:`OpponentJoined`, the seat kept
        after a drop) only once it speaks after the accept, as a console does at
        once (its resend). A connection that says hello, asks for the seat and
        goes, whether a player who gave up joining or a hostile peer, leaves the
        seat free instead of holding it for ``seat_hold``.
        """
        link, name, resumed = seated
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

        fault = await link.serve(wire, joined)
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
            link.ended = "timeout"
            self.context.emit(OpponentLeft("timeout"))
            self._on_change()
