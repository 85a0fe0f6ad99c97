/*
 * asof.h - the AS-OF join kernel of spec/asof-join.md: for each left (probe) row, the single
 * nearest right row by the match value, within the probe's partition.
 *
 * The kernel sees 64-bit keys (the executor maps every orderable type to order-preserving int64
 * keys, as for the interval join) and dense partition ids (equal ids = equal equality keys; the
 * executor computes them by hashing both sides' keys together).
 *
 * Directions: BACKWARD  L >= R  greatest R.val <= L.val
 *             BACKWARD_STRICT  L > R  greatest R.val < L.val
 *             FORWARD   L <= R  least R.val >= L.val
 *             FORWARD_STRICT   L < R  least R.val > L.val
 * Ties: among right rows sharing the nearest value, the last in input order (default) or the
 * first (ties_first). WITHIN: a candidate whose distance |L.val - R.val| exceeds `within` is
 * rejected (a distance equal to the bound is kept); the bound is in the keys' own unit.
 * Rows whose validity bit is clear (NULL key or NULL match value) never match; a left row that
 * is invalid gets ROW_NONE.
 * NEAREST (opt->nearest): the backward and the forward candidate, each found as above (ties and
 * WITHIN applied to each), and the one at the smaller distance kept; at equal distances the
 * side dir names wins.
 */
#ifndef RX_ASOF_H
#define RX_ASOF_H

#include "base/base.h"
#include "plan/engine.h"
#include "types/lang.h"

typedef struct {
    const int64_t *val;        /* match values, n rows */
    size_t n;
    const uint64_t *valid;     /* bit clear = never matches; NULL: all valid */
    const uint32_t *part;      /* partition id per row in [0, n_parts), or NULL: one partition */
} AsofSide;

typedef struct {
    AsofDir dir;
    bool ties_first;
    bool has_within;
    int64_t within;            /* >= 0, in the keys' unit */
    uint32_t n_parts;          /* when part is set */
    AsofAlgo algo;
    /* NEAREST: the nearer of the backward and the forward candidate. dir then says which side
     * wins equal distances (BACKWARD*: the earlier, FORWARD*: the later) and whether an equal
     * value may match (the non-strict directions; it counts on the winning side). */
    bool nearest;
} AsofOptions;

/* What the kernel did, for EXPLAIN and --timing. */
typedef struct {
    bool left_sorted, right_sorted;  /* input found already ordered by (part, val): sort skipped */
    AsofAlgo algo;                   /* the algorithm used */
} AsofStats;

/* match[i] = the right row matched by left row i, or ROW_NONE (from types/column.h:
 * UINT32_MAX). match has l->n entries, allocated by the caller. Returns 0, or -1 with err set
 * (RX_ENOMEM). */
int asof_join(const AsofSide *l, const AsofSide *r, const AsofOptions *opt, uint32_t *match,
              AsofStats *stats, RxError *err);

/* k nearest (ASOF k ..., TIES(ALL)): per left row up to k right rows, or under ties_all every
 * right row of the k nearest distinct values, in the direction(s) base names (base.nearest:
 * both, equal distances to the side base.dir names), within base's WITHIN bound, each with its
 * rank 1..k, nearest first. Rows of one value come one rank each, the last in input order first
 * (base.ties_first: the first), or all at one rank under ties_all. Invalid rows and partitions
 * as above; base.algo is not used (asof_k.c says how it runs). */
typedef struct {
    AsofOptions base;
    uint32_t k;                /* >= 1 */
    bool ties_all;
} AsofKOptions;

/* The matches, in left row order, then rank; arrays malloc'd, freed with asof_k_free. */
typedef struct {
    uint32_t *left, *right, *rank;
    size_t n, cap;
} AsofKOut;

/* Fills *out (which it clears first). Left rows without a match have no entry. 0, or -1 with
 * err set (RX_ENOMEM, RX_ELIMIT); *out is empty after a failure. */
int asof_k_join(const AsofSide *l, const AsofSide *r, const AsofKOptions *opt, AsofKOut *out,
                RxError *err);
void asof_k_free(AsofKOut *out);

/* The algorithm's name for messages and tests ("merge", "binary_search", ...); static. */
const char *asof_algo_name(AsofAlgo a);

#endif
