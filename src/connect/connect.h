/*
 * connect.h - database connections: SQLite (libsqlite3, the embedded default) and PostgreSQL
 * (libpq, and every engine that speaks its protocol).
 *
 * A connection is opened from a connection string: sqlite:path/to/file.db (a relative path is
 * taken from the script's folder by the caller), a PostgreSQL URI postgresql://user@host:port/db
 * (postgres:// too) or libpq's keyword/value form "host=h dbname=d", both parsed by libpq's own
 * parser. The password never comes from the script: libpq reads PGPASSWORD, ~/.pgpass or a
 * service file, and a string that holds one in any spelling (user:pw@, ?password=, password=,
 * sslpassword=; SQLite's key=) is refused without showing it. Messages and EXPLAIN show only
 * db_display(), rx_redact's form of the string.
 *
 * DuckDB: duckdb:path/to/file.db (relative like SQLite's; duckdb::memory: an empty in-memory
 * one), opened read-only in this process through libduckdb.so (connect/duckdb.h).
 * MariaDB and MySQL connections (mysql://, mariadb://) are in connect/mariadb.c.
 * H2: h2://user@host:port/db, its PostgreSQL-protocol server through libpq (connect/h2.c); a
 * postgresql:// string that reaches an H2 server is taken as H2 too.
 * MongoDB: mongodb://[user@]host[:port]/db (mongodb+srv:// too) through libmongoc
 * (connect/mongo.c): a collection is a relation whose columns are its documents' fields
 * (connect/mongo_flatten.h); nothing is pushed down.
 *
 * A database table's order, which Relix's defined result order needs, is the order of its
 * primary key, else SQLite's or DuckDB's rowid, PostgreSQL's ctid or H2's _ROWID_: scans and pushed statements both
 * sort by it, so a pushed join returns exactly what the engine would.
 */
#ifndef RX_CONNECT_H
#define RX_CONNECT_H

#include "base/base.h"
#include "types/column.h"

/* DB_MARIADB: MariaDB from 10.2; DB_MYSQL: MySQL from 8.0.17; DB_MYSQL_OLD: either before
 * (connect/mariadb.c). */
typedef enum { DB_SQLITE, DB_POSTGRES, DB_DUCKDB, DB_MARIADB, DB_MYSQL, DB_MYSQL_OLD, DB_H2, DB_MONGO } DbKind;

typedef struct DbConn DbConn;

/* Opens uri. -1 with err (RX_EIO: cannot connect / no such file; RX_EVALUE: a malformed string
 * or one that holds a password; the message never contains the secret). */
int db_open(const char *uri, const char *base_dir, DbConn **out, RxError *err);
void db_close(DbConn *c);
DbKind db_kind(const DbConn *c);
/* The connection string as shown (rx_redact's form), for messages and EXPLAIN. */
const char *db_display(const DbConn *c);

/* How a column's stored values relate to its Relix type, which decides what a pushed statement
 * may do with it (src/rewrite/pushsql.c; docs/connect.md, "Pushdown"). */
typedef enum {
    DBN_EXACT,    /* the stored value is the Relix value: PostgreSQL int8, float8, text, varchar,
                   * bool, date, time, timestamp, timestamptz, interval; SQLite INTEGER and TEXT
                   * affinity */
    DBN_INT4,     /* PostgreSQL int2, int4: exact, but their arithmetic overflows at 32 bits */
    DBN_FLOAT4,   /* PostgreSQL float4: Relix reads its text as a double */
    DBN_NUMERIC,  /* PostgreSQL numeric: Relix rounds the decimal to a double */
    DBN_REAL,     /* SQLite REAL and NUMERIC affinity: a REAL or an INTEGER value */
    DBN_OPAQUE    /* anything else (read in its text form): carried, never computed on */
} DbNative;

typedef struct {
    int n_cols;
    char **names;        /* malloc'd */
    RxType *types;
    DbNative *native;
    char *order_by;      /* SQL expression list ordering the table (quoted), malloc'd */
    int n_order;         /* the same as columns: quoted identifiers, or rowid / ctid */
    char **order;
    double rows_est;     /* the table's row count as the database estimates it; < 0 unknown */
    bool order_int;      /* the order is one integer that is never NULL: SQLite's rowid or an
                          * INTEGER PRIMARY KEY, a PostgreSQL integer primary key */
    char **collation;    /* per column (PostgreSQL text columns): the name of its collation when
                          * that is deterministic (text equal under it only when bytewise equal,
                          * so `=` needs no COLLATE "C" and an index on it serves); else NULL.
                          * malloc'd, NULL when no column has one */
} DbSchema;

