/* The hot loop of Sigma Escape's computer player, in C.
 *
 * The same search as _Search in engine/sigma/ai.py (negamax, alpha-beta, iterative
 * deepening driven from Python, a transposition table, the same move order and the
 * same evaluation), node for node: the Python search stays the reference, and
 * tests/engine/test_sigma_native.py holds the two to the same values and the same node
 * counts. Only the representation differs: the table is a fixed grid of 64 x 64 cells,
 * one 64-bit word a row, with grid cell (0, 0) (the Nothing card) at row 32, bit 32;
 * cards are never laid within two cells of the grid's edge.
 *
 * Why C: Python's search reaches some tens of thousands of nodes a second, and the
 * positions Sigma Escape is decided in take millions to solve (docs/strength.md).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROWS 64
#define ORIGIN 32
#define LOW 2
#define HIGH 61
#define MAXA 128     /* usable or not, arrows showing per colour */
#define MAXC 32      /* distinct cards in a hand */
#define MAXAR 12     /* arrows on one card (a 3 x 3 box has 12 edges) */
#define MAXCELLS 9
#define MAXMOVES 2048
#define SEEN 8192    /* slots of the table that drops repeated placements */
#define WIN 1000.0
#define WHITE 0
#define BLACK 1
/* The deck's rules variants (engine/sigma/deck.py, RULES), as bits of Search.rules. */
#define RULE_OPEN 1 /* open-sides: a usable side faces a cell no card covers */
#define RULE_KEPT 2 /* kept-arrows: a card takes only the other colour's arrows */
#define RULE_BARE 4 /* bare-black: a white card may cover black cells without an arrow */

static const int DR[4] = {-1, 0, 1, 0};
static const int DC[4] = {0, 1, 0, -1};

typedef struct {
    int8_t n, na;
    int8_t dr[MAXCELLS], dc[MAXCELLS];
    int8_t ar[MAXAR], ac[MAXAR], ad[MAXAR];
    uint8_t id; /* equal ids: the same cells and arrows (Python's dedup key) */
    uint8_t rows[5]; /* the cells as row masks: bit dc + 2 of rows[dr + 2] (cover_of) */
} Shape;

typedef struct {
    uint64_t w[ROWS], b[ROWS], g[ROWS]; /* white, black, White's main group */
    uint16_t wa[MAXA], ba[MAXA];         /* arrows showing: (row * 64 + col) * 4 + dir, sorted */
    uint8_t nwa, nba;
    uint8_t hand[2][MAXC];
    uint8_t turn, passes;
    uint8_t lo, hi; /* rows that may hold a coloured cell */
} Node;

typedef struct {
    uint8_t card, side, arrow, d; /* card index, side number, arrow number (from 1) */
    uint8_t r, c;                 /* the anchor: the grid cell the card's arrow lies on */
} Move;

typedef struct {
    uint64_t key;
    double value;
    int16_t depth;
    int8_t flag;
    uint8_t used;
    uint8_t card, side, arrow;
} Entry;

typedef struct {
    PyObject_HEAD
    int ncards[2];
    int narrows[2][MAXC];
    Shape shape[2][MAXC][MAXAR][4];
    double weight[9];
    int rules; /* RULE_* bits */
    long long limit, nodes;
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    Entry *table;
    uint64_t mask; /* table slots - 1 */
    uint32_t stamp;
    uint32_t seen_stamp[SEEN];
    uint32_t seen_key[SEEN];
    jmp_buf out;
    int why; /* why the search jumped out: 1 budget, 2 too many placements */
    Node root;
    int nroot;
    Move roots[MAXMOVES];
} Search;

/* ---- hashing ------------------------------------------------------------------------ */

static uint64_t Z_CELL[2][ROWS * 64];
static uint64_t Z_ARROW[2][ROWS * 64 * 4];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t mix(uint64_t x) {
    return splitmix(&x);
}

static void init_zobrist(void) {
    uint64_t x = 0x5167A5C47E5ULL;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ROWS * 64; i++)
            Z_CELL[k][i] = splitmix(&x);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ROWS * 64 * 4; i++)
            Z_ARROW[k][i] = splitmix(&x);
}

static uint64_t hash_node(const Search *s, const Node *n) {
    uint64_t h = mix(((uint64_t)n->turn << 8) | n->passes);
    for (int r = n->lo; r <= n->hi; r++) {
        uint64_t x = n->w[r];
        while (x) {
            h ^= Z_CELL[0][r * 64 + __builtin_ctzll(x)];
            x &= x - 1;
        }
        x = n->b[r];
        while (x) {
            h ^= Z_CELL[1][r * 64 + __builtin_ctzll(x)];
            x &= x - 1;
        }
    }
    for (int i = 0; i < n->nwa; i++)
        h ^= Z_ARROW[0][n->wa[i]];
    for (int i = 0; i < n->nba; i++)
        h ^= Z_ARROW[1][n->ba[i]];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < s->ncards[k]; i++)
            h ^= mix(((uint64_t)(k * MAXC + i) << 16) | n->hand[k][i]) * 0x2545F4914F6CDD1DULL;
    return h;
}

/* ---- the table ------------------------------------------------------------------------ */

