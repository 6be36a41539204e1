"""The opponent's game, replayed here through the engine: a console never trusts a score it is sent.

The receiver keeps its own :class:`~pyramid.engine.duel.board.DuelBoard` on the
same match number and pushes each numbered move the opponent sends. The rule
(docs/network.md, "the replay rule"):

* move ``n`` must be the next one (``n == moves + 1``); a number already
  replayed is a resend after a reconnect and is skipped if it names the same
  move (never applied twice), and voids the match if it names another;
* a number further on (a gap) is out of order and voids the match;
* a move the engine refuses voids the match;
* a claimed :class:`~pyramid.net.protocol.Status` must describe exactly the
  position after its ``moves`` moves here (round, score, finished) or the match
  is void.

Voiding raises :class:`~pyramid.net.errors.MatchVoidError` with a reason code;
the caller (the link) stops the match. The state is the match number and the
moves, saved and restored as plain JSON so a console can keep the opponent's
moves with its game and rejoin after a power cut.
"""

from __future__ import annotations

from typing import Any, Literal

from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.errors import EngineError
from pyramid.net.errors import MatchVoidError, ProtocolError, quote
from pyramid.net.protocol import MAX_MOVES, Move, Status

Applied = Literal["applied", "duplicate"]


class OpponentReplay:
    """The opponent's match as far as its moves have arrived, checked move by move."""

    def __init__(self, match_number: int) -> None:
        self.match_number = match_number
        self.board = DuelBoard.for_match(match_number)
        #: The moves replayed, in notation (kept as they come: a snapshot copies them, never writes them again).
        self.played: list[str] = []

    @property
    def moves(self) -> int:
        """How many of the opponent's moves have been replayed (the next expected is this + 1)."""
        return len(self.board.move_stack)

    @property
    def score(self) -> int:
        return self.board.score

    @property
    def round_number(self) -> int:
        return self.board.round_number

    @property
    def finished(self) -> bool:
        return self.board.is_over()

    def apply(self, message: Move) -> Applied:
        """Replay ``message``; ``"duplicate"`` for a resent move already here, else ``"applied"``.

        Raises :class:`MatchVoidError` when the move may not be played.
        """
        if message.match != self.match_number:
            raise MatchVoidError("wrong_match", f"move {message.n} is for match {message.match}, not {self.match_number}")
        if message.n <= self.moves:
            played = self.played[message.n - 1]
            if played != message.move:
                raise MatchVoidError(
                    "changed_move", f"move {message.n} was {played!r} and is now sent as {quote(message.move)}"
                )
            return "duplicate"
        if message.n != self.moves + 1:
            raise MatchVoidError("out_of_order", f"move {message.n} arrived before move {self.moves + 1}")
        try:
            move = DuelMove.parse(message.move)
            self.board.push(move)
        except EngineError as error:
            raise MatchVoidError("illegal_move", f"move {message.n} {quote(message.move)} is not legal: {error}") from None
        self.played.append(str(move))
        return "applied"

    def check(self, status: Status) -> None:
        """Compare a claimed status with the replay; raise :class:`MatchVoidError` if they differ."""
        if status.match != self.match_number:
            raise MatchVoidError("wrong_match", f"status for match {status.match}, not {self.match_number}")
        if status.moves != self.moves:
            raise MatchVoidError(
                "out_of_order", f"status after move {status.moves} arrived when {self.moves} moves were replayed"
            )
        mine = (self.round_number, self.score, self.finished)
        claimed = (status.round, status.score, status.finished)
        if mine != claimed:
            raise MatchVoidError(
                "score_mismatch",
                f"claimed round {status.round}, score {status.score}, finished {status.finished};"
                f" the replay gives round {mine[0]}, score {mine[1]}, finished {mine[2]}",
            )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: the match number and the moves replayed, in order."""
        return {"match": self.match_number, "moves": list(self.played)}

    @classmethod
    def from_json(cls, data: object) -> "OpponentReplay":
        """Rebuild a saved replay; :class:`ProtocolError` if it is not one (or no longer replays)."""
        if not isinstance(data, dict) or set(data) != {"match", "moves"}:
            raise ProtocolError(f"a saved opponent is {{'match', 'moves'}}: {quote(repr(data))}")
        match_number, moves = data["match"], data["moves"]
        if type(match_number) is not int or not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise ProtocolError(f"a saved opponent has an integer match and a list of moves: {quote(repr(data))}")
        try:
            replay = cls(match_number)
        except ValueError as error:
            raise ProtocolError(f"saved opponent: {error}") from None
        for number, move in enumerate(moves, start=1):
            if not isinstance(move, str):
                raise ProtocolError(f"saved opponent move {number} is not text: {quote(repr(move))}")
            try:
                replay.apply(Move(match_number, number, move))
            except MatchVoidError as error:
                raise ProtocolError(f"saved opponent move {number} no longer replays: {error}") from None
        return replay
