"""Tables through the table server (issue 30): two network endpoints meet and play on a real Mosquitto.

The server is made by firmware/server/make-server.sh and run on 127.0.0.1 with TLS, the shipped
configuration and ACL (tests/table_server.py); each endpoint is this console's `Network` with the
`[network]` settings the script tells its owner to write. What crosses the server is the LAN's
protocol, checked the same way: the match logic does not know which transport carries it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any, NamedTuple
from pathlib import Path

import pytest

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.link import MatchLink
from pyramid.net.server.account import ClientCertificate, ServerAccount
from test_net_match import GUARD, Endpoint
from test_net_reconnect import numbers
from table_server import ROOT, Broker, Mallory, free_port, make_server, running



@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    yield from running(make_server(tmp_path_factory.mktemp("server"), "ann", "bob", "cy", "mallory",
                                   certified=["dee"])[0])


@pytest.fixture
def pair(broker: Broker) -> Iterator[tuple[Endpoint, Endpoint]]:
    host = Endpoint("Ann", server=broker.server.account("ann"))
    guest = Endpoint("Bob", server=broker.server.account("bob"))
    yield host, guest
    guest.net.stop()
    host.net.stop()


def seat(host: Endpoint, guest: Endpoint, match: int) -> tuple[MatchLink, MatchLink]:
    """The host opens a table (listening on loopback only: never announced on the home network), the
    guest finds it among the server's tables and sits."""
    host_link = host.net.open_table(match, "good", "127.0.0.1", 0)
    host.wait(ev.ServerState, lambda event: event.state == "connected")
    guest.net.browse()
    account = host.net.server.user  # type: ignore[union-attr]
    seen = guest.wait(ev.TableSeen, lambda event: event.table.key == f"server:{account}" and event.table.is_table)
    assert (seen.table.host, seen.table.match, seen.table.level, seen.table.seats, seen.table.via) == \
        (host.net.context.name, match, "good", 1, "server")
    guest.net.join_server(seen.table.address)
    seated = guest.wait(ev.Seated)
    assert (seated.host_name, seated.match, seated.level, seated.resumed) == (host.net.context.name, match, "good", False)
    assert host.wait(ev.OpponentJoined).name == guest.net.context.name
    assert guest.net.link is not None
    return host_link, guest.net.link


class HalfPlayed(NamedTuple):
    """A match on the server with the host's first half played: its links, both games, that half."""

    links: tuple[MatchLink, MatchLink]
    games: tuple[list[Any], list[Any]]
    half: int


def half_played(host: Endpoint, guest: Endpoint, match: int = 7) -> HalfPlayed:
    """Seat the guest at the host's table on the server, then play the first half of the host's game."""
    links = seat(host, guest, match)
    games = list(play_match(match, "good").moves), list(play_match(match, "casual").moves)
    half = len(games[0]) // 2
    for move in games[0][:half]:
        links[0].play(move)
    return HalfPlayed(links, games, half)


def play_out(host: Endpoint, guest: Endpoint, links: tuple[MatchLink, MatchLink], games: tuple[list[Any], list[Any]],
             played: int = 0) -> None:
    """Play the rest of the match (the host's game from its move ``played``, the guest's whole) and check
    it: each side saw each of the other's moves once, in order, and both tables finished, with no
    void and no one leaving."""
    (host_link, guest_link), (host_game, guest_game) = links, games
    for move in host_game[played:]:
        host_link.play(move)
    for move in guest_game:
        guest_link.play(move)
    guest.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
    host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
    assert numbers(guest) == list(range(1, len(host_game) + 1))
    assert numbers(host) == list(range(1, len(guest_game) + 1))
    assert host_link.phase == guest_link.phase == "finished"
    assert not any(isinstance(event, (ev.MatchVoided, ev.OpponentLeft)) for event in host.seen + guest.seen)


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


