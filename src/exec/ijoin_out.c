/*
 * ijoin_out.c - the interval-join kernel's output: every engine writes one run of right rows per
 * left row (Out, ijoin_int.h), and assemble turns the runs into the result.
 *
 * Algorithm:
 *   1. Engines reserve a left row's run at the end of one buffer (run_open, run_push,
 *      run_reserve; tmp_grow grows it by half). Pairs an engine finds out of left order go to a
 *      list of extra pairs (extra_push).
 *   2. Two halves of a probe may write into one buffer from two ends (halves_open): the first
 *      half's runs from its start, the second half's at a sampled offset (sampled_room); closing
 *      moves the second half's runs next to the first's (halves_close). An optimisation.
 *   3. assemble: the extra pairs are merged into their left rows' runs; each run is sorted by
 *      right row (sort_run: a run already in order costs one check), the runs laid out in left
 *      order. When the engines wrote the runs in left order the buffer is the result; otherwise
 *      the runs are copied into place once (in halves on two threads when large).
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

#include "exec/ijoin.h"

int tmp_grow(Out *o, size_t add) {
    if (out_limit(o, add) != 0) return -1;
    size_t need = o->n_tmp + add;
    if (need <= o->cap_tmp) return 0;
    size_t cap = o->cap_tmp + o->cap_tmp / 2 + 1024;
    if (cap < need || !o->tmp) cap = need > 1024 ? need : 1024;
    if (cap > (size_t)UINT32_MAX) cap = UINT32_MAX;
    uint32_t *p;
    if (o->lent) {
        /* The other half still writes into the shared buffer: leave it where it is. */
        if ((p = xmalloc(cap, sizeof *p))) memcpy(p, o->tmp, o->n_tmp * sizeof *p);
    } else {
        p = xrealloc(o->tmp, cap * sizeof *p);
    }
    if (!p) return oom(o->err);
    o->lent = false;
    o->tmp = p;
    o->cap_tmp = cap;
    return 0;
}

/* Fills left[] and sorts the runs of left rows [a, b), which start at right + pos. */
typedef struct {
    const uint32_t *clen;
    uint32_t *left, *right;
    size_t a, b, pos;
    size_t end;           /* the other task writes from here on */
} RunFix;

/* v[a], v[b] in order, without a branch. */
static inline void order2(uint32_t *v, int a, int b) {
    uint32_t x = v[a], y = v[b];
    v[a] = x < y ? x : y;
    v[b] = x < y ? y : x;
}

/* left has RUN_SLACK words of room past its end, so a run of up to RUN_SLACK rows gets its left
 * column in one fixed-length store, which the next runs overwrite (except near the end of a
 * task's part, where the other task writes). An optimisation, as are the sorting networks of
 * the runs of 2 to 4 rows: most runs are that short, and the loops mispredicted their length. */
#define RUN_SLACK 4

static int fix_runs(void *p) {
    RunFix *f = p;
    uint32_t *scratch = NULL;
    size_t cap = 0, pos = f->pos;
    for (size_t l = f->a; l < f->b; l++) {
        uint32_t c = f->clen[l];
        uint32_t *lp = f->left + pos, *v = f->right + pos;
        if (c <= RUN_SLACK && pos + RUN_SLACK <= f->end) {
            for (int t = 0; t < RUN_SLACK; t++) lp[t] = (uint32_t)l;
            if (c == 2) {
                order2(v, 0, 1);
            } else if (c == 3) {
                order2(v, 0, 1), order2(v, 1, 2), order2(v, 0, 1);
            } else if (c == 4) {
                order2(v, 0, 1), order2(v, 2, 3), order2(v, 0, 2), order2(v, 1, 3);
                order2(v, 1, 2);
            }
            pos += c;
            continue;
        }
        for (uint32_t t = 0; t < c; t++) lp[t] = (uint32_t)l;
        if (c > 48 && c > cap) {
            xfree(scratch);
            cap = c;
            scratch = xmalloc(cap, sizeof *scratch);
            if (!scratch) return -1;
        }
        if (c > 1) sort_run(f->right + pos, c, scratch);
        pos += c;
    }
    xfree(scratch);
    return 0;
}

/* Copies the runs of left rows [a, b) to right + pos on, in left order, with room after each
 * for its extra pairs (cur[l]: their count, then where they go); clen becomes the full length. */
typedef struct {
    Out *o;
    uint32_t *right, *cur;
    size_t a, b, pos;
} RunCopy;

