/*
 * session_arrow.c - Arrow C data interface arrays in and out (session_arrow.h), after the
 * specification at arrow.apache.org/docs/format/CDataInterface.html.
 *
 * In: each child of a struct array becomes a column. Where the child's layout is Relix's
 * (int64, double, date32, timestamp and time64 in microseconds) the column borrows the buffer
 * at the row offset; other widths and units are converted into a column of Relix's own. Text
 * (utf8, large_utf8, and either as dictionary values) keeps a 16-byte slice per row pointing
 * into the array's bytes. Validity bitmaps are copied into Relix's word bitmaps.
 *
 * Out: every buffer is a malloc'd copy owned by the exported array, so that the consumer may
 * keep it after the result is gone; the release callbacks free exactly what was allocated,
 * children included, and mark the struct released.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/session_arrow.h"

/* ---- import --------------------------------------------------------------------------------- */

/* Relix's validity words for n rows of an Arrow bitmap starting at bit off (copied), NULL when
 * bits is NULL or every row is valid; *oom on failure. */
static uint64_t *import_validity(const uint8_t *bits, int64_t off, size_t n, bool *oom) {
    *oom = false;
    if (!bits || n == 0) return NULL;
    size_t words = bitmap_words(n);
    uint64_t *w = rx_calloc(words, sizeof *w);
    if (!w) {
        *oom = true;
        return NULL;
    }
    if (off % 8 == 0) {
        memcpy(w, bits + off / 8, (n + 7) / 8);
        if (n % 64) w[n / 64] &= (UINT64_C(1) << (n % 64)) - 1;
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t b = (size_t)off + i;
            if (bits[b / 8] >> (b % 8) & 1) w[i / 64] |= UINT64_C(1) << (i % 64);
        }
    }
    size_t set = 0;
    for (size_t i = 0; i < words; i++) set += (size_t)__builtin_popcountll(w[i]);
    if (set == n) {
        rx_free(w);
        return NULL;
    }
    return w;
}

/* Whether p[0..n) is valid UTF-8. */
static bool utf8_valid(const char *p, size_t n) {
    for (size_t i = 0; i < n;) {
        if ((unsigned char)p[i] < 0x80) {
            i++;
            continue;
        }
        int k = utf8_seq_len((const unsigned char *)p + i, n - i);
        if (k <= 0) return false;
        i += (size_t)k;
    }
    return true;
}

/* Element i of an integer buffer of Arrow format letter f (c C s S i I l L), widened. */
static bool int_at(char f, const void *buf, size_t i, int64_t *out) {
    switch (f) {
    case 'c': *out = ((const int8_t *)buf)[i]; return true;
    case 'C': *out = ((const uint8_t *)buf)[i]; return true;
    case 's': *out = ((const int16_t *)buf)[i]; return true;
    case 'S': *out = ((const uint16_t *)buf)[i]; return true;
    case 'i': *out = ((const int32_t *)buf)[i]; return true;
    case 'I': *out = ((const uint32_t *)buf)[i]; return true;
    case 'l': *out = ((const int64_t *)buf)[i]; return true;
    case 'L': {
        uint64_t v = ((const uint64_t *)buf)[i];
        *out = (int64_t)v;
        return v <= (uint64_t)INT64_MAX;
    }
    default: return false;
    }
}

typedef struct {
    const char *rel, *col;
    RxError *err;
} Where;

static Column *bad(const Where *w, RxErrCode code, const char *what, size_t row) {
    if (row) rx_error(w->err, code, NULL, rx_span(0, 0), "Arrow column '%s' of '%s' %s at row %zu", w->col, w->rel, what, row);
    else rx_error(w->err, code, NULL, rx_span(0, 0), "Arrow column '%s' of '%s' %s", w->col, w->rel, what);
    return NULL;
}

