/*
 * h2.c - H2 (2.x) through its PostgreSQL-protocol server (org.h2.tools.Server -pg), over libpq:
 * the h2:// connection string, telling an H2 server from PostgreSQL, the session, the catalog
 * from H2's INFORMATION_SCHEMA, its row estimates, and its INTERVAL text. The statements
 * themselves run through connect.c's PostgreSQL path (text parameters, text results). Its
 * functions are declared in connect.h, and connect.c dispatches to them.
 *
 * H2's server answers in PostgreSQL's text format with H2's own texts: a DOUBLE PRECISION is
 * Java's Double.toString (as many digits as tell the double from its neighbours, so strtod
 * reads back the stored double; "Infinity", "NaN", "1.0E23"), a TIMESTAMP WITH TIME ZONE
 * carries its offset ("2026-01-02 09:05:00+01"), an INTERVAL is its SQL literal ("INTERVAL
 * '1 02:03:04.5' DAY TO SECOND"). It takes none of PostgreSQL's session settings (DateStyle,
 * IntervalStyle, extra_float_digits): the session is set to UTC with H2's own SET TIME ZONE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "connect/clients.h"
#include "connect/connect.h"
#include "types/temporal.h"

int h2_pg_uri(const char *uri, StrBuf *out) {
    if (strncmp(uri, "h2://", 5) != 0) return -1;
    sb_puts(out, "postgresql://");
    sb_puts(out, uri + 5);
    return out->oom ? -1 : 0;
}

bool h2_is_h2(PGconn *pg) {
    /* H2 reports PostgreSQL 8.2.23, a version no PostgreSQL Relix reaches still runs: only then
     * is the server asked for H2's own version function */
    const char *v = pqlib.PQparameterStatus(pg, "server_version");
    if (!v || strncmp(v, "8.", 2) != 0) return false;
    PGresult *r = pqlib.PQexec(pg, "SELECT H2VERSION()");
    bool yes = pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) == 1;
    pqlib.PQclear(r);
    return yes;
}

int h2_setup(PGconn *pg, const char *display, RxError *err) {
    PGresult *r = pqlib.PQexec(pg, "SET TIME ZONE 'UTC'");
    if (pqlib.PQresultStatus(r) != PGRES_COMMAND_OK && pqlib.PQresultStatus(r) != PGRES_TUPLES_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", pqlib.PQerrorMessage(pg));
        char *nl = strchr(msg, '\n');
        if (nl) *nl = 0;
        pqlib.PQclear(r);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot set up the session on %s: %s", display, msg);
    }
    pqlib.PQclear(r);
    return 0;
}

/* H2's name of a column type (INFORMATION_SCHEMA.COLUMNS.DATA_TYPE, lower case in the sessions
 * of its PostgreSQL server, upper case elsewhere) -> Relix type and what a pushed statement may
 * do with it; NULL, or the name of what Relix lacks. */
