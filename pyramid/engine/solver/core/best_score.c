/* The best score reachable and one of the shortest lines to it (best_score.py, whose docstrings
 * say why each step is sound): a depth-first pass for the score, then A* for the line, over
 * states keyed by ranks. */
#include "core.h"

/* A state: the position, and whether a draw or a redeal reached it (BestScoreSearch.successors). */
typedef struct { uint64_t pm, live; int32_t q, r, drew; } bs_state_t;

/* A move and the state it leads to. */
typedef struct { int32_t token; bs_state_t after; } bs_move_t;

/* What the ranks left allow (BestScoreSearch.outlook). */
typedef struct { uint64_t stranded; int removals, free_live, bonus; } bs_outlook_t;

/* One state of the A* pass: its position, the moves that reached it, and where it came from. */
typedef struct { bs_state_t state; int32_t parent, token, moves, closed; } bs_node_t;

/* An entry of A*'s queue: ordered by the moves at least, then the deepest, then first pushed. */
typedef struct { int32_t estimate, made, order, node; } bs_entry_t;

typedef struct {
    core_t *core;
    const best_scoring_t *sc;
    table_t seen;           /* the key of a state (bs_key) -> 1, or its node in the A* pass */
    bs_node_t *nodes;
    size_t node_count, node_capacity;
    bs_entry_t *heap;
    size_t heap_count, heap_capacity;
} bs_search_t;

/* BestScoreSearch.key, in three words: the pyramid, the waste's size and whether a draw reached
   the state; the ranks left (at most 31 cards, four bits each), the redeals left in the top four
   bits (15 for unlimited: core_best_score takes no other count above 14). */
static void bs_key(const deal_t *d, bs_state_t s, uint64_t key[3]) {
    u128 ranks = rank_sequence(d, s.live);
    uint64_t redeals = s.r == UNLIMITED ? 15 : (uint64_t)s.r;
    key[0] = s.pm | (uint64_t)popcount(s.live & below(s.q)) << PYRAMID_BITS | (uint64_t)s.drew << 63;
    key[1] = (uint64_t)ranks;
    key[2] = (uint64_t)(ranks >> 64) | redeals << 60;
}

/* BestScoreSearch.gain: what the cards removed since the start earned. */
static int bs_gain(const core_t *core, const best_scoring_t *sc, uint64_t pm, uint64_t live) {
    const deal_t *d = &core->deal;
    uint64_t gone_pm = sc->start_pm & ~pm, gone_live = sc->start_live & ~live;
    if (sc->kind == SCORING_CARDS_LEFT) return popcount(gone_pm);
    if (sc->kind == SCORING_RETROHUB) {
        int points = 5 * popcount(gone_live);
        for (uint64_t rest = gone_pm; rest; rest &= rest - 1) points += sc->card_points[bit_index(rest)];
        return points;
    }
    int kings = popcount(gone_pm & d->rank_mask[d->target]) + popcount(gone_live & d->stock_rank_mask[d->target]);
    int points = 5 * ((popcount(gone_pm) + popcount(gone_live) + kings) / 2);
    for (int row = 0; row < sc->rows; row++)
        if ((sc->start_pm & sc->row_mask[row]) && !(pm & sc->row_mask[row])) points += sc->row_bonus[row];
    return points;
}

/* The cards of (pm, live) that can never leave (BestScoreSearch.dead_cards): *dead_pm, *dead_live. */
static void bs_dead(const deal_t *d, uint64_t pm, uint64_t live, uint64_t *dead_pm, uint64_t *dead_live) {
    int t = d->target;
    uint64_t alive_pm = pm, alive_live = live;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint64_t rest = alive_pm; rest; rest &= rest - 1) {
            int bit = bit_index(rest), need = t - d->rank[bit];
            uint64_t card = low_bit(rest);
            if ((d->covering[bit] & ~alive_pm & pm)
                || (need > 0 && !(d->stock_rank_mask[need] & alive_live)
                    && !(d->pyramid_partners[bit] & alive_pm & ~card))) {
                alive_pm &= ~card;
                changed = 1;
            }
        }
        for (uint64_t rest = alive_live; rest; rest &= rest - 1) {
            uint64_t card = low_bit(rest);
            int need = t - d->stock_rank[bit_index(rest)];
            if (need > 0 && !(d->stock_rank_mask[need] & alive_live & ~card) && !(d->rank_mask[need] & alive_pm)) {
                alive_live &= ~card;
                changed = 1;
            }
        }
    }
    *dead_pm = pm & ~alive_pm;
    *dead_live = live & ~alive_live;
}

