"""What a Pyramids player sees, and the expert's lookahead over it.

A person at the table sees the pyramid, the pile, how many cards the stock
holds and whether the joker is still there; of the stock itself they know only
*which* cards it holds — the 52 minus every card in sight — never their order.
The computer levels get exactly that: an :class:`Observation`, made from the
board by :meth:`Observation.of`, is the only thing they are given, so no level
can plan with the stock's order (or with the deals of the rounds to come) by
mistake.

The expert reasons over the unseen cards by expectation (:class:`Lookahead`): a
memoised depth-first search over a compact state, where each turn of the stock
is a chance node — every rank comes up in the proportion it has among the
unseen cards. The state is

* ``mask`` — bit *i* set while pyramid card *i* is still there (28 bits);
* ``turns`` — how many more turns the search looks at (its horizon);
* ``top`` — the rank on top of the pile;
* ``joker`` — :data:`JOKER_AVAILABLE`, :data:`JOKER_ARMED` or :data:`JOKER_SPENT`;
* ``streak`` — placements in the current sequence (it prices the next one).

Why a horizon, and why with replacement: searching to the end of the round by
expectation takes about 500 000 states (4 s here, 40 s on a Pi Zero 2), because
every reachable set of removed cards then meets every possible pile top. Four
turns ahead costs about 0.3 s for a whole game here; on matches 1001..1100 it
scores 307 on average against 279 three turns ahead, and five did not do better
on the 40 matches tried (``benchmarks/bench_duel.py`` measures the levels). The
first turn's odds are exact; for the turns after it a drawn rank keeps its
share (no card is taken out of the counts), which lets the turns that leave the
same cards fitting share one state, and is what makes four turns affordable:
drawing without replacement costs six times as much two turns ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyramid.engine.cards import STANDARD_DECK, Card
from pyramid.engine.duel.board import DuelBoard, DuelMove, DuelRules, ranks_fit
from pyramid.engine.tableau import pyramid_geometry

JOKER_AVAILABLE, JOKER_ARMED, JOKER_SPENT = 0, 1, 2
_FAR_BELOW = float("-inf")  # below every value, to start a maximum


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything a person sees of a duel board, and nothing else.

    ``unseen`` is the stock's content as a set — the cards of the deck that are
    neither in the pyramid nor on the pile — written in deck order, so two
    boards whose stocks hold the same cards in different orders give equal
    observations. The later rounds' deals are not in it either: a person meets
    them only when they are dealt.
    """

    rules: DuelRules
    round_number: int
    rounds: int
    pyramid: tuple[Card | None, ...]
    pile: tuple[Card, ...]
    unseen: tuple[Card, ...]
    joker_available: bool
    joker_armed: bool
    streak: int
    legal_moves: tuple[DuelMove, ...]

    @classmethod
    def of(cls, board: DuelBoard) -> "Observation":
        """What a person sees of ``board`` (the one place the computer players look at a board)."""
        in_sight = {card for card in board.pyramid if card is not None} | set(board.pile)
        return cls(
            rules=board.rules,
            round_number=board.round_number,
            rounds=len(board.deals),
            pyramid=tuple(board.pyramid),
            pile=tuple(board.pile),
            unseen=tuple(card for card in STANDARD_DECK.cards if card not in in_sight),
            joker_available=board.joker_available,
            joker_armed=board.joker_armed,
            streak=board.streak,
            legal_moves=tuple(board.legal_moves),
        )

    @property
    def stock_size(self) -> int:
        """Cards left in the stock: in Pyramids every card out of sight is in the stock."""
        return len(self.unseen)

    @property
    def pile_top(self) -> Card:
        return self.pile[-1]

    @property
    def later_rounds(self) -> int:
        """How many rounds a clear of this one still leads to."""
        return self.rounds - self.round_number


