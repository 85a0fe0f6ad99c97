/*
 * progress.c - a one-line progress display for long steps: loading a CSV file, running a join
 * (base.h, "progress").
 *
 * The embedder (the CLI, when standard error is a terminal) makes a meter with a sink and
 * attaches it to the thread that runs a script; the steps report through hooks that are no-ops
 * when no meter is attached:
 *
 *   progress_begin("B", size, "loading %s", name)   a step starts: what it is, its unit, its size
 *   progress_update(done, err)                      how far it is (cheap: one relaxed store)
 *   progress_end()                                  the step is over; the line is blanked out
 *
 * The meter is found through a thread-local pointer rather than a parameter: the hooks sit
 * deep inside the CSV reader's passes and the join operators, and threading a meter through
 * every stage between them and the session would change a dozen signatures for a display.
 * It is the library's one piece of thread-local state, and it is set only for the duration of
 * one rx_exec call (progress_attach), so a thread that never attaches never sees a meter.
 *
 * Drawing: a thread of the meter's own, started with the first step, wakes every
 * PROGRESS_TICK_S (ten times a second) while a step runs, and draws "\r" + the line + "\033[K"
 * (erase to the end of the line) through the sink once the run (since progress_attach) has
 * been busy for PROGRESS_DELAY_S and the step itself has lasted PROGRESS_STEP_S: a run that
 * ends within a second never shows a line, a step that lasts a second always does, and
 * a file read in two passes of 0.7 s each is not left without one. The thread
 * draws only while a step runs and under the meter's lock, and progress_end blanks the line
 * under the same lock, so nothing the caller prints between steps (results, errors) ever
 * meets a half-drawn line. A kernel that reports no progress (a join's inner loop) still shows
 * its elapsed time, because the thread, not the hook, decides when to draw.
 *
 * Ctrl-C: the meter shares the session's interrupt flag. Once it is set, the line says the
 * step is stopping, and progress_update returns -1 with RX_EINTERRUPT, so that a loop that
 * reports progress (the CSV passes) also stops there instead of finishing the file first. A
 * meter without a sink draws nothing and starts no thread, but still answers that question,
 * which is why every session has one.
 */
#include "base/base.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRESS_DELAY_S 1.0    /* the run has been busy this long before anything is drawn */
#define PROGRESS_STEP_S 0.3     /* and the step this long, so that a quick step never flashes */
#define PROGRESS_TICK_S 0.1
#define PROGRESS_WIDTH 78   /* characters of the line at most, so that it never wraps */

struct Progress {
    ProgressSink sink;
    volatile sig_atomic_t *interrupt;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    bool started, quit;
    /* the running step, under mu */
    bool active;
    char what[160];
    char unit[16];
    uint64_t total;
    double t0;                  /* the step's start */
    double run_t0;              /* the run's start (progress_attach) */
    atomic_uint_fast64_t done;  /* written by progress_update without the lock */
    bool shown;                 /* a line is on the screen */
    unsigned long draws;
};

static _Thread_local Progress *current;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the line ------------------------------------------------------------------------------- */

/* Bytes in decimal units, as disks and downloads count them: 812 B, 45 KB, 4.5 MB, 210 MB. */
static void fmt_bytes(char *buf, size_t cap, uint64_t n) {
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    if (u == 0 || v >= 9.95) snprintf(buf, cap, "%.0f %s", v, units[u]);
    else snprintf(buf, cap, "%.1f %s", v, units[u]);
}

/* A count: 950, 12K, 1.2M, 3.4G. */
static void fmt_count(char *buf, size_t cap, uint64_t n) {
    static const char *const units[] = {"", "K", "M", "G", "T"};
    double v = (double)n;
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    if (u == 0 || v >= 9.95) snprintf(buf, cap, "%.0f%s", v, units[u]);
    else snprintf(buf, cap, "%.1f%s", v, units[u]);
}

