/*
 * gen.c - deterministic data for bench/algebra/run.sh (issue 5's workloads).
 *
 *   gen DIR [SCALE]     SCALE 1 (default) is the full size
 *
 * hotel_req.csv   request_id, room, from_date, to_date   1M rows, 10,000 rooms
 * hotel_conf.csv  booking_id, room, checkin, checkout     1M rows
 *     stays start anywhere in 2026 and last 1-7 days (ISO-8601 timestamps)
 * fact.csv        id, k, v     10M rows, k uniform in 1..1,000,000
 * dim.csv         k, name      1M rows, every k once, in random order
 * groups.csv      g, x         10M rows, g uniform in 1..1000, x a price
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static void iso(char *buf, int64_t sec) {
    time_t t = (time_t)sec;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static FILE *open_out(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

static void stays(const char *dir, const char *name, const char *header, const char *prefix, long n) {
    FILE *f = open_out(dir, name);
    fprintf(f, "%s\n", header);
    const int64_t y2026 = 1767225600; /* 2026-01-01T00:00:00Z */
    char a[32], b[32];
    for (long i = 0; i < n; i++) {
        long room = (long)(next() % 10000) + 1;
        int64_t start = y2026 + (int64_t)(next() % (365 * 24)) * 3600;
        int64_t end = start + (int64_t)(1 + next() % 7) * 86400;
        iso(a, start);
        iso(b, end);
        fprintf(f, "%s%ld,%ld,%s,%s\n", prefix, i + 1, room, a, b);
    }
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gen DIR [SCALE]\n");
        return 2;
    }
    const char *dir = argv[1];
    double scale = argc > 2 ? atof(argv[2]) : 1.0;
    long m = (long)(1000000 * scale), big = (long)(10000000 * scale);
    stays(dir, "hotel_req.csv", "request_id,room,from_date,to_date", "R", m);
    stays(dir, "hotel_conf.csv", "booking_id,room,checkin,checkout", "B", m);
    FILE *f = open_out(dir, "fact.csv");
    fprintf(f, "id,k,v\n");
    for (long i = 0; i < big; i++) fprintf(f, "%ld,%ld,%ld\n", i + 1, (long)(next() % (uint64_t)m) + 1, (long)(next() % 1000));
    fclose(f);
    long *perm = malloc((size_t)m * sizeof *perm);
    for (long i = 0; i < m; i++) perm[i] = i + 1;
    for (long i = m - 1; i > 0; i--) {
        long j = (long)(next() % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    f = open_out(dir, "dim.csv");
    fprintf(f, "k,name\n");
    for (long i = 0; i < m; i++) fprintf(f, "%ld,n%ld\n", perm[i], perm[i] % 977);
    fclose(f);
    free(perm);
    f = open_out(dir, "groups.csv");
    fprintf(f, "g,x\n");
    for (long i = 0; i < big; i++) fprintf(f, "%ld,%ld.%02ld\n", (long)(next() % 1000) + 1, (long)(next() % 1000), (long)(next() % 100));
    fclose(f);
    return 0;
}