static const char *h2_type(const char *dt, RxType *t, DbNative *nat) {
    static const struct { const char *n; RxType t; DbNative nat; } map[] = {
        {"BOOLEAN", TY_BOOL, DBN_EXACT}, {"TINYINT", TY_INT, DBN_INT4}, {"SMALLINT", TY_INT, DBN_INT4},
        {"INTEGER", TY_INT, DBN_INT4}, {"BIGINT", TY_INT, DBN_EXACT}, {"REAL", TY_FLOAT, DBN_FLOAT4},
        {"DOUBLE PRECISION", TY_FLOAT, DBN_EXACT}, {"CHARACTER VARYING", TY_TEXT, DBN_EXACT},
        {"DATE", TY_DATE, DBN_EXACT}, {"TIME", TY_TIME, DBN_EXACT}, {"TIMESTAMP", TY_TIMESTAMP, DBN_EXACT},
        {"TIMESTAMP WITH TIME ZONE", TY_TIMESTAMP, DBN_EXACT},
        /* the decimal rounded to the nearest double: carried, never computed on (H2's own cast
         * to DOUBLE PRECISION need not round the same way) */
        {"NUMERIC", TY_FLOAT, DBN_OPAQUE}, {"DECFLOAT", TY_FLOAT, DBN_OPAQUE},
        /* padded, case-folded or unbounded text, and the types with a text form: carried */
        {"CHARACTER", TY_TEXT, DBN_OPAQUE}, {"VARCHAR_IGNORECASE", TY_TEXT, DBN_OPAQUE},
        {"CHARACTER LARGE OBJECT", TY_TEXT, DBN_OPAQUE}, {"UUID", TY_TEXT, DBN_OPAQUE},
        {"JSON", TY_TEXT, DBN_OPAQUE}, {"ENUM", TY_TEXT, DBN_OPAQUE},
        {"INTERVAL", TY_DURATION, DBN_OPAQUE},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(map); i++)
        if (strcasecmp(dt, map[i].n) == 0) {
            *t = map[i].t;
            *nat = map[i].nat;
            return NULL;
        }
    if (strcasecmp(dt, "BINARY") == 0 || strcasecmp(dt, "BINARY VARYING") == 0 ||
        strcasecmp(dt, "BINARY LARGE OBJECT") == 0)
        return "binary data";
    if (strcasecmp(dt, "ARRAY") == 0) return "an ARRAY";
    if (strcasecmp(dt, "ROW") == 0) return "a ROW";
    if (strcasecmp(dt, "TIME WITH TIME ZONE") == 0) return "a time of day with an offset";
    return "a type Relix does not map";
}

/* The text of row i, field f of r, or "" for NULL. */
static const char *field(PGresult *r, int i, int f) { return pqlib.PQgetisnull(r, i, f) ? "" : pqlib.PQgetvalue(r, i, f); }

static int quoted_order_add(DbSchema *s, StrBuf *order, const char *name) {
    StrBuf one;
    sb_init(&one);
    db_quote_ident(&one, name);
    if (order->n) sb_puts(order, ", ");
    sb_puts(order, one.p ? one.p : "");
    int rc = one.oom || order->oom ? -1 : db_schema_order_add(s, one.p);
    sb_free(&one);
    return rc;
}

/* The server's message, first line only (libpq's text names no password). */
static int server_error(PGconn *pg, const char *display, RxError *err) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", pqlib.PQerrorMessage(pg));
    char *nl = strchr(msg, '\n');
    if (nl) *nl = 0;
    return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg[0] ? msg : "unknown error");
}