static Column *oom(const Where *w) {
    rx_error(w->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory importing '%s'", w->rel);
    return NULL;
}

/* A text column of n rows whose row i is bytes [offs[i], offs[i + 1]) of data (offsets 32- or
 * 64-bit: wide), or, with codes (an integer buffer of format letter cf), the dictionary value
 * codes[i]; the bytes are borrowed. valid: the rows' validity words (taken over) or NULL. */
static Column *import_text(const Where *w, const void *offs, bool wide, const char *data, size_t n_vals,
                           const void *codes, char cf, size_t n, uint64_t *valid) {
    size_t bytes = 0;
    if (n_vals) bytes = (size_t)(wide ? ((const int64_t *)offs)[n_vals] : ((const int32_t *)offs)[n_vals]);
    StrHeap *h = heap_borrow(data ? data : "", bytes);
    Column *col = h ? col_new(TY_TEXT, n) : NULL;
    if (!col || col_add_heap(col, h) < 0) {
        heap_release(h);
        col_release(col);
        rx_free(valid);
        return oom(w);
    }
    heap_release(h);
    col->valid = valid;
    RxStr *sl = col_str(col);
    RxStr *dict = NULL;
    if (codes) {
        dict = rx_malloc((n_vals ? n_vals : 1) * sizeof *dict);
        if (!dict) {
            col_release(col);
            return oom(w);
        }
    }
    size_t n_slices = codes ? n_vals : n;
    RxStr *into = codes ? dict : sl;
    for (size_t i = 0; i < n_slices; i++) {
        int64_t a = wide ? ((const int64_t *)offs)[i] : ((const int32_t *)offs)[i];
        int64_t b = wide ? ((const int64_t *)offs)[i + 1] : ((const int32_t *)offs)[i + 1];
        if (!codes && valid && !bitmap_get(valid, i)) {
            into[i] = (RxStr){"", 0};
            continue;
        }
        if (a < 0 || b < a || (size_t)b > bytes) {
            rx_free(dict);
            col_release(col);
            return bad(w, RX_EVALUE, codes ? "has dictionary offsets out of order" : "has offsets out of order", i + 1);
        }
        if (!utf8_valid(data + a, (size_t)(b - a))) {
            rx_free(dict);
            col_release(col);
            return bad(w, RX_EVALUE, codes ? "has invalid UTF-8 in its dictionary" : "has invalid UTF-8", i + 1);
        }
        into[i] = (RxStr){data + a, (uint64_t)(b - a)};
    }
    if (codes) {
        for (size_t i = 0; i < n; i++) {
            int64_t k = 0;
            if (valid && !bitmap_get(valid, i)) {
                sl[i] = (RxStr){"", 0};
                continue;
            }
            if (!int_at(cf, codes, i, &k) || k < 0 || (size_t)k >= n_vals) {
                rx_free(dict);
                col_release(col);
                return bad(w, RX_EVALUE, "has a dictionary index out of range", i + 1);
            }
            sl[i] = dict[k];
        }
        rx_free(dict);
    }
    return col;
}

/* The unit letter of a time format (s m u n) as units per second; 0 for another letter. */
static int64_t unit_per_s(char u) {
    switch (u) {
    case 's': return 1;
    case 'm': return 1000;
    case 'u': return 1000000;
    case 'n': return 1000000000;
    default: return 0;
    }
}

/* Column of child (cs, ca) for rows [off, off + n) of its buffers, or NULL with w->err. */
static Column *import_column(const Where *w, const struct ArrowSchema *cs, const struct ArrowArray *ca,
                             int64_t off, size_t n) {
    const char *f = cs->format;
    if (!f || !ca->buffers) return bad(w, RX_EVALUE, "has no format or no buffers", 0);
    if (off < 0 || ca->length < 0 || (uint64_t)ca->length + (uint64_t)ca->offset < (uint64_t)off + n)
        return bad(w, RX_EVALUE, "is shorter than its record batch", 0);
    bool is_oom;
    const uint8_t *bits = ca->null_count != 0 && ca->n_buffers > 0 ? ca->buffers[0] : NULL;
    uint64_t *valid = import_validity(bits, off, n, &is_oom);
    if (is_oom) return oom(w);
    const void *b1 = ca->n_buffers > 1 ? ca->buffers[1] : NULL;
    Column *col = NULL;
    if (cs->dictionary) {
        const struct ArrowSchema *ds = cs->dictionary;
        const struct ArrowArray *da = ca->dictionary;
        bool wide = ds->format && strcmp(ds->format, "U") == 0;
        if (!da || !ds->format || (!wide && strcmp(ds->format, "u") != 0) || strlen(f) != 1 || !strchr("cCsSiIlL", f[0])) {
            rx_free(valid);
            return bad(w, RX_EUNSUPPORTED, "is dictionary-encoded with values other than utf8 or large_utf8", 0);
        }
        if (da->n_buffers < 3 || da->length < 0 || da->null_count != 0 || (da->length > 0 && (!da->buffers[1] || !da->buffers[2]))) {
            rx_free(valid);
            return bad(w, RX_EVALUE, "has a dictionary without buffers or with NULL values", 0);
        }
        if (n > 0 && !b1) {
            rx_free(valid);
            return bad(w, RX_EVALUE, "has no index buffer", 0);
        }
        size_t width = f[0] == 'c' || f[0] == 'C' ? 1 : f[0] == 's' || f[0] == 'S' ? 2 : f[0] == 'i' || f[0] == 'I' ? 4 : 8;
        const char *offs = (const char *)da->buffers[1] + (size_t)da->offset * (wide ? 8 : 4);
        return import_text(w, offs, wide, da->buffers[2], (size_t)da->length,
                           b1 ? (const char *)b1 + (size_t)off * width : NULL, f[0], n, valid);
    }
    if (n > 0 && !b1 && strcmp(f, "n") != 0) {
        rx_free(valid);
        return bad(w, RX_EVALUE, "has no data buffer", 0);
    }
    size_t o = (size_t)off;
    if (strcmp(f, "l") == 0) {
        col = col_borrow(TY_INT, n, (const int64_t *)b1 + o);
    } else if (strlen(f) == 1 && strchr("cCsSiIL", f[0])) {
        if ((col = col_new(TY_INT, n)))
            for (size_t i = 0; i < n; i++)
                if (!int_at(f[0], b1, o + i, &col_i64(col)[i]) && !(valid && !bitmap_get(valid, i))) {
                    col_release(col);
                    rx_free(valid);
                    return bad(w, RX_EVALUE, "has a uint64 beyond the int64 range", i + 1);
                }
    } else if (strcmp(f, "g") == 0) {
        col = col_borrow(TY_FLOAT, n, (const double *)b1 + o);
    } else if (strcmp(f, "f") == 0) {
        if ((col = col_new(TY_FLOAT, n)))
            for (size_t i = 0; i < n; i++) col_f64(col)[i] = ((const float *)b1)[o + i];
    } else if (strcmp(f, "b") == 0) {
        if ((col = col_new(TY_BOOL, n)))
            for (size_t i = 0; i < n; i++) col_u8(col)[i] = ((const uint8_t *)b1)[(o + i) / 8] >> ((o + i) % 8) & 1;
    } else if (strcmp(f, "u") == 0 || strcmp(f, "U") == 0) {
        bool wide = f[0] == 'U';
        if (ca->n_buffers < 3 || (n > 0 && !ca->buffers[2])) {
            rx_free(valid);
            return bad(w, RX_EVALUE, "has no text buffer", 0);
        }
        return import_text(w, (const char *)b1 + o * (wide ? 8 : 4), wide, ca->buffers[2], n, NULL, 0, n, valid);
    } else if (strcmp(f, "tdD") == 0) {
        col = col_borrow(TY_DATE, n, (const int32_t *)b1 + o);
    } else if (strcmp(f, "tdm") == 0) {
        if ((col = col_new(TY_DATE, n)))
            for (size_t i = 0; i < n; i++) {
                int64_t ms = ((const int64_t *)b1)[o + i];
                if (valid && !bitmap_get(valid, i)) ms = 0;
                if (ms % 86400000 != 0 || ms / 86400000 > INT32_MAX || ms / 86400000 < INT32_MIN) {
                    col_release(col);
                    rx_free(valid);
                    return bad(w, RX_EVALUE, "has a date64 that is not a whole day", i + 1);
                }
                col_i32(col)[i] = (int32_t)(ms / 86400000);
            }
    } else if ((strncmp(f, "ts", 2) == 0 && strlen(f) >= 4 && f[3] == ':') ||
               (strncmp(f, "tt", 2) == 0 && strlen(f) == 3) || (strncmp(f, "tD", 2) == 0 && strlen(f) == 3)) {
        /* timestamp (any zone: the values are UTC instants, a zone-less one taken as UTC),
         * time of day, duration */
        RxType t = f[1] == 's' ? TY_TIMESTAMP : f[1] == 't' ? TY_TIME : TY_DURATION;
        int64_t u = unit_per_s(f[2]);
        if (!u) {
            rx_free(valid);
            return bad(w, RX_EUNSUPPORTED, "has an unknown time unit", 0);
        }
        bool narrow = t == TY_TIME && u <= 1000;   /* time32 */
        if (u == 1000000 && t != TY_DURATION) {
            col = col_borrow(t, n, (const int64_t *)b1 + o);
        } else if ((col = col_new(t, n))) {
            for (size_t i = 0; i < n; i++) {
                int64_t v = narrow ? ((const int32_t *)b1)[o + i] : ((const int64_t *)b1)[o + i], us;
                if (valid && !bitmap_get(valid, i)) v = 0;
                if (u == 1000000000) {
                    if (v % 1000 != 0) {
                        col_release(col);
                        rx_free(valid);
                        return bad(w, RX_EVALUE, "has nanoseconds that are not a whole microsecond (Relix keeps microseconds)", i + 1);
                    }
                    us = v / 1000;
                } else if (__builtin_mul_overflow(v, 1000000 / u, &us)) {
                    col_release(col);
                    rx_free(valid);
                    return bad(w, RX_EVALUE, "overflows in microseconds", i + 1);
                }
                if (t == TY_DURATION) col_dur(col)[i] = (RxDuration){0, us};
                else col_i64(col)[i] = us;
            }
        }
    } else {
        rx_free(valid);
        char what[96];
        snprintf(what, sizeof what, "has Arrow format '%.20s', which Relix cannot take", f);
        return bad(w, RX_EUNSUPPORTED, what, 0);
    }
    if (!col) {
        rx_free(valid);
        return oom(w);
    }
    col->valid = valid;
    return col;
}

Table *arrow_import(const struct ArrowSchema *schema, const struct ArrowArray *array, const char *rel,
                    RxError *err) {
    Where w = {rel, "", err};
    if (!schema || !array || !schema->release || !array->release) {
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "'%s': the Arrow schema or array is missing or released", rel);
        return NULL;
    }
    if (!schema->format || strcmp(schema->format, "+s") != 0 || schema->n_children != array->n_children ||
        schema->n_children <= 0 || schema->n_children > 65535 || !schema->children || !array->children) {
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0),
                 "'%s': an Arrow record batch is expected (a struct array, format '+s', with a child per column)", rel);
        return NULL;
    }
    if (array->null_count != 0 && array->n_buffers > 0 && array->buffers && array->buffers[0]) {
        rx_error(err, RX_EVALUE, NULL, rx_span(0, 0), "'%s': the Arrow record batch has NULL rows", rel);
        return NULL;
    }
    if (array->length < 0 || (uint64_t)array->length > RX_MAX_ROWS) {
        rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0), "'%s' has %lld rows; a relation holds at most %u", rel,
                 (long long)array->length, (unsigned)RX_MAX_ROWS);
        return NULL;
    }
    size_t n = (size_t)array->length;
    int nc = (int)schema->n_children;
    Table *t = table_new(nc, n);
    if (!t) {
        oom(&w);
        return NULL;
    }
    for (int j = 0; j < nc; j++) {
        const struct ArrowSchema *cs = schema->children[j];
        const struct ArrowArray *ca = array->children[j];
        char label[32];
        snprintf(label, sizeof label, "%d", j + 1);
        w.col = cs && cs->name && *cs->name ? cs->name : label;
        if (!cs || !ca) {
            bad(&w, RX_EVALUE, "is missing", 0);
            table_free(t);
            return NULL;
        }
        if (!cs->name || !*cs->name) {
            bad(&w, RX_EVALUE, "has no name", 0);
            table_free(t);
            return NULL;
        }
        for (int k = 0; k < j; k++)
            if (strcmp(schema->children[k]->name, cs->name) == 0) {
                rx_error(err, RX_ENAME, NULL, rx_span(0, 0), "'%s' has two columns named '%s'", rel, cs->name);
                table_free(t);
                return NULL;
            }
        Column *c = import_column(&w, cs, ca, array->offset + ca->offset, n);
        if (!c) {
            table_free(t);
            return NULL;
        }
        if (table_set(t, j, c, cs->name) < 0) {
            col_release(c);
            table_free(t);
            oom(&w);
            return NULL;
        }
    }
    return t;
}

