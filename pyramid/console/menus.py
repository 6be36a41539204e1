"""The console's menus: main menu, variants, deal number, settings, statistics.

Each is a small :class:`~pyramid.console.screen.MenuScreen`; what a line does
is a call into the module of the screen it opens, so menus hold no game logic.
The games' modules are imported when first opened: the main menu is drawn
before the engine's boards and the statistics load (start-up time), and no
game module imports this one.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Callable

from pyramid.actions import Action
from pyramid.console.help_text import Sections
from pyramid.console.screen import Console, HelpScreen, MenuScreen, PagedScreen, Screen
from pyramid.console.widgets import ConfirmScreen, NumberEntryScreen
from pyramid.console.wording import VARIANT_LINES, describe_variant
from pyramid.engine.rules import PRESETS, Redeals
from pyramid.system import device_info
from pyramid.view import Hit, TextView, View

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress


#: The main menu's line that resumes each game.
CONTINUE = {"pyramid": "Continue", "pyramids": "Continue Pyramids"}


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
    title = "Pyramid"

    def lines(self) -> list[tuple[str, Callable[[], None]]]:
        session = self.session
        lines: list[tuple[str, Callable[[], None]]] = []
        if self._saved["pyramid"]:
            lines.append((CONTINUE["pyramid"], lambda: _game_screen().continue_game(session)))
        if self._saved["pyramids"]:
            lines.append((CONTINUE["pyramids"], lambda: _duel_menus().continue_pyramids(session)))
        lines += [
            ("New game", lambda: _game_screen().new_game(session)),
            ("Daily deal", lambda: _game_screen().daily_game(session)),
            ("Deal number", lambda: session.push(DealNumberScreen(session))),
            ("Pyramids", lambda: session.push(_duel_menus().PyramidsMenu(session))),
            (f"Variant: {session.rules.title}", lambda: session.push(VariantMenu(session))),
            ("Statistics", lambda: session.push(StatisticsScreen(session))),
            ("Settings", lambda: session.push(SettingsScreen(session))),
            ("Rules & controls", lambda: session.push(HelpScreen(session))),
        ]
        if session.can_quit:
            lines.append(("Quit", session.quit))
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
        super().__init__(session)

    def _saved_games(self) -> dict[str, Progress | None]:
        """The games that can be continued: read when the menu shows, not on every frame."""
        return {game: self.session.store.load_progress(game) for game in CONTINUE}

    def resume(self) -> None:
        """Back on the main menu. After a game was played or started, the highlight is on its
        Continue line, so one more ✓ resumes it rather than dealing over it; when a Continue
        line went away, it goes back to the top."""
        before, saved = self._saved, self._saved_games()
        self._saved = saved
        changed = [game for game in CONTINUE if saved[game] is not None and saved[game] != before[game]]
        if changed:
            self.selected = self.items().index(CONTINUE[changed[0]])
        elif any((saved[game] is None) != (before[game] is None) for game in CONTINUE):
            self.selected = 0

    def leave(self) -> None:
        """The main menu is the bottom of the stack: there is nothing above it."""


class VariantMenu(MenuScreen):
    """Which rules to play: every preset of docs/rules.md; the choice is remembered."""

    name = "variant_choice"
    title = "Variant"

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        names = list(PRESETS)
        self.selected = names.index(session.rules.name) if session.rules.name in names else 0

    def items(self) -> list[str]:
        return [rules.title for rules in PRESETS.values()]

    def choose(self, index: int) -> None:
        self.session.choose_rules(list(PRESETS)[index])
        self.session.pop()

    def footer(self) -> str:
        return VARIANT_LINES.get(list(PRESETS)[self.selected], "")


class DealNumberScreen(NumberEntryScreen):
    """A numbered deal: the same cards on every console (docs/rules.md, "Cards and deals")."""

    name = "deal_number"
    title = "Deal number"
    verb = "deal"

    def accept(self, number: int) -> None:
        self.session.pop()
        _game_screen().new_game(self.session, number)


class StatisticsScreen(PagedScreen):
    """Played, won, win rate, best score and streaks per rules, a page at a time; ✓ offers to reset them."""

    name = "statistics"

    def __init__(self, session: Console) -> None:
        super().__init__(session, "Statistics", self.sections(session))

    @staticmethod
    def sections(session: Console) -> Sections:
        from pyramid.saved.stats import daily_streaks  # loaded with this screen, not before the menu

        sections: list[tuple[str, tuple[str, ...]]] = []
        days = session.store.daily_results()
        if days:
            streaks = daily_streaks(days, session.today())
            sections.append(("Daily deals", (f"{len(days)} played, {sum(days.values())} won",
                                             f"In a row: {streaks.played} played, {streaks.won} won",
                                             f"Best: {streaks.best_played} played, {streaks.best_won} won")))
        for stats in session.store.all_stats():
            rate = "–" if stats.win_rate is None else f"{stats.win_rate:.0%}"
            best = "–" if stats.best_score is None else str(stats.best_score)
            lines = [f"Played {stats.played}, won {stats.won} ({rate}), best score {best}",
                     f"Win streak {stats.current_streak}, best streak {stats.best_streak}"]
            if stats.assisted_played:
                lines.append(f"Assisted: played {stats.assisted_played}, won {stats.assisted_won}")
            sections.append((describe_variant(stats.game, stats.variant), tuple(lines)))
        if not sections:
            sections.append(("No game finished yet", ("Statistics appear after your first game.",)))
        return tuple(sections)

    def answer(self, action: Action) -> None:
        if action.name in ("ok", "tap"):
            self.session.push(ConfirmScreen(self.session, "Reset all statistics?", "Reset", self.reset))
        elif action.name in ("back", "star"):
            self.session.pop()

    def reset(self) -> None:
        """Every statistic erased (a failure to save it is told like any other, after this action)."""
        self.session.store.reset_stats()

    def resume(self) -> None:
        self.set_sections(self.sections(self.session))

    def footer_hint(self) -> str:
        return "✓ reset"


class SettingsScreen(MenuScreen):
    """The player's settings: ◀ ▶ or ✓ change the value of the selected line.

    The last lines open pages of their own (the system information).
    """

    name = "settings"
    title = "Settings"
    PAGES: dict[str, Callable[[Console], Screen]] = {
        "Your name": lambda session: _duel_menus().your_name(session),
        "Controls": lambda session: ControlsScreen(session),
        "System": lambda session: SystemScreen(session),
    }
    SAFE_AREAS: tuple[int | None, ...] = (None, 0, 2, 4, 5, 6, 8, 10)

    def options(self) -> list[tuple[str, str, list[object]]]:
        """(label, setting name, values in order) for each line."""
        return [
            ("Card letters", "card_letters", ["french", "english"]),
            ("Suit colours", "four_colour_suits", [False, True]),
            ("Redeal question starts on", "redeal_default", ["none", "one", "unlimited"]),
            ("Winnable deals only", "winnable_only", [False, True]),
            ("TV safe area", "safe_area", list(self.SAFE_AREAS)),
        ]

    def items(self) -> list[str]:
        settings = self.session.settings
        lines = [f"{label}: {self.describe(name, getattr(settings, name))}" for label, name, _ in self.options()]
        return lines + list(self.PAGES)

    @staticmethod
    def describe(name: str, value: object) -> str:
        if name == "card_letters":
            return "French (V D R)" if value == "french" else "English (J Q K)"
        if name == "four_colour_suits":
            return "four" if value else "two"
        if name == "redeal_default":
            return {"none": "no redeal", "one": "one redeal", "unlimited": "unlimited"}[str(value)]
        if name == "winnable_only":
            return "on" if value else "off"
        if name == "safe_area":
            return "automatic" if value is None else f"{value}%"
        return str(value)

    def sideways(self, direction: int) -> None:
        if self.selected >= len(self.options()):
            return
        _, name, values = self.options()[self.selected]
        current = getattr(self.session.settings, name)
        index = values.index(current) if current in values else 0
        self.session.change_setting(name, values[(index + direction) % len(values)])

    def choose(self, index: int) -> None:
        if index < len(self.options()):
            self.sideways(1)
        else:
            self.session.push(self.PAGES[self.items()[index]](self.session))


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
        leaving = action.name in ("back", "star") and self.seen[-1:] == [str(action)]
        self.seen.append(str(action))
        if leaving:
            self.session.pop()

    def on_help(self) -> None:
        self.seen.append("help")

    def view(self) -> View:
        log = list(self.session.input_log()) or [f"{action} (no device information)" for action in self.seen]
        presses = tuple(reversed(log[-self.SHOWN:])) or ("Press any button…",)
        devices = tuple(self.session.input_devices()) or ("no input device reported",)
        sections = (("Last presses, newest first", presses), ("Devices", devices),
                    ("", ("Press Back twice to leave",)))
        return View(self.name, text=TextView("Controls", sections))


class SystemScreen(Screen):
    """What the owner needs to maintain the console: the version and where to SSH."""

    name = "system"

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "back", "star", "tap"):
            self.session.pop()

    def view(self) -> View:
        addresses = device_info.ip_addresses() or ["no network"]
        sections = (
            ("Software", (f"Pyramid console {device_info.software_version()}",)),
            ("Network", tuple(f"ssh pyramid@{address}" if ":" not in address else f"ssh pyramid@[{address}]"
                              for address in addresses)),
            ("Data", (str(self.session.store.location or "not saved (see the notice at start)"),)),
            ("Hardware", tuple(self.session.hardware) or ("unknown",)),
        )
        return View(self.name, text=TextView("System", sections))
