"""The "Rules & controls" pages, as plain text the renderer lays out.

Kept apart from the flow so the wording can change without touching logic.
"""

from __future__ import annotations

import math

from pyramid.console.catalogue import say
from pyramid.engine.board import msc_row_bonus
from pyramid.engine.cards import FACE_LETTERS, CardLetters
from pyramid.engine.rules import MSC_PYRAMID_BONUS, MSC_REMOVAL_POINTS, Rules

Sections = tuple[tuple[str, tuple[str, ...]], ...]

#: How much text one page holds, in lines of about :data:`LINE_CHARACTERS` characters: what
#: a 320x240 screen shows at a legible size. Bigger screens show the same pages, larger.
PAGE_LINES = 8
LINE_CHARACTERS = 45

#: The catalogue keys of the control lines, shown on every game's help.
CONTROLS = ("help.controls_aim", "help.controls_pick", "help.controls_back", "help.controls_leave",
            "help.controls_touch")
#: The catalogue key of the stock's sentence for each redeal allowance (``None``: unlimited).
REDEALS = {0: "help.redeals_none", 1: "help.redeals_one", 2: "help.redeals_two", None: "help.redeals_unlimited"}


def controls() -> tuple[str, ...]:
    """The control lines, in the current language."""
    return tuple(say(key) for key in CONTROLS)


def pyramid_help(rules: Rules, letters: CardLetters) -> Sections:
    """Rules and controls of Pyramid under ``rules``: every sentence follows the rules object; the
    cards' values name the court cards by ``letters``, as the cards show them."""
    standard = rules.deck_name == "standard"
    top = say("help.king") if standard else say("help.king_12")
    goal = say("help.goal_all") if rules.goal == "all" else say("help.goal_pyramid", cards=rules.pyramid_size)
    courts = FACE_LETTERS[letters]
    values = (say("help.values", jack=courts[11], queen=courts[12], king=courts[13]) if standard
              else say("help.values_numbers"))
    pairs = [say("help.pairs", target=rules.target, top=top), say("help.uncovered")]
    if rules.overlap:
        pairs.append(say("help.overlap"))
    pairs.append(say("help.stock_top_pairs") if rules.stock_top_playable else say("help.waste_top_pairs"))
    turned = say("help.turns_three") if rules.draw_count == 3 else say("help.turns_one")
    stock = (say("help.stock_turns", turned=turned), say(REDEALS.get(rules.redeals, REDEALS[2])))
    rows = ", ".join(str(msc_row_bonus(rules.rows, row)) for row in range(rules.rows - 1, 0, -1))
    points = say(f"help.points_{rules.scoring}", removal=MSC_REMOVAL_POINTS, rows=rows, top=MSC_PYRAMID_BONUS)
    return (
        (say("help.goal"), (say("help.clear", goal=goal),)),
        (say("help.cards"), (values,)),
        (say("help.pairs_heading"), tuple(pairs)),
        (say("help.stock"), stock),
        (say("help.points"), (points,)),
        (say("help.controls"), controls()),
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
