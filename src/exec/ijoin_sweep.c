/*
 * ijoin_sweep.c - engine d of the interval-join kernel, "sweep": INTERSECTS over proper
 * intervals. With ls < le and rs < re, a pair intersects iff rs in [ls, le) (set 1) or
 * ls in (rs, re) (set 2), and the two cases are disjoint.
 *
 * Algorithm (n left rows, m right rows, k pairs):
 *   1. Rows that are not proper intervals (inverted left rows, non-proper right rows) go to the
 *      dominance sweep; empty left rows take part in set 2 only, which is then their whole
 *      predicate.
 *   2. Sort the left starts and the right starts; merge them once to place every start among
 *      the other side's (place_left, place_right).
 *   3. Count: set 1 per left row (the right starts in [ls, le)), set 2 per right row (the left
 *      starts in (rs, re)) through a difference array over the sorted left starts.
 *   4. Reserve each left row's run exactly, then fill both sets in place.
 *   Cost O((n + m) log(n + m) + k). Scans, scatters and gathers run in halves on two threads and
 *   read their arrays in sorted order: optimisations.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

/* i indexes the sorted non-inverted left rows (LK, LI), j the sorted proper right rows (RK, RI);
 * every per-row array of the scans and fills is in one of those two orders, so that the scans
 * and fills read them in sequence. */
typedef struct {
    const Sub *L, *R;
    const int64_t *LK, *RK;
    const uint32_t *LI, *RI;
    uint32_t *lo1, *hi1;   /* by i: set 1 is the sorted right rows [lo1, hi1) */
    uint32_t *lo2, *hi2;   /* by j: set 2 is the sorted left rows [lo2, hi2) */
    uint32_t *diff;        /* by i: set 2's difference array, then where set 1 goes in tmp */
    uint32_t *cur2;        /* by i: where the next set-2 pair goes in tmp */
    uint32_t *tmp, *cnt;   /* cnt: by left row, its run's length, then its start */
    size_t n2, m1, total1, total2;
    size_t mid;            /* the sorted left rows split in halves [0, mid), [mid, n2) ... */
    uint32_t cross;        /* ... and how many set-2 slices span the split */
} SweepScan;

/* Places every start among the other side's: lo1 = #RK < LK[i]. One merge step per element of
 * either side, without a branch on the comparison (an optimisation: the comparisons of two
 * random sides are unpredictable). */
static int place_left(void *p) {
    SweepScan *c = p;
    const int64_t *LK = c->LK, *RK = c->RK;
    uint32_t *lo1 = c->lo1;
    size_t i = 0, j = 0, n = c->n2, m = c->m1;
    while (i < n && j < m) {
        bool right_first = RK[j] < LK[i];
        lo1[i] = (uint32_t)j;
        j += right_first;
        i += !right_first;
    }
    for (; i < n; i++) lo1[i] = (uint32_t)j;
    return 0;
}

/* lo2 = #LK <= RK[j], merged the same way. */
static int place_right(void *p) {
    SweepScan *c = p;
    const int64_t *LK = c->LK, *RK = c->RK;
    uint32_t *lo2 = c->lo2;
    size_t i = 0, j = 0, n = c->n2, m = c->m1;
    while (i < n && j < m) {
        bool left_first = LK[i] <= RK[j];
        lo2[j] = (uint32_t)i;
        i += left_first;
        j += !left_first;
    }
    for (; j < m; j++) lo2[j] = (uint32_t)i;
    return 0;
}

/* Set 1: rs in [ls, le), scanned from lo1. */
static int scan_set1(void *p) {
    SweepScan *c = p;
    size_t total = 0;
    for (size_t i = 0; i < c->n2; i++) {
        if (i + SW_AHEAD < c->n2) __builtin_prefetch(&c->L->e[c->LI[i + SW_AHEAD]]);
        int64_t le = c->L->e[c->LI[i]];
        size_t h = advance_below(c->RK, c->lo1[i], c->m1, le);
        c->hi1[i] = (uint32_t)h;
        total += h - c->lo1[i];
    }
    c->total1 = total;
    return 0;
}

/* Set 2: ls in (rs, re), scanned from lo2; counted per sorted left row through a difference
 * array (O(1) per right row, not per pair). */
static int scan_set2(void *p) {
    SweepScan *c = p;
    size_t total = 0;
    uint32_t cross = 0;
    for (size_t j = 0; j < c->m1; j++) {
        if (j + SW_AHEAD < c->m1) __builtin_prefetch(&c->R->e[c->RI[j + SW_AHEAD]]);
        int64_t re = c->R->e[c->RI[j]];
        size_t q = advance_below(c->LK, c->lo2[j], c->n2, re);
        c->hi2[j] = (uint32_t)q;
        c->diff[c->lo2[j]]++;
        c->diff[q]--;
        cross += c->lo2[j] < c->mid && q >= c->mid;
        total += q - c->lo2[j];
    }
    c->total2 = total;
    c->cross = cross;
    return 0;
}

