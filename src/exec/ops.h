/*
 * ops.h - what the operator files of exec share (internal to src/exec).
 *
 * exec.c holds the driver, scans, σ, π and the interval and AS-OF joins; relops.c the rest of
 * the algebra: equi and theta joins with their outer, semi and anti forms, set operations, δ,
 * τ, TOP and γ.
 */
#ifndef RX_OPS_H
#define RX_OPS_H

#include "exec/keys.h"
#include "plan/plan.h"

/* exec.h: the run's context (exec.h includes nothing of the operator files). */
typedef struct ExecCtx ExecCtx;

int ops_oom(RxError *err);
/* The inputs of a join on equality keys and one matched column (ASOF, WJOIN): each row's
 * partition id from lp's keys into *kp (left untouched without keys), both match columns as
 * order-preserving int64 keys into *ks, and their validity bitmaps into *lv and *rv (NULL: all
 * valid). 0; -1 with err set, whatever was filled in stays for the caller to free. */
int ops_match_keys(const LPlan *lp, const Table *l, const Table *r, KeyParts *kp, KeySet *ks,
                   uint64_t **lv, uint64_t **rv, RxError *err);
/* When err is an out-of-memory error caused by the memory limit (rx_memory_limit_hit), rewrites
 * it to name operator p (its EXPLAIN label, at its source span), the limit, what p held of its
 * own (held bytes), the allocation refused and the run's peak in all, followed by hint when not NULL (what the user
 * can change, such as declaring an order). Returns -1 either way; any other error, and one
 * this has rewritten already (the operator's own call, with its hint, before run()'s), is
 * left as it is. */
int ops_budget_error(const PNode *p, size_t held, const char *hint, RxError *err);
int ops_check_interrupt(ExecCtx *x, RxError *err);
/* A table sharing every column of in, named by sc. NULL on OOM. */
Table *ops_shared_table(const Table *in, const Schema *sc);
/* Left columns gathered by li (NULL: all rows in order), right columns by ri (ROW_NONE gives
 * NULL), named by p's schema; a natural join outputs only its right_out columns. */
Table *ops_gather_join(const PNode *p, const Table *l, const Table *r, const uint32_t *li,
                       const uint32_t *ri, size_t n, RxError *err);
/* Rows i and j of one column hold the same value (NULL equals NULL). */
bool ops_cell_equal(const Column *c, size_t i, size_t j);
/* Consumes t; returns its distinct rows, first occurrences in order. */
Table *ops_dedup(Table *t, RxError *err);

/* σ over in (borrowed): a new table of the rows p's predicate keeps. */
Table *ops_select(ExecCtx *x, const PNode *p, Table *in, RxError *err);
/* The AS-OF and interval joins' matching, shared by the in-memory operators (exec.c) and the
 * out-of-core ones (ooc.c), which gather the output themselves. exec_asof_match: match[i] (the
 * caller's array of l->n_rows) is the right row matched to left row i, or ROW_NONE; it records
 * whether the inputs arrived sorted in x->stats and starts the progress step, which the
 * caller ends. exec_ijoin_pairs: every matching pair into *pairs (zeroed by the caller, freed
 * with ij_pairs_free also on failure), sorted by left row, then right row; it starts the
 * progress step too. Both return 0, or -1 with err. */
struct IjPairs;
int exec_asof_match(ExecCtx *x, const PNode *p, const Table *l, const Table *r, uint32_t *match,
                    RxError *err);
int exec_ijoin_pairs(ExecCtx *x, const PNode *p, const Table *l, const Table *r, struct IjPairs *pairs,
                     RxError *err);

Table *ops_join(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err);
Table *ops_setop(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err);
Table *ops_sort(ExecCtx *x, const PNode *p, Table *in, RxError *err);
/* The stable order of in's rows by the sort keys (NULLs and DESC as each key says), as a
 * permutation of n_rows row numbers that the caller frees with rx_free; NULL with err. */
uint32_t *ops_sort_order(ExecCtx *x, const SortKey *spec, int n_keys, const Table *in, RxError *err);
/* ω (window.c): in's columns, then one column per window function, rows in in's order. */
Table *ops_window(ExecCtx *x, const PNode *p, Table *in, RxError *err);
/* WJOIN (wjoin.c): l's columns, then one column per aggregate over each left row's window of
 * r's rows, rows in l's order. */
Table *ops_wjoin(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err);
/* FILL (window.c): one row per bucket per key from each key's first bucket to its last. */
Table *ops_fill(ExecCtx *x, const PNode *p, Table *in, RxError *err);
Table *ops_top(ExecCtx *x, const PNode *p, Table *in, RxError *err);
Table *ops_group(ExecCtx *x, const PNode *p, Table *in, RxError *err);
/* One γ aggregate ag (of lp's, which names it in errors) over the groups ids[i] < ng of in's
 * rows, in row order (first and last follow it): a new column of ng rows; NULL with err. */
Column *ops_aggregate(const LPlan *lp, const AggSpec *ag, const Table *in, const uint32_t *ids, uint32_t ng,
                      RxError *err);
/* PACK, GAPS, NORMALIZE, IMINUS and IINTERSECT (iset.c): r is NULL for the unary forms. */
Table *ops_iset(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err);

#endif
