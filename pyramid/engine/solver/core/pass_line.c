/* A two-pass win's first pass to its redeal (TwoPasses.first_pass_line in two_passes.py). */
#include "core.h"

/* Tokens of a line being built. */
typedef struct {
    int32_t *items;
    size_t count, capacity;
} tokens_t;

static int push_tokens(core_t *core, tokens_t *tokens, int32_t token) {
    if (!reserve(core, (void **)&tokens->items, &tokens->capacity, tokens->count, sizeof(int32_t))) return 0;
    tokens->items[tokens->count++] = token;
    return 1;
}

static int32_t removal_token(int a, int b) { return (int32_t)a << 8 | (b < 0 ? NO_CARD : b); }

/* Is `outcome` among the (sorted) outcomes at `index`? */
static int has_outcome(const core_t *core, int64_t index, uint64_t outcome) {
    size_t low = 0, high = (size_t)core->outcomes[index];
    const uint64_t *items = core->outcomes + index + 1;
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (items[middle] == outcome) return 1;
        if (items[middle] < outcome) low = middle + 1;
        else high = middle;
    }
    return 0;
}

static u128 ranks_of(const deal_t *d, const int *stock, int length) {
    u128 ranks = 0;
    for (int place = length - 1; place >= 0; place--) ranks = (ranks << 4) | d->stock_rank[stock[place]];
    return ranks;
}

/* An excursion's outcomes, found or computed: its index, or < 0 (CORE_BAD for a cleared pyramid,
 * which a line to a redeal never meets). */
static int64_t outcomes_of(core_t *core, uint64_t pm, int card, u128 stock) {
    int64_t found = excursion(core, pm, card, stock, 0);
    return found == CORE_CLEARED ? CORE_BAD : found;
}

static int excursion_line(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                          tokens_t *line);

/* Returned by the steps of excursion_line below when the outcome does not come through them. */
#define NOT_THIS_WAY 1

/* An excursion's line that starts inside the pyramid: a king, or a removal, after which the
   excursion still reaches `outcome`. */
static int pyramid_first(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                         tokens_t *line) {
    const deal_t *d = &core->deal;
    uint64_t uncovered = uncovered_mask(pm), kings = uncovered & d->rank_mask[d->target];
    u128 ranks = ranks_of(d, stock, length);
    removal_t removals[64];
    int n = 1;
    if (kings) {
        removals[0].a = (uint8_t)bit_index(kings);
        removals[0].b = NO_CARD;
    } else {
        n = pyramid_removals(d, pm, uncovered, removals);
    }
    for (int i = 0; i < n; i++) {
        uint64_t smaller = pm & ~(1ULL << removals[i].a);
        if (removals[i].b != NO_CARD) smaller &= ~(1ULL << removals[i].b);
        int64_t found = outcomes_of(core, smaller, d->stock_rank[card_id], ranks);
        if (found < 0) return (int)found;
        if (has_outcome(core, found, outcome)) {
            if (!push_tokens(core, line, token_of(removals[i]))) return CORE_FULL;
            return excursion_line(core, smaller, card_id, stock, length, outcome, line);
        }
    }
    return NOT_THIS_WAY;
}

/* An excursion's line that starts with the stock top: a king leaving, the card pairing with it,
   or the top pairing with a pyramid card. */
static int stock_top_first(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                           tokens_t *line) {
    const deal_t *d = &core->deal;
    int top_id = stock[0], top = d->stock_rank[top_id], card = d->stock_rank[card_id];
    uint64_t used = outcome >> CONSUMED_SHIFT, one = 1ULL << CONSUMED_SHIFT;
    if (top == d->target) {
        if (!used) return CORE_BAD;
        if (!d->stock_top_playable && !push_tokens(core, line, DRAW_TOKEN)) return CORE_FULL;
        if (!push_tokens(core, line, removal_token(STOCK_ID + top_id, -1))) return CORE_FULL;
        return excursion_line(core, pm, card_id, stock + 1, length - 1, outcome - one, line);
    }
    if (!d->stock_top_playable) return NOT_THIS_WAY;
    if (top == d->target - card && outcome == (pm | one))
        return push_tokens(core, line, removal_token(STOCK_ID + top_id, STOCK_ID + card_id)) ? 0 : CORE_FULL;
    u128 rest_ranks = ranks_of(d, stock + 1, length - 1);
    for (uint64_t partners = uncovered_mask(pm) & d->rank_mask[d->target - top]; used && partners;
         partners &= partners - 1) {
        int partner = bit_index(partners);
        int64_t found = outcomes_of(core, pm & ~(1ULL << partner), card, rest_ranks);
        if (found < 0) return (int)found;
        if (has_outcome(core, found, outcome - one)) {
            if (!push_tokens(core, line, removal_token(partner, STOCK_ID + top_id))) return CORE_FULL;
            return excursion_line(core, pm & ~(1ULL << partner), card_id, stock + 1, length - 1, outcome - one, line);
        }
    }
    return NOT_THIS_WAY;
}

