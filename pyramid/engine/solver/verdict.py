"""The verdict: can the position still be won, and one line that wins it.

A depth-first search over removals that walks the one draw/redeal path in between,
joined by the last-pass and two-pass searches on the positions they settle faster
(docs/solver.md says which, in which order, and why that is sound).
"""

from __future__ import annotations

from pyramid.engine.solver.budget import Budget, BudgetExceeded
from pyramid.engine.solver.memory import Memory
from pyramid.engine.solver.freeing import Freed, removals_inside
from pyramid.engine.solver.position import DRAW, Position, REDEAL, STOCK_ID, UNLIMITED, set_bits, uncovered_mask
from pyramid.engine.solver.two_passes import CLEARED_BEFORE_REDEAL


#: Nodes the plain depth-first search gets before the last-pass search joins in. The
#: easy positions a hint or a grade asks about are settled within it, where the plain
#: search is the cheaper (the last-pass search summarises whole excursions before it
#: looks further); past it, the hard losses are where the summaries pay. Measured on
#: 150 deals of four presets without redeals: 300 beat 100, 1,000 and 3,000 in total
#: time (by 5-40%), and kept the time to grade a deal near the old solver's.
PROBE_NODES = 300
#: The same for :class:`TwoPasses`, whose first pass alone costs 30-60 ms on a hard deal: from
#: per-deal measurements of the first 300 reference deals with one redeal, 1,000 would have
#: taken 2-19% less time than 300 on each of four presets, 3,000 more on two of them.
TWO_PASSES_PROBE_NODES = 1_000
#: Nodes of :class:`LastPass` per question once a win is known to lie ahead (see
#: ``VerdictSearch.last_pass_lost``).
QUICK_NODES = 300


