/*
 * connect.c - SQLite and PostgreSQL connections (connect.h): opening by URI, table schemas
 * from the database's catalog, and running SELECTs into columnar tables.
 *
 * Values arrive as SQLite's typed values or as PostgreSQL's text format (the session is set to
 * UTC, ISO dates and ISO-8601 intervals first, so that the text parses with the same ISO
 * parsers the language uses). A value that does not fit its column's Relix type is an error
 * naming the column and the row; nothing is coerced silently.
 */
#include "connect/connect.h"

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "types/number.h"
#include "types/temporal.h"

struct DbConn {
    DbKind kind;
    sqlite3 *lite;
    PGconn *pg;
    char *display;
};

DbKind db_kind(const DbConn *c) { return c->kind; }
const char *db_display(const DbConn *c) { return c->display; }

void db_close(DbConn *c) {
    if (!c) return;
    if (c->lite) sqlite3_close(c->lite);
    if (c->pg) PQfinish(c->pg);
    free(c->display);
    free(c);
}

/* postgresql://user:secret@host/db has a password when the userinfo part holds a ':'. */
static bool uri_has_password(const char *uri) {
    const char *p = strstr(uri, "://");
    if (!p) return false;
    p += 3;
    const char *at = strchr(p, '@'), *slash = strchr(p, '/');
    if (!at || (slash && slash < at)) return false;
    const char *colon = memchr(p, ':', (size_t)(at - p));
    return colon != NULL;
}

static int pg_exec_ok(PGconn *pg, const char *sql) {
    PGresult *r = PQexec(pg, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

/* libpq's message, first line only (it never contains the password). */
static void pg_message(PGconn *pg, char *buf, size_t n) {
    const char *m = pg ? PQerrorMessage(pg) : "";
    snprintf(buf, n, "%s", m && *m ? m : "unknown error");
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
}

int db_open(const char *uri, const char *base_dir, DbConn **out, RxError *err) {
    *out = NULL;
    DbConn *c = calloc(1, sizeof *c);
    if (!c) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    if (strncmp(uri, "sqlite:", 7) == 0) {
        const char *path = uri + 7;
        if (strncmp(path, "//", 2) == 0) path += 2;
        char full[4096];
        if (path[0] != '/' && base_dir && base_dir[0]) snprintf(full, sizeof full, "%s/%s", base_dir, path);
        else snprintf(full, sizeof full, "%s", path);
        c->kind = DB_SQLITE;
        c->display = strdup(uri);
        if (sqlite3_open_v2(full, &c->lite, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", c->lite ? sqlite3_errmsg(c->lite) : "cannot open");
            db_close(c);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open SQLite database '%s': %s", full, msg);
        }
        *out = c;
        return 0;
    }
    if (strncmp(uri, "postgresql://", 13) == 0 || strncmp(uri, "postgres://", 11) == 0) {
        if (uri_has_password(uri)) {
            db_close(c);
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                            "a connection URI must not hold a password: put it in PGPASSWORD or "
                            "~/.pgpass");
        }
        c->kind = DB_POSTGRES;
        c->display = strdup(uri);
        c->pg = PQconnectdb(uri);
        if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            db_close(c);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot connect to %s: %s", uri, msg);
        }
        if (pg_exec_ok(c->pg, "SET TimeZone = 'UTC'") < 0 || pg_exec_ok(c->pg, "SET DateStyle = 'ISO, YMD'") < 0 ||
            pg_exec_ok(c->pg, "SET IntervalStyle = 'iso_8601'") < 0 ||
            pg_exec_ok(c->pg, "SET extra_float_digits = 3") < 0) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            db_close(c);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot set up the session on %s: %s", uri, msg);
        }
        *out = c;
        return 0;
    }
    db_close(c);
    return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                    "unknown connection URI (sqlite:path/to/file.db or postgresql://user@host:port/db)");
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

void db_schema_free(DbSchema *s) {
    for (int i = 0; i < s->n_order; i++) free(s->order[i]);
    free(s->order);
    for (int i = 0; i < s->n_cols; i++) free(s->names[i]);
    free(s->names);
    free(s->types);
    free(s->order_by);
    memset(s, 0, sizeof *s);
}

static int schema_add(DbSchema *s, const char *name, RxType t) {
    char **nn = realloc(s->names, (size_t)(s->n_cols + 1) * sizeof *nn);
    if (!nn) return -1;
    s->names = nn;
    RxType *nt = realloc(s->types, (size_t)(s->n_cols + 1) * sizeof *nt);
    if (!nt) return -1;
    s->types = nt;
    s->names[s->n_cols] = strdup(name);
    if (!s->names[s->n_cols]) return -1;
    s->types[s->n_cols] = t;
    s->n_cols++;
    return 0;
}