static int bit(const uint64_t *rows, int r, int c) {
    return (int)((rows[r] >> c) & 1);
}

/* Whether the side ``mark`` may be used by the rules variants: under open-sides only
 * when no card covers the cell it faces. */
static int usable(const Search *s, const Node *n, int mark) {
    if (!(s->rules & RULE_OPEN))
        return 1;
    int cell = mark >> 2, d = mark & 3;
    int r = (cell >> 6) + DR[d], c = (cell & 63) + DC[d];
    return !(((n->w[r] | n->b[r]) >> c) & 1);
}

/* White's main group: grow n->g (a part of it) through white cells. */
static void flood(Node *n) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++) {
            int from = pass ? n->hi : n->lo, to = pass ? n->lo - 1 : n->hi + 1;
            int step = pass ? -1 : 1;
            for (int r = from; r != to; r += step) {
                uint64_t x = n->g[r];
                uint64_t y = (x | n->g[r - 1] | n->g[r + 1]) & n->w[r];
                if (!y)
                    continue;
                for (;;) {
                    uint64_t z = (y | (y << 1) | (y >> 1)) & n->w[r];
                    if (z == y)
                        break;
                    y = z;
                }
                if (y != x) {
                    n->g[r] = y;
                    changed = 1;
                }
            }
        }
    }
}

static int blanks(const Node *n) {
    int total = 0;
    for (int r = n->lo - 1; r <= n->hi + 1; r++) {
        uint64_t g = n->g[r];
        uint64_t near = (g << 1) | (g >> 1) | n->g[r - 1] | n->g[r + 1];
        total += __builtin_popcountll(near & ~(n->w[r] | n->b[r]));
    }
    return total;
}

static int held(const Search *s, const Node *n, int seat) {
    int total = 0;
    for (int i = 0; i < s->ncards[seat]; i++)
        total += n->hand[seat][i];
    return total;
}

/* Black's reach (_reach): the 5 x 5 square around the cell each black arrow points
 * at, the cells one card laid there may cover. */
static void reach_of(const Search *s, const Node *n, int k, uint64_t *reach) {
    uint64_t square = (1ULL << (2 * k + 1)) - 1;
    memset(reach, 0, sizeof(uint64_t) * ROWS);
    for (int i = 0; i < n->nba; i++) {
        if (!usable(s, n, n->ba[i]))
            continue;
        int cell = n->ba[i] >> 2, d = n->ba[i] & 3;
        int r = (cell >> 6) + DR[d], c = (cell & 63) + DC[d];
        uint64_t row = c >= k ? square << (c - k) : square >> (k - c);
        for (int j = r - k; j <= r + k; j++)
            if (j >= 0 && j < ROWS)
                reach[j] |= row;
    }
}

/* The blank spaces Black can cover next turn (as _uncovered in ai.py; on ``blank``, the blank spaces
 * by row): every legal placement of a card it holds on one of its sides. A side whose
 * 5 x 5 square holds no blank space is skipped (its cards cover none), and a card's
 * cells are laid as row masks; only near Nothing or the grid's edge are its cells
 * checked one by one. */
static void cover_of(const Search *s, const Node *n, const uint64_t *blank, uint64_t *cover) {
    memset(cover, 0, sizeof(uint64_t) * ROWS);
    for (int i = 0; i < n->nba; i++) {
        if (!usable(s, n, n->ba[i]))
            continue;
        int d = n->ba[i] & 3, cell = n->ba[i] >> 2;
        int ar = (cell >> 6) + DR[d], ac = (cell & 63) + DC[d];
        if (ar - 2 < LOW || ar + 2 > HIGH || ac - 2 < LOW || ac + 2 > HIGH) {
            /* near the grid's edge (never in play): cell by cell */
            for (int card = 0; card < s->ncards[BLACK]; card++) {
                if (!n->hand[BLACK][card])
                    continue;
                for (int a = 0; a < s->narrows[BLACK][card]; a++) {
                    const Shape *sh = &s->shape[BLACK][card][a][d];
                    int ok = 1;
                    for (int k = 0; k < sh->n && ok; k++) {
                        int rr = ar + sh->dr[k], cc = ac + sh->dc[k];
                        ok = !(rr < LOW || rr > HIGH || cc < LOW || cc > HIGH
                               || (rr == ORIGIN && cc == ORIGIN));
                    }
                    if (ok)
                        for (int k = 0; k < sh->n; k++)
                            cover[ar + sh->dr[k]] |= 1ULL << (ac + sh->dc[k]);
                }
            }
            continue;
        }
        uint64_t any = 0;
        for (int j = ar - 2; j <= ar + 2; j++)
            any |= blank[j] >> (ac - 2);
        if (!(any & 31))
            continue;
        int nothing = ar - 2 <= ORIGIN && ORIGIN <= ar + 2 && ac - 2 <= ORIGIN
                      && ORIGIN <= ac + 2;
        for (int card = 0; card < s->ncards[BLACK]; card++) {
            if (!n->hand[BLACK][card])
                continue;
            for (int a = 0; a < s->narrows[BLACK][card]; a++) {
                const Shape *sh = &s->shape[BLACK][card][a][d];
                if (nothing && ((sh->rows[ORIGIN - ar + 2] >> (ORIGIN - ac + 2)) & 1))
                    continue;
                for (int j = 0; j < 5; j++)
                    cover[ar - 2 + j] |= (uint64_t)sh->rows[j] << (ac - 2);
            }
        }
    }
}

