/*
 * relops.c - the rest of the relational algebra (ops.h): joins by condition (⨝ and its outer,
 * semi and anti forms, ×), set operations (∪ ∩ −), δ, τ, TOP and γ.
 *
 * Joins, in three steps:
 *   1. Candidates. With equality keys (hash join), keys_partition gives both sides dense
 *      partition ids from their key tuples; the right rows are bucketed by id with a counting
 *      sort, which keeps them in input order, and each left row, in order, meets its bucket.
 *      Without keys (nested loop), every pair is a candidate.
 *   2. The residual condition is evaluated on candidates a chunk at a time over a gathered
 *      joined table; a pair that passes is a match.
 *   3. The join kind shapes the output from the matches (left input order, then right input
 *      order; unmatched right rows of right and full joins come last, in right order).
 * Set operations concatenate both inputs into one table and hash its rows. τ is a stable merge
 * sort over order-preserving integer keys; γ gives each row a group id by hashing its keys
 * (groups in order of first appearance) and folds every aggregate into per-group arrays.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hmap.h"
#include "exec/exec.h"
#include "exec/keys.h"
#include "exec/ops.h"
#include "types/compare.h"
#include "types/temporal.h"

#define JOIN_CHUNK 65536

typedef struct {
    uint32_t *l, *r;
    size_t n, cap;
} Pairs;

static int pairs_push(Pairs *p, uint32_t l, uint32_t r) {
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1024;
        uint32_t *a = rx_realloc(p->l, cap * sizeof *a);
        if (!a) return -1;
        p->l = a;
        uint32_t *b = rx_realloc(p->r, cap * sizeof *b);
        if (!b) return -1;
        p->r = b;
        p->cap = cap;
    }
    p->l[p->n] = l;
    p->r[p->n] = r;
    p->n++;
    return 0;
}

static void pairs_free(Pairs *p) {
    rx_free(p->l);
    rx_free(p->r);
    memset(p, 0, sizeof *p);
}

static void mark_reads(const Expr *e, uint8_t *reads) {
    if (e->kind == EX_COL) reads[e->col] = 1;
    for (int i = 0; i < e->n_args; i++) mark_reads(e->args[i], reads);
}

/* Keeps the candidates [from, cand->n) that pass the residual, compacting them in place. */
static int filter_residual(ExecCtx *x, const LPlan *lp, const Table *l, const Table *r, Pairs *cand,
                           size_t from, RxError *err) {
    size_t n = cand->n - from;
    if (n == 0) return 0;
    Table *j = table_new(l->n_cols + r->n_cols, n);
    if (!j) return ops_oom(err);
    uint8_t *reads = rx_calloc((size_t)(l->n_cols + r->n_cols) + 1, 1);
    if (!reads) {
        table_free(j);
        return ops_oom(err);
    }
    mark_reads(lp->residual, reads);
    for (int c = 0; c < l->n_cols + r->n_cols; c++) {
        const Column *src = c < l->n_cols ? l->cols[c] : r->cols[c - l->n_cols];
        Column *g = !reads[c] ? col_placeholder(src->type, n)
                  : c < l->n_cols ? col_gather(src, cand->l + from, n) : col_gather(src, cand->r + from, n);
        if (!g || table_set(j, c, g, NULL) < 0) {
            col_release(g);
            table_free(j);
            rx_free(reads);
            return ops_oom(err);
        }
    }
    rx_free(reads);
    size_t k = from;
    for (size_t off = 0; off < n; off += EXEC_BATCH) {
        size_t m = n - off < EXEC_BATCH ? n - off : EXEC_BATCH;
        Arena *a = arena_new();
        Vec v;
        if (!a || ops_check_interrupt(x, err) < 0 || eval_batch(lp->residual, j, off, m, a, &v, err) < 0) {
            if (!a) ops_oom(err);
            arena_free(a);
            table_free(j);
            return -1;
        }
        if (v.type != TY_NULL)
            for (size_t i = 0; i < m; i++)
                if (((uint8_t *)v.data)[i] && !(v.nulls && v.nulls[i])) {
                    cand->l[k] = cand->l[from + off + i];
                    cand->r[k] = cand->r[from + off + i];
                    k++;
                }
        arena_free(a);
    }
    table_free(j);
    cand->n = k;
    return 0;
}

/* a's row i equals b's row j as σ's = says (NULL never equals; INT and FLOAT compare as
 * numbers under the FLOAT rule of types/compare.h, DATE as its midnight against a TIMESTAMP,
 * DURATION by span). The nested loop's own check, independent
 * of the hash join's key encoding. */
static bool values_equal(const Column *a, size_t i, const Column *b, size_t j) {
    Value x = col_get(a, i), y = col_get(b, j);
    if (x.null || y.null || a->type == TY_NULL || b->type == TY_NULL) return false;
    if (x.type == TY_DATE && y.type == TY_TIMESTAMP) return (int64_t)x.v.date * US_PER_DAY == y.v.i;
    if (y.type == TY_DATE && x.type == TY_TIMESTAMP) return (int64_t)y.v.date * US_PER_DAY == x.v.i;
    if (x.type != y.type) {
        double p = x.type == TY_INT ? (double)x.v.i : x.v.f, q = y.type == TY_INT ? (double)y.v.i : y.v.f;
        return rx_float_cmp(p, q) == 0;
    }
    switch (x.type) {
    case TY_TEXT: return x.v.s.len == y.v.s.len && (x.v.s.len == 0 || memcmp(x.v.s.ptr, y.v.s.ptr, x.v.s.len) == 0);
    case TY_FLOAT: return rx_float_cmp(x.v.f, y.v.f) == 0;
    case TY_BOOL: return x.v.b == y.v.b;
    case TY_DATE: return x.v.date == y.v.date;
    case TY_DURATION: return rx_dur_cmp(x.v.d, y.v.d) == 0;
    default: return x.v.i == y.v.i;
    }
}

