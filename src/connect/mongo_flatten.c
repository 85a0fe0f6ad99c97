/*
 * mongo_flatten.c - BSON documents as rows (mongo_flatten.h): the columns a sample implies,
 * their types, and one document's values in them, with libbson's iterators. Server-free: the
 * unit test builds documents with libbson and checks the columns.
 */
#include "connect/mongo_flatten.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dynlib.h"
#include "types/number.h"
#include "types/temporal.h"

MfBson bsonlib;

#define MF_BSON_NAME(f) #f,
static const char *const bson_names[] = {MF_BSON_FNS(MF_BSON_NAME)};
#undef MF_BSON_NAME
_Static_assert(sizeof(MfBson) == RX_ARRAY_LEN(bson_names) * sizeof(void *), "MfBson: one pointer per name");
static RxDynLib bson_dl = {"MongoDB support", "libbson-1.0.so.0", "libbson-1.0-0", bson_names,
                           RX_ARRAY_LEN(bson_names), &bsonlib, 0, ""};

int mf_bson_load(RxError *err) { return rx_dynlib_load(&bson_dl, err); }

#define MF_MAX_DEPTH 100   /* BSON's own nesting limit is about this; deeper is an error */

void mf_init(MfSchema *s) { memset(s, 0, sizeof *s); }