/* ---- export --------------------------------------------------------------------------------- */

/* What an exported array owns: its buffers and its children (each malloc'd). */
typedef struct {
    const void *buffers[3];
    void *owned[3];
    struct ArrowArray **children;
    int64_t n_children;
} ExpArray;

typedef struct {
    char *format, *name;
    struct ArrowSchema **children;
    int64_t n_children;
} ExpSchema;

static void release_array(struct ArrowArray *a) {
    if (!a || !a->release) return;
    ExpArray *p = a->private_data;
    for (int64_t i = 0; i < p->n_children; i++) {
        struct ArrowArray *c = p->children[i];
        if (c && c->release) c->release(c);
        free(c);
    }
    free(p->children);
    for (int i = 0; i < 3; i++) free(p->owned[i]);
    free(p);
    a->release = NULL;
}

static void release_schema(struct ArrowSchema *s) {
    if (!s || !s->release) return;
    ExpSchema *p = s->private_data;
    for (int64_t i = 0; i < p->n_children; i++) {
        struct ArrowSchema *c = p->children[i];
        if (c && c->release) c->release(c);
        free(c);
    }
    free(p->children);
    free(p->format);
    free(p->name);
    free(p);
    s->release = NULL;
}

/* An exported schema node of format and name (copied) with n children slots (zeroed); -1 on
 * OOM (nothing left allocated). */
