"""The network screens: the tables seen, joining by address, a table's own screen, invites.

Everything is chosen with the arrows and ✓ (the console has no keyboard). The
lists are live: the network thread's events update the table service and the
main loop draws again after each, so a table opened elsewhere appears without
a key being pressed.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from pyramid.console.catalogue import say
from pyramid.actions import Action
from pyramid.console.duel.flow import match_number_for, remembered_level
from pyramid.console.duel.help import PyramidsHelpKey
from pyramid.console.net import wording
from pyramid.console.screen import Console, LiveLine, LiveMenuScreen, NoticeScreen, Screen
from pyramid.view import Hit, MenuHit, MenuView, PanelView, View

if TYPE_CHECKING:
    from pyramid.console.net.match import NetDuelRun
    from pyramid.net.advert import TableAd
    from pyramid.net.events import InviteReceived

def open_network_menu(session: Console, match_number: int | None = None) -> None:
    """Pyramids → "Play on the network" (a notice on a console started without a network)."""
    if not session.tables.available:
        session.push(NoticeScreen(session, say("net.no_network"), say("net.no_network_detail")))
        return
    session.push(NetworkMenu(session, match_number))


def start_table(session: Console, host: str | None, port: int | None) -> None:
    """``--table``: open a table at once (``host`` None; ``--deal-number`` is its match), or join ``host``:``port``."""
    if host is None or port is None:
        session.tables.open_table(session, match_number_for(session, None), remembered_level(session),
                                  from_menu=False)
    else:
        session.tables.join(session, host, port)


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
        session.tables.listen(session)

    def live_lines(self) -> list[LiveLine]:
        session, tables = self.session, self.session.tables
        lines = [
            LiveLine(("table", ad.key), wording.table_line(ad.host, ad.match, ad.level, ad.seats), partial(self.join, ad))
            for ad in sorted(tables.tables.values(), key=lambda ad: (ad.host, ad.key))
        ]
        return lines + [
            LiveLine("open", say("net.open_table"), self.open_table),
            LiveLine("address", say("net.join_by_address"), lambda: session.push(JoinAddressScreen(session))),
        ]

    def footer(self) -> str:
        tables = self.session.tables
        if tables.notice:
            return tables.notice
        if not tables.tables:
            return say("net.no_table_seen")
        return say("net.you_play_as", name=tables.name(self.session))

    def join(self, ad: TableAd) -> None:
        if not ad.seats:
            self.session.push(NoticeScreen(self.session, say("net.table_full"), wording.join_failed("full")))
            return
        self.session.tables.join(self.session, ad.address, ad.port)

    def open_table(self) -> None:
        session = self.session
        session.tables.open_table(session, match_number_for(session, self.match_number), remembered_level(session),
                                  from_menu=True)

    def leave(self) -> None:
        self.session.pop()
        self.session.tables.release()


class JoinAddressScreen(PyramidsHelpKey, Screen):
    """An IPv4 address and a port, entered with the arrows: ◀ ▶ pick the part, ▲ ▼ change it, ✓ join.

    Starts from the address joined last (remembered in the player's settings),
    else from a common home network and this console's port.
    """

    name = "join_address"
    START = "192.168.1.2"

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        saved = session.settings.join_address or f"{self.START}:{session.tables.port}"
        host, _, port = saved.rpartition(":")
        self.parts = [int(part) for part in host.split(".")] + [int(port)]
        self.position = 3

    @property
    def host(self) -> str:
        return ".".join(map(str, self.parts[:4]))

    @property
    def port(self) -> int:
        return self.parts[4]

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("up", "down"):
            step = 1 if action.name == "up" else -1
            if self.position == 4:
                self.parts[4] = (self.parts[4] - 1 + step) % 65535 + 1
            else:
                self.parts[self.position] = (self.parts[self.position] + step) % 256
        elif action.name in ("left", "right"):
            self.position = (self.position + (1 if action.name == "right" else -1)) % len(self.parts)
        elif action.name in ("ok", "tap"):
            session = self.session
            session.change_setting("join_address", f"{self.host}:{self.port}")
            session.pop()
            session.tables.join(session, self.host, self.port)
        elif action.name in ("back", "star"):
            self.session.pop()

    def shown(self) -> str:
        parts = [f"[{part}]" if i == self.position else str(part) for i, part in enumerate(self.parts)]
        return say("net.address_port", address=".".join(parts[:4]), port=parts[4])

    def view(self) -> View:
        return View(self.name, menu=MenuView(say("net.join_by_address"), (self.shown(),), 0, say("net.address_keys")))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [f"{self.host}:{self.port}"], "selected": 0}


class JoiningScreen(PyramidsHelpKey, Screen):
    """ "Joining …" until the host seats this console (or refuses); Cancel gives up."""

    name = "joining"

    def __init__(self, session: Console, host: str, port: int) -> None:
        super().__init__(session)
        self.host = host
        self.port = port
        #: Whether the network menu is under it (leaving the table then goes back there).
        self.from_menu = isinstance(session.screen, NetworkMenu)

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "tap", "back", "star"):
            self.session.tables.cancel_join(self.session, self.from_menu)

    def view(self) -> View:
        below = self.view_below()
        return View(self.name, menu=below.menu, table=below.table, text=below.text,
                    panel=PanelView(say("net.joining", host=self.host, port=self.port), (say("net.joining_detail"),),
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
    def run(self) -> NetDuelRun | None:
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
        if run.seat == 0 and run.link.opponent_name is None and run.active:
            lines += [LiveLine(("invite", ad.key), say("net.invite_line", name=ad.host),
                               partial(tables.invite, self.session, ad))
                      for ad in sorted(tables.consoles.values(), key=lambda ad: (ad.host, ad.key))]
        return lines + [leave]

    def footer(self) -> str:
        run, tables = self.run, self.session.tables
        if run is None:
            return ""
        if run.status or tables.notice:
            return run.status or tables.notice
        if tables.crowded:
            return say("net.crowded")
        if run.link.opponent_name is None:
            return say("net.waiting_second", name=run.own_name)
        return say("net.both_seated", name=run.own_name, opponent=run.opponent_name)

    def play(self) -> None:
        from pyramid.console.net.match import NetDuelScreen

        run = self.run
        if run is not None:
            self.session.push(NetDuelScreen(self.session, run))

    def leave(self) -> None:
        """Back, ✱ or "Leave the table": asked first while the match is still on."""
        self.session.tables.ask_to_leave(self.session)


class InviteScreen(PyramidsHelpKey, Screen):
    """ "Ann invites you to a Pyramids table — Join / Not now", over the menu the player is on."""

    name = "invite"
    ITEMS = ("net.join", "net.not_now")

    def __init__(self, session: Console, invite: InviteReceived) -> None:
        super().__init__(session)
        self.invite = invite
        self.selected = 0

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("up", "down"):
            self.selected = 1 - self.selected
            return
        if action.name == "tap":
            if not isinstance(hit, MenuHit) or not 0 <= hit.index < len(self.ITEMS):
                return
            self.selected = hit.index
        if action.name in ("back", "star") or (action.name in ("ok", "tap") and self.selected == 1):
            self.session.pop()
            self.session.tables.silence(self.invite.address)  # "Not now": that console, for a while
        elif action.name in ("ok", "tap"):
            session = self.session
            session.pop()
            if session.tables.available:
                session.tables.join(session, self.invite.address, self.invite.port)

    def view(self) -> View:
        below = self.view_below()
        invite = self.invite
        return View(self.name, menu=below.menu, table=below.table, text=below.text,
                    panel=PanelView(wording.invite(invite.name), (say("net.invite_match", match=invite.match),),
                                    tuple(say(key) for key in self.ITEMS), self.selected))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [say(key) for key in self.ITEMS], "selected": self.selected}
