/*
 * test_csv.c - unit tests of the CSV reader (src/io/csv.c): type detection, NULLs, quoting,
 * line ends, byte order marks, schemas, and every error with its message and position.
 * Each case writes a small file into a temporary directory and reads it back. The parallel
 * reader is checked against itself: every file read in chunks of many sizes on several
 * threads gives the same table (values, NULLs, types, sorted hints, dictionaries) or the same
 * error as one chunk on one thread; and its number parsers against strtod, strtoll and
 * temporal.c on millions of random values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "io/io.h"
#include "types/number.h"
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
    RxStr s = col_text(c, row);
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
    /* read in windows: every cell copied into one heap of the load's, none of the file */
    CHECK(t->cols[0]->n_heaps == 1 && !t->cols[0]->heaps[0]->mapped);
    CHECK(col_i64(t->cols[1])[3] == 4);
    table_free(t);
    CsvOptions held;
    csv_options_default(&held);
    held.hold_input = true;
    t = load_opt("q,n\n\"he said \"\"hi\"\"\",1\n\"two\nlines\",2\n\"plain\",3\n\"\"\"\",4\n", 0,
                 &held, &e);
    CHECK(t && t->n_rows == 4);
    if (t) {
        CHECK_STR(text_at(t, 0, 0), "he said \"hi\"");
        CHECK_STR(text_at(t, 0, 1), "two\nlines");
        CHECK(t->cols[0]->n_heaps == 2); /* the mapping and the unescaped heap */
        CHECK(t->cols[0]->heaps[0]->mapped);
    }
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

/* Numbers written as identifiers (a leading zero before a digit, a leading '+') keep their
 * column TEXT when detecting; "0", "-0" and "0.5" are numbers. types => gives some columns'
 * types and leaves the others detected. */
static void test_identifiers_and_types(void) {
    RxError e;
    Table *t = load("zip,ph,lead,z,neg,half,f\n02139,+1415,007.5,0,-0,0.5,00\n"
                    "10001,+44,1.5,1,3,1.5,1\n", &e);
    CHECK(t != NULL);
    if (t) {
        RxType want[] = {TY_TEXT, TY_TEXT, TY_TEXT, TY_INT, TY_INT, TY_FLOAT, TY_TEXT};
        for (int j = 0; j < 7; j++) CHECK(t->cols[j]->type == want[j]);
        CHECK_STR(text_at(t, 0, 0), "02139");
        CHECK_STR(text_at(t, 1, 0), "+1415");
        CHECK_STR(text_at(t, 2, 0), "007.5");
        table_free(t);
    }
    /* a leading zero in a date is a date's, not an identifier's */
    t = load("d\n0001-01-02\n", &e);
    CHECK(t && t->cols[0]->type == TY_DATE);
    table_free(t);

    static const char *const names[] = {"zip", "n"};
    static const RxType types[] = {TY_TEXT, TY_FLOAT};
    CsvOptions o;
    csv_options_default(&o);
    o.n_types = 2;
    o.type_names = names;
    o.type_types = types;
    t = load_opt("n,zip,b\n1,94105,true\n2,10001,false\n", 0, &o, &e);
    CHECK(t != NULL);
    if (t) {
        CHECK(t->cols[0]->type == TY_FLOAT && t->cols[1]->type == TY_TEXT &&
              t->cols[2]->type == TY_BOOL);
        CHECK(col_f64(t->cols[0])[1] == 2.0);
        CHECK_STR(text_at(t, 1, 0), "94105");
        table_free(t);
    }
    static const char *const bad[] = {"zipp"};
    o.n_types = 1;
    o.type_names = bad;
    CHECK(load_opt("zip,n\n1,2\n", 0, &o, &e) == NULL);
    CHECK(e.code == RX_ENAME && strstr(e.msg, "'zipp'") && strstr(e.msg, "columns: zip, n"));
    static const char *const b1[] = {"b"};
    static const RxType ti[] = {TY_INT};
    o.type_names = b1;
    o.type_types = ti;
    expect_error("a,b\n1,2\n3,x\n", 0, &o, RX_EVALUE,
                 "invalid INT 'x' in column 'b': not an integer", 3, 3, __LINE__);
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

/* ---- chunked reading ------------------------------------------------------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

/* Everything a reading gives, as text: each column's name, type, sorted hint and dictionary,
 * and every cell (with its dictionary code), or the error with its position and quoted line. */
static void dump_table(const Table *t, StrBuf *b) {
    sb_printf(b, "%zu rows, %d columns\n", t->n_rows, t->n_cols);
    for (int j = 0; j < t->n_cols; j++) {
        const Column *c = t->cols[j];
        sb_printf(b, "%s %s%s%s dict %u\n", t->names[j], type_name(c->type),
                  c->sorted ? " sorted" : "", c->valid ? " nulls" : "", c->codes ? c->n_dict : 0);
        for (uint32_t k = 0; c->codes && k < c->n_dict; k++)
            sb_printf(b, "  %u=%.*s\n", k, (int)c->dict[k].len, c->dict[k].ptr);
    }
    for (size_t i = 0; i < t->n_rows; i++) {
        for (int j = 0; j < t->n_cols; j++) {
            const Column *c = t->cols[j];
            if (j) sb_putc(b, '|');
            if (col_is_null(c, i)) {
                sb_puts(b, "<NULL>");
            } else if (c->type == TY_FLOAT) {
                sb_printf(b, "%a", col_f64(c)[i]); /* exact, and -0 is not 0 */
            } else {
                out_value_text(c, i, "", b);
            }
            if (c->codes) sb_printf(b, "#%u", c->codes[i]);
        }
        sb_putc(b, '\n');
    }
}

static void dump_error(const RxError *e, StrBuf *b) {
    uint32_t line, col;
    err_pos(e, &line, &col);
    sb_printf(b, "error %d at %u:%u: %s\n", (int)e->code, line, col, e->msg);
    if (e->src) sb_printf(b, "  %.*s\n", (int)e->src->len, e->src->text);
}

/* Reads path with the given chunk size and threads (and schema options from base) into b:
 * in one step, or (split) in two, every other column first. */
static void read_dump(const char *path, const CsvOptions *base, size_t chunk, int threads,
                      bool split, StrBuf *b) {
    CsvOptions o;
    if (base) o = *base;
    else csv_options_default(&o);
    o.chunk_bytes = chunk;
    o.threads = threads;
    RxError e;
    memset(&e, 0, sizeof e);
    if (!split) {
        Table *t = NULL;
        if (csv_read(path, &o, &t, &e) < 0) dump_error(&e, b);
        else dump_table(t, b);
        table_free(t);
        return;
    }
    CsvFile *f = NULL;
    if (csv_open(path, &o, &f, &e) < 0) {
        dump_error(&e, b);
        return;
    }
    int n = csv_table(f)->n_cols;
    uint8_t *want = calloc((size_t)n + 1, 1);
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (int j = 0; j < n; j++) want[j] = (uint8_t)(j % 2 == pass);
        rc = csv_load(f, want, &e);
    }
    free(want);
    if (rc < 0) dump_error(&e, b);
    else dump_table(csv_table(f), b);
    csv_close(f);
}

/* Reads the file at path as one chunk on one thread, then in chunks of many sizes on one to
 * four threads (and in two steps): every reading must give the same text. Returns the first
 * reading in *ref when ref is not NULL (the caller frees it). */
