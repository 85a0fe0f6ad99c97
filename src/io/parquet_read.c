/*
 * parquet_read.c - the Parquet reader (parquet.h): the footer, then column chunks page by page.
 *
 * The footer is parsed into the schema (flat: every column a leaf of the root), the row groups
 * and each column chunk's byte range, codec and statistics, all checked against the file's
 * size. pq_load decodes the wanted columns: one task per (column, row group), run by a few
 * threads; each task decodes its chunk's pages (dictionary page, then data pages of version 1
 * or 2) into the rows of the table that the row group owns, so tasks never write the same
 * element (NULL bits are cleared atomically). A page's values are decoded to their physical
 * type, then converted to the column's Relix type; a dictionary is converted once per chunk.
 * TEXT values are slices into the mapped file (uncompressed pages) or into the decompressed
 * page, which the column keeps a reference to.
 */
#include "io/parquet_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "base/dynlib.h"
#include "types/temporal.h"

/* The largest page (compressed or not) accepted: larger ones are taken as corrupt. */
#define PQ_MAX_PAGE ((size_t)1 << 30)
#define PQ_MAX_COLS 100000

/* How a column's physical values become Relix values. */
typedef enum {
    K_BOOL, K_INT32, K_UINT32, K_INT64, K_UINT64, K_FLOAT, K_DOUBLE, K_DATE,
    K_TIME_MS, K_TIME_US, K_TIME_NS, K_TS_MS, K_TS_US, K_TS_NS, K_TS_INT96,
    K_DEC_I32, K_DEC_I64, K_DEC_BIN, K_FLOAT16, K_TEXT, K_UUID
} Kind;

typedef struct {
    char *name;
    int ptype, type_len;
    bool optional;
    int scale;
    Kind kind;
    RxType type;
} PqCol;

typedef struct {
    uint64_t start, len;     /* bytes of the chunk in the file */
    int codec;
    int64_t num_values;
    const uint8_t *min, *max;
    size_t min_n, max_n;
    bool has_stats;
    int64_t null_count;      /* -1 unknown */
} PqChunk;

typedef struct {
    int64_t rows;
    size_t first;            /* its first row in the table (among the kept groups) */
    PqChunk *chunks;
} PqGroup;

struct PqFile {
    char *name;
    StrHeap *fh;             /* the file's bytes (a mapping or a copy) */
    const uint8_t *data;
    size_t size;
    int n_cols;
    PqCol *cols;
    int n_groups;
    PqGroup *groups;
    uint8_t *keep;           /* per row group, NULL: all */
    bool loaded_any;
    int threads;
    Table *t;
};

/* ---- errors --------------------------------------------------------------------------------- */

static int corrupt(RxError *err, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int corrupt(RxError *err, const char *name, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: corrupt Parquet file: %s", name, msg);
}

static int unsupported(RxError *err, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int unsupported(RxError *err, const char *name, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "%s: %s are not supported", name, msg);
}

/* ---- footer --------------------------------------------------------------------------------- */

typedef struct {
    int ptype, type_len, repetition, num_children, conv, scale, precision;
    bool has_ptype, has_children;
    const uint8_t *name;
    size_t name_n;
    int lt, unit, int_bits;
    bool utc, int_signed;
    int lt_scale;
} SchemaEl;

static void read_time_unit(TReader *r, int *unit) {
    if (!tr_enter(r)) return;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (ty == TT_STRUCT && id >= 1 && id <= 3) *unit = id;
        tr_skip(r, ty);
    }
    tr_leave(r);
}

static void read_logical(TReader *r, SchemaEl *e) {
    if (!tr_enter(r)) return;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (ty != TT_STRUCT) {
            tr_skip(r, ty);
            continue;
        }
        e->lt = id;
        if (id == LT_TIME || id == LT_TIMESTAMP || id == LT_DECIMAL || id == LT_INTEGER) {
            if (!tr_enter(r)) return;
            int l2 = 0, i2, t2;
            while (tr_field(r, &l2, &i2, &t2)) {
                if (id == LT_DECIMAL && i2 == 1) e->lt_scale = (int)tr_int(r, t2);
                else if ((id == LT_TIME || id == LT_TIMESTAMP) && i2 == 1) e->utc = t2 == TT_TRUE;
                else if ((id == LT_TIME || id == LT_TIMESTAMP) && i2 == 2 && t2 == TT_STRUCT) read_time_unit(r, &e->unit);
                else if (id == LT_INTEGER && i2 == 1) e->int_bits = (int)tr_int(r, t2);
                else if (id == LT_INTEGER && i2 == 2) e->int_signed = t2 == TT_TRUE;
                else tr_skip(r, t2);
            }
            tr_leave(r);
        } else {
            tr_skip(r, ty);
        }
    }
    tr_leave(r);
}

static void read_schema_el(TReader *r, SchemaEl *e) {
    memset(e, 0, sizeof *e);
    e->conv = -1;
    e->int_signed = true;
    if (!tr_enter(r)) return;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        switch (id) {
        case 1: e->ptype = (int)tr_int(r, ty); e->has_ptype = true; break;
        case 2: e->type_len = (int)tr_int(r, ty); break;
        case 3: e->repetition = (int)tr_int(r, ty); break;
        case 4:
            if (ty != TT_BINARY) tr_skip(r, ty);
            else e->name = tr_binary(r, &e->name_n);
            break;
        case 5: e->num_children = (int)tr_int(r, ty); e->has_children = true; break;
        case 6: e->conv = (int)tr_int(r, ty); break;
        case 7: e->scale = (int)tr_int(r, ty); break;
        case 8: e->precision = (int)tr_int(r, ty); break;
        case 10:
            if (ty == TT_STRUCT) read_logical(r, e);
            else tr_skip(r, ty);
            break;
        default: tr_skip(r, ty);
        }
    }
    tr_leave(r);
}

static void read_stats(TReader *r, PqChunk *c, bool legacy_ok) {
    if (!tr_enter(r)) return;
    const uint8_t *mn = NULL, *mx = NULL, *lmn = NULL, *lmx = NULL;
    size_t mn_n = 0, mx_n = 0, lmn_n = 0, lmx_n = 0;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (ty == TT_BINARY && (id == 1 || id == 2 || id == 5 || id == 6)) {
            size_t n;
            const uint8_t *p = tr_binary(r, &n);
            if (id == 1) lmx = p, lmx_n = n;
            else if (id == 2) lmn = p, lmn_n = n;
            else if (id == 5) mx = p, mx_n = n;
            else mn = p, mn_n = n;
        } else if (id == 3) {
            c->null_count = tr_int(r, ty);
        } else {
            tr_skip(r, ty);
        }
    }
    tr_leave(r);
    if (mn && mx) {
        c->min = mn, c->min_n = mn_n, c->max = mx, c->max_n = mx_n;
        c->has_stats = true;
    } else if (legacy_ok && lmn && lmx) {
        c->min = lmn, c->min_n = lmn_n, c->max = lmx, c->max_n = lmx_n;
        c->has_stats = true;
    }
}

static void read_column_meta(TReader *r, PqChunk *c, int64_t *data_off, int64_t *dict_off,
                             int64_t *total, int *ptype, bool legacy_ok) {
    if (!tr_enter(r)) return;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        switch (id) {
        case 1: *ptype = (int)tr_int(r, ty); break;
        case 4: c->codec = (int)tr_int(r, ty); break;
        case 5: c->num_values = tr_int(r, ty); break;
        case 7: *total = tr_int(r, ty); break;
        case 9: *data_off = tr_int(r, ty); break;
        case 11: *dict_off = tr_int(r, ty); break;
        case 12:
            if (ty == TT_STRUCT) read_stats(r, c, legacy_ok);
            else tr_skip(r, ty);
            break;
        default: tr_skip(r, ty);
        }
    }
    tr_leave(r);
}

/* Whether the legacy (signed-order) min/max statistics of a column can be trusted. */
static bool legacy_stats_ok(const PqCol *pc) {
    switch (pc->kind) {
    case K_INT32: case K_INT64: case K_FLOAT: case K_DOUBLE: case K_DATE: case K_BOOL:
    case K_TS_MS: case K_TS_US: case K_TS_NS: case K_TIME_MS: case K_TIME_US: case K_TIME_NS:
        return true;
    default: return false;
    }
}

