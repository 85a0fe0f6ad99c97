/*
 * ijoin_dominance.c - engine c of the interval-join kernel, "dominance sweep": OVERLAPS,
 * OVERLAPPED_BY, DURING, CONTAINS, and the rows the other engines cannot take (INTERSECTS' rows
 * that are not proper intervals, the range scan's long ranges). Each relation is
 * x(r) in [xlo(l), xhi(l)] and y(r) >= ymin(l) for coordinates mapped from the endpoints
 * (dom_point, dom_query; ~k reverses an order without overflow).
 *
 * Algorithm (n left rows, m right rows, k pairs):
 *   1. Sort the right rows by x; sort the queries (left rows) by ymin and the right rows by y.
 *   2. Sweep the queries by ymin upwards, deleting the right rows with y < ymin from a union-find
 *      "next alive" structure over the x order (uf_find).
 *   3. Each query finds xlo (a fence of every 64th key, then a block) and walks the alive right
 *      rows up to xhi: every visited right row is a match, written to the query's run (or, for
 *      rows handed over by another engine, to the extra pairs).
 *   Cost O((n + m) log(n + m) + k alpha(m)). The two halves of the queries sweep side by side,
 *   each with its own union-find: an optimisation.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The dominance sweep's gathers: the x position of each right row in y order, and the union-find
 * roots (dom_gather_x); each query's bounds and row in sweep order (dom_gather_q: xlo into
 * qmin, whose sorted values live on in QM, xhi into qlo). */
typedef struct {
    const uint32_t *xo;
    uint32_t *posx, *yo, *parent;
    size_t np;
    int64_t *qlo, *qhi, *qmin;
    const uint32_t *qid;
    uint32_t *qo;
    size_t nk;
} DomGather;

static int dom_gather_x(void *p) {
    DomGather *g = p;
    for (size_t t = 0; t < g->np; t++) g->posx[g->xo[t]] = (uint32_t)t;
    for (size_t t = 0; t <= g->np; t++) g->parent[t] = (uint32_t)t;
    for (size_t j = 0; j < g->np; j++) g->yo[j] = g->posx[g->yo[j]];
    return 0;
}

static int dom_gather_q(void *p) {
    DomGather *g = p;
    for (size_t t = 0; t < g->nk; t++) g->qmin[t] = g->qlo[g->qo[t]];
    for (size_t t = 0; t < g->nk; t++) g->qlo[t] = g->qhi[g->qo[t]];
    for (size_t t = 0; t < g->nk; t++) g->qo[t] = g->qid[g->qo[t]];
    return 0;
}

/* One stretch [t0, t1) of the dominance sweep's queries (in ymin order), with its own
 * union-find (parent; initialised here when init_parent) and output. First every query's lower
 * bound in X (X does not change): the fence, then the 64-key block, which is prefetched
 * DOM_AHEAD queries ahead (an optimisation, as are the sweep's prefetches: these loads miss the
 * cache at 4M rows, and one after another they left the core waiting). Then the sweep: before
 * each query the right rows with y below its ymin are deleted, then it walks the alive x
 * positions from its bound up to its xhi. */
#define DOM_AHEAD 8
typedef struct {
    const Sub *L, *R;
    const uint32_t *pr;
    const int64_t *X, *Y, *QM, *slo, *shi, *fence;
    const uint32_t *xo, *yo, *qo;
    uint32_t *qp, *parent;
    size_t np, nf, t0, t1;
    Out *o;
    bool extra, init_parent;
} DomSweep;