/* Every matching pair, in left order then right order. */
static int join_matches(ExecCtx *x, const PNode *p, const Table *l, const Table *r, Pairs *out, RxError *err) {
    const LPlan *lp = p->lp;
    size_t nl = l->n_rows, nr = r->n_rows;
    KeyParts kp = {0};
    const uint32_t *lpart = NULL, *rpart = NULL;
    uint32_t *bucket = NULL, *start = NULL, n_parts = 0;
    bool hash = p->kind == PN_HASHJOIN;
    int rc = -1;
    if (hash) {
        const Column **lk = rx_malloc((size_t)lp->n_keys * sizeof *lk);
        const Column **rk = rx_malloc((size_t)lp->n_keys * sizeof *rk);
        if (!lk || !rk) {
            rx_free(lk), rx_free(rk);
            return ops_oom(err);
        }
        for (int k = 0; k < lp->n_keys; k++) {
            lk[k] = l->cols[lp->lkeys[k]];
            rk[k] = r->cols[lp->rkeys[k]];
        }
        int krc = keys_partition(lk, nl, rk, nr, lp->n_keys, &kp, err);
        rx_free(lk), rx_free(rk);
        if (krc < 0) return -1;
        lpart = kp.l, rpart = kp.r, n_parts = kp.n_parts;
        start = rx_calloc((size_t)n_parts + 2, sizeof *start);
        bucket = rx_malloc((nr ? nr : 1) * sizeof *bucket);
        if (!start || !bucket) {
            ops_oom(err);
            goto out;
        }
        for (size_t j = 0; j < nr; j++)
            if (rpart[j] != ROW_NONE) start[rpart[j] + 2]++;
        for (uint32_t g = 0; g < n_parts; g++) start[g + 2] += start[g + 1];
        for (size_t j = 0; j < nr; j++)
            if (rpart[j] != ROW_NONE) bucket[start[rpart[j] + 1]++] = (uint32_t)j;
        /* now bucket g is [start[g], start[g+1]) */
    }
    size_t chunk_from = 0;
    for (size_t i = 0; i < nl; i++) {
        /* a nested loop does nr comparisons per left row: it checks every row; a probe every
         * 4096 (a chunk of matches may take long to fill when few rows match) */
        if ((!hash || (i & 4095) == 0) && ops_check_interrupt(x, err) < 0) goto out;
        if (hash) {
            /* A left row without a partition has no match; it must not skip the residual
             * check below when it is the last row. */
            if (lpart[i] != ROW_NONE)
                for (uint32_t k = start[lpart[i]]; k < start[lpart[i] + 1]; k++)
                    if (pairs_push(out, (uint32_t)i, bucket[k]) < 0) {
                        ops_oom(err);
                        goto out;
                    }
        } else {
            for (size_t j = 0; j < nr; j++) {
                bool eq = true;
                for (int k = 0; k < lp->n_keys && eq; k++)
                    eq = values_equal(l->cols[lp->lkeys[k]], i, r->cols[lp->rkeys[k]], j);
                if (eq && pairs_push(out, (uint32_t)i, (uint32_t)j) < 0) {
                    ops_oom(err);
                    goto out;
                }
            }
        }
        if (out->n - chunk_from >= JOIN_CHUNK || i + 1 == nl) {
            if (lp->residual && filter_residual(x, lp, l, r, out, chunk_from, err) < 0) goto out;
            chunk_from = out->n;
            if (ops_check_interrupt(x, err) < 0) goto out;
            if (out->n > RX_MAX_ROWS) {
                rx_error(err, RX_ELIMIT, lp->src, lp->span, "the join produces more than %u rows",
                         (unsigned)RX_MAX_ROWS);
                goto out;
            }
        }
    }
    rc = 0;
out:
    keys_parts_free(&kp);
    rx_free(bucket), rx_free(start);
    return rc;
}