static void expect_same_chunked(const char *path, const CsvOptions *o, StrBuf *ref, int at) {
    static const size_t chunks[] = {1, 2, 3, 7, 61, 4093, 65536};
    struct stat st;
    /* Big files: chunks of 61 bytes stand for the smallest (a record or less each), and two
     * thread counts for all. */
    bool big = stat(path, &st) == 0 && st.st_size > 100000;
    size_t first = big ? 4 : 0; /* chunks[4] is 61 */
    StrBuf want;
    sb_init(&want);
    read_dump(path, o, SIZE_MAX, 1, false, &want);
    for (size_t i = first; i < RX_ARRAY_LEN(chunks); i++) {
        for (int threads = 1; threads <= 4; threads += (threads == 1 ? 1 + big : 2)) {
            for (int split = 0; split < 2; split++) {
                StrBuf got;
                sb_init(&got);
                read_dump(path, o, chunks[i], threads, split, &got);
                bool same = got.n == want.n && memcmp(got.p, want.p, want.n) == 0;
                if (!same)
                    fprintf(stderr, "line %d: chunks of %zu, %d threads%s differ:\n%.400s\n--- "
                            "one chunk:\n%.400s\n", at, chunks[i], threads,
                            split ? ", two steps" : "", got.p, want.p);
                CHECK(same);
                sb_free(&got);
                if (!same) goto out;
            }
        }
    }
out:
    if (ref) *ref = want;
    else sb_free(&want);
}
#define EXPECT_SAME_CHUNKED(text) \
    expect_same_chunked(put_file(text, 0), NULL, NULL, __LINE__)

/* Small files whose every byte is a chunk boundary at chunk size 1. */
static void test_chunks_small(void) {
    EXPECT_SAME_CHUNKED("a,b\n1,x\n2,y\n3,z\n");
    EXPECT_SAME_CHUNKED("q,n\n\"he said \"\"hi\"\"\",1\n\"two\nlines\",2\n\"plain\",3\n\"\"\"\",4\n");
    /* A newline inside quotes followed by text that would parse as a record of its own. */
    EXPECT_SAME_CHUNKED("a,b\n1,\"x\n2,y\"\n3,\"\n4,\n5\"\n");
    EXPECT_SAME_CHUNKED("a,b\r\n1,x\r\n2,\"y\"\r\n3,z");
    EXPECT_SAME_CHUNKED("\xEF\xBB\xBFid,v\n7,8");
    EXPECT_SAME_CHUNKED("x\n1\n\n3\n\n");
    EXPECT_SAME_CHUNKED("a,b,c\n1,,\"\"\n,x,y\n3,\"\",z\n");
    EXPECT_SAME_CHUNKED("n\n3\n2\n1\n");
    EXPECT_SAME_CHUNKED("n,f\n1,0.5\n2,0.25\n3,nan\n4,1\n");
    EXPECT_SAME_CHUNKED("a,b\n1,2026-01-01\n2.5,2026-01-02T00:00:00Z\n");
    EXPECT_SAME_CHUNKED("a,b\n");
    /* Errors: the first in the file, whatever the chunks. */
    EXPECT_SAME_CHUNKED("a,b,c\n1,2,3\n1,2\n1,2,3,4\n");
    EXPECT_SAME_CHUNKED("a,b\n\"x\ny\",1\n1\n");
    EXPECT_SAME_CHUNKED("a,b\n1,2\n3,\"abc\n");
    EXPECT_SAME_CHUNKED("a,b\n1,\"x\"y\n2,\"\n");
    EXPECT_SAME_CHUNKED("a,b\n1,x\xff\n2\n");
    EXPECT_SAME_CHUNKED("a,b\n1,\"x\ny\xc3\"\n1,2,3\n");
    EXPECT_SAME_CHUNKED("a,b\n1,\"x\ny\",\xc3\n1,2,3\n");
    EXPECT_SAME_CHUNKED("a,b\n1,x\n2,y,\xe2\x82\n");
    EXPECT_SAME_CHUNKED("a,b\xc3\n1,x\n");
    EXPECT_SAME_CHUNKED("id,d\n1,2026-02-28\n2,2026-02-30\n3,2026-02-31\n");
    EXPECT_SAME_CHUNKED("n\n1\n99999999999999999999\n-99999999999999999999\n");
    CsvOptions o;
    csv_options_default(&o);
    o.null_text = "NA";
    o.delimiter = ';';
    expect_same_chunked(put_file("n;s\n1;NA\n\"\";\"NA\"\nNA;b\n", 0), &o, NULL, __LINE__);
    static const char *const names[] = {"id", "when", "v"};
    static const RxType types[] = {TY_INT, TY_DATE, TY_TEXT};
    csv_options_default(&o);
    o.n_schema = 3;
    o.schema_names = names;
    o.schema_types = types;
    expect_same_chunked(put_file("id,when,v\n1,2026-03-01,007\n2,,\nx,2026-03-01,a\n", 0), &o,
                        NULL, __LINE__);
    o.header = false;
    expect_same_chunked(put_file("5,2026-03-02,\"q\"\"\"\n6,,\"a\nb\"\n", 0), &o, NULL, __LINE__);
}

/* A random cell of a nasty TEXT column: quotes, escapes, delimiters, newlines (\n and \r\n),
 * empty and NULL, non-ASCII. */
static void random_text(StrBuf *b) {
    static const char *const parts[] = {"x", "ab", "a,b", "\"\"", "\n", "\r\n", "é", "日本",
                                        " ", "NA", "1", "2026-01-01", "\r"};
    unsigned k = rnd_below(10);
    if (k == 0) return;                       /* NULL */
    if (k == 1) {
        sb_puts(b, "\"\"");                   /* the empty string */
        return;
    }
    if (k < 4) {                              /* unquoted */
        sb_puts(b, rnd_below(2) ? "plain" : "x\"y");
        return;
    }
    sb_putc(b, '"');
    for (unsigned n = 1 + rnd_below(5); n > 0; n--)
        sb_puts(b, parts[rnd_below(RX_ARRAY_LEN(parts))]);
    sb_putc(b, '"');
}

/* A random file of `rows` rows: id INT (some NULL), q TEXT (random_text), f FLOAT, d DATE, ts
 * TIMESTAMP, s TEXT of 20 distinct values (a dictionary), b BOOL; line ends \n and \r\n. Row
 * bad_date has 2026-02-30 in d, row bad_count an extra field, row bad_utf8 invalid UTF-8 at the
 * end of q (0: none). */
static void random_file(StrBuf *b, int rows, int bad_date, int bad_count, int bad_utf8) {
    sb_puts(b, "id,q,f,d,ts,s,b\n");
    for (int i = 1; i <= rows; i++) {
        if (rnd_below(50)) sb_printf(b, "%d", i);
        sb_putc(b, ',');
        random_text(b);
        if (i == bad_utf8) sb_puts(b, "\"\xc3(\"");
        sb_printf(b, ",%d.%02u,", (int)rnd_below(2000) - 1000, rnd_below(100));
        if (i == bad_date) sb_puts(b, "2026-02-30");
        else if (rnd_below(30))
            sb_printf(b, "2026-%02u-%02u", 1 + rnd_below(12), 1 + rnd_below(28));
        sb_printf(b, ",2026-01-02T%02u:%02u:%02u.%uZ,S%02u,%s", rnd_below(24), rnd_below(60),
                  rnd_below(60), rnd_below(10), rnd_below(20), rnd_below(2) ? "true" : "false");
        if (i == bad_count) sb_puts(b, ",extra");
        sb_puts(b, rnd_below(3) ? "\n" : "\r\n");
    }
}

