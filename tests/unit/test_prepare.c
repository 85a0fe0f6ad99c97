/*
 * test_prepare.c - prepared queries through the public API alone (relix.h): a script parsed
 * once runs a thousand times with different parameter values (rx_parse_count stays at one
 * parse), each run's rows right for its values; a value of the wrong kind fails at bind, a
 * missing one at rx_execute, both naming the parameter's line and column; bound text is a
 * value, never script text; parameters outside a prepared query are errors.
 */
#define _GNU_SOURCE   /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <unistd.h>

#include "check.h"
#include "relix.h"

static const char *DEFS =
    "T := [\n"
    "| a | b     | ts                   |\n"
    "|---|-------|----------------------|\n"
    "| 1 | alpha | 2026-01-02T09:00:00Z |\n"
    "| 2 | beta  | 2026-01-02T10:00:00Z |\n"
    "| 3 | gamma | 2026-01-02T11:00:00Z |\n"
    "| 4 | 'it''s' | 2026-01-02T12:00:00Z |\n"
    "];\n";

static RxSession *session(void) {
    RxSession *s = rx_open();
    CHECK(s != NULL);
    CHECK(rx_exec(s, DEFS, strlen(DEFS), "defs.rx", NULL, NULL) == 0);
    return s;
}

static RxStmt *prepare(RxSession *s, const char *q) {
    RxStmt *st = NULL;
    int rc = rx_prepare(s, q, strlen(q), "q.rx", &st);
    if (rc) fprintf(stderr, "%s", rx_errmsg(s));
    CHECK(rc == 0 && st != NULL);
    return st;
}

/* A thousand runs of one statement: one parse, each run's count right for its bounds. */
static void test_thousand(void) {
    RxSession *s = rx_open();
    /* 100 rows, a = 1..100 */
    char defs[4096];
    size_t at = (size_t)snprintf(defs, sizeof defs, "N := [\n| a |\n|---|\n");
    for (int i = 1; i <= 100; i++) at += (size_t)snprintf(defs + at, sizeof defs - at, "| %d |\n", i);
    snprintf(defs + at, sizeof defs - at, "];\n");
    CHECK(rx_exec(s, defs, strlen(defs), "n.rx", NULL, NULL) == 0);
    size_t parses = rx_parse_count(s);
    CHECK(parses == 1);
    RxStmt *st = prepare(s, "query { σ a > $1 ∧ a <= :hi (N) };");
    CHECK(rx_parse_count(s) == parses + 1);
    CHECK(rx_bind_parameter_count(st) == 2);
    int hi = rx_bind_parameter_index(st, ":hi");
    CHECK(hi == 2);
    CHECK(rx_bind_parameter_index(st, "hi") == 2);
    CHECK(rx_bind_parameter_index(st, "$1") == 1);
    CHECK(rx_bind_parameter_index(st, "nope") == 0);
    CHECK_STR(rx_bind_parameter_name(st, 2), ":hi");
    CHECK(rx_bind_parameter_name(st, 3) == NULL);
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        int lo = i % 100, up = lo + i % 13;
        if (rx_bind_int(st, 1, lo) || rx_bind_int(st, hi, up)) bad++;
        const RxResult *r = NULL;
        if (rx_execute(st, &r) != 0 || !r) {
            bad++;
            continue;
        }
        size_t want = (size_t)((up > 100 ? 100 : up) - lo);
        if (rx_result_rows(r) != want) bad++;
        if (want && rx_result_int(r, 0, 0) != lo + 1) bad++;
    }
    CHECK(bad == 0);
    CHECK(rx_parse_count(s) == parses + 1);   /* the thousand runs parsed nothing */
    /* a FLOAT where an INT is compared: one numeric family */
    CHECK(rx_bind_double(st, 1, 97.5) == 0);
    CHECK(rx_bind_int(st, 2, 1000) == 0);
    const RxResult *r = NULL;
    CHECK(rx_execute(st, &r) == 0 && r && rx_result_rows(r) == 3);
    rx_finalize(st);
    rx_close(s);
}

