/*
 * pushsql.c - SQL pushdown (PUSH-SQL-001 to -004): a subtree of the logical plan whose
 * leaves are tables of one database connection runs in that database as one SELECT.
 *
 * The spec's two cases (spec/interval-join.md, spec/asof-join.md) are an IJOIN over two bare
 * tables of one connection (PUSH-SQL-001, any dialect) and an ASOF over two bare tables
 * (PUSH-SQL-002); they apply with the optimizer off too (an ASOF then only as LATERAL). With it on, any maximal subtree
 * of σ π ρ δ ⨝ (inner, outer, semi, anti, cross, natural) γ τ TOP IJOIN ASOF ω over tables of one
 * connection is pushed (PUSH-SQL-003), as far as every operator and expression in it has an
 * exact equivalent in the dialect; where one has not, the pushdown stops below it and the rest
 * runs in the engine.
 *
 * Algorithm:
 *   1. Walk the plan top-down, carrying which output columns the operators above read (the
 *      planner's PRUNE-001 rule, rw_input_need). At each node that reads a database table, try
 *      step 2; on success the subtree becomes one LP_SQL node, else the walk goes on below. A
 *      σ whose condition has an SQL equivalent only in part is split first: σ a ∧ b is σ b over
 *      σ a, and σ a may push.
 *   2. Generate the subtree bottom-up as a "block": FROM items, a WHERE conjunction, an SQL
 *      expression per output column, and the engine's row order as a list of SQL expressions.
 *      σ adds to WHERE; ρ changes nothing; inner joins of blocks merge their FROM and WHERE;
 *      every other operator wraps its input as a subquery (columns c0 c1 ..., order o0 o1 ...)
 *      first where it needs one: π and δ keep the first row of each group of equal rows by
 *      ROW_NUMBER() OVER (PARTITION BY items ORDER BY input order) = 1; γ numbers its input in
 *      order and orders groups by min(number) (first appearance); τ prepends its keys to the
 *      order; TOP is ORDER BY ... LIMIT n, or ROW_NUMBER() OVER (PARTITION BY ...) <= n; ω adds
 *      one window function per item over its input's subquery (gen_window, docs/connect.md).
 *   3. The statement selects the columns read above and ends with ORDER BY the block's order.
 *
 * Order. Every result of Relix has a defined order (docs/design.md), so every block carries one
 * that is total: a table's is its primary key, rowid or ctid (connect.h); a join's is the
 * left order then the right order (right and full joins first put the right rows that found
 * no partner after the others); τ's is its keys, then its input's order (a stable sort).
 *
 * Exactness. A pushed statement gives the bytes the engine gives: every value is the value
 * the engine computes, and where SQL differs it is written out (docs/connect.md lists each
 * rule): text compares bytewise (COLLATE "C", SQLite's BINARY); INT and FLOAT mix as doubles;
 * `/` divides doubles; FLOAT and DURATION compare as types/compare.h says, which is
 * PostgreSQL's own rule (NaN = NaN above every number, -0 = 0, a month 30 days); the columns the
 * engine reads rounded (float4, numeric) are rounded the same way first; aggregates that add
 * doubles add them in input order. What has no exact equivalent stays in the engine: for
 * instance SQLite arithmetic (an overflow becomes a REAL, a division by zero NULL), round()
 * with places, text conversions, FLOAT group keys and min/max on PostgreSQL (-0 and 0 tie),
 * ASOF NEAREST and k nearest, and WITHIN over DURATION match values (PUSH-SQL-005 says why).
 * Literals are parameters, never spliced into the text; every identifier is quoted.
 *
 * Forms and cost (docs/connect.md, "Pushdown forms"). An ASOF is written as one sorted pass of
 * window functions (asof_window) or, where an index serves each probe, as a LATERAL subquery
 * (asof_lateral); an IJOIN as an equi-join on fixed-width bins (ijoin_binned) or as its plain
 * predicate (IJOIN LEFT, SEMI and ANTI over a left table also binned: the left rows found by
 * their order among the pairs). asof_form and ijoin_form choose, unless the session forces a
 * form; pull_cheaper compares pushing with pulling both inputs (PUSH-SQL-004 says why a join
 * stayed in the engine). Each choice is kept in Gen.why for the log.
 *
 * Dialects. What each database computes exactly, and how it spells types, literals, the
 * bytewise collation, ORDER BY items, the IJOIN predicate, the bins' expansion and the AS-OF
 * lateral join, is its table in connect/sqlgen.h; this file asks the table and has no branch
 * per database. The same walk over another dialect's table gives the SQL EXPLAIN shows for an
 * engine without a server here (RewriteOptions.show_dialect).
 *
 * Longer than the ~1,200 lines a file should hold: the decision (what may be pushed) and the
 * walk that builds each SELECT block share the generator's state (Gen, Blk) operator by
 * operator; separating them means a small SQL tree in connect/ that this file builds and
 * sqlgen prints, which the next dialects (MariaDB, DuckDB, H2, SQL Server, Db2) call for.
 */
#include <stdlib.h>
#include <string.h>

#include "connect/connect.h"
#include "connect/sqlgen.h"
#include "rewrite/rewrite.h"

/* A pushed statement longer than this stays in the engine (nested CASEs repeat their
 * operands: the text could grow faster than the query). */
#define MAX_SQL_BYTES (1u << 20)

/* ---- blocks --------------------------------------------------------------------------------- */

typedef struct {
    const char *raw;    /* SQL of the value as stored (what a scan reads); NULL: not available */
    RxType type;
    DbNative nat;       /* how raw relates to the Relix value (connect.h) */
    const char *coll;   /* a table's text column: its deterministic collation (connect.h), under
                         * which `=` is bytewise; NULL: unknown */
} Col;

typedef struct {
    const char *sql;
    bool desc, nulls_first;
    bool plain;         /* a table's own order: written as a scan writes it, no NULLS clause */
    bool text;          /* TEXT: ordered bytewise */
    bool number;        /* a table's rowid or INT primary key: min() gives its first row */
} Ord;

typedef struct {
    const char *from;
    const char *where;  /* NULL: none */
    bool single;        /* from is one table or subquery */
    int n_cols;
    Col *cols;
    int n_ord;
    Ord *ord;
} Blk;

typedef struct {
    Arena *a;
    const SqlDialect *d;
    int lite_version;
    const RelDef *conn; /* the connection of the tables met so far */
    int n_alias;
    Value *params;
    int n_params, cap_params;
    int n_tables;
    bool oom;
    bool too_long;      /* a piece of text passed MAX_SQL_BYTES: nothing generated is used */
    PushForm form;      /* the form forced (rewrite.h), or PUSH_AUTO */
    const char *why;    /* the form an AS-OF or interval join took and why, for the log */
    bool pull;          /* the cost model prefers pulling the inputs of the join it met */
    const char *stay;   /* why an AS-OF or interval join met has no exact form here, for the log */
    const char *stay_win; /* why an ω met has no exact form here, for the log */
    bool spec_only;     /* the optimizer is off: the spec's pushdowns, without the cost model */
} Gen;

static void *galloc(Gen *g, size_t n) {
    void *p = arena_alloc(g->a, n ? n : 1);
    if (!p) g->oom = true;
    return p;
}

/* The dialect's name of the counting aggregate: count, or COUNT_BIG where count is a 32-bit
 * int that fails past 2^31 rows. */
static const char *count_fn(const Gen *g) { return g->d->count_big ? "COUNT_BIG" : "count"; }

