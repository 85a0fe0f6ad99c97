/*
 * plan.h - the fourth stage: logical plan -> physical plan, with row estimates.
 *
 * The physical plan is what --explain prints and what exec runs: one PNode per operator, each
 * pointing at its (read-only) logical node for schemas and expressions, with the algorithm
 * chosen and the estimated row count. Estimates come from statistics of the base columns
 * (row counts, distinct counts sampled cheaply) and the usual selectivity formulas.
 */
#ifndef RX_PLAN_H
#define RX_PLAN_H

#include "analysis/analysis.h"
#include "plan/engine.h"
#include "types/lang.h"

typedef enum {
    PN_SCAN, PN_SELECT, PN_PROJECT, PN_RENAME, PN_IJOIN, PN_ASOF,
    PN_HASHJOIN, PN_LOOPJOIN, PN_SETOP, PN_DISTINCT, PN_SORT, PN_TOP, PN_GROUP, PN_SQL,
    PN_ISET,
    PN_WINDOW, PN_FILL,
    PN_WJOIN
} PnKind;

/* Planner switches, to force each physical algorithm (tests compare them with each other). */
typedef struct {
    IjAlgo ijoin_algo;
    AsofAlgo asof_algo;
    bool no_hashjoin;     /* run equi-joins as nested loops (to check one against the other) */
    bool no_prune;        /* carry every column (with the optimizer off) */
    /* Called for every scan once the planner knows which of its columns are used (needed:
     * NULL = all), before estimates read them: loads a lazily read source's columns. */
    int (*load_columns)(void *ud, const LPlan *scan, const uint8_t *needed, RxError *err);
    void *load_ud;
} PlanOptions;

typedef struct PNode PNode;
struct PNode {
    PnKind kind;
    const LPlan *lp;
    PNode *in[2];
    double rows;          /* estimated output rows */
    IjAlgo ij_algo;
    AsofAlgo asof_algo;
    uint8_t *needed;      /* per output column: does an operator above read it? NULL: all */
    int n_needed;         /* how many are */
    int id;               /* 0..plan_nodes()-1 in EXPLAIN order: indexes the run-time state */
};

/* Builds the physical plan of lp in arena a. -1 only when out of memory. Unless opt->no_prune,
 * marks on every node which output columns an operator above reads, so that gathers skip the
 * others (projection pruning, PRUNE-001); *pruned counts the operators that carry fewer
 * columns for it. */
PNode *plan_build(Arena *a, const LPlan *lp, const PlanOptions *opt, int *pruned, RxError *err);

/* Appends the plan tree, one operator per line ("Name detail  ~N rows"), children drawn with
 * ├─ └─ │ as the spec shows. */
void plan_explain(const PNode *p, StrBuf *out);

/* One line of the plan as plan_explain prints it: the tree drawn before the operator ("│  └─ ",
 * "" for the root), the operator's label with its column notes ("Scan t (reads 2 of 5
 * columns)"), and the estimate as printed after '~'. The strings live until fn returns. */
typedef struct {
    const PNode *node;
    const char *tree;
    const char *label;
    long long rows_est;
} PlanLine;
typedef void (*PlanLineFn)(void *ud, const PlanLine *line);
/* Calls fn for every operator of p in EXPLAIN order (depth first, inputs in order), so that a
 * report shows exactly the lines EXPLAIN prints. */
void plan_lines(const PNode *p, PlanLineFn fn, void *ud);

/* The number of operators of a plan plan_build returned (their ids are 0 to this - 1). */
int plan_nodes(const PNode *p);

/* The operator's label without the estimate: "Scan Requests", "IntervalJoin INTERSECTS
 * [2,3;2,3]", "AsOfJoin backward/inner/within PT5M". */
void plan_label(const PNode *p, StrBuf *out);

/* The estimate as printed: ~N with N at least 1 when the input has rows. */
long long plan_rows_printed(double rows);

#endif
