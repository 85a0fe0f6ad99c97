/*
 * mariadb.c - MariaDB and MySQL connections through libmariadb: the connection string, the
 * session, the catalog from information_schema, statements with their parameters written as
 * literals, rows streamed in the text protocol, and KILL QUERY for cancelling. Its functions
 * are declared in connect.h, and connect.c dispatches to them.
 *
 * Values arrive in the text protocol and are parsed with the ISO parsers connect.c uses for
 * PostgreSQL (the session's time zone is UTC, so TIMESTAMP columns arrive in UTC and DATETIME
 * columns, which have no zone, are read as UTC). A value that does not fit its column's Relix
 * type is an error naming the column and the row; nothing is coerced silently.
 */

#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "connect/clients.h"
#include "connect/connect.h"
#include "types/temporal.h"

/* What a second connection needs to stop a statement: fixed-size copies, so that a signal
 * handler hands a slot number to the helper thread without allocating. */
typedef struct {
    char host[256], user[128], socket[512];
    unsigned port;
    unsigned long thread_id;   /* the server's id of the connection, for KILL QUERY */
    int used;                  /* claimed atomically */
} KillTarget;

#define KILL_SLOTS 64
static KillTarget targets[KILL_SLOTS];

struct MyConn {
    MYSQL *db;
    int slot;                  /* in targets; -1: none free (the connection cannot be cancelled) */
};

static const char MY_SECRET_HINT[] =
    "a connection string must not hold a password (it is not shown here): put it in ~/.my.cnf "
    "(the [client] group of an option file) or in MYSQL_PWD";

/* ---- cancelling ----------------------------------------------------------------------------- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ask_pipe[2] = {-1, -1};   /* slot numbers to the helper thread */
static int done_pipe[2] = {-1, -1};  /* one byte back per request handled */

/* The helper thread: for each slot number read, connects as that connection did and sends
 * KILL QUERY for its thread id, then answers one byte. */
static void *killer(void *arg) {
    (void)arg;
    mylib.mysql_thread_init();
    int slot;
    while (read(ask_pipe[0], &slot, sizeof slot) == (ssize_t)sizeof slot) {
        if (slot < 0 || slot >= KILL_SLOTS) continue;
        KillTarget t = targets[slot];
        MYSQL *k = mylib.mysql_init(NULL);
        if (k) {
            mylib.mysql_options(k, MYSQL_READ_DEFAULT_GROUP, "client");
            if (mylib.mysql_real_connect(k, t.host[0] ? t.host : NULL, t.user[0] ? t.user : NULL, NULL, NULL, t.port,
                                   t.socket[0] ? t.socket : NULL, 0)) {
                char q[64];
                snprintf(q, sizeof q, "KILL QUERY %lu", t.thread_id);
                mylib.mysql_query(k, q);
            }
            mylib.mysql_close(k);
        }
        char one = 1;
        if (write(done_pipe[1], &one, 1) < 0) continue;
    }
    mylib.mysql_thread_end();
    return NULL;
}

static void init_once(void) {
    mylib.mysql_server_init(0, NULL, NULL);
    if (pipe(ask_pipe) < 0 || pipe(done_pipe) < 0) return;
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, killer, NULL) != 0) {
        close(ask_pipe[0]), close(ask_pipe[1]);
        ask_pipe[0] = ask_pipe[1] = -1;
    }
    pthread_attr_destroy(&at);
}

void my_cancel(MyConn *m) {
    if (!m || m->slot < 0 || ask_pipe[1] < 0) return;
    int slot = m->slot;
    if (write(ask_pipe[1], &slot, sizeof slot) != (ssize_t)sizeof slot) return;
    struct pollfd p = {.fd = done_pipe[0], .events = POLLIN};
    if (poll(&p, 1, 2000) == 1) {
        char one;
        if (read(done_pipe[0], &one, 1) < 0) return;
    }
}

/* ---- opening -------------------------------------------------------------------------------- */

/* Whether rx_redact finds a secret in s. */
static bool has_secret(const char *s) {
    StrBuf b;
    sb_init(&b);
    bool any = rx_redact(s, strlen(s), &b, NULL, 0);
    sb_free(&b);
    return any;
}

