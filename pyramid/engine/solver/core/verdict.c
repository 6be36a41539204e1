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

/* How many pyramids removals_to remembers as not reaching its `to` (direct-mapped; 0 is empty). */
#define FAILED_SLOTS 64

/* push_removals_to, with the pyramids found not to reach `to`: without them a wrong partner taken
   early would be tried again after every order of the removals made before it. */
static int removals_to(core_t *core, uint64_t pm, uint64_t to, uint64_t failed[FAILED_SLOTS]) {
    if (pm == to) return 1;
    size_t slot = (size_t)(mix(pm) & (FAILED_SLOTS - 1));
    if (failed[slot] == pm) return 0;
    const deal_t *d = &core->deal;
    uint64_t uncovered = uncovered_mask(pm), gone = pm & ~to;
    removal_t removals[64];
    int n = 0;
    for (uint64_t kings = uncovered & gone & d->rank_mask[d->target]; kings; kings &= kings - 1) {
        removals[n].a = (uint8_t)bit_index(kings);
        removals[n++].b = NO_CARD;
    }
    removal_t pairs[64];
    int m = pyramid_removals(d, pm, uncovered, pairs);
    for (int i = 0; i < m && n < 64; i++)
        if ((gone >> pairs[i].a & 1) && (gone >> pairs[i].b & 1)) removals[n++] = pairs[i];
    for (int i = 0; i < n; i++) {
        uint64_t after = pm & ~(1ULL << removals[i].a);
        if (removals[i].b != NO_CARD) after &= ~(1ULL << removals[i].b);
        if (!push_token(core, token_of(removals[i]))) return 0;
        if (removals_to(core, after, to, failed)) return 1;
        core->path_len--;
    }
    failed[slot] = pm;
    return 0;
}

/* Removals inside the pyramid that take `pm` to `to` (fewer cards), pushed onto the path: 1, or 0
   when none do (or the path cannot grow). Small: the cards between are those that free one card. */
static int push_removals_to(core_t *core, uint64_t pm, uint64_t to) {
    uint64_t failed[FAILED_SLOTS] = {0};
    return removals_to(core, pm, to, failed);
}

static void reverse_tokens(int32_t *tokens, size_t count) {
    for (size_t i = 0, j = count; i + 1 < j; i++, j--) {
        int32_t token = tokens[i];
        tokens[i] = tokens[j - 1];
        tokens[j - 1] = token;
    }
}

/* Put the tokens from `from` on before those from `at` (a line found below a move not yet on the
   path), in place: the two runs reversed each, then the whole. */
static void move_tokens_before(core_t *core, size_t at, size_t from) {
    reverse_tokens(core->path + at, from - at);
    reverse_tokens(core->path + from, core->path_len - from);
    reverse_tokens(core->path + at, core->path_len - at);
}

/* An open card (stock or waste place j) takes a pyramid card of the rank it needs, each after the
 * removals inside the pyramid that free it (freeing.c: no other removal inside the pyramid is made
 * by the search; a win below writes them into the line before the card taken). */
static int try_freed_takes(core_t *core, uint64_t pm, uint64_t live, int q, int r, int j) {
    const deal_t *d = &core->deal;
    int need = d->target - d->stock_rank[j];
    int64_t list = freeing(core, pm);
    if (list < 0) return (int)list;
    uint64_t at = 0;
    for (int64_t after; (after = next_freed(core, list, &at, need)) >= 0;) {
        uint64_t after_pm = (uint64_t)after, after_live = live & ~(1ULL << j);
        size_t depth = core->path_len;
        int after_q = next_live(d, after_live, q);
        int won = search(core, after_pm, forget_buried(d, after_pm, after_live, after_q, r), after_q, r);
        if (won != CORE_WIN) {
            if (won) return won;
            continue;
        }
        size_t line_end = core->path_len;
        for (uint64_t taken = pm & ~after_pm & d->rank_mask[need]; taken; taken &= taken - 1) {
            uint64_t freed = after_pm | low_bit(taken);
            if (!(uncovered_mask(freed) & low_bit(taken)) || !push_removals_to(core, pm, freed)) continue;
            removal_t take = {(uint8_t)bit_index(taken), (uint8_t)(STOCK_ID + j)};
            if (!push_token(core, token_of(take))) return CORE_FULL;
            move_tokens_before(core, depth, line_end);
            return CORE_WIN;
        }
        return core->full ? CORE_FULL : CORE_BAD;  /* freeing.c hands out only pyramids the removals reach */
    }
    return CORE_LOSE;
}

