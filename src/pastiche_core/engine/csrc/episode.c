/*
 * The episodes kernel: the games of the vector environment played in C, the twin of
 * pastiche_core.rl.vector._PythonEpisodes (one rl.single.Episode per game: game.Game, the
 * learner's MoveBuilder and Knowledge, the other seats' RandomBots, the observation encoder).
 *
 * episodes(settings, count, plan, positions, copies, flag_points, rules, players, packed, fields,
 *          size, building, slots, actions) makes an object holding `count` games; `settings` is the
 * Python twin's, read only by it. Its methods are the twin's:
 *
 *   deal(index, seed, seat, opponent_seeds, raw)   game `index` dealt anew (Game(players, seed),
 *       the learner at `seat`, RandomBot(opponent_seeds[s]) at the other seats s), played to the
 *       learner's first decision; its observation written into raw[index]
 *   first_illegal(actions)   the first game not over whose action (an index, -1 for none) is not
 *       legal, with (its learner's seat, its phase, its stage), or None
 *   step(actions, skip, raw, rewards, terminations, penalty)   one atomic action of the learner
 *       in every game not over and not in `skip`: the rewards and terminations written, the
 *       observations of the games stepped written into raw; an illegal action ends its game
 *       with reward -1 (the observation left as it was) and its index is listed in the answer
 *   write_masks(masks)   every game's legal actions (all False once over)
 *   over(index), moves(index)
 *   state(index)   game `index`'s state: the generator, the deck and the pile in order, the
 *       face-down cards, the hands, each seat's Novels (plan index, cards) in publish order, the
 *       supply, the End Flag, the phase (observation order), the seats to move and whose turn,
 *       the cards drawn, the turn, the passes, the trigger, the turns left, the ending (0, 1
 *       countdown, 2 all-pass)
 *
 * The game is game.h's; the builder is MoveBuilder's (masks.h computes what a publish in
 * progress may still take, R4, R5, R8); the knowledge is Knowledge's holders (the cards known
 * to lie in another seat's hand, R16); the observation is observe.h's fill_public with the
 * decision in progress written after it (ObservationEncoder.encode).
 *
 * The rules' numbers come packed (`rules`, layout.packed_rules), as game.c reads them.
 *
 * Ranges (a refusal at construction, and the Python twin plays): game.c's, the other seats all
 * RandomBots (`packed`; a rendering is made from the packed state), an observation layout that
 * pk_obs_layout accepts, at most 2^20 games. During a step, a random bot's count of legal moves beyond 2^64 - 1
 * (counting.c's range; the largest measured is near 2^33) raises OutOfRange from the call.
 */
#include <string.h>

#include "game.h"
#include "masks.h"
#include "observe.h"

#define EP_MAX_GAMES (1 << 20)
/* The atomic actions (rl.encoding.ActionSpace). */
#define EP_DRAW 0
#define EP_TAKE 1
#define EP_PASS 2
#define EP_CONFIRM 3
#define EP_BLOCKS 4 /* the first card block's action: discard card 0 */
enum { EP_DISCARD, EP_CHOOSE, EP_FLAG, EP_READ, EP_PLAY, EP_CITE, EP_GIFT, EP_BLOCK_COUNT };
#define EP_NOVEL_BASE (EP_BLOCKS + EP_BLOCK_COUNT * PK_CARDS)
#define EP_BASE(block) (EP_BLOCKS + (block) * PK_CARDS)
#define EP_MAX_ACTIONS (EP_NOVEL_BASE + PK_MAX_NOVELS)
/* The builder's stages (rl.encoding.Stage). */
enum { EP_START, EP_DISCARDING, EP_CARDS, EP_GIFTS };
/* The decision in progress in the observation (ObservationEncoder._building). */
enum { B_STAGE, B_PLAYED, B_CITED, B_GIFTS, B_DISCARDS, B_NOVEL, B_OWED, B_FIELDS };

typedef struct {
    GmGame g;
    GmTwister bots[GM_MAX_SEATS];
    int seat, over;
    long moves;
    signed char holders[PK_CARDS]; /* Knowledge.holders: the seat known to hold a card, or -1 */
    /* MoveBuilder */
    int stage, novel;
    MkPartial partial;
    int played[PK_CARDS], cited[PK_CARDS], cited_count, discards[PK_CARDS], discard_count;
    int owed[PK_CARDS], owed_count; /* the owner of each gift owed, in the order asked (R5) */
    int gift_owner[PK_CARDS], gift_card[PK_CARDS], gift_count;
    /* The legal actions now, kept until the episode changes (masked: whether they are). */
    char mask[EP_MAX_ACTIONS];
    int masked;
} Episode;

typedef struct {
    PyObject_HEAD
    PyObject *module;
    Episode *games;
    Py_ssize_t count, size, actions;
    int32_t fields[2 * PK_OBS_FIELDS];
    long building[B_FIELDS];
    unsigned char slots[256];
    Py_ssize_t positions;
    GmGame catalogue; /* the packed catalogue every game is dealt with */
} Episodes;

