/*
 * engine.h - the physical algorithms of the two temporal joins, as the planner chooses them and
 * the kernels (exec/ijoin.h, exec/asof.h) run them. Apart from plan.h so that a kernel's header
 * needs only this and types/lang.h.
 */
#ifndef RX_ENGINE_H
#define RX_ENGINE_H

#include "base/base.h"
#include "types/lang.h"

typedef enum {
    IJ_ALGO_AUTO = 0,     /* the kernel chooses (the default) */
    IJ_ALGO_NESTED_LOOP,  /* the O(n*m) reference loop: tests and the planner switch only */
    IJ_ALGO_FAST,         /* the output-sensitive algorithm of the relation, never the loop */
    IJ_ALGO_SET_SCAN,     /* a set of relations by its box scan even when the box is wide: tests */
    IJ_ALGO_SET_MEMBERS   /* a set of relations member by member: tests */
} IjAlgo;

typedef struct {
    IjAlgo algo;
    uint32_t n_parts;          /* number of distinct partition ids when part is set */
    IjRelSet set;              /* a set of relations (IJOIN (R1 | R2)), the relation argument
                                * then ignored; 0: the one relation */
} IjOptions;

typedef enum {
    ASOF_ALGO_AUTO = 0,        /* the kernel chooses */
    ASOF_ALGO_NESTED_LOOP,     /* reference O(n*m) scan: tests and the planner switch only */
    ASOF_ALGO_BINARY_SEARCH,   /* sort right per partition, binary-search each probe */
    ASOF_ALGO_MERGE            /* sort both per partition, one merge pass */
} AsofAlgo;

/* The interval-join engine that runs rel under opt (opt NULL: the defaults); the executor's
 * kernel dispatches on it (docs/ijoin.md describes each). */
typedef enum { ENG_NESTED, ENG_EQ, ENG_BAND, ENG_DOM, ENG_RANGE, ENG_SWEEP, ENG_SET } IjEngine;
IjEngine ij_engine(IjRelation rel, const IjOptions *opt);

/* A short description of the algorithm ij_join uses for rel under opt, for EXPLAIN
 * ("sweep", "band", "hash+range", "nested loop", ...): deterministic, no addresses. */
const char *ij_strategy(IjRelation rel, const IjOptions *opt);

#endif
