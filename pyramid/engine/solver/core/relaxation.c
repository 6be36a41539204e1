/* Relaxed games that every line of the real game can be played in (Relaxation in relaxation.py). */
#include "core.h"

#define COUNT_GUARDS 0x0888888888888888ULL

/* Relaxation.counts: four bits per rank, kings left out. */
static uint64_t counts_of(const deal_t *d, uint64_t live) {
    uint64_t counts = 0;
    for (int rank = 1; rank < d->target; rank++)
        counts |= (uint64_t)popcount(d->stock_rank_mask[rank] & live) << (4 * rank);
    return counts;
}

/* Relaxation.waste_counts */
static uint64_t waste_counts(const deal_t *d, u128 waste) {
    uint64_t counts = 0;
    for (; waste; waste >>= 4) {
        int rank = (int)(waste & 15);
        if (rank < d->target) counts += 1ULL << (4 * rank);
    }
    return counts;
}

/* Relaxation.waste_complements */
static uint64_t waste_complements(const deal_t *d, u128 waste) {
    uint64_t mask = 0;
    for (; waste; waste >>= 4) {
        int rank = (int)(waste & 15);
        if (rank < d->target) mask |= 15ULL << (4 * (d->target - rank));
    }
    return mask;
}

static int relaxed_win(core_t *core, uint64_t pm, uint64_t counts, u128 waste);

static void relaxed_key(uint64_t pm, uint64_t counts, u128 waste, uint64_t key[4]) {
    key[0] = pm; key[1] = counts; key[2] = (uint64_t)waste; key[3] = (uint64_t)(waste >> 64);
}

/* Relaxation._branch */
static int relaxed_branch(core_t *core, uint64_t pm, uint64_t uncovered, uint64_t counts, u128 waste) {
    const deal_t *d = &core->deal;
    removal_t removals[64];
    int n = pyramid_removals(d, pm, uncovered, removals);
    for (int i = 0; i < n; i++) {
        int won = relaxed_win(core, pm & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), counts, waste);
        if (won) return won;
    }
    int top = (int)(waste & 15);
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        int need = d->target - d->rank[bit];
        if (need == top) {
            int won = relaxed_win(core, pm & ~(1ULL << bit), counts, waste >> 4);
            if (won) return won;
        }
        int shift = 4 * need;
        if (need > 0 && (counts >> shift) & 15) {
            int won = relaxed_win(core, pm & ~(1ULL << bit), counts - (1ULL << shift), waste);
            if (won) return won;
        }
    }
    if (top && d->stock_top_playable) {
        int shift = 4 * (d->target - top);
        if (top < d->target && (counts >> shift) & 15) {
            int won = relaxed_win(core, pm, counts - (1ULL << shift), waste >> 4);
            if (won) return won;
        }
    }
    return CORE_LOSE;
}

/* Relaxation._solve_relaxed */
static int solve_relaxed(core_t *core, uint64_t pm, uint64_t counts, u128 waste) {
    const deal_t *d = &core->deal;
    int over = tick(core);
    if (over) return over;
    int target = d->target;
    uint64_t uncovered = 0;
    int hopeless = 0;
    for (;;) {
        if (!pm) return CORE_WIN;
        uncovered = uncovered_mask(pm);
        uint64_t kings = uncovered & d->rank_mask[target];
        if (kings) { pm &= ~kings; continue; }
        if ((int)(waste & 15) == target) { waste >>= 4; continue; }
        uint64_t forced = 0;
        for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
            int bit = bit_index(rest);
            if (d->pyramid_partners[bit] & pm & ~(1ULL << bit)) continue;
            int shift = 4 * (target - d->rank[bit]);
            uint64_t in_stock = (counts >> shift) & 15;
            uint64_t in_waste = waste ? (waste_counts(d, waste) >> shift) & 15 : 0;
            if (!in_waste) {
                if (!in_stock) { hopeless = 1; break; }
                counts -= 1ULL << shift;
            } else if (in_waste == 1 && !in_stock && (int)(waste & 15) == target - d->rank[bit]) {
                waste >>= 4;
            } else {
                continue;
            }
            forced |= 1ULL << bit;
        }
        if (hopeless || !forced) break;
        pm &= ~forced;
    }
    if (hopeless) return CORE_LOSE;
    uint64_t supply = waste ? counts + waste_counts(d, waste) : counts;
    int needs[MAX_RANK + 1];
    pyramid_needs(core, pm, needs);
    for (int rank = 1; rank <= target; rank++)
        if (needs[rank] && (int)((supply >> (4 * rank)) & 15) < needs[rank]) return CORE_LOSE;
    return relaxed_branch(core, pm, uncovered, counts, waste);
}

/* The heads of a shape's two lists (Relaxation.lost_counts / won_counts): an index into
 * core->heads, made when first asked; -1 once the byte bound is reached. */
