"""The best score reachable from a position, and one of the shortest lines that reaches it.

What Microsoft's score challenges ask ("Earn a score of 1,290"), and the console's best-score par:
the highest score any legal line reaches under the position's own scoring (docs/rules.md), exact,
never a guess (:func:`best_score`; ``unknown`` past the budget). docs/solver.md, "best score".

**Why a reachability question.** Every scoring here is a function of *which* cards have left,
never of the order (Three passes: 5 a removal, and a row's bonus once it is empty; RetroHub: each
card's points; the others: the pyramid cards left). So the best score is the best over the
positions play can reach, and positions are searched once each, by *state*: the pyramid, the ranks
of the stock and waste in drawing order, the waste's size and the redeals left (suits never matter;
:meth:`Position.sequence_key`), which fixes the cards removed and so the score.

**Two passes over the states.** A depth-first search, removals first, finds high scores early and
skips every state whose :meth:`BestScoreSearch.ceiling` (its score plus all that could still be
earned) cannot beat the best so far; it stops at once when the best equals the start's ceiling (a
perfect game). Then an A* search, which skips the states whose ceiling falls short of that best,
finds the fewest moves that reach it. docs/solver.md says why each shortcut on the way is sound.
"""

from __future__ import annotations

import ctypes
import heapq
import time
from collections.abc import Callable, Iterator
from typing import Literal, NamedTuple

from pyramid.engine.board import Board, Move, msc_row_bonus
from pyramid.engine.solver.answers import solve
from pyramid.engine.solver.budget import Budget, BudgetExceeded
from pyramid.engine.solver.compiled import (BYTE_BOUND, SCORING_KINDS, WIN, CompiledCore, Core, ScoringRecord,
                                             compiled_library)
from pyramid.engine.solver.position import (DRAW, PYRAMID_BITS, REDEAL, ROW_STRIDE, SEQUENCE_SHIFT, STOCK_ID, UNLIMITED,
                                             Position, max_matching, set_bits, uncovered_mask)

#: Where the redeals left go in a state key: after the pyramid, the waste size and 32 ranks.
_R_SHIFT = SEQUENCE_SHIFT + 4 * 32
#: A step of a line: a removal (card ids), or :data:`DRAW` / :data:`REDEAL`.
Token = int | tuple[int, ...]


class BestScore(NamedTuple):
    """The answer: ``"best"`` with the highest ``score`` reachable (the game's own score: points,
    or for "cards left" scoring the fewest cards left) and one of the shortest ``moves`` reaching
    it from the position; ``"unknown"`` (score 0, no moves) when the budget ran out first."""

    verdict: Literal["best", "unknown"]
    score: int
    moves: tuple[Move, ...]
    nodes: int


class _Outlook(NamedTuple):
    """What the cards that may still leave allow: the pyramid cards that never can, the removals the
    ranks of the others allow, the live cards that may leave, the row bonuses still within reach, and
    the highest row from which the rows down may all be emptied (the rows' count when none may)."""

    stranded: int
    removals: int
    free_live: int
    bonus: int
    clear_from: int


class _PairOutlook(NamedTuple):
    """What one pair of complementary ranks allows (:meth:`BestScoreSearch.pair_outlook`)."""

    pairs: int
    clear_from: int
    stay: int


class _State(NamedTuple):
    pm: int
    live: int
    q: int
    r: int


#: How far ahead in the stock a state is (:meth:`BestScoreSearch.ahead`), and below every state.
Ahead = tuple[int, int]
NO_LIMIT: Ahead = (-1, 0)


class _Visits(NamedTuple):
    """What the depth-first pass expanded (:meth:`BestScoreSearch.first_visit`): with one-card
    draws, per cards, how far ahead the furthest state of them a removal reached is; with more cards
    a draw, per state, whether only a draw reached it."""

    ahead: dict[int, Ahead]
    seen: dict[int, bool]


