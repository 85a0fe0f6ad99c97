/*
 * test_embed.c - a host program's columns in and out through the public API alone (relix.h):
 * rx_register_columns reads numbers, timestamps and text in place (the result of a query that
 * passes a column through points at the host's own array, and registering 10M rows grows the
 * engine's memory by a few bytes a row at most, the text slices), converts other time units
 * exactly, refuses what it cannot represent with a message naming column and row, and
 * rx_result_column hands each result column back in the same layout. An AS-OF join over
 * registered columns equals the same join over the same data written as an inline table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "check.h"
#include "relix.h"

typedef struct {
    RxColumnOut cols[8];
    int n_cols;
    size_t rows;
    char text[4096];   /* the result as CSV, for comparisons */
    const void *first_data;
    int64_t first_i[8];  /* row 0 of each INT, TIMESTAMP column (columns live only in the callback) */
    double first_f[8];   /* row 0 of each FLOAT column */
    int64_t t_off[8];    /* text column 0: its offsets */
    char t_bytes[16];
    uint8_t t_valid, b1;
    int32_t d3;
    int64_t ms2;
} Got;

static int grab(void *ud, const RxResult *r) {
    Got *g = ud;
    g->n_cols = rx_result_cols(r);
    g->rows = rx_result_rows(r);
    for (int j = 0; j < g->n_cols && j < 8; j++) CHECK(rx_result_column(r, j, &g->cols[j]) == 0);
    g->first_data = g->n_cols ? g->cols[0].data : NULL;
    for (int j = 0; j < g->n_cols && j < 8 && g->rows; j++) {
        const RxColumnOut *c = &g->cols[j];
        if (c->type == RX_TYPE_INT || c->type == RX_TYPE_TIMESTAMP) g->first_i[j] = ((const int64_t *)c->data)[0];
        if (c->type == RX_TYPE_FLOAT) g->first_f[j] = ((const double *)c->data)[0];
    }
    if (g->n_cols == 5 && g->rows == 5 && g->cols[0].type == RX_TYPE_TEXT) {  /* test_layouts' A */
        memcpy(g->t_off, g->cols[0].offsets, 6 * sizeof(int64_t));
        memcpy(g->t_bytes, g->cols[0].data, 5);
        g->t_valid = g->cols[0].valid ? g->cols[0].valid[0] : 0xFF;
        g->ms2 = ((const int64_t *)g->cols[1].data)[2];
        g->b1 = ((const uint8_t *)g->cols[3].data)[1];
        g->d3 = ((const int32_t *)g->cols[4].data)[3];
    }
    size_t at = 0;
    for (size_t i = 0; i < g->rows && i < 50; i++) {
        for (int j = 0; j < g->n_cols; j++) {
            const char *t = rx_result_is_null(r, i, j) ? "NULL" : rx_result_text(r, i, j);
            at += (size_t)snprintf(g->text + at, sizeof g->text - at, "%s%s", j ? "," : "", t);
            if (at >= sizeof g->text) at = sizeof g->text - 1;
        }
        at += (size_t)snprintf(g->text + at, sizeof g->text - at, "\n");
        if (at >= sizeof g->text) at = sizeof g->text - 1;
    }
    return 0;
}

static int run(RxSession *s, const char *q, Got *g) {
    memset(g, 0, sizeof *g);
    int rc = rx_exec(s, q, strlen(q), "<test>", grab, g);
    if (rc) fprintf(stderr, "%s\n", rx_errmsg(s));
    return rc;
}

static void test_version(void) {
    CHECK_STR(rx_version(), RELIX_VERSION);
    CHECK(rx_version_number() == RELIX_VERSION_NUMBER);
}

