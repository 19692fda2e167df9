/*
 * TRANSITIONAL: the kernels not yet moved to counting.c, masks.c, observe.c and playouts.c,
 * built as pastiche_core._legacy until then. This file goes when they have all moved.
 *
 * Optional compiled kernels of the move counting (pastiche_core.movegen).
 *
 * Each function is the exact twin of pure-Python code that stays the rules'
 * definition and the fallback when this module is not built:
 *
 *   publish_counts  = movegen._publish_segments_py: a position's publish segments (R4-R7)
 *   decode_publish  = PublishSegment._at_py: the publish of an index
 *   segment_count   = movegen._gift_count_of over movegen._rank_table (R4, R5)
 *   payable_totals  = the multisets PayableTotals._walk finds (R4, R5)
 *   fill_public     = rl.observation.ObservationEncoder._public_py: an observation vector
 *   start_actions   = the reads and Novels of rl.encoding.MoveBuilder._action_mask_py
 *   publish_start   = publish_table and the Novel's multisets from publish_counts together
 *   publish_table, cards_mask, feasible_combos = rl.encoding's _Table, _cards_mask_py and
 *                     _feasible: the masks of a publish built card by card
 *
 * They work on 64-bit integers. When a count would not fit, or a position is
 * larger than the fixed tables below, they raise OverflowError and the caller
 * uses the Python reference, so the answer never depends on the module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_RANKS 16    /* ranks in one segment (a pattern covers at most 13) */
#define MAX_ENTRIES 256 /* entries of one rank table */
#define STATE_BITS 15
#define MAX_STATES (1 << STATE_BITS) /* slots of the counting states (half may be used) */
#define SMALL_STATE_BITS 9           /* the slots tried first: they stay in the cache */
#define MAX_CARDS 64    /* the binomial table: cards in hand */
#define OWED_BITS 8

static uint64_t binom[MAX_CARDS + 1][MAX_CARDS + 1];

static void fill_binomials(void) {
    for (int n = 0; n <= MAX_CARDS; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++) {
            binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
        }
    }
}

typedef struct {
    int cost;
    uint64_t step;
    uint64_t weight;
} Entry;

typedef struct {
    int size;
    Entry entries[MAX_ENTRIES];
} Table;

/* Set when a value does not fit or a table is too small: the caller falls back. */
static int too_big;
/* Set when the counting states outgrow the slots in use. */
static int crowded;

static uint64_t mul(uint64_t a, uint64_t b) {
    uint64_t out;
    if (__builtin_mul_overflow(a, b, &out)) {
        too_big = 1;
        return 0;
    }
    return out;
}

static uint64_t add(uint64_t a, uint64_t b) {
    uint64_t out;
    if (__builtin_add_overflow(a, b, &out)) {
        too_big = 1;
        return 0;
    }
    return out;
}

/* Ways to give the gifts packed in `code` from `cards` unplayed cards (R5), owner by owner. */
static uint64_t gift_ways(long cards, uint64_t code) {
    uint64_t ways = 1;
    while (code) {
        long count = (long)(code & ((1u << OWED_BITS) - 1));
        code >>= OWED_BITS;
        if (!count) {
            continue;
        }
        if (count > cards) {
            return 0;
        }
        if (cards > MAX_CARDS) {
            too_big = 1;
            return 0;
        }
        ways = mul(ways, binom[cards][count]);
        cards -= count;
    }
    return ways;
}

/* A hash map of counting states: packed state -> weight, open addressing. */
typedef struct {
    int used;
    int bits; /* the slots in use: 1 << bits */
    uint64_t keys[MAX_STATES];
    uint64_t weights[MAX_STATES];
    unsigned char full[MAX_STATES];
    int order[MAX_STATES]; /* slots in insertion order, to walk the states */
} States;

static void states_clear(States *states) {
    for (int i = 0; i < states->used; i++) {
        states->full[states->order[i]] = 0;
    }
    states->used = 0;
}

static void states_add(States *states, uint64_t key, uint64_t weight) {
    uint64_t hash = key * 0x9E3779B97F4A7C15ull;
    unsigned mask = (1u << states->bits) - 1;
    unsigned slot = (unsigned)(hash >> (64 - states->bits));
    while (states->full[slot]) {
        if (states->keys[slot] == key) {
            states->weights[slot] = add(states->weights[slot], weight);
            return;
        }
        slot = (slot + 1) & mask;
    }
    if (states->used >= (1 << states->bits) / 2) {
        crowded = 1; /* counted again with every slot, or in Python past them all */
        return;
    }
    states->full[slot] = 1;
    states->keys[slot] = key;
    states->weights[slot] = weight;
    states->order[states->used++] = slot;
}

static States layers[2];

static Table tables_buffer[MAX_RANKS];
static Table *buffer_pointers[MAX_RANKS] = {
    &tables_buffer[0],  &tables_buffer[1],  &tables_buffer[2],  &tables_buffer[3],
    &tables_buffer[4],  &tables_buffer[5],  &tables_buffer[6],  &tables_buffer[7],
    &tables_buffer[8],  &tables_buffer[9],  &tables_buffer[10], &tables_buffer[11],
    &tables_buffer[12], &tables_buffer[13], &tables_buffer[14], &tables_buffer[15],
};

/* The count of movegen._gift_count_of over `width` rank tables, line for line, from the
 * state `start` (a choice of earlier ranks: gifts owed, cards spent and played, packed). */
static uint64_t count_tables_in(Table **tables, int width, long limit, uint64_t start, int bits);

static uint64_t count_tables(Table **tables, int width, long limit, uint64_t start) {
    crowded = 0;
    uint64_t found = count_tables_in(tables, width, limit, start, SMALL_STATE_BITS);
    if (crowded && !too_big) {
        crowded = 0;
        found = count_tables_in(tables, width, limit, start, STATE_BITS);
        if (crowded) {
            too_big = 1;
        }
    }
    return found;
}

