/*
 * The counting kernels (see module.c): twins of the Python rules of pastiche_core.engine.movegen and
 * feasibility.PayableTotals, on the card table (layout.h).
 *
 *   publish_counts(table, player, usable, plan, first)  = movegen_count._publish_counts_py
 *   segment_count(table, player, ranks, needs)          = movegen_count._segment_count_py
 *   decode_publish(table, player, ranks, needs, index)  = movegen_decode._decode_publish_py
 *   payable_totals(pool, hand, own, limit, count, target, first)
 *                                                       = feasibility._payable_totals_py
 *
 * Every cost of R4/R5 comes from feasibility.h. The counts are 64-bit; each kernel refuses
 * (pk_refuse: Python answers) what lies beyond its fixed ranges:
 *   - a player, or an owner of a Masterpiece, beyond seat 5 (PC_SEATS: the gifts owed to each
 *     owner are packed 8 bits apiece above 16 bits of a 64-bit counting state);
 *   - a count, a weight or an index beyond 64 bits (an index beyond 2^63 - 1 too);
 *   - more counting states than 2^15 slots hold (half of them used);
 *   - ranks of a segment that are not strictly ascending within 1-13, or a need beyond 49;
 *   - for payable_totals: counts beyond 49 per rank or in all, a count beyond 49 cards or a
 *     target beyond 13 x 49, a limit beyond a C long.
 * A plan entry that is no pattern's code (movegen_count._plan_entries) is a ValueError, as in
 * Python.
 */
#include "kernels.h"

#include <string.h>

#define PC_SEATS 6          /* seats whose gifts pack into a counting state */
#define PC_SHAPES 128       /* fills of one rank: a rank has at most 7 cards (R1), 2^7 */
#define PC_WIDTH 13         /* ranks in one segment */
#define PC_CACHED_NEEDS 8   /* a position's rank tables of needs below this are kept */
#define PC_STATE_BITS 15    /* the slots of the counting states at most */
#define PC_SMALL_BITS 9     /* the slots tried first: they stay in the cache */
#define PC_FAIL_SLOTS 4096  /* failures the Total walk remembers (only pruning is lost) */
#define PC_MAX_TARGET (13 * PK_CARDS)

/* The limits of the pattern kinds (pastiche_core.data.limits, patterns.py). */
#define PC_STRAIGHT_LOW 2
#define PC_STRAIGHT_HIGH 13
#define PC_OF_A_KIND_LOW 2
#define PC_OF_A_KIND_HIGH 7
#define PC_PAIRS_LOW 1
#define PC_PAIRS_HIGH 6
#define PC_TOTAL_LOW 1
#define PC_TOTAL_HIGH 13

/* ---- A position, from its card table (movegen_count.Numbers) ---- */

typedef struct {
    int player, width, hand_size, own_total;
    int h[PK_RANKS], own[PK_RANKS], pool[PK_RANKS], in_hand[PK_RANKS], others[PK_RANKS];
    int marked[PK_RANKS][PC_SEATS]; /* Masterpieces per owner, the player's own as -n - 1 */
    int hand[PK_CARDS];             /* the hand's cards, ascending */
} PcPosition;

/* Only Masterpieces are counted as citable, never a Published novel or the End Flag (R6). */
/* home: R6.cite; twin test: tests/kernels/test_counting.py */
static int pc_read(PyObject *module, const unsigned char *table, long player, PcPosition *pos) {
    if (player < 0 || player >= PC_SEATS) {
        pk_refuse(module, "a player beyond seat 5");
        return -1;
    }
    memset(pos, 0, sizeof *pos);
    int counts[PK_RANKS][PC_SEATS];
    memset(counts, 0, sizeof counts);
    int mine = PK_HAND | (int)player, width = (int)player + 1;
    for (int index = 0; index < PK_CARDS; index++) {
        int place = table[index], rank = PK_RANK_OF(index);
        if (place == mine) {
            pos->h[rank]++;
            pos->hand[pos->hand_size++] = index;
        } else if ((place & PK_PLACE_MASK) == PK_MASTER) {
            int owner = place & PK_SEAT_MASK;
            if (owner >= PC_SEATS) {
                pk_refuse(module, "a Masterpiece of a seat beyond 5");
                return -1;
            }
            counts[rank][owner]++;
            if (owner >= width) {
                width = owner + 1;
            }
        }
    }
    pos->player = (int)player;
    pos->width = width;
    for (int rank = 1; rank < PK_RANKS; rank++) {
        int on_table = 0;
        for (int owner = 0; owner < width; owner++) {
            int n = counts[rank][owner];
            on_table += n;
            /* The player's own count marked -n - 1: citing them is free (R5). */
            pos->marked[rank][owner] = owner == player && n ? -n - 1 : n;
        }
        pos->own[rank] = counts[rank][player];
        pos->own_total += pos->own[rank];
        pos->pool[rank] = pos->h[rank] + on_table;
        pos->in_hand[rank] = pos->h[rank] > 0;
        pos->others[rank] = on_table > pos->own[rank];
    }
    return 0;
}

/* ---- One rank's fills (feasibility.rank_shapes) and its table (feasibility.rank_table) ---- */

typedef struct {
    int size;
    int from_hand[PC_SHAPES], extra[PC_SHAPES];
    signed char split[PC_SHAPES][PC_SEATS];
    uint64_t weight[PC_SHAPES], code[PC_SHAPES];
} PcShapes;

typedef struct {
    long cost;
    uint64_t step, weight;
} PcEntry;

typedef struct {
    int size;
    PcEntry entries[]; /* cheapest first */
} PcTable;

/* What one call works with: the binomials, its flags and its scratch (freed at its end). */
typedef struct {
    const PkState *st;
    int overflow; /* a count beyond 64 bits or the states beyond their slots: refuse */
    int crowded;  /* the states outgrew the slots in use: count again with more */
    int nomemory;
    struct {
        int bits, used, capacity;
        uint64_t *keys, *weights;
        unsigned char *full;
        int *order; /* the slots in use, in insertion order */
    } layers[2];
    PcTable *cached[PK_RANKS][PC_CACHED_NEEDS];
    PcTable *scratch[PC_WIDTH];
} PcWork;

static void work_start(PcWork *work, PyObject *module) {
    memset(work, 0, sizeof *work);
    work->st = pk_state(module);
}

static void work_end(PcWork *work) {
    for (int i = 0; i < 2; i++) {
        PyMem_Free(work->layers[i].keys);
        PyMem_Free(work->layers[i].weights);
        PyMem_Free(work->layers[i].full);
        PyMem_Free(work->layers[i].order);
    }
    for (int rank = 0; rank < PK_RANKS; rank++) {
        for (int need = 0; need < PC_CACHED_NEEDS; need++) {
            PyMem_Free(work->cached[rank][need]);
        }
    }
    for (int i = 0; i < PC_WIDTH; i++) {
        PyMem_Free(work->scratch[i]);
    }
}