class RoundShape:
    """The pyramid in compact form: its ranks by index (0 where a card is gone).

    Shared by the opponents: it answers "which cards are uncovered" and "which
    of them fit this rank" for a set of remaining cards given as a bit mask,
    remembering each answer (there are only a few thousand distinct masks).
    """

    def __init__(self, rules: DuelRules, pyramid: tuple[Card | None, ...]) -> None:
        self.cards = pyramid
        self.ranks = tuple(0 if card is None else card.rank for card in pyramid)
        _, covers = pyramid_geometry(rules.rows)
        self._cover_masks = tuple(sum(1 << j for j in covers[i]) for i in range(len(pyramid)))
        #: for each rank, the ranks that fit it, as a 13-bit set (bit r-1 for rank r)
        self.fit_bits = tuple(
            sum(1 << (other - 1) for other in range(1, 14) if ranks_fit(rank, other)) if rank else 0
            for rank in range(14)
        )
        self._uncovered_memo: dict[int, tuple[int, ...]] = {}
        self._fitting_memo: dict[int, tuple[tuple[int, ...], int]] = {}

    @classmethod
    def of(cls, seen: Observation) -> "RoundShape":
        return cls(seen.rules, seen.pyramid)

    @staticmethod
    def mask_of(seen: Observation) -> int:
        """The bit mask of the pyramid cards still in place."""
        return sum(1 << i for i, card in enumerate(seen.pyramid) if card is not None)

    def index_of(self, card: Card) -> int:
        return self.cards.index(card)

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


@dataclass(frozen=True, slots=True)
class Chance:
    """One outcome of a turn as the search sees it: its probability and a rank that brings it."""

    probability: float
    rank: int


