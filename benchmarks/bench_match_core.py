"""Whole matches through the match's rules alone, against the same matches between two real consoles on 127.0.0.1.

Run: ``.venv/bin/python benchmarks/bench_match_core.py [--matches 200]`` (about 20 s).

Each match: a host (the "good" computer's game) and a guest (the "casual"
one's) connect, sync, play every move of both games, each move sent, replayed
through the engine by the other side, and the statuses checked. Through the core
(tests/match_pair.py: two ``MatchState`` and two queues, every line encoded and
decoded) and through two ``Network`` objects over a real TCP connection (the
network thread, the link, the asyncio channel), alternating match numbers, in
the same run. Printed: matches a second each way, and the share of the core's
time spent in the engine's replay (``DuelBoard``), which bounds what the core
alone could gain.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import queue
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))  # the pair of cores (tests/match_pair.py)

from match_pair import SIDES, Pair, game_line  # noqa: E402
from pyramid.net import events as ev  # noqa: E402
from pyramid.net.network import Network  # noqa: E402

MATCHES = (16, 7, 23, 42, 99)


def through_the_core(count: int) -> float:
    """Seconds for ``count`` whole matches between two match states."""
    start = time.perf_counter()
    for index in range(count):
        pair = Pair(MATCHES[index % len(MATCHES)])
        pair.connect()
        pair.settle()
        while not all(state.board.is_over() for state in pair.states.values()):
            for side in SIDES:
                pair.play(side, 5)
                pair.settle()
        assert pair.states["host"].phase == pair.states["guest"].phase == "finished"
    return time.perf_counter() - start


def wait(events: queue.Queue[ev.NetEvent], kind: type, where: object = None) -> ev.NetEvent:
    while True:
        event = events.get(timeout=30)
        if isinstance(event, kind) and (where is None or getattr(event, "finished", False)):
            return event


def over_tcp(count: int) -> float:
    """Seconds for ``count`` whole matches between two consoles' network layers over 127.0.0.1."""
    host_events: queue.Queue[ev.NetEvent] = queue.Queue()
    guest_events: queue.Queue[ev.NetEvent] = queue.Queue()
    host = Network("Ann", host_events.put, discovery="off")
    guest = Network("Bob", guest_events.put, discovery="off")
    elapsed, port = 0.0, 0
    try:
        for index in range(count):
            match = MATCHES[index % len(MATCHES)]
            start = time.perf_counter()
            host_link = host.open_table(match, "good", "127.0.0.1", port)
            if index == 0:
                port = wait(host_events, ev.Listening).port  # type: ignore[attr-defined]
            guest.join("127.0.0.1", port)
            wait(guest_events, ev.Seated)
            guest_link = guest.link
            assert guest_link is not None
            for move in game_line(match, "good"):
                host_link.play(move)
            for move in game_line(match, "casual"):
                guest_link.play(move)
            wait(host_events, ev.OpponentStatus, "finished")
            wait(guest_events, ev.OpponentStatus, "finished")
            elapsed += time.perf_counter() - start
            guest.close_table()
            wait(host_events, ev.OpponentLeft)
            _drain(host_events)
            _drain(guest_events)
    finally:
        guest.stop()
        host.stop()
    return elapsed


def _drain(events: queue.Queue[ev.NetEvent]) -> None:
    while not events.empty():
        events.get_nowait()


def engine_share(count: int) -> float:
    """The share of the core's time spent inside ``DuelBoard`` (dealing and replaying)."""
    profile = cProfile.Profile()
    profile.runcall(through_the_core, count)
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    engine = sum(row[3] for key, row in stats.stats.items()  # type: ignore[attr-defined]
                 if key[0].endswith("engine/duel/board.py") and key[2] in ("push", "for_match"))
    return engine / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches through the core (a tenth of them over TCP)")
    options = parser.parse_args()
    for match in MATCHES:
        game_line(match, "good"), game_line(match, "casual")  # the computer's games, worked out before timing
    core = through_the_core(options.matches)
    tcp = over_tcp(max(1, options.matches // 10))
    core_rate, tcp_rate = options.matches / core, max(1, options.matches // 10) / tcp
    print(f"through the core: {options.matches} whole matches in {core:.2f} s = {core_rate:.0f} matches/s")
    print(f"over TCP on 127.0.0.1: {max(1, options.matches // 10)} whole matches in {tcp:.2f} s = {tcp_rate:.1f} matches/s")
    print(f"ratio: the core plays {core_rate / tcp_rate:.1f}x as many matches a second as two real consoles' network layers")
    print(f"share of the core's time in the engine's DuelBoard (deals and replayed moves): {engine_share(20):.0%}")


if __name__ == "__main__":
    main()