static char *gfmt(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *gfmt(Gen *g, const char *fmt, ...) {
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    if (b.n > MAX_SQL_BYTES) {
        sb_free(&b);
        g->too_long = true;
        return NULL;
    }
    char *s = b.oom ? NULL : arena_strndup(g->a, b.p ? b.p : "", b.n);
    sb_free(&b);
    if (!s) g->oom = true;
    return s;
}

static char *quoted(Gen *g, const char *name) {
    if (strchr(name, '\x01')) return NULL; /* the parameter mark (never in real names) */
    StrBuf b;
    sb_init(&b);
    sql_quote_ident(&b, g->d, name);
    char *s = b.oom || !b.p ? NULL : arena_strndup(g->a, b.p, b.n);
    sb_free(&b);
    if (!s) g->oom = true;
    return s;
}

static const char *new_alias(Gen *g) { return gfmt(g, "t%d", ++g->n_alias); }

static Blk *new_blk(Gen *g, int n_cols, int n_ord) {
    Blk *b = galloc(g, sizeof *b);
    if (!b) return NULL;
    b->n_cols = n_cols;
    b->cols = galloc(g, (size_t)(n_cols + 1) * sizeof *b->cols);
    b->n_ord = n_ord;
    b->ord = galloc(g, (size_t)(n_ord + 1) * sizeof *b->ord);
    return b->cols && b->ord ? b : NULL;
}

static const char *and_sql(Gen *g, const char *a, const char *b) {
    if (!a) return b;
    if (!b) return a;
    return gfmt(g, "%s AND %s", a, b);
}

/* ---- SQL pieces ----------------------------------------------------------------------------- */

/* Which types a pushed expression may compute with: those the dialect names (sqlgen.h). */
static bool computable(const Gen *g, RxType t) {
    return sql_type_name(g->d, t) != NULL;
}

/* v (SQL text) cast to the dialect's type t; NULL when the dialect has no such type. */
static const char *cast_to(Gen *g, const char *v, RxType t) {
    const char *ty = t == TY_NULL ? NULL : sql_type_name(g->d, t);
    return v && ty ? gfmt(g, "CAST(%s AS %s)", v, ty) : NULL;
}

static const char *null_of(Gen *g, RxType t) {
    if (g->d->typed_literals && t != TY_NULL && computable(g, t)) return cast_to(g, "NULL", t);
    return "NULL";
}

/* A literal: a parameter of the statement. */
static const char *param(Gen *g, const Value *v) {
    if (!computable(g, v->type) || v->type == TY_NULL) return NULL;
    if (!g->d->text_holds_nul && v->type == TY_TEXT && memchr(v->v.s.ptr, 0, (size_t)v->v.s.len)) return NULL; /* no NUL in text */
    if (g->n_params == g->cap_params) {
        int cap = g->cap_params ? g->cap_params * 2 : 8;
        Value *p = galloc(g, (size_t)cap * sizeof *p);
        if (!p) return NULL;
        if (g->n_params) memcpy(p, g->params, (size_t)g->n_params * sizeof *p);
        g->params = p;
        g->cap_params = cap;
    }
    g->params[g->n_params++] = *v;
    /* a mark numbered by the final statement (number_params): text that holds a literal may be
     * dropped on the way (the order of a join's EXISTS side) */
    if (g->d->typed_literals)
        return gfmt(g, "CAST(\x01%d\x01 AS %s)", g->n_params - 1, sql_type_name(g->d, v->type));
    return gfmt(g, "\x01%d\x01", g->n_params - 1);
}

/* Replaces the parameter marks of sql by $1, $2 ... (?1, ?2 ... on SQLite) in order of first
 * appearance, into b; the parameters that remain, in that order, into *out. -1 on OOM. */
static int number_params(Gen *g, const char *sql, StrBuf *b, Value **out, int *n_out) {
    int *num = galloc(g, (size_t)(g->n_params + 1) * sizeof *num);
    Value *vals = galloc(g, (size_t)(g->n_params + 1) * sizeof *vals);
    if (!num || !vals) return -1;
    int n = 0;
    for (const char *p = sql; *p;) {
        if (*p != '\x01') {
            const char *q = strchr(p, '\x01');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            sb_append(b, p, len);
            p += len;
            continue;
        }
        int k = (int)strtol(p + 1, (char **)&p, 10);
        p++; /* the closing mark */
        if (!num[k]) {
            vals[n] = g->params[k];
            num[k] = ++n;
        }
        sql_param(b, g->d, num[k]);
    }
    *out = vals;
    *n_out = n;
    return b->oom ? -1 : 0;
}

static const char *collated(Gen *g, const char *sql) {
    if (g->d->bytes_form) return gfmt(g, g->d->bytes_form, sql);
    return gfmt(g, "(%s)%s", sql, g->d->collate_bytes);
}

/* A value of collated() as the text it stands for, where it is a result rather than only compared
 * (a dialect whose bytewise form is another type turns it back). */
static const char *collated_text(Gen *g, const char *sql, RxType t) {
    if (t != TY_TEXT || !g->d->bytes_text || !sql) return sql;
    return gfmt(g, g->d->bytes_text, sql);
}

static const char *as_float(Gen *g, const char *sql, RxType t) {
    if (t != TY_INT) return sql;
    return cast_to(g, sql, TY_FLOAT);
}

/* The Relix value of a column, or NULL when the pushed statement cannot compute with it.
 * *narrow: a PostgreSQL int2/int4, whose arithmetic must be widened first. */
static const char *col_value(Gen *g, const Col *c, bool *narrow) {
    if (narrow) *narrow = false;
    if (!c->raw || !computable(g, c->type)) return NULL;
    switch (c->nat) {
    case DBN_EXACT: return c->raw;
    case DBN_INT4:
        if (narrow) *narrow = true;
        return c->raw;
    case DBN_FLOAT4: return gfmt(g, "CAST(CAST(%s AS text) AS float8)", c->raw);
    case DBN_NUMERIC: return gfmt(g, "CAST(%s AS float8)", c->raw);
    case DBN_REAL: return cast_to(g, c->raw, TY_FLOAT);
    case DBN_OPAQUE: return NULL;
    }
    return NULL;
}

/* A value as an int8 operand of PostgreSQL arithmetic. */
static const char *wide(Gen *g, const char *sql, bool narrow) {
    return narrow ? gfmt(g, "CAST(%s AS int8)", sql) : sql;
}

/* ---- expressions ---------------------------------------------------------------------------- */

static const char *expr(Gen *g, const Expr *e, const Col *cols, bool *narrow);

/* The two operands of a comparison brought to one type as the engine does (eval.c's unify):
 * INT with FLOAT compares as doubles, DATE with TIMESTAMP as the date's midnight; TEXT compares
 * bytewise. *t is the common type. */
static bool unify_sql(Gen *g, const char **a, RxType ta, const char **b, RxType tb, RxType *t) {
    *t = ta;
    if (ta != tb) {
        if (type_is_numeric(ta) && type_is_numeric(tb)) {
            *a = as_float(g, *a, ta);
            *b = as_float(g, *b, tb);
            *t = TY_FLOAT;
        } else if ((ta == TY_DATE && tb == TY_TIMESTAMP) || (ta == TY_TIMESTAMP && tb == TY_DATE)) {
            if (ta == TY_DATE) *a = cast_to(g, *a, TY_TIMESTAMP);
            else *b = cast_to(g, *b, TY_TIMESTAMP);
            *t = TY_TIMESTAMP;
        } else {
            return false;
        }
    }
    if (*t == TY_TEXT) {
        *a = collated(g, *a);
        *b = collated(g, *b);
    }
    return *a && *b;
}

/* A comparison with the engine's semantics (types/compare.h): SQL's three-valued logic;
 * NaN equals NaN and exceeds every number and -0 equals 0, as PostgreSQL's float8 compares
 * (SQLite stores a NaN as NULL, so none reaches its comparisons); a DURATION compares by its
 * span, a month as 30 days, as PostgreSQL's interval does. */
static const char *compare(Gen *g, AstOp op, const char *a, RxType ta, const char *b, RxType tb) {
    if (ta == TY_NULL || tb == TY_NULL) return null_of(g, TY_BOOL);
    RxType t;
    if (!unify_sql(g, &a, ta, &b, tb, &t)) return NULL;
    return gfmt(g, "(%s %s %s)", a, sql_op(op), b);
}

/* e as a FLOAT: an INT literal becomes a FLOAT literal, anything else INT is converted. */
static const char *float_operand(Gen *g, const Expr *e, const Col *cols) {
    if (e->kind == EX_CONST && e->type == TY_INT && !e->value.null) {
        Value v = {.type = TY_FLOAT};
        v.v.f = (double)e->value.v.i;
        return param(g, &v);
    }
    const char *s = expr(g, e, cols, NULL);
    return s ? as_float(g, s, e->type) : NULL;
}

/* The operands of e converted to its result type t (INT branches of a FLOAT CASE, NULLs). */
static const char *branch(Gen *g, const Expr *e, RxType t, const Col *cols) {
    if (e->type == TY_NULL) return null_of(g, t);
    if (t == TY_FLOAT) return float_operand(g, e, cols);
    return expr(g, e, cols, NULL);
}

static const char *arith(Gen *g, const Expr *e, const Col *cols) {
    const Expr *x = e->args[0], *y = e->args[1];
    if (!g->d->exact_arith || x->type == TY_NULL || y->type == TY_NULL) return NULL;
    bool nx, ny;
    const char *a = expr(g, x, cols, &nx), *b = expr(g, y, cols, &ny);
    if (!a || !b) return NULL;
    RxType ta = x->type, tb = y->type;
    switch (e->type) {
    case TY_INT:
        /* 64-bit, failing on overflow and on % 0 as the engine does; x % -1 is 0 in both */
        if (e->op == OP_DIV) return NULL;
        return gfmt(g, "(%s %s %s)", wide(g, a, nx), sql_op(e->op), wide(g, b, ny));
    case TY_FLOAT:
        /* / always divides doubles (7 / 2 is 3.5), failing on 0 as the engine does */
        if (e->op == OP_MOD) return NULL;
        a = float_operand(g, x, cols);
        b = float_operand(g, y, cols);
        return a && b ? gfmt(g, "(%s %s %s)", a, sql_op(e->op), b) : NULL;
    case TY_DURATION:
        /* differences that cannot leave the range of Relix's times: TIMESTAMP − TIMESTAMP,
         * TIME − TIME, DATE − DATE (whole days), DURATION ± DURATION */
        if (ta == TY_DATE && tb == TY_DATE && e->op == OP_SUB) return gfmt(g, "make_interval(days => %s - %s)", a, b);
        if ((ta == TY_TIMESTAMP && tb == TY_TIMESTAMP) || (ta == TY_TIME && tb == TY_TIME))
            return e->op == OP_SUB ? gfmt(g, "(%s - %s)", a, b) : NULL;
        if (ta == TY_DURATION && tb == TY_DURATION && (e->op == OP_ADD || e->op == OP_SUB))
            return gfmt(g, "(%s %s %s)", a, sql_op(e->op), b);
        return NULL;
    case TY_TIME:
        /* TIME ± DURATION wraps around midnight in both, reading only the time of day */
        if (ta == TY_TIME && tb == TY_DURATION) return gfmt(g, "(%s %s %s)", a, sql_op(e->op), b);
        if (ta == TY_DURATION && tb == TY_TIME && e->op == OP_ADD) return gfmt(g, "(%s + %s)", b, a);
        return NULL;
    default:
        /* TIMESTAMP and DATE results: the engine fails outside years 1 to 9999, PostgreSQL does
         * not, and a result used only in a condition would not fail at all */
        return NULL;
    }
}

/* A non-NULL INT constant, for function arguments that must be one. */
static bool int_const(const Expr *e, int64_t *v) {
    if (e->kind != EX_CONST || e->type != TY_INT || e->value.null) return false;
    *v = e->value.v.i;
    return true;
}

static const char *call(Gen *g, const Expr *e, const Col *cols, bool *narrow) {
    int na = e->n_args;
    for (int i = 0; i < na; i++)
        if (e->fn != FN_COALESCE && e->fn != FN_CONCAT && e->fn != FN_GREATEST && e->fn != FN_LEAST &&
            e->args[i]->type == TY_NULL)
            return null_of(g, e->type);
    const Expr *x = na ? e->args[0] : NULL;
    RxType tx = x ? x->type : TY_NULL;
    bool nx = false;
    const char *a = NULL;
    if (e->fn != FN_COALESCE && x && !(a = expr(g, x, cols, &nx))) return NULL;
    switch (e->fn) {
    case FN_COALESCE: {
        if (e->type == TY_NULL) return NULL;
        StrBuf b;
        sb_init(&b);
        sb_puts(&b, "coalesce(");
        for (int i = 0; i < na; i++) {
            const char *s = branch(g, e->args[i], e->type, cols);
            if (!s) {
                sb_free(&b);
                return NULL;
            }
            sb_printf(&b, "%s%s", i ? ", " : "", s);
        }
        sb_puts(&b, ")");
        const char *r = b.oom ? NULL : gfmt(g, "%s", b.p);
        sb_free(&b);
        return r;
    }
    case FN_ABS:
        /* abs(-9223372036854775808) fails in the engine, PostgreSQL and SQLite alike */
        if (tx == TY_INT) return gfmt(g, "abs(%s)", g->d->narrow_ints ? wide(g, a, nx) : a);
        /* SQLite's abs keeps the sign of -0; adding 0 drops it, as C's fabs does */
        if (tx == TY_FLOAT) return g->d->abs_keeps_neg_zero ? gfmt(g, "(abs(%s) + 0.0)", a) : gfmt(g, "abs(%s)", a);
        return NULL;
    case FN_ROUND: case FN_FLOOR: case FN_CEIL: {
        int64_t places = 0;
        if (na == 2 && !int_const(e->args[1], &places)) return NULL;
        if (tx == TY_INT) {
            /* an integer rounded to 0 or more places is itself */
            if (places < 0) return NULL;
            if (narrow) *narrow = nx;
            return a;
        }
        if (tx != TY_FLOAT || !g->d->float_trunc || places != 0) return NULL;
        if (e->fn == FN_FLOOR) return gfmt(g, "floor(%s)", a);
        if (e->fn == FN_CEIL) return gfmt(g, "ceil(%s)", a);
        /* C's round(): half away from zero, the sign of a zero kept (PostgreSQL's round of a
         * float8 rounds half to even); x - trunc(x) is exact */
        return gfmt(g, "(CASE WHEN abs(%s - trunc(%s)) >= 0.5 THEN trunc(%s) + sign(%s) ELSE trunc(%s) END)", a, a, a, a, a);
    }
    case FN_LOWER: case FN_UPPER:
        /* ASCII letters only: PostgreSQL's C collation and SQLite's built-in functions map no
         * others, as the engine does; other databases' map every letter */
        if (tx != TY_TEXT || !(g->d->case_map_collated || g->d->case_map_ascii)) return NULL;
        return gfmt(g, "%s(%s)", e->fn == FN_LOWER ? "lower" : "upper", g->d->case_map_collated ? collated(g, a) : a);
    case FN_LENGTH:
        /* characters (code points); SQLite's length() and substr() stop at a NUL that a TEXT
         * value may hold, the engine's do not, so neither is pushed to SQLite */
        if (tx != TY_TEXT || !g->d->text_functions) return NULL;
        return cast_to(g, gfmt(g, "length(%s)", a), TY_INT);
    case FN_SUBSTR: {
        int64_t start, len = 0;
        if (tx != TY_TEXT || !g->d->text_functions || !int_const(e->args[1], &start) || (na == 3 && !int_const(e->args[2], &len)))
            return NULL;
        /* SQL's substr, as the engine's, for a start from 1 (SQLite counts a start below 1
         * from the end) and a length of 0 or more within PostgreSQL's int4 */
        if (start < -2147483647 || start > 2147483647 || len < 0 || len > 2147483647) return NULL;
        Value vs = {.type = TY_INT}, vl = {.type = TY_INT};
        vs.v.i = start;
        vl.v.i = len;
        const char *ps = param(g, &vs), *pl = na == 3 ? param(g, &vl) : NULL;
        if (!ps || (na == 3 && !pl)) return NULL;
        if (na == 3) return gfmt(g, "substr(%s, CAST(%s AS int4), CAST(%s AS int4))", a, ps, pl);
        return gfmt(g, "substr(%s, CAST(%s AS int4))", a, ps);
    }
    case FN_TO_TEXT:
        /* only where the text is the same: TEXT itself and decimal integers */
        if (tx == TY_TEXT) return a;
        if (tx == TY_INT) return cast_to(g, a, TY_TEXT);
        return NULL;
    case FN_TO_INT:
        if (tx == TY_INT) {
            if (narrow) *narrow = nx;
            return a;
        }
        if (tx == TY_BOOL) return g->d->bool_type ? gfmt(g, "CAST(CAST(%s AS int4) AS int8)", a) : a;
        /* toward zero, failing out of range: PostgreSQL's cast rounds, SQLite's saturates */
        if (tx == TY_FLOAT && g->d->float_trunc) return gfmt(g, "CAST(trunc(%s) AS int8)", a);
        return NULL;
    case FN_TO_FLOAT:
        if (tx == TY_INT || tx == TY_FLOAT) return as_float(g, a, tx);
        return NULL;
    case FN_TO_DATE:
        if (tx == TY_DATE) return a;
        if (tx == TY_TIMESTAMP) return cast_to(g, a, TY_DATE);
        return NULL;
    case FN_TO_TIMESTAMP:
        if (tx == TY_TIMESTAMP) return a;
        if (tx == TY_DATE) return cast_to(g, a, TY_TIMESTAMP);
        return NULL;
    case FN_TO_TIME:
        if (tx == TY_TIME) return a;
        if (tx == TY_TIMESTAMP) return cast_to(g, a, TY_TIME);
        return NULL;
    case FN_TO_DURATION:
        return tx == TY_DURATION ? a : NULL;
    case FN_EXTRACT: case FN_DATE_TRUNC:
        /* fields and edge cases of their own (docs/functions.md): the engine computes them */
        return NULL;
    case FN_TRIM: case FN_LTRIM: case FN_RTRIM: case FN_REPLACE: case FN_STARTS_WITH:
    case FN_SPLIT_PART: {
        /* code points and bytes, no collation: PostgreSQL's btrim, ltrim, rtrim, replace,
         * starts_with and split_part (a field from 1 on; 0 and negative ones stay here) */
        if (!g->d->text_functions) return NULL;
        const char *b[2] = {NULL, NULL};
        for (int i = 1; i < na && i < 3; i++) {
            if (e->fn == FN_SPLIT_PART && i == 2) {
                int64_t k;
                if (!int_const(e->args[2], &k) || k < 1 || k > 2147483647) return NULL;
                Value vk = {.type = TY_INT};
                vk.v.i = k;
                const char *pk = param(g, &vk);
                if (!pk || !(b[1] = gfmt(g, "CAST(%s AS int4)", pk))) return NULL;
            } else if (!(b[i - 1] = expr(g, e->args[i], cols, NULL))) {
                return NULL;
            }
        }
        static const char *const names[] = {[FN_TRIM] = "btrim", [FN_LTRIM] = "ltrim", [FN_RTRIM] = "rtrim",
                                            [FN_REPLACE] = "replace", [FN_STARTS_WITH] = "starts_with",
                                            [FN_SPLIT_PART] = "split_part"};
        const char *fn = names[e->fn];
        if (na == 1) return gfmt(g, "%s(%s)", fn, a);
        if (na == 2) return gfmt(g, "%s(%s, %s)", fn, a, b[0]);
        return gfmt(g, "%s(%s, %s, %s)", fn, a, b[0], b[1]);
    }
    case FN_SQRT: {
        /* correctly rounded, and an error for a negative number, in PostgreSQL as here */
        if (!g->d->exact_arith || !g->d->text_functions) return NULL;
        return gfmt(g, "sqrt(%s)", as_float(g, wide(g, a, nx), tx));
    }
    case FN_DIV: {
        /* int8 division truncates toward zero and fails on zero and on overflow */
        if (!g->d->exact_arith || e->type != TY_INT) return NULL;
        const char *d = expr(g, e->args[1], cols, NULL);
        return d ? gfmt(g, "(%s / %s)", wide(g, a, nx), d) : NULL;
    }
    case FN_LIKE: {
        /* PostgreSQL's LIKE over bytes (COLLATE "C"), '_' one character, backslash the escape
         * unless ESCAPE says otherwise, failing on a pattern that ends with its escape; ILIKE
         * there folds more than ASCII letters and SQLite's LIKE folds case: those stay here */
        if (!g->d->text_functions) return NULL;
        const char *pat = expr(g, e->args[1], cols, NULL);
        const char *esc = na == 3 ? expr(g, e->args[2], cols, NULL) : "'\\'";
        if (!pat || !esc) return NULL;
        return gfmt(g, "(%s LIKE %s ESCAPE %s)", collated(g, a), pat, esc);
    }
    case FN_TIME_BUCKET: case FN_DATE_BIN: {
        /* a TIMESTAMP by a constant fixed width, no zone, from a constant origin (Monday
         * 2000-01-03 by default) whose buckets are those laid from 0001-01-01, the dialect's
         * origin: every bucket of a time in Relix's range is then in the range too (where the
         * engine would fail, no SQL does) */
        const Expr *w = x, *ts = na >= 2 ? e->args[1] : NULL, *o = na == 3 ? e->args[2] : NULL;
        if (!g->d->bucket || na > 3 || !ts || ts->type != TY_TIMESTAMP || w->kind != EX_CONST || w->value.null ||
            w->value.v.d.months != 0 || w->value.v.d.us <= 0)
            return NULL;
        int64_t origin = TM_BUCKET_ORIGIN, width = w->value.v.d.us;
        if (o) {
            if (o->kind != EX_CONST || o->value.null || (o->type != TY_TIMESTAMP && o->type != TY_DATE)) return NULL;
            origin = o->type == TY_DATE ? (int64_t)o->value.v.date * US_PER_DAY : o->value.v.i;
        }
        if (origin < TM_TS_MIN || origin > TM_TS_MAX || (origin - TM_TS_MIN) % width != 0) return NULL;
        const char *t = expr(g, ts, cols, NULL);
        return t ? gfmt(g, g->d->bucket, (long long)width, t) : NULL;
    }
    case FN_ILIKE: case FN_CONTAINS: case FN_CONCAT: case FN_POWER: case FN_EXP: case FN_LN: case FN_LOG10:
    case FN_SIGN: case FN_MOD: case FN_GREATEST: case FN_LEAST: case FN_NULLIF: case FN_EPOCH:
    case FN_TO_SECONDS: case FN_SECONDS: case FN_MAKE_TIMESTAMP: case FN_NOW:
    case FN_REGEXP_LIKE: case FN_REGEXP_REPLACE: case FN_STRFTIME: case FN_STRPTIME:
    case FN_AT_TIME_ZONE: case FN_TO_UTC_TIMESTAMP:
        /* no exact equivalent everywhere (the last digit of a libm result, NULL and NaN rules,
         * the text of a FLOAT), or rewritten by the analysis: the engine computes them */
        return NULL;
    }
    return NULL;
}

static const char *expr1(Gen *g, const Expr *e, const Col *cols, bool *narrow);

/* The SQL of e's Relix value over the columns cols, or NULL when e has no exact equivalent in
 * the dialect. With narrow, *narrow tells that the value is a PostgreSQL int4 (which compares
 * exactly, and keeps an index usable); without, such a value is widened to int8. */
static const char *expr(Gen *g, const Expr *e, const Col *cols, bool *narrow) {
    bool n = false;
    const char *s = expr1(g, e, cols, &n);
    if (narrow) *narrow = n;
    else if (s && n) s = wide(g, s, true);
    return s;
}

static const char *expr1(Gen *g, const Expr *e, const Col *cols, bool *narrow) {
    *narrow = false;
    if (g->oom || !computable(g, e->type)) return NULL;
    switch (e->kind) {
    case EX_COL: return col_value(g, &cols[e->col], narrow);
    case EX_CONST:
        if (e->value.null || e->type == TY_NULL) return null_of(g, e->type);
        return param(g, &e->value);
    case EX_UNARY: {
        const Expr *x = e->args[0];
        if (e->op == OP_NEG && x->kind == EX_CONST && !x->value.null && x->type == e->type &&
            ((x->type == TY_INT && x->value.v.i != INT64_MIN) || x->type == TY_FLOAT)) {
            /* a negative literal (-2 is the negation of 2) */
            Value v = x->value;
            if (v.type == TY_INT) v.v.i = -v.v.i;
            else v.v.f = -v.v.f;
            return param(g, &v);
        }
        bool n;
        const char *a = expr(g, x, cols, &n);
        if (!a) return NULL;
        if (e->op == OP_NOT) return gfmt(g, "(NOT %s)", a);
        /* SQLite computes -x as 0 - x, which makes -0.0 of 0.0; a product keeps the sign */
        if (e->type == TY_FLOAT) return gfmt(g, g->d->neg_keeps_sign ? "(- %s)" : "(-1.0 * %s)", a);
        /* an INT negation fails on -9223372036854775808 in the engine and in PostgreSQL; SQLite
         * makes it a REAL */
        if (!g->d->exact_arith) return NULL;
        if (e->type == TY_INT) return gfmt(g, "(- %s)", wide(g, a, n));
        if (e->type == TY_DURATION) return gfmt(g, "(- %s)", a);
        return NULL;
    }
    case EX_ISNULL: {
        const Expr *x = e->args[0];
        /* any column can be tested, whatever its type */
        const char *a = x->kind == EX_COL ? cols[x->col].raw : x->type == TY_NULL ? "NULL" : expr(g, x, cols, NULL);
        if (!a) return NULL;
        return gfmt(g, "(%s IS %sNULL)", a, e->negated ? "NOT " : "");
    }
    case EX_BINARY: {
        const Expr *x = e->args[0], *y = e->args[1];
        switch (e->op) {
        case OP_AND: case OP_OR: {
            const char *a = expr(g, x, cols, NULL), *b = expr(g, y, cols, NULL);
            if (!a || !b) return NULL;
            return gfmt(g, "(%s %s %s)", a, e->op == OP_AND ? "AND" : "OR", b);
        }
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
            bool n;
            bool mixed = type_is_numeric(x->type) && type_is_numeric(y->type) && x->type != y->type;
            const char *a = x->type == TY_NULL ? "NULL" : mixed ? float_operand(g, x, cols) : expr(g, x, cols, &n);
            const char *b = y->type == TY_NULL ? "NULL" : mixed ? float_operand(g, y, cols) : expr(g, y, cols, &n);
            RxType tx = mixed ? TY_FLOAT : x->type, ty = mixed ? TY_FLOAT : y->type;
            if (!a || !b) return NULL;
            return compare(g, e->op, a, tx, b, ty);
        }
        case OP_CONCAT: {
            /* TEXT with TEXT or INT: the engine's text of an INT is its decimal, as in SQL */
            const char *s[2];
            for (int i = 0; i < 2; i++) {
                const Expr *o = e->args[i];
                if (o->type == TY_NULL) {
                    s[i] = null_of(g, TY_TEXT);
                    continue;
                }
                bool n;
                if (o->type != TY_TEXT && o->type != TY_INT) return NULL;
                if (!(s[i] = expr(g, o, cols, &n))) return NULL;
                if (o->type == TY_INT) s[i] = cast_to(g, s[i], TY_TEXT);
            }
            return gfmt(g, "(%s || %s)", s[0], s[1]);
        }
        default:
            return arith(g, e, cols);
        }
    }
    case EX_CALL: return call(g, e, cols, narrow);
    case EX_CASE: {
        if (e->type == TY_NULL) return NULL;
        StrBuf b;
        sb_init(&b);
        sb_puts(&b, "(CASE");
        int n = e->n_args;
        bool ok = true;
        for (int i = 0; ok && i + 1 < n; i += 2) {
            const char *w = e->args[i]->type == TY_NULL ? NULL : expr(g, e->args[i], cols, NULL);
            const char *t = branch(g, e->args[i + 1], e->type, cols);
            if (e->args[i]->type == TY_NULL) w = "NULL";
            ok = w && t;
            if (ok) sb_printf(&b, " WHEN %s THEN %s", w, t);
        }
        const char *el = ok ? branch(g, e->args[n - 1], e->type, cols) : NULL;
        if (el) sb_printf(&b, " ELSE %s END)", el);
        const char *r = el && !b.oom ? gfmt(g, "%s", b.p) : NULL;
        sb_free(&b);
        return r;
    }
    }
    return NULL;
}

/* e's value as a key that groups, partitions or orders as the engine's keys do (keys.c):
 * TEXT bytewise. NULL when e cannot be one on this dialect. */
static const char *key_expr(Gen *g, const Expr *e, const Col *cols) {
    bool n;
    const char *s = expr(g, e, cols, &n);
    if (!s) return NULL;
    return e->type == TY_TEXT ? collated(g, s) : s;
}

