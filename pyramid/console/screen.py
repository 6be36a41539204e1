"""The kinds of screen every part of the console is built from, and what they may ask of the console.

A :class:`Screen` answers actions and describes itself as a
:class:`~pyramid.view.View`; a :class:`MenuScreen` is a list of lines chosen
with ▲ ▼ ✓ or a tap. Back and ✱ leave a screen ("one screen up"), so the
same keys behave the same everywhere.

Screens reach the rest of the console only through
:class:`~pyramid.console.protocols.Console` (``console/protocols.py``, with the network's
protocols); nothing here imports the session, so every screen module can be imported on its own
and the flow has no import cycle, type-only imports counted.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import letters_for, say
from pyramid.console.help_text import Sections, paginate, pyramid_help
from pyramid.console.protocols import Console
from pyramid.console.wording import variant_title
from pyramid.view import Hit, MenuHit, MenuView, PanelView, TextView, View

class LineChoice(NamedTuple):
    """What an action did to a list of lines in a panel: the line highlighted, and whether it was chosen."""

    selected: int
    chosen: bool


def choose_line(action: Action, hit: Hit, selected: int, count: int) -> LineChoice | None:
    """The lines of a panel the same everywhere: ▲ ▼ move the highlight round them, ✓ or a tap on a
    line chooses; a tap beside them changes nothing. ``None``: the action is not about the lines."""
    if action.kind in (Kind.UP, Kind.DOWN):
        return LineChoice((selected + (1 if action.kind is Kind.DOWN else -1)) % count, False)
    if action.kind is Kind.TAP:
        if isinstance(hit, MenuHit) and 0 <= hit.index < count:
            return LineChoice(hit.index, True)
        return LineChoice(selected, False)
    if action.kind is Kind.OK:
        return LineChoice(selected, True)
    return None


class Screen(ABC):
    """One screen of the console's stack."""

    name = "screen"
    #: Whether a keyboard's typing reaches this screen (``type:X``, and ``erase`` deleting a
    #: character); elsewhere ``erase`` is ``back`` and typed characters are ignored.
    takes_text = False

    def __init__(self, session: Console) -> None:
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

    def news(self) -> None:
        """News from the network was taken (the main loop draws after it): a screen that shows
        something live takes it here, never while it draws."""

    def due(self) -> float | None:
        """When the screen next moves by itself (a ``clock`` time), or ``None``: it waits for the player."""
        return None

    def tick(self) -> None:
        """The time :meth:`due` gave has come."""

    def on_help(self) -> None:
        """``help`` opens the rules and controls, over whatever is on screen."""
        self.session.push(HelpScreen(self.session))

    def view_below(self) -> View:
        """The view of the screen under this one, for panels drawn over it."""
        below = self.session.screen_below(self)
        return below.view() if below is not None else View(self.name)


class MenuScreen(Screen):
    """A list of lines: ▲ ▼ move, ✓ or a tap chooses, Back and ✱ go one screen up.

    ``remember`` names the menu in the player's settings so the line chosen
    last is selected again next time.
    """

    #: The catalogue key of the menu's title (``""``: none); :meth:`heading` words titles that vary.
    title_key = ""
    remember: str | None = None

    def __init__(self, session: Console, selected: int = 0) -> None:
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

    def heading(self) -> str:
        """The title, in the current language."""
        return say(self.title_key) if self.title_key else ""

    def footer(self) -> str:
        return ""

    def leave(self) -> None:
        self.session.pop()

    def sideways(self, direction: int) -> None:
        """◀ ▶ on a line: nothing on plain menus; settings use it to change a value."""

    def handle(self, action: Action, hit: Hit) -> None:
        count = len(self.items())
        if action.kind in (Kind.UP, Kind.DOWN) and count:
            self.selected = (self.selected + (1 if action.kind is Kind.DOWN else -1)) % count
        elif action.kind in (Kind.LEFT, Kind.RIGHT) and count:
            self.sideways(1 if action.kind is Kind.RIGHT else -1)
        elif action.kind is Kind.OK and count:
            self._choose(self.selected)
        elif action.kind is Kind.TAP and isinstance(hit, MenuHit) and 0 <= hit.index < count:
            self.selected = hit.index
            self._choose(hit.index)
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.leave()

    def _choose(self, index: int) -> None:
        if self.remember:
            self.session.remember_choice(self.remember, self.items()[index])
        self.choose(index)

    def resume(self) -> None:
        self.selected = min(self.selected, max(len(self.items()) - 1, 0))

    def view(self) -> View:
        return View(self.name, menu=MenuView(self.heading(), tuple(self.items()), self.selected, self.footer()))

    def menu_state(self) -> dict[str, Any]:
        return {"items": self.items(), "selected": self.selected}