static int dom_sweep(void *p) {
    DomSweep *d = p;
    const int64_t *X = d->X, *Y = d->Y;
    const uint32_t *xo = d->xo, *yo = d->yo;
    uint32_t *qp = d->qp, *parent = d->parent;
    size_t np = d->np, nf = d->nf, t1 = d->t1;
    Out *o = d->o;
    if (d->init_parent)
        for (size_t t = 0; t <= np; t++) parent[t] = (uint32_t)t;
    for (size_t t = d->t0; t < t1; t++) qp[t] = (uint32_t)lower_bound(d->fence, 0, nf, d->slo[t]);
    for (size_t t = d->t0; t < t1; t++) {
        if (t + DOM_AHEAD < t1 && qp[t + DOM_AHEAD]) {
            const int64_t *b = X + (size_t)(qp[t + DOM_AHEAD] - 1) * 64;
            for (int c = 0; c < 8; c++) __builtin_prefetch(b + 8 * c);
        }
        size_t g = qp[t];
        qp[t] = (uint32_t)lower_bound(X, g ? (g - 1) * 64 : 0, g * 64 < np ? g * 64 : np, d->slo[t]);
    }
    size_t j = 0;
    for (size_t t = d->t0; t < t1; t++) {
        if (t + DOM_AHEAD < t1) {
            __builtin_prefetch(&parent[qp[t + DOM_AHEAD]]);
            __builtin_prefetch(&X[qp[t + DOM_AHEAD]]);
            __builtin_prefetch(&xo[qp[t + DOM_AHEAD]]);
        }
        while (j < np && Y[j] < d->QM[t]) {
            if (j + DOM_AHEAD < np) __builtin_prefetch(&parent[yo[j + DOM_AHEAD]], 1);
            uint32_t y = yo[j++];
            parent[y] = y + 1;
        }
        uint32_t gl = gid_of(d->L, d->qo[t]);
        int64_t hi = d->shi[t];
        uint32_t q = uf_find(parent, qp[t]);
        if (q >= np || X[q] > hi) continue;
        if (!d->extra) run_open(o, gl);
        for (; q < np && X[q] <= hi; q = uf_find(parent, q + 1)) {
            size_t r = d->pr ? d->pr[xo[q]] : xo[q];
            uint32_t gr = gid_of(d->R, r);
            if ((d->extra ? extra_push(o, gl, gr) : run_push(o, gr)) != 0) return -1;
        }
        if (!d->extra) run_close(o, gl);
    }
    return 0;
}

/* Joins the left rows ql[0..nq) (NULL: all) with the right rows pr[0..np) (NULL: all); pairs go
 * to runs (one per left row) or, with extra, to the extra pairs. */
