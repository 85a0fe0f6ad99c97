/*
 * plan.c - physical planning: algorithm choice and row estimates (plan.h).
 *
 * Estimates: a scan knows its row count; σ multiplies by the selectivity of its condition
 * (= against a constant 1/ndv, = between columns 1/max(ndv), ranges 1/3, IS NULL the null
 * fraction, ∧ the product, ∨ s1 + s2 - s1·s2, ¬ 1 - s); π and ρ keep their input's count; an
 * interval join estimates max(n, m), an AS-OF join its left input. Distinct counts come from
 * the base columns, exact up to 65,536 rows and from an evenly spaced sample above that, and
 * are cached on the column.
 */
#include "plan/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "types/temporal.h"

/* ---- statistics ----------------------------------------------------------------------------- */

/* Distinct count of a base column: hashes of the rows (or of a sample), counted in an open
 * addressing set. Hash collisions make it a slight underestimate, which is fine for planning. */
static double column_ndv(Column *c) {
    if (c->ndv > 0) return c->ndv;
    size_t n = c->n;
    if (n == 0) return 1;
    size_t sample = n <= 65536 ? n : 65536;
    size_t cap = 1;
    while (cap < sample * 2) cap <<= 1;
    uint64_t *set = calloc(cap, sizeof *set);
    if (!set) return (double)n;
    size_t distinct = 0;
    for (size_t k = 0; k < sample; k++) {
        size_t i = sample == n ? k : (size_t)((double)k * (double)n / (double)sample);
        if (col_is_null(c, i)) continue;
        uint64_t h = col_hash_value(c, i) | 1;
        size_t j = h & (cap - 1);
        while (set[j] && set[j] != h) j = (j + 1) & (cap - 1);
        if (!set[j]) {
            set[j] = h;
            distinct++;
        }
    }
    free(set);
    double d = (double)distinct;
    if (sample < n && d > 0.9 * (double)sample) d = d * (double)n / (double)sample;
    if (d < 1) d = 1;
    c->ndv = d;
    return d;
}

static double null_fraction(const Column *c) {
    if (!c->valid || c->n == 0) return 0;
    size_t nulls = 0, step = c->n > 65536 ? c->n / 65536 : 1, seen = 0;
    for (size_t i = 0; i < c->n; i += step, seen++) nulls += col_is_null(c, i);
    return (double)nulls / (double)(seen ? seen : 1);
}

/* The base column behind column i of lp, or NULL when it is computed. */
static Column *source_column(const LPlan *lp, int i) {
    for (;;) {
        switch (lp->kind) {
        case LP_SCAN: return lp->table->cols[i];
        case LP_SELECT: case LP_RENAME: case LP_VIEW: lp = lp->in[0]; break;
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
        case OP_LT: case OP_LE: case OP_GT: case OP_GE: return 1.0 / 3.0;
        default: return 0.5;
        }
    }
    default:
        return 0.5;
    }
}

/* ---- building ------------------------------------------------------------------------------- */

static PNode *build(Arena *a, const LPlan *lp, const PlanOptions *opt, RxError *err) {
    PNode *p = arena_alloc(a, sizeof *p);
    if (!p) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        return NULL;
    }
    p->lp = lp;
    for (int i = 0; i < 2; i++)
        if (lp->in[i] && !(p->in[i] = build(a, lp->in[i], opt, err))) return NULL;
    switch (lp->kind) {
    case LP_SCAN:
        p->kind = PN_SCAN;
        p->rows = (double)lp->table->n_rows;
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
        p->rows = p->in[0]->rows > p->in[1]->rows ? p->in[0]->rows : p->in[1]->rows;
        p->ij_algo = opt ? opt->ijoin_algo : IJ_ALGO_AUTO;
        break;
    case LP_ASOF:
        p->kind = PN_ASOF;
        p->rows = p->in[0]->rows;
        p->asof_algo = opt ? opt->asof_algo : ASOF_ALGO_AUTO;
        break;
    }
    return p;
}

PNode *plan_build(Arena *a, const LPlan *lp, const PlanOptions *opt, RxError *err) {
    return build(a, lp, opt, err);
}

/* ---- explain -------------------------------------------------------------------------------- */

long long plan_rows_printed(double rows) {
    if (rows <= 0) return 0;
    double f = floor(rows);
    return f < 1 ? 1 : (long long)f;
}

static const char *asof_dir_name(int dir) {
    switch (dir) {
    case ASOF_BACKWARD: return "backward";
    case ASOF_BACKWARD_STRICT: return "backward/strict";
    case ASOF_FORWARD: return "forward";
    case ASOF_FORWARD_STRICT: return "forward/strict";
    }
    return "?";
}

void plan_label(const PNode *p, StrBuf *out) {
    const LPlan *lp = p->lp;
    switch (p->kind) {
    case PN_SCAN: sb_printf(out, "Scan %s", lp->rel_name); break;
    case PN_SELECT: sb_puts(out, "Select"); break;
    case PN_PROJECT: sb_puts(out, "Project"); break;
    case PN_RENAME: sb_puts(out, "Rename"); break;
    case PN_IJOIN: {
        IjOptions o = {.algo = p->ij_algo};
        sb_printf(out, "IntervalJoin %s [%d,%d;%d,%d] (%s)", ij_relation_name((IjRelation)lp->relation),
                  lp->ends[0], lp->ends[1], lp->ends[2], lp->ends[3],
                  ij_strategy((IjRelation)lp->relation, &o));
        break;
    }
    case PN_ASOF: {
        sb_printf(out, "AsOfJoin %s", asof_dir_name(lp->dir));
        if (lp->inner) sb_puts(out, "/inner");
        if (lp->has_within) {
            char buf[TM_BUF];
            tm_format_duration(lp->within, buf);
            sb_printf(out, "/within %s", buf);
        }
        if (lp->ties_first) sb_puts(out, "/ties(first)");
        break;
    }
    }
}

static void explain_node(const PNode *p, StrBuf *out, StrBuf *prefix, bool root, bool last) {
    if (!root) {
        sb_append(out, prefix->p ? prefix->p : "", prefix->n);
        sb_puts(out, last ? "└─ " : "├─ ");
    }
    plan_label(p, out);
    sb_printf(out, "  ~%lld rows\n", plan_rows_printed(p->rows));
    size_t saved = prefix->n;
    if (!root) sb_puts(prefix, last ? "   " : "│  ");
    int nk = p->in[1] ? 2 : p->in[0] ? 1 : 0;
    for (int i = 0; i < nk; i++) explain_node(p->in[i], out, prefix, false, i == nk - 1);
    prefix->n = saved;
    if (prefix->p) prefix->p[saved] = 0;
}

void plan_explain(const PNode *p, StrBuf *out) {
    StrBuf prefix;
    sb_init(&prefix);
    explain_node(p, out, &prefix, true, true);
    sb_free(&prefix);
}
