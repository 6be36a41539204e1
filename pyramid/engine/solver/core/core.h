/* The compiled search core: the solver's searches (verdict.py, relaxation.py, last_pass.py,
 * two_passes.py) in C99 (with gcc's and clang's unsigned __int128), on the same compact encoding
 * as position.py. This header holds what the files share; each file one idea, as the Python
 * modules do (docs/solver.md maps them).
 *
 * Why: pure Python is at its ceiling (issue 27), and a Pi Zero 2 is ten times slower per core
 * than a desktop. The Python solver stays the reference; tests/test_solver_core.py holds the two
 * equal (verdicts, lines that replay through the engine), on a plain and a sanitized build.
 *
 * compiled.py loads the build with ctypes, which releases the GIL for the whole call:
 * the console's main loop goes on drawing while a hint is searched. Nothing here touches
 * Python. A search reads its clock every 256 nodes and asks the caller's "called off?"
 * callback at most every CANCEL_INTERVAL seconds (the callback takes the GIL back).
 *
 * Everything a search proves is about positions of one deal (see Position.aim in
 * position.py), so a core_t keeps its tables from one question to the next, like Memory in
 * memory.py. Memory is bounded: a table that would grow past the caller's byte bound ends the
 * question with CORE_FULL ("unknown"), and the caller starts again with an empty core.
 *
 * Each function names the Python function it mirrors; the docstrings there say why each step
 * is sound.
 */
#ifndef PYRAMID_CORE_H
#define PYRAMID_CORE_H

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
/* Loss-table keys of unlimited redeals carry these in the waste-size byte (sizes are < 64): a
   place on the draw/redeal cycle (Position.lost_key), a key of rank counts. */
#define CYCLE_MARK 253ULL
#define COUNTS_MARK 254ULL
#define ANY_WASTE 255ULL
#define CANCEL_INTERVAL 0.01
/* Slots of the core's caches by pyramid (is_short's and needs_more's answers). */
#define PYRAMID_SLOTS 4096

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
    uint8_t *tags;    /* 0: empty; else eight bits of the key's hash (tables.c) */
    size_t capacity, count;
    int words;
    int quadruples;   /* grows four times over, not two, while below a million slots (table_grow) */
} table_t;

/* Per pyramid and waste: the counts lost and won, kept for dominance (Relaxation._remember). */
typedef struct {
    uint64_t counts;
    int32_t next;
} count_node_t;

/* A loss-table key marked lost by a walk, and what the table held before. */
typedef struct {
    uint64_t key[2];
    int32_t before;
} mark_t;

/* What the searches of one deal have proved (Memory in memory.py), and the question being asked. */
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
    /* is_short's answers, by a hash of the pyramid (LastPass.short): few pyramids, asked again and again. */
    uint64_t short_pm[PYRAMID_SLOTS];  /* UINT64_MAX: empty */
    uint8_t short_answer[PYRAMID_SLOTS];
    /* needs_more's pyramid_needs, the same way: four bits a rank. */
    uint64_t needs_pm[PYRAMID_SLOTS], needs_of[PYRAMID_SLOTS];  /* UINT64_MAX: empty */
    table_t excursions;        /* (pyramid | card << 56, stock ranks) -> index of its outcomes in `outcomes` */
    uint64_t *outcomes;        /* lists: a count, then that many outcomes (pyramid | consumed << 56) */
    size_t outcome_count, outcome_capacity;
    uint64_t *scratch;         /* the outcomes of the excursions being explored, one region each */
    size_t scratch_count, scratch_capacity;
    int last_pass_on;          /* VerdictSearch.last_pass is set */
    int win_ahead;             /* VerdictSearch.win_ahead */
    int pairs_first;           /* VerdictSearch.pairs_first: the question's removals inside the pyramid tried first */
    /* Two passes by families of second passes (two_passes.py). */
    struct dd_node *dd;        /* the decision diagram's nodes (TwoPasses.families, union, place, ...) */
    size_t dd_count, dd_capacity;
    int32_t *node_index;       /* open addressing over the nodes, by their stocks */
    size_t node_slots;
    table_t node_excursions;   /* PAIR(pyramid, node) | card << 60 -> index of its outcomes in `pairs` */
    uint64_t *pairs;           /* lists: a count, then that many (pyramid, node) outcomes (PAIR) */
    size_t pair_count, pair_capacity;
    uint64_t *pair_scratch;
    struct { uint64_t pair, frame; } *pair_filter;  /* see push_pair_value */
    uint64_t pair_frames;
    size_t pair_scratch_count, pair_scratch_capacity;
    table_t second_lost;       /* TwoPasses.lost: PAIR(pyramid, node) */
    /* The cards a stock card can take and the removals that free them, by pyramid (freeing.c). */
    table_t free_index;        /* pyramid -> index of its list in `frees` */
    uint64_t free_pm[PYRAMID_SLOTS];
    int64_t free_at[PYRAMID_SLOTS];
    uint64_t *frees;
    size_t free_count, free_capacity;
    table_t lattice;           /* the pyramids below the one being listed -> index in lattice_pm */
    uint64_t *lattice_pm, *lattice_put_off;
    size_t lattice_count, lattice_capacity, lattice_off_capacity;
    uint64_t redeal_pm, redeal_live;  /* where the last winning_redeal found a winning line redeals */
} core_t;

