/*
 * test_parquet.c - the Parquet writer and reader (src/io/parquet.h) on tables built here:
 * round trips under every codec and row-group size, projection, statistics, the file heap's
 * reference count under many threads, and corrupt files (every truncation, byte flips) that
 * must give errors, never crashes.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io/parquet.h"

typedef struct {
    char *p;
    size_t n, cap;
} Buf;

static int append(void *ud, const char *p, size_t n) {
    Buf *b = ud;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) return -1;
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

static const char *const words[] = {"alpha", "beta", "", "γάμμα", "x,y"};

/* A table of n rows: INT, FLOAT, TEXT (few values), TEXT (all distinct), BOOL, DATE,
 * TIMESTAMP, TIME, each with NULLs in its own pattern (none in the first column). */
static Table *make_table(size_t n) {
    static const RxType types[] = {TY_INT, TY_FLOAT, TY_TEXT, TY_TEXT, TY_BOOL, TY_DATE, TY_TIMESTAMP, TY_TIME};
    static const char *const names[] = {"i", "f", "sym", "txt", "b", "d", "ts", "tm"};
    Table *t = table_new(8, n);
    StrHeap *h = heap_new(n * 24 + 64);
    for (int j = 0; j < 8; j++) {
        Column *c = col_new(types[j], n);
        for (size_t i = 0; i < n; i++) {
            switch (types[j]) {
            case TY_INT: col_i64(c)[i] = (int64_t)i * 1000003 - 77; break;
            case TY_FLOAT: col_f64(c)[i] = (double)i / 3 - 5; break;
            case TY_TEXT:
                if (j == 2) {
                    col_str(c)[i] = (RxStr){words[i % 5], strlen(words[i % 5])};
                } else {
                    int k = snprintf(h->data + h->len, 24, "row %zu", i);
                    col_str(c)[i] = (RxStr){h->data + h->len, (uint64_t)k};
                    h->len += (size_t)k;
                }
                break;
            case TY_BOOL: col_u8(c)[i] = i % 3 == 1; break;
            case TY_DATE: col_i32(c)[i] = (int32_t)i * 17 - 30000; break;
            case TY_TIMESTAMP: col_i64(c)[i] = (int64_t)i * 1234567891 - 5000000000000; break;
            default: col_i64(c)[i] = (int64_t)(i * 1000007 % 86400000000u); break;
            }
            if (j > 0 && i % (size_t)(j + 2) == 1) col_set_null(c, i);
        }
        if (j == 3) col_add_heap(c, h);
        table_set(t, j, c, names[j]);
    }
    heap_release(h);
    return t;
}

/* Whether a and b hold the same names, types and values (NULLs alike). */
static bool same_table(const Table *a, const Table *b) {
    if (a->n_rows != b->n_rows || a->n_cols != b->n_cols) return false;
    StrBuf x, y;
    sb_init(&x);
    sb_init(&y);
    bool same = true;
    for (int j = 0; j < a->n_cols && same; j++) {
        if (strcmp(a->names[j], b->names[j]) || a->cols[j]->type != b->cols[j]->type) same = false;
        for (size_t i = 0; i < a->n_rows && same; i++) {
            x.n = y.n = 0;
            out_value_text(a->cols[j], i, "<null>", &x);
            out_value_text(b->cols[j], i, "<null>", &y);
            if (x.n != y.n || (x.n && memcmp(x.p, y.p, x.n))) {
                fprintf(stderr, "column %s row %zu: %.*s vs %.*s\n", a->names[j], i, (int)x.n, x.p, (int)y.n, y.p);
                same = false;
            }
        }
    }
    sb_free(&x);
    sb_free(&y);
    return same;
}

static Buf write_file(const Table *t, PqCodec codec, size_t rg) {
    Buf b = {0};
    RxSink sink = {append, &b};
    PqWriteOptions o;
    pq_write_options_default(&o);
    o.codec = codec;
    o.row_group_rows = rg;
    RxError err;
    rx_error_clear(&err);
    CHECK(pq_write(t, &o, &sink, &err) == 0);
    return b;
}

static void test_round_trip(void) {
    Table *t = make_table(3000);
    const PqCodec codecs[] = {PQ_CODEC_NONE, PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_ZSTD};
    const size_t groups[] = {0, 1000, 7};
    for (int c = 0; c < 4; c++)
        for (int g = 0; g < 3; g++) {
            Buf b = write_file(t, codecs[c], groups[g]);
            PqFile *f = NULL;
            RxError err;
            rx_error_clear(&err);
            CHECK(pq_open_mem(b.p, b.n, "rt.parquet", 3, &f, &err) == 0);
            if (f) {
                CHECK(pq_load(f, NULL, &err) == 0);
                CHECK(same_table(t, pq_table(f)));
                CHECK(pq_row_groups(f) == (groups[g] ? (int)((3000 + groups[g] - 1) / groups[g]) : 1));
                pq_close(f);
            }
            free(b.p);
        }
    table_free(t);
}

