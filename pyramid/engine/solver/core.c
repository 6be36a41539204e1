/* The compiled search core: the verdict search of verdict.py and the relaxed games of
 * relaxation.py, in C99 (with gcc's and clang's unsigned __int128), on the same compact
 * encoding as position.py.
 *
 * Why: pure Python is at its ceiling (issue 27), and a Pi Zero 2 is ten times slower per core
 * than a desktop. The Python solver stays the reference; tests/test_solver_core.py holds the two
 * equal (verdicts, lines that replay through the engine), on a plain and a sanitized build.
 *
 * compiled.py loads this file's build with ctypes, which releases the GIL for the whole call:
 * the console's main loop goes on drawing while a hint is searched. Nothing here touches
 * Python. A search reads its clock every 256 nodes and asks the caller's "called off?"
 * callback at most every CANCEL_INTERVAL seconds (the callback takes the GIL back).
 *
 * Everything a search proves is about positions of one deal (see Position.aim in
 * position.py), so a core_t keeps its tables from one question to the next, like Memory in
 * memory.py. Memory is bounded: a table that would grow past the caller's byte bound ends the
 * question with CORE_FULL ("unknown"), and the caller starts again with an empty core.
 *
 * Each function below names the Python function it mirrors; the docstrings there say why each
 * step is sound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

#define ROW_STRIDE 8
#define PYRAMID_BITS 56
#define UNLIMITED 63
#define MAX_CARDS 32
#define MAX_RANK 15
#define STOCK_ID 64
#define DRAW_TOKEN (-1)
#define REDEAL_TOKEN (-2)
#define NO_CARD 255
/* Loss-table keys of unlimited redeals carry this in the waste-size byte (sizes are < 64). */
#define COUNTS_MARK 254ULL
#define ANY_WASTE 255ULL
#define CANCEL_INTERVAL 0.01

/* Results of a question; inside the searches also CORE_QUICK (a share of the budget spent, see
 * VerdictSearch.last_pass_lost) and CORE_CLEARED (LastPass's PyramidCleared). */
enum { CORE_LOSE = 0, CORE_WIN = 1, CORE_OVER = -1, CORE_FULL = -2, CORE_BAD = -3, CORE_QUICK = -4,
       CORE_CLEARED = -5 };

/* The deal, as Position compiles it (compiled.py fills it from a Position). */
typedef struct {
    int32_t target, draw_count, stock_top_playable, waste_playable, overlap, goal_all, m;
    uint8_t rank[PYRAMID_BITS];            /* Position.rank */
    uint64_t rank_mask[MAX_RANK + 1];      /* Position.rank_mask */
    uint8_t stock_rank[MAX_CARDS];         /* Position.stock_rank */
    uint64_t stock_rank_mask[MAX_RANK + 1];/* Position.stock_rank_mask */
    uint64_t pyramid_partners[PYRAMID_BITS]; /* Position.pyramid_partners, kings all ones */
    uint64_t covering[PYRAMID_BITS];       /* Position.covering */
    uint64_t start_live;                   /* Position.start_live when the core was made */
} deal_t;

/* The budget of one question (Budget in budget.py). */
typedef int (*cancelled_fn)(void);
typedef struct {
    int64_t nodes, max_nodes;  /* max_nodes < 0: none */
    int64_t share_until;       /* < 0: none; past it CORE_QUICK (Budget.share) */
    double deadline;           /* < 0: none */
    cancelled_fn cancelled;
    double next_ask;
} budget_t;

/* One open-addressing table: keys of up to four words, an int32 value each. */
typedef struct {
    uint64_t *keys;   /* words * capacity */
    int32_t *values;
    uint8_t *used;
    size_t capacity, count;
    int words;
} table_t;

/* Per pyramid and waste: the counts lost and won, kept for dominance (Relaxation._remember). */
typedef struct {
    uint64_t counts;
    int32_t next;
} count_node_t;

/* A loss-table key marked lost by a walk, and what the table held before. */
typedef struct {
    uint64_t key[3];
    int32_t before;
} mark_t;

typedef struct core {
    deal_t deal;
    int rank_pairs[MAX_RANK][2];
    int rank_pair_count;
    size_t byte_bound, bytes;
    table_t lost;      /* loss-table key -> most redeals left it was lost with */
    table_t asked;     /* relaxed questions as asked -> won */
    table_t won;       /* relaxed questions with the useless cards dropped -> won */
    table_t shapes;    /* pyramid and waste -> index of its heads in `heads` */
    int32_t *heads;    /* two per shape: lost list, won list */
    size_t head_count, head_capacity;
    count_node_t *nodes;
    size_t node_count, node_capacity;
    /* The marks of VerdictSearch._walk, to take back. */
    mark_t *marks;
    size_t mark_count, mark_capacity;
    int32_t *path;
    size_t path_len, path_capacity;
    budget_t budget;
    int full;
    /* The last pass by waste excursions (last_pass.py). */
    int supply[MAX_RANK + 1];  /* LastPass.supply */
    table_t excursions;        /* (pyramid | card << 56, stock ranks) -> index of its outcomes in `outcomes` */
    uint64_t *outcomes;        /* lists: a count, then that many outcomes (pyramid | consumed << 56) */
    size_t outcome_count, outcome_capacity;
    uint64_t *scratch;         /* the outcomes of the excursions being explored, one region each */
    size_t scratch_count, scratch_capacity;
    int last_pass_on;          /* VerdictSearch.last_pass is set */
    /* Two passes by families of second passes (two_passes.py). */
    struct dd_node *dd;        /* the decision diagram's nodes (TwoPasses.families ...) */
    size_t dd_count, dd_capacity;
    int32_t *node_index;       /* open addressing over the nodes, by their stocks */
    size_t node_slots;
    table_t node_excursions;   /* (pyramid | card << 56, node) -> index of its outcomes in `pairs` */
    unsigned __int128 *pairs;  /* lists: a count, then that many (pyramid, node) outcomes (PAIR) */
    size_t pair_count, pair_capacity;
    unsigned __int128 *pair_scratch;
    struct { unsigned __int128 pair; uint64_t frame; } *pair_filter;  /* see push_pair_value */
    uint64_t pair_frames;
    size_t pair_scratch_count, pair_scratch_capacity;
    table_t second_lost;       /* TwoPasses.lost: (pyramid, node) */
    uint64_t redeal_pm, redeal_live;  /* where the last winning_redeal found a winning line redeals */
    int win_ahead;             /* VerdictSearch.win_ahead */
} core_t;

/* ---------------------------------------------------------------- small helpers */