def test_a_console_signed_in_by_certificate_hosts_one_signed_in_by_password(broker: Broker) -> None:
    """Dee's console has a client certificate (make-server.sh --certificates), no password: it reaches
    the server on the certificates' port, opens a table Bob finds and joins, and moves cross both ways."""
    dee, bob = Endpoint("Dee", server=broker.server.account("dee")), Endpoint("Bob", server=broker.server.account("bob"))
    assert dee.net.server is not None and dee.net.server.password_file is None
    try:
        dee_link, bob_link = seat(dee, bob, 12)
        dee_game, bob_game = play_match(12, "good"), play_match(12, "casual")
        for move in dee_game.moves[:5]:
            dee_link.play(move)
        for move in bob_game.moves[:5]:
            bob_link.play(move)
        assert bob.wait(ev.OpponentMoved, lambda event: event.number == 5).number == 5
        assert dee.wait(ev.OpponentMoved, lambda event: event.number == 5).number == 5
        assert list(dee_link.opponent_game().moves) == [str(move) for move in bob_game.moves[:5]]
    finally:
        bob.net.stop()
        dee.net.stop()


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
    lonely = Endpoint("Ann")
    try:
        lonely.net.open_table(5, "good", "127.0.0.1", 0)
        lonely.wait(ev.Listening)
        lonely.net.browse()
        opened = [entry for entry in own_tcp_sockets() if entry not in before]
        assert [state for state, _ in opened] == ["0A"], f"only the table's listener: {opened}"
        assert not any(isinstance(event, ev.ServerState) for event in lonely.seen)
    finally:
        lonely.net.stop()
    with_server = Endpoint("Ann", server=broker.server.account("ann"))
    try:
        with_server.net.browse()
        with_server.wait(ev.ServerState, lambda event: event.state == "connected")
        assert (("01", broker.server.port)) in own_tcp_sockets(), "the same watch sees a server connection"
    finally:
        with_server.net.stop()


@pytest.mark.parametrize("change, state", [
    ({"password_file": "wrong"}, "refused"),
    ({"password_file": "missing"}, "misconfigured"),
    ({"password_file": "latin-1"}, "misconfigured"),
    ({"password_file": "empty"}, "misconfigured"),
    ({"ca_file": "missing"}, "misconfigured"),
    ({"ca_file": "other"}, "unreachable"),
    ({"key_file": "missing"}, "misconfigured"),
    ({"cert_file": "not its key"}, "misconfigured"),
    ({"cert_file": "another CA's"}, "refused"),
    ({"port": "closed"}, "unreachable"),
])
def test_the_servers_state_says_why_it_is_not_connected(broker: Broker, tmp_path: Path, change: dict[str, str],
                                                        state: str) -> None:
    account = broker.server.account("dee" if "cert_file" in change or "key_file" in change else "cy")
    certificate = account.certificate
    if certificate is not None and change.get("key_file") == "missing":
        account = account._replace(certificate=certificate._replace(key_file=tmp_path / "nothing"))
    elif certificate is not None and change.get("cert_file") == "not its key":
        other = make_server(tmp_path / "other", certified=["dee"], own_authority=True)[0].certificate("dee")
        assert other is not None
        account = account._replace(certificate=certificate._replace(cert_file=other.cert_file))
    elif certificate is not None:  # a certificate for the same account, signed by another server's CA
        other = make_server(tmp_path / "other", certified=["dee"], own_authority=True)[0].certificate("dee")
        assert other is not None
        account = account._replace(certificate=other)
    elif change.get("password_file") == "wrong":
        (tmp_path / "password").write_text("not-the-password\n")
        account = account._replace(password_file=tmp_path / "password")
    elif change.get("password_file") in ("latin-1", "empty"):
        (tmp_path / "password").write_bytes(b"mot-de-passe-\xe9\n" if change["password_file"] == "latin-1" else b"\n")
        account = account._replace(password_file=tmp_path / "password")
    elif change.get("password_file") == "missing" or change.get("ca_file") == "missing":
        key = next(iter(change))
        account = account._replace(**{key: tmp_path / "nothing"})
    elif change.get("ca_file") == "other":  # a CA that did not sign the server's certificate
        other = tmp_path / "other"
        other.mkdir()
        account = account._replace(ca_file=make_server(other, "x", own_authority=True)[0].directory / "ca.crt")
    else:
        account = account._replace(port=free_port())
    endpoint = Endpoint("Cy", server=account)
    try:
        endpoint.net.browse()
        said = endpoint.wait(ev.ServerState, lambda event: event.state not in ("connecting",))
        assert said.state == state and said.detail and said.address == account.address, said
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
    ({"cert_file": "/etc/pyramid/server/client.crt"}, "one way to sign in, not both"),
    ({"password_file": None, "cert_file": "/etc/pyramid/server/client.crt"}, "but not key_file"),
    ({"password_file": None, "key_file": "/etc/pyramid/server/client.key"}, "but not cert_file"),
    ({"password_file": None, "cert_file": "client.crt", "key_file": "/etc/pyramid/server/client.key"}, "absolute path"),
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
    by_certificate = {"server": "mqtts://tables.example.org:8884", "user": "dee", "ca_file": "/etc/pyramid/server/ca.crt",
                      "cert_file": "/etc/pyramid/server/client.crt", "key_file": "/etc/pyramid/server/client.key"}
    read = read_network_settings({"network": by_certificate})
    assert read.problems == () and read.server == ServerAccount(
        "tables.example.org", 8884, "dee", None, Path("/etc/pyramid/server/ca.crt"),
        ClientCertificate(Path("/etc/pyramid/server/client.crt"), Path("/etc/pyramid/server/client.key")))


