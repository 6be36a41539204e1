"""Exact verdicts with one redeal left and one-card draws, by families of second passes.

See docs/solver.md ("Two passes by families of second passes").
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import NamedTuple

from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.freeing import Freed
from pyramid.engine.solver.last_pass import CONSUMED_SHIFT, LastPass, PyramidCleared
from pyramid.engine.solver.position import DRAW, PYRAMID_BITS, Position, STOCK_ID, ranks_in_stock, set_bits
from pyramid.engine.solver.relaxation import Relaxation


#: The pyramid's bits of a state key.
_PYRAMID_MASK = (1 << PYRAMID_BITS) - 1
#: A state of :meth:`TwoPasses.first_pass_line`: (stock cards consumed, pyramid, start-waste cards taken).
_LineState = tuple[int, int, int]


class _LineGoal(NamedTuple):
    """What :meth:`TwoPasses.first_pass_line` plays toward: the redeal's pyramid and cards left,
    how many cards of the start's waste leave, and the pass's cards (``drawn[k]``: the first k of the stock)."""

    end_pm: int
    end_live: int
    keep_waste: int
    drawn: list[int]
    stock_bits: list[int]
    waste_bits: list[int]
    stock_ranks: int


class RedealTo(NamedTuple):
    """Where a winning line of :class:`TwoPasses` redeals: the pyramid and the cards then left (``live``)."""

    pm: int
    live: int


#: :meth:`TwoPasses.winning_redeal` for a pyramid that can be cleared before the redeal.
CLEARED_BEFORE_REDEAL = RedealTo(-1, -1)



class _FirstPassStates:
    """The states of :meth:`TwoPasses._first_pass`, in order, each with its family of stocks.

    A family maps the ranks of the cards that stayed (four bits each, in drawing order) to one set
    of cards with those ranks: the second pass sees only ranks, so the others are the same stock.
    """

    def __init__(self, waste_size: int) -> None:
        self.waste_size = waste_size
        self.families: dict[int, dict[int, int]] = {}
        self.heap: list[int] = []
        self.own: set[int] = set()  # states whose family is their own, to be added to in place

    def reach(self, consumed: int, after: int, taken: int, stayed: int, family: dict[int, int]) -> None:
        """Add ``family`` to the state: a key orders states as the first pass needs; ``stayed``: a card
        stays above the start's waste (which says nothing once none of it is left)."""
        key = (consumed << 72) | ((_PYRAMID_MASK ^ after) << 16) | (taken << 1) | (stayed and taken < self.waste_size)
        known = self.families.get(key)
        if known is None:
            self.families[key] = family  # shared with the state it came from until another joins
            heapq.heappush(self.heap, key)
        elif known is not family:
            if key in self.own:
                known.update(family)
            else:
                self.families[key] = {**known, **family}
                self.own.add(key)

    def pop(self) -> tuple[int, int, int, int, dict[int, int]]:
        """The next state, as (stock consumed, pyramid, waste taken, stayed), and its family."""
        key = heapq.heappop(self.heap)
        family = self.families.pop(key)
        return key >> 72, _PYRAMID_MASK ^ ((key >> 16) & _PYRAMID_MASK), (key >> 1) & 32767, key & 1, family


