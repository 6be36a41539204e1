"""A position in the solver's compact encoding, and what it knows of its deal.

The pyramid is a bitmask of 8 bits a row, stock and waste one sequence in drawing
order with a mask of the cards still there, ``q`` where the waste ends and ``r``
the redeals left: ``(pm, live, q, r)`` is the whole position. :class:`Position`
compiles a board into it once and answers the questions every search asks (the
moves, the forced ones, the hopeless positions, the loss-table keys). docs/solver.md
maps the searches that use it.
"""

from __future__ import annotations

from typing import NamedTuple

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import Card
from pyramid.engine.tableau import Places, pyramid_geometry


#: Bits per pyramid row in the compact encoding (see the module docstring).
ROW_STRIDE = 8
#: Redeals-left code for "unlimited"; it never decreases.
UNLIMITED = 63
PYRAMID_BITS = 7 * ROW_STRIDE
LIVE_SHIFT = PYRAMID_BITS
Q_SHIFT = LIVE_SHIFT + 32
R_SHIFT = Q_SHIFT + 6
#: In loss-table keys: where the waste size and the rank sequence start.
WASTE_SHIFT = PYRAMID_BITS
SEQUENCE_SHIFT = WASTE_SHIFT + 8
#: Where the waste starts in the keys of :class:`Relaxation` (after 12 counts).
RELAXED_WASTE_SHIFT = PYRAMID_BITS + 60
#: Bit 3 of each four-bit rank count of :class:`Relaxation`: with them set,
#: ``((a | guards) - b) & guards == guards`` says that no count of ``b`` exceeds ``a``'s.
COUNT_GUARDS = sum(8 << (4 * rank) for rank in range(15))
#: The waste size in the loss table when it does not matter (see ``lost_key``).
ANY_WASTE = 255
#: The waste size in the loss table of a place on the draw/redeal cycle (see ``lost_key``).
ON_CYCLE = 253
#: Marks loss-table keys made of rank counts instead of a rank sequence.
COUNTS_KEY = 1 << 255
#: Path tokens for the two moves that are not removals.
DRAW = -1
REDEAL = -2
#: Card ids above this are stock/waste indices (``STOCK_ID + j``).
STOCK_ID = 64

def set_bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class PassCards(NamedTuple):
    """The stock and waste of a position, for the searches by excursions."""

    #: Stock cards (sequence indices), top first.
    stock: list[int]
    #: Waste cards, top first.
    waste: list[int]
    #: The stock's ranks, four bits each, its top lowest (as :meth:`LastPass.excursion` reads a stock).
    ranks: int


