/*
 * The game kernel: whole games between random bots (random_game, the twin of
 * pastiche_core.bots.play._random_game_py, which plays play_game's default RandomBots on game.Game),
 * and the packed game (game.h) it plays on: the rules engine's moves and legal-move indexing
 * over the card table of layout.h (as Game._cards keeps it), the deck and the discard pile in
 * order, each seat's Novels in publish order, the supply and the scalars of Game. Publishes are
 * counted and decoded by counting.c (pk_count_plan, pk_decode_group), so R4-R8 stay written
 * there; the generators are the game's SplitMix64 (rng.GameRng) and, per seat, CPython's
 * Mersenne Twister as random.Random(seed).randrange draws.
 *
 * The rules' numbers (seats, deal sizes, keep size, End Flag threshold: R10, R12) are read from
 * the packed rules of layout.h (layout.packed_rules), once per game; none is written here.
 *
 * Ranges (beyond them a call is refused with OutOfRange and the Python rule answers):
 *   - the players the packed rules seat (R10), bot seeds of 0..2^64 - 1 (the game's seed is any integer, taken
 *     modulo 2^64 as rng.GameRng takes it);
 *   - a catalogue with a plan (feasibility.kernel_plan), at most 64 publishable Novels, each
 *     at a catalogue position below 255 with 0..255 copies and 0..10^6 points, the End Flag's
 *     points 0..10^6;
 *   - a game that ends within max_decisions decisions (else the Python rule raises
 *     DecisionLimitError), and counting.c's ranges (counts of legal moves within 64 bits).
 */
#include <string.h>

#include "game.h"

/* ---- CPython's random.Random: MT19937, seeded from an int, randrange(n) ------------------ */

void gm_twister_seed(GmTwister *t, uint64_t seed) {
    /* random.Random(seed): init_by_array over the 32-bit words of the seed, low first. */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int length = key[1] ? 2 : 1;
    uint32_t *mt = t->state;
    mt[0] = 19650218u;
    for (int i = 1; i < 624; i++) {
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    }
    int i = 1, j = 0;
    for (int k = 624; k; k--) { /* max(624, length) */
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= length) {
            j = 0;
        }
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    t->next = 624;
}

