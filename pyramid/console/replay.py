"""Watching a line of play move by move: a solution, or an opponent's game.

▶ or ✓ plays the next move, ◀ takes it back, Back or ✱ leaves. The moves
are replayed through the engine, so what is shown is always a legal game.
The screen works on any game: it is given a table over a fresh
:class:`~pyramid.engine.game.Game` and the moves to push onto it.
"""

from __future__ import annotations

from typing import Generic, Protocol, Sequence

from pyramid.actions import Action
from pyramid.console.screen import Console, Screen
from pyramid.engine.game import Game, MoveT
from pyramid.view import Hit, TableView, View


class WatchedTable(Protocol[MoveT]):
    """A game's table as the replay needs it: the board, and how it looks."""

    @property
    def board(self) -> Game[MoveT]: ...

    def view(self, title: str = "") -> TableView: ...


class ReplayScreen(Screen, Generic[MoveT]):
    name = "replay"

    def __init__(self, session: Console, table: WatchedTable[MoveT], moves: Sequence[MoveT], title: str) -> None:
        super().__init__(session)
        self.table = table
        self.moves = list(moves)
        self.title = title
        self.step = 0

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("right", "ok", "tap") and self.step < len(self.moves):
            self.table.board.push(self.moves[self.step])
            self.step += 1
        elif action.name == "left" and self.step > 0:
            self.table.board.pop()
            self.step -= 1
        elif action.name in ("back", "star"):
            self.session.pop()

    def view(self) -> View:
        table = self.table.view(self.title)
        if self.step < len(self.moves):
            line = f"Step {self.step} of {len(self.moves)}: ▶ next, ◀ back"
        else:
            line = f"Done in {len(self.moves)} steps: Back to leave"
        return View(self.name, table=table._replace(status_line=line, cursor=None))
