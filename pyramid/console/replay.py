"""Watching a line of play move by move: a solution, or an opponent's game.

▶ or ✓ plays the next move, ◀ takes it back, Back or ✱ leaves. The moves
are replayed through the engine, so what is shown is always a legal game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from pyramid.actions import Action
from pyramid.engine.board import Board, Move
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.console.duel.table import DuelTable
from pyramid.console.table import Table
from pyramid.console.screen import Screen
from pyramid.view import Hit, View

if TYPE_CHECKING:
    from pyramid.console.session import Session


class ReplayScreen(Screen):
    name = "replay"

    def __init__(self, session: "Session", start: Board | DuelBoard, moves: Sequence[Move | DuelMove],
                 title: str) -> None:
        super().__init__(session)
        self.table: Table | DuelTable = (
            DuelTable(start, session.settings.card_letters) if isinstance(start, DuelBoard) else Table(start)
        )
        self.moves = list(moves)
        self.title = title
        self.step = 0

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("right", "ok", "tap") and self.step < len(self.moves):
            self.table.board.push(self.moves[self.step])  # type: ignore[arg-type]
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
