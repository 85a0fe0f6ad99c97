/*
 * ijoin_int.h - what the files of the interval-join kernel share (ijoin.c, ijoin_out.c and one
 * file per engine): a partition's rows (Sub), the output runs (Out) and their hot helpers,
 * inline so that every engine's loops compile as before the split, and each engine's entry.
 * Internal to src/exec; the kernel's interface is ijoin.h.
 */
#ifndef RX_IJOIN_INT_H
#define RX_IJOIN_INT_H

#include <string.h>

#include "exec/kernel.h"
#include "exec/radix.h"
#include "types/lang.h"

struct IjPairs; /* ijoin.h */

/* ---- small helpers -------------------------------------------------------------------------- */

/* Strict bounds as inclusive ones: x > c is x >= c + 1, impossible when c is the maximum. */
static inline bool above(int64_t c, int64_t *out) {
    if (c == INT64_MAX) return false;
    *out = c + 1;
    return true;
}
static inline bool below(int64_t c, int64_t *out) {
    if (c == INT64_MIN) return false;
    *out = c - 1;
    return true;
}

static inline int oom(RxError *err) {
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the interval join");
}

/* Optimisation: the loops that index by a row id (sorted order to row order, or back, or
 * through a run's start) prefetch SW_AHEAD rows ahead; those cache misses bind them otherwise. */
#define SW_AHEAD 16

/* ---- one partition's rows ------------------------------------------------------------------- */

typedef struct {
    const int64_t *s, *e;
    const uint32_t *gid;   /* local row -> input row; NULL: the same */
    size_t n;
} Sub;

static inline uint32_t gid_of(const Sub *x, size_t i) { return x->gid ? x->gid[i] : (uint32_t)i; }

/* The first position in a[lo, hi) whose key is not below x (a sorted). */
static inline size_t lower_bound(const int64_t *a, size_t lo, size_t hi, int64_t x) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The first position from h on whose key is not below x (K sorted, h <= n): eight keys at a time,
 * counted without a branch, so the loop's exit is predictable (an optimisation: the scans'
 * slices hold a few keys each, and a loop exiting after a random count mispredicted almost
 * every row). */
static inline size_t advance_below(const int64_t *K, size_t h, size_t n, int64_t x) {
    while (h + 8 <= n) {
        unsigned c = 0;
        for (int t = 0; t < 8; t++) c += K[h + t] < x;
        h += c;
        if (c < 8) return h;
    }
    while (h < n && K[h] < x) h++;
    return h;
}


/* ---- the dominance form of a relation (ijoin_dominance.c, ijoin_range.c) ------------------ */

/* Right row's coordinates (x, y) for rel. */
static inline void dom_point(IjRelation rel, int64_t rs, int64_t re, int64_t *x, int64_t *y) {
    /* INTERSECTS, OVERLAPS, DURING: (rs, re). */
    *x = rel == IJ_OVERLAPPED_BY ? re : rs;
    *y = rel == IJ_OVERLAPPED_BY ? ~rs : rel == IJ_CONTAINS || rel == IJ_COVERS ? ~re : re;
}

/* Left row's query x in [xlo, xhi], y >= ymin; false when it is empty. */
static inline bool dom_query(IjRelation rel, int64_t ls, int64_t le, int64_t *xlo,
                             int64_t *xhi, int64_t *ymin) {
    *xlo = INT64_MIN;
    *xhi = INT64_MAX;
    bool ok = false;
    switch (rel) {
    case IJ_INTERSECTS: /* rs < le, re > ls */
        ok = below(le, xhi) && above(ls, ymin);
        break;
    case IJ_OVERLAPS: /* ls < rs < le, re > le */
        ok = above(ls, xlo) && below(le, xhi) && above(le, ymin);
        break;
    case IJ_OVERLAPPED_BY: /* ls < re < le, rs < ls: ~rs > ~ls */
        ok = above(ls, xlo) && below(le, xhi) && above(~ls, ymin);
        break;
    case IJ_DURING: /* rs < ls, re > le */
        ok = below(ls, xhi) && above(le, ymin);
        break;
    case IJ_CONTAINS: /* rs > ls, re < le: ~re > ~le */
        ok = above(ls, xlo) && above(~le, ymin);
        break;
    case IJ_COVERS: /* rs >= ls, re <= le: ~re >= ~le */
        *xlo = ls;
        *ymin = ~le;
        ok = true;
        break;
    case IJ_COVERED_BY: /* rs <= ls, re >= le */
        *xhi = ls;
        *ymin = le;
        ok = true;
        break;
    case IJ_PRECEDES: case IJ_PRECEDED_BY: case IJ_MEETS: case IJ_MET_BY: case IJ_STARTS:
    case IJ_STARTED_BY: case IJ_FINISHES: case IJ_FINISHED_BY: case IJ_EQUALS:
    case IJ_N_RELATIONS: ok = false; break; /* not a dominance relation */
    }
    return ok && *xlo <= *xhi;
}

/* ---- output: one run of right rows per left row (ijoin_out.c) ------------------------------- */

typedef struct {
    uint32_t *cstart, *clen;     /* per left row (global): its run in tmp */
    uint32_t *tmp;               /* runs of right rows (global ids) */
    size_t n_tmp, cap_tmp;
    uint32_t *xl, *xr;           /* extra pairs, in any order, merged into the runs at the end */
    size_t n_x, cap_x;
    bool in_order;               /* runs were reserved in increasing left row order */
    bool lent;                   /* tmp is part of a buffer shared by two halves (see
                                  * halves_open): it grows into a new buffer, never in place */
    int64_t last_left;
    RxError *err;
} Out;

