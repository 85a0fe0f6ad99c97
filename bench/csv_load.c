/*
 * csv_load.c - times csv_read on one file and prints rows, columns, their types, seconds and
 * MB/s. Not built by the Makefile; build it by hand with -O2, for example:
 *   gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Iinclude -Isrc bench/csv_load.c src/io/csv.c \
 *       src/types/[a-z]*.c src/base/[a-z]*.c -lm -lpthread -o /tmp/csv_load
 * Usage: csv_load FILE.csv [REPEAT]  (the best of REPEAT runs, default 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "io/io.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.csv [REPEAT]\n", argv[0]);
        return 2;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 3;
    struct stat st;
    if (stat(argv[1], &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    double best = 1e30;
    for (int k = 0; k < repeat; k++) {
        RxError e;
        memset(&e, 0, sizeof e);
        Table *t = NULL;
        double t0 = now();
        int rc = csv_read(argv[1], NULL, &t, &e);
        double dt = now() - t0;
        if (rc != 0) {
            StrBuf b;
            sb_init(&b);
            rx_error_format(&e, &b);
            fputs(b.p, stderr);
            sb_free(&b);
            return 1;
        }
        if (dt < best) best = dt;
        if (k == 0) {
            printf("rows %zu columns %d:", t->n_rows, t->n_cols);
            for (int j = 0; j < t->n_cols; j++)
                printf(" %s %s%s", t->names[j], type_name(t->cols[j]->type),
                       t->cols[j]->sorted ? " (sorted)" : "");
            printf("\n");
        }
        printf("run %d: %.3f s\n", k + 1, dt);
        table_free(t);
    }
    double mb = (double)st.st_size / 1e6;
    printf("best %.3f s, %.1f MB, %.0f MB/s\n", best, mb, mb / best);
    return 0;
}
