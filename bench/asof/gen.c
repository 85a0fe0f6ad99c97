/*
 * gen.c - deterministic trades x quotes workloads for the AS-OF join benchmark (run.sh).
 *
 *   gen DIR N        writes DIR/{trades,quotes}_N_{rand,sorted}.{bin,csv}
 *
 * 1000 symbols, uniform; timestamps are epoch microseconds over one 8-hour session starting
 * 2026-01-02T09:00:00Z. Quote timestamps are even and unique per symbol, trade timestamps odd, so
 * no engine's tie rule can change an answer and every peer must agree exactly. Each row carries
 * an id fixed before shuffling (its rank in (sym, ts) order), so checksums compare across
 * orders. "sorted" files are ordered by (sym, ts); "rand" files hold the same rows shuffled.
 *
 * .bin: uint64 n, then uint32 sym[n], int64 ts[n], uint32 id[n], double val[n] (quote price,
 * trade quantity). .csv: header sym,ts,id,val with sym as text S0000..S0999.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_SYMS 1000
#define T0_US INT64_C(1767344400000000) /* 2026-01-02T09:00:00Z */
#define SPAN_US (INT64_C(8) * 3600 * 1000000)

typedef struct {
    uint32_t sym, id;
    int64_t ts;
    double val;
} Row;

static uint64_t rng;
static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_sym_ts(const void *a, const void *b) {
    const Row *x = a, *y = b;
    if (x->sym != y->sym) return x->sym < y->sym ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void write_bin(const char *path, const Row *r, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    uint64_t n64 = n;
    fwrite(&n64, sizeof n64, 1, f);
    size_t chunk = 1 << 16;
    void *buf = malloc(chunk * 8);
    for (int col = 0; col < 4; col++)
        for (size_t i = 0; i < n; i += chunk) {
            size_t k = n - i < chunk ? n - i : chunk, w = col == 0 || col == 2 ? 4 : 8;
            for (size_t j = 0; j < k; j++) {
                const Row *x = &r[i + j];
                char *d = (char *)buf + j * w;
                if (col == 0) memcpy(d, &x->sym, 4);
                else if (col == 1) memcpy(d, &x->ts, 8);
                else if (col == 2) memcpy(d, &x->id, 4);
                else memcpy(d, &x->val, 8);
            }
            fwrite(buf, w, k, f);
        }
    free(buf);
    if (fclose(f)) { perror(path); exit(1); }
}

static void write_csv(const char *path, const Row *r, size_t n, int is_quote) {
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fputs("sym,ts,id,val\n", f);
    for (size_t i = 0; i < n; i++) {
        if (is_quote) fprintf(f, "S%04u,%" PRId64 ",%u,%.2f\n", r[i].sym, r[i].ts, r[i].id, r[i].val);
        else fprintf(f, "S%04u,%" PRId64 ",%u,%.0f\n", r[i].sym, r[i].ts, r[i].id, r[i].val);
    }
    if (fclose(f)) { perror(path); exit(1); }
}

static void make(const char *dir, const char *name, size_t n, int is_quote, uint64_t seed) {
    Row *r = malloc(n * sizeof *r);
    if (!r) { perror("malloc"); exit(1); }
    rng = seed;
    for (size_t i = 0; i < n; i++) {
        r[i].sym = (uint32_t)(rnd() % N_SYMS);
        int64_t t = (int64_t)(rnd() % (uint64_t)(SPAN_US / 2)) * 2;
        r[i].ts = T0_US + t + (is_quote ? 0 : 1);
        r[i].val = is_quote ? 100.0 + (double)(rnd() % 10000) / 100.0 : (double)(1 + rnd() % 500);
    }
    qsort(r, n, sizeof *r, cmp_sym_ts);
    for (size_t i = 0; i < n; i++) {
        /* unique per symbol: bump a repeated timestamp by 2 (keeps quotes even, trades odd) */
        if (i && r[i].sym == r[i - 1].sym && r[i].ts <= r[i - 1].ts) r[i].ts = r[i - 1].ts + 2;
        r[i].id = (uint32_t)i;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_%zu_sorted.bin", dir, name, n);
    write_bin(path, r, n);
    snprintf(path, sizeof path, "%s/%s_%zu_sorted.csv", dir, name, n);
    write_csv(path, r, n, is_quote);
    for (size_t i = n; i > 1; i--) {
        size_t j = rnd() % i;
        Row t = r[i - 1];
        r[i - 1] = r[j];
        r[j] = t;
    }
    snprintf(path, sizeof path, "%s/%s_%zu_rand.bin", dir, name, n);
    write_bin(path, r, n);
    snprintf(path, sizeof path, "%s/%s_%zu_rand.csv", dir, name, n);
    write_csv(path, r, n, is_quote);
    free(r);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: gen DIR N\n");
        return 2;
    }
    size_t n = strtoull(argv[2], NULL, 10);
    make(argv[1], "trades", n, 0, 0x7261646573ULL + n);
    make(argv[1], "quotes", n, 1, 0x71756f746573ULL + n);
    return 0;
}
