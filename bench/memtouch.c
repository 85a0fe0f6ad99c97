/*
 * memtouch.c - what first touches of memory cost this machine, for reading the benchmarks'
 * growth figures: maps MB megabytes (default 256) in 2 MiB huge pages, as the kernels'
 * buffers are, writes one byte per 4 KiB page and reports the milliseconds per MB; then unmaps,
 * maps again and repeats, three times. The first figure is memory the process has not held;
 * the later ones mostly reuse the pages it just gave back. Run by hand or from
 * bench/ijoin/run.sh; not a test.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE ((size_t)2 << 20)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    if (mb < 2 || mb > (1u << 20)) {
        fprintf(stderr, "usage: memtouch [MB, 2 .. 1048576]\n");
        return 2;
    }
    size_t len = (mb << 20) & ~(HUGE - 1);
    printf("memtouch: %zu MB in huge pages, ms per MB:", mb);
    for (int round = 0; round < 4; round++) {
        char *m = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                       0);
        if (m == MAP_FAILED) {
            perror("memtouch: mmap");
            return 1;
        }
        char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
#ifdef MADV_HUGEPAGE
        madvise(a, len, MADV_HUGEPAGE);
#endif
        double t = now();
        for (size_t i = 0; i < len; i += 4096) a[i] = 1;
        t = now() - t;
        printf(" %s%.3f", round == 0 ? "fresh " : round == 1 ? "then " : "", t * 1e3 / (double)mb);
        munmap(m, len + HUGE);
    }
    printf("\n");
    return 0;
}