static int read_chunk(PqFile *f, TReader *r, PqChunk *c, const PqCol *pc, RxError *err) {
    int64_t data_off = -1, dict_off = -1, total = -1;
    int ptype = -1;
    bool has_meta = false;
    c->null_count = -1;
    if (!tr_enter(r)) return 0;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (id == 1 && ty == TT_BINARY) {
            tr_skip(r, ty);
            tr_leave(r);
            return unsupported(err, f->name, "column chunks in other files (column '%s')", pc->name);
        } else if (id == 3 && ty == TT_STRUCT) {
            read_column_meta(r, c, &data_off, &dict_off, &total, &ptype, legacy_stats_ok(pc));
            has_meta = true;
        } else if (id == 8 || id == 9) {
            tr_leave(r);
            return unsupported(err, f->name, "encrypted columns (column '%s')", pc->name);
        } else {
            tr_skip(r, ty);
        }
    }
    tr_leave(r);
    if (r->bad) return 0;
    if (!has_meta) return corrupt(err, f->name, "column '%s' has a chunk without metadata", pc->name);
    if (ptype != pc->ptype) return corrupt(err, f->name, "column '%s': a chunk's type differs from the schema's", pc->name);
    int64_t start = data_off;
    if (dict_off > 0 && dict_off < start) start = dict_off;
    if (start < 4 || total < 0 || (uint64_t)start > f->size || (uint64_t)total > f->size - (uint64_t)start)
        return corrupt(err, f->name, "column '%s': a chunk lies outside the file", pc->name);
    c->start = (uint64_t)start;
    c->len = (uint64_t)total;
    if (c->codec != PQ_CODEC_NONE && c->codec != PQ_CODEC_SNAPPY && c->codec != PQ_CODEC_GZIP &&
        c->codec != PQ_CODEC_ZSTD) {
        static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
        if (c->codec >= 0 && c->codec < 8)
            return unsupported(err, f->name, "%s-compressed pages (column '%s'; use snappy, gzip or zstd)", names[c->codec], pc->name);
        return corrupt(err, f->name, "column '%s': unknown compression codec %d", pc->name, c->codec);
    }
    if (c->codec == PQ_CODEC_SNAPPY) {
        RxError why = {0};
        if (pq_snappy_load(&why) < 0)
            return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "%s: column '%s' has Snappy-compressed pages: %s",
                            f->name, pc->name, why.msg);
    }
    return 0;
}

PqSnappy pq_snappy;

static const char *const snappy_names[] = {"snappy_compress", "snappy_uncompress", "snappy_max_compressed_length",
                                           "snappy_uncompressed_length"};
_Static_assert(sizeof(PqSnappy) == RX_ARRAY_LEN(snappy_names) * sizeof(void *), "PqSnappy: one pointer per name");
static RxDynLib snappy_dl = {"Parquet's Snappy compression", "libsnappy.so.1", "libsnappy1v5", snappy_names,
                             RX_ARRAY_LEN(snappy_names), &pq_snappy, 0, ""};

int pq_snappy_load(RxError *err) { return rx_dynlib_load(&snappy_dl, err); }

/* The Relix type and conversion of a leaf, or an error naming what is unsupported. */
static int map_type(PqFile *f, const SchemaEl *e, PqCol *pc, RxError *err) {
    int lt = e->lt, conv = e->conv;
    pc->ptype = e->ptype;
    pc->type_len = e->type_len;
    pc->scale = lt == LT_DECIMAL ? e->lt_scale : e->scale;
    bool dec = lt == LT_DECIMAL || conv == CT_DECIMAL;
    int unit = e->unit;
    if (lt == LT_NONE) {
        if (conv == CT_TIME_MILLIS || conv == CT_TS_MILLIS) unit = TU_MILLIS;
        if (conv == CT_TIME_MICROS || conv == CT_TS_MICROS) unit = TU_MICROS;
    }
    bool is_ts = lt == LT_TIMESTAMP || conv == CT_TS_MILLIS || conv == CT_TS_MICROS;
    bool is_time = lt == LT_TIME || conv == CT_TIME_MILLIS || conv == CT_TIME_MICROS;
    bool is_date = lt == LT_DATE || conv == CT_DATE;
    bool is_unsigned = (lt == LT_INTEGER && !e->int_signed) || conv == CT_UINT_8 || conv == CT_UINT_16 ||
                       conv == CT_UINT_32 || conv == CT_UINT_64;
    if (conv == CT_INTERVAL) return unsupported(err, f->name, "INTERVAL columns ('%s')", pc->name);
    switch (e->ptype) {
    case PT_BOOLEAN: pc->kind = K_BOOL; pc->type = TY_BOOL; return 0;
    case PT_INT32:
        if (dec) pc->kind = K_DEC_I32, pc->type = TY_FLOAT;
        else if (is_date) pc->kind = K_DATE, pc->type = TY_DATE;
        else if (is_time && unit == TU_MILLIS) pc->kind = K_TIME_MS, pc->type = TY_TIME;
        else if (is_time || is_ts) break;
        else if (is_unsigned) pc->kind = K_UINT32, pc->type = TY_INT;
        else pc->kind = K_INT32, pc->type = TY_INT;
        return 0;
    case PT_INT64:
        if (dec) pc->kind = K_DEC_I64, pc->type = TY_FLOAT;
        else if (is_ts) pc->kind = unit == TU_MILLIS ? K_TS_MS : unit == TU_NANOS ? K_TS_NS : K_TS_US, pc->type = TY_TIMESTAMP;
        else if (is_time) pc->kind = unit == TU_MILLIS ? K_TIME_MS : unit == TU_NANOS ? K_TIME_NS : K_TIME_US, pc->type = TY_TIME;
        else if (is_unsigned) pc->kind = K_UINT64, pc->type = TY_INT;
        else pc->kind = K_INT64, pc->type = TY_INT;
        if (pc->kind == K_TIME_MS) break;
        return 0;
    case PT_INT96: pc->kind = K_TS_INT96; pc->type = TY_TIMESTAMP; return 0;
    case PT_FLOAT: pc->kind = K_FLOAT; pc->type = TY_FLOAT; return 0;
    case PT_DOUBLE: pc->kind = K_DOUBLE; pc->type = TY_FLOAT; return 0;
    case PT_BYTE_ARRAY:
        if (dec) pc->kind = K_DEC_BIN, pc->type = TY_FLOAT;
        else if (lt == LT_BSON || conv == CT_BSON) return unsupported(err, f->name, "BSON columns ('%s')", pc->name);
        else pc->kind = K_TEXT, pc->type = TY_TEXT;
        return 0;
    case PT_FIXED:
        if (e->type_len <= 0 || e->type_len > 1 << 20)
            return corrupt(err, f->name, "column '%s' has a bad fixed length %d", pc->name, e->type_len);
        if (dec) pc->kind = K_DEC_BIN, pc->type = TY_FLOAT;
        else if (lt == LT_UUID && e->type_len == 16) pc->kind = K_UUID, pc->type = TY_TEXT;
        else if (lt == LT_FLOAT16 && e->type_len == 2) pc->kind = K_FLOAT16, pc->type = TY_FLOAT;
        else if (lt == LT_NONE && conv < 0) pc->kind = K_TEXT, pc->type = TY_TEXT;
        else break;
        return 0;
    default:
        return corrupt(err, f->name, "column '%s' has an unknown physical type %d", pc->name, e->ptype);
    }
    return unsupported(err, f->name, "this column's type (column '%s', physical type %d, annotation %d)",
                       pc->name, e->ptype, lt ? lt : conv);
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_row_group(PqFile *f, TReader *r, PqGroup *g, RxError *err) {
    bool got_cols = false, got_rows = false;
    g->rows = -1;
    if (!tr_enter(r)) return 0;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (id == 1 && ty == TT_LIST) {
            int et;
            uint32_t n = tr_list(r, &et);
            if (r->bad) break;
            if (et != TT_STRUCT || (int)n != f->n_cols || got_cols) {
                tr_leave(r);
                return corrupt(err, f->name, "a row group has %u column chunks, the schema %d columns", n, f->n_cols);
            }
            got_cols = true;
            g->chunks = calloc((size_t)(n ? n : 1), sizeof *g->chunks);
            if (!g->chunks) {
                tr_leave(r);
                return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            }
            for (uint32_t j = 0; j < n && !r->bad; j++)
                if (read_chunk(f, r, &g->chunks[j], &f->cols[j], err) < 0) {
                    tr_leave(r);
                    return -1;
                }
        } else if (id == 3) {
            g->rows = tr_int(r, ty);
            got_rows = true;
        } else {
            tr_skip(r, ty);
        }
    }
    tr_leave(r);
    if (r->bad) return 0;
    if (!got_cols || !got_rows || g->rows < 0)
        return corrupt(err, f->name, "a row group without columns or row count");
    return 0;
}

