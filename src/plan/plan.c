/*
 * plan.c - physical planning: algorithm choice and row estimates (plan.h).
 *
 * Estimates: a scan knows its row count; σ multiplies by the selectivity of its condition
 * (= against a constant 1/ndv, = between columns 1/max(ndv), a range against a constant the
 * share of the column's [min, max] it keeps (1/3 without statistics), IS NULL the null
 * fraction, ∧ the product, ∨ s1 + s2 - s1·s2, ¬ 1 - s); π and ρ keep their input's count; an
 * interval join evaluates its predicate on a sample of both sides (ijoin_estimate); an AS-OF
 * join estimates its left input (one row per probe; INNER drops few in practice). Distinct counts come from
 * the base columns, exact up to 65,536 rows and from an evenly spaced sample above that, and
 * are cached on the column.
 */
#include "plan/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "connect/connect.h"
#include "io/parquet.h"
#include "rewrite/rewrite.h"
#include "types/compare.h"
#include "types/temporal.h"

/* ---- statistics ----------------------------------------------------------------------------- */

/* Distinct count of a base column: hashes of the rows (or of a sample), counted in an open
 * addressing set. Hash collisions make it a slight underestimate, which is fine for planning. */
static double column_ndv(Column *c) {
    if (c->ndv > 0) return c->ndv;
    if (c->pruned) return c->n > 10 ? (double)c->n / 10 : 1;
    size_t n = c->n;
    if (n == 0) return 1;
    size_t sample = n <= 65536 ? n : 65536;
    RxHMap set;   /* hash of a value -> its first sample; room for every sample */
    uint64_t *hs = rx_malloc(sample * sizeof *hs);
    if (!hs || hmap_init(&set, sample) < 0) {
        rx_free(hs);
        return (double)n;
    }
    size_t distinct = 0;
    for (size_t k = 0; k < sample; k++) {
        size_t i = sample == n ? k : (size_t)((double)k * (double)n / (double)sample);
        if (col_is_null(c, i)) continue;
        /* a coded column may have no slices (column.h): its TEXT hashed as col_hash_value does */
        RxStr t = c->type == TY_TEXT ? col_text(c, i) : (RxStr){0};
        uint64_t h = c->type == TY_TEXT ? rx_hash_bytes(t.ptr, t.len) : col_hash_value(c, i);
        hs[k] = h;
        RxHProbe p = hmap_probe(&set, h);
        uint32_t v;
        bool seen = false;
        while (!seen && hmap_next(&set, &p, &v)) seen = hs[v] == h;
        if (seen) continue;
        distinct++;
        hmap_insert(&set, &p, (uint32_t)k, NULL, NULL);   /* reserved: never grows */
    }
    rx_free(hs);
    hmap_free(&set);
    double d = (double)distinct;
    if (sample < n && d > 0.9 * (double)sample) d = d * (double)n / (double)sample;
    if (d < 1) d = 1;
    c->ndv = d;
    return d;
}

static bool as_double(const Column *c, size_t i, bool ts_scale, double *out);
static Column *source_column(const LPlan *lp, int i);
static double null_fraction(const Column *c);

/* Minimum and maximum of a numeric or temporal base column (sampled like the distinct
 * count), cached on the column. */
static bool column_range(Column *c, double *lo, double *hi) {
    if (c->pruned) return false;
    if (c->range_known == 0) {
        c->range_known = -1;
        size_t n = c->n, step = n > 65536 ? n / 65536 : 1;
        double mn = 0, mx = 0;
        bool any = false;
        for (size_t i = 0; i < n; i += step) {
            double v;
            if (!as_double(c, i, false, &v)) continue;
            if (!any || v < mn) mn = v;
            if (!any || v > mx) mx = v;
            any = true;
        }
        if (any) {
            c->range_known = 1;
            c->min_est = mn;
            c->max_est = mx;
        }
    }
    *lo = c->min_est;
    *hi = c->max_est;
    return c->range_known == 1;
}

/* Selectivity of col < const (and friends) from the column's range: the fraction of
 * [min, max] on the qualifying side, or 1/3 without statistics. */
