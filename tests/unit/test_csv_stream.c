/*
 * test_csv_stream.c - unit tests of the CSV reader by blocks (src/io/csv_stream.c): a file
 * checked block by block (csv_open over CsvOptions.stream_above) and read back in chunks
 * (csv_chunks_*) gives, cell for cell, the table a reading of the whole file gives, or the same
 * error at the same line and column; and the sorted hints agree with the whole column's. Every
 * file is read with blocks of many sizes, down to one byte (so that every record, and every
 * quoted line end, falls across a block boundary somewhere).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "io/csv_int.h"
#include "io/io.h"

static char dir[64];
static int n_files;

static const char *put_file(const char *text, size_t n) {
    static char path[128];
    snprintf(path, sizeof path, "%s/f%d.csv", dir, ++n_files);
    FILE *f = fopen(path, "wb");
    if (!f) return path;
    fwrite(text, 1, n, f);
    fclose(f);
    return path;
}

static void dump_error(const RxError *e, StrBuf *b) {
    uint32_t line = 0, col = 0;
    if (e->src) rx_source_position(e->src, e->span.start, &line, &col);
    sb_printf(b, "error %d at %u:%u: %s\n", (int)e->code, line, col, e->msg);
    if (e->src) sb_printf(b, "  %.*s\n", (int)e->src->len, e->src->text);
}

static void dump_head(const Table *t, StrBuf *b) {
    for (int j = 0; j < t->n_cols; j++)
        sb_printf(b, "%s %s\n", t->names[j], type_name(t->cols[j]->type));
}

/* The cells of t, one row a line (FLOAT exactly, as %a). */
static void dump_rows(const Table *t, StrBuf *b) {
    for (size_t i = 0; i < t->n_rows; i++) {
        for (int j = 0; j < t->n_cols; j++) {
            const Column *c = t->cols[j];
            if (j) sb_putc(b, '|');
            if (c->pruned) sb_puts(b, "<pruned>");
            else if (col_is_null(c, i)) sb_puts(b, "<NULL>");
            else if (c->type == TY_FLOAT) sb_printf(b, "%a", col_f64(c)[i]);
            else out_value_text(c, i, "", b);
        }
        sb_putc(b, '\n');
    }
}

static bool orderable(RxType t) {
    return t == TY_INT || t == TY_FLOAT || t == TY_DATE || t == TY_TIMESTAMP || t == TY_TIME;
}

/* The whole reading: header, rows and sorted hints, or the error. */
static void read_whole(const char *path, const CsvOptions *base, const uint8_t *want, StrBuf *b,
                       StrBuf *sorted) {
    CsvOptions o = *base;
    o.stream_above = SIZE_MAX;
    RxError e;
    memset(&e, 0, sizeof e);
    CsvFile *f = NULL;
    if (csv_open(path, &o, &f, &e) < 0) {
        dump_error(&e, b);
        return;
    }
    CHECK(!csv_streamed(f));
    dump_head(csv_table(f), b);
    if (csv_load(f, want, &e) < 0) {
        dump_error(&e, b);
    } else {
        dump_rows(csv_table(f), b);
        const Table *t = csv_table(f);
        for (int j = 0; j < t->n_cols; j++)
            if (orderable(t->cols[j]->type) && !t->cols[j]->pruned)
                sb_printf(sorted, "%s %d\n", t->names[j], t->cols[j]->sorted ? 1 : 0);
    }
    csv_close(f);
}

/* The reading by blocks of `block` bytes: checked by blocks, then read in chunks. */
static void read_blocks(const char *path, const CsvOptions *base, const uint8_t *want,
                        size_t block, StrBuf *b, StrBuf *sorted) {
    CsvOptions o = *base;
    o.stream_above = 1;
    o.block_bytes = block;
    RxError e;
    memset(&e, 0, sizeof e);
    CsvFile *f = NULL;
    if (csv_open(path, &o, &f, &e) < 0) {
        dump_error(&e, b);
        return;
    }
    CHECK(csv_streamed(f));
    dump_head(csv_table(f), b);
    CsvChunks *c = NULL;
    if (csv_chunks_open(f, want, &c, &e) < 0) {
        dump_error(&e, b);
        csv_close(f);
        return;
    }
    size_t rows = 0, head = b->n;
    for (;;) {
        Table *t = NULL;
        int rc = csv_chunks_next(c, &t, &e);
        if (rc < 0) {
            /* the chunks before the error were handed out; the reading as a whole failed */
            b->n = head;
            dump_error(&e, b);
            break;
        }
        if (rc == 0) {
            CHECK(rows == csv_table(f)->n_rows);
            const Table *ft = csv_table(f);
            for (int j = 0; j < ft->n_cols; j++)
                if (orderable(ft->cols[j]->type) && (!want || want[j]))
                    sb_printf(sorted, "%s %d\n", ft->names[j], csv_column_sorted(f, j) == 1);
            break;
        }
        CHECK(t->n_rows > 0);
        CHECK(t->n_cols == csv_table(f)->n_cols);
        for (int j = 0; j < t->n_cols; j++) CHECK(t->cols[j]->type == csv_table(f)->cols[j]->type);
        rows += t->n_rows;
        dump_rows(t, b);
        table_free(t);
    }
    csv_chunks_close(c);
    csv_close(f);
}

