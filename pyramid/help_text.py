"""The "Rules & controls" pages, as plain text the renderer lays out.

Kept apart from the flow so the wording can change without touching logic.
"""

from __future__ import annotations

from .rules import Rules

Sections = tuple[tuple[str, tuple[str, ...]], ...]

CONTROLS: tuple[str, ...] = (
    "◀ ▶  previous / next target;  ▲ ▼  row above / below",
    "✓  pick what is aimed at (Space, Enter, OK, A)",
    "Back  cancel the chosen card, else leave",
    "✱  leave the game (Esc, *, Home)",
    "Touch or click a card, the stock or a menu line to pick it",
)


def pyramid_help(rules: Rules) -> Sections:
    """Rules and controls of Pyramid under ``rules``."""
    target = rules.target
    top = "king" if rules.deck_name == "standard" else "king (12)"
    goal = "all the cards, stock included" if rules.goal == "all" else f"the {rules.pyramid_size} pyramid cards"
    return (
        ("Goal", (f"Clear {goal}.",)),
        ("Pairs", (
            f"Two uncovered cards that make {target} leave together; a {top} leaves alone.",
            "A card is uncovered when both cards over it are gone.",
            "The top card of the waste pairs like a pyramid card.",
        )),
        ("Stock", (
            "✓ on the stock turns its top card onto the waste.",
            "A redeal turns the waste over; the cards come back in drawing order.",
        )),
        ("Points", ("5 per row from the base (top card 35, whole pyramid 420); a waste card 5.",)),
        ("Controls", CONTROLS),
    )