static double range_selectivity(const LPlan *in, const Expr *e) {
    const Expr *a = e->args[0], *b = e->args[1];
    AstOp op = e->op;
    if (a->kind == EX_CONST && b->kind == EX_COL) {
        const Expr *t = a;
        a = b;
        b = t;
        op = op == OP_LT ? OP_GT : op == OP_LE ? OP_GE : op == OP_GT ? OP_LT : OP_LE;
    }
    if (a->kind != EX_COL || b->kind != EX_CONST || b->value.null) return 1.0 / 3.0;
    Column *c = source_column(in, a->col);
    double lo, hi, v;
    if (!c || !column_range(c, &lo, &hi)) return 1.0 / 3.0;
    switch (b->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: v = (double)b->value.v.i; break;
    case TY_FLOAT: v = b->value.v.f; break;
    case TY_DATE: v = (double)b->value.v.date; break;
    default: return 1.0 / 3.0;
    }
    if (c->type == TY_DATE && b->type == TY_TIMESTAMP) v /= (double)US_PER_DAY;
    if (c->type == TY_TIMESTAMP && b->type == TY_DATE) v *= (double)US_PER_DAY;
    if (hi <= lo) return (op == OP_LT || op == OP_GT) ? 0.5 : 1.0;
    double below = (v - lo) / (hi - lo);
    if (below < 0) below = 0;
    if (below > 1) below = 1;
    double s = (op == OP_LT || op == OP_LE) ? below : 1.0 - below;
    s *= 1.0 - null_fraction(c);  /* NULL never satisfies a comparison */
    return s < 0.0001 ? 0.0001 : s;
}

static double null_fraction(const Column *c) {
    if (!c->valid || c->n == 0 || c->pruned) return 0;
    size_t nulls = 0, step = c->n > 65536 ? c->n / 65536 : 1, seen = 0;
    for (size_t i = 0; i < c->n; i += step, seen++) nulls += col_is_null(c, i);
    return (double)nulls / (double)(seen ? seen : 1);
}

/* The base column behind column i of lp, or NULL when it is computed. */
static Column *source_column(const LPlan *lp, int i) {
    for (;;) {
        switch (lp->kind) {
        case LP_SCAN:
            /* a database table's column that was never fetched (it is read by a pushed
             * statement): no statistics */
            if (lp->table->cols[i]->pruned && lp->table->cols[i]->n == 0 && lp->table->n_rows == 0) return NULL;
            return lp->table->cols[i];
        case LP_SELECT: case LP_RENAME: case LP_VIEW: case LP_DISTINCT: case LP_SORT: case LP_TOP:
            lp = lp->in[0];
            break;
        case LP_WINDOW: case LP_WJOIN:
            if (i >= lp->in[0]->schema.n) return NULL;
            lp = lp->in[0];
            break;
        case LP_FILL: return NULL;
        case LP_SETOP: case LP_SQL: return NULL;
        case LP_ISET:
            if (lp->iset_op == ISET_PACK || lp->iset_op == ISET_GAPS) {
                if (i >= lp->n_group) return NULL;
                i = lp->group[i]->col;
            } else if (i == lp->ends[0] || i == lp->ends[1]) {
                return NULL;
            }
            lp = lp->in[0];
            break;
        case LP_GROUP:
            if (i >= lp->n_group || lp->group[i]->kind != EX_COL) return NULL;
            i = lp->group[i]->col;
            lp = lp->in[0];
            break;
        case LP_JOIN:
            if (lp->join_kind == JOIN_RSEMI) {
                lp = lp->in[1];
                break;
            }
            if (lp->join_kind == JOIN_SEMI || lp->join_kind == JOIN_ANTI || i < lp->in[0]->schema.n) {
                lp = lp->in[0];
                break;
            }
            i -= lp->in[0]->schema.n;
            if (lp->right_out) i = lp->right_out[i];
            lp = lp->in[1];
            break;
        case LP_PROJECT:
            if (lp->items[i]->kind != EX_COL) return NULL;
            i = lp->items[i]->col;
            lp = lp->in[0];
            break;
        case LP_IJOIN: case LP_ASOF: {
            int nl = lp->in[0]->schema.n;
            if (i < nl) lp = lp->in[0];
            else {
                i -= nl;
                if (i >= lp->in[1]->schema.n) return NULL;   /* ASOF k's rank */
                lp = lp->in[1];
            }
            break;
        }
        }
    }
}

static double ndv_of(const LPlan *lp, const Expr *e, double rows) {
    if (e->kind != EX_COL) return rows > 10 ? rows / 10 : 1;
    Column *c = source_column(lp, e->col);
    double d = c ? column_ndv(c) : (rows > 10 ? rows / 10 : 1);
    if (d > rows && rows >= 1) d = rows;
    return d < 1 ? 1 : d;
}