/* The exception of a call whose work failed: memory, or a refusal. Returns -1. */
static int work_fail(PcWork *work, PyObject *module) {
    if (work->nomemory) {
        PyErr_NoMemory();
    } else {
        pk_refuse(module, "a count beyond 64 bits or beyond the counting states");
    }
    return -1;
}

static uint64_t binom(PcWork *work, long n, long k) {
    return pk_binom(work->st, n, k, &work->overflow);
}

/* Every fill of a rank in rank_shapes' order: hand cards ascending, then the Masterpieces per
 * owner, each owner's count descending and the last owner's varying fastest. */
typedef struct {
    PcWork *work;
    PcShapes *list;
    int in_hand, owners, from_hand;
    int bounds[PC_SEATS], own[PC_SEATS], split[PC_SEATS];
} PcLister;

static void list_split(PcLister *lister, int owner, int left) {
    if (owner == lister->owners) {
        if (left) {
            return;
        }
        PcShapes *list = lister->list;
        if (list->size >= PC_SHAPES) {
            lister->work->overflow = 1;
            return;
        }
        int k = list->size++, owed = 0;
        uint64_t weight = binom(lister->work, lister->in_hand, lister->from_hand), code = 0;
        for (int o = 0; o < lister->owners; o++) {
            int taken = lister->split[o];
            list->split[k][o] = (signed char)taken;
            weight = pk_mul(weight, binom(lister->work, lister->bounds[o], taken),
                            &lister->work->overflow);
            if (taken && !lister->own[o]) {
                code += (uint64_t)taken << (PK_OWED_BITS * o);
                owed += taken;
            }
        }
        list->from_hand[k] = lister->from_hand;
        list->weight[k] = weight;
        list->code[k] = code;
        list->extra[k] = owed;
        return;
    }
    int top = lister->bounds[owner] < left ? lister->bounds[owner] : left;
    for (int taken = top; taken >= 0; taken--) {
        lister->split[owner] = taken;
        list_split(lister, owner + 1, left - taken);
    }
}

static void list_shapes(PcWork *work, PcShapes *list, int need, int in_hand, int owners,
                        const int *marked) {
    PcLister lister;
    int on_table = 0;
    lister.work = work;
    lister.list = list;
    lister.in_hand = in_hand;
    lister.owners = owners;
    for (int o = 0; o < owners; o++) {
        lister.own[o] = marked[o] < 0;
        lister.bounds[o] = marked[o] < 0 ? -marked[o] - 1 : marked[o];
        lister.split[o] = 0;
        on_table += lister.bounds[o];
    }
    list->size = 0;
    int lowest = need - on_table > 0 ? need - on_table : 0;
    int highest = need < in_hand ? need : in_hand;
    for (int from_hand = lowest; from_hand <= highest; from_hand++) {
        lister.from_hand = from_hand;
        list_split(&lister, 0, need - from_hand);
    }
}

/* The rank's fills merged by (cost, step), cheapest first (a stable sort, as Python's). */
static PcTable *make_table(PcWork *work, int need, int in_hand, int owners, const int *marked) {
    PcShapes list;
    PcEntry entries[PC_SHAPES];
    int size = 0;
    list_shapes(work, &list, need, in_hand, owners, marked);
    for (int k = 0; k < list.size; k++) {
        long cost = list.from_hand[k] + list.extra[k];
        uint64_t step = (list.code[k] << 16) + ((uint64_t)cost << 8) + (uint64_t)list.from_hand[k];
        int e = 0;
        while (e < size && entries[e].step != step) { /* the step holds the cost */
            e++;
        }
        if (e < size) {
            entries[e].weight = pk_add(entries[e].weight, list.weight[k], &work->overflow);
            continue;
        }
        entries[size].cost = cost;
        entries[size].step = step;
        entries[size].weight = list.weight[k];
        size++;
    }
    for (int i = 1; i < size; i++) {
        PcEntry moving = entries[i];
        int j = i - 1;
        while (j >= 0 && entries[j].cost > moving.cost) {
            entries[j + 1] = entries[j];
            j--;
        }
        entries[j + 1] = moving;
    }
    PcTable *table = PyMem_Malloc(sizeof(PcTable) + (size_t)size * sizeof(PcEntry));
    if (table == NULL) {
        work->nomemory = 1;
        return NULL;
    }
    table->size = size;
    memcpy(table->entries, entries, (size_t)size * sizeof(PcEntry));
    return table;
}

/* The rank table of (rank, need) in the position: kept for small needs, else made in the
 * scratch of segment position `slot`. NULL when out of memory. */
static PcTable *rank_table(PcWork *work, const PcPosition *pos, int rank, int need, int slot) {
    PcTable **home = need < PC_CACHED_NEEDS ? &work->cached[rank][need] : &work->scratch[slot];
    if (*home != NULL && need < PC_CACHED_NEEDS) {
        return *home;
    }
    PyMem_Free(*home);
    *home = make_table(work, need, pos->h[rank], pos->width, pos->marked[rank]);
    return *home;
}

/* ---- The counting states: packed state -> weight, open addressing ---- */

static int states_ready(PcWork *work, int layer, int bits) {
    if (work->layers[layer].capacity < (1 << bits)) {
        int slots = 1 << bits;
        PyMem_Free(work->layers[layer].keys);
        PyMem_Free(work->layers[layer].weights);
        PyMem_Free(work->layers[layer].full);
        PyMem_Free(work->layers[layer].order);
        work->layers[layer].keys = PyMem_Malloc(sizeof(uint64_t) * (size_t)slots);
        work->layers[layer].weights = PyMem_Malloc(sizeof(uint64_t) * (size_t)slots);
        work->layers[layer].full = PyMem_Calloc((size_t)slots, 1);
        work->layers[layer].order = PyMem_Malloc(sizeof(int) * (size_t)slots);
        work->layers[layer].used = 0;
        work->layers[layer].capacity = slots;
        if (!work->layers[layer].keys || !work->layers[layer].weights ||
            !work->layers[layer].full || !work->layers[layer].order) {
            work->layers[layer].capacity = 0;
            work->nomemory = 1;
            return -1;
        }
    }
    work->layers[layer].bits = bits;
    return 0;
}

static void states_clear(PcWork *work, int layer) {
    for (int i = 0; i < work->layers[layer].used; i++) {
        work->layers[layer].full[work->layers[layer].order[i]] = 0;
    }
    work->layers[layer].used = 0;
}

