"""How long the console's live search takes to find a winnable deal, per preset.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_live_winnable.py [--finds 20] [--seed 1] [PRESET ...]

"Winnable deals only" draws from the shipped lists while they last; past them
(and for redeal allowances below a preset's default) it calls
:func:`pyramid.engine.winnable.find_winnable_number`, which draws random deal
numbers and solves each with :data:`~pyramid.engine.winnable.LIVE_DEAL_SECONDS`.
This runs that function ``--finds`` times per preset under its default
redeals, each with a fresh seeded generator, and prints per preset the CPU
time per deal found (mean, median, max) and the estimate for a Raspberry Pi
Zero 2, about ten times slower per core. A find that returns nothing within
the generous limit given here is counted as a miss.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from make_winnable_lists import PI_ZERO_2_FACTOR  # the same estimate as the list generator's

from pyramid.engine.rules import PRESETS, format_redeals
from pyramid.engine.winnable import find_winnable_number

#: The wall-clock limit given to one find here (the console gives its own).
FIND_SECONDS = 120.0


def row(name: str, finds: int, seed: int) -> str:
    rules = PRESETS[name]
    times: list[float] = []
    misses = 0
    for index in range(finds):
        started = time.process_time()
        number = find_winnable_number(rules, random.Random(seed * 1000 + index), FIND_SECONDS)
        times.append(time.process_time() - started)
        misses += number is None
    mean = statistics.mean(times)
    return (
        f"| {name:<10} | {format_redeals(rules.redeals):<9} | {mean * 1000:>7.0f} | "
        f"{statistics.median(times) * 1000:>7.0f} | {max(times) * 1000:>7.0f} | "
        f"{mean * PI_ZERO_2_FACTOR:>6.1f} | {misses} |"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--finds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"live search for a winnable deal, {args.finds} finds per preset (CPU ms per deal found)")
    print("| preset     | redeals   | mean ms | median  |  max ms | Pi s ~ | misses |\n|---|---|---|---|---|---|---|")
    for name in args.presets:
        print(row(name, args.finds, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