/* ---- the knowledge: Knowledge._follow for the holders ------------------------------------ */

/* home: R16.knowledge; twin test: tests/kernels/test_episodes.py */
static void follow(Episode *e, const GmRecord *r) {
    int me = e->seat, seat = r->seat;
    signed char *holders = e->holders;
    if (r->taken >= 0 && (r->taken_from < 0 || r->taken_from == me || seat == me)) {
        holders[r->taken] = (signed char)(seat == me ? -1 : seat); /* R10, R11 */
    }
    switch (r->kind) {
    case GM_MOVE_PUBLISH: {
        int hidden = 0;
        for (int k = 0; k < r->played_count; k++) {
            holders[r->played[k]] = -1; /* on the table now (R4) */
        }
        for (int k = 0; k < r->gift_count; k++) {
            int to = r->gift_owner[k];
            if (seat == me || to == me) {
                holders[r->gift_card[k]] = (signed char)(to == me ? -1 : to);
            } else {
                hidden = 1; /* a gift between two other seats (R16) */
            }
        }
        if (hidden) { /* R5: any card of the giver's hand may have gone */
            for (int card = 0; card < PK_CARDS; card++) {
                if (holders[card] == seat) {
                    holders[card] = -1;
                }
            }
        }
        break;
    }
    case GM_MOVE_READ:
        holders[r->card] = (signed char)(seat == me ? -1 : seat);
        break;
    case GM_MOVE_FLAG:
        holders[r->card] = -1; /* under the End Flag, face up (R12) */
        break;
    default:
        break;
    }
}

/* ---- the builder ------------------------------------------------------------------------- */

static void builder_start(Episode *e) {
    e->stage = EP_START;
    e->novel = -1;
    memset(&e->partial, 0, sizeof e->partial);
    e->partial.last_card = -1;
    e->cited_count = e->discard_count = e->owed_count = e->gift_count = 0;
}

/* The learner's card table (layout.viewer_table): other hands and face-down cards hidden, the
 * drawn cards shown only to the seat choosing between them (R16). */
/* home: R16.cards; twin test: tests/kernels/test_episodes.py */
static void viewer_table(const GmGame *g, int me, unsigned char *out) {
    int drawn = g->phase == GM_CHOOSE && g->to_move == me;
    memcpy(out, g->table, PK_CARD_TABLE_SIZE);
    for (int card = 0; card < PK_CARDS; card++) {
        int code = out[card], place = code & PK_PLACE_MASK;
        if (((place == PK_HAND || place == PK_PILE_DOWN) && (code & PK_SEAT_MASK) != me) ||
            (code == PK_DRAWN && !drawn)) {
            out[card] = PK_UNSEEN;
        }
    }
}

/* The legal actions of the learner's decision, as a byte per action. 0, or -1 with an
 * exception (counting.c's refusals, no memory). */
