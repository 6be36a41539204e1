/* The pyramid cards a stock or waste card can take, each with the removals inside the pyramid that
 * free it (Freeing in freeing.py).
 *
 * A removal inside the pyramid (two of its cards, or a king) waits for nothing in the stock or the
 * waste, and nothing there waits for it but a card it uncovers. So in any line it can be put off
 * until just before the move that takes a card it uncovers (at any remove), or to the end. The
 * excursions of the second pass make such removals only there: a stock or waste card takes pyramid
 * card p "after the removals that free p", the pyramids below pm, reached by removals inside it, in
 * which p is uncovered and no removal could have been put off (the last one did not uncover p).
 * Their excursions then meet a handful of pyramids, not every pyramid the removals inside pm reach
 * times every node (Classic with one redeal: the outcomes of those were most of the search).
 *
 * Kept by pyramid: a list in `frees` of one header (how many, and whether pm clears by its own
 * removals), then (the pyramid after p leaves, packed, | p's rank << 32). */
#include "core.h"

/* The lattice of pyramids below pm: each, and the cards uncovered in it that some removal reaching
   it left uncovered already (taking those there would put a removal off for nothing). */
static int lattice_add(core_t *core, uint64_t pm, uint64_t put_off) {
    uint64_t key[1] = {pm};
    int added;
    int32_t *entry = table_entry(core, &core->lattice, key, (int32_t)core->lattice_count, &added);
    if (!entry) return 0;
    if (added) {
        if (!reserve(core, (void **)&core->lattice_pm, &core->lattice_capacity, core->lattice_count, sizeof(uint64_t))
            || !reserve(core, (void **)&core->lattice_put_off, &core->lattice_off_capacity, core->lattice_count,
                        sizeof(uint64_t)))
            return 0;
        core->lattice_pm[core->lattice_count] = pm;
        core->lattice_put_off[core->lattice_count++] = put_off;
    } else {
        core->lattice_put_off[*entry] |= put_off;
    }
    return 1;
}

static int64_t freeing_list(core_t *core, uint64_t pm) {
    const deal_t *d = &core->deal;
    core->lattice_count = 0;
    int ok = lattice_add(core, pm, 0);
    for (size_t at = 0; ok && at < core->lattice_count; at++) {
        uint64_t here = core->lattice_pm[at], uncovered = uncovered_mask(here);
        uint64_t kings = uncovered & d->rank_mask[d->target];
        if (kings) {  /* a king leaves at once (as everywhere): the pyramids that keep it add nothing */
            uint64_t after = here & ~low_bit(kings);
            ok = lattice_add(core, after, uncovered & after);
            continue;
        }
        removal_t removals[64];
        int n = pyramid_removals(d, here, uncovered, removals);
        for (int i = 0; ok && i < n; i++) {
            uint64_t after = here & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b);
            ok = lattice_add(core, after, uncovered & after);
        }
    }
    size_t index = core->free_count, count = 0;
    int clears = 0;
    uint64_t freeable = 0;
    ok = ok && reserve(core, (void **)&core->frees, &core->free_capacity, FREE_ENTRIES(index) - 1, sizeof(uint64_t));
    if (ok) core->free_count = (size_t)FREE_ENTRIES(index);
    for (size_t at = 0; ok && at < core->lattice_count; at++) {
        uint64_t here = core->lattice_pm[at];
        if (!here) clears = 1;
        uint64_t takeable = uncovered_mask(here) & ~core->lattice_put_off[at] & ~d->rank_mask[d->target];
        for (; ok && takeable; takeable &= takeable - 1) {
            int bit = bit_index(takeable);
            ok = reserve(core, (void **)&core->frees, &core->free_capacity, core->free_count, sizeof(uint64_t));
            if (ok) {
                freeable |= 1ULL << bit;
                core->frees[core->free_count++] = pack_pyramid(here & ~(1ULL << bit))
                                                  | (uint64_t)d->rank[bit] << FREE_RANK_SHIFT;
                count++;
            }
        }
    }
    for (size_t at = 0; at < core->lattice_count; at++) {  /* the table empty again for the next pyramid: */
        uint64_t key[1] = {core->lattice_pm[at]};       /* every slot found before any is emptied */
        core->lattice_put_off[at] = slot_of(&core->lattice, key);
    }
    for (size_t at = 0; at < core->lattice_count; at++) core->lattice.tags[core->lattice_put_off[at]] = 0;
    core->lattice.count = 0;
    if (!ok) { core->full = 1; return CORE_FULL; }
    core->frees[index] = count | (uint64_t)clears << FREE_RANK_SHIFT;
    core->frees[FREE_CARDS(index)] = freeable;
    uint64_t key[1] = {pm};
    if (index > INT32_MAX || !table_put(core, &core->free_index, key, (int32_t)index)) { core->full = 1; return CORE_FULL; }
    return (int64_t)index;
}

int64_t freeing(core_t *core, uint64_t pm) {
    size_t slot = (size_t)(mix(pm) & (PYRAMID_SLOTS - 1));
    if (core->free_pm[slot] == pm) return core->free_at[slot];
    uint64_t key[1] = {pm};
    int known = table_get(&core->free_index, key);
    int64_t at = known >= 0 ? known : freeing_list(core, pm);
    if (at >= 0) { core->free_pm[slot] = pm; core->free_at[slot] = at; }
    return at;
}
