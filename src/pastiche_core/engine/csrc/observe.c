/*
 * The observe kernels (see module.c). Each is the twin of a Python rule named in its comment.
 *
 * fill_public(out, fields, table, slots, known, supply, hand_sizes, scores, state) -> None
 *
 * The twin of pastiche_core.rl.observation._fill_public_py (its docstring has the whole
 * contract): one player's observation vector but the decision in progress, from packed inputs.
 *
 *   out         a writable C-contiguous float32 buffer: zeroed, then the fields are written
 *   fields      int32 (native) pairs (offset, size) of the 25 fields, in OBS_FIELDS order; the
 *               players n are the size of hand_sizes, the Novel slots k the size of supply
 *   table       the observer's card table (layout.h, 98 bytes): other hands UNSEEN (R16)
 *   slots       per Novel position of the table (the view's catalogue), the observation's slot
 *               of that Novel, 0xFF for none (the End Flag)
 *   known       49 bytes: HAND | s for a card known to lie in seat s's hand, else UNSEEN
 *   supply      k integers: copies left of each slot's Novel
 *   hand_sizes  n integers and scores n integers, by absolute seat
 *   state       11 integers, OBS_STATE order: the observer's seat, the phase (0 keep, 1 action,
 *               2 choose, 3 flag, 4 over), the seat to move, the current seat, deck size,
 *               discard size, face-down discards, the face-up top discard (card index),
 *               passes, the trigger's seat, turns left (the last three negative for none)
 *
 * Seats are written relative to the observer's; the seats to move are left out once the game
 * is over; the End Flag was lost (R12) when the end is triggered, no card lies under the flag
 * and the phase is not the flag's.
 *
 * Errors (TypeError): a buffer of the wrong type or size, a sequence of the wrong length, an
 * item not an integer. ValueError: a field off the array or of a size other than its shape's,
 * a place code that is none, a seat beyond the players, another seat's hand or face-down card
 * in the table, a card under a Novel without a slot, a phase, seat or top card beyond its
 * range, a top card not face up in the pile. Range refusals (OutOfRange, the Python twin
 * answers): more than PK_MAX_SEATS players, more than PK_MAX_NOVELS slots, an integer beyond
 * +-2^24 (the integers a float32 holds exactly). Everything is checked before `out` is written,
 * so a refused or wrong call leaves it as it was.
 *
 * Its core, for another C file (observe.h): pk_obs_layout checks a layout once, pk_fill_public
 * writes the observation from inputs already read (the ValueErrors of the data); fill_public is
 * the two on top of its argument reading (the TypeErrors and the integers' range refusals).
 */
#include "observe.h" /* first: Python.h (kernels.h) must precede the system headers */

#include <string.h>

/* The fields written, in the order of their (offset, size) pairs (observation._PUBLIC_FIELDS). */
enum {
    F_HAND, F_DRAWN, F_DISCARD_TOP, F_DISCARD_FACE_UP, F_DISCARD_OWN, F_FLAG_CARD,
    F_PUBLISHED, F_MASTERPIECES, F_KNOWN_HANDS, F_NOVEL_CARDS, F_HELD_PUBLISHED,
    F_HELD_MASTERPIECE, F_SUPPLY, F_HAND_SIZES, F_SCORES, F_PILES, F_PHASE, F_TO_MOVE,
    F_CURRENT, F_SEAT, F_PASSES, F_COUNTDOWN, F_TRIGGER, F_FLAG_OWNER, F_FLAG_LOST,
    OBS_FIELDS
};
typedef char obs_fields_check[OBS_FIELDS == PK_OBS_FIELDS ? 1 : -1]; /* observe.h agrees */

/* The entries of `state`. */
enum {
    S_SEAT, S_PHASE, S_TO_MOVE, S_CURRENT, S_DECK, S_DISCARD, S_FACE_DOWN, S_TOP, S_PASSES,
    S_TRIGGER, S_TURNS_LEFT, OBS_STATE
};
typedef char obs_state_check[OBS_STATE == PK_OBS_STATE ? 1 : -1]; /* observe.h agrees */

#define OBS_PHASES 5
#define OBS_PHASE_FLAG 3 /* observation._PHASES.index(Phase.FLAG) */
#define OBS_PHASE_OVER 4 /* observation._PHASES.index(Phase.OVER) */
#define OBS_NO_SLOT 0xFF
#define OBS_MAX_INT (1L << 24) /* beyond, a float32 may not hold the integer exactly */
/* Values set to 1: at most three per card (a novel's card), one per known card, and the
 * top discard, phase, to-move, current, seat, countdown, trigger and flag-lost marks. */
