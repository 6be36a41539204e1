/* The best score reachable and one of the shortest lines to it (best_score.py, whose docstrings
 * say why each step is sound): a depth-first pass for the score, then A* for the line, over
 * states keyed by ranks. */
#include "core.h"

/* A state: the position, whether a draw or a redeal reached it (BestScoreSearch.successors), and in
   the depth-first pass with one-card draws how far its draws go (bs_first_visit). */
typedef struct { uint64_t pm, live; int32_t q, r, drew, limit; } bs_state_t;

/* A move and the state it leads to. */
typedef struct { int32_t token; bs_state_t after; } bs_move_t;

/* What the ranks left allow (BestScoreSearch.outlook). */
typedef struct { uint64_t stranded; int removals, free_live, bonus, clear_from; } bs_outlook_t;

/* One state of the A* pass: its position, the moves that reached it, and where it came from (by the
   move `token`, then `draws` draws: bs_next_choice). */
typedef struct { bs_state_t state; int32_t parent, token, draws, moves; } bs_node_t;

/* An entry of A*'s queue: ordered by the moves at least, then the deepest, then first pushed. */
typedef struct { int32_t estimate, made, order, node; } bs_entry_t;

/* Most cards a pair of complementary ranks has (four suits each), and most of one rank live. */
#define PAIR_CARDS 8
#define RANK_CARDS 4
/* The pair outlooks one pair keeps: by its pyramid cards that may still leave, and its live lows
   and highs that may. */
#define PAIR_OUTLOOKS ((1 << PAIR_CARDS) * (RANK_CARDS + 1) * (RANK_CARDS + 1))

/* One pair of complementary ranks: its pyramid cards at the start, and its outlooks as found
   (PAIR_KNOWN | pairs | clear_from << 8 | the cards that may leave, as indices of bits, << 16). */
typedef struct {
    int low, high, count;
    uint8_t bits[PAIR_CARDS];
    uint32_t *known;
} bs_pair_t;
#define PAIR_KNOWN (1U << 31)

/* An outlook kept (bs_outlook): states share their cards, nine in ten on reference deal 9. In 16
   bytes, four to a cache line: the cards (the pyramid packed, the live cards above it; all ones when
   empty), the stranded pyramid cards packed (and clear_from above them), and the counts. Where
   each took 40 bytes, looking it up was most of the outlook's time (a line from memory each). */
typedef struct { uint64_t cards; uint32_t stranded; uint8_t removals, free_live; uint16_t bonus; } bs_kept_t;
#define KEPT_OUTLOOKS (1 << 17)

typedef struct {
    core_t *core;
    const best_scoring_t *sc;
    bs_kept_t *kept;        /* KEPT_OUTLOOKS, by a hash of the cards */
    bs_pair_t pairs[MAX_RANK];
    size_t pair_capacity, kept_capacity;
    uint32_t *pair_known;   /* the pairs' outlooks, PAIR_OUTLOOKS each */
    table_t ahead;          /* the depth-first pass, one-card draws and redeals counted: per cards, how far
                               ahead a removal reached them */
    table_t seen;           /* the depth-first pass, else: a state's key -> 1 while only a draw reached it;
                               the A* pass: its node */
    bs_node_t *nodes;
    size_t node_count, node_capacity;
    bs_entry_t *heap;
    size_t heap_count, heap_capacity;
} bs_search_t;

/* BestScoreSearch.key, in one word: the live cards' ranks in drawing order as rank_places (below bit
   m: live sets that differ only by suits meet in one key, as the ranks' sequence made them), the
   pyramid packed above them (pack_pyramid: core_new checks that the pyramid's cards and the stock's
   fit in 52 bits), then the waste's size (at most m, five bits), whether a draw reached the state
   and the redeals left (15 for unlimited: core_best_score takes no other count above 14). One word
   where two were and three before them: the search is memory-bound, its table of states most of
   its time. */
