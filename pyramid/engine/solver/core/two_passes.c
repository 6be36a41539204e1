/* Two passes, the first pass's families and where a winning line redeals (TwoPasses in two_passes.py). */
#include "core.h"

/* The first pass: families of the cards that stayed, keyed by their ranks (TwoPasses._first_pass). */
typedef struct { u128 ranks; uint32_t stayers; } stayer_t;
typedef struct { int32_t refs; uint32_t count; stayer_t items[]; } family_t;

static family_t *family_new(core_t *core, uint32_t count) {
    size_t size = sizeof(family_t) + (size_t)count * sizeof(stayer_t);
    if (core->bytes + size > core->byte_bound) { core->full = 1; return NULL; }
    family_t *family = malloc(size);
    if (!family) { core->full = 1; return NULL; }
    core->bytes += size;
    family->refs = 1;
    family->count = count;
    return family;
}

static void family_release(core_t *core, family_t *family) {
    if (family && --family->refs == 0) {
        core->bytes -= sizeof(family_t) + (size_t)family->count * sizeof(stayer_t);
        free(family);
    }
}

/* Both families (sorted by ranks) in one; for ranks in both, `b`'s cards ({**a, **b}). */
static family_t *family_merge(core_t *core, const family_t *a, const family_t *b) {
    family_t *merged = family_new(core, a->count + b->count);
    if (!merged) return NULL;
    uint32_t i = 0, j = 0, n = 0;
    while (i < a->count || j < b->count) {
        if (j == b->count || (i < a->count && a->items[i].ranks < b->items[j].ranks)) merged->items[n++] = a->items[i++];
        else {
            if (i < a->count && a->items[i].ranks == b->items[j].ranks) i++;
            merged->items[n++] = b->items[j++];
        }
    }
    merged->count = n;  /* the tail stays allocated; counted as allocated */
    core->bytes -= (size_t)(a->count + b->count - n) * sizeof(stayer_t);
    return merged;
}

/* A state of the first pass, in the order the pass takes them up (see TwoPasses._first_pass). */
typedef struct { uint64_t order; uint32_t minor; int32_t own; family_t *family; } first_state_t;

typedef struct {
    first_state_t *states;
    size_t count, capacity;
    int32_t *heap;
    size_t heap_count, heap_capacity;
    table_t index;  /* (order, minor) -> state */
} first_pass_t;

static int state_before(const first_state_t *a, const first_state_t *b) {
    return a->order < b->order || (a->order == b->order && a->minor < b->minor);
}

static void heap_up(first_pass_t *pass, size_t at) {
    while (at) {
        size_t parent = (at - 1) / 2;
        if (!state_before(&pass->states[pass->heap[at]], &pass->states[pass->heap[parent]])) break;
        int32_t swap = pass->heap[at]; pass->heap[at] = pass->heap[parent]; pass->heap[parent] = swap;
        at = parent;
    }
}

static int32_t heap_pop(first_pass_t *pass) {
    int32_t top = pass->heap[0];
    pass->heap[0] = pass->heap[--pass->heap_count];
    size_t at = 0;
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= pass->heap_count) break;
        if (child + 1 < pass->heap_count && state_before(&pass->states[pass->heap[child + 1]], &pass->states[pass->heap[child]]))
            child++;
        if (!state_before(&pass->states[pass->heap[child]], &pass->states[pass->heap[at]])) break;
        int32_t swap = pass->heap[at]; pass->heap[at] = pass->heap[child]; pass->heap[child] = swap;
        at = child;
    }
    return top;
}

/* TwoPasses._first_pass's reach: `family` joins the state's (the caller keeps its own reference). */
static int reach(core_t *core, first_pass_t *pass, int consumed, uint64_t after, int taken, int stayed,
                 int waste_size, family_t *family) {
    uint64_t key[2] = {(uint64_t)consumed << PYRAMID_BITS | (PYRAMID_MASK ^ after),
                       (uint64_t)taken << 1 | (stayed && taken < waste_size)};
    int known = table_get(&pass->index, key);
    if (known < 0) {
        if (!reserve(core, (void **)&pass->states, &pass->capacity, pass->count, sizeof(first_state_t))
            || !reserve(core, (void **)&pass->heap, &pass->heap_capacity, pass->heap_count, sizeof(int32_t))
            || !table_put(core, &pass->index, key, (int32_t)pass->count))
            return CORE_FULL;
        first_state_t *state = &pass->states[pass->count];
        state->order = key[0];
        state->minor = (uint32_t)key[1];
        state->own = 0;
        state->family = family;
        family->refs++;
        pass->heap[pass->heap_count++] = (int32_t)pass->count++;
        heap_up(pass, pass->heap_count - 1);
        return 0;
    }
    first_state_t *state = &pass->states[known];
    if (state->family == family) return 0;
    family_t *merged = family_merge(core, state->family, family);
    if (!merged) return CORE_FULL;
    family_release(core, state->family);
    state->family = merged;
    state->own = 1;
    return 0;
}