void mf_free(MfSchema *s) {
    for (int i = 0; i < s->n_cols; i++) {
        for (int k = 0; k < s->cols[i].depth; k++) free(s->cols[i].keys[k]);
        free(s->cols[i].keys);
        free(s->cols[i].name);
    }
    free(s->cols);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

static uint64_t hash_name(const char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

/* The column named p[0..n), or -1. */
static int find_n(const MfSchema *s, const char *p, size_t n) {
    if (!s->hash_cap) return -1;
    size_t mask = (size_t)s->hash_cap - 1;
    for (size_t h = hash_name(p, n) & mask;; h = (h + 1) & mask) {
        int c = s->hash[h] - 1;
        if (c < 0) return -1;
        if (strlen(s->cols[c].name) == n && memcmp(s->cols[c].name, p, n) == 0) return c;
    }
}

int mf_find(const MfSchema *s, const char *name) { return find_n(s, name, strlen(name)); }

static void hash_put(MfSchema *s, int c) {
    size_t mask = (size_t)s->hash_cap - 1;
    const char *name = s->cols[c].name;
    size_t h = hash_name(name, strlen(name)) & mask;
    while (s->hash[h]) h = (h + 1) & mask;
    s->hash[h] = c + 1;
}

/* A new column for the path keys[0..depth) named name[0..n); its index, or -1 when out of
 * memory. */
static int add_column(MfSchema *s, const char *const *keys, int depth, const char *name, size_t n) {
    if (s->n_cols == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        MfColumn *c = realloc(s->cols, (size_t)cap * sizeof *c);
        if (!c) return -1;
        s->cols = c;
        s->cap = cap;
    }
    if ((s->n_cols + 1) * 2 > s->hash_cap) {
        int cap = s->hash_cap ? s->hash_cap * 2 : 64;
        int *h = calloc((size_t)cap, sizeof *h);
        if (!h) return -1;
        free(s->hash);
        s->hash = h;
        s->hash_cap = cap;
        for (int i = 0; i < s->n_cols; i++) hash_put(s, i);
    }
    MfColumn *c = &s->cols[s->n_cols];
    memset(c, 0, sizeof *c);
    c->name = malloc(n + 1);
    c->keys = calloc((size_t)depth, sizeof *c->keys);
    if (!c->name || !c->keys) {
        free(c->name);
        free(c->keys);
        return -1;
    }
    memcpy(c->name, name, n);
    c->name[n] = 0;
    for (int k = 0; k < depth; k++)
        if (!(c->keys[k] = strdup(keys[k]))) {
            for (int j = 0; j < k; j++) free(c->keys[j]);
            free(c->keys);
            free(c->name);
            return -1;
        }
    c->depth = depth;
    c->type = TY_TEXT;
    hash_put(s, s->n_cols);
    return s->n_cols++;
}

static bool same_path(const MfColumn *c, const char *const *keys, int depth) {
    if (c->depth != depth) return false;
    for (int k = 0; k < depth; k++)
        if (strcmp(c->keys[k], keys[k]) != 0) return false;
    return true;
}

/* The MF_* bit of a BSON type; 0 for null and undefined (no value). */
static unsigned kind_of(bson_type_t t) {
    switch (t) {
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64: return MF_INT;
    case BSON_TYPE_DOUBLE:
    case BSON_TYPE_DECIMAL128: return MF_FLOAT;
    case BSON_TYPE_BOOL: return MF_BOOL;
    case BSON_TYPE_DATE_TIME: return MF_DATE;
    case BSON_TYPE_UTF8: return MF_STRING;
    case BSON_TYPE_OID: return MF_OID;
    case BSON_TYPE_ARRAY: return MF_ARRAY;
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED: return 0;
    default: return MF_OTHER;
    }
}

RxType mf_type(unsigned seen) {
    if (seen == MF_INT) return TY_INT;
    if (seen && (seen & ~(unsigned)(MF_INT | MF_FLOAT)) == 0) return TY_FLOAT;
    if (seen == MF_BOOL) return TY_BOOL;
    if (seen == MF_DATE) return TY_TIMESTAMP;
    return TY_TEXT;
}

void mf_finish(MfSchema *s) {
    for (int i = 0; i < s->n_cols; i++) s->cols[i].type = mf_type(s->cols[i].seen);
}

const char *mf_bson_type_name(bson_type_t t) {
    switch (t) {
    case BSON_TYPE_DOUBLE: return "double";
    case BSON_TYPE_UTF8: return "string";
    case BSON_TYPE_DOCUMENT: return "document";
    case BSON_TYPE_ARRAY: return "array";
    case BSON_TYPE_BINARY: return "binary";
    case BSON_TYPE_UNDEFINED: return "undefined";
    case BSON_TYPE_OID: return "ObjectId";
    case BSON_TYPE_BOOL: return "bool";
    case BSON_TYPE_DATE_TIME: return "Date";
    case BSON_TYPE_NULL: return "null";
    case BSON_TYPE_REGEX: return "regex";
    case BSON_TYPE_DBPOINTER: return "DBPointer";
    case BSON_TYPE_CODE: return "JavaScript code";
    case BSON_TYPE_SYMBOL: return "symbol";
    case BSON_TYPE_CODEWSCOPE: return "JavaScript code with scope";
    case BSON_TYPE_INT32: return "int32";
    case BSON_TYPE_TIMESTAMP: return "Timestamp";
    case BSON_TYPE_INT64: return "int64";
    case BSON_TYPE_DECIMAL128: return "decimal128";
    case BSON_TYPE_MAXKEY: return "MaxKey";
    case BSON_TYPE_MINKEY: return "MinKey";
    case BSON_TYPE_EOD: break;
    }
    return "unknown BSON type";
}

/* A walk over one document's leaves: the current path and its name. */
typedef struct {
    const char *keys[MF_MAX_DEPTH];
    int depth;
    StrBuf name;
} Path;

/* Appends key to the path's name (with a '.' before it below the top). */
static void path_push(Path *p, const char *key) {
    p->keys[p->depth++] = key;
    if (p->depth > 1) sb_putc(&p->name, '.');
    sb_puts(&p->name, key);
}

static int observe_doc(MfSchema *s, bson_iter_t *it, Path *p, RxError *err) {
    while (bsonlib.bson_iter_next(it)) {
        size_t saved = p->name.n;
        if (p->depth >= MF_MAX_DEPTH)
            return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "a document nests deeper than %d levels at '%s'",
                            MF_MAX_DEPTH, p->name.p ? p->name.p : "");
        path_push(p, bsonlib.bson_iter_key(it));
        if (p->name.oom) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        bson_type_t t = bsonlib.bson_iter_type(it);
        if (t == BSON_TYPE_DOCUMENT) {
            bson_iter_t child;
            if (!bsonlib.bson_iter_recurse(it, &child))
                return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "field '%s' is a malformed document", p->name.p);
            if (observe_doc(s, &child, p, err) < 0) return -1;
        } else {
            int c = find_n(s, p->name.p, p->name.n);
            if (c >= 0 && !same_path(&s->cols[c], p->keys, p->depth))
                return rx_error(err, RX_ETYPE, NULL, rx_span(0, 0),
                                "two fields spell the column name '%s' (a key with a '.' in it and a nested field)",
                                p->name.p);
            if (c < 0 && (c = add_column(s, p->keys, p->depth, p->name.p, p->name.n)) < 0)
                return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
            s->cols[c].seen |= kind_of(t);
        }
        p->depth--;
        p->name.n = saved;
        if (p->name.p) p->name.p[saved] = 0;
    }
    return 0;
}

