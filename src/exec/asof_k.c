/*
 * asof_k.c - the k-nearest AS-OF join of asof.h (asof_k_join): for each left row the k nearest
 * right rows of its partition, in one direction or both (NEAREST), ranked 1..k, nearest first.
 *
 * Algorithm: the valid right rows are sorted once by (partition, value, row) (O(m log m)). Each
 * valid left row binary-searches its partition's slice for the first value not before it, then
 * walks outwards group by group (a group is a run of equal values): backward from there, forward
 * from there, or both at once taking the nearer group first (equal distances: the side dir
 * names). A walk stops after k rows (k groups under TIES(ALL)) or at the first group beyond the
 * WITHIN bound. Cost O((m + n) log m + output). The answers of left rows are independent; the
 * output is in left order, then rank.
 */
#include "exec/asof.h"

#include <stdlib.h>
#include <string.h>

#include "exec/kernel.h"
#include "types/column.h"

typedef struct {
    uint32_t part;
    int64_t val;
    uint32_t row;
} KEnt;

static int kent_cmp(const void *a, const void *b) {
    const KEnt *x = a, *y = b;
    if (x->part != y->part) return x->part < y->part ? -1 : 1;
    if (x->val != y->val) return x->val < y->val ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static bool valid_row(const AsofSide *s, size_t i) {
    return !s->valid || ((s->valid[i >> 6] >> (i & 63)) & 1);
}

/* Appends (l, r, rank) to out; -1 on OOM or past the row limit (err set). */
static int push(AsofKOut *out, uint32_t l, uint32_t r, uint32_t rank, RxError *err) {
    if (out->n == out->cap) {
        if (out->cap >= RX_MAX_ROWS)
            return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "the AS-OF join's result exceeds %u rows",
                            (unsigned)RX_MAX_ROWS);
        size_t cap = out->cap ? out->cap * 2 : 1024;
        if (cap > RX_MAX_ROWS) cap = RX_MAX_ROWS;
        uint32_t *a = realloc(out->left, cap * sizeof *a);
        if (a) out->left = a;
        uint32_t *b = a ? realloc(out->right, cap * sizeof *b) : NULL;
        if (b) out->right = b;
        uint32_t *c = b ? realloc(out->rank, cap * sizeof *c) : NULL;
        if (c) out->rank = c;
        if (!c) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the AS-OF join");
        out->cap = cap;
    }
    out->left[out->n] = l;
    out->right[out->n] = r;
    out->rank[out->n] = rank;
    out->n++;
    return 0;
}

void asof_k_free(AsofKOut *out) {
    free(out->left);
    free(out->right);
    free(out->rank);
    memset(out, 0, sizeof *out);
}

/* Emits the group e[g0, g1) (equal values) at rank *rank: every row under ties_all, otherwise
 * rows one rank each (first to last in input order under ties_first, last to first otherwise)
 * while fewer than k are out. */
static int emit_group(const KEnt *e, size_t g0, size_t g1, uint32_t l, const AsofKOptions *o,
                      uint32_t *rank, uint32_t *count, AsofKOut *out, RxError *err) {
    if (o->ties_all) {
        ++*rank;
        for (size_t j = g0; j < g1; j++)
            if (push(out, l, e[j].row, *rank, err) < 0) return -1;
        ++*count;
        return 0;
    }
    for (size_t t = 0; t < g1 - g0 && *count < o->k; t++) {
        size_t j = o->base.ties_first ? g0 + t : g1 - 1 - t;
        if (push(out, l, e[j].row, ++*rank, err) < 0) return -1;
        ++*count;
    }
    return 0;
}

