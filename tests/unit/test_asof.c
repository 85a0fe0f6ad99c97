/*
 * test_asof.c - the AS-OF join kernel (src/exec/asof.c) against a brute-force oracle.
 *
 * Fixed cases first (the spec's worked examples, ties, WITHIN at the bound, int64 extremes),
 * then a randomized differential test: thousands of generated inputs (sizes 0..300, one or up
 * to 50 partitions, small value ranges for frequent ties, full-range and extreme int64 values,
 * invalid rows on both sides, random and pre-sorted orders), each run in all four directions,
 * both tie rules and a random WITHIN bound, through every algorithm, compared row by row with
 * an oracle that scans every right row for every left row; NEAREST likewise against an oracle
 * of its own (the smallest distance over every right row, its tie rules). AsofStats' sortedness is compared
 * with an independent check of the inputs. A few large inputs exercise the two-thread paths
 * and the out-of-cache radix sorts, checked on sampled rows and across algorithms.
 */
#include "exec/asof.h"
#include "check.h"

#include <stdlib.h>

#define NONE UINT32_MAX

static const AsofAlgo ALGOS[] = {ASOF_ALGO_AUTO, ASOF_ALGO_NESTED_LOOP, ASOF_ALGO_BINARY_SEARCH,
                                 ASOF_ALGO_MERGE};

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t rnd_below(uint64_t n) { return n ? rnd() % n : 0; }

typedef struct {
    size_t n;
    int64_t *val;
    uint32_t *part;     /* NULL: one partition */
    uint64_t *valid;    /* NULL: all valid */
} Side;

static bool is_valid(const Side *s, size_t i) {
    return !s->valid || ((s->valid[i >> 6] >> (i & 63)) & 1);
}

static uint32_t part_of(const Side *s, size_t i) { return s->part ? s->part[i] : 0; }

/* The oracle: scan every right row. Distances in 128-bit arithmetic. */
static uint32_t oracle_one(const Side *l, const Side *r, size_t i, AsofDir dir, bool ties_first,
                           bool has_within, int64_t within) {
    if (!is_valid(l, i)) return NONE;
    int64_t v = l->val[i];
    uint32_t best = NONE;
    int64_t bx = 0;
    bool backward = dir == ASOF_BACKWARD || dir == ASOF_BACKWARD_STRICT;
    for (size_t j = 0; j < r->n; j++) {
        if (!is_valid(r, j) || part_of(r, j) != part_of(l, i)) continue;
        int64_t x = r->val[j];
        bool q;
        switch (dir) {
        case ASOF_BACKWARD: q = x <= v; break;
        case ASOF_BACKWARD_STRICT: q = x < v; break;
        case ASOF_FORWARD: q = x >= v; break;
        default: q = x > v; break;
        }
        if (!q) continue;
        bool better = best == NONE || (backward ? x > bx : x < bx);
        bool tie = best != NONE && x == bx;
        if (better || (tie && !ties_first)) {
            best = (uint32_t)j;
            bx = x;
        }
    }
    if (best != NONE && has_within) {
        __int128 d = (__int128)v - (__int128)bx;
        if (d < 0) d = -d;
        if (d > (__int128)within) best = NONE;
    }
    return best;
}

/* The NEAREST oracle, independent of the two one-sided scans: among every right row of the
 * partition (an equal value only when dir is not strict) within the bound, the smallest
 * distance; equal distances go to the side dir names (backward: the smaller value); among rows
 * of that value, the first or last in input order. */