static int schema_node(struct ArrowSchema *s, const char *format, const char *name, int64_t n, bool nullable) {
    memset(s, 0, sizeof *s);
    ExpSchema *p = calloc(1, sizeof *p);
    if (!p) return -1;
    p->format = strdup(format);
    p->name = strdup(name ? name : "");
    p->children = n ? calloc((size_t)n, sizeof *p->children) : NULL;
    if (!p->format || !p->name || (n && !p->children)) {
        free(p->format);
        free(p->name);
        free(p->children);
        free(p);
        return -1;
    }
    p->n_children = n;
    s->format = p->format;
    s->name = p->name;
    s->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
    s->n_children = n;
    s->children = p->children;
    s->private_data = p;
    s->release = release_schema;
    return 0;
}

/* An exported array node of length n with n_buffers buffer slots and n_children children slots
 * (zeroed); -1 on OOM. */
static int array_node(struct ArrowArray *a, size_t n, int64_t n_buffers, int64_t n_children) {
    memset(a, 0, sizeof *a);
    ExpArray *p = calloc(1, sizeof *p);
    if (!p) return -1;
    p->children = n_children ? calloc((size_t)n_children, sizeof *p->children) : NULL;
    if (n_children && !p->children) {
        free(p);
        return -1;
    }
    p->n_children = n_children;
    a->length = (int64_t)n;
    a->n_buffers = n_buffers;
    a->n_children = n_children;
    a->buffers = p->buffers;
    a->children = p->children;
    a->private_data = p;
    a->release = release_array;
    return 0;
}

