/*
 * gen.c - the data of issue #29's benchmark (bench/beyond_memory.sh), fast enough for 100M rows.
 *
 *   gen trades    N ORDER SEED FILE   sym,ts,qty,price
 *   gen quotes    N ORDER SEED FILE   sym,ts,bid,ask
 *   gen intervals N SEED FILE         id,s,e
 *
 * Ticks: symbols S0000-S4999 uniformly at random, ISO-8601 timestamps with microseconds over
 * one trading day (2026-03-02 09:30 to 16:00); ORDER "sorted": timestamps non-decreasing down
 * the file (each row at its own step of the day plus a jitter inside the step), "random":
 * every timestamp uniform over the day. Intervals: integer starts uniform over [0, 1e9],
 * lengths 1-300 (e = s + length), in random order. The same arguments give the same bytes
 * (xorshift from SEED). Exit status 1 with a message when the file cannot be written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t below(uint64_t n) { return next() % n; }

static char buf[1 << 20];
static size_t used;
static FILE *out;

static void flush(void) {
    if (used && fwrite(buf, 1, used, out) != used) {
        perror("gen: write");
        exit(1);
    }
    used = 0;
}

static void put(const char *s, size_t n) {
    if (used + n > sizeof buf) flush();
    memcpy(buf + used, s, n);
    used += n;
}

/* v in decimal; width > 0: zero-padded to width digits. */
static void put_u(uint64_t v, int width) {
    char d[24];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < width) d[n++] = '0';
    char r[24];
    for (int i = 0; i < n; i++) r[i] = d[n - 1 - i];
    put(r, (size_t)n);
}

#define DAY_US (6ULL * 3600 * 1000000 + 30ULL * 60 * 1000000) /* 09:30 to 16:00 */
#define OPEN_US (9ULL * 3600 * 1000000 + 30ULL * 60 * 1000000)

/* "2026-03-02T09:30:00.000000" for us microseconds after the open. */
static void put_ts(uint64_t us) {
    uint64_t t = OPEN_US + us;
    put("2026-03-02T", 11);
    put_u(t / 3600000000ULL, 2);
    put(":", 1);
    put_u(t / 60000000ULL % 60, 2);
    put(":", 1);
    put_u(t / 1000000 % 60, 2);
    put(".", 1);
    put_u(t % 1000000, 6);
}

/* cents as "123.45" */
static void put_money(uint64_t cents) {
    put_u(cents / 100, 0);
    put(".", 1);
    put_u(cents % 100, 2);
}

static int usage(void) {
    fputs("usage: gen trades|quotes N sorted|random SEED FILE\n       gen intervals N SEED FILE\n", stderr);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    int ticks = strcmp(argv[1], "trades") == 0 || strcmp(argv[1], "quotes") == 0;
    if (ticks ? argc != 6 : argc != 5 || strcmp(argv[1], "intervals") != 0) return usage();
    uint64_t n = strtoull(argv[2], NULL, 10);
    int sorted = ticks && strcmp(argv[3], "sorted") == 0;
    if (ticks && !sorted && strcmp(argv[3], "random") != 0) return usage();
    rng = strtoull(argv[ticks ? 4 : 3], NULL, 10) * 0x9e3779b97f4a7c15ULL + 1;
    const char *path = argv[ticks ? 5 : 4];
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return 1;
    }
    if (!ticks) {
        put("id,s,e\n", 7);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t s = below(1000000001ULL), len = 1 + below(300);
            put_u(i, 0);
            put(",", 1);
            put_u(s, 0);
            put(",", 1);
            put_u(s + len, 0);
            put("\n", 1);
        }
    } else {
        int trades = argv[1][0] == 't';
        put(trades ? "sym,ts,qty,price\n" : "sym,ts,bid,ask\n", trades ? 17 : 15);
        double step = n ? (double)DAY_US / (double)n : 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t us = sorted ? (uint64_t)((double)i * step) + (step >= 2 ? below((uint64_t)step) : 0)
                                 : below(DAY_US);
            put("S", 1);
            put_u(below(5000), 4);
            put(",", 1);
            put_ts(us);
            put(",", 1);
            uint64_t mid = 1000 + below(99000);   /* 10.00 to 1000.00 */
            if (trades) {
                put_u(1 + below(1000), 0);
                put(",", 1);
                put_money(mid);
            } else {
                put_money(mid - 1);
                put(",", 1);
                put_money(mid + 1);
            }
            put("\n", 1);
        }
    }
    flush();
    if (fclose(out) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}