static uint32_t oracle_nearest(const Side *l, const Side *r, size_t i, AsofDir dir, bool ties_first,
                               bool has_within, int64_t within) {
    if (!is_valid(l, i)) return NONE;
    bool prefer_back = dir == ASOF_BACKWARD || dir == ASOF_BACKWARD_STRICT;
    bool exact = dir == ASOF_BACKWARD || dir == ASOF_FORWARD;
    __int128 v = l->val[i];
    uint32_t best = NONE;
    __int128 bd = 0, bx = 0;
    for (size_t j = 0; j < r->n; j++) {
        if (!is_valid(r, j) || part_of(r, j) != part_of(l, i)) continue;
        __int128 x = r->val[j];
        if (x == v && !exact) continue;
        __int128 d = x > v ? x - v : v - x;
        if (has_within && d > (__int128)within) continue;
        bool take;
        if (best == NONE || d < bd) take = true;
        else if (d > bd) take = false;
        else if (x != bx) take = prefer_back ? x < bx : x > bx;
        else take = !ties_first;
        if (take) {
            best = (uint32_t)j;
            bd = d;
            bx = x;
        }
    }
    return best;
}

static AsofSide as_kernel(const Side *s);

/* ---- k nearest ------------------------------------------------------------------------------- */

typedef struct {
    uint32_t row;
    __int128 d;
    int side;      /* 0 the preferred side, 1 the other */
    int64_t x;
} KCand;