static Table *gather_side(const PNode *p, const Table *t, const Schema *sc, const uint32_t *idx,
                          size_t n, RxError *err) {
    Table *o = table_new(t->n_cols, n);
    if (!o) {
        ops_oom(err);
        return NULL;
    }
    for (int c = 0; c < t->n_cols; c++) {
        bool used = !p->needed || p->needed[c];
        Column *g = used ? col_gather(t->cols[c], idx, n) : col_placeholder(t->cols[c]->type, n);
        if (!g || table_set(o, c, g, sc->cols[c].name) < 0) {
            col_release(g);
            table_free(o);
            ops_oom(err);
            return NULL;
        }
    }
    return o;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Table *ops_join(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    size_t nl = l->n_rows, nr = r->n_rows;
    Pairs m = {0}, o = {0};
    Table *t = NULL;
    uint8_t *lm = NULL, *rm = NULL;
    double t0 = now_s();
    int jrc = join_matches(x, p, l, r, &m, err);
    x->t_join_s += now_s() - t0;
    if (jrc < 0) goto out;
    lm = rx_calloc(nl ? nl : 1, 1);
    rm = rx_calloc(nr ? nr : 1, 1);
    if (!lm || !rm) {
        ops_oom(err);
        goto out;
    }
    for (size_t k = 0; k < m.n; k++) lm[m.l[k]] = rm[m.r[k]] = 1;
    int kind = lp->join_kind;
    if (kind == JOIN_SEMI || kind == JOIN_ANTI || kind == JOIN_RSEMI) {
        const Table *side = kind == JOIN_RSEMI ? r : l;
        const uint8_t *mark = kind == JOIN_RSEMI ? rm : lm;
        uint32_t *idx = rx_malloc((side->n_rows ? side->n_rows : 1) * sizeof *idx);
        if (!idx) {
            ops_oom(err);
            goto out;
        }
        size_t k = 0;
        for (size_t i = 0; i < side->n_rows; i++)
            if (mark[i] == (kind != JOIN_ANTI)) idx[k++] = (uint32_t)i;
        t = gather_side(p, side, &lp->schema, idx, k, err);
        rx_free(idx);
        goto out;
    }
    if (kind == JOIN_INNER || kind == JOIN_CROSS || kind == JOIN_RIGHT || kind == JOIN_FULL) {
        if (kind == JOIN_INNER || kind == JOIN_CROSS) {
            t = ops_gather_join(p, l, r, m.l, m.r, m.n, err);
            goto out;
        }
    }
    /* outer joins: walk the matches (ordered by left row), padding where a row has none */
    size_t k = 0;
    for (size_t i = 0; i < nl; i++) {
        bool any = false;
        while (k < m.n && m.l[k] == i) {
            if (pairs_push(&o, m.l[k], m.r[k]) < 0) {
                ops_oom(err);
                goto out;
            }
            k++;
            any = true;
        }
        if (!any && (kind == JOIN_LEFT || kind == JOIN_FULL) && pairs_push(&o, (uint32_t)i, ROW_NONE) < 0) {
            ops_oom(err);
            goto out;
        }
    }
    if (kind == JOIN_RIGHT || kind == JOIN_FULL)
        for (size_t j = 0; j < nr; j++)
            if (!rm[j] && pairs_push(&o, ROW_NONE, (uint32_t)j) < 0) {
                ops_oom(err);
                goto out;
            }
    t = ops_gather_join(p, l, r, o.l, o.r, o.n, err);
out:
    pairs_free(&m);
    pairs_free(&o);
    rx_free(lm);
    rx_free(rm);
    return t;
}

/* ---- set operations ------------------------------------------------------------------------- */

/* Column a followed by column b, as type t (INT widened to FLOAT where t is FLOAT). */
static Column *concat(const Column *a, const Column *b, RxType t) {
    size_t na = a->n, nb = b->n;
    Column *c = col_new(t, na + nb);
    if (!c) return NULL;
    const Column *src[2] = {a, b};
    size_t off = 0;
    for (int s = 0; s < 2; s++) {
        const Column *x = src[s];
        if (x->type == t) {
            memcpy((char *)c->data + off * type_width(t), x->data, x->n * type_width(t));
        } else if (t == TY_FLOAT && x->type == TY_INT) {
            for (size_t i = 0; i < x->n; i++) col_f64(c)[off + i] = (double)col_i64(x)[i];
        } else {
            memset((char *)c->data + off * type_width(t), 0, x->n * type_width(t));
        }
        if (t == TY_TEXT && x->type == TY_TEXT && col_share_heaps(c, x) < 0) {
            col_release(c);
            return NULL;
        }
        for (size_t i = 0; i < x->n; i++)
            if ((x->type == TY_NULL || col_is_null(x, i)) && col_set_null(c, off + i) < 0) {
                col_release(c);
                return NULL;
            }
        off += x->n;
    }
    return c;
}

Table *ops_setop(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    const Schema *sc = &lp->schema;
    size_t nl = l->n_rows, n = l->n_rows + r->n_rows;
    Table *all = table_new(sc->n, n);
    if (!all) {
        ops_oom(err);
        return NULL;
    }
    for (int c = 0; c < sc->n; c++) {
        Column *cc = concat(l->cols[c], r->cols[c], sc->cols[c].type);
        if (!cc || table_set(all, c, cc, sc->cols[c].name) < 0) {
            col_release(cc);
            table_free(all);
            ops_oom(err);
            return NULL;
        }
    }
    if (ops_check_interrupt(x, err) < 0) {
        table_free(all);
        return NULL;
    }
    if (lp->set_op == SET_UNION) return ops_dedup(all, err);
    /* ∩ and −: a hash set of the right rows, then the distinct left rows that are (not) in it */
    uint64_t *h = rx_malloc((n ? n : 1) * sizeof *h);
    RxHMap map;   /* hash of a row -> the right rows, then the left rows kept; room for all */
    bool map_ok = hmap_init(&map, n) == 0;
    uint32_t *keep = rx_malloc((nl ? nl : 1) * sizeof *keep);
    Table *t = NULL;
    if (!h || !map_ok || !keep) {
        ops_oom(err);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        h[i] = 0x9e3779b97f4a7c15ULL;
        for (int c = 0; c < sc->n; c++) h[i] = rx_hash_combine(h[i], col_hash_value(all->cols[c], i));
    }
    /* insert rows: right rows first (marked by index >= nl), then left rows as they are kept */
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t from = pass == 0 ? nl : 0, to = pass == 0 ? n : nl;
        for (size_t i = from; i < to; i++) {
            if ((i & 65535) == 0 && ops_check_interrupt(x, err) < 0) goto out;
            RxHProbe pr = hmap_probe(&map, h[i]);
            uint32_t j;
            bool in_right = false, seen_left = false;
            while (hmap_next(&map, &pr, &j)) {
                bool eq = h[j] == h[i];
                for (int c = 0; c < sc->n && eq; c++) eq = ops_cell_equal(all->cols[c], j, i);
                if (eq) {
                    if (j >= nl) in_right = true;
                    else seen_left = true;
                    if (pass == 0 || seen_left) break;
                }
            }
            if (pass == 0) {
                if (!in_right) hmap_insert(&map, &pr, (uint32_t)i, NULL, NULL);   /* reserved */
                continue;
            }
            if (seen_left) continue;
            bool want = lp->set_op == SET_INTERSECT ? in_right : !in_right;
            /* remember this left row so that its duplicates are skipped (the probe ran to an
             * empty slot) */
            hmap_insert(&map, &pr, (uint32_t)i, NULL, NULL);   /* reserved: never grows */
            if (want) keep[k++] = (uint32_t)i;
        }
    }
    t = gather_side(p, all, sc, keep, k, err);
out:
    rx_free(h), hmap_free(&map), rx_free(keep);
    table_free(all);
    return t;
}

/* ---- τ and TOP ------------------------------------------------------------------------------ */

typedef struct {
    int n;
    int64_t **keys;
    const Column **cols;   /* for NULLs */
    const SortKey *spec;
    volatile sig_atomic_t *interrupt;   /* set: the sort stops early (the order is then unused) */
} SortCtx;

static int row_cmp(const SortCtx *s, uint32_t a, uint32_t b) {
    for (int k = 0; k < s->n; k++) {
        bool na = col_is_null(s->cols[k], a) || s->cols[k]->type == TY_NULL;
        bool nb = col_is_null(s->cols[k], b) || s->cols[k]->type == TY_NULL;
        if (na || nb) {
            if (na && nb) continue;
            return (na ? -1 : 1) * (s->spec[k].nulls_first ? 1 : -1);
        }
        int64_t x = s->keys[k][a], y = s->keys[k][b];
        if (x != y) return (x < y ? -1 : 1) * (s->spec[k].desc ? -1 : 1);
    }
    return 0;
}