static double selectivity(const LPlan *in, const Expr *e, double rows) {
    switch (e->kind) {
    case EX_CONST:
        if (e->type == TY_BOOL && !e->value.null) return e->value.v.b ? 1.0 : 0.0;
        return 0.0;
    case EX_UNARY:
        if (e->op == OP_NOT) return 1.0 - selectivity(in, e->args[0], rows);
        return 0.5;
    case EX_ISNULL: {
        double f = 0.1;
        if (e->args[0]->kind == EX_COL) {
            Column *c = source_column(in, e->args[0]->col);
            if (c) f = null_fraction(c);
        }
        return e->negated ? 1.0 - f : f;
    }
    case EX_BINARY: {
        const Expr *a = e->args[0], *b = e->args[1];
        switch (e->op) {
        case OP_AND: return selectivity(in, a, rows) * selectivity(in, b, rows);
        case OP_OR: {
            double x = selectivity(in, a, rows), y = selectivity(in, b, rows);
            return x + y - x * y;
        }
        case OP_EQ: {
            double da = ndv_of(in, a, rows), db = ndv_of(in, b, rows);
            if (a->kind == EX_CONST) return 1.0 / db;
            if (b->kind == EX_CONST) return 1.0 / da;
            return 1.0 / (da > db ? da : db);
        }
        case OP_NE: {
            double da = ndv_of(in, a, rows), db = ndv_of(in, b, rows);
            return 1.0 - 1.0 / (da > db ? da : db);
        }
        case OP_LT: case OP_LE: case OP_GT: case OP_GE: return range_selectivity(in, e);
        default: return 0.5;
        }
    }
    default:
        return 0.5;
    }
}

/* The value at row i of a numeric or temporal column as a double, for estimation only. */
static bool as_double(const Column *c, size_t i, bool ts_scale, double *out) {
    if (col_is_null(c, i)) return false;
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: *out = (double)col_i64(c)[i]; return true;
    case TY_FLOAT: *out = col_f64(c)[i]; return true;
    case TY_DATE: *out = (double)col_i32(c)[i] * (ts_scale ? (double)US_PER_DAY : 1.0); return true;
    case TY_DURATION: *out = (double)rx_dur_span(col_dur(c)[i]); return true;
    default: return false;
    }
}

/* An order- and equality-preserving integer for a double, so that the kernel's own predicate
 * (ij_holds) can judge the sampled pairs. */
static int64_t dkey(double d) { return rx_float_order_key(d); }

/* Interval-join estimate: the relation's predicate evaluated on an evenly spaced sample of up to
 * 200 rows of each side's base endpoint columns gives the fraction of pairs that match, scaled
 * to the inputs' estimated sizes. TEXT endpoints and computed ones fall back to max(n, m). */
static double ijoin_estimate(const LPlan *lp, double nl, double nr) {
    Column *c[4] = {source_column(lp->in[0], lp->ends[0]), source_column(lp->in[0], lp->ends[1]),
                    source_column(lp->in[1], lp->ends[2]), source_column(lp->in[1], lp->ends[3])};
    bool ts = false;
    for (int i = 0; i < 4; i++) {
        if (!c[i] || c[i]->pruned || c[i]->type == TY_TEXT || c[i]->type == TY_BOOL) return nl > nr ? nl : nr;
        ts |= c[i]->type == TY_TIMESTAMP;
    }
    /* the sample reads both endpoints of a side at the same rows: they must come from one
     * table (a side that is a join can take them from two) */
    if (c[0]->n != c[1]->n || c[2]->n != c[3]->n) return nl > nr ? nl : nr;
    size_t n0 = c[0]->n, n1 = c[2]->n;
    if (n0 == 0 || n1 == 0) return 0;
    size_t k0 = n0 < 200 ? n0 : 200, k1 = n1 < 200 ? n1 : 200;
    double ls[200], le[200], rs[200], re[200];
    size_t m0 = 0, m1 = 0;
    for (size_t k = 0; k < k0; k++) {
        size_t i = (size_t)((double)k * (double)n0 / (double)k0);
        if (as_double(c[0], i, ts, &ls[m0]) && as_double(c[1], i, ts, &le[m0])) m0++;
    }
    for (size_t k = 0; k < k1; k++) {
        size_t i = (size_t)((double)k * (double)n1 / (double)k1);
        if (as_double(c[2], i, ts, &rs[m1]) && as_double(c[3], i, ts, &re[m1])) m1++;
    }
    if (m0 == 0 || m1 == 0) return 0;
    size_t hits = 0;
    for (size_t i = 0; i < m0; i++)
        for (size_t j = 0; j < m1; j++)
            hits += lp->relset ? ij_holds_set(lp->relset, dkey(ls[i]), dkey(le[i]), dkey(rs[j]), dkey(re[j]))
                               : ij_holds(lp->relation, dkey(ls[i]), dkey(le[i]), dkey(rs[j]), dkey(re[j]));
    double pairs = (double)m0 * (double)m1;
    double frac = hits ? (double)hits / pairs : 0.5 / pairs;
    /* rows with a NULL endpoint never match */
    return frac * nl * ((double)m0 / (double)k0) * nr * ((double)m1 / (double)k1);
}

/* ---- building ------------------------------------------------------------------------------- */

