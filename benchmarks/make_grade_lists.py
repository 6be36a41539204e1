"""Grow ``pyramid/engine/data/grades-<preset>.bin``: the difficulty of each shipped winnable deal.

Command (from the repository root; CPU-heavy, so niced)::

    nice -n 10 .venv/bin/python benchmarks/make_grade_lists.py [--minutes 5] [--jobs 1] [--again] [PRESET ...]

The deals of each preset's winnable list (``benchmarks/make_winnable_lists.py``)
are measured in list order (:func:`pyramid.engine.grade.measure`, under the
preset's default redeals), carrying on after the last deal the file holds,
until the list is done or ``--minutes`` have passed for that preset (``--again``
starts each list over from its first deal). The lists are measured with the
compiled solver core, which the console grades with too: the script stops
with the reason where it does not load. The
scale (the quarters of the traps) is recomputed from every deal graded so far
and the file rewritten after every batch, so an interrupted run keeps what it
measured. Each preset's line reports the time per deal here and as estimated
on a Pi Zero 2 (what grading a deal live costs there), the scale, how many
deals each grade holds and the file's size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.grade import UNGRADED, GradeList, grade_file_name, measure, pack_grades, scale_from, unpack_grades
from pyramid.engine.rules import PRESETS
from pyramid.engine.solver.compiled import core_name
from pyramid.engine.winnable import read_list
from pyramid.scripting import write_output  # whole or not at all: a run stopped mid-write keeps the last list

DATA = Path(__file__).resolve().parents[1] / "pyramid" / "engine" / "data"
#: How much slower a Raspberry Pi Zero 2 is per core than the machine the lists are made on.
PI_ZERO_2_FACTOR = 10


def traps_of(job: tuple[str, int]) -> tuple[int, float]:
    """The traps of one deal (:data:`UNGRADED` when it got no grade) and the seconds measuring took."""
    name, number = job
    rules = PRESETS[name]
    started = time.perf_counter()
    difficulty = measure(Board(numbered_deal(number, rules.deck), rules), core="compiled")
    seconds = time.perf_counter() - started
    return (UNGRADED if difficulty is None else min(difficulty.traps, UNGRADED - 1)), seconds


def existing(name: str) -> bytes:
    path = DATA / grade_file_name(name)
    return unpack_grades(path.read_bytes()).traps if path.exists() else b""


def grow(name: str, minutes: float, jobs: int, again: bool) -> str:
    """Grade more of ``name``'s winnable list (all of it again with ``again``); the report line."""
    numbers = read_list(name).numbers
    traps = bytearray() if again else bytearray(existing(name))
    path = DATA / grade_file_name(name)
    started = time.perf_counter()
    times: list[float] = []
    batch = 20 * jobs
    # "spawn", not fork: forking a process with other threads can copy a lock held by one of them.
    pool = multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        while len(traps) < len(numbers) and time.perf_counter() - started < minutes * 60:
            work = [(name, number) for number in numbers[len(traps): len(traps) + batch]]
            results = pool.map(traps_of, work) if pool else list(map(traps_of, work))
            traps += bytes(count for count, _ in results)
            times += [seconds for _, seconds in results]
            graded = [count for count in traps if count != UNGRADED]
            if graded:
                write_output("grade list", path, pack_grades(GradeList(scale_from(graded), bytes(traps))))
    finally:
        if pool:
            pool.terminate()
    if not path.exists():
        return f"{name}: no deal graded"
    shipped = unpack_grades(path.read_bytes())
    counts = Counter(shipped.grade(index) for index in range(len(shipped.traps)))
    timing = (f"this run {len(times)} deals, mean {sum(times) / len(times) * 1000:.0f} ms, max "
              f"{max(times) * 1000:.0f} ms here (~{sum(times) / len(times) * PI_ZERO_2_FACTOR:.1f} s, "
              f"~{max(times) * PI_ZERO_2_FACTOR:.1f} s on a Pi Zero 2)") if times else "nothing new"
    return (f"{name}: {len(shipped.traps)} of {len(numbers)} listed deals graded, scale {tuple(shipped.scale)}, "
            f"easy {counts['easy']} medium {counts['medium']} hard {counts['hard']} expert {counts['expert']} "
            f"ungraded {counts[None]}, {path.stat().st_size} bytes; {timing}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--minutes", type=float, default=5.0, help="time limit per preset")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--again", action="store_true", help="grade each list again from its first deal")
    args = parser.parse_args(argv)
    if core_name() != "compiled":
        print("make_grade_lists: the compiled solver core does not load (the log line above says why); "
              "build it with scripts/venv.sh", file=sys.stderr)
        return 2
    for name in args.presets:
        print(grow(name, args.minutes, args.jobs, args.again), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
