"""Grow ``pyramid/engine/data/pars-<preset>.bin``: the par (shortest solution) of shipped winnable deals.

Command (from the repository root; CPU-heavy, so niced)::

    nice -n 10 .venv/bin/python benchmarks/make_par_lists.py [--count 400] [--minutes 3] [--jobs 1] [PRESET ...]

The deals of each preset's winnable list are solved shortest
(``solve(optimal=True)``, under the preset's default redeals) in list order,
carrying on after the last deal the file holds, with a node budget: a deal
that needs more gets no par (0) and is never a daily deal. It stops at
``--count`` deals or after ``--minutes`` for that preset; the file is
rewritten after every batch. Each preset's line reports the time per deal
here and as estimated on a Pi Zero 2 (why the pars are shipped, not computed
live), the days of daily deals the file holds and its size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.daily import NO_PAR, challenges, pack_pars, par_file_name, unpack_pars
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS
from pyramid.engine.solver import solve
from pyramid.engine.winnable import read_list
from pyramid.scripting import write_output  # whole or not at all: a run stopped mid-write keeps the last list

DATA = Path(__file__).resolve().parents[1] / "pyramid" / "engine" / "data"
#: How much slower a Raspberry Pi Zero 2 is per core than the machine the lists are made on.
PI_ZERO_2_FACTOR = 10
#: The solver's node budget per deal (about 4 s here).
PAR_NODES = 200_000


def par_of(job: tuple[str, int]) -> tuple[int, float]:
    """The par of one deal (:data:`NO_PAR` past the budget) and the seconds solving took."""
    name, number = job
    rules = PRESETS[name]
    started = time.perf_counter()
    solution = solve(Board(numbered_deal(number, rules.deck), rules), optimal=True, max_nodes=PAR_NODES)
    par = solution.steps if solution.verdict == "win" and solution.steps <= 255 else NO_PAR
    return par, time.perf_counter() - started


def grow(name: str, count: int, minutes: float, jobs: int) -> str:
    """Solve more of ``name``'s winnable list shortest; the report line."""
    numbers = read_list(name).numbers[:count]
    path = DATA / par_file_name(name)
    pars = bytearray(unpack_pars(path.read_bytes()) if path.exists() else b"")
    started = time.perf_counter()
    times: list[float] = []
    batch = 10 * jobs
    # "spawn", not fork: forking a process with other threads can copy a lock held by one of them.
    pool = multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        while len(pars) < len(numbers) and time.perf_counter() - started < minutes * 60:
            work = [(name, number) for number in numbers[len(pars): len(pars) + batch]]
            results = pool.map(par_of, work) if pool else list(map(par_of, work))
            pars += bytes(par for par, _ in results)
            times += [seconds for _, seconds in results]
            write_output("par list", path, pack_pars(bytes(pars)))
    finally:
        if pool:
            pool.terminate()
    challenges.cache_clear()
    timing = (f"this run {len(times)} deals, mean {sum(times) / len(times) * 1000:.0f} ms, max "
              f"{max(times) * 1000:.0f} ms here (~{sum(times) / len(times) * PI_ZERO_2_FACTOR:.1f} s, "
              f"~{max(times) * PI_ZERO_2_FACTOR:.1f} s on a Pi Zero 2)") if times else "nothing new"
    size = path.stat().st_size if path.exists() else 0
    return f"{name}: {len(pars)} deals solved, {len(challenges(name))} days of daily deals, {size} bytes; {timing}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--minutes", type=float, default=3.0, help="time limit per preset")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.presets:
        print(grow(name, args.count, args.minutes, args.jobs), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
