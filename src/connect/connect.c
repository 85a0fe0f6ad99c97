/*
 * connect.c - SQLite and PostgreSQL connections (connect.h): opening by URI, table schemas
 * from the database's catalog, running SELECTs (with their parameters bound: typed on SQLite,
 * as text that the statement casts on PostgreSQL) into columnar tables, and the row counts and
 * estimates the planner asks for.
 *
 * Values arrive as SQLite's typed values or as PostgreSQL's text format (the session is set to
 * UTC, ISO dates and ISO-8601 intervals first, so that the text parses with the same ISO
 * parsers the language uses). A value that does not fit its column's Relix type is an error
 * naming the column and the row; nothing is coerced silently.
 */
#include "connect/connect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "connect/clients.h"
#include "connect/duckdb.h"
#include "types/number.h"
#include "types/temporal.h"

struct DbConn {
    DbKind kind;
    sqlite3 *lite;
    PGconn *pg;
    PGcancel *cancel;   /* PostgreSQL: what PQcancel needs, made once at open */
    const void *owner;  /* db_set_owner's tag, or NULL */
    DuckConn *duck;
    MyConn *my;         /* MariaDB and MySQL (mariadb.c) */
    MongoConn *mongo;   /* MongoDB (mongo.c) */
    char *display;
};

/* The connections that run a statement now (a pushed statement or a catalog query), for
 * db_cancel_running: slots claimed and released atomically, read from signal handlers. */
#define RUNNING_SLOTS 64
static DbConn *running[RUNNING_SLOTS];

/* Marks c as running a statement; the slot to pass to run_end (-1: no slot free, the statement
 * then cannot be cancelled from outside). */