/* 10M rows of int64, double and microsecond timestamps: read in place. */
static void test_zero_copy(void) {
    size_t n = 10000000;
    int64_t *id = malloc(n * sizeof *id), *ts = malloc(n * sizeof *ts);
    double *px = malloc(n * sizeof *px);
    for (size_t i = 0; i < n; i++) {
        id[i] = (int64_t)i;
        ts[i] = 1700000000000000 + (int64_t)i * 1000;
        px[i] = (double)i * 0.5;
    }
    RxSession *s = rx_open();
    RxColumnIn cols[] = {
        {.name = "id", .type = RX_TYPE_INT, .data = id},
        {.name = "ts", .type = RX_TYPE_TIMESTAMP, .data = ts, .unit = 1000000},
        {.name = "px", .type = RX_TYPE_FLOAT, .data = px},
    };
    size_t before = rx_memory_used();
    CHECK(rx_register_columns(s, "T", 3, cols, n) == 0);
    size_t grew = rx_memory_used() - before;
    CHECK(grew < 65536);   /* headers and the catalog's entry, no data (240 MB if copied) */
    Got g;
    CHECK(run(s, "query { γ count(*) → n, sum(id) → s, max(px) → m, max(ts) → t (T) };", &g) == 0);
    CHECK(g.rows == 1);
    CHECK(g.cols[0].type == RX_TYPE_INT && g.first_i[0] == (int64_t)n);
    CHECK(g.first_i[1] == (int64_t)(n * (n - 1) / 2));
    CHECK(g.first_f[2] == (double)(n - 1) * 0.5);
    CHECK(g.cols[3].type == RX_TYPE_TIMESTAMP && g.cols[3].unit == 1000000);
    CHECK(g.first_i[3] == ts[n - 1]);
    /* a column passed through comes back as the host's own array */
    CHECK(run(s, "query { π id (T) };", &g) == 0);
    CHECK(g.rows == n && g.first_data == (const void *)id);
    rx_close(s);
    free(id);
    free(ts);
    free(px);
}

/* Text by offsets and fixed width, NULLs from an Arrow bitmap, other time units converted,
 * BOOL and DATE; results column at a time in the same layout. */
static void test_layouts(void) {
    const char bytes[] = "ABBCCCé";
    int64_t off[] = {0, 1, 3, 6, 6, 8};
    const char fixed[] = "x\0\0yy\0zzz";  /* width 3 */
    int64_t ms[] = {1000, 2000, -1500, 0, 86400000};
    int64_t ns[] = {1000, 2000000, -3000, 0, 5000};
    uint8_t flag[] = {0, 1, 1, 0, 1};
    int32_t day[] = {0, 1, -1, 19000, 3};
    uint8_t valid[] = {0x1B};  /* rows 0, 1, 3, 4 valid; row 2 NULL */
    RxColumnIn cols[] = {
        {.name = "s", .type = RX_TYPE_TEXT, .data = bytes, .offsets = off, .valid = valid},
        {.name = "ms", .type = RX_TYPE_TIMESTAMP, .data = ms, .unit = 1000},
        {.name = "ns", .type = RX_TYPE_TIMESTAMP, .data = ns, .unit = 1000000000},
        {.name = "b", .type = RX_TYPE_BOOL, .data = flag},
        {.name = "d", .type = RX_TYPE_DATE, .data = day},
    };
    RxColumnIn fx[] = {{.name = "f", .type = RX_TYPE_TEXT, .data = fixed, .width = 3}};
    RxSession *s = rx_open();
    CHECK(rx_register_columns(s, "A", 5, cols, 5) == 0);
    CHECK(rx_register_columns(s, "F", 1, fx, 3) == 0);
    Got g;
    CHECK(run(s, "query { A };", &g) == 0);
    CHECK_STR(g.text, "A,1970-01-01T00:00:01Z,1970-01-01T00:00:00.000001Z,false,1970-01-01\n"
                      "BB,1970-01-01T00:00:02Z,1970-01-01T00:00:00.002Z,true,1970-01-02\n"
                      "NULL,1969-12-31T23:59:58.5Z,1969-12-31T23:59:59.999997Z,true,1969-12-31\n"
                      ",1970-01-01T00:00:00Z,1970-01-01T00:00:00Z,false,2022-01-08\n"
                      "é,1970-01-02T00:00:00Z,1970-01-01T00:00:00.000005Z,true,1970-01-04\n");
    /* out: text as offsets, NULL in the bitmap, timestamps in microseconds */
    CHECK(g.cols[0].type == RX_TYPE_TEXT && g.cols[0].n == 5 && g.cols[0].offsets);
    CHECK(g.t_off[0] == 0 && g.t_off[1] == 1 && g.t_off[2] == 3 && g.t_off[3] == 3 && g.t_off[4] == 3 &&
          g.t_off[5] == 5);
    CHECK(memcmp(g.t_bytes, "ABB\xc3\xa9", 5) == 0);
    CHECK((g.t_valid & 0x1F) == 0x1B);
    CHECK(g.ms2 == -1500000 && g.cols[1].unit == 1000000);
    CHECK(g.cols[3].type == RX_TYPE_BOOL && g.b1 == 1);
    CHECK(g.cols[4].type == RX_TYPE_DATE && g.d3 == 19000);
    CHECK(run(s, "query { F };", &g) == 0);
    CHECK_STR(g.text, "x\nyy\nzzz\n");
    /* refusals: each names the column and row, and defines nothing */
    int64_t bad_ns[] = {0, 1500};
    RxColumnIn e1[] = {{.name = "t", .type = RX_TYPE_TIMESTAMP, .data = bad_ns, .unit = 1000000000}};
    CHECK(rx_register_columns(s, "E", 1, e1, 2) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "'t'") && strstr(rx_errmsg(s), "row 2") && strstr(rx_errmsg(s), "microsecond"));
    const char badutf[] = "\xff";
    int64_t boff[] = {0, 1};
    RxColumnIn e2[] = {{.name = "u", .type = RX_TYPE_TEXT, .data = badutf, .offsets = boff}};
    CHECK(rx_register_columns(s, "E", 1, e2, 1) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "UTF-8") && strstr(rx_errmsg(s), "row 1"));
    uint8_t two[] = {2};
    RxColumnIn e3[] = {{.name = "b", .type = RX_TYPE_BOOL, .data = two}};
    CHECK(rx_register_columns(s, "E", 1, e3, 1) == RX_ERR_VALUE);
    RxColumnIn e4[] = {{.name = "t", .type = RX_TYPE_TIMESTAMP, .data = ms, .unit = 7}};
    CHECK(rx_register_columns(s, "E", 1, e4, 1) == RX_ERR_VALUE);
    CHECK(rx_register_columns(s, "A", 5, cols, 5) == RX_ERR_NAME);
    RxColumnIn dup[] = {{.name = "x", .type = RX_TYPE_INT, .data = ms}, {.name = "x", .type = RX_TYPE_INT, .data = ms}};
    CHECK(rx_register_columns(s, "E", 2, dup, 1) == RX_ERR_NAME);
    CHECK(run(s, "query { E };", &g) != 0 && strstr(rx_errmsg(s), "unknown relation 'E'"));
    rx_close(s);
}

