"""Hand-built deals for tests: each one sets up a rule situation on purpose."""

from __future__ import annotations

from pyramid.engine.cards import STANDARD_DECK, Card, format_cards


def c(text: str) -> Card:
    return Card.parse(text)


def build_deal(pyramid: list[str], stock: list[str]) -> str:
    """A full 52-card deal: the given pyramid cards (row by row) and stock (top first),
    padded with the unused cards in canonical order — pyramid first, then stock."""
    used = [c(t) for t in pyramid + stock]
    rest = [card for card in STANDARD_DECK.cards if card not in used]
    pyramid_cards = [c(t) for t in pyramid] + rest[: 28 - len(pyramid)]
    rest = rest[28 - len(pyramid):]
    stock_cards = [c(t) for t in stock] + rest
    return format_cards(pyramid_cards + stock_cards)


def clearable_deal() -> str:
    """A deal whose pyramid clears with no draw: every row holds kings and pairs of its own.

    Rows from the base up: K + 3 pairs, 3 pairs, K + 2 pairs, 2 pairs, K + pair, pair, K.
    """
    base_up = [
        ["Kc", "Ac", "Qc", "2c", "Jc", "3c", "Tc"],
        ["4c", "9c", "5c", "8c", "6c", "7c"],
        ["Kd", "Ad", "Qd", "2d", "Jd"],
        ["3d", "Td", "4d", "9d"],
        ["Kh", "5d", "8d"],
        ["6d", "7d"],
        ["Ks"],
    ]
    pyramid = [card for row in reversed(base_up) for card in row]
    return build_deal(pyramid, [])