static int run_begin(DbConn *c) {
    for (int i = 0; i < RUNNING_SLOTS; i++) {
        DbConn *none = NULL;
        if (__atomic_compare_exchange_n(&running[i], &none, c, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return i;
    }
    return -1;
}

static void run_end(int slot) {
    if (slot >= 0) __atomic_store_n(&running[slot], NULL, __ATOMIC_SEQ_CST);
}

void db_cancel(DbConn *c) {
    if (!c) return;
    if (c->pg && c->cancel) {
        char buf[256];
        pqlib.PQcancel(c->cancel, buf, (int)sizeof buf);
    } else if (c->duck) {
        duck_interrupt(c->duck);
    } else if (c->lite) {
        litelib.sqlite3_interrupt(c->lite);
    } else if (c->my) {
        my_cancel(c->my);
    } else if (c->mongo) {
        mongo_cancel(c->mongo);
    }
}

void db_cancel_running(void) {
    for (int i = 0; i < RUNNING_SLOTS; i++) {
        DbConn *c = __atomic_load_n(&running[i], __ATOMIC_SEQ_CST);
        if (c) db_cancel(c);
    }
}

void db_set_owner(DbConn *c, const void *owner) {
    if (c) c->owner = owner;
}

void db_cancel_owned(const void *owner) {
    for (int i = 0; owner && i < RUNNING_SLOTS; i++) {
        DbConn *c = __atomic_load_n(&running[i], __ATOMIC_SEQ_CST);
        if (c && c->owner == owner) db_cancel(c);
    }
}

DbKind db_kind(const DbConn *c) { return c->kind; }
const char *db_display(const DbConn *c) { return c->display; }

void db_close(DbConn *c) {
    if (!c) return;
    /* a statement still running on the server (another thread's) is cancelled, not left behind */
    for (int i = 0; i < RUNNING_SLOTS; i++)
        if (__atomic_load_n(&running[i], __ATOMIC_SEQ_CST) == c) db_cancel(c);
    if (c->lite) litelib.sqlite3_close(c->lite);
    duck_close(c->duck);
    if (c->cancel) pqlib.PQfreeCancel(c->cancel);
    if (c->pg) pqlib.PQfinish(c->pg);
    my_close(c->my);
    mongo_close(c->mongo);
    free(c->display);
    free(c);
}

/* The display form of a connection string: rx_redact's, malloc'd (NULL when out of memory). */
static char *display_of(const char *conn) {
    StrBuf b;
    sb_init(&b);
    rx_redact(conn, strlen(conn), &b, NULL, 0);
    if (!b.p || b.oom) {
        sb_free(&b);
        return strdup("");
    }
    return b.p;
}

/* Whether conn holds a secret that rx_redact would mask. */
static bool has_secret(const char *conn) {
    StrBuf b;
    sb_init(&b);
    bool any = rx_redact(conn, strlen(conn), &b, NULL, 0);
    sb_free(&b);
    return any;
}

/* libpq's options that carry a secret: a script never holds one. */
static bool pg_secret_option(const char *kw) {
    return strcmp(kw, "password") == 0 || strcmp(kw, "sslpassword") == 0;
}

static const char PG_SECRET_HINT[] =
    "a connection string must not hold a password (it is not shown here): put it in PGPASSWORD, "
    "in ~/.pgpass, or in a service file (PGSERVICE or service=NAME)";

/* A PostgreSQL connection string (URI or keyword/value) parsed by libpq's own parser: 0 when it
 * is well formed and holds no password in any spelling, else -1 with err. */
static int pg_check(const char *conn, RxError *err) {
    char *msg = NULL;
    PQconninfoOption *opts = pqlib.PQconninfoParse(conn, &msg);
    if (!opts) {
        int rc;
        /* libpq quotes pieces of a malformed string: left out when a secret may be among them */
        if (msg && !has_secret(conn)) {
            char *nl = strchr(msg, '\n');
            if (nl) *nl = 0;
            rc = rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "malformed PostgreSQL connection string: %s", msg);
        } else if (has_secret(conn)) {
            rc = rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", PG_SECRET_HINT);
        } else {
            rc = rx_error(err, msg ? RX_EVALUE : RX_ENOMEM, NULL, rx_span(0, 0),
                          msg ? "malformed PostgreSQL connection string" : "out of memory");
        }
        pqlib.PQfreemem(msg);
        return rc;
    }
    bool secret = false;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (o->val && pg_secret_option(o->keyword)) secret = true;
    pqlib.PQconninfoFree(opts);
    if (secret || has_secret(conn)) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", PG_SECRET_HINT);
    return 0;
}

static int pg_exec_ok(PGconn *pg, const char *sql) {
    PGresult *r = pqlib.PQexec(pg, sql);
    int ok = pqlib.PQresultStatus(r) == PGRES_COMMAND_OK || pqlib.PQresultStatus(r) == PGRES_TUPLES_OK;
    pqlib.PQclear(r);
    return ok ? 0 : -1;
}

/* libpq's message, first line only. libpq names host, port and user but not the password;
 * should the password in use (from PGPASSWORD or ~/.pgpass) still appear, it is masked. */
static void pg_message(PGconn *pg, char *buf, size_t n) {
    const char *m = pg ? pqlib.PQerrorMessage(pg) : "";
    snprintf(buf, n, "%s", m && *m ? m : "unknown error");
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
    const char *pw = pg ? pqlib.PQpass(pg) : NULL;
    size_t k = pw ? strlen(pw) : 0;
    if (k < 4) return;
    for (char *at; (at = strstr(buf, pw)) != NULL;) {
        memcpy(at, "***", 3);
        memmove(at + 3, at + k, strlen(at + k) + 1);
    }
}

int db_open(const char *uri, const char *base_dir, DbConn **out, RxError *err) {
    *out = NULL;
    DbConn *c = calloc(1, sizeof *c);
    if (!c) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    c->display = display_of(uri);
    if (!c->display) {
        db_close(c);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    if (strncmp(uri, "sqlite:", 7) == 0) {
        if (has_secret(uri)) {
            db_close(c);
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                            "a connection string must not hold a password or key (it is not shown here)");
        }
        const char *path = uri + 7;
        if (strncmp(path, "//", 2) == 0) path += 2;
        char full[4096];
        if (path[0] != '/' && base_dir && base_dir[0]) snprintf(full, sizeof full, "%s/%s", base_dir, path);
        else snprintf(full, sizeof full, "%s", path);
        c->kind = DB_SQLITE;
        if (lite_load(err) < 0) {
            db_close(c);
            return -1;
        }
        if (litelib.sqlite3_open_v2(full, &c->lite, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", c->lite ? litelib.sqlite3_errmsg(c->lite) : "cannot open");
            db_close(c);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open SQLite database '%s': %s", full, msg);
        }
        *out = c;
        return 0;
    }
    if (strncmp(uri, "duckdb:", 7) == 0) {
        if (has_secret(uri)) {
            db_close(c);
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                            "a connection string must not hold a password or key (it is not shown here)");
        }
        const char *path = uri + 7;
        char full[4096];
        if (path[0] != '/' && strcmp(path, ":memory:") != 0 && base_dir && base_dir[0])
            snprintf(full, sizeof full, "%s/%s", base_dir, path);
        else snprintf(full, sizeof full, "%s", path);
        c->kind = DB_DUCKDB;
        if (duck_open(full, c->display, &c->duck, err) < 0) {
            db_close(c);
            return -1;
        }
        *out = c;
        return 0;
    }
    /* PostgreSQL: a URI, or libpq's keyword/value form ("host=h dbname=d"); H2's server speaks
     * its protocol (h2://, or a postgresql:// string that reaches one) */
    bool h2 = strncmp(uri, "h2://", 5) == 0;
    if (h2 || strncmp(uri, "postgresql://", 13) == 0 || strncmp(uri, "postgres://", 11) == 0 ||
        (strchr(uri, '=') && !strstr(uri, "://"))) {
        if (pg_load(err) < 0) {
            db_close(c);
            return -1;
        }
        StrBuf h2uri;
        sb_init(&h2uri);
        if (h2 && h2_pg_uri(uri, &h2uri) < 0) {
            sb_free(&h2uri);
            db_close(c);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        }
        const char *conninfo = h2 ? h2uri.p : uri;
        if (pg_check(conninfo, err) < 0) {
            sb_free(&h2uri);
            db_close(c);
            return -1;
        }
        c->kind = DB_POSTGRES;
        c->pg = pqlib.PQconnectdb(conninfo);
        sb_free(&h2uri);
        if (c->pg) c->cancel = pqlib.PQgetCancel(c->pg);
        if (!c->pg || pqlib.PQstatus(c->pg) != CONNECTION_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            /* H2's server drops the connection without a word on a failed login */
            bool dropped = h2 && strstr(msg, "closed the connection");
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot connect to %s: %s%s", c->display, msg,
                     dropped ? " (H2's server closes the connection when the user or password is wrong, or the "
                               "database does not exist and it may not create it)" : "");
            db_close(c);
            return -1;
        }
        if (h2_is_h2(c->pg)) {
            c->kind = DB_H2;
            if (h2_setup(c->pg, c->display, err) < 0) {
                db_close(c);
                return -1;
            }
            *out = c;
            return 0;
        }
        if (h2) {
            const char *v = pqlib.PQparameterStatus(c->pg, "server_version");
            rx_error(err, RX_EIO, NULL, rx_span(0, 0),
                     "%s is no H2 server (it reports PostgreSQL %s): connect to it with postgresql://", c->display,
                     v ? v : "of an unknown version");
            db_close(c);
            return -1;
        }
        if (pg_exec_ok(c->pg, "SET TimeZone = 'UTC'") < 0 || pg_exec_ok(c->pg, "SET DateStyle = 'ISO, YMD'") < 0 ||
            pg_exec_ok(c->pg, "SET IntervalStyle = 'iso_8601'") < 0 ||
            pg_exec_ok(c->pg, "SET client_encoding = 'UTF8'") < 0 ||
            pg_exec_ok(c->pg, "SET extra_float_digits = 3") < 0) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot set up the session on %s: %s", c->display, msg);
            db_close(c);
            return -1;
        }
        *out = c;
        return 0;
    }
    if (strncmp(uri, "mysql://", 8) == 0 || strncmp(uri, "mariadb://", 10) == 0) {
        if (my_open(uri, c->display, &c->my, &c->kind, err) < 0) {
            db_close(c);
            return -1;
        }
        *out = c;
        return 0;
    }
    if (strncmp(uri, "mongodb://", 10) == 0 || strncmp(uri, "mongodb+srv://", 14) == 0) {
        c->kind = DB_MONGO;
        if (mongo_open(uri, c->display, has_secret(uri), &c->mongo, err) < 0) {
            db_close(c);
            return -1;
        }
        *out = c;
        return 0;
    }
    db_close(c);
    return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                    "unknown connection string (sqlite:path/to/file.db, postgresql://user@host:port/db, "
                    "\"host=... dbname=...\", mysql://user@host:port/db, duckdb:path/to/file.db, "
                    "h2://user@host:port/db or mongodb://user@host:port/db)");
}

void db_quote_ident(StrBuf *b, const char *name) {
    sb_putc(b, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"') sb_putc(b, '"');
        sb_putc(b, *p);
    }
    sb_putc(b, '"');
}

void db_quote_literal(StrBuf *b, const char *s, size_t n) {
    sb_putc(b, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') sb_putc(b, '\'');
        sb_putc(b, s[i]);
    }
    sb_putc(b, '\'');
}

void db_order_sql(StrBuf *b, const DbSchema *s, const char *alias, const char *suffix) {
    for (int i = 0; i < s->n_order; i++) {
        if (i) sb_puts(b, ", ");
        if (alias) sb_printf(b, "%s.", alias);
        sb_puts(b, s->order[i]);
        sb_puts(b, suffix);
    }
}

static int order_add(DbSchema *s, const char *quoted_or_raw) {
    char **o = realloc(s->order, (size_t)(s->n_order + 1) * sizeof *o);
    if (!o) return -1;
    s->order = o;
    s->order[s->n_order] = strdup(quoted_or_raw);
    if (!s->order[s->n_order]) return -1;
    s->n_order++;
    return 0;
}

/* Appends every column name in the first field of PostgreSQL result r (when it holds tuples)
 * to s's order, quoted, and to the ORDER BY text order (", "-separated). -1 when out of
 * memory (what was appended stays; the caller frees s). */