static int kcand_cmp(const void *a, const void *b) {
    const KCand *p = a, *q = b;
    if (p->d != q->d) return p->d < q->d ? -1 : 1;
    if (p->side != q->side) return p->side - q->side;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* The k-nearest oracle for left row i: every admissible right row, ordered by distance, then
 * the preferred side, then input order; then cut to k rows (the last of a value first unless
 * ties_first) or, with ties_all, to the rows of the first k values. Writes rows and ranks, returns
 * their count. */
static size_t oracle_k(const Side *l, const Side *r, size_t i, const AsofKOptions *o, uint32_t *rows,
                       uint32_t *ranks) {
    if (!is_valid(l, i)) return 0;
    AsofDir dir = o->base.dir;
    bool prefer_back = dir == ASOF_BACKWARD || dir == ASOF_BACKWARD_STRICT;
    bool exact = dir == ASOF_BACKWARD || dir == ASOF_FORWARD;
    __int128 v = l->val[i];
    KCand *c = malloc((r->n + 1) * sizeof *c);
    size_t nc = 0;
    for (size_t j = 0; j < r->n; j++) {
        if (!is_valid(r, j) || part_of(r, j) != part_of(l, i)) continue;
        __int128 x = r->val[j];
        int side;   /* 0 backward, 1 forward */
        if (x < v) side = 0;
        else if (x > v) side = 1;
        else if (!exact) continue;
        else side = prefer_back ? 0 : 1;
        if (!o->base.nearest && side != (prefer_back ? 0 : 1)) continue;
        __int128 d = x > v ? x - v : v - x;
        if (o->base.has_within && d > (__int128)o->base.within) continue;
        c[nc++] = (KCand){(uint32_t)j, d, side == (prefer_back ? 0 : 1) ? 0 : 1, r->val[j]};
    }
    qsort(c, nc, sizeof *c, kcand_cmp);
    size_t n = 0;
    uint32_t groups = 0;
    for (size_t a = 0; a < nc;) {
        size_t b = a;
        while (b < nc && c[b].x == c[a].x) b++;
        if (o->ties_all) {
            if (groups == o->k) break;
            groups++;
            for (size_t t = a; t < b; t++) rows[n] = c[t].row, ranks[n++] = groups;
        } else {
            for (size_t t = 0; t < b - a && n < o->k; t++) {
                rows[n] = c[o->base.ties_first ? a + t : b - 1 - t].row;
                ranks[n] = (uint32_t)n + 1;
                n++;
            }
            if (n == o->k) break;
        }
        a = b;
    }
    free(c);
    return n;
}

static int n_k_cases;

static void check_k(const Side *l, const Side *r, const AsofKOptions *o, const char *what) {
    AsofSide kl = as_kernel(l), kr = as_kernel(r);
    AsofKOut out;
    RxError err;
    rx_error_clear(&err);
    CHECK(asof_k_join(&kl, &kr, o, &out, &err) == 0);
    uint32_t *rows = malloc((r->n + 1) * sizeof *rows), *ranks = malloc((r->n + 1) * sizeof *ranks);
    size_t j = 0;
    bool ok = true;
    for (size_t i = 0; i < l->n && ok; i++) {
        size_t w = oracle_k(l, r, i, o, rows, ranks);
        for (size_t t = 0; t < w && ok; t++, j++)
            ok = j < out.n && out.left[j] == i && out.right[j] == rows[t] && out.rank[j] == ranks[t];
        if (!ok)
            fprintf(stderr, "  %s: k %u dir %d nearest %d ties_first %d all %d: left row %zu differs\n", what,
                    o->k, (int)o->base.dir, o->base.nearest, o->base.ties_first, o->ties_all, i);
    }
    CHECK(ok && j == out.n);
    /* k = 1 without TIES(ALL) is the one-row join */
    if (o->k == 1 && !o->ties_all) {
        uint32_t *m = malloc((l->n + 1) * sizeof *m);
        AsofStats st;
        CHECK(asof_join(&kl, &kr, &o->base, m, &st, &err) == 0);
        size_t q = 0;
        for (size_t i = 0; i < l->n; i++) {
            if (m[i] == NONE) continue;
            CHECK(q < out.n && out.left[q] == i && out.right[q] == m[i]);
            q++;
        }
        CHECK(q == out.n);
        free(m);
    }
    n_k_cases++;
    free(rows);
    free(ranks);
    asof_k_free(&out);
}

/* Independent sortedness: the valid rows, in order, are grouped by partition (a partition
 * never reappears after another started) and non-decreasing within each group. */
static bool side_sorted(const Side *s, uint32_t n_parts) {
    bool *closed = calloc(n_parts + 1, 1);
    bool ok = true, have = false;
    uint32_t pp = 0;
    int64_t pv = 0;
    for (size_t i = 0; i < s->n && ok; i++) {
        if (!is_valid(s, i)) continue;
        uint32_t p = part_of(s, i);
        if (have && p == pp) {
            if (s->val[i] < pv) ok = false;
        } else {
            if (closed[p]) ok = false;
            if (have) closed[pp] = true;
        }
        have = true;
        pp = p;
        pv = s->val[i];
    }
    free(closed);
    return ok;
}

static int64_t gen_value(int dist) {
    static const int64_t extremes[] = {INT64_MIN, INT64_MIN + 1, -2, -1, 0, 1, 2,
                                       INT64_MAX - 1, INT64_MAX, INT64_MIN / 2, INT64_MAX / 2};
    switch (dist) {
    case 0: return (int64_t)rnd_below(4);
    case 1: return (int64_t)rnd_below(30);
    case 2: return (int64_t)rnd_below(2000) - 1000;
    case 3: return (int64_t)rnd();
    case 4:
        return rnd_below(3) ? extremes[rnd_below(RX_ARRAY_LEN(extremes))]
                            : (int64_t)rnd_below(5) - 2 + extremes[4 + rnd_below(3)];
    case 5: return 1700000000000000LL + (int64_t)rnd_below(1000000);
    default: return (int64_t)(rnd() >> 20) - (INT64_C(1) << 42); /* 44-bit range */
    }
}

typedef struct {
    uint32_t part;
    int64_t val;
    uint32_t key;    /* partition order for the grouped mode */
} Row;

static int cmp_part_val(const void *a, const void *b) {
    const Row *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->val != y->val) return x->val < y->val ? -1 : 1;
    return 0;
}
static int cmp_val(const void *a, const void *b) {
    const Row *x = a, *y = b;
    return x->val < y->val ? -1 : x->val > y->val;
}
static int cmp_val_desc(const void *a, const void *b) { return cmp_val(b, a); }

/* Reorders the valid rows of s in place (invalid rows keep their positions and contents):
 * mode 0 random (as generated), 1 sorted by (part, val), 2 grouped by partition in a random
 * partition order and sorted within, 3 sorted by val only, 4 sorted descending, 5 sorted by
 * (part, val) then a few adjacent swaps. */