static uint64_t count_tables_in(Table **tables, int width, long limit, uint64_t start, int bits) {
    uint64_t shift = start, scale = 1;
    Table *spread[MAX_RANKS];
    int spread_count = 0;
    for (int i = 0; i < width; i++) {
        Table *table = tables[i];
        if (table->size == 0) {
            return 0; /* a rank nothing can fill: no move */
        }
        if (table->size == 1) {
            shift += table->entries[0].step;
            scale = mul(scale, table->entries[0].weight);
        } else {
            spread[spread_count++] = table;
        }
    }
    if (!spread_count) {
        long played = (long)(shift & 0xFF);
        return played ? mul(scale, gift_ways(limit - played, shift >> 16)) : 0;
    }
    /* The rank with the most choices goes last (a stable sort by size, as Python's). */
    for (int i = 1; i < spread_count; i++) {
        Table *moving = spread[i];
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
    States *states = &layers[0], *following = &layers[1];
    states_clear(states);
    states_clear(following);
    states->bits = following->bits = bits;
    states_add(states, 0, 1);
    int last = spread_count - 1;
    for (int index = 0; index < last && !too_big && !crowded; index++) {
        Table *table = spread[index];
        after -= table->entries[0].cost;
        long bound = budget - after;
        states_clear(following);
        for (int s = 0; s < states->used; s++) {
            int slot = states->order[s];
            uint64_t state = states->keys[slot], weight = states->weights[slot];
            long room = bound - (long)((state >> 8) & 0xFF);
            for (int e = 0; e < table->size; e++) {
                Entry *entry = &table->entries[e];
                if (entry->cost > room) {
                    break; /* the entries come cheapest first */
                }
                states_add(following, state + entry->step, mul(weight, entry->weight));
            }
        }
        States *swap = states;
        states = following;
        following = swap;
    }
    uint64_t found = 0;
    Table *table = spread[last];
    for (int s = 0; s < states->used && !too_big && !crowded; s++) {
        int slot = states->order[s];
        uint64_t state = states->keys[slot], weight = states->weights[slot];
        long room = budget - (long)((state >> 8) & 0xFF);
        state += shift;
        for (int e = 0; e < table->size; e++) {
            Entry *entry = &table->entries[e];
            if (entry->cost > room) {
                break;
            }
            uint64_t final = state + entry->step;
            long played = (long)(final & 0xFF);
            if (played) {
                uint64_t ways = gift_ways(limit - played, final >> 16);
                found = add(found, mul(mul(weight, entry->weight), ways));
            }
        }
    }
    return mul(found, scale);
}

static PyObject *count_result(uint64_t found) {
    if (too_big) {
        PyErr_SetString(PyExc_OverflowError, "count too large for the compiled kernel");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(found);
}

/* ---- segment_count: the rank tables made here (movegen._rank_shapes, _rank_table) ---- */

#define MAX_OWNERS 8

#define MAX_SHAPES 128 /* shapes of one rank (a rank has at most a few cards) */

typedef struct {
    int size;
    int from_hand[MAX_SHAPES], extra[MAX_SHAPES];
    int split[MAX_SHAPES][MAX_OWNERS];
    uint64_t weight[MAX_SHAPES], code[MAX_SHAPES];
} ShapeList;

typedef struct {
    ShapeList *list;
    int in_hand, owners, bounds[MAX_OWNERS], own[MAX_OWNERS], split[MAX_OWNERS], from_hand;
} Lister;

/* Every way to fill a rank in movegen._rank_shapes' order: hand cards ascending, then the
 * Masterpieces per owner, the first owner most (itertools.product of descending ranges). */
static void list_split(Lister *lister, int owner, int left) {
    if (owner == lister->owners) {
        if (left) {
            return;
        }
        ShapeList *list = lister->list;
        if (list->size >= MAX_SHAPES) {
            too_big = 1;
            return;
        }
        int k = list->size++;
        uint64_t weight = binom[lister->in_hand][lister->from_hand], code = 0;
        int owed = 0;
        for (int o = 0; o < lister->owners; o++) {
            int taken = lister->split[o];
            list->split[k][o] = taken;
            weight = mul(weight, binom[lister->bounds[o]][taken]);
            if (taken && !lister->own[o]) {
                code += (uint64_t)taken << (OWED_BITS * o);
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
    lister->split[owner] = 0;
}

static void list_shapes(ShapeList *list, int need, int in_hand, int owners, const int *marked) {
    Lister lister;
    int on_table = 0;
    for (int o = 0; o < owners; o++) {
        lister.own[o] = marked[o] < 0;
        lister.bounds[o] = marked[o] < 0 ? -marked[o] - 1 : marked[o];
        lister.split[o] = 0;
        on_table += lister.bounds[o];
    }
    lister.list = list;
    lister.in_hand = in_hand;
    lister.owners = owners;
    list->size = 0;
    int lowest = need - on_table > 0 ? need - on_table : 0;
    int highest = need < in_hand ? need : in_hand;
    for (int from_hand = lowest; from_hand <= highest; from_hand++) {
        lister.from_hand = from_hand;
        list_split(&lister, 0, need - from_hand);
    }
}

/* The rank table of (need, in hand, Masterpieces per owner with the own marked -n - 1),
 * from C numbers (all checked to be within MAX_CARDS by the callers): the rank's shapes
 * merged by (cost, step), cheapest first, as _rank_table does. */
static void fill_table(Table *table, int need, int in_hand, int owners, const int *marked) {
    ShapeList list;
    list_shapes(&list, need, in_hand, owners, marked);
    table->size = 0;
    for (int k = 0; k < list.size; k++) {
        int cost = list.from_hand[k] + list.extra[k];
        uint64_t step = (list.code[k] << 16) + ((uint64_t)cost << 8) + (uint64_t)list.from_hand[k];
        int e = 0;
        while (e < table->size && table->entries[e].step != step) { /* the step holds the cost */
            e++;
        }
        if (e < table->size) {
            table->entries[e].weight = add(table->entries[e].weight, list.weight[k]);
            continue;
        }
        if (table->size >= MAX_ENTRIES) {
            too_big = 1;
            return;
        }
        table->entries[e].cost = cost;
        table->entries[e].step = step;
        table->entries[e].weight = list.weight[k];
        table->size++;
    }
    /* Cheapest first (a stable insertion sort: equal costs keep their order). */
    for (int i = 1; i < table->size; i++) {
        Entry moving = table->entries[i];
        int j = i - 1;
        while (j >= 0 && table->entries[j].cost > moving.cost) {
            table->entries[j + 1] = table->entries[j];
            j--;
        }
        table->entries[j + 1] = moving;
    }
}

/* The rank table of (need, in hand, Masterpieces per owner) read from Python. */
static int make_table(Table *table, int need, int in_hand, PyObject *marked) {
    int counts[MAX_OWNERS];
    PyObject *seq = PySequence_Fast(marked, "Masterpieces per owner must be a sequence");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t owners = PySequence_Fast_GET_SIZE(seq);
    if (owners > MAX_OWNERS || need < 0 || need > MAX_CARDS || in_hand < 0 ||
        in_hand > MAX_CARDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
        return -1;
    }
    for (Py_ssize_t owner = 0; owner < owners; owner++) {
        long n = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, owner));
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (n > MAX_CARDS || n < -MAX_CARDS - 1) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
            return -1;
        }
        counts[owner] = (int)n;
    }
    Py_DECREF(seq);
    fill_table(table, need, in_hand, (int)owners, counts);
    return 0;
}

/* segment_count(ranks, needs, hand, marked, limit): the count of a segment citing
 * others' Masterpieces, its rank tables made from the hand's cards per rank and the
 * Masterpieces per owner of each rank (`marked`, 14 sequences). */
static PyObject *segment_count_impl(PyObject *args) {
    PyObject *ranks_arg, *needs_arg, *hand_arg, *marked_arg;
    long limit;
    if (!PyArg_ParseTuple(args, "OOOOl", &ranks_arg, &needs_arg, &hand_arg, &marked_arg, &limit)) {
        return NULL;
    }
    PyObject *ranks = PySequence_Fast(ranks_arg, "ranks must be a sequence");
    if (ranks == NULL) {
        return NULL;
    }
    PyObject *needs = PySequence_Fast(needs_arg, "needs must be a sequence");
    if (needs == NULL) {
        Py_DECREF(ranks);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t width = PySequence_Fast_GET_SIZE(ranks);
    if (width > MAX_RANKS || PySequence_Fast_GET_SIZE(needs) != width) {
        PyErr_SetString(PyExc_OverflowError, "ranks out of the kernel's range");
        goto out;
    }
    too_big = 0;
    for (Py_ssize_t i = 0; i < width; i++) {
        long rank = PyLong_AsLong(PySequence_Fast_GET_ITEM(ranks, i));
        long need = PyLong_AsLong(PySequence_Fast_GET_ITEM(needs, i));
        if (PyErr_Occurred()) {
            goto out;
        }
        if (rank < 0 || rank > 13) {
            PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
            goto out;
        }
        PyObject *in_hand_item = PySequence_GetItem(hand_arg, rank);
        if (in_hand_item == NULL) {
            goto out;
        }
        long in_hand = PyLong_AsLong(in_hand_item);
        Py_DECREF(in_hand_item);
        if (in_hand == -1 && PyErr_Occurred()) {
            goto out;
        }
        PyObject *owners = PySequence_GetItem(marked_arg, rank);
        if (owners == NULL) {
            goto out;
        }
        int failed = make_table(&tables_buffer[i], (int)need, (int)in_hand, owners);
        Py_DECREF(owners);
        if (failed < 0) {
            goto out;
        }
    }
    result = count_result(too_big ? 0 : count_tables(buffer_pointers, (int)width, limit, 0));
out:
    Py_DECREF(ranks);
    Py_DECREF(needs);
    return result;
}

/* ---- payable_totals: PayableTotals._walk ---- */

#define FAIL_SLOTS 4096

typedef struct {
    int pool[14], h[14], own[14];
    int cap[14], own_pre[14];
    int lowest[MAX_CARDS + 1];
    int counts[14];
    long limit;
    int first;
    PyObject *found; /* list of 14-tuples, or NULL: the multisets go to `store` */
    unsigned char *store; /* 14 counts per multiset found */
    int stored, capacity;
    int error;
    /* failures seen: key -> least cost that failed */
    int fail_keys[FAIL_SLOTS];
    long fail_costs[FAIL_SLOTS];
    unsigned char fail_full[FAIL_SLOTS];
    int fail_used;
} Walk;

static long *fail_find(Walk *walk, int key, int insert) {
    unsigned slot = ((unsigned)key * 2654435761u) >> 20 & (FAIL_SLOTS - 1);
    while (walk->fail_full[slot]) {
        if (walk->fail_keys[slot] == key) {
            return &walk->fail_costs[slot];
        }
        slot = (slot + 1) & (FAIL_SLOTS - 1);
    }
    if (!insert) {
        return NULL;
    }
    if (walk->fail_used >= FAIL_SLOTS / 2) {
        return NULL; /* no room: the failure is not remembered (only pruning is lost) */
    }
    walk->fail_used++;
    walk->fail_full[slot] = 1;
    walk->fail_keys[slot] = key;
    walk->fail_costs[slot] = -1;
    return &walk->fail_costs[slot];
}

static int walk_totals(Walk *walk, int rank, int left, int need, long cost, int free, int hand) {
    if (walk->error) {
        return 0;
    }
    long limit = walk->limit;
    if (!left) {
        if (need || !hand || cost + (free ? 0 : 1) > limit) {
            return 0;
        }
        if (walk->found == NULL) {
            if (walk->stored == walk->capacity) {
                int capacity = walk->capacity ? 2 * walk->capacity : 64;
                unsigned char *store = PyMem_Realloc(walk->store, (size_t)capacity * 14);
                if (store == NULL) {
                    walk->error = 1;
                    return 0;
                }
                walk->store = store;
                walk->capacity = capacity;
            }
            for (int r = 0; r < 14; r++) {
                walk->store[walk->stored * 14 + r] = (unsigned char)walk->counts[r];
            }
            walk->stored++;
            return 1;
        }
        PyObject *counts = PyTuple_New(14);
        if (counts == NULL) {
            walk->error = 1;
            return 0;
        }
        for (int r = 0; r < 14; r++) {
            PyObject *value = PyLong_FromLong(walk->counts[r]);
            if (value == NULL) {
                Py_DECREF(counts);
                walk->error = 1;
                return 0;
            }
            PyTuple_SET_ITEM(counts, r, value);
        }
        int failed = PyList_Append(walk->found, counts);
        Py_DECREF(counts);
        if (failed < 0) {
            walk->error = 1;
            return 0;
        }
        return 1;
    }
    int below = walk->cap[rank];
    int *lowest = walk->lowest;
    if (left > below || need > lowest[below] - lowest[below - left] || need < lowest[left] ||
        cost + left - walk->own_pre[rank] > limit) {
        return 0;
    }
    int key = (need << 12) | (left << 6) | (rank << 2) | (free << 1) | hand;
    long *failed = fail_find(walk, key, 0);
    if (failed != NULL && *failed >= 0 && cost >= *failed) {
        return 0;
    }
    int h = walk->h[rank], mine = walk->own[rank];
    int found = 0;
    int top = walk->pool[rank];
    if (left < top) {
        top = left;
    }
    if (need / rank < top) {
        top = need / rank;
    }
    for (int taken = top; taken >= 0; taken--) {
        long spent = cost + (taken > mine ? taken - mine : 0);
        if (spent > limit) {
            continue;
        }
        walk->counts[rank] = taken;
        if (walk_totals(walk, rank - 1, left - taken, need - taken * rank, spent,
                        free || (taken > mine && h > 0), hand || (taken > 0 && h > 0))) {
            found = 1;
            if (walk->first) {
                walk->counts[rank] = 0;
                return 1;
            }
        }
        if (walk->error) {
            return 0;
        }
    }
    walk->counts[rank] = 0;
    if (!found) {
        long *slot = fail_find(walk, key, 1);
        if (slot != NULL && (*slot < 0 || cost < *slot)) {
            *slot = cost;
        }
    }
    return found;
}

static int read_counts(PyObject *source, int *out, const char *name) {
    PyObject *seq = PySequence_Fast(source, name);
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != 14) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s must hold 14 counts", name);
        return -1;
    }
    for (int r = 0; r < 14; r++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, r));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (value < 0 || value > MAX_CARDS) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_OverflowError, "%s count out of range", name);
            return -1;
        }
        out[r] = (int)value;
    }
    Py_DECREF(seq);
    return 0;
}

/* The walk's prefix tables and a clean state, once pool, h and own are set. */
static int prepare_walk(Walk *walk, long limit, int first) {
    walk->cap[0] = 0;
    walk->own_pre[0] = 0;
    int cards = 0;
    walk->lowest[0] = 0;
    for (int r = 1; r < 14; r++) {
        walk->cap[r] = walk->cap[r - 1] + walk->pool[r];
        walk->own_pre[r] = walk->own_pre[r - 1] + walk->own[r];
        for (int i = 0; i < walk->pool[r]; i++) {
            if (cards >= MAX_CARDS) {
                PyErr_SetString(PyExc_OverflowError, "too many cards");
                return -1;
            }
            walk->lowest[cards + 1] = walk->lowest[cards] + r;
            cards++;
        }
    }
    memset(walk->counts, 0, sizeof walk->counts);
    memset(walk->fail_full, 0, sizeof walk->fail_full);
    walk->fail_used = 0;
    walk->limit = limit;
    walk->first = first;
    walk->error = 0;
    walk->found = NULL;
    walk->stored = 0;
    return 0;
}

static PyObject *run_walk(Walk *walk, PyObject *pool, PyObject *hand, PyObject *own, long limit,
                          long count, long target, int first) {
    if (read_counts(pool, walk->pool, "pool") < 0 || read_counts(hand, walk->h, "hand") < 0 ||
        read_counts(own, walk->own, "own") < 0) {
        return NULL;
    }
    if (prepare_walk(walk, limit, first) < 0) {
        return NULL;
    }
    walk->found = PyList_New(0);
    if (walk->found == NULL) {
        return NULL;
    }
    walk_totals(walk, 13, (int)count, (int)target, 0, 0, 0);
    PyObject *found = walk->found;
    walk->found = NULL;
    if (walk->error) {
        Py_DECREF(found);
        return NULL;
    }
    return found;
}

/* payable_totals(pool, hand, own, limit, count, target, first): see PayableTotals. */
static PyObject *payable_totals_impl(PyObject *args) {
    PyObject *pool, *hand, *own;
    long limit, count, target;
    int first;
    if (!PyArg_ParseTuple(args, "OOOlllp", &pool, &hand, &own, &limit, &count, &target, &first)) {
        return NULL;
    }
    if (count < 0 || count > 13 || target < 0 || target > 13 * 13) {
        PyErr_SetString(PyExc_OverflowError, "pattern out of range");
        return NULL;
    }
    /* One walk per call, on the heap: appending a found multiset may run the collector. */
    Walk *walk = PyMem_Malloc(sizeof(Walk));
    if (walk == NULL) {
        return PyErr_NoMemory();
    }
    walk->store = NULL;
    walk->capacity = 0;
    PyObject *found = run_walk(walk, pool, hand, own, limit, count, target, first);
    PyMem_Free(walk->store);
    PyMem_Free(walk);
    return found;
}

/* ---- publish_counts: movegen.publish_segments for the built-in pattern kinds ---- */

