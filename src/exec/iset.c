/*
 * iset.c - the interval-set operators PACK, GAPS, NORMALIZE, IMINUS and IINTERSECT: the
 * kernels of iset.h over int64 endpoints, and ops_iset, which encodes a plan node's columns for
 * them and builds the output table.
 */
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/iset.h"
#include "exec/keys.h"
#include "exec/ops.h"

void iset_list_free(IsetList *l) {
    rx_free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

void iset_cols_free(IsetCols *c) {
    rx_free(c->row);
    rx_free(c->s);
    rx_free(c->e);
    *c = (IsetCols){0};
}

/* Room in c for at least extra more pieces (doubling); -1 on OOM. */
static int cols_reserve(IsetCols *c, size_t extra) {
    if (c->cap - c->n >= extra) return 0;
    size_t cap = c->cap * 2 > c->n + extra ? c->cap * 2 : c->n + extra;
    if (cap < 64) cap = 64;
    uint32_t *row = rx_realloc(c->row, cap * sizeof *row);
    if (row) c->row = row;
    int64_t *s = row ? rx_realloc(c->s, cap * sizeof *s) : NULL;
    if (s) c->s = s;
    int64_t *e = s ? rx_realloc(c->e, cap * sizeof *e) : NULL;
    if (!e) return -1;
    c->e = e;
    c->cap = cap;
    return 0;
}

static inline int cols_push(IsetCols *c, uint32_t row, int64_t s, int64_t e) {
    if (c->n == c->cap && cols_reserve(c, 1) < 0) return -1;
    c->row[c->n] = row;
    c->s[c->n] = s;
    c->e[c->n++] = e;
    return 0;
}

static int list_push(IsetList *l, uint32_t part, uint32_t row, int64_t s, int64_t e) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        IsetIv *v = rx_realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (IsetIv){s, e, part, row};
    return 0;
}