static int parse_footer(PqFile *f, RxError *err) {
    const uint8_t *d = f->data;
    size_t n = f->size;
    if (n >= 4 && memcmp(d, "PARE", 4) == 0)
        return unsupported(err, f->name, "encrypted Parquet files");
    if (n < 4 || memcmp(d, "PAR1", 4) != 0)
        return corrupt(err, f->name, "it does not start with PAR1 (not a Parquet file)");
    if (n < 12) return corrupt(err, f->name, "%zu bytes is too short for a footer", n);
    if (memcmp(d + n - 4, "PARE", 4) == 0) return unsupported(err, f->name, "encrypted Parquet files");
    if (memcmp(d + n - 4, "PAR1", 4) != 0)
        return corrupt(err, f->name, "it does not end with PAR1 (truncated?)");
    uint32_t flen = le32(d + n - 8);
    if (flen > n - 12) return corrupt(err, f->name, "the footer's length %u is past the start of the file", flen);
    TReader r = {d + n - 8 - flen, d + n - 8, 0, false, NULL};
    int64_t num_rows = -1;
    bool have_schema = false;
    int last = 0, id, ty;
    while (tr_field(&r, &last, &id, &ty)) {
        if (id == 2 && ty == TT_LIST) {
            int et;
            uint32_t ne = tr_list(&r, &et);
            if (r.bad) break;
            if (et != TT_STRUCT || ne < 1 || have_schema) return corrupt(err, f->name, "a bad schema");
            have_schema = true;
            SchemaEl root;
            read_schema_el(&r, &root);
            if (r.bad) break;
            if (ne - 1 > PQ_MAX_COLS) return unsupported(err, f->name, "files of more than %d columns", PQ_MAX_COLS);
            f->n_cols = (int)(ne - 1);
            f->cols = calloc((size_t)(f->n_cols ? f->n_cols : 1), sizeof *f->cols);
            if (!f->cols) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            for (int j = 0; j < f->n_cols; j++) {
                SchemaEl e;
                read_schema_el(&r, &e);
                if (r.bad) break;
                PqCol *pc = &f->cols[j];
                pc->name = malloc(e.name_n + 1);
                if (!pc->name) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
                if (e.name_n) memcpy(pc->name, e.name, e.name_n);
                pc->name[e.name_n] = 0;
                if (strlen(pc->name) != e.name_n) return corrupt(err, f->name, "a column name with a NUL byte");
                if ((e.has_children && e.num_children > 0) || !e.has_ptype)
                    return unsupported(err, f->name, "nested types (column '%s' is a group: a LIST, MAP or struct)", pc->name);
                if (e.repetition == 2)
                    return unsupported(err, f->name, "repeated fields (column '%s')", pc->name);
                pc->optional = e.repetition == 1;
                if (map_type(f, &e, pc, err) < 0) return -1;
            }
            if (!r.bad && root.num_children != f->n_cols)
                return corrupt(err, f->name, "the schema's root has %d children, the schema %d columns", root.num_children, f->n_cols);
        } else if (id == 3) {
            num_rows = tr_int(&r, ty);
        } else if (id == 4 && ty == TT_LIST) {
            if (!have_schema) return corrupt(err, f->name, "row groups before the schema");
            int et;
            uint32_t ng = tr_list(&r, &et);
            if (r.bad) break;
            if (et != TT_STRUCT) return corrupt(err, f->name, "a bad row group list");
            f->groups = calloc(ng ? ng : 1, sizeof *f->groups);
            if (!f->groups) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            for (uint32_t g = 0; g < ng && !r.bad; g++) {
                f->n_groups = (int)g + 1;
                if (read_row_group(f, &r, &f->groups[g], err) < 0) return -1;
            }
        } else if (id == 8) {
            return unsupported(err, f->name, "encrypted Parquet files");
        } else {
            tr_skip(&r, ty);
        }
    }
    if (r.bad) return corrupt(err, f->name, "%s in the footer", r.what ? r.what : "bad metadata");
    if (!have_schema) return corrupt(err, f->name, "the footer has no schema");
    uint64_t total = 0;
    for (int g = 0; g < f->n_groups; g++) {
        f->groups[g].first = (size_t)total;
        total += (uint64_t)f->groups[g].rows;
        if (total > RX_MAX_ROWS)
            return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "%s: more rows than a table holds (%u)", f->name, RX_MAX_ROWS);
    }
    if (num_rows >= 0 && (uint64_t)num_rows != total)
        return corrupt(err, f->name, "the footer says %lld rows, its row groups %llu", (long long)num_rows, (unsigned long long)total);
    return 0;
}

/* The table of placeholders for the kept row groups. */
static int make_table(PqFile *f, RxError *err) {
    size_t rows = 0;
    for (int g = 0; g < f->n_groups; g++) {
        f->groups[g].first = rows;
        if (!f->keep || f->keep[g]) rows += (size_t)f->groups[g].rows;
    }
    Table *t = table_new(f->n_cols, rows);
    if (!t) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    for (int j = 0; j < f->n_cols; j++) {
        Column *c = col_placeholder(f->cols[j].type, rows);
        if (!c || table_set(t, j, c, f->cols[j].name) < 0) {
            if (c) col_release(c);
            table_free(t);
            return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        }
    }
    table_free(f->t);
    f->t = t;
    return 0;
}

static int finish_open(PqFile *f, int threads, PqFile **out, RxError *err) {
    f->threads = threads > 0 ? threads : rx_threads();
    if (parse_footer(f, err) < 0 || make_table(f, err) < 0) {
        pq_close(f);
        return -1;
    }
    *out = f;
    return 0;
}