/* A malloc'd copy of n bytes of src (at least one byte allocated), owned by slot k of a. */
static void *own(struct ArrowArray *a, int k, const void *src, size_t n) {
    ExpArray *p = a->private_data;
    void *d = malloc(n ? n : 1);
    if (!d) return NULL;
    if (src && n) memcpy(d, src, n);
    p->owned[k] = d;
    p->buffers[k] = d;
    return d;
}

/* Exports column c (n rows) named name into (s, a); -1 on OOM or a DURATION with months, with
 * whatever was made released. */
static int export_column(const Column *c, const char *name, size_t n, struct ArrowSchema *s, struct ArrowArray *a) {
    const char *fmt;
    switch (c->type) {
    case TY_INT: fmt = "l"; break;
    case TY_FLOAT: fmt = "g"; break;
    case TY_BOOL: fmt = "b"; break;
    case TY_TIMESTAMP: fmt = "tsu:UTC"; break;
    case TY_DATE: fmt = "tdD"; break;
    case TY_TIME: fmt = "ttu"; break;
    case TY_DURATION: fmt = "tDu"; break;
    case TY_NULL: fmt = "n"; break;
    default: fmt = "u"; break;
    }
    size_t bytes = 0;
    if (c->type == TY_TEXT) {
        for (size_t i = 0; i < n; i++)
            if (!col_is_null(c, i)) bytes += col_text(c, i).len;
        if (bytes > (size_t)INT32_MAX) fmt = "U";
    }
    if (c->type == TY_DURATION)
        for (size_t i = 0; i < n; i++)
            if (!col_is_null(c, i) && col_dur(c)[i].months != 0) return -1;   /* no Arrow duration has months */
    if (schema_node(s, fmt, name, 0, true) < 0) return -1;
    int64_t nb = c->type == TY_NULL ? 0 : c->type == TY_TEXT ? 3 : 2;
    if (array_node(a, n, nb, 0) < 0) {
        release_schema(s);
        return -1;
    }
    size_t nulls = 0;
    if (c->type == TY_NULL) {
        a->null_count = (int64_t)n;
        return 0;
    }
    if (c->valid) {
        for (size_t i = 0; i < n; i++) nulls += !bitmap_get(c->valid, i);
        if (nulls && !own(a, 0, c->valid, (n + 7) / 8)) goto fail;
    }
    a->null_count = (int64_t)nulls;
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME:
        if (!own(a, 1, c->data, n * 8)) goto fail;
        break;
    case TY_FLOAT:
        if (!own(a, 1, c->data, n * 8)) goto fail;
        break;
    case TY_DATE:
        if (!own(a, 1, c->data, n * 4)) goto fail;
        break;
    case TY_DURATION: {
        int64_t *d = own(a, 1, NULL, n * 8);
        if (!d) goto fail;
        for (size_t i = 0; i < n; i++) d[i] = col_is_null(c, i) ? 0 : col_dur(c)[i].us;
        break;
    }
    case TY_BOOL: {
        uint8_t *d = own(a, 1, NULL, (n + 7) / 8);
        if (!d) goto fail;
        memset(d, 0, (n + 7) / 8 ? (n + 7) / 8 : 1);
        for (size_t i = 0; i < n; i++)
            if (col_u8(c)[i]) d[i / 8] |= (uint8_t)(1u << (i % 8));
        break;
    }
    default: {   /* TEXT */
        bool wide = fmt[0] == 'U';
        void *offs = own(a, 1, NULL, (n + 1) * (wide ? 8 : 4));
        char *data = offs ? own(a, 2, NULL, bytes) : NULL;
        if (!data) goto fail;
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            if (wide) ((int64_t *)offs)[i] = (int64_t)at;
            else ((int32_t *)offs)[i] = (int32_t)at;
            if (col_is_null(c, i)) continue;
            RxStr v = col_text(c, i);
            if (v.len) memcpy(data + at, v.ptr, v.len);
            at += v.len;
        }
        if (wide) ((int64_t *)offs)[n] = (int64_t)at;
        else ((int32_t *)offs)[n] = (int32_t)at;
        break;
    }
    }
    return 0;
