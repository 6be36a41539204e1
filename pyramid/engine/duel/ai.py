"""The computer opponent of the Pyramids duel, at three skill levels.

Every level plays on what a person sees and nothing more: it is handed an
:class:`~pyramid.engine.duel.search.Observation` of the board (the pyramid, the
pile, the joker, the stock's size and the set of cards still unseen, in deck
order), never the board itself, so the rule is kept by the types rather than by
discipline. :meth:`Opponent.choose` makes that observation.

* ``"casual"`` places a fitting card chosen at random, but one time in four
  misses it and turns the stock instead; it keeps the joker until the stock
  is empty.
* ``"good"`` places the card that starts the longest sequence it can find in
  the pyramid within :data:`GOOD_LOOKAHEAD` placements, and plays the joker
  when nothing fits and the joker starts a long sequence, or the stock is empty.
* ``"expert"`` weighs every legal move by the points it is expected to bring
  over the unseen cards, :data:`EXPERT_HORIZON` turns of the stock ahead
  (:class:`~pyramid.engine.duel.search.Lookahead`), counting a clear as the
  bonus plus what a new round is worth (:data:`LATER_ROUNDS_WORTH`).

Everything is decided by the deals and the level: the casual player's chance
comes from :class:`~pyramid.engine.deal.SplitMix64` seeded with
``match_number * len(LEVELS) + level index``, and the expert's expectation
involves no chance at all, so :func:`play_match` gives the same game on every
machine. Its :class:`MatchRecord` keeps every move of every round, so the
console can replay the opponent's game move by move by pushing
:attr:`MatchRecord.moves` onto ``DuelBoard.for_match(match_number)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from pyramid.engine.deal import SplitMix64
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.duel.levels import LEVELS
from pyramid.engine.duel.search import Lookahead, Observation, RoundShape

#: How often (one time in this many) the casual player misses a placement.
CASUAL_MISS_ODDS = 4
#: How many placements ahead the good player looks.
GOOD_LOOKAHEAD = 6
#: The shortest run the good player starts with the joker while the stock lasts.
GOOD_JOKER_RUN = 5
#: How many turns of the stock the expert looks ahead (docs of :mod:`pyramid.engine.duel.search`).
EXPERT_HORIZON = 4
#: What the rounds after a clear are expected to bring: about the expert's mean
#: total over a whole match (307 on matches 1001..1100). A person knows a clear
#: deals a new round, not its cards, so this is one number for every deal.
LATER_ROUNDS_WORTH = 300


class Opponent(ABC):
    """A computer player: picks one legal move, seeing of the board only what a person sees."""

    level: str

    def choose(self, board: DuelBoard) -> DuelMove:
        """The move for ``board`` (which is still playing), decided on its observation alone."""
        return self.decide(Observation.of(board))

    @abstractmethod
    def decide(self, seen: Observation) -> DuelMove:
        """One of ``seen.legal_moves``."""


class CasualPlayer(Opponent):
    """Random fitting placements, sometimes missed; the joker only once the stock is empty."""

    level = "casual"

    def __init__(self, seed: int) -> None:
        self._rng = SplitMix64(seed)

    def decide(self, seen: Observation) -> DuelMove:
        placements = [move for move in seen.legal_moves if move.kind == "place"]
        # It may miss a fitting card and turn the stock instead, never when only a placement is legal
        # (the joker lies on the pile).
        turn = DuelMove.turn()
        misses = turn in seen.legal_moves and self._rng.below(CASUAL_MISS_ODDS) == 0
        if placements and not misses:
            return placements[self._rng.below(len(placements))]
        return turn if turn in seen.legal_moves else DuelMove.joker()


class GoodPlayer(Opponent):
    """Greedy with a short lookahead over the visible pyramid.

    It places the card that starts the longest run it can see. When nothing
    fits it plays the joker if that starts a run of :data:`GOOD_JOKER_RUN`
    cards or more (the sequence pays for the joker), otherwise it turns the
    stock, and it falls back on the joker once the stock is empty.
    """

    level = "good"

    def __init__(self, lookahead: int = GOOD_LOOKAHEAD) -> None:
        self.lookahead = lookahead

    def decide(self, seen: Observation) -> DuelMove:
        shape = RoundShape.of(seen)
        mask = shape.mask_of(seen)
        placements = [(move, move.card) for move in seen.legal_moves if move.card is not None]
        if placements:
            runs = [self._run_after(shape, mask, shape.index_of(card)) for _, card in placements]
            return placements[runs.index(max(runs))][0]
        if not seen.stock_size:
            return DuelMove.joker()
        if seen.joker_available:
            longest = max(self._run_after(shape, mask, index) for index in shape.uncovered(mask))
            if longest >= GOOD_JOKER_RUN:
                return DuelMove.joker()
        return DuelMove.turn()

    def _run_after(self, shape: RoundShape, mask: int, index: int) -> int:
        """The longest run the player can see that starts by placing card ``index``."""
        return 1 + self._run_length(shape, mask & ~(1 << index), shape.ranks[index], self.lookahead - 1)

    def _run_length(self, shape: RoundShape, mask: int, top: int, depth: int) -> int:
        """The longest run of placements on ``top`` from the cards in ``mask``, up to ``depth``."""
        if depth == 0:
            return 0
        longest = 0
        for i in shape.fitting(mask, top)[0]:
            longest = max(longest, 1 + self._run_length(shape, mask & ~(1 << i), shape.ranks[i], depth - 1))
            if longest == depth:
                break
        return longest


class ExpertPlayer(Opponent):
    """The move with the best expected points over the unseen cards, a few turns ahead.

    Ties go to the first such move in legal-move order (placements first), so
    the choice is a function of the observation alone. The lookahead is kept
    between moves until a turn reveals a card, since its memo is still valid.
    """

    level = "expert"

    def __init__(self, horizon: int = EXPERT_HORIZON) -> None:
        self.horizon = horizon
        self._lookahead: Lookahead | None = None

    def decide(self, seen: Observation) -> DuelMove:
        if self._lookahead is None or not self._lookahead.serves(seen):
            worth = seen.rules.clear_bonus + (LATER_ROUNDS_WORTH if seen.later_rounds else 0)
            self._lookahead = Lookahead(seen, self.horizon, worth)
        values = self._lookahead.move_values(seen)
        best = max(value for _, value in values)
        return next(move for move, value in values if value == best)


def opponent_for(level: str, seed: int = 0) -> Opponent:
    """A fresh player of ``level`` (one of :data:`LEVELS`); ``seed`` drives the casual player."""
    if level == "casual":
        return CasualPlayer(seed)
    if level == "good":
        return GoodPlayer()
    if level == "expert":
        return ExpertPlayer()
    raise ValueError(f"unknown skill level {level!r} (use one of {', '.join(LEVELS)})")


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of a recorded game: its moves and what it scored."""

    round_number: int
    moves: tuple[DuelMove, ...]
    points: int
    cleared: bool


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole game of one player, move by move, round by round."""

    match_number: int | None
    level: str
    rounds: tuple[RoundRecord, ...]

    @property
    def total(self) -> int:
        return sum(record.points for record in self.rounds)

    @property
    def round_scores(self) -> tuple[int, ...]:
        return tuple(record.points for record in self.rounds)

    @property
    def moves(self) -> tuple[DuelMove, ...]:
        """Every move of the game in order, ready to push onto a fresh board of the match."""
        return tuple(move for record in self.rounds for move in record.moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match_number,
            "level": self.level,
            "rounds": [
                {"round": r.round_number, "moves": [str(m) for m in r.moves], "points": r.points, "cleared": r.cleared}
                for r in self.rounds
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "MatchRecord":
        rounds = tuple(
            RoundRecord(int(r["round"]), tuple(DuelMove.parse(m) for m in r["moves"]), int(r["points"]), bool(r["cleared"]))
            for r in data["rounds"]
        )
        return cls(data["match"], str(data["level"]), rounds)


def record_of(board: DuelBoard, level: str) -> MatchRecord:
    """The record of the game played on ``board`` so far."""
    rounds = tuple(
        RoundRecord(tally.round_number, tuple(moves), tally.points, tally.cleared)
        for tally, moves in zip(board.tallies, board.round_moves())
    )
    return MatchRecord(board.match_number, level, rounds)


def play_game(board: DuelBoard, opponent: Opponent) -> MatchRecord:
    """Let ``opponent`` play ``board`` to the end and return its record."""
    while not board.is_over():
        board.push(opponent.choose(board))
    return record_of(board, opponent.level)


def play_match(match_number: int, level: str) -> MatchRecord:
    """The computer's whole game of match ``match_number`` at ``level`` (deterministic)."""
    if level not in LEVELS:
        raise ValueError(f"unknown skill level {level!r} (use one of {', '.join(LEVELS)})")
    seed = match_number * len(LEVELS) + LEVELS.index(level)
    return play_game(DuelBoard.for_match(match_number), opponent_for(level, seed))
