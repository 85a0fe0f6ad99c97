/*
 * duckdb.c - DuckDB connections (duckdb.h): the C API of libduckdb.so loaded with dlopen, a
 * database opened read-only, statements prepared with their parameters bound as typed values, and
 * results read a chunk (up to 2048 rows) at a time from the vectors, column by column.
 *
 * Values (docs/connect.md): the integers up to BIGINT, and UBIGINT, HUGEINT, UHUGEINT
 * where the value fits 64 bits; FLOAT, DOUBLE; DECIMAL as the double nearest its decimal value;
 * VARCHAR, ENUM; DATE, TIME; TIMESTAMP and TIMESTAMP WITH TIME ZONE (microseconds, UTC), the
 * second, millisecond and nanosecond timestamps where exact in microseconds; INTERVAL as a
 * DURATION of its months and its days (24 hours each) plus microseconds. Which Relix type a
 * column of the catalog has is connect.c's mapping (it refuses LIST, STRUCT and the rest).
 */
#include "connect/duckdb.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connect/duckdb_capi.h"
#include "types/number.h"

struct DuckConn {
    duckdb_database db;
    duckdb_connection conn;
};

static DuckApi api;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;

/* Loads the library and every function of DuckApi (once per process); on failure load_error
 * says why. */
static void load_library(void) {
    const char *env = getenv("RELIX_LIBDUCKDB");
    const char *name = env && *env ? env : "libduckdb.so";
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error,
                 "DuckDB's library %s cannot be loaded (%s): install libduckdb.so in a library directory, or set "
                 "RELIX_LIBDUCKDB to its path (npm's @duckdb/node-bindings-linux-x64 ships it)",
                 name, why ? why : "not found");
        return;
    }
    static const struct { const char *sym; size_t off; } fns[] = {
#define F(f) {"duckdb_" #f, offsetof(DuckApi, f)}
        F(library_version), F(create_config), F(set_config), F(destroy_config), F(open_ext), F(close),
        F(connect), F(disconnect), F(interrupt), F(free), F(query), F(prepare), F(prepare_error),
        F(destroy_prepare), F(bind_int64), F(bind_double), F(bind_boolean), F(bind_varchar_length),
        F(bind_timestamp), F(bind_date), F(bind_time), F(bind_interval), F(execute_prepared), F(result_error),
        F(destroy_result), F(column_count), F(column_type), F(column_logical_type), F(destroy_logical_type),
        F(decimal_scale), F(decimal_internal_type), F(enum_internal_type), F(enum_dictionary_value),
        F(fetch_chunk), F(data_chunk_get_size), F(data_chunk_get_vector), F(destroy_data_chunk),
        F(vector_get_data), F(vector_get_validity),
#undef F
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(fns); i++) {
        void *p = dlsym(h, fns[i].sym);
        if (!p) {
            snprintf(load_error, sizeof load_error,
                     "%s is not DuckDB's C API library of version 1.1 or later: it has no %s", name, fns[i].sym);
            dlclose(h);
            return;
        }
        memcpy((char *)&api + fns[i].off, &p, sizeof p);
    }
    loaded = true;
}

/* The first line of a DuckDB message into buf. */
static const char *first_line(const char *m, char *buf, size_t n) {
    snprintf(buf, n, "%s", m && *m ? m : "unknown error");
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
    return buf;
}

int duck_open(const char *path, const char *display, DuckConn **out, RxError *err) {
    *out = NULL;
    pthread_once(&load_once, load_library);
    if (!loaded) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open %s: %s", display, load_error);
    DuckConn *d = calloc(1, sizeof *d);
    if (!d) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    bool memory = strcmp(path, ":memory:") == 0;
    duckdb_config cfg = NULL;
    char *why = NULL;
    if (api.create_config(&cfg) != DuckDBSuccess ||
        (!memory && api.set_config(cfg, "access_mode", "READ_ONLY") != DuckDBSuccess) ||
        api.open_ext(memory ? NULL : path, &d->db, cfg, &why) != DuckDBSuccess) {
        char msg[512];
        first_line(why, msg, sizeof msg);
        if (why) api.free(why);
        if (cfg) api.destroy_config(&cfg);
        free(d);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot open DuckDB database '%s': %s", path, msg);
    }
    api.destroy_config(&cfg);
    if (api.connect(d->db, &d->conn) != DuckDBSuccess) {
        duck_close(d);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot connect to %s", display);
    }
    /* TIMESTAMP WITH TIME ZONE is shown and cast in UTC, as Relix's timestamps are */
    duckdb_result r;
    if (api.query(d->conn, "SET TimeZone = 'UTC'", &r) == DuckDBSuccess) api.destroy_result(&r);
    else api.destroy_result(&r);
    *out = d;
    return 0;
}

