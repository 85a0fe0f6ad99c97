/*
 * sqlgen.h - the SQL dialects a pushed-down statement is written in, and the text-level pieces
 * of that statement: type names, operators, parameter marks, the bytewise collation, ORDER BY
 * items, the interval join's predicate and bins, and the AS-OF join's lateral form. Besides
 * the dialects Relix runs (SQLite, PostgreSQL) there are tables for engines without a server
 * here, whose SQL is only shown (Citus, Greenplum, Redshift, Spark SQL, Trino).
 *
 * What is pushed down, and how a subtree becomes blocks of SQL, is decided above (rewrite/
 * pushsql.c); it asks the dialect table below what the database can do exactly and lets the
 * functions here spell it. A new dialect is one more table, not new branches in the rewrite.
 * MariaDB and MySQL have tables too (their connections are in connect/mariadb.c), and so has H2
 * (the spec's GENERIC dialect; connect/h2.c).
 */
#ifndef RX_SQLGEN_H
#define RX_SQLGEN_H

#include "base/base.h"
#include "connect/connect.h"
#include "types/lang.h"
#include "types/value.h"

/* How a dialect expands a row into one row per bin number b0..b1 (the binned interval join). */
typedef enum {
    SERIES_NONE,       /* no way: the binned form is not available */
    SERIES_GENERATE,   /* FROM x CROSS JOIN generate_series(x.b0, x.b1) AS g(b) */
    SERIES_RECURSIVE,  /* a recursive CTE counting from b0 to b1 */
    SERIES_EXPLODE,    /* FROM x LATERAL VIEW explode(sequence(x.b0, x.b1)) g AS b (Spark SQL) */
    SERIES_UNNEST      /* FROM x CROSS JOIN UNNEST(sequence(x.b0, x.b1)) AS g(b) (Trino) */
} SqlSeries;

/* How a dialect carries a whole row as one value through last_value(... IGNORE NULLS), the
 * sorted-pass AS-OF join's one-window form: the matched right row arrives whole, NULLs and all. */
typedef enum {
    STRUCT_NONE,       /* no such value or no IGNORE NULLS: the group's first row by a second window */
    STRUCT_PACK,       /* struct_pack(f := x, ...), struct_extract(s, 'f'), last_value(s IGNORE NULLS) (DuckDB) */
    STRUCT_ROW,        /* CAST(ROW(x, ...) AS ROW(f type, ...)), s.f, last_value(s) IGNORE NULLS (Trino) */
    STRUCT_NAMED       /* named_struct('f', x, ...), s.f, last(s, true) (Spark SQL) */
} SqlStruct;

/* How a dialect keeps the first n rows of an ordered SELECT. */
typedef enum {
    LIMIT_LIMIT,       /* ... ORDER BY ... LIMIT n */
    LIMIT_TOP,         /* SELECT TOP n ... ORDER BY ... (SQL Server) */
    LIMIT_FETCH        /* ... ORDER BY ... FETCH FIRST n ROWS ONLY (Db2, the SQL standard) */
} SqlLimit;

/* One dialect's choices. A false flag or NULL name means "has no exact equivalent": what needs
 * it stays in the engine (a table leaves such fields out). */
