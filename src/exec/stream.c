/*
 * stream.c - the chunk source over a table already in memory (stream.h): the leaf a streaming
 * plan uses for an input that is not a file, and what the tests cut inputs into chunks with.
 */
#include "exec/stream.h"

#include <string.h>

typedef struct {
    ChunkSrc base;
    const Table *t;
    size_t at;             /* next row to hand out */
    size_t *sizes;         /* chunk sizes, cycling */
    size_t n_sizes, k;
} TableSrc;

/* Rows [from, from+n) of c as a new column: values copied, TEXT heaps shared, validity copied
 * bit by bit; a dictionary is not carried (it is an optimisation, not part of the value). */
static Column *slice(const Column *c, size_t from, size_t n) {
    if (c->pruned) return col_placeholder(c->type, n);
    if (col_need_str(c) < 0) return NULL;   /* a lazy coded column's slices, copied below */
    Column *out = col_new(c->type, n);
    if (!out) return NULL;
    if (c->type == TY_TEXT && col_share_heaps(out, c) < 0) goto oom;
    size_t w = type_width(c->type);
    memcpy(out->data, (const char *)c->data + from * w, n * w);
    if (c->valid) {
        uint64_t *v = col_valid(out);
        if (!v) goto oom;
        for (size_t i = 0; i < n; i++) bitmap_set(v, i, bitmap_get(c->valid, from + i));
        col_compact_validity(out);
    }
    return out;
oom:
    col_release(out);
    return NULL;
}

static int table_next(ChunkSrc *s, Table **out, RxError *err) {
    TableSrc *ts = (TableSrc *)s;
    *out = NULL;
    if (ts->at >= ts->t->n_rows) return 0;
    size_t want = ts->sizes[ts->k++ % ts->n_sizes];
    size_t n = ts->t->n_rows - ts->at < want ? ts->t->n_rows - ts->at : want;
    Table *t = table_new(ts->t->n_cols, n);
    if (!t) goto oom;
    for (int i = 0; i < ts->t->n_cols; i++) {
        Column *c = slice(ts->t->cols[i], ts->at, n);
        if (!c || table_set(t, i, c, ts->t->names[i]) < 0) {
            col_release(c);
            table_free(t);
            goto oom;
        }
    }
    ts->at += n;
    *out = t;
    return 1;
oom:
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
}

static void table_close(ChunkSrc *s) {
    TableSrc *ts = (TableSrc *)s;
    rx_free(ts->sizes);
    rx_free(ts);
}

ChunkSrc *stream_table_src_sizes(const Table *t, const size_t *sizes, size_t n_sizes) {
    TableSrc *ts = rx_calloc(1, sizeof *ts);
    size_t *sz = rx_malloc((n_sizes ? n_sizes : 1) * sizeof *sz);
    if (!ts || !sz) {
        rx_free(ts), rx_free(sz);
        return NULL;
    }
    for (size_t i = 0; i < n_sizes; i++) sz[i] = sizes[i] ? sizes[i] : 1;
    if (!n_sizes) sz[0] = STREAM_CHUNK_ROWS;
    ts->base.next = table_next;
    ts->base.close = table_close;
    ts->t = t;
    ts->sizes = sz;
    ts->n_sizes = n_sizes ? n_sizes : 1;
    return &ts->base;
}

ChunkSrc *stream_table_src(const Table *t, size_t rows) {
    size_t r = rows ? rows : STREAM_CHUNK_ROWS;
    return stream_table_src_sizes(t, &r, 1);
}
