/*
 * column.c - reference-counted columns, byte heaps, gathers and builders (column.h).
 */
#include "types/column.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "types/compare.h"
#include "types/temporal.h"

const char *type_name(RxType t) {
    switch (t) {
    case TY_NULL: return "NULL";
    case TY_INT: return "INT";
    case TY_FLOAT: return "FLOAT";
    case TY_BOOL: return "BOOL";
    case TY_TEXT: return "TEXT";
    case TY_TIMESTAMP: return "TIMESTAMP";
    case TY_DATE: return "DATE";
    case TY_TIME: return "TIME";
    case TY_DURATION: return "DURATION";
    }
    return "?";
}

int type_from_name(const char *s, size_t n, RxType *out) {
    static const struct { const char *name; RxType t; } names[] = {
        {"INT", TY_INT}, {"INTEGER", TY_INT}, {"BIGINT", TY_INT}, {"FLOAT", TY_FLOAT},
        {"DOUBLE", TY_FLOAT}, {"REAL", TY_FLOAT}, {"BOOL", TY_BOOL}, {"BOOLEAN", TY_BOOL},
        {"TEXT", TY_TEXT}, {"VARCHAR", TY_TEXT}, {"STRING", TY_TEXT},
        {"TIMESTAMP", TY_TIMESTAMP}, {"DATE", TY_DATE}, {"TIME", TY_TIME},
        {"DURATION", TY_DURATION}, {"INTERVAL", TY_DURATION},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(names); i++) {
        const char *k = names[i].name;
        if (strlen(k) != n) continue;
        size_t j = 0;
        while (j < n && (s[j] & ~0x20) == k[j]) j++;
        if (j == n) {
            *out = names[i].t;
            return 0;
        }
    }
    return -1;
}

size_t type_width(RxType t) {
    switch (t) {
    case TY_NULL: return 1;
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: return 8;
    case TY_FLOAT: return 8;
    case TY_BOOL: return 1;
    case TY_DATE: return 4;
    case TY_TEXT: return sizeof(RxStr);
    case TY_DURATION: return sizeof(RxDuration);
    }
    return 8;
}

/* ---- heaps ---------------------------------------------------------------------------------- */

StrHeap *heap_new(size_t cap) {
    StrHeap *h = rx_calloc(1, sizeof *h);
    if (!h) return NULL;
    h->refcnt = 1;
    if (cap < 64) cap = 64;
    h->data = rx_malloc(cap);
    if (!h->data) {
        rx_free(h);
        return NULL;
    }
    h->cap = cap;
    return h;
}

StrHeap *heap_from_map(char *data, size_t len) {
    StrHeap *h = rx_calloc(1, sizeof *h);
    if (!h) return NULL;
    h->refcnt = 1;
    h->data = data;
    h->len = h->cap = len;
    h->mapped = true;
    return h;
}

void heap_retain(StrHeap *h) { h->refcnt++; }

StrHeap *heap_borrow(const char *data, size_t len) {
    StrHeap *h = rx_calloc(1, sizeof *h);
    if (!h) return NULL;
    h->refcnt = 1;
    h->data = (char *)data;
    h->len = h->cap = len;
    h->borrowed = true;
    return h;
}

void heap_release(StrHeap *h) {
    if (!h || --h->refcnt > 0) return;
    if (h->mapped) {
        if (h->len) munmap(h->data, h->len);
    } else if (!h->borrowed) {
        rx_free(h->data);
    }
    rx_free(h);
}

int64_t heap_append(StrHeap *h, const char *s, size_t n) {
    if (h->cap - h->len < n) {
        size_t cap = h->cap * 2;
        while (cap - h->len < n) cap *= 2;
        char *p = rx_realloc(h->data, cap);
        if (!p) return -1;
        h->data = p;
        h->cap = cap;
    }
    int64_t off = (int64_t)h->len;
    if (n) memcpy(h->data + h->len, s, n);
    h->len += n;
    return off;
}

/* ---- columns -------------------------------------------------------------------------------- */

Column *col_new(RxType type, size_t n) {
    Column *c = rx_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->refcnt = 1;
    c->type = type;
    c->n = n;
    size_t bytes = type_width(type) * (n ? n : 1);
    c->data = rx_malloc(bytes);
    if (!c->data) {
        rx_free(c);
        return NULL;
    }
    return c;
}