int pq_open(const char *path, int threads, PqFile **out, RxError *err) {
    *out = NULL;
    PqFile *f = calloc(1, sizeof *f);
    if (!f) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    f->name = strdup(path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (!f->name || fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 || !f->name ? errno : EINVAL;
        if (fd >= 0) close(fd);
        free(f->name);
        free(f);
        if (e == EINVAL) return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read '%s': not a regular file", path);
        return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read '%s': %s", path, strerror(e));
    }
    size_t n = (size_t)st.st_size;
    if (n == 0) {
        close(fd);
        f->fh = heap_new(1);
    } else {
        void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        int e = errno;
        close(fd);
        if (m == MAP_FAILED) {
            free(f->name);
            free(f);
            return rx_error(err, RX_EIO, NULL, rx_span(0, 0), "cannot read '%s': %s", path, strerror(e));
        }
        f->fh = heap_from_map(m, n);
        if (!f->fh) munmap(m, n);
    }
    if (!f->fh) {
        free(f->name);
        free(f);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    f->data = (const uint8_t *)f->fh->data;
    f->size = n;
    return finish_open(f, threads, out, err);
}

int pq_open_mem(const void *data, size_t n, const char *name, int threads, PqFile **out, RxError *err) {
    *out = NULL;
    PqFile *f = calloc(1, sizeof *f);
    if (!f) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    f->name = strdup(name);
    f->fh = heap_new(n ? n : 1);
    if (!f->name || !f->fh) {
        free(f->name);
        heap_release(f->fh);
        free(f);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    if (n) memcpy(f->fh->data, data, n);
    f->fh->len = n;
    f->data = (const uint8_t *)f->fh->data;
    f->size = n;
    return finish_open(f, threads, out, err);
}

const Table *pq_table(const PqFile *f) { return f->t; }
Table *pq_table_mut(PqFile *f) { return f->t; }

void pq_close(PqFile *f) {
    if (!f) return;
    table_free(f->t);
    for (int j = 0; j < f->n_cols; j++) free(f->cols[j].name);
    free(f->cols);
    for (int g = 0; g < f->n_groups; g++) free(f->groups[g].chunks);
    free(f->groups);
    free(f->keep);
    heap_release(f->fh);
    free(f->name);
    free(f);
}

int pq_row_groups(const PqFile *f) { return f->n_groups; }
size_t pq_row_group_rows(const PqFile *f, int g) { return (size_t)f->groups[g].rows; }

int pq_row_groups_kept(const PqFile *f) {
    int n = 0;
    for (int g = 0; g < f->n_groups; g++) n += !f->keep || f->keep[g];
    return n;
}

bool pq_keeps(const PqFile *f, const uint8_t *keep) {
    for (int g = 0; g < f->n_groups; g++)
        if ((!f->keep || f->keep[g]) != (keep[g] != 0)) return false;
    return true;
}

int pq_keep_row_groups(PqFile *f, const uint8_t *keep) {
    if (f->loaded_any) return -1;
    free(f->keep);
    f->keep = NULL;
    if (keep) {
        f->keep = malloc((size_t)(f->n_groups ? f->n_groups : 1));
        if (!f->keep) return -1;
        memcpy(f->keep, keep, (size_t)f->n_groups);
    }
    RxError e;
    rx_error_clear(&e);
    return make_table(f, &e);
}

/* ---- decoding ------------------------------------------------------------------------------- */

typedef struct {
    PqFile *f;
    int col, group;
    Column *c;
    RxError err;
    bool failed;
    StrHeap **heaps;          /* heaps the column's TEXT values point into (references) */
    size_t n_heaps, cap_heaps;
    uint32_t *lv;             /* levels and dictionary indices */
    size_t lv_cap;
    void *ph;                 /* a page's values in their physical type */
    size_t ph_cap;
    void *dv;                 /* ... converted, before NULLs are spread among them */
    size_t dv_cap;
    int64_t *dl;              /* delta decoding's values */
    size_t dl_cap;
    char *zb;                 /* a decompressed page that nothing points into afterwards */
    size_t zb_cap;
    void *dict;               /* the chunk's dictionary, converted */
    size_t dict_cap, n_dict;
    bool have_dict;
    StrHeap *dict_heap;       /* the bytes its TEXT values point into (a reference); NULL: the file */
    bool uses_file;           /* TEXT values point into the file's heap (never retained by a
                               * task: reference counts are not atomic, the merge retains it) */
} Task;

static const char empty_text[1] = "";

static int task_fail(Task *t, RxErrCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int task_fail(Task *t, RxErrCode code, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    t->failed = true;
    if (code == RX_EIO)
        return rx_error(&t->err, code, NULL, rx_span(0, 0), "%s: corrupt Parquet file: column '%s', row group %d: %s",
                        t->f->name, t->f->cols[t->col].name, t->group, msg);
    if (code == RX_ENOMEM)
        return rx_error(&t->err, code, NULL, rx_span(0, 0), "out of memory reading '%s' (column '%s')",
                        t->f->name, t->f->cols[t->col].name);
    return rx_error(&t->err, code, NULL, rx_span(0, 0), "%s: column '%s', row group %d: %s", t->f->name,
                    t->f->cols[t->col].name, t->group, msg);
}

#define BAD(...) task_fail(t, RX_EIO, __VA_ARGS__)

static void *grow(Task *t, void **p, size_t *cap, size_t bytes) {
    if (bytes <= *cap) return *p;
    size_t c = *cap ? *cap : 256;
    while (c < bytes) c = c > SIZE_MAX / 2 ? bytes : c * 2;
    void *q = rx_realloc(*p, c);
    if (!q) {
        task_fail(t, RX_ENOMEM, "out of memory");
        return NULL;
    }
    *p = q;
    *cap = c;
    return q;
}

static int keep_heap(Task *t, StrHeap *h) {
    if (!h || h == t->f->fh) {
        t->uses_file = true;
        return 0;
    }
    for (size_t i = 0; i < t->n_heaps; i++)
        if (t->heaps[i] == h) return 0;
    if (t->n_heaps == t->cap_heaps) {
        size_t c = t->cap_heaps ? t->cap_heaps * 2 : 4;
        StrHeap **q = realloc(t->heaps, c * sizeof *q);
        if (!q) return task_fail(t, RX_ENOMEM, "out of memory");
        t->heaps = q;
        t->cap_heaps = c;
    }
    heap_retain(h);
    t->heaps[t->n_heaps++] = h;
    return 0;
}

static size_t phys_width(int ptype) {
    switch (ptype) {
    case PT_BOOLEAN: return 1;
    case PT_INT32: case PT_FLOAT: return 4;
    case PT_INT64: case PT_DOUBLE: return 8;
    default: return sizeof(RxStr);
    }
}

/* bw bits at bit position pos of the n bytes at p (bytes past n read as 0). */
static inline uint64_t get_bits(const uint8_t *p, size_t n, uint64_t pos, int bw) {
    size_t b = (size_t)(pos >> 3);
    int s = (int)(pos & 7);
    uint64_t w = 0;
    if (b + 8 <= n) {
        memcpy(&w, p + b, 8);
    } else {
        for (size_t i = 0; i < 8 && b + i < n; i++) w |= (uint64_t)p[b + i] << (8 * i);
    }
    uint64_t v = w >> s;
    if (s && bw + s > 64 && b + 8 < n) v |= (uint64_t)p[b + 8] << (64 - s);
    return bw >= 64 ? v : v & ((UINT64_C(1) << bw) - 1);
}

static bool get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out) {
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end) return false;
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            *out = v;
            return true;
        }
    }
    return false;
}

/* The RLE / bit-packed hybrid: count values of bw bits (0..32) from [p, end) into out. */
static int rle_decode(Task *t, const uint8_t *p, const uint8_t *end, int bw, uint32_t *out, size_t count,
                      const char *what) {
    size_t got = 0;
    size_t vb = (size_t)(bw + 7) / 8;
    while (got < count) {
        uint64_t h;
        if (!get_varint(&p, end, &h)) return BAD("%s end early (%zu of %zu)", what, got, count);
        if (h & 1) {
            uint64_t groups = h >> 1;
            if (groups == 0) return BAD("an empty bit-packed run in %s", what);
            if (bw > 0 && groups > (uint64_t)(end - p) / (uint64_t)bw) return BAD("a bit-packed run past the end of %s", what);
            size_t bytes = (size_t)groups * (size_t)bw;
            size_t take = count - got;
            if (groups < (take + 7) / 8) take = (size_t)groups * 8;
            if (bw == 0) {
                memset(out + got, 0, take * sizeof *out);
            } else if (bw == 1) {
                for (size_t i = 0; i < take; i++) out[got + i] = (p[i >> 3] >> (i & 7)) & 1;
            } else {
                for (size_t i = 0; i < take; i++) out[got + i] = (uint32_t)get_bits(p, bytes, (uint64_t)i * (uint64_t)bw, bw);
            }
            got += take;
            p += bytes;
        } else {
            uint64_t run = h >> 1;
            if ((size_t)(end - p) < vb) return BAD("a run past the end of %s", what);
            uint32_t v = 0;
            for (size_t i = 0; i < vb; i++) v |= (uint32_t)p[i] << (8 * i);
            p += vb;
            size_t take = count - got;
            if (run < take) take = (size_t)run;
            for (size_t i = 0; i < take; i++) out[got + i] = v;
            got += take;
        }
    }
    return 0;
}

/* DELTA_BINARY_PACKED: exactly count values from *pp into out; *pp moves past them. */
static int delta_decode(Task *t, const uint8_t **pp, const uint8_t *end, int64_t *out, size_t count) {
    const uint8_t *p = *pp;
    uint64_t block, mbs, total, first;
    if (!get_varint(&p, end, &block) || !get_varint(&p, end, &mbs) || !get_varint(&p, end, &total) ||
        !get_varint(&p, end, &first))
        return BAD("a truncated DELTA_BINARY_PACKED header");
    if (block == 0 || block % 128 || block > (1u << 20) || mbs == 0 || block % mbs || (block / mbs) % 32)
        return BAD("a bad DELTA_BINARY_PACKED block size");
    if (total != count) return BAD("DELTA_BINARY_PACKED holds %llu values, the page %zu", (unsigned long long)total, count);
    size_t per = (size_t)(block / mbs);
    uint64_t last = (first >> 1) ^ (uint64_t)-(int64_t)(first & 1);
    size_t got = 0;
    if (count) out[got++] = (int64_t)last;
    while (got < count) {
        uint64_t md;
        if (!get_varint(&p, end, &md)) return BAD("a truncated DELTA_BINARY_PACKED block");
        uint64_t min_delta = (md >> 1) ^ (uint64_t)-(int64_t)(md & 1);
        if ((uint64_t)(end - p) < mbs) return BAD("a truncated DELTA_BINARY_PACKED block");
        const uint8_t *widths = p;
        p += mbs;
        for (uint64_t m = 0; m < mbs && got < count; m++) {
            int bw = widths[m];
            if (bw > 64) return BAD("a DELTA_BINARY_PACKED bit width of %d", bw);
            size_t bytes = per * (size_t)bw / 8;
            if ((size_t)(end - p) < bytes) return BAD("a DELTA_BINARY_PACKED miniblock past the end of the page");
            for (size_t i = 0; i < per && got < count; i++) {
                uint64_t d = bw ? get_bits(p, bytes, (uint64_t)i * (uint64_t)bw, bw) : 0;
                last += min_delta + d;
                out[got++] = (int64_t)last;
            }
            p += bytes;
        }
    }
    *pp = p;
    return 0;
}