static inline uint64_t low_bit(uint64_t x) { return x & (~x + 1); }
static inline int bit_index(uint64_t x) { return __builtin_ctzll(x); }
static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline uint64_t uncovered_mask(uint64_t pm) { return pm & ~((pm >> ROW_STRIDE) | (pm >> (ROW_STRIDE + 1))); }
static inline uint64_t below(int q) { return q >= 64 ? ~0ULL : (1ULL << q) - 1; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Budget.tick: 0 to go on, CORE_OVER past the budget, CORE_FULL once a table is full. */
static int tick(core_t *core) {
    budget_t *b = &core->budget;
    if (core->full) return CORE_FULL;
    b->nodes++;
    if (b->max_nodes >= 0 && b->nodes > b->max_nodes) return CORE_OVER;
    if (b->share_until >= 0 && b->nodes > b->share_until) return CORE_QUICK;
    if (!(b->nodes & 255) && (b->deadline >= 0 || b->cancelled)) {
        double t = now();
        if (b->deadline >= 0 && t > b->deadline) return CORE_OVER;
        if (b->cancelled && t >= b->next_ask) {
            b->next_ask = t + CANCEL_INTERVAL;
            if (b->cancelled()) return CORE_OVER;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- tables */

static uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static size_t table_bytes(const table_t *t, size_t capacity) {
    return capacity * (t->words * sizeof(uint64_t) + sizeof(int32_t) + 1);
}

static int table_init(core_t *core, table_t *t, int words) {
    t->words = words;
    t->capacity = 1024;
    t->count = 0;
    t->keys = calloc(t->capacity * words, sizeof(uint64_t));
    t->values = calloc(t->capacity, sizeof(int32_t));
    t->used = calloc(t->capacity, 1);
    core->bytes += table_bytes(t, t->capacity);
    return t->keys && t->values && t->used;
}

static void table_free(table_t *t) {
    free(t->keys); free(t->values); free(t->used);
    t->keys = NULL; t->values = NULL; t->used = NULL;
}

static inline int same_key(const uint64_t *a, const uint64_t *b, int words) {
    for (int w = 0; w < words; w++)
        if (a[w] != b[w]) return 0;
    return 1;
}

static size_t slot_of(const table_t *t, const uint64_t *key) {
    uint64_t h = 0;
    for (int w = 0; w < t->words; w++) h = mix(h ^ key[w]) + w;
    size_t mask = t->capacity - 1, i = (size_t)h & mask;
    while (t->used[i]) {
        if (same_key(t->keys + i * t->words, key, t->words)) return i;
        i = (i + 1) & mask;
    }
    return i;
}

/* The value under key, or -1. */
static int table_get(const table_t *t, const uint64_t *key) {
    size_t i = slot_of(t, key);
    return t->used[i] ? t->values[i] : -1;
}

static int table_grow(core_t *core, table_t *t) {
    size_t old_capacity = t->capacity, capacity = old_capacity * 2;
    size_t added = table_bytes(t, capacity) - table_bytes(t, old_capacity);
    if (core->bytes + added > core->byte_bound) { core->full = 1; return 0; }
    uint64_t *keys = t->keys; int32_t *values = t->values; uint8_t *used = t->used;
    t->keys = calloc(capacity * t->words, sizeof(uint64_t));
    t->values = calloc(capacity, sizeof(int32_t));
    t->used = calloc(capacity, 1);
    if (!t->keys || !t->values || !t->used) {
        free(t->keys); free(t->values); free(t->used);
        t->keys = keys; t->values = values; t->used = used;
        core->full = 1;
        return 0;
    }
    t->capacity = capacity;
    core->bytes += added;
    for (size_t i = 0; i < old_capacity; i++) {
        if (!used[i]) continue;
        size_t j = slot_of(t, keys + i * t->words);
        memcpy(t->keys + j * t->words, keys + i * t->words, t->words * sizeof(uint64_t));
        t->values[j] = values[i];
        t->used[j] = 1;
    }
    free(keys); free(values); free(used);
    return 1;
}

/* Set key to value; 0 (and core->full) when the byte bound forbids it. */
static int table_put(core_t *core, table_t *t, const uint64_t *key, int value) {
    if (2 * (t->count + 1) > t->capacity && !table_grow(core, t)) return 0;
    size_t i = slot_of(t, key);
    if (!t->used[i]) {
        memcpy(t->keys + i * t->words, key, t->words * sizeof(uint64_t));
        t->used[i] = 1;
        t->count++;
    }
    t->values[i] = value;
    return 1;
}

/* Grow an array of `size`-byte items to hold one more; 0 (and core->full) when it cannot. */
static int reserve(core_t *core, void **items, size_t *capacity, size_t count, size_t size) {
    if (count < *capacity) return 1;
    size_t grown = *capacity ? *capacity * 2 : 256;
    if (core->bytes + (grown - *capacity) * size > core->byte_bound) { core->full = 1; return 0; }
    void *more = realloc(*items, grown * size);
    if (!more) { core->full = 1; return 0; }
    core->bytes += (grown - *capacity) * size;
    *items = more;
    *capacity = grown;
    return 1;
}

/* ---------------------------------------------------------------- the rules (position.py) */

/* Position.next_live */
static int next_live(const deal_t *d, uint64_t live, int q) {
    uint64_t rest = q >= 64 ? 0 : live >> q;
    return rest ? q + bit_index(rest) : d->m;
}

/* Position.after_draw */
static int after_draw(const deal_t *d, uint64_t live, int q) {
    for (int i = 0; i < d->draw_count - 1; i++) {
        q = next_live(d, live, q + 1);
        if (q >= d->m) return d->m;
    }
    return next_live(d, live, q + 1);
}

/* max_matching in position.py, by augmenting paths. */
static int augment(const deal_t *d, int low, uint64_t highs, uint64_t *seen, int owner[PYRAMID_BITS]) {
    uint64_t options = d->pyramid_partners[low] & highs & ~*seen;
    while (options) {
        uint64_t high = low_bit(options);
        int h = bit_index(high);
        *seen |= high;
        if (owner[h] < 0 || augment(d, owner[h], highs, seen, owner)) {
            owner[h] = low;
            return 1;
        }
        options ^= high;
    }
    return 0;
}

static int max_matching(const deal_t *d, uint64_t lows, uint64_t highs) {
    int owner[PYRAMID_BITS];
    for (int i = 0; i < PYRAMID_BITS; i++) owner[i] = -1;
    int matched = 0;
    while (lows) {
        uint64_t bit = low_bit(lows);
        lows ^= bit;
        uint64_t seen = 0;
        if (augment(d, bit_index(bit), highs, &seen, owner)) matched++;
    }
    return matched;
}

/* Position.pyramid_facts, its needs only: how many cards of each rank the pyramid needs at least. */
static void pyramid_needs(const core_t *core, uint64_t pm, int needs[MAX_RANK + 1]) {
    const deal_t *d = &core->deal;
    memset(needs, 0, sizeof(int) * (MAX_RANK + 1));
    for (int p = 0; p < core->rank_pair_count; p++) {
        int low = core->rank_pairs[p][0], high = core->rank_pairs[p][1];
        uint64_t lows = d->rank_mask[low] & pm, highs = d->rank_mask[high] & pm;
        int low_count = popcount(lows), high_count = popcount(highs);
        if (low == high) {
            int matched = low_count / 2;
            if (low_count > 2 * matched) needs[low] += low_count - 2 * matched;
            continue;
        }
        int matched = low_count && high_count ? max_matching(d, lows, highs) : 0;
        if (low_count > matched) needs[high] += low_count - matched;
        if (high_count > matched) needs[low] += high_count - matched;
    }
}

/* Position.needs_more */
static int needs_more(const core_t *core, uint64_t pm, uint64_t live) {
    int needs[MAX_RANK + 1];
    pyramid_needs(core, pm, needs);
    for (int rank = 1; rank <= core->deal.target; rank++)
        if (needs[rank] && popcount(core->deal.stock_rank_mask[rank] & live) < needs[rank]) return 1;
    return 0;
}

/* Position.is_lost */
static int is_lost(const core_t *core, uint64_t pm, uint64_t live) {
    const deal_t *d = &core->deal;
    if (needs_more(core, pm, live)) return 1;
    if (d->goal_all) {
        for (uint64_t rest = live; rest; rest &= rest - 1) {
            int j = bit_index(rest);
            int rank = d->stock_rank[j];
            if (rank >= d->target) continue;
            int need = d->target - rank;
            if (!((d->rank_mask[need] & pm) || (d->stock_rank_mask[need] & live & ~(1ULL << j)))) return 1;
        }
    }
    return 0;
}

/* Position.waste_stranded */
static int waste_stranded(const deal_t *d, uint64_t pm, uint64_t live, int q) {
    uint64_t waste = live & below(q), stock = live & ~below(q);
    if (!waste) return 0;
    for (int rank = 1; rank < d->target; rank++) {
        if (d->stock_rank_mask[rank] & waste) {
            int need = d->target - rank;
            if (!((d->rank_mask[need] & pm) || (d->stock_rank_mask[need] & stock))) return 1;
        }
    }
    return 0;
}

/* Position.rank_sequence: the last card to be drawn lowest. */
static u128 rank_sequence(const deal_t *d, uint64_t live) {
    u128 sequence = 0;
    for (uint64_t rest = live; rest; rest &= rest - 1) sequence = (sequence << 4) | d->stock_rank[bit_index(rest)];
    return sequence;
}

/* Position.lost_key, as three words. */
static void lost_key(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t key[3]) {
    u128 sequence;
    uint64_t size;
    if (r != UNLIMITED || d->draw_count != 1 || !d->waste_playable) {
        size = (uint64_t)popcount(live & below(q));
        sequence = rank_sequence(d, live);
    } else if (d->goal_all) {
        size = ANY_WASTE;
        sequence = rank_sequence(d, live);
    } else {
        size = COUNTS_MARK;
        sequence = 0;
        for (int rank = 1; rank <= d->target; rank++)
            sequence |= (u128)popcount(d->stock_rank_mask[rank] & live) << (3 * rank);
    }
    key[0] = pm | (size << PYRAMID_BITS);
    key[1] = (uint64_t)sequence;
    key[2] = (uint64_t)(sequence >> 64);
}

/* Position.stuck_in_waste */
static uint64_t stuck_in_waste(const deal_t *d, uint64_t pm, uint64_t live, int q) {
    uint64_t stuck = 0, stock = live & ~below(q);
    for (int rank = 1; rank < d->target; rank++) {
        if (d->rank_mask[d->target - rank] & pm) continue;
        if (!(d->stock_top_playable && (d->stock_rank_mask[d->target - rank] & stock))) stuck |= d->stock_rank_mask[rank];
    }
    return stuck;
}

/* Position.forget_buried */
static uint64_t forget_buried(const deal_t *d, uint64_t pm, uint64_t live, int q, int r) {
    if (r || d->goal_all) return live;
    uint64_t waste = live & below(q);
    if (!waste) return live;
    uint64_t stuck = stuck_in_waste(d, pm, live, q) & waste;
    if (!stuck) return live;
    int top = 63 - __builtin_clzll(stuck);
    return live & ~below(top + 1);
}

/* A removal: one or two card ids (pyramid bits, or STOCK_ID + index). */
typedef struct { uint8_t a, b; } removal_t;

static inline int32_t token_of(removal_t removal) { return (int32_t)removal.a << 8 | removal.b; }

/* Position.forced_removal */
static int forced_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, removal_t *out) {
    uint64_t kings = uncovered & d->rank_mask[d->target];
    if (kings) {
        out->a = (uint8_t)bit_index(kings);
        out->b = NO_CARD;
        return 1;
    }
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        uint64_t options = d->pyramid_partners[bit] & pm & ~(1ULL << bit);
        if ((options & uncovered) && !(options & (options - 1))) {
            int need = d->target - d->rank[bit];
            if (need && (d->stock_rank_mask[need] & live)) continue;
            int other = bit_index(options);
            out->a = (uint8_t)(bit < other ? bit : other);
            out->b = (uint8_t)(bit < other ? other : bit);
            return 1;
        }
    }
    return 0;
}

/* Position.pyramid_removals; at most 21 pairs and 21 overlap pairs. */
static int pyramid_removals(const deal_t *d, uint64_t pm, uint64_t uncovered, removal_t out[64]) {
    int count = 0;
    for (uint64_t rest = uncovered; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        int need = d->target - d->rank[bit];
        if (need <= 0) continue;
        uint64_t above = bit >= 62 ? 0 : ~((2ULL << bit) - 1);
        for (uint64_t others = uncovered & d->rank_mask[need] & above; others; others &= others - 1) {
            out[count].a = (uint8_t)bit;
            out[count].b = (uint8_t)bit_index(others);
            count++;
        }
    }
    if (d->overlap) {
        for (uint64_t rest = pm & ~uncovered; rest; rest &= rest - 1) {
            int bit = bit_index(rest);
            uint64_t present = pm & (3ULL << (bit + ROW_STRIDE));
            if (!(present & (present - 1)) && (present & uncovered)) {
                int other = 63 - __builtin_clzll(present);
                if (d->rank[bit] + d->rank[other] == d->target) {
                    out[count].a = (uint8_t)bit;
                    out[count].b = (uint8_t)other;
                    count++;
                }
            }
        }
    }
    return count;
}

/* Position.open_removals: open kings first. At most 2 kings, 2 * 4 pairs with the pyramid, 1 pair. */
static int open_removals(const deal_t *d, uint64_t uncovered, uint64_t live, int q, removal_t out[16]) {
    int count = 0, t = d->target;
    int stock = d->stock_top_playable && q < d->m ? q : -1;
    int waste = -1;
    if (d->waste_playable) {
        uint64_t w = live & below(q);
        waste = w ? 63 - __builtin_clzll(w) : -1;
    }
    if (stock >= 0 && d->stock_rank[stock] == t) { out[count].a = (uint8_t)(STOCK_ID + stock); out[count++].b = NO_CARD; }
    if (waste >= 0 && d->stock_rank[waste] == t) { out[count].a = (uint8_t)(STOCK_ID + waste); out[count++].b = NO_CARD; }
    int open[2] = {stock, waste};
    for (int i = 0; i < 2; i++) {
        int j = open[i];
        if (j < 0 || d->stock_rank[j] >= t) continue;
        for (uint64_t partners = uncovered & d->rank_mask[t - d->stock_rank[j]]; partners; partners &= partners - 1) {
            out[count].a = (uint8_t)bit_index(partners);
            out[count++].b = (uint8_t)(STOCK_ID + j);
        }
    }
    if (stock >= 0 && waste >= 0 && d->stock_rank[stock] + d->stock_rank[waste] == t) {
        out[count].a = (uint8_t)(STOCK_ID + stock);
        out[count++].b = (uint8_t)(STOCK_ID + waste);
    }
    return count;
}

/* Position.open_removal_possible */
static int open_removal_possible(const deal_t *d, uint64_t uncovered, uint64_t live, int q) {
    if (!d->stock_top_playable) {
        uint64_t w = live & below(q);
        if (!w || !d->waste_playable) return 0;
        int rank = d->stock_rank[63 - __builtin_clzll(w)];
        return rank == d->target || (uncovered & d->rank_mask[d->target - rank]) != 0;
    }
    removal_t removals[16];
    return open_removals(d, uncovered, live, q, removals) > 0;
}

/* Position.forced_open_removal (open_cards unrolled). */
static int forced_open_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, int q, removal_t *out) {
    int open[2] = {-1, -1};
    if (d->stock_top_playable && q < d->m) open[0] = q;
    if (d->waste_playable) {
        uint64_t w = live & below(q);
        if (w) open[1] = 63 - __builtin_clzll(w);
    }
    for (int i = 0; i < 2; i++) {
        int j = open[i];
        if (j < 0) continue;
        int rank = d->stock_rank[j];
        if (rank >= d->target || (d->stock_rank_mask[rank] & live) != 1ULL << j) continue;
        for (uint64_t rest = uncovered & d->rank_mask[d->target - rank]; rest; rest &= rest - 1) {
            int bit = bit_index(rest);
            if (!(d->pyramid_partners[bit] & pm & ~(1ULL << bit))) {
                out->a = (uint8_t)bit;
                out->b = (uint8_t)(STOCK_ID + j);
                return 1;
            }
        }
    }
    return 0;
}

typedef struct { uint64_t pm, live; int q; } state_t;

/* Position.apply_removal */
static state_t apply_removal(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, removal_t removal) {
    uint8_t ids[2] = {removal.a, removal.b};
    for (int i = 0; i < 2; i++) {
        if (ids[i] == NO_CARD) continue;
        if (ids[i] >= STOCK_ID) live &= ~(1ULL << (ids[i] - STOCK_ID));
        else pm &= ~(1ULL << ids[i]);
    }
    state_t after;
    after.q = next_live(d, live, q);
    after.pm = pm;
    after.live = forget_buried(d, pm, live, after.q, r);
    return after;
}

/* ---------------------------------------------------------------- relaxed games (relaxation.py) */

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
static int relaxed_can_win(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    if (r) return relaxed_win(core, pm, counts_of(d, live), 0);
    return relaxed_win(core, pm, counts_of(d, live & ~below(q)), rank_sequence(d, live & below(q)));
}

/* ---------------------------------------------------------------- the last pass (last_pass.py) */

#define QUICK_NODES 300
#define CONSUMED_SHIFT PYRAMID_BITS
#define PYRAMID_MASK ((1ULL << PYRAMID_BITS) - 1)

/* position.holds_rank */
static int holds_rank(u128 stock, int rank) {
    for (; stock; stock >>= 4)
        if ((int)(stock & 15) == rank) return 1;
    return 0;
}

/* LastPass._short (not cached: a pass over the pyramid's cards). */
static int is_short(const core_t *core, uint64_t pm) {
    const deal_t *d = &core->deal;
    uint64_t lonely[MAX_RANK + 1] = {0};
    for (uint64_t rest = pm & ~d->rank_mask[d->target]; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        if (d->pyramid_partners[bit] & pm & ~(1ULL << bit)) continue;
        int need = d->target - d->rank[bit];
        lonely[need] |= 1ULL << bit;
        if (popcount(lonely[need]) > core->supply[need]) return 1;
    }
    return 0;
}

/* LastPass._partners_buried */
static int partners_buried(const deal_t *d, uint64_t pm, int need, u128 stock) {
    unsigned held = 0;
    for (u128 rest = stock; rest; rest >>= 4) held |= 1u << (int)(rest & 15);
    uint64_t stuck = 0;
    for (uint64_t rest = pm & ~d->rank_mask[d->target]; rest; rest &= rest - 1) {
        int bit = bit_index(rest);
        if (d->pyramid_partners[bit] & pm & ~(1ULL << bit)) continue;
        if (!(held >> (d->target - d->rank[bit]) & 1)) stuck |= 1ULL << bit;
    }
    if (!stuck) return 0;
    for (uint64_t partners = pm & d->rank_mask[need]; partners; partners &= partners - 1)
        if (!(d->covering[bit_index(partners)] & stuck)) return 0;
    return 1;
}

static int push_outcome(core_t *core, uint64_t outcome) {
    if (!reserve(core, (void **)&core->scratch, &core->scratch_capacity, core->scratch_count, sizeof(uint64_t)))
        return 0;
    core->scratch[core->scratch_count++] = outcome;
    return 1;
}

/* Append the outcomes at `index`, each plus `shift`, to the scratch region being filled. */
static int push_outcomes(core_t *core, int64_t index, uint64_t shift) {
    uint64_t count = core->outcomes[index];
    for (uint64_t i = 0; i < count; i++)
        if (!push_outcome(core, core->outcomes[index + 1 + i] + shift)) return 0;
    return 1;
}

/* An inlined sort (the lists are short and many: it beats qsort's calls), for outcomes of both kinds. */
#define DEFINE_SORT(name, type)                                                  \
    static void name(type *items, size_t n) {                                    \
        while (n > 16) {                                                         \
            type pivot = items[n / 2];                                           \
            size_t i = 0, j = n - 1;                                             \
            for (;;) {                                                           \
                while (items[i] < pivot) i++;                                    \
                while (items[j] > pivot) j--;                                    \
                if (i >= j) break;                                               \
                type swap = items[i]; items[i] = items[j]; items[j] = swap;      \
                i++; j--;                                                        \
            }                                                                    \
            name(items, j + 1);                                                  \
            items += j + 1;                                                      \
            n -= j + 1;                                                          \
        }                                                                        \
        for (size_t i = 1; i < n; i++) {                                         \
            type item = items[i];                                                \
            size_t j = i;                                                        \
            for (; j > 0 && items[j - 1] > item; j--) items[j] = items[j - 1];   \
            items[j] = item;                                                     \
        }                                                                        \
    }

DEFINE_SORT(sort_outcomes, uint64_t)
DEFINE_SORT(sort_pairs, u128)

/* Keep the scratch region from `start` (without repeats) as the outcomes of `key`; its index. */
static int64_t keep_outcomes(core_t *core, const uint64_t key[3], size_t start) {
    uint64_t *region = core->scratch + start;
    size_t n = core->scratch_count - start, kept = 0;
    sort_outcomes(region, n);
    for (size_t i = 0; i < n; i++)
        if (!kept || region[kept - 1] != region[i]) region[kept++] = region[i];
    core->scratch_count = start;
    size_t index = core->outcome_count;
    if (kept) {
        size_t needed = index + kept + 1;
        if (needed > core->outcome_capacity) {
            size_t grown = core->outcome_capacity ? core->outcome_capacity : 1024;
            while (grown < needed) grown *= 2;
            if (core->bytes + (grown - core->outcome_capacity) * sizeof(uint64_t) > core->byte_bound) {
                core->full = 1;
                return CORE_FULL;
            }
            uint64_t *more = realloc(core->outcomes, grown * sizeof(uint64_t));
            if (!more) { core->full = 1; return CORE_FULL; }
            core->bytes += (grown - core->outcome_capacity) * sizeof(uint64_t);
            core->outcomes = more;
            core->outcome_capacity = grown;
        }
        region = core->scratch + start;
        core->outcomes[index] = kept;
        memcpy(core->outcomes + index + 1, region, kept * sizeof(uint64_t));
        core->outcome_count = needed;
    } else {
        index = 0;  /* the empty list every core starts with */
    }
    if (index > INT32_MAX || !table_put(core, &core->excursions, key, (int32_t)index)) {
        core->full = 1;
        return CORE_FULL;
    }
    return (int64_t)index;
}

static int64_t excursion(core_t *core, uint64_t pm, int card, u128 stock);

/* The outcomes of an excursion, shifted by `shift`, appended to the region being filled: 0, or < 0 to stop. */
static int follow(core_t *core, uint64_t pm, int card, u128 stock, uint64_t shift) {
    int64_t found = excursion(core, pm, card, stock);
    if (found < 0) return (int)found;
    return push_outcomes(core, found, shift) ? 0 : CORE_FULL;
}

/* LastPass.excursion: draw a card of rank `card` (not a king) onto the waste, play on above it,
 * and remove it; the index of its outcomes (pyramid | consumed << 56), or < 0 to stop. */
static int64_t excursion(core_t *core, uint64_t pm, int card, u128 stock) {
    const deal_t *d = &core->deal;
    uint64_t key[3] = {pm | (uint64_t)card << CONSUMED_SHIFT, (uint64_t)stock, (uint64_t)(stock >> 64)};
    int known = table_get(&core->excursions, key);
    if (known >= 0) return known;
    if (!pm && !d->goal_all) return CORE_CLEARED;
    int target = d->target, need = target - card, stock_top_playable = d->stock_top_playable;
    size_t start = core->scratch_count;
    uint64_t partners_mask = d->rank_mask[need];
    if ((!(pm & partners_mask) && !(stock_top_playable && holds_rank(stock, need))) || is_short(core, pm)
        || (!stock_top_playable && partners_buried(d, pm, need, stock)))
        return keep_outcomes(core, key, start);  /* the card can never leave, or short of a rank for good */
    int over = tick(core);
    if (over) return over;
    uint64_t uncovered = uncovered_mask(pm);
    for (uint64_t partners = uncovered & partners_mask; partners; partners &= partners - 1)
        if (!push_outcome(core, pm ^ low_bit(partners))) return CORE_FULL;
    uint64_t kings = uncovered & d->rank_mask[target];
    if (kings) {
        int stop = follow(core, pm & ~low_bit(kings), card, stock, 0);
        if (stop) return stop;
    } else {
        removal_t removals[64];
        int n = pyramid_removals(d, pm, uncovered, removals);
        for (int i = 0; i < n; i++) {
            int stop = follow(core, pm & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), card, stock, 0);
            if (stop) return stop;
        }
    }
    int top = (int)(stock & 15);
    if (top) {
        u128 rest = stock >> 4;
        uint64_t one = 1ULL << CONSUMED_SHIFT;
        if (top == target) {  /* a king drawn (or on the stock top) leaves at once */
            int stop = follow(core, pm, card, rest, one);
            if (stop) return stop;
        } else {
            if (stock_top_playable) {
                if (top == need && !push_outcome(core, pm | one)) return CORE_FULL;
                for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1) {
                    int stop = follow(core, pm ^ low_bit(partners), card, rest, one);
                    if (stop) return stop;
                }
            }
            int64_t nested = excursion(core, pm, top, rest);
            if (nested < 0) return nested;
            uint64_t count = core->outcomes[nested];
            for (uint64_t i = 0; i < count; i++) {
                uint64_t inner = core->outcomes[nested + 1 + i];  /* read again: the arena may move */
                uint64_t consumed = (inner >> CONSUMED_SHIFT) + 1;
                int stop = follow(core, inner & PYRAMID_MASK, card, stock >> (4 * consumed), consumed << CONSUMED_SHIFT);
                if (stop) return stop;
            }
        }
    }
    return keep_outcomes(core, key, start);
}

