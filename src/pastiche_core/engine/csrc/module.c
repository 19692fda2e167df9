/*
 * pastiche_core.engine._speedups: the compiled twins of a few rules (see pastiche_core/engine/_kernels.py,
 * the one gate that imports this module). Each source file holds one subsystem:
 *
 *   counting.c  the publish counts and the publish of an index (movegen, feasibility)
 *   masks.c     the atomic actions of a publish being built (rl.encoding)
 *   observe.c   the observation vector (rl.observation)
 *   playouts.c  the playout policy's publishes and a hand's prospects (ai.playout, ai.heuristics)
 *   game.c      the packed game (game.h) and whole games between random bots (bots, simulate)
 *   episode.c   the games of the vector environment (rl.vector)
 *
 * This file holds the module: its state (the refusal types and the binomial table) and the
 * shared readers of the packed arrays.
 */
#include "kernels.h"

PyObject *pk_refuse(PyObject *module, const char *what) {
    PyErr_Format(pk_state(module)->out_of_range, "%s: beyond the compiled kernel's range", what);
    return NULL;
}

int pk_card_table(PyObject *source, Py_buffer *view, const unsigned char **table) {
    if (PyObject_GetBuffer(source, view, PyBUF_SIMPLE) != 0) {
        return -1;
    }
    if (view->len != PK_CARD_TABLE_SIZE) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "a card table holds %d bytes, not %zd", PK_CARD_TABLE_SIZE,
                     view->len);
        return -1;
    }
    *table = (const unsigned char *)view->buf;
    return 0;
}

int pk_plan(PyObject *source, Py_buffer *view, const int32_t **plan, Py_ssize_t *novels) {
    if (PyObject_GetBuffer(source, view, PyBUF_SIMPLE) != 0) {
        return -1;
    }
    Py_ssize_t entry = PK_PLAN_FIELDS * (Py_ssize_t)sizeof(int32_t);
    if (view->len % entry != 0 || view->len / entry > PK_MAX_NOVELS) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "a plan holds five int32 per Novel, at most 64 Novels");
        return -1;
    }
    *plan = (const int32_t *)view->buf;
    *novels = view->len / entry;
    return 0;
}

PyObject *pk_int_tuple(const int *values, int size) {
    PyObject *tuple = PyTuple_New(size);
    for (int i = 0; tuple != NULL && i < size; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_CLEAR(tuple);
            break;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

int pk_read_ints(PyObject *module, PyObject *source, int count, long low, long high,
                 const char *what, PyObject *size_error, int *out) {
    PyObject *seq = PySequence_Fast(source, "expected a sequence of integers");
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_Format(size_error, "%s: expected %d integers, not %zd", what, count,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (value < low || value > high) {
            Py_DECREF(seq);
            pk_refuse(module, what);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(seq);
    return 0;
}

static int exec_module(PyObject *module) {
    PkState *st = pk_state(module);
    for (int n = 0; n <= PK_MAX_BINOM; n++) {
        st->binom[n][0] = 1;
        for (int k = 1; k <= n; k++) {
            st->binom[n][k] = st->binom[n - 1][k - 1] + (k <= n - 1 ? st->binom[n - 1][k] : 0);
        }
        for (int k = n + 1; k <= PK_MAX_BINOM; k++) {
            st->binom[n][k] = 0;
        }
    }
    st->out_of_range = PyErr_NewExceptionWithDoc(
        "pastiche_core.engine._speedups.OutOfRange",
        "An input beyond a compiled kernel's fixed ranges: the Python rule answers.",
        PyExc_OverflowError, NULL);
    st->reentrant = PyErr_NewExceptionWithDoc(
        "pastiche_core.engine._speedups.Reentrant",
        "A compiled kernel in use that cannot be entered again (none is, today).",
        PyExc_RuntimeError, NULL);
    if (st->out_of_range == NULL || st->reentrant == NULL ||
        (st->episodes = pk_episodes_type(module)) == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "OutOfRange", st->out_of_range) < 0 ||
        PyModule_AddObjectRef(module, "Reentrant", st->reentrant) < 0 ||
        PyModule_AddIntConstant(module, "LAYOUT_VERSION", PK_LAYOUT_VERSION) < 0 ||
        PyModule_AddIntConstant(module, "CARD_TABLE_SIZE", PK_CARD_TABLE_SIZE) < 0) {
        return -1;
    }
    PyMethodDef *subsystems[] = {pk_counting_methods, pk_masks_methods, pk_observe_methods,
                                 pk_playouts_methods, pk_game_methods,
                                 pk_episode_methods};
    for (size_t i = 0; i < sizeof subsystems / sizeof subsystems[0]; i++) {
        if (PyModule_AddFunctions(module, subsystems[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static int traverse(PyObject *module, visitproc visit, void *arg) {
    PkState *st = pk_state(module);
    Py_VISIT(st->out_of_range);
    Py_VISIT(st->reentrant);
    Py_VISIT(st->episodes);
    return 0;
}

static int clear(PyObject *module) {
    PkState *st = pk_state(module);
    Py_CLEAR(st->out_of_range);
    Py_CLEAR(st->reentrant);
    Py_CLEAR(st->episodes);
    return 0;
}

static void free_module(void *module) { clear((PyObject *)module); }

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, exec_module},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pastiche_core.engine._speedups",
    .m_doc = "Compiled twins of pastiche_core's hottest rules; reached only through "
             "pastiche_core.engine._kernels.",
    .m_size = sizeof(PkState),
    .m_slots = slots,
    .m_traverse = traverse,
    .m_clear = clear,
    .m_free = free_module,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModuleDef_Init(&module_def); }