static void test_chunks_random(void) {
    rng_state = 42;
    struct {
        int rows, bad_date, bad_count, bad_utf8;
        const char *expect; /* in the one-chunk reading */
    } cases[] = {
        {6000, 0, 0, 0, "6000 rows"},
        {6000, 3000, 0, 0, "invalid DATE '2026-02-30' in column 'd'"},
        {6000, 5000, 0, 0, "invalid DATE '2026-02-30' in column 'd'"},
        {6000, 0, 4000, 0, "has 8 fields, the header has 7"},
        {6000, 0, 5900, 2000, "invalid UTF-8 (byte 0xC3) in column 'q'"},
        {6000, 100, 0, 5999, "invalid UTF-8 (byte 0xC3) in column 'q'"},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(cases); i++) {
        StrBuf text, ref;
        sb_init(&text);
        random_file(&text, cases[i].rows, cases[i].bad_date, cases[i].bad_count, cases[i].bad_utf8);
        expect_same_chunked(put_file(text.p, text.n), NULL, &ref, __LINE__);
        bool found = ref.p && strstr(ref.p, cases[i].expect);
        if (!found) fprintf(stderr, "case %zu: %.300s\n", i, ref.p);
        CHECK(found);
        if (i == 0) {
            /* the low-cardinality column got a dictionary, the other TEXT column did not */
            CHECK(strstr(ref.p, "\ns TEXT dict 20\n") != NULL);
            CHECK(strstr(ref.p, "\nq TEXT nulls dict 0\n") != NULL);
            CHECK(strstr(ref.p, "\nts TIMESTAMP dict 0\n") != NULL);
        }
        sb_free(&ref);
        sb_free(&text);
    }
    /* The second of two bad dates is never reported, on any chunking; a file ending inside
     * quotes is an error at its opening quote. */
    StrBuf text;
    sb_init(&text);
    random_file(&text, 5000, 1200, 0, 0);
    sb_puts(&text, "1,\"open\n2,x,1.0,2026-01-01,2026-01-01T00:00:00Z,S1,true\n");
    StrBuf ref;
    expect_same_chunked(put_file(text.p, text.n), NULL, &ref, __LINE__);
    CHECK(strstr(ref.p, "unterminated quoted field") != NULL);
    sb_free(&ref);
    sb_free(&text);
}

/* The sorted hint and the dictionary follow the whole column, not the chunks: a column sorted
 * within every chunk but not across two is not sorted; distinct values exactly at the limit
 * (rows / 16) keep the dictionary, one more loses it. */
static void test_chunks_hints(void) {
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "up,down,k,few,many\n");
    for (int i = 0; i < 8192; i++)
        sb_printf(&b, "%d,%d,%d,v%d,w%d\n", i, i < 4096 ? i : i - 4096, i % 7, i % 512, i % 513);
    StrBuf ref;
    expect_same_chunked(put_file(b.p, b.n), NULL, &ref, __LINE__);
    CHECK(strstr(ref.p, "\nup INT sorted dict 0\n") != NULL);
    CHECK(strstr(ref.p, "\ndown INT dict 0\n") != NULL);
    CHECK(strstr(ref.p, "\nfew TEXT dict 512\n") != NULL);
    CHECK(strstr(ref.p, "\nmany TEXT dict 0\n") != NULL);
    sb_free(&ref);
    sb_free(&b);
}

/* A load that fails leaves nothing behind: the next one (of other columns, or the same again)
 * reads as if it were the first, escaped text included. */
/* The dictionary holds its strings in bytes of its own, rebuilt from the words that identify
 * each distinct value (csv.c, dict_ent_bytes): every length class (0-3, 4-7, 8-16, over 16
 * bytes, also from a quoted cell with "" escapes) must give back exactly the row's string,
 * and nothing of it may point into the file's mapping. */
static void test_dict_bytes(void) {
    static const char *vals[] = {"\"\"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg",
                                 "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop",
                                 "abcdefghijklmnopq", "a much longer value past sixteen",
                                 "\"q\"\"uoted\"", "zyxwvutsrqponmlk", "0123", "\"x\"\"\""};
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "id,v\n");
    rng_state = 7;
    for (int i = 0; i < 8192; i++) sb_printf(&b, "%d,%s\n", i, vals[rnd_below(RX_ARRAY_LEN(vals))]);
    Table *t = NULL;
    RxError e;
    memset(&e, 0, sizeof e);
    int rc = csv_read(put_file(b.p, b.n), NULL, &t, &e);
    if (rc != 0) fprintf(stderr, "test_dict_bytes: %s\n", e.msg);
    CHECK(rc == 0);
    if (t) {
        const Column *c = t->cols[1];
        CHECK(c->type == TY_TEXT && c->codes != NULL && c->n_dict == RX_ARRAY_LEN(vals));
        /* coded rows get no slices from the reader (column.h: lazy); asked for, they are made */
        CHECK(col_lazy(c) && !c->data);
        CHECK(col_need_str(c) == 0 && c->data && !col_lazy(c));
        CHECK(col_need_str(c) == 0);   /* a second time: the same slices */
        size_t bad = 0;
        if (c->n_dict != RX_ARRAY_LEN(vals)) fprintf(stderr, "test_dict_bytes: %u distinct\n", c->n_dict);
        for (size_t i = 0; c->codes && i < t->n_rows; i++) {
            if (col_is_null(c, i)) continue;
            RxStr d = c->dict[c->codes[i]], v = col_str(c)[i];
            bad += d.len != v.len || (v.len && memcmp(d.ptr, v.ptr, v.len) != 0);
        }
        CHECK(bad == 0);
        /* every row's slice is its dictionary entry's own bytes, and the column holds no heap
         * of the file's bytes (the reader lets them go once every column is loaded) */
        size_t shared = 0, nonempty = 0;
        for (size_t i = 0; c->codes && i < t->n_rows; i++) {
            nonempty += col_str(c)[i].len > 0;
            shared += col_str(c)[i].len && c->dict[c->codes[i]].ptr == col_str(c)[i].ptr;
        }
        CHECK(shared == nonempty && nonempty > 0);
        size_t file_heaps = 0;
        for (uint32_t h = 0; h < c->n_heaps; h++) file_heaps += c->heaps[h]->mapped;
        CHECK(file_heaps == 0);
    }
    table_free(t);
    sb_free(&b);
}

