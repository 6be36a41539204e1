"""A hostile test client against an open table: the host drops it, logs it once, and stays open.

Raw sockets on 127.0.0.1 send what no console would. Limits are tightened so
that the deadlines pass quickly; every wait is bounded only as a hang guard.
"""

from __future__ import annotations

import json
import os
import random
import socket
import time
from collections.abc import Iterator

import pytest

from hostile_sockets import closed_by_peer, connect

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.protocol import MAX_MESSAGE
from test_net_match import Endpoint

LIMITS = Limits(hello_deadline=1.0, read_timeout=2.0, ping_interval=1.0, max_pending=8, farewell_linger=0.5)
GUARD = 20.0


@pytest.fixture
def table() -> Iterator[tuple[Endpoint, int]]:
    host = Endpoint("Ann", LIMITS)
    host.net.open_table(31, "good", "127.0.0.1", 0)
    port = host.wait(ev.Listening).port
    yield host, port
    host.net.stop()


def line(data: dict[str, object]) -> bytes:
    return json.dumps(data).encode() + b"\n"


HELLO = line({"t": "hello", "v": 3, "name": "Mallory"})
#: What a console sends to take a seat: hello, join, and once accepted (at once) its resend.
SITS_DOWN = HELLO + line({"t": "join", "token": "", "level": "good"}) + line({"t": "resend", "match": 31, "next": 1})


def a_real_opponent_can_still_play(host: Endpoint, port: int) -> None:
    guest = Endpoint("Bob", LIMITS)
    try:
        guest.net.join("127.0.0.1", port)
        assert guest.wait(ev.Seated).host_name == "Ann", guest.seen
        game = play_match(31, "casual")
        assert guest.net.link is not None
        for move in game.moves:
            guest.net.link.play(move)
        last = host.wait(ev.OpponentMoved, lambda event: event.number == len(game.moves))
        assert last.score == sum(game.round_scores)
    finally:
        guest.net.stop()


@pytest.mark.parametrize(
    "payload",
    [
        bytes(random.Random(1).randrange(256) for _ in range(5000)),
        b"not json at all\n",
        b"{\"t\": \"hello\", \"v\": 1, \"name\": \n",
        line({"t": "hello", "v": "one", "name": ["Mallory"]}),
        line({"t": "move", "match": 31, "n": 1, "move": "turn"}),
        HELLO + line({"t": "ping", "n": 1}),
        HELLO + b"[" * 60_000 + b"\n",
        b"\x00" * 70_000,
    ],
    ids=["random", "not-json", "broken-json", "wrong-types", "move-before-hello", "ping-instead-of-join",
         "deep-nesting", "nul-bytes"],
)
def test_garbage_is_dropped_and_the_table_stays_open(table: tuple[Endpoint, int], payload: bytes) -> None:
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(payload)
    assert closed_by_peer(sock)
    a_real_opponent_can_still_play(host, port)


def test_a_ten_megabyte_line_is_cut_off_without_being_buffered(table: tuple[Endpoint, int]) -> None:
    host, port = table
    before = rss()
    sock = connect(port, GUARD)
    chunk = b"x" * 65536
    sent = 0
    try:
        while sent < 10 * 1024 * 1024:
            sock.sendall(chunk)
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass
    assert closed_by_peer(sock)
    assert rss() - before < 8 * MAX_MESSAGE * 16  # far below the 10 MB sent: the line was never buffered
    a_real_opponent_can_still_play(host, port)


def test_a_half_message_that_never_ends_is_dropped(table: tuple[Endpoint, int]) -> None:
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(b'{"t":"hello","v":3,"na')
    assert closed_by_peer(sock)
    a_real_opponent_can_still_play(host, port)


def test_asking_for_the_seat_and_going_without_a_word_leaves_the_seat_free(table: tuple[Endpoint, int]) -> None:
    """Once accepted, a console speaks at once (its resend); a peer that never does was never seated.

    Before, the seat was kept for it for five minutes (and for good when it had
    gone before the accept could be written), so one connection shut the table.
    """
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(HELLO + line({"t": "join", "token": "", "level": "good"}))
    received = b""
    while b'"t":"accept"' not in received:
        received += sock.recv(65536)
    sock.close()
    for _ in range(int(GUARD / 0.05)):
        view = host.net.table_view()
        if view is not None and view.players == ("Ann",):
            break
        time.sleep(0.05)
    assert view is not None and view.to_json()["players"] == ["Ann"] and view.state == "waiting"
    host.drain()
    assert not any(isinstance(event, ev.OpponentJoined) for event in host.seen)
    a_real_opponent_can_still_play(host, port)


def test_a_seated_peer_stalling_half_way_is_dropped_and_its_seat_kept(table: tuple[Endpoint, int]) -> None:
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    assert host.wait(ev.OpponentJoined).name == "Mallory"
    sock.sendall(b'{"t":"move","match":31,')
    assert closed_by_peer(sock)
    assert host.wait(ev.PeerConnection).connected is False


