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
   timed from ``MatchLink.play`` to the host presenting the frame that shows it;
3. "Open a table" to the table seen in the other console's network menu (root
   only: two network namespaces joined by a veth pair, python-zeroconf on both
   sides): two scripted console processes, one in its network menu moving the
   selection every 25 ms (so its trace says what its menu lists), the other
   choosing "Open a table"; both traces are watched, so the figure includes
   up to a script step and a poll (about 35 ms).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

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
    from pyramid.app.frontend import Frontend
    from pyramid.app.loop import run_loop
    from pyramid.console.menus import open_console
    from pyramid.console.net.lobby import start_table
    from pyramid.console.net.tables import Tables
    from pyramid.console.protocols import DealChoice
    from pyramid.console.session import Session
    from pyramid.engine.duel.ai import play_match
    from pyramid.net import events as ev
    from pyramid.net.network import Network
    from pyramid.system.sdnotify import Notifier
    from pyramid.view import View

    hub = InputHub()
    tables = Tables(lambda name: Network(name, hub.post, discovery="off"), 0, "127.0.0.1", "Ann")
    session = Session(None, DealChoice(number=MATCH), tables=tables)
    open_console(session)
    start_table(session, None)
    shown: dict[int, float] = {}
    seen = threading.Condition()

    class TimedFrontend(Frontend):
        def show(self, view: View) -> None:
            super().show(view)
            run = session.tables.run
            count = len(run.opponent.moves) if run is not None else 0
            with seen:
                shown.setdefault(count, time.perf_counter())
                seen.notify_all()

    frontend = TimedFrontend(HeadlessDisplay((480, 320)))
    loop = threading.Thread(target=run_loop, args=(session, frontend, hub, Notifier(None)))
    loop.start()
    host = session.tables.network()
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


#: Main menu → Pyramids → "Play on the network" on a fresh console.
TO_NETWORK_MENU = "down down down ok down down down down ok"


def first_line_time(path: Path, wanted: "Callable[[dict[str, Any]], bool]", limit: float = 60) -> float:
    """When a trace line that is ``wanted`` first appears (polling every 10 ms)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists():
            for text in path.read_text().splitlines():
                if text.endswith("}") and wanted(json.loads(text)):
                    return time.perf_counter()
        time.sleep(0.01)
    raise TimeoutError(f"{path}: no such line within {limit:.0f} s")


def open_to_seen() -> None:
    if os.geteuid() != 0:
        print("open a table to seen: skipped (needs root for network namespaces)")
        return
    ns, root = f"pyrcon{os.getpid()}", Path(__file__).resolve().parent.parent

    def run(*command: str) -> None:
        subprocess.run(command, check=True, capture_output=True)

    def console(side: str, script: str, directory: Path) -> subprocess.Popen[bytes]:
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "SDL_VIDEODRIVER": "dummy",
               "PYRAMID_DATA_DIR": str(directory / side), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        return subprocess.Popen(["ip", "netns", "exec", ns + side, sys.executable, "-m", "pyramid", "--display",
                                 "headless", "--name", side.upper(), "--script", script, "--script-delay", "25",
                                 "--trace", str(directory / f"{side}.jsonl")], cwd=root, env=env,
                                stdout=subprocess.DEVNULL, stderr=open(directory / f"{side}.err", "wb"))

    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        consoles: list[subprocess.Popen[bytes]] = []
        try:
            run("ip", "netns", "add", ns + "a")
            run("ip", "netns", "add", ns + "b")
            run("ip", "link", "add", "vcona", "netns", ns + "a", "type", "veth", "peer", "name", "vconb",
                "netns", ns + "b")
            for side, address in (("a", "10.79.0.1/24"), ("b", "10.79.0.2/24")):
                run("ip", "-n", ns + side, "addr", "add", address, "dev", "vcon" + side)
                run("ip", "-n", ns + side, "link", "set", "vcon" + side, "up")
            consoles.append(console("b", TO_NETWORK_MENU + " down up" * 800, directory))
            first_line_time(directory / "b.jsonl", lambda state: state["screen"] == "network_menu")
            # A goes to its network menu, pauses (a "wait" nothing answers), then chooses "Open a table".
            consoles.append(console("a", TO_NETWORK_MENU + " wait ok wait:joined", directory))
            opened = first_line_time(directory / "a.jsonl", lambda state: state["screen"] == "duel")
            seen = first_line_time(directory / "b.jsonl", lambda state: state["screen"] == "network_menu" and any(
                item.startswith("A · match") for item in state["menu"]["items"]))
            print(f'"Open a table" to the table in the other console\'s network menu (zeroconf, two namespaces): '
                  f"{seen - opened:.3f} s (resolution about 35 ms: a script step and a poll)")
        except TimeoutError:
            for side in "ab":
                log = directory / f"{side}.err"
                print(f"console {side}: {log.read_text()[-2000:] if log.exists() else 'no output'}", file=sys.stderr)
            raise
        finally:
            for process in consoles:
                process.kill()
                process.wait()
            subprocess.run(["ip", "netns", "del", ns + "a"], capture_output=True)
            subprocess.run(["ip", "netns", "del", ns + "b"], capture_output=True)


def main() -> None:
    seconds = float(sys.argv[sys.argv.index("--idle-seconds") + 1]) if "--idle-seconds" in sys.argv else 10.0
    idle_cpu(seconds)
    latencies = sorted(move_to_screen())
    print(f"move to the opponent's screen, loopback ({len(latencies)} moves): "
          f"median {1000 * statistics.median(latencies):.2f} ms, "
          f"p95 {1000 * latencies[int(0.95 * len(latencies))]:.2f} ms, max {1000 * latencies[-1]:.2f} ms")
    open_to_seen()


if __name__ == "__main__":
    main()
