/*
 * ijoin.c - the interval-join kernel of ijoin.h, its frame: every (left row, right row) pair
 * whose intervals satisfy one of the fourteen endpoint predicates of spec/interval-join.md, in
 * (left row, right row) order.
 *
 * The executor hands over int64 keys, validity bitmaps and optional partition ids. Every
 * predicate is applied literally, also to empty (s = e) and inverted (s > e) intervals; the one
 * fast path that assumes s < e (INTERSECTS) routes the other rows to the exact dominance sweep.
 * docs/ijoin.md gives the reasoning and the costs.
 *
 * Algorithm (n left rows, m right rows, k result pairs):
 *   1. Drop invalid rows; group both sides by partition id with a counting sort (O(n + m)).
 *      Each partition is joined on its own; a left row lies in one partition only, so its pairs
 *      come from one partition.
 *   2. Per partition, the engine the planner names for the relation (ij_engine, plan.c), each in
 *      a file of its own with its algorithm atop it:
 *        a. endpoint merge (ijoin_hash.c): MEETS, MET_BY, STARTS, STARTED_BY, FINISHES,
 *           FINISHED_BY, EQUALS;
 *        b. band (ijoin_band.c): PRECEDES, PRECEDED_BY;
 *        c. dominance sweep (ijoin_dominance.c): DURING, CONTAINS;
 *        d. sweep (ijoin_sweep.c): INTERSECTS;
 *        e. range scan (ijoin_range.c): OVERLAPS, OVERLAPPED_BY;
 *        f. box scan (ijoin_set.c): a set of relations (opt->set), in one pass;
 *        the nested loop (IJ_ALGO_NESTED_LOOP, here): ij_holds over every valid pair, the
 *        reference every engine is tested against.
 *      Sorting is the LSD radix sort of radix.c.
 *   3. Assembly (ijoin_out.c): each left row's run sorted by right row, runs laid out in left
 *      order.
 * Optimisations, not needed for correctness: independent halves of a phase run on two threads
 * (run_two; each writes its own arrays, so results do not depend on it), loops that index by
 * row ids prefetch ahead, and large buffers are requested in huge pages (xmalloc). No state
 * outlives a call.
 */
#include "exec/ijoin.h"

#include <stdlib.h>
#include <string.h>

#include "exec/ijoin_int.h"

void ij_pairs_free(IjPairs *p) {
    if (!p) return;
    rx_map_free(p->left);
    rx_map_free(p->right);
    p->left = p->right = NULL;
    p->n = p->cap = 0;
}

/* ---- nested loop ---------------------------------------------------------------------------- */

static int nested_join(IjRelation rel, IjRelSet set, const Sub *L, const Sub *R, Out *o) {
    for (size_t i = 0; i < L->n; i++) {
        uint32_t gl = gid_of(L, i);
        bool open = false;
        for (size_t j = 0; j < R->n; j++) {
            if (set ? !ij_holds_set(set, L->s[i], L->e[i], R->s[j], R->e[j])
                    : !ij_holds(rel, L->s[i], L->e[i], R->s[j], R->e[j]))
                continue;
            if (!open) {
                run_open(o, gl);
                open = true;
            }
            if (run_push(o, gid_of(R, j)) != 0) return -1;
        }
        if (open) run_close(o, gl);
    }
    return 0;
}

/* ---- partitions ----------------------------------------------------------------------------- */

static inline bool row_valid(const IjSide *x, size_t i) {
    return !x->valid || ((x->valid[i >> 6] >> (i & 63)) & 1);
}

/* Groups the valid rows of x by partition id (counting sort, stable): rows[start[p]..start[p+1])
 * are partition p's rows in input order. rows is NULL when every row is valid and there is one
 * partition (the identity). */