/* An AS-OF join over registered columns equals the one over the same rows written inline. */
static void test_asof_same(void) {
    enum { N = 2000 };
    static int64_t tts[N], qts[N], qbid[N];
    static char tsym[N * 2], qsym[N * 2];
    static int64_t toff[N + 1], qoff[N + 1];
    uint64_t x = 88172645463325252ull;
    char *inl = malloc(1 << 20);
    size_t at = (size_t)sprintf(inl, "T := [\n| sym | ts |\n|---|---|\n");
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        tsym[i * 2] = 'A' + (char)(x % 5), tsym[i * 2 + 1] = 'a' + (char)(x / 5 % 3);
        tts[i] = (int64_t)(x >> 20) % 5000;
        toff[i] = i * 2;
        at += (size_t)sprintf(inl + at, "| %.2s | %lld |\n", tsym + i * 2, (long long)tts[i]);
    }
    toff[N] = N * 2;
    at += (size_t)sprintf(inl + at, "];\nQ := [\n| sym | ts | bid |\n|---|---|---|\n");
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        qsym[i * 2] = 'A' + (char)(x % 5), qsym[i * 2 + 1] = 'a' + (char)(x / 5 % 3);
        qts[i] = (int64_t)(x >> 20) % 5000;
        qbid[i] = (int64_t)(x % 1000);
        qoff[i] = i * 2;
        at += (size_t)sprintf(inl + at, "| %.2s | %lld | %lld |\n", qsym + i * 2, (long long)qts[i],
                              (long long)qbid[i]);
    }
    qoff[N] = N * 2;
    sprintf(inl + at, "];\n");
    const char *q = "query { γ count(*) → n, count(bid) → m, sum(bid) → s, sum(ts_r) → t (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };";
    RxSession *a = rx_open(), *b = rx_open();
    RxColumnIn tc[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = tsym, .offsets = toff},
                       {.name = "ts", .type = RX_TYPE_INT, .data = tts}};
    RxColumnIn qc[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = qsym, .offsets = qoff},
                       {.name = "ts", .type = RX_TYPE_INT, .data = qts},
                       {.name = "bid", .type = RX_TYPE_INT, .data = qbid}};
    CHECK(rx_register_columns(a, "T", 2, tc, N) == 0);
    CHECK(rx_register_columns(a, "Q", 3, qc, N) == 0);
    CHECK(rx_exec(b, inl, strlen(inl), "<inline>", NULL, NULL) == 0);
    Got ga, gb;
    CHECK(run(a, q, &ga) == 0);
    CHECK(run(b, q, &gb) == 0);
    CHECK(ga.rows == 1 && strlen(ga.text) > 5);
    CHECK_STR(ga.text, gb.text);
    rx_close(a);
    rx_close(b);
    free(inl);
}