static PNode *build(Arena *a, const LPlan *lp, const PlanOptions *opt, bool pushed, RxError *err);

/* The rows of a pushed statement: PostgreSQL's planner's estimate of it (asked once per
 * statement), else Relix's own estimate of the subtree it stands for, over the tables' row
 * counts as the database knows them (db_table_rows: sqlite_stat1 or a count). */
static double sql_estimate(Arena *a, const LPlan *lp, const PlanOptions *opt, RxError *err) {
    DbStatement *st = lp->stmt;
    if (st->rows_est >= 0) return st->rows_est;
    double rows;
    if (db_explain_rows(lp->conn_def->conn, st, &rows) == 0) return st->rows_est = rows;
    PNode *sub = build(a, lp->pushed, opt, true, err); /* fails only when out of memory */
    return sub ? (st->rows_est = sub->rows) : -1;
}

/* A scan's rows; inside a pushed subtree (pushed) the database's count of a table whose
 * columns Relix never fetched. */
static double scan_rows(const LPlan *lp, bool pushed) {
    const RelDef *d = lp->source;
    if (pushed && d && d->db) {
        bool fetched = false;
        for (int i = 0; i < lp->table->n_cols; i++) fetched |= d->db_loaded[i];
        double rows;
        if (!fetched && db_table_rows(d->db->conn, d->db_table, d->db_schema, &rows) == 0) return rows;
    }
    return (double)lp->table->n_rows;
}

static PNode *build(Arena *a, const LPlan *lp, const PlanOptions *opt, bool pushed, RxError *err) {
    PNode *p = arena_alloc(a, sizeof *p);
    if (!p) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    p->lp = lp;
    for (int i = 0; i < 2; i++)
        if (lp->in[i] && !(p->in[i] = build(a, lp->in[i], opt, pushed, err))) return NULL;
    switch (lp->kind) {
    case LP_SCAN:
        p->kind = PN_SCAN;
        p->rows = scan_rows(lp, pushed);
        break;
    case LP_SELECT:
        p->kind = PN_SELECT;
        p->rows = p->in[0]->rows * selectivity(lp->in[0], lp->pred, p->in[0]->rows);
        break;
    case LP_PROJECT:
        p->kind = PN_PROJECT;
        p->rows = p->in[0]->rows;
        break;
    case LP_RENAME: case LP_VIEW:
        p->kind = PN_RENAME;
        p->rows = p->in[0]->rows;
        break;
    case LP_IJOIN:
        p->kind = PN_IJOIN;
        p->rows = ijoin_estimate(lp, p->in[0]->rows, p->in[1]->rows);
        for (int k = 0; k < lp->n_keys; k++) {
            Column *ca = source_column(lp->in[0], lp->lkeys[k]), *cb = source_column(lp->in[1], lp->rkeys[k]);
            double da = ca ? column_ndv(ca) : 10, db = cb ? column_ndv(cb) : 10;
            p->rows /= da > db ? da : db;
        }
        p->ij_algo = opt ? opt->ijoin_algo : IJ_ALGO_AUTO;
        if (lp->join_kind == JOIN_LEFT && p->rows < p->in[0]->rows) p->rows = p->in[0]->rows;
        if (lp->join_kind == JOIN_SEMI && p->rows > p->in[0]->rows) p->rows = p->in[0]->rows;
        if (lp->join_kind == JOIN_ANTI)
            p->rows = p->in[0]->rows - (p->rows > p->in[0]->rows ? p->in[0]->rows : p->rows);
        break;
    case LP_ASOF:
        p->kind = PN_ASOF;
        p->rows = p->in[0]->rows * (lp->asof_k > 1 ? lp->asof_k : 1);
        p->asof_algo = opt ? opt->asof_algo : ASOF_ALGO_AUTO;
        break;
    case LP_JOIN: {
        double nl = p->in[0]->rows, nr = p->in[1]->rows, est = nl * nr;
        for (int k = 0; k < lp->n_keys; k++) {
            Column *ca = source_column(lp->in[0], lp->lkeys[k]), *cb = source_column(lp->in[1], lp->rkeys[k]);
            double da = ca ? column_ndv(ca) : (nl > 10 ? nl / 10 : 1), db = cb ? column_ndv(cb) : (nr > 10 ? nr / 10 : 1);
            est /= da > db ? da : db;
        }
        if (lp->residual) est /= 3;
        p->kind = lp->n_keys > 0 && !(opt && opt->no_hashjoin) ? PN_HASHJOIN : PN_LOOPJOIN;
        switch (lp->join_kind) {
        case JOIN_LEFT: if (est < nl) est = nl; break;
        case JOIN_RIGHT: if (est < nr) est = nr; break;
        case JOIN_FULL: if (est < nl + nr) est = est + (nl > nr ? nl : nr) / 2; break;
        case JOIN_SEMI: if (est > nl) est = nl; break;
        case JOIN_RSEMI: if (est > nr) est = nr; break;
        case JOIN_ANTI: est = nl - (est > nl ? nl : est); break;
        default: break;
        }
        p->rows = est;
        break;
    }
    case LP_SETOP:
        p->kind = PN_SETOP;
        p->rows = lp->set_op == SET_UNION ? p->in[0]->rows + p->in[1]->rows
                : lp->set_op == SET_INTERSECT ? (p->in[0]->rows < p->in[1]->rows ? p->in[0]->rows : p->in[1]->rows)
                : p->in[0]->rows;
        break;
    case LP_DISTINCT:
        p->kind = PN_DISTINCT;
        p->rows = p->in[0]->rows;
        break;
    case LP_SQL:
        p->kind = PN_SQL;
        if ((p->rows = sql_estimate(a, lp, opt, err)) < 0) return NULL;
        break;
    case LP_SORT:
        p->kind = PN_SORT;
        p->rows = p->in[0]->rows;
        break;
    case LP_ISET:
        /* PACK and GAPS give at most a row per input row (GAPS one more per key); the others
         * a row per piece, which cuts multiply: a guess of twice the left input */
        p->kind = PN_ISET;
        p->rows = lp->iset_op == ISET_PACK || lp->iset_op == ISET_GAPS ? p->in[0]->rows / 2 : p->in[0]->rows * 2;
        break;
    case LP_WINDOW:
        p->kind = PN_WINDOW;
        p->rows = p->in[0]->rows;
        break;
    case LP_WJOIN:
        p->kind = PN_WJOIN;
        p->rows = p->in[0]->rows;
        break;
    case LP_FILL:
        p->kind = PN_FILL;
        p->rows = p->in[0]->rows;
        break;
    case LP_TOP: case LP_GROUP: {
        double groups = 1;
        for (int k = 0; k < lp->n_group; k++) groups *= ndv_of(lp->in[0], lp->group[k], p->in[0]->rows);
        if (groups > p->in[0]->rows) groups = p->in[0]->rows;
        if (lp->kind == LP_TOP) {
            p->kind = PN_TOP;
            p->rows = groups * (double)lp->top_n;
            if (p->rows > p->in[0]->rows) p->rows = p->in[0]->rows;
        } else {
            p->kind = PN_GROUP;
            p->rows = lp->n_group ? groups : 1;
        }
        break;
    }
    }
    return p;
}

