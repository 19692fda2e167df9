/*
 * The packed arrays the compiled kernels read, as pastiche_core/engine/layout.py documents them.
 * Python builds them; the kernels never read a Python game, view or card object. A test
 * (tests/kernels/test_layout.py) compares every number here with layout.py and feasibility.py.
 */
#ifndef PASTICHE_LAYOUT_H
#define PASTICHE_LAYOUT_H

#define PK_LAYOUT_VERSION 1

/* The card table: a place per card of the deck, then the catalogue position of the Novel
 * the card lies under (PK_NO_NOVEL if none). */
#define PK_CARDS 49
#define PK_CARD_TABLE_SIZE (2 * PK_CARDS)
#define PK_NOVEL_AT PK_CARDS /* table[PK_NOVEL_AT + card]: the card's Novel */
#define PK_NO_NOVEL 0xFF

/* Places: the codes of 0x08 and up carry a seat in their low three bits. */
#define PK_UNSEEN 0x00
#define PK_PILE_UP 0x01
#define PK_DRAWN 0x02
#define PK_PILE_DOWN 0x08
#define PK_HAND 0x10
#define PK_MASTER 0x20
#define PK_PUBLISHED 0x30
#define PK_FLAG 0x40
#define PK_SEAT_MASK 0x07
#define PK_PLACE_MASK 0xF8
#define PK_MAX_SEATS 8

/* Card `index` of the deck has rank index % 7 + index / 7 + 1 (R1). */
#define PK_RANK_OF(index) ((index) % 7 + (index) / 7 + 1)

/* Rank vectors: 14 entries, entry r for rank r (entry 0 unused). */
#define PK_RANKS 14

/* The plan of a catalogue: per publishable Novel, five int32: kind, first, second, size
 * (-1: any), points. */
#define PK_PLAN_FIELDS 5
#define PK_KIND_STRAIGHT 0
#define PK_KIND_OF_A_KIND 1
#define PK_KIND_PAIRS 2
#define PK_KIND_TOTAL 3
#define PK_MAX_NOVELS 64

/* The rules (layout.packed_rules): the fewest and most players, the keep size, the End Flag
 * threshold, then the cards dealt to each seat (0 beyond the most players). */
#define PK_RULE_MIN_PLAYERS 0
#define PK_RULE_MAX_PLAYERS 1
#define PK_RULE_KEEP_SIZE 2
#define PK_RULE_END_THRESHOLD 3
#define PK_RULE_DEAL_SIZES 4
#define PK_RULE_SEATS 5
#define PK_RULES_SIZE 9

/* Gifts owed, packed per owner (feasibility.OWED_BITS). */
#define PK_OWED_BITS 8

#endif
