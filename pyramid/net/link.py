"""One match between this console and the opponent's, carried over whatever connection there is now.

The rules of the match are :class:`~pyramid.net.match_state.MatchState`'s; a
:class:`MatchLink` carries them: on the network thread :meth:`serve` feeds the
state what one connection brings (and the clock's ticks) for as long as it
lasts, and does what each :class:`~pyramid.net.match_state.Step` says. The link
outlives connections, as the state does.

The main loop calls :meth:`play`, :meth:`propose_rematch`,
:meth:`accept_rematch` and :meth:`leave`, which only schedule the state's
input on the network thread, and reads :attr:`now`, the
:class:`~pyramid.net.match_state.MatchSnapshot` the network thread replaces
after every step (before it posts the step's events): the main thread takes no
lock and never waits for the network. Its own moves are the one thing it knows
first: :attr:`own_moves` and :meth:`to_json` count the moves it played that the
network thread has not taken yet, so a game saved right after a move holds it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pyramid.engine.duel.levels import LEVELS
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.errors import EngineError
from pyramid.net.views import Via
from pyramid.net.channel import Channel
from pyramid.net.context import NetContext, log
from pyramid.net.errors import PeerFault, ProtocolError, quote
from pyramid.net.events import OpponentLeftReason
from pyramid.net import saved
from pyramid.net.match_state import MatchSnapshot, MatchState, Phase, Role, Step, TableStateError
from pyramid.net.opponent import OpponentReplay
from pyramid.net.views import OpponentGame, OpponentStatusName, OpponentView, TableStateName, TableView
from pyramid.net.protocol import Leave, check_name

Schedule = Callable[[Callable[[], None]], None]




def new_token() -> str:
    """A seat token: 128 random bits, as the protocol writes them."""
    return secrets.token_hex(16)


@dataclass(frozen=True, slots=True)
class OwnMoves:
    """The moves this player played in one match, as the main loop knows them (ahead of the snapshot's
    by the moves the network thread has not taken yet)."""

    match: int
    moves: tuple[str, ...]


class MatchLink:
    """This player's side of one match at a table, plus the opponent's replayed side, and who sits where."""

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
        #: The match's rules and state: the network thread's alone once the link is bound.
        self.state = MatchState(role, match_number, own_moves, opponent)
        #: The match as of the network thread's latest step (replaced whole: read without a lock).
        self.now: MatchSnapshot = self.state.snapshot()
        self._own = OwnMoves(match_number, self.now.own_moves)  # written by the main loop only
        self._schedule: Schedule | None = None
        self._context: NetContext | None = None
        self.wire: Channel | None = None

    # -- read by the main loop --------------------------------------------------
    @property
    def match_number(self) -> int:
        return self.now.match

    @property
    def ended(self) -> OpponentLeftReason | None:
        return self.now.ended

    @property
    def own_moves(self) -> list[str]:
        """This player's moves in the current match, those not yet taken by the network thread included."""
        now, own = self.now, self._own
        return list(own.moves if own.match == now.match else now.own_moves)

    @property
    def connected(self) -> bool:
        wire = self.wire
        return wire is not None and not wire.closed

    @property
    def phase(self) -> Phase:
        """Where the match stands (:data:`~pyramid.net.match_state.Phase`)."""
        return self.now.phase

    def opponent(self) -> OpponentView:
        """The opponent's replayed progress (the trace's ``opponent`` object)."""
        now = self.now
        game = now.opponent
        status: OpponentStatusName = "left" if now.ended is not None else "finished" if game.finished else "playing"
        return OpponentView(self.opponent_name or "", self.connected, game.round, game.score, status, len(game.moves))

    def table(self, own_name: str, address: str, port: int) -> TableView:
        """The table as the trace shows it; ``address``/``port`` are where it listens (host side)."""
        if self.address is not None:
            address, port = self.address
        now = self.now
        seated = self.opponent_name is not None and self.token is not None
        over = now.own_over and now.opponent.finished
        state: TableStateName = (
            "closed" if now.ended is not None else "waiting" if not seated else "finished" if over else "playing"
        )
        others = (self.opponent_name,) if seated and self.opponent_name is not None else ()
        players = (own_name, *others) if self.role == "host" else (*others, own_name)
        return TableView(address, port, players, state, self.via)

    def opponent_game(self) -> OpponentGame:
        """The opponent's game as replayed so far (a value: the console's one view of it)."""
        return self.now.opponent

    def to_json(self) -> dict[str, Any]:
        """Everything needed to come back to this table after a power cut (plain JSON)."""
        now = self.now
        return {
            "role": self.role, "match": now.match, "level": self.level, "token": self.token,
            "opponent_name": self.opponent_name,
            "address": None if self.address is None else list(self.address), "via": self.via,
            "own": self.own_moves, "opponent": {"match": now.opponent.match, "moves": list(now.opponent.moves)},
        }

    @classmethod
    def from_json(cls, data: object) -> MatchLink:
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
        """Send this player's ``move``, already on the console's board (:class:`TableStateError` once the
        match has ended here)."""
        now = self.now
        if now.ended is not None:
            raise TableStateError(f"the match is over at this table ({now.ended}): move {str(move)!r} not sent")
        own = self._own if self._own.match == now.match else OwnMoves(now.match, now.own_moves)
        self._own = OwnMoves(own.match, (*own.moves, str(move)))
        self._on_network(lambda: self.state.play(move))

    def propose_rematch(self, match_number: int) -> None:
        """Propose match ``match_number`` to the opponent once this player's game is over (nothing once the
        match has ended here: the network thread may have ended it a moment ago, and its event is on the way)."""
        DuelBoard.for_match(match_number)  # ValueError for a number out of range, told to the caller
        self._on_network(lambda: self.state.propose(match_number))

    def accept_rematch(self, match_number: int) -> None:
        """Accept the opponent's proposal of ``match_number``: the new match starts on both sides.

        Decided on the network thread, which alone knows the table's state now:
        an acceptance that no longer applies (the match ended or changed since
        the console saw the proposal) is dropped there, and the event that
        explains why is on its way to the console. Never raises for that race.
        """
        self._on_network(lambda: self.state.accept(match_number))

    def leave(self) -> None:
        """Leave the table for good: the opponent is told, the connection closes."""
        self._on_network(self.state.leave)

    def _on_network(self, act: Callable[[], Step]) -> None:
        """Give the state this player's input on the network thread (at once when no thread carries the link)."""
        if self._schedule is None:
            self._take(act)
        else:
            self._schedule(lambda: self._take(act))

    def _take(self, act: Callable[[], Step]) -> None:
        """Do what the state says of this player's input; a refusal is the caller's mistake, logged."""
        try:
            step = act()
        except (TableStateError, EngineError, ValueError) as error:
            log.warning("not done: %s", error)
            return
        self._carry(step, strict=False)

    # -- the network thread -----------------------------------------------------
    def bind(self, context: NetContext, schedule: Schedule) -> None:
        """Attach to the network thread: ``schedule`` runs a callable on it (thread-safe)."""
        self._context, self._schedule = context, schedule

    def give_up(self, reason: OpponentLeftReason) -> None:
        """The match is over here without a word (the seat was held too long, the join given up)."""
        self.state.give_up(reason)
        self.now = self.state.snapshot()

    def end(self, reason: OpponentLeftReason, farewell: Leave | None) -> None:
        """The match is over at this table; tell the opponent (``farewell``) and close."""
        self._carry(self.state.end(reason, farewell), strict=False)

    def _carry(self, step: Step, strict: bool) -> None:
        """Publish the state, post ``step``'s events, send its messages, then do its ``then``. A message the
        channel refuses raises (``strict``: the serving loop's fault) or closes the channel."""
        self.now = self.state.snapshot()
        if self._context is not None:
            for event in step.events:
                self._context.emit(event)
        wire = self.wire
        if wire is None or wire.closed:
            return
        try:
            for message in step.send:
                wire.send(message)
        except PeerFault:
            if strict:
                raise
            wire.close()
            return
        if step.refund:
            wire.refund()  # a new move in order is bounded by the match itself, not by the rate
        if step.then == "finish":
            wire.finish()  # serve reads on until the peer closes, so the leave is not lost to a reset
        elif step.then == "close":
            wire.close()

    async def serve(self, wire: Channel, on_first_message: Callable[[], None] | None = None,
                    first_word_within: float | None = None) -> PeerFault | None:
        """Carry the match over ``wire`` until it drops (the fault) or the match ends (None).

        ``on_first_message`` is called when the peer's first message on ``wire``
        arrives, before it is acted on (the host counts a guest as seated then).
        ``first_word_within``: the connection is dropped when that first message
        has not come within so many seconds.
        """
        if self.wire is not None:
            self.wire.close()
        self.wire = wire
        state, clock = self.state, asyncio.get_running_loop().time
        try:
            self._carry(state.connect(wire.peer, wire.limits, clock(), first_word_within), strict=True)
            while not self._over() and not wire.closed:
                try:
                    message = await wire.receive(state.wait(clock()))
                except PeerFault as fault:
                    if self._over():
                        break  # this side left while waiting: the peer's answer is the end of the stream
                    if fault.reason != "timeout":
                        raise
                    self._carry(state.tick(clock()), strict=True)
                    continue
                if self._over():
                    break  # sent before the peer read this side's leave: not acted on
                if on_first_message is not None:
                    on_first_message()
                    on_first_message = None
                self._carry(state.receive(message, clock()), strict=True)
            await wire.linger(wire.limits.farewell_linger)
        except PeerFault as fault:
            return fault
        finally:
            wire.close()
            if self.wire is wire:
                self.wire = None
        return None if self._over() else PeerFault("closed", "the connection was closed")

    def _over(self) -> bool:
        """Whether the match ended here; asked afresh after every wait (a leave may come meanwhile)."""
        return self.state.ended is not None
