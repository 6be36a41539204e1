"""The Pyramid table as a screen: play, assists, the end panel, and saving as you go.

Every completed move is saved at once (a handheld is switched off at any
moment); the result goes into the statistics as soon as the deal is over.
Assists (hint, undo) mark the game as assisted, which the statistics count
apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramid.actions import Action
from pyramid.engine.board import Board, Move
from pyramid.engine.cards import ENGLISH_FACE_LETTERS, FRENCH_FACE_LETTERS, Card
from pyramid.saved.errors import ReplayError
from pyramid.console.help_text import pyramid_help
from pyramid.saved.progress import Progress, replay
from pyramid.console.table import Table
from pyramid.engine.rules import format_redeals
from pyramid.console.screen import MenuScreen, Screen
from pyramid.saved.stats import GameResult
from pyramid.view import Hit, MenuHit, PanelView, Target, View

if TYPE_CHECKING:
    from pyramid.console.session import Session
    from pyramid.engine.solver import Solution
    from pyramid.saved.store import Store

#: Seconds the solver may think for a hint or a verdict (a Pi is ~10x slower than a PC).
SOLVER_SECONDS = 3.0
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def solve(board: Board) -> "Solution":
    """The solver within the console's time budget; loaded on first use (start-up time)."""
    from pyramid.engine.solver import solve as solve_within

    return solve_within(board, max_seconds=SOLVER_SECONDS)


def variant_key(board: Board) -> str:
    """The statistics key of a game: preset and redeal allowance ("retrohub/one")."""
    return f"{board.rules.name}/{format_redeals(board.rules.redeals)}"


def card_name(card: Card, letters: str) -> str:
    faces = FRENCH_FACE_LETTERS if letters == "french" else ENGLISH_FACE_LETTERS
    rank = faces.get(card.rank) or ("A" if card.rank == 1 else str(card.rank))
    return rank + SUIT_SYMBOLS.get(card.suit, card.suit)


def describe_move(move: Move, letters: str) -> str:
    if move.kind == "draw":
        return "turn the stock"
    if move.kind == "redeal":
        return "redeal the stock"
    return " + ".join(card_name(card, letters) for card in move.cards)


def result_of(progress: Progress, board: Board) -> GameResult:
    """How a game ended (or was abandoned), for the statistics."""
    cards_left = board.rules.scoring == "cards_left"
    score = board.cards_left() if cards_left else board.score
    return GameResult("pyramid", variant_key(board), board.status() == "cleared", score,
                      progress.assisted, not cards_left)


def record_abandoned(store: "Store", progress: Progress) -> None:
    """Count a saved game that the player replaced by a new deal (a loss, unless it was over)."""
    try:
        board = replay(progress)
    except ReplayError:
        store.clear_progress(progress.game)
        return
    store.record_result(result_of(progress, board))


