/*
 * ijoin_band.c - engine b of the interval-join kernel, "band": PRECEDES (le < rs) and
 * PRECEDED_BY (ls > re), where a left row's matches are the right rows whose key x exceeds a
 * threshold t of the left row (PRECEDES: x = rs, t = le; PRECEDED_BY mirrored with ~).
 *
 * Algorithm (n left rows, m right rows, k pairs):
 *   1. Drop rows that cannot match: left rows with t >= max x, right rows with x <= min t.
 *   2. Sort both sides (left by t, right by x) and merge them to count each left row's matches.
 *   3. Sweep t upwards, deleting from a doubly linked list, kept in right row order, the right
 *      rows with x <= t; the list then holds exactly the left row's matches, already in right
 *      row order, and the left row copies it into its reserved run.
 *   Cost O((n + m) log(n + m) + k).
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

int band_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    /* PRECEDES: le < rs. PRECEDED_BY: ls > re, i.e. ~re > ~ls (~ reverses order). */
    bool pre = rel == IJ_PRECEDES;
#define BAND_X(j) (pre ? R->s[j] : ~R->e[j])
#define BAND_T(i) (pre ? L->e[i] : ~L->s[i])
    /* Pruning (an optimisation): a left row whose threshold is at least the largest x matches
     * nothing, and a right row whose x is at most the smallest threshold matches nothing. The
     * candidates are listed compactly (in row order), so that every array below is as long as
     * the candidates, not the inputs: on data where few rows can match, the join touches
     * little memory besides its result. */
    int64_t xmax = INT64_MIN, tmin = INT64_MAX;
    for (size_t j = 0; j < m; j++) {
        int64_t x = BAND_X(j);
        if (x > xmax) xmax = x;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t t = BAND_T(i);
        if (t < tmin) tmin = t;
    }
    size_t nc = 0, mc = 0;
    for (size_t i = 0; i < n; i++) nc += BAND_T(i) < xmax;
    for (size_t j = 0; j < m; j++) mc += BAND_X(j) > tmin;
    if (nc == 0 || mc == 0) return 0;
    int64_t *x = xmalloc(mc, sizeof *x), *X = xmalloc(mc, sizeof *X);
    int64_t *th = xmalloc(nc, sizeof *th), *T = xmalloc(nc, sizeof *T);
    uint32_t *gr = xmalloc(mc, sizeof *gr), *cl = xmalloc(nc, sizeof *cl);
    uint32_t *xid = xmalloc(mc, sizeof *xid), *tid = xmalloc(nc, sizeof *tid);
    uint32_t *cnt = xmalloc(nc, sizeof *cnt);
    uint32_t *nxt = xmalloc(mc + 1, sizeof *nxt), *prv = xmalloc(mc + 1, sizeof *prv);
    if (!x || !X || !th || !T || !gr || !cl || !xid || !tid || !cnt || !nxt || !prv) {
        oom(o->err);
        goto done;
    }
    nc = mc = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t t = BAND_T(i);
        if (t < xmax) {
            cl[nc] = (uint32_t)i;
            th[nc++] = t;
        }
    }
    for (size_t j = 0; j < m; j++) {
        int64_t v = BAND_X(j);
        if (v > tmin) {
            gr[mc] = gid_of(R, j);
            x[mc++] = v;
        }
    }
#undef BAND_X
#undef BAND_T
    /* Candidates by x and by threshold; xid and tid are candidate indexes. */
    SortJob jx = {x, NULL, mc, xid, X, NULL}, jt = {th, NULL, nc, tid, T, NULL};
    if (sort_two(&jx, &jt) != 0) {
        oom(o->err);
        goto done;
    }
    size_t j = 0, total = 0;
    for (size_t t = 0; t < nc; t++) {
        while (j < mc && X[j] <= T[t]) j++;
        cnt[tid[t]] = (uint32_t)(mc - j);
        total += mc - j;
    }
    if (tmp_grow(o, total) != 0) goto done;
    for (size_t c = 0; c < nc; c++)
        cnt[c] = cnt[c] ? run_reserve(o, gid_of(L, cl[c]), cnt[c]) : UINT32_MAX;
    /* Doubly linked list of the candidate right rows in row order; mc is the head. */
    for (size_t c = 0; c < mc; c++) {
        nxt[c] = (uint32_t)c + 1;
        prv[c + 1] = (uint32_t)c;
    }
    nxt[mc] = 0;
    prv[0] = (uint32_t)mc;
    j = 0;
    for (size_t t = 0; t < nc; t++) {
        while (j < mc && X[j] <= T[t]) {
            uint32_t r = xid[j++];
            nxt[prv[r]] = nxt[r];
            prv[nxt[r]] = prv[r];
        }
        uint32_t off = cnt[tid[t]];
        if (off == UINT32_MAX) continue;
        uint32_t *dst = o->tmp + off;
        for (uint32_t r = nxt[mc]; r != mc; r = nxt[r]) *dst++ = gr[r];
    }
    rc = 0;
done:
    xfree(x); xfree(X); xfree(th); xfree(T); xfree(gr); xfree(cl); xfree(xid); xfree(tid); xfree(cnt);
    xfree(nxt); xfree(prv);
    return rc;
}
