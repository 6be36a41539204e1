"""Pyramids, the duel game (docs/rules.md, "Pyramids"): place uncovered cards one up or one down on a pile.

The layout is Pyramid's (same deal notation, same pyramid geometry from
:class:`pyramid.tableau.Tableau`), the rules are different:

* **Deal** of a round: 52 cards in the order of docs/rules.md, "Cards and deals". The first 28 form the pyramid
  (row by row, top first); the 29th starts face up on the **pile**; the other 23
  are the face-down **stock**, top first.
* **Placing**: an uncovered pyramid card goes on the pile when its rank is one
  higher or one lower than the pile top's. Suits do not matter and ranks wrap
  around: the ace sits both above the king and below the 2.
* **Sequence**: consecutive placements score 5, 10, 15, … (the *n*-th placement
  of the sequence scores ``5 * n``). :attr:`DuelBoard.streak` is *n* so far.
* **Turning** a stock card onto the pile costs 5 points and ends the sequence.
* **Joker**, once per round, played as its own move ``"joker"``: it costs 50
  points, lies on the pile as a wild card, and the next move must place an
  uncovered card of any rank on it. That placement continues the sequence (it
  scores as the next step, and so do the placements after it). The joker is
  never "wasted": while it is armed the only legal moves are placements.
* **Clearing** the pyramid scores 50 and deals the next round at once (within
  the same :meth:`DuelBoard.push`), up to :attr:`DuelRules.rounds` rounds. A new
  round starts a new sequence and brings back the joker.
* **End** (exact, as for Pyramid: it never lets the player turn the stock for
  nothing): a round that can no longer be completed ends the game. That is the
  moment no placement can ever happen again: the joker is spent and neither
  the pile top nor any card left in the stock fits an uncovered pyramid card
  (turning never changes the pyramid, so those are the only pile tops the
  player can still reach). While the joker is available or armed a placement
  is always possible, since an unfinished round has an uncovered card.

A **match** is named by one number: round *k* (1-based) is played on the deal
numbered by the *k*-th output of :class:`~pyramid.deal.SplitMix64` seeded with
the match number, mapped to ``1 … MAX_DEAL_NUMBER`` by ``below(MAX_DEAL_NUMBER) + 1``
(see :func:`round_deal_numbers`). Both players of a duel therefore get the
same cards.

The API follows :class:`pyramid.board.Board` (python-chess style):
:class:`DuelMove` with parse/format, :attr:`DuelBoard.legal_moves`,
:meth:`DuelBoard.push` raising :class:`IllegalMoveError` quoting the move and
the position, :meth:`DuelBoard.pop` as an exact undo, and ``to_json``/``from_json``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pyramid.engine.tableau import Tableau
from pyramid.engine.cards import STANDARD_DECK, Card, format_cards, parse_deal
from pyramid.engine.deal import MAX_DEAL_NUMBER, SplitMix64, numbered_deal
from pyramid.engine.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, ReplayError
from pyramid.engine.game import Status
from pyramid.errors import PyramidError

DuelMoveKind = Literal["place", "turn", "joker"]
DuelStatus = Status


@dataclass(frozen=True)
class DuelRules:
    """The numbers of the Pyramids rules, kept as data like :class:`pyramid.rules.Rules`."""

    name: str = "pyramids"
    title: str = "Pyramids"
    rows: int = 7
    rounds: int = 5
    placement_step: int = 5
    turn_cost: int = 5
    joker_cost: int = 50
    clear_bonus: int = 50

    @property
    def pyramid_size(self) -> int:
        return self.rows * (self.rows + 1) // 2


PYRAMIDS = DuelRules()


def ranks_fit(rank: int, other: int) -> bool:
    """One up or one down, the ace sitting both above the king and below the 2."""
    return (rank - other) % 13 in (1, 12)


def round_deal_numbers(match_number: int, rounds: int = PYRAMIDS.rounds) -> tuple[int, ...]:
    """The deal number of each round of match ``match_number`` (1 … MAX_DEAL_NUMBER)."""
    if not 1 <= match_number <= MAX_DEAL_NUMBER:
        raise ValueError(f"match number {match_number!r} is out of range 1..{MAX_DEAL_NUMBER}")
    rng = SplitMix64(match_number)
    return tuple(rng.below(MAX_DEAL_NUMBER) + 1 for _ in range(rounds))


def match_deals(match_number: int, rounds: int = PYRAMIDS.rounds) -> tuple[tuple[Card, ...], ...]:
    """The deal of each round of match ``match_number``."""
    return tuple(numbered_deal(number) for number in round_deal_numbers(match_number, rounds))


@dataclass(frozen=True, slots=True)
class DuelMove:
    """Placing a pyramid card on the pile, turning a stock card, or playing the joker.

    Notation: ``"Th"`` (place that card; cards are unique so a card names its
    place), ``"turn"``, ``"joker"``.
    """

    kind: DuelMoveKind
    card: Card | None = None

    @classmethod
    def place(cls, card: Card) -> "DuelMove":
        return cls("place", card)

    @classmethod
    def turn(cls) -> "DuelMove":
        return cls("turn")

    @classmethod
    def joker(cls) -> "DuelMove":
        return cls("joker")

    @classmethod
    def parse(cls, text: str) -> "DuelMove":
        """Read a move in notation; raise :class:`InvalidMoveError` quoting ``text``."""
        word = text.strip()
        if word.lower() in ("turn", "joker"):
            return cls(word.lower())  # type: ignore[arg-type]
        try:
            return cls.place(Card.parse(word))
        except ValueError as error:
            raise InvalidMoveError(f"invalid move {text!r}: expected 'turn', 'joker' or a card such as 'Th' ({error})") from None

    def __str__(self) -> str:
        return str(self.card) if self.card is not None else self.kind


@dataclass(frozen=True, slots=True)
class RoundTally:
    """What one round's score is made of; the match score is the sum of the tallies' points."""

    round_number: int
    placements: int = 0
    placement_points: int = 0
    turns: int = 0
    jokers: int = 0
    cleared: bool = False
    rules: DuelRules = field(default=PYRAMIDS, repr=False, compare=False)

    @property
    def points(self) -> int:
        rules = self.rules
        return (
            self.placement_points
            - rules.turn_cost * self.turns
            - rules.joker_cost * self.jokers
            + (rules.clear_bonus if self.cleared else 0)
        )


@dataclass(frozen=True, slots=True)
class _DuelSnapshot:
    round_index: int
    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    joker_available: bool
    joker_armed: bool
    streak: int
    tallies: tuple[RoundTally, ...]


class DuelBoard(Tableau):
    """A whole Pyramids match for one player: every round, with its move history.

    ``deals`` holds one deal per round (cards or deal strings); most callers use
    :meth:`for_match`. A board made from fewer deals than ``rules.rounds`` ends
    as ``"cleared"`` after its last deal.
    """

    def __init__(
        self,
        deals: Sequence[tuple[Card, ...] | str],
        rules: DuelRules = PYRAMIDS,
        match_number: int | None = None,
    ) -> None:
        if not 1 <= len(deals) <= rules.rounds:
            raise InvalidDealError(f"a match needs 1..{rules.rounds} deals, got {len(deals)}")
        super().__init__(rules.rows)
        self.rules = rules
        self.match_number = match_number
        self.deals = tuple(
            parse_deal(deal if isinstance(deal, str) else format_cards(deal), STANDARD_DECK) for deal in deals
        )
        self.move_stack: list[DuelMove] = []
        self._snapshots: list[_DuelSnapshot] = []
        self.tallies: list[RoundTally] = []
        self._deal_round(0)

    @classmethod
    def for_match(cls, match_number: int, rules: DuelRules = PYRAMIDS) -> "DuelBoard":
        """The match named ``match_number`` (see :func:`round_deal_numbers`)."""
        return cls(match_deals(match_number, rules.rounds), rules, match_number)

    def _deal_round(self, round_index: int) -> None:
        deal, n = self.deals[round_index], self.rules.pyramid_size
        self.round_index = round_index
        self.pyramid: list[Card | None] = list(deal[:n])
        self.pile: list[Card] = [deal[n]]  # top last
        self.stock: list[Card] = list(deal[n + 1 :])  # top first
        self.joker_available = True
        self.joker_armed = False
        self.streak = 0
        self.tallies.append(RoundTally(round_index + 1, rules=self.rules))

    # -- the round and the score --------------------------------------------
    @property
    def round_number(self) -> int:
        """The round being played (1-based); the last round played once the match is over."""
        return self.round_index + 1

    @property
    def deal(self) -> tuple[Card, ...]:
        """The deal of the current round."""
        return self.deals[self.round_index]

    @property
    def score(self) -> int:
        return sum(tally.points for tally in self.tallies)

    def round_scores(self) -> list[int]:
        """Points of each round played so far (the current one included)."""
        return [tally.points for tally in self.tallies]

    @property
    def pile_top(self) -> Card:
        return self.pile[-1]

    # -- what can be played --------------------------------------------------
    def fits(self, card: Card) -> bool:
        """Whether ``card`` may go on the pile now (any card, while the joker is armed)."""
        return self.joker_armed or ranks_fit(card.rank, self.pile_top.rank)

    @property
    def legal_moves(self) -> list[DuelMove]:
        """Every move allowed now: placements (pyramid order), then the joker, then the turn."""
        if self.status() != "playing":
            return []
        moves = [DuelMove.place(card) for card in self.uncovered_cards() if self.fits(card)]
        if self.joker_armed:
            return moves
        if self.joker_available:
            moves.append(DuelMove.joker())
        if self.stock:
            moves.append(DuelMove.turn())
        return moves

    def is_legal(self, move: DuelMove) -> bool:
        return move in self.legal_moves

    def has_move(self) -> bool:
        """Whether the player has a move left: a stock card to turn, the joker, or an uncovered card
        that fits the pile.

        Decided only from what the player sees: whether the stock is empty, whether the joker is
        used, the pile top and the uncovered cards, never what the stock holds. Ending a round as
        soon as no stock card could ever fit (as before issue 47) told the player what the hidden
        stock held: a round ended "no card to place any more" with a card still in the stock.
        """
        if self.stock or self.joker_available or self.joker_armed:
            return True
        return any(self.fits(card) for card in self.uncovered_cards())

    def status(self) -> DuelStatus:
        """``"cleared"`` (every round cleared), ``"no_moves"`` (the player has no move left in the
        round: the game is over) or ``"playing"``."""
        if all(card is None for card in self.pyramid):
            return "cleared"
        if not self.has_move():
            return "no_moves"
        return "playing"

    def is_over(self) -> bool:
        return self.status() != "playing"

    # -- making moves --------------------------------------------------------
    def push(self, move: DuelMove) -> None:
        """Play ``move``; raise :class:`IllegalMoveError` if the rules forbid it.

        Placing the last pyramid card adds the clear bonus and, unless this was
        the last round, deals the next round.
        """
        if move not in self.legal_moves:
            raise IllegalMoveError(f"illegal move {str(move)!r} in position {self.fen()!r}")
        self._snapshots.append(
            _DuelSnapshot(
                self.round_index, tuple(self.pyramid), tuple(self.stock), tuple(self.pile),
                self.joker_available, self.joker_armed, self.streak, tuple(self.tallies),
            )
        )
        self.move_stack.append(move)
        tally = self.tallies[-1]
        if move.kind == "turn":
            self.pile.append(self.stock.pop(0))
            self.streak = 0
            self.tallies[-1] = replace(tally, turns=tally.turns + 1)
        elif move.kind == "joker":
            self.joker_available, self.joker_armed = False, True
            self.tallies[-1] = replace(tally, jokers=tally.jokers + 1)
        else:
            assert move.card is not None
            index = self.index_of(move.card)
            assert index is not None
            self.pyramid[index] = None
            self.pile.append(move.card)
            self.joker_armed = False
            self.streak += 1
            cleared = all(card is None for card in self.pyramid)
            self.tallies[-1] = replace(
                tally,
                placements=tally.placements + 1,
                placement_points=tally.placement_points + self.rules.placement_step * self.streak,
                cleared=cleared,
            )
            if cleared and self.round_index + 1 < len(self.deals):
                self._deal_round(self.round_index + 1)

    def pop(self) -> DuelMove:
        """Undo the last move exactly (across a round change too) and return it.

        Raises ``IndexError`` when there is no move to undo.
        """
        move = self.move_stack.pop()
        snap = self._snapshots.pop()
        self.round_index = snap.round_index
        self.pyramid = list(snap.pyramid)
        self.stock = list(snap.stock)
        self.pile = list(snap.pile)
        self.joker_available = snap.joker_available
        self.joker_armed = snap.joker_armed
        self.streak = snap.streak
        self.tallies = list(snap.tallies)
        return move

    def round_moves(self) -> list[list[DuelMove]]:
        """The move history split by round (the move clearing a round ends its list)."""
        rounds: list[list[DuelMove]] = [[] for _ in self.tallies]
        for move, snap in zip(self.move_stack, self._snapshots):
            rounds[snap.round_index].append(move)
        return rounds

    # -- notation and JSON ---------------------------------------------------
    def fen(self) -> str:
        """A one-line description of the position, used in error messages."""
        pyramid = " ".join(str(card) if card else "--" for card in self.pyramid)
        joker = "armed" if self.joker_armed else ("available" if self.joker_available else "spent")
        return (
            f"round {self.round_number} | {pyramid} | stock {format_cards(self.stock) or '-'}"
            f" | pile {format_cards(self.pile)} | joker {joker} | streak {self.streak}"
        )

    def to_json(self) -> dict[str, Any]:
        """The match as JSON-serialisable data (the scripted mode's ``game`` object).

        ``moves`` (every move of the match, in order) lets :meth:`from_json`
        rebuild the position exactly by replaying; ``deals`` is written only
        for a match that has no number.
        """
        data: dict[str, Any] = {
            "rules": self.rules.name,
            "match": self.match_number,
            "deal": format_cards(self.deal),
            "pyramid": [[str(card) if card else None for card in row] for row in self.pyramid_rows()],
            "stock": [str(card) for card in self.stock],
            "pile": [str(card) for card in self.pile],
            "joker_available": self.joker_available,
            "joker_armed": self.joker_armed,
            "round": self.round_number,
            "rounds": self.rules.rounds,
            "streak": self.streak,
            "round_scores": self.round_scores(),
            "score": self.score,
            "status": self.status(),
            "moves": [str(move) for move in self.move_stack],
        }
        if self.match_number is None:
            data["deals"] = [format_cards(deal) for deal in self.deals]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: DuelRules = PYRAMIDS) -> "DuelBoard":
        """Rebuild a match written by :meth:`to_json` by replaying its moves.

        Raises :class:`ReplayError` for a move that does not replay, and
        :class:`InvalidDealError` when the replayed position differs from the
        one written.
        """
        if data.get("rules") != rules.name:
            raise InvalidDealError(f"not a {rules.title} game: rules {data.get('rules')!r}")
        match_number = data.get("match")
        if match_number is not None:
            board = cls.for_match(int(match_number), rules)
        else:
            board = cls(list(data["deals"]), rules)
        board.replay(data["moves"])
        replayed = board.to_json()
        for key in ("pyramid", "stock", "pile", "score", "round"):
            if key in data and replayed[key] != data[key]:
                raise InvalidDealError(f"the moves do not lead to the position written: {key} differs")
        return board

    def parse_move(self, text: str) -> DuelMove:
        """A move of the duel from its notation (see :meth:`DuelMove.parse`)."""
        return DuelMove.parse(text)

    def replay(self, moves: Iterable[str]) -> None:
        """Push saved moves in notation; :class:`ReplayError` names the first that fails.

        This is how a game in progress comes back after a power cut: the match
        number and the moves are all that is saved.
        """
        for ply, text in enumerate(moves, start=1):
            try:
                self.push(self.parse_move(text))
            except PyramidError as error:
                raise ReplayError(f"saved move {ply} {text!r} no longer replays: {error}") from None

    def copy(self) -> "DuelBoard":
        """An independent board in the same position (history included)."""
        other = DuelBoard.__new__(DuelBoard)
        other.rules, other.match_number, other.deals = self.rules, self.match_number, self.deals
        other.rows, other.places, other._covers = self.rows, self.places, self._covers
        other.round_index = self.round_index
        other.pyramid, other.stock, other.pile = list(self.pyramid), list(self.stock), list(self.pile)
        other.joker_available, other.joker_armed, other.streak = self.joker_available, self.joker_armed, self.streak
        other.tallies = list(self.tallies)
        other.move_stack, other._snapshots = list(self.move_stack), list(self._snapshots)
        return other