static int iv_cmp(const void *a, const void *b) {
    const IsetIv *x = a, *y = b;
    if (x->part != y->part) return x->part < y->part ? -1 : 1;
    if (x->s != y->s) return x->s < y->s ? -1 : 1;
    if (x->e != y->e) return x->e < y->e ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Room in l for extra more entries, so that pushes up to it need no growth. -1 on OOM. */
static int list_reserve(IsetList *l, size_t extra) {
    if (l->cap - l->n >= extra) return 0;
    size_t cap = l->n + (extra ? extra : 1);
    IsetIv *v = rx_realloc(l->v, cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
    return 0;
}

/* The rows of a side that hold a point and have a partition, sorted by (part, s, e, row);
 * malloc'd (k entries, at least one slot). NULL on OOM. */
static IsetIv *sorted_rows(const uint32_t *part, const int64_t *s, const int64_t *e, size_t n, size_t k) {
    IsetIv *v = rx_malloc((k ? k : 1) * sizeof *v);
    if (!v) return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        if (part[i] != ROW_NONE && s[i] < e[i]) v[j++] = (IsetIv){s[i], e[i], part[i], (uint32_t)i};
    qsort(v, k, sizeof *v, iv_cmp);
    return v;
}

/* PACK's sweep: the open pack (the last of packs) and its partition and end so far. */
typedef struct {
    IsetCols *packs;
    int64_t *count;   /* NULL: not counted */
    uint32_t part;
    int64_t end;
} PackSweep;

/* The next row in (part, s, e, row) order, [s, e) of partition part, joins the open pack or
 * opens one (packs has room). Returns its pack's index. */
static inline uint32_t pack_step(PackSweep *w, uint32_t part, int64_t s, int64_t e, uint32_t row) {
    IsetCols *p = w->packs;
    if (p->n == 0 || part != w->part || s > w->end) {
        if (p->n) p->e[p->n - 1] = w->end;
        p->row[p->n] = row;
        p->s[p->n] = s;
        if (w->count) w->count[p->n] = 0;
        p->n++;
        w->part = part;
        w->end = e;
    } else if (e > w->end) {
        w->end = e;
    }
    if (w->count) w->count[p->n - 1]++;
    return (uint32_t)(p->n - 1);
}

int iset_pack(const uint32_t *part, const int64_t *s, const int64_t *e, size_t n, IsetCols *packs,
              int64_t **count, uint32_t **order, uint32_t **pack_of, size_t *n_order) {
    /* sized for every row: only the entries written are touched */
    size_t cap = n ? n : 1;
    IsetIv *v = NULL;
    uint32_t *ord = order ? rx_malloc(cap * sizeof *ord) : NULL;
    uint32_t *of = pack_of ? rx_malloc(cap * sizeof *of) : NULL;
    int64_t *cnt = count ? rx_malloc(cap * sizeof *cnt) : NULL;
    if ((order && !ord) || (pack_of && !of) || (count && !cnt) || cols_reserve(packs, n) < 0) goto oom;
    PackSweep w = {packs, cnt, 0, 0};
    /* rows in (part, s, e) order already, as files of intervals often are, are swept in place
     * (row order settles ties); at the first row out of order the sweep starts over on the
     * rows sorted */
    size_t k = 0, prev = 0;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        if (part[i] == ROW_NONE || s[i] >= e[i]) continue;
        if (k > 0 && (part[prev] != part[i] ? part[prev] > part[i] : s[prev] != s[i] ? s[prev] > s[i] : e[prev] > e[i])) {
            sorted = false;
            break;
        }
        prev = i;
        uint32_t pk = pack_step(&w, part[i], s[i], e[i], (uint32_t)i);
        if (ord) ord[k] = (uint32_t)i;
        if (of) of[k] = pk;
        k++;
    }
    if (!sorted) {
        packs->n = 0;
        k = 0;
        for (size_t i = 0; i < n; i++) k += part[i] != ROW_NONE && s[i] < e[i];
        if (!(v = sorted_rows(part, s, e, n, k))) goto oom;
        for (size_t i = 0; i < k; i++) {
            const IsetIv *x = &v[i];
            uint32_t pk = pack_step(&w, x->part, x->s, x->e, x->row);
            if (ord) ord[i] = x->row;
            if (of) of[i] = pk;
        }
    }
    if (packs->n) packs->e[packs->n - 1] = w.end;
    rx_free(v);
    if (sorted && k == n) {
        /* the order is the row order: read in place */
        rx_free(ord);
        ord = NULL;
    }
    if (order) *order = ord;
    if (pack_of) *pack_of = of;
    if (count) *count = cnt;
    if (n_order) *n_order = k;
    return 0;
oom:
    rx_free(v);
    rx_free(ord);
    rx_free(of);
    rx_free(cnt);
    return -1;
}

int iset_gaps(const IsetCols *packs, const uint32_t *part, uint32_t n_parts, bool has_range, int64_t lo,
              int64_t hi, IsetCols *out) {
    /* a partition has at most one gap more than packs: room for all at once */
    if (cols_reserve(out, packs->n + n_parts) < 0) return -1;
    size_t i = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        /* cur: where the free time starts (the range's low end, or after the first pack) */
        bool started = has_range;
        int64_t cur = lo;
        for (; i < packs->n && part[packs->row[i]] == p; i++) {
            if (started) {
                int64_t a = cur, b = packs->s[i];
                if (has_range) {
                    if (a < lo) a = lo;
                    if (b > hi) b = hi;
                }
                if (a < b && cols_push(out, p, a, b) < 0) return -1;
            }
            started = true;
            cur = packs->e[i];
        }
        if (has_range && started) {
            int64_t a = cur < lo ? lo : cur;
            if (a < hi && cols_push(out, p, a, hi) < 0) return -1;
        }
    }
    return 0;
}

