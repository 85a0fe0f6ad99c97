/*
 * mariadb.h - MariaDB and MySQL connections through libmariadb, for connect.c (internal to the
 * connect stage: the rest of Relix sees only connect.h's DbConn).
 *
 * A connection string is mysql://[user@]host[:port]/db or mariadb://..., or the socket form
 * mysql:///db?socket=/path/to/socket. It never holds a password: libmariadb reads it from the
 * client's option files ([client] group of ~/.my.cnf and the system files) or MYSQL_PWD. The
 * session is set to UTC, utf8mb4 and the ANSI_QUOTES, PIPES_AS_CONCAT and NO_BACKSLASH_ESCAPES
 * modes, so that identifiers quoted "as in SQL" and literals with doubled quotes mean what they
 * mean on PostgreSQL and SQLite.
 */
#ifndef RX_MARIADB_H
#define RX_MARIADB_H

#include "connect/connect.h"

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

#endif
