/*
 * kernel.c - the join kernels' two-task runner (kernel.h). Relies on pthreads and rx_threads.
 */
#include "exec/kernel.h"

#include <pthread.h>

static void *task_main(void *p) {
    Task *t = p;
    t->rc = t->fn(t->arg);
    return NULL;
}

int run_two(Task *a, Task *b, bool threaded) {
    pthread_t th;
    threaded = threaded && rx_threads() > 1 && pthread_create(&th, NULL, task_main, b) == 0;
    a->rc = a->fn(a->arg);
    if (threaded) pthread_join(th, NULL);
    else b->rc = b->fn(b->arg);
    return a->rc || b->rc ? -1 : 0;
}
