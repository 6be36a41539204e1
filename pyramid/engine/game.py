"""What every game of the engine offers, so the console, the saved data and the computer
players can handle Pyramid and the Pyramids duel alike.

Both :class:`~pyramid.engine.board.Board` and
:class:`~pyramid.engine.duel.board.DuelBoard` follow python-chess's skeleton:
a position you ``push`` moves onto and ``pop`` them off, its ``legal_moves``,
a ``status``, moves written and read back in a notation (``str(move)`` and
:meth:`Game.parse_move`), and a JSON picture of the position. This protocol
names that skeleton; code that only needs it takes a ``Game`` and never asks
which game it holds.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Protocol, TypeVar

from pyramid.engine.cards import Card

Status = Literal["playing", "cleared", "no_moves"]

MoveT = TypeVar("MoveT")


class Game(Protocol[MoveT]):
    """A position of one game, with its history."""

    #: The moves pushed so far, oldest first.
    move_stack: list[MoveT]

    @property
    def deal(self) -> tuple[Card, ...]:
        """The cards dealt (for the duel: this round's)."""

    @property
    def score(self) -> int:
        """Points so far."""

    @property
    def legal_moves(self) -> list[MoveT]:
        """Every move the rules allow now."""

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` may be pushed now."""

    def push(self, move: MoveT) -> None:
        """Play ``move``; ``IllegalMoveError`` (quoting it) when the rules refuse it."""

    def pop(self) -> MoveT:
        """Take the last move back exactly."""

    def status(self) -> Status:
        """``"playing"`` until the game is over, then how it ended."""

    def parse_move(self, text: str) -> MoveT:
        """A move of this game from its notation; ``InvalidMoveError`` quoting ``text``."""

    def replay(self, moves: Iterable[str]) -> None:
        """Push moves in notation; ``ReplayError`` names the first that fails."""

    def to_json(self) -> dict[str, Any]:
        """The position as JSON-ready data."""