/* An excursion's line that draws the stock top, whose own excursion ends in one of its outcomes,
   from which this one goes on to `outcome`. */
static int nested_first(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                        tokens_t *line) {
    const deal_t *d = &core->deal;
    int top_id = stock[0], card = d->stock_rank[card_id];
    uint64_t used = outcome >> CONSUMED_SHIFT;
    u128 ranks = ranks_of(d, stock, length);
    int64_t nested = outcomes_of(core, pm, d->stock_rank[top_id], ranks >> 4);
    if (nested < 0) return (int)nested;
    for (uint64_t i = 0; i < core->outcomes[nested]; i++) {
        uint64_t inner = core->outcomes[nested + 1 + i];
        uint64_t inner_used = (inner >> CONSUMED_SHIFT) + 1;
        if (used < inner_used) continue;
        uint64_t left = outcome - (inner_used << CONSUMED_SHIFT);
        int64_t found = outcomes_of(core, inner & PYRAMID_MASK, card, ranks >> (4 * inner_used));
        if (found < 0) return (int)found;
        if (!has_outcome(core, found, left)) continue;
        if (!push_tokens(core, line, DRAW_TOKEN)) return CORE_FULL;
        int stop = excursion_line(core, pm, top_id, stock + 1, length - 1, inner, line);
        if (stop) return stop;
        return excursion_line(core, inner & PYRAMID_MASK, card_id, stock + inner_used, length - (int)inner_used, left, line);
    }
    return NOT_THIS_WAY;
}

/* TwoPasses._excursion_line: the moves of an excursion of the card `card_id` (on the waste top,
 * `stock` after it) that end in `outcome`, found among the excursions it is made of. */
static int excursion_line(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                          tokens_t *line) {
    const deal_t *d = &core->deal;
    int need = d->target - d->stock_rank[card_id];
    uint64_t used = outcome >> CONSUMED_SHIFT, gone = pm ^ (outcome & PYRAMID_MASK);
    if (!used && gone && !(gone & (gone - 1)) && (gone & uncovered_mask(pm) & d->rank_mask[need]))
        return push_tokens(core, line, removal_token(bit_index(gone), STOCK_ID + card_id)) ? 0 : CORE_FULL;
    int result = pyramid_first(core, pm, card_id, stock, length, outcome, line);
    if (result != NOT_THIS_WAY) return result;
    if (!length) return CORE_BAD;  /* an outcome of an excursion comes from one of its moves */
    result = stock_top_first(core, pm, card_id, stock, length, outcome, line);
    if (result != NOT_THIS_WAY) return result;
    result = nested_first(core, pm, card_id, stock, length, outcome, line);
    return result == NOT_THIS_WAY ? CORE_BAD : result;
}

/* A state of the line's first pass, and the step that reached it. */
typedef struct {
    uint64_t pm;
    int32_t consumed, taken, came;
    uint32_t first_token, tokens;
} line_state_t;

typedef struct {
    line_state_t *states;
    size_t count, capacity;
    int32_t *todo;
    size_t todo_count, todo_capacity;
    table_t seen;  /* (pyramid | consumed << 56, taken) -> state */
    tokens_t steps;  /* the tokens of every step, each state's from first_token */
} line_search_t;

/* A state one step on from `from`, unless seen or it lost a card the redeal keeps; the step's
 * tokens are the last `count` of search->steps (dropped when the state is not kept). */
static int reach_line(core_t *core, line_search_t *search, int32_t from, int consumed, uint64_t pm, int taken,
                      uint64_t end_pm, size_t count) {
    uint64_t key[2] = {pm | (uint64_t)consumed << CONSUMED_SHIFT, (uint64_t)taken};
    if ((pm & end_pm) != end_pm || table_get(&search->seen, key) >= 0) {
        search->steps.count -= count;
        return 0;
    }
    if (!reserve(core, (void **)&search->states, &search->capacity, search->count, sizeof(line_state_t))
        || !reserve(core, (void **)&search->todo, &search->todo_capacity, search->todo_count, sizeof(int32_t))
        || !table_put(core, &search->seen, key, (int32_t)search->count))
        return CORE_FULL;
    line_state_t *state = &search->states[search->count];
    state->pm = pm;
    state->consumed = consumed;
    state->taken = taken;
    state->came = from;
    state->first_token = (uint32_t)(search->steps.count - count);
    state->tokens = (uint32_t)count;
    search->todo[search->todo_count++] = (int32_t)search->count++;
    return 0;
}

