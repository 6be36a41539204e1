"""One match between two consoles, as rules and nothing else: no socket, no event loop, no thread.

Why apart from its I/O (as h11 keeps HTTP, or python-chess its engine
protocol): every rule of the match — the sync on a new connection, the replay
of the opponent's moves, the rematch handshake, leaving, voiding, when to ping
a silent peer and when to give up on it — is decided here, from what came in
and the time the caller says it is. A :class:`MatchState` takes one input (a
message, a tick of the clock, this player's move or choice) and returns a
:class:`Step`: the messages to send, the events for the console, and what to do
with the connection. :class:`~pyramid.net.link.MatchLink` carries the steps over
a real channel on the network thread; tests drive the state directly, thousands
of matches a second.

Sync rule: when a connection is (re)established each side sends
``resend(match, next)``; a side sends its moves only once it has the other's
``resend``, starting at ``next``, then its status; afterwards each move as it
is played, and the status again when its game is over. Messages on one
connection arrive in order, so the receiver always sees move *n* before the
status after move *n*. docs/network.md has the outcome of every message in
each :data:`Phase`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.net.context import log
from pyramid.net.errors import MatchVoidError, NetError, PeerFault, ProtocolError
from pyramid.net.events import (
    MatchVoided, NetEvent, OpponentLeft, OpponentLeftReason, OpponentMoved, OpponentStatus, RematchProposed,
    RematchStarted,
)
from pyramid.net.limits import Limits
from pyramid.net.opponent import OpponentReplay
from pyramid.net.protocol import Leave, Message, Move, Ping, Pong, Rematch, RematchAccept, Resend, Status
from pyramid.net.views import OpponentGame

Role = Literal["host", "guest"]
#: Where the match stands at this table: ``playing`` (a game of this match still going on),
#: ``finished`` (both over), ``proposed`` (this side proposed a new match), ``asked`` (the opponent
#: proposed one; it wins over ``proposed`` when both did), ``ended`` (left, closed, void or timed out).
Phase = Literal["playing", "finished", "proposed", "asked", "ended"]
#: What the carrier does with the connection after a step: nothing, say nothing more once what was
#: sent is delivered (this side left), or close it at once (the peer left).
Then = Literal["go_on", "finish", "close"]


class TableStateError(NetError):
    """A call that the table's state does not allow (a rematch before the game is over, a move after leaving)."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one input to a :class:`MatchState` asks of its carrier, in this order: ``events`` to the
    console, ``send`` to the peer, then ``then`` to the connection. ``refund``: the message taken
    advanced the match (a move in order), so it costs the peer no rate token."""

    send: tuple[Message, ...] = ()
    events: tuple[NetEvent, ...] = ()
    then: Then = "go_on"
    refund: bool = False


NOTHING = Step()


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """The match as the network thread left it after its latest step: what the console reads, without a lock
    (the link replaces it whole; one attribute read is atomic)."""

    match: int
    own_moves: tuple[str, ...]
    own_over: bool
    opponent: OpponentGame
    phase: Phase
    ended: OpponentLeftReason | None


class Silence:
    """When to ping a quiet peer, and when to give up on it, on one connection (times in the carrier's
    clock, seconds). A console sends its resend at once: a peer that asked for the seat and says nothing
    within ``first_word_within`` is dropped before the read timeout."""

    def __init__(self, limits: Limits, now: float, first_word_within: float | None) -> None:
        self.limits = limits
        self.heard = now
        self.first_word_within = first_word_within
        self.first_word_by = None if first_word_within is None else now + first_word_within

    def wait(self, now: float) -> float:
        """How long the carrier may wait for the next message before it ticks."""
        wait = min(self.limits.ping_interval, self.limits.read_timeout)
        if self.first_word_by is not None:
            wait = max(0.0, min(wait, self.first_word_by - now))
        return wait

    def hear(self, now: float) -> None:
        """A message came at ``now``."""
        self.first_word_by, self.heard = None, now

    def tick(self, peer: str, now: float) -> Ping:
        """Nothing came for a while: the ping to send, or :class:`PeerFault` ("timeout") when it is too late."""
        if self.first_word_by is not None and now >= self.first_word_by:
            raise PeerFault("timeout", f"{peer} said nothing within {self.first_word_within:g} s")
        if now - self.heard >= self.limits.read_timeout:
            raise PeerFault("timeout", f"{peer} said nothing for {self.limits.read_timeout:g} s")
        return Ping(0)


class MatchState:
    """This player's side of one match at a table, plus the opponent's replayed side.

    It outlives connections: it holds this player's numbered moves (resent from
    any number after a reconnect) and the opponent's replay
    (:class:`~pyramid.net.opponent.OpponentReplay`). One caller at a time (the
    network thread); :meth:`snapshot` is what others read.
    """

    def __init__(self, role: Role, match_number: int, own_moves: tuple[str, ...] = (),
                 opponent: OpponentReplay | None = None) -> None:
        self.role = role
        self.board = DuelBoard.for_match(match_number)
        self.board.replay(own_moves)
        self._played = [str(move) for move in self.board.move_stack]  # the same moves, in notation
        self._opponent: OpponentGame | None = None  # the opponent's game as last worked out
        self.replay = opponent or OpponentReplay(match_number)
        if self.replay.match_number != match_number:
            raise ProtocolError(f"saved opponent is on match {self.replay.match_number}, not {match_number}")
        self.my_proposal: int | None = None
        self.their_proposal: int | None = None
        self._previous_match: int | None = None
        self.ended: OpponentLeftReason | None = None
        self.peer = ""  # who is on the current connection, for the log
        self._silence: Silence | None = None
        self._synced = False  # the peer's resend has come on this connection
        self._sent = 0  # this player's moves sent on the current connection (after its resend batch)

    # -- what it is now ---------------------------------------------------------------------
    @property
    def match_number(self) -> int:
        return self.replay.match_number

    @property
    def phase(self) -> Phase:
        return self._phase(self.board.is_over(), self.replay.finished)

    def _phase(self, own_over: bool, their_over: bool) -> Phase:
        if self.ended is not None:
            return "ended"
        if self.their_proposal is not None:
            return "asked"
        if self.my_proposal is not None:
            return "proposed"
        return "finished" if own_over and their_over else "playing"

    def opponent_game(self) -> OpponentGame:
        """The opponent's game as replayed so far (a value: the console's one view of it), worked out
        again only when a move came since."""
        replay, game = self.replay, self._opponent
        if game is None or game.match != replay.match_number or len(game.moves) != replay.moves:
            board = replay.board
            game = self._opponent = OpponentGame(
                replay.match_number, tuple(replay.played), board.round_number, board.score, board.is_over(),
                tuple(board.round_scores()), sum(tally.cleared for tally in board.tallies))
        return game

    def snapshot(self) -> MatchSnapshot:
        """The match now, for the console (taken after every step: a few microseconds)."""
        own_over, opponent = self.board.is_over(), self.opponent_game()
        return MatchSnapshot(self.match_number, tuple(self._played), own_over, opponent,
                             self._phase(own_over, opponent.finished), self.ended)

    # -- a connection -------------------------------------------------------------------------
    def connect(self, peer: str, limits: Limits, now: float, first_word_within: float | None = None) -> Step:
        """A new connection to ``peer``: nothing of this side's is sent until the peer's resend says from where."""
        self.peer, self._synced, self._sent = peer, False, 0
        self._silence = Silence(limits, now, first_word_within)
        return Step(send=(Resend(self.match_number, self.replay.moves + 1),))

    def wait(self, now: float) -> float:
        """Seconds the carrier may wait for a message before calling :meth:`tick`."""
        return self._connection().wait(now)

    def tick(self, now: float) -> Step:
        """Nothing came within :meth:`wait`: a ping, or :class:`PeerFault` when the peer is given up on."""
        return Step(send=(self._connection().tick(self.peer, now),))

    def _connection(self) -> Silence:
        if self._silence is None:
            raise TableStateError("no connection: connect first")
        return self._silence

    def receive(self, message: Message, now: float) -> Step:
        """Act on one message of the seated opponent. A message that breaks the protocol raises
        :class:`PeerFault`; one that breaks the rules of the game voids the match (or, once this
        player's game is over, counts as the peer leaving). After the match ended here nothing is
        acted on (the peer sent it before it read this side's leave)."""
        if self.ended is not None:
            return NOTHING
        self._connection().hear(now)
        try:
            return self._take(message)
        except MatchVoidError as error:
            return self._void(error)

    def _take(self, message: Message) -> Step:
        match message:
            case Move():
                if self.replay.apply(message) == "duplicate":
                    return NOTHING
                replay = self.replay
                return Step(events=(OpponentMoved(message.n, message.move, replay.round_number, replay.score,
                                                  replay.finished, self.opponent_game()),), refund=True)
            case Status():
                self.replay.check(message)
                return Step(events=(OpponentStatus(message.round, message.score, message.moves, message.finished,
                                                   self.opponent_game()),))
            case Resend(match=match_number, next=next_number):
                return self._on_resend(match_number, next_number)
            case Rematch(match=match_number):
                return self._on_proposal(match_number)
            case RematchAccept(match=match_number):
                if match_number != self.my_proposal:  # a duplicate, or a number never proposed
                    return self._ignore(f"accepted match {match_number}, which this side has not proposed")
                if not self.replay.finished:  # its game unfinished: a new match would cancel this one's result
                    return self._ignore(f"accepted match {match_number} before its own game is over")
                return self._start(match_number)
            case Leave(reason=reason):
                # "void" is the peer's word, not this console's replay: it counts as leaving (issue 46).
                return self.end("left" if reason == "void" else reason, None)
            case Ping(n=n):
                return Step(send=(Pong(n),))
            case Pong():
                return NOTHING
            case _:
                raise PeerFault("protocol", f"{self.peer} sent {type(message).__name__} in the middle of a match")

    def _void(self, error: MatchVoidError) -> Step:
        """This console's replay found the peer's game against the rules. While this player's game is
        going on the match is void, for nobody; once it is over, it counts whatever the peer does
        next, and the peer is taken as having left (a loser cannot erase the loss: issue 46). The
        peer is told "void" either way."""
        if self.board.is_over():
            log.info("the opponent's game went against the rules after this player's was over (%s): it left", error)
            return _after(OpponentLeft("left"), self.end("left", Leave("void")))
        return _after(MatchVoided(error.reason, str(error)), self.end("void", Leave("void")))

    def _on_proposal(self, match_number: int) -> Step:
        """The opponent proposes ``match_number``: taken if its game is over and it has no proposal
        standing; a proposal stands until the match changes, so a second one is not taken (the
        console may be accepting the first at this moment)."""
        current, finished, standing = self.match_number, self.replay.finished, self.their_proposal
        if match_number == current or not finished or standing is not None:
            why = ("it is the match being played" if match_number == current else
                   "its game is not over" if not finished else f"its proposal of match {standing} stands")
            return self._ignore(f"proposed match {match_number}: not taken, {why}")
        self.their_proposal = match_number
        return Step(events=(RematchProposed(match_number),))

    def _ignore(self, what: str) -> Step:
        """A well-formed message that does not apply now: dropped, with a line at the info level
        (a peer can send at most ``rate`` such lines a second)."""
        log.info("ignored: %s %s", self.peer, what)
        return NOTHING

    def _on_resend(self, match_number: int, next_number: int) -> Step:
        current = self.match_number
        if match_number == self.my_proposal and match_number != current:
            if not self.replay.finished:  # as an acceptance: only once its game is over (issue 46)
                return self._ignore(f"asked for match {match_number} before its own game is over")
            return self._start(match_number)  # the acceptance was lost with a connection: the resend implies it
        if match_number == self._previous_match:
            return NOTHING  # the peer has not seen our acceptance yet; our resend for the new match will follow
        if match_number != current:
            raise MatchVoidError("wrong_match", f"the opponent is on match {match_number}, this table on {current}")
        played = self._played
        moves = tuple(Move(match_number, n, played[n - 1]) for n in range(next_number, len(played) + 1))
        status = self._status()
        self._synced, self._sent = True, status.moves
        return Step(send=(*moves, status))

    def _status(self) -> Status:
        board = self.board
        return Status(board.match_number or 0, board.round_number, board.score, len(board.move_stack), board.is_over())

    def _start(self, match_number: int) -> Step:
        """Both agreed on ``match_number``: fresh boards, numbering from 1, then a resend for it."""
        previous = self.opponent_game()
        self._previous_match = self.match_number
        self.board = DuelBoard.for_match(match_number)
        self._played = []
        self.replay = OpponentReplay(match_number)
        self.my_proposal = self.their_proposal = None
        self._synced, self._sent = False, 0
        return Step(send=(Resend(match_number, 1),), events=(RematchStarted(match_number, previous),))

    # -- this player -----------------------------------------------------------------------------
    def play(self, move: DuelMove) -> Step:
        """Play this player's ``move`` (the engine's error if it refuses it); sent once the peer is in sync."""
        if self.ended is not None:
            raise TableStateError(f"the match is over at this table ({self.ended}): move {str(move)!r} not sent")
        self.board.push(move)
        self._played.append(str(move))
        number = len(self.board.move_stack)
        if not self._synced or number <= self._sent:
            return NOTHING
        self._sent = number
        sent = Move(self.board.match_number or 0, number, str(move))
        return Step(send=(sent, self._status()) if self.board.is_over() else (sent,))

    def propose(self, match_number: int) -> Step:
        """Propose match ``match_number`` to the opponent once this player's game is over; nothing once
        the match has ended here (its event is on the way to the console)."""
        if self.ended is not None:
            return NOTHING
        self._require_finished("propose a rematch")
        DuelBoard.for_match(match_number)  # ValueError for a number out of range
        self.my_proposal = match_number
        return Step(send=(Rematch(match_number),))

    def accept(self, match_number: int) -> Step:
        """Accept the opponent's proposal of ``match_number``: the new match starts on both sides. An
        acceptance that no longer applies (the match ended or changed since the console saw the
        proposal) is dropped: the event that explains why is on its way to the console."""
        if self.ended is not None or self.their_proposal != match_number:
            return NOTHING
        self._require_finished("accept a rematch")
        step = self._start(match_number)
        return Step(send=(RematchAccept(match_number), *step.send), events=step.events)

    def _require_finished(self, what: str) -> None:
        if not self.board.is_over():
            raise TableStateError(f"cannot {what} before this player's game is over")

    def leave(self) -> Step:
        """Leave the table for good: the opponent is told, and the connection finishes."""
        return self.end("left", Leave("left" if self.role == "guest" else "closed"))

    def end(self, reason: OpponentLeftReason, farewell: Leave | None) -> Step:
        """The match is over at this table: this side tells the opponent (``farewell``), or the opponent
        went (no farewell: the console is told, the connection closed)."""
        if self.ended is not None:
            return NOTHING
        self.ended = reason
        if farewell is not None:
            return Step(send=(farewell,), then="finish")
        return Step(events=(OpponentLeft(reason),), then="close")

    def give_up(self, reason: OpponentLeftReason) -> None:
        """The carrier gave up on the match (the seat held too long, the table gone): ended, nothing said."""
        if self.ended is None:
            self.ended = reason


def _after(event: NetEvent, step: Step) -> Step:
    """``step`` with ``event`` told before its own."""
    return Step(step.send, (event, *step.events), step.then, step.refund)