static void merge_sort(const SortCtx *s, uint32_t *v, uint32_t *tmp, size_t n) {
    if (n < 16) {
        for (size_t i = 1; i < n; i++) {
            uint32_t x = v[i];
            size_t j = i;
            while (j > 0 && row_cmp(s, v[j - 1], x) > 0) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        return;
    }
    if (n >= 65536 && s->interrupt && *s->interrupt) return;
    size_t h = n / 2;
    merge_sort(s, v, tmp, h);
    merge_sort(s, v + h, tmp, n - h);
    if (row_cmp(s, v[h - 1], v[h]) <= 0) return;
    memcpy(tmp, v, h * sizeof *v);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) v[k++] = row_cmp(s, v[j], tmp[i]) < 0 ? v[j++] : tmp[i++];
    while (i < h) v[k++] = tmp[i++];
}

/* Evaluates e over in: a column reference shares the input column. */
static Column *column_of(const Expr *e, const Table *in, RxError *err) {
    if (e->kind == EX_COL) {
        col_retain(in->cols[e->col]);
        return in->cols[e->col];
    }
    return eval_column(e, in, err);
}

/* The stable sort order of in's rows by keys, as a malloc'd permutation. */
static uint32_t *sort_order(ExecCtx *x, const SortKey *spec, int n_keys, const Table *in, RxError *err) {
    size_t n = in->n_rows;
    uint32_t *perm = rx_malloc((n ? n : 1) * sizeof *perm);
    uint32_t *tmp = rx_malloc((n / 2 + 1) * sizeof *tmp);
    Column **cols = rx_calloc((size_t)n_keys + 1, sizeof *cols);
    int64_t **keys = rx_calloc((size_t)n_keys + 1, sizeof *keys);
    KeySet *sets = rx_calloc((size_t)n_keys + 1, sizeof *sets);
    bool ok = perm && tmp && cols && keys && sets;
    if (!ok) ops_oom(err);
    for (int k = 0; ok && k < n_keys; k++) {
        if (ops_check_interrupt(x, err) < 0) {
            ok = false;
            break;
        }
        cols[k] = column_of(spec[k].e, in, err);
        if (!cols[k] || keys_encode_ordered((const Column *const *)&cols[k], 1, &sets[k], err) < 0) {
            ok = false;
            break;
        }
        keys[k] = sets[k].keys[0];
    }
    if (ok) {
        for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
        SortCtx s = {n_keys, keys, (const Column **)cols, spec, x->interrupt};
        merge_sort(&s, perm, tmp, n);
        if (ops_check_interrupt(x, err) < 0) ok = false;
    }
    for (int k = 0; k < n_keys && sets; k++) {
        keys_free(&sets[k]);
        if (cols) col_release(cols[k]);
    }
    rx_free(cols), rx_free(keys), rx_free(sets), rx_free(tmp);
    if (!ok) {
        rx_free(perm);
        return NULL;
    }
    return perm;
}

uint32_t *ops_sort_order(ExecCtx *x, const SortKey *spec, int n_keys, const Table *in, RxError *err) {
    return sort_order(x, spec, n_keys, in, err);
}

Table *ops_sort(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    uint32_t *perm = sort_order(x, p->lp->sort, p->lp->n_sort, in, err);
    if (!perm) return NULL;
    Table *t = ops_check_interrupt(x, err) < 0 ? NULL : gather_side(p, in, &p->lp->schema, perm, in->n_rows, err);
    rx_free(perm);
    return t;
}

static int group_ids(Expr **exprs, int n, const Table *in, uint32_t **ids, uint32_t *n_groups,
                     Column ***cols_out, RxError *err) {
    Column **cols = rx_calloc((size_t)n + 1, sizeof *cols);
    if (!cols) return ops_oom(err);
    for (int k = 0; k < n; k++)
        if (!(cols[k] = column_of(exprs[k], in, err))) {
            for (int j = 0; j < k; j++) col_release(cols[j]);
            rx_free(cols);
            return -1;
        }
    int rc;
    if (n == 0) {
        *ids = rx_calloc(in->n_rows ? in->n_rows : 1, sizeof **ids);
        *n_groups = 1;
        rc = *ids ? 0 : ops_oom(err);
    } else {
        rc = keys_group((const Column *const *)cols, n, in->n_rows, ids, n_groups, err);
    }
    *cols_out = cols;
    return rc;
}

static void release_cols(Column **cols, int n) {
    if (!cols) return;
    for (int k = 0; k < n; k++) col_release(cols[k]);
    rx_free(cols);
}

Table *ops_top(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const LPlan *lp = p->lp;
    size_t n = in->n_rows;
    uint32_t *perm = NULL, *ids = NULL, *keep = NULL, *count = NULL, ng = 1;
    Column **gcols = NULL;
    Table *t = NULL;
    if (lp->n_sort) {
        if (!(perm = sort_order(x, lp->sort, lp->n_sort, in, err))) return NULL;
    }
    if (lp->n_group && group_ids(lp->group, lp->n_group, in, &ids, &ng, &gcols, err) < 0) goto out;
    keep = rx_malloc((n ? n : 1) * sizeof *keep);
    count = rx_calloc(ng ? ng : 1, sizeof *count);
    if (!keep || !count) {
        ops_oom(err);
        goto out;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t row = perm ? perm[i] : (uint32_t)i;
        uint32_t g = ids ? ids[row] : 0;
        if ((int64_t)count[g] >= lp->top_n) continue;
        count[g]++;
        keep[k++] = row;
    }
    if (ops_check_interrupt(x, err) == 0) t = gather_side(p, in, &lp->schema, keep, k, err);
out:
    release_cols(gcols, lp->n_group);
    rx_free(perm), rx_free(ids), rx_free(keep), rx_free(count);
    return t;
}

/* ---- γ -------------------------------------------------------------------------------------- */

/* The number at row i of an INT or FLOAT column (a DURATION as its span in microseconds). */
static double agg_num(const Column *c, size_t i) {
    switch (c->type) {
    case TY_INT: return (double)col_i64(c)[i];
    case TY_DURATION: return (double)rx_dur_span(col_dur(c)[i]);
    default: return col_f64(c)[i];
    }
}

/* variance, var_pop, stddev, stddev_pop: Welford's update per group (numerically stable: the
 * running mean and the sum of squared deviations from it), in input order. The sample forms
 * are NULL below two values, the population forms below one (as PostgreSQL). */
