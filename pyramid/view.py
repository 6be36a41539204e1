"""What the screen shows: a read-only picture of the session, for renderers.

The session builds a :class:`View` after every action; a renderer draws it
and never changes it. A view is plain immutable data, so "did anything change?"
is a simple ``!=`` and redraw-on-change needs no bookkeeping elsewhere. The
view types are named tuples rather than frozen dataclasses because they are
defined before the first frame: a frozen dataclass costs about 0.3 ms to
define here (some 3 ms on a Pi Zero 2), a named tuple a seventh of that.

Targets name the places the cursor can land on: a pyramid index (``int``),
``"stock"`` (the stock, or its hollow when a redeal is left), ``"waste"``
(the waste top) or ``"joker"`` (the Pyramids joker, beside the stock). A tap
is turned into a :data:`Hit` by the renderer's layout (the only part that
knows where things are drawn) and given back to the session.
"""

# Annotations are evaluated, not postponed: with postponed ones typing.NamedTuple compiles
# every field's annotation string, which doubles the cost of defining the tuples at start-up.

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple, Union

from pyramid.engine.cards import Card, CardLetters

#: The smallest and largest screens the layout supports (``--size`` and the settings file):
#: pygame fails, or takes gigabytes, far beyond them.
SIZE_LIMITS = ((200, 200), (7680, 4320))

Target = Union[int, Literal["stock", "waste", "joker"]]

#: The Pyramids joker: still to play, lying armed on the pile, or used this round.
JokerState = Literal["available", "armed", "spent"]


@dataclass(frozen=True, slots=True)
class MenuHit:
    """A tap on line ``index`` of the menu or panel on screen."""

    index: int


#: What a tap landed on: a table target, a menu/panel line, or nothing.
Hit = Union[int, Literal["stock", "waste", "joker"], MenuHit, None]


class MenuView(NamedTuple):
    """A full-screen list to choose from (main menu, redeal choice, …)."""

    title: str
    items: tuple[str, ...]
    selected: int
    footer: str = ""


class PanelView(NamedTuple):
    """A panel drawn over the table (end of game, assists, messages).

    ``items`` are choices (▲ ▼ ✓ or a tap); with no items any ✓ closes it.
    """

    title: str
    lines: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    selected: int = 0


class TextView(NamedTuple):
    """A page of text (rules and controls), left with ✓, Back or ✱.

    ``footer`` is drawn on the status line (e.g. "◀ ▶ page 1 of 3").
    """

    title: str
    sections: tuple[tuple[str, tuple[str, ...]], ...]
    footer: str = ""


class TableView(NamedTuple):
    """The cards on the felt, as the player sees them."""

    rows: int
    pyramid: tuple[Card | None, ...]
    stock_count: int
    stock_face_up: Card | None
    waste: tuple[Card, ...]
    #: Beside the stock: what is left of it ("1 redeal left", "No redeal left", "20 cards · ∞ redeals").
    stock_label: str
    hollow: bool
    score_label: str
    chosen: Target | None
    cursor: Target | None
    title: str = ""
    status_line: str = ""
    #: Targets of the move a hint suggests, drawn highlighted until the next move.
    hint: tuple[Target, ...] = ()
    #: The Pyramids joker beside the stock (``None`` in games without one).
    joker: JokerState | None = None
    #: A second line under the title (the duel's sequence counter).
    detail: str = ""


class View(NamedTuple):
    """Everything one frame shows. Exactly one of menu / text is set, or the table."""

    screen: str
    table: TableView | None = None
    menu: MenuView | None = None
    panel: PanelView | None = None
    text: TextView | None = None
    notice: str = ""
    letters: CardLetters = "french"
    four_colour: bool = False
    #: The player's TV safe area in percent; ``None`` leaves it to the display.
    safe_area: int | None = None


def parse_size(text: str, name: str = "size") -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``; ``ValueError`` naming ``name`` and quoting ``text`` otherwise."""
    match = re.fullmatch(r"\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*", text)
    if not match:
        raise ValueError(f"invalid {name} {text!r}: expected WIDTHxHEIGHT, e.g. '800x480'")
    return check_size(text, int(match.group(1)), int(match.group(2)), name)


def check_size(given: object, width: int, height: int, name: str = "size") -> tuple[int, int]:
    """(``width``, ``height``) within :data:`SIZE_LIMITS`; ``ValueError`` quoting ``given`` otherwise."""
    (min_w, min_h), (max_w, max_h) = SIZE_LIMITS
    if not (min_w <= width <= max_w and min_h <= height <= max_h):
        raise ValueError(f"invalid {name} {given!r}: between {min_w}x{min_h} and {max_w}x{max_h}")
    return (width, height)