static void states_add(PcWork *work, int layer, uint64_t key, uint64_t weight) {
    int bits = work->layers[layer].bits;
    unsigned mask = (1u << bits) - 1;
    unsigned slot = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
    while (work->layers[layer].full[slot]) {
        if (work->layers[layer].keys[slot] == key) {
            work->layers[layer].weights[slot] =
                pk_add(work->layers[layer].weights[slot], weight, &work->overflow);
            return;
        }
        slot = (slot + 1) & mask;
    }
    if (work->layers[layer].used >= (1 << bits) / 2) {
        work->crowded = 1; /* counted again with every slot, or in Python past them all */
        return;
    }
    work->layers[layer].full[slot] = 1;
    work->layers[layer].keys[slot] = key;
    work->layers[layer].weights[slot] = weight;
    work->layers[layer].order[work->layers[layer].used++] = (int)slot;
}

/* Ways to give the gifts packed in `code` from `cards` unplayed cards (feasibility.gift_ways). */
/* home: R5.gifts; twin test: tests/kernels/test_counting.py */
static uint64_t gift_ways(PcWork *work, long cards, uint64_t code) {
    uint64_t ways = 1;
    for (; code; code >>= PK_OWED_BITS) {
        long count = (long)(code & ((1u << PK_OWED_BITS) - 1));
        if (!count) {
            continue;
        }
        if (count > cards) {
            return 0;
        }
        ways = pk_mul(ways, binom(work, cards, count), &work->overflow);
        cards -= count;
    }
    return ways;
}

/* movegen_count._gift_count_of over `width` rank tables from the state `start` (a choice of earlier
 * ranks: gifts owed << 16 | cards spent << 8 | cards played), with `bits` slots of states. */
static uint64_t count_in(PcWork *work, PcTable **tables, int width, long limit, uint64_t start,
                         int bits) {
    uint64_t shift = start, scale = 1;
    PcTable *spread[PC_WIDTH];
    int spread_count = 0;
    for (int i = 0; i < width; i++) {
        PcTable *table = tables[i];
        if (table->size == 1) {
            shift += table->entries[0].step;
            scale = pk_mul(scale, table->entries[0].weight, &work->overflow);
        } else if (!table->size) {
            return 0; /* a rank nothing can fill */
        } else {
            spread[spread_count++] = table;
        }
    }
    if (!spread_count) {
        long played = (long)(shift & 0xFF);
        return played ? pk_mul(scale, gift_ways(work, limit - played, shift >> 16), &work->overflow)
                      : 0;
    }
    /* The rank with the most choices goes last (a stable sort by size, as Python's). */
    for (int i = 1; i < spread_count; i++) {
        PcTable *moving = spread[i];
        int j = i - 1;
        while (j >= 0 && spread[j]->size > moving->size) {
            spread[j + 1] = spread[j];
            j--;
        }
        spread[j + 1] = moving;
    }
    long budget = limit - (long)((shift >> 8) & 0xFF);
    long after = 0;
    for (int i = 0; i < spread_count; i++) {
        after += spread[i]->entries[0].cost;
    }
    if (after > budget) {
        return 0;
    }
    if (states_ready(work, 0, bits) < 0 || states_ready(work, 1, bits) < 0) {
        return 0;
    }
    int now = 0;
    states_clear(work, 0);
    states_clear(work, 1);
    states_add(work, now, 0, 1);
    int last = spread_count - 1;
    for (int index = 0; index < last && !work->overflow && !work->crowded; index++) {
        PcTable *table = spread[index];
        after -= table->entries[0].cost;
        long bound = budget - after;
        int next = 1 - now;
        states_clear(work, next);
        for (int s = 0; s < work->layers[now].used; s++) {
            int slot = work->layers[now].order[s];
            uint64_t state = work->layers[now].keys[slot], weight = work->layers[now].weights[slot];
            long room = bound - (long)((state >> 8) & 0xFF);
            for (int e = 0; e < table->size; e++) {
                PcEntry *entry = &table->entries[e];
                if (entry->cost > room) {
                    break; /* the entries come cheapest first */
                }
                states_add(work, next, state + entry->step,
                           pk_mul(weight, entry->weight, &work->overflow));
            }
        }
        now = next;
    }
    uint64_t found = 0;
    PcTable *table = spread[last];
    for (int s = 0; s < work->layers[now].used && !work->overflow && !work->crowded; s++) {
        int slot = work->layers[now].order[s];
        uint64_t state = work->layers[now].keys[slot], weight = work->layers[now].weights[slot];
        long room = budget - (long)((state >> 8) & 0xFF);
        state += shift;
        for (int e = 0; e < table->size; e++) {
            PcEntry *entry = &table->entries[e];
            if (entry->cost > room) {
                break;
            }
            uint64_t final = state + entry->step;
            long played = (long)(final & 0xFF);
            if (played) {
                uint64_t ways = gift_ways(work, limit - played, final >> 16);
                uint64_t here = pk_mul(pk_mul(weight, entry->weight, &work->overflow), ways,
                                       &work->overflow);
                found = pk_add(found, here, &work->overflow);
            }
        }
    }
    return pk_mul(found, scale, &work->overflow);
}

/* count_in with the cache-sized states first, then with every slot if they were too few. */
static uint64_t count_tables(PcWork *work, PcTable **tables, int width, long limit,
                             uint64_t start) {
    work->crowded = 0;
    uint64_t found = count_in(work, tables, width, limit, start, PC_SMALL_BITS);
    if (work->crowded && !work->overflow && !work->nomemory) {
        work->crowded = 0;
        found = count_in(work, tables, width, limit, start, PC_STATE_BITS);
        if (work->crowded) {
            work->overflow = 1;
        }
    }
    return found;
}

/* movegen_count._count_group: the publishes of one rank multiset of a usable Novel (R4, R5). */
/* home: R4.check; twin test: tests/kernels/test_counting.py */
static uint64_t count_group(PcWork *work, const PcPosition *pos, const int *ranks,
                            const int *needs, int width) {
    int touches_hand = 0, touches_others = 0;
    for (int i = 0; i < width; i++) {
        touches_hand |= pos->in_hand[ranks[i]];
        touches_others |= pos->others[ranks[i]];
    }
    if (!touches_hand) {
        return 0; /* R4: at least one rank must take a hand card */
    }
    if (!touches_others) {
        /* Only the player's own Masterpieces (free, R5): per rank, `need` of the hand cards
         * and own Masterpieces together, minus the all-pastiche choice (R4). */
        uint64_t total = 1, pastiche_only = 1;
        long cost = 0;
        for (int i = 0; i < width; i++) {
            int rank = ranks[i], need = needs[i], mine = pos->own[rank];
            cost += pk_rank_cost(need, mine);
            total = pk_mul(total, binom(work, pos->h[rank] + mine, need), &work->overflow);
            pastiche_only = pk_mul(pastiche_only, binom(work, mine, need), &work->overflow);
        }
        if (cost > pos->hand_size) {
            return 0; /* R5: the hand cannot even play what the Masterpieces lack */
        }
        return total - pastiche_only;
    }
    PcTable *tables[PC_WIDTH];
    for (int i = 0; i < width; i++) {
        tables[i] = rank_table(work, pos, ranks[i], needs[i], i);
        if (tables[i] == NULL) {
            return 0;
        }
    }
    return count_tables(work, tables, width, pos->hand_size, 0);
}