static Column *agg_variance(const AggSpec *ag, const Column *arg, const uint32_t *ids, uint32_t ng) {
    size_t n = arg->n;
    Column *out = col_new(TY_FLOAT, ng);
    int64_t *cnt = rx_calloc(ng ? ng : 1, sizeof *cnt);
    double *mean = rx_calloc(ng ? ng : 1, sizeof *mean), *m2 = rx_calloc(ng ? ng : 1, sizeof *m2);
    bool ok = out && cnt && mean && m2;
    for (size_t i = 0; ok && i < n; i++) {
        if (arg->type == TY_NULL || col_is_null(arg, i)) continue;
        uint32_t g = ids[i];
        double x = agg_num(arg, i), d = x - mean[g];
        cnt[g]++;
        mean[g] += d / (double)cnt[g];
        m2[g] += d * (x - mean[g]);
    }
    bool sample = ag->fn == AGG_VARIANCE || ag->fn == AGG_STDDEV;
    for (uint32_t g = 0; ok && g < ng; g++) {
        if (cnt[g] < (sample ? 2 : 1)) {
            col_f64(out)[g] = 0;
            if (col_set_null(out, g) < 0) ok = false;
            continue;
        }
        double var = m2[g] / (double)(cnt[g] - (sample ? 1 : 0));
        if (var < 0) var = 0;
        col_f64(out)[g] = ag->fn == AGG_STDDEV || ag->fn == AGG_STDDEV_POP ? sqrt(var) : var;
    }
    rx_free(cnt), rx_free(mean), rx_free(m2);
    if (!ok) {
        col_release(out);
        return NULL;
    }
    return out;
}

/* One value of a group for median and quantile: its group and number. */
typedef struct {
    uint32_t g;
    uint32_t row;
    double v;
} QVal;

static int qval_cmp(const void *x, const void *y) {
    const QVal *a = x, *b = y;
    if (a->g != b->g) return a->g < b->g ? -1 : 1;
    int c = rx_float_cmp(a->v, b->v);
    if (c) return c;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* median and quantile(x, q): continuous, as PostgreSQL's percentile_cont: the values of a
 * group sorted, the position q·(n-1), interpolated linearly between its neighbours. A DURATION
 * is interpolated by its span (a month as 30 days) and rounded to the microsecond. */
static Column *agg_quantile(const AggSpec *ag, const Column *arg, const uint32_t *ids, uint32_t ng,
                            RxError *err, const LPlan *lp) {
    size_t n = arg->n, m = 0;
    QVal *v = rx_malloc((n ? n : 1) * sizeof *v);
    Column *out = col_new(ag->type, ng);
    if (!v || !out) {
        rx_free(v);
        col_release(out);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (arg->type == TY_NULL || col_is_null(arg, i)) continue;
        if (arg->type == TY_DURATION) {
            int64_t span;
            if (!rx_dur_span64(col_dur(arg)[i], &span)) {
                rx_free(v);
                col_release(out);
                rx_error(err, RX_ERUNTIME, lp->src, ag->arg->span,
                         "duration overflow in %s: a value is longer than 64 bits of microseconds",
                         ag->fn == AGG_MEDIAN ? "median" : "quantile");
                return NULL;
            }
        }
        v[m++] = (QVal){ids[i], (uint32_t)i, agg_num(arg, i)};
    }
    qsort(v, m, sizeof *v, qval_cmp);
    bool ok = true;
    size_t b = 0;
    for (uint32_t g = 0; g < ng && ok; g++) {
        size_t e = b;
        while (e < m && v[e].g == g) e++;
        if (e == b) {
            memset((char *)out->data + (size_t)g * type_width(ag->type), 0, type_width(ag->type));
            if (col_set_null(out, g) < 0) ok = false;
            continue;
        }
        double pos = ag->q * (double)(e - b - 1);
        size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);
        double x = v[b + lo].v, y = v[b + hi].v;
        double r = lo == hi ? x : x + (y - x) * (pos - (double)lo);
        if (ag->type == TY_DURATION) col_dur(out)[g] = (RxDuration){0, (int64_t)llround(r)};
        else col_f64(out)[g] = r;
        b = e;
    }
    rx_free(v);
    if (!ok) {
        col_release(out);
        return NULL;
    }
    return out;
}

/* string_agg(x, sep): the group's values that are not NULL in input order, each after the
 * first preceded by its own row's separator (a NULL separator adds nothing), as PostgreSQL;
 * NULL for a group without a value. */
static Column *agg_string(const Column *arg, const Column *sep, const uint32_t *ids, uint32_t ng) {
    size_t n = arg->n;
    StrBuf *bufs = rx_calloc(ng ? ng : 1, sizeof *bufs);
    uint8_t *seen = rx_calloc(ng ? ng : 1, 1);
    if (!bufs || !seen) {
        rx_free(bufs), rx_free(seen);
        return NULL;
    }
    for (uint32_t g = 0; g < ng; g++) sb_init(&bufs[g]);
    for (size_t i = 0; i < n; i++) {
        if (arg->type == TY_NULL || col_is_null(arg, i)) continue;
        uint32_t g = ids[i];
        if (seen[g] && sep->type != TY_NULL && !col_is_null(sep, i))
            sb_append(&bufs[g], col_str(sep)[i].ptr, col_str(sep)[i].len);
        seen[g] = 1;
        sb_append(&bufs[g], col_str(arg)[i].ptr, col_str(arg)[i].len);
    }
    ColBuilder cb;
    colb_init(&cb, TY_TEXT, ng ? ng : 1);
    bool oom = false;
    for (uint32_t g = 0; g < ng; g++) {
        oom |= bufs[g].oom;
        if (!seen[g]) {
            colb_push_null(&cb);
        } else {
            Value val = {.type = TY_TEXT};
            val.v.s = (RxStr){bufs[g].p ? bufs[g].p : "", bufs[g].n};
            colb_push(&cb, &val);
        }
        sb_free(&bufs[g]);
    }
    rx_free(bufs), rx_free(seen);
    if (oom) {
        colb_free(&cb);
        return NULL;
    }
    return colb_finish(&cb);
}

