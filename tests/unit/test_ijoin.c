/*
 * test_ijoin.c - the interval-join kernel (src/exec/ijoin.c) against its oracle.
 *
 * Differential: for every relation, random inputs with small key ranges (so shared endpoints,
 * empty and inverted intervals and duplicates are frequent), random invalid rows and random
 * partition ids are joined with IJ_ALGO_AUTO, IJ_ALGO_FAST and IJ_ALGO_NESTED_LOOP and compared
 * pair by pair, order included, with a brute-force loop over ij_holds. Fixed cases: the spec's
 * diagrams and worked examples, names, converses, and the boundary keys INT64_MIN / INT64_MAX.
 */
#include "exec/ijoin.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t rng_below(Rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }

typedef struct {
    int64_t *s, *e;
    uint64_t *valid;
    uint32_t *part;
    size_t n;
} Side;

static const int64_t extremes[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};

static int64_t rand_key(Rng *g, int64_t base, uint64_t range, bool wild) {
    if (wild && rng_below(g, 8) == 0) return extremes[rng_below(g, RX_ARRAY_LEN(extremes))];
    return base + (int64_t)rng_below(g, range);
}

static void gen_side(Rng *g, Side *x, size_t n, int64_t base, uint64_t range, bool wild,
                     bool with_valid, uint32_t n_parts) {
    x->n = n;
    x->s = malloc((n ? n : 1) * sizeof *x->s);
    x->e = malloc((n ? n : 1) * sizeof *x->e);
    x->valid = NULL;
    x->part = NULL;
    int shape = (int)rng_below(g, 3);
    for (size_t i = 0; i < n; i++) {
        int64_t s = rand_key(g, base, range, wild), e;
        if (shape == 0 || rng_below(g, 4) == 0) e = rand_key(g, base, range, wild);
        else if (s < INT64_MAX - 16) e = s + (int64_t)rng_below(g, range / 2 + 2);
        else e = s;
        x->s[i] = s;
        x->e[i] = e;
    }
    if (with_valid) {
        size_t words = (n + 63) / 64;
        x->valid = malloc((words ? words : 1) * sizeof *x->valid);
        for (size_t w = 0; w < words; w++) x->valid[w] = rng_next(g) | rng_next(g);
    }
    if (n_parts) {
        x->part = malloc((n ? n : 1) * sizeof *x->part);
        for (size_t i = 0; i < n; i++) x->part[i] = (uint32_t)rng_below(g, n_parts);
    }
}

static void free_side(Side *x) {
    free(x->s);
    free(x->e);
    free(x->valid);
    free(x->part);
}

static IjSide as_ij(const Side *x) {
    IjSide s = {x->s, x->e, x->n, x->valid, x->part};
    return s;
}

static bool valid_row(const Side *x, size_t i) {
    return !x->valid || ((x->valid[i >> 6] >> (i & 63)) & 1);
}

/* The oracle: every valid pair of equal partition, in (left, right) order. */
static void brute(IjRelation rel, const Side *l, const Side *r, IjPairs *p) {
    size_t cap = 64;
    p->left = malloc(cap * sizeof *p->left);
    p->right = malloc(cap * sizeof *p->right);
    p->n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (!valid_row(l, i)) continue;
        for (size_t j = 0; j < r->n; j++) {
            if (!valid_row(r, j)) continue;
            if ((l->part ? l->part[i] : 0) != (r->part ? r->part[j] : 0)) continue;
            if (!ij_holds(rel, l->s[i], l->e[i], r->s[j], r->e[j])) continue;
            if (p->n == cap) {
                cap *= 2;
                p->left = realloc(p->left, cap * sizeof *p->left);
                p->right = realloc(p->right, cap * sizeof *p->right);
            }
            p->left[p->n] = (uint32_t)i;
            p->right[p->n] = (uint32_t)j;
            p->n++;
        }
    }
    p->cap = cap;
}

static bool same_pairs(const IjPairs *a, const IjPairs *b) {
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->left[i] != b->left[i] || a->right[i] != b->right[i]) return false;
    return true;
}

static int n_failed_cases;