/* ---- The Total walk (feasibility.PayableTotals._walk), its cost the feasibility.h tally ---- */

typedef struct {
    int pool[PK_RANKS], h[PK_RANKS], own[PK_RANKS];
    int cap[PK_RANKS], own_pre[PK_RANKS];
    int lowest[PK_CARDS + 1];
    int counts[PK_RANKS];
    long limit;
    int first, nomemory;
    unsigned char *store; /* 14 counts per multiset found */
    int stored, capacity;
    int fail_keys[PC_FAIL_SLOTS];
    long fail_costs[PC_FAIL_SLOTS];
    unsigned char fail_full[PC_FAIL_SLOTS];
    int fail_used;
} PcWalk;

static long *fail_find(PcWalk *walk, int key, int insert) {
    unsigned slot = ((unsigned)key * 2654435761u) >> 20 & (PC_FAIL_SLOTS - 1);
    while (walk->fail_full[slot]) {
        if (walk->fail_keys[slot] == key) {
            return &walk->fail_costs[slot];
        }
        slot = (slot + 1) & (PC_FAIL_SLOTS - 1);
    }
    if (!insert || walk->fail_used >= PC_FAIL_SLOTS / 2) {
        return NULL; /* not seen, or no room: the failure is not remembered */
    }
    walk->fail_used++;
    walk->fail_full[slot] = 1;
    walk->fail_keys[slot] = key;
    walk->fail_costs[slot] = -1;
    return &walk->fail_costs[slot];
}

static int walk_totals(PcWalk *walk, int rank, int left, int need, PkCost tally) {
    if (walk->nomemory) {
        return 0;
    }
    long limit = walk->limit;
    if (!left) {
        long cost = need ? -1 : pk_cost_finish(&tally, 0); /* R4: a hand card is played */
        if (cost < 0 || cost > limit) {
            return 0;
        }
        if (walk->stored == walk->capacity) {
            int capacity = walk->capacity ? 2 * walk->capacity : 64;
            unsigned char *store = PyMem_Realloc(walk->store, (size_t)capacity * PK_RANKS);
            if (store == NULL) {
                walk->nomemory = 1;
                return 0;
            }
            walk->store = store;
            walk->capacity = capacity;
        }
        for (int r = 0; r < PK_RANKS; r++) {
            walk->store[walk->stored * PK_RANKS + r] = (unsigned char)walk->counts[r];
        }
        walk->stored++;
        return 1;
    }
    int below = walk->cap[rank]; /* the cards of this rank and below */
    const int *lowest = walk->lowest;
    if (left > below || need > lowest[below] - lowest[below - left] || need < lowest[left] ||
        tally.cost + left - walk->own_pre[rank] > limit) {
        return 0;
    }
    int key = (need << 12) | (left << 6) | (rank << 2) | (tally.excess << 1) | tally.any_hand;
    long *failed = fail_find(walk, key, 0);
    if (failed != NULL && *failed >= 0 && tally.cost >= *failed) {
        return 0;
    }
    int found = 0, top = walk->pool[rank];
    if (left < top) {
        top = left;
    }
    if (need / rank < top) {
        top = need / rank;
    }
    for (int taken = top; taken >= 0; taken--) {
        PkCost next = tally;
        pk_cost_add(&next, taken, walk->h[rank], walk->own[rank], walk->pool[rank]);
        if (next.cost > limit) {
            continue;
        }
        walk->counts[rank] = taken;
        if (walk_totals(walk, rank - 1, left - taken, need - taken * rank, next)) {
            found = 1;
            if (walk->first) {
                walk->counts[rank] = 0;
                return 1;
            }
        }
    }
    walk->counts[rank] = 0;
    if (!found) {
        long *slot = fail_find(walk, key, 1);
        if (slot != NULL && (*slot < 0 || tally.cost < *slot)) {
            *slot = tally.cost;
        }
    }
    return found;
}

/* A walk over pool, h and own (set by the caller) within `limit`; 0, or -1 when a rank vector
 * holds more cards than the deck (refused). */
static int walk_prepare(PcWalk *walk, long limit) {
    int cards = 0;
    walk->cap[0] = walk->own_pre[0] = walk->lowest[0] = 0;
    for (int r = 1; r < PK_RANKS; r++) {
        walk->cap[r] = walk->cap[r - 1] + walk->pool[r];
        walk->own_pre[r] = walk->own_pre[r - 1] + walk->own[r];
        for (int i = 0; i < walk->pool[r]; i++) {
            if (cards >= PK_CARDS) {
                return -1;
            }
            walk->lowest[cards + 1] = walk->lowest[cards] + r;
            cards++;
        }
    }
    memset(walk->fail_full, 0, sizeof walk->fail_full);
    walk->fail_used = 0;
    walk->limit = limit;
    walk->nomemory = 0;
    return 0;
}

static int walk_run(PcWalk *walk, int count, int target, int first) {
    memset(walk->counts, 0, sizeof walk->counts);
    walk->stored = 0;
    walk->first = first;
    PkCost tally;
    pk_cost_start(&tally, 0);
    walk_totals(walk, 13, count, target, tally);
    return walk->nomemory ? -1 : 0;
}

/* The order of PayableTotals.groups: cards per rank descending, which for multisets of one
 * size is their sorted ranks ascending. */
static int compare_groups(const void *a, const void *b) { return memcmp(b, a, PK_RANKS); }

/* ---- A position's segments (movegen_count._plan_segments), for here and masks.c ---- */

typedef struct {
    PcWork *work;
    const PcPosition *pos;
    PkSegmentSink sink;
    void *data;
    int novel, first, payable, done;
} PcEmit;

/* movegen_count._payable: 1 when the hand can pay for a publish of the group (R4, R5; the tally of
 * feasibility.h), which holds exactly when the group has publishes. */
static int group_payable(const PcPosition *pos, const int *ranks, const int *needs, int width) {
    PkCost tally;
    pk_cost_start(&tally, 0);
    for (int i = 0; i < width; i++) {
        int rank = ranks[i], hand = pos->h[rank], mine = pos->own[rank];
        if (!pk_cost_add(&tally, needs[i], hand, mine, pos->pool[rank] - hand - mine)) {
            return 0;
        }
    }
    long cost = pk_cost_finish(&tally, 0);
    return cost >= 0 && cost <= pos->hand_size;
}

