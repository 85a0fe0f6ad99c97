/*
 * test_output.c - unit tests of the result writers (src/io/output.c): each format's exact
 * bytes for small hand-built tables, NULLs, escaping, unicode widths, empty and one-row
 * tables, chunked writing and a failing sink.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io/io.h"
#include "types/temporal.h"

typedef struct {
    StrBuf b;
    int calls;
    size_t max_chunk;
    bool fail;
} Capture;

static int capture_write(void *ud, const char *p, size_t n) {
    Capture *c = ud;
    if (c->fail) return -1;
    c->calls++;
    if (n > c->max_chunk) c->max_chunk = n;
    sb_append(&c->b, p, n);
    return 0;
}

static char *last;

/* The table written in format f; valid until the next call. */
static const char *render(const Table *t, OutFormat f) {
    free(last);
    Capture c;
    memset(&c, 0, sizeof c);
    sb_init(&c.b);
    RxSink sink = {capture_write, &c};
    RxError e;
    memset(&e, 0, sizeof e);
    int rc = out_write(t, f, &sink, &e);
    CHECK(rc == 0);
    last = c.b.p ? c.b.p : strdup("");
    return last;
}

/* Columns from literals: a NULL text, or 'N' at row i of nulls, is a NULL value. */
static Column *text_col(size_t n, const char *const *v) {
    Column *c = col_new(TY_TEXT, n);
    for (size_t i = 0; i < n; i++) {
        RxStr s = {v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0};
        col_str(c)[i] = s;
        if (!v[i]) col_set_null(c, i);
    }
    return c;
}

static Column *int_col(size_t n, const int64_t *v, const char *nulls) {
    Column *c = col_new(TY_INT, n);
    for (size_t i = 0; i < n; i++) {
        col_i64(c)[i] = v[i];
        if (nulls && nulls[i] == 'N') col_set_null(c, i);
    }
    return c;
}

static Column *float_col(size_t n, const double *v, const char *nulls) {
    Column *c = col_new(TY_FLOAT, n);
    for (size_t i = 0; i < n; i++) {
        col_f64(c)[i] = v[i];
        if (nulls && nulls[i] == 'N') col_set_null(c, i);
    }
    return c;
}

static Column *ts_col(size_t n, const char *const *v) {
    Column *c = col_new(TY_TIMESTAMP, n);
    for (size_t i = 0; i < n; i++) {
        const char *why;
        col_i64(c)[i] = 0;
        if (v[i]) tm_parse_timestamp(v[i], strlen(v[i]), &col_i64(c)[i], &why);
        else col_set_null(c, i);
    }
    return c;
}

/* The spec's AS-OF result shape, with a NULL-padded third row. */
static Table *trades(size_t n) {
    static const char *sym[] = {"ACME", "ACME", "GLOBX"};
    static const char *t1[] = {"2026-01-02T09:03:00Z", "2026-01-02T09:07:00Z",
                               "2026-01-02T09:08:00.5Z"};
    static const int64_t qty[] = {100, 50, 7};
    static const char *sym_r[] = {"ACME", "ACME", NULL};
    static const char *t2[] = {"2026-01-02T09:00:00Z", "2026-01-02T09:05:00Z", NULL};
    static const double price[] = {10.0, 10.25, 0};
    Table *t = table_new(6, n);
    table_set(t, 0, text_col(n, sym), "sym");
    table_set(t, 1, ts_col(n, t1), "ts");
    table_set(t, 2, int_col(n, qty, NULL), "qty");
    table_set(t, 3, text_col(n, sym_r), "sym_r");
    table_set(t, 4, ts_col(n, t2), "ts_r");
    table_set(t, 5, float_col(n, price, "..N"), "price");
    return t;
}