LIMITS = Limits(retry_first=0.05, retry_longest=0.5)


@pytest.fixture
def own_broker(tmp_path: Path) -> Iterator[Broker]:
    """A server of its own, for a test that kills it."""
    broker = Broker(make_server(tmp_path, "ann", "bob")[0])
    try:
        broker.start()
        yield broker
    finally:
        broker.kill()


def test_the_server_killed_mid_match_and_back_loses_and_doubles_nothing(own_broker: Broker) -> None:
    host = Endpoint("Ann", LIMITS, own_broker.server.account("ann"))
    guest = Endpoint("Bob", LIMITS, own_broker.server.account("bob"))
    try:
        host_link, guest_link = seat(host, guest, 2024)
        host_game, guest_game = play_match(2024, "expert").moves, play_match(2024, "casual").moves
        for move in host_game[:10]:
            host_link.play(move)
        for move in guest_game[:10]:
            guest_link.play(move)
        guest.wait(ev.OpponentMoved, lambda event: event.number == 10)
        host.wait(ev.OpponentMoved, lambda event: event.number == 10)
        own_broker.kill()  # the server's machine loses its power
        assert host.wait(ev.PeerConnection).connected is False
        assert guest.wait(ev.PeerConnection).connected is False
        for move in host_game[10:]:
            host_link.play(move)  # both play on meanwhile: resent when they meet again
        for move in guest_game[10:]:
            guest_link.play(move)
        own_broker.start()
        assert guest.wait(ev.Seated).resumed
        assert host.wait(ev.OpponentJoined).resumed
        guest.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
        host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
        assert numbers(guest) == list(range(1, len(host_game) + 1))
        assert numbers(host) == list(range(1, len(guest_game) + 1))
        assert list(guest_link.opponent_game().moves) == [str(move) for move in host_game]
        assert list(host_link.opponent_game().moves) == [str(move) for move in guest_game]
        assert not any(isinstance(event, ev.MatchVoided) for event in host.seen + guest.seen)
    finally:
        guest.net.stop()
        host.net.stop()


#: A console that sits (guest) or opens its table (host) through the server, plays its first N moves of
#: match 2024, prints its saved table after each (as the console saves it with its game), then waits.
CHILD = textwrap.dedent(
    """
    import json, queue, sys
    from pathlib import Path
    from pyramid.engine.duel.ai import play_match
    from pyramid.net import events as ev
    from pyramid.net.network import Network
    from pyramid.net.server.account import ClientCertificate, ServerAccount
    role, name, user, port, files, count = sys.argv[1:]
    account = ServerAccount("127.0.0.1", int(port), user, Path(files) / "password", Path(files) / "ca.crt")
    events = queue.Queue()
    net = Network(name, events.put, discovery="off", server=account)
    if role == "host":
        link = net.open_table(2024, "good", "127.0.0.1", 0)
        until, level = ev.OpponentJoined, "expert"
    else:
        net.join_server("ann")
        until, level = ev.Seated, "casual"
    while not isinstance(events.get(timeout=30), until):
        pass
    for move in play_match(2024, level).moves[:int(count)]:
        net.link.play(move)
        print(json.dumps(net.link.to_json()), flush=True)
    sys.stdin.read()
    """
)