static uint32_t twister_word(GmTwister *t) {
    uint32_t *mt = t->state;
    if (t->next >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        t->next = 0;
    }
    uint32_t y = mt[t->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* getrandbits(k) for 1 <= k <= 64: 32-bit words, low first, the last one shifted. */
static uint64_t twister_bits(GmTwister *t, int k) {
    uint64_t out = 0;
    for (int shift = 0; k > 0; shift += 32, k -= 32) {
        uint32_t word = twister_word(t);
        if (k < 32) {
            word >>= 32 - k;
        }
        out |= (uint64_t)word << shift;
    }
    return out;
}

uint64_t gm_twister_below(GmTwister *t, uint64_t n) {
    /* _randbelow_with_getrandbits: k = n.bit_length() bits a try, until below n. */
    int k = 64 - __builtin_clzll(n);
    uint64_t r = twister_bits(t, k);
    while (r >= n) {
        r = twister_bits(t, k);
    }
    return r;
}

/* ---- the game's SplitMix64 (rng.GameRng) --------------------------------------------------- */

static uint64_t splitmix_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* home: R14; twin test: tests/kernels/test_game.py */
static void splitmix_shuffle(uint64_t *state, int *items, int size) {
    for (int i = size - 1; i > 0; i--) {
        uint64_t n = (uint64_t)i + 1, rest = (0 - n) % n; /* 2^64 mod n: the top values redrawn */
        uint64_t value = splitmix_next(state);
        while (value >= 0 - rest && rest) {
            value = splitmix_next(state);
        }
        int j = (int)(value % n);
        int swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

/* ---- the packed game ------------------------------------------------------------------------ */

int gm_read_catalogue(PyObject *module, GmGame *g, PyObject *plan, PyObject *positions,
                      PyObject *copies, PyObject *flag_points) {
    if (plan == Py_None) {
        pk_refuse(module, "a catalogue without a plan");
        return -1;
    }
    Py_buffer view;
    const int32_t *entries;
    Py_ssize_t novels;
    if (pk_plan(plan, &view, &entries, &novels) < 0) {
        return -1;
    }
    memcpy(g->plan, entries, sizeof(int32_t) * PK_PLAN_FIELDS * (size_t)novels);
    PyBuffer_Release(&view);
    g->novels = (int)novels;
    for (int novel = 0; novel < g->novels; novel++) {
        long points = g->plan[novel * PK_PLAN_FIELDS + 4];
        if (points < 0 || points > GM_MAX_POINTS) {
            pk_refuse(module, "a Novel's points");
            return -1;
        }
    }
    /* One per Novel of the plan: another count is a ValueError. */
    if (pk_read_ints(module, positions, g->novels, 0, 254, "a Novel's catalogue position",
                     PyExc_ValueError, g->position) < 0 ||
        pk_read_ints(module, copies, g->novels, 0, 255, "a Novel's copies", PyExc_ValueError,
                     g->copies) < 0) {
        return -1;
    }
    long points = PyLong_AsLong(flag_points);
    if (points == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (points < 0 || points > GM_MAX_POINTS) {
        pk_refuse(module, "the End Flag's points");
        return -1;
    }
    g->flag_points = points;
    return 0;
}

int gm_read_rules(PyObject *module, GmGame *g, PyObject *rules) {
    PyObject *seq = PySequence_Fast(rules, "the packed rules are a sequence of integers");
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != PK_RULES_SIZE) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected %d integers of packed rules", PK_RULES_SIZE);
        return -1;
    }
    long value[PK_RULES_SIZE];
    for (int i = 0; i < PK_RULES_SIZE; i++) {
        value[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (value[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    long low = value[PK_RULE_MIN_PLAYERS], high = value[PK_RULE_MAX_PLAYERS];
    long keep = value[PK_RULE_KEEP_SIZE], threshold = value[PK_RULE_END_THRESHOLD], dealt = 0;
    int bad = low < 1 || high < low || high > GM_MAX_SEATS || keep < 1 || threshold < 1 ||
              threshold > GM_MAX_POINTS;
    for (int seat = 0; seat < GM_MAX_SEATS && !bad; seat++) {
        long size = value[PK_RULE_DEAL_SIZES + seat];
        bad = seat < high ? size < keep || size > PK_CARDS : size != 0;
        dealt += size;
    }
    if (bad || dealt > PK_CARDS - 2) { /* a Write draws two cards (R11) */
        pk_refuse(module, "rules no game is played by");
        return -1;
    }
    g->min_players = (int)low;
    g->max_players = (int)high;
    g->keep_size = (int)keep;
    g->end_threshold = (int)threshold;
    for (int seat = 0; seat < GM_MAX_SEATS; seat++) {
        g->deals[seat] = (int)value[PK_RULE_DEAL_SIZES + seat];
    }
    return 0;
}

int gm_seats(const GmGame *g, long players) {
    return players >= g->min_players && players <= g->max_players;
}

/* The first seat from `seat` on that keeps at setup (R10: dealt more than it keeps), or -1. */
static int next_keeper(const GmGame *g, int seat) {
    for (; seat < g->players; seat++) {
        if (g->deals[seat] > g->keep_size) {
            return seat;
        }
    }
    return -1;
}

int gm_hand(const GmGame *g, int seat, int *out) {
    int size = 0;
    for (int card = 0; card < PK_CARDS; card++) {
        if (g->table[card] == (PK_HAND | seat)) {
            out[size++] = card;
        }
    }
    return size;
}

/* The Masterpiece points of a seat: its Novels of one card (R7, R13). */
static long seat_points(const GmGame *g, int seat) {
    long points = 0;
    for (int k = 0; k < g->held_count[seat]; k++) {
        int novel = g->held[seat][k];
        if (g->size[seat][novel] == 1) {
            points += g->plan[novel * PK_PLAN_FIELDS + 4];
        }
    }
    return points;
}

long gm_score(const GmGame *g, int seat) {
    return seat_points(g, seat) + (g->flag_seat == seat ? g->flag_points : 0);
}

int gm_masterpieces(const GmGame *g, int seat) {
    int count = 0;
    for (int k = 0; k < g->held_count[seat]; k++) {
        count += g->size[seat][g->held[seat][k]] == 1;
    }
    return count;
}

/* home: R13; twin test: tests/kernels/test_game.py */
int gm_winners(const GmGame *g, int *out) {
    /* R13: most points, then fewer Masterpieces; a remaining tie is shared. */
    int best = 0, count = 0;
    for (int seat = 1; seat < g->players; seat++) {
        long score = gm_score(g, seat), top = gm_score(g, best);
        if (score > top || (score == top && gm_masterpieces(g, seat) < gm_masterpieces(g, best))) {
            best = seat;
        }
    }
    for (int seat = 0; seat < g->players; seat++) {
        if (gm_score(g, seat) == gm_score(g, best) &&
            gm_masterpieces(g, seat) == gm_masterpieces(g, best)) {
            out[count++] = seat;
        }
    }
    return count;
}

/* home: R6.supply; twin test: tests/kernels/test_game.py */
void gm_usable(const GmGame *g, int seat, unsigned char *usable) {
    for (int novel = 0; novel < g->novels; novel++) {
        usable[novel] = g->supply[novel] > 0; /* R6: a copy left, none held */
    }
    for (int k = 0; k < g->held_count[seat]; k++) {
        usable[g->held[seat][k]] = 0;
    }
}

int gm_novel_at(const GmGame *g, int position) {
    for (int novel = 0; novel < g->novels; novel++) {
        if (g->position[novel] == position) {
            return novel;
        }
    }
    return -1;
}

/* home: R10.deal; twin test: tests/kernels/test_game.py */
void gm_deal(GmGame *g, int players, uint64_t seed) {
    g->players = players;
    g->rng = seed;
    memset(g->table, PK_UNSEEN, PK_CARDS);
    memset(g->table + PK_NOVEL_AT, PK_NO_NOVEL, PK_CARDS);
    for (int card = 0; card < PK_CARDS; card++) {
        g->deck[card] = card;
    }
    g->deck_size = PK_CARDS;
    splitmix_shuffle(&g->rng, g->deck, PK_CARDS);
    for (int seat = 0; seat < players; seat++) {
        for (int k = 0; k < g->deals[seat]; k++) {
            g->table[g->deck[--g->deck_size]] = (unsigned char)(PK_HAND | seat);
        }
        g->held_count[seat] = 0;
    }
    g->pile_size = 0;
    memcpy(g->supply, g->copies, sizeof(int) * (size_t)g->novels);
    int keeper = next_keeper(g, 0); /* R10: by the rulebook seat 2, seats 0 and 1 keep all */
    g->phase = keeper < 0 ? GM_ACTION : GM_KEEP_PHASE;
    g->to_move = keeper < 0 ? 0 : keeper;
    g->current = g->turn = g->passes = g->countdown = g->turns_left = 0;
    g->trigger = g->flag_seat = -1;
    g->end_reason = GM_NOT_OVER;
}

/* home: R11.draw; twin test: tests/kernels/test_game.py */
static int draw_one(GmGame *g) {
    if (!g->deck_size) { /* R11: the discard pile is reshuffled only when a draw needs a card */
        memcpy(g->deck, g->pile, sizeof(int) * (size_t)g->pile_size);
        g->deck_size = g->pile_size;
        g->pile_size = 0;
        for (int k = 0; k < g->deck_size; k++) {
            g->table[g->deck[k]] = PK_UNSEEN;
        }
        splitmix_shuffle(&g->rng, g->deck, g->deck_size);
    }
    return g->deck[--g->deck_size];
}

static void next_turn(GmGame *g) {
    g->current = (g->current + 1) % g->players;
    g->to_move = g->current;
    g->phase = GM_ACTION;
}

static void finish(GmGame *g, int reason) {
    g->phase = GM_OVER;
    g->end_reason = reason;
}

/* Game._end_turn: `changed` is the seat whose table the turn changed, or -1. */
/* home: R11.all-pass, R12; twin test: tests/kernels/test_game.py */
static void end_turn(GmGame *g, int passed, int changed) {
    g->turn++;
    g->passes = passed ? g->passes + 1 : 0;
    if (g->passes >= g->players) {
        finish(g, GM_ALL_PASS); /* R11 */
        return;
    }
    if (g->countdown) {
        if (--g->turns_left <= 0) {
            finish(g, GM_COUNTDOWN);
            return;
        }
    } else if (changed >= 0 && seat_points(g, changed) >= g->end_threshold) {
        g->trigger = changed; /* R12: 2n - 1 more turns */
        g->countdown = 1;
        g->turns_left = 2 * g->players - 1;
        int hand[PK_CARDS];
        if (gm_hand(g, changed, hand)) {
            g->phase = GM_FLAG;
            g->to_move = changed;
            return;
        }
        /* R12: with no card the flag is lost */
    }
    next_turn(g);
}

static void record_start(const GmGame *g, int kind, GmRecord *r) {
    r->seat = g->to_move;
    r->kind = kind;
    r->card = r->taken = r->taken_from = -1;
    r->played_count = r->gift_count = 0;
}

/* The card `card` of the pile taken into the hand of the seat to move, as the record says. */
static void take_from_pile(GmGame *g, int card, GmRecord *r) {
    unsigned char place = g->table[card];
    r->taken = card;
    r->taken_from = (place & PK_PLACE_MASK) == PK_PILE_DOWN ? place & PK_SEAT_MASK : -1;
    g->table[card] = (unsigned char)(PK_HAND | g->to_move);
}

/* home: R15; twin test: tests/kernels/test_game.py */
void gm_keep(GmGame *g, const int *dropped, int count, GmRecord *r) {
    int player = g->to_move;
    record_start(g, GM_MOVE_KEEP, r);
    for (int k = 0; k < count; k++) { /* R10, R15: face down, the last on top */
        g->pile[g->pile_size++] = dropped[k];
        g->table[dropped[k]] = (unsigned char)(PK_PILE_DOWN | player);
    }
    int keeper = next_keeper(g, player + 1);
    if (keeper >= 0) {
        g->to_move = keeper;
    } else {
        g->phase = GM_ACTION;
        g->current = g->to_move = 0;
    }
}

void gm_draw(GmGame *g, GmRecord *r) {
    int player = g->to_move;
    record_start(g, GM_MOVE_DRAW, r);
    if (g->deck_size + g->pile_size == 1) { /* R11: one card left in all: just take it */
        if (g->deck_size) {
            g->table[draw_one(g)] = (unsigned char)(PK_HAND | player);
        } else {
            take_from_pile(g, g->pile[--g->pile_size], r);
        }
        end_turn(g, 0, -1);
        return;
    }
    g->pending[0] = draw_one(g);
    g->pending[1] = draw_one(g); /* R11: reshuffled mid-draw if need be */
    g->table[g->pending[0]] = g->table[g->pending[1]] = PK_DRAWN;
    g->phase = GM_CHOOSE;
}

void gm_choose(GmGame *g, int card, GmRecord *r) {
    int other = g->pending[0] == card ? g->pending[1] : g->pending[0];
    record_start(g, GM_MOVE_CHOOSE, r);
    r->card = card;
    g->table[card] = (unsigned char)(PK_HAND | g->to_move);
    g->pile[g->pile_size++] = other;
    g->table[other] = PK_PILE_UP;
    end_turn(g, 0, -1);
}

void gm_take(GmGame *g, GmRecord *r) {
    record_start(g, GM_MOVE_TAKE, r);
    take_from_pile(g, g->pile[--g->pile_size], r);
    end_turn(g, 0, -1);
}

void gm_read(GmGame *g, int card, GmRecord *r) {
    int owner = g->table[card] & PK_SEAT_MASK, at = g->table[PK_NOVEL_AT + card];
    int novel = gm_novel_at(g, at);
    record_start(g, GM_MOVE_READ, r);
    r->card = card;
    g->table[card] = (unsigned char)(PK_HAND | g->to_move);
    g->table[PK_NOVEL_AT + card] = PK_NO_NOVEL;
    if (--g->size[owner][novel] == 1) { /* R11: one card left: a Masterpiece */
        for (int last = 0; last < PK_CARDS; last++) {
            if (g->table[last] == (PK_PUBLISHED | owner) && g->table[PK_NOVEL_AT + last] == at) {
                g->table[last] = (unsigned char)(PK_MASTER | owner);
            }
        }
    }
    end_turn(g, 0, owner);
}

/* home: R7, R5.gifts; twin test: tests/kernels/test_game.py */
void gm_publish(GmGame *g, int novel, const PkPick *pick, GmRecord *r) {
    int player = g->to_move;
    record_start(g, GM_MOVE_PUBLISH, r);
    unsigned char place =
        (unsigned char)((pick->played_count == 1 ? PK_MASTER : PK_PUBLISHED) | player); /* R7 */
    for (int k = 0; k < pick->played_count; k++) {
        int card = pick->played[k];
        g->table[card] = place;
        g->table[PK_NOVEL_AT + card] = (unsigned char)g->position[novel];
        r->played[r->played_count++] = card;
    }
    for (int k = 0; k < pick->gift_count; k++) { /* R5 */
        int card = pick->gift_card[k], to = pick->gift_owner[k];
        g->table[card] = (unsigned char)(PK_HAND | to);
        r->gift_owner[r->gift_count] = to;
        r->gift_card[r->gift_count++] = card;
    }
    g->held[player][g->held_count[player]++] = novel;
    g->size[player][novel] = pick->played_count;
    g->supply[novel]--;
    end_turn(g, 0, player);
}

void gm_flag(GmGame *g, int card, GmRecord *r) {
    record_start(g, GM_MOVE_FLAG, r);
    r->card = card;
    g->table[card] = (unsigned char)(PK_FLAG | g->to_move); /* R12 */
    g->flag_seat = g->to_move;
    g->flag_card = card;
    next_turn(g);
}

void gm_pass(GmGame *g, GmRecord *r) {
    record_start(g, GM_MOVE_PASS, r);
    end_turn(g, 1, -1);
}

/* ---- the legal moves: Game._segments, counted and indexed -------------------------------- */

static int keep_segment(void *data, int novel, const int *ranks, const int *needs, int width,
                        uint64_t count) {
    GmSegments *list = data;
    if (list->size == list->room) {
        Py_ssize_t room = list->room ? 2 * list->room : 16;
        GmSegment *items = PyMem_Realloc(list->items, sizeof(GmSegment) * (size_t)room);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        list->items = items;
        list->room = room;
    }
    GmSegment *segment = &list->items[list->size++];
    segment->novel = novel;
    segment->width = width;
    memcpy(segment->ranks, ranks, sizeof(int) * (size_t)width);
    memcpy(segment->needs, needs, sizeof(int) * (size_t)width);
    segment->count = count;
    list->total = pk_add(list->total, count, &list->overflow);
    return 0;
}

static uint64_t factorial(int n) {
    uint64_t out = 1;
    for (int k = 2; k <= n; k++) {
        out *= (uint64_t)k;
    }
    return out;
}

/* The Reads of every Published novel (R11): owner by owner, Novels in publish order, cards
 * ascending (movegen.ReadSegment). */
/* home: R11.reads; twin test: tests/kernels/test_game.py */
static uint64_t count_reads(const GmGame *g) {
    uint64_t reads = 0;
    for (int owner = 0; owner < g->players; owner++) {
        for (int k = 0; k < g->held_count[owner]; k++) {
            int size = g->size[owner][g->held[owner][k]];
            reads += size >= 2 ? (uint64_t)size : 0;
        }
    }
    return reads;
}

/* home: R11.turn; twin test: tests/kernels/test_game.py */
uint64_t gm_count(PyObject *module, const GmGame *g, GmSegments *publishes, uint64_t *writes,
                  uint64_t *reads) {
    PkState *st = pk_state(module);
    int hand[PK_CARDS], hand_size = gm_hand(g, g->to_move, hand), overflow = 0;
    uint64_t total = 0;
    publishes->size = 0;
    publishes->total = 0;
    publishes->overflow = 0;
    *writes = *reads = 0;
    switch (g->phase) {
    case GM_KEEP_PHASE: {
        int dropped = hand_size - g->keep_size; /* R15: two or more discards in every order */
        total = pk_mul(pk_binom(st, hand_size, g->keep_size, &overflow),
                       dropped >= 2 ? factorial(dropped) : 1, &overflow);
        break;
    }
    case GM_CHOOSE:
        total = 2;
        break;
    case GM_FLAG:
        total = (uint64_t)hand_size;
        break;
    case GM_ACTION:
        *writes = (uint64_t)((g->deck_size || g->pile_size) + (g->pile_size > 0));
        *reads = count_reads(g);
        if (hand_size) {
            unsigned char usable[PK_MAX_NOVELS];
            gm_usable(g, g->to_move, usable);
            if (pk_count_plan(module, g->table, g->to_move, usable, g->plan, g->novels, 0, 0,
                              keep_segment, publishes) < 0) {
                return 0;
            }
        }
        total = pk_add(*writes + *reads + (!*writes && !*reads), publishes->total, &overflow);
        overflow |= publishes->overflow; /* (the third term: a pass, with no write or read) */
        break;
    default:
        return 0;
    }
    if (overflow) {
        pk_refuse(module, "more legal moves than 2^64 - 1");
        return 0;
    }
    return total;
}

static void play_keep(GmGame *g, PkState *st, uint64_t index, GmRecord *r) {
    int hand[PK_CARDS], n = gm_hand(g, g->to_move, hand), unused = 0;
    int keep = g->keep_size, size = n - keep;
    uint64_t orders = size >= 2 ? factorial(size) : 1;
    uint64_t combination = index / orders, order = index % orders;
    int kept[PK_CARDS] = {0}; /* movegen.unrank_combination over the sorted hand */
    for (int slot = 0, start = 0; slot < keep; slot++) {
        for (int i = start; i < n; i++) {
            uint64_t block = pk_binom(st, n - i - 1, keep - slot - 1, &unused);
            if (combination < block) {
                kept[i] = 1;
                start = i + 1;
                break;
            }
            combination -= block;
        }
    }
    int dropped[PK_CARDS], ordered[PK_CARDS];
    for (int i = 0, k = 0; i < n; i++) {
        if (!kept[i]) {
            dropped[k++] = hand[i];
        }
    }
    /* R15: two or more discards in a chosen order (itertools.permutations order). */
    for (int left = size - 1, k = 0; left >= 0; left--, k++) {
        uint64_t block = factorial(left);
        int place = (int)(order / block);
        order %= block;
        ordered[k] = dropped[place];
        memmove(dropped + place, dropped + place + 1, sizeof(int) * (size_t)(left - place));
    }
    gm_keep(g, ordered, size, r);
}

static void play_read(GmGame *g, uint64_t index, GmRecord *r) {
    for (int owner = 0; owner < g->players; owner++) {
        for (int k = 0; k < g->held_count[owner]; k++) {
            int novel = g->held[owner][k], size = g->size[owner][novel];
            if (size < 2) {
                continue;
            }
            if (index >= (uint64_t)size) {
                index -= (uint64_t)size;
                continue;
            }
            for (int card = 0; card < PK_CARDS; card++) { /* the index-th card, ascending */
                if (g->table[card] == (PK_PUBLISHED | owner) &&
                    g->table[PK_NOVEL_AT + card] == g->position[novel] && index-- == 0) {
                    gm_read(g, card, r);
                    return;
                }
            }
        }
    }
}

static int play_publish(PyObject *module, GmGame *g, const GmSegments *publishes, uint64_t index,
                        GmRecord *r) {
    for (Py_ssize_t s = 0; s < publishes->size; s++) {
        const GmSegment *segment = &publishes->items[s];
        if (index >= segment->count) {
            index -= segment->count;
            continue;
        }
        PkPick pick;
        if (pk_decode_group(module, g->table, g->to_move, segment->ranks, segment->needs,
                            segment->width, index, &pick) < 0) {
            return -1;
        }
        gm_publish(g, segment->novel, &pick, r);
        return 0;
    }
    PyErr_SetString(PyExc_AssertionError, "a publish index beyond the count");
    return -1;
}

int gm_play_index(PyObject *module, GmGame *g, const GmSegments *publishes, uint64_t writes,
                  uint64_t reads, uint64_t index, GmRecord *r) {
    switch (g->phase) {
    case GM_KEEP_PHASE:
        play_keep(g, pk_state(module), index, r);
        return 0;
    case GM_CHOOSE:
        gm_choose(g, g->pending[index], r);
        return 0;
    case GM_FLAG: {
        int hand[PK_CARDS];
        gm_hand(g, g->to_move, hand);
        gm_flag(g, hand[index], r);
        return 0;
    }
    default:
        break;
    }
    /* The action phase: the writes, the reads, the publishes, then a pass. */
    if (index < writes) {
        if (index == 0 && (g->deck_size || g->pile_size)) {
            gm_draw(g, r); /* Write 1 (R11) */
        } else {
            gm_take(g, r); /* Write 2: the discard pile's top */
        }
        return 0;
    }
    index -= writes;
    if (index < reads) {
        play_read(g, index, r);
        return 0;
    }
    index -= reads;
    if (index < publishes->total) {
        return play_publish(module, g, publishes, index, r);
    }
    gm_pass(g, r);
    return 0;
}

/* ---- random_game --------------------------------------------------------------------------- */

int gm_read_seed(PyObject *module, PyObject *source, uint64_t *out) {
    if (!PyLong_Check(source)) {
        PyErr_SetString(PyExc_TypeError, "a seed is an integer");
        return -1;
    }
    uint64_t value = PyLong_AsUnsignedLongLong(source);
    if (value == (uint64_t)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();
        pk_refuse(module, "a seed outside 0..2^64 - 1");
        return -1;
    }
    *out = value;
    return 0;
}

/* The result of a finished game: (turns, decisions, scores, masterpieces, winners, reason). */
static PyObject *game_result(const GmGame *g, long decisions) {
    int scores[GM_MAX_SEATS], masterpieces[GM_MAX_SEATS], winners[GM_MAX_SEATS];
    int count = gm_winners(g, winners);
    for (int seat = 0; seat < g->players; seat++) {
        scores[seat] = (int)gm_score(g, seat); /* points within 64 x 10^6 (the ranges) */
        masterpieces[seat] = gm_masterpieces(g, seat);
    }
    return Py_BuildValue("(llNNNs)", (long)g->turn, decisions, pk_int_tuple(scores, g->players),
                         pk_int_tuple(masterpieces, g->players), pk_int_tuple(winners, count),
                         g->end_reason == GM_COUNTDOWN ? "countdown" : "all-pass");
}

/* random_game(catalogue, plan, positions, copies, flag_points, rules, packed_rules, players, seed,
 * bot_seeds, max_decisions, trace): bots._random_game_py. `catalogue` and `rules` are the Python
 * rule's; the twin reads only the packed arguments. With `trace`, the result is paired with a tuple of every
 * decision's (count of legal moves, index drawn). */
static PyObject *random_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "random_game takes 12 arguments");
        return NULL;
    }
    GmGame *g = PyMem_Calloc(1, sizeof(GmGame));
    GmTwister *bots = PyMem_Calloc(GM_MAX_SEATS, sizeof(GmTwister));
    GmSegments publishes = {0};
    PyObject *result = NULL, *trace = NULL, *seeds = NULL;
    if (g == NULL || bots == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    if (gm_read_catalogue(module, g, args[1], args[2], args[3], args[4]) < 0 ||
        gm_read_rules(module, g, args[6]) < 0) {
        goto out;
    }
    long players = PyLong_AsLong(args[7]), max_decisions = PyLong_AsLong(args[10]);
    if (!PyErr_Occurred() && !PyLong_Check(args[8])) {
        PyErr_SetString(PyExc_TypeError, "a seed is an integer");
    }
    uint64_t seed = PyErr_Occurred() ? 0 : PyLong_AsUnsignedLongLongMask(args[8]); /* GameRng's */
    if (PyErr_Occurred()) {
        goto out;
    }
    if (!gm_seats(g, players)) {
        pk_refuse(module, "players beyond the rules' seats");
        goto out;
    }
    seeds = PySequence_Fast(args[9], "the bot seeds are a sequence");
    if (seeds == NULL) {
        goto out;
    }
    if (PySequence_Fast_GET_SIZE(seeds) != players) {
        PyErr_SetString(PyExc_ValueError, "one bot seed per seat");
        goto out;
    }
    for (int seat = 0; seat < players; seat++) {
        uint64_t bot_seed;
        if (gm_read_seed(module, PySequence_Fast_GET_ITEM(seeds, seat), &bot_seed) < 0) {
            goto out;
        }
        gm_twister_seed(&bots[seat], bot_seed);
    }
    int tracing = PyObject_IsTrue(args[11]);
    if (tracing < 0 || (tracing && (trace = PyList_New(0)) == NULL)) {
        goto out;
    }
    gm_deal(g, (int)players, seed);
    long decisions = 0;
    GmRecord record;
    while (g->phase != GM_OVER) {
        if (decisions >= max_decisions) {
            pk_refuse(module, "a game longer than max_decisions"); /* the rule raises */
            goto out;
        }
        uint64_t writes, reads, count = gm_count(module, g, &publishes, &writes, &reads);
        if (count == 0) {
            goto out; /* a refusal: no position of a game is without a move */
        }
        uint64_t index = gm_twister_below(&bots[g->to_move], count);
        if (trace != NULL) {
            PyObject *pair = Py_BuildValue("(KK)", (unsigned long long)count,
                                           (unsigned long long)index);
            if (pair == NULL || PyList_Append(trace, pair) < 0) {
                Py_XDECREF(pair);
                goto out;
            }
            Py_DECREF(pair);
        }
        if (gm_play_index(module, g, &publishes, writes, reads, index, &record) < 0) {
            goto out;
        }
        decisions++;
    }
    result = game_result(g, decisions);
    if (result != NULL && trace != NULL) {
        PyObject *traced = PyList_AsTuple(trace);
        PyObject *both = traced == NULL ? NULL : PyTuple_Pack(2, result, traced);
        Py_XDECREF(traced);
        Py_SETREF(result, both);
    }
out:
    Py_XDECREF(seeds);
    Py_XDECREF(trace);
    PyMem_Free(publishes.items);
    PyMem_Free(bots);
    PyMem_Free(g);
    return result;
}

PyMethodDef pk_game_methods[] = {
    {"random_game", (PyCFunction)(void (*)(void))random_game, METH_FASTCALL,
     "random_game(catalogue, plan, positions, copies, flag_points, rules, packed_rules, players, "
     "seed, bot_seeds, max_decisions, trace): bots._random_game_py."},
    {NULL, NULL, 0, NULL},
};