/* s[0..n) with %XX decoded into out (size cap); -1 when malformed or too long. */
static int pct_decode(const char *s, size_t n, char *out, size_t cap) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k + 1 >= cap) return -1;
        if (s[i] == '%') {
            char hex[3] = {0};
            if (i + 2 >= n) return -1;
            memcpy(hex, s + i + 1, 2);
            char *end;
            long v = strtol(hex, &end, 16);
            if (end != hex + 2 || v == 0) return -1;
            out[k++] = (char)v;
            i += 2;
        } else {
            out[k++] = s[i];
        }
    }
    out[k] = 0;
    return 0;
}

typedef struct {
    char user[128], host[256], db[256], socket[512];
    unsigned port;
} MyUri;

/* Parses mysql://[user@]host[:port]/db[?socket=PATH] (mariadb:// too) into u; -1 with err. */
static int parse_uri(const char *uri, MyUri *u, RxError *err) {
    memset(u, 0, sizeof *u);
    const char *p = strstr(uri, "://") + 3;
    const char *slash = strchr(p, '/'), *qm = strchr(p, '?');
    const char *auth_end = slash ? slash : qm ? qm : p + strlen(p);
    if (qm && slash && qm < slash) auth_end = qm;
    const char *at = memchr(p, '@', (size_t)(auth_end - p));
    if (at && memchr(p, ':', (size_t)(at - p))) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", MY_SECRET_HINT);
    if (at && pct_decode(p, (size_t)(at - p), u->user, sizeof u->user) < 0) goto bad;
    const char *h = at ? at + 1 : p;
    const char *colon = memchr(h, ':', (size_t)(auth_end - h));
    if (pct_decode(h, (size_t)((colon ? colon : auth_end) - h), u->host, sizeof u->host) < 0) goto bad;
    if (colon) {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (end != auth_end || port <= 0 || port > 65535) goto bad;
        u->port = (unsigned)port;
    }
    if (slash && slash == auth_end) {
        const char *db_end = qm ? qm : slash + strlen(slash);
        if (pct_decode(slash + 1, (size_t)(db_end - slash - 1), u->db, sizeof u->db) < 0) goto bad;
    }
    for (const char *o = qm ? qm + 1 : NULL; o && *o;) {
        const char *amp = strchr(o, '&'), *end = amp ? amp : o + strlen(o);
        const char *eq = memchr(o, '=', (size_t)(end - o));
        if (eq && (size_t)(eq - o) == 6 && strncmp(o, "socket", 6) == 0) {
            if (pct_decode(eq + 1, (size_t)(end - eq - 1), u->socket, sizeof u->socket) < 0) goto bad;
        } else {
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                            "unknown option '%.*s' in a MariaDB connection string (only socket=PATH)",
                            (int)((eq ? eq : end) - o), o);
        }
        o = amp ? amp + 1 : end;
    }
    return 0;
bad:
    return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                    "malformed MariaDB connection string (mysql://user@host:port/db or mysql:///db?socket=PATH)");
}

/* The server's message, first line only. */
static void my_message(MYSQL *db, char *buf, size_t n) {
    const char *m = db ? mylib.mysql_error(db) : "";
    snprintf(buf, n, "%s", m && *m ? m : "unknown error");
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
}

void my_close(MyConn *m) {
    if (!m) return;
    if (m->slot >= 0) __atomic_store_n(&targets[m->slot].used, 0, __ATOMIC_SEQ_CST);
    if (m->db) mylib.mysql_close(m->db);
    free(m);
}

