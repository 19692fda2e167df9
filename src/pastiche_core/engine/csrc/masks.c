/*
 * The masks kernels (see module.c): the atomic actions of a publish being built, twins of the
 * Python rules of pastiche_core.rl.encoding (MoveBuilder), on the card table of the view of the
 * player to move (layout.h).
 *
 *   start_actions(table, player, usable, plan, read_base, novel_base)
 *       = encoding_masks._start_actions_py: the reads (cards under a Published novel) and
 *         the Novels with a publish (counting.c's pk_count_plan, each Novel's first payable
 *         multiset)
 *   publish_start(table, player, usable, plan)
 *       = encoding_masks._publish_start_py: the rank multisets of the usable Novels' segments
 *   feasible_combos(table, player, combos, chosen, last_rank, last_kind, last_card, played,
 *                   owed)
 *       = encoding_masks._feasible_combos_py: the multisets a partial publish can still complete
 *   cards_mask(table, player, combos, chosen, last_rank, last_kind, last_card, played, owed,
 *              confirm, play_base, cite_base)
 *       = encoding_masks._cards_mask_py: the plays, cites and confirm of a partial publish
 *
 * A rank multiset ("combo") is 14 bytes: its cards per rank (index 0 unused). What a combo
 * still costs is the feasibility.h tally (R4, R5). Ranges, refused (Python answers): those of
 * counting.c for the first two; for the masks, a player beyond seat 7, a combo that is not 14
 * bytes, chosen counts outside 0-255 or not 14 of them, a last rank outside 0-13, a last kind
 * other than play (0) or cite (1), a last card outside -1..48 (or -1 after a card), cards
 * played or gifts owed outside 0..2^20, and action bases beyond a C long.
 *
 * Each kernel reads and checks its Python arguments, then asks a core of masks.h (which
 * another C file may call) and builds its Python answer.
 */
#include "masks.h"

#include <string.h>

/* Only Masterpieces are counted as citable, the player's own apart from others' (R6). */
/* home: R6.cite; twin test: tests/kernels/test_masks.py */
void pk_mask_table(const unsigned char *table, long player, MkTable *t) {
    int hand_after[PK_RANKS] = {0}, own_after[PK_RANKS] = {0}, oth_after[PK_RANKS] = {0};
    memset(t, 0, sizeof *t);
    int hand_code = PK_HAND | (int)player, own_code = PK_MASTER | (int)player;
    for (int index = PK_CARDS - 1; index >= 0; index--) {
        int place = table[index], rank = PK_RANK_OF(index);
        if (place == hand_code) {
            t->kind[index] = MK_HAND;
            t->above_hand[index] = (unsigned char)hand_after[rank]++;
            t->h[rank]++;
            t->limit++;
        } else if ((place & PK_PLACE_MASK) == PK_MASTER) {
            int mine = place == own_code;
            t->kind[index] = mine ? MK_OWN : MK_OTHER;
            t->above_own[index] = (unsigned char)own_after[rank];
            t->above_oth[index] = (unsigned char)oth_after[rank];
            if (mine) {
                own_after[rank]++;
                t->own[rank]++;
            } else {
                oth_after[rank]++;
                t->oth[rank]++;
            }
        }
    }
}

/* A long from a Python int within [low, high]; anything else but a non-int is refused. */
static int mk_long(PyObject *module, PyObject *source, long low, long high, long *out) {
    int overflow;
    long value = PyLong_AsLongAndOverflow(source, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || value < low || value > high) {
        pk_refuse(module, "a mask input beyond its range");
        return -1;
    }
    *out = value;
    return 0;
}

