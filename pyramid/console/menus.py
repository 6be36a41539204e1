"""The console's menus: main menu, variants, deal number, settings, statistics.

Each is a small :class:`~pyramid.console.screen.MenuScreen`; what a line does
is a call into the module of the screen it opens, so menus hold no game logic.
The games' modules are imported when first opened: the main menu is drawn
before the engine's boards and the statistics load (start-up time), and no
game module imports this one.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import current_language, knows, say
from pyramid.console.help_text import Sections
from pyramid.console.protocols import Console, GameServices
from pyramid.console.screen import HelpScreen, MenuScreen, NoticeScreen, PagedScreen, Screen
from pyramid.console.widgets import ConfirmScreen, NumberEntryScreen
from pyramid.console.wording import (describe_variant, device_line, played_won, player_name, press_line, variant_line,
                                      variant_title)
from pyramid.languages import LANGUAGES
from pyramid.engine.rules import PRESETS, Redeals
from pyramid.system import device_info
from pyramid.view import Hit, TextView, View

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress


log = logging.getLogger(__name__)

#: The catalogue key of the main menu's line that resumes each game.
CONTINUE = {"pyramid": "menu.continue", "pyramids": "menu.continue_pyramids"}


def _game_screen() -> ModuleType:
    """Pyramid's table and its entry points, imported when a game starts."""
    from pyramid.console import game_screen

    return game_screen


def _duel_menus() -> ModuleType:
    """The Pyramids menus, imported when first opened."""
    from pyramid.console.duel import menus

    return menus


def open_console(session: Console, game: str | None = None, redeals: Redeals | None = None) -> None:
    """The first screens: the main menu at the bottom, the data notice, then ``game`` if asked.

    ``game`` (scripted mode's ``--game``) skips the main menu: ``"pyramid"``
    asks for the redeals, or deals at once with ``redeals``; ``"pyramids"``
    opens a duel against the computer at the level chosen last.
    """
    session.push(MainMenu(session))
    session.show_store_notice()
    if game == "pyramids":
        _duel_menus().play_computer(session)
    elif game == "pyramid" and redeals is None:
        _game_screen().deal_new_game(session)  # asked for on the command line: no question
    elif game == "pyramid" and redeals is not None:
        _game_screen().start_pyramid(session, redeals.allowance)
    elif game is not None:
        raise ValueError(f"unknown game {game!r}")


class MainMenu(MenuScreen):
    name = "menu"
    title_key = "menu.title"

    def lines(self) -> list[tuple[str, Callable[[], None]]]:
        session = self.session
        lines: list[tuple[str, Callable[[], None]]] = []
        if self._saved["pyramid"]:
            lines.append((say(CONTINUE["pyramid"]), lambda: _game_screen().continue_game(session)))
        duel = self._saved["pyramids"]
        if duel is not None:
            # A match at a network table comes first: another player is waiting for this one.
            at_a_table = "table" in duel.context
            lines.insert(0 if at_a_table else len(lines),
                         (say(CONTINUE["pyramids"]), lambda: _duel_menus().continue_pyramids(session)))
        lines += [
            (say("menu.new_game"), lambda: _game_screen().new_game(session)),
            (self._daily_label(), lambda: _game_screen().daily_game(session)),
            (say("menu.calendar"), lambda: _game_screen().daily_calendar(session)),
            (say("menu.deal_number"), lambda: session.push(DealNumberScreen(session))),
            (say("menu.pyramids"), lambda: session.push(_duel_menus().PyramidsMenu(session))),
            (say("menu.variant", variant=variant_title(session.rules.name)), lambda: session.push(VariantMenu(session))),
            (say("menu.statistics"), lambda: session.push(StatisticsScreen(session))),
            (say("menu.settings"), lambda: session.push(SettingsScreen(session))),
            (say("menu.rules"), lambda: session.push(HelpScreen(session))),
        ]
        if session.rules.scoring != "cards_left":  # a variant that scores points: its best score is a goal
            lines.append((say("menu.score_challenge"), lambda: _game_screen().score_challenge(session)))
        if session.can_quit:
            lines.append((say("menu.quit"), session.quit))
        if session.power_off is not None:
            lines.append((say("menu.power_off"), lambda: session.push(PowerOffQuestion(session))))
        return lines

    def items(self) -> list[str]:
        return [label for label, _ in self.lines()]

    def choose(self, index: int) -> None:
        self.lines()[index][1]()

    def footer(self) -> str:
        return ""

    def __init__(self, session: Console) -> None:
        self.session = session
        self._saved = self._saved_games()
        self._daily_today = self._daily_played()
        super().__init__(session)

    def _daily_played(self) -> bool | None:
        """Today's daily deal of the variant it opens under: ``None`` not played yet, else whether it was
        won unaided (read when the menu shows, not on every frame)."""
        from pyramid.saved.stats import PyramidVariant

        rules = self.session.rules  # the daily deal is played under the preset's own redeals
        variant = PyramidVariant(rules.name, rules.redeals).key
        return self.session.store.daily_results(variant).get(self.session.today())

    def _daily_label(self) -> str:
        """ "Daily deal", or with today's result once it is played ("Daily deal · won")."""
        if self._daily_today is None:
            return say("menu.daily_deal")
        return say("menu.daily_won" if self._daily_today else "menu.daily_played")

    def _saved_games(self) -> dict[str, Progress | None]:
        """The games that can be continued: read when the menu shows, not on every frame."""
        return {game: self.session.store.load_progress(game) for game in CONTINUE}

    def resume(self) -> None:
        """Back on the main menu. After a game was played or started, the highlight is on its
        Continue line, so one more ✓ resumes it rather than dealing over it; when a Continue
        line went away, it goes back to the top."""
        before, saved = self._saved, self._saved_games()
        self._saved = saved
        self._daily_today = self._daily_played()
        changed = [game for game in CONTINUE if saved[game] is not None and saved[game] != before[game]]
        if changed:
            self.selected = self.items().index(say(CONTINUE[changed[0]]))
        elif any((saved[game] is None) != (before[game] is None) for game in CONTINUE):
            self.selected = 0

    def leave(self) -> None:
        """The main menu is the bottom of the stack: there is nothing above it."""


