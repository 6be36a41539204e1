/* The entry points compiled.py calls (through ctypes). */
#include "core.h"

/* A core for one deal, or NULL when the deal is not one this core can hold or memory is short. */
core_t *core_new(const deal_t *deal, int64_t byte_bound) {
    if (deal->m < 0 || deal->m > MAX_CARDS - 1 || deal->target < 2 || deal->target > MAX_RANK - 2
        || deal->draw_count < 1 || deal->draw_count > MAX_CARDS || byte_bound <= 0)
        return NULL;
    /* The pyramid's cards: in Position's layout (keys pack it: pack_pyramid), in rows from the top
       that with the stock's cards take at most 52 bits (bs_key). */
    uint64_t places = 0;
    for (int bit = 0; bit < PYRAMID_BITS; bit++) {
        if (deal->rank[bit] > deal->target) return NULL;
        if (deal->rank[bit]) places |= 1ULL << bit;
    }
    int rows = places ? (63 - __builtin_clzll(places)) / ROW_STRIDE + 1 : 0;
    if ((places & ~PYRAMID_LAYOUT) || rows * (rows + 1) / 2 + deal->m > 52) return NULL;
    for (int j = 0; j < deal->m; j++)
        if (deal->stock_rank[j] < 1 || deal->stock_rank[j] > deal->target) return NULL;
    core_t *core = calloc(1, sizeof(core_t));
    if (!core) return NULL;
    core->deal = *deal;
    core->byte_bound = (size_t)byte_bound;
    for (int low = 1; low < (deal->target + 1) / 2; low++) {
        core->rank_pairs[core->rank_pair_count][0] = low;
        core->rank_pairs[core->rank_pair_count++][1] = deal->target - low;
    }
    if (deal->target % 2 == 0) {
        core->rank_pairs[core->rank_pair_count][0] = deal->target / 2;
        core->rank_pairs[core->rank_pair_count++][1] = deal->target / 2;
    }
    for (int rank = 0; rank <= deal->target; rank++) core->supply[rank] = popcount(deal->stock_rank_mask[rank] & deal->start_live);
    for (size_t slot = 0; slot < PYRAMID_SLOTS; slot++) core->short_pm[slot] = core->needs_pm[slot] = core->free_pm[slot] = UINT64_MAX;
    int ok = table_init(core, &core->lost, 2) && table_init(core, &core->asked, 4)
             && table_init(core, &core->won, 4) && table_init(core, &core->shapes, 3)
             && table_init(core, &core->excursions, 3) && table_init(core, &core->node_excursions, 1)
             && table_init(core, &core->second_lost, 1)
             && table_init(core, &core->free_index, 1) && table_init(core, &core->lattice, 1)
             && reserve(core, (void **)&core->outcomes, &core->outcome_capacity, 0, sizeof(uint64_t))
             && reserve(core, (void **)&core->pairs, &core->pair_capacity, 0, sizeof(pair_t));
    if (ok) {  /* index 0 of both: the empty list */
        core->outcomes[core->outcome_count++] = 0;
        core->pairs[0] = 0;
        core->pair_count = 1;
    }
    /* The two-pass search's excursions: hundreds of thousands on a hard deal, met at random; each
       doubling read them all again (6% of its time, perf). */
    core->node_excursions.quadruples = 1;
    if (!ok) {
        core_free(core);
        return NULL;
    }
    return core;
}

void core_free(core_t *core) {
    if (!core) return;
    table_free(&core->lost); table_free(&core->asked); table_free(&core->won); table_free(&core->shapes);
    table_free(&core->excursions); table_free(&core->node_excursions); table_free(&core->second_lost);
    table_free(&core->free_index); table_free(&core->lattice);
    free(core->frees); free(core->lattice_pm); free(core->lattice_put_off);
    for (size_t n = 0; n < core->dd_count; n++) free(core->dd[n].stocks);
    free(core->dd); free(core->node_index); free(core->pairs); free(core->pair_scratch); free(core->pair_filter);
    free(core->heads); free(core->nodes); free(core->marks); free(core->path); free(core->outcomes); free(core->scratch);
    free(core);
}

