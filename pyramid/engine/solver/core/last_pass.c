/* The last pass by waste excursions (LastPass in last_pass.py). */
#include "core.h"

/* position.holds_rank */
static int holds_rank(u128 stock, int rank) {
    for (; stock; stock >>= 4)
        if ((int)(stock & 15) == rank) return 1;
    return 0;
}

/* LastPass._short, kept in a direct-mapped cache (a second pass asks it of some thousand pyramids
   a hundred thousand times). */
static int short_of(const core_t *core, uint64_t pm);

int is_short(core_t *core, uint64_t pm) {
    size_t slot = (size_t)(mix(pm) & (PYRAMID_SLOTS - 1));
    if (core->short_pm[slot] != pm) {
        core->short_pm[slot] = pm;
        core->short_answer[slot] = (uint8_t)short_of(core, pm);
    }
    return core->short_answer[slot];
}

static int short_of(const core_t *core, uint64_t pm) {
    const deal_t *d = &core->deal;
    int lonely[MAX_RANK + 1] = {0};
    for (uint64_t rest = pm & ~d->rank_mask[d->target]; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        if (d->pyramid_partners[bit] & pm & ~(1ULL << bit)) continue;
        int need = d->target - d->rank[bit];
        if (++lonely[need] > core->supply[need]) return 1;
    }
    return 0;
}

/* LastPass._partners_buried */
static int partners_buried(const deal_t *d, uint64_t pm, int need, u128 stock) {
    unsigned held = 0;
    for (u128 rest = stock; rest; rest >>= 4) held |= 1u << (int)(rest & 15);
    uint64_t stuck = 0;
    for (uint64_t rest = pm & ~d->rank_mask[d->target]; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        if (d->pyramid_partners[bit] & pm & ~(1ULL << bit)) continue;
        if (!(held >> (d->target - d->rank[bit]) & 1)) stuck |= 1ULL << bit;
    }
    if (!stuck) return 0;
    for (uint64_t partners = pm & d->rank_mask[need]; partners; partners &= partners - 1)
        if (!(d->covering[bit_index(partners)] & stuck)) return 0;
    return 1;
}

static int push_outcome(core_t *core, uint64_t outcome) {
    if (!reserve(core, (void **)&core->scratch, &core->scratch_capacity, core->scratch_count, sizeof(uint64_t)))
        return 0;
    core->scratch[core->scratch_count++] = outcome;
    return 1;
}

/* Append the outcomes at `index`, each plus `shift`, to the scratch region being filled. */
static int push_outcomes(core_t *core, int64_t index, uint64_t shift) {
    uint64_t count = core->outcomes[index];
    for (uint64_t i = 0; i < count; i++)
        if (!push_outcome(core, core->outcomes[index + 1 + i] + shift)) return 0;
    return 1;
}

DEFINE_SORT(sort_outcomes, uint64_t)

/* Keep the scratch region from `start` (without repeats) as the outcomes of `key`; its index. */
static int64_t keep_outcomes(core_t *core, const uint64_t key[3], size_t start) {
    uint64_t *region = core->scratch + start;
    size_t n = core->scratch_count - start, kept = 0;
    sort_outcomes(region, n);
    for (size_t i = 0; i < n; i++)
        if (!kept || region[kept - 1] != region[i]) region[kept++] = region[i];
    core->scratch_count = start;
    size_t index = core->outcome_count;
    if (kept) {
        size_t needed = index + kept + 1;
        if (!reserve(core, (void **)&core->outcomes, &core->outcome_capacity, needed - 1, sizeof(uint64_t)))
            return CORE_FULL;
        region = core->scratch + start;
        core->outcomes[index] = kept;
        memcpy(core->outcomes + index + 1, region, kept * sizeof(uint64_t));
        core->outcome_count = needed;
    } else {
        index = 0;  /* the empty list every core starts with */
    }
    if (index > INT32_MAX || !table_put(core, &core->excursions, key, (int32_t)index)) {
        core->full = 1;
        return CORE_FULL;
    }
    return (int64_t)index;
}


/* The outcomes of an excursion, shifted by `shift`, appended to the region being filled: 0, or < 0 to stop. */
static int follow(core_t *core, uint64_t pm, int card, u128 stock, uint64_t shift, int reduced) {
    int64_t found = excursion(core, pm, card, stock, reduced);
    if (found < 0) return (int)found;
    return push_outcomes(core, found, shift) ? 0 : CORE_FULL;
}