/* Appends the table's order as SQL, each item qualified by alias (NULL: none), each followed by
 * suffix (" DESC", or ""). */
void db_order_sql(StrBuf *b, const DbSchema *s, const char *alias, const char *suffix);

/* The columns of table (from the database's catalog) with Relix types (docs/connect.md lists
 * the mapping); RX_ENAME when there is no such table, RX_ETYPE for a column type Relix cannot
 * represent. */
int db_table_schema(DbConn *c, const char *table, DbSchema *out, RxError *err);
void db_schema_free(DbSchema *s);

/* Runs a SELECT whose result has n_cols columns of the given types and names into a new table
 * (all rows fetched in one round trip on PostgreSQL). A value that does not convert is an
 * error naming the column and row. */
int db_query(DbConn *c, const char *sql, int n_cols, const RxType *types, const char *const *names,
             Table **out, RxError *err);

/* A pushed statement: SQL whose literals are parameters ($1, $2 ... on PostgreSQL, ?1, ?2 ... on
 * SQLite), never spliced into the text. Its result has one column per entry of `fetched` that is
 * set, in order; the relation it stands for has n columns (the others are not read above). */
typedef struct DbStatement {
    const char *sql;
    int n_params;
    const Value *params;     /* INT, FLOAT, BOOL, TEXT, TIMESTAMP, DATE, TIME or DURATION */
    const uint8_t *fetched;  /* per column of the relation; NULL: all */
    double rows_est;         /* the database's estimate of the rows, once asked; < 0 not yet */
    const char *show_name;   /* NULL, or a dialect EXPLAIN also shows the statement in ... */
    const char *show_sql;    /* ... and the statement in it (NULL: it has no exact form there) */
} DbStatement;

/* Runs st into a new table of n_cols columns (types and names per column): the fetched ones
 * from the database, placeholders without data for the others. Errors as db_query. */
int db_run(DbConn *c, const DbStatement *st, int n_cols, const RxType *types, const char *const *names,
           Table **out, RxError *err);

/* The rows PostgreSQL's planner expects from st (EXPLAIN's estimate of its top node). -1 when
 * it cannot tell (SQLite, or EXPLAIN failed): estimates never fail a query. */
int db_explain_rows(DbConn *c, const DbStatement *st, double *rows);

/* The row count of a table: sqlite_stat1 when ANALYZE filled it, else count(*) on SQLite;
 * pg_class.reltuples once the table was analyzed, else count(*), on PostgreSQL. Cached in
 * s->rows_est. -1 when the database does not answer. */
int db_table_rows(DbConn *c, const char *table, DbSchema *s, double *rows);

/* Whether table has a plain (B-tree, not partial) index whose first columns are the n_lead
 * columns named in lead, in any order, followed by the column `then` (NULL: nothing more):
 * the index a lateral AS-OF probe `key = ... AND match <= ... ORDER BY match DESC LIMIT 1`
 * needs. False when the database does not answer (an answer never fails a query). */
bool db_has_index(DbConn *c, const char *table, const char *const *lead, int n_lead, const char *then);

/* Asks the server to cancel the statement c runs now (PQcancel; sqlite3_interrupt on SQLite).
 * Safe to call from another thread or a signal handler while c is in use; does nothing when
 * nothing runs. */
void db_cancel(DbConn *c);
/* db_cancel on every connection that runs a statement now (async-signal-safe: for Ctrl-C and
 * SIGTERM, before the process exits). */
void db_cancel_running(void);
/* Tags c as belonging to owner (a session's catalog), for db_cancel_owned; set once, before c
 * runs anything. */
void db_set_owner(DbConn *c, const void *owner);
/* db_cancel on every connection of owner that runs a statement now, and on no other (another
 * session's statements go on). Safe from another thread or a signal handler while owner's
 * connections are open. */
void db_cancel_owned(const void *owner);

/* Appends st's parameters as EXPLAIN shows them: " with $1 = 'a''b', $2 = 5" (nothing when
 * there are none). */
void db_params_text(const DbConn *c, const DbStatement *st, StrBuf *b);