/* SQLite's declared type -> Relix type, by SQLite's own affinity rules where they apply. */
static int sqlite_type(const char *decl, RxType *out) {
    char u[128];
    size_t n = 0;
    for (; decl && decl[n] && n + 1 < sizeof u; n++) u[n] = (char)(decl[n] >= 'a' && decl[n] <= 'z' ? decl[n] - 32 : decl[n]);
    u[n] = 0;
    if (strstr(u, "INT")) *out = TY_INT;
    else if (strstr(u, "BOOL")) *out = TY_BOOL;
    else if (strstr(u, "TIMESTAMP") || strstr(u, "DATETIME")) *out = TY_TIMESTAMP;
    else if (strstr(u, "DATE")) *out = TY_DATE;
    else if (strstr(u, "INTERVAL") || strstr(u, "DURATION")) *out = TY_DURATION;
    else if (strstr(u, "TIME")) *out = TY_TIME;
    else if (strstr(u, "CHAR") || strstr(u, "CLOB") || strstr(u, "TEXT") || n == 0) *out = TY_TEXT;
    else if (strstr(u, "REAL") || strstr(u, "FLOA") || strstr(u, "DOUB") || strstr(u, "NUMERIC") || strstr(u, "DECIMAL")) *out = TY_FLOAT;
    else if (strstr(u, "BLOB")) return -1;
    else *out = TY_FLOAT; /* SQLite's NUMERIC affinity */
    return 0;
}

static RxType pg_type(const char *typname) {
    static const struct { const char *n; RxType t; } map[] = {
        {"int2", TY_INT}, {"int4", TY_INT}, {"int8", TY_INT}, {"float4", TY_FLOAT},
        {"float8", TY_FLOAT}, {"numeric", TY_FLOAT}, {"bool", TY_BOOL}, {"timestamp", TY_TIMESTAMP},
        {"timestamptz", TY_TIMESTAMP}, {"date", TY_DATE}, {"time", TY_TIME}, {"interval", TY_DURATION},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(map); i++)
        if (strcmp(typname, map[i].n) == 0) return map[i].t;
    return TY_TEXT; /* text, varchar, and every other type in its text form */
}

int db_table_schema(DbConn *c, const char *table, DbSchema *out, RxError *err) {
    memset(out, 0, sizeof *out);
    StrBuf q, order;
    sb_init(&q);
    sb_init(&order);
    int rc = -1;
    if (c->kind == DB_SQLITE) {
        sb_puts(&q, "SELECT name, type, pk FROM pragma_table_info(");
        db_quote_literal(&q, table, strlen(table));
        sb_puts(&q, ") ORDER BY cid");
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(c->lite, q.p, -1, &st, NULL) != SQLITE_OK) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, sqlite3_errmsg(c->lite));
            goto out;
        }
        int n_pk = 0;
        char *pk[64] = {0};
        int pk_pos[64] = {0};
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            const char *decl = (const char *)sqlite3_column_text(st, 1);
            int pkn = sqlite3_column_int(st, 2);
            RxType t;
            if (sqlite_type(decl, &t) < 0) {
                rx_error(err, RX_ETYPE, NULL, rx_span(0, 0), "column '%s' of table '%s' is a BLOB, which Relix cannot read", name, table);
                sqlite3_finalize(st);
                goto out;
            }
            if (schema_add(out, name, t) < 0) {
                sqlite3_finalize(st);
                rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
                goto out;
            }
            if (pkn > 0 && n_pk < 64) {
                pk[n_pk] = out->names[out->n_cols - 1];
                pk_pos[n_pk++] = pkn;
            }
        }
        sqlite3_finalize(st);
        if (out->n_cols == 0) {
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", c->display, table);
            goto out;
        }
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
        PGresult *r = PQexecParams(c->pg,
            "SELECT a.attname, t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
            "WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            1, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            PQclear(r);
            sb_free(&ident);
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, msg);
            goto out;
        }
        for (int i = 0; i < PQntuples(r); i++)
            if (schema_add(out, PQgetvalue(r, i, 0), pg_type(PQgetvalue(r, i, 1))) < 0) {
                PQclear(r);
                sb_free(&ident);
                rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
                goto out;
            }
        PQclear(r);
        if (out->n_cols == 0) {
            sb_free(&ident);
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", c->display, table);
            goto out;
        }
        r = PQexecParams(c->pg,
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass($1) AND i.indisprimary "
            "ORDER BY array_position(i.indkey::int2[], a.attnum)",
            1, NULL, params, NULL, NULL, 0);
        sb_free(&ident);
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            for (int i = 0; i < PQntuples(r); i++) {
                if (order.n) sb_puts(&order, ", ");
                StrBuf one;
                sb_init(&one);
                db_quote_ident(&one, PQgetvalue(r, i, 0));
                sb_puts(&order, one.p);
                int orc = order_add(out, one.p);
                sb_free(&one);
                if (orc < 0) {
                    PQclear(r);
                    goto oom;
                }
            }
        PQclear(r);
        if (!order.n) {
            sb_puts(&order, "ctid");
            if (order_add(out, "ctid") < 0) goto oom;
        }
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

