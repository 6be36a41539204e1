"""Hints along a game: the solver asked at every move, against what the console remembers.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_hints.py [--deals 300] [--hardest 3] [--hints 30]
        [--redeals none|one|two|unlimited] [--off-line-only] [PRESET ...]

For each preset under its own redeal allowance, the ``--hardest`` reference
deals among the first ``--deals`` that the solver wins most slowly from the
start (the deals where a player needs help most) are played along the
solver's line, asking for a hint before each of the first ``--hints`` moves:

- *asked each time*: :func:`pyramid.engine.solver.solve` from every position,
  as the console did before it remembered anything;
- *remembered*: :class:`pyramid.engine.verdicts.GameVerdicts`, as the console
  does now (one search, then the line it found).

Per preset: the first hint, the total and the slowest of the later ones, in
CPU milliseconds, with the Pi Zero 2 estimate (about ten times slower per
core) for the slowest later hint when asked each time.

A second table follows a player who leaves the line at once: the greedy
player of ``tests/greedy.py``, on the ``--hardest`` deals whose
verdict (won or lost) the solver takes longest to give, a hint asked before
each of its first ``--hints`` moves within the console's budget scaled to this
machine (:data:`~pyramid.console.game_flow.SOLVER_SECONDS` divided by the
Pi Zero 2 factor), through :class:`GameVerdicts` over

- *a new search each time*: :func:`~pyramid.engine.solver.solve` per question,
  as the console did before it kept what each search proved;
- *the deal's solver*: one :class:`~pyramid.engine.solver.DealSolver` for the
  game, as the console does now.

Per deal: the total and slowest hint in CPU milliseconds, and how many hints
ran out of the budget ("unknown": on a Pi, "no hint found in time").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_solver import Deal, deals_for
from make_winnable_lists import PI_ZERO_2_FACTOR

from pyramid.console.game_flow import SOLVER_SECONDS
from pyramid.engine.board import Board
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES, Rules
from pyramid.engine.solver import DealSolver, Solution, solve
from pyramid.engine.verdicts import GameVerdicts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the greedy player (tests/greedy.py)
from greedy import greedy_move  # noqa: E402


def timed(ask: Callable[[Board], Solution], board: Board) -> tuple[Solution, float]:
    started = time.process_time()
    answer = ask(board)
    return answer, time.process_time() - started


def hint_times(deal: Deal, rules: Rules, hints: int, remember: bool) -> list[float]:
    """The CPU time of each hint along the game, following the hinted moves."""
    board = Board(deal, rules)
    ask: Callable[[Board], Solution] = GameVerdicts(solve).solve if remember else solve
    times: list[float] = []
    while board.status() == "playing" and len(times) < hints:
        answer, seconds = timed(ask, board)
        times.append(seconds)
        board.push(answer.moves[0])
    return times


def hardest_wins(rules: Rules, deals: int, count: int) -> list[tuple[int, Deal]]:
    """The ``count`` deals the solver wins most slowly from the start, with their numbers."""
    timings: list[tuple[float, int, Deal]] = []
    for number, deal in enumerate(deals_for(rules, deals), start=1):
        answer, seconds = timed(solve, Board(deal, rules))
        if answer.verdict == "win":
            timings.append((seconds, number, deal))
    timings.sort(key=lambda timing: timing[0], reverse=True)
    return [(number, deal) for _, number, deal in timings[:count]]


class OffLineHints(NamedTuple):
    """The hints asked along a greedy player's game: their CPU times and how many ran out of time."""

    times: list[float]
    unknown: int