/* Small helpers. */

static inline uint64_t low_bit(uint64_t x) { return x & (~x + 1); }
static inline int bit_index(uint64_t x) { return __builtin_ctzll(x); }
/* Where the processor has no POPCNT instruction the build may not use (x86-64 without -mpopcnt, see
 * build_core.py), __builtin_popcountll is a call into libgcc: 3-5% of a search's time (perf).
 * Inline, the same count in a dozen instructions; elsewhere (arm64) the builtin is inline already. */
static inline int popcount(uint64_t x) {
#if defined(__x86_64__) && !defined(__POPCNT__)
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#else
    return __builtin_popcountll(x);
#endif
}
static inline uint64_t uncovered_mask(uint64_t pm) { return pm & ~((pm >> ROW_STRIDE) | (pm >> (ROW_STRIDE + 1))); }
static inline uint64_t below(int q) { return q >= 64 ? ~0ULL : (1ULL << q) - 1; }
/* With unlimited redeals, one-card draws and a playable waste, every live card can be brought to the
   waste top whenever wanted (Position.lost_key): a walk's places cycle, and the loss table keys a
   position without its waste's size. */
static inline int waste_top_free(const deal_t *d, int r) { return r == UNLIMITED && d->draw_count == 1 && d->waste_playable; }

/* A removal: one or two card ids (pyramid bits, or STOCK_ID + index). */
typedef struct { uint8_t a, b; } removal_t;

static inline int32_t token_of(removal_t removal) { return (int32_t)removal.a << 8 | removal.b; }

typedef struct { uint64_t pm, live; int q; } state_t;

/* Position.pass_cards: the stock (drawing order) and the waste (top first) of a position, and the
 * stock's ranks, four bits each, its top lowest (as excursion() reads a stock). */
typedef struct {
    int stock[MAX_CARDS], waste[MAX_CARDS];
    int length, waste_size;
    u128 ranks;
} pass_cards_t;

#define QUICK_NODES 300
#define CONSUMED_SHIFT PYRAMID_BITS
#define PYRAMID_MASK ((1ULL << PYRAMID_BITS) - 1)

/* An inlined sort (the lists are short and many: it beats qsort's calls), for outcomes of both kinds,
 * and by KEY for records (KEY(x) the value they are ordered by). */