/* n values of physical type pt (fixed length fl) in encoding PLAIN from [p, end) into out. */
static int plain_decode(Task *t, int pt, int fl, const uint8_t *p, const uint8_t *end, void *out, size_t n) {
    size_t avail = (size_t)(end - p);
    switch (pt) {
    case PT_BOOLEAN: {
        if (avail < (n + 7) / 8) return BAD("PLAIN values past the end of the page");
        uint8_t *o = out;
        for (size_t i = 0; i < n; i++) o[i] = (p[i >> 3] >> (i & 7)) & 1;
        return 0;
    }
    case PT_INT32: case PT_FLOAT:
        if (avail / 4 < n) return BAD("PLAIN values past the end of the page");
        if (n) memcpy(out, p, n * 4);
        return 0;
    case PT_INT64: case PT_DOUBLE:
        if (avail / 8 < n) return BAD("PLAIN values past the end of the page");
        if (n) memcpy(out, p, n * 8);
        return 0;
    case PT_INT96: case PT_FIXED: {
        size_t w = pt == PT_INT96 ? 12 : (size_t)fl;
        if (avail / w < n) return BAD("PLAIN values past the end of the page");
        RxStr *o = out;
        for (size_t i = 0; i < n; i++) o[i] = (RxStr){(const char *)p + i * w, w};
        return 0;
    }
    case PT_BYTE_ARRAY: {
        RxStr *o = out;
        for (size_t i = 0; i < n; i++) {
            if ((size_t)(end - p) < 4) return BAD("PLAIN strings past the end of the page");
            uint32_t len = le32(p);
            p += 4;
            if (len > (size_t)(end - p)) return BAD("a PLAIN string past the end of the page");
            o[i] = (RxStr){(const char *)p, len};
            p += len;
        }
        return 0;
    }
    }
    return BAD("an unknown physical type");
}

static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                             1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static double scaled(double v, int scale) {
    if (scale <= 0) return v;
    if (scale <= 22) return v / p10[scale];
    return v / pow(10.0, scale);
}

static double half_to_double(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0) v = ldexp(m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b) && ((a < 0) != (b < 0))) q--;
    return q;
}

static int check_ts(Task *t, int64_t us) {
    if (us < TM_TS_MIN || us > TM_TS_MAX) return task_fail(t, RX_EVALUE, "a timestamp outside years 1 to 9999");
    return 0;
}

static int check_time(Task *t, int64_t us) {
    if (us < 0 || us >= US_PER_DAY) return task_fail(t, RX_EVALUE, "a time of day outside 00:00 to 24:00");
    return 0;
}

/* n physical values ph of the task's column into out, in the column's Relix type. */
static int convert(Task *t, const void *ph, size_t n, void *out) {
    const PqCol *pc = &t->f->cols[t->col];
    switch (pc->kind) {
    case K_BOOL: case K_INT64: case K_DOUBLE: case K_TEXT:
        if (n && out != ph) memcpy(out, ph, n * type_width(pc->type));
        return 0;
    case K_INT32: {
        const int32_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) o[i] = s[i];
        return 0;
    }
    case K_UINT32: {
        const uint32_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) o[i] = s[i];
        return 0;
    }
    case K_UINT64: {
        const int64_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) {
            if (s[i] < 0) return task_fail(t, RX_EVALUE, "an unsigned value above INT's range (%llu)", (unsigned long long)s[i]);
            o[i] = s[i];
        }
        return 0;
    }
    case K_FLOAT: {
        const float *s = ph;
        double *o = out;
        for (size_t i = 0; i < n; i++) o[i] = s[i];
        return 0;
    }
    case K_DATE: {
        const int32_t *s = ph;
        int32_t *o = out;
        for (size_t i = 0; i < n; i++) {
            if (s[i] < TM_DATE_MIN || s[i] > TM_DATE_MAX) return task_fail(t, RX_EVALUE, "a date outside years 1 to 9999");
            o[i] = s[i];
        }
        return 0;
    }
    case K_TIME_MS: {
        const int32_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) {
            o[i] = (int64_t)s[i] * 1000;
            if (check_time(t, o[i]) < 0) return -1;
        }
        return 0;
    }
    case K_TIME_US: case K_TIME_NS: {
        const int64_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) {
            o[i] = pc->kind == K_TIME_NS ? floor_div(s[i], 1000) : s[i];
            if (check_time(t, o[i]) < 0) return -1;
        }
        return 0;
    }
    case K_TS_MS: case K_TS_US: case K_TS_NS: {
        const int64_t *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) {
            int64_t v = s[i];
            if (pc->kind == K_TS_MS) {
                if (v < TM_TS_MIN / 1000 || v > TM_TS_MAX / 1000) return check_ts(t, TM_TS_MIN - 1);
                v *= 1000;
            } else if (pc->kind == K_TS_NS) {
                v = floor_div(v, 1000);
            }
            if (v < TM_TS_MIN || v > TM_TS_MAX) return check_ts(t, v);
            o[i] = v;
        }
        return 0;
    }
    case K_TS_INT96: {
        const RxStr *s = ph;
        int64_t *o = out;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *b = (const uint8_t *)s[i].ptr;
            int64_t ns;
            memcpy(&ns, b, 8);
            int64_t jd = (int32_t)le32(b + 8);
            int64_t days = jd - 2440588;
            if (days < TM_DATE_MIN - 1 || days > TM_DATE_MAX + 1 || ns < -US_PER_DAY * 1000 || ns > US_PER_DAY * 1000)
                return check_ts(t, TM_TS_MIN - 1);
            int64_t v = days * US_PER_DAY + floor_div(ns, 1000);
            if (check_ts(t, v) < 0) return -1;
            o[i] = v;
        }
        return 0;
    }
    case K_DEC_I32: {
        const int32_t *s = ph;
        double *o = out;
        for (size_t i = 0; i < n; i++) o[i] = scaled((double)s[i], pc->scale);
        return 0;
    }
    case K_DEC_I64: {
        const int64_t *s = ph;
        double *o = out;
        for (size_t i = 0; i < n; i++) o[i] = scaled((double)s[i], pc->scale);
        return 0;
    }
    case K_DEC_BIN: {
        const RxStr *s = ph;
        double *o = out;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *b = (const uint8_t *)s[i].ptr;
            size_t len = s[i].len;
            double v;
            if (len == 0) {
                v = 0;
            } else if (len <= 16) {
                __int128 x = (b[0] & 0x80) ? -1 : 0;
                for (size_t k = 0; k < len; k++) x = (__int128)(((unsigned __int128)x << 8) | b[k]);
                v = (double)x;
            } else {
                bool neg = b[0] & 0x80;
                v = 0;
                for (size_t k = 0; k < len; k++) v = v * 256 + (neg ? (uint8_t)~b[k] : b[k]);
                if (neg) v = -(v + 1);
            }
            o[i] = scaled(v, pc->scale);
        }
        return 0;
    }
    case K_FLOAT16: {
        const RxStr *s = ph;
        double *o = out;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *b = (const uint8_t *)s[i].ptr;
            o[i] = half_to_double((uint16_t)(b[0] | b[1] << 8));
        }
        return 0;
    }
    case K_UUID: {
        const RxStr *s = ph;
        RxStr *o = out;
        if (n == 0) return 0;
        StrHeap *h = heap_new(n * 36);
        if (!h) return task_fail(t, RX_ENOMEM, "out of memory");
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < n; i++) {
            const uint8_t *b = (const uint8_t *)s[i].ptr;
            char *d = h->data + i * 36, *q = d;
            for (int k = 0; k < 16; k++) {
                if (k == 4 || k == 6 || k == 8 || k == 10) *q++ = '-';
                *q++ = hex[b[k] >> 4];
                *q++ = hex[b[k] & 15];
            }
            o[i] = (RxStr){d, 36};
        }
        h->len = n * 36;
        int rc = keep_heap(t, h);
        heap_release(h);
        return rc;
    }
    }
    return BAD("an unknown conversion");
}

typedef struct {
    int type;
    int64_t usize, csize;
    int64_t nv, nulls;
    int enc, def_enc;
    int64_t def_len, rep_len;
    bool compressed;
    bool has_body;
} PageHdr;

static void read_page_header(TReader *r, PageHdr *h) {
    memset(h, 0, sizeof *h);
    h->type = -1;
    h->usize = h->csize = -1;
    h->compressed = true;
    int last = 0, id, ty;
    while (tr_field(r, &last, &id, &ty)) {
        if (id == 1) h->type = (int)tr_int(r, ty);
        else if (id == 2) h->usize = tr_int(r, ty);
        else if (id == 3) h->csize = tr_int(r, ty);
        else if ((id == 5 || id == 7 || id == 8) && ty == TT_STRUCT) {
            if (!tr_enter(r)) return;
            h->has_body = true;
            int l2 = 0, i2, t2;
            while (tr_field(r, &l2, &i2, &t2)) {
                if (i2 == 1) h->nv = tr_int(r, t2);
                else if (id == 5 && i2 == 2) h->enc = (int)tr_int(r, t2);
                else if (id == 5 && i2 == 3) h->def_enc = (int)tr_int(r, t2);
                else if (id == 7 && i2 == 2) h->enc = (int)tr_int(r, t2);
                else if (id == 8 && i2 == 2) h->nulls = tr_int(r, t2);
                else if (id == 8 && i2 == 4) h->enc = (int)tr_int(r, t2);
                else if (id == 8 && i2 == 5) h->def_len = tr_int(r, t2);
                else if (id == 8 && i2 == 6) h->rep_len = tr_int(r, t2);
                else if (id == 8 && i2 == 7) h->compressed = t2 == TT_TRUE;
                else tr_skip(r, t2);
            }
            tr_leave(r);
        } else {
            tr_skip(r, ty);
        }
    }
}