@pytest.mark.parametrize("killed", ["guest", "host"])
def test_a_console_killed_mid_match_comes_back_from_its_saved_table(own_broker: Broker, killed: str) -> None:
    """kill -9 of either side (its last will tells the other at once), then Continue from the saved table."""
    server = own_broker.server
    names = {"host": ("Ann", "ann"), "guest": ("Bob", "bob")}
    alive_role = "host" if killed == "guest" else "guest"
    alive = Endpoint(names[alive_role][0], LIMITS, server.account(names[alive_role][1]))
    games = {"host": play_match(2024, "expert").moves, "guest": play_match(2024, "casual").moves}
    try:
        if alive_role == "host":
            alive_link = alive.net.open_table(2024, "good", "127.0.0.1", 0)
            alive.wait(ev.ServerState, lambda event: event.state == "connected")
        name, user = names[killed]
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, killed, name, user, str(server.port), str(server.directory / "consoles" / user),
             "15"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        try:
            if alive_role == "guest":
                alive.net.browse()
                alive.wait(ev.TableSeen, lambda event: event.table.key == "server:ann" and event.table.seats == 1)
                alive.net.join_server("ann")
                alive.wait(ev.Seated)
                assert alive.net.link is not None
                alive_link = alive.net.link
            else:
                alive.wait(ev.OpponentJoined)
            for move in games[alive_role][:12]:
                alive_link.play(move)
            saved = [json.loads(child.stdout.readline()) for _ in range(15)][-1]
            alive.wait(ev.OpponentMoved, lambda event: event.number == 15)
        finally:
            child.kill()  # the power is cut
            child.wait(timeout=GUARD)
        assert alive.wait(ev.PeerConnection).connected is False
        for move in games[alive_role][12:20]:
            alive_link.play(move)  # the other plays on meanwhile

        reborn = Endpoint(name, LIMITS, server.account(user))
        try:
            assert saved["via"] == "server"
            link = reborn.net.resume(saved)
            if killed == "guest":
                assert reborn.wait(ev.Seated).resumed
            assert alive.wait(ev.PeerConnection).connected
            for move in games[killed][15:]:
                link.play(move)
            for move in games[alive_role][20:]:
                alive_link.play(move)
            reborn.wait(ev.OpponentMoved, lambda event: event.number == len(games[alive_role]))
            alive.wait(ev.OpponentMoved, lambda event: event.number == len(games[killed]))
            already = len(saved["opponent"]["moves"])
            assert numbers(reborn) == list(range(already + 1, len(games[alive_role]) + 1))  # none twice, none missing
            assert numbers(alive) == list(range(1, len(games[killed]) + 1))
            assert list(alive_link.opponent_game().moves) == [str(move) for move in games[killed]]
            assert list(link.opponent_game().moves) == [str(move) for move in games[alive_role]]
            assert not any(isinstance(event, ev.MatchVoided) for event in alive.seen + reborn.seen)
        finally:
            reborn.net.stop()
    finally:
        alive.net.stop()


GARBAGE = [b"", b"\xff\xfe\n", b"{}\n", b"[]\n", b'{"t":"hello","v":3,"name":"Mallory"}', b"x" * 8000 + b"\n",
           b'{"t":"hello","v":3,"name":"Mallory"}\n{"t":"join","token":"","level":"good"}\n', b'{"t":"move","match":7,"n":1,"move":"turn"}\n',
           b'{"t":"hello","v":3,"name":"' + "\u202e".encode() * 40 + b'"}\n']