static void test_load_after_failure(void) {
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "q,n,r\n");
    for (int i = 0; i < 3000; i++)
        sb_printf(&b, "\"a \"\"%d\"\"\",%s,\"x\"\"\n\"\n", i, i == 2500 ? "2026-13-01" : "7");
    const char *path = put_file(b.p, b.n);
    sb_free(&b);
    CsvOptions o;
    csv_options_default(&o);
    o.chunk_bytes = 4096;
    RxError e;
    memset(&e, 0, sizeof e);
    CsvFile *f = NULL;
    CHECK(csv_open(path, &o, &f, &e) == 0);
    if (!f) return;
    CHECK(csv_table(f)->cols[1]->type == TY_TEXT); /* 2026-13-01 among integers: TEXT */
    csv_close(f);
    /* the same with a schema, so that column n fails to load */
    static const char *const names[] = {"q", "n", "r"};
    static const RxType types[] = {TY_TEXT, TY_INT, TY_TEXT};
    o.n_schema = 3;
    o.schema_names = names;
    o.schema_types = types;
    CHECK(csv_open(path, &o, &f, &e) == 0);
    if (!f) return;
    uint8_t all[3] = {1, 1, 1}, q_only[3] = {1, 0, 0}, r_only[3] = {0, 0, 1};
    CHECK(csv_load(f, all, &e) == -1 && e.code == RX_EVALUE);
    CHECK(strstr(e.msg, "invalid INT '2026-13-01' in column 'n'") != NULL);
    for (int round = 0; round < 2; round++) {
        memset(&e, 0, sizeof e);
        CHECK(csv_load(f, q_only, &e) == 0);
        memset(&e, 0, sizeof e);
        CHECK(csv_load(f, r_only, &e) == 0);
    }
    const Table *t = csv_table(f);
    CHECK(t->n_rows == 3000 && !t->cols[1]->codes && t->cols[1]->pruned);
    CHECK(t->cols[0]->codes == NULL); /* 3000 rows: too few for a dictionary */
    bool same = true;
    for (size_t i = 0; i < t->n_rows; i++) {
        char want[32];
        snprintf(want, sizeof want, "a \"%zu\"", i);
        same &= strcmp(text_at(t, 0, i), want) == 0 && strcmp(text_at(t, 2, i), "x\"\n") == 0;
    }
    CHECK(same);
    csv_close(f);
}

/* ---- number and time parsers against the reference ones ------------------------------------ */

/* Writes a one-column file of the n texts made by gen, reads it back (in chunks on threads, the
 * default for a file of this size being one chunk, so 1 MB chunks), and returns the table. */
/* Under a schema of type `type`: the generators write numbers with leading zeros, which
 * detection keeps as TEXT (identifiers), and the parsers must read them all the same. */
static Table *load_values(size_t n, void (*gen)(StrBuf *, size_t), StrBuf *text,
                          size_t **offs, RxType type) {
    sb_puts(text, "x\n");
    *offs = malloc((n + 1) * sizeof **offs);
    for (size_t i = 0; i < n; i++) {
        (*offs)[i] = text->n;
        gen(text, i);
        sb_putc(text, '\n');
    }
    (*offs)[n] = text->n;
    CsvOptions o;
    csv_options_default(&o);
    o.chunk_bytes = 1 << 20;
    static const char *const names[] = {"x"};
    o.n_schema = 1;
    o.schema_names = names;
    o.schema_types = &type;
    RxError e;
    Table *t = load_opt(text->p, text->n, &o, &e);
    if (!t) fprintf(stderr, "load_values: %s\n", e.msg);
    return t;
}

static void gen_float(StrBuf *b, size_t i) {
    char buf[64];
    uint64_t r = rnd();
    switch (i % 6) {
    case 0: case 1: { /* a decimal of 1-19 digits with the point anywhere */
        int digits = 1 + (int)(r % 19), point = (int)((r >> 8) % (unsigned)(digits + 1));
        size_t k = 0;
        if ((r >> 20) & 1) buf[k++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0) buf[k++] = '.';
            buf[k++] = (char)('0' + rnd_below(10));
        }
        buf[k] = 0;
        sb_puts(b, buf);
        break;
    }
    case 2: /* the same with a small exponent */
        sb_printf(b, "%u.%0*ue%d", (unsigned)(r % 100000), 1 + (int)((r >> 17) % 4),
                  (unsigned)((r >> 20) % 1000), (int)((r >> 30) % 61) - 30);
        break;
    case 3: { /* any double, shortest-ish and in full */
        double v;
        do {
            uint64_t bits = rnd();
            memcpy(&v, &bits, 8);
        } while (!isfinite(v));
        char t[40];
        snprintf(t, sizeof t, "%.*g", 1 + (int)(r % 17), v);
        if (isinf(strtod(t, NULL))) snprintf(t, sizeof t, "%.17g", v); /* 2e+308 overflows */
        sb_puts(b, t);
        break;
    }
    case 4: /* prices */
        sb_printf(b, "%u.%02u", (unsigned)(r % 100000), (unsigned)((r >> 20) % 100));
        break;
    default: /* a double of moderate size in full */
        sb_printf(b, "%.17g", (double)(int64_t)(r >> 11) / (double)(1 + (r & 0xFFFFF)));
        break;
    }
}

static void test_floats_vs_strtod(void) {
    rng_state = 7;
    const size_t n = 2000000;
    StrBuf text;
    sb_init(&text);
    size_t *offs;
    Table *t = load_values(n, gen_float, &text, &offs, TY_FLOAT);
    CHECK(t && t->cols[0]->type == TY_FLOAT && t->n_rows == n);
    size_t bad = 0;
    for (size_t i = 0; t && i < n && t->n_rows == n; i++) {
        char buf[64];
        size_t len = offs[i + 1] - 1 - offs[i];
        memcpy(buf, text.p + offs[i], len);
        buf[len] = 0;
        double want = strtod(buf, NULL), got = col_f64(t->cols[0])[i];
        if (memcmp(&want, &got, sizeof want) != 0 && bad++ < 5)
            fprintf(stderr, "float '%s': got %a, strtod %a\n", buf, got, want);
    }
    CHECK(bad == 0);
    table_free(t);
    free(offs);
    sb_free(&text);
}

static void gen_int(StrBuf *b, size_t i) {
    uint64_t r = rnd();
    if (i == 0) sb_puts(b, "9223372036854775807");
    else if (i == 1) sb_puts(b, "-9223372036854775808");
    else if (i == 2) sb_puts(b, "-0");
    else if (i == 3) sb_puts(b, "000000000000000000000012");
    else sb_printf(b, "%lld", (long long)((int64_t)r >> (r % 64)));
}

static void test_ints_vs_strtoll(void) {
    rng_state = 8;
    const size_t n = 1000000;
    StrBuf text;
    sb_init(&text);
    size_t *offs;
    Table *t = load_values(n, gen_int, &text, &offs, TY_INT);
    CHECK(t && t->cols[0]->type == TY_INT && t->n_rows == n);
    size_t bad = 0;
    for (size_t i = 0; t && i < n && t->n_rows == n; i++) {
        long long want = strtoll(text.p + offs[i], NULL, 10);
        if (col_i64(t->cols[0])[i] != want && bad++ < 5)
            fprintf(stderr, "int at %zu: got %lld, want %lld\n", i,
                    (long long)col_i64(t->cols[0])[i], want);
    }
    CHECK(bad == 0);
    table_free(t);
    free(offs);
    sb_free(&text);
}

