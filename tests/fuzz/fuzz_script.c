/*
 * fuzz_script.c - libFuzzer target: the whole pipeline on arbitrary script text, through the
 * public API only (include/relix.h).
 *
 * Each input runs twice: in a session with the defaults, and in one with the optimizer and
 * the hash join off and the interval and AS-OF joins forced to other algorithms (chosen by
 * the input's length, so a reproducer replays the same way). Every result is written in
 * every format, so the writers and the value formatting run too. An error is a normal
 * outcome; a crash, a sanitizer report, a hang or runaway memory is a finding, and so is a
 * difference between the two runs when both succeed: rewrites, the hash join and the join
 * algorithms must not change any result (row order included: docs/design.md defines it).
 *
 * Scripts must not touch the filesystem: an input that mentions csv or parquet in any case
 * (the statements that open a file are `name := csv('path', ...)`, `name := parquet('path')`
 * and their `into` forms) is skipped before rx_exec.
 * tests/fuzz/fuzz_lexer_parser.c covers the syntax of those statements.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The text of every result of one run, in the CSV format (exact values), capped. */
typedef struct {
    char *p;
    size_t n, cap;
    int overflow;
} Out;

#define OUT_CAP (1u << 20)

static int collect(void *ud, const char *p, size_t n) {
    Out *o = ud;
    if (o->overflow || o->n + n > OUT_CAP) {
        o->overflow = 1;
        return 0;
    }
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + n) cap *= 2;
        char *q = realloc(o->p, cap);
        if (!q) {
            o->overflow = 1;
            return 0;
        }
        o->p = q, o->cap = cap;
    }
    memcpy(o->p + o->n, p, n);
    o->n += n;
    return 0;
}

static int discard(void *ud, const char *p, size_t n) {
    (void)ud;
    (void)p;
    (void)n;
    return 0;
}

static int on_result(void *ud, const RxResult *r) {
    static const RxFormat formats[] = {RX_FORMAT_TABLE, RX_FORMAT_TSV, RX_FORMAT_JSON,
                                       RX_FORMAT_MARKDOWN};
    Out *o = ud;
    collect(o, "--\n", 3);
    rx_result_write(r, RX_FORMAT_CSV, collect, o);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        rx_result_write(r, formats[i], discard, NULL);
    int cols = rx_result_cols(r);
    size_t rows = rx_result_rows(r);
    for (size_t row = 0; row < rows && row < 64; row++)
        for (int c = 0; c < cols; c++) {
            (void)rx_result_text(r, row, c);
            if (!rx_result_is_null(r, row, c)) {
                RxColType ty = rx_result_coltype(r, c);
                int64_t iv = rx_result_int(r, row, c);
                if (ty == RX_TYPE_FLOAT) {
                    /* relix.h: truncated toward zero, clamped to the int64 range, NaN 0 */
                    double f = rx_result_float(r, row, c);
                    int64_t want = isnan(f) ? 0 : f >= 0x1p63 ? INT64_MAX : f < -0x1p63 ? INT64_MIN : (int64_t)f;
                    if (iv != want) abort();
                } else if (ty == RX_TYPE_TEXT && iv != 0) {
                    abort();
                }
            }
        }
    (void)rx_result_explain(r);
    return 0;
}

/* True when the text contains "csv" or "parquet" in any case. */
static int mentions_csv(const uint8_t *p, size_t n) {
    for (size_t i = 0; i + 3 <= n; i++)
        if ((p[i] | 0x20) == 'c' && (p[i + 1] | 0x20) == 's' && (p[i + 2] | 0x20) == 'v') return 1;
    for (size_t i = 0; i + 7 <= n; i++) {
        size_t k = 0;
        while (k < 7 && (p[i + k] | 0x20) == "parquet"[k]) k++;
        if (k == 7) return 1;
    }
    return 0;
}

/* Runs the text in a new session; 0 when every statement ran, with the results in *o. */
static int run(const char *text, size_t n, int variant, Out *o) {
    RxSession *s = rx_open();
    if (!s) return -1;
    if (variant) {
        rx_set_optimize(s, 0);
        rx_set_hashjoin(s, 0);
        rx_set_ijoin_algo(s, 1 + (int)(n % 2));
        rx_set_asof_algo(s, 1 + (int)(n % 3));
    }
    int rc = rx_exec(s, text, n, "<fuzz>", on_result, o);
    if (rc != 0) {
        const char *m = rx_errmsg(s);
        if (!m || !*m) abort();   /* a failure must come with a message */
    }
    rx_close(s);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024 || mentions_csv(data, size)) return -1;
    /* An exact-size copy, so that reading past len is caught even when libFuzzer's buffer
     * would not catch it. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    memcpy(text, data, size);
    Out a = {0}, b = {0};
    int ra = run(text, size, 0, &a);
    int rb = run(text, size, 1, &b);
    if (ra == 0 && rb == 0 && !a.overflow && !b.overflow &&
        (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n) != 0))) {
        fprintf(stderr, "results differ with and without the optimizer:\n"
                        "---- optimized\n%.*s\n---- not optimized\n%.*s\n",
                (int)a.n, a.p ? a.p : "", (int)b.n, b.p ? b.p : "");
        abort();
    }
    free(a.p);
    free(b.p);
    free(text);
    return 0;
}