/* Each sorted left row's run length, set 1's plus set 2's (the difference array's running sum),
 * scattered to row order; the sorted rows' first half (first = true) or second, which starts
 * from the slices that span the split. */
static void scatter_half(SweepScan *c, bool first) {
    size_t a = first ? 0 : c->mid, b = first ? c->mid : c->n2;
    uint32_t run = first ? 0 : c->cross;
    for (size_t i = a; i < b; i++) {
        if (i + SW_AHEAD < b) __builtin_prefetch(&c->cnt[c->LI[i + SW_AHEAD]], 1);
        run += c->diff[i];
        c->cnt[c->LI[i]] = c->hi1[i] - c->lo1[i] + run;
    }
}
static int scatter_first(void *p) { scatter_half(p, true); return 0; }
static int scatter_second(void *p) { scatter_half(p, false); return 0; }

/* Each sorted left row's run start gathered back from row order: set 1 goes at diff[i], set 2
 * from cur2[i] on. */
static void gather_half(SweepScan *c, bool first) {
    size_t a = first ? 0 : c->mid, b = first ? c->mid : c->n2;
    for (size_t i = a; i < b; i++) {
        if (i + SW_AHEAD < b) __builtin_prefetch(&c->cnt[c->LI[i + SW_AHEAD]]);
        uint32_t base = c->cnt[c->LI[i]];
        c->diff[i] = base;
        c->cur2[i] = base + c->hi1[i] - c->lo1[i];
    }
}
static int gather_first(void *p) { gather_half(p, true); return 0; }
static int gather_second(void *p) { gather_half(p, false); return 0; }

/* Set 1's pairs: each sorted left row's slice of the sorted right rows, copied to its run. */
static int fill_set1(void *p) {
    SweepScan *c = p;
    const uint32_t *gid = c->R->gid;
    for (size_t i = 0; i < c->n2; i++) {
        if (i + SW_AHEAD < c->n2 && c->hi1[i + SW_AHEAD] > c->lo1[i + SW_AHEAD])
            __builtin_prefetch(&c->tmp[c->diff[i + SW_AHEAD]], 1);
        uint32_t n = c->hi1[i] - c->lo1[i];
        if (!n) continue;   /* tmp may be NULL when no pair exists */
        uint32_t *dst = c->tmp + c->diff[i];
        const uint32_t *src = c->RI + c->lo1[i];
        if (gid)
            for (uint32_t t = 0; t < n; t++) dst[t] = gid[src[t]];
        else
            for (uint32_t t = 0; t < n; t++) dst[t] = src[t];
    }
    return 0;
}

/* Set 2's pairs: each sorted right row appended to the runs of its slice of sorted left rows. */
static int fill_set2(void *p) {
    SweepScan *c = p;
    uint32_t *cur2 = c->cur2, *tmp = c->tmp;
    const uint32_t *lo2 = c->lo2, *hi2 = c->hi2;
    for (size_t j = 0; j < c->m1; j++) {
        if (j + SW_AHEAD < c->m1 && lo2[j + SW_AHEAD] < hi2[j + SW_AHEAD])
            __builtin_prefetch(&tmp[cur2[lo2[j + SW_AHEAD]]], 1);
        uint32_t gr = gid_of(c->R, c->RI[j]);
        for (uint32_t q = lo2[j]; q < hi2[j]; q++) tmp[cur2[q]++] = gr;
    }
    return 0;
}