int my_open(const char *uri, const char *display, MyConn **out, DbKind *kind, RxError *err) {
    *out = NULL;
    if (has_secret(uri)) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "%s", MY_SECRET_HINT);
    MyUri u;
    if (parse_uri(uri, &u, err) < 0) return -1;
    if (my_load(err) < 0) return -1;
    pthread_once(&once, init_once);
    MyConn *m = calloc(1, sizeof *m);
    if (!m) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    m->slot = -1;
    m->db = mylib.mysql_init(NULL);
    if (!m->db) {
        my_close(m);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    mylib.mysql_options(m->db, MYSQL_READ_DEFAULT_GROUP, "client");
    mylib.mysql_options(m->db, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    unsigned timeout = 10;
    mylib.mysql_options(m->db, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    if (!mylib.mysql_real_connect(m->db, u.host[0] ? u.host : NULL, u.user[0] ? u.user : NULL, NULL, u.db[0] ? u.db : NULL,
                            u.port, u.socket[0] ? u.socket : NULL, 0)) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        my_close(m);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot connect to %s: %s", display, msg);
    }
    if (mylib.mysql_query(m->db, "SET time_zone = '+00:00', sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES,"
                           "STRICT_ALL_TABLES', max_recursive_iterations = 4294967295") != 0 &&
        mylib.mysql_query(m->db, "SET time_zone = '+00:00', sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES,"
                           "STRICT_ALL_TABLES'") != 0) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        my_close(m);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot set up the session on %s: %s", display, msg);
    }
    /* the flavour and version decide the dialect: MariaDB 10.2 has window functions and
     * recursive CTEs, no LATERAL; MySQL 8.0.17 also the NO PAD utf8mb4_0900_bin collation and,
     * since 8.0.14, LATERAL */
    unsigned long v = mylib.mysql_get_server_version(m->db);
    const char *info = mylib.mysql_get_server_info(m->db);
    bool maria = info && strstr(info, "MariaDB");
    *kind = maria ? (v >= 100200 ? DB_MARIADB : DB_MYSQL_OLD) : (v >= 80017 ? DB_MYSQL : DB_MYSQL_OLD);
    for (int i = 0; i < KILL_SLOTS; i++) {
        int zero = 0;
        if (__atomic_compare_exchange_n(&targets[i].used, &zero, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            KillTarget *t = &targets[i];
            snprintf(t->host, sizeof t->host, "%s", u.host);
            snprintf(t->user, sizeof t->user, "%s", u.user);
            snprintf(t->socket, sizeof t->socket, "%s", u.socket);
            t->port = u.port;
            t->thread_id = mylib.mysql_thread_id(m->db);
            m->slot = i;
            break;
        }
    }
    *out = m;
    return 0;
}

/* ---- statements ----------------------------------------------------------------------------- */

/* Appends v as a literal of the session (NO_BACKSLASH_ESCAPES: quotes doubled); -1 with err
 * for a value MariaDB cannot hold (NaN, an infinity). */
static int literal(StrBuf *b, const Value *v, RxError *err) {
    switch (v->type) {
    case TY_INT:
        if (v->v.i == INT64_MIN) sb_puts(b, "(-9223372036854775807 - 1)");
        else sb_printf(b, "%lld", (long long)v->v.i);
        return 0;
    case TY_FLOAT:
        if (!isfinite(v->v.f))
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                            "MariaDB has no NaN or infinity: this query cannot run there (run it with --no-pushdown)");
        sb_printf(b, "%.17e", v->v.f); /* an exponent makes it a DOUBLE, not a DECIMAL */
        return 0;
    case TY_BOOL: sb_puts(b, v->v.b ? "TRUE" : "FALSE"); return 0;
    case TY_TEXT: db_quote_literal(b, v->v.s.ptr, (size_t)v->v.s.len); return 0;
    case TY_TIMESTAMP: {
        int64_t us = v->v.i, days = us / 86400000000LL, rem = us % 86400000000LL;
        if (rem < 0) rem += 86400000000LL, days--;
        int64_t y;
        int mo, d;
        tm_civil_from_days(days, &y, &mo, &d);
        int64_t s = rem / 1000000;
        sb_printf(b, "TIMESTAMP'%04lld-%02d-%02d %02d:%02d:%02d.%06lld'", (long long)y, mo, d, (int)(s / 3600),
                  (int)(s / 60 % 60), (int)(s % 60), (long long)(rem % 1000000));
        return 0;
    }
    case TY_DATE: {
        int64_t y;
        int mo, d;
        tm_civil_from_days(v->v.date, &y, &mo, &d);
        sb_printf(b, "DATE'%04lld-%02d-%02d'", (long long)y, mo, d);
        return 0;
    }
    default:
        return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "a %s cannot be a parameter on MariaDB",
                        type_name(v->type));
    }
}

/* sql with each mark ?N (outside quotes) replaced by the literal of params[N-1], into b. */
static int expand(const char *sql, const Value *params, int n_params, StrBuf *b, RxError *err) {
    char quote = 0;
    for (const char *p = sql; *p; p++) {
        if (quote) {
            if (*p == quote) quote = 0;
        } else if (*p == '\'' || *p == '"' || *p == '`') {
            quote = *p;
        } else if (*p == '?' && p[1] >= '1' && p[1] <= '9') {
            char *end;
            long k = strtol(p + 1, &end, 10);
            if (k > n_params)
                return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "parameter ?%ld of %d is missing", k, n_params);
            if (literal(b, &params[k - 1], err) < 0) return -1;
            p = end - 1;
            continue;
        }
        sb_append(b, p, 1);
    }
    return b->oom ? rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory") : 0;
}

