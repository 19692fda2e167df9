/*
 * The masks kernels' cores (masks.c), for another C file: the state of a publish being built
 * (rl.encoding's MoveBuilder) and its answers, without Python arguments or Python lists.
 *
 * A rank multiset ("combo") is 14 bytes: its cards per rank (index 0 unused). The cores trust
 * their inputs to be within the ranges the masks kernels check (masks.c): a card table of
 * layout.h, a player of seat 0-7, chosen counts 0-255, a last rank 0-13 with its card 0..48
 * (-1 only while the last rank is 0), a last kind MK_PLAY or MK_CITE, cards played and gifts
 * owed 0..MK_MAX_SPENT.
 */
#ifndef PASTICHE_MASKS_H
#define PASTICHE_MASKS_H

#include "kernels.h"

#define MK_HAND 1  /* MkTable.kind: a hand card of the player */
#define MK_OWN 2   /* a Masterpiece of the player */
#define MK_OTHER 3 /* a Masterpiece of another player */
#define MK_PLAY 0  /* MkPartial.last_kind: the last card was played */
#define MK_CITE 1  /* the last card was cited */
#define MK_MAX_SPENT (1L << 20) /* cards played, gifts owed and action bases: at most this */

/* encoding_masks.Table: per rank the hand cards and own and others' Masterpieces; per card its sort
 * and the cards of its rank and of each sort after it in card order. */
typedef struct {
    long limit;
    int h[PK_RANKS], own[PK_RANKS], oth[PK_RANKS];
    unsigned char kind[PK_CARDS], above_hand[PK_CARDS], above_own[PK_CARDS], above_oth[PK_CARDS];
} MkTable;

/* The partial publish: the cards chosen per rank, the last card's key, played and owed. */
typedef struct {
    long chosen[PK_RANKS];
    long last_rank, last_kind, last_card, played, owed;
} MkPartial;

/* encoding_masks.Table of the player in a card table. */
void pk_mask_table(const unsigned char *table, long player, MkTable *t);

/* encoding_masks._feasible: whether a combo (14 bytes, cards per rank) can still complete the
 * partial publish (1 or 0). */
int pk_combo_feasible(const MkTable *t, const MkPartial *p, const unsigned char *combo);

/* encoding_masks._cards_mask_py without its action numbers: the plays, cites and confirm of a
 * partial publish over `count` combos (14 bytes each, contiguous; may be NULL when count is
 * 0). plays and cites (PK_CARDS each) are filled: 1 for each card that may be played / cited,
 * else 0; *confirm is 1 or 0. */
void pk_cards_choices(const MkTable *t, const MkPartial *p, const unsigned char *combos,
                      Py_ssize_t count, char *plays, char *cites, int *confirm);

/* The Novels (plan indexes) with a publish, ascending, into novels[] (room for novels_in_plan,
 * at most PK_MAX_NOVELS); returns their count, or -1 with an exception (counting.c's refusals,
 * no memory). The reads of start_actions are not included. */
int pk_start_novels(PyObject *module, const unsigned char *table, long player,
                    const unsigned char *usable, const int32_t *plan, Py_ssize_t novels_in_plan,
                    int *novels);

/* The rank multisets (14 bytes each) of the usable Novels' segments, in publish_start's order,
 * appended to *combos (PyMem_Realloc'ed: *count updated, *room its capacity in combos; NULL and
 * 0 to start); 0, or -1 with an exception. The caller frees *combos (PyMem_Free) either way. */
int pk_publish_combos(PyObject *module, const unsigned char *table, long player,
                      const unsigned char *usable, const int32_t *plan, Py_ssize_t novels_in_plan,
                      unsigned char **combos, Py_ssize_t *count, Py_ssize_t *room);

#endif