class Position:
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
        self.rank = [0] * PYRAMID_BITS
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
        self.covering = [0] * PYRAMID_BITS
        for index in range(n):
            self.covering[bit_of[index]] = below[index]
        self.pyramid_partners = [0] * PYRAMID_BITS
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
            self.pyramid_partners[bit] = self.rank_mask[need] & ~cone
        self.stock_needs = [0] * self.m
        for j, rank in enumerate(self.stock_rank):
            if rank < self.target:
                self.stock_needs[j] = self.target - rank

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
            for j in set_bits(live):
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

    def pass_cards(self, live: int, q: int) -> "PassCards":
        """The stock and the waste of a position, as the searches by excursions walk them."""
        stock = set_bits(live >> q << q)
        return PassCards(stock, set_bits(live & ((1 << q) - 1))[::-1], ranks_in_stock(self.stock_rank, stock))

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
            matched = max_matching(lows, highs, partners) if low_count and high_count else 0
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

        Otherwise, with unlimited redeals, the places a pass's draws stop at (waste sizes 0,
        ``draw_count``, twice that, …, and the whole pass) lead to each other by drawing and
        redealing alone: one position, one key. A waste of another size (a removal from the waste
        changed it) reaches the cycle and cannot come back: a key of its own.
        """
        if r != UNLIMITED or self.draw_count != 1 or not self.waste_playable:
            if r == UNLIMITED:
                waste = (live & ((1 << q) - 1)).bit_count()
                if waste % self.draw_count == 0 or waste == live.bit_count():
                    return pm | (ON_CYCLE << WASTE_SHIFT) | (self.rank_sequence(live) << SEQUENCE_SHIFT)
            return self.sequence_key(pm, live, q)
        if self.goal_all:
            return pm | (ANY_WASTE << WASTE_SHIFT) | (self.rank_sequence(live) << SEQUENCE_SHIFT)
        counts = 0
        for rank in range(1, self.target + 1):
            counts |= (self.stock_rank_mask[rank] & live).bit_count() << (3 * rank)
        return pm | (counts << LIVE_SHIFT) | COUNTS_KEY

    def sequence_key(self, pm: int, live: int, q: int) -> int:
        """The pyramid, the waste size and the ranks of the live cards in drawing order: a position
        without its suits (and without its redeals)."""
        waste = (live & ((1 << q) - 1)).bit_count()
        return pm | (waste << WASTE_SHIFT) | (self.rank_sequence(live) << SEQUENCE_SHIFT)

    def rank_sequence(self, live: int) -> int:
        """The ranks of the live cards, four bits each, the last to be drawn lowest (cached).

        For a waste, the lowest four bits are its top.
        """
        sequence = self.sequence_cache.get(live)
        if sequence is None:
            sequence = 0
            for j in set_bits(live):
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
            for bit in set_bits(uncovered):
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
            for bit in set_bits(uncovered & self.rank_mask[target - open_rank]):
                if not partners[bit] & pm & ~(1 << bit):
                    return (bit, STOCK_ID + j)
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
        """``set_bits(uncovered)`` for the uncovered cards of ``pm``, cached per pyramid."""
        bits = self.uncovered_cache.get(pm)
        if bits is None:
            bits = self.uncovered_cache[pm] = set_bits(uncovered)
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
        for bit in set_bits(uncovered):
            need = target - rank[bit]
            if need <= 0:
                continue
            for other in set_bits(uncovered & rank_mask[need] & ~((2 << bit) - 1)):
                removals.append((bit, other))
        if self.overlap:
            for bit in set_bits(pm & ~uncovered):
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
            removals.append((STOCK_ID + stock,))
        if waste >= 0 and stock_rank[waste] == target:
            removals.append((STOCK_ID + waste,))
        for j in (stock, waste):
            if j >= 0 and stock_rank[j] < target:
                partners = uncovered & rank_mask[target - stock_rank[j]]
                while partners:
                    low = partners & -partners
                    removals.append((low.bit_length() - 1, STOCK_ID + j))
                    partners ^= low
        if stock >= 0 and waste >= 0 and stock_rank[stock] + stock_rank[waste] == target:
            removals.append((STOCK_ID + stock, STOCK_ID + waste))
        return removals

    def apply_removal(self, pm: int, live: int, q: int, r: int, removal: tuple[int, ...]) -> tuple[int, int, int]:
        for card_id in removal:
            if card_id >= STOCK_ID:
                live &= ~(1 << (card_id - STOCK_ID))
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
        if token == DRAW:
            return Move.draw()
        if token == REDEAL:
            return Move.redeal()
        assert isinstance(token, tuple)
        cards = [
            self.sequence[card_id - STOCK_ID] if card_id >= STOCK_ID else self.pyramid_card[card_id]
            for card_id in token
        ]
        return Move.remove(*cards)


def max_matching(lows: int, highs: int, partners: list[int]) -> int:
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


def uncovered_mask(pm: int) -> int:
    return pm & ~((pm >> ROW_STRIDE) | (pm >> (ROW_STRIDE + 1)))


def ranks_in_stock(rank: list[int], cards: list[int]) -> int:
    """The ranks of ``cards`` four bits each, the first lowest: a stock as :class:`LastPass` reads it."""
    ranks = 0
    for place, card in enumerate(cards):
        ranks |= rank[card] << (4 * place)
    return ranks


def holds_rank(stock: int, rank: int) -> bool:
    """Does a rank sequence (four bits a card) hold a card of ``rank``?"""
    while stock:
        if stock & 15 == rank:
            return True
        stock >>= 4
    return False