/* What rx_result_text_dict gives for column 0: codes of the first 16 rows, and the dictionary
 * as "v0|v1|...". */
typedef struct {
    int rc;
    size_t n, n_dict;
    int32_t codes[16];
    char dict[256];
} GotDict;

static int grab_dict(void *ud, const RxResult *r) {
    GotDict *g = ud;
    RxTextDict d;
    memset(g, 0, sizeof *g);
    g->rc = rx_result_text_dict(r, 0, &d);
    if (g->rc) return 0;
    g->n = d.n;
    g->n_dict = d.n_dict;
    for (size_t i = 0; i < d.n && i < 16; i++) g->codes[i] = d.codes[i];
    size_t at = 0;
    for (size_t k = 0; k < d.n_dict && at + 64 < sizeof g->dict; k++)
        at += (size_t)snprintf(g->dict + at, sizeof g->dict - at, "%s%.*s", k ? "|" : "",
                               (int)(d.dict_offsets[k + 1] - d.dict_offsets[k]), d.dict_data + d.dict_offsets[k]);
    return 0;
}

/* Dictionary-coded text in: a dictionary with a repeated and an unused value, NULLs by a
 * negative code and by the bitmap, both dictionary layouts; the rows read as their values,
 * rx_result_text_dict gives the used values in order of first appearance (the same as for
 * plain text), and bad codes, offsets and UTF-8 are refused naming the row or value. */
