"""The console's state, UI-neutral: the stack of screens and the services the screens use.

One :class:`Session` owns everything the player can see. Input adapters give
it :class:`~pyramid.actions.Action` values; renderers read :meth:`Session.view`;
the scripted mode reads :meth:`Session.state`. It implements the
:class:`~pyramid.console.screen.Console` protocol and nothing more: which
screen comes next is each screen's business (the main menu in
:mod:`pyramid.console.menus`, each game's entry points beside its screen), so
this module imports no screen and the flow has no import cycle.
"""

from __future__ import annotations

import datetime
import logging
import random
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from pyramid.console.catalogue import letters_for, say, use_language
from pyramid.actions import Action, Kind
from pyramid.console.net.friends import ServerFriends
from pyramid.console.net.tables import Tables
from pyramid.console.protocols import DailyFriends, DealChoice, PressSeen, Shown
from pyramid.console.screen import NoticeScreen
from pyramid.console.thinking import Thinker, Thought
from pyramid.console.wording import describe_notice, describe_notices
from pyramid.engine.rules import Rules, preset
from pyramid.saved.settings import PlayerSettings
from pyramid.saved.store import Store
from pyramid.view import Cue, Feedback, Hit, Target, View

if TYPE_CHECKING:
    from pyramid.system.cec.service import CecStatus

Locate = Callable[[int, int], Hit]
log = logging.getLogger(__name__)


