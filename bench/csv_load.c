/*
 * csv_load.c - times the CSV reader on one file: csv_open (pass 1: structure and types) and
 * csv_load of every column (pass 2: conversion), and prints rows, columns, their types, seconds
 * with the CPU time they took, and MB/s. Not built by the Makefile; build it by hand with -O2,
 * for example:
 *   gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Iinclude -Isrc bench/csv_load.c src/io/csv.c \
 *       src/types/[a-z]*.c src/base/[a-z]*.c -lm -lpthread -o /tmp/csv_load
 * Usage: csv_load FILE.csv [REPEAT [THREADS]]  (the best of REPEAT runs, default 3; THREADS 0
 * or absent: the reader's default, one per online processor)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "clock.h"
#include "io/io.h"

static int fail(const RxError *e) {
    StrBuf b;
    sb_init(&b);
    rx_error_format(e, &b);
    fputs(b.p, stderr);
    sb_free(&b);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.csv [REPEAT [THREADS]]\n", argv[0]);
        return 2;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 3;
    struct stat st;
    if (stat(argv[1], &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    CsvOptions o;
    csv_options_default(&o);
    o.threads = argc > 3 ? atoi(argv[3]) : 0;
    double best = 1e30;
    for (int k = 0; k < repeat; k++) {
        RxError e;
        memset(&e, 0, sizeof e);
        CsvFile *f = NULL;
        double t0 = now(), c0 = cpu();
        if (csv_open(argv[1], &o, &f, &e) < 0) return fail(&e);
        double t1 = now(), c1 = cpu();
        if (csv_load(f, NULL, &e) < 0) {
            csv_close(f);
            return fail(&e);
        }
        double t2 = now(), c2 = cpu();
        if (k == 0) {
            const Table *t = csv_table(f);
            printf("rows %zu columns %d:", t->n_rows, t->n_cols);
            for (int j = 0; j < t->n_cols; j++)
                printf(" %s %s%s", t->names[j], type_name(t->cols[j]->type),
                       t->cols[j]->sorted ? " (sorted)" : "");
            printf("\n");
        }
        printf("run %d: %.3f s (open %.3f s, cpu %.3f s; load %.3f s, cpu %.3f s)\n", k + 1,
               t2 - t0, t1 - t0, c1 - c0, t2 - t1, c2 - c1);
        if (t2 - t0 < best) best = t2 - t0;
        csv_close(f);
    }
    double mb = (double)st.st_size / 1e6;
    printf("best %.3f s, %.1f MB, %.0f MB/s\n", best, mb, mb / best);
    return 0;
}