/* LastPass.excursion: draw a card of rank `card` (not a king) onto the waste, play on above it,
 * and remove it; the index of its outcomes (pyramid | consumed << 56), or < 0 to stop. */
int64_t excursion(core_t *core, uint64_t pm, int card, u128 stock, int reduced) {
    const deal_t *d = &core->deal;
    uint64_t key[3] = {pm | (uint64_t)card << CONSUMED_SHIFT | (uint64_t)reduced << 63, (uint64_t)stock,
                       (uint64_t)(stock >> 64)};
    int known = table_get(&core->excursions, key);
    if (known >= 0) return known;
    int64_t frees = 0;
    if (reduced) {
        frees = freeing(core, pm);
        if (frees < 0) return frees;
        if (FREE_CLEARS(core->frees[frees]) && !d->goal_all) return CORE_CLEARED;
    } else if (!pm && !d->goal_all) {
        return CORE_CLEARED;
    }
    int target = d->target, need = target - card, stock_top_playable = d->stock_top_playable;
    size_t start = core->scratch_count;
    uint64_t partners_mask = d->rank_mask[need];
    if ((!(pm & partners_mask) && !(stock_top_playable && holds_rank(stock, need))) || is_short(core, pm)
        || (!stock_top_playable && partners_buried(d, pm, need, stock)))
        return keep_outcomes(core, key, start);  /* the card can never leave, or short of a rank for good */
    int over = tick(core);
    if (over) return over;
    uint64_t uncovered = uncovered_mask(pm);
    if (reduced) {  /* freeing.c: only the removals inside the pyramid that free the card's partner */
        uint64_t at = 0;
        for (int64_t after; (after = next_freed(core, frees, &at, need)) >= 0;)
            if (!push_outcome(core, (uint64_t)after)) return CORE_FULL;
    } else {
        for (uint64_t partners = uncovered & partners_mask; partners; partners &= partners - 1)
            if (!push_outcome(core, pm ^ low_bit(partners))) return CORE_FULL;
        uint64_t kings = uncovered & d->rank_mask[target];
        if (kings) {
            int stop = follow(core, pm & ~low_bit(kings), card, stock, 0, 0);
            if (stop) return stop;
        } else {
            removal_t removals[64];
            int n = pyramid_removals(d, pm, uncovered, removals);
            for (int i = 0; i < n; i++) {
                int stop = follow(core, pm & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), card, stock, 0, 0);
                if (stop) return stop;
            }
        }
    }
    int top = (int)(stock & 15);
    if (top) {
        u128 rest = stock >> 4;
        uint64_t one = 1ULL << CONSUMED_SHIFT;
        if (top == target) {  /* a king drawn (or on the stock top) leaves at once */
            int stop = follow(core, pm, card, rest, one, reduced);
            if (stop) return stop;
        } else {
            if (stock_top_playable) {
                if (top == need && !push_outcome(core, pm | one)) return CORE_FULL;
                if (reduced) {
                    uint64_t at = 0;
                    for (int64_t after; (after = next_freed(core, frees, &at, target - top)) >= 0;) {
                        int stop = follow(core, (uint64_t)after, card, rest, one, 1);
                        if (stop) return stop;
                    }
                } else {
                    for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1) {
                        int stop = follow(core, pm ^ low_bit(partners), card, rest, one, 0);
                        if (stop) return stop;
                    }
                }
            }
            int64_t nested = excursion(core, pm, top, rest, reduced);
            if (nested < 0) return nested;
            uint64_t count = core->outcomes[nested];
            for (uint64_t i = 0; i < count; i++) {
                uint64_t inner = core->outcomes[nested + 1 + i];  /* read again: the arena may move */
                uint64_t consumed = (inner >> CONSUMED_SHIFT) + 1;
                int stop = follow(core, inner & PYRAMID_MASK, card, stock >> (4 * consumed), consumed << CONSUMED_SHIFT,
                                  reduced);
                if (stop) return stop;
            }
        }
    }
    return keep_outcomes(core, key, start);
}

/* A state of LastPass._search: the pyramid, stock cards consumed, start-waste cards taken. */
typedef struct { uint64_t pm; int32_t consumed, taken; } pass_state_t;

typedef struct {
    pass_state_t *items;
    size_t count, capacity;
} pass_stack_t;

/* Loss-table keys to record (LastPass._search's `recorded`). */
typedef struct {
    uint64_t (*items)[2];
    size_t count, capacity;
} key_list_t;

