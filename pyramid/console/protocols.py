"""What the console's screens may ask of the console, and what the console asks of a screen: protocols.

Screens reach the rest of the console only through :class:`Console`: the screen stack plus the
services (store, settings, rules, clock, random numbers, the network tables, seen through
:class:`NetworkTables` and :class:`TableRun`). :class:`~pyramid.console.session.Session` is the one
real implementation, :class:`~pyramid.console.net.tables.Tables` and
:class:`~pyramid.console.net.match.NetDuelRun` the network's. The stack holds :class:`Shown`
screens: what the session needs of one (:class:`~pyramid.console.screen.Screen` is the base every
screen is built on). Apart from the screens' base classes so that neither imports the other
(issue 48: the three wide protocols lived beside the screen classes).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from pyramid.actions import Action
from pyramid.engine.cards import Card
from pyramid.engine.rules import Rules
from pyramid.saved.stats import PyramidVariant
from pyramid.view import Cue, Hit, Target, View

if TYPE_CHECKING:
    from pyramid.console.thinking import Thinker
    from pyramid.net.daily_result import ProvenResult
    from pyramid.engine.duel.board import DuelBoard
    from pyramid.net.advert import TableAd
    from pyramid.net import events as ev
    from pyramid.net.events import InviteReceived, ServerState
    from pyramid.net.link import MatchLink
    from pyramid.net.server.account import ServerAccount
    from pyramid.net.views import OpponentGame, TableAddress, TableAt, TableView
    from pyramid.saved.settings import PlayerSettings
    from pyramid.saved.store import Store
    from pyramid.system.cec.service import CecStatus


class Shown(Protocol):
    """A screen as the console's stack and main loop use it (:class:`~pyramid.console.screen.Screen`
    says what each member does)."""

    name: str
    takes_text: bool

    def handle(self, action: Action, hit: Hit) -> None: ...

    def view(self) -> View: ...

    def menu_state(self) -> dict[str, Any] | None: ...

    def game_state(self) -> dict[str, Any] | None: ...

    def resume(self) -> None: ...

    def news(self) -> None: ...

    def due(self) -> float | None: ...

    def tick(self) -> None: ...

    def on_help(self) -> None: ...


@dataclass
class DealChoice:
    """Deals fixed from outside (scripted mode's ``--deal`` / ``--deal-number``), used once."""

    cards: tuple[Card, ...] | None = None
    number: int | None = None


class PressSeen(NamedTuple):
    """A press as the Controls screen lists it: the action it made and the device it came from."""

    action: str
    device: str


class MatchNews(Protocol):
    """The match's news from the network, one method a kind (routed by :func:`~pyramid.console.net.lobby.take_event`)."""

    def on_connection(self, event: ev.PeerConnection) -> None: ...

    def on_joined(self, event: ev.OpponentJoined) -> None: ...

    def on_seated(self, event: ev.Seated) -> None: ...

    def on_progress(self, event: ev.OpponentMoved | ev.OpponentStatus) -> None: ...

    def on_void(self, event: ev.MatchVoided) -> None: ...

    def on_left(self, event: ev.OpponentLeft) -> None: ...

    def on_proposal(self, event: ev.RematchProposed) -> None: ...


class TableRun(MatchNews, Protocol):
    """The match at the table this console sits at, as the tables and the table's screens read it."""

    link: MatchLink
    #: 0 for the host, 1 for the guest.
    seat: int
    own_name: str
    board: DuelBoard
    #: Where a host's table listens (saved, so that a restart listens there again).
    listen: tuple[str, int] | None
    #: The latest news from the table, worded.
    status: str
    gone: bool
    voided: bool
    #: The opponent's game as the network thread's replay had it at the latest news.
    opponent: OpponentGame

    @property
    def opponent_name(self) -> str: ...

    @property
    def match_number(self) -> int: ...

    @property
    def active(self) -> bool:
        """The match still goes on at the table (nothing recorded, nobody gone, not void)."""


    def save(self, board: DuelBoard) -> None:
        """Keep the game as it is now (a power cut loses nothing)."""

    def leave(self) -> None:
        """This player leaves the table (a match under way and not decided is lost)."""

    def game_screen(self) -> Shown:
        """The player's own game at the table."""

    def next_round(self, previous: OpponentGame) -> TableRun:
        """The match just ended counted, with the opponent's game as it finished there (``previous``:
        the link is on the new match already), then a fresh run for the new round, at the same table."""


class TablesNews(Protocol):
    """The network's news for the tables' state (the lists, the notices, invites), one method a kind
    (routed by :func:`~pyramid.console.net.lobby.take_event`)."""

    def on_table_seen(self, event: ev.TableSeen) -> None: ...

    def on_table_gone(self, event: ev.TableGone) -> None: ...

    def on_listening(self, event: ev.Listening) -> None: ...

    def on_listen_failed(self, event: ev.ListenFailed) -> None: ...

    def on_server_state(self, event: ev.ServerState) -> None: ...

    def on_crowded(self, event: ev.Crowded) -> None: ...

    def on_discovery_failed(self, event: ev.DiscoveryFailed) -> None: ...

    def on_invite(self, invite: ev.InviteReceived) -> None: ...

    def on_invite_sent(self, event: ev.InviteSent) -> None: ...


class NetworkTables(TablesNews, Protocol):
    """The network as the screens see it: the tables and consoles seen, invites, the match at a table.

    State and the network's lifecycle only: which screens show, and when, is
    the network screens' business (``console/net/lobby.py``).
    """

    #: Where this console listens for guests and invites ("": every address).
    address: str
    port: int
    #: The tables announced on the network, and the consoles in their network menu, by key.
    tables: dict[str, TableAd]
    consoles: dict[str, TableAd]
    #: The latest thing to tell about the network itself, worded ("" when nothing).
    notice: str
    #: The table is turning connections away: its screen says so.
    crowded: bool
    #: The match at this console's table, or the seat it holds at another's.
    run: TableRun | None
    #: A seat asked for and not yet answered.
    joining: TableAt | None
    #: The settings file's table server (None: none set), and its latest state (None: not contacted yet).
    server: ServerAccount | None
    server_state: ServerState | None

    @property
    def available(self) -> bool:
        """This console has a network (a self-test has none)."""

    @property
    def name(self) -> str:
        """The player's name at the tables."""

    def table_view(self) -> TableView | None:
        """The trace's ``table`` object of the table this console is at (``None``: at none)."""

    def table_address(self) -> TableAddress | None:
        """Where a guest joins the table this console hosts (``None``: it hosts none)."""

    def listen(self) -> None:
        """Take invites, announce this console, look for tables."""

    def release(self) -> None:
        """No network screen is shown: with no table open, stop listening and looking."""

    def open_table(self, match_number: int, level: str) -> MatchLink:
        """Open this console's table for ``match_number``."""

    def join(self, where: TableAt, level: str) -> None:
        """Ask for the seat at ``where`` as a player of skill ``level`` (the answer comes as an event)."""

    def join_named(self, name: str, level: str) -> None:
        """Sit at the table the player ``name`` (or the account) opened on the table server."""

    def give_up_join(self) -> None:
        """The seat asked for is no longer wanted."""

    def reopen(self, link: MatchLink, listen: tuple[str, int] | None) -> None:
        """After a restart: a host opens its saved table again, a guest goes back to its seat."""

    def seated_link(self) -> MatchLink | None:
        """The seat granted to the join asked for (``None`` once it was left again)."""

    def close_table(self) -> None:
        """Leave the table or the seat asked for, on the network."""

    def invite(self, console: TableAd) -> None:
        """Invite a console seen in its network menu to this console's table."""

    def silence(self, address: str) -> None:
        """ "Not now": no invite from the console at ``address`` for a while."""

    def take_invite(self) -> InviteReceived | None:
        """The invite held to be shown, now taken (one at a time)."""


class Followed(NamedTuple):
    """A board of friends' results: one day's deal under one variant (a statistics key's preset and redeals)."""

    day: datetime.date
    variant: PyramidVariant


class DailySharing(Protocol):
    """What a game's flow needs to share a daily result with friends (issue 50)."""

    def sharer(self) -> str | None:
        """The player's name a daily result is shared under; None when results are not shared."""

    def send_pending(self) -> None:
        """Hand the network every result (and withdrawal) the table server has not taken yet."""


class DailyFriends(DailySharing, Protocol):
    """This player's daily results shared with friends on the table server, and the board of theirs
    followed (``console/net/friends.py``)."""

    def on_shared(self, event: ev.DailyShared) -> None:
        """The table server took a result or a withdrawal."""

    def stop_sharing(self) -> None:
        """"Share my daily results" turned off: what was shared is taken back from the table server."""

    @property
    def available(self) -> bool:
        """Whether friends' results can be had (a table server is set, and a network)."""

    @property
    def account(self) -> str | None:
        """This console's account on the table server."""

    @property
    def following(self) -> tuple[Followed, ...]:
        """The boards followed now (none, a day's, or the seven of a week)."""

    def entries(self, board: Followed) -> Mapping[str, ProvenResult]:
        """The proven results of ``board`` (one followed), by account."""

    @property
    def version(self) -> int:
        """Counts the changes of the entries."""

    def follow(self, boards: Sequence[Followed]) -> None:
        """Show these boards' results from now on (none: none)."""

    def on_seen(self, event: ev.DailyResultSeen) -> None:
        """A friend's result, proven."""

    def on_gone(self, event: ev.DailyResultGone) -> None:
        """A friend withdrew a result."""


class GameServices(Protocol):
    """What a game's flow needs of the console (``game_flow.PyramidRun``: its data, rules, clock, dice
    and searches), and nothing of the screens: a game can be carried, saved and judged with no stack."""

    store: Store
    rules: Rules
    rng: random.Random
    today: Callable[[], datetime.date]
    #: Monotonic seconds: what screens that move by themselves time themselves by.
    clock: Callable[[], float]
    fixed_deal: DealChoice
    #: Where long searches run without freezing the screen (a worker thread, or at once in the scripted mode).
    thinker: Thinker

    @property
    def friends(self) -> DailySharing:
        """Sharing this player's daily results with friends on the table server (issue 50)."""


class ScreenStack(Protocol):
    """The screens shown, one over the other: what a screen needs to open another and to close."""

    @property
    def screen(self) -> Shown:
        """The screen on top of the stack."""

    def push(self, screen: Shown) -> None:
        """Show ``screen`` over the current one."""

    def pop(self) -> None:
        """Close the top screen (never the last one)."""

    def screen_below(self, screen: Shown) -> Shown | None:
        """The screen under ``screen`` on the stack (what a panel is drawn over)."""


class ConsoleSystem(Protocol):
    """The machine the console runs on, as the main menu's System and Controls pages show it."""

    #: The screen the console draws on, as its display describes it ("window 320x240 (x11)"; "": unknown).
    display_description: str
    #: Whether the main menu offers "Quit" (a window on a desktop; a console is switched off instead).
    can_quit: bool
    #: Asks the system to power off (``--power-off logind``: the appliance); ``None``: the menu has no such line.
    power_off: Callable[[], None] | None
    #: The HDMI-CEC adapters the console follows (the System page).
    cec_statuses: Callable[[], Sequence[CecStatus]]
    #: Puts the TV to standby (the console on its HDMI-CEC bus); ``None``: "Power off" offers no such line.
    tv_standby_request: Callable[[], None] | None
    input_log: Callable[[], Sequence[PressSeen]]
    input_devices: Callable[[], Sequence[str]]

    def quit(self) -> None:
        """End the console (the main loop stops after this action)."""


class Console(GameServices, ScreenStack, ConsoleSystem, Protocol):
    """What a screen may use: the stack it lives on, the game's services, the machine, and the player's
    settings and the network tables."""

    settings: PlayerSettings

    @property
    def friends(self) -> DailyFriends:
        """The day's deal among friends: sharing, and the board followed (issue 50)."""

    @property
    def tables(self) -> NetworkTables:
        """The network tables: the tables seen, invites, the match at a table (made by the app)."""

    def change_setting(self, name: str, value: Any) -> None:
        """Store one of the player's settings."""

    def remember_choice(self, menu: str, line: str) -> None:
        """Remember the line last chosen in menu ``menu``."""

    def choose_rules(self, name: str) -> None:
        """Play preset ``name`` from now on (and remember it)."""

    def show_store_notice(self) -> None:
        """Tell the player once about data put aside or a store that cannot save."""

    def cue(self, cue: Cue, targets: tuple[Target, ...] = (), points: int = 0, bonus: str = "") -> None:
        """Say what just happened that the cards do not show (a wrong pair, the points and a bonus
        won, a win): the next views carry it, for motion and sound."""
