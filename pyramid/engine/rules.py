"""Rules as data: one immutable :class:`Rules` value per preset.

The board reads every rule from here, so a variant is a different ``Rules``
value, never a copy of the move logic. :data:`PRESETS` holds the variants of
docs/rules.md, "Variants" by name; ``redeals`` in a preset is its default, which the console's
"Redeal the stock?" question or ``--redeals`` may override (``with_redeals``).

Scoring: ``retrohub`` counts 5 points per row from the base for each pyramid
card (docs/rules.md, "Pyramid"); ``cards_left`` scores nothing while playing and the result is
the number of pyramid cards left (0 is perfect); ``msc`` scores as Microsoft Solitaire
Collection's Pyramid does: 5 points per removal (a pair or a king) plus a bonus for each pyramid
row emptied, by its height from the base up (:data:`MSC_ROW_BONUSES`), and
:data:`MSC_PYRAMID_BONUS` for the top card, which clears the pyramid; a perfect game (the whole
deck removed, the pyramid last) scores 1,290. Microsoft publishes no table: the values are those
of the public solver that plays its score challenges (mchung94/solitaire-player,
``ScoreChallengeSolver``), which docs/rules.md cites.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import Literal, NamedTuple

from pyramid.engine.cards import DECKS, Deck
from pyramid.engine.errors import UnknownPresetError

Goal = Literal["pyramid", "all"]
Scoring = Literal["retrohub", "cards_left", "msc"]

#: Microsoft's points (see the module docstring): a removal, each row emptied from the base up
#: (a pyramid of more rows scores its higher rows as the last of these), and the top card.
MSC_REMOVAL_POINTS = 5
MSC_ROW_BONUSES = (25, 50, 75, 100, 150, 250)
MSC_PYRAMID_BONUS = 500

#: The redeal choices offered by the console and the command line.
REDEAL_CHOICES: dict[str, int | None] = {"none": 0, "one": 1, "two": 2, "unlimited": None}


class Redeals(NamedTuple):
    """A redeal allowance chosen for one game (``--redeals``): ``allowance`` redeals, ``None`` = unlimited."""

    allowance: int | None


class Rules(NamedTuple):
    """Everything that distinguishes one Pyramid variant from another.

    ``redeals`` is the number of times the waste may be turned over into a new
    stock (``None`` = unlimited). ``stock_top_playable`` makes the top card of
    the stock face up and playable (Microsoft's rules, and the "card just
    drawn" of the classic rules). ``overlap`` allows removing a card together
    with the one card covering it. ``goal`` says what must be cleared to win.
    ``asks_redeals``: the player chooses the redeal allowance before each deal
    ("Redeal the stock?", RetroHub's rules); other presets deal at once with
    their own ``redeals``.
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
    asks_redeals: bool = False

    @property
    def deck(self) -> Deck:
        return DECKS[self.deck_name]

    @property
    def pyramid_size(self) -> int:
        return self.rows * (self.rows + 1) // 2

    def with_redeals(self, redeals: int | None) -> "Rules":
        """The same rules with another redeal allowance."""
        return self._replace(redeals=redeals)


RETROHUB = Rules(asks_redeals=True)

#: The Wikipedia rules: the card just drawn (the stock top) and the waste top
#: both play, one pass, and only a table emptied of all 52 cards wins.
CLASSIC = Rules(
    name="classic", title="Classic", stock_top_playable=True, goal="all", scoring="cards_left"
)
PAR = CLASSIC._replace(name="par", title="Par Pyramid", redeals=2)
#: Classic play where clearing the pyramid alone wins.
RELAXED = CLASSIC._replace(name="relaxed", title="Relaxed", goal="pyramid")
#: Microsoft Solitaire Collection: the rules of ``data/msc-1500``.
THREE_PASS = Rules(
    name="three-pass", title="Three passes", redeals=2, stock_top_playable=True, scoring="msc"
)
KING_TUT = Rules(
    name="king-tut", title="King Tut", redeals=None, draw_count=3, scoring="cards_left"
)
# The last three change one thing each in the Relaxed game (Wikipedia's
# variations of its own rules), so their wins stay common enough to enjoy.
OVERLAP = RELAXED._replace(name="overlap", title="Overlap", overlap=True)
SIX_ROWS = RELAXED._replace(name="six-rows", title="Six rows", rows=6)
SPANISH = RELAXED._replace(name="spanish", title="Spanish deck", deck_name="spanish", target=12)

PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (RETROHUB, CLASSIC, PAR, RELAXED, THREE_PASS, KING_TUT, OVERLAP, SIX_ROWS, SPANISH)
}


def preset(name: str) -> Rules:
    """The preset called ``name``; :class:`UnknownPresetError` lists the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPresetError(f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})") from None


def format_redeals(redeals: int | None) -> str:
    """``None`` → ``"unlimited"``, 0 → ``"none"``, 1 → ``"one"`` …"""
    for word, value in REDEAL_CHOICES.items():
        if value == redeals:
            return word
    return str(redeals)
