/*
 * ijoin_hash.c - engine a of the interval-join kernel, "endpoint merge": MEETS, MET_BY, STARTS,
 * STARTED_BY, FINISHES, FINISHED_BY, EQUALS, whose predicate holds one endpoint equal (EQUALS:
 * both) and, except MEETS and MET_BY, a range test on the other.
 *
 * Algorithm (n left rows, m right rows, k pairs):
 *   1. Key each right row by its shared endpoint (eq_point: k1, and k2 for EQUALS) and hash it.
 *   2. Bucket the right rows by hash with a stable counting sort, so that each bucket lists its
 *      rows in row order (partitioned first into at most 2^EQ_PARTS_MAX_BITS parts of
 *      2^EQ_PART_BITS buckets, so counters and entries stay in the cache).
 *   3. Sort each bucket of more than EQ_SCAN_MAX rows by (k1, k2, row).
 *   4. Probe: each left row, in row order, maps its endpoints to a key and a range (eq_query),
 *      scans its bucket (or binary-searches a sorted one and sorts its slice by row), and
 *      appends its matches as its run: runs come out in final order.
 *   Cost O(n + m + k), plus O(g log g) per large bucket of g rows. The two halves of the left
 *   rows probe side by side (probe_halves): an optimisation.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

/* Right row's keys: k1 the shared endpoint, k2 the other. */
static void eq_point(IjRelation rel, int64_t rs, int64_t re, int64_t *k1, int64_t *k2) {
    bool end_shared = rel == IJ_MET_BY || rel == IJ_FINISHES || rel == IJ_FINISHED_BY;
    *k1 = end_shared ? re : rs;
    *k2 = end_shared ? rs : re;
}

/* Left row's query: k1 == q1 and k2 in [lo, hi]; false when no right row can match. */
static bool eq_query(IjRelation rel, int64_t ls, int64_t le, int64_t *q1, int64_t *lo,
                     int64_t *hi) {
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    switch (rel) {
    case IJ_MEETS: *q1 = le; return true;
    case IJ_MET_BY: *q1 = ls; return true;
    case IJ_STARTS: *q1 = ls; return above(le, lo);
    case IJ_STARTED_BY: *q1 = ls; return below(le, hi);
    case IJ_FINISHES: *q1 = le; return below(ls, hi);
    case IJ_FINISHED_BY: *q1 = le; return above(ls, lo);
    case IJ_EQUALS: *q1 = ls; *lo = *hi = le; return true;
    case IJ_INTERSECTS: case IJ_PRECEDES: case IJ_PRECEDED_BY: case IJ_OVERLAPS:
    case IJ_OVERLAPPED_BY: case IJ_DURING: case IJ_CONTAINS: case IJ_COVERS: case IJ_COVERED_BY:
    case IJ_N_RELATIONS: break;
    }
    *q1 = 0;
    return false; /* not an endpoint-merge relation */
}

/* One right row in the hash table: its keys and its input row. */
typedef struct {
    int64_t k1, k2;     /* the shared endpoint; the other (0 for MEETS, MET_BY: no range) */
    uint32_t row;       /* input row (global id) */
    uint32_t bucket;    /* while the table is built */
} EqEntry;

/* A bucket of more entries than this is sorted by (k1, k2, row) and binary-searched, so that
 * no left row scans more than this many entries that it may not match. */
#define EQ_SCAN_MAX 32

/* Bucket of (k1) or, for EQUALS, of (k1, k2): the top bits of a multiplicative hash. */
static inline uint32_t eq_hash(int64_t k1, int64_t k2, bool pair, int shift) {
    uint64_t x = flip(k1) * 0x9E3779B97F4A7C15ULL;
    if (pair) x = (x ^ flip(k2)) * 0xC2B2AE3D27D4EB4FULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    return (uint32_t)(x >> shift);
}

