"""A stateful test of the match at a real host: random well-formed messages, in any order, never
end the console, never change its own game, and the match ends played or void (issue 26).

The host is the console's own session and tables over a real ``Network`` on
127.0.0.1, its events taken in the test's thread as the main loop takes them. The
peer is a raw socket that sits at the table like a console, then sends what the
rules below choose: its honest game (the engine's casual player), or moves, statuses,
resends, proposals, acceptances, leaves and pings with numbers drawn at random, and
duplicates of what it sent. Between steps the host player plays its own game and
may ask for a new round. After every step a ping is answered (so every message before
it has been acted on) and the events are taken; then the invariants are checked.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pyramid.console.menus import open_console
from pyramid.console.net.lobby import start_table
from pyramid.console.net.match import NetDuelScreen
from pyramid.console.net.tables import Tables
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.duel.ai import opponent_for
from pyramid.engine.duel.board import DuelBoard
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.network import Network
from pyramid.saved.store import Store

MATCH = 16
GUARD = 20.0
LIMITS = Limits(hello_deadline=5.0, read_timeout=30.0, ping_interval=10.0, farewell_linger=0.2, rate=1000.0,
                burst=1000.0)
MATCHES = st.sampled_from([MATCH, MATCH + 1, 7, 1, 4_294_967_296])
MOVES = st.sampled_from(["turn", "joker", "Ah", "2c", "Kd", "Ts", "7h", "Qs"])
NUMBERS = st.integers(1, 60)


def pick(data: st.DataObject, items: list[Any]) -> Any:
    """One of ``items``, a list whose length depends on what the host did (its random match numbers,
    the computer's play): drawn as an index of fixed bounds, so that hypothesis, replaying a case,
    draws the same kind of value (``sampled_from`` of a list of another length is "flaky data")."""
    return items[data.draw(st.integers(0, 1 << 16)) % len(items)]


def line(data: dict[str, object]) -> bytes:
    return json.dumps(data).encode() + b"\n"


class MatchAtARealHost(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory(prefix="pyramid-states-")
        self.events: queue.Queue[object] = queue.Queue()
        self.networks: list[Network] = []

        def open_network(name: str) -> Network:
            self.networks.append(Network(name, self.events.put, LIMITS, discovery="off"))
            return self.networks[-1]

        store = Store.open(Path(self.folder.name) / "pyramid.db")
        self.session = Session(None, DealChoice(number=MATCH), store=store,
                               tables=Tables(open_network, 0, "127.0.0.1", "Ann"))

        def never(doing: str) -> None:
            raise AssertionError(f"a screen failed while {doing}")  # the console would have been taken to the menu

        self.session.recover = never  # type: ignore[method-assign]
        open_console(self.session)
        start_table(self.session, None)
        listening = self.take_until(ev.Listening)
        self.sock = socket.create_connection(("127.0.0.1", listening.port), timeout=GUARD)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # a ping a step: no waiting for ACKs
        self.buffer, self.closed, self.pings = b"", False, 0
        self.sent: list[bytes] = []
        self.send(line({"t": "hello", "v": 3, "name": "Mallory"}) + line({"t": "join", "token": "", "level": "good"}))
        self.read_until(lambda message: message["t"] == "accept")
        self.peer_match = MATCH
        self.peer_board = DuelBoard.for_match(MATCH)
        self.host_proposal: int | None = None
        self.send(line({"t": "resend", "match": MATCH, "next": 1}))
        self.host_moves: dict[int, list[str]] = {MATCH: []}
        self.sync()

    # -- the wire and the main loop ---------------------------------------------------
    def send(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.sock.sendall(data)
        except OSError:
            self.closed = True

    def read_until(self, done: Any) -> None:
        """Read the host's messages (noting its resends and proposals) until ``done(message)`` or the end."""
        while not self.closed:
            while b"\n" not in self.buffer:
                try:
                    data = self.sock.recv(65536)
                except (ConnectionResetError, socket.timeout):
                    data = b""
                if not data:
                    self.closed = True
                    return
                self.buffer += data
            first, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(first)
            if message["t"] == "resend" and message["match"] != self.peer_match:
                self.peer_match, self.peer_board = message["match"], DuelBoard.for_match(message["match"])
            elif message["t"] == "rematch":
                self.host_proposal = message["match"]
            if done(message):
                return

    def take_until(self, kind: type[Any]) -> Any:
        while True:
            event = self.events.get(timeout=GUARD)
            self.session.post_event(event)
            if isinstance(event, kind):
                return event

    def sync(self) -> None:
        """Everything sent so far acted on by the host (its pong), and every event taken by the session."""
        self.pings += 1
        number = self.pings
        self.send(line({"t": "ping", "n": number}))
        self.read_until(lambda message: message == {"t": "pong", "n": number})
        while True:
            try:
                self.session.post_event(self.events.get_nowait())
            except queue.Empty:
                return

    def say(self, data: dict[str, object]) -> None:
        self.sent.append(line(data))
        self.send(self.sent[-1])
        self.sync()

    @property
    def run(self) -> Any:
        return self.session.tables.run

    # -- the peer --------------------------------------------------------------------------
    @rule(count=st.integers(1, 60))
    def peer_plays_honestly(self, count: int) -> None:
        player = opponent_for("casual")
        for _ in range(count):
            board = self.peer_board
            if board.is_over():
                break
            move = player.choose(board)
            board.push(move)
            self.say({"t": "move", "match": self.peer_match, "n": len(board.move_stack), "move": str(move)})
        if self.peer_board.is_over():
            board = self.peer_board
            self.say({"t": "status", "match": self.peer_match, "round": board.round_number, "score": board.score,
                      "moves": len(board.move_stack), "finished": True})

    @rule(data=st.data())
    def peer_misbehaves(self, data: st.DataObject) -> None:
        """A well-formed message with numbers drawn at random (one rule, so honest play comes more often)."""
        kind = data.draw(st.sampled_from(["move", "status", "resend", "rematch", "leave"]))
        if kind == "move":
            self.say({"t": "move", "match": data.draw(MATCHES), "n": data.draw(NUMBERS), "move": data.draw(MOVES)})
        elif kind == "status":
            self.say({"t": "status", "match": data.draw(MATCHES), "round": data.draw(st.integers(1, 5)),
                      "score": data.draw(st.integers(-100, 500)), "moves": data.draw(NUMBERS),
                      "finished": data.draw(st.booleans())})
        elif kind == "resend":
            self.say({"t": "resend", "match": data.draw(MATCHES), "next": data.draw(NUMBERS)})
        elif kind == "rematch":
            self.say({"t": "rematch", "match": data.draw(MATCHES | st.integers(1, 2**32))})
        else:
            self.say({"t": "leave", "reason": data.draw(st.sampled_from(["left", "closed", "void"]))})

    @rule(match=st.integers(1, 2**32))
    def peer_proposes(self, match: int) -> None:
        self.say({"t": "rematch", "match": match})

    @rule(data=st.data())
    def peer_accepts(self, data: st.DataObject) -> None:
        choices = [MATCH, 7] + ([self.host_proposal] if self.host_proposal is not None else [])
        self.say({"t": "rematch_ok", "match": pick(data, choices)})

    @precondition(lambda self: bool(self.sent))
    @rule(data=st.data())
    def peer_repeats_itself(self, data: st.DataObject) -> None:
        self.send(pick(data, self.sent))
        self.sync()

    # -- the host player ----------------------------------------------------------------------
    def host_screen(self) -> NetDuelScreen | None:
        return next((screen for screen in reversed(self.session.stack)
                     if isinstance(screen, NetDuelScreen) and screen.run is self.run), None)

    @rule(count=st.integers(1, 60))
    def host_plays(self, count: int) -> None:
        screen, player = self.host_screen(), opponent_for("good")
        if screen is None:
            return
        for _ in range(count):
            board = screen.board
            if board.is_over():
                break
            move, round_before = player.choose(board), board.round_number
            board.push(move)
            screen.moved(move, round_before)
            self.host_moves.setdefault(board.match_number or 0, []).append(str(move))
        self.sync()

    @rule()
    def host_asks_for_a_new_round(self) -> None:
        if self.run is not None and self.run.can_rematch:
            self.run.rematch()
            self.sync()

    # -- what must hold ---------------------------------------------------------------------
    @invariant()
    def the_network_runs(self) -> None:
        assert all(network._thread.is_alive() for network in self.networks)  # type: ignore[attr-defined]

    @invariant()
    def the_hosts_own_game_is_its_own(self) -> None:
        run = self.run
        if run is None:
            return
        played = self.host_moves.get(run.match_number, [])
        assert [str(move) for move in run.board.move_stack] == played
        if run.link.match_number == run.match_number:  # the moves sent: all of them while the match goes on
            sent = run.link.own_moves
            assert sent == played if run.link.ended is None else sent == played[:len(sent)]

    def teardown(self) -> None:
        try:
            run = self.run
            if run is not None and not (run.voided or run.gone or run.recorded):
                self.peer_plays_honestly(1000)
                self.host_plays(1000)
                run = self.run
            assert run is not None
            assert run.recorded or run.voided or run.gone, "the match ends played (or left) or void"
        finally:
            self.close()

    def close(self) -> None:
        """The peer's socket, the host's network, its data and folder."""
        self.sock.close()
        self.session.tables.stop()
        self.session.store.close()
        self.folder.cleanup()


#: 100 matches of 30 steps in the suite (about 15 s); PYRAMID_SLOW=1 plays 2,000.
MatchAtARealHost.TestCase.settings = settings(
    max_examples=2000 if os.environ.get("PYRAMID_SLOW") == "1" else 100, stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_match_at_a_real_host = MatchAtARealHost.TestCase