/* What one pair of complementary ranks allows (BestScoreSearch.pair_outlook): the most pairs its
   cards that may still leave can make (*pairs), and the highest row from which every one of its
   pyramid cards down may leave (*clear_from; the rows' count when none can). A live card may pair with
   any, a pyramid card with those of the other rank outside its cones. */
static void bs_pair_outlook(const core_t *core, int low, int high, uint64_t pm, uint64_t live, int *pairs,
                            int *clear_from) {
    const deal_t *d = &core->deal;
    uint64_t lows = d->rank_mask[low] & pm, highs = d->rank_mask[high] & pm;
    int stock_lows = popcount(d->stock_rank_mask[low] & live), stock_highs = popcount(d->stock_rank_mask[high] & live);
    int pyramid_pairs = lows && highs ? max_matching(d, lows, highs) : 0;
    *pairs = 0;
    for (int inside = 0; inside <= pyramid_pairs; inside++) {
        int low_out = popcount(lows) - inside, high_out = popcount(highs) - inside;
        int with_low = high_out < stock_lows ? high_out : stock_lows, with_high = low_out < stock_highs ? low_out : stock_highs;
        int rest_lows = stock_lows - with_low, rest_highs = stock_highs - with_high;
        int total = inside + with_low + with_high + (rest_lows < rest_highs ? rest_lows : rest_highs);
        if (total > *pairs) *pairs = total;
    }
    /* Every required card matched on each side is enough for both at once (Mendelsohn-Dulmage). */
    *clear_from = 0;
    for (int row = 0; row < PYRAMID_BITS / ROW_STRIDE; row++) {
        uint64_t down = ~below(row * ROW_STRIDE), need_lows = lows & down, need_highs = highs & down;
        if (popcount(need_lows) - (need_lows && highs ? max_matching(d, need_lows, highs) : 0) <= stock_highs
            && popcount(need_highs) - (need_highs && lows ? max_matching(d, need_highs, lows) : 0) <= stock_lows)
            break;
        *clear_from = row + 1;
    }
}

/* BestScoreSearch.outlook: what the cards that may still leave allow. */
static bs_outlook_t bs_outlook(const core_t *core, const best_scoring_t *sc, uint64_t pm, uint64_t live) {
    const deal_t *d = &core->deal;
    int t = d->target;
    bs_outlook_t o = {0};
    uint64_t dead_live;
    bs_dead(d, pm, live, &o.stranded, &dead_live);
    uint64_t alive_pm = pm & ~o.stranded, alive_live = live & ~dead_live;
    o.free_live = popcount(alive_live);
    o.removals = popcount(d->rank_mask[t] & alive_pm) + popcount(d->stock_rank_mask[t] & alive_live);
    int clear_from = 0;
    for (uint64_t rest = o.stranded; rest; rest &= rest - 1) {
        int row = bit_index(rest) / ROW_STRIDE + 1;
        if (row > clear_from) clear_from = row;
    }
    for (int i = 0; i < core->rank_pair_count; i++) {
        int low = core->rank_pairs[i][0], high = core->rank_pairs[i][1], pairs, from = 0;
        if (low == high) {  /* an even target: at most half of them pair */
            pairs = (popcount(d->rank_mask[low] & alive_pm) + popcount(d->stock_rank_mask[low] & alive_live)) / 2;
        } else {
            bs_pair_outlook(core, low, high, alive_pm, alive_live, &pairs, &from);
        }
        o.removals += pairs;
        if (from > clear_from) clear_from = from;
    }
    for (int row = clear_from; row < sc->rows; row++)
        if (pm & sc->row_mask[row]) o.bonus += sc->row_bonus[row];
    return o;
}

