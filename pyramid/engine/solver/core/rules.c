/* The rules on the compact encoding (Position in position.py): moves, forced moves, hopeless positions, loss-table keys. */
#include "core.h"

/* Position.next_live */
int next_live(const deal_t *d, uint64_t live, int q) {
    uint64_t rest = q >= 64 ? 0 : live >> q;
    return rest ? q + bit_index(rest) : d->m;
}

/* Position.after_draw */
int after_draw(const deal_t *d, uint64_t live, int q) {
    for (int i = 0; i < d->draw_count - 1; i++) {
        q = next_live(d, live, q + 1);
        if (q >= d->m) return d->m;
    }
    return next_live(d, live, q + 1);
}

/* max_matching in position.py, by augmenting paths. */
static int augment(const deal_t *d, int low, uint64_t highs, uint64_t *seen, int owner[PYRAMID_BITS]) {
    uint64_t options = d->pyramid_partners[low] & highs & ~*seen;
    while (options) {
        uint64_t high = low_bit(options);
        int h = bit_index(high);
        *seen |= high;
        if (owner[h] < 0 || augment(d, owner[h], highs, seen, owner)) {
            owner[h] = low;
            return 1;
        }
        options ^= high;
    }
    return 0;
}

int max_matching(const deal_t *d, uint64_t lows, uint64_t highs) {
    int owner[PYRAMID_BITS];
    for (int i = 0; i < PYRAMID_BITS; i++) owner[i] = -1;
    int matched = 0;
    while (lows) {
        uint64_t bit = low_bit(lows);
        lows ^= bit;
        uint64_t seen = 0;
        if (augment(d, bit_index(bit), highs, &seen, owner)) matched++;
    }
    return matched;
}

/* Position.pyramid_facts, but the useless cards: the removals the pyramid still needs (returned)
 * and how many stock cards of each rank it needs at least. */
int pyramid_needs(const core_t *core, uint64_t pm, int needs[MAX_RANK + 1]) {
    const deal_t *d = &core->deal;
    memset(needs, 0, sizeof(int) * (MAX_RANK + 1));
    int removals = popcount(d->rank_mask[d->target] & pm);
    for (int p = 0; p < core->rank_pair_count; p++) {
        int low = core->rank_pairs[p][0], high = core->rank_pairs[p][1];
        uint64_t lows = d->rank_mask[low] & pm, highs = d->rank_mask[high] & pm;
        int low_count = popcount(lows), high_count = popcount(highs);
        if (low == high) {
            int matched = low_count / 2;
            removals += low_count - matched;
            if (low_count > 2 * matched) needs[low] += low_count - 2 * matched;
            continue;
        }
        int matched = low_count && high_count ? max_matching(d, lows, highs) : 0;
        removals += low_count + high_count - matched;
        if (low_count > matched) needs[high] += low_count - matched;
        if (high_count > matched) needs[low] += high_count - matched;
    }
    return removals;
}

/* Position.needs_more, with the pyramid's needs kept by pyramid (a direct-mapped cache: the verdict
   search asks it at every state, of pyramids met again and again; the matchings were 10% of King
   Tut's search, perf, issue 51). Four bits a rank: a deck has four cards of a rank. */
int needs_more(core_t *core, uint64_t pm, uint64_t live) {
    size_t slot = (size_t)(mix(pm) & (PYRAMID_SLOTS - 1));
    if (core->needs_pm[slot] != pm) {
        int needs[MAX_RANK + 1];
        pyramid_needs(core, pm, needs);
        uint64_t packed = 0;
        for (int rank = 1; rank <= core->deal.target; rank++)
            packed |= (uint64_t)(needs[rank] < 15 ? needs[rank] : 15) << (4 * rank);  /* 15: at least that many */
        core->needs_pm[slot] = pm;
        core->needs_of[slot] = packed;
    }
    uint64_t packed = core->needs_of[slot];
    for (int rank = 1; packed >> (4 * rank); rank++) {
        int need = (int)(packed >> (4 * rank) & 15);
        if (need && popcount(core->deal.stock_rank_mask[rank] & live) < need) return 1;
    }
    return 0;
}

/* Position.is_lost */
int is_lost(core_t *core, uint64_t pm, uint64_t live) {
    const deal_t *d = &core->deal;
    if (needs_more(core, pm, live)) return 1;
    if (d->goal_all) {
        for (uint64_t rest = live; rest; rest &= rest - 1) {
            int j = bit_index(rest);
            int rank = d->stock_rank[j];
            if (rank >= d->target) continue;
            int need = d->target - rank;
            if (!((d->rank_mask[need] & pm) || (d->stock_rank_mask[need] & live & ~(1ULL << j)))) return 1;
        }
    }
    return 0;
}

/* Position.waste_stranded */
int waste_stranded(const deal_t *d, uint64_t pm, uint64_t live, int q) {
    uint64_t waste = live & below(q), stock = live & ~below(q);
    if (!waste) return 0;
    for (int rank = 1; rank < d->target; rank++) {
        if (d->stock_rank_mask[rank] & waste) {
            int need = d->target - rank;
            if (!((d->rank_mask[need] & pm) || (d->stock_rank_mask[need] & stock))) return 1;
        }
    }
    return 0;
}