/* A state of LastPass._search: the pyramid, stock cards consumed, start-waste cards taken. */
typedef struct { uint64_t pm; int32_t consumed, taken; } pass_state_t;

typedef struct {
    pass_state_t *items;
    size_t count, capacity;
} pass_stack_t;

/* Loss-table keys to record (LastPass._search's `recorded`). */
typedef struct {
    uint64_t (*items)[3];
    size_t count, capacity;
} key_list_t;

static int push_key(core_t *core, key_list_t *keys, const uint64_t key[3]) {
    if (!reserve(core, (void **)&keys->items, &keys->capacity, keys->count, sizeof(keys->items[0]))) return 0;
    memcpy(keys->items[keys->count++], key, sizeof(keys->items[0]));
    return 1;
}

static int push_state(core_t *core, pass_stack_t *stack, uint64_t pm, int consumed, int taken) {
    if (!reserve(core, (void **)&stack->items, &stack->capacity, stack->count, sizeof(pass_state_t))) return 0;
    pass_state_t *state = &stack->items[stack->count++];
    state->pm = pm;
    state->consumed = consumed;
    state->taken = taken;
    return 1;
}

/* LastPass._search once the stacks are made: 1 won, 0 lost (its positions then recorded lost), < 0 stop. */
static int pass_search(core_t *core, uint64_t pm, uint64_t live, int q, table_t *seen, pass_stack_t *todo,
                       pass_stack_t *later, key_list_t *recorded) {
    const deal_t *d = &core->deal;
    int target = d->target, stock_top_playable = d->stock_top_playable, goal_all = d->goal_all;
    int stock_bits[MAX_CARDS], waste_bits[MAX_CARDS], length = 0, waste_size = 0;
    for (uint64_t rest = live & ~below(q); rest; rest &= rest - 1) stock_bits[length++] = bit_index(rest);
    for (uint64_t rest = live & below(q); rest; rest &= rest - 1) waste_bits[waste_size++] = bit_index(rest);
    for (int i = 0; i < waste_size / 2; i++) {  /* top first */
        int swap = waste_bits[i];
        waste_bits[i] = waste_bits[waste_size - 1 - i];
        waste_bits[waste_size - 1 - i] = swap;
    }
    u128 stock = 0;
    for (int place = length - 1; place >= 0; place--) stock = (stock << 4) | d->stock_rank[stock_bits[place]];
    uint64_t stock_live[MAX_CARDS + 1], waste_live[MAX_CARDS + 1];
    int stock_q[MAX_CARDS + 1];
    stock_live[length] = 0;
    for (int place = length - 1; place >= 0; place--) stock_live[place] = stock_live[place + 1] | 1ULL << stock_bits[place];
    waste_live[waste_size] = 0;
    for (int taken = waste_size - 1; taken >= 0; taken--) waste_live[taken] = waste_live[taken + 1] | 1ULL << waste_bits[taken];
    for (int place = 0; place < length; place++) stock_q[place] = stock_bits[place];
    stock_q[length] = d->m;
    if (!push_state(core, todo, pm, 0, 0)) return CORE_FULL;
    while (todo->count || later->count) {
        if (!todo->count) {
            pass_state_t state = later->items[--later->count];
            u128 rest = stock >> (4 * state.consumed);
            int64_t found = excursion(core, state.pm, (int)(rest & 15), rest >> 4);
            if (found < 0) return found == CORE_CLEARED ? CORE_WIN : (int)found;
            uint64_t count = core->outcomes[found];
            for (uint64_t i = 0; i < count; i++) {
                uint64_t outcome = core->outcomes[found + 1 + i];
                if (!push_state(core, todo, outcome & PYRAMID_MASK,
                                state.consumed + 1 + (int)(outcome >> CONSUMED_SHIFT), state.taken))
                    return CORE_FULL;
            }
            continue;
        }
        pass_state_t state = todo->items[--todo->count];
        uint64_t seen_key[2] = {state.pm | (uint64_t)state.consumed << CONSUMED_SHIFT, (uint64_t)state.taken};
        if (table_get(seen, seen_key) >= 0) continue;
        if (!table_put(core, seen, seen_key, 1)) return CORE_FULL;
        int over = tick(core);
        if (over) return over;
        uint64_t here = state.pm;
        int consumed = state.consumed, taken = state.taken;
        if (!here && (!goal_all || (consumed == length && taken == waste_size))) return CORE_WIN;
        uint64_t state_live = stock_live[consumed] | waste_live[taken];
        int state_q = stock_q[consumed];
        uint64_t key[3];
        lost_key(d, here, forget_buried(d, here, state_live, state_q, 0), state_q, 0, key);
        if (table_get(&core->lost, key) >= 0 || is_lost(core, here, state_live)) continue;
        int won = relaxed_can_win(core, here, state_live, state_q, 0);
        if (won < 0) return won;
        if (!won) continue;
        if (!push_key(core, recorded, key)) return CORE_FULL;  /* recorded lost if the pass is lost */
        uint64_t uncovered = uncovered_mask(here);
        uint64_t kings = uncovered & d->rank_mask[target];
        if (kings) {
            if (!push_state(core, todo, here & ~low_bit(kings), consumed, taken)) return CORE_FULL;
        } else {
            removal_t removals[64];
            int n = pyramid_removals(d, here, uncovered, removals);
            for (int i = 0; i < n; i++)
                if (!push_state(core, todo, here & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), consumed, taken))
                    return CORE_FULL;
        }
        u128 rest = stock >> (4 * consumed);
        int top = (int)(rest & 15);
        if (taken < waste_size) {
            int card = d->stock_rank[waste_bits[taken]];
            if (card == target) {  /* an open king leaving dominates every other move */
                if (!push_state(core, todo, here, consumed, taken + 1)) return CORE_FULL;
                continue;
            }
            for (uint64_t partners = uncovered & d->rank_mask[target - card]; partners; partners &= partners - 1)
                if (!push_state(core, todo, here & ~low_bit(partners), consumed, taken + 1)) return CORE_FULL;
            if (stock_top_playable && top && top + card == target && !push_state(core, todo, here, consumed + 1, taken + 1))
                return CORE_FULL;
        }
        if (!top) continue;
        if (top == target) {
            if (!push_state(core, todo, here, consumed + 1, taken)) return CORE_FULL;
            continue;
        }
        if (stock_top_playable)
            for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1)
                if (!push_state(core, todo, here & ~low_bit(partners), consumed + 1, taken)) return CORE_FULL;
        /* a burial: the start's waste never plays again, as if all taken */
        if (!goal_all && !push_state(core, todo, here, consumed + 1, waste_size)) return CORE_FULL;
        if (!push_state(core, later, here, consumed, taken)) return CORE_FULL;
    }
    for (size_t i = 0; i < recorded->count; i++)
        if (!table_put(core, &core->lost, recorded->items[i], 0)) return CORE_FULL;
    return CORE_LOSE;
}

