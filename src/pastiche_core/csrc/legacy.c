/*
 * TRANSITIONAL: the kernels not yet moved to counting.c, masks.c, observe.c and playouts.c,
 * built as pastiche_core._legacy until then. This file goes when they have all moved.
 *
 * Each function is the exact twin of pure-Python code that stays the rules'
 * definition and the fallback when this module is not built:
 *
 *   fill_public     = rl.observation.ObservationEncoder._public_py: an observation vector
 *   policy_publishes = ai.playout.PlayoutPolicy._costed_py: the playout policy's publishes
 *   prospects       = ai.heuristics.Outlook._prospects_py: a hand's publishing prospects
 *
 * They work on 64-bit integers. When a count would not fit, or a position is
 * larger than the fixed tables below, they raise OverflowError and the caller
 * uses the Python reference, so the answer never depends on the module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 64    /* the binomial table: cards in hand */

enum { KIND_STRAIGHT = 0, KIND_OF_A_KIND = 1, KIND_PAIRS = 2, KIND_TOTAL = 3 };

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

/* ---- policy_publishes: the costing of ai.playout.PlayoutPolicy.publishes ----
 *
 * The twin of PlayoutPolicy._costed_py for the built-in pattern kinds: per usable Novel,
 * its first `limit` rank combinations (in the order of the patterns' combinations and of
 * playout._total_combinations), each filled the fewest-gifts way and, when it cites
 * another player's Masterpiece, the most-citations way; the fills R4 and R5 allow, worth
 * more than `floor`, best first (ties in the order found). Its own state is on the stack
 * and the heap: the kernel may run while another is in use. */

#define POLICY_RUNS 14

typedef struct {
    double value;
    long order;
    int spec;
    int cite_first;
    int width;
    signed char rank[POLICY_RUNS];
    signed char count[POLICY_RUNS];
} PolicyEntry;

typedef struct {
    int in_hand[14], own[14], others[14], available[14];
    int hand_size, turns_left, points, spec;
    double maturity, gift_cost, card_cost, floor;
    long limit, found, order;
    PolicyEntry *entries;
    Py_ssize_t size, capacity;
    /* the Total walk */
    int ranks[14], nranks, cards[14 * MAX_CARDS + 1], ncards, prefix[14 * MAX_CARDS + 2];
    int start[14], chosen[14];
} Policy;

static double policy_value(const Policy *p, int played, int gifts) {
    double value = (double)p->points * pow(p->maturity, (double)(played - 1));
    if (played > 1 && p->turns_left >= 0 && p->turns_left < played) {
        value *= 0.25; /* R12: the countdown may end before it is read down */
    }
    return value - p->gift_cost * (double)gifts - p->card_cost * (double)played;
}

/* playout._costs: (played, gifts) of one fill, or 0 when R4 or R5 fails. */
static int policy_costs(const Policy *p, const int *rank, const int *count, int width,
                        int cite_first, int *played_out, int *gifts_out) {
    int played = 0, gifts = 0, spare_own = 0;
    for (int i = 0; i < width; i++) {
        int r = rank[i], need = count[i];
        int mine = p->own[r], cards = p->in_hand[r];
        if (mine) {
            int take = need < mine ? need : mine;
            if (cards) {
                spare_own = 1;
            }
            need -= take;
        }
        int from_hand, cite;
        if (cite_first) {
            int theirs = p->others[r];
            cite = need < theirs ? need : theirs;
            from_hand = need - cite;
            if (from_hand > cards) {
                return 0;
            }
        } else {
            from_hand = need < cards ? need : cards;
            cite = need - from_hand;
            if (cite > p->others[r]) {
                return 0;
            }
        }
        played += from_hand;
        gifts += cite;
    }
    if (!played) {
        if (!spare_own) {
            return 0; /* R4: a publish plays at least one card */
        }
        played = 1;
    }
    if (gifts > p->hand_size - played) {
        return 0; /* R5 */
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
        int played, gifts;
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
        e->spec = p->spec;
        e->cite_first = cite_first;
        e->width = width;
        for (int i = 0; i < width; i++) {
            e->rank[i] = (signed char)rank[i];
            e->count[i] = (signed char)count[i];
        }
    }
    return 0;
}

