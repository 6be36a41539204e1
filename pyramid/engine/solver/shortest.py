"""The shortest solution: A* over positions, with an admissible bound and loss tables shared
with the verdict search (docs/solver.md, "optimal")."""

from __future__ import annotations

from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.position import DRAW, LIVE_SHIFT, PYRAMID_BITS, Position, Q_SHIFT, REDEAL, R_SHIFT, SEQUENCE_SHIFT, UNLIMITED, WASTE_SHIFT, uncovered_mask
from pyramid.engine.solver.relaxation import Relaxation


#: A*'s open list holds each position as one integer: its key (see
#: ``ShortestSearch._key``, under 2**100), its distance from the start at
#: ``_G_SHIFT``, at ``_DREW_BIT`` whether a draw or a redeal reached it, and
#: its state (below) from ``_ENTRY_STATE_SHIFT``.
#: Its record of visited positions is keyed by their *state* (see
#: ``ShortestSearch._state``: the ranks, not the cards, of the stock and
#: waste) and maps it to one integer too: the distance, and the previous
#: state at ``_PARENT_SHIFT``. Tuples instead cost about 280 MB on the hardest
#: of the 1,500 reference deals, integers about half.
_G_SHIFT = 100
_DREW_BIT = 1 << 110
_ENTRY_STATE_SHIFT = 111
_KEY_MASK = (1 << _G_SHIFT) - 1
_DISTANCE_MASK = (1 << 10) - 1
_PARENT_SHIFT = 10
#: Where the redeals left go in a state: after the pyramid, the waste size and
#: up to 32 ranks of four bits (see ``Position.lost_key``).
_STATE_R_SHIFT = SEQUENCE_SHIFT + 4 * 32
#: A state without its redeals: the loss-table key of the position when redeals are limited.
_STATE_WITHOUT_R = (1 << _STATE_R_SHIFT) - 1