/* Joins with every algorithm and compares with the oracle; one check per algorithm. */
static void check_case(IjRelation rel, const Side *l, const Side *r, uint32_t n_parts,
                       uint64_t seed) {
    IjPairs want = {0};
    brute(rel, l, r, &want);
    static const IjAlgo algos[] = {IJ_ALGO_AUTO, IJ_ALGO_FAST, IJ_ALGO_NESTED_LOOP};
    IjSide L = as_ij(l), R = as_ij(r);
    for (size_t a = 0; a < RX_ARRAY_LEN(algos); a++) {
        IjOptions opt = {algos[a], n_parts, 0};
        IjPairs got = {0};
        RxError err = {0};
        int rc = ij_join(rel, &L, &R, &opt, &got, &err);
        bool ok = rc == 0 && same_pairs(&got, &want);
        CHECK(ok);
        if (!ok && n_failed_cases++ < 400)
            fprintf(stderr, "  %s algo %d seed %llu: n=%zu m=%zu got %zu pairs want %zu (rc %d)\n",
                    ij_relation_name(rel), (int)algos[a], (unsigned long long)seed, l->n, r->n,
                    got.n, want.n, rc);
        ij_pairs_free(&got);
    }
    /* The converse with the sides swapped gives the same pairs. */
    IjOptions opt = {IJ_ALGO_FAST, n_parts, 0};
    IjPairs conv = {0};
    RxError err = {0};
    if (ij_join(ij_converse(rel), &R, &L, &opt, &conv, &err) == 0 && conv.n == want.n) {
        size_t hits = 0;
        for (size_t i = 0; i < conv.n; i++)
            if (ij_holds(rel, l->s[conv.right[i]], l->e[conv.right[i]], r->s[conv.left[i]],
                         r->e[conv.left[i]]))
                hits++;
        CHECK(hits == want.n);
    } else {
        CHECK(!"converse join differs in size");
    }
    ij_pairs_free(&conv);
    ij_pairs_free(&want);
}

static void random_cases(int per_relation) {
    for (int rel = 0; rel < IJ_N_RELATIONS; rel++) {
        for (int c = 0; c < per_relation; c++) {
            uint64_t seed = (uint64_t)rel * 1000003u + (uint64_t)c;
            Rng g = {seed};
            size_t n = (size_t)rng_below(&g, 201), m = (size_t)rng_below(&g, 201);
            if (rng_below(&g, 10) == 0) n = rng_below(&g, 4);
            uint64_t range = 2 + rng_below(&g, rng_below(&g, 2) ? 12 : 80);
            int64_t base = (int64_t)rng_below(&g, 20) - 10;
            bool wild = rng_below(&g, 6) == 0;
            bool with_valid = rng_below(&g, 3) == 0;
            uint32_t n_parts = rng_below(&g, 3) == 0 ? (uint32_t)(1 + rng_below(&g, 5)) : 0;
            Side l, r;
            gen_side(&g, &l, n, base, range, wild, with_valid, n_parts);
            gen_side(&g, &r, m, base, range, wild, with_valid && rng_below(&g, 2), n_parts);
            check_case((IjRelation)rel, &l, &r, n_parts, seed);
            free_side(&l);
            free_side(&r);
        }
    }
}

/* The oracle for a set of relations: every valid pair of equal partition for which some member
 * holds, once, in (left, right) order. */
static void brute_set(IjRelSet set, const Side *l, const Side *r, IjPairs *p) {
    size_t cap = 64;
    p->left = malloc(cap * sizeof *p->left);
    p->right = malloc(cap * sizeof *p->right);
    p->n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (!valid_row(l, i)) continue;
        for (size_t j = 0; j < r->n; j++) {
            if (!valid_row(r, j) || (l->part ? l->part[i] : 0) != (r->part ? r->part[j] : 0)) continue;
            bool any = false;
            for (int k = 0; k < IJ_N_RELATIONS; k++)
                any |= (set >> k & 1) && ij_holds((IjRelation)k, l->s[i], l->e[i], r->s[j], r->e[j]);
            if (!any) continue;
            if (p->n == cap) {
                cap *= 2;
                p->left = realloc(p->left, cap * sizeof *p->left);
                p->right = realloc(p->right, cap * sizeof *p->right);
            }
            p->left[p->n] = (uint32_t)i;
            p->right[p->n] = (uint32_t)j;
            p->n++;
        }
    }
    p->cap = cap;
}

/* Sets of relations (IJOIN (R1 | R2 | ...)): random sets of two members or more, the adjoining
 * pairs the docs name (PRECEDES | MEETS, ...) and all sixteen, over the random inputs of
 * random_cases, joined in one pass by every algorithm and compared with brute_set; the set's
 * name and its reduction to a single relation where one equals it. */