static int add_order_columns(DbSchema *s, StrBuf *order, PGresult *r) {
    for (int i = 0; pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && i < pqlib.PQntuples(r); i++) {
        if (order->n) sb_puts(order, ", ");
        StrBuf one;
        sb_init(&one);
        db_quote_ident(&one, pqlib.PQgetvalue(r, i, 0));
        sb_puts(order, one.p);
        int orc = order_add(s, one.p);
        sb_free(&one);
        if (orc < 0) return -1;
    }
    return 0;
}

void db_schema_free(DbSchema *s) {
    for (int i = 0; i < s->n_order; i++) free(s->order[i]);
    free(s->order);
    for (int i = 0; i < s->n_cols; i++) free(s->names[i]);
    free(s->names);
    free(s->types);
    free(s->native);
    free(s->order_by);
    if (s->collation)
        for (int i = 0; i < s->n_cols; i++) free(s->collation[i]);
    free(s->collation);
    memset(s, 0, sizeof *s);
}

int db_schema_order_add(DbSchema *s, const char *quoted_or_raw) { return order_add(s, quoted_or_raw); }

static int schema_add(DbSchema *s, const char *name, RxType t, DbNative nat) {
    char **nn = realloc(s->names, (size_t)(s->n_cols + 1) * sizeof *nn);
    if (!nn) return -1;
    s->names = nn;
    RxType *nt = realloc(s->types, (size_t)(s->n_cols + 1) * sizeof *nt);
    if (!nt) return -1;
    s->types = nt;
    DbNative *nv = realloc(s->native, (size_t)(s->n_cols + 1) * sizeof *nv);
    if (!nv) return -1;
    s->native = nv;
    s->names[s->n_cols] = strdup(name);
    if (!s->names[s->n_cols]) return -1;
    s->types[s->n_cols] = t;
    s->native[s->n_cols] = nat;
    s->n_cols++;
    return 0;
}

/* Records each column's deterministic collation from the third field of PostgreSQL result r
 * (one row per column, NULL where there is none); -1 on OOM. */
static int collations_add(DbSchema *s, PGresult *r) {
    s->collation = calloc((size_t)s->n_cols + 1, sizeof *s->collation);
    if (!s->collation) return -1;
    for (int i = 0; i < s->n_cols && i < pqlib.PQntuples(r); i++)
        if (!pqlib.PQgetisnull(r, i, 2) && !(s->collation[i] = strdup(pqlib.PQgetvalue(r, i, 2)))) return -1;
    return 0;
}

/* SQLite's declared type -> Relix type, by SQLite's own affinity rules where they apply, and
 * what a pushed statement may do with the column: INTEGER and TEXT affinity hold the Relix
 * value, REAL and NUMERIC affinity a REAL or an INTEGER; a column without a declared type (BLOB
 * affinity) can hold anything, and SQLite keeps booleans and times as values of its choosing. */
static int sqlite_type(const char *decl, RxType *out, DbNative *nat) {
    char u[128];
    size_t n = 0;
    for (; decl && decl[n] && n + 1 < sizeof u; n++) u[n] = (char)(decl[n] >= 'a' && decl[n] <= 'z' ? decl[n] - 32 : decl[n]);
    u[n] = 0;
    *nat = DBN_OPAQUE;
    if (strstr(u, "INT")) *out = TY_INT, *nat = DBN_EXACT;
    else if (strstr(u, "BOOL")) *out = TY_BOOL;
    else if (strstr(u, "TIMESTAMP") || strstr(u, "DATETIME")) *out = TY_TIMESTAMP;
    else if (strstr(u, "DATE")) *out = TY_DATE;
    else if (strstr(u, "INTERVAL") || strstr(u, "DURATION")) *out = TY_DURATION;
    else if (strstr(u, "TIME")) *out = TY_TIME;
    else if (strstr(u, "CHAR") || strstr(u, "CLOB") || strstr(u, "TEXT")) *out = TY_TEXT, *nat = DBN_EXACT;
    else if (n == 0) *out = TY_TEXT;
    else if (strstr(u, "REAL") || strstr(u, "FLOA") || strstr(u, "DOUB") || strstr(u, "NUMERIC") || strstr(u, "DECIMAL")) *out = TY_FLOAT, *nat = DBN_REAL;
    else if (strstr(u, "BLOB")) return -1;
    else *out = TY_FLOAT, *nat = DBN_REAL; /* SQLite's NUMERIC affinity */
    return 0;
}

static RxType pg_type(const char *typname, DbNative *nat) {
    static const struct { const char *n; RxType t; DbNative nat; } map[] = {
        {"int2", TY_INT, DBN_INT4}, {"int4", TY_INT, DBN_INT4}, {"int8", TY_INT, DBN_EXACT},
        {"float4", TY_FLOAT, DBN_FLOAT4}, {"float8", TY_FLOAT, DBN_EXACT}, {"numeric", TY_FLOAT, DBN_NUMERIC},
        {"bool", TY_BOOL, DBN_EXACT}, {"timestamp", TY_TIMESTAMP, DBN_EXACT},
        {"timestamptz", TY_TIMESTAMP, DBN_EXACT}, {"date", TY_DATE, DBN_EXACT}, {"time", TY_TIME, DBN_EXACT},
        {"interval", TY_DURATION, DBN_EXACT}, {"text", TY_TEXT, DBN_EXACT}, {"varchar", TY_TEXT, DBN_EXACT},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(map); i++)
        if (strcmp(typname, map[i].n) == 0) {
            *nat = map[i].nat;
            return map[i].t;
        }
    *nat = DBN_OPAQUE;
    return TY_TEXT; /* char(n), uuid, json and every other type in its text form */
}

/* Whether the relation named by the quoted identifier ident stores rows with a ctid: a table,
 * a partitioned table or a materialized view; a view or a foreign table has none. */
static bool pg_has_ctid(DbConn *c, const char *ident) {
    const char *params[1] = {ident};
    PGresult *r = pqlib.PQexecParams(c->pg, "SELECT relkind FROM pg_class WHERE oid = to_regclass($1)", 1, NULL, params,
                               NULL, NULL, 0);
    bool has = true;
    if (pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) == 1) {
        char k = pqlib.PQgetvalue(r, 0, 0)[0];
        has = k == 'r' || k == 'p' || k == 'm';
    }
    pqlib.PQclear(r);
    return has;
}

/* DuckDB's name of a column type (duckdb_columns().data_type) -> Relix type and what a pushed
 * statement may do with it; NULL, or the name of the feature Relix lacks. */
