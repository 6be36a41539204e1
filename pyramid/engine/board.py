"""The Pyramid position: pyramid, stock, waste, score, and the moves between them.

Modelled on python-chess: :class:`Move` values with a parse/format pair,
:meth:`Board.legal_moves`, :meth:`Board.push` (checked, raises
:class:`IllegalMoveError` quoting the move and the position) and
:meth:`Board.pop` (exact undo from a snapshot). Every rule is read from the
:class:`~pyramid.rules.Rules` object, so variants share this code.

The pyramid's geometry (indices, rows, covering) is :class:`~pyramid.tableau.Tableau`'s,
shared with the Pyramids duel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Literal

from pyramid.engine.cards import Card, format_cards, parse_deal
from pyramid.engine.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, ReplayError
from pyramid.engine.game import Status
from pyramid.errors import PyramidError
from pyramid.engine.rules import MSC_PYRAMID_BONUS, MSC_REMOVAL_POINTS, MSC_ROW_BONUSES, RETROHUB, Rules, preset
from pyramid.engine.tableau import Tableau

MoveKind = Literal["draw", "redeal", "remove"]


@dataclass(frozen=True, slots=True)
class Move:
    """A draw from the stock, a redeal of the waste, or the removal of one or two cards.

    Notation: ``"draw"``, ``"redeal"``, ``"Ks"`` (a king alone) or ``"5c+8d"``
    (a pair). Cards are unique in a deal, so a card names its place.
    """

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    @classmethod
    def draw(cls) -> "Move":
        return cls("draw")

    @classmethod
    def redeal(cls) -> "Move":
        return cls("redeal")

    @classmethod
    def remove(cls, *cards: Card) -> "Move":
        return cls("remove", tuple(sorted(cards)))

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read a move in notation; raise :class:`InvalidMoveError` quoting ``text``."""
        word = text.strip()
        if word.lower() in ("draw", "redeal"):
            return cls(word.lower())  # type: ignore[arg-type]
        parts = word.split("+")
        if not 1 <= len(parts) <= 2:
            raise InvalidMoveError(f"invalid move {text!r}: expected 'draw', 'redeal', a card or 'card+card'")
        try:
            cards = [Card.parse(part) for part in parts]
        except ValueError as error:
            raise InvalidMoveError(f"invalid move {text!r}: {error}") from None
        if len(cards) == 2 and cards[0] == cards[1]:
            raise InvalidMoveError(f"invalid move {text!r}: the same card twice")
        return cls.remove(*cards)

    def __str__(self) -> str:
        if self.kind == "remove":
            return "+".join(str(card) for card in self.cards)
        return self.kind


@dataclass(frozen=True, slots=True)
class _BoardSnapshot:
    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    redeals_left: int | None
    score: int


def msc_row_bonus(rows: int, row: int) -> int:
    """Microsoft's points for emptying ``row`` (0 = the top card) of a pyramid of ``rows`` rows:
    by its height from the base (:data:`~pyramid.engine.rules.MSC_ROW_BONUSES`), the top card
    :data:`~pyramid.engine.rules.MSC_PYRAMID_BONUS`."""
    if row == 0:
        return MSC_PYRAMID_BONUS
    return MSC_ROW_BONUSES[min(rows - 1 - row, len(MSC_ROW_BONUSES) - 1)]