/* The pyramids the first pass can redeal with, each with the stocks it can leave for the second. */
typedef struct { uint64_t pm; stayer_t *stocks; size_t count, capacity; } end_t;

typedef struct {
    end_t *items;
    size_t count, capacity;
    table_t index;  /* pyramid -> end */
} ends_t;

static int add_end(core_t *core, ends_t *ends, uint64_t pm, u128 ranks, uint32_t stock) {
    uint64_t key[1] = {pm};
    int at = table_get(&ends->index, key);
    if (at < 0) {
        if (!reserve(core, (void **)&ends->items, &ends->capacity, ends->count, sizeof(end_t))
            || !table_put(core, &ends->index, key, (int32_t)ends->count))
            return 0;
        at = (int)ends->count++;
        memset(&ends->items[at], 0, sizeof(end_t));
        ends->items[at].pm = pm;
    }
    end_t *end = &ends->items[at];
    if (!reserve(core, (void **)&end->stocks, &end->capacity, end->count, sizeof(stayer_t))) return 0;
    end->stocks[end->count].ranks = ranks;
    end->stocks[end->count++].stayers = stock;
    return 1;
}

static int nibbles(u128 x) {
    int n = 0;
    for (; x; x >>= 4) n++;
    return n;
}

/* What the first pass reads at every state: the pass's cards, and the waste left (and its ranks)
   by how many waste cards were taken. */
typedef struct {
    pass_cards_t cards;
    uint64_t waste_left[MAX_CARDS + 1];
    u128 waste_ranks[MAX_CARDS + 1];
} first_frame_t;

/* One state of the first pass, taken from the queue, with its family of stocks. */
typedef struct {
    uint64_t here;
    int consumed, taken, stayed, top;
    int clears;  /* the pyramid clears by its own removals */
    family_t *family;
} first_at_t;

static int reach_from(core_t *core, first_pass_t *pass, const first_frame_t *frame, const first_at_t *at,
                      int consumed, uint64_t after, int taken, int stayed) {
    return reach(core, pass, consumed, after, taken, stayed, frame->cards.waste_size, at->family);
}

/* The waste top's moves (none once a stock card stayed: the waste top is then that card). */
static int waste_moves(core_t *core, first_pass_t *pass, const first_frame_t *frame, const first_at_t *at) {
    const deal_t *d = &core->deal;
    if (at->stayed || at->taken >= frame->cards.waste_size) return 0;
    int card = d->stock_rank[frame->cards.waste[at->taken]], result = 0;
    if (card == d->target) return reach_from(core, pass, frame, at, at->consumed, at->here, at->taken + 1, 0);
    int64_t frees = freeing(core, at->here);  /* freeing.c: the removals inside the pyramid that free a partner */
    if (frees < 0) return (int)frees;
    uint64_t next = 0;
    for (int64_t after; !result && (after = next_freed(core, frees, &next, d->target - card)) >= 0;)
        result = reach_from(core, pass, frame, at, at->consumed, (uint64_t)after, at->taken + 1, 0);
    if (!result && d->stock_top_playable && at->top && at->top + card == d->target)
        result = reach_from(core, pass, frame, at, at->consumed + 1, at->here, at->taken + 1, 0);
    return result;
}

/* The stock is through: each stock of the family, with the waste left under it, ends the pass. */
static int pass_ends(core_t *core, ends_t *ends, const first_frame_t *frame, const first_at_t *at) {
    uint64_t left = frame->waste_left[at->taken];
    u128 left_ranks = frame->waste_ranks[at->taken];
    family_t *family = at->family;
    for (uint32_t i = 0; i < family->count; i++) {
        u128 ranks = family->items[i].ranks;
        if (!left && !ranks && at->clears) return CORE_CLEARED;  /* goal "all": cleared without the redeal */
        if (!add_end(core, ends, at->here, (left_ranks << (4 * nibbles(ranks))) | ranks,
                     family->items[i].stayers | (uint32_t)left))
            return CORE_FULL;
    }
    return 0;
}

