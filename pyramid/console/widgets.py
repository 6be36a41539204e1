"""Screens that several menus share: a number typed with the arrows, a yes/no question.

They know nothing of what the number or the answer is for: the screen that
opens them says what happens next, so Pyramid's deal number and the duel's
match number are the same widget.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Callable

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import say
from pyramid.console.digits import DigitEntry, DigitField
from pyramid.console.protocols import Console
from pyramid.console.screen import MenuScreen, Screen
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.view import Hit, MenuView, PanelView, View


class NumberEntryScreen(Screen):
    """Typing a number from 1 to :data:`MAX_DEAL_NUMBER`, digit by digit (:class:`~pyramid.console.digits.DigitEntry`).

    ▲ ▼ change a digit, ◀ ▶ pick the digit, digits typed on a keyboard come in
    on the right, ✓ (or a tap) takes the number, Back or ✱ leave without one.
    """

    DIGITS = len(str(MAX_DEAL_NUMBER))
    takes_text = True
    title_key = "number.title"
    #: The catalogue key of what ✓ does, in the footer ("deal", "choose").
    verb_key = "number.verb"

    def __init__(self, session: Console) -> None:
        super().__init__(session)
        self.entry = DigitEntry([DigitField(self.DIGITS, 1, MAX_DEAL_NUMBER)], [1], self.DIGITS - 1)

    @property
    def number(self) -> int:
        return self.entry.values[0]

    @abstractmethod
    def accept(self, number: int) -> None:
        """The player took ``number`` (always valid)."""

    def handle(self, action: Action, hit: Hit) -> None:
        entry = self.entry
        if entry.edit(action):
            return
        if action.kind in (Kind.OK, Kind.TAP) and entry.valid:
            self.accept(self.number)
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def view(self) -> View:
        footer = (say("number.keys", verb=say(self.verb_key)) if self.entry.valid
                  else say("number.range", largest=MAX_DEAL_NUMBER))
        return View(self.name, menu=MenuView(say(self.title_key), tuple(self.entry.shown()), 0, footer))

    def menu_state(self) -> dict[str, object]:
        return {"items": [str(self.number)], "selected": 0}


class ConfirmScreen(MenuScreen):
    """A yes/no question over the screen below; "No" is selected first."""

    name = "confirm"

    def __init__(self, session: Console, question: str, yes: str, on_yes: Callable[[], None],
                 detail: tuple[str, ...] = ()) -> None:
        super().__init__(session)
        self.question = question
        self.yes = yes
        self.on_yes = on_yes
        #: What saying yes costs ("Your game in progress will count as lost.").
        self.detail = detail

    def items(self) -> list[str]:
        return [say("confirm.no"), self.yes]

    def choose(self, index: int) -> None:
        self.session.pop()
        if index == 1:
            self.on_yes()

    def view(self) -> View:
        below = self.view_below()
        return View(self.name, table=below.table, text=below.text, menu=below.menu,
                    panel=PanelView(self.question, self.detail, tuple(self.items()), self.selected))
