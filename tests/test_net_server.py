"""Tables through the table server (issue 30): two network endpoints meet and play on a real Mosquitto.

The server is made by firmware/server/make-server.sh and run on 127.0.0.1 with TLS, the shipped
configuration and ACL (tests/table_server.py); each endpoint is this console's `Network` with the
`[network]` settings the script tells its owner to write. What crosses the server is the LAN's
protocol, checked the same way: the match logic does not know which transport carries it.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.link import MatchLink
from pyramid.net.network import Network
from pyramid.net.server.account import ServerAccount
from table_server import Broker, free_port, make_server

GUARD = 30.0  # seconds: only a hang guard


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    server, _ = make_server(tmp_path_factory.mktemp("server"), "ann", "bob", "cy", "mallory")
    broker = Broker(server)
    try:
        broker.start()
        yield broker
    finally:
        broker.stop()


class Endpoint:
    """A Network with the table server set, and the queue its events arrive on (as the main loop's)."""

    def __init__(self, name: str, account: ServerAccount | None, discovery: Any = "off") -> None:
        self.events: queue.Queue[ev.NetEvent] = queue.Queue()
        self.seen: list[ev.NetEvent] = []
        self.net = Network(name, self.events.put, discovery=discovery, server=account)

    def wait(self, kind: type[Any], where: Callable[[Any], bool] = lambda event: True) -> Any:
        while True:
            try:
                event = self.events.get(timeout=GUARD)
            except queue.Empty:
                raise AssertionError(f"no {kind.__name__} came; events so far: {self.seen}") from None
            self.seen.append(event)
            if isinstance(event, kind) and where(event):
                return event


@pytest.fixture
def pair(broker: Broker) -> Iterator[tuple[Endpoint, Endpoint]]:
    host, guest = Endpoint("Ann", broker.server.account("ann")), Endpoint("Bob", broker.server.account("bob"))
    yield host, guest
    guest.net.stop()
    host.net.stop()


def seat(host: Endpoint, guest: Endpoint, match: int) -> tuple[MatchLink, MatchLink]:
    """The host opens a table (listening on loopback only: never announced on the home network), the
    guest finds it among the server's tables and sits."""
    host_link = host.net.open_table(match, "good", "127.0.0.1", 0)
    host.wait(ev.ServerState, lambda event: event.state == "connected")
    guest.net.browse()
    seen = guest.wait(ev.TableSeen, lambda event: event.table.key == "server:ann" and event.table.is_table)
    assert (seen.table.host, seen.table.match, seen.table.level, seen.table.seats, seen.table.via) == \
        ("Ann", match, "good", 1, "server")
    guest.net.join_server(seen.table.address)
    seated = guest.wait(ev.Seated)
    assert (seated.host_name, seated.match, seated.level, seated.resumed) == ("Ann", match, "good", False)
    assert host.wait(ev.OpponentJoined).name == "Bob"
    assert guest.net.link is not None
    return host_link, guest.net.link


def test_two_consoles_meet_on_the_server_and_play_a_whole_match(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    host_link, guest_link = seat(host, guest, 7)
    host_game, guest_game = play_match(7, "good"), play_match(7, "casual")
    for move in host_game.moves:
        host_link.play(move)
    for move in guest_game.moves:
        guest_link.play(move)
    on_guest = guest.wait(ev.OpponentMoved, lambda event: event.number == len(host_game.moves))
    on_host = host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game.moves))
    assert (on_guest.score, on_guest.finished) == (sum(host_game.round_scores), True)
    assert (on_host.score, on_host.finished) == (sum(guest_game.round_scores), True)
    assert list(host_link.opponent_game().moves) == [str(move) for move in guest_game.moves]
    assert list(guest_link.opponent_game().moves) == [str(move) for move in host_game.moves]
    numbers = [event.number for event in host.seen if isinstance(event, ev.OpponentMoved)]
    assert numbers == list(range(1, len(guest_game.moves) + 1)), "each move once, in order"
    assert host.net.table_view() is not None and host.net.table_view().via == "server"  # type: ignore[union-attr]
    assert guest.net.table_view().to_json()["via"] == "server"  # type: ignore[union-attr]
    # A new round, then the guest leaves: both told, as on the home network.
    host_link.propose_rematch(8)
    assert guest.wait(ev.RematchProposed).match == 8
    guest_link.accept_rematch(8)
    assert host.wait(ev.RematchStarted).match == 8
    guest.net.close_table()
    assert host.wait(ev.OpponentLeft).reason == "left"


