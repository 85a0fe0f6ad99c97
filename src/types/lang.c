/*
 * lang.c - the names of the language's vocabulary (lang.h): scalar operators, built-in
 * functions, interval relations and AS-OF directions, and the interval relations' defining
 * endpoint predicates.
 *
 * Pure tables and switches: no allocation, no state. Lookups are case-insensitive over ASCII
 * and report "not found" with -1.
 */
#include "types/lang.h"

#include <stdio.h>
#include <string.h>

/* ---- scalar operators ----------------------------------------------------------------------- */

const char *op_text(AstOp op) {
    switch (op) {
    case OP_NEG: return "-";
    case OP_NOT: return "¬";
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_MOD: return "%";
    case OP_CONCAT: return "||";
    case OP_EQ: return "=";
    case OP_NE: return "≠";
    case OP_LT: return "<";
    case OP_LE: return "≤";
    case OP_GT: return ">";
    case OP_GE: return "≥";
    case OP_AND: return "∧";
    case OP_OR: return "∨";
    }
    return "?";
}

/* ---- built-in functions --------------------------------------------------------------------- */

/* The scalar functions in FuncId order, then the aggregates in lang_aggregate_index order. */
static const char *const function_names[FN_N_FUNCTIONS + LANG_N_AGGREGATES] = {
    "to_timestamp", "to_date", "to_time", "to_duration", "to_text", "to_int", "to_float",
    "coalesce", "abs", "round", "floor", "ceil", "lower", "upper", "length", "substr", "extract",
    "date_trunc", "time_bucket", "date_bin", "trim", "ltrim", "rtrim", "replace", "concat", "starts_with", "contains",
    "split_part", "sqrt", "power", "exp", "ln", "log10", "sign", "mod", "div", "greatest",
    "least", "nullif", "epoch", "to_seconds", "seconds", "make_timestamp", "now", "like", "ilike", "regexp_like", "regexp_replace", "strftime", "strptime",
    "at_time_zone", "to_utc_timestamp",
    "count", "sum", "avg", "min", "max", "first", "last", "stddev", "stddev_pop", "variance",
    "var_pop", "median", "quantile", "string_agg", "arg_min", "arg_max", "bool_and", "bool_or",
};