def test_a_flood_is_dropped(table: tuple[Endpoint, int]) -> None:
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    host.wait(ev.OpponentJoined)
    try:
        sock.sendall(line({"t": "ping", "n": 1}) * 500)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert closed_by_peer(sock)
    assert host.wait(ev.PeerConnection).connected is False


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ([{"t": "move", "match": 31, "n": 1, "move": "Kc"}], "illegal_move"),
        ([{"t": "move", "match": 31, "n": 3, "move": "turn"}], "out_of_order"),
        ([{"t": "move", "match": 31, "n": 1, "move": "turn"}, {"t": "move", "match": 31, "n": 1, "move": "joker"}],
         "changed_move"),
        ([{"t": "move", "match": 30, "n": 1, "move": "turn"}], "wrong_match"),
        ([{"t": "move", "match": 31, "n": 1, "move": "turn"},
          {"t": "status", "match": 31, "round": 1, "score": 900, "moves": 1, "finished": True}], "score_mismatch"),
    ],
)
def test_a_seated_cheat_voids_the_match(table: tuple[Endpoint, int], moves: list[dict[str, object]], reason: str) -> None:
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    host.wait(ev.OpponentJoined)
    sock.sendall(b"".join(line(move) for move in moves))
    voided = host.wait(ev.MatchVoided)
    assert voided.reason == reason
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    sock.close()
    assert b'"t":"leave","reason":"void"' in received


@pytest.mark.parametrize("version", [2, 4])
def test_a_console_of_another_version_reads_why_it_is_refused(table: tuple[Endpoint, int], version: int) -> None:
    """It says hello and asks for the seat at once, as a console does; the answer names the reason."""
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(line({"t": "hello", "v": version, "name": "Zed"}) + line({"t": "join", "token": "", "level": "good"}))
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    sock.close()
    answers = [json.loads(row) for row in received.splitlines()]
    assert [answer["t"] for answer in answers] == ["hello", "refuse"]
    assert answers[1]["reason"] == "version"
    a_real_opponent_can_still_play(host, port)


def test_a_seated_peer_that_talks_on_after_the_leave_is_cut_off(table: tuple[Endpoint, int]) -> None:
    """The host waits for the guest to close after its leave (so the leave is read), but only so long."""
    host, port = table
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    host.wait(ev.OpponentJoined)
    host.net.close_table()
    received = b""
    while chunk := sock.recv(65536):  # ends where the host shut its side, after the leave
        received += chunk
    assert received.endswith(b'"t":"leave","reason":"closed"}\n'), received
    with pytest.raises((BrokenPipeError, ConnectionResetError)):
        for _ in range(int(GUARD / 0.05)):
            sock.sendall(line({"t": "ping", "n": 1}))
            time.sleep(0.05)
    sock.close()


def rss() -> int:
    """This process's resident memory in bytes (the host runs in it, on its network thread)."""
    with open("/proc/self/status") as status:
        kilobytes = next(int(row.split()[1]) for row in status if row.startswith("VmRSS:"))
    return kilobytes * 1024


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def fds_released(limit: int, within: float) -> int:
    """The open descriptors once at most ``limit`` are left, or after ``within`` seconds. A connection
    turned away is closed by the host once its side has read the client's close (``Wire.linger``),
    on the host's own loop: a moment after the client closed, not at once."""
    deadline = time.monotonic() + within
    while open_fds() > limit and time.monotonic() < deadline:
        time.sleep(0.01)
    return open_fds()


def test_two_hundred_connections_at_once(table: tuple[Endpoint, int]) -> None:
    host, port = table
    before = open_fds()
    socks = []
    for _ in range(200):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=GUARD))
        except OSError:
            break  # the backlog is full: refusing is fine too
    assert len(socks) >= 64
    for sock in socks:
        sock.settimeout(GUARD)
    closed = sum(closed_by_peer(sock) for sock in socks)
    assert closed == len(socks)
    assert fds_released(before + 4, within=LIMITS.read_timeout + LIMITS.farewell_linger) <= before + 4
    a_real_opponent_can_still_play(host, port)


def test_a_hostile_peer_is_logged_once(table: tuple[Endpoint, int], caplog: pytest.LogCaptureFixture) -> None:
    host, port = table
    with caplog.at_level("WARNING", logger="pyramid.net"):
        for _ in range(5):
            sock = connect(port, GUARD)
            sock.sendall(b"garbage\n")
            closed_by_peer(sock)
    assert len([record for record in caplog.records if "dropped a connection" in record.getMessage()]) == 1


def test_one_address_cannot_take_every_pending_slot(table: tuple[Endpoint, int]) -> None:
    host, port = table
    held = [connect(port, GUARD) for _ in range(LIMITS.max_pending_per_address)]
    extra = connect(port, GUARD)
    assert closed_by_peer(extra)  # over the per-address limit: closed on arrival
    for sock in held:
        assert closed_by_peer(sock)  # and the others after the hello deadline