/* The table, player, combos and partial publish of a mask call (the first nine arguments). */
static int mk_read(PyObject *module, PyObject *const *args, Py_buffer *view, MkTable *t,
                   MkPartial *p) {
    const unsigned char *table;
    long player;
    if (!PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "the rank multisets must be a list");
        return -1;
    }
    if (mk_long(module, args[1], 0, PK_SEAT_MASK, &player) < 0 ||
        mk_long(module, args[4], 0, 13, &p->last_rank) < 0 ||
        mk_long(module, args[5], MK_PLAY, MK_CITE, &p->last_kind) < 0 ||
        mk_long(module, args[6], -1, PK_CARDS - 1, &p->last_card) < 0 ||
        mk_long(module, args[7], 0, MK_MAX_SPENT, &p->played) < 0 ||
        mk_long(module, args[8], 0, MK_MAX_SPENT, &p->owed) < 0) {
        return -1;
    }
    if (p->last_rank && p->last_card < 0) {
        pk_refuse(module, "a last rank without its card");
        return -1;
    }
    PyObject *chosen = PySequence_Fast(args[3], "the chosen counts must be a sequence");
    if (chosen == NULL) {
        return -1;
    }
    int status = 0;
    if (PySequence_Fast_GET_SIZE(chosen) != PK_RANKS) {
        status = -1;
        pk_refuse(module, "chosen counts of other than 14 ranks");
    }
    for (int r = 0; r < PK_RANKS && status == 0; r++) {
        status = mk_long(module, PySequence_Fast_GET_ITEM(chosen, r), 0, 255, &p->chosen[r]);
    }
    Py_DECREF(chosen);
    if (status < 0 || pk_card_table(args[0], view, &table) < 0) {
        return -1;
    }
    pk_mask_table(table, player, t);
    return 0;
}

/* A combo's 14 bytes, or NULL refused. */
static const unsigned char *mk_combo(PyObject *module, PyObject *combo) {
    if (!PyBytes_Check(combo) || PyBytes_GET_SIZE(combo) != PK_RANKS) {
        pk_refuse(module, "a rank multiset that is not 14 bytes");
        return NULL;
    }
    return (const unsigned char *)PyBytes_AS_STRING(combo);
}

/* home: R4.check; twin test: tests/kernels/test_masks.py */
int pk_combo_feasible(const MkTable *t, const MkPartial *p, const unsigned char *combo) {
    PkCost tally;
    pk_cost_start(&tally, p->played + p->owed);
    for (int rank = 1; rank < PK_RANKS; rank++) {
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
        long hand = t->h[rank], mine = t->own[rank], others = t->oth[rank];
        if (rank == p->last_rank) {
            if (p->last_kind == MK_PLAY) {
                hand = t->above_hand[p->last_card];
            } else {
                hand = 0;
                mine = t->above_own[p->last_card];
                others = t->above_oth[p->last_card];
            }
        }
        if (!pk_cost_add(&tally, need, hand, mine, others)) {
            return 0;
        }
    }
    long cost = pk_cost_finish(&tally, p->played > 0);
    return cost >= 0 && cost <= t->limit;
}

/* feasible_combos(table, player, combos, chosen, last_rank, last_kind, last_card, played,
 * owed): encoding_masks._feasible_combos_py. */
static PyObject *feasible_combos(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "feasible_combos takes 9 arguments");
        return NULL;
    }
    Py_buffer view;
    MkTable t;
    MkPartial p;
    if (mk_read(module, args, &view, &t, &p) < 0) {
        return NULL;
    }
    PyBuffer_Release(&view);
    PyObject *combos = args[2], *kept = PyList_New(0);
    for (Py_ssize_t i = 0; kept != NULL && i < PyList_GET_SIZE(combos); i++) {
        PyObject *item = PyList_GET_ITEM(combos, i);
        const unsigned char *combo = mk_combo(module, item);
        if (combo == NULL || (pk_combo_feasible(&t, &p, combo) && PyList_Append(kept, item) < 0)) {
            Py_CLEAR(kept);
        }
    }
    return kept;
}

/* encoding_masks._fits: one rank's need added to the tally of the ranks above, `extra` hand cards
 * more, within the hand. */
