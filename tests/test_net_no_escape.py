"""No one escapes a lost match (issue 46, items 1 and 2), on both sides, at home and through the table server.

The host finished its game; the guest, a few moves into its own, answered the host's proposal of a
new round with ``rematch_ok`` (or ``resend`` for the new match, which implies it): the new match
started and the host's win was never counted. Or the loser claimed "void", or sent a status its
moves do not give, and nothing was counted. Now the link starts the next match only once the
opponent's game is over too, void is decided by this console's own replay only while its player's
game goes on, and the console counts the match just ended before it starts the next.

The hostile peer is a raw socket (a host and a guest on the home network), and a console of ours
sending, on its real connection, what a hostile one would (`say_raw`: both sides, the home network
and a real Mosquitto made by make-server.sh). Each test names the row of docs/network.md's message ×
phase table it holds.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from hostile_sockets import connect
from pyramid.engine.duel.ai import opponent_for, play_match
from pyramid.net import events as ev
from pyramid.net.link import MatchLink
from pyramid.net.protocol import Leave, Message, Move, Rematch, RematchAccept, Resend, Status
from pyramid.saved.stats import NETWORK_GAME
from test_net_hostile import GUARD, SITS_DOWN, line, table  # noqa: F401 (table: a fixture, used by name)
from table_server import Broker, make_server, running
from test_net_match import Endpoint, open_and_join
from test_net_server import seat


#: What was read from each socket and not yet looked at (by the socket's id).
UNREAD: dict[int, bytes] = {}


def read_until(sock: socket.socket, wanted: dict[str, object]) -> None:
    """Read the other side's lines until one holds every field of ``wanted``; what follows it is kept
    for the next call."""
    buffered = UNREAD.pop(id(sock), b"")
    while True:
        while b"\n" in buffered:
            text, buffered = buffered.split(b"\n", 1)
            message = json.loads(text)
            if all(message.get(key) == value for key, value in wanted.items()):
                UNREAD[id(sock)] = buffered
                return
        chunk = sock.recv(65536)
        assert chunk, f"the other side closed the connection before sending {wanted}"
        buffered += chunk


def finished_host(host: Endpoint, port: int) -> tuple[socket.socket, MatchLink]:
    """A raw-socket guest seated at ``host``'s match 31 with 3 moves played, and the host's whole game
    played: the host has finished, the guest is far behind."""
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    host.wait(ev.OpponentJoined)
    return sock, three_moves_then_a_whole_game(sock, host)


def three_moves_then_a_whole_game(sock: socket.socket, endpoint: Endpoint) -> MatchLink:
    """The raw side plays 3 moves of match 31, then ``endpoint``'s player its whole game."""
    for number, move in enumerate(play_match(31, "casual").moves[:3], start=1):
        sock.sendall(line({"t": "move", "match": 31, "n": number, "move": str(move)}))
    endpoint.wait(ev.OpponentMoved, lambda event: event.number == 3)
    link = endpoint.net.link
    assert link is not None
    for move in play_match(31, "good").moves:
        link.play(move)
    return link


@pytest.mark.parametrize("answer", [{"t": "rematch_ok", "match": 32}, {"t": "resend", "match": 32, "next": 1}],
                         ids=["rematch_ok", "resend"])
def test_an_opponent_whose_game_is_not_over_cannot_start_the_next_match(
        table: tuple[Endpoint, int], answer: dict[str, object]) -> None:
    host, port = table
    sock, link = finished_host(host, port)
    try:
        link.propose_rematch(32)
        read_until(sock, {"t": "rematch", "match": 32})
        sock.sendall(line(answer) + line({"t": "ping", "n": 7}))
        read_until(sock, {"t": "pong", "n": 7})  # the answer was read before the ping
        host.drain()
        assert not [event for event in host.seen if isinstance(event, (ev.RematchStarted, ev.MatchVoided))]
        assert link.match_number == 31 and link.ended is None, "the match the host won still stands"
    finally:
        sock.close()


@pytest.mark.parametrize("fault", [{"t": "leave", "reason": "void"},
                                   {"t": "status", "match": 31, "round": 1, "score": 900, "moves": 3, "finished": True}],
                         ids=["claims void", "wrong status"])