/* Position.rank_sequence: the last card to be drawn lowest. */
u128 rank_sequence(const deal_t *d, uint64_t live) {
    u128 sequence = 0;
    for (uint64_t rest = live; rest; rest &= rest - 1) sequence = (sequence << 4) | d->stock_rank[bit_index(rest)];
    return sequence;
}

/* The live cards' ranks in drawing order (rank_sequence), as the earliest stock places that hold
   that sequence of ranks: live sets that differ only by suits give the same places, and one word
   holds them where the sequence took two. */
uint64_t rank_places(const deal_t *d, uint64_t live) {
    uint64_t places = 0, from = ~0ULL;
    for (uint64_t rest = live; rest; rest &= rest - 1) {
        uint64_t holders = d->stock_rank_mask[d->stock_rank[bit_index(rest)]] & from;
        uint64_t earliest = holders & -holders;  /* never 0: the card's own place is one of them */
        places |= earliest;
        from = ~((earliest << 1) - 1);
    }
    return places;
}

/* The second word of Position.lost_key (see lost_key): the live cards' ranks in drawing order as
   rank_places or, where the order does not matter, their counts, three bits a rank. A walk's draws
   leave the live cards as they are, so it reads this once for many keys. */
uint64_t lost_ranks(const deal_t *d, uint64_t live, int r) {
    if (!waste_top_free(d, r) || d->goal_all) return rank_places(d, live);
    uint64_t ranks = 0;
    for (int rank = 1; rank <= d->target; rank++)
        ranks |= (uint64_t)popcount(d->stock_rank_mask[rank] & live) << (3 * rank);
    return ranks;
}

/* Position.lost_key, as two words: the pyramid and the waste's size (or a mark), then `ranks`,
   lost_ranks(d, live, r). */
void lost_key_ranked(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t ranks, uint64_t key[2]) {
    uint64_t size;
    if (waste_top_free(d, r)) size = d->goal_all ? ANY_WASTE : COUNTS_MARK;
    else {
        int waste = popcount(live & below(q));
        size = r == UNLIMITED && (waste % d->draw_count == 0 || waste == popcount(live)) ? CYCLE_MARK
                                                                                          : (uint64_t)waste;
    }
    key[0] = pm | (size << PYRAMID_BITS);
    key[1] = ranks;
}

void lost_key(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t key[2]) {
    lost_key_ranked(d, pm, live, q, r, lost_ranks(d, live, r), key);
}

/* Position.stuck_in_waste */
static uint64_t stuck_in_waste(const deal_t *d, uint64_t pm, uint64_t live, int q) {
    uint64_t stuck = 0, stock = live & ~below(q);
    for (int rank = 1; rank < d->target; rank++) {
        if (d->rank_mask[d->target - rank] & pm) continue;
        if (!(d->stock_top_playable && (d->stock_rank_mask[d->target - rank] & stock))) stuck |= d->stock_rank_mask[rank];
    }
    return stuck;
}

/* Position.forget_buried */
uint64_t forget_buried(const deal_t *d, uint64_t pm, uint64_t live, int q, int r) {
    if (r || d->goal_all) return live;
    uint64_t waste = live & below(q);
    if (!waste) return live;
    uint64_t stuck = stuck_in_waste(d, pm, live, q) & waste;
    if (!stuck) return live;
    int top = 63 - __builtin_clzll(stuck);
    return live & ~below(top + 1);
}

/* Position.forced_removal */
int forced_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, removal_t *out) {
    uint64_t kings = uncovered & d->rank_mask[d->target];
    if (kings) {
        out->a = (uint8_t)bit_index(kings);
        out->b = NO_CARD;
        return 1;
    }
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        uint64_t options = d->pyramid_partners[bit] & pm & ~(1ULL << bit);
        if ((options & uncovered) && !(options & (options - 1))) {
            int need = d->target - d->rank[bit];
            if (need && (d->stock_rank_mask[need] & live)) continue;
            int other = bit_index(options);
            out->a = (uint8_t)(bit < other ? bit : other);
            out->b = (uint8_t)(bit < other ? other : bit);
            return 1;
        }
    }
    return 0;
}

/* Position.pyramid_removals; at most 21 pairs and 21 overlap pairs. */
int pyramid_removals(const deal_t *d, uint64_t pm, uint64_t uncovered, removal_t out[64]) {
    int count = 0;
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        int need = d->target - d->rank[bit];
        if (need <= 0) continue;
        uint64_t above = bit >= 62 ? 0 : ~((2ULL << bit) - 1);
        for (uint64_t others = uncovered & d->rank_mask[need] & above; others; others &= others - 1) {
            out[count].a = (uint8_t)bit;
            out[count].b = (uint8_t)bit_index(others);
            count++;
        }
    }
    if (d->overlap) {
        for (uint64_t rest = pm & ~uncovered; rest; rest &= rest - 1) {
            int bit = bit_index(rest);
            uint64_t present = pm & (3ULL << (bit + ROW_STRIDE));
            if (!(present & (present - 1)) && (present & uncovered)) {
                int other = 63 - __builtin_clzll(present);
                if (d->rank[bit] + d->rank[other] == d->target) {
                    out[count].a = (uint8_t)bit;
                    out[count].b = (uint8_t)other;
                    count++;
                }
            }
        }
    }
    return count;
}