/* LastPass.can_win: can the position (last pass, one-card draws) still be won? */
static int last_pass_can_win(core_t *core, uint64_t pm, uint64_t live, int q) {
    table_t seen;
    pass_stack_t todo = {0}, later = {0};
    key_list_t recorded = {0};
    if (!table_init(core, &seen, 2)) { core->full = 1; return CORE_FULL; }
    size_t scratch = core->scratch_count;
    int won = pass_search(core, pm, live, q, &seen, &todo, &later, &recorded);
    core->scratch_count = scratch;
    core->bytes -= table_bytes(&seen, seen.capacity)
                   + (todo.capacity + later.capacity) * sizeof(pass_state_t) + recorded.capacity * sizeof(recorded.items[0]);
    table_free(&seen);
    free(todo.items); free(later.items); free(recorded.items);
    return won;
}

/* VerdictSearch.last_pass_lost: 1 lost, 0 not known, < 0 stop. Asked in full until a position is
 * found won; below that, for QUICK_NODES nodes only. */
static int last_pass_lost(core_t *core, uint64_t pm, uint64_t live, int q) {
    if (!core->win_ahead) {
        int won = last_pass_can_win(core, pm, live, q);
        if (won < 0) return won;
        core->win_ahead = won;
        return !won;
    }
    budget_t *budget = &core->budget;
    int64_t outer = budget->share_until;
    int64_t share = budget->nodes + QUICK_NODES;
    budget->share_until = outer >= 0 && outer < share ? outer : share;
    int won = last_pass_can_win(core, pm, live, q);
    budget->share_until = outer;
    if (won == CORE_QUICK && !(outer >= 0 && budget->nodes > outer)) return 0;
    if (won < 0) return won;
    return !won;
}