def test_after_this_players_game_is_over_a_void_claim_or_a_wrong_status_counts_as_leaving(
        table: tuple[Endpoint, int], fault: dict[str, object]) -> None:
    """Item 2: the host finished; the guest, losing, claims void or sends a status its moves do not
    give, and would have erased the loss. Now it has left the table: the host's match counts."""
    host, port = table
    sock, link = finished_host(host, port)
    try:
        read_until(sock, {"t": "status", "finished": True})  # the host's game is over, and the guest knows
        sock.sendall(line(fault))
        left = host.wait(ev.OpponentLeft)
        assert left.reason == "left" and link.ended == "left"
        assert not [event for event in host.seen if isinstance(event, ev.MatchVoided)]
    finally:
        sock.close()


def test_a_void_claim_before_this_players_game_is_over_is_a_leave_too(table: tuple[Endpoint, int]) -> None:
    """Void is this console's own replay's to decide while its player's game goes on (every kind in
    tests/test_net_hostile.py); the peer's word alone never decides it: its "void" is a leave."""
    host, port = table
    sock = connect(port, GUARD)
    try:
        sock.sendall(SITS_DOWN)
        host.wait(ev.OpponentJoined)
        sock.sendall(line({"t": "leave", "reason": "void"}))
        assert host.wait(ev.OpponentLeft).reason == "left"
        assert not [event for event in host.seen if isinstance(event, ev.MatchVoided)]
    finally:
        sock.close()


# -- the guest's side: a raw host ------------------------------------------------------------------
def raw_host_with_guest(guest: Endpoint) -> tuple[socket.socket, socket.socket]:
    """A listening socket playing a host (Mallory's table, match 31), the guest Endpoint seated at it;
    returns the listener and the seated connection."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(GUARD)
    guest.net.join("127.0.0.1", listener.getsockname()[1])
    sock, _ = listener.accept()
    sock.settimeout(GUARD)
    read_until(sock, {"t": "hello"})
    sock.sendall(line({"t": "hello", "v": 3, "name": "Mallory"})
                 + line({"t": "table", "host": "Mallory", "match": 31, "level": "good", "seats": 1}))
    read_until(sock, {"t": "join"})
    # Seated, then asking for the guest's moves from the first, as a host does.
    sock.sendall(line({"t": "accept", "token": "7" * 32, "match": 31, "level": "good"})
                 + line({"t": "resend", "match": 31, "next": 1}))
    guest.wait(ev.Seated)
    return listener, sock


def finished_guest(guest: Endpoint) -> tuple[socket.socket, socket.socket, MatchLink]:
    """The guest seated at a raw host that played 3 moves, and the guest's whole game played."""
    listener, sock = raw_host_with_guest(guest)
    link = three_moves_then_a_whole_game(sock, guest)
    read_until(sock, {"t": "status", "finished": True})
    return listener, sock, link


@pytest.mark.parametrize("answer", [{"t": "rematch_ok", "match": 32}, {"t": "resend", "match": 32, "next": 1}],
                         ids=["rematch_ok", "resend"])
def test_a_host_whose_game_is_not_over_cannot_start_the_next_match_either(answer: dict[str, object]) -> None:
    guest = Endpoint("Bob")
    try:
        listener, sock, link = finished_guest(guest)
        with listener, sock:
            link.propose_rematch(32)
            read_until(sock, {"t": "rematch", "match": 32})
            sock.sendall(line(answer) + line({"t": "ping", "n": 7}))
            read_until(sock, {"t": "pong", "n": 7})
            guest.drain()
            assert not [event for event in guest.seen if isinstance(event, (ev.RematchStarted, ev.MatchVoided))]
            assert link.match_number == 31 and link.ended is None
    finally:
        guest.net.stop()


def test_a_host_that_claims_void_after_the_guest_finished_has_left() -> None:
    guest = Endpoint("Bob")
    try:
        listener, sock, link = finished_guest(guest)
        with listener, sock:
            sock.sendall(line({"t": "leave", "reason": "void"}))
            assert guest.wait(ev.OpponentLeft).reason == "left" and link.ended == "left"
            assert not [event for event in guest.seen if isinstance(event, ev.MatchVoided)]
    finally:
        guest.net.stop()


