/*
 * kernel_bench.c - times the interval-join kernel (src/exec/ijoin.c) on gen.c's workloads.
 *
 *   kernel_bench DIR NAME...      (NAME is a workload; its relation is NAME without "_4m")
 *   kernel_bench --sum < PAIRS    (count and checksum of "left right" lines from a peer)
 *
 * Prints one line per workload: name, pairs, checksum, median of 5 ij_join runs (seconds,
 * including producing the ordered pair arrays), the "floor": an LSD radix sort of both start
 * columns as (key, row) pairs plus writing the result's pairs into fresh arrays, the least any
 * sort-based join must do, and the peak memory of the first run against its bound (MB): the
 * process's peak resident set over the run (the loaded key columns plus everything the join
 * holds at its peak, its result included) and 2 x (key columns + result pairs at 8 bytes).
 * checksum = sum over pairs of left * 1000003 + right, mod 2^64. Workloads run in the order
 * given, each in a fresh process when the peak matters (run.sh starts one per workload).
 * With KERNEL_BENCH_ONCE=1 in the environment the join runs once and the floor not at all
 * (instructions.sh counts that one run's instructions under callgrind).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec/ijoin.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../rss.h"

/* The floor allocates as the kernel does (huge-page mappings, rx_map_alloc), so
 * that the two pay the same for fresh memory. */
static void *big(size_t bytes) { return rx_map_alloc(bytes); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}


static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The floor's sort: (key - min) << rowbits | row packed in a word, 11-bit LSD digits. */
static uint64_t floor_sort(const int64_t *key, size_t n) {
    uint64_t *a = big(n * 8), *b = big(n * 8);
    int64_t mn = key[0], mx = key[0];
    for (size_t i = 0; i < n; i++) {
        if (key[i] < mn) mn = key[i];
        if (key[i] > mx) mx = key[i];
    }
    int jb = 0;
    while (((size_t)1 << jb) < n) jb++;
    int kb = 0;
    while (kb < 64 && ((uint64_t)(mx - mn) >> kb)) kb++;
    for (size_t i = 0; i < n; i++) a[i] = ((uint64_t)(key[i] - mn) << jb) | i;
    for (int sh = jb; sh < jb + kb; sh += 11) {
        size_t h[2048] = {0};
        for (size_t i = 0; i < n; i++) h[(a[i] >> sh) & 2047]++;
        size_t sum = 0;
        for (int d = 0; d < 2048; d++) {
            size_t c = h[d];
            h[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) b[h[(a[i] >> sh) & 2047]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    uint64_t x = a[n / 2];
    rx_map_free(a);
    rx_map_free(b);
    return x;
}

static double floor_time(const int64_t *ls, size_t n, const int64_t *rs, size_t m, size_t k) {
    double t0 = now();
    uint64_t x = floor_sort(ls, n) ^ floor_sort(rs, m);
    uint32_t *pl = big((k ? k : 1) * 4), *pr = big((k ? k : 1) * 4);
    for (size_t i = 0; i < k; i++) {
        pl[i] = (uint32_t)(i / 3);
        pr[i] = (uint32_t)(i ^ x);
    }
    double t = now() - t0;
    volatile uint32_t sink = pl[k / 2] + pr[k / 2];
    (void)sink;
    rx_map_free(pl);
    rx_map_free(pr);
    return t;
}

/* --sum: reads "left right" row-id pairs from stdin (a peer's output), prints count and
 * checksum the way the kernel's pairs are summed. */
static int sum_pairs(void) {
    unsigned long long a, b, n = 0;
    uint64_t sum = 0;
    while (scanf("%llu %llu", &a, &b) == 2) {
        sum += (uint64_t)a * 1000003u + (uint64_t)b;
        n++;
    }
    printf("%llu %llu\n", n, (unsigned long long)sum);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--sum")) return sum_pairs();
    if (argc < 3) {
        fprintf(stderr, "usage: kernel_bench DIR NAME...\n");
        return 2;
    }
    for (int a = 2; a < argc; a++) {
        const char *name = argv[a];
        char rel_name[64];
        size_t len = strcspn(name, "");
        const char *suffix = strstr(name, "_4m");
        if (suffix) len = (size_t)(suffix - name);
        if (len >= sizeof rel_name) return 2;
        for (size_t i = 0; i < len; i++) rel_name[i] = (char)toupper((unsigned char)name[i]);
        rel_name[len] = 0;
        IjRelation rel;
        if (ij_relation_from_name(rel_name, len, &rel) != 0) {
            fprintf(stderr, "kernel_bench: no relation for %s\n", name);
            return 2;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", argv[1], name);
        FILE *f = fopen(path, "rb");
        uint64_t hdr[2];
        if (!f || fread(hdr, 8, 2, f) != 2) {
            fprintf(stderr, "kernel_bench: cannot read %s\n", path);
            return 1;
        }
        size_t n = hdr[0], m = hdr[1];
        /* The key columns in huge pages, as the engine's CSV columns are (csv.c advises them):
         * the kernel reads them at random, and with 4 KiB pages the 4M inputs (128 MB) missed
         * the TLB on every read. */
        int64_t *ls = big(n * 8), *le = big(n * 8), *rs = big(m * 8), *re = big(m * 8);
        if (fread(ls, 8, n, f) != n || fread(le, 8, n, f) != n || fread(rs, 8, m, f) != m ||
            fread(re, 8, m, f) != m) {
            fprintf(stderr, "kernel_bench: short file %s\n", path);
            return 1;
        }
        fclose(f);
        IjSide L = {ls, le, n, NULL, NULL}, R = {rs, re, m, NULL, NULL};
        IjOptions opt = {IJ_ALGO_AUTO, 0};
        double times[5];
        size_t k = 0, peak = 0;
        /* The inputs are resident (read into fresh arrays); what the first run adds on top of
         * them is the join's own peak. */
        size_t before = rss_now();
        uint64_t sum = 0;
        const char *once_env = getenv("KERNEL_BENCH_ONCE");
        int runs = once_env && *once_env == '1' ? 1 : 5;
        for (int run = 0; run < runs; run++) {
            IjPairs p = {0};
            RxError err = {0};
            double t0 = now();
            if (ij_join(rel, &L, &R, &opt, &p, &err) != 0) {
                fprintf(stderr, "kernel_bench: %s: %s\n", name, err.msg);
                return 1;
            }
            times[run] = now() - t0;
            if (run == 0) {
                size_t hi = rss_peak();
                peak = hi > before ? hi - before : 0;
                k = p.n;
                for (size_t i = 0; i < p.n; i++) sum += (uint64_t)p.left[i] * 1000003u + p.right[i];
            }
            ij_pairs_free(&p);
        }
        qsort(times, (size_t)runs, sizeof times[0], cmp_double);
        double fl[3] = {0, 0, 0};
        for (int run = 0; runs > 1 && run < 3; run++) fl[run] = floor_time(ls, n, rs, m, k);
        qsort(fl, 3, sizeof fl[0], cmp_double);
        double in_mb = (double)(n + m) * 16 / 1e6, out_mb = (double)k * 8 / 1e6;
        printf("%s %s %zu %llu %.4f %.4f %.1f %.1f\n", name, ij_strategy(rel, &opt), k,
               (unsigned long long)sum, times[runs / 2], fl[1], in_mb + (double)peak / 1e6,
               2 * (in_mb + out_mb));
        fflush(stdout);
        rx_map_free(ls);
        rx_map_free(le);
        rx_map_free(rs);
        rx_map_free(re);
    }
    return 0;
}
