/*
 * analysis.h - the second stage: AST -> typed logical plan.
 *
 * The catalog holds every name a session has defined: inline tables (converted to columns when
 * defined), CSV sources (loaded on first use, once per run), and views (analyzed on first use;
 * a view that reaches itself is an error). sema_query binds the names of one query, gives every
 * expression a type, checks each operator and returns a logical plan whose view references are
 * LP_VIEW nodes for the rewrite stage to inline.
 *
 * Names (docs/design.md): every column has a display name (unique within a schema; a join's right
 * column whose name is taken gets _r, _r2 ...), its own base name (before any suffix) and the
 * qualifier it came from (relation, view or ρ alias). Q.x matches qualifier Q and base (or
 * display) name x; a bare x matches the display name, else a unique base name.
 *
 * Memory: plans and expressions live in the arena given; tables belong to the catalog.
 */
#ifndef RX_ANALYSIS_H
#define RX_ANALYSIS_H

#include "base/base.h"
#include "syntax/syntax.h"
#include "types/column.h"
#include "types/lang.h"
#include "types/temporal.h"

typedef struct {
    const char *name;   /* display name */
    const char *base;   /* own name before any _r suffix */
    const char *qual;   /* qualifier; NULL for a computed column */
    RxType type;
} ColInfo;

typedef struct {
    int n;
    ColInfo *cols;
} Schema;

/* ---- typed expressions ---------------------------------------------------------------------- */

typedef enum {
    EX_COL,      /* input column `col` */
    EX_CONST,    /* `value` */
    EX_UNARY,    /* op args[0] */
    EX_BINARY,   /* args[0] op args[1] */
    EX_ISNULL,   /* args[0] IS [NOT] NULL */
    EX_CALL,     /* fn(args) */
    EX_CASE      /* args: when0, then0, when1, then1, ..., else (NULL constant when absent) */
} ExprKind;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    RxType type;
    RxSpan span;
    const RxSource *src;
    AstOp op;
    int col;
    Value value;         /* EX_CONST; TEXT points into the arena */
    FuncId fn;
    TmField field;       /* extract / date_trunc: the constant field */
    bool negated;        /* EX_ISNULL */
    Expr **args;
    int n_args;
};

/* ---- logical plan --------------------------------------------------------------------------- */

typedef enum {
    LP_SCAN, LP_SELECT, LP_PROJECT, LP_RENAME, LP_VIEW, LP_IJOIN, LP_ASOF,
    LP_WJOIN,            /* the window join: in[0]'s columns, then one per aggregate */
    LP_JOIN, LP_SETOP, LP_DISTINCT, LP_SORT, LP_TOP, LP_GROUP,
    LP_ISET,             /* an interval-set operator (iset_op below) */
    LP_WINDOW,           /* ω: in[0]'s columns, then one per window function */
    LP_FILL,             /* FILL: one row per bucket per key, in[0]'s columns */
    LP_SQL               /* a subtree pushed down to a database as one statement */
} LpKind;

typedef enum {
    AGG_COUNT_STAR, AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX, AGG_FIRST, AGG_LAST,
    AGG_STDDEV, AGG_STDDEV_POP, AGG_VARIANCE, AGG_VAR_POP, AGG_MEDIAN, AGG_QUANTILE,
    AGG_STRING_AGG, AGG_ARG_MIN, AGG_ARG_MAX, AGG_BOOL_AND, AGG_BOOL_OR
} AggFn;

typedef struct {
    AggFn fn;
    Expr *arg;           /* NULL for count(*) */
    Expr *arg2;          /* string_agg's separator, arg_min/arg_max's ordering value; else NULL */
    double q;            /* quantile: the constant fraction, 0 to 1 (median: 0.5) */
    bool distinct;       /* count(DISTINCT x) */
    RxType type;         /* result type */
} AggSpec;

typedef struct {
    Expr *e;
    bool desc;
    bool nulls_first;
} SortKey;

/* One window function of ω. frame: WF_RUNNING (the partition's rows up to the current one),
 * WF_ROWS (the current row and `rows` before it), WF_RANGE (the rows whose order value v lies in
 * [cur - range, cur], peers included; range is in the order key's unit: microseconds for
 * TIMESTAMP and DATE, else the number, in range_f for a FLOAT order). lag/lead: offset and the
 * default (NULL: none). */
typedef enum { WF_RUNNING, WF_ROWS, WF_RANGE } WinFrame;
enum { FILL_NULL, FILL_PREVIOUS, FILL_LINEAR };
typedef struct {
    WinFn fn;
    bool star;           /* count(*) */
    Expr *arg;
    int64_t offset;
    Expr *def;
    WinFrame frame;
    int64_t rows;
    int64_t range;
    double range_f;
    RxType type;         /* result type */
} WinSpec;