def test_a_table_closed_leaves_the_servers_list(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    seat(host, guest, 9)
    host.net.stop()
    assert guest.wait(ev.OpponentLeft).reason == "closed"
    guest.wait(ev.TableGone, lambda event: event.key == "server:ann")


def own_tcp_sockets() -> list[tuple[str, int]]:
    """This process's TCP sockets as (state, remote port), read from /proc (state "0A" is LISTEN)."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.append((fields[3], int(fields[2].rsplit(":", 1)[1], 16)))
    return found


def test_a_console_with_no_server_set_contacts_none(broker: Broker) -> None:
    """The network menu, a table and browsing without a server: the only socket is the table's listener."""
    before = own_tcp_sockets()
    lonely = Endpoint("Ann", None)
    try:
        lonely.net.open_table(5, "good", "127.0.0.1", 0)
        lonely.wait(ev.Listening)
        lonely.net.browse()
        opened = [entry for entry in own_tcp_sockets() if entry not in before]
        assert [state for state, _ in opened] == ["0A"], f"only the table's listener: {opened}"
        assert not any(isinstance(event, ev.ServerState) for event in lonely.seen)
    finally:
        lonely.net.stop()
    with_server = Endpoint("Ann", broker.server.account("ann"))
    try:
        with_server.net.browse()
        with_server.wait(ev.ServerState, lambda event: event.state == "connected")
        assert (("01", broker.server.port)) in own_tcp_sockets(), "the same watch sees a server connection"
    finally:
        with_server.net.stop()


@pytest.mark.parametrize("change, state", [
    ({"password_file": "wrong"}, "refused"),
    ({"password_file": "missing"}, "misconfigured"),
    ({"ca_file": "missing"}, "misconfigured"),
    ({"ca_file": "other"}, "unreachable"),
    ({"port": "closed"}, "unreachable"),
])
def test_the_servers_state_says_why_it_is_not_connected(broker: Broker, tmp_path: Path, change: dict[str, str],
                                                        state: str) -> None:
    account = broker.server.account("cy")
    if change.get("password_file") == "wrong":
        (tmp_path / "password").write_text("not-the-password\n")
        account = account._replace(password_file=tmp_path / "password")
    elif change.get("password_file") == "missing" or change.get("ca_file") == "missing":
        key = next(iter(change))
        account = account._replace(**{key: tmp_path / "nothing"})
    elif change.get("ca_file") == "other":  # a CA that did not sign the server's certificate
        other = tmp_path / "other"
        other.mkdir()
        account = account._replace(ca_file=make_server(other, "x")[0].directory / "ca.crt")
    else:
        account = account._replace(port=free_port())
    endpoint = Endpoint("Cy", account)
    try:
        endpoint.net.browse()
        said = endpoint.wait(ev.ServerState, lambda event: event.state not in ("connecting",))
        assert said.state == state and said.detail and said.address == account.address
    finally:
        endpoint.net.stop()


GOOD = {"server": "mqtts://tables.example.org", "user": "ann", "password_file": "/etc/pyramid/server/password"}


@pytest.mark.parametrize("table, why", [
    ({"server": "mqtt://tables.example.org:1883"}, "TLS only"),
    ({"server": "mqtts://tables example"}, "not a host name"),
    ({"server": "mqtts://tables.example.org:99999"}, "1 to 65535"),
    ({"server": 8883}, "not text"),
    ({"user": "Ann"}, "lower-case"),
    ({"user": "ann/+"}, "lower-case"),
    ({"user": "x" * 33}, "lower-case"),
    ({"password_file": "password"}, "absolute path"),
    ({"ca_file": "ca.crt"}, "absolute path"),
    ({"password_file": None}, "but not password_file"),
])
def test_a_wrong_server_setting_is_one_line_and_no_server_is_used(table: dict[str, object], why: str) -> None:
    from pyramid.net.settings import read_network_settings

    settings = {key: value for key, value in {**GOOD, **table}.items() if value is not None}
    read = read_network_settings({"network": settings}, "pyramid.toml")
    assert read.server is None and len(read.problems) == 1
    assert why in read.problems[0] and read.problems[0].startswith("pyramid.toml: [network]")
    assert "no table server is used" in read.problems[0] and "\n" not in read.problems[0]


def test_the_lines_make_server_prints_are_a_working_setting() -> None:
    from pyramid.net.settings import read_network_settings

    read = read_network_settings({"network": {**GOOD, "server": "mqtts://tables.example.org:8884",
                                              "ca_file": "/etc/pyramid/server/ca.crt"}})
    assert read.problems == () and read.server == ServerAccount(
        "tables.example.org", 8884, "ann", Path("/etc/pyramid/server/password"), Path("/etc/pyramid/server/ca.crt"))
    assert read.server.address == "mqtts://tables.example.org:8884"
    assert read_network_settings({"network": GOOD}).server.port == 8883  # type: ignore[union-attr]
