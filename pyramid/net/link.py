"""One match between this console and the opponent's, whatever connection carries it now.

A :class:`MatchLink` outlives connections: it holds this player's numbered
moves (resent from any number after a reconnect) and the opponent's replay
(:class:`~pyramid.net.opponent.OpponentReplay`). The main loop calls
:meth:`play`, :meth:`propose_rematch`, :meth:`accept_rematch`, :meth:`leave`
and :meth:`to_json`; they never wait for the network: they change the state
under a lock and schedule the sending on the network thread. :meth:`serve`
runs on the network thread for as long as one connection lasts.

Sync rule: when a connection is (re)established each side sends
``resend(match, next)``; a side sends its moves only once it has the other's
``resend``, starting at ``next``, then its status; afterwards each move as it
is played, and the status again when its game is over. Messages on one
connection arrive in order, so the receiver always sees move *n* before the
status after move *n*.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable
from typing import Any, Literal

from pyramid.engine.duel.levels import LEVELS
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.net.views import Via
from pyramid.net.channel import Channel, PeerFault
from pyramid.net.context import NetContext, log
from pyramid.net.errors import MatchVoidError, NetError, ProtocolError, quote
from pyramid.net.events import (
    MatchVoided, OpponentLeft, OpponentLeftReason, OpponentMoved, OpponentStatus, RematchProposed, RematchStarted,
)
from pyramid.net import saved
from pyramid.net.opponent import OpponentReplay
from pyramid.net.views import OpponentGame, OpponentStatusName, OpponentView, TableStateName, TableView
from pyramid.net.protocol import (
    Leave, Message, Move, Ping, Pong, Rematch, RematchAccept, Resend, Status, check_name,
)

Role = Literal["host", "guest"]
#: Where the match stands at this table (:attr:`MatchLink.phase`); docs/network.md has the outcome
#: of every message in each.
Phase = Literal["playing", "finished", "proposed", "asked", "ended"]
Schedule = Callable[[Callable[[], None]], None]


class TableStateError(NetError):
    """A call that the table's state does not allow (a rematch before the game is over, a move after leaving)."""


def new_token() -> str:
    """A seat token: 128 random bits, as the protocol writes them."""
    return secrets.token_hex(16)


