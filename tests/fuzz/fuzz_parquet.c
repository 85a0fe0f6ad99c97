/*
 * fuzz_parquet.c - libFuzzer target: the Parquet reader (src/io/parquet.h) on arbitrary bytes.
 *
 * The input is the file. It is opened from memory (pq_open_mem) under a memory limit of 512 MB,
 * so that a count in a corrupt footer or page cannot make a huge allocation succeed, and read
 * in two steps on two threads: every other column, then the rest. Either step may fail, with
 * an error that has a code and a message. A table that loads whole is checked for shape (every
 * column n_rows long, no placeholder left), written as Parquet with pq_write and read back:
 * the copy must load and print (as CSV) exactly as the original does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/parquet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
        if (!q) abort();
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

static void check_error(const RxError *err) {
    if (err->code == RX_OK || !err->msg[0]) abort();
}

static void check_table(const Table *t) {
    for (int j = 0; j < t->n_cols; j++) {
        const Column *c = t->cols[j];
        if (!c || c->pruned || c->n != t->n_rows || !t->names[j]) abort();
    }
}

/* Loads the file at (p, n) whole; its CSV text into csv. 0 loaded, -1 failed (with an error). */
static int load(const void *p, size_t n, Buf *csv, Table **keep, PqFile **fout) {
    PqFile *f = NULL;
    RxError err;
    rx_error_clear(&err);
    if (pq_open_mem(p, n, "fuzz.parquet", 2, &f, &err) < 0) {
        check_error(&err);
        return -1;
    }
    const Table *t = pq_table(f);
    uint8_t *want = calloc((size_t)t->n_cols + 1, 1);
    if (!want) abort();
    for (int j = 0; j < t->n_cols; j += 2) want[j] = 1;
    int rc = pq_load(f, want, &err);
    if (rc == 0) rc = pq_load(f, NULL, &err);
    free(want);
    if (rc < 0) {
        check_error(&err);
        pq_close(f);
        return -1;
    }
    check_table(t);
    RxSink sink = {append, csv};
    if (out_write(t, OUT_CSV, &sink, &err) < 0) abort();
    *keep = (Table *)t;
    *fout = f;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int limited;
    if (!limited) {
        rx_set_memory_limit((size_t)512 << 20);
        limited = 1;
    }
    if (size > 4 * 1024 * 1024) return -1;
    Buf csv = {0}, again = {0}, file = {0};
    Table *t = NULL;
    PqFile *f = NULL;
    if (load(data, size, &csv, &t, &f) == 0) {
        bool has_duration = false;
        for (int j = 0; j < t->n_cols; j++) has_duration |= t->cols[j]->type == TY_DURATION;
        RxSink sink = {append, &file};
        RxError err;
        rx_error_clear(&err);
        PqWriteOptions o;
        pq_write_options_default(&o);
        o.codec = (PqCodec)(size % 2 ? PQ_CODEC_SNAPPY : PQ_CODEC_NONE);
        o.row_group_rows = 1 + size % 1000;
        int rc = pq_write(t, &o, &sink, &err);
        if (rc < 0) {
            /* only a lack of memory may stop the writer on a table the reader made */
            if (err.code != RX_ENOMEM || has_duration) abort();
        } else {
            Table *u = NULL;
            PqFile *g = NULL;
            if (load(file.p, file.n, &again, &u, &g) < 0) {
                if (rx_memory_limit_hit(true)) goto done;   /* the copy needed more memory */
                fprintf(stderr, "relix's own Parquet does not read back\n");
                abort();
            }
            if (again.n != csv.n || (csv.n && memcmp(again.p, csv.p, csv.n) != 0)) {
                fprintf(stderr, "Parquet round trip differs:\n%.*s\n----\n%.*s\n", (int)csv.n, csv.p,
                        (int)again.n, again.p);
                abort();
            }
            pq_close(g);
        }
    done:
        pq_close(f);
    }
    free(csv.p);
    free(again.p);
    free(file.p);
    return 0;
}
