"""The console's one object for the network: the tables seen, the invites, the match at a table.

The session owns a :class:`TableService` and hands it every network event
(:meth:`~pyramid.console.session.Session.post_event`); the network screens
read it and call it. The :class:`~pyramid.net.network.Network` itself is made
by the app, the composition root, through ``open_network``, and only when a
network screen, a saved table or ``--table`` needs it: a console that never
opens the network menu listens on no port and starts no thread. It is stopped
again when the player leaves the network screens with no table open.

This module loads nothing of the network, the duel or the screens until they
are used (the session imports it before the first frame).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pyramid.console.wording import player_name
from pyramid.console.catalogue import say
from pyramid.errors import PyramidError
from pyramid.net.limits import DEFAULT_PORT

if TYPE_CHECKING:
    from pyramid.console.net.lobby import TableScreen
    from pyramid.console.net.match import NetDuelRun
    from pyramid.console.screen import Console, Screen
    from pyramid.engine.duel.board import DuelBoard
    from pyramid.net.advert import TableAd
    from pyramid.net.events import InviteReceived, Seated
    from pyramid.net.link import MatchLink
    from pyramid.net.network import Network
    from pyramid.saved.progress import Progress

#: Invites: at most one held or on screen, at most one a console per INVITE_INTERVAL seconds and
#: one from anybody per INVITE_INTERVAL, and "Not now" silences that console for INVITE_SILENCE.
#: Why: an invite panel covers the menu, so a stranger sending them in a loop (1,148 in 30 s
#: from two addresses, issue 26) kept the player from ever getting away but by joining.
INVITE_INTERVAL = 30.0
INVITE_SILENCE = 600.0


class NoNetworkError(PyramidError):
    """A network screen was reached on a console started without a network (a self-test, a test session)."""


class TableService:
    """The network as the screens see it; see the module note.

    ``port`` and ``address`` are where this console listens (the settings
    file's ``[network]`` port, or ``--table-port`` / ``--table-address``);
    ``name`` overrides the player's name for this run (``--name``).
    """

    def __init__(self, open_network: Callable[[str], Network] | None = None, port: int = DEFAULT_PORT,
                 address: str = "", name: str | None = None) -> None:
        self._open_network = open_network
        self.port = port
        self.address = address
        self.name_override = name
        self._network: Network | None = None
        #: Tables announced on the network, and consoles in their network menu (they can be invited), by key.
        self.tables: dict[str, TableAd] = {}
        self.consoles: dict[str, TableAd] = {}
        #: The invite to show when no game is being played (the session shows it; one at a time).
        self.held_invite: InviteReceived | None = None
        #: The clock of the invite limits (swappable, as the session's).
        self.clock: Callable[[], float] = time.monotonic
        self._invites_from: dict[str, float] = {}  # address → when its next invite may show
        self._next_invite = 0.0  # when any console's next invite may show
        #: The match at this console's table (or the seat it holds at another's).
        self.run: NetDuelRun | None = None
        self.table_screen: TableScreen | None = None
        #: A join asked for and not yet answered: (host, port).
        self.joining: tuple[str, int] | None = None
        #: The latest thing to tell about the network itself, worded (a port that cannot be used …).
        self.notice = ""
        #: The table is turning connections away (more at once than it serves): its screen says so.
        self.crowded = False
        self._invited: dict[str, str] = {}  # address → name, to word InviteSent

    # -- the network object ----------------------------------------------------
    @property
    def available(self) -> bool:
        return self._open_network is not None

    def name(self, session: Console) -> str:
        return self.name_override or player_name(session.settings.player_name)

    def network(self, session: Console) -> Network:
        """The network, made on first use; :class:`NoNetworkError` when this console has none (a self-test)."""
        if self._network is None:
            if self._open_network is None:
                raise NoNetworkError("this console was started without a network")
            self._network = self._open_network(self.name(session))
        return self._network

    def listen(self, session: Console) -> None:
        """The network menu is shown: take invites, announce this console, look for tables."""
        network = self.network(session)
        network.listen(self.address, self.port)
        network.browse()

    def release(self) -> None:
        """The player left the network screens: with no table open, stop listening and looking."""
        if self.run is None and self.joining is None:
            self.stop()

    def stop(self) -> None:
        """End the network (the app's exit): the table is left cleanly, the thread ends."""
        network, self._network = self._network, None
        self.tables.clear()
        self.consoles.clear()
        if network is not None:
            network.stop()

    # -- tables ------------------------------------------------------------------
    def open_table(self, session: Console, match_number: int, level: str, from_menu: bool) -> None:
        """Open a table for ``match_number`` and put the player's game on screen at once.

        The host plays at its own pace from the start; a guest who sits later
        receives every move already made. Any saved duel is replaced.
        """
        from pyramid.console.duel.flow import abandon_saved_duel

        abandon_saved_duel(session)
        link = self.network(session).open_table(match_number, level, self.address, self.port)
        run = self._start(session, link, from_menu, listen=(self.address, self.port))
        run.save(run.board)
        session.show_store_notice()

    def join(self, session: Console, host: str, port: int) -> None:
        """Ask for the seat at ``host``:``port``; the table opens when the host answers."""
        from pyramid.console.net.lobby import JoiningScreen

        self.joining = (host, port)  # before leaving a current table: the network must stay up
        self.leave_current(session)
        self.network(session).join(host, port)
        session.push(JoiningScreen(session, host, port))

    def cancel_join(self, session: Console, from_menu: bool) -> None:
        self.joining = None
        if self._network is not None:
            self._network.close_table()
        session.pop()
        if not from_menu:
            self.release()

    def resume(self, session: Console, progress: Progress) -> None:
        """Continue: the saved game and its table (a host reopens it on its port, a guest comes back to it)."""
        from pyramid.console.screen import NoticeScreen
        from pyramid.engine.errors import ReplayError
        from pyramid.net.errors import NetError
        from pyramid.net.link import MatchLink
        from pyramid.saved.progress import replay_duel

        context = progress.context
        if not self.available:
            session.push(NoticeScreen(session, say("net.no_network"), say("net.no_network_detail")))
            return
        try:
            _, board = replay_duel(progress)
            link = MatchLink.from_json(context["table"])
            listen = context.get("listen")
            where = (str(listen[0]), int(listen[1])) if isinstance(listen, list) and len(listen) == 2 else None
            if link.own_moves != [str(move) for move in board.move_stack] or link.match_number != board.match_number:
                raise ReplayError("the saved table and the saved game disagree")
            if link.role == "guest" and link.address is None:
                raise ReplayError("the saved seat has no table address")
        except (KeyError, TypeError, ValueError, NetError) as error:
            session.store.clear_progress("pyramids")
            session.push(NoticeScreen(session, say("net.cannot_resume"), str(error)))
            return
        network = self.network(session)
        if link.role == "host":
            address, port = where or (self.address, self.port)
            network.open_table(link.match_number, link.level, address, port, resume=link)
        elif link.address is not None:
            network.join(*link.address, resume=link)
        self._start(session, link, False, board, progress.started, where)

    def _start(self, session: Console, link: MatchLink, from_menu: bool, board: DuelBoard | None = None,
               started: datetime.datetime | None = None, listen: tuple[str, int] | None = None) -> NetDuelRun:
        """The run of ``link`` and its screens: the table's screen, the player's game over it."""
        from pyramid.console.net.lobby import TableScreen
        from pyramid.console.net.match import NetDuelRun, NetDuelScreen

        run = NetDuelRun(session, link, self.name(session), self.network(session).table_view,
                         lambda: self.ask_to_leave(session), board, started, listen)
        self.run = run
        self.table_screen = TableScreen(session, from_menu)
        session.push(self.table_screen)
        session.push(NetDuelScreen(session, run))
        return run

    def leave_current(self, session: Console) -> None:
        """Leave the table this console is at, if any (a join or an invite accepted elsewhere)."""
        if self.run is not None:
            self.leave_table(session)

    def ask_to_leave(self, session: Console) -> None:
        """ "Leave the table": asked first while a match under way would count as lost."""
        from pyramid.console.widgets import ConfirmScreen

        run = self.run
        if run is not None and run.active and run.link.opponent_name is not None:
            session.push(ConfirmScreen(session, say("net.leave_question"), say("net.leave"),
                                       lambda: self.leave_table(session)))
        else:
            self.leave_table(session)

    def leave_table(self, session: Console) -> None:
        """Leave the table (a match not decided is lost), close its screens; stop the network if no menu needs it."""
        run, self.run = self.run, None
        if run is not None:
            run.leave()
        if self._network is not None:
            self._network.close_table()
        screen, self.table_screen = self.table_screen, None
        if screen is not None:
            self._pop_to(session, screen)
            if session.screen is screen:
                session.pop()
            if not screen.from_menu:
                self.release()

    @staticmethod
    def _pop_to(session: Console, screen: Screen) -> None:
        """Close the screens above ``screen`` (if it is on the stack)."""
        while session.screen is not screen:
            top = session.screen
            session.pop()
            if session.screen is top:
                return  # the bottom of the stack: ``screen`` was not on it

    def invite(self, session: Console, console: TableAd) -> None:
        """Invite a console seen in its network menu to this console's table."""
        self._invited[console.address] = console.host
        self.network(session).invite(console.address, console.port)

    def take_invite(self, session: Console) -> Screen:
        """The panel for the invite held (the session shows it when no game is in progress)."""
        from pyramid.console.net.lobby import InviteScreen

        invite, self.held_invite = self.held_invite, None
        assert invite is not None, "take_invite is called only when an invite is held"
        return InviteScreen(session, invite)

    def silence(self, address: str) -> None:
        """ "Not now": no invite from the console at ``address`` for :data:`INVITE_SILENCE` seconds."""
        self._invites_from[address] = self.clock() + INVITE_SILENCE

    def _receive_invite(self, invite: InviteReceived) -> None:
        """Hold ``invite`` if the limits allow it (module note); else it is dropped, unseen."""
        now = self.clock()
        if self.held_invite is not None or now < self._next_invite or now < self._invites_from.get(invite.address, 0):
            return
        self._invites_from = {address: until for address, until in self._invites_from.items() if until > now}
        self._invites_from[invite.address] = now + INVITE_INTERVAL
        self._next_invite = now + INVITE_INTERVAL
        self.held_invite = invite

    # -- events ------------------------------------------------------------------
    def on_event(self, session: Console, event: object) -> None:
        """One network event: the lists and notices here, the match's news to the run, new screens when due."""
        from pyramid.console.net import wording
        from pyramid.net import events as ev
        from pyramid.net.discovery import instance_name

        if isinstance(event, ev.TableSeen):
            ad = event.table
            if ad.key == instance_name(self.name(session)):
                return  # this console's own announcement, heard back
            (self.tables if ad.is_table else self.consoles)[ad.key] = ad
            (self.consoles if ad.is_table else self.tables).pop(ad.key, None)
        elif isinstance(event, ev.TableGone):
            self.tables.pop(event.key, None)
            self.consoles.pop(event.key, None)
        elif isinstance(event, ev.Listening):
            self.notice = ""
            run = self.run
            if run is not None and run.seat == 0:
                run.listen = (event.host, event.port)  # port 0 asked: a restart must listen on this one
                run.save(run.board)
        elif isinstance(event, ev.ListenFailed):
            self.notice = wording.listen_failed(event.port)
            if self.run is not None and self.run.seat == 0:
                self.run.status = self.notice  # nobody can sit at this table: say so on it
        elif isinstance(event, ev.Crowded):
            self.crowded = event.crowded
        elif isinstance(event, ev.DiscoveryFailed):
            self.notice = wording.discovery_failed()
        elif isinstance(event, ev.InviteReceived):
            self._receive_invite(event)
        elif isinstance(event, ev.InviteSent):
            self.notice = wording.invite_sent(self._invited.pop(event.address, event.address), event.delivered)
        elif isinstance(event, ev.JoinFailed) and self.joining is not None:
            self._join_failed(session, wording.join_failed(event.reason))
        elif isinstance(event, ev.Seated) and self.joining is not None:
            self._seated(session, event)
        elif isinstance(event, ev.RematchStarted) and self.run is not None:
            self._new_round(session, self.run)
        elif self.run is not None:
            self.run.on_event(event)

    def _join_failed(self, session: Console, why: str) -> None:
        from pyramid.console.net.lobby import JoiningScreen
        from pyramid.console.screen import NoticeScreen

        self.joining = None
        if isinstance(session.screen, JoiningScreen):
            from_menu = session.screen.from_menu
            session.pop()
            if not from_menu:
                self.release()
        session.push(NoticeScreen(session, say("net.no_seat"), why))

    def _seated(self, session: Console, event: Seated) -> None:
        from pyramid.console.duel.flow import abandon_saved_duel
        from pyramid.console.net.lobby import JoiningScreen

        self.joining = None
        link = self.network(session).link
        if link is None:
            return  # the seat was left again before this event was handled
        from_menu = True
        if isinstance(session.screen, JoiningScreen):
            from_menu = session.screen.from_menu
            session.pop()
        abandon_saved_duel(session)
        run = self._start(session, link, from_menu)
        run.on_event(event)

    def _new_round(self, session: Console, old: NetDuelRun) -> None:
        """Both agreed on a new round: a fresh game on the new match, on the same table."""
        from pyramid.console.net.match import NetDuelRun, NetDuelScreen

        run = NetDuelRun(session, old.link, old.own_name, old.table_view, old.leave_table, listen=old.listen)
        self.run = run
        if self.table_screen is not None:
            self._pop_to(session, self.table_screen)
        session.push(NetDuelScreen(session, run))
        run.save(run.board)

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
        return run.opponent_board().is_over() or run.gone or run.voided
