"""The console's menus: main menu, redeal question, rules, deal number, settings, statistics.

Each is a small :class:`~pyramid.screen.MenuScreen`; what a line does is a
call on the session, so menus hold no game logic.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Callable

from pyramid.system import device_info
from pyramid.actions import Action
from pyramid.engine.deal import MAX_DEAL_NUMBER, daily_deal_number
from pyramid.console.help_text import Sections, paginate, pyramid_help
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES
from pyramid.console.screen import MenuScreen, Screen
from pyramid.view import Hit, MenuHit, MenuView, PanelView, TextView, View

if TYPE_CHECKING:
    from pyramid.console.session import DealRequest, Session


def _duel_menus() -> ModuleType:
    """The Pyramids menus, imported when first opened: they import this module, and
    the duel's engine is not needed to show the main menu (start-up time)."""
    from pyramid.console.duel import menus as duel_menus

    return duel_menus


class MainMenu(MenuScreen):
    name = "menu"
    title = "Pyramid"

    def lines(self) -> list[tuple[str, Callable[[], None]]]:
        session = self.session
        lines: list[tuple[str, Callable[[], None]]] = []
        if self._saved["pyramid"]:
            lines.append(("Continue", session.continue_game))
        if self._saved["pyramids"]:
            lines.append(("Continue Pyramids", lambda: _duel_menus().continue_pyramids(session)))
        lines += [
            ("New game", lambda: session.ask_redeals(None)),
            ("Daily deal", lambda: session.ask_redeals(daily_deal_number(session.today()))),
            ("Deal number", lambda: session.push(DealNumberScreen(session))),
            ("Pyramids", lambda: session.push(_duel_menus().PyramidsMenu(session))),
            (f"Variant: {session.rules.title}", lambda: session.push(VariantMenu(session))),
            ("Statistics", lambda: session.push(StatisticsScreen(session))),
            ("Settings", lambda: session.push(SettingsScreen(session))),
            ("Rules & controls", lambda: session.push(HelpScreen(session))),
        ]
        return lines

    def items(self) -> list[str]:
        return [label for label, _ in self.lines()]

    def choose(self, index: int) -> None:
        self.lines()[index][1]()

    def footer(self) -> str:
        return ""

    def __init__(self, session: "Session") -> None:
        self.session = session
        self._saved = self._saved_games()
        super().__init__(session)

    def _saved_games(self) -> dict[str, bool]:
        """Which games can be continued: read when the menu shows, not on every frame."""
        return {game: self.session.store.has_progress(game) for game in ("pyramid", "pyramids")}

    def resume(self) -> None:
        """Back on the main menu: when a "Continue" line came or went, start again at the top line."""
        saved = self._saved_games()
        if saved != self._saved:
            self.selected = 0
        self._saved = saved

    def leave(self) -> None:
        """The main menu is the bottom of the stack: there is nothing above it."""


class RedealChoice(MenuScreen):
    """ "Redeal the stock?" — asked before a RetroHub deal (SPEC §3)."""

    name = "redeal_choice"
    title = "Redeal the stock?"
    CHOICES = (("No redeal", "none"), ("One redeal", "one"), ("Unlimited redeals", "unlimited"))

    def __init__(self, session: "Session", deal: "DealRequest") -> None:
        super().__init__(session)
        self.deal = deal
        default = session.settings.redeal_default
        words = [word for _, word in self.CHOICES]
        if default in words:
            self.selected = words.index(default)

    def items(self) -> list[str]:
        return [label for label, _ in self.CHOICES]

    def choose(self, index: int) -> None:
        self.session.start_pyramid(REDEAL_CHOICES[self.CHOICES[index][1]], self.deal, replace=self)


class VariantMenu(MenuScreen):
    """Which rules to play: every preset of SPEC §4; the choice is remembered."""

    name = "variant_choice"
    title = "Variant"

    def __init__(self, session: "Session") -> None:
        super().__init__(session)
        names = list(PRESETS)
        self.selected = names.index(session.rules.name) if session.rules.name in names else 0

    def items(self) -> list[str]:
        return [rules.title for rules in PRESETS.values()]

    def choose(self, index: int) -> None:
        self.session.choose_rules(list(PRESETS)[index])
        self.session.pop()