/* ---- order ---------------------------------------------------------------------------------- */

/* Appends the order list (reversed: every item the other way round) to b. */
static void order_list(Gen *g, StrBuf *b, const Ord *o, int n, bool reverse) {
    for (int i = 0; i < n; i++) {
        bool desc = o[i].desc != reverse, nf = o[i].nulls_first != reverse;
        sb_puts(b, i ? ", " : "");
        sql_order_item(b, g->d, o[i].sql, o[i].text, o[i].plain, desc, nf);
    }
}

static const char *order_text(Gen *g, const Ord *o, int n, bool reverse) {
    StrBuf b;
    sb_init(&b);
    order_list(g, &b, o, n, reverse);
    const char *s = b.oom ? NULL : gfmt(g, "%s", b.p ? b.p : "");
    sb_free(&b);
    return s;
}

/* ---- closing a block into a subquery -------------------------------------------------------- */

/* The block as one subquery named tN: the columns that want marks (NULL: all available) as
 * c<i>, the order as o<j>, then `extra` select items ("expr AS name", or NULL) and `tail`
 * (" ORDER BY ... LIMIT n", or NULL). */
static Blk *close_blk_head(Gen *g, const Blk *b, const uint8_t *want, const char *extra, const char *tail,
                          const char *head) {
    Blk *o = new_blk(g, b->n_cols, b->n_ord);
    const char *t = new_alias(g);
    if (!o || !t) return NULL;
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "(SELECT ");
    if (head) sb_puts(&s, head);
    int items = 0;
    for (int i = 0; i < b->n_cols; i++) {
        o->cols[i] = b->cols[i];
        o->cols[i].raw = NULL;
        if (!b->cols[i].raw || (want && !want[i])) continue;
        sb_printf(&s, "%s%s AS c%d", items++ ? ", " : "", b->cols[i].raw, i);
        o->cols[i].raw = gfmt(g, "%s.c%d", t, i);
    }
    for (int j = 0; j < b->n_ord; j++) {
        sb_printf(&s, "%s%s AS o%d", items++ ? ", " : "", b->ord[j].sql, j);
        o->ord[j] = b->ord[j];
        o->ord[j].sql = gfmt(g, "%s.o%d", t, j);
    }
    if (extra) sb_printf(&s, "%s%s", items++ ? ", " : "", extra);
    if (!items) sb_puts(&s, "1 AS u");
    sb_printf(&s, " FROM %s", b->from);
    if (b->where) sb_printf(&s, " WHERE %s", b->where);
    if (tail) sb_puts(&s, tail);
    sb_printf(&s, ") AS %s", t);
    o->from = s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    o->where = NULL;
    o->single = true;
    return o->from ? o : NULL;
}

/* close_blk with `head` written right after SELECT ("TOP n ", or NULL). */
static Blk *close_blk(Gen *g, const Blk *b, const uint8_t *want, const char *extra, const char *tail) {
    return close_blk_head(g, b, want, extra, tail, NULL);
}

/* ---- operators ------------------------------------------------------------------------------ */

static Blk *gen(Gen *g, const LPlan *p, const uint8_t *need);

static Blk *gen_scan(Gen *g, const LPlan *p) {
    const RelDef *d = p->source;
    if (!d || !d->db) return NULL;
    if (g->conn && g->conn != d->db) return NULL;
    g->conn = d->db;
    g->n_tables++;
    const DbSchema *sc = d->db_schema;
    Blk *b = new_blk(g, sc->n_cols, sc->n_order);
    const char *t = new_alias(g), *name = quoted(g, d->db_table);
    if (!b || !t || !name) return NULL;
    for (int i = 0; i < sc->n_cols; i++) {
        const char *q = quoted(g, sc->names[i]);
        b->cols[i] = (Col){q ? gfmt(g, "%s.%s", t, q) : NULL, sc->types[i], sc->native[i],
                           sc->collation && sc->types[i] == TY_TEXT ? sc->collation[i] : NULL};
    }
    for (int j = 0; j < sc->n_order; j++) {
        /* the order's names come quoted as PostgreSQL and SQLite quote them */
        const char *o = sc->order[j];
        size_t len = strlen(o);
        if (g->d->quote != '"' && len >= 2 && o[0] == '"') {
            char *bare = galloc(g, len);
            size_t k = 0;
            for (size_t i = 1; bare && i + 1 < len; i++) {
                bare[k++] = o[i];
                if (o[i] == '"') i++;
            }
            if (bare) bare[k] = 0;
            o = bare ? quoted(g, bare) : NULL;
        }
        b->ord[j] = (Ord){o ? gfmt(g, "%s.%s", t, o) : NULL, false, false, true, false, sc->order_int};
        if (!o) return NULL;
    }
    b->from = gfmt(g, "%s AS %s", name, t);
    b->single = true;
    return g->oom ? NULL : b;
}

/* The first row of every group of equal rows of `items` (π and δ: docs/design.md keeps first
 * occurrences, in input order). */
static Blk *gen_distinct(Gen *g, const Blk *in, Expr *const *items, int n_items, const uint8_t *need) {
    Blk *o = new_blk(g, n_items, in->n_ord);
    const char *t = new_alias(g);
    if (!o || !t) return NULL;
    StrBuf s, part;
    sb_init(&s);
    sb_init(&part);
    sb_puts(&s, "(SELECT ");
    bool ok = true;
    for (int i = 0; ok && i < n_items; i++) {
        const Expr *e = items ? items[i] : NULL;
        const Col *c = e && e->kind == EX_COL ? &in->cols[e->col] : !e ? &in->cols[i] : NULL;
        RxType ty = e ? e->type : c->type;
        /* rows are equal as the engine's π says (types/compare.h): NULL equals NULL, -0 equals
         * 0, NaN equals NaN, text bytewise, a DURATION by its span as PostgreSQL's interval = */
        if (ty == TY_NULL) ok = false;
        /* the item's value as stored when it is a column, its computed value otherwise */
        const char *raw = c ? c->raw : expr(g, e, in->cols, NULL);
        if (raw && !c && ty == TY_BOOL && g->d->bool_case) /* a predicate is no value there */
            raw = gfmt(g, "CASE WHEN %s THEN 1 WHEN NOT (%s) THEN 0 END", raw, raw);
        const char *key = c ? col_value(g, c, NULL) : raw;
        if (!raw || !key) ok = false;
        if (!ok) break;
        if (ty == TY_TEXT) key = collated(g, key);
        sb_printf(&part, "%s%s", i ? ", " : "", key);
        if (need && !need[i]) {
            o->cols[i] = (Col){NULL, ty, DBN_EXACT, NULL};
        } else {
            sb_printf(&s, "%s AS c%d, ", raw, i);
            /* a computed INT may be an int4: widened before arithmetic */
            o->cols[i] = (Col){gfmt(g, "%s.c%d", t, i), ty, c ? c->nat : ty == TY_INT ? DBN_INT4 : DBN_EXACT, c ? c->coll : NULL};
        }
    }
    const char *ord = ok ? order_text(g, in->ord, in->n_ord, false) : NULL;
    for (int j = 0; ok && j < in->n_ord; j++) {
        sb_printf(&s, "%s AS o%d, ", in->ord[j].sql, j);
        o->ord[j] = in->ord[j];
        o->ord[j].sql = gfmt(g, "%s.o%d", t, j);
    }
    if (ok && ord) {
        sb_printf(&s, "ROW_NUMBER() OVER (PARTITION BY %s%s%s) AS rn FROM %s", part.p ? part.p : "1",
                  in->n_ord ? " ORDER BY " : "", ord, in->from);
        if (in->where) sb_printf(&s, " WHERE %s", in->where);
        sb_printf(&s, ") AS %s", t);
        o->from = s.oom || part.oom ? NULL : gfmt(g, "%s", s.p);
        o->where = gfmt(g, "%s.rn = 1", t);
        o->single = true;
    }
    sb_free(&s);
    sb_free(&part);
    return ok && ord && o->from ? o : NULL;
}

/* The SQL of an equality key pair (l.k = r.k as the engine's hash join and partitions compare:
 * NaN equals NaN there, as in PostgreSQL). */
static const char *key_pair(Gen *g, const Col *l, const Col *r) {
    const char *a = col_value(g, l, NULL), *b = col_value(g, r, NULL);
    if (!a || !b) return NULL;
    /* two text columns of one deterministic collation are equal only when bytewise equal: no
     * COLLATE, so that an ordinary index on them serves */
    if (l->type == TY_TEXT && r->type == TY_TEXT && l->coll && r->coll && strcmp(l->coll, r->coll) == 0)
        return gfmt(g, "%s = %s", a, b);
    RxType t;
    if (!unify_sql(g, &a, l->type, &b, r->type, &t)) return NULL;
    if (t == TY_BOOL && !g->d->bool_type) return NULL;
    return gfmt(g, "%s = %s", a, b);
}

/* The output columns of a join: the left's, then the right's (natural join: those that are no
 * key). */
static void join_cols(const LPlan *p, Blk *o, const Blk *l, const Blk *r) {
    int nl = l->n_cols;
    for (int i = 0; i < nl; i++) o->cols[i] = l->cols[i];
    for (int k = nl; k < p->schema.n; k++) {
        int j = p->kind == LP_JOIN && p->right_out ? p->right_out[k - nl] : k - nl;
        o->cols[k] = r->cols[j];
    }
}

static Col *both_cols(Gen *g, const Blk *l, const Blk *r) {
    Col *c = galloc(g, (size_t)(l->n_cols + r->n_cols + 1) * sizeof *c);
    if (!c) return NULL;
    memcpy(c, l->cols, (size_t)l->n_cols * sizeof *c);
    memcpy(c + l->n_cols, r->cols, (size_t)r->n_cols * sizeof *c);
    return c;
}

/* The interval join's endpoint predicate, the spec's applied literally, with IS NOT NULL for
 * the endpoints it does not read (docs/design.md: a NULL endpoint never matches). Endpoints compare
 * as the engine's keys do (keys.c): NaN above every number, as in PostgreSQL. */
static const char *ijoin_predicate(Gen *g, const LPlan *p, const Blk *l, const Blk *r) {
    const Col *c[4] = {&l->cols[p->ends[0]], &l->cols[p->ends[1]], &r->cols[p->ends[2]], &r->cols[p->ends[3]]};
    const char *v[4];
    RxType t = c[0]->type;
    bool any_float = false, any_ts = false;
    for (int k = 0; k < 4; k++) {
        if (!(v[k] = col_value(g, c[k], NULL))) return NULL;
        if (!computable(g, c[k]->type) || (c[k]->type == TY_BOOL && !g->d->bool_type)) return NULL;
        any_float |= c[k]->type == TY_FLOAT;
        any_ts |= c[k]->type == TY_TIMESTAMP;
    }
    for (int k = 0; k < 4; k++) {
        if (any_float) v[k] = as_float(g, v[k], c[k]->type);
        if (any_ts && c[k]->type == TY_DATE) v[k] = cast_to(g, v[k], TY_TIMESTAMP);
        if (t == TY_TEXT) v[k] = collated(g, v[k]);
    }
    for (int k = 0; k < 4; k++)
        if (!v[k]) return NULL;
    StrBuf pb;
    sb_init(&pb);
    bool reads[4];
    int rel = 0;
    if (p->point) {   /* IJOIN AT: ends[0] = ends[1] is the point */
        sql_ijoin_point_predicate(&pb, v[0], v[2], v[3]);
        for (int k = 0; k < 4; k++) reads[k] = true;
    } else {
        rel = sql_ijoin_predicate(&pb, p->relation, v[0], v[1], v[2], v[3], reads);
    }
    const char *s = rel < 0 || pb.oom ? NULL : gfmt(g, "%s", pb.p);
    sb_free(&pb);
    for (int k = 0; s && k < 4; k++)
        if (!reads[k]) {
            const char *nn = gfmt(g, "%s IS NOT NULL", c[k]->raw);
            s = nn ? and_sql(g, s, nn) : NULL;
        }
    for (int k = 0; s && k < p->n_keys; k++) {
        const char *kp = key_pair(g, &l->cols[p->lkeys[k]], &r->cols[p->rkeys[k]]);
        s = kp ? and_sql(g, s, kp) : NULL;
    }
    return g->oom ? NULL : s;
}

/* The table a bare input reads (through renames), or NULL. */
static const RelDef *bare_def(const LPlan *p) {
    while (p->kind == LP_RENAME || p->kind == LP_VIEW) p = p->in[0];
    return p->kind == LP_SCAN && p->source && ((const RelDef *)p->source)->db ? p->source : NULL;
}

/* The database's estimate of a bare table's rows; -1 for anything else or no answer. */
static double table_rows(const LPlan *p) {
    const RelDef *d = bare_def(p);
    double rows;
    if (!d || db_table_rows(d->db->conn, d->db_table, d->db_schema, &rows) < 0) return -1;
    return rows;
}

/* The rows the database expects input p, written as block b, to give: a bare table's estimate,
 * else, for a subquery (a σ over a table, a join), PostgreSQL's planner's estimate of the block
 * as a statement of its own (EXPLAIN SELECT 1 FROM ... WHERE ..., one round trip). -1 where
 * neither is known (SQLite; a dialect only shown, whose SQL the connection does not run; a
 * form forced or the optimizer off, where no cost is compared). */
static double input_rows(Gen *g, const LPlan *p, const Blk *b) {
    double rows = table_rows(p);
    if (rows >= 0 || g->spec_only || g->form != PUSH_AUTO || !g->conn || g->d != sql_dialect(db_kind(g->conn->conn)))
        return rows;
    StrBuf s, num;
    sb_init(&s);
    sb_init(&num);
    sb_printf(&s, "SELECT 1 FROM %s", b->from);
    if (b->where) sb_printf(&s, " WHERE %s", b->where);
    DbStatement st;
    memset(&st, 0, sizeof st);
    Value *params = NULL;
    int n_params = 0;
    rows = -1;
    if (!s.oom && number_params(g, s.p, &num, &params, &n_params) == 0) {
        st.sql = num.p;
        st.n_params = n_params;
        st.params = params;
        if (db_explain_rows(g->conn->conn, &st, &rows) < 0) rows = -1;
    }
    sb_free(&s);
    sb_free(&num);
    return rows;
}

static const char *rows_text(Gen *g, double n) {
    if (n < 0) return "?";
    if (n >= 1e6) return gfmt(g, "%.1fM", n / 1e6);
    if (n >= 1e4) return gfmt(g, "%.0fk", n / 1e3);
    return gfmt(g, "%.0f", n);
}

/* Whether rel holds an equality of endpoints, which the database joins by hashing as it is. */
static bool equality_relation(IjRelation rel) {
    return rel == IJ_MEETS || rel == IJ_MET_BY || rel == IJ_STARTS || rel == IJ_STARTED_BY || rel == IJ_FINISHES ||
           rel == IJ_FINISHED_BY || rel == IJ_EQUALS;
}

/* The push-or-pull cost model (docs/connect.md, "Push or pull"), in units of the time the
 * engine takes to fetch one row from the database. A statement costs COST_STATEMENT (a round
 * trip and the database's planning); pulling runs two (one per input), fetches both inputs and
 * joins them in the engine at COST_LOCAL per row; pushing runs one, costs the database's work
 * per input row of the form (a sort of both inputs for the sorted pass, the expansion and a
 * hash join for the bins, an index probe per left row for LATERAL, every pair for a plain
 * inequality join) and fetches the result (an AS-OF join's: the left rows; an interval join's:
 * guessed as both inputs' rows). Measured on PostgreSQL over a local socket, the database's
 * sort and join cost several fetches per row, so large joins of whole tables are pulled; the
 * forms pay where the inputs are reduced first or the result is small and far away. */
#define COST_STATEMENT 500.0
#define COST_LOCAL 0.1
#define COST_SORTED_PASS 3.0
#define COST_BINNED 4.0
#define COST_HASHED 2.0
#define COST_PROBE 12.0
#define COST_PAIR 0.05

/* Whether pulling p's inputs is cheaper than pushing p in form f (only when the database
 * estimates both inputs' rows nl and nr, input_rows, and no form is forced). Sets g->why to the
 * choice and g->pull. */
static bool pull_cheaper(Gen *g, const LPlan *p, PushForm f, double nl, double nr) {
    if (g->spec_only || g->form != PUSH_AUTO) return false;
    if (nl < 0 || nr < 0) return false;
    double pull = 2 * COST_STATEMENT + (nl + nr) * (1 + COST_LOCAL), work;
    const char *form;
    if (p->kind == LP_ASOF) {
        form = f == PUSH_LATERAL ? "LATERAL ASOF" : "sorted-pass ASOF";
        work = f == PUSH_LATERAL ? nl * COST_PROBE : (nl + nr) * COST_SORTED_PASS;
        work += nl;
    } else {
        form = f == PUSH_BINNED ? "binned join" : "plain join";
        work = f == PUSH_BINNED ? (nl + nr) * COST_BINNED
             : equality_relation(p->relation) ? (nl + nr) * COST_HASHED : nl * nr * COST_PAIR;
        work += nl + nr;
    }
    double push = COST_STATEMENT + work;
    if (push <= pull) return false;
    g->pull = true;
    g->why = gfmt(g, "est. %s x %s rows: pushing as %s would cost about %s row fetches, pulling %s",
                  rows_text(g, nl), rows_text(g, nr), form, rows_text(g, push), rows_text(g, pull));
    return true;
}

/* Bins wider than this many bins make an interval "long": it joins by the plain predicate
 * instead of being expanded (a few very long intervals cannot blow the expansion up). */
#define BIN_SPAN_MAX 64

/* Whether relation rel has a binned form: every matching pair of non-inverted intervals shares
 * the point max(ls, rs) (docs/connect.md); PRECEDES and PRECEDED_BY match across a gap. */
static bool binnable_relation(IjRelation rel) {
    return rel != IJ_PRECEDES && rel != IJ_PRECEDED_BY;
}

/* The number the bins of endpoint value v (SQL, of type t after unifying) are computed from:
 * a double for INT, seconds since 1970 for TIMESTAMP and DATE; NULL when there is none. Any
 * monotone number serves: the bins only choose candidate pairs, the exact predicate decides. */
