"""The game in progress as plain data: the deal, the rules, the moves and the assists.

A saved game is not a snapshot of the table but the way to rebuild it: the deal
plus the moves in notation, replayed through the engine. Replaying checks every
move again, so a saved game that the current rules no longer accept is refused
with a clear :class:`~pyramid.errors.ReplayError` instead of showing a table
that could never have been reached.

The record is generic over games (``"pyramid"`` now, ``"pyramids"`` for the
duel later): the store keeps any game's moves as strings, and each game
registers in :data:`REPLAYERS` how its moves are checked.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards
from pyramid.errors import PyramidError
from pyramid.engine.errors import ReplayError
from pyramid.engine.rules import preset

if TYPE_CHECKING:
    from pyramid.engine.duel.board import DuelBoard
    from pyramid.engine.duel.match import Duel


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


@dataclass(frozen=True)
class Progress:
    """One game being played, enough to resume it exactly where it was left.

    ``redeals`` is the redeal allowance chosen before the deal (``None`` =
    unlimited), which may differ from the preset's own. ``assists`` counts the
    uses of each named assist (``"hint"``, ``"undo"`` …): a game with any
    assist is recorded apart in the statistics. ``context`` holds what else a
    game needs to resume, as JSON-ready data (the duel keeps its contenders and
    the games already finished there).
    """

    game: str
    preset: str
    redeals: int | None
    deal: str
    moves: tuple[str, ...] = ()
    assists: Mapping[str, int] = field(default_factory=dict)
    started: datetime.datetime = field(default_factory=_now)
    deal_number: int | None = None
    context: Mapping[str, Any] = field(default_factory=dict)

    @property
    def assisted(self) -> bool:
        return any(count > 0 for count in self.assists.values())

    def with_move(self, move: Move | str) -> "Progress":
        """The same game one move further."""
        return replace(self, moves=self.moves + (str(move),))

    def without_last_move(self) -> "Progress":
        """The same game one move back (after an undo); ``IndexError`` at the start."""
        if not self.moves:
            raise IndexError("no move to take back")
        return replace(self, moves=self.moves[:-1])

    def with_assist(self, name: str) -> "Progress":
        """The same game with one more use of the assist ``name``."""
        assists = dict(self.assists)
        assists[name] = assists.get(name, 0) + 1
        return replace(self, assists=assists)


def replay(progress: Progress) -> Board:
    """The Pyramid board after every saved move; :class:`ReplayError` names the first that fails."""
    try:
        board = Board(progress.deal, preset(progress.preset).with_redeals(progress.redeals))
    except (KeyError, PyramidError) as error:
        raise ReplayError(f"saved game {progress.game!r} cannot be dealt again: {error}") from None
    board.replay(progress.moves)
    return board


def replay_duel(progress: Progress) -> tuple[Duel, DuelBoard]:
    """The Pyramids duel and the board of the contender playing, after every saved move.

    The match number names every deal; the saved first deal is checked against
    it so a change in how deals are numbered cannot resume a different match.
    """
    from pyramid.engine.duel.board import DuelBoard  # the duel's engine loads only when a duel is resumed
    from pyramid.engine.duel.match import Duel

    try:
        duel = Duel.from_json(dict(progress.context["duel"]))
        if duel.match_number != progress.deal_number or duel.is_finished:
            raise ValueError(f"saved duel {duel.to_json()!r} does not match the saved game")
        board = DuelBoard.for_match(duel.match_number)
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"saved duel cannot be set up again: {error}") from None
    if progress.deal != format_cards(board.deals[0]):
        raise ReplayError(f"saved match {duel.match_number} no longer deals the same cards")
    board.replay(progress.moves)
    return duel, board


#: Replays a saved game of one kind, raising ``ValueError`` when it no longer replays.
Replayer = Callable[[Progress], object]

#: How each game's saved moves are checked when a saved game is loaded.
REPLAYERS: dict[str, Replayer] = {"pyramid": replay, "pyramids": replay_duel}