static int push_key(core_t *core, key_list_t *keys, const uint64_t key[2]) {
    if (!reserve(core, (void **)&keys->items, &keys->capacity, keys->count, sizeof(keys->items[0]))) return 0;
    memcpy(keys->items[keys->count++], key, sizeof(keys->items[0]));
    return 1;
}

static int push_state(core_t *core, pass_stack_t *stack, uint64_t pm, int consumed, int taken) {
    if (!reserve(core, (void **)&stack->items, &stack->capacity, stack->count, sizeof(pass_state_t))) return 0;
    pass_state_t *state = &stack->items[stack->count++];
    state->pm = pm;
    state->consumed = consumed;
    state->taken = taken;
    return 1;
}

/* LastPass._search once the stacks are made: 1 won, 0 lost (its positions then recorded lost), < 0 stop. */
/* What a pass search reads at every state: the pass's stock and waste, and the live cards and stock
   top of each state, by how many stock cards it consumed and how many waste cards it took. */
typedef struct {
    pass_cards_t cards;
    uint64_t stock_live[MAX_CARDS + 1], waste_live[MAX_CARDS + 1];
    int stock_q[MAX_CARDS + 1];
} pass_frame_t;

static void pass_frame(const deal_t *d, uint64_t live, int q, pass_frame_t *frame) {
    pass_cards(d, live, q, &frame->cards);
    int length = frame->cards.length, waste_size = frame->cards.waste_size;
    frame->stock_live[length] = 0;
    for (int place = length - 1; place >= 0; place--)
        frame->stock_live[place] = frame->stock_live[place + 1] | 1ULL << frame->cards.stock[place];
    frame->waste_live[waste_size] = 0;
    for (int taken = waste_size - 1; taken >= 0; taken--)
        frame->waste_live[taken] = frame->waste_live[taken + 1] | 1ULL << frame->cards.waste[taken];
    for (int place = 0; place < length; place++) frame->stock_q[place] = frame->cards.stock[place];
    frame->stock_q[length] = d->m;
}

/* A state put off for later: the excursion of its stock top, each outcome a state to search. */
static int follow_later(core_t *core, const pass_frame_t *frame, pass_stack_t *todo, pass_state_t state) {
    u128 rest = frame->cards.ranks >> (4 * state.consumed);
    int64_t found = excursion(core, state.pm, (int)(rest & 15), rest >> 4, 0);
    if (found < 0) return found == CORE_CLEARED ? CORE_WIN : (int)found;
    uint64_t count = core->outcomes[found];
    for (uint64_t i = 0; i < count; i++) {
        uint64_t outcome = core->outcomes[found + 1 + i];
        if (!push_state(core, todo, outcome & PYRAMID_MASK,
                        state.consumed + 1 + (int)(outcome >> CONSUMED_SHIFT), state.taken))
            return CORE_FULL;
    }
    return 0;
}

/* The moves of one state: a king, or the removals inside the pyramid; the waste top's; the stock
   top's, its burial and the excursion put off for later. 0, or CORE_FULL. */
static int push_moves(core_t *core, const pass_frame_t *frame, pass_stack_t *todo, pass_stack_t *later,
                      pass_state_t state) {
    const deal_t *d = &core->deal;
    int target = d->target, consumed = state.consumed, taken = state.taken;
    uint64_t here = state.pm, uncovered = uncovered_mask(here);
    uint64_t kings = uncovered & d->rank_mask[target];
    if (kings) {
        if (!push_state(core, todo, here & ~low_bit(kings), consumed, taken)) return CORE_FULL;
    } else {
        removal_t removals[64];
        int n = pyramid_removals(d, here, uncovered, removals);
        for (int i = 0; i < n; i++)
            if (!push_state(core, todo, here & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), consumed, taken))
                return CORE_FULL;
    }
    int top = (int)((frame->cards.ranks >> (4 * consumed)) & 15);
    if (taken < frame->cards.waste_size) {
        int card = d->stock_rank[frame->cards.waste[taken]];
        if (card == target)  /* an open king leaving dominates every other move */
            return push_state(core, todo, here, consumed, taken + 1) ? 0 : CORE_FULL;
        for (uint64_t partners = uncovered & d->rank_mask[target - card]; partners; partners &= partners - 1)
            if (!push_state(core, todo, here & ~low_bit(partners), consumed, taken + 1)) return CORE_FULL;
        if (d->stock_top_playable && top && top + card == target && !push_state(core, todo, here, consumed + 1, taken + 1))
            return CORE_FULL;
    }
    if (!top) return 0;
    if (top == target) return push_state(core, todo, here, consumed + 1, taken) ? 0 : CORE_FULL;
    if (d->stock_top_playable)
        for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1)
            if (!push_state(core, todo, here & ~low_bit(partners), consumed + 1, taken)) return CORE_FULL;
    /* a burial: the start's waste never plays again, as if all taken */
    if (!d->goal_all && !push_state(core, todo, here, consumed + 1, frame->cards.waste_size)) return CORE_FULL;
    return push_state(core, later, here, consumed, taken) ? 0 : CORE_FULL;
}

