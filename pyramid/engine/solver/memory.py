"""What the searches of one deal have proved, kept for every later question about it."""

from __future__ import annotations

from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.freeing import Freeing
from pyramid.engine.solver.last_pass import LastPass
from pyramid.engine.solver.position import Position
from pyramid.engine.solver.relaxation import Relaxation
from pyramid.engine.solver.two_passes import TwoPasses


class Memory:
    """What the searches of one deal have proved, shared by every search of every question about it.

    Proven losses, relaxed games won or lost, excursions and second passes
    lost are facts about positions of the deal, not about the question that
    led to them, so they hold for every question asked later (see
    :meth:`Position.aim`), and a probe's findings serve the search after it.
    A search that runs out of time leaves only what it finished proving: each
    table is written when an answer is complete, and the depth-first search
    takes back the marks of the walk it was on (see ``VerdictSearch.search``).
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.budget = Budget(None, None)
        #: Loss-table key → most redeals left with which the position was lost.
        self.lost: dict[int, int] = {}
        self.relaxation = Relaxation(pos, self.budget)
        self.freeing = Freeing(pos)
        self.last_pass = (LastPass(pos, self.budget, self.lost, self.relaxation, self.freeing)
                          if pos.draw_count == 1 else None)
        self._two_passes: TwoPasses | None = None

    def entries(self) -> int:
        """How many answers the tables hold, about 80 bytes each (see :data:`KEPT_ENTRIES`)."""
        pos, relaxation = self.pos, self.relaxation
        held = (len(self.lost) + len(relaxation.won) + len(relaxation.asked) + len(relaxation.counts_cache)
                + len(pos.sequence_cache) + len(pos.facts_cache) + len(self.freeing.known))
        if self.last_pass is not None:
            held += len(self.last_pass.excursions)
        if self._two_passes is not None:
            held += len(self._two_passes.excursions) + len(self._two_passes.families)
        return held

    def attach(self, budget: Budget) -> None:
        """Count the work of every helper on ``budget`` from now on."""
        self.budget = self.relaxation.budget = budget
        if self.last_pass is not None:
            self.last_pass.budget = budget
        if self._two_passes is not None:
            self._two_passes.budget = budget

    def two_passes(self) -> "TwoPasses":
        """The two-pass search (one-card draws), made when first asked."""
        if self._two_passes is None:
            assert self.last_pass is not None, "the two-pass search is asked only with one-card draws"
            self._two_passes = TwoPasses(self.pos, self.budget, self.last_pass, self.relaxation)
        return self._two_passes
