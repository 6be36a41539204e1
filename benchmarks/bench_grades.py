"""Do the difficulty grades separate? A greedy player's win rate, grade by grade, per preset.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_grades.py [--deals 1000] [PRESET ...]

For each preset with shipped grades (``benchmarks/make_grade_lists.py``), the
first ``--deals`` graded deals of its winnable list are played by the greedy
player of ``tests/greedy.py`` under the preset's default redeals, and
a table prints, per grade, the deals, the greedy wins and the win rate. The
grades separate when the rate falls from Easy to Expert; the last column says
whether each step down holds ("falls") and the closing line counts the
presets where it falls at every step.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.difficulty import GRADES, Grade
from pyramid.engine.grade import read_grades
from pyramid.engine.rules import PRESETS
from pyramid.engine.winnable import read_list

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the greedy player (tests/greedy.py)
from greedy import greedy_wins  # noqa: E402


def rates(name: str, deals: int) -> dict[Grade, tuple[int, int]]:
    """Grade → (deals, greedy wins) over the first ``deals`` graded deals of ``name``."""
    shipped = read_grades(name)
    assert shipped is not None
    rules = PRESETS[name]
    table: dict[Grade, tuple[int, int]] = dict.fromkeys(GRADES, (0, 0))
    numbers = read_list(name).numbers
    graded = [(numbers[i], grade) for i in range(len(shipped.traps)) if (grade := shipped.grade(i)) is not None]
    for number, grade in graded[:deals]:
        played, won = table[grade]
        table[grade] = (played + 1, won + greedy_wins(Board(numbered_deal(number, rules.deck), rules)))
    return table


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("presets", nargs="*", default=[name for name in PRESETS if read_grades(name)])
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args(argv)
    separated = 0
    print("| preset | grade | deals | greedy wins | win rate | |")
    print("|---|---|---|---|---|---|")
    for name in args.presets:
        started = time.perf_counter()
        table = rates(name, args.deals)
        before: float | None = None
        falls_everywhere = True
        for grade in GRADES:
            played, won = table[grade]
            rate = won / played if played else float("nan")
            step = "" if before is None else ("falls" if rate < before else "DOES NOT FALL")
            falls_everywhere &= before is None or rate < before
            print(f"| {name} | {grade} | {played} | {won} | {rate:.1%} | {step} |")
            before = rate
        separated += falls_everywhere
        total = sum(played for played, _ in table.values())
        print(f"| {name} | all | {total} | {sum(won for _, won in table.values())} | "
              f"| {time.perf_counter() - started:.1f} s |", flush=True)
    print(f"\nThe greedy win rate falls at every grade in {separated} of {len(args.presets)} presets.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
