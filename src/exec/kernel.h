/*
 * kernel.h - what the join kernels (ijoin*.c, asof.c) share besides sorting: their allocators,
 * the two-task runner and the row counts from which a second thread pays.
 *
 * The kernels run on a machine with two cores: independent halves of a phase run side by side.
 * That is an optimisation only: each task writes its own arrays, so no result depends on whether
 * the second thread started. Relies on base.h (rx_map_*, rx_threads) and pthreads.
 */
#ifndef RX_KERNEL_H
#define RX_KERNEL_H

#include "base/base.h"

/* A phase splits into two tasks on two threads when each half has at least this many rows:
 * below it the thread costs more than it saves. */
#define PARALLEL_ROWS 65536
/* A whole join is worth two threads from this many rows of both inputs together. */
#define PARALLEL_JOIN_ROWS 100000

/* n elements of size bytes (n = 0 allocates one), NULL on overflow or when out of memory;
 * freed with xfree. Large buffers are their own huge-page mappings (rx_map_alloc: an
 * optimisation: the first touches of fresh memory dominate a large join, and cost less in huge
 * pages). */
static inline void *xmalloc(size_t n, size_t size) {
    if (n == 0) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    return rx_map_alloc(n * size);
}

/* As xmalloc, zeroed; freed with xfree. */
static inline void *xcalloc(size_t n, size_t size) { return rx_map_calloc(n, size); }
/* Grows or shrinks an xmalloc'd buffer to bytes; NULL (p untouched) when out of memory. */
static inline void *xrealloc(void *p, size_t bytes) { return rx_map_realloc(p, bytes); }
/* Frees what xmalloc, xcalloc or xrealloc returned; NULL is a no-op. */
static inline void xfree(void *p) { rx_map_free(p); }

/* As xmalloc, for a buffer the kernel writes whole before it reads it (a scatter's keys): it
 * may be a buffer freed earlier and kept (rx_malloc's reserve, base.h), whose pages are
 * resident already; a kept one would only inflate the resident set of a buffer that is touched
 * in part. Freed with xfree_whole, which keeps it in turn. */
static inline void *xmalloc_whole(size_t n, size_t size) {
    if (n == 0) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    return rx_malloc(n * size);
}
static inline void xfree_whole(void *p) { rx_free(p); }

/* One task of a phase: fn(arg), its result in rc (0 or -1). */
typedef struct {
    int (*fn)(void *);
    void *arg;
    int rc;
} Task;

/* Runs a and b, side by side when threaded and a thread can start (else one after the other).
 * Returns -1 if either task returned non-zero, else 0. */
int run_two(Task *a, Task *b, bool threaded);

#endif
