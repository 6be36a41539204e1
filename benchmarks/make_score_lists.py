"""Grow ``pyramid/engine/data/best-scores-<preset>.bin``: the best score of the daily deals of the scoring presets.

Command (from the repository root; CPU- and memory-heavy, so niced)::

    nice -n 10 .venv/bin/python benchmarks/make_score_lists.py [--count 400] [--minutes 30] [--jobs 1]
        [--budget 60] [--again] [PRESET ...]

The first ``--count`` deals of each scoring preset's winnable list (the deals the daily challenge
picks from: :mod:`pyramid.engine.daily`) get the best score reachable under the preset's default
redeals (:func:`pyramid.engine.solver.best_score.best_score`, the compiled core, up to 1 GiB and
``--budget`` seconds a deal), in list order, carrying on after the last deal the file holds (from
the first with ``--again``, after the search got faster); a deal past the budget gets no score par
(0). The file is rewritten after every batch. Each preset's line
reports how many deals have a score par, the time per deal here and the slowest (why they are
shipped: the slowest deals take minutes on a Pi Zero 2, and more memory than it has).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.daily import NO_PAR, pack_scores, score_file_name, unpack_scores
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS
from pyramid.engine.solver.best_score import best_score
from pyramid.engine.winnable import read_list
from pyramid.scripting import write_output  # whole or not at all: a run stopped mid-write keeps the last list

DATA = Path(__file__).resolve().parents[1] / "pyramid" / "engine" / "data"
#: The presets whose score is points (docs/rules.md): the others count the cards left.
SCORING = [name for name, rules in PRESETS.items() if rules.scoring != "cards_left"]
TABLE_BYTES = 1 << 30


def score_of(job: tuple[str, int, float]) -> tuple[int, float]:
    """The best score of one deal (:data:`NO_PAR` past the budget) and the seconds the search took."""
    name, number, budget = job
    rules = PRESETS[name]
    started = time.perf_counter()
    answer = best_score(Board(numbered_deal(number, rules.deck), rules), max_seconds=budget, max_bytes=TABLE_BYTES)
    return (answer.score if answer.verdict == "best" else NO_PAR), time.perf_counter() - started


def grow(name: str, count: int, minutes: float, jobs: int, budget: float, again: bool) -> str:
    """Search more of ``name``'s daily deals (all of them again with ``again``); the report line."""
    numbers = read_list(name).numbers[:count]
    path = DATA / score_file_name(name)
    scores = [] if again else list(unpack_scores(path.read_bytes()) if path.exists() else ())
    started = time.perf_counter()
    times: list[float] = []
    batch = 4 * jobs
    # "spawn", not fork: forking a process with other threads can copy a lock held by one of them.
    pool = multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        while len(scores) < len(numbers) and time.perf_counter() - started < minutes * 60:
            work = [(name, number, budget) for number in numbers[len(scores): len(scores) + batch]]
            results = pool.map(score_of, work) if pool else list(map(score_of, work))
            scores += [score for score, _ in results]
            times += [seconds for _, seconds in results]
            write_output("score list", path, pack_scores(scores))
    finally:
        if pool:
            pool.terminate()
    known = sum(score != NO_PAR for score in scores)
    timing = (f"this run {len(times)} deals, mean {sum(times) / len(times):.1f} s, max {max(times):.1f} s here"
              if times else "nothing new")
    size = path.stat().st_size if path.exists() else 0
    return f"{name}: {len(scores)} deals searched, {known} with a score par, {size} bytes; {timing}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=SCORING)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--minutes", type=float, default=30.0, help="time limit per preset")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds a deal")
    parser.add_argument("--again", action="store_true", help="search each preset's deals again from the first")
    args = parser.parse_args(argv)
    for name in args.presets:
        print(grow(name, args.count, args.minutes, args.jobs, args.budget, args.again), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