/* Binds of the wrong kind, missing binds, bad slots: errors naming the parameter's place. */
static void test_errors(void) {
    RxSession *s = session();
    RxStmt *st = prepare(s, "query {\n  σ a >= $1 ∧ b <> :name (T)\n};");
    /* text where an INT is compared: refused at bind, the old value kept */
    CHECK(rx_bind_int(st, 1, 2) == 0);
    CHECK(rx_bind_text(st, 1, "2", 1) != 0);
    CHECK(rx_errcode(s) == RX_ERR_TYPE);
    CHECK(strstr(rx_errmsg(s), "q.rx:2:10: error: parameter $1 is compared with INT") != NULL);
    CHECK(rx_bind_int(st, 2, 5) != 0);          /* an INT where TEXT is compared */
    CHECK(strstr(rx_errmsg(s), "q.rx:2:20:") != NULL);
    /* :name is not bound yet */
    const RxResult *r = (const RxResult *)1;
    CHECK(rx_execute(st, &r) != 0 && r == NULL);
    CHECK(rx_errcode(s) == RX_ERR_VALUE);
    CHECK(strstr(rx_errmsg(s), "q.rx:2:20: error: parameter :name is not bound") != NULL);
    CHECK(rx_bind_text(st, 2, "beta", 4) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 2);   /* 3 gamma, 4 it's: $1 kept 2 */
    /* slots out of range */
    CHECK(rx_bind_int(st, 0, 1) != 0 && rx_errcode(s) == RX_ERR_VALUE);
    CHECK(rx_bind_int(st, 3, 1) != 0 && strstr(rx_errmsg(s), "parameter 3 does not exist") != NULL);
    /* invalid UTF-8 */
    CHECK(rx_bind_text(st, 2, "\xff", 1) != 0 && rx_errcode(s) == RX_ERR_VALUE);
    /* reset drops every value: unbound again */
    CHECK(rx_reset(st) == 0);
    CHECK(rx_execute(st, &r) != 0 && strstr(rx_errmsg(s), "parameter $1 is not bound") != NULL);
    rx_finalize(st);

    /* a type the parameter's place does not take, not known at prepare: fails at rx_execute
     * at the parameter */
    st = prepare(s, "query { π a + $1 → c (T) };");
    CHECK(rx_bind_text(st, 1, "x", 1) == 0);
    CHECK(rx_execute(st, &r) != 0);
    CHECK(rx_errcode(s) == RX_ERR_TYPE);
    CHECK(strstr(rx_errmsg(s), "q.rx:1:") != NULL);
    CHECK(rx_bind_int(st, 1, 10) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 4 && rx_result_int(r, 3, 0) == 14);
    rx_finalize(st);

    /* a parameter outside a prepared query, or in a view */
    const char *q = "query { σ a = $1 (T) };";
    CHECK(rx_exec(s, q, strlen(q), "x.rx", NULL, NULL) != 0);
    CHECK(strstr(rx_errmsg(s), "x.rx:1:15: error: a parameter can only stand in a prepared query") != NULL);
    q = "V := { σ a = $1 (T) };\nquery { V };";
    st = (RxStmt *)1;
    CHECK(rx_prepare(s, q, strlen(q), "v.rx", &st) != 0 && st == NULL);
    CHECK(strstr(rx_errmsg(s), "v.rx:1:14: error: a view cannot take a parameter") != NULL);
    q = "query { σ a = $0 (T) };";
    CHECK(rx_prepare(s, q, strlen(q), "z.rx", &st) != 0);
    CHECK(strstr(rx_errmsg(s), "z.rx:1:15:") != NULL);
    rx_close(s);
}