typedef struct {
    const char *name;                       /* "SQLite", "PostgreSQL" */
    char quote;               /* quotes identifiers: '"', '`' (Spark SQL) or '[' (SQL Server) */
    char quote_end;           /* closes them when not quote itself: ']'; doubled inside */
    /* the type a value of each Relix type is computed and CAST as; NULL: a pushed expression
     * may not compute with that type */
    const char *type_names[TY_DURATION + 1];
    bool typed_literals;      /* NULL and parameters are written CAST(... AS type) */
    char param_mark;          /* parameter n is written <param_mark>n: '$' or '?' */
    const char *param_prefix; /* else <param_prefix>n: "@P" (SQL Server), ":p" (Db2's named markers) */
    SqlLimit limit;           /* how the first n rows are kept */
    bool nulls_case;          /* ORDER BY has no NULLS FIRST/LAST: a CASE on IS NULL comes first */
    bool apply;               /* the AS-OF join's correlated subquery is OUTER APPLY / CROSS APPLY */
    const char *on_true;      /* the always-true join condition; NULL: "TRUE" */
    bool bool_case;           /* a predicate is no value (T-SQL): a computed BOOL item is a CASE giving 1,
                               * 0 or NULL */
    const char *collate_bytes;  /* the clause after "(expr)" that compares text bytewise */
    const char *bytes_form;   /* else a printf format of text as a value that compares and orders
                               * by the text's UTF-8 bytes (H2, whose text compares by UTF-16
                               * units: CAST(%s AS VARBINARY)); NULL: "(expr)" collate_bytes */
    const char *bytes_text;   /* with bytes_form: the format that turns such a value back into the
                               * text, where it is a result (a group's key, min and max) */
    bool text_holds_nul;      /* a text parameter may contain a NUL byte */
    bool narrow_ints;         /* has int2/int4 columns, widened to 64 bits before arithmetic */
    bool exact_arith;         /* 64-bit INT and double arithmetic fail where the engine's do,
                               * and temporal arithmetic, INT and DURATION negation exist */
    bool neg_keeps_sign;      /* -x of a double is "(- x)" with -0.0 kept; else (-1.0 * x) */
    bool abs_keeps_neg_zero;  /* abs(-0.0) is -0.0: abs of a double is written abs(x) + 0.0 */
    bool float_trunc;         /* floor, ceil, trunc, sign of a double as C's: round, FLOAT->INT */
    bool case_map_collated;   /* lower/upper map only ASCII when given the bytewise collation */
    bool case_map_ascii;      /* lower/upper map only ASCII letters as they are (SQLite's built-in
                               * ones); with neither flag they stay in the engine (DuckDB's,
                               * MariaDB's, Spark's and Trino's map every letter of Unicode) */
    bool text_functions;      /* length and substr count code points of any text (no NUL stop) */
    bool bool_type;           /* booleans are a type of their own: keys, bool_and/bool_or, and
                               * BOOL->INT as a cast (else they are the integers 0 and 1) */
    bool ordered_aggregates;  /* sum(x ORDER BY k) and array_agg(... ) FILTER: SUM AVG FIRST LAST */
    bool float_min_max;       /* min/max of doubles pick the engine's value among -0 and 0 */
    bool windows;             /* window functions with ROWS frames (the sorted-pass AS-OF join, ω's
                               * row_number, rank, dense_rank, lag, lead, first_value, last_value,
                               * count, min and max) */
    bool no_lag_default;      /* lag and lead take no third argument, the default (MariaDB) */
    bool count_big;           /* count is COUNT_BIG: the dialect's count is a 32-bit int that
                               * fails past 2^31 rows (SQL Server) */
    bool wide_int_sum;        /* sum of 64-bit integers is exact (numeric, HUGEINT: no partial sum
                               * overflows) and its CAST back to 64 bits fails where the total does
                               * not fit, as the engine's: ω's sum of INT */
    bool exact_int_avg;       /* with wide_int_sum: that exact sum CAST to a double is correctly
                               * rounded (PostgreSQL's numeric): ω's avg of INT */
    bool range_int;           /* RANGE BETWEEN n PRECEDING AND CURRENT ROW over one INT order key,
                               * a bound below the smallest 64-bit integer reaching every row and
                               * the rows with a NULL order value one another's frame */
    const char *range_interval; /* the same over a TIMESTAMP order key: printf format of the fixed
                               * length of %lld microseconds as the dialect's interval; NULL: none */
    const char *bucket;       /* time_bucket and date_bin of a TIMESTAMP by a fixed width: printf
                               * format of the bucket of %2$s (SQL) of width %1$lld microseconds laid
                               * from 0001-01-01T00:00:00Z (so that no time in Relix's range precedes
                               * the origin, where PostgreSQL 14's date_bin rounds toward it); NULL:
                               * the engine computes it */
    SqlStruct structs;        /* the sorted pass's one-window form: the last right row as one value */
    SqlSeries series;         /* how the binned interval join expands an interval into its bins */
    int series_max;           /* the most elements one expansion may give; 0: no limit */
    const char *materialized; /* written after "name AS" in WITH so that the database computes
                               * the subquery once ("MATERIALIZED "), or "" */
    bool floor;               /* has floor() of a double (SQLite's needs its math functions) */
    const char *epoch;        /* printf format of a TIMESTAMP or DATE as a number of seconds (or
                               * another fixed unit) since 1970, for the bins; NULL: none */
    const char *lateral;      /* the keyword of a correlated subquery in FROM (the AS-OF join);
                               * NULL: none */
    /* ASOF ... WITHIN: printf formats of the distance from an earlier match value (the first
     * %s) to a later one (the second), both of the column's type, compared `<=` with the bound
     * (inclusive, as the engine); NULL: the bound stays in the engine */
    const char *ts_distance;  /* TIMESTAMP: an interval (the bound a DURATION parameter), or,
                               * with ts_distance_us, an integer of microseconds */
    bool ts_distance_us;
    const char *date_distance; /* DATE: an integer of days (the bound's whole days) */
    bool full_join_any_condition; /* FULL JOIN takes any condition (not only hashable ones) */
    int right_join_since;     /* SQLite version (sqlite3_libversion_number) from which RIGHT and
                               * FULL JOIN exist; 0: always */
    int pushdown_since;       /* version from which PUSH-SQL-003 applies (NULLS FIRST/LAST); 0 */
    bool no_nulls_order;      /* no NULLS FIRST/LAST: written as "(x) IS NULL" before the item */
    bool no_full_join;        /* no FULL JOIN at all */
    bool no_pushdown;         /* nothing is pushed (a server too old for an exact form) */
} SqlDialect;

