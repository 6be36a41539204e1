"""``pyramid solve``: solve many deals from a file, one line per deal.

Usage::

    pyramid solve [--rules PRESET] [--redeals none|one|two|unlimited]
                  [--optimal] [--jobs N] [--moves] FILE

``FILE`` holds one deal per line (the notation of docs/rules.md, "Cards and deals"; ``-`` reads stdin; blank
lines are skipped). For each deal one line is printed, ``N win|lose STEPS MS``:
the deal's number counting from 1, the verdict, the length of the solution
found (0 for a loss) and the wall time in milliseconds. ``--moves`` appends the
solution's moves to that line. A progress bar goes to stderr, and only when
stderr is a terminal, so piped output stays clean. Every line is checked before
any solving starts: a bad one stops the run with a one-line message naming it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterable
from typing import TextIO

from pyramid.engine.board import Board
from pyramid.engine.cards import parse_deal
from pyramid.errors import PyramidError
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES, Rules, preset
from pyramid.engine.solver import solve

#: (deal number, verdict, steps, milliseconds, moves in notation)
SolveLine = tuple[int, str, int, int, str]


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyramid solve", description="Solve Pyramid deals, one per line.")
    parser.add_argument("file", metavar="FILE", help="deals, one per line ('-' for stdin)")
    parser.add_argument("--rules", choices=list(PRESETS), default="retrohub", help="rules preset (default: retrohub)")
    parser.add_argument("--redeals", choices=list(REDEAL_CHOICES), help="redeals allowed (default: the preset's)")
    parser.add_argument("--optimal", action="store_true", help="find shortest solutions")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="solve N deals at a time")
    parser.add_argument("--moves", action="store_true", help="print each solution's moves")
    return parser


def _read_deals(stream: TextIO, rules: Rules) -> list[str]:
    """The deal lines of ``stream``; raises ``PyramidError`` naming a bad line."""
    deals = []
    for line_number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            parse_deal(line, rules.deck)
        except PyramidError as error:
            raise PyramidError(f"line {line_number}: {error}") from None
        deals.append(line)
    return deals


def _solve_one(job: tuple[int, str, Rules, bool]) -> SolveLine:
    number, deal, rules, optimal = job
    started = time.perf_counter()
    solution = solve(Board(deal, rules), optimal=optimal)
    milliseconds = round((time.perf_counter() - started) * 1000)
    moves = " ".join(str(move) for move in solution.moves)
    return number, solution.verdict, solution.steps, milliseconds, moves


def solve_lines(deals: list[str], rules: Rules, optimal: bool = False, jobs: int = 1) -> Iterable[SolveLine]:
    """Solve ``deals`` in order, ``jobs`` at a time, yielding one result per deal."""
    work = [(number, deal, rules, optimal) for number, deal in enumerate(deals, start=1)]
    if jobs <= 1:
        yield from map(_solve_one, work)
        return
    # "spawn", not fork: forking a process that has other threads (a GUI, input readers,
    # a test run) can copy a lock held by one of them and hang the worker forever.
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_solve_one, work)


def progress_bar(done: int, total: int, stream: TextIO) -> None:
    """Redraw a one-line bar of `done` out of `total` on `stream` (a terminal)."""
    width = 30
    filled = width * done // max(total, 1)
    stream.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total}")
    if done == total:
        stream.write("\n")
    stream.flush()


def main(argv: list[str]) -> int:
    """Run ``pyramid solve`` with ``argv`` (the arguments after ``solve``); return the exit status."""
    args = _build_parser().parse_args(argv)
    rules = preset(args.rules)
    if args.redeals is not None:
        rules = rules.with_redeals(REDEAL_CHOICES[args.redeals])
    if args.jobs < 1:
        print(f"pyramid solve: --jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return 2
    try:
        if args.file == "-":
            deals = _read_deals(sys.stdin, rules)
        else:
            with open(args.file, encoding="utf-8") as stream:
                deals = _read_deals(stream, rules)
    except OSError as error:
        print(f"pyramid solve: cannot read {args.file!r}: {error.strerror}", file=sys.stderr)
        return 2
    except PyramidError as error:
        print(f"pyramid solve: {args.file}: {error}", file=sys.stderr)
        return 2
    show_progress = sys.stderr.isatty()
    for done, (number, verdict, steps, milliseconds, moves) in enumerate(
        solve_lines(deals, rules, args.optimal, args.jobs), start=1
    ):
        line = f"{number} {verdict} {steps} {milliseconds}"
        print(f"{line} {moves}" if args.moves and moves else line, flush=show_progress)
        if show_progress:
            progress_bar(done, len(deals), sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