# -- the console: the match just ended is counted before the next one starts ----------------------------
def test_a_match_both_finished_counts_even_when_the_next_one_starts_before_the_console_looks() -> None:
    """The guest ends its game and accepts the host's new round in one write: by the time the host's
    main loop takes the last move's news, the link is on the next match. The match just ended is
    counted all the same (the news of the new round carries the opponent's final game): before, the
    console compared only games of the match it shows, found none finished, and counted nothing."""
    from test_net_match_states import MatchAtARealHost, line as say

    host = MatchAtARealHost()
    try:
        host.host_plays(1000)
        host.host_asks_for_a_new_round()
        proposal = host.host_proposal
        assert proposal is not None and host.run.match_number == 16
        player, board, words = opponent_for("casual"), host.peer_board, b""
        while not board.is_over():
            move = player.choose(board)
            board.push(move)
            words += say({"t": "move", "match": 16, "n": len(board.move_stack), "move": str(move)})
        words += say({"t": "status", "match": 16, "round": board.round_number, "score": board.score,
                      "moves": len(board.move_stack), "finished": True})
        host.send(words + say({"t": "rematch_ok", "match": proposal}))
        host.read_until(lambda message: message == {"t": "resend", "match": proposal, "next": 1})
        host.sync()  # every event taken by the console only now, the link long on the next match
        counted = host.session.store.stats(NETWORK_GAME, "Mallory")
        assert counted.played == 1, "the match both finished is in the statistics"
        assert host.run.match_number == proposal and not host.run.recorded
    finally:
        host.close()


# -- both sides, on the home network and through the table server ---------------------------------------
@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    yield from running(make_server(tmp_path_factory.mktemp("server"), "ann", "bob")[0])


@pytest.fixture(params=["lan", "server"])
def seated(request: pytest.FixtureRequest) -> Iterator[tuple[Endpoint, Endpoint]]:
    """Ann's table with Bob seated at match 31, on the home network or through a real table server."""
    if request.param == "lan":
        host, guest = Endpoint("Ann"), Endpoint("Bob")
    else:
        server = request.getfixturevalue("broker").server
        host, guest = Endpoint("Ann", server=server.account("ann")), Endpoint("Bob", server=server.account("bob"))
    try:
        if request.param == "lan":
            open_and_join(host, guest, 31)
        else:
            seat(host, guest, 31)
        yield host, guest
    finally:
        guest.net.stop()
        host.net.stop()


def say_raw(link: MatchLink, message: Message) -> None:
    """What a hostile console would send: ``message`` on ``link``'s connection, as it is, from the network
    thread, while the sending console's own match stays as it was."""
    def send() -> None:
        assert link.wire is not None
        link.wire.send(message)

    assert link._schedule is not None
    link._schedule(send)  # noqa: SLF001 (the one way in for a forged message)


def losing_and_finished(seated: tuple[Endpoint, Endpoint], hostile: str) -> tuple[Endpoint, MatchLink, Endpoint, MatchLink]:
    """The hostile side 3 moves into match 31; the honest side's whole game played, and the hostile
    side told so. Returns (honest, its link, hostile, its link)."""
    host, guest = seated
    honest, cheat = (guest, host) if hostile == "host" else (host, guest)
    honest_link, cheat_link = honest.net.link, cheat.net.link
    assert honest_link is not None and cheat_link is not None
    for move in play_match(31, "casual").moves[:3]:
        cheat_link.play(move)
    honest.wait(ev.OpponentMoved, lambda event: event.number == 3)
    for move in play_match(31, "good").moves:
        honest_link.play(move)
    cheat.wait(ev.OpponentStatus, lambda event: event.finished)
    return honest, honest_link, cheat, cheat_link