static void set_cases(int n_cases) {
    static const IjRelSet named[] = {
        IJ_SET_OF(IJ_PRECEDES) | IJ_SET_OF(IJ_MEETS),
        IJ_SET_OF(IJ_PRECEDED_BY) | IJ_SET_OF(IJ_MET_BY),
        IJ_SET_OF(IJ_OVERLAPS) | IJ_SET_OF(IJ_DURING) | IJ_SET_OF(IJ_STARTS),
        IJ_SET_OF(IJ_PRECEDES) | IJ_SET_OF(IJ_PRECEDED_BY),
        IJ_SET_OF(IJ_MEETS) | IJ_SET_OF(IJ_MET_BY) | IJ_SET_OF(IJ_EQUALS),
        IJ_SET_OF(IJ_INTERSECTS) | IJ_SET_OF(IJ_MEETS) | IJ_SET_OF(IJ_MET_BY),
        (IjRelSet)((1u << IJ_N_RELATIONS) - 1),
    };
    for (int c = 0; c < n_cases; c++) {
        uint64_t seed = 9000001u + (uint64_t)c;
        Rng g = {seed};
        IjRelSet set;
        if (c < (int)RX_ARRAY_LEN(named) * 8) {
            set = named[c % RX_ARRAY_LEN(named)];
        } else {
            do set = (IjRelSet)rng_below(&g, (uint64_t)1 << IJ_N_RELATIONS);
            while (__builtin_popcount(set) < 2);
        }
        size_t n = (size_t)rng_below(&g, 121), m = (size_t)rng_below(&g, 121);
        if (rng_below(&g, 10) == 0) n = rng_below(&g, 4);
        uint64_t range = 2 + rng_below(&g, rng_below(&g, 2) ? 12 : 80);
        int64_t base = (int64_t)rng_below(&g, 20) - 10;
        bool wild = rng_below(&g, 6) == 0, with_valid = rng_below(&g, 3) == 0;
        uint32_t n_parts = rng_below(&g, 3) == 0 ? (uint32_t)(1 + rng_below(&g, 5)) : 0;
        Side l, r;
        gen_side(&g, &l, n, base, range, wild, with_valid, n_parts);
        gen_side(&g, &r, m, base, range, wild, with_valid && rng_below(&g, 2), n_parts);
        IjPairs want = {0};
        brute_set(set, &l, &r, &want);
        IjSide L = as_ij(&l), R = as_ij(&r);
        static const IjAlgo algos[] = {IJ_ALGO_AUTO, IJ_ALGO_FAST, IJ_ALGO_NESTED_LOOP,
                                       IJ_ALGO_SET_SCAN, IJ_ALGO_SET_MEMBERS};
        for (size_t a = 0; a < RX_ARRAY_LEN(algos); a++) {
            IjOptions opt = {algos[a], n_parts, set};
            IjPairs got = {0};
            RxError err = {0};
            /* the relation argument is ignored with a set: pass one outside the enum */
            int rc = ij_join(IJ_N_RELATIONS, &L, &R, &opt, &got, &err);
            bool ok = rc == 0 && same_pairs(&got, &want);
            CHECK(ok);
            if (!ok && n_failed_cases++ < 400)
                fprintf(stderr, "  set 0x%x algo %d seed %llu: n=%zu m=%zu got %zu pairs want %zu (rc %d)\n",
                        (unsigned)set, (int)algos[a], (unsigned long long)seed, n, m, got.n, want.n, rc);
            ij_pairs_free(&got);
        }
        ij_pairs_free(&want);
        free_side(&l);
        free_side(&r);
    }
    /* Reductions: a set equal to one relation is that relation, for every four endpoints. */
    CHECK(ij_set_relation(IJ_SET_OF(IJ_MEETS)) == IJ_MEETS);
    CHECK(ij_set_relation(IJ_SET_OF(IJ_CONTAINS) | IJ_SET_OF(IJ_STARTED_BY) | IJ_SET_OF(IJ_FINISHED_BY) |
                          IJ_SET_OF(IJ_EQUALS)) == IJ_COVERS);
    CHECK(ij_set_relation(IJ_SET_OF(IJ_DURING) | IJ_SET_OF(IJ_STARTS) | IJ_SET_OF(IJ_FINISHES) |
                          IJ_SET_OF(IJ_EQUALS) | IJ_SET_OF(IJ_COVERED_BY)) == IJ_COVERED_BY);
    CHECK(ij_set_relation(IJ_SET_OF(IJ_PRECEDES) | IJ_SET_OF(IJ_MEETS)) == IJ_N_RELATIONS);
    /* INTERSECTS does not contain STARTS literally: [5, 3) STARTS [5, 9) but shares no time */
    CHECK(ij_set_relation(IJ_SET_OF(IJ_INTERSECTS) | IJ_SET_OF(IJ_STARTS)) == IJ_N_RELATIONS);
    CHECK(ij_set_relation(IJ_SET_OF(IJ_INTERSECTS) | IJ_SET_OF(IJ_OVERLAPS)) == IJ_INTERSECTS);
    char buf[64];
    CHECK(strcmp(ij_set_name(IJ_SET_OF(IJ_MEETS) | IJ_SET_OF(IJ_PRECEDES), buf, sizeof buf),
                 "(PRECEDES | MEETS)") == 0);
    CHECK(strlen(ij_set_name((IjRelSet)((1u << IJ_N_RELATIONS) - 1), buf, 16)) < 16);
}

