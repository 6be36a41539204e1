"""Where verdicts with one redeal spend their time: the two-pass search, pass by pass.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_two_passes.py [--deals 300] [--slowest 5] [PRESET ...]

With one redeal and one-card draws, a position the depth-first probe does not
settle goes to the two-pass search (``TwoPasses`` in
``pyramid/engine/solver/two_passes.py``): its first pass finds every pyramid the game
can redeal with and the family of stocks it can leave for it, then one
second-pass search per pyramid asks whether some stock of its family clears
it. For each preset (default: every one-card preset) this solves the first
``--deals`` reference deals with one redeal and prints:

- the row: total CPU time, and the share of it spent in first passes and in
  second passes;
- the ``--slowest`` deals: verdict, time, the first pass's time, how many
  pyramids it redealt with, the second passes' time, the slowest one, and
  the share of the second passes' nodes spent in the 10 costliest.

The last column says whether one second pass dominates (a target for a
better test) or whether the work is spread over hundreds of pyramids, each a
search of its own (the design's cost).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_solver import deals_for

from pyramid.engine.solver import solve
from pyramid.engine.solver.two_passes import TwoPasses
from pyramid.engine.board import Board
from pyramid.engine.rules import PRESETS, preset


class SecondPass(NamedTuple):
    """One second-pass search: its CPU time and the nodes it spent."""

    seconds: float
    nodes: int


class DealCost(NamedTuple):
    """One deal solved with one redeal, and what its two-pass search cost."""

    number: int
    verdict: str
    seconds: float
    first_pass_seconds: float
    second_passes: list[SecondPass]


@contextmanager
def recording(first_passes: list[float], second_passes: list[SecondPass]) -> Iterator[None]:
    """Time every first pass and every second-pass search of the two-pass search while inside."""
    cls = TwoPasses
    first_pass, second_pass_wins = cls._first_pass, cls._second_pass_wins

    def timed_first_pass(self: TwoPasses, pm: int, live: int, q: int) -> dict[int, dict[int, int]]:
        started = time.process_time()
        try:
            return first_pass(self, pm, live, q)
        finally:
            first_passes.append(time.process_time() - started)

    def timed_second_pass(self: TwoPasses, pm: int, root: int) -> bool:
        started, nodes = time.process_time(), self.budget.nodes
        try:
            return second_pass_wins(self, pm, root)
        finally:
            second_passes.append(SecondPass(time.process_time() - started, self.budget.nodes - nodes))

    setattr(cls, "_first_pass", timed_first_pass)
    setattr(cls, "_second_pass_wins", timed_second_pass)
    try:
        yield
    finally:
        setattr(cls, "_first_pass", first_pass)
        setattr(cls, "_second_pass_wins", second_pass_wins)


def deal_costs(name: str, count: int) -> list[DealCost]:
    rules = preset(name).with_redeals(1)
    costs = []
    for number, deal in enumerate(deals_for(rules, count), start=1):
        first_passes: list[float] = []
        second_passes: list[SecondPass] = []
        board = Board(deal, rules)
        with recording(first_passes, second_passes):
            started = time.process_time()
            answer = solve(board, core="python")  # the Python search is the one timed here
            seconds = time.process_time() - started
        costs.append(DealCost(number, answer.verdict, seconds, sum(first_passes), second_passes))
    return costs


def top_share(passes: list[SecondPass], top: int) -> float:
    """The share of the second passes' nodes spent in the ``top`` costliest."""
    nodes = sorted((one.nodes for one in passes), reverse=True)
    return sum(nodes[:top]) / sum(nodes) if sum(nodes) else 0.0


def report(name: str, costs: list[DealCost], slowest: int, show: Callable[[str], None]) -> None:
    total = sum(cost.seconds for cost in costs)
    first = sum(cost.first_pass_seconds for cost in costs)
    second = sum(one.seconds for cost in costs for one in cost.second_passes)
    show(f"\n{name}, one redeal, {len(costs)} deals: {total:.2f} s; first passes {first / total:.0%}, "
         f"second passes {second / total:.0%}")
    show("| deal | verdict | ms | first pass ms | pyramids at the redeal | second passes ms | slowest ms "
         "| top 10 share of nodes |")
    show("|---|---|---|---|---|---|---|---|")
    for cost in sorted(costs, key=lambda cost: cost.seconds, reverse=True)[:slowest]:
        passes = cost.second_passes
        second_ms = 1000 * sum(one.seconds for one in passes)
        slowest_ms = 1000 * max((one.seconds for one in passes), default=0.0)
        show(f"| {cost.number} | {cost.verdict} | {1000 * cost.seconds:.0f} | {1000 * cost.first_pass_seconds:.0f} "
             f"| {len(passes)} | {second_ms:.0f} | {slowest_ms:.1f} | {top_share(passes, 10):.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--slowest", type=int, default=5)
    parser.add_argument("presets", nargs="*", default=[name for name in PRESETS if preset(name).draw_count == 1])
    args = parser.parse_args()
    for name in args.presets:
        report(name, deal_costs(name, args.deals), args.slowest, print)


if __name__ == "__main__":
    main()
