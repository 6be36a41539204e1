"""The "Rules & controls" pages, as plain text the renderer lays out.

Kept apart from the flow so the wording can change without touching logic.
"""

from __future__ import annotations

import math

from pyramid.engine.rules import MSC_PYRAMID_BONUS, MSC_REMOVAL_POINTS, MSC_ROW_BONUS, Rules

Sections = tuple[tuple[str, tuple[str, ...]], ...]

#: How much text one page holds, in lines of about :data:`LINE_CHARACTERS` characters: what
#: a 320x240 screen shows at a legible size. Bigger screens show the same pages, larger.
PAGE_LINES = 8
LINE_CHARACTERS = 45

CONTROLS: tuple[str, ...] = (
    "◀ ▶  previous / next target;  ▲ ▼  row above / below",
    "✓  pick what is aimed at (Space, Enter, OK, A)",
    "Back  cancel the chosen card, else leave",
    "✱  leave the game (Esc, *, Home)",
    "Touch or click to pick; undo: U or hold Back; hint: H",
)


REDEALS = {
    0: "No redeal: the stock goes round once.",
    1: "One redeal: the waste turns over into a new stock once, in drawing order.",
    2: "Redeals: the waste turns over into a new stock twice, in drawing order.",
    None: "Unlimited redeals: the waste turns over into a new stock, in drawing order.",
}
POINTS = {
    "retrohub": "5 per row from the base (top card 35, whole pyramid 420); a waste card 5.",
    "cards_left": "The score is the number of pyramid cards left: 0 is perfect.",
    "msc": (f"{MSC_REMOVAL_POINTS} per pair or king, {MSC_ROW_BONUS} for each row emptied,"
            f" {MSC_PYRAMID_BONUS} for the top card."),
}


def pyramid_help(rules: Rules) -> Sections:
    """Rules and controls of Pyramid under ``rules``: every sentence follows the rules object."""
    top = "king" if rules.deck_name == "standard" else "king (12)"
    goal = "all the cards, stock included" if rules.goal == "all" else f"the {rules.pyramid_size} pyramid cards"
    pairs = [f"Two uncovered cards that make {rules.target} leave together; a {top} leaves alone.",
             "A card is uncovered when both cards over it are gone."]
    if rules.overlap:
        pairs.append("A card may also leave with the one card still covering it, if nothing else covers either.")
    if rules.stock_top_playable:
        pairs.append("The top cards of the stock and of the waste pair like pyramid cards.")
    else:
        pairs.append("The top card of the waste pairs like a pyramid card.")
    turned = "three cards" if rules.draw_count == 3 else "its top card"
    stock = (f"✓ on the stock turns {turned} onto the waste.", REDEALS.get(rules.redeals, REDEALS[2]))
    return (
        ("Goal", (f"Clear {goal}.",)),
        ("Pairs", tuple(pairs)),
        ("Stock", stock),
        ("Points", (POINTS[rules.scoring],)),
        ("Controls", CONTROLS),
    )


def paginate(sections: Sections) -> tuple[Sections, ...]:
    """Split ``sections`` into pages of at most :data:`PAGE_LINES` estimated lines.

    Sections are never split (a heading stays with its text); one longer than a
    page gets a page of its own.
    """
    pages: list[list[tuple[str, tuple[str, ...]]]] = [[]]
    used = 0
    for heading, paragraphs in sections:
        lines = sum(math.ceil(len(text) / LINE_CHARACTERS) for text in paragraphs)
        if pages[-1] and used + lines > PAGE_LINES:
            pages.append([])
            used = 0
        pages[-1].append((heading, paragraphs))
        used += lines
    return tuple(tuple(page) for page in pages)