/* home: R11.turn; twin test: tests/kernels/test_episodes.py */
static int compute_mask(PyObject *module, const Episode *e, Py_ssize_t actions, char *mask) {
    const GmGame *g = &e->g;
    int me = e->seat, hand[PK_CARDS], hand_size = gm_hand(g, me, hand);
    memset(mask, 0, (size_t)actions);
    if (e->over) {
        return 0;
    }
    switch (g->phase) {
    case GM_KEEP_PHASE:
        for (int k = 0; k < hand_size; k++) { /* R15: the discards in the order made */
            int chosen = 0;
            for (int d = 0; d < e->discard_count; d++) {
                chosen |= e->discards[d] == hand[k];
            }
            mask[EP_BASE(EP_DISCARD) + hand[k]] = (char)!chosen;
        }
        return 0;
    case GM_CHOOSE:
        mask[EP_BASE(EP_CHOOSE) + g->pending[0]] = mask[EP_BASE(EP_CHOOSE) + g->pending[1]] = 1;
        return 0;
    case GM_FLAG:
        for (int k = 0; k < hand_size; k++) {
            mask[EP_BASE(EP_FLAG) + hand[k]] = 1;
        }
        return 0;
    case GM_ACTION:
        break;
    default:
        return 0;
    }
    unsigned char table[PK_CARD_TABLE_SIZE], usable[PK_MAX_NOVELS];
    viewer_table(g, me, table);
    if (e->stage == EP_START) {
        int can_write = g->deck_size || g->pile_size, reads = 0, novels[PK_MAX_NOVELS];
        mask[EP_DRAW] = (char)can_write;
        mask[EP_TAKE] = (char)(g->pile_size > 0);
        for (int card = 0; card < PK_CARDS; card++) {
            if ((table[card] & PK_PLACE_MASK) == PK_PUBLISHED) { /* R11 */
                mask[EP_BASE(EP_READ) + card] = 1;
                reads = 1;
            }
        }
        mask[EP_PASS] = (char)(!can_write && !reads);
        gm_usable(g, me, usable);
        int found = pk_start_novels(module, table, me, usable, g->plan, g->novels, novels);
        if (found < 0) {
            return -1;
        }
        for (int k = 0; k < found; k++) {
            mask[EP_NOVEL_BASE + novels[k]] = 1;
        }
        return 0;
    }
    if (e->stage == EP_CARDS) {
        /* The Novel's rank multisets still open: those a publish start lists that the cards
         * chosen so far can still complete (MoveBuilder keeps them filtered card by card; a
         * multiset the last partial publish can complete its earlier ones could too). */
        MkTable t;
        pk_mask_table(table, me, &t);
        memset(usable, 0, sizeof usable);
        usable[e->novel] = 1;
        unsigned char *combos = NULL;
        Py_ssize_t count = 0, room = 0, open = 0;
        if (pk_publish_combos(module, table, me, usable, g->plan, g->novels, &combos, &count,
                              &room) < 0) {
            PyMem_Free(combos);
            return -1;
        }
        int chosen = e->partial.played || e->partial.last_rank;
        for (Py_ssize_t k = 0; k < count; k++) {
            const unsigned char *combo = combos + k * PK_RANKS;
            if (!chosen || pk_combo_feasible(&t, &e->partial, combo)) {
                memmove(combos + open++ * PK_RANKS, combo, PK_RANKS);
            }
        }
        char plays[PK_CARDS], cites[PK_CARDS];
        int confirm;
        pk_cards_choices(&t, &e->partial, combos, open, plays, cites, &confirm);
        PyMem_Free(combos);
        mask[EP_CONFIRM] = (char)confirm;
        for (int card = 0; card < PK_CARDS; card++) {
            mask[EP_BASE(EP_PLAY) + card] = plays[card];
            mask[EP_BASE(EP_CITE) + card] = cites[card];
        }
        return 0;
    }
    /* EP_GIFTS: MoveBuilder._gifts_mask, one owner's gifts in ascending card order. */
    int available[PK_CARDS], size = 0;
    for (int k = 0; k < hand_size; k++) {
        int used = 0;
        for (int p = 0; p < e->partial.played; p++) {
            used |= e->played[p] == hand[k];
        }
        for (int p = 0; p < e->gift_count; p++) {
            used |= e->gift_card[p] == hand[k];
        }
        if (!used) {
            available[size++] = hand[k];
        }
    }
    int given = e->gift_count, owner = e->owed[given], owner_left = 1;
    while (given + owner_left < e->owed_count && e->owed[given + owner_left] == owner) {
        owner_left++;
    }
    int later = e->owed_count - given - owner_left, previous = -1;
    if (given && e->gift_owner[given - 1] == owner) {
        previous = e->gift_card[given - 1];
    }
    for (int position = 0; position < size; position++) {
        int above = size - position - 1;
        if (available[position] > previous && above >= owner_left - 1 &&
            size - 1 >= owner_left - 1 + later) {
            mask[EP_BASE(EP_GIFT) + available[position]] = 1;
        }
    }
    return 0;
}

/* The legal actions now (computed once per change of the episode), or NULL with an exception. */
static const char *legal_mask(PyObject *module, Episode *e, Py_ssize_t actions) {
    if (!e->masked) {
        if (compute_mask(module, e, actions, e->mask) < 0) {
            return NULL;
        }
        e->masked = 1;
    }
    return e->mask;
}

/* ---- playing ------------------------------------------------------------------------------ */

/* The other seats' moves until the learner's decision or the end (rl.opponents.play_until),
 * the knowledge following each. 0, or -1 with an exception. */
static int play_until(PyObject *module, Episode *e) {
    GmGame *g = &e->g;
    GmSegments publishes = {0};
    GmRecord record;
    int status = 0;
    while (g->phase != GM_OVER && g->to_move != e->seat) {
        uint64_t writes, reads, count = gm_count(module, g, &publishes, &writes, &reads);
        if (count == 0) {
            status = -1;
            break;
        }
        uint64_t index = gm_twister_below(&e->bots[g->to_move], count);
        if (gm_play_index(module, g, &publishes, writes, reads, index, &record) < 0) {
            status = -1;
            break;
        }
        follow(e, &record);
        e->moves++;
    }
    PyMem_Free(publishes.items);
    if (status < 0 && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_AssertionError, "a position without a legal move");
    }
    return status;
}

/* The learner's move is made: the knowledge follows it, the other seats play, the next
 * decision starts (or the episode ends). */
static int moved(PyObject *module, Episode *e, const GmRecord *record) {
    follow(e, record);
    e->moves++;
    builder_start(e);
    if (play_until(module, e) < 0) {
        return -1;
    }
    e->over = e->g.phase == GM_OVER;
    return 0;
}