/* The file at path read whole and by blocks of many sizes: the same text, every time. When
 * also_load, csv_load on the file checked by blocks (the whole reading after all) is compared
 * too. */
static void expect_same(const char *path, const CsvOptions *o, const uint8_t *want, int at,
                        StrBuf *ref_out) {
    static const size_t blocks[] = {1, 2, 7, 61, 4093, 1 << 20};
    struct stat st;
    bool big = stat(path, &st) == 0 && st.st_size > 100000;
    StrBuf ref, ref_sorted;
    sb_init(&ref);
    sb_init(&ref_sorted);
    read_whole(path, o, want, &ref, &ref_sorted);
    for (size_t i = big ? 3 : 0; i < RX_ARRAY_LEN(blocks); i++) {
        StrBuf got, got_sorted;
        sb_init(&got);
        sb_init(&got_sorted);
        read_blocks(path, o, want, blocks[i], &got, &got_sorted);
        bool same = got.n == ref.n && (!got.n || memcmp(got.p, ref.p, ref.n) == 0);
        bool same_sorted = got_sorted.n == ref_sorted.n &&
                           (!got_sorted.n || memcmp(got_sorted.p, ref_sorted.p, ref_sorted.n) == 0);
        if (!same)
            fprintf(stderr, "line %d: blocks of %zu differ:\n%.600s\n--- whole:\n%.600s\n", at,
                    blocks[i], got.p, ref.p);
        if (!same_sorted)
            fprintf(stderr, "line %d: blocks of %zu: sorted hints\n%s--- whole:\n%s", at,
                    blocks[i], got_sorted.p ? got_sorted.p : "", ref_sorted.p ? ref_sorted.p : "");
        CHECK(same);
        CHECK(same_sorted);
        sb_free(&got);
        sb_free(&got_sorted);
    }
    /* csv_load on a file checked by blocks reads it whole after all: the same table */
    CsvOptions lo = *o;
    lo.stream_above = 1;
    lo.block_bytes = 61;
    RxError e;
    memset(&e, 0, sizeof e);
    CsvFile *f = NULL;
    if (csv_open(path, &lo, &f, &e) == 0) {
        StrBuf got;
        sb_init(&got);
        dump_head(csv_table(f), &got);
        if (csv_load(f, want, &e) < 0) dump_error(&e, &got);
        else dump_rows(csv_table(f), &got);
        bool same = got.n == ref.n && memcmp(got.p, ref.p, ref.n) == 0;
        if (!same) fprintf(stderr, "line %d: csv_load after blocks differs:\n%.600s\n", at, got.p);
        CHECK(same);
        sb_free(&got);
        csv_close(f);
    }
    if (ref_out) *ref_out = ref;
    else sb_free(&ref);
    sb_free(&ref_sorted);
}

static void same_text(const char *text, int at) {
    CsvOptions o;
    csv_options_default(&o);
    expect_same(put_file(text, strlen(text)), &o, NULL, at, NULL);
}
#define SAME(text) same_text(text, __LINE__)