static int eq_entry_cmp(const void *pa, const void *pb) {
    const EqEntry *a = pa, *b = pb;
    if (a->k1 != b->k1) return a->k1 < b->k1 ? -1 : 1;
    if (a->k2 != b->k2) return a->k2 < b->k2 ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* In e[lo, hi) sorted by (k1, k2): the first entry not below (k1, k2), or with after the first
 * entry above it. */
static size_t eq_search(const EqEntry *e, size_t lo, size_t hi, int64_t k1, int64_t k2,
                        bool after) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const EqEntry *x = &e[mid];
        if (x->k1 < k1 || (x->k1 == k1 && (after ? x->k2 <= k2 : x->k2 < k2))) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The built table and what a probe needs of the relation. */
typedef struct {
    IjRelation rel;
    const Sub *L;
    const EqEntry *E;
    const uint32_t *st;     /* bucket b is E[st[b], st[b + 1]) */
    int shift;
    bool ranged, pair;
    size_t big;             /* the largest sorted bucket */
} EqTable;

typedef struct {
    const EqTable *t;
    Out *o;
    size_t a, b;            /* the left rows to probe */
} EqProbe;

static inline uint32_t eq_left_hash(const EqTable *t, size_t i) {
    int64_t q1, lo, hi;
    eq_query(t->rel, t->L->s[i], t->L->e[i], &q1, &lo, &hi);
    return eq_hash(q1, lo, t->pair, t->shift);
}

/* Distance of the probe's prefetches: bucket offsets EQ_AHEAD rows ahead, entries half that. */
#define EQ_AHEAD 16

/* How many right rows left row i matches (the probe's test without its output). */
static size_t eq_count(const void *pt, size_t i) {
    const EqTable *t = pt;
    int64_t q1, lo, hi;
    if (!eq_query(t->rel, t->L->s[i], t->L->e[i], &q1, &lo, &hi)) return 0;
    uint32_t h = eq_hash(q1, lo, t->pair, t->shift);
    size_t s = t->st[h], e = t->st[h + 1], c = 0;
    if (e - s > EQ_SCAN_MAX)
        return eq_search(t->E, s, e, q1, hi, true) - eq_search(t->E, s, e, q1, lo, false);
    for (size_t u = s; u < e; u++)
        c += t->E[u].k1 == q1 && t->E[u].k2 >= lo && t->E[u].k2 <= hi;
    return c;
}

/* Probes the left rows [a, b) in row order; each collects its bucket's matches into its run, in
 * right row order. */
static int eq_probe(void *p) {
    EqProbe *pr = p;
    const EqTable *t = pr->t;
    const EqEntry *E = t->E;
    const uint32_t *st = t->st;
    Out *o = pr->o;
    const Sub *L = t->L;
    int rc = -1;
    uint32_t *scratch = NULL;
    if (t->ranged && t->big > 48 && !(scratch = xmalloc(t->big, sizeof *scratch))) {
        oom(o->err);
        return -1;
    }
    /* Optimisation: bucket offsets and then entries are prefetched ahead of their row (the
     * probe is bound by these two cache misses per row otherwise). ring[i % EQ_AHEAD] holds
     * row i's bucket from EQ_AHEAD rows before i on. */
    uint32_t ring[EQ_AHEAD];
    for (size_t i = pr->a; i < pr->b && i < pr->a + EQ_AHEAD; i++) {
        ring[i % EQ_AHEAD] = eq_left_hash(t, i);
        __builtin_prefetch(&st[ring[i % EQ_AHEAD]]);
    }
    for (size_t i = pr->a; i < pr->b; i++) {
        uint32_t h = ring[i % EQ_AHEAD];
        if (i + EQ_AHEAD < pr->b) {
            uint32_t h2 = eq_left_hash(t, i + EQ_AHEAD);
            ring[i % EQ_AHEAD] = h2;
            __builtin_prefetch(&st[h2]);
        }
        if (i + EQ_AHEAD / 2 < pr->b) __builtin_prefetch(&E[st[ring[(i + EQ_AHEAD / 2) % EQ_AHEAD]]]);
        int64_t q1, lo, hi;
        if (!eq_query(t->rel, L->s[i], L->e[i], &q1, &lo, &hi)) continue;
        size_t s = st[h], e = st[h + 1];
        if (s == e) continue;
        uint32_t gl = gid_of(L, i);
        if (e - s > EQ_SCAN_MAX) {
            /* Sorted by (k1, k2, row): the matches are one slice, in row order within a k2. */
            size_t x = eq_search(E, s, e, q1, lo, false), z = eq_search(E, x, e, q1, hi, true);
            if (x == z) continue;
            if (tmp_grow(o, z - x) != 0) goto done;
            uint32_t *dst = o->tmp + run_reserve(o, gl, z - x);
            for (size_t u = x; u < z; u++) dst[u - x] = E[u].row;
            if (t->ranged) sort_run(dst, z - x, scratch);
            continue;
        }
        if (o->cap_tmp - o->n_tmp < e - s) {
            size_t c = 0;
            for (size_t u = s; u < e; u++) c += E[u].k1 == q1 && E[u].k2 >= lo && E[u].k2 <= hi;
            if (tmp_grow(o, c) != 0) goto done;
        }
        uint32_t *dst = o->tmp + o->n_tmp, *d = dst;
        for (size_t u = s; u < e; u++) {
            const EqEntry *x = &E[u];
            if (x->k1 == q1 && x->k2 >= lo && x->k2 <= hi) *d++ = x->row;
        }
        if (d == dst) continue;
        run_open(o, gl);
        o->n_tmp += (size_t)(d - dst);
        run_close(o, gl);
    }
    rc = 0;
done:
    xfree(scratch);
    return rc;
}

/* The buckets of a part: 2^EQ_PART_BITS of them (their counters and entries stay in the cache),
 * at most 2^EQ_PARTS_MAX_BITS parts (the first pass writes to each part's end at once). */
#define EQ_PART_BITS 12
#define EQ_PARTS_MAX_BITS 10

/* Lays out the entries of parts [p0, p1): st[b] is bucket b's first entry in E. */
typedef struct {
    const EqEntry *P;
    const size_t *pst;
    uint32_t *st;
    EqEntry *E;
    int lshift;
    size_t p0, p1;
} EqBuild;

static int eq_build(void *arg) {
    EqBuild *b = arg;
    size_t nbk = (size_t)1 << b->lshift, mask = nbk - 1;
    uint32_t *cur = xmalloc(nbk, sizeof *cur);
    if (!cur) return -1;
    const EqEntry *P = b->P;
    for (size_t q = b->p0; q < b->p1; q++) {
        size_t t0 = b->pst[q], t1 = b->pst[q + 1];
        uint32_t *st = b->st + (q << b->lshift);
        memset(cur, 0, nbk * sizeof *cur);
        for (size_t t = t0; t < t1; t++) cur[P[t].bucket & mask]++;
        uint32_t run = (uint32_t)t0;
        for (size_t k = 0; k < nbk; k++) {
            uint32_t c = cur[k];
            st[k] = cur[k] = run;
            run += c;
        }
        for (size_t t = t0; t < t1; t++) b->E[cur[P[t].bucket & mask]++] = P[t];
    }
    xfree(cur);
    return 0;
}

int eq_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    bool ranged = rel != IJ_MEETS && rel != IJ_MET_BY;
    bool pair = rel == IJ_EQUALS;
    int bits = bits_for(m);
    if (bits < 1) bits = 1;
    if (bits > 30) bits = 30;
    int shift = 64 - bits;
    size_t nb = (size_t)1 << bits;
    int rc = -1;
    uint32_t *hb = xmalloc(m, sizeof *hb), *st = xcalloc(nb + 2, sizeof *st);
    EqEntry *E = xmalloc(m, sizeof *E);
    EqEntry *P = NULL;    /* the entries by part, in row order within a part */
    size_t *pst = NULL;   /* part q is P[pst[q], pst[q + 1]) */
    Out o2;          /* the second half's output (halves_second) */
    RxError err2;
    if (!hb || !st || !E) {
        oom(o->err);
        goto done;
    }
    /* 1. Bucket every right row; a stable counting sort lays the buckets out in row order:
     *    bucket b is E[st[b], st[b + 1]). Two passes (an optimisation: one pass over all the
     *    buckets misses the cache on every row once the table outgrows it): the rows are
     *    first split by the top bits of their bucket into parts of EQ_PART_BUCKETS buckets,
     *    each of which is then counted and laid out within the cache, the parts of either
     *    half of the rows side by side. */
    int lshift = bits > EQ_PART_BITS ? EQ_PART_BITS : bits, pb = bits - lshift;
    if (pb > EQ_PARTS_MAX_BITS) {
        pb = EQ_PARTS_MAX_BITS;
        lshift = bits - pb;
    }
    size_t np = (size_t)1 << pb;
    pst = xcalloc(np + 1, sizeof *pst);
    P = xmalloc(m, sizeof *P);
    if (!pst || !P) {
        oom(o->err);
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        int64_t k1, k2;
        eq_point(rel, R->s[j], R->e[j], &k1, &k2);
        hb[j] = eq_hash(k1, k2, pair, shift);
        pst[(hb[j] >> lshift) + 1]++;
    }
    for (size_t q = 0; q < np; q++) pst[q + 1] += pst[q];
    {
        size_t *pos = xmalloc(np, sizeof *pos);
        if (!pos) {
            oom(o->err);
            goto done;
        }
        memcpy(pos, pst, np * sizeof *pos);
        for (size_t j = 0; j < m; j++) {
            if (j + EQ_AHEAD < m) __builtin_prefetch(&P[pos[hb[j + EQ_AHEAD] >> lshift]], 1);
            EqEntry *x = &P[pos[hb[j] >> lshift]++];
            eq_point(rel, R->s[j], R->e[j], &x->k1, &x->k2);
            if (!ranged) x->k2 = 0;
            x->row = gid_of(R, j);
            x->bucket = hb[j];
        }
        xfree(pos);
    }
    xfree(hb);
    hb = NULL;
    size_t half = 0;
    while (half < np && pst[half] < m / 2) half++;
    EqBuild b1 = {P, pst, st, E, lshift, 0, half}, b2 = {P, pst, st, E, lshift, half, np};
    Task tb1 = {eq_build, &b1, 0}, tb2 = {eq_build, &b2, 0};
    if (run_two(&tb1, &tb2, m >= 2 * PARALLEL_ROWS) != 0) {
        oom(o->err);
        goto done;
    }
    st[nb] = st[nb + 1] = (uint32_t)m;
    xfree(P);
    P = NULL;
    /* 2. Large buckets are sorted, so that their left rows binary-search them. */
    size_t big = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t sz = st[b + 1] - st[b];
        if (sz <= EQ_SCAN_MAX) continue;
        qsort(E + st[b], sz, sizeof *E, eq_entry_cmp);
        if (sz > big) big = sz;
    }
    /* 3. Probe, the two halves of the left rows side by side when large (each into its share
     *    of one buffer, see halves_open), each with room for its sampled share of the result. */
    EqTable tab = {rel, L, E, st, shift, ranged, pair, big};
    bool par = n >= 2 * PARALLEL_ROWS;
    size_t mid = par ? n / 2 : n;
    halves_second(o, &o2, &err2);
    EqProbe p1 = {&tab, o, 0, mid}, p2 = {&tab, &o2, mid, n};
    if (probe_halves(o, &o2, L, NULL, eq_count, &tab, eq_probe, &p1, &p2, mid, par) != 0)
        goto done;
    rc = 0;
done:
    xfree(hb); xfree(st); xfree(E); xfree(P); xfree(pst);
    return rc;
}