static int ascending(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int publish(PyObject *module, Episode *e) {
    PkPick pick;
    pick.played_count = (int)e->partial.played;
    memcpy(pick.played, e->played, sizeof(int) * (size_t)pick.played_count);
    qsort(pick.played, (size_t)pick.played_count, sizeof(int), ascending);
    /* The gifts are asked owner by owner ascending, each owner's cards ascending (the gift
     * mask), so they are in Publish's order already. */
    pick.gift_count = e->gift_count;
    pick.cited_count = 0;
    memcpy(pick.gift_owner, e->gift_owner, sizeof(int) * (size_t)e->gift_count);
    memcpy(pick.gift_card, e->gift_card, sizeof(int) * (size_t)e->gift_count);
    GmRecord record;
    gm_publish(&e->g, e->novel, &pick, &record);
    return moved(module, e, &record);
}

/* MoveBuilder.push of a legal action. 0, or -1 with an exception. */
static int push(PyObject *module, Episode *e, int action) {
    GmGame *g = &e->g;
    GmRecord record;
    e->masked = 0;
    int block = (action - EP_BLOCKS) / PK_CARDS, card = (action - EP_BLOCKS) % PK_CARDS;
    switch (action < EP_BLOCKS ? -1 - action : action >= EP_NOVEL_BASE ? -9 : block) {
    case -1 - EP_DRAW:
        gm_draw(g, &record);
        break;
    case -1 - EP_TAKE:
        gm_take(g, &record);
        break;
    case -1 - EP_PASS:
        gm_pass(g, &record);
        break;
    case -1 - EP_CONFIRM: { /* the gifts owed, owner by owner ascending (R5) */
        int per_owner[GM_MAX_SEATS] = {0};
        for (int k = 0; k < e->cited_count; k++) {
            int owner = g->table[e->cited[k]] & PK_SEAT_MASK;
            per_owner[owner] += owner != e->seat;
        }
        e->owed_count = 0;
        for (int owner = 0; owner < g->players; owner++) {
            for (int k = 0; k < per_owner[owner]; k++) {
                e->owed[e->owed_count++] = owner;
            }
        }
        if (e->owed_count) {
            e->stage = EP_GIFTS;
            return 0;
        }
        return publish(module, e);
    }
    case -9:
        e->stage = EP_CARDS;
        e->novel = action - EP_NOVEL_BASE;
        return 0;
    case EP_DISCARD: {
        int hand[PK_CARDS], hand_size = gm_hand(g, e->seat, hand);
        e->discards[e->discard_count++] = card;
        e->stage = EP_DISCARDING;
        if (hand_size - e->discard_count > g->keep_size) {
            return 0;
        }
        gm_keep(g, e->discards, e->discard_count, &record); /* one discard: no order (R15) */
        break;
    }
    case EP_CHOOSE:
        gm_choose(g, card, &record);
        break;
    case EP_FLAG:
        gm_flag(g, card, &record);
        break;
    case EP_READ:
        gm_read(g, card, &record);
        break;
    case EP_PLAY:
    case EP_CITE: {
        MkPartial *p = &e->partial;
        int rank = PK_RANK_OF(card);
        p->chosen[rank]++;
        p->last_rank = rank;
        p->last_kind = block == EP_PLAY ? MK_PLAY : MK_CITE;
        p->last_card = card;
        if (block == EP_PLAY) {
            e->played[p->played++] = card;
        } else {
            e->cited[e->cited_count++] = card;
            p->owed += (g->table[card] & PK_SEAT_MASK) != e->seat; /* R5: owed to its owner */
        }
        return 0;
    }
    default: /* EP_GIFT */
        e->gift_owner[e->gift_count] = e->owed[e->gift_count];
        e->gift_card[e->gift_count] = card;
        e->gift_count++;
        if (e->gift_count < e->owed_count) {
            return 0;
        }
        return publish(module, e);
    }
    return moved(module, e, &record);
}

/* ---- the observation: ObservationEncoder.encode ----------------------------------------- */

static int observe(const Episodes *self, const Episode *e, float *out) {
    const GmGame *g = &e->g;
    int me = e->seat, n = g->players, k = g->novels;
    unsigned char table[PK_CARD_TABLE_SIZE], known[PK_CARDS];
    long supply[PK_MAX_NOVELS], sizes[GM_MAX_SEATS], scores[GM_MAX_SEATS], state[PK_OBS_STATE];
    int hand[PK_CARDS];
    viewer_table(g, me, table);
    for (int card = 0; card < PK_CARDS; card++) {
        int holder = e->holders[card];
        known[card] = holder < 0 ? PK_UNSEEN : (unsigned char)(PK_HAND | holder);
    }
    for (int novel = 0; novel < k; novel++) {
        supply[novel] = g->supply[novel];
    }
    for (int seat = 0; seat < n; seat++) {
        sizes[seat] = gm_hand(g, seat, hand);
        scores[seat] = gm_score(g, seat);
    }
    long face_down = 0;
    for (int p = 0; p < g->pile_size; p++) {
        face_down += (g->table[g->pile[p]] & PK_PLACE_MASK) == PK_PILE_DOWN;
    }
    int top = g->pile_size ? g->pile[g->pile_size - 1] : -1;
    state[0] = me;
    state[1] = g->phase;
    state[2] = g->to_move;
    state[3] = g->current;
    state[4] = g->deck_size;
    state[5] = g->pile_size;
    state[6] = face_down;
    state[7] = top >= 0 && g->table[top] == PK_PILE_UP ? top : -1;
    state[8] = g->passes;
    state[9] = g->trigger;
    state[10] = g->countdown ? g->turns_left : -1;
    if (pk_fill_public(out, self->size, self->fields, n, k, table, self->slots, self->positions,
                       known, supply, sizes, scores, state) < 0) {
        return -1;
    }
    const long *at = self->building;
    if (e->over) {
        out[at[B_STAGE]] = 1.0f; /* no decision in progress */
        return 0;
    }
    out[at[B_STAGE] + e->stage] = 1.0f;
    for (int c = 0; c < e->partial.played; c++) {
        out[at[B_PLAYED] + e->played[c]] = 1.0f;
    }
    for (int c = 0; c < e->cited_count; c++) {
        out[at[B_CITED] + e->cited[c]] = 1.0f;
    }
    for (int c = 0; c < e->gift_count; c++) {
        out[at[B_GIFTS] + e->gift_card[c]] = 1.0f;
    }
    for (int c = 0; c < e->discard_count; c++) {
        out[at[B_DISCARDS] + e->discards[c]] = 1.0f;
    }
    if (e->novel >= 0) {
        out[at[B_NOVEL] + e->novel] = 1.0f;
    }
    if (e->stage == EP_GIFTS) {
        for (int c = e->gift_count; c < e->owed_count; c++) {
            out[at[B_OWED] + (e->owed[c] - me + n) % n] += 1.0f;
        }
    }
    return 0;
}

/* ---- the Episodes object ------------------------------------------------------------------ */

/* A writable C-contiguous buffer of `rows` rows of `width` items of `itemsize` bytes. */
static int writable(PyObject *source, Py_buffer *view, Py_ssize_t rows, Py_ssize_t width,
                    Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(source, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->len != rows * width * itemsize) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s must hold %zd x %zd items of %zd bytes", what, rows,
                     width, itemsize);
        return -1;
    }
    return 0;
}