/* The n bytes at src of a page compressed with codec, as usize bytes: *out. With keep, *heap
 * is a new heap holding them that TEXT values may point into; without, they are in the task's
 * scratch (valid until the next page) and *heap is NULL. An uncompressed page is src itself. */
static int decompress(Task *t, int codec, const uint8_t *src, size_t n, size_t usize, bool keep,
                      const uint8_t **out, StrHeap **heap) {
    *heap = NULL;
    if (codec == PQ_CODEC_NONE) {
        if (n != usize) return BAD("an uncompressed page of %zu bytes says %zu", n, usize);
        *out = src;
        return 0;
    }
    StrHeap *h = NULL;
    char *dst;
    if (keep) {
        if (!(h = heap_new(usize ? usize : 1))) return task_fail(t, RX_ENOMEM, "out of memory");
        dst = h->data;
    } else {
        if (!grow(t, (void **)&t->zb, &t->zb_cap, usize ? usize : 1)) return -1;
        dst = t->zb;
    }
    bool ok = false;
    if (codec == PQ_CODEC_SNAPPY) {
        size_t ulen;
        ok = pq_snappy.snappy_uncompressed_length((const char *)src, n, &ulen) == SNAPPY_OK && ulen == usize &&
             pq_snappy.snappy_uncompress((const char *)src, n, dst, &ulen) == SNAPPY_OK && ulen == usize;
    } else if (codec == PQ_CODEC_ZSTD) {
        size_t r = ZSTD_decompress(dst, usize, src, n);
        ok = !ZSTD_isError(r) && r == usize;
    } else if (codec == PQ_CODEC_GZIP) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (n <= UINT32_MAX && usize <= UINT32_MAX && inflateInit2(&z, 15 + 32) == Z_OK) {
            z.next_in = (Bytef *)src;
            z.avail_in = (uInt)n;
            z.next_out = (Bytef *)dst;
            z.avail_out = (uInt)usize;
            int r = inflate(&z, Z_FINISH);
            ok = r == Z_STREAM_END && z.total_out == usize;
            inflateEnd(&z);
        }
    }
    if (!ok) {
        heap_release(h);
        return BAD("a %s page does not decompress to its %zu bytes",
                   codec == PQ_CODEC_SNAPPY ? "Snappy" : codec == PQ_CODEC_ZSTD ? "Zstandard" : "gzip", usize);
    }
    if (h) h->len = usize;
    *out = (const uint8_t *)dst;
    *heap = h;
    return 0;
}

/* n values of encoding enc from [p, end) into the physical scratch (ph); *own: a heap the
 * values point into that decoding made (DELTA_BYTE_ARRAY), or NULL. */
static int decode_values(Task *t, int enc, const uint8_t *p, const uint8_t *end, size_t n, StrHeap **own) {
    const PqCol *pc = &t->f->cols[t->col];
    size_t pw = phys_width(pc->ptype);
    *own = NULL;
    if (!grow(t, &t->ph, &t->ph_cap, (n ? n : 1) * pw)) return -1;
    switch (enc) {
    case ENC_PLAIN: return plain_decode(t, pc->ptype, pc->type_len, p, end, t->ph, n);
    case ENC_RLE: {
        if (pc->ptype != PT_BOOLEAN) return BAD("RLE values in a column that is not BOOLEAN");
        if (end - p < 4) return BAD("a truncated RLE page");
        uint32_t len = le32(p);
        if (len > (size_t)(end - p) - 4) return BAD("RLE values past the end of the page");
        if (!grow(t, (void **)&t->lv, &t->lv_cap, (n ? n : 1) * sizeof *t->lv)) return -1;
        if (rle_decode(t, p + 4, p + 4 + len, 1, t->lv, n, "RLE booleans") < 0) return -1;
        uint8_t *o = t->ph;
        for (size_t i = 0; i < n; i++) o[i] = (uint8_t)t->lv[i];
        return 0;
    }
    case ENC_DELTA_BINARY: {
        if (pc->ptype != PT_INT32 && pc->ptype != PT_INT64) return BAD("DELTA_BINARY_PACKED values in a column that is not INT32 or INT64");
        if (!grow(t, (void **)&t->dl, &t->dl_cap, (n ? n : 1) * 8)) return -1;
        if (delta_decode(t, &p, end, t->dl, n) < 0) return -1;
        if (pc->ptype == PT_INT64) memcpy(t->ph, t->dl, n * 8);
        else for (size_t i = 0; i < n; i++) ((int32_t *)t->ph)[i] = (int32_t)(uint32_t)(uint64_t)t->dl[i];
        return 0;
    }
    case ENC_DELTA_LENGTH: case ENC_DELTA_BYTE_ARRAY: {
        if (pc->ptype != PT_BYTE_ARRAY && !(enc == ENC_DELTA_BYTE_ARRAY && pc->ptype == PT_FIXED))
            return BAD("DELTA string encodings in a column that is not BYTE_ARRAY");
        if (!grow(t, (void **)&t->dl, &t->dl_cap, (n ? n : 1) * 16)) return -1;
        int64_t *pre = t->dl + n, *len = t->dl;
        if (enc == ENC_DELTA_BYTE_ARRAY && delta_decode(t, &p, end, pre, n) < 0) return -1;
        if (delta_decode(t, &p, end, len, n) < 0) return -1;
        RxStr *o = t->ph;
        if (enc == ENC_DELTA_LENGTH) {
            for (size_t i = 0; i < n; i++) {
                if (len[i] < 0 || (uint64_t)len[i] > (uint64_t)(end - p)) return BAD("a DELTA_LENGTH_BYTE_ARRAY string past the end of the page");
                o[i] = (RxStr){(const char *)p, (uint64_t)len[i]};
                p += len[i];
            }
            return 0;
        }
        uint64_t total = 0, prev = 0, suffixes = 0;
        for (size_t i = 0; i < n; i++) {
            if (pre[i] < 0 || (uint64_t)pre[i] > prev || len[i] < 0 || (uint64_t)len[i] > (uint64_t)(end - p) - suffixes)
                return BAD("a bad DELTA_BYTE_ARRAY prefix or suffix");
            suffixes += (uint64_t)len[i];
            prev = (uint64_t)pre[i] + (uint64_t)len[i];
            total += prev;
            if (total > PQ_MAX_PAGE) return BAD("DELTA_BYTE_ARRAY strings of more than %zu bytes in one page", PQ_MAX_PAGE);
        }
        StrHeap *h = heap_new(total ? total : 1);
        if (!h) return task_fail(t, RX_ENOMEM, "out of memory");
        char *d = h->data;
        const char *last = d;
        for (size_t i = 0; i < n; i++) {
            if (pre[i]) memmove(d, last, (size_t)pre[i]);
            if (len[i]) memcpy(d + pre[i], p, (size_t)len[i]);
            p += len[i];
            o[i] = (RxStr){d, (uint64_t)(pre[i] + len[i])};
            last = d;
            d += pre[i] + len[i];
        }
        h->len = total;
        if (pc->ptype == PT_FIXED)
            for (size_t i = 0; i < n; i++)
                if (o[i].len != (uint64_t)pc->type_len) {
                    heap_release(h);
                    return BAD("a FIXED_LEN_BYTE_ARRAY value of the wrong length");
                }
        *own = h;
        return 0;
    }
    case ENC_BYTE_STREAM_SPLIT: {
        if (pw != 4 && pw != 8) return task_fail(t, RX_EUNSUPPORTED, "BYTE_STREAM_SPLIT on this column's type is not supported");
        if ((size_t)(end - p) / pw < n) return BAD("BYTE_STREAM_SPLIT values past the end of the page");
        uint8_t *o = t->ph;
        for (size_t k = 0; k < pw; k++)
            for (size_t i = 0; i < n; i++) o[i * pw + k] = p[k * n + i];
        return 0;
    }
    case ENC_BIT_PACKED:
        return task_fail(t, RX_EUNSUPPORTED, "BIT_PACKED values are not supported");
    default:
        return task_fail(t, RX_EUNSUPPORTED, "value encoding %d is not supported", enc);
    }
}

