"""The console at a network table: idle CPU of the console processes, and move to opponent's screen.

Run: ``nice .venv/bin/python benchmarks/bench_net_console.py`` (about 40 s; ``--idle-seconds N``).

1. idle CPU, the approach of bench_console.py: the ``pyramid`` console (not the
   scripted mode) with ``--table open`` on 127.0.0.1, headless with GPIO
   buttons on gpiozero's mock pins, measured from ``/proc/PID/stat`` starting
   a second after ``READY=1``; first alone at its open table, then with a
   second console process seated at it (both measured) — target < 1 % of a core;
2. move to the opponent's screen: in this process, a console (a Session with
   its table service and the real ``Network``, the input hub's queue, the
   real main loop and renderer on a headless display) hosts the table; a
   network endpoint plays the good player's moves one at a time, and each is
   timed from ``MatchLink.play`` to the host presenting the frame that shows it.
"""

from __future__ import annotations

import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_console import cpu_seconds, start_until_ready  # noqa: E402

MATCH = 16


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def idle_cpu(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
               "GPIOZERO_PIN_FACTORY": "mock"}
        port = free_port()
        console = [str(Path(sys.executable).parent / "pyramid"), "--display", "headless", "--size", "480x320",
                   "--input", "gpio"]
        host, _ = start_until_ready([*console, "--name", "Ann", "--table", "open", "--table-port", str(port),
                                     "--table-address", "127.0.0.1", "--deal-number", str(MATCH)],
                                    {**env, "PYRAMID_DATA_DIR": str(directory / "a")}, directory)
        try:
            time.sleep(1.0)
            before = cpu_seconds(host.pid)
            time.sleep(seconds)
            used = cpu_seconds(host.pid) - before
            print(f"idle CPU at an open table, waiting alone, over {seconds:.0f} s: {used:.3f} s = "
                  f"{100 * used / seconds:.2f} % of a core (target < 1 %)")
            guest, _ = start_until_ready([*console, "--name", "Bob", "--table", f"join:127.0.0.1:{port}"],
                                         {**env, "PYRAMID_DATA_DIR": str(directory / "b")}, directory)
            try:
                time.sleep(2.0)  # seated, resent, settled
                before_host, before_guest = cpu_seconds(host.pid), cpu_seconds(guest.pid)
                time.sleep(seconds)
                used_host = cpu_seconds(host.pid) - before_host
                used_guest = cpu_seconds(guest.pid) - before_guest
                print(f"idle CPU with a guest console seated, over {seconds:.0f} s (pings every 15 s): "
                      f"host {100 * used_host / seconds:.2f} %, guest {100 * used_guest / seconds:.2f} % of a core")
            finally:
                guest.terminate()
                guest.wait()
        finally:
            host.terminate()
            host.wait()


def move_to_screen() -> list[float]:
    """Seconds from the opponent's ``play`` to the host's frame showing that move, for each move."""
    import queue

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from display.headless import HeadlessDisplay
    from input.hub import InputHub
    from pyramid.app import Frontend, run_loop
    from pyramid.console.menus import open_console
    from pyramid.console.net.lobby import start_table
    from pyramid.console.net.service import TableService
    from pyramid.console.screen import DealChoice
    from pyramid.console.session import Session
    from pyramid.engine.duel.ai import play_match
    from pyramid.net import events as ev
    from pyramid.net.network import Network
    from pyramid.system.sdnotify import Notifier
    from pyramid.view import View

    hub = InputHub()
    tables = TableService(lambda name: Network(name, hub.post, discovery="off"), 0, "127.0.0.1")
    session = Session(None, DealChoice(number=MATCH), tables=tables)
    open_console(session)
    start_table(session, None, None)
    shown: dict[int, float] = {}
    seen = threading.Condition()

    class TimedFrontend(Frontend):
        def show(self, view: View) -> None:
            super().show(view)
            run = session.tables.run
            count = len(run.opponent_board().move_stack) if run is not None else 0
            with seen:
                shown.setdefault(count, time.perf_counter())
                seen.notify_all()

    frontend = TimedFrontend(HeadlessDisplay((480, 320)))
    loop = threading.Thread(target=run_loop, args=(session, frontend, hub, Notifier(None)))
    loop.start()
    host = session.tables.network(session)
    while (view := host.table_view()) is None or view.port == 0:
        time.sleep(0.01)
    events: queue.Queue[ev.NetEvent] = queue.Queue()
    guest = Network("Bob", events.put, discovery="off")
    guest.join("127.0.0.1", view.port)
    while not isinstance(events.get(timeout=30), ev.Seated):
        pass
    link = guest.link
    assert link is not None
    latencies = []
    try:
        for number, move in enumerate(play_match(MATCH, "good").moves, start=1):
            started = time.perf_counter()
            link.play(move)
            with seen:
                seen.wait_for(lambda: number in shown, timeout=30)
            latencies.append(shown[number] - started)
    finally:
        guest.stop()
        hub.stop()
        loop.join()
        session.tables.stop()
        frontend.close()
    return latencies


def main() -> None:
    seconds = float(sys.argv[sys.argv.index("--idle-seconds") + 1]) if "--idle-seconds" in sys.argv else 10.0
    idle_cpu(seconds)
    latencies = sorted(move_to_screen())
    print(f"move to the opponent's screen, loopback ({len(latencies)} moves): "
          f"median {1000 * statistics.median(latencies):.2f} ms, "
          f"p95 {1000 * latencies[int(0.95 * len(latencies))]:.2f} ms, max {1000 * latencies[-1]:.2f} ms")


if __name__ == "__main__":
    main()
