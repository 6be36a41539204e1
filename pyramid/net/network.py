"""The console's one entry point to the network: a background asyncio thread and a few calls.

Why one thread: the console's main loop must never wait on a socket (SPEC: the
game goes on when the network drops). Everything network runs on one asyncio
loop in a daemon thread, which blocks in ``epoll`` when idle; the main loop
calls the methods below, which only schedule work on that loop and return at
once, and receives :mod:`~pyramid.net.events` through ``post`` (e.g. the
``put`` of the queue it already waits on). The thread starts on the first call
that needs it, so a console that never opens the network menu starts none.
"""

from __future__ import annotations

import asyncio
import datetime
import threading
from collections.abc import Callable, Collection, Coroutine
from concurrent.futures import Future
from functools import partial
from typing import Any, TypeVar

from pyramid.net.advert import TableAd
from pyramid.net.views import Via
from pyramid.net.client import GuestJoin, run_guest, send_invite
from pyramid.net.context import NetContext, log
from pyramid.net.discovery import Discovery, DiscoveryChoice
from pyramid.net.limits import DEFAULT_PORT, Limits
from pyramid.net.events import DiscoveryFailed, InviteSent, JoinFailed, ListenFailed, NetEvent, Post
from pyramid.net.link import MatchLink
from pyramid.net.match_state import TableStateError
from pyramid.net.protocol import PROTOCOL_VERSION, check_name
from pyramid.net.daily_result import DailyResult
from pyramid.net.server.account import ServerAccount
from pyramid.net.server.daily import DailyBoard
from pyramid.net.server.session import TableServerSession
from pyramid.net.table import TableHost
from pyramid.saved.stats import PyramidVariant
from pyramid.net.views import TableAt, TableView

T = TypeVar("T")
#: What a network task's unforeseen failure becomes, given its text: the event the screen waits for.
Failed = Callable[[str], NetEvent]


