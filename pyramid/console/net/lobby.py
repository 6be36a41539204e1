"""The network screens and their entry points: the tables seen, joining by address, a table's own screen, invites.

Everything is chosen with the arrows and ✓ (the console has no keyboard). The
lists are live: the network thread's events update the tables
(:class:`~pyramid.console.net.tables.Tables`, the state, which knows no
screen) and the main loop draws again after each, so a table opened elsewhere
appears without a key being pressed. Which screen shows, and when, is decided
here: the entry points below open, join, resume and leave a table, and
:func:`take_event` gives each event to its one room (:func:`routes`): the
events that change screens (a seat granted or refused, a new round) here, the
rest to the tables or to the match at the table.

The match played at a table and its screens are in ``match.py``, loaded when
a table first opens.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Hashable
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from pyramid.console.catalogue import say
from pyramid.actions import Action, Kind
from pyramid.console.duel.flow import abandon_saved_duel, match_number_for, remembered_level
from pyramid.console.duel.screens import over_saved_duel
from pyramid.console.digits import DigitEntry, DigitField
from pyramid.console.duel.help import PyramidsHelpKey
from pyramid.console.net import wording
from pyramid.console.protocols import Console, NetworkTables, ScreenStack, Shown, TableRun
from pyramid.console.screen import LiveLine, LiveMenuScreen, NoticeScreen, Screen
from pyramid.console.widgets import ConfirmScreen
from pyramid.view import Hit, MenuHit, MenuView, PanelView, View

if TYPE_CHECKING:
    import datetime

    from pyramid.engine.duel.board import DuelBoard
    from pyramid.net.advert import TableAd
    from pyramid.net.events import InviteReceived, JoinFailed, RematchStarted, Seated
    from pyramid.net.link import MatchLink
    from pyramid.net.views import TableAt
    from pyramid.saved.progress import Progress

log = logging.getLogger(__name__)


# -- entry points ------------------------------------------------------------------
def open_network_menu(session: Console, match_number: int | None = None) -> None:
    """Pyramids → "Play on the network" (a notice on a console started without a network)."""
    if not session.tables.available:
        session.push(NoticeScreen(session, say("net.no_network"), say("net.no_network_detail")))
        return
    session.push(NetworkMenu(session, match_number))


def start_table(session: Console, where: TableAt | None) -> None:
    """``--table``: open a table at once (``where`` None; ``--deal-number`` is its match), or join the
    table at ``where`` (through the table server: the table of the player, or account, ``where.host``)."""
    if where is None:
        open_table(session, match_number_for(session, None), remembered_level(session), from_menu=False)
    elif where.via == "server":  # the console has just started: no table to leave
        session.tables.join_named(where.host, remembered_level(session))
        session.push(JoiningScreen(session, where))
    else:
        join_table(session, where)


def open_table(session: Console, match_number: int, level: str, from_menu: bool) -> None:
    """Open a table for ``match_number`` and put the player's game on screen at once.

    The host plays at its own pace from the start; a guest who sits later
    receives every move already made. Any saved duel is replaced.
    """
    abandon_saved_duel(session)
    tables = session.tables
    link = tables.open_table(match_number, level)
    run = _start(session, link, from_menu, listen=(tables.address, tables.port))
    run.save(run.board)
    session.show_store_notice()


def join_table(session: Console, where: TableAt, host_name: str | None = None) -> None:
    """Ask for the seat at ``where`` (the table of ``host_name``, when known); the table opens when
    the host answers."""
    tables = session.tables
    tables.joining = where  # before leaving a current table: the network must stay up
    leave_current(session)
    tables.join(where, remembered_level(session))
    session.push(JoiningScreen(session, where, host_name))


def cancel_join(session: Console, from_menu: bool) -> None:
    tables = session.tables
    tables.give_up_join()
    tables.close_table()
    session.pop()
    if not from_menu:
        tables.release()


def resume_table(session: Console, progress: Progress) -> None:
    """Continue: the saved game and its table (a host reopens it on its port, a guest comes back to it)."""
    from pyramid.engine.errors import ReplayError
    from pyramid.net.errors import NetError
    from pyramid.net.link import MatchLink
    from pyramid.net.saved import listen_address
    from pyramid.saved.progress import replay_duel

    context = progress.context
    tables = session.tables
    if not tables.available:
        session.push(NoticeScreen(session, say("net.no_network"), say("net.no_network_detail")))
        return
    try:
        _, board = replay_duel(progress)
        link = MatchLink.from_json(context["table"])
        where = listen_address(context.get("listen"))
        if link.own_moves != [str(move) for move in board.move_stack] or link.match_number != board.match_number:
            raise ReplayError("the saved table and the saved game disagree")
        if link.role == "guest" and link.address is None:
            raise ReplayError("the saved seat has no table address")
    except (KeyError, TypeError, ValueError, NetError) as error:
        log.warning("the saved table is set aside: %s", error)
        session.store.clear_progress("pyramids")
        session.push(NoticeScreen(session, say("net.cannot_resume"), str(error)))
        return
    tables.reopen(link, where)
    _start(session, link, False, board, progress.started, where)


def _start(session: Console, link: MatchLink, from_menu: bool, board: DuelBoard | None = None,
           started: datetime.datetime | None = None, listen: tuple[str, int] | None = None) -> TableRun:
    """The run of ``link`` and its screens: the table's screen, the player's game over it."""
    from pyramid.console.net.match import NetDuelRun

    tables = session.tables
    run = NetDuelRun(session, link, tables.name, tables.table_view, partial(ask_to_leave, session), board, started,
                     listen)
    tables.run = run
    session.push(TableScreen(session, from_menu))
    session.push(run.game_screen())
    return run


def reopen_table(session: Console) -> None:
    """The guest left (or the match was void): the host's table opens again on a new match, for a new
    player, without leaving the network screens (before issue 47 it stayed "full" until the host
    left it and opened another)."""
    screen = _put_away_run(session)  # the run gone already: counted as the rules say, nothing more
    from_menu = screen.from_menu if screen is not None else True
    open_table(session, match_number_for(session, None), remembered_level(session), from_menu)


def leave_current(session: Console) -> None:
    """Leave the table this console is at, if any (a join or an invite accepted elsewhere, the script's end)."""
    if session.tables.run is not None:
        leave_table(session)


def ask_to_leave(session: Console) -> None:
    """ "Leave the table": asked first while a match under way would count as lost."""
    run = session.tables.run
    if run is not None and run.active and run.link.opponent_name is not None:
        session.push(ConfirmScreen(session, say("net.leave_question"), say("net.leave"), partial(leave_table, session)))
    else:
        leave_table(session)


def leave_table(session: Console) -> None:
    """Leave the table (a match not decided is lost), close its screens; stop the network if no menu needs it."""
    screen = _put_away_run(session)
    session.tables.close_table()
    if screen is None or not screen.from_menu:
        session.tables.release()


def _put_away_run(session: Console) -> TableScreen | None:
    """The run taken off the table and left (a match not decided is lost), the table's screens closed;
    the table's screen that was closed, if there was one."""
    tables = session.tables
    run, tables.run = tables.run, None
    if run is not None:
        run.leave()
    screen = _table_screen(session)
    if screen is not None:
        while session.screen is not screen:
            session.pop()
        session.pop()
    return screen


def _table_screen(session: ScreenStack) -> TableScreen | None:
    """The table's screen, if it is on the stack (there is one at most)."""
    screen: Shown | None = session.screen
    while screen is not None and not isinstance(screen, TableScreen):
        screen = session.screen_below(screen)
    return screen


Route = Callable[[Console, Any], None]


def take_event(session: Console, event: object) -> None:
    """One network event, in the main loop, taken by its one room (:func:`routes`); then the screen on
    top is told (:meth:`~pyramid.console.screen.Screen.news`)."""
    route = routes().get(type(event))
    if route is not None:
        route(session, event)
    session.screen.news()


@cache
def routes() -> dict[type, Route]:
    """Which room takes each kind of network news, in one lookup (issue 48: it went down a chain of
    three, lobby → tables → the match, each trying its own kinds first). The screens take a seat granted
    or refused and a new round; the tables the lists, notices and invites; the match at the table its
    news. Made at the first event: the events' module loads with the network, not at the start."""
    from pyramid.net import events as ev

    def tables(take: Callable[[NetworkTables, Any], None]) -> Route:
        return lambda session, event: take(session.tables, event)

    def match(take: Callable[[TableRun, Any], None]) -> Route:
        def route(session: Console, event: object) -> None:
            run = session.tables.run
            if run is not None:
                take(run, event)
        return route

    return {
        ev.JoinFailed: _join_failed_news, ev.Seated: _seated_news, ev.RematchStarted: _new_round_news,
        ev.TableSeen: tables(lambda t, e: t.on_table_seen(e)), ev.TableGone: tables(lambda t, e: t.on_table_gone(e)),
        ev.Listening: tables(lambda t, e: t.on_listening(e)), ev.ListenFailed: tables(lambda t, e: t.on_listen_failed(e)),
        ev.ServerState: tables(lambda t, e: t.on_server_state(e)), ev.Crowded: tables(lambda t, e: t.on_crowded(e)),
        ev.DiscoveryFailed: tables(lambda t, e: t.on_discovery_failed(e)),
        ev.InviteReceived: tables(lambda t, e: t.on_invite(e)), ev.InviteSent: tables(lambda t, e: t.on_invite_sent(e)),
        ev.PeerConnection: match(lambda r, e: r.on_connection(e)), ev.OpponentJoined: match(lambda r, e: r.on_joined(e)),
        ev.OpponentMoved: match(lambda r, e: r.on_progress(e)), ev.OpponentStatus: match(lambda r, e: r.on_progress(e)),
        ev.MatchVoided: match(lambda r, e: r.on_void(e)), ev.OpponentLeft: match(lambda r, e: r.on_left(e)),
        ev.RematchProposed: match(lambda r, e: r.on_proposal(e)),
        ev.DailyShared: lambda session, event: session.friends.on_shared(event),
        ev.DailyResultSeen: lambda session, event: session.friends.on_seen(event),
        ev.DailyResultGone: lambda session, event: session.friends.on_gone(event),
    }


def _join_failed_news(session: Console, event: JoinFailed) -> None:
    joining = session.tables.joining
    if joining is not None:
        _join_failed(session, wording.join_failed(event.reason, joining.via))


def _seated_news(session: Console, event: Seated) -> None:
    """A seat granted to this console's join, or (no join going on) its seat taken back: the match's news."""
    tables = session.tables
    if tables.joining is not None:
        _seated(session, event)
    elif tables.run is not None:
        tables.run.on_seated(event)


def _new_round_news(session: Console, event: RematchStarted) -> None:
    run = session.tables.run
    if run is not None:
        _new_round(session, run, event)


def _join_failed(session: Console, why: str) -> None:
    tables = session.tables
    tables.give_up_join()
    if isinstance(session.screen, JoiningScreen):
        from_menu = session.screen.from_menu
        session.pop()
        if not from_menu:
            tables.release()
    session.push(NoticeScreen(session, say("net.no_seat"), why))


def _seated(session: Console, event: Seated) -> None:
    tables = session.tables
    tables.give_up_join()
    link = tables.seated_link()
    if link is None:
        return  # the seat was left again before this event was handled
    from_menu = True
    if isinstance(session.screen, JoiningScreen):
        from_menu = session.screen.from_menu
        session.pop()
    abandon_saved_duel(session)
    run = _start(session, link, from_menu)
    run.on_seated(event)


def _new_round(session: Console, old: TableRun, event: RematchStarted) -> None:
    """Both agreed on a new round: the match just ended counted (with the opponent's game as it
    finished: the link is on the new match already), then a fresh game on the same table."""
    run = session.tables.run = old.next_round(event.previous)
    screen = _table_screen(session)
    if screen is not None:
        while session.screen is not screen:
            session.pop()
    session.push(run.game_screen())
    run.save(run.board)


def offer_invite(session: Console) -> None:
    """Show the invite held, over the screen on top (the session asks when no game is being played)."""
    invite = session.tables.take_invite()
    if invite is not None:
        session.push(InviteScreen(session, invite))


# -- screens -----------------------------------------------------------------------
class NetworkMenu(PyramidsHelpKey, LiveMenuScreen):
    """The tables on the network, live; "Open a table"; "Join by address".

    While it is shown the console listens (it can be invited) and looks for
    tables; leaving it with no table open stops both.
    """

    name = "network_menu"
    title_key = "duel.network"

    def __init__(self, session: Console, match_number: int | None = None) -> None:
        self.match_number = match_number
        super().__init__(session)
        session.tables.listen()

    def live_lines(self) -> list[LiveLine]:
        session, tables = self.session, self.session.tables
        # A player's name is what its account chose: two server tables showing one name show whose they are.
        names = Counter(ad.host for ad in tables.tables.values() if ad.via == "server")
        lines = [
            LiveLine(("table", ad.key), wording.table_line(ad.host, ad.match, ad.level, ad.seats, ad.via,
                                                           ad.address if names[ad.host] > 1 else None),
                     partial(self.join, ad))
            for ad in sorted(tables.tables.values(), key=lambda ad: (ad.via, ad.host, ad.key))
        ]
        return lines + [
            LiveLine("open", say("net.open_table"), self.open_table),
            LiveLine("address", say("net.join_by_address"), lambda: session.push(JoinAddressScreen(session))),
            LiveLine("server", wording.server_line(tables.server, tables.server_state), self.about_server),
        ]

    def about_server(self) -> None:
        """The table server's line: what it is, its state and why, or how to set one."""
        tables = self.session.tables
        self.session.push(NoticeScreen(self.session, wording.server_line(tables.server, tables.server_state),
                                       wording.server_detail(tables.server, tables.server_state)))

    def footer(self) -> str:
        tables = self.session.tables
        if tables.notice:
            return tables.notice
        if not tables.tables:
            return say("net.no_table_seen")
        return say("net.you_play_as", name=tables.name)

    def join(self, ad: TableAd) -> None:
        if not ad.seats:
            self.session.push(NoticeScreen(self.session, say("net.table_full"), wording.join_failed("full")))
            return
        from pyramid.net.views import TableAt

        over_saved_duel(self.session, partial(join_table, self.session, TableAt(ad.address, ad.port, ad.via), ad.host))

    def open_table(self) -> None:
        session = self.session
        number = match_number_for(session, self.match_number)
        over_saved_duel(session, partial(open_table, session, number, remembered_level(session), from_menu=True))

    def leave(self) -> None:
        self.session.pop()
        self.session.tables.release()


class JoinAddressScreen(PyramidsHelpKey, Screen):
    """An IPv4 address and a port, digit by digit (:class:`~pyramid.console.digits.DigitEntry`): ▲ ▼ change
    the digit, ◀ ▶ move, digits typed on a keyboard fill the fields in turn, ✓ joins.

    Starts from the address joined last (remembered in the player's settings), else from a common
    home network and this console's port, the cursor on the last number: on a home network the one
    that differs.
    """

    name = "join_address"
    START = "192.168.1.2"
    OCTET = DigitField(3, 0, 255)
    PORT = DigitField(5, 1, 65535)
    takes_text = True

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        saved = session.settings.join_address or f"{self.START}:{session.tables.port}"
        host, _, port = saved.rpartition(":")
        values = [int(part) for part in host.split(".")] + [int(port)]
        self.entry = DigitEntry([self.OCTET] * 4 + [self.PORT], values, 4 * self.OCTET.width - 1)

    @property
    def host(self) -> str:
        return ".".join(map(str, self.entry.values[:4]))

    @property
    def port(self) -> int:
        return self.entry.values[4]

    def handle(self, action: Action, hit: Hit) -> None:
        entry = self.entry
        if entry.edit(action):
            return
        if action.kind in (Kind.OK, Kind.TAP) and entry.valid:
            session = self.session
            session.change_setting("join_address", f"{self.host}:{self.port}")
            session.pop()
            from pyramid.net.views import TableAt

            over_saved_duel(session, partial(join_table, session, TableAt(self.host, self.port)))
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def shown(self) -> str:
        parts = self.entry.shown()
        return say("net.address_port", address=".".join(parts[:4]), port=parts[4])

    def view(self) -> View:
        footer = say("net.address_keys") if self.entry.valid else say("net.address_invalid")
        return View(self.name, menu=MenuView(say("net.join_by_address"), (self.shown(),), 0, footer))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [f"{self.host}:{self.port}"], "selected": 0}