/* Position.open_cards: the places of the playable stock top (open[0]) and waste top (open[1]), -1
   where there is none. */
void open_cards(const deal_t *d, uint64_t live, int q, int open[2]) {
    uint64_t waste = d->waste_playable ? live & below(q) : 0;
    open[0] = d->stock_top_playable && q < d->m ? q : -1;
    open[1] = waste ? 63 - __builtin_clzll(waste) : -1;
}

/* Position.open_removals: open kings first. At most 2 kings, 2 * 4 pairs with the pyramid, 1 pair. */
int open_removals(const deal_t *d, uint64_t uncovered, uint64_t live, int q, removal_t out[16]) {
    int count = 0, t = d->target, open[2];
    open_cards(d, live, q, open);
    int stock = open[0], waste = open[1];
    if (stock >= 0 && d->stock_rank[stock] == t) { out[count].a = (uint8_t)(STOCK_ID + stock); out[count++].b = NO_CARD; }
    if (waste >= 0 && d->stock_rank[waste] == t) { out[count].a = (uint8_t)(STOCK_ID + waste); out[count++].b = NO_CARD; }
    for (int i = 0; i < 2; i++) {
        int j = open[i];
        if (j < 0 || d->stock_rank[j] >= t) continue;
        for (uint64_t partners = uncovered & d->rank_mask[t - d->stock_rank[j]]; partners; partners &= partners - 1) {
            out[count].a = (uint8_t)bit_index(partners);
            out[count++].b = (uint8_t)(STOCK_ID + j);
        }
    }
    if (stock >= 0 && waste >= 0 && d->stock_rank[stock] + d->stock_rank[waste] == t) {
        out[count].a = (uint8_t)(STOCK_ID + stock);
        out[count++].b = (uint8_t)(STOCK_ID + waste);
    }
    return count;
}

/* Position.open_removal_possible */
int open_removal_possible(const deal_t *d, uint64_t uncovered, uint64_t live, int q) {
    if (!d->stock_top_playable) {
        uint64_t w = live & below(q);
        if (!w || !d->waste_playable) return 0;
        int rank = d->stock_rank[63 - __builtin_clzll(w)];
        return rank == d->target || (uncovered & d->rank_mask[d->target - rank]) != 0;
    }
    removal_t removals[16];
    return open_removals(d, uncovered, live, q, removals) > 0;
}

/* Position.forced_open_removal */
int forced_open_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, int q, removal_t *out) {
    int open[2];
    open_cards(d, live, q, open);
    for (int i = 0; i < 2; i++) {
        int j = open[i];
        if (j < 0) continue;
        int rank = d->stock_rank[j];
        if (rank >= d->target || (d->stock_rank_mask[rank] & live) != 1ULL << j) continue;
        for (uint64_t rest = uncovered & d->rank_mask[d->target - rank]; rest; rest &= rest - 1) {
            int bit = bit_index(rest);
            if (!(d->pyramid_partners[bit] & pm & ~(1ULL << bit))) {
                out->a = (uint8_t)bit;
                out->b = (uint8_t)(STOCK_ID + j);
                return 1;
            }
        }
    }
    return 0;
}

/* Position.pass_cards */
void pass_cards(const deal_t *d, uint64_t live, int q, pass_cards_t *cards) {
    cards->length = cards->waste_size = 0;
    for (uint64_t rest = live & ~below(q); rest; rest &= rest - 1) cards->stock[cards->length++] = bit_index(rest);
    for (uint64_t rest = live & below(q); rest; rest &= rest - 1) cards->waste[cards->waste_size++] = bit_index(rest);
    for (int i = 0; i < cards->waste_size / 2; i++) {  /* top first */
        int swap = cards->waste[i];
        cards->waste[i] = cards->waste[cards->waste_size - 1 - i];
        cards->waste[cards->waste_size - 1 - i] = swap;
    }
    cards->ranks = 0;
    for (int place = cards->length - 1; place >= 0; place--) cards->ranks = (cards->ranks << 4) | d->stock_rank[cards->stock[place]];
}

/* Position.apply_removal */
state_t apply_removal(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, removal_t removal) {
    uint8_t ids[2] = {removal.a, removal.b};
    for (int i = 0; i < 2; i++) {
        if (ids[i] == NO_CARD) continue;
        if (ids[i] >= STOCK_ID) live &= ~(1ULL << (ids[i] - STOCK_ID));
        else pm &= ~(1ULL << ids[i]);
    }
    state_t after;
    after.q = next_live(d, live, q);
    after.pm = pm;
    after.live = forget_buried(d, pm, live, after.q, r);
    return after;
}
