"""The pyramid cards a stock or waste card can take, each with the removals inside the pyramid that free it.

See docs/solver.md ("Removals inside the pyramid, put off").
"""

from __future__ import annotations

from typing import NamedTuple

from pyramid.engine.solver.position import Position, set_bits, uncovered_mask


class Freed(NamedTuple):
    """What a stock or waste card can take from one pyramid: ``after[rank]``, the pyramids left once it
    took a card of that rank (made uncovered by removals inside the pyramid first, or uncovered already);
    ``clears``: the pyramid's own removals can clear it."""

    after: dict[int, tuple[int, ...]]
    clears: bool


class Freeing:
    """The pyramid cards a stock or waste card can take, each after the removals inside the pyramid that free it.

    A removal inside the pyramid (two of its cards, or a king) waits for
    nothing in the stock or the waste, and nothing there waits for it but a
    card it uncovers. So in any line it can be put off until just before the
    move that takes a card it uncovers (however many removals on), or to the
    end: a line with every such removal put off plays the same cards and ends
    in the same place. The searches by excursions of
    :class:`~pyramid.engine.solver.two_passes.TwoPasses` make such removals
    only there: a stock or waste card takes pyramid card p "after the
    removals that free p", in each pyramid below (reached by removals inside
    it) where p is uncovered and no removal reaching it could have been put
    off (p was not uncovered before the last one). Their excursions then meet
    a handful of pyramids, not every pyramid the removals inside it reach,
    each times every node of the stocks: Classic with one redeal, reference
    deal 85, 71 to 28 ms compiled (docs/solver.md has the table).

    Uncovered kings leave at once, as everywhere (they only uncover cards).
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.known: dict[int, Freed] = {}

    def of(self, pm: int) -> Freed:
        """What a card can take from ``pm`` (cached: a search asks of a few thousand pyramids)."""
        known = self.known.get(pm)
        if known is None:
            known = self.known[pm] = self._list(pm)
        return known

    def _list(self, pm: int) -> Freed:
        pos = self.pos
        kings_mask = pos.rank_mask[pos.target]
        # Every pyramid below pm, and its cards that a removal reaching it left uncovered already.
        put_off = {pm: 0}
        order = [pm]
        for here in order:
            uncovered = uncovered_mask(here)
            kings = uncovered & kings_mask
            if kings:
                below = [here & ~(kings & -kings)]
            else:
                below = [here & ~sum(1 << bit for bit in removal) for removal in pos.pyramid_removals(here, uncovered)]
            for after in below:
                if after not in put_off:
                    put_off[after] = 0
                    order.append(after)
                put_off[after] |= uncovered & after
        taken: dict[int, list[int]] = {}
        for here in order:
            for bit in set_bits(uncovered_mask(here) & ~put_off[here] & ~kings_mask):
                taken.setdefault(pos.rank[bit], []).append(here & ~(1 << bit))
        return Freed({rank: tuple(after) for rank, after in taken.items()}, 0 in put_off)