/* The evaluation for White, in the order _static sums it (same doubles). */
static double evaluate(const Search *s, const Node *n) {
    const double *w = s->weight;
    uint64_t reach[ROWS];
    reach_of(s, n, 2, reach);
    int far = 0, sides = 0, safe = 0, live = 0, bsides = n->nba;
    for (int r = n->lo - 1; r <= n->hi + 1; r++) {
        uint64_t g = n->g[r];
        uint64_t near = (g << 1) | (g >> 1) | n->g[r - 1] | n->g[r + 1];
        far += __builtin_popcountll(near & ~(n->w[r] | n->b[r]) & ~reach[r]);
    }
    for (int i = 0; i < n->nwa; i++) {
        int cell = n->wa[i] >> 2, d = n->wa[i] & 3;
        if (!bit(n->g, cell >> 6, cell & 63) || !usable(s, n, n->wa[i]))
            continue;
        sides++;
        int r = (cell >> 6) + DR[d], c = (cell & 63) + DC[d];
        safe += !((reach[r] >> c) & 1);
        live += !(((n->w[r] | n->b[r]) >> c) & 1);
    }
    if (s->rules & RULE_OPEN)
        for (int i = 0; i < n->nba; i++)
            bsides -= !usable(s, n, n->ba[i]);
    /* The blank spaces no card Black holds can cover next turn (_static). */
    int shut = 0;
    if (w[8] != 0.0) {
        uint64_t blank[ROWS], cover[ROWS];
        memset(blank, 0, sizeof blank);
        for (int r = n->lo - 1; r <= n->hi + 1; r++) {
            uint64_t g = n->g[r];
            uint64_t near = (g << 1) | (g >> 1) | n->g[r - 1] | n->g[r + 1];
            blank[r] = near & ~(n->w[r] | n->b[r]);
        }
        cover_of(s, n, blank, cover);
        for (int r = n->lo - 1; r <= n->hi + 1; r++)
            shut += __builtin_popcountll(blank[r] & ~cover[r]);
    }
    return w[0] * blanks(n) + w[1] * sides - w[2] * bsides
           - w[3] * held(s, n, BLACK) + w[4] * held(s, n, WHITE) + w[5] * far
           + w[6] * safe + w[7] * live + w[8] * shut;
}

/* Every legal placement of the seat to move, one per distinct result, in the order of
 * the game's notation (side, card, arrow). */
static int placements(Search *s, const Node *n, Move *out) {
    int turn = n->turn, count = 0, number = 0;
    const uint16_t *arrows = turn == WHITE ? n->wa : n->ba;
    int narrows = turn == WHITE ? n->nwa : n->nba;
    const uint64_t *black = n->b;
    uint64_t armed[ROWS]; /* under bare-black: the black cells a black arrow shows on */
    if (turn == WHITE && (s->rules & RULE_BARE)) {
        memset(armed, 0, sizeof armed);
        for (int i = 0; i < n->nba; i++) {
            int cell = n->ba[i] >> 2;
            armed[cell >> 6] |= 1ULL << (cell & 63);
        }
        black = armed;
    }
    uint32_t stamp = ++s->stamp;
    if (stamp == 0) { /* wrapped: forget every slot */
        memset(s->seen_stamp, 0, sizeof s->seen_stamp);
        stamp = s->stamp = 1;
    }
    for (int i = 0; i < narrows; i++) {
        int mark = arrows[i], d = mark & 3, cell = mark >> 2;
        int r = cell >> 6, c = cell & 63;
        if ((turn == WHITE && !bit(n->g, r, c)) || !usable(s, n, mark))
            continue;
        number++;
        int ar = r + DR[d], ac = c + DC[d];
        for (int card = 0; card < s->ncards[turn]; card++) {
            if (!n->hand[turn][card])
                continue;
            for (int a = 0; a < s->narrows[turn][card]; a++) {
                const Shape *sh = &s->shape[turn][card][a][d];
                int ok = 1;
                for (int k = 0; k < sh->n; k++) {
                    int rr = ar + sh->dr[k], cc = ac + sh->dc[k];
                    if (rr < LOW || rr > HIGH || cc < LOW || cc > HIGH
                        || (rr == ORIGIN && cc == ORIGIN)
                        || (turn == WHITE && bit(black, rr, cc))) {
                        ok = 0;
                        break;
                    }
                }
                if (!ok)
                    continue;
                uint32_t key = ((uint32_t)card << 24) | ((uint32_t)sh->id << 16)
                               | (uint32_t)(ar * 64 + ac);
                uint32_t slot = (key * 2654435761u) >> 19; /* SEEN = 2^13 */
                int dup = 0;
                while (s->seen_stamp[slot] == stamp) {
                    if (s->seen_key[slot] == key) {
                        dup = 1;
                        break;
                    }
                    slot = (slot + 1) & (SEEN - 1);
                }
                if (dup)
                    continue;
                s->seen_stamp[slot] = stamp;
                s->seen_key[slot] = key;
                if (count == MAXMOVES) {
                    s->why = 2;
                    longjmp(s->out, 1);
                }
                {
                    Move *m = &out[count++];
                    m->card = (uint8_t)card;
                    m->side = (uint8_t)number;
                    m->arrow = (uint8_t)(a + 1);
                    m->d = (uint8_t)d;
                    m->r = (uint8_t)ar;
                    m->c = (uint8_t)ac;
                }
            }
        }
    }
    return count;
}

