"""The computer opponent of the Pyramids duel, at three skill levels.

Each level is a player that picks a legal move on a :class:`~pyramid.duel.DuelBoard`:

* ``"casual"`` places a fitting card chosen at random, but one time in four
  misses it and turns the stock instead; it keeps the joker until the stock
  is empty.
* ``"good"`` sees what a person sees (the pyramid and the pile, not the
  stock): it places the card that starts the longest sequence it can find in
  the pyramid within :data:`GOOD_LOOKAHEAD` placements, and plays the joker
  when nothing fits and the joker starts a long sequence, or the stock is empty.
* ``"expert"`` plays the deal like the solver does, knowing the stock: it
  searches each round completely (:mod:`pyramid.duel_search`) and plans the
  match backwards: it clears a round whenever the clear bonus plus the best
  of the rounds that follow beats the best way of failing it.

Everything is decided by the deals and the level: the casual player's chance
comes from :class:`~pyramid.deal.SplitMix64` seeded with
``match_number * len(LEVELS) + level index``, so :func:`play_match` gives the
same game on every machine. Its :class:`MatchRecord` keeps every move of every
round, so the console can replay the opponent's game move by move by pushing
:attr:`MatchRecord.moves` onto ``DuelBoard.for_match(match_number)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pyramid.engine.deal import SplitMix64
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.duel.search import RoundSearch, RoundShape, RoundValue

LEVELS = ("casual", "good", "expert")
#: How often (one time in this many) the casual player misses a placement.
CASUAL_MISS_ODDS = 4
#: How many placements ahead the good player looks.
GOOD_LOOKAHEAD = 6
#: The shortest run the good player starts with the joker while the stock lasts.
GOOD_JOKER_RUN = 5


class Opponent(Protocol):
    """A computer player: picks one legal move for ``board`` (which is still playing)."""

    level: str

    def choose(self, board: DuelBoard) -> DuelMove: ...


class CasualPlayer:
    """Random fitting placements, sometimes missed; the joker only once the stock is empty."""

    level = "casual"

    def __init__(self, seed: int) -> None:
        self._rng = SplitMix64(seed)

    def choose(self, board: DuelBoard) -> DuelMove:
        moves = board.legal_moves
        placements = [move for move in moves if move.kind == "place"]
        misses = board.stock and self._rng.below(CASUAL_MISS_ODDS) == 0
        if placements and not misses:
            return placements[self._rng.below(len(placements))]
        return DuelMove.turn() if board.stock else DuelMove.joker()


class GoodPlayer:
    """Greedy with a short lookahead over the visible pyramid.

    It places the card that starts the longest run it can see. When nothing
    fits it plays the joker if that starts a run of :data:`GOOD_JOKER_RUN`
    cards or more (the sequence pays for the joker), otherwise it turns the
    stock, and it falls back on the joker once the stock is empty.
    """

    level = "good"

    def __init__(self, lookahead: int = GOOD_LOOKAHEAD) -> None:
        self.lookahead = lookahead

    def choose(self, board: DuelBoard) -> DuelMove:
        shape = RoundShape(board)
        mask = shape.mask_of(board)
        placements = [move for move in board.legal_moves if move.kind == "place"]
        if placements:
            runs = [self._run_after(shape, mask, shape.cards.index(move.card)) for move in placements]
            return placements[runs.index(max(runs))]
        if not board.stock:
            return DuelMove.joker()
        if board.joker_available:
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


class ExpertPlayer:
    """Complete search of each round, and a backward plan over the rounds of the match.

    Clearing round *k* is worth it when its best cleared score plus the best
    total of the rounds after it reaches its best failed score. The rounds
    after it are searched only when a cheap lower bound (the good player's
    total on them) does not settle the question already.
    """

    level = "expert"

    def __init__(self) -> None:
        self._plan: list[DuelMove] = []
        self._plan_next_at = -1  # the length of the move stack the next planned move expects
        self._searches: dict[int, RoundSearch] = {}  # later rounds, searched from their deal
        self._best_totals: dict[int, int] = {}

    def choose(self, board: DuelBoard) -> DuelMove:
        if not self._plan or len(board.move_stack) != self._plan_next_at:
            search = self._search_for(board)
            self._plan = search.plan(clear=self._clear_pays(board, search.value()))
            self._plan_next_at = len(board.move_stack)
        self._plan_next_at += 1
        return self._plan.pop(0)

    def _search_for(self, board: DuelBoard) -> RoundSearch:
        """The search of the current round from ``board``, reusing one made for planning."""
        search = RoundSearch(board)
        planned = self._searches.pop(board.round_index, None)
        return planned if planned is not None and planned.root == search.root else search

    def _clear_pays(self, board: DuelBoard, value: RoundValue) -> bool:
        """Whether to aim for clearing the current round, given its best values."""
        if value.cleared is None:
            return False
        if value.failed is None:
            return True
        needed = value.failed - value.cleared
        later = board.round_index + 1
        if later == len(board.deals):
            return needed <= 0
        if self._good_total(board, later) >= needed:
            return True
        return self._best_total(board, later) >= needed

    @staticmethod
    def _good_total(board: DuelBoard, first_round: int) -> int:
        """What the good player scores from round ``first_round`` on: a lower bound of the best."""
        later = DuelBoard(board.deals[first_round:], board.rules)
        return play_game(later, GoodPlayer()).total

    def _best_total(self, board: DuelBoard, first_round: int) -> int:
        """The best total of the rounds from ``first_round`` on (exact)."""
        if first_round == len(board.deals):
            return 0
        if first_round not in self._best_totals:
            search = self._searches.get(first_round)
            if search is None:
                search = RoundSearch(DuelBoard([board.deals[first_round]], board.rules))
                self._searches[first_round] = search
            value = search.value()
            options = [] if value.failed is None else [value.failed]
            if value.cleared is not None:
                options.append(value.cleared + self._best_total(board, first_round + 1))
            self._best_totals[first_round] = max(options)
        return self._best_totals[first_round]


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
