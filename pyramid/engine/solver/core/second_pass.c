/* Two passes, the second pass: the decision diagram of the stocks and excursions over its nodes (TwoPasses in two_passes.py). */
#include "core.h"

DEFINE_SORT(sort_pairs, pair_t)

static uint64_t family_hash(const uint32_t *stocks, uint32_t count) {
    uint64_t h = count;
    for (uint32_t i = 0; i < count; i++) h = mix(h ^ stocks[i]) + i;
    return h;
}

static int node_grow_index(core_t *core);

/* The node of a family (sorted stocks, taken over by the node when new): its index, or -1. */
int32_t node_of(core_t *core, uint32_t *stocks, uint32_t count) {
    if (core->node_slots == 0 && !node_grow_index(core)) { free(stocks); return -1; }
    uint64_t h = family_hash(stocks, count);
    size_t mask = core->node_slots - 1, i = (size_t)h & mask;
    while (core->node_index[i] >= 0) {
        dd_node_t *node = &core->dd[core->node_index[i]];
        if (node->count == count && !memcmp(node->stocks, stocks, count * sizeof(uint32_t))) {
            free(stocks);
            return core->node_index[i];
        }
        i = (i + 1) & mask;
    }
    if (core->dd_count >= INT32_MAX
        || !reserve(core, (void **)&core->dd, &core->dd_capacity, core->dd_count, sizeof(dd_node_t))
        || core->bytes + count * sizeof(uint32_t) > core->byte_bound) {
        core->full = 1;
        free(stocks);
        return -1;
    }
    core->bytes += count * sizeof(uint32_t);
    dd_node_t *node = &core->dd[core->dd_count];
    node->stocks = stocks;
    node->count = count;
    node->cards = 0;
    for (uint32_t k = 0; k < count; k++) node->cards |= stocks[k];
    node->place = node->cards ? bit_index(node->cards) : core->deal.m;
    node->present = node->absent = -1;
    core->node_index[i] = (int32_t)core->dd_count;
    int32_t made = (int32_t)core->dd_count++;
    if (2 * core->dd_count > core->node_slots && !node_grow_index(core)) return -1;
    return made;
}

static int node_grow_index(core_t *core) {
    size_t slots = core->node_slots ? core->node_slots * 2 : 1024;
    if (core->bytes + (slots - core->node_slots) * sizeof(int32_t) > core->byte_bound) { core->full = 1; return 0; }
    int32_t *index = malloc(slots * sizeof(int32_t));
    if (!index) { core->full = 1; return 0; }
    for (size_t i = 0; i < slots; i++) index[i] = -1;
    for (size_t n = 0; n < core->dd_count; n++) {
        size_t i = (size_t)family_hash(core->dd[n].stocks, core->dd[n].count) & (slots - 1);
        while (index[i] >= 0) i = (i + 1) & (slots - 1);
        index[i] = (int32_t)n;
    }
    core->bytes += (slots - core->node_slots) * sizeof(int32_t);
    free(core->node_index);
    core->node_index = index;
    core->node_slots = slots;
    return 1;
}

/* TwoPasses._split: the stocks holding the node's next card (without it), and the others. */
static int split(core_t *core, int32_t at) {
    uint32_t count = core->dd[at].count, bit = 1u << core->dd[at].place;
    uint32_t *present = malloc((count ? count : 1) * sizeof(uint32_t)), *absent = malloc((count ? count : 1) * sizeof(uint32_t));
    if (!present || !absent) { free(present); free(absent); core->full = 1; return 0; }
    uint32_t with = 0, without = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t stock = core->dd[at].stocks[i];
        if (stock & bit) present[with++] = stock ^ bit;
        else absent[without++] = stock;
    }
    int32_t yes = node_of(core, present, with);
    if (yes < 0) { free(absent); return 0; }
    int32_t no = node_of(core, absent, without);
    if (no < 0) return 0;
    core->dd[at].present = yes;
    core->dd[at].absent = no;
    return 1;
}

/* Append an outcome to the region of the excursion `frame` is filling, unless the filter saw it
 * there already (a direct-mapped cache: what it misses, keep_pairs still drops). */
static int push_pair_value(core_t *core, pair_t pair, uint64_t frame) {
    uint64_t h = mix(pair ^ mix(frame)) & (PAIR_FILTER - 1);
    if (core->pair_filter[h].pair == pair && core->pair_filter[h].frame == frame) return 1;
    core->pair_filter[h].pair = pair;
    core->pair_filter[h].frame = frame;
    if (!reserve(core, (void **)&core->pair_scratch, &core->pair_scratch_capacity, core->pair_scratch_count, sizeof(pair_t)))
        return 0;
    core->pair_scratch[core->pair_scratch_count++] = pair;
    return 1;
}

/* Where node_excursion put its key (see there): the slot and the table's capacity then. */
typedef struct { size_t slot, capacity; } placed_t;

