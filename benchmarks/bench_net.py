"""Network benchmark: move latency on loopback, idle CPU at an open table, memory under a hostile peer,
and the time from opening a table to a browser seeing it (in two network namespaces, root only).

Run: ``.venv/bin/python benchmarks/bench_net.py`` (add ``--no-discovery`` to skip the namespace part).
"""

from __future__ import annotations

import os
import queue
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyramid.engine.duel.ai import play_match  # noqa: E402
from pyramid.net import events as ev  # noqa: E402
from pyramid.net.network import Network  # noqa: E402


def wait(events: "queue.Queue[ev.NetEvent]", kind: type) -> ev.NetEvent:
    while True:
        event = events.get(timeout=30)
        if isinstance(event, kind):
            return event


def latency() -> None:
    host_events: queue.Queue[ev.NetEvent] = queue.Queue()
    guest_events: queue.Queue[ev.NetEvent] = queue.Queue()
    host, guest = Network("Ann", host_events.put, discovery="off"), Network("Bob", guest_events.put, discovery="off")
    link = host.open_table(7, "good", "127.0.0.1", 0)
    port = wait(host_events, ev.Listening).port  # type: ignore[attr-defined]
    guest.join("127.0.0.1", port)
    wait(guest_events, ev.Seated)
    samples = []
    for move in play_match(7, "expert").moves:
        start = time.perf_counter()
        link.play(move)
        wait(guest_events, ev.OpponentMoved)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    print(f"move to opponent's main loop, loopback: median {statistics.median(samples):.3f} ms,"
          f" p95 {samples[int(len(samples) * 0.95) - 1]:.3f} ms over {len(samples)} moves")

    before = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    time.sleep(10)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"idle CPU, open table with a seated opponent (both ends in this process), 10 s:"
          f" {cpu * 1000:.1f} ms = {100 * cpu / (time.perf_counter() - wall):.3f} % of a core")
    guest.stop()
    host.stop()


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(row.split()[1]) for row in status if row.startswith("VmRSS:"))


def hostile_memory() -> None:
    events: queue.Queue[ev.NetEvent] = queue.Queue()
    host = Network("Ann", events.put, discovery="off")
    host.open_table(7, "good", "127.0.0.1", 0)
    port = wait(events, ev.Listening).port  # type: ignore[attr-defined]
    before = rss_kib()
    peak = before
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", port))
        try:
            for _ in range(160):
                sock.sendall(b"y" * 65536)
                peak = max(peak, rss_kib())
        except OSError:
            pass
        sock.close()
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
    peak = max(peak, rss_kib())
    for sock in socks:
        sock.close()
    print(f"memory: {before} KiB before, peak {peak} KiB while sending 3 x 10 MB lines and holding 200"
          f" connections (+{peak - before} KiB)")
    host.stop()


def discovery_time() -> None:
    if os.geteuid() != 0:
        print("discovery: skipped (needs root for network namespaces)")
        return
    code = (
        "import sys, time, queue;"
        "from pyramid.net.network import Network; from pyramid.net import events as ev;"
        "q = queue.Queue(); n = Network(sys.argv[1], q.put);"
        "mode = sys.argv[2];"
        "start = time.monotonic();"
        "(n.open_table(9, 'good', '', 0) if mode == 'open' else n.browse());"
        "print('ready', flush=True) if mode == 'open' else None;"
        "[None for e in iter(q.get, None) if not (mode == 'browse' and isinstance(e, ev.TableSeen)"
        " and print(round(time.monotonic() - start, 3), flush=True) is None and n.stop() is None and sys.exit(0))]"
    )
    ns = f"pyr-bench-{os.getpid()}"
    run = lambda *c: subprocess.run(c, check=True, capture_output=True)  # noqa: E731
    try:
        run("ip", "netns", "add", ns + "a")
        run("ip", "netns", "add", ns + "b")
        run("ip", "link", "add", "vbencha", "netns", ns + "a", "type", "veth", "peer", "name", "vbenchb", "netns", ns + "b")
        for side, address in (("a", "10.78.0.1/24"), ("b", "10.78.0.2/24")):
            run("ip", "-n", ns + side, "addr", "add", address, "dev", "vbench" + side)
            run("ip", "-n", ns + side, "link", "set", "vbench" + side, "up")
        env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"}
        root = str(Path(__file__).resolve().parent.parent)
        browser = subprocess.Popen(["ip", "netns", "exec", ns + "b", sys.executable, "-c", code, "Bob", "browse"],
                                   cwd=root, env=env, stdout=subprocess.PIPE, text=True)
        time.sleep(2)  # the browser is up and has sent its first queries
        opened = time.monotonic()
        table = subprocess.Popen(["ip", "netns", "exec", ns + "a", sys.executable, "-c", code, "Ann", "open"],
                                 cwd=root, env=env, stdout=subprocess.PIPE, text=True)
        assert table.stdout is not None and browser.stdout is not None
        table.stdout.readline()
        browser.stdout.readline()
        seen = time.monotonic() - opened
        table.kill()
        browser.wait(timeout=30)
        print(f"discovery (zeroconf both sides, two namespaces): {seen:.2f} s from starting the table's"
              f" process to the browser seeing it (process start and import included)")
    finally:
        subprocess.run(["ip", "netns", "del", ns + "a"], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns + "b"], capture_output=True)


if __name__ == "__main__":
    latency()
    hostile_memory()
    if "--no-discovery" not in sys.argv:
        discovery_time()