static void gen_ts(StrBuf *b, size_t i) {
    uint64_t r = rnd();
    int y = 1 + (int)(r % 9999), mo = 1 + (int)((r >> 14) % 12), d = 1 + (int)((r >> 18) % 28);
    sb_printf(b, "%04d-%02d-%02d%c%02d:%02d:%02d", y, mo, d, "TTt "[(r >> 60) % 4], (int)((r >> 23) % 24),
              (int)((r >> 28) % 60), (int)((r >> 34) % 60));
    int frac = (int)((r >> 40) % 8); /* 0: none; 7: an offset instead of Z */
    static const unsigned p10[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    if (frac > 0 && frac < 7) sb_printf(b, ".%0*u", frac, (unsigned)((r >> 43) % p10[frac]));
    /* every zone form: none, Z, z, +HH:MM, +HHMM, +HH and '-' (in range at both ends of the
     * calendar: the offsets are never large enough to leave year 1..9999 there) */
    static const char *const zones[] = {"Z", "z", "", "+05:30", "-0800", "+01", "-23:59",
                                        "+23:59", "-00", "+0000"};
    const char *z = frac == 7 ? "+05:30" : zones[i % RX_ARRAY_LEN(zones)];
    if ((y == 1 && mo == 1 && z[0] == '+') || (y == 9999 && mo == 12 && z[0] == '-')) z = "Z";
    sb_puts(b, z);
}

static void test_timestamps_vs_temporal(void) {
    rng_state = 9;
    const size_t n = 500000;
    StrBuf text;
    sb_init(&text);
    size_t *offs;
    Table *t = load_values(n, gen_ts, &text, &offs, TY_TIMESTAMP);
    CHECK(t && t->cols[0]->type == TY_TIMESTAMP && t->n_rows == n);
    size_t bad = 0;
    for (size_t i = 0; t && i < n && t->n_rows == n; i++) {
        int64_t want = 0;
        const char *why;
        size_t len = offs[i + 1] - 1 - offs[i];
        int rc = tm_parse_timestamp(text.p + offs[i], len, &want, &why);
        if ((rc != 0 || col_i64(t->cols[0])[i] != want) && bad++ < 5)
            fprintf(stderr, "timestamp '%.*s': got %lld, want %lld\n", (int)len,
                    text.p + offs[i], (long long)col_i64(t->cols[0])[i], (long long)want);
    }
    CHECK(bad == 0);
    table_free(t);
    free(offs);
    sb_free(&text);
}

/* Short FLOAT cells (at most eight bytes after a sign: the one-word fast path of fast_float)
 * against number.c: digits with a point anywhere, two points, a sign, an exponent, a letter;
 * with and without a leading '-'. A file whose every cell number.c parses loads with exactly
 * its values (-0 included); any other fails at the first such cell, on its line. */
static void test_short_floats(void) {
    rng_state = 57;
    static const char other[] = ".-eE+x ";
    int failed = 0, loaded = 0;
    for (int round = 0; round < 600; round++) {
        StrBuf text;
        sb_init(&text);
        sb_puts(&text, "x\n");
        int rows = 40, first_bad = 0;
        double want[40];
        for (int i = 0; i < rows; i++) {
            size_t at = text.n;
            if (rnd_below(3) == 0) sb_putc(&text, '-');
            /* the point inside mostly; now and then first or last (not a number), or none */
            int len = 1 + (int)rnd_below(8), r = (int)rnd_below(60), dot = len;
            if (r == 0) dot = 0;
            else if (r == 1) dot = len - 1;
            else if (r > 12 && len > 2) dot = 1 + (int)rnd_below((unsigned)len - 2);
            for (int d = 0; d < len; d++) {
                if (d == dot) sb_putc(&text, '.');
                else if (rnd_below(150) == 0) sb_putc(&text, other[rnd_below(sizeof other - 1)]);
                else sb_putc(&text, (char)('0' + rnd_below(10)));
            }
            if (text.n == at + 1 && text.p[at] == '-') sb_putc(&text, '1');
            if (num_parse_float(text.p + at, text.n - at, &want[i]) != 0 && !first_bad)
                first_bad = i + 1;
            sb_putc(&text, '\n');
        }
        CsvOptions o;
        csv_options_default(&o);
        static const char *const names[] = {"x"};
        static const RxType type = TY_FLOAT;
        o.n_schema = 1;
        o.schema_names = names;
        o.schema_types = &type;
        RxError e;
        Table *t = load_opt(text.p, text.n, &o, &e);
        if (first_bad) {
            uint32_t line = 0, col = 0;
            if (!t) err_pos(&e, &line, &col);
            if (t || e.code != RX_EVALUE || line != (uint32_t)first_bad + 1)
                fprintf(stderr, "round %d: want an error on line %d, got %s (line %u)\n", round,
                        first_bad + 1, t ? "a table" : e.msg, line);
            CHECK(!t && e.code == RX_EVALUE && line == (uint32_t)first_bad + 1);
            failed++;
        } else {
            bool same = t && t->n_rows == (size_t)rows;
            for (int i = 0; same && i < rows; i++)
                same = memcmp(&col_f64(t->cols[0])[i], &want[i], sizeof want[i]) == 0;
            if (!same) fprintf(stderr, "round %d: values differ from number.c's\n", round);
            CHECK(same);
            loaded++;
        }
        table_free(t);
        sb_free(&text);
    }
    CHECK(failed > 50 && loaded > 50);   /* both outcomes were compared */
}

/* The fraction of a clock (read eight bytes at a time by the fast path) against temporal.c:
 * files of TIME and of TIMESTAMP cells whose 1-7 fraction bytes are digits or, now and then,
 * a byte that is not one (':', '/', 'a', '.', ' ', a digit's neighbours '/' and ':'), with
 * and without a zone. A file whose every cell temporal.c parses loads with its values; any
 * other fails at the first such cell, on its line. */
static void test_clock_fractions(void) {
    rng_state = 31;
    static const char bad[] = ":/a. ";
    int failed = 0, loaded = 0;
    for (int round = 0; round < 400; round++) {
        RxType type = round % 2 ? TY_TIME : TY_TIMESTAMP;
        StrBuf text;
        sb_init(&text);
        sb_puts(&text, "x\n");
        int rows = 50, first_bad = 0;
        int64_t want[50];
        for (int i = 0; i < rows; i++) {
            size_t at = text.n;
            if (type == TY_TIMESTAMP) sb_puts(&text, "2026-03-02T");
            sb_printf(&text, "%02u:%02u:%02u.", rnd_below(24), rnd_below(60), rnd_below(60));
            int k = 1 + (int)rnd_below(rnd_below(8) ? 6 : 7);
            for (int d = 0; d < k; d++) {
                if (rnd_below(300) == 0) sb_putc(&text, bad[rnd_below(sizeof bad - 1)]);
                else sb_putc(&text, (char)('0' + rnd_below(10)));
            }
            if (type == TY_TIMESTAMP && rnd_below(2)) sb_puts(&text, "Z");
            const char *why;
            int rc = type == TY_TIME
                         ? tm_parse_time(text.p + at, text.n - at, &want[i], &why)
                         : tm_parse_timestamp(text.p + at, text.n - at, &want[i], &why);
            if (rc != 0 && !first_bad) first_bad = i + 1;
            sb_putc(&text, '\n');
        }
        CsvOptions o;
        csv_options_default(&o);
        static const char *const names[] = {"x"};
        o.n_schema = 1;
        o.schema_names = names;
        o.schema_types = &type;
        RxError e;
        Table *t = load_opt(text.p, text.n, &o, &e);
        if (first_bad) {
            uint32_t line = 0, col = 0;
            if (!t) err_pos(&e, &line, &col);
            if (t || e.code != RX_EVALUE || line != (uint32_t)first_bad + 1)
                fprintf(stderr, "round %d: want an error on line %d, got %s (line %u)\n", round,
                        first_bad + 1, t ? "a table" : e.msg, line);
            CHECK(!t && e.code == RX_EVALUE && line == (uint32_t)first_bad + 1);
            failed++;
        } else {
            bool same = t && t->n_rows == (size_t)rows;
            for (int i = 0; same && i < rows; i++) same = col_i64(t->cols[0])[i] == want[i];
            if (!same) fprintf(stderr, "round %d: values differ from temporal.c's\n", round);
            CHECK(same);
            loaded++;
        }
        table_free(t);
        sb_free(&text);
    }
    CHECK(failed > 20 && loaded > 20);   /* both outcomes were compared */
}

/* A file of `rows` records whose first k end in \r\n, the rest in \n: id INT, q TEXT (quoted,
 * with "" escapes and delimiters, never a newline), f FLOAT, ts TIMESTAMP; row bad_date has a
 * bad timestamp, row bad_count an extra field; unterminated: the file ends inside quotes. */
static void line_end_file(StrBuf *b, int rows, int k, int bad_date, int bad_count,
                          bool unterminated) {
    rng_state = 77;
    sb_puts(b, "id,q,f,ts\n");
    for (int i = 1; i <= rows; i++) {
        sb_printf(b, "%d,\"%s\",%u.%02u,", i, rnd_below(3) ? "a,\"\"b" : "plain", rnd_below(1000),
                  rnd_below(100));
        if (i == bad_date) sb_puts(b, "2026-02-30T00:00:00");
        else sb_printf(b, "2026-03-02T%02u:%02u:%02u.%u", rnd_below(24), rnd_below(60),
                       rnd_below(60), rnd_below(1000));
        if (i == bad_count) sb_puts(b, ",extra");
        sb_puts(b, i <= k ? "\r\n" : "\n");
    }
    if (unterminated) sb_puts(b, "9,\"open,1.5,2026-03-02T00:00:00\n");
}

/* A whole file whose last page has 64 bytes to spare is read in place, any other through
 * windows: both give the same table, or the same error at the same line and column. */
static void test_in_place_and_windows(void) {
    struct { int bad_date, bad_count; bool unterminated; } cases[] = {
        {0, 0, false}, {3000, 0, false}, {0, 5999, false}, {0, 0, true}, {6000, 2, false},
    };
    for (size_t c = 0; c < RX_ARRAY_LEN(cases); c++) {
        StrBuf dumps[2];
        for (int w = 0; w < 2; w++) {
            StrBuf b;
            sb_init(&b);
            line_end_file(&b, 6000, 0, cases[c].bad_date, cases[c].bad_count, cases[c].unterminated);
            size_t base = b.n;
            sb_free(&b);
            /* k line ends of two bytes: the size modulo the page is below 4000 (in place) or
             * above 4040 (windows) */
            size_t want = w == 0 ? 100 : 4060;
            int k = (int)((want + 4096 - base % 4096) % 4096);
            sb_init(&b);
            line_end_file(&b, 6000, k, cases[c].bad_date, cases[c].bad_count, cases[c].unterminated);
            CHECK(b.n % 4096 == want);
            const char *path = put_file(b.p, b.n);
            sb_init(&dumps[w]);
            read_dump(path, NULL, SIZE_MAX, 1, false, &dumps[w]);
            StrBuf chunked;
            sb_init(&chunked);
            read_dump(path, NULL, 4093, 2, true, &chunked);
            CHECK(chunked.n == dumps[w].n && memcmp(chunked.p, dumps[w].p, chunked.n) == 0);
            sb_free(&chunked);
            sb_free(&b);
        }
        bool same = dumps[0].n == dumps[1].n && memcmp(dumps[0].p, dumps[1].p, dumps[0].n) == 0;
        if (!same) fprintf(stderr, "case %zu:\n%.300s\n---\n%.300s\n", c, dumps[0].p, dumps[1].p);
        CHECK(same);
        sb_free(&dumps[0]);
        sb_free(&dumps[1]);
    }
}

/* Reads path held whole (CsvOptions.hold_input: the reference) and read from disk a window at
 * a time (the default for a regular file) at several chunk sizes, which set the windows' size
 * too (down to 64 bytes, so that window and chunk boundaries fall inside quotes, fields, line
 * ends and records longer than a window), on one and two threads, in one step and in two:
 * every reading gives the reference's table or its error at the same line and column. */
static bool expect_windows_as_whole(const char *path, const CsvOptions *base, int at) {
    static const size_t chunks[] = {1, 61, 200, 997, 4093, SIZE_MAX};
    CsvOptions o;
    if (base) o = *base;
    else csv_options_default(&o);
    o.hold_input = true;
    StrBuf want;
    sb_init(&want);
    read_dump(path, &o, SIZE_MAX, 1, false, &want);
    o.hold_input = false;
    bool all = true;
    for (size_t i = 0; i < RX_ARRAY_LEN(chunks) && all; i++) {
        for (int threads = 1; threads <= 2 && all; threads++) {
            StrBuf got;
            sb_init(&got);
            read_dump(path, &o, chunks[i], threads, threads == 2, &got);
            bool same = got.n == want.n && memcmp(got.p, want.p, want.n) == 0;
            if (!same)
                fprintf(stderr, "line %d: windows (chunks of %zu, %d threads) differ:\n%.600s\n"
                        "--- held whole:\n%.600s\n", at, chunks[i], threads, got.p, want.p);
            CHECK(same);
            all = same;
            sb_free(&got);
        }
    }
    sb_free(&want);
    return all;
}

/* The reader in windows against the reader of the file held whole, on random files: every
 * type, quoted cells with escapes, delimiters and line ends (\n, \r\n) inside, NULLs, CRLF
 * line ends, and one fault at a random place (a bad date, a field too many, invalid UTF-8,
 * a NUL byte anywhere, the header included, an unterminated quote, text after a closing
 * quote, a line end removed), or none. Also a header longer than the first bytes read for it
 * and cells longer than any window. */
static void test_windows_vs_whole(void) {
    rng_state = 2026;
    int errors = 0;
    for (int round = 0; round < 60; round++) {
        StrBuf text;
        sb_init(&text);
        int rows = 20 + (int)rnd_below(300);
        unsigned fault = rnd_below(8);
        int at_row = 1 + (int)rnd_below((unsigned)rows);
        /* a NUL byte comes with a field too many in a random row, before or after it */
        random_file(&text, rows, fault == 1 ? at_row : 0, fault == 2 || fault == 4 ? at_row : 0,
                    fault == 3 ? at_row : 0);
        size_t at = rnd_below((unsigned)text.n);
        if (fault == 4) {
            text.p[at] = '\0';
        } else if (fault == 5) {
            sb_puts(&text, "7,\"open\n8,x,1.0,2026-01-01,2026-01-01T00:00:00Z,S1,true\n");
        } else if (fault == 6 || fault == 7) {
            /* a quote, or the loss of a line end, somewhere */
            char *nl = memchr(text.p + at, '\n', text.n - at);
            if (nl && fault == 6) *nl = '"';
            else if (nl) *nl = ',';
        }
        const char *path = put_file(text.p, text.n);
        if (!expect_windows_as_whole(path, NULL, __LINE__)) {
            fprintf(stderr, "round %d (fault %u at %zu)\n", round, fault, at);
            sb_free(&text);
            break;
        }
        CsvOptions o;
        csv_options_default(&o);
        o.hold_input = true;
        RxError e;
        Table *t = load_opt(text.p, text.n, &o, &e);
        errors += t == NULL;
        table_free(t);
        sb_free(&text);
    }
    CHECK(errors > 10 && errors < 60);   /* both outcomes were compared */
    /* A NUL byte after a fault of the header, or of a column the options name */
    expect_windows_as_whole(put_file("a,a\n1,2\n3,\0\n", 12), NULL, __LINE__);
    expect_windows_as_whole(put_file("a,b\n1,\"x\"y\n3,\0\n", 15), NULL, __LINE__);
    static const char *const tn[] = {"nope"};
    static const RxType tt[] = {TY_INT};
    CsvOptions named;
    csv_options_default(&named);
    named.n_types = 1;
    named.type_names = tn;
    named.type_types = tt;
    expect_windows_as_whole(put_file("a,b\n1,2\n3,\0\n", 12), &named, __LINE__);
    /* A header of 150 KB (more than the first 64 KB read for it), long quoted cells. */
    StrBuf b;
    sb_init(&b);
    for (int j = 0; j < 20000; j++) sb_printf(&b, "%sc%05d", j ? "," : "", j);
    sb_puts(&b, "\r\n");
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 20000; j++) sb_printf(&b, "%s%d", j ? "," : "", i * j);
        sb_puts(&b, "\r\n");
    }
    expect_windows_as_whole(put_file(b.p, b.n), NULL, __LINE__);
    b.p[b.n - 2] = '\0';  /* a NUL at the end: the error, rather than any other */
    expect_windows_as_whole(put_file(b.p, b.n), NULL, __LINE__);
    sb_free(&b);
    sb_init(&b);
    sb_puts(&b, "k,v\n");
    for (int i = 0; i < 40; i++) {
        sb_printf(&b, "%d,\"", i);
        for (int k = 0; k < 3000 * (i % 4); k++) sb_puts(&b, k % 50 ? "a\"\"b" : "\r\n");
        sb_puts(&b, "\"\n");
    }
    expect_windows_as_whole(put_file(b.p, b.n), NULL, __LINE__);
    sb_puts(&b, "1,2,3\n");
    expect_windows_as_whole(put_file(b.p, b.n), NULL, __LINE__);
    sb_free(&b);
}