static int64_t keep_pairs(core_t *core, const uint64_t key[1], placed_t placed, size_t start) {
    pair_t *region = core->pair_scratch + start;
    size_t n = core->pair_scratch_count - start, kept = 0;
    sort_pairs(region, n);
    for (size_t i = 0; i < n; i++)
        if (!kept || region[kept - 1] != region[i]) region[kept++] = region[i];
    core->pair_scratch_count = start;
    size_t index = 0;
    if (kept) {
        index = core->pair_count;
        size_t needed = index + kept + 1;
        if (!reserve(core, (void **)&core->pairs, &core->pair_capacity, needed - 1, sizeof(pair_t))) return CORE_FULL;
        region = core->pair_scratch + start;
        core->pairs[index] = kept;
        memcpy(core->pairs + index + 1, region, kept * sizeof(pair_t));
        core->pair_count = needed;
    }
    if (index > INT32_MAX) { core->full = 1; return CORE_FULL; }
    table_t *t = &core->node_excursions;
    if (t->capacity == placed.capacity) t->values[placed.slot] = (int32_t)index;  /* no key moves but by growing */
    else if (!table_put(core, t, key, (int32_t)index)) return CORE_FULL;
    return (int64_t)index;
}

static int64_t node_excursion(core_t *core, uint64_t pm, int card, int32_t node);

static int follow_node(core_t *core, uint64_t pm, int card, int32_t node, uint64_t frame) {
    int64_t found = node_excursion(core, pm, card, node);
    if (found < 0) return (int)found;
    uint64_t count = (uint64_t)core->pairs[found];
    for (uint64_t i = 0; i < count; i++)
        if (!push_pair_value(core, core->pairs[found + 1 + i], frame)) return CORE_FULL;
    return 0;
}

/* The filter of pairs already pushed in a frame, made at the first node excursion. 0, or CORE_FULL. */
static int pair_filter_ready(core_t *core) {
    if (core->pair_filter) return 0;
    core->pair_filter = calloc(PAIR_FILTER, sizeof(*core->pair_filter));
    if (!core->pair_filter) { core->full = 1; return CORE_FULL; }
    core->bytes += PAIR_FILTER * sizeof(*core->pair_filter);
    return 0;
}

/* The card leaves with a pyramid card, after the removals inside the pyramid that free it (an
   outcome; freeing.c says why no other removal inside it is made here). */
static int node_pyramid_moves(core_t *core, uint64_t pm, int card, int32_t node, uint64_t frame) {
    int64_t list = freeing(core, pm);
    if (list < 0) return (int)list;
    uint64_t at = 0;
    for (int64_t after; (after = next_freed(core, list, &at, core->deal.target - card)) >= 0;)
        if (!push_pair_value(core, PAIR((uint64_t)after, node), frame)) return CORE_FULL;
    return 0;
}

/* The stock's next card, in the stocks of `node` that lack it and in those that hold it: a king
   leaves, the card pairs with it (an outcome), a pyramid card does, or its own excursion runs. */
static int node_stock_moves(core_t *core, uint64_t pm, int card, int32_t node, uint64_t frame) {
    const deal_t *d = &core->deal;
    if (core->dd[node].present < 0 && !split(core, node)) return CORE_FULL;
    int32_t absent = core->dd[node].absent, down = core->dd[node].present;
    if (absent) {
        int stop = follow_node(core, pm, card, absent, frame);
        if (stop) return stop;
    }
    if (!down) return 0;
    int top = d->stock_rank[core->dd[node].place];
    if (top == d->target) return follow_node(core, pm, card, down, frame);
    if (d->stock_top_playable) {
        if (top == d->target - card && !push_pair_value(core, PAIR(pm, down), frame)) return CORE_FULL;
        int64_t list = freeing(core, pm);
        if (list < 0) return (int)list;
        uint64_t at = 0;
        for (int64_t after; (after = next_freed(core, list, &at, d->target - top)) >= 0;) {
            int stop = follow_node(core, (uint64_t)after, card, down, frame);
            if (stop) return stop;
        }
    }
    int64_t nested = node_excursion(core, pm, top, down);
    if (nested < 0) return (int)nested;
    uint64_t count = (uint64_t)core->pairs[nested];
    for (uint64_t i = 0; i < count; i++) {
        pair_t inner = core->pairs[nested + 1 + i];  /* copied: the arena may move */
        int stop = follow_node(core, PAIR_PM(inner), card, PAIR_NODE(inner), frame);
        if (stop) return stop;
    }
    return 0;
}

/* TwoPasses._excursion: LastPass.excursion over the stocks of `node`; outcomes (pyramid, node).
 * An excursion not known yet takes its slot at once (value -1, "not known": one asked again after
 * a search called off is made again), and keep_pairs fills it in: one probe, not two (the
 * excursions nested in it cannot be it: each draws a card or takes a pyramid card). */