def test_a_hostile_account_cannot_stop_a_match_nor_grow_a_consoles_memory(broker: Broker) -> None:
    """Mallory publishes garbage, forged moves, floods of seat requests, invites and adverts on every
    topic the ACL lets it reach, and tries the topics it may not (the broker refuses them); Ann and
    Bob play their match to the end, each move once, and Ann's console holds no more than its bounds."""
    from pyramid.net.server.session import MAX_CONVERSATIONS

    host = Endpoint("Ann", server=broker.server.account("ann"))
    guest = Endpoint("Bob", server=broker.server.account("bob"))
    mallory = Mallory(broker.server)
    try:
        match = half_played(host, guest)
        for number in range(200):  # seat requests, each its own conversation; garbage in each
            conversation = f"{number:016x}".encode()
            mallory.send("pyramids/v1/seats/ann/mallory", b'{"t":"hello","v":3,"name":"Mallory"}\n', conversation)
            mallory.send("pyramids/v1/seats/ann/mallory", GARBAGE[number % len(GARBAGE)], conversation)
            mallory.send("pyramids/v1/play/mallory/ann", b'{"t":"move","match":7,"n":1,"move":"turn"}\n', conversation)
        for payload in GARBAGE:
            mallory.send("pyramids/v1/seats/ann/mallory", payload)  # no conversation at all
            mallory.send("pyramids/v1/invites/ann/mallory", payload)
            mallory.send("pyramids/v1/adverts/mallory", payload, retain=True)
            mallory.send("pyramids/v1/status/mallory", payload, retain=True)
        for forged in ("pyramids/v1/play/bob/ann", "pyramids/v1/adverts/bob", "pyramids/v1/status/bob",
                       "pyramids/v1/seats/ann/bob", "pyramids/v1/invites/ann/bob"):
            mallory.send(forged, b'{"t":"leave","reason":"left"}\n', b"0123456789abcdef")
        play_out(host, guest, *match)
        assert len(mallory.refused) == 5 and all("Not authorized" in line for line in mallory.refused), mallory.refused
        session = host.net._session
        assert session is not None and len(session._conversations) <= MAX_CONVERSATIONS
        invites = [event for event in host.seen + list(host.events.queue) if isinstance(event, ev.InviteReceived)]
        assert invites == [], "none of what Mallory sent is an invite"
    finally:
        mallory.stop()
        guest.net.stop()
        host.net.stop()


def test_an_invite_through_the_server_is_taken_and_joined(broker: Broker) -> None:
    """Ann sees Bob's console in its network menu on the server, invites it; Bob reads the invite and sits."""
    host = Endpoint("Ann", server=broker.server.account("ann"))
    guest = Endpoint("Bob", server=broker.server.account("bob"))
    try:
        guest.net.listen("127.0.0.1", 0)  # the network menu: announced on the server as a console
        guest.net.browse()
        host.net.open_table(12, "good", "127.0.0.1", 0)
        host.net.browse()
        seen = host.wait(ev.TableSeen, lambda event: event.table.key == "server:bob" and not event.table.is_table)
        host.net.invite_server(seen.table.address)
        assert host.wait(ev.InviteSent).delivered
        invite = guest.wait(ev.InviteReceived)
        assert (invite.name, invite.address, invite.port, invite.match, invite.via) == ("Ann", "ann", 0, 12, "server")
        guest.net.join_server(invite.address)
        assert guest.wait(ev.Seated).host_name == "Ann"
        assert host.wait(ev.OpponentJoined).name == "Bob"
    finally:
        guest.net.stop()
        host.net.stop()


def test_a_late_will_of_an_earlier_connection_does_not_take_a_console_off_the_server(
        broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    """An account's earlier connection dies uncleanly; the server publishes its will ("gone") only when
    its keep-alive runs out, after the newer connection said "here". That will names the earlier
    connection: the console is still here (before, its seat and advert were dropped, and an invite
    from it was joined and refused "not on the table server")."""
    import logging
    import time

    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    from pyramid.net.server.session import CONNECTION_PROPERTY

    caplog.set_level(logging.INFO)
    bob = Endpoint("Bob", server=broker.server.account("bob"))
    mallory = Mallory(broker.server)
    try:
        bob.net.browse()
        bob.wait(ev.ServerState, lambda event: event.state == "connected")
        session = bob.net._session
        assert session is not None

        def status(word: bytes, connection: str) -> None:
            properties = Properties(PacketTypes.PUBLISH)
            properties.UserProperty = [(CONNECTION_PROPERTY, connection)]
            mallory.client.publish("pyramids/v1/status/mallory", word, qos=1, retain=True,
                                   properties=properties).wait_for_publish(timeout=30)

        def until(condition: Any) -> bool:
            deadline = time.monotonic() + GUARD
            while not condition() and time.monotonic() < deadline:
                time.sleep(0.02)
            return bool(condition())

        status(b"here", "newer")
        assert until(lambda: session._present.get("mallory") == (True, "newer"))
        status(b"gone", "earlier")  # the late will of a dead connection
        assert until(lambda: "ignored the last will of an earlier connection of mallory" in caplog.text)
        assert session._present.get("mallory") == (True, "newer"), "still here"
        status(b"gone", "newer")  # the newer connection's own will: gone
        assert until(lambda: session._present.get("mallory") == (False, "newer"))
    finally:
        mallory.stop()
        bob.net.stop()