class Lookahead:
    """Expected points of each legal move, over the unseen cards, up to ``horizon`` turns ahead.

    ``clear_worth`` is what clearing the pyramid brings beyond its placement:
    the clear bonus and what the rounds after it are expected to be worth.
    Past the horizon the search may stop, valuing the rest at nothing: this
    compares options by what they bring within the horizon (a horizon that
    reaches the end of the stock is exact about it). One pruning, kept from the
    search that knew the stock: the joker is played only when no card fits the
    pile (it never lowered the best score on the deals measured, and it removes
    a third of the states).

    One lookahead serves every position of the round with the same unseen
    cards: placements and the joker reveal nothing, so its memo stays valid
    until the next turn (:meth:`serves`).
    """

    def __init__(self, seen: Observation, horizon: int, clear_worth: float) -> None:
        if horizon < 1:
            raise ValueError(f"the horizon must be at least one turn, got {horizon!r}")
        self.rules = seen.rules
        self.shape = RoundShape.of(seen)
        self.clear_worth = clear_worth
        self._round_number, self._unseen = seen.round_number, seen.unseen
        counts = [0] * 14
        for card in seen.unseen:
            counts[card.rank] += 1
        self._odds = tuple(Chance(count / len(seen.unseen), rank) for rank, count in enumerate(counts) if count)
        self.turns = min(horizon, len(seen.unseen))
        #: whether the search may stop at its horizon (False when the stock really ends there)
        self._cut = len(seen.unseen) > horizon
        self._memo: dict[int, float] = {}
        self._turn_memo: dict[int, float] = {}
        self._chances_memo: dict[int, tuple[Chance, ...]] = {}
        size = len(seen.pyramid)
        self._key_shifts = (size, 2 * size, 2 * size + self.turns.bit_length(), 2 * size + self.turns.bit_length() + 2)

    def serves(self, seen: Observation) -> bool:
        """Whether this lookahead's memo holds for ``seen``: the same round, nothing new revealed,
        and no card in the pyramid that it did not know there (a move undone, another game)."""
        return (seen.rules, seen.round_number, seen.unseen) == (self.rules, self._round_number, self._unseen) \
            and all(card is None or card == known for card, known in zip(seen.pyramid, self.shape.cards))

    def move_values(self, seen: Observation) -> list[tuple[DuelMove, float]]:
        """Each legal move of ``seen`` with the points it is expected to bring, in legal-move order."""
        if not self.serves(seen):
            raise ValueError("this lookahead was made for other unseen cards")
        shape, rules = self.shape, self.rules
        mask, top, streak = shape.mask_of(seen), seen.pile_top.rank, seen.streak
        joker = JOKER_ARMED if seen.joker_armed else JOKER_AVAILABLE if seen.joker_available else JOKER_SPENT
        after_joker = JOKER_SPENT if joker == JOKER_ARMED else joker
        values: list[tuple[DuelMove, float]] = []
        for move in seen.legal_moves:
            if move.card is not None:
                index = shape.index_of(move.card)
                gain = rules.placement_step * (streak + 1)
                values.append((move, gain + self._after_placing(mask, index, self.turns, after_joker, streak)))
            elif move.kind == "joker":
                values.append((move, self._value(mask, self.turns, top, JOKER_ARMED, streak) - rules.joker_cost))
            else:
                values.append((move, self._turn(mask, self.turns, joker)))
        return values

    def _after_placing(self, mask: int, index: int, turns: int, joker: int, streak: int) -> float:
        rest = mask & ~(1 << index)
        if not rest:
            return self.clear_worth
        return self._value(rest, turns, self.shape.ranks[index], joker, streak + 1)

    def _turn(self, mask: int, turns: int, joker: int) -> float:
        """Turning a stock card: its cost, then the expectation over what comes up.

        It depends on neither the pile nor the streak, so the many states that
        differ only by those share one value.
        """
        key = mask | turns << self._key_shifts[1] | joker << self._key_shifts[2]
        found = self._turn_memo.get(key)
        if found is None:
            found = sum(c.probability * self._value(mask, turns - 1, c.rank, joker, 0) for c in self._chances(mask)) \
                - self.rules.turn_cost
            self._turn_memo[key] = found
        return found

    def _chances(self, mask: int) -> tuple[Chance, ...]:
        """The turn's outcomes for the cards in ``mask``: ranks that leave the same cards fitting
        lead to the same state, so they are one outcome with their probabilities summed."""
        found = self._chances_memo.get(mask)
        if found is None:
            grouped: dict[int, Chance] = {}
            for odds in self._odds:
                fit_set = self.shape.fitting(mask, odds.rank)[1]
                known = grouped.get(fit_set)
                grouped[fit_set] = odds if known is None else Chance(known.probability + odds.probability, known.rank)
            found = tuple(grouped.values())
            self._chances_memo[mask] = found
        return found

    def _value(self, mask: int, turns: int, top: int, joker: int, streak: int) -> float:
        """The best expected points still to come from this state.

        The memo key replaces the pile top by what it decides, the set of
        uncovered cards that fit it, and drops the streak when only a turn can
        follow, which merges many states. Armed-joker states are not stored:
        the search goes from "joker available" straight to the placements.
        """
        shape, rules = self.shape, self.rules
        if joker == JOKER_ARMED:
            return self._placements(mask, turns, shape.uncovered(mask), JOKER_SPENT, streak)
        playable, fit_set = shape.fitting(mask, top)
        if not fit_set and joker == JOKER_SPENT:
            streak = 0
        shifts = self._key_shifts
        key = mask | fit_set << shifts[0] | turns << shifts[1] | joker << shifts[2] | streak << shifts[3]
        found = self._memo.get(key)
        if found is not None:
            return found
        if playable:
            found = self._placements(mask, turns, playable, joker, streak)
        elif joker == JOKER_AVAILABLE:
            found = self._placements(mask, turns, shape.uncovered(mask), JOKER_SPENT, streak) - rules.joker_cost
        else:
            found = _FAR_BELOW
        if turns:  # the stock holds cards: a turn is always a move (issue 47), forced when nothing else is
            found = max(found, self._turn(mask, turns, joker))
        elif not turns and self._cut:
            found = max(found, 0.0)  # the horizon: stop looking
        if found == _FAR_BELOW:
            found = 0.0  # nothing left to do: the round has failed
        self._memo[key] = found
        return found

    def _placements(self, mask: int, turns: int, playable: tuple[int, ...], joker: int, streak: int) -> float:
        """The best of placing one of ``playable`` (each scoring the next step of the sequence).

        The loop is :meth:`_after_placing` written out: this is the search's innermost step.
        """
        ranks, value = self.shape.ranks, self._value
        best = _FAR_BELOW
        for i in playable:
            rest = mask & ~(1 << i)
            after = value(rest, turns, ranks[i], joker, streak + 1) if rest else self.clear_worth
            if after > best:
                best = after
        return self.rules.placement_step * (streak + 1) + best