/* The stock top's moves: its partners, staying for the second pass (the family grows by it), and
   its excursion. */
static int stock_moves(core_t *core, first_pass_t *pass, const first_frame_t *frame, const first_at_t *at) {
    const deal_t *d = &core->deal;
    int result = 0, consumed = at->consumed, top = at->top;
    if (top == d->target) return reach_from(core, pass, frame, at, consumed + 1, at->here, at->taken, at->stayed);
    if (d->stock_top_playable) {
        int64_t frees = freeing(core, at->here);
        if (frees < 0) return (int)frees;
        uint64_t next = 0;
        for (int64_t after; !result && (after = next_freed(core, frees, &next, d->target - top)) >= 0;)
            result = reach_from(core, pass, frame, at, consumed + 1, (uint64_t)after, at->taken, at->stayed);
    }
    if (result) return result;
    family_t *stays = family_new(core, at->family->count);
    if (!stays) return CORE_FULL;
    uint32_t bit = 1u << frame->cards.stock[consumed];
    for (uint32_t i = 0; i < at->family->count; i++) {
        stays->items[i].ranks = (at->family->items[i].ranks << 4) | (u128)top;
        stays->items[i].stayers = at->family->items[i].stayers | bit;
    }
    result = reach(core, pass, consumed + 1, at->here, at->taken, 1, frame->cards.waste_size, stays);
    family_release(core, stays);
    if (result) return result;
    int64_t found = excursion(core, at->here, top, frame->cards.ranks >> (4 * consumed + 4), 1);
    if (found < 0) return (int)found;
    for (uint64_t i = 0; !result && i < core->outcomes[found]; i++) {
        uint64_t outcome = core->outcomes[found + 1 + i];
        result = reach_from(core, pass, frame, at, consumed + 1 + (int)(outcome >> CONSUMED_SHIFT),
                            outcome & PYRAMID_MASK, at->taken, at->stayed);
    }
    return result;
}

/* TwoPasses._first_pass: 0 (the ends filled), CORE_CLEARED, or < 0 to stop. */
static int first_pass(core_t *core, uint64_t pm, uint64_t live, int q, first_pass_t *pass, ends_t *ends) {
    const deal_t *d = &core->deal;
    first_frame_t frame;
    pass_cards(d, live, q, &frame.cards);
    int waste_size = frame.cards.waste_size;
    frame.waste_left[waste_size] = 0;
    for (int taken = waste_size - 1; taken >= 0; taken--)
        frame.waste_left[taken] = frame.waste_left[taken + 1] | 1ULL << frame.cards.waste[taken];
    for (int taken = 0; taken <= waste_size; taken++) frame.waste_ranks[taken] = rank_sequence(d, frame.waste_left[taken]);
    family_t *start = family_new(core, 1);
    if (!start) return CORE_FULL;
    start->items[0].ranks = 0;
    start->items[0].stayers = 0;
    int result = reach(core, pass, 0, pm, 0, 0, waste_size, start);
    family_release(core, start);
    while (!result && pass->heap_count) {
        first_state_t *popped = &pass->states[heap_pop(pass)];
        first_at_t at = {.here = PYRAMID_MASK ^ (popped->order & PYRAMID_MASK),
                         .consumed = (int)(popped->order >> PYRAMID_BITS), .taken = (int)(popped->minor >> 1),
                         .stayed = popped->minor & 1, .family = popped->family};
        popped->family = NULL;
        at.top = (int)((frame.cards.ranks >> (4 * at.consumed)) & 15);
        result = tick(core);
        int64_t frees = result ? 0 : freeing(core, at.here);
        if (frees < 0) result = (int)frees;
        else if (!result) at.clears = FREE_CLEARS(core->frees[frees]);
        if (!result && !d->goal_all && at.clears) result = CORE_CLEARED;
        if (!result) result = waste_moves(core, pass, &frame, &at);
        if (!result) result = at.consumed == frame.cards.length ? pass_ends(core, ends, &frame, &at)
                                                               : stock_moves(core, pass, &frame, &at);
        family_release(core, at.family);
    }
    return result;
}

