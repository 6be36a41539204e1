"""Cursor navigation over the places that can be played (docs/rules.md, "Pyramid").

The cursor only lands on targets: the stock (or its hollow), the waste top and
the uncovered pyramid cards. Each target gets a position on an abstract grid —
pyramid card (row r, column c) sits at ``(r, c - r/2)`` so that rows are
centred as on screen; the stock sits left of the top row and the waste left of
the second row, as they are drawn, and the Pyramids joker just right of the
stock. ◀ ▶ step through the targets in reading order, ▲ ▼ go to the nearest
row above / below that has a target and pick the target nearest horizontally.
"""

from __future__ import annotations

from typing import Sequence

from pyramid.actions import Kind
from pyramid.view import Target

STOCK_POINT = (0.0, -6.0)
WASTE_POINT = (1.0, -6.0)
JOKER_POINT = (0.0, -5.0)


def target_point(target: Target, places: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """(y, x) of a target on the abstract grid."""
    if target == "stock":
        return STOCK_POINT
    if target == "waste":
        return WASTE_POINT
    if target == "joker":
        return JOKER_POINT
    row, column = places[target]
    return (float(row), column - row / 2)


def ordered(targets: Sequence[Target], places: Sequence[tuple[int, int]]) -> list[Target]:
    """Targets in reading order: top to bottom, left to right."""
    return sorted(targets, key=lambda t: target_point(t, places))


def step(targets: Sequence[Target], current: Target | None, direction: Kind,
         places: Sequence[tuple[int, int]]) -> Target | None:
    """Where the cursor goes from ``current`` when the arrow ``direction`` is pressed.

    ◀ ▶ wrap around the reading order; ▲ ▼ stay put when there is no row
    further that way.
    """
    if not targets:
        return None
    if current is None or current not in targets:
        return nearest(targets, current, places)
    if direction in (Kind.LEFT, Kind.RIGHT):
        order = ordered(targets, places)
        delta = 1 if direction is Kind.RIGHT else -1
        return order[(order.index(current) + delta) % len(order)]
    y, x = target_point(current, places)
    rows = sorted({target_point(t, places)[0] for t in targets})
    further = [r for r in rows if (r < y if direction is Kind.UP else r > y)]
    if not further:
        return current
    row_y = further[-1] if direction is Kind.UP else further[0]
    in_row = [t for t in targets if target_point(t, places)[0] == row_y]
    return min(in_row, key=lambda t: (abs(target_point(t, places)[1] - x), target_point(t, places)[1]))


def nearest(targets: Sequence[Target], previous: Target | None,
            places: Sequence[tuple[int, int]]) -> Target | None:
    """The target closest to where the cursor was (after the old one vanished).

    With no previous place (a new deal) it is the leftmost card of the lowest
    row: the base row is always open, so that is where play starts.
    """
    if not targets:
        return None
    if previous is None:
        bottom = max(target_point(t, places)[0] for t in targets)
        return min((t for t in targets if target_point(t, places)[0] == bottom),
                   key=lambda t: target_point(t, places)[1])
    if previous in targets:
        return previous
    y, x = target_point(previous, places)
    def distance(t: Target) -> tuple[float, float]:
        ty, tx = target_point(t, places)
        return ((ty - y) ** 2 + (tx - x) ** 2, tx)
    return min(targets, key=distance)
