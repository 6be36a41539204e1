"""Two network endpoints on 127.0.0.1 play whole matches: each side's replay of the other equals its own.

Every wait below is bounded only so that a broken build fails instead of
hanging; no assertion depends on how long anything took.
"""

from __future__ import annotations

import queue
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pyramid.engine.duel.ai import play_match
from pyramid.engine.duel.board import DuelBoard
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.link import MatchLink
from pyramid.net.network import Network
from pyramid.net.server.account import ServerAccount

GUARD = 30.0  # seconds: only a hang guard


class Endpoint:
    """A Network and the queue its events arrive on, as the console's main loop would hold them."""

    def __init__(self, name: str, limits: Limits | None = None, server: ServerAccount | None = None) -> None:
        self.events: queue.Queue[ev.NetEvent] = queue.Queue()
        self.seen: list[ev.NetEvent] = []
        self.net = Network(name, self.events.put, limits, discovery="off", server=server)

    def wait(self, kind: type[Any], where: Callable[[Any], bool] = lambda event: True) -> Any:
        while True:
            try:
                event = self.events.get(timeout=GUARD)
            except queue.Empty:
                raise AssertionError(f"no {kind.__name__} came; events so far: {self.seen}") from None
            self.seen.append(event)
            if isinstance(event, kind) and where(event):
                return event

    def drain(self) -> None:
        while True:
            try:
                self.seen.append(self.events.get_nowait())
            except queue.Empty:
                return


@pytest.fixture
def pair() -> Iterator[tuple[Endpoint, Endpoint]]:
    host, guest = Endpoint("Ann"), Endpoint("Bob")
    yield host, guest
    guest.net.stop()
    host.net.stop()


def open_and_join(host: Endpoint, guest: Endpoint, match: int) -> tuple[MatchLink, MatchLink]:
    host_link = host.net.open_table(match, "good", "127.0.0.1", 0)
    port = host.wait(ev.Listening).port
    guest.net.join("127.0.0.1", port)
    seated = guest.wait(ev.Seated)
    assert (seated.host_name, seated.match, seated.level, seated.resumed) == ("Ann", match, "good", False)
    joined = host.wait(ev.OpponentJoined)
    assert (joined.name, joined.resumed) == ("Bob", False)
    assert guest.net.link is not None
    return host_link, guest.net.link


def play_all(link: MatchLink, moves: Any) -> None:
    for move in moves:
        link.play(move)


def wait_for_moves(endpoint: Endpoint, count: int) -> ev.OpponentMoved:
    return endpoint.wait(ev.OpponentMoved, lambda event: event.number == count)


@pytest.mark.parametrize("match", [7, 1234567])
def test_a_whole_match_each_side_computes_the_others_score(pair: tuple[Endpoint, Endpoint], match: int) -> None:
    host, guest = pair
    host_link, guest_link = open_and_join(host, guest, match)
    host_game, guest_game = play_match(match, "good"), play_match(match, "casual")
    play_all(host_link, host_game.moves)
    play_all(guest_link, guest_game.moves)
    last_on_guest = wait_for_moves(guest, len(host_game.moves))
    last_on_host = wait_for_moves(host, len(guest_game.moves))
    assert (last_on_guest.score, last_on_guest.finished) == (sum(host_game.round_scores), True)
    assert (last_on_host.score, last_on_host.finished) == (sum(guest_game.round_scores), True)
    guest_board = DuelBoard.for_match(match)
    guest_board.replay(str(move) for move in guest_game.moves)
    assert host_link.opponent().score == guest_board.score
    assert list(host_link.opponent_game().moves) == [str(move) for move in guest_game.moves]
    assert list(guest_link.opponent_game().moves) == [str(move) for move in host_game.moves]
    numbers = [event.number for event in host.seen if isinstance(event, ev.OpponentMoved)]
    assert numbers == list(range(1, len(guest_game.moves) + 1))


def test_each_move_event_carries_the_opponents_game_after_it(pair: tuple[Endpoint, Endpoint]) -> None:
    """Issue 48: the console read the opponent's game back from the link under the network's lock at
    every move; each event now carries its snapshot, taken as the move was replayed."""
    host, guest = pair
    host_link, guest_link = open_and_join(host, guest, 7)
    game = play_match(7, "good")
    play_all(host_link, game.moves)
    wait_for_moves(guest, len(game.moves))
    moved = [event for event in guest.seen if isinstance(event, ev.OpponentMoved)]
    assert [event.game.moves for event in moved] == [  # type: ignore[union-attr]
        tuple(str(move) for move in game.moves[:number]) for number in range(1, len(game.moves) + 1)]
    assert all((event.game.round, event.game.score, event.game.finished) == (event.round, event.score, event.finished)
               for event in moved)  # type: ignore[union-attr]
    assert moved[-1].game == guest_link.opponent_game()


