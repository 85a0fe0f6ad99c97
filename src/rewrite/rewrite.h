/*
 * rewrite.h - the third stage: logical plan -> logical plan, plus the list of rewrites applied.
 *
 * Each rewrite has an ID and a one-line description, printed by --explain under "Rewrites
 * applied" in the order they were applied. A rewrite never mutates a node it did not create:
 * view bodies are shared between every query that references the view.
 */
#ifndef RX_REWRITE_H
#define RX_REWRITE_H

#include "analysis/analysis.h"

typedef struct {
    const char *id;       /* "INLINE-001" */
    const char *what;     /* "View body inlined into the referencing query" */
    const char *detail;   /* "view 'Conflicts' inlined" */
} RewriteEntry;

typedef struct {
    RewriteEntry *items;
    size_t n, cap;
} RewriteLog;

/* The SQL form a pushed AS-OF or interval join takes (docs/connect.md, "Pushdown forms"):
 * PUSH_AUTO lets the cost model choose, between the forms and pulling the inputs; the others
 * force one form wherever it applies (for the tests and the benchmarks). */
typedef enum {
    PUSH_AUTO,
    PUSH_WINDOW,          /* ASOF: one sorted pass over both inputs (window functions) */
    PUSH_LATERAL,         /* ASOF: a LATERAL ... ORDER BY ... LIMIT 1 subquery per left row */
    PUSH_BINNED,          /* IJOIN: an equi-join on (key, bin) of the intervals' fixed-width bins */
    PUSH_PLAIN            /* IJOIN: the endpoint predicate as the join condition */
} PushForm;

typedef struct {
    bool no_optimize;     /* only inline views (INLINE-001): the optimizer's differential test */
    bool no_pushdown;     /* run every operator in the engine (the pushdown's differential test) */
    PushForm push_form;   /* PUSH_AUTO, or the form forced */
    const char *show_dialect; /* NULL, or the name of a dialect (sqlgen.h) whose SQL EXPLAIN shows
                               * next to the statement run: "trino", "spark", "citus" ... */
} RewriteOptions;

/* Applies every rewrite to *root (new nodes come from arena a) and appends what it did to log
 * (entries in the arena). -1 with err only when out of memory. The rewrites:
 *   INLINE-001  a view reference becomes the view's body under a rename (inline.c)
 *   FOLD-001    a constant expression is computed once (optimize.c, as all below)
 *   FOLD-002    a condition that is always true is removed
 *   PUSH-001    a selection moves below a rename
 *   PUSH-002    a selection moves below a projection of plain columns
 *   PUSH-003    a selection on one side of a join moves into that input
 *   FUSE-001    an equality between the two sides of an interval join becomes its partition key
 *   FUSE-002    a condition over both sides of a join or product becomes the join's condition
 *               (equalities as hash keys)
 *   IJOIN-001   a join (inner, left, semi, anti) whose condition holds endpoint inequalities of
 *               an interval relation becomes that IJOIN, its equalities partition keys
 *   ASOF-001    a γ of the greatest (least) right time over an inner join of keys and one
 *               inequality becomes that γ over ASOF INNER, where provably equal
 *   PUSH-SQL-001 an interval join over two tables of one connection runs as one statement
 *   PUSH-SQL-002 an AS-OF join over two tables of one connection runs as one statement
 *               (these two apply with the optimizer off too: they are the spec's behaviour)
 *   PUSH-SQL-003 any other subtree of σ π ρ δ ⨝ γ τ TOP IJOIN ASOF ω over tables of one
 *               connection runs as one statement, as far as it has an exact SQL equivalent,
 *               fetching only the columns read above
 *   PUSH-SQL-004 an AS-OF or interval join stays in the engine, its inputs pulled, because
 *               the cost model finds that cheaper than pushing it (pushsql.c)
 *   PUSH-SQL-005 an AS-OF, interval or window join stays in the engine because it has no exact
 *               form in the connection's SQL (ASOF NEAREST, k nearest, WITHIN over DURATIONs,
 *               WJOIN)
 *   PUSH-SQL-006 an ω stays in the engine because one of its window functions has no exact
 *               form in the connection's SQL (the detail names it) */
int rw_apply(Arena *a, LPlan **root, const RewriteOptions *opt, RewriteLog *log, RxError *err);

/* Internal to the stage: appends an entry; -1 on OOM. */
int rw_log(Arena *a, RewriteLog *log, const char *id, const char *what, const char *detail);
LPlan *rw_optimize(Arena *a, LPlan *p, RewriteLog *log, int *rc);
/* spec_only: the optimizer is off, and only the spec's two pushdowns apply (PUSH-SQL-001 and
 * -002, over bare tables, every column fetched). */
LPlan *rw_pushsql(Arena *a, LPlan *p, bool spec_only, const RewriteOptions *opt, RewriteLog *log, int *rc);

/* ---- projection pruning's rule, PRUNE-001 (needed.c) ---- */

/* Which columns of p->in[side] (side 0 or 1; that input must exist) p reads or passes up,
 * given that the operators above p read the output columns marked in out (out[i] != 0;
 * NULL: every column). Returns an array of p->in[side]->schema.n flags (1: needed, 0: not),
 * allocated in a (at least one byte); NULL only when out of memory. A node without a rule of
 * its own (set operations, δ) needs every input column. The planner and the SQL pushdown both
 * use it, so what a pushed statement fetches is what the engine would carry. */
uint8_t *rw_input_need(Arena *a, const LPlan *p, int side, const uint8_t *out);

#endif