/* The live cards that may still leave: in the last pass, none buried under a waste card that never
   can (Position.forget_buried); the outlook counts these alone. */
static uint64_t bs_playable(const core_t *core, bs_state_t s) {
    return forget_buried(&core->deal, s.pm, s.live, s.q, s.r);
}

/* BestScoreSearch.ceiling: at least the best gain reachable from a state whose gain is `now` and
   whose outlook is `o`. */
static int bs_ceiling_of(const best_scoring_t *sc, uint64_t pm, int now, bs_outlook_t o) {
    if (sc->kind == SCORING_CARDS_LEFT) return now + popcount(pm & ~o.stranded);
    if (sc->kind == SCORING_RETROHUB) {
        int points = now + 5 * o.free_live;
        for (uint64_t rest = pm & ~o.stranded; rest; rest &= rest - 1) points += sc->card_points[bit_index(rest)];
        return points;
    }
    return now + 5 * o.removals + o.bonus;
}

static int bs_ceiling(const core_t *core, const best_scoring_t *sc, bs_state_t s) {
    return bs_ceiling_of(sc, s.pm, bs_gain(core, sc, s.pm, s.live), bs_outlook(core, sc, s.pm, bs_playable(core, s)));
}

/* BestScoreSearch.successors: removals first (none inside the pyramid right after a draw; a king
 * that can leave alone), then the draw or the redeal. The count of moves written to `out`. */
static int bs_moves(const deal_t *d, bs_state_t s, bs_move_t out[96]) {
    int n = 0;
    if (!s.pm && !(d->goal_all && s.live)) return 0;  /* the game is over */
    uint64_t uncovered = uncovered_mask(s.pm);
    removal_t removals[96];
    int count = 0;
    if (!s.drew) {
        for (uint64_t kings = uncovered & d->rank_mask[d->target]; kings; kings &= kings - 1) {
            removals[count].a = (uint8_t)bit_index(kings);
            removals[count++].b = NO_CARD;
        }
    }
    count += open_removals(d, uncovered, s.live, s.q, removals + count);
    if (!s.drew) count += pyramid_removals(d, s.pm, uncovered, removals + count);
    int king = count && removals[0].b == NO_CARD;
    if (king) count = 1;  /* a king that can leave leaves at once */
    for (int i = 0; i < count; i++) {
        bs_state_t after = s;
        after.drew = 0;
        uint8_t cards[2] = {removals[i].a, removals[i].b};
        for (int c = 0; c < 2; c++) {
            if (cards[c] == NO_CARD) continue;
            if (cards[c] >= STOCK_ID) after.live &= ~(1ULL << (cards[c] - STOCK_ID));
            else after.pm &= ~(1ULL << cards[c]);
        }
        after.q = next_live(d, after.live, s.q);
        out[n].token = token_of(removals[i]);
        out[n++].after = after;
    }
    if (king) return n;
    bs_state_t after = s;
    after.drew = 1;
    if (s.q < d->m) {
        after.q = after_draw(d, s.live, s.q);
        out[n].token = DRAW_TOKEN;
        out[n++].after = after;
    } else if ((s.live & below(s.q)) && s.r) {
        after.q = next_live(d, s.live, 0);
        after.r = s.r == UNLIMITED ? s.r : s.r - 1;
        out[n].token = REDEAL_TOKEN;
        out[n++].after = after;
    }
    return n;
}

/* A frame of the depth-first pass: a state's moves and the next one to try. */
typedef struct { bs_move_t moves[96]; int32_t count, next; } bs_frame_t;

