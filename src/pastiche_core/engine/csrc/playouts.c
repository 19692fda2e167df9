/*
 * The playouts kernels: the playout policy's costed publishes (policy_publishes, the twin of
 * pastiche_core.ai.playout_publishes._policy_publishes_py) and a hand's publishing prospects
 * (prospects, the twin of pastiche_core.ai.heuristics._prospects_py).
 *
 * Both read the packed inputs of layout.h (rank vectors, the catalogue's plan, the usable
 * flags, plain numbers) and keep their state on the stack, but for the costed publishes'
 * list, allocated per call. Every R4/R5 step is feasibility.h's (pk_fill_rank, pk_settle,
 * pk_rank_cost), as the Python rules use feasibility.py's. Their floating-point results are
 * the Python rules' to the last bit: the same double operations in the same order.
 *
 * Ranges (beyond them a call is refused with OutOfRange and the Python rule answers):
 *   - every rank vector entry 0..49 (PK_CARDS), and policy_publishes' hand_size 0..49;
 *   - turns_left, horizon and limit fit a C long; limit is at least 1;
 *   - at most 64 Novels in a plan (PK_MAX_NOVELS: the catalogues' limit);
 *   - every entry of the plan a built-in pattern within patterns.py's ranges: a Straight of
 *     2..13 ranks, 2..7 of a kind, 1..6 pairs, a Total of 1..13 cards adding up to
 *     count..13 * count (a plan made by feasibility.kernel_plan always is).
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

#define PP_MAX_RANK 13
#define PP_MAX_OF_A_KIND 7            /* limits.MAX_OF_A_KIND */
#define PP_MAX_PAIRS 6                /* limits.MAX_PAIRS */
#define PP_MAX_TOTAL 13               /* limits.MAX_PATTERN_CARDS: a Total's count */
#define PP_WALK_CARDS (13 * PP_MAX_TOTAL) /* the Total walk's cards: at most count per rank */
#define PP_ITEMS (PK_RANKS * 2 * PK_CARDS) /* the prospects' free cards: own and hand */

/* ---- the arguments ---------------------------------------------------------------------- */

/* An integer within [low, high], else a refusal (one beyond a C long too). */
static int read_long(PyObject *module, PyObject *source, long low, long high, const char *what,
                     long *out) {
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(source, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || value < low || value > high) {
        pk_refuse(module, what);
        return -1;
    }
    *out = value;
    return 0;
}