/* ---------------------------------------------------------------- the verdict search (verdict.py) */

static int push_token(core_t *core, int32_t token) {
    if (!reserve(core, (void **)&core->path, &core->path_capacity, core->path_len, sizeof(int32_t))) return 0;
    core->path[core->path_len++] = token;
    return 1;
}

/* A mark of a walk (VerdictSearch._walk): the key and what the table held before. */
static int mark(core_t *core, const uint64_t key[3], int r) {
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
        if (core->lost.used[i]) core->lost.values[i] = marked->before;
    }
}

static int search(core_t *core, uint64_t pm, uint64_t live, int q, int r);

/* VerdictSearch._settled_lost: 1 lost, 0 not known, < 0 stop. */
static int settled_lost(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
    const deal_t *d = &core->deal;
    if (is_lost(core, pm, live)) return 1;
    if (!r && d->goal_all && waste_stranded(d, pm, live, q)) return 1;
    uint64_t key[3];
    lost_key(d, pm, live, q, r, key);
    if (table_get(&core->lost, key) >= r) return 1;
    int won = relaxed_can_win(core, pm, live, q, r);
    if (won < 0) return won;
    if (!won) return 1;
    return !r && core->last_pass_on ? last_pass_lost(core, pm, live, q) : 0;
}

/* VerdictSearch._open_removals: the result, and *dominated when the rest of the walk is. */
static int try_open_removals(core_t *core, uint64_t pm, uint64_t live, int q, int r, uint64_t uncovered,
                             int *dominated) {
    const deal_t *d = &core->deal;
    removal_t removals[16];
    int king_dominates = d->draw_count == 1, n, forced = 0;
    if (king_dominates && forced_open_removal(d, pm, uncovered, live, q, removals)) {
        n = 1;
        forced = 1;
    } else {
        n = open_removals(d, uncovered, live, q, removals);
    }
    *dominated = 0;
    for (int i = 0; i < n; i++) {
        if (!push_token(core, token_of(removals[i]))) return CORE_FULL;
        state_t after = apply_removal(d, pm, live, q, r, removals[i]);
        int won = search(core, after.pm, after.live, after.q, r);
        if (won) return won;
        core->path_len--;
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
    int cycle_free = r == UNLIMITED && d->draw_count == 1 && d->waste_playable;
    uint64_t seen_q = 0;
    size_t marks = core->mark_count;
    int result = CORE_LOSE;
    for (;;) {
        if (seen_q >> q & 1) break;
        seen_q |= 1ULL << q;
        uint64_t key[3];
        lost_key(d, pm, live, q, r, key);
        if (!cycle_free && table_get(&core->lost, key) >= r) break;
        if (!mark(core, key, r)) { result = CORE_FULL; break; }
        if (!r && d->goal_all && waste_stranded(d, pm, live, q)) break;
        if (open_removal_possible(d, uncovered, live, q)) {
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
static int search(core_t *core, uint64_t pm, uint64_t live, int q, int r) {
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
            if (!push_token(core, token_of(removals[i]))) return CORE_FULL;
            state_t after = apply_removal(d, pm, live, q, r, removals[i]);
            int won = search(core, after.pm, after.live, after.q, r);
            if (won) return won;
            core->path_len--;
        }
        int won = walk(core, pm, live, q, r, uncovered);
        if (won) return won;
    }
    core->path_len = depth;
    return CORE_LOSE;
}

/* ---------------------------------------------------------------- two passes (two_passes.py) */

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

/* TwoPasses._first_pass: 0 (the ends filled), CORE_CLEARED, or < 0 to stop. */
static int first_pass(core_t *core, uint64_t pm, uint64_t live, int q, first_pass_t *pass, ends_t *ends) {
    const deal_t *d = &core->deal;
    int target = d->target, stock_top_playable = d->stock_top_playable, goal_all = d->goal_all;
    int stock_bits[MAX_CARDS], waste_bits[MAX_CARDS], length = 0, waste_size = 0;
    for (uint64_t rest = live & ~below(q); rest; rest &= rest - 1) stock_bits[length++] = bit_index(rest);
    for (uint64_t rest = live & below(q); rest; rest &= rest - 1) waste_bits[waste_size++] = bit_index(rest);
    for (int i = 0; i < waste_size / 2; i++) {
        int swap = waste_bits[i];
        waste_bits[i] = waste_bits[waste_size - 1 - i];
        waste_bits[waste_size - 1 - i] = swap;
    }
    u128 stock = 0;
    for (int place = length - 1; place >= 0; place--) stock = (stock << 4) | d->stock_rank[stock_bits[place]];
    uint64_t waste_left[MAX_CARDS + 1];
    u128 waste_ranks[MAX_CARDS + 1];
    waste_left[waste_size] = 0;
    for (int taken = waste_size - 1; taken >= 0; taken--) waste_left[taken] = waste_left[taken + 1] | 1ULL << waste_bits[taken];
    for (int taken = 0; taken <= waste_size; taken++) waste_ranks[taken] = rank_sequence(d, waste_left[taken]);
    family_t *start = family_new(core, 1);
    if (!start) return CORE_FULL;
    start->items[0].ranks = 0;
    start->items[0].stayers = 0;
    int result = reach(core, pass, 0, pm, 0, 0, waste_size, start);
    family_release(core, start);
    while (!result && pass->heap_count) {
        first_state_t *popped = &pass->states[heap_pop(pass)];
        family_t *family = popped->family;
        popped->family = NULL;
        int consumed = (int)(popped->order >> PYRAMID_BITS), taken = (int)(popped->minor >> 1), stayed = popped->minor & 1;
        uint64_t here = PYRAMID_MASK ^ (popped->order & PYRAMID_MASK);
        result = tick(core);
        if (!result && !here && !goal_all) result = CORE_CLEARED;
        uint64_t uncovered = uncovered_mask(here), kings = uncovered & d->rank_mask[target];
        if (!result && kings) result = reach(core, pass, consumed, here & ~low_bit(kings), taken, stayed, waste_size, family);
        if (!result && !kings) {
            removal_t removals[64];
            int n = pyramid_removals(d, here, uncovered, removals);
            for (int i = 0; !result && i < n; i++)
                result = reach(core, pass, consumed, here & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), taken,
                               stayed, waste_size, family);
        }
        int top = (int)((stock >> (4 * consumed)) & 15);
        if (!result && !stayed && taken < waste_size) {
            int card = d->stock_rank[waste_bits[taken]];
            if (card == target) {
                result = reach(core, pass, consumed, here, taken + 1, 0, waste_size, family);
            } else {
                for (uint64_t partners = uncovered & d->rank_mask[target - card]; !result && partners; partners &= partners - 1)
                    result = reach(core, pass, consumed, here & ~low_bit(partners), taken + 1, 0, waste_size, family);
                if (!result && stock_top_playable && top && top + card == target)
                    result = reach(core, pass, consumed + 1, here, taken + 1, 0, waste_size, family);
            }
        }
        if (!result && consumed == length) {
            uint64_t left = waste_left[taken];
            u128 left_ranks = waste_ranks[taken];
            for (uint32_t i = 0; !result && i < family->count; i++) {
                u128 ranks = family->items[i].ranks;
                if (!here && !left && !ranks) result = CORE_CLEARED;  /* goal "all": cleared without the redeal */
                else if (!add_end(core, ends, here, (left_ranks << (4 * nibbles(ranks))) | ranks, family->items[i].stayers | (uint32_t)left))
                    result = CORE_FULL;
            }
        } else if (!result && top == target) {
            result = reach(core, pass, consumed + 1, here, taken, stayed, waste_size, family);
        } else if (!result) {
            if (stock_top_playable)
                for (uint64_t partners = uncovered & d->rank_mask[target - top]; !result && partners; partners &= partners - 1)
                    result = reach(core, pass, consumed + 1, here & ~low_bit(partners), taken, stayed, waste_size, family);
            family_t *stays = result ? NULL : family_new(core, family->count);
            if (!result && !stays) result = CORE_FULL;
            if (!result) {
                uint32_t bit = 1u << stock_bits[consumed];
                for (uint32_t i = 0; i < family->count; i++) {
                    stays->items[i].ranks = (family->items[i].ranks << 4) | (u128)top;
                    stays->items[i].stayers = family->items[i].stayers | bit;
                }
                result = reach(core, pass, consumed + 1, here, taken, 1, waste_size, stays);
                family_release(core, stays);
            }
            if (!result) {
                int64_t found = excursion(core, here, top, stock >> (4 * consumed + 4));
                if (found < 0) result = (int)found;
                for (uint64_t i = 0; !result && i < (found < 0 ? 0 : core->outcomes[found]); i++) {
                    uint64_t outcome = core->outcomes[found + 1 + i];
                    result = reach(core, pass, consumed + 1 + (int)(outcome >> CONSUMED_SHIFT), outcome & PYRAMID_MASK,
                                   taken, stayed, waste_size, family);
                }
            }
        }
        family_release(core, family);
    }
    return result;
}

/* The decision diagram of the second pass's stocks (TwoPasses._node, _split): node 0 the empty
 * family, node 1 the family of the empty stock. */
typedef struct dd_node {
    uint32_t *stocks;  /* sorted */
    uint32_t count, cards;
    int32_t place, present, absent;
} dd_node_t;

static uint64_t family_hash(const uint32_t *stocks, uint32_t count) {
    uint64_t h = count;
    for (uint32_t i = 0; i < count; i++) h = mix(h ^ stocks[i]) + i;
    return h;
}

static int node_grow_index(core_t *core);

/* The node of a family (sorted stocks, taken over by the node when new): its index, or -1. */
static int32_t node_of(core_t *core, uint32_t *stocks, uint32_t count) {
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
    if (!reserve(core, (void **)&core->dd, &core->dd_capacity, core->dd_count, sizeof(dd_node_t))
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

/* Outcomes of excursions over nodes: a pyramid and a node, as node << 64 | pyramid. */
typedef u128 pair_t;
#define PAIR_FILTER 4096
#define PAIR(pm, node) ((u128)(uint64_t)(node) << 64 | (pm))
#define PAIR_PM(pair) ((uint64_t)(pair))
#define PAIR_NODE(pair) ((int32_t)(uint64_t)((pair) >> 64))

/* Append an outcome to the region of the excursion `frame` is filling, unless the filter saw it
 * there already (a direct-mapped cache: what it misses, keep_pairs still drops). */
static int push_pair_value(core_t *core, pair_t pair, uint64_t frame) {
    uint64_t h = mix((uint64_t)pair ^ mix((uint64_t)(pair >> 64) + frame)) & (PAIR_FILTER - 1);
    if (core->pair_filter[h].pair == pair && core->pair_filter[h].frame == frame) return 1;
    core->pair_filter[h].pair = pair;
    core->pair_filter[h].frame = frame;
    if (!reserve(core, (void **)&core->pair_scratch, &core->pair_scratch_capacity, core->pair_scratch_count, sizeof(pair_t)))
        return 0;
    core->pair_scratch[core->pair_scratch_count++] = pair;
    return 1;
}

static int64_t keep_pairs(core_t *core, const uint64_t key[2], size_t start) {
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
        if (needed > core->pair_capacity) {
            size_t grown = core->pair_capacity ? core->pair_capacity : 1024;
            while (grown < needed) grown *= 2;
            if (core->bytes + (grown - core->pair_capacity) * sizeof(pair_t) > core->byte_bound) { core->full = 1; return CORE_FULL; }
            pair_t *more = realloc(core->pairs, grown * sizeof(pair_t));
            if (!more) { core->full = 1; return CORE_FULL; }
            core->bytes += (grown - core->pair_capacity) * sizeof(pair_t);
            core->pairs = more;
            core->pair_capacity = grown;
        }
        region = core->pair_scratch + start;
        core->pairs[index] = kept;
        memcpy(core->pairs + index + 1, region, kept * sizeof(pair_t));
        core->pair_count = needed;
    }
    if (index > INT32_MAX || !table_put(core, &core->node_excursions, key, (int32_t)index)) { core->full = 1; return CORE_FULL; }
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

/* TwoPasses._excursion: LastPass.excursion over the stocks of `node`; outcomes (pyramid, node). */
static int64_t node_excursion(core_t *core, uint64_t pm, int card, int32_t node) {
    const deal_t *d = &core->deal;
    uint64_t key[2] = {pm | (uint64_t)card << CONSUMED_SHIFT, (uint64_t)node};
    int known = table_get(&core->node_excursions, key);
    if (known >= 0) return known;
    if (!pm && !d->goal_all) return CORE_CLEARED;
    int target = d->target, need = target - card, stock_top_playable = d->stock_top_playable;
    size_t start = core->pair_scratch_count;
    uint64_t partners_mask = d->rank_mask[need];
    uint32_t cards = core->dd[node].cards;
    if ((!(pm & partners_mask) && !(stock_top_playable && (d->stock_rank_mask[need] & cards))) || is_short(core, pm))
        return keep_pairs(core, key, start);
    int over = tick(core);
    if (over) return over;
    uint64_t frame = ++core->pair_frames;
    if (!core->pair_filter) {
        core->pair_filter = calloc(PAIR_FILTER, sizeof(*core->pair_filter));
        if (!core->pair_filter) { core->full = 1; return CORE_FULL; }
        core->bytes += PAIR_FILTER * sizeof(*core->pair_filter);
    }
    uint64_t uncovered = uncovered_mask(pm);
    for (uint64_t partners = uncovered & partners_mask; partners; partners &= partners - 1)
        if (!push_pair_value(core, PAIR(pm ^ low_bit(partners), node), frame)) return CORE_FULL;
    uint64_t kings = uncovered & d->rank_mask[target];
    if (kings) {
        int stop = follow_node(core, pm & ~low_bit(kings), card, node, frame);
        if (stop) return stop;
    } else {
        removal_t removals[64];
        int n = pyramid_removals(d, pm, uncovered, removals);
        for (int i = 0; i < n; i++) {
            int stop = follow_node(core, pm & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), card, node, frame);
            if (stop) return stop;
        }
    }
    if (cards) {
        if (core->dd[node].present < 0 && !split(core, node)) return CORE_FULL;
        int32_t absent = core->dd[node].absent, down = core->dd[node].present;
        if (absent) {
            int stop = follow_node(core, pm, card, absent, frame);
            if (stop) return stop;
        }
        if (down) {
            int top = d->stock_rank[core->dd[node].place];
            if (top == target) {
                int stop = follow_node(core, pm, card, down, frame);
                if (stop) return stop;
            } else {
                if (stock_top_playable) {
                    if (top == need && !push_pair_value(core, PAIR(pm, down), frame)) return CORE_FULL;
                    for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1) {
                        int stop = follow_node(core, pm ^ low_bit(partners), card, down, frame);
                        if (stop) return stop;
                    }
                }
                int64_t nested = node_excursion(core, pm, top, down);
                if (nested < 0) return nested;
                uint64_t count = (uint64_t)core->pairs[nested];
                for (uint64_t i = 0; i < count; i++) {
                    pair_t inner = core->pairs[nested + 1 + i];  /* copied: the arena may move */
                    int stop = follow_node(core, PAIR_PM(inner), card, PAIR_NODE(inner), frame);
                    if (stop) return stop;
                }
            }
        }
    }
    return keep_pairs(core, key, start);
}

/* TwoPasses._second_pass_wins: does some stock of the family at `root` clear `pm` in the last pass? */
static int second_pass_wins(core_t *core, uint64_t pm, int32_t root) {
    const deal_t *d = &core->deal;
    int target = d->target, stock_top_playable = d->stock_top_playable, goal_all = d->goal_all;
    table_t seen;
    pair_t *todo = NULL;
    size_t todo_count = 0, todo_capacity = 0;
    if (!table_init(core, &seen, 2)) { core->full = 1; return CORE_FULL; }
    int result = CORE_LOSE;
#define PUSH_STATE(P, N) do { if (!reserve(core, (void **)&todo, &todo_capacity, todo_count, sizeof(pair_t))) { result = CORE_FULL; goto done; } \
        todo[todo_count++] = PAIR((P), (N)); } while (0)
    PUSH_STATE(pm, root);
    while (todo_count) {
        pair_t state = todo[--todo_count];
        uint64_t key[2] = {PAIR_PM(state), (uint64_t)PAIR_NODE(state)};
        if (table_get(&seen, key) >= 0 || table_get(&core->second_lost, key) >= 0) continue;
        if (!table_put(core, &seen, key, 1)) { result = CORE_FULL; goto done; }
        int over = tick(core);
        if (over) { result = over; goto done; }
        uint64_t here = PAIR_PM(state);
        int32_t node = PAIR_NODE(state);
        uint64_t cards = core->dd[node].cards;
        if (!here && (!goal_all || !cards)) { result = CORE_WIN; goto done; }
        if (needs_more(core, here, cards)) continue;
        int won = relaxed_can_win(core, here, cards, next_live(d, cards, 0), 0);
        if (won < 0) { result = won; goto done; }
        if (!won) continue;
        uint64_t uncovered = uncovered_mask(here), kings = uncovered & d->rank_mask[target];
        if (kings) PUSH_STATE(here & ~low_bit(kings), node);
        else {
            removal_t removals[64];
            int n = pyramid_removals(d, here, uncovered, removals);
            for (int i = 0; i < n; i++) PUSH_STATE(here & ~(1ULL << removals[i].a) & ~(1ULL << removals[i].b), node);
        }
        if (!cards) continue;
        if (core->dd[node].present < 0 && !split(core, node)) { result = CORE_FULL; goto done; }
        if (core->dd[node].absent) PUSH_STATE(here, core->dd[node].absent);
        int32_t down = core->dd[node].present;
        if (!down) continue;
        int top = d->stock_rank[core->dd[node].place];
        if (top == target || !goal_all) PUSH_STATE(here, down);  /* a king leaves, or a burial */
        if (top == target) continue;
        if (stock_top_playable)
            for (uint64_t partners = uncovered & d->rank_mask[target - top]; partners; partners &= partners - 1)
                PUSH_STATE(here & ~low_bit(partners), down);
        int64_t found = node_excursion(core, here, top, down);
        if (found < 0) { result = found == CORE_CLEARED ? CORE_WIN : (int)found; goto done; }
        uint64_t count = (uint64_t)core->pairs[found];
        for (uint64_t i = 0; i < count; i++) PUSH_STATE(PAIR_PM(core->pairs[found + 1 + i]), PAIR_NODE(core->pairs[found + 1 + i]));
    }
    for (size_t i = 0; i < seen.capacity; i++)  /* the family's pass is lost from every state it met */
        if (seen.used[i] && !table_put(core, &core->second_lost, seen.keys + 2 * i, 1)) { result = CORE_FULL; break; }
done:
#undef PUSH_STATE
    core->pair_scratch_count = 0;
    core->bytes -= table_bytes(&seen, seen.capacity) + todo_capacity * sizeof(pair_t);
    table_free(&seen);
    free(todo);
    return result;
}

