"""The console's network state: the tables seen, the invites, the match at a table, the network's lifecycle.

The session owns one :class:`Tables` and hands it the network's events
(through :func:`pyramid.console.net.lobby.take_event`, which first takes the
ones that change screens); screens see it as
:class:`~pyramid.console.screen.NetworkTables`. It knows no screen: which
screen shows, and when, is decided in ``console/net/lobby.py``.

The :class:`~pyramid.net.network.Network` itself is made by the app, the
composition root, through ``open_network``, and only when a network screen, a
saved table or ``--table`` needs it: a console that never opens the network
menu listens on no port and starts no thread. It is stopped again when the
player leaves the network screens with no table open.

This module loads nothing of the network until it is used (the session
imports it before the first frame).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyramid.console.net import wording
from pyramid.console.wording import player_name
from pyramid.errors import PyramidError
from pyramid.net.limits import DEFAULT_PORT
from pyramid.net.views import TableAddress, TableAt
from pyramid.system import device_info

if TYPE_CHECKING:
    from pyramid.console.protocols import TableRun
    from pyramid.net.advert import TableAd
    from pyramid.net.events import (Crowded, DiscoveryFailed, InviteReceived, InviteSent, ListenFailed, Listening,
                                    ServerState, TableGone, TableSeen)
    from pyramid.net.link import MatchLink
    from pyramid.net.network import Network
    from pyramid.net.server.account import ServerAccount
    from pyramid.net.views import TableView

#: Invites: at most one held or on screen, at most one a console per INVITE_INTERVAL seconds and
#: one from anybody per INVITE_INTERVAL, and "Not now" silences that console for INVITE_SILENCE.
#: Why: an invite panel covers the menu, so a stranger sending them in a loop (1,148 in 30 s
#: from two addresses, issue 26) kept the player from ever getting away but by joining.
INVITE_INTERVAL = 30.0
INVITE_SILENCE = 600.0


class NoNetworkError(PyramidError):
    """A network screen was reached on a console started without a network (a self-test, a test session)."""


class Tables:
    """The network as the console keeps it; see the module note.

    ``port`` and ``address`` are where this console listens (the settings
    file's ``[network]`` port, or ``--table-port`` / ``--table-address``);
    ``name`` overrides the player's name for this run (``--name``);
    ``server`` is the settings file's table server (None: none is set).
    """

    def __init__(self, open_network: Callable[[str], Network] | None = None, port: int = DEFAULT_PORT,
                 address: str = "", name: str | None = None, server: ServerAccount | None = None) -> None:
        self._open_network = open_network
        self.port = port
        self.address = address
        self.name_override = name
        self.server = server
        #: The table server's latest state (None: none set, or not contacted yet).
        self.server_state: ServerState | None = None
        #: ``--table join:server:NAME`` given a player's name: joined when that player's table is seen.
        self._wanted: str | None = None
        self._wanted_level = "casual"
        #: The player's name as the settings say it now (the session that owns the settings sets this).
        self.settings_name: Callable[[], str] = lambda: ""
        self._network: Network | None = None
        self.tables: dict[str, TableAd] = {}
        self.consoles: dict[str, TableAd] = {}
        #: The invite to show when no game is being played (the session shows it; one at a time).
        self.held_invite: InviteReceived | None = None
        #: The clock of the invite limits (swappable, as the session's).
        self.clock: Callable[[], float] = time.monotonic
        #: This console's addresses (swappable too: tests give their own), read when a table listens.
        self.own_addresses: Callable[[], list[str]] = device_info.ip_addresses
        self._listening_at: tuple[str, ...] | None = None
        self._invites_from: dict[str, float] = {}  # address → when its next invite may show
        self._next_invite = 0.0  # when any console's next invite may show
        self.run: TableRun | None = None
        self.joining: TableAt | None = None
        self.notice = ""
        self.crowded = False
        self._invited: dict[str, str] = {}  # address → name, to word InviteSent
        #: Each kind of network event, and its one handler here (:meth:`on_event`; made at the first).

    # -- the network object ----------------------------------------------------
    @property
    def available(self) -> bool:
        return self._open_network is not None

    @property
    def name(self) -> str:
        return self.name_override or player_name(self.settings_name())

    def network(self) -> Network:
        """The network, made on first use; :class:`NoNetworkError` when this console has none (a self-test)."""
        if self._network is None:
            if self._open_network is None:
                raise NoNetworkError("this console was started without a network")
            self._network = self._open_network(self.name)
        return self._network

    def table_view(self) -> TableView | None:
        """The trace's ``table`` object of the table this console is at (``None``: none, or no network yet)."""
        return None if self._network is None else self._network.table_view()

    def table_address(self) -> TableAddress | None:
        """Where a guest joins the table this console hosts (``None``: it hosts none): the address it
        listens on, or with every interface each IPv4 address of the console ("Join by address" takes
        IPv4), those of the home network first."""
        run = self.run
        if run is None or run.seat != 0:
            return None
        host, port = run.listen or (self.address, self.port)
        if host:
            return TableAddress((host,), port)
        if self._listening_at is None:  # read once a table listens (Listening), not at every drawing
            found = [address for address in self.own_addresses() if ":" not in address]
            found.sort(key=lambda address: not ipaddress.ip_address(address).is_private)
            self._listening_at = tuple(found)
        return TableAddress(self._listening_at, port)

    def listen(self) -> None:
        """The network menu is shown: take invites, announce this console, look for tables."""
        network = self.network()
        network.listen(self.address, self.port)
        network.browse()

    def release(self) -> None:
        """The player left the network screens: with no table open, stop listening and looking."""
        if self.run is None and self.joining is None:
            self.stop()

    def give_up_join(self) -> None:
        """The seat asked for is no longer wanted (cancelled, refused): also a table waited for by name."""
        self.joining = self._wanted = None

    def stop(self) -> None:
        """End the network (the app's exit): the table is left cleanly, the thread ends."""
        network, self._network = self._network, None
        self.server_state = None
        self.tables.clear()
        self.consoles.clear()
        if network is not None:
            network.stop()

    # -- tables ------------------------------------------------------------------
    def open_table(self, match_number: int, level: str) -> MatchLink:
        """Open this console's table for ``match_number``, listening where this console listens."""
        return self.network().open_table(match_number, level, self.address, self.port)

    def join(self, where: TableAt, level: str) -> None:
        """Ask for the seat at ``where`` as a player of skill ``level``; the answer comes as an event
        (Seated, JoinFailed)."""
        self.joining = where
        self.network().sit(where, level=level)

    def join_named(self, name: str, level: str) -> None:
        """Sit at the table the account ``name`` (or the player ``name``) opened on the table server
        (``--table join:server:NAME``), as soon as its table is seen there: asking before the host
        is on the server would ask nobody.

        A name that can be an account (lower-case letters, digits, "-") is that account, and only its
        own table is joined, whatever other tables call their player: any account may write any
        player name in its advert, so a name is no identity. Any other name (a player's, "Ann") is the
        one table on the server whose player is so named, once the server's tables have been read
        (its state "connected": its retained adverts come before it) — and none while two claim it."""
        self.joining, self._wanted, self._wanted_level = TableAt(name, 0, "server"), name, level
        self.network().browse()

    def _join_wanted(self) -> None:
        """Join the table :meth:`join_named` waits for, if it is known now."""
        from pyramid.net.server.account import ACCOUNT

        wanted = self._wanted
        if wanted is None:
            return
        on_server = [ad for ad in self.tables.values() if ad.via == "server"]
        if ACCOUNT.match(wanted):
            claims = [ad for ad in on_server if ad.address == wanted]
        elif self.server_state is not None and self.server_state.state == "connected":
            claims = [ad for ad in on_server if ad.host == wanted]
        else:
            claims = []
        if len(claims) == 1:
            self._wanted = None
            self.join(TableAt(claims[0].address, 0, "server"), self._wanted_level)

    def reopen(self, link: MatchLink, listen: tuple[str, int] | None) -> None:
        """Continue after a restart: a host opens its table again where it listened (``listen``, else
        where this console listens now), a guest goes back to its seat."""
        network = self.network()
        if link.role == "host":
            address, port = listen or (self.address, self.port)
            network.open_table(link.match_number, link.level, address, port, resume=link)
        elif link.address is not None:
            network.sit(TableAt(*link.address, link.via), resume=link)

    def seated_link(self) -> MatchLink | None:
        return self.network().link

    def close_table(self) -> None:
        """Leave the table (or give up the seat asked for) on the network, if there is one."""
        if self._network is not None:
            self._network.close_table()

    def invite(self, console: TableAd) -> None:
        """Invite a console seen in its network menu to this console's table."""
        self._invited[console.address] = console.host
        if console.via == "server":
            self.network().invite_server(console.address)
        else:
            self.network().invite(console.address, console.port)

    def take_invite(self) -> InviteReceived | None:
        invite, self.held_invite = self.held_invite, None
        return invite

    def silence(self, address: str) -> None:
        """ "Not now": no invite from the console at ``address`` for :data:`INVITE_SILENCE` seconds."""
        self._invites_from[address] = self.clock() + INVITE_SILENCE

    def on_invite(self, invite: InviteReceived) -> None:
        """Hold ``invite`` if the limits allow it (module note); else it is dropped, unseen."""
        now = self.clock()
        if self.held_invite is not None or now < self._next_invite or now < self._invites_from.get(invite.address, 0):
            return
        self._invites_from = {address: until for address, until in self._invites_from.items() if until > now}
        self._invites_from[invite.address] = now + INVITE_INTERVAL
        self._next_invite = now + INVITE_INTERVAL
        self.held_invite = invite

    # -- the network's news (lobby.take_event routes each kind to its one method) ------------
    def on_table_seen(self, event: TableSeen) -> None:
        from pyramid.net.discovery import instance_name

        ad = event.table
        if ad.key == instance_name(self.name):
            return  # this console's own announcement, heard back
        (self.tables if ad.is_table else self.consoles)[ad.key] = ad
        (self.consoles if ad.is_table else self.tables).pop(ad.key, None)
        if ad.via == "server" and ad.is_table:
            self._join_wanted()

    def on_table_gone(self, event: TableGone) -> None:
        self.tables.pop(event.key, None)
        self.consoles.pop(event.key, None)

    def on_listening(self, event: Listening) -> None:
        self.notice = ""
        self._listening_at = None  # the addresses are read again for the table now listening
        run = self.run
        if run is not None and run.seat == 0:
            run.listen = (event.host, event.port)  # port 0 asked: a restart must listen on this one
            run.save(run.board)

    def on_listen_failed(self, event: ListenFailed) -> None:
        self.notice = wording.listen_failed(event.port)
        if self.run is not None and self.run.seat == 0:
            self.run.status = self.notice  # nobody can sit at this table: say so on it

    def on_server_state(self, event: ServerState) -> None:
        self.server_state = event
        self._join_wanted()

    def on_crowded(self, event: Crowded) -> None:
        self.crowded = event.crowded

    def on_discovery_failed(self, event: DiscoveryFailed) -> None:
        self.notice = wording.discovery_failed()

    def on_invite_sent(self, event: InviteSent) -> None:
        self.notice = wording.invite_sent(self._invited.pop(event.address, event.address), event.delivered)

    # -- the scripted mode's waits -------------------------------------------------
    def heard(self, item: object) -> bool:
        """``item`` is news from the other console (the script's ``wait``)."""
        from pyramid.net import events as ev

        return isinstance(item, (ev.OpponentJoined, ev.Seated, ev.JoinFailed, ev.PeerConnection, ev.OpponentMoved,
                                 ev.OpponentStatus, ev.MatchVoided, ev.OpponentLeft, ev.RematchProposed,
                                 ev.RematchStarted, ev.InviteReceived))

    def reached(self, goal: str) -> bool:
        """``"joined"``: two players sit at the table, connected (after a restart: the other is back);
        ``"done"``: the opponent's match is over (or the opponent is gone)."""
        run = self.run
        if run is None:
            return False
        if goal == "joined":
            return run.link.opponent_name is not None and run.link.token is not None and run.link.connected
        return run.opponent.finished or run.gone or run.voided