int my_query(MyConn *m, const char *display, const char *sql, const Value *params, int n_params, int n_cols,
             const RxType *types, const char *const *names, Table **out, RxError *err) {
    *out = NULL;
    StrBuf q;
    sb_init(&q);
    if (expand(sql, params, n_params, &q, err) < 0) {
        sb_free(&q);
        return -1;
    }
    if (mylib.mysql_real_query(m->db, q.p, q.n) != 0) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        sb_free(&q);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
    }
    sb_free(&q);
    MYSQL_RES *res = mylib.mysql_use_result(m->db);
    if (!res) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
    }
    int rc = -1;
    ColBuilder *b = calloc((size_t)(n_cols ? n_cols : 1), sizeof *b);
    if (!b) {
        mylib.mysql_free_result(res);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    if ((int)mylib.mysql_num_fields(res) != n_cols) {
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s answered %u columns, %d expected", display,
                 mylib.mysql_num_fields(res), n_cols);
        goto out;
    }
    for (int j = 0; j < n_cols; j++) colb_init(&b[j], types[j], 1024);
    size_t rows = 0;
    MYSQL_ROW row;
    while ((row = mylib.mysql_fetch_row(res)) != NULL) {
        unsigned long *len = mylib.mysql_fetch_lengths(res);
        for (int j = 0; j < n_cols; j++) {
            if (!row[j]) {
                colb_push_null(&b[j]);
                continue;
            }
            Value v;
            const char *why;
            if (db_text_value(types[j], row[j], len[j], &v, &why) < 0) {
                db_bad_value(err, names[j], rows, types[j], row[j], len[j], why);
                goto out;
            }
            colb_push(&b[j], &v);
        }
        rows++;
    }
    if (mylib.mysql_errno(m->db)) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
        goto out;
    }
    Table *t = colb_table(b, n_cols, rows, names);
    if (!t) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        goto out;
    }
    *out = t;
    rc = 0;
out:
    mylib.mysql_free_result(res);
    for (int j = 0; j < n_cols; j++)
        if (b[j].col) colb_free(&b[j]);
    free(b);
    return rc;
}

/* Runs sql and calls each(row, lengths, ctx) per row (all rows read); -1 when the server
 * fails. */
static int each_row(MyConn *m, const char *sql, void (*each)(MYSQL_ROW, unsigned long *, void *), void *ctx) {
    if (mylib.mysql_query(m->db, sql) != 0) return -1;
    MYSQL_RES *res = mylib.mysql_use_result(m->db);
    if (!res) return -1;
    MYSQL_ROW row;
    while ((row = mylib.mysql_fetch_row(res)) != NULL) each(row, mylib.mysql_fetch_lengths(res), ctx);
    int rc = mylib.mysql_errno(m->db) ? -1 : 0;
    mylib.mysql_free_result(res);
    return rc;
}

/* ---- catalog -------------------------------------------------------------------------------- */

/* A column's Relix type from information_schema (DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME),
 * and what a pushed statement may do with it; -1 for a binary string (no Relix type). */
static int my_type(const char *dt, const char *ct, const char *cs, RxType *t, DbNative *nat) {
    *nat = DBN_OPAQUE;
    bool text_utf8mb4 = cs && strcmp(cs, "utf8mb4") == 0;
    if (strcmp(dt, "tinyint") == 0 && strncmp(ct, "tinyint(1)", 10) == 0) *t = TY_BOOL;
    else if (strcmp(dt, "bigint") == 0 && strstr(ct, "unsigned")) *t = TY_INT; /* beyond 2^63-1: an error */
    else if (!strcmp(dt, "tinyint") || !strcmp(dt, "smallint") || !strcmp(dt, "mediumint") || !strcmp(dt, "int") ||
             !strcmp(dt, "bigint"))
        *t = TY_INT, *nat = DBN_EXACT;
    else if (!strcmp(dt, "year")) *t = TY_INT;
    else if (!strcmp(dt, "double")) *t = TY_FLOAT, *nat = DBN_EXACT;
    else if (!strcmp(dt, "float") || !strcmp(dt, "decimal")) *t = TY_FLOAT; /* read rounded to a double */
    else if (!strcmp(dt, "datetime") || !strcmp(dt, "timestamp")) *t = TY_TIMESTAMP, *nat = DBN_EXACT;
    else if (!strcmp(dt, "date")) *t = TY_DATE, *nat = DBN_EXACT;
    else if (!strcmp(dt, "time")) *t = TY_TIME;
    else if (!strcmp(dt, "varchar") || !strcmp(dt, "tinytext") || !strcmp(dt, "text") || !strcmp(dt, "mediumtext") ||
             !strcmp(dt, "longtext"))
        *t = TY_TEXT, *nat = text_utf8mb4 ? DBN_EXACT : DBN_OPAQUE;
    else if (!strcmp(dt, "binary") || !strcmp(dt, "varbinary") || strstr(dt, "blob")) return -1;
    else *t = TY_TEXT; /* char(n) (trailing spaces dropped), enum, set, json, bit, ... in text form */
    return 0;
}