/* BestScoreSearch.best_gain: the depth-first pass, from a gain some line is known to reach. The
   best gain, or < 0 to stop. */
static int bs_best_gain(bs_search_t *search, bs_state_t start, int floor) {
    core_t *core = search->core;
    const deal_t *d = &core->deal;
    int top = bs_ceiling(core, search->sc, start), best = bs_gain(core, search->sc, start.pm, start.live);
    if (floor > best) best = floor;
    bs_frame_t *frames = NULL;
    size_t depth = 0, capacity = 0;
    uint64_t key[3];
    bs_key(d, start, key);
    int result = table_put(core, &search->seen, key, 1) && reserve(core, (void **)&frames, &capacity, 0, sizeof(bs_frame_t))
                 ? 0 : CORE_FULL;
    if (!result) {
        frames[0].count = bs_moves(d, start, frames[0].moves);
        frames[0].next = 0;
        depth = 1;
    }
    while (!result && depth && best < top) {
        bs_frame_t *frame = &frames[depth - 1];
        if (frame->next == frame->count) { depth--; continue; }
        bs_state_t state = frame->moves[frame->next++].after;
        bs_key(d, state, key);
        if (table_get(&search->seen, key) >= 0) continue;
        result = tick(core);
        if (result) break;
        int gain = bs_gain(core, search->sc, state.pm, state.live);
        if (gain > best) best = gain;
        /* Only the states expanded are kept: one that cannot beat the best now never will. */
        if (bs_ceiling(core, search->sc, state) <= best) continue;
        if (!table_put(core, &search->seen, key, 1)) { result = CORE_FULL; break; }
        if (!reserve(core, (void **)&frames, &capacity, depth, sizeof(bs_frame_t))) { result = CORE_FULL; break; }
        frames[depth].count = bs_moves(d, state, frames[depth].moves);
        frames[depth++].next = 0;
    }
    core->bytes -= capacity * sizeof(bs_frame_t);
    free(frames);
    return result ? result : best;
}

static int entry_before(bs_entry_t a, bs_entry_t b) {
    if (a.estimate != b.estimate) return a.estimate < b.estimate;
    if (a.made != b.made) return a.made > b.made;
    return a.order < b.order;
}

static int heap_push(bs_search_t *search, bs_entry_t entry) {
    if (!reserve(search->core, (void **)&search->heap, &search->heap_capacity, search->heap_count, sizeof(bs_entry_t)))
        return 0;
    size_t at = search->heap_count++;
    while (at && entry_before(entry, search->heap[(at - 1) / 2])) {
        search->heap[at] = search->heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    search->heap[at] = entry;
    return 1;
}

static bs_entry_t heap_pop(bs_search_t *search) {
    bs_entry_t top = search->heap[0], last = search->heap[--search->heap_count];
    size_t at = 0, n = search->heap_count;
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_before(search->heap[child + 1], search->heap[child])) child++;
        if (!entry_before(search->heap[child], last)) break;
        search->heap[at] = search->heap[child];
        at = child;
    }
    if (n) search->heap[at] = last;
    return top;
}

/* BestScoreSearch.needed: at least how many moves take a state to `gain` (-1: never). */
static int bs_needed(const core_t *core, const best_scoring_t *sc, bs_state_t s, int gain) {
    int now = bs_gain(core, sc, s.pm, s.live);
    bs_outlook_t o = bs_outlook(core, sc, s.pm, bs_playable(core, s));
    if (bs_ceiling_of(sc, s.pm, now, o) < gain) return -1;
    if (now >= gain) return 0;
    if (sc->kind != SCORING_MSC) return 1;
    int shortfall = gain - now - o.bonus;
    int removals = shortfall <= 0 ? 0 : (shortfall + 4) / 5;
    return removals > 1 ? removals : 1;
}

