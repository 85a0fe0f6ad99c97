/*
 * relix.h - the Relix library: run relational-algebra scripts over temporal data.
 *
 * A session holds the relations a script defines (inline tables, CSV files, views); rx_exec
 * runs script text in it and hands every query's result to a callback. Definitions persist
 * across calls, so a REPL or a host program can define once and query many times.
 *
 *   RxSession *s = rx_open();
 *   if (rx_exec(s, text, len, "script.rx", on_result, NULL) != 0)
 *       fprintf(stderr, "%s", rx_errmsg(s));
 *   rx_close(s);
 *
 * Ownership: a result passed to the callback is valid only during the callback. Strings
 * returned by accessors are owned by the session or the result; nothing needs freeing but the
 * session, a prepared statement (rx_finalize, or rx_close does it) and an Arrow export
 * (rx_result_arrow: its release callbacks). Errors: a failing call returns non-zero and rx_errmsg gives the message, with file,
 * line, column, the source line and a caret. The library never prints, exits or aborts.
 */
#ifndef RELIX_H
#define RELIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RELIX_VERSION "0.1.0"
#define RELIX_VERSION_NUMBER 100   /* major * 10000 + minor * 100 + patch */

/* The shared library exports exactly the functions declared here (the rest of the library is
 * built with hidden visibility). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

/* The library's version: "0.1.0", the RELIX_VERSION it was built with, which may differ from
 * the header a program was compiled against when it loads librelix.so at run time. Static
 * storage; never fails. */
const char *rx_version(void);
/* The same as a number: RELIX_VERSION_NUMBER of the library. */
int rx_version_number(void);

typedef struct RxSession RxSession;
typedef struct RxResult RxResult;

/* Column types, as rx_result_coltype reports them. */
typedef enum {
    RX_TYPE_NULL = 0, RX_TYPE_INT, RX_TYPE_FLOAT, RX_TYPE_BOOL, RX_TYPE_TEXT,
    RX_TYPE_TIMESTAMP, RX_TYPE_DATE, RX_TYPE_TIME, RX_TYPE_DURATION
} RxColType;

/* Output formats for rx_result_write. JSONL: one JSON object per row and line. */
typedef enum {
    RX_FORMAT_TABLE, RX_FORMAT_CSV, RX_FORMAT_TSV, RX_FORMAT_JSON, RX_FORMAT_MARKDOWN, RX_FORMAT_JSONL
} RxFormat;

/* Error classes of rx_errcode. */
enum {
    RX_ERR_OK = 0, RX_ERR_SYNTAX, RX_ERR_NAME, RX_ERR_TYPE, RX_ERR_VALUE, RX_ERR_RUNTIME,
    RX_ERR_IO, RX_ERR_CSV, RX_ERR_NOMEM, RX_ERR_UNSUPPORTED, RX_ERR_LIMIT, RX_ERR_INTERRUPT
};

/* A new session, or NULL when out of memory. */
RxSession *rx_open(void);
/* Frees the session and everything it holds. Accepts NULL. */
void rx_close(RxSession *s);

/* Session options. Algorithms: 0 automatic (default); for the interval join 1 forces the
 * nested loop, 2 the output-sensitive algorithm; for the AS-OF join 1 nested loop, 2 binary
 * search, 3 merge. These exist to check the algorithms against each other. */
void rx_set_ijoin_algo(RxSession *s, int algo);
void rx_set_asof_algo(RxSession *s, int algo);
/* Turns the optimizer's rewrites (all but view inlining) on (default) or off, and the hash
 * join on (default) or off (equi-joins then run as nested loops). */
void rx_set_optimize(RxSession *s, int on);
void rx_set_hashjoin(RxSession *s, int on);
/* SQL pushdown to database connections on (default) or off (every operator in the engine). */
void rx_set_pushdown(RxSession *s, int on);
/* The SQL form a pushed AS-OF or interval join takes (docs/connect.md, "Pushdown forms"):
 * 0 automatic (default: the cost model chooses between the forms and pulling the inputs),
 * 1 the sorted-pass AS-OF join, 2 the LATERAL AS-OF join, 3 the binned interval join, 4 the
 * interval join's plain predicate. A forced form applies wherever the dialect has it and the
 * join has an exact form of it; elsewhere the choice stays automatic. */
