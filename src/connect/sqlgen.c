/*
 * sqlgen.c - the dialect tables and the text-level pieces of pushed-down SQL (sqlgen.h).
 */
#include "connect/sqlgen.h"

#include <strings.h>

/* SQLite: only the types it stores exactly (its booleans are the 0 and 1 comparisons give).
 * What it lacks: exact arithmetic (an INT overflow becomes a REAL, a division by zero NULL,
 * -INT64_MIN a REAL), -x keeping the sign (it computes 0 - x, making -0.0 of 0.0), exact
 * text functions (length() and substr() stop at a NUL; substr counts a start below 1 from the
 * end), ordered sums (it adds with an algorithm and in an order of its own, and fails on an INT
 * partial sum), and LATERAL. It stores no -0, so its min and max of doubles are exact. */
static const SqlDialect SQLITE = {
    .name = "SQLite",
    .quote = '"',
    .type_names = {[TY_INT] = "INTEGER", [TY_FLOAT] = "REAL", [TY_TEXT] = "TEXT", [TY_BOOL] = "INTEGER"},
    .param_mark = '?',
    .collate_bytes = " COLLATE BINARY",
    .text_holds_nul = true,
    .abs_keeps_neg_zero = true,
    .case_map_ascii = true,
    .float_min_max = true,
    .full_join_any_condition = true,
    .windows = true,
    .series = SERIES_RECURSIVE,
    .materialized = "",
    .right_join_since = 3039000,
    .pushdown_since = 3030000,
};

/* PostgreSQL: every Relix type, and the exact functions, aggregates and LATERAL; an ASOF WITHIN
 * distance is timestamptz - timestamptz (an interval, compared by its span) or date - date. Its text
 * holds no NUL; its min and max tie -0 and 0 and keep another one than the engine; it runs a
 * full join only on equalities it can hash or merge. */