static const char *bin_number(Gen *g, const char *v, RxType t) {
    if (t == TY_INT) return cast_to(g, v, TY_FLOAT);
    if ((t == TY_TIMESTAMP || t == TY_DATE) && g->d->epoch) return gfmt(g, g->d->epoch, v);
    return NULL;
}

/* The interval join as a binned equi-join (PUSH_BINNED): the endpoints' axis cut into bins of
 * one width w (the mean length of the non-inverted intervals of both inputs, at least 1), each
 * interval expanded into the bins b0..b1 it touches, an equi-join on (keys, bin) with the exact
 * predicate as a filter, and each pair kept only in the bin of max(ls, rs), which both
 * intervals touch (so it is found once). Inverted intervals (s > e) and those spanning
 * BIN_SPAN_MAX bins or more join by the plain predicate instead, against every row of the
 * other side; rows with a NULL endpoint never match. NULL when an endpoint type or the dialect
 * has no binned form. */
static Blk *ijoin_binned(Gen *g, const LPlan *p, const Blk *l, const Blk *r, const uint8_t *nl, const uint8_t *nr) {
    if (g->d->series == SERIES_NONE || !binnable_relation(p->relation)) return NULL;
    const Col *c[4] = {&l->cols[p->ends[0]], &l->cols[p->ends[1]], &r->cols[p->ends[2]], &r->cols[p->ends[3]]};
    bool any_ts = false;
    for (int k = 0; k < 4; k++) {
        RxType t = c[k]->type;
        if (t != TY_INT && t != TY_TIMESTAMP && t != TY_DATE) return NULL;
        if ((t == TY_INT) != (c[0]->type == TY_INT)) return NULL;
        any_ts |= t == TY_TIMESTAMP;
    }
    const char *v[4];
    for (int k = 0; k < 4; k++) {
        v[k] = col_value(g, c[k], NULL);
        if (v[k] && any_ts && c[k]->type == TY_DATE) v[k] = cast_to(g, v[k], TY_TIMESTAMP);
        v[k] = v[k] ? bin_number(g, v[k], c[k]->type == TY_DATE && any_ts ? TY_TIMESTAMP : c[k]->type) : NULL;
        if (!v[k]) return NULL;
    }
    /* the bin of x is floor(x / w), or x / w truncated where there is no floor: both monotone */
    const char *it = sql_type_name(g->d, TY_INT), *fl = g->d->floor ? "floor" : "";
    if (!it) return NULL;
    /* CTEs: xl, xr (the inputs with sn, en and the columns read), w (the width), bl, br (with b0,
     * b1, sh: short and not inverted), el, er (one row per bin of the short ones), ll, lr (the
     * others) */
    StrBuf s, lcols, rcols;
    sb_init(&s);
    sb_init(&lcols);
    sb_init(&rcols);
    const char *name[2] = {"xl", "xr"};
    for (int side = 0; side < 2; side++) {
        const Blk *b = side ? r : l;
        const uint8_t *need = side ? nr : nl;
        StrBuf *cols = side ? &rcols : &lcols;
        sb_printf(&s, "%s%s AS %s(SELECT %s AS sn, %s AS en", side ? ", " : "", name[side], g->d->materialized,
                  v[side * 2], v[side * 2 + 1]);
        for (int i = 0; i < b->n_cols; i++)
            if (b->cols[i].raw && need[i]) {
                sb_printf(&s, ", %s AS c%d", b->cols[i].raw, i);
                sb_printf(cols, ", c%d", i);
            }
        for (int j = 0; j < b->n_ord; j++) {
            sb_printf(&s, ", %s AS o%d", b->ord[j].sql, j);
            sb_printf(cols, ", o%d", j);
        }
        const char *wh = b->where;
        for (int k = side * 2; k < side * 2 + 2; k++) wh = and_sql(g, wh, gfmt(g, "%s IS NOT NULL", c[k]->raw));
        sb_printf(&s, " FROM %s WHERE %s)", b->from, wh ? wh : "1 = 1");
    }
    sb_printf(&s, ", w AS (SELECT CASE WHEN avg(u.en - u.sn) >= 1 THEN avg(u.en - u.sn) ELSE 1 END AS w FROM "
                  "(SELECT sn, en FROM xl WHERE sn <= en UNION ALL SELECT sn, en FROM xr WHERE sn <= en) AS u)");
    int span = BIN_SPAN_MAX;
    if (g->d->series_max && g->d->series_max < span) span = g->d->series_max;
    for (int side = 0; side < 2; side++) {
        const char *x = name[side];
        sb_printf(&s, ", b%c AS %s(SELECT y.*, CASE WHEN y.sn <= y.en AND y.b1 - y.b0 < %d THEN 1 ELSE 0 END AS sh FROM "
                      "(SELECT %s.*, CAST(%s(%s.sn / w.w) AS %s) AS b0, CAST(%s(%s.en / w.w) AS %s) AS b1 FROM %s CROSS JOIN w) AS y)",
                  side ? 'r' : 'l', g->d->materialized, span, x, fl, x, it, fl, x, it, x);
    }
    const char *with_kw = g->d->series == SERIES_RECURSIVE ? "WITH RECURSIVE " : "WITH ";
    for (int side = 0; side < 2; side++) {
        char src[3] = {'b', side ? 'r' : 'l', 0}, dst[3] = {'e', side ? 'r' : 'l', 0};
        if (g->d->series == SERIES_RECURSIVE) {
            const char *cols = gfmt(g, "sn, en, b0, b1, sh%s", (side ? rcols.p : lcols.p) ? (side ? rcols.p : lcols.p) : "");
            sb_puts(&s, ", ");
            sql_series_cte(&s, dst, src, cols ? cols : "", "sh = 1");
        } else {
            sb_printf(&s, ", %s AS %s(SELECT %s.*, b ", dst, g->d->materialized, src);
            sql_series_from(&s, g->d, src, gfmt(g, "%s.sh = 1", src));
            sb_puts(&s, ")");
        }
    }
    /* ll, lr: the long and inverted rows alone, computed once, so that the plain join of each
     * against the other side reads only them however often a nested loop rescans it (over a
     * CTE of all the rows, a filter on sh would read them all on every rescan) */
    for (int side = 0; side < 2; side++)
        sb_printf(&s, ", l%c AS %s(SELECT * FROM b%c WHERE sh = 0)", side ? 'r' : 'l', g->d->materialized, side ? 'r' : 'l');
    /* the predicate and keys over the CTE rows aliased l and r */
    Blk *lb = new_blk(g, l->n_cols, 0), *rb = new_blk(g, r->n_cols, 0);
    if (!lb || !rb) goto fail;
    for (int i = 0; i < l->n_cols; i++) {
        lb->cols[i] = l->cols[i];
        lb->cols[i].raw = l->cols[i].raw && nl[i] ? gfmt(g, "l.c%d", i) : NULL;
    }
    for (int i = 0; i < r->n_cols; i++) {
        rb->cols[i] = r->cols[i];
        rb->cols[i].raw = r->cols[i].raw && nr[i] ? gfmt(g, "r.c%d", i) : NULL;
    }
    const char *cond = ijoin_predicate(g, p, lb, rb);
    if (!cond) goto fail;
    StrBuf items;
    sb_init(&items);
    const char *t = new_alias(g);
    int kind = p->join_kind;
    bool pairs_out = kind == JOIN_INNER || kind == JOIN_LEFT;
    /* the pairs' columns (lc, rc, lo, ro); SEMI and ANTI output the left rows as they are */
    Blk *o = pairs_out ? new_blk(g, p->schema.n, l->n_ord + r->n_ord) : new_blk(g, l->n_cols, l->n_ord);
    if (!o || !t) {
        sb_free(&items);
        goto fail;
    }
    int nlc = l->n_cols, k = 0;
    /* LEFT's padding of the left rows without a pair, in the pairs' column order */
    StrBuf pad;
    sb_init(&pad);
    for (int i = 0; i < nlc; i++) {
        o->cols[i] = l->cols[i];
        o->cols[i].raw = NULL;
        if (!l->cols[i].raw || !nl[i]) continue;
        sb_printf(&pad, "%sal.c%d", k ? ", " : "", i);
        sb_printf(&items, "%sl.c%d AS lc%d", k++ ? ", " : "", i, i);
        o->cols[i].raw = gfmt(g, pairs_out ? "%s.lc%d" : "%s.c%d", t, i);
    }
    for (int i = 0; i < r->n_cols; i++) {
        if (pairs_out) {
            o->cols[nlc + i] = r->cols[i];
            o->cols[nlc + i].raw = NULL;
        }
        if (!r->cols[i].raw || !nr[i]) continue;
        sb_printf(&pad, "%sNULL", k ? ", " : "");
        sb_printf(&items, "%sr.c%d AS rc%d", k++ ? ", " : "", i, i);
        if (pairs_out) o->cols[nlc + i].raw = gfmt(g, "%s.rc%d", t, i);
    }
    StrBuf lord, on;   /* LEFT, SEMI, ANTI: the left rows' order as al's columns; al matched to m */
    sb_init(&lord);
    sb_init(&on);
    for (int j = 0; j < l->n_ord; j++) {
        sb_printf(&pad, "%sal.o%d", k ? ", " : "", j);
        sb_printf(&items, "%sl.o%d AS lo%d", k++ ? ", " : "", j, j);
        sb_printf(&lord, ", %s AS o%d", l->ord[j].sql, j);
        const char *a = gfmt(g, "al.o%d", j), *b = gfmt(g, "m.lo%d", j);
        if (l->ord[j].text) a = collated(g, a), b = collated(g, b);
        sb_printf(&on, "%s%s = %s", j ? " AND " : "", a ? a : "", b ? b : "");
        if (pairs_out) {
            o->ord[j] = l->ord[j];
            o->ord[j].sql = gfmt(g, "%s.lo%d", t, j);
        }
    }
    for (int j = 0; j < r->n_ord; j++) {
        sb_printf(&pad, "%sNULL", k ? ", " : "");
        sb_printf(&items, "%sr.o%d AS ro%d", k++ ? ", " : "", j, j);
        if (pairs_out) {
            o->ord[l->n_ord + j] = r->ord[j];
            o->ord[l->n_ord + j].sql = gfmt(g, "%s.ro%d", t, j);
        }
    }
    if (!k) sb_puts(&items, "1 AS u");
    const char *it_ = items.oom ? NULL : gfmt(g, "%s", items.p);
    sb_free(&items);
    const char *pad_ = pad.oom ? NULL : gfmt(g, "%s", pad.p ? pad.p : "");
    const char *lord_ = lord.oom ? NULL : gfmt(g, "%s", lord.p ? lord.p : "");
    const char *on_ = on.oom ? NULL : gfmt(g, "%s", on.p ? on.p : "");
    sb_free(&pad);
    sb_free(&lord);
    sb_free(&on);
    if (!it_ || !pad_ || !lord_ || !on_) goto fail;
    if (kind != JOIN_INNER) {
        /* the pairs as the CTE pr; al: every left row (NULL endpoints too), its columns and order;
         * m: the left rows that have a pair, by their order, which is a key of a table's rows */
        if (!l->n_ord) goto fail;
        sb_puts(&s, ", pr AS (");
    }
    sb_printf(&s, " SELECT %s FROM el AS l JOIN er AS r ON l.b = r.b AND %s CROSS JOIN w "
                  "WHERE l.b = CAST(%s((CASE WHEN l.sn >= r.sn THEN l.sn ELSE r.sn END) / w.w) AS %s)",
              it_, cond, fl, it);
    sb_printf(&s, " UNION ALL SELECT %s FROM ll AS l JOIN br AS r ON %s", it_, cond);
    sb_printf(&s, " UNION ALL SELECT %s FROM bl AS l JOIN lr AS r ON %s WHERE l.sh = 1", it_, cond);
    if (kind != JOIN_INNER) {
        sb_puts(&s, "), al AS (SELECT ");
        int n_al = 0;
        for (int i = 0; i < nlc; i++)
            if (l->cols[i].raw && nl[i]) sb_printf(&s, "%s%s AS c%d", n_al++ ? ", " : "", l->cols[i].raw, i);
        sb_printf(&s, "%s FROM %s%s%s), m AS (SELECT DISTINCT ", n_al ? lord_ : lord_ + 2, l->from,
                  l->where ? " WHERE " : "", l->where ? l->where : "");
        for (int j = 0; j < l->n_ord; j++) sb_printf(&s, "%slo%d", j ? ", " : "", j);
        if (kind == JOIN_LEFT)
            sb_printf(&s, " FROM pr) SELECT * FROM pr UNION ALL SELECT %s FROM al LEFT JOIN m ON %s WHERE m.lo0 IS NULL",
                      pad_, on_);
        else
            sb_printf(&s, " FROM pr) SELECT al.* FROM al LEFT JOIN m ON %s WHERE m.lo0 IS %sNULL", on_,
                      kind == JOIN_ANTI ? "" : "NOT ");
    }
    if (!pairs_out)
        for (int j = 0; j < l->n_ord; j++) {
            o->ord[j] = l->ord[j];
            o->ord[j].sql = gfmt(g, "%s.o%d", t, j);
        }
    o->from = s.oom ? NULL : gfmt(g, "(%s%s) AS %s", with_kw, s.p, t);
    o->where = NULL;
    o->single = true;
    sb_free(&s);
    sb_free(&lcols);
    sb_free(&rcols);
    return g->oom || !o->from ? NULL : o;
fail:
    sb_free(&s);
    sb_free(&lcols);
    sb_free(&rcols);
    return NULL;
}

/* The form of a pushed interval join: the one forced where it applies; else the binned join
 * for the relations without an endpoint equality (which the database hashes as it is) where
 * the endpoints allow it, the plain predicate otherwise. Sets g->why. */
static PushForm ijoin_form(Gen *g, const LPlan *p, double nl, double nr) {
    const char *rel = p->point ? "AT" : ij_relation_name(p->relation);
    if (!rel) return PUSH_PLAIN;
    const char *kw = p->join_kind == JOIN_LEFT ? "LEFT " : p->join_kind == JOIN_ANTI ? "ANTI " : p->join_kind == JOIN_SEMI ? "SEMI " : "";
    if (p->join_kind != JOIN_INNER && !bare_def(p->in[0]) && g->form != PUSH_PLAIN) {
        /* the binned LEFT, SEMI and ANTI find a left row's pairs by its order, a key only of a
         * table's rows */
        g->why = gfmt(g, "plain %s%s join (the left input is no bare table: no key finds its rows' pairs in the binned form)", kw, rel);
        return PUSH_PLAIN;
    }
    if (*kw) rel = gfmt(g, "%s%s", kw, rel);
    if (!binnable_relation(p->relation)) {
        g->why = gfmt(g, "plain %s join (matches across a gap: no binned form)", rel);
        return PUSH_PLAIN;
    }
    if (g->form == PUSH_PLAIN) {
        g->why = gfmt(g, "plain %s join (forced)", rel);
        return PUSH_PLAIN;
    }
    if (g->form == PUSH_BINNED) {
        g->why = gfmt(g, "binned %s join (forced)", rel);
        return PUSH_BINNED;
    }
    if (equality_relation(p->relation)) {
        g->why = gfmt(g, "plain %s join (an endpoint equality the database hashes)", rel);
        return PUSH_PLAIN;
    }
    g->why = gfmt(g, "binned %s join (est. %s x %s rows)", rel, rows_text(g, nl), rows_text(g, nr));
    return PUSH_BINNED;
}

/* The blocks of both inputs of binary operator p, each asked for the columns p needs of it
 * (need: of p's output; *nl and *nr: of each input, in the arena); false when either cannot
 * be pushed, or out of memory (g->oom). */
static bool gen_inputs(Gen *g, const LPlan *p, const uint8_t *need, Blk **l, Blk **r,
                       uint8_t **nl, uint8_t **nr) {
    *nl = rw_input_need(g->a, p, 0, need);
    *nr = rw_input_need(g->a, p, 1, need);
    if (!*nl || !*nr) {
        g->oom = true;
        return false;
    }
    *l = gen(g, p->in[0], *nl);
    *r = *l ? gen(g, p->in[1], *nr) : NULL;
    return *r != NULL;
}