void rx_set_pushdown_form(RxSession *s, int form);
/* Shows, under EXPLAIN, each pushed statement also as it would be written for the dialect named
 * (citus, greenplum, redshift, spark, trino, postgresql, sqlite; NULL or "": none), after the
 * one run: for engines without a server at hand. 0, or -1 for an unknown name. */
int rx_set_sql_dialect(RxSession *s, const char *name);
/* Streaming (docs/memory.md): 0 (default) runs a query chunk by chunk when it can and one of
 * its CSV files is too large to hold in memory; 1 whenever it can (to check one way against
 * the other); -1 never. The results are the same. */
void rx_set_stream(RxSession *s, int mode);
/* The directory under which joins that spill to disk make their temporary directory
 * (docs/memory.md); NULL or "": $TMPDIR, else /tmp (the default). The string is copied. 0, or
 * -1 when out of memory. */
int rx_set_temp_dir(RxSession *s, const char *dir);
/* Whether the callback may receive a streamed query's result in parts, chunk by chunk (on:
 * the caller writes csv, tsv or jsonl, which need no other row to write a row); off (default):
 * every result whole, a streamed one gathered first. */
void rx_set_result_parts(RxSession *s, int on);
/* Bare queries on or off (default): with on, a relational expression on its own is a query
 * statement ("Trades ASOF Trades.ts >= Quotes.ts Quotes;" runs as query { ... } does) and the
 * last statement may omit its ';' -- for a REPL and one-line commands. With off, a script must
 * wrap it in query { ... }; the error says so. */
void rx_set_bare_queries(RxSession *s, int on);
/* Stops a running rx_exec at its next check, and asks the databases to cancel the statements
 * this session has pushed down and runs now (another session's go on); rx_exec then fails
 * with RX_ERR_INTERRUPT. Safe to call from another thread or a signal handler. */
void rx_interrupt(RxSession *s);
/* Asks every database that runs a statement pushed down by Relix now to cancel it (PostgreSQL's
 * cancel request, sqlite3_interrupt): for Ctrl-C and SIGTERM, so that the server does not go on
 * running it after Relix exits. Safe to call from a signal handler; the statement then fails
 * with the database's message. */
void rx_cancel_statements(void);

/* Called once per query statement, in script order; return 0 to go on, non-zero to stop
 * (rx_exec then returns that value). */
typedef int (*RxResultFn)(void *ud, const RxResult *r);

/* Parses, checks and runs `text` (len bytes; `name` is used in error messages and relative
 * CSV paths resolve against its folder). Every statement is checked before any query runs.
 * Returns 0, or non-zero with the error in rx_errmsg. */
int rx_exec(RxSession *s, const char *text, size_t len, const char *name, RxResultFn fn, void *ud);

/* The last error: "FILE:LINE:COL: error: MESSAGE\n  source line\n  ^~~\n", or "" if none. */
const char *rx_errmsg(const RxSession *s);
int rx_errcode(const RxSession *s);

/* A copy of text[0..len) with every connection-string secret (user:PASSWORD@, password=...,
 * in any spelling) replaced by "***", as Relix shows connection strings everywhere: for a
 * caller that keeps script text (a REPL history). malloc'd and NUL-terminated, the caller
 * frees it; NULL when out of memory. */
char *rx_redact_secrets(const char *text, size_t len);

/* ---- prepared queries ----------------------------------------------------------------------- */

