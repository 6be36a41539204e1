"""``pyramid solve``: solve many deals from a file, one line per deal.

Usage::

    pyramid solve [--rules PRESET] [--redeals none|one|two|unlimited]
                  [--optimal | --best-score] [--jobs N] [--budget SECONDS] [--max-memory SIZE]
                  [--core compiled|python] [--moves] FILE

``FILE`` holds one deal per line (the notation of docs/rules.md, "Cards and deals"; ``-`` reads stdin; blank
lines are skipped). For each deal one line is printed, ``N win|lose|unknown STEPS MS``:
the deal's number counting from 1, the verdict, the length of the solution
found (0 for a loss) and the wall time in milliseconds. ``--moves`` appends the
solution's moves to that line. ``--best-score`` asks instead for the highest score any legal line
reaches under the preset's scoring, and one of the shortest lines reaching it
(:mod:`pyramid.engine.solver.best_score`): ``N best SCORE STEPS MS``, or ``N unknown 0 0 MS`` when the
search did not finish within the budget (never a guess). A progress bar goes to stderr, and only when
stderr is a terminal, so piped output stays clean. Every line is checked before
any solving starts: a bad one stops the run with a one-line message naming it.

Some deals take minutes and gigabytes (``--optimal`` with unlimited redeals):
``--budget`` bounds the seconds per deal and ``--max-memory`` the memory per
worker (e.g. ``512M``, ``2G``); a deal that runs out of either gets the verdict
``unknown`` and the run goes on. ``FILE`` is read whole first, at most
:data:`MAX_INPUT_BYTES`, so an endless input (``/dev/zero``) is refused rather
than read for ever. At most ``--jobs`` workers run, never more than there are
deals or usable cores: more would only share the same cores and multiply the
memory.

``--core`` chooses the search: the compiled core (the default where it loads) or the
pure-Python reference (for ``--best-score`` too); ``--core compiled`` where it does not load stops
with the reason.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import multiprocessing
import os
import re
import resource
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Literal, NamedTuple, NoReturn, TextIO

from pyramid.engine.board import Board
from pyramid.engine.cards import parse_deal
from pyramid.errors import PyramidError
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES, Rules, preset
from pyramid.engine.solver import Core, solve
from pyramid.engine.solver.best_score import best_score
from pyramid.engine.solver.compiled import CoreUnavailable, open_library, library_path

Question = Literal["verdict", "optimal", "best-score"]
#: A deal is 155 characters: this is some 200,000 deals, more than a day of solving.
MAX_INPUT_BYTES = 32 << 20
#: Longer than any deal written with any spacing; a longer line is not quoted in the message.
MAX_LINE_CHARACTERS = 1000
#: Below this a worker cannot even start Python and the solver.
MIN_MEMORY = 64 << 20
#: What the compiled best-score search may keep of one deal without --max-memory: the hardest of the
#: first 40 reference deals (some 20 million states) need most of it (the peer's Java search was given 12 GB).
BEST_SCORE_BYTES = 2 << 30
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


class SolveOptionError(PyramidError):
    """A command-line option of ``pyramid solve`` that cannot be used; the message names it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise SolveOptionError(message)


def parse_memory(text: str) -> int:
    """``"512M"`` → 536870912 bytes (K, M, G: powers of 1024; no suffix: bytes)."""
    match = re.fullmatch(r"\s*(\d{1,15})\s*([kKmMgG]?)[bB]?\s*", text)
    if not match:
        raise SolveOptionError(f"invalid --max-memory {text!r}: a size such as 512M or 2G")
    size = int(match.group(1)) * _UNITS[match.group(2).lower()]
    if size < MIN_MEMORY:
        raise SolveOptionError(f"invalid --max-memory {text!r}: at least {MIN_MEMORY >> 20}M")
    return size


def _budget(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise SolveOptionError(f"invalid --budget {text!r}: seconds per deal, e.g. 30") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise SolveOptionError(f"invalid --budget {text!r}: a number of seconds above 0")
    return seconds


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pyramid solve", description="Solve Pyramid deals, one per line.")
    parser.add_argument("file", metavar="FILE", help="deals, one per line ('-' for stdin)")
    parser.add_argument("--rules", choices=list(PRESETS), default="retrohub", help="rules preset (default: retrohub)")
    parser.add_argument("--redeals", choices=list(REDEAL_CHOICES), help="redeals allowed (default: the preset's)")
    question = parser.add_mutually_exclusive_group()
    question.add_argument("--optimal", action="store_true", help="find shortest solutions")
    question.add_argument("--best-score", action="store_true",
                          help="find the best score reachable and a shortest line reaching it")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="solve up to N deals at a time (at most one per deal and per core)")
    parser.add_argument("--budget", type=_budget, metavar="SECONDS", help="give up on a deal after SECONDS: unknown")
    parser.add_argument("--max-memory", type=parse_memory, metavar="SIZE",
                        help="memory per worker, e.g. 512M; a deal that needs more: unknown")
    parser.add_argument("--core", choices=["compiled", "python"],
                        help="the solver's core (default: compiled where it loads, else python)")
    parser.add_argument("--moves", action="store_true", help="print each solution's moves")
    return parser


def read_input(name: str) -> str:
    """The whole text of ``name`` (``-``: stdin), refused past :data:`MAX_INPUT_BYTES` or when not UTF-8."""
    if name == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)  # a test's StringIO has no buffer
        data: bytes | str = stream.read(MAX_INPUT_BYTES + 1)
    else:
        with open(name, "rb") as file:
            data = file.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise PyramidError(f"larger than {MAX_INPUT_BYTES >> 20} MiB: split it into several runs")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PyramidError(f"not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start}): "
                           "a file of deals is text, one deal a line") from None


