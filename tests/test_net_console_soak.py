"""A hostile peer soak against a real console process with an open table (issue 26).

For a few seconds (minutes with ``PYRAMID_SLOW=1``), strangers from 16 addresses
(127.0.0.2 …) at once: squatters holding idle connections, garbage, half hellos,
other protocol versions, floods of pings before any hello, hit-and-run joins and
joins that never say another word. Meanwhile a probe checks every half second that
the console still answers a hello (its own hello back, or its ``busy`` refusal). Then:
the console is still running, its memory has not grown past a bound, and a real
console sits at the table and both play a whole match, which is counted.
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from net_consoles import Console, good_moves, guest, host, stop_all, taps
from pyramid.saved.stats import NETWORK_GAME

MATCH = 23
SOAK_SECONDS = 180.0 if os.environ.get("PYRAMID_SLOW") == "1" else 5.0
#: How much the console's resident memory may grow during the soak (caches warm up; nothing may pile up).
RSS_GROWTH_LIMIT_KIB = 16 * 1024


def line(data: dict[str, object]) -> bytes:
    return json.dumps(data).encode() + b"\n"


HELLO = line({"t": "hello", "v": 3, "name": "Mallory"})
ATTACKS = [
    b"",  # connect and say nothing: a squatter
    bytes(random.Random(7).randrange(256) for _ in range(3000)),
    b'{"t":"hello","v":3,"na',
    line({"t": "hello", "v": 99, "name": "Mallory"}) + line({"t": "join", "token": "", "level": "good"}),
    line({"t": "ping", "n": 1}) * 400,
    HELLO + line({"t": "join", "token": "", "level": "good"}),  # asks for the seat, then never speaks
    HELLO + line({"t": "join", "token": "f" * 32, "level": "good"}),
    HELLO + b"[" * 50_000 + b"\n",
]
# Not here: a stranger that really sits (speaks after the accept). The seat is first come, first
# served, so it would be that stranger's match; tests/test_net_hostile.py has those.


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


def rss_kib(pid: int) -> int:
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmRSS:"):
            return int(text.split()[1])
    raise AssertionError("no VmRSS")


def attacker(port: int, source: str, stopping: threading.Event, seed: int) -> None:
    chooser = random.Random(seed)
    while not stopping.is_set():
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2.0, source_address=(source, 0))
        except OSError:
            continue
        try:
            sock.sendall(chooser.choice(ATTACKS))
            if chooser.random() < 0.5:  # hit and run, or stay until thrown out
                while not stopping.is_set() and sock.recv(65536):
                    pass
        except OSError:
            pass
        finally:
            sock.close()


def answers_a_hello(port: int) -> bool:
    """The console's own hello comes back (a table's answer, or with a busy refusal)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10.0) as sock:
        sock.sendall(line({"t": "hello", "v": 3, "name": "Probe"}) + line({"t": "join", "token": "e" * 32, "level": "good"}))
        received = b""
        while b"\n" not in received:
            data = sock.recv(65536)
            if not data:
                return False
            received += data
        return json.loads(received.split(b"\n", 1)[0]).get("t") == "hello"


def test_a_console_under_a_hostile_soak_keeps_answering_and_then_plays_a_match(
        tmp_path: Path, consoles: list[Console]) -> None:
    moves = good_moves(MATCH, "good")
    # Ann waits for Bob's game to be over (at most 60 s a wait), then plays hers: the strangers'
    # joins never make that true, while a wait for "joined" would end at the first of them.
    waits = " ".join(["wait:done"] * (int(SOAK_SECONDS // 60) + 2))
    ann = host(tmp_path, "Ann", MATCH, f"{waits} {taps(MATCH, moves)} wait:done ok")
    consoles.append(ann)
    port = ann.port()
    assert ann.process is not None
    assert answers_a_hello(port)
    before = rss_kib(ann.process.pid)
    stopping = threading.Event()
    attackers = [threading.Thread(target=attacker, args=(port, f"127.0.0.{2 + number % 16}", stopping, number))
                 for number in range(32)]
    for thread in attackers:
        thread.start()
    probes = 0
    try:
        deadline = time.monotonic() + SOAK_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.5)
            assert ann.process.poll() is None, ann.stderr_now()
            assert answers_a_hello(port), "the console stopped answering"
            probes += 1
    finally:
        stopping.set()
        for thread in attackers:
            thread.join(timeout=30)
    grown = rss_kib(ann.process.pid) - before
    print(f"{probes} probes answered; resident memory grew by {grown} KiB in {SOAK_SECONDS:g} s")
    assert grown < RSS_GROWTH_LIMIT_KIB
    bob = guest(tmp_path, "Bob", port, f"wait:joined {taps(MATCH, moves)} wait:done ok")
    consoles.append(bob)
    ann_final, bob_final = ann.finish(), bob.finish()
    assert ann_final["game"]["opponent"]["name"] == "Bob"
    assert ann_final["game"]["opponent"]["moves"] == len(moves) == len(bob_final["game"]["moves"])
    assert ann.stats()[(NETWORK_GAME, "Bob")].played == 1