/* A random key of a dictionary-coded TEXT column, one of `distinct` values, a new one only from
 * row `fresh_from` on (so that a dictionary can go over its limit late in the file): short
 * (up to 16 bytes: their lookups wait in the windows' reading), longer, quoted with "" inside,
 * empty quoted, NULL. */
static void random_key(StrBuf *b, unsigned distinct, int row, int fresh_from) {
    unsigned k = rnd_below(distinct);
    if (row < fresh_from) k %= 1 + distinct / 4;
    switch (rnd_below(16)) {
    case 0: return;                                            /* NULL */
    case 1: sb_puts(b, "\"\""); return;                        /* the empty string */
    case 2: sb_printf(b, "\"q\"\"%u\"", k); return;           /* escaped, short */
    case 3: sb_printf(b, "long-key-of-more-than-16-bytes-%u", k); return;
    case 4: sb_printf(b, "%.*s", (int)(k % 4), "abc"); return; /* 0 to 3 bytes */
    case 5: sb_printf(b, "sixteen-bytes%03u", k % 1000); return;
    default: sb_printf(b, "S%u", k); return;
    }
}

/* Dictionary-coded TEXT columns read from disk in windows, where the lookups of short cells
 * wait for a few more cells (copy_text, dict_settle), against the file held whole, where they
 * do not: the same codes in the same order, the same dictionaries and slices, for columns of
 * few and of many distinct values (over the dictionary's limit, early or late), every kind of
 * cell mixed in, at every chunking (chunks of one byte end the lookups' wait at every record). */