static int mk_fits(long need, long hand, long mine, long others, const PkCost *tally, long extra,
                   int played, long limit) {
    PkCost next = *tally;
    next.cost += extra;
    if (!pk_cost_add(&next, need, hand, mine, others)) {
        return 0;
    }
    long cost = pk_cost_finish(&next, played);
    return cost >= 0 && cost <= limit;
}

/* home: R4.check, R5.gifts; twin test: tests/kernels/test_masks.py */
void pk_cards_choices(const MkTable *t, const MkPartial *p, const unsigned char *combos,
                      Py_ssize_t count, char *plays, char *cites, int *confirm) {
    long base_cost = p->played + p->owed;
    memset(plays, 0, PK_CARDS);
    memset(cites, 0, PK_CARDS);
    *confirm = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        const unsigned char *combo = combos + PK_RANKS * i;
        int low = 0;
        for (int rank = p->last_rank > 1 ? (int)p->last_rank : 1; rank < PK_RANKS; rank++) {
            if (combo[rank] > p->chosen[rank]) {
                low = rank;
                break;
            }
        }
        if (!low) {
            *confirm = *confirm || (p->played > 0 && base_cost <= t->limit);
            continue;
        }
        PkCost tally;
        pk_cost_start(&tally, base_cost);
        int blocked = 0;
        for (int rank = low + 1; rank < PK_RANKS && !blocked; rank++) {
            long need = (long)combo[rank] - p->chosen[rank];
            blocked = need && !pk_cost_add(&tally, need, t->h[rank], t->own[rank], t->oth[rank]);
        }
        if (blocked) {
            continue; /* a rank above cannot be filled */
        }
        long need = (long)combo[low] - p->chosen[low] - 1; /* still short after the pick */
        if (p->last_rank < low || p->last_kind == MK_PLAY) {
            long skip = p->last_rank == low ? p->last_card : -1;
            for (int index = (int)skip + 1; index < PK_CARDS; index++) {
                if (t->kind[index] == MK_HAND && PK_RANK_OF(index) == low && !plays[index] &&
                    mk_fits(need, t->above_hand[index], t->own[low], t->oth[low], &tally, 1, 1,
                            t->limit)) {
                    plays[index] = 1;
                }
            }
        }
        long skip = p->last_rank == low && p->last_kind == MK_CITE ? p->last_card : -1;
        for (int index = (int)skip + 1; index < PK_CARDS; index++) {
            int kind = t->kind[index];
            if ((kind == MK_OWN || kind == MK_OTHER) && PK_RANK_OF(index) == low &&
                !cites[index] &&
                mk_fits(need, 0, t->above_own[index], t->above_oth[index], &tally,
                        kind == MK_OWN ? 0 : 1, p->played > 0, t->limit)) {
                cites[index] = 1;
            }
        }
    }
}

static int mk_append(PyObject *list, long value) {
    PyObject *item = PyLong_FromLong(value);
    if (item == NULL) {
        return -1;
    }
    int status = PyList_Append(list, item);
    Py_DECREF(item);
    return status;
}

/* cards_mask(table, player, combos, chosen, last_rank, last_kind, last_card, played, owed,
 * confirm, play_base, cite_base): encoding_masks._cards_mask_py. */
