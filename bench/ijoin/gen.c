/*
 * gen.c - deterministic interval workloads for the interval-join benchmarks.
 *
 *   gen DIR [--csv] [--bed] [NAME...]
 *
 * Writes DIR/NAME.bin for each workload (all of them by default): u64 n, u64 m, then int64
 * ls[n], le[n], rs[m], re[m]. With --csv also DIR/NAME_l.csv and DIR/NAME_r.csv (id,s,e; ids
 * are 0-based row numbers) for DuckDB and PostgreSQL; with --bed, for the INTERSECTS workloads,
 * DIR/NAME_l.bed, DIR/NAME_r.bed (chr1, start, end, id; unsorted, input order) and
 * DIR/NAME_l.sorted.bed / _r.sorted.bed (sorted by start) for bedtools.
 *
 * Each workload draws starts uniformly from [lo, lo + span) and lengths uniformly from
 * [len_min, len_max] per side, with a fixed seed; spans are chosen so that every result is a
 * few million pairs (see the table below and docs/ijoin.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t n, m;
    int64_t l_lo, l_span, l_len_min, l_len_max;
    int64_t r_lo, r_span, r_len_min, r_len_max;
    const char *note;
} Workload;

#define M1 1000000
#define M4 4000000

/* Densities: a pair of uniform intervals of lengths a and b over a span D intersects with
 * probability (a + b) / D; shared-endpoint relations draw keys from a small integer grid so that
 * endpoints collide (P(equal) = 1 / grid). */
static const Workload workloads[] = {
    {"intersects", M1, M1, 0, 33333333, 1, 100, 0, 33333333, 1, 100, "uniform, span 33.3M, len 1..100"},
    {"intersects_4m", M4, M4, 0, 133333333, 1, 100, 0, 133333333, 1, 100, "same density, 4x span"},
    /* PRECEDES on uniform data has ~n*m/2 pairs: the right side lies mostly before the left. */
    {"precedes", M1, M1, 0, 1000000000, 1, 100, -997550000, 1000000000, 1, 100,
     "right mostly before left: overlap band 0.245% of the span"},
    {"preceded_by", M1, M1, -997550000, 1000000000, 1, 100, 0, 1000000000, 1, 100,
     "left mostly before right (mirror of precedes)"},
    {"meets", M1, M1, 0, 333333, 1, 10, 0, 333333, 1, 10, "integer grid 333K, len 1..10"},
    {"met_by", M1, M1, 0, 333333, 1, 10, 0, 333333, 1, 10, "integer grid 333K, len 1..10"},
    {"overlaps", M1, M1, 0, 8000000, 1, 100, 0, 8000000, 1, 100, "uniform, span 8M, len 1..100"},
    {"overlapped_by", M1, M1, 0, 8000000, 1, 100, 0, 8000000, 1, 100, "uniform, span 8M, len 1..100"},
    {"starts", M1, M1, 0, 150000, 1, 10, 0, 150000, 1, 10, "integer grid 150K, len 1..10"},
    {"started_by", M1, M1, 0, 150000, 1, 10, 0, 150000, 1, 10, "integer grid 150K, len 1..10"},
    {"during", M1, M1, 0, 30000000, 1, 20, 0, 30000000, 1, 200, "span 30M, left len 1..20, right 1..200"},
    {"contains", M1, M1, 0, 30000000, 1, 200, 0, 30000000, 1, 20, "span 30M, left len 1..200, right 1..20"},
    {"finishes", M1, M1, 0, 150000, 1, 10, 0, 150000, 1, 10, "integer grid 150K, len 1..10"},
    {"finished_by", M1, M1, 0, 150000, 1, 10, 0, 150000, 1, 10, "integer grid 150K, len 1..10"},
    {"equals", M1, M1, 0, 33000, 1, 10, 0, 33000, 1, 10, "integer grid 33K, len 1..10"},
    /* Each relation at 4M x 4M with the same density, so that the result grows 4x: spans and
     * grids 4x as wide; PRECEDES' overlap band half as wide a share of a 4x span (its pairs
     * grow with the square of the rows in the band). */
    {"precedes_4m", M4, M4, 0, 4000000000, 1, 100, -3995100000, 4000000000, 1, 100,
     "right mostly before left: overlap band 0.1225% of the span"},
    {"preceded_by_4m", M4, M4, -3995100000, 4000000000, 1, 100, 0, 4000000000, 1, 100,
     "left mostly before right (mirror of precedes_4m)"},
    {"meets_4m", M4, M4, 0, 1333332, 1, 10, 0, 1333332, 1, 10, "integer grid 1.33M, len 1..10"},
    {"met_by_4m", M4, M4, 0, 1333332, 1, 10, 0, 1333332, 1, 10, "integer grid 1.33M, len 1..10"},
    {"overlaps_4m", M4, M4, 0, 32000000, 1, 100, 0, 32000000, 1, 100, "uniform, span 32M, len 1..100"},
    {"overlapped_by_4m", M4, M4, 0, 32000000, 1, 100, 0, 32000000, 1, 100, "uniform, span 32M, len 1..100"},
    {"starts_4m", M4, M4, 0, 600000, 1, 10, 0, 600000, 1, 10, "integer grid 600K, len 1..10"},
    {"started_by_4m", M4, M4, 0, 600000, 1, 10, 0, 600000, 1, 10, "integer grid 600K, len 1..10"},
    {"during_4m", M4, M4, 0, 120000000, 1, 20, 0, 120000000, 1, 200, "span 120M, left len 1..20, right 1..200"},
    {"contains_4m", M4, M4, 0, 120000000, 1, 200, 0, 120000000, 1, 20, "span 120M, left len 1..200, right 1..20"},
    {"finishes_4m", M4, M4, 0, 600000, 1, 10, 0, 600000, 1, 10, "integer grid 600K, len 1..10"},
    {"finished_by_4m", M4, M4, 0, 600000, 1, 10, 0, 600000, 1, 10, "integer grid 600K, len 1..10"},
    {"equals_4m", M4, M4, 0, 132000, 1, 10, 0, 132000, 1, 10, "integer grid 132K, len 1..10"},
};

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void draw(uint64_t *seed, size_t n, int64_t lo, int64_t span, int64_t lmin, int64_t lmax,
                 int64_t *s, int64_t *e) {
    for (size_t i = 0; i < n; i++) {
        s[i] = lo + (int64_t)(splitmix(seed) % (uint64_t)span);
        e[i] = s[i] + lmin + (int64_t)(splitmix(seed) % (uint64_t)(lmax - lmin + 1));
    }
}