class JoiningScreen(PyramidsHelpKey, Screen):
    """ "Joining …" until the host seats this console (or refuses); Cancel gives up."""

    name = "joining"

    def __init__(self, session: Console, where: TableAt, host_name: str | None = None) -> None:
        super().__init__(session)
        self.where = where
        self.host_name = host_name
        #: Whether the network menu is under it (leaving the table then goes back there).
        self.from_menu = isinstance(session.screen, NetworkMenu)

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.OK, Kind.TAP, Kind.BACK, Kind.STAR):
            cancel_join(self.session, self.from_menu)

    def view(self) -> View:
        below = self.view_below()
        return View(self.name, menu=below.menu, table=below.table, text=below.text,
                    panel=PanelView(wording.joining(self.where, self.host_name), (say("net.joining_detail"),),
                                    (say("net.cancel"),)))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [say("net.cancel")], "selected": 0}


class TableScreen(PyramidsHelpKey, LiveMenuScreen):
    """The table this console sits at: who is seated, the player's game, invites (host), leaving."""

    name = "table"

    def __init__(self, session: Console, from_menu: bool) -> None:
        self.from_menu = from_menu
        super().__init__(session)

    @property
    def run(self) -> TableRun | None:
        return self.session.tables.run

    def heading(self) -> str:
        run = self.run
        if run is None:
            return say("net.table")
        host = run.own_name if run.seat == 0 else run.opponent_name
        return say("net.table_of", host=host, match=run.match_number)

    def view(self) -> View:
        return View(self.name, menu=MenuView(self.heading(), tuple(self.items()), self.selected, self.footer()))

    def live_lines(self) -> list[LiveLine]:
        run, tables = self.run, self.session.tables
        leave = LiveLine("leave", say("net.leave_table"), self.leave)
        if run is None:
            return [leave]
        lines = [LiveLine("play", say("duel.see_results") if run.board.is_over() else say("net.play"), self.play)]
        if run.seat == 0 and (run.gone or run.voided):
            lines.append(LiveLine("reopen", say("net.reopen"), partial(reopen_table, self.session)))
        if run.seat == 0 and run.link.opponent_name is None and run.active:
            lines += [LiveLine(("invite", ad.key), say("net.invite_line", name=wording.shown_name(ad.host, ad.via)),
                               partial(tables.invite, ad))
                      for ad in sorted(tables.consoles.values(), key=lambda ad: (ad.host, ad.key))]
        return lines + [leave]

    def in_place_of_gone(self, keys: list[Hashable]) -> int:
        """The invited console sat down, so its line went: the highlight goes to the game, never to
        "Leave the table" below it (whose ✓ then asked to leave, issue 47)."""
        return keys.index("play") if "play" in keys else super().in_place_of_gone(keys)

    def footer(self) -> str:
        run, tables = self.run, self.session.tables
        if run is None:
            return ""
        if run.status or tables.notice:
            return run.status or tables.notice
        if tables.crowded:
            return say("net.crowded")
        where = tables.table_address()
        if run.link.opponent_name is None and where is not None and where.addresses:
            return say("net.address", addresses=", ".join(where.addresses), port=where.port)
        if run.link.opponent_name is None:
            return say("net.waiting_second", name=run.own_name)
        return say("net.both_seated", name=run.own_name, opponent=run.opponent_name)

    def play(self) -> None:
        run = self.run
        if run is not None:
            self.session.push(run.game_screen())

    def leave(self) -> None:
        """Back, ✱ or "Leave the table": asked first while the match is still on."""
        ask_to_leave(self.session)