static int group_rows(const IjSide *x, uint32_t n_parts, uint32_t **rows, size_t **start) {
    *rows = NULL;
    *start = xcalloc((size_t)n_parts + 1, sizeof **start);
    if (!*start) return -1;
    size_t *st = *start;
    if (!x->part && !x->valid) {
        /* Without ids every row is in partition 0. */
        for (uint32_t p = 1; p <= n_parts; p++) st[p] = x->n;
        return 0;
    }
    *rows = xmalloc(x->n, sizeof **rows);
    if (!*rows) return -1;
    for (size_t i = 0; i < x->n; i++)
        if (row_valid(x, i)) st[(x->part ? x->part[i] : 0) + 1]++;
    for (uint32_t p = 0; p < n_parts; p++) st[p + 1] += st[p];
    size_t *pos = xmalloc((size_t)n_parts, sizeof *pos);
    if (!pos) return -1;
    memcpy(pos, st, (size_t)n_parts * sizeof *pos);
    for (size_t i = 0; i < x->n; i++)
        if (row_valid(x, i)) (*rows)[pos[x->part ? x->part[i] : 0]++] = (uint32_t)i;
    xfree(pos);
    return 0;
}

/* Makes partition rows[a..b) of x a Sub, gathering its keys into bs/be (room for b - a). */
static Sub make_sub(const IjSide *x, const uint32_t *rows, size_t a, size_t b, int64_t *bs,
                    int64_t *be) {
    Sub s;
    if (!rows) {
        s.s = x->s + a;
        s.e = x->e + a;
        s.gid = NULL;
        s.n = b - a;
        return s;
    }
    for (size_t t = a; t < b; t++) {
        bs[t - a] = x->s[rows[t]];
        be[t - a] = x->e[rows[t]];
    }
    s.s = bs;
    s.e = be;
    s.gid = rows + a;
    s.n = b - a;
    return s;
}

static int join_sub(IjRelation rel, IjRelSet set, IjEngine eng, IjAlgo algo, const Sub *L,
                    const Sub *R, Out *o);

/* A set of relations, member by member: each member's own kernel over the partition (with local
 * row ids), and each of its pairs kept only when no earlier member holds for it, so every pair
 * comes once without a distinct; the pairs go to o as extra pairs, which assemble() sorts into
 * the left rows' runs. Cost: the members' kernels, each output-sensitive, plus the set's pairs
 * times its members. 0, or -1 with o->err set. */
static int members_join(IjRelSet set, const Sub *L, const Sub *R, Out *o) {
    Sub l = *L, r = *R;
    l.gid = NULL;
    r.gid = NULL;
    Out t;
    memset(&t, 0, sizeof t);
    t.err = o->err;
    t.cstart = xmalloc(L->n ? L->n : 1, sizeof *t.cstart);
    t.clen = xmalloc(L->n ? L->n : 1, sizeof *t.clen);
    int rc = -1;
    if (!t.cstart || !t.clen) {
        oom(o->err);
        goto done;
    }
    for (int m = 0; m < IJ_N_RELATIONS; m++) {
        if (!(set >> m & 1)) continue;
        IjRelSet earlier = set & (IJ_SET_OF(m) - 1);
        memset(t.clen, 0, L->n * sizeof *t.clen);
        t.n_tmp = t.n_x = 0;
        t.in_order = true;
        t.last_left = -1;
        if (join_sub((IjRelation)m, 0, ij_engine((IjRelation)m, NULL), IJ_ALGO_AUTO, &l, &r, &t) != 0)
            goto done;
        for (size_t i = 0; i < L->n; i++) {
            const uint32_t *run = t.tmp + t.cstart[i];
            for (uint32_t k = 0; k < t.clen[i]; k++) {
                uint32_t j = run[k];
                if (earlier && ij_holds_set(earlier, L->s[i], L->e[i], R->s[j], R->e[j])) continue;
                if (extra_push(o, gid_of(L, i), gid_of(R, j)) != 0) goto done;
            }
        }
        for (size_t x = 0; x < t.n_x; x++) {
            uint32_t i = t.xl[x], j = t.xr[x];
            if (earlier && ij_holds_set(earlier, L->s[i], L->e[i], R->s[j], R->e[j])) continue;
            if (extra_push(o, gid_of(L, i), gid_of(R, j)) != 0) goto done;
        }
    }
    rc = 0;
done:
    xfree(t.cstart);
    xfree(t.clen);
    xfree(t.tmp);
    xfree(t.xl);
    xfree(t.xr);
    return rc;
}