static void bs_key(const deal_t *d, bs_state_t s, uint64_t key[1]) {
    uint64_t redeals = s.r == UNLIMITED ? 15 : (uint64_t)s.r;
    key[0] = rank_places(d, s.live) | pack_pyramid(s.pm) << d->m | (uint64_t)popcount(s.live & below(s.q)) << 52
             | (uint64_t)s.drew << 59 | redeals << 60;
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

/* The cards of (pm, live) that can never leave (BestScoreSearch.dead_cards), from the pyramid cards
   *dead_pm known to: *dead_pm, *dead_live. */
static void bs_dead(const deal_t *d, uint64_t pm, uint64_t live, uint64_t *dead_pm, uint64_t *dead_live) {
    int t = d->target;
    uint64_t alive_pm = pm & ~*dead_pm, alive_live = live;
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

/* What one pair of complementary ranks allows (BestScoreSearch.pair_outlook), of its pyramid cards
   `alive` (bits of pair->bits) that may still leave and `lows`, `highs` live cards that may: the
   most pairs they can make (returned), the highest row from which every one of its pyramid cards
   down may leave (*clear_from; the rows' count when none can), and those that may leave at all
   (*leave_any). Over every set of its pyramid cards that could leave: with each card, those of the
   pair covering it; all matched, a pyramid card with one of the other rank outside its cones or
   with a live card. */
static int bs_pair_search(const core_t *core, const bs_pair_t *pair, unsigned alive, int lows, int highs,
                          int *clear_from, unsigned *leave_any) {
    const deal_t *d = &core->deal;
    uint64_t alive_mask = 0;
    for (int j = 0; j < pair->count; j++)
        if (alive >> j & 1) alive_mask |= 1ULL << pair->bits[j];
    int pairs = 0;
    *clear_from = PYRAMID_BITS / ROW_STRIDE;
    *leave_any = 0;
    for (unsigned leave = alive;; leave = (leave - 1) & alive) {
        uint64_t set = 0, closed = 1;
        for (int j = 0; j < pair->count; j++)
            if (leave >> j & 1) set |= 1ULL << pair->bits[j];
        for (uint64_t rest = set; rest && closed; rest &= rest - 1)
            closed = !(d->covering[bit_index(rest)] & alive_mask & ~set);
        uint64_t set_lows = set & d->rank_mask[pair->low], set_highs = set & d->rank_mask[pair->high];
        int low_count = popcount(set_lows), high_count = popcount(set_highs);
        int inside = closed && set_lows && set_highs ? max_matching(d, set_lows, set_highs) : 0;
        if (closed && low_count - inside <= highs && high_count - inside <= lows) {
            int made = low_count + high_count + (lows - high_count < highs - low_count ? lows - high_count : highs - low_count);
            if (made > pairs) pairs = made;
            uint64_t stay = alive_mask & ~set;
            int from = stay ? (63 - __builtin_clzll(stay)) / ROW_STRIDE + 1 : 0;
            if (from < *clear_from) *clear_from = from;
            *leave_any |= leave;
        }
        if (!leave) break;
    }
    return pairs;
}

/* bs_pair_search, kept: each outlook is found once. *stay: the pair's pyramid cards in pm that
   can never leave. */
static int bs_pair_outlook(const core_t *core, const bs_pair_t *pair, uint64_t pm, uint64_t live, int *clear_from,
                           uint64_t *stay) {
    const deal_t *d = &core->deal;
    unsigned alive = 0;
    for (int j = 0; j < pair->count; j++)
        if (pm >> pair->bits[j] & 1) alive |= 1U << j;
    int lows = popcount(d->stock_rank_mask[pair->low] & live), highs = popcount(d->stock_rank_mask[pair->high] & live);
    uint32_t *known = &pair->known[(alive * (RANK_CARDS + 1) + (unsigned)lows) * (RANK_CARDS + 1) + (unsigned)highs];
    if (!*known) {
        int from;
        unsigned leave_any;
        int pairs = bs_pair_search(core, pair, alive, lows, highs, &from, &leave_any);
        *known = PAIR_KNOWN | (uint32_t)pairs | (uint32_t)from << 8 | leave_any << 16;
    }
    *clear_from = *known >> 8 & 0xff;
    *stay = 0;
    for (int j = 0; j < pair->count; j++)
        if ((alive & ~(*known >> 16)) >> j & 1) *stay |= 1ULL << pair->bits[j];
    return *known & 0xff;
}

/* BestScoreSearch.outlook: what the cards that may still leave allow. The pairs' searches may find
   pyramid cards that can never leave: the dead cards are then found again with them. */
static bs_outlook_t bs_outlook_of(const bs_search_t *search, uint64_t pm, uint64_t live) {
    const core_t *core = search->core;
    const best_scoring_t *sc = search->sc;
    const deal_t *d = &core->deal;
    int t = d->target, clear_from;
    bs_outlook_t o = {0};
    for (uint64_t stay = 1; stay;) {
        uint64_t dead_live;
        bs_dead(d, pm, live, &o.stranded, &dead_live);
        uint64_t alive_pm = pm & ~o.stranded, alive_live = live & ~dead_live;
        o.free_live = popcount(alive_live);
        o.removals = popcount(d->rank_mask[t] & alive_pm) + popcount(d->stock_rank_mask[t] & alive_live);
        clear_from = 0;
        stay = 0;
        for (uint64_t rest = o.stranded; rest; rest &= rest - 1) {
            int row = bit_index(rest) / ROW_STRIDE + 1;
            if (row > clear_from) clear_from = row;
        }
        for (int i = 0; i < core->rank_pair_count; i++) {
            const bs_pair_t *pair = &search->pairs[i];
            int from = 0;
            uint64_t stays = 0;
            if (pair->low == pair->high)  /* an even target: at most half of them pair */
                o.removals += (popcount(d->rank_mask[pair->low] & alive_pm)
                               + popcount(d->stock_rank_mask[pair->low] & alive_live)) / 2;
            else
                o.removals += bs_pair_outlook(core, pair, alive_pm, alive_live, &from, &stays);
            if (from > clear_from) clear_from = from;
            stay |= stays;
        }
        o.stranded |= stay;
    }
    for (int row = clear_from; row < sc->rows; row++)
        if (pm & sc->row_mask[row]) o.bonus += sc->row_bonus[row];
    o.clear_from = clear_from;
    return o;
}

/* bs_outlook_of for a state, kept by its cards (the last one of each slot): the pyramid and the live
   cards that may still leave (in the last pass, none buried under a waste card that never can:
   Position.forget_buried). */
static bs_outlook_t bs_outlook(const bs_search_t *search, bs_state_t s) {
    uint64_t live = forget_buried(&search->core->deal, s.pm, s.live, s.q, s.r);
    uint64_t cards = pack_pyramid(s.pm) | live << PACKED_BITS;
    bs_kept_t *kept = &search->kept[mix(cards) & (KEPT_OUTLOOKS - 1)];
    if (kept->cards != cards) {
        bs_outlook_t o = bs_outlook_of(search, s.pm, live);
        kept->cards = cards;
        kept->stranded = (uint32_t)(pack_pyramid(o.stranded) | (uint64_t)o.clear_from << PACKED_BITS);
        kept->removals = (uint8_t)o.removals;
        kept->free_live = (uint8_t)o.free_live;
        kept->bonus = (uint16_t)o.bonus;
        return o;
    }
    bs_outlook_t o = {unpack_pyramid(kept->stranded & ((1U << PACKED_BITS) - 1)), kept->removals, kept->free_live,
                      kept->bonus, (int)(kept->stranded >> PACKED_BITS)};
    return o;
}

/* The pairs of ranks and their outlook tables; 0 when memory is short or a pair has more cards
   than a deck of four suits gives (CORE_BAD then: not a deal the search takes). */
static int bs_pairs_init(bs_search_t *search, uint64_t pm, uint64_t live, int *result) {
    core_t *core = search->core;
    const deal_t *d = &core->deal;
    for (int i = 0; i < core->rank_pair_count; i++) {
        bs_pair_t *pair = &search->pairs[i];
        pair->low = core->rank_pairs[i][0];
        pair->high = core->rank_pairs[i][1];
        uint64_t cards = (d->rank_mask[pair->low] | d->rank_mask[pair->high]) & pm;
        if (popcount(cards) > PAIR_CARDS || popcount(d->stock_rank_mask[pair->low] & live) > RANK_CARDS
            || popcount(d->stock_rank_mask[pair->high] & live) > RANK_CARDS) {
            *result = CORE_BAD;
            return 0;
        }
        for (pair->count = 0; cards; cards &= cards - 1) pair->bits[pair->count++] = (uint8_t)bit_index(cards);
    }
    size_t total = (size_t)core->rank_pair_count * PAIR_OUTLOOKS;
    if (!reserve(core, (void **)&search->pair_known, &search->pair_capacity, total, sizeof(uint32_t))) {
        *result = CORE_FULL;
        return 0;
    }
    memset(search->pair_known, 0, total * sizeof(uint32_t));
    if (!reserve(core, (void **)&search->kept, &search->kept_capacity, KEPT_OUTLOOKS - 1, sizeof(bs_kept_t))) {
        *result = CORE_FULL;
        return 0;
    }
    for (size_t i = 0; i < KEPT_OUTLOOKS; i++) search->kept[i].cards = UINT64_MAX;
    for (int i = 0; i < core->rank_pair_count; i++) search->pairs[i].known = search->pair_known + (size_t)i * PAIR_OUTLOOKS;
    return 1;
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

static int bs_ceiling(const bs_search_t *search, bs_state_t s) {
    const core_t *core = search->core;
    return bs_ceiling_of(search->sc, s.pm, bs_gain(core, search->sc, s.pm, s.live),
                         bs_outlook(search, s));
}

/* Whether the game is over with these cards left: nothing scores after its goal is met. */
static int bs_over(const deal_t *d, uint64_t pm, uint64_t live) {
    return !pm && !(d->goal_all && live);
}

/* BestScoreSearch.successors: removals first (none inside the pyramid right after a draw; a king
 * that can leave without ending the game, alone), then the draw or the redeal. The count of moves
 * written to `out`. */
static int bs_moves(const bs_search_t *search, bs_state_t s, bs_move_t out[96]) {
    const deal_t *d = &search->core->deal;
    /* a stock or waste king leaves at once only with one-card draws, and where it scores */
    int stock_kings_leave = d->draw_count == 1 && search->sc->kind != SCORING_CARDS_LEFT;
    int n = 0;
    if (bs_over(d, s.pm, s.live)) return 0;
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
    int forced = 0;
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
        if (removals[i].b == NO_CARD && !forced && (stock_kings_leave || removals[i].a < STOCK_ID)
            && !bs_over(d, after.pm, after.live)) {
            n = 0;  /* a king that can leave leaves at once, unless that ends the game (kings come first: see
                       BestScoreSearch.successors) */
            forced = 1;
        } else if (forced) {
            break;
        }
        out[n].token = token_of(removals[i]);
        out[n++].after = after;
    }
    if (forced) return n;
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

/* A frame of the depth-first pass: a state's moves and the next one to try, and the state's gain and
   ceiling (those of the states its draws reach before the last pass: the same cards, none buried). */
typedef struct { bs_move_t moves[96]; int32_t count, next, gain, ceiling; } bs_frame_t;

/* The first state from `state` (reached by a draw or a redeal) where a removal can be made or no
   card drawn, and how many draws that took (*draws): the draws in between are the only moves of the
   states they pass, which neither pass need keep (BestScoreSearch.next_choice). */
static bs_state_t bs_next_choice(const deal_t *d, bs_state_t s, int *draws) {
    removal_t removals[16];
    *draws = 0;
    while (s.q < d->m && !open_removals(d, uncovered_mask(s.pm), s.live, s.q, removals)) {
        s.q = after_draw(d, s.live, s.q);
        ++*draws;
    }
    return s;
}

/* Whether a state has the gain, ceiling and estimate of the state it was drawn from: a draw's state
   before the last pass (the same cards, and none buried: forget_buried buries only in the last). */
static int bs_as_drawn_from(bs_state_t s) { return s.drew && s.r; }

/* How far ahead in the stock a state is (BestScoreSearch.ahead): more redeals left, then fewer
   cards in the waste. */
static int32_t bs_ahead(bs_state_t s) {
    return (s.r == UNLIMITED ? 15 : s.r) << 6 | (63 - popcount(s.live & below(s.q)));
}

/* Whether the depth-first pass expands `state` (BestScoreSearch.first_visit): 1 yes, 0 no, or
   CORE_FULL. With one-card draws and redeals counted, `ahead` holds per cards (a state's key
   without the waste's size, the draw flag and the redeals) how far ahead the furthest state of
   them a removal reached is, and a state's limit how far its draws go: to the place where an
   earlier walk of the same cards began. Else (more cards a draw, or unlimited redeals, whose draws
   come round again) `seen` holds each state's key, and 1 while only a draw reached it. */
static int bs_first_visit(bs_search_t *search, bs_state_t *state) {
    core_t *core = search->core;
    const deal_t *d = &core->deal;
    int added;
    bs_state_t plain = *state;
    plain.drew = 0;
    if (d->draw_count != 1 || state->r == UNLIMITED) {
        uint64_t key[1];
        bs_key(d, plain, key);
        int32_t *only_drew = table_entry(core, &search->seen, key, state->drew, &added);
        if (!only_drew) return CORE_FULL;
        if (!added && (!*only_drew || state->drew)) return 0;
        *only_drew = state->drew;
        return 1;
    }
    int32_t ahead = bs_ahead(*state);
    if (state->drew) return ahead > state->limit;
    uint64_t cards[1];
    plain.q = plain.r = 0;
    bs_key(d, plain, cards);
    int32_t *furthest = table_entry(core, &search->ahead, cards, ahead, &added);
    if (!furthest) return CORE_FULL;
    if (!added && *furthest >= ahead) return 0;
    state->limit = added ? -1 : *furthest;
    *furthest = ahead;
    return 1;
}

/* BestScoreSearch.best_gain: the depth-first pass, from a gain some line is known to reach. The
   best gain, or < 0 to stop. */
static int bs_best_gain(bs_search_t *search, bs_state_t start, int floor) {
    core_t *core = search->core;
    const deal_t *d = &core->deal;
    int top = bs_ceiling(search, start), best = bs_gain(core, search->sc, start.pm, start.live);
    if (floor > best) best = floor;
    bs_frame_t *frames = NULL;
    size_t depth = 0, capacity = 0;
    int result = bs_first_visit(search, &start) > 0 && reserve(core, (void **)&frames, &capacity, 0, sizeof(bs_frame_t))
                 ? 0 : CORE_FULL;
    if (!result) {
        frames[0].count = bs_moves(search, start, frames[0].moves);
        frames[0].next = 0;
        frames[0].gain = bs_gain(core, search->sc, start.pm, start.live);
        frames[0].ceiling = top;
        depth = 1;
    }
    while (!result && depth && best < top) {
        bs_frame_t *frame = &frames[depth - 1];
        if (frame->next == frame->count) { depth--; continue; }
        bs_state_t state = frame->moves[frame->next++].after;
        int draws;  /* uncounted here: the depth-first pass counts no moves */
        if (state.drew) state = bs_next_choice(d, state, &draws);
        int expand = bs_first_visit(search, &state);
        if (expand <= 0) { result = expand; continue; }
        result = tick(core);
        if (result) break;
        int gain = frame->gain, ceiling = frame->ceiling;
        if (!bs_as_drawn_from(state)) {
            gain = bs_gain(core, search->sc, state.pm, state.live);
            ceiling = bs_ceiling(search, state);
        }
        if (gain > best) best = gain;
        if (ceiling <= best) continue;
        if (!reserve(core, (void **)&frames, &capacity, depth, sizeof(bs_frame_t))) { result = CORE_FULL; break; }
        frames[depth].count = bs_moves(search, state, frames[depth].moves);
        frames[depth].gain = gain;
        frames[depth].ceiling = ceiling;
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
static int bs_needed(const bs_search_t *search, bs_state_t s, int gain) {
    const best_scoring_t *sc = search->sc;
    int now = bs_gain(search->core, sc, s.pm, s.live);
    bs_outlook_t o = bs_outlook(search, s);
    if (bs_ceiling_of(sc, s.pm, now, o) < gain) return -1;
    if (now >= gain) return 0;
    if (sc->kind != SCORING_MSC) return 1;
    /* Some rows are emptied, from the base up to `row` (or none): one within reach (o.clear_from) with
       at most the removals the ranks allow (o.removals). Each removal takes two of their cards at
       most and earns 5 points, besides their bonuses. */
    int fewest = -1, cards = 0, bonus = 0;
    for (int row = sc->rows; row >= o.clear_from; row--) {
        if (row < sc->rows && s.pm & sc->row_mask[row]) {
            cards += popcount(s.pm & sc->row_mask[row]);
            bonus += sc->row_bonus[row];
        }
        int shortfall = gain - now - bonus, removals = (cards + 1) / 2;
        if (shortfall > 5 * removals) removals = (shortfall + 4) / 5;
        if (removals <= o.removals && (fewest < 0 || removals < fewest)) fewest = removals;
    }
    if (fewest < 0) return -1;  /* no rows within reach make the points */
    return fewest > 1 ? fewest : 1;
}

/* A state met by the A* pass `moves` moves from the start (from the node `from` by `token`, then
   `draws` draws), whose estimate is `estimate` (-1: not known yet): a new node, or a shorter way to
   one. */
static int bs_reach(bs_search_t *search, int32_t from, int32_t token, int32_t draws, bs_state_t after, int moves,
                    int estimate, int gain, int32_t *order) {
    core_t *core = search->core;
    uint64_t key[1];
    bs_key(&core->deal, after, key);
    int known = table_get(&search->seen, key);
    if (known >= 0 && search->nodes[known].moves <= moves) return 0;
    int tick_result = tick(core);
    if (tick_result) return tick_result;
    if (estimate < 0) estimate = bs_needed(search, after, gain);
    if (estimate < 0) return 0;
    if (known < 0) {
        if (!reserve(core, (void **)&search->nodes, &search->node_capacity, search->node_count, sizeof(bs_node_t))
            || search->node_count > INT32_MAX || !table_put(core, &search->seen, key, (int32_t)search->node_count))
            return CORE_FULL;
        known = (int32_t)search->node_count++;
    }
    bs_node_t *node = &search->nodes[known];
    node->state = after;  /* a shorter way may come to another state of the same key: the line replays this one */
    node->parent = from;
    node->token = token;
    node->draws = draws;
    node->moves = moves;
    bs_entry_t entry = {moves + estimate, moves, (*order)++, known};
    return heap_push(search, entry) ? 0 : CORE_FULL;
}

/* BestScoreSearch.shortest_to: the A* pass, the line onto core->path. 0, or < 0 to stop. */
static int bs_shortest_to(bs_search_t *search, bs_state_t start, int gain) {
    core_t *core = search->core;
    int32_t order = 0;
    int result = bs_reach(search, -1, 0, 0, start, 0, -1, gain, &order);
    int32_t goal = -1;
    while (!result && search->heap_count) {
        bs_entry_t entry = heap_pop(search);
        bs_node_t *node = &search->nodes[entry.node];
        if (node->moves != entry.made) continue;  /* a shorter way reached it since */
        bs_state_t state = node->state;
        if (bs_gain(core, search->sc, state.pm, state.live) >= gain) { goal = entry.node; break; }
        bs_move_t moves[96];
        int n = bs_moves(search, state, moves);
        for (int i = 0; !result && i < n; i++) {
            int draws = 0;  /* a draw goes on to the next choice, each draw a move (bs_next_choice) */
            bs_state_t after = moves[i].after;
            if (after.drew) after = bs_next_choice(&core->deal, after, &draws);
            int estimate = bs_as_drawn_from(after) ? entry.estimate - entry.made : -1;
            result = bs_reach(search, entry.node, moves[i].token, draws, after, entry.made + 1 + draws, estimate, gain,
                              &order);
        }
    }
    if (result) return result;
    if (goal < 0) return CORE_BAD;  /* the gain the depth-first pass found is reachable */
    size_t length = 0;
    for (int32_t at = goal; search->nodes[at].parent >= 0; at = search->nodes[at].parent)
        length += 1 + (size_t)search->nodes[at].draws;
    core->path_len = 0;
    if (!reserve(core, (void **)&core->path, &core->path_capacity, length, sizeof(int32_t))) return CORE_FULL;
    core->path_len = length;
    for (int32_t at = goal; search->nodes[at].parent >= 0; at = search->nodes[at].parent) {
        for (int32_t draw = 0; draw < search->nodes[at].draws; draw++) core->path[--length] = DRAW_TOKEN;
        core->path[--length] = search->nodes[at].token;
    }
    return 0;
}

/* Both passes from (pm, live, q, r), the first from `floor` (a gain a known line reaches):
   CORE_WIN with *gain and the line, or < 0. */
int best_score_line(core_t *core, const best_scoring_t *sc, uint64_t pm, uint64_t live, int q, int r, int floor,
                    int *gain) {
    bs_state_t start = {pm, live, q, r, 0, -1};
    bs_search_t search = {.core = core, .sc = sc};
    int result = table_init(core, &search.seen, 1) && table_init(core, &search.ahead, 1) ? 0 : CORE_FULL;
    if (!result && bs_pairs_init(&search, pm, live, &result)) result = bs_best_gain(&search, start, floor);
    core->bytes -= table_bytes(&search.ahead, search.ahead.capacity);
    table_free(&search.ahead);
    if (result >= 0) {
        *gain = result;
        core->bytes -= table_bytes(&search.seen, search.seen.capacity);
        table_free(&search.seen);
        result = table_init(core, &search.seen, 1) ? bs_shortest_to(&search, start, *gain) : CORE_FULL;
    }
    core->bytes -= table_bytes(&search.seen, search.seen.capacity) + search.node_capacity * sizeof(bs_node_t)
                   + search.heap_capacity * sizeof(bs_entry_t) + search.pair_capacity * sizeof(uint32_t)
                   + search.kept_capacity * sizeof(bs_kept_t);
    table_free(&search.seen);
    free(search.pair_known);
    free(search.kept);
    free(search.nodes);
    free(search.heap);
    return result ? result : CORE_WIN;
}