/* A state met by the A* pass `moves` moves from the start: a new node, or a shorter way to one. */
static int bs_reach(bs_search_t *search, int32_t from, int32_t token, bs_state_t after, int moves, int gain,
                    int32_t *order) {
    core_t *core = search->core;
    uint64_t key[3];
    bs_key(&core->deal, after, key);
    int known = table_get(&search->seen, key);
    if (known >= 0 && (search->nodes[known].closed || search->nodes[known].moves <= moves)) return 0;
    int tick_result = tick(core);
    if (tick_result) return tick_result;
    int estimate = bs_needed(core, search->sc, after, gain);
    if (estimate < 0) return 0;
    if (known < 0) {
        if (!reserve(core, (void **)&search->nodes, &search->node_capacity, search->node_count, sizeof(bs_node_t))
            || search->node_count > INT32_MAX || !table_put(core, &search->seen, key, (int32_t)search->node_count))
            return CORE_FULL;
        known = (int32_t)search->node_count++;
        search->nodes[known].closed = 0;
    }
    bs_node_t *node = &search->nodes[known];
    node->state = after;  /* a shorter way may come to another state of the same key: the line replays this one */
    node->parent = from;
    node->token = token;
    node->moves = moves;
    bs_entry_t entry = {moves + estimate, moves, (*order)++, known};
    return heap_push(search, entry) ? 0 : CORE_FULL;
}

/* BestScoreSearch.shortest_to: the A* pass, the line onto core->path. 0, or < 0 to stop. */
static int bs_shortest_to(bs_search_t *search, bs_state_t start, int gain) {
    core_t *core = search->core;
    int32_t order = 0;
    int result = bs_reach(search, -1, 0, start, 0, gain, &order);
    int32_t goal = -1;
    while (!result && search->heap_count) {
        bs_entry_t entry = heap_pop(search);
        bs_node_t *node = &search->nodes[entry.node];
        if (node->closed || node->moves != entry.made) continue;
        node->closed = 1;
        bs_state_t state = node->state;
        if (bs_gain(core, search->sc, state.pm, state.live) >= gain) { goal = entry.node; break; }
        bs_move_t moves[96];
        int n = bs_moves(&core->deal, state, moves);
        for (int i = 0; !result && i < n; i++)
            result = bs_reach(search, entry.node, moves[i].token, moves[i].after, entry.made + 1, gain, &order);
    }
    if (result) return result;
    if (goal < 0) return CORE_BAD;  /* the gain the depth-first pass found is reachable */
    size_t length = 0;
    for (int32_t at = goal; search->nodes[at].parent >= 0; at = search->nodes[at].parent) length++;
    core->path_len = 0;
    if (!reserve(core, (void **)&core->path, &core->path_capacity, length, sizeof(int32_t))) return CORE_FULL;
    core->path_len = length;
    for (int32_t at = goal; search->nodes[at].parent >= 0; at = search->nodes[at].parent)
        core->path[--length] = search->nodes[at].token;
    return 0;
}

/* Both passes from (pm, live, q, r), the first from `floor` (a gain a known line reaches):
   CORE_WIN with *gain and the line, or < 0. */
int best_score_line(core_t *core, const best_scoring_t *sc, uint64_t pm, uint64_t live, int q, int r, int floor,
                    int *gain) {
    bs_state_t start = {pm, live, q, r, 0};
    bs_search_t search = {.core = core, .sc = sc};
    int result = table_init(core, &search.seen, 3) ? 0 : CORE_FULL;
    if (!result) result = bs_best_gain(&search, start, floor);
    if (result >= 0) {
        *gain = result;
        core->bytes -= table_bytes(&search.seen, search.seen.capacity);
        table_free(&search.seen);
        result = table_init(core, &search.seen, 3) ? bs_shortest_to(&search, start, *gain) : CORE_FULL;
    }
    core->bytes -= table_bytes(&search.seen, search.seen.capacity) + search.node_capacity * sizeof(bs_node_t)
                   + search.heap_capacity * sizeof(bs_entry_t);
    table_free(&search.seen);
    free(search.nodes);
    free(search.heap);
    return result ? result : CORE_WIN;
}