static Blk *gen_join(Gen *g, const LPlan *p, const uint8_t *need) {
    Blk *l, *r;
    uint8_t *nl_, *nr_;
    if (p->kind == LP_IJOIN && p->relset) {
        /* An OR of the members' predicates would be exact, but a database runs it as a nested
         * loop: the engine joins the set output-sensitively. */
        char buf[256];
        g->stay = gfmt(g, "IJOIN %s runs in the engine (in SQL an OR of the "
                          "relations' predicates, which databases join by a nested loop)",
                       ij_set_name(p->relset, buf, sizeof buf));
        return NULL;
    }
    if (!gen_inputs(g, p, need, &l, &r, &nl_, &nr_)) return NULL;
    int kind = p->join_kind;   /* IJOIN too: INNER, LEFT (LEFT JOIN), SEMI and ANTI ([NOT] EXISTS) */
    if ((kind == JOIN_RIGHT || kind == JOIN_FULL) && g->lite_version < g->d->right_join_since) return NULL;
    if (kind == JOIN_FULL && g->d->no_full_join) return NULL;
    if (kind == JOIN_FULL && !g->d->full_join_any_condition && (p->residual || p->n_keys == 0)) return NULL;
    /* Inner joins take both blocks' FROM and WHERE as they are; an outer join keeps the
     * conditions of its padded side inside that side. Right and full joins mark the left
     * rows, to put the right rows without a partner last. */
    bool marker = kind == JOIN_RIGHT || kind == JOIN_FULL;
    bool inner = kind == JOIN_INNER || kind == JOIN_CROSS;
    bool semi = kind == JOIN_SEMI || kind == JOIN_ANTI || kind == JOIN_RSEMI;
    if (!semi) {
        if (marker) l = close_blk(g, l, nl_, "1 AS m", NULL);
        if (l && (!r->single || (!inner && kind != JOIN_RIGHT && r->where))) r = close_blk(g, r, nr_, NULL, NULL);
        if (!l || !r) return NULL;
    }
    if (p->kind == LP_IJOIN) {
        /* the inputs' rows as the database expects them, for the form's reason and the cost */
        double el = input_rows(g, p->in[0], l), er = input_rows(g, p->in[1], r);
        PushForm f = ijoin_form(g, p, el, er);
        Blk *o = f == PUSH_BINNED ? ijoin_binned(g, p, l, r, nl_, nr_) : NULL;
        if (g->oom) return NULL;
        if (f == PUSH_BINNED && !o) {
            f = PUSH_PLAIN;
            g->why = g->d->series == SERIES_NONE
                         ? gfmt(g, "plain %s join (%s has no binned form)", p->point ? "AT" : ij_relation_name(p->relation), g->d->name)
                         : gfmt(g, "plain %s join (the endpoints' types have no bins in %s)",
                                p->point ? "AT" : ij_relation_name(p->relation), g->d->name);
        }
        if (pull_cheaper(g, p, f, el, er)) return NULL;
        if (o) return o;
    }
    /* the join condition */
    const char *cond = NULL;
    if (p->kind == LP_IJOIN) {
        if (!(cond = ijoin_predicate(g, p, l, r))) return NULL;
    } else {
        for (int k = 0; k < p->n_keys; k++) {
            const char *kp = key_pair(g, &l->cols[p->lkeys[k]], &r->cols[p->rkeys[k]]);
            if (!kp) return NULL;
            cond = and_sql(g, cond, kp);
        }
        if (p->residual) {
            Col *both = both_cols(g, l, r);
            const char *res = both ? expr(g, p->residual, both, NULL) : NULL;
            if (!res) return NULL;
            cond = and_sql(g, cond, res);
        }
    }
    if (semi) {
        /* the output side, filtered by [NOT] EXISTS over the other */
        Blk *out = kind == JOIN_RSEMI ? r : l;
        const Blk *other = kind == JOIN_RSEMI ? l : r;
        const char *sub = gfmt(g, "%sEXISTS (SELECT 1 FROM %s WHERE %s)", kind == JOIN_ANTI ? "NOT " : "",
                               other->from, and_sql(g, other->where, cond ? cond : "1 = 1"));
        Blk *o = new_blk(g, out->n_cols, out->n_ord);
        if (!o || !sub) return NULL;
        *o = *out;
        o->where = and_sql(g, out->where, sub);
        return o;
    }
    Blk *o = new_blk(g, p->schema.n, l->n_ord + r->n_ord + marker);
    if (!o) return NULL;
    join_cols(p, o, l, r);
    int k = 0;
    if (marker) {
        /* l's alias is the name of its subquery: "(SELECT ...) AS tN" */
        const char *alias = strrchr(l->from, ' ') + 1;
        o->ord[k++] = (Ord){gfmt(g, "CASE WHEN %s.m IS NULL THEN 1 ELSE 0 END", alias), false, false, true, false, false};
    }
    for (int j = 0; j < l->n_ord; j++) o->ord[k++] = l->ord[j];
    for (int j = 0; j < r->n_ord; j++) o->ord[k++] = r->ord[j];
    static const char *const words[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "", "", "", "CROSS JOIN"};
    const char *word = words[kind];
    if (kind == JOIN_CROSS || (inner && !cond)) o->from = gfmt(g, "%s CROSS JOIN %s", l->from, r->from);
    else o->from = gfmt(g, "%s %s %s ON %s", l->from, word, r->from, cond ? cond : "1 = 1");
    o->where = and_sql(g, l->where, r->where);
    o->single = false;
    return g->oom ? NULL : o;
}

/* Whether a lateral probe into the right input p of an AS-OF join finds its row through an
 * index: p is a bare table with an index on (keys in any order, match), and each key equality
 * is written without COLLATE (key_pair) over columns of one type. *cols receives the index's
 * columns as text, for the log. */
static bool asof_index(Gen *g, const LPlan *p, const Blk *l, const Blk *r, const char **cols) {
    const RelDef *d = bare_def(p->in[1]);
    *cols = NULL;
    if (!d) return false;
    const DbSchema *sc = d->db_schema;
    const char **lead = galloc(g, (size_t)(p->n_keys + 1) * sizeof *lead);
    if (!lead) return false;
    StrBuf b;
    sb_init(&b);
    bool plain = true;
    for (int k = 0; k < p->n_keys; k++) {
        const Col *a = &l->cols[p->lkeys[k]], *c = &r->cols[p->rkeys[k]];
        if (a->type != c->type || (c->type == TY_TEXT && !(a->coll && c->coll && strcmp(a->coll, c->coll) == 0)))
            plain = false;
        lead[k] = sc->names[p->rkeys[k]];
        sb_printf(&b, "%s, ", lead[k]);
    }
    sb_puts(&b, sc->names[p->rmatch]);
    *cols = b.oom ? NULL : gfmt(g, "%s", b.p);
    sb_free(&b);
    if (!plain) return false;
    return db_has_index(d->db->conn, d->db_table, lead, p->n_keys, sc->names[p->rmatch]);
}

/* The form of a pushed AS-OF join (docs/connect.md, "Pushdown forms"): the one forced where the
 * dialect has it; else LATERAL only where an index on (keys, match) serves each probe and the
 * left input is at most half the size of the right (a probe costs a few index pages, the
 * sorted pass a sort of both inputs), the sorted pass otherwise. Sets g->why. */
static PushForm asof_form(Gen *g, const LPlan *p, const Blk *l, const Blk *r, double nl, double nr) {
    bool lat = g->d->lateral != NULL, win = g->d->windows;
    if (g->form == PUSH_LATERAL && lat) {
        g->why = "LATERAL ASOF (forced)";
        return PUSH_LATERAL;
    }
    if (g->form == PUSH_WINDOW && win) {
        g->why = "sorted-pass ASOF (forced)";
        return PUSH_WINDOW;
    }
    if (!win || !lat) {
        g->why = win ? gfmt(g, "sorted-pass ASOF (%s has no LATERAL)", g->d->name) : "LATERAL ASOF";
        return win ? PUSH_WINDOW : PUSH_LATERAL;
    }
    if (!bare_def(p->in[1])) {
        g->why = "sorted-pass ASOF (the right input is no table: no index serves a probe)";
        return PUSH_WINDOW;
    }
    const char *cols;
    bool idx = asof_index(g, p, l, r, &cols);
    const char *est = gfmt(g, "est. %s x %s rows", rows_text(g, nl), rows_text(g, nr));
    if (idx && nl >= 0 && nr >= 0 && 2 * nl <= nr) {
        g->why = gfmt(g, "LATERAL ASOF (%s, index on (%s))", est, cols ? cols : "");
        return PUSH_LATERAL;
    }
    g->why = gfmt(g, "sorted-pass ASOF (%s, %s on (%s))", est, idx ? "left not smaller than half the right, index" : "no index",
                  cols ? cols : "");
    return PUSH_WINDOW;
}

/* The condition that an AS-OF join's matched right value rm (SQL) lies within p's WITHIN bound
 * of the left value lm, both of the match type t: the engine's distance (exec/keys.c's
 * keys_distance_bound: microseconds for TIMESTAMP, whole days for DATE), inclusive at the
 * bound. NULL when the dialect has no exact spelling of that distance (sqlgen.h), or t has none
 * here (DURATION match columns stay in the engine); *why then says so. */
static const char *within_cond(Gen *g, const LPlan *p, const char *lm, const char *rm, RxType t, const char **why) {
    bool backward = p->dir == ASOF_BACKWARD || p->dir == ASOF_BACKWARD_STRICT;
    const char *early = backward ? rm : lm, *late = backward ? lm : rm, *fmt = NULL;
    Value b;
    memset(&b, 0, sizeof b);
    if (t == TY_TIMESTAMP && g->d->ts_distance) {
        fmt = g->d->ts_distance;
        if (g->d->ts_distance_us) {
            b.type = TY_INT;
            b.v.i = p->within.us;
        } else {
            b.type = TY_DURATION;
            b.v.d = p->within;
        }
    } else if (t == TY_DATE && g->d->date_distance) {
        fmt = g->d->date_distance;
        b.type = TY_INT;
        b.v.i = p->within.us / US_PER_DAY;
    }
    if (!fmt) {
        *why = gfmt(g, "ASOF WITHIN over %s match values: %s has no exact distance of them", type_name(t), g->d->name);
        return NULL;
    }
    const char *bp = param(g, &b), *d = gfmt(g, fmt, early, late);
    if (!bp || !d) *why = gfmt(g, "ASOF WITHIN: %s has no type for the bound", g->d->name);
    return bp && d ? gfmt(g, "%s <= %s", d, bp) : NULL;
}

/* The AS-OF join as a lateral subquery per left row (PUSH_LATERAL): the nearest right row by
 * ORDER BY match DESC|ASC, right order LIMIT 1. Fast only where an index on (keys, match)
 * serves each probe. NULL when the dialect has no LATERAL. */
static Blk *asof_lateral(Gen *g, const LPlan *p, Blk *l, Blk *r, const uint8_t *nr_) {
    if (!g->d->lateral) return NULL;
    const char *cond = NULL;
    for (int k = 0; k < p->n_keys; k++) {
        const char *kp = key_pair(g, &r->cols[p->rkeys[k]], &l->cols[p->lkeys[k]]);
        if (!kp) return NULL;
        cond = and_sql(g, cond, kp);
    }
    const Col *lm = &l->cols[p->lmatch], *rm = &r->cols[p->rmatch];
    const char *a = col_value(g, rm, NULL), *b = col_value(g, lm, NULL);
    RxType t;
    if (!a || !b || !unify_sql(g, &a, rm->type, &b, lm->type, &t)) return NULL;
    bool backward = p->dir == ASOF_BACKWARD || p->dir == ASOF_BACKWARD_STRICT;
    bool strict = p->dir == ASOF_BACKWARD_STRICT || p->dir == ASOF_FORWARD_STRICT;
    cond = and_sql(g, cond, gfmt(g, "%s %s %s", a, backward ? (strict ? "<" : "<=") : (strict ? ">" : ">="), b));
    /* the nearest right row; among equal match values the first (TIES(FIRST)) or last in the
     * right input's order */
    const char *ties = order_text(g, r->ord, r->n_ord, !p->ties_first);
    const char *where = cond ? and_sql(g, r->where, cond) : NULL;
    if (!where || !ties) return NULL;
    const char *t_ = new_alias(g);
    StrBuf s, lim;
    sb_init(&s);
    sb_init(&lim);
    const char *head, *tail;
    sql_limit(&lim, g->d, 1, &head, &tail);
    head = gfmt(g, "%s", head);
    tail = gfmt(g, "%s", tail);
    sb_free(&lim);
    if (!head || !tail) {
        sb_free(&s);
        return NULL;
    }
    sb_printf(&s, "%s%s", p->has_within ? "(SELECT * FROM (SELECT " : "(SELECT ", head);
    int items = 0;
    Blk *o = new_blk(g, p->schema.n, l->n_ord);
    if (!o || !t_) {
        sb_free(&s);
        return NULL;
    }
    int nl = l->n_cols;
    for (int i = 0; i < nl; i++) o->cols[i] = l->cols[i];
    for (int j = 0; j < r->n_cols; j++) {
        o->cols[nl + j] = r->cols[j];
        o->cols[nl + j].raw = NULL;
        if (!r->cols[j].raw || !nr_[j]) continue;
        sb_printf(&s, "%s%s AS c%d", items++ ? ", " : "", r->cols[j].raw, j);
        o->cols[nl + j].raw = gfmt(g, "%s.c%d", t_, j);
    }
    if (!items) sb_puts(&s, "1 AS u");
    /* WITHIN: the nearest row, kept when it lies within the bound (a bound in the probe's WHERE
     * would walk on to older rows, which are all further away) */
    const char *wc = NULL, *wy = NULL;
    if (p->has_within) {
        const char *why = NULL;
        wy = new_alias(g);
        wc = wy ? within_cond(g, p, b, gfmt(g, "%s.wm", wy), t, &why) : NULL;
        if (!wc) {
            if (why) g->stay = why;
            sb_free(&s);
            return NULL;
        }
        sb_printf(&s, ", %s AS wm", a);
    }
    sb_printf(&s, " FROM %s WHERE %s ORDER BY %s %s%s%s%s)", r->from, where, a,
              backward ? "DESC" : "ASC", r->n_ord ? ", " : "", ties, tail);
    if (wc) sb_printf(&s, " AS %s WHERE %s)", wy, wc);
    sb_printf(&s, " AS %s", t_);
    const char *lat = s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    if (!lat) return NULL;
    for (int j = 0; j < l->n_ord; j++) o->ord[j] = l->ord[j];
    sb_init(&s);
    o->from = sql_asof_join(&s, g->d, l->from, p->inner, lat) < 0 || s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    o->where = l->where;
    o->single = false;
    return g->oom ? NULL : o;
}

/* The AS-OF join as one sorted pass (PUSH_WINDOW), which needs no index: both inputs in one
 * UNION ALL, ordered per key by (match, side, right order, left order) -- the right rows
 * before the left ones at equal match values, the other way round for the strict forms, and
 * descending for the forward ones. A running count of the right rows is each left row's group;
 * the group's first row is its right row, whose columns a second window hands to the group's
 * left rows (first_value over the group: the matched row's own values, NULLs included, where
 * a per-column IGNORE NULLS would reach back to an older row). Among right rows of one match
 * value the one counted last is the one the engine picks (TIES(LAST): the last in the right
 * input's order; TIES(FIRST): the first). Right rows with a NULL key or match never match;
 * a left row whose match is NULL gets no group. Where the dialect has struct values and
 * IGNORE NULLS (sqlgen.h's SqlStruct), one window does both: each right row packed whole into
 * one struct, and last_value(struct IGNORE NULLS) over the same order hands every left row
 * its match, NULL fields included. NULL when the dialect has no window functions or an
 * operand no exact form. */