static const char *duck_type(const char *dt, RxType *t, DbNative *nat) {
    static const struct { const char *n; RxType t; DbNative nat; } map[] = {
        {"BOOLEAN", TY_BOOL, DBN_EXACT}, {"TINYINT", TY_INT, DBN_INT4}, {"SMALLINT", TY_INT, DBN_INT4},
        {"INTEGER", TY_INT, DBN_INT4}, {"UTINYINT", TY_INT, DBN_INT4}, {"USMALLINT", TY_INT, DBN_INT4},
        {"UINTEGER", TY_INT, DBN_INT4}, {"BIGINT", TY_INT, DBN_EXACT}, {"UBIGINT", TY_INT, DBN_OPAQUE},
        {"HUGEINT", TY_INT, DBN_OPAQUE}, {"UHUGEINT", TY_INT, DBN_OPAQUE}, {"FLOAT", TY_FLOAT, DBN_FLOAT4},
        {"DOUBLE", TY_FLOAT, DBN_EXACT}, {"VARCHAR", TY_TEXT, DBN_EXACT}, {"DATE", TY_DATE, DBN_EXACT},
        {"TIME", TY_TIME, DBN_EXACT}, {"TIMESTAMP", TY_TIMESTAMP, DBN_EXACT},
        {"TIMESTAMP WITH TIME ZONE", TY_TIMESTAMP, DBN_EXACT}, {"TIMESTAMP_S", TY_TIMESTAMP, DBN_OPAQUE},
        {"TIMESTAMP_MS", TY_TIMESTAMP, DBN_OPAQUE}, {"TIMESTAMP_NS", TY_TIMESTAMP, DBN_OPAQUE},
        {"INTERVAL", TY_DURATION, DBN_EXACT},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(map); i++)
        if (strcmp(dt, map[i].n) == 0) {
            *t = map[i].t;
            *nat = map[i].nat;
            return NULL;
        }
    /* DECIMAL(p,s): the double nearest its value, never computed on in a pushed statement (the
     * database's own cast to DOUBLE may round otherwise) */
    if (strncmp(dt, "DECIMAL", 7) == 0) {
        *t = TY_FLOAT;
        *nat = DBN_OPAQUE;
        return NULL;
    }
    if (strncmp(dt, "ENUM(", 5) == 0) {
        *t = TY_TEXT;
        *nat = DBN_OPAQUE;
        return NULL;
    }
    size_t n = strlen(dt);
    if (n >= 2 && dt[n - 1] == ']') return strstr(dt, "[]") ? "a LIST" : "an ARRAY";
    if (strncmp(dt, "STRUCT(", 7) == 0) return "a STRUCT";
    if (strncmp(dt, "MAP(", 4) == 0) return "a MAP";
    if (strncmp(dt, "UNION(", 6) == 0) return "a UNION";
    return "a type Relix does not map";
}

/* DuckDB's catalog: the columns of table from duckdb_columns() of the current schema with
 * Relix types (duck_type), and its order: the primary key's columns, else rowid, else (a view)
 * every column. RX_ENAME for no such table, RX_ETYPE naming the column and its DuckDB type for
 * one Relix cannot represent. */
static int duck_schema(DbConn *c, const char *table, DbSchema *out, RxError *err) {
    DuckConn *d = c->duck;
    const char *display = c->display;
    memset(out, 0, sizeof *out);
    out->rows_est = -1;
    Value p = {.type = TY_TEXT};
    p.v.s.ptr = table;
    p.v.s.len = strlen(table);
    RxType tt[3] = {TY_TEXT, TY_TEXT, TY_BOOL};
    const char *nn[3] = {"column_name", "data_type", "is_view"};
    Table *cols = NULL, *pk = NULL;
    /* the table (or view) of the current schema first, as an unqualified name resolves */
    if (duck_query(d, display,
                   "SELECT c.column_name, c.data_type, v.view_name IS NOT NULL FROM duckdb_columns() AS c "
                   "LEFT JOIN duckdb_views() AS v ON v.database_name = c.database_name AND v.schema_name = c.schema_name "
                   "AND v.view_name = c.table_name WHERE c.table_name = $1 AND c.database_name = current_database() "
                   "AND c.schema_name = current_schema() ORDER BY c.column_index",
                   &p, 1, 3, tt, nn, &cols, err) < 0)
        return -1;
    int rc = -1;
    StrBuf order;
    sb_init(&order);
    if (cols->n_rows == 0) {
        rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", display, table);
        goto out;
    }
    bool view = col_get(cols->cols[2], 0).v.b;
    for (size_t i = 0; i < cols->n_rows; i++) {
        RxStr name = col_get(cols->cols[0], i).v.s, dt = col_get(cols->cols[1], i).v.s;
        char nbuf[256], tbuf[256];
        snprintf(nbuf, sizeof nbuf, "%.*s", (int)name.len, name.ptr);
        snprintf(tbuf, sizeof tbuf, "%.*s", (int)dt.len, dt.ptr);
        RxType t;
        DbNative nat;
        const char *lack = duck_type(tbuf, &t, &nat);
        if (lack) {
            rx_error(err, RX_ETYPE, NULL, rx_span(0, 0),
                     "column '%s' of table '%s' is %s (%s), which Relix cannot represent", nbuf, table, lack, tbuf);
            goto out;
        }
        if (schema_add(out, nbuf, t, nat) < 0) goto oom;
    }
    RxType kt = TY_TEXT;
    const char *kn = "column_name";
    if (duck_query(d, display,
                   "SELECT unnest(constraint_column_names) FROM duckdb_constraints() WHERE table_name = $1 "
                   "AND database_name = current_database() AND schema_name = current_schema() "
                   "AND constraint_type = 'PRIMARY KEY'",
                   &p, 1, 1, &kt, &kn, &pk, err) < 0)
        goto out;
    for (size_t i = 0; i < pk->n_rows; i++) {
        RxStr k = col_get(pk->cols[0], i).v.s;
        char kbuf[256];
        snprintf(kbuf, sizeof kbuf, "%.*s", (int)k.len, k.ptr);
        StrBuf one;
        sb_init(&one);
        db_quote_ident(&one, kbuf);
        if (order.n) sb_puts(&order, ", ");
        sb_puts(&order, one.p ? one.p : "");
        int orc = one.oom ? -1 : order_add(out, one.p);
        sb_free(&one);
        if (orc < 0) goto oom;
        if (pk->n_rows == 1)
            for (int ci = 0; ci < out->n_cols; ci++)
                if (strcmp(out->names[ci], kbuf) == 0) out->order_int = out->types[ci] == TY_INT;
    }
    if (!order.n && !view) {
        /* rowid: the row's place in the table, in which a scan returns it */
        sb_puts(&order, "rowid");
        if (order_add(out, "rowid") < 0) goto oom;
        out->order_int = true;
    } else if (!order.n) {
        /* a view has no rowid: its order is that of all its columns (rows equal in all of
         * them are indistinguishable in the result) */
        for (int k = 0; k < out->n_cols; k++) {
            StrBuf one;
            sb_init(&one);
            db_quote_ident(&one, out->names[k]);
            if (order.n) sb_puts(&order, ", ");
            sb_puts(&order, one.p ? one.p : "");
            int orc = one.oom ? -1 : order_add(out, one.p);
            sb_free(&one);
            if (orc < 0) goto oom;
        }
    }
    out->order_by = strdup(order.p ? order.p : "1");
    rc = out->order_by ? 0 : rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    goto out;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
out:
    if (rc < 0) db_schema_free(out);
    sb_free(&order);
    table_free(cols);
    table_free(pk);
    return rc;
}

int db_schema_add(DbSchema *s, const char *name, RxType t, DbNative nat) { return schema_add(s, name, t, nat); }

