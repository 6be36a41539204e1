"""Rules as data: one frozen :class:`Rules` object per preset.

The board reads every rule from here, so a variant is a different ``Rules``
value, never a copy of the move logic. Issue-level presets (SPEC §4) are added
to :data:`PRESETS` by name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .cards import DECKS, Deck

Goal = Literal["pyramid", "all"]
Scoring = Literal["retrohub", "cards_left", "msc"]

#: The redeal choices offered by the console and the command line.
REDEAL_CHOICES: dict[str, int | None] = {"none": 0, "one": 1, "two": 2, "unlimited": None}


@dataclass(frozen=True)
class Rules:
    """Everything that distinguishes one Pyramid variant from another.

    ``redeals`` is the number of times the waste may be turned over into a new
    stock (``None`` = unlimited). ``stock_top_playable`` makes the top card of
    the stock face up and playable (Microsoft's rules, and the "card just
    drawn" of the classic rules). ``overlap`` allows removing a card together
    with the one card covering it. ``goal`` says what must be cleared to win.
    """

    name: str = "retrohub"
    title: str = "Pyramid"
    rows: int = 7
    deck_name: str = "standard"
    target: int = 13
    redeals: int | None = 0
    draw_count: int = 1
    stock_top_playable: bool = False
    waste_playable: bool = True
    overlap: bool = False
    goal: Goal = "pyramid"
    scoring: Scoring = "retrohub"

    @property
    def deck(self) -> Deck:
        return DECKS[self.deck_name]

    @property
    def pyramid_size(self) -> int:
        return self.rows * (self.rows + 1) // 2

    def with_redeals(self, redeals: int | None) -> "Rules":
        """The same rules with another redeal allowance."""
        return replace(self, redeals=redeals)


RETROHUB = Rules()

PRESETS: dict[str, Rules] = {RETROHUB.name: RETROHUB}


def preset(name: str) -> Rules:
    """The preset called ``name``; ``KeyError`` lists the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})") from None


def format_redeals(redeals: int | None) -> str:
    """``None`` → ``"unlimited"``, 0 → ``"none"``, 1 → ``"one"`` …"""
    for word, value in REDEAL_CHOICES.items():
        if value == redeals:
            return word
    return str(redeals)