/* The existence test of SEMI and ANTI (ij_exists): for every relation and for random sets, over
 * the random inputs of random_cases, each left row's flag must be whether the brute-force
 * oracle lists a pair for it, with the fast path and the reference loop. */
static void exists_cases(int per_relation) {
    for (int c = 0; c < per_relation * (IJ_N_RELATIONS + 4); c++) {
        uint64_t seed = 5000011u + (uint64_t)c;
        Rng g = {seed};
        IjRelation rel = (IjRelation)(c % (IJ_N_RELATIONS + 4));
        IjRelSet set = 0;
        if ((int)rel >= IJ_N_RELATIONS) {
            do set = (IjRelSet)rng_below(&g, (uint64_t)1 << IJ_N_RELATIONS);
            while (__builtin_popcount(set) < 2);
            rel = IJ_N_RELATIONS;
        }
        size_t n = (size_t)rng_below(&g, 121), m = (size_t)rng_below(&g, 121);
        if (rng_below(&g, 10) == 0) m = rng_below(&g, 4);
        uint64_t range = 2 + rng_below(&g, rng_below(&g, 2) ? 12 : 80);
        int64_t base = (int64_t)rng_below(&g, 20) - 10;
        bool wild = rng_below(&g, 6) == 0, with_valid = rng_below(&g, 3) == 0;
        uint32_t n_parts = rng_below(&g, 3) == 0 ? (uint32_t)(1 + rng_below(&g, 5)) : 0;
        Side l, r;
        gen_side(&g, &l, n, base, range, wild, with_valid, n_parts);
        gen_side(&g, &r, m, base, range, wild, with_valid && rng_below(&g, 2), n_parts);
        IjPairs want = {0};
        if (set) brute_set(set, &l, &r, &want);
        else brute(rel, &l, &r, &want);
        uint8_t *expect = calloc(n ? n : 1, 1), *hit = malloc(n ? n : 1);
        for (size_t k = 0; k < want.n; k++) expect[want.left[k]] = 1;
        IjSide L = as_ij(&l), R = as_ij(&r);
        static const IjAlgo algos[] = {IJ_ALGO_AUTO, IJ_ALGO_NESTED_LOOP};
        for (size_t a = 0; a < RX_ARRAY_LEN(algos); a++) {
            IjOptions opt = {algos[a], n_parts, set};
            RxError err = {0};
            memset(hit, 7, n ? n : 1);
            int rc = ij_exists(rel, &L, &R, &opt, hit, &err);
            bool ok = rc == 0 && (n == 0 || memcmp(hit, expect, n) == 0);
            CHECK(ok);
            if (!ok && n_failed_cases++ < 400)
                fprintf(stderr, "  exists %s set 0x%x algo %d seed %llu: n=%zu m=%zu (rc %d)\n",
                        ij_relation_name(rel), (unsigned)set, (int)algos[a], (unsigned long long)seed, n, m, rc);
        }
        free(expect);
        free(hit);
        ij_pairs_free(&want);
        free_side(&l);
        free_side(&r);
    }
}

/* Larger inputs: radix passes with wide digits, keys that need the two-stage sort, one side
 * partitioned into many small groups. */
static void large_cases(void) {
    for (int rel = 0; rel < IJ_N_RELATIONS; rel++) {
        for (int c = 0; c < 3; c++) {
            uint64_t seed = 77u + (uint64_t)rel * 31u + (uint64_t)c;
            Rng g = {seed};
            size_t n = 700, m = 600;
            uint64_t range = c == 0 ? 3000 : c == 1 ? ((uint64_t)1 << 62) : 200;
            int64_t base = c == 1 ? -((int64_t)1 << 61) : 5;
            uint32_t n_parts = c == 2 ? 150 : 0;
            Side l, r;
            gen_side(&g, &l, n, base, range, c == 1, c == 2, n_parts);
            gen_side(&g, &r, m, base, range, c == 1, false, n_parts);
            if (rel == IJ_PRECEDES || rel == IJ_PRECEDED_BY) {
                l.n = 300;
                r.n = 250;
            }
            check_case((IjRelation)rel, &l, &r, n_parts, seed);
            free_side(&l);
            free_side(&r);
        }
    }
}