# -- fair admission, silent seats, names kept (issue 26, items 4 and 9) ----------------------
class Squatters:
    """Hostile machines at 127.0.0.2 … that each keep as many idle connections open as the host
    allows an address, opening a new one whenever one is closed (the issue's lock-out)."""

    def __init__(self, port: int, addresses: int, per_address: int) -> None:
        import threading

        self.port, self.stopping = port, threading.Event()
        self.busy_told = 0
        self.threads = [threading.Thread(target=self._hold, args=(f"127.0.0.{2 + number // per_address}",))
                        for number in range(addresses * per_address)]
        for thread in self.threads:
            thread.start()

    def _hold(self, source: str) -> None:
        while not self.stopping.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=1.0, source_address=(source, 0))
            except OSError:
                continue
            received = b""
            try:
                while not self.stopping.is_set():
                    try:
                        data = sock.recv(65536)
                    except socket.timeout:
                        continue
                    if not data:
                        break
                    received += data
            except OSError:
                pass
            finally:
                sock.close()
            if b'"reason":"busy"' in received.replace(b" ", b""):
                self.busy_told += 1

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=GUARD)


def test_sixteen_hostile_addresses_holding_every_slot_cannot_keep_a_real_console_out() -> None:
    """Before: a real console was told "No console answers at that address", and the host saw nothing."""
    limits = Limits()  # the console's own limits: 8 slots, 4 an address, 5 s to greet
    host = Endpoint("Ann", limits)
    host.net.open_table(31, "good", "127.0.0.1", 0)
    port = host.wait(ev.Listening).port
    squatters = Squatters(port, addresses=16, per_address=limits.max_pending_per_address)
    guest = Endpoint("Bob", limits)
    try:
        # Every slot held, and the squatters reopening what is closed: the host says so.
        assert host.wait(ev.Crowded).crowded, "the host says it is turning connections away"
        asked = time.monotonic()
        guest.net.join("127.0.0.1", port)
        seated = guest.wait(ev.Seated)
        waited = time.monotonic() - asked
        print(f"seated after {waited:.2f} s among 64 squatting connections")
        assert seated.host_name == "Ann" and host.wait(ev.OpponentJoined).name == "Bob"
        assert waited < limits.busy_patience, "seated while still patient, never refused"
    finally:
        squatters.stop()
        guest.net.stop()
        host.net.stop()
    assert squatters.busy_told > 0, "the connections turned away were told busy"


def test_a_peer_that_asks_for_the_seat_and_says_nothing_more_is_dropped_after_the_hello_deadline() -> None:
    """Item 9: it held the seat for the read timeout (45 s), again and again; a seat counts once the
    guest speaks after the accept, and it must do so within the hello deadline."""
    limits = Limits(hello_deadline=1.0, read_timeout=60.0, ping_interval=30.0, farewell_linger=0.5)
    host = Endpoint("Ann", limits)
    host.net.open_table(31, "good", "127.0.0.1", 0)
    port = host.wait(ev.Listening).port
    try:
        silent = connect(port, GUARD)
        silent.sendall(HELLO + line({"t": "join", "token": "", "level": "good"}))
        assert closed_by_peer(silent), "closed long before the read timeout (the guard is 20 s)"
        host.drain()
        assert not any(isinstance(event, ev.OpponentJoined) for event in host.seen)
        guest = Endpoint("Bob", limits)
        try:
            guest.net.join("127.0.0.1", port)
            assert guest.wait(ev.Seated).host_name == "Ann"
        finally:
            guest.net.stop()
    finally:
        host.net.stop()


def test_a_guest_coming_back_with_its_token_keeps_the_name_it_sat_under(table: tuple[Endpoint, int]) -> None:
    """Item 9: Bob became Mallory mid-match by coming back with the seat's token under another name."""
    host, port = table
    bob = connect(port, GUARD)
    bob.sendall(line({"t": "hello", "v": 3, "name": "Bob"}) + line({"t": "join", "token": "", "level": "good"}))
    received = b""
    while b'"t":"accept"' not in received:
        received += bob.recv(65536)
    accept = json.loads(next(part for part in received.split(b"\n") if b'"accept"' in part))
    bob.sendall(line({"t": "resend", "match": 31, "next": 1}))
    assert host.wait(ev.OpponentJoined).name == "Bob"
    bob.close()
    host.wait(ev.PeerConnection, lambda event: not event.connected)
    mallory = connect(port, GUARD)
    mallory.sendall(line({"t": "hello", "v": 3, "name": "Mallory"}) + line({"t": "join", "token": accept["token"], "level": "good"})
                    + line({"t": "resend", "match": 31, "next": 1}))
    back = host.wait(ev.OpponentJoined)
    assert (back.name, back.resumed) == ("Bob", True)
    view = host.net.table_view()
    assert view is not None and view.players == ("Ann", "Bob")
    mallory.close()