@pytest.mark.parametrize("hostile", ["guest", "host"])
@pytest.mark.parametrize("answer", [RematchAccept(32), Resend(32, 1)], ids=["rematch_ok", "resend"])
def test_no_side_starts_the_next_match_before_its_game_is_over(
        seated: tuple[Endpoint, Endpoint], hostile: str, answer: Message) -> None:
    """Rows `rematch_ok` and `resend` (proposed): the honest side finished and proposed match 32; the
    hostile side, losing 3 moves in, answers as if it agreed. Nothing starts; its next move, sent
    after the answer, is replayed on match 31 (so the answer was read, and ignored)."""
    honest, honest_link, cheat, cheat_link = losing_and_finished(seated, hostile)
    honest_link.propose_rematch(32)
    cheat.wait(ev.RematchProposed, lambda event: event.match == 32)
    say_raw(cheat_link, answer)
    cheat_link.play(play_match(31, "casual").moves[3])
    honest.wait(ev.OpponentMoved, lambda event: event.number == 4)
    assert not [event for event in honest.seen if isinstance(event, (ev.RematchStarted, ev.MatchVoided))]
    assert honest_link.match_number == 31 and honest_link.ended is None, "the match the honest side won stands"


@pytest.mark.parametrize("hostile", ["guest", "host"])
@pytest.mark.parametrize("fault", [Leave("void"), Status(31, 1, 900, 3, True)], ids=["claims void", "wrong status"])
def test_no_side_voids_a_match_once_the_other_finished(
        seated: tuple[Endpoint, Endpoint], hostile: str, fault: Message) -> None:
    """Rows `leave` and `status` (after this player's game is over): the loser's void claim, or a
    status its moves do not give, is the loser leaving: the honest side's match counts."""
    honest, honest_link, cheat, cheat_link = losing_and_finished(seated, hostile)
    say_raw(cheat_link, fault)
    assert honest.wait(ev.OpponentLeft).reason == "left" and honest_link.ended == "left"
    assert not [event for event in honest.seen if isinstance(event, ev.MatchVoided)]


def both_under_way(seated: tuple[Endpoint, Endpoint], hostile: str) -> tuple[Endpoint, MatchLink, Endpoint, MatchLink]:
    """Both sides 3 moves into match 31, each told of the other's; (honest, its link, hostile, its link)."""
    host, guest = seated
    honest, cheat = (guest, host) if hostile == "host" else (host, guest)
    honest_link, cheat_link = honest.net.link, cheat.net.link
    assert honest_link is not None and cheat_link is not None
    for endpoint, link, level in ((cheat, cheat_link, "casual"), (honest, honest_link, "good")):
        for move in play_match(31, level).moves[:3]:
            link.play(move)
    honest.wait(ev.OpponentMoved, lambda event: event.number == 3)
    cheat.wait(ev.OpponentMoved, lambda event: event.number == 3)
    return honest, honest_link, cheat, cheat_link


@pytest.mark.parametrize("hostile", ["guest", "host"])
def test_a_proposal_from_a_side_still_playing_is_not_taken(seated: tuple[Endpoint, Endpoint], hostile: str) -> None:
    """Row `rematch(m)` (playing): a new round offered by a player whose game goes on would let it
    walk away from this one; it is not taken, and the match goes on."""
    honest, honest_link, cheat, cheat_link = both_under_way(seated, hostile)
    say_raw(cheat_link, Rematch(32))
    cheat_link.play(play_match(31, "casual").moves[3])
    honest.wait(ev.OpponentMoved, lambda event: event.number == 4)
    assert not [event for event in honest.seen if isinstance(event, (ev.RematchProposed, ev.MatchVoided))]
    assert honest_link.match_number == 31 and honest_link.ended is None


@pytest.mark.parametrize("hostile", ["guest", "host"])
def test_a_move_out_of_order_voids_while_this_players_game_goes_on(seated: tuple[Endpoint, Endpoint], hostile: str) -> None:
    """Row `move` (playing), the one way a match is void: this console's own replay refuses the
    opponent's game while its player's game goes on, and the match counts for nobody here. The other
    side reads "void" as a word it cannot check, so for it this side left."""
    honest, honest_link, cheat, cheat_link = both_under_way(seated, hostile)
    say_raw(cheat_link, Move(31, 9, "turn"))
    assert honest.wait(ev.MatchVoided).reason == "out_of_order" and honest_link.ended == "void"
    assert cheat.wait(ev.OpponentLeft).reason == "left"