#define DEFINE_SORT_BY(name, type, KEY)                                          \
    static void name(type *items, size_t n) {                                    \
        while (n > 16) {                                                         \
            type pivot = items[n / 2];                                           \
            size_t i = 0, j = n - 1;                                             \
            for (;;) {                                                           \
                while (KEY(items[i]) < KEY(pivot)) i++;                          \
                while (KEY(items[j]) > KEY(pivot)) j--;                          \
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
            for (; j > 0 && KEY(items[j - 1]) > KEY(item); j--) items[j] = items[j - 1]; \
            items[j] = item;                                                     \
        }                                                                        \
    }
#define SORT_ITSELF(x) (x)
#define DEFINE_SORT(name, type) DEFINE_SORT_BY(name, type, SORT_ITSELF)

/* The decision diagram of the second pass's stocks (TwoPasses._node, _split): node 0 the empty
 * family, node 1 the family of the empty stock. */
typedef struct dd_node {
    uint32_t *stocks;  /* sorted */
    uint32_t count, cards;
    int32_t place, present, absent;
} dd_node_t;

/* Where a pyramid's cards are: row i at bits 8i to 8i + i (Position's layout, ROW_STRIDE apart). */
#define PYRAMID_LAYOUT 0x007f3f1f0f070301ULL
#define PACKED_BITS 28

/* A pyramid in the 28 bits its cards take (row i from bit i(i+1)/2): the two-pass search's
 * outcomes and keys take one word, not two (the tables of a hard deal are the most of its time). */
static inline uint64_t pack_pyramid(uint64_t pm) {
    return (pm & 0x1) | ((pm >> 7) & 0x6) | ((pm >> 13) & 0x38) | ((pm >> 18) & 0x3c0) | ((pm >> 22) & 0x7c00)
           | ((pm >> 25) & 0x1f8000) | ((pm >> 27) & 0xfe00000);
}

static inline uint64_t unpack_pyramid(uint64_t packed) {
    return (packed & 0x1) | ((packed & 0x6) << 7) | ((packed & 0x38) << 13) | ((packed & 0x3c0) << 18)
           | ((packed & 0x7c00) << 22) | ((packed & 0x1f8000) << 25) | ((packed & 0xfe00000) << 27);
}

/* Outcomes of excursions over nodes: a pyramid and a node, as node << 28 | the packed pyramid (the
 * nodes stay below 2^31, node_of says so). */
typedef uint64_t pair_t;
#define PAIR_FILTER 4096
#define PAIR(pm, node) ((uint64_t)(node) << PACKED_BITS | pack_pyramid(pm))
#define PAIR_PM(pair) unpack_pyramid((pair) & ((1ULL << PACKED_BITS) - 1))
#define PAIR_NODE(pair) ((int32_t)((pair) >> PACKED_BITS))

/* How a game scores, for the best-score search (BestScoreSearch.gain): Three passes (Microsoft's:
 * 5 a removal, a bonus per row emptied), RetroHub (each card's points), or the pyramid cards left. */
enum { SCORING_MSC = 0, SCORING_RETROHUB = 1, SCORING_CARDS_LEFT = 2 };
typedef struct {
    int32_t kind, rows;
    uint64_t row_mask[8];               /* each row's pyramid bits, row 0 the top card */
    int32_t row_bonus[8];               /* Microsoft's bonus for emptying it */
    int32_t card_points[PYRAMID_BITS];  /* RetroHub: a pyramid card's points */
    uint64_t start_pm, start_live;      /* the position the gains count from */
    int32_t floor;                      /* a gain some line is known to reach (0: none known) */
} best_scoring_t;

/* Exported from the library (the rest is hidden: -fvisibility=hidden). */
#define CORE_API __attribute__((visibility("default")))

/* The functions the files share (each file says what it holds). */
double now(void);
int tick(core_t *core);
uint64_t mix(uint64_t x);
size_t table_bytes(const table_t *t, size_t capacity);
int table_init(core_t *core, table_t *t, int words);
void table_free(table_t *t);
size_t slot_of(const table_t *t, const uint64_t *key);
int table_get(const table_t *t, const uint64_t *key);
int table_put(core_t *core, table_t *t, const uint64_t *key, int value);
int32_t *table_entry(core_t *core, table_t *t, const uint64_t *key, int value, int *added);
int reserve(core_t *core, void **items, size_t *capacity, size_t count, size_t size);
int next_live(const deal_t *d, uint64_t live, int q);
int after_draw(const deal_t *d, uint64_t live, int q);
int max_matching(const deal_t *d, uint64_t lows, uint64_t highs);
int pyramid_needs(const core_t *core, uint64_t pm, int needs[MAX_RANK + 1]);
int needs_more(core_t *core, uint64_t pm, uint64_t live);
int is_lost(core_t *core, uint64_t pm, uint64_t live);
int waste_stranded(const deal_t *d, uint64_t pm, uint64_t live, int q);
u128 rank_sequence(const deal_t *d, uint64_t live);
uint64_t lost_ranks(const deal_t *d, uint64_t live, int r);
void lost_key_ranked(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t ranks, uint64_t key[2]);
void lost_key(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, uint64_t key[2]);
uint64_t rank_places(const deal_t *d, uint64_t live);
uint64_t forget_buried(const deal_t *d, uint64_t pm, uint64_t live, int q, int r);
int forced_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, removal_t *out);
int pyramid_removals(const deal_t *d, uint64_t pm, uint64_t uncovered, removal_t out[64]);
void open_cards(const deal_t *d, uint64_t live, int q, int open[2]);
int open_removals(const deal_t *d, uint64_t uncovered, uint64_t live, int q, removal_t out[16]);
int open_removal_possible(const deal_t *d, uint64_t uncovered, uint64_t live, int q);
int forced_open_removal(const deal_t *d, uint64_t pm, uint64_t uncovered, uint64_t live, int q, removal_t *out);
void pass_cards(const deal_t *d, uint64_t live, int q, pass_cards_t *cards);
state_t apply_removal(const deal_t *d, uint64_t pm, uint64_t live, int q, int r, removal_t removal);
int relaxed_can_win(core_t *core, uint64_t pm, uint64_t live, int q, int r);
int is_short(core_t *core, uint64_t pm);
int64_t excursion(core_t *core, uint64_t pm, int card, u128 stock, int reduced);
int best_score_line(core_t *core, const best_scoring_t *sc, uint64_t pm, uint64_t live, int q, int r, int floor,
                    int *gain);