static int compare_popcount(const void *a, const void *b) {
    const end_t *x = a, *y = b;
    int cx = popcount(x->pm), cy = popcount(y->pm);
    return cx != cy ? cx - cy : (x->pm < y->pm ? -1 : x->pm > y->pm);
}

static int compare_stocks(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int compare_stayers(const void *a, const void *b) {
    const stayer_t *x = a, *y = b;
    return x->ranks < y->ranks ? -1 : x->ranks > y->ranks;
}

/* The root of an end's stocks: one stock for each rank sequence (any: the second pass sees ranks). */
static int32_t end_root(core_t *core, end_t *end) {
    uint32_t *stocks = malloc((end->count ? end->count : 1) * sizeof(uint32_t));
    if (!stocks) { core->full = 1; return -1; }
    if (end->count > 1) qsort(end->stocks, end->count, sizeof(stayer_t), compare_stayers);  /* by ranks */
    uint32_t count = 0;
    for (size_t i = 0; i < end->count; i++)
        if (!i || end->stocks[i].ranks != end->stocks[i - 1].ranks) stocks[count++] = end->stocks[i].stayers;
    qsort(stocks, count, sizeof(uint32_t), compare_stocks);
    uint32_t unique = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!unique || stocks[unique - 1] != stocks[i]) stocks[unique++] = stocks[i];
    return node_of(core, stocks, unique);
}