/* A script parsed and checked once, run many times with different parameter values. A
 * parameter is an expression written $1, $2, ... or :name (a name takes the number after the
 * highest so far, as in SQLite; every use of one name or number is one parameter). Parameters
 * may stand in query statements only (not in views or inline tables). A parameter's value is
 * always a value, never text spliced into the script: a pushed-down query hands it to the
 * database as one of the statement's own parameters.
 *
 *   RxStmt *st;
 *   if (rx_prepare(s, "query { σ qty > $1 (Trades) };", len, "q.rx", &st) != 0) ...
 *   for (int i = 0; i < 1000; i++) {
 *       rx_bind_int(st, 1, i);
 *       const RxResult *r;
 *       if (rx_execute(st, &r) != 0) fprintf(stderr, "%s", rx_errmsg(s));
 *       ... read r (valid until the next rx_execute, rx_reset or rx_finalize of st) ...
 *   }
 *   rx_finalize(st);
 *
 * Types: a parameter's type is the type of the value bound to it; the query is analyzed again
 * (never parsed again) with the bound values at each rx_execute, so a value of a type its place
 * does not accept is an error there, at the parameter. rx_prepare also notes the type each
 * parameter is compared with (qty > $1: INT), and a bind of another kind (text for it) fails at
 * once. Errors of rx_prepare, rx_bind_* and rx_execute are the session's (rx_errmsg,
 * rx_errcode), with the file, line and column of the parameter or token at fault. A statement
 * belongs to its session and to the thread using it; rx_close finalizes those left. */
typedef struct RxStmt RxStmt;

/* Parses and checks script text[0..len) (named name in errors, as rx_exec's) once: its
 * definitions are made in the session now, its queries run at each rx_execute. *out is the
 * statement (rx_finalize frees it), or NULL on failure: 0, or non-zero with rx_errmsg. */
int rx_prepare(RxSession *s, const char *text, size_t len, const char *name, RxStmt **out);
/* The number of parameter slots: the highest $N, or the count of names and numbers. */
int rx_bind_parameter_count(const RxStmt *st);
/* The slot (from 1) of parameter name ("$2", ":qty" or "qty"), or 0 when the script has none
 * such. */
int rx_bind_parameter_index(const RxStmt *st, const char *name);
/* The parameter of slot idx as written ("$2", ":qty"); NULL out of range. Owned by st. */
const char *rx_bind_parameter_name(const RxStmt *st, int idx);

/* Bind a value to parameter idx (from 1); it stays bound across rx_execute calls until it is
 * bound again or rx_reset. Text is copied (len bytes, UTF-8; NUL bytes allowed). A timestamp
 * is microseconds since 1970-01-01T00:00:00Z, a date days since then. 0, or non-zero with
 * rx_errmsg: idx out of range (RX_ERR_VALUE), invalid UTF-8 (RX_ERR_VALUE), a value of a kind
 * the parameter's place does not take (RX_ERR_TYPE, at the parameter), out of memory. On
 * failure the parameter's earlier value stays. */
int rx_bind_int(RxStmt *st, int idx, int64_t v);
int rx_bind_double(RxStmt *st, int idx, double v);
int rx_bind_bool(RxStmt *st, int idx, int v);
int rx_bind_text(RxStmt *st, int idx, const char *p, size_t len);
int rx_bind_timestamp(RxStmt *st, int idx, int64_t us);
int rx_bind_date(RxStmt *st, int idx, int32_t days);
int rx_bind_null(RxStmt *st, int idx);

/* Runs the statement's queries in order with the values bound. *out (out may be NULL) is the
 * last query's result, owned by st and valid until its next rx_execute, rx_reset or
 * rx_finalize; NULL when the script has no query. 0, or non-zero with rx_errmsg: a parameter
 * written in the script and not bound (RX_ERR_VALUE, at the parameter), a bound value's type
 * not fitting (RX_ERR_TYPE), or any error of running a query. */
int rx_execute(RxStmt *st, const RxResult **out);
/* Drops the last result and every bound value (so that each must be bound again). 0. */
int rx_reset(RxStmt *st);
/* Frees the statement, its result and values. Accepts NULL. */
void rx_finalize(RxStmt *st);
/* Scripts the session has parsed since rx_open: one per rx_exec and rx_prepare call, none per
 * rx_execute. */
size_t rx_parse_count(const RxSession *s);