void duck_close(DuckConn *d) {
    if (!d) return;
    if (d->conn) api.disconnect(&d->conn);
    if (d->db) api.close(&d->db);
    free(d);
}

void duck_interrupt(DuckConn *d) {
    if (d && d->conn) api.interrupt(d->conn);
}

/* ---- running statements --------------------------------------------------------------------- */

/* Prepares sql, binds params, executes into *res. -1 with err naming display and DuckDB's
 * message. */
static int execute(DuckConn *d, const char *display, const char *sql, const Value *params, int n_params,
                   duckdb_result *res, RxError *err) {
    duckdb_prepared_statement st = NULL;
    char msg[512];
    memset(res, 0, sizeof *res);
    if (api.prepare(d->conn, sql, &st) != DuckDBSuccess) {
        first_line(st ? api.prepare_error(st) : NULL, msg, sizeof msg);
        api.destroy_prepare(&st);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
    }
    for (int i = 0; i < n_params; i++) {
        const Value *v = &params[i];
        duckdb_idx k = (duckdb_idx)i + 1;
        duckdb_state s = DuckDBError;
        switch (v->type) {
        case TY_INT: s = api.bind_int64(st, k, v->v.i); break;
        case TY_FLOAT: s = api.bind_double(st, k, v->v.f); break;
        case TY_BOOL: s = api.bind_boolean(st, k, v->v.b); break;
        case TY_TEXT: s = api.bind_varchar_length(st, k, v->v.s.ptr, (duckdb_idx)v->v.s.len); break;
        case TY_TIMESTAMP: s = api.bind_timestamp(st, k, (duckdb_timestamp){v->v.i}); break;
        case TY_DATE: s = api.bind_date(st, k, (duckdb_date){v->v.date}); break;
        case TY_TIME: s = api.bind_time(st, k, (duckdb_time){v->v.i}); break;
        case TY_DURATION:
            if (v->v.d.months >= INT32_MIN && v->v.d.months <= INT32_MAX)
                s = api.bind_interval(st, k, (duckdb_interval){(int32_t)v->v.d.months, 0, v->v.d.us});
            break;
        case TY_NULL: break;
        }
        if (s != DuckDBSuccess) {
            api.destroy_prepare(&st);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: cannot bind parameter %d (%s)", display, i + 1,
                            type_name(v->type));
        }
    }
    duckdb_state s = api.execute_prepared(st, res);
    api.destroy_prepare(&st);
    if (s != DuckDBSuccess) {
        first_line(api.result_error(res), msg, sizeof msg);
        api.destroy_result(res);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, msg);
    }
    return 0;
}

/* How one result column is read: its DuckDB type, and for DECIMAL and ENUM the type of the
 * stored integer (and the scale, or the logical type for the dictionary). */
typedef struct {
    int type, internal;
    int scale;
    duckdb_logical_type logical; /* ENUM: for the dictionary; else NULL */
} ColRead;

static int bad(RxError *err, const char *col, size_t row, RxType t, const char *what, const char *why) {
    return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "row %zu of the database's answer: %s in column '%s' is not a %s (%s)",
                    row + 1, what, col, type_name(t), why);
}

/* An integer of DuckDB type dt at data[i] as int64 (false: out of range, or no integer type). */
static bool int_at(int dt, const void *data, size_t i, int64_t *out) {
    switch (dt) {
    case DDB_TINYINT: *out = ((const int8_t *)data)[i]; return true;
    case DDB_SMALLINT: *out = ((const int16_t *)data)[i]; return true;
    case DDB_INTEGER: *out = ((const int32_t *)data)[i]; return true;
    case DDB_BIGINT: *out = ((const int64_t *)data)[i]; return true;
    case DDB_UTINYINT: *out = ((const uint8_t *)data)[i]; return true;
    case DDB_USMALLINT: *out = ((const uint16_t *)data)[i]; return true;
    case DDB_UINTEGER: *out = ((const uint32_t *)data)[i]; return true;
    case DDB_UBIGINT: {
        uint64_t u = ((const uint64_t *)data)[i];
        *out = (int64_t)u;
        return u <= INT64_MAX;
    }
    case DDB_HUGEINT: {
        duckdb_hugeint h = ((const duckdb_hugeint *)data)[i];
        *out = (int64_t)h.lower;
        return (h.upper == 0 && h.lower <= INT64_MAX) || (h.upper == -1 && h.lower > INT64_MAX);
    }
    case DDB_UHUGEINT: {
        duckdb_uhugeint h = ((const duckdb_uhugeint *)data)[i];
        *out = (int64_t)h.lower;
        return h.upper == 0 && h.lower <= INT64_MAX;
    }
    default: return false;
    }
}