static void test_dict_coded(void) {
    const char words[] = "redbluegreenbluepink";   /* red blue green blue pink: blue twice, pink unused */
    int64_t woff[] = {0, 3, 7, 12, 16, 20};
    int32_t codes[] = {1, 0, -1, 3, 2, 1, 0, 2};
    uint8_t valid[] = {0xDF};  /* row 5 NULL by the bitmap */
    const char fixed[] = "ab\0cd\0ab\0";  /* width 3: ab cd ab */
    int32_t fcodes[] = {2, 1, 0, -5};
    RxColumnIn cols[] = {{.name = "c", .type = RX_TYPE_TEXT, .data = words, .offsets = woff, .codes = codes,
                          .n_dict = 5, .valid = valid}};
    RxColumnIn fx[] = {{.name = "f", .type = RX_TYPE_TEXT, .data = fixed, .width = 3, .codes = fcodes, .n_dict = 3}};
    RxSession *s = rx_open();
    CHECK(rx_register_columns(s, "C", 1, cols, 8) == 0);
    CHECK(rx_register_columns(s, "F", 1, fx, 4) == 0);
    Got g;
    CHECK(run(s, "query { C };", &g) == 0);
    CHECK_STR(g.text, "blue\nred\nNULL\nblue\ngreen\nNULL\nred\ngreen\n");
    CHECK(run(s, "query { F };", &g) == 0);
    CHECK_STR(g.text, "ab\ncd\nab\nNULL\n");
    /* the repeated value is one value: grouping and equality see one "blue" */
    CHECK(run(s, "query { γ c; count(*) → n (σ c = 'blue' (C)) };", &g) == 0);
    CHECK_STR(g.text, "blue,2\n");
    CHECK(run(s, "query { γ count(DISTINCT c) → n (C) };", &g) == 0);
    CHECK_STR(g.text, "3\n");
    GotDict d, e;
    const char *q = "query { C };";
    CHECK(rx_exec(s, q, strlen(q), "<test>", grab_dict, &d) == 0 && d.rc == 0);
    CHECK(d.n == 8 && d.n_dict == 3);
    CHECK_STR(d.dict, "blue|red|green");
    int32_t want[] = {0, 1, -1, 0, 2, -1, 1, 2};
    CHECK(memcmp(d.codes, want, sizeof want) == 0);
    /* the same rows as plain text code the same by hashing */
    const char plain[] = "blueredbluegreenredgreen";
    int64_t poff[] = {0, 4, 7, 7, 11, 16, 16, 19, 24};
    uint8_t pvalid[] = {0xDB};
    RxColumnIn pc[] = {{.name = "c", .type = RX_TYPE_TEXT, .data = plain, .offsets = poff, .valid = pvalid}};
    CHECK(rx_register_columns(s, "P", 1, pc, 8) == 0);
    q = "query { P };";
    CHECK(rx_exec(s, q, strlen(q), "<test>", grab_dict, &e) == 0 && e.rc == 0);
    CHECK(e.n == 8 && e.n_dict == 3 && memcmp(e.codes, want, sizeof want) == 0);
    CHECK_STR(e.dict, d.dict);
    /* refusals */
    int32_t past[] = {0, 5};
    RxColumnIn e1[] = {{.name = "c", .type = RX_TYPE_TEXT, .data = words, .offsets = woff, .codes = past, .n_dict = 5}};
    CHECK(rx_register_columns(s, "E", 1, e1, 2) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "'c'") && strstr(rx_errmsg(s), "past its dictionary at row 2"));
    int64_t back[] = {0, 3, 2, 12, 16, 20};
    RxColumnIn e2[] = {{.name = "c", .type = RX_TYPE_TEXT, .data = words, .offsets = back, .codes = codes, .n_dict = 5}};
    CHECK(rx_register_columns(s, "E", 1, e2, 8) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "offsets out of order at value 2"));
    const char badutf[] = "ok\xff";
    int64_t boff[] = {0, 2, 3};
    RxColumnIn e3[] = {{.name = "u", .type = RX_TYPE_TEXT, .data = badutf, .offsets = boff, .codes = codes, .n_dict = 2}};
    CHECK(rx_register_columns(s, "E", 1, e3, 1) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "'u'") && strstr(rx_errmsg(s), "UTF-8 in dictionary value 2"));
    CHECK(run(s, "query { E };", &g) != 0 && strstr(rx_errmsg(s), "unknown relation 'E'"));
    /* every row NULL, an empty dictionary */
    int32_t none[] = {-1, -1};
    RxColumnIn e4[] = {{.name = "c", .type = RX_TYPE_TEXT, .data = "", .offsets = woff, .codes = none, .n_dict = 0}};
    CHECK(rx_register_columns(s, "N", 1, e4, 2) == 0);
    CHECK(run(s, "query { N };", &g) == 0);
    CHECK_STR(g.text, "NULL\nNULL\n");
    rx_close(s);
}

/* An AS-OF join over dictionary-coded keys (dictionaries in different orders on the two
 * sides, with repeats, unused values and NULL keys) equals the one over the same rows as
 * plain text. */