/* ---- results -------------------------------------------------------------------------------- */

size_t rx_result_rows(const RxResult *r);
int rx_result_cols(const RxResult *r);
const char *rx_result_colname(const RxResult *r, int col);
RxColType rx_result_coltype(const RxResult *r, int col);
int rx_result_is_null(const RxResult *r, size_t row, int col);
/* INT, and TIMESTAMP/TIME as microseconds, DATE as days, BOOL as 0/1, a DURATION's
 * microseconds (without its months). A FLOAT is truncated toward zero and clamped to the int64
 * range: 1e300 and Infinity give INT64_MAX, -1e300 and -Infinity INT64_MIN, NaN 0. NULL, TEXT,
 * an out-of-range row or column: 0. */
int64_t rx_result_int(const RxResult *r, size_t row, int col);
double rx_result_float(const RxResult *r, size_t row, int col);
/* Any value as the text the table format prints (NULL as "NULL"); valid until the callback
 * returns. */
const char *rx_result_text(const RxResult *r, size_t row, int col);
/* The result's place among the results this rx_exec call hands to the callback: index 1, 2, ...
 * of count (query statements with "into csv(...)" write a file and count for neither). The
 * whole script is checked before the first query runs, so count is known from the first. */
int rx_result_index(const RxResult *r);
int rx_result_count(const RxResult *r);
/* Results in parts (rx_set_result_parts): 0 for a result handed over whole; k >= 1 for the
 * k-th part of a streamed result, whose rows follow those of part k - 1. rx_result_last_part
 * is 1 for the last part (which may have no row) and for a whole result. rx_result_write
 * writes a part after the first without the csv/tsv header, so that the parts written one
 * after the other are byte for byte the whole result. */
int rx_result_part(const RxResult *r);
int rx_result_last_part(const RxResult *r);
/* "Rewrites applied" and "Physical plan", as --explain prints them. */
const char *rx_result_explain(const RxResult *r);
/* The same with the figures of the run, as --explain analyze prints them: every plan line
 * followed by "(actual rows=N time=T ms self=S ms peak=M)": the rows the operator produced,
 * its time with its inputs' (inclusive) and without (self), and the most memory it had
 * allocated at once while it ran, its new output columns at least; under a memory limit also
 * as a share of it: "peak=12.3 MB (5% of 256 MiB)". */
const char *rx_result_explain_analyze(const RxResult *r);

/* Writes the result in a format through write(ud, bytes, n) (which returns 0, or non-zero to
 * fail). Returns 0 or non-zero. */
int rx_result_write(const RxResult *r, RxFormat f, int (*write)(void *ud, const char *p, size_t n), void *ud);
/* As rx_result_write, with
 *   max_rows  RX_FORMAT_TABLE only: a result of more rows shows its first ceil(max_rows / 2)
 *             and last floor(max_rows / 2) rows with a line between them, "… 999,960 rows not
 *             shown", then "; " and hint when hint is not NULL (how to see more); the row
 *             count still ends the table. 0: every row.
 *   query     RX_FORMAT_JSONL only: 0 writes each row as its object; N >= 1 as
 *             {"query":N,"row":{...}} (for the results of a script with several queries). */
int rx_result_write_opts(const RxResult *r, RxFormat f, size_t max_rows, const char *hint, int query,
                         int (*write)(void *ud, const char *p, size_t n), void *ud);

/* ---- the HTML report ------------------------------------------------------------------------ */

/* Starts a report: from now on every query that rx_exec runs adds a section to one
 * self-contained HTML page ("What the engine did", as the spec's pages show it): the query's
 * input tables and result (at most 20 rows each), the rewrites applied, the physical plan
 * with estimated and actual rows per operator, and for each interval or AS-OF join a timeline
 * drawn in SVG. An error adds its message. The page has inline CSS and SVG only: no script,
 * and nothing it loads from elsewhere. It is written through write(ud, bytes, n) (which
 * returns 0, or non-zero to fail) as the queries run, page head first; the same run writes
 * the same bytes. title heads the page (the script's name). Returns 0, or non-zero when a
 * report is already open or memory ran out. */