int h2_table_schema(PGconn *pg, const char *display, const char *table, DbSchema *out, RxError *err) {
    memset(out, 0, sizeof *out);
    out->rows_est = -1;
    const char *params[1] = {table};
    StrBuf order;
    sb_init(&order);
    int rc = -1;
    PGresult *r = pqlib.PQexecParams(pg,
        "SELECT c.COLUMN_NAME, c.DATA_TYPE, t.TABLE_TYPE FROM INFORMATION_SCHEMA.COLUMNS c "
        "JOIN INFORMATION_SCHEMA.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME "
        "WHERE c.TABLE_SCHEMA = CURRENT_SCHEMA AND c.TABLE_NAME = $1 ORDER BY c.ORDINAL_POSITION",
        1, NULL, params, NULL, NULL, 0);
    if (pqlib.PQresultStatus(r) != PGRES_TUPLES_OK) {
        server_error(pg, display, err);
        goto out;
    }
    if (pqlib.PQntuples(r) == 0) {
        /* H2 folds unquoted names to upper case (outside its PostgreSQL mode to lower): name the
         * table as stored when one differs only in case */
        pqlib.PQclear(r);
        r = pqlib.PQexecParams(pg,
            "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = CURRENT_SCHEMA "
            "AND UPPER(TABLE_NAME) = UPPER($1) ORDER BY TABLE_NAME",
            1, NULL, params, NULL, NULL, 0);
        if (pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) > 0)
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0),
                     "%s has no table '%s' (it has '%s': H2 keeps a name in the case it was created in)", display,
                     table, pqlib.PQgetvalue(r, 0, 0));
        else
            rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "%s has no table '%s'", display, table);
        goto out;
    }
    bool view = strcasecmp(field(r, 0, 2), "VIEW") == 0;
    for (int i = 0; i < pqlib.PQntuples(r); i++) {
        const char *name = field(r, i, 0), *dt = field(r, i, 1);
        RxType t;
        DbNative nat;
        const char *lack = h2_type(dt, &t, &nat);
        if (lack) {
            rx_error(err, RX_ETYPE, NULL, rx_span(0, 0),
                     "column '%s' of table '%s' is %s (%s), which Relix cannot represent", name, table, lack, dt);
            goto out;
        }
        if (db_schema_add(out, name, t, nat) < 0) goto oom;
    }
    pqlib.PQclear(r);
    r = pqlib.PQexecParams(pg,
        "SELECT k.COLUMN_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS c JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k "
        "ON k.CONSTRAINT_SCHEMA = c.CONSTRAINT_SCHEMA AND k.CONSTRAINT_NAME = c.CONSTRAINT_NAME "
        "WHERE c.TABLE_SCHEMA = CURRENT_SCHEMA AND c.TABLE_NAME = $1 AND c.CONSTRAINT_TYPE = 'PRIMARY KEY' "
        "ORDER BY k.ORDINAL_POSITION",
        1, NULL, params, NULL, NULL, 0);
    if (pqlib.PQresultStatus(r) != PGRES_TUPLES_OK) {
        server_error(pg, display, err);
        goto out;
    }
    for (int i = 0; i < pqlib.PQntuples(r); i++) {
        if (quoted_order_add(out, &order, field(r, i, 0)) < 0) goto oom;
        if (pqlib.PQntuples(r) == 1)
            for (int k = 0; k < out->n_cols; k++)
                if (strcmp(out->names[k], field(r, i, 0)) == 0) out->order_int = out->types[k] == TY_INT;
    }
    if (!order.n && !view) {
        /* _ROWID_: the row's key in the table, in which a scan returns it */
        sb_puts(&order, "_ROWID_");
        if (order.oom || db_schema_order_add(out, "_ROWID_") < 0) goto oom;
        out->order_int = true;
    } else if (!order.n) {
        /* a view has no row key: its order is that of all its columns (rows equal in all of
         * them are indistinguishable in the result) */
        for (int k = 0; k < out->n_cols; k++)
            if (quoted_order_add(out, &order, out->names[k]) < 0) goto oom;
    }
    out->order_by = strdup(order.p ? order.p : "1");
    rc = out->order_by ? 0 : rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    goto out;
oom:
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
out:
    pqlib.PQclear(r);
    if (rc < 0) db_schema_free(out);
    sb_free(&order);
    return rc;
}

int h2_table_rows(PGconn *pg, const char *table, double *rows) {
    const char *params[1] = {table};
    PGresult *r = pqlib.PQexecParams(pg,
        "SELECT ROW_COUNT_ESTIMATE FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = CURRENT_SCHEMA AND TABLE_NAME = $1",
        1, NULL, params, NULL, NULL, 0);
    int rc = -1;
    if (pqlib.PQresultStatus(r) == PGRES_TUPLES_OK && pqlib.PQntuples(r) == 1 && !pqlib.PQgetisnull(r, 0, 0)) {
        char *end;
        double v = strtod(pqlib.PQgetvalue(r, 0, 0), &end);
        if (end != pqlib.PQgetvalue(r, 0, 0) && v >= 0) {
            *rows = v;
            rc = 0;
        }
    }
    pqlib.PQclear(r);
    return rc;
}

/* ---- INTERVAL text ---------------------------------------------------------------------------- */

