"""Network benchmark: move latency on loopback, idle CPU at an open table, memory under a hostile peer,
and the time from opening a table to a browser seeing it (in two network namespaces, root only).

Run: ``.venv/bin/python benchmarks/bench_net.py`` (``--no-discovery`` skips the namespace part,
``--idle-seconds 60`` measures idle CPU over a longer window, pings included).
"""

from __future__ import annotations

import os
import queue
import resource
import socket
import statistics
import subprocess
import sys
import textwrap
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


def latency(idle_seconds: float) -> None:
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
    time.sleep(idle_seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"idle CPU, open table with a seated opponent (both ends in this process), {idle_seconds:g} s:"
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


#: One console in a namespace: "open" opens a table (and prints when), "browse" prints when it sees one.
CHILD = textwrap.dedent(
    """
    import queue, sys, time
    from pyramid.net import events as ev
    from pyramid.net.network import Network
    events = queue.Queue()
    net = Network(sys.argv[1], events.put)
    if sys.argv[2] == "open":
        print(time.time(), flush=True)
        net.open_table(9, "good", "", 0)
    else:
        net.browse()
        print("browsing", flush=True)
    while True:
        event = events.get()
        if isinstance(event, ev.TableSeen) and event.table.is_table:
            print(time.time(), flush=True)
        elif isinstance(event, ev.DiscoveryStarted):
            print(event.backend, file=sys.stderr, flush=True)
    """
)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def discovery_time() -> None:
    if os.geteuid() != 0:
        print("discovery: skipped (needs root for network namespaces)")
        return
    ns = f"pyrbench{os.getpid()}"
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"}  # no avahi: zeroconf on both sides

    def run(*command: str) -> None:
        subprocess.run(command, check=True, capture_output=True)

    def child(side: str, name: str, mode: str) -> subprocess.Popen[str]:
        return subprocess.Popen(["ip", "netns", "exec", ns + side, sys.executable, "-c", CHILD, name, mode],
                                cwd=root, env=env, stdout=subprocess.PIPE, text=True)

    try:
        run("ip", "netns", "add", ns + "a")
        run("ip", "netns", "add", ns + "b")
        run("ip", "link", "add", "vbencha", "netns", ns + "a", "type", "veth", "peer", "name", "vbenchb", "netns", ns + "b")
        for side, address in (("a", "10.78.0.1/24"), ("b", "10.78.0.2/24")):
            run("ip", "-n", ns + side, "addr", "add", address, "dev", "vbench" + side)
            run("ip", "-n", ns + side, "link", "set", "vbench" + side, "up")
        browser = child("b", "Bob", "browse")
        assert browser.stdout is not None
        browser.stdout.readline()
        time.sleep(1)  # the browser has sent its first queries and waits
        table = child("a", "Ann", "open")
        assert table.stdout is not None
        opened = float(table.stdout.readline())
        seen = float(browser.stdout.readline())
        print(f"discovery (zeroconf on both sides, two namespaces): {seen - opened:.3f} s from open_table()"
              f" to the browsing console's TableSeen")
        time.sleep(5)  # past the announcement's repeats
        before_table, before_browser = cpu_seconds(table.pid), cpu_seconds(browser.pid)
        time.sleep(10)
        print(f"idle CPU over 10 s with discovery running: table {1000 * (cpu_seconds(table.pid) - before_table):.0f} ms,"
              f" browser {1000 * (cpu_seconds(browser.pid) - before_browser):.0f} ms (clock tick 10 ms)")
        table.kill()
        browser.kill()
        table.wait()
        browser.wait()
    finally:
        subprocess.run(["ip", "netns", "del", ns + "a"], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns + "b"], capture_output=True)


if __name__ == "__main__":
    latency(float(sys.argv[sys.argv.index("--idle-seconds") + 1]) if "--idle-seconds" in sys.argv else 10.0)
    hostile_memory()
    if "--no-discovery" not in sys.argv:
        discovery_time()
