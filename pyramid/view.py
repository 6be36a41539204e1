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


@dataclass(frozen=True, slots=True)
class MonthHit:
    """A tap on the calendar's ◀ (``step`` -1: the month before) or ▶ (+1: the month after)."""

    step: int


#: What a tap landed on: a table target, a menu/panel line (a calendar's day), a calendar's arrow, or nothing.
Hit = Union[int, Literal["stock", "waste", "joker"], MenuHit, MonthHit, None]


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


#: How the daily deal of a calendar's day went under the variant shown: ``"closed"`` cannot be played (a
#: day to come, or more than a year ago), ``"open"`` not played yet, ``"played"`` not won unaided,
#: ``"won"``, ``"par"`` won in its par's moves or fewer, ``"best"`` its best score reached.
DayMark = Literal["closed", "open", "played", "won", "par", "best"]


class CalendarDay(NamedTuple):
    """One day of the calendar: its number in the month and its mark."""

    number: int
    mark: DayMark


class CalendarView(NamedTuple):
    """A month of the daily deals: seven columns, Monday first; ``selected`` indexes ``days``.

    ``detail`` says in words how the selected day went (the marks are signs); ``footer`` is drawn on
    the status line; ``earlier`` and ``later`` say whether ◀ and ▶ lead to another month.
    """

    title: str
    weekdays: tuple[str, ...]
    first_column: int
    days: tuple[CalendarDay, ...]
    selected: int
    detail: str
    footer: str = ""
    earlier: bool = False
    later: bool = False


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
    #: How many of the waste's top cards show whole: the rules' draw count (King Tut's three, fanned).
    fanned: int = 1


#: What just happened that the cards alone do not say: a wrong pair (refused), a scoring
#: removal (its points rise from it), a won or a lost game. Cards that moved, were drawn or
#: dealt are read from the difference between two views (:func:`table_change`).
Cue = Literal["pair", "wrong", "win", "lose"]


class Feedback(NamedTuple):
    """The latest cue of the session. ``serial`` grows with every cue, so two equal cues in a
    row are two events, and a view drawn again with the same feedback replays nothing."""

    cue: Cue
    serial: int
    #: Where it happened: the refused pair, the cards a pair removed (where they lay).
    targets: tuple[Target, ...] = ()
    #: The points a scoring removal made ("+N"); 0 when it scored nothing.
    points: int = 0
    #: A bonus won with it, worded ("+150 row": a row emptied under Microsoft's scoring); "" for none.
    bonus: str = ""


class View(NamedTuple):
    """Everything one frame shows. Exactly one of menu / text / calendar is set, or the table."""

    screen: str
    table: TableView | None = None
    menu: MenuView | None = None
    panel: PanelView | None = None
    text: TextView | None = None
    calendar: CalendarView | None = None
    notice: str = ""
    letters: CardLetters = "english"
    four_colour: bool = False
    #: The player's TV safe area in percent; ``None`` leaves it to the display.
    safe_area: int | None = None
    #: The session's latest cue, for motion and sound (``None`` until the first one).
    feedback: Feedback | None = None


class TableChange(NamedTuple):
    """What happened on the felt between two views, as motion and sound need it."""

    #: Cards that left the table, each with the place it lay in before.
    removed: tuple[tuple[Target, Card], ...] = ()
    #: The card a draw turned onto the waste (from the stock).
    drawn: Card | None = None
    #: A pyramid card laid onto the waste (the duel's pile), with the place it left.
    laid: tuple[Target, Card] | None = None
    #: The waste went back into the stock.
    redealt: bool = False
    #: A fresh deal appeared (a new game, or a table coming on screen).
    dealt: bool = False
    #: A card was chosen (the first of a pair).
    picked: bool = False

    @property
    def anything(self) -> bool:
        return bool(self.removed) or self.drawn is not None or self.laid is not None or self.redealt \
            or self.dealt or self.picked


def table_change(before: View | None, after: View) -> TableChange:
    """What changed on the table from ``before`` to ``after`` (nothing when either has no table).

    Read from the cards alone, so every game (Pyramid, the duel, a network match)
    gets the same motion and sound without telling them: a card visible before and
    nowhere after was removed, unless the stock grew (a redeal, or an undone draw);
    a new waste top while the stock shrank was drawn; a full pyramid on an empty waste
    was dealt when the table before was another (no table, another size, no card
    where it lies now) or had fewer cards (a deal retried; an undone first removal
    looks the same, and is dealt again).
    """
    new = after.table
    if new is None:
        return TableChange()
    old = before.table if before is not None else None
    fresh = not new.waste and all(card is not None for card in new.pyramid)
    if old is None or old.rows != new.rows or not any(
            a is not None and a == b for a, b in zip(old.pyramid, new.pyramid)):
        return TableChange(dealt=fresh)
    if fresh and None in old.pyramid:
        return TableChange(dealt=True)
    redealt = new.stock_count > old.stock_count
    drawn = new.waste[-1] if new.stock_count < old.stock_count and new.waste and new.waste[-1:] != old.waste[-1:] \
        else None
    shown_after = {card for card in (*new.pyramid, *new.waste, new.stock_face_up) if card is not None}
    removed: list[tuple[Target, Card]] = [
        (index, card) for index, card in enumerate(old.pyramid) if card is not None and card not in shown_after]
    if old.waste and old.waste[-1] not in shown_after and not redealt:
        removed.append(("waste", old.waste[-1]))
    if old.stock_face_up is not None and old.stock_face_up not in shown_after and not redealt:
        removed.append(("stock", old.stock_face_up))
    top = new.waste[-1] if new.waste and new.waste[-1:] != old.waste[-1:] else None
    left = next((index for index, card in enumerate(old.pyramid) if top is not None and card == top), None)
    laid: tuple[Target, Card] | None = None
    if left is not None and top is not None and new.pyramid[left] is None:
        laid = (left, top)
    picked = new.chosen is not None and new.chosen != old.chosen and not removed
    return TableChange(tuple(removed), drawn, laid, redealt and not drawn, False, picked)

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
