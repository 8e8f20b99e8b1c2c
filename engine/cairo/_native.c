/* Cairo Corridor's analysis in C: engine/cairo/rules.py's ``_analyse_python`` step for
 * step (the same depth-first search in the same order, the same pieces split off), on
 * 72-bit cell masks held in 128 bits. The cells' neighbours and the four sides come
 * from Python once (``configure``); ``analyse(low, high)`` takes the occupied cells'
 * mask in two 64-bit halves and returns the region's and the critical cells' masks,
 * each in two halves (engine/cairo/rules.py puts them together). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef unsigned __int128 mask_t;

#define MOST_CELLS 128
#define MOST_NEIGHBOURS 8
#define BLOCKED (1 << 20) /* a discovery time no real one reaches: occupied cells */

static int count = 0;
static int degree[MOST_CELLS];
static int neighbours[MOST_CELLS][MOST_NEIGHBOURS];
static mask_t all_cells, top, bottom, left, right;

typedef struct {
    int disc[MOST_CELLS];
    int low[MOST_CELLS];
    int clock;
    int pending;
    int pending_cell[MOST_CELLS];
    mask_t pending_split[MOST_CELLS];
} Search;

static mask_t bit(int v) { return (mask_t)1 << v; }

static int lowest(mask_t m) {
    uint64_t lo = (uint64_t)m;
    if (lo)
        return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static int on_all_sides(mask_t m) {
    return (m & top) && (m & bottom) && (m & left) && (m & right);
}

/* Tarjan's search from v; the mask of v's subtree. */
static mask_t visit(Search *s, int v, int parent) {
    int d = s->clock++;
    s->disc[v] = d;
    int lo = d;
    mask_t subtree = bit(v), split = 0;
    int saved = 0;
    for (int i = 0; i < degree[v]; i++) {
        int w = neighbours[v][i];
        int dw = s->disc[w];
        if (dw == 0) {
            mask_t child = visit(s, w, v);
            subtree |= child;
            int lw = s->low[w];
            if (lw >= d) {
                split |= child;
                if (!saved && on_all_sides(child))
                    saved = 1;
            } else if (lw < lo) {
                lo = lw;
            }
        } else if (dw < lo && w != parent) {
            lo = dw;
        }
    }
    s->low[v] = lo;
    if (split && !saved) {
        s->pending_cell[s->pending] = v;
        s->pending_split[s->pending++] = split;
    }
    return subtree;
}

static mask_t critical_of(const Search *s, mask_t region) {
    mask_t critical = 0;
    const mask_t sides[4] = {top, bottom, left, right};
    for (int i = 0; i < 4; i++) {
        mask_t on_side = region & sides[i];
        if (on_side && !(on_side & (on_side - 1)))
            critical |= on_side;
    }
    for (int i = 0; i < s->pending; i++) {
        mask_t remainder = region & ~s->pending_split[i] & ~bit(s->pending_cell[i]);
        if (!on_all_sides(remainder))
            critical |= bit(s->pending_cell[i]);
    }
    return critical;
}

static PyObject *halves(mask_t region, mask_t critical) {
    return Py_BuildValue("(KKKK)", (unsigned long long)(uint64_t)region,
                         (unsigned long long)(uint64_t)(region >> 64),
                         (unsigned long long)(uint64_t)critical,
                         (unsigned long long)(uint64_t)(critical >> 64));
}

static PyObject *analyse(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long lo, hi;
    if (!PyArg_ParseTuple(args, "KK", &lo, &hi))
        return NULL;
    if (count == 0) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    mask_t occupied = ((mask_t)hi << 64) | lo;
    mask_t empty = all_cells & ~occupied;
    Search s;
    for (int v = 0; v < count; v++) {
        s.disc[v] = (empty >> v) & 1 ? 0 : BLOCKED;
        s.low[v] = 0;
    }
    s.clock = 1;
    s.pending = 0;
    mask_t todo = empty & top;
    while (todo) {
        mask_t region = visit(&s, lowest(todo), -1);
        if ((region & bottom) && (region & left) && (region & right))
            return halves(region, critical_of(&s, region));
        todo &= ~region;
        s.pending = 0;
    }
    return halves(0, 0);
}

static int mask_of(PyObject *value, mask_t *out) {
    PyObject *shifted = NULL;
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(value);
    if (lo == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    PyObject *sixty_four = PyLong_FromLong(64);
    if (!sixty_four)
        return -1;
    shifted = PyNumber_Rshift(value, sixty_four);
    Py_DECREF(sixty_four);
    if (!shifted)
        return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLongMask(shifted);
    Py_DECREF(shifted);
    if (hi == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = ((mask_t)hi << 64) | lo;
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lists, *t, *b, *l, *r;
    if (!PyArg_ParseTuple(args, "OOOOO", &lists, &t, &b, &l, &r))
        return NULL;
    PyObject *seq = PySequence_Fast(lists, "neighbour lists: a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n <= 0 || n > MOST_CELLS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "between 1 and 128 cells");
        return NULL;
    }
    for (Py_ssize_t v = 0; v < n; v++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, v), "a sequence");
        if (!row) {
            Py_DECREF(seq);
            return NULL;
        }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(row);
        if (k > MOST_NEIGHBOURS) {
            Py_DECREF(row);
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "at most 8 neighbours a cell");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            long w = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
            if (w < 0 || w >= n) {
                Py_DECREF(row);
                Py_DECREF(seq);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a neighbour out of range");
                return NULL;
            }
            neighbours[v][i] = (int)w;
        }
        degree[v] = (int)k;
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    if (mask_of(t, &top) < 0 || mask_of(b, &bottom) < 0 || mask_of(l, &left) < 0 ||
        mask_of(r, &right) < 0)
        return NULL;
    count = (int)n;
    all_cells = n == 128 ? ~(mask_t)0 : (bit((int)n) - 1);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(neighbour_lists, top, bottom, left, right): the board, once."},
    {"analyse", analyse, METH_VARARGS,
     "analyse(low, high) -> (region low, region high, critical low, critical high)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Cairo Corridor's analysis in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
