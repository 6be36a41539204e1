"""Exact verdicts for the last pass with one-card draws, by summaries of waste excursions.

See docs/solver.md ("The last pass by waste excursions").
"""

from __future__ import annotations

from typing import NamedTuple

from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.freeing import Freed, Freeing
from pyramid.engine.solver.position import PYRAMID_BITS, Position, holds_rank, set_bits, uncovered_mask
from pyramid.engine.solver.relaxation import Relaxation


CONSUMED_SHIFT = PYRAMID_BITS


class _PassFrame(NamedTuple):
    """What :meth:`LastPass._search` reads at every state: the stock's ranks (four bits each, its top
    lowest), the stock and waste cards, and by cards consumed and taken, the live cards and stock top."""

    stock: int
    stock_bits: list[int]
    waste_bits: list[int]
    stock_live: list[int]
    waste_live: list[int]
    stock_q: list[int]


class PyramidCleared(Exception):
    """Raised inside the searches by excursions when a line clears the pyramid (goal "pyramid"), or, in
    :class:`TwoPasses`, the whole table before its redeal: the position is won."""


class LastPass:
    """Exact verdicts for the last pass with one-card draws, by summaries of waste excursions.

    In the last pass the stock only ever loses its top, so what is left of it
    is a suffix of the drawing order, and the waste is a stack. A card drawn
    onto the waste either never leaves (then nothing under it ever plays
    again: with goal "pyramid" the waste is as good as empty, a *burial*), or
    leaves later, after every card drawn over it has left: an *excursion*,
    which never touches the waste below. So what an excursion can do depends
    only on the pyramid, the card drawn and the stock after it, never on the
    waste under it, and :meth:`excursion` remembers its outcomes under that
    key: all the ways to play on from a card drawn onto the waste until it
    leaves again. The waste then drops out of the state: the pass is a search
    over (pyramid, stock cards consumed, waste cards of the start still there),
    where the depth-first search over removals keeps every different waste
    apart: Classic's reference deal 97 without redeals, 55,000 positions of
    the depth-first search (550 ms) or 13,000 excursions (60 ms). (It is the
    summary construction for pushdown systems, with the waste as the stack.)

    The outcomes of an excursion are positions ``pyramid | consumed << 56``.
    An excursion drops positions from which its card can no longer leave (no
    partner of it left in the pyramid or, when the stock top plays, in the
    stock; or, when it does not, every partner under a card that could only
    leave with a card of a rank the stock has no more): they can only end in
    a burial, which the caller's search reaches by itself. (That last test
    took RetroHub's hardest losses without redeals from 43 to 27 ms; with a
    playable stock top, where it must let the stock's cards count too, it
    cost more than it saved.)
    """

    def __init__(self, pos: Position, budget: Budget, lost: dict[int, int], relaxation: Relaxation,
                 freeing: Freeing) -> None:
        self.pos = pos
        self.budget = budget
        self.lost = lost
        self.relaxation = relaxation
        self.excursions: dict[int, tuple[int, ...]] = {}
        #: The excursions with the removals inside the pyramid put off (``reduced``, see :meth:`excursion`).
        self.reduced_excursions: dict[int, tuple[int, ...]] = {}
        self.freeing = freeing  # the deal's, shared with the depth-first search (Memory)
        self.moves: dict[int, tuple[int, tuple[int, ...]]] = {}
        #: Cards of each rank in the stock and waste of the position solved: no question asks about more.
        self.supply = [(mask & pos.start_live).bit_count() for mask in pos.stock_rank_mask]
        #: Per pyramid: does it need more cards of some rank than ``supply`` holds?
        self.short: dict[int, bool] = {}
        #: Per pyramid: the cards no card of it can pair with, by the rank they need (see :meth:`_short`).
        self.lonely: dict[int, tuple[tuple[int, int], ...]] = {}
        #: Per stock (as :meth:`excursion` takes it): the ranks it holds, one bit each.
        self.held: dict[int, int] = {}

    def _pyramid_moves(self, pm: int) -> tuple[int, tuple[int, ...]]:
        """The uncovered cards of ``pm``, and the pyramids after one removal inside it (cached).

        An uncovered king leaves alone and at once (it only uncovers cards), so
        then that is the only move.
        """
        pos = self.pos
        uncovered = uncovered_mask(pm)
        kings = uncovered & pos.rank_mask[pos.target]
        if kings:
            after: tuple[int, ...] = (pm & ~(kings & -kings),)
        else:
            after = tuple(pm & ~sum(1 << bit for bit in removal) for removal in pos.pyramid_removals(pm, uncovered))
        moves = self.moves[pm] = (uncovered, after)
        return moves

    def excursion(self, pm: int, card: int, stock: int, reduced: bool = False) -> tuple[int, ...]:
        """Draw a card of rank ``card`` (not a king) onto the waste, play on above it, and remove it.

        ``stock`` holds the ranks of the stock after it, four bits each, its
        top lowest. The outcomes: each position right after the card left, as
        ``pyramid | consumed << 56`` (``consumed``: stock cards drawn or
        removed meanwhile).

        Every position met while the card waits is itself the start of the
        same excursion (the card on top of the waste, a shorter stock), so the
        outcomes are remembered per position: those of the positions one move
        on, shifted by the stock cards that move consumed, and the card's own
        ways of leaving. Excursions started from different pyramids meet in
        the same positions, and each is explored once (Classic's reference
        deal 97 without redeals: 14,000 positions, where exploring each
        excursion on its own visited 108,000).

        ``reduced``: a removal inside the pyramid is made only to free a card
        that the card waiting, or the stock top, then takes (:class:`Freeing`
        says why the others can wait): the outcomes are fewer, and the caller
        makes the others itself (:class:`~pyramid.engine.solver.two_passes.TwoPasses`).
        """
        excursions = self.reduced_excursions if reduced else self.excursions
        card_key, stock_key = card << CONSUMED_SHIFT, stock << (CONSUMED_SHIFT + 4)
        key = pm | card_key | stock_key
        known = excursions.get(key)
        if known is not None:
            return known
        pos = self.pos
        freed = self.freeing.of(pm) if reduced else None
        if (freed.clears if freed is not None else not pm) and not pos.goal_all:
            raise PyramidCleared  # a line of the real game clears the pyramid: the question is answered
        target, rank_mask, stock_top_playable = pos.target, pos.rank_mask, pos.stock_top_playable
        need = target - card
        partners_mask = rank_mask[need]
        if not pm & partners_mask and not (stock_top_playable and holds_rank(stock, need)):
            excursions[key] = ()
            return ()  # the card can never leave: only a burial, which the caller tries
        short = self.short.get(pm)
        if short is None:
            short = self.short[pm] = self._short(pm)
        if short or (not stock_top_playable and self._partners_buried(pm, need, stock)):
            excursions[key] = ()
            return ()  # short of a rank for good, or the card can never leave
        self.budget.tick()
        if freed is not None:
            outcomes: set[int] = set(freed.after.get(need, ()))
            if stock & 15:
                self._stock_top_outcomes(pm, card, stock, 0, outcomes, freed)
            known = excursions[key] = tuple(outcomes)
            return known
        entry = self.moves.get(pm)
        uncovered, smaller = entry if entry is not None else self._pyramid_moves(pm)
        outcomes = set()
        partners = uncovered & partners_mask
        while partners:
            low = partners & -partners
            outcomes.add(pm ^ low)
            partners ^= low
        # Cache lookups written out: most calls find their answer, and a call costs more than the lookup.
        for after in smaller:
            found = excursions.get(after | card_key | stock_key)
            if found is None:
                found = self.excursion(after, card, stock)
            if found:
                outcomes.update(found)
        if stock & 15:
            self._stock_top_outcomes(pm, card, stock, uncovered, outcomes, None)
        known = excursions[key] = tuple(outcomes)
        return known

    def _stock_top_outcomes(self, pm: int, card: int, stock: int, uncovered: int, outcomes: set[int],
                            freed: Freed | None) -> None:
        """The outcomes of :meth:`excursion` that begin with the stock top (a king leaving, the card or a
        pyramid card pairing with it, or its own excursion), added to ``outcomes``; ``freed``: those of
        a reduced excursion, the stock top taking a pyramid card after the removals that free it."""
        reduced = freed is not None
        excursions, pos = self.reduced_excursions if reduced else self.excursions, self.pos
        target, card_key = pos.target, card << CONSUMED_SHIFT
        top, rest = stock & 15, stock >> 4
        one = 1 << CONSUMED_SHIFT
        rest_key = rest << (CONSUMED_SHIFT + 4)
        if top == target:  # a king drawn (or on the stock top) leaves at once
            found = excursions.get(pm | card_key | rest_key)
            if found is None:
                found = self.excursion(pm, card, rest, reduced)
            outcomes.update([outcome + one for outcome in found])
            return
        if pos.stock_top_playable:
            if top == target - card:
                outcomes.add(pm | one)
            if freed is not None:
                for after in freed.after.get(target - top, ()):
                    outcomes.update([outcome + one for outcome in self.excursion(after, card, rest, True)])
            partners = uncovered & pos.rank_mask[target - top]
            while partners:
                low = partners & -partners
                found = excursions.get((pm ^ low) | card_key | rest_key)
                if found is None:
                    found = self.excursion(pm ^ low, card, rest)
                outcomes.update([outcome + one for outcome in found])
                partners ^= low
        nested = excursions.get(pm | (top << CONSUMED_SHIFT) | rest_key)
        if nested is None:
            nested = self.excursion(pm, top, rest, reduced)
        pyramid_mask = (1 << CONSUMED_SHIFT) - 1
        for inner in nested:
            consumed = (inner >> CONSUMED_SHIFT) + 1
            after, later = inner & pyramid_mask, stock >> (4 * consumed)
            found = excursions.get(after | card_key | (later << (CONSUMED_SHIFT + 4)))
            if found is None:
                found = self.excursion(after, card, later, reduced)
            if found:
                shift = consumed << CONSUMED_SHIFT
                outcomes.update([outcome + shift for outcome in found])

    def _short(self, pm: int) -> bool:
        """Does ``pm`` need more cards of some rank than ``supply`` holds?

        Counted on the cards no card of the pyramid can pair with, each of which
        needs a stock card. (The maximum matching of :meth:`Position.pyramid_facts`
        finds a few more, but asked of every pyramid an excursion meets it cost
        more than it saved: the hardest losses without redeals took 10% longer.)
        Without a playable stock top, those cards are also kept for
        :meth:`_partners_buried`, by the rank they need.
        """
        pos = self.pos
        partners, rank, target, supply = pos.pyramid_partners, pos.rank, pos.target, self.supply
        keep = not pos.stock_top_playable
        lonely = [0] * (target + 1)
        rest = pm & ~pos.rank_mask[target]
        while rest:
            low = rest & -rest
            rest ^= low
            bit = low.bit_length() - 1
            if not partners[bit] & pm & ~low:
                need = target - rank[bit]
                lonely[need] |= low
                if lonely[need].bit_count() > supply[need]:
                    return True
        if keep:
            self.lonely[pm] = tuple((need, cards) for need, cards in enumerate(lonely) if cards)
        return False

    def _partners_buried(self, pm: int, need: int, stock: int) -> bool:
        """While a card waits on the waste for a partner of rank ``need``, can none be uncovered?

        Until it leaves, the waste under it is out of reach, so a pyramid card
        that no card of the pyramid can pair with leaves only with a card of
        ``stock`` drawn over it: with none of its rank there, it stays, and so
        do the cards it covers. (Without a playable stock top only: with one,
        a partner may come from the stock too.)
        """
        held = self.held.get(stock)
        if held is None:
            held, rest = 0, stock
            while rest:
                held |= 1 << (rest & 15)
                rest >>= 4
            self.held[stock] = held
        stuck = 0
        for rank, cards in self.lonely[pm]:
            if not held >> rank & 1:
                stuck |= cards
        if not stuck:
            return False
        covering = self.pos.covering
        partners = pm & self.pos.rank_mask[need]
        while partners:
            low = partners & -partners
            if not covering[low.bit_length() - 1] & stuck:
                return False
            partners ^= low
        return True

    def can_win(self, pm: int, live: int, q: int) -> bool:
        """Can the position (last pass, one-card draws) still be won?

        (:meth:`_search` does the work; an excursion that clears the pyramid
        ends it at once, however deep.)
        """
        try:
            return self._search(pm, live, q)
        except PyramidCleared:
            return True

    def _search(self, pm: int, live: int, q: int) -> bool:
        """The search behind :meth:`can_win`.

        A search over (pyramid, stock cards consumed, start-waste cards taken):
        each step a removal, a burial or an excursion. After a burial the
        start's waste is as good as all taken (goal "pyramid"), so the state
        says so. Each state is first put
        to the verdict search's tests (hopeless, proven lost, relaxed loss) as
        the real position it stands for; when the pass is lost, those positions
        are recorded as lost, so that later questions stop at them.
        """
        pos, budget, lost, relaxation = self.pos, self.budget, self.lost, self.relaxation
        frame = self._pass_frame(live, q)
        length, waste_size = len(frame.stock_bits), len(frame.waste_bits)
        recorded: list[int] = []
        seen: set[tuple[int, int, int]] = set()
        todo = [(pm, 0, 0)]
        later: list[tuple[int, int, int]] = []  # states whose excursion is still to be explored
        while todo or later:
            if not todo:
                here, consumed, taken = later.pop()
                rest = frame.stock >> (4 * consumed)
                for outcome in self.excursion(here, rest & 15, rest >> 4):
                    todo.append((outcome & ((1 << CONSUMED_SHIFT) - 1),
                                 consumed + 1 + (outcome >> CONSUMED_SHIFT), taken))
                continue
            state = todo.pop()
            if state in seen:
                continue
            seen.add(state)
            budget.tick()
            here, consumed, taken = state
            if not here and (not pos.goal_all or (consumed == length and taken == waste_size)):
                return True
            state_live = frame.stock_live[consumed] | frame.waste_live[taken]
            state_q = frame.stock_q[consumed]
            key = pos.lost_key(here, pos.forget_buried(here, state_live, state_q, 0), state_q, 0)
            if key in lost or pos.is_lost(here, state_live) or not relaxation.can_win(here, state_live, state_q, 0):
                continue
            recorded.append(key)
            self._push_moves(frame, state, todo, later)
        for key in recorded:
            lost[key] = 0
        return False

    def _pass_frame(self, live: int, q: int) -> "_PassFrame":
        """The pass's cards, and the real position of each state: its stock suffix and what is left
        of the start's waste."""
        stock_bits, waste_bits, stock = self.pos.pass_cards(live, q)
        stock_live = [0] * (len(stock_bits) + 1)
        for place in range(len(stock_bits) - 1, -1, -1):
            stock_live[place] = stock_live[place + 1] | (1 << stock_bits[place])
        waste_live = [0] * (len(waste_bits) + 1)
        for taken in range(len(waste_bits) - 1, -1, -1):
            waste_live[taken] = waste_live[taken + 1] | (1 << waste_bits[taken])
        return _PassFrame(stock, stock_bits, waste_bits, stock_live, waste_live, [*stock_bits, self.pos.m])

    def _push_moves(self, frame: "_PassFrame", state: tuple[int, int, int], todo: list[tuple[int, int, int]],
                    later: list[tuple[int, int, int]]) -> None:
        """The moves of a state of :meth:`_search`: the removals inside the pyramid, the waste top's,
        the stock top's, its burial, and its excursion put off for ``later``."""
        pos = self.pos
        target, rank_mask = pos.target, pos.rank_mask
        here, consumed, taken = state
        entry = self.moves.get(here)
        uncovered, smaller = entry if entry is not None else self._pyramid_moves(here)
        for after in smaller:
            todo.append((after, consumed, taken))
        top = (frame.stock >> (4 * consumed)) & 15
        if taken < len(frame.waste_bits):
            card = pos.stock_rank[frame.waste_bits[taken]]
            if card == target:
                todo.append((here, consumed, taken + 1))
                return  # an open king leaving dominates every other move
            for partner in set_bits(uncovered & rank_mask[target - card]):
                todo.append((here & ~(1 << partner), consumed, taken + 1))
            if pos.stock_top_playable and top and top + card == target:
                todo.append((here, consumed + 1, taken + 1))
        if not top:
            return
        if top == target:
            todo.append((here, consumed + 1, taken))
            return
        if pos.stock_top_playable:
            for partner in set_bits(uncovered & rank_mask[target - top]):
                todo.append((here & ~(1 << partner), consumed + 1, taken))
        if not pos.goal_all:  # a burial: the start's waste never plays again, as if all taken
            todo.append((here, consumed + 1, len(frame.waste_bits)))
        later.append(state)