/* Runs engine eng over one partition's rows into o (algo: the options' choice, which only a set's
 * engine consults). 0, or -1 with o->err set. */
static int join_sub(IjRelation rel, IjRelSet set, IjEngine eng, IjAlgo algo, const Sub *L,
                    const Sub *R, Out *o) {
    switch (eng) {
    case ENG_NESTED: return nested_join(rel, set, L, R, o);
    case ENG_SET: {
        if (algo == IJ_ALGO_SET_MEMBERS) return members_join(set, L, R, o);
        int rc = set_join(set, L, R, o, algo == IJ_ALGO_SET_SCAN);
        return rc == 1 ? members_join(set, L, R, o) : rc;
    }
    case ENG_EQ: return eq_join(rel, L, R, o);
    case ENG_BAND: return band_join(rel, L, R, o);
    case ENG_DOM: return dom_join(rel, L, NULL, L->n, R, NULL, R->n, o, false);
    case ENG_RANGE: return range_join(rel, L, R, o);
    case ENG_SWEEP: return sweep_join(L, R, o);
    }
    return 0;
}

int ij_join(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
            IjPairs *out, RxError *err) {
    IjRelSet set = opt ? opt->set : 0;
    if (set & ~(IJ_SET_OF(IJ_N_RELATIONS) - 1))
        return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "unknown interval relation in a set");
    if (!set && (unsigned)rel >= IJ_N_RELATIONS)
        return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "unknown interval relation");
    if (l->n > UINT32_MAX || r->n > UINT32_MAX)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "the interval join takes at most %u rows per side", (unsigned)UINT32_MAX);
    out->n = out->cap = 0;
    IjEngine eng = ij_engine(rel, opt);
    /* Partition ids: a side without them is all partition 0. */
    uint32_t n_parts = 1;
    if (l->part || r->part) {
        const IjSide *sides[2] = {l, r};
        for (int k = 0; k < 2; k++)
            if (sides[k]->part)
                for (size_t i = 0; i < sides[k]->n; i++)
                    if (sides[k]->part[i] >= n_parts && row_valid(sides[k], i)) {
                        if (sides[k]->part[i] == UINT32_MAX)
                            return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                            "interval join: partition id out of range");
                        n_parts = sides[k]->part[i] + 1;
                    }
    }
    Out o;
    memset(&o, 0, sizeof o);
    o.in_order = true;
    o.last_left = -1;
    o.err = err;
    int rc = -1;
    uint32_t *lrows = NULL, *rrows = NULL;
    size_t *lst = NULL, *rst = NULL;
    int64_t *buf = NULL;
    o.cstart = xmalloc(l->n, sizeof *o.cstart);
    o.clen = xcalloc(l->n, sizeof *o.clen);
    if (!o.cstart || !o.clen || group_rows(l, n_parts, &lrows, &lst) != 0 ||
        group_rows(r, n_parts, &rrows, &rst) != 0) {
        oom(err);
        goto done;
    }
    size_t maxl = 0, maxr = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p + 1] - lst[p] > maxl) maxl = lst[p + 1] - lst[p];
        if (rst[p + 1] - rst[p] > maxr) maxr = rst[p + 1] - rst[p];
    }
    size_t nbuf = (lrows ? 2 * maxl : 0) + (rrows ? 2 * maxr : 0);
    buf = xmalloc(nbuf, sizeof *buf);
    if (!buf) {
        oom(err);
        goto done;
    }
    int64_t *lbs = buf, *lbe = lbs + (lrows ? maxl : 0);
    int64_t *rbs = lbe + (lrows ? maxl : 0), *rbe = rbs + (rrows ? maxr : 0);
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p] == lst[p + 1] || rst[p] == rst[p + 1]) continue;
        Sub L = make_sub(l, lrows, lst[p], lst[p + 1], lbs, lbe);
        Sub R = make_sub(r, rrows, rst[p], rst[p + 1], rbs, rbe);
        if (join_sub(rel, set, eng, opt ? opt->algo : IJ_ALGO_AUTO, &L, &R, &o) != 0) goto done;
    }
    if (assemble(&o, l->n, out) != 0) goto done;
    rc = 0;