static int dict_page(Task *t, const PageHdr *h, const uint8_t *payload) {
    const PqChunk *ch = &t->f->groups[t->group].chunks[t->col];
    const PqCol *pc = &t->f->cols[t->col];
    if (t->have_dict) return BAD("a second dictionary page");
    if (h->enc != ENC_PLAIN && h->enc != ENC_PLAIN_DICT) return BAD("a dictionary page in encoding %d", h->enc);
    const uint8_t *buf;
    StrHeap *heap;
    if (decompress(t, ch->codec, payload, (size_t)h->csize, (size_t)h->usize, pc->kind == K_TEXT, &buf, &heap) < 0)
        return -1;
    if (h->nv < 0 || (uint64_t)h->nv > (uint64_t)h->usize * 8) {
        heap_release(heap);
        return BAD("a dictionary of %lld values in %lld bytes", (long long)h->nv, (long long)h->usize);
    }
    size_t n = (size_t)h->nv;
    StrHeap *own = NULL;
    if (decode_values(t, ENC_PLAIN, buf, buf + h->usize, n, &own) < 0 ||
        !grow(t, &t->dict, &t->dict_cap, (n ? n : 1) * type_width(pc->type)) || convert(t, t->ph, n, t->dict) < 0) {
        heap_release(heap);
        return -1;
    }
    t->n_dict = n;
    t->have_dict = true;
    t->dict_heap = heap;
    return 0;
}

/* Spreads the dense values dv (nn of them) over the nv rows from row `at` of the column, by
 * the definition levels lv; NULL rows get a zero value and a cleared validity bit. */
static void spread(Task *t, size_t at, size_t nv) {
    Column *c = t->c;
    size_t w = type_width(c->type);
    char *col = (char *)c->data + at * w;
    const char *dv = t->dv;
    size_t k = 0;
    for (size_t i = 0; i < nv; i++) {
        if (t->lv[i]) {
            memcpy(col + i * w, dv + k * w, w);
            k++;
        } else {
            memset(col + i * w, 0, w);
            if (c->type == TY_TEXT) ((RxStr *)(void *)(col + i * w))->ptr = empty_text;
            size_t r = at + i;
            __atomic_fetch_and(&c->valid[r >> 6], ~(UINT64_C(1) << (r & 63)), __ATOMIC_RELAXED);
        }
    }
}

static int data_page(Task *t, const PageHdr *h, const uint8_t *payload, size_t at, size_t rows_left) {
    const PqFile *f = t->f;
    const PqChunk *ch = &f->groups[t->group].chunks[t->col];
    const PqCol *pc = &f->cols[t->col];
    if (h->nv < 0 || (uint64_t)h->nv > rows_left)
        return BAD("a page of %lld values where %zu rows are left", (long long)h->nv, rows_left);
    size_t nv = (size_t)h->nv;
    const uint8_t *buf, *end;
    StrHeap *heap = NULL;
    /* TEXT values of PLAIN and DELTA_LENGTH_BYTE_ARRAY pages point into the page */
    bool keep = pc->kind == K_TEXT && (h->enc == ENC_PLAIN || h->enc == ENC_DELTA_LENGTH);
    const uint8_t *lvl = NULL, *lvl_end = NULL;
    if (h->type == PG_DATA) {
        if (decompress(t, ch->codec, payload, (size_t)h->csize, (size_t)h->usize, keep, &buf, &heap) < 0) return -1;
        end = buf + h->usize;
        if (pc->optional) {
            if (h->def_enc != ENC_RLE) {
                heap_release(heap);
                return task_fail(t, RX_EUNSUPPORTED, "definition levels in encoding %d are not supported", h->def_enc);
            }
            if (end - buf < 4 || le32(buf) > (size_t)(end - buf) - 4) {
                heap_release(heap);
                return BAD("definition levels past the end of the page");
            }
            lvl = buf + 4;
            lvl_end = lvl + le32(buf);
            buf = lvl_end;
        }
    } else {
        if (h->def_len < 0 || h->rep_len < 0 || h->def_len + h->rep_len > h->csize || h->def_len + h->rep_len > h->usize)
            return BAD("levels past the end of the page");
        lvl = payload + h->rep_len;
        lvl_end = lvl + h->def_len;
        size_t skip = (size_t)(h->def_len + h->rep_len);
        int codec = h->compressed ? ch->codec : PQ_CODEC_NONE;
        if (decompress(t, codec, payload + skip, (size_t)h->csize - skip, (size_t)h->usize - skip, keep, &buf, &heap) < 0)
            return -1;
        end = buf + (h->usize - (int64_t)skip);
        if (!pc->optional) lvl = NULL;
    }
    int rc = -1;
    size_t nn = nv;
    if (!grow(t, (void **)&t->lv, &t->lv_cap, (nv ? nv : 1) * sizeof *t->lv)) goto done;
    if (lvl) {
        if (rle_decode(t, lvl, lvl_end, 1, t->lv, nv, "definition levels") < 0) goto done;
        nn = 0;
        for (size_t i = 0; i < nv; i++) nn += t->lv[i] != 0;
    }
    size_t w = type_width(pc->type);
    char *dest;
    if (nn == nv) {
        dest = (char *)t->c->data + at * w;
    } else {
        if (!grow(t, &t->dv, &t->dv_cap, (nn ? nn : 1) * w)) goto done;
        dest = t->dv;
    }
    bool from_dict = h->enc == ENC_PLAIN_DICT || h->enc == ENC_RLE_DICT;
    StrHeap *own = NULL;
    if (from_dict) {
        if (!t->have_dict) {
            BAD("dictionary-encoded values without a dictionary page");
            goto done;
        }
        if (buf >= end && nn > 0) {
            BAD("a truncated dictionary-encoded page");
            goto done;
        }
        int bw = nn > 0 ? buf[0] : 0;
        if (bw > 32) {
            BAD("a dictionary index width of %d bits", bw);
            goto done;
        }
        /* definition levels were read already: lv is free again for the indices */
        uint32_t *lv_keep = NULL;
        if (nn != nv) {
            lv_keep = malloc((nv ? nv : 1) * sizeof *lv_keep);
            if (!lv_keep) {
                task_fail(t, RX_ENOMEM, "out of memory");
                goto done;
            }
            memcpy(lv_keep, t->lv, nv * sizeof *lv_keep);
        }
        if (nn > 0 && rle_decode(t, buf + 1, end, bw, t->lv, nn, "dictionary indices") < 0) {
            free(lv_keep);
            goto done;
        }
        size_t nd = t->n_dict;
        bool bad = false;
        switch (w) {
        case 1: for (size_t i = 0; i < nn; i++) { uint32_t x = t->lv[i]; if (x >= nd) { bad = true; break; } ((uint8_t *)dest)[i] = ((const uint8_t *)t->dict)[x]; } break;
        case 4: for (size_t i = 0; i < nn; i++) { uint32_t x = t->lv[i]; if (x >= nd) { bad = true; break; } ((int32_t *)(void *)dest)[i] = ((const int32_t *)t->dict)[x]; } break;
        case 8: for (size_t i = 0; i < nn; i++) { uint32_t x = t->lv[i]; if (x >= nd) { bad = true; break; } ((int64_t *)(void *)dest)[i] = ((const int64_t *)t->dict)[x]; } break;
        default: for (size_t i = 0; i < nn; i++) { uint32_t x = t->lv[i]; if (x >= nd) { bad = true; break; } ((RxStr *)(void *)dest)[i] = ((const RxStr *)t->dict)[x]; } break;
        }
        if (lv_keep) {
            memcpy(t->lv, lv_keep, nv * sizeof *lv_keep);
            free(lv_keep);
        }
        if (bad) {
            BAD("a dictionary index past the dictionary's %zu values", nd);
            goto done;
        }
        if (pc->type == TY_TEXT && nn > 0 && keep_heap(t, t->dict_heap) < 0) goto done;
    } else {
        /* PLAIN values whose physical and Relix widths agree decode straight into place and
         * are converted (checked) there */
        bool direct = h->enc == ENC_PLAIN && phys_width(pc->ptype) == w && pc->kind != K_UUID &&
                      pc->kind != K_DEC_BIN && pc->kind != K_FLOAT16 && pc->kind != K_TS_INT96;
        int crc;
        if (direct) {
            crc = plain_decode(t, pc->ptype, pc->type_len, buf, end, dest, nn);
            if (crc == 0) crc = convert(t, dest, nn, dest);
        } else {
            crc = decode_values(t, h->enc, buf, end, nn, &own);
            if (crc == 0) crc = convert(t, t->ph, nn, dest);
        }
        if (crc == 0 && pc->type == TY_TEXT && nn > 0 && pc->kind == K_TEXT)
            crc = keep_heap(t, own ? own : heap);
        heap_release(own);
        if (crc < 0) goto done;
    }
    if (nn != nv) spread(t, at, nv);
    rc = 0;
done:
    heap_release(heap);
    return rc;
}

