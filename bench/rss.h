/*
 * rss.h - the resident set of the running benchmark process, for the kernels' peak-memory
 * figures (bench/ijoin/kernel_bench.c, bench/asof/kernel_bench.c).
 */
#ifndef BENCH_RSS_H
#define BENCH_RSS_H

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* Resident set now, in bytes. */
static size_t rss_now(void) {
    long pages = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
        fclose(f);
    }
    return (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
}

/* The process's peak resident set so far, in bytes. */
static size_t rss_peak(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (size_t)u.ru_maxrss * 1024;
}

#endif