/* Count one group; hand it to the sink when it has publishes. 0, or -1 with an exception. */
static int emit_group(PcEmit *emit, const int *ranks, const int *needs, int width) {
    if (emit->done) {
        return 0; /* `first`: this Novel has its publish already */
    }
    uint64_t count = emit->payable ? (uint64_t)group_payable(emit->pos, ranks, needs, width)
                                   : count_group(emit->work, emit->pos, ranks, needs, width);
    if (emit->work->overflow || emit->work->nomemory) {
        return -1;
    }
    if (!count) {
        return 0;
    }
    emit->done = emit->first;
    return emit->sink(emit->data, emit->novel, ranks, needs, width, count);
}

static int emit_straights(PcEmit *emit, int length) {
    int ranks[PK_RANKS], needs[PK_RANKS], top = 0, run = 0;
    for (int k = 0; k < length; k++) {
        needs[k] = 1;
    }
    while (pk_next_straight(emit->pos->pool, length, &top, &run, ranks)) {
        if (emit_group(emit, ranks, needs, length) < 0) {
            return -1;
        }
    }
    return 0;
}

static int emit_kinds(PcEmit *emit, int count) {
    for (int rank = 1; rank < PK_RANKS; rank++) {
        if (emit->pos->pool[rank] >= count && emit_group(emit, &rank, &count, 1) < 0) {
            return -1;
        }
    }
    return 0;
}

static int emit_pairs(PcEmit *emit, int pairs) {
    int doubled[PK_RANKS], size = 0;
    for (int rank = 1; rank < PK_RANKS; rank++) {
        if (emit->pos->pool[rank] >= 2) {
            doubled[size++] = rank;
        }
    }
    if (pairs > size) {
        return 0;
    }
    int chosen[PK_RANKS], ranks[PK_RANKS], needs[PK_RANKS];
    for (int i = 0; i < pairs; i++) {
        chosen[i] = i;
        needs[i] = 2;
    }
    for (;;) { /* the combinations in itertools order */
        for (int i = 0; i < pairs; i++) {
            ranks[i] = doubled[chosen[i]];
        }
        if (emit_group(emit, ranks, needs, pairs) < 0) {
            return -1;
        }
        int i = pairs - 1;
        while (i >= 0 && chosen[i] == i + size - pairs) {
            i--;
        }
        if (i < 0) {
            return 0;
        }
        chosen[i]++;
        for (int j = i + 1; j < pairs; j++) {
            chosen[j] = chosen[j - 1] + 1;
        }
    }
}

/* A Total's payable multisets (sorted, or only the walk's first with `first`), each a group. */
static int emit_totals(PcEmit *emit, PcWalk *walk, int count, int target) {
    if (walk_run(walk, count, target, emit->first) < 0) {
        emit->work->nomemory = 1;
        return -1;
    }
    if (walk->stored > 1) {
        qsort(walk->store, (size_t)walk->stored, PK_RANKS, compare_groups);
    }
    for (int k = 0; k < walk->stored; k++) {
        const unsigned char *counts = walk->store + PK_RANKS * k;
        int ranks[PK_RANKS], needs[PK_RANKS], width = 0;
        for (int rank = 1; rank < PK_RANKS; rank++) {
            if (counts[rank]) {
                ranks[width] = rank;
                needs[width++] = counts[rank];
            }
        }
        /* The walk finds only the multisets the hand can pay for. */
        if (emit->payable ? emit->sink(emit->data, emit->novel, ranks, needs, width, 1)
                          : emit_group(emit, ranks, needs, width)) {
            return -1;
        }
    }
    return 0;
}

/* Whether a plan entry is a pattern's code (movegen_count._plan_entries' check). */
static int plan_entry_valid(const int32_t *entry) {
    int32_t kind = entry[0], first = entry[1], second = entry[2];
    switch (kind) {
    case PK_KIND_STRAIGHT:
        return first >= PC_STRAIGHT_LOW && first <= PC_STRAIGHT_HIGH;
    case PK_KIND_OF_A_KIND:
        return first >= PC_OF_A_KIND_LOW && first <= PC_OF_A_KIND_HIGH;
    case PK_KIND_PAIRS:
        return first >= PC_PAIRS_LOW && first <= PC_PAIRS_HIGH;
    case PK_KIND_TOTAL:
        return first >= PC_TOTAL_LOW && first <= PC_TOTAL_HIGH && second >= first &&
               second <= 13 * first;
    default:
        return 0;
    }
}

int pk_count_plan(PyObject *module, const unsigned char *table, long player,
                  const unsigned char *usable, const int32_t *plan, Py_ssize_t novels, int first,
                  int payable, PkSegmentSink sink, void *data) {
    for (Py_ssize_t i = 0; i < novels; i++) {
        if (!plan_entry_valid(plan + PK_PLAN_FIELDS * i)) {
            PyErr_Format(PyExc_ValueError, "plan entry %zd is no pattern's code", i);
            return -1;
        }
    }
    PcPosition pos;
    if (pc_read(module, table, player, &pos) < 0) {
        return -1;
    }
    if (!pos.hand_size) {
        return 0;
    }
    PcWork work;
    work_start(&work, module);
    PcWalk *walk = NULL;
    PcEmit emit = {&work, &pos, sink, data, 0, first, payable, 0};
    int status = 0;
    /* Every cited Masterpiece of another player costs a gift card, so a publish uses at most
     * the whole hand plus the player's own Masterpieces (R4, R5). */
    long max_size = pos.hand_size + pos.own_total;
    for (Py_ssize_t i = 0; i < novels && status == 0; i++) {
        const int32_t *entry = plan + PK_PLAN_FIELDS * i;
        if (!usable[i] || entry[3] > max_size) {
            continue; /* R6: first come, first served, and one copy per player */
        }
        emit.novel = (int)i;
        emit.done = 0;
        switch (entry[0]) {
        case PK_KIND_STRAIGHT:
            status = emit_straights(&emit, entry[1]);
            break;
        case PK_KIND_OF_A_KIND:
            status = emit_kinds(&emit, entry[1]);
            break;
        case PK_KIND_PAIRS:
            status = emit_pairs(&emit, entry[1]);
            break;
        default: /* PK_KIND_TOTAL: the position's walk, shared by its Totals */
            if (walk == NULL) {
                walk = PyMem_Malloc(sizeof(PcWalk));
                if (walk == NULL) {
                    work.nomemory = 1;
                    status = -1;
                    break;
                }
                walk->store = NULL;
                walk->capacity = 0;
                memcpy(walk->pool, pos.pool, sizeof pos.pool);
                memcpy(walk->h, pos.h, sizeof pos.h);
                memcpy(walk->own, pos.own, sizeof pos.own);
                walk_prepare(walk, pos.hand_size); /* a card table holds 49 cards */
            }
            status = emit_totals(&emit, walk, entry[1], entry[2]);
        }
    }
    if (status < 0 && !PyErr_Occurred()) {
        work_fail(&work, module);
    }
    if (walk != NULL) {
        PyMem_Free(walk->store);
        PyMem_Free(walk);
    }
    work_end(&work);
    return status;
}

