"""The console's game flow, UI-neutral: screens, menus, and what each action does.

One :class:`Session` owns everything the player can see. Input adapters give
it :class:`~pyramid.actions.Action` values; renderers read :meth:`Session.view`.
Screens form a stack: the main menu at the bottom, then whatever was opened
from it. Back and ✱ pop a screen, so "one screen up" is the same everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from .actions import Action
from .board import Board
from .cards import Card
from .deal import MAX_DEAL_NUMBER, numbered_deal
from .help_text import pyramid_help
from .play import Table
from .rules import RETROHUB, Rules
from .view import Hit, MenuHit, MenuView, PanelView, TextView, View

Locate = Callable[[int, int], Hit]

REDEAL_ITEMS: tuple[tuple[str, int | None], ...] = (
    ("No redeal", 0),
    ("One redeal", 1),
    ("Unlimited redeals", None),
)


@dataclass
class DealChoice:
    """Which cards the next game uses: a fixed deal, a numbered one, or a random number."""

    cards: tuple[Card, ...] | None = None
    number: int | None = None

    def take(self, rules: Rules, rng: random.Random) -> tuple[tuple[Card, ...], int | None]:
        """The cards for the next deal; a fixed choice is used once, then deals are random."""
        if self.cards is not None:
            cards, self.cards = self.cards, None
            return cards, None
        number = self.number if self.number is not None else rng.randint(1, MAX_DEAL_NUMBER)
        self.number = None
        return numbered_deal(number, rules.deck), number


class Screen:
    """One screen of the stack. Subclasses answer actions and describe themselves."""

    name = "screen"

    def __init__(self, session: "Session") -> None:
        self.session = session

    def handle(self, action: Action, hit: Hit) -> None:
        raise NotImplementedError

    def view(self) -> View:
        raise NotImplementedError

    def menu_state(self) -> dict[str, Any] | None:
        return None


class MenuScreen(Screen):
    """A list of lines: ▲ ▼ move, ✓ or a tap chooses, Back and ✱ go one screen up."""

    title = ""

    def __init__(self, session: "Session", selected: int = 0) -> None:
        super().__init__(session)
        self.selected = selected

    def items(self) -> list[str]:
        raise NotImplementedError

    def choose(self, index: int) -> None:
        raise NotImplementedError

    def leave(self) -> None:
        self.session.pop()

    def handle(self, action: Action, hit: Hit) -> None:
        count = len(self.items())
        if action.name in ("up", "down") and count:
            self.selected = (self.selected + (1 if action.name == "down" else -1)) % count
        elif action.name == "ok" and count:
            self.choose(self.selected)
        elif action.name == "tap" and isinstance(hit, MenuHit) and 0 <= hit.index < count:
            self.selected = hit.index
            self.choose(hit.index)
        elif action.name in ("back", "star"):
            self.leave()

    def view(self) -> View:
        return View(self.name, menu=MenuView(self.title, tuple(self.items()), self.selected))

    def menu_state(self) -> dict[str, Any]:
        return {"items": self.items(), "selected": self.selected}


class MainMenu(MenuScreen):
    name = "menu"
    title = "Pyramid"

    def items(self) -> list[str]:
        return ["Play Pyramid", "Rules & controls"]

    def choose(self, index: int) -> None:
        if index == 0:
            self.session.push(RedealChoice(self.session))
        else:
            self.session.push(HelpScreen(self.session))

    def leave(self) -> None:
        """The main menu is the bottom of the stack: there is nothing above it."""


class RedealChoice(MenuScreen):
    name = "redeal_choice"
    title = "Redeal the stock?"

    def items(self) -> list[str]:
        return [label for label, _ in REDEAL_ITEMS]

    def choose(self, index: int) -> None:
        self.session.start_pyramid(REDEAL_ITEMS[index][1], replace=self)


class HelpScreen(Screen):
    """Rules and controls; any of ✓, Back or ✱ closes it, changing nothing else."""

    name = "help"

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "back", "star", "tap"):
            self.session.pop()

    def view(self) -> View:
        return View(self.name, text=TextView("Rules & controls", pyramid_help(self.session.rules)))


class GameScreen(Screen):
    """The felt: cursor moves, picks, draws; ends with a panel when the deal is over."""

    name = "game"

    def __init__(self, session: "Session", table: Table, deal_number: int | None) -> None:
        super().__init__(session)
        self.table = table
        self.deal_number = deal_number

    @property
    def over(self) -> bool:
        return self.table.board.status() != "playing"

    def handle(self, action: Action, hit: Hit) -> None:
        if self.over:
            if action.name in ("ok", "star", "back", "tap"):
                self.session.pop()
            return
        if action.name in ("up", "down", "left", "right"):
            self.table.move_cursor(action.name)
        elif action.name == "ok" and self.table.cursor is not None:
            self.table.pick(self.table.cursor)
        elif action.name == "tap" and hit is not None and not isinstance(hit, MenuHit):
            self.table.pick(hit)
        elif action.name == "back" and self.table.cancel():
            pass
        elif action.name in ("back", "star"):
            self.session.pop()

    def view(self) -> View:
        title = f"Deal {self.deal_number}" if self.deal_number else ""
        table = self.table.view(title)
        panel = None
        status = self.table.board.status()
        if status == "cleared":
            panel = PanelView(f"Pyramid cleared, {self.table.board.score} points")
        elif status == "no_moves":
            panel = PanelView("No move left", (table.score_label,))
        return View("game_over" if panel else "game", table=table, panel=panel)


class Session:
    """The console's state: a stack of screens over the rules and the next deal."""

    def __init__(self, rules: Rules = RETROHUB, deal: DealChoice | None = None,
                 rng: random.Random | None = None) -> None:
        self.rules = rules
        self.deal = deal or DealChoice()
        self.rng = rng or random.Random()
        self.stack: list[Screen] = [MainMenu(self)]

    # -- the stack ----------------------------------------------------------
    @property
    def screen(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    # -- starting games -----------------------------------------------------
    def start_pyramid(self, redeals: int | None, replace: Screen | None = None) -> None:
        """Deal a new Pyramid game with ``redeals`` redeals (``None`` = unlimited)."""
        rules = self.rules.with_redeals(redeals)
        cards, number = self.deal.take(rules, self.rng)
        if replace is not None and self.screen is replace:
            self.stack.pop()
        self.push(GameScreen(self, Table(Board(cards, rules)), number))

    def open_game(self, game: str, redeals: int | None | str = "ask") -> None:
        """Skip the main menu (scripted mode's ``--game``): ask for redeals, or deal at once."""
        if game != "pyramid":
            raise ValueError(f"unknown game {game!r}")
        if redeals == "ask":
            self.push(RedealChoice(self))
        else:
            self.start_pyramid(redeals)  # type: ignore[arg-type]

    # -- actions and views --------------------------------------------------
    def handle(self, action: Action, locate: Locate | None = None) -> None:
        """Apply one action. Taps are located by the renderer's layout (``locate``)."""
        hit = locate(action.x, action.y) if action.name == "tap" and locate else None
        if action.name == "help" and not isinstance(self.screen, HelpScreen):
            self.push(HelpScreen(self))
            return
        self.screen.handle(action, hit)

    def view(self) -> View:
        return self.screen.view()

    def state(self) -> dict[str, Any]:
        """The scripted mode's state object (schema in the README)."""
        games = [s for s in self.stack if isinstance(s, GameScreen)]
        return {
            "screen": self.screen.view().screen,
            "menu": self.screen.menu_state(),
            "game": games[-1].table.state() if games else None,
        }