/* A tuple of `count` floats. */
static int read_doubles(PyObject *source, int count, double *out) {
    if (!PyTuple_Check(source) || PyTuple_GET_SIZE(source) != count) {
        PyErr_Format(PyExc_TypeError, "the weights are a tuple of %d floats", count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        out[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(source, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

/* Whether a plan entry is a built-in pattern within patterns.py's ranges. */
static int entry_in_range(const int32_t *entry) {
    int32_t first = entry[1], second = entry[2];
    switch (entry[0]) {
    case PK_KIND_STRAIGHT:
        return first >= 2 && first <= PP_MAX_RANK;
    case PK_KIND_OF_A_KIND:
        return first >= 2 && first <= PP_MAX_OF_A_KIND;
    case PK_KIND_PAIRS:
        return first >= 1 && first <= PP_MAX_PAIRS;
    case PK_KIND_TOTAL:
        return first >= 1 && first <= PP_MAX_TOTAL && second >= first &&
               second <= PP_MAX_RANK * first;
    default:
        return 0;
    }
}

/* A plan (PK_MAX_NOVELS at most, else a refusal) and its usable flags, one byte per Novel.
 * Both views are released by the caller when this returns 0. */
static int read_plan(PyObject *module, PyObject *plan_source, PyObject *usable_source,
                     Py_buffer *plan_view, Py_buffer *usable_view, const int32_t **plan,
                     const unsigned char **usable, Py_ssize_t *novels) {
    Py_ssize_t length = PyObject_Length(plan_source);
    if (length < 0) {
        return -1;
    }
    if (length > PK_MAX_NOVELS * PK_PLAN_FIELDS * (Py_ssize_t)sizeof(int32_t)) {
        pk_refuse(module, "a plan of more Novels than 64");
        return -1;
    }
    if (pk_plan(plan_source, plan_view, plan, novels) < 0) {
        return -1;
    }
    if (PyObject_GetBuffer(usable_source, usable_view, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(plan_view);
        return -1;
    }
    if (usable_view->len != *novels) {
        PyErr_Format(PyExc_TypeError, "one usable flag per Novel of the plan (%zd), not %zd",
                     *novels, usable_view->len);
        PyBuffer_Release(usable_view);
        PyBuffer_Release(plan_view);
        return -1;
    }
    *usable = (const unsigned char *)usable_view->buf;
    for (Py_ssize_t i = 0; i < *novels; i++) {
        if (!entry_in_range(*plan + i * PK_PLAN_FIELDS)) {
            PyBuffer_Release(usable_view);
            PyBuffer_Release(plan_view);
            pk_refuse(module, "a pattern of the plan");
            return -1;
        }
    }
    return 0;
}

/* ---- policy_publishes ----------------------------------------------------------------------
 *
 * ai.playout_publishes.costed_publishes over the plan's Novels: per usable Novel, its first
 * `limit` rank combinations (in the order of the patterns' combinations and of
 * playout_publishes._total_combinations), each filled the fewest-gifts way and, when it cites
 * another player's Masterpiece, the most-citations way; the fills R4 and R5 allow, worth more
 * than `floor`, best first (ties in the order found). */

typedef struct {
    double value;
    long order;
    int novel, cite_first, width;
    signed char rank[PP_MAX_RANK], count[PP_MAX_RANK];
} PolicyEntry;

typedef struct {
    int in_hand[PK_RANKS], own[PK_RANKS], others[PK_RANKS], available[PK_RANKS];
    long hand_size, turns_left, limit, found, order;
    int points, novel;
    double maturity, gift_cost, card_cost, floor;
    PolicyEntry *entries;
    Py_ssize_t size, capacity;
    /* the Total walk: the ranks present from the highest, their first card, their cards */
    int ranks[PK_RANKS], nranks, start[PK_RANKS], chosen[PK_RANKS];
    int ncards, prefix[PP_WALK_CARDS + 1];
} Policy;

/* playout_publishes.publish_value: points by maturity, less the gifts and the cards (R5, R7,
 * R12). */
static double policy_value(const Policy *p, long played, long gifts) {
    double value = (double)p->points * pow(p->maturity, (double)(played - 1));
    if (played > 1 && p->turns_left >= 0 && p->turns_left < played) {
        value *= 0.25; /* R12: the countdown may end before it is read down */
    }
    return value - p->gift_cost * (double)gifts - p->card_cost * (double)played;
}

/* playout_publishes._costs: (played, gifts) of one fill, or 0 when R4 or R5 fails. */
/* home: R4.cost, R5.gifts; twin test: tests/kernels/test_playouts.py */
static int policy_costs(const Policy *p, const int *rank, const int *count, int width,
                        int cite_first, long *played_out, long *gifts_out) {
    long played = 0, gifts = 0, fill[4];
    int spare = 0;
    for (int i = 0; i < width; i++) {
        int r = rank[i];
        pk_fill_rank(count[i], p->in_hand[r], p->own[r], p->others[r], cite_first, fill);
        if (fill[3]) {
            return 0;
        }
        if (fill[0] && p->in_hand[r]) {
            spare = 1; /* an own citation that a hand card of its rank may replace (R4) */
        }
        played += fill[1];
        gifts += fill[2];
    }
    if (!pk_settle(&played, gifts, spare, p->hand_size)) {
        return 0;
    }
    *played_out = played;
    *gifts_out = gifts;
    return 1;
}

/* One combination as runs (ranks ascending): its fills, in the Python order. */
static int policy_combo(Policy *p, const int *rank, const int *count, int width) {
    p->found++;
    int pastiche = 0;
    for (int i = 0; i < width; i++) {
        if (p->others[rank[i]]) {
            pastiche = 1;
            break;
        }
    }
    for (int cite_first = 0; cite_first <= pastiche; cite_first++) {
        long played, gifts;
        if (!policy_costs(p, rank, count, width, cite_first, &played, &gifts)) {
            continue;
        }
        double value = policy_value(p, played, gifts);
        if (value <= p->floor) {
            continue;
        }
        if (p->size == p->capacity) {
            Py_ssize_t grown = p->capacity ? 2 * p->capacity : 64;
            PolicyEntry *more = PyMem_Realloc(p->entries, (size_t)grown * sizeof(PolicyEntry));
            if (more == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            p->entries = more;
            p->capacity = grown;
        }
        PolicyEntry *e = &p->entries[p->size++];
        e->value = value;
        e->order = ++p->order;
        e->novel = p->novel;
        e->cite_first = cite_first;
        e->width = width;
        for (int i = 0; i < width; i++) {
            e->rank[i] = (signed char)rank[i];
            e->count[i] = (signed char)count[i];
        }
    }
    return 0;
}

/* playout_publishes._total_combinations' walk: from the highest rank down, the most copies first;
 * the bounds only skip branches without an answer. 1 once `limit` are found, -1 on error. */
static int policy_total_walk(Policy *p, int index, int left, int need) {
    if (left == 0) {
        if (need != 0) {
            return 0;
        }
        int rank[PP_MAX_RANK], count[PP_MAX_RANK], width = 0;
        for (int i = index - 1; i >= 0; i--) { /* highest first: the runs ascend backwards */
            if (p->chosen[i]) {
                rank[width] = p->ranks[i];
                count[width++] = p->chosen[i];
            }
        }
        if (policy_combo(p, rank, count, width) < 0) {
            return -1;
        }
        return p->found >= p->limit;
    }
    if (index == p->nranks) {
        return 0;
    }
    int rank = p->ranks[index], first = p->start[index], end = p->ncards;
    if (end - first < left) {
        return 0;
    }
    int highest = p->prefix[first + left] - p->prefix[first];
    int lowest = p->prefix[end] - p->prefix[end - left];
    if (need > highest || need < lowest) {
        return 0; /* the cards left cannot make the sum */
    }
    int most = p->available[rank];
    if (left < most) {
        most = left;
    }
    if (need / rank < most) {
        most = need / rank;
    }
    for (int taken = most; taken >= 0; taken--) {
        p->chosen[index] = taken;
        int stop = policy_total_walk(p, index + 1, left - taken, need - taken * rank);
        p->chosen[index] = 0;
        if (stop) {
            return stop;
        }
    }
    return 0;
}

static int policy_totals(Policy *p, int count, int target) {
    p->nranks = p->ncards = 0;
    p->prefix[0] = 0;
    for (int rank = PP_MAX_RANK; rank >= 1; rank--) {
        if (!p->available[rank]) {
            continue;
        }
        p->start[p->nranks] = p->ncards;
        p->chosen[p->nranks] = 0;
        p->ranks[p->nranks++] = rank;
        int copies = p->available[rank] < count ? p->available[rank] : count;
        for (int i = 0; i < copies; i++) {
            p->prefix[p->ncards + 1] = p->prefix[p->ncards] + rank;
            p->ncards++;
        }
    }
    return policy_total_walk(p, 0, count, target) < 0 ? -1 : 0;
}

/* One Novel's first `limit` combinations, as Straight, OfAKind and Pairs list them. */
static int policy_novel(Policy *p, int kind, int first, int second) {
    int rank[PP_MAX_RANK], count[PP_MAX_RANK];
    if (kind == PK_KIND_STRAIGHT) {
        int top = 0, run = 0;
        for (int i = 0; i < first; i++) {
            count[i] = 1;
        }
        while (p->found < p->limit && pk_next_straight(p->available, first, &top, &run, rank)) {
            if (policy_combo(p, rank, count, first) < 0) {
                return -1;
            }
        }
    } else if (kind == PK_KIND_OF_A_KIND) {
        for (int r = 1; r <= PP_MAX_RANK && p->found < p->limit; r++) {
            if (p->available[r] >= first) {
                rank[0] = r;
                count[0] = first;
                if (policy_combo(p, rank, count, 1) < 0) {
                    return -1;
                }
            }
        }
    } else if (kind == PK_KIND_PAIRS) {
        int doubled[PP_MAX_RANK], n = 0, pick[PP_MAX_PAIRS];
        for (int r = 1; r <= PP_MAX_RANK; r++) {
            if (p->available[r] >= 2) {
                doubled[n++] = r;
            }
        }
        if (first > n) {
            return 0;
        }
        for (int i = 0; i < first; i++) { /* itertools.combinations: lexicographic */
            pick[i] = i;
        }
        while (p->found < p->limit) {
            for (int i = 0; i < first; i++) {
                rank[i] = doubled[pick[i]];
                count[i] = 2;
            }
            if (policy_combo(p, rank, count, first) < 0) {
                return -1;
            }
            int i = first - 1;
            while (i >= 0 && pick[i] == n - first + i) {
                i--;
            }
            if (i < 0) {
                break;
            }
            pick[i]++;
            for (int j = i + 1; j < first; j++) {
                pick[j] = pick[j - 1] + 1;
            }
        }
    } else {
        return policy_totals(p, first, second);
    }
    return 0;
}

/* Best first: the higher value, then the earlier found (Python's sort of (-value, order)). */
static int by_value(const void *a, const void *b) {
    const PolicyEntry *x = a, *y = b;
    if (x->value != y->value) {
        return x->value > y->value ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

static PyObject *policy_result(Policy *p) {
    if (p->size > 1) {
        qsort(p->entries, (size_t)p->size, sizeof(PolicyEntry), by_value);
    }
    PyObject *out = PyList_New(p->size);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < p->size; i++) {
        PolicyEntry *e = &p->entries[i];
        PyObject *runs = PyTuple_New(e->width);
        if (runs == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (int j = 0; j < e->width; j++) {
            PyObject *run = Py_BuildValue("(ii)", (int)e->rank[j], (int)e->count[j]);
            if (run == NULL) {
                Py_DECREF(runs);
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(runs, j, run);
        }
        PyObject *item =
            Py_BuildValue("(diNO)", e->value, e->novel, runs, e->cite_first ? Py_True : Py_False);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* policy_publishes(in_hand, own, others, hand_size, plan, usable, weights, turns_left, limit,
 * floor): weights is (maturity, gift_cost, card_cost); turns_left -1 before the countdown. */
static PyObject *policy_publishes(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "policy_publishes takes 10 arguments");
        return NULL;
    }
    Policy p;
    memset(&p, 0, sizeof p);
    double weights[3];
    if (pk_rank_vector(module, args[0], 0, PK_CARDS, p.in_hand) < 0 ||
        pk_rank_vector(module, args[1], 0, PK_CARDS, p.own) < 0 ||
        pk_rank_vector(module, args[2], 0, PK_CARDS, p.others) < 0 ||
        read_long(module, args[3], 0, PK_CARDS, "hand_size", &p.hand_size) < 0 ||
        read_doubles(args[6], 3, weights) < 0 ||
        read_long(module, args[7], LONG_MIN, LONG_MAX, "turns_left", &p.turns_left) < 0 ||
        read_long(module, args[8], 1, LONG_MAX, "limit", &p.limit) < 0) {
        return NULL;
    }
    p.floor = PyFloat_AsDouble(args[9]);
    if (p.floor == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    p.maturity = weights[0];
    p.gift_cost = weights[1];
    p.card_cost = weights[2];
    Py_buffer plan_view, usable_view;
    const int32_t *plan;
    const unsigned char *usable;
    Py_ssize_t novels;
    if (read_plan(module, args[4], args[5], &plan_view, &usable_view, &plan, &usable, &novels) <
        0) {
        return NULL;
    }
    PyObject *result = NULL;
    long own_total = 0, citable = 0;
    for (int r = 0; r < PK_RANKS; r++) {
        p.available[r] = p.in_hand[r] + p.own[r] + p.others[r];
        own_total += p.own[r];
        citable += p.own[r] + p.others[r];
    }
    for (Py_ssize_t index = 0; index < novels; index++) {
        if (!usable[index]) {
            continue;
        }
        const int32_t *entry = plan + index * PK_PLAN_FIELDS;
        long size = entry[3];
        double points = (double)entry[4];
        if (size > 0) {
            if (pk_rank_cost(size, own_total) > p.hand_size) {
                continue; /* R5: every card but the own Masterpieces costs a hand card */
            }
            long fewest = pk_rank_cost(size, citable); /* R4: one hand card at least */
            if (!pk_settle(&fewest, 0, 1, size)) {
                fewest = 1;
            }
            double bound = points * pow(p.maturity, (double)(fewest - 1)) -
                           p.card_cost * (double)fewest;
            if (bound <= p.floor) {
                continue;
            }
        }
        p.novel = (int)index;
        p.points = entry[4];
        p.found = 0;
        if (policy_novel(&p, entry[0], entry[1], entry[2]) < 0) {
            goto done;
        }
    }
    result = policy_result(&p);
done:
    PyMem_Free(p.entries);
    PyBuffer_Release(&usable_view);
    PyBuffer_Release(&plan_view);
    return result;
}

/* ---- prospects -----------------------------------------------------------------------------
 *
 * A hand's publishing prospects (ai.heuristics): per usable Novel, the cheapest completion
 * from the hand and the Masterpieces on the table as (cost, played, missing), valued, and
 * the values summed best first with weights spread ** place. */

typedef struct {
    double cost;
    long played, missing;
} Need;

typedef struct {
    int hand[PK_RANKS], own[PK_RANKS], rival[PK_RANKS], pool[PK_RANKS];
    double prospect, missing_factor, read_factor, spread, rival_cite;
    long horizon;
    Need singles[PK_RANKS], doubles[PK_RANKS];
    int have_singles, have_doubles;
} Outlook;

static const Need infeasible = {HUGE_VAL, 0, 0};

/* Python's order of (cost, played, missing) tuples. */
static int need_less(const Need *a, const Need *b) {
    if (a->cost != b->cost) {
        return a->cost < b->cost;
    }
    if (a->played != b->played) {
        return a->played < b->played;
    }
    return a->missing < b->missing;
}

/* _Needs.table: per rank, the completion of `count` cards of it: own Masterpieces, the hand,
 * then rivals' (pk_fill_rank); the rest missing, if the rank has that many cards free. */
static void need_table(const Outlook *o, long count, Need *out) {
    out[0] = infeasible;
    for (int r = 1; r <= PP_MAX_RANK; r++) {
        long fill[4], held = o->hand[r];
        pk_fill_rank(count, held, o->own[r], o->rival[r], 0, fill);
        if (fill[3] > o->pool[r] - held) {
            out[r] = infeasible;
        } else {
            out[r].cost = (double)fill[2] * o->rival_cite + (double)fill[3];
            out[r].played = fill[1] + fill[3];
            out[r].missing = fill[3];
        }
    }
}

/* _Needs.straight: the cheapest run of `length` ranks, by prefix sums. */
/* home: R2; twin test: tests/kernels/test_playouts.py */
static Need need_straight(Outlook *o, int length) {
    if (!o->have_singles) {
        need_table(o, 1, o->singles);
        o->have_singles = 1;
    }
    double costs[PK_RANKS];
    long played[PK_RANKS], missing[PK_RANKS], blocked[PK_RANKS];
    costs[0] = 0.0;
    played[0] = missing[0] = blocked[0] = 0;
    for (int r = 1; r <= PP_MAX_RANK; r++) {
        const Need *n = &o->singles[r];
        int out = n->cost == HUGE_VAL;
        costs[r] = costs[r - 1] + (out ? 0.0 : n->cost);
        played[r] = played[r - 1] + n->played;
        missing[r] = missing[r - 1] + n->missing;
        blocked[r] = blocked[r - 1] + out;
    }
    Need best = infeasible;
    for (int low = 0; low < PP_MAX_RANK - length + 1; low++) {
        int high = low + length;
        if (blocked[high] != blocked[low]) {
            continue;
        }
        double cost = costs[high] - costs[low];
        long p = played[high] - played[low];
        if (cost < best.cost || (cost == best.cost && p < best.played)) {
            best.cost = cost;
            best.played = p;
            best.missing = missing[high] - missing[low];
        }
    }
    return best;
}

static int by_need(const void *a, const void *b) {
    const Need *x = a, *y = b;
    return need_less(x, y) ? -1 : need_less(y, x);
}

/* _Needs.pairs: the cheapest two cards of `pairs` ranks, added in order. */
static Need need_pairs(Outlook *o, int pairs) {
    if (!o->have_doubles) {
        need_table(o, 2, o->doubles);
        o->have_doubles = 1;
    }
    Need sorted[PP_MAX_RANK];
    memcpy(sorted, &o->doubles[1], sizeof sorted);
    qsort(sorted, PP_MAX_RANK, sizeof(Need), by_need);
    if (sorted[pairs - 1].cost == HUGE_VAL) {
        return infeasible;
    }
    Need sum = {0.0, 0, 0};
    for (int i = 0; i < pairs; i++) {
        sum.cost += sorted[i].cost;
        sum.played += sorted[i].played;
        sum.missing += sorted[i].missing;
    }
    return sum;
}

/* _Needs.total: an exact subset sum of the free cards (own Masterpieces and the hand) for a
 * complete Novel, a range test otherwise. Sums reach 13 * 13 = 169: three 64-bit words. */
static Need need_total(const Outlook *o, int count, int target) {
    int ordered[PP_ITEMS], n = 0; /* the free cards, ranks ascending */
    long own_items = 0;
    for (int r = 1; r <= PP_MAX_RANK; r++) {
        own_items += o->own[r];
        for (int i = 0; i < o->own[r] + o->hand[r]; i++) {
            ordered[n++] = r;
        }
    }
    if (n == 0) {
        Need all = {(double)count, count, count};
        return all;
    }
    if (n >= count) { /* the sums of `size` cards, whatever the order of the cards */
        uint64_t reach[PP_MAX_TOTAL + 1][3];
        memset(reach, 0, sizeof reach);
        reach[0][0] = 1;
        for (int index = 0; index < n; index++) {
            int rank = ordered[index];
            for (int size = index + 1 < count ? index + 1 : count; size > 0; size--) {
                const uint64_t *from = reach[size - 1];
                reach[size][0] |= from[0] << rank;
                reach[size][1] |= (from[1] << rank) | (from[0] >> (64 - rank));
                reach[size][2] |= (from[2] << rank) | (from[1] >> (64 - rank));
            }
        }
        if (reach[count][target / 64] >> (target % 64) & 1) {
            long played = pk_rank_cost(count, own_items); /* R4: one hand card is played */
            if (!pk_settle(&played, 0, 1, count)) {
                return infeasible;
            }
            Need exact = {0.0, played, 0};
            return exact;
        }
    }
    for (int missing = 1; missing <= count; missing++) {
        int used = count - missing;
        if (used > n) {
            continue;
        }
        int low = 0, high = 0;
        for (int i = 0; i < used; i++) {
            low += ordered[i];
            high += ordered[n - used + i];
        }
        if (low <= target - missing && high >= target - PP_MAX_RANK * missing) {
            Need near = {(double)missing, missing + pk_rank_cost(used, own_items), missing};
            return near;
        }
    }
    return infeasible;
}

/* heuristics._novel_value: what completing a Novel is worth; 0 if it cannot be. */
/* home: R4.cost; twin test: tests/kernels/test_playouts.py */
static double novel_value(Outlook *o, const int32_t *entry) {
    int kind = entry[0], first = entry[1], second = entry[2];
    Need n;
    if (kind == PK_KIND_STRAIGHT) {
        n = need_straight(o, first);
    } else if (kind == PK_KIND_OF_A_KIND) {
        Need table[PK_RANKS];
        need_table(o, first, table);
        n = table[1];
        for (int r = 2; r <= PP_MAX_RANK; r++) {
            if (need_less(&table[r], &n)) {
                n = table[r];
            }
        }
    } else if (kind == PK_KIND_PAIRS) {
        n = need_pairs(o, first);
    } else {
        n = need_total(o, first, second);
    }
    if (n.cost == HUGE_VAL) {
        return 0.0;
    }
    /* R4: a completion that plays no hand card cites one that gives way to a card of its
     * rank still to be drawn; no gifts to fit (they are priced in the cost). */
    long played = n.played;
    if (!pk_settle(&played, 0, 1, n.played + 1)) {
        return 0.0;
    }
    if (played != n.played) {
        n.cost += 1;
        n.played = played;
        n.missing += 1;
    }
    if (o->horizon >= 0 && n.missing + n.played > o->horizon) {
        return 0.0;
    }
    return (o->prospect * (double)entry[4] * pow(o->missing_factor, n.cost)) *
           pow(o->read_factor, (double)(n.played - 1));
}

static int by_value_down(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* prospects(hand, own, rival, pool, plan, usable, weights, horizon): weights is (prospect,
 * missing_factor, read_factor, spread, rival_cite); horizon -1 before the countdown. */
static PyObject *prospects(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "prospects takes 8 arguments");
        return NULL;
    }
    Outlook o;
    memset(&o, 0, sizeof o);
    double weights[5];
    if (pk_rank_vector(module, args[0], 0, PK_CARDS, o.hand) < 0 ||
        pk_rank_vector(module, args[1], 0, PK_CARDS, o.own) < 0 ||
        pk_rank_vector(module, args[2], 0, PK_CARDS, o.rival) < 0 ||
        pk_rank_vector(module, args[3], 0, PK_CARDS, o.pool) < 0 ||
        read_doubles(args[6], 5, weights) < 0 ||
        read_long(module, args[7], LONG_MIN, LONG_MAX, "horizon", &o.horizon) < 0) {
        return NULL;
    }
    o.prospect = weights[0];
    o.missing_factor = weights[1];
    o.read_factor = weights[2];
    o.spread = weights[3];
    o.rival_cite = weights[4];
    Py_buffer plan_view, usable_view;
    const int32_t *plan;
    const unsigned char *usable;
    Py_ssize_t novels;
    if (read_plan(module, args[4], args[5], &plan_view, &usable_view, &plan, &usable, &novels) <
        0) {
        return NULL;
    }
    double values[PK_MAX_NOVELS];
    Py_ssize_t valued = 0;
    for (Py_ssize_t i = 0; i < novels; i++) {
        if (!usable[i]) {
            continue;
        }
        values[valued++] = novel_value(&o, plan + i * PK_PLAN_FIELDS);
    }
    PyBuffer_Release(&usable_view);
    PyBuffer_Release(&plan_view);
    if (valued > 1) {
        qsort(values, (size_t)valued, sizeof(double), by_value_down);
    }
    double total = 0.0, weight = 1.0;
    for (Py_ssize_t i = 0; i < valued; i++) {
        if (values[i] <= 0.0) {
            break;
        }
        total += weight * values[i];
        weight *= o.spread;
    }
    return PyFloat_FromDouble(total);
}

PyMethodDef pk_playouts_methods[] = {
    {"policy_publishes", (PyCFunction)(void (*)(void))policy_publishes, METH_FASTCALL,
     "policy_publishes(in_hand, own, others, hand_size, plan, usable, weights, turns_left, "
     "limit, floor): the playout policy's costed publishes, best first."},
    {"prospects", (PyCFunction)(void (*)(void))prospects, METH_FASTCALL,
     "prospects(hand, own, rival, pool, plan, usable, weights, horizon): a hand's publishing "
     "prospects."},
    {NULL, NULL, 0, NULL},
};
