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
#include "plan/engine.h"
#include "types/lang.h"

typedef struct {
    const int64_t *s, *e;      /* start and end keys, n rows */
    size_t n;
    const uint64_t *valid;     /* bit clear = row has a NULL endpoint: never matches; NULL: all valid */
    const uint32_t *part;      /* partition id per row, or NULL for one partition */
} IjSide;

typedef struct IjPairs {
    uint32_t *left, *right;    /* malloc'd by the kernel; freed with ij_pairs_free */
    size_t n, cap;
} IjPairs;

void ij_pairs_free(IjPairs *p);

/* Computes every matching pair into *out, which the caller zero-initializes and frees with
 * ij_pairs_free, also on failure. With opt->set, the pairs for which some member of the set
 * holds, each once (rel is then ignored). Returns 0, or -1 with err set (RX_ENOMEM; RX_ELIMIT when the
 * result would exceed 2^32-1 rows). */
int ij_join(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
            IjPairs *out, RxError *err);

/* IJOIN SEMI and ANTI: hit[i] = 1 when left row i has at least one partner (with opt->set,
 * under some member), else 0, without listing pairs: O((n + m) log m) however many pairs there
 * are (IJ_ALGO_NESTED_LOOP: the reference loop, stopping at a row's first partner). hit has
 * l->n bytes. Returns 0, or -1 with err set (RX_ENOMEM, RX_ELIMIT). */
int ij_exists(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
              uint8_t *hit, RxError *err);

#endif
