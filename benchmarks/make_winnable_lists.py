"""Grow ``pyramid/engine/data/winnable-<preset>.bin``: proven-winnable numbered deals per preset.

Command (from the repository root; CPU-heavy, so niced)::

    nice -n 10 .venv/bin/python benchmarks/make_winnable_lists.py [--count 10000] [--max-nodes 4000]
        [--minutes 20] [--jobs 1] [PRESET ...]

Deals are solved in verdict mode under each preset's default redeals, in
order, from the one after the last deal the list says was tried, with a node
budget so that the rare deal needing a long proof is skipped rather than
waited for (only proven wins are listed), until the list holds ``--count``
wins or ``--minutes`` have passed for that preset. The file is rewritten after
every batch, so an interrupted run keeps what it found and the next one
carries on. Each preset's line reports the solver's time per win found — what
the console's live search (:func:`pyramid.engine.winnable.find_winnable_number`)
spends per winnable deal on this machine — and the file's size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, format_redeals
from pyramid.engine.solver import solve
from pyramid.engine.winnable import WinnableList, list_file_name, pack_numbers, unpack_numbers
from pyramid.scripting import write_output  # whole or not at all: a run stopped mid-write keeps the last list

DATA = Path(__file__).resolve().parents[1] / "pyramid" / "engine" / "data"
#: How much slower a Raspberry Pi Zero 2 is per core than the machine the lists are made on.
PI_ZERO_2_FACTOR = 10


def _is_won(job: tuple[str, int, int]) -> bool:
    name, number, max_nodes = job
    rules = PRESETS[name]
    return solve(Board(numbered_deal(number, rules.deck), rules), max_nodes=max_nodes).verdict == "win"


def existing(name: str) -> WinnableList:
    path = DATA / list_file_name(name)
    return unpack_numbers(path.read_bytes()) if path.exists() else WinnableList((), 0)


def batches(name: str, start: int, size: int, max_nodes: int, jobs: int) -> Iterator[list[int]]:
    """Successive batches of ``size`` deal numbers from ``start`` on, each with its proven wins."""
    # "spawn", not fork: forking a process that has other threads (a GUI, input readers,
    # a test run) can copy a lock held by one of them and hang the worker forever.
    pool = multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        while True:
            numbers = range(start, start + size)
            jobs_ = [(name, n, max_nodes) for n in numbers]
            verdicts = pool.map(_is_won, jobs_) if pool else map(_is_won, jobs_)
            yield [number for number, won in zip(numbers, verdicts) if won]
            start += size
    finally:
        if pool:
            pool.terminate()


def grow(name: str, count: int, max_nodes: int, minutes: float, jobs: int) -> str:
    """Extend ``name``'s list toward ``count`` wins; the report line."""
    found = existing(name)
    numbers, searched = list(found.numbers), found.searched
    started = time.perf_counter()
    new_wins = tried = 0
    path = DATA / list_file_name(name)
    batch = 50 * jobs
    if len(numbers) < count:
        for wins in batches(name, searched + 1, batch, max_nodes, jobs):
            kept = wins[: count - len(numbers)]
            numbers += kept
            # Every deal up to ``searched`` was tried and its win, if any, kept.
            searched = kept[-1] if len(kept) < len(wins) else searched + batch
            tried += batch
            new_wins += len(wins)
            write_output("winnable list", path, pack_numbers(WinnableList(tuple(numbers), searched)))
            if len(numbers) >= count or time.perf_counter() - started > minutes * 60:
                break
    seconds = time.perf_counter() - started
    per_win = seconds / new_wins if new_wins else float("nan")
    rules = PRESETS[name]
    return (
        f"{name} (redeals {format_redeals(rules.redeals)}): {len(numbers)} wins among deals 1..{searched}, "
        f"{path.stat().st_size if path.exists() else 0} bytes; this run {tried} deals, {new_wins} wins in "
        f"{seconds:.0f} s: {per_win * 1000:.0f} ms per win here, ~{per_win * PI_ZERO_2_FACTOR:.2f} s on a Pi Zero 2"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--max-nodes", type=int, default=4000)
    parser.add_argument("--minutes", type=float, default=20.0, help="time limit per preset")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    DATA.mkdir(exist_ok=True)
    for name in args.presets:
        print(grow(name, args.count, args.max_nodes, args.minutes, args.jobs), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
