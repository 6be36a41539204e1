"""The console's game flow, UI-neutral: a stack of screens over the rules, the deals and the store.

One :class:`Session` owns everything the player can see. Input adapters give
it :class:`~pyramid.actions.Action` values; renderers read :meth:`Session.view`;
the scripted mode reads :meth:`Session.state`. Screens live in their own
modules (:mod:`pyramid.menus`, :mod:`pyramid.game_screen`, …) and call back
into the session for anything that outlives them: starting a game, saving,
settings. The game screens load when a game starts: the console shows its
main menu before importing them.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from pyramid.actions import Action
from pyramid.engine.cards import Card, format_cards
from pyramid.engine.deal import MAX_DEAL_NUMBER, numbered_deal
from pyramid.saved.errors import ReplayError
from pyramid.console.menus import MainMenu, NoticeScreen, RedealChoice
from pyramid.engine.rules import PRESETS, Rules, preset
from pyramid.console.screen import Screen
from pyramid.saved.settings import Settings
from pyramid.saved.store import Store
from pyramid.view import Hit, View

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress

Locate = Callable[[int, int], Hit]

#: How long "winnable deals only" may search when a preset has no precomputed list.
WINNABLE_SEARCH_SECONDS = 5.0


class DealRequest(NamedTuple):
    """Which deal the player asked for: a number, or ``None`` for a random one."""

    number: int | None = None


@dataclass
class DealChoice:
    """Deals fixed from outside (scripted mode's ``--deal`` / ``--deal-number``), used once."""

    cards: tuple[Card, ...] | None = None
    number: int | None = None


class Session:
    """The console's state: a stack of screens, the rules in use, the store."""

    def __init__(self, rules: Rules | None = None, deal: DealChoice | None = None,
                 rng: random.Random | None = None, store: Store | None = None,
                 today: Callable[[], datetime.date] = datetime.date.today) -> None:
        self.store = store or Store.in_memory()
        self.settings: Settings = self.store.settings()
        self.rules = rules or preset(self.settings.rules_preset)
        self.fixed_deal = deal or DealChoice()
        self.rng = rng or random.Random()
        self.today = today
        #: Lines for the System screen describing the screen and inputs in use (set by the app).
        self.hardware: list[str] = []
        #: The latest presses with their device ("ok from 'USB Remote'"), newest last, and the
        #: input devices connected: the Controls screen shows them (set by the app).
        self.input_log: Callable[[], Sequence[str]] = lambda: ()
        self.input_devices: Callable[[], Sequence[str]] = lambda: ()
        self.stack: list[Screen] = [MainMenu(self)]
        self.show_store_notice()

    # -- the stack ----------------------------------------------------------
    @property
    def screen(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
            self.screen.resume()

    def show_store_notice(self) -> None:
        """Tell the player once about damaged data put aside or a store that cannot save."""
        notice = self.store.take_notice()
        if notice:
            self.push(NoticeScreen(self, "About your saved data", notice))

    # -- settings -----------------------------------------------------------
    def change_setting(self, name: str, value: Any) -> None:
        self.store.set_setting(name, value)
        self.settings = self.store.settings()
        self.show_store_notice()

    def remember_choice(self, menu: str, line: str) -> None:
        if self.settings.menu_choices.get(menu) != line:
            self.change_setting("menu_choices", {**self.settings.menu_choices, menu: line})

    def choose_rules(self, name: str) -> None:
        self.rules = preset(name)
        self.change_setting("rules_preset", name)

    @staticmethod
    def describe_variant(game: str, variant: str) -> str:
        """"retrohub/one" → "Pyramid, one redeal"; "good" → "Pyramids against the good computer"."""
        if game == "pyramids":
            from pyramid.console.duel.flow import describe_level

            return describe_level(variant)
        name, _, redeals = variant.partition("/")
        title = PRESETS[name].title if name in PRESETS else name
        return f"{title}, {redeals} redeal" + ("s" if redeals in ("two", "unlimited") else "") if redeals else title

    # -- games --------------------------------------------------------------
    def saved_game(self) -> Progress | None:
        return self.store.load_progress("pyramid")

    def continue_game(self) -> None:
        from pyramid.console.game_screen import GameScreen
        from pyramid.console.table import Table
        from pyramid.saved.progress import replay

        progress = self.saved_game()
        if progress is None:
            return
        try:
            board = replay(progress)
        except ReplayError as error:
            self.store.clear_progress("pyramid")
            self.push(NoticeScreen(self, "The saved game cannot be resumed", str(error)))
            return
        self.rules = preset(progress.preset)
        self.push(GameScreen(self, Table(board), progress))

    def ask_redeals(self, number: int | None) -> None:
        """Open "Redeal the stock?" (RetroHub), or deal at once with the preset's own redeals."""
        request = DealRequest(number)
        if self.rules.name == "retrohub":
            self.push(RedealChoice(self, request))
        else:
            self.start_pyramid(self.rules.redeals, request)

    def open_game(self, game: str, redeals: int | None | str = "ask") -> None:
        """Skip the main menu (scripted mode's ``--game``): ask for redeals, or deal at once.

        ``"pyramids"`` opens a duel against the computer at the level chosen last.
        """
        if game == "pyramids":
            from pyramid.console.duel.menus import play_computer

            play_computer(self)
            return
        if game != "pyramid":
            raise ValueError(f"unknown game {game!r}")
        if redeals == "ask":
            self.ask_redeals(None)
        else:
            self.start_pyramid(redeals, DealRequest())  # type: ignore[arg-type]

    def start_pyramid(self, redeals: int | None, request: DealRequest, replace: Screen | None = None) -> None:
        """Deal a new game with ``redeals`` redeals (``None`` = unlimited); it replaces any saved one."""
        from pyramid.engine.board import Board
        from pyramid.console.game_screen import GameScreen
        from pyramid.console.table import Table
        from pyramid.saved.progress import Progress

        rules = self.rules.with_redeals(redeals)
        cards, number = self._cards_for(rules, request)
        self._abandon_saved_game()
        progress = Progress("pyramid", rules.name, redeals, format_cards(cards), deal_number=number)
        self.store.save_progress(progress)
        if replace is not None and self.screen is replace:
            self.stack.pop()
        self.push(GameScreen(self, Table(Board(cards, rules)), progress))
        self.show_store_notice()

    def _cards_for(self, rules: Rules, request: DealRequest) -> tuple[tuple[Card, ...], int | None]:
        fixed = self.fixed_deal
        if fixed.cards is not None:
            cards, fixed.cards = fixed.cards, None
            return cards, None
        number = fixed.number or request.number
        fixed.number = None
        if number is None and self.settings.winnable_only:
            from pyramid.engine.winnable import pick_winnable_number  # the solver loads only when it is needed

            number = pick_winnable_number(rules, self.rng, WINNABLE_SEARCH_SECONDS)
        if number is None:
            number = self.rng.randint(1, MAX_DEAL_NUMBER)
        return numbered_deal(number, rules.deck), number

    def _abandon_saved_game(self) -> None:
        """A saved game replaced by a new deal counts as lost (as in most solitaire games)."""
        saved = self.saved_game()
        if saved is not None:
            from pyramid.console.game_screen import record_abandoned

            record_abandoned(self.store, saved)

    # -- actions and views --------------------------------------------------
    def handle(self, action: Action, locate: Locate | None = None) -> None:
        """Apply one action. Taps are located by the renderer's layout (``locate``)."""
        hit = locate(action.x, action.y) if action.name == "tap" and locate else None
        if action.name == "help":
            self.screen.on_help()
        else:
            self.screen.handle(action, hit)

    def view(self) -> View:
        settings = self.settings
        return self.screen.view()._replace(letters=settings.card_letters,
                                           four_colour=settings.four_colour_suits, safe_area=settings.safe_area)

    def state(self) -> dict[str, Any]:
        """The scripted mode's state object (schema in the README)."""
        games = [state for state in (screen.game_state() for screen in self.stack) if state is not None]
        return {
            "screen": self.screen.view().screen,
            "menu": self.screen.menu_state(),
            "game": games[-1] if games else None,
        }