static int game_index(Episodes *self, PyObject *source, Py_ssize_t *out) {
    Py_ssize_t index = PyLong_AsSsize_t(source);
    if (index == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (index < 0 || index >= self->count) {
        PyErr_Format(PyExc_IndexError, "no game %zd of %zd", index, self->count);
        return -1;
    }
    *out = index;
    return 0;
}

static PyObject *episodes_deal(Episodes *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t index;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "deal(index, seed, seat, opponent_seeds, raw)");
        return NULL;
    }
    if (game_index(self, args[0], &index) < 0) {
        return NULL;
    }
    if (!PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "a seed is an integer");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(args[1]); /* GameRng: seed & (2^64 - 1) */
    long seat = PyLong_AsLong(args[2]);
    if (seat == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (seat < 0 || seat >= self->catalogue.players) {
        PyErr_SetString(PyExc_ValueError, "the learner's seat is beyond the players");
        return NULL;
    }
    PyObject *seeds = PySequence_Fast(args[3], "the opponent seeds are a sequence");
    if (seeds == NULL) {
        return NULL;
    }
    Episode *e = &self->games[index];
    GmTwister *bots = PyMem_Malloc(sizeof(GmTwister) * GM_MAX_SEATS);
    Py_buffer raw;
    int status = -1;
    if (bots == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    if (PySequence_Fast_GET_SIZE(seeds) != self->catalogue.players) {
        PyErr_SetString(PyExc_ValueError, "one opponent seed per seat (None for the learner's)");
        goto out;
    }
    for (int s = 0; s < self->catalogue.players; s++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seeds, s);
        if (s == seat) {
            continue;
        }
        uint64_t bot_seed;
        if (gm_read_seed(self->module, item, &bot_seed) < 0) {
            goto out;
        }
        gm_twister_seed(&bots[s], bot_seed);
    }
    if (writable(args[4], &raw, self->count, self->size, sizeof(float), "raw") < 0) {
        goto out;
    }
    /* Dealt into a copy: an error leaves the game as it was. */
    Episode *fresh = PyMem_Malloc(sizeof(Episode));
    if (fresh == NULL) {
        PyErr_NoMemory();
    } else {
        memset(fresh, 0, sizeof *fresh);
        fresh->g = self->catalogue;
        gm_deal(&fresh->g, self->catalogue.players, seed);
        memcpy(fresh->bots, bots, sizeof(GmTwister) * GM_MAX_SEATS);
        fresh->seat = (int)seat;
        memset(fresh->holders, -1, sizeof fresh->holders);
        builder_start(fresh);
        if (play_until(self->module, fresh) == 0) {
            fresh->over = fresh->g.phase == GM_OVER;
            float *row = (float *)raw.buf + index * self->size;
            if (observe(self, fresh, row) == 0) {
                *e = *fresh;
                status = 0;
            }
        }
        PyMem_Free(fresh);
    }
    PyBuffer_Release(&raw);
out:
    PyMem_Free(bots);
    Py_DECREF(seeds);
    return status < 0 ? NULL : Py_NewRef(Py_None);
}

