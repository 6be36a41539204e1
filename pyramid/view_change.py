"""What happened between two views, worked out once a frame for the motion and the sound.

The views are plain data (:mod:`pyramid.view`); what changed between two of them — the cards that
left, a card drawn or laid, a redeal, a deal, a pick, and the session's new cue — is read here from
the views alone, so every game gets the same motion and sound without telling them. The frontend
works it out once for each view shown and hands the same :class:`ViewChange` to the animator and
to the sound (issue 48: both worked it out, twice a frame, from the most complex function of the
project).
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import NamedTuple

from pyramid.engine.cards import Card
from pyramid.view import Feedback, TableView, Target, View


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
    if old is None or not _same_deal(old, new):
        return TableChange(dealt=fresh)
    if fresh and None in old.pyramid:
        return TableChange(dealt=True)
    redealt = new.stock_count > old.stock_count
    drawn = new.waste[-1] if new.stock_count < old.stock_count and _new_top(old, new) else None
    removed = _removed(old, new, redealt)
    picked = new.chosen is not None and new.chosen != old.chosen and not removed
    return TableChange(removed, drawn, _laid(old, new), redealt and not drawn, False, picked)


def _same_deal(old: TableView, new: TableView) -> bool:
    """The same table: as many rows, and a card of the pyramid where it lay before."""
    return old.rows == new.rows and any(a is not None and a == b for a, b in zip(old.pyramid, new.pyramid))


def _new_top(old: TableView, new: TableView) -> bool:
    """The waste has a top card it did not have before."""
    return bool(new.waste) and new.waste[-1:] != old.waste[-1:]


def _removed(old: TableView, new: TableView, redealt: bool) -> tuple[tuple[Target, Card], ...]:
    """The cards shown before and nowhere after, with their places (the waste top and the face-up
    stock card count unless the waste went back into the stock)."""
    shown_after = {card for card in (*new.pyramid, *new.waste, new.stock_face_up) if card is not None}
    removed: list[tuple[Target, Card]] = [
        (index, card) for index, card in enumerate(old.pyramid) if card is not None and card not in shown_after]
    if redealt:
        return tuple(removed)
    if old.waste and old.waste[-1] not in shown_after:
        removed.append(("waste", old.waste[-1]))
    if old.stock_face_up is not None and old.stock_face_up not in shown_after:
        removed.append(("stock", old.stock_face_up))
    return tuple(removed)


def _laid(old: TableView, new: TableView) -> tuple[Target, Card] | None:
    """A pyramid card now on top of the waste (the duel's pile), with the place it left."""
    if not _new_top(old, new):
        return None
    top = new.waste[-1]
    left = next((index for index, card in enumerate(old.pyramid) if card == top), None)
    return (left, top) if left is not None and new.pyramid[left] is None else None


class ViewChange(NamedTuple):
    """Going from ``before`` to ``after``: what the cards did, and the session's cue, if it is new."""

    before: View | None
    after: View
    cards: TableChange
    #: The cue of ``after`` when it is new (``None``: no cue, or the same as before's).
    feedback: Feedback | None


def view_change(before: View | None, after: View) -> ViewChange:
    """The change from ``before`` (``None``: nothing was shown) to ``after``."""
    feedback = after.feedback if before is None or after.feedback != before.feedback else None
    return ViewChange(before, after, table_change(before, after), feedback)