class PowerOffQuestion(ConfirmScreen):
    """ "Power off the console?" — Power off, Cancel. Power off comes first: nothing is lost by it
    (every move is saved as it is played, and the stop that follows closes the store cleanly)."""

    name = "power_off"

    def __init__(self, session: Console) -> None:
        super().__init__(session, say("power.question"), say("menu.power_off"), self.power_off)

    def items(self) -> list[str]:
        with_tv = [say("power.with_tv")] if self.session.tv_standby_request is not None else []
        return [self.yes, *with_tv, say("power.cancel")]

    def choose(self, index: int) -> None:
        """Power off; or, on a TV's HDMI-CEC bus, the TV to standby first and then power off."""
        self.session.pop()
        tv_standby = self.session.tv_standby_request
        if index == 1 and tv_standby is not None:
            tv_standby()
        if index == 0 or (index == 1 and tv_standby is not None):
            self.on_yes()

    def power_off(self) -> None:
        """Ask the system; the console then stops like any service (SIGTERM). A refusal is told, and the
        owner's way out said (the power switch); the details go to the journal."""
        from pyramid.errors import PyramidError

        assert self.session.power_off is not None
        try:
            self.session.power_off()
        except PyramidError as error:
            log.warning("%s", error)
            self.session.push(NoticeScreen(self.session, say("power.failed"), say("power.failed_detail")))
            return
        self.session.push(NoticeScreen(self.session, say("power.going"), say("power.going_detail")))


class VariantMenu(MenuScreen):
    """Which rules to play: every preset of docs/rules.md; the choice is remembered."""

    name = "variant_choice"
    title_key = "variant.menu_title"

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        names = list(PRESETS)
        self.selected = names.index(session.rules.name) if session.rules.name in names else 0

    def items(self) -> list[str]:
        return [variant_title(name) for name in PRESETS]

    def choose(self, index: int) -> None:
        self.session.choose_rules(list(PRESETS)[index])
        self.session.pop()

    def footer(self) -> str:
        return variant_line(list(PRESETS)[self.selected])


class DealNumberScreen(NumberEntryScreen):
    """A numbered deal: the same cards on every console (docs/rules.md, "Cards and deals")."""

    name = "deal_number"
    title_key = "deal_number.title"
    verb_key = "deal_number.verb"

    def accept(self, number: int) -> None:
        from pyramid.console.dealing import DealRequest

        self.session.pop()
        _game_screen().new_game(self.session, DealRequest(number))