/* ---- projection pruning --------------------------------------------------------------------- */

/* p's needed outputs are set; computes its inputs' and recurses. */
static int prune(Arena *a, PNode *p, int *pruned) {
    const LPlan *lp = p->lp;
    for (int side = 0; side < 2; side++) {
        PNode *in = p->in[side];
        if (!in) continue;
        int n = in->lp->schema.n;
        uint8_t *need = rw_input_need(a, lp, side, p->needed);
        if (!need) return -1;
        int k = 0;
        for (int i = 0; i < n; i++) k += need[i];
        in->needed = need;
        in->n_needed = k;
        if (k < n && in->kind != PN_SCAN && in->kind != PN_RENAME && in->kind != PN_PROJECT &&
            in->kind != PN_GROUP && in->kind != PN_SETOP && in->kind != PN_DISTINCT)
            (*pruned)++;
        if (prune(a, in, pruned) < 0) return -1;
    }
    return 0;
}

static int load_scans(const PNode *p, const PlanOptions *opt, RxError *err) {
    if (!p) return 0;
    if (p->kind == PN_SCAN) return opt->load_columns(opt->load_ud, p->lp, p->needed, err);
    if (load_scans(p->in[0], opt, err) < 0) return -1;
    return load_scans(p->in[1], opt, err);
}

static PNode *build_pruned(Arena *a, const LPlan *lp, const PlanOptions *opt, int *pruned, RxError *err) {
    PNode *p = build(a, lp, opt, false, err);
    *pruned = 0;
    if (p && !(opt && opt->no_prune) && prune(a, p, pruned) < 0) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    return p;
}

/* Gives p's operators the ids next, next+1, ... in EXPLAIN order; returns the next free id. */
static int number(PNode *p, int next) {
    if (!p) return next;
    p->id = next++;
    next = number(p->in[0], next);
    return number(p->in[1], next);
}

PNode *plan_build(Arena *a, const LPlan *lp, const PlanOptions *opt, int *pruned, RxError *err) {
    int dummy;
    if (!pruned) pruned = &dummy;
    PNode *p = build_pruned(a, lp, opt, pruned, err);
    if (p && opt && opt->load_columns) {
        /* The columns the plan uses are known now: load them, then plan again so that the
         * estimates read real statistics. */
        if (load_scans(p, opt, err) < 0) return NULL;
        p = build_pruned(a, lp, opt, pruned, err);
    }
    number(p, 0);
    return p;
}