/* Inputs large enough that the probes run in two halves (the engines split from 2 x 65,536 left
 * rows on), each half with room for its sampled share of one buffer: shares that hold, that
 * the first half, the second or both outgrow (every row of a block matching many right rows,
 * away from the sampled rows), for the endpoint and the range engines. */
static void halves_cases(void) {
    static const IjRelation rels[] = {IJ_MEETS, IJ_STARTS, IJ_EQUALS, IJ_OVERLAPS,
                                      IJ_OVERLAPPED_BY, IJ_INTERSECTS};
    for (size_t k = 0; k < RX_ARRAY_LEN(rels); k++) {
        for (int shape = 0; shape < 4; shape++) {
            Rng g = {900u + (uint64_t)k * 7u + (uint64_t)shape};
            size_t n = 140000, m = 48;
            Side l, r;
            gen_side(&g, &l, n, 0, 1, false, false, 0);
            gen_side(&g, &r, m, 0, 1, false, false, 0);
            /* Right rows: [10, 20 + j % 7) and a few [40, 50); most left rows match nothing. */
            for (size_t j = 0; j < m; j++) {
                r.s[j] = j % 8 == 0 ? 40 : 10;
                r.e[j] = j % 8 == 0 ? 50 : 20 + (int64_t)(j % 7);
            }
            for (size_t i = 0; i < n; i++) {
                /* shape 0: sparse (the guesses hold); 1: the first half's block is hot; 2: the
                 * second half's; 3: both. A hot row shares the right rows' start and end. */
                bool first = i < n / 2, hot = (i / 97) % 3 == 1;
                bool dense = hot && (shape == 3 || (shape == 1 && first) || (shape == 2 && !first));
                if (dense) {
                    l.s[i] = rels[k] == IJ_OVERLAPPED_BY ? 15 : rels[k] == IJ_OVERLAPS ? 5 : 10;
                    l.e[i] = rels[k] == IJ_MEETS ? 10 : 20 + (int64_t)(i % 9);
                } else {
                    l.s[i] = 1000 + (int64_t)(i % 5000);
                    l.e[i] = l.s[i] + (i % 1000 == 0 ? 0 : 1);
                    if (i % 1000 == 0) l.s[i] = 40, l.e[i] = rels[k] == IJ_MEETS ? 40 : 50;
                }
            }
            check_case(rels[k], &l, &r, 0, 900u + (uint64_t)k);
            free_side(&l);
            free_side(&r);
        }
    }
}

/* Both sides above 65,536 rows, where INTERSECTS' merges, scans, scatter and gather of the run
 * starts and fills, the dominance sweep's gathers (DURING, CONTAINS) and the assembly's copy and
 * run sort run in two halves. The oracle is windowed: every right row ends at most W past its
 * start, and at most V before it (inverted rows), so for INTERSECTS, DURING, CONTAINS and
 * OVERLAPS a matching right row starts in [min(ls, le) - W - 1, max(ls, le) + V + 1]; those
 * candidates are tested with ij_holds, the rest cannot match. Empty, inverted and invalid rows,
 * duplicates and partitions are in the cases. */
#define SWEEP_W 100
#define SWEEP_V 300

