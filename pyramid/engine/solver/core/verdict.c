/* The verdict search (VerdictSearch in verdict.py). */
#include "core.h"

int push_token(core_t *core, int32_t token) {
    if (!reserve(core, (void **)&core->path, &core->path_capacity, core->path_len, sizeof(int32_t))) return 0;
    core->path[core->path_len++] = token;
    return 1;
}

/* A mark of a walk (VerdictSearch._walk): the key and what the table held before. */
static int mark(core_t *core, const uint64_t key[2], int r) {
    if (!reserve(core, (void **)&core->marks, &core->mark_capacity, core->mark_count, sizeof(mark_t))) return 0;
    mark_t *marked = &core->marks[core->mark_count++];
    memcpy(marked->key, key, sizeof(marked->key));
    marked->before = table_get(&core->lost, key);
    return table_put(core, &core->lost, key, r);
}

/* VerdictSearch._unmark: take back the marks from `start` on, the last first. */
static void unmark(core_t *core, size_t start) {
    while (core->mark_count > start) {
        const mark_t *marked = &core->marks[--core->mark_count];
        size_t i = slot_of(&core->lost, marked->key);
        if (core->lost.tags[i]) core->lost.values[i] = marked->before;
    }
}


/* VerdictSearch._settled_lost: 1 lost, 0 not known, < 0 stop. */
static int settled_lost(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    if (is_lost(core, pm, live)) return 1;
    if (!r && d->goal_all && waste_stranded(d, pm, live, q)) return 1;
    uint64_t key[2];
    lost_key(d, pm, live, q, r, key);
    if (table_get(&core->lost, key) >= r) return 1;
    int won = relaxed_can_win(core, pm, live, q, r);
    if (won < 0) return won;
    if (!won) return 1;
    return !r && core->last_pass_on ? last_pass_lost(core, pm, live, q) : 0;
}

/* A removal onto the path and the search from there: its answer, the path as before unless won. */
static int try_removal(core_t *core, uint64_t pm, uint64_t live, int q, int r, removal_t removal) {
    if (!push_token(core, token_of(removal))) return CORE_FULL;
    state_t after = apply_removal(&core->deal, pm, live, q, r, removal);
    int won = search(core, after.pm, after.live, after.q, r);
    if (!won) core->path_len--;
    return won;
}

/* VerdictSearch._open_removals: the result, and *dominated when the rest of the walk is. */
static int try_open_removals(core_t *core, uint64_t pm, uint64_t live, int q, int r, uint64_t uncovered,
                             int *dominated) {
    const deal_t *d = &core->deal;
    removal_t removals[16];
    /* VerdictSearch.king_dominates: with one-card draws always; with more, in the last pass when only
       the waste top plays (a card gone earlier shifts which cards the later draws turn up). */
    int king_dominates = d->draw_count == 1 || (!r && !d->stock_top_playable), n, forced = 0;
    if (king_dominates && forced_open_removal(d, pm, uncovered, live, q, removals)) {
        n = 1;
        forced = 1;
    } else {
        n = open_removals(d, uncovered, live, q, removals);
    }
    *dominated = 0;
    for (int i = 0; i < n; i++) {
        int won = try_removal(core, pm, live, q, r, removals[i]);
        if (won) return won;
        if (forced || (king_dominates && removals[i].b == NO_CARD)) {
            *dominated = 1;
            return CORE_LOSE;
        }
    }
    return CORE_LOSE;
}

/* VerdictSearch._walk: the one draw/redeal path, the open removals tried at each place. */
static int walk(core_t *core, uint64_t pm, uint64_t live, int q, int r, uint64_t uncovered) {
    const deal_t *d = &core->deal;
    int cycle_free = waste_top_free(d, r);
    uint64_t seen_q = 0, ranks_live = live, ranks = lost_ranks(d, live, r);
    size_t marks = core->mark_count;
    int result = CORE_LOSE;
    for (int first = 1;; first = 0) {
        if (seen_q >> q & 1) break;
        seen_q |= 1ULL << q;
        int open = open_removal_possible(d, uncovered, live, q);
        if (first || open || cycle_free) {  /* a place with only a draw: marked where a walk starts (see _walk) */
            if (live != ranks_live) {
                ranks_live = live;
                ranks = lost_ranks(d, live, r);
            }
            uint64_t key[2];
            lost_key_ranked(d, pm, live, q, r, ranks, key);
            if (!cycle_free && table_get(&core->lost, key) >= r) break;
            if (!mark(core, key, r)) { result = CORE_FULL; break; }
        }
        if (!r && d->goal_all && waste_stranded(d, pm, live, q)) break;
        if (open) {
            if (!r) {
                int won = relaxed_can_win(core, pm, live, q, r);
                if (won < 0) { result = won; break; }
                if (!won) break;
            }
            int dominated;
            result = try_open_removals(core, pm, live, q, r, uncovered, &dominated);
            if (result) break;
            if (dominated) break;
        }
        if (q < d->m) {
            q = after_draw(d, live, q);
            live = forget_buried(d, pm, live, q, r);
            if (!push_token(core, DRAW_TOKEN)) { result = CORE_FULL; break; }
            continue;
        }
        if (live && r) {
            q = next_live(d, live, 0);
            if (r != UNLIMITED) r--;
            if (!push_token(core, REDEAL_TOKEN)) { result = CORE_FULL; break; }
            continue;
        }
        break;
    }
    if (result) unmark(core, marks);  /* a win, or no answer: the marks are no proofs */
    else core->mark_count = marks;    /* a loss: they are */
    return result;
}

/* VerdictSearch.search (with VerdictSearch._play_forced): 1 won (its line on core->path), 0 lost. */
int search(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    int over = tick(core);
    if (over) return over;
    size_t depth = core->path_len;
    removal_t forced;
    if (forced_removal(d, pm, uncovered_mask(pm), live, &forced)) {
        do {
            if (!push_token(core, token_of(forced))) return CORE_FULL;
            pm &= ~(1ULL << forced.a);
            if (forced.b != NO_CARD) pm &= ~(1ULL << forced.b);
        } while (forced_removal(d, pm, uncovered_mask(pm), live, &forced));
        live = forget_buried(d, pm, live, q, r);
    }
    if (!pm && !(d->goal_all && live)) return CORE_WIN;
    int lost = settled_lost(core, pm, live, q, r);
    if (lost < 0) return lost;
    if (!lost) {
        uint64_t uncovered = uncovered_mask(pm);
        removal_t removals[64];
        int n = pyramid_removals(d, pm, uncovered, removals);
        for (int i = 0; i < n; i++) {
            int won = try_removal(core, pm, live, q, r, removals[i]);
            if (won) return won;
        }
        int won = walk(core, pm, live, q, r, uncovered);
        if (won) return won;
    }
    core->path_len = depth;
    return CORE_LOSE;
}