static int copy_runs(void *p) {
    RunCopy *c = p;
    const uint32_t *tmp = c->o->tmp, *cstart = c->o->cstart;
    uint32_t *clen = c->o->clen, *cur = c->cur, *right = c->right;
    size_t pos = c->pos;
    for (size_t l = c->a; l < c->b; l++) {
        if (l + SW_AHEAD < c->b && clen[l + SW_AHEAD])
            __builtin_prefetch(tmp + cstart[l + SW_AHEAD]);
        uint32_t n = clen[l];
        if (n) {   /* tmp is NULL when only extra pairs exist */
            const uint32_t *src = tmp + cstart[l];
            for (uint32_t t = 0; t < n; t++) right[pos + t] = src[t];
        }
        size_t all = (size_t)n + cur[l];
        cur[l] = (uint32_t)(pos + n); /* where the extras go */
        clen[l] = (uint32_t)all;
        pos += all;
    }
    return 0;
}

/* Lays the runs (and the extra pairs) out in left order, each run sorted, into res. */
int assemble(Out *o, size_t n_left, IjPairs *res) {
    size_t total = o->n_tmp + o->n_x;
    res->n = res->cap = 0;
    if (total == 0) return 0;
    uint32_t *left = xmalloc(total + RUN_SLACK, sizeof *left);
    if (!left) return oom(o->err);
    uint32_t *right;
    if (o->n_x == 0 && o->in_order) {
        /* The runs already lie in left order, back to back: tmp is the result. */
        right = o->tmp;
        o->tmp = NULL;
    } else {
        right = xmalloc(total, sizeof *right);
        uint32_t *cur = xcalloc(n_left, sizeof *cur);
        if (!right || !cur) {
            xfree(left);
            xfree(right);
            xfree(cur);
            return oom(o->err);
        }
        for (size_t i = 0; i < o->n_x; i++) cur[o->xl[i]]++;
        /* The two halves of the left rows copy side by side when large. */
        size_t mid = n_left / 2, pos_mid = 0;
        for (size_t l = 0; l < mid; l++) pos_mid += (size_t)o->clen[l] + cur[l];
        RunCopy c1 = {o, right, cur, 0, mid, 0}, c2 = {o, right, cur, mid, n_left, pos_mid};
        Task t1 = {copy_runs, &c1, 0}, t2 = {copy_runs, &c2, 0};
        run_two(&t1, &t2, total >= PARALLEL_ROWS);
        for (size_t i = 0; i < o->n_x; i++) right[cur[o->xl[i]]++] = o->xr[i];
        xfree(cur);
        xfree(o->tmp);
        o->tmp = NULL;
    }
    /* Two halves of the left rows, side by side when large. */
    size_t mid = n_left / 2, pos_mid = 0;
    for (size_t l = 0; l < mid; l++) pos_mid += o->clen[l];
    RunFix f1 = {o->clen, left, right, 0, mid, 0, pos_mid};
    RunFix f2 = {o->clen, left, right, mid, n_left, pos_mid, total + RUN_SLACK};
    Task t1 = {fix_runs, &f1, 0}, t2 = {fix_runs, &f2, 0};
    if (run_two(&t1, &t2, total >= PARALLEL_ROWS) != 0) {
        xfree(left);
        xfree(right);
        return oom(o->err);
    }
    res->left = left;
    res->right = right;
    res->n = res->cap = total;
    return 0;
}

/* ---- two halves of a probe ------------------------------------------------------------------ */

/* Room for the pairs of left rows [a, b) of n, from the counts of an evenly spaced sample of the
 * left rows, with a margin (an optimisation: each regrowth of a run buffer copies it). */
static size_t sampled_room(size_t (*count)(const void *, size_t), const void *t, size_t n,
                           size_t a, size_t b) {
    enum { SAMPLE = 2048 };
    if (n == 0 || b <= a) return 0;
    size_t step = n > SAMPLE ? n / SAMPLE : 1, seen = 0, c = 0;
    for (size_t i = step / 2; i < n; i += step, seen++) c += count(t, i);
    /* At most 4 pairs a row up front: a sample that hits a hot key must not reserve memory
     * the join never uses (beyond that, the buffer grows as it fills). */
    double est = (double)c / (double)seen * 1.1, cap = 4.0;
    return (size_t)((est < cap ? est : cap) * (double)(b - a)) + 4096;
}

