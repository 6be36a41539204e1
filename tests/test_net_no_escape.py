"""No one escapes a lost match by starting the next one (issue 46, item 1).

The host finished its game; the guest, a few moves into its own, answered the host's proposal of a
new round with ``rematch_ok`` (or ``resend`` for the new match, which implies it): the new match
started and the host's win was never counted. Now the link starts the next match only once the
opponent's game is over too. A raw socket plays the guest, as a hostile console would.
"""

from __future__ import annotations

import json
import socket

import pytest

from hostile_sockets import connect
from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.link import MatchLink
from test_net_hostile import GUARD, SITS_DOWN, line, table  # noqa: F401 (table: a fixture, used by name)
from test_net_match import Endpoint


def read_until(sock: socket.socket, wanted: dict[str, object]) -> None:
    """Read the host's lines until one holds every field of ``wanted``."""
    buffered = b""
    while True:
        chunk = sock.recv(65536)
        assert chunk, f"the host closed the connection before sending {wanted}"
        buffered += chunk
        *lines, buffered = buffered.split(b"\n")
        for text in lines:
            message = json.loads(text)
            if all(message.get(key) == value for key, value in wanted.items()):
                return


def finished_host(host: Endpoint, port: int) -> tuple[socket.socket, MatchLink]:
    """A raw-socket guest seated at ``host``'s match 31 with 3 moves played, and the host's whole game
    played: the host has finished, the guest is far behind."""
    sock = connect(port, GUARD)
    sock.sendall(SITS_DOWN)
    host.wait(ev.OpponentJoined)
    for number, move in enumerate(play_match(31, "casual").moves[:3], start=1):
        sock.sendall(line({"t": "move", "match": 31, "n": number, "move": str(move)}))
    host.wait(ev.OpponentMoved, lambda event: event.number == 3)
    link = host.net.link
    assert link is not None
    for move in play_match(31, "good").moves:
        link.play(move)
    return sock, link


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