enum { KIND_STRAIGHT = 0, KIND_OF_A_KIND = 1, KIND_PAIRS = 2, KIND_TOTAL = 3 };

#define CACHED_NEEDS 8   /* needs below this are cached per position */
#define CACHED_TABLES 96 /* at most 13 ranks x 7 needs */

typedef struct {
    long index;
    int rank;
    PyObject *card; /* borrowed from the hand */
} HandCard;

typedef struct {
    int player, players, hand_size;
    int h[14], own[14], pool[14];
    int marked[14][MAX_OWNERS];
    int in_hand[14], others[14];
    PyObject *out;
    PyObject *nid;
    /* The rank tables made so far, per rank and need (index into cached_tables, -1 none):
     * every Novel's multisets share them. */
    signed char table_at[14][CACHED_NEEDS];
    int tables_made;
    int first;       /* only whether each Novel has a publish: its first multiset */
    int as_combos;   /* each multiset as 14 bytes of cards per rank, without its count */
    int novel_done;  /* set when `first` and the current Novel has one */
    HandCard *cards; /* the hand's cards, when the caller asked for them (to decode) */
    int card_count;
} Position;

static PyObject *int_tuple(const int *values, int size) {
    PyObject *tuple = PyTuple_New(size);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < size; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

static Table cached_tables[CACHED_TABLES];

/* The rank table of (rank, need) in this position, made once; `slot` is the segment
 * position whose scratch table serves a need too large to cache. */
static Table *rank_table(Position *pos, int rank, int need, int slot) {
    if (need < CACHED_NEEDS) {
        int at = pos->table_at[rank][need];
        if (at >= 0) {
            return &cached_tables[at];
        }
        if (pos->tables_made < CACHED_TABLES) {
            at = pos->tables_made++;
            pos->table_at[rank][need] = (signed char)at;
            fill_table(&cached_tables[at], need, pos->h[rank], pos->players, pos->marked[rank]);
            return &cached_tables[at];
        }
    }
    fill_table(&tables_buffer[slot], need, pos->h[rank], pos->players, pos->marked[rank]);
    return &tables_buffer[slot];
}

/* Count one rank multiset of a Novel and append (nid, ranks, needs, count) when not 0. */
static int add_group(Position *pos, const int *ranks, const int *needs, int width) {
    if (pos->novel_done) {
        return 0; /* `first`: this Novel has its publish already */
    }
    int touches_hand = 0, touches_others = 0;
    for (int i = 0; i < width; i++) {
        touches_hand |= pos->in_hand[ranks[i]];
        touches_others |= pos->others[ranks[i]];
    }
    if (!touches_hand) {
        return 0; /* R4: at least one rank must take a hand card */
    }
    uint64_t count;
    if (!touches_others) {
        /* Only the player's own Masterpieces (free, R5): per rank, `need` of the hand
         * cards and own Masterpieces together, minus the all-pastiche choice (R4). */
        uint64_t total = 1, pastiche_only = 1;
        int cost = 0;
        for (int i = 0; i < width; i++) {
            int rank = ranks[i], need = needs[i], mine = pos->own[rank];
            if (need > mine) {
                cost += need - mine;
            }
            int cards = pos->h[rank] + mine;
            total = mul(total, need <= cards ? binom[cards][need] : 0);
            pastiche_only = mul(pastiche_only, need <= mine ? binom[mine][need] : 0);
        }
        if (cost > pos->hand_size) {
            return 0; /* R5: the hand cannot even play what the Masterpieces lack */
        }
        count = total - pastiche_only;
    } else {
        Table *tables[MAX_RANKS];
        for (int i = 0; i < width; i++) {
            tables[i] = rank_table(pos, ranks[i], needs[i], i);
        }
        count = count_tables(tables, width, pos->hand_size, 0);
    }
    if (too_big || !count) {
        return 0;
    }
    if (pos->as_combos) {
        char combo[14] = {0};
        for (int i = 0; i < width; i++) {
            combo[ranks[i]] = (char)needs[i]; /* ranks 1-13, needs at most a rank's cards */
        }
        PyObject *bytes = PyBytes_FromStringAndSize(combo, 14);
        int failed = bytes == NULL ? -1 : PyList_Append(pos->out, bytes);
        Py_XDECREF(bytes);
        pos->novel_done = pos->first;
        return failed;
    }
    PyObject *ranks_tuple = int_tuple(ranks, width);
    PyObject *needs_tuple = ranks_tuple ? int_tuple(needs, width) : NULL;
    PyObject *count_object = needs_tuple ? PyLong_FromUnsignedLongLong(count) : NULL;
    PyObject *item = count_object ? PyTuple_Pack(4, pos->nid, ranks_tuple, needs_tuple,
                                                 count_object) : NULL;
    Py_XDECREF(ranks_tuple);
    Py_XDECREF(needs_tuple);
    Py_XDECREF(count_object);
    if (item == NULL) {
        return -1;
    }
    int failed = PyList_Append(pos->out, item);
    Py_DECREF(item);
    pos->novel_done = pos->first;
    return failed;
}

/* Lexicographic order of two multisets' sorted ranks (as movegen._expanded). */
static int compare_expanded(const void *a, const void *b) {
    const unsigned char *x = a, *y = b;
    int i = 1, j = 1, left_x = x[1], left_y = y[1];
    for (;;) {
        while (i < 14 && !left_x) {
            i++;
            left_x = i < 14 ? x[i] : 0;
        }
        while (j < 14 && !left_y) {
            j++;
            left_y = j < 14 ? y[j] : 0;
        }
        if (i >= 14 || j >= 14) {
            return (i < 14) - (j < 14);
        }
        if (i != j) {
            return i < j ? -1 : 1;
        }
        left_x--;
        left_y--;
    }
}

static int add_totals(Position *pos, Walk *walk, int count, int target) {
    if (count < 0 || count > 13 || target < 0 || target > 13 * 13) {
        too_big = 1;
        return 0;
    }
    walk->stored = 0;
    walk->error = 0;
    walk->first = pos->first;
    memset(walk->counts, 0, sizeof walk->counts);
    walk_totals(walk, 13, count, target, 0, 0, 0);
    if (walk->error) {
        return -1;
    }
    if (walk->stored > 1) {
        qsort(walk->store, (size_t)walk->stored, 14, compare_expanded);
    }
    for (int k = 0; k < walk->stored; k++) {
        const unsigned char *counts = walk->store + 14 * k;
        int ranks[14], needs[14], width = 0;
        for (int rank = 1; rank < 14; rank++) {
            if (counts[rank]) {
                ranks[width] = rank;
                needs[width++] = counts[rank];
            }
        }
        if (add_group(pos, ranks, needs, width) < 0) {
            return -1;
        }
    }
    return 0;
}

static int add_pairs(Position *pos, int pairs) {
    int doubled[14], size = 0;
    for (int rank = 1; rank < 14; rank++) {
        if (pos->pool[rank] >= 2) {
            doubled[size++] = rank;
        }
    }
    if (pairs < 1 || pairs > size) {
        return 0;
    }
    int chosen[14], ranks[14], needs[14];
    for (int i = 0; i < pairs; i++) {
        chosen[i] = i;
        needs[i] = 2;
    }
    for (;;) { /* the combinations in itertools order */
        for (int i = 0; i < pairs; i++) {
            ranks[i] = doubled[chosen[i]];
        }
        if (add_group(pos, ranks, needs, pairs) < 0) {
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

static long item_long(PyObject *tuple, Py_ssize_t index) {
    return PyLong_AsLong(PyTuple_GET_ITEM(tuple, index));
}

/* The position's numbers (movegen._ranks_of): the hand's cards per rank, the Masterpieces
 * per rank and owner, the pool; with `cards`, the hand's cards themselves too. Returns
 * the player's own Masterpieces in all, or -1 with an exception set. */
static int read_position(Position *pos, int player, PyObject *hand, PyObject *tables,
                         HandCard *cards) {
    memset(pos, 0, sizeof *pos);
    memset(pos->table_at, -1, sizeof pos->table_at);
    pos->cards = cards;
    pos->players = (int)PyList_GET_SIZE(tables);
    if (pos->players > MAX_OWNERS || player < 0 || player >= pos->players) {
        PyErr_SetString(PyExc_OverflowError, "seats out of the kernel's range");
        return -1;
    }
    pos->player = player;
    pos->hand_size = (int)PySet_GET_SIZE(hand);
    static PyObject *rank_name = NULL, *index_name = NULL;
    if (rank_name == NULL && (rank_name = PyUnicode_InternFromString("rank")) == NULL) {
        return -1;
    }
    if (index_name == NULL && (index_name = PyUnicode_InternFromString("index")) == NULL) {
        return -1;
    }
    /* The hand's cards per rank. */
    PyObject *cards_iter = PyObject_GetIter(hand);
    if (cards_iter == NULL) {
        return -1;
    }
    PyObject *card;
    while ((card = PyIter_Next(cards_iter)) != NULL) {
        Py_DECREF(card); /* the set keeps it */
        PyObject *rank_object = PyObject_GetAttr(card, rank_name);
        long rank = rank_object ? PyLong_AsLong(rank_object) : -1;
        Py_XDECREF(rank_object);
        long card_index = 0;
        if (cards != NULL && !PyErr_Occurred()) {
            PyObject *index_object = PyObject_GetAttr(card, index_name);
            card_index = index_object ? PyLong_AsLong(index_object) : -1;
            Py_XDECREF(index_object);
        }
        if (PyErr_Occurred() || rank < 1 || rank > 13 || pos->h[rank] >= MAX_CARDS ||
            pos->card_count >= MAX_CARDS) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_OverflowError, "hand out of the kernel's range");
            }
            Py_DECREF(cards_iter);
            return -1;
        }
        pos->h[rank]++;
        if (cards != NULL) {
            cards[pos->card_count].index = card_index;
            cards[pos->card_count].rank = (int)rank;
            cards[pos->card_count].card = card;
        }
        pos->card_count++;
    }
    Py_DECREF(cards_iter);
    if (PyErr_Occurred()) {
        return -1;
    }
    /* The Masterpieces (one-card novels) per rank and owner (R5). */
    int masterpieces[14][MAX_OWNERS];
    memset(masterpieces, 0, sizeof masterpieces);
    for (int owner = 0; owner < pos->players; owner++) {
        PyObject *table = PyList_GET_ITEM(tables, owner);
        if (!PyDict_Check(table)) {
            PyErr_SetString(PyExc_TypeError, "a table must be a dict");
            return -1;
        }
        Py_ssize_t at = 0;
        PyObject *key, *cards;
        while (PyDict_Next(table, &at, &key, &cards)) {
            if (!PyTuple_Check(cards) || PyTuple_GET_SIZE(cards) != 1) {
                continue;
            }
            PyObject *rank_object = PyObject_GetAttr(PyTuple_GET_ITEM(cards, 0), rank_name);
            if (rank_object == NULL) {
                return -1;
            }
            long rank = PyLong_AsLong(rank_object);
            Py_DECREF(rank_object);
            if (rank < 1 || rank > 13 || masterpieces[rank][owner] >= MAX_CARDS) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
                }
                return -1;
            }
            masterpieces[rank][owner]++;
        }
    }
    int own_total = 0;
    for (int rank = 1; rank < 14; rank++) {
        int on_table = 0;
        for (int owner = 0; owner < pos->players; owner++) {
            int n = masterpieces[rank][owner];
            on_table += n;
            /* The player's own count marked as -n - 1: citing them is free (R5). */
            pos->marked[rank][owner] = owner == player && n ? -n - 1 : n;
        }
        pos->own[rank] = masterpieces[rank][player];
        own_total += pos->own[rank];
        pos->pool[rank] = pos->h[rank] + on_table;
        if (pos->pool[rank] > MAX_CARDS) {
            PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
            return -1;
        }
        pos->in_hand[rank] = pos->h[rank] > 0;
        pos->others[rank] = on_table > pos->own[rank];
    }
    return own_total;
}

