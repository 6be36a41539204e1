"""Hints along a game: the solver asked at every move, against what the console remembers.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_hints.py [--deals 300] [--hardest 3] [--hints 30] [PRESET ...]

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
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_solver import Deal, reference_deals
from make_winnable_lists import PI_ZERO_2_FACTOR

from pyramid.engine.board import Board
from pyramid.engine.rules import PRESETS, Rules
from pyramid.engine.solver import Solution, solve
from pyramid.engine.verdicts import GameVerdicts


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
    for number, deal in enumerate(reference_deals(rules, deals), start=1):
        answer, seconds = timed(solve, Board(deal, rules))
        if answer.verdict == "win":
            timings.append((seconds, number, deal))
    timings.sort(key=lambda timing: timing[0], reverse=True)
    return [(number, deal) for _, number, deal in timings[:count]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Hint benchmark")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--hardest", type=int, default=3)
    parser.add_argument("--hints", type=int, default=30)
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args(argv)
    print("| preset | deal | first hint ms | later hints, asked each time: total ms (max, Pi Zero 2 est.) "
          "| later hints, remembered: total ms |\n|---|---|---|---|---|")
    for name in args.presets:
        rules = PRESETS[name]
        for number, deal in hardest_wins(rules, args.deals, args.hardest):
            asked = hint_times(deal, rules, args.hints, remember=False)
            kept = hint_times(deal, rules, args.hints, remember=True)
            later = asked[1:]
            print(f"| {name} | {number} | {asked[0] * 1000:.0f} | {sum(later) * 1000:.0f} "
                  f"({max(later) * 1000:.0f}, {max(later) * PI_ZERO_2_FACTOR:.1f} s) | {sum(kept[1:]) * 1000:.2f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
