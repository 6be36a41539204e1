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
import queue
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from pyramid.engine.duel.ai import play_match  # noqa: E402
from pyramid.net import events as ev  # noqa: E402
from pyramid.net.network import Network  # noqa: E402
from table_server import Broker, make_server  # noqa: E402


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
        broker = Broker(make_server(Path(scratch), "ann", "bob")[0])
        broker.start()
        try:
            run(broker, args.idle_seconds)
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


if __name__ == "__main__":
    main()