static PyObject *cards_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "cards_mask takes 12 arguments");
        return NULL;
    }
    Py_buffer view;
    MkTable t;
    MkPartial p;
    long bases[3]; /* the confirm action, the play of card 0, the cite of card 0 */
    for (int i = 0; i < 3; i++) {
        if (mk_long(module, args[9 + i], 0, MK_MAX_SPENT, &bases[i]) < 0) {
            return NULL;
        }
    }
    if (mk_read(module, args, &view, &t, &p) < 0) {
        return NULL;
    }
    PyBuffer_Release(&view);
    /* Every combo is checked before any is used, so a malformed one is refused wherever it
     * stands; nothing here runs Python code, so the list stays as it is. */
    PyObject *combos = args[2];
    Py_ssize_t count = PyList_GET_SIZE(combos);
    for (Py_ssize_t i = 0; i < count; i++) {
        if (mk_combo(module, PyList_GET_ITEM(combos, i)) == NULL) {
            return NULL;
        }
    }
    unsigned char *packed = NULL; /* the combos, contiguous */
    if (count > 0) {
        packed = count > PY_SSIZE_T_MAX / PK_RANKS ? NULL
                                                   : PyMem_Malloc((size_t)count * PK_RANKS);
        if (packed == NULL) {
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            memcpy(packed + PK_RANKS * i, PyBytes_AS_STRING(PyList_GET_ITEM(combos, i)),
                   PK_RANKS);
        }
    }
    char plays[PK_CARDS], cites[PK_CARDS];
    int confirm;
    pk_cards_choices(&t, &p, packed, count, plays, cites, &confirm);
    PyMem_Free(packed);
    PyObject *actions = PyList_New(0);
    if (actions != NULL && confirm && mk_append(actions, bases[0]) < 0) {
        Py_CLEAR(actions);
    }
    for (int pass = 0; pass < 2 && actions != NULL; pass++) {
        const char *picked = pass == 0 ? plays : cites;
        for (int index = 0; index < PK_CARDS; index++) {
            if (picked[index] && mk_append(actions, bases[1 + pass] + index) < 0) {
                Py_CLEAR(actions);
                break;
            }
        }
    }
    return actions;
}

/* ---- The start of a decision and of a publish: counting.c's count of the position ---- */

typedef struct {
    int *novels;
    int count;
} MkNovels;

static int add_novel(void *data, int novel, const int *ranks, const int *needs, int width,
                     uint64_t count) {
    (void)ranks, (void)needs, (void)width, (void)count;
    MkNovels *found = data;
    found->novels[found->count++] = novel; /* `first`: once per Novel, ascending */
    return 0;
}

int pk_start_novels(PyObject *module, const unsigned char *table, long player,
                    const unsigned char *usable, const int32_t *plan, Py_ssize_t novels_in_plan,
                    int *novels) {
    MkNovels found = {novels, 0};
    if (pk_count_plan(module, table, player, usable, plan, novels_in_plan, 1, 1, add_novel,
                      &found) < 0) {
        return -1;
    }
    return found.count;
}

/* start_actions(table, player, usable, plan, read_base, novel_base):
 * encoding_masks._start_actions_py. */
/* home: R11.reads; twin test: tests/kernels/test_masks.py */
static PyObject *start_actions(PyObject *module, PyObject *args) {
    PyObject *table, *player_arg, *usable, *plan, *read_arg, *novel_arg;
    long player, read_base, novel_base;
    if (!PyArg_ParseTuple(args, "OOOOOO:start_actions", &table, &player_arg, &usable, &plan,
                          &read_arg, &novel_arg) ||
        pk_player(module, player_arg, &player) < 0 ||
        mk_long(module, read_arg, 0, MK_MAX_SPENT, &read_base) < 0 ||
        mk_long(module, novel_arg, 0, MK_MAX_SPENT, &novel_base) < 0) {
        return NULL;
    }
    PkPlanArgs read;
    if (pk_plan_args(&read, table, usable, plan) < 0) {
        return NULL;
    }
    PyObject *actions = PyList_New(0);
    for (int index = 0; actions != NULL && index < PK_CARDS; index++) {
        if ((read.table[index] & PK_PLACE_MASK) == PK_PUBLISHED &&
            mk_append(actions, read_base + index) < 0) {
            Py_CLEAR(actions);
        }
    }
    int novels[PK_MAX_NOVELS]; /* pk_plan_args takes at most PK_MAX_NOVELS */
    int found = actions == NULL ? 0
                                : pk_start_novels(module, read.table, player, read.usable,
                                                  read.plan, read.novels, novels);
    if (found < 0) {
        Py_CLEAR(actions);
    }
    for (int i = 0; actions != NULL && i < found; i++) {
        if (mk_append(actions, novel_base + novels[i]) < 0) {
            Py_CLEAR(actions);
        }
    }
    pk_plan_args_release(&read);
    return actions;
}

