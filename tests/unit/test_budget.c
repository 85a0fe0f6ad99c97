/*
 * test_budget.c - the memory budget through the library (relix.h over util.c's accountant):
 * everything a session charges while it loads a CSV file (a TEXT column of few values gets a
 * dictionary and codes) and runs queries is credited back when it closes, to the byte; the
 * run's peak and every operator's are reported (rx_timing, rx_timing_memory) with their share
 * of the limit; and a query stopped by the limit names the operator that reached it, at its
 * place in the script, with the limit. ops_budget_error rewrites only errors the limit caused,
 * once: an operator's own call with a hint is not overwritten by run()'s call after it.
 */
#include "relix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "check.h"
#include "exec/ops.h"

#define MB ((size_t)1 << 20)

static char dir[64];

static int count_rows(void *ud, const RxResult *r) {
    *(size_t *)ud = rx_result_rows(r);
    return 0;
}

/* t.csv: n rows of a symbol of 50 values, a time and a number. */
static void write_csv(const char *path, int n) {
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs("sym,ts,v\n", f);
    for (int i = 0; i < n; i++) fprintf(f, "S%02d,%d,%d\n", i % 50, i * 3, i % 1000);
    fclose(f);
}

static void test_balance(void) {
    char *anchor = rx_malloc(MB);   /* a count below base shows (the count is clamped at 0) */
    size_t base = rx_memory_used();
    RxSession *s = rx_open();
    CHECK(s != NULL);
    char script[512];
    snprintf(script, sizeof script,
             "T := csv('%s/t.csv'); query { γ sym; count(*) → n (σ v > 10 (T)) };\n"
             "query { T ASOF T.sym = U.sym ∧ T.ts > U.ts (T U) };", dir);
    size_t rows = 0;
    int rc = rx_exec(s, script, strlen(script), "b.rx", count_rows, &rows);
    CHECK(rc == 0);
    if (rc) fputs(rx_errmsg(s), stderr);
    CHECK(rows == 20000);
    RxTiming t = rx_timing(s);
    CHECK(t.peak_bytes > 20000 * 8);       /* the loaded columns at least */
    CHECK(t.limit_bytes == 0);
    const char *ops = rx_timing_memory(s);
    CHECK(strstr(ops, "  b.rx:1  Aggregate") != NULL);
    CHECK(strstr(ops, "  b.rx:2  AsOfJoin") != NULL);
    CHECK(strstr(ops, "% of") == NULL);    /* no limit, no share */
    rx_close(s);
    CHECK(rx_memory_used() == base);
    rx_free(anchor);
}

static void test_limit(void) {
    RxSession *s = rx_open();
    CHECK(s != NULL);
    char script[512];
    /* the columns load (well under 8 MiB); the cross product's 400M pairs cannot */
    snprintf(script, sizeof script, "T := csv('%s/t.csv');\nquery { γ count(*) → n (π ts (T) × π v (T)) };", dir);
    rx_set_memory_limit(rx_memory_used() + 8 * MB);
    size_t rows = 0;
    int rc = rx_exec(s, script, strlen(script), "lim.rx", count_rows, &rows);
    CHECK(rc != 0);
    CHECK(rx_errcode(s) == RX_ERR_NOMEM);
    const char *msg = rx_errmsg(s);
    CHECK(strncmp(msg, "lim.rx:2:", 9) == 0);
    CHECK(strstr(msg, "error: memory limit of ") != NULL);
    CHECK(strstr(msg, " reached in NestedLoopJoin cross: it held ") != NULL);
    if (!strstr(msg, "NestedLoopJoin")) fputs(msg, stderr);
    RxTiming t = rx_timing(s);
    CHECK(t.limit_bytes > 0);
    CHECK(strstr(rx_timing_memory(s), "% of ") != NULL);   /* the operators that ran: shares */
    rx_set_memory_limit(0);
    rx_close(s);
}

static void test_helper(void) {
    static const char text[] = "query { σ x > 1 (T) };";
    RxSource src = {.name = "h.rx", .text = text, .len = sizeof text - 1, .first_line = 1};
    LPlan lp = {0};
    lp.src = &src;
    lp.span = rx_span(8, 20);
    PNode p = {.kind = PN_SELECT, .lp = &lp};
    RxError err;

    /* no limit reached: the error stays */
    rx_memory_limit_hit(true);
    rx_error_clear(&err);
    ops_oom(&err);
    ops_budget_error(&p, 1000, NULL, &err);
    CHECK_STR(err.msg, "out of memory");

    rx_set_memory_limit(rx_memory_used() + MB);
    CHECK(rx_malloc(4 * MB) == NULL);
    /* another error than out of memory stays */
    rx_error_clear(&err);
    rx_error(&err, RX_EVALUE, NULL, rx_span(0, 0), "bad value");
    ops_budget_error(&p, 1000, NULL, &err);
    CHECK_STR(err.msg, "bad value");
    /* the operator's own call, with a hint, then run()'s */
    rx_error_clear(&err);
    ops_oom(&err);
    ops_budget_error(&p, 1500000, "declare the order", &err);
    CHECK(strncmp(err.msg, "memory limit of ", 16) == 0);
    CHECK(strstr(err.msg, " reached in Select: it held 1.5 MB of its own and asked for 4.2 MB more (the run held ") != NULL);
    CHECK(strstr(err.msg, " at most); declare the order") != NULL);
    CHECK(err.src == &src && err.span.start == 8 && err.span.end == 20 && err.code == RX_ENOMEM);
    ops_budget_error(&p, 1000, NULL, &err);
    CHECK(strstr(err.msg, "; declare the order") != NULL);
    rx_set_memory_limit(0);
    rx_memory_limit_hit(true);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/relix-budget-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    char path[128];
    snprintf(path, sizeof path, "%s/t.csv", dir);
    write_csv(path, 20000);
    test_balance();
    test_limit();
    test_helper();
    unlink(path);
    rmdir(dir);
    return check_report("budget");
}