class GameScreen(Screen):
    """The felt: cursor moves, picks and draws; an end panel when the deal is over."""

    name = "game"
    END_ITEMS_WON = ("Back to the menu",)

    def __init__(self, session: "Session", table: Table, progress: Progress) -> None:
        super().__init__(session)
        self.table = table
        self.progress = progress
        self.message = ""
        self.hint: tuple[Target, ...] = ()
        self.recorded = False
        self.from_start: Solution | None = None
        self.end_selected = 0
        self._check_end()

    @property
    def board(self) -> Board:
        return self.table.board

    @property
    def over(self) -> bool:
        return self.board.status() != "playing"

    # -- actions ------------------------------------------------------------
    def handle(self, action: Action, hit: Hit) -> None:
        if self.over:
            self._handle_end(action, hit)
            return
        self.message, self.hint = "", ()
        if action.name in ("up", "down", "left", "right"):
            self.table.move_cursor(action.name)
        elif action.name == "ok" and self.table.cursor is not None:
            self._played(self.table.pick(self.table.cursor))
        elif action.name == "tap" and hit is not None and not isinstance(hit, MenuHit):
            self._played(self.table.pick(hit))
        elif action.name == "back" and self.table.cancel():
            pass
        elif action.name in ("back", "star"):
            self.session.pop()

    def on_help(self) -> None:
        if self.over:
            super().on_help()
        else:
            self.session.push(AssistPanel(self.session, self))

    def _played(self, move: Move | None) -> None:
        if move is None:
            return
        self.progress = self.progress.with_move(move)
        self.session.store.save_progress(self.progress)
        self._check_end()

    def _check_end(self) -> None:
        """Count the result once, as soon as the deal is over, and judge the deal."""
        status = self.board.status()
        if status == "playing" or self.recorded:
            return
        self.recorded = True
        self.session.store.record_result(result_of(self.progress, self.board))
        if status != "cleared":
            self.from_start = solve(Board(self.board.deal, self.board.rules))

    # -- assists ------------------------------------------------------------
    def give_hint(self) -> None:
        self.progress = self.progress.with_assist("hint")
        self.session.store.save_progress(self.progress)
        solution = solve(self.board)
        if solution.verdict == "lose":
            self.message = "This deal can no longer be won."
        elif solution.verdict == "unknown":
            self.message = "No hint found in time."
        else:
            move = solution.moves[0]
            self.message = "Hint: " + describe_move(move, self.session.settings.card_letters)
            self.hint = self._targets_of(move)
            self.table.cursor = self.hint[0]

    def _targets_of(self, move: Move) -> tuple[Target, ...]:
        if move.kind != "remove":
            return ("stock",)
        targets: list[Target] = []
        for card in move.cards:
            index = self.board.index_of(card)
            targets.append(index if index is not None else ("waste" if card == self.board.waste_top else "stock"))
        return tuple(targets)

    def undo(self) -> None:
        if self.table.undo() is None:
            self.message = "Nothing to undo."
            return
        self.progress = self.progress.without_last_move().with_assist("undo")
        self.session.store.save_progress(self.progress)

    # -- the end ------------------------------------------------------------
    def end_items(self) -> tuple[str, ...]:
        if self.from_start is not None and self.from_start.verdict == "win":
            return ("Back to the menu", "Watch the solution")
        return self.END_ITEMS_WON

    def _handle_end(self, action: Action, hit: Hit) -> None:
        items = self.end_items()
        if action.name in ("up", "down"):
            self.end_selected = (self.end_selected + (1 if action.name == "down" else -1)) % len(items)
            return
        if action.name == "tap" and isinstance(hit, MenuHit) and 0 <= hit.index < len(items):
            self.end_selected = hit.index
            action = Action("ok")
        if action.name == "ok" and items[self.end_selected] == "Watch the solution":
            from pyramid.console.replay import ReplayScreen

            assert self.from_start is not None
            self.session.push(ReplayScreen(self.session, Board(self.board.deal, self.board.rules),
                                           self.from_start.moves, "Solution"))
        elif action.name in ("ok", "star", "back", "tap"):
            self.session.pop()

    def end_panel(self) -> PanelView | None:
        status = self.board.status()
        if status == "cleared":
            if self.board.rules.scoring == "cards_left":
                return PanelView("Pyramid cleared", ("0 cards left",), self.end_items(), self.end_selected)
            return PanelView(f"Pyramid cleared, {self.board.score} points", (), self.end_items(), self.end_selected)
        if status == "no_moves":
            lines = [self.table.view().score_label]
            verdict = self.from_start.verdict if self.from_start else "unknown"
            lines.append({"win": "This deal could be won from the start.",
                          "lose": "This deal could not be won.",
                          "unknown": "The solver could not judge this deal in time."}[verdict])
            return PanelView("No move left", tuple(lines), self.end_items(), self.end_selected)
        return None

    # -- views --------------------------------------------------------------
    def title(self) -> str:
        number = self.progress.deal_number
        name = self.board.rules.title
        return f"{name} · deal {number}" if number else name

    def view(self) -> View:
        table = self.table.view(self.title())
        if self.message or self.hint or self.progress.assisted:
            status = self.message or ("Assisted game" if self.progress.assisted else "")
            table = table._replace(status_line=status, hint=self.hint)
        panel = self.end_panel()
        return View("game_over" if panel else "game", table=table, panel=panel)

    def menu_state(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"items": list(self.end_items()), "selected": self.end_selected}

    def game_state(self) -> dict[str, Any]:
        return self.table.state()


class AssistPanel(MenuScreen):
    """The panel ``help`` opens during a game: Resume, Hint, Undo, Rules & controls."""

    name = "assists"
    title = "Paused"
    ITEMS = ("Resume", "Hint", "Undo", "Rules & controls")

    def __init__(self, session: "Session", game: GameScreen) -> None:
        super().__init__(session)
        self.game = game

    def items(self) -> list[str]:
        return list(self.ITEMS)

    def choose(self, index: int) -> None:
        choice = self.ITEMS[index]
        if choice == "Rules & controls":
            from pyramid.console.menus import HelpScreen

            self.session.push(HelpScreen(self.session, sections=pyramid_help(self.game.board.rules)))
            return
        self.session.pop()
        if choice == "Hint":
            self.game.give_hint()
        elif choice == "Undo":
            self.game.undo()

    def on_help(self) -> None:
        self.session.pop()

    def view(self) -> View:
        under = self.game.view()
        return View(self.name, table=under.table,
                    panel=PanelView(self.title, (), tuple(self.items()), self.selected))