int sweep_join(const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    /* Row classes (non-inverted / inverted left, proper / not right), listed only when a side
     * has rows of both of its classes; NULL stands for all rows. */
    size_t n2 = 0, ni = 0, m1 = 0, md = 0;
    for (size_t i = 0; i < n; i++) ni += L->s[i] > L->e[i];
    for (size_t j = 0; j < m; j++) md += R->s[j] >= R->e[j];
    uint32_t *lwe = NULL, *li = NULL, *rw = NULL, *rd = NULL;
    if (ni) {
        lwe = xmalloc(n, sizeof *lwe);
        li = xmalloc(ni, sizeof *li);
    }
    if (md) {
        rw = xmalloc(m, sizeof *rw);
        rd = xmalloc(md, sizeof *rd);
    }
    int64_t *LK = xmalloc(n, sizeof *LK), *RK = xmalloc(m, sizeof *RK);
    uint32_t *LI = xmalloc(n, sizeof *LI), *RI = xmalloc(m, sizeof *RI);
    uint32_t *lo1 = NULL, *hi1 = NULL, *cnt = NULL, *cur2 = NULL, *diff = NULL, *lo2 = NULL,
             *hi2 = NULL;
    if ((ni && (!lwe || !li)) || (md && (!rw || !rd)) || !LK || !RK || !LI || !RI) {
        oom(o->err);
        goto done;
    }
    if (ni) {
        ni = 0;
        for (size_t i = 0; i < n; i++) {
            if (L->s[i] <= L->e[i]) lwe[n2++] = (uint32_t)i;
            else li[ni++] = (uint32_t)i;
        }
    } else {
        n2 = n;
    }
    if (md) {
        md = 0;
        for (size_t j = 0; j < m; j++) {
            if (R->s[j] < R->e[j]) rw[m1++] = (uint32_t)j;
            else rd[md++] = (uint32_t)j;
        }
    } else {
        m1 = m;
    }
    /* The sorts' radix buffers become the scans' lo1, hi1 (n2 each) and lo2, hi2 (m1 each)
     * after them (an optimisation: 8 bytes a row less of fresh memory, whose first touch is
     * costly). */
    uint64_t *lscr = xmalloc(n2 ? n2 : 1, sizeof *lscr), *rscr = xmalloc(m ? m : 1, sizeof *rscr);
    if (!lscr || !rscr) {
        xfree(lscr), xfree(rscr);
        oom(o->err);
        goto done;
    }
    lo1 = (uint32_t *)lscr;
    hi1 = lo1 + n2;
    lo2 = (uint32_t *)rscr;
    hi2 = lo2 + m1;
    SortJob jl = {L->s, lwe, n2, LI, LK, lscr};
    SortJob jr = {R->s, rw, m1, RI, RK, rscr};
    if (sort_two(&jl, &jr) != 0) {
        oom(o->err);
        goto done;
    }
    /* The scans' other arrays come after the sorts (peak memory). */
    cnt = xcalloc(n, sizeof *cnt);
    cur2 = xmalloc(n2, sizeof *cur2);
    diff = xcalloc(n + 1, sizeof *diff);
    if (!cnt || !cur2 || !diff) {
        oom(o->err);
        goto done;
    }
    bool par = n2 >= PARALLEL_ROWS && m1 >= PARALLEL_ROWS;
    SweepScan sc = {L,    R,    LK,  RK, LI, RI, lo1, hi1,    lo2, hi2,
                    diff, cur2, NULL, cnt, n2, m1, 0,   0,   n2 / 2, 0};
    Task t1 = {place_left, &sc, 0}, t2 = {place_right, &sc, 0};
    run_two(&t1, &t2, par);
    t1.fn = scan_set1;
    t2.fn = scan_set2;
    run_two(&t1, &t2, par);
    size_t total = sc.total1 + sc.total2;
    /* Each left row's run: its length scattered to row order (cnt), the runs reserved in row
     * order, and their starts gathered back to sorted order, so that the fills read their
     * cursors in sequence (an optimisation: the fills and the set-2 scan went from a cache miss
     * per row to reading in sequence). */
    t1.fn = scatter_first;
    t2.fn = scatter_second;
    run_two(&t1, &t2, par);
    xfree(LK); xfree(RK);
    LK = RK = NULL;
    sc.LK = sc.RK = NULL;
    if (tmp_grow(o, total) != 0) goto done;
    for (size_t l = 0; l < n; l++)
        if (cnt[l]) cnt[l] = run_reserve(o, gid_of(L, l), cnt[l]);
    t1.fn = gather_first;
    t2.fn = gather_second;
    run_two(&t1, &t2, par);
    xfree(cnt); xfree(LI);
    cnt = LI = NULL;
    sc.LI = NULL;
    sc.cnt = NULL;
    sc.tmp = o->tmp;
    t1.fn = fill_set1;
    t2.fn = fill_set2;
    run_two(&t1, &t2, par);
    /* The rows the split does not cover: inverted left rows with proper right rows, and
     * non-inverted left rows with non-proper right rows (two non-proper rows never intersect). */
    if (ni && m1 && dom_join(IJ_INTERSECTS, L, li, ni, R, rw, m1, o, true) != 0) goto done;
    if (md && n2 && dom_join(IJ_INTERSECTS, L, lwe, n2, R, rd, md, o, true) != 0) goto done;
    rc = 0;
done:
    xfree(lwe); xfree(li); xfree(rw); xfree(rd); xfree(LK); xfree(RK); xfree(LI); xfree(RI);
    xfree(lo1); xfree(cnt); xfree(cur2); xfree(diff); xfree(lo2);   /* hi1, hi2: within lo1, lo2 */
    return rc;
}
