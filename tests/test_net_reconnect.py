"""A dropped connection and a power cut: the guest comes back to its seat, no move lost or doubled.

The power cut is real: the guest runs in a child process that is killed with
SIGKILL after saving its table (as the console saves it with its game); a new
guest resumes from that saved JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from test_net_match import GUARD, Endpoint

LIMITS = Limits(retry_first=0.05, retry_longest=0.2)
MATCH = 2024
ROOT = Path(__file__).resolve().parent.parent

#: A guest console that joins, plays its first N moves, prints its saved table after each, then waits.
GUEST = textwrap.dedent(
    """
    import json, queue, sys
    from pyramid.engine.duel.ai import play_match
    from pyramid.net import events as ev
    from pyramid.net.network import Network
    port, count = int(sys.argv[1]), int(sys.argv[2])
    events = queue.Queue()
    net = Network("Bob", events.put, discovery="off")
    net.join("127.0.0.1", port)
    while not isinstance(events.get(timeout=30), ev.Seated):
        pass
    for move in play_match(2024, "casual").moves[:count]:
        net.link.play(move)
        print(json.dumps(net.link.to_json()), flush=True)
    sys.stdin.read()
    """
)


def numbers(endpoint: Endpoint) -> list[int]:
    return [event.number for event in endpoint.seen if isinstance(event, ev.OpponentMoved)]


def test_a_dropped_connection_resumes_with_the_numbered_moves() -> None:
    host, guest = Endpoint("Ann", LIMITS), Endpoint("Bob", LIMITS)
    try:
        host_link = host.net.open_table(MATCH, "good", "127.0.0.1", 0)
        guest.net.join("127.0.0.1", host.wait(ev.Listening).port)
        guest.wait(ev.Seated)
        guest_link = guest.net.link
        assert guest_link is not None
        host_game, guest_game = play_match(MATCH, "expert").moves, play_match(MATCH, "casual").moves
        for move in host_game[:10]:
            host_link.play(move)
        for move in guest_game[:10]:
            guest_link.play(move)
        guest.wait(ev.OpponentMoved, lambda event: event.number == 10)
        host.wait(ev.OpponentMoved, lambda event: event.number == 10)

        wire, loop = guest_link.wire, guest.net._loop
        assert wire is not None and loop is not None
        loop.call_soon_threadsafe(wire.close)  # the network drops
        for move in host_game[10:]:
            host_link.play(move)  # played while the guest is away: resent on its return
        for move in guest_game[10:]:
            guest_link.play(move)
        assert guest.wait(ev.Seated).resumed
        assert host.wait(ev.OpponentJoined).resumed
        guest.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
        host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
        assert numbers(guest) == list(range(1, len(host_game) + 1))
        assert numbers(host) == list(range(1, len(guest_game) + 1))
        assert any(isinstance(event, ev.PeerConnection) and not event.connected for event in host.seen)
        assert list(guest_link.opponent_game().moves) == [str(move) for move in host_game]
        assert host_link.opponent().score == sum(play_match(MATCH, "casual").round_scores)
    finally:
        guest.net.stop()
        host.net.stop()


def test_a_guest_killed_mid_match_resumes_from_its_saved_table() -> None:
    host = Endpoint("Ann", LIMITS)
    host_game, guest_game = play_match(MATCH, "expert").moves, play_match(MATCH, "casual").moves
    try:
        host_link = host.net.open_table(MATCH, "good", "127.0.0.1", 0)
        port = host.wait(ev.Listening).port
        child = subprocess.Popen([sys.executable, "-c", GUEST, str(port), "15"], cwd=ROOT, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        try:
            host.wait(ev.OpponentJoined)
            for move in host_game[:12]:
                host_link.play(move)
            saved = [json.loads(child.stdout.readline()) for _ in range(15)][-1]
            host.wait(ev.OpponentMoved, lambda event: event.number == 15)
        finally:
            child.kill()  # the power is cut
            child.wait(timeout=GUARD)
        assert host.wait(ev.PeerConnection).connected is False
        for move in host_game[12:20]:
            host_link.play(move)  # the host plays on while the guest is away

        reborn = Endpoint("Bob", LIMITS)
        try:
            link = reborn.net.resume(saved)
            assert reborn.wait(ev.Seated).resumed
            assert host.wait(ev.OpponentJoined).resumed
            for move in guest_game[15:]:
                link.play(move)
            for move in host_game[20:]:
                host_link.play(move)
            reborn.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
            host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
            already = len(saved["opponent"]["moves"])  # the host's moves the child had saved
            assert numbers(reborn) == list(range(already + 1, len(host_game) + 1))  # none twice, none missing
            assert numbers(host) == list(range(1, len(guest_game) + 1))  # none doubled, none lost
            assert list(host_link.opponent_game().moves) == [str(move) for move in guest_game]
            assert link.opponent().score == sum(play_match(MATCH, "expert").round_scores)
            assert host_link.opponent().score == sum(play_match(MATCH, "casual").round_scores)
            assert not any(isinstance(event, ev.MatchVoided) for event in host.seen + reborn.seen)
            view = host.net.table_view()
            assert view is not None and view.players == ("Ann", "Bob") and view.state == "finished"
        finally:
            reborn.net.stop()
    finally:
        host.net.stop()


def test_a_guest_away_longer_than_the_seat_is_kept_counts_as_left() -> None:
    host = Endpoint("Ann", Limits(seat_hold=0.5))
    try:
        host.net.open_table(MATCH, "good", "127.0.0.1", 0)
        child = subprocess.Popen([sys.executable, "-c", GUEST, str(host.wait(ev.Listening).port), "1"], cwd=ROOT,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        host.wait(ev.OpponentJoined)
        child.stdout.readline()
        child.kill()
        child.wait(timeout=GUARD)
        assert host.wait(ev.OpponentLeft).reason == "timeout"
        view = host.net.table_view()
        assert view is not None and view.state == "closed"
    finally:
        host.net.stop()
