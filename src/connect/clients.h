/*
 * clients.h - the database client libraries, loaded on first use (base/dynlib.h): libpq
 * (PostgreSQL and H2), libsqlite3 and libmariadb. Their functions are called through the
 * tables below (pqlib.PQexec(...)), which hold the real prototypes from the libraries' headers.
 * A table is usable once its loader returned 0; every way into a connection (db_open,
 * my_open) calls the loader first, so code behind a connection needs no check of its own.
 */
#ifndef RX_CONNECT_CLIENTS_H
#define RX_CONNECT_CLIENTS_H

#include <libpq-fe.h>
#include <mysql.h>
#include <sqlite3.h>

#include "base/base.h"

#define PQ_FNS(X) \
    X(PQcancel) X(PQclear) X(PQconnectdb) X(PQconninfoFree) X(PQconninfoParse) X(PQerrorMessage) X(PQexec) \
    X(PQexecParams) X(PQfinish) X(PQfreeCancel) X(PQfreemem) X(PQgetCancel) X(PQgetisnull) X(PQgetlength) \
    X(PQgetvalue) X(PQnfields) X(PQntuples) X(PQparameterStatus) X(PQpass) X(PQresultStatus) X(PQstatus)

#define LITE_FNS(X) \
    X(sqlite3_bind_double) X(sqlite3_bind_int) X(sqlite3_bind_int64) X(sqlite3_bind_text) X(sqlite3_bind_text64) \
    X(sqlite3_close) X(sqlite3_column_bytes) X(sqlite3_column_double) X(sqlite3_column_int) \
    X(sqlite3_column_int64) X(sqlite3_column_text) X(sqlite3_column_type) X(sqlite3_errmsg) X(sqlite3_finalize) \
    X(sqlite3_interrupt) X(sqlite3_libversion_number) X(sqlite3_open_v2) X(sqlite3_prepare_v2) X(sqlite3_step)

/* mysql_library_init is a macro for mysql_server_init: the table holds the real name. */
#define MY_FNS(X) \
    X(mysql_close) X(mysql_errno) X(mysql_error) X(mysql_fetch_lengths) X(mysql_fetch_row) X(mysql_free_result) \
    X(mysql_get_server_info) X(mysql_get_server_version) X(mysql_init) X(mysql_server_init) \
    X(mysql_num_fields) X(mysql_options) X(mysql_query) X(mysql_real_connect) X(mysql_real_query) \
    X(mysql_thread_end) X(mysql_thread_id) X(mysql_thread_init) X(mysql_use_result)

#define RX_CLIENT_FN(f) __typeof__(f) *f;
typedef struct { PQ_FNS(RX_CLIENT_FN) } PqLib;
typedef struct { LITE_FNS(RX_CLIENT_FN) } LiteLib;
typedef struct { MY_FNS(RX_CLIENT_FN) } MyLib;
#undef RX_CLIENT_FN

extern PqLib pqlib;
extern LiteLib litelib;
extern MyLib mylib;

/* Load libpq.so.5, libsqlite3.so.0, libmariadb.so.3 (once per process): 0, or -1 with an
 * RX_EUNSUPPORTED error naming the library and its Debian package (span 0..0, for the
 * caller's). */
int pg_load(RxError *err);
int lite_load(RxError *err);
int my_load(RxError *err);

/* True when libsqlite3 is loaded already (an SQLite connection was opened); never loads it. */
bool lite_loaded(void);

#endif
