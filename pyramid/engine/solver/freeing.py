"""The pyramid cards a stock or waste card can take, each with the removals inside the pyramid that free it.

See docs/solver.md ("Removals inside the pyramid, put off").
"""

from __future__ import annotations

from typing import NamedTuple

from pyramid.engine.solver.position import STOCK_ID, Position, set_bits, uncovered_mask


class Freed(NamedTuple):
    """What a stock or waste card can take from one pyramid: ``after[rank]``, the pyramids left once it
    took a card of that rank (made uncovered by removals inside the pyramid first, or uncovered already);
    ``clears``: the pyramid's own removals can clear it; ``cards``: the pyramid cards that can be taken."""

    after: dict[int, tuple[int, ...]]
    clears: bool
    cards: int


class Freeing:
    """The pyramid cards a stock or waste card can take, each after the removals inside the pyramid that free it.

    A removal inside the pyramid (two of its cards, or a king) waits for
    nothing in the stock or the waste, and nothing there waits for it but a
    card it uncovers. So in any line it can be put off until just before the
    move that takes a card it uncovers (however many removals on), or to the
    end: a line with every such removal put off plays the same cards and ends
    in the same place. The searches by excursions of
    :class:`~pyramid.engine.solver.two_passes.TwoPasses` make such removals
    only there (the depth-first verdict search too): a stock or waste card takes pyramid card p "after the
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
        cards = 0
        for here in order:
            for bit in set_bits(uncovered_mask(here) & ~put_off[here] & ~kings_mask):
                taken.setdefault(pos.rank[bit], []).append(here & ~(1 << bit))
                cards |= 1 << bit
        return Freed({rank: tuple(after) for rank, after in taken.items()}, 0 in put_off, cards)


def removals_inside(pos: Position, pm: int) -> list[tuple[int, ...]]:
    """The removals inside pyramid ``pm`` legal now: its uncovered kings, then its pairs (overlap pairs too)."""
    uncovered = uncovered_mask(pm)
    kings: list[tuple[int, ...]] = [(bit,) for bit in set_bits(uncovered & pos.rank_mask[pos.target])]
    return kings + pos.pyramid_removals(pm, uncovered)


def removals_first(pos: Position, pm: int, line: list[int | tuple[int, ...]]) -> list[int | tuple[int, ...]]:
    """``line`` (tokens from pyramid ``pm`` on) with each removal inside the pyramid made as early as
    it can be: just after the move that makes it legal (both its cards uncovered, or with the overlap
    rule one covered only by the other).

    The searches put such removals off (see :class:`Freeing`), so their lines would draw past pairs a
    player sees at once; brought forward, the line plays the same cards and ends in the same place
    (nothing between them used those cards), and the hint offers the pair first, as a player would.
    Where the goal is the pyramid, the line stops once the pyramid is cleared.
    """
    pending = [token for token in line if isinstance(token, tuple) and max(token) < STOCK_ID]
    early: list[int | tuple[int, ...]] = []

    def make_ready_removals(pm: int) -> int:
        made = True
        while made:
            made = False
            legal = {frozenset(removal) for removal in removals_inside(pos, pm)}
            for token in pending:
                if frozenset(token) in legal:
                    early.append(token)
                    pending.remove(token)
                    pm &= ~sum(1 << card for card in token)
                    made = True
                    break
        return pm

    pm = make_ready_removals(pm)
    for token in line:
        if pm == 0 and not pos.goal_all:
            break
        if isinstance(token, tuple):
            if max(token) < STOCK_ID:
                continue  # made already: its cards were uncovered no later than here
            pm &= ~sum(1 << card for card in token if card < STOCK_ID)
        early.append(token)
        pm = make_ready_removals(pm)
    assert not pending, "a removal inside the pyramid whose cards the line never uncovers"
    return early
