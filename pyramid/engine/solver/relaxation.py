"""Relaxed games that every line of the real game can be played in: a position they lose is lost.

See docs/solver.md ("Relaxed games") for why they are sound and what they save.
"""

from __future__ import annotations

from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.position import COUNT_GUARDS, PYRAMID_BITS, Position, RELAXED_WASTE_SHIFT, uncovered_mask


class Relaxation:
    """Could the pyramid be cleared if the stock cards could be played at will?

    Two relaxed games, each one a game that every line of the real one can be
    played in, so a position they lose is lost and the verdict search asks
    them before exploring a position:

    * with redeals left, every live stock and waste card may be played
      whenever wanted (the real game with unlimited redeals and one-card
      draws): only how many cards of each rank are left matters;
    * in the last pass, when only the waste top plays, the cards still in the
      stock may be played whenever wanted, but the waste only from its top
      down, each with a pyramid card, as the real game allows with nothing
      drawn over it. This catches a pass that has gone by the cards the
      pyramid still needs.

    Their positions are few (the pyramid, 12 counts and the waste's ranks) and
    are remembered won or lost. Dominance keeps them fast: kings leave at once,
    and a pyramid card that no pyramid card can ever pair with must take a
    stock or waste card: when the waste holds none of its complement it takes
    one from the stock at once (they are all alike), and when the waste top is
    the only one left it takes that. Either way it only uncovers cards sooner.
    """

    def __init__(self, pos: Position, budget: Budget) -> None:
        self.pos = pos
        self.budget = budget
        self.won: dict[int, bool] = {}
        #: The answers by the question as asked, before the cards that cannot pair are dropped.
        self.asked: dict[int, bool] = {}
        self.counts_cache: dict[int, int] = {}
        self.waste_counts_cache: dict[int, int] = {}
        self.useful_cache: dict[int, int] = {}
        self.partners_cache: dict[int, int] = {}
        self.complements_cache: dict[int, int] = {}
        #: Per pyramid and waste (``shape`` keys): maximal lost and minimal won counts.
        self.lost_counts: dict[int, list[int]] = {}
        self.won_counts: dict[int, list[int]] = {}

    def can_win(self, pm: int, live: int, q: int, r: int) -> bool:
        """False when the position (pyramid ``pm``, stock ``live`` and ``q``, redeals ``r``) is lost."""
        if r:
            return self.relaxed_win(pm, self.counts(live), 0)
        below_q = (1 << q) - 1
        return self.relaxed_win(pm, self.counts(live & ~below_q), self.pos.rank_sequence(live & below_q))

    def counts(self, live: int) -> int:
        """How many cards of each rank ``live`` holds, four bits per rank (cached)."""
        counts = self.counts_cache.get(live)
        if counts is None:
            counts = 0
            mask = self.pos.stock_rank_mask
            for rank in range(1, self.pos.target):
                counts |= (mask[rank] & live).bit_count() << (4 * rank)
            self.counts_cache[live] = counts
        return counts

    def _useful(self, pm: int) -> int:
        """Four bits per rank, set for the ranks that can still pair with ``pm`` (kings too).

        Also caches, in ``partners_cache``, how many pyramid cards each rank
        could pair with (four bits per rank; fifteen for kings, who need none).
        """
        rank_mask, target = self.pos.rank_mask, self.pos.target
        useful = partners_left = 15 << (4 * target)
        for rank in range(1, target):
            partners = (rank_mask[target - rank] & pm).bit_count()
            if partners:
                useful |= 15 << (4 * rank)
                partners_left |= partners << (4 * rank)
        self.useful_cache[pm] = useful
        self.partners_cache[pm] = partners_left
        return useful

    def waste_counts(self, waste: int) -> int:
        """:meth:`counts` of a waste given as a rank sequence (cached)."""
        counts = self.waste_counts_cache.get(waste)
        if counts is None:
            counts = 0
            rest = waste
            while rest:
                rank = rest & 15
                if rank < self.pos.target:
                    counts += 1 << (4 * rank)
                rest >>= 4
            self.waste_counts_cache[waste] = counts
        return counts

    def waste_complements(self, waste: int) -> int:
        """Four bits per rank, set for the complements of the ranks in ``waste`` (cached).

        When the stock top plays, a stock card may take the waste top away and
        uncover the cards under it, so its rank stays useful to the pyramid.
        """
        mask = self.complements_cache.get(waste)
        if mask is None:
            mask = 0
            rest, target = waste, self.pos.target
            while rest:
                rank = rest & 15
                if rank < target:
                    mask |= 15 << (4 * (target - rank))
                rest >>= 4
            self.complements_cache[waste] = mask
        return mask

    def relaxed_win(self, pm: int, counts: int, waste: int) -> bool:
        """The relaxed game: ``counts`` playable at will, ``waste`` (a rank sequence, top lowest) from the top.

        Cards that can no longer pair are dropped first — from the counts, and
        from the waste with everything under the first of them — so that
        positions differing only there are one.
        """
        raw = pm | (counts << PYRAMID_BITS) | (waste << RELAXED_WASTE_SHIFT)
        known = self.asked.get(raw)
        if known is not None:
            return known
        known = self.asked[raw] = self._relaxed_win(pm, counts, waste)
        return known

    def _relaxed_win(self, pm: int, counts: int, waste: int) -> bool:
        """:meth:`relaxed_win` for a question not asked before."""
        useful = self.useful_cache.get(pm)
        if useful is None:
            useful = self._useful(pm)
        if waste:
            # Each waste card leaves with a pyramid card of its complement (or,
            # when the stock top plays, a stock card): the waste is dug no
            # deeper than there are partners for.
            partners_left = self.partners_cache[pm]
            target = self.pos.target
            with_stock = self.pos.stock_top_playable
            rest, depth, dug = waste, 0, 0
            while rest:
                rank_ = rest & 15
                shift = 4 * rank_
                partners_here = (partners_left >> shift) & 15
                if with_stock and rank_ < target:
                    partners_here += (counts >> (4 * (target - rank_))) & 15
                if (dug >> shift) & 15 >= partners_here:
                    waste &= (1 << depth) - 1
                    break
                dug += 1 << shift
                rest >>= 4
                depth += 4
            if with_stock and waste:
                useful |= self.waste_complements(waste)
        counts &= useful
        key = pm | (counts << PYRAMID_BITS) | (waste << RELAXED_WASTE_SHIFT)
        known = self.won.get(key)
        if known is not None:
            return known
        shape = pm | (waste << RELAXED_WASTE_SHIFT)
        for lost in self.lost_counts.get(shape, ()):
            if ((lost | COUNT_GUARDS) - counts) & COUNT_GUARDS == COUNT_GUARDS:
                return False  # fewer cards of every rank than a lost position
        for won in self.won_counts.get(shape, ()):
            if ((counts | COUNT_GUARDS) - won) & COUNT_GUARDS == COUNT_GUARDS:
                return True  # more cards of every rank than a won position
        self.won[key] = self._solve_relaxed(pm, counts, waste)
        self._remember(shape, counts, self.won[key])
        return self.won[key]

    def _remember(self, shape: int, counts: int, won: bool) -> None:
        """Keep, per pyramid and waste, the most counts that lost and the fewest that won.

        The relaxed game is monotone in the counts (a card at will need never
        be played), so one stored loss settles every position with fewer cards
        of each rank, and one win every position with more.
        """
        guards = COUNT_GUARDS
        if won:
            wins = self.won_counts.setdefault(shape, [])
            wins[:] = [w for w in wins if ((w | guards) - counts) & guards != guards]
            wins.append(counts)
        else:
            losses = self.lost_counts.setdefault(shape, [])
            losses[:] = [x for x in losses if ((counts | guards) - x) & guards != guards]
            losses.append(counts)

    def _solve_relaxed(self, pm: int, counts: int, waste: int) -> bool:
        """The relaxed game from a position no stored answer settles."""
        self.budget.tick()
        pos = self.pos
        target, rank, rank_mask, partners = pos.target, pos.rank, pos.rank_mask, pos.pyramid_partners
        won = False
        while True:
            if not pm:
                won = True
                break
            uncovered = uncovered_mask(pm)
            kings = uncovered & rank_mask[target]
            if kings:
                pm &= ~kings
                continue
            if waste & 15 == target:
                waste >>= 4
                continue
            forced = 0
            hopeless = False
            for bit in pos.uncovered_bits(pm, uncovered):
                if partners[bit] & pm & ~(1 << bit):
                    continue
                shift = 4 * (target - rank[bit])
                in_stock = (counts >> shift) & 15
                in_waste = (self.waste_counts(waste) >> shift) & 15 if waste else 0
                if not in_waste:
                    if not in_stock:
                        hopeless = True
                        break
                    counts -= 1 << shift
                elif in_waste == 1 and not in_stock and waste & 15 == target - rank[bit]:
                    waste >>= 4
                else:
                    continue
                forced |= 1 << bit
            if hopeless or not forced:
                break
            pm &= ~forced
        if pm and not hopeless:
            supply = counts + self.waste_counts(waste) if waste else counts
            for rank_, count in pos.pyramid_facts(pm)[1]:
                if (supply >> (4 * rank_)) & 15 < count:
                    return False
            won = self._branch(pm, uncovered, counts, waste)
        return won

    def _branch(self, pm: int, uncovered: int, counts: int, waste: int) -> bool:
        pos = self.pos
        for first, second in pos.pyramid_removals(pm, uncovered):
            if self.relaxed_win(pm & ~(1 << first) & ~(1 << second), counts, waste):
                return True
        target, rank = pos.target, pos.rank
        top = waste & 15
        for bit in pos.uncovered_bits(pm, uncovered):
            need = target - rank[bit]
            if need == top and self.relaxed_win(pm & ~(1 << bit), counts, waste >> 4):
                return True
            shift = 4 * need
            if (counts >> shift) & 15 and self.relaxed_win(pm & ~(1 << bit), counts - (1 << shift), waste):
                return True
        if top and pos.stock_top_playable:
            shift = 4 * (target - top)
            if (counts >> shift) & 15 and self.relaxed_win(pm, counts - (1 << shift), waste >> 4):
                return True
        return False


#: In :class:`LastPass`: stock cards consumed, above the 56 pyramid bits of a position.