static const SqlDialect POSTGRES = {
    .name = "PostgreSQL",
    .quote = '"',
    .type_names = {[TY_INT] = "int8", [TY_FLOAT] = "float8", [TY_BOOL] = "boolean", [TY_TEXT] = "text",
                   [TY_TIMESTAMP] = "timestamptz", [TY_DATE] = "date", [TY_TIME] = "time",
                   [TY_DURATION] = "interval"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = " COLLATE \"C\"",
    .narrow_ints = true,
    .exact_arith = true,
    .neg_keeps_sign = true,
    .float_trunc = true,
    .case_map_collated = true,
    .text_functions = true,
    .bool_type = true,
    .ordered_aggregates = true,
    .windows = true,
    .wide_int_sum = true,
    .exact_int_avg = true,
    .range_int = true,
    .range_interval = "CAST('%lld microseconds' AS interval)",
    .bucket = "date_bin(CAST('%1$lld microseconds' AS interval), %2$s, CAST('0001-01-01 00:00:00+00' AS timestamptz))",
    .series = SERIES_GENERATE,
    .materialized = "MATERIALIZED ",
    .floor = true,
    .epoch = "extract(epoch FROM %s)",
    .lateral = "LATERAL",
    .ts_distance = "(%2$s - %1$s)",
    .date_distance = "(%2$s - %1$s)",
};

/* DuckDB: PostgreSQL's spelling of most things; varchar compares by its bytes unless a
 * collation is asked for (COLLATE "C" is that collation), timestamps are written as TIMESTAMP
 * (microseconds, no zone: a Relix timestamp is a UTC instant), and parameters are bound as typed
 * values. What it lacks, or does otherwise than the engine, stays there: its integer division
 * and modulo by zero give NULL, not an error; length() counts grapheme clusters; its sum of
 * doubles need not add in input order. No index serves an ordered probe, so the sorted pass is
 * its AS-OF form unless LATERAL is forced. */
static const SqlDialect DUCKDB = {
    .name = "DuckDB",
    .quote = '"',
    .type_names = {[TY_INT] = "BIGINT", [TY_FLOAT] = "DOUBLE", [TY_BOOL] = "BOOLEAN", [TY_TEXT] = "VARCHAR",
                   [TY_TIMESTAMP] = "TIMESTAMP", [TY_DATE] = "DATE", [TY_TIME] = "TIME", [TY_DURATION] = "INTERVAL"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = " COLLATE \"C\"",
    .narrow_ints = true,
    .bool_type = true,
    .windows = true,
    .wide_int_sum = true,
    .range_interval = "to_microseconds(CAST(%lld AS BIGINT))",
    .bucket = "time_bucket(to_microseconds(CAST(%1$lld AS BIGINT)), CAST(%2$s AS TIMESTAMP), CAST('0001-01-01 00:00:00' AS TIMESTAMP))",
    .structs = STRUCT_PACK,
    .series = SERIES_GENERATE,
    .materialized = "MATERIALIZED ",
    .floor = true,
    .epoch = "epoch_us(CAST(%s AS TIMESTAMP))",
    .lateral = "LATERAL",
    .full_join_any_condition = true,
    .ts_distance = "(%2$s - %1$s)",
    .date_distance = "(%2$s - %1$s)",
};

/* The dialects without a server here: their SQL is shown, never run (--sql-dialect), so each
 * table claims only what its documentation promises; whatever is left out stays in the engine.
 *
 * Citus and Greenplum speak PostgreSQL's SQL; the distribution column is the join key, so the
 * sorted pass (PARTITION BY the key) and the binned join (on key and bin) run on the workers,
 * while Citus does not push a correlated subquery with LIMIT: no LATERAL form. Greenplum 6 is
 * PostgreSQL 9.4: no MATERIALIZED CTEs and no LATERAL. All three measure an ASOF WITHIN distance
 * as PostgreSQL does: timestamptz - timestamptz is an interval, date - date an integer of days. */
static const SqlDialect CITUS = {
    .name = "Citus",
    .quote = '"',
    .type_names = {[TY_INT] = "int8", [TY_FLOAT] = "float8", [TY_BOOL] = "boolean", [TY_TEXT] = "text",
                   [TY_TIMESTAMP] = "timestamptz", [TY_DATE] = "date", [TY_TIME] = "time",
                   [TY_DURATION] = "interval"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = " COLLATE \"C\"",
    .narrow_ints = true,
    .exact_arith = true,
    .neg_keeps_sign = true,
    .float_trunc = true,
    .case_map_collated = true,
    .text_functions = true,
    .bool_type = true,
    .ordered_aggregates = true,
    .windows = true,
    .wide_int_sum = true,
    .exact_int_avg = true,
    .range_int = true,
    .range_interval = "CAST('%lld microseconds' AS interval)",
    .bucket = "date_bin(CAST('%1$lld microseconds' AS interval), %2$s, CAST('0001-01-01 00:00:00+00' AS timestamptz))",
    .series = SERIES_GENERATE,
    .materialized = "MATERIALIZED ",
    .floor = true,
    .epoch = "extract(epoch FROM %s)",
    .ts_distance = "(%2$s - %1$s)",
    .date_distance = "(%2$s - %1$s)",
};

static const SqlDialect GREENPLUM = {
    .name = "Greenplum",
    .quote = '"',
    .type_names = {[TY_INT] = "int8", [TY_FLOAT] = "float8", [TY_BOOL] = "boolean", [TY_TEXT] = "text",
                   [TY_TIMESTAMP] = "timestamptz", [TY_DATE] = "date", [TY_TIME] = "time",
                   [TY_DURATION] = "interval"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = " COLLATE \"C\"",
    .narrow_ints = true,
    .bool_type = true,
    .windows = true,
    .series = SERIES_GENERATE,
    .materialized = "",
    .floor = true,
    .epoch = "extract(epoch FROM %s)",
    .ts_distance = "(%2$s - %1$s)",
    .date_distance = "(%2$s - %1$s)",
};

/* Redshift: PostgreSQL's protocol, but no LATERAL, generate_series only on the leader node (the
 * bins come from a recursive CTE), no COLLATE "C" (its default comparison of VARCHAR is by
 * bytes), TEXT a VARCHAR(256) (text is cast as VARCHAR(65535)), no MATERIALIZED, no default
 * argument of LAG and LEAD; an ASOF WITHIN distance by datediff(microsecond | day, earlier,
 * later). */
static const SqlDialect REDSHIFT = {
    .name = "Redshift",
    .quote = '"',
    .type_names = {[TY_INT] = "int8", [TY_FLOAT] = "float8", [TY_BOOL] = "boolean", [TY_TEXT] = "varchar(65535)",
                   [TY_TIMESTAMP] = "timestamptz", [TY_DATE] = "date"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = "",
    .bool_type = true,
    .windows = true,
    .no_lag_default = true,
    .series = SERIES_RECURSIVE,
    .materialized = "",
    .floor = true,
    .epoch = "extract(epoch FROM %s)",
    .ts_distance = "datediff(microsecond, %s, %s)",
    .ts_distance_us = true,
    .date_distance = "datediff(day, %s, %s)",
};

/* Spark SQL: identifiers in backquotes, ? parameters, strings compared by their bytes, the bins
 * by LATERAL VIEW explode(sequence(b0, b1)); no correlated subquery with LIMIT; an ASOF WITHIN
 * distance by timestampdiff(MICROSECOND, earlier, later) or datediff(later, earlier). */
static const SqlDialect SPARK = {
    .name = "Spark SQL",
    .quote = '`',
    .type_names = {[TY_INT] = "BIGINT", [TY_FLOAT] = "DOUBLE", [TY_BOOL] = "BOOLEAN", [TY_TEXT] = "STRING",
                   [TY_TIMESTAMP] = "TIMESTAMP", [TY_DATE] = "DATE"},
    .typed_literals = true,
    .param_mark = '?',
    .collate_bytes = "",
    .bool_type = true,
    .windows = true,
    .structs = STRUCT_NAMED,
    .series = SERIES_EXPLODE,
    .materialized = "",
    .floor = true,
    .epoch = "unix_micros(CAST(%s AS TIMESTAMP))",
    .ts_distance = "timestampdiff(MICROSECOND, %s, %s)",
    .ts_distance_us = true,
    .date_distance = "datediff(%2$s, %1$s)",
};

/* Trino: ? parameters, varchar compared by its bytes, the bins by CROSS JOIN UNNEST(sequence(b0,
 * b1)), which gives at most 10,000 elements; no correlated subquery with LIMIT; an ASOF WITHIN
 * distance by date_diff('microsecond' | 'day', earlier, later). */
static const SqlDialect TRINO = {
    .name = "Trino",
    .quote = '"',
    .type_names = {[TY_INT] = "bigint", [TY_FLOAT] = "double", [TY_BOOL] = "boolean", [TY_TEXT] = "varchar",
                   [TY_TIMESTAMP] = "timestamp(6) with time zone", [TY_DATE] = "date"},
    .typed_literals = true,
    .param_mark = '?',
    .collate_bytes = "",
    .bool_type = true,
    .windows = true,
    .structs = STRUCT_ROW,
    .series = SERIES_UNNEST,
    .series_max = 10000,
    .materialized = "",
    .floor = true,
    .epoch = "to_unixtime(%s)",
    .ts_distance = "date_diff('microsecond', %s, %s)",
    .ts_distance_us = true,
    .date_distance = "date_diff('day', %s, %s)",
};

/* SQL Server (T-SQL): identifiers in brackets, parameters @P1 ..., TOP n instead of LIMIT,
 * OUTER APPLY / CROSS APPLY (SELECT TOP 1 ... ORDER BY ...) as the AS-OF join's correlated
 * subquery, no NULLS FIRST/LAST (a CASE on IS NULL orders them), no boolean type (BIT; a
 * predicate is no value), text compared by its bytes under a binary UTF-8 collation, timestamps
 * as DATETIME2(6) (microseconds, no zone). A WITH clause stands only at a statement's top, where
 * the binned interval join nests its CTEs: no binned form. Its integer / of BIGINTs truncates
 * and it has no exact double rules of the engine's: no arithmetic is claimed exact. Its count
 * is an int that fails past 2^31 rows: COUNT_BIG. */
static const SqlDialect SQLSERVER = {
    .name = "SQL Server",
    .quote = '[',
    .quote_end = ']',
    .type_names = {[TY_INT] = "BIGINT", [TY_FLOAT] = "FLOAT", [TY_BOOL] = "BIT", [TY_TEXT] = "VARCHAR(MAX)",
                   [TY_TIMESTAMP] = "DATETIME2(6)", [TY_DATE] = "DATE", [TY_TIME] = "TIME(6)"},
    .typed_literals = true,
    .param_mark = '@',
    .param_prefix = "@P",
    .limit = LIMIT_TOP,
    .nulls_case = true,
    .apply = true,
    .bool_case = true,
    .collate_bytes = " COLLATE Latin1_General_100_BIN2_UTF8",
    .windows = true,
    .count_big = true,
    .series = SERIES_NONE,
    .lateral = "APPLY",
    .full_join_any_condition = true,
};

/* Db2 (LUW 11.1 and later): the standard's FETCH FIRST n ROWS ONLY, LEFT JOIN LATERAL ... ON
 * 1 = 1, named parameter markers :p1 ..., NULLS FIRST/LAST, BOOLEAN, TIMESTAMP(6); its text
 * compares by bytes in a Unicode database's default IDENTITY collation. A WITH clause stands
 * only at a statement's top, where the binned interval join nests its CTEs: no binned form. Its
 * TIME has whole seconds: no TIME. */
static const SqlDialect DB2 = {
    .name = "Db2",
    .quote = '"',
    .type_names = {[TY_INT] = "BIGINT", [TY_FLOAT] = "DOUBLE", [TY_BOOL] = "BOOLEAN", [TY_TEXT] = "VARCHAR(32672)",
                   [TY_TIMESTAMP] = "TIMESTAMP(6)", [TY_DATE] = "DATE"},
    .typed_literals = true,
    .param_mark = ':',
    .param_prefix = ":p",
    .limit = LIMIT_FETCH,
    .on_true = "1 = 1",
    .collate_bytes = "",
    .bool_type = true,
    .windows = true,
    .series = SERIES_NONE,
    .lateral = "LATERAL",
    .full_join_any_condition = true,
};

/* MariaDB from 10.2 (the session sets ANSI_QUOTES, PIPES_AS_CONCAT and NO_BACKSLASH_ESCAPES,
 * connect/mariadb.c): window functions (LAG and LEAD without a default) and recursive CTEs, no
 * LATERAL, no FULL JOIN, no NULLS FIRST/LAST (NULLs sort first). Text compares bytewise, without
 * padding, only under utf8mb4_nopad_bin: its default collations ignore case and trailing spaces
 * ('a' = 'A ' is true), so every text comparison, key and order names it; text columns of
 * another character set are only carried. Its arithmetic is not the engine's (division by zero
 * gives NULL, 7 / 2 a DECIMAL), nor are its sums, text functions and rounding; no NaN or
 * infinities. CAST to SIGNED rounds a double, which the bins do not mind (floor comes first).
 * Parameters are written into the statement as literals by the connection. */
static const SqlDialect MARIADB = {
    .name = "MariaDB",
    .quote = '"',
    .type_names = {[TY_INT] = "SIGNED", [TY_FLOAT] = "DOUBLE", [TY_TEXT] = "CHAR", [TY_BOOL] = "SIGNED",
                   [TY_TIMESTAMP] = "DATETIME(6)", [TY_DATE] = "DATE"},
    .param_mark = '?',
    .collate_bytes = " COLLATE utf8mb4_nopad_bin",
    .windows = true,
    .no_lag_default = true,
    .series = SERIES_RECURSIVE,
    .materialized = "",
    .floor = true,
    .epoch = "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP'1970-01-01 00:00:00', %s)",
    .no_nulls_order = true,
    .no_full_join = true,
};

/* MySQL from 8.0.17: as MariaDB, with LATERAL (8.0.14) and its NO PAD binary collation
 * utf8mb4_0900_bin (8.0.17) for bytewise text. No server here: what it claims is what MySQL's
 * manual promises. */
static const SqlDialect MYSQL = {
    .name = "MySQL",
    .quote = '"',
    .type_names = {[TY_INT] = "SIGNED", [TY_FLOAT] = "DOUBLE", [TY_TEXT] = "CHAR", [TY_BOOL] = "SIGNED",
                   [TY_TIMESTAMP] = "DATETIME(6)", [TY_DATE] = "DATE"},
    .param_mark = '?',
    .collate_bytes = " COLLATE utf8mb4_0900_bin",
    .windows = true,
    .series = SERIES_RECURSIVE,
    .materialized = "",
    .floor = true,
    .epoch = "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP'1970-01-01 00:00:00', %s)",
    .lateral = "LATERAL",
    .no_nulls_order = true,
    .no_full_join = true,
};

/* MariaDB before 10.2 and MySQL before 8.0.17: no window functions, no recursive CTEs, no NO PAD
 * binary collation for exact text equality: nothing is pushed. */
static const SqlDialect MYSQL_OLD = {
    .name = "MySQL/MariaDB (old)",
    .quote = '"',
    .param_mark = '?',
    .collate_bytes = "",
    .materialized = "",
    .no_nulls_order = true,
    .no_full_join = true,
    .no_pushdown = true,
};

/* H2 2.x (the spec's GENERIC dialect), through its PostgreSQL-protocol server, whose sessions
 * run in H2's PostgreSQL mode: $n parameters, NULLS FIRST/LAST, RIGHT JOIN, recursive CTEs and
 * ROW_NUMBER(). No LATERAL and no FULL JOIN: an AS-OF join stays in the engine, an interval join
 * is a plain JOIN ... ON. Text compares by UTF-16 code units (a character above U+FFFF sorts
 * before U+E000..U+FFFF), so every text comparison, key and order is on the text's UTF-8
 * bytes, CAST(... AS VARBINARY), which H2 compares unsigned. A TIME's default precision is whole
 * seconds: TIME(6). Its arithmetic, text functions (length counts UTF-16 units), sums and
 * rounding are not claimed exact. */
static const SqlDialect H2 = {
    .name = "H2",
    .quote = '"',
    .type_names = {[TY_INT] = "BIGINT", [TY_FLOAT] = "DOUBLE PRECISION", [TY_BOOL] = "BOOLEAN",
                   [TY_TEXT] = "VARCHAR", [TY_TIMESTAMP] = "TIMESTAMP(6) WITH TIME ZONE", [TY_DATE] = "DATE",
                   [TY_TIME] = "TIME(6)"},
    .typed_literals = true,
    .param_mark = '$',
    .collate_bytes = "",
    .bytes_form = "CAST(%s AS VARBINARY)",
    .bytes_text = "UTF8TOSTRING(%s)",
    .narrow_ints = true,
    .bool_type = true,
    .series = SERIES_NONE,
    .materialized = "",
    .floor = true,
    .no_full_join = true,
};

/* MongoDB takes no SQL: nothing is pushed to it (the spec), a collection is only read. */
static const SqlDialect MONGO = {
    .name = "MongoDB",
    .quote = '"',
    .param_mark = '?',
    .collate_bytes = "",
    .materialized = "",
    .no_pushdown = true,
};

const SqlDialect *sql_dialect(DbKind kind) {
    switch (kind) {
    case DB_POSTGRES: return &POSTGRES;
    case DB_DUCKDB: return &DUCKDB;
    case DB_MARIADB: return &MARIADB;
    case DB_MYSQL: return &MYSQL;
    case DB_MYSQL_OLD: return &MYSQL_OLD;
    case DB_H2: return &H2;
    case DB_MONGO: return &MONGO;
    case DB_SQLITE: break;
    }
    return &SQLITE;
}

const SqlDialect *sql_dialect_named(const char *name) {
    static const struct { const char *name; const SqlDialect *d; } all[] = {
        {"postgresql", &POSTGRES}, {"sqlite", &SQLITE}, {"duckdb", &DUCKDB}, {"citus", &CITUS}, {"greenplum", &GREENPLUM},
        {"redshift", &REDSHIFT}, {"spark", &SPARK}, {"trino", &TRINO}, {"sqlserver", &SQLSERVER}, {"mssql", &SQLSERVER},
        {"db2", &DB2},
        {"mariadb", &MARIADB}, {"mysql", &MYSQL}, {"h2", &H2}, {"generic", &H2},
    };
    for (size_t i = 0; name && i < RX_ARRAY_LEN(all); i++)
        if (strcasecmp(name, all[i].name) == 0 || strcasecmp(name, all[i].d->name) == 0) return all[i].d;
    return NULL;
}

void sql_quote_ident(StrBuf *b, const SqlDialect *d, const char *name) {
    char q = d->quote ? d->quote : '"', e = d->quote_end ? d->quote_end : q;
    sb_append(b, &q, 1);
    for (const char *p = name; *p; p++) {
        sb_append(b, p, 1);
        if (*p == e) sb_append(b, p, 1);
    }
    sb_append(b, &e, 1);
}

const char *sql_type_name(const SqlDialect *d, RxType t) {
    if (t == TY_NULL) return "NULL";
    return (unsigned)t <= TY_DURATION ? d->type_names[t] : NULL;
}

const char *sql_op(AstOp op) {
    switch (op) {
    case OP_EQ: return "=";
    case OP_NE: return "<>";
    case OP_LT: return "<";
    case OP_LE: return "<=";
    case OP_GT: return ">";
    case OP_GE: return ">=";
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_MOD: return "%";
    default: return NULL;
    }
}

void sql_param(StrBuf *b, const SqlDialect *d, int n) {
    if (d->param_prefix) sb_printf(b, "%s%d", d->param_prefix, n);
    else sb_printf(b, "%c%d", d->param_mark, n);
}

void sql_order_item(StrBuf *b, const SqlDialect *d, const char *sql, bool text, bool plain, bool desc,
                    bool nulls_first) {
    if (!plain && d->nulls_case) /* NULLs placed by a key of their own first */
        sb_printf(b, "CASE WHEN %s IS NULL THEN %d ELSE %d END, ", sql, nulls_first ? 0 : 1, nulls_first ? 1 : 0);
    else if (!plain && d->no_nulls_order) /* NULLs first or last by hand: a NULL sorts as 1 */
        sb_printf(b, "(%s) IS NULL%s, ", sql, nulls_first ? " DESC" : "");
    if (text && d->bytes_form) {
        sb_printf(b, d->bytes_form, sql);
    } else {
        if (text) sb_puts(b, "(");
        sb_puts(b, sql);
        if (text) {
            sb_puts(b, ")");
            sb_puts(b, d->collate_bytes);
        }
    }
    if (plain) {
        if (desc) sb_puts(b, " DESC");
        return;
    }
    sb_puts(b, desc ? " DESC" : " ASC");
    if (!d->nulls_case && !d->no_nulls_order) sb_puts(b, nulls_first ? " NULLS FIRST" : " NULLS LAST");
}

int sql_ijoin_predicate(StrBuf *b, IjRelation rel, const char *ls, const char *le, const char *rs,
                        const char *re, bool reads[4]) {
    for (int k = 0; k < 4; k++) reads[k] = true;
    switch (rel) {
    case IJ_INTERSECTS: sb_printf(b, "%s < %s AND %s < %s", ls, re, rs, le); break;
    case IJ_PRECEDES: sb_printf(b, "%s < %s", le, rs); reads[0] = reads[3] = false; break;
    case IJ_PRECEDED_BY: sb_printf(b, "%s > %s", ls, re); reads[1] = reads[2] = false; break;
    case IJ_MEETS: sb_printf(b, "%s = %s", le, rs); reads[0] = reads[3] = false; break;
    case IJ_MET_BY: sb_printf(b, "%s = %s", ls, re); reads[1] = reads[2] = false; break;
    case IJ_OVERLAPS: sb_printf(b, "%s < %s AND %s > %s AND %s < %s", ls, rs, le, rs, le, re); break;
    case IJ_OVERLAPPED_BY: sb_printf(b, "%s < %s AND %s > %s AND %s < %s", rs, ls, re, ls, re, le); break;
    case IJ_STARTS: sb_printf(b, "%s = %s AND %s < %s", ls, rs, le, re); break;
    case IJ_STARTED_BY: sb_printf(b, "%s = %s AND %s < %s", ls, rs, re, le); break;
    case IJ_DURING: sb_printf(b, "%s < %s AND %s < %s", rs, ls, le, re); break;
    case IJ_CONTAINS: sb_printf(b, "%s < %s AND %s < %s", ls, rs, re, le); break;
    case IJ_FINISHES: sb_printf(b, "%s = %s AND %s < %s", le, re, rs, ls); break;
    case IJ_FINISHED_BY: sb_printf(b, "%s = %s AND %s < %s", le, re, ls, rs); break;
    case IJ_EQUALS: sb_printf(b, "%s = %s AND %s = %s", ls, rs, le, re); break;
    case IJ_COVERS: sb_printf(b, "%s <= %s AND %s <= %s", ls, rs, re, le); break;
    case IJ_COVERED_BY: sb_printf(b, "%s <= %s AND %s <= %s", rs, ls, le, re); break;
    default: return -1;
    }
    return 0;
}

void sql_ijoin_point_predicate(StrBuf *b, const char *t, const char *rs, const char *re) {
    sb_printf(b, "%s <= %s AND %s < %s", rs, t, t, re);
}

int sql_asof_join(StrBuf *b, const SqlDialect *d, const char *left, bool inner, const char *sub) {
    if (d->apply) {
        sb_printf(b, "%s %s %s", left, inner ? "CROSS APPLY" : "OUTER APPLY", sub);
        return 0;
    }
    if (!d->lateral) return -1;
    sb_printf(b, "%s %s %s %s ON %s", left, inner ? "JOIN" : "LEFT JOIN", d->lateral, sub, d->on_true ? d->on_true : "TRUE");
    return 0;
}

void sql_series_from(StrBuf *b, const SqlDialect *d, const char *src, const char *cond) {
    switch (d->series) {
    case SERIES_GENERATE:
        sb_printf(b, "FROM %s CROSS JOIN generate_series(%s.b0, %s.b1) AS g(b) WHERE %s", src, src, src, cond);
        break;
    case SERIES_EXPLODE:
        sb_printf(b, "FROM %s LATERAL VIEW explode(sequence(%s.b0, %s.b1)) g AS b WHERE %s", src, src, src, cond);
        break;
    case SERIES_UNNEST:
        sb_printf(b, "FROM %s CROSS JOIN UNNEST(sequence(%s.b0, %s.b1)) AS g(b) WHERE %s", src, src, src, cond);
        break;
    case SERIES_RECURSIVE: sb_printf(b, "FROM %s", src); break;
    case SERIES_NONE: break;
    }
}

void sql_limit(StrBuf *b, const SqlDialect *d, long long n, const char **head, const char **tail) {
    *head = *tail = "";
    if (d->limit == LIMIT_TOP) sb_printf(b, "TOP %lld ", n);
    size_t at = b->n;
    sb_putc(b, 0);
    if (d->limit == LIMIT_LIMIT) sb_printf(b, " LIMIT %lld", n);
    else if (d->limit == LIMIT_FETCH) sb_printf(b, " FETCH FIRST %lld ROW%s ONLY", n, n == 1 ? "" : "S");
    if (b->oom || !b->p) return;
    *head = b->p;
    *tail = b->p + at + 1;
}

void sql_series_cte(StrBuf *b, const char *name, const char *src, const char *cols, const char *cond) {
    sb_printf(b, "%s AS (SELECT %s, %s.b0 AS b FROM %s WHERE %s UNION ALL SELECT %s, b + 1 FROM %s WHERE b < b1)",
              name, cols, src, src, cond, cols, name);
}

int sql_struct_pack(StrBuf *b, const SqlDialect *d, int n, const char *const *names, const char *const *vals,
                    const char *const *types) {
    switch (d->structs) {
    case STRUCT_PACK:
        sb_puts(b, "struct_pack(");
        for (int i = 0; i < n; i++) sb_printf(b, "%s%s := %s", i ? ", " : "", names[i], vals[i]);
        sb_puts(b, ")");
        return 0;
    case STRUCT_NAMED:
        sb_puts(b, "named_struct(");
        for (int i = 0; i < n; i++) sb_printf(b, "%s'%s', %s", i ? ", " : "", names[i], vals[i]);
        sb_puts(b, ")");
        return 0;
    case STRUCT_ROW:
        for (int i = 0; i < n; i++)
            if (!types[i]) return -1;
        sb_puts(b, "CAST(ROW(");
        for (int i = 0; i < n; i++) sb_printf(b, "%s%s", i ? ", " : "", vals[i]);
        sb_puts(b, ") AS ROW(");
        for (int i = 0; i < n; i++) sb_printf(b, "%s%s %s", i ? ", " : "", names[i], types[i]);
        sb_puts(b, "))");
        return 0;
    case STRUCT_NONE: break;
    }
    return -1;
}

void sql_struct_field(StrBuf *b, const SqlDialect *d, const char *s, const char *name) {
    if (d->structs == STRUCT_PACK) sb_printf(b, "struct_extract(%s, '%s')", s, name);
    else sb_printf(b, "%s.%s", s, name);
}

void sql_last_ignore_nulls(StrBuf *b, const SqlDialect *d, const char *x, const char *over) {
    if (d->structs == STRUCT_NAMED) sb_printf(b, "last(%s, true) OVER (%s)", x, over);
    else if (d->structs == STRUCT_ROW) sb_printf(b, "last_value(%s) IGNORE NULLS OVER (%s)", x, over);
    else sb_printf(b, "last_value(%s IGNORE NULLS) OVER (%s)", x, over);
}