size_t progress_format(char *buf, size_t cap, const char *what, const char *unit, uint64_t done,
                       uint64_t total, double elapsed_s, bool stopping) {
    char d[32] = "", t[32] = "", amount[96] = "";
    bool bytes = unit && strcmp(unit, "B") == 0;
    if (total > 0 && done > total) done = total;
    if (unit && unit[0]) {
        if (bytes) fmt_bytes(d, sizeof d, done);
        else fmt_count(d, sizeof d, done);
        if (total > 0) {
            if (bytes) fmt_bytes(t, sizeof t, total);
            else fmt_count(t, sizeof t, total);
            int pct = (int)((double)done * 100.0 / (double)total);
            snprintf(amount, sizeof amount, " %d%% (%s of %s%s%s)", pct, d, t, bytes ? "" : " ",
                     bytes ? "" : unit);
        } else if (done > 0) {
            snprintf(amount, sizeof amount, " %s%s%s", d, bytes ? "" : " ", bytes ? "" : unit);
        }
    }
    char tail[64];
    if (stopping) snprintf(tail, sizeof tail, " %.1f s, stopping (Ctrl-C)", elapsed_s);
    else snprintf(tail, sizeof tail, " %.1f s", elapsed_s);
    /* the step's name gives way first when the line is too long */
    size_t fixed = utf8_width(amount, strlen(amount)) + utf8_width(tail, strlen(tail));
    size_t room = fixed < PROGRESS_WIDTH ? PROGRESS_WIDTH - fixed : 0;
    size_t wn = strlen(what), keep = wn;
    if (utf8_width(what, wn) > room) {
        keep = 0;
        size_t chars = 0;
        while (keep < wn && chars + 2 <= room) {
            int k = utf8_seq_len((const unsigned char *)what + keep, wn - keep);
            keep += k > 0 ? (size_t)k : 1;
            chars++;
        }
    }
    int n = snprintf(buf, cap, "%.*s%s%s%s", (int)keep, what, keep < wn ? "…" : "", amount, tail);
    if (n < 0) n = 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

/* Draws the running step's line; mu is held. */
static void draw(Progress *p) {
    char line[512];
    line[0] = '\r';
    bool stopping = p->interrupt && *p->interrupt;
    size_t n = progress_format(line + 1, sizeof line - 8, p->what, p->unit[0] ? p->unit : NULL,
                               atomic_load_explicit(&p->done, memory_order_relaxed), p->total,
                               now_s() - p->t0, stopping);
    memcpy(line + 1 + n, "\033[K", 3);
    p->sink.write(p->sink.ud, line, n + 4);
    p->shown = true;
    p->draws++;
}

static void blank(Progress *p) {
    if (!p->shown) return;
    p->sink.write(p->sink.ud, "\r\033[K", 4);
    p->shown = false;
}

/* The drawing thread: sleeps while no step runs, wakes every tick while one does. */
static void *ticker(void *arg) {
    Progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->quit) {
        if (!p->active) {
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        long ns = until.tv_nsec + (long)(PROGRESS_TICK_S * 1e9);
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
        double now = now_s();
        if (p->active && !p->quit && now - p->t0 >= PROGRESS_STEP_S && now - p->run_t0 >= PROGRESS_DELAY_S)
            draw(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the meter ------------------------------------------------------------------------------ */

Progress *progress_new(ProgressSink sink, volatile sig_atomic_t *interrupt) {
    Progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->sink = sink;
    p->interrupt = interrupt;
    atomic_init(&p->done, 0);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    /* the ticker's waits are measured on the monotonic clock: setting the date moves nothing */
    pthread_condattr_t ca;
    bool ca_ok = pthread_condattr_init(&ca) == 0;
    if (ca_ok) pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&p->cv, ca_ok ? &ca : NULL);
    if (ca_ok) pthread_condattr_destroy(&ca);
    if (rc != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void progress_free(Progress *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    p->active = false;
    blank(p);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->started) pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

Progress *progress_attach(Progress *p) {
    Progress *prev = current;
    if (prev && prev != p) progress_end();
    current = p;
    if (p && p != prev) {
        pthread_mutex_lock(&p->mu);
        p->run_t0 = now_s();
        pthread_mutex_unlock(&p->mu);
    }
    return prev;
}

unsigned long progress_draws(Progress *p) {
    if (!p) return 0;
    pthread_mutex_lock(&p->mu);
    unsigned long n = p->draws;
    pthread_mutex_unlock(&p->mu);
    return n;
}

/* Starts the drawing thread with every signal blocked, so that Ctrl-C keeps going to the
 * thread that runs the script (and the REPL's line editor). Runs with mu held. */
static void start_ticker(Progress *p) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0;
    if (attr_ok) pthread_attr_setstacksize(&attr, 256 * 1024);
    p->started = pthread_create(&p->thread, attr_ok ? &attr : NULL, ticker, p) == 0;
    if (attr_ok) pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- the hooks ------------------------------------------------------------------------------ */

void progress_begin(const char *unit, uint64_t total, const char *fmt, ...) {
    Progress *p = current;
    if (!p || !p->sink.write) return;
    pthread_mutex_lock(&p->mu);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->what, sizeof p->what, fmt, ap);
    va_end(ap);
    snprintf(p->unit, sizeof p->unit, "%s", unit ? unit : "");
    p->total = total;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    p->t0 = now_s();
    p->active = true;
    if (!p->started) start_ticker(p);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

int progress_update(uint64_t done, RxError *err) {
    Progress *p = current;
    if (!p) return 0;
    atomic_store_explicit(&p->done, done, memory_order_relaxed);
    if (p->interrupt && *p->interrupt) {
        if (err) rx_error(err, RX_EINTERRUPT, NULL, rx_span(0, 0), "interrupted");
        return -1;
    }
    return 0;
}

void progress_end(void) {
    Progress *p = current;
    if (!p || !p->sink.write) return;
    pthread_mutex_lock(&p->mu);
    p->active = false;
    blank(p);
    pthread_mutex_unlock(&p->mu);
}

const char *progress_file_name(const char *path) {
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash && slash[1] ? slash + 1 : path ? path : "";
}
