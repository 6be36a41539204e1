"""What the solver proved during one game, remembered so that it is not asked twice.

A console asks the solver about the same deal again and again: at each hint,
and at the end for the solution it shows. On the hardest deals one search
takes seconds on a Pi Zero 2, but two facts of the game make most repeats
free. A winning line found from a position stays a winning line from every
position along it: the next hint is its next move. And a position proven lost
stays lost after any move (moves only ever take options away), so a later
hint goes straight to the best move of a lost deal. Both are kept as moves
from the deal's start, which :attr:`Board.move_stack` of any later position
of the same game extends; an undo that leaves them simply asks again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from pyramid.engine.board import Board, Move

if TYPE_CHECKING:
    from pyramid.engine.solver import Solution


class Solve(Protocol):
    """The search :class:`GameVerdicts` asks: :func:`~pyramid.engine.solver.solve`, or one with the console's budget."""

    def __call__(self, board: Board, *, cancelled: Callable[[], bool] | None = None) -> "Solution": ...


class GameVerdicts:
    """The solver for the positions of one game, answering from what it proved before when it can.

    ``solve`` is the search itself (the console's, with its time budget); it is
    called only for a position off the winning line found last and not after
    the position last proven lost. An "unknown" answer is not remembered.
    """

    def __init__(self, solve: "Solve") -> None:
        self._solve = solve
        #: A won game from the deal's start: the moves played when a winning line was found, then that line.
        self._won: tuple[Move, ...] = ()
        #: The moves from the deal's start to the last position proven lost.
        self._lost: tuple[Move, ...] | None = None

    def solve(self, board: Board, cancelled: Callable[[], bool] | None = None, remember: bool = True) -> "Solution":
        """The verdict from ``board``'s position (a position of this game) and, when won, a line.
        ``cancelled`` calls the search off (the answer is then "unknown"), see :func:`~pyramid.engine.solver.solve`.
        ``remember=False`` keeps the line and the loss proven before (a look at a move aside from the line:
        the hints that follow stay on it)."""
        from pyramid.engine.solver import Solution  # the solver loads with the first search

        played = tuple(board.move_stack)
        won, lost = self._won, self._lost
        if len(played) < len(won) and won[: len(played)] == played:
            return Solution("win", list(won[len(played):]))
        if lost is not None and played[: len(lost)] == lost:
            return Solution("lose")
        solution = self._solve(board, cancelled=cancelled)
        if not remember:
            return solution
        if solution.verdict == "win":
            self._won = played + tuple(solution.moves)
        elif solution.verdict == "lose":
            self._lost = played
        return solution