/* Decodes the task's column chunk into its rows of the column. */
static int decode_chunk(Task *t) {
    const PqFile *f = t->f;
    const PqGroup *g = &f->groups[t->group];
    const PqChunk *ch = &g->chunks[t->col];
    const uint8_t *p = f->data + ch->start, *end = p + ch->len;
    size_t rows = (size_t)g->rows, done = 0;
    while (done < rows) {
        if (p >= end) return BAD("the chunk ends after %zu of its %zu rows", done, rows);
        TReader r = {p, end, 0, false, NULL};
        PageHdr h;
        read_page_header(&r, &h);
        if (r.bad) return BAD("a bad page header (%s)", r.what ? r.what : "bad metadata");
        const uint8_t *payload = r.p;
        if (h.csize < 0 || h.csize > end - payload) return BAD("a page past the end of its column chunk");
        if (h.usize < 0 || (uint64_t)h.usize > PQ_MAX_PAGE) return BAD("a page of %lld bytes", (long long)h.usize);
        p = payload + h.csize;
        if (h.type == PG_DICT) {
            if (!h.has_body) return BAD("a dictionary page without its header");
            if (dict_page(t, &h, payload) < 0) return -1;
        } else if (h.type == PG_DATA || h.type == PG_DATA_V2) {
            if (!h.has_body) return BAD("a data page without its header");
            if (data_page(t, &h, payload, g->first + done, rows - done) < 0) return -1;
            done += (size_t)h.nv;
        } else if (h.type != PG_INDEX) {
            return BAD("a page of unknown type %d", h.type);
        }
    }
    return 0;
}

static void task_free_scratch(Task *t) {
    rx_free(t->lv);
    rx_free(t->ph);
    rx_free(t->dv);
    rx_free(t->dl);
    rx_free(t->dict);
    rx_free(t->zb);
    heap_release(t->dict_heap);
    t->lv = NULL, t->ph = t->dv = t->dict = NULL, t->dl = NULL, t->dict_heap = NULL, t->zb = NULL;
    t->lv_cap = t->ph_cap = t->dv_cap = t->dl_cap = t->dict_cap = t->zb_cap = 0;
}

typedef struct {
    Task *tasks;
    size_t n;
    atomic_size_t next;
    atomic_bool stop;
} Pool;

static void *worker(void *ud) {
    Pool *pl = ud;
    for (;;) {
        size_t i = atomic_fetch_add(&pl->next, 1);
        if (i >= pl->n || atomic_load(&pl->stop)) break;
        Task *t = &pl->tasks[i];
        if (decode_chunk(t) < 0) {
            if (!t->failed) task_fail(t, RX_EIO, "decoding failed");
            atomic_store(&pl->stop, true);
        }
        task_free_scratch(t);
    }
    return NULL;
}

/* Non-decreasing with no NULL (the column's sorted hint). */
static bool is_sorted_col(const Column *c) {
    if (c->valid || c->n < 2) return c->n < 2 && !c->valid;
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: {
        const int64_t *v = col_i64(c);
        for (size_t i = 1; i < c->n; i++) if (v[i] < v[i - 1]) return false;
        return true;
    }
    case TY_DATE: {
        const int32_t *v = col_i32(c);
        for (size_t i = 1; i < c->n; i++) if (v[i] < v[i - 1]) return false;
        return true;
    }
    case TY_FLOAT: {
        const double *v = col_f64(c);
        for (size_t i = 1; i < c->n; i++) if (!(v[i] >= v[i - 1])) return false;
        return !isnan(v[0]);
    }
    default: return false;
    }
}

int pq_load(PqFile *f, const uint8_t *want, RxError *err) {
    Table *tb = f->t;
    int nc = 0;
    for (int j = 0; j < f->n_cols; j++) nc += tb->cols[j]->pruned && (!want || want[j]);
    if (nc == 0) return 0;
    f->loaded_any = true;
    Column **fresh = calloc((size_t)f->n_cols, sizeof *fresh);
    size_t nt = 0;
    for (int g = 0; g < f->n_groups; g++) nt += (!f->keep || f->keep[g]) && f->groups[g].rows > 0;
    Task *tasks = calloc(nt * (size_t)nc + 1, sizeof *tasks);
    if (!fresh || !tasks) {
        free(fresh);
        free(tasks);
        return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    size_t n = 0;
    int rc = 0;
    for (int j = 0; j < f->n_cols && rc == 0; j++) {
        if (!tb->cols[j]->pruned || (want && !want[j])) continue;
        Column *c = col_new(f->cols[j].type, tb->n_rows);
        if (c && f->cols[j].optional && tb->n_rows > 0) {
            c->valid = rx_malloc(bitmap_words(tb->n_rows) * 8);
            if (c->valid) memset(c->valid, 0xff, bitmap_words(tb->n_rows) * 8);
            else col_release(c), c = NULL;
        }
        if (!c) {
            rc = rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory reading '%s' (column '%s')", f->name, f->cols[j].name);
            break;
        }
        fresh[j] = c;
        for (int g = 0; g < f->n_groups; g++) {
            if ((f->keep && !f->keep[g]) || f->groups[g].rows == 0) continue;
            Task *t = &tasks[n++];
            t->f = f, t->col = j, t->group = g, t->c = c;
            rx_error_clear(&t->err);
        }
    }
    if (rc == 0 && n > 0) {
        Pool pl = {tasks, n, 0, false};
        int nth = f->threads;
        if ((size_t)nth > n) nth = (int)n;
        pthread_t th[64];
        if (nth > 64) nth = 64;
        int started = 0;
        for (int i = 1; i < nth; i++)
            if (pthread_create(&th[started], NULL, worker, &pl) == 0) started++;
        worker(&pl);
        for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
        for (size_t i = 0; i < n; i++)
            if (tasks[i].failed) {
                *err = tasks[i].err;
                rc = -1;
                break;
            }
        if (rc == 0 && atomic_load(&pl.stop))
            rc = rx_error(err, RX_EIO, NULL, rx_span(0, 0), "%s: decoding stopped", f->name);
    }
    for (size_t i = 0; i < n; i++) {
        Task *t = &tasks[i];
        if (rc == 0 && t->uses_file && col_add_heap(t->c, f->fh) < 0)
            rc = rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        for (size_t k = 0; k < t->n_heaps; k++) {
            if (rc == 0 && col_add_heap(t->c, t->heaps[k]) < 0)
                rc = rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            heap_release(t->heaps[k]);
        }
        free(t->heaps);
        task_free_scratch(t);
    }
    free(tasks);
    for (int j = 0; j < f->n_cols; j++) {
        if (!fresh[j]) continue;
        if (rc < 0) {
            col_release(fresh[j]);
            continue;
        }
        col_compact_validity(fresh[j]);
        fresh[j]->sorted = is_sorted_col(fresh[j]);
        col_release(tb->cols[j]);
        tb->cols[j] = fresh[j];
    }
    free(fresh);
    return rc;
}

/* ---- statistics ----------------------------------------------------------------------------- */

int pq_stats(const PqFile *f, int g, int j, Value *min, Value *max, int64_t *nulls) {
    const PqChunk *ch = &f->groups[g].chunks[j];
    const PqCol *pc = &f->cols[j];
    *nulls = ch->null_count;
    if (!ch->has_stats) return -1;
    Task t;
    memset(&t, 0, sizeof t);
    t.f = (PqFile *)f, t.col = j, t.group = g;
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        const uint8_t *b = k ? ch->max : ch->min;
        size_t n = k ? ch->max_n : ch->min_n;
        Value *v = k ? max : min;
        if (pc->kind == K_UUID || pc->kind == K_TS_INT96 || pc->kind == K_FLOAT16 || pc->kind == K_DEC_BIN) {
            rc = -1;
            break;
        }
        if (pc->ptype == PT_BYTE_ARRAY || pc->ptype == PT_FIXED) {
            RxStr s = {(const char *)b, n};
            if (n == 0) s.ptr = empty_text;
            *v = (Value){.type = TY_TEXT, .v.s = s};
            continue;
        }
        size_t pw = phys_width(pc->ptype);
        if (n != pw && !(pc->ptype == PT_BOOLEAN && n >= 1)) {
            rc = -1;
            break;
        }
        union { int64_t i; double d; int32_t i32; uint8_t u8; RxStr s; } ph, out;
        memset(&ph, 0, sizeof ph);
        memcpy(&ph, b, pw);
        if (convert(&t, &ph, 1, &out) < 0) {
            rc = -1;
            break;
        }
        *v = (Value){.type = pc->type};
        switch (pc->type) {
        case TY_BOOL: v->v.b = out.u8 != 0; break;
        case TY_FLOAT: v->v.f = out.d; if (isnan(out.d)) rc = -1; break;
        case TY_DATE: v->v.date = out.i32; break;
        default: v->v.i = out.i; break;
        }
    }
    task_free_scratch(&t);
    free(t.heaps);
    return rc;
}