/* Values of every kind, NULL, and text that would change the script if it were spliced in. */
static void test_values(void) {
    RxSession *s = session();
    RxStmt *st = prepare(s, "query { σ b = $1 (T) };");
    const char *evil = "x' ∨ TRUE ∨ b = 'y";
    const RxResult *r = NULL;
    CHECK(rx_bind_text(st, 1, evil, strlen(evil)) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 0);
    CHECK(rx_bind_text(st, 1, "it's", 4) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 1 && rx_result_int(r, 0, 0) == 4);
    CHECK(rx_bind_null(st, 1) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 0);
    rx_finalize(st);

    st = prepare(s, "query { σ to_timestamp(ts) >= $1 (T) };\nquery { π a, $2 → flag, $3 → x (σ a = 1 (T)) };");
    CHECK(rx_bind_timestamp(st, 1, INT64_C(1767348000) * 1000000) == 0);   /* 2026-01-02T10:00:00Z */
    CHECK(rx_bind_bool(st, 2, 1) == 0);
    CHECK(rx_bind_double(st, 3, 2.5) == 0);
    CHECK(rx_execute(st, &r) == 0 && r);
    /* the last query's result */
    CHECK(r && rx_result_rows(r) == 1 && rx_result_coltype(r, 1) == RX_TYPE_BOOL && rx_result_int(r, 0, 1) == 1);
    CHECK(r && rx_result_float(r, 0, 2) == 2.5);
    rx_finalize(st);

    st = prepare(s, "query { σ to_timestamp(ts) >= $1 (T) };");
    CHECK(rx_bind_timestamp(st, 1, INT64_C(1767348000) * 1000000) == 0);
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 3);
    CHECK(rx_bind_date(st, 1, 20456) == 0);   /* 2026-01-03: a DATE compares with a TIMESTAMP */
    CHECK(rx_execute(st, &r) == 0 && rx_result_rows(r) == 0);
    CHECK(rx_bind_int(st, 1, 5) != 0 && rx_errcode(s) == RX_ERR_TYPE);
    /* left for rx_close to finalize */
    rx_close(s);
}

/* A parameter pushed down to a database is the statement's own parameter there, never text
 * in the SQL: hostile text matches itself only. */
static void test_pushdown(void) {
    char path[] = "/tmp/rx_prepare_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "CREATE TABLE t(a INT, b TEXT); INSERT INTO t VALUES (1, 'x'), "
                           "(2, 'y'' OR ''1''=''1'), (3, 'z');", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    RxSession *s = rx_open();
    char q[256];
    snprintf(q, sizeof q, "Db := connect('sqlite:%s');\nquery { σ b = $1 ∧ a >= $2 (Db.t) };", path);
    RxStmt *st = prepare(s, q);
    const char *hostile = "y' OR '1'='1";
    const RxResult *r = NULL;
    CHECK(rx_bind_text(st, 1, hostile, strlen(hostile)) == 0 && rx_bind_int(st, 2, 0) == 0);
    CHECK(rx_execute(st, &r) == 0 && r && rx_result_rows(r) == 1 && rx_result_int(r, 0, 0) == 2);
    const char *plan = r ? rx_result_explain(r) : "";
    /* the SQL names ?1 and ?2, and the values follow it ("with ?1 = ...") */
    const char *sql = strstr(plan, "PushedSQL on sqlite:");
    const char *with = sql ? strstr(sql, " with ?1 = ") : NULL;
    CHECK(sql && with && strstr(sql, "?2") != NULL);
    CHECK(sql && with && !memmem(sql, (size_t)(with - sql), "OR '1'", 6));
    CHECK(rx_bind_text(st, 1, "x", 1) == 0);
    CHECK(rx_execute(st, &r) == 0 && r && rx_result_rows(r) == 1 && rx_result_int(r, 0, 0) == 1);
    rx_close(s);
    unlink(path);
}

int main(void) {
    test_thousand();
    test_pushdown();
    test_errors();
    test_values();
    return check_report("prepare");
}