done:
    xfree(o.cstart);
    xfree(o.clen);
    xfree(o.tmp);
    xfree(o.xl);
    xfree(o.xr);
    xfree(lrows);
    xfree(rrows);
    xfree(lst);
    xfree(rst);
    xfree(buf);
    return rc;
}

/* ---- existence (IJOIN SEMI, ANTI) ----------------------------------------------------------- */

/* The reference: each left row scans the right rows up to its first partner. */
static void nested_exists(IjRelSet set, const Sub *L, const Sub *R, uint8_t *hit) {
    for (size_t i = 0; i < L->n; i++) {
        uint32_t gl = gid_of(L, i);
        for (size_t j = 0; j < R->n && !hit[gl]; j++)
            hit[gl] = ij_holds_set(set, L->s[i], L->e[i], R->s[j], R->e[j]);
    }
}

int ij_exists(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
              uint8_t *hit, RxError *err) {
    IjRelSet set = opt && opt->set ? opt->set : (unsigned)rel < IJ_N_RELATIONS ? IJ_SET_OF(rel) : 0;
    if (!set || (set & ~(IJ_SET_OF(IJ_N_RELATIONS) - 1)))
        return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "unknown interval relation");
    if (l->n > UINT32_MAX || r->n > UINT32_MAX)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "the interval join takes at most %u rows per side", (unsigned)UINT32_MAX);
    memset(hit, 0, l->n);
    bool nested = opt && opt->algo == IJ_ALGO_NESTED_LOOP;
    uint32_t n_parts = 1;
    const IjSide *sides[2] = {l, r};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; sides[k]->part && i < sides[k]->n; i++)
            if (sides[k]->part[i] >= n_parts && row_valid(sides[k], i)) {
                if (sides[k]->part[i] == UINT32_MAX)
                    return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                    "interval join: partition id out of range");
                n_parts = sides[k]->part[i] + 1;
            }
    uint32_t *lrows = NULL, *rrows = NULL;
    size_t *lst = NULL, *rst = NULL;
    int64_t *buf = NULL;
    int rc = -1;
    if (group_rows(l, n_parts, &lrows, &lst) != 0 || group_rows(r, n_parts, &rrows, &rst) != 0) {
        oom(err);
        goto done;
    }
    size_t maxl = 0, maxr = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p + 1] - lst[p] > maxl) maxl = lst[p + 1] - lst[p];
        if (rst[p + 1] - rst[p] > maxr) maxr = rst[p + 1] - rst[p];
    }
    buf = xmalloc((lrows ? 2 * maxl : 0) + (rrows ? 2 * maxr : 0), sizeof *buf);
    if (!buf) {
        oom(err);
        goto done;
    }
    int64_t *lbs = buf, *lbe = lbs + (lrows ? maxl : 0);
    int64_t *rbs = lbe + (lrows ? maxl : 0), *rbe = rbs + (rrows ? maxr : 0);
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p] == lst[p + 1] || rst[p] == rst[p + 1]) continue;
        Sub L = make_sub(l, lrows, lst[p], lst[p + 1], lbs, lbe);
        Sub R = make_sub(r, rrows, rst[p], rst[p + 1], rbs, rbe);
        if (nested) nested_exists(set, &L, &R, hit);
        else if (exists_join(set, &L, &R, hit, err) != 0) goto done;
    }
    rc = 0;
done:
    xfree(lrows);
    xfree(rrows);
    xfree(lst);
    xfree(rst);
    xfree(buf);
    return rc;
}