static int drop_covered(uint16_t *arrows, int n, const uint64_t *rows, int r0) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int cell = arrows[i] >> 2, r = (cell >> 6) - r0;
        if (r >= 0 && r < 5 && ((rows[r] >> (cell & 63)) & 1))
            continue;
        arrows[kept++] = arrows[i];
    }
    return kept;
}

/* Add ``mark`` to the sorted ``arrows`` once: an edge holds one arrow of a colour. */
static int add_sorted(uint16_t *arrows, int n, uint16_t mark) {
    for (int j = 0; j < n; j++)
        if (arrows[j] == mark)
            return n;
    int i = n;
    while (i > 0 && arrows[i - 1] > mark) {
        arrows[i] = arrows[i - 1];
        i--;
    }
    arrows[i] = mark;
    return n + 1;
}

/* The node after a placement (before the end checks). */
static void child(const Search *s, const Node *n, const Move *m, Node *out) {
    int turn = n->turn;
    const Shape *sh = &s->shape[turn][m->card][m->arrow - 1][m->d];
    int r0 = m->r - 2;
    uint64_t rows[5] = {0, 0, 0, 0, 0};
    *out = *n;
    for (int k = 0; k < sh->n; k++)
        rows[m->r + sh->dr[k] - r0] |= 1ULL << (m->c + sh->dc[k]);
    /* Under kept-arrows a card takes only the other colour's arrows. */
    if (!(s->rules & RULE_KEPT) || turn == BLACK)
        out->nwa = (uint8_t)drop_covered(out->wa, out->nwa, rows, r0);
    if (!(s->rules & RULE_KEPT) || turn == WHITE)
        out->nba = (uint8_t)drop_covered(out->ba, out->nba, rows, r0);
    uint16_t *mine = turn == WHITE ? out->wa : out->ba;
    uint8_t *count = turn == WHITE ? &out->nwa : &out->nba;
    for (int k = 0; k < sh->na && *count < MAXA; k++) {
        int r = m->r + sh->ar[k], c = m->c + sh->ac[k];
        *count = (uint8_t)add_sorted(mine, *count, (uint16_t)(((r * 64 + c) << 2) | sh->ad[k]));
    }
    out->hand[turn][m->card]--;
    int lo = r0 < LOW ? LOW : r0, hi = r0 + 4 > HIGH ? HIGH : r0 + 4;
    if (lo < out->lo)
        out->lo = (uint8_t)lo;
    if (hi > out->hi)
        out->hi = (uint8_t)hi;
    int touches = 0;
    for (int i = 0; i < 5; i++) {
        int r = r0 + i;
        if (!rows[i])
            continue;
        if (turn == WHITE) {
            out->w[r] |= rows[i];
            out->b[r] &= ~rows[i]; /* black cells only under bare-black */
        } else {
            touches |= (out->g[r] & rows[i]) != 0;
            out->w[r] &= ~rows[i];
            out->b[r] |= rows[i];
        }
    }
    if (turn == WHITE) {
        /* The card meets the main group: grow the group through it. */
        out->g[m->r] |= 1ULL << m->c;
        flood(out);
    } else if (touches) {
        for (int r = out->lo; r <= out->hi; r++)
            out->g[r] = 0;
        out->g[ORIGIN] = 1ULL << ORIGIN;
        flood(out);
    }
    out->turn = (uint8_t)(1 - turn);
    out->passes = 0;
}

/* The end checks and automatic passes (_Search.settle): 1 with *result set (for
 * White) when the game is over; else 0, with the placements when asked for. */
static int settle(Search *s, Node *n, int want, double *result, Move *moves, int *count) {
    *count = 0;
    if (!blanks(n)) {
        *result = -WIN;
        return 1;
    }
    if (!held(s, n, WHITE) && !held(s, n, BLACK)) {
        *result = WIN;
        return 1;
    }
    if (!want)
        return 0;
    for (;;) {
        if (n->passes >= 2) {
            *result = WIN;
            return 1;
        }
        *count = placements(s, n, moves);
        if (*count)
            return 0;
        n->passes++;
        n->turn = (uint8_t)(1 - n->turn);
    }
}

/* ---- the search ------------------------------------------------------------------------ */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    double key;
    int index;
} Scored;

