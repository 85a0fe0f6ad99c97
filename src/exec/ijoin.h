/*
 * ijoin.h - the interval-join kernel: which (left row, right row) pairs satisfy one of the
 * fourteen interval relations of spec/interval-join.md.
 *
 * The kernel sees only 64-bit keys: the executor maps every endpoint type to int64 keys that
 * preserve order and equality (INT, TIMESTAMP, TIME as they are; DATE widened; FLOAT through
 * its order-preserving bit pattern; TEXT through dense ranks over both sides), so one set of
 * algorithms serves every type. Endpoint predicates are applied exactly as the spec's table
 * states them, for every row, including empty (s = e) and inverted (s > e) intervals.
 *
 * Output: pairs sorted by left row, then right row (the language's defined order: left input
 * order, then right input order). Rows whose validity bit is clear (a NULL endpoint) never
 * match. With partition ids, only rows with equal ids pair (the planner's fused equality keys).
 */
#ifndef RX_IJOIN_H
#define RX_IJOIN_H

#include "base/base.h"

typedef enum {
    IJ_INTERSECTS,
    IJ_PRECEDES,
    IJ_PRECEDED_BY,
    IJ_MEETS,
    IJ_MET_BY,
    IJ_OVERLAPS,
    IJ_OVERLAPPED_BY,
    IJ_STARTS,
    IJ_STARTED_BY,
    IJ_DURING,
    IJ_CONTAINS,
    IJ_FINISHES,
    IJ_FINISHED_BY,
    IJ_EQUALS,
    IJ_N_RELATIONS
} IjRelation;

/* "INTERSECTS", "PRECEDES", ... as the language spells them. */
const char *ij_relation_name(IjRelation r);
/* Case-insensitive keyword lookup; -1 if s[0..n) names no relation. */
int ij_relation_from_name(const char *s, size_t n, IjRelation *out);
/* The converse relation (X <-> X_BY; INTERSECTS and EQUALS are their own). */
IjRelation ij_converse(IjRelation r);
/* The endpoint predicate itself, the oracle every algorithm must agree with. */
bool ij_holds(IjRelation r, int64_t ls, int64_t le, int64_t rs, int64_t re);

typedef struct {
    const int64_t *s, *e;      /* start and end keys, n rows */
    size_t n;
    const uint64_t *valid;     /* bit clear = row has a NULL endpoint: never matches; NULL: all valid */
    const uint32_t *part;      /* partition id per row, or NULL for one partition */
} IjSide;

typedef enum {
    IJ_ALGO_AUTO = 0,     /* the kernel chooses (the default) */
    IJ_ALGO_NESTED_LOOP,  /* the O(n*m) reference loop: tests and the planner switch only */
    IJ_ALGO_FAST          /* the output-sensitive algorithm of the relation, never the loop */
} IjAlgo;

typedef struct {
    IjAlgo algo;
    uint32_t n_parts;          /* number of distinct partition ids when part is set */
} IjOptions;

typedef struct {
    uint32_t *left, *right;    /* malloc'd by the kernel; freed with ij_pairs_free */
    size_t n, cap;
} IjPairs;

void ij_pairs_free(IjPairs *p);

/* Computes every matching pair into *out (which the caller zero-initializes and frees with
 * ij_pairs_free, also on failure). Returns 0, or -1 with err set (RX_ENOMEM; RX_ELIMIT when the
 * result would exceed 2^32-1 rows). */
int ij_join(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
            IjPairs *out, RxError *err);

/* A short description of the algorithm ij_join uses for rel under opt, for EXPLAIN
 * ("sweep", "band", "hash+range", "nested loop", ...): deterministic, no addresses. */
const char *ij_strategy(IjRelation rel, const IjOptions *opt);

#endif