class ShortestSearch:
    """A* over single steps, with the verdict search's proven losses and relaxations as extra pruning.

    The bound counts the removals the table still needs: each king alone, and
    for each pair of complementary ranks every card that no matching inside the
    pyramid pairs (a removal takes at most one card of each rank of the pair);
    goal "all" counts the whole table the same way. A sharper bound that also
    counted the draws needed to reach the stock cards the pyramid needs cut
    the nodes but cost more than it saved: the first 100 reference deals took
    about 20% longer with it. The bound may drop by more than one after a
    removal, so children get at least their parent's estimate (pathmax) and A*
    still returns a shortest line.

    Pyramid-only removals commute with draws and redeals, so they are tried
    only in positions not reached by a draw or a redeal: moving such a removal
    earlier never lengthens a solution.

    Positions are recorded by state (``_state``: ranks, not cards), so lines
    that used different cards of a rank meet; the tests that may prune a
    successor (hopeless, proven lost, relaxed loss) run once per new state,
    after the record says it is new. Together these took the first 100
    reference deals from 0.53x to about 0.3x the peer's CPU time, and the
    hardest deal's peak from 178 to 121 MB.
    """

    def __init__(self, pos: Position, budget: Budget, lost: dict[int, int], relaxation: Relaxation) -> None:
        self.pos = pos
        self.budget = budget
        self.lost = lost
        self.relaxation = relaxation
        #: Drawing a stock-top king that could leave at once only buries the waste.
        self.king_leaves_instead = pos.stock_top_playable and pos.draw_count == 1

    def _all_cards_bound(self, pm: int, live: int) -> int:
        """Goal "all": removals still needed over the whole table."""
        pos = self.pos
        rm, sm, target = pos.rank_mask, pos.stock_rank_mask, pos.target
        total = (rm[target] & pm).bit_count() + (sm[target] & live).bit_count()
        for low, high in self.pos.rank_pairs:
            a = (rm[low] & pm).bit_count() + (sm[low] & live).bit_count()
            if low == high:
                total += (a + 1) // 2
            else:
                b = (rm[high] & pm).bit_count() + (sm[high] & live).bit_count()
                total += max(a, b)
        return total

    def bound(self, pm: int, live: int) -> int:
        """Steps still needed at least (see the class docstring)."""
        if self.pos.goal_all:
            return self._all_cards_bound(pm, live)
        return self.pos.pyramid_facts(pm)[0]

    def run(self) -> list[int | tuple[int, ...]] | None:
        pos, budget = self.pos, self.budget
        start_q = pos.next_live(pos.start_live, pos.start_q)
        start = (pos.start_pm, pos.start_live, start_q, pos.start_r)
        start_state = self._state(*start)
        record = {start_state: 0}  # state → distance | previous state << _PARENT_SHIFT
        f = self.bound(pos.start_pm, pos.start_live)
        buckets: dict[int, list[int]] = {f: [self._key(*start) | (start_state << _ENTRY_STATE_SHIFT)]}
        sequence_cache, facts_cache, goal_all = pos.sequence_cache, pos.facts_cache, pos.goal_all
        pm_mask, live_mask = (1 << PYRAMID_BITS) - 1, (1 << (Q_SHIFT - LIVE_SHIFT)) - 1
        while buckets:
            f = min(buckets)
            bucket = buckets[f]
            while bucket:
                entry = bucket.pop()
                key = entry & _KEY_MASK
                g = (entry >> _G_SHIFT) & _DISTANCE_MASK
                state = entry >> _ENTRY_STATE_SHIFT
                if record[state] & _DISTANCE_MASK < g:
                    continue  # reached again by a shorter line since
                pm, live = key & pm_mask, (key >> LIVE_SHIFT) & live_mask
                q, r = (key >> Q_SHIFT) & 63, key >> R_SHIFT
                budget.tick()
                if pos.is_won(pm, live):
                    return self._line(record, state, start_state, start)
                child_g = g + 1
                parent_link = child_g | (state << _PARENT_SHIFT)
                for token, new_pm, new_live, new_q, new_r in self._successors(pm, live, q, r, bool(entry & _DREW_BIT)):
                    sequence = sequence_cache.get(new_live)
                    if sequence is None:
                        sequence = pos.rank_sequence(new_live)
                    new_state = (new_pm | ((new_live & ((1 << new_q) - 1)).bit_count() << WASTE_SHIFT)
                                 | (sequence << SEQUENCE_SHIFT) | (new_r << _STATE_R_SHIFT))  # self._state, inlined: the hot path
                    known = record.get(new_state)
                    if known is not None:
                        if known & _DISTANCE_MASK <= child_g:
                            continue
                    elif self._new_state_lost(token, new_pm, new_live, new_q, new_r, new_state):
                        continue  # (a state met before passed these tests then)
                    record[new_state] = parent_link
                    facts = None if goal_all else facts_cache.get(new_pm)
                    new_f = child_g + (facts[0] if facts is not None else self.bound(new_pm, new_live))
                    new_entry = (new_pm | (new_live << LIVE_SHIFT) | (new_q << Q_SHIFT) | (new_r << R_SHIFT)
                                 | (child_g << _G_SHIFT) | (new_state << _ENTRY_STATE_SHIFT))
                    if token == DRAW or token == REDEAL:
                        new_entry |= _DREW_BIT
                    if new_f <= f:
                        bucket.append(new_entry)
                    else:
                        buckets.setdefault(new_f, []).append(new_entry)
            del buckets[f]
        return None

    def _new_state_lost(self, token: int | tuple[int, ...], pm: int, live: int, q: int, r: int, state: int) -> bool:
        """Whether a state A* meets for the first time is known lost (hopeless, in the loss table with
        as many redeals, or lost in its relaxed game), reached by ``token``."""
        pos, relaxation = self.pos, self.relaxation
        if token != DRAW and token != REDEAL and pos.is_lost(pm, live):
            return True
        lost_key = state & _STATE_WITHOUT_R if r != UNLIMITED else pos.lost_key(pm, live, q, r)
        if self.lost.get(lost_key, -1) >= r:
            return True
        if not r:
            return not relaxation.can_win(pm, live, q, r)
        counts = relaxation.counts_cache.get(live)  # relaxation.can_win, its answers looked up first
        if counts is None:
            counts = relaxation.counts(live)
        won = relaxation.asked.get(pm | (counts << PYRAMID_BITS))
        if won is None:
            won = relaxation.relaxed_win(pm, counts, 0)
        return not won

    def _successors(self, pm: int, live: int, q: int, r: int,
                    drew: bool) -> list[tuple[int | tuple[int, ...], int, int, int, int]]:
        """The moves A* tries from a position, and the positions they lead to.

        A forced removal alone when there is one; pyramid-only removals only
        when no draw or redeal led here (``drew``); no draw of a stock-top king
        that could leave at once instead. (Hopeless positions are weeded out
        by the caller, once per state.)
        """
        pos = self.pos
        uncovered = uncovered_mask(pm)
        forced = pos.forced_removal(pm, uncovered, live)
        if forced:
            return [(forced, *pos.apply_removal(pm, live, q, r, forced), r)]
        successors: list[tuple[int | tuple[int, ...], int, int, int, int]] = []
        removals = pos.open_removals(uncovered, live, q)
        if not drew:
            removals += pos.pyramid_removals(pm, uncovered)
        for removal in removals:
            successors.append((removal, *pos.apply_removal(pm, live, q, r, removal), r))
        if q < pos.m:
            if not (self.king_leaves_instead and pos.stock_rank[q] == pos.target):
                new_q = pos.after_draw(live, q)
                successors.append((DRAW, pm, pos.forget_buried(pm, live, new_q, r), new_q, r))
        elif live and r:
            successors.append((REDEAL, pm, live, pos.next_live(live, 0), r if r == UNLIMITED else r - 1))
        return successors

    @staticmethod
    def _key(pm: int, live: int, q: int, r: int) -> int:
        return pm | (live << LIVE_SHIFT) | (q << Q_SHIFT) | (r << R_SHIFT)

    def _state(self, pm: int, live: int, q: int, r: int) -> int:
        """What the future of a position depends on: the pyramid, the waste size,
        the ranks of the stock and waste in drawing order, the redeals left.

        Suits never matter, so positions that used different cards of a rank
        are one state: on the hardest reference deals that merges 10–45% of
        the positions A* would otherwise keep apart.
        """
        return self.pos.sequence_key(pm, live, q) | (r << _STATE_R_SHIFT)

    def _line(self, record: dict[int, int], state: int, start_state: int,
              start: tuple[int, int, int, int]) -> list[int | tuple[int, ...]]:
        """The moves from the start to ``state``, following the record's chain of states.

        The record keeps states, not cards, so the line is replayed forward
        from the real start: at each step, a move whose result is the next
        state (any one: the states are the same from there on).
        """
        chain = [state]
        while state != start_state:
            state = record[state] >> _PARENT_SHIFT
            chain.append(state)
        chain.reverse()
        tokens: list[int | tuple[int, ...]] = []
        position = start
        for wanted in chain[1:]:
            for token, *after in self._successors(*position, drew=False):
                if self._state(*after) == wanted:
                    tokens.append(token)
                    position = (after[0], after[1], after[2], after[3])
                    break
            else:
                raise AssertionError("a state of the line has no move leading to it")
        return tokens