/* The table of kind's dialect (static; never NULL). */
const SqlDialect *sql_dialect(DbKind kind);

/* The dialect named (case-insensitive): postgresql, sqlite, mariadb, mysql, h2, and those without a server here,
 * whose SQL EXPLAIN shows (--sql-dialect): citus, greenplum, redshift (PostgreSQL's protocol),
 * spark, trino; or its table's name ("Spark SQL"). NULL for another name. */
const SqlDialect *sql_dialect_named(const char *name);

/* Appends name as an identifier of dialect d (its quote character, doubled inside). */
void sql_quote_ident(StrBuf *b, const SqlDialect *d, const char *name);

/* The dialect's name of type t, or NULL when it cannot compute with t (TY_NULL: "NULL"). */
const char *sql_type_name(const SqlDialect *d, RxType t);

/* The SQL spelling of a comparison or arithmetic operator; NULL for any other. */
const char *sql_op(AstOp op);

/* Appends parameter mark number n (from 1) to b. */
void sql_param(StrBuf *b, const SqlDialect *d, int n);

/* Appends one ORDER BY item: sql, in parentheses with the bytewise collation when text; plain
 * (a table's own order, as a scan writes it) only adds DESC, others say ASC/DESC and NULLS
 * FIRST/LAST. */
void sql_order_item(StrBuf *b, const SqlDialect *d, const char *sql, bool text, bool plain, bool desc,
                    bool nulls_first);

/* Appends the interval join's endpoint predicate for relation rel over the endpoints ls le
 * (left) rs re (right), the spec's applied literally; reads[0..3] (ls le rs re) is set to
 * whether the predicate reads that endpoint. -1 (nothing appended) for no such relation. */
int sql_ijoin_predicate(StrBuf *b, IjRelation rel, const char *ls, const char *le, const char *rs,
                        const char *re, bool reads[4]);

/* Appends IJOIN AT's predicate: the point t lies in the half-open interval [rs, re). */
void sql_ijoin_point_predicate(StrBuf *b, const char *t, const char *rs, const char *re);

/* With a dialect's structs (not STRUCT_NONE): appends one value holding the n fields names[i] =
 * vals[i] (SQL) of types types[i] (the dialect's names; STRUCT_ROW needs them). -1 (nothing
 * appended) when the dialect has none or STRUCT_ROW lacks a type. */
int sql_struct_pack(StrBuf *b, const SqlDialect *d, int n, const char *const *names, const char *const *vals,
                    const char *const *types);

/* Appends field name of the struct value s (SQL). */
void sql_struct_field(StrBuf *b, const SqlDialect *d, const char *s, const char *name);

/* Appends the window function giving the last non-NULL x over the window `over` (the text
 * inside OVER's parentheses). */
void sql_last_ignore_nulls(StrBuf *b, const SqlDialect *d, const char *x, const char *over);

/* Appends the AS-OF join's form: `left` joined (inner or LEFT) to the lateral subquery `sub`
 * (LATERAL ... ON TRUE, or CROSS / OUTER APPLY). -1 (nothing appended) when the dialect has no
 * lateral subqueries. */
int sql_asof_join(StrBuf *b, const SqlDialect *d, const char *left, bool inner, const char *sub);

/* The text that keeps the first n rows of an ordered SELECT: *head goes right after SELECT
 * ("TOP n ", or ""), the returned tail after its ORDER BY (" LIMIT n", " FETCH FIRST n ROWS
 * ONLY", or ""). Both in static or b's storage: b receives them ("head\0tail"). */
void sql_limit(StrBuf *b, const SqlDialect *d, long long n, const char **head, const char **tail);

/* Appends "FROM <src> ..." that gives every column of the CTE src plus b, one row per bin from
 * src.b0 to src.b1 where cond (over src) holds, for the dialects with a series function; with
 * SERIES_RECURSIVE, src is the name of the recursive CTE already defined (sql_series_cte). */
void sql_series_from(StrBuf *b, const SqlDialect *d, const char *src, const char *cond);

/* With SERIES_RECURSIVE: appends the CTE definition "name(cols..., b) AS (SELECT ..., b0 FROM src
 * WHERE cond UNION ALL SELECT ..., b + 1 FROM name WHERE b < b1)"; cols is the ", "-separated list
 * of src's columns (b0 and b1 among them). */
void sql_series_cte(StrBuf *b, const char *name, const char *src, const char *cols, const char *cond);

#endif
