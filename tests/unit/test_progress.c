/*
 * test_progress.c - the progress line (src/base/progress.c): its text, that a run shorter than
 * the delay draws nothing, that a longer step draws at most ten times a second and is blanked
 * out at its end, that the delay counts from the run's start, the interrupt (with and without
 * a sink), and that the hooks do nothing without a meter.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "check.h"

static void sleep_s(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

typedef struct {
    char buf[1 << 16];
    size_t n;
    int writes;
} Capture;

static int capture(void *ud, const char *p, size_t n) {
    Capture *c = ud;
    if (c->n + n < sizeof c->buf) {
        memcpy(c->buf + c->n, p, n);
        c->n += n;
    }
    c->writes++;
    return 0;
}

static void test_format(void) {
    char b[256];
    progress_format(b, sizeof b, "loading trades.csv", "B", 210000000, 444000000, 3.24, false);
    CHECK_STR(b, "loading trades.csv 47% (210 MB of 444 MB) 3.2 s");
    progress_format(b, sizeof b, "loading t.csv", "B", 4500000, 9999, 1.0, false);
    CHECK_STR(b, "loading t.csv 100% (10 KB of 10 KB) 1.0 s");  /* done is capped at total */
    progress_format(b, sizeof b, "reading x.csv", "B", 812, 4500000, 1.05, false);
    CHECK_STR(b, "reading x.csv 0% (812 B of 4.5 MB) 1.1 s");
    progress_format(b, sizeof b, "IJOIN INTERSECTS", "pairs", 1234567, 0, 2.0, false);
    CHECK_STR(b, "IJOIN INTERSECTS 1.2M pairs 2.0 s");
    progress_format(b, sizeof b, "IJOIN INTERSECTS", "pairs", 0, 0, 2.0, false);
    CHECK_STR(b, "IJOIN INTERSECTS 2.0 s");
    progress_format(b, sizeof b, "ASOF", "rows", 12000, 48000, 1.5, true);
    CHECK_STR(b, "ASOF 25% (12K of 48K rows) 1.5 s, stopping (Ctrl-C)");
    progress_format(b, sizeof b, "ASOF", NULL, 5, 0, 1.5, false);
    CHECK_STR(b, "ASOF 1.5 s");
    /* a long name is cut, the amount and time stay */
    char name[200];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = 0;
    size_t n = progress_format(b, sizeof b, name, "B", 1000, 2000, 1.0, false);
    CHECK(utf8_width(b, n) <= 78);
    CHECK(strstr(b, "… 50% (1.0 KB of 2.0 KB) 1.0 s") != NULL);
    CHECK_STR(progress_file_name("data/2026/trades.csv"), "trades.csv");
    CHECK_STR(progress_file_name("trades.csv"), "trades.csv");
}

static void test_no_meter(void) {
    RxError err;
    rx_error_clear(&err);
    progress_begin("B", 100, "loading %s", "x");
    CHECK(progress_update(50, &err) == 0);
    progress_end();
    CHECK(err.code == RX_OK);
}

static void test_short_step(void) {
    Capture c = {0};
    Progress *p = progress_new((ProgressSink){capture, &c}, NULL);
    CHECK(p != NULL);
    Progress *prev = progress_attach(p);
    CHECK(prev == NULL);
    progress_begin("B", 1000, "loading %s", progress_file_name("a/b.csv"));
    for (int i = 0; i < 3; i++) {
        sleep_s(0.1);
        CHECK(progress_update((uint64_t)i * 100, NULL) == 0);
    }
    progress_end();
    CHECK(progress_draws(p) == 0);
    CHECK(c.writes == 0);
    progress_attach(prev);
    progress_free(p);
}

static void test_long_step(void) {
    Capture c = {0};
    Progress *p = progress_new((ProgressSink){capture, &c}, NULL);
    progress_attach(p);
    progress_begin("B", 1000, "loading %s", progress_file_name("a/b.csv"));
    for (int i = 0; i < 15; i++) {
        sleep_s(0.1);
        progress_update((uint64_t)i * 50, NULL);
    }
    progress_end();
    unsigned long draws = progress_draws(p);
    /* 1.5 s: nothing in the first second, then a draw per tick (about five) */
    CHECK(draws >= 2 && draws <= 6);
    CHECK(c.n > 0 && c.buf[0] == '\r');
    CHECK(strstr(c.buf, "loading b.csv ") != NULL);
    CHECK(strstr(c.buf, "% (") != NULL);
    CHECK(c.n >= 4 && memcmp(c.buf + c.n - 4, "\r\033[K", 4) == 0);  /* blanked at the end */
    CHECK(c.writes == (int)draws + 1);
    /* a second step after a quiet gap: the thread goes on serving the meter */
    size_t before = c.n;
    progress_begin("pairs", 0, "IJOIN %s", "MEETS");
    sleep_s(1.25);
    progress_update(1500000, NULL);
    sleep_s(0.25);
    progress_end();
    CHECK(progress_draws(p) > draws);
    c.buf[c.n] = 0;
    CHECK(strstr(c.buf + before, "IJOIN MEETS 1.5M pairs") != NULL);
    progress_attach(NULL);
    progress_free(p);
}

/* The delay counts from the run's start: a step late in a busy run shows after 0.3 s, a
 * shorter one never does. */
static void test_late_step(void) {
    Capture c = {0};
    Progress *p = progress_new((ProgressSink){capture, &c}, NULL);
    progress_attach(p);
    sleep_s(1.0);
    progress_begin("B", 100, "quick");
    sleep_s(0.15);
    progress_end();
    CHECK(progress_draws(p) == 0);
    progress_begin("B", 100, "slower");
    sleep_s(0.6);
    progress_end();
    CHECK(progress_draws(p) >= 1 && progress_draws(p) <= 4);
    c.buf[c.n] = 0;
    CHECK(strstr(c.buf, "slower 0% (0 B of 100 B)") != NULL);
    CHECK(strstr(c.buf, "quick") == NULL);
    progress_attach(NULL);
    progress_free(p);
}

static void test_interrupt(void) {
    Capture c = {0};
    volatile sig_atomic_t flag = 0;
    Progress *p = progress_new((ProgressSink){capture, &c}, &flag);
    progress_attach(p);
    progress_begin("B", 100, "loading x");
    RxError err;
    rx_error_clear(&err);
    CHECK(progress_update(10, &err) == 0);
    flag = 1;
    CHECK(progress_update(20, &err) == -1);
    CHECK(err.code == RX_EINTERRUPT);
    CHECK_STR(err.msg, "interrupted");
    progress_attach(NULL);  /* ends the step */
    progress_free(p);
    /* a meter without a sink draws nothing but still stops a step on Ctrl-C */
    flag = 0;
    p = progress_new((ProgressSink){NULL, NULL}, &flag);
    CHECK(p != NULL);
    progress_attach(p);
    progress_begin("B", 100, "loading x");
    CHECK(progress_update(10, NULL) == 0);
    flag = 1;
    rx_error_clear(&err);
    CHECK(progress_update(20, &err) == -1 && err.code == RX_EINTERRUPT);
    progress_end();
    CHECK(progress_draws(p) == 0);
    progress_attach(NULL);
    progress_free(p);
}

int main(void) {
    test_format();
    test_no_meter();
    test_short_step();
    test_long_step();
    test_late_step();
    test_interrupt();
    return check_report("test_progress");
}