static void test_asof_coded(void) {
    enum { N = 3000 };
    static int64_t tts[N], qts[N], qbid[N], toff[N + 1], qoff[N + 1];
    static int32_t tcode[N], qcode[N];
    static char tsym[N * 2], qsym[N * 2];
    /* T's dictionary: Aa..Ec (15) then Aa again; Q's: the same values backwards, and Zz unused */
    static char tdict[16 * 2], qdict[16 * 2];
    int64_t tdoff[17], qdoff[17];
    for (int k = 0; k < 15; k++) {
        tdict[k * 2] = 'A' + (char)(k / 3), tdict[k * 2 + 1] = 'a' + (char)(k % 3);
        qdict[(14 - k) * 2] = tdict[k * 2], qdict[(14 - k) * 2 + 1] = tdict[k * 2 + 1];
    }
    tdict[30] = 'A', tdict[31] = 'a';
    qdict[30] = 'Z', qdict[31] = 'z';
    for (int k = 0; k <= 16; k++) tdoff[k] = qdoff[k] = 2 * k;
    uint8_t tvalid[(N + 7) / 8], qvalid[(N + 7) / 8];
    memset(tvalid, 0xff, sizeof tvalid);
    memset(qvalid, 0xff, sizeof qvalid);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int k = (int)(x % 16);   /* 15: the repeated Aa */
        tcode[i] = x % 97 == 0 ? -1 : k;
        memcpy(tsym + i * 2, tdict + k * 2, 2);
        if (tcode[i] < 0) tvalid[i / 8] &= (uint8_t)~(1u << (i % 8));
        tts[i] = (int64_t)(x >> 20) % 5000;
        toff[i] = i * 2;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        k = (int)(x % 15);
        qcode[i] = x % 89 == 0 ? -1 : k;
        memcpy(qsym + i * 2, qdict + k * 2, 2);
        if (qcode[i] < 0) qvalid[i / 8] &= (uint8_t)~(1u << (i % 8));
        qts[i] = (int64_t)(x >> 20) % 5000;
        qbid[i] = (int64_t)(x % 1000);
        qoff[i] = i * 2;
    }
    toff[N] = qoff[N] = N * 2;
    const char *q = "query { γ count(*) → n, count(bid) → m, sum(bid) → s, sum(ts_r) → t, count(distinct sym) → d "
                    "(T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };";
    RxSession *a = rx_open(), *b = rx_open();
    RxColumnIn tc[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = tdict, .offsets = tdoff, .codes = tcode, .n_dict = 16},
                       {.name = "ts", .type = RX_TYPE_INT, .data = tts}};
    RxColumnIn qc[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = qdict, .offsets = qdoff, .codes = qcode, .n_dict = 16},
                       {.name = "ts", .type = RX_TYPE_INT, .data = qts},
                       {.name = "bid", .type = RX_TYPE_INT, .data = qbid}};
    RxColumnIn tp[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = tsym, .offsets = toff, .valid = tvalid},
                       {.name = "ts", .type = RX_TYPE_INT, .data = tts}};
    RxColumnIn qp[] = {{.name = "sym", .type = RX_TYPE_TEXT, .data = qsym, .offsets = qoff, .valid = qvalid},
                       {.name = "ts", .type = RX_TYPE_INT, .data = qts},
                       {.name = "bid", .type = RX_TYPE_INT, .data = qbid}};
    CHECK(rx_register_columns(a, "T", 2, tc, N) == 0);
    CHECK(rx_register_columns(a, "Q", 3, qc, N) == 0);
    CHECK(rx_register_columns(b, "T", 2, tp, N) == 0);
    CHECK(rx_register_columns(b, "Q", 3, qp, N) == 0);
    Got ga, gb;
    CHECK(run(a, q, &ga) == 0);
    CHECK(run(b, q, &gb) == 0);
    CHECK(ga.rows == 1 && strlen(ga.text) > 5);
    CHECK_STR(ga.text, gb.text);
    /* the join's rows themselves, in order, and their text dictionary-coded */
    const char *rows = "query { π sym, ts, bid (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };";
    CHECK(run(a, rows, &ga) == 0);
    CHECK(run(b, rows, &gb) == 0);
    CHECK(ga.rows == gb.rows && ga.rows > N * 9 / 10);   /* π drops the rows that repeat */
    CHECK_STR(ga.text, gb.text);
    GotDict da, db;
    CHECK(rx_exec(a, rows, strlen(rows), "<test>", grab_dict, &da) == 0 && da.rc == 0);
    CHECK(rx_exec(b, rows, strlen(rows), "<test>", grab_dict, &db) == 0 && db.rc == 0);
    CHECK(da.n == ga.rows && da.n_dict == 15 && da.n_dict == db.n_dict);
    CHECK(memcmp(da.codes, db.codes, sizeof da.codes) == 0);
    CHECK_STR(da.dict, db.dict);
    rx_close(a);
    rx_close(b);
}

/* rx_factorize_u64 against a brute-force numbering, on values drawn from pools of every size
 * (one value, a few, mostly distinct; 0 and UINT64_MAX among them), so that its table grows past
 * its first size; and the edge of no rows and a too-long input. */