static Blk *asof_window(Gen *g, const LPlan *p, const Blk *l, const Blk *r, const uint8_t *nl, const uint8_t *nr) {
    if (!g->d->windows) return NULL;
    bool backward = p->dir == ASOF_BACKWARD || p->dir == ASOF_BACKWARD_STRICT;
    bool strict = p->dir == ASOF_BACKWARD_STRICT || p->dir == ASOF_FORWARD_STRICT;
    int nk = p->n_keys, lside = strict ? 0 : 1, rside = 1 - lside;
    const char **lk = galloc(g, (size_t)(nk + 1) * sizeof *lk), **rk = galloc(g, (size_t)(nk + 1) * sizeof *rk);
    bool *ktext = galloc(g, (size_t)(nk + 1) * sizeof *ktext);
    if (!lk || !rk || !ktext) return NULL;
    for (int k = 0; k < nk; k++) {
        const Col *a = &l->cols[p->lkeys[k]], *b = &r->cols[p->rkeys[k]];
        lk[k] = col_value(g, a, NULL);
        rk[k] = col_value(g, b, NULL);
        RxType t;
        if (!lk[k] || !rk[k] || !unify_sql(g, &lk[k], a->type, &rk[k], b->type, &t)) return NULL;
        if (t == TY_BOOL && !g->d->bool_type) return NULL;
        ktext[k] = t == TY_TEXT;
    }
    const Col *lm = &l->cols[p->lmatch], *rm = &r->cols[p->rmatch];
    const char *ma = col_value(g, lm, NULL), *mb = col_value(g, rm, NULL);
    RxType mt;
    if (!ma || !mb || !unify_sql(g, &ma, lm->type, &mb, rm->type, &mt)) return NULL;
    if (mt == TY_BOOL && !g->d->bool_type) return NULL;
    const char *u = new_alias(g), *v = new_alias(g), *w = new_alias(g);
    if (!u || !v || !w) return NULL;
    StrBuf s;
    sb_init(&s);
    /* the two branches: keys k<i>, match m, side sd, right flag rf, left columns l<i>, right
     * columns r<j>, left order lo<j>, right order ro<j> */
    for (int side = 0; side < 2; side++) {
        const Blk *b = side ? r : l;
        sb_puts(&s, side ? " UNION ALL SELECT " : "(SELECT ");
        for (int k = 0; k < nk; k++) sb_printf(&s, "%s AS k%d, ", side ? rk[k] : lk[k], k);
        sb_printf(&s, "%s AS m, %d AS sd, %s AS rf", side ? mb : ma, side ? rside : lside, side ? "1" : "NULL");
        for (int i = 0; i < l->n_cols; i++)
            if (l->cols[i].raw && nl[i]) sb_printf(&s, ", %s AS l%d", side ? "NULL" : l->cols[i].raw, i);
        for (int j = 0; j < r->n_cols; j++)
            if (r->cols[j].raw && nr[j]) sb_printf(&s, ", %s AS r%d", side ? r->cols[j].raw : "NULL", j);
        for (int j = 0; j < l->n_ord; j++) sb_printf(&s, ", %s AS lo%d", side ? "NULL" : l->ord[j].sql, j);
        for (int j = 0; j < r->n_ord; j++) sb_printf(&s, ", %s AS ro%d", side ? r->ord[j].sql : "NULL", j);
        sb_printf(&s, " FROM %s", b->from);
        const char *wh = b->where;
        if (side) {
            for (int k = 0; k < nk; k++) wh = and_sql(g, wh, gfmt(g, "%s IS NOT NULL", rk[k]));
            wh = and_sql(g, wh, gfmt(g, "%s IS NOT NULL", mb));
        }
        if (wh) sb_printf(&s, " WHERE %s", wh);
    }
    sb_printf(&s, ") AS %s", u);
    const char *uni = s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    if (!uni) return NULL;
    /* the pass over alias a: PARTITION BY the keys [and the group] ORDER BY ... */
    const char *over[2];
    const char *al[2] = {u, v};
    for (int x = 0; x < 2; x++) {
        sb_init(&s);
        for (int k = 0; k < nk; k++) {
            const char *kc = gfmt(g, "%s.k%d", al[x], k);
            sb_printf(&s, "%s%s", k ? ", " : "PARTITION BY ", ktext[k] ? collated(g, kc) : kc);
        }
        if (x) sb_printf(&s, "%s%s.g", nk ? ", " : "PARTITION BY ", al[x]);
        sb_puts(&s, nk || x ? " ORDER BY " : "ORDER BY ");
        sql_order_item(&s, g->d, gfmt(g, "%s.m", al[x]), mt == TY_TEXT, false, !backward, false);
        sb_printf(&s, ", %s.sd", al[x]);
        for (int j = 0; j < r->n_ord; j++) {
            const Ord *o = &r->ord[j];
            bool desc = o->desc != p->ties_first, nf = o->nulls_first != p->ties_first;
            sb_puts(&s, ", ");
            sql_order_item(&s, g->d, gfmt(g, "%s.ro%d", al[x], j), o->text, false, desc, nf);
        }
        for (int j = 0; j < l->n_ord; j++) {
            const Ord *o = &l->ord[j];
            sb_puts(&s, ", ");
            sql_order_item(&s, g->d, gfmt(g, "%s.lo%d", al[x], j), o->text, false, o->desc, o->nulls_first);
        }
        sb_puts(&s, " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW");
        over[x] = s.oom ? NULL : gfmt(g, "%s", s.p);
        sb_free(&s);
        if (!over[x]) return NULL;
    }
    /* where the dialect has it, one window instead of two: the last right row so far (the
     * engine's match) carried whole as one struct value through last_value(... IGNORE NULLS),
     * so that its own NULLs arrive as they are (a per-column IGNORE NULLS would skip to an
     * older row's value); q: that value, NULL for a left row without a match or match value */
    const char *q = NULL;
    if (g->d->structs != STRUCT_NONE) {
        int nf = 0;
        const char **fn = galloc(g, (size_t)(r->n_cols + 2) * sizeof *fn);
        const char **fv = galloc(g, (size_t)(r->n_cols + 2) * sizeof *fv);
        const char **ft = galloc(g, (size_t)(r->n_cols + 2) * sizeof *ft);
        if (!fn || !fv || !ft) return NULL;
        for (int j = 0; j < r->n_cols; j++)
            if (r->cols[j].raw && nr[j]) {
                fn[nf] = gfmt(g, "r%d", j);
                fv[nf] = gfmt(g, "%s.r%d", u, j);
                ft[nf++] = sql_type_name(g->d, r->cols[j].type);
            }
        if (p->has_within || !nf) {
            fn[nf] = p->has_within ? "m" : "rf";
            fv[nf] = gfmt(g, p->has_within ? "%s.m" : "%s.rf", u);
            ft[nf++] = sql_type_name(g->d, p->has_within ? mt : TY_INT);
        }
        if (g->oom) return NULL;
        StrBuf pk;
        sb_init(&pk);
        sb_printf(&pk, "CASE WHEN %s.rf = 1 THEN ", u);
        bool ok = sql_struct_pack(&pk, g->d, nf, fn, fv, ft) == 0;
        sb_puts(&pk, " END");
        const char *packed = ok && !pk.oom ? gfmt(g, "%s", pk.p) : NULL;
        sb_free(&pk);
        if (packed) {
            sb_init(&pk);
            sb_printf(&pk, "CASE WHEN %s.m IS NULL THEN NULL ELSE ", u);
            sql_last_ignore_nulls(&pk, g->d, packed, over[0]);
            sb_puts(&pk, " END AS q");
            q = pk.oom ? NULL : gfmt(g, "%s", pk.p);
            sb_free(&pk);
            if (!q) return NULL;
        }
    }
    Blk *o = new_blk(g, p->schema.n, l->n_ord);
    if (!o) return NULL;
    sb_init(&s);
    if (q) sb_printf(&s, "(SELECT %s.sd AS sd, CASE WHEN %s.q IS NULL THEN 0 ELSE 1 END AS g", v, v);
    else sb_printf(&s, "(SELECT %s.sd AS sd, %s.g AS g", v, v);
    int nlc = l->n_cols;
    for (int i = 0; i < nlc; i++) {
        o->cols[i] = l->cols[i];
        o->cols[i].raw = NULL;
        if (!l->cols[i].raw || !nl[i]) continue;
        sb_printf(&s, ", %s.l%d AS l%d", v, i, i);
        o->cols[i].raw = gfmt(g, "%s.l%d", w, i);
    }
    for (int j = 0; j < r->n_cols; j++) {
        o->cols[nlc + j] = r->cols[j];
        o->cols[nlc + j].raw = NULL;
        if (!r->cols[j].raw || !nr[j]) continue;
        if (q) {
            sb_puts(&s, ", ");
            sql_struct_field(&s, g->d, gfmt(g, "%s.q", v), gfmt(g, "r%d", j));
            sb_printf(&s, " AS r%d", j);
        } else {
            sb_printf(&s, ", first_value(%s.r%d) OVER (%s) AS r%d", v, j, over[1], j);
        }
        o->cols[nlc + j].raw = gfmt(g, "%s.r%d", w, j);
    }
    for (int j = 0; j < l->n_ord; j++) {
        sb_printf(&s, ", %s.lo%d AS lo%d", v, j, j);
        o->ord[j] = l->ord[j];
        o->ord[j].sql = gfmt(g, "%s.lo%d", w, j);
    }
    /* WITHIN: the group's right row is its match; out of bounds, the left row keeps no right
     * columns (INNER: is dropped) */
    const char *wc = NULL;
    if (p->has_within) {
        const char *why = NULL;
        if (q) {
            sb_printf(&s, ", %s.m AS m, ", v);
            sql_struct_field(&s, g->d, gfmt(g, "%s.q", v), "m");
            sb_puts(&s, " AS rm");
        } else {
            sb_printf(&s, ", %s.m AS m, first_value(%s.m) OVER (%s) AS rm", v, v, over[1]);
        }
        wc = within_cond(g, p, gfmt(g, "%s.m", w), gfmt(g, "%s.rm", w), mt, &why);
        if (!wc) {
            if (why) g->stay = why;
            sb_free(&s);
            return NULL;
        }
        for (int j = 0; j < r->n_cols; j++)
            if (o->cols[nlc + j].raw) o->cols[nlc + j].raw = gfmt(g, "CASE WHEN %s THEN %s END", wc, o->cols[nlc + j].raw);
    }
    if (q)
        sb_printf(&s, " FROM (SELECT %s.*, %s FROM %s) AS %s) AS %s", u, q, uni, v, w);
    else
        sb_printf(&s, " FROM (SELECT %s.*, CASE WHEN %s.sd = %d AND %s.m IS NULL THEN NULL ELSE %s(%s.rf) OVER (%s) END AS g FROM %s) AS %s) AS %s",
                  u, u, lside, u, count_fn(g), u, over[0], uni, v, w);
    o->from = s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    o->where = gfmt(g, "%s.sd = %d%s", w, lside, p->inner ? gfmt(g, " AND %s.g > 0", w) : "");
    if (wc && p->inner) o->where = and_sql(g, o->where, wc);
    o->single = true;
    return g->oom || !o->from ? NULL : o;
}

static Blk *gen_asof(Gen *g, const LPlan *p, const uint8_t *need) {
    /* NEAREST and k nearest stay in the engine: the nearest of two directions, or the k nearest
     * with their ranks and ties, have no form of one probe or one pass that is exact here */
    if (p->nearest || p->asof_k) {
        g->stay = p->nearest ? "ASOF NEAREST: no pushed form picks the nearer of two directions exactly"
                             : "ASOF k nearest: no pushed form ranks the k nearest values with the engine's ties";
        return NULL;
    }
    /* neither a correlated subquery (LATERAL, APPLY) nor window functions: no form at all */
    if (!g->d->lateral && !g->d->windows) {
        g->stay = gfmt(g, "ASOF: %s has no LATERAL (nor a sorted-pass form here)", g->d->name);
        return NULL;
    }
    Blk *l, *r;
    uint8_t *nl_, *nr_;
    if (!gen_inputs(g, p, need, &l, &r, &nl_, &nr_)) return NULL;
    double el = input_rows(g, p->in[0], l), er = input_rows(g, p->in[1], r);
    PushForm f = asof_form(g, p, l, r, el, er);
    if (pull_cheaper(g, p, f, el, er)) return NULL;
    if (f == PUSH_LATERAL) return asof_lateral(g, p, l, r, nr_);
    return asof_window(g, p, l, r, nl_, nr_);
}

/* An aggregate over the columns cols of a block whose rows are numbered in input order by
 * rk; NULL when it has no exact equivalent. */
static const char *aggregate(Gen *g, const AggSpec *ag, const Col *cols, const char *rk, DbNative *nat) {
    *nat = ag->type == TY_INT ? DBN_INT4 : DBN_EXACT;
    if (ag->fn == AGG_COUNT_STAR) return gfmt(g, "%s(*)", count_fn(g));
    const Expr *x = ag->arg;
    RxType t = x->type;
    if (t == TY_NULL) return NULL;
    /* the value as stored, for what only tests it for NULL or hands it back */
    const char *raw = x->kind == EX_COL ? cols[x->col].raw : expr(g, x, cols, NULL);
    if (!raw) return NULL;
    switch (ag->fn) {
    case AGG_COUNT_STAR: break;
    case AGG_COUNT: {
        if (!ag->distinct) return gfmt(g, "%s(%s)", count_fn(g), raw);
        /* equal as the engine's keys: DURATIONs by their length, text bytewise */
        const char *k = key_expr(g, x, cols);
        return k ? gfmt(g, "%s(DISTINCT %s)", count_fn(g), k) : NULL;
    }
    case AGG_SUM: case AGG_AVG: {
        /* SQLite adds with its own algorithm, in an order of its own, and fails on an INT
         * partial sum that overflows; PostgreSQL's numeric sum of int8 is exact, and its
         * float8 sum adds in the order asked, as the engine does */
        if (!g->d->ordered_aggregates || (t != TY_INT && t != TY_FLOAT)) return NULL;
        const char *v = expr(g, x, cols, NULL);
        if (!v) return NULL;
        /* the INT total fails as the engine's does when it does not fit in 64 bits; the engine
         * adds doubles to 0, so that a sum of -0 alone is 0 there: + 0 does the same */
        if (ag->fn == AGG_SUM && t == TY_INT) return gfmt(g, "CAST(sum(%s) AS int8)", v);
        if (ag->fn == AGG_SUM) return gfmt(g, "(sum(%s ORDER BY %s) + CAST(0 AS float8))", v, rk);
        return gfmt(g, "((sum(%s ORDER BY %s) + CAST(0 AS float8)) / count(%s))", as_float(g, v, t), rk, v);
    }
    case AGG_MIN: case AGG_MAX: {
        /* ties hold equal values, which are the same value except -0 and 0, whose min and max
         * PostgreSQL picks differently from the engine (SQLite stores no -0), and DURATIONs of
         * one length written differently */
        if (t == TY_DURATION || (t == TY_FLOAT && !g->d->float_min_max)) return NULL;
        const char *k = key_expr(g, x, cols);
        if (!k) return NULL;
        if (t == TY_BOOL) return g->d->bool_type ? gfmt(g, "%s(%s)", ag->fn == AGG_MIN ? "bool_and" : "bool_or", k) : NULL;
        return collated_text(g, gfmt(g, "%s(%s)", ag->fn == AGG_MIN ? "min" : "max", k), t);
    }
    case AGG_FIRST: case AGG_LAST:
        if (!g->d->ordered_aggregates) return NULL;
        if (x->kind == EX_COL) *nat = cols[x->col].nat;
        return gfmt(g, "(array_agg(%s ORDER BY %s%s) FILTER (WHERE %s IS NOT NULL))[1]", raw, rk,
                    ag->fn == AGG_LAST ? " DESC" : "", raw);
    case AGG_BOOL_AND: case AGG_BOOL_OR:
        if (!g->d->bool_type) return NULL;
        return gfmt(g, "%s(%s)", ag->fn == AGG_BOOL_AND ? "bool_and" : "bool_or", raw);
    case AGG_STRING_AGG: {
        /* in input order, the separator a constant: PostgreSQL's string_agg */
        const Expr *sep = ag->arg2;
        if (!g->d->ordered_aggregates || sep->kind != EX_CONST || sep->type != TY_TEXT) return NULL;
        const char *ps = param(g, &sep->value);
        return ps ? gfmt(g, "string_agg(%s, %s ORDER BY %s)", raw, ps, rk) : NULL;
    }
    case AGG_STDDEV: case AGG_STDDEV_POP: case AGG_VARIANCE: case AGG_VAR_POP: case AGG_MEDIAN:
    case AGG_QUANTILE: case AGG_ARG_MIN: case AGG_ARG_MAX:
        /* the last digit of a database's variance or percentile is its algorithm's, and
         * arg_min/arg_max have no equivalent: the engine computes them */
        return NULL;
    }
    return NULL;
}

static Blk *gen_group(Gen *g, const LPlan *p, Blk *in, const uint8_t *need_in) {
    /* number the input rows in order: groups come in order of first appearance; an order that
     * is one number already numbers them (an optimisation: no window, no sort) */
    bool number = in->n_ord == 1 && in->ord[0].number && !in->ord[0].desc;
    const char *ord = order_text(g, in->ord, in->n_ord, false);
    if (!ord) return NULL;
    const char *rn = number ? NULL : in->n_ord ? gfmt(g, "ROW_NUMBER() OVER (ORDER BY %s) AS rk", ord) : "1 AS rk";
    Blk *b = close_blk(g, in, need_in, rn, NULL);
    if (!b) return NULL;
    const char *alias = strrchr(b->from, ' ') + 1, *rk = gfmt(g, "%s.%s", alias, number ? "o0" : "rk");
    Blk *o = new_blk(g, p->schema.n, p->n_group ? 1 : 0);
    const char *t = new_alias(g);
    if (!o || !t || !rk) return NULL;
    StrBuf s, by;
    sb_init(&s);
    sb_init(&by);
    sb_puts(&s, "(SELECT ");
    bool ok = true;
    for (int k = 0; ok && k < p->n_group; k++) {
        const Expr *e = p->group[k];
        /* a group's key is its first row's: equal keys that differ (-0 and 0, DURATIONs of one
         * length) would print as SQL picks */
        if (e->type == TY_FLOAT || e->type == TY_DURATION || e->type == TY_NULL) ok = false;
        const char *kx = ok ? key_expr(g, e, b->cols) : NULL;
        if (!kx) ok = false;
        if (!ok) break;
        sb_printf(&by, "%s%s", k ? ", " : "", kx);
        sb_printf(&s, "%s AS c%d, ", collated_text(g, kx, e->type), k);
        o->cols[k] = (Col){gfmt(g, "%s.c%d", t, k), e->type, e->type == TY_INT ? DBN_INT4 : DBN_EXACT, NULL};
    }
    for (int k = 0; ok && k < p->n_aggs; k++) {
        DbNative nat;
        const char *ag = aggregate(g, &p->aggs[k], b->cols, rk, &nat);
        if (!ag) {
            ok = false;
            break;
        }
        int c = p->n_group + k;
        sb_printf(&s, "%s AS c%d, ", ag, c);
        o->cols[c] = (Col){gfmt(g, "%s.c%d", t, c), p->aggs[k].type, nat, NULL};
    }
    if (ok) {
        sb_printf(&s, "%s AS o0 FROM %s", p->n_group ? gfmt(g, "min(%s)", rk) : "1", b->from);
        if (p->n_group) sb_printf(&s, " GROUP BY %s", by.p);
        sb_printf(&s, ") AS %s", t);
        if (p->n_group) o->ord[0] = (Ord){gfmt(g, "%s.o0", t), false, false, true, false, true};
        o->from = s.oom || by.oom ? NULL : gfmt(g, "%s", s.p);
        o->single = true;
    }
    sb_free(&s);
    sb_free(&by);
    return ok && o->from ? o : NULL;
}

/* The order of τ and of TOP ... BY: the keys, then the input's order (a stable sort). NULL
 * when a key cannot be ordered as the engine orders it. */
static Ord *sort_order(Gen *g, const SortKey *keys, int n_keys, const Blk *in, int *n_out) {
    Ord *o = galloc(g, (size_t)(n_keys + in->n_ord + 1) * sizeof *o);
    if (!o) return NULL;
    int k = 0;
    for (int i = 0; i < n_keys; i++) {
        const Expr *e = keys[i].e;
        if (e->type == TY_NULL) continue; /* every row ties */
        bool n;
        const char *s = expr(g, e, in->cols, &n);
        if (!s) return NULL;
        o[k++] = (Ord){s, keys[i].desc, keys[i].nulls_first, false, e->type == TY_TEXT, false};
    }
    for (int j = 0; j < in->n_ord; j++) o[k++] = in->ord[j];
    *n_out = k;
    return o;
}

static Blk *gen_top(Gen *g, const LPlan *p, Blk *in, const uint8_t *need_in) {
    int n_ord;
    Ord *ord = sort_order(g, p->sort, p->n_sort, in, &n_ord);
    if (!ord) return NULL;
    Blk tmp = *in;
    tmp.ord = ord;
    tmp.n_ord = n_ord;
    const char *ot = order_text(g, ord, n_ord, false);
    if (!ot) return NULL;
    if (p->n_group == 0) {
        StrBuf lim;
        sb_init(&lim);
        const char *head, *lt;
        sql_limit(&lim, g->d, (long long)p->top_n, &head, &lt);
        const char *tail = gfmt(g, "%s%s%s", n_ord ? " ORDER BY " : "", ot, lt);
        head = gfmt(g, "%s", head);
        sb_free(&lim);
        return tail && head ? close_blk_head(g, &tmp, need_in, NULL, tail, head) : NULL;
    }
    StrBuf part;
    sb_init(&part);
    for (int k = 0; k < p->n_group; k++) {
        const char *kx = p->group[k]->type == TY_NULL ? "1" : key_expr(g, p->group[k], in->cols);
        if (!kx) {
            sb_free(&part);
            return NULL;
        }
        sb_printf(&part, "%s%s", k ? ", " : "", kx);
    }
    const char *rn = part.oom ? NULL : gfmt(g, "ROW_NUMBER() OVER (PARTITION BY %s%s%s) AS rn", part.p,
                                           n_ord ? " ORDER BY " : "", ot);
    sb_free(&part);
    /* the kept rows stay in the order they had: the BY order when there is one */
    if (!p->n_sort) tmp.ord = in->ord, tmp.n_ord = in->n_ord;
    Blk *o = rn ? close_blk(g, &tmp, need_in, rn, NULL) : NULL;
    if (!o) return NULL;
    const char *alias = strrchr(o->from, ' ') + 1;
    o->where = gfmt(g, "%s.rn <= %lld", alias, (long long)p->top_n);
    return g->oom ? NULL : o;
}