static void order_side(Side *s, uint32_t n_parts, int mode) {
    if (mode == 0 || s->n == 0) return;
    Row *rows = malloc(s->n * sizeof *rows);
    uint32_t *perm = malloc((n_parts + 1) * sizeof *perm);
    for (uint32_t p = 0; p <= n_parts; p++) perm[p] = p;
    if (mode == 2)
        for (uint32_t p = n_parts; p > 1; p--) {
            uint32_t q = (uint32_t)rnd_below(p), t = perm[p - 1];
            perm[p - 1] = perm[q];
            perm[q] = t;
        }
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (is_valid(s, i)) {
            rows[k].part = part_of(s, i);
            rows[k].val = s->val[i];
            rows[k].key = perm[rows[k].part];
            k++;
        }
    qsort(rows, k, sizeof *rows, mode == 3 ? cmp_val : mode == 4 ? cmp_val_desc : cmp_part_val);
    if (mode == 5 && k > 1)
        for (int t = 0; t < 3; t++) {
            size_t a = rnd_below(k - 1);
            Row x = rows[a];
            rows[a] = rows[a + 1];
            rows[a + 1] = x;
        }
    k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (is_valid(s, i)) {
            s->val[i] = rows[k].val;
            if (s->part) s->part[i] = rows[k].part;
            k++;
        }
    free(rows);
    free(perm);
}

static void gen_side(Side *s, size_t n, bool parts, uint32_t n_parts, int dist, int invalid_pct) {
    s->n = n;
    s->val = malloc((n + 1) * sizeof *s->val);
    s->part = parts ? malloc((n + 1) * sizeof *s->part) : NULL;
    s->valid = NULL;
    /* Skewed partitions sometimes: most rows in a few. */
    bool skew = rnd_below(3) == 0;
    for (size_t i = 0; i < n; i++) {
        s->val[i] = gen_value(dist);
        if (parts) {
            uint32_t p = (uint32_t)rnd_below(n_parts);
            if (skew && rnd_below(4)) p = (uint32_t)rnd_below(n_parts < 3 ? n_parts : 3);
            s->part[i] = p;
        }
    }
    if (invalid_pct) {
        size_t words = (n + 63) / 64 + 1;
        s->valid = calloc(words, sizeof *s->valid);
        for (size_t i = 0; i < n; i++)
            if ((int)rnd_below(100) >= invalid_pct) s->valid[i >> 6] |= UINT64_C(1) << (i & 63);
    }
}

static void free_side(Side *s) {
    free(s->val);
    free(s->part);
    free(s->valid);
}

static AsofSide as_kernel(const Side *s) {
    AsofSide a = {s->val, s->n, s->valid, s->part};
    return a;
}

static int n_cases, n_runs;

