/*
 * The packed game (game.c): game.Game's state and rules over the card table of layout.h, shared
 * by the game kernel (random_game, game.c) and the episodes of the vector environment
 * (episode.c). Publishes are counted and decoded by counting.c, so R4-R8 stay written there.
 */
#ifndef PASTICHE_GAME_H
#define PASTICHE_GAME_H

#include "kernels.h"

#define GM_MAX_SEATS PK_RULE_SEATS /* room for the most seats any rules seat */
#define GM_MAX_POINTS 1000000

/* Phases, in observation._PHASES order. */
enum { GM_KEEP_PHASE, GM_ACTION, GM_CHOOSE, GM_FLAG, GM_OVER };
enum { GM_NOT_OVER, GM_COUNTDOWN, GM_ALL_PASS };
/* The kinds of move a record tells of. */
enum { GM_MOVE_KEEP, GM_MOVE_DRAW, GM_MOVE_CHOOSE, GM_MOVE_TAKE, GM_MOVE_READ, GM_MOVE_PUBLISH,
       GM_MOVE_FLAG, GM_MOVE_PASS };

/* CPython's random.Random (MT19937) as RandomBot draws with it. */
typedef struct {
    uint32_t state[624];
    int next;
} GmTwister;

/* random.Random(seed) for 0 <= seed < 2^64. */
void gm_twister_seed(GmTwister *t, uint64_t seed);
/* randrange(n) for 1 <= n < 2^64. */
uint64_t gm_twister_below(GmTwister *t, uint64_t n);

typedef struct {
    /* The catalogue, packed (gm_read_catalogue). */
    int32_t plan[PK_MAX_NOVELS * PK_PLAN_FIELDS];
    int novels;
    int position[PK_MAX_NOVELS]; /* each publishable Novel's catalogue position (the table's) */
    int copies[PK_MAX_NOVELS];
    long flag_points;
    /* The rules, packed (gm_read_rules): no rule number is written in C. */
    int min_players, max_players, keep_size, end_threshold, deals[GM_MAX_SEATS];
    /* The state of game.Game. */
    int players;
    unsigned char table[PK_CARD_TABLE_SIZE];
    int deck[PK_CARDS], deck_size; /* the top is the last */
    int pile[PK_CARDS], pile_size; /* the discard pile, its top the last */
    int held[GM_MAX_SEATS][PK_MAX_NOVELS], held_count[GM_MAX_SEATS]; /* Novels, publish order */
    int size[GM_MAX_SEATS][PK_MAX_NOVELS]; /* the cards under each held Novel */
    int supply[PK_MAX_NOVELS];
    int phase, to_move, current, pending[2], turn, passes, trigger, countdown, turns_left;
    int end_reason, flag_seat, flag_card; /* the End Flag's holder and its card (R12) */
    uint64_t rng; /* rng.GameRng's state */
} GmGame;

/* What a move moved beyond its notation and what the knowledge reads of it (view.MoveRecord,
 * knowledge.Knowledge._follow). */
typedef struct {
    int seat, kind;
    int card;                 /* the card chosen, read or put under the End Flag */
    int taken, taken_from;    /* a card taken from the pile (-1: none) and the seat that laid it
                                 face down (-1: it lay face up) */
    int played[PK_CARDS], played_count;
    int gift_owner[PK_CARDS], gift_card[PK_CARDS], gift_count;
} GmRecord;

/* The legal publishes of a position, as counting.c's segments. */
typedef struct {
    int novel, width;
    int ranks[PK_RANKS], needs[PK_RANKS];
    uint64_t count;
} GmSegment;

typedef struct {
    GmSegment *items;
    Py_ssize_t size, room;
    uint64_t total;
    int overflow;
} GmSegments;

/* The catalogue's packed arguments into g: the plan (bytes-like, or None: refused), per Novel
 * its catalogue position and copies, the End Flag's points. 0, or -1 with an exception. */
int gm_read_catalogue(PyObject *module, GmGame *g, PyObject *plan, PyObject *positions,
                      PyObject *copies, PyObject *flag_points);
/* The rules packed by layout.packed_rules into g (R10, R12). 0, or -1 with an exception (a
 * refusal for numbers no game is played by). */
int gm_read_rules(PyObject *module, GmGame *g, PyObject *rules);
/* Whether g's rules seat `players`. */
int gm_seats(const GmGame *g, long players);
/* Game(players, seed): the deal (R10), keeping g's catalogue and rules. */
void gm_deal(GmGame *g, int players, uint64_t seed);
/* The seat's hand, ascending; its size. */
int gm_hand(const GmGame *g, int seat, int *out);
/* A seat's score (Masterpiece points and the End Flag, R13) and Masterpieces. */
long gm_score(const GmGame *g, int seat);
int gm_masterpieces(const GmGame *g, int seat);
/* The winners (R13) into out; their count. */
int gm_winners(const GmGame *g, int *out);
/* A seat's usable flags (R6): per plan Novel, 1 when a copy is left and the seat holds none. */
void gm_usable(const GmGame *g, int seat, unsigned char *usable);
/* A bot's seed, 0..2^64 - 1: 0, or -1 with TypeError (no integer) or a refusal (beyond). */
int gm_read_seed(PyObject *module, PyObject *source, uint64_t *out);
/* The plan index of the Novel at a catalogue position, or -1. */
int gm_novel_at(const GmGame *g, int position);

/* The moves (Game._apply_legal), each legal by the caller's check; *r tells what it moved. */
void gm_keep(GmGame *g, const int *dropped, int count, GmRecord *r);
void gm_draw(GmGame *g, GmRecord *r);
void gm_choose(GmGame *g, int card, GmRecord *r);
void gm_take(GmGame *g, GmRecord *r);
void gm_read(GmGame *g, int card, GmRecord *r);
void gm_publish(GmGame *g, int novel, const PkPick *pick, GmRecord *r);
void gm_flag(GmGame *g, int card, GmRecord *r);
void gm_pass(GmGame *g, GmRecord *r);

/* Count the legal moves of the position (Game._segments), the publishes into *publishes
 * (PyMem_Free its items when done): the count, or 0 with an exception (a refusal from
 * counting.c, a count beyond 64 bits, no memory); the game over counts 0 without one. */
uint64_t gm_count(PyObject *module, const GmGame *g, GmSegments *publishes, uint64_t *writes,
                  uint64_t *reads);
/* Play the index-th legal move (LegalMoves[index]) counted by gm_count. 0, or -1 with an
 * exception. */
int gm_play_index(PyObject *module, GmGame *g, const GmSegments *publishes, uint64_t writes,
                  uint64_t reads, uint64_t index, GmRecord *r);

#endif