typedef struct {
    DbSchema *s;
    char **charset;   /* per column, malloc'd, NULL for non-text */
    int n_charset;
    bool oom, blob;
    char blob_name[256];
} ColsCtx;

static void col_row(MYSQL_ROW row, unsigned long *len, void *vctx) {
    (void)len;
    ColsCtx *x = vctx;
    if (x->oom || x->blob) return;
    RxType t;
    DbNative nat;
    if (my_type(row[1] ? row[1] : "", row[2] ? row[2] : "", row[3], &t, &nat) < 0) {
        x->blob = true;
        snprintf(x->blob_name, sizeof x->blob_name, "%s", row[0]);
        return;
    }
    DbSchema *s = x->s;
    char **nn = realloc(s->names, (size_t)(s->n_cols + 1) * sizeof *nn);
    if (nn) s->names = nn;
    RxType *nt = nn ? realloc(s->types, (size_t)(s->n_cols + 1) * sizeof *nt) : NULL;
    if (nt) s->types = nt;
    DbNative *nv = nt ? realloc(s->native, (size_t)(s->n_cols + 1) * sizeof *nv) : NULL;
    if (nv) s->native = nv;
    char **cs = nv ? realloc(x->charset, (size_t)(s->n_cols + 1) * sizeof *cs) : NULL;
    if (cs) x->charset = cs;
    if (!cs || !(s->names[s->n_cols] = strdup(row[0]))) {
        x->oom = true;
        return;
    }
    x->charset[s->n_cols] = row[3] && t == TY_TEXT ? strdup(row[3]) : NULL;
    s->types[s->n_cols] = t;
    s->native[s->n_cols] = nat;
    s->n_cols++;
    x->n_charset = s->n_cols;
}

typedef struct {
    char *names[64];
    int n;
} NameList;

static void name_row(MYSQL_ROW row, unsigned long *len, void *vctx) {
    (void)len;
    NameList *l = vctx;
    if (l->n < 64 && row[0] && (l->names[l->n] = strdup(row[0])) != NULL) l->n++;
}

static void names_free(NameList *l) {
    for (int i = 0; i < l->n; i++) free(l->names[i]);
    l->n = 0;
}

/* Appends "(... information_schema query ...) WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'table'". */
static void where_table(StrBuf *q, const char *table) {
    sb_puts(q, " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ");
    db_quote_literal(q, table, strlen(table));
}