static void test_table(void) {
    Table *t = trades(3);
    CHECK_STR(render(t, OUT_TABLE),
              " sym    ts                      qty  sym_r  ts_r                  price\n"
              " ─────  ──────────────────────  ───  ─────  ────────────────────  ─────\n"
              " ACME   2026-01-02T09:03:00Z    100  ACME   2026-01-02T09:00:00Z     10\n"
              " ACME   2026-01-02T09:07:00Z     50  ACME   2026-01-02T09:05:00Z  10.25\n"
              " GLOBX  2026-01-02T09:08:00.5Z    7  NULL   NULL                   NULL\n"
              "(3 rows)\n");
    table_free(t);

    t = trades(1);
    CHECK_STR(render(t, OUT_TABLE),
              " sym   ts                    qty  sym_r  ts_r                  price\n"
              " ────  ────────────────────  ───  ─────  ────────────────────  ─────\n"
              " ACME  2026-01-02T09:03:00Z  100  ACME   2026-01-02T09:00:00Z     10\n"
              "(1 row)\n");
    table_free(t);

    t = trades(0);
    CHECK_STR(render(t, OUT_TABLE),
              " sym  ts  qty  sym_r  ts_r  price\n"
              " ───  ──  ───  ─────  ────  ─────\n"
              "(0 rows)\n");
    table_free(t);

    /* Unicode widths count code points; trailing spaces are trimmed; escapes keep the grid. */
    static const char *name[] = {"café", "x", "a\nb\tc", ""};
    static const int64_t n[] = {1, 22, 3, 4};
    t = table_new(2, 4);
    table_set(t, 0, int_col(4, n, ".N.."), "n");
    table_set(t, 1, text_col(4, name), "név");
    CHECK_STR(render(t, OUT_TABLE),
              "    n  név\n"
              " ────  ───────\n"
              "    1  café\n"
              " NULL  x\n"
              "    3  a\\nb\\tc\n"
              "    4\n"
              "(4 rows)\n");
    table_free(t);

    /* No columns: only the count. */
    t = table_new(0, 2);
    CHECK_STR(render(t, OUT_TABLE), "(2 rows)\n");
    table_free(t);

    /* Other types. */
    Column *b = col_new(TY_BOOL, 2), *d = col_new(TY_DATE, 2), *tm = col_new(TY_TIME, 2),
           *du = col_new(TY_DURATION, 2);
    col_u8(b)[0] = 1, col_u8(b)[1] = 0;
    col_i32(d)[0] = 20456, col_i32(d)[1] = 0;
    col_i64(tm)[0] = 9 * US_PER_HOUR + 1500000, col_i64(tm)[1] = 0;
    col_dur(du)[0] = (RxDuration){0, 2 * US_PER_HOUR};
    col_dur(du)[1] = (RxDuration){0, -5 * US_PER_MIN};
    t = table_new(4, 2);
    table_set(t, 0, b, "b");
    table_set(t, 1, d, "d");
    table_set(t, 2, tm, "t");
    table_set(t, 3, du, "dur");
    CHECK_STR(render(t, OUT_TABLE),
              " b      d           t           dur\n"
              " ─────  ──────────  ──────────  ─────\n"
              " true   2026-01-03  09:00:01.5  PT2H\n"
              " false  1970-01-01  00:00:00    -PT5M\n"
              "(2 rows)\n");
    CHECK_STR(render(t, OUT_CSV),
              "b,d,t,dur\ntrue,2026-01-03,09:00:01.5,PT2H\nfalse,1970-01-01,00:00:00,-PT5M\n");
    CHECK_STR(render(t, OUT_JSON),
              "[\n{\"b\":true,\"d\":\"2026-01-03\",\"t\":\"09:00:01.5\",\"dur\":\"PT2H\"},\n"
              "{\"b\":false,\"d\":\"1970-01-01\",\"t\":\"00:00:00\",\"dur\":\"-PT5M\"}\n]\n");
    table_free(t);
}