/* What the core's tables hold, in bytes. */
int64_t core_bytes(const core_t *core) { return (int64_t)core->bytes; }

/* A question's set-up: 0, or why it cannot be asked (CORE_FULL, CORE_BAD). */
static int ask(core_t *core, uint64_t pm, uint64_t live, int q, int r, int64_t max_nodes, double max_seconds,
               cancelled_fn cancelled) {
    const deal_t *d = &core->deal;
    core->budget.nodes = 0;
    if (core->full) return CORE_FULL;
    if ((pm & ~((1ULL << PYRAMID_BITS) - 1)) || (d->m < 64 && (live >> d->m)) || q < 0 || q > d->m
        || r < 0 || r > UNLIMITED)
        return CORE_BAD;
    for (uint64_t rest = pm; rest; rest &= rest - 1)
        if (!d->rank[bit_index(rest)]) return CORE_BAD;
    core->budget.max_nodes = max_nodes;
    core->budget.share_until = -1;
    core->budget.deadline = max_seconds < 0 ? -1.0 : now() + max_seconds;
    core->budget.cancelled = cancelled;
    core->budget.next_ask = 0;
    core->path_len = 0;
    core->mark_count = 0;
    core->scratch_count = 0;
    core->last_pass_on = 0;
    core->pairs_first = 0;
    return 0;
}

/* A question's end: the nodes it took, and no line unless it won. */
static int answered(core_t *core, int result, int64_t *nodes) {
    *nodes = core->budget.nodes;
    core->budget.cancelled = NULL;
    if (result != CORE_WIN) core->path_len = 0;
    return result;
}

/* verdict.two_passes_verdict: where a winning line redeals, its first pass to there, and the rest
 * by the search with the last pass. */
static int two_passes_verdict(core_t *core, uint64_t pm, uint64_t live, int q) {
    core->path_len = 0;
    core->mark_count = 0;
    int result = winning_redeal(core, pm, live, q);
    core->pair_scratch_count = 0;
    core->last_pass_on = 1;
    core->win_ahead = 0;
    if (result == CORE_CLEARED) return search(core, pm, live, q, 0);  /* a line that never redeals */
    if (result != CORE_WIN) return result;
    result = first_pass_line(core, pm, live, q, core->redeal_pm, core->redeal_live);
    if (!result) result = push_token(core, REDEAL_TOKEN) ? 0 : CORE_FULL;
    if (!result) result = search(core, core->redeal_pm, core->redeal_live, next_live(&core->deal, core->redeal_live, 0), 0);
    return result == CORE_LOSE ? CORE_BAD : result;  /* the redeal found must win */
}

/* verdict.run_verdict: with one-card draws and a probe, the plain search first for probe_nodes
 * nodes, then the last pass or (one redeal left) the two-pass search. */
static int run_verdict(core_t *core, uint64_t pm, uint64_t live, int q, int r, int64_t probe_nodes) {
    if (probe_nodes < 0 || core->deal.draw_count != 1) {
        core->budget.share_until = -1;
        return search(core, pm, live, q, r);
    }
    core->budget.share_until = probe_nodes;
    int result = search(core, pm, live, q, r);
    core->budget.share_until = -1;
    if (result != CORE_QUICK) return result;
    if (r == 1) return two_passes_verdict(core, pm, live, q);
    core->path_len = 0;
    core->last_pass_on = 1;
    core->win_ahead = 0;
    return search(core, pm, live, q, r);
}

