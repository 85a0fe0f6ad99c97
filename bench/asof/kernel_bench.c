/*
 * kernel_bench.c - times the AS-OF kernel (src/exec/asof.c) on gen.c's workloads.
 *
 *   kernel_bench DIR N VARIANT [WITHIN_US]     VARIANT: rand | sorted
 *
 * Loads DIR/{trades,quotes}_N_VARIANT.bin and times asof_join, median of 5, for: backward with
 * the symbol as partition (outer), the inner join (the same kernel plus compaction of the
 * matched rows), and backward WITHIN WITHIN_US (default 1 s). The kernel's input is what the
 * executor hands it: int64 timestamps and dense symbol ids. Prints one line a workload:
 *   mode seconds matched sum_qid checksum sorted(left,right) algo peak_mb bound_mb
 * with sum_qid the sum of the matched quotes' ids (the figure the peers print), checksum the
 * sum over matched left rows i of (match[i] + 1) * (i + 1) mod 2^64, and the first run's peak
 * memory against its bound: the kernel's inputs (partition ids and match values, 12 bytes a row)
 * and output (4 bytes a probe) plus the most the process held on top of them during the run,
 * against 2 x (inputs + output).
 */
#include "exec/asof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../rss.h"

typedef struct {
    size_t n;
    uint32_t *sym, *id;
    int64_t *ts;
} Table;

static void load(Table *t, const char *path) {
    FILE *f = fopen(path, "rb");
    uint64_t n;
    if (!f || fread(&n, sizeof n, 1, f) != 1) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    t->n = n;
    t->sym = malloc(n * 4);
    t->ts = malloc(n * 8);
    t->id = malloc(n * 4);
    if (fread(t->sym, 4, n, f) != n || fread(t->ts, 8, n, f) != n || fread(t->id, 4, n, f) != n) {
        fprintf(stderr, "short %s\n", path);
        exit(1);
    }
    fclose(f);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: kernel_bench DIR N rand|sorted [WITHIN_US]\n");
        return 2;
    }
    char path[4096];
    Table t, q;
    snprintf(path, sizeof path, "%s/trades_%s_%s.bin", argv[1], argv[2], argv[3]);
    load(&t, path);
    snprintf(path, sizeof path, "%s/quotes_%s_%s.bin", argv[1], argv[2], argv[3]);
    load(&q, path);
    int64_t within = argc > 4 ? strtoll(argv[4], NULL, 10) : 1000000;
    uint32_t n_parts = 0;
    for (size_t i = 0; i < t.n; i++) n_parts = t.sym[i] >= n_parts ? t.sym[i] + 1 : n_parts;
    for (size_t i = 0; i < q.n; i++) n_parts = q.sym[i] >= n_parts ? q.sym[i] + 1 : n_parts;
    AsofSide l = {t.ts, t.n, NULL, t.sym}, r = {q.ts, q.n, NULL, q.sym};
    uint32_t *match = malloc(t.n * sizeof *match), *inner = malloc(t.n * sizeof *inner);
    static const char *modes[] = {"outer", "inner", "within"};
    memset(match, 0, t.n * sizeof *match);
    memset(inner, 0, t.n * sizeof *inner);
    size_t before = rss_now(), extra = 0;
    for (int mode = 0; mode < 3; mode++) {
        AsofOptions opt = {ASOF_BACKWARD, false, mode == 2, within, n_parts, ASOF_ALGO_AUTO};
        double times[5];
        AsofStats st;
        size_t n_inner = 0;
        for (int rep = 0; rep < 5; rep++) {
            RxError err;
            rx_error_clear(&err);
            memset(match, 0, t.n * sizeof *match); /* fault the pages in outside the timing */
            double t0 = now();
            if (asof_join(&l, &r, &opt, match, &st, &err)) {
                fprintf(stderr, "asof_join: %s\n", err.msg);
                return 1;
            }
            if (mode == 0 && rep == 0) {
                size_t p = rss_peak();
                extra = p > before ? p - before : 0;
            }
            if (mode == 1) { /* inner: the left rows that matched, in order */
                n_inner = 0;
                for (size_t i = 0; i < t.n; i++) {
                    inner[n_inner] = (uint32_t)i;
                    n_inner += match[i] != UINT32_MAX;
                }
            }
            times[rep] = now() - t0;
        }
        qsort(times, 5, sizeof *times, cmp_d);
        uint64_t matched = 0, sum_qid = 0, ck = 0;
        for (size_t i = 0; i < t.n; i++)
            if (match[i] != UINT32_MAX) {
                matched++;
                sum_qid += q.id[match[i]];
                ck += ((uint64_t)match[i] + 1) * ((uint64_t)i + 1);
            }
        if (mode == 1 && n_inner != matched) {
            fprintf(stderr, "inner count mismatch\n");
            return 1;
        }
        double io_mb = (double)(t.n + q.n) * 12 / 1e6 + (double)t.n * 4 / 1e6;
        printf("%s %.4f %llu %llu %llu %d,%d %s %.1f %.1f\n", modes[mode], times[2],
               (unsigned long long)matched, (unsigned long long)sum_qid, (unsigned long long)ck,
               st.left_sorted, st.right_sorted, asof_algo_name(st.algo),
               io_mb + (double)extra / 1e6, 2 * io_mb);
    }
    return 0;
}