class Board(Tableau):
    """A Pyramid position under some :class:`Rules`, with its move history."""

    def __init__(self, deal: tuple[Card, ...] | str, rules: Rules = RETROHUB) -> None:
        cards = parse_deal(deal, rules.deck) if isinstance(deal, str) else tuple(deal)
        if isinstance(deal, tuple):
            parse_deal(format_cards(cards), rules.deck)  # same checks as for a string
        super().__init__(rules.rows)
        self.rules = rules
        self.deal = cards
        n = rules.pyramid_size
        self.pyramid: list[Card | None] = list(cards[:n])
        self.stock: list[Card] = list(cards[n:])  # top first
        self.waste: list[Card] = []  # top last
        self.redeals_left: int | None = rules.redeals
        self.score = 0
        self.move_stack: list[Move] = []
        self._snapshots: list[_BoardSnapshot] = []

    # -- what can be played -------------------------------------------------
    @property
    def waste_top(self) -> Card | None:
        return self.waste[-1] if self.waste else None

    @property
    def stock_top(self) -> Card | None:
        return self.stock[0] if self.stock else None

    def playable_cards(self) -> list[Card]:
        """Cards that may take part in a removal now (pickable pyramid cards, waste top, stock top)."""
        pyramid = [card for card in (self.pyramid[i] for i in self.pickable_indices()) if card is not None]
        return pyramid + self._open_stock_cards(self.stock, self.waste)

    def _open_stock_cards(self, stock: list[Card], waste: list[Card]) -> list[Card]:
        cards = []
        if self.rules.stock_top_playable and stock:
            cards.append(stock[0])
        if self.rules.waste_playable and waste:
            cards.append(waste[-1])
        return cards

    def pickable_indices(self) -> list[int]:
        """Pyramid cards a player may pick: the uncovered ones and, under the overlap rule,
        a card whose one remaining coverer is uncovered (the two may leave together)."""
        picks = set(self.uncovered_indices())
        if self.rules.overlap:
            picks.update(self.pyramid.index(card) for card, _ in self._overlap_pairs())
        return sorted(picks)

    def _overlap_pairs(self) -> list[tuple[Card, Card]]:
        """Pairs (covered card, its only remaining coverer) allowed by the overlap rule."""
        pairs = []
        for index, card in enumerate(self.pyramid):
            if card is None:
                continue
            present = [i for i in self.covering(index) if self.pyramid[i] is not None]
            if len(present) == 1 and self.is_uncovered(present[0]):
                coverer = self.pyramid[present[0]]
                assert coverer is not None
                pairs.append((card, coverer))
        return pairs

    def _removals(self, open_cards: list[Card], pyramid_cards: list[Card]) -> Iterator[Move]:
        target = self.rules.target
        cards = pyramid_cards + open_cards
        for i, card in enumerate(cards):
            if card.rank == target:
                yield Move.remove(card)
            for other in cards[i + 1:]:
                if card.rank + other.rank == target:
                    yield Move.remove(card, other)
        if self.rules.overlap:
            for card, coverer in self._overlap_pairs():
                if card.rank + coverer.rank == target:
                    yield Move.remove(card, coverer)

    @property
    def legal_moves(self) -> list[Move]:
        """Every move allowed now: removals first, then the draw or the redeal."""
        if self.status() != "playing":
            return []
        moves = list(self._removals(self._open_stock_cards(self.stock, self.waste), self.uncovered_cards()))
        if self.stock:
            moves.append(Move.draw())
        elif self.can_redeal():
            moves.append(Move.redeal())
        return moves

    def can_redeal(self) -> bool:
        return not self.stock and bool(self.waste) and self.redeals_left != 0

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    # -- the end check ------------------------------------------------------
    def is_cleared(self) -> bool:
        if any(card is not None for card in self.pyramid):
            return False
        return self.rules.goal == "pyramid" or not (self.stock or self.waste)

    def removal_reachable(self) -> bool:
        """Exact: can any sequence of draws and redeals lead to a removal?

        Draws and redeals never change the pyramid and at most one of them is
        possible at a time, so the positions reachable without a removal form a
        single path. After one redeal the path repeats, so walking to the
        second redeal sees every position it will ever reach.
        """
        pyramid_cards = self.uncovered_cards()
        stock, waste, redeals_left = list(self.stock), list(self.waste), self.redeals_left
        redeals_walked = 0
        while True:
            if next(self._removals(self._open_stock_cards(stock, waste), pyramid_cards), None):
                return True
            if stock:
                drawn = stock[: self.rules.draw_count]
                del stock[: self.rules.draw_count]
                waste.extend(drawn)
            elif waste and redeals_left != 0 and redeals_walked < 2:
                stock, waste = waste, []
                redeals_walked += 1
                if redeals_left is not None:
                    redeals_left -= 1
            else:
                return False

    def status(self) -> Status:
        """``"cleared"``, ``"no_moves"`` (nothing can ever be removed again) or ``"playing"``."""
        if self.is_cleared():
            return "cleared"
        if not self.removal_reachable():
            return "no_moves"
        return "playing"

    def cards_left(self) -> int:
        """Pyramid cards still on the table (what the best-score search gains by removing)."""
        return sum(card is not None for card in self.pyramid)

    def cards_to_clear(self) -> int:
        """The cards the goal still asks to remove, the "cards left" score (0 is perfect): the
        pyramid's, and under the goal "all" (Classic) the stock's and the waste's too, 52 at the
        start. Before issue 47 Classic counted the pyramid's only: it opened at 28 and ended "23
        cards left" with 20 more in the waste."""
        if self.rules.goal == "all":
            return self.cards_left() + len(self.stock) + len(self.waste)
        return self.cards_left()

    def counted_score(self) -> int:
        """The score a game is counted with (statistics, the daily deals, a friend's result): its
        points where the rules score points, else the cards the goal still asks to remove."""
        return self.cards_to_clear() if self.rules.scoring == "cards_left" else self.score

    # -- making moves -------------------------------------------------------
    def card_points(self, card: Card) -> int:
        """Points a removed card earns under RetroHub scoring (docs/rules.md, "Pyramid")."""
        index = self.index_of(card)
        if index is None:
            return 5
        return 5 * (self.rules.rows - self.row_of(index))

    def push(self, move: Move) -> None:
        """Play ``move``; raise :class:`IllegalMoveError` if the rules forbid it."""
        if move not in self.legal_moves:
            raise IllegalMoveError(f"illegal move {str(move)!r} in position {self.fen()!r}")
        self._snapshots.append(
            _BoardSnapshot(tuple(self.pyramid), tuple(self.stock), tuple(self.waste), self.redeals_left, self.score)
        )
        self.move_stack.append(move)
        if move.kind == "draw":
            count = self.rules.draw_count
            self.waste.extend(self.stock[:count])
            del self.stock[:count]
        elif move.kind == "redeal":
            self.stock, self.waste = self.waste, []
            if self.redeals_left is not None:
                self.redeals_left -= 1
        else:
            self.score += self._removal_score(move.cards)
            for card in move.cards:
                self._take(card)

    def _removal_score(self, cards: tuple[Card, ...]) -> int:
        scoring = self.rules.scoring
        if scoring == "retrohub":
            return sum(self.card_points(card) for card in cards)
        if scoring == "cards_left":
            return 0
        return MSC_REMOVAL_POINTS + self._msc_row_bonus(cards)

    def _msc_row_bonus(self, cards: tuple[Card, ...]) -> int:
        """Bonus for each pyramid row that ``cards`` (about to leave) empty (see :func:`msc_row_bonus`)."""
        leaving = {index for index in map(self.index_of, cards) if index is not None}
        bonus = 0
        for row in {self.row_of(index) for index in leaving}:
            start = row * (row + 1) // 2
            if all(self.pyramid[i] is None or i in leaving for i in range(start, start + row + 1)):
                bonus += msc_row_bonus(self.rules.rows, row)
        return bonus

    def _take(self, card: Card) -> None:
        index = self.index_of(card)
        if index is not None:
            self.pyramid[index] = None
        elif self.waste and self.waste[-1] == card:
            self.waste.pop()
        else:
            assert self.stock and self.stock[0] == card, card
            self.stock.pop(0)

    def pop(self) -> Move:
        """Undo the last move exactly and return it; ``IndexError`` if there is none."""
        move = self.move_stack.pop()
        snap = self._snapshots.pop()
        self.pyramid = list(snap.pyramid)
        self.stock = list(snap.stock)
        self.waste = list(snap.waste)
        self.redeals_left = snap.redeals_left
        self.score = snap.score
        return move

    def copy(self) -> "Board":
        """An independent board in the same position (history included)."""
        other = Board.__new__(Board)
        other.rules, other.deal = self.rules, self.deal
        other.pyramid, other.stock, other.waste = list(self.pyramid), list(self.stock), list(self.waste)
        other.redeals_left, other.score = self.redeals_left, self.score
        other.move_stack, other._snapshots = list(self.move_stack), list(self._snapshots)
        other.rows, other.places, other._covers = self.rows, self.places, self._covers
        return other

    # -- notation and JSON --------------------------------------------------
    def fen(self) -> str:
        """A one-line description of the position, used in error messages."""
        pyramid = " ".join(str(card) if card else "--" for card in self.pyramid)
        return f"{pyramid} | stock {format_cards(self.stock) or '-'} | waste {format_cards(self.waste) or '-'}"

    def parse_move(self, text: str) -> Move:
        """A Pyramid move from its notation (see :meth:`Move.parse`)."""
        return Move.parse(text)

    def replay(self, moves: Iterable[str]) -> None:
        """Push moves in notation; :class:`ReplayError` names the first that fails."""
        for ply, text in enumerate(moves, start=1):
            try:
                self.push(self.parse_move(text))
            except PyramidError as error:
                raise ReplayError(f"saved move {ply} {text!r} no longer replays: {error}") from None

    def to_json(self) -> dict[str, Any]:
        """The position as JSON-serialisable data (the scripted mode's ``game`` object)."""
        return {
            "rules": self.rules.name,
            "deal": format_cards(self.deal),
            "pyramid": [[str(card) if card else None for card in row] for row in self.pyramid_rows()],
            "stock": [str(card) for card in self.stock],
            "waste": [str(card) for card in self.waste],
            "redeals_left": self.redeals_left,
            "score": self.score,
            "status": self.status(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules | None = None) -> "Board":
        """Rebuild a position written by :meth:`to_json` (without its history).

        Checks that every card of the deal is in exactly one place or removed;
        raises :class:`InvalidDealError` otherwise.
        """
        rules = rules or preset(data["rules"])
        board = cls(str(data["deal"]), rules)
        pyramid = [Card.parse(c) if c else None for row in data["pyramid"] for c in row]
        stock = [Card.parse(c) for c in data["stock"]]
        waste = [Card.parse(c) for c in data["waste"]]
        placed = [c for c in pyramid if c] + stock + waste
        if len(pyramid) != rules.pyramid_size or len(set(placed)) != len(placed) or not set(placed) <= set(board.deal):
            raise InvalidDealError(f"inconsistent position {data!r}")
        for index, card in enumerate(pyramid):
            if card is not None and card != board.deal[index]:
                raise InvalidDealError(f"card {str(card)!r} is not in its dealt place")
        board.pyramid, board.stock, board.waste = pyramid, stock, waste
        board.redeals_left = data["redeals_left"]
        board.score = int(data["score"])
        return board
