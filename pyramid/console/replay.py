"""Watching a line of play move by move: a solution, or an opponent's game.

▶ or ✓ plays the next move, ◀ takes it back, Back or ✱ leaves. The moves
are replayed through the engine, so what is shown is always a legal game.
The screen works on any game: it is given a table over a fresh
:class:`~pyramid.engine.game.Game` and the moves to push onto it.
"""

from __future__ import annotations

from typing import Generic, Protocol, Sequence

from pyramid.console.catalogue import say, say_count
from pyramid.actions import Action, Kind
from pyramid.console.protocols import Console
from pyramid.console.screen import Screen
from pyramid.engine.game import Game, MoveT
from pyramid.view import Hit, TableView, Target, View


#: Seconds between two moves when a replay plays by itself, from the fastest to the slowest pace.
PACES = (0.15, 0.3, 0.5, 1.0, 1.6)
#: The pace a replay starts at: about three moves a second, each pair still highlighted before it
#: leaves (issue 29: a move a second made a 50-move solution last nearly a minute); ▲ ▼ change it.
START_PACE = 1


class WatchedTable(Protocol[MoveT]):
    """A game's table as the replay needs it: the board, how it looks, where a move's cards lie."""

    @property
    def board(self) -> Game[MoveT]: ...

    def view(self, title: str = "") -> TableView: ...

    def targets_of(self, move: MoveT) -> tuple[Target, ...]: ...


class ReplayScreen(Screen, Generic[MoveT]):
    """A line of play shown move by move, by itself at a readable pace.

    The next move is always highlighted (the pair before it leaves, the stock
    before it turns). ✓ pauses and plays on; ▶ and ◀ step (and pause); ▲
    plays faster, ▼ slower; Back or ✱ leaves.
    """

    name = "replay"

    def __init__(self, session: Console, table: WatchedTable[MoveT], moves: Sequence[MoveT], title: str) -> None:
        super().__init__(session)
        self.table = table
        self.moves = list(moves)
        self.title = title
        self.step = 0
        self.pace = START_PACE
        #: When the next move plays by itself (``None`` while paused).
        self.next_at: float | None = session.clock() + PACES[self.pace]

    @property
    def playing(self) -> bool:
        return self.next_at is not None

    def forward(self) -> None:
        if self.step < len(self.moves):
            self.table.board.push(self.moves[self.step])
            self.step += 1

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.OK, Kind.TAP):
            self.next_at = None if self.playing else self.session.clock() + PACES[self.pace]
        elif action.kind is Kind.RIGHT:
            self.next_at = None
            self.forward()
        elif action.kind is Kind.LEFT and self.step > 0:
            self.next_at = None
            self.table.board.pop()
            self.step -= 1
        elif action.kind in (Kind.UP, Kind.DOWN):
            self.pace = min(max(self.pace + (-1 if action.kind is Kind.UP else 1), 0), len(PACES) - 1)
            if self.playing:
                self.next_at = self.session.clock() + PACES[self.pace]
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def due(self) -> float | None:
        return self.next_at if self.step < len(self.moves) else None

    def tick(self) -> None:
        self.forward()
        if self.next_at is not None:
            self.next_at = self.session.clock() + PACES[self.pace]

    def view(self) -> View:
        table = self.table.view(self.title)
        if self.step < len(self.moves):
            keys = say("replay.pause") if self.playing else say("replay.play")
            line = say("replay.step", step=self.step, steps=len(self.moves), keys=keys)
            table = table._replace(hint=self.table.targets_of(self.moves[self.step]))
        else:
            line = say_count("replay.done", len(self.moves))
        return View(self.name, table=table._replace(status_line=line, cursor=None))