def off_line_hints(deal: Deal, rules: Rules, hints: int, keep: bool) -> OffLineHints:
    """A hint before each of the greedy player's first ``hints`` moves, within the scaled budget."""
    board = Board(deal, rules)
    budget = SOLVER_SECONDS / PI_ZERO_2_FACTOR
    if keep:
        deal_solver = DealSolver(Board(deal, rules))
        verdicts = GameVerdicts(lambda position, cancelled=None: deal_solver.solve(position, max_seconds=budget))
    else:
        verdicts = GameVerdicts(lambda position, cancelled=None: solve(position, max_seconds=budget))
    times: list[float] = []
    unknown = 0
    while len(times) < hints:
        move = greedy_move(board)
        if move is None:
            break
        answer, seconds = timed(verdicts.solve, board)
        times.append(seconds)
        unknown += answer.verdict == "unknown"
        board.push(move)
    return OffLineHints(times, unknown)


def slowest_verdicts(rules: Rules, deals: int, count: int) -> list[tuple[int, Deal, str]]:
    """The ``count`` deals whose verdict from the start takes the solver longest, won or lost."""
    timings: list[tuple[float, int, Deal, str]] = []
    for number, deal in enumerate(deals_for(rules, deals), start=1):
        answer, seconds = timed(solve, Board(deal, rules))
        timings.append((seconds, number, deal, answer.verdict))
    timings.sort(key=lambda timing: timing[0], reverse=True)
    return [(number, deal, verdict) for _, number, deal, verdict in timings[:count]]


def rules_of(name: str, redeals: str | None) -> Rules:
    """A preset under its own redeal allowance, or under ``--redeals``."""
    return PRESETS[name] if redeals is None else PRESETS[name].with_redeals(REDEAL_CHOICES[redeals])


def off_line_table(presets: list[str], redeals: str | None, deals: int, hardest: int, hints: int) -> None:
    print("\nhints along the greedy player's game, within the console's budget scaled to this machine "
          f"({SOLVER_SECONDS / PI_ZERO_2_FACTOR:.2f} s)")
    print("| preset | deal | verdict | a new search each time: total ms (max), unknown "
          "| the deal's solver: total ms (max), unknown |\n|---|---|---|---|---|")
    for name in presets:
        rules = rules_of(name, redeals)
        for number, deal, verdict in slowest_verdicts(rules, deals, hardest):
            fresh = off_line_hints(deal, rules, hints, keep=False)
            kept = off_line_hints(deal, rules, hints, keep=True)
            print(f"| {name} | {number} | {verdict} "
                  f"| {sum(fresh.times) * 1000:.0f} ({max(fresh.times) * 1000:.0f}), {fresh.unknown} "
                  f"| {sum(kept.times) * 1000:.0f} ({max(kept.times) * 1000:.0f}), {kept.unknown} |", flush=True)


def on_line_table(presets: list[str], redeals: str | None, deals: int, hardest: int, hints: int) -> None:
    print("| preset | deal | first hint ms | later hints, asked each time: total ms (max, Pi Zero 2 est.) "
          "| later hints, remembered: total ms |\n|---|---|---|---|---|")
    for name in presets:
        rules = rules_of(name, redeals)
        for number, deal in hardest_wins(rules, deals, hardest):
            asked = hint_times(deal, rules, hints, remember=False)
            kept = hint_times(deal, rules, hints, remember=True)
            later = asked[1:]
            print(f"| {name} | {number} | {asked[0] * 1000:.0f} | {sum(later) * 1000:.0f} "
                  f"({max(later) * 1000:.0f}, {max(later) * PI_ZERO_2_FACTOR:.1f} s) | {sum(kept[1:]) * 1000:.2f} |",
                  flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Hint benchmark")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--hardest", type=int, default=3)
    parser.add_argument("--hints", type=int, default=30)
    parser.add_argument("--redeals", choices=list(REDEAL_CHOICES), help="instead of each preset's own")
    parser.add_argument("--off-line-only", action="store_true", help="only the greedy player's table")
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args(argv)
    if not args.off_line_only:
        on_line_table(args.presets, args.redeals, args.deals, args.hardest, args.hints)
    off_line_table(args.presets, args.redeals, args.deals, args.hardest, args.hints)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