int mf_observe(MfSchema *s, const bson_t *doc, RxError *err) {
    if (mf_bson_load(err) < 0) return -1;
    bson_iter_t it;
    if (!bsonlib.bson_iter_init(&it, doc)) return rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "a malformed BSON document");
    Path p = {.depth = 0};
    sb_init(&p.name);
    sb_puts(&p.name, "");
    int rc = observe_doc(s, &it, &p, err);
    sb_free(&p.name);
    if (rc == 0) s->n_docs++;
    return rc;
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void json_string(StrBuf *out, const char *s, size_t n) {
    sb_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') sb_printf(out, "\\%c", c);
        else if (c == '\n') sb_puts(out, "\\n");
        else if (c == '\t') sb_puts(out, "\\t");
        else if (c == '\r') sb_puts(out, "\\r");
        else if (c < 0x20) sb_printf(out, "\\u%04x", c);
        else sb_putc(out, (char)c);
    }
    sb_putc(out, '"');
}

static void json_members(bson_iter_t *child, bool array, StrBuf *out, int depth);

static void json_value(const bson_iter_t *it, StrBuf *out, int depth) {
    char buf[TM_BUF > NUM_BUF ? TM_BUF : NUM_BUF];
    switch (bsonlib.bson_iter_type(it)) {
    case BSON_TYPE_INT32: sb_printf(out, "%d", bsonlib.bson_iter_int32(it)); return;
    case BSON_TYPE_INT64: sb_printf(out, "%lld", (long long)bsonlib.bson_iter_int64(it)); return;
    case BSON_TYPE_DOUBLE: {
        double d = bsonlib.bson_iter_double(it);
        num_format_double(d, buf);
        if (d != d || d - d != 0) json_string(out, buf, strlen(buf)); /* JSON has no NaN or infinity */
        else sb_puts(out, buf);
        return;
    }
    case BSON_TYPE_BOOL: sb_puts(out, bsonlib.bson_iter_bool(it) ? "true" : "false"); return;
    case BSON_TYPE_NULL:
    case BSON_TYPE_UNDEFINED: sb_puts(out, "null"); return;
    case BSON_TYPE_UTF8: {
        uint32_t n;
        const char *s = bsonlib.bson_iter_utf8(it, &n);
        json_string(out, s, n);
        return;
    }
    case BSON_TYPE_OID: {
        char hex[25];
        bsonlib.bson_oid_to_string(bsonlib.bson_iter_oid(it), hex);
        json_string(out, hex, 24);
        return;
    }
    case BSON_TYPE_DATE_TIME: {
        int64_t ms = bsonlib.bson_iter_date_time(it), us;
        if (__builtin_mul_overflow(ms, 1000, &us)) sb_printf(out, "%lld", (long long)ms);
        else tm_format_timestamp(us, buf), json_string(out, buf, strlen(buf));
        return;
    }
    case BSON_TYPE_DECIMAL128: {
        bson_decimal128_t dec;
        char s[BSON_DECIMAL128_STRING];
        bsonlib.bson_iter_decimal128(it, &dec);
        bsonlib.bson_decimal128_to_string(&dec, s);
        json_string(out, s, strlen(s));
        return;
    }
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
        bson_iter_t child;
        bool array = bsonlib.bson_iter_type(it) == BSON_TYPE_ARRAY;
        if (depth >= MF_MAX_DEPTH || !bsonlib.bson_iter_recurse(it, &child)) {
            sb_puts(out, "null");
            return;
        }
        json_members(&child, array, out, depth + 1);
        return;
    }
    default: {
        /* MongoDB's relaxed extended JSON of a one-field document, without the field */
        bson_t one = BSON_INITIALIZER;
        if (!bsonlib.bson_append_iter(&one, "v", 1, it)) {
            sb_puts(out, "null");
            bsonlib.bson_destroy(&one);
            return;
        }
        size_t n = 0;
        char *j = bsonlib.bson_as_relaxed_extended_json(&one, &n);
        const char *v = j ? strstr(j, "\"v\" : ") : NULL;
        if (v && n >= 2 && j[n - 1] == '}') {
            v += 6;
            size_t len = (size_t)(j + n - 1 - v);
            while (len && v[len - 1] == ' ') len--;
            sb_append(out, v, len);
        } else {
            sb_puts(out, "null");
        }
        bsonlib.bson_free(j);
        bsonlib.bson_destroy(&one);
        return;
    }
    }
}

