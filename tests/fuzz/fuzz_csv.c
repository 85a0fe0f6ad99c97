/*
 * fuzz_csv.c - libFuzzer target: the CSV reader (src/io/io.h) on arbitrary bytes.
 *
 * The first byte of the input chooses the options, the rest is the file:
 *   bit 0     no header
 *   bits 1-2  delimiter: ',' ';' '\t' '|'
 *   bit 3     null => 'NA'
 *   bit 4     a schema: the next byte gives its column count (1 + b % 6) and the types (one
 *             per 3 bits of the following bytes, TY_INT..TY_DURATION), named c1, c2, ...
 *             unless bit 5 is set (then unnamed, so the header's names stand)
 * The file body is written to one temporary file per process (reused for every input) and
 * read twice: with csv_read, and in two steps (csv_open, csv_load of every other column,
 * then of the rest), which must give the same table (compared as CSV text) or both fail. A
 * loaded table is checked for shape (every column has n_rows rows of the type it claims,
 * under a schema the schema's type) and written as CSV and JSON; the CSV must read back, under
 * a schema of the table's own names and types, as the same table. A failure must come with an
 * error.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[512];

/* The CSV text of a table, to compare two readings. */
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

static int discard(void *ud, const char *p, size_t n) {
    (void)ud;
    (void)p;
    (void)n;
    return 0;
}

static void remove_temp(void) { unlink(path); }

static const char *temp_path(void) {
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/relix-fuzz-csv-%ld.csv", dir && *dir ? dir : "/tmp", (long)getpid());
        atexit(remove_temp);
    }
    return path;
}

static int write_file(const char *p, const uint8_t *d, size_t n) {
    FILE *f = fopen(p, "wb");
    if (!f) return -1;
    size_t w = n ? fwrite(d, 1, n, f) : 0;
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static void check_table(const Table *t, const CsvOptions *o, Buf *csv) {
    if (!t || t->n_cols <= 0) abort();
    if (o->n_schema && t->n_cols != o->n_schema) abort();
    for (int i = 0; i < t->n_cols; i++) {
        const Column *c = t->cols[i];
        if (!c || !t->names[i]) abort();
        if (c->n != t->n_rows) abort();
        if (o->n_schema && c->type != o->schema_types[i]) abort();
    }
    RxSink sink = {append, csv}, none = {discard, NULL};
    RxError err;
    rx_error_clear(&err);
    if (out_write(t, OUT_CSV, &sink, &err) < 0) abort();
    if (out_write(t, OUT_JSON, &none, &err) < 0) abort();
}

/* What relix writes as CSV reads back as the same table under a schema of its own names and
 * types: csv_read(write(t)) written again is the same text. */
static void check_round_trip(const Table *t, const Buf *csv) {
    static char back[520];
    if (!back[0]) snprintf(back, sizeof back, "%s.back", path);
    if (write_file(back, (const uint8_t *)csv->p, csv->n) < 0) return;
    RxType *types = malloc((size_t)t->n_cols * sizeof *types);
    if (!types) abort();
    for (int i = 0; i < t->n_cols; i++) types[i] = t->cols[i]->type;
    CsvOptions o;
    csv_options_default(&o);
    o.n_schema = t->n_cols;
    o.schema_names = (const char *const *)t->names;
    o.schema_types = types;
    Table *u = NULL;
    RxError err;
    rx_error_clear(&err);
    Buf again = {0};
    if (csv_read(back, &o, &u, &err) < 0) {
        fprintf(stderr, "relix's own CSV does not read back: %s\n", err.msg);
        abort();
    }
    check_table(u, &o, &again);
    if (again.n != csv->n || memcmp(again.p, csv->p, csv->n) != 0) {
        fprintf(stderr, "CSV round trip differs:\n%.*s\n----\n%.*s\n", (int)csv->n, csv->p,
                (int)again.n, again.p);
        abort();
    }
    table_free(u);
    free(again.p);
    free(types);
    unlink(back);
}

static void check_error(const RxError *err) {
    if (err->code == RX_OK || !err->msg[0]) abort();
    StrBuf b;
    sb_init(&b);
    rx_error_format(err, &b);
    sb_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 1024 * 1024) return -1;
    uint8_t flags = data[0];
    data++, size--;
    CsvOptions o;
    csv_options_default(&o);
    static const char delims[] = {',', ';', '\t', '|'};
    o.header = !(flags & 1);
    o.delimiter = delims[(flags >> 1) & 3];
    if (flags & 8) o.null_text = "NA";
    static const char *const names[] = {"c1", "c2", "c3", "c4", "c5", "c6"};
    RxType types[6];
    if (flags & 16) {
        if (size < 3) return -1;
        int n = 1 + data[0] % 6;
        uint32_t bits = (uint32_t)data[1] | (uint32_t)data[2] << 8;
        for (int i = 0; i < n; i++) types[i] = (RxType)(TY_INT + (bits >> (3 * i)) % 8);
        o.n_schema = n;
        o.schema_names = flags & 32 ? NULL : names;
        o.schema_types = types;
        data += 3, size -= 3;
    }
    const char *p = temp_path();
    if (write_file(p, data, size) < 0) return 0;

    /* One step, then two (every other column, then the rest): the same table or the same
     * failure either way. */
    RxError err;
    rx_error_clear(&err);
    Table *t = NULL;
    Buf one = {0}, two = {0};
    int rc1 = csv_read(p, &o, &t, &err);
    if (rc1 < 0) {
        check_error(&err);
    } else {
        check_table(t, &o, &one);
        check_round_trip(t, &one);
        table_free(t);
    }
    rx_error_clear(&err);
    CsvFile *f = NULL;
    int rc2 = csv_open(p, &o, &f, &err);
    if (rc2 == 0) {
        const Table *ft = csv_table(f);
        uint8_t *want = calloc((size_t)ft->n_cols + 1, 1);
        if (!want) abort();
        for (int pass = 0; pass < 2 && rc2 == 0; pass++) {
            for (int i = 0; i < ft->n_cols; i++) want[i] = (uint8_t)(i % 2 == pass);
            rc2 = csv_load(f, want, &err);
        }
        free(want);
        if (rc2 == 0) check_table(ft, &o, &two);
        csv_close(f);
    }
    if (rc2 < 0) check_error(&err);
    if ((rc1 < 0) != (rc2 < 0)) abort();
    if (rc1 == 0 && (one.n != two.n || (one.n && memcmp(one.p, two.p, one.n) != 0))) abort();
    free(one.p);
    free(two.p);
    return 0;
}