static void test_small(void) {
    SAME("a,b\n1,x\n2,y\n3,z\n");
    SAME("q,n\n\"he said \"\"hi\"\"\",1\n\"two\nlines\",2\n\"plain\",3\n\"\"\"\",4\n");
    SAME("a,b\n1,\"x\n2,y\"\n3,\"\n4,\n5\"\n");
    SAME("a,b\r\n1,x\r\n2,\"y\"\r\n3,z");
    SAME("\xEF\xBB\xBFid,v\n7,8");
    SAME("\xEF\xBB\xBF\"id\",v\n7,8\n");
    SAME("x\n1\n\n3\n\n");
    SAME("a,b,c\n1,,\"\"\n,x,y\n3,\"\",z\n");
    SAME("n\n3\n2\n1\n");
    SAME("n,f\n1,0.5\n2,0.25\n3,nan\n4,1\n");
    SAME("a,b\n1,2026-01-01\n2.5,2026-01-02T00:00:00Z\n");
    SAME("a,b\n1,x\"y\n2,\"z\"\n");
    /* a column whose first blocks are all NULL, then INT, then FLOAT */
    SAME("a,b\n,x\n,y\n1,z\n2,w\n2.5,v\n");
    /* errors: the first in the file, at the file's line and column */
    SAME("a,b,c\n1,2,3\n1,2\n1,2,3,4\n");
    SAME("a,b\n\"x\ny\",1\n1\n");
    SAME("a,b\n1,2\n3,\"abc\n");
    SAME("a,b\n1,\"x\"y\n2,\"\n");
    SAME("a,b\n1,x\xff\n2\n");
    SAME("a,b\n1,\"x\ny\xc3\"\n1,2,3\n");
    SAME("a,b\n1,x\n2,y,\xe2\x82\n");
    SAME("id,d\n1,2026-02-28\n2,2026-02-30\n3,2026-02-31\n");
    SAME("n\n1\n99999999999999999999\n-99999999999999999999\n");
    CsvOptions o;
    csv_options_default(&o);
    expect_same(put_file("a,b\n1,2\n3,\0\n", 11), &o, NULL, __LINE__, NULL);
    /* a NUL byte (binary data) is reported before an earlier record's error, as by a whole
     * reading, which looks for one first */
    expect_same(put_file("a,b\n1,2,3\n4,5\n6,7\n8,\0\n", 22), &o, NULL, __LINE__, NULL);
    o.null_text = "NA";
    o.delimiter = ';';
    const char *t1 = "n;s\n1;NA\n\"\";\"NA\"\nNA;b\n";
    expect_same(put_file(t1, strlen(t1)), &o, NULL, __LINE__, NULL);
    static const char *const names[] = {"id", "when", "v"};
    static const RxType types[] = {TY_INT, TY_DATE, TY_TEXT};
    csv_options_default(&o);
    o.n_schema = 3;
    o.schema_names = names;
    o.schema_types = types;
    const char *t2 = "id,when,v\n1,2026-03-01,007\n2,,\nx,2026-03-01,a\n";
    expect_same(put_file(t2, strlen(t2)), &o, NULL, __LINE__, NULL);
    o.header = false;
    const char *t3 = "5,2026-03-02,\"q\"\"\"\n6,,\"a\nb\"\n";
    expect_same(put_file(t3, strlen(t3)), &o, NULL, __LINE__, NULL);
    static const char *const tn[] = {"v"};
    static const RxType tt[] = {TY_TEXT};
    csv_options_default(&o);
    o.n_types = 1;
    o.type_names = tn;
    o.type_types = tt;
    const char *t4 = "id,v\n1,2\n2,3\n3,x\n";
    expect_same(put_file(t4, strlen(t4)), &o, NULL, __LINE__, NULL);
}

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

static void random_text(StrBuf *b) {
    static const char *const parts[] = {"x", "ab", "a,b", "\"\"", "\n", "\r\n", "é", "日本",
                                        " ", "NA", "1", "2026-01-01", "\r"};
    unsigned k = rnd_below(10);
    if (k == 0) return;
    if (k == 1) {
        sb_puts(b, "\"\"");
        return;
    }
    if (k < 4) {
        sb_puts(b, rnd_below(2) ? "plain" : "x\"y");
        return;
    }
    sb_putc(b, '"');
    for (unsigned n = 1 + rnd_below(5); n > 0; n--) sb_puts(b, parts[rnd_below(RX_ARRAY_LEN(parts))]);
    sb_putc(b, '"');
}

/* id INT (sorted unless a NULL), q nasty TEXT, f FLOAT, d DATE (sometimes NULL), ts TIMESTAMP
 * (sorted), s TEXT of few values, b BOOL, t TIME; \n and \r\n. bad_date: row with 2026-02-30;
 * bad_count: row with an extra field. */
static void random_file(StrBuf *b, int rows, int bad_date, int bad_count, bool nulls) {
    sb_puts(b, "id,q,f,d,ts,s,b,t\n");
    for (int i = 1; i <= rows; i++) {
        if (!nulls || rnd_below(50)) sb_printf(b, "%d", i);
        sb_putc(b, ',');
        random_text(b);
        sb_printf(b, ",%d.%02u,", (int)rnd_below(2000) - 1000, rnd_below(100));
        if (i == bad_date) sb_puts(b, "2026-02-30");
        else if (!nulls || rnd_below(30))
            sb_printf(b, "2026-%02u-%02u", 1 + rnd_below(12), 1 + rnd_below(28));
        sb_printf(b, ",2026-01-02T%02u:%02u:%02u.%uZ,S%02u,%s,%02u:%02u:00", i * 24 / (rows + 1),
                  (unsigned)(i % 60), rnd_below(60), rnd_below(10), rnd_below(20),
                  rnd_below(2) ? "true" : "false", rnd_below(24), rnd_below(60));
        if (i == bad_count) sb_puts(b, ",extra");
        sb_puts(b, rnd_below(3) ? "\n" : "\r\n");
    }
}