class VerdictSearch:
    """Depth-first search over removals, walking the draw/redeal path in between.

    A removal inside the pyramid is made only where it frees a card that an open stock or waste
    card takes, or at the end when such removals alone clear the pyramid (:class:`Freeing`): the
    same verdicts from far fewer positions. Its lines make them late; ``removals_first`` (freeing.py)
    brings each back to where it is first legal before a player sees the line.

    ``pairs_first`` searches as before that: every removal inside the pyramid tried first at each
    position, then the walk. Its lines and node counts are those the shipped grades were measured
    with (grade.py: traps counted along the new lines separated a greedy player's wins less well).
    """

    def __init__(self, pos: Position, budget: Budget, memory: Memory, last_pass: bool = True,
                 pairs_first: bool = False) -> None:
        self.pos = pos
        self.pairs_first = pairs_first
        self.budget = budget
        self.lost = memory.lost
        self.path: list[int | tuple[int, ...]] = []
        #: An open king leaving (or the one partner left of an uncovered card taking it) beats every
        #: other move there: with one-card draws always; with more, in the last pass only, when just the
        #: waste top plays (a card gone from the stock, or from the waste before a redeal, shifts which
        #: cards the later draws turn up).
        self.king_dominates = pos.draw_count == 1
        self.last_pass_king_dominates = not pos.stock_top_playable
        self.relaxation = memory.relaxation
        self.freeing = memory.freeing
        self.last_pass = (memory.last_pass
                          if last_pass and (last_pass_applies(pos) or two_passes_apply(pos)) else None)
        #: Set once the last-pass search has found a position won: the depth-first search then
        #: walks to the win below, asking only quick questions (see ``last_pass_lost``).
        self.win_ahead = False

    def run(self) -> bool:
        pos = self.pos
        return self.search(pos.start_pm, pos.start_live, pos.next_live(pos.start_live, pos.start_q), pos.start_r)

    def last_pass_lost(self, pm: int, live: int, q: int) -> bool:
        """Is the last-pass position lost? Asked of :class:`LastPass` in full until it finds one
        won; below that, for :data:`QUICK_NODES` nodes only, and what it does not settle in them
        the depth-first search explores (it finds a line through a won position faster)."""
        last_pass = self.last_pass
        if last_pass is None:
            return False
        if not self.win_ahead:
            self.win_ahead = last_pass.can_win(pm, live, q)
            return not self.win_ahead
        budget = self.budget
        last_pass.budget = quick = budget.share(QUICK_NODES)
        try:
            return not last_pass.can_win(pm, live, q)
        except BudgetExceeded:
            return False
        finally:
            last_pass.budget = budget
            budget.spend(quick.nodes)

    def search(self, pm: int, live: int, q: int, r: int) -> bool:
        """Whether the position can be won; its winning line is then on :attr:`path`."""
        pos, path = self.pos, self.path
        self.budget.tick()
        depth = len(path)
        pm, live = self._play_forced(pm, live, q, r)
        freed = None
        if self.pairs_first:
            if pos.is_won(pm, live):
                return True
        else:  # No removal inside the pyramid here but where it frees a card an open card takes
            # (Freeing), or at the end, when those removals alone clear it.
            freed = self.freeing.of(pm)
            if freed.clears and not (pos.goal_all and live):
                clearing = self._removals_to(pm, 0)
                assert clearing is not None, "Freeing says the pyramid's own removals clear it"
                path.extend(clearing)
                return True
        if not self._settled_lost(pm, live, q, r):
            uncovered = uncovered_mask(pm)
            if freed is None:
                for removal in pos.pyramid_removals(pm, uncovered):
                    path.append(removal)
                    if self.search(*pos.apply_removal(pm, live, q, r, removal), r):
                        return True
                    path.pop()
            if self._walk(pm, live, q, r, uncovered, freed):
                return True
        del path[depth:]
        return False

    def _play_forced(self, pm: int, live: int, q: int, r: int) -> tuple[int, int]:
        """Play the forced removals (onto :attr:`path`): the pyramid and the live cards after them."""
        pos = self.pos
        forced = pos.forced_removal(pm, uncovered_mask(pm), live)
        if not forced:
            return pm, live
        while forced:
            self.path.append(forced)
            for bit in forced:
                pm &= ~(1 << bit)
            forced = pos.forced_removal(pm, uncovered_mask(pm), live)
        return pm, pos.forget_buried(pm, live, q, r)

    def _settled_lost(self, pm: int, live: int, q: int, r: int) -> bool:
        """Whether the position is known lost without a search: hopeless, stranded, in the loss
        table with as many redeals, lost in its relaxed game or by the last-pass search."""
        pos = self.pos
        return (
            pos.is_lost(pm, live)
            or (not r and pos.goal_all and pos.waste_stranded(pm, live, q))
            or self.lost.get(pos.lost_key(pm, live, q, r), -1) >= r
            or not self.relaxation.can_win(pm, live, q, r)
            or (not r and self.last_pass_lost(pm, live, q))
        )

    def _walk(self, pm: int, live: int, q: int, r: int, uncovered: int, freed: Freed | None) -> bool:
        """Walk the one draw/redeal path from the position, trying the open removals at each place
        (onto :attr:`path`); True once one wins. The walk's positions are marked lost while they are
        explored, and the marks taken back unless the walk ends in a loss."""
        pos, path, lost = self.pos, self.path, self.lost
        m = pos.m
        cycle_free = r == UNLIMITED and pos.draw_count == 1 and pos.waste_playable
        seen_q: set[int] = set()
        # The walk's positions, marked lost while they are explored: key → what the table held before.
        walked: dict[int, int] = {}
        first = True
        takeable = uncovered | (freed.cards if freed else 0)  # the cards an open card can take, some once freed
        try:
            while True:
                # Back at a place of this walk after a redeal: the same position
                # with fewer redeals (and perhaps some waste forgotten) — dominated.
                if q in seen_q:
                    break
                seen_q.add(q)
                open_removal = pos.open_removal_possible(takeable, live, q)
                # A place where only a draw can be made is marked only where the walk starts: a
                # walk that comes to it goes on to the next place with a removal (or the walk's
                # end), which is marked; one probe and one mark fewer a place passed through.
                if first or open_removal or cycle_free:
                    key = pos.lost_key(pm, live, q, r)
                    if key not in walked:
                        if not cycle_free and lost.get(key, -1) >= r:
                            break
                        walked[key] = lost.get(key, -1)
                        lost[key] = r
                    elif r != UNLIMITED:
                        break  # this walk's place again after a redeal, with fewer redeals: dominated
                    # (with unlimited redeals the places of the draw/redeal cycle share one key,
                    # Position.lost_key: met again, it is this walk's own mark, not a proof)
                first = False
                # Drawing only strands more: the rest of the last pass is lost too.
                if not r and pos.goal_all and pos.waste_stranded(pm, live, q):
                    break
                if open_removal:
                    # Drawing only moves cards from the stock to the waste, which
                    # the last-pass relaxation only finds harder: once it loses,
                    # the rest of the walk does too.
                    if not r and not self.relaxation.can_win(pm, live, q, r):
                        break
                    won, dominated = self._open_removals(pm, live, q, r, uncovered, freed)
                    if won:
                        self._unmark(walked)
                        return True
                    if dominated:
                        break
                if q < m:
                    q = pos.after_draw(live, q)
                    live = pos.forget_buried(pm, live, q, r)
                    path.append(DRAW)
                    continue
                if live and r:
                    q = pos.next_live(live, 0)
                    if r != UNLIMITED:
                        r -= 1
                    path.append(REDEAL)
                    continue
                return False
        except BudgetExceeded:
            self._unmark(walked)  # a mark is a proof only once its position's moves were all tried
            raise
        return False

    def _open_removals(self, pm: int, live: int, q: int, r: int, uncovered: int,
                       freed: Freed | None) -> tuple[bool, bool]:
        """Try the removals with the open stock and waste cards here: (won, the rest of the walk is
        dominated by a removal tried). In order: the open kings, the open cards taking pyramid cards
        (put off, ``freed`` given: stock top, then waste top, each card after the removals that free
        it, :meth:`_freed_takes`), the stock top with the waste top."""
        pos, path = self.pos, self.path
        king_dominates = self.king_dominates or (not r and self.last_pass_king_dominates)
        forced = pos.forced_open_removal(pm, uncovered, live, q) if king_dominates else None
        removals = [forced] if forced else pos.open_removals(uncovered, live, q)
        kings = len(removals) if forced else sum(1 for removal in removals if len(removal) == 1)
        for removal in removals[:kings]:  # open_removals: the open kings first
            path.append(removal)
            if self.search(*pos.apply_removal(pm, live, q, r, removal), r):
                return True, False
            path.pop()
            if forced or king_dominates:
                return False, True
        if freed is not None:
            for j, rank in pos.open_cards(live, q):
                if rank < pos.target and self._freed_takes(pm, live, q, r, j, freed):
                    return True, False
        for removal in removals[kings:]:
            if freed is not None and removal[0] < STOCK_ID:
                continue  # taken above
            path.append(removal)
            if self.search(*pos.apply_removal(pm, live, q, r, removal), r):
                return True, False
            path.pop()
        return False, False

    def _freed_takes(self, pm: int, live: int, q: int, r: int, j: int, freed: Freed) -> bool:
        """The open card at place ``j`` takes a pyramid card of the rank it needs, after the removals
        inside the pyramid that free it (:class:`~pyramid.engine.solver.freeing.Freeing`); a win
        below writes those removals and the card taken into the line, before the rest of it."""
        pos, path = self.pos, self.path
        need = pos.target - pos.stock_rank[j]
        after_live = live & ~(1 << j)
        after_q = pos.next_live(after_live, q)
        for after in freed.after.get(need, ()):
            depth = len(path)
            if not self.search(after, pos.forget_buried(after, after_live, after_q, r), after_q, r):
                continue
            for taken in set_bits(pm & ~after & pos.rank_mask[need]):
                freed_pm = after | (1 << taken)
                if uncovered_mask(freed_pm) >> taken & 1:
                    removals = self._removals_to(pm, freed_pm)
                    if removals is not None:
                        path[depth:depth] = [*removals, (taken, STOCK_ID + j)]
                        return True
            raise AssertionError("Freeing hands out only pyramids that removals inside the pyramid reach")
        return False

    def _removals_to(self, pm: int, to: int, failed: set[int] | None = None) -> list[tuple[int, ...]] | None:
        """Removals inside the pyramid that take ``pm`` to ``to`` (fewer cards), or None when none do.
        (Small: the cards between are those that free one card, or the last ones.) ``failed``: the
        pyramids found not to reach ``to``, else a wrong partner taken early would be tried again
        after every order of the removals made before it."""
        if pm == to:
            return []
        failed = set() if failed is None else failed
        if pm in failed:
            return None
        gone = pm & ~to
        for removal in removals_inside(self.pos, pm):
            if not all(gone >> bit & 1 for bit in removal):
                continue
            rest = self._removals_to(pm & ~sum(1 << bit for bit in removal), to, failed)
            if rest is not None:
                return [removal, *rest]
        failed.add(pm)
        return None

    def _unmark(self, walked: dict[int, int]) -> None:
        """Take back the marks of a walk that did not end in a loss (see ``search``)."""
        lost = self.lost
        for key, before in walked.items():
            if before < 0:
                del lost[key]
            else:
                lost[key] = before