class InviteScreen(PyramidsHelpKey, Screen):
    """ "Ann invites you to a Pyramids table — Join / Not now", over the menu the player is on."""

    name = "invite"
    ITEMS = ("net.join", "net.not_now")

    def __init__(self, session: Console, invite: InviteReceived) -> None:
        super().__init__(session)
        self.invite = invite
        self.selected = 0

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.UP, Kind.DOWN):
            self.selected = 1 - self.selected
            return
        if action.kind is Kind.TAP:
            if not isinstance(hit, MenuHit) or not 0 <= hit.index < len(self.ITEMS):
                return
            self.selected = hit.index
        if action.kind in (Kind.BACK, Kind.STAR) or (action.kind in (Kind.OK, Kind.TAP) and self.selected == 1):
            self.session.pop()
            self.session.tables.silence(self.invite.address)  # "Not now": that console, for a while
        elif action.kind in (Kind.OK, Kind.TAP):
            session = self.session
            session.pop()
            if session.tables.available:
                from pyramid.net.views import TableAt

                where = TableAt(self.invite.address, self.invite.port, self.invite.via)
                over_saved_duel(session, partial(join_table, session, where, self.invite.name))

    def view(self) -> View:
        below = self.view_below()
        invite = self.invite
        return View(self.name, menu=below.menu, table=below.table, text=below.text,
                    panel=PanelView(wording.invite(invite.name), (say("net.invite_match", match=invite.match),),
                                    tuple(say(key) for key in self.ITEMS), self.selected))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [say(key) for key in self.ITEMS], "selected": self.selected}