static const int64_t *sort_keys;
static int cmp_by_start(const void *a, const void *b) {
    int64_t x = sort_keys[*(const uint32_t *)a], y = sort_keys[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}
static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void windowed(IjRelation rel, const Side *l, const Side *r, IjPairs *p) {
    uint32_t *ord = malloc((r->n ? r->n : 1) * sizeof *ord);
    for (size_t j = 0; j < r->n; j++) ord[j] = (uint32_t)j;
    sort_keys = r->s;
    qsort(ord, r->n, sizeof *ord, cmp_by_start);
    size_t cap = 1024;
    p->left = malloc(cap * sizeof *p->left);
    p->right = malloc(cap * sizeof *p->right);
    p->n = 0;
    uint32_t *run = malloc(r->n * sizeof *run + 4);
    for (size_t i = 0; i < l->n; i++) {
        if (!valid_row(l, i)) continue;
        int64_t a = l->s[i] < l->e[i] ? l->s[i] : l->e[i], b = l->s[i] ^ l->e[i] ^ a;
        size_t lo = 0, hi = r->n, c = 0;
        while (lo < hi) {   /* first right row in start order with rs >= a - W - 1 */
            size_t mid = (lo + hi) / 2;
            if (r->s[ord[mid]] < a - SWEEP_W - 1) lo = mid + 1;
            else hi = mid;
        }
        for (size_t t = lo; t < r->n && r->s[ord[t]] <= b + SWEEP_V + 1; t++) {
            uint32_t j = ord[t];
            if (!valid_row(r, j)) continue;
            if ((l->part ? l->part[i] : 0) != (r->part ? r->part[j] : 0)) continue;
            if (ij_holds(rel, l->s[i], l->e[i], r->s[j], r->e[j])) run[c++] = j;
        }
        qsort(run, c, sizeof *run, cmp_u32);
        for (size_t t = 0; t < c; t++) {
            if (p->n == cap) {
                cap *= 2;
                p->left = realloc(p->left, cap * sizeof *p->left);
                p->right = realloc(p->right, cap * sizeof *p->right);
            }
            p->left[p->n] = (uint32_t)i;
            p->right[p->n] = run[t];
            p->n++;
        }
    }
    p->cap = cap;
    free(run);
    free(ord);
}

static void sweep_halves_cases(void) {
    static const IjRelation rels[] = {IJ_INTERSECTS, IJ_DURING, IJ_CONTAINS, IJ_OVERLAPS};
    for (int c = 0; c < 4; c++) {
      for (size_t k = 0; k < RX_ARRAY_LEN(rels); k++) {
        if (k && c == 1) continue;
        Rng g = {7000u + (uint64_t)c + 100u * k};
        size_t n = 150000 + (size_t)rng_below(&g, 1000), m = 140000 + (size_t)rng_below(&g, 1000);
        uint32_t n_parts = c == 3 ? 2 : 0;
        /* ~3 pairs per left row: starts over a span of 33 per row, lengths 1..100. */
        int64_t span = (int64_t)n * 33;
        Side l, r;
        gen_side(&g, &l, n, 0, 1, false, c >= 2, n_parts);
        gen_side(&g, &r, m, 0, 1, false, c >= 2, n_parts);
        for (size_t i = 0; i < n; i++) {
            l.s[i] = (int64_t)rng_below(&g, (uint64_t)span);
            uint64_t kind = rng_below(&g, 100);
            l.e[i] = l.s[i] + (kind == 0 ? 0 : kind == 1 && c ? -(int64_t)rng_below(&g, SWEEP_V + 1)
                                                             : 1 + (int64_t)rng_below(&g, 100));
            if (i % 5000 == 7) l.s[i] = l.s[i - 1], l.e[i] = l.e[i - 1];   /* duplicates */
        }
        for (size_t j = 0; j < m; j++) {
            r.s[j] = (int64_t)rng_below(&g, (uint64_t)span);
            uint64_t kind = rng_below(&g, 100);
            r.e[j] = r.s[j] + (kind == 0 ? 0 : kind == 1 && c ? -(int64_t)rng_below(&g, SWEEP_V + 1)
                                                             : 1 + (int64_t)rng_below(&g, SWEEP_W));
        }
        IjPairs want = {0};
        windowed(rels[k], &l, &r, &want);
        IjSide L = as_ij(&l), R = as_ij(&r);
        IjOptions opt = {IJ_ALGO_AUTO, n_parts, 0};
        IjPairs got = {0};
        RxError err = {0};
        int rc = ij_join(rels[k], &L, &R, &opt, &got, &err);
        bool ok = rc == 0 && want.n > n / 8 && same_pairs(&got, &want);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  halves case %s %d: got %zu pairs want %zu (rc %d)\n",
                    ij_relation_name(rels[k]), c, got.n, want.n, rc);
        ij_pairs_free(&got);
        ij_pairs_free(&want);
        free_side(&l);
        free_side(&r);
      }
    }
}