int last_pass_can_win(core_t *core, uint64_t pm, uint64_t live, int q);
int last_pass_lost(core_t *core, uint64_t pm, uint64_t live, int q);
int push_token(core_t *core, int32_t token);
int search(core_t *core, uint64_t pm, uint64_t live, int q, int r);
int winning_redeal(core_t *core, uint64_t pm, uint64_t live, int q);
int32_t node_of(core_t *core, uint32_t *stocks, uint32_t count);
int second_pass_wins(core_t *core, uint64_t pm, int32_t root);
int64_t freeing(core_t *core, uint64_t pm);
/* A list of freeing(): its header (how many entries; whether the pyramid clears by its own removals), the
   mask of the pyramid cards its entries take (FREE_CARDS), then FREE_ENTRIES on: an entry's pyramid once
   the card freed has left, and that card's rank. */
#define FREE_RANK_SHIFT 32
#define FREE_COUNT(header) ((header) & 0xffffffffULL)
#define FREE_CLEARS(header) ((int)((header) >> FREE_RANK_SHIFT))
#define FREE_PM(entry) unpack_pyramid((entry) & ((1ULL << PACKED_BITS) - 1))
#define FREE_RANK(entry) ((int)((entry) >> FREE_RANK_SHIFT))
#define FREE_CARDS(list) ((list) + 1)
#define FREE_ENTRIES(list) ((list) + 2)
/* The next pyramid of freeing()'s list at `list` that a card taking one of `rank` leaves, from entry *at
   on (*at moves past it); -1 when none is left. Read from the arena each time: it may move while the
   caller searches on from one. */
static inline int64_t next_freed(const core_t *core, int64_t list, uint64_t *at, int rank) {
    for (uint64_t count = FREE_COUNT(core->frees[list]); *at < count;) {
        uint64_t entry = core->frees[FREE_ENTRIES(list) + (*at)++];
        if (FREE_RANK(entry) == rank) return (int64_t)FREE_PM(entry);
    }
    return -1;
}
int first_pass_line(core_t *core, uint64_t pm, uint64_t live, int q, uint64_t end_pm, uint64_t end_live);
CORE_API core_t *core_new(const deal_t *deal, int64_t byte_bound);
CORE_API void core_free(core_t *core);
CORE_API int64_t core_bytes(const core_t *core);
CORE_API int core_verdict(core_t *core, uint64_t pm, uint64_t live, int32_t q, int32_t r, int64_t probe_nodes,
                 int32_t pairs_first, int64_t max_nodes, double max_seconds, cancelled_fn cancelled, int64_t *nodes);
CORE_API int core_shortest(core_t *core, uint64_t pm, uint64_t live, int32_t q, int32_t r, int64_t max_nodes,
                           double max_seconds, cancelled_fn cancelled, int64_t *nodes);
int shortest_line(core_t *core, uint64_t pm, uint64_t live, int q, int r);
CORE_API int core_best_score(core_t *core, const best_scoring_t *scoring, uint64_t pm, uint64_t live, int32_t q,
                             int32_t r, int64_t max_nodes, double max_seconds, cancelled_fn cancelled, int64_t *gain,
                             int64_t *nodes);
CORE_API int64_t core_line(const core_t *core, int32_t *out, int64_t capacity);
CORE_API const char *core_source(void);

#endif