class MatchLink:
    """This player's side of one match at a table, plus the opponent's replayed side."""

    def __init__(
        self, role: Role, match_number: int, level: str, *, own_moves: tuple[str, ...] = (),
        opponent: OpponentReplay | None = None, token: str | None = None, opponent_name: str | None = None,
        address: tuple[str, int] | None = None, via: Via = "lan",
    ) -> None:
        self.role = role
        self.level = level
        self.address = address  # the table's host and port, for a guest (through the server: its account, 0)
        self.via = via  # how the opponent is reached: a guest's table, a host's seated guest
        self.token = token
        self.opponent_name = opponent_name
        self._lock = threading.Lock()
        self._board = DuelBoard.for_match(match_number)
        self._board.replay(own_moves)
        self._replay = opponent or OpponentReplay(match_number)
        if self._replay.match_number != match_number:
            raise ProtocolError(f"saved opponent is on match {self._replay.match_number}, not {match_number}")
        self._my_proposal: int | None = None
        self._their_proposal: int | None = None
        self._previous_match: int | None = None
        self._schedule: Schedule | None = None
        self._context: NetContext | None = None
        self.wire: Channel | None = None
        self._synced = False
        self._sent = 0  # this player's moves sent on the current connection (after its resend batch)
        self.ended: OpponentLeftReason | None = None

    # -- read by the main loop --------------------------------------------------
    @property
    def match_number(self) -> int:
        with self._lock:
            return self._replay.match_number

    @property
    def own_moves(self) -> list[str]:
        with self._lock:
            return [str(move) for move in self._board.move_stack]

    @property
    def connected(self) -> bool:
        return self.wire is not None and not self.wire.closed

    @property
    def phase(self) -> Phase:
        """``playing`` (a game of this match still going on), ``finished`` (both over), ``proposed``
        (this side proposed a new match), ``asked`` (the opponent proposed one; it wins over
        ``proposed`` when both did), ``ended`` (left, closed, void or timed out)."""
        with self._lock:
            if self.ended is not None:
                return "ended"
            if self._their_proposal is not None:
                return "asked"
            if self._my_proposal is not None:
                return "proposed"
            return "finished" if self._board.is_over() and self._replay.finished else "playing"

    def opponent(self) -> OpponentView:
        """The opponent's replayed progress (a snapshot)."""
        with self._lock:
            replay = self._replay
            status: OpponentStatusName = (
                "left" if self.ended is not None else "finished" if replay.finished else "playing"
            )
            return OpponentView(self.opponent_name or "", self.connected, replay.round_number, replay.score, status,
                                replay.moves)

    def table(self, own_name: str, address: str, port: int) -> TableView:
        """The table as the trace shows it; ``address``/``port`` are where it listens (host side)."""
        if self.address is not None:
            address, port = self.address
        with self._lock:
            over = self._board.is_over() and self._replay.finished
        seated = self.opponent_name is not None and self.token is not None
        state: TableStateName = (
            "closed" if self.ended is not None else "waiting" if not seated else "finished" if over else "playing"
        )
        others = (self.opponent_name,) if seated and self.opponent_name is not None else ()
        players = (own_name, *others) if self.role == "host" else (*others, own_name)
        return TableView(address, port, players, state, self.via)

    def opponent_game(self) -> OpponentGame:
        """The opponent's game as replayed so far (a snapshot: the console's one view of it)."""
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> OpponentGame:
        """The opponent's game now; the caller holds the lock."""
        replay = self._replay
        board = replay.board
        return OpponentGame(replay.match_number, tuple(replay.played), board.round_number, board.score,
                            board.is_over(), tuple(board.round_scores()), sum(tally.cleared for tally in board.tallies))

    def to_json(self) -> dict[str, Any]:
        """Everything needed to come back to this table after a power cut (plain JSON)."""
        with self._lock:
            return {
                "role": self.role, "match": self._replay.match_number, "level": self.level, "token": self.token,
                "opponent_name": self.opponent_name,
                "address": None if self.address is None else list(self.address), "via": self.via,
                "own": [str(move) for move in self._board.move_stack], "opponent": self._replay.to_json(),
            }

    @classmethod
    def from_json(cls, data: object) -> "MatchLink":
        """Rebuild a saved link; :class:`ProtocolError` (quoting it) if it is not one."""
        if not isinstance(data, dict):
            raise ProtocolError(f"a saved table is an object: {quote(repr(data))}")
        try:
            role, match_number, level = data["role"], data["match"], data["level"]
            token, name, address, own = data["token"], data["opponent_name"], data["address"], data["own"]
            opponent = OpponentReplay.from_json(data["opponent"])
            via = data.get("via", "lan")  # saved before issue 30: the home network
            if via not in ("lan", "server"):
                raise ProtocolError("via")
            if role not in ("host", "guest") or level not in LEVELS:
                raise ProtocolError("role or level")
            match_number = saved.match_number(match_number)
            if token is not None and not (isinstance(token, str) and len(token) == 32):
                raise ProtocolError("token")
            if name is not None:
                check_name(name)
            where = None if address is None else saved.table_address(address, via)
            if not isinstance(own, list) or not all(isinstance(move, str) for move in own):
                raise ProtocolError("own moves")
            return cls(role, match_number, level, own_moves=tuple(own), opponent=opponent, token=token,
                       opponent_name=name, address=where, via=via)
        except (KeyError, TypeError, ValueError) as error:
            raise ProtocolError(f"not a saved table ({error}): {quote(repr(data))}") from None

    # -- called by the main loop ------------------------------------------------
    def play(self, move: DuelMove) -> None:
        """Play this player's ``move`` (IllegalMoveError if the engine refuses it) and send it."""
        with self._lock:
            if self.ended is not None:
                raise TableStateError(f"the match is over at this table ({self.ended}): move {str(move)!r} not sent")
            self._board.push(move)
            number = len(self._board.move_stack)
        self._later(lambda: self._send_own(number))

    def propose_rematch(self, match_number: int) -> None:
        """Propose match ``match_number`` to the opponent once this player's game is over.

        Nothing happens once the match has ended at this table: the network
        thread may have ended it a moment ago, and its event is on the way.
        """
        with self._lock:
            if self.ended is not None:
                return
            self._require_finished("propose a rematch")
            DuelBoard.for_match(match_number)  # ValueError for a number out of range
            self._my_proposal = match_number
        self._later(lambda: self._send(Rematch(match_number)))

    def accept_rematch(self, match_number: int) -> None:
        """Accept the opponent's proposal of ``match_number``: the new match starts on both sides.

        Decided on the network thread, which alone knows the table's state now:
        an acceptance that no longer applies (the match ended or changed since
        the console saw the proposal) is dropped there, and the event that
        explains why is on its way to the console. Never raises for that race.
        """
        with self._lock:
            if self.ended is not None:
                return
            self._require_finished("accept a rematch")
        self._later(lambda: self._accept(match_number))

    def leave(self) -> None:
        """Leave the table for good: the opponent is told, the connection closes."""
        self._later(lambda: self.end("left", Leave("left" if self.role == "guest" else "closed")))

    def _require_finished(self, what: str) -> None:
        if self.ended is not None:
            raise TableStateError(f"cannot {what}: the opponent is gone ({self.ended})")
        if not self._board.is_over():
            raise TableStateError(f"cannot {what} before this player's game is over")

    def _later(self, action: Callable[[], None]) -> None:
        if self._schedule is not None:
            self._schedule(action)

    # -- the network thread -----------------------------------------------------
    def bind(self, context: NetContext, schedule: Schedule) -> None:
        """Attach to the network thread: ``schedule`` runs a callable on it (thread-safe)."""
        self._context, self._schedule = context, schedule

    def _emit(self, event: Any) -> None:
        if self._context is not None:
            self._context.emit(event)

    async def serve(self, wire: Channel, on_first_message: Callable[[], None] | None = None,
                    first_word_within: float | None = None) -> PeerFault | None:
        """Carry the match over ``wire`` until it drops (the fault) or the match ends (None).

        ``on_first_message`` is called when the peer's first message on ``wire``
        arrives, before it is acted on (the host counts a guest as seated then).
        ``first_word_within``: the connection is dropped when that first message
        has not come within so many seconds (a console sends its resend at once;
        a silent peer that asked for the seat must not hold it for the read timeout).
        """
        if self.wire is not None:
            self.wire.close()
        self.wire, self._synced, self._sent = wire, False, 0
        limits = wire.limits
        loop = asyncio.get_running_loop()
        heard = loop.time()
        first_word_by = None if first_word_within is None else heard + first_word_within
        try:
            wire.send(Resend(self._replay.match_number, self._replay.moves + 1))
            while not self._is_over() and not wire.closed:
                wait = min(limits.ping_interval, limits.read_timeout)
                if first_word_by is not None:
                    wait = max(0.0, min(wait, first_word_by - loop.time()))
                try:
                    message = await wire.receive(wait)
                except PeerFault as fault:
                    if self._is_over():
                        break  # this side left while waiting: the peer's answer is the end of the stream
                    if first_word_by is not None and fault.reason == "timeout" and loop.time() >= first_word_by:
                        raise PeerFault("timeout", f"{wire.peer} said nothing within {first_word_within:g} s") from None
                    if fault.reason != "timeout" or loop.time() - heard >= limits.read_timeout:
                        raise
                    wire.send(Ping(0))
                    continue
                if self._is_over():
                    break  # sent before the peer read this side's leave: not acted on
                first_word_by = None
                if on_first_message is not None:
                    on_first_message()
                    on_first_message = None
                heard = loop.time()
                try:
                    self._handle(wire, message)
                except MatchVoidError as error:
                    self._void(error)
            await wire.linger(limits.farewell_linger)
        except PeerFault as fault:
            return fault
        finally:
            wire.close()
            if self.wire is wire:
                self.wire = None
        return None if self.ended is not None else PeerFault("closed", "the connection was closed")

    def _is_over(self) -> bool:
        """Whether the match ended here; asked afresh after every wait (a leave may come meanwhile)."""
        return self.ended is not None

    def _handle(self, wire: Channel, message: Message) -> None:
        """Act on one message of the seated opponent (MatchVoidError / PeerFault propagate)."""
        match message:
            case Move():
                with self._lock:
                    outcome = self._replay.apply(message)
                    replay = self._replay
                    event = OpponentMoved(message.n, message.move, replay.round_number, replay.score, replay.finished,
                                          self._snapshot())
                if outcome == "applied":
                    wire.refund()  # a new move in order is bounded by the match itself, not by the rate
                    self._emit(event)
            case Status():
                with self._lock:
                    self._replay.check(message)
                    game = self._snapshot()
                self._emit(OpponentStatus(message.round, message.score, message.moves, message.finished, game))
            case Resend(match=match_number, next=next_number):
                self._on_resend(wire, match_number, next_number)
            case Rematch(match=match_number):
                self._on_proposal(wire, match_number)
            case RematchAccept(match=match_number):
                if match_number != self._my_proposal:  # a duplicate, or a number never proposed
                    self._ignore(wire, f"accepted match {match_number}, which this side has not proposed")
                elif not self._replay.finished:  # its game unfinished: a new match would cancel this one's result
                    self._ignore(wire, f"accepted match {match_number} before its own game is over")
                else:
                    self._start(match_number)
            case Leave(reason=reason):
                # "void" is the peer's word, not this console's replay: it counts as leaving (issue 46).
                self.end("left" if reason == "void" else reason, None)
            case Ping(n=n):
                wire.send(Pong(n))
            case Pong():
                pass
            case _:
                raise PeerFault("protocol", f"{wire.peer} sent {type(message).__name__} in the middle of a match")

    def _void(self, error: MatchVoidError) -> None:
        """This console's replay found the peer's game against the rules. While this player's game is
        going on the match is void, for nobody; once it is over, it counts whatever the peer does
        next, and the peer is taken as having left (a loser cannot erase the loss: issue 46). The
        peer is told "void" either way."""
        with self._lock:
            counts = self._board.is_over()
        if counts:
            log.info("the opponent's game went against the rules after this player's was over (%s): it left", error)
            self._emit(OpponentLeft("left"))
            self.end("left", Leave("void"))
        else:
            self._emit(MatchVoided(error.reason, str(error)))
            self.end("void", Leave("void"))

    def _on_proposal(self, wire: Channel, match_number: int) -> None:
        """The opponent proposes ``match_number``: taken if its game is over and it has no proposal
        standing; a proposal stands until the match changes, so a second one is not taken (the
        console may be accepting the first at this moment)."""
        with self._lock:
            current, finished, standing = self._replay.match_number, self._replay.finished, self._their_proposal
        if match_number == current or not finished or standing is not None:
            why = ("it is the match being played" if match_number == current else
                   "its game is not over" if not finished else f"its proposal of match {standing} stands")
            self._ignore(wire, f"proposed match {match_number}: not taken, {why}")
            return
        with self._lock:
            self._their_proposal = match_number
        self._emit(RematchProposed(match_number))

    @staticmethod
    def _ignore(wire: Channel, what: str) -> None:
        """A well-formed message that does not apply now: dropped, with a line at the info level
        (a peer can send at most ``rate`` such lines a second)."""
        log.info("ignored: %s %s", wire.peer, what)

    def _on_resend(self, wire: Channel, match_number: int, next_number: int) -> None:
        current = self._replay.match_number
        if match_number == self._my_proposal and match_number != current:
            if not self._replay.finished:  # as an acceptance: only once its game is over (issue 46)
                self._ignore(wire, f"asked for match {match_number} before its own game is over")
                return
            self._start(match_number)  # the acceptance was lost with a connection: the resend implies it
            return
        if match_number == self._previous_match:
            return  # the peer has not seen our acceptance yet; our resend for the new match will follow
        if match_number != current:
            raise MatchVoidError("wrong_match", f"the opponent is on match {match_number}, this table on {current}")
        with self._lock:  # the moves and the status after them, from one moment
            board = self._board
            moves = [Move(match_number, n, str(board.move_stack[n - 1])) for n in range(next_number, len(board.move_stack) + 1)]
            status = self._status()
        self._synced, self._sent = True, status.moves
        for message in moves:
            self._send(message)
        self._send(status)

    def _send_own(self, number: int) -> None:
        """Send this player's move ``number`` (played on the main loop) unless already sent."""
        if not self._synced or number <= self._sent:
            return
        with self._lock:
            move = Move(self._board.match_number or 0, number, str(self._board.move_stack[number - 1]))
            status = self._status() if number == len(self._board.move_stack) and self._board.is_over() else None
        self._sent = number
        self._send(move)
        if status is not None:
            self._send(status)

    def _status(self) -> Status:
        """This player's status now (the caller holds the lock)."""
        board = self._board
        return Status(board.match_number or 0, board.round_number, board.score, len(board.move_stack), board.is_over())

    def _send(self, message: Message) -> None:
        wire = self.wire
        if wire is None or wire.closed:
            return
        try:
            wire.send(message)
        except PeerFault:
            wire.close()

    def _accept(self, match_number: int) -> None:
        """The console accepted ``match_number`` (on the network thread): started if it still applies."""
        if self.ended is not None or self._their_proposal != match_number:
            return  # the match ended or changed since the console saw the proposal: its event is on the way
        self._send(RematchAccept(match_number))
        self._start(match_number)

    def _start(self, match_number: int) -> None:
        """Both agreed on ``match_number``: fresh boards, numbering from 1, then a resend for it."""
        previous = self.opponent_game()
        with self._lock:
            self._previous_match = self._replay.match_number
            self._board = DuelBoard.for_match(match_number)
            self._replay = OpponentReplay(match_number)
            self._my_proposal = self._their_proposal = None
        self._synced, self._sent = False, 0
        self._emit(RematchStarted(match_number, previous))
        self._send(Resend(match_number, 1))

    def end(self, reason: OpponentLeftReason, farewell: Leave | None) -> None:
        """The match is over at this table; tell the opponent (``farewell``) and close."""
        if self.ended is not None:
            return
        self.ended = reason
        wire = self.wire
        if farewell is not None:
            self._send(farewell)
            if wire is not None:
                wire.finish()  # serve reads on until the peer closes, so the leave is not lost to a reset
        else:
            self._emit(OpponentLeft(reason))
            if wire is not None:
                wire.close()
