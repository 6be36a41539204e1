"""A dropped connection and a power cut: the guest comes back to its seat, no move lost or doubled."""

from __future__ import annotations

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.link import MatchLink
from test_net_match import Endpoint

LIMITS = Limits(retry_first=0.05, retry_longest=0.2)
MATCH = 2024


def numbers(endpoint: Endpoint) -> list[int]:
    return [event.number for event in endpoint.seen if isinstance(event, ev.OpponentMoved)]


def test_a_dropped_connection_resumes_with_the_numbered_moves() -> None:
    host, guest = Endpoint("Ann", LIMITS), Endpoint("Bob", LIMITS)
    try:
        host_link = host.net.open_table(MATCH, "good", "127.0.0.1", 0)
        port = host.wait(ev.Listening).port
        guest.net.join("127.0.0.1", port)
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

        wire = guest_link.wire
        assert wire is not None
        loop = guest.net._loop
        assert loop is not None
        loop.call_soon_threadsafe(wire.close)  # the network drops
        for move in host_game[10:20]:
            host_link.play(move)  # played while the guest is away: resent on its return
        for move in guest_game[10:20]:
            guest_link.play(move)
        assert guest.wait(ev.Seated).resumed
        host.wait(ev.OpponentJoined, lambda event: event.resumed)
        guest.wait(ev.OpponentMoved, lambda event: event.number == 20)
        host.wait(ev.OpponentMoved, lambda event: event.number == 20)
        assert numbers(guest)[:20] == list(range(1, 21)) and numbers(host)[:20] == list(range(1, 21))
        assert any(isinstance(event, ev.PeerConnection) and not event.connected for event in host.seen)

        saved = guest_link.to_json()  # the guest's console saves this with its game ...
        guest.net._loop.call_soon_threadsafe(guest.net._loop.stop)  # ... and its power is cut (no goodbye)
        for move in host_game[20:]:
            host_link.play(move)
        reborn = Endpoint("Bob", LIMITS)
        try:
            link = reborn.net.resume(MatchLink.from_json(saved).to_json())
            assert reborn.wait(ev.Seated).resumed
            for move in guest_game[20:]:
                link.play(move)
            reborn.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
            host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
            assert numbers(reborn) == list(range(21, len(host_game) + 1))
            assert link.opponent_moves() == [str(move) for move in host_game]
            assert host_link.opponent_moves() == [str(move) for move in guest_game]
            assert host_link.opponent().score == sum(play_match(MATCH, "casual").round_scores)
            assert link.opponent().score == sum(play_match(MATCH, "expert").round_scores)
            assert not any(isinstance(event, ev.MatchVoided) for event in host.seen + reborn.seen)
        finally:
            reborn.net.stop()
    finally:
        host.net.stop()


def test_a_guest_away_longer_than_the_seat_is_kept_counts_as_left() -> None:
    host, guest = Endpoint("Ann", Limits(seat_hold=0.5)), Endpoint("Bob", Limits(seat_hold=0.5))
    try:
        host.net.open_table(5, "good", "127.0.0.1", 0)
        guest.net.join("127.0.0.1", host.wait(ev.Listening).port)
        guest.wait(ev.Seated)
        guest.net._loop.call_soon_threadsafe(guest.net._loop.stop)  # gone without a word
        loop = host.net._loop
        link = host.net.link
        assert loop is not None and link is not None and link.wire is not None
        loop.call_soon_threadsafe(link.wire.close)  # the host notices the drop
        assert host.wait(ev.OpponentLeft).reason == "timeout"
    finally:
        host.net.stop()