int my_table_schema(MyConn *m, const char *display, const char *table, DbSchema *out, RxError *err) {
    memset(out, 0, sizeof *out);
    out->rows_est = -1;
    StrBuf q, order;
    sb_init(&q);
    sb_init(&order);
    ColsCtx x = {.s = out};
    NameList pk = {0};
    int rc = -1;
    sb_puts(&q, "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME FROM information_schema.COLUMNS");
    where_table(&q, table);
    sb_puts(&q, " ORDER BY ORDINAL_POSITION");
    if (q.oom) goto oom;
    if (each_row(m, q.p, col_row, &x) < 0) {
        char msg[512];
        my_message(m->db, msg, sizeof msg);
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
        goto out;
    }
    if (x.oom) goto oom;
    if (x.blob) {
        rx_error(err, RX_ETYPE, NULL, rx_span(0, 0), "column '%s' of table '%s' is a BLOB or binary string, which Relix cannot read",
                 x.blob_name, table);
        goto out;
    }
    if (out->n_cols == 0) {
        rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", display, table);
        goto out;
    }
    q.n = 0;
    sb_puts(&q, "SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE");
    where_table(&q, table);
    sb_puts(&q, " AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION");
    if (q.oom || each_row(m, q.p, name_row, &pk) < 0) names_free(&pk);
    /* the order: the primary key, else every column; text bytewise (the NO PAD binary collation
     * of its character set), so that rows equal under a case-insensitive collation still come
     * in one order */
    for (int i = 0; i < out->n_cols; i++) {
        int k = i;
        if (pk.n) {
            if (i >= pk.n) break;
            for (k = 0; k < out->n_cols && strcmp(out->names[k], pk.names[i]) != 0; k++) {}
            if (k == out->n_cols) continue;
        }
        StrBuf one;
        sb_init(&one);
        db_quote_ident(&one, out->names[k]);
        if (x.charset[k]) sb_printf(&one, " COLLATE %s_nopad_bin", x.charset[k]);
        if (order.n) sb_puts(&order, ", ");
        sb_puts(&order, one.p ? one.p : "");
        char **o = one.oom ? NULL : realloc(out->order, (size_t)(out->n_order + 1) * sizeof *o);
        if (o) out->order = o;
        if (!o || !(out->order[out->n_order] = strdup(one.p))) {
            sb_free(&one);
            goto oom;
        }
        out->n_order++;
        sb_free(&one);
    }
    out->order_int = false;
    for (int k = 0; pk.n == 1 && k < out->n_cols; k++)
        if (strcmp(out->names[k], pk.names[0]) == 0) out->order_int = out->types[k] == TY_INT && out->native[k] == DBN_EXACT;
    out->order_by = strdup(order.p ? order.p : "1");
    rc = out->order_by ? 0 : rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    goto out;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
out:
    for (int i = 0; i < x.n_charset; i++) free(x.charset[i]);
    free(x.charset);
    names_free(&pk);
    if (rc < 0) db_schema_free(out);
    sb_free(&q);
    sb_free(&order);
    return rc;
}

static void number_row(MYSQL_ROW row, unsigned long *len, void *vctx) {
    (void)len;
    double *v = vctx;
    if (row[0]) *v = strtod(row[0], NULL);
}

int my_table_rows(MyConn *m, const char *table, double *rows) {
    StrBuf q;
    sb_init(&q);
    double v = -1;
    sb_puts(&q, "SELECT TABLE_ROWS FROM information_schema.TABLES");
    where_table(&q, table);
    int rc = q.oom ? -1 : each_row(m, q.p, number_row, &v);
    /* InnoDB's TABLE_ROWS is a guess that may be 0 for a table just filled: counted instead */
    if (rc < 0 || v <= 0) {
        v = -1;
        q.n = 0;
        sb_puts(&q, "SELECT count(*) FROM ");
        db_quote_ident(&q, table);
        rc = q.oom ? -1 : each_row(m, q.p, number_row, &v);
    }
    sb_free(&q);
    if (rc < 0 || v < 0) return -1;
    *rows = v;
    return 0;
}

typedef struct {
    char *index[256], *col[256];
    int n;
} IndexRows;

static void index_row(MYSQL_ROW row, unsigned long *len, void *vctx) {
    (void)len;
    IndexRows *r = vctx;
    if (r->n < 256 && row[0] && row[1]) {
        r->index[r->n] = strdup(row[0]);
        r->col[r->n] = strdup(row[1]);
        if (r->index[r->n] && r->col[r->n]) r->n++;
        else free(r->index[r->n]), free(r->col[r->n]);
    }
}

bool my_has_index(MyConn *m, const char *table, const char *const *lead, int n_lead, const char *then) {
    StrBuf q;
    sb_init(&q);
    sb_puts(&q, "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS");
    where_table(&q, table);
    sb_puts(&q, " AND SUB_PART IS NULL ORDER BY INDEX_NAME, SEQ_IN_INDEX");
    IndexRows r = {.n = 0};
    bool yes = false;
    if (!q.oom && each_row(m, q.p, index_row, &r) == 0) {
        for (int i = 0; i < r.n && !yes;) {
            int start = i;
            while (i < r.n && strcmp(r.index[i], r.index[start]) == 0) i++;
            int n = i - start;
            if (n < n_lead + (then ? 1 : 0)) continue;
            bool ok = true;
            for (int a = 0; a < n_lead && ok; a++) {
                bool found = false;
                for (int k = 0; k < n_lead && !found; k++) found = strcmp(r.col[start + a], lead[k]) == 0;
                ok = found;
            }
            yes = ok && (!then || strcmp(r.col[start + n_lead], then) == 0);
        }
    }
    for (int i = 0; i < r.n; i++) free(r.index[i]), free(r.col[i]);
    sb_free(&q);
    return yes;
}
