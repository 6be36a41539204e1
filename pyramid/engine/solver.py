"""An exact Pyramid solver for every rules preset, from any position.

Two questions, one engine:

* **verdict** (:func:`solve`): can the pyramid (or, for ``goal="all"``, the
  whole table) still be cleared, and how? A depth-first search over removals.
* **optimal** (:func:`solve` with ``optimal=True``): the shortest solution,
  where a step is a draw, a redeal or one removal (the metric of
  ``data/msc-1500/solution-lengths.txt``). A* with an admissible bound.

Both return :class:`Solution`, whose ``moves`` are :class:`~pyramid.board.Move`
values that replay through :meth:`Board.push`. A node or time budget makes the
answer ``"unknown"`` rather than late: the console asks for hints this way.
:class:`DealSolver` asks the same questions about the positions of one game,
keeping what each search proved for the next (a hint cut short by its budget
leaves its work to the next hint).

Why it is fast enough in pure Python:

* **Compact state.** The pyramid is a bitmask with 8 bits per row: card
  ``(r, c)`` is bit ``8r + c``, so the two cards covering bit ``b`` are
  ``b + 8`` and ``b + 9`` and the uncovered cards are
  ``pm & ~((pm >> 8) | (pm >> 9))``. Stock and waste are one sequence in
  drawing order (waste bottom first, then stock top first): a redeal turns the
  waste over unshuffled, so the order never changes and cards only leave it. A
  bitmask ``live`` says which are still there and ``q`` (the index of the stock
  top, or the length when the stock is empty) where the waste ends. With the
  redeals left, ``(pm, live, q, r)`` is the whole position.
* **One path between removals.** Only a draw or a redeal is possible between
  two removals, so the verdict search walks that single path and branches only
  on removals. A position met again on the walk is dominated and ends it.
* **Proven losses** are remembered with the most redeals they were lost with;
  fewer redeals lose too. Suits never matter, so the stock and waste are keyed
  by the ranks of their cards in order. With unlimited redeals any live card
  can be brought up at will, so ``q`` and (goal "pyramid") even the order stop
  mattering: the key is the count of each rank.
* **Relaxed games** (:class:`_Relaxation`) that every line of the real game
  can be played in: with redeals left, every live card playable at will; in
  the last pass, the stock at will but the waste from its top down (each
  waste card leaving with a pyramid card or, when the stock top plays, with a
  stock card). Their positions are few and remembered, and a position they
  lose is lost: this proves most losses after a few hundred positions instead
  of a full search. The relaxed game is monotone in the cards at will, so one
  lost (won) relaxed position also settles every one with fewer (more) cards
  of each rank and the same pyramid and waste.
* **The last pass by waste excursions** (:class:`_LastPass`, one-card
  draws). With no redeal left the stock only loses its top and the waste is a
  stack: a card drawn onto it either stays for good or leaves after every card
  drawn over it has left. What happens above it meanwhile depends only on the
  pyramid, that card and the stock after it, never on the waste below, so it
  is summarised once under that key, and the pass becomes a search over
  (pyramid, stock cards consumed) where the depth-first search kept every
  different waste apart. Asked from a position in the last pass that the
  plain depth-first search did not settle within :data:`_PROBE_NODES`
  nodes, it decides every position the depth-first search then reaches.
  Without redeals (first 300 reference deals) it took Classic from 20 s to
  5.1 s (1.8x its unlimited-redeals run) and Six rows from 41 s to 4.2 s,
  their slowest deal from 0.95 s to 0.08 s and from 3.1 s to 0.04 s.
* **Two passes by families of second passes** (:class:`_TwoPasses`, one-card
  draws, one redeal left). The first pass is played by excursions too, a card
  drawn either leaving or staying until the redeal, and each state carries the
  family of card sets that can have stayed: the stocks of the second pass.
  The second pass is then searched once per pyramid for its whole family, the
  family kept as a decision diagram over the drawing order. Asked after the
  same probe; a win it finds is played out from the excursions it remembered
  up to its redeal, then by the depth-first search. With one redeal (first
  300 reference deals) it took Six rows from 112 s to 11 s and Classic from
  37 s to 12 s, their slowest deals from 11 s and 6.7 s to 0.6 s; the other
  one-card presets 1.3 to 3.1 times faster in all, their slowest deals 2.5
  to 10 times.
* **Hopeless positions.** Per pair of complementary ranks, a maximum matching
  of the pyramid cards that could ever pair with each other (neither in the
  other's cone) leaves cards that must each take a stock card; fewer live
  stock cards of that rank than needed and the position is lost. With goal
  "all" in the last pass, so is a waste card with no partner left in the
  pyramid or the stock (two waste cards never pair).
* **Forgotten waste.** With no redeal left, a waste card that can never pair
  again buries everything under it for good; those cards are dropped from
  ``live`` so that positions differing only there become one.
* **Forced and dominated moves.** An uncovered pyramid king is removed at
  once (every solution pays that step, and it only frees cards), and so is an
  uncovered card whose one possible partner left is another uncovered card.
  With one-card draws, removing an open king of the stock or waste beats
  anything else in verdict mode, and so does removing the open card that is
  an uncovered card's one possible partner; drawing a stock-top king that
  could leave is never shortest.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from pyramid.engine.board import Board, Move
from pyramid.engine.tableau import Places, pyramid_geometry
from pyramid.engine.cards import Card
from pyramid.engine.errors import OtherDealError

Verdict = Literal["win", "lose", "unknown"]

#: Bits per pyramid row in the compact encoding (see the module docstring).
ROW_STRIDE = 8
#: Redeals-left code for "unlimited"; it never decreases.
UNLIMITED = 63
_PYRAMID_BITS = 7 * ROW_STRIDE
_LIVE_SHIFT = _PYRAMID_BITS
_Q_SHIFT = _LIVE_SHIFT + 32
_R_SHIFT = _Q_SHIFT + 6
#: In loss-table keys: where the waste size and the rank sequence start.
_WASTE_SHIFT = _PYRAMID_BITS
_SEQUENCE_SHIFT = _WASTE_SHIFT + 8
#: Where the waste starts in the keys of :class:`_Relaxation` (after 12 counts).
_RELAXED_WASTE_SHIFT = _PYRAMID_BITS + 60
#: Bit 3 of each four-bit rank count of :class:`_Relaxation`: with them set,
#: ``((a | guards) - b) & guards == guards`` says that no count of ``b`` exceeds ``a``'s.
_COUNT_GUARDS = sum(8 << (4 * rank) for rank in range(15))
#: The waste size in the loss table when it does not matter (see ``lost_key``).
_ANY_WASTE = 255
#: Marks loss-table keys made of rank counts instead of a rank sequence.
_COUNTS_KEY = 1 << 255
#: Nodes the plain depth-first search gets before the last-pass search joins in. The
#: easy positions a hint or a grade asks about are settled within it, where the plain
#: search is the cheaper (the last-pass search summarises whole excursions before it
#: looks further); past it, the hard losses are where the summaries pay. Measured on
#: 150 deals of four presets without redeals: 300 beat 100, 1,000 and 3,000 in total
#: time (by 5-40%), and kept the time to grade a deal near the old solver's.
_PROBE_NODES = 300
#: The same for :class:`_TwoPasses`, whose first pass alone costs 30-60 ms on a hard deal: from
#: per-deal measurements of the first 300 reference deals with one redeal, 1,000 would have
#: taken 2-19% less time than 300 on each of four presets, 3,000 more on two of them.
_TWO_PASSES_PROBE_NODES = 1_000
#: Nodes of :class:`_LastPass` per question once a win is known to lie ahead (see
#: ``_VerdictSearch.last_pass_lost``).
_QUICK_NODES = 300
#: Answers a :class:`DealSolver` keeps between questions before it starts again from nothing: about
#: 80 MB. Hints along a greedy player's whole game on the slowest deals of the first 300 kept at
#: most 610,000 (King Tut's deal 177, 31 questions), its peak memory no higher than one new search's.
_KEPT_ENTRIES = 1_000_000
#: Path tokens for the two moves that are not removals.
_DRAW = -1
_REDEAL = -2
#: Card ids above this are stock/waste indices (``_STOCK_ID + j``).
_STOCK_ID = 64


@dataclass(frozen=True)
class Solution:
    """The solver's answer: the verdict, one line of play, and the effort spent.

    ``moves`` is empty unless the verdict is ``"win"``; then it leads from the
    position given to a cleared table and is the shortest such line when
    ``optimal`` was asked.
    """

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    optimal: bool = False
    nodes: int = 0
    seconds: float = 0.0

    @property
    def steps(self) -> int:
        """The number of steps (draws, redeals, removals) of the solution."""
        return len(self.moves)


class BudgetExceeded(Exception):
    """Raised inside a search when its node or time budget runs out."""


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _PassCards(NamedTuple):
    """The stock and waste of a position, for the searches by excursions."""

    #: Stock cards (sequence indices), top first.
    stock: list[int]
    #: Waste cards, top first.
    waste: list[int]
    #: The stock's ranks, four bits each, its top lowest (as :meth:`_LastPass.excursion` reads a stock).
    ranks: int


class _Position:
    """A board compiled into the compact encoding, with the tables both searches read."""

    def __init__(self, board: Board) -> None:
        rules = board.rules
        self.target = rules.target
        self.draw_count = rules.draw_count
        self.stock_top_playable = rules.stock_top_playable
        self.waste_playable = rules.waste_playable
        self.overlap = rules.overlap
        self.goal_all = rules.goal == "all"
        places, covers = pyramid_geometry(rules.rows)
        bit_of = [r * ROW_STRIDE + c for r, c in places]
        self.pyramid_card: dict[int, Card] = {}
        self.rank = [0] * _PYRAMID_BITS
        self.rank_mask = [0] * (self.target + 1)
        pm = 0
        for index, card in enumerate(board.pyramid):
            bit = bit_of[index]
            self.rank[bit] = card.rank if card else 0
            if card is not None:
                pm |= 1 << bit
                self.pyramid_card[bit] = card
                self.rank_mask[card.rank] |= 1 << bit
        self.sequence: list[Card] = list(board.waste) + list(board.stock)
        self.m = len(self.sequence)
        #: Where each stock and waste card stands in the drawing order, and each pyramid place's bit: for :meth:`aim`.
        self.index_of = {card: j for j, card in enumerate(self.sequence)}
        self.bit_of = bit_of
        self.stock_rank = [card.rank for card in self.sequence]
        self.stock_rank_mask = [0] * (self.target + 1)
        for j, card in enumerate(self.sequence):
            self.stock_rank_mask[card.rank] |= 1 << j
        self.stuck_cache: dict[int, int] = {}
        self.sequence_cache: dict[int, int] = {}
        self.forced_cache: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self.removals_cache: dict[int, list[tuple[int, ...]]] = {}
        self.uncovered_cache: dict[int, list[int]] = {}
        self.facts_cache: dict[int, tuple[int, list[tuple[int, int]], int]] = {}
        pairs = [(low, self.target - low) for low in range(1, (self.target + 1) // 2)]
        if self.target % 2 == 0:
            pairs.append((self.target // 2, self.target // 2))
        self.rank_pairs = pairs
        #: The position the searches start from (see :meth:`aim`).
        self.start_pm = self.start_live = self.start_q = self.start_r = 0
        self.aim(board)
        self._build_partner_masks(places, covers, bit_of)

    def aim(self, board: Board) -> None:
        """Start the searches from ``board``: a later position of the position compiled here.

        The drawing order never changes (a redeal turns the waste over
        unshuffled) and cards only leave, so a later position is a pyramid
        with fewer cards, fewer live cards in the same order, a stock top and
        the redeals left: everything compiled here, and everything a search
        proved about positions, still holds for it.
        """
        pm = 0
        for index, card in enumerate(board.pyramid):
            if card is not None:
                pm |= 1 << self.bit_of[index]
        live = 0
        for card in (*board.waste, *board.stock):
            live |= 1 << self.index_of[card]
        self.start_pm, self.start_live = pm, live
        self.start_q = self.index_of[board.stock[0]] if board.stock else self.m
        redeals = board.redeals_left
        self.start_r = UNLIMITED if redeals is None else min(redeals, UNLIMITED - 1)

    def _build_partner_masks(self, places: Places, covers: tuple[tuple[int, ...], ...], bit_of: list[int]) -> None:
        """For each pyramid card, the cards it could ever pair with.

        A card can never pair with one in its cone above (covered by it until
        it leaves) or its cone below (those must leave before it), except with
        the overlap rule, where it may leave with a card touching it directly.
        """
        n = len(places)
        below = [0] * n
        for index in range(n - 1, -1, -1):
            for child in covers[index]:
                below[index] |= (1 << bit_of[child]) | below[child]
        above = [0] * n
        for index in range(n):
            for child in covers[index]:
                above[child] |= (1 << bit_of[index]) | above[index]
        #: Per pyramid bit: every card that must leave before it is uncovered (its cone below).
        self.covering = [0] * _PYRAMID_BITS
        for index in range(n):
            self.covering[bit_of[index]] = below[index]
        self.pyramid_partners = [0] * _PYRAMID_BITS
        for index in range(n):
            bit = bit_of[index]
            rank = self.rank[bit]
            if not rank:
                continue  # already removed
            if rank >= self.target:
                self.pyramid_partners[bit] = -1  # a king needs nobody
                continue
            need = self.target - rank
            cone = below[index] | above[index]
            if self.overlap:
                near = 0
                for child in covers[index]:
                    near |= 1 << bit_of[child]
                for parent in range(n):
                    if index in covers[parent]:
                        near |= 1 << bit_of[parent]
                cone &= ~near
            self.pyramid_partners[bit] = self._dealt_rank_mask(need) & ~cone
        self.stock_needs = [0] * self.m
        for j, rank in enumerate(self.stock_rank):
            if rank < self.target:
                self.stock_needs[j] = self.target - rank

    def _dealt_rank_mask(self, rank: int) -> int:
        """Pyramid bits of the cards of ``rank`` still present."""
        return sum(1 << bit for bit in range(_PYRAMID_BITS) if self.rank[bit] == rank)

    # -- the rules on the compact state ---------------------------------------
    def next_live(self, live: int, q: int) -> int:
        """The lowest live index at or after ``q`` (the new stock top), or ``m``."""
        rest = live >> q
        if not rest:
            return self.m
        return q + (rest & -rest).bit_length() - 1

    def after_draw(self, live: int, q: int) -> int:
        """``q`` after drawing ``draw_count`` cards from the stock top ``q``."""
        for _ in range(self.draw_count - 1):
            q = self.next_live(live, q + 1)
            if q >= self.m:
                return self.m
        return self.next_live(live, q + 1)

    def is_lost(self, pm: int, live: int) -> bool:
        """True when the pyramid needs more stock cards of some rank than are left.

        The need comes from :meth:`pyramid_facts`: every pyramid card that no
        matching inside the pyramid can pair must take a stock card. A card with
        no partner at all is the simplest case.
        """
        if self.needs_more(pm, live):
            return True
        if self.goal_all:
            for j in _bits(live):
                need = self.stock_needs[j]
                if need and not ((self.rank_mask[need] & pm) or (self.stock_rank_mask[need] & live & ~(1 << j))):
                    return True
        return False

    def needs_more(self, pm: int, live: int) -> bool:
        """True when the pyramid needs more cards of some rank than ``live`` holds (see :meth:`is_lost`)."""
        for rank, count in self.pyramid_facts(pm)[1]:
            if (self.stock_rank_mask[rank] & live).bit_count() < count:
                return True
        return False

    def pass_cards(self, live: int, q: int) -> "_PassCards":
        """The stock and the waste of a position, as the searches by excursions walk them."""
        stock = _bits(live >> q << q)
        return _PassCards(stock, _bits(live & ((1 << q) - 1))[::-1], _stock_ranks(self.stock_rank, stock))

    def waste_stranded(self, pm: int, live: int, q: int) -> bool:
        """Goal "all", last pass: a waste card that no card left could ever pair with.

        Only the waste top plays, so two waste cards never pair; in the last
        pass a waste card's partner must be in the pyramid or still in the
        stock. Without one the card stays, and the table is never empty.
        """
        waste = live & ((1 << q) - 1)
        if not waste:
            return False
        target, rank_mask, stock_rank_mask = self.target, self.rank_mask, self.stock_rank_mask
        stock = live & ~((1 << q) - 1)
        for rank in range(1, target):
            if stock_rank_mask[rank] & waste:
                need = target - rank
                if not (rank_mask[need] & pm or stock_rank_mask[need] & stock):
                    return True
        return False

    def pyramid_facts(self, pm: int) -> tuple[int, list[tuple[int, int]], int]:
        """For a pyramid: removals still needed, how many stock cards of each rank it
        needs at least, and the stock cards that can never pair with it (a mask).

        Per pair of complementary ranks, a maximum matching of the cards that
        could pair inside the pyramid (neither in the other's cone) says how
        many pairs the pyramid can give itself; every other card needs a
        removal of its own with a stock card.
        """
        cached = self.facts_cache.get(pm)
        if cached is not None:
            return cached
        rm, target, partners = self.rank_mask, self.target, self.pyramid_partners
        removals = (rm[target] & pm).bit_count()
        needs = []
        for low, high in self.rank_pairs:
            lows, highs = rm[low] & pm, rm[high] & pm
            low_count, high_count = lows.bit_count(), highs.bit_count()
            if low == high:  # an even target (6 + 6 in the Spanish deck): at most half of them pair
                matched = low_count // 2
                removals += low_count - matched
                if low_count > 2 * matched:
                    needs.append((low, low_count - 2 * matched))
                continue
            matched = _matching(lows, highs, partners) if low_count and high_count else 0
            removals += low_count + high_count - matched
            if low_count > matched:
                needs.append((high, low_count - matched))
            if high_count > matched:
                needs.append((low, high_count - matched))
        useful = 0
        for rank in range(1, target):
            if rm[target - rank] & pm:
                useful |= self.stock_rank_mask[rank]
        facts = (removals, needs, ~useful)
        self.facts_cache[pm] = facts
        return facts

    def lost_key(self, pm: int, live: int, q: int, r: int) -> int:
        """The key of a position in the table of proven losses.

        Only ranks matter, never suits, so the stock and waste are keyed by the
        ranks of their live cards in drawing order and the size of the waste:
        positions that used different cards of the same rank are one position.
        With unlimited redeals, one-card draws and a playable waste, every live
        card can be brought to the waste top whenever wanted, so the waste size
        does not matter either; and when only the pyramid must be cleared,
        neither does the order: only how many of each rank are left.
        """
        if r != UNLIMITED or self.draw_count != 1 or not self.waste_playable:
            return self.sequence_key(pm, live, q)
        if self.goal_all:
            return pm | (_ANY_WASTE << _WASTE_SHIFT) | (self.rank_sequence(live) << _SEQUENCE_SHIFT)
        counts = 0
        for rank in range(1, self.target + 1):
            counts |= (self.stock_rank_mask[rank] & live).bit_count() << (3 * rank)
        return pm | (counts << _LIVE_SHIFT) | _COUNTS_KEY

    def sequence_key(self, pm: int, live: int, q: int) -> int:
        """The pyramid, the waste size and the ranks of the live cards in drawing order: a position
        without its suits (and without its redeals)."""
        waste = (live & ((1 << q) - 1)).bit_count()
        return pm | (waste << _WASTE_SHIFT) | (self.rank_sequence(live) << _SEQUENCE_SHIFT)

    def rank_sequence(self, live: int) -> int:
        """The ranks of the live cards, four bits each, the last to be drawn lowest (cached).

        For a waste, the lowest four bits are its top.
        """
        sequence = self.sequence_cache.get(live)
        if sequence is None:
            sequence = 0
            for j in _bits(live):
                sequence = (sequence << 4) | self.stock_rank[j]
            self.sequence_cache[live] = sequence
        return sequence

    def forced_removal(self, pm: int, uncovered: int, live: int) -> tuple[int, ...] | None:
        """A pyramid removal that some shortest solution makes right now, if any.

        An uncovered king; or an uncovered card whose one possible partner left
        anywhere (pyramid and live stock) is another uncovered card, so every
        solution removes the two together. Both cost one step whenever they are
        made and only uncover cards, so making them first loses nothing.
        """
        candidates = self.forced_cache.get(pm)
        if candidates is None:
            candidates = self._forced_candidates(pm, uncovered)
        stock_rank_mask = self.stock_rank_mask
        for need, removal in candidates:
            if not need or not stock_rank_mask[need] & live:
                return removal
        return None

    def _forced_candidates(self, pm: int, uncovered: int) -> list[tuple[int, tuple[int, ...]]]:
        """For :meth:`forced_removal`: (rank that must be absent from the stock, removal), cached per pyramid."""
        rank_mask, target, rank, partners = self.rank_mask, self.target, self.rank, self.pyramid_partners
        candidates: list[tuple[int, tuple[int, ...]]] = []
        kings = uncovered & rank_mask[target]
        if kings:
            candidates.append((0, ((kings & -kings).bit_length() - 1,)))
        else:
            for bit in _bits(uncovered):
                options = partners[bit] & pm & ~(1 << bit)
                if options & uncovered and not options & (options - 1):
                    other = options.bit_length() - 1
                    candidates.append((target - rank[bit], (bit, other) if bit < other else (other, bit)))
        self.forced_cache[pm] = candidates
        return candidates

    def forced_open_removal(self, pm: int, uncovered: int, live: int, q: int) -> tuple[int, ...] | None:
        """A removal of an open stock or waste card that dominates every other move here.

        An uncovered pyramid card whose one possible partner left is the open
        card must leave with it, and taking it now only opens what lay under it
        sooner: with one-card draws, any line that keeps it can be played
        without it. (The caller checks the one-card draw.)
        """
        target, partners = self.target, self.pyramid_partners
        for j, open_rank in self.open_cards(live, q):
            if open_rank >= target or (self.stock_rank_mask[open_rank] & live) != 1 << j:
                continue
            for bit in _bits(uncovered & self.rank_mask[target - open_rank]):
                if not partners[bit] & pm & ~(1 << bit):
                    return (bit, _STOCK_ID + j)
        return None

    def is_won(self, pm: int, live: int) -> bool:
        return not pm and not (self.goal_all and live)

    def open_cards(self, live: int, q: int) -> list[tuple[int, int]]:
        """The stock/waste cards playable at ``q``: (index, rank) pairs."""
        cards = []
        if self.stock_top_playable and q < self.m:
            cards.append((q, self.stock_rank[q]))
        if self.waste_playable:
            top = (live & ((1 << q) - 1)).bit_length() - 1
            if top >= 0:
                cards.append((top, self.stock_rank[top]))
        return cards

    def uncovered_bits(self, pm: int, uncovered: int) -> list[int]:
        """``_bits(uncovered)`` for the uncovered cards of ``pm``, cached per pyramid."""
        bits = self.uncovered_cache.get(pm)
        if bits is None:
            bits = self.uncovered_cache[pm] = _bits(uncovered)
        return bits

    def pyramid_removals(self, pm: int, uncovered: int) -> list[tuple[int, ...]]:
        """Removals inside the pyramid (pairs, overlap pairs), as card-id tuples (cached)."""
        removals = self.removals_cache.get(pm)
        if removals is None:
            removals = self.removals_cache[pm] = self._pyramid_removals(pm, uncovered)
        return removals

    def _pyramid_removals(self, pm: int, uncovered: int) -> list[tuple[int, ...]]:
        target, rank, rank_mask = self.target, self.rank, self.rank_mask
        removals: list[tuple[int, ...]] = []
        for bit in _bits(uncovered):
            need = target - rank[bit]
            if need <= 0:
                continue
            for other in _bits(uncovered & rank_mask[need] & ~((2 << bit) - 1)):
                removals.append((bit, other))
        if self.overlap:
            for bit in _bits(pm & ~uncovered):
                present = pm & (3 << (bit + ROW_STRIDE))
                if present & (present - 1) == 0 and present & uncovered:
                    other = present.bit_length() - 1
                    if rank[bit] + rank[other] == target:
                        removals.append((bit, other))
        return removals

    def open_removal_possible(self, uncovered: int, live: int, q: int) -> bool:
        """True when some removal uses a stock or waste card at ``q`` (a cheap test)."""
        target, rank_mask = self.target, self.rank_mask
        if not self.stock_top_playable:
            top = (live & ((1 << q) - 1)).bit_length() - 1
            if top < 0 or not self.waste_playable:
                return False
            rank = self.stock_rank[top]
            return rank == target or bool(uncovered & rank_mask[target - rank])
        return bool(self.open_removals(uncovered, live, q))

    def open_removals(self, uncovered: int, live: int, q: int) -> list[tuple[int, ...]]:
        """Removals that use a stock or waste card at ``q``; open kings first.

        (The open cards of :meth:`open_cards`, unrolled: both searches ask this at every node.)
        """
        target, rank_mask, stock_rank = self.target, self.rank_mask, self.stock_rank
        stock = q if self.stock_top_playable and q < self.m else -1
        waste = (live & ((1 << q) - 1)).bit_length() - 1 if self.waste_playable else -1
        removals: list[tuple[int, ...]] = []
        if stock >= 0 and stock_rank[stock] == target:
            removals.append((_STOCK_ID + stock,))
        if waste >= 0 and stock_rank[waste] == target:
            removals.append((_STOCK_ID + waste,))
        for j in (stock, waste):
            if j >= 0 and stock_rank[j] < target:
                partners = uncovered & rank_mask[target - stock_rank[j]]
                while partners:
                    low = partners & -partners
                    removals.append((low.bit_length() - 1, _STOCK_ID + j))
                    partners ^= low
        if stock >= 0 and waste >= 0 and stock_rank[stock] + stock_rank[waste] == target:
            removals.append((_STOCK_ID + stock, _STOCK_ID + waste))
        return removals

    def apply_removal(self, pm: int, live: int, q: int, r: int, removal: tuple[int, ...]) -> tuple[int, int, int]:
        for card_id in removal:
            if card_id >= _STOCK_ID:
                live &= ~(1 << (card_id - _STOCK_ID))
            else:
                pm &= ~(1 << card_id)
        q = self.next_live(live, q)
        return pm, self.forget_buried(pm, live, q, r), q

    def forget_buried(self, pm: int, live: int, q: int, r: int) -> int:
        """``live`` without the waste cards buried for good.

        With no redeal left, a waste card that can never leave (no partner
        left that could ever reach it) keeps every card under it out of play
        until the end: those cards no longer matter, and forgetting them makes
        positions that differ only there one position.
        """
        if r or self.goal_all:
            return live
        waste = live & ((1 << q) - 1)
        if not waste:
            return live
        stuck = self.stuck_in_waste(pm, live, q) & waste
        if not stuck:
            return live
        return live & ~((2 << (stuck.bit_length() - 1)) - 1)

    def stuck_in_waste(self, pm: int, live: int, q: int) -> int:
        """Stock-sequence cards that can never pair again if they sit in the waste.

        Those whose complement is gone from the pyramid, unless (with a
        playable stock top) one is still in the stock. Without a playable stock
        top the answer depends on the pyramid alone and is cached with it.
        """
        cached = self.stuck_cache.get(pm)
        if cached is not None:
            return cached
        stuck = 0
        stock = live >> q << q
        for rank in range(1, self.target):
            if self.rank_mask[self.target - rank] & pm:
                continue
            if not (self.stock_top_playable and self.stock_rank_mask[self.target - rank] & stock):
                stuck |= self.stock_rank_mask[rank]
        if not self.stock_top_playable:
            self.stuck_cache[pm] = stuck
        return stuck

    def move_of(self, token: int | tuple[int, ...]) -> Move:
        if token == _DRAW:
            return Move.draw()
        if token == _REDEAL:
            return Move.redeal()
        assert isinstance(token, tuple)
        cards = [
            self.sequence[card_id - _STOCK_ID] if card_id >= _STOCK_ID else self.pyramid_card[card_id]
            for card_id in token
        ]
        return Move.remove(*cards)


def _matching(lows: int, highs: int, partners: list[int]) -> int:
    """Size of a maximum matching between two small sets of pyramid bits, given as masks.

    ``partners[bit]`` is the mask of bits ``bit`` could ever pair with. Most
    cards find a free partner at once; the others look for an augmenting path.
    """
    owner: dict[int, int] = {}  # a matched high (a one-bit mask) -> its low

    def augment(low: int, seen: int) -> bool:
        options = partners[low] & highs & ~seen
        while options:
            high = options & -options
            seen |= high
            other = owner.get(high)
            if other is None or augment(other, seen):
                owner[high] = low
                return True
            options ^= high
        return False

    taken = matched = 0
    while lows:
        bit = lows & -lows
        lows ^= bit
        low = bit.bit_length() - 1
        options = partners[low] & highs
        free = options & ~taken
        if free:
            high = free & -free
            owner[high] = low
            taken |= high
            matched += 1
        elif options and augment(low, 0):
            matched += 1
            taken = sum(owner)
    return matched


def _uncovered(pm: int) -> int:
    return pm & ~((pm >> ROW_STRIDE) | (pm >> (ROW_STRIDE + 1)))


class _Budget:
    """Counts nodes and stops a search that runs over its node or time budget.

    The clock is read every 256 nodes: a few milliseconds here, a few tens on
    a Pi, which is as late as a hint may come.
    """

    def __init__(self, max_nodes: int | None, max_seconds: float | None) -> None:
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds

    def share(self, max_nodes: int) -> "_Budget":
        """A budget of at most ``max_nodes`` more nodes within this one, with the same deadline
        (its nodes are not counted here: :meth:`spend` them after)."""
        share = _Budget(max_nodes, None)
        if self.max_nodes is not None:
            share.max_nodes = min(max_nodes, self.max_nodes - self.nodes)
        share.deadline = self.deadline
        return share

    def spend(self, nodes: int) -> None:
        """Count the ``nodes`` a :meth:`share` spent, and check this budget."""
        self.nodes += nodes
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise BudgetExceeded


class _Relaxation:
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

    def __init__(self, pos: _Position, budget: _Budget) -> None:
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
        raw = pm | (counts << _PYRAMID_BITS) | (waste << _RELAXED_WASTE_SHIFT)
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
        key = pm | (counts << _PYRAMID_BITS) | (waste << _RELAXED_WASTE_SHIFT)
        known = self.won.get(key)
        if known is not None:
            return known
        shape = pm | (waste << _RELAXED_WASTE_SHIFT)
        for lost in self.lost_counts.get(shape, ()):
            if ((lost | _COUNT_GUARDS) - counts) & _COUNT_GUARDS == _COUNT_GUARDS:
                return False  # fewer cards of every rank than a lost position
        for won in self.won_counts.get(shape, ()):
            if ((counts | _COUNT_GUARDS) - won) & _COUNT_GUARDS == _COUNT_GUARDS:
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
        guards = _COUNT_GUARDS
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
            uncovered = _uncovered(pm)
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


#: In :class:`_LastPass`: stock cards consumed, above the 56 pyramid bits of a position.
_CONSUMED_SHIFT = _PYRAMID_BITS


class _PyramidCleared(Exception):
    """Raised inside the searches by excursions when a line clears the pyramid (goal "pyramid"), or, in
    :class:`_TwoPasses`, the whole table before its redeal: the position is won."""


class _LastPass:
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

    def __init__(self, pos: _Position, budget: _Budget, lost: dict[int, int], relaxation: _Relaxation) -> None:
        self.pos = pos
        self.budget = budget
        self.lost = lost
        self.relaxation = relaxation
        self.excursions: dict[int, tuple[int, ...]] = {}
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
        uncovered = _uncovered(pm)
        kings = uncovered & pos.rank_mask[pos.target]
        if kings:
            after: tuple[int, ...] = (pm & ~(kings & -kings),)
        else:
            after = tuple(pm & ~sum(1 << bit for bit in removal) for removal in pos.pyramid_removals(pm, uncovered))
        moves = self.moves[pm] = (uncovered, after)
        return moves

    def excursion(self, pm: int, card: int, stock: int) -> tuple[int, ...]:
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
        """
        excursions = self.excursions
        card_key, stock_key = card << _CONSUMED_SHIFT, stock << (_CONSUMED_SHIFT + 4)
        key = pm | card_key | stock_key
        known = excursions.get(key)
        if known is not None:
            return known
        pos = self.pos
        if not pm and not pos.goal_all:
            raise _PyramidCleared  # a line of the real game clears the pyramid: the question is answered
        target, rank_mask, stock_top_playable = pos.target, pos.rank_mask, pos.stock_top_playable
        need = target - card
        partners_mask = rank_mask[need]
        if not pm & partners_mask and not (stock_top_playable and _holds_rank(stock, need)):
            excursions[key] = ()
            return ()  # the card can never leave: only a burial, which the caller tries
        short = self.short.get(pm)
        if short is None:
            short = self.short[pm] = self._short(pm)
        if short or (not stock_top_playable and self._partners_buried(pm, need, stock)):
            excursions[key] = ()
            return ()  # short of a rank for good, or the card can never leave
        self.budget.tick()
        entry = self.moves.get(pm)
        uncovered, smaller = entry if entry is not None else self._pyramid_moves(pm)
        outcomes: set[int] = set()
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
        top = stock & 15
        if top:
            rest = stock >> 4
            one = 1 << _CONSUMED_SHIFT
            rest_key = rest << (_CONSUMED_SHIFT + 4)
            if top == target:  # a king drawn (or on the stock top) leaves at once
                found = excursions.get(pm | card_key | rest_key)
                if found is None:
                    found = self.excursion(pm, card, rest)
                outcomes.update([outcome + one for outcome in found])
            else:
                if stock_top_playable:
                    if top == need:
                        outcomes.add(pm | one)
                    partners = uncovered & rank_mask[target - top]
                    while partners:
                        low = partners & -partners
                        found = excursions.get((pm ^ low) | card_key | rest_key)
                        if found is None:
                            found = self.excursion(pm ^ low, card, rest)
                        outcomes.update([outcome + one for outcome in found])
                        partners ^= low
                nested = excursions.get(pm | (top << _CONSUMED_SHIFT) | rest_key)
                if nested is None:
                    nested = self.excursion(pm, top, rest)
                pyramid_mask = (1 << _CONSUMED_SHIFT) - 1
                for inner in nested:
                    consumed = (inner >> _CONSUMED_SHIFT) + 1
                    after, later = inner & pyramid_mask, stock >> (4 * consumed)
                    found = excursions.get(after | card_key | (later << (_CONSUMED_SHIFT + 4)))
                    if found is None:
                        found = self.excursion(after, card, later)
                    if found:
                        shift = consumed << _CONSUMED_SHIFT
                        outcomes.update([outcome + shift for outcome in found])
        known = excursions[key] = tuple(outcomes)
        return known

    def _short(self, pm: int) -> bool:
        """Does ``pm`` need more cards of some rank than ``supply`` holds?

        Counted on the cards no card of the pyramid can pair with, each of which
        needs a stock card. (The maximum matching of :meth:`_Position.pyramid_facts`
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
        except _PyramidCleared:
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
        target, rank_mask, stock_rank = pos.target, pos.rank_mask, pos.stock_rank
        stock_top_playable, goal_all = pos.stock_top_playable, pos.goal_all
        stock_bits, waste_bits, stock = pos.pass_cards(live, q)
        length, waste_size = len(stock_bits), len(waste_bits)
        # The real position of a state: its stock suffix and what is left of the start's waste.
        stock_live = [0] * (length + 1)
        for place in range(length - 1, -1, -1):
            stock_live[place] = stock_live[place + 1] | (1 << stock_bits[place])
        waste_live = [0] * (waste_size + 1)
        for taken in range(waste_size - 1, -1, -1):
            waste_live[taken] = waste_live[taken + 1] | (1 << waste_bits[taken])
        stock_q = [*stock_bits, pos.m]
        recorded: list[int] = []
        seen: set[tuple[int, int, int]] = set()
        todo = [(pm, 0, 0)]
        later: list[tuple[int, int, int]] = []  # states whose excursion is still to be explored
        while todo or later:
            if not todo:
                here, consumed, taken = later.pop()
                rest = stock >> (4 * consumed)
                for outcome in self.excursion(here, rest & 15, rest >> 4):
                    todo.append((outcome & ((1 << _CONSUMED_SHIFT) - 1),
                                 consumed + 1 + (outcome >> _CONSUMED_SHIFT), taken))
                continue
            state = todo.pop()
            if state in seen:
                continue
            seen.add(state)
            budget.tick()
            here, consumed, taken = state
            if not here and (not goal_all or (consumed == length and taken == waste_size)):
                return True
            state_live = stock_live[consumed] | waste_live[taken]
            state_q = stock_q[consumed]
            key = pos.lost_key(here, pos.forget_buried(here, state_live, state_q, 0), state_q, 0)
            if key in lost or pos.is_lost(here, state_live) or not relaxation.can_win(here, state_live, state_q, 0):
                continue
            recorded.append(key)
            entry = self.moves.get(here)
            uncovered, smaller = entry if entry is not None else self._pyramid_moves(here)
            for after in smaller:
                todo.append((after, consumed, taken))
            rest = stock >> (4 * consumed)
            top = rest & 15
            if taken < waste_size:
                card = stock_rank[waste_bits[taken]]
                if card == target:
                    todo.append((here, consumed, taken + 1))
                    continue  # an open king leaving dominates every other move
                for partner in _bits(uncovered & rank_mask[target - card]):
                    todo.append((here & ~(1 << partner), consumed, taken + 1))
                if stock_top_playable and top and top + card == target:
                    todo.append((here, consumed + 1, taken + 1))
            if not top:
                continue
            if top == target:
                todo.append((here, consumed + 1, taken))
                continue
            if stock_top_playable:
                for partner in _bits(uncovered & rank_mask[target - top]):
                    todo.append((here & ~(1 << partner), consumed + 1, taken))
            if not goal_all:  # a burial: the start's waste never plays again, as if all taken
                todo.append((here, consumed + 1, waste_size))
            later.append(state)
        for key in recorded:
            lost[key] = 0
        return False


def _stock_ranks(rank: list[int], cards: list[int]) -> int:
    """The ranks of ``cards`` four bits each, the first lowest: a stock as :class:`_LastPass` reads it."""
    ranks = 0
    for place, card in enumerate(cards):
        ranks |= rank[card] << (4 * place)
    return ranks


def _holds_rank(stock: int, rank: int) -> bool:
    """Does a rank sequence (four bits a card) hold a card of ``rank``?"""
    while stock:
        if stock & 15 == rank:
            return True
        stock >>= 4
    return False


class _RedealTo(NamedTuple):
    """Where a winning line of :class:`_TwoPasses` redeals: the pyramid and the cards then left (``live``)."""

    pm: int
    live: int


#: :meth:`_TwoPasses.winning_redeal` for a pyramid that can be cleared before the redeal.
_CLEARED_BEFORE_REDEAL = _RedealTo(-1, -1)


class _TwoPasses:
    """Exact verdicts with one redeal left and one-card draws: the first pass by families of second passes.

    The depth-first search meets every different waste of the first pass
    apart, and each is the start of a different last pass: Six rows with one
    redeal, reference deal 190, about 9 s. Here the first pass is played as
    :class:`_LastPass` plays a last one, by excursions, except that a card
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
    pass is searched on (pyramid, node) as :class:`_LastPass` searches
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

    def __init__(self, pos: _Position, budget: _Budget, last_pass: _LastPass, relaxation: _Relaxation) -> None:
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
    def winning_redeal(self, pm: int, live: int, q: int) -> _RedealTo | None:
        """Can the position (one redeal left) be won? ``None`` if not; else where a winning line
        redeals, or :data:`_CLEARED_BEFORE_REDEAL`."""
        try:
            ends = self._first_pass(pm, live, q)
        except _PyramidCleared:
            return _CLEARED_BEFORE_REDEAL
        # The smallest pyramids first: a win is most often there, and then found at once.
        for end_pm in sorted(ends, key=int.bit_count):
            root = self._node(frozenset(ends[end_pm].values()))
            if self._second_pass_wins(end_pm, root):
                return self._witness(end_pm, root)
        return None

    def _witness(self, pm: int, root: int) -> _RedealTo:
        """One stock of the family at ``root`` whose last pass clears ``pm`` (there is one)."""
        pos = self.pos
        for stock in sorted(self.families[root]):
            if self.last_pass.can_win(pm, stock, pos.next_live(stock, 0)):
                return _RedealTo(pm, stock)
        raise AssertionError("the family's second pass was won, one of its stocks must be")

    def _first_pass(self, pm: int, live: int, q: int) -> dict[int, dict[int, int]]:
        """Every pyramid the first pass can redeal with, and the family of stocks it can leave for it.

        States are ordered so that each comes after every state that leads to
        it (more stock consumed, then a smaller pyramid, then more start-waste
        taken), so a state's family is complete when it is taken up.
        """
        pos, budget, last_pass = self.pos, self.budget, self.last_pass
        target, rank_mask, stock_rank = pos.target, pos.rank_mask, pos.stock_rank
        stock_top_playable, goal_all = pos.stock_top_playable, pos.goal_all
        stock_bits, waste_bits, stock = pos.pass_cards(live, q)
        length, waste_size = len(stock_bits), len(waste_bits)
        waste_left = [0] * (waste_size + 1)  # the start's waste after ``taken`` cards left it
        waste_ranks = [0] * (waste_size + 1)  # and its ranks, bottom card first (highest)
        for taken in range(waste_size - 1, -1, -1):
            waste_left[taken] = waste_left[taken + 1] | (1 << waste_bits[taken])
        for taken in range(waste_size):
            waste_ranks[taken] = pos.rank_sequence(waste_left[taken])
        pyramid_mask = (1 << _PYRAMID_BITS) - 1
        # A family maps the ranks of the cards that stayed (four bits each, in drawing order) to one set
        # of cards with those ranks: the second pass sees only ranks, so the others are the same stock.
        families: dict[int, dict[int, int]] = {}
        heap: list[int] = []
        ends: dict[int, dict[int, int]] = {}
        own: set[int] = set()  # states whose family is their own, to be added to in place

        def reach(consumed: int, after: int, taken: int, stayed: int, family: dict[int, int]) -> None:
            # The key orders states as the docstring says; ``stayed``: a card stays above the start's
            # waste (which says nothing once none of it is left).
            key = (consumed << 72) | ((pyramid_mask ^ after) << 16) | (taken << 1) | (stayed and taken < waste_size)
            known = families.get(key)
            if known is None:
                families[key] = family  # shared with the state it came from until another joins
                heapq.heappush(heap, key)
            elif known is not family:
                if key in own:
                    known.update(family)
                else:
                    families[key] = {**known, **family}
                    own.add(key)

        reach(0, pm, 0, 0, {0: 0})
        while heap:
            key = heapq.heappop(heap)
            family = families.pop(key)
            consumed, here = key >> 72, pyramid_mask ^ ((key >> 16) & pyramid_mask)
            taken, stayed = (key >> 1) & 32767, key & 1
            budget.tick()
            if not here and not goal_all:
                raise _PyramidCleared
            entry = last_pass.moves.get(here)
            uncovered, smaller = entry if entry is not None else last_pass._pyramid_moves(here)
            for after in smaller:
                reach(consumed, after, taken, stayed, family)
            top = (stock >> (4 * consumed)) & 15
            if not stayed and taken < waste_size:
                card = stock_rank[waste_bits[taken]]
                if card == target:
                    reach(consumed, here, taken + 1, 0, family)
                else:
                    for partner in _bits(uncovered & rank_mask[target - card]):
                        reach(consumed, here & ~(1 << partner), taken + 1, 0, family)
                    if stock_top_playable and top and top + card == target:
                        reach(consumed + 1, here, taken + 1, 0, family)
            if consumed == length:
                left, left_ranks = waste_left[taken], waste_ranks[taken]
                if not here and not left and 0 in family:
                    raise _PyramidCleared  # goal "all": the whole table is cleared without the redeal
                end = ends.setdefault(here, {})
                for ranks, stayers in family.items():
                    end[(left_ranks << (4 * ((ranks.bit_length() + 3) // 4))) | ranks] = stayers | left
                continue
            if top == target:
                reach(consumed + 1, here, taken, stayed, family)
                continue
            if stock_top_playable:
                for partner in _bits(uncovered & rank_mask[target - top]):
                    reach(consumed + 1, here & ~(1 << partner), taken, stayed, family)
            bit = 1 << stock_bits[consumed]
            reach(consumed + 1, here, taken, 1,
                  {(ranks << 4) | top: stayers | bit for ranks, stayers in family.items()})
            for outcome in last_pass.excursion(here, top, stock >> (4 * consumed + 4)):
                reach(consumed + 1 + (outcome >> _CONSUMED_SHIFT), outcome & pyramid_mask, taken, stayed, family)
        return ends

    def _second_pass_wins(self, pm: int, root: int) -> bool:
        """Does some stock of the family at ``root`` clear ``pm`` in the last pass?

        The search of :meth:`_LastPass._search` on (pyramid, node): a node
        with children offers both the stocks that hold its next card and those
        that do not. Each state is first put to the verdict search's tests
        with the cards any stock of the node holds (sound: fewer cards never
        win more); states lost are remembered for other pyramids' families.
        """
        pos, budget, relaxation, last_pass, lost = self.pos, self.budget, self.relaxation, self.last_pass, self.lost
        target, rank_mask, stock_rank, goal_all = pos.target, pos.rank_mask, pos.stock_rank, pos.goal_all
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
                if not here and (not goal_all or not cards):
                    return True
                if pos.needs_more(here, cards) or not relaxation.can_win(here, cards, pos.next_live(cards, 0), 0):
                    continue
                entry = last_pass.moves.get(here)
                uncovered, smaller = entry if entry is not None else last_pass._pyramid_moves(here)
                for after in smaller:
                    todo.append((after, node))
                if not cards:
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
                    for partner in _bits(uncovered & rank_mask[target - top]):
                        todo.append((here & ~(1 << partner), below))
                for outcome in self._excursion(here, top, below):
                    todo.append((outcome & ((1 << _CONSUMED_SHIFT) - 1), outcome >> _CONSUMED_SHIFT))
        except _PyramidCleared:
            return True
        lost.update(seen)
        return False


    # -- the line ---------------------------------------------------------------
    def first_pass_line(self, pm: int, live: int, q: int, redeal: _RedealTo) -> list[int | tuple[int, ...]]:
        """The moves of a first pass from the position to ``redeal`` (which :meth:`winning_redeal` found).

        The first pass again, with its family reduced to the one stock wanted:
        a card in it must stay, any other must leave. Each state remembers the
        step that reached it, and excursions are played out by
        :meth:`_excursion_line` from the outcomes already remembered.
        """
        pos, last_pass = self.pos, self.last_pass
        target, rank_mask, stock_rank, stock_top_playable = pos.target, pos.rank_mask, pos.stock_rank, pos.stock_top_playable
        stock_bits, waste_bits, stock_ranks = pos.pass_cards(live, q)
        length = len(stock_bits)
        end_pm, end_live = redeal
        keep_waste = sum(1 for j in waste_bits if not end_live >> j & 1)  # start-waste cards that leave
        drawn = [0] * (length + 1)  # the stock cards among the first ``consumed``
        for place, j in enumerate(stock_bits):
            drawn[place + 1] = drawn[place] | (1 << j)
        # step: (previous state, tokens); a state is (consumed, pyramid, taken).
        came: dict[tuple[int, int, int], tuple[tuple[int, int, int], list[int | tuple[int, ...]]]] = {}
        start = (0, pm, 0)
        todo = [start]
        seen = {start}

        def reach(state: tuple[int, int, int], before: tuple[int, int, int], tokens: list[int | tuple[int, ...]]) -> None:
            if state not in seen and state[1] & end_pm == end_pm:
                seen.add(state)
                came[state] = (before, tokens)
                todo.append(state)

        while todo:
            state = todo.pop()
            consumed, here, taken = state
            if consumed == length and here == end_pm and taken == keep_waste:
                break
            entry = last_pass.moves.get(here)
            uncovered, smaller = entry if entry is not None else last_pass._pyramid_moves(here)
            for after in smaller:
                reach((consumed, after, taken), state, [tuple(_bits(here ^ after))])
            stayed = end_live & drawn[consumed]
            top_id = stock_bits[consumed] if consumed < length else -1
            if not stayed and taken < keep_waste:
                card_id = waste_bits[taken]
                card = stock_rank[card_id]
                if card == target:
                    reach((consumed, here, taken + 1), state, [(_STOCK_ID + card_id,)])
                else:
                    for partner in _bits(uncovered & rank_mask[target - card]):
                        reach((consumed, here & ~(1 << partner), taken + 1), state, [(partner, _STOCK_ID + card_id)])
                    if (stock_top_playable and top_id >= 0 and not end_live >> top_id & 1
                            and stock_rank[top_id] + card == target):
                        reach((consumed + 1, here, taken + 1), state, [(_STOCK_ID + top_id, _STOCK_ID + card_id)])
            if top_id < 0:
                continue
            top = stock_rank[top_id]
            if end_live >> top_id & 1:
                reach((consumed + 1, here, taken), state, [_DRAW])  # it stays
                continue
            if top == target:
                king: list[int | tuple[int, ...]] = [(_STOCK_ID + top_id,)]
                reach((consumed + 1, here, taken), state, king if stock_top_playable else [_DRAW, *king])
                continue
            if stock_top_playable:
                for partner in _bits(uncovered & rank_mask[target - top]):
                    reach((consumed + 1, here & ~(1 << partner), taken), state, [(partner, _STOCK_ID + top_id)])
            rest = stock_bits[consumed + 1:]
            for outcome in last_pass.excursion(here, top, stock_ranks >> (4 * (consumed + 1))):
                used = outcome >> _CONSUMED_SHIFT
                if end_live & (drawn[consumed + 1 + used] ^ drawn[consumed + 1]):
                    continue  # a card that must stay would leave
                after = outcome & ((1 << _CONSUMED_SHIFT) - 1)
                state_after = (consumed + 1 + used, after, taken)
                if state_after not in seen:
                    reach(state_after, state, [_DRAW, *self._excursion_line(here, top_id, rest, outcome)])
        else:
            raise AssertionError("the redeal found by the first pass must be reachable")
        line: list[int | tuple[int, ...]] = []
        while state != start:
            state, tokens = came[state]
            line[:0] = tokens
        return line

    def _excursion_line(self, pm: int, card_id: int, stock: list[int], outcome: int) -> list[int | tuple[int, ...]]:
        """The moves of an excursion of the card ``card_id`` (on the waste top, ``stock`` after it) that end
        in ``outcome`` (see :meth:`_LastPass.excursion`), found among the excursions it is made of."""
        pos, last_pass = self.pos, self.last_pass
        target, rank_mask, stock_rank = pos.target, pos.rank_mask, pos.stock_rank
        card = stock_rank[card_id]
        need = target - card
        pyramid_mask = (1 << _CONSUMED_SHIFT) - 1
        used, after = outcome >> _CONSUMED_SHIFT, outcome & pyramid_mask
        uncovered, smaller = last_pass.moves.get(pm) or last_pass._pyramid_moves(pm)
        gone = pm ^ after
        if not used and gone and not gone & (gone - 1) and gone & uncovered & rank_mask[need]:
            return [(gone.bit_length() - 1, _STOCK_ID + card_id)]
        ranks = _stock_ranks(stock_rank, stock)
        for smaller_pm in smaller:
            if outcome in last_pass.excursion(smaller_pm, card, ranks):
                return [tuple(_bits(pm ^ smaller_pm)), *self._excursion_line(smaller_pm, card_id, stock, outcome)]
        assert stock, "an outcome of an excursion comes from one of its moves"
        top_id, rest = stock[0], stock[1:]
        top, rest_ranks, one = stock_rank[top_id], ranks >> 4, 1 << _CONSUMED_SHIFT
        if top == target:
            king: list[int | tuple[int, ...]] = [(_STOCK_ID + top_id,)]
            return [*(king if pos.stock_top_playable else [_DRAW, *king]),
                    *self._excursion_line(pm, card_id, rest, outcome - one)]
        if pos.stock_top_playable:
            if top == need and outcome == pm | one:
                return [(_STOCK_ID + top_id, _STOCK_ID + card_id)]
            for partner in _bits(uncovered & rank_mask[target - top]):
                if used and outcome - one in last_pass.excursion(pm & ~(1 << partner), card, rest_ranks):
                    return [(partner, _STOCK_ID + top_id),
                            *self._excursion_line(pm & ~(1 << partner), card_id, rest, outcome - one)]
        for inner in last_pass.excursion(pm, top, rest_ranks):
            inner_used = (inner >> _CONSUMED_SHIFT) + 1
            left = outcome - (inner_used << _CONSUMED_SHIFT)
            later = rest[inner_used - 1:]
            if left >= 0 and left in last_pass.excursion(inner & pyramid_mask, card, ranks >> (4 * inner_used)):
                return [_DRAW, *self._excursion_line(pm, top_id, rest, inner),
                        *self._excursion_line(inner & pyramid_mask, card_id, later, left)]
        raise AssertionError("an outcome of an excursion comes from one of its moves")

    def _excursion(self, pm: int, card: int, node: int) -> tuple[int, ...]:
        """:meth:`_LastPass.excursion` over the stocks of ``node``: the outcomes are ``pyramid | node << 56``.

        (Cache lookups written out before each call, as there: most calls find their answer.)
        """
        excursions = self.excursions
        card_key, node_key = card << _CONSUMED_SHIFT, node << (_CONSUMED_SHIFT + 4)
        key = pm | card_key | node_key
        known = excursions.get(key)
        if known is not None:
            return known
        pos = self.pos
        if not pm and not pos.goal_all:
            raise _PyramidCleared
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
        entry = last_pass.moves.get(pm)
        uncovered, smaller = entry if entry is not None else last_pass._pyramid_moves(pm)
        node_outcome = node << _CONSUMED_SHIFT
        outcomes: set[int] = set()
        partners = uncovered & partners_mask
        while partners:
            low = partners & -partners
            outcomes.add((pm ^ low) | node_outcome)
            partners ^= low
        for after in smaller:
            found = excursions.get(after | card_key | node_key)
            outcomes.update(found if found is not None else self._excursion(after, card, node))
        if cards:
            if self.present[node] < 0:
                self._split(node)
            absent, below = self.absent[node], self.present[node]
            if absent:
                found = excursions.get(pm | card_key | (absent << (_CONSUMED_SHIFT + 4)))
                outcomes.update(found if found is not None else self._excursion(pm, card, absent))
            if below:
                below_key = below << (_CONSUMED_SHIFT + 4)
                top = pos.stock_rank[self.place[node]]
                if top == target:
                    found = excursions.get(pm | card_key | below_key)
                    outcomes.update(found if found is not None else self._excursion(pm, card, below))
                else:
                    if stock_top_playable:
                        if top == need:
                            outcomes.add(pm | (below << _CONSUMED_SHIFT))
                        partners = uncovered & rank_mask[target - top]
                        while partners:
                            low = partners & -partners
                            outcomes.update(self._excursion(pm ^ low, card, below))
                            partners ^= low
                    pyramid_mask = (1 << _CONSUMED_SHIFT) - 1
                    nested = excursions.get(pm | (top << _CONSUMED_SHIFT) | below_key)
                    for inner in nested if nested is not None else self._excursion(pm, top, below):
                        after = inner & pyramid_mask
                        found = excursions.get(after | card_key | ((inner >> _CONSUMED_SHIFT) << (_CONSUMED_SHIFT + 4)))
                        outcomes.update(found if found is not None else
                                        self._excursion(after, card, inner >> _CONSUMED_SHIFT))
        known = excursions[key] = tuple(outcomes)
        return known


class _Memory:
    """What the searches of one deal have proved, shared by every search of every question about it.

    Proven losses, relaxed games won or lost, excursions and second passes
    lost are facts about positions of the deal, not about the question that
    led to them, so they hold for every question asked later (see
    :meth:`_Position.aim`), and a probe's findings serve the search after it.
    A search that runs out of time leaves only what it finished proving: each
    table is written when an answer is complete, and the depth-first search
    takes back the marks of the walk it was on (see ``_VerdictSearch.search``).
    """

    def __init__(self, pos: _Position) -> None:
        self.pos = pos
        self.budget = _Budget(None, None)
        #: Loss-table key → most redeals left with which the position was lost.
        self.lost: dict[int, int] = {}
        self.relaxation = _Relaxation(pos, self.budget)
        self.last_pass = _LastPass(pos, self.budget, self.lost, self.relaxation) if pos.draw_count == 1 else None
        self._two_passes: _TwoPasses | None = None

    def entries(self) -> int:
        """How many answers the tables hold, about 80 bytes each (see :data:`_KEPT_ENTRIES`)."""
        pos, relaxation = self.pos, self.relaxation
        held = (len(self.lost) + len(relaxation.won) + len(relaxation.asked) + len(relaxation.counts_cache)
                + len(pos.sequence_cache) + len(pos.facts_cache))
        if self.last_pass is not None:
            held += len(self.last_pass.excursions)
        if self._two_passes is not None:
            held += len(self._two_passes.excursions) + len(self._two_passes.families)
        return held

    def attach(self, budget: _Budget) -> None:
        """Count the work of every helper on ``budget`` from now on."""
        self.budget = self.relaxation.budget = budget
        if self.last_pass is not None:
            self.last_pass.budget = budget
        if self._two_passes is not None:
            self._two_passes.budget = budget

    def two_passes(self) -> "_TwoPasses":
        """The two-pass search (one-card draws), made when first asked."""
        if self._two_passes is None:
            assert self.last_pass is not None, "the two-pass search is asked only with one-card draws"
            self._two_passes = _TwoPasses(self.pos, self.budget, self.last_pass, self.relaxation)
        return self._two_passes


class _VerdictSearch:
    """Depth-first search over removals, walking the draw/redeal path in between."""

    def __init__(self, pos: _Position, budget: _Budget, memory: _Memory, last_pass: bool = True) -> None:
        self.pos = pos
        self.budget = budget
        self.lost = memory.lost
        self.path: list[int | tuple[int, ...]] = []
        self.king_dominates = pos.draw_count == 1
        self.relaxation = memory.relaxation
        self.last_pass = (memory.last_pass
                          if last_pass and (_last_pass_applies(pos) or _two_passes_apply(pos)) else None)
        #: Set once the last-pass search has found a position won: the depth-first search then
        #: walks to the win below, asking only quick questions (see ``last_pass_lost``).
        self.win_ahead = False

    def run(self) -> bool:
        pos = self.pos
        return self.search(pos.start_pm, pos.start_live, pos.next_live(pos.start_live, pos.start_q), pos.start_r)

    def last_pass_lost(self, pm: int, live: int, q: int) -> bool:
        """Is the last-pass position lost? Asked of :class:`_LastPass` in full until it finds one
        won; below that, for :data:`_QUICK_NODES` nodes only, and what it does not settle in them
        the depth-first search explores (it finds a line through a won position faster)."""
        last_pass = self.last_pass
        if last_pass is None:
            return False
        if not self.win_ahead:
            self.win_ahead = last_pass.can_win(pm, live, q)
            return not self.win_ahead
        budget = self.budget
        last_pass.budget = quick = budget.share(_QUICK_NODES)
        try:
            return not last_pass.can_win(pm, live, q)
        except BudgetExceeded:
            return False
        finally:
            last_pass.budget = budget
            budget.spend(quick.nodes)

    def search(self, pm: int, live: int, q: int, r: int) -> bool:
        pos, path, lost = self.pos, self.path, self.lost
        self.budget.tick()
        depth = len(path)
        uncovered = _uncovered(pm)
        forced = pos.forced_removal(pm, uncovered, live)
        if forced:
            while forced:
                path.append(forced)
                for bit in forced:
                    pm &= ~(1 << bit)
                uncovered = _uncovered(pm)
                forced = pos.forced_removal(pm, uncovered, live)
            live = pos.forget_buried(pm, live, q, r)
        if pos.is_won(pm, live):
            return True
        if (
            pos.is_lost(pm, live)
            or (not r and pos.goal_all and pos.waste_stranded(pm, live, q))
            or lost.get(pos.lost_key(pm, live, q, r), -1) >= r
            or not self.relaxation.can_win(pm, live, q, r)
            or (not r and self.last_pass_lost(pm, live, q))
        ):
            del path[depth:]
            return False
        for removal in pos.pyramid_removals(pm, uncovered):
            path.append(removal)
            if self.search(*pos.apply_removal(pm, live, q, r, removal), r):
                return True
            path.pop()
        m = pos.m
        cycle_free = r == UNLIMITED and pos.draw_count == 1 and pos.waste_playable
        seen_q: set[int] = set()
        # The walk's positions, marked lost while they are explored: key → what the table held before.
        walked: dict[int, int] = {}
        try:
            while True:
                # Back at a place of this walk after a redeal: the same position
                # with fewer redeals (and perhaps some waste forgotten) — dominated.
                if q in seen_q:
                    break
                seen_q.add(q)
                key = pos.lost_key(pm, live, q, r)
                if not cycle_free and lost.get(key, -1) >= r:
                    break
                if key not in walked:
                    walked[key] = lost.get(key, -1)
                    lost[key] = r
                # Drawing only strands more: the rest of the last pass is lost too.
                if not r and pos.goal_all and pos.waste_stranded(pm, live, q):
                    break
                if pos.open_removal_possible(uncovered, live, q):
                    # Drawing only moves cards from the stock to the waste, which
                    # the last-pass relaxation only finds harder: once it loses,
                    # the rest of the walk does too.
                    if not r and not self.relaxation.can_win(pm, live, q, r):
                        break
                    forced = pos.forced_open_removal(pm, uncovered, live, q) if self.king_dominates else None
                    dominated = False
                    for removal in [forced] if forced else pos.open_removals(uncovered, live, q):
                        path.append(removal)
                        if self.search(*pos.apply_removal(pm, live, q, r, removal), r):
                            self._unmark(walked)
                            return True
                        path.pop()
                        if forced or (self.king_dominates and len(removal) == 1):
                            dominated = True
                            break
                    if dominated:
                        break
                if q < m:
                    q = pos.after_draw(live, q)
                    live = pos.forget_buried(pm, live, q, r)
                    path.append(_DRAW)
                    continue
                if live and r:
                    q = pos.next_live(live, 0)
                    if r != UNLIMITED:
                        r -= 1
                    path.append(_REDEAL)
                    continue
                break
        except BudgetExceeded:
            self._unmark(walked)  # a mark is a proof only once its position's moves were all tried
            raise
        del path[depth:]
        return False

    def _unmark(self, walked: dict[int, int]) -> None:
        """Take back the marks of a walk that did not end in a loss (see ``search``)."""
        lost = self.lost
        for key, before in walked.items():
            if before < 0:
                del lost[key]
            else:
                lost[key] = before


#: A*'s open list holds each position as one integer: its key (see
#: ``_ShortestSearch._key``, under 2**100), its distance from the start at
#: ``_G_SHIFT``, at ``_DREW_BIT`` whether a draw or a redeal reached it, and
#: its state (below) from ``_ENTRY_STATE_SHIFT``.
#: Its record of visited positions is keyed by their *state* (see
#: ``_ShortestSearch._state``: the ranks, not the cards, of the stock and
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
#: up to 32 ranks of four bits (see ``_Position.lost_key``).
_STATE_R_SHIFT = _SEQUENCE_SHIFT + 4 * 32
#: A state without its redeals: the loss-table key of the position when redeals are limited.
_STATE_WITHOUT_R = (1 << _STATE_R_SHIFT) - 1


class _ShortestSearch:
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

    def __init__(self, pos: _Position, budget: _Budget, lost: dict[int, int], relaxation: _Relaxation) -> None:
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
        pos, lost, budget, relaxation = self.pos, self.lost, self.budget, self.relaxation
        start_q = pos.next_live(pos.start_live, pos.start_q)
        start = (pos.start_pm, pos.start_live, start_q, pos.start_r)
        start_state = self._state(*start)
        record = {start_state: 0}  # state → distance | previous state << _PARENT_SHIFT
        f = self.bound(pos.start_pm, pos.start_live)
        buckets: dict[int, list[int]] = {f: [self._key(*start) | (start_state << _ENTRY_STATE_SHIFT)]}
        sequence_cache, facts_cache, goal_all = pos.sequence_cache, pos.facts_cache, pos.goal_all
        counts_cache, asked = relaxation.counts_cache, relaxation.asked
        pm_mask, live_mask = (1 << _PYRAMID_BITS) - 1, (1 << (_Q_SHIFT - _LIVE_SHIFT)) - 1
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
                pm, live = key & pm_mask, (key >> _LIVE_SHIFT) & live_mask
                q, r = (key >> _Q_SHIFT) & 63, key >> _R_SHIFT
                budget.tick()
                if pos.is_won(pm, live):
                    return self._line(record, state, start_state, start)
                child_g = g + 1
                parent_link = child_g | (state << _PARENT_SHIFT)
                for token, new_pm, new_live, new_q, new_r in self._successors(pm, live, q, r, bool(entry & _DREW_BIT)):
                    sequence = sequence_cache.get(new_live)
                    if sequence is None:
                        sequence = pos.rank_sequence(new_live)
                    new_state = (new_pm | ((new_live & ((1 << new_q) - 1)).bit_count() << _WASTE_SHIFT)
                                 | (sequence << _SEQUENCE_SHIFT) | (new_r << _STATE_R_SHIFT))  # self._state, inlined: the hot path
                    known = record.get(new_state)
                    if known is not None:
                        if known & _DISTANCE_MASK <= child_g:
                            continue
                    else:  # a new state: is it lost? (One met before passed these tests then.)
                        if token != _DRAW and token != _REDEAL and pos.is_lost(new_pm, new_live):
                            continue
                        lost_key = (new_state & _STATE_WITHOUT_R if new_r != UNLIMITED
                                    else pos.lost_key(new_pm, new_live, new_q, new_r))
                        if lost.get(lost_key, -1) >= new_r:
                            continue
                        if new_r:  # relaxation.can_win, its answers looked up inline first
                            counts = counts_cache.get(new_live)
                            if counts is None:
                                counts = relaxation.counts(new_live)
                            won = asked.get(new_pm | (counts << _PYRAMID_BITS))
                            if won is None:
                                won = relaxation.relaxed_win(new_pm, counts, 0)
                            if not won:
                                continue
                        elif not relaxation.can_win(new_pm, new_live, new_q, new_r):
                            continue
                    record[new_state] = parent_link
                    facts = None if goal_all else facts_cache.get(new_pm)
                    new_f = child_g + (facts[0] if facts is not None else self.bound(new_pm, new_live))
                    new_entry = (new_pm | (new_live << _LIVE_SHIFT) | (new_q << _Q_SHIFT) | (new_r << _R_SHIFT)
                                 | (child_g << _G_SHIFT) | (new_state << _ENTRY_STATE_SHIFT))
                    if token == _DRAW or token == _REDEAL:
                        new_entry |= _DREW_BIT
                    if new_f <= f:
                        bucket.append(new_entry)
                    else:
                        buckets.setdefault(new_f, []).append(new_entry)
            del buckets[f]
        return None

    def _successors(self, pm: int, live: int, q: int, r: int,
                    drew: bool) -> list[tuple[int | tuple[int, ...], int, int, int, int]]:
        """The moves A* tries from a position, and the positions they lead to.

        A forced removal alone when there is one; pyramid-only removals only
        when no draw or redeal led here (``drew``); no draw of a stock-top king
        that could leave at once instead. (Hopeless positions are weeded out
        by the caller, once per state.)
        """
        pos = self.pos
        uncovered = _uncovered(pm)
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
                successors.append((_DRAW, pm, pos.forget_buried(pm, live, new_q, r), new_q, r))
        elif live and r:
            successors.append((_REDEAL, pm, live, pos.next_live(live, 0), r if r == UNLIMITED else r - 1))
        return successors

    @staticmethod
    def _key(pm: int, live: int, q: int, r: int) -> int:
        return pm | (live << _LIVE_SHIFT) | (q << _Q_SHIFT) | (r << _R_SHIFT)

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


def _last_pass_applies(pos: _Position) -> bool:
    """Does the verdict search ask :class:`_LastPass`? With one-card draws, from a position in the last pass.

    From an earlier pass the depth-first search meets thousands of different
    last passes (one per set of cards left for it); measured on the first 300
    reference deals, asking there cost 5–35% more time on most presets with
    one or two redeals, so there the depth-first search goes on alone.
    """
    return pos.draw_count == 1 and pos.start_r == 0


def _two_passes_apply(pos: _Position) -> bool:
    """Does the verdict search ask :class:`_TwoPasses`? With one-card draws, from a position with one redeal left."""
    return pos.draw_count == 1 and pos.start_r == 1


def _verdict(pos: _Position, budget: _Budget, memory: _Memory) -> tuple[bool, _VerdictSearch]:
    """The verdict, and the search that gave it (its line, proven losses and relaxation serve A*).

    Where the last-pass or the two-pass search applies, the plain depth-first
    search has :data:`_PROBE_NODES` (:data:`_TWO_PASSES_PROBE_NODES`) nodes
    first; a position it does not settle is searched again with them (and
    with what the probe proved).
    """
    if _last_pass_applies(pos) or _two_passes_apply(pos):
        probe_nodes = _TWO_PASSES_PROBE_NODES if _two_passes_apply(pos) else _PROBE_NODES
        share = budget.share(probe_nodes)
        memory.attach(share)
        probe = _VerdictSearch(pos, share, memory, last_pass=False)
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
    if _two_passes_apply(pos):
        return _two_passes_verdict(pos, budget, memory)
    search = _VerdictSearch(pos, budget, memory)
    return search.run(), search


def _two_passes_verdict(pos: _Position, budget: _Budget, memory: _Memory) -> tuple[bool, _VerdictSearch]:
    """:func:`_verdict` by :class:`_TwoPasses`, and a winning line: its first pass to the redeal it
    found, and the second by the depth-first search."""
    search = _VerdictSearch(pos, budget, memory)
    start_q = pos.next_live(pos.start_live, pos.start_q)
    oracle = memory.two_passes()
    redeal = oracle.winning_redeal(pos.start_pm, pos.start_live, start_q)
    if redeal is None:
        return False, search
    # The line: one that never redeals, or the first pass to the redeal found and a second pass.
    if redeal == _CLEARED_BEFORE_REDEAL:
        won = search.search(pos.start_pm, pos.start_live, start_q, 0)
    else:
        search.path = oracle.first_pass_line(pos.start_pm, pos.start_live, start_q, redeal) + [_REDEAL]
        won = search.search(redeal.pm, redeal.live, pos.next_live(redeal.live, 0), 0)
    assert won, "the two-pass search found a win, the depth-first search must find its line"
    return True, search


def solve(
    board: Board,
    *,
    optimal: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Solution:
    """Solve ``board`` from its current position under its own rules.

    ``optimal`` asks for a shortest solution (verdict first: a lost position
    costs no more than in verdict mode). ``max_nodes`` / ``max_seconds`` bound
    the effort; when either runs out the verdict is ``"unknown"``.
    """
    pos = _Position(board)
    return _solve(board, pos, _Memory(pos), optimal, _Budget(max_nodes, max_seconds))


class DealSolver:
    """The solver of one deal's positions, keeping what it proved from one question to the next.

    A console asks about the positions of one game again and again: at every
    hint, and at the end. What a search proves (positions lost, relaxed games
    decided, excursions, second passes lost) is about positions of the deal,
    not about the question asked, so it holds for every later position, off
    the line found too, and even when the search that proved it ran out of
    time: the next question goes on from there instead of starting again.
    Answers are those of :func:`solve` (the same verdicts; a winning line may
    differ, as any line found first may).
    """

    def __init__(self, board: Board) -> None:
        """The solver of ``board``'s position and of every position play reaches from it (for a
        game, the deal's start)."""
        self.rules = board.rules
        self._start = board.copy()
        self._pos = _Position(board)
        self._memory = _Memory(self._pos)
        self._redeals = self._pos.start_r

    def solve(self, board: Board, *, optimal: bool = False, max_nodes: int | None = None,
              max_seconds: float | None = None) -> Solution:
        """:func:`solve` for ``board``, a position reached by play from this solver's first one."""
        self._check_reached(board)
        if self._memory.entries() > _KEPT_ENTRIES:  # a long game of hard questions: start again
            self._pos = _Position(self._start)
            self._memory = _Memory(self._pos)
        self._pos.aim(board)
        return _solve(board, self._pos, self._memory, optimal, _Budget(max_nodes, max_seconds))

    def _check_reached(self, board: Board) -> None:
        """Raise :class:`OtherDealError` unless play could lead to ``board``: the same rules, each
        pyramid card in its place, the stock and waste cards in their drawing order, no redeal back."""
        pos = self._pos
        places = [pos.bit_of[index] for index, card in enumerate(board.pyramid) if card is not None]
        order = [pos.index_of.get(card, -1) for card in (*board.waste, *board.stock)]
        redeals = UNLIMITED if board.redeals_left is None else board.redeals_left
        if (board.rules != self.rules
                or any(pos.pyramid_card.get(bit) != card for bit, card in zip(places, filter(None, board.pyramid)))
                or -1 in order or order != sorted(order) or redeals > self._redeals):
            raise OtherDealError(f"play cannot reach this position from the solver's own: {board.fen()!r}")


def _solve(board: Board, pos: _Position, memory: _Memory, optimal: bool, budget: _Budget) -> Solution:
    """:func:`solve` for ``board``, compiled as ``pos`` (aimed at it), with what ``memory`` holds."""
    started = time.perf_counter()

    def answer(verdict: Verdict, moves: list[Move]) -> Solution:
        return Solution(verdict, moves, optimal, budget.nodes, time.perf_counter() - started)

    status = board.status()
    if status == "cleared":
        return answer("win", [])
    if status == "no_moves":
        return answer("lose", [])
    try:
        won, search = _verdict(pos, budget, memory)
        if not won:
            return answer("lose", [])
        tokens = search.path
        if optimal:
            shortest = _ShortestSearch(pos, budget, search.lost, search.relaxation).run()
            assert shortest is not None, "the verdict search found a line, A* must too"
            tokens = shortest
    except BudgetExceeded:
        return answer("unknown", [])
    finally:
        memory.attach(_Budget(None, None))  # no helper counts on a finished question's budget
    return answer("win", [pos.move_of(token) for token in tokens])