/* What the line's search reads at every state: the pass's cards, the redeal it must reach, how
   many waste cards leave before it, and the stock cards drawn by each count consumed. */
typedef struct {
    pass_cards_t cards;
    uint64_t end_pm, end_live;
    int keep_waste;
    uint64_t drawn[MAX_CARDS + 1];
} line_frame_t;

/* One step's token, then the state it reaches. */
static int step(core_t *core, line_search_t *search, const line_frame_t *frame, int32_t from, int32_t token,
                int consumed, uint64_t pm, int taken) {
    if (!push_tokens(core, &search->steps, token)) return CORE_FULL;
    return reach_line(core, search, from, consumed, pm, taken, frame->end_pm, 1);
}

/* A king, or each removal inside the pyramid. */
static int line_pyramid_moves(core_t *core, line_search_t *search, const line_frame_t *frame, int32_t at) {
    const deal_t *d = &core->deal;
    line_state_t state = search->states[at];
    uint64_t uncovered = uncovered_mask(state.pm), kings = uncovered & d->rank_mask[d->target];
    removal_t removals[64];
    int n = kings ? 1 : pyramid_removals(d, state.pm, uncovered, removals), result = 0;
    if (kings) { removals[0].a = (uint8_t)bit_index(kings); removals[0].b = NO_CARD; }
    for (int i = 0; !result && i < n; i++) {
        uint64_t after = state.pm & ~(1ULL << removals[i].a);
        if (removals[i].b != NO_CARD) after &= ~(1ULL << removals[i].b);
        result = step(core, search, frame, at, token_of(removals[i]), state.consumed, after, state.taken);
    }
    return result;
}

/* _waste_card_leaves: the waste top leaves (alone, with a pyramid card or with the stock top), while
   no card the redeal keeps was drawn over it. */
static int line_waste_moves(core_t *core, line_search_t *search, const line_frame_t *frame, int32_t at) {
    const deal_t *d = &core->deal;
    line_state_t state = search->states[at];
    if ((frame->end_live & frame->drawn[state.consumed]) || state.taken >= frame->keep_waste) return 0;
    int card_id = frame->cards.waste[state.taken], card = d->stock_rank[card_id], result = 0;
    if (card == d->target)
        return step(core, search, frame, at, removal_token(STOCK_ID + card_id, -1), state.consumed, state.pm, state.taken + 1);
    for (uint64_t partners = uncovered_mask(state.pm) & d->rank_mask[d->target - card]; !result && partners;
         partners &= partners - 1)
        result = step(core, search, frame, at, removal_token(bit_index(partners), STOCK_ID + card_id), state.consumed,
                      state.pm & ~low_bit(partners), state.taken + 1);
    int top_id = state.consumed < frame->cards.length ? frame->cards.stock[state.consumed] : -1;
    if (!result && d->stock_top_playable && top_id >= 0 && !(frame->end_live >> top_id & 1)
        && d->stock_rank[top_id] + card == d->target)
        result = step(core, search, frame, at, removal_token(STOCK_ID + top_id, STOCK_ID + card_id), state.consumed + 1,
                      state.pm, state.taken + 1);
    return result;
}

/* Each outcome of the stock top's excursion that keeps what the redeal keeps: a draw and the
   excursion's moves, then the state it ends in. */
static int line_excursions(core_t *core, line_search_t *search, const line_frame_t *frame, int32_t at) {
    const deal_t *d = &core->deal;
    line_state_t state = search->states[at];
    int consumed = state.consumed, length = frame->cards.length, top_id = frame->cards.stock[consumed], result = 0;
    const int *rest = frame->cards.stock + consumed + 1;
    int64_t found = outcomes_of(core, state.pm, d->stock_rank[top_id], ranks_of(d, rest, length - consumed - 1));
    if (found < 0) return (int)found;
    for (uint64_t i = 0; !result && i < core->outcomes[found]; i++) {
        uint64_t outcome = core->outcomes[found + 1 + i];
        int used = (int)(outcome >> CONSUMED_SHIFT);
        if (frame->end_live & (frame->drawn[consumed + 1 + used] ^ frame->drawn[consumed + 1])) continue;  /* a card that must stay would leave */
        uint64_t key[2] = {(outcome & PYRAMID_MASK) | (uint64_t)(consumed + 1 + used) << CONSUMED_SHIFT, (uint64_t)state.taken};
        if ((outcome & frame->end_pm) != frame->end_pm || table_get(&search->seen, key) >= 0) continue;
        size_t start = search->steps.count;
        result = push_tokens(core, &search->steps, DRAW_TOKEN) ? 0 : CORE_FULL;
        if (!result) result = excursion_line(core, state.pm, top_id, rest, length - consumed - 1, outcome, &search->steps);
        if (!result) result = reach_line(core, search, at, consumed + 1 + used, outcome & PYRAMID_MASK, state.taken,
                                         frame->end_pm, search->steps.count - start);
    }
    return result;
}

