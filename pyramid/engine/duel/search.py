"""Exact best play of one Pyramids round, for the expert opponent.

The expert plays the deal, not the odds: like the Pyramid solver it knows the
order of the stock. A round is then a deterministic puzzle, and this module
solves it with a memoised depth-first search over a compact state, exactly
over every move except the joker played while a card fits (see
:class:`RoundSearch`):

* ``mask`` — bit *i* set while pyramid card *i* is still there (28 bits);
* ``pos`` — how many stock cards have been turned;
* ``top`` — the rank on top of the pile;
* ``joker`` — :data:`JOKER_AVAILABLE`, :data:`JOKER_ARMED` or :data:`JOKER_SPENT`;
* ``streak`` — placements in the current sequence (it prices the next one).

Only sets of removed cards closed under "both coverers gone first" are
reachable; there are 1430 of them for seven rows (the Catalan number C₈), and
the ±1 rule keeps the branching small: a round takes about 100 000 states
(a quarter of a second on a desktop core; ``benchmarks/bench_duel.py``).

Each state's value is a pair: the best points still to earn when the round is
then **cleared**, and the best when it then **fails** (``None`` when that
outcome cannot be reached). The match planner in :mod:`pyramid.duel_ai`
weighs the two with the value of the rounds that a clear leads to.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyramid.engine.tableau import pyramid_geometry
from pyramid.engine.cards import Card
from pyramid.engine.duel.board import DuelBoard, DuelMove, DuelRules, ranks_fit

JOKER_AVAILABLE, JOKER_ARMED, JOKER_SPENT = 0, 1, 2
_NONE = -(10**9)  # "outcome unreachable"; far below any real score
_UNREACHED = _NONE // 2  # anything below this was built on an unreachable outcome


@dataclass(frozen=True, slots=True)
class RoundValue:
    """Best points still to earn in the round: ending cleared, and ending failed."""

    cleared: int | None
    failed: int | None


class RoundShape:
    """One round's cards in compact form: pyramid ranks by index, stock ranks top first.

    Shared by the opponents: it answers "which cards are uncovered" and "which
    of them fit this rank" for a set of remaining cards given as a bit mask,
    remembering each answer (there are only a few thousand distinct masks).
    """

    def __init__(self, board: DuelBoard) -> None:
        rules: DuelRules = board.rules
        n = rules.pyramid_size
        self.cards: tuple[Card, ...] = board.deal[:n]
        self.ranks = tuple(card.rank for card in self.cards)
        self.stock = tuple(card.rank for card in board.deal[n + 1 :])
        _, covers = pyramid_geometry(rules.rows)
        self._cover_masks = tuple(sum(1 << j for j in covers[i]) for i in range(n))
        #: for each rank, the ranks that fit it, as a 13-bit set (bit r-1 for rank r)
        self.fit_bits = tuple(
            sum(1 << (other - 1) for other in range(1, 14) if ranks_fit(rank, other)) if rank else 0
            for rank in range(14)
        )
        self._uncovered_memo: dict[int, tuple[int, ...]] = {}
        self._fitting_memo: dict[int, tuple[tuple[int, ...], int]] = {}

    @staticmethod
    def mask_of(board: DuelBoard) -> int:
        """The bit mask of the pyramid cards still on ``board``."""
        return sum(1 << i for i, card in enumerate(board.pyramid) if card is not None)

    def uncovered(self, mask: int) -> tuple[int, ...]:
        """Indices of the uncovered cards among those in ``mask``."""
        found = self._uncovered_memo.get(mask)
        if found is None:
            covers = self._cover_masks
            found = tuple(i for i in range(len(covers)) if mask >> i & 1 and not mask & covers[i])
            self._uncovered_memo[mask] = found
        return found

    def fitting(self, mask: int, top: int) -> tuple[tuple[int, ...], int]:
        """The uncovered cards that fit ``top``: as indices, and as a bit mask."""
        key = mask << 4 | top
        found = self._fitting_memo.get(key)
        if found is None:
            fit_bits, ranks = self.fit_bits[top], self.ranks
            playable = tuple(i for i in self.uncovered(mask) if fit_bits >> (ranks[i] - 1) & 1)
            found = (playable, sum(1 << i for i in playable))
            self._fitting_memo[key] = found
        return found


class RoundSearch:
    """The search over one round, starting from the position of ``board``.

    It is exact over the moves it considers. One pruning: it plays the joker
    only when no card fits the pile (on the deals measured this never lowered
    the best score, and it removes a third of the states).
    """

    def __init__(self, board: DuelBoard) -> None:
        self.rules: DuelRules = board.rules
        self.shape = shape = RoundShape(board)
        #: ranks left in the stock after ``pos`` turns (as a 13-bit set)
        suffix = [0] * (len(shape.stock) + 1)
        for pos in range(len(shape.stock) - 1, -1, -1):
            suffix[pos] = suffix[pos + 1] | 1 << (shape.stock[pos] - 1)
        self._stock_ranks_from = tuple(suffix)
        self._memo: dict[int, tuple[int, int]] = {}
        # memo keys pack mask | fitting cards | pos | joker | streak into one int
        size = len(shape.ranks)
        pos_bits = len(shape.stock).bit_length()
        self._key_shifts = (size, 2 * size, 2 * size + pos_bits, 2 * size + pos_bits + 2)
        joker = JOKER_ARMED if board.joker_armed else JOKER_AVAILABLE if board.joker_available else JOKER_SPENT
        pos = len(shape.stock) - len(board.stock)
        self.root = (shape.mask_of(board), pos, board.pile_top.rank, joker, board.streak)

    @property
    def states_searched(self) -> int:
        return len(self._memo)

    def _value(self, mask: int, pos: int, top: int, joker: int, streak: int) -> tuple[int, int]:
        """(best points if the round is then cleared, best if it then fails), _NONE if unreachable.

        The memo key replaces the pile top by what it decides, the set of
        uncovered cards that fit it, and drops the streak when only a turn can
        follow, which merges many states. Armed-joker states are not stored:
        the search goes from "joker available" straight to the placements.
        """
        shape = self.shape
        if joker == JOKER_ARMED:
            return self._placements(mask, pos, shape.uncovered(mask), JOKER_SPENT, streak)
        playable, fit_set = shape.fitting(mask, top)
        if not fit_set and joker == JOKER_SPENT:
            streak = 0
        shifts = self._key_shifts
        key = mask | fit_set << shifts[0] | pos << shifts[1] | joker << shifts[2] | streak << shifts[3]
        found = self._memo.get(key)
        if found is not None:
            return found
        if not playable and self._is_dead(mask, pos, top, joker):
            self._memo[key] = (_NONE, 0)
            return _NONE, 0
        rules = self.rules
        if playable:
            best_clear, best_fail = self._placements(mask, pos, playable, joker, streak)
        elif joker == JOKER_AVAILABLE:
            clear, fail = self._placements(mask, pos, shape.uncovered(mask), JOKER_SPENT, streak)
            best_clear, best_fail = clear - rules.joker_cost, fail - rules.joker_cost
        else:
            best_clear, best_fail = _NONE, _NONE
        if pos < len(shape.stock):
            clear, fail = self._value(mask, pos + 1, shape.stock[pos], joker, 0)
            if clear - rules.turn_cost > best_clear:
                best_clear = clear - rules.turn_cost
            if fail - rules.turn_cost > best_fail:
                best_fail = fail - rules.turn_cost
        found = (best_clear if best_clear > _UNREACHED else _NONE, best_fail if best_fail > _UNREACHED else _NONE)
        self._memo[key] = found
        return found

    def _placements(self, mask: int, pos: int, playable: tuple[int, ...], joker: int, streak: int) -> tuple[int, int]:
        """The best of placing one of ``playable`` (each scoring the next step of the sequence)."""
        rules, ranks = self.rules, self.shape.ranks
        gain = rules.placement_step * (streak + 1)
        best_clear, best_fail = _NONE, _NONE
        for i in playable:
            rest = mask & ~(1 << i)
            if not rest:
                clear, fail = rules.clear_bonus, _NONE
            else:
                clear, fail = self._value(rest, pos, ranks[i], joker, streak + 1)
            if clear + gain > best_clear:
                best_clear = clear + gain
            if fail + gain > best_fail:
                best_fail = fail + gain
        return best_clear, best_fail

    def _is_dead(self, mask: int, pos: int, top: int, joker: int) -> bool:
        """The engine's exact end: joker spent and no reachable pile top fits an uncovered card."""
        if joker != JOKER_SPENT:
            return False
        reachable = self._stock_ranks_from[pos] | 1 << (top - 1)
        shape = self.shape
        return not any(shape.fit_bits[shape.ranks[i]] & reachable for i in shape.uncovered(mask))

    def value(self) -> RoundValue:
        """The best the rest of the round can bring, per outcome."""
        clear, fail = self._value(*self.root)
        return RoundValue(clear if clear > _UNREACHED else None, fail if fail > _UNREACHED else None)

    def plan(self, clear: bool) -> list[DuelMove]:
        """The moves reaching the best value for the chosen outcome (first best move wins ties).

        Raises ``ValueError`` when that outcome cannot be reached.
        """
        value = self.value()
        target = value.cleared if clear else value.failed
        if target is None:
            raise ValueError(f"this round cannot end {'cleared' if clear else 'failed'}")
        which = 0 if clear else 1
        moves: list[DuelMove] = []
        state = self.root
        while True:
            mask, pos, top, joker, _ = state
            if not mask or self._is_dead(mask, pos, top, joker):
                return moves
            here = self._value(*state)[which]
            move, state = self._best_step(state, here, which)
            moves.append(move)

    def _best_step(
        self, state: tuple[int, int, int, int, int], here: int, which: int
    ) -> tuple[DuelMove, tuple[int, int, int, int, int]]:
        mask, pos, top, joker, streak = state
        rules, shape = self.rules, self.shape
        gain = rules.placement_step * (streak + 1)
        next_joker = JOKER_SPENT if joker == JOKER_ARMED else joker
        playable = shape.uncovered(mask) if joker == JOKER_ARMED else shape.fitting(mask, top)[0]
        for i in playable:
            rest = mask & ~(1 << i)
            child = (rest, pos, shape.ranks[i], next_joker, streak + 1)
            after = (rules.clear_bonus, _NONE)[which] if not rest else self._value(*child)[which]
            if after + gain == here:
                return DuelMove.place(shape.cards[i]), child
        if joker == JOKER_AVAILABLE:
            child = (mask, pos, top, JOKER_ARMED, streak)
            if self._value(*child)[which] - rules.joker_cost == here:
                return DuelMove.joker(), child
        assert joker != JOKER_ARMED and pos < len(shape.stock)
        child = (mask, pos + 1, shape.stock[pos], joker, 0)
        assert self._value(*child)[which] - rules.turn_cost == here
        return DuelMove.turn(), child