Column *col_borrow(RxType type, size_t n, const void *data) {
    size_t w = type_width(type);
    if (w > 1 && ((uintptr_t)data & (w - 1)) != 0) {
        /* a misaligned array (a view at an odd offset of a host buffer) cannot be read in
         * place by typed loads: one aligned copy */
        Column *copy = col_new(type, n);
        if (copy && n) memcpy(copy->data, data, n * w);
        return copy;
    }
    Column *c = rx_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->refcnt = 1;
    c->type = type;
    c->n = n;
    c->data = (void *)data;
    c->borrowed = true;
    return c;
}

Column *col_placeholder(RxType type, size_t n) {
    Column *c = rx_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->refcnt = 1;
    c->type = type;
    c->n = n;
    c->pruned = true;
    return c;
}

void col_retain(Column *c) { c->refcnt++; }

void col_release(Column *c) {
    if (!c || --c->refcnt > 0) return;
    if (c->base) {
        /* codes or a dict built on the view after it was made are its own */
        if (c->codes != c->base->codes) rx_free(c->codes);
        if (c->dict != c->base->dict) rx_free(c->dict);
        col_release(c->base);
    } else {
        rx_free(c->codes);
        rx_free(c->dict);
        if (!c->borrowed) rx_free(c->data);
    }
    for (uint32_t i = 0; i < c->n_heaps; i++) heap_release(c->heaps[i]);
    rx_free(c->heaps);
    rx_free(c->valid);
    rx_free(c);
}

Column *col_view(Column *base, uint64_t *valid) {
    Column *v = rx_calloc(1, sizeof *v);
    if (!v) {
        rx_free(valid);
        return NULL;
    }
    v->refcnt = 1;
    v->type = base->type;
    v->n = base->n;
    v->data = base->data;
    v->valid = valid;
    v->codes = base->codes;
    v->dict = base->dict;
    v->n_dict = base->n_dict;
    v->sorted = base->sorted && !valid;
    v->base = base;
    col_retain(base);
    if (col_share_heaps(v, base) < 0) {
        col_release(v);
        return NULL;
    }
    return v;
}

uint64_t *col_valid(Column *c) {
    if (!c->valid) {
        size_t w = bitmap_words(c->n ? c->n : 1);
        c->valid = rx_malloc(w * sizeof(uint64_t));
        if (!c->valid) return NULL;
        memset(c->valid, 0xff, w * sizeof(uint64_t));
    }
    return c->valid;
}

int col_set_null(Column *c, size_t i) {
    uint64_t *v = col_valid(c);
    if (!v) return -1;
    bitmap_set(v, i, false);
    c->sorted = false;
    return 0;
}

int col_add_heap(Column *c, StrHeap *h) {
    for (uint32_t i = 0; i < c->n_heaps; i++)
        if (c->heaps[i] == h) return 0;
    if (c->n_heaps == c->cap_heaps) {
        uint32_t cap = c->cap_heaps ? c->cap_heaps * 2 : 2;
        StrHeap **p = rx_realloc(c->heaps, cap * sizeof *p);
        if (!p) return -1;
        c->heaps = p;
        c->cap_heaps = cap;
    }
    heap_retain(h);
    c->heaps[c->n_heaps++] = h;
    return 0;
}

int col_share_heaps(Column *dst, const Column *src) {
    for (uint32_t i = 0; i < src->n_heaps; i++)
        if (col_add_heap(dst, src->heaps[i]) < 0) return -1;
    return 0;
}

void col_compact_validity(Column *c) {
    if (!c->valid) return;
    size_t full = c->n / 64;
    for (size_t w = 0; w < full; w++)
        if (c->valid[w] != UINT64_MAX) return;
    for (size_t i = full * 64; i < c->n; i++)
        if (!bitmap_get(c->valid, i)) return;
    rx_free(c->valid);
    c->valid = NULL;
}