/* One aggregate over groups: a new column of n_groups rows. */
Column *ops_aggregate(const LPlan *lp, const AggSpec *ag, const Table *in, const uint32_t *ids,
                         uint32_t ng, RxError *err) {
    size_t n = in->n_rows;
    Column *arg = NULL, *out = NULL;
    uint32_t *pick = NULL;
    int64_t *cnt = NULL;
    if (ag->arg && !(arg = column_of(ag->arg, in, err))) return NULL;
    if (ag->fn == AGG_COUNT_STAR || ag->fn == AGG_COUNT) {
        out = col_new(TY_INT, ng);
        if (!out) goto oom;
        int64_t *c = col_i64(out);
        memset(c, 0, ng * sizeof *c);
        if (ag->distinct) {
            /* distinct (group, value) pairs, counted per group */
            Column *gid = col_new(TY_INT, n);
            if (!gid) goto oom;
            for (size_t i = 0; i < n; i++) col_i64(gid)[i] = ids[i];
            const Column *pair[2] = {gid, arg};
            uint32_t *pid = NULL, np = 0;
            int rc = keys_group(pair, 2, n, &pid, &np, err);
            uint8_t *seen = rc == 0 ? rx_calloc(np ? np : 1, 1) : NULL;
            if (rc == 0 && seen) {
                for (size_t i = 0; i < n; i++)
                    if (!col_is_null(arg, i) && arg->type != TY_NULL && !seen[pid[i]]) {
                        seen[pid[i]] = 1;
                        c[ids[i]]++;
                    }
            }
            rx_free(seen), rx_free(pid);
            col_release(gid);
            if (rc < 0) goto fail;
        } else {
            for (size_t i = 0; i < n; i++)
                if (ag->fn == AGG_COUNT_STAR || (arg->type != TY_NULL && !col_is_null(arg, i))) c[ids[i]]++;
        }
        col_release(arg);
        return out;
    }
    RxType at = arg->type;
    switch (ag->fn) {
    case AGG_STDDEV: case AGG_STDDEV_POP: case AGG_VARIANCE: case AGG_VAR_POP:
        out = agg_variance(ag, arg, ids, ng);
        goto done;
    case AGG_MEDIAN: case AGG_QUANTILE:
        out = agg_quantile(ag, arg, ids, ng, err, lp);
        if (!out && err->code) goto fail;
        goto done;
    case AGG_STRING_AGG: {
        Column *sep = column_of(ag->arg2, in, err);
        if (!sep) goto fail;
        out = agg_string(arg, sep, ids, ng);
        col_release(sep);
        goto done;
    }
    case AGG_BOOL_AND: case AGG_BOOL_OR: {
        /* true when every (some) value is: the first false (true) decides; NULLs skipped */
        out = col_new(TY_BOOL, ng);
        uint8_t *state = rx_malloc(ng ? ng : 1); /* 2: no value yet */
        if (!out || !state) {
            rx_free(state);
            goto oom;
        }
        memset(state, 2, ng);
        for (size_t i = 0; i < n; i++) {
            if (at == TY_NULL || col_is_null(arg, i)) continue;
            uint8_t x = col_u8(arg)[i], *st = &state[ids[i]];
            *st = *st == 2 ? x : ag->fn == AGG_BOOL_AND ? (*st & x) : (*st | x);
        }
        bool ok = true;
        for (uint32_t g = 0; g < ng; g++) {
            col_u8(out)[g] = state[g] == 1;
            if (state[g] == 2 && col_set_null(out, g) < 0) ok = false;
        }
        rx_free(state);
        if (!ok) goto oom;
        col_release(arg);
        return out;
    }
    case AGG_ARG_MIN: case AGG_ARG_MAX: {
        /* the argument of the row whose ordering value is the smallest (largest), the first of
         * equal ones; rows whose ordering value is NULL are skipped */
        Column *key_col = column_of(ag->arg2, in, err);
        if (!key_col) goto fail;
        pick = rx_malloc((ng ? ng : 1) * sizeof *pick);
        KeySet ks = {0};
        const Column *kc = key_col;
        if (!pick || keys_encode_ordered(&kc, 1, &ks, err) < 0) {
            col_release(key_col);
            if (!pick) goto oom;
            goto fail;
        }
        const int64_t *key = ks.keys[0];
        for (uint32_t g = 0; g < ng; g++) pick[g] = ROW_NONE;
        for (size_t i = 0; i < n; i++) {
            if (col_is_null(key_col, i)) continue;
            uint32_t g = ids[i], cur = pick[g];
            if (cur == ROW_NONE || (ag->fn == AGG_ARG_MIN ? key[i] < key[cur] : key[i] > key[cur]))
                pick[g] = (uint32_t)i;
        }
        keys_free(&ks);
        col_release(key_col);
        out = col_gather(arg, pick, ng);
        rx_free(pick);
        col_release(arg);
        if (!out) ops_oom(err);
        return out;
    }
    default: break;
    }
    if (ag->fn == AGG_SUM && at == TY_INT && ag->type == TY_INT) {
        /* INT sums in 64 bits with a flag per group instead of counts and 128-bit sums (an
         * optimisation: a third of the fresh memory); when any partial sum overflows, the
         * 128-bit path below decides, so only a total that does not fit is an error */
        out = col_new(TY_INT, ng);
        uint8_t *any = rx_calloc(ng ? ng : 1, 1);
        if (!out || !any) {
            rx_free(any);
            goto oom;
        }
        int64_t *o = col_i64(out);
        const int64_t *v = col_i64(arg);
        memset(o, 0, ng * sizeof *o);
        bool over = false;
        if (!arg->valid) {
            for (size_t i = 0; i < n; i++) {
                uint32_t g = ids[i];
                any[g] = 1;
                over |= __builtin_add_overflow(o[g], v[i], &o[g]);
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                if (col_is_null(arg, i)) continue;
                uint32_t g = ids[i];
                any[g] = 1;
                over |= __builtin_add_overflow(o[g], v[i], &o[g]);
            }
        }
        bool ok = true;
        for (uint32_t g = 0; !over && ok && g < ng; g++)
            if (!any[g] && col_set_null(out, g) < 0) ok = false;
        rx_free(any);
        if (!ok) goto oom;
        if (!over) {
            col_release(arg);
            return out;
        }
        col_release(out);
        out = NULL;
    }
    if (ag->fn == AGG_SUM || ag->fn == AGG_AVG) {
        out = col_new(ag->type, ng);
        cnt = rx_calloc(ng ? ng : 1, sizeof *cnt);
        if (!out || !cnt) goto oom;
        memset(out->data, 0, ng * type_width(ag->type));
        double *fsum = ag->fn == AGG_AVG || at == TY_FLOAT ? rx_calloc(ng ? ng : 1, sizeof *fsum) : NULL;
        if ((ag->fn == AGG_AVG || at == TY_FLOAT) && !fsum) goto oom;
        /* Sums of INT and DURATION (months, microseconds) add up in 128 bits, so that only a
         * total that does not fit is an overflow, not a partial sum on the way to one that
         * does (MAX + 1 - 2). Fewer than 2^32 rows of 64-bit values cannot overflow them. */
        int width = at == TY_DURATION ? 2 : 1;
        __int128 *wide = ag->fn == AGG_SUM && (at == TY_INT || at == TY_DURATION)
                             ? rx_calloc((ng ? ng : 1) * (size_t)width, sizeof *wide) : NULL;
        if (ag->fn == AGG_SUM && (at == TY_INT || at == TY_DURATION) && !wide) {
            rx_free(fsum);
            goto oom;
        }
        for (size_t i = 0; i < n; i++) {
            if (at == TY_NULL || col_is_null(arg, i)) continue;
            uint32_t g = ids[i];
            cnt[g]++;
            switch (at) {
            case TY_INT:
                if (ag->fn == AGG_SUM) {
                    wide[g] += col_i64(arg)[i];
                } else {
                    fsum[g] += (double)col_i64(arg)[i];
                }
                break;
            case TY_FLOAT: fsum[g] += col_f64(arg)[i]; break;
            case TY_DURATION: {
                RxDuration d = col_dur(arg)[i];
                if (ag->fn == AGG_SUM) {
                    wide[2 * (size_t)g] += d.months;
                    wide[2 * (size_t)g + 1] += d.us;
                } else {
                    fsum[g] += (double)rx_dur_span(d);
                }
                break;
            }
            default: break;
            }
        }
        for (uint32_t g = 0; g < ng; g++) {
            if (cnt[g] == 0) {
                if (col_set_null(out, g) < 0) {
                    rx_free(fsum);
                    rx_free(wide);
                    goto oom;
                }
                continue;
            }
            if (wide) {
                const __int128 *w = wide + (size_t)g * (size_t)width;
                bool fits = true;
                for (int k = 0; k < width; k++) fits &= w[k] >= INT64_MIN && w[k] <= INT64_MAX;
                if (!fits) {
                    rx_free(fsum);
                    rx_free(wide);
                    rx_error(err, RX_ERUNTIME, lp->src, ag->arg->span, at == TY_INT
                             ? "integer overflow in sum: the total does not fit in 64 bits"
                             : "duration overflow in sum: the total does not fit in 64 bits");
                    goto fail;
                }
                if (at == TY_INT) col_i64(out)[g] = (int64_t)w[0];
                else col_dur(out)[g] = (RxDuration){(int64_t)w[0], (int64_t)w[1]};
            } else if (ag->fn == AGG_AVG) {
                double avg = fsum[g] / (double)cnt[g];
                if (ag->type == TY_DURATION) col_dur(out)[g] = (RxDuration){0, (int64_t)avg};
                else col_f64(out)[g] = avg;
            } else if (at == TY_FLOAT) {
                col_f64(out)[g] = fsum[g];
            }
        }
        rx_free(fsum);
        rx_free(wide);
        rx_free(cnt);
        col_release(arg);
        return out;
    }
    /* min, max, first, last: pick a row per group, then gather the argument */
    pick = rx_malloc((ng ? ng : 1) * sizeof *pick);
    if (!pick) goto oom;
    for (uint32_t g = 0; g < ng; g++) pick[g] = ROW_NONE;
    int64_t *key = NULL;
    KeySet mks = {0};
    bool direct = (ag->fn == AGG_MIN || ag->fn == AGG_MAX) && (at == TY_INT || at == TY_FLOAT) && !arg->valid;
    if (direct) {
        /* numbers without NULLs: compare the values themselves (an optimisation of the keyed
         * path below; NaN sorts above every number there, so it does here too) */
        bool is_min = ag->fn == AGG_MIN;
        if (at == TY_INT) {
            const int64_t *v = col_i64(arg);
            for (size_t i = 0; i < n; i++) {
                uint32_t g = ids[i], cur = pick[g];
                if (cur == ROW_NONE || (is_min ? v[i] < v[cur] : v[i] > v[cur])) pick[g] = (uint32_t)i;
            }
        } else {
            const double *v = col_f64(arg);
            for (size_t i = 0; i < n; i++) {
                uint32_t g = ids[i], cur = pick[g];
                double a = v[i];
                if (cur == ROW_NONE) {
                    pick[g] = (uint32_t)i;
                    continue;
                }
                int c = rx_float_cmp(a, v[cur]);
                if (is_min ? c < 0 : c > 0) pick[g] = (uint32_t)i;
            }
        }
    } else if (ag->fn == AGG_MIN || ag->fn == AGG_MAX) {
        const Column *c1 = arg;
        if (at != TY_NULL && keys_encode_ordered(&c1, 1, &mks, err) < 0) goto fail;
        key = at != TY_NULL ? mks.keys[0] : NULL;
    }
    for (size_t i = 0; i < n && at != TY_NULL && !direct; i++) {
        if (col_is_null(arg, i)) continue;
        uint32_t g = ids[i], cur = pick[g];
        switch (ag->fn) {
        case AGG_MIN: if (cur == ROW_NONE || key[i] < key[cur]) pick[g] = (uint32_t)i; break;
        case AGG_MAX: if (cur == ROW_NONE || key[i] > key[cur]) pick[g] = (uint32_t)i; break;
        case AGG_FIRST: if (cur == ROW_NONE) pick[g] = (uint32_t)i; break;
        default: pick[g] = (uint32_t)i; break;
        }
    }
    keys_free(&mks);
    out = col_gather(arg, pick, ng);
    rx_free(pick);
    col_release(arg);
    if (!out) ops_oom(err);
    return out;
done:
    col_release(arg);
    if (!out) ops_oom(err);
    return out;
oom:
    ops_oom(err);
fail:
    rx_free(pick);
    rx_free(cnt);
    col_release(out);
    col_release(arg);
    return NULL;
}