/* TwoPasses.winning_redeal: CORE_WIN with the redeal in core->redeal_pm / redeal_live,
 * CORE_CLEARED (won before the redeal), CORE_LOSE, or < 0 to stop. */
static int winning_redeal(core_t *core, uint64_t pm, uint64_t live, int q) {
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

/* ---------------------------------------------------------------- a two-pass win's first pass (two_passes.py) */

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
    int64_t found = excursion(core, pm, card, stock);
    return found == CORE_CLEARED ? CORE_BAD : found;
}

/* TwoPasses._excursion_line: the moves of an excursion of the card `card_id` (on the waste top,
 * `stock` after it) that end in `outcome`, found among the excursions it is made of. */
static int excursion_line(core_t *core, uint64_t pm, int card_id, const int *stock, int length, uint64_t outcome,
                          tokens_t *line) {
    const deal_t *d = &core->deal;
    int target = d->target, card = d->stock_rank[card_id], need = target - card;
    uint64_t used = outcome >> CONSUMED_SHIFT, after = outcome & PYRAMID_MASK, gone = pm ^ after;
    uint64_t uncovered = uncovered_mask(pm), kings = uncovered & d->rank_mask[target];
    if (!used && gone && !(gone & (gone - 1)) && (gone & uncovered & d->rank_mask[need]))
        return push_tokens(core, line, removal_token(bit_index(gone), STOCK_ID + card_id)) ? 0 : CORE_FULL;
    u128 ranks = ranks_of(d, stock, length);
    removal_t removals[64];
    int n = 0;
    if (kings) {
        removals[0].a = (uint8_t)bit_index(kings);
        removals[0].b = NO_CARD;
        n = 1;
    } else {
        n = pyramid_removals(d, pm, uncovered, removals);
    }
    for (int i = 0; i < n; i++) {
        uint64_t smaller = pm & ~(1ULL << removals[i].a);
        if (removals[i].b != NO_CARD) smaller &= ~(1ULL << removals[i].b);
        int64_t found = outcomes_of(core, smaller, card, ranks);
        if (found < 0) return (int)found;
        if (has_outcome(core, found, outcome)) {
            if (!push_tokens(core, line, token_of(removals[i]))) return CORE_FULL;
            return excursion_line(core, smaller, card_id, stock, length, outcome, line);
        }
    }
    if (!length) return CORE_BAD;  /* an outcome of an excursion comes from one of its moves */
    int top_id = stock[0], top = d->stock_rank[top_id];
    u128 rest_ranks = ranks >> 4;
    uint64_t one = 1ULL << CONSUMED_SHIFT;
    if (top == target) {
        if (!used) return CORE_BAD;
        if (!d->stock_top_playable && !push_tokens(core, line, DRAW_TOKEN)) return CORE_FULL;
        if (!push_tokens(core, line, removal_token(STOCK_ID + top_id, -1))) return CORE_FULL;
        return excursion_line(core, pm, card_id, stock + 1, length - 1, outcome - one, line);
    }
    if (d->stock_top_playable) {
        if (top == need && outcome == (pm | one))
            return push_tokens(core, line, removal_token(STOCK_ID + top_id, STOCK_ID + card_id)) ? 0 : CORE_FULL;
        for (uint64_t partners = uncovered & d->rank_mask[target - top]; used && partners; partners &= partners - 1) {
            int partner = bit_index(partners);
            int64_t found = outcomes_of(core, pm & ~(1ULL << partner), card, rest_ranks);
            if (found < 0) return (int)found;
            if (has_outcome(core, found, outcome - one)) {
                if (!push_tokens(core, line, removal_token(partner, STOCK_ID + top_id))) return CORE_FULL;
                return excursion_line(core, pm & ~(1ULL << partner), card_id, stock + 1, length - 1, outcome - one, line);
            }
        }
    }
    int64_t nested = outcomes_of(core, pm, top, rest_ranks);
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
    return CORE_BAD;
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

/* TwoPasses.first_pass_line (with _line_steps and _waste_card_leaves): the moves of a first pass
 * from (pm, live, q) to the redeal (end_pm, end_live), onto core->path. */
static int line_to_redeal(core_t *core, line_search_t *search, uint64_t pm, uint64_t live, int q, uint64_t end_pm,
                          uint64_t end_live) {
    const deal_t *d = &core->deal;
    int target = d->target, stock_top_playable = d->stock_top_playable;
    int stock_bits[MAX_CARDS], waste_bits[MAX_CARDS], length = 0, waste_size = 0, keep_waste = 0;
    for (uint64_t rest = live & ~below(q); rest; rest &= rest - 1) stock_bits[length++] = bit_index(rest);
    for (uint64_t rest = live & below(q); rest; rest &= rest - 1) waste_bits[waste_size++] = bit_index(rest);
    for (int i = 0; i < waste_size / 2; i++) {
        int swap = waste_bits[i];
        waste_bits[i] = waste_bits[waste_size - 1 - i];
        waste_bits[waste_size - 1 - i] = swap;
    }
    for (int i = 0; i < waste_size; i++) keep_waste += !(end_live >> waste_bits[i] & 1);
    uint64_t drawn[MAX_CARDS + 1];
    drawn[0] = 0;
    for (int place = 0; place < length; place++) drawn[place + 1] = drawn[place] | 1ULL << stock_bits[place];
    int result = reach_line(core, search, -1, 0, pm, 0, end_pm, 0);
    int32_t goal = -1;
    while (!result && search->todo_count) {
        int32_t at = search->todo[--search->todo_count];
        line_state_t state = search->states[at];
        int consumed = state.consumed, taken = state.taken;
        uint64_t here = state.pm;
        if (consumed == length && here == end_pm && taken == keep_waste) { goal = at; break; }
        uint64_t uncovered = uncovered_mask(here), kings = uncovered & d->rank_mask[target];
        removal_t removals[64];
        int n = kings ? 1 : pyramid_removals(d, here, uncovered, removals);
        if (kings) { removals[0].a = (uint8_t)bit_index(kings); removals[0].b = NO_CARD; }
        for (int i = 0; !result && i < n; i++) {
            uint64_t after = here & ~(1ULL << removals[i].a);
            if (removals[i].b != NO_CARD) after &= ~(1ULL << removals[i].b);
            result = push_tokens(core, &search->steps, token_of(removals[i]))
                     ? reach_line(core, search, at, consumed, after, taken, end_pm, 1) : CORE_FULL;
        }
        int top_id = consumed < length ? stock_bits[consumed] : -1;
        if (!result && !(end_live & drawn[consumed]) && taken < keep_waste) {  /* _waste_card_leaves */
            int card_id = waste_bits[taken], card = d->stock_rank[card_id];
            if (card == target) {
                result = push_tokens(core, &search->steps, removal_token(STOCK_ID + card_id, -1))
                         ? reach_line(core, search, at, consumed, here, taken + 1, end_pm, 1) : CORE_FULL;
            } else {
                for (uint64_t partners = uncovered & d->rank_mask[target - card]; !result && partners; partners &= partners - 1)
                    result = push_tokens(core, &search->steps, removal_token(bit_index(partners), STOCK_ID + card_id))
                             ? reach_line(core, search, at, consumed, here & ~low_bit(partners), taken + 1, end_pm, 1)
                             : CORE_FULL;
                if (!result && stock_top_playable && top_id >= 0 && !(end_live >> top_id & 1)
                    && d->stock_rank[top_id] + card == target)
                    result = push_tokens(core, &search->steps, removal_token(STOCK_ID + top_id, STOCK_ID + card_id))
                             ? reach_line(core, search, at, consumed + 1, here, taken + 1, end_pm, 1) : CORE_FULL;
            }
        }
        if (result || top_id < 0) continue;
        int top = d->stock_rank[top_id];
        if (end_live >> top_id & 1) {  /* it stays */
            result = push_tokens(core, &search->steps, DRAW_TOKEN)
                     ? reach_line(core, search, at, consumed + 1, here, taken, end_pm, 1) : CORE_FULL;
            continue;
        }
        if (top == target) {
            size_t count = stock_top_playable ? 1 : 2;
            result = (stock_top_playable || push_tokens(core, &search->steps, DRAW_TOKEN))
                     && push_tokens(core, &search->steps, removal_token(STOCK_ID + top_id, -1))
                     ? reach_line(core, search, at, consumed + 1, here, taken, end_pm, count) : CORE_FULL;
            continue;
        }
        if (stock_top_playable)
            for (uint64_t partners = uncovered & d->rank_mask[target - top]; !result && partners; partners &= partners - 1)
                result = push_tokens(core, &search->steps, removal_token(bit_index(partners), STOCK_ID + top_id))
                         ? reach_line(core, search, at, consumed + 1, here & ~low_bit(partners), taken, end_pm, 1)
                         : CORE_FULL;
        int64_t found = result ? 0 : outcomes_of(core, here, top, ranks_of(d, stock_bits + consumed + 1, length - consumed - 1));
        if (found < 0) result = (int)found;
        for (uint64_t i = 0; !result && i < core->outcomes[found]; i++) {
            uint64_t outcome = core->outcomes[found + 1 + i];
            int used = (int)(outcome >> CONSUMED_SHIFT);
            if (end_live & (drawn[consumed + 1 + used] ^ drawn[consumed + 1])) continue;  /* a card that must stay would leave */
            uint64_t key[2] = {(outcome & PYRAMID_MASK) | (uint64_t)(consumed + 1 + used) << CONSUMED_SHIFT, (uint64_t)taken};
            if ((outcome & end_pm) != end_pm || table_get(&search->seen, key) >= 0) continue;
            size_t start = search->steps.count;
            result = push_tokens(core, &search->steps, DRAW_TOKEN) ? 0 : CORE_FULL;
            if (!result) result = excursion_line(core, here, top_id, stock_bits + consumed + 1, length - consumed - 1,
                                                 outcome, &search->steps);
            if (!result) result = reach_line(core, search, at, consumed + 1 + used, outcome & PYRAMID_MASK, taken, end_pm,
                                             search->steps.count - start);
        }
    }
    if (result) return result;
    if (goal < 0) return CORE_BAD;  /* the redeal found by the first pass must be reachable */
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

/* The first pass of a two-pass win's line, onto core->path (0), or < 0. */
static int first_pass_line(core_t *core, uint64_t pm, uint64_t live, int q, uint64_t end_pm, uint64_t end_live) {
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

/* ---------------------------------------------------------------- the entry points (compiled.py) */

void core_free(core_t *core);

/* A core for one deal, or NULL when the deal is not one this core can hold or memory is short. */
core_t *core_new(const deal_t *deal, int64_t byte_bound) {
    if (deal->m < 0 || deal->m > MAX_CARDS - 1 || deal->target < 2 || deal->target > MAX_RANK - 2
        || deal->draw_count < 1 || deal->draw_count > MAX_CARDS || byte_bound <= 0)
        return NULL;
    for (int bit = 0; bit < PYRAMID_BITS; bit++)
        if (deal->rank[bit] > deal->target) return NULL;
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
    int ok = table_init(core, &core->lost, 3) && table_init(core, &core->asked, 4)
             && table_init(core, &core->won, 4) && table_init(core, &core->shapes, 3)
             && table_init(core, &core->excursions, 3) && table_init(core, &core->node_excursions, 2)
             && table_init(core, &core->second_lost, 2)
             && reserve(core, (void **)&core->outcomes, &core->outcome_capacity, 0, sizeof(uint64_t))
             && reserve(core, (void **)&core->pairs, &core->pair_capacity, 0, sizeof(pair_t));
    if (ok) {  /* index 0 of both: the empty list */
        core->outcomes[core->outcome_count++] = 0;
        core->pairs[0] = 0;
        core->pair_count = 1;
    }
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
    for (size_t n = 0; n < core->dd_count; n++) free(core->dd[n].stocks);
    free(core->dd); free(core->node_index); free(core->pairs); free(core->pair_scratch); free(core->pair_filter);
    free(core->heads); free(core->nodes); free(core->marks); free(core->path); free(core->outcomes); free(core->scratch);
    free(core);
}

/* What the core's tables hold, in bytes. */
int64_t core_bytes(const core_t *core) { return (int64_t)core->bytes; }

/* The verdict from (pm, live, q, r): CORE_WIN (the line in core_line), CORE_LOSE, CORE_OVER
 * (budget spent or called off), CORE_FULL (the byte bound reached: start again with a new core)
 * or CORE_BAD (a position this deal cannot hold). max_nodes < 0 and max_seconds < 0 mean none.
 * With one-card draws and probe_nodes >= 0, the plain search has probe_nodes nodes first, then
 * searches again with the last pass by excursions (verdict.run_verdict), or, with one redeal left,
 * asks the two-pass search (verdict.two_passes_verdict). *nodes gets the nodes searched. */
int core_verdict(core_t *core, uint64_t pm, uint64_t live, int32_t q, int32_t r, int64_t probe_nodes,
                 int64_t max_nodes, double max_seconds, cancelled_fn cancelled, int64_t *nodes) {
    const deal_t *d = &core->deal;
    *nodes = 0;
    if (core->full) return CORE_FULL;
    if ((pm & ~((1ULL << PYRAMID_BITS) - 1)) || (d->m < 64 && (live >> d->m)) || q < 0 || q > d->m
        || r < 0 || r > UNLIMITED)
        return CORE_BAD;
    for (uint64_t rest = pm; rest; rest &= rest - 1)
        if (!d->rank[bit_index(rest)]) return CORE_BAD;
    core->budget.nodes = 0;
    core->budget.max_nodes = max_nodes;
    core->budget.deadline = max_seconds < 0 ? -1.0 : now() + max_seconds;
    core->budget.cancelled = cancelled;
    core->budget.next_ask = 0;
    core->path_len = 0;
    core->mark_count = 0;
    core->scratch_count = 0;
    core->last_pass_on = 0;
    q = next_live(d, live, q);
    int result;
    if (probe_nodes >= 0 && d->draw_count == 1) {
        /* run_verdict: the plain search first for probe_nodes nodes, then with the last pass */
        core->budget.share_until = probe_nodes;
        result = search(core, pm, live, q, r);
        core->budget.share_until = -1;
        if (result == CORE_QUICK && r == 1) {
            /* two_passes_verdict: where a winning line redeals, its first pass to there, and the rest */
            core->path_len = 0;
            core->mark_count = 0;
            result = winning_redeal(core, pm, live, q);
            core->pair_scratch_count = 0;
            if (result == CORE_WIN) {  /* the first pass to the redeal found, the second by the search */
                result = first_pass_line(core, pm, live, q, core->redeal_pm, core->redeal_live);
                if (!result) result = push_token(core, REDEAL_TOKEN) ? 0 : CORE_FULL;
                if (!result) {
                    core->last_pass_on = 1;
                    core->win_ahead = 0;
                    result = search(core, core->redeal_pm, core->redeal_live, next_live(d, core->redeal_live, 0), 0);
                    if (result == CORE_LOSE) result = CORE_BAD;  /* the redeal found must win */
                }
            } else if (result == CORE_CLEARED) {  /* a line that never redeals */
                core->last_pass_on = 1;
                core->win_ahead = 0;
                result = search(core, pm, live, q, 0);
            }
        } else if (result == CORE_QUICK) {
            core->path_len = 0;
            core->last_pass_on = 1;
            core->win_ahead = 0;
            result = search(core, pm, live, q, r);
        }
    } else {
        core->budget.share_until = -1;
        result = search(core, pm, live, q, r);
    }
    *nodes = core->budget.nodes;
    core->budget.cancelled = NULL;
    if (result != CORE_WIN) core->path_len = 0;
    return result;
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