static Walk totals_walk; /* its store grows as needed and is kept */

/* publish_counts(player, hand, tables, supply, plan, first=False): movegen.publish_segments;
 * with `first`, only each Novel's first multiset with a publish (whether it has one). */
static PyObject *count_position(int player, PyObject *hand, PyObject *tables, PyObject *supply,
                                PyObject *plan, int first, int as_combos);

static PyObject *publish_counts_impl(PyObject *args) {
    int player, first = 0;
    PyObject *hand, *tables, *supply, *plan;
    if (!PyArg_ParseTuple(args, "iOO!O!O!|p", &player, &hand, &PyList_Type, &tables,
                          &PyDict_Type, &supply, &PyList_Type, &plan, &first)) {
        return NULL;
    }
    return count_position(player, hand, tables, supply, plan, first, 0);
}

/* publish_counts on parsed arguments: tables a list of dicts, supply a dict, plan a list. */
static PyObject *count_position(int player, PyObject *hand, PyObject *tables, PyObject *supply,
                                PyObject *plan, int first, int as_combos) {
    if (!PyAnySet_Check(hand)) {
        PyErr_SetString(PyExc_TypeError, "the hand must be a set");
        return NULL;
    }
    Position pos;
    int own_total = read_position(&pos, player, hand, tables, NULL);
    if (own_total < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL || pos.hand_size == 0) {
        return out;
    }
    pos.out = out;
    pos.first = first;
    pos.as_combos = as_combos;
    PyObject *held = PyList_GET_ITEM(tables, player);
    /* Every cited Masterpiece of another player costs a gift card, so a publish uses at
     * most the whole hand plus the player's own Masterpieces (R4, R5). */
    int max_size = pos.hand_size + own_total;
    Walk *walk = NULL;
    too_big = 0;
    Py_ssize_t novels = PyList_GET_SIZE(plan);
    for (Py_ssize_t i = 0; i < novels && !too_big; i++) {
        PyObject *entry = PyList_GET_ITEM(plan, i);
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 5) {
            PyErr_SetString(PyExc_TypeError, "a plan entry must be (nid, kind, a, b, size)");
            goto fail_walk;
        }
        PyObject *nid = PyTuple_GET_ITEM(entry, 0);
        PyObject *left = PyDict_GetItemWithError(supply, nid);
        if (left == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, nid);
            }
            goto fail_walk;
        }
        long copies = PyLong_AsLong(left);
        if (copies == -1 && PyErr_Occurred()) {
            goto fail_walk;
        }
        int holds = PyDict_Contains(held, nid);
        if (holds < 0) {
            goto fail_walk;
        }
        if (copies <= 0 || holds) {
            continue; /* R6: first come, first served, and one copy per player */
        }
        long kind = item_long(entry, 1), a = item_long(entry, 2), b = item_long(entry, 3);
        long size = item_long(entry, 4);
        if (PyErr_Occurred()) {
            goto fail_walk;
        }
        if (size >= 0 && size > max_size) {
            continue;
        }
        pos.nid = nid;
        pos.novel_done = 0;
        int ranks[14], needs[14];
        if (kind == KIND_STRAIGHT) {
            int run = 0;
            for (int rank = 1; rank < 14; rank++) {
                run = pos.pool[rank] ? run + 1 : 0;
                if (a >= 1 && run >= a) {
                    for (int k = 0; k < a; k++) {
                        ranks[k] = rank - (int)a + 1 + k;
                        needs[k] = 1;
                    }
                    if (add_group(&pos, ranks, needs, (int)a) < 0) {
                        goto fail_walk;
                    }
                }
            }
        } else if (kind == KIND_OF_A_KIND) {
            for (int rank = 1; rank < 14; rank++) {
                if (a >= 1 && a <= MAX_CARDS && pos.pool[rank] >= a) {
                    ranks[0] = rank;
                    needs[0] = (int)a;
                    if (add_group(&pos, ranks, needs, 1) < 0) {
                        goto fail_walk;
                    }
                }
            }
        } else if (kind == KIND_PAIRS) {
            if (add_pairs(&pos, (int)(a < 14 ? a : 14)) < 0) {
                goto fail_walk;
            }
        } else if (kind == KIND_TOTAL) {
            if (walk == NULL) {
                /* One walk for the call, kept between calls: it stores its multisets
                 * in C (no Python runs during it, so no call can come back in). */
                walk = &totals_walk;
                memcpy(walk->pool, pos.pool, sizeof pos.pool);
                memcpy(walk->h, pos.h, sizeof pos.h);
                memcpy(walk->own, pos.own, sizeof pos.own);
                if (prepare_walk(walk, pos.hand_size, 0) < 0) {
                    goto fail_walk;
                }
            }
            if (add_totals(&pos, walk, (int)a, (int)b) < 0) {
                goto fail_walk;
            }
        } else {
            PyErr_SetString(PyExc_OverflowError, "a pattern kind the kernel does not know");
            goto fail_walk;
        }
    }
    if (too_big) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_OverflowError, "count too large for the compiled kernel");
        return NULL;
    }
    return out;
fail_walk:
    Py_DECREF(out);
    return NULL;
}

/* ---- decode_publish: the publish of an index (PublishSegment.at) ---- */

/* The moves completing a choice of the ranks before `index` (PublishSegment._completions). */
static uint64_t completions(Table **tables, int width, int index, long limit, long played,
                            uint64_t code, long owed) {
    uint64_t start = (code << 16) + ((uint64_t)(played + owed) << 8) + (uint64_t)played;
    return count_tables(tables + index, width - index, limit, start);
}

/* ---- pick_cards: the cards of a decoded publish (PublishSegment._decode) ---- */

typedef struct {
    int size, take;
    int first; /* the part's items: hand[first..] for a hand part, nids[first..] for a cite */
} Part;

/* The `digit`-th `take`-combination of positions 0..size-1, in itertools order. */
static void unrank(int size, int take, uint64_t digit, int *out) {
    int start = 0;
    for (int slot = 0; slot < take; slot++) {
        for (int i = start; i < size; i++) {
            uint64_t block = binom[size - i - 1][take - slot - 1];
            if (digit < block) {
                out[slot] = i;
                start = i + 1;
                break;
            }
            digit -= block;
        }
    }
}

static int by_index(const void *a, const void *b) {
    long x = ((const HandCard *)a)->index, y = ((const HandCard *)b)->index;
    return (x > y) - (x < y);
}

static int by_card_index(const void *a, const void *b) {
    return by_index(*(const HandCard *const *)a, *(const HandCard *const *)b);
}

/* (played cards sorted, [(owner, Novel id) cited], [(owner, gift card)] by owner then card). */
static PyObject *pick_cards(Position *pos, PyObject *tables, const int *ranks, int width,
                            const int *from_hand, const int *const *split, uint64_t code,
                            uint64_t index) {
    static PyObject *rank_name = NULL;
    if (rank_name == NULL && (rank_name = PyUnicode_InternFromString("rank")) == NULL) {
        return NULL;
    }
    HandCard *hand = pos->cards; /* read with the position */
    int cards = pos->card_count;
    qsort(hand, (size_t)cards, sizeof(HandCard), by_index);
    /* The choice dimensions in _parts' order: hand cards per rank, then Masterpieces per
     * (rank, owner) in table order. */
    Part parts[MAX_RANKS * (MAX_OWNERS + 1)];
    int part_count = 0, hand_parts;
    HandCard *by_rank[MAX_CARDS];
    int placed = 0;
    for (int i = 0; i < width; i++) {
        if (!from_hand[i]) {
            continue;
        }
        Part *part = &parts[part_count++];
        part->first = placed;
        part->take = from_hand[i];
        for (int c = 0; c < cards; c++) {
            if (hand[c].rank == ranks[i]) {
                by_rank[placed++] = &hand[c];
            }
        }
        part->size = placed - part->first;
    }
    hand_parts = part_count;
    PyObject *nids[MAX_CARDS];
    int owners_of[MAX_CARDS];
    int nid_count = 0;
    PyObject *result = NULL;
    for (int i = 0; i < width; i++) {
        for (int owner = 0; owner < pos->players; owner++) {
            if (!split[i][owner]) {
                continue;
            }
            Part *part = &parts[part_count++];
            part->first = nid_count;
            part->take = split[i][owner];
            PyObject *table = PyList_GET_ITEM(tables, owner), *key, *held;
            Py_ssize_t at = 0;
            while (PyDict_Next(table, &at, &key, &held)) {
                if (!PyTuple_Check(held) || PyTuple_GET_SIZE(held) != 1) {
                    continue;
                }
                PyObject *rank_object = PyObject_GetAttr(PyTuple_GET_ITEM(held, 0), rank_name);
                long rank = rank_object ? PyLong_AsLong(rank_object) : -1;
                Py_XDECREF(rank_object);
                if (PyErr_Occurred()) {
                    goto out;
                }
                if (rank == ranks[i]) {
                    if (nid_count >= MAX_CARDS) {
                        PyErr_SetString(PyExc_OverflowError, "too many Masterpieces");
                        goto out;
                    }
                    Py_INCREF(key);
                    owners_of[nid_count] = owner;
                    nids[nid_count++] = key;
                }
            }
            part->size = nid_count - part->first;
        }
    }
    /* The gifts owed per owner, ascending, and the ways to give them (R5). */
    int owed_owner[MAX_OWNERS], owed_count[MAX_OWNERS], owed_parts = 0, played = 0;
    for (int i = 0; i < hand_parts; i++) {
        played += parts[i].take;
    }
    for (int owner = 0; owner < MAX_OWNERS && code; owner++, code >>= OWED_BITS) {
        int count = (int)(code & ((1u << OWED_BITS) - 1));
        if (count) {
            owed_owner[owed_parts] = owner;
            owed_count[owed_parts++] = count;
        }
    }
    uint64_t gift_total = 1;
    uint64_t sizes[MAX_OWNERS];
    int left = cards - played;
    for (int j = 0; j < owed_parts; j++) {
        if (owed_count[j] > left) {
            PyErr_SetString(PyExc_IndexError, "publish index out of the segment's range");
            goto out;
        }
        sizes[j] = binom[left][owed_count[j]];
        gift_total = mul(gift_total, sizes[j]);
        left -= owed_count[j];
    }
    if (too_big || gift_total == 0) {
        PyErr_SetString(PyExc_OverflowError, "count too large for the compiled kernel");
        goto out;
    }
    uint64_t gift_index = index % gift_total;
    index /= gift_total;
    int picked[MAX_RANKS * (MAX_OWNERS + 1)][MAX_CARDS];
    for (int slot = part_count - 1; slot >= 0; slot--) {
        Part *part = &parts[slot];
        uint64_t ways = binom[part->size][part->take];
        unrank(part->size, part->take, index % ways, picked[slot]);
        index /= ways;
    }
    /* Played: the hand picks, sorted by card. */
    HandCard *chosen[MAX_CARDS];
    int chosen_count = 0;
    unsigned char used[MAX_CARDS] = {0};
    for (int slot = 0; slot < hand_parts; slot++) {
        for (int t = 0; t < parts[slot].take; t++) {
            HandCard *pick = by_rank[parts[slot].first + picked[slot][t]];
            chosen[chosen_count++] = pick;
            used[pick - hand] = 1;
        }
    }
    qsort(chosen, (size_t)chosen_count, sizeof(HandCard *), by_card_index);
    PyObject *played_tuple = PyTuple_New(chosen_count);
    PyObject *cited = played_tuple ? PyList_New(0) : NULL;
    PyObject *gifts = cited ? PyList_New(0) : NULL;
    if (gifts == NULL) {
        Py_XDECREF(played_tuple);
        Py_XDECREF(cited);
        goto out;
    }
    for (int c = 0; c < chosen_count; c++) {
        Py_INCREF(chosen[c]->card);
        PyTuple_SET_ITEM(played_tuple, c, chosen[c]->card);
    }
    for (int slot = hand_parts; slot < part_count; slot++) {
        for (int t = 0; t < parts[slot].take; t++) {
            int at = parts[slot].first + picked[slot][t];
            PyObject *pair = Py_BuildValue("(iO)", owners_of[at], nids[at]);
            if (pair == NULL || PyList_Append(cited, pair) < 0) {
                Py_XDECREF(pair);
                goto fail;
            }
            Py_DECREF(pair);
        }
    }
    /* The gifts: owner by owner, from the unplayed cards in card order (R5). */
    HandCard *rest[MAX_CARDS];
    int rest_count = 0;
    for (int c = 0; c < cards; c++) {
        if (!used[c]) {
            rest[rest_count++] = &hand[c];
        }
    }
    uint64_t digits[MAX_OWNERS];
    for (int j = owed_parts - 1; j >= 0; j--) {
        digits[j] = gift_index % sizes[j];
        gift_index /= sizes[j];
    }
    for (int j = 0; j < owed_parts; j++) {
        int taken[MAX_CARDS];
        unrank(rest_count, owed_count[j], digits[j], taken);
        for (int t = 0; t < owed_count[j]; t++) {
            PyObject *pair = Py_BuildValue("(iO)", owed_owner[j], rest[taken[t]]->card);
            if (pair == NULL || PyList_Append(gifts, pair) < 0) {
                Py_XDECREF(pair);
                goto fail;
            }
            Py_DECREF(pair);
        }
        int kept = 0, next = 0;
        for (int r = 0; r < rest_count; r++) {
            if (next < owed_count[j] && taken[next] == r) {
                next++;
            } else {
                rest[kept++] = rest[r];
            }
        }
        rest_count = kept;
    }
    result = Py_BuildValue("(NNN)", played_tuple, cited, gifts);
    goto out;
fail:
    Py_DECREF(played_tuple);
    Py_DECREF(cited);
    Py_DECREF(gifts);
out:
    for (int n = 0; n < nid_count; n++) {
        Py_DECREF(nids[n]);
    }
    return result;
}