fail:
    release_array(a);
    release_schema(s);
    return -1;
}

int arrow_export(const Table *t, int col, struct ArrowSchema *schema, struct ArrowArray *array) {
    memset(schema, 0, sizeof *schema);
    memset(array, 0, sizeof *array);
    size_t n = t->n_rows;
    if (col >= t->n_cols || col < -1) return -1;
    if (col >= 0) return export_column(t->cols[col], t->names[col], n, schema, array);
    int nc = t->n_cols;
    if (schema_node(schema, "+s", "", nc, false) < 0) return -1;
    if (array_node(array, n, 1, nc) < 0) {
        release_schema(schema);
        return -1;
    }
    ExpSchema *ps = schema->private_data;
    ExpArray *pa = array->private_data;
    for (int j = 0; j < nc; j++) {
        ps->children[j] = malloc(sizeof **ps->children);
        pa->children[j] = malloc(sizeof **pa->children);
        if (!ps->children[j] || !pa->children[j] ||
            export_column(t->cols[j], t->names[j], n, ps->children[j], pa->children[j]) < 0) {
            /* the release callbacks free every child made so far, this one included */
            if (ps->children[j]) ps->children[j]->release = NULL;
            if (pa->children[j]) pa->children[j]->release = NULL;
            release_array(array);
            release_schema(schema);
            return -1;
        }
    }
    return 0;
}
