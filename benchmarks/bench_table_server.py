"""Table server benchmark (issue 30): a move to the opponent's main loop through a real Mosquitto on
loopback (median, p95) beside the same on the home network's TCP in the same run, idle CPU at a
server table with a seated opponent, and the time to play on after the server restarts.

The server is made by firmware/server/make-server.sh in a scratch directory and run with the shipped
configuration (TLS, ACL, ``set_tcp_nodelay``), as tests/table_server.py does.

Run: ``.venv/bin/python benchmarks/bench_table_server.py`` (``--idle-seconds 60`` for a longer idle
window; needs ``apt-get install mosquitto mosquitto-clients``).
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from pyramid.engine.duel.ai import play_match  # noqa: E402
from pyramid.net import events as ev  # noqa: E402
from pyramid.net.network import Network  # noqa: E402
from bench_console import cpu_seconds, start_until_ready  # noqa: E402
from table_server import Broker, Mallory, make_server  # noqa: E402


class End:
    def __init__(self, name: str, **options: Any) -> None:
        self.events: queue.Queue[ev.NetEvent] = queue.Queue()
        self.net = Network(name, self.events.put, discovery="off", **options)

    def wait(self, kind: type, where: Any = lambda event: True) -> Any:
        while True:
            event = self.events.get(timeout=60)
            if isinstance(event, kind) and where(event):
                return event


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"median {statistics.median(samples):.3f} ms, p95 {samples[int(len(samples) * 0.95) - 1]:.3f} ms"
            f" over {len(samples)} moves")


def move_times(host: End, guest: End, match: int) -> list[float]:
    link = host.net.link
    assert link is not None
    samples = []
    for move in play_match(match, "expert").moves:
        start = time.perf_counter()
        link.play(move)
        guest.wait(ev.OpponentMoved)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        broker = Broker(make_server(Path(scratch), "ann", "bob", "mallory")[0])
        broker.start()
        try:
            run(broker, args.idle_seconds)
            consoles_idle(broker, Path(scratch), args.idle_seconds)
        finally:
            broker.kill()


def run(broker: Broker, idle_seconds: float) -> None:
    # The home network, as the baseline of the same run.
    lan_host, lan_guest = End("Ann"), End("Bob")
    lan_host.net.open_table(7, "good", "127.0.0.1", 0)
    lan_guest.net.join("127.0.0.1", lan_host.wait(ev.Listening).port)
    lan_guest.wait(ev.Seated)
    lan = move_times(lan_host, lan_guest, 7)
    lan_guest.net.stop()
    lan_host.net.stop()

    host = End("Ann", server=broker.server.account("ann"))
    guest = End("Bob", server=broker.server.account("bob"))
    started = time.perf_counter()
    host.net.open_table(7, "good", "127.0.0.1", 0)
    host.wait(ev.ServerState, lambda event: event.state == "connected")
    guest.net.join_server("ann")
    guest.wait(ev.Seated)
    print(f"table opened to guest seated through the server: {(time.perf_counter() - started) * 1000:.0f} ms"
          " (both connecting from scratch, TLS included)")
    server = move_times(host, guest, 7)
    print(f"move to the opponent's main loop, home network (TCP, loopback): {percentiles(lan)}")
    print(f"move to the opponent's main loop, through the server (loopback):  {percentiles(server)}"
          f"  ({statistics.median(server) / statistics.median(lan):.1f}x the home network's median)")

    before = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    time.sleep(idle_seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"idle CPU at a server table with a seated opponent (both consoles in this process), {idle_seconds:g} s:"
          f" {cpu * 1000:.1f} ms = {100 * cpu / (time.perf_counter() - wall):.3f} % of a core")
    flood(broker, host)

    broker.kill()
    guest.wait(ev.PeerConnection, lambda event: not event.connected)
    broker.start()
    back = time.perf_counter()
    guest.wait(ev.Seated, lambda event: event.resumed)
    seated = time.perf_counter()
    print(f"server killed and started again: the guest seated again {(seated - back) * 1000:.0f} ms after the server"
          " listens (the consoles reconnect 1 s after a drop, doubling to 30 s; the guest asks again 0.5 s doubling"
          " to 10 s)")
    guest.net.stop()
    host.net.stop()


def resident_kib() -> int:
    return int(next(line for line in Path("/proc/self/status").read_text().splitlines()
                    if line.startswith("VmRSS:")).split()[1])


def flood(broker: Broker, host: End) -> None:
    """A hostile account floods the host with seat requests (each its own conversation), invites and
    adverts: what the host's console holds afterwards, and its resident memory before and after."""
    session = host.net._session
    assert session is not None
    mallory = Mallory(broker.server)
    before = resident_kib()
    started = time.perf_counter()
    rounds = 2000
    for number in range(rounds):
        conversation = f"{number:016x}".encode()
        mallory.send("pyramids/v1/seats/ann/mallory", b'{"t":"hello","v":2,"name":"Mallory"}\n', conversation)
        mallory.send("pyramids/v1/invites/ann/mallory", b'{"t":"invite","host":"M","port":1,"match":1}\n')
        mallory.send("pyramids/v1/adverts/mallory", f'{{"host":"M{number}","match":"1","level":"good","seats":"1",'
                     f'"v":"2"}}'.encode(), retain=True)
    time.sleep(1.0)
    mallory.stop()
    print(f"flood of {3 * rounds} messages from one hostile account in {time.perf_counter() - started:.1f} s:"
          f" the host holds {len(session._conversations)} conversations (at most 32), {len(session._adverts)}"
          f" adverts; resident memory {before} KiB before, {resident_kib()} KiB after")


def consoles_idle(broker: Broker, directory: Path, seconds: float) -> None:
    """Two ``pyramid`` console processes (not the scripted mode) seated at a server table, idle: CPU
    from /proc, as bench_net_console.py measures them on the home network."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1", "GPIOZERO_PIN_FACTORY": "mock"}
    console = [str(Path(sys.executable).parent / "pyramid"), "--display", "headless", "--size", "480x320",
               "--input", "gpio"]
    server = broker.server
    host, _ = start_until_ready(
        [*console, "--name", "Ann", "--table", "open", "--table-port", "0", "--table-address", "127.0.0.1",
         "--deal-number", "16", "--settings", str(server.settings_file("ann", directory / "a" / "pyramid.toml"))],
        {**env, "PYRAMID_DATA_DIR": str(directory / "a")}, directory)
    guest, _ = start_until_ready(
        [*console, "--name", "Bob", "--table", "join:server:ann",
         "--settings", str(server.settings_file("bob", directory / "b" / "pyramid.toml"))],
        {**env, "PYRAMID_DATA_DIR": str(directory / "b")}, directory)
    try:
        time.sleep(2.0)  # seated, resent, settled
        before_host, before_guest = cpu_seconds(host.pid), cpu_seconds(guest.pid)
        time.sleep(seconds)
        used_host, used_guest = cpu_seconds(host.pid) - before_host, cpu_seconds(guest.pid) - before_guest
        print(f"idle CPU of two console processes seated at a server table, over {seconds:g} s (pings every 15 s):"
              f" host {100 * used_host / seconds:.2f} %, guest {100 * used_guest / seconds:.2f} % of a core")
    finally:
        for process in (guest, host):
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