/* The first index of end[from..to) above x (the ends of disjoint sorted packs ascend). */
static size_t first_end_above(const int64_t *end, size_t from, size_t to, int64_t x) {
    while (from < to) {
        size_t mid = from + (to - from) / 2;
        if (end[mid] <= x) from = mid + 1;
        else to = mid;
    }
    return from;
}

/* first_end_above(v, from, to, x) found by galloping from `from`: steps of 1, 2, 4, ... and
 * then a binary search within the last step, so that a sweep whose x ascends costs the
 * logarithm of the distance moved rather than of the whole range. */
static size_t gallop_end_above(const int64_t *end, size_t from, size_t to, int64_t x) {
    size_t lo = from, step = 1;
    while (lo < to && end[lo] <= x) {
        size_t next = to - lo > step ? lo + step : to;
        if (next == to || end[next] > x) return first_end_above(end, lo + 1, next, x);
        lo = next;
        step *= 2;
    }
    return lo;
}

/* Where each partition's entries start in v (sorted by part): starts[p]..starts[p+1]. NULL on
 * OOM. */
static size_t *part_starts(const IsetIv *v, size_t n, uint32_t n_parts) {
    size_t *st = rx_calloc((size_t)n_parts + 2, sizeof *st);
    if (!st) return NULL;
    for (size_t i = 0; i < n; i++) st[v[i].part + 1]++;
    for (uint32_t p = 0; p < n_parts; p++) st[p + 1] += st[p];
    return st;
}

/* part_starts for packs (iset_pack's, of rows with partitions part). NULL on OOM. */
static size_t *pack_starts(const IsetCols *u, const uint32_t *part, uint32_t n_parts) {
    size_t *st = rx_calloc((size_t)n_parts + 2, sizeof *st);
    if (!st) return NULL;
    for (size_t i = 0; i < u->n; i++) st[part[u->row[i]] + 1]++;
    for (uint32_t p = 0; p < n_parts; p++) st[p + 1] += st[p];
    return st;
}

int iset_minus(const uint32_t *lpart, const int64_t *ls, const int64_t *le, size_t nl,
               const uint32_t *rpart, const int64_t *rs, const int64_t *re, size_t nr, uint32_t n_parts,
               bool intersect, IsetCols *out) {
    IsetCols u = {0};
    size_t *st = NULL;
    /* about a piece per left row is usual: room for that at once rather than growth by copies */
    if (cols_reserve(out, nl) < 0 || iset_pack(rpart, rs, re, nr, &u, NULL, NULL, NULL, NULL) < 0 ||
        !(st = pack_starts(&u, rpart, n_parts))) {
        iset_cols_free(&u);
        return -1;
    }
    int rc = 0;
    /* the last row's partition, start and first right pack ending above it: a left side in
     * (partition, start) order, as files of intervals usually are, is one merge sweep */
    uint32_t last_p = ROW_NONE;
    int64_t last_s = 0;
    size_t last_j = 0;
    for (size_t i = 0; i < nl && rc == 0; i++) {
        int64_t s = ls[i], e = le[i];
        if (s >= e) continue;
        uint32_t p = lpart[i];
        size_t j = 0, end = 0;
        if (p != ROW_NONE) {
            end = st[p + 1];
            j = p == last_p && s >= last_s ? gallop_end_above(u.e, last_j, end, s) : first_end_above(u.e, st[p], end, s);
            last_p = p;
            last_s = s;
            last_j = j;
        }
        int64_t cur = s;   /* IMINUS: the start of what is not covered yet */
        for (; j < end && u.s[j] < e; j++) {
            int64_t cs = u.s[j], ce = u.e[j];
            if (intersect) {
                int64_t a = cs > s ? cs : s, b = ce < e ? ce : e;
                rc = cols_push(out, (uint32_t)i, a, b);
            } else {
                if (cs > cur) rc = cols_push(out, (uint32_t)i, cur, cs);
                cur = ce;
            }
            if (rc < 0) break;
        }
        if (rc == 0 && !intersect && cur < e) rc = cols_push(out, (uint32_t)i, cur, e);
    }
    iset_cols_free(&u);
    rx_free(st);
    return rc;
}