/* Runs every algorithm on (l, r, opt) and compares with the oracle; checks AsofStats. */
static void check_case(const Side *l, const Side *r, AsofOptions opt, bool want_ls, bool want_rs,
                       const char *what) {
    uint32_t *want = malloc((l->n + 1) * sizeof *want);
    uint32_t *got = malloc((l->n + 1) * sizeof *got);
    for (size_t i = 0; i < l->n; i++)
        want[i] = opt.nearest ? oracle_nearest(l, r, i, opt.dir, opt.ties_first, opt.has_within, opt.within)
                              : oracle_one(l, r, i, opt.dir, opt.ties_first, opt.has_within, opt.within);
    AsofSide kl = as_kernel(l), kr = as_kernel(r);
    n_cases++;
    for (size_t a = 0; a < RX_ARRAY_LEN(ALGOS); a++) {
        opt.algo = ALGOS[a];
        RxError err;
        rx_error_clear(&err);
        AsofStats st;
        memset(got, 0xAB, (l->n + 1) * sizeof *got);
        int rc = asof_join(&kl, &kr, &opt, got, &st, &err);
        n_runs++;
        CHECK(rc == 0);
        size_t bad = l->n;
        for (size_t i = 0; i < l->n && bad == l->n; i++)
            if (got[i] != want[i]) bad = i;
        CHECK(bad == l->n);
        if (bad != l->n)
            fprintf(stderr, "  %s: algo %s dir %d%s ties_first %d within %s%lld n %zu m %zu parts %u:"
                    " row %zu got %u want %u\n", what, asof_algo_name(opt.algo), (int)opt.dir,
                    opt.nearest ? " nearest" : "",
                    opt.ties_first, opt.has_within ? "" : "off/", (long long)opt.within, l->n,
                    r->n, l->part ? opt.n_parts : 0, bad, got[bad], want[bad]);
        if (opt.algo != ASOF_ALGO_NESTED_LOOP) {
            CHECK(st.left_sorted == want_ls);
            CHECK(st.right_sorted == want_rs);
            if (st.left_sorted != want_ls || st.right_sorted != want_rs)
                fprintf(stderr, "  %s: stats sorted %d/%d want %d/%d\n", what, st.left_sorted,
                        st.right_sorted, want_ls, want_rs);
            if (opt.algo != ASOF_ALGO_AUTO) CHECK(st.algo == opt.algo);
            else CHECK(st.algo == ASOF_ALGO_MERGE || st.algo == ASOF_ALGO_BINARY_SEARCH);
        } else {
            CHECK(st.algo == ASOF_ALGO_NESTED_LOOP);
        }
    }
    free(want);
    free(got);
}

/* ---- fixed cases ------------------------------------------------------------------------------ */

static void run_fixed(const int64_t *lv, size_t n, const int64_t *rv, size_t m, AsofDir dir,
                      bool ties_first, bool has_within, int64_t within, const uint32_t *expect) {
    Side l = {n, (int64_t *)lv, NULL, NULL}, r = {m, (int64_t *)rv, NULL, NULL};
    AsofOptions opt = {dir, ties_first, has_within, within, 1, ASOF_ALGO_AUTO, false};
    for (size_t a = 0; a < RX_ARRAY_LEN(ALGOS); a++) {
        uint32_t got[16];
        RxError err;
        rx_error_clear(&err);
        AsofStats st;
        AsofSide kl = as_kernel(&l), kr = as_kernel(&r);
        opt.algo = ALGOS[a];
        CHECK(asof_join(&kl, &kr, &opt, got, &st, &err) == 0);
        CHECK(memcmp(got, expect, n * sizeof *got) == 0);
    }
}