static void test_dict_lookahead(void) {
    rng_state = 77;
    static const struct {
        unsigned distinct_a, distinct_b;
        int fresh_from;
    } cases[] = {
        {7, 300, 0}, {300, 40, 0}, {2000, 3, 0}, {700, 700, 4000}, {1, 5000, 5500},
    };
    for (size_t i = 0; i < RX_ARRAY_LEN(cases); i++) {
        StrBuf b;
        sb_init(&b);
        sb_puts(&b, "id,a,b\n");
        int rows = 4500 + (int)rnd_below(2000);
        for (int r = 1; r <= rows; r++) {
            sb_printf(&b, "%d,", r);
            random_key(&b, cases[i].distinct_a, r, cases[i].fresh_from);
            sb_putc(&b, ',');
            random_key(&b, cases[i].distinct_b, r, cases[i].fresh_from);
            sb_puts(&b, rnd_below(4) ? "\n" : "\r\n");
        }
        const char *path = put_file(b.p, b.n);
        if (!expect_windows_as_whole(path, NULL, __LINE__)) fprintf(stderr, "case %zu\n", i);
        sb_free(&b);
    }
    /* the cases cover a dictionary kept and one given up */
    StrBuf b, got;
    sb_init(&b);
    sb_init(&got);
    sb_puts(&b, "a,b\n");
    for (int r = 0; r < 5000; r++) sb_printf(&b, "k%d,\"u\"\"%d\"\n", r % 9, r);
    read_dump(put_file(b.p, b.n), NULL, 997, 2, false, &got);
    CHECK(strstr(got.p, "\na TEXT dict 9\n") != NULL);
    CHECK(strstr(got.p, "\nb TEXT dict 0\n") != NULL);
    CHECK(strstr(got.p, "\nk7#7|u\"7\n") != NULL);   /* in order of first appearance */
    sb_free(&got);
    sb_free(&b);
}

/* A file changed after csv_open checked it is an error at csv_load, never values of the
 * other bytes: it is read again from disk there. */
static void test_changed_before_load(void) {
    const char *path = put_file("a,b\n1,x\n2,y\n", 0);
    char keep[128];
    snprintf(keep, sizeof keep, "%s", path);
    CsvFile *f = NULL;
    RxError e;
    memset(&e, 0, sizeof e);
    CHECK(csv_open(keep, NULL, &f, &e) == 0);
    if (!f) return;
    FILE *w = fopen(keep, "r+b");
    CHECK(w != NULL);
    if (w) {
        fputs("a,b\n3,z\n4,w\n", w);   /* the same size, other values */
        fclose(w);
    }
    struct timespec later[2] = {{0, UTIME_OMIT}, {2000000000, 0}};
    utimensat(AT_FDCWD, keep, later, 0);   /* a time of change past any the clock could give */
    CHECK(csv_load(f, NULL, &e) == -1 && e.code == RX_EIO && strstr(e.msg, "changed") != NULL);
    csv_close(f);
}

/* Timestamps at the edges of the reader's fast path (zones, separators, range, malformed
 * tails): each reads as tm_parse_timestamp reads it, a value or an error giving its reason. */