static int pass_search(core_t *core, uint64_t pm, uint64_t live, int q, table_t *seen, pass_stack_t *todo,
                       pass_stack_t *later, key_list_t *recorded) {
    const deal_t *d = &core->deal;
    pass_frame_t frame;
    pass_frame(d, live, q, &frame);
    int length = frame.cards.length, waste_size = frame.cards.waste_size;
    if (!push_state(core, todo, pm, 0, 0)) return CORE_FULL;
    while (todo->count || later->count) {
        if (!todo->count) {
            int failed = follow_later(core, &frame, todo, later->items[--later->count]);
            if (failed) return failed;
            continue;
        }
        pass_state_t state = todo->items[--todo->count];
        uint64_t seen_key[2] = {state.pm | (uint64_t)state.consumed << CONSUMED_SHIFT, (uint64_t)state.taken};
        if (table_get(seen, seen_key) >= 0) continue;
        if (!table_put(core, seen, seen_key, 1)) return CORE_FULL;
        int over = tick(core);
        if (over) return over;
        uint64_t here = state.pm;
        if (!here && (!d->goal_all || (state.consumed == length && state.taken == waste_size))) return CORE_WIN;
        uint64_t state_live = frame.stock_live[state.consumed] | frame.waste_live[state.taken];
        int state_q = frame.stock_q[state.consumed];
        uint64_t key[2];
        lost_key(d, here, forget_buried(d, here, state_live, state_q, 0), state_q, 0, key);
        if (table_get(&core->lost, key) >= 0 || is_lost(core, here, state_live)) continue;
        int won = relaxed_can_win(core, here, state_live, state_q, 0);
        if (won < 0) return won;
        if (!won) continue;
        if (!push_key(core, recorded, key)) return CORE_FULL;  /* recorded lost if the pass is lost */
        int failed = push_moves(core, &frame, todo, later, state);
        if (failed) return failed;
    }
    for (size_t i = 0; i < recorded->count; i++)
        if (!table_put(core, &core->lost, recorded->items[i], 0)) return CORE_FULL;
    return CORE_LOSE;
}

/* LastPass.can_win: can the position (last pass, one-card draws) still be won? */
int last_pass_can_win(core_t *core, uint64_t pm, uint64_t live, int q) {
    table_t seen;
    pass_stack_t todo = {0}, later = {0};
    key_list_t recorded = {0};
    if (!table_init(core, &seen, 2)) { core->full = 1; return CORE_FULL; }
    size_t scratch = core->scratch_count;
    int won = pass_search(core, pm, live, q, &seen, &todo, &later, &recorded);
    core->scratch_count = scratch;
    core->bytes -= table_bytes(&seen, seen.capacity)
                   + (todo.capacity + later.capacity) * sizeof(pass_state_t) + recorded.capacity * sizeof(recorded.items[0]);
    table_free(&seen);
    free(todo.items); free(later.items); free(recorded.items);
    return won;
}

/* VerdictSearch.last_pass_lost: 1 lost, 0 not known, < 0 stop. Asked in full until a position is
 * found won; below that, for QUICK_NODES nodes only. */
int last_pass_lost(core_t *core, uint64_t pm, uint64_t live, int q) {
    if (!core->win_ahead) {
        int won = last_pass_can_win(core, pm, live, q);
        if (won < 0) return won;
        core->win_ahead = won;
        return !won;
    }
    budget_t *budget = &core->budget;
    int64_t outer = budget->share_until;
    int64_t share = budget->nodes + QUICK_NODES;
    budget->share_until = outer >= 0 && outer < share ? outer : share;
    int won = last_pass_can_win(core, pm, live, q);
    budget->share_until = outer;
    if (won == CORE_QUICK && !(outer >= 0 && budget->nodes > outer)) return 0;
    if (won < 0) return won;
    return !won;
}