def test_moves_made_before_the_guest_joins_are_sent_on_joining(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    game = play_match(42, "expert")
    host_link = host.net.open_table(42, "expert", "127.0.0.1", 0)
    play_all(host_link, game.moves[:10])
    port = host.wait(ev.Listening).port
    guest.net.join("127.0.0.1", port)
    assert wait_for_moves(guest, 10).move == str(game.moves[9])
    play_all(host_link, game.moves[10:])
    assert wait_for_moves(guest, len(game.moves)).score == sum(game.round_scores)


def test_rematch_starts_a_new_match_on_both_sides(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    host_link, guest_link = open_and_join(host, guest, 11)
    play_all(host_link, play_match(11, "good").moves)
    play_all(guest_link, play_match(11, "casual").moves)
    guest_link.accept_rematch(12)  # not proposed (yet): dropped on the network thread, nothing starts
    host_link.propose_rematch(12)
    assert guest.wait(ev.RematchProposed).match == 12
    guest_link.accept_rematch(12)
    assert guest.wait(ev.RematchStarted).match == 12
    assert host.wait(ev.RematchStarted).match == 12
    second = play_match(12, "good")
    play_all(guest_link, second.moves)
    assert wait_for_moves(host, len(second.moves)).score == sum(second.round_scores)
    assert host_link.match_number == guest_link.match_number == 12


def test_leaving_is_reported_to_the_other_side(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    open_and_join(host, guest, 5)
    guest.net.close_table()
    assert host.wait(ev.OpponentLeft).reason == "left"


def is_the_end(event: object) -> bool:
    """The opponent left, or its connection dropped (what a lost leave looks like)."""
    return isinstance(event, ev.OpponentLeft) or isinstance(event, ev.PeerConnection) and not event.connected


@pytest.mark.parametrize("leaver", ["guest", "host"])
@pytest.mark.parametrize("how", ["close_table", "stop"])
def test_leaving_while_the_others_moves_are_on_the_way_is_still_seen_as_leaving(leaver: str, how: str) -> None:
    """The leaving side has the other's moves unread in its socket when it goes.

    Closing such a socket makes its kernel send a reset, and the reset made the
    other kernel throw the leave away: the other side saw a dropped connection,
    kept the seat for five minutes and recorded a time-out. Seven times in ten
    before the leaving side waited for the other to close; ten rounds here.
    """
    moves = play_match(5, "good").moves
    for _ in range(10):
        host, guest = Endpoint("Ann"), Endpoint("Bob")
        try:
            host_link, guest_link = open_and_join(host, guest, 5)
            leaving, staying, staying_link = (guest, host, host_link) if leaver == "guest" else (host, guest, guest_link)
            play_all(staying_link, moves)
            getattr(leaving.net, how)()
            end = staying.wait(object, is_the_end)
            assert end == ev.OpponentLeft("left" if leaver == "guest" else "closed"), staying.seen
        finally:
            guest.net.stop()
            host.net.stop()


def test_giving_up_a_join_before_the_host_answers_closes_the_connection() -> None:
    """A host that is slow to answer must not keep a connection the player gave up on (it would seat a ghost)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(GUARD)
        guest = Endpoint("Bob")
        try:
            guest.net.join("127.0.0.1", server.getsockname()[1])
            connection, _ = server.accept()
            with connection:
                connection.settimeout(GUARD)
                asked = b""
                while asked.count(b"\n") < 2:  # its hello and its join
                    asked += connection.recv(65536)
                guest.net.close_table()
                assert connection.recv(65536) == b"", "the guest gave up: its connection ends"
        finally:
            guest.net.stop()


def seat_at(port: int) -> str:
    """What a third console is told when it asks for the seat: "seated", or the refusal's reason.

    A "full" is asked again for a while: the host may not have read yet that
    the one before went; a seat held for good stays "full".
    """
    for _ in range(int(GUARD / 0.05)):
        probe = Endpoint("Cy")
        try:
            probe.net.join("127.0.0.1", port)
            answer = probe.wait(object, lambda event: isinstance(event, (ev.Seated, ev.JoinFailed)))
        finally:
            probe.net.stop()
        reason = "seated" if isinstance(answer, ev.Seated) else str(answer.reason)
        if reason != "full":
            return reason
        time.sleep(0.05)
    return "full"


def test_a_join_given_up_at_any_moment_leaves_no_seat_held() -> None:
    """The player gives up joining 0 to 4 ms after asking: before connecting, while the host answers,
    or once seated. Afterwards the table is free, or was left ("closed"); before, one time in four
    the host kept the seat for a guest who was gone, and nobody else could sit for five minutes."""
    for step in range(40):
        host, guest = Endpoint("Ann"), Endpoint("Bob")
        try:
            host.net.open_table(5, "good", "127.0.0.1", 0)
            port = host.wait(ev.Listening).port
            guest.net.join("127.0.0.1", port)
            time.sleep(step * 0.0001)
            guest.net.close_table()
            guest.net.stop()
            assert seat_at(port) in ("seated", "closed"), host.seen
        finally:
            guest.net.stop()
            host.net.stop()


def test_closing_the_table_is_reported_to_the_guest(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    open_and_join(host, guest, 5)
    host.net.close_table()
    assert guest.wait(ev.OpponentLeft).reason == "closed"


def test_a_second_guest_is_refused_while_the_seat_is_taken(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    open_and_join(host, guest, 5)
    third = Endpoint("Cy")
    try:
        third.net.join("127.0.0.1", next(e.port for e in host.seen if isinstance(e, ev.Listening)))
        assert third.wait(ev.JoinFailed).reason == "full"
    finally:
        third.net.stop()


def test_joining_nowhere_fails_cleanly() -> None:
    lonely = Endpoint("Dee", Limits(connect_timeout=2))
    try:
        lonely.net.join("127.0.0.1", 9)
        assert lonely.wait(ev.JoinFailed).reason == "unreachable"
    finally:
        lonely.net.stop()


def test_an_invite_reaches_a_listening_console(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    guest.net.listen("127.0.0.1", 0)
    guest_port = guest.wait(ev.Listening).port
    host.net.open_table(77, "casual", "127.0.0.1", 0)
    table_port = host.wait(ev.Listening).port
    host.net.invite("127.0.0.1", guest_port)
    invite = guest.wait(ev.InviteReceived)
    assert (invite.name, invite.address, invite.port, invite.match) == ("Ann", "127.0.0.1", table_port, 77)
    assert host.wait(ev.InviteSent).delivered


def test_the_views_follow_the_table_for_the_trace(pair: tuple[Endpoint, Endpoint]) -> None:
    host, guest = pair
    host_link = host.net.open_table(3, "good", "127.0.0.1", 0)
    port = host.wait(ev.Listening).port
    waiting = host.net.table_view()
    assert waiting is not None and waiting.to_json() == {"host": "127.0.0.1", "port": port, "players": ["Ann"],
                                                          "state": "waiting", "via": "lan"}
    guest.net.join("127.0.0.1", port)
    guest.wait(ev.Seated)
    host.wait(ev.OpponentJoined)
    guest_link = guest.net.link
    assert guest_link is not None
    seen_from_guest = guest.net.table_view()
    assert seen_from_guest is not None
    assert seen_from_guest.to_json() == {"host": "127.0.0.1", "port": port, "players": ["Ann", "Bob"], "state": "playing",
                                        "via": "lan"}
    game = play_match(3, "casual")
    play_all(guest_link, game.moves)
    status = host.wait(ev.OpponentStatus, lambda event: event.finished)
    assert (status.score, status.moves) == (sum(game.round_scores), len(game.moves))
    assert host_link.opponent().to_json() == {"name": "Bob", "connected": True, "round": status.round,
                                              "score": status.score, "status": "finished", "moves": len(game.moves)}
    play_all(host_link, play_match(3, "good").moves)
    guest.wait(ev.OpponentStatus, lambda event: event.finished)
    view = guest.net.table_view()
    assert view is not None and view.state == "finished"


def test_a_console_of_another_protocol_version_is_refused() -> None:
    import socket

    host = Endpoint("Ann")
    try:
        host.net.open_table(3, "good", "127.0.0.1", 0)
        sock = socket.create_connection(("127.0.0.1", host.wait(ev.Listening).port), timeout=GUARD)
        sock.sendall(b'{"t":"hello","v":4,"name":"Future"}\n{"t":"join","token":"","level":"good"}\n')
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        sock.close()
        assert answer.endswith(b'{"t":"refuse","reason":"version"}\n')
    finally:
        host.net.stop()


@pytest.mark.parametrize("address", ["8.8.4.4", "0.0.0.0", "255.255.255.255", "100.64.0.1"])
def test_a_console_never_connects_off_the_home_network(pair: tuple[Endpoint, Endpoint], address: str) -> None:
    """Issue 26, item 7: joins by address, from an invite or a listed table, and invites, are all held to
    the private-address rule the host applies to connections it accepts."""
    host, guest = pair
    guest.net.join(address, 47312)
    failed = guest.wait(ev.JoinFailed)
    assert failed.reason == "outside" and "not a loopback, link-local or private address" in failed.detail
    host.net.open_table(9, "good", "127.0.0.1", 0)
    host.wait(ev.Listening)
    host.net.invite(address, 47312)
    sent = host.wait(ev.InviteSent)
    assert not sent.delivered and "not a loopback, link-local or private address" in sent.detail


@pytest.mark.parametrize("level, seated", [("casual", True), ("good", True), ("expert", False)])
def test_a_table_seats_players_up_to_its_hosts_maximum_level(pair: tuple[Endpoint, Endpoint], level: str,
                                                              seated: bool) -> None:
    """The table's level is the highest skill its host accepts; the guest states its own in its join."""
    host, guest = pair
    host.net.open_table(4, "good", "127.0.0.1", 0)
    guest.net.join("127.0.0.1", host.wait(ev.Listening).port, level=level)
    if seated:
        assert guest.wait(ev.Seated).level == "good"
    else:
        failed = guest.wait(ev.JoinFailed)
        assert failed.reason == "level" and "(level)" in failed.detail
        view = host.net.table_view()
        assert view is not None and view.players == ("Ann",), "the seat stays free"