/* SQLite's library version (3040001 for 3.40.1): window functions need 3.25, NULLS FIRST and
 * LAST 3.30, RIGHT and FULL joins 3.39. 0 before the first SQLite connection was opened (the
 * library is loaded by it, not before). */
int db_sqlite_version(void);

/* ---- MariaDB and MySQL (connect/mariadb.c; used by connect.c only) ----------------------------
 *
 * A connection string is mysql://[user@]host[:port]/db or mariadb://..., or the socket form
 * mysql:///db?socket=/path/to/socket. It never holds a password: libmariadb reads it from the
 * client's option files ([client] group of ~/.my.cnf and the system files) or MYSQL_PWD. The
 * session is set to UTC, utf8mb4 and the ANSI_QUOTES, PIPES_AS_CONCAT and NO_BACKSLASH_ESCAPES
 * modes, so that identifiers quoted "as in SQL" and literals with doubled quotes mean what they
 * mean on PostgreSQL and SQLite. */
typedef struct MyConn MyConn;

/* Opens uri (checked first: a password in it is refused, RX_EVALUE). display is the redacted
 * form for messages. *kind is set to the dialect family the server's reported flavour and
 * version allow (connect.h). -1 with err (RX_EIO: cannot connect). */
int my_open(const char *uri, const char *display, MyConn **out, DbKind *kind, RxError *err);
void my_close(MyConn *m);

/* The columns of table in the connection's database from information_schema, with Relix types
 * (docs/connect.md), and its order: the primary key, else all its columns. Errors as
 * db_table_schema. */
int my_table_schema(MyConn *m, const char *display, const char *table, DbSchema *out, RxError *err);

/* Runs sql, whose marks ?1 ?2 ... stand for params[0], params[1] ..., streaming its rows
 * (mysql_use_result: never the whole answer in client memory) into a new table of n_cols columns
 * of the given types and names. A value that does not convert is an error naming the column and
 * the row; a server error names the connection and quotes the server's message. */
int my_query(MyConn *m, const char *display, const char *sql, const Value *params, int n_params, int n_cols,
             const RxType *types, const char *const *names, Table **out, RxError *err);

/* The table's row estimate (information_schema.TABLES.TABLE_ROWS), else count(*). -1 when the
 * server does not answer. */
int my_table_rows(MyConn *m, const char *table, double *rows);

/* Whether table has an index whose first columns are the n_lead columns in lead (any order),
 * then `then` (NULL: nothing more). False when the server does not answer. */
bool my_has_index(MyConn *m, const char *table, const char *const *lead, int n_lead, const char *then);

/* Asks the server to stop the statement m runs now (KILL QUERY over a second connection). Safe
 * to call from a signal handler: the request is handed to a helper thread through a pipe, and
 * the caller waits at most two seconds for it to be sent. Does nothing when nothing runs. */
void my_cancel(MyConn *m);

/* Helpers connect.c shares with this file: text in a database's answer as a Relix value, and
 * the error for one that is not. */
int db_text_value(RxType t, const char *s, size_t n, Value *v, const char **why);
int db_bad_value(RxError *err, const char *col, size_t row, RxType t, const char *s, size_t n, const char *why);

/* Appends a column (name copied) to s, and an item (copied: a quoted identifier, or rowid and
 * the like) to s's order; -1 when out of memory (the caller frees s). */
int db_schema_add(DbSchema *s, const char *name, RxType t, DbNative nat);
int db_schema_order_add(DbSchema *s, const char *quoted_or_raw);

/* EXPLAIN's text of the find that reads the columns marked in want (per column of table's
 * schema; NULL: all) on a MongoDB connection, appended to b; nothing for another kind. */
void db_find_text(DbConn *c, const char *table, const uint8_t *want, StrBuf *b);

/* Reads the k columns named in names (types as db_table_schema gave them) of a MongoDB
 * collection whose schema db_table_schema read, in _id order, into a new table. A document
 * with a value its column cannot hold, or (beyond the sample the schema came from) a field the
 * schema lacks, is an error naming the collection, the document's number and the field. */
int db_collection_read(DbConn *c, const char *table, int k, const RxType *types, const char *const *names,
                       Table **out, RxError *err);