static int compare_popcount(const void *a, const void *b) {
    const end_t *x = a, *y = b;
    int cx = popcount(x->pm), cy = popcount(y->pm);
    return cx != cy ? cx - cy : (x->pm < y->pm ? -1 : x->pm > y->pm);
}

DEFINE_SORT(sort_stocks, uint32_t)
#define STAYER_RANKS(x) ((x).ranks)
DEFINE_SORT_BY(sort_stayers, stayer_t, STAYER_RANKS)

/* The root of an end's stocks: one stock for each rank sequence (any: the second pass sees ranks). */
static int32_t end_root(core_t *core, end_t *end) {
    uint32_t *stocks = malloc((end->count ? end->count : 1) * sizeof(uint32_t));
    if (!stocks) { core->full = 1; return -1; }
    sort_stayers(end->stocks, end->count);  /* by ranks */
    uint32_t count = 0;
    for (size_t i = 0; i < end->count; i++)
        if (!i || end->stocks[i].ranks != end->stocks[i - 1].ranks) stocks[count++] = end->stocks[i].stayers;
    sort_stocks(stocks, count);
    uint32_t unique = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!unique || stocks[unique - 1] != stocks[i]) stocks[unique++] = stocks[i];
    return node_of(core, stocks, unique);
}

/* TwoPasses.winning_redeal: CORE_WIN with the redeal in core->redeal_pm / redeal_live,
 * CORE_CLEARED (won before the redeal), CORE_LOSE, or < 0 to stop. */
int winning_redeal(core_t *core, uint64_t pm, uint64_t live, int q) {
    first_pass_t pass = {0};
    ends_t ends = {0};
    int result;
    if (!core->dd_count) {  /* node 0: the empty family; node 1: the family of the empty stock */
        uint32_t *none = malloc(sizeof(uint32_t)), *empty = malloc(sizeof(uint32_t));
        if (empty) empty[0] = 0;
        if (!none || !empty || node_of(core, none, 0) != 0 || node_of(core, empty, 1) != 1) {
            if (!none || !empty) { free(none); free(empty); }
            core->full = 1;
            return CORE_FULL;
        }
    }
    if (!table_init(core, &pass.index, 2) || !table_init(core, &ends.index, 1)) { core->full = 1; return CORE_FULL; }
    result = first_pass(core, pm, live, q, &pass, &ends);
    for (size_t i = 0; i < pass.count; i++) family_release(core, pass.states[i].family);
    core->bytes -= table_bytes(&pass.index, pass.index.capacity) + pass.capacity * sizeof(first_state_t)
                   + pass.heap_capacity * sizeof(int32_t);
    table_free(&pass.index);
    free(pass.states);
    free(pass.heap);
    core->scratch_count = 0;
    if (!result) {
        result = CORE_LOSE;
        if (ends.count > 1) qsort(ends.items, ends.count, sizeof(end_t), compare_popcount);  /* the smallest pyramids first */
        for (size_t e = 0; result == CORE_LOSE && e < ends.count; e++) {
            int32_t root = end_root(core, &ends.items[e]);
            if (root < 0) { result = CORE_FULL; break; }
            result = second_pass_wins(core, ends.items[e].pm, root);
            if (result != CORE_WIN) continue;
            /* TwoPasses._witness: one stock of the family whose last pass clears the pyramid (there is one) */
            result = CORE_BAD;
            for (uint32_t k = 0; k < core->dd[root].count; k++) {
                uint32_t stock = core->dd[root].stocks[k];
                int won = last_pass_can_win(core, ends.items[e].pm, stock, next_live(&core->deal, stock, 0));
                if (won < 0) { result = won; break; }
                if (won) {
                    core->redeal_pm = ends.items[e].pm;
                    core->redeal_live = stock;
                    result = CORE_WIN;
                    break;
                }
            }
        }
    }
    for (size_t e = 0; e < ends.count; e++) {
        core->bytes -= ends.items[e].capacity * sizeof(stayer_t);
        free(ends.items[e].stocks);
    }
    core->bytes -= table_bytes(&ends.index, ends.index.capacity) + ends.capacity * sizeof(end_t);
    table_free(&ends.index);
    free(ends.items);
    return result;
}
