"""The match's rules with no socket, loop or thread (issue 48): two ``MatchState`` joined by queues.

The same rules the hosts over 127.0.0.1 play by (tests/test_net_match.py,
tests/test_net_match_states.py drive a real host), here driven directly: each
input's ``Step`` is checked, and a hypothesis state machine plays thousands of
matches — connections dropped and made again at any line, rematches proposed and
crossed, lines repeated and forged — in the time the real host plays a hundred.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.errors import PeerFault
from pyramid.net.link import MatchLink
from pyramid.net.match_state import MatchState, TableStateError
from pyramid.net.protocol import Hello, Leave, Move, Ping, Pong, Resend, Status

from match_pair import LIMITS, SIDES, Pair, Side, other

MATCH = 16
#: The matches a rematch may propose (a few, so that each game is worked out once for all the cases).
NEXT_MATCHES = st.sampled_from([MATCH, 7, 8, 23, 4_294_967_295])


def played_out(pair: Pair) -> None:
    """Both players play their whole games, every line delivered as it goes (until the match ends)."""
    states = pair.states.values()
    while not all(state.board.is_over() or state.ended is not None for state in states):
        for side in SIDES:
            pair.play(side, 5)
            pair.settle()


def test_a_new_connection_asks_for_the_peers_moves_from_the_first_not_replayed() -> None:
    state = MatchState("host", MATCH)
    assert state.connect("Bob", LIMITS, 0.0).send == (Resend(MATCH, 1),)
    state.receive(Move(MATCH, 1, str(play_match(MATCH, "casual").moves[0])), 0.0)
    assert state.connect("Bob", LIMITS, 1.0).send == (Resend(MATCH, 2),)


def test_own_moves_wait_for_the_peers_resend_then_go_from_its_number() -> None:
    state = MatchState("host", MATCH)
    state.connect("Bob", LIMITS, 0.0)
    moves = play_match(MATCH, "good").moves[:3]
    assert [state.play(move).send for move in moves] == [(), (), ()]  # no resend yet: nothing sent
    step = state.receive(Resend(MATCH, 2), 0.0)
    assert step.send == (Move(MATCH, 2, str(moves[1])), Move(MATCH, 3, str(moves[2])), Status(MATCH, 1, state.board.score, 3, False))
    assert state.play(play_match(MATCH, "good").moves[3]).send == (Move(MATCH, 4, str(play_match(MATCH, "good").moves[3])),)


def test_a_move_in_order_is_told_with_the_opponents_game_and_costs_no_rate_token() -> None:
    state = MatchState("guest", MATCH)
    state.connect("Ann", LIMITS, 0.0)
    move = str(play_match(MATCH, "casual").moves[0])
    step = state.receive(Move(MATCH, 1, move), 0.0)
    assert step.refund and len(step.events) == 1
    event = step.events[0]
    assert isinstance(event, ev.OpponentMoved) and event.game is not None and event.game.moves == (move,)
    again = state.receive(Move(MATCH, 1, move), 0.0)  # resent after a reconnect: skipped, not told
    assert again.events == () and not again.refund


def test_a_move_against_the_rules_voids_the_match_and_says_so() -> None:
    state = MatchState("guest", MATCH)
    state.connect("Ann", LIMITS, 0.0)
    step = state.receive(Move(MATCH, 1, "Kd" if "Kd" != str(play_match(MATCH, "casual").moves[0]) else "Qs"), 0.0)
    assert [type(event) for event in step.events] == [ev.MatchVoided]
    assert step.send == (Leave("void"),) and step.then == "finish" and state.phase == "ended"
    assert state.receive(Ping(3), 0.0).send == ()  # ended: nothing is acted on


def test_the_peer_leaving_closes_the_connection_and_tells_the_console() -> None:
    state = MatchState("host", MATCH)
    state.connect("Bob", LIMITS, 0.0)
    step = state.receive(Leave("left"), 0.0)
    assert step.events == (ev.OpponentLeft("left"),) and step.then == "close" and state.ended == "left"


def test_a_message_of_another_conversation_is_a_protocol_fault() -> None:
    state = MatchState("host", MATCH)
    state.connect("Bob", LIMITS, 0.0)
    with pytest.raises(PeerFault) as fault:
        state.receive(Hello(3, "Bob"), 0.0)
    assert fault.value.reason == "protocol" and "Bob sent Hello" in str(fault.value)


def test_a_silent_peer_is_pinged_then_given_up_on() -> None:
    state = MatchState("host", MATCH)
    state.connect("Bob", LIMITS, 0.0)
    assert state.wait(0.0) == LIMITS.ping_interval
    assert state.tick(10.0).send == (Ping(0),)
    assert state.receive(Pong(0), 12.0).send == ()
    assert state.tick(41.0).send == (Ping(0),)  # heard at 12 s: 29 s of silence is not yet too long
    with pytest.raises(PeerFault) as fault:
        state.tick(42.0)
    assert fault.value.reason == "timeout"


def test_a_peer_that_asked_for_the_seat_must_say_its_first_word_in_time() -> None:
    state = MatchState("host", MATCH)
    state.connect("Bob", LIMITS, 0.0, first_word_within=2.0)
    assert state.wait(0.5) == 1.5
    with pytest.raises(PeerFault, match="said nothing within 2 s"):
        state.tick(2.0)
    state.connect("Bob", LIMITS, 5.0, first_word_within=2.0)
    state.receive(Ping(1), 6.0)
    assert state.wait(6.0) == LIMITS.ping_interval and state.tick(16.0).send == (Ping(0),)


def test_a_rematch_needs_both_games_over_and_starts_afresh_on_both_sides() -> None:
    pair = Pair(MATCH)
    pair.connect()
    pair.settle()
    with pytest.raises(TableStateError):
        pair.states["host"].propose(7)
    played_out(pair)
    assert pair.states["host"].phase == pair.states["guest"].phase == "finished"
    pair.carry("host", pair.states["host"].propose(7))
    pair.settle()
    assert pair.states["host"].phase == "proposed" and pair.states["guest"].phase == "asked"
    pair.carry("guest", pair.states["guest"].accept(7))
    pair.settle()
    for side in SIDES:
        state = pair.states[side]
        assert state.match_number == 7 and state.phase == "playing" and state.board.move_stack == []
        started = [event for event in pair.events[side] if isinstance(event, ev.RematchStarted)]
        assert [event.match for event in started] == [7] and started[0].previous.finished


def test_a_link_holds_its_players_move_before_the_network_thread_takes_it() -> None:
    """The console saves right after a move: the saved table has it, though the network thread has
    not played it on its own board yet (it is scheduled there)."""
    scheduled: list[object] = []
    link = MatchLink("host", MATCH, "good")
    link.bind(None, scheduled.append)  # type: ignore[arg-type]
    move = play_match(MATCH, "good").moves[0]
    link.play(move)
    assert link.now.own_moves == () and link.to_json()["own"] == link.own_moves == [str(move)]
    assert len(scheduled) == 1


class MatchesThroughTheCore(RuleBasedStateMachine):
    """An honest host and guest; the connection dropped and made again at any line; rematches proposed
    and crossed; lines repeated. What holds after every step: each side's replay is a prefix of the
    other's own moves on the same match, nothing is void, and no side ever faults the other."""

    def __init__(self) -> None:
        super().__init__()
        self.pair = Pair(MATCH)
        self.pair.connect()

    @rule(side=st.sampled_from(SIDES), count=st.integers(1, 40))
    def plays(self, side: Side, count: int) -> None:
        self.pair.play(side, count)

    @rule(side=st.sampled_from(SIDES), count=st.integers(1, 20))
    def lines_arrive(self, side: Side, count: int) -> None:
        self.pair.deliver(side, count)

    @rule()
    def the_connection_drops(self) -> None:
        self.pair.drop()

    @rule()
    def a_new_connection(self) -> None:
        self.pair.connect()

    @rule(side=st.sampled_from(SIDES), match=NEXT_MATCHES)
    def proposes(self, side: Side, match: int) -> None:
        state = self.pair.states[side]
        if state.board.is_over() and state.ended is None and match != state.match_number:
            self.pair.carry(side, state.propose(match))

    @rule(side=st.sampled_from(SIDES))
    def accepts(self, side: Side) -> None:
        """As the console does: the proposal taken unless this side proposed a lower number (when both
        proposed at once, both start the lower one: console/net/match.py)."""
        state = self.pair.states[side]
        theirs, mine = state.their_proposal, state.my_proposal
        if theirs is not None and state.board.is_over() and (mine is None or theirs < mine):
            self.pair.carry(side, state.accept(theirs))

    @precondition(lambda self: self.pair.connected)
    @rule(side=st.sampled_from(SIDES), data=st.data())
    def a_move_comes_twice(self, side: Side, data: st.DataObject) -> None:
        """A move of ``side``'s the other has replayed, once more (a resend after a reconnect crossing the
        first copy)."""
        state, receiver = self.pair.states[side], self.pair.states[other(side)].replay
        if receiver.moves and receiver.match_number == state.match_number:
            number = data.draw(st.integers(1, receiver.moves))
            self.pair.inject(side, Move(state.match_number, number, str(state.board.move_stack[number - 1])))

    @invariant()
    def each_replay_is_the_others_own_game_so_far(self) -> None:
        for side in SIDES:
            mine, theirs = self.pair.states[side], self.pair.states[other(side)]
            if mine.match_number == theirs.match_number:
                played = [str(move) for move in theirs.board.move_stack]
                assert mine.replay.played == played[:len(mine.replay.played)]

    @invariant()
    def honest_players_never_void_or_fault(self) -> None:
        assert self.pair.faults == []
        for side in SIDES:
            assert not any(isinstance(event, (ev.MatchVoided, ev.OpponentLeft)) for event in self.pair.events[side])
            assert self.pair.states[side].ended is None

    def teardown(self) -> None:
        """Whatever happened, a connection and the games played out end the match the same on both sides."""
        pair = self.pair
        pair.connect()
        pair.settle()
        assert pair.states["host"].match_number == pair.states["guest"].match_number  # an acceptance lost is implied
        played_out(pair)
        host, guest = pair.states["host"], pair.states["guest"]
        assert host.phase in ("finished", "asked", "proposed") and guest.phase in ("finished", "asked", "proposed")
        assert host.replay.board.score == guest.board.score and guest.replay.board.score == host.board.score
        assert host.opponent_game().round_scores == tuple(guest.board.round_scores())


#: 500 sequences of 40 steps in the suite (a few seconds); PYRAMID_SLOW=1 plays 20,000.
MatchesThroughTheCore.TestCase.settings = settings(
    max_examples=20_000 if os.environ.get("PYRAMID_SLOW") == "1" else 500, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_matches_through_the_core = MatchesThroughTheCore.TestCase