class StatisticsScreen(PagedScreen):
    """Played, won, win rate, best score and streaks per rules, a page at a time; ✓ offers to reset them."""

    name = "statistics"

    def __init__(self, session: Console) -> None:
        super().__init__(session, say("statistics.title"), self.sections(session))

    @staticmethod
    def sections(session: GameServices) -> Sections:
        from pyramid.saved.stats import daily_streaks  # loaded with this screen, not before the menu

        sections: list[tuple[str, tuple[str, ...]]] = []
        days = session.store.daily_results()
        if days:
            streaks = daily_streaks(days, session.today())
            sections.append((say("statistics.daily"), (
                say("statistics.daily_total", **played_won(len(days), sum(days.values()))),
                say("statistics.daily_in_a_row", **played_won(streaks.played, streaks.won)),
                say("statistics.daily_best", **played_won(streaks.best_played, streaks.best_won)))))
        for stats in session.store.all_stats():
            rate = "–" if stats.win_rate is None else say("statistics.percent", percent=round(stats.win_rate * 100))
            best = "–" if stats.best_score is None else str(stats.best_score)
            lines = [say("statistics.played_won", played=stats.played, won=stats.won, rate=rate, best=best),
                     say("statistics.streaks", current=stats.current_streak, best=stats.best_streak)]
            if stats.assisted_played:
                lines.append(say("statistics.assisted", played=stats.assisted_played, won=stats.assisted_won))
            if stats.old_best_score is not None:  # Three passes' old row values, Classic's pyramid-only count
                old = "statistics.old_best_pyramid" if stats.variant.startswith("classic/") else "statistics.old_best"
                lines.append(say(old, best=stats.old_best_score))
            sections.append((describe_variant(stats.game, stats.variant), tuple(lines)))
        if not sections:
            sections.append((say("statistics.none"), (say("statistics.none_line"),)))
        return tuple(sections)

    def answer(self, action: Action) -> None:
        if action.kind in (Kind.OK, Kind.TAP):
            self.session.push(ConfirmScreen(self.session, say("statistics.reset_question"), say("statistics.reset"),
                                            self.reset))
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def reset(self) -> None:
        """Every statistic erased (a failure to save it is told like any other, after this action)."""
        self.session.store.reset_stats()

    def resume(self) -> None:
        self.set_sections(self.sections(self.session))

    def footer_hint(self) -> str:
        return say("statistics.reset_hint")


class SettingsScreen(MenuScreen):
    """The player's settings: ◀ ▶ or ✓ change the value of the selected line.

    The last lines open pages of their own (the system information).
    """

    name = "settings"
    title_key = "settings.title"
    #: The pages the last lines open: (catalogue key of the line, the screen it opens).
    PAGES: tuple[tuple[str, Callable[[Console], Screen]], ...] = (
        ("settings.your_name", lambda session: _duel_menus().your_name(session)),
        ("settings.controls", lambda session: ControlsScreen(session)),
        ("settings.system", lambda session: SystemScreen(session)),
    )
    SAFE_AREAS: tuple[int | None, ...] = (None, 0, 2, 4, 5, 6, 8, 10)

    def options(self) -> list[tuple[str, str, list[object]]]:
        """(catalogue key of the label, setting name, values in order) for each line."""
        from pyramid.engine.difficulty import GRADES
        from pyramid.saved.settings import VOLUME_LEVELS

        # Sharing the daily results is a table server's: without one, the line would change nothing.
        on_off: list[object] = [True, False]
        sharing = [("settings.share_daily", "share_daily", on_off)] if self.session.tables.server else []
        return [
            ("settings.card_letters", "card_letters", ["language", "english", "french", "german"]),
            ("settings.suit_colours", "four_colour_suits", [False, True]),
            ("settings.redeal_default", "redeal_default", ["none", "one", "unlimited"]),
            ("settings.winnable_only", "winnable_only", [False, True, *GRADES]),
            ("settings.safe_area", "safe_area", list(self.SAFE_AREAS)),
            ("settings.motion", "motion", [True, False]),
            ("settings.timer", "timer", [False, True]),
            ("settings.sound", "sound", [True, False]),
            ("settings.volume", "volume", list(VOLUME_LEVELS)),
            ("settings.language", "language", list(LANGUAGES)),
            *sharing,
        ]

    def items(self) -> list[str]:
        settings = self.session.settings
        lines = [say("settings.line", label=say(label), value=self.describe(name, getattr(settings, name)))
                 for label, name, _ in self.options()]
        # "Your name" shows the name, as every setting shows its value (issue 47).
        name = say("settings.line", label=say("settings.your_name"), value=player_name(settings.player_name))
        return lines + [name if key == "settings.your_name" else say(key) for key, _ in self.PAGES]

    def footer(self) -> str:
        """What the selected setting does, for the one whose name does not say it (the TV safe area)."""
        options = self.options()
        if self.selected < len(options) and knows(f"{options[self.selected][0]}.help"):
            return say(f"{options[self.selected][0]}.help")
        return ""

    @staticmethod
    def describe(name: str, value: object) -> str:
        """A setting's value as its line shows it."""
        if name == "language":
            return LANGUAGES.get(str(value) or current_language(), str(value))  # "": the device's
        if name == "safe_area":
            return say("settings.automatic") if value is None else say("settings.percent", percent=value)
        if name == "volume":
            return say("settings.percent", percent=value)
        if isinstance(value, bool):
            return say(f"settings.{name}.{'on' if value else 'off'}")
        return say(f"settings.{name}.{value}")

    def sideways(self, direction: int) -> None:
        if self.selected >= len(self.options()):
            return
        _, name, values = self.options()[self.selected]
        current = getattr(self.session.settings, name)
        if name == "language" and not current:
            current = current_language()  # not chosen yet: the language spoken now is the one to change
        index = values.index(current) if current in values else 0
        self.session.change_setting(name, values[(index + direction) % len(values)])

    def choose(self, index: int) -> None:
        if index < len(self.options()):
            self.sideways(1)
        else:
            self.session.push(self.PAGES[index - len(self.options())][1](self.session))