class BestScoreSearch:
    """The searches of the module docstring over one position's compact encoding."""

    def __init__(self, board: Board, budget: Budget) -> None:
        self.board = board
        self.pos = pos = Position(board)
        self.budget = budget
        self.rules = rules = board.rules
        self.start = _State(pos.start_pm, pos.start_live, pos.start_q, pos.start_r)
        self.rows = [sum(1 << (row * ROW_STRIDE + col) for col in range(row + 1)) for row in range(rules.rows)]
        self.row_of = {row * ROW_STRIDE + col: row for row in range(rules.rows) for col in range(row + 1)}
        #: RetroHub's points of a pyramid card, by its bit (Board.card_points).
        self.points = {bit: 5 * (rules.rows - row) for bit, row in self.row_of.items()}
        self.kings = pos.rank_mask[pos.target], pos.stock_rank_mask[pos.target]
        self._outlooks: dict[int, _Outlook] = {}
        self._pair_outlooks: dict[tuple[int, int, int, int], _PairOutlook] = {}
        #: Per low rank of a pair of complementary ranks: the pair's pyramid cards.
        self.pair_cards = {low: (pos.rank_mask[low] | pos.rank_mask[high]) & pos.start_pm for low, high in pos.rank_pairs}

    # -- what a state is worth ------------------------------------------------------
    def gain(self, pm: int, live: int) -> int:
        """What the cards removed since the start earned (for "cards left": how many pyramid cards left)."""
        start = self.start
        gone_pm, gone_live = start.pm & ~pm, start.live & ~live
        scoring = self.rules.scoring
        if scoring == "cards_left":
            return gone_pm.bit_count()
        if scoring == "retrohub":
            return sum(self.points[bit] for bit in set_bits(gone_pm)) + 5 * gone_live.bit_count()
        kings = (gone_pm & self.kings[0]).bit_count() + (gone_live & self.kings[1]).bit_count()
        removals = (gone_pm.bit_count() + gone_live.bit_count() + kings) // 2
        emptied = sum(msc_row_bonus(self.rules.rows, row) for row, mask in enumerate(self.rows)
                      if start.pm & mask and not pm & mask)
        return 5 * removals + emptied

    def ceiling(self, state: _State) -> int:
        """At least the best gain reachable from a state (:meth:`outlook`): as if every card that may
        still leave did (for Three passes: each king, the most pairs each pair of ranks can make, and
        every row bonus those pairs leave within reach). Cards buried in the last pass under a waste
        card that can never leave are not counted."""
        pm, live = state.pm, state.live
        now = self.gain(pm, live)
        scoring = self.rules.scoring
        outlook = self.outlook(pm, self.playable(state))
        if scoring == "cards_left":
            return now + (pm & ~outlook.stranded).bit_count()
        if scoring == "retrohub":
            return now + sum(self.points[bit] for bit in set_bits(pm & ~outlook.stranded)) + 5 * outlook.free_live
        return now + 5 * outlook.removals + outlook.bonus

    def playable(self, state: _State) -> int:
        """The live cards that may still leave (:meth:`Position.forget_buried`)."""
        return self.pos.forget_buried(state.pm, state.live, state.q, state.r)

    def outlook(self, pm: int, live: int) -> "_Outlook":
        """What the cards that may still leave (not :meth:`dead_cards`) allow, by pairs of ranks
        (:meth:`pair_outlook`); cached by the pyramid and live cards. The pairs' searches may find
        pyramid cards that can never leave: the dead cards are then found again with them."""
        key = pm | (live << 64)
        known = self._outlooks.get(key)
        if known is not None:
            return known
        pos, target = self.pos, self.pos.target
        stranded, stay = 0, -1
        while stay:
            stranded, dead_live = self.dead_cards(pm, live, stranded)
            alive_pm, alive_live = pm & ~stranded, live & ~dead_live
            removals = (pos.rank_mask[target] & alive_pm).bit_count() + (pos.stock_rank_mask[target] & alive_live).bit_count()
            clear_from = max((self.row_of[bit] + 1 for bit in set_bits(stranded)), default=0)
            stay = 0
            for low, high in pos.rank_pairs:
                if low == high:  # an even target: at most half of them pair
                    removals += ((pos.rank_mask[low] & alive_pm).bit_count()
                                 + (pos.stock_rank_mask[low] & alive_live).bit_count()) // 2
                    continue
                pair = self.pair_outlook(low, high, alive_pm, alive_live)
                removals += pair.pairs
                clear_from = max(clear_from, pair.clear_from)
                stay |= pair.stay
            stranded |= stay
        bonus = sum(msc_row_bonus(self.rules.rows, row) for row, mask in enumerate(self.rows)
                    if row >= clear_from and pm & mask)
        known = self._outlooks[key] = _Outlook(stranded, removals, alive_live.bit_count(), bonus, clear_from)
        return known

    def pair_outlook(self, low: int, high: int, pm: int, live: int) -> "_PairOutlook":
        """For one pair of complementary ranks, of the cards ``pm`` and ``live`` (those that may still
        leave): the most pairs they can make, the highest row from which every one of their pyramid
        cards down may leave, and their pyramid cards that can never leave; cached.

        Over every set of their pyramid cards that could leave: with each card, those of the pair that
        cover it (they leave first); every card of the set matched, with a card of the other rank
        outside its cones (``max_matching``) or with a live card (which may pair with any). Pairs
        inside the set are as many as the matching allows, the others taken by live cards, the live
        cards left pairing with each other. A card in no such set never leaves: the cards of the pair
        that leave in any line make such a set."""
        pos = self.pos
        alive = self.pair_cards[low] & pm
        lows, highs = (pos.stock_rank_mask[low] & live).bit_count(), (pos.stock_rank_mask[high] & live).bit_count()
        key = (low, alive, lows, highs)
        known = self._pair_outlooks.get(key)
        if known is not None:
            return known
        pairs, clear_from, leave_any = 0, PYRAMID_BITS // ROW_STRIDE, 0
        for leave in subsets(alive):
            if any(pos.covering[bit] & alive & ~leave for bit in set_bits(leave)):
                continue  # a card of the pair covering one that leaves stays
            leave_lows, leave_highs = leave & pos.rank_mask[low], leave & pos.rank_mask[high]
            low_count, high_count = leave_lows.bit_count(), leave_highs.bit_count()
            inside = self.matching(leave_lows, leave_highs)
            if low_count - inside > highs or high_count - inside > lows:
                continue
            pairs = max(pairs, low_count + high_count + min(lows - high_count, highs - low_count))
            stay = alive & ~leave
            clear_from = min(clear_from, self.row_of[stay.bit_length() - 1] + 1 if stay else 0)
            leave_any |= leave
        known = self._pair_outlooks[key] = _PairOutlook(pairs, clear_from, alive & ~leave_any)
        return known

    def matching(self, cards: int, others: int) -> int:
        """The most pairs pyramid ``cards`` can make with pyramid ``others``."""
        return max_matching(cards, others, self.pos.pyramid_partners) if cards and others else 0

    def dead_cards(self, pm: int, live: int, dead: int = 0) -> tuple[int, int]:
        """The pyramid cards and the live cards that can never leave, from the pyramid cards ``dead``
        known to: a card covered by one that never leaves, and a card without a partner left that
        could (none of its partner rank among the live cards, nor in the pyramid outside the cards it
        covers and those covering it), until none is added. Sound: a card leaves with a partner
        leaving at the same time, once uncovered."""
        pos, target = self.pos, self.pos.target
        alive_pm, alive_live, changed = pm & ~dead, live, True
        while changed:
            changed = False
            for bit in set_bits(alive_pm):
                need = target - pos.rank[bit]
                card = 1 << bit
                if (pos.covering[bit] & pm & ~alive_pm
                        or need > 0 and not pos.stock_rank_mask[need] & alive_live
                        and not pos.pyramid_partners[bit] & alive_pm & ~card):
                    alive_pm &= ~card
                    changed = True
            for index in set_bits(alive_live):
                need = target - pos.stock_rank[index]
                card = 1 << index
                if need > 0 and not pos.stock_rank_mask[need] & alive_live & ~card and not pos.rank_mask[need] & alive_pm:
                    alive_live &= ~card
                    changed = True
        return pm & ~alive_pm, live & ~alive_live

    # -- the moves ---------------------------------------------------------------------
    def key(self, state: _State) -> int:
        return self.pos.sequence_key(state.pm, state.live, state.q) | (state.r << _R_SHIFT)

    def successors(self, state: _State, drew: bool = False) -> Iterator[tuple[Token, _State]]:
        """Each move from ``state`` and the state it leads to: removals first, then the draw or the redeal.

        ``drew``: ``state`` was reached by a draw or a redeal. Removals inside the pyramid are then
        left out: they could have come before that draw, which changes neither the cards removed nor
        the length (and where one clears the pyramid, the draw before it was not needed at all), so
        some best line, and some shortest one, never makes them right after a draw.

        A king that can leave without ending the game is the one move tried: a king pairs with
        nothing, so it only ever keeps cards from play, and any line that leaves it there does as
        well or better once it leaves first (its draws, and a redeal that only brought it back,
        dropped). A best line removes it, since leaving it would earn more, so some best line, and
        some shortest one, removes it at once. Not the king whose removal clears the pyramid: that
        ends the game, and cards still to score might have left first. Nor, with more than one card
        drawn at a time, a king of the stock or the waste: taking it out changes which cards the
        draws of the passes after turn up (King Tut's reference deal 5 with two redeals clears its
        pyramid only with the Ks left in the stock for a while). Nor where only the pyramid's cards
        count ("cards left"): a stock or waste king earns nothing there, and a shortest line may
        leave it be (taking it out first cost one move in a thousand small positions).
        """
        pos = self.pos
        pm, live, q, r = state
        if pos.is_won(pm, live):
            return  # the game is over: nothing scores after its goal is met
        uncovered = uncovered_mask(pm)
        removals = pos.open_removals(uncovered, live, q)
        if not drew:
            kings = [(bit,) for bit in set_bits(uncovered & pos.rank_mask[pos.target])]
            removals = [*kings, *removals, *pos.pyramid_removals(pm, uncovered)]
        moves = [(removal, self.after(state, removal)) for removal in removals]
        stock_kings_leave = pos.draw_count == 1 and self.rules.scoring != "cards_left"
        king = next((move for move in moves if len(move[0]) == 1 and (stock_kings_leave or move[0][0] < STOCK_ID)
                     and not pos.is_won(move[1].pm, move[1].live)), None)
        if king is not None:
            yield king  # a king that can leave leaves at once (see above)
            return
        yield from moves
        if q < pos.m:
            yield DRAW, _State(pm, live, pos.after_draw(live, q), r)
        elif live & ((1 << q) - 1) and r:
            yield REDEAL, _State(pm, live, pos.next_live(live, 0), r if r == UNLIMITED else r - 1)

    def after(self, state: _State, removal: tuple[int, ...]) -> _State:
        """The state ``removal`` leads to from ``state`` (not :meth:`Position.apply_removal`, which
        forgets buried waste cards: here they would count as removed, and score)."""
        pm, live = state.pm, state.live
        for card in removal:
            if card >= STOCK_ID:
                live &= ~(1 << (card - STOCK_ID))
            else:
                pm &= ~(1 << card)
        return _State(pm, live, self.pos.next_live(live, state.q), state.r)

    # -- the two searches ----------------------------------------------------------------
    def best_gain(self, floor: int = 0) -> int:
        """The depth-first pass: the best gain reachable from the start, searched from ``floor``, a
        gain some line is known to reach (only states that could beat it are expanded)."""
        start = self.start
        top = self.ceiling(start)
        best = max(self.gain(start.pm, start.live), floor)
        visits = _Visits({}, {})
        walk = self.first_visit(visits, start, False, NO_LIMIT)
        assert walk is not None, "the first state met is searched"
        stack = [(self.successors(start), walk)]
        while stack and best < top:
            moves, limit = stack[-1]
            step = next(moves, None)
            if step is None:
                stack.pop()
                continue
            token, state = step
            drew = token == DRAW or token == REDEAL
            if drew:
                state, _ = self.next_choice(state)
            walk = self.first_visit(visits, state, drew, limit)
            if walk is None:
                continue
            self.budget.tick()
            best = max(best, self.gain(state.pm, state.live))
            if self.ceiling(state) > best:
                stack.append((self.successors(state, drew), walk))
        return best

    def next_choice(self, state: _State) -> tuple[_State, int]:
        """The first state from ``state`` (reached by a draw or a redeal) where a removal can be made
        or no card drawn, and how many draws that took: the draws in between are the only moves of
        the states they pass (see :meth:`successors`), which neither pass need keep. A third of the
        states of reference deal 9 (1,285)."""
        pos = self.pos
        pm, live, q, r = state
        draws = 0
        while q < pos.m and not pos.open_removals(uncovered_mask(pm), live, q):
            q = pos.after_draw(live, q)
            draws += 1
        return _State(pm, live, q, r), draws

    def first_visit(self, visits: "_Visits", state: _State, drew: bool, limit: Ahead) -> Ahead | None:
        """Whether the depth-first pass expands ``state``, reached by a draw or a redeal (``drew``) or
        not: ``None`` when not, else how far its draws go. (States that cannot beat the best are
        kept too: they never will.)

        With one-card draws and redeals counted, a state reaches every state of its cards less far
        ahead in the stock (:meth:`ahead`) by drawing and redealing, so whatever those lead to, it
        leads to too. So a state a removal reached is not expanded when one of the same cards as far
        ahead or further was, and the draws from the one expanded walk on only down to where an
        earlier walk of the same cards began (``limit``): the states a draw reached need no table
        at all. Three passes' deal 582 went from 4.28 million states kept to 0.38 million.

        With more cards drawn at a time the draws from two places need not meet, and with unlimited
        redeals they come round again with no end: then each state is expanded once, and once more
        when a draw reached it first and another move then does (it then tries the pyramid's
        removals too, see :meth:`successors`)."""
        if self.pos.draw_count != 1 or state.r == UNLIMITED:
            key = self.key(state)
            known = visits.seen.get(key)
            if known is False or (known and drew):
                return None
            visits.seen[key] = drew
            return NO_LIMIT
        ahead = self.ahead(state)
        if drew:
            return limit if ahead > limit else None
        cards = self.key(_State(state.pm, state.live, 0, 0))
        furthest = visits.ahead.get(cards, NO_LIMIT)
        if furthest >= ahead:
            return None
        visits.ahead[cards] = ahead
        return furthest

    def ahead(self, state: _State) -> Ahead:
        """How far ahead in the stock a state is: the redeals left, then the fewer cards in the waste."""
        return state.r, -(state.live & ((1 << state.q) - 1)).bit_count()

    def shortest_to(self, gain: int) -> list[Token]:
        """The second pass: a shortest line from the start to a state worth ``gain``, by A*.

        The estimate is the fewest removals still needed (:meth:`needed`): admissible, so the first
        state worth ``gain`` taken from the queue ends a shortest line, a state being searched again
        when a shorter way reaches it after all (the estimate reads the bounds of :meth:`outlook`,
        which need not shrink by a removal a move). Among equal estimates the deepest state goes
        first. A draw goes straight on to the next choice (:meth:`next_choice`), each draw a move:
        Three passes' deal 582 kept 0.76 million states where it kept 0.97 million.
        """
        start = self.start
        start_key = self.key(start) << 1
        parent: dict[int, tuple[int, Token, int]] = {}
        distance = {start_key: 0}
        estimate = self.needed(start, gain)
        assert estimate is not None
        # (moves at least, minus the moves made, order, key, state): keys are a state's and, in their
        # lowest bit, whether a draw or a redeal reached it (see :meth:`successors`).
        queue = [(estimate, 0, 0, start_key, start)]
        order = 0
        while queue:
            _, made, _, key, state = heapq.heappop(queue)
            if distance[key] != -made:
                continue  # a shorter way reached it since
            if self.gain(state.pm, state.live) >= gain:
                return self._line(parent, key, start_key)
            for token, after in self.successors(state, bool(key & 1)):
                drew = token == DRAW or token == REDEAL
                draws = 0
                if drew:  # on to the next choice, each draw a move
                    after, draws = self.next_choice(after)
                moves = 1 + draws - made
                after_key = self.key(after) << 1 | drew
                if distance.get(after_key, moves + 1) <= moves:
                    continue
                self.budget.tick()
                estimate = self.needed(after, gain)
                if estimate is None:
                    continue
                distance[after_key] = moves
                parent[after_key] = (key, token, draws)
                order += 1
                heapq.heappush(queue, (moves + estimate, -moves, order, after_key, after))
        raise AssertionError(f"no line reaches the gain {gain} the depth-first pass found")

    def needed(self, state: _State, gain: int) -> int | None:
        """At least how many moves take ``state`` to ``gain`` (``None``: never, by :meth:`ceiling`
        or the rows within reach). For Three passes: the removals the rows emptied need, as cards
        (two a removal at most) and as points; the row bonuses alone made it 1 wherever the rows in
        reach were worth more than the points missing, and A* searched all but blind (Three passes'
        deal 582: 0.76 million states, now 0.06 million)."""
        now = self.gain(state.pm, state.live)
        if self.ceiling(state) < gain:
            return None
        if now >= gain:
            return 0
        if self.rules.scoring != "msc":
            return 1
        # Some rows are emptied, from the base up (or none), up to one within reach with at most the
        # removals the ranks allow: each removal takes two of their cards at most and earns 5
        # points, besides their bonuses.
        outlook = self.outlook(state.pm, self.playable(state))
        fewest, cards, bonus = None, 0, 0
        for row in range(self.rules.rows, outlook.clear_from - 1, -1):
            if row < self.rules.rows and state.pm & self.rows[row]:
                cards += (state.pm & self.rows[row]).bit_count()
                bonus += msc_row_bonus(self.rules.rows, row)
            removals = max(-(-cards // 2), -(-(gain - now - bonus) // 5))
            if removals <= outlook.removals and (fewest is None or removals < fewest):
                fewest = removals
        return None if fewest is None else max(1, fewest)

    def _line(self, parent: dict[int, tuple[int, Token, int]], key: int, start_key: int) -> list[Token]:
        tokens: list[Token] = []
        while key != start_key:
            key, token, draws = parent[key]
            tokens.extend([DRAW] * draws)
            tokens.append(token)
        return tokens[::-1]

    def moves(self, tokens: list[Token]) -> tuple[Move, ...]:
        """The line as moves. Each state the breadth-first pass keeps is the one its recorded move made
        from its parent's, so the tokens replay from the start as they are."""
        return tuple(self.pos.move_of(token) for token in tokens)

    # -- the answers -------------------------------------------------------------------------
    def python(self, floor: int = 0) -> BestScore:
        """The answer by the two passes above (the first from ``floor``: see :meth:`best_gain`)."""
        try:
            gain = self.best_gain(floor)
            moves = self.moves(self.shortest_to(gain))
        except BudgetExceeded:
            return BestScore("unknown", 0, (), self.budget.nodes)
        return BestScore("best", self.score_after(gain), moves, self.budget.nodes)

    def compiled(self, library: ctypes.CDLL, byte_bound: int = BYTE_BOUND, floor: int = 0) -> BestScore:
        """The answer by the compiled core's same two passes (``core/best_score.c``), within the same
        budget; "unknown" too past ``byte_bound`` bytes of tables."""
        pos, rules, budget = self.pos, self.rules, self.budget
        scoring = ScoringRecord()
        scoring.kind, scoring.rows = SCORING_KINDS[rules.scoring], rules.rows
        for row, mask in enumerate(self.rows):
            scoring.row_mask[row] = mask
            scoring.row_bonus[row] = msc_row_bonus(rules.rows, row)
        for bit, points in self.points.items():
            scoring.card_points[bit] = points
        scoring.start_pm, scoring.start_live, scoring.floor = pos.start_pm, pos.start_live, floor
        seconds = None if budget.deadline is None else max(0.0, budget.deadline - time.perf_counter())
        answer, gain = CompiledCore(pos, library, byte_bound).best_score(scoring, pos.start_pm, pos.start_live, pos.start_q,
                                                             pos.start_r, budget.max_nodes, seconds, budget.cancelled)
        if answer.result != WIN:
            return BestScore("unknown", 0, (), answer.nodes)
        return BestScore("best", self.score_after(gain), self.moves(answer.tokens), answer.nodes)

    def score_after(self, gain: int) -> int:
        """The game's score once ``gain`` is earned from the position (for "cards left": the cards left)."""
        if self.rules.scoring == "cards_left":
            return self.board.cards_left() - gain
        return self.board.score + gain


def subsets(mask: int) -> Iterator[int]:
    """Every subset of ``mask``, ``mask`` itself first and 0 last."""
    subset = mask
    while True:
        yield subset
        if not subset:
            return
        subset = (subset - 1) & mask


def best_score(board: Board, *, max_nodes: int | None = None, max_seconds: float | None = None,
               cancelled: Callable[[], bool] | None = None, core: Core | None = None,
               max_bytes: int = BYTE_BOUND) -> BestScore:
    """The best score reachable from ``board`` under its own scoring, and a shortest line reaching it.

    ``core`` chooses the search as :func:`~pyramid.engine.solver.solve` does: the compiled core's
    (``core/best_score.c``, the default where it loads) or this module's, the reference. The
    compiled core's tables stop at ``max_bytes`` ("unknown" past it; the console keeps the core's
    usual bound, ``pyramid solve --best-score`` allows more). Redeal allowances above 14 (never a
    preset's) are searched by the Python reference.
    """
    search = BestScoreSearch(board, Budget(max_nodes, max_seconds, cancelled))
    library = compiled_library(core)
    floor = winning_gain(board, core)
    redeals = board.redeals_left
    if library is None or (redeals is not None and redeals > 14):
        return search.python(floor)
    return search.compiled(library, max_bytes, floor)


#: The verdict search's nodes for the line that seeds the best-score search (a few ms compiled).
SEED_NODES = 100_000


def winning_gain(board: Board, core: Core | None) -> int:
    """What the verdict search's winning line earns from ``board`` (0 when it finds none within
    :data:`SEED_NODES`): a floor for the depth-first pass, which then expands only the states that
    could beat it. It took reference deal 7 (1,290) from 20 s to 58 ms, compiled."""
    solution = solve(board, max_nodes=SEED_NODES, core=core)
    if solution.verdict != "win":
        return 0
    game = board.copy()
    for move in solution.moves:
        game.push(move)
    if board.rules.scoring == "cards_left":
        return board.cards_left() - game.cards_left()
    return game.score - board.score