class Session:
    """The console's state: a stack of screens, the rules in use, the store.

    The stack starts empty; whoever builds the session pushes the first
    screen (the app pushes the main menu), then :meth:`show_store_notice`.
    """

    def __init__(self, rules: Rules | None = None, deal: DealChoice | None = None,
                 rng: random.Random | None = None, store: Store | None = None,
                 today: Callable[[], datetime.date] = datetime.date.today, tables: Tables | None = None,
                 thinker: Thinker | None = None) -> None:
        self.store = store or Store.in_memory()
        self.settings: PlayerSettings = self.store.settings()
        self.rules = rules or preset(self.settings.rules_preset)
        self.fixed_deal = deal or DealChoice()
        self.rng = rng or random.Random()
        self.today = today
        self.clock: Callable[[], float] = time.monotonic
        #: Lines for the System screen describing the screen and inputs in use (set by the app).
        self.display_description = ""
        self.can_quit = False
        self.power_off: Callable[[], None] | None = None
        #: The HDMI-CEC adapters the console follows, as the System page shows them (none: no TV's bus).
        self.cec_statuses: Callable[[], Sequence[CecStatus]] = lambda: ()
        #: Puts the TV to standby (the console on its HDMI-CEC bus, ``[cec] tv_standby``); None: not offered.
        self.tv_standby_request: Callable[[], None] | None = None
        #: Set by :meth:`quit`: the main loop ends after the action that set it.
        self.quit_requested = False
        #: The latest presses with their device ("ok from 'USB Remote'"), newest last, and the
        #: input devices connected: the Controls screen shows them (set by the app).
        self.input_log: Callable[[], Sequence[PressSeen]] = lambda: ()
        self.input_devices: Callable[[], Sequence[str]] = lambda: ()
        self.stack: list[Shown] = []
        #: The latest cue a screen gave (:meth:`cue`), carried by every view after it.
        self.feedback: Feedback | None = None
        #: The network tables; without ``tables`` the console has no network (a self-test, most tests).
        self.tables = tables or Tables()
        self.tables.settings_name = lambda: self.settings.player_name
        self.friends: DailyFriends = ServerFriends(self)
        #: Where long searches run (hints): a worker thread the app gives, else at once on the main loop.
        self.thinker = thinker or Thinker.inline()
        #: The language of the device when the player chose none (the settings file's ``[console] language``).
        self.device_language = "en"
        self.speak()

    # -- the stack ----------------------------------------------------------
    @property
    def screen(self) -> Shown:
        return self.stack[-1]

    def push(self, screen: Shown) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
            self.screen.resume()

    def screen_below(self, screen: Shown) -> Shown | None:
        index = next((i for i, shown in enumerate(self.stack) if shown is screen), None)
        return self.stack[index - 1] if index else None

    def show_store_notice(self) -> None:
        """Tell the player once about damaged data put aside or a store that cannot save."""
        notices = self.store.take_notice()
        if notices:
            self.push(NoticeScreen(self, say("notice.saved_data"), describe_notices(notices)))

    def quit(self) -> None:
        self.quit_requested = True

    def due(self) -> float | None:
        """When the screen on top next moves by itself (the main loop waits no longer than that)."""
        return self.screen.due()

    def tick(self) -> None:
        """Let the screen on top move, if its time has come; a save failure is told as after an action."""
        due = self.screen.due()
        if due is not None and self.clock() >= due:
            self._guarded("moving by itself", self.screen.tick)
            self.show_save_failure()

    def show_save_failure(self) -> None:
        """A save that failed (a full disk, a card gone read-only) is told over the screen, once:
        the store gives one message per run of failures, and play goes on."""
        failure = self.store.take_save_failure()
        if failure:
            self.push(NoticeScreen(self, say("notice.not_saved"), describe_notice(failure)))

    # -- settings -----------------------------------------------------------
    def change_setting(self, name: str, value: Any) -> None:
        self.store.set_setting(name, value)
        self.settings = self.store.settings()
        if name == "language":
            self.speak()
        if name == "share_daily" and value is False:
            self.friends.stop_sharing()
        self.show_store_notice()

    def speak(self, language: str | None = None) -> None:
        """Use ``language`` (``--language``), else the player's choice, else the device's (settings file)."""
        use_language(language or self.settings.language or self.device_language)

    def remember_choice(self, menu: str, line: str) -> None:
        if self.settings.menu_choices.get(menu) != line:
            self.change_setting("menu_choices", {**self.settings.menu_choices, menu: line})

    def choose_rules(self, name: str) -> None:
        self.rules = preset(name)
        self.change_setting("rules_preset", name)

    # -- a screen that fails ------------------------------------------------
    def recover(self, doing: str) -> None:
        """A screen failed (an exception while ``doing``): log it with its traceback, go back to the
        first screen (the main menu) and tell the player in one line.

        Why here and not a crash: the unit restarts a console that exits, and
        the same data (a saved table, a peer's name) would fail it again at
        every start, so one failing screen could crash-loop the device. Nothing
        is deleted: the saved game stays for Continue. Called inside an
        ``except`` block, so the traceback is the failure's.
        """
        failed = self.stack[-1].name if self.stack else "?"
        log.exception("the %r screen failed while %s; back to the menu", failed, doing)
        del self.stack[1:]
        self.screen.resume()
        self.push(NoticeScreen(self, say("notice.screen_failed"), say("notice.screen_failed_detail")))

    def _guarded(self, doing: str, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception:  # one screen's failure, whatever it is, must not end the console
            self.recover(doing)

    # -- actions and views --------------------------------------------------
    def handle(self, action: Action, locate: Locate | None = None) -> None:
        """Apply one action (a failure in doing so is :meth:`recover`-ed from).
        Taps are located by the renderer's layout (``locate``)."""
        self._guarded(f"handling {str(action)!r}", lambda: self._handle(action, locate))

    def _handle(self, action: Action, locate: Locate | None) -> None:
        hit = locate(action.x, action.y) if action.kind is Kind.TAP and locate else None
        if not self.screen.takes_text and action.kind in (Kind.ERASE, Kind.TYPE):
            if action.kind is Kind.TYPE:
                return
            action = Action("back")  # a keyboard's Backspace, where nothing is typed
        if action.kind is Kind.HELP:
            self.screen.on_help()
        else:
            self.screen.handle(action, hit)
        self.show_save_failure()
        self.offer_invites()

    # -- network events -----------------------------------------------------
    def post_event(self, event: object) -> None:
        """One event of the network thread, taken in the main loop like an action.

        The network screens take it (:func:`~pyramid.console.net.lobby.take_event`: new
        screens when a seat is granted, the rest to the tables: lists, the
        match's news); an invite is shown at once over a menu screen, and
        held while a game is being played (:meth:`offer_invites`).
        """
        if isinstance(event, Thought):  # an answer of the worker thread (a hint)
            self._guarded("taking an answer of the solver", lambda: self.thinker.take(event))
            return
        from pyramid.system.cec.playback import ActiveSource, TvStandby  # the TV's news (issue 49)

        if isinstance(event, TvStandby):
            self._guarded("the TV going to standby", self.tv_standby)
            return
        if isinstance(event, ActiveSource):
            return  # the System page reads the adapters' state itself
        self._guarded(f"taking the network's {type(event).__name__}", lambda: self._take_event(event))

    def _take_event(self, event: object) -> None:
        from pyramid.console.net import lobby  # the network screens, loaded with the network's first event

        lobby.take_event(self, event)
        self.offer_invites()

    def offer_invites(self) -> None:
        """Show a held invite unless a game is in progress: it waits for the game's end or its pause (help).

        One invite panel at a time; the tables hold at most one, within their limits
        (:data:`~pyramid.console.net.tables.INVITE_INTERVAL`).
        """
        if self.tables.held_invite is not None and not self.game_in_progress() and self.screen.name != "invite":
            from pyramid.console.net import lobby

            lobby.offer_invite(self)

    def tv_standby(self) -> None:
        """The TV went to standby: a game being played is paused (its panel open, its clock stopped; every
        move is saved already), and the console idles until a key is pressed."""
        if self.game_in_progress():
            self.screen.on_help()

    def game_in_progress(self) -> bool:
        """The top screen is a game being played (its trace status is "playing"): never cover it."""
        state = self.screen.game_state() if self.stack else None
        return state is not None and state.get("status") == "playing"

    def cue(self, cue: Cue, targets: tuple[Target, ...] = (), points: int = 0, bonus: str = "") -> None:
        """The latest cue, numbered one more than the one before: two equal cues are two events."""
        serial = self.feedback.serial + 1 if self.feedback is not None else 1
        self.feedback = Feedback(cue, serial, targets, points, bonus)

    def view(self) -> View:
        """What the screen on top shows; a screen that fails to say is :meth:`recover`-ed from."""
        try:
            view = self.screen.view()
        except Exception:
            self.recover("making its view")
            view = self.screen.view()
        settings = self.settings
        return view._replace(letters=letters_for(settings.card_letters), four_colour=settings.four_colour_suits,
                                           safe_area=settings.safe_area, feedback=self.feedback)

    def state(self) -> dict[str, Any]:
        """The scripted mode's state object (schema in docs/developers.md, "Scripted mode")."""
        games = [state for state in (screen.game_state() for screen in self.stack) if state is not None]
        return {
            "screen": self.screen.view().screen,
            "menu": self.screen.menu_state(),
            "game": games[-1] if games else None,
        }