/* decode_publish(player, hand, tables, ranks, needs, index): the index-th publish of the
 * segment (PublishSegment.at): its shape per rank by the descent over completion counts,
 * then its cards as pick_cards gives them. */
static PyObject *decode_publish_impl(PyObject *args) {
    int player;
    PyObject *hand, *tables, *ranks_arg, *needs_arg, *index_arg;
    if (!PyArg_ParseTuple(args, "iOO!OOO", &player, &hand, &PyList_Type, &tables, &ranks_arg,
                          &needs_arg, &index_arg)) {
        return NULL;
    }
    if (!PyAnySet_Check(hand)) {
        PyErr_SetString(PyExc_TypeError, "the hand must be a set");
        return NULL;
    }
    unsigned long long index = PyLong_AsUnsignedLongLong(index_arg);
    if (index == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL; /* OverflowError beyond 64 bits: Python decodes */
    }
    Position pos;
    HandCard cards[MAX_CARDS];
    if (read_position(&pos, player, hand, tables, cards) < 0) {
        return NULL;
    }
    PyObject *ranks_seq = PySequence_Fast(ranks_arg, "ranks must be a sequence");
    if (ranks_seq == NULL) {
        return NULL;
    }
    PyObject *needs_seq = PySequence_Fast(needs_arg, "needs must be a sequence");
    if (needs_seq == NULL) {
        Py_DECREF(ranks_seq);
        return NULL;
    }
    int width = (int)PySequence_Fast_GET_SIZE(ranks_seq);
    int ranks[MAX_RANKS], needs[MAX_RANKS];
    PyObject *result = NULL;
    ShapeList *lists = NULL;
    if (width > MAX_RANKS || PySequence_Fast_GET_SIZE(needs_seq) != width) {
        PyErr_SetString(PyExc_OverflowError, "ranks out of the kernel's range");
        goto out;
    }
    for (int i = 0; i < width; i++) {
        long rank = PyLong_AsLong(PySequence_Fast_GET_ITEM(ranks_seq, i));
        long need = PyLong_AsLong(PySequence_Fast_GET_ITEM(needs_seq, i));
        if (PyErr_Occurred()) {
            goto out;
        }
        if (rank < 1 || rank > 13 || need < 0 || need > MAX_CARDS) {
            PyErr_SetString(PyExc_OverflowError, "rank out of the kernel's range");
            goto out;
        }
        ranks[i] = (int)rank;
        needs[i] = (int)need;
    }
    lists = PyMem_Malloc(sizeof(ShapeList) * (size_t)(width ? width : 1));
    if (lists == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    too_big = 0;
    for (int i = 0; i < width; i++) {
        int rank = ranks[i];
        list_shapes(&lists[i], needs[i], pos.h[rank], pos.players, pos.marked[rank]);
        fill_table(&tables_buffer[i], needs[i], pos.h[rank], pos.players, pos.marked[rank]);
    }
    long limit = pos.hand_size, played = 0, owed = 0;
    uint64_t code = 0, ways = 1;
    int chosen[MAX_RANKS];
    for (int i = 0; i < width && !too_big; i++) {
        long room = limit - played - owed;
        ShapeList *list = &lists[i];
        chosen[i] = -1;
        for (int k = 0; k < list->size && !too_big; k++) {
            if (list->from_hand[k] + list->extra[k] > room) {
                continue;
            }
            uint64_t block = mul(mul(ways, list->weight[k]),
                                 completions(buffer_pointers, width, i + 1, limit,
                                             played + list->from_hand[k], code + list->code[k],
                                             owed + list->extra[k]));
            if (index < block) {
                chosen[i] = k;
                ways = mul(ways, list->weight[k]);
                played += list->from_hand[k];
                code += list->code[k];
                owed += list->extra[k];
                break;
            }
            index -= block;
        }
        if (chosen[i] < 0 && !too_big) {
            PyErr_SetString(PyExc_IndexError, "publish index out of the segment's range");
            goto out;
        }
    }
    if (too_big) {
        PyErr_SetString(PyExc_OverflowError, "count too large for the compiled kernel");
        goto out;
    }
    int from_hand[MAX_RANKS];
    const int *split[MAX_RANKS];
    for (int i = 0; i < width; i++) {
        from_hand[i] = lists[i].from_hand[chosen[i]];
        split[i] = lists[i].split[chosen[i]];
    }
    result = pick_cards(&pos, tables, ranks, width, from_hand, split, code, index);
out:
    PyMem_Free(lists);
    Py_DECREF(ranks_seq);
    Py_DECREF(needs_seq);
    return result;
}

/* ---------------------------------------------------------------------------------
 * fill_public: an observation vector but the decision in progress, the twin of
 * rl.observation.ObservationEncoder._public_py (the layout is documented there).
 * It uses no static tables, so it needs no guard; anything out of range raises
 * OverflowError and the caller encodes in Python.
 */
enum {
    F_HAND, F_DRAWN, F_DISCARD_TOP, F_DISCARD_FACE_UP, F_DISCARD_OWN, F_FLAG_CARD,
    F_PUBLISHED, F_MASTERPIECES, F_KNOWN_HANDS, F_NOVEL_CARDS, F_HELD_PUBLISHED,
    F_HELD_MASTERPIECE, F_SUPPLY, F_HAND_SIZES, F_SCORES, F_PILES, F_PHASE, F_TO_MOVE,
    F_CURRENT, F_SEAT, F_PASSES, F_COUNTDOWN, F_TRIGGER, F_FLAG_OWNER, F_FLAG_LOST,
    F_FIELDS
};

enum {
    S_PHASE, S_TO_MOVE, S_CURRENT, S_TURNS_LEFT, S_TRIGGER, S_FLAG_LOST, S_DECK, S_PASSES,
    S_SCALARS
};

#define DECK_CARDS 49

typedef struct {
    float *data;
    Py_ssize_t size;
    Py_ssize_t at[F_FIELDS];
    Py_ssize_t extent[F_FIELDS];
    long players;
    long me;
    long novels;
    PyObject *novel_index;
} Obs;

static PyObject *novel_name;
static PyObject *cards_name;
static PyObject *card_index_name;

static int out_of_range(const char *what) {
    PyErr_Format(PyExc_OverflowError, "observation: %s out of range", what);
    return -1;
}

/* Write one value of a field: a position outside the field is refused (the offsets and
 * extents were checked against the array). */
static int put(Obs *obs, int field, Py_ssize_t offset, float value) {
    if (offset < 0 || offset >= obs->extent[field]) {
        return out_of_range("a position");
    }
    obs->data[obs->at[field] + offset] = value;
    return 0;
}

static int long_of(PyObject *value, long low, long high, long *out) {
    long got = PyLong_AsLong(value);
    if (got == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (got < low || got > high) {
        return out_of_range("a value");
    }
    *out = got;
    return 0;
}

static int card_index_of(PyObject *card, long *out) {
    if (card_index_name == NULL &&
        (card_index_name = PyUnicode_InternFromString("index")) == NULL) {
        return -1;
    }
    PyObject *value = PyObject_GetAttr(card, card_index_name);
    if (value == NULL) {
        return -1;
    }
    int status = long_of(value, 0, DECK_CARDS - 1, out);
    Py_DECREF(value);
    return status;
}

static long relative(Obs *obs, long seat) {
    return ((seat - obs->me) % obs->players + obs->players) % obs->players;
}

/* Every card of ``cards`` (a sequence of cards, None skipped if ``skip_none``) at ``field``. */
static int put_cards(Obs *obs, int field, PyObject *cards, Py_ssize_t base) {
    PyObject *fast = PySequence_Fast(cards, "observation: expected a sequence of cards");
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int status = 0;
    for (Py_ssize_t i = 0; i < count && status == 0; i++) {
        long index;
        status = card_index_of(items[i], &index);
        if (status == 0) {
            status = put(obs, field, base + index, 1.0f);
        }
    }
    Py_DECREF(fast);
    return status;
}

static int fill_discard(Obs *obs, PyObject *discard, PyObject *face_down) {
    PyObject *pile = PySequence_Fast(discard, "observation: the discard must be a sequence");
    if (pile == NULL) {
        return -1;
    }
    PyObject *down = PySequence_Fast(face_down, "observation: face_down must be a sequence");
    if (down == NULL) {
        Py_DECREF(pile);
        return -1;
    }
    int status = 0;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(pile);
    Py_ssize_t hidden_count = PySequence_Fast_GET_SIZE(down);
    char hidden[128] = {0};
    if (size > 128) {
        status = out_of_range("the discard pile");
    }
    for (Py_ssize_t i = 0; i < hidden_count && status == 0; i++) {
        long position;
        status = long_of(PySequence_Fast_GET_ITEM(down, i), 0, 127, &position);
        if (status == 0) {
            hidden[position] = 1;
        }
    }
    for (Py_ssize_t i = 0; i < size && status == 0; i++) {
        PyObject *shown = PySequence_Fast_GET_ITEM(pile, i);
        if (shown == Py_None) {
            continue;
        }
        long index;
        status = card_index_of(shown, &index);
        if (status == 0) {
            status = put(obs, hidden[i] ? F_DISCARD_OWN : F_DISCARD_FACE_UP, index, 1.0f);
        }
        if (status == 0 && i == size - 1 && !hidden[i]) {
            status = put(obs, F_DISCARD_TOP, index, 1.0f);
        }
    }
    Py_DECREF(pile);
    Py_DECREF(down);
    return status;
}

static int fill_tables(Obs *obs, PyObject *tables) {
    if (novel_name == NULL && (novel_name = PyUnicode_InternFromString("novel")) == NULL) {
        return -1;
    }
    if (cards_name == NULL && (cards_name = PyUnicode_InternFromString("cards")) == NULL) {
        return -1;
    }
    PyObject *seats = PySequence_Fast(tables, "observation: the tables must be a sequence");
    if (seats == NULL) {
        return -1;
    }
    int status = 0;
    Py_ssize_t owners = PySequence_Fast_GET_SIZE(seats);
    if (owners != obs->players) {
        status = out_of_range("the number of tables");
    }
    for (Py_ssize_t owner = 0; owner < owners && status == 0; owner++) {
        PyObject *table = PySequence_Fast(PySequence_Fast_GET_ITEM(seats, owner),
                                          "observation: a table must be a sequence");
        if (table == NULL) {
            status = -1;
            break;
        }
        long seat = relative(obs, (long)owner);
        Py_ssize_t novels = PySequence_Fast_GET_SIZE(table);
        for (Py_ssize_t i = 0; i < novels && status == 0; i++) {
            PyObject *novel = PySequence_Fast_GET_ITEM(table, i);
            PyObject *nid = PyObject_GetAttr(novel, novel_name);
            if (nid == NULL) {
                status = -1;
                break;
            }
            PyObject *slot_object = PyDict_GetItemWithError(obs->novel_index, nid);
            Py_DECREF(nid);
            long slot = 0;
            if (slot_object == NULL) {
                status = PyErr_Occurred() ? -1 : out_of_range("a Novel");
                break;
            }
            status = long_of(slot_object, 0, obs->novels - 1, &slot);
            if (status != 0) {
                break;
            }
            PyObject *cards = PyObject_GetAttr(novel, cards_name);
            if (cards == NULL) {
                status = -1;
                break;
            }
            PyObject *fast = PySequence_Fast(cards, "observation: a novel's cards");
            Py_DECREF(cards);
            if (fast == NULL) {
                status = -1;
                break;
            }
            Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
            int masterpiece = count == 1;
            for (Py_ssize_t j = 0; j < count && status == 0; j++) {
                long index;
                status = card_index_of(PySequence_Fast_GET_ITEM(fast, j), &index);
                if (status == 0) {
                    status = put(obs, masterpiece ? F_MASTERPIECES : F_PUBLISHED,
                                 seat * DECK_CARDS + index, 1.0f);
                }
                if (status == 0) {
                    status = put(obs, F_NOVEL_CARDS, slot * DECK_CARDS + index, 1.0f);
                }
            }
            Py_DECREF(fast);
            if (status == 0 && count > 0) {
                status = put(obs, masterpiece ? F_HELD_MASTERPIECE : F_HELD_PUBLISHED,
                             seat * obs->novels + slot, 1.0f);
            }
        }
        Py_DECREF(table);
    }
    Py_DECREF(seats);
    return status;
}

static int fill_counts(Obs *obs, PyObject *supply, PyObject *hand_sizes, PyObject *scores) {
    PyObject *pairs = PySequence_Fast(supply, "observation: the supply must be a sequence");
    if (pairs == NULL) {
        return -1;
    }
    int status = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(pairs) && status == 0; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(pairs, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            status = out_of_range("a supply entry");
            break;
        }
        long copies;
        status = long_of(PyTuple_GET_ITEM(pair, 1), 0, 1L << 20, &copies);
        if (status != 0 || copies == 0) {
            continue;
        }
        PyObject *slot_object = PyDict_GetItemWithError(obs->novel_index, PyTuple_GET_ITEM(pair, 0));
        if (slot_object == NULL) {
            status = PyErr_Occurred() ? -1 : 0;  /* the End Flag has no slot */
            continue;
        }
        long slot;
        status = long_of(slot_object, 0, obs->novels - 1, &slot);
        if (status == 0) {
            status = put(obs, F_SUPPLY, slot, (float)copies);
        }
    }
    Py_DECREF(pairs);
    PyObject *sizes = NULL, *points = NULL;
    if (status == 0) {
        sizes = PySequence_Fast(hand_sizes, "observation: hand_sizes must be a sequence");
        points = PySequence_Fast(scores, "observation: scores must be a sequence");
        if (sizes == NULL || points == NULL) {
            status = -1;
        } else if (PySequence_Fast_GET_SIZE(sizes) != obs->players ||
                   PySequence_Fast_GET_SIZE(points) != obs->players) {
            status = out_of_range("the number of seats");
        }
    }
    for (long owner = 0; owner < obs->players && status == 0; owner++) {
        long size, score;
        long seat = relative(obs, owner);
        status = long_of(PySequence_Fast_GET_ITEM(sizes, owner), 0, 1L << 20, &size);
        if (status == 0) {
            status = long_of(PySequence_Fast_GET_ITEM(points, owner), -(1L << 20), 1L << 20,
                             &score);
        }
        if (status == 0) {
            status = put(obs, F_HAND_SIZES, seat, (float)size);
        }
        if (status == 0) {
            status = put(obs, F_SCORES, seat, (float)score);
        }
    }
    Py_XDECREF(sizes);
    Py_XDECREF(points);
    return status;
}

static int fill_scalars(Obs *obs, PyObject *scalars, PyObject *discard, PyObject *face_down) {
    long value[S_SCALARS];
    if (!PyTuple_Check(scalars) || PyTuple_GET_SIZE(scalars) != S_SCALARS) {
        return out_of_range("the scalars");
    }
    for (int i = 0; i < S_SCALARS; i++) {
        if (long_of(PyTuple_GET_ITEM(scalars, i), -1, 1L << 20, &value[i]) != 0) {
            return -1;
        }
    }
    Py_ssize_t discard_size = PySequence_Size(discard);
    Py_ssize_t down_size = PySequence_Size(face_down);
    if (discard_size < 0 || down_size < 0) {
        return -1;
    }
    if (put(obs, F_PHASE, value[S_PHASE], 1.0f) != 0 || put(obs, F_SEAT, obs->me, 1.0f) != 0) {
        return -1;
    }
    if (value[S_TO_MOVE] >= 0 &&
        (put(obs, F_TO_MOVE, relative(obs, value[S_TO_MOVE]), 1.0f) != 0 ||
         put(obs, F_CURRENT, relative(obs, value[S_CURRENT]), 1.0f) != 0)) {
        return -1;
    }
    if (value[S_TURNS_LEFT] >= 0 &&
        (put(obs, F_COUNTDOWN, 0, 1.0f) != 0 ||
         put(obs, F_COUNTDOWN, 1, (float)value[S_TURNS_LEFT]) != 0)) {
        return -1;
    }
    if (value[S_TRIGGER] >= 0 && put(obs, F_TRIGGER, relative(obs, value[S_TRIGGER]), 1.0f) != 0) {
        return -1;
    }
    if (value[S_FLAG_LOST] > 0 && put(obs, F_FLAG_LOST, 0, 1.0f) != 0) {
        return -1;
    }
    if (put(obs, F_PILES, 0, (float)value[S_DECK]) != 0 ||
        put(obs, F_PILES, 1, (float)discard_size) != 0 ||
        put(obs, F_PILES, 2, (float)down_size) != 0 ||
        put(obs, F_PASSES, 0, (float)value[S_PASSES]) != 0) {
        return -1;
    }
    return 0;
}

static PyObject *fill_public(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out, *offsets, *novel_index, *hand, *pending, *discard, *face_down, *holders;
    PyObject *flag, *tables, *supply, *hand_sizes, *scores, *scalars;
    long players, me, novels;
    if (!PyArg_ParseTuple(args, "OO!lllO!OOOOOOOOOOO!:fill_public", &out, &PyTuple_Type,
                          &offsets, &players, &me, &novels, &PyDict_Type, &novel_index, &hand,
                          &pending, &discard, &face_down, &holders, &flag, &tables, &supply,
                          &hand_sizes, &scores, &PyTuple_Type, &scalars)) {
        return NULL;
    }
    if (players < 1 || players > 16 || me < 0 || me >= players || novels < 1 ||
        PyTuple_GET_SIZE(offsets) != 2 * F_FIELDS) {
        out_of_range("the layout");
        return NULL;
    }
    Py_buffer buffer;
    if (PyObject_GetBuffer(out, &buffer, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) != 0) {
        return NULL;
    }
    Obs obs = {.data = (float *)buffer.buf, .size = buffer.len / (Py_ssize_t)sizeof(float),
               .players = players, .me = me, .novels = novels, .novel_index = novel_index};
    int status = 0;
    if (buffer.itemsize != sizeof(float) || buffer.format == NULL || strcmp(buffer.format, "f") != 0) {
        PyErr_SetString(PyExc_TypeError, "fill_public: out must be a contiguous float32 array");
        status = -1;
    }
    for (int i = 0; i < F_FIELDS && status == 0; i++) {
        long at = 0, extent = 0;
        status = long_of(PyTuple_GET_ITEM(offsets, 2 * i), 0, obs.size, &at);
        if (status == 0) {
            status = long_of(PyTuple_GET_ITEM(offsets, 2 * i + 1), 0, obs.size - at, &extent);
        }
        obs.at[i] = at;
        obs.extent[i] = extent;
    }
    if (status == 0) {
        memset(obs.data, 0, (size_t)obs.size * sizeof(float));
        status = put_cards(&obs, F_HAND, hand, 0);
    }
    if (status == 0 && pending != Py_None) {
        status = put_cards(&obs, F_DRAWN, pending, 0);
    }
    if (status == 0) {
        status = fill_discard(&obs, discard, face_down);
    }
    if (status == 0 && holders != Py_None) {
        if (!PyDict_Check(holders)) {
            status = out_of_range("the holders");
        }
        Py_ssize_t position = 0;
        PyObject *key, *value;
        while (status == 0 && PyDict_Next(holders, &position, &key, &value)) {
            long card, holder;
            status = long_of(key, 0, DECK_CARDS - 1, &card);
            if (status == 0) {
                status = long_of(value, 0, players - 1, &holder);
            }
            if (status == 0) {
                status = put(&obs, F_KNOWN_HANDS, relative(&obs, holder) * DECK_CARDS + card, 1.0f);
            }
        }
    }
    if (status == 0 && flag != Py_None) {
        long owner, index;
        if (!PyTuple_Check(flag) || PyTuple_GET_SIZE(flag) != 2) {
            status = out_of_range("the flag");
        } else {
            status = long_of(PyTuple_GET_ITEM(flag, 0), 0, players - 1, &owner);
            if (status == 0) {
                status = card_index_of(PyTuple_GET_ITEM(flag, 1), &index);
            }
            if (status == 0) {
                status = put(&obs, F_FLAG_CARD, index, 1.0f);
            }
            if (status == 0) {
                status = put(&obs, F_FLAG_OWNER, relative(&obs, owner), 1.0f);
            }
        }
    }
    if (status == 0) {
        status = fill_tables(&obs, tables);
    }
    if (status == 0) {
        status = fill_counts(&obs, supply, hand_sizes, scores);
    }
    if (status == 0) {
        status = fill_scalars(&obs, scalars, discard, face_down);
    }
    PyBuffer_Release(&buffer);
    if (status != 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------------------
 * The publish being built, card by card (rl.encoding.MoveBuilder): publish_table packs
 * what its masks read (encoding._Table with its detail), cards_mask is the twin of
 * MoveBuilder._cards_mask_py and feasible_combos of the filter of _choose_card_py
 * (encoding._feasible). A rank multiset (a "combo") is 14 bytes: cards per rank 1-13.
 * No static tables: no guard needed.
 */
#define TB_RANK 0                      /* the rank of each card present, by card index */
#define TB_H (TB_RANK + DECK_CARDS)    /* hand cards per rank */
#define TB_OWN (TB_H + 14)             /* own Masterpieces per rank */
#define TB_OTH (TB_OWN + 14)           /* other players' Masterpieces per rank */
#define TB_ABOVE_HAND (TB_OTH + 14)    /* per hand card: later hand cards of its rank */
#define TB_ABOVE_OWN (TB_ABOVE_HAND + DECK_CARDS) /* per Masterpiece: later own ones */
#define TB_ABOVE_OTH (TB_ABOVE_OWN + DECK_CARDS)  /* per Masterpiece: later others' ones */
#define TB_KIND (TB_ABOVE_OTH + DECK_CARDS)       /* 0 absent, 1 hand, 2 own, 3 another's */
#define TB_LIMIT (TB_KIND + DECK_CARDS)           /* hand size */
#define TB_SIZE (TB_LIMIT + 1)
#define COMBO 14
#define KIND_HAND 1
#define KIND_OWN 2
#define KIND_OTHER 3
#define PLAY 0
#define CITE 1

static PyObject *rank_attr;

static int card_rank_index(PyObject *card, long *rank, long *index) {
    if (rank_attr == NULL && (rank_attr = PyUnicode_InternFromString("rank")) == NULL) {
        return -1;
    }
    PyObject *value = PyObject_GetAttr(card, rank_attr);
    if (value == NULL) {
        return -1;
    }
    int status = long_of(value, 1, 13, rank);
    Py_DECREF(value);
    return status == 0 ? card_index_of(card, index) : -1;
}

static PyObject *publish_table(PyObject *Py_UNUSED(self), PyObject *args) {
    long player;
    PyObject *hand, *tables;
    if (!PyArg_ParseTuple(args, "lOO!:publish_table", &player, &hand, &PyList_Type, &tables)) {
        return NULL;
    }
    unsigned char t[TB_SIZE];
    memset(t, 0, sizeof t);
    PyObject *cards = PySequence_Fast(hand, "publish_table: the hand must be a collection");
    if (cards == NULL) {
        return NULL;
    }
    int status = 0;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(cards);
    if (size >= DECK_CARDS + 1) {
        status = out_of_range("the hand");
    }
    for (Py_ssize_t i = 0; i < size && status == 0; i++) {
        long rank, index;
        status = card_rank_index(PySequence_Fast_GET_ITEM(cards, i), &rank, &index);
        if (status == 0 && t[TB_KIND + index]) {
            status = out_of_range("a card seen twice");
        }
        if (status == 0) {
            t[TB_RANK + index] = (unsigned char)rank;
            t[TB_KIND + index] = KIND_HAND;
            t[TB_H + rank]++;
        }
    }
    Py_DECREF(cards);
    t[TB_LIMIT] = (unsigned char)size;
    Py_ssize_t owners = PyList_GET_SIZE(tables);
    if (status == 0 && (player < 0 || player >= owners)) {
        status = out_of_range("the player");
    }
    for (Py_ssize_t owner = 0; owner < owners && status == 0; owner++) {
        PyObject *table = PyList_GET_ITEM(tables, owner);
        if (!PyDict_Check(table)) {
            PyErr_SetString(PyExc_TypeError, "publish_table: a table must be a dict");
            status = -1;
            break;
        }
        Py_ssize_t at = 0;
        PyObject *key, *held;
        while (status == 0 && PyDict_Next(table, &at, &key, &held)) {
            if (!PyTuple_Check(held) || PyTuple_GET_SIZE(held) != 1) {
                continue; /* a Published novel: not cited (R4) */
            }
            long rank, index;
            status = card_rank_index(PyTuple_GET_ITEM(held, 0), &rank, &index);
            if (status == 0 && t[TB_KIND + index]) {
                status = out_of_range("a card seen twice");
            }
            if (status == 0) {
                int mine = owner == player;
                t[TB_RANK + index] = (unsigned char)rank;
                t[TB_KIND + index] = mine ? KIND_OWN : KIND_OTHER;
                t[(mine ? TB_OWN : TB_OTH) + rank]++;
            }
        }
    }
    if (status != 0) {
        return NULL;
    }
    /* Later cards of the same rank, by card index (the canonical order within a rank). */
    for (int index = 0; index < DECK_CARDS; index++) {
        int kind = t[TB_KIND + index];
        if (!kind) {
            continue;
        }
        int hand_after = 0, own_after = 0, other_after = 0;
        for (int later = index + 1; later < DECK_CARDS; later++) {
            if (t[TB_KIND + later] && t[TB_RANK + later] == t[TB_RANK + index]) {
                int other = t[TB_KIND + later];
                hand_after += other == KIND_HAND;
                own_after += other == KIND_OWN;
                other_after += other == KIND_OTHER;
            }
        }
        if (kind == KIND_HAND) {
            t[TB_ABOVE_HAND + index] = (unsigned char)hand_after;
        } else {
            t[TB_ABOVE_OWN + index] = (unsigned char)own_after;
            t[TB_ABOVE_OTH + index] = (unsigned char)other_after;
        }
    }
    return PyBytes_FromStringAndSize((const char *)t, TB_SIZE);
}

typedef struct {
    const unsigned char *t;
    int chosen[COMBO];
    long last_rank, last_kind, last_card, played, owed;
} Partial;

/* The table, the chosen counts and the last card's key, checked. */
static int read_partial(Partial *p, PyObject *blob, PyObject *chosen) {
    if (!PyBytes_Check(blob) || PyBytes_GET_SIZE(blob) != TB_SIZE) {
        PyErr_SetString(PyExc_TypeError, "expected a table of publish_table");
        return -1;
    }
    p->t = (const unsigned char *)PyBytes_AS_STRING(blob);
    PyObject *fast = PySequence_Fast(chosen, "the chosen counts must be a sequence");
    if (fast == NULL) {
        return -1;
    }
    int status = 0;
    if (PySequence_Fast_GET_SIZE(fast) != COMBO) {
        status = out_of_range("the chosen counts");
    }
    for (int r = 0; r < COMBO && status == 0; r++) {
        long value = 0;
        status = long_of(PySequence_Fast_GET_ITEM(fast, r), 0, DECK_CARDS, &value);
        p->chosen[r] = (int)value;
    }
    Py_DECREF(fast);
    if (status == 0 && (p->last_rank < 0 || p->last_rank > 13 || p->last_kind < PLAY ||
                        p->last_kind > CITE || p->last_card < -1 ||
                        p->last_card >= DECK_CARDS || p->played < 0 || p->owed < 0)) {
        status = out_of_range("the last card");
    }
    return status;
}

static const unsigned char *combo_of(PyObject *combo) {
    if (!PyBytes_Check(combo) || PyBytes_GET_SIZE(combo) != COMBO) {
        PyErr_SetString(PyExc_TypeError, "a rank multiset must be 14 bytes");
        return NULL;
    }
    return (const unsigned char *)PyBytes_AS_STRING(combo);
}

/* encoding._fits */
static int fits(long need, long hand, long mine, long others, long cost, int any_hand, int excess,
                int played, long limit) {
    if (need > hand + mine + others) {
        return 0;
    }
    if (need > mine) {
        cost += need - mine;
        if (hand) {
            excess = 1;
        }
    }
    if (need && hand) {
        any_hand = 1;
    }
    if (!played) {
        if (!any_hand) {
            return 0;
        }
        if (!excess) {
            cost += 1;
        }
    }
    return cost <= limit;
}

/* encoding._feasible */
static int feasible(const Partial *p, const unsigned char *combo) {
    const unsigned char *t = p->t;
    long limit = t[TB_LIMIT];
    long cost = p->played + p->owed;
    int excess_from_hand = 0, any_from_hand = 0;
    for (int rank = 1; rank < COMBO; rank++) {
        long need = (long)combo[rank] - p->chosen[rank];
        if (need < 0) {
            return 0;
        }
        if (rank < p->last_rank) {
            if (need) {
                return 0;
            }
            continue;
        }
        if (!need) {
            continue;
        }
        long hand, mine, others;
        if (rank == p->last_rank) {
            if (p->last_kind == PLAY) {
                hand = p->last_card >= 0 ? t[TB_ABOVE_HAND + p->last_card] : 0;
                mine = t[TB_OWN + rank];
                others = t[TB_OTH + rank];
            } else {
                hand = 0;
                mine = p->last_card >= 0 ? t[TB_ABOVE_OWN + p->last_card] : 0;
                others = p->last_card >= 0 ? t[TB_ABOVE_OTH + p->last_card] : 0;
            }
        } else {
            hand = t[TB_H + rank];
            mine = t[TB_OWN + rank];
            others = t[TB_OTH + rank];
        }
        if (need > hand + mine + others) {
            return 0;
        }
        if (need > mine) {
            cost += need - mine;
            if (hand) {
                excess_from_hand = 1;
            }
        }
        if (hand) {
            any_from_hand = 1;
        }
    }
    if (!p->played) {
        if (!any_from_hand) {
            return 0;
        }
        if (!excess_from_hand) {
            cost += 1;
        }
    }
    return cost <= limit;
}

static int append_long(PyObject *list, long value) {
    PyObject *item = PyLong_FromLong(value);
    if (item == NULL) {
        return -1;
    }
    int status = PyList_Append(list, item);
    Py_DECREF(item);
    return status;
}

static int parse_partial(PyObject *args, const char *format, PyObject **blob, PyObject **combos,
                         Partial *p, long *extra) {
    PyObject *chosen;
    if (!PyArg_ParseTuple(args, format, blob, &PyList_Type, combos, &chosen, &p->last_rank,
                          &p->last_kind, &p->last_card, &p->played, &p->owed, &extra[0],
                          &extra[1], &extra[2])) {
        return -1;
    }
    return read_partial(p, *blob, chosen);
}

static PyObject *feasible_combos(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *blob, *combos;
    Partial p;
    long unused[3];
    if (parse_partial(args, "OO!Olllll:feasible_combos", &blob, &combos, &p, unused) != 0) {
        return NULL;
    }
    PyObject *kept = PyList_New(0);
    if (kept == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(combos); i++) {
        PyObject *item = PyList_GET_ITEM(combos, i);
        const unsigned char *combo = combo_of(item);
        if (combo == NULL || (feasible(&p, combo) && PyList_Append(kept, item) != 0)) {
            Py_DECREF(kept);
            return NULL;
        }
    }
    return kept;
}

static PyObject *cards_mask(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *blob, *combos;
    Partial p;
    long bases[3] = {0, 0, 0}; /* confirm action, first play action, first cite action */
    if (parse_partial(args, "OO!Ollllllll:cards_mask", &blob, &combos, &p, bases) != 0) {
        return NULL;
    }
    const unsigned char *t = p.t;
    long limit = t[TB_LIMIT];
    long base_cost = p.played + p.owed;
    char plays[DECK_CARDS] = {0}, cites[DECK_CARDS] = {0};
    int confirm = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(combos); i++) {
        const unsigned char *combo = combo_of(PyList_GET_ITEM(combos, i));
        if (combo == NULL) {
            return NULL;
        }
        int low = 0;
        for (int rank = p.last_rank > 1 ? (int)p.last_rank : 1; rank < COMBO; rank++) {
            if (combo[rank] > p.chosen[rank]) {
                low = rank;
                break;
            }
        }
        if (!low) {
            confirm = confirm || (p.played > 0 && base_cost <= limit);
            continue;
        }
        long cost = base_cost;
        int any_hand = 0, excess = 0, blocked = 0;
        for (int rank = low + 1; rank < COMBO; rank++) {
            long need = (long)combo[rank] - p.chosen[rank];
            if (!need) {
                continue;
            }
            long hand = t[TB_H + rank], mine = t[TB_OWN + rank];
            if (need > hand + mine + t[TB_OTH + rank]) {
                blocked = 1;
                break;
            }
            if (need > mine) {
                cost += need - mine;
                if (hand) {
                    excess = 1;
                }
            }
            if (hand) {
                any_hand = 1;
            }
        }
        if (blocked) {
            continue;
        }
        long need = (long)combo[low] - p.chosen[low] - 1; /* still short after the pick */
        if (p.last_rank < low || p.last_kind == PLAY) {
            long skip = p.last_rank == low ? p.last_card : -1;
            for (int index = (int)skip + 1; index < DECK_CARDS; index++) {
                if (t[TB_KIND + index] == KIND_HAND && t[TB_RANK + index] == low &&
                    !plays[index] &&
                    fits(need, t[TB_ABOVE_HAND + index], t[TB_OWN + low], t[TB_OTH + low],
                         cost + 1, any_hand, excess, 1, limit)) {
                    plays[index] = 1;
                }
            }
        }
        long skip = p.last_rank == low && p.last_kind == CITE ? p.last_card : -1;
        for (int index = (int)skip + 1; index < DECK_CARDS; index++) {
            int kind = t[TB_KIND + index];
            if ((kind == KIND_OWN || kind == KIND_OTHER) && t[TB_RANK + index] == low &&
                !cites[index] &&
                fits(need, 0, t[TB_ABOVE_OWN + index], t[TB_ABOVE_OTH + index],
                     cost + (kind == KIND_OWN ? 0 : 1), any_hand, excess, p.played > 0, limit)) {
                cites[index] = 1;
            }
        }
    }
    PyObject *actions = PyList_New(0);
    if (actions == NULL) {
        return NULL;
    }
    if (confirm && append_long(actions, bases[0]) != 0) {
        Py_DECREF(actions);
        return NULL;
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *picked = pass == 0 ? plays : cites;
        long base = bases[1 + pass];
        for (int index = 0; index < DECK_CARDS; index++) {
            if (picked[index] && append_long(actions, base + index) != 0) {
                Py_DECREF(actions);
                return NULL;
            }
        }
    }
    return actions;
}

/* ---------------------------------------------------------------------------------
 * start_actions: the reads and Novels of rl.encoding.MoveBuilder._action_mask (its
 * Python twin is _action_mask_py), straight from the view's tables (tuples of novels).
 */
/* The view's tables (per seat, a sequence of novels with .novel and .cards) as the
 * counter reads them: a list of dicts Novel id -> cards. Marks the readable cards (under a
 * novel of two or more) in `readable` when given. */
static PyObject *dict_tables(PyObject *view_tables, char *readable) {
    if (novel_name == NULL && (novel_name = PyUnicode_InternFromString("novel")) == NULL) {
        return NULL;
    }
    if (cards_name == NULL && (cards_name = PyUnicode_InternFromString("cards")) == NULL) {
        return NULL;
    }
    PyObject *seats = PySequence_Fast(view_tables, "the tables must be a sequence");
    if (seats == NULL) {
        return NULL;
    }
    PyObject *tables = PyList_New(0);
    int status = tables == NULL ? -1 : 0;
    for (Py_ssize_t owner = 0; owner < PySequence_Fast_GET_SIZE(seats) && status == 0; owner++) {
        PyObject *table = PyDict_New();
        if (table == NULL || PyList_Append(tables, table) != 0) {
            Py_XDECREF(table);
            status = -1;
            break;
        }
        Py_DECREF(table);
        PyObject *novels = PySequence_Fast(PySequence_Fast_GET_ITEM(seats, owner),
                                           "a table must be a sequence");
        if (novels == NULL) {
            status = -1;
            break;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(novels) && status == 0; i++) {
            PyObject *novel = PySequence_Fast_GET_ITEM(novels, i);
            PyObject *nid = PyObject_GetAttr(novel, novel_name);
            PyObject *cards = nid == NULL ? NULL : PyObject_GetAttr(novel, cards_name);
            if (cards == NULL || !PyTuple_Check(cards)) {
                if (cards != NULL) {
                    PyErr_SetString(PyExc_TypeError, "a novel's cards must be a tuple");
                }
                status = -1;
            } else {
                status = PyDict_SetItem(table, nid, cards);
                if (status == 0 && readable != NULL && PyTuple_GET_SIZE(cards) >= 2) {
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cards) && status == 0; j++) {
                        long index;
                        status = card_index_of(PyTuple_GET_ITEM(cards, j), &index);
                        if (status == 0) {
                            readable[index] = 1;
                        }
                    }
                }
            }
            Py_XDECREF(nid);
            Py_XDECREF(cards);
        }
        Py_DECREF(novels);
    }
    Py_DECREF(seats);
    if (status != 0) {
        Py_XDECREF(tables);
        return NULL;
    }
    return tables;
}