/* ---- explain -------------------------------------------------------------------------------- */

long long plan_rows_printed(double rows) {
    if (rows <= 0) return 0;
    double f = floor(rows);
    return f < 1 ? 1 : (long long)f;
}

void plan_label(const PNode *p, StrBuf *out) {
    const LPlan *lp = p->lp;
    switch (p->kind) {
    case PN_SCAN: sb_printf(out, "Scan %s", lp->rel_name); break;
    case PN_SELECT: sb_puts(out, "Select"); break;
    case PN_PROJECT: sb_puts(out, "Project"); break;
    case PN_RENAME: sb_puts(out, "Rename"); break;
    case PN_IJOIN: {
        IjOptions o = {.algo = p->ij_algo, .set = lp->relset};
        static const char *const kinds[] = {"", " left", "", "", " semi", "", " anti", ""};
        char setname[256];
        if (lp->point)
            sb_printf(out, "IntervalJoin%s AT [%d;%d,%d] (point in [start, end): %s", kinds[lp->join_kind],
                      lp->ends[0], lp->ends[2], lp->ends[3], ij_strategy(lp->relation, &o));
        else
            sb_printf(out, "IntervalJoin%s %s [%d,%d;%d,%d] (%s", kinds[lp->join_kind],
                      lp->relset ? ij_set_name(lp->relset, setname, sizeof setname) : ij_relation_name(lp->relation),
                      lp->ends[0], lp->ends[1], lp->ends[2], lp->ends[3],
                      ij_strategy(lp->relation, &o));
        if (lp->n_keys) {
            sb_puts(out, ", one per partition of ");
            for (int k = 0; k < lp->n_keys; k++)
            {
                const ColInfo *rc = &lp->in[1]->schema.cols[lp->rkeys[k]];
                sb_printf(out, "%s%s = %s%s%s", k ? " ∧ " : "", lp->in[0]->schema.cols[lp->lkeys[k]].name,
                          rc->qual ? rc->qual : "", rc->qual ? "." : "", rc->name);
            }
        }
        sb_puts(out, ")");
        break;
    }
    case PN_HASHJOIN: case PN_LOOPJOIN: {
        static const char *const kinds[] = {"inner", "left", "right", "full", "semi", "right semi", "anti", "cross"};
        sb_printf(out, "%s %s", p->kind == PN_HASHJOIN ? "HashJoin" : "NestedLoopJoin", kinds[lp->join_kind]);
        if (lp->n_keys) {
            sb_puts(out, " [");
            for (int k = 0; k < lp->n_keys; k++) sb_printf(out, "%s%d=%d", k ? "," : "", lp->lkeys[k], lp->rkeys[k]);
            sb_puts(out, "]");
        }
        if (lp->residual) sb_puts(out, " +filter");
        break;
    }
    case PN_SETOP: sb_puts(out, lp->set_op == SET_UNION ? "Union" : lp->set_op == SET_INTERSECT ? "Intersect" : "Except"); break;
    case PN_DISTINCT: sb_puts(out, "Distinct"); break;
    case PN_SQL:
        sb_printf(out, "PushedSQL on %s: %s", db_display(lp->conn_def->conn), lp->stmt->sql);
        db_params_text(lp->conn_def->conn, lp->stmt, out);
        if (lp->stmt->show_name)
            sb_printf(out, " | as %s: %s", lp->stmt->show_name,
                      lp->stmt->show_sql ? lp->stmt->show_sql : "(no exact form: stays as it is run)");
        break;
    case PN_SORT: sb_printf(out, "Sort (%d key%s)", lp->n_sort, lp->n_sort == 1 ? "" : "s"); break;
    case PN_TOP:
        sb_printf(out, "Top %lld", (long long)lp->top_n);
        if (lp->n_group) sb_printf(out, " per %d key%s", lp->n_group, lp->n_group == 1 ? "" : "s");
        if (lp->n_sort) sb_printf(out, " by %d key%s", lp->n_sort, lp->n_sort == 1 ? "" : "s");
        break;
    case PN_WINDOW:
        sb_puts(out, "Window");
        if (lp->n_group) sb_printf(out, " per %d key%s", lp->n_group, lp->n_group == 1 ? "" : "s");
        sb_printf(out, " by %d key%s:", lp->n_sort, lp->n_sort == 1 ? "" : "s");
        for (int i = 0; i < lp->n_wins; i++) {
            const WinSpec *w = &lp->wins[i];
            sb_printf(out, "%s %s", i ? "," : "", lang_window_name(w->fn));
            if (w->frame == WF_ROWS) {
                sb_printf(out, " over %lld rows", (long long)w->rows);
            } else if (w->frame == WF_RANGE) {
                RxType ot = lp->sort[0].e->type;
                if (ot == TY_TIMESTAMP || ot == TY_DATE) {
                    char buf[TM_BUF];
                    tm_format_duration((RxDuration){0, w->range}, buf);
                    sb_printf(out, " over %s", buf);
                } else if (ot == TY_INT) {
                    sb_printf(out, " over %lld", (long long)w->range);
                } else {
                    sb_printf(out, " over %.17g", w->range_f);
                }
            } else if (w->fn >= WIN_FIRST_VALUE) {
                sb_puts(out, " running");
            }
            sb_printf(out, " → %s", lp->schema.cols[lp->in[0]->schema.n + i].name);
        }
        break;
    case PN_FILL: {
        char buf[TM_BUF];
        tm_format_duration(lp->within, buf);
        sb_printf(out, "Fill %s every %s", lp->schema.cols[lp->fill_col].name, buf);
        if (lp->n_group) sb_printf(out, " per %d key%s", lp->n_group, lp->n_group == 1 ? "" : "s");
        bool any = false;
        for (int i = 0; i < lp->schema.n; i++)
            if (lp->fill_rule[i] != FILL_NULL) {
                sb_printf(out, "%s %s %s", any ? "," : ":", lp->schema.cols[i].name,
                          lp->fill_rule[i] == FILL_PREVIOUS ? "previous" : "linear");
                any = true;
            }
        break;
    }
    case PN_GROUP:
        sb_printf(out, "Aggregate (%d key%s, %d aggregate%s)", lp->n_group, lp->n_group == 1 ? "" : "s",
                  lp->n_aggs, lp->n_aggs == 1 ? "" : "s");
        break;
    case PN_ISET: {
        static const char *const names[] = {"Pack", "Gaps", "Normalize", "IntervalMinus", "IntervalIntersect"};
        sb_printf(out, "%s [%d,%d", names[lp->iset_op], lp->ends[0], lp->ends[1]);
        if (lp->in[1]) sb_printf(out, ";%d,%d", lp->ends[2], lp->ends[3]);
        sb_puts(out, "]");
        if (lp->n_group) {
            sb_puts(out, " by ");
            for (int k = 0; k < lp->n_group; k++)
                sb_printf(out, "%s%s", k ? ", " : "", lp->in[0]->schema.cols[lp->group[k]->col].name);
        }
        for (int k = 0; k < lp->n_keys; k++) {
            const ColInfo *rc = &lp->in[1]->schema.cols[lp->rkeys[k]];
            sb_printf(out, "%s%s = %s%s%s", k ? " ∧ " : " on ", lp->in[0]->schema.cols[lp->lkeys[k]].name,
                      rc->qual ? rc->qual : "", rc->qual ? "." : "", rc->name);
        }
        if (lp->n_aggs) sb_printf(out, " with %d aggregate%s", lp->n_aggs, lp->n_aggs == 1 ? "" : "s");
        if (lp->has_range) sb_puts(out, " within a range");
        sb_puts(out, lp->iset_op == ISET_PACK || lp->iset_op == ISET_GAPS ? " (sort and sweep)" : " (sort, then a sweep of left rows in order, a search for each other)");
        break;
    }
    case PN_ASOF: {
        if (lp->nearest)
            sb_printf(out, "AsOfJoin nearest (equal distances: %s%s)",
                      lp->dir == ASOF_BACKWARD || lp->dir == ASOF_BACKWARD_STRICT ? "earlier" : "later",
                      lp->dir == ASOF_BACKWARD_STRICT || lp->dir == ASOF_FORWARD_STRICT ? ", no exact match" : "");
        else
            sb_printf(out, "AsOfJoin %s", asof_dir_name(lp->dir));
        if (lp->inner) sb_puts(out, "/inner");
        if (lp->has_within) {
            char buf[TM_BUF];
            tm_format_duration(lp->within, buf);
            sb_printf(out, "/within %s", buf);
        }
        if (lp->ties_first) sb_puts(out, "/ties(first)");
        if (lp->ties_all) sb_puts(out, "/ties(all)");
        if (lp->asof_k) sb_printf(out, " (%d nearest, ranked)", lp->asof_k);
        break;
    }
    case PN_WJOIN: {
        const ColInfo *lt = &lp->in[0]->schema.cols[lp->lmatch], *rt = &lp->in[1]->schema.cols[lp->rmatch];
        sb_printf(out, "WindowJoin %s%s%s in [%s ", rt->qual ? rt->qual : "", rt->qual ? "." : "", rt->name, lt->name);
        for (int k = 0; k < 2; k++) {
            int64_t off = k ? lp->wj_hi : lp->wj_lo;
            if (k) sb_printf(out, ", %s ", lt->name);
            uint64_t mag = off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off;
            if (lt->type == TY_INT) {
                sb_printf(out, "%c %llu", off < 0 ? '-' : '+', (unsigned long long)mag);
            } else {
                char buf[TM_BUF];
                int64_t us = lt->type == TY_DATE ? (int64_t)mag * INT64_C(86400000000) : (int64_t)mag;
                tm_format_duration((RxDuration){0, us}, buf);
                sb_printf(out, "%c %s", off < 0 ? '-' : '+', buf);
            }
        }
        sb_puts(out, "]");
        if (lp->prevailing) sb_puts(out, " + prevailing");
        for (int k = 0; k < lp->n_keys; k++) {
            const ColInfo *rc = &lp->in[1]->schema.cols[lp->rkeys[k]];
            sb_printf(out, "%s%s = %s%s%s", k ? " ∧ " : " per ", lp->in[0]->schema.cols[lp->lkeys[k]].name,
                      rc->qual ? rc->qual : "", rc->qual ? "." : "", rc->name);
        }
        sb_printf(out, " (%d aggregate%s, one sweep)", lp->n_aggs, lp->n_aggs == 1 ? "" : "s");
        break;
    }
    }
}