static int i64_cmp(const void *a, const void *b) {
    const IsetIv *x = a, *y = b;
    if (x->part != y->part) return x->part < y->part ? -1 : 1;
    return (x->s > y->s) - (x->s < y->s);
}

int iset_normalize(const uint32_t *lpart, const int64_t *ls, const int64_t *le, size_t nl,
                   const uint32_t *rpart, const int64_t *rs, const int64_t *re, size_t nr,
                   uint32_t n_parts, IsetList *out) {
    /* the cut points: every endpoint of a right interval that holds a point, per partition,
     * sorted and without duplicates (.s is the point) */
    IsetIv *cut = rx_malloc((2 * nr + 1) * sizeof *cut);
    if (!cut || list_reserve(out, nl) < 0) {
        rx_free(cut);
        return -1;
    }
    size_t nc = 0;
    for (size_t i = 0; i < nr; i++)
        if (rpart[i] != ROW_NONE && rs[i] < re[i]) {
            cut[nc++] = (IsetIv){rs[i], 0, rpart[i], 0};
            cut[nc++] = (IsetIv){re[i], 0, rpart[i], 0};
        }
    qsort(cut, nc, sizeof *cut, i64_cmp);
    size_t k = 0;
    for (size_t i = 0; i < nc; i++)
        if (k == 0 || cut[k - 1].part != cut[i].part || cut[k - 1].s != cut[i].s) cut[k++] = cut[i];
    nc = k;
    size_t *st = part_starts(cut, nc, n_parts);
    if (!st) {
        rx_free(cut);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < nl && rc == 0; i++) {
        int64_t s = ls[i], e = le[i];
        if (s >= e) continue;
        uint32_t p = lpart[i];
        size_t j = 0, end = 0;
        if (p != ROW_NONE) {
            /* the first cut above s */
            size_t lo = st[p], hi = st[p + 1];
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (cut[mid].s <= s) lo = mid + 1;
                else hi = mid;
            }
            j = lo;
            end = st[p + 1];
        }
        int64_t cur = s;
        for (; j < end && cut[j].s < e && rc == 0; j++) {
            rc = list_push(out, p, (uint32_t)i, cur, cut[j].s);
            cur = cut[j].s;
        }
        if (rc == 0) rc = list_push(out, p, (uint32_t)i, cur, e);
    }
    rx_free(cut);
    rx_free(st);
    return rc;
}

/* ---- the operator --------------------------------------------------------------------------- */

