"""A club's consoles coming back after the table server restarts (issue 45): how spread out they knock.

``--consoles`` (50) consoles, each this project's real ``Network`` with an account of its own on a
real Mosquitto made by firmware/server/make-server.sh (as tests/table_server.py does), all connected;
then the server is killed, left down ``--down`` seconds, and started again. The consoles reach the
server through a TCP relay here that notes the moment of each connection (a console knocking), and
each console's reconnection is the moment its ``ServerState`` says "connected" again. The same run
is made twice: with the shipped spread (``Limits.server_retry_spread``, each pause drawn between half
of it and all of it) and with none (every console waits exactly the same pauses, as before issue 45).
Printed per run: the most knocks in any 100 ms from the kill until all are back (what the restarting
server meets at once), the knocks in all, and the first and last reconnection after the restart.
Wall-clock times of one machine, compared within the run: the TLS handshakes of one Mosquitto pace
the reconnections themselves either way.

Run: ``.venv/bin/python benchmarks/bench_server_reconnect.py [--consoles 50] [--down 2]`` (needs
``apt-get install mosquitto mosquitto-clients``).
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from pyramid.net import events as ev  # noqa: E402
from pyramid.net.limits import Limits  # noqa: E402
from pyramid.net.network import Network  # noqa: E402
from pyramid.net.server.account import ServerAccount  # noqa: E402
from table_server import Broker, free_port, make_server  # noqa: E402

WINDOW = 0.1


class Relay:
    """A TCP relay on 127.0.0.1 in front of the server, noting when each connection arrives."""

    def __init__(self, upstream: int) -> None:
        self.upstream, self.port = upstream, free_port()
        self.knocks: list[float] = []
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(asyncio.start_server(self._relay, "127.0.0.1", self.port))
        ready.set()
        self._loop.run_forever()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.knocks.append(time.monotonic())
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.close()
            return

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except OSError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


class Console:
    """One console's network and the moments its server state said "connected" (taken as the network
    thread posts it, not when this reads it)."""

    def __init__(self, name: str, server: ServerAccount, limits: Limits) -> None:
        self.connections: queue.Queue[float] = queue.Queue()
        self.net = Network(name, self._post, limits, discovery="off", server=server)

    def _post(self, event: ev.NetEvent) -> None:
        if isinstance(event, ev.ServerState) and event.state == "connected":
            self.connections.put(time.monotonic())

    def connected_at(self, timeout: float = 120.0) -> float:
        return self.connections.get(timeout=timeout)


def reconnections(broker: Broker, accounts: list[str], spread: float, down: float) -> tuple[list[float], list[float]]:
    """The knocks at the server from its kill on, and the consoles' reconnections, in seconds from
    its restart."""
    limits, relay = Limits(server_retry_spread=spread), Relay(broker.server.port)
    consoles = [Console(account.capitalize(), broker.server.account(account)._replace(port=relay.port), limits)
                for account in accounts]
    try:
        for console in consoles:
            console.net.browse()  # the network menu: the console connects to the server
        for console in consoles:
            console.connected_at()
        killed = len(relay.knocks)
        broker.kill()
        time.sleep(down)
        broker.start()
        restarted = time.monotonic()
        back = sorted(console.connected_at() - restarted for console in consoles)
        return [knock - restarted for knock in relay.knocks[killed:]], back
    finally:
        for console in consoles:
            console.net.stop()


def busiest(times: list[float]) -> int:
    """The most reconnections within any :data:`WINDOW`."""
    return max(sum(1 for other in times if start <= other < start + WINDOW) for start in times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--consoles", type=int, default=50)
    parser.add_argument("--down", type=float, default=2.0, help="seconds the server stays down")
    args = parser.parse_args(argv)
    accounts = [f"club{number}" for number in range(args.consoles)]
    with tempfile.TemporaryDirectory() as scratch:
        server, _ = make_server(Path(scratch) / "server", *accounts)
        broker = Broker(server)
        broker.start()
        try:
            for label, spread in (("shipped spread", Limits().server_retry_spread), ("no spread (before)", 0.0)):
                knocks, back = reconnections(broker, accounts, spread, args.down)
                print(f"{label}: at most {busiest(knocks)} knocks in any {WINDOW * 1000:.0f} ms ({len(knocks)} in all); "
                      f"{len(back)} consoles back {back[0]:.2f} to {back[-1]:.2f} s after the restart", flush=True)
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