typedef struct LPlan LPlan;
struct LPlan {
    LpKind kind;
    Schema schema;
    RxSpan span;
    const RxSource *src;
    LPlan *in[2];
    /* LP_SCAN */
    const char *rel_name;
    Table *table;        /* borrowed from the catalog */
    void *source;        /* the RelDef behind the scan, to load CSV columns on first use */
    /* LP_SELECT */
    Expr *pred;
    /* LP_PROJECT: items evaluated over in[0]; duplicates removed (first occurrence kept) */
    Expr **items;
    int n_items;
    /* LP_VIEW: the view's name; in[0] is its body */
    const char *view_name;
    /* LP_IJOIN: join_kind (below) is JOIN_INNER, JOIN_LEFT (every left row, NULL-padded),
     * JOIN_SEMI or JOIN_ANTI (the left rows with some / with no partner: in[0]'s schema).
     * point (IJOIN AT): the left point ends[0] (= ends[1]) lies in [rs, re): rs <= t < re;
     * relation is then INTERSECTS, which the executor runs on [t, t+1). */
    IjRelation relation;
    IjRelSet relset;     /* IJOIN (R1 | R2 | ...): two members or more, relation then
                          * IJ_N_RELATIONS; 0: the one relation */
    bool point;
    int ends[4];         /* ls, le in in[0]'s schema; rs, re in in[1]'s */
    /* LP_ASOF */
    AsofDir dir;
    bool inner;
    bool ties_first;
    bool nearest;        /* NEAREST: dir says which side wins equal distances (asof.h) */
    int asof_k;          /* k nearest rows with a rank column last in the schema (0: one row) */
    bool ties_all;       /* TIES(ALL): every row of the k nearest values (asof_k >= 1) */
    bool has_within;
    RxDuration within;
    int n_keys;
    int *lkeys, *rkeys;  /* equality keys: columns of in[0] and in[1] (ASOF, JOIN, fused IJOIN) */
    int lmatch, rmatch;  /* the match columns */
    /* LP_WJOIN: for each row of in[0], the aggregates `aggs` over the rows of in[1] with equal
     * keys (lkeys/rkeys) whose rmatch value v lies in [t + wj_lo, t + wj_hi] (t the row's
     * lmatch value; both ends in the match columns' unit: microseconds for TIMESTAMP, days for
     * DATE, the number for INT; wj_lo <= wj_hi). prevailing: also the latest right row before
     * t + wj_lo when no right row lies at t + wj_lo itself. */
    int64_t wj_lo, wj_hi;
    bool prevailing;
    /* LP_JOIN: join_kind (JoinKind); residual condition over in[0]'s columns followed by
     * in[1]'s (NULL: none). For JOIN_SEMI/RSEMI/ANTI the output is one input's schema. */
    int join_kind;
    Expr *residual;
    int *right_out;      /* natural join: which right columns are output (-1 ends); NULL all */
    /* LP_SETOP */
    int set_op;
    /* LP_SORT, LP_TOP (BY) */
    SortKey *sort;
    int n_sort;
    /* LP_TOP: n rows, per group of `group` expressions (n_group 0: the whole input) */
    int64_t top_n;
    Expr **group;
    int n_group;
    /* LP_GROUP: keys in `group`, aggregates */
    AggSpec *aggs;
    int n_aggs;
    /* LP_ISET: iset_op (IsetOp). ends[0..1] are the interval of in[0] (start, end), ends[2..3]
     * the other side's for the binary forms (in[1] NULL for the unary ones). Unary forms: the
     * BY keys in `group` (EX_COL of in[0]); PACK's aggregates in `aggs`; GAPS' outer range
     * [range_lo, range_hi) when has_range (constant expressions of the endpoints' type).
     * Binary forms: the ON equalities in lkeys/rkeys/n_keys. The schema: PACK and GAPS give the
     * keys, start, end (and PACK its aggregates); the others in[0]'s schema, the interval
     * replaced by each piece. */
    int iset_op;
    bool has_range;
    Expr *range_lo, *range_hi;
    /* LP_WINDOW: partition keys in `group`, the order in `sort`, the functions */
    WinSpec *wins;
    int n_wins;
    /* LP_FILL: the time column fill_col of in[0], bucketed by `within` (a fixed length); keys in
     * `group` (column references); per column its rule: FILL_NULL, FILL_PREVIOUS, FILL_LINEAR */
    int fill_col;
    uint8_t *fill_rule;
    bool fill_range;     /* FROM fill_from TO fill_to: every key spans those buckets too */
    int64_t fill_from, fill_to;
    /* LP_SQL: the connection's definition, the statement (connect.h) and the subtree it
     * stands for (the planner estimates from it when the database cannot) */
    struct RelDef *conn_def;
    struct DbStatement *stmt;
    const LPlan *pushed;
};

/* ---- catalog -------------------------------------------------------------------------------- */

struct CsvFile;
struct PqFile;
struct DbConn;

