/*
 * lang.h - the language's vocabulary: the enums every stage shares and the names the language
 * spells them with (scalar operators, built-in functions, the fourteen interval relations, the
 * AS-OF directions).
 *
 * One home for each name, so that the parser, the analyzer, the SQL generator, the planner's
 * EXPLAIN and the executor's messages spell a relation or an operator the same way. Depends on
 * base.h only; nothing here allocates or fails except the lookups, which report "not found".
 */
#ifndef RX_LANG_H
#define RX_LANG_H

#include "base/base.h"

/* ---- scalar operators ----------------------------------------------------------------------- */

typedef enum {
    OP_NEG, OP_NOT,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_CONCAT,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_AND, OP_OR
} AstOp;

/* The operator as the language prints it in messages ("+", "≤", "∧"); "?" for no operator.
 * A static string. */
const char *op_text(AstOp op);

/* ---- built-in functions (docs/functions.md) ------------------------------------------------- */

typedef enum {
    FN_TO_TIMESTAMP, FN_TO_DATE, FN_TO_TIME, FN_TO_DURATION, FN_TO_TEXT, FN_TO_INT,
    FN_TO_FLOAT, FN_COALESCE, FN_ABS, FN_ROUND, FN_FLOOR, FN_CEIL, FN_LOWER, FN_UPPER,
    FN_LENGTH, FN_SUBSTR, FN_EXTRACT, FN_DATE_TRUNC,
    /* time series (docs/functions.md, "Buckets") */
    FN_TIME_BUCKET, FN_DATE_BIN,
    FN_TRIM, FN_LTRIM, FN_RTRIM, FN_REPLACE, FN_CONCAT, FN_STARTS_WITH, FN_CONTAINS,
    FN_SPLIT_PART, FN_SQRT, FN_POWER, FN_EXP, FN_LN, FN_LOG10, FN_SIGN, FN_MOD, FN_DIV,
    FN_GREATEST, FN_LEAST, FN_NULLIF, FN_EPOCH, FN_TO_SECONDS, FN_SECONDS, FN_MAKE_TIMESTAMP,
    FN_NOW, FN_LIKE, FN_ILIKE, FN_REGEXP_LIKE, FN_REGEXP_REPLACE, FN_STRFTIME, FN_STRPTIME,
    /* time zones (docs/functions.md, "Time zones") */
    FN_AT_TIME_ZONE, FN_TO_UTC_TIMESTAMP
} FuncId;
#define FN_N_FUNCTIONS (FN_TO_UTC_TIMESTAMP + 1)

/* The aggregate functions by name, in the order lang_aggregate_index numbers them. */
#define LANG_N_AGGREGATES 18

/* "to_timestamp", "abs", ... as the language spells them (lower case); "?" for no function. */
const char *lang_function_name(FuncId f);
/* Case-insensitive lookup of the scalar function named s[0..n): 0 with *out set, or -1. */
int lang_function_from_name(const char *s, size_t n, FuncId *out);
/* Case-insensitive lookup of an aggregate name s[0..n) (count, sum, avg, min, max, first, last,
 * stddev, stddev_pop, variance, var_pop, median, quantile, string_agg, arg_min, arg_max,
 * bool_and, bool_or): its index in that order, or -1. */
int lang_aggregate_index(const char *s, size_t n);
/* Whether s[0..n) names a built-in function, scalar or aggregate (case-insensitive). Window
 * functions are not: they are calls only in ω's list, and `rank (R)` stays a column and an
 * operand elsewhere. */
bool lang_is_function(const char *s, size_t n);
/* The i-th name of every built-in function and aggregate, 0 <= i < LANG_N_NAMES (for
 * suggestions: the nearest name to a misspelt one). */
#define LANG_N_NAMES (FN_N_FUNCTIONS + LANG_N_AGGREGATES)
const char *lang_name_at(int i);

/* ---- window functions (ω, docs/operators.md) ------------------------------------------------ */

typedef enum {
    WIN_ROW_NUMBER, WIN_RANK, WIN_DENSE_RANK, WIN_LAG, WIN_LEAD, WIN_FIRST_VALUE,
    WIN_LAST_VALUE, WIN_COUNT, WIN_SUM, WIN_AVG, WIN_MIN, WIN_MAX,
    WIN_N_FUNCTIONS
} WinFn;

/* "row_number", "lag", "sum", ... as the language spells them; "?" for no window function. */
const char *lang_window_name(WinFn f);
/* Case-insensitive lookup of a window function named s[0..n) (the aggregates count, sum, avg,
 * min and max included): 0 with *out set, or -1. */
int lang_window_from_name(const char *s, size_t n, WinFn *out);

/* ---- interval relations (spec/interval-join.md) --------------------------------------------- */

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
    /* Non-strict, beyond Allen's thirteen: SQL:2011's CONTAINS and its converse. */
    IJ_COVERS,          /* ls <= rs and re <= le */
    IJ_COVERED_BY,      /* rs <= ls and le <= re */
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

/* A set of relations, bit r for IjRelation r: IJOIN (PRECEDES | MEETS) holds for a pair when
 * any member does. 0 is no set (a single relation). */
typedef uint32_t IjRelSet;
#define IJ_SET_OF(r) ((IjRelSet)1u << (r))
/* Whether some member of set holds (the disjunction of the members' predicates). */
bool ij_holds_set(IjRelSet set, int64_t ls, int64_t le, int64_t rs, int64_t re);
/* The relation whose predicate equals the disjunction of set's for every four endpoints (empty
 * and inverted intervals included), or IJ_N_RELATIONS when none does. A one-member set is its
 * member; {CONTAINS, STARTED_BY, FINISHED_BY, EQUALS} is COVERS. */
IjRelation ij_set_relation(IjRelSet set);
/* "(PRECEDES | MEETS)", members in the enum's order, into buf (truncated to n bytes); buf. */
const char *ij_set_name(IjRelSet set, char *buf, size_t n);

/* ---- AS-OF directions (spec/asof-join.md) --------------------------------------------------- */

/* BACKWARD L >= R, BACKWARD_STRICT L > R, FORWARD L <= R, FORWARD_STRICT L < R. */
typedef enum { ASOF_BACKWARD, ASOF_BACKWARD_STRICT, ASOF_FORWARD, ASOF_FORWARD_STRICT } AsofDir;

/* "backward", "backward/strict", "forward", "forward/strict" as EXPLAIN prints them. */
const char *asof_dir_name(AsofDir dir);

#endif