/* The decimal text of the 128-bit integer h scaled down by 10^scale, into buf. */
static void decimal_text(duckdb_hugeint h, int scale, char *buf, size_t n) {
    bool neg = h.upper < 0;
    unsigned __int128 u = ((unsigned __int128)(uint64_t)h.upper << 64) | h.lower;
    if (neg) u = -u;
    char digits[64];
    int k = 0;
    do {
        digits[k++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u && k < 60);
    while (k <= scale) digits[k++] = '0';
    size_t o = 0;
    if (neg && o + 1 < n) buf[o++] = '-';
    for (int i = k - 1; i >= 0 && o + 2 < n; i--) {
        buf[o++] = digits[i];
        if (i == scale && scale > 0) buf[o++] = '.';
    }
    buf[o] = 0;
}

/* Converts row i of a vector (data, read as cr) to v of type t; -1 with err. */
static int value_at(const ColRead *cr, const void *data, size_t i, RxType t, Value *v, const char *col, size_t row,
                    RxError *err) {
    v->type = t;
    v->null = false;
    int dt = cr->type;
    int64_t x;
    char what[96];
    switch (t) {
    case TY_INT:
        if (int_at(dt, data, i, &x)) {
            v->v.i = x;
            return 0;
        }
        if (dt >= DDB_TINYINT && dt <= DDB_UBIGINT) return bad(err, col, row, t, "an integer", "out of range");
        if (dt == DDB_HUGEINT || dt == DDB_UHUGEINT) return bad(err, col, row, t, "a HUGEINT", "out of range");
        break;
    case TY_FLOAT:
        if (dt == DDB_DOUBLE) {
            v->v.f = ((const double *)data)[i];
            return 0;
        }
        if (dt == DDB_FLOAT) {
            v->v.f = ((const float *)data)[i];
            return 0;
        }
        if (dt == DDB_DECIMAL) {
            duckdb_hugeint h;
            if (cr->internal == DDB_HUGEINT) h = ((const duckdb_hugeint *)data)[i];
            else {
                int_at(cr->internal, data, i, &x);
                h = (duckdb_hugeint){(uint64_t)x, x < 0 ? -1 : 0};
            }
            char buf[80];
            decimal_text(h, cr->scale, buf, sizeof buf);
            if (num_parse_float(buf, strlen(buf), &v->v.f) == 0) return 0;
            snprintf(what, sizeof what, "'%s'", buf);
            return bad(err, col, row, t, what, "invalid");
        }
        if (int_at(dt, data, i, &x)) {
            v->v.f = (double)x;
            if (v->v.f < 0x1p63 && (int64_t)v->v.f == x) return 0;
            snprintf(what, sizeof what, "%lld", (long long)x);
            return bad(err, col, row, t, what, "not exact as a FLOAT");
        }
        break;
    case TY_BOOL:
        if (dt == DDB_BOOLEAN) {
            v->v.b = ((const bool *)data)[i];
            return 0;
        }
        break;
    case TY_TEXT:
        if (dt == DDB_VARCHAR) {
            const duckdb_string_t *s = &((const duckdb_string_t *)data)[i];
            uint32_t n = s->value.inlined.length;
            v->v.s.ptr = n <= 12 ? s->value.inlined.inlined : s->value.pointer.ptr;
            v->v.s.len = n;
            return 0;
        }
        break;
    case TY_TIMESTAMP: {
        int64_t us = ((const int64_t *)data)[i];
        if (dt == DDB_TIMESTAMP || dt == DDB_TIMESTAMP_TZ) {
            v->v.i = us;
            return 0;
        }
        if (dt == DDB_TIMESTAMP_S || dt == DDB_TIMESTAMP_MS) {
            if (!__builtin_mul_overflow(us, dt == DDB_TIMESTAMP_S ? 1000000 : 1000, &v->v.i)) return 0;
            return bad(err, col, row, t, "a timestamp", "out of range");
        }
        if (dt == DDB_TIMESTAMP_NS) {
            if (us % 1000 == 0) {
                v->v.i = us / 1000;
                return 0;
            }
            snprintf(what, sizeof what, "%lld ns", (long long)us);
            return bad(err, col, row, t, what, "not exact in microseconds");
        }
        break;
    }
    case TY_DATE:
        if (dt == DDB_DATE) {
            v->v.date = ((const int32_t *)data)[i];
            return 0;
        }
        break;
    case TY_TIME:
        if (dt == DDB_TIME) {
            v->v.i = ((const int64_t *)data)[i];
            return 0;
        }
        break;
    case TY_DURATION:
        if (dt == DDB_INTERVAL) {
            duckdb_interval iv = ((const duckdb_interval *)data)[i];
            v->v.d.months = iv.months;
            if (__builtin_mul_overflow((int64_t)iv.days, (int64_t)86400000000, &x) ||
                __builtin_add_overflow(x, iv.micros, &v->v.d.us))
                return bad(err, col, row, t, "an INTERVAL", "out of range");
            return 0;
        }
        break;
    case TY_NULL: break;
    }
    snprintf(what, sizeof what, "a value of DuckDB type %d", dt);
    return bad(err, col, row, t, what, "another type");
}

int duck_query(DuckConn *d, const char *display, const char *sql, const Value *params, int n_params, int n_cols,
               const RxType *types, const char *const *names, Table **out, RxError *err) {
    *out = NULL;
    duckdb_result res;
    if (execute(d, display, sql, params, n_params, &res, err) < 0) return -1;
    int rc = -1;
    ColBuilder *b = calloc((size_t)(n_cols ? n_cols : 1), sizeof *b);
    ColRead *cr = calloc((size_t)(n_cols ? n_cols : 1), sizeof *cr);
    if (!b || !cr) {
        rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        goto out;
    }
    if ((int)api.column_count(&res) != n_cols) {
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s answered %d columns, %d expected", display,
                 (int)api.column_count(&res), n_cols);
        goto out;
    }
    for (int j = 0; j < n_cols; j++) {
        cr[j].type = api.column_type(&res, (duckdb_idx)j);
        if (cr[j].type == DDB_DECIMAL || cr[j].type == DDB_ENUM) {
            duckdb_logical_type lt = api.column_logical_type(&res, (duckdb_idx)j);
            if (cr[j].type == DDB_DECIMAL) {
                cr[j].internal = api.decimal_internal_type(lt);
                cr[j].scale = api.decimal_scale(lt);
                api.destroy_logical_type(&lt);
            } else {
                cr[j].internal = api.enum_internal_type(lt);
                cr[j].logical = lt;
            }
        }
        colb_init(&b[j], types[j], 1024);
    }
    size_t rows = 0;
    for (;;) {
        duckdb_data_chunk ch = api.fetch_chunk(res);
        if (!ch) break;
        size_t n = (size_t)api.data_chunk_get_size(ch);
        for (int j = 0; j < n_cols && rc < 0; j++) {
            duckdb_vector vec = api.data_chunk_get_vector(ch, (duckdb_idx)j);
            const void *data = api.vector_get_data(vec);
            const uint64_t *valid = api.vector_get_validity(vec);
            for (size_t i = 0; i < n; i++) {
                if (valid && !(valid[i / 64] >> (i % 64) & 1)) {
                    colb_push_null(&b[j]);
                    continue;
                }
                Value v;
                if (cr[j].type == DDB_ENUM && types[j] == TY_TEXT) {
                    int64_t k = 0;
                    int_at(cr[j].internal, data, i, &k);
                    char *s = api.enum_dictionary_value(cr[j].logical, (duckdb_idx)k);
                    v = (Value){.type = TY_TEXT};
                    v.v.s.ptr = s ? s : "";
                    v.v.s.len = s ? strlen(s) : 0;
                    colb_push(&b[j], &v);
                    if (s) api.free(s);
                    continue;
                }
                if (value_at(&cr[j], data, i, types[j], &v, names[j], rows + i, err) < 0) {
                    api.destroy_data_chunk(&ch);
                    goto out;
                }
                colb_push(&b[j], &v);
            }
        }
        api.destroy_data_chunk(&ch);
        rows += n;
    }
    /* a statement interrupted or failing while it streams ends its chunks early */
    const char *late = api.result_error(&res);
    if (late && *late) {
        char msg[512];
        rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: %s", display, first_line(late, msg, sizeof msg));
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
    for (int j = 0; b && cr && j < n_cols; j++) {
        if (b[j].col) colb_free(&b[j]);
        if (cr[j].logical) api.destroy_logical_type(&cr[j].logical);
    }
    free(b);
    free(cr);
    api.destroy_result(&res);
    return rc;
}

int duck_number(DuckConn *d, const char *sql, const char *p, double *out) {
    Value v = {.type = TY_TEXT};
    if (p) {
        v.v.s.ptr = p;
        v.v.s.len = strlen(p);
    }
    RxType t = TY_FLOAT;
    const char *name = "n";
    Table *tb = NULL;
    RxError e = {0};
    if (duck_query(d, "DuckDB", sql, &v, p ? 1 : 0, 1, &t, &name, &tb, &e) < 0) return -1;
    int rc = -1;
    if (tb->n_rows > 0 && !col_is_null(tb->cols[0], 0)) {
        *out = col_get(tb->cols[0], 0).v.f;
        rc = 0;
    }
    table_free(tb);
    return rc;
}