/* One pair of the spec's diagram for each base relation: exactly that relation holds. */
static void diagram_cases(void) {
    static const struct {
        IjRelation rel;
        int64_t ls, le, rs, re;
    } d[] = {
        {IJ_PRECEDES, 0, 4, 9, 13},    {IJ_PRECEDED_BY, 9, 13, 0, 4},
        {IJ_MEETS, 0, 6, 6, 12},       {IJ_MET_BY, 6, 12, 0, 6},
        {IJ_OVERLAPS, 0, 10, 6, 17},   {IJ_OVERLAPPED_BY, 6, 17, 0, 10},
        {IJ_STARTS, 0, 4, 0, 10},      {IJ_STARTED_BY, 0, 10, 0, 4},
        {IJ_DURING, 5, 9, 0, 13},      {IJ_CONTAINS, 0, 13, 5, 9},
        {IJ_FINISHES, 5, 11, 0, 11},   {IJ_FINISHED_BY, 0, 11, 5, 11},
        {IJ_EQUALS, 0, 10, 0, 10},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(d); i++) {
        int holding = 0;
        for (int rel = 1; rel <= IJ_EQUALS; rel++)
            if (ij_holds((IjRelation)rel, d[i].ls, d[i].le, d[i].rs, d[i].re)) {
                holding++;
                CHECK(rel == (int)d[i].rel);
            }
        CHECK(holding == 1);
        bool sharing = d[i].rel != IJ_PRECEDES && d[i].rel != IJ_PRECEDED_BY &&
                       d[i].rel != IJ_MEETS && d[i].rel != IJ_MET_BY;
        CHECK(ij_holds(IJ_INTERSECTS, d[i].ls, d[i].le, d[i].rs, d[i].re) == sharing);
        /* Through the kernel, the converse with the sides swapped. */
        int64_t ls = d[i].ls, le = d[i].le, rs = d[i].rs, re = d[i].re;
        IjSide L = {&ls, &le, 1, NULL, NULL}, R = {&rs, &re, 1, NULL, NULL};
        IjPairs p = {0}, q = {0};
        RxError err = {0};
        CHECK(ij_join(d[i].rel, &L, &R, NULL, &p, &err) == 0 && p.n == 1);
        CHECK(ij_join(ij_converse(d[i].rel), &R, &L, NULL, &q, &err) == 0 && q.n == 1);
        ij_pairs_free(&p);
        ij_pairs_free(&q);
    }
    /* Random proper intervals stand in exactly one base relation. */
    Rng g = {12345};
    for (int t = 0; t < 2000; t++) {
        int64_t ls = (int64_t)rng_below(&g, 8), le = ls + 1 + (int64_t)rng_below(&g, 6);
        int64_t rs = (int64_t)rng_below(&g, 8), re = rs + 1 + (int64_t)rng_below(&g, 6);
        int holding = 0;
        for (int rel = 1; rel <= IJ_EQUALS; rel++)
            holding += ij_holds((IjRelation)rel, ls, le, rs, re);
        CHECK(holding == 1);
    }
}

/* The hotel worked example: R1 intersects B1 and B2; R2 meets B3 (its room); R3 nothing. */
static void hotel_case(void) {
    /* Hours since 2026-03-01T00:00. */
    int64_t req_s[] = {3 * 24 + 14, 0 * 24 + 14, 9 * 24 + 12};
    int64_t req_e[] = {8 * 24 + 11, 2 * 24 + 14, 11 * 24 + 11};
    uint32_t req_room[] = {0, 1, 1};
    int64_t conf_s[] = {0 * 24 + 14, 7 * 24 + 14, 2 * 24 + 14};
    int64_t conf_e[] = {4 * 24 + 11, 9 * 24 + 11, 6 * 24 + 11};
    uint32_t conf_room[] = {0, 0, 1};
    IjSide L = {req_s, req_e, 3, NULL, NULL}, R = {conf_s, conf_e, 3, NULL, NULL};
    IjPairs p = {0};
    RxError err = {0};
    /* Without the room, R1 also intersects B3 and R2 intersects B1. */
    CHECK(ij_join(IJ_INTERSECTS, &L, &R, NULL, &p, &err) == 0);
    CHECK(p.n == 4 && p.left[2] == 0 && p.right[2] == 2 && p.left[3] == 1 && p.right[3] == 0);
    ij_pairs_free(&p);
    /* With the room as partition id (the planner's fused equality key). */
    L.part = req_room;
    R.part = conf_room;
    IjOptions opt = {IJ_ALGO_AUTO, 2, 0};
    CHECK(ij_join(IJ_MEETS, &L, &R, &opt, &p, &err) == 0);
    CHECK(p.n == 1 && p.left[0] == 1 && p.right[0] == 2);
    ij_pairs_free(&p);
    CHECK(ij_join(IJ_INTERSECTS, &L, &R, &opt, &p, &err) == 0);
    CHECK(p.n == 2 && p.left[0] == 0 && p.right[0] == 0 && p.left[1] == 0 && p.right[1] == 1);
    ij_pairs_free(&p);
}