int db_table_schema(DbConn *c, const char *table, DbSchema *out, RxError *err) {
    if (c->kind == DB_DUCKDB) return duck_schema(c, table, out, err);
    if (c->kind == DB_H2) return h2_table_schema(c->pg, c->display, table, out, err);
    if (c->my) return my_table_schema(c->my, c->display, table, out, err);
    if (c->mongo) return mongo_table_schema(c->mongo, c->display, table, out, err);
    memset(out, 0, sizeof *out);
    out->rows_est = -1;
    StrBuf q, order;
    sb_init(&q);
    sb_init(&order);
    int rc = -1;
    if (c->kind == DB_SQLITE) {
        sb_puts(&q, "SELECT name, type, pk FROM pragma_table_info(");
        db_quote_literal(&q, table, strlen(table));
        sb_puts(&q, ") ORDER BY cid");
        sqlite3_stmt *st = NULL;
        if (litelib.sqlite3_prepare_v2(c->lite, q.p, -1, &st, NULL) != SQLITE_OK) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, litelib.sqlite3_errmsg(c->lite));
            goto out;
        }
        int n_pk = 0;
        char *pk[64] = {0};
        int pk_pos[64] = {0};
        bool int_pk = false;
        while (litelib.sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)litelib.sqlite3_column_text(st, 0);
            const char *decl = (const char *)litelib.sqlite3_column_text(st, 1);
            int pkn = litelib.sqlite3_column_int(st, 2);
            RxType t;
            DbNative nat;
            if (sqlite_type(decl, &t, &nat) < 0) {
                rx_error(err, RX_ETYPE, NULL, rx_span(0, 0), "column '%s' of table '%s' is a BLOB, which Relix cannot read", name, table);
                litelib.sqlite3_finalize(st);
                goto out;
            }
            if (schema_add(out, name, t, nat) < 0) {
                litelib.sqlite3_finalize(st);
                rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
                goto out;
            }
            if (pkn > 0 && n_pk < 64) {
                pk[n_pk] = out->names[out->n_cols - 1];
                pk_pos[n_pk++] = pkn;
                int_pk = decl && strcasecmp(decl, "INTEGER") == 0; /* the rowid itself */
            }
        }
        litelib.sqlite3_finalize(st);
        if (out->n_cols == 0) {
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", c->display, table);
            goto out;
        }
        out->order_int = n_pk == 0 || (n_pk == 1 && int_pk);
        if (n_pk == 0) {
            sb_puts(&order, "rowid");
            if (order_add(out, "rowid") < 0) goto oom;
        }
        for (int k = 1; k <= n_pk; k++)
            for (int i = 0; i < n_pk; i++)
                if (pk_pos[i] == k) {
                    if (order.n) sb_puts(&order, ", ");
                    StrBuf one;
                    sb_init(&one);
                    db_quote_ident(&one, pk[i]);
                    sb_puts(&order, one.p);
                    int orc = order_add(out, one.p);
                    sb_free(&one);
                    if (orc < 0) goto oom;
                }
    } else {
        StrBuf ident;
        sb_init(&ident);
        db_quote_ident(&ident, table);
        const char *params[1] = {ident.p};
        PGresult *r = pqlib.PQexecParams(c->pg,
            "SELECT a.attname, t.typname, CASE WHEN c.collisdeterministic THEN c.collname END "
            "FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_collation c ON c.oid = a.attcollation "
            "WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            1, NULL, params, NULL, NULL, 0);
        if (pqlib.PQresultStatus(r) != PGRES_TUPLES_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            pqlib.PQclear(r);
            sb_free(&ident);
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, msg);
            goto out;
        }
        for (int i = 0; i < pqlib.PQntuples(r); i++) {
            DbNative nat;
            RxType t = pg_type(pqlib.PQgetvalue(r, i, 1), &nat);
            if (schema_add(out, pqlib.PQgetvalue(r, i, 0), t, nat) < 0) {
                pqlib.PQclear(r);
                sb_free(&ident);
                rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
                goto out;
            }
        }
        if (collations_add(out, r) < 0) {
            pqlib.PQclear(r);
            sb_free(&ident);
            goto oom;
        }
        pqlib.PQclear(r);
        if (out->n_cols == 0) {
            sb_free(&ident);
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", c->display, table);
            goto out;
        }
        r = pqlib.PQexecParams(c->pg,
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass($1) AND i.indisprimary "
            "ORDER BY array_position(i.indkey::int2[], a.attnum)",
            1, NULL, params, NULL, NULL, 0);
        if (pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) == 1)
            for (int i = 0; i < out->n_cols; i++)
                if (strcmp(out->names[i], pqlib.PQgetvalue(r, 0, 0)) == 0) out->order_int = out->types[i] == TY_INT;
        if (add_order_columns(out, &order, r) < 0) {
            pqlib.PQclear(r);
            sb_free(&ident);
            goto oom;
        }
        pqlib.PQclear(r);
        if (!order.n && pg_has_ctid(c, params[0])) {
            sb_puts(&order, "ctid");
            if (order_add(out, "ctid") < 0) goto oom;
        } else if (!order.n) {
            /* a view or a foreign table has no ctid: its order is that of all its columns that
             * have one (rows equal in all of them are indistinguishable in the result) */
            r = pqlib.PQexecParams(c->pg,
                "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 "
                "AND NOT a.attisdropped AND EXISTS (SELECT 1 FROM pg_opclass o JOIN pg_am m ON m.oid = o.opcmethod "
                "WHERE m.amname = 'btree' AND o.opcdefault AND o.opcintype = a.atttypid) ORDER BY a.attnum",
                1, NULL, params, NULL, NULL, 0);
            if (add_order_columns(out, &order, r) < 0) {
                pqlib.PQclear(r);
                sb_free(&ident);
                goto oom;
            }
            pqlib.PQclear(r);
        }
        sb_free(&ident);
    }
    out->order_by = strdup(order.p ? order.p : "1");
    rc = out->order_by ? 0 : rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    goto out;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
out:
    if (rc < 0) db_schema_free(out);
    sb_free(&q);
    sb_free(&order);
    return rc;
}

/* ---- values --------------------------------------------------------------------------------- */

static int bad_value(RxError *err, const char *col, size_t row, RxType t, const char *s, size_t n, const char *why) {
    return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                    "row %zu of the database's answer: '%.*s' in column '%s' is not a %s (%s)",
                    row + 1, (int)(n > 60 ? 60 : n), s, col, type_name(t), why);
}

