"""The solver's questions and answers: :func:`solve`, :class:`DealSolver`, :class:`Solution`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pyramid.engine.board import Board, Move
from pyramid.engine.errors import OtherDealError
from pyramid.engine.solver.budget import Budget, BudgetExceeded
from pyramid.engine.solver.compiled import FULL, LOSE, WIN, CompiledCore, Core, compiled_library
from pyramid.engine.solver.freeing import removals_first
from pyramid.engine.solver.memory import Memory
from pyramid.engine.solver.position import Position, UNLIMITED
from pyramid.engine.solver.shortest import ShortestSearch
from pyramid.engine.solver.verdict import (PROBE_NODES, TWO_PASSES_PROBE_NODES, last_pass_applies, run_verdict,
                                           two_passes_apply)


log = logging.getLogger(__name__)

Verdict = Literal["win", "lose", "unknown"]
#: 80 MB. Hints along a greedy player's whole game on the slowest deals of the first 300 kept at
#: most 610,000 (King Tut's deal 177, 31 questions), its peak memory no higher than one new search's.
KEPT_ENTRIES = 1_000_000
#: What a :class:`DealSolver`'s compiled core keeps between questions, in bytes, before it starts
#: again (a question itself may take up to :data:`compiled.BYTE_BOUND`).
KEPT_BYTES = 32 * 1024 * 1024

@dataclass(frozen=True)
class Solution:
    """The solver's answer: the verdict, one line of play, and the effort spent.

    ``moves`` is empty unless the verdict is ``"win"``; then it leads from the
    position given to a cleared table and is the shortest such line when
    ``optimal`` was asked.
    """

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    optimal: bool = False
    nodes: int = 0
    seconds: float = 0.0

    @property
    def steps(self) -> int:
        """The number of steps (draws, redeals, removals) of the solution."""
        return len(self.moves)


def solve(
    board: Board,
    *,
    optimal: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    cancelled: Callable[[], bool] | None = None,
    core: Core | None = None,
    pairs_first: bool = False,
) -> Solution:
    """Solve ``board`` from its current position under its own rules.

    ``optimal`` asks for a shortest solution (verdict first: a lost position
    costs no more than in verdict mode). ``max_nodes`` / ``max_seconds`` bound
    the effort, and ``cancelled`` (asked every 256 nodes, from the searching
    thread) calls it off; when any of them says stop, the verdict is ``"unknown"``.
    ``core`` chooses the search (see :data:`Core`; asking for ``"compiled"`` where it does not
    load raises :class:`CoreUnavailable`). ``pairs_first`` asks the verdict search to try every
    removal inside the pyramid first at each position rather than put them off (slower on lost
    positions): the lines and node counts the shipped grades were measured with
    (:class:`~pyramid.engine.solver.verdict.VerdictSearch`).
    """
    pos = Position(board)
    compiled = _compiled(pos, core)
    if compiled is not None:
        return _solve_compiled(board, compiled, Budget(max_nodes, max_seconds, cancelled), optimal, pairs_first)
    return _solve(board, pos, Memory(pos), optimal, Budget(max_nodes, max_seconds, cancelled), pairs_first)


def _compiled(pos: Position, core: Core | None) -> CompiledCore | None:
    """The compiled core for ``pos`` if ``core`` asks for it (or leaves it to what loads)."""
    library = compiled_library(core)
    return None if library is None else CompiledCore(pos, library)


class DealSolver:
    """The solver of one deal's positions, keeping what it proved from one question to the next.

    A console asks about the positions of one game again and again: at every
    hint, and at the end. What a search proves (positions lost, relaxed games
    decided, excursions, second passes lost) is about positions of the deal,
    not about the question asked, so it holds for every later position, off
    the line found too, and even when the search that proved it ran out of
    time: the next question goes on from there instead of starting again.
    Answers are those of :func:`solve` (the same verdicts; a winning line may
    differ, as any line found first may).
    """

    def __init__(self, board: Board, core: Core | None = None) -> None:
        """The solver of ``board``'s position and of every position play reaches from it (for a
        game, the deal's start), by the search ``core`` chooses (see :func:`solve`)."""
        self.rules = board.rules
        self._start = board.copy()
        self._pos = Position(board)
        #: What the searches proved about this deal so far (started again past :data:`KEPT_ENTRIES`).
        self.memory = Memory(self._pos)
        self._redeals = self._pos.start_r
        self._core = core
        #: The compiled core's tables for this deal (started again past :data:`KEPT_BYTES`).
        self.compiled = _compiled(self._pos, core)

    def solve(self, board: Board, *, optimal: bool = False, max_nodes: int | None = None,
              max_seconds: float | None = None, cancelled: Callable[[], bool] | None = None) -> Solution:
        """:func:`solve` for ``board``, a position reached by play from this solver's first one."""
        self._check_reached(board)
        if self.memory.entries() > KEPT_ENTRIES:  # a long game of hard questions: start again
            self._pos = Position(self._start)
            self.memory = Memory(self._pos)
            self.compiled = _compiled(self._pos, self._core)
        budget = Budget(max_nodes, max_seconds, cancelled)
        if self.compiled is not None:
            if self.compiled.bytes() > KEPT_BYTES:
                self.compiled = _compiled(self._pos, self._core)
            assert self.compiled is not None
            self.compiled.pos.aim(board)
            solution = _solve_compiled(board, self.compiled, budget, optimal)
            if solution.verdict == "unknown" and self.compiled.full():
                self.compiled = _compiled(self._pos, self._core)  # past its bound: the next question starts again
            return solution
        self._pos.aim(board)
        return _solve(board, self._pos, self.memory, optimal, budget)

    def _check_reached(self, board: Board) -> None:
        """Raise :class:`OtherDealError` unless play could lead to ``board``: the same rules, each
        pyramid card in its place, the stock and waste cards in their drawing order, no redeal back."""
        pos = self._pos
        places = [pos.bit_of[index] for index, card in enumerate(board.pyramid) if card is not None]
        order = [pos.index_of.get(card, -1) for card in (*board.waste, *board.stock)]
        redeals = UNLIMITED if board.redeals_left is None else board.redeals_left
        if (board.rules != self.rules
                or any(pos.pyramid_card.get(bit) != card for bit, card in zip(places, filter(None, board.pyramid)))
                or -1 in order or order != sorted(order) or redeals > self._redeals):
            raise OtherDealError(f"play cannot reach this position from the solver's own: {board.fen()!r}")