typedef struct {
    unsigned char **combos;
    Py_ssize_t *count, *room;
} MkCombos;

static int add_combo(void *data, int novel, const int *ranks, const int *needs, int width,
                     uint64_t count) {
    (void)novel, (void)count;
    MkCombos *out = data;
    if (*out->count == *out->room) {
        Py_ssize_t room = *out->room ? 2 * *out->room : 16;
        unsigned char *grown = *out->room > PY_SSIZE_T_MAX / (2 * PK_RANKS)
                                   ? NULL
                                   : PyMem_Realloc(*out->combos, (size_t)room * PK_RANKS);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *out->combos = grown;
        *out->room = room;
    }
    unsigned char *combo = *out->combos + PK_RANKS * (*out->count)++;
    memset(combo, 0, PK_RANKS);
    for (int i = 0; i < width; i++) {
        combo[ranks[i]] = (unsigned char)needs[i]; /* ranks 1-13, needs at most a rank's 7 */
    }
    return 0;
}

int pk_publish_combos(PyObject *module, const unsigned char *table, long player,
                      const unsigned char *usable, const int32_t *plan, Py_ssize_t novels_in_plan,
                      unsigned char **combos, Py_ssize_t *count, Py_ssize_t *room) {
    MkCombos out = {combos, count, room};
    return pk_count_plan(module, table, player, usable, plan, novels_in_plan, 0, 1, add_combo,
                         &out);
}

/* publish_start(table, player, usable, plan): encoding_masks._publish_start_py. */
static PyObject *publish_start(PyObject *module, PyObject *args) {
    PyObject *table, *player_arg, *usable, *plan;
    long player;
    if (!PyArg_ParseTuple(args, "OOOO:publish_start", &table, &player_arg, &usable, &plan) ||
        pk_player(module, player_arg, &player) < 0) {
        return NULL;
    }
    PkPlanArgs read;
    if (pk_plan_args(&read, table, usable, plan) < 0) {
        return NULL;
    }
    unsigned char *packed = NULL;
    Py_ssize_t count = 0, room = 0;
    int status = pk_publish_combos(module, read.table, player, read.usable, read.plan,
                                   read.novels, &packed, &count, &room);
    pk_plan_args_release(&read);
    PyObject *combos = status < 0 ? NULL : PyList_New(count);
    for (Py_ssize_t i = 0; combos != NULL && i < count; i++) {
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)packed + PK_RANKS * i, PK_RANKS);
        if (bytes == NULL) {
            Py_CLEAR(combos);
            break;
        }
        PyList_SET_ITEM(combos, i, bytes);
    }
    PyMem_Free(packed);
    return combos;
}

PyMethodDef pk_masks_methods[] = {
    {"start_actions", start_actions, METH_VARARGS,
     "start_actions(table, player, usable, plan, read_base, novel_base): the reads and Novels "
     "a player may start, ascending (rl.encoding_masks._start_actions_py)."},
    {"publish_start", publish_start, METH_VARARGS,
     "publish_start(table, player, usable, plan): the rank multisets of the usable Novels' "
     "publishes, 14 bytes each (rl.encoding_masks._publish_start_py)."},
    {"feasible_combos", (PyCFunction)(void (*)(void))feasible_combos, METH_FASTCALL,
     "feasible_combos(table, player, combos, chosen, last_rank, last_kind, last_card, played, "
     "owed): the rank multisets a partial publish can still complete "
     "(rl.encoding_masks._feasible_combos_py)."},
    {"cards_mask", (PyCFunction)(void (*)(void))cards_mask, METH_FASTCALL,
     "cards_mask(table, player, combos, chosen, last_rank, last_kind, last_card, played, owed, "
     "confirm, play_base, cite_base): the plays, cites and confirm of a partial publish "
     "(rl.encoding_masks._cards_mask_py)."},
    {NULL, NULL, 0, NULL},
};
