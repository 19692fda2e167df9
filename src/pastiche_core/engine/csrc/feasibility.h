/*
 * The twin of pastiche_core/engine/feasibility.py's cost rule (R4, R5): what filling a publish's
 * ranks costs in hand cards. Every kernel that asks whether a publish can be paid for asks
 * here, so a change to the rule is one edit in feasibility.py and one here.
 */
#ifndef PASTICHE_FEASIBILITY_H
#define PASTICHE_FEASIBILITY_H

/* feasibility.rank_cost: the fewest hand cards `need` cards of a rank cost. */
/* home: R5.cost; twin test: tests/kernels/test_counting.py */
static inline long pk_rank_cost(long need, long own) { return need > own ? need - own : 0; }

/* feasibility.fill_rank: own Masterpieces first, then hand cards (or others' Masterpieces
 * first with cite_first); out[0..3] = own cited, played, others cited, short. */
static inline void pk_fill_rank(long need, long hand, long own, long others, int cite_first,
                                long out[4]) {
    long mine = need < own ? need : own;
    long left = need - mine, played, cited;
    if (cite_first) {
        cited = left < others ? left : others;
        played = left - cited < hand ? left - cited : hand;
    } else {
        played = left < hand ? left : hand;
        cited = left - played < others ? left - played : others;
    }
    out[0] = mine;
    out[1] = played;
    out[2] = cited;
    out[3] = left - played - cited;
}

/* feasibility.settle: R4 (nothing played: a spare own citation gives way to a hand card)
 * and R5 (the gifts fit the unplayed cards). Returns 0 when the fill breaks one. */
static inline int pk_settle(long *played, long gifts, int spare, long hand_size) {
    if (!*played) {
        if (!spare) {
            return 0;
        }
        *played = 1;
    }
    return gifts <= hand_size - *played;
}

/* feasibility.least_cost, one rank at a time: start a tally with pk_cost_start, add each
 * rank with pk_cost_add (0 when the rank cannot be filled), then pk_cost_finish gives the
 * cost (-1 when R4 cannot be met). */
typedef struct {
    long cost;
    int any_hand, excess;
} PkCost;

static inline void pk_cost_start(PkCost *tally, long spent) {
    tally->cost = spent;
    tally->any_hand = tally->excess = 0;
}

static inline int pk_cost_add(PkCost *tally, long need, long hand, long own, long others) {
    if (!need) {
        return 1;
    }
    if (need > hand + own + others) {
        return 0;
    }
    if (need > own) {
        tally->cost += need - own;
        if (hand) {
            tally->excess = 1;
        }
    }
    if (hand) {
        tally->any_hand = 1;
    }
    return 1;
}

/* home: R4.cost; twin test: tests/kernels/test_counting.py */
static inline long pk_cost_finish(const PkCost *tally, int played) {
    if (played) {
        return tally->cost;
    }
    if (!tally->any_hand) {
        return -1; /* R4: no hand card can be played */
    }
    return tally->excess ? tally->cost : tally->cost + 1; /* R4: an own one gives way */
}

#endif