/* The two halves of a probe write into one buffer: o (the first half's rows) from its end, with
 * room g1, and o2 (the second half's, an Out of its own) from g1 further on, with room g2. When
 * both guesses hold, closing the gap is one move within memory already touched; a half that
 * outgrows its share moves to a buffer of its own. (An optimisation: appending a second buffer
 * cost a fresh buffer for the whole result and a copy of the first half.) *shared is the buffer
 * while o2 may still write into it. */
static int halves_open(Out *o, Out *o2, size_t g1, size_t g2, uint32_t **shared,
                       size_t *shared_cap) {
    size_t limit = (size_t)UINT32_MAX - o->n_tmp - o->n_x;
    if (g1 > limit) g1 = limit;
    if (g2 > limit - g1) g2 = limit - g1;
    if (tmp_grow(o, g1 + g2) != 0) return -1;
    *shared = o->tmp;
    *shared_cap = o->cap_tmp;
    o2->tmp = o->tmp + o->n_tmp + g1;
    o2->cap_tmp = o->cap_tmp - o->n_tmp - g1;
    o2->n_tmp = 0;
    o2->lent = o->lent = true;
    o->cap_tmp = o->n_tmp + g1;
    return 0;
}

/* Moves o2's runs (whose left rows are L's [i0, i1), or with ord the rows ord[i0, i1)) to the
 * end of o, and ends the sharing of halves_open. */
static int halves_close(Out *o, Out *o2, uint32_t *shared, size_t shared_cap, const Sub *L,
                        const uint32_t *ord, size_t i0, size_t i1) {
    if (o->tmp == shared) {
        /* o never moved: all of the shared buffer is o's again. */
        o->lent = false;
        o->cap_tmp = shared_cap;
        shared = NULL;
    }
    int rc = 0;
    if (o2->n_tmp) {
        if (tmp_grow(o, o2->n_tmp) != 0) {
            rc = -1;
        } else {
            uint32_t off = (uint32_t)o->n_tmp;
            memmove(o->tmp + o->n_tmp, o2->tmp, o2->n_tmp * sizeof *o->tmp);
            o->n_tmp += o2->n_tmp;
            for (size_t i = i0; i < i1; i++) {
                uint32_t gl = gid_of(L, ord ? ord[i] : i);
                if (o->clen[gl]) o->cstart[gl] += off;
            }
            if (!o2->in_order) o->in_order = false;
            o->last_left = o2->last_left;
        }
    }
    if (!o2->lent) xfree(o2->tmp);
    o2->tmp = NULL;
    o2->n_tmp = o2->cap_tmp = 0;
    xfree(shared);
    return rc;
}

/* Runs probe over L's rows [0, mid) into o and, when par, [mid, n) into o2 at the same time,
 * each with room for its sampled share (count estimates a row's pairs), then moves o2's runs
 * after o's. With ord the probes take the rows in that order (positions [0, mid) and
 * [mid, n) of ord). o2 is set up by the caller; on an error o2 owns nothing. */
void halves_second(const Out *o, Out *o2, RxError *err2) {
    memset(o2, 0, sizeof *o2);
    memset(err2, 0, sizeof *err2);
    o2->cstart = o->cstart;
    o2->clen = o->clen;
    o2->in_order = true;
    o2->last_left = o->last_left;
    o2->err = err2;
    o2->n_x = o->n_tmp + o->n_x; /* counts against the result limit */
}

int probe_halves(Out *o, Out *o2, const Sub *L, const uint32_t *ord,
                 size_t (*count)(const void *, size_t), const void *tab,
                 int (*probe)(void *), void *p1, void *p2, size_t mid, bool par) {
    size_t n = L->n, g1 = sampled_room(count, tab, n, 0, mid);
    if (!par) {
        size_t limit = (size_t)UINT32_MAX - o->n_tmp - o->n_x;
        if (tmp_grow(o, g1 < limit ? g1 : limit) != 0) return -1;
        return probe(p1);
    }
    uint32_t *shared;
    size_t shared_cap;
    if (halves_open(o, o2, g1, sampled_room(count, tab, n, mid, n), &shared, &shared_cap) != 0)
        return -1;
    Task t1 = {probe, p1, 0}, t2 = {probe, p2, 0};
    int rc = run_two(&t1, &t2, true);
    if (rc != 0 && t2.rc && o->err && o->err->code == RX_OK) *o->err = *o2->err;
    if (rc != 0) o2->n_tmp = 0; /* the result is abandoned: close only frees */
    if (halves_close(o, o2, shared, shared_cap, L, ord, mid, n) != 0) return -1;
    return rc;
}