/* Whether e is time_bucket(W, c) with a constant fixed width W (no months), no origin and no
 * zone, over an input column c of TIMESTAMP type: *width gets W in microseconds. */
static bool fixed_bucket(const Expr *e, const Table *in, int64_t *width) {
    if (e->kind != EX_CALL || e->fn != FN_TIME_BUCKET || e->n_args != 2 || e->type != TY_TIMESTAMP) return false;
    const Expr *w = e->args[0], *c = e->args[1];
    if (w->kind != EX_CONST || w->value.type != TY_DURATION || w->value.null || w->value.v.d.months != 0 ||
        w->value.v.d.us <= 0 || c->kind != EX_COL || in->cols[c->col]->type != TY_TIMESTAMP)
        return false;
    *width = w->value.v.d.us;
    return true;
}

/* γ's group ids when one key is time_bucket(W, ts) over times that never decrease (a feed's
 * order): the buckets' runs group without the buckets as a column (keys_group_buckets), and
 * that key's entry of *cols_out stays NULL (its values are bucket_of's). Returns 1 when it
 * applied, 0 when not (nothing allocated; the general group_ids gives the same ids), -1 on
 * failure (err set). */
static int bucket_group_ids(const LPlan *lp, const Table *in, uint32_t **ids, uint32_t *n_groups,
                            Column ***cols_out, int *bucket_key, RxError *err) {
    int b = -1;
    int64_t width = 0, wk;
    for (int k = 0; k < lp->n_group; k++)
        if (fixed_bucket(lp->group[k], in, &wk)) {
            b = k, width = wk;
            break;
        }
    if (b < 0 || lp->n_group > 9 || in->n_rows < 2) return 0;
    Column **cols = rx_calloc((size_t)lp->n_group + 1, sizeof *cols);
    const Column *rest[8];
    if (!cols) return ops_oom(err);
    int n_rest = 0;
    for (int k = 0; k < lp->n_group; k++) {
        if (k == b) continue;
        if (!(cols[k] = column_of(lp->group[k], in, err))) {
            release_cols(cols, lp->n_group);
            return -1;
        }
        rest[n_rest++] = cols[k];
    }
    const Column *ts = in->cols[lp->group[b]->args[1]->col];
    int rc = keys_group_buckets(rest, n_rest, ts, width, TM_BUCKET_ORIGIN, in->n_rows, ids, n_groups, err);
    if (rc <= 0) {
        release_cols(cols, lp->n_group);
        return rc;
    }
    *cols_out = cols;
    *bucket_key = b;
    return 1;
}