int dom_join(IjRelation rel, const Sub *L, const uint32_t *ql, size_t nq, const Sub *R,
             const uint32_t *pr, size_t np, Out *o, bool extra) {
    int rc = -1;
    int64_t *px = xmalloc(np, sizeof *px), *py = xmalloc(np, sizeof *py);
    int64_t *X = xmalloc(np, sizeof *X), *Y = xmalloc(np, sizeof *Y);
    uint32_t *xo = xmalloc(np, sizeof *xo), *yo = xmalloc(np, sizeof *yo);
    uint32_t *posx = xmalloc(np, sizeof *posx), *parent = xmalloc(np + 1, sizeof *parent);
    uint32_t *parent2 = NULL;
    int64_t *qlo = xmalloc(nq, sizeof *qlo), *qhi = xmalloc(nq, sizeof *qhi);
    int64_t *qmin = xmalloc(nq, sizeof *qmin), *QM = xmalloc(nq, sizeof *QM);
    uint32_t *qid = xmalloc(nq, sizeof *qid), *qo = xmalloc(nq, sizeof *qo);
    int64_t *fence = xmalloc(np / 64 + 1, sizeof *fence);
    if (!px || !py || !X || !Y || !xo || !yo || !posx || !parent || !qlo || !qhi || !qmin ||
        !QM || !qid || !qo || !fence) {
        oom(o->err);
        goto done;
    }
    for (size_t j = 0; j < np; j++) {
        size_t r = pr ? pr[j] : j;
        dom_point(rel, R->s[r], R->e[r], &px[j], &py[j]);
    }
    size_t nk = 0;
    for (size_t i = 0; i < nq; i++) {
        size_t l = ql ? ql[i] : i;
        if (dom_query(rel, L->s[l], L->e[l], &qlo[nk], &qhi[nk], &qmin[nk]))
            qid[nk++] = (uint32_t)l;
    }
    /* x on one core; y, then the queries, on the other. py, once sorted, is the queries' radix
     * buffer (an optimisation: 8 bytes a query less of fresh memory). */
    SortJob jobs[3] = {{px, NULL, np, xo, X, NULL},
                       {py, NULL, np, yo, Y, NULL},
                       {qmin, NULL, nk, qo, QM, nk <= np ? (uint64_t *)py : NULL}};
    Task tx = {sort_job, &jobs[0], 0}, tyq = {sort_jobs_yq, &jobs[1], 0};
    if (run_two(&tx, &tyq, np >= PARALLEL_ROWS && np + nk >= 2 * PARALLEL_ROWS) != 0) {
        oom(o->err);
        goto done;
    }
    /* Optimisations, not needed for correctness: the deletion order as x positions and the
     * queries' bounds in sweep order are gathered up front (independent loads, so they overlap;
     * the right rows' on one core, the queries' on the other), and a lower bound in X first
     * searches every 64th key, which stays in cache. */
    DomGather dg = {xo, posx, yo, parent, np, qlo, qhi, qmin, qid, qo, nk};
    Task gx = {dom_gather_x, &dg, 0}, gq = {dom_gather_q, &dg, 0};
    run_two(&gx, &gq, np >= PARALLEL_ROWS && nk >= PARALLEL_ROWS);
    int64_t *slo = qmin, *shi = qlo;   /* as dom_gather_q leaves them */
    /* What the sweep no longer needs goes before the runs grow; qid becomes each query's first
     * x position (freed as qid). */
    uint32_t *qp = qid;
    xfree(px); xfree(py); xfree(posx); xfree(qhi);
    px = py = NULL;
    posx = NULL;
    qhi = NULL;
    size_t nf = (np + 63) / 64;
    for (size_t f = 0; f < nf; f++) fence[f] = X[f * 64];
    DomSweep d1 = {L, R, pr, X, Y, QM, slo, shi, fence, xo, yo, qo, qp, parent,
                   np, nf, 0, nk, o, extra, false};
    if (extra || np < PARALLEL_ROWS || nk < 2 * PARALLEL_ROWS) {
        if (dom_sweep(&d1) != 0) goto done;
    } else {
        /* Two halves of the queries on two cores: the second starts from its own union-find,
         * which its first query brings up to date (every deletion before it), and its own runs,
         * appended to the first half's after both are done. */
        RxError err2 = {0};
        Out o2;
        memset(&o2, 0, sizeof o2);
        o2.cstart = o->cstart;   /* each query is a distinct left row: disjoint entries */
        o2.clen = o->clen;
        o2.in_order = true;
        o2.last_left = -1;
        o2.err = &err2;
        parent2 = xmalloc(np + 1, sizeof *parent2);
        if (!parent2) {
            oom(o->err);
            goto done;
        }
        size_t mid = nk / 2;
        d1.t1 = mid;
        DomSweep d2 = d1;
        d2.t0 = mid;
        d2.t1 = nk;
        d2.parent = parent2;
        d2.o = &o2;
        d2.init_parent = true;
        Task ta = {dom_sweep, &d1, 0}, tb = {dom_sweep, &d2, 0};
        int rc2 = run_two(&ta, &tb, true);
        bool ok = rc2 == 0 && tmp_grow(o, o2.n_tmp) == 0;
        if (ok) {
            size_t off = o->n_tmp;
            if (o2.n_tmp) memcpy(o->tmp + off, o2.tmp, o2.n_tmp * sizeof *o2.tmp);
            o->n_tmp += o2.n_tmp;
            for (size_t t = mid; t < nk; t++) {
                uint32_t gl = gid_of(L, qo[t]);
                if (o->clen[gl]) o->cstart[gl] += (uint32_t)off;
            }
            if (o2.n_tmp) o->in_order = false;
        } else if (err2.code) {
            rx_error(o->err, err2.code, NULL, rx_span(0, 0), "%s", err2.msg);
        } else if (!o->err->code) {
            oom(o->err);
        }
        xfree(o2.tmp);
        if (!ok) goto done;
    }
    rc = 0;
done:
    xfree(px); xfree(py); xfree(X); xfree(Y); xfree(xo); xfree(yo); xfree(posx); xfree(parent);
    xfree(qlo); xfree(qhi); xfree(qmin); xfree(QM); xfree(qid); xfree(qo); xfree(fence);
    xfree(parent2);
    return rc;
}