static void test_timestamp_edges(void) {
    static const char *const cells[] = {
        "2026-03-02T14:28:40", "2026-03-02 14:28:40.5", "2026-03-02t14:28:40.123456",
        "2026-03-02T14:28:40.123456+05:30", "2026-03-02T14:28:40-0800", "2026-03-02T14:28:40+01",
        "2026-03-02T14:28:40.1-00:00", "0001-01-01T00:00:00-00:01", "0001-01-01T00:00:00+00:01",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999-01",
        "9999-12-31T23:59:59+01", "2026-03-02T14:28:40+24:00", "2026-03-02T14:28:40+05:60",
        "2026-03-02T14:28:40+5:30", "2026-03-02T14:28:40+05:3", "2026-03-02T14:28:40+0530x",
        "2026-03-02T14:28:40.+05", "2026-03-02T14:28:40.1234567", "2026-03-02T14:28:40.123456789Z",
        "2026-03-02T14:28:40.1234567+01", "2026-03-02T24:00:00", "2026-03-02T23:60:00",
        "2026-03-02T23:59:60", "2026-02-29T00:00:00", "2024-02-29T00:00:00+01:00",
        "2026-03-02X14:28:40", "2026-03-02T14:28", "2026-03-02T14:28+01:00", "2026-03-02T1:28:40",
        "2026-03-02T14:28:40++1:00", "2026-03-02T14:28:40-+01", "2026-03-02T14:28:40ZZ",
        "2026-03-02T14:28:40 +01:00", "2026-03-02T14:28:40.+0100", "2026-03-02T14:28:40.1234+0",
    };
    static const char *const names[] = {"x"};
    static const RxType type = TY_TIMESTAMP;
    CsvOptions o;
    csv_options_default(&o);
    o.n_schema = 1;
    o.schema_names = names;
    o.schema_types = &type;
    for (size_t i = 0; i < RX_ARRAY_LEN(cells); i++) {
        char text[128];
        /* three rows: the second and third use the reader's cached date */
        snprintf(text, sizeof text, "x\n%s\n%s\n%s\n", cells[i], cells[i], cells[i]);
        int64_t want = 0;
        const char *why = NULL;
        int rc = tm_parse_timestamp(cells[i], strlen(cells[i]), &want, &why);
        RxError e;
        Table *t = load_opt(text, 0, &o, &e);
        if (rc == 0) {
            bool ok = t && t->n_rows == 3 && col_i64(t->cols[0])[0] == want &&
                      col_i64(t->cols[0])[2] == want;
            if (!ok) fprintf(stderr, "timestamp '%s': %s\n", cells[i], t ? "other value" : e.msg);
            CHECK(ok);
        } else {
            uint32_t line, col;
            err_pos(&e, &line, &col);
            char want_msg[160];
            snprintf(want_msg, sizeof want_msg, "invalid TIMESTAMP '%s'", cells[i]);
            bool ok = !t && strstr(e.msg, want_msg) && line == 2 && col == 1;
            if (!ok) fprintf(stderr, "timestamp '%s': want an error (%s): %s\n", cells[i], why,
                             t ? "read" : e.msg);
            CHECK(ok);
        }
        table_free(t);
        /* detected: the same value; an error when it has a timestamp's shape only; TEXT
         * when not even that */
        t = load(text, &e);
        bool shaped = tm_shape_timestamp(cells[i], strlen(cells[i]));
        if (rc == 0) CHECK(t && t->cols[0]->type == TY_TIMESTAMP && col_i64(t->cols[0])[1] == want);
        else if (shaped) CHECK(!t && strstr(e.msg, "invalid TIMESTAMP"));
        else CHECK(t && t->cols[0]->type == TY_TEXT);
        table_free(t);
    }
}

/* The error reported is the first in the file, record by record and within a record column by
 * column, whichever way the passes group the records and columns they look at: random files
 * of forced types with a few invalid cells (and sometimes a record with an extra field, which
 * pass 1 reports before any cell), read in chunks of several sizes on one and two threads,
 * against the position the test computes. */
static void test_first_error_in_file_order(void) {
    rng_state = 7;
    static const RxType kinds[] = {TY_INT, TY_FLOAT, TY_DATE};
    static const char *const bad_cell[] = {"1x", "1..5", "2026-02-30"};
    static const char *const type_word[] = {"INT", "FLOAT", "DATE"};
    for (int trial = 0; trial < 300; trial++) {
        int n_cols = 2 + (int)rnd_below(5), rows = 1 + (int)rnd_below(400);
        char names[8][16];
        const char *name_p[8];
        RxType types[8];
        int kind_of[8];
        StrBuf text;
        sb_init(&text);
        for (int j = 0; j < n_cols; j++) {
            snprintf(names[j], sizeof names[j], "c%d", j);
            name_p[j] = names[j];
            kind_of[j] = (int)rnd_below(3);
            types[j] = kinds[kind_of[j]];
            sb_printf(&text, "%s%s", j ? "," : "", names[j]);
        }
        sb_putc(&text, '\n');
        unsigned per = (unsigned)(rows * n_cols / 3 + 1);   /* about three bad cells a file */
        int extra_row = rnd_below(4) == 0 ? (int)rnd_below((unsigned)rows) : -1;
        int want_line = 0, want_col = 0, want_j = -1, extra_line = 0, extra_col = 0;
        for (int i = 0; i < rows; i++) {
            size_t line_start = text.n;
            for (int j = 0; j < n_cols; j++) {
                if (j) sb_putc(&text, ',');
                int col = (int)(text.n - line_start) + 1;
                if (rnd_below(per) == 0) {
                    sb_puts(&text, bad_cell[kind_of[j]]);
                    if (!want_line) want_line = i + 2, want_col = col, want_j = j;
                } else if (rnd_below(10) == 0) {
                    /* NULL */
                } else if (kind_of[j] == 0) {
                    sb_printf(&text, "%d", (int)rnd_below(100000) - 50000);
                } else if (kind_of[j] == 1) {
                    sb_printf(&text, "%u.%02u", rnd_below(1000), rnd_below(100));
                } else {
                    sb_printf(&text, "2026-%02u-%02u", 1 + rnd_below(12), 1 + rnd_below(28));
                }
            }
            if (i == extra_row) {
                extra_line = i + 2;
                extra_col = (int)(text.n - line_start) + 2;
                sb_puts(&text, ",9");
            }
            sb_putc(&text, '\n');
        }
        const char *path = put_file(text.p, text.n);
        static const size_t chunks[] = {0, 61, 300, 4093};
        for (size_t c = 0; c < RX_ARRAY_LEN(chunks); c++) {
            for (int threads = 1; threads <= 2; threads++) {
                CsvOptions o;
                csv_options_default(&o);
                o.n_types = n_cols;
                o.type_names = name_p;
                o.type_types = types;
                o.chunk_bytes = chunks[c];
                o.threads = threads;
                Table *t = NULL;
                RxError e;
                memset(&e, 0, sizeof e);
                int rc = csv_read(path, &o, &t, &e);
                table_free(t);
                uint32_t l = 0, col = 0;
                if (rc < 0) err_pos(&e, &l, &col);
                char want_msg[128] = "";
                if (extra_line) {
                    snprintf(want_msg, sizeof want_msg, "line %d has %d fields", extra_line, n_cols + 1);
                } else if (want_line) {
                    snprintf(want_msg, sizeof want_msg, "invalid %s '%s' in column 'c%d'",
                             type_word[kind_of[want_j]], bad_cell[kind_of[want_j]], want_j);
                }
                int wl = extra_line ? extra_line : want_line;
                int wc = extra_line ? extra_col : want_col;
                bool ok = want_msg[0] ? rc < 0 && strstr(e.msg, want_msg) && l == (uint32_t)wl &&
                                            col == (uint32_t)wc
                                      : rc == 0;
                if (!ok)
                    fprintf(stderr, "trial %d, chunks %zu, %d threads: got %s at %u:%u, want '%s' "
                            "at %d:%d\n", trial, chunks[c], threads, rc < 0 ? e.msg : "no error",
                            l, col, want_msg, wl, wc);
                CHECK(ok);
            }
        }
        sb_free(&text);
    }
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
    test_identifiers_and_types();
    test_roundtrip();
    test_error_format();
    test_chunks_small();
    test_chunks_random();
    test_chunks_hints();
    test_dict_bytes();
    test_load_after_failure();
    test_floats_vs_strtod();
    test_ints_vs_strtoll();
    test_timestamps_vs_temporal();
    test_clock_fractions();
    test_short_floats();
    test_timestamp_edges();
    test_in_place_and_windows();
    test_windows_vs_whole();
    test_dict_lookahead();
    test_changed_before_load();
    test_first_error_in_file_order();
    for (int i = 1; i <= n_files; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/f%d.csv", dir, i);
        unlink(path);
    }
    rmdir(dir);
    return check_report("csv");
}
