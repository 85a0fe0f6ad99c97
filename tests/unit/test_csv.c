/*
 * test_csv.c - unit tests of the CSV reader (src/io/csv.c): type detection, NULLs, quoting,
 * line ends, byte order marks, schemas, and every error with its message and position.
 * Each case writes a small file into a temporary directory and reads it back.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "io/io.h"
#include "types/temporal.h"

static char dir[64];
static int n_files;

/* Writes text (of length n, or strlen when n is 0) into a new file; returns its path
 * (static storage, valid until the next call). */
static const char *put_file(const char *text, size_t n) {
    static char path[128];
    snprintf(path, sizeof path, "%s/f%d.csv", dir, ++n_files);
    FILE *f = fopen(path, "wb");
    if (!f) return path;
    fwrite(text, 1, n ? n : strlen(text), f);
    fclose(f);
    return path;
}

static Table *load_opt(const char *text, size_t n, const CsvOptions *o, RxError *e) {
    Table *t = NULL;
    memset(e, 0, sizeof *e);
    const char *path = put_file(text, n);
    if (csv_read(path, o, &t, e) < 0) return NULL;
    return t;
}

static Table *load(const char *text, RxError *e) { return load_opt(text, 0, NULL, e); }

/* The text of a TEXT cell, NUL-terminated in a static buffer; "<NULL>" for NULL. */
static const char *text_at(const Table *t, int col, size_t row) {
    static char buf[256];
    const Column *c = t->cols[col];
    if (col_is_null(c, row)) return "<NULL>";
    RxStr s = col_str(c)[row];
    snprintf(buf, sizeof buf, "%.*s", (int)s.len, s.ptr);
    return buf;
}

static int64_t ts(const char *s) {
    int64_t v = 0;
    const char *why;
    tm_parse_timestamp(s, strlen(s), &v, &why);
    return v;
}

/* The error's line and column as rx_error_format prints them. */
static void err_pos(const RxError *e, uint32_t *line, uint32_t *col) {
    *line = *col = 0;
    if (e->src) rx_source_position(e->src, e->span.start, line, col);
}

static void test_detection(void) {
    RxError e;
    Table *t = load("id,sym,ts,price,ok,d,t,note\n"
                    "1,ACME,2026-01-02T09:03:00Z,10.5,true,2026-01-02,09:30:00,hello\n"
                    "2,GLOBX,2026-01-02T09:07:00.25Z,11,FALSE,2026-01-03,10:00,\"a,b\"\n"
                    "3,ACME,2026-01-02T10:00:00+01:00,-0.125,True,2026-01-04,23:59:59.5,x\n",
                    &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->n_rows == 3 && t->n_cols == 8);
    RxType want[] = {TY_INT, TY_TEXT, TY_TIMESTAMP, TY_FLOAT, TY_BOOL, TY_DATE, TY_TIME, TY_TEXT};
    for (int j = 0; j < 8; j++) CHECK(t->cols[j]->type == want[j]);
    CHECK_STR(t->names[0], "id");
    CHECK_STR(t->names[7], "note");
    CHECK(col_i64(t->cols[0])[2] == 3);
    CHECK_STR(text_at(t, 1, 1), "GLOBX");
    CHECK(col_i64(t->cols[2])[0] == ts("2026-01-02T09:03:00Z"));
    CHECK(col_i64(t->cols[2])[1] == ts("2026-01-02T09:07:00.25Z"));
    CHECK(col_i64(t->cols[2])[2] == ts("2026-01-02T09:00:00Z"));
    CHECK(col_f64(t->cols[3])[0] == 10.5);
    CHECK(col_f64(t->cols[3])[1] == 11.0);
    CHECK(col_f64(t->cols[3])[2] == -0.125);
    CHECK(col_u8(t->cols[4])[0] == 1 && col_u8(t->cols[4])[1] == 0 && col_u8(t->cols[4])[2] == 1);
    CHECK(col_i32(t->cols[5])[1] == 20456); /* 2026-01-03 */
    CHECK(col_i64(t->cols[6])[0] == 9 * US_PER_HOUR + 30 * US_PER_MIN);
    CHECK(col_i64(t->cols[6])[1] == 10 * US_PER_HOUR);
    CHECK(col_i64(t->cols[6])[2] == 23 * US_PER_HOUR + 59 * US_PER_MIN + 59500000);
    CHECK_STR(text_at(t, 7, 1), "a,b");
    /* sorted hints: id and d ascend without NULLs; price does not, nor ts (10:00+01:00 is
     * 09:00Z, before 09:07Z). */
    CHECK(t->cols[0]->sorted);
    CHECK(!t->cols[2]->sorted);
    CHECK(!t->cols[3]->sorted);
    CHECK(t->cols[5]->sorted);
    CHECK(!t->cols[1]->sorted);
    table_free(t);
}