int asof_k_join(const AsofSide *l, const AsofSide *r, const AsofKOptions *o, AsofKOut *out, RxError *err) {
    memset(out, 0, sizeof *out);
    if (l->n > RX_MAX_ROWS || r->n > RX_MAX_ROWS)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "AS-OF join input over %u rows", (unsigned)RX_MAX_ROWS);
    AsofDir dir = o->base.dir;
    bool nearest = o->base.nearest;
    bool back = nearest || dir == ASOF_BACKWARD || dir == ASOF_BACKWARD_STRICT;
    bool fwd = nearest || dir == ASOF_FORWARD || dir == ASOF_FORWARD_STRICT;
    bool prefer_back = dir == ASOF_BACKWARD || dir == ASOF_BACKWARD_STRICT;
    /* whether an equal value counts on the backward / forward side (NEAREST: on the preferred
     * side, when dir is not strict) */
    bool eq_back = nearest ? dir == ASOF_BACKWARD : dir == ASOF_BACKWARD;
    bool eq_fwd = nearest ? dir == ASOF_FORWARD : dir == ASOF_FORWARD;
    uint64_t within = o->base.has_within && o->base.within > 0 ? (uint64_t)o->base.within : 0;
    bool neg_within = o->base.has_within && o->base.within < 0;
    KEnt *e = malloc((r->n ? r->n : 1) * sizeof *e);
    if (!e) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the AS-OF join");
    size_t m = 0;
    for (size_t j = 0; j < r->n; j++) {
        uint32_t p = r->part ? r->part[j] : 0;
        if (!valid_row(r, j) || (r->part && p >= o->base.n_parts)) continue;
        e[m++] = (KEnt){p, r->val[j], (uint32_t)j};
    }
    qsort(e, m, sizeof *e, kent_cmp);
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0 && !neg_within; i++) {
        uint32_t p = l->part ? l->part[i] : 0;
        if (!valid_row(l, i) || (l->part && p >= o->base.n_parts)) continue;
        int64_t v = l->val[i];
        /* the partition's slice [lo, hi), then the first entry with value >= v (ge) and > v (gt) */
        size_t lo = 0, hi = m;
        {
            size_t a = 0, b = m;
            while (a < b) {
                size_t mid = a + (b - a) / 2;
                if (e[mid].part < p) a = mid + 1;
                else b = mid;
            }
            lo = a;
            b = m;
            while (a < b) {
                size_t mid = a + (b - a) / 2;
                if (e[mid].part <= p) a = mid + 1;
                else b = mid;
            }
            hi = a;
        }
        size_t a = lo, b = hi;
        while (a < b) {
            size_t mid = a + (b - a) / 2;
            if (e[mid].val < v) a = mid + 1;
            else b = mid;
        }
        size_t ge = a;
        b = hi;
        while (a < b) {
            size_t mid = a + (b - a) / 2;
            if (e[mid].val <= v) a = mid + 1;
            else b = mid;
        }
        size_t gt = a;
        /* backward cursor: groups ending at bc (exclusive), going down; forward: from fc up */
        size_t bc = back ? (eq_back ? gt : ge) : lo;
        size_t fc = fwd ? (eq_fwd ? ge : gt) : hi;
        uint32_t rank = 0, count = 0;
        while (count < o->k && rc == 0) {
            bool hb = back && bc > lo, hf = fwd && fc < hi;
            uint64_t db = hb ? (uint64_t)v - (uint64_t)e[bc - 1].val : 0;
            uint64_t df = hf ? (uint64_t)e[fc].val - (uint64_t)v : 0;
            if (hb && o->base.has_within && db > within) hb = false;
            if (hf && o->base.has_within && df > within) hf = false;
            if (!hb && !hf) break;
            bool take_back = hb && (!hf || db < df || (db == df && prefer_back));
            if (take_back) {
                size_t g1 = bc, g0 = bc - 1;
                while (g0 > lo && e[g0 - 1].val == e[g1 - 1].val) g0--;
                rc = emit_group(e, g0, g1, (uint32_t)i, o, &rank, &count, out, err);
                bc = g0;
            } else {
                size_t g0 = fc, g1 = fc + 1;
                while (g1 < hi && e[g1].val == e[g0].val) g1++;
                rc = emit_group(e, g0, g1, (uint32_t)i, o, &rank, &count, out, err);
                fc = g1;
            }
        }
    }
    free(e);
    if (rc < 0) asof_k_free(out);
    return rc;
}
