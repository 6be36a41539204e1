"""The two kinds of screen every part of the console is built from.

A :class:`Screen` answers actions and describes itself as a
:class:`~pyramid.view.View`; a :class:`MenuScreen` is a list of lines chosen
with ▲ ▼ ✓ or a tap. Back and ✱ leave a screen ("one screen up"), so the
same keys behave the same everywhere.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from pyramid.actions import Action
from pyramid.view import Hit, MenuHit, MenuView, View

if TYPE_CHECKING:
    from pyramid.console.session import Session


class Screen(ABC):
    """One screen of the session's stack."""

    name = "screen"

    def __init__(self, session: "Session") -> None:
        self.session = session

    @abstractmethod
    def handle(self, action: Action, hit: Hit) -> None:
        """Answer one action (``hit``: what a tap landed on)."""

    @abstractmethod
    def view(self) -> View:
        """What the screen shows now."""

    def menu_state(self) -> dict[str, Any] | None:
        """The scripted mode's ``menu`` object: the lines a player can choose now."""
        return None

    def game_state(self) -> dict[str, Any] | None:
        """The scripted mode's ``game`` object, for screens that hold a game."""
        return None

    def resume(self) -> None:
        """Called when the screen above this one closes (menus refresh their lines)."""

    def on_help(self) -> None:
        """``help`` opens the rules and controls, over whatever is on screen."""
        from pyramid.console.menus import HelpScreen

        self.session.push(HelpScreen(self.session))


class MenuScreen(Screen):
    """A list of lines: ▲ ▼ move, ✓ or a tap chooses, Back and ✱ go one screen up.

    ``remember`` names the menu in the player's settings so the line chosen
    last is selected again next time.
    """

    title = ""
    remember: str | None = None

    def __init__(self, session: "Session", selected: int = 0) -> None:
        super().__init__(session)
        self.selected = selected
        if self.remember:
            last = session.settings.menu_choices.get(self.remember)
            if last in self.items():
                self.selected = self.items().index(last)

    @abstractmethod
    def items(self) -> list[str]:
        """The lines, in order."""

    @abstractmethod
    def choose(self, index: int) -> None:
        """Line ``index`` was chosen."""

    def footer(self) -> str:
        return ""

    def leave(self) -> None:
        self.session.pop()

    def sideways(self, direction: int) -> None:
        """◀ ▶ on a line: nothing on plain menus; settings use it to change a value."""

    def handle(self, action: Action, hit: Hit) -> None:
        count = len(self.items())
        if action.name in ("up", "down") and count:
            self.selected = (self.selected + (1 if action.name == "down" else -1)) % count
        elif action.name in ("left", "right") and count:
            self.sideways(1 if action.name == "right" else -1)
        elif action.name == "ok" and count:
            self._choose(self.selected)
        elif action.name == "tap" and isinstance(hit, MenuHit) and 0 <= hit.index < count:
            self.selected = hit.index
            self._choose(hit.index)
        elif action.name in ("back", "star"):
            self.leave()

    def _choose(self, index: int) -> None:
        if self.remember:
            self.session.remember_choice(self.remember, self.items()[index])
        self.choose(index)

    def resume(self) -> None:
        self.selected = min(self.selected, max(len(self.items()) - 1, 0))

    def view(self) -> View:
        return View(self.name, menu=MenuView(self.title, tuple(self.items()), self.selected, self.footer()))

    def menu_state(self) -> dict[str, Any]:
        return {"items": self.items(), "selected": self.selected}