/* The bucket key of bucket_group_ids for the groups whose first rows are first[0..ng): each
 * group's bucket of its first row's time (in range: keys_group_buckets checked). NULL on OOM. */
static Column *bucket_of(const Expr *e, const Table *in, const uint32_t *first, uint32_t ng) {
    const int64_t *t = col_i64(in->cols[e->args[1]->col]);
    RxDuration w = e->args[0]->value.v.d;
    Column *c = col_new(TY_TIMESTAMP, ng);
    const char *why;
    for (uint32_t g = 0; c && g < ng; g++)
        if (tm_bucket_ts(w, t[first[g]], TM_BUCKET_ORIGIN, &col_i64(c)[g], &why) < 0) col_i64(c)[g] = 0;
    return c;
}

/* A key column of γ's result: c's values at the groups' first rows; a dictionary-coded TEXT
 * column keeps its coding (the rows' codes and a copy of the dictionary), so that an operator
 * above that groups or partitions by the key again (FILL, ω, ⨝) groups by code instead of
 * hashing strings (an optimisation: the same values). NULL on OOM. */
static Column *gather_key(const Column *c, const uint32_t *first, uint32_t ng) {
    Column *g = col_gather(c, first, ng);
    /* (a lazy c's gather is coded already: col_gather) */
    if (!g || g->codes || c->type != TY_TEXT || !c->codes || !c->dict || c->pruned) return g;
    g->codes = rx_malloc((ng ? ng : 1) * sizeof *g->codes);
    g->dict = rx_malloc((c->n_dict ? c->n_dict : 1) * sizeof *g->dict);
    if (!g->codes || !g->dict) {
        col_release(g);
        return NULL;
    }
    for (uint32_t i = 0; i < ng; i++) g->codes[i] = col_is_null(c, first[i]) ? 0 : c->codes[first[i]];
    memcpy(g->dict, c->dict, c->n_dict * sizeof *g->dict);
    g->n_dict = c->n_dict;
    return g;
}

Table *ops_group(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const LPlan *lp = p->lp;
    uint32_t *ids = NULL, ng = 0;
    Column **gcols = NULL;
    Table *t = NULL;
    uint32_t *first = NULL;
    int bucket_key = -1;
    int fused = bucket_group_ids(lp, in, &ids, &ng, &gcols, &bucket_key, err);
    if (fused < 0) goto out;
    if (!fused && group_ids(lp->group, lp->n_group, in, &ids, &ng, &gcols, err) < 0) goto out;
    if (lp->n_group > 0 && in->n_rows == 0) ng = 0;
    t = table_new(lp->schema.n, ng);
    first = rx_malloc((ng ? ng : 1) * sizeof *first);
    if (!t || !first) {
        ops_oom(err);
        table_free(t);
        t = NULL;
        goto out;
    }
    for (uint32_t g = 0; g < ng; g++) first[g] = ROW_NONE;
    for (size_t i = in->n_rows; i-- > 0;) first[ids[i]] = (uint32_t)i;
    for (int k = 0; k < lp->n_group; k++) {
        Column *g = k == bucket_key ? bucket_of(lp->group[k], in, first, ng) : gather_key(gcols[k], first, ng);
        if (!g || table_set(t, k, g, lp->schema.cols[k].name) < 0) {
            col_release(g);
            table_free(t);
            t = NULL;
            ops_oom(err);
            goto out;
        }
    }
    for (int a = 0; a < lp->n_aggs; a++) {
        Column *c = ops_aggregate(lp, &lp->aggs[a], in, ids, ng, err);
        if (!c || table_set(t, lp->n_group + a, c, lp->schema.cols[lp->n_group + a].name) < 0) {
            if (c) ops_oom(err);
            col_release(c);
            table_free(t);
            t = NULL;
            goto out;
        }
        if (ops_check_interrupt(x, err) < 0) {
            table_free(t);
            t = NULL;
            goto out;
        }
    }
out:
    release_cols(gcols, lp->n_group);
    rx_free(ids);
    rx_free(first);
    return t;
}