static void test_fixed(void) {
    /* The slippage example: quotes 09:00, 09:05, 09:10; trades 09:03, 09:07, 09:12 (minutes). */
    int64_t q[] = {540, 545, 550}, t[] = {543, 547, 552};
    run_fixed(t, 3, q, 3, ASOF_BACKWARD, false, false, 0, (uint32_t[]){0, 1, 2});
    run_fixed(t, 3, q, 3, ASOF_FORWARD, false, false, 0, (uint32_t[]){1, 2, NONE});
    /* The staleness example: quotes 09:00, 09:08; trades 09:02, 09:07, 09:11; WITHIN 5 min. */
    int64_t q2[] = {540, 548}, t2[] = {542, 547, 551};
    run_fixed(t2, 3, q2, 2, ASOF_BACKWARD, false, true, 5, (uint32_t[]){0, NONE, 1});
    /* Ties: two quotes at the same instant. */
    int64_t q3[] = {545, 545}, t3[] = {547, 545, 544};
    run_fixed(t3, 3, q3, 2, ASOF_BACKWARD, false, false, 0, (uint32_t[]){1, 1, NONE});
    run_fixed(t3, 3, q3, 2, ASOF_BACKWARD, true, false, 0, (uint32_t[]){0, 0, NONE});
    run_fixed(t3, 3, q3, 2, ASOF_BACKWARD_STRICT, false, false, 0, (uint32_t[]){1, NONE, NONE});
    run_fixed(t3, 3, q3, 2, ASOF_FORWARD, false, false, 0, (uint32_t[]){NONE, 1, 1});
    run_fixed(t3, 3, q3, 2, ASOF_FORWARD, true, false, 0, (uint32_t[]){NONE, 0, 0});
    run_fixed(t3, 3, q3, 2, ASOF_FORWARD_STRICT, true, false, 0, (uint32_t[]){NONE, NONE, 0});
    /* WITHIN: equal to the bound is kept; no fallback to a farther row. */
    int64_t q4[] = {0, 10}, t4[] = {15, 16, 10};
    run_fixed(t4, 3, q4, 2, ASOF_BACKWARD, false, true, 5, (uint32_t[]){1, NONE, 1});
    run_fixed(t4, 3, q4, 2, ASOF_BACKWARD_STRICT, false, true, 5, (uint32_t[]){1, NONE, NONE});
    run_fixed(t4, 3, q4, 2, ASOF_BACKWARD_STRICT, false, true, 10, (uint32_t[]){1, 1, 0});
    /* Extremes: the distance INT64_MAX - INT64_MIN does not fit in int64. */
    int64_t q5[] = {INT64_MIN, INT64_MAX}, t5[] = {INT64_MAX, INT64_MIN, 0};
    run_fixed(t5, 3, q5, 2, ASOF_BACKWARD_STRICT, false, true, INT64_MAX, (uint32_t[]){NONE, NONE, NONE});
    int64_t t6[] = {-1, INT64_MAX};   /* -1 - INT64_MIN = INT64_MAX: at the bound */
    run_fixed(t6, 2, q5, 2, ASOF_BACKWARD_STRICT, false, true, INT64_MAX, (uint32_t[]){0, NONE});
    run_fixed(t6, 2, q5, 2, ASOF_BACKWARD_STRICT, false, true, INT64_MAX - 1, (uint32_t[]){NONE, NONE});
    run_fixed(t5, 3, q5, 2, ASOF_BACKWARD_STRICT, false, false, 0, (uint32_t[]){0, NONE, 0});
    run_fixed(t5, 3, q5, 2, ASOF_FORWARD_STRICT, false, true, INT64_MAX, (uint32_t[]){NONE, NONE, 1});
    run_fixed(t5, 3, q5, 2, ASOF_FORWARD, false, true, 0, (uint32_t[]){1, 0, NONE});
    /* Empty sides. */
    run_fixed(t, 3, q, 0, ASOF_BACKWARD, false, false, 0, (uint32_t[]){NONE, NONE, NONE});
    run_fixed(t, 0, q, 3, ASOF_BACKWARD, false, false, 0, (uint32_t[]){0});
    CHECK_STR(asof_algo_name(ASOF_ALGO_MERGE), "merge");
    CHECK_STR(asof_algo_name(ASOF_ALGO_BINARY_SEARCH), "binary_search");
}

/* ---- randomized differential test ---------------------------------------------------------- */

static int64_t gen_within(int dist) {
    switch (rnd_below(7)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (int64_t)rnd_below(4);
    case 3: return dist == 5 ? (int64_t)rnd_below(50000) : (int64_t)rnd_below(40);
    case 4: return INT64_C(1) << 62;
    case 5: return INT64_MAX;
    default: return (int64_t)(rnd() >> 1);
    }
}

