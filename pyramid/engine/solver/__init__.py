"""An exact Pyramid solver for every rules preset, from any position.

Two questions, one engine: the **verdict** (can the pyramid, or for goal "all" the
whole table, still be cleared, and how) and the **optimal** line (the shortest
solution). Both are :func:`solve`; :class:`DealSolver` asks them about the
positions of one game, keeping what each search proved for the next. Each module
holds one idea; docs/solver.md maps them: which search answers which question, in
which order, and why each shortcut is sound.
"""

from pyramid.engine.solver.answers import DealSolver, Solution, Verdict, solve
from pyramid.engine.solver.budget import BudgetExceeded
from pyramid.engine.solver.compiled import Core, CoreUnavailable

__all__ = ["BudgetExceeded", "Core", "CoreUnavailable", "DealSolver", "Solution", "Verdict", "solve"]