static inline int out_limit(Out *o, size_t add) {
    size_t have = o->n_tmp + o->n_x;
    if (add > (size_t)UINT32_MAX - have)
        return rx_error(o->err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "the interval join's result exceeds %u rows", (unsigned)UINT32_MAX);
    return 0;
}

/* Makes room for add more rows in o->tmp (a lent buffer moves to one of its own). 0, or -1 with
 * o->err set (RX_ENOMEM, RX_ELIMIT). */
int tmp_grow(Out *o, size_t add);

/* Opens left row gl's run at the end of tmp (each left row has at most one run). */
static inline void run_open(Out *o, uint32_t gl) {
    if ((int64_t)gl <= o->last_left) o->in_order = false;
    o->last_left = gl;
    o->cstart[gl] = (uint32_t)o->n_tmp;
}
static inline void run_close(Out *o, uint32_t gl) { o->clen[gl] = (uint32_t)(o->n_tmp - o->cstart[gl]); }

static inline int run_push(Out *o, uint32_t gr) {
    if (o->n_tmp == o->cap_tmp && tmp_grow(o, 1) != 0) return -1;
    if (o->n_tmp >= UINT32_MAX) return out_limit(o, 1);
    o->tmp[o->n_tmp++] = gr;
    return 0;
}

/* Reserves a run of cnt rows for left row gl (tmp must have room); returns its offset. */
static inline uint32_t run_reserve(Out *o, uint32_t gl, size_t cnt) {
    run_open(o, gl);
    o->n_tmp += cnt;
    run_close(o, gl);
    return o->cstart[gl];
}

static inline int extra_push(Out *o, uint32_t gl, uint32_t gr) {
    if (o->n_x == o->cap_x) {
        if (out_limit(o, 1) != 0) return -1;
        size_t cap = o->cap_x ? o->cap_x + o->cap_x / 2 + 1 : 256;
        uint32_t *a = xrealloc(o->xl, cap * sizeof *a);
        if (!a) return oom(o->err);
        o->xl = a;
        uint32_t *b = xrealloc(o->xr, cap * sizeof *b);
        if (!b) return oom(o->err);
        o->xr = b;
        o->cap_x = cap;
    }
    if (out_limit(o, 1) != 0) return -1;
    o->xl[o->n_x] = gl;
    o->xr[o->n_x] = gr;
    o->n_x++;
    return 0;
}

/* Lays out the runs (and the extra pairs) as the result res, sorted by left row, then right
 * row. res's arrays are xmalloc'd, freed with ij_pairs_free. 0, or -1 with o->err set. */
int assemble(Out *o, size_t n_left, struct IjPairs *res);

/* Prepares o2, the output of the second half of a probe that probe_halves splits: empty, its
 * errors into err2, its runs in o's chunk, its pairs counted against o's result limit. Call it
 * when o holds everything it will before the probe. */
void halves_second(const Out *o, Out *o2, RxError *err2);

/* Runs probe over the two halves of L's rows, side by side when par, each half's runs in its
 * own part of one buffer (ijoin_out.c says how); 0 or -1 (o->err set). */
int probe_halves(Out *o, Out *o2, const Sub *L, const uint32_t *ord,
                 size_t (*count)(const void *, size_t), const void *tab,
                 int (*probe)(void *), void *p1, void *p2, size_t mid, bool par);

/* ---- the engines: each joins one partition's L and R into o; 0, or -1 with o->err set ------- */

/* ijoin_hash.c: MEETS, MET_BY, STARTS, STARTED_BY, FINISHES, FINISHED_BY, EQUALS. */
int eq_join(IjRelation rel, const Sub *L, const Sub *R, Out *o);
/* ijoin_band.c: PRECEDES, PRECEDED_BY. */
int band_join(IjRelation rel, const Sub *L, const Sub *R, Out *o);
/* ijoin_dominance.c: OVERLAPS, OVERLAPPED_BY, DURING, CONTAINS, and the rows the sweep and the
 * range scan hand over. Joins the left rows ql[0..nq) (NULL: all) with the right rows
 * pr[0..np) (NULL: all); pairs go to runs (one per left row) or, with extra, to the extra
 * pairs. */
int dom_join(IjRelation rel, const Sub *L, const uint32_t *ql, size_t nq, const Sub *R,
             const uint32_t *pr, size_t np, Out *o, bool extra);
/* ijoin_range.c: OVERLAPS, OVERLAPPED_BY. */
int range_join(IjRelation rel, const Sub *L, const Sub *R, Out *o);
/* ijoin_sweep.c: INTERSECTS. */
int sweep_join(const Sub *L, const Sub *R, Out *o);
/* ijoin_set.c: a set of relations (two members or more) by one box scan. 0; -1 with o->err set;
 * 1 when the scan declines because its candidates would far outnumber the rows (nothing was
 * written to o; never when force): the caller then runs the members one by one (ijoin.c). */
int set_join(IjRelSet set, const Sub *L, const Sub *R, Out *o, bool force);
/* Relation r's box for left row (ls, le): b = {xlo, xhi, ylo, yhi}, inclusive bounds on the
 * right row's start (x) and end (y) within which r holds exactly (every relation is such a
 * box); false when no right row can satisfy r (ijoin_set.c). */
bool ij_member_box(IjRelation r, int64_t ls, int64_t le, int64_t b[4]);
/* ijoin_exists.c: sets hit[input row] for every left row of L with a partner in R under some
 * member of set (a single relation is a one-member set); 0, or -1 with err set (RX_ENOMEM). */
int exists_join(IjRelSet set, const Sub *L, const Sub *R, uint8_t *hit, RxError *err);

#endif