/* Parses text s as type t into v (PostgreSQL's text format, and SQLite's text values). */
static int text_value(RxType t, const char *s, size_t n, Value *v, const char **why) {
    v->type = t;
    v->null = false;
    *why = "invalid";
    switch (t) {
    case TY_INT: {
        int rc = num_parse_int(s, n, &v->v.i);
        if (rc == -2) *why = "out of range";
        return rc == 0 ? 0 : -1;
    }
    case TY_FLOAT: return num_parse_float(s, n, &v->v.f) == 0 ? 0 : -1;
    case TY_BOOL:
        if (n == 1 && (s[0] == 't' || s[0] == 'f')) { v->v.b = s[0] == 't'; return 0; }
        if ((n == 4 && strncasecmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1')) { v->v.b = true; return 0; }
        if ((n == 5 && strncasecmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0')) { v->v.b = false; return 0; }
        return -1;
    case TY_TEXT: v->v.s.ptr = s; v->v.s.len = n; return 0;
    case TY_TIMESTAMP: return tm_parse_timestamp(s, n, &v->v.i, why);
    case TY_DATE: return tm_parse_date(s, n, &v->v.date, why);
    case TY_TIME: return tm_parse_time(s, n, &v->v.i, why);
    case TY_DURATION: return tm_parse_duration(s, n, &v->v.d, why);
    case TY_NULL: break;
    }
    return -1;
}

int db_text_value(RxType t, const char *s, size_t n, Value *v, const char **why) {
    return text_value(t, s, n, v, why);
}

int db_bad_value(RxError *err, const char *col, size_t row, RxType t, const char *s, size_t n, const char *why) {
    return bad_value(err, col, row, t, s, n, why);
}

/* A parameter in PostgreSQL's text form, which the statement casts to its type (the
 * generator writes CAST($n AS type)). */
static void param_text(const Value *v, StrBuf *b) {
    char buf[TM_BUF > NUM_BUF ? TM_BUF : NUM_BUF];
    switch (v->type) {
    case TY_INT: sb_printf(b, "%lld", (long long)v->v.i); break;
    case TY_FLOAT: num_format_double(v->v.f, buf); sb_puts(b, buf); break;
    case TY_BOOL: sb_puts(b, v->v.b ? "true" : "false"); break;
    case TY_TEXT: sb_append(b, v->v.s.ptr, (size_t)v->v.s.len); break;
    case TY_TIMESTAMP: tm_format_timestamp(v->v.i, buf); sb_puts(b, buf); break;
    case TY_DATE: tm_format_date(v->v.date, buf); sb_puts(b, buf); break;
    case TY_TIME: tm_format_time(v->v.i, buf); sb_puts(b, buf); break;
    case TY_DURATION:
        /* PostgreSQL reads neither '-PT5M' nor a months-and-microseconds split in ISO form */
        sb_printf(b, "%lld mon %lld microseconds", (long long)v->v.d.months, (long long)v->v.d.us);
        break;
    case TY_NULL: break;
    }
    if (!b->p) sb_puts(b, "");
}

static int query_params(DbConn *c, const char *sql, const Value *params, int n_params, int n_cols,
                        const RxType *types, const char *const *names, Table **out, RxError *err) {
    *out = NULL;
    if (c->mongo) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s takes no SQL", c->display);
    if (c->kind == DB_DUCKDB) {
        int slot = run_begin(c);
        int drc = duck_query(c->duck, c->display, sql, params, n_params, n_cols, types, names, out, err);
        run_end(slot);
        return drc;
    }
    if (c->my) {
        int my_slot = run_begin(c);
        int my_rc = my_query(c->my, c->display, sql, params, n_params, n_cols, types, names, out, err);
        run_end(my_slot);
        return my_rc;
    }
    ColBuilder *b = calloc((size_t)(n_cols ? n_cols : 1), sizeof *b);
    if (!b) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    size_t rows = 0;
    int rc = -1, slot = -1;
    PGresult *res = NULL;
    sqlite3_stmt *st = NULL;
    if (c->pg) {
        StrBuf *texts = calloc((size_t)n_params + 1, sizeof *texts);
        const char **values = calloc((size_t)n_params + 1, sizeof *values);
        bool oom = !texts || !values;
        for (int i = 0; !oom && i < n_params; i++) {
            sb_init(&texts[i]);
            param_text(&params[i], &texts[i]);
            values[i] = texts[i].p;
            oom |= texts[i].oom || !values[i];
        }
        if (!oom) {
            slot = run_begin(c);
            res = pqlib.PQexecParams(c->pg, sql, n_params, NULL, values, NULL, NULL, 0);
            run_end(slot);
            slot = -1;
        }
        for (int i = 0; texts && i < n_params; i++) sb_free(&texts[i]);
        free(texts);
        free(values);
        if (oom) {
            rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            goto out;
        }
        if (pqlib.PQresultStatus(res) != PGRES_TUPLES_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, msg);
            goto out;
        }
        rows = (size_t)pqlib.PQntuples(res);
        if (pqlib.PQnfields(res) != n_cols) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s answered %d columns, %d expected", c->display, pqlib.PQnfields(res), n_cols);
            goto out;
        }
    } else {
        if (litelib.sqlite3_prepare_v2(c->lite, sql, -1, &st, NULL) != SQLITE_OK) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, litelib.sqlite3_errmsg(c->lite));
            goto out;
        }
        for (int i = 0; i < n_params; i++) {
            const Value *v = &params[i];
            int brc = v->type == TY_INT ? litelib.sqlite3_bind_int64(st, i + 1, v->v.i)
                    : v->type == TY_FLOAT ? litelib.sqlite3_bind_double(st, i + 1, v->v.f)
                    : v->type == TY_BOOL ? litelib.sqlite3_bind_int(st, i + 1, v->v.b)
                    : v->type == TY_TEXT ? litelib.sqlite3_bind_text64(st, i + 1, v->v.s.ptr, v->v.s.len, SQLITE_STATIC, SQLITE_UTF8)
                    : SQLITE_MISUSE;
            if (brc != SQLITE_OK) {
                rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: cannot bind parameter %d (%s)", c->display, i + 1,
                         type_name(v->type));
                goto out;
            }
        }
    }
    for (int j = 0; j < n_cols; j++) colb_init(&b[j], types[j], rows ? rows : 1024);
    if (c->pg) {
        for (size_t i = 0; i < rows; i++)
            for (int j = 0; j < n_cols; j++) {
                if (pqlib.PQgetisnull(res, (int)i, j)) {
                    colb_push_null(&b[j]);
                    continue;
                }
                const char *s = pqlib.PQgetvalue(res, (int)i, j), *why;
                size_t n = (size_t)pqlib.PQgetlength(res, (int)i, j);
                Value v = {.type = types[j]};
                /* H2 writes an INTERVAL as its SQL literal */
                int vrc = c->kind == DB_H2 && types[j] == TY_DURATION ? h2_interval_value(s, n, &v.v.d, &why)
                                                                      : text_value(types[j], s, n, &v, &why);
                if (vrc < 0) {
                    bad_value(err, names[j], i, types[j], s, n, why);
                    goto out;
                }
                colb_push(&b[j], &v);
            }
    } else {
        int step;
        slot = run_begin(c);
        while ((step = litelib.sqlite3_step(st)) == SQLITE_ROW) {
            for (int j = 0; j < n_cols; j++) {
                int kind = litelib.sqlite3_column_type(st, j);
                Value v = {.type = types[j]};
                if (kind == SQLITE_NULL) {
                    colb_push_null(&b[j]);
                    continue;
                }
                const char *why = "invalid";
                if (kind == SQLITE_INTEGER && (types[j] == TY_INT || types[j] == TY_FLOAT || types[j] == TY_BOOL ||
                                               types[j] == TY_TIMESTAMP)) {
                    int64_t x = litelib.sqlite3_column_int64(st, j);
                    if (types[j] == TY_INT) v.v.i = x;
                    else if (types[j] == TY_FLOAT) {
                        /* a NUMERIC-affinity column keeps integers, which a double may round */
                        v.v.f = (double)x;
                        if (v.v.f >= 0x1p63 || (int64_t)v.v.f != x) {
                            char num[32];
                            int nn = snprintf(num, sizeof num, "%lld", (long long)x);
                            bad_value(err, names[j], rows, types[j], num, (size_t)nn, "not exact as a FLOAT");
                            goto out;
                        }
                    } else if (types[j] == TY_BOOL) {
                        /* 0 and 1 only: any other integer is not a truth value to round */
                        if (x != 0 && x != 1) {
                            char num[32];
                            int nn = snprintf(num, sizeof num, "%lld", (long long)x);
                            bad_value(err, names[j], rows, types[j], num, (size_t)nn, "only 0 and 1 are booleans");
                            goto out;
                        }
                        v.v.b = x != 0;
                    }
                    else if (__builtin_mul_overflow(x, US_PER_SEC, &v.v.i)) {
                        bad_value(err, names[j], rows, types[j], "(integer)", 9, "out of range");
                        goto out;
                    }
                } else if (kind == SQLITE_FLOAT && types[j] == TY_FLOAT) {
                    v.v.f = litelib.sqlite3_column_double(st, j);
                } else if (kind == SQLITE_TEXT || kind == SQLITE_INTEGER || kind == SQLITE_FLOAT) {
                    const char *s = (const char *)litelib.sqlite3_column_text(st, j);
                    size_t n = (size_t)litelib.sqlite3_column_bytes(st, j);
                    if (text_value(types[j], s, n, &v, &why) < 0) {
                        bad_value(err, names[j], rows, types[j], s, n, why);
                        goto out;
                    }
                } else {
                    bad_value(err, names[j], rows, types[j], "(blob)", 6, "a BLOB");
                    goto out;
                }
                colb_push(&b[j], &v);
            }
            rows++;
        }
        if (step != SQLITE_DONE) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, litelib.sqlite3_errmsg(c->lite));
            goto out;
        }
    }
    Table *t = colb_table(b, n_cols, rows, names);
    if (!t) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        goto out;
    }
    *out = t;
    rc = 0;