int rx_report_begin(RxSession *s, const char *title, int (*write)(void *ud, const char *p, size_t n),
                    void *ud);
/* Narrows the open report's timelines, for the queries run after it, to the interval-join
 * pairs and AS-OF probes whose left row's partition key prints as key (NULL: any key; several
 * key columns: their values joined by ", ") and, for window "FROM,TO" (in the columns' own
 * type: numbers, dates, timestamps, times, text; NULL: all time), to the pairs whose two
 * intervals both meet [FROM, TO] and the probes whose match value lies in it. A join the
 * focus cannot apply to (no key, a window of another type) says why on the page instead of
 * drawing. 0, or non-zero when no report is open or window has no comma. */
int rx_report_focus(RxSession *s, const char *key, const char *window);

/* Writes the end of the page and closes the report. Returns 0, or non-zero when no report was
 * open or a write failed (the page is then incomplete). rx_close drops an open report without
 * writing more. */
int rx_report_end(RxSession *s);

/* ---- progress ------------------------------------------------------------------------------- */

/* Shows the progress of long steps (reading a CSV file, an interval or AS-OF join) as one line
 * for a terminal: write(ud, bytes, n) receives "\r", the line ("loading trades.csv 45% (210 MB
 * of 444 MB) 3.2 s") and "\033[K", at most ten times a second and only once the run has been
 * busy for a second (and the step for 0.3 s), and "\r\033[K" when the step ends, before
 * anything else happens. The calls come from a thread of the session's, only while rx_exec
 * runs, never while a result callback runs. NULL turns it off (the default). Either way
 * rx_interrupt stops a CSV file's reading mid-file. */
void rx_set_progress(RxSession *s, int (*write)(void *ud, const char *p, size_t n), void *ud);

/* Timings of the last rx_exec, in seconds: loading sources, analysis and planning, running
 * the queries (of which inside join operators); and memory: the most the engine had allocated
 * at once while its queries loaded their columns and ran (what the memory limit counts:
 * columns, arenas, hash tables, join buffers; not the mappings of input files; docs/memory.md),
 * and the memory limit in force then (0: none; the CLI's --memory-limit). */
typedef struct {
    double load_s, analyze_s, run_s, join_s;
    size_t peak_bytes, limit_bytes;
    int streamed;        /* queries of the last rx_exec that ran chunk by chunk (rx_set_stream) */
} RxTiming;
RxTiming rx_timing(const RxSession *s);
/* The peak memory of every operator of the last rx_exec's queries, as EXPLAIN ANALYZE measures
 * it, one line each in EXPLAIN order, headed by the query's file and line:
 * "  m.rx:3  └─ AsOfJoin backward/inner  peak=120.3 MB (47% of 256 MiB)" (the share only under
 * a limit). "" when no operator ran. Owned by the session, valid until the next rx_exec. */
const char *rx_timing_memory(const RxSession *s);

/* ---- a host program's data ------------------------------------------------------------------ */

