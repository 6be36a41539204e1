"""The pyramid of cards both games are played on: its geometry and what is uncovered.

Pyramid (:mod:`pyramid.board`) and the Pyramids duel (:mod:`pyramid.duel`)
deal the same pyramid and share the covering rule, so both boards derive from
:class:`Tableau` instead of each carrying a copy.

Positions are indices 0 … n-1, row by row from the top, left to right; row
``r`` (0 = top) has ``r + 1`` cards and starts at ``r*(r+1)/2``. Card
``(r, c)`` is covered by ``(r+1, c)`` and ``(r+1, c+1)``.
"""

from __future__ import annotations

from functools import lru_cache

from pyramid.engine.cards import Card

Places = tuple[tuple[int, int], ...]


@lru_cache(maxsize=None)
def pyramid_geometry(rows: int) -> tuple[Places, tuple[tuple[int, ...], ...]]:
    """For a pyramid of ``rows`` rows: (row, column) of each index, and the indices covering it."""
    places = tuple((r, c) for r in range(rows) for c in range(r + 1))

    def index(r: int, c: int) -> int:
        return r * (r + 1) // 2 + c

    covers = tuple((index(r + 1, c), index(r + 1, c + 1)) if r + 1 < rows else () for r, c in places)
    return places, covers


class Tableau:
    """A pyramid of ``rows`` rows whose removed cards are ``None``."""

    pyramid: list[Card | None]

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.places, self._covers = pyramid_geometry(rows)

    def row_of(self, index: int) -> int:
        return self.places[index][0]

    def covering(self, index: int) -> tuple[int, ...]:
        """The indices of the (at most two) places covering ``index``."""
        return self._covers[index]

    def is_uncovered(self, index: int) -> bool:
        """A pyramid card is uncovered when both cards covering it are gone."""
        return all(self.pyramid[i] is None for i in self._covers[index])

    def uncovered_indices(self) -> list[int]:
        """Indices of the pyramid cards that are present and uncovered."""
        return [i for i, card in enumerate(self.pyramid) if card is not None and self.is_uncovered(i)]

    def uncovered_cards(self) -> list[Card]:
        return [card for card in (self.pyramid[i] for i in self.uncovered_indices()) if card is not None]

    def index_of(self, card: Card) -> int | None:
        try:
            return self.pyramid.index(card)
        except ValueError:
            return None

    def pyramid_rows(self) -> list[list[Card | None]]:
        """The pyramid row by row, top first (the scripted mode's ``pyramid``)."""
        return [self.pyramid[r * (r + 1) // 2 : (r + 1) * (r + 2) // 2] for r in range(self.rows)]
