"""A day's board of friends' results (issue 50): each result read and proven by replaying its line.

Run: ``.venv/bin/python benchmarks/bench_daily_board.py [--results 1000]`` (a few seconds).

The results are real games of today's daily deal under RetroHub without redeals: the shortest win
(the solver's) and games given up after every number of moves, each with its own player's name, as
1,000 accounts of a club would publish them. Measured in the same run: the engine's replay of the
same lines alone (the baseline: what no proof can go under), then reading and proving every result
as a console does on its prover thread (:func:`pyramid.net.daily_result.parse_result` then
:func:`~pyramid.net.daily_result.prove`), its ratio to the baseline, and the peak memory of holding
the proven board (tracemalloc). The Pi Zero 2 column is the time ×10 (docs/performance.md: about ten
times slower per core than this machine).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyramid.engine.daily import daily_board  # noqa: E402
from pyramid.engine.rules import RETROHUB  # noqa: E402
from pyramid.engine.solver import solve  # noqa: E402
from pyramid.net.daily_result import DailyResult, ProvenResult, parse_result, prove  # noqa: E402
from pyramid.saved.stats import PyramidVariant  # noqa: E402

PI_ZERO_2 = 10
ROUNDS = 5


def club(day: datetime.date, count: int) -> list[tuple[str, bytes]]:
    """``count`` accounts' results of ``day``: each a prefix of the shortest win (the whole of it for some)."""
    rules = RETROHUB.with_redeals(0)
    line = [str(move) for move in solve(daily_board(day, rules), optimal=True, max_seconds=60).moves]
    results = []
    for index in range(count):
        played = line[:len(line) - index % (len(line) + 1)]
        board = daily_board(day, rules)
        board.replay(played)
        result = DailyResult(day, PyramidVariant("retrohub", 0), f"Player {index}", board.status() == "cleared",
                             board.counted_score(), len(played), 60 + index, index % 7 == 0, tuple(played))
        results.append((f"account-{index}", result.to_bytes()))
    return results


def replay_only(day: datetime.date, lines: list[tuple[str, ...]]) -> float:
    started = time.perf_counter()
    for line in lines:
        board = daily_board(day, RETROHUB.with_redeals(0))
        board.replay(line)
        board.status()
    return time.perf_counter() - started


def proven(day: datetime.date, results: list[tuple[str, bytes]]) -> tuple[float, list[ProvenResult]]:
    started = time.perf_counter()
    board = [prove(parse_result(payload), account, day) for account, payload in results]
    return time.perf_counter() - started, board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1000)
    count = parser.parse_args().results
    day = datetime.date.today()
    results = club(day, count)
    lines = [parse_result(payload).line for _, payload in results]
    moves = sum(len(line) for line in lines)
    print(f"{count} results of {day} (retrohub/none), {moves} moves in all, "
          f"{sum(len(payload) for _, payload in results) / count:.0f} bytes a result on average")
    baselines, proofs = [], []
    for _ in range(ROUNDS):  # alternated, so that neither has the warm caches alone
        baselines.append(replay_only(day, lines))
        proofs.append(proven(day, results)[0])
    baseline, proof = statistics.median(baselines), statistics.median(proofs)
    tracemalloc.start()
    _, board = proven(day, results)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(board) == count
    print(f"{'':28} {'here':>10} {'Pi Zero 2 (x10)':>16}")
    print(f"{'replay alone (baseline)':28} {baseline * 1000:8.0f} ms {baseline * PI_ZERO_2 * 1000:13.0f} ms")
    print(f"{'read and proven':28} {proof * 1000:8.0f} ms {proof * PI_ZERO_2 * 1000:13.0f} ms")
    print(f"{'  a result':28} {proof / count * 1e6:8.0f} us {proof / count * PI_ZERO_2 * 1e6:13.0f} us")
    print(f"proof / replay alone: {proof / baseline:.2f}; peak memory proving and holding the board: "
          f"{peak / 1024:.0f} KiB ({peak / count:.0f} bytes a result)")


if __name__ == "__main__":
    main()
