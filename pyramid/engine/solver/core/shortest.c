/* The shortest solution: A* with an admissible bound, pruned by the verdict search's tables
 * (ShortestSearch in shortest.py, whose docstrings say why each step is sound). */
#include "core.h"

/* A position on A*'s open list: its state's record, its distance, whether a draw or redeal reached it. */
typedef struct {
    uint64_t pm, live;
    int32_t state;
    uint16_t g;
    uint8_t q, r, drew;
} open_t;

typedef struct {
    open_t *items;
    size_t count, capacity;
} bucket_t;

/* The record of states: each state's distance and previous state, and its key (ShortestSearch._state)
   in the index alone (the line is found again through it: no second copy of every key). */
typedef struct {
    table_t index;       /* key -> state */
    int32_t *distance, *parent;
    size_t count, parent_capacity, distance_capacity;
    bucket_t *buckets;   /* by f */
    size_t bucket_count;
} astar_t;

/* A move A* tries, and where it leads (ShortestSearch._successors). */
typedef struct {
    int32_t token;
    state_t after;
    int r;
} successor_t;

/* ShortestSearch._state: the pyramid, the waste size, the ranks in drawing order (as rank_places:
   at most 31 bits), the redeals left (six bits, UNLIMITED too): two words where four were. */
static void state_key(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t key[2]) {
    key[0] = pm | (uint64_t)popcount(live & below(q)) << PYRAMID_BITS;
    key[1] = rank_places(d, live) | (uint64_t)r << 58;
}

/* ShortestSearch.bound */
static int bound(const core_t *core, uint64_t pm, uint64_t live) {
    const deal_t *d = &core->deal;
    if (!d->goal_all) {
        int needs[MAX_RANK + 1];
        return pyramid_needs(core, pm, needs);
    }
    int total = popcount(d->rank_mask[d->target] & pm) + popcount(d->stock_rank_mask[d->target] & live);
    for (int p = 0; p < core->rank_pair_count; p++) {
        int low = core->rank_pairs[p][0], high = core->rank_pairs[p][1];
        int a = popcount(d->rank_mask[low] & pm) + popcount(d->stock_rank_mask[low] & live);
        if (low == high) {
            total += (a + 1) / 2;
            continue;
        }
        int b = popcount(d->rank_mask[high] & pm) + popcount(d->stock_rank_mask[high] & live);
        total += a > b ? a : b;
    }
    return total;
}

/* ShortestSearch._successors: the forced removal alone, or the open removals (and the pyramid's
 * own when no draw or redeal led here), a draw, a redeal. At most 16 + 64 + 1. */
static int successors(const core_t *core, uint64_t pm, uint64_t live, int q, int r, int drew, successor_t out[96]) {
    const deal_t *d = &core->deal;
    uint64_t uncovered = uncovered_mask(pm);
    removal_t removals[96];
    int n, count = 0;
    if (forced_removal(d, pm, uncovered, live, removals)) {
        out[0].token = token_of(removals[0]);
        out[0].after = apply_removal(d, pm, live, q, r, removals[0]);
        out[0].r = r;
        return 1;
    }
    n = open_removals(d, uncovered, live, q, removals);
    if (!drew) n += pyramid_removals(d, pm, uncovered, removals + n);
    for (int i = 0; i < n; i++) {
        out[count].token = token_of(removals[i]);
        out[count].after = apply_removal(d, pm, live, q, r, removals[i]);
        out[count++].r = r;
    }
    if (q < d->m) {
        /* drawing a stock-top king that could leave at once only buries the waste */
        int king_leaves_instead = d->stock_top_playable && d->draw_count == 1 && d->stock_rank[q] == d->target;
        if (!king_leaves_instead) {
            int new_q = after_draw(d, live, q);
            out[count].token = DRAW_TOKEN;
            out[count].after.pm = pm;
            out[count].after.q = new_q;
            out[count].after.live = forget_buried(d, pm, live, new_q, r);
            out[count++].r = r;
        }
    } else if (live && r) {
        out[count].token = REDEAL_TOKEN;
        out[count].after.pm = pm;
        out[count].after.live = live;
        out[count].after.q = next_live(d, live, 0);
        out[count++].r = r == UNLIMITED ? r : r - 1;
    }
    return count;
}

/* ShortestSearch._new_state_lost: known lost (hopeless, in the loss table with as many redeals,
 * lost in its relaxed game): 1, 0, or < 0 to stop. */
static int new_state_lost(core_t *core, int32_t token, uint64_t pm, uint64_t live, int q, int r) {
    if (token != DRAW_TOKEN && token != REDEAL_TOKEN && is_lost(core, pm, live)) return 1;
    uint64_t key[2];
    lost_key(&core->deal, pm, live, q, r, key);
    if (table_get(&core->lost, key) >= r) return 1;
    int won = relaxed_can_win(core, pm, live, q, r);
    return won < 0 ? won : !won;
}

/* A state's record: its index (new ones recorded with `distance` and `parent`), or < 0. */
static int32_t record(core_t *core, astar_t *search, const uint64_t key[2], int distance, int32_t parent) {
    if (!reserve(core, (void **)&search->distance, &search->distance_capacity, search->count, sizeof(int32_t))
        || !reserve(core, (void **)&search->parent, &search->parent_capacity, search->count, sizeof(int32_t))
        || !table_put(core, &search->index, key, (int32_t)search->count))
        return CORE_FULL;
    search->distance[search->count] = distance;
    search->parent[search->count] = parent;
    return (int32_t)search->count++;
}