/* ---------------------------------------------------------------------------------
 * start_actions: the reads and Novels of rl.encoding.MoveBuilder._action_mask (its
 * Python twin is _action_mask_py), straight from the view's tables (tuples of novels).
 */
static PyObject *start_actions_impl(PyObject *args) {
    int player;
    long read_base;
    PyObject *hand, *view_tables, *supply, *plan, *novel_actions;
    if (!PyArg_ParseTuple(args, "iOOO!O!lO!:start_actions", &player, &hand, &view_tables,
                          &PyDict_Type, &supply, &PyList_Type, &plan, &read_base, &PyDict_Type,
                          &novel_actions)) {
        return NULL;
    }
    char readable[DECK_CARDS] = {0};
    PyObject *found = NULL, *actions = NULL;
    PyObject *tables = dict_tables(view_tables, readable);
    int status = tables == NULL ? -1 : 0;
    if (status == 0) {
        found = count_position(player, hand, tables, supply, plan, 1, 0);
        status = found == NULL ? -1 : 0;
    }
    if (status == 0) {
        actions = PyList_New(0);
        status = actions == NULL ? -1 : 0;
    }
    for (int index = 0; index < DECK_CARDS && status == 0; index++) {
        if (readable[index]) {
            status = append_long(actions, read_base + index);
        }
    }
    if (status == 0) {
        /* The Novels in action order (each segment's first item is its Novel id). */
        Py_ssize_t count = PyList_GET_SIZE(found);
        long picked[64];
        int picked_count = 0;
        if (count > 64) {
            status = out_of_range("the Novels");
        }
        for (Py_ssize_t i = 0; i < count && status == 0; i++) {
            PyObject *segment = PyList_GET_ITEM(found, i);
            PyObject *action = PyTuple_Check(segment) && PyTuple_GET_SIZE(segment) > 0
                                   ? PyDict_GetItemWithError(novel_actions,
                                                             PyTuple_GET_ITEM(segment, 0))
                                   : NULL;
            if (action == NULL) {
                status = PyErr_Occurred() ? -1 : out_of_range("a Novel");
                break;
            }
            long value = PyLong_AsLong(action);
            if (value == -1 && PyErr_Occurred()) {
                status = -1;
                break;
            }
            int at = picked_count++;
            while (at > 0 && picked[at - 1] > value) { /* insertion sort: a few Novels */
                picked[at] = picked[at - 1];
                at--;
            }
            picked[at] = value;
        }
        for (int i = 0; i < picked_count && status == 0; i++) {
            status = append_long(actions, picked[i]);
        }
    }
    Py_XDECREF(tables);
    Py_XDECREF(found);
    if (status != 0) {
        Py_XDECREF(actions);
        return NULL;
    }
    return actions;
}