static void test_projection_and_stats(void) {
    Table *t = make_table(2000);
    Buf b = write_file(t, PQ_CODEC_SNAPPY, 500);
    PqFile *f = NULL;
    RxError err;
    rx_error_clear(&err);
    CHECK(pq_open_mem(b.p, b.n, "p.parquet", 2, &f, &err) == 0);
    uint8_t want[8] = {0, 0, 1, 0, 0, 0, 1, 0};
    CHECK(pq_load(f, want, &err) == 0);
    const Table *r = pq_table(f);
    for (int j = 0; j < 8; j++) CHECK(r->cols[j]->pruned == !want[j]);
    Value mn, mx;
    int64_t nulls;
    /* row group 1 holds rows 500..999; column i has no NULLs, ts a NULL every 8 rows from 1 */
    CHECK(pq_stats(f, 1, 0, &mn, &mx, &nulls) == 0);
    CHECK(mn.type == TY_INT && mn.v.i == 500 * 1000003LL - 77 && mx.v.i == 999 * 1000003LL - 77 && nulls == 0);
    CHECK(pq_stats(f, 1, 6, &mn, &mx, &nulls) == 0);
    CHECK(mn.type == TY_TIMESTAMP && nulls == 62);
    CHECK(pq_stats(f, 0, 2, &mn, &mx, &nulls) == 0);
    CHECK(mn.type == TY_TEXT && mn.v.s.len == 0 && mx.v.s.len == strlen("γάμμα"));
    pq_close(f);
    free(b.p);
    table_free(t);
}

/* Many small uncompressed row groups on many threads: every TEXT column points into the file's
 * heap, whose reference count must come out exact (the tasks must not race on it). */
static void test_file_heap_refcount(void) {
    Table *t = make_table(2000);
    Buf b = write_file(t, PQ_CODEC_NONE, 3);
    for (int rep = 0; rep < 25; rep++) {
        PqFile *f = NULL;
        RxError err;
        rx_error_clear(&err);
        CHECK(pq_open_mem(b.p, b.n, "h.parquet", 8, &f, &err) == 0);
        CHECK(pq_load(f, NULL, &err) == 0);
        const Table *r = pq_table(f);
        /* the plain TEXT column: its only heap is the file's, held by the file and by it */
        const Column *txt = r->cols[3];
        CHECK(txt->n_heaps == 1 && txt->heaps[0]->refcnt == 3 - (r->cols[2]->heaps[0] != txt->heaps[0]));
        CHECK(same_table(t, r));
        pq_close(f);
    }
    free(b.p);
    table_free(t);
}

static void expect_error(const char *data, size_t n, const char *want) {
    PqFile *f = NULL;
    RxError err;
    rx_error_clear(&err);
    int rc = pq_open_mem(data, n, "bad.parquet", 1, &f, &err);
    if (rc == 0) {
        rc = pq_load(f, NULL, &err);
        pq_close(f);
    }
    CHECK(rc < 0);
    CHECK(strstr(err.msg, want) != NULL);
    if (!strstr(err.msg, want)) fprintf(stderr, "message: %s\n", err.msg);
}

/* Every prefix and many single-byte changes of a small file: pq_open_mem and pq_load either
 * succeed or fail with an error that names the file; nothing crashes (the sanitizer build). */
static void test_corrupt(void) {
    Table *t = make_table(60);
    Buf b = write_file(t, PQ_CODEC_NONE, 25);
    Buf z = write_file(t, PQ_CODEC_ZSTD, 25);
    expect_error("PAR1", 4, "too short");
    expect_error("NOTAPARQUETFILE!", 16, "does not start with PAR1");
    expect_error(b.p, b.n - 1, "does not end with PAR1");
    char *m = malloc(b.n);
    memcpy(m, b.p, b.n);
    m[b.n - 8] = (char)0xff, m[b.n - 7] = (char)0xff;
    expect_error(m, b.n, "footer's length");
    memcpy(m, b.p, b.n);
    memcpy(m + b.n - 4, "PARE", 4);
    expect_error(m, b.n, "encrypted Parquet files are not supported");
    size_t failures = 0, runs = 0;
    for (int k = 0; k < 2; k++) {
        const Buf *s = k ? &z : &b;
        for (size_t cut = 0; cut < s->n; cut++) {
            PqFile *f = NULL;
            RxError err;
            rx_error_clear(&err);
            int rc = pq_open_mem(s->p, cut, "cut.parquet", 2, &f, &err);
            if (rc == 0) rc = pq_load(f, NULL, &err), pq_close(f);
            runs++;
            failures += rc < 0 && strstr(err.msg, "cut.parquet") != NULL;
        }
        uint64_t seed = 12345;
        char *c = malloc(s->n);
        for (int it = 0; it < 3000; it++) {
            memcpy(c, s->p, s->n);
            for (int flips = 0; flips < 1 + it % 3; flips++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                size_t at = (size_t)(seed >> 33) % s->n;
                c[at] = (char)(seed >> 13);
            }
            PqFile *f = NULL;
            RxError err;
            rx_error_clear(&err);
            int rc = pq_open_mem(c, s->n, "flip.parquet", 2, &f, &err);
            if (rc == 0) rc = pq_load(f, NULL, &err), pq_close(f);
            if (rc < 0) CHECK(err.msg[0] != 0 && err.code != RX_OK);
        }
        free(c);
    }
    CHECK(failures == runs); /* every cut file fails, naming the file */
    free(m);
    free(b.p);
    free(z.p);
    table_free(t);
}

int main(void) {
    rx_set_memory_limit((size_t)1 << 30);
    test_round_trip();
    test_projection_and_stats();
    test_file_heap_refcount();
    test_corrupt();
    return check_report("test_parquet");
}