#define OBS_MAX_ONES (4 * PK_CARDS + 8)

/* Integers from a sequence of exactly `size`, each within +-OBS_MAX_INT (else a refusal). */
static int obs_ints(PyObject *module, PyObject *source, Py_ssize_t size, const char *what,
                    long *out) {
    PyObject *seq = PySequence_Fast(source, "fill_public: expected a sequence of integers");
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != size) {
        PyErr_Format(PyExc_TypeError, "fill_public: %s holds %zd integers, not %zd", what, size,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < size; i++) {
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(items[i], &overflow);
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (overflow || value < -OBS_MAX_INT || value > OBS_MAX_INT) {
            Py_DECREF(seq);
            pk_refuse(module, what);
            return -1;
        }
        out[i] = value;
    }
    Py_DECREF(seq);
    return 0;
}

static int obs_bad(const char *what) {
    PyErr_Format(PyExc_ValueError, "fill_public: %s", what);
    return -1;
}

/* A read-only bytes-like input: `size` bytes exactly, or any size if size < 0. */
static int obs_bytes(PyObject *source, Py_buffer *view, Py_ssize_t size, const char *what) {
    if (PyObject_GetBuffer(source, view, PyBUF_SIMPLE) != 0) {
        return -1;
    }
    if (size >= 0 && view->len != size) {
        PyErr_Format(PyExc_TypeError, "fill_public: %s holds %zd bytes, not %zd", what, size,
                     view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The layout: `length` int32, the fields' sizes their shapes' for n players and k slots, their
 * offsets within `size` floats (observe.h). */
int pk_obs_layout(PyObject *module, const int32_t *pairs, Py_ssize_t length, Py_ssize_t size,
                  int players, int novels) {
    if (length != 2 * OBS_FIELDS) {
        PyErr_Format(PyExc_TypeError, "fill_public: fields holds %zd bytes, not %zd",
                     2 * OBS_FIELDS * (Py_ssize_t)sizeof(int32_t),
                     length * (Py_ssize_t)sizeof(int32_t));
        return -1;
    }
    long n = players, k = novels;
    if (n < 1 || k < 0) {
        return obs_bad("no seats in the layout");
    }
    if (n > PK_MAX_SEATS) {
        pk_refuse(module, "the players");
        return -1;
    }
    if (k > PK_MAX_NOVELS) {
        pk_refuse(module, "the Novel slots");
        return -1;
    }
    long cards = PK_CARDS;
    long shape[OBS_FIELDS] = {
        [F_HAND] = cards,       [F_DRAWN] = cards,           [F_DISCARD_TOP] = cards,
        [F_DISCARD_FACE_UP] = cards, [F_DISCARD_OWN] = cards, [F_FLAG_CARD] = cards,
        [F_PUBLISHED] = n * cards, [F_MASTERPIECES] = n * cards, [F_KNOWN_HANDS] = n * cards,
        [F_NOVEL_CARDS] = k * cards, [F_HELD_PUBLISHED] = n * k, [F_HELD_MASTERPIECE] = n * k,
        [F_SUPPLY] = k,         [F_HAND_SIZES] = n,          [F_SCORES] = n,
        [F_PILES] = 3,          [F_PHASE] = OBS_PHASES,      [F_TO_MOVE] = n,
        [F_CURRENT] = n,        [F_SEAT] = n,                [F_PASSES] = 1,
        [F_COUNTDOWN] = 2,      [F_TRIGGER] = n,             [F_FLAG_OWNER] = n,
        [F_FLAG_LOST] = 1,
    };
    for (int i = 0; i < OBS_FIELDS; i++) {
        long offset = pairs[2 * i], width = pairs[2 * i + 1];
        if (width != shape[i]) {
            return obs_bad("a field's size is not its shape's");
        }
        if (offset < 0 || offset > size - width) {
            return obs_bad("a field lies beyond the array");
        }
    }
    return 0;
}

/* The observation from checked inputs (observe.h): the data checked first, then written. */
/* home: R16.cards; twin test: tests/kernels/test_observe.py */
int pk_fill_public(float *out, Py_ssize_t size, const int32_t *pairs, int players, int novels,
                   const unsigned char *table, const unsigned char *slots, Py_ssize_t positions,
                   const unsigned char *known, const long *supply, const long *sizes,
                   const long *scores, const long *state) {
    long n = players, k = novels;
    Py_ssize_t at[OBS_FIELDS];
    for (int i = 0; i < OBS_FIELDS; i++) {
        at[i] = pairs[2 * i];
    }
    long me = state[S_SEAT], phase = state[S_PHASE], top = state[S_TOP];
    if (me < 0 || me >= n) {
        return obs_bad("the observer's seat is beyond the players");
    }
    if (phase < 0 || phase >= OBS_PHASES) {
        return obs_bad("the phase is beyond the phases");
    }
    if (state[S_TO_MOVE] < 0 || state[S_TO_MOVE] >= n || state[S_CURRENT] < 0 ||
        state[S_CURRENT] >= n || state[S_TRIGGER] >= n) {
        return obs_bad("a seat to move, current or trigger beyond the players");
    }
    if (top >= PK_CARDS || (top >= 0 && table[top] != PK_PILE_UP)) {
        return obs_bad("the top discard is not a face-up card of the pile");
    }

    Py_ssize_t ones[OBS_MAX_ONES];
    int count = 0, flagged = 0;
    for (int card = 0; card < PK_CARDS; card++) {
        unsigned code = table[card];
        if (code == PK_UNSEEN) {
            continue;
        }
        if (code == PK_PILE_UP) {
            ones[count++] = at[F_DISCARD_FACE_UP] + card;
            continue;
        }
        if (code == PK_DRAWN) {
            ones[count++] = at[F_DRAWN] + card;
            continue;
        }
        unsigned place = code & PK_PLACE_MASK;
        long seat = code & PK_SEAT_MASK;
        if (seat >= n) {
            return obs_bad("a card table's seat is beyond the players");
        }
        long relative = (seat - me + n) % n;
        if (place == PK_HAND || place == PK_PILE_DOWN) {
            if (seat != me) {
                return obs_bad("the card table shows another seat's hidden card (R16)");
            }
            ones[count++] = at[place == PK_HAND ? F_HAND : F_DISCARD_OWN] + card;
        } else if (place == PK_FLAG) {
            ones[count++] = at[F_FLAG_CARD] + card;
            ones[count++] = at[F_FLAG_OWNER] + relative;
            flagged = 1;
        } else if (place == PK_MASTER || place == PK_PUBLISHED) {
            unsigned position = table[PK_NOVEL_AT + card];
            unsigned slot = position < positions ? slots[position] : OBS_NO_SLOT;
            if (slot == OBS_NO_SLOT || slot >= k) {
                return obs_bad("a card lies under a Novel without a slot");
            }
            int master = place == PK_MASTER;
            ones[count++] = at[master ? F_MASTERPIECES : F_PUBLISHED] + relative * PK_CARDS + card;
            ones[count++] = at[F_NOVEL_CARDS] + slot * PK_CARDS + card;
            ones[count++] = at[master ? F_HELD_MASTERPIECE : F_HELD_PUBLISHED] + relative * k + slot;
        } else {
            return obs_bad("a card table's byte is no place code");
        }
    }
    for (int card = 0; card < PK_CARDS; card++) {
        unsigned code = known[card];
        if (code == PK_UNSEEN) {
            continue;
        }
        long seat = code & PK_SEAT_MASK;
        if ((code & PK_PLACE_MASK) != PK_HAND || seat >= n) {
            return obs_bad("a known card is not in a seat's hand");
        }
        ones[count++] = at[F_KNOWN_HANDS] + ((seat - me + n) % n) * PK_CARDS + card;
    }
    if (top >= 0) {
        ones[count++] = at[F_DISCARD_TOP] + top;
    }
    ones[count++] = at[F_PHASE] + phase;
    if (phase != OBS_PHASE_OVER) {
        ones[count++] = at[F_TO_MOVE] + (state[S_TO_MOVE] - me + n) % n;
        ones[count++] = at[F_CURRENT] + (state[S_CURRENT] - me + n) % n;
    }
    ones[count++] = at[F_SEAT] + me;
    if (state[S_TURNS_LEFT] >= 0) {
        ones[count++] = at[F_COUNTDOWN];
    }
    if (state[S_TRIGGER] >= 0) {
        ones[count++] = at[F_TRIGGER] + (state[S_TRIGGER] - me + n) % n;
        if (!flagged && phase != OBS_PHASE_FLAG) { /* R12: the End Flag was lost */
            ones[count++] = at[F_FLAG_LOST];
        }
    }

    /* Everything is checked: write. */
    memset(out, 0, (size_t)size * sizeof(float));
    for (int i = 0; i < count; i++) {
        out[ones[i]] = 1.0f;
    }
    for (long slot = 0; slot < k; slot++) {
        out[at[F_SUPPLY] + slot] = (float)supply[slot];
    }
    for (long owner = 0; owner < n; owner++) {
        long relative = (owner - me + n) % n;
        out[at[F_HAND_SIZES] + relative] = (float)sizes[owner];
        out[at[F_SCORES] + relative] = (float)scores[owner];
    }
    out[at[F_PILES]] = (float)state[S_DECK];
    out[at[F_PILES] + 1] = (float)state[S_DISCARD];
    out[at[F_PILES] + 2] = (float)state[S_FACE_DOWN];
    out[at[F_PASSES]] = (float)state[S_PASSES];
    if (state[S_TURNS_LEFT] >= 0) {
        out[at[F_COUNTDOWN] + 1] = (float)state[S_TURNS_LEFT];
    }
    return 0;
}

static PyObject *fill_public(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "fill_public takes 9 arguments, not %zd", nargs);
        return NULL;
    }
    /* Zeroed, a buffer not (or no longer) held has no owner: the end releases all five. */
    Py_buffer out_view = {0}, fields_view = {0}, table_view = {0}, slots_view = {0};
    Py_buffer known_view = {0};
    PyObject *result = NULL;
    const unsigned char *table;
    if (PyObject_GetBuffer(args[0], &out_view,
                           PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) != 0 ||
        out_view.format == NULL || strcmp(out_view.format, "f") != 0) { /* "f": native float */
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "fill_public: out must be a writable C-contiguous float32 buffer");
        goto done;
    }
    if (obs_bytes(args[1], &fields_view, 2 * OBS_FIELDS * (Py_ssize_t)sizeof(int32_t),
                  "fields") != 0) {
        goto done;
    }
    if (pk_card_table(args[2], &table_view, &table) != 0) {
        goto done;
    }
    if (obs_bytes(args[3], &slots_view, -1, "slots") != 0) {
        goto done;
    }
    if (obs_bytes(args[4], &known_view, PK_CARDS, "known") != 0) {
        goto done;
    }

    Py_ssize_t length = out_view.len / (Py_ssize_t)sizeof(float);
    int32_t pairs[2 * OBS_FIELDS];
    memcpy(pairs, fields_view.buf, sizeof pairs); /* the buffer may not be aligned */
    int n = pairs[2 * F_HAND_SIZES + 1], k = pairs[2 * F_SUPPLY + 1]; /* the layout's own */
    if (pk_obs_layout(module, pairs, 2 * OBS_FIELDS, length, n, k) != 0) {
        goto done;
    }
    long state[OBS_STATE], supply[PK_MAX_NOVELS], sizes[PK_MAX_SEATS], scores[PK_MAX_SEATS];
    if (obs_ints(module, args[8], OBS_STATE, "state", state) != 0 ||
        obs_ints(module, args[5], k, "supply", supply) != 0 ||
        obs_ints(module, args[6], n, "hand_sizes", sizes) != 0 ||
        obs_ints(module, args[7], n, "scores", scores) != 0) {
        goto done;
    }
    if (pk_fill_public((float *)out_view.buf, length, pairs, n, k, table, slots_view.buf,
                       slots_view.len, known_view.buf, supply, sizes, scores, state) != 0) {
        goto done;
    }
    result = Py_NewRef(Py_None);

done:
    PyBuffer_Release(&known_view);
    PyBuffer_Release(&slots_view);
    PyBuffer_Release(&table_view);
    PyBuffer_Release(&fields_view);
    PyBuffer_Release(&out_view);
    return result;
}

PyMethodDef pk_observe_methods[] = {
    {"fill_public", (PyCFunction)(void (*)(void))fill_public, METH_FASTCALL,
     "fill_public(out, fields, table, slots, known, supply, hand_sizes, scores, state): the "
     "observation vector but the decision in progress (twin of rl.observation._fill_public_py)."},
    {NULL, NULL, 0, NULL},
};