static void test_csv_tsv(void) {
    Table *t = trades(3);
    CHECK_STR(render(t, OUT_CSV),
              "sym,ts,qty,sym_r,ts_r,price\n"
              "ACME,2026-01-02T09:03:00Z,100,ACME,2026-01-02T09:00:00Z,10\n"
              "ACME,2026-01-02T09:07:00Z,50,ACME,2026-01-02T09:05:00Z,10.25\n"
              "GLOBX,2026-01-02T09:08:00.5Z,7,,,\n");
    CHECK_STR(render(t, OUT_TSV),
              "sym\tts\tqty\tsym_r\tts_r\tprice\n"
              "ACME\t2026-01-02T09:03:00Z\t100\tACME\t2026-01-02T09:00:00Z\t10\n"
              "ACME\t2026-01-02T09:07:00Z\t50\tACME\t2026-01-02T09:05:00Z\t10.25\n"
              "GLOBX\t2026-01-02T09:08:00.5Z\t7\t\\N\t\\N\t\\N\n");
    table_free(t);

    static const char *v[] = {"a,b", "say \"hi\"", " lead", "trail ", "", NULL, "two\nlines",
                              "cr\r", "tab\there", "back\\slash", "plain"};
    t = table_new(1, 11);
    table_set(t, 0, text_col(11, v), "a b");
    CHECK_STR(render(t, OUT_CSV),
              "a b\n\"a,b\"\n\"say \"\"hi\"\"\"\n\" lead\"\n\"trail \"\n\"\"\n\n\"two\nlines\"\n"
              "\"cr\r\"\ntab\there\nback\\slash\nplain\n");
    CHECK_STR(render(t, OUT_TSV),
              "a b\na,b\nsay \"hi\"\n lead\ntrail \n\n\\N\ntwo\\nlines\ncr\\r\ntab\\there\n"
              "back\\\\slash\nplain\n");
    table_free(t);

    /* Regression (Reliability, fuzz_csv round trip): a name or value starting with U+FEFF
     * was written bare, and first in a file it read back as a byte order mark. */
    static const char *bom[] = {"\xEF\xBB\xBFx", "y\xEF\xBB\xBF"};
    t = table_new(1, 2);
    table_set(t, 0, text_col(2, bom), "\xEF\xBB\xBF");
    CHECK_STR(render(t, OUT_CSV), "\"\xEF\xBB\xBF\"\n\"\xEF\xBB\xBFx\"\ny\xEF\xBB\xBF\n");
    table_free(t);

    t = trades(0);
    CHECK_STR(render(t, OUT_CSV), "sym,ts,qty,sym_r,ts_r,price\n");
    table_free(t);
    t = table_new(0, 3);
    CHECK_STR(render(t, OUT_CSV), "");
    table_free(t);
}

static void test_json(void) {
    Table *t = trades(3);
    CHECK_STR(render(t, OUT_JSON),
              "[\n"
              "{\"sym\":\"ACME\",\"ts\":\"2026-01-02T09:03:00Z\",\"qty\":100,\"sym_r\":\"ACME\","
              "\"ts_r\":\"2026-01-02T09:00:00Z\",\"price\":10},\n"
              "{\"sym\":\"ACME\",\"ts\":\"2026-01-02T09:07:00Z\",\"qty\":50,\"sym_r\":\"ACME\","
              "\"ts_r\":\"2026-01-02T09:05:00Z\",\"price\":10.25},\n"
              "{\"sym\":\"GLOBX\",\"ts\":\"2026-01-02T09:08:00.5Z\",\"qty\":7,\"sym_r\":null,"
              "\"ts_r\":null,\"price\":null}\n"
              "]\n");
    table_free(t);
    t = trades(0);
    CHECK_STR(render(t, OUT_JSON), "[]\n");
    table_free(t);

    static const char *v[] = {"q\"b\\s/", "\x01\n\t\r\b\f", "bad\xff\xc3", "é€😀"};
    static const double f[] = {NAN, INFINITY, -0.0, 1e21};
    t = table_new(2, 4);
    table_set(t, 0, text_col(4, v), "s\"");
    table_set(t, 1, float_col(4, f, NULL), "f");
    CHECK_STR(render(t, OUT_JSON),
              "[\n"
              "{\"s\\\"\":\"q\\\"b\\\\s/\",\"f\":null},\n"
              "{\"s\\\"\":\"\\u0001\\n\\t\\r\\b\\f\",\"f\":null},\n"
              "{\"s\\\"\":\"bad\xEF\xBF\xBD\xEF\xBF\xBD\",\"f\":-0},\n"
              "{\"s\\\"\":\"é€😀\",\"f\":1e+21}\n"
              "]\n");
    /* Widths: the escaped control text is 18 code points (\x01 \n \t \r \x08 \x0c); each
     * invalid byte prints as \xHH, four. */
    CHECK_STR(render(t, OUT_TABLE),
              " s\"" "                         f\n"
              " ──────────────────  ────────\n"
              " q\"b\\s/                   NaN\n"
              " \\x01\\n\\t\\r\\x08\\x0c  Infinity\n"
              " bad\\xff\\xc3               -0\n"
              " é€😀                    1e+21\n"
              "(4 rows)\n");
    table_free(t);
}