class Network:
    """Tables, joins, invites and discovery for one console and its player ``name``."""

    def __init__(self, name: str, post: Post, limits: Limits | None = None, discovery: DiscoveryChoice = "auto",
                 server: ServerAccount | None = None) -> None:
        self.context = NetContext(check_name(name), post, limits or Limits())
        self.discovery_choice: DiscoveryChoice = discovery
        #: The table server (tables beyond the home), or None: then nothing beyond the home is contacted.
        self.server = server
        self._session: TableServerSession | None = None
        self.link: MatchLink | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._host: TableHost | None = None
        self._discovery: Discovery | None = None
        self._announced = False
        self._joining: GuestJoin | None = None  # the main loop's current join, until it leaves
        self._guest: asyncio.Task[None] | None = None  # the network thread's running join, for its stop
        self._announcing: asyncio.Future[None] | None = None

    # -- the thread ---------------------------------------------------------------
    def _start(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            self._thread = threading.Thread(target=run, name="pyramid-net", daemon=True)
            self._thread.start()
            ready.wait()
            self._loop = loop
            if self.server is not None:
                loop.call_soon_threadsafe(self._table_server)
        return self._loop

    def _submit(self, coroutine: Coroutine[Any, Any, T], failed: Failed | None = None) -> Future[T]:
        """Run ``coroutine`` on the network thread. Should it fail in a way its own code did not
        foresee, the failure is logged and ``failed`` turns it into the event the screen waiting on
        it answers (a join or a listen that failed): never silence."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self._start())
        future.add_done_callback(partial(self._failure, failed))
        return future

    def _failure(self, failed: Failed | None, future: Future[Any]) -> None:
        error = None if future.cancelled() else future.exception()
        if error is None:
            return
        log.error("network task failed", exc_info=error)
        if failed is not None:
            self.context.emit(failed(f"{type(error).__name__}: {error}"))

    def _schedule(self, action: Callable[[], None]) -> None:
        self._start().call_soon_threadsafe(action)

    def _adopt(self, link: MatchLink) -> None:
        link.bind(self.context, self._schedule)
        self.link = link

    # -- tables ---------------------------------------------------------------------
    def listen(self, address: str = "", port: int = DEFAULT_PORT) -> None:
        """Accept invites on ``address``:``port`` (the network menu); posts Listening or ListenFailed."""
        self._submit(self._listen(address, port), partial(ListenFailed, address, port))

    def open_table(
        self, match_number: int, level: str, address: str = "", port: int = DEFAULT_PORT, resume: MatchLink | None = None
    ) -> MatchLink:
        """Open a table for match ``match_number`` and announce it; the link is usable at once.

        ``resume`` is a saved host link (:meth:`MatchLink.from_json`): its seat is
        kept for the same guest for ``seat_hold`` seconds.
        """
        if resume is not None and (resume.role != "host" or resume.match_number != match_number):
            raise TableStateError(f"the saved table is not this console's table for match {match_number}")
        self._leave_current()
        # Offered through the table server when one is set (until a guest sits, and says how it came).
        link = resume or MatchLink("host", match_number, level, via="server" if self.server is not None else "lan")
        self._adopt(link)
        self._submit(self._open(link, address, port), partial(ListenFailed, address, port))
        return link

    def join(self, host: str, port: int, resume: MatchLink | None = None, level: str = "casual") -> None:
        """Ask for the seat at ``host``:``port`` (or come back to a saved one); posts Seated or JoinFailed.

        ``level`` is the player's own skill level: a table whose maximum is lower refuses a new seat.

        After :class:`~pyramid.net.events.Seated`, :attr:`link` is the match's link.
        """
        self._ask_for_seat(host, port, resume, level, "lan")

    def join_server(self, account: str, resume: MatchLink | None = None, level: str = "casual") -> None:
        """Ask for the seat at the table of ``account`` on the table server; as :meth:`join`."""
        if self.server is None:
            raise TableStateError("no table server is set")
        self._ask_for_seat(account, 0, resume, level, "server")

    def _ask_for_seat(self, host: str, port: int, resume: MatchLink | None, level: str, via: Via) -> None:
        if resume is not None and resume.role != "guest":
            raise TableStateError("the saved table is not a seat at another console's table")
        self._leave_current()
        if resume is not None:
            self._adopt(resume)
        self._joining = joining = GuestJoin(resume, level if resume is None else resume.level)
        self._submit(self._join(host, port, joining, via), partial(JoinFailed, "unreachable"))

    def resume(self, saved: object) -> MatchLink:
        """Come back to the table saved with :meth:`MatchLink.to_json` (after a power cut)."""
        link = MatchLink.from_json(saved)
        if link.role == "host":
            return self.open_table(link.match_number, link.level, resume=link)
        if link.address is None:
            raise TableStateError("the saved seat has no table address")
        self.sit(TableAt(*link.address, link.via), resume=link)
        return link

    def sit(self, where: TableAt, resume: MatchLink | None = None, level: str = "casual") -> None:
        """:meth:`join` or :meth:`join_server`, as ``where`` says the table is reached."""
        if where.via == "server":
            self.join_server(where.host, resume, level)
        else:
            self.join(where.host, where.port, resume, level)

    def close_table(self) -> None:
        """Leave the current table (as host: close it; as guest: leave the seat)."""
        self._leave_current()
        self._schedule(self._close_hosted)

    def _close_hosted(self) -> None:
        if self._host is not None:
            self._host.close_table()

    def table_view(self) -> TableView | None:
        """The current table as the trace shows it, or None when this console is at no table."""
        link, host = self.link, self._host
        if link is None:
            return None
        address = host.address if host is not None and link.role == "host" else ""
        return link.table(self.context.name, address, host.port if host is not None else 0)

    def invite(self, address: str, port: int = DEFAULT_PORT) -> None:
        """Invite the console at ``address``:``port`` to this console's open table; posts InviteSent."""
        link, host = self.link, self._host
        if link is None or link.role != "host" or host is None:
            raise TableStateError("only a console with an open table can invite")
        self._submit(send_invite(self.context, address, port, host.port, link.match_number),
                     partial(InviteSent, address, port, False))

    def invite_server(self, account: str) -> None:
        """Invite the console of ``account`` on the table server to this console's open table; posts InviteSent."""
        link, host = self.link, self._host
        if link is None or link.role != "host" or host is None:
            raise TableStateError("only a console with an open table can invite")
        match_number = link.match_number

        def send() -> None:
            delivered = self._session is not None and self._session.invite(account, host.port or DEFAULT_PORT, match_number)
            self.context.emit(InviteSent(account, 0, delivered, "" if delivered else "not connected to the table server"))

        self._schedule(send)

    # -- the daily deal among friends (issue 50) -------------------------------------------
    def share_daily(self, result: DailyResult) -> None:
        """Publish this player's result of a daily deal on the table server (kept until it is taken:
        posts DailyShared). Nothing without a table server."""
        self._on_server(lambda session: session.daily.share(result))

    def withdraw_daily(self, day: datetime.date, variant: PyramidVariant) -> None:
        """Remove this player's result of ``day`` under ``variant`` from the table server (posts DailyShared)."""
        self._on_server(lambda session: session.daily.withdraw(day, variant))

    def follow_daily(self, boards: Collection[DailyBoard]) -> None:
        """Read exactly these boards' results (posts DailyResultSeen, each proven, and DailyResultGone)."""
        wanted = tuple(boards)
        self._on_server(lambda session: session.daily.follow(wanted))

    def _on_server(self, action: Callable[[TableServerSession], None]) -> None:
        if self.server is None:
            return

        def on_the_thread() -> None:
            session = self._table_server()
            if session is not None:
                action(session)

        self._schedule(on_the_thread)

    # -- discovery -----------------------------------------------------------------
    def browse(self) -> None:
        """Start looking for tables; posts DiscoveryStarted/Failed, then TableSeen and TableGone."""
        self._submit(self._browse(), partial(DiscoveryFailed, self.discovery_choice))

    def stop(self) -> None:
        """Leave the table, stop listening, publishing and browsing, and end the thread (waits ≤ 5 s)."""
        if self._loop is None:
            return
        self._leave_current()
        try:
            self._submit(self._stop()).result(timeout=5)
        except Exception:  # the stop must finish whatever happened on the thread
            log.exception("the network thread did not stop cleanly")
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._loop = None

    # -- on the network thread ---------------------------------------------------------
    def _leave_current(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            link.leave()
        joining, self._joining = self._joining, None
        if joining is not None:
            self._schedule(joining.give_up)

    async def _listen(self, address: str, port: int, announce: bool = True) -> bool:
        """Listen unless already listening; ``announce`` the console in the network menu."""
        if self._host is None:
            self._host = TableHost(self.context, self._announce)
        session = self._table_server()
        if session is not None:
            session.accept_seats = self._host.serve_channel
        if self._host.listening:
            return True
        listening = await self._host.listen(address, port)
        if announce:
            self._announce()
        return listening

    async def _open(self, link: MatchLink, address: str, port: int) -> None:
        if await self._listen(address, port, announce=False) and self._host is not None:
            self._host.open(link)  # announces the table

    async def _join(self, host: str, port: int, joining: GuestJoin, via: Via) -> None:
        if self._host is not None:
            self._host.close_table()
        task = asyncio.current_task()
        self._guest = joining.task = task
        session = self._table_server() if via == "server" else None
        connect = None if session is None else (lambda: session.conversation_with(host))
        try:
            await run_guest(self.context, host, port, joining, self._adopt, via, connect)
        finally:
            joining.task = None
            if self._guest is task:
                self._guest = None

    def _table_server(self) -> TableServerSession | None:
        """The table server's session (started on first use; on the network thread), or None when none is set."""
        if self.server is not None and self._session is None:
            self._session = TableServerSession(self.context, self.server)
            self._session.start()
        return self._session

    def _discovery_ready(self) -> Discovery:
        if self._discovery is None:
            self._discovery = Discovery(self.context, self.discovery_choice)
        return self._discovery

    async def _browse(self) -> None:
        session = self._table_server()
        if session is not None:
            session.browse()
        if self.discovery_choice != "off":
            await self._discovery_ready().browse()

    def _announce(self) -> None:
        """Publish (or update, or withdraw) this console's table; called on the network thread.

        On the home network nothing is announced with discovery "off" or for a
        table listening on loopback only (no other machine could reach it); on
        the table server, whenever one is set.
        """
        host = self._host
        link = host.link if host is not None else None
        ad: TableAd | None = None
        if host is not None and host.listening:
            if link is None or link.ended is not None:
                ad = TableAd.lobby(self.context.name, host.port, PROTOCOL_VERSION)
            else:
                ad = TableAd(self.context.name, "", host.port, link.match_number, link.level, host.seats_free,
                             PROTOCOL_VERSION)
        if self._session is not None:
            self._session.announce(ad)
        if self.discovery_choice == "off" or host is None or host.loopback_only:
            return
        previous = self._announcing
        if ad is None:
            if self._announced:
                self._announced = False
                self._announcing = asyncio.ensure_future(self._withdraw(previous))
            return
        self._announced = True
        self._announcing = asyncio.ensure_future(self._publish(previous, ad))

    async def _publish(self, previous: asyncio.Future[None] | None, ad: TableAd) -> None:
        if previous is not None:
            await previous  # announcements go out in the order they were made
        await self._discovery_ready().publish(ad)

    async def _withdraw(self, previous: asyncio.Future[None] | None) -> None:
        if previous is not None:
            await previous
        await self._discovery_ready().unpublish()

    async def _stop(self) -> None:
        guest = self._guest
        if guest is not None:  # a seated guest's leave is being read by the host: give it its linger
            await asyncio.wait({guest}, timeout=self.context.limits.farewell_linger)
        if self._host is not None:
            await self._host.stop()
            self._announce()
            self._host = None
        if self._session is not None:
            await self._session.stop()
            self._session = None
        if self._announcing is not None:
            await self._announcing
        if self._discovery is not None:
            await self._discovery.close()
            self._discovery = None
        # What is left (zeroconf's own broadcasts, a guest being cancelled) ends here, not with the
        # loop: a task destroyed pending is logged at exit ("Task was destroyed but it is pending").
        # A task stuck in a library's start-up is given a second, then left to the loop's end.
        left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=1.0)