def _solve_compiled(board: Board, core: CompiledCore, budget: Budget, optimal: bool,
                    pairs_first: bool = False) -> Solution:
    """:func:`solve` for ``board`` (``core.pos`` aimed at it) by the compiled core: the verdict, then,
    for ``optimal``, A* from the same position with the tables the verdict filled."""
    started = time.perf_counter()
    pos = core.pos
    status = board.status()
    if status in ("cleared", "no_moves"):
        return Solution("win" if status == "cleared" else "lose", [], optimal, 0, time.perf_counter() - started)
    start = (pos.start_pm, pos.start_live, pos.start_q, pos.start_r)
    answer = core.verdict(*start, budget.max_nodes, _seconds_left(budget), budget.cancelled, compiled_probe(pos),
                          pairs_first)
    nodes = answer.nodes
    if optimal and answer.result == WIN:
        max_nodes = None if budget.max_nodes is None else max(0, budget.max_nodes - nodes)
        answer = core.shortest(*start, max_nodes, _seconds_left(budget), budget.cancelled)
        nodes += answer.nodes
    verdict: Verdict = "win" if answer.result == WIN else "lose" if answer.result == LOSE else "unknown"
    if answer.result == FULL:
        log.info("solver core: a question went past the core's memory bound; answered unknown")
    tokens = answer.tokens if optimal or pairs_first else removals_first(pos, pos.start_pm, answer.tokens)
    moves = [pos.move_of(token) for token in tokens]
    return Solution(verdict, moves, optimal, nodes, time.perf_counter() - started)


def _seconds_left(budget: Budget) -> float | None:
    return None if budget.deadline is None else max(0.0, budget.deadline - time.perf_counter())


def compiled_probe(pos: Position) -> int | None:
    """The compiled core's probe before its last pass joins in (as :func:`run_verdict`'s), or ``None``
    where the plain search goes on alone.

    With one redeal left, the probe comes before the core's two-pass search.
    """
    if last_pass_applies(pos):
        return PROBE_NODES
    if two_passes_apply(pos):
        return TWO_PASSES_PROBE_NODES
    return None


def _solve(board: Board, pos: Position, memory: Memory, optimal: bool, budget: Budget,
           pairs_first: bool = False) -> Solution:
    """:func:`solve` for ``board``, compiled as ``pos`` (aimed at it), with what ``memory`` holds."""
    started = time.perf_counter()

    def answer(verdict: Verdict, moves: list[Move]) -> Solution:
        return Solution(verdict, moves, optimal, budget.nodes, time.perf_counter() - started)

    status = board.status()
    if status == "cleared":
        return answer("win", [])
    if status == "no_moves":
        return answer("lose", [])
    try:
        won, search = run_verdict(pos, budget, memory, pairs_first)
        if not won:
            return answer("lose", [])
        tokens = search.path if pairs_first else removals_first(pos, pos.start_pm, search.path)
        if optimal:
            shortest = ShortestSearch(pos, budget, search.lost, search.relaxation).run()
            assert shortest is not None, "the verdict search found a line, A* must too"
            tokens = shortest
    except BudgetExceeded:
        return answer("unknown", [])
    finally:
        memory.attach(Budget(None, None))  # no helper counts on a finished question's budget
    return answer("win", [pos.move_of(token) for token in tokens])