static void test_markdown(void) {
    Table *t = trades(2);
    CHECK_STR(render(t, OUT_MARKDOWN),
              "| sym | ts | qty | sym_r | ts_r | price |\n"
              "|---|---|---:|---|---|---:|\n"
              "| ACME | 2026-01-02T09:03:00Z | 100 | ACME | 2026-01-02T09:00:00Z | 10 |\n"
              "| ACME | 2026-01-02T09:07:00Z | 50 | ACME | 2026-01-02T09:05:00Z | 10.25 |\n");
    table_free(t);
    static const char *v[] = {"a|b", NULL, "x\ny"};
    t = table_new(1, 3);
    table_set(t, 0, text_col(3, v), "c|d");
    CHECK_STR(render(t, OUT_MARKDOWN),
              "| c\\|d |\n|---|\n| a\\|b |\n| NULL |\n| x\\ny |\n");
    table_free(t);
}

/* Regression (issue #20): the table and markdown formats printed control bytes raw, so a CSV
 * cell holding ESC [ 2 J, BEL or a C1 CSI (U+009B) drove the user's terminal. They print
 * escaped now, widths counted on the escapes; csv, tsv and json keep the bytes (json escapes
 * C0 as RFC 8259 requires). */
static void test_terminal_escapes(void) {
    static const char *v[] = {"\x1b[2J", "bel\a", "del\x7f", "c1\xc2\x9b" "31m", "nel\xc2\x85",
                              "nbsp\xc2\xa0é", "bad\xff\xfe", "\x1b]0;title\x07"};
    Table *t = table_new(1, 8);
    table_set(t, 0, text_col(8, v), "h\x1b[1m");
    CHECK_STR(render(t, OUT_TABLE),
              " h\\x1b[1m\n"
              " ────────────────\n"
              " \\x1b[2J\n"
              " bel\\x07\n"
              " del\\x7f\n"
              " c1\\u009b31m\n"
              " nel\\u0085\n"
              " nbsp\xc2\xa0é\n"
              " bad\\xff\\xfe\n"
              " \\x1b]0;title\\x07\n"
              "(8 rows)\n");
    const char *md = render(t, OUT_MARKDOWN);
    CHECK_STR(md, "| h\\x1b[1m |\n|---|\n| \\x1b[2J |\n| bel\\x07 |\n| del\\x7f |\n| c1\\u009b31m |\n"
                  "| nel\\u0085 |\n| nbsp\xc2\xa0é |\n| bad\\xff\\xfe |\n| \\x1b]0;title\\x07 |\n");
    /* no byte below 0x20 but \n, no DEL, no C1 lead pair in either */
    const char *outs[2];
    outs[0] = strdup(render(t, OUT_TABLE));
    outs[1] = strdup(render(t, OUT_MARKDOWN));
    for (int k = 0; k < 2; k++) {
        bool clean = outs[k] != NULL;
        for (const unsigned char *p = (const unsigned char *)outs[k]; clean && *p; p++)
            clean = !((*p < 0x20 && *p != '\n') || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0) ||
                      *p == 0xFF);
        CHECK(clean);
        free((void *)outs[k]);
    }
    /* the data formats keep every byte */
    CHECK_STR(render(t, OUT_CSV), "h\x1b[1m\n\x1b[2J\nbel\a\ndel\x7f\nc1\xc2\x9b" "31m\nnel\xc2\x85\n"
                                  "nbsp\xc2\xa0é\nbad\xff\xfe\n\x1b]0;title\x07\n");
    CHECK_STR(render(t, OUT_TSV), "h\x1b[1m\n\x1b[2J\nbel\a\ndel\x7f\nc1\xc2\x9b" "31m\nnel\xc2\x85\n"
                                  "nbsp\xc2\xa0é\nbad\xff\xfe\n\x1b]0;title\x07\n");
    CHECK_STR(render(t, OUT_JSON), "[\n{\"h\\u001b[1m\":\"\\u001b[2J\"},\n{\"h\\u001b[1m\":\"bel\\u0007\"},\n"
                                   "{\"h\\u001b[1m\":\"del\x7f\"},\n{\"h\\u001b[1m\":\"c1\xc2\x9b" "31m\"},\n"
                                   "{\"h\\u001b[1m\":\"nel\xc2\x85\"},\n{\"h\\u001b[1m\":\"nbsp\xc2\xa0é\"},\n"
                                   "{\"h\\u001b[1m\":\"bad\xEF\xBF\xBD\xEF\xBF\xBD\"},\n"
                                   "{\"h\\u001b[1m\":\"\\u001b]0;title\\u0007\"}\n]\n");
    table_free(t);
    /* alignment: a right-hand column starts at the same place after escaped and plain cells */
    static const char *w[] = {"\x1b", "abcd"};
    static const int64_t n[] = {1, 2};
    t = table_new(2, 2);
    table_set(t, 0, text_col(2, w), "s");
    table_set(t, 1, int_col(2, n, NULL), "n");
    CHECK_STR(render(t, OUT_TABLE), " s     n\n ────  ─\n \\x1b  1\n abcd  2\n(2 rows)\n");
    table_free(t);
}