static int push_open(core_t *core, astar_t *search, int f, open_t entry) {
    if ((size_t)f >= search->bucket_count) {
        size_t count = (size_t)f + 64;
        bucket_t *more = realloc(search->buckets, count * sizeof(bucket_t));
        if (!more) { core->full = 1; return CORE_FULL; }
        memset(more + search->bucket_count, 0, (count - search->bucket_count) * sizeof(bucket_t));
        search->buckets = more;
        search->bucket_count = count;
    }
    bucket_t *bucket = &search->buckets[f];
    if (!reserve(core, (void **)&bucket->items, &bucket->capacity, bucket->count, sizeof(open_t))) return CORE_FULL;
    bucket->items[bucket->count++] = entry;
    return 0;
}

/* ShortestSearch._line: the moves from the start to `goal`, replayed forward along its states. */
static int line_to(core_t *core, astar_t *search, int32_t goal, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    size_t steps = 0;
    for (int32_t at = goal; search->parent[at] >= 0; at = search->parent[at]) steps++;
    if (!reserve(core, (void **)&core->path, &core->path_capacity, steps, sizeof(int32_t))) return CORE_FULL;
    core->path_len = steps;
    for (int32_t at = goal; search->parent[at] >= 0; at = search->parent[at]) core->path[--steps] = at;
    for (size_t step = 0; step < core->path_len; step++) {
        int32_t wanted = core->path[step];
        successor_t moves[96];
        int n = successors(core, pm, live, q, r, 0, moves), found = 0;
        for (int i = 0; i < n && !found; i++) {
            uint64_t key[2];
            state_key(d, moves[i].after.pm, moves[i].after.live, moves[i].after.q, moves[i].r, key);
            if (table_get(&search->index, key) != wanted) continue;
            core->path[step] = moves[i].token;
            pm = moves[i].after.pm, live = moves[i].after.live, q = moves[i].after.q, r = moves[i].r;
            found = 1;
        }
        if (!found) return CORE_BAD;  /* a state of the line has no move leading to it */
    }
    return CORE_WIN;
}

/* ShortestSearch.run, after a verdict search that won from the same position (its tables prune). */
static int run_astar(core_t *core, astar_t *search, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    uint64_t key[2];
    state_key(d, pm, live, q, r, key);
    int32_t start = record(core, search, key, 0, -1);
    if (start < 0) return start;
    open_t first = {pm, live, start, 0, (uint8_t)q, (uint8_t)r, 0};
    int result = push_open(core, search, bound(core, pm, live), first);
    for (size_t f = 0; !result && f < search->bucket_count; f++) {
        bucket_t *bucket = &search->buckets[f];
        while (!result && bucket->count) {
            open_t entry = bucket->items[--bucket->count];
            if (search->distance[entry.state] < entry.g) continue;  /* reached again by a shorter line since */
            int over = tick(core);
            if (over) return over;
            if (!entry.pm && !(d->goal_all && entry.live)) return line_to(core, search, entry.state, pm, live, q, r);
            successor_t moves[96];
            int n = successors(core, entry.pm, entry.live, entry.q, entry.r, entry.drew, moves);
            int g = entry.g + 1;
            for (int i = 0; !result && i < n; i++) {
                state_t after = moves[i].after;
                state_key(d, after.pm, after.live, after.q, moves[i].r, key);
                int32_t known = table_get(&search->index, key);
                if (known >= 0 && search->distance[known] <= g) continue;
                if (known < 0) {
                    int lost = new_state_lost(core, moves[i].token, after.pm, after.live, after.q, moves[i].r);
                    if (lost < 0) return lost;
                    if (lost) continue;  /* (a state met before passed these tests then) */
                    known = record(core, search, key, g, entry.state);
                    if (known < 0) return known;
                } else {
                    search->distance[known] = g;
                    search->parent[known] = entry.state;
                }
                int new_f = g + bound(core, after.pm, after.live);
                open_t child = {after.pm, after.live, known, (uint16_t)g, (uint8_t)after.q, (uint8_t)moves[i].r,
                                moves[i].token == DRAW_TOKEN || moves[i].token == REDEAL_TOKEN};
                result = push_open(core, search, new_f > (int)f ? new_f : (int)f, child);
                bucket = &search->buckets[f];  /* the buckets may have moved */
            }
        }
    }
    return result ? result : CORE_BAD;  /* a won position has a line */
}

/* The shortest line from (pm, live, q, r), which a verdict just won: CORE_WIN (the line in
 * core_line), CORE_OVER or CORE_FULL; the budget is the verdict's, going on. */
int shortest_line(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    astar_t search = {0};
    if (!table_init(core, &search.index, 2)) { core->full = 1; return CORE_FULL; }
    int result = run_astar(core, &search, pm, live, q, r);
    core->bytes -= table_bytes(&search.index, search.index.capacity)
                   + (search.distance_capacity + search.parent_capacity) * sizeof(int32_t);
    table_free(&search.index);
    free(search.distance); free(search.parent);
    for (size_t f = 0; f < search.bucket_count; f++) {
        core->bytes -= search.buckets[f].capacity * sizeof(open_t);
        free(search.buckets[f].items);
    }
    free(search.buckets);
    return result;
}
