/*
 * engine.c - the planner's choice of interval-join engine (plan.h): which of the kernel's
 * engines runs a relation, and its name for EXPLAIN. The kernel (exec/ijoin.c) dispatches on
 * ij_engine, so EXPLAIN names exactly what runs. Pure functions of their arguments.
 */
#include "plan/engine.h"

IjEngine ij_engine(IjRelation rel, const IjOptions *opt) {
    if (opt && opt->algo == IJ_ALGO_NESTED_LOOP) return ENG_NESTED;
    if (opt && opt->set) return ENG_SET;
    switch (rel) {
    case IJ_INTERSECTS: return ENG_SWEEP;
    case IJ_PRECEDES:
    case IJ_PRECEDED_BY: return ENG_BAND;
    case IJ_MEETS:
    case IJ_MET_BY:
    case IJ_STARTS:
    case IJ_STARTED_BY:
    case IJ_FINISHES:
    case IJ_FINISHED_BY:
    case IJ_EQUALS: return ENG_EQ;
    case IJ_OVERLAPS:
    case IJ_OVERLAPPED_BY: return ENG_RANGE;
    case IJ_DURING:
    case IJ_CONTAINS:
    case IJ_COVERS:
    case IJ_COVERED_BY: return ENG_DOM;
    case IJ_N_RELATIONS: break;
    }
    return ENG_NESTED;
}

const char *ij_strategy(IjRelation rel, const IjOptions *opt) {
    switch (ij_engine(rel, opt)) {
    case ENG_NESTED: return "nested loop";
    case ENG_EQ: return (rel == IJ_MEETS || rel == IJ_MET_BY) ? "endpoint merge"
                                                              : "endpoint merge+range";
    case ENG_BAND: return "band";
    case ENG_DOM: return "dominance sweep";
    case ENG_RANGE: return "range scan";
    case ENG_SWEEP: return "sweep";
    case ENG_SET: return "relation set: box scan, or member by member when the box is wide";
    }
    return "nested loop";
}