/* playout._total_combinations' walk: from the highest rank down, the most copies first;
 * the bounds only skip branches without an answer. 1 once `limit` are found, -1 on error. */
static int policy_total_walk(Policy *p, int index, int left, int need) {
    if (left == 0) {
        if (need != 0) {
            return 0;
        }
        int rank[POLICY_RUNS], count[POLICY_RUNS], width = 0;
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
        return 0;
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
    for (int rank = 13; rank >= 1; rank--) {
        if (!p->available[rank]) {
            continue;
        }
        p->start[p->nranks] = p->ncards;
        p->chosen[p->nranks] = 0;
        p->ranks[p->nranks++] = rank;
        int copies = p->available[rank] < count ? p->available[rank] : count;
        for (int i = 0; i < copies; i++) {
            p->cards[p->ncards] = rank;
            p->prefix[p->ncards + 1] = p->prefix[p->ncards] + rank;
            p->ncards++;
        }
    }
    return policy_total_walk(p, 0, count, target) < 0 ? -1 : 0;
}

/* One Novel's first `limit` combinations, as Straight, OfAKind and Pairs list them. */
static int policy_novel(Policy *p, int kind, int first, int second) {
    int rank[POLICY_RUNS], count[POLICY_RUNS];
    if (kind == KIND_STRAIGHT) {
        int run = 0;
        for (int r = 1; r <= 13 && p->found < p->limit; r++) {
            run = p->available[r] ? run + 1 : 0;
            if (run >= first) {
                for (int i = 0; i < first; i++) {
                    rank[i] = r - first + 1 + i;
                    count[i] = 1;
                }
                if (policy_combo(p, rank, count, first) < 0) {
                    return -1;
                }
            }
        }
    } else if (kind == KIND_OF_A_KIND) {
        for (int r = 1; r <= 13 && p->found < p->limit; r++) {
            if (p->available[r] >= first) {
                rank[0] = r;
                count[0] = first;
                if (policy_combo(p, rank, count, 1) < 0) {
                    return -1;
                }
            }
        }
    } else if (kind == KIND_PAIRS) {
        int doubled[13], n = 0, pick[13];
        for (int r = 1; r <= 13; r++) {
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

static int by_value(const void *a, const void *b) {
    const PolicyEntry *x = a, *y = b;
    if (x->value != y->value) {
        return x->value > y->value ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

static PyObject *policy_result(Policy *p) {
    if (p->size > 1) { /* no entries: no array */
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
        PyObject *item = Py_BuildValue("(diNO)", e->value, e->spec, runs,
                                       e->cite_first ? Py_True : Py_False);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* policy_publishes(in_hand, own, others, hand_size, plan, usable, weights, turns_left,
 * limit, floor): see above. plan holds (kind, first, second, points, size) per Novel,
 * usable the indices of those the player may publish (R6); weights is (maturity,
 * gift_cost, card_cost); turns_left -1 before the countdown. */
static PyObject *policy_publishes(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *in_hand, *own, *others, *plan, *usable;
    int hand_size, turns_left;
    long limit;
    double maturity, gift_cost, card_cost, floor;
    if (!PyArg_ParseTuple(args, "OOOiOO(ddd)ild", &in_hand, &own, &others, &hand_size, &plan,
                          &usable, &maturity, &gift_cost, &card_cost, &turns_left, &limit,
                          &floor)) {
        return NULL;
    }
    Policy *p = PyMem_Calloc(1, sizeof(Policy));
    if (p == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL, *plan_seq = NULL, *usable_seq = NULL;
    if (read_counts(in_hand, p->in_hand, "in_hand") < 0 ||
        read_counts(own, p->own, "own") < 0 || read_counts(others, p->others, "others") < 0) {
        goto done;
    }
    p->hand_size = hand_size;
    p->turns_left = turns_left < 0 ? -1 : turns_left;
    p->maturity = maturity;
    p->gift_cost = gift_cost;
    p->card_cost = card_cost;
    p->floor = floor;
    p->limit = limit;
    int own_total = 0, citable = 0;
    for (int r = 0; r < 14; r++) {
        p->available[r] = p->in_hand[r] + p->own[r] + p->others[r];
        own_total += p->own[r];
        citable += p->own[r] + p->others[r];
    }
    int size_limit = hand_size + own_total;
    plan_seq = PySequence_Fast(plan, "plan must be a sequence");
    usable_seq = plan_seq ? PySequence_Fast(usable, "usable must be a sequence") : NULL;
    if (usable_seq == NULL) {
        goto done;
    }
    Py_ssize_t novels = PySequence_Fast_GET_SIZE(plan_seq);
    for (Py_ssize_t u = 0; u < PySequence_Fast_GET_SIZE(usable_seq); u++) {
        Py_ssize_t index = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(usable_seq, u));
        if (index == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (index < 0 || index >= novels) {
            PyErr_SetString(PyExc_IndexError, "usable names a Novel outside the plan");
            goto done;
        }
        int kind, first, second, points, size;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(plan_seq, index), "iiiii", &kind, &first,
                              &second, &points, &size)) {
            goto done;
        }
        if (kind < KIND_STRAIGHT || kind > KIND_TOTAL || first < 1 || first > 13 ||
            size < 1 || (kind == KIND_TOTAL && (second < 1 || second > 13 * 13))) {
            PyErr_SetString(PyExc_OverflowError, "a pattern out of the kernel's range");
            goto done;
        }
        if (size > size_limit) {
            continue;
        }
        int fewest = size - citable > 1 ? size - citable : 1;
        double bound = (double)points * pow(maturity, (double)(fewest - 1)) -
                       card_cost * (double)fewest;
        if (bound <= floor) {
            continue;
        }
        p->spec = (int)index;
        p->points = points;
        p->found = 0;
        if (limit > 0 && policy_novel(p, kind, first, second) < 0) {
            goto done;
        }
    }
    result = policy_result(p);
done:
    Py_XDECREF(plan_seq);
    Py_XDECREF(usable_seq);
    PyMem_Free(p->entries);
    PyMem_Free(p);
    return result;
}

/* ---- prospects: ai.heuristics.Outlook._prospects_py for the built-in pattern kinds ----
 *
 * A hand's publishing prospects (see heuristics): per Novel, the cheapest completion from
 * the hand and the Masterpieces on the table as (cost, played, missing), valued, and the
 * values summed best first with weights spread ** place. The same double operations in
 * the same order as the Python twin, so the answer is the same to the last bit. */

typedef struct {
    double cost;
    int played, missing;
} Need;

typedef struct {
    int hand[14], own[14], rival[14], pool[14];
    double prospect, missing_factor, read_factor, spread, rival_cite;
    int horizon;
    Need singles[14], doubles[14];
    int have_singles, have_doubles;
} Outlook;

static const Need infeasible = {HUGE_VAL, 0, 0};

static int need_less(const Need *a, const Need *b) {
    if (a->cost != b->cost) {
        return a->cost < b->cost;
    }
    if (a->played != b->played) {
        return a->played < b->played;
    }
    return a->missing < b->missing;
}

/* _Needs.table: per rank, the completion of `count` cards of it. */
static void need_table(const Outlook *o, int count, Need *out) {
    out[0] = infeasible;
    for (int r = 1; r <= 13; r++) {
        int left = o->own[r] < count ? count - o->own[r] : 0;
        int held = o->hand[r];
        int played = held < left ? held : left;
        left -= played;
        int cited = o->rival[r] < left ? o->rival[r] : left;
        left -= cited;
        if (left > o->pool[r] - held) {
            out[r] = infeasible;
        } else {
            out[r].cost = (double)cited * o->rival_cite + (double)left;
            out[r].played = played + left;
            out[r].missing = left;
        }
    }
}

static Need need_straight(Outlook *o, int length) {
    if (length > 13 || length < 1) {
        return infeasible;
    }
    if (!o->have_singles) {
        need_table(o, 1, o->singles);
        o->have_singles = 1;
    }
    double costs[14];
    int played[14], missing[14], blocked[14];
    costs[0] = 0.0;
    played[0] = missing[0] = blocked[0] = 0;
    for (int r = 1; r <= 13; r++) {
        const Need *n = &o->singles[r];
        int out = n->cost == HUGE_VAL;
        costs[r] = costs[r - 1] + (out ? 0.0 : n->cost);
        played[r] = played[r - 1] + n->played;
        missing[r] = missing[r - 1] + n->missing;
        blocked[r] = blocked[r - 1] + out;
    }
    Need best = infeasible;
    for (int low = 0; low < 13 - length + 1; low++) {
        int high = low + length;
        if (blocked[high] != blocked[low]) {
            continue;
        }
        double cost = costs[high] - costs[low];
        int p = played[high] - played[low];
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

static Need need_pairs(Outlook *o, int pairs) {
    if (!o->have_doubles) {
        need_table(o, 2, o->doubles);
        o->have_doubles = 1;
    }
    if (pairs > 13) {
        return infeasible;
    }
    Need sorted[13];
    memcpy(sorted, &o->doubles[1], sizeof(sorted));
    qsort(sorted, 13, sizeof(Need), by_need);
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

/* Outlook._total: an exact subset sum of the free items for a complete Novel, a range
 * test otherwise. Sums reach 13 * 13 = 169: three 64-bit words per count. */
static Need need_total(const Outlook *o, int count, int target) {
    int items[14 * MAX_CARDS * 2], n = 0;
    for (int r = 1; r <= 13; r++) {
        for (int i = 0; i < o->own[r]; i++) {
            items[n++] = r;
        }
    }
    int own_items = n;
    for (int r = 1; r <= 13; r++) {
        for (int i = 0; i < o->hand[r]; i++) {
            items[n++] = r;
        }
    }
    if (n == 0) {
        Need all = {(double)count, count, count};
        return all;
    }
    if (n >= count) {
        uint64_t reach[14][3];
        memset(reach, 0, sizeof(reach));
        reach[0][0] = 1;
        for (int index = 0; index < n; index++) {
            int rank = items[index];
            for (int size = index + 1 < count ? index + 1 : count; size > 0; size--) {
                const uint64_t *from = reach[size - 1];
                uint64_t shifted[3] = {from[0] << rank,
                                       (from[1] << rank) | (from[0] >> (64 - rank)),
                                       (from[2] << rank) | (from[1] >> (64 - rank))};
                for (int w = 0; w < 3; w++) {
                    reach[size][w] |= shifted[w];
                }
            }
        }
        if (reach[count][target / 64] >> (target % 64) & 1) {
            int free = own_items < count - 1 ? own_items : count - 1;
            Need exact = {0.0, count - free, 0};
            return exact;
        }
    }
    int ordered[14 * MAX_CARDS * 2];
    int m = 0;
    for (int r = 1; r <= 13; r++) { /* the items sorted: ranks ascending */
        for (int i = 0; i < n; i++) {
            if (items[i] == r) {
                ordered[m++] = r;
            }
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
        if (low <= target - missing && high >= target - 13 * missing) {
            int free = own_items < used ? own_items : used;
            Need near = {(double)missing, missing + used - free, missing};
            return near;
        }
    }
    return infeasible;
}

static double novel_value(Outlook *o, int kind, int first, int second, int points) {
    Need n;
    if (kind == KIND_STRAIGHT) {
        n = need_straight(o, first);
    } else if (kind == KIND_OF_A_KIND) {
        Need table[14];
        need_table(o, first, table);
        n = table[1];
        for (int r = 2; r <= 13; r++) {
            if (need_less(&table[r], &n)) {
                n = table[r];
            }
        }
    } else if (kind == KIND_PAIRS) {
        n = need_pairs(o, first);
    } else {
        n = need_total(o, first, second);
    }
    if (n.cost == HUGE_VAL) {
        return 0.0;
    }
    if (n.played == 0) { /* R4: at least one card from the hand */
        n.cost += 1;
        n.played = 1;
        n.missing += 1;
    }
    if (o->horizon >= 0 && n.missing + n.played > o->horizon) {
        return 0.0;
    }
    return (o->prospect * (double)points * pow(o->missing_factor, n.cost)) *
           pow(o->read_factor, (double)(n.played - 1));
}

static int by_value_down(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* prospects(hand, own, rival, pool, plan, weights, horizon): plan holds (kind, first,
 * second, points) per Novel the player may publish; weights is (prospect, missing_factor,
 * read_factor, spread, rival_cite); horizon -1 before the countdown. */
static PyObject *prospects(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *hand, *own, *rival, *pool, *plan;
    Outlook o;
    memset(&o, 0, sizeof(o));
    if (!PyArg_ParseTuple(args, "OOOOO(ddddd)i", &hand, &own, &rival, &pool, &plan,
                          &o.prospect, &o.missing_factor, &o.read_factor, &o.spread,
                          &o.rival_cite, &o.horizon)) {
        return NULL;
    }
    if (read_counts(hand, o.hand, "hand") < 0 || read_counts(own, o.own, "own") < 0 ||
        read_counts(rival, o.rival, "rival") < 0 || read_counts(pool, o.pool, "pool") < 0) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(plan, "plan must be a sequence");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t novels = PySequence_Fast_GET_SIZE(seq);
    if (novels > 256) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_OverflowError, "more Novels than the kernel's table");
        return NULL;
    }
    double values[256];
    for (Py_ssize_t i = 0; i < novels; i++) {
        int kind, first, second, points;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiii", &kind, &first, &second,
                              &points)) {
            Py_DECREF(seq);
            return NULL;
        }
        if (kind < KIND_STRAIGHT || kind > KIND_TOTAL || first < 1 || first > 13 ||
            (kind == KIND_TOTAL && (second < 1 || second > 13 * 13))) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_OverflowError, "a pattern out of the kernel's range");
            return NULL;
        }
        values[i] = novel_value(&o, kind, first, second, points);
    }
    Py_DECREF(seq);
    if (novels > 1) {
        qsort(values, (size_t)novels, sizeof(double), by_value_down);
    }
    double total = 0.0, weight = 1.0;
    for (Py_ssize_t i = 0; i < novels; i++) {
        if (values[i] <= 0.0) {
            break;
        }
        total += weight * values[i];
        weight *= o.spread;
    }
    return PyFloat_FromDouble(total);
}

static PyMethodDef methods[] = {
    {"fill_public", fill_public, METH_VARARGS,
     "fill_public(out, fields, players, me, novels, novel_index, hand, pending, discard, "
     "face_down, holders, flag, tables, supply, hand_sizes, scores, scalars): an observation."},
    {"policy_publishes", policy_publishes, METH_VARARGS,
     "policy_publishes(in_hand, own, others, hand_size, plan, usable, weights, turns_left, "
     "limit, floor): the playout policy's costed publishes, best first."},
    {"prospects", prospects, METH_VARARGS,
     "prospects(hand, own, rival, pool, plan, weights, horizon): a hand's publishing "
     "prospects."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_legacy",
    "Compiled twins of the counting kernels of pastiche_core.movegen.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__legacy(void) {
    return PyModule_Create(&module);
}