class DealNumberScreen(Screen):
    """Typing a deal number with arrows only: ▲ ▼ change a digit, ◀ ▶ pick the digit."""

    name = "deal_number"
    DIGITS = len(str(MAX_DEAL_NUMBER))

    def __init__(self, session: "Session") -> None:
        super().__init__(session)
        self.digits = [0] * (self.DIGITS - 1) + [1]
        self.position = self.DIGITS - 1

    @property
    def number(self) -> int:
        return int("".join(map(str, self.digits)))

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("up", "down"):
            self.digits[self.position] = (self.digits[self.position] + (1 if action.name == "up" else -1)) % 10
        elif action.name in ("left", "right"):
            self.position = (self.position + (1 if action.name == "right" else -1)) % self.DIGITS
        elif action.name in ("ok", "tap") and 1 <= self.number <= MAX_DEAL_NUMBER:
            self.session.pop()
            self.session.ask_redeals(self.number)
        elif action.name in ("back", "star"):
            self.session.pop()

    def view(self) -> View:
        shown = "".join(f"[{d}]" if i == self.position else str(d) for i, d in enumerate(self.digits))
        valid = 1 <= self.number <= MAX_DEAL_NUMBER
        footer = "▲ ▼ change the digit, ◀ ▶ move, ✓ deal" if valid else f"Choose 1 to {MAX_DEAL_NUMBER}"
        return View(self.name, menu=MenuView("Deal number", (shown,), 0, footer))

    def menu_state(self) -> dict[str, object]:
        return {"items": [str(self.number)], "selected": 0}


class HelpScreen(Screen):
    """Rules and controls, a page at a time so the text stays legible on a 320x240 screen.

    ◀ ▶ (or ▲ ▼) turn the pages; ✓, Back, ✱ or help closes it, changing nothing else.
    """

    name = "help"

    def __init__(self, session: "Session", title: str = "Rules & controls",
                 sections: Sections | None = None) -> None:
        super().__init__(session)
        self.title = title
        self.pages = paginate(sections if sections is not None else pyramid_help(session.rules))
        self.page = 0

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("left", "up", "right", "down"):
            step = 1 if action.name in ("right", "down") else -1
            self.page = min(max(self.page + step, 0), len(self.pages) - 1)
        elif action.name in ("ok", "back", "star", "tap"):
            self.session.pop()

    def on_help(self) -> None:
        self.session.pop()

    def view(self) -> View:
        footer = f"◀ ▶ page {self.page + 1} of {len(self.pages)}" if len(self.pages) > 1 else ""
        return View(self.name, text=TextView(self.title, self.pages[self.page], footer))


class ConfirmScreen(MenuScreen):
    """A yes/no question over the screen below; "No" is selected first."""

    name = "confirm"

    def __init__(self, session: "Session", question: str, yes: str, on_yes: Callable[[], None]) -> None:
        super().__init__(session)
        self.question = question
        self.yes = yes
        self.on_yes = on_yes

    def items(self) -> list[str]:
        return ["No", self.yes]

    def choose(self, index: int) -> None:
        self.session.pop()
        if index == 1:
            self.on_yes()

    def view(self) -> View:
        below = self.session.stack[-2].view() if len(self.session.stack) > 1 else View(self.name)
        return View(self.name, table=below.table, text=below.text, menu=below.menu,
                    panel=PanelView(self.question, (), tuple(self.items()), self.selected))


class StatisticsScreen(Screen):
    """Played, won, win rate, best score and streaks per rules; ✓ offers to reset them."""

    name = "statistics"

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "tap"):
            self.session.push(ConfirmScreen(self.session, "Reset all statistics?", "Reset",
                                            self.session.store.reset_stats))
        elif action.name in ("back", "star"):
            self.session.pop()

    def view(self) -> View:
        sections = []
        for stats in self.session.store.all_stats():
            rate = "–" if stats.win_rate is None else f"{stats.win_rate:.0%}"
            best = "–" if stats.best_score is None else str(stats.best_score)
            lines = [f"Played {stats.played}, won {stats.won} ({rate}), best score {best}",
                     f"Win streak {stats.current_streak}, best streak {stats.best_streak}"]
            if stats.assisted_played:
                lines.append(f"Assisted: played {stats.assisted_played}, won {stats.assisted_won}")
            sections.append((self.session.describe_variant(stats.game, stats.variant), tuple(lines)))
        if not sections:
            sections.append(("No game finished yet", ("Statistics appear after your first game.",)))
        sections.append(("", ("✓ reset the statistics · Back to leave",)))
        return View(self.name, text=TextView("Statistics", tuple(sections)))


class SettingsScreen(MenuScreen):
    """The player's settings: ◀ ▶ or ✓ change the value of the selected line.

    The last lines open pages of their own (the system information).
    """

    name = "settings"
    title = "Settings"
    PAGES: dict[str, Callable[["Session"], Screen]] = {
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

    def __init__(self, session: "Session") -> None:
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


class NoticeScreen(Screen):
    """A message the player must see once (damaged data put aside, nothing saved, …)."""

    name = "notice"

    def __init__(self, session: "Session", title: str, text: str) -> None:
        super().__init__(session)
        self.title = title
        self.text = text

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "back", "star", "tap") or isinstance(hit, MenuHit):
            self.session.pop()

    def view(self) -> View:
        below = self.session.stack[-2].view()
        return View(self.name, menu=below.menu, table=below.table,
                    panel=PanelView(self.title, (self.text,), ("OK",), 0))

    def menu_state(self) -> dict[str, object]:
        return {"items": ["OK"], "selected": 0}
