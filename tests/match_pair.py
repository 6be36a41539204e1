"""Two match cores joined by a connection made of two queues: a whole match with no socket, no loop, no thread.

What :class:`~pyramid.net.link.MatchLink` does with a channel, done by hand
between two :class:`~pyramid.net.match_state.MatchState`: every message goes
through the wire's encoding and back (``encode``/``decode``), a step's events are
kept per side, ``finish`` closes the connection once what was sent is delivered,
``close`` and a fault close it at once (what was in flight is lost, as with a
reset). A clock the test turns gives the times. Used by tests/test_match_core.py
and benchmarks/bench_match_core.py.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from pyramid.engine.duel.ai import play_match
from pyramid.engine.duel.board import DuelMove
from pyramid.net.errors import PeerFault
from pyramid.net.events import NetEvent
from pyramid.net.limits import Limits
from pyramid.net.match_state import MatchState, Step
from pyramid.net.protocol import Message, decode, encode

Side = Literal["host", "guest"]
SIDES: tuple[Side, Side] = ("host", "guest")
LIMITS = Limits(read_timeout=30.0, ping_interval=10.0, hello_deadline=5.0)


@cache
def game_line(match: int, level: str) -> tuple[DuelMove, ...]:
    """The computer's whole game of ``match`` at ``level``: what a side plays, worked out once."""
    return tuple(play_match(match, level).moves)


def other(side: Side) -> Side:
    return "guest" if side == "host" else "host"


@dataclass
class Pair:
    """A host's and a guest's match state on ``match``, and the connection between them (if any)."""

    match: int
    states: dict[Side, MatchState] = field(init=False)
    #: Messages on their way to each side, as encoded lines.
    inbound: dict[Side, deque[bytes]] = field(init=False)
    events: dict[Side, list[NetEvent]] = field(init=False)
    faults: list[PeerFault] = field(default_factory=list)
    connected: bool = False
    #: A side that said its last word: the connection closes once its lines are delivered.
    finishing: set[Side] = field(default_factory=set)
    now: float = 0.0

    def __post_init__(self) -> None:
        self.states = {side: MatchState(side, self.match) for side in SIDES}
        self.inbound = {side: deque() for side in SIDES}
        self.events = {side: [] for side in SIDES}

    # -- the connection ------------------------------------------------------------
    def connect(self) -> None:
        """A new connection (the previous one gone): each side starts with its resend."""
        self.drop()
        self.connected = True
        for side in SIDES:
            self.carry(side, self.states[side].connect(other(side), LIMITS, self.now))

    def drop(self) -> None:
        """The connection goes, with whatever was in flight."""
        self.connected = False
        self.finishing.clear()
        for side in SIDES:
            self.inbound[side].clear()

    def carry(self, side: Side, step: Step) -> None:
        """What ``side``'s state asked for: its events kept, its messages on their way, then the connection."""
        self.events[side].extend(step.events)
        if not self.connected:
            return
        self.inbound[other(side)].extend(encode(message) for message in step.send)
        if step.then == "finish":
            self.finishing.add(side)
        elif step.then == "close":
            self.drop()

    def deliver(self, side: Side, count: int = 1) -> int:
        """Up to ``count`` lines taken by ``side``, in order; how many were."""
        taken = 0
        while taken < count and self.connected and self.inbound[side]:
            message = decode(self.inbound[side].popleft())
            taken += 1
            try:
                self.carry(side, self.states[side].receive(message, self.now))
            except PeerFault as fault:
                self.faults.append(fault)
                self.drop()
            if other(side) in self.finishing and not self.inbound[side]:
                self.drop()  # the leaver's last line is read: it closes
        return taken

    def settle(self) -> None:
        """Everything in flight delivered, both ways, until nothing moves."""
        while self.deliver("host", 1 << 30) + self.deliver("guest", 1 << 30):
            pass

    def inject(self, side: Side, message: Message) -> None:
        """A line ``side`` did not decide (a cheat's, a duplicate): on its way to the other side."""
        if self.connected:
            self.inbound[other(side)].append(encode(message))

    # -- the players -----------------------------------------------------------------
    def play(self, side: Side, count: int) -> None:
        """``side``'s player makes up to ``count`` moves of its own game (the host plays as the "good"
        computer, the guest as the "casual" one)."""
        state = self.states[side]
        line = game_line(state.match_number, "good" if side == "host" else "casual")
        for _ in range(count):
            if state.ended is not None or state.board.is_over():
                return
            self.carry(side, state.play(line[len(state.board.move_stack)]))