static void json_members(bson_iter_t *child, bool array, StrBuf *out, int depth) {
    sb_putc(out, array ? '[' : '{');
    bool first = true;
    while (bsonlib.bson_iter_next(child)) {
        if (!first) sb_puts(out, ", ");
        first = false;
        if (!array) {
            const char *k = bsonlib.bson_iter_key(child);
            json_string(out, k, strlen(k));
            sb_puts(out, ": ");
        }
        json_value(child, out, depth);
    }
    sb_putc(out, array ? ']' : '}');
}

void mf_json(const bson_iter_t *it, StrBuf *out) { json_value(it, out, 0); }

/* ---- reading ------------------------------------------------------------------------------- */

typedef struct {
    const MfSchema *s;
    const int *slot;
    int n;
    ColBuilder *b;
    uint8_t *filled;   /* per builder */
    size_t row;
    bool strict;
    StrBuf text;       /* scratch for a TEXT value */
    RxError *err;
} Reader;

static int bad(Reader *r, const char *col, RxType t, bson_type_t bt, const char *why) {
    return rx_error(r->err, RX_ETYPE, NULL, rx_span(0, 0), "column '%s' (%s), document %zu: a %s value%s%s", col,
                    type_name(t), r->row + 1, mf_bson_type_name(bt), why ? " " : "", why ? why : "");
}