/* ---- MongoDB (connect/mongo.c; used by connect.c only) -------------------------------------
 *
 * A connection string is mongodb://[user@]host[:port][,host...]/db[?options] (or
 * mongodb+srv://), parsed by libmongoc, plus Relix's own option sample=N|all (the documents a
 * collection's columns are inferred from; 1000 by default). It never holds a password: with a
 * user named, the password comes from MONGODB_PASSWORD. Server selection and connecting time
 * out after 3 seconds unless the string says otherwise. */
typedef struct MongoConn MongoConn;

/* Opens uri and pings its server. secret: rx_redact found a secret in uri (refused, as is a
 * password libmongoc finds in it). display is the redacted form for messages. -1 with err
 * (RX_EVALUE: malformed, a password, no database; RX_EIO: no server answers). */
int mongo_open(const char *uri, const char *display, bool secret, MongoConn **out, RxError *err);
void mongo_close(MongoConn *m);
/* The columns of collection coll inferred from its first documents in _id order (the sample),
 * cached per connection. RX_ENAME for no such collection or an empty one, RX_ETYPE when two
 * fields spell one column name, RX_EIO when the server fails. */
int mongo_table_schema(MongoConn *m, const char *display, const char *coll, DbSchema *out, RxError *err);
/* db_collection_read on a MongoDB connection. */
int mongo_read(MongoConn *m, const char *display, const char *coll, int k, const RxType *types,
               const char *const *names, Table **out, RxError *err);
/* Ends the read m runs now at its next document (RX_EINTERRUPT); safe from another thread or a
 * signal handler. A batch already requested from the server is still awaited. */
void mongo_cancel(MongoConn *m);
/* The collection's estimated document count; -1 when the server does not answer. */
int mongo_table_rows(MongoConn *m, const char *coll, double *rows);
/* db_find_text on a MongoDB connection: db.getCollection("c").find({}, {projection}).sort(...). */
void mongo_find_text(MongoConn *m, const char *coll, const uint8_t *want, StrBuf *b);

/* ---- H2 (connect/h2.c; used by connect.c only) -----------------------------------------------
 *
 * H2 2.x through its PostgreSQL-protocol server (org.h2.tools.Server -pg): a connection string
 * h2://[user@]host[:port]/db[?libpq options] is a PostgreSQL URI with another scheme; the
 * password comes, as for PostgreSQL, from PGPASSWORD, ~/.pgpass or a service file, never from
 * the string. Statements run through libpq like PostgreSQL's; what differs is here. */
struct pg_conn;

/* The libpq URI of an h2:// string (postgresql://...) appended to out; -1 for another scheme
 * or when out of memory. */
int h2_pg_uri(const char *uri, StrBuf *out);
/* Whether the server on pg is H2 (it reports PostgreSQL 8.2 and answers H2VERSION()). */
bool h2_is_h2(struct pg_conn *pg);
/* Sets the session's time zone to UTC (TIMESTAMP columns are read as UTC, and a TIMESTAMP WITH
 * TIME ZONE parameter without an offset is UTC). -1 with err (RX_EIO) naming display. */
int h2_setup(struct pg_conn *pg, const char *display, RxError *err);
/* The columns of table in the current schema from INFORMATION_SCHEMA, with Relix types
 * (docs/connect.md), and its order: the primary key, else _ROWID_, else (a view) every column.
 * RX_ENAME for no such table (naming one that differs only in case), RX_ETYPE for a column type
 * Relix cannot represent, RX_EIO when the server fails. */
int h2_table_schema(struct pg_conn *pg, const char *display, const char *table, DbSchema *out, RxError *err);
/* INFORMATION_SCHEMA.TABLES.ROW_COUNT_ESTIMATE of table; -1 when there is none. */
int h2_table_rows(struct pg_conn *pg, const char *table, double *rows);
/* H2's text of an INTERVAL ("INTERVAL '-1 02:03:04.5' DAY TO SECOND", "INTERVAL '1-6' YEAR TO
 * MONTH") as a DURATION: months for year-month intervals, microseconds for day-time ones. -1
 * with *why for another text, a value out of range or finer than a microsecond. */
int h2_interval_value(const char *s, size_t n, RxDuration *d, const char **why);

/* "name" with embedded quotes doubled: an identifier in both dialects. Appends to b. */
void db_quote_ident(StrBuf *b, const char *name);
/* 'text' with embedded quotes doubled: a string literal in both dialects. */
void db_quote_literal(StrBuf *b, const char *s, size_t n);

#endif