static void test_mixes(void) {
    RxError e;
    /* INT+FLOAT -> FLOAT; DATE + one timestamp -> TEXT; INT + text -> TEXT; an integer past
     * 64 bits is an INT cell: with a FLOAT it makes FLOAT, with text TEXT. */
    char big[600];
    memset(big, '9', 400);
    big[400] = 0;
    char text[1200];
    snprintf(text, sizeof text,
             "a,b,c,d,e\n1,2026-01-01,1,2.5,x\n2.5,2026-01-02T00:00:00Z,x,99999999999999999999,%s\n",
             big);
    Table *t = load(text, &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->cols[0]->type == TY_FLOAT);
    CHECK(col_f64(t->cols[0])[0] == 1.0 && col_f64(t->cols[0])[1] == 2.5);
    CHECK(t->cols[1]->type == TY_TEXT);
    CHECK_STR(text_at(t, 1, 0), "2026-01-01");
    CHECK(t->cols[2]->type == TY_TEXT);
    CHECK(t->cols[3]->type == TY_FLOAT);
    CHECK(col_f64(t->cols[3])[1] == 1e20);
    CHECK(t->cols[4]->type == TY_TEXT);
    table_free(t);

    /* Regression (Reliability, bad-input catalogue): integers past 64 bits among integers
     * were read as FLOAT (losing digits), and one of 400 digits made the column TEXT; both
     * are errors at the cell. */
    uint32_t line, col;
    t = load("n\n1\n99999999999999999999\n", &e);
    CHECK(t == NULL && e.code == RX_EVALUE);
    CHECK(strstr(e.msg, "invalid INT '99999999999999999999' in column 'n': out of range") != NULL);
    err_pos(&e, &line, &col);
    CHECK(line == 3 && col == 1);
    table_free(t);
    snprintf(text, sizeof text, "n\n1\n%s\n", big);
    t = load(text, &e);
    CHECK(t == NULL && e.code == RX_EVALUE);
    table_free(t);
    snprintf(text, sizeof text, "n\n1.5\n%s\n", big);
    t = load(text, &e);
    CHECK(t == NULL && e.code == RX_EVALUE && strstr(e.msg, "out of range") != NULL);
    table_free(t);

    /* Large exact integers, negative numbers and exponents. */
    t = load("i,f\n9223372036854775807,1e3\n-9223372036854775808,-2.5E-3\n", &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->cols[0]->type == TY_INT);
    CHECK(col_i64(t->cols[0])[0] == INT64_MAX);
    CHECK(col_i64(t->cols[0])[1] == INT64_MIN);
    CHECK(t->cols[1]->type == TY_FLOAT);
    CHECK(col_f64(t->cols[1])[0] == 1000.0 && col_f64(t->cols[1])[1] == -0.0025);
    CHECK(!t->cols[0]->sorted);
    table_free(t);

    /* Fast path and strtod agree on many decimals. */
    t = load("x\n0.1\n0.3\n123456.789\n-0.0\n9007199254740993.5\n", &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(col_f64(t->cols[0])[0] == 0.1);
    CHECK(col_f64(t->cols[0])[1] == 0.3);
    CHECK(col_f64(t->cols[0])[2] == 123456.789);
    CHECK(col_f64(t->cols[0])[3] == 0.0);
    CHECK(col_f64(t->cols[0])[4] == 9007199254740993.5);
    table_free(t);
}

static void test_nulls(void) {
    RxError e;
    Table *t = load("a,b,c\n1,,\"\"\n,x,y\n3,\"\",z\n", &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->cols[0]->type == TY_INT);
    CHECK(col_is_null(t->cols[0], 1) && !col_is_null(t->cols[0], 0));
    CHECK(!t->cols[0]->sorted); /* a NULL */
    CHECK(t->cols[1]->type == TY_TEXT);
    CHECK_STR(text_at(t, 1, 0), "<NULL>");
    CHECK_STR(text_at(t, 1, 2), ""); /* "" is the empty string in TEXT */
    CHECK(!col_is_null(t->cols[1], 2));
    CHECK_STR(text_at(t, 2, 0), "");
    table_free(t);

    /* "" in a non-TEXT column is NULL; null_text counts only unquoted. */
    CsvOptions o;
    csv_options_default(&o);
    o.null_text = "NA";
    const char *s = "n,s\n1,NA\n\"\",\"NA\"\nNA,b\n";
    t = load_opt(s, 0, &o, &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->cols[0]->type == TY_INT);
    CHECK(col_is_null(t->cols[0], 1) && col_is_null(t->cols[0], 2));
    CHECK(col_i64(t->cols[0])[0] == 1);
    CHECK_STR(text_at(t, 1, 0), "<NULL>");
    CHECK_STR(text_at(t, 1, 1), "NA");
    table_free(t);

    /* An all-NULL column is TEXT. */
    t = load("a,b\n1,\n2,\n", &e);
    CHECK(t && t->cols[1]->type == TY_TEXT && col_is_null(t->cols[1], 0));
    table_free(t);
}

static void test_quoting(void) {
    RxError e;
    Table *t = load("q,n\n\"he said \"\"hi\"\"\",1\n\"two\nlines\",2\n\"plain\",3\n\"\"\"\",4\n",
                    &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->n_rows == 4);
    CHECK_STR(text_at(t, 0, 0), "he said \"hi\"");
    CHECK_STR(text_at(t, 0, 1), "two\nlines");
    CHECK_STR(text_at(t, 0, 2), "plain");
    CHECK_STR(text_at(t, 0, 3), "\"");
    CHECK(t->cols[0]->n_heaps == 2); /* the mapping and the unescaped heap */
    CHECK(t->cols[0]->heaps[0]->mapped);
    CHECK(col_i64(t->cols[1])[3] == 4);
    table_free(t);

    /* A quote inside an unquoted field is data. */
    t = load("a\nab\"c\n", &e);
    CHECK(t && t->n_rows == 1);
    if (t) CHECK_STR(text_at(t, 0, 0), "ab\"c");
    table_free(t);
}

static void test_line_ends(void) {
    RxError e;
    /* CRLF, with a quoted last field before \r\n. */
    Table *t = load("a,b\r\n1,x\r\n2,\"y\"\r\n3,z", &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->n_rows == 3);
    CHECK(t->cols[0]->type == TY_INT);
    CHECK_STR(t->names[1], "b");
    CHECK_STR(text_at(t, 1, 0), "x");
    CHECK_STR(text_at(t, 1, 1), "y");
    CHECK_STR(text_at(t, 1, 2), "z");
    table_free(t);

    /* A BOM is skipped; no trailing newline. */
    t = load("\xEF\xBB\xBFid,v\n7,8", &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK_STR(t->names[0], "id");
    CHECK(t->n_rows == 1 && col_i64(t->cols[1])[0] == 8);
    table_free(t);

    /* Header only: 0 rows, all TEXT. */
    t = load("a,b,c\n", &e);
    CHECK(t && t->n_rows == 0 && t->n_cols == 3 && t->cols[2]->type == TY_TEXT);
    table_free(t);
    t = load("a,b", &e);
    CHECK(t && t->n_rows == 0 && t->n_cols == 2);
    table_free(t);

    /* One column: a blank line is NULL. */
    t = load("x\n1\n\n3\n", &e);
    CHECK(t && t->n_rows == 3 && t->cols[0]->type == TY_INT && col_is_null(t->cols[0], 1));
    table_free(t);

    /* UTF-8 text and a semicolon delimiter. */
    CsvOptions o;
    csv_options_default(&o);
    o.delimiter = ';';
    t = load_opt("name;n\ncafé;1,5\n", 0, &o, &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK_STR(text_at(t, 0, 0), "café");
    CHECK(t->cols[1]->type == TY_TEXT);
    table_free(t);

    /* No header: c1, c2 ... */
    csv_options_default(&o);
    o.header = false;
    t = load_opt("1,a\n2,b\n", 0, &o, &e);
    CHECK(t && t->n_rows == 2);
    if (t) {
        CHECK_STR(t->names[0], "c1");
        CHECK_STR(t->names[1], "c2");
        CHECK(t->cols[0]->type == TY_INT);
    }
    table_free(t);
}

/* Expects reading text to fail with code, message and position. */
static void expect_error(const char *text, size_t n, const CsvOptions *o, RxErrCode code,
                         const char *msg, uint32_t line, uint32_t col, int at) {
    RxError e;
    Table *t = load_opt(text, n, o, &e);
    CHECK(t == NULL);
    table_free(t);
    if (e.code != code) fprintf(stderr, "line %d: code %d, want %d\n", at, e.code, code);
    CHECK(e.code == code);
    if (strcmp(e.msg, msg)) fprintf(stderr, "line %d: message\n", at);
    CHECK_STR(e.msg, msg);
    uint32_t l, c;
    err_pos(&e, &l, &c);
    if (l != line || c != col)
        fprintf(stderr, "line %d: position %u:%u, want %u:%u\n", at, l, c, line, col);
    CHECK(l == line && c == col);
    CHECK(e.own_src.first_line == line);
}
#define EXPECT_ERROR(text, code, msg, line, col) \
    expect_error(text, 0, NULL, code, msg, line, col, __LINE__)

static void test_errors(void) {
    EXPECT_ERROR("", RX_ECSV, "file is empty (no header row)", 1, 1);
    EXPECT_ERROR("\xEF\xBB\xBF", RX_ECSV, "file is empty (no header row)", 1, 1);
    EXPECT_ERROR("a,b,c,d\n1,2,3,4\n1,2,3,4,5\n", RX_ECSV, "line 3 has 5 fields, the header has 4",
                 3, 9);
    EXPECT_ERROR("a,b,c\n1,2\n", RX_ECSV, "line 2 has 2 fields, the header has 3", 2, 4);
    /* A quoted newline counts as a physical line. */
    EXPECT_ERROR("a,b\n\"x\ny\",1\n1\n", RX_ECSV, "line 4 has 1 field, the header has 2", 4, 2);
    EXPECT_ERROR("a,b\n1,2\n\n3,4\n", RX_ECSV, "line 3 has 1 field, the header has 2", 3, 1);
    EXPECT_ERROR("a,b\n1,2\n3,\"abc\n", RX_ECSV,
                 "unterminated quoted field: no closing '\"' before the end of the file", 3, 3);
    EXPECT_ERROR("a,b\n1,\"x\"y\n", RX_ECSV,
                 "text after the closing quote of a field (a quote inside a quoted field is "
                 "written \"\")",
                 2, 6);
    EXPECT_ERROR("a,b\n1,x\xff\n", RX_ECSV, "invalid UTF-8 (byte 0xFF) in column 'b'", 2, 3);
    EXPECT_ERROR("a,b\xc3\n1,x\n", RX_ECSV, "invalid UTF-8 in the header (byte 0xC3)", 1, 3);
    EXPECT_ERROR("a,b,a\n1,2,3\n", RX_ECSV, "duplicate column name 'a' (columns 1 and 3)", 1, 5);
    EXPECT_ERROR("a,,c\n1,2,3\n", RX_ECSV, "column 2 has an empty name in the header", 1, 3);
    EXPECT_ERROR("id,d\n1,2026-02-28\n2,2026-02-30\n", RX_EVALUE,
                 "invalid DATE '2026-02-30' in column 'd': February 2026 has 28 days", 3, 3);
    EXPECT_ERROR("id,é,ts\n1,é,2026-01-02T25:00:00Z\n", RX_EVALUE,
                 "invalid TIMESTAMP '2026-01-02T25:00:00Z' in column 'ts': hour 25 is out of "
                 "range",
                 2, 5);
    EXPECT_ERROR("t\n10:00\n24:00:00\n", RX_EVALUE,
                 "invalid TIME '24:00:00' in column 't': hour 24 is out of range", 3, 1);

    RxError e;
    Table *t = NULL;
    memset(&e, 0, sizeof e);
    CHECK(csv_read("/nonexistent/dir/x.csv", NULL, &t, &e) == -1);
    CHECK(e.code == RX_EIO && t == NULL);
    CHECK(strstr(e.msg, "cannot open '/nonexistent/dir/x.csv'") == e.msg);
    memset(&e, 0, sizeof e);
    CHECK(csv_read(dir, NULL, &t, &e) == -1 && e.code == RX_EIO);
}

static void test_schema(void) {
    static const char *const names[] = {"id", "when", "v"};
    static const RxType types[] = {TY_INT, TY_DATE, TY_TEXT};
    CsvOptions o;
    csv_options_default(&o);
    o.n_schema = 3;
    o.schema_names = names;
    o.schema_types = types;
    RxError e;
    /* Values that detection would read otherwise: "007" as TEXT. */
    Table *t = load_opt("id,when,v\n1,2026-03-01,007\n2,,\n", 0, &o, &e);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->cols[1]->type == TY_DATE && t->cols[2]->type == TY_TEXT);
    CHECK_STR(text_at(t, 2, 0), "007");
    CHECK(col_is_null(t->cols[1], 1));
    table_free(t);

    expect_error("id,when,v\nx,2026-03-01,a\n", 0, &o, RX_EVALUE,
                 "invalid INT 'x' in column 'id': not an integer", 2, 1, __LINE__);
    expect_error("id,when,v\n1,March,a\n", 0, &o, RX_EVALUE,
                 "invalid DATE 'March' in column 'when': expected YYYY-MM-DD", 2, 3, __LINE__);
    expect_error("id,when\n1,2026-03-01\n", 0, &o, RX_ECSV,
                 "the header has 2 fields, the schema has 3 columns", 1, 1, __LINE__);
    expect_error("id,v,when\n1,a,2026-03-01\n", 0, &o, RX_ECSV,
                 "column 2 is 'v' in the header but 'when' in the schema", 1, 4, __LINE__);

    /* Without a header the schema names the columns; an empty file is an empty table. */
    o.header = false;
    t = load_opt("5,2026-03-02,\"q\"\"\"\n", 0, &o, &e);
    CHECK(t && t->n_rows == 1);
    if (t) {
        CHECK_STR(t->names[1], "when");
        CHECK(col_i64(t->cols[0])[0] == 5);
        CHECK_STR(text_at(t, 2, 0), "q\"");
    }
    table_free(t);
    t = load_opt("", 0, &o, &e);
    CHECK(t && t->n_rows == 0 && t->n_cols == 3);
    table_free(t);
    expect_error("5,2026-03-02\n", 0, &o, RX_ECSV, "line 1 has 2 fields, the header has 3", 1,
                 13, __LINE__);

    /* Schema names NULL: the header names the columns. */
    static const RxType t2[] = {TY_FLOAT, TY_BOOL};
    csv_options_default(&o);
    o.n_schema = 2;
    o.schema_types = t2;
    t = load_opt("p,b\n1,true\n2.5,false\n", 0, &o, &e);
    CHECK(t && t->cols[0]->type == TY_FLOAT && t->cols[1]->type == TY_BOOL);
    if (t) {
        CHECK_STR(t->names[0], "p");
        CHECK(col_f64(t->cols[0])[0] == 1.0 && col_u8(t->cols[1])[1] == 0);
    }
    table_free(t);
    expect_error("p,b\n1,yes\n", 0, &o, RX_EVALUE,
                 "invalid BOOL 'yes' in column 'b': expected true or false", 2, 3, __LINE__);
}

static int sink_sb(void *ud, const char *p, size_t n) {
    sb_append(ud, p, n);
    return 0;
}

/* What the CSV writer prints, the reader reads back: quoting, "" against NULL, newlines. */
static void test_roundtrip(void) {
    static const char *v[] = {"a,b", "say \"hi\"", " lead", "trail ", "", NULL, "two\nlines",
                              "crlf\r\nx", "é", "\"", "0123456789abcdefghij"};
    size_t n = RX_ARRAY_LEN(v);
    Column *c = col_new(TY_TEXT, n);
    for (size_t i = 0; i < n; i++) {
        RxStr s = {v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0};
        col_str(c)[i] = s;
        if (!v[i]) col_set_null(c, i);
    }
    Table *t = table_new(2, n);
    table_set(t, 0, c, "text, with comma");
    col_retain(c);
    table_set(t, 1, c, "second");
    StrBuf b;
    sb_init(&b);
    RxSink sink = {sink_sb, &b};
    RxError e;
    memset(&e, 0, sizeof e);
    CHECK(out_write(t, OUT_CSV, &sink, &e) == 0);
    table_free(t);
    Table *u = load_opt(b.p, b.n, NULL, &e);
    sb_free(&b);
    CHECK(u != NULL);
    if (!u) return;
    CHECK(u->n_rows == n && u->n_cols == 2);
    CHECK_STR(u->names[0], "text, with comma");
    for (size_t i = 0; i < n && u->n_rows == n; i++) {
        CHECK_STR(text_at(u, 0, i), v[i] ? v[i] : "<NULL>");
        CHECK_STR(text_at(u, 1, i), v[i] ? v[i] : "<NULL>");
    }
    table_free(u);
}

static void test_error_format(void) {
    RxError e;
    Table *t = load("id,d\n1,2026-02-30\n", &e);
    CHECK(t == NULL);
    StrBuf b;
    sb_init(&b);
    rx_error_format(&e, &b);
    char want[512];
    snprintf(want, sizeof want,
             "%s/f%d.csv:2:3: error: invalid DATE '2026-02-30' in column 'd': February 2026 "
             "has 28 days\n  1,2026-02-30\n    ^~~~~~~~~~\n",
             dir, n_files);
    CHECK_STR(b.p, want);
    sb_free(&b);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/rx_csv_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_detection();
    test_mixes();
    test_nulls();
    test_quoting();
    test_line_ends();
    test_errors();
    test_schema();
    test_roundtrip();
    test_error_format();
    for (int i = 1; i <= n_files; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/f%d.csv", dir, i);
        unlink(path);
    }
    rmdir(dir);
    return check_report("csv");
}