/* One column handed to rx_register_columns, in the layout of the Arrow C data interface's
 * primitive arrays:
 *   RX_TYPE_INT       data: int64_t[n]                      read in place
 *   RX_TYPE_FLOAT     data: double[n]                       read in place
 *   RX_TYPE_BOOL      data: uint8_t[n], each 0 or 1         read in place
 *   RX_TYPE_DATE      data: int32_t[n], days since 1970-01-01   read in place
 *   RX_TYPE_TIMESTAMP data: int64_t[n] since 1970-01-01T00:00:00Z in units of 1/unit second
 *   RX_TYPE_TIME      data: int64_t[n] since midnight, the same units
 *                     unit 1000000 (microseconds, Relix's own) is read in place; 1, 1000 and
 *                     1000000000 are converted into a copy, and a nanosecond value that is not
 *                     a whole microsecond is an error (Relix keeps microseconds; nothing is
 *                     rounded silently)
 *   RX_TYPE_TEXT      UTF-8 text, either offsets: int64_t[n + 1] into data (row i is
 *                     data[offsets[i] .. offsets[i + 1])), or, offsets NULL, width > 0:
 *                     row i is the width bytes at data + i * width up to the first NUL (the
 *                     layout of numpy's 'S' arrays). The bytes are read in place; Relix
 *                     keeps a 16-byte slice per row. Invalid UTF-8 is an error.
 *                     Dictionary-coded (Arrow's dictionary arrays, pandas' categoricals):
 *                     codes non-NULL, int32_t[n]; data with offsets (int64_t[n_dict + 1]) or
 *                     width then hold the n_dict dictionary values in the layouts above, and
 *                     row i is value codes[i]; a negative code is NULL. The dictionary's bytes
 *                     are read in place, the codes copied; values repeated in the dictionary
 *                     are one value (nothing need be distinct), values no row uses are
 *                     allowed. Joins, grouping and rx_result_text_dict then work on the codes
 *                     instead of hashing each row's text. A code past the dictionary is an
 *                     error naming the row.
 * valid: NULL when no value is NULL; else a bitmap, row i valid when bit (i % 8) of byte
 * valid[i / 8] is set (Arrow's validity bitmap); it is copied. */
typedef struct {
    const char *name;
    RxColType type;
    const void *data;
    const uint8_t *valid;
    int64_t unit;
    const int64_t *offsets;
    size_t width;
    const int32_t *codes;   /* TEXT only: dictionary codes, or NULL (see above) */
    size_t n_dict;          /* with codes: the dictionary's values */
} RxColumnIn;

/* Defines relation `name` in s over a host program's columns, n_rows rows each, as if a script
 * had defined an inline table: queries of later rx_exec calls name it. Numbers, dates and
 * timestamps in Relix's units and text bytes are read in place, never copied: the caller keeps
 * every buffer valid and unchanged until the session is closed. Returns 0, or non-zero with
 * rx_errmsg: a name already defined (RX_ERR_NAME), an unknown type, a bad unit, a BOOL other
 * than 0 or 1, invalid UTF-8, a sub-microsecond timestamp (RX_ERR_VALUE, naming the column and
 * row), more rows than a table holds (RX_ERR_LIMIT), out of memory. Nothing is defined on
 * failure. */
int rx_register_columns(RxSession *s, const char *name, int n_cols, const RxColumnIn *cols,
                        size_t n_rows);

/* Numbers the distinct values of v[0 .. n) in order of first appearance: codes[i] is the number
 * of v[i]'s value (0, 1, ...), and first[k] the row where value k first appears. Meant for a
 * language binding that holds text as references to its own string objects (a column of Python
 * str): it numbers the references without touching the strings, then hands rx_register_columns
 * the codes and one dictionary value per distinct reference (values repeated there are one
 * value). codes holds n entries and first as many as there may be distinct values (n at most);
 * both are the caller's. Returns how many distinct values there are, or -1 when out of memory
 * or when n exceeds INT32_MAX (codes are int32). Thread-safe: it uses no session. */
int64_t rx_factorize_u64(const uint64_t *v, size_t n, int32_t *codes, int64_t *first);

/* One column of a result, column at a time, in the layout of RxColumnIn: INT, TIMESTAMP and
 * TIME int64_t (TIMESTAMP and TIME in microseconds, unit = 1000000), FLOAT double, BOOL uint8_t,
 * DATE int32_t, DURATION two int64_t per row (months, then microseconds), TEXT offsets (n + 1)
 * into data. A NULL row's value is unspecified (0 for numbers, empty for text); valid is NULL
 * when no row is NULL, else Arrow's validity bitmap. Everything points into the result: valid
 * only during the callback that received it, never to be freed or written. */
typedef struct {
    RxColType type;
    size_t n;
    const void *data;
    const uint8_t *valid;
    int64_t unit;
    const int64_t *offsets;
} RxColumnOut;

/* Fills *out with column col of r. Numbers, dates and timestamps point at the result's own
 * arrays (no copy); text offsets are built once per column. 0, or -1 for a column out of range
 * or out of memory (*out then zeroed). */