/* The actions as indexes (-1 for none), one per game. */
static int read_actions(Episodes *self, PyObject *source, int *out) {
    PyObject *seq = PySequence_Fast(source, "the actions are a sequence");
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != self->count) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one action per game");
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        long action = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (action == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = action < 0 || action >= self->actions ? -1 : (int)action;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *episodes_first_illegal(Episodes *self, PyObject *source) {
    int *actions = PyMem_Malloc(sizeof(int) * (size_t)self->count);
    PyObject *result = NULL;
    if (actions == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    if (read_actions(self, source, actions) < 0) {
        goto out;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        Episode *e = &self->games[i];
        if (e->over) {
            continue;
        }
        const char *mask = legal_mask(self->module, e, self->actions);
        if (mask == NULL) {
            goto out;
        }
        if (actions[i] < 0 || !mask[actions[i]]) {
            result = Py_BuildValue("(niii)", i, e->seat, e->g.phase, e->stage);
            goto out;
        }
    }
    result = Py_NewRef(Py_None);
out:
    PyMem_Free(actions);
    return result;
}

static PyObject *episodes_step(Episodes *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "step(actions, skip, raw, rewards, terminations, penalty)");
        return NULL;
    }
    int *actions = PyMem_Malloc(sizeof(int) * (size_t)self->count);
    char *skip = PyMem_Calloc((size_t)self->count, 1);
    PyObject *penalized = PyList_New(0), *skipped = NULL, *result = NULL;
    Py_buffer raw = {0}, rewards = {0}, terminations = {0}; /* released whether taken or not */
    int penalty = PyObject_IsTrue(args[5]);
    if (actions == NULL || skip == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    if (penalized == NULL || penalty < 0 || read_actions(self, args[0], actions) < 0) {
        goto out;
    }
    skipped = PySequence_Fast(args[1], "skip is a sequence of game indexes");
    if (skipped == NULL) {
        goto out;
    }
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(skipped); k++) {
        Py_ssize_t index;
        if (game_index(self, PySequence_Fast_GET_ITEM(skipped, k), &index) < 0) {
            goto out;
        }
        skip[index] = 1;
    }
    if (writable(args[2], &raw, self->count, self->size, sizeof(float), "raw") < 0 ||
        writable(args[3], &rewards, self->count, 1, sizeof(double), "rewards") < 0 ||
        writable(args[4], &terminations, self->count, 1, 1, "terminations") < 0) {
        goto out;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        Episode *e = &self->games[i];
        double *reward = (double *)rewards.buf + i;
        char *terminated = (char *)terminations.buf + i;
        if (skip[i] || e->over) {
            continue;
        }
        const char *mask = legal_mask(self->module, e, self->actions);
        if (mask == NULL) {
            goto out;
        }
        if (actions[i] < 0 || !mask[actions[i]]) {
            if (!penalty) {
                PyErr_Format(PyExc_ValueError, "an illegal action in game %zd", i);
                goto out;
            }
            e->over = 1;
            e->masked = 0;
            *reward = -1.0; /* rl.single.PENALTY */
            *terminated = 1;
            PyObject *item = PyLong_FromSsize_t(i);
            if (item == NULL || PyList_Append(penalized, item) < 0) {
                Py_XDECREF(item);
                goto out;
            }
            Py_DECREF(item);
            continue; /* the observation stays the last one */
        }
        if (push(self->module, e, actions[i]) < 0) {
            goto out;
        }
        *reward = 0.0;
        *terminated = (char)e->over;
        if (e->over) { /* rl.aec.winner_returns */
            int winners[GM_MAX_SEATS], count = gm_winners(&e->g, winners), won = 0;
            double n = e->g.players;
            for (int w = 0; w < count; w++) {
                won |= winners[w] == e->seat;
            }
            *reward = won ? (n / count - 1) / (n - 1) : -1 / (n - 1);
        }
        if (observe(self, e, (float *)raw.buf + i * self->size) < 0) {
            goto out;
        }
    }
    result = Py_NewRef(penalized);
out:
    PyBuffer_Release(&raw);
    PyBuffer_Release(&rewards);
    PyBuffer_Release(&terminations);
    Py_XDECREF(skipped);
    Py_XDECREF(penalized);
    PyMem_Free(actions);
    PyMem_Free(skip);
    return result;
}

static PyObject *episodes_write_masks(Episodes *self, PyObject *source) {
    Py_buffer masks;
    if (writable(source, &masks, self->count, self->actions, 1, "masks") < 0) {
        return NULL;
    }
    int status = 0;
    for (Py_ssize_t i = 0; i < self->count && status == 0; i++) {
        const char *mask = legal_mask(self->module, &self->games[i], self->actions);
        if (mask == NULL) {
            status = -1;
        } else {
            memcpy((char *)masks.buf + i * self->actions, mask, (size_t)self->actions);
        }
    }
    PyBuffer_Release(&masks);
    return status < 0 ? NULL : Py_NewRef(Py_None);
}

static PyObject *episodes_over(Episodes *self, PyObject *source) {
    Py_ssize_t index;
    if (game_index(self, source, &index) < 0) {
        return NULL;
    }
    return PyBool_FromLong(self->games[index].over);
}