/* The verdict from (pm, live, q, r): CORE_WIN (the line in core_line), CORE_LOSE, CORE_OVER
 * (budget spent or called off), CORE_FULL (the byte bound reached: start again with a new core)
 * or CORE_BAD (a position this deal cannot hold). max_nodes < 0 and max_seconds < 0 mean none.
 * With one-card draws and probe_nodes >= 0, the plain search has probe_nodes nodes first, then
 * searches again with the last pass by excursions (verdict.run_verdict), or, with one redeal left,
 * asks the two-pass search (verdict.two_passes_verdict). pairs_first: every removal inside the
 * pyramid tried first at each position (VerdictSearch.pairs_first), not put off. *nodes gets the
 * nodes searched. */
int core_verdict(core_t *core, uint64_t pm, uint64_t live, int32_t q, int32_t r, int64_t probe_nodes,
                 int32_t pairs_first, int64_t max_nodes, double max_seconds, cancelled_fn cancelled, int64_t *nodes) {
    int result = ask(core, pm, live, q, r, max_nodes, max_seconds, cancelled);
    core->pairs_first = pairs_first != 0;
    if (!result) result = run_verdict(core, pm, live, next_live(&core->deal, live, q), r, probe_nodes);
    return answered(core, result, nodes);
}

/* The shortest line from (pm, live, q, r) (ShortestSearch), asked right after core_verdict won
 * from there: the same answers as core_verdict, the line in core_line. */
int core_shortest(core_t *core, uint64_t pm, uint64_t live, int32_t q, int32_t r, int64_t max_nodes,
                  double max_seconds, cancelled_fn cancelled, int64_t *nodes) {
    int result = ask(core, pm, live, q, r, max_nodes, max_seconds, cancelled);
    if (!result) result = shortest_line(core, pm, live, next_live(&core->deal, live, q), r);
    return answered(core, result, nodes);
}

/* Is `scoring` one the best-score search can sum without overflow? (ctypes checks nothing.) */
static int scoring_fits(const best_scoring_t *scoring) {
    if (scoring->kind < SCORING_MSC || scoring->kind > SCORING_CARDS_LEFT || scoring->rows < 1 || scoring->rows > 7)
        return 0;
    for (int row = 0; row < 8; row++)
        if (scoring->row_bonus[row] < 0 || scoring->row_bonus[row] > 100000) return 0;
    for (int bit = 0; bit < PYRAMID_BITS; bit++)
        if (scoring->card_points[bit] < 0 || scoring->card_points[bit] > 1000) return 0;
    return scoring->floor >= 0 && scoring->floor <= 1000000;
}

/* The best score reachable from (pm, live, q, r) under `scoring` and one of the shortest lines to
 * it (best_score.py): CORE_WIN with *gain (what the line earns from there) and the line in
 * core_line, or CORE_OVER, CORE_FULL, CORE_BAD as core_verdict. */
int core_best_score(core_t *core, const best_scoring_t *scoring, uint64_t pm, uint64_t live, int32_t q, int32_t r,
                    int64_t max_nodes, double max_seconds, cancelled_fn cancelled, int64_t *gain, int64_t *nodes) {
    int result = ask(core, pm, live, q, r, max_nodes, max_seconds, cancelled), found = 0;
    if (!result && (!scoring_fits(scoring) || (r > 14 && r != UNLIMITED))) result = CORE_BAD;
    if (!result) result = best_score_line(core, scoring, pm, live, next_live(&core->deal, live, q), r, scoring->floor,
                                          &found);
    *gain = found;
    return answered(core, result, nodes);
}

/* The line of the last won verdict: its length, and up to `capacity` tokens copied to `out`
 * (DRAW_TOKEN, REDEAL_TOKEN, or a removal as first << 8 | second, second NO_CARD for one card). */
int64_t core_line(const core_t *core, int32_t *out, int64_t capacity) {
    int64_t n = (int64_t)core->path_len;
    if (out) memcpy(out, core->path, (size_t)(n < capacity ? n : capacity) * sizeof(int32_t));
    return n;
}

#ifndef CORE_SOURCE
#define CORE_SOURCE "unknown"
#endif

/* The digest of the core.c this library was built from (build_core.py passes it). */
const char *core_source(void) { return CORE_SOURCE; }