int rx_result_column(const RxResult *r, int col, RxColumnOut *out);

/* A TEXT column of a result dictionary-encoded, as Arrow's dictionary arrays and pandas'
 * categoricals are: codes (int32_t[n], -1 for NULL) index its distinct values in order of first
 * appearance, value k being dict_data[dict_offsets[k] .. dict_offsets[k + 1]). Valid only
 * during the callback. A column that carries a dictionary (registered dictionary-coded, or a
 * CSV column of few values, and what a query passes through unchanged) is coded from it
 * without hashing a row. 0, or -1 for a column out of range, not TEXT, or out of memory (*out
 * zeroed then). */
typedef struct {
    size_t n;
    const int32_t *codes;
    size_t n_dict;
    const int64_t *dict_offsets;
    const char *dict_data;
} RxTextDict;
int rx_result_text_dict(const RxResult *r, int col, RxTextDict *out);

/* ---- the Arrow C data interface ------------------------------------------------------------- */

/* The two structs of the Arrow C data interface, as its specification declares them
 * (arrow.apache.org/docs/format/CDataInterface.html), so that any Arrow producer or consumer
 * exchanges data with Relix without a library. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

/* Defines relation `name` over an Arrow record batch: schema and array describe a struct array
 * (format "+s") whose children are the columns. Column formats taken:
 *   l (int64)                       INT, read in place
 *   c C s S i I L (other integers)  INT, converted (a uint64 above INT64_MAX is an error)
 *   g (double)                      FLOAT, read in place;  f (float) FLOAT, converted
 *   b (bool)                        BOOL, converted
 *   u, U (utf8, large_utf8)         TEXT, the bytes read in place (a 16-byte slice per row)
 *   an integer index with a u or U dictionary   TEXT, the dictionary's bytes read in place
 *   tdD (date32)                    DATE, read in place;  tdm (date64) DATE, whole days only
 *   tsu:ZONE, ttu (timestamp, time64 in microseconds)    TIMESTAMP, TIME, read in place
 *   ts[smn]:ZONE, tts ttm ttn       converted; a nanosecond value that is not a whole
 *                                   microsecond is an error (Relix never rounds silently)
 *   tD[smun] (duration)             DURATION, converted
 * A timestamp's zone does not change its instant (Arrow stores UTC); one without a zone is
 * taken as UTC. Validity bitmaps and offsets (the batch's and each child's) are honoured.
 * Ownership, as the specification has it for a consumer: Relix takes both structs over in
 * every case, moving them (the caller's structs are marked released: release set to NULL), and
 * calls each release callback exactly once: the schema's before returning, the array's when
 * the session is closed (its buffers are read in place until then), or before returning when
 * the call fails. Returns 0, or non-zero with rx_errmsg naming the column: a name already
 * defined (RX_ERR_NAME), a format Relix cannot take (RX_ERR_UNSUPPORTED), bad data
 * (RX_ERR_VALUE), too many rows (RX_ERR_LIMIT), out of memory; nothing is defined then. */
int rx_register_arrow(RxSession *s, const char *name, struct ArrowSchema *schema, struct ArrowArray *array);

/* Exports column col of r (col -1: every column, as a record batch: a struct array "+s" with a
 * child per column) into *schema and *array, which the caller owns and releases with their
 * release callbacks (the consumer's duty in the specification); they stay valid after the
 * callback, the result and the session are gone, since every buffer is a copy made for them.
 * Formats: INT l, FLOAT g, BOOL b, TEXT u (U beyond 2 GiB of text), TIMESTAMP tsu:UTC, DATE
 * tdD, TIME ttu, DURATION tDu, a column of NULLs n; NULLs as validity bitmaps. 0, or -1 (col
 * out of range, out of memory, a DURATION with months, which no Arrow duration holds) with
 * both structs released (release NULL). */
int rx_result_arrow(const RxResult *r, int col, struct ArrowSchema *schema, struct ArrowArray *array);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