static int by_key(const void *a, const void *b) {
    const Scored *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

/* The moves best first for the mover by the static evaluation (_Search.ordered). */
static void order(Search *s, const Node *n, Move *moves, int count, double sign) {
    Scored scored[MAXMOVES];
    Move copy[MAXMOVES];
    Node kid;
    for (int i = 0; i < count; i++) {
        child(s, n, &moves[i], &kid);
        scored[i].key = blanks(&kid) ? -sign * evaluate(s, &kid) : sign * WIN;
        scored[i].index = i;
    }
    qsort(scored, (size_t)count, sizeof scored[0], by_key);
    memcpy(copy, moves, sizeof moves[0] * (size_t)count);
    for (int i = 0; i < count; i++)
        moves[i] = copy[scored[i].index];
}

/* The slot of ``key``: its own, else an empty one of its bucket of four, else the
 * shallowest (``*found`` says which). */
static Entry *probe(Search *s, uint64_t key, int *found) {
    Entry *bucket = &s->table[key & s->mask & ~(uint64_t)3];
    Entry *victim = NULL;
    *found = 0;
    for (int i = 0; i < 4; i++) {
        Entry *e = &bucket[i];
        if (e->used && e->key == key) {
            *found = 1;
            return e;
        }
        if (!victim || (victim->used && (!e->used || e->depth < victim->depth)))
            victim = e;
    }
    return victim;
}

/* Count a node; out of the budget or the time: jump out of the search. */
static inline void tick(Search *s) {
    s->nodes++;
    if (s->nodes > s->limit || (s->deadline > 0 && !(s->nodes & 127) && now() > s->deadline)) {
        s->why = 1;
        longjmp(s->out, 1);
    }
}

static double value(Search *s, const Node *from, int depth, double alpha, double beta, int ply) {
    tick(s);
    int turn = from->turn;
    Node n = *from;
    Move moves[MAXMOVES];
    int count;
    double result;
    int over = settle(s, &n, depth > 0, &result, moves, &count);
    if (n.turn != turn && !over) { /* the seat to move passed */
        s->nodes--;
        return -value(s, &n, depth, -beta, -alpha, ply);
    }
    double sign = turn == WHITE ? 1.0 : -1.0;
    if (over)
        return sign * (result > 0 ? result - ply : result + ply);
    if (depth <= 0)
        return sign * evaluate(s, &n);
    uint64_t key = hash_node(s, &n);
    int found;
    Entry *e = probe(s, key, &found);
    int first = -1;
    if (found) {
        if (e->depth >= depth && (e->flag == 0 || (e->flag > 0 && e->value >= beta)
                                  || (e->flag < 0 && e->value <= alpha)))
            return e->value;
        for (int i = 0; i < count; i++)
            if (moves[i].card == e->card && moves[i].side == e->side
                && moves[i].arrow == e->arrow) {
                first = i;
                break;
            }
    }
    /* The table's move first, the others in their static order: the same order as
     * sorting all and moving it to the front, but the sort is only paid for when the
     * table's move does not cut (most nodes of a deep search cut on it). */
    Move tt = moves[0];
    if (first >= 0) {
        tt = moves[first];
        memmove(&moves[first], &moves[first + 1], sizeof moves[0] * (size_t)(count - first - 1));
        count--;
    }
    double alpha0 = alpha, best = -2 * WIN;
    Move best_move = tt;
    Node kid;
    int cut = 0;
    if (first >= 0) {
        child(s, &n, &tt, &kid);
        best = -value(s, &kid, depth - 1, -beta, -alpha, ply + 1);
        if (best > alpha) {
            alpha = best;
            cut = alpha >= beta;
        }
    }
    if (!cut) {
        if (depth >= 2)
            order(s, &n, moves, count, sign);
        for (int i = 0; i < count; i++) {
            child(s, &n, &moves[i], &kid);
            double v = -value(s, &kid, depth - 1, -beta, -alpha, ply + 1);
            if (v > best) {
                best = v;
                best_move = moves[i];
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        }
    }
    /* The bucket may have changed below: look the slot up again. */
    e = probe(s, key, &found);
    e->key = key;
    e->used = 1;
    e->depth = (int16_t)depth;
    e->value = best;
    e->flag = (int8_t)(best <= alpha0 ? -1 : best >= beta ? 1 : 0);
    e->card = best_move.card;
    e->side = best_move.side;
    e->arrow = best_move.arrow;
    return best;
}

/* ---- the natural-reply look-ahead (_Search.natural) ------------------------------------ */

static double nat_mine(Search *s, const Node *from, int looks, double sign, int width);

/* After the mover's placement: the opponent's natural reply, then the mover again. */
static double nat_reply(Search *s, const Node *from, int looks, double sign, int width) {
    tick(s);
    Node n = *from;
    Move moves[MAXMOVES];
    int count;
    double result;
    if (settle(s, &n, 1, &result, moves, &count))
        return sign * result;
    double mover = n.turn == WHITE ? 1.0 : -1.0;
    if (mover == sign) /* the opponent passed */
        return nat_mine(s, &n, looks, sign, width);
    order(s, &n, moves, count, mover);
    Node kid;
    child(s, &n, &moves[0], &kid);
    return nat_mine(s, &kid, looks, sign, width);
}

/* The mover to play with ``looks`` placements left to look at: its best. */
static double nat_mine(Search *s, const Node *from, int looks, double sign, int width) {
    tick(s);
    Node n = *from;
    Move moves[MAXMOVES];
    int count;
    double result;
    if (settle(s, &n, looks > 0, &result, moves, &count))
        return sign * result;
    if (looks <= 0)
        return sign * evaluate(s, &n);
    if ((n.turn == WHITE ? 1.0 : -1.0) != sign) /* the mover passed */
        return nat_reply(s, &n, looks, sign, width);
    if (width > 0 && count > width) { /* only the mover's best by the static order */
        order(s, &n, moves, count, sign);
        count = width;
    }
    double best = -2 * WIN;
    Node kid;
    for (int i = 0; i < count; i++) {
        child(s, &n, &moves[i], &kid);
        double v = nat_reply(s, &kid, looks - 1, sign, width);
        if (v > best)
            best = v;
    }
    return best;
}

/* ---- Python ------------------------------------------------------------------------ */

static int read_int(PyObject *item, long lo, long hi, long *out) {
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%ld is out of the native model's range", v);
        return -1;
    }
    *out = v;
    return 0;
}

/* A sequence of n-tuples of ints into flat longs; returns the count or -1. */
static Py_ssize_t read_tuples(PyObject *seq, int width, long lo, long hi, long *out,
                              Py_ssize_t most) {
    PyObject *fast = PySequence_Fast(seq, "a sequence");
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "more than the native model holds");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != width) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_TypeError, "a tuple of ints expected");
            return -1;
        }
        for (int k = 0; k < width; k++)
            if (read_int(PyTuple_GET_ITEM(t, k), lo, hi, &out[i * width + k]) < 0) {
                Py_DECREF(fast);
                return -1;
            }
    }
    Py_DECREF(fast);
    return n;
}