int db_query(DbConn *c, const char *sql, int n_cols, const RxType *types, const char *const *names,
             Table **out, RxError *err) {
    *out = NULL;
    ColBuilder *b = calloc((size_t)(n_cols ? n_cols : 1), sizeof *b);
    if (!b) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    size_t rows = 0;
    int rc = -1;
    PGresult *res = NULL;
    sqlite3_stmt *st = NULL;
    if (c->kind == DB_POSTGRES) {
        res = PQexec(c->pg, sql);
        if (PQresultStatus(res) != PGRES_TUPLES_OK) {
            char msg[512];
            pg_message(c->pg, msg, sizeof msg);
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, msg);
            goto out;
        }
        rows = (size_t)PQntuples(res);
        if (PQnfields(res) != n_cols) {
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s answered %d columns, %d expected", c->display, PQnfields(res), n_cols);
            goto out;
        }
    } else if (sqlite3_prepare_v2(c->lite, sql, -1, &st, NULL) != SQLITE_OK) {
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, sqlite3_errmsg(c->lite));
        goto out;
    }
    for (int j = 0; j < n_cols; j++) colb_init(&b[j], types[j], rows ? rows : 1024);
    if (c->kind == DB_POSTGRES) {
        for (size_t i = 0; i < rows; i++)
            for (int j = 0; j < n_cols; j++) {
                if (PQgetisnull(res, (int)i, j)) {
                    colb_push_null(&b[j]);
                    continue;
                }
                const char *s = PQgetvalue(res, (int)i, j), *why;
                size_t n = (size_t)PQgetlength(res, (int)i, j);
                Value v;
                if (text_value(types[j], s, n, &v, &why) < 0) {
                    bad_value(err, names[j], i, types[j], s, n, why);
                    goto out;
                }
                colb_push(&b[j], &v);
            }
    } else {
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            for (int j = 0; j < n_cols; j++) {
                int kind = sqlite3_column_type(st, j);
                Value v = {.type = types[j]};
                if (kind == SQLITE_NULL) {
                    colb_push_null(&b[j]);
                    continue;
                }
                const char *why = "invalid";
                if (kind == SQLITE_INTEGER && (types[j] == TY_INT || types[j] == TY_FLOAT || types[j] == TY_BOOL ||
                                               types[j] == TY_TIMESTAMP)) {
                    int64_t x = sqlite3_column_int64(st, j);
                    if (types[j] == TY_INT) v.v.i = x;
                    else if (types[j] == TY_FLOAT) v.v.f = (double)x;
                    else if (types[j] == TY_BOOL) v.v.b = x != 0;
                    else if (__builtin_mul_overflow(x, US_PER_SEC, &v.v.i)) {
                        bad_value(err, names[j], rows, types[j], "(integer)", 9, "out of range");
                        goto out;
                    }
                } else if (kind == SQLITE_FLOAT && types[j] == TY_FLOAT) {
                    v.v.f = sqlite3_column_double(st, j);
                } else if (kind == SQLITE_TEXT || kind == SQLITE_INTEGER || kind == SQLITE_FLOAT) {
                    const char *s = (const char *)sqlite3_column_text(st, j);
                    size_t n = (size_t)sqlite3_column_bytes(st, j);
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
            rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", c->display, sqlite3_errmsg(c->lite));
            goto out;
        }
    }
    Table *t = table_new(n_cols, rows);
    if (!t) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        goto out;
    }
    for (int j = 0; j < n_cols; j++) {
        Column *col = colb_finish(&b[j]);
        if (!col || table_set(t, j, col, names[j]) < 0) {
            col_release(col);
            table_free(t);
            rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            goto out;
        }
    }
    *out = t;
    rc = 0;
out:
    for (int j = 0; j < n_cols; j++)
        if (b[j].col) colb_free(&b[j]);
    free(b);
    if (res) PQclear(res);
    if (st) sqlite3_finalize(st);
    return rc;
}
