"""Cards and decks, with a notation that round-trips.

Notation (docs/rules.md, "Cards and deals"): a rank from ``A23456789TJQK`` followed by a suit from
``cdhs`` — ``"Th"`` is the ten of hearts. ``Card.parse(str(card)) == card``
always holds.

The Spanish 48-card deck (rule variant ``spanish``) has ranks 1–12 in four
Spanish suits. It reuses the same letters for ranks (``A`` … ``9``, ``T`` = 10,
``J`` = 11, ``Q`` = 12) and the suits ``o`` (oros), ``p`` (copas), ``e``
(espadas), ``b`` (bastos), so every deck shares one parser.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import Iterable, Literal, NamedTuple

from pyramid.engine.errors import InvalidCardError, InvalidDealError

RANK_LETTERS = "A23456789TJQK"
FRENCH_SUITS = "cdhs"
SPANISH_SUITS = "opeb"
SUIT_LETTERS = FRENCH_SUITS + SPANISH_SUITS
#: The sign each suit is written with in a sentence ("D♦ + 3♠"). The Spanish suits have no Unicode
#: signs: private-use characters stand for them, and the renderer draws every one of these signs with
#: the shape of its suit on the cards (display/symbols.py), so "2o + 4b" reads as the cards look.
SUIT_SIGNS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠", "o": "\ue000", "p": "\ue001", "e": "\ue002", "b": "\ue003"}
#: The suits drawn in red (hearts and diamonds, the Spanish oros and copas).
RED_SUITS = "dhop"

#: How court cards are lettered on screen: English J/Q/K, French V/D/R (valet, dame, roi) or German
#: B/D/K (Bube, Dame, König); by default the language's own (docs/rules.md, "Pyramid").
CardLetters = Literal["english", "french", "german"]
FACE_LETTERS: dict[CardLetters, dict[int, str]] = {
    "english": {11: "J", 12: "Q", 13: "K"},
    "french": {11: "V", 12: "D", 13: "R"},
    "german": {11: "B", 12: "D", 13: "K"},
}


class _CardValue(NamedTuple):
    rank: int
    suit: str


class Card(_CardValue):
    """One playing card: ``rank`` 1 (ace) … 13 (king) and a one-letter ``suit``.

    A named tuple (immutable, ordered by rank then suit, and cheap to define
    before the console's first frame), checked when it is made.
    """

    __slots__ = ()

    def __new__(cls, rank: int, suit: str) -> "Card":
        if type(rank) is not int or not 1 <= rank <= 13 or not isinstance(suit, str) or len(suit) != 1 \
                or suit not in SUIT_LETTERS:
            raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}")
        return super().__new__(cls, rank, suit)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card such as ``"Th"``; raise :class:`InvalidCardError` quoting ``text``."""
        stripped = text.strip()
        if len(stripped) != 2:
            raise InvalidCardError(f"invalid card {text!r}: expected a rank and a suit, e.g. 'Th'")
        rank_letter, suit = stripped[0].upper(), stripped[1].lower()
        rank = RANK_LETTERS.find(rank_letter) + 1
        if rank == 0:
            raise InvalidCardError(f"invalid card {text!r}: unknown rank {stripped[0]!r} (use one of {RANK_LETTERS})")
        if suit not in SUIT_LETTERS:
            raise InvalidCardError(f"invalid card {text!r}: unknown suit {stripped[1]!r} (use one of {FRENCH_SUITS})")
        return cls(rank, suit)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds (and the Spanish oros and copas) are drawn in red."""
        return self.suit in RED_SUITS


class Deck(NamedTuple):
    """A kind of deck: its suits and highest rank, in canonical order."""

    name: str
    suits: str
    top_rank: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(rank, suit) for suit in self.suits for rank in range(1, self.top_rank + 1))

    @property
    def size(self) -> int:
        return len(self.suits) * self.top_rank


STANDARD_DECK = Deck("standard", FRENCH_SUITS, 13)
SPANISH_DECK = Deck("spanish", SPANISH_SUITS, 12)
DECKS = {deck.name: deck for deck in (STANDARD_DECK, SPANISH_DECK)}


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by single spaces."""
    return " ".join(str(card) for card in cards)


def parse_deal(text: str, deck: Deck = STANDARD_DECK) -> tuple[Card, ...]:
    """Read a whole deal (every card of ``deck`` exactly once, separated by white space).

    Raises :class:`InvalidCardError` for a card that does not parse and
    :class:`InvalidDealError` for a wrong count, a duplicate, a card of another
    deck, or a missing card; the message names the problem.
    """
    words = text.split()
    cards = tuple(Card.parse(word) for word in words)
    allowed = set(deck.cards)
    seen: set[Card] = set()
    for word, card in zip(words, cards):
        if card not in allowed:
            raise InvalidDealError(f"card {word!r} is not in the {deck.name} deck")
        if card in seen:
            raise InvalidDealError(f"duplicate card {word!r} in the deal")
        seen.add(card)
    if len(cards) != deck.size:
        missing = [str(card) for card in deck.cards if card not in seen]
        detail = f"; missing {', '.join(missing)}" if missing and len(cards) < deck.size else ""
        raise InvalidDealError(f"a deal needs {deck.size} cards, got {len(cards)}{detail}")
    return cards