int col_need_str(const Column *c) {
    if (!col_lazy(c)) return 0;
    Column *m = (Column *)c;   /* the slices are a cache of what codes and dict say */
    if (m->base) {
        if (col_need_str(m->base) < 0) return -1;
        void *want = NULL;
        __atomic_compare_exchange_n(&m->data, &want, __atomic_load_n(&m->base->data, __ATOMIC_ACQUIRE),
                                    false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        return 0;
    }
    RxStr *sl = rx_malloc((c->n ? c->n : 1) * sizeof *sl);
    if (!sl) return -1;
    const RxStr empty = {"", 0};
    for (size_t i = 0; i < c->n; i++) sl[i] = col_is_null(c, i) ? empty : c->dict[c->codes[i]];
    void *want = NULL;
    if (!__atomic_compare_exchange_n(&m->data, &want, (void *)sl, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        rx_free(sl);   /* another thread installed the same slices first */
    return 0;
}

int table_need_str(const Table *t) {
    for (int i = 0; t && i < t->n_cols; i++)
        if (col_need_str(t->cols[i]) < 0) return -1;
    return 0;
}

Column *col_new_gather(const Column *c, size_t n) {
    if (!col_lazy(c)) {
        Column *out = col_new(c->type, n);
        if (out && c->type == TY_TEXT && col_share_heaps(out, c) < 0) {
            col_release(out);
            return NULL;
        }
        return out;
    }
    Column *out = rx_calloc(1, sizeof *out);
    if (!out) return NULL;
    out->refcnt = 1;
    out->type = c->type;
    out->n = n;
    out->codes = rx_malloc((n ? n : 1) * sizeof *out->codes);
    out->dict = rx_malloc((c->n_dict ? c->n_dict : 1) * sizeof *out->dict);
    out->n_dict = c->n_dict;
    if (!out->codes || !out->dict || col_share_heaps(out, c) < 0) {
        col_release(out);
        return NULL;
    }
    if (c->n_dict) memcpy(out->dict, c->dict, c->n_dict * sizeof *out->dict);
    return out;
}

Column *col_gather(const Column *c, const uint32_t *idx, size_t n) {
    if (c->pruned) return col_placeholder(c->type, n);
    if (col_lazy(c)) {
        Column *out = col_new_gather(c, n);
        if (!out || (n && !col_valid(out))) {
            col_release(out);
            return NULL;
        }
        col_gather_range(out, c, idx, 0, n);
        col_compact_validity(out);
        return out;
    }
    Column *out = col_new(c->type, n);
    if (!out) return NULL;
    if (c->type == TY_TEXT && col_share_heaps(out, c) < 0) {
        col_release(out);
        return NULL;
    }
    bool any_none = false;
    switch (type_width(c->type)) {
    case 1: {
        const uint8_t *s = c->data; uint8_t *d = out->data;
        for (size_t i = 0; i < n; i++) { uint32_t j = idx[i]; any_none |= j == ROW_NONE; d[i] = j == ROW_NONE ? 0 : s[j]; }
        break;
    }
    case 4: {
        const int32_t *s = c->data; int32_t *d = out->data;
        for (size_t i = 0; i < n; i++) { uint32_t j = idx[i]; any_none |= j == ROW_NONE; d[i] = j == ROW_NONE ? 0 : s[j]; }
        break;
    }
    case 8: {
        const int64_t *s = c->data; int64_t *d = out->data;
        for (size_t i = 0; i < n; i++) { uint32_t j = idx[i]; any_none |= j == ROW_NONE; d[i] = j == ROW_NONE ? 0 : s[j]; }
        break;
    }
    default: {
        const RxStr *s = c->data; RxStr *d = out->data; /* RxStr and RxDuration are 16 bytes */
        RxStr zero = {0};
        for (size_t i = 0; i < n; i++) { uint32_t j = idx[i]; any_none |= j == ROW_NONE; d[i] = j == ROW_NONE ? zero : s[j]; }
        break;
    }
    }
    if (c->valid || any_none) {
        uint64_t *v = col_valid(out);
        if (!v) {
            col_release(out);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t j = idx[i];
            bool ok = j != ROW_NONE && !col_is_null(c, j);
            if (!ok) bitmap_set(v, i, false);
        }
    }
    return out;
}

/* Random reads dominate a large gather: each loop prefetches the row it will read PF rows
 * later, so that several cache misses are in flight at once (an optimisation). */
#define PF 16
#define GATHER_LOOP(T)                                                                         \
    do {                                                                                       \
        const T *s = c->data;                                                                  \
        T *d = out->data;                                                                      \
        T zero;                                                                                \
        memset(&zero, 0, sizeof zero);                                                         \
        size_t i = from;                                                                       \
        for (; i + PF < to; i++) {                                                             \
            uint32_t p = idx[i + PF];                                                          \
            if (p != ROW_NONE) __builtin_prefetch(&s[p]);                                      \
            uint32_t j = idx[i];                                                               \
            d[i] = j == ROW_NONE ? zero : s[j];                                                \
        }                                                                                      \
        for (; i < to; i++) {                                                                  \
            uint32_t j = idx[i];                                                               \
            d[i] = j == ROW_NONE ? zero : s[j];                                                \
        }                                                                                      \
    } while (0)

void col_gather_range(Column *out, const Column *c, const uint32_t *idx, size_t from, size_t to) {
    if (!out->data && out->codes) {
        /* a lazy coded column: its codes, NULL rows code 0 */
        const uint32_t *s = c->codes;
        uint32_t *d = out->codes;
        size_t i = from;
        for (; i + PF < to; i++) {
            uint32_t p = idx[i + PF];
            if (p != ROW_NONE) __builtin_prefetch(&s[p]);
            uint32_t j = idx[i];
            d[i] = j == ROW_NONE ? 0 : s[j];
        }
        for (; i < to; i++) {
            uint32_t j = idx[i];
            d[i] = j == ROW_NONE ? 0 : s[j];
        }
    } else switch (type_width(c->type)) {
    case 1: GATHER_LOOP(uint8_t); break;
    case 4: GATHER_LOOP(int32_t); break;
    case 8: GATHER_LOOP(int64_t); break;
    default: GATHER_LOOP(RxStr); break; /* RxStr and RxDuration are both 16 bytes */
    }
    if (out->valid)
        for (size_t i = from; i < to; i++) {
            uint32_t j = idx[i];
            if (j == ROW_NONE || col_is_null(c, j)) bitmap_set(out->valid, i, false);
        }
}

uint64_t col_hash_value(const Column *c, size_t i) {
    if (c->type == TY_NULL || col_is_null(c, i)) return 0x6e756c6cULL;
    switch (c->type) {
    case TY_TEXT: {
        RxStr s = c->codes && c->dict ? c->dict[c->codes[i]] : col_str(c)[i];   /* the same bytes */
        return rx_hash_bytes(s.ptr, s.len);
    }
    case TY_FLOAT: {
        double d = rx_float_canon(col_f64(c)[i]);  /* -0 and 0 are one value, every NaN one */
        uint64_t u;
        memcpy(&u, &d, 8);
        return rx_hash64(u);
    }
    case TY_BOOL: return rx_hash64(col_u8(c)[i] + 17u);
    case TY_DATE: return rx_hash64((uint64_t)(int64_t)col_i32(c)[i]);
    case TY_DURATION: {
        /* equal spans are equal durations (P1D = PT24H): hash the 128-bit span */
        unsigned __int128 s = (unsigned __int128)rx_dur_span(col_dur(c)[i]);
        return rx_hash_combine(rx_hash64((uint64_t)(s >> 64)), (uint64_t)s);
    }
    default: return rx_hash64((uint64_t)col_i64(c)[i]);
    }
}

Value col_get(const Column *c, size_t i) {
    Value v;
    memset(&v, 0, sizeof v);
    v.type = c->type;
    if (col_is_null(c, i)) {
        v.null = true;
        return v;
    }
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: v.v.i = col_i64(c)[i]; break;
    case TY_FLOAT: v.v.f = col_f64(c)[i]; break;
    case TY_BOOL: v.v.b = col_u8(c)[i] != 0; break;
    case TY_DATE: v.v.date = col_i32(c)[i]; break;
    case TY_TEXT: v.v.s = col_text(c, i); break;
    case TY_DURATION: v.v.d = col_dur(c)[i]; break;
    case TY_NULL: v.null = true; break;
    }
    return v;
}

/* ---- builder -------------------------------------------------------------------------------- */

void colb_init(ColBuilder *b, RxType type, size_t cap_hint) {
    memset(b, 0, sizeof *b);
    b->cap = cap_hint ? cap_hint : 16;
    b->col = col_new(type, b->cap);
    if (!b->col) {
        b->oom = true;
        return;
    }
    b->col->n = 0;
    if (type == TY_TEXT) {
        b->heap = heap_new(b->cap * 8);
        if (!b->heap) b->oom = true;
    }
}

static bool grow(ColBuilder *b) {
    if (b->oom) return false;
    Column *c = b->col;
    if (c->n < b->cap) return true;
    size_t cap = b->cap * 2;
    void *d = rx_realloc(c->data, cap * type_width(c->type));
    if (!d) {
        b->oom = true;
        return false;
    }
    c->data = d;
    if (c->valid) {
        uint64_t *v = rx_realloc(c->valid, bitmap_words(cap) * sizeof(uint64_t));
        if (!v) {
            b->oom = true;
            return false;
        }
        memset(v + bitmap_words(b->cap), 0xff,
               (bitmap_words(cap) - bitmap_words(b->cap)) * sizeof(uint64_t));
        c->valid = v;
    }
    b->cap = cap;
    return true;
}

void colb_push_null(ColBuilder *b) {
    if (!grow(b)) return;
    Column *c = b->col;
    size_t i = c->n;
    if (!c->valid) {
        size_t saved = c->n;
        c->n = b->cap; /* allocate the bitmap for the whole capacity */
        if (!col_valid(c)) b->oom = true;
        c->n = saved;
        if (b->oom) return;
    }
    memset((char *)c->data + i * type_width(c->type), 0, type_width(c->type));
    bitmap_set(c->valid, i, false);
    c->n++;
}

void colb_push(ColBuilder *b, const Value *v) {
    if (v->null) {
        colb_push_null(b);
        return;
    }
    if (!grow(b)) return;
    Column *c = b->col;
    size_t i = c->n;
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: col_i64(c)[i] = v->v.i; break;
    case TY_FLOAT: col_f64(c)[i] = v->v.f; break;
    case TY_BOOL: col_u8(c)[i] = v->v.b; break;
    case TY_DATE: col_i32(c)[i] = v->v.date; break;
    case TY_DURATION: col_dur(c)[i] = v->v.d; break;
    case TY_TEXT: {
        /* Store the offset in ptr for now; colb_finish turns offsets into addresses. */
        int64_t off = heap_append(b->heap, v->v.s.ptr, v->v.s.len);
        if (off < 0) {
            b->oom = true;
            return;
        }
        col_str(c)[i].ptr = (const char *)(uintptr_t)off;
        col_str(c)[i].len = v->v.s.len;
        break;
    }
    case TY_NULL: break;
    }
    c->n++;
}

Column *colb_finish(ColBuilder *b) {
    if (b->oom) {
        colb_free(b);
        return NULL;
    }
    Column *c = b->col;
    if (c->type == TY_TEXT) {
        RxStr *s = col_str(c);
        for (size_t i = 0; i < c->n; i++)
            s[i].ptr = b->heap->data + (uintptr_t)s[i].ptr;
        if (col_add_heap(c, b->heap) < 0) {
            colb_free(b);
            return NULL;
        }
        heap_release(b->heap);
        b->heap = NULL;
    }
    col_compact_validity(c);
    b->col = NULL;
    return c;
}

void colb_free(ColBuilder *b) {
    col_release(b->col);
    heap_release(b->heap);
    memset(b, 0, sizeof *b);
}

/* ---- tables --------------------------------------------------------------------------------- */

Table *table_new(int n_cols, size_t n_rows) {
    Table *t = rx_calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n_cols = n_cols;
    t->n_rows = n_rows;
    t->cols = rx_calloc((size_t)(n_cols ? n_cols : 1), sizeof *t->cols);
    t->names = rx_calloc((size_t)(n_cols ? n_cols : 1), sizeof *t->names);
    if (!t->cols || !t->names) {
        rx_free(t->cols);
        rx_free(t->names);
        rx_free(t);
        return NULL;
    }
    return t;
}

int table_set(Table *t, int i, Column *c, const char *name) {
    col_release(t->cols[i]);
    t->cols[i] = c;
    free(t->names[i]);
    t->names[i] = name ? strdup(name) : NULL;
    return (name && !t->names[i]) ? -1 : 0;
}

void table_free(Table *t) {
    if (!t) return;
    for (int i = 0; i < t->n_cols; i++) {
        col_release(t->cols[i]);
        free(t->names[i]);
    }
    rx_free(t->cols);
    rx_free(t->names);
    rx_free(t);
}

Table *colb_table(ColBuilder *b, int n_cols, size_t rows, const char *const *names) {
    Table *t = table_new(n_cols, rows);
    if (!t) return NULL;
    for (int j = 0; j < n_cols; j++) {
        Column *col = colb_finish(&b[j]);
        if (!col || table_set(t, j, col, names[j]) < 0) {
            col_release(col);
            table_free(t);
            return NULL;
        }
    }
    return t;
}