static void test_random(int n_sets) {
    for (int set = 0; set < n_sets; set++) {
        rng_state = 0x1234567ULL * (uint64_t)(set + 1);
        size_t maxn = rnd_below(4) == 0 ? 12 : 301;
        size_t n = rnd_below(maxn), m = rnd_below(maxn);
        bool parts = rnd_below(3) != 0;
        uint32_t n_parts = parts ? 1 + (uint32_t)rnd_below(rnd_below(2) ? 5 : 50) : 1;
        int dist = (int)rnd_below(7);
        int inv_l = rnd_below(2) ? 0 : (int)rnd_below(60), inv_r = rnd_below(2) ? 0 : (int)rnd_below(60);
        Side l, r;
        gen_side(&l, n, parts, n_parts, dist, inv_l);
        gen_side(&r, m, parts, n_parts, rnd_below(8) ? dist : (int)rnd_below(7), inv_r);
        int mode_l = rnd_below(2) ? 0 : (int)rnd_below(6), mode_r = rnd_below(2) ? 0 : (int)rnd_below(6);
        order_side(&l, n_parts, mode_l);
        order_side(&r, n_parts, mode_r);
        bool ls = side_sorted(&l, n_parts), rs = side_sorted(&r, n_parts);
        if (mode_l == 1 || mode_l == 2) CHECK(ls);
        if (mode_r == 1 || mode_r == 2) CHECK(rs);
        char what[64];
        snprintf(what, sizeof what, "set %d", set);
        for (int near = 0; near < 2; near++)
            for (int d = 0; d < 4; d++)
                for (int tf = 0; tf < 2; tf++) {
                    AsofOptions opt = {(AsofDir)d, tf != 0, rnd_below(2) != 0, 0, n_parts, ASOF_ALGO_AUTO,
                                       near != 0};
                    if (opt.has_within) opt.within = gen_within(dist);
                    check_case(&l, &r, opt, ls, rs, what);
                    AsofKOptions ko = {opt, 1 + (uint32_t)rnd_below(rnd_below(2) ? 2 : 6), rnd_below(3) == 0};
                    check_k(&l, &r, &ko, what);
                }
        free_side(&l);
        free_side(&r);
    }
}

/* Large inputs: two threads, big partitions, out-of-cache radix passes. Checked on sampled
 * rows against the oracle and in full across algorithms. */
static void test_large(void) {
    static const struct { size_t n, m; uint32_t n_parts; int dist, mode_l, mode_r, inv; } C[] = {
        {80000, 60000, 1, 6, 0, 0, 0},        /* one partition, 44-bit range: packed */
        {60000, 80000, 0, 3, 0, 0, 5},        /* no partition ids, full 64-bit range */
        {100000, 100000, 100, 5, 0, 0, 0},    /* symbols x microseconds */
        {100000, 100000, 100, 5, 1, 1, 0},    /* pre-sorted: direct */
        {100000, 100000, 100, 5, 3, 3, 10},   /* time-ordered, symbols interleaved */
        {50000, 150000, 7, 1, 0, 1, 20},      /* frequent ties */
        {150000, 1000, 3, 4, 0, 0, 0},        /* extremes: unpacked keys */
    };
    for (size_t c = 0; c < RX_ARRAY_LEN(C); c++) {
        rng_state = 777 + c;
        Side l, r;
        bool parts = C[c].n_parts != 0;
        uint32_t np = parts ? C[c].n_parts : 1;
        gen_side(&l, C[c].n, parts, np, C[c].dist, C[c].inv);
        gen_side(&r, C[c].m, parts, np, C[c].dist, C[c].inv);
        order_side(&l, np, C[c].mode_l);
        order_side(&r, np, C[c].mode_r);
        bool ls = side_sorted(&l, np), rs = side_sorted(&r, np);
        AsofSide kl = as_kernel(&l), kr = as_kernel(&r);
        uint32_t *ref = malloc(l.n * sizeof *ref), *got = malloc(l.n * sizeof *got);
        for (int d = 0; d < 4; d++)
            for (int tf = 0; tf < 2; tf++) {
                if ((d + tf + (int)c) % 2) continue;   /* half of the combinations per input */
                bool hw = (d + (int)c) % 3 == 1;
                AsofOptions opt = {(AsofDir)d, tf != 0, hw, hw ? gen_within(C[c].dist) : 0, np,
                                   ASOF_ALGO_AUTO, (d + (int)c) % 4 < 2};
                RxError err;
                rx_error_clear(&err);
                AsofStats st;
                CHECK(asof_join(&kl, &kr, &opt, ref, &st, &err) == 0);
                CHECK(st.left_sorted == ls && st.right_sorted == rs);
                for (int s = 0; s < 6; s++) {
                    size_t i = rnd_below(l.n);
                    uint32_t w = opt.nearest ? oracle_nearest(&l, &r, i, opt.dir, opt.ties_first,
                                                              opt.has_within, opt.within)
                                             : oracle_one(&l, &r, i, opt.dir, opt.ties_first, opt.has_within,
                                                          opt.within);
                    CHECK(ref[i] == w);
                    if (ref[i] != w)
                        fprintf(stderr, "  large %zu dir %d tf %d: row %zu got %u want %u\n", c, d,
                                tf, i, ref[i], w);
                }
                for (int a = 2; a <= 3; a++) {
                    opt.algo = ALGOS[a];
                    CHECK(asof_join(&kl, &kr, &opt, got, &st, &err) == 0);
                    CHECK(memcmp(got, ref, l.n * sizeof *got) == 0);
                    CHECK(st.left_sorted == ls && st.right_sorted == rs);
                }
                n_cases++;
                n_runs += 3;
            }
        free(ref);
        free(got);
        free_side(&l);
        free_side(&r);
    }
}