class LiveLine(NamedTuple):
    """A line of a :class:`LiveMenuScreen`: what it is (``key``, stable while it stays), its words and its choice."""

    key: Hashable
    label: str
    choose: Callable[[], None]


class LiveMenuScreen(MenuScreen):
    """A menu whose lines come and go while it is shown (tables announced and withdrawn, consoles to invite).

    The highlight is kept as the key of its line, not as a line number: when
    lines come or go it stays on its line, so a table that appears above "Open a
    table" never takes the ✓ meant for it. When the highlighted line itself goes,
    the line that takes its place is highlighted (never past the end).
    """

    def __init__(self, session: Console, selected: int = 0) -> None:
        self._key: Hashable = None
        self._index = 0
        super().__init__(session, selected)

    @abstractmethod
    def live_lines(self) -> list[LiveLine]:
        """The lines now, in order."""

    @property
    def selected(self) -> int:
        """The highlighted line's number now (read while drawing: nothing changes here)."""
        keys = [line.key for line in self.live_lines()]
        return keys.index(self._key) if self._key in keys else self.in_place_of_gone(keys)

    @selected.setter
    def selected(self, index: int) -> None:
        lines = self.live_lines()
        self._index = min(max(index, 0), max(len(lines) - 1, 0))
        self._key = lines[self._index].key if lines else None

    def in_place_of_gone(self, keys: list[Hashable]) -> int:
        """The line to highlight when the highlighted one went: the one in its place (never past the end)."""
        return min(self._index, max(len(keys) - 1, 0))

    def news(self) -> None:
        """Lines may have come or gone: the highlight follows its line (module note); when that line
        went, the one in its place (or the last) takes the highlight, and keeps it from then on."""
        self.selected = self.selected

    def resume(self) -> None:
        self.news()

    def items(self) -> list[str]:
        return [line.label for line in self.live_lines()]

    def choose(self, index: int) -> None:
        self.live_lines()[index].choose()


class PagedScreen(Screen):
    """Text a page at a time, so it stays legible on a 320x240 screen: ◀ ▶ (or ▲ ▼) turn the pages.

    What the other keys do is the subclass's :meth:`answer`; :meth:`footer_hint`
    adds to the page count at the bottom.
    """

    def __init__(self, session: Console, title: str, sections: Sections) -> None:
        super().__init__(session)
        self.title = title
        self.pages = paginate(sections)
        self.page = 0

    def set_sections(self, sections: Sections) -> None:
        """New text (statistics after a reset), staying on the same page when it still exists."""
        self.pages = paginate(sections)
        self.page = min(self.page, len(self.pages) - 1)

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.LEFT, Kind.UP, Kind.RIGHT, Kind.DOWN):
            step = 1 if action.kind in (Kind.RIGHT, Kind.DOWN) else -1
            self.page = min(max(self.page + step, 0), len(self.pages) - 1)
        else:
            self.answer(action)

    @abstractmethod
    def answer(self, action: Action) -> None:
        """Any action but the arrows."""

    def footer_hint(self) -> str:
        return ""

    def view(self) -> View:
        parts = [say("page.of", page=self.page + 1, pages=len(self.pages))] if len(self.pages) > 1 else []
        parts += [self.footer_hint()] if self.footer_hint() else []
        return View(self.name, text=TextView(self.title, self.pages[self.page], " · ".join(parts)))


class HelpScreen(PagedScreen):
    """Rules and controls; ✓, Back, ✱ or help closes it, changing nothing else."""

    name = "help"

    def __init__(self, session: Console, title: str | None = None, sections: Sections | None = None) -> None:
        """``title`` and ``sections`` default to the rules of the variant the menu is on, named."""
        named = say("help.title_of", variant=variant_title(session.rules.name))
        super().__init__(session, named if title is None else title,
                         sections if sections is not None
                         else pyramid_help(session.rules, letters_for(session.settings.card_letters)))

    def answer(self, action: Action) -> None:
        if action.kind in (Kind.OK, Kind.BACK, Kind.STAR, Kind.TAP):
            self.session.pop()

    def on_help(self) -> None:
        self.session.pop()


class NoticeScreen(Screen):
    """A message the player must see once (damaged data put aside, nothing saved, …)."""

    name = "notice"

    def __init__(self, session: Console, title: str, text: str) -> None:
        super().__init__(session)
        self.title = title
        self.text = text

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.OK, Kind.BACK, Kind.STAR, Kind.TAP) or isinstance(hit, MenuHit):
            self.session.pop()

    def view(self) -> View:
        below = self.view_below()
        return View(self.name, menu=below.menu, table=below.table,
                    panel=PanelView(self.title, (self.text,), (say("notice.ok"),), 0))

    def menu_state(self) -> dict[str, object]:
        return {"items": [say("notice.ok")], "selected": 0}