/* The Gaps example: by the PRECEDES predicate W1 and W2 both precede W3 (docs/design.md). */
static void gaps_case(void) {
    int64_t s[] = {2, 4, 8}, e[] = {4, 6, 9};
    IjSide W = {s, e, 3, NULL, NULL};
    IjPairs p = {0};
    RxError err = {0};
    CHECK(ij_join(IJ_PRECEDES, &W, &W, NULL, &p, &err) == 0);
    CHECK(p.n == 2 && p.left[0] == 0 && p.right[0] == 2 && p.left[1] == 1 && p.right[1] == 2);
    ij_pairs_free(&p);
    CHECK(ij_join(IJ_MEETS, &W, &W, NULL, &p, &err) == 0);
    CHECK(p.n == 1 && p.left[0] == 0 && p.right[0] == 1);
    ij_pairs_free(&p);
}

/* Empty and inverted intervals follow the predicate literally. */
static void degenerate_case(void) {
    /* [5,5) lies strictly inside [0,10): INTERSECTS holds; [5,5) and [5,10) do not intersect. */
    CHECK(ij_holds(IJ_INTERSECTS, 5, 5, 0, 10));
    CHECK(!ij_holds(IJ_INTERSECTS, 5, 5, 5, 10));
    int64_t ls[] = {5, 7, 0}, le[] = {5, 3, 10};
    int64_t rs[] = {0, 5, 2, 4}, re[] = {10, 10, 8, 4};
    IjSide L = {ls, le, 3, NULL, NULL}, R = {rs, re, 4, NULL, NULL};
    IjPairs p = {0};
    RxError err = {0};
    CHECK(ij_join(IJ_INTERSECTS, &L, &R, NULL, &p, &err) == 0);
    /* [5,5) lies inside [0,10) and [2,8); the inverted [7,3) meets rs < 3 and re > 7 in [0,10)
     * and [2,8) but not [5,10); [0,10) intersects all four, the empty [4,4) included. */
    uint32_t wl[] = {0, 0, 1, 1, 2, 2, 2, 2}, wr[] = {0, 2, 0, 2, 0, 1, 2, 3};
    bool ok = p.n == 8;
    for (size_t i = 0; ok && i < 8; i++) ok = p.left[i] == wl[i] && p.right[i] == wr[i];
    CHECK(ok);
    ij_pairs_free(&p);
}

static void names_case(void) {
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        const char *name = ij_relation_name((IjRelation)r);
        IjRelation got;
        CHECK(ij_relation_from_name(name, strlen(name), &got) == 0 && got == (IjRelation)r);
        CHECK(ij_converse(ij_converse((IjRelation)r)) == (IjRelation)r);
        IjOptions fast = {IJ_ALGO_FAST, 0, 0}, loop = {IJ_ALGO_NESTED_LOOP, 0, 0};
        CHECK(ij_strategy((IjRelation)r, NULL)[0] != 0);
        CHECK_STR(ij_strategy((IjRelation)r, &loop), "nested loop");
        CHECK(strcmp(ij_strategy((IjRelation)r, &fast), "nested loop") != 0);
    }
    IjRelation got;
    CHECK(ij_relation_from_name("overlapped_by", 13, &got) == 0 && got == IJ_OVERLAPPED_BY);
    CHECK(ij_relation_from_name("Met_By", 6, &got) == 0 && got == IJ_MET_BY);
    CHECK(ij_relation_from_name("OVERLAP", 7, &got) == -1);
    CHECK(ij_converse(IJ_INTERSECTS) == IJ_INTERSECTS && ij_converse(IJ_EQUALS) == IJ_EQUALS);
    CHECK(ij_converse(IJ_DURING) == IJ_CONTAINS && ij_converse(IJ_PRECEDES) == IJ_PRECEDED_BY);
    CHECK_STR(ij_strategy(IJ_INTERSECTS, NULL), "sweep");
}

int main(int argc, char **argv) {
    int per_relation = argc > 1 ? atoi(argv[1]) : 300;
    names_case();
    diagram_cases();
    hotel_case();
    gaps_case();
    degenerate_case();
    random_cases(per_relation);
    set_cases(per_relation * 10);
    exists_cases(per_relation);
    large_cases();
    halves_cases();
    sweep_halves_cases();
    return check_report("ijoin");
}
