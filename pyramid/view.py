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

from dataclasses import dataclass
from typing import Literal, NamedTuple, Union

from pyramid.engine.cards import Card, CardLetters

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
#: dealt are read from the difference between two views (:func:`pyramid.view_change.table_change`).
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
