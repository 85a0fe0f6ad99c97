/*
 * csv_write.c - times the CSV writer (src/io/output.c) on the table read from one CSV file:
 * out_write into a sink that discards the bytes (the formatting alone), or with OUT into that
 * file through rx_outfile (the whole write: formatting, write(), the background flushes and
 * the commit's fsync and rename). Prints the best CPU time (user + system, every thread) and
 * the best wall time of REPEAT writes. Not built by the Makefile; build it by hand with -O2
 * against the library, for example:
 *   make && gcc -std=c11 -D_DEFAULT_SOURCE -O2 -Iinclude -Isrc bench/csv_write.c \
 *       build/librelix.a -lz -lzstd -lm -lpthread -ldl -o /tmp/csv_write
 * Usage: csv_write FILE.csv [REPEAT [THREADS [OUT]]]  (REPEAT default 5; THREADS the writer's
 * threads, default 1 so that the CPU time is the formatting's own; 0 the engine's default)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"
#include "io/io.h"

/* Counts the bytes (out_write cannot know that nothing reads them). */
static int discard(void *ud, const char *p, size_t n) {
    size_t *bytes = ud;
    *bytes += n;
    (void)p;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.csv [REPEAT [THREADS [OUT]]]\n", argv[0]);
        return 2;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 5;
    rx_set_threads(argc > 3 ? atoi(argv[3]) : 1);
    const char *out = argc > 4 ? argv[4] : NULL;
    CsvOptions o;
    csv_options_default(&o);
    Table *t = NULL;
    RxError e;
    memset(&e, 0, sizeof e);
    if (csv_read(argv[1], &o, &t, &e) != 0) {
        fprintf(stderr, "%s: cannot be read\n", argv[1]);
        return 1;
    }
    double best_cpu = 1e30, best_wall = 1e30;
    size_t bytes = 0;
    for (int k = 0; k < repeat; k++) {
        memset(&e, 0, sizeof e);
        bytes = 0;
        double c0 = cpu(), w0 = now();
        if (out) {
            RxOutFile *f = rx_outfile_open(out, &e);
            if (!f) {
                fprintf(stderr, "%s: cannot be written\n", out);
                return 1;
            }
            RxSink sink = {rx_outfile_write, f};
            if (out_write(t, OUT_CSV, &sink, &e) != 0) rx_outfile_fail(f, EIO);
            if (rx_outfile_commit(f, &e) != 0) {
                fprintf(stderr, "%s: the write failed\n", out);
                return 1;
            }
        } else {
            RxSink sink = {discard, &bytes};
            if (out_write(t, OUT_CSV, &sink, &e) != 0) return 1;
        }
        double c = cpu() - c0, w = now() - w0;
        if (c < best_cpu) best_cpu = c;
        if (w < best_wall) best_wall = w;
    }
    printf("%zu rows, %d columns%s: best CPU %.3f s (%.1f ns a row), best wall %.3f s\n",
           t->n_rows, t->n_cols, out ? " to a file" : "", best_cpu,
           best_cpu / (double)(t->n_rows ? t->n_rows : 1) * 1e9, best_wall);
    table_free(t);
    return 0;
}