typedef struct RelDef RelDef;
struct RelDef {
    const char *name;
    const Stmt *stmt;
    const RxSource *src;
    Table *table;        /* inline tables (owned here) and CSV files (owned by csv) */
    struct CsvFile *csv; /* a CSV source: columns are converted when a query first uses them */
    struct PqFile *pq;   /* a Parquet source: columns are decoded when a query first uses them */
    struct PqFile **pq_parts; /* ... and the same file restricted to some row groups, for scans
                               * under a σ that its statistics rule out elsewhere */
    int n_pq_parts;
    struct DbConn *conn; /* ST_CONNECT: the open connection */
    RelDef *db;          /* a database table (name "Conn.table"): its connection's definition */
    const char *db_table;/* ... and the table's own name */
    void *db_schema;     /* DbSchema * (connect.h) */
    bool *db_loaded;     /* per column: fetched */
    LPlan *plan;         /* views: the analyzed body */
    Schema schema;       /* the relation's own schema (qualifier = its name) */
    int state;           /* 0 not analyzed, 1 being analyzed, 2 done */
};

/* The parameters of a prepared query ($1, :name; syntax.h) while it is analyzed. With values
 * NULL (rx_prepare checks the script) a parameter is analyzed as an untyped NULL, and hint[k]
 * records the type parameter k meets as the other operand of an operator (TY_NULL: none seen),
 * so that a bind of a wrong type fails at once. With values, parameter k is the constant
 * values[k] (its type the bound value's), an error when !bound[k]. */
typedef struct {
    const Value *values;
    const bool *bound;
    RxType *hint;
    RxSpan *hint_span;   /* the operand that gave hint[k] */
    int n;
} QueryParams;

typedef struct {
    Arena *arena;        /* long-lived: definitions, view plans, schemas */
    const QueryParams *params; /* a prepared query's parameters while it is analyzed, else NULL
                                  (a parameter is then an error) */
    RelDef **defs;
    size_t n, cap;
    const char *base_dir; /* relative CSV paths resolve against it (the script's folder) */
    double load_s;        /* time spent reading sources, for --timing */
} Catalog;

void catalog_init(Catalog *c, Arena *a);
/* Frees the tables the catalog owns (not the arena). */
void catalog_free(Catalog *c);
RelDef *catalog_find(const Catalog *c, const char *name);

/* Registers the definitions of a script (redefinition is an error naming both places), builds
 * inline tables, then analyzes every view and query so that every name and type error is
 * reported before anything runs. */
int sema_define_script(Catalog *c, const Script *s, RxError *err);

/* The logical plan of a query statement of script sc (already registered with
 * sema_define_script), in arena a. */
LPlan *sema_query(Catalog *c, Arena *a, const Script *sc, const Stmt *st, RxError *err);

/* Internal to the analysis stage (catalog.c, used by sema.c): registers one definition
 * (building an inline table's columns), and loads a CSV or Parquet definition's table on first
 * use (a Parquet file's footer only: its columns are placeholders until catalog_load_columns). */
int catalog_define(Catalog *c, const Stmt *st, const RxSource *src, RxError *err);
/* Registers table t (the catalog takes it over, freed on failure too) under name, as an inline
 * table is: a host program's columns (rx_register_columns). RX_ENAME when name is taken. */
int catalog_define_table(Catalog *c, const char *name, Table *t, RxError *err);
int catalog_load_csv(Catalog *c, RelDef *d, RxError *err);
/* The definition of table `table` of connection `conn_name` (created on first use: its schema
 * comes from the database's catalog, its columns are fetched when a query uses them). */
RelDef *catalog_db_table(Catalog *c, const RelDef *conn, const char *table, RxSpan where,
                         const RxSource *src, RxError *err);
/* Frees what a definition owns (its table or CSV file). */
void catalog_release_def(RelDef *d);
/* Converts the columns of a CSV or Parquet source that want marks (NULL: all) and are not loaded yet;
 * adds the time to c->load_s. No-op for other definitions. */
int catalog_load_columns(Catalog *c, RelDef *d, const uint8_t *want, RxError *err);

/* Row-group skipping: returns plan p with every scan of a Parquet source that sits directly
 * under a σ replaced (in copies of the nodes above it, in arena a; shared nodes are never
 * changed) by a scan of only the row groups whose min/max statistics do not prove a conjunct
 * `column op constant` (=, <, <=, >, >=) of the condition false. p itself when nothing is
 * skipped; NULL with err when the file cannot be opened again. */
LPlan *catalog_skip_row_groups(Catalog *c, Arena *a, LPlan *p, RxError *err);
/* catalog_load_columns for the source of a scan, which may read some row groups only. */
int catalog_load_scan(Catalog *c, const LPlan *scan, const uint8_t *want, RxError *err);

/* Human text of a schema column for messages: "Q.name" or "name". */
const char *sema_col_label(Arena *a, const ColInfo *ci);

#endif