static void search_dealloc(Search *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Search(shapes, weights, limit, seconds, slots[, rules]): rules the RULE_* bits; shapes[seat][card][arrow][dir] =
 * (cells ((r, c), ...), arrows ((r, c, d), ...), id). */
static int search_init(Search *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *shapes, *weights;
    long long limit;
    double seconds;
    long slots;
    int rules = 0;
    if (!PyArg_ParseTuple(args, "OOLdl|i", &shapes, &weights, &limit, &seconds, &slots, &rules))
        return -1;
    if (rules < 0 || rules > (RULE_OPEN | RULE_KEPT | RULE_BARE)) {
        PyErr_SetString(PyExc_ValueError, "rules are RULE_* bits");
        return -1;
    }
    self->rules = rules;
    if (slots < 4 || (slots & (slots - 1)) || slots > (1L << 26)) {
        PyErr_SetString(PyExc_ValueError, "slots is a power of two from 4 to 2**26");
        return -1;
    }
    if (!PyArg_ParseTuple(weights, "ddddddddd", &self->weight[0], &self->weight[1],
                          &self->weight[2], &self->weight[3], &self->weight[4],
                          &self->weight[5], &self->weight[6], &self->weight[7],
                          &self->weight[8]))
        return -1;
    if (!PySequence_Check(shapes) || PySequence_Size(shapes) != 2) {
        PyErr_SetString(PyExc_ValueError, "shapes are given per seat");
        return -1;
    }
    for (int seat = 0; seat < 2; seat++) {
        PyObject *hand = PySequence_GetItem(shapes, seat);
        if (!hand)
            return -1;
        Py_ssize_t ncards = PySequence_Size(hand);
        if (ncards < 0 || ncards > MAXC) {
            Py_DECREF(hand);
            PyErr_SetString(PyExc_ValueError, "more distinct cards than the native model holds");
            return -1;
        }
        self->ncards[seat] = (int)ncards;
        for (Py_ssize_t card = 0; card < ncards; card++) {
            PyObject *arrows = PySequence_GetItem(hand, card);
            Py_ssize_t na = arrows ? PySequence_Size(arrows) : -1;
            if (na < 1 || na > MAXAR) {
                Py_XDECREF(arrows);
                Py_DECREF(hand);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a card has 1 to 12 arrows");
                return -1;
            }
            self->narrows[seat][card] = (int)na;
            for (Py_ssize_t a = 0; a < na; a++) {
                PyObject *dirs = PySequence_GetItem(arrows, a);
                for (int d = 0; d < 4; d++) {
                    PyObject *spec = dirs ? PySequence_GetItem(dirs, d) : NULL;
                    PyObject *cells, *marks;
                    long ident, flat[MAXAR * 3];
                    Shape *sh = &self->shape[seat][card][a][d];
                    Py_ssize_t nc = -1, nm = -1;
                    if (spec && PyArg_ParseTuple(spec, "OOl", &cells, &marks, &ident)) {
                        nc = read_tuples(cells, 2, -2, 2, flat, MAXCELLS);
                        if (nc >= 1) {
                            sh->n = (int8_t)nc;
                            memset(sh->rows, 0, sizeof sh->rows);
                            for (Py_ssize_t k = 0; k < nc; k++) {
                                sh->dr[k] = (int8_t)flat[2 * k];
                                sh->dc[k] = (int8_t)flat[2 * k + 1];
                                sh->rows[sh->dr[k] + 2] |= (uint8_t)(1u << (sh->dc[k] + 2));
                            }
                            nm = read_tuples(marks, 3, -3, 3, flat, MAXAR);
                        }
                        if (nm >= 0) {
                            sh->na = (int8_t)nm;
                            for (Py_ssize_t k = 0; k < nm; k++) {
                                sh->ar[k] = (int8_t)flat[3 * k];
                                sh->ac[k] = (int8_t)flat[3 * k + 1];
                                sh->ad[k] = (int8_t)(flat[3 * k + 2] & 3);
                            }
                            sh->id = (uint8_t)(ident & 0xFF);
                        }
                    }
                    Py_XDECREF(spec);
                    if (nc < 1 || nm < 0) {
                        Py_XDECREF(dirs);
                        Py_DECREF(arrows);
                        Py_DECREF(hand);
                        if (!PyErr_Occurred())
                            PyErr_SetString(PyExc_ValueError, "a shape without cells");
                        return -1;
                    }
                }
                Py_XDECREF(dirs);
            }
            Py_DECREF(arrows);
        }
        Py_DECREF(hand);
    }
    free(self->table);
    self->table = calloc((size_t)slots, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->mask = (uint64_t)slots - 1;
    self->limit = limit;
    self->nodes = 0;
    self->deadline = seconds > 0 ? now() + seconds : 0;
    self->stamp = 0;
    memset(self->seen_stamp, 0, sizeof self->seen_stamp);
    self->nroot = 0;
    return 0;
}

static PyObject *move_tuple(const Move *m) {
    return Py_BuildValue("(iii)", m->card, m->side, m->arrow);
}

/* start(white, black, white_arrows, black_arrows, hands, turn, passes): the root after
 * the end checks and passes, as (turn, result or None, placements best first by the
 * static order); cells (r, c) and arrows (r, c, d) in the game's coordinates. */
static PyObject *search_start(Search *self, PyObject *args) {
    PyObject *white, *black, *wa, *ba, *hands;
    int turn, passes;
    if (!PyArg_ParseTuple(args, "OOOOOii", &white, &black, &wa, &ba, &hands, &turn, &passes))
        return NULL;
    if (turn < 0 || turn > 1 || passes < 0 || passes > 2) {
        PyErr_SetString(PyExc_ValueError, "turn is 0 or 1, passes 0 to 2");
        return NULL;
    }
    Node *n = &self->root;
    memset(n, 0, sizeof *n);
    long flat[ROWS * 64 * 3];
    int lo = ORIGIN, hi = ORIGIN;
    for (int colour = 0; colour < 2; colour++) {
        Py_ssize_t k = read_tuples(colour ? black : white, 2, LOW - ORIGIN, HIGH - ORIGIN, flat,
                                   ROWS * 64);
        if (k < 0)
            return NULL;
        for (Py_ssize_t i = 0; i < k; i++) {
            int r = (int)flat[2 * i] + ORIGIN, c = (int)flat[2 * i + 1] + ORIGIN;
            (colour ? n->b : n->w)[r] |= 1ULL << c;
            if (r < lo)
                lo = r;
            if (r > hi)
                hi = r;
        }
        k = read_tuples(colour ? ba : wa, 3, -ORIGIN, ORIGIN - 1, flat, MAXA);
        if (k < 0)
            return NULL;
        uint16_t *out = colour ? n->ba : n->wa;
        for (Py_ssize_t i = 0; i < k; i++) {
            int r = (int)flat[3 * i] + ORIGIN, c = (int)flat[3 * i + 1] + ORIGIN;
            out[i] = (uint16_t)(((r * 64 + c) << 2) | (flat[3 * i + 2] & 3));
        }
        *(colour ? &n->nba : &n->nwa) = (uint8_t)k;
        /* sorted, as the Python model keeps them */
        for (Py_ssize_t i = 1; i < k; i++)
            add_sorted(out, (int)i, out[i]);
    }
    if (!bit(n->w, ORIGIN, ORIGIN)) {
        PyErr_SetString(PyExc_ValueError, "the Nothing cell is not white");
        return NULL;
    }
    n->lo = (uint8_t)lo;
    n->hi = (uint8_t)hi;
    for (int seat = 0; seat < 2; seat++) {
        PyObject *hand = PySequence_GetItem(hands, seat);
        if (!hand)
            return NULL;
        PyObject *fast = PySequence_Fast(hand, "a hand is a sequence of counts");
        Py_DECREF(hand);
        if (!fast)
            return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != self->ncards[seat]) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a hand does not match the deck");
            return NULL;
        }
        for (int i = 0; i < self->ncards[seat]; i++) {
            long v;
            if (read_int(PySequence_Fast_GET_ITEM(fast, i), 0, 255, &v) < 0) {
                Py_DECREF(fast);
                return NULL;
            }
            n->hand[seat][i] = (uint8_t)v;
        }
        Py_DECREF(fast);
    }
    n->turn = (uint8_t)turn;
    n->passes = (uint8_t)passes;
    n->g[ORIGIN] = 1ULL << ORIGIN;
    flood(n);
    double result = 0;
    int count = 0, over = 0;
    if (setjmp(self->out)) {
        PyErr_SetString(PyExc_ValueError, "more placements than the native model holds");
        return NULL;
    }
    over = settle(self, n, 1, &result, self->roots, &count);
    self->nroot = over ? 0 : count;
    if (!over)
        order(self, n, self->roots, count, n->turn == WHITE ? 1.0 : -1.0);
    PyObject *list = PyList_New(self->nroot);
    if (!list)
        return NULL;
    for (int i = 0; i < self->nroot; i++) {
        PyObject *t = move_tuple(&self->roots[i]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    PyObject *res = over ? PyFloat_FromDouble(result) : Py_NewRef(Py_None);
    return Py_BuildValue("(iNN)", n->turn, res, list);
}

/* The root placements named by ``indices`` (into start()'s list) into ``flat``: their
 * count, or -1 with the error set. */
static Py_ssize_t read_indices(Search *self, PyObject *indices, long *flat) {
    PyObject *fast = PySequence_Fast(indices, "indices are a sequence");
    Py_ssize_t k = fast ? PySequence_Fast_GET_SIZE(fast) : -1;
    if (fast && k > self->nroot) {
        PyErr_SetString(PyExc_ValueError, "more indices than root placements");
        k = -1;
    }
    for (Py_ssize_t i = 0; i < k; i++)
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), 0, self->nroot - 1, &flat[i]) < 0) {
            k = -1;
            break;
        }
    Py_XDECREF(fast);
    return k;
}