/* ---- publish_counts ---- */

static int append_segment(void *data, int novel, const int *ranks, const int *needs, int width,
                          uint64_t count) {
    PyObject *item = PyTuple_New(4);
    if (item == NULL) {
        return -1;
    }
    PyObject *parts[4] = {PyLong_FromLong(novel), pk_int_tuple(ranks, width),
                          pk_int_tuple(needs, width), PyLong_FromUnsignedLongLong(count)};
    int status = 0;
    for (int i = 0; i < 4; i++) {
        if (parts[i] == NULL) {
            status = -1;
            continue;
        }
        PyTuple_SET_ITEM(item, i, parts[i]); /* the tuple owns it, even on failure */
    }
    if (status == 0) {
        status = PyList_Append((PyObject *)data, item);
    }
    Py_DECREF(item);
    return status;
}

int pk_plan_args(PkPlanArgs *args, PyObject *table, PyObject *usable, PyObject *plan) {
    if (pk_card_table(table, &args->table_view, &args->table) < 0) {
        return -1;
    }
    if (pk_plan(plan, &args->plan_view, &args->plan, &args->novels) < 0) {
        PyBuffer_Release(&args->table_view);
        return -1;
    }
    if (PyObject_GetBuffer(usable, &args->usable_view, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&args->table_view);
        PyBuffer_Release(&args->plan_view);
        return -1;
    }
    if (args->usable_view.len != args->novels) {
        PyErr_Format(PyExc_ValueError, "%zd usable flags for a plan of %zd Novels",
                     args->usable_view.len, args->novels);
        pk_plan_args_release(args);
        return -1;
    }
    args->usable = (const unsigned char *)args->usable_view.buf;
    return 0;
}

void pk_plan_args_release(PkPlanArgs *args) {
    PyBuffer_Release(&args->table_view);
    PyBuffer_Release(&args->plan_view);
    PyBuffer_Release(&args->usable_view);
}

int pk_player(PyObject *module, PyObject *source, long *player) {
    int overflow;
    *player = PyLong_AsLongAndOverflow(source, &overflow);
    if (*player == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow) {
        pk_refuse(module, "a player beyond a C long");
        return -1;
    }
    return 0;
}

/* publish_counts(table, player, usable, plan, first): movegen_count._publish_counts_py. */
static PyObject *publish_counts(PyObject *module, PyObject *args) {
    PyObject *table, *player_arg, *usable, *plan;
    long player;
    int first;
    if (!PyArg_ParseTuple(args, "OOOOp:publish_counts", &table, &player_arg, &usable, &plan,
                          &first) ||
        pk_player(module, player_arg, &player) < 0) {
        return NULL;
    }
    PkPlanArgs read;
    if (pk_plan_args(&read, table, usable, plan) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out != NULL && pk_count_plan(module, read.table, player, read.usable, read.plan,
                                     read.novels, first, 0, append_segment, out) < 0) {
        Py_CLEAR(out);
    }
    pk_plan_args_release(&read);
    return out;
}

/* ---- segment_count and decode_publish: one segment ---- */

/* The ranks and needs of a segment: strictly ascending ranks within 1-13, needs within 0-49
 * (else refused). Returns the width, or -1 with an exception. */
static int read_group(PyObject *module, PyObject *ranks_arg, PyObject *needs_arg, int *ranks,
                      int *needs) {
    PyObject *ranks_seq = PySequence_Fast(ranks_arg, "ranks must be a sequence");
    if (ranks_seq == NULL) {
        return -1;
    }
    PyObject *needs_seq = PySequence_Fast(needs_arg, "needs must be a sequence");
    if (needs_seq == NULL) {
        Py_DECREF(ranks_seq);
        return -1;
    }
    Py_ssize_t width = PySequence_Fast_GET_SIZE(ranks_seq);
    int status = 0;
    if (PySequence_Fast_GET_SIZE(needs_seq) != width) {
        PyErr_SetString(PyExc_ValueError, "ranks and needs of different lengths");
        status = -1;
    } else if (width > PC_WIDTH) {
        status = -1;
        pk_refuse(module, "a segment of more than 13 ranks");
    }
    for (Py_ssize_t i = 0; i < width && status == 0; i++) {
        long rank = PyLong_AsLong(PySequence_Fast_GET_ITEM(ranks_seq, i));
        long need = PyLong_AsLong(PySequence_Fast_GET_ITEM(needs_seq, i));
        if (PyErr_Occurred()) {
            status = -1;
        } else if (rank < 1 || rank > 13 || (i > 0 && rank <= ranks[i - 1]) || need < 0 ||
                   need > PK_CARDS) {
            status = -1;
            pk_refuse(module, "ranks not ascending within 1-13, or a need beyond 49");
        } else {
            ranks[i] = (int)rank;
            needs[i] = (int)need;
        }
    }
    Py_DECREF(ranks_seq);
    Py_DECREF(needs_seq);
    return status < 0 ? -1 : (int)width;
}

