"""A day's board of friends' results (issue 50): each result read and proven by replaying its line.

Run: ``.venv/bin/python benchmarks/bench_daily_board.py [--results 1000]`` (a few seconds).

The results are real games of today's daily deal under RetroHub without redeals: the shortest win
(the solver's) and games given up after every number of moves, each with its own player's name, as
1,000 accounts of a club would publish them. Measured in the same run: the engine's replay of the
same lines alone (the baseline: what no proof can go under), then reading and proving every result
as a console does on its prover thread (:func:`pyramid.net.daily_result.parse_result` then
:func:`~pyramid.net.daily_result.prove`), its ratio to the baseline, and the peak memory of holding
the proven board (tracemalloc). Then the board as the console shows it: the 1,000 proven results
given to a console (``DailyResultSeen`` each, as the main loop hands them over, twenty between two
views), each view while the board fills that ranks it again (the new results worded; a big board
ranks at most every ``RANK_EVERY`` seconds, so the run steps the session's clock by that much between
views: each is a ranking) and a frame drawn at 320x240 and 1280x720, against the animations' frame of 25 ms
(docs/motion-and-sound.md). The Pi Zero 2 column is the time ×10 (about ten times slower per core
than this machine).
"""

from __future__ import annotations

import argparse
import dataclasses
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
#: Proven results handed to the console between two of its views, as they come from the prover.
FILL_BATCH = 20


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
    tracemalloc.start()
    lean = [dataclasses.replace(kept, result=dataclasses.replace(kept.result, line=())) for kept in proven(day, results)[1]]
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"held without their lines (a week's six days before the board's): {held / 1024:.0f} KiB "
          f"({held / len(lean):.0f} bytes a result)")
    shown(day, board)


class Following:
    """The console's network as the board uses it, the results given by hand: it only follows boards."""

    def follow_daily(self, boards: object) -> None:
        self.boards = boards


def shown(day: datetime.date, board: list[ProvenResult]) -> None:
    """The proven board on a console: taken in, ranked and worded, drawn."""
    import os
    import tempfile

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.render import Renderer
    from pyramid.console.friends_board import RANK_EVERY, FriendsBoardScreen
    from pyramid.console.menus import open_console
    from pyramid.console.net.tables import Tables
    from pyramid.console.protocols import DealChoice, Followed
    from pyramid.console.session import Session
    from pyramid.net.events import DailyResultSeen
    from pyramid.net.server.account import ServerAccount
    from pyramid.saved.store import Store

    with tempfile.TemporaryDirectory() as directory:
        account = ServerAccount("127.0.0.1", 8883, "account-0", Path(directory) / "password", None)
        tables = Tables(lambda name: Following(), server=account)  # type: ignore[arg-type,return-value]
        session = Session(None, DealChoice(), store=Store.open(Path(directory) / "p.db"), tables=tables,
                          today=lambda: day)
        open_console(session)
        session.push(FriendsBoardScreen(session, Followed(day, board[0].result.variant), True, None))
        now = [0.0]
        session.clock = lambda: now[0]  # a big board ranks at most every RANK_EVERY: each view here is one
        taken, views = 0.0, []
        for first in range(0, len(board), FILL_BATCH):  # the proofs come a few at a time: a view after each few
            started = time.perf_counter()
            for proven in board[first:first + FILL_BATCH]:
                session.post_event(DailyResultSeen(proven))
            taken += time.perf_counter() - started
            now[0] += RANK_EVERY
            started = time.perf_counter()
            view = session.view()
            views.append(time.perf_counter() - started)
        started = time.perf_counter()
        session.view()
        again = time.perf_counter() - started
        frames = {}
        for size in ((320, 240), (1280, 720)):
            renderer = Renderer(size)
            renderer.draw(view)  # the fonts and the felt made once, as at the console's start
            started = time.perf_counter()
            for _ in range(ROUNDS):
                renderer.draw(view._replace(menu=view.menu._replace(selected=(view.menu.selected + 1) % len(board))))
                renderer.draw(view)
            frames[size] = (time.perf_counter() - started) / (2 * ROUNDS)
    assert view.menu is not None and len(view.menu.items) == len(board)
    print(f"the board on a console ({len(board)} lines):")
    for what, seconds in ((f"the results taken in, {FILL_BATCH} at a time", taken / len(views)),
                          ("a view ranking them (mean)", statistics.mean(views)), ("  (the slowest)", max(views)),
                          ("a view once all are in", again), *((f"a frame drawn {w}x{h}", frames[w, h]) for w, h in frames)):
        print(f"  {what:30} {seconds * 1000:8.1f} ms {seconds * PI_ZERO_2 * 1000:11.1f} ms on a Pi Zero 2"
              f"{'  (over the 25 ms frame)' if seconds * PI_ZERO_2 > 0.025 else ''}")


if __name__ == "__main__":
    main()