/* The stock top: drawn when the redeal keeps it, else it leaves (a king, or with a pyramid card),
   or its excursion runs. */
static int line_stock_moves(core_t *core, line_search_t *search, const line_frame_t *frame, int32_t at) {
    const deal_t *d = &core->deal;
    line_state_t state = search->states[at];
    int consumed = state.consumed, top_id = frame->cards.stock[consumed], top = d->stock_rank[top_id], result = 0;
    if (frame->end_live >> top_id & 1)  /* it stays */
        return step(core, search, frame, at, DRAW_TOKEN, consumed + 1, state.pm, state.taken);
    if (top == d->target) {
        if (!d->stock_top_playable && !push_tokens(core, &search->steps, DRAW_TOKEN)) return CORE_FULL;
        if (!push_tokens(core, &search->steps, removal_token(STOCK_ID + top_id, -1))) return CORE_FULL;
        return reach_line(core, search, at, consumed + 1, state.pm, state.taken, frame->end_pm,
                          d->stock_top_playable ? 1 : 2);
    }
    if (d->stock_top_playable)
        for (uint64_t partners = uncovered_mask(state.pm) & d->rank_mask[d->target - top]; !result && partners;
             partners &= partners - 1)
            result = step(core, search, frame, at, removal_token(bit_index(partners), STOCK_ID + top_id), consumed + 1,
                          state.pm & ~low_bit(partners), state.taken);
    return result ? result : line_excursions(core, search, frame, at);
}

/* The tokens from the start to `goal`, onto core->path. */
static int line_path(core_t *core, const line_search_t *search, int32_t goal) {
    size_t total = 0;
    for (int32_t at = goal; at >= 0; at = search->states[at].came) total += search->states[at].tokens;
    core->path_len = 0;
    if (!reserve(core, (void **)&core->path, &core->path_capacity, total, sizeof(int32_t))) return CORE_FULL;
    core->path_len = total;
    for (int32_t at = goal; at >= 0; at = search->states[at].came) {
        total -= search->states[at].tokens;
        memcpy(core->path + total, search->steps.items + search->states[at].first_token,
               search->states[at].tokens * sizeof(int32_t));
    }
    return 0;
}

/* TwoPasses.first_pass_line (with _line_steps and _waste_card_leaves): the moves of a first pass
 * from (pm, live, q) to the redeal (end_pm, end_live), onto core->path. */
static int line_to_redeal(core_t *core, line_search_t *search, uint64_t pm, uint64_t live, int q, uint64_t end_pm,
                          uint64_t end_live) {
    const deal_t *d = &core->deal;
    line_frame_t frame = {.end_pm = end_pm, .end_live = end_live};
    pass_cards(d, live, q, &frame.cards);
    int length = frame.cards.length;
    for (int i = 0; i < frame.cards.waste_size; i++) frame.keep_waste += !(end_live >> frame.cards.waste[i] & 1);
    frame.drawn[0] = 0;
    for (int place = 0; place < length; place++) frame.drawn[place + 1] = frame.drawn[place] | 1ULL << frame.cards.stock[place];
    int result = reach_line(core, search, -1, 0, pm, 0, end_pm, 0);
    int32_t goal = -1;
    while (!result && search->todo_count) {
        int32_t at = search->todo[--search->todo_count];
        line_state_t state = search->states[at];
        if (state.consumed == length && state.pm == end_pm && state.taken == frame.keep_waste) { goal = at; break; }
        result = line_pyramid_moves(core, search, &frame, at);
        if (!result) result = line_waste_moves(core, search, &frame, at);
        if (!result && state.consumed < length) result = line_stock_moves(core, search, &frame, at);
    }
    if (result) return result;
    if (goal < 0) return CORE_BAD;  /* the redeal found by the first pass must be reachable */
    return line_path(core, search, goal);
}

/* The first pass of a two-pass win's line, onto core->path (0), or < 0. */
int first_pass_line(core_t *core, uint64_t pm, uint64_t live, int q, uint64_t end_pm, uint64_t end_live) {
    line_search_t search = {0};
    if (!table_init(core, &search.seen, 2)) { core->full = 1; return CORE_FULL; }
    int result = line_to_redeal(core, &search, pm, live, q, end_pm, end_live);
    core->bytes -= table_bytes(&search.seen, search.seen.capacity) + search.capacity * sizeof(line_state_t)
                   + search.todo_capacity * sizeof(int32_t) + search.steps.capacity * sizeof(int32_t);
    table_free(&search.seen);
    free(search.states);
    free(search.todo);
    free(search.steps.items);
    core->scratch_count = 0;
    return result;
}
