"""How strong each computer level of the Pyramids duel is, and what its game costs.

Run: ``nice .venv/bin/python benchmarks/bench_duel.py [MATCHES] [FIRST]`` (default
200 matches numbered from 1; about a minute on one core here). Every level
plays the same matches, seeing of them only what a person sees (no level knows
the stock's order). The table gives each level's mean and median score, the mean
number of rounds it clears, its wins/ties/losses against the level below on
the same match (the duel rule: the higher total wins) and its win rate, and the
CPU time of a whole game and of its slowest game. The expert's time is the
number to multiply by about ten for a Raspberry Pi Zero 2.

Matches 1..200 (issue 14), when the expert still planned with the stock's order:
casual -27.7 (median -40, 0.00 rounds cleared), good 110.7 (98, 0.07; won
190 / tied 2 / lost 8 against casual), expert 665.7 (500, 1.11; 200 / 0 / 0
against good), 0.46 CPU s per expert game (slowest 1.33 s).

Issue 47 (a round ends only when the player has no move in sight: the stock empty, the joker used,
no card fitting), matches 1..200, the main before and after on this machine: good 110.7 → 104.4
(the turns a dead round now takes cost 5 each), expert 275.6 → 265.9 (median 250 → 235, 0.09
rounds cleared both), expert against good 188 / 4 / 8 → 186 / 3 / 11, 0.35 → 0.33 CPU s a game.
"""

from __future__ import annotations

import statistics
import sys
import time

from pyramid.engine.duel.ai import LEVELS, MatchRecord, play_match


def play_all(level: str, matches: range) -> tuple[list[MatchRecord], list[float]]:
    records, seconds = [], []
    for number in matches:
        start = time.process_time()
        records.append(play_match(number, level))
        seconds.append(time.process_time() - start)
    return records, seconds


def main(argv: list[str]) -> None:
    count = int(argv[0]) if argv else 200
    first = int(argv[1]) if len(argv) > 1 else 1
    matches = range(first, first + count)
    results = {level: play_all(level, matches) for level in LEVELS}
    print(f"Pyramids duel, matches {matches.start}..{matches.stop - 1} ({count} matches)")
    print(f"{'level':<8} {'mean score':>10} {'median':>7} {'rounds cleared':>14} "
          f"{'vs level below: won / tied / lost':>34} {'win rate':>8} {'CPU s/game':>10} {'slowest':>8}")
    for index, level in enumerate(LEVELS):
        records, seconds = results[level]
        totals = [record.total for record in records]
        cleared = statistics.mean(sum(r.cleared for r in record.rounds) for record in records)
        versus, rate = "-", "-"
        if index:
            below = [record.total for record in results[LEVELS[index - 1]][0]]
            won = sum(a > b for a, b in zip(totals, below))
            tied = sum(a == b for a, b in zip(totals, below))
            versus = f"{LEVELS[index - 1]}: {won} / {tied} / {count - won - tied}"
            rate = f"{won / count:.0%}"
        print(f"{level:<8} {statistics.mean(totals):>10.1f} {statistics.median(totals):>7.0f} {cleared:>14.2f} "
              f"{versus:>34} {rate:>8} {statistics.mean(seconds):>10.3f} {max(seconds):>8.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