static PyObject *episodes_moves(Episodes *self, PyObject *source) {
    Py_ssize_t index;
    if (game_index(self, source, &index) < 0) {
        return NULL;
    }
    return PyLong_FromLong(self->games[index].moves);
}

/* The cards whose table code is `code` (any seat's face-down discard for -1), under the Novel
 * at catalogue position `novel_at` unless it is -1, ascending. */
static PyObject *cards_at(const GmGame *g, int code, int novel_at) {
    int cards[PK_CARDS], size = 0;
    for (int card = 0; card < PK_CARDS; card++) {
        int place = g->table[card];
        if ((code < 0 ? (place & PK_PLACE_MASK) == PK_PILE_DOWN : place == code) &&
            (novel_at < 0 || g->table[PK_NOVEL_AT + card] == novel_at)) {
            cards[size++] = card;
        }
    }
    return pk_int_tuple(cards, size);
}

/* state(index): game index as rl.vector._PythonEpisodes.state tells it. */
static PyObject *episodes_state(Episodes *self, PyObject *source) {
    Py_ssize_t index;
    if (game_index(self, source, &index) < 0) {
        return NULL;
    }
    const GmGame *g = &self->games[index].g;
    int n = g->players;
    PyObject *hands = PyTuple_New(n), *tables = PyTuple_New(n), *supply = PyTuple_New(g->novels);
    PyObject *result = NULL;
    if (hands == NULL || tables == NULL || supply == NULL) {
        goto out;
    }
    for (int seat = 0; seat < n; seat++) {
        PyObject *hand = cards_at(g, PK_HAND | seat, -1);
        PyObject *novels = PyTuple_New(g->held_count[seat]);
        if (hand == NULL || novels == NULL) {
            Py_XDECREF(hand);
            Py_XDECREF(novels);
            goto out;
        }
        PyTuple_SET_ITEM(hands, seat, hand);
        PyTuple_SET_ITEM(tables, seat, novels);
        for (int k = 0; k < g->held_count[seat]; k++) {
            int novel = g->held[seat][k], master = g->size[seat][novel] == 1;
            PyObject *cards = cards_at(g, (master ? PK_MASTER : PK_PUBLISHED) | seat,
                                       g->position[novel]);
            PyObject *entry = cards == NULL ? NULL : Py_BuildValue("(iN)", novel, cards);
            if (entry == NULL) {
                goto out;
            }
            PyTuple_SET_ITEM(novels, k, entry);
        }
    }
    for (int novel = 0; novel < g->novels; novel++) {
        PyObject *copies = PyLong_FromLong(g->supply[novel]);
        if (copies == NULL) {
            goto out;
        }
        PyTuple_SET_ITEM(supply, novel, copies);
    }
    PyObject *flag = g->flag_seat < 0 ? Py_NewRef(Py_None)
                                      : Py_BuildValue("(ii)", g->flag_seat, g->flag_card);
    if (flag == NULL) {
        goto out;
    }
    int choosing = g->phase == GM_CHOOSE;
    result = Py_BuildValue(
        "(KNNNOOONiiiNiiNNi)", (unsigned long long)g->rng, pk_int_tuple(g->deck, g->deck_size),
        pk_int_tuple(g->pile, g->pile_size), cards_at(g, -1, -1), hands, tables, supply, flag,
        g->phase, g->to_move, g->current,
        choosing ? Py_BuildValue("(ii)", g->pending[0], g->pending[1]) : Py_NewRef(Py_None),
        g->turn, g->passes, g->trigger < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g->trigger),
        g->countdown ? PyLong_FromLong(g->turns_left) : Py_NewRef(Py_None), g->end_reason);
out:
    Py_XDECREF(hands);
    Py_XDECREF(tables);
    Py_XDECREF(supply);
    return result;
}

static PyMethodDef episodes_methods[] = {
    {"deal", (PyCFunction)(void (*)(void))episodes_deal, METH_FASTCALL,
     "deal(index, seed, seat, opponent_seeds, raw): game index dealt anew."},
    {"first_illegal", (PyCFunction)episodes_first_illegal, METH_O,
     "first_illegal(actions): (game, seat, phase, stage) of the first illegal action, or None."},
    {"step", (PyCFunction)(void (*)(void))episodes_step, METH_FASTCALL,
     "step(actions, skip, raw, rewards, terminations, penalty): the penalized games."},
    {"write_masks", (PyCFunction)episodes_write_masks, METH_O,
     "write_masks(masks): every game's legal actions."},
    {"over", (PyCFunction)episodes_over, METH_O, "over(index): whether game index is over."},
    {"moves", (PyCFunction)episodes_moves, METH_O, "moves(index): the moves of game index."},
    {"state", (PyCFunction)episodes_state, METH_O, "state(index): the state of game index."},
    {NULL, NULL, 0, NULL},
};

static void episodes_dealloc(Episodes *self) {
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->module);
    PyMem_Free(self->games);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

