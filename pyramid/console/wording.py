"""How the console words cards, moves and variants, for both games.

One place, so Pyramid's hints, the duel's refusals ("3♠ does not fit on Q♦")
and the statistics headings name things the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid.engine.cards import ENGLISH_FACE_LETTERS, FRENCH_FACE_LETTERS, Card
from pyramid.engine.rules import PRESETS

if TYPE_CHECKING:
    from pyramid.engine.board import Move

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
#: A redeal allowance as a heading says it ("Pyramid, no redeal").
REDEALS_SAID = {"none": "no redeal", "one": "one redeal", "two": "two redeals", "unlimited": "unlimited redeals"}


#: One line on each variant, shown under the Variant menu (docs/rules.md, "Variants", says it all).
VARIANT_LINES = {
    "retrohub": "The console's own rules: you choose the redeals",
    "classic": "Clear all 52 cards in one pass",
    "par": "Classic with the waste turned over twice",
    "relaxed": "Classic, but clearing the pyramid wins",
    "three-pass": "Microsoft's rules: three passes, points",
    "king-tut": "Draw three, redeal at will, waste top only",
    "overlap": "A card may leave with the one covering it",
    "six-rows": "A 21-card pyramid, 31 cards in the stock",
    "spanish": "48 Spanish cards: pairs make 12",
}


def card_name(card: Card, letters: str) -> str:
    """``Qd`` → "D♦" with French letters (the default), "Q♦" with English ones."""
    faces = FRENCH_FACE_LETTERS if letters == "french" else ENGLISH_FACE_LETTERS
    rank = faces.get(card.rank) or ("A" if card.rank == 1 else str(card.rank))
    return rank + SUIT_SYMBOLS.get(card.suit, card.suit)


def describe_move(move: Move, letters: str) -> str:
    """A Pyramid move as a hint says it: "turn the stock", "D♦ + A♠"."""
    if move.kind == "draw":
        return "turn the stock"
    if move.kind == "redeal":
        return "redeal the stock"
    return " + ".join(card_name(card, letters) for card in move.cards)


def describe_level(level: str) -> str:
    """The statistics heading of the duel against the computer at ``level``."""
    return f"Pyramids against the {level} computer"


def describe_variant(game: str, variant: str) -> str:
    """A statistics heading: "retrohub/one" → "Pyramid, one redeal"; "good" → "Pyramids against …"; a network match names the opponent."""
    from pyramid.saved.stats import NETWORK_GAME, PyramidVariant  # loaded with the statistics, not before the menu

    if game == "pyramids":
        return describe_level(variant)
    if game == NETWORK_GAME:
        return f"Pyramids against {variant} on the network"
    parsed = PyramidVariant.parse(variant)
    if parsed is None:
        return PRESETS[variant].title if variant in PRESETS else variant
    title = PRESETS[parsed.preset].title if parsed.preset in PRESETS else parsed.preset
    return f"{title}, {REDEALS_SAID[parsed.redeals_word]}"