/* Sort detection: ordered inputs say so, one swap undoes it, invalid rows do not count. */
static void test_sorted_stats(void) {
    int64_t v[] = {5, 1, 2, 9, 3, 3, 7};
    uint32_t p[] = {1, 0, 0, 0, 2, 2, 2};
    uint64_t valid = 0x7f & ~(UINT64_C(1) << 0);   /* row 0 (part 1, out of order) invalid */
    Side s = {7, v, p, &valid};
    AsofSide k = as_kernel(&s);
    AsofOptions opt = {ASOF_BACKWARD, false, false, 0, 3, ASOF_ALGO_AUTO, false};
    uint32_t out[7];
    RxError err;
    rx_error_clear(&err);
    AsofStats st;
    CHECK(asof_join(&k, &k, &opt, out, &st, &err) == 0);
    CHECK(st.left_sorted && st.right_sorted);
    CHECK(out[0] == NONE && out[1] == 1 && out[3] == 3 && out[5] == 5);
    valid = 0x7f;   /* row 0 valid: partition 1 before partition 0, still grouped */
    CHECK(asof_join(&k, &k, &opt, out, &st, &err) == 0);
    CHECK(st.left_sorted && st.right_sorted);
    v[2] = 0;       /* partition 0 now 1, 0, 9: not sorted */
    CHECK(asof_join(&k, &k, &opt, out, &st, &err) == 0);
    CHECK(!st.left_sorted && !st.right_sorted);
    CHECK(st.algo == ASOF_ALGO_MERGE || st.algo == ASOF_ALGO_BINARY_SEARCH);
    v[2] = 2;
    p[6] = 0;       /* partition 0 reappears after partition 2 */
    CHECK(asof_join(&k, &k, &opt, out, &st, &err) == 0);
    CHECK(!st.left_sorted);
    /* One partition, sorted by value. */
    int64_t w[] = {1, 2, 2, 3};
    Side s1 = {4, w, NULL, NULL};
    AsofSide k1 = as_kernel(&s1);
    opt.n_parts = 1;
    CHECK(asof_join(&k1, &k1, &opt, out, &st, &err) == 0);
    CHECK(st.left_sorted && st.right_sorted && st.algo == ASOF_ALGO_MERGE);
    CHECK(out[0] == 0 && out[1] == 2 && out[2] == 2 && out[3] == 3);
}

int main(int argc, char **argv) {
    int sets = argc > 1 ? atoi(argv[1]) : 600;
    test_fixed();
    test_sorted_stats();
    test_random(sets);
    test_large();
    printf("asof: %d cases, %d kernel runs, %d k-nearest cases\n", n_cases, n_runs, n_k_cases);
    return check_report("asof");
}