def last_pass_applies(pos: Position) -> bool:
    """Does the verdict search ask :class:`LastPass`? With one-card draws, from a position in the last pass.

    From an earlier pass the depth-first search meets thousands of different
    last passes (one per set of cards left for it); measured on the first 300
    reference deals, asking there cost 5–35% more time on most presets with
    one or two redeals, so there the depth-first search goes on alone.
    """
    return pos.draw_count == 1 and pos.start_r == 0


def two_passes_apply(pos: Position) -> bool:
    """Does the verdict search ask :class:`TwoPasses`? With one-card draws, from a position with one redeal left."""
    return pos.draw_count == 1 and pos.start_r == 1


def run_verdict(pos: Position, budget: Budget, memory: Memory,
                pairs_first: bool = False) -> tuple[bool, VerdictSearch]:
    """The verdict, and the search that gave it (its line, proven losses and relaxation serve A*).

    Where the last-pass or the two-pass search applies, the plain depth-first
    search has :data:`PROBE_NODES` (:data:`TWO_PASSES_PROBE_NODES`) nodes
    first; a position it does not settle is searched again with them (and
    with what the probe proved).
    """
    if last_pass_applies(pos) or two_passes_apply(pos):
        probe_nodes = TWO_PASSES_PROBE_NODES if two_passes_apply(pos) else PROBE_NODES
        share = budget.share(probe_nodes)
        memory.attach(share)
        probe = VerdictSearch(pos, share, memory, last_pass=False, pairs_first=pairs_first)
        try:
            won = probe.run()
        except BudgetExceeded:
            pass
        else:
            return won, probe
        finally:
            budget.spend(share.nodes)
            memory.attach(budget)  # A* goes on with the helpers' answers, under the whole budget
    memory.attach(budget)
    if two_passes_apply(pos):
        return two_passes_verdict(pos, budget, memory, pairs_first)
    search = VerdictSearch(pos, budget, memory, pairs_first=pairs_first)
    return search.run(), search


def two_passes_verdict(pos: Position, budget: Budget, memory: Memory,
                       pairs_first: bool = False) -> tuple[bool, VerdictSearch]:
    """:func:`run_verdict` by :class:`TwoPasses`, and a winning line: its first pass to the redeal it
    found, and the second by the depth-first search."""
    search = VerdictSearch(pos, budget, memory, pairs_first=pairs_first)
    start_q = pos.next_live(pos.start_live, pos.start_q)
    oracle = memory.two_passes()
    redeal = oracle.winning_redeal(pos.start_pm, pos.start_live, start_q)
    if redeal is None:
        return False, search
    # The line: one that never redeals, or the first pass to the redeal found and a second pass.
    if redeal == CLEARED_BEFORE_REDEAL:
        won = search.search(pos.start_pm, pos.start_live, start_q, 0)
    else:
        search.path = oracle.first_pass_line(pos.start_pm, pos.start_live, start_q, redeal) + [REDEAL]
        won = search.search(redeal.pm, redeal.live, pos.next_live(redeal.live, 0), 0)
    assert won, "the two-pass search found a win, the depth-first search must find its line"
    return True, search