/* publish_start: the start of a publish of one Novel (rl.encoding.MoveBuilder's
 * _start_publish): its payable rank multisets (the counter's segments, each as 14 bytes)
 * and the table of its masks (publish_table), from the view's tables. */
static PyObject *publish_start_impl(PyObject *args) {
    int player;
    PyObject *hand, *view_tables, *supply, *plan;
    if (!PyArg_ParseTuple(args, "iOOO!O!:publish_start", &player, &hand, &view_tables,
                          &PyDict_Type, &supply, &PyList_Type, &plan)) {
        return NULL;
    }
    PyObject *tables = dict_tables(view_tables, NULL);
    if (tables == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    PyObject *combos = count_position(player, hand, tables, supply, plan, 0, 1);
    if (combos != NULL) {
        PyObject *table_args = Py_BuildValue("(iOO)", player, hand, tables);
        PyObject *table = table_args == NULL ? NULL : publish_table(NULL, table_args);
        Py_XDECREF(table_args);
        if (table != NULL) {
            result = PyTuple_Pack(2, table, combos);
            Py_DECREF(table);
        }
        Py_DECREF(combos);
    }
    Py_DECREF(tables);
    return result;
}

/* The kernels share static tables, so a call must not begin while another runs. Python
 * code can run inside one (a collection started by an allocation may run a finaliser), so
 * a call that finds the kernels in use says so with OverflowError: the caller counts in
 * Python instead, and the answer is the same. */
static int busy;

#define GUARDED(name)                                                                      \
    static PyObject *name(PyObject *Py_UNUSED(self), PyObject *args) {                     \
        if (busy) {                                                                        \
            PyErr_SetString(PyExc_OverflowError, "the compiled kernels are in use");       \
            return NULL;                                                                   \
        }                                                                                  \
        busy = 1;                                                                          \
        PyObject *result = name##_impl(args);                                              \
        busy = 0;                                                                          \
        return result;                                                                     \
    }

GUARDED(segment_count)
GUARDED(payable_totals)
GUARDED(publish_counts)
GUARDED(decode_publish)
GUARDED(start_actions)
GUARDED(publish_start)

static PyMethodDef methods[] = {
    {"segment_count", segment_count, METH_VARARGS,
     "segment_count(ranks, needs, hand, marked, limit): a segment's moves, its tables made here."},
    {"publish_counts", publish_counts, METH_VARARGS,
     "publish_counts(player, hand, tables, supply, plan, first=False): the publish segments "
     "of a position (only each Novel's first if first)."},
    {"decode_publish", decode_publish, METH_VARARGS,
     "decode_publish(player, hand, tables, ranks, needs, index): a segment's index-th publish."},
    {"fill_public", fill_public, METH_VARARGS,
     "fill_public(out, fields, players, me, novels, novel_index, hand, pending, discard, "
     "face_down, holders, flag, tables, supply, hand_sizes, scores, scalars): an observation."},
    {"start_actions", start_actions, METH_VARARGS,
     "start_actions(player, hand, tables, supply, plan, read_base, novel_actions): the reads "
     "and Novels a player may start, ascending."},
    {"publish_start", publish_start, METH_VARARGS,
     "publish_start(player, hand, tables, supply, plan): the table of the masks and the "
     "payable rank multisets of the plan's Novel."},
    {"publish_table", publish_table, METH_VARARGS,
     "publish_table(player, hand, tables): what the masks of a publish being built read."},
    {"feasible_combos", feasible_combos, METH_VARARGS,
     "feasible_combos(table, combos, chosen, last_rank, last_kind, last_card, played, owed): "
     "the rank multisets a partial publish can still complete."},
    {"cards_mask", cards_mask, METH_VARARGS,
     "cards_mask(table, combos, chosen, last_rank, last_kind, last_card, played, owed, "
     "confirm, play, cite): the legal plays, cites and confirm of a partial publish."},
    {"payable_totals", payable_totals, METH_VARARGS,
     "payable_totals(pool, hand, own, limit, count, target, first): payable Total multisets."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_legacy",
    "Compiled twins of the counting kernels of pastiche_core.movegen.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__legacy(void) {
    fill_binomials();
    return PyModule_Create(&module);
}