/* The order-keeping int64 code of a FLOAT: -0 as 0, every NaN one value (above +Infinity). */
static int64_t float_key(double d) {
    if (d != d) d = __builtin_nan("");
    if (d == 0) d = 0;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    u = (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
    return (int64_t)(u ^ (UINT64_C(1) << 63));
}

static double float_of_key(int64_t k) {
    uint64_t u = (uint64_t)k ^ (UINT64_C(1) << 63);
    u = (u >> 63) ? u & ~(UINT64_C(1) << 63) : ~u;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The endpoint of a Value of type t as a key (t is one of iset_endpoint_type's). */
static int64_t value_key(const Value *v) {
    switch (v->type) {
    case TY_FLOAT: return float_key(v->v.f);
    case TY_DATE: return v->v.date;
    default: return v->v.i;
    }
}

/* The start and end columns s, e as keys; a row with a NULL endpoint gets [0, 0), which holds
 * no point. *ks and *ke are malloc'd (*own true), or, when both columns are INT, TIMESTAMP or
 * TIME without NULLs, the columns' own data, read only (*own false). -1 on OOM. */
static int encode_ends(const Column *s, const Column *e, size_t n, int64_t **ks, int64_t **ke, bool *own) {
    bool as_is = true;
    for (int k = 0; k < 2; k++) {
        const Column *c = k ? e : s;
        as_is &= !c->pruned && !c->valid && (c->type == TY_INT || c->type == TY_TIMESTAMP || c->type == TY_TIME);
    }
    *own = !as_is;
    if (as_is) {
        *ks = col_i64(s);
        *ke = col_i64(e);
        return 0;
    }
    int64_t *a = rx_malloc((n ? n : 1) * sizeof *a), *b = rx_malloc((n ? n : 1) * sizeof *b);
    if (!a || !b) {
        rx_free(a);
        rx_free(b);
        return -1;
    }
    const Column *c[2] = {s, e};
    int64_t *o[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) {
            switch (c[k]->type) {
            case TY_FLOAT: o[k][i] = float_key(col_f64(c[k])[i]); break;
            case TY_DATE: o[k][i] = col_i32(c[k])[i]; break;
            default: o[k][i] = col_i64(c[k])[i]; break;
            }
        }
    for (size_t i = 0; i < n; i++)
        if (col_is_null(s, i) || col_is_null(e, i)) a[i] = b[i] = 0;
    *ks = a;
    *ke = b;
    return 0;
}

/* A column of type t over the n keys of *keys: an INT, TIMESTAMP or TIME key is the value
 * itself, so the column takes the array (*keys becomes NULL) instead of copying it; the other
 * types are decoded into a new column. NULL on OOM (*keys stays the caller's then). */
static Column *keys_col(RxType t, int64_t **keys, size_t n) {
    if (t != TY_INT && t != TY_TIMESTAMP && t != TY_TIME) {
        Column *c = col_new(t, n);
        if (!c) return NULL;
        for (size_t i = 0; i < n; i++) {
            if (t == TY_FLOAT) col_f64(c)[i] = float_of_key((*keys)[i]);
            else if (t == TY_DATE) col_i32(c)[i] = (int32_t)(*keys)[i];
            else col_i64(c)[i] = (*keys)[i];
        }
        return c;
    }
    Column *c = col_new(t, 0);
    if (!c) return NULL;
    rx_free(c->data);
    c->data = *keys;
    c->n = n;
    *keys = NULL;
    return c;
}

/* A GAPS bound: the constant expression's value as a key of the endpoints' type t. */
static int range_key(const Expr *e, RxType t, int64_t *out, const LPlan *lp, RxError *err) {
    Table one = {.n_rows = 1, .n_cols = 0};
    Arena *scratch = arena_new();
    if (!scratch) return ops_oom(err);
    Vec v;
    int rc = eval_batch(e, &one, 0, 1, scratch, &v, err);
    if (rc == 0) {
        if (v.nulls && v.nulls[0]) {
            rc = rx_error(err, RX_ERUNTIME, lp->src, e->span, "a bound of WITHIN cannot be NULL");
        } else {
            Value val = {.type = v.type};
            switch (v.type) {
            case TY_FLOAT: val.v.f = ((double *)v.data)[0]; break;
            case TY_DATE: val.v.date = ((int32_t *)v.data)[0]; break;
            default: val.v.i = ((int64_t *)v.data)[0]; break;
            }
            if (t == TY_FLOAT && v.type == TY_INT) {
                val.type = TY_FLOAT;
                val.v.f = (double)val.v.i;
            }
            *out = value_key(&val);
        }
    }
    arena_free(scratch);
    return rc;
}

/* Whether every aggregate of PACK is count(*), which the sweep counts itself. */
static bool counts_only(const LPlan *lp) {
    for (int a = 0; a < lp->n_aggs; a++)
        if (lp->aggs[a].fn != AGG_COUNT_STAR) return false;
    return lp->n_aggs > 0;
}

/* PACK and GAPS: one row per pack (gap) with the keys of its partition, its interval and
 * PACK's aggregates over the rows merged into it. */
static Table *pack_or_gaps(ExecCtx *x, const PNode *p, Table *in, const uint32_t *part, uint32_t n_parts,
                           const int64_t *ks, const int64_t *ke, RxError *err) {
    const LPlan *lp = p->lp;
    size_t n = in->n_rows;
    bool gaps = lp->iset_op == ISET_GAPS;
    IsetCols packs = {0}, out = {0};
    uint32_t *order = NULL, *pack_of = NULL, *rep = NULL;
    int64_t *count = NULL;
    size_t n_order = 0;
    Table *t = NULL, *sorted = NULL;
    int64_t lo = 0, hi = 0;
    if (lp->has_range && (range_key(lp->range_lo, in->cols[lp->ends[0]]->type, &lo, lp, err) < 0 ||
                          range_key(lp->range_hi, in->cols[lp->ends[0]]->type, &hi, lp, err) < 0))
        return NULL;
    /* count(*) alone is counted by the sweep; other aggregates read the merged rows */
    bool counted = !gaps && counts_only(lp);
    bool want_order = !gaps && lp->n_aggs > 0 && !counted;
    if (iset_pack(part, ks, ke, n, &packs, counted ? &count : NULL, want_order ? &order : NULL,
                  want_order ? &pack_of : NULL, &n_order) < 0)
        goto oom;
    if (ops_check_interrupt(x, err) < 0) goto fail;
    IsetCols *res = &packs;
    if (gaps) {
        if (iset_gaps(&packs, part, n_parts, lp->has_range, lo, hi, &out) < 0) goto oom;
        res = &out;
        /* a row of each partition, for its keys: the first */
        if (!(rep = rx_malloc(((size_t)n_parts + 1) * sizeof *rep))) goto oom;
        for (uint32_t k = 0; k < n_parts; k++) rep[k] = ROW_NONE;
        for (size_t i = n; i-- > 0;) rep[part[i]] = (uint32_t)i;
        for (size_t i = 0; i < out.n; i++) out.row[i] = rep[out.row[i]];
    }
    t = table_new(lp->schema.n, res->n);
    if (!t) goto oom;
    int nk = lp->n_group;
    for (int k = 0; k < nk; k++) {
        Column *c = col_gather(in->cols[lp->group[k]->col], res->row, res->n);
        if (!c || table_set(t, k, c, lp->schema.cols[k].name) < 0) {
            col_release(c);
            goto oom;
        }
    }
    RxType et = lp->schema.cols[nk].type;
    for (int k = 0; k < 2; k++) {
        Column *c = keys_col(et, k ? &res->e : &res->s, res->n);
        if (!c || table_set(t, nk + k, c, lp->schema.cols[nk + k].name) < 0) {
            col_release(c);
            goto oom;
        }
    }
    for (int a = 0; counted && a < lp->n_aggs; a++) {
        /* the first count(*) takes the counts; another (a second name for it) copies them */
        Column *c = count ? keys_col(TY_INT, &count, packs.n) : col_new(TY_INT, packs.n);
        if (c && a > 0) memcpy(col_i64(c), col_i64(t->cols[nk + 2]), packs.n * sizeof(int64_t));
        if (!c || table_set(t, nk + 2 + a, c, lp->schema.cols[nk + 2 + a].name) < 0) {
            col_release(c);
            goto oom;
        }
    }
    if (want_order) {
        /* the merged rows in (partition, start, end, row) order: first and last follow it */
        uint8_t *used = rx_calloc((size_t)in->n_cols + 1, 1);
        if (!used) goto oom;
        for (int a = 0; a < lp->n_aggs; a++) {
            const Expr *stack[64];
            int sp = 0;
            if (lp->aggs[a].arg) stack[sp++] = lp->aggs[a].arg;
            while (sp > 0) {
                const Expr *e = stack[--sp];
                if (e->kind == EX_COL) used[e->col] = 1;
                for (int j = 0; j < e->n_args; j++) {
                    if (sp == 64) {
                        memset(used, 1, (size_t)in->n_cols);
                        break;
                    }
                    stack[sp++] = e->args[j];
                }
            }
        }
        /* without an order the input rows are that order already: no gather */
        sorted = order ? table_new(in->n_cols, n_order) : NULL;
        if (order && !sorted) {
            rx_free(used);
            goto oom;
        }
        for (int c = 0; order && c < in->n_cols; c++) {
            Column *g = used[c] ? col_gather(in->cols[c], order, n_order) : col_placeholder(in->cols[c]->type, n_order);
            if (!g || table_set(sorted, c, g, in->names[c]) < 0) {
                col_release(g);
                rx_free(used);
                goto oom;
            }
        }
        rx_free(used);
        for (int a = 0; a < lp->n_aggs; a++) {
            Column *c = ops_aggregate(lp, &lp->aggs[a], order ? sorted : in, pack_of, (uint32_t)packs.n, err);
            if (!c) goto fail;
            if (table_set(t, nk + 2 + a, c, lp->schema.cols[nk + 2 + a].name) < 0) {
                col_release(c);
                goto oom;
            }
        }
    }
    goto done;
oom:
    ops_oom(err);
fail:
    table_free(t);
    t = NULL;
done:
    table_free(sorted);
    iset_cols_free(&packs);
    iset_cols_free(&out);
    rx_free(order);
    rx_free(pack_of);
    rx_free(count);
    rx_free(rep);
    return t;
}

/* The forms that keep the left input's rows: each piece is its left row with the interval
 * replaced. Takes the pieces' interval arrays where it can (keys_col); pc stays the caller's
 * to free. */
static Table *pieces_table(const PNode *p, const Table *l, IsetCols *pc, RxError *err) {
    const LPlan *lp = p->lp;
    size_t n = pc->n;
    if (n > RX_MAX_ROWS) {
        rx_error(err, RX_ELIMIT, lp->src, lp->span, "the result has %zu rows, more than a table holds (%u)",
                 n, (unsigned)RX_MAX_ROWS);
        return NULL;
    }
    Table *t = table_new(lp->schema.n, n);
    if (!t) goto oom;
    for (int c = 0; c < lp->schema.n; c++) {
        Column *col;
        if (c == lp->ends[0] || c == lp->ends[1]) col = keys_col(lp->schema.cols[c].type, c == lp->ends[1] ? &pc->e : &pc->s, n);
        else if (l->cols[c]->pruned) col = col_placeholder(l->cols[c]->type, n);
        else col = col_gather(l->cols[c], pc->row, n);
        if (!col || table_set(t, c, col, lp->schema.cols[c].name) < 0) {
            col_release(col);
            goto oom;
        }
    }
    return t;
oom:
    table_free(t);
    ops_oom(err);
    return NULL;
}

/* NORMALIZE's pieces in IMINUS's form (pieces_table's input). -1 on OOM. */
static int list_to_cols(const IsetList *l, IsetCols *out) {
    if (cols_reserve(out, l->n) < 0) return -1;
    for (size_t i = 0; i < l->n; i++) {
        out->row[i] = l->v[i].row;
        out->s[i] = l->v[i].s;
        out->e[i] = l->v[i].e;
    }
    out->n = l->n;
    return 0;
}

Table *ops_iset(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    size_t nl = l->n_rows, nr = r ? r->n_rows : 0;
    int64_t *ls = NULL, *le = NULL, *rs = NULL, *re = NULL;
    bool lown = false, rown = false;   /* the endpoint keys are malloc'd, not the columns' */
    uint32_t *gid = NULL, n_groups = 0;
    KeyParts kp = {0};
    bool have_kp = false;
    IsetList pieces = {0};
    IsetCols pc = {0};
    Table *t = NULL;
    if (encode_ends(l->cols[lp->ends[0]], l->cols[lp->ends[1]], nl, &ls, &le, &lown) < 0) goto oom;
    if (r && encode_ends(r->cols[lp->ends[2]], r->cols[lp->ends[3]], nr, &rs, &re, &rown) < 0) goto oom;
    if (!r) {
        /* the unary forms: partitions are the BY keys' groups, NULL one value as in γ */
        if (lp->n_group == 0) {
            /* one key, also without rows (as γ without keys): GAPS WITHIN gives its range */
            if (!(gid = rx_calloc(nl ? nl : 1, sizeof *gid))) goto oom;
            n_groups = 1;
        } else {
            Column **kc = rx_malloc(((size_t)lp->n_group + 1) * sizeof *kc);
            if (!kc) goto oom;
            for (int k = 0; k < lp->n_group; k++) kc[k] = l->cols[lp->group[k]->col];
            int rc = keys_group((const Column *const *)kc, lp->n_group, nl, &gid, &n_groups, err);
            rx_free(kc);
            if (rc < 0) goto fail;
            if (nl == 0) n_groups = 0;
        }
        if (lp->iset_op != ISET_NORMALIZE) {
            t = pack_or_gaps(x, p, l, gid, n_groups, ls, le, err);
            goto done;
        }
        if (iset_normalize(gid, ls, le, nl, gid, ls, le, nl, n_groups, &pieces) < 0) goto oom;
    } else {
        /* the binary forms: the ON keys as a join's partitions, a NULL key matching nothing */
        const uint32_t *lpart, *rpart;
        uint32_t *lz = NULL, *rz = NULL, n_parts = 1;
        if (lp->n_keys) {
            Column **lk = rx_malloc(((size_t)lp->n_keys + 1) * sizeof *lk);
            Column **rk = rx_malloc(((size_t)lp->n_keys + 1) * sizeof *rk);
            if (!lk || !rk) {
                rx_free(lk);
                rx_free(rk);
                goto oom;
            }
            for (int k = 0; k < lp->n_keys; k++) lk[k] = l->cols[lp->lkeys[k]], rk[k] = r->cols[lp->rkeys[k]];
            int rc = keys_partition((const Column *const *)lk, nl, (const Column *const *)rk, nr, lp->n_keys, &kp, err);
            rx_free(lk);
            rx_free(rk);
            if (rc < 0) goto fail;
            have_kp = true;
            lpart = kp.l;
            rpart = kp.r;
            n_parts = kp.n_parts;
        } else {
            lz = rx_calloc(nl ? nl : 1, sizeof *lz);
            rz = rx_calloc(nr ? nr : 1, sizeof *rz);
            if (!lz || !rz) {
                rx_free(lz);
                rx_free(rz);
                goto oom;
            }
            lpart = lz;
            rpart = rz;
        }
        int rc = lp->iset_op == ISET_NORMALIZE
                     ? iset_normalize(lpart, ls, le, nl, rpart, rs, re, nr, n_parts, &pieces)
                     : iset_minus(lpart, ls, le, nl, rpart, rs, re, nr, n_parts, lp->iset_op == ISET_INTERSECT, &pc);
        rx_free(lz);
        rx_free(rz);
        if (rc < 0) goto oom;
    }
    if (ops_check_interrupt(x, err) < 0) goto fail;
    if (lp->iset_op == ISET_NORMALIZE) {
        if (list_to_cols(&pieces, &pc) < 0) goto oom;
        iset_list_free(&pieces);
    }
    t = pieces_table(p, l, &pc, err);
    goto done;
oom:
    ops_oom(err);
fail:
    t = NULL;
done:
    if (lown) rx_free(ls), rx_free(le);
    if (rown) rx_free(rs), rx_free(re);
    rx_free(gid);
    if (have_kp) keys_parts_free(&kp);
    iset_list_free(&pieces);
    iset_cols_free(&pc);
    return t;
}