out:
    run_end(slot);
    for (int j = 0; j < n_cols; j++)
        if (b[j].col) colb_free(&b[j]);
    free(b);
    if (res) pqlib.PQclear(res);
    if (st) litelib.sqlite3_finalize(st);
    return rc;
}

int db_query(DbConn *c, const char *sql, int n_cols, const RxType *types, const char *const *names,
             Table **out, RxError *err) {
    return query_params(c, sql, NULL, 0, n_cols, types, names, out, err);
}

int db_run(DbConn *c, const DbStatement *st, int n_cols, const RxType *types, const char *const *names,
           Table **out, RxError *err) {
    *out = NULL;
    if (!st->fetched)
        return query_params(c, st->sql, st->params, st->n_params, n_cols, types, names, out, err);
    int k = 0;
    RxType *ft = calloc((size_t)n_cols + 1, sizeof *ft);
    const char **fn = calloc((size_t)n_cols + 1, sizeof *fn);
    if (!ft || !fn) {
        free(ft), free(fn);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    for (int i = 0; i < n_cols; i++)
        if (st->fetched[i]) ft[k] = types[i], fn[k++] = names[i];
    Table *got = NULL;
    int rc = query_params(c, st->sql, st->params, st->n_params, k, ft, fn, &got, err);
    free(ft), free(fn);
    if (rc < 0) return -1;
    Table *t = table_new(n_cols, got->n_rows);
    for (int i = 0, j = 0; t && i < n_cols; i++) {
        Column *col = st->fetched[i] ? got->cols[j++] : col_placeholder(types[i], got->n_rows);
        if (st->fetched[i] && col) col_retain(col);
        if (!col || table_set(t, i, col, names[i]) < 0) {
            col_release(col);
            table_free(t);
            t = NULL;
        }
    }
    table_free(got);
    if (!t) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    *out = t;
    return 0;
}

int db_explain_rows(DbConn *c, const DbStatement *st, double *rows) {
    if (c->kind != DB_POSTGRES) return -1;
    StrBuf q;
    sb_init(&q);
    sb_puts(&q, "EXPLAIN ");
    sb_puts(&q, st->sql);
    StrBuf *texts = calloc((size_t)st->n_params + 1, sizeof *texts);
    const char **values = calloc((size_t)st->n_params + 1, sizeof *values);
    int rc = -1;
    if (texts && values && !q.oom) {
        for (int i = 0; i < st->n_params; i++) {
            sb_init(&texts[i]);
            param_text(&st->params[i], &texts[i]);
            values[i] = texts[i].p;
        }
        PGresult *r = pqlib.PQexecParams(c->pg, q.p, st->n_params, NULL, values, NULL, NULL, 0);
        /* the first line is the top node: "Sort  (cost=1.05..1.06 rows=3 width=8)" */
        const char *line = pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) > 0 ? pqlib.PQgetvalue(r, 0, 0) : NULL;
        const char *at = line ? strstr(line, " rows=") : NULL;
        if (at) {
            char *end;
            double v = strtod(at + 6, &end);
            if (end != at + 6 && v >= 0) {
                *rows = v;
                rc = 0;
            }
        }
        pqlib.PQclear(r);
        for (int i = 0; i < st->n_params; i++) sb_free(&texts[i]);
    }
    free(texts);
    free(values);
    sb_free(&q);
    return rc;
}

/* The first integer of a one-row, one-column answer to sql with the text parameter p; -1 when
 * there is none. */
static int one_number(DbConn *c, const char *sql, const char *p, double *out) {
    int rc = -1;
    if (c->kind == DB_DUCKDB) return duck_number(c->duck, sql, p, out);
    if (c->pg) {
        const char *values[1] = {p};
        PGresult *r = pqlib.PQexecParams(c->pg, sql, p ? 1 : 0, NULL, values, NULL, NULL, 0);
        if (pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) == 1 && !pqlib.PQgetisnull(r, 0, 0)) {
            *out = strtod(pqlib.PQgetvalue(r, 0, 0), NULL);
            rc = 0;
        }
        pqlib.PQclear(r);
        return rc;
    }
    sqlite3_stmt *st = NULL;
    if (litelib.sqlite3_prepare_v2(c->lite, sql, -1, &st, NULL) == SQLITE_OK &&
        (!p || litelib.sqlite3_bind_text(st, 1, p, -1, SQLITE_STATIC) == SQLITE_OK) && litelib.sqlite3_step(st) == SQLITE_ROW &&
        litelib.sqlite3_column_type(st, 0) != SQLITE_NULL) {
        /* sqlite_stat1.stat is "rows [rows-per-key ...]" */
        *out = strtod((const char *)litelib.sqlite3_column_text(st, 0), NULL);
        rc = 0;
    }
    litelib.sqlite3_finalize(st);
    return rc;
}