class TwoPasses:
    """Exact verdicts with one redeal left and one-card draws: the first pass by families of second passes.

    The depth-first search meets every different waste of the first pass
    apart, and each is the start of a different last pass: Six rows with one
    redeal, reference deal 190, about 9 s. Here the first pass is played as
    :class:`LastPass` plays a last one, by excursions, except that a card
    drawn may also *stay* until the redeal instead of being buried. A state
    is (pyramid, stock cards consumed, start-waste cards taken, whether a card
    stayed above them), and the cards that stayed are not part of it: each
    state carries the *family* of sets of cards that can have stayed on the
    way to it, which become the stock of the second pass; sets whose cards
    have the same ranks count once. The first pass is a few thousand states
    (deal 190: 9,800 states, 58 ms, 287 pyramids at the redeal with 38,872
    stocks between them).

    The second pass is then asked once per pyramid at the redeal, for all the
    stocks of its family together: the stocks are kept as a decision diagram
    over the drawing order (a node: the family of what is left, split at its
    next card into those that hold it and those that do not), and the last
    pass is searched on (pyramid, node) as :class:`LastPass` searches
    (pyramid, stock cards consumed), excursions included. Families of
    different pyramids share their nodes, and so their excursions; the
    smallest pyramids are asked first, where wins mostly are. (Deal 190:
    0.49 s in all.) Tried and not kept: nodes of ranks instead of cards
    (stocks grouped by the rank they start with): no faster, and their
    counts of each rank, which the tests need, are looser.

    A win found this way is not a line yet: :meth:`winning_redeal` says where
    a winning line redeals, :meth:`first_pass_line` plays the first pass to it
    from what the search remembered, and the depth-first search the second.
    """

    def __init__(self, pos: Position, budget: Budget, last_pass: LastPass, relaxation: Relaxation) -> None:
        self.pos = pos
        self.budget = budget
        self.last_pass = last_pass
        self.relaxation = relaxation
        # The decision diagram: node 0 is the empty family, node 1 the family of the empty stock.
        self.families: list[frozenset[int]] = [frozenset(), frozenset([0])]
        self.node_of: dict[frozenset[int], int] = {self.families[0]: 0, self.families[1]: 1}
        self.union = [0, 0]
        self.place = [pos.m, pos.m]
        self.present = [0, 0]
        self.absent = [0, 0]
        self.excursions: dict[int, tuple[int, ...]] = {}
        #: Second-pass states (pyramid, node) proven lost.
        self.lost: set[tuple[int, int]] = set()

    # -- the decision diagram ---------------------------------------------------
    def _node(self, family: frozenset[int]) -> int:
        node = self.node_of.get(family)
        if node is None:
            node = self.node_of[family] = len(self.families)
            self.families.append(family)
            union = 0
            for stock in family:
                union |= stock
            self.union.append(union)
            self.place.append((union & -union).bit_length() - 1 if union else self.pos.m)
            self.present.append(-1)  # split when first asked
            self.absent.append(-1)
        return node

    def _split(self, node: int) -> None:
        """The node's children: the stocks holding its next card (without it), and the others."""
        bit, family = 1 << self.place[node], self.families[node]
        self.present[node] = self._node(frozenset([stock ^ bit for stock in family if stock & bit]))
        self.absent[node] = self._node(frozenset([stock for stock in family if not stock & bit]))

    # -- the question -----------------------------------------------------------
    def winning_redeal(self, pm: int, live: int, q: int) -> RedealTo | None:
        """Can the position (one redeal left) be won? ``None`` if not; else where a winning line
        redeals, or :data:`CLEARED_BEFORE_REDEAL`."""
        try:
            ends = self._first_pass(pm, live, q)
        except PyramidCleared:
            return CLEARED_BEFORE_REDEAL
        # The smallest pyramids first: a win is most often there, and then found at once.
        for end_pm in sorted(ends, key=int.bit_count):
            root = self._node(frozenset(ends[end_pm].values()))
            if self._second_pass_wins(end_pm, root):
                return self._witness(end_pm, root)
        return None

    def _witness(self, pm: int, root: int) -> RedealTo:
        """One stock of the family at ``root`` whose last pass clears ``pm`` (there is one)."""
        pos = self.pos
        for stock in sorted(self.families[root]):
            if self.last_pass.can_win(pm, stock, pos.next_live(stock, 0)):
                return RedealTo(pm, stock)
        raise AssertionError("the family's second pass was won, one of its stocks must be")

    def _first_pass(self, pm: int, live: int, q: int) -> dict[int, dict[int, int]]:
        """Every pyramid the first pass can redeal with, and the family of stocks it can leave for it.

        States are ordered so that each comes after every state that leads to
        it (more stock consumed, then a smaller pyramid, then more start-waste
        taken), so a state's family is complete when it is taken up (:class:`_FirstPassStates`).
        The pyramid moves only when a stock or waste card takes one of its cards
        (:class:`~pyramid.engine.solver.freeing.Freeing`): the removals inside it are left to the
        second pass, which makes them where they free a card.
        """
        pos, budget, last_pass = self.pos, self.budget, self.last_pass
        stock_bits, waste_bits, stock = pos.pass_cards(live, q)
        length, waste_size = len(stock_bits), len(waste_bits)
        waste_left = [0] * (waste_size + 1)  # the start's waste after ``taken`` cards left it
        waste_ranks = [0] * (waste_size + 1)  # and its ranks, bottom card first (highest)
        for taken in range(waste_size - 1, -1, -1):
            waste_left[taken] = waste_left[taken + 1] | (1 << waste_bits[taken])
        for taken in range(waste_size):
            waste_ranks[taken] = pos.rank_sequence(waste_left[taken])
        states = _FirstPassStates(waste_size)
        ends: dict[int, dict[int, int]] = {}
        states.reach(0, pm, 0, 0, {0: 0})
        while states.heap:
            consumed, here, taken, stayed, family = states.pop()
            budget.tick()
            freed = last_pass.freeing.of(here)  # no removal inside the pyramid but to free a card taken
            if freed.clears and not pos.goal_all:
                raise PyramidCleared
            top = (stock >> (4 * consumed)) & 15
            if not stayed and taken < waste_size:
                self._waste_top_moves(states, pos.stock_rank[waste_bits[taken]], top, consumed, here, freed,
                                      taken, family)
            if consumed == length:
                if freed.clears and not waste_left[taken] and 0 in family:
                    raise PyramidCleared  # goal "all": the whole table is cleared without the redeal
                end = ends.setdefault(here, {})
                for ranks, stayers in family.items():
                    end[(waste_ranks[taken] << (4 * ((ranks.bit_length() + 3) // 4))) | ranks] = stayers | waste_left[taken]
                continue
            self._stock_top_moves(states, stock, stock_bits[consumed], top, consumed, here, freed, taken, stayed,
                                  family)
        return ends

    def _waste_top_moves(self, states: "_FirstPassStates", card: int, top: int, consumed: int, here: int,
                         freed: Freed, taken: int, family: dict[int, int]) -> None:
        """The first pass: the start's waste top (of rank ``card``) leaves, alone, with a pyramid card
        (after the removals that free it) or with the stock top (of rank ``top``, 0 for none)."""
        pos = self.pos
        target = pos.target
        if card == target:
            states.reach(consumed, here, taken + 1, 0, family)
            return
        for after in freed.after.get(target - card, ()):
            states.reach(consumed, after, taken + 1, 0, family)
        if pos.stock_top_playable and top and top + card == target:
            states.reach(consumed + 1, here, taken + 1, 0, family)

    def _stock_top_moves(self, states: "_FirstPassStates", stock: int, top_bit: int, top: int, consumed: int,
                         here: int, freed: Freed, taken: int, stayed: int, family: dict[int, int]) -> None:
        """The first pass: the stock top (of rank ``top``, sequence index ``top_bit``) leaves (a king, or
        with a pyramid card after the removals that free it), stays for the second pass (each stock of
        the family grows by it), or goes on an excursion (reduced: see
        :class:`~pyramid.engine.solver.freeing.Freeing`)."""
        pos = self.pos
        target = pos.target
        if top == target:
            states.reach(consumed + 1, here, taken, stayed, family)
            return
        if pos.stock_top_playable:
            for after in freed.after.get(target - top, ()):
                states.reach(consumed + 1, after, taken, stayed, family)
        bit = 1 << top_bit
        states.reach(consumed + 1, here, taken, 1, {(ranks << 4) | top: stayers | bit for ranks, stayers in family.items()})
        pyramid_mask = (1 << PYRAMID_BITS) - 1
        for outcome in self.last_pass.excursion(here, top, stock >> (4 * consumed + 4), True):
            states.reach(consumed + 1 + (outcome >> CONSUMED_SHIFT), outcome & pyramid_mask, taken, stayed, family)

    def _second_pass_wins(self, pm: int, root: int) -> bool:
        """Does some stock of the family at ``root`` clear ``pm`` in the last pass?

        The search of :meth:`LastPass._search` on (pyramid, node): a node
        with children offers both the stocks that hold its next card and those
        that do not. The pyramid moves only when a stock card takes one of its
        cards, after the removals inside it that free that card
        (:class:`~pyramid.engine.solver.freeing.Freeing`), and a pyramid that
        its own removals clear counts as cleared. Each state
        is first put to the verdict search's tests with the cards any stock of
        the node holds (sound: fewer cards never win more); states lost are
        remembered for other pyramids' families.
        """
        pos, budget, relaxation, lost = self.pos, self.budget, self.relaxation, self.lost
        freeing = self.last_pass.freeing
        target, stock_rank, goal_all = pos.target, pos.stock_rank, pos.goal_all
        stock_top_playable = pos.stock_top_playable
        union, place, present, absent = self.union, self.place, self.present, self.absent
        seen: set[tuple[int, int]] = set()
        todo = [(pm, root)]
        try:
            while todo:
                state = todo.pop()
                if state in seen or state in lost:
                    continue
                seen.add(state)
                budget.tick()
                here, node = state
                cards = union[node]
                freed = freeing.of(here)  # no removal inside the pyramid but to free a card taken
                if freed.clears and (not goal_all or not cards):
                    return True
                if not cards or pos.needs_more(here, cards) \
                        or not relaxation.can_win(here, cards, pos.next_live(cards, 0), 0):
                    continue
                if present[node] < 0:
                    self._split(node)
                if absent[node]:
                    todo.append((here, absent[node]))
                below = present[node]
                if not below:
                    continue
                top = stock_rank[place[node]]
                if top == target or not goal_all:
                    todo.append((here, below))  # a king leaves, or a burial
                if top == target:
                    continue
                if stock_top_playable:
                    for after in freed.after.get(target - top, ()):
                        todo.append((after, below))
                for outcome in self._excursion(here, top, below):
                    todo.append((outcome & ((1 << CONSUMED_SHIFT) - 1), outcome >> CONSUMED_SHIFT))
        except PyramidCleared:
            return True
        lost.update(seen)
        return False


    # -- the line ---------------------------------------------------------------
    def first_pass_line(self, pm: int, live: int, q: int, redeal: RedealTo) -> list[int | tuple[int, ...]]:
        """The moves of a first pass from the position to ``redeal`` (which :meth:`winning_redeal` found).

        The first pass again, with its family reduced to the one stock wanted:
        a card in it must stay, any other must leave. Each state remembers the
        step that reached it, and excursions are played out by
        :meth:`_excursion_line` from the outcomes already remembered.
        """
        stock_bits, waste_bits, stock_ranks = self.pos.pass_cards(live, q)
        end_pm, end_live = redeal
        drawn = [0] * (len(stock_bits) + 1)  # the stock cards among the first ``consumed``
        for place, j in enumerate(stock_bits):
            drawn[place + 1] = drawn[place] | (1 << j)
        goal = _LineGoal(end_pm, end_live, sum(1 for j in waste_bits if not end_live >> j & 1),
                         drawn, stock_bits, waste_bits, stock_ranks)
        # step: (previous state, tokens); a state is (consumed, pyramid, taken).
        came: dict[_LineState, tuple[_LineState, list[int | tuple[int, ...]]]] = {}
        start: _LineState = (0, pm, 0)
        todo, seen = [start], {start}
        while todo:
            state = todo.pop()
            if state == (len(stock_bits), end_pm, goal.keep_waste):
                break
            for after, tokens in self._line_steps(state, goal, seen):
                if after not in seen and after[1] & end_pm == end_pm:
                    seen.add(after)
                    came[after] = (state, tokens)
                    todo.append(after)
        else:
            raise AssertionError("the redeal found by the first pass must be reachable")
        line: list[int | tuple[int, ...]] = []
        while state != start:
            state, tokens = came[state]
            line[:0] = tokens
        return line

    def _line_steps(self, state: _LineState, goal: "_LineGoal",
                    seen: set[_LineState]) -> Iterator[tuple[_LineState, list[int | tuple[int, ...]]]]:
        """The states one step on from ``state`` in :meth:`first_pass_line`, each with its moves:
        a pyramid removal, the next card of the start's waste leaving, the stock's top staying or
        leaving (an excursion of its own is played out only toward a state not ``seen`` yet)."""
        pos, last_pass = self.pos, self.last_pass
        target, rank_mask, stock_rank = pos.target, pos.rank_mask, pos.stock_rank
        consumed, here, taken = state
        entry = last_pass.moves.get(here)
        uncovered, smaller = entry if entry is not None else last_pass._pyramid_moves(here)
        for after in smaller:
            yield (consumed, after, taken), [tuple(set_bits(here ^ after))]
        end_live, stock_bits = goal.end_live, goal.stock_bits
        top_id = stock_bits[consumed] if consumed < len(stock_bits) else -1
        if not end_live & goal.drawn[consumed] and taken < goal.keep_waste:
            yield from self._waste_card_leaves(state, goal, uncovered, top_id)
        if top_id < 0:
            return
        top = stock_rank[top_id]
        if end_live >> top_id & 1:
            yield (consumed + 1, here, taken), [DRAW]  # it stays
            return
        if top == target:
            king: list[int | tuple[int, ...]] = [(STOCK_ID + top_id,)]
            yield (consumed + 1, here, taken), king if pos.stock_top_playable else [DRAW, *king]
            return
        if pos.stock_top_playable:
            for partner in set_bits(uncovered & rank_mask[target - top]):
                yield (consumed + 1, here & ~(1 << partner), taken), [(partner, STOCK_ID + top_id)]
        rest = stock_bits[consumed + 1:]
        for outcome in last_pass.excursion(here, top, goal.stock_ranks >> (4 * (consumed + 1))):
            used = outcome >> CONSUMED_SHIFT
            if end_live & (goal.drawn[consumed + 1 + used] ^ goal.drawn[consumed + 1]):
                continue  # a card that must stay would leave
            after_state = (consumed + 1 + used, outcome & ((1 << CONSUMED_SHIFT) - 1), taken)
            if after_state not in seen:
                yield after_state, [DRAW, *self._excursion_line(here, top_id, rest, outcome)]

    def _waste_card_leaves(self, state: _LineState, goal: "_LineGoal", uncovered: int,
                           top_id: int) -> Iterator[tuple[_LineState, list[int | tuple[int, ...]]]]:
        """The ways the next card of the start's waste (one that must leave) leaves: a king alone,
        with an uncovered pyramid card, or with the stock's top when it plays."""
        pos = self.pos
        consumed, here, taken = state
        card_id = goal.waste_bits[taken]
        card = pos.stock_rank[card_id]
        if card == pos.target:
            yield (consumed, here, taken + 1), [(STOCK_ID + card_id,)]
            return
        for partner in set_bits(uncovered & pos.rank_mask[pos.target - card]):
            yield (consumed, here & ~(1 << partner), taken + 1), [(partner, STOCK_ID + card_id)]
        if (pos.stock_top_playable and top_id >= 0 and not goal.end_live >> top_id & 1
                and pos.stock_rank[top_id] + card == pos.target):
            yield (consumed + 1, here, taken + 1), [(STOCK_ID + top_id, STOCK_ID + card_id)]

    def _excursion_line(self, pm: int, card_id: int, stock: list[int], outcome: int) -> list[int | tuple[int, ...]]:
        """The moves of an excursion of the card ``card_id`` (on the waste top, ``stock`` after it) that end
        in ``outcome`` (see :meth:`LastPass.excursion`), found among the excursions it is made of."""
        pos, last_pass = self.pos, self.last_pass
        target, rank_mask, stock_rank = pos.target, pos.rank_mask, pos.stock_rank
        card = stock_rank[card_id]
        need = target - card
        pyramid_mask = (1 << CONSUMED_SHIFT) - 1
        used, after = outcome >> CONSUMED_SHIFT, outcome & pyramid_mask
        uncovered, smaller = last_pass.moves.get(pm) or last_pass._pyramid_moves(pm)
        gone = pm ^ after
        if not used and gone and not gone & (gone - 1) and gone & uncovered & rank_mask[need]:
            return [(gone.bit_length() - 1, STOCK_ID + card_id)]
        ranks = ranks_in_stock(stock_rank, stock)
        for smaller_pm in smaller:
            if outcome in last_pass.excursion(smaller_pm, card, ranks):
                return [tuple(set_bits(pm ^ smaller_pm)), *self._excursion_line(smaller_pm, card_id, stock, outcome)]
        assert stock, "an outcome of an excursion comes from one of its moves"
        top_id, rest = stock[0], stock[1:]
        top, rest_ranks, one = stock_rank[top_id], ranks >> 4, 1 << CONSUMED_SHIFT
        if top == target:
            king: list[int | tuple[int, ...]] = [(STOCK_ID + top_id,)]
            return [*(king if pos.stock_top_playable else [DRAW, *king]),
                    *self._excursion_line(pm, card_id, rest, outcome - one)]
        if pos.stock_top_playable:
            if top == need and outcome == pm | one:
                return [(STOCK_ID + top_id, STOCK_ID + card_id)]
            for partner in set_bits(uncovered & rank_mask[target - top]):
                if used and outcome - one in last_pass.excursion(pm & ~(1 << partner), card, rest_ranks):
                    return [(partner, STOCK_ID + top_id),
                            *self._excursion_line(pm & ~(1 << partner), card_id, rest, outcome - one)]
        for inner in last_pass.excursion(pm, top, rest_ranks):
            inner_used = (inner >> CONSUMED_SHIFT) + 1
            left = outcome - (inner_used << CONSUMED_SHIFT)
            later = rest[inner_used - 1:]
            if left >= 0 and left in last_pass.excursion(inner & pyramid_mask, card, ranks >> (4 * inner_used)):
                return [DRAW, *self._excursion_line(pm, top_id, rest, inner),
                        *self._excursion_line(inner & pyramid_mask, card_id, later, left)]
        raise AssertionError("an outcome of an excursion comes from one of its moves")

    def _excursion(self, pm: int, card: int, node: int) -> tuple[int, ...]:
        """:meth:`LastPass.excursion` over the stocks of ``node``: the outcomes are ``pyramid | node << 56``.

        (Cache lookups written out before each call, as there: most calls find their answer.)
        """
        excursions = self.excursions
        card_key, node_key = card << CONSUMED_SHIFT, node << (CONSUMED_SHIFT + 4)
        key = pm | card_key | node_key
        known = excursions.get(key)
        if known is not None:
            return known
        pos = self.pos
        freed = self.last_pass.freeing.of(pm)
        if freed.clears and not pos.goal_all:
            raise PyramidCleared
        target, rank_mask, stock_top_playable = pos.target, pos.rank_mask, pos.stock_top_playable
        need = target - card
        partners_mask = rank_mask[need]
        cards = self.union[node]
        if not pm & partners_mask and not (stock_top_playable and pos.stock_rank_mask[need] & cards):
            excursions[key] = ()
            return ()
        last_pass = self.last_pass
        short = last_pass.short.get(pm)
        if short is None:
            short = last_pass.short[pm] = last_pass._short(pm)
        if short:
            excursions[key] = ()
            return ()
        self.budget.tick()
        node_outcome = node << CONSUMED_SHIFT
        outcomes = {after | node_outcome for after in freed.after.get(need, ())}
        if cards:
            self._node_stock_outcomes(pm, card, node, freed, outcomes)
        known = excursions[key] = tuple(outcomes)
        return known

    def _node_stock_outcomes(self, pm: int, card: int, node: int, freed: Freed, outcomes: set[int]) -> None:
        """The outcomes of :meth:`_excursion` that begin with the stock's next card, in the stocks of
        ``node`` that lack it and in those that hold it (a king leaving, the card or a pyramid card
        pairing with it, or its own excursion), added to ``outcomes``."""
        excursions, pos = self.excursions, self.pos
        target, card_key = pos.target, card << CONSUMED_SHIFT
        if self.present[node] < 0:
            self._split(node)
        absent, below = self.absent[node], self.present[node]
        if absent:
            found = excursions.get(pm | card_key | (absent << (CONSUMED_SHIFT + 4)))
            outcomes.update(found if found is not None else self._excursion(pm, card, absent))
        if not below:
            return
        below_key = below << (CONSUMED_SHIFT + 4)
        top = pos.stock_rank[self.place[node]]
        if top == target:
            found = excursions.get(pm | card_key | below_key)
            outcomes.update(found if found is not None else self._excursion(pm, card, below))
            return
        if pos.stock_top_playable:
            if top == target - card:
                outcomes.add(pm | (below << CONSUMED_SHIFT))
            for after in freed.after.get(target - top, ()):
                outcomes.update(self._excursion(after, card, below))
        pyramid_mask = (1 << CONSUMED_SHIFT) - 1
        nested = excursions.get(pm | (top << CONSUMED_SHIFT) | below_key)
        for inner in nested if nested is not None else self._excursion(pm, top, below):
            after = inner & pyramid_mask
            found = excursions.get(after | card_key | ((inner >> CONSUMED_SHIFT) << (CONSUMED_SHIFT + 4)))
            outcomes.update(found if found is not None else self._excursion(after, card, inner >> CONSUMED_SHIFT))