static int64_t node_excursion(core_t *core, uint64_t pm, int card, int32_t node) {
    const deal_t *d = &core->deal;
    uint64_t key[1] = {PAIR(pm, node) | (uint64_t)card << 60};
    table_t *t = &core->node_excursions;
    int added;
    int32_t *entry = table_entry(core, t, key, -1, &added);
    if (!entry) return CORE_FULL;
    if (*entry >= 0) return *entry;
    placed_t placed = {(size_t)(entry - t->values), t->capacity};
    if (!d->goal_all) {  /* the pyramid clears here by its own removals */
        int64_t list = freeing(core, pm);
        if (list < 0) return (int)list;
        if (FREE_CLEARS(core->frees[list])) return CORE_CLEARED;
    }
    int need = d->target - card;
    size_t start = core->pair_scratch_count;
    uint32_t cards = core->dd[node].cards;
    if ((!(pm & d->rank_mask[need]) && !(d->stock_top_playable && (d->stock_rank_mask[need] & cards)))
        || is_short(core, pm))
        return keep_pairs(core, key, placed, start);
    int stop = tick(core);
    if (!stop) stop = pair_filter_ready(core);
    if (stop) return stop;
    uint64_t frame = ++core->pair_frames;
    stop = node_pyramid_moves(core, pm, card, node, frame);
    if (!stop && cards) stop = node_stock_moves(core, pm, card, node, frame);
    if (stop) return stop;
    return keep_pairs(core, key, placed, start);
}

/* TwoPasses._second_pass_wins: does some stock of the family at `root` clear `pm` in the last pass? */
int second_pass_wins(core_t *core, uint64_t pm, int32_t root) {
    const deal_t *d = &core->deal;
    int target = d->target, stock_top_playable = d->stock_top_playable, goal_all = d->goal_all;
    table_t seen;
    pair_t *todo = NULL;
    size_t todo_count = 0, todo_capacity = 0;
    if (!table_init(core, &seen, 1)) { core->full = 1; return CORE_FULL; }
    int result = CORE_LOSE;
#define PUSH_STATE(P, N) do { if (!reserve(core, (void **)&todo, &todo_capacity, todo_count, sizeof(pair_t))) { result = CORE_FULL; goto done; } \
        todo[todo_count++] = PAIR((P), (N)); } while (0)
    PUSH_STATE(pm, root);
    while (todo_count) {
        pair_t state = todo[--todo_count];
        uint64_t key[1] = {state};
        if (table_get(&seen, key) >= 0 || table_get(&core->second_lost, key) >= 0) continue;
        if (!table_put(core, &seen, key, 1)) { result = CORE_FULL; goto done; }
        int over = tick(core);
        if (over) { result = over; goto done; }
        uint64_t here = PAIR_PM(state);
        int32_t node = PAIR_NODE(state);
        uint64_t cards = core->dd[node].cards;
        int64_t list = freeing(core, here);
        if (list < 0) { result = (int)list; goto done; }
        if (FREE_CLEARS(core->frees[list]) && (!goal_all || !cards)) { result = CORE_WIN; goto done; }
        if (!cards || needs_more(core, here, cards)) continue;
        int won = relaxed_can_win(core, here, cards, next_live(d, cards, 0), 0);
        if (won < 0) { result = won; goto done; }
        if (!won) continue;
        if (core->dd[node].present < 0 && !split(core, node)) { result = CORE_FULL; goto done; }
        if (core->dd[node].absent) PUSH_STATE(here, core->dd[node].absent);
        int32_t down = core->dd[node].present;
        if (!down) continue;
        int top = d->stock_rank[core->dd[node].place];
        if (top == target || !goal_all) PUSH_STATE(here, down);  /* a king leaves, or a burial */
        if (top == target) continue;
        if (stock_top_playable) {
            uint64_t at = 0;
            for (int64_t after; (after = next_freed(core, list, &at, target - top)) >= 0;) PUSH_STATE((uint64_t)after, down);
        }
        int64_t found = node_excursion(core, here, top, down);
        if (found < 0) { result = found == CORE_CLEARED ? CORE_WIN : (int)found; goto done; }
        uint64_t count = (uint64_t)core->pairs[found];
        for (uint64_t i = 0; i < count; i++) PUSH_STATE(PAIR_PM(core->pairs[found + 1 + i]), PAIR_NODE(core->pairs[found + 1 + i]));
    }
    for (size_t i = 0; i < seen.capacity; i++)  /* the family's pass is lost from every state it met */
        if (seen.tags[i] && !table_put(core, &core->second_lost, seen.keys + i, 1)) { result = CORE_FULL; break; }
done:
#undef PUSH_STATE
    core->pair_scratch_count = 0;
    core->bytes -= table_bytes(&seen, seen.capacity) + todo_capacity * sizeof(pair_t);
    table_free(&seen);
    free(todo);
    return result;
}
