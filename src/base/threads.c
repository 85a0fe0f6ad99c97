/*
 * threads.c - the process-wide thread count of base.h (rx_threads): how many threads the
 * operators that can split their work (exec/ijoin.c, exec/asof.c, the gathers of exec/exec.c)
 * may use. One setting for the process, not per session, because it describes the machine
 * and the caller's wishes for it, like an environment variable; it is read with relaxed
 * atomics, so sessions on several threads can consult it while the CLI sets it once at start.
 */
#include "base/base.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int thread_count; /* 0: not settled yet */

int rx_parse_threads(const char *text, int *n) {
    if (!text || *text < '0' || *text > '9') return -1;
    long v = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        v = v * 10 + (*c - '0');
        if (v > RX_MAX_THREADS) return -1;
    }
    if (v < 1) return -1;
    *n = (int)v;
    return 0;
}

static int default_threads(void) {
    int n;
    if (rx_parse_threads(getenv("RELIX_THREADS"), &n) == 0) return n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > RX_MAX_THREADS ? RX_MAX_THREADS : (int)cpus;
}

int rx_threads(void) {
    int n = atomic_load_explicit(&thread_count, memory_order_relaxed);
    if (n == 0) {
        n = default_threads();
        atomic_store_explicit(&thread_count, n, memory_order_relaxed);
    }
    return n;
}

void rx_set_threads(int n) {
    atomic_store_explicit(&thread_count, n < 1 ? default_threads() : n, memory_order_relaxed);
}
