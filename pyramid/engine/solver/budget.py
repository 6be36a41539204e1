"""The effort a question may take: nodes and seconds, and the exception that ends a search."""

from __future__ import annotations

import time
from collections.abc import Callable


class BudgetExceeded(Exception):
    """Raised inside a search when its node or time budget runs out."""


class Budget:
    """Counts nodes and stops a search that runs over its node or time budget, or is called off.

    The clock (and ``cancelled``) is read every 256 nodes: a few milliseconds
    here, a few tens on a Pi, which is as late as a hint may come, and as late
    as a search the player no longer wants may stop (a question asked on
    another thread is called off by the one that asked it).
    """

    def __init__(self, max_nodes: int | None, max_seconds: float | None,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.cancelled = cancelled
        self._watched = self.deadline is not None or cancelled is not None

    def share(self, max_nodes: int) -> "Budget":
        """A budget of at most ``max_nodes`` more nodes within this one, with the same deadline and
        the same ``cancelled`` (its nodes are not counted here: :meth:`spend` them after)."""
        share = Budget(max_nodes, None, self.cancelled)
        if self.max_nodes is not None:
            share.max_nodes = min(max_nodes, self.max_nodes - self.nodes)
        share.deadline = self.deadline
        share._watched = self._watched
        return share

    def spend(self, nodes: int) -> None:
        """Count the ``nodes`` a :meth:`share` spent, and check this budget."""
        self.nodes += nodes
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded
        if self._watched and self._over():
            raise BudgetExceeded

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded
        if self._watched and not self.nodes & 255 and self._over():
            raise BudgetExceeded

    def _over(self) -> bool:
        """Past the deadline, or called off."""
        deadline, cancelled = self.deadline, self.cancelled
        return (deadline is not None and time.perf_counter() > deadline) or (cancelled is not None and cancelled())