/* The longest lag or lead offset and ROWS frame a statement names (PostgreSQL's int4). */
#define WIN_MAX_OFFSET 2147483647
/* The longest RANGE frame over a TIMESTAMP order written into a statement, in microseconds (a
 * thousand years): no bound below a time of the years 1 to 9999 leaves the database's range,
 * where PostgreSQL would fail and the engine does not. */
#define WIN_MAX_RANGE_US (INT64_C(1000) * 366 * US_PER_DAY)

/* The window clause (the text inside OVER's parentheses) of function s of ω p over the block
 * in: PARTITION BY part, then the engine's order of each partition and the frame. Functions
 * that read rows by position (row_number, lag, lead, first_value, last_value, ROWS and running
 * frames) order by the BY keys and then the input's order, which is total, as the engine's
 * stable sort is; rank and dense_rank by the BY keys alone (their peers); a RANGE frame by its
 * one order key. NULL with *why when the dialect has no exact form. */
static const char *window_over(Gen *g, const LPlan *p, const WinSpec *s, const Blk *in, const char *part,
                               const char **why) {
    bool peers_only = s->fn == WIN_RANK || s->fn == WIN_DENSE_RANK;
    bool framed = s->fn >= WIN_FIRST_VALUE;
    int n_ord;
    const char *order;
    if (framed && s->frame == WF_RANGE) {
        /* the frame is a set of rows: only the functions that do not read its order */
        if (s->fn == WIN_FIRST_VALUE || s->fn == WIN_LAST_VALUE) {
            *why = gfmt(g, "%s over a RANGE frame picks among equal order values by input order, which SQL's RANGE "
                           "frame (one ORDER BY key) does not know", lang_window_name(s->fn));
            return NULL;
        }
        const Expr *k = p->n_sort == 1 ? p->sort[0].e : NULL;
        RxType t = k ? k->type : TY_NULL;
        const char *len = NULL;
        if (t == TY_INT && g->d->range_int && s->range >= 0)
            len = gfmt(g, "%lld", (long long)s->range);
        else if (t == TY_TIMESTAMP && g->d->range_interval && s->range >= 0 && s->range <= WIN_MAX_RANGE_US)
            len = gfmt(g, g->d->range_interval, (long long)s->range);
        const char *ks = len && !p->sort[0].desc ? expr(g, k, in->cols, NULL) : NULL;
        if (!ks || g->d->nulls_case || g->d->no_nulls_order) {
            if (!g->oom)
                *why = gfmt(g, "a RANGE frame over order values of type %s: %s has no exact RANGE … PRECEDING of them", type_name(t),
                            g->d->name);
            return NULL;
        }
        StrBuf b;
        sb_init(&b);
        sql_order_item(&b, g->d, ks, false, false, false, p->sort[0].nulls_first);
        const char *r = b.oom ? NULL
                              : gfmt(g, "%sORDER BY %s RANGE BETWEEN %s PRECEDING AND CURRENT ROW", part, b.p, len);
        sb_free(&b);
        return r;
    }
    Ord *ord = sort_order(g, p->sort, p->n_sort, in, &n_ord);
    if (!ord) {
        if (!g->oom) *why = gfmt(g, "an order key has no exact ORDER BY in %s", g->d->name);
        return NULL;
    }
    if (peers_only) {
        /* the BY keys only: sort_order puts them first, then the input's order */
        n_ord -= in->n_ord;
    }
    if (!n_ord) {
        *why = peers_only ? "rank without order keys" : "the input has no order to number its rows by";
        return NULL;
    }
    if (!(order = order_text(g, ord, n_ord, false))) return NULL;
    const char *frame = "";
    if (framed && s->frame == WF_RUNNING) frame = " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
    else if (framed && s->frame == WF_ROWS) {
        if (s->rows < 0 || s->rows > WIN_MAX_OFFSET) {
            *why = "a ROWS frame longer than 2147483647 rows";
            return NULL;
        }
        frame = gfmt(g, " ROWS BETWEEN %lld PRECEDING AND CURRENT ROW", (long long)s->rows);
    }
    return frame ? gfmt(g, "%sORDER BY %s%s", part, order, frame) : NULL;
}

/* Window function s of ω p over the block in, as SQL (its result of type s->type), or NULL with
 * *why when the dialect has no exact equivalent (docs/operators.md, "ω" and pushdown). */
static const char *window_fn(Gen *g, const LPlan *p, const WinSpec *s, const Blk *in, const char *part,
                             const char **why) {
    const char *name = lang_window_name(s->fn);
    const Expr *x = s->arg;
    RxType at = x ? x->type : TY_NULL;
    if (x && (at == TY_NULL || (at == TY_BOOL && g->d->bool_case && x->kind != EX_COL))) {
        *why = gfmt(g, "%s of %s: no value to pass in %s", name, type_name(at), g->d->name);
        return NULL;
    }
    /* the argument's Relix value; what only counts it is tested for NULL as stored */
    const char *v = !x ? NULL : s->fn == WIN_COUNT && x->kind == EX_COL ? in->cols[x->col].raw : expr(g, x, in->cols, NULL);
    if (x && !v) {
        if (!g->oom) *why = gfmt(g, "the argument of %s has no exact form in %s", name, g->d->name);
        return NULL;
    }
    const char *over = window_over(g, p, s, in, part, why);
    if (!over) return NULL;
    const char *it = sql_type_name(g->d, TY_INT);
    switch (s->fn) {
    case WIN_ROW_NUMBER: return cast_to(g, gfmt(g, "ROW_NUMBER() OVER (%s)", over), TY_INT);
    case WIN_RANK: return cast_to(g, gfmt(g, "RANK() OVER (%s)", over), TY_INT);
    case WIN_DENSE_RANK: return cast_to(g, gfmt(g, "DENSE_RANK() OVER (%s)", over), TY_INT);
    case WIN_LAG: case WIN_LEAD: {
        if (s->offset < 0 || s->offset > WIN_MAX_OFFSET) {
            *why = gfmt(g, "%s by more than 2147483647 rows", name);
            return NULL;
        }
        const char *fn = s->fn == WIN_LAG ? "LAG" : "LEAD";
        if (at != s->type && !(v = branch(g, x, s->type, in->cols))) return NULL;
        if (!s->def || s->def->type == TY_NULL) return gfmt(g, "%s(%s, %lld) OVER (%s)", fn, v, (long long)s->offset, over);
        if (g->d->no_lag_default) {
            *why = gfmt(g, "%s with a default: %s's takes none", name, g->d->name);
            return NULL;
        }
        const char *d = branch(g, s->def, s->type, in->cols);
        if (!d) {
            if (!g->oom) *why = gfmt(g, "the default of %s has no exact form in %s", name, g->d->name);
            return NULL;
        }
        return gfmt(g, "%s(%s, %lld, %s) OVER (%s)", fn, v, (long long)s->offset, d, over);
    }
    case WIN_FIRST_VALUE: case WIN_LAST_VALUE:
        return gfmt(g, "%s(%s) OVER (%s)", s->fn == WIN_FIRST_VALUE ? "FIRST_VALUE" : "LAST_VALUE", v, over);
    case WIN_COUNT:
        return cast_to(g, s->star ? gfmt(g, "%s(*) OVER (%s)", count_fn(g), over)
                                  : gfmt(g, "%s(%s) OVER (%s)", count_fn(g), v, over), TY_INT);
    case WIN_SUM: case WIN_AVG:
        /* the engine adds INT exactly in 128 bits and doubles with a compensated sum, sliding
         * over the frames: only an exact integer sum gives its result */
        if (at != TY_INT || !it || !g->d->wide_int_sum || (s->fn == WIN_AVG && !g->d->exact_int_avg)) {
            *why = at == TY_INT ? gfmt(g, "%s of INT: %s's is not exact", name, g->d->name)
                                : gfmt(g, "%s of %s: the engine adds with a compensated sum, SQL's sum does not", name,
                                       type_name(at));
            return NULL;
        }
        if (s->fn == WIN_SUM) return gfmt(g, "CAST(sum(%s) OVER (%s) AS %s)", v, over, it);
        return gfmt(g, "(CAST(sum(%s) OVER (%s) AS %s) / CAST(count(%s) OVER (%s) AS %s))", v, over,
                    sql_type_name(g->d, TY_FLOAT), v, over, sql_type_name(g->d, TY_FLOAT));
    case WIN_MIN: case WIN_MAX: {
        /* equal values are the same value, except -0 and 0 (which SQL picks otherwise) and
         * DURATIONs of one length written differently */
        if (at == TY_DURATION || at == TY_BOOL || (at == TY_FLOAT && !g->d->float_min_max)) {
            *why = gfmt(g, "%s of %s: equal values that differ (-0 and 0, DURATIONs) are picked otherwise", name,
                        type_name(at));
            return NULL;
        }
        const char *k = at == TY_TEXT ? collated(g, v) : v;
        return k ? collated_text(g, gfmt(g, "%s(%s) OVER (%s)", s->fn == WIN_MIN ? "min" : "max", k, over), at) : NULL;
    }
    case WIN_N_FUNCTIONS: break;
    }
    return NULL;
}

/* ω as its input's subquery with one window function per item: the input's columns and order
 * pass through (ω moves no row). NULL when a partition key or function has no exact form
 * (g->stay_win says which). */
static Blk *gen_window(Gen *g, const LPlan *p, Blk *in, const uint8_t *need_in, const uint8_t *need) {
    if (!g->d->windows) {
        g->stay_win = gfmt(g, "ω: %s has no window functions", g->d->name);
        return NULL;
    }
    int nin = in->n_cols;
    StrBuf part, items;
    sb_init(&part);
    sb_init(&items);
    const char *why = NULL;
    bool ok = true;
    for (int k = 0; ok && k < p->n_group; k++) {
        const Expr *e = p->group[k];
        if (e->type == TY_NULL) continue; /* one partition */
        const char *kx = e->type == TY_BOOL && g->d->bool_case && e->kind != EX_COL ? NULL : key_expr(g, e, in->cols);
        if (!kx) {
            ok = false;
            why = gfmt(g, "ω: a PER key has no exact form in %s", g->d->name);
            break;
        }
        sb_printf(&part, "%s%s", part.n ? ", " : "PARTITION BY ", kx);
    }
    if (part.n) sb_puts(&part, " ");
    const char *pt = ok && !part.oom ? gfmt(g, "%s", part.p ? part.p : "") : NULL;
    Blk tmp = *in;
    tmp.n_cols = p->schema.n;
    tmp.cols = galloc(g, (size_t)(p->schema.n + 1) * sizeof *tmp.cols);
    DbNative *nat = galloc(g, (size_t)(p->n_wins + 1) * sizeof *nat);
    ok = ok && pt && tmp.cols && nat;
    if (ok) memcpy(tmp.cols, in->cols, (size_t)nin * sizeof *tmp.cols);
    for (int k = 0; ok && k < p->n_wins; k++) {
        const WinSpec *s = &p->wins[k];
        tmp.cols[nin + k] = (Col){NULL, s->type, DBN_EXACT, NULL};
        if (need && !need[nin + k]) continue; /* not read above: not computed */
        const char *w = window_fn(g, p, s, in, pt, &why);
        if (!w) {
            ok = false;
            if (why) why = gfmt(g, "ω %s → %s: %s", lang_window_name(s->fn), p->schema.cols[nin + k].name, why);
            break;
        }
        sb_printf(&items, "%s%s AS w%d", items.n ? ", " : "", w, k);
        nat[k] = s->type == TY_INT ? DBN_INT4 : DBN_EXACT;
    }
    const char *extra = ok && !items.oom && items.n ? gfmt(g, "%s", items.p) : NULL;
    sb_free(&part);
    sb_free(&items);
    if (!ok) {
        if (!g->oom && why) g->stay_win = why;
        return NULL;
    }
    Blk *o = close_blk(g, &tmp, need_in, extra, NULL);
    if (!o) return NULL;
    const char *alias = strrchr(o->from, ' ') + 1;
    for (int k = 0; k < p->n_wins; k++)
        if (!need || need[nin + k]) o->cols[nin + k] = (Col){gfmt(g, "%s.w%d", alias, k), p->wins[k].type, nat[k], NULL};
    return g->oom ? NULL : o;
}

/* One end of a WJOIN window as SQL: the right time rm at or after lm + off (lower end) or at or
 * before it (upper end), both of type t, written as a distance with a bound of zero or more
 * (the dialect's distance, as WITHIN's; PostgreSQL's and DuckDB's is late - early) so that no
 * time is shifted by a DURATION in SQL. NULL when the dialect has no such distance. */
static const char *wjoin_end(Gen *g, const char *lm, const char *rm, RxType t, int64_t off, bool upper) {
    const char *fmt = t == TY_TIMESTAMP ? g->d->ts_distance : t == TY_DATE ? g->d->date_distance : NULL;
    uint64_t mag = off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off;
    Value b;
    memset(&b, 0, sizeof b);
    if (t == TY_INT) {
        /* rm >= lm + off, rm <= lm + off (lm in 64 bits: a sum that overflows fails there,
         * never wraps) */
        b.type = TY_INT;
        b.v.i = off;
        const char *bp = param(g, &b);
        return bp ? gfmt(g, "%s %s %s + %s", rm, upper ? "<=" : ">=", lm, bp) : NULL;
    }
    if (!fmt) return NULL;
    if (t == TY_TIMESTAMP && !g->d->ts_distance_us) {
        b.type = TY_DURATION;
        b.v.d = (RxDuration){0, (int64_t)mag};
    } else {
        b.type = TY_INT;
        b.v.i = (int64_t)mag;
    }
    const char *bp = param(g, &b);
    if (!bp) return NULL;
    /* lower end: off <= 0 is lm - rm <= |off|, off > 0 is rm - lm >= off; the upper end the
     * other way round */
    bool from_left = upper ? off >= 0 : off > 0;   /* the distance from lm to rm, else rm to lm */
    const char *d = from_left ? gfmt(g, fmt, lm, rm) : gfmt(g, fmt, rm, lm);
    bool at_most = upper ? off >= 0 : off <= 0;
    return d ? gfmt(g, "%s %s %s", d, at_most ? "<=" : ">=", bp) : NULL;
}

/* WJOIN as a LEFT JOIN LATERAL of one aggregate subquery per left row (PostgreSQL, DuckDB and
 * the dialects with LATERAL): SELECT the aggregates FROM the right input WHERE keys and window,
 * whose aggregate without GROUP BY gives one row also for an empty window (count 0, the others
 * NULL), as the engine. first and last order the window by time, then the right input's order.
 * Exact only for what adds no doubles: count, the INT sum (which fails as the engine's when it
 * does not fit 64 bits), min, max, first, last; avg and FLOAT sums, and PREVAILING, stay in the
 * engine (g->stay says why), which runs them as one sweep. */
static Blk *gen_wjoin(Gen *g, const LPlan *p, const uint8_t *need) {
    if (p->prevailing) {
        g->stay = "WJOIN PREVAILING runs in the engine as one sweep: no pushed form adds the row in force at the window's start";
        return NULL;
    }
    if (!g->d->lateral) {
        g->stay = gfmt(g, "WJOIN runs in the engine as one sweep: %s has no LATERAL subquery", g->d->name);
        return NULL;
    }
    bool ordered = false;
    for (int k = 0; k < p->n_aggs; k++) {
        const AggSpec *ag = &p->aggs[k];
        if ((ag->fn == AGG_SUM && ag->arg->type == TY_INT) || ag->fn == AGG_COUNT_STAR || ag->fn == AGG_COUNT ||
            ag->fn == AGG_MIN || ag->fn == AGG_MAX)
            continue;
        if (ag->fn == AGG_FIRST || ag->fn == AGG_LAST) {
            ordered = true;
            continue;
        }
        g->stay = "WJOIN runs in the engine as one sweep: its avg and FLOAT sums add in an order of their own, which SQL's sum does not";
        return NULL;
    }
    Blk *l, *r;
    uint8_t *nl_, *nr_;
    if (!gen_inputs(g, p, need, &l, &r, &nl_, &nr_)) return NULL;
    const char *cond = NULL;
    for (int k = 0; k < p->n_keys; k++) {
        const char *kp = key_pair(g, &r->cols[p->rkeys[k]], &l->cols[p->lkeys[k]]);
        if (!kp) return NULL;
        cond = and_sql(g, cond, kp);
    }
    const Col *lc = &l->cols[p->lmatch], *rc = &r->cols[p->rmatch];
    bool narrow;
    const char *lm = col_value(g, lc, &narrow), *rm = col_value(g, rc, NULL);
    if (!lm || !rm) return NULL;
    lm = wide(g, lm, narrow);   /* lm + off in 64 bits */
    RxType t = lc->type;
    const char *lo = wjoin_end(g, lm, rm, t, p->wj_lo, false), *hi = wjoin_end(g, lm, rm, t, p->wj_hi, true);
    if (!lo || !hi) {
        g->stay = gfmt(g, "WJOIN over %s times runs in the engine: %s has no exact distance of them", type_name(t), g->d->name);
        return NULL;
    }
    cond = and_sql(g, and_sql(g, cond, lo), hi);
    const char *where = and_sql(g, r->where, cond);
    /* first and last: the window's rows by time, then the right input's order (total); last is
     * the first of the reversed order (aggregate() reverses only a one-item order) */
    const char *rk = NULL, *rk_rev = NULL;
    if (ordered) {
        if (!r->n_ord) return NULL;
        const char *ro = order_text(g, r->ord, r->n_ord, false), *rr = order_text(g, r->ord, r->n_ord, true);
        rk = ro ? gfmt(g, "%s, %s", rm, ro) : NULL;
        rk_rev = rr ? gfmt(g, "%s DESC, %s", rm, rr) : NULL;
        if (!rk || !rk_rev) return NULL;
    }
    const char *t_ = new_alias(g);
    Blk *o = new_blk(g, p->schema.n, l->n_ord);
    if (!o || !t_ || !where) return NULL;
    int nl = l->n_cols;
    for (int i = 0; i < nl; i++) o->cols[i] = l->cols[i];
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "(SELECT ");
    for (int k = 0; k < p->n_aggs; k++) {
        DbNative nat;
        AggSpec one = p->aggs[k];
        bool last = one.fn == AGG_LAST;
        if (last) one.fn = AGG_FIRST;
        const char *ag = aggregate(g, &one, r->cols, last ? rk_rev : rk ? rk : "1", &nat);
        if (!ag) {
            sb_free(&s);
            if (!g->oom)
                g->stay = gfmt(g, "WJOIN runs in the engine as one sweep: %s has no exact form of its aggregate %s",
                               g->d->name, p->schema.cols[nl + k].name);
            return NULL;
        }
        sb_printf(&s, "%s%s AS c%d", k ? ", " : "", ag, k);
        o->cols[nl + k] = (Col){gfmt(g, "%s.c%d", t_, k), p->aggs[k].type, nat, NULL};
    }
    if (!p->n_aggs) sb_puts(&s, "1 AS u");
    sb_printf(&s, " FROM %s WHERE %s) AS %s", r->from, where, t_);
    const char *lat = s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    if (!lat) return NULL;
    for (int j = 0; j < l->n_ord; j++) o->ord[j] = l->ord[j];
    sb_init(&s);
    o->from = sql_asof_join(&s, g->d, l->from, false, lat) < 0 || s.oom ? NULL : gfmt(g, "%s", s.p);
    sb_free(&s);
    o->where = l->where;
    o->single = false;
    g->why = "LATERAL window join: one aggregate subquery per left row";
    return g->oom || !o->from ? NULL : o;
}

