/*
 * The core of the observe kernel fill_public (observe.c), for another C file: the observation
 * written from packed inputs already read, and its layout checked once beforehand. observe.c's
 * header comment has the contract (the fields, the inputs, the checks).
 */
#ifndef PASTICHE_OBSERVE_H
#define PASTICHE_OBSERVE_H

#include "kernels.h"

/* The observation layout: the (offset, size) int32 pairs of the PK_OBS_FIELDS fields (in
 * OBS_FIELDS order, observe.c), with the players n and the Novel slots k; the PK_OBS_STATE
 * integers of `state` (in OBS_STATE order). */
#define PK_OBS_FIELDS 25
#define PK_OBS_STATE 11

/* Write one player's observation but the decision in progress into out (floats, `size` of them:
 * zeroed first, then the fields), from packed inputs already read: the same meaning as
 * fill_public's arguments, as C arrays (table 98 bytes, slots one per Novel position of the
 * table (`positions` of them), known 49 bytes, supply k longs, sizes and scores n longs, state
 * PK_OBS_STATE longs), the integers within +-2^24 (fill_public refuses the others while reading
 * them; here they are trusted). Returns 0, or -1 with ValueError (the same checks and messages as
 * fill_public's ValueErrors) without having written out. The layout (`pairs`, 2 * PK_OBS_FIELDS
 * int32) is trusted: checked by the caller once (pk_obs_layout, with the same size, n and k).
 * The pairs and bytes are read before out is written (they may lie in its memory); the integer
 * arrays must not overlap out. */
int pk_fill_public(float *out, Py_ssize_t size, const int32_t *pairs, int n, int k,
                   const unsigned char *table, const unsigned char *slots, Py_ssize_t positions,
                   const unsigned char *known, const long *supply, const long *sizes,
                   const long *scores, const long *state);

/* Check a layout as fill_public does (`length` int32 in pairs, then the fields' offsets and
 * sizes against size floats, n players and k slots): 0, or -1 with the same exception as
 * fill_public raises for it: TypeError for a length other than 2 * PK_OBS_FIELDS, ValueError for
 * n < 1 or k < 0, the module's refusal (pk_refuse) for n beyond PK_MAX_SEATS or k beyond
 * PK_MAX_NOVELS, ValueError for a field of a size other than its shape's or off the array. */
int pk_obs_layout(PyObject *module, const int32_t *pairs, Py_ssize_t length, Py_ssize_t size,
                  int n, int k);

#endif