static int write_csv(const char *path, const int64_t *s, const int64_t *e, size_t n) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("id,s,e\n", f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%zu,%" PRId64 ",%" PRId64 "\n", i, s[i], e[i]);
    return fclose(f);
}

typedef struct {
    int64_t s, e;
    size_t id;
} Row;

static int cmp_row(const void *a, const void *b) {
    const Row *x = a, *y = b;
    if (x->s != y->s) return x->s < y->s ? -1 : 1;
    if (x->e != y->e) return x->e < y->e ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int write_bed(const char *path, const int64_t *s, const int64_t *e, size_t n, int sorted) {
    Row *rows = malloc(n * sizeof *rows);
    if (!rows) return -1;
    for (size_t i = 0; i < n; i++) rows[i] = (Row){s[i], e[i], i};
    if (sorted) qsort(rows, n, sizeof *rows, cmp_row);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(rows);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "chr1\t%" PRId64 "\t%" PRId64 "\t%zu\n", rows[i].s, rows[i].e, rows[i].id);
    free(rows);
    return fclose(f);
}

static int gen_one(const char *dir, const Workload *w, int csv, int bed) {
    uint64_t seed = 0x1234567ULL;
    for (const char *p = w->name; *p; p++) seed = seed * 131 + (unsigned char)*p;
    int64_t *ls = malloc(w->n * 8), *le = malloc(w->n * 8), *rs = malloc(w->m * 8),
            *re = malloc(w->m * 8);
    if (!ls || !le || !rs || !re) return -1;
    draw(&seed, w->n, w->l_lo, w->l_span, w->l_len_min, w->l_len_max, ls, le);
    draw(&seed, w->m, w->r_lo, w->r_span, w->r_len_min, w->r_len_max, rs, re);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", dir, w->name);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    uint64_t hdr[2] = {w->n, w->m};
    fwrite(hdr, 8, 2, f);
    fwrite(ls, 8, w->n, f);
    fwrite(le, 8, w->n, f);
    fwrite(rs, 8, w->m, f);
    fwrite(re, 8, w->m, f);
    if (fclose(f) != 0) return -1;
    if (csv) {
        snprintf(path, sizeof path, "%s/%s_l.csv", dir, w->name);
        if (write_csv(path, ls, le, w->n)) return -1;
        snprintf(path, sizeof path, "%s/%s_r.csv", dir, w->name);
        if (write_csv(path, rs, re, w->m)) return -1;
    }
    if (bed && strncmp(w->name, "intersects", 10) == 0) {
        for (int sorted = 0; sorted < 2; sorted++) {
            snprintf(path, sizeof path, "%s/%s_l%s.bed", dir, w->name, sorted ? ".sorted" : "");
            if (write_bed(path, ls, le, w->n, sorted)) return -1;
            snprintf(path, sizeof path, "%s/%s_r%s.bed", dir, w->name, sorted ? ".sorted" : "");
            if (write_bed(path, rs, re, w->m, sorted)) return -1;
        }
    }
    printf("%-14s %zu x %zu  %s\n", w->name, w->n, w->m, w->note);
    free(ls);
    free(le);
    free(rs);
    free(re);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gen DIR [--csv] [--bed] [NAME...]\n");
        return 2;
    }
    int csv = 0, bed = 0, named = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) csv = 1;
        else if (!strcmp(argv[i], "--bed")) bed = 1;
        else named = 1;
    }
    for (size_t k = 0; k < sizeof workloads / sizeof workloads[0]; k++) {
        int want = !named;
        for (int i = 2; i < argc && !want; i++) want = !strcmp(argv[i], workloads[k].name);
        if (want && gen_one(argv[1], &workloads[k], csv, bed) != 0) {
            fprintf(stderr, "gen: cannot write %s\n", workloads[k].name);
            return 1;
        }
    }
    return 0;
}