/* The block of p, whose operators above read need (NULL: all) of its columns; NULL when p
 * cannot be pushed. */
static Blk *gen(Gen *g, const LPlan *p, const uint8_t *need) {
    if (g->oom) return NULL;
    switch (p->kind) {
    case LP_SCAN: return gen_scan(g, p);
    case LP_RENAME: case LP_VIEW: {
        uint8_t *n0 = rw_input_need(g->a, p, 0, need);
        return n0 ? gen(g, p->in[0], n0) : NULL;
    }
    case LP_IJOIN: case LP_JOIN: return gen_join(g, p, need);
    case LP_ASOF: return gen_asof(g, p, need);
    case LP_SETOP: case LP_SQL: return NULL;
    case LP_ISET: return NULL;   /* no exact SQL form that is not quadratic: runs here */
    case LP_WJOIN: return gen_wjoin(g, p, need);
    default: break;
    }
    /* the unary operators that read their input's columns */
    uint8_t *n0 = rw_input_need(g->a, p, 0, need);
    Blk *in = n0 ? gen(g, p->in[0], n0) : NULL;
    if (!in) return NULL;
    switch (p->kind) {
    case LP_SELECT: {
        const char *pr = expr(g, p->pred, in->cols, NULL);
        if (!pr) return NULL;
        Blk *o = new_blk(g, in->n_cols, 0);
        if (!o) return NULL;
        *o = *in;
        o->where = and_sql(g, in->where, pr);
        return o;
    }
    case LP_PROJECT: return gen_distinct(g, in, p->items, p->n_items, need);
    case LP_DISTINCT: return gen_distinct(g, in, NULL, p->schema.n, need);
    case LP_SORT: {
        int n;
        Ord *ord = sort_order(g, p->sort, p->n_sort, in, &n);
        if (!ord) return NULL;
        Blk *o = new_blk(g, in->n_cols, 0);
        if (!o) return NULL;
        *o = *in;
        o->ord = ord;
        o->n_ord = n;
        return o;
    }
    case LP_TOP: return gen_top(g, p, in, n0);
    case LP_GROUP: return gen_group(g, p, in, n0);
    case LP_WINDOW: return gen_window(g, p, in, n0, need);
    default: return NULL;
    }
}

/* ---- the walk ------------------------------------------------------------------------------- */

typedef struct {
    Arena *a;
    RewriteLog *log;
    bool spec_only;     /* the optimizer is off: only the spec's two pushdowns, every column */
    const RewriteOptions *opt;
    int rc;
} Walk;

/* rw_log, unless the log has that entry already (the walk may meet one join from several
 * operators above it). */
static int log_once(Walk *w, const char *id, const char *what, const char *detail) {
    for (size_t i = 0; i < w->log->n; i++)
        if (strcmp(w->log->items[i].id, id) == 0 && strcmp(w->log->items[i].detail, detail) == 0) return 0;
    return rw_log(w->a, w->log, id, what, detail);
}

/* True when p has an operator other than scans and renames (a bare table stays a scan). */
static bool has_operator(const LPlan *p) {
    if (p->kind == LP_SCAN) return false;
    if (p->kind != LP_RENAME && p->kind != LP_VIEW) return true;
    return has_operator(p->in[0]);
}

static bool reads_database(const LPlan *p) {
    if (!p) return false;
    if (p->kind == LP_SCAN) return p->source && ((const RelDef *)p->source)->db;
    return reads_database(p->in[0]) || reads_database(p->in[1]);
}

static bool bare_table(const LPlan *p) {
    while (p->kind == LP_RENAME || p->kind == LP_VIEW) p = p->in[0];
    return p->kind == LP_SCAN;
}

/* "σ π IJOIN" for the log: the operators of a pushed subtree, top-down, each once. */
static void op_names(const LPlan *p, StrBuf *b) {
    static const char *const names[] = {
        [LP_SELECT] = "σ", [LP_PROJECT] = "π", [LP_IJOIN] = "IJOIN", [LP_ASOF] = "ASOF", [LP_WJOIN] = "WJOIN", [LP_JOIN] = "⨝",
        [LP_DISTINCT] = "δ", [LP_SORT] = "τ", [LP_TOP] = "TOP", [LP_GROUP] = "γ", [LP_WINDOW] = "ω",
    };
    if (!p || p->kind == LP_SCAN) return;
    const char *n = (size_t)p->kind < RX_ARRAY_LEN(names) ? names[p->kind] : NULL;
    if (n) {
        size_t len = strlen(n);
        bool seen = false;
        for (const char *q = b->p; q && (q = strstr(q, n)) != NULL; q += len)
            if ((q == b->p || q[-1] == ' ') && (q[len] == ' ' || q[len] == 0)) seen = true;
        if (!seen) sb_printf(b, "%s%s", b->n ? " " : "", n);
    }
    op_names(p->in[0], b);
    op_names(p->in[1], b);
}

/* The subtree p as one LP_SQL node, or NULL when it cannot be pushed. */
/* A generator for p's connection (its first database table's); NULL when there is none to
 * push to (an SQLite older than 3.30 takes only the spec's pushdowns). */
static const RelDef *start_gen(const Walk *w, const LPlan *p, Gen *g) {
    *g = (Gen){.a = w->a, .lite_version = db_sqlite_version(), .form = w->opt ? w->opt->push_form : PUSH_AUTO,
               .spec_only = w->spec_only};
    const LPlan *q = p;
    while (q && q->kind != LP_SCAN) q = reads_database(q->in[0]) ? q->in[0] : q->in[1];
    if (!q) return NULL;
    const RelDef *conn = ((const RelDef *)q->source)->db;
    g->d = sql_dialect(db_kind(conn->conn));
    if (g->d->no_pushdown || (!w->spec_only && g->lite_version < g->d->pushdown_since)) return NULL;
    return conn;
}

/* The SELECT of block b selecting the columns marked in fetched (n of them), its parameter
 * marks numbered, in the arena; its parameters in *params. NULL when it is too long or out of
 * memory (g->oom). */
static const char *statement(Gen *g, const Blk *b, const uint8_t *fetched, int n, Value **params, int *n_params) {
    StrBuf s;
    sb_init(&s);
    sb_puts(&s, "SELECT ");
    int items = 0;
    for (int i = 0; i < n; i++)
        if (fetched[i]) sb_printf(&s, "%s%s", items++ ? ", " : "", b->cols[i].raw);
    sb_printf(&s, " FROM %s", b->from);
    if (b->where) sb_printf(&s, " WHERE %s", b->where);
    if (b->n_ord) {
        sb_puts(&s, " ORDER BY ");
        order_list(g, &s, b->ord, b->n_ord, false);
    }
    StrBuf num;
    sb_init(&num);
    if (s.oom || g->oom || number_params(g, s.p, &num, params, n_params) < 0) {
        sb_free(&s);
        sb_free(&num);
        g->oom = true;
        return NULL;
    }
    sb_free(&s);
    const char *sql = num.n > MAX_SQL_BYTES ? NULL : arena_strndup(g->a, num.p, num.n);
    if (num.n <= MAX_SQL_BYTES && !sql) g->oom = true;
    sb_free(&num);
    return sql;
}

static LPlan *try_push(Walk *w, LPlan *p, const uint8_t *need) {
    const uint8_t *want = w->spec_only ? NULL : need;
    Gen g;
    const RelDef *conn = start_gen(w, p, &g);
    if (!conn) return NULL;
    /* the spec pushes an AS-OF join only as a LATERAL join */
    if (w->spec_only && p->kind == LP_ASOF && !g.d->lateral) return NULL;
    Blk *b = gen(&g, p, want);
    if (g.oom) {
        w->rc = -1;
        return NULL;
    }
    if (!b && g.pull && g.why && log_once(w, "PUSH-SQL-004", "Join left in the engine, its inputs pulled: cheaper than pushing it", g.why) < 0)
        w->rc = -1;
    if (!b && !g.pull && g.stay && !g.oom &&
        log_once(w, "PUSH-SQL-005", "Join left in the engine: no exact pushed form", arena_printf(w->a, "%s (%s)", g.stay, db_display(conn->conn))) < 0)
        w->rc = -1;
    if (!b && g.stay_win && !g.oom &&
        log_once(w, "PUSH-SQL-006", "Window functions left in the engine: no exact pushed form",
                 arena_printf(w->a, "%s (%s)", g.stay_win, db_display(conn->conn))) < 0)
        w->rc = -1;
    if (!b || g.too_long) return NULL;
    int n = p->schema.n;
    uint8_t *fetched = arena_alloc(w->a, (size_t)(n ? n : 1));
    if (!fetched) {
        w->rc = -1;
        return NULL;
    }
    int items = 0;
    for (int i = 0; i < n; i++) {
        fetched[i] = (!want || want[i]) && b->cols[i].raw;
        if (want && want[i] && !b->cols[i].raw) return NULL; /* a column read above that the block does not give */
    }
    /* a statement selects at least one column */
    for (int i = 0; i < n && !items; i++) items = fetched[i];
    for (int i = 0; i < n && !items; i++)
        if (b->cols[i].raw) fetched[i] = 1, items = 1;
    if (!items) return NULL;
    Value *params = NULL;
    int n_params = 0;
    const char *sql = statement(&g, b, fetched, n, &params, &n_params);
    if (g.oom) {
        w->rc = -1;
        return NULL;
    }
    if (!sql) return NULL;
    DbStatement *st = arena_alloc(w->a, sizeof *st);
    LPlan *r = arena_alloc(w->a, sizeof *r);
    if (!st || !r) {
        w->rc = -1;
        return NULL;
    }
    memset(st, 0, sizeof *st);
    if (w->opt && w->opt->show_dialect) {
        /* the same subtree written for the dialect shown: the same walk, another table */
        Gen sg;
        start_gen(w, p, &sg);
        sg.d = sql_dialect_named(w->opt->show_dialect);
        st->show_name = sg.d ? sg.d->name : w->opt->show_dialect;
        Blk *sb = sg.d ? gen(&sg, p, want) : NULL;
        for (int i = 0; sb && i < n; i++)
            if (fetched[i] && !sb->cols[i].raw) sb = NULL;
        Value *sp;
        int sn;
        st->show_sql = sb && !sg.too_long ? statement(&sg, sb, fetched, n, &sp, &sn) : NULL;
        if (sg.oom) {
            w->rc = -1;
            return NULL;
        }
    }
    st->sql = sql;
    st->n_params = n_params;
    st->params = params;
    st->fetched = want ? fetched : NULL;
    st->rows_est = -1;
    r->kind = LP_SQL;
    r->schema = p->schema;
    r->span = p->span;
    r->src = p->src;
    r->conn_def = (RelDef *)conn;
    r->stmt = st;
    r->pushed = p;
    const char *id, *what, *detail;
    bool spec = (p->kind == LP_IJOIN || p->kind == LP_ASOF) && bare_table(p->in[0]) && bare_table(p->in[1]);
    if (spec && p->kind == LP_IJOIN) {
        id = "PUSH-SQL-001", what = "Interval join pushed down to the database as one JOIN";
        detail = db_display(conn->conn);
    } else if (spec) {
        id = "PUSH-SQL-002", what = "AS-OF join pushed down to the database as one statement";
        detail = db_display(conn->conn);
    } else {
        StrBuf ops;
        sb_init(&ops);
        op_names(p, &ops);
        id = "PUSH-SQL-003", what = "Subtree pushed down to the database as one statement";
        detail = arena_printf(w->a, "%s over %d table%s of %s", ops.p ? ops.p : "", g.n_tables,
                              g.n_tables == 1 ? "" : "s", db_display(conn->conn));
        sb_free(&ops);
    }
    if (detail && g.why) detail = arena_printf(w->a, "%s: %s", detail, g.why);
    if (!detail || rw_log(w->a, w->log, id, what, detail) < 0) w->rc = -1;
    return r;
}

static void conjuncts(Expr *e, Expr **out, int *n) {
    if (e->kind == EX_BINARY && e->op == OP_AND) {
        conjuncts(e->args[0], out, n);
        conjuncts(e->args[1], out, n);
        return;
    }
    out[(*n)++] = e;
}

static int count_conjuncts(const Expr *e) {
    return e->kind == EX_BINARY && e->op == OP_AND ? count_conjuncts(e->args[0]) + count_conjuncts(e->args[1]) : 1;
}

/* σ p over the same input with the conjunction of the m conditions c (which come from p's own
 * condition); NULL on OOM. */
static LPlan *select_of(Walk *w, const LPlan *p, Expr **c, int m) {
    LPlan *s = arena_alloc(w->a, sizeof *s);
    if (!s) return NULL;
    *s = *p;
    s->pred = c[0];
    for (int i = 1; i < m; i++) {
        Expr *and_ = arena_alloc(w->a, sizeof *and_);
        Expr **args = arena_alloc(w->a, 2 * sizeof *args);
        if (!and_ || !args) return NULL;
        *and_ = (Expr){.kind = EX_BINARY, .type = TY_BOOL, .op = OP_AND, .span = rx_span_join(s->pred->span, c[i]->span),
                       .src = c[i]->src, .args = args, .n_args = 2};
        args[0] = s->pred;
        args[1] = c[i];
        s->pred = and_;
    }
    return s;
}

/* A σ whose condition has an SQL equivalent only in part: the conjuncts that have one go down
 * into the statement with the input, the others stay in a σ above it (σ a ∧ b is σ b (σ a)).
 * NULL when that does not push either. */
static LPlan *split_select(Walk *w, LPlan *p, const uint8_t *need) {
    int n = count_conjuncts(p->pred), n_down = 0, n_up = 0;
    Expr **all = arena_alloc(w->a, (size_t)n * sizeof *all), **down = arena_alloc(w->a, (size_t)n * sizeof *down),
         **up = arena_alloc(w->a, (size_t)n * sizeof *up);
    if (!all || !down || !up) {
        w->rc = -1;
        return NULL;
    }
    int k = 0;
    conjuncts(p->pred, all, &k);
    for (int i = 0; i < n; i++) {
        LPlan *one = select_of(w, p, &all[i], 1);
        Gen g;
        if (!one || !start_gen(w, one, &g)) {
            if (!one) w->rc = -1;
            return NULL;
        }
        bool pushes = gen(&g, one, NULL) && !g.too_long;
        if (g.oom) {
            w->rc = -1;
            return NULL;
        }
        if (pushes) down[n_down++] = all[i];
        else up[n_up++] = all[i];
    }
    if (!n_down || !n_up) return NULL;
    LPlan *below = select_of(w, p, down, n_down), *above = select_of(w, p, up, n_up);
    uint8_t *n_below = above ? rw_input_need(w->a, above, 0, need) : NULL;
    if (!below || !above || !n_below) {
        w->rc = -1;
        return NULL;
    }
    LPlan *q = try_push(w, below, n_below);
    if (!q) return NULL;
    above->in[0] = q;
    return above;
}

static LPlan *walk(Walk *w, LPlan *p, const uint8_t *need) {
    if (!p || w->rc < 0 || !reads_database(p)) return p;
    bool candidate = w->spec_only ? (p->kind == LP_IJOIN || p->kind == LP_ASOF) && bare_table(p->in[0]) && bare_table(p->in[1])
                                  : has_operator(p);
    if (candidate) {
        LPlan *r = try_push(w, p, need);
        if (!r && w->rc == 0 && !w->spec_only && p->kind == LP_SELECT) r = split_select(w, p, need);
        if (r || w->rc < 0) return r ? r : p;
    }
    LPlan *in[2] = {p->in[0], p->in[1]};
    for (int side = 0; side < 2; side++) {
        if (!p->in[side]) continue;
        uint8_t *n = rw_input_need(w->a, p, side, need);
        if (!n) {
            w->rc = -1;
            return p;
        }
        in[side] = walk(w, p->in[side], n);
    }
    if (in[0] == p->in[0] && in[1] == p->in[1]) return p;
    LPlan *c = arena_alloc(w->a, sizeof *c);
    if (!c) {
        w->rc = -1;
        return p;
    }
    *c = *p;
    c->in[0] = in[0];
    c->in[1] = in[1];
    return c;
}

LPlan *rw_pushsql(Arena *a, LPlan *p, bool spec_only, const RewriteOptions *opt, RewriteLog *log, int *rc) {
    if (!p || *rc < 0) return p;
    Walk w = {.a = a, .log = log, .spec_only = spec_only, .opt = opt};
    LPlan *r = walk(&w, p, NULL);
    if (w.rc < 0) *rc = -1;
    return r;
}