/* The value at it as column c's type, pushed to builder k. */
static int push_value(Reader *r, int c, int k, const bson_iter_t *it) {
    const MfColumn *col = &r->s->cols[c];
    ColBuilder *b = &r->b[k];
    bson_type_t bt = bsonlib.bson_iter_type(it);
    Value v = {.type = col->type};
    if (bt == BSON_TYPE_NULL || bt == BSON_TYPE_UNDEFINED) {
        colb_push_null(b);
        return 0;
    }
    switch (col->type) {
    case TY_INT:
        if (bt == BSON_TYPE_INT32) v.v.i = bsonlib.bson_iter_int32(it);
        else if (bt == BSON_TYPE_INT64) v.v.i = bsonlib.bson_iter_int64(it);
        else return bad(r, col->name, col->type, bt, "(the sample held only integers here)");
        break;
    case TY_FLOAT:
        if (bt == BSON_TYPE_DOUBLE) {
            v.v.f = bsonlib.bson_iter_double(it);
        } else if (bt == BSON_TYPE_INT32) {
            v.v.f = bsonlib.bson_iter_int32(it);
        } else if (bt == BSON_TYPE_INT64) {
            int64_t x = bsonlib.bson_iter_int64(it);
            v.v.f = (double)x;
            if (v.v.f >= 0x1p63 || (int64_t)v.v.f != x) {
                char num[32];
                snprintf(num, sizeof num, "%lld", (long long)x);
                return rx_error(r->err, RX_ETYPE, NULL, rx_span(0, 0),
                                "column '%s' (FLOAT), document %zu: the int64 %s is not exact as a FLOAT", col->name,
                                r->row + 1, num);
            }
        } else if (bt == BSON_TYPE_DECIMAL128) {
            bson_decimal128_t dec;
            char s[BSON_DECIMAL128_STRING];
            bsonlib.bson_iter_decimal128(it, &dec);
            bsonlib.bson_decimal128_to_string(&dec, s);
            v.v.f = strtod(s, NULL);   /* the nearest double; "Infinity" and "NaN" as such */
        } else {
            return bad(r, col->name, col->type, bt, "(the sample held only numbers here)");
        }
        break;
    case TY_BOOL:
        if (bt != BSON_TYPE_BOOL) return bad(r, col->name, col->type, bt, "(the sample held only booleans here)");
        v.v.b = bsonlib.bson_iter_bool(it);
        break;
    case TY_TIMESTAMP:
        if (bt != BSON_TYPE_DATE_TIME) return bad(r, col->name, col->type, bt, "(the sample held only Dates here)");
        if (__builtin_mul_overflow(bsonlib.bson_iter_date_time(it), 1000, &v.v.i))
            return bad(r, col->name, col->type, bt, "out of TIMESTAMP's range");
        break;
    default: {
        StrBuf *t = &r->text;
        t->n = 0;
        char buf[TM_BUF > NUM_BUF ? TM_BUF : NUM_BUF];
        if (bt == BSON_TYPE_UTF8) {
            uint32_t n;
            const char *s = bsonlib.bson_iter_utf8(it, &n);
            if (!bsonlib.bson_utf8_validate(s, n, true)) return bad(r, col->name, col->type, bt, "that is not valid UTF-8");
            sb_append(t, s, n);
        } else if (bt == BSON_TYPE_INT32) {
            sb_printf(t, "%d", bsonlib.bson_iter_int32(it));
        } else if (bt == BSON_TYPE_INT64) {
            sb_printf(t, "%lld", (long long)bsonlib.bson_iter_int64(it));
        } else if (bt == BSON_TYPE_DOUBLE) {
            num_format_double(bsonlib.bson_iter_double(it), buf);
            sb_puts(t, buf);
        } else if (bt == BSON_TYPE_BOOL) {
            sb_puts(t, bsonlib.bson_iter_bool(it) ? "true" : "false");
        } else if (bt == BSON_TYPE_OID) {
            char hex[25];
            bsonlib.bson_oid_to_string(bsonlib.bson_iter_oid(it), hex);
            sb_puts(t, hex);
        } else if (bt == BSON_TYPE_DECIMAL128) {
            bson_decimal128_t dec;
            char s[BSON_DECIMAL128_STRING];
            bsonlib.bson_iter_decimal128(it, &dec);
            bsonlib.bson_decimal128_to_string(&dec, s);
            sb_puts(t, s);
        } else if (bt == BSON_TYPE_DATE_TIME) {
            int64_t us;
            if (__builtin_mul_overflow(bsonlib.bson_iter_date_time(it), 1000, &us))
                return bad(r, col->name, col->type, bt, "out of TIMESTAMP's range");
            tm_format_timestamp(us, buf);
            sb_puts(t, buf);
        } else {
            mf_json(it, t);
        }
        if (t->oom) return rx_error(r->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        v.v.s.ptr = t->p ? t->p : "";
        v.v.s.len = t->n;
        break;
    }
    }
    colb_push(b, &v);
    return 0;
}

/* Whether the top-level key holds a column that is read. */
static bool key_read(const Reader *r, const char *key) {
    for (int c = 0; c < r->s->n_cols; c++)
        if (r->slot[c] >= 0 && strcmp(r->s->cols[c].keys[0], key) == 0) return true;
    return false;
}

static int read_doc(Reader *r, bson_iter_t *it, Path *p) {
    while (bsonlib.bson_iter_next(it)) {
        size_t saved = p->name.n;
        if (p->depth >= MF_MAX_DEPTH)
            return rx_error(r->err, RX_EVALUE, NULL, rx_span(0, 0), "document %zu nests deeper than %d levels at '%s'",
                            r->row + 1, MF_MAX_DEPTH, p->name.p ? p->name.p : "");
        path_push(p, bsonlib.bson_iter_key(it));
        if (p->name.oom) return rx_error(r->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
        bson_type_t t = bsonlib.bson_iter_type(it);
        if (t == BSON_TYPE_DOCUMENT) {
            bson_iter_t child;
            if (!bsonlib.bson_iter_recurse(it, &child))
                return rx_error(r->err, RX_EVALUE, NULL, rx_span(0, 0), "document %zu: field '%s' is malformed",
                                r->row + 1, p->name.p);
            if (read_doc(r, &child, p) < 0) return -1;
        } else {
            int c = find_n(r->s, p->name.p, p->name.n);
            if (c >= 0 && !same_path(&r->s->cols[c], p->keys, p->depth)) c = -1;
            if (c < 0) {
                if (r->strict && t != BSON_TYPE_NULL && t != BSON_TYPE_UNDEFINED &&
                    (r->n == r->s->n_cols || key_read(r, p->keys[0])))
                    return rx_error(r->err, RX_ETYPE, NULL, rx_span(0, 0),
                                    "document %zu has the field '%s', which the documents the schema was inferred "
                                    "from lack (infer it from more of them: ?sample=N or ?sample=all)",
                                    r->row + 1, p->name.p);
            } else if (r->slot[c] >= 0) {
                int k = r->slot[c];
                if (r->filled[k])
                    return rx_error(r->err, RX_EVALUE, NULL, rx_span(0, 0), "document %zu has the field '%s' twice",
                                    r->row + 1, p->name.p);
                r->filled[k] = 1;
                if (push_value(r, c, k, it) < 0) return -1;
            }
        }
        p->depth--;
        p->name.n = saved;
        if (p->name.p) p->name.p[saved] = 0;
    }
    return 0;
}

int mf_read(const MfSchema *s, const bson_t *doc, size_t row, const int *slot, int n, ColBuilder *b, bool strict,
            RxError *err) {
    if (mf_bson_load(err) < 0) return -1;
    uint8_t small[256];
    uint8_t *filled = n <= (int)sizeof small ? small : calloc((size_t)n, 1);
    if (!filled) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    memset(filled, 0, (size_t)n < sizeof small ? (size_t)n : sizeof small);
    Reader r = {.s = s, .slot = slot, .n = n, .b = b, .filled = filled, .row = row, .strict = strict, .err = err};
    sb_init(&r.text);
    Path p = {.depth = 0};
    sb_init(&p.name);
    sb_puts(&p.name, "");
    bson_iter_t it;
    int rc = bsonlib.bson_iter_init(&it, doc) ? read_doc(&r, &it, &p)
                                      : rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "document %zu is malformed BSON", row + 1);
    for (int k = 0; rc == 0 && k < n; k++)
        if (!filled[k]) colb_push_null(&b[k]);
    sb_free(&p.name);
    sb_free(&r.text);
    if (filled != small) free(filled);
    return rc;
}