/* The walk behind plan_explain and plan_lines: one PlanLine per operator, in EXPLAIN order. */
static void walk_lines(const PNode *p, PlanLineFn fn, void *ud, StrBuf *prefix, StrBuf *label,
                       bool root, bool last) {
    size_t saved = prefix->n;
    if (!root) sb_puts(prefix, last ? "└─ " : "├─ ");
    label->n = 0;
    plan_label(p, label);
    if (p->kind == PN_SCAN && p->needed && p->n_needed < p->lp->schema.n && p->lp->source &&
        (((const RelDef *)p->lp->source)->csv || ((const RelDef *)p->lp->source)->pq ||
         ((const RelDef *)p->lp->source)->db))
        sb_printf(label, " (reads %d of %d columns)", p->n_needed, p->lp->schema.n);
    if (p->kind == PN_SCAN && p->lp->source && ((const RelDef *)p->lp->source)->db &&
        db_kind(((const RelDef *)p->lp->source)->db->conn) == DB_MONGO) {
        const RelDef *d = p->lp->source;
        sb_printf(label, " | find on %s: ", db_display(d->db->conn));
        db_find_text(d->db->conn, d->db_table, p->needed, label);
    }
    if (p->kind == PN_SCAN && p->lp->source && ((const RelDef *)p->lp->source)->pq) {
        const RelDef *d = p->lp->source;
        for (int i = 0; i < d->n_pq_parts; i++)
            if (pq_table(d->pq_parts[i]) == p->lp->table)
                sb_printf(label, " (reads %d of %d row groups)", pq_row_groups_kept(d->pq_parts[i]),
                          pq_row_groups(d->pq_parts[i]));
    }
    if (p->needed && p->n_needed < p->lp->schema.n && p->kind != PN_SCAN && p->kind != PN_RENAME &&
        p->kind != PN_PROJECT && p->kind != PN_GROUP && p->kind != PN_SETOP && p->kind != PN_DISTINCT)
        sb_printf(label, " (%d of %d columns used)", p->n_needed, p->lp->schema.n);
    PlanLine line = {p, prefix->p ? prefix->p : "", label->p ? label->p : "", plan_rows_printed(p->rows)};
    fn(ud, &line);
    prefix->n = saved;
    if (prefix->p) prefix->p[saved] = 0;
    if (!root) sb_puts(prefix, last ? "   " : "│  ");
    int nk = p->in[1] ? 2 : p->in[0] ? 1 : 0;
    for (int i = 0; i < nk; i++) walk_lines(p->in[i], fn, ud, prefix, label, false, i == nk - 1);
    prefix->n = saved;
    if (prefix->p) prefix->p[saved] = 0;
}

void plan_lines(const PNode *p, PlanLineFn fn, void *ud) {
    StrBuf prefix, label;
    sb_init(&prefix);
    sb_init(&label);
    walk_lines(p, fn, ud, &prefix, &label, true, true);
    sb_free(&prefix);
    sb_free(&label);
}

static void explain_line(void *ud, const PlanLine *line) {
    StrBuf *out = ud;
    sb_printf(out, "%s%s  ~%lld rows\n", line->tree, line->label, line->rows_est);
}

void plan_explain(const PNode *p, StrBuf *out) { plan_lines(p, explain_line, out); }

int plan_nodes(const PNode *p) {
    if (!p) return 0;
    return 1 + plan_nodes(p->in[0]) + plan_nodes(p->in[1]);
}