static void test_factorize_u64(void) {
    uint64_t seed = 12345;
    for (int round = 0; round < 200; round++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t n = (size_t)(seed >> 40) % 5000, pool = 1 + (size_t)(seed >> 20) % (round % 3 == 0 ? 3000 : 40);
        uint64_t *v = malloc((n ? n : 1) * sizeof *v), *vals = malloc(pool * sizeof *vals);
        int32_t *codes = malloc((n ? n : 1) * sizeof *codes);
        int64_t *first = malloc((n ? n : 1) * sizeof *first);
        /* spread values (0 and UINT64_MAX among them: hashed, through a cache that values
         * can share a slot of), or values close together as a
         * binding's object references are (numbered through a table indexed by the value), with
         * strides of any alignment, near the top of the range, and at the table's size limit
         * (2^16 slots for so few rows) and one past it */
        int kind = round % 5;
        uint64_t base = kind == 2 ? UINT64_MAX - (uint64_t)70000 * 64 : rx_hash64((uint64_t)round) >> 8;
        uint64_t stride = (uint64_t[]){1, 8, 16, 24, 56, 64, 3}[round % 7];
        for (size_t k = 0; k < pool; k++) {
            if (kind == 0) vals[k] = k == 0 ? 0 : k == 1 ? UINT64_MAX : rx_hash64(k * 7919 + (uint64_t)round);
            else if (kind == 4)   /* spread, and pairs that share a slot of the hash path's cache */
                vals[k] = base + (k % 2) * ((uint64_t)1 << 40) + (k / 2) * stride * 65536;
            else vals[k] = base + (rx_hash64(k + (uint64_t)round * 131) % (pool * 4)) * stride;
        }
        if (kind == 3 && pool > 1) vals[pool - 1] = base + (uint64_t)(round % 8 < 4 ? 65535 : 65536) * stride;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            v[i] = vals[(seed >> 33) % pool];
        }
        int64_t nd = rx_factorize_u64(v, n, codes, first);
        CHECK(nd >= 0 && (size_t)nd <= pool);
        /* brute force: codes in order of first appearance, first the row of each */
        int64_t seen = 0;
        bool ok = nd >= 0;
        for (size_t i = 0; ok && i < n; i++) {
            int64_t c = -1;
            for (int64_t k = 0; k < seen; k++)
                if (v[first[k]] == v[i]) c = k;
            if (c < 0) {
                ok = first[seen] == (int64_t)i;
                c = seen++;
            }
            ok = ok && codes[i] == c;
        }
        CHECK(ok && seen == nd);
        free(v), free(vals), free(codes), free(first);
    }
    int32_t c1;
    int64_t f1;
    CHECK(rx_factorize_u64(NULL, 0, &c1, &f1) == 0);
    uint64_t one = 7;
    CHECK(rx_factorize_u64(&one, (size_t)INT32_MAX + 1, &c1, &f1) == -1);
}

/* A relation of no rows whose columns have no buffers at all (a host's empty arrays: data NULL),
 * grouped, joined and deduplicated by its INT key: each operator takes the empty columns
 * without touching their data (a copy from NULL, even of 0 bytes, is undefined behaviour). */
static void test_empty_host_columns(void) {
    RxSession *s = rx_open();
    RxColumnIn e[2] = {{.name = "k", .type = RX_TYPE_INT}, {.name = "v", .type = RX_TYPE_FLOAT}};
    CHECK(rx_register_columns(s, "E", 2, e, 0) == 0);
    Got g;
    CHECK(run(s, "query { γ k; count(*) → n (E) };", &g) == 0 && g.rows == 0);
    CHECK(run(s, "query { π k (E) };", &g) == 0 && g.rows == 0);
    int64_t one[1] = {1}, two[1] = {2};
    RxColumnIn f[3] = {{.name = "k", .type = RX_TYPE_INT, .data = one}, {.name = "s", .type = RX_TYPE_INT, .data = one},
                       {.name = "e", .type = RX_TYPE_INT, .data = two}};
    RxColumnIn h[3] = {{.name = "k", .type = RX_TYPE_INT}, {.name = "s", .type = RX_TYPE_INT}, {.name = "v", .type = RX_TYPE_FLOAT}};
    CHECK(rx_register_columns(s, "F", 3, f, 1) == 0);
    CHECK(rx_register_columns(s, "H", 3, h, 0) == 0);
    CHECK(run(s, "query { γ k, s; count(*) → n (H) };", &g) == 0 && g.rows == 0);
    CHECK(run(s, "query { F ⨝ F.k = H.k H };", &g) == 0 && g.rows == 0);
    CHECK(run(s, "query { F ASOF F.k = H.k ∧ F.s >= H.s H };", &g) == 0 && g.rows == 1);
    CHECK(run(s, "query { H ASOF H.k = F.k ∧ H.s >= F.s F };", &g) == 0 && g.rows == 0);
    CHECK(run(s, "query { σ F.k = H.k (F IJOIN INTERSECTS (F.s, F.e, H.s, H.s) H) };", &g) == 0 && g.rows == 0);
    rx_close(s);
}

int main(void) {
    test_factorize_u64();
    test_empty_host_columns();
    test_version();
    test_layouts();
    test_asof_same();
    test_dict_coded();
    test_asof_coded();
    test_zero_copy();
    return check_report("embed");
}