int db_table_rows(DbConn *c, const char *table, DbSchema *s, double *rows) {
    if (s->rows_est >= 0) {
        *rows = s->rows_est;
        return 0;
    }
    if (c->mongo) {
        if (mongo_table_rows(c->mongo, table, rows) < 0) return -1;
        s->rows_est = *rows;
        return 0;
    }
    if (c->my) {
        if (my_table_rows(c->my, table, rows) < 0) return -1;
        s->rows_est = *rows;
        return 0;
    }
    StrBuf ident, q;
    sb_init(&ident);
    sb_init(&q);
    db_quote_ident(&ident, table);
    double v = -1;
    int rc;
    if (c->kind == DB_H2) {
        rc = h2_table_rows(c->pg, table, &v);
    } else if (c->kind == DB_POSTGRES) {
        rc = one_number(c, "SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)", ident.p, &v);
        if (rc == 0 && v < 0) rc = -1; /* never analyzed */
    } else if (c->kind == DB_DUCKDB) {
        rc = one_number(c, "SELECT estimated_size FROM duckdb_tables() WHERE table_name = $1 "
                           "AND database_name = current_database() AND schema_name = current_schema()", table, &v);
    } else {
        rc = one_number(c, "SELECT stat FROM sqlite_stat1 WHERE tbl = ?1 ORDER BY idx IS NULL LIMIT 1", table, &v);
    }
    if (rc < 0) {
        sb_printf(&q, "SELECT count(*) FROM %s", ident.p ? ident.p : "");
        rc = q.oom ? -1 : one_number(c, q.p, NULL, &v);
    }
    sb_free(&ident);
    sb_free(&q);
    if (rc < 0) return -1;
    s->rows_est = v;
    *rows = v;
    return 0;
}

void db_params_text(const DbConn *c, const DbStatement *st, StrBuf *b) {
    for (int i = 0; i < st->n_params; i++) {
        const Value *v = &st->params[i];
        sb_printf(b, "%s%s%d = ", i ? ", " : " with ", c->kind == DB_POSTGRES || c->kind == DB_DUCKDB || c->kind == DB_H2 ? "$" : "?",
                  i + 1);
        char buf[TM_BUF > NUM_BUF ? TM_BUF : NUM_BUF];
        switch (v->type) {
        case TY_TEXT: db_quote_literal(b, v->v.s.ptr, (size_t)v->v.s.len); break;
        case TY_INT: sb_printf(b, "%lld", (long long)v->v.i); break;
        case TY_FLOAT: num_format_double(v->v.f, buf); sb_puts(b, buf); break;
        case TY_BOOL: sb_puts(b, v->v.b ? "TRUE" : "FALSE"); break;
        case TY_TIMESTAMP: tm_format_timestamp(v->v.i, buf); sb_printf(b, "TIMESTAMP '%s'", buf); break;
        case TY_DATE: tm_format_date(v->v.date, buf); sb_printf(b, "DATE '%s'", buf); break;
        case TY_TIME: tm_format_time(v->v.i, buf); sb_printf(b, "TIME '%s'", buf); break;
        case TY_DURATION: tm_format_duration(v->v.d, buf); sb_printf(b, "DURATION '%s'", buf); break;
        case TY_NULL: sb_puts(b, "NULL"); break;
        }
    }
}

int db_sqlite_version(void) { return lite_loaded() ? litelib.sqlite3_libversion_number() : 0; }

/* Whether the index column list cols (n names) starts with the lead columns in any order, then
 * `then`. */
static bool index_leads(char *const *cols, int n, const char *const *lead, int n_lead, const char *then) {
    if (n < n_lead + (then ? 1 : 0)) return false;
    for (int i = 0; i < n_lead; i++) {
        bool found = false;
        for (int k = 0; k < n_lead && !found; k++) found = strcmp(cols[i], lead[k]) == 0;
        if (!found) return false;
    }
    return !then || strcmp(cols[n_lead], then) == 0;
}

bool db_has_index(DbConn *c, const char *table, const char *const *lead, int n_lead, const char *then) {
    char *cols[64];
    bool yes = false;
    if (c->kind == DB_DUCKDB) return false; /* its ART indexes serve point lookups, not an ordered probe */
    if (c->kind == DB_H2) return false;     /* no LATERAL: no probe for an index to serve */
    if (c->kind == DB_MONGO) return false;  /* nothing is pushed */
    if (c->my) return my_has_index(c->my, table, lead, n_lead, then);
    if (c->kind == DB_POSTGRES) {
        StrBuf ident;
        sb_init(&ident);
        db_quote_ident(&ident, table);
        const char *params[1] = {ident.p};
        /* one row per column of each plain B-tree index, in index order */
        PGresult *r = pqlib.PQexecParams(c->pg,
            "SELECT i.indexrelid, a.attname FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid "
            "JOIN pg_am m ON m.oid = x.relam CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(n, o) "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n "
            "WHERE i.indrelid = to_regclass($1) AND i.indpred IS NULL AND m.amname = 'btree' ORDER BY 1, k.o",
            1, NULL, params, NULL, NULL, 0);
        sb_free(&ident);
        int rows = pqlib.PQresultStatus(r) == PGRES_TUPLES_OK ? pqlib.PQntuples(r) : 0;
        for (int i = 0; i < rows && !yes;) {
            int n = 0;
            const char *id = pqlib.PQgetvalue(r, i, 0);
            for (; i < rows && strcmp(pqlib.PQgetvalue(r, i, 0), id) == 0; i++)
                if (n < 64) cols[n++] = pqlib.PQgetvalue(r, i, 1);
            yes = index_leads(cols, n, lead, n_lead, then);
        }
        pqlib.PQclear(r);
        return yes;
    }
    StrBuf q;
    sb_init(&q);
    sb_puts(&q, "SELECT l.name, i.name FROM pragma_index_list(");
    db_quote_literal(&q, table, strlen(table));
    sb_puts(&q, ") AS l, pragma_index_info(l.name) AS i WHERE NOT l.partial ORDER BY l.name, i.seqno");
    sqlite3_stmt *st = NULL;
    if (!q.oom && litelib.sqlite3_prepare_v2(c->lite, q.p, -1, &st, NULL) == SQLITE_OK) {
        char *id = NULL;
        int n = 0, step;
        do {
            step = litelib.sqlite3_step(st);
            const char *name = step == SQLITE_ROW ? (const char *)litelib.sqlite3_column_text(st, 0) : NULL;
            if (id && (!name || strcmp(name, id) != 0)) {
                yes = yes || index_leads(cols, n, lead, n_lead, then);
                for (int k = 0; k < n; k++) free(cols[k]);
                free(id);
                id = NULL;
                n = 0;
            }
            if (!name) break;
            const char *col = (const char *)litelib.sqlite3_column_text(st, 1);
            if (!id) id = strdup(name);
            if (n < 64 && col && (cols[n] = strdup(col)) != NULL) n++;
        } while (step == SQLITE_ROW);
        for (int k = 0; k < n; k++) free(cols[k]);
        free(id);
    }
    litelib.sqlite3_finalize(st);
    sb_free(&q);
    return yes;
}

void db_find_text(DbConn *c, const char *table, const uint8_t *want, StrBuf *b) {
    if (c->mongo) mongo_find_text(c->mongo, table, want, b);
}

int db_collection_read(DbConn *c, const char *table, int k, const RxType *types, const char *const *names,
                       Table **out, RxError *err) {
    *out = NULL;
    if (!c->mongo) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s is no MongoDB connection", c->display);
    int slot = run_begin(c);
    int rc = mongo_read(c->mongo, c->display, table, k, types, names, out, err);
    run_end(slot);
    return rc;
}