/* segment_count(table, player, ranks, needs): movegen_count._segment_count_py. */
static PyObject *segment_count(PyObject *module, PyObject *args) {
    PyObject *table_arg, *player_arg, *ranks_arg, *needs_arg;
    long player;
    if (!PyArg_ParseTuple(args, "OOOO:segment_count", &table_arg, &player_arg, &ranks_arg,
                          &needs_arg) ||
        pk_player(module, player_arg, &player) < 0) {
        return NULL;
    }
    Py_buffer view;
    const unsigned char *table;
    if (pk_card_table(table_arg, &view, &table) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    PcPosition pos;
    int ranks[PC_WIDTH], needs[PC_WIDTH];
    int width = read_group(module, ranks_arg, needs_arg, ranks, needs);
    if (width >= 0 && pc_read(module, table, player, &pos) == 0) {
        PcWork work;
        work_start(&work, module);
        uint64_t count = count_group(&work, &pos, ranks, needs, width);
        if (work.overflow || work.nomemory) {
            work_fail(&work, module);
        } else {
            result = PyLong_FromUnsignedLongLong(count);
        }
        work_end(&work);
    }
    PyBuffer_Release(&view);
    return result;
}

/* The `digit`-th `take`-combination of positions 0..size-1, in itertools order. */
static void unrank(PcWork *work, int size, int take, uint64_t digit, int *out) {
    int start = 0;
    for (int slot = 0; slot < take; slot++) {
        for (int i = start; i < size; i++) {
            uint64_t block = binom(work, size - i - 1, take - slot - 1);
            if (digit < block) {
                out[slot] = i;
                start = i + 1;
                break;
            }
            digit -= block;
        }
    }
}

static int ascending(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The cards of the index-th move of a shape (movegen_decode._Walk._pick), into *out: the hand cards
 * per rank, then the Masterpieces per (rank, owner), each a combination, then the gifts; the
 * gifts vary fastest. */
/* home: R5.gifts; twin test: tests/kernels/test_counting.py */
static void pick_cards(PcWork *work, const PcPosition *pos, const unsigned char *table,
                       const int *ranks, int width, const int *from_hand,
                       const signed char *const *split, uint64_t code, uint64_t index,
                       PkPick *out) {
    /* The parts, as (first item, size, taken) over `items`: hand cards, then Masterpieces. */
    int items[PK_CARDS * 2], item_count = 0;
    int part_first[PC_WIDTH * (PC_SEATS + 1)], part_size[PC_WIDTH * (PC_SEATS + 1)];
    int part_take[PC_WIDTH * (PC_SEATS + 1)], parts = 0, hand_parts, played = 0;
    for (int i = 0; i < width; i++) {
        if (!from_hand[i]) {
            continue;
        }
        part_first[parts] = item_count;
        part_take[parts] = from_hand[i];
        played += from_hand[i];
        for (int c = 0; c < pos->hand_size; c++) {
            if (PK_RANK_OF(pos->hand[c]) == ranks[i]) {
                items[item_count++] = pos->hand[c];
            }
        }
        part_size[parts] = item_count - part_first[parts];
        parts++;
    }
    hand_parts = parts;
    for (int i = 0; i < width; i++) {
        for (int owner = 0; owner < pos->width; owner++) {
            if (!split[i][owner]) {
                continue;
            }
            part_first[parts] = item_count;
            part_take[parts] = split[i][owner];
            for (int card = 0; card < PK_CARDS; card++) {
                if (table[card] == (PK_MASTER | owner) && PK_RANK_OF(card) == ranks[i]) {
                    items[item_count++] = card;
                }
            }
            part_size[parts] = item_count - part_first[parts];
            parts++;
        }
    }
    /* The gifts owed per owner, ascending, and the ways to give them (R5). */
    int owed_owner[PC_SEATS], owed_count[PC_SEATS], owed_parts = 0;
    for (int owner = 0; code; owner++, code >>= PK_OWED_BITS) {
        int count = (int)(code & ((1u << PK_OWED_BITS) - 1));
        if (count) {
            owed_owner[owed_parts] = owner;
            owed_count[owed_parts++] = count;
        }
    }
    uint64_t gift_total = 1, sizes[PC_SEATS];
    int left = pos->hand_size - played;
    for (int j = 0; j < owed_parts; j++) {
        sizes[j] = binom(work, left, owed_count[j]);
        gift_total = pk_mul(gift_total, sizes[j], &work->overflow);
        left -= owed_count[j];
    }
    uint64_t gift_index = index % gift_total; /* not 0: the descent found the move */
    index /= gift_total;
    int picked[PK_CARDS * 2], rest[PK_CARDS], rest_count = 0;
    out->played_count = out->cited_count = out->gift_count = 0;
    for (int slot = parts - 1; slot >= 0; slot--) {
        uint64_t ways = binom(work, part_size[slot], part_take[slot]);
        unrank(work, part_size[slot], part_take[slot], index % ways, picked + part_first[slot]);
        index /= ways;
    }
    for (int slot = 0; slot < parts; slot++) {
        for (int t = 0; t < part_take[slot]; t++) {
            int card = items[part_first[slot] + picked[part_first[slot] + t]];
            if (slot < hand_parts) {
                out->played[out->played_count++] = card;
            } else {
                out->cited[out->cited_count++] = card;
            }
        }
    }
    qsort(out->played, (size_t)out->played_count, sizeof(int), ascending);
    qsort(out->cited, (size_t)out->cited_count, sizeof(int), ascending);
    for (int c = 0, k = 0; c < pos->hand_size; c++) { /* the unplayed cards, ascending */
        if (k < out->played_count && out->played[k] == pos->hand[c]) {
            k++;
        } else {
            rest[rest_count++] = pos->hand[c];
        }
    }
    uint64_t digits[PC_SEATS];
    for (int j = owed_parts - 1; j >= 0; j--) {
        digits[j] = gift_index % sizes[j];
        gift_index /= sizes[j];
    }
    for (int j = 0; j < owed_parts; j++) {
        int taken[PK_CARDS];
        unrank(work, rest_count, owed_count[j], digits[j], taken);
        for (int t = 0; t < owed_count[j]; t++) {
            out->gift_owner[out->gift_count] = owed_owner[j];
            out->gift_card[out->gift_count++] = rest[taken[t]];
        }
        int kept = 0;
        for (int r = 0, next = 0; r < rest_count; r++) {
            if (next < owed_count[j] && taken[next] == r) {
                next++;
            } else {
                rest[kept++] = rest[r];
            }
        }
        rest_count = kept;
    }
}

/* The index as a 64-bit count: -1 with IndexError when negative, -2 refused beyond 64 bits. */
static int read_index(PyObject *module, PyObject *index_arg, uint64_t *index) {
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(index_arg, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow < 0 || (!overflow && value < 0)) {
        PyErr_SetString(PyExc_IndexError, "publish index out of the segment's range");
        return -1;
    }
    if (overflow > 0) {
        pk_refuse(module, "an index beyond 2^63 - 1");
        return -1;
    }
    *index = (uint64_t)value;
    return 0;
}

/* The shape of each rank by the descent over completion counts, then its cards (pick_cards).
 * The ranks and needs are trusted: within read_group's ranges, as pk_count_plan gives them. */
/* home: R4.check; twin test: tests/kernels/test_counting.py */
int pk_decode_group(PyObject *module, const unsigned char *table, long player, const int *ranks,
                    const int *needs, int width, uint64_t index, PkPick *out) {
    PcPosition pos;
    if (pc_read(module, table, player, &pos) < 0) {
        return -1;
    }
    int status = -1;
    PcWork work;
    work_start(&work, module);
    PcShapes *lists = PyMem_Malloc(sizeof(PcShapes) * (size_t)(width ? width : 1));
    PcTable *tables[PC_WIDTH];
    if (lists == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    for (int i = 0; i < width; i++) {
        list_shapes(&work, &lists[i], needs[i], pos.h[ranks[i]], pos.width, pos.marked[ranks[i]]);
        tables[i] = rank_table(&work, &pos, ranks[i], needs[i], i);
        if (tables[i] == NULL) {
            work_fail(&work, module);
            goto out;
        }
    }
    long limit = pos.hand_size, played = 0, owed = 0;
    uint64_t code = 0, ways = 1;
    int chosen[PC_WIDTH], found_all = 1;
    for (int i = 0; i < width && !work.overflow; i++) {
        long room = limit - played - owed;
        const PcShapes *list = &lists[i];
        chosen[i] = -1;
        for (int k = 0; k < list->size && !work.overflow; k++) {
            if (list->from_hand[k] + list->extra[k] > room) {
                continue;
            }
            /* The moves completing this choice (movegen_decode._Walk.completions). */
            long now = played + list->from_hand[k], spent = now + owed + list->extra[k];
            uint64_t start = ((code + list->code[k]) << 16) + ((uint64_t)spent << 8) +
                             (uint64_t)now;
            uint64_t rest = count_tables(&work, tables + i + 1, width - i - 1, limit, start);
            uint64_t block = pk_mul(pk_mul(ways, list->weight[k], &work.overflow), rest,
                                    &work.overflow);
            if (index < block) {
                chosen[i] = k;
                ways = pk_mul(ways, list->weight[k], &work.overflow);
                played = now;
                code += list->code[k];
                owed += list->extra[k];
                break;
            }
            index -= block;
        }
        if (chosen[i] < 0) {
            found_all = 0;
            break;
        }
    }
    if (work.overflow || work.nomemory) {
        work_fail(&work, module);
        goto out;
    }
    if (!found_all || !played) {
        PyErr_SetString(PyExc_IndexError, "publish index out of the segment's range");
        goto out;
    }
    int from_hand[PC_WIDTH];
    const signed char *split[PC_WIDTH];
    for (int i = 0; i < width; i++) {
        from_hand[i] = lists[i].from_hand[chosen[i]];
        split[i] = lists[i].split[chosen[i]];
    }
    pick_cards(&work, &pos, table, ranks, width, from_hand, split, code, index, out);
    status = 0;
out:
    PyMem_Free(lists);
    work_end(&work);
    return status;
}

/* decode_publish(table, player, ranks, needs, index): movegen_decode._decode_publish_py, as
 * (played, cited, ((owner, card), ...)). The arguments are read before the position, as ever,
 * so that their errors come first. */
static PyObject *decode_publish(PyObject *module, PyObject *args) {
    PyObject *table_arg, *player_arg, *ranks_arg, *needs_arg, *index_arg;
    long player;
    if (!PyArg_ParseTuple(args, "OOOOO:decode_publish", &table_arg, &player_arg, &ranks_arg,
                          &needs_arg, &index_arg) ||
        pk_player(module, player_arg, &player) < 0) {
        return NULL;
    }
    Py_buffer view;
    const unsigned char *table;
    if (pk_card_table(table_arg, &view, &table) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    int ranks[PC_WIDTH], needs[PC_WIDTH];
    uint64_t index;
    PkPick pick;
    int width = read_group(module, ranks_arg, needs_arg, ranks, needs);
    if (width >= 0 && read_index(module, index_arg, &index) == 0 &&
        pk_decode_group(module, table, player, ranks, needs, width, index, &pick) == 0) {
        PyObject *gifts = PyTuple_New(pick.gift_count);
        for (int i = 0; gifts != NULL && i < pick.gift_count; i++) {
            PyObject *pair = Py_BuildValue("(ii)", pick.gift_owner[i], pick.gift_card[i]);
            if (pair == NULL) {
                Py_CLEAR(gifts);
                break;
            }
            PyTuple_SET_ITEM(gifts, i, pair);
        }
        if (gifts != NULL) { /* "N" steals each part, and drops them all when one is NULL */
            result = Py_BuildValue("(NNN)", pk_int_tuple(pick.played, pick.played_count),
                                   pk_int_tuple(pick.cited, pick.cited_count), gifts);
        }
    }
    PyBuffer_Release(&view);
    return result;
}

/* ---- payable_totals ---- */

/* payable_totals(pool, hand, own, limit, count, target, first): feasibility._payable_totals_py,
 * the multisets as 14-tuples of cards per rank, in walk order. */
static PyObject *payable_totals(PyObject *module, PyObject *args) {
    PyObject *pool, *hand, *own;
    long limit, count, target;
    int first;
    if (!PyArg_ParseTuple(args, "OOOlllp:payable_totals", &pool, &hand, &own, &limit, &count,
                          &target, &first)) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return pk_refuse(module, "a limit, count or target beyond a C long");
        }
        return NULL;
    }
    PcWalk *walk = PyMem_Malloc(sizeof(PcWalk));
    if (walk == NULL) {
        return PyErr_NoMemory();
    }
    walk->store = NULL;
    walk->capacity = 0;
    PyObject *found = NULL;
    if (pk_rank_vector(module, pool, 0, PK_CARDS, walk->pool) < 0 ||
        pk_rank_vector(module, hand, 0, PK_CARDS, walk->h) < 0 ||
        pk_rank_vector(module, own, 0, PK_CARDS, walk->own) < 0) {
        goto out;
    }
    if (count < 0 || count > PK_CARDS || target < 0 || target > PC_MAX_TARGET ||
        walk_prepare(walk, limit) < 0) {
        pk_refuse(module, "a Total beyond 49 cards");
        goto out;
    }
    if (walk_run(walk, (int)count, (int)target, first) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    found = PyList_New(walk->stored);
    for (int k = 0; found != NULL && k < walk->stored; k++) {
        int counts[PK_RANKS];
        for (int r = 0; r < PK_RANKS; r++) {
            counts[r] = walk->store[PK_RANKS * k + r];
        }
        PyObject *item = pk_int_tuple(counts, PK_RANKS);
        if (item == NULL) {
            Py_CLEAR(found);
            break;
        }
        PyList_SET_ITEM(found, k, item);
    }
out:
    PyMem_Free(walk->store);
    PyMem_Free(walk);
    return found;
}

PyMethodDef pk_counting_methods[] = {
    {"publish_counts", publish_counts, METH_VARARGS,
     "publish_counts(table, player, usable, plan, first): a position's publish segments as "
     "(plan index, ranks, needs, count) (movegen_count._publish_counts_py)."},
    {"segment_count", segment_count, METH_VARARGS,
     "segment_count(table, player, ranks, needs): the publishes of one rank multiset "
     "(movegen_count._segment_count_py)."},
    {"decode_publish", decode_publish, METH_VARARGS,
     "decode_publish(table, player, ranks, needs, index): a segment's publish of an index as "
     "card indexes (movegen_decode._decode_publish_py)."},
    {"payable_totals", payable_totals, METH_VARARGS,
     "payable_totals(pool, hand, own, limit, count, target, first): the payable multisets of a "
     "Total (feasibility._payable_totals_py)."},
    {NULL, NULL, 0, NULL},
};