enum { F_YEAR, F_MONTH, F_DAY, F_HOUR, F_MINUTE, F_SECOND };

/* The field named at s (YEAR ... SECOND); -1 for another word. *len is its length. */
static int field_named(const char *s, size_t n, size_t *len) {
    static const char *names[] = {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"};
    for (int f = 0; f < 6; f++) {
        size_t k = strlen(names[f]);
        if (n >= k && strncmp(s, names[f], k) == 0) {
            *len = k;
            return f;
        }
    }
    return -1;
}

int h2_interval_value(const char *s, size_t n, RxDuration *d, const char **why) {
    *why = "not an H2 INTERVAL";
    static const char head[] = "INTERVAL '";
    size_t h = sizeof head - 1, i = h;
    if (n < h || strncmp(s, head, h) != 0) return -1;
    const char *close = memchr(s + h, '\'', n - h);
    if (!close) return -1;
    /* the qualifier after the quote: FIELD [TO FIELD] */
    size_t q = (size_t)(close - s) + 1, len;
    if (q >= n || s[q] != ' ') return -1;
    q++;
    int from = field_named(s + q, n - q, &len), to = from;
    if (from < 0) return -1;
    q += len;
    if (q < n) {
        if (n - q < 4 || strncmp(s + q, " TO ", 4) != 0) return -1;
        q += 4;
        to = field_named(s + q, n - q, &len);
        if (to <= from) return -1;
        q += len;
    }
    if (q != n || (from <= F_MONTH) != (to <= F_MONTH)) return -1;
    /* the value: [-]a[sep b ...][.fraction], one number per field from `from` to `to` */
    const char *end = close;
    bool neg = i < (size_t)(end - s) && s[i] == '-';
    if (neg) i++;
    int64_t v[6] = {0};
    int64_t frac_us = 0;
    for (int f = from; f <= to; f++) {
        if (f > from) {
            char sep = f == F_MONTH ? '-' : f == F_HOUR ? ' ' : ':';
            if (i >= (size_t)(end - s) || s[i] != sep) return -1;
            i++;
        }
        size_t start = i;
        while (i < (size_t)(end - s) && s[i] >= '0' && s[i] <= '9') {
            if (__builtin_mul_overflow(v[f], 10, &v[f]) || __builtin_add_overflow(v[f], s[i] - '0', &v[f])) {
                *why = "out of range";
                return -1;
            }
            i++;
        }
        if (i == start) return -1;
    }
    if (i < (size_t)(end - s) && s[i] == '.' && to == F_SECOND) {
        i++;
        int digits = 0;
        for (; i < (size_t)(end - s) && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (digits < 6) frac_us = frac_us * 10 + (s[i] - '0');
            else if (s[i] != '0') {
                *why = "finer than a microsecond";
                return -1;
            }
        }
        if (digits == 0) return -1;
        for (; digits < 6; digits++) frac_us *= 10;
    }
    if (i != (size_t)(end - s)) return -1;
    int64_t months = 0, us = 0;
    static const int64_t unit_us[6] = {0, 0, 86400LL * US_PER_SEC, 3600LL * US_PER_SEC, 60LL * US_PER_SEC, US_PER_SEC};
    if (__builtin_mul_overflow(v[F_YEAR], 12, &months) || __builtin_add_overflow(months, v[F_MONTH], &months)) {
        *why = "out of range";
        return -1;
    }
    for (int f = F_DAY; f <= F_SECOND; f++) {
        int64_t x;
        if (__builtin_mul_overflow(v[f], unit_us[f], &x) || __builtin_add_overflow(us, x, &us)) {
            *why = "out of range";
            return -1;
        }
    }
    if (__builtin_add_overflow(us, frac_us, &us)) {
        *why = "out of range";
        return -1;
    }
    d->months = neg ? -months : months;
    d->us = neg ? -us : us;
    return 0;
}
