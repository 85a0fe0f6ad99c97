/*
 * ijoin_range.c - engine e of the interval-join kernel, "range scan": OVERLAPS and
 * OVERLAPPED_BY, whose dominance form (ijoin_dominance.c) bounds x on both sides.
 *
 * Algorithm (n left rows, m right rows, k pairs):
 *   1. Sort the right rows by x and the left rows by start.
 *   2. Each left row, in start order (so xlo only grows and the scans read x in sequence), scans
 *      x from xlo up to xhi and keeps the right rows with y >= ymin, sorted into its run.
 *   3. A left row whose x range holds more than RS_SCAN_MAX right rows goes to the dominance
 *      sweep instead, so no scan visits many non-matches.
 *   Cost O((n + m) log(n + m) + k). The two halves of the left rows probe side by side
 *   (probe_halves): an optimisation.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

/* A query whose x range holds more right rows than this goes to the dominance sweep, so that no
 * left row scans more than this many rows it may not match. */
#define RS_SCAN_MAX 64

typedef struct {
    IjRelation rel;
    const Sub *L;
    const uint32_t *LI;             /* the left rows by start */
    const int64_t *LS;              /* their starts */
    const int64_t *X, *Y;           /* x, y of the right rows in x order */
    const uint32_t *G;              /* their right rows (global ids) */
    size_t np;
    uint8_t *is_long;               /* per left row: sent to the dominance sweep */
} RangeTable;

typedef struct {
    const RangeTable *t;
    Out *o;
    size_t a, b;                    /* the positions of LI to probe */
} RangeProbe;

/* How many right rows left row i matches in the scan (0 for a row the scan leaves to the
 * dominance sweep). */
static size_t range_count(const void *pt, size_t i) {
    const RangeTable *t = pt;
    int64_t lo, hi, ymin;
    if (!dom_query(t->rel, t->L->s[i], t->L->e[i], &lo, &hi, &ymin)) return 0;
    size_t q = lower_bound(t->X, 0, t->np, lo), c = 0;
    size_t lim = t->np - q > RS_SCAN_MAX ? q + RS_SCAN_MAX : t->np, e = q;
    for (; e < lim && t->X[e] <= hi; e++) c += t->Y[e] >= ymin;
    return c;
}

/* Distance of the probe's prefetches of a left row's end and run, in rows. */
#define RS_AHEAD 16

/* Probes the left rows LI[a, b) in start order: each scans the right rows with x in [xlo, xhi]
 * and keeps those with y >= ymin; its run is in x order (assemble sorts it). xlo grows with the
 * start, so the first candidate only moves forward and the scans read X, Y and G in sequence
 * (an optimisation over probing in row order, whose scans each began at a random place; the
 * runs then lie out of left order, and assemble copies them, unless the left rows came
 * sorted). */
static int range_probe(void *p) {
    RangeProbe *pr = p;
    const RangeTable *t = pr->t;
    const int64_t *X = t->X, *Y = t->Y;
    const uint32_t *LI = t->LI;
    const Sub *L = t->L;
    Out *o = pr->o;
    size_t np = t->np, q = 0;
    bool started = false;
    for (size_t u = pr->a; u < pr->b; u++) {
        if (u + RS_AHEAD < pr->b) {
            uint32_t ahead = LI[u + RS_AHEAD];
            __builtin_prefetch(&L->e[ahead]);
            if (!L->gid) {
                __builtin_prefetch(&o->cstart[ahead], 1);
                __builtin_prefetch(&o->clen[ahead], 1);
            }
        }
        uint32_t i = LI[u];
        int64_t lo, hi, ymin;
        if (!dom_query(t->rel, t->LS[u], L->e[i], &lo, &hi, &ymin)) continue;
        q = started ? advance_below(X, q, np, lo) : lower_bound(X, 0, np, lo);
        started = true;
        size_t lim = np - q > RS_SCAN_MAX ? q + RS_SCAN_MAX : np;
        size_t e = q;
        while (e < lim && X[e] <= hi) e++;
        if (e == q) continue;
        if (e < np && e == q + RS_SCAN_MAX && X[e] <= hi) {
            t->is_long[i] = 1;
            continue;
        }
        if (o->cap_tmp - o->n_tmp < e - q) {
            size_t c = 0;
            for (size_t v = q; v < e; v++) c += Y[v] >= ymin;
            if (tmp_grow(o, c) != 0) return -1;
        }
        uint32_t *dst = o->tmp + o->n_tmp, *d = dst;
        for (size_t v = q; v < e; v++)
            if (Y[v] >= ymin) *d++ = t->G[v];
        if (d == dst) continue;
        uint32_t gl = gid_of(L, i);
        run_open(o, gl);
        o->n_tmp += (size_t)(d - dst);
        run_close(o, gl);
    }
    return 0;
}

int range_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    int64_t *px = xmalloc(m, sizeof *px), *X = xmalloc(m, sizeof *X), *Y = xmalloc(m, sizeof *Y);
    int64_t *LS = xmalloc(n, sizeof *LS);
    uint32_t *G = xmalloc(m, sizeof *G), *LI = xmalloc(n, sizeof *LI), *ql = NULL;
    uint8_t *is_long = xcalloc(n, sizeof *is_long);
    Out o2;          /* the second half's output (halves_second) */
    RxError err2;
    if (!px || !X || !Y || !LS || !G || !LI || !is_long) {
        oom(o->err);
        goto done;
    }
    /* 1. Right rows by x, y gathered into x order (Y holds the unsorted y first); left rows by
     *    start. The two sorts side by side. */
    for (size_t j = 0; j < m; j++) dom_point(rel, R->s[j], R->e[j], &px[j], &Y[j]);
    SortJob jr = {px, NULL, m, G, X, NULL}, jl = {L->s, NULL, n, LI, LS, NULL};
    if (sort_two(&jr, &jl) != 0) {
        oom(o->err);
        goto done;
    }
    for (size_t t = 0; t < m; t++) px[t] = Y[G[t]];
    memcpy(Y, px, m * sizeof *Y);
    xfree(px);
    px = NULL;
    if (R->gid)
        for (size_t t = 0; t < m; t++) G[t] = R->gid[G[t]];
    /* 2. Probe the left rows in start order, the two halves side by side when large (each into
     *    its share of one buffer, see halves_open), each with room for its sampled share. */
    RangeTable tab = {rel, L, LI, LS, X, Y, G, m, is_long};
    bool par = n >= 2 * PARALLEL_ROWS;
    size_t mid = par ? n / 2 : n;
    halves_second(o, &o2, &err2);
    RangeProbe p1 = {&tab, o, 0, mid}, p2 = {&tab, &o2, mid, n};
    if (probe_halves(o, &o2, L, LI, range_count, &tab, range_probe, &p1, &p2, mid, par) != 0)
        goto done;
    /* 3. The left rows with long x ranges: the dominance sweep, which is output-sensitive. */
    xfree(X); xfree(Y); xfree(G); xfree(LI); xfree(LS);
    X = Y = LS = NULL;
    G = LI = NULL;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) nl += is_long[i];
    if (nl) {
        if (!(ql = xmalloc(nl, sizeof *ql))) {
            oom(o->err);
            goto done;
        }
        nl = 0;
        for (size_t i = 0; i < n; i++)
            if (is_long[i]) ql[nl++] = (uint32_t)i;
        if (dom_join(rel, L, ql, nl, R, NULL, m, o, false) != 0) goto done;
    }
    rc = 0;
done:
    xfree(px); xfree(X); xfree(Y); xfree(LS); xfree(G); xfree(LI); xfree(ql); xfree(is_long);
    return rc;
}
