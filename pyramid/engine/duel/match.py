"""A Pyramids duel between two contenders: the same deals, played one after the other.

The data model only (the console draws it): who plays, in what order, what
each scored round by round, and who won. A contender is a person or the
computer at a skill level; "pass the console" is simply two persons. The
higher total wins; equal totals are a tie.

A :class:`Duel` is an immutable value: :meth:`Duel.with_result` returns the
duel with one more finished game, so the game flow can save it as it goes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from pyramid.engine.duel.board import DuelBoard
from pyramid.engine.duel.ai import MatchRecord, play_match
from pyramid.engine.duel.levels import LEVELS
from pyramid.engine.errors import IllegalMoveError

Outcome = Literal["win", "lose", "tie"]


@dataclass(frozen=True, slots=True)
class Contender:
    """One side of a duel: a person (``level`` None) or the computer at ``level``."""

    name: str
    level: str | None = None

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"unknown skill level {self.level!r} (use one of {', '.join(LEVELS)})")

    @property
    def is_computer(self) -> bool:
        return self.level is not None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One contender's finished game: the points of each round played."""

    round_scores: tuple[int, ...]
    rounds_cleared: int

    @property
    def total(self) -> int:
        return sum(self.round_scores)

    @classmethod
    def of_board(cls, board: DuelBoard) -> "FinishedGame":
        """The result of a finished game; ``ValueError`` while it is still being played."""
        if not board.is_over():
            raise ValueError(f"the game is not over yet: {board.fen()!r}")
        return cls(tuple(board.round_scores()), sum(tally.cleared for tally in board.tallies))

    @classmethod
    def of_record(cls, record: MatchRecord) -> "FinishedGame":
        return cls(record.round_scores, sum(r.cleared for r in record.rounds))


@dataclass(frozen=True, slots=True)
class Duel:
    """Two contenders on match ``match_number``, and the games finished so far (in order)."""

    match_number: int
    contenders: tuple[Contender, Contender]
    results: tuple[FinishedGame | None, FinishedGame | None] = (None, None)

    @classmethod
    def against_computer(cls, match_number: int, player: str, level: str) -> "Duel":
        """A person plays first; the computer at ``level`` is the second contender."""
        return cls(match_number, (Contender(player), Contender(f"Computer ({level})", level)))

    @classmethod
    def pass_the_console(cls, match_number: int, first: str, second: str) -> "Duel":
        """Two persons on one device, ``first`` plays first."""
        return cls(match_number, (Contender(first), Contender(second)))

    @property
    def next_to_play(self) -> int | None:
        """Index of the contender whose turn it is (the turn to announce); None when both are done."""
        for index, result in enumerate(self.results):
            if result is None:
                return index
        return None

    @property
    def is_finished(self) -> bool:
        return self.next_to_play is None

    def with_result(self, index: int, result: FinishedGame) -> "Duel":
        """This duel with contender ``index``'s game finished.

        Raises :class:`IllegalMoveError` when it is not that contender's turn.
        """
        if index != self.next_to_play:
            raise IllegalMoveError(
                f"it is not {self.contenders[index].name!r}'s turn in match {self.match_number}"
                f" (next to play: {self.next_to_play!r})"
            )
        results = list(self.results)
        results[index] = result
        return replace(self, results=(results[0], results[1]))

    def computer_game(self, index: int) -> MatchRecord:
        """The whole game of computer contender ``index`` (decided by the deals and its level)."""
        level = self.contenders[index].level
        if level is None:
            raise ValueError(f"{self.contenders[index].name!r} is not a computer player")
        return play_match(self.match_number, level)

    def totals(self) -> tuple[int | None, int | None]:
        return (
            None if self.results[0] is None else self.results[0].total,
            None if self.results[1] is None else self.results[1].total,
        )

    @property
    def winner(self) -> int | None:
        """Index of the contender with the higher total; None for a tie or an unfinished duel."""
        first, second = self.totals()
        if first is None or second is None or first == second:
            return None
        return 0 if first > second else 1

    def outcome_for(self, index: int) -> Outcome:
        """``"win"``, ``"lose"`` or ``"tie"`` for contender ``index``; ``ValueError`` if unfinished."""
        if not self.is_finished:
            raise ValueError(f"match {self.match_number} is not finished")
        winner = self.winner
        if winner is None:
            return "tie"
        return "win" if winner == index else "lose"

    def rounds_compared(self) -> list[tuple[int, int | None, int | None]]:
        """(round number, first's points, second's points) for every round either played."""
        scores = [() if result is None else result.round_scores for result in self.results]
        rounds = max(len(s) for s in scores)
        return [
            (k + 1, scores[0][k] if k < len(scores[0]) else None, scores[1][k] if k < len(scores[1]) else None)
            for k in range(rounds)
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match_number,
            "contenders": [{"name": c.name, "level": c.level} for c in self.contenders],
            "results": [
                None if r is None else {"round_scores": list(r.round_scores), "rounds_cleared": r.rounds_cleared}
                for r in self.results
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Duel":
        first, second = (Contender(str(c["name"]), c["level"]) for c in data["contenders"])
        results = [
            None if r is None else FinishedGame(tuple(int(s) for s in r["round_scores"]), int(r["rounds_cleared"]))
            for r in data["results"]
        ]
        return cls(int(data["match"]), (first, second), (results[0], results[1]))
