"""Solver benchmark: correctness against published data, and speed.

Command (from the repository root)::

    nice python benchmarks/bench_solver.py [--deals 300] [--retrohub-deals 200] [--skip-optimal]

1. ``three-pass`` rules on the first ``--deals`` deals of ``data/msc-1500``:
   verdict mode, then optimal mode; every verdict and every shortest length is
   checked against ``solution-lengths.txt`` and every solution is replayed
   through :meth:`Board.push`.
2. ``retrohub`` rules on numbered deals 1 … ``--retrohub-deals`` for each redeal
   choice (verdict mode, as the console's hint and "winnable" checks run it);
   the note names the three slowest deals, the ones to study next.

Prints one table (times per deal: total, mean, median, p99, max) and exits
non-zero when any answer disagrees with the published data.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import REDEAL_CHOICES, Rules, preset
from pyramid.engine.solver import Solution, solve

MSC_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "msc-1500"


def timed_solve(deal: str | tuple, rules: Rules, optimal: bool) -> tuple[Solution, float]:
    board = Board(deal, rules)
    started = time.perf_counter()
    solution = solve(board, optimal=optimal)
    seconds = time.perf_counter() - started
    for move in solution.moves:
        board.push(move)
    if solution.verdict == "win" and board.status() != "cleared":
        raise AssertionError(f"solution does not clear the deal: {board.fen()}")
    return solution, seconds


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def row(label: str, times: list[float], note: str) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"| {label:<34} | {len(ms):>5} | {sum(ms) / 1000:>9.1f} | {statistics.mean(ms):>9.1f} | "
        f"{statistics.median(ms):>9.1f} | {percentile(ms, 0.99):>9.1f} | {max(ms):>9.1f} | {note} |"
    )


def msc_rows(count: int, optimal: bool) -> tuple[str, int]:
    decks = (MSC_DATA / "decks.txt").read_text().splitlines()[:count]
    lengths = [int(x) for x in (MSC_DATA / "solution-lengths.txt").read_text().split()][:count]
    rules = preset("three-pass")
    times, wrong = [], 0
    for number, (deal, published) in enumerate(zip(decks, lengths), start=1):
        solution, seconds = timed_solve(deal, rules, optimal)
        times.append(seconds)
        won = solution.verdict == "win"
        if won != (published > 0) or (optimal and won and solution.steps != published):
            wrong += 1
            print(f"deal {number}: {solution.verdict} {solution.steps}, published {published}", file=sys.stderr)
    mode = "optimal" if optimal else "verdict"
    wins = sum(1 for x in lengths if x)
    return row(f"three-pass {mode}, msc 1..{count}", times, f"{count - wrong}/{count} agree ({wins} wins)"), wrong


def retrohub_row(count: int, redeals: str) -> str:
    rules = preset("retrohub").with_redeals(REDEAL_CHOICES[redeals])
    times, wins = [], 0
    for number in range(1, count + 1):
        solution, seconds = timed_solve(numbered_deal(number), rules, False)
        times.append(seconds)
        wins += solution.verdict == "win"
    slowest = sorted(range(count), key=times.__getitem__)[-3:][::-1]
    note = f"{wins}/{count} won; slowest deals " + ", ".join(str(i + 1) for i in slowest)
    return row(f"retrohub verdict, redeals {redeals}", times, note)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Solver benchmark")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--retrohub-deals", type=int, default=200)
    parser.add_argument("--skip-optimal", action="store_true")
    args = parser.parse_args(argv)
    header = (
        f"| {'run':<34} | {'deals':>5} | {'total s':>9} | {'mean ms':>9} | {'median ms':>9} | "
        f"{'p99 ms':>9} | {'max ms':>9} | check |"
    )
    lines, wrong = [header, "|" + "---|" * 8], 0
    if MSC_DATA.is_dir():
        modes = [False] if args.skip_optimal else [False, True]
        for optimal in modes:
            line, bad = msc_rows(args.deals, optimal)
            lines.append(line)
            wrong += bad
            print(line, flush=True)
    else:
        print(f"skipping msc-1500: {MSC_DATA} not found", file=sys.stderr)
    for redeals in REDEAL_CHOICES:
        line = retrohub_row(args.retrohub_deals, redeals)
        lines.append(line)
        print(line, flush=True)
    print()
    print("\n".join(lines))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
