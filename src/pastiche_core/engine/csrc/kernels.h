/*
 * What the compiled kernels share: the module's state, its refusals, checked arithmetic and
 * readers of the packed arrays (layout.h). The kernels keep no state between calls: each
 * call works on its own stack and heap, so two threads (or a call that runs Python code and
 * comes back in) cannot disturb each other.
 *
 * A kernel refuses an input beyond its fixed ranges with pk_refuse (the module's OutOfRange,
 * a subclass of OverflowError); the gate (pastiche_core/engine/_kernels.py) then asks the Python
 * rule. Any other exception is a bug, which the gate counts as an error.
 */
#ifndef PASTICHE_KERNELS_H
#define PASTICHE_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "feasibility.h"
#include "layout.h"

#define PK_MAX_BINOM 64 /* the binomial table: n and k up to this */

typedef struct {
    PyObject *out_of_range; /* the refusal of an input beyond a kernel's ranges */
    PyObject *reentrant;    /* kept for the gate's reasons; no kernel raises it today */
    PyObject *episodes;     /* episode.c's type, made at import */
    uint64_t binom[PK_MAX_BINOM + 1][PK_MAX_BINOM + 1]; /* filled at import, then read only */
} PkState;

static inline PkState *pk_state(PyObject *module) { return (PkState *)PyModule_GetState(module); }

/* Refuse the call: `what` is beyond the kernel's fixed ranges. Returns NULL. */
PyObject *pk_refuse(PyObject *module, const char *what);

/* Checked 64-bit arithmetic: a result that does not fit sets *overflow (the call refuses). */
static inline uint64_t pk_mul(uint64_t a, uint64_t b, int *overflow) {
    uint64_t out;
    if (__builtin_mul_overflow(a, b, &out)) {
        *overflow = 1;
        return 0;
    }
    return out;
}

static inline uint64_t pk_add(uint64_t a, uint64_t b, int *overflow) {
    uint64_t out;
    if (__builtin_add_overflow(a, b, &out)) {
        *overflow = 1;
        return 0;
    }
    return out;
}

/* C(n, k) for 0 <= k <= n <= PK_MAX_BINOM (0 for k > n); beyond, *overflow is set. */
static inline uint64_t pk_binom(const PkState *st, long n, long k, int *overflow) {
    if (k < 0 || n < 0 || k > n) {
        return 0;
    }
    if (n > PK_MAX_BINOM) {
        *overflow = 1;
        return 0;
    }
    return st->binom[n][k];
}

/* A card table (layout.h) from a bytes-like object: *view must be released by the caller
 * (PyBuffer_Release) when this returns 0. A wrong size is a TypeError (a bug, not a range). */
int pk_card_table(PyObject *source, Py_buffer *view, const unsigned char **table);

/* A plan (layout.h) from a bytes-like object: PK_PLAN_FIELDS int32 per Novel. */
int pk_plan(PyObject *source, Py_buffer *view, const int32_t **plan, Py_ssize_t *novels);

/* `count` ints from a sequence, each within [low, high] (else a refusal naming `what`); a
 * sequence of another length raises `size_error` (a bug of the caller, not a range). */
int pk_read_ints(PyObject *module, PyObject *source, int count, long low, long high,
                 const char *what, PyObject *size_error, int *out);

/* A rank vector (PK_RANKS ints from a sequence), each within [low, high] (else a refusal); its
 * size is the layout's, so another is a TypeError. */
static inline int pk_rank_vector(PyObject *module, PyObject *source, long low, long high,
                                 int *out) {
    return pk_read_ints(module, source, PK_RANKS, low, high, "a rank vector's entry",
                        PyExc_TypeError, out);
}

/* The Straights of `length` ranks (patterns.Straight's combinations): the runs of that many
 * consecutive ranks 1-13 each with counts[rank] > 0, by their top rank ascending; 13 and 1 are
 * not consecutive (R2). Start with *top = 0 and *run = 0; each call writes the next run's ranks
 * (ascending) to ranks[0..length) and returns 1, or returns 0 when no run is left. */
/* home: R2; twin test: tests/kernels/test_counting.py */
static inline int pk_next_straight(const int *counts, int length, int *top, int *run,
                                   int *ranks) {
    while (++*top < PK_RANKS) {
        *run = counts[*top] ? *run + 1 : 0;
        if (*run >= length) {
            for (int k = 0; k < length; k++) {
                ranks[k] = *top - length + 1 + k;
            }
            return 1;
        }
    }
    return 0;
}

/* A tuple of Python ints from `size` C ints (NULL with an exception). */
PyObject *pk_int_tuple(const int *values, int size);

/* A player seat from a Python int (one beyond a C long is refused). */
int pk_player(PyObject *module, PyObject *source, long *player);

/* counting.c, shared with masks.c. A position's publish segments (movegen_count._plan_segments):
 * per usable entry of the plan, each rank multiset with publishes is handed to `sink` with its
 * plan index, ranks (ascending), needs and count; with `first`, only each Novel's first; with
 * `payable`, the multisets are found by the closed-form cost test instead of being counted
 * (movegen.payable_groups) and the count given is 1. The sink returns 0, or -1 with an
 * exception set (which stops the count). pk_count_plan returns 0, or -1 with an exception:
 * a refusal (counting.c's ranges) or an error. */
typedef int (*PkSegmentSink)(void *data, int novel, const int *ranks, const int *needs,
                             int width, uint64_t count);
int pk_count_plan(PyObject *module, const unsigned char *table, long player,
                  const unsigned char *usable, const int32_t *plan, Py_ssize_t novels, int first,
                  int payable, PkSegmentSink sink, void *data);

/* One publish of a rank multiset, decoded (counting.c): the hand cards played (ascending card
 * indexes), the Masterpieces cited (ascending), and the gifts in order, as (owner, card). */
typedef struct {
    int played[PK_CARDS], played_count;
    int cited[PK_CARDS], cited_count;
    int gift_owner[PK_CARDS], gift_card[PK_CARDS], gift_count;
} PkPick;
/* The index-th publish of the rank multiset (ranks ascending, needs) of `player` in `table`
 * (movegen_decode._decode_publish_py). Returns 0, or -1 with an exception set: IndexError for
 * an index out of the segment's range, the module's refusal (pk_refuse) beyond counting.c's
 * ranges (player or positions outside them, overflow), MemoryError. */
int pk_decode_group(PyObject *module, const unsigned char *table, long player, const int *ranks,
                    const int *needs, int width, uint64_t index, PkPick *out);

/* The card table, usable flags and plan of a call: one flag per plan entry (else ValueError).
 * Release with pk_plan_args_release when pk_plan_args returned 0. */
typedef struct {
    Py_buffer table_view, usable_view, plan_view;
    const unsigned char *table, *usable;
    const int32_t *plan;
    Py_ssize_t novels;
} PkPlanArgs;
int pk_plan_args(PkPlanArgs *args, PyObject *table, PyObject *usable, PyObject *plan);
void pk_plan_args_release(PkPlanArgs *args);

/* The kernels of each subsystem, added to the module at import. */
extern PyMethodDef pk_counting_methods[];
extern PyMethodDef pk_masks_methods[];
extern PyMethodDef pk_observe_methods[];
extern PyMethodDef pk_playouts_methods[];
extern PyMethodDef pk_game_methods[];
extern PyMethodDef pk_episode_methods[];
/* episode.c's type, made once per module (kept in PkState.episodes); NULL with an exception. */
PyObject *pk_episodes_type(PyObject *module);

#endif