/* values(indices, depth, margin[, window]): the negamax value of each root placement
 * (indices into start()'s list), searched in that order with the window
 * _Search.values uses, or each within (-window, window) (only the sign is sure then:
 * an exact solve asks won or lost); None when the node budget or the time ran out. */
static PyObject *search_values(Search *self, PyObject *args) {
    PyObject *indices;
    int depth;
    double margin, window = 0;
    if (!PyArg_ParseTuple(args, "Oid|d", &indices, &depth, &margin, &window))
        return NULL;
    if (depth < 1 || depth > 100) {
        PyErr_SetString(PyExc_ValueError, "depth is 1 to 100");
        return NULL;
    }
    double *values = malloc(sizeof(double) * (size_t)(self->nroot + 1));
    if (!values)
        return PyErr_NoMemory();
    long flat[MAXMOVES];
    Py_ssize_t k = read_indices(self, indices, flat);
    if (k < 0) {
        free(values);
        return NULL;
    }
    volatile int stop = 0;
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(self->out)) {
        stop = self->why;
    } else {
        double best = -2 * WIN;
        Node kid;
        for (Py_ssize_t i = 0; i < k; i++) {
            child(self, &self->root, &self->roots[flat[i]], &kid);
            double v = window > 0 ? -value(self, &kid, depth - 1, -window, window, 1)
                                  : -value(self, &kid, depth - 1, -2 * WIN,
                                           -(best - margin - 1e-9), 1);
            values[i] = v;
            if (v > best)
                best = v;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (stop == 2) {
        PyErr_SetString(PyExc_ValueError, "more placements than the native model holds");
    } else if (stop) {
        out = Py_NewRef(Py_None);
    } else if ((out = PyList_New(k))) {
        for (Py_ssize_t i = 0; i < k; i++)
            PyList_SET_ITEM(out, i, PyFloat_FromDouble(values[i]));
    }
    free(values);
    return out;
}

/* natural(indices, looks[, width]): each root placement's value for the mover when the
 * opponent answers each placement with its natural reply (the mover's later placements:
 * its best ``width`` by the static order, 0: all); None on the budget. */
static PyObject *search_natural(Search *self, PyObject *args) {
    PyObject *indices;
    int looks, width = 0;
    if (!PyArg_ParseTuple(args, "Oi|i", &indices, &looks, &width))
        return NULL;
    if (looks < 1 || looks > 4 || width < 0) {
        PyErr_SetString(PyExc_ValueError, "looks is 1 to 4, width 0 or more");
        return NULL;
    }
    long flat[MAXMOVES];
    double values[MAXMOVES];
    Py_ssize_t k = read_indices(self, indices, flat);
    if (k < 0)
        return NULL;
    volatile int stop = 0;
    double sign = self->root.turn == WHITE ? 1.0 : -1.0;
    Py_BEGIN_ALLOW_THREADS
    if (setjmp(self->out)) {
        stop = self->why;
    } else {
        Node kid;
        for (Py_ssize_t i = 0; i < k; i++) {
            child(self, &self->root, &self->roots[flat[i]], &kid);
            values[i] = nat_reply(self, &kid, looks - 1, sign, width);
        }
    }
    Py_END_ALLOW_THREADS
    if (stop == 2) {
        PyErr_SetString(PyExc_ValueError, "more placements than the native model holds");
        return NULL;
    }
    if (stop)
        return Py_NewRef(Py_None);
    PyObject *out = PyList_New(k);
    for (Py_ssize_t i = 0; out && i < k; i++)
        PyList_SET_ITEM(out, i, PyFloat_FromDouble(values[i]));
    return out;
}

static PyObject *search_nodes(Search *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyMethodDef search_methods[] = {
    {"start", (PyCFunction)search_start, METH_VARARGS, "Set the root; its placements."},
    {"values", (PyCFunction)search_values, METH_VARARGS, "Values of root placements."},
    {"natural", (PyCFunction)search_natural, METH_VARARGS, "Against natural replies."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef search_getset[] = {
    {"nodes", (getter)search_nodes, NULL, "Nodes searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.sigma._native.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Sigma Escape's search over one root (see engine/sigma/native.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
    .tp_getset = search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Sigma Escape's search in C.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_zobrist();
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