def _read_deals(text: str, rules: Rules) -> list[str]:
    """The deal lines of ``text``; raises ``PyramidError`` naming a bad line."""
    deals = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_CHARACTERS:
            raise PyramidError(f"line {line_number}: {len(line)} characters, too long to be a deal")
        try:
            parse_deal(line, rules.deck)
        except PyramidError as error:
            raise PyramidError(f"line {line_number}: {error}") from None
        deals.append(line)
    return deals


class Job(NamedTuple):
    """One deal to solve, and how (``best_score_bytes``: what the compiled best-score search may keep)."""

    number: int
    deal: str
    rules: Rules
    question: Question
    budget: float | None
    core: Core | None
    best_score_bytes: int


class SolveLine(NamedTuple):
    """One deal's answer: its number, the verdict (``best`` for a best score), the score (best-score
    runs only), the line's length, the wall time and the line's moves in notation."""

    number: int
    verdict: str
    score: int | None
    steps: int
    milliseconds: int
    moves: str

    def text(self, with_moves: bool) -> str:
        """The printed line (see the module docstring)."""
        score = "" if self.score is None else f" {self.score}"
        line = f"{self.number} {self.verdict}{score} {self.steps} {self.milliseconds}"
        return f"{line} {self.moves}" if with_moves and self.moves else line


def _solve_one(job: Job) -> SolveLine:
    """One deal; running out of memory (``--max-memory``) is the verdict ``unknown``, like the time budget."""
    number, deal, rules, question, budget, core, best_score_bytes = job
    started = time.perf_counter()
    score: int | None = None
    verdict: str
    try:
        if question == "best-score":
            best = best_score(Board(deal, rules), max_seconds=budget, core=core, max_bytes=best_score_bytes)
            verdict, score, steps, moves = best.verdict, best.score, len(best.moves), best.moves
        else:
            solution = solve(Board(deal, rules), optimal=question == "optimal", max_seconds=budget, core=core)
            verdict, steps, moves = solution.verdict, solution.steps, tuple(solution.moves)
    except MemoryError:
        verdict, score, steps, moves = "unknown", (None if question != "best-score" else 0), 0, ()
    milliseconds = round((time.perf_counter() - started) * 1000)
    return SolveLine(number, verdict, score, steps, milliseconds, " ".join(str(move) for move in moves))


def _limit_memory(size: int | None) -> None:
    """In a worker: its data (heap, anonymous mappings) may not grow past ``size``, so the search gets MemoryError.

    RLIMIT_DATA rather than RLIMIT_AS: it counts what the search allocates,
    not the shared libraries and thread stacks every process maps.
    """
    if size is not None:
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))


def worker_count(jobs: int, deals: int) -> int:
    """The workers to start: ``jobs``, but never more than the deals or the cores this process may use."""
    return max(1, min(jobs, deals, len(os.sched_getaffinity(0))))


def solve_lines(deals: list[str], rules: Rules, question: Question = "verdict", jobs: int = 1,
                budget: float | None = None, max_memory: int | None = None,
                core: Core | None = None) -> Iterable[SolveLine]:
    """Solve ``deals`` in order, ``jobs`` at a time, yielding one result per deal.

    A memory limit needs worker processes even for one job: the limit is set
    on the worker, and this process must not run out.
    """
    # The best-score search keeps every state it expands: with --max-memory, most of it; else 2 GiB.
    tables = (max_memory - MIN_MEMORY) if max_memory is not None else BEST_SCORE_BYTES
    work = [Job(number, deal, rules, question, budget, core, tables) for number, deal in enumerate(deals, start=1)]
    workers = worker_count(jobs, len(deals))
    if workers == 1 and max_memory is None:
        yield from map(_solve_one, work)
        return
    yield from _in_workers(work, workers, max_memory)


def _in_workers(work: list[Job], workers: int,
                max_memory: int | None) -> Iterator[SolveLine]:
    # "spawn", not fork: forking a process that has other threads (a GUI, input readers,
    # a test run) can copy a lock held by one of them and hang the worker forever.
    try:
        with concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_limit_memory, initargs=(max_memory,)) as pool:
            yield from pool.map(_solve_one, work)
    except (BrokenProcessPool, OSError) as error:
        # A worker that could not start (a process limit) or died (killed, out of memory outside Python).
        raise PyramidError(f"the {workers} worker processes failed ({error or type(error).__name__})") from None


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
    try:
        args = _build_parser().parse_args(argv)
    except SolveOptionError as error:
        print(f"pyramid solve: {error}", file=sys.stderr)
        return 2
    rules = preset(args.rules)
    if args.redeals is not None:
        rules = rules.with_redeals(REDEAL_CHOICES[args.redeals])
    if args.jobs < 1:
        print(f"pyramid solve: --jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return 2
    if args.core == "compiled":
        try:
            open_library(library_path())
        except CoreUnavailable as why:
            print(f"pyramid solve: --core compiled: {why}", file=sys.stderr)
            return 2
    try:
        deals = _read_deals(read_input(args.file), rules)
    except OSError as error:
        print(f"pyramid solve: cannot read {args.file!r}: {error.strerror}", file=sys.stderr)
        return 2
    except PyramidError as error:
        print(f"pyramid solve: {args.file}: {error}", file=sys.stderr)
        return 2
    show_progress = sys.stderr.isatty()
    try:
        question: Question = "best-score" if args.best_score else "optimal" if args.optimal else "verdict"
        for done, answer in enumerate(
            solve_lines(deals, rules, question, args.jobs, args.budget, args.max_memory, args.core), start=1
        ):
            print(answer.text(args.moves), flush=show_progress)
            if show_progress:
                progress_bar(done, len(deals), sys.stderr)
    except PyramidError as error:
        print(f"pyramid solve: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