static int episodes_traverse(Episodes *self, visitproc visit, void *arg) {
    Py_VISIT(self->module);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static PyType_Slot episodes_slots[] = {
    {Py_tp_dealloc, episodes_dealloc},
    {Py_tp_traverse, episodes_traverse},
    {Py_tp_methods, episodes_methods},
    {Py_tp_doc, "The games of a vector environment (rl.vector._PythonEpisodes)."},
    {0, NULL},
};

static PyType_Spec episodes_spec = {
    .name = "pastiche_core.engine._speedups.Episodes",
    .basicsize = sizeof(Episodes),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = episodes_slots,
};

PyObject *pk_episodes_type(PyObject *module) {
    return PyType_FromModuleAndSpec(module, &episodes_spec, NULL);
}

static int read_longs(PyObject *source, Py_ssize_t count, long *out, const char *what) {
    PyObject *seq = PySequence_Fast(source, what);
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd integers", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* episodes(settings, count, plan, positions, copies, flag_points, rules, players, packed, fields,
 * size, building, slots, actions): rl.vector._PythonEpisodes. */
static PyObject *episodes(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "episodes takes 14 arguments");
        return NULL;
    }
    GmGame *g = PyMem_Calloc(1, sizeof(GmGame));
    Episodes *self = NULL;
    PyObject *result = NULL;
    Py_buffer fields = {0}, slots = {0}; /* released whether taken or not */
    long count, players, size, actions, building[B_FIELDS];
    if (g == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    count = PyLong_AsLong(args[1]);
    players = PyLong_AsLong(args[7]);
    size = PyLong_AsLong(args[10]);
    actions = PyLong_AsLong(args[13]);
    int packed = PyObject_IsTrue(args[8]);
    if (PyErr_Occurred() || packed < 0 ||
        gm_read_catalogue(module, g, args[2], args[3], args[4], args[5]) < 0 ||
        gm_read_rules(module, g, args[6]) < 0 ||
        read_longs(args[11], B_FIELDS, building, "the decision fields") < 0) {
        goto out;
    }
    if (!packed) {
        pk_refuse(module, "games the engine must play (other seats not all random bots)");
        goto out;
    }
    if (!gm_seats(g, players) || count < 1 || count > EP_MAX_GAMES) {
        pk_refuse(module, "players beyond the rules' seats or games beyond 1..2^20");
        goto out;
    }
    if (actions != EP_NOVEL_BASE + g->novels || size < 1) {
        PyErr_SetString(PyExc_ValueError, "the action space is not the catalogue's");
        goto out;
    }
    if (PyObject_GetBuffer(args[9], &fields, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(args[12], &slots, PyBUF_SIMPLE) < 0) {
        goto out;
    }
    if (fields.len != (Py_ssize_t)sizeof(int32_t) * 2 * PK_OBS_FIELDS || slots.len > 256) {
        PyErr_SetString(PyExc_ValueError, "the observation layout is not an encoder's");
        goto out;
    }
    int32_t pairs[2 * PK_OBS_FIELDS]; /* copied: a bytes-like buffer need not be aligned */
    memcpy(pairs, fields.buf, sizeof pairs);
    if (pk_obs_layout(module, pairs, 2 * PK_OBS_FIELDS, size, (int)players, g->novels) < 0) {
        goto out;
    }
    long widths[B_FIELDS] = {4, PK_CARDS, PK_CARDS, PK_CARDS, PK_CARDS, g->novels, players};
    for (int b = 0; b < B_FIELDS; b++) {
        if (building[b] < 0 || building[b] + widths[b] > size) {
            PyErr_SetString(PyExc_ValueError, "a decision field is off the observation");
            goto out;
        }
    }
    self = PyObject_GC_New(Episodes, (PyTypeObject *)pk_state(module)->episodes);
    if (self == NULL) {
        goto out;
    }
    self->module = Py_NewRef(module);
    self->count = count;
    self->size = size;
    self->actions = actions;
    memcpy(self->fields, pairs, sizeof self->fields);
    memcpy(self->building, building, sizeof self->building);
    memcpy(self->slots, slots.buf, (size_t)slots.len);
    self->positions = slots.len;
    self->catalogue = *g;
    self->catalogue.players = (int)players;
    self->games = PyMem_Calloc((size_t)count, sizeof(Episode));
    PyObject_GC_Track(self);
    if (self->games == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        self->games[i].over = 1; /* dealt by deal() */
        self->games[i].seat = 0;
        self->games[i].g = *g;
        self->games[i].g.players = (int)players;
    }
    result = Py_NewRef((PyObject *)self);
out:
    Py_XDECREF(self);
    PyBuffer_Release(&fields);
    PyBuffer_Release(&slots);
    PyMem_Free(g);
    return result;
}

PyMethodDef pk_episode_methods[] = {
    {"episodes", (PyCFunction)(void (*)(void))episodes, METH_FASTCALL,
     "episodes(settings, count, plan, positions, copies, flag_points, rules, players, packed, "
     "fields, size, building, slots, actions): rl.vector._PythonEpisodes."},
    {NULL, NULL, 0, NULL},
};