static void test_names_and_values(void) {
    OutFormat f;
    CHECK(out_format_from_name("table", &f) == 0 && f == OUT_TABLE);
    CHECK(out_format_from_name("csv", &f) == 0 && f == OUT_CSV);
    CHECK(out_format_from_name("tsv", &f) == 0 && f == OUT_TSV);
    CHECK(out_format_from_name("json", &f) == 0 && f == OUT_JSON);
    CHECK(out_format_from_name("markdown", &f) == 0 && f == OUT_MARKDOWN);
    CHECK(out_format_from_name("md", &f) == 0 && f == OUT_MARKDOWN);
    CHECK(out_format_from_name("xml", &f) == -1);

    Table *t = trades(3);
    StrBuf b;
    sb_init(&b);
    out_value_text(t->cols[5], 1, "NULL", &b);
    sb_putc(&b, '|');
    out_value_text(t->cols[5], 2, "NULL", &b);
    sb_putc(&b, '|');
    out_value_text(t->cols[3], 2, NULL, &b);
    sb_putc(&b, '|');
    out_value_text(t->cols[1], 2, NULL, &b);
    CHECK_STR(b.p, "10.25|NULL||2026-01-02T09:08:00.5Z");
    sb_free(&b);
    table_free(t);
}

static void test_chunks_and_failure(void) {
    size_t n = 50000;
    Column *c = col_new(TY_INT, n);
    for (size_t i = 0; i < n; i++) col_i64(c)[i] = (int64_t)i * 1000;
    Table *t = table_new(1, n);
    table_set(t, 0, c, "v");
    Capture cap;
    memset(&cap, 0, sizeof cap);
    sb_init(&cap.b);
    RxSink sink = {capture_write, &cap};
    RxError e;
    memset(&e, 0, sizeof e);
    CHECK(out_write(t, OUT_TABLE, &sink, &e) == 0);
    CHECK(cap.calls > 5);
    CHECK(cap.max_chunk < 70 * 1024);
    CHECK(strstr(cap.b.p, "\n 49999000\n(50000 rows)\n") != NULL);
    const char *head = "        v\n ────────\n        0\n     1000\n";
    CHECK(strncmp(cap.b.p, head, strlen(head)) == 0);
    sb_free(&cap.b);

    memset(&cap, 0, sizeof cap);
    cap.fail = true;
    memset(&e, 0, sizeof e);
    CHECK(out_write(t, OUT_CSV, &sink, &e) == -1);
    CHECK(e.code == RX_EIO);
    table_free(t);
}

/* The table written in format f with options; valid until the next call. */
static const char *render_opts(const Table *t, OutFormat f, const OutOptions *opt) {
    free(last);
    Capture c;
    memset(&c, 0, sizeof c);
    sb_init(&c.b);
    RxSink sink = {capture_write, &c};
    RxError e;
    memset(&e, 0, sizeof e);
    CHECK(out_write_opts(t, f, opt, &sink, &e) == 0);
    last = c.b.p ? c.b.p : strdup("");
    return last;
}

/* A table of n rows: k = 1..n, and a text whose width grows in the middle rows (so that the
 * widths are measured over the rows shown only). */
static Table *numbers(size_t n) {
    Column *k = col_new(TY_INT, n);
    Column *w = col_new(TY_TEXT, n);
    static const char wide[] = "a-wide-middle-value";
    for (size_t i = 0; i < n; i++) {
        col_i64(k)[i] = (int64_t)i + 1;
        bool middle = i > 2 && i + 3 < n;
        RxStr v = {middle ? wide : "x", middle ? sizeof wide - 1 : 1};
        col_str(w)[i] = v;
    }
    Table *t = table_new(2, n);
    table_set(t, 0, k, "k");
    table_set(t, 1, w, "w");
    return t;
}