/* VerdictSearch._open_removals: the result, and *dominated when the rest of the walk is. In order:
 * the open kings, the open cards taking pyramid cards (put off: stock top, then waste top, each card
 * after the removals that free it, try_freed_takes), the stock top with the waste top. */
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
    int i = 0;
    for (; i < n && (forced || removals[i].b == NO_CARD); i++) {  /* open_removals: the open kings first */
        int won = try_removal(core, pm, live, q, r, removals[i]);
        if (won) return won;
        if (forced || king_dominates) {
            *dominated = 1;
            return CORE_LOSE;
        }
    }
    if (!core->pairs_first) {
        int open[2];
        open_cards(d, live, q, open);
        for (int k = 0; k < 2; k++) {
            if (open[k] < 0 || d->stock_rank[open[k]] >= d->target) continue;
            int won = try_freed_takes(core, pm, live, q, r, open[k]);
            if (won) return won;
        }
    }
    for (; i < n; i++) {
        if (!core->pairs_first && removals[i].a < STOCK_ID) continue;  /* taken above */
        int won = try_removal(core, pm, live, q, r, removals[i]);
        if (won) return won;
    }
    return CORE_LOSE;
}

/* VerdictSearch._walk: the one draw/redeal path, the open removals tried at each place. */
static int walk(core_t *core, uint64_t pm, uint64_t live, int q, int r, uint64_t uncovered) {
    const deal_t *d = &core->deal;
    int cycle_free = waste_top_free(d, r);
    uint64_t takeable = uncovered;  /* the cards an open card can take, some once freed */
    if (!core->pairs_first) {
        int64_t list = freeing(core, pm);
        if (list < 0) return (int)list;
        takeable |= core->frees[FREE_CARDS(list)];
    }
    uint64_t seen_q = 0, ranks_live = live, ranks = lost_ranks(d, live, r);
    size_t marks = core->mark_count;
    int result = CORE_LOSE, cycle_marked = 0;
    for (int first = 1;; first = 0) {
        if (seen_q >> q & 1) break;
        seen_q |= 1ULL << q;
        int open = open_removal_possible(d, takeable, live, q);
        if (first || open || cycle_free) {  /* a place with only a draw: marked where a walk starts (see _walk) */
            if (live != ranks_live) {
                ranks_live = live;
                ranks = lost_ranks(d, live, r);
            }
            uint64_t key[2];
            lost_key_ranked(d, pm, live, q, r, ranks, key);
            if (key[0] >> PYRAMID_BITS == CYCLE_MARK) {  /* the cycle's places: one key, this walk's mark */
                if (!cycle_marked) {
                    if (table_get(&core->lost, key) >= r) break;
                    if (!mark(core, key, r)) { result = CORE_FULL; break; }
                    cycle_marked = 1;
                }
            } else {
                if (!cycle_free && table_get(&core->lost, key) >= r) break;
                if (!mark(core, key, r)) { result = CORE_FULL; break; }
            }
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
    if (core->pairs_first) {
        if (!pm && !(d->goal_all && live)) return CORE_WIN;
    } else {  /* No removal inside the pyramid here but where it frees a card an open card takes
                 (freeing.c), or at the end, when those removals alone clear it. */
        int64_t list = freeing(core, pm);
        if (list < 0) return (int)list;
        if (FREE_CLEARS(core->frees[list]) && !(d->goal_all && live))
            return push_removals_to(core, pm, 0) ? CORE_WIN : core->full ? CORE_FULL : CORE_BAD;
    }
    int lost = settled_lost(core, pm, live, q, r);
    if (lost < 0) return lost;
    if (!lost) {
        uint64_t uncovered = uncovered_mask(pm);
        if (core->pairs_first) {
            removal_t removals[64];
            int n = pyramid_removals(d, pm, uncovered, removals);
            for (int i = 0; i < n; i++) {
                int won = try_removal(core, pm, live, q, r, removals[i]);
                if (won) return won;
            }
        }
        int won = walk(core, pm, live, q, r, uncovered);
        if (won) return won;
    }
    core->path_len = depth;
    return CORE_LOSE;
}
