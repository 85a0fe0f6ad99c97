/*
 * duckdb.h - DuckDB connections (connect/duckdb.c), reached only through connect.c's db_*
 * functions: a database file opened read-only in this process through the C API of
 * libduckdb.so, loaded at run time (RELIX_LIBDUCKDB names the library; else the dynamic
 * loader's search path finds libduckdb.so), so that Relix builds and runs without DuckDB.
 * connect.c reads the catalog through duck_query and maps its types.
 */
#ifndef RX_CONNECT_DUCKDB_H
#define RX_CONNECT_DUCKDB_H

#include "base/base.h"
#include "types/column.h"

typedef struct DuckConn DuckConn;

/* Opens the DuckDB database at path (":memory:": a new empty one) read-only. -1 with err
 * (RX_EIO) when the library cannot be loaded -- the message names RELIX_LIBDUCKDB and the npm
 * package that ships it -- or the file cannot be opened; display names it in messages. */
int duck_open(const char *path, const char *display, DuckConn **out, RxError *err);
void duck_close(DuckConn *d);
/* duckdb_interrupt: the running query stops with an error (async-signal-safe: sets a flag). */
void duck_interrupt(DuckConn *d);

/* Runs sql with params bound ($1 ...) and reads its result chunk by chunk into a new table of
 * n_cols columns of the given types; a value that does not convert exactly is an error naming
 * the column and row; a failing statement, DuckDB's message (first line). */
int duck_query(DuckConn *d, const char *display, const char *sql, const Value *params, int n_params, int n_cols,
               const RxType *types, const char *const *names, Table **out, RxError *err);

/* The first column of the first row of sql (with one text parameter p, or none) as a number;
 * -1 when there is none. */
int duck_number(DuckConn *d, const char *sql, const char *p, double *out);

#endif