static void test_random(void) {
    rng_state = 7;
    struct {
        int rows, bad_date, bad_count;
        bool nulls;
        const char *expect;
    } cases[] = {
        {2000, 0, 0, true, "id INT\n"},
        {2000, 0, 0, false, "\nts TIMESTAMP\n"},
        {2000, 1200, 0, true, "invalid DATE '2026-02-30' in column 'd'"},
        {2000, 0, 1700, true, "has 9 fields, the header has 8"},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(cases); i++) {
        StrBuf text, ref;
        sb_init(&text);
        random_file(&text, cases[i].rows, cases[i].bad_date, cases[i].bad_count, cases[i].nulls);
        CsvOptions o;
        csv_options_default(&o);
        expect_same(put_file(text.p, text.n), &o, NULL, __LINE__, &ref);
        bool found = ref.p && strstr(ref.p, cases[i].expect);
        if (!found) fprintf(stderr, "case %zu: %.300s\n", i, ref.p);
        CHECK(found);
        sb_free(&ref);
        /* some columns only: the bad date is not read when d is not */
        uint8_t want[8] = {1, 0, 1, 0, 1, 1, 0, 1};
        expect_same(put_file(text.p, text.n), &o, want, __LINE__, &ref);
        CHECK(ref.p && !strstr(ref.p, "invalid DATE"));
        sb_free(&ref);
        sb_free(&text);
    }
}

/* The sorted hints of a file checked by blocks: a column sorted within every block but not
 * across two is not sorted; one NULL makes a column not sorted; INT then FLOAT blocks compare
 * as numbers. */
static void test_sorted(void) {
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "up,down,withnull,mixed,tx\n");
    for (int i = 0; i < 5000; i++)
        sb_printf(&b, "%d,%d,%s,%s,2026-01-01T00:00:%02d\n", i, i < 2500 ? i : i - 2500,
                  i == 4000 ? "" : "1", i < 4000 ? "1" : "1.5", i * 60 / 5000);
    const char *path = put_file(b.p, b.n);
    CsvOptions o;
    csv_options_default(&o);
    expect_same(path, &o, NULL, __LINE__, NULL);
    o.stream_above = 1;
    o.block_bytes = 4096;
    RxError e;
    memset(&e, 0, sizeof e);
    CsvFile *f = NULL;
    CHECK(csv_open(path, &o, &f, &e) == 0);
    if (f) {
        CHECK(csv_column_sorted(f, 0) == 1);
        CHECK(csv_column_sorted(f, 1) == 0);
        CHECK(csv_column_sorted(f, 2) == 0);
        CHECK(csv_column_sorted(f, 3) == 1);
        CHECK(csv_table(f)->cols[3]->type == TY_FLOAT);
        CHECK(csv_column_sorted(f, 4) == 1);
        csv_close(f);
    }
    sb_free(&b);
}

/* The cut as a byte-at-a-time state machine finds it: the reference for csv_block_cut. */
static size_t cut_reference(const char *p, size_t n, char delim) {
    enum { START, PLAIN, QUOTED, QUOTE };
    int st = START;
    size_t cut = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        switch (st) {
        case START:
        case PLAIN:
            if (c == '\n') cut = i + 1, st = START;
            else if (c == delim) st = START;
            else if (c == '"' && st == START) st = QUOTED;
            else st = PLAIN;
            break;
        case QUOTED:
            if (c == '"') st = QUOTE;
            break;
        case QUOTE:
            if (c == '"') st = QUOTED;
            else if (c == '\n') cut = i + 1, st = START;
            else if (c == delim) st = START;
            else st = PLAIN;
            break;
        }
    }
    return cut;
}

/* csv_block_cut against the reference on random bytes made of the characters that matter
 * (quotes, delimiters, line ends, CR, text), every prefix length of each. */
static void test_cut(void) {
    const char alphabet[] = "\"\"\",,\n\n\rab;";
    char buf[96];
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = rnd_below(sizeof buf);
        for (size_t i = 0; i < n; i++) buf[i] = alphabet[rnd_below(sizeof alphabet - 1)];
        char delim = round % 5 == 0 ? ';' : ',';
        for (size_t m = 0; m <= n; m++) {
            size_t want = cut_reference(buf, m, delim), got = csv_block_cut(buf, m, delim);
            if (want != got && bad++ < 5)
                fprintf(stderr, "cut of %zu bytes '%.*s': %zu, expected %zu\n", m, (int)m, buf, got, want);
            CHECK(want == got);
        }
    }
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/rx_csvs_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_small();
    test_random();
    test_sorted();
    test_cut();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("csv_stream");
}