class ControlsScreen(Screen):
    """The input test screen: every press shows the action it produced and its device.

    Every action is shown rather than obeyed, so a builder can try each
    button; pressing Back (or ✱) twice in a row leaves.
    """

    name = "controls"
    SHOWN = 8

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        self.seen: list[str] = []

    def handle(self, action: Action, hit: Hit) -> None:
        leaving = action.kind in (Kind.BACK, Kind.STAR) and self.seen[-1:] == [str(action)]
        self.seen.append(str(action))
        if leaving:
            self.session.pop()

    def on_help(self) -> None:
        self.seen.append("help")

    def view(self) -> View:
        log = ([press_line(press.action, press.device) for press in self.session.input_log()]
               or [say("controls.no_device_info", action=action) for action in self.seen])
        presses = tuple(reversed(log[-self.SHOWN:])) or (say("controls.press_any"),)
        devices = tuple(map(device_line, self.session.input_devices())) or (say("controls.no_device"),)
        sections = ((say("controls.last_presses"), presses), (say("controls.devices"), devices),
                    ("", (say("controls.leave"),)))
        return View(self.name, text=TextView(say("controls.title"), sections))


class SystemScreen(Screen):
    """What the owner needs to maintain the console: the version and where to SSH."""

    name = "system"

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.OK, Kind.BACK, Kind.STAR, Kind.TAP):
            self.session.pop()

    def view(self) -> View:
        # Here, not at the top: the main menu is drawn before the solver loads (start-up on a Pi).
        from pyramid.engine.solver.compiled import core_name

        addresses = device_info.ip_addresses()
        ssh = tuple(f"ssh pyramid@{address}" if ":" not in address else f"ssh pyramid@[{address}]"
                    for address in addresses) or (say("system.no_network"),)
        sections = (
            (say("system.software"), (say("system.version", version=device_info.software_version()),
                                      say(f"system.core.{core_name()}"))),
            (say("system.network"), ssh),
            (say("system.table_server"), self.table_server()),
            (say("system.data"), (str(self.session.store.location or say("system.not_saved")),)),
            (say("system.hardware"), (say("system.display", display=self.session.display_description)
                                      if self.session.display_description else say("system.unknown"),)),
        )
        tv = self.tv_lines()
        return View(self.name, text=TextView(say("system.title"), (*sections, *tv)))

    def tv_lines(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The TV's HDMI-CEC bus (issue 49): each adapter, its addresses, and the TV once it answered."""
        lines: list[str] = []
        for status in self.session.cec_statuses():
            lines.append(say("system.cec_adapter", path=status.info.path, name=status.info.name,
                             physical=status.physical,
                             logical=say("system.unknown") if status.logical is None else str(status.logical)))
            if status.tv_name is not None or status.tv_vendor is not None:
                lines.append(say("system.tv", name=status.tv_name or say("system.unknown"),
                                 vendor=status.tv_vendor or say("system.unknown")))
        return ((say("system.cec"), tuple(lines)),) if lines else ()

    def table_server(self) -> tuple[str, ...]:
        """The table server the settings file names, and the account this console signs in with (issue
        47: the owner helping a newcomer had nowhere to read them)."""
        server = self.session.tables.server
        if server is None:
            return (say("system.no_server"),)
        return server.address, say("system.account", account=server.user)
