"""Numbered deals, the same on every machine and every Python version.

``random.shuffle`` is not guaranteed to give the same order across Python
versions, so deals come from a generator defined here:

* **SplitMix64** (Steele, Lea & Flood, 2014): ``state += 0x9E3779B97F4A7C15``,
  then ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``,
  ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``, ``z ^= z >> 31`` (all mod 2**64).
  The seed of deal ``n`` is ``n`` itself.
* **Unbiased bounded draws**: ``below(k)`` rejects the values at or above the
  largest multiple of ``k`` that fits in 64 bits, then takes the remainder.
* **Fisher–Yates** over the deck in canonical order (suits ``cdhs``, ranks ace
  to king): for ``i`` from the last index down to 1, swap ``i`` with ``below(i + 1)``.

The resulting 52 cards are a deal in the order of docs/rules.md, "Cards and deals" (pyramid row by row, then
the stock, top first). Golden tests pin deals 1 and 2**32 so that any change here
shows at once.
"""

from __future__ import annotations


from pyramid.engine.cards import STANDARD_DECK, Card, Deck

MASK64 = (1 << 64) - 1
#: Numbered deals run from 1 to this (the range every menu offers).
MAX_DEAL_NUMBER = 2**32


class SplitMix64:
    """The SplitMix64 generator: tiny, fast, and identical everywhere."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, without modulo bias."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def numbered_deal(number: int, deck: Deck = STANDARD_DECK) -> tuple[Card, ...]:
    """The deal named ``number`` (1 … :data:`MAX_DEAL_NUMBER`) for ``deck``."""
    if not 1 <= number <= MAX_DEAL_NUMBER:
        raise ValueError(f"deal number {number!r} is out of range 1..{MAX_DEAL_NUMBER}")
    cards = list(deck.cards)
    rng = SplitMix64(number)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)