static int lower_ascii(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* The index in function_names[lo, hi) of the name s[0..n), or -1. */
static int find_function(const char *s, size_t n, int lo, int hi) {
    for (int f = lo; f < hi; f++) {
        const char *name = function_names[f];
        if (strlen(name) != n) continue;
        size_t i = 0;
        while (i < n && lower_ascii((unsigned char)s[i]) == name[i]) i++;
        if (i == n) return f;
    }
    return -1;
}

const char *lang_function_name(FuncId f) {
    return (unsigned)f < FN_N_FUNCTIONS ? function_names[f] : "?";
}

int lang_function_from_name(const char *s, size_t n, FuncId *out) {
    int f = find_function(s, n, 0, FN_N_FUNCTIONS);
    if (f < 0) return -1;
    *out = (FuncId)f;
    return 0;
}

int lang_aggregate_index(const char *s, size_t n) {
    int f = find_function(s, n, FN_N_FUNCTIONS, FN_N_FUNCTIONS + LANG_N_AGGREGATES);
    return f < 0 ? -1 : f - FN_N_FUNCTIONS;
}

const char *lang_name_at(int i) { return i >= 0 && i < LANG_N_NAMES ? function_names[i] : "?"; }

bool lang_is_function(const char *s, size_t n) {
    return find_function(s, n, 0, FN_N_FUNCTIONS + LANG_N_AGGREGATES) >= 0;
}

/* ---- window functions ----------------------------------------------------------------------- */

static const char *const window_names[WIN_N_FUNCTIONS] = {
    "row_number", "rank", "dense_rank", "lag", "lead", "first_value", "last_value",
    "count", "sum", "avg", "min", "max",
};

const char *lang_window_name(WinFn f) {
    return (unsigned)f < WIN_N_FUNCTIONS ? window_names[f] : "?";
}

int lang_window_from_name(const char *s, size_t n, WinFn *out) {
    for (int f = 0; f < WIN_N_FUNCTIONS; f++) {
        const char *name = window_names[f];
        if (strlen(name) != n) continue;
        size_t i = 0;
        while (i < n && lower_ascii((unsigned char)s[i]) == name[i]) i++;
        if (i == n) {
            *out = (WinFn)f;
            return 0;
        }
    }
    return -1;
}

/* ---- relations ------------------------------------------------------------------------------ */

static const char *const relation_names[IJ_N_RELATIONS] = {
    "INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS",      "MET_BY",
    "OVERLAPS",   "OVERLAPPED_BY", "STARTS", "STARTED_BY", "DURING",
    "CONTAINS",   "FINISHES", "FINISHED_BY", "EQUALS", "COVERS", "COVERED_BY",
};

const char *ij_relation_name(IjRelation r) {
    return (unsigned)r < IJ_N_RELATIONS ? relation_names[r] : "?";
}

static int upper_ascii(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

int ij_relation_from_name(const char *s, size_t n, IjRelation *out) {
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        const char *name = relation_names[r];
        if (strlen(name) != n) continue;
        size_t i = 0;
        while (i < n && upper_ascii((unsigned char)s[i]) == name[i]) i++;
        if (i == n) {
            *out = (IjRelation)r;
            return 0;
        }
    }
    return -1;
}

IjRelation ij_converse(IjRelation r) {
    switch (r) {
    case IJ_INTERSECTS: return IJ_INTERSECTS;
    case IJ_PRECEDES: return IJ_PRECEDED_BY;
    case IJ_PRECEDED_BY: return IJ_PRECEDES;
    case IJ_MEETS: return IJ_MET_BY;
    case IJ_MET_BY: return IJ_MEETS;
    case IJ_OVERLAPS: return IJ_OVERLAPPED_BY;
    case IJ_OVERLAPPED_BY: return IJ_OVERLAPS;
    case IJ_STARTS: return IJ_STARTED_BY;
    case IJ_STARTED_BY: return IJ_STARTS;
    case IJ_DURING: return IJ_CONTAINS;
    case IJ_CONTAINS: return IJ_DURING;
    case IJ_FINISHES: return IJ_FINISHED_BY;
    case IJ_FINISHED_BY: return IJ_FINISHES;
    case IJ_EQUALS: return IJ_EQUALS;
    case IJ_COVERS: return IJ_COVERED_BY;
    case IJ_COVERED_BY: return IJ_COVERS;
    case IJ_N_RELATIONS: break;
    }
    return r;
}

bool ij_holds(IjRelation r, int64_t ls, int64_t le, int64_t rs, int64_t re) {
    switch (r) {
    case IJ_INTERSECTS: return ls < re && rs < le;
    case IJ_PRECEDES: return le < rs;
    case IJ_PRECEDED_BY: return ls > re;
    case IJ_MEETS: return le == rs;
    case IJ_MET_BY: return ls == re;
    case IJ_OVERLAPS: return ls < rs && le > rs && le < re;
    case IJ_OVERLAPPED_BY: return rs < ls && re > ls && re < le;
    case IJ_STARTS: return ls == rs && le < re;
    case IJ_STARTED_BY: return ls == rs && re < le;
    case IJ_DURING: return rs < ls && le < re;
    case IJ_CONTAINS: return ls < rs && re < le;
    case IJ_FINISHES: return le == re && rs < ls;
    case IJ_FINISHED_BY: return le == re && ls < rs;
    case IJ_EQUALS: return ls == rs && le == re;
    case IJ_COVERS: return ls <= rs && re <= le;
    case IJ_COVERED_BY: return rs <= ls && le <= re;
    case IJ_N_RELATIONS: break;
    }
    return false;
}

bool ij_holds_set(IjRelSet set, int64_t ls, int64_t le, int64_t rs, int64_t re) {
    for (int r = 0; r < IJ_N_RELATIONS; r++)
        if ((set >> r & 1) && ij_holds((IjRelation)r, ls, le, rs, re)) return true;
    return false;
}

IjRelation ij_set_relation(IjRelSet set) {
    /* Every predicate compares the four endpoints with < and = only, so it is decided by their
     * order pattern; values 0..3 give every pattern of four endpoints. */
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        bool same = true;
        for (int v = 0; v < 256 && same; v++) {
            int64_t ls = v & 3, le = v >> 2 & 3, rs = v >> 4 & 3, re = v >> 6 & 3;
            same = ij_holds((IjRelation)r, ls, le, rs, re) == ij_holds_set(set, ls, le, rs, re);
        }
        if (same) return (IjRelation)r;
    }
    return IJ_N_RELATIONS;
}

const char *ij_set_name(IjRelSet set, char *buf, size_t n) {
    size_t k = 0;
    if (n == 0) return buf;
    buf[0] = 0;
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        if (!(set >> r & 1)) continue;
        int w = snprintf(buf + k, n - k, "%s%s", k ? " | " : "(", relation_names[r]);
        if (w < 0 || (size_t)w >= n - k) return buf;
        k += (size_t)w;
    }
    if (k + 1 < n) buf[k] = ')', buf[k + 1] = 0;
    return buf;
}

/* ---- AS-OF directions ----------------------------------------------------------------------- */

const char *asof_dir_name(AsofDir dir) {
    switch (dir) {
    case ASOF_BACKWARD: return "backward";
    case ASOF_BACKWARD_STRICT: return "backward/strict";
    case ASOF_FORWARD: return "forward";
    case ASOF_FORWARD_STRICT: return "forward/strict";
    }
    return "?";
}