static void test_row_limit(void) {
    Table *t = numbers(1234);
    OutOptions opt = {4, "more with N", 0, false};
    CHECK_STR(render_opts(t, OUT_TABLE, &opt),
              "    k  w\n"
              " ────  ─\n"
              "    1  x\n"
              "    2  x\n"
              " … 1,230 rows not shown; more with N\n"
              " 1233  x\n"
              " 1234  x\n"
              "(1234 rows)\n");
    /* odd: one more at the head; no hint */
    OutOptions three = {3, NULL, 0, false};
    CHECK_STR(render_opts(t, OUT_TABLE, &three),
              "    k  w\n"
              " ────  ─\n"
              "    1  x\n"
              "    2  x\n"
              " … 1,231 rows not shown\n"
              " 1234  x\n"
              "(1234 rows)\n");
    /* one row: the head only, the line still says what is missing */
    OutOptions one = {1, NULL, 0, false};
    CHECK_STR(render_opts(t, OUT_TABLE, &one),
              " k  w\n"
              " ─  ─\n"
              " 1  x\n"
              " … 1,233 rows not shown\n"
              "(1234 rows)\n");
    /* the other formats and a limit of 0 write every row */
    OutOptions none = {0, "x", 0, false};
    CHECK(strstr(render_opts(t, OUT_TABLE, &none), " 617  a-wide-middle-value\n") != NULL);
    CHECK(strstr(render_opts(t, OUT_CSV, &opt), "\n617,a-wide-middle-value\n") != NULL);
    table_free(t);
    /* no more rows than the limit: all of them, no line */
    t = numbers(4);
    CHECK_STR(render_opts(t, OUT_TABLE, &opt),
              " k  w\n"
              " ─  ─\n"
              " 1  x\n"
              " 2  x\n"
              " 3  x\n"
              " 4  x\n"
              "(4 rows)\n");
    table_free(t);
}

/* A result written chunk by chunk (the header with the first, OutOptions.no_header after) is
 * byte for byte the whole result's, in CSV and TSV: no_header writes exactly the rows. */
static void test_no_header(void) {
    Table *t = numbers(10);
    OutOptions rows_only = {0, NULL, 0, true};
    for (int f = 0; f < 2; f++) {
        OutFormat fmt = f ? OUT_TSV : OUT_CSV;
        char *whole = strdup(render(t, fmt));
        const char *rows = strchr(whole, '\n') + 1;
        CHECK_STR(render_opts(t, fmt, &rows_only), rows);
        free(whole);
    }
    table_free(t);
}

static void test_jsonl(void) {
    Table *t = trades(3);
    CHECK_STR(render(t, OUT_JSONL),
              "{\"sym\":\"ACME\",\"ts\":\"2026-01-02T09:03:00Z\",\"qty\":100,\"sym_r\":\"ACME\",\"ts_r\":\"2026-01-02T09:00:00Z\",\"price\":10}\n"
              "{\"sym\":\"ACME\",\"ts\":\"2026-01-02T09:07:00Z\",\"qty\":50,\"sym_r\":\"ACME\",\"ts_r\":\"2026-01-02T09:05:00Z\",\"price\":10.25}\n"
              "{\"sym\":\"GLOBX\",\"ts\":\"2026-01-02T09:08:00.5Z\",\"qty\":7,\"sym_r\":null,\"ts_r\":null,\"price\":null}\n");
    OutOptions q = {0, NULL, 2, false};
    table_free(t);
    t = trades(1);
    CHECK_STR(render_opts(t, OUT_JSONL, &q),
              "{\"query\":2,\"row\":{\"sym\":\"ACME\",\"ts\":\"2026-01-02T09:03:00Z\",\"qty\":100,\"sym_r\":\"ACME\",\"ts_r\":\"2026-01-02T09:00:00Z\",\"price\":10}}\n");
    table_free(t);
    t = trades(0);
    CHECK_STR(render(t, OUT_JSONL), "");
    table_free(t);
    OutFormat f;
    CHECK(out_format_from_name("jsonl", &f) == 0 && f == OUT_JSONL);
}

int main(void) {
    test_table();
    test_row_limit();
    test_jsonl();
    test_no_header();
    test_csv_tsv();
    test_json();
    test_markdown();
    test_terminal_escapes();
    test_names_and_values();
    test_chunks_and_failure();
    free(last);
    return check_report("output");
}
