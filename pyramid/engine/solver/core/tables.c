/* Budgets and tables: the counting of nodes, the open-addressing tables and the growing arrays, with the byte bound every allocation answers to (Budget in budget.py). */
#include "core.h"

double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Budget.tick: 0 to go on, CORE_OVER past the budget, CORE_FULL once a table is full. */
int tick(core_t *core) {
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


uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Blocks of finished tables, kept for the next table of this process (a core made for the next deal
 * or question asks for the same sizes again). Fresh memory costs a page fault a page the first time
 * it is written, and a freed large block goes back to the system: every new core paid that again,
 * 15% of a hard King Tut question (perf; 3,000 faults a question of deal 92 with two redeals). Only
 * blocks of at least BLOCK_KEPT_MIN bytes, at most BLOCK_KEPT_BYTES in all; a table's keys and values
 * are read only where its tag says a key is there, so only the tags are zeroed again. Shared by the
 * threads that run searches (ctypes releases the GIL): a spin lock around a few dozen instructions. */
#define BLOCK_SLOTS 32
#define BLOCK_KEPT_MIN (64 * 1024)
#define BLOCK_KEPT_BYTES (32 * 1024 * 1024)
static struct { void *block; size_t size; } kept_blocks[BLOCK_SLOTS];
static size_t kept_bytes;
static char kept_busy;

static void kept_lock(void) { while (__atomic_test_and_set(&kept_busy, __ATOMIC_ACQUIRE)) continue; }
static void kept_unlock(void) { __atomic_clear(&kept_busy, __ATOMIC_RELEASE); }

/* A block of `size` bytes, not zeroed: one kept of that size, or a new one. */
static void *block_take(size_t size) {
    if (size >= BLOCK_KEPT_MIN) {
        kept_lock();
        for (int i = 0; i < BLOCK_SLOTS; i++)
            if (kept_blocks[i].block && kept_blocks[i].size == size) {
                void *block = kept_blocks[i].block;
                kept_blocks[i].block = NULL;
                kept_bytes -= size;
                kept_unlock();
                return block;
            }
        kept_unlock();
    }
    return malloc(size);
}

/* A block given back: kept while there is room, else freed. */
static void block_give(void *block, size_t size) {
    if (block && size >= BLOCK_KEPT_MIN) {
        kept_lock();
        if (kept_bytes + size <= BLOCK_KEPT_BYTES)
            for (int i = 0; i < BLOCK_SLOTS; i++)
                if (!kept_blocks[i].block) {
                    kept_blocks[i].block = block;
                    kept_blocks[i].size = size;
                    kept_bytes += size;
                    kept_unlock();
                    return;
                }
        kept_unlock();
    }
    free(block);
}

/* A table's three arrays for `capacity` slots, its tags zeroed: 1, or 0 (none made) when memory is short. */
static int table_arrays(table_t *t, size_t capacity) {
    t->keys = block_take(capacity * t->words * sizeof(uint64_t));
    t->values = block_take(capacity * sizeof(int32_t));
    t->tags = block_take(capacity);
    if (!t->keys || !t->values || !t->tags) {
        block_give(t->keys, capacity * t->words * sizeof(uint64_t));
        block_give(t->values, capacity * sizeof(int32_t));
        block_give(t->tags, capacity);
        return 0;
    }
    memset(t->tags, 0, capacity);
    return 1;
}

static void table_arrays_free(uint64_t *keys, int32_t *values, uint8_t *tags, size_t capacity, int words) {
    block_give(keys, capacity * words * sizeof(uint64_t));
    block_give(values, capacity * sizeof(int32_t));
    block_give(tags, capacity);
}

size_t table_bytes(const table_t *t, size_t capacity) {
    return capacity * (t->words * sizeof(uint64_t) + sizeof(int32_t) + 1);
}

int table_init(core_t *core, table_t *t, int words) {
    t->words = words;
    t->quadruples = 0;
    t->capacity = 1024;
    t->count = 0;
    if (table_arrays(t, t->capacity)) {
        core->bytes += table_bytes(t, t->capacity);
        return 1;
    }
    t->capacity = 0;  /* nothing made: nothing to count or free */
    return 0;
}

void table_free(table_t *t) {
    if (t->capacity) table_arrays_free(t->keys, t->values, t->tags, t->capacity, t->words);
    t->keys = NULL; t->values = NULL; t->tags = NULL;
    t->capacity = 0;
}

static inline int same_key(const uint64_t *a, const uint64_t *b, int words) {
    for (int w = 0; w < words; w++)
        if (a[w] != b[w]) return 0;
    return 1;
}

/* A key's hash (table_grow hashes each key again). */
static inline uint64_t hash_of(const table_t *t, const uint64_t *key) {
    uint64_t h = 0;
    for (int w = 0; w < t->words; w++) h = mix(h ^ key[w]) + w;
    return h;
}

/* A slot's tag: 0 while empty, else eight bits of its key's hash, never 0, so that a probe reads
   the key only of a slot whose tag matches (most probes for a key not there read no key at all). */
static inline uint8_t tag_of(uint64_t h) { return (uint8_t)(h >> 56) | 1; }

/* The slot of key, or the empty slot where it would go; *tag: its tag. */
static size_t probe(const table_t *t, const uint64_t *key, uint8_t *tag) {
    uint64_t h = hash_of(t, key);
    size_t mask = t->capacity - 1, i = (size_t)h & mask;
    *tag = tag_of(h);
    while (t->tags[i]) {
        if (t->tags[i] == *tag && same_key(t->keys + i * t->words, key, t->words)) return i;
        i = (i + 1) & mask;
    }
    return i;
}

size_t slot_of(const table_t *t, const uint64_t *key) {
    uint8_t tag;
    return probe(t, key, &tag);
}

/* The value under key, or -1. */
int table_get(const table_t *t, const uint64_t *key) {
    size_t i = slot_of(t, key);
    return t->tags[i] ? t->values[i] : -1;
}

/* Make t two (or four) times larger; 0 when it cannot: past the byte bound (table_entry decides) or
   out of memory (core->full). */
static int table_grow(core_t *core, table_t *t) {
    size_t old_capacity = t->capacity, capacity = old_capacity * (t->quadruples && old_capacity < (1u << 20) ? 4 : 2);
    size_t added = table_bytes(t, capacity) - table_bytes(t, old_capacity);
    if (core->bytes + added > core->byte_bound) return 0;
    uint64_t *keys = t->keys; int32_t *values = t->values; uint8_t *tags = t->tags;
    if (!table_arrays(t, capacity)) {
        t->keys = keys; t->values = values; t->tags = tags;
        core->full = 1;
        return 0;
    }
    t->capacity = capacity;
    core->bytes += added;
    for (size_t i = 0; i < old_capacity; i++) {
        if (!tags[i]) continue;
        uint8_t tag;
        size_t j = probe(t, keys + i * t->words, &tag);
        memcpy(t->keys + j * t->words, keys + i * t->words, t->words * sizeof(uint64_t));
        t->values[j] = values[i];
        t->tags[j] = tag;
    }
    table_arrays_free(keys, values, tags, old_capacity, t->words);
    return 1;
}

/* Set key to value; 0 (and core->full) when the byte bound forbids it. */
int table_put(core_t *core, table_t *t, const uint64_t *key, int value) {
    int added;
    int32_t *entry = table_entry(core, t, key, value, &added);
    if (entry) *entry = value;
    return entry != NULL;
}

/* The value under key, added as `value` when the key is not there (*added says which); NULL (and
   core->full) when the byte bound forbids it. One probe where table_get then table_put make two.
   A table grows once half full; one the bound keeps from growing fills to seven eighths first: longer
   probes, but an answer (King Tut with unlimited redeals, numbered deal 151, proves its loss with 3.4
   million keys in the loss table: 4 million slots, 88 MB). */
int32_t *table_entry(core_t *core, table_t *t, const uint64_t *key, int value, int *added) {
    if (2 * (t->count + 1) > t->capacity && !table_grow(core, t)
        && (core->full || 8 * (t->count + 1) > 7 * t->capacity)) {
        core->full = 1;
        return NULL;
    }
    uint8_t tag;
    size_t i = probe(t, key, &tag);
    *added = !t->tags[i];
    if (*added) {
        memcpy(t->keys + i * t->words, key, t->words * sizeof(uint64_t));
        t->tags[i] = tag;
        t->count++;
        t->values[i] = value;
    }
    return &t->values[i];
}

/* Grow an array of `size`-byte items to hold item `count` (doubling); 0 (and core->full) when it cannot. */
int reserve(core_t *core, void **items, size_t *capacity, size_t count, size_t size) {
    if (count < *capacity) return 1;
    size_t grown = *capacity ? *capacity * 2 : 256;
    while (grown <= count) grown *= 2;
    if (core->bytes + (grown - *capacity) * size > core->byte_bound) { core->full = 1; return 0; }
    void *more = realloc(*items, grown * size);
    if (!more) { core->full = 1; return 0; }
    core->bytes += (grown - *capacity) * size;
    *items = more;
    *capacity = grown;
    return 1;
}