static int32_t shape_heads(core_t *core, uint64_t pm, u128 waste) {
    uint64_t key[3] = {pm, (uint64_t)waste, (uint64_t)(waste >> 64)};
    int index = table_get(&core->shapes, key);
    if (index >= 0) return index;
    if (!reserve(core, (void **)&core->heads, &core->head_capacity, core->head_count + 1, sizeof(int32_t)))
        return -1;
    index = (int)(core->head_count / 2);
    if (!table_put(core, &core->shapes, key, index)) return -1;
    core->heads[core->head_count++] = -1;
    core->heads[core->head_count++] = -1;
    return index;
}

/* Relaxation._remember: keep, per pyramid and waste, the most counts lost and the fewest won. */
static void remember(core_t *core, int32_t shape, uint64_t counts, int won) {
    if (!reserve(core, (void **)&core->nodes, &core->node_capacity, core->node_count, sizeof(count_node_t))) return;
    int32_t *head = &core->heads[2 * shape + (won ? 1 : 0)];
    int32_t *link = head;
    while (*link >= 0) {
        count_node_t *node = &core->nodes[*link];
        int dominated = won ? ((((node->counts | COUNT_GUARDS) - counts) & COUNT_GUARDS) == COUNT_GUARDS)
                            : ((((counts | COUNT_GUARDS) - node->counts) & COUNT_GUARDS) == COUNT_GUARDS);
        if (dominated) *link = node->next;
        else link = &node->next;
    }
    core->nodes[core->node_count].counts = counts;
    core->nodes[core->node_count].next = *head;
    *head = (int32_t)core->node_count++;
}

/* Relaxation._relaxed_win: drop the cards that cannot pair, then the stored answers, then the game. */
static int relaxed_win_new(core_t *core, uint64_t pm, uint64_t counts, u128 waste) {
    const deal_t *d = &core->deal;
    int target = d->target;
    uint64_t useful = 15ULL << (4 * target), partners_left = 15ULL << (4 * target);
    for (int rank = 1; rank < target; rank++) {
        int partners = popcount(d->rank_mask[target - rank] & pm);
        if (partners) {
            useful |= 15ULL << (4 * rank);
            partners_left |= (uint64_t)partners << (4 * rank);
        }
    }
    if (waste) {
        u128 rest = waste;
        int depth = 0;
        uint64_t dug = 0;
        while (rest) {
            int rank = (int)(rest & 15), shift = 4 * rank;
            uint64_t partners_here = (partners_left >> shift) & 15;
            if (d->stock_top_playable && rank < target) partners_here += (counts >> (4 * (target - rank))) & 15;
            if (((dug >> shift) & 15) >= partners_here) {
                waste &= ((u128)1 << depth) - 1;
                break;
            }
            dug += 1ULL << shift;
            rest >>= 4;
            depth += 4;
        }
        if (d->stock_top_playable && waste) useful |= waste_complements(d, waste);
    }
    counts &= useful;
    uint64_t key[4];
    relaxed_key(pm, counts, waste, key);
    int known = table_get(&core->won, key);
    if (known >= 0) return known;
    int32_t shape = shape_heads(core, pm, waste);
    if (shape < 0) return CORE_FULL;
    for (int32_t at = core->heads[2 * shape]; at >= 0; at = core->nodes[at].next)
        if ((((core->nodes[at].counts | COUNT_GUARDS) - counts) & COUNT_GUARDS) == COUNT_GUARDS) return CORE_LOSE;
    for (int32_t at = core->heads[2 * shape + 1]; at >= 0; at = core->nodes[at].next)
        if ((((counts | COUNT_GUARDS) - core->nodes[at].counts) & COUNT_GUARDS) == COUNT_GUARDS) return CORE_WIN;
    int won = solve_relaxed(core, pm, counts, waste);
    if (won < 0) return won;
    if (!table_put(core, &core->won, key, won)) return CORE_FULL;
    remember(core, shape, counts, won);
    return core->full ? CORE_FULL : won;
}

/* Relaxation.relaxed_win: the answers kept by the question as asked. */
static int relaxed_win(core_t *core, uint64_t pm, uint64_t counts, u128 waste) {
    uint64_t key[4];
    relaxed_key(pm, counts, waste, key);
    int known = table_get(&core->asked, key);
    if (known >= 0) return known;
    int won = relaxed_win_new(core, pm, counts, waste);
    if (won < 0) return won;
    return table_put(core, &core->asked, key, won) ? won : CORE_FULL;
}

/* Relaxation.can_win */
int relaxed_can_win(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    if (r) return relaxed_win(core, pm, counts_of(d, live), 0);
    return relaxed_win(core, pm, counts_of(d, live & ~below(q)), rank_sequence(d, live & below(q)));
}
