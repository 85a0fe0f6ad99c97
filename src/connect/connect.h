/*
 * connect.h - database connections: SQLite (libsqlite3, the embedded default) and PostgreSQL
 * (libpq, and every engine that speaks its protocol).
 *
 * A connection is opened from a URI: sqlite:path/to/file.db (a relative path is taken from the
 * script's folder by the caller) or postgresql://user@host:port/db (postgres:// too). The
 * password never comes from the script: libpq reads PGPASSWORD or ~/.pgpass, and a URI that
 * contains one is rejected. Messages and EXPLAIN show only db_display(), which has no
 * password.
 *
 * A database table's order, which Relix's defined result order needs, is the order of its
 * primary key, else SQLite's rowid or PostgreSQL's ctid: scans and pushed statements both
 * sort by it, so a pushed join returns exactly what the engine would.
 */
#ifndef RX_CONNECT_H
#define RX_CONNECT_H

#include "base/base.h"
#include "types/column.h"

typedef enum { DB_SQLITE, DB_POSTGRES } DbKind;

typedef struct DbConn DbConn;

/* Opens uri. -1 with err (RX_EIO: cannot connect / no such file; RX_EVALUE: a malformed URI or
 * one that holds a password). */
int db_open(const char *uri, const char *base_dir, DbConn **out, RxError *err);
void db_close(DbConn *c);
DbKind db_kind(const DbConn *c);
/* The URI without any password, for messages. */
const char *db_display(const DbConn *c);

typedef struct {
    int n_cols;
    char **names;        /* malloc'd */
    RxType *types;
    char *order_by;      /* SQL expression list ordering the table (quoted), malloc'd */
    int n_order;         /* the same as columns: quoted identifiers, or rowid / ctid */
    char **order;
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

/* "name" with embedded quotes doubled: an identifier in both dialects. Appends to b. */
void db_quote_ident(StrBuf *b, const char *name);
/* 'text' with embedded quotes doubled: a string literal in both dialects. */
void db_quote_literal(StrBuf *b, const char *s, size_t n);

#endif
