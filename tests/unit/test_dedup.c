/*
 * test_dedup.c - π's duplicate removal (ops_dedup, src/exec/exec.c) on one thread and on
 * several: random rows of few distinct values (INT, TEXT, FLOAT, TIMESTAMP, NULLs) must keep
 * exactly the first row of each group of equal rows, in order, as a reference that numbers
 * every combination of values finds them; large enough for the threaded path. And the memory a
 * few distinct rows repeated many times take: step 3's map holds the distinct rows, so it is
 * small, not sized for every candidate.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exec/ops.h"

static uint64_t rng_state = 1;
static uint64_t rnd(void) { return check_splitmix(&rng_state); }

enum { NC = 4, VALUES = 5 };   /* per column: NULL or one of VALUES - 1 values */

static const char *const TEXTS[VALUES - 1] = {"a", "b", "a long text past sixteen bytes", ""};

/* A table sharing the columns (ops_dedup takes the table it is given). */
static Table *share(Column **cols) {
    static const char *const names[NC] = {"i", "t", "f", "ts"};
    Table *t = table_new(NC, cols[0]->n);
    for (int c = 0; c < NC; c++) {
        col_retain(cols[c]);
        table_set(t, c, cols[c], names[c]);
    }
    return t;
}

static void test_against_reference(size_t n, int distinct_per_col) {
    Column *cols[NC] = {col_new(TY_INT, n), col_new(TY_TEXT, n), col_new(TY_FLOAT, n),
                        col_new(TY_TIMESTAMP, n)};
    unsigned *code = malloc(n * sizeof *code);
    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        for (int c = 0; c < NC; c++) {
            unsigned v = (unsigned)(rnd() % (uint64_t)distinct_per_col);   /* 0: NULL */
            k = k * VALUES + v;
            if (v == 0) {
                col_set_null(cols[c], i);
                continue;
            }
            switch (c) {
            case 0: col_i64(cols[c])[i] = (int64_t)v * -1000000007; break;
            case 1: col_str(cols[c])[i] = (RxStr){TEXTS[v - 1], strlen(TEXTS[v - 1])}; break;
            case 2: col_f64(cols[c])[i] = (double)v / 3; break;
            default: col_i64(cols[c])[i] = 1772443800000000 + (int64_t)v; break;
            }
        }
        code[i] = k;
    }
    /* the reference: the first row of each combination */
    unsigned char seen[VALUES * VALUES * VALUES * VALUES] = {0};
    size_t want_n = 0;
    uint32_t *want = malloc(n * sizeof *want);
    for (size_t i = 0; i < n; i++)
        if (!seen[code[i]]) {
            seen[code[i]] = 1;
            want[want_n++] = (uint32_t)i;
        }
    /* the rows each result keeps, told apart by an INT column of row numbers gathered along */
    static const int threads[] = {1, 2, 3, 8};
    for (size_t h = 0; h < sizeof threads / sizeof *threads; h++) {
        rx_set_threads(threads[h]);
        Table *t = share(cols);
        RxError e;
        memset(&e, 0, sizeof e);
        Table *d = ops_dedup(t, &e);
        CHECK(d != NULL);
        if (!d) continue;
        CHECK(d->n_rows == want_n);
        bool same = d->n_rows == want_n;   /* d's row r against the source's row want[r] */
        for (size_t r = 0; r < want_n && same; r++) {
            size_t i = want[r];
            for (int c = 0; c < NC && same; c++) {
                const Column *a = d->cols[c], *b = cols[c];
                bool an = col_is_null(a, r), bn = col_is_null(b, i);
                same = an == bn;
                if (!same || an) continue;
                switch (c) {
                case 0: case 3: same = col_i64(a)[r] == col_i64(b)[i]; break;
                case 1: same = col_str(a)[r].len == col_str(b)[i].len &&
                               memcmp(col_str(a)[r].ptr, col_str(b)[i].ptr, col_str(b)[i].len) == 0;
                    break;
                default: same = col_f64(a)[r] == col_f64(b)[i]; break;
                }
            }
        }
        if (!same) fprintf(stderr, "%zu rows, %d threads: the rows kept differ\n", n, threads[h]);
        CHECK(same);
        table_free(d);
    }
    rx_set_threads(0);
    for (int c = 0; c < NC; c++) col_release(cols[c]);
    free(code);
    free(want);
}

/* A million rows of a thousand distinct values: the candidates' arrays (a row number and a hash
 * each, 12 bytes a row) and the filter (2 bytes a row) are what dedup needs; a map sized for
 * every candidate would add 8 to 16 MB more. */
static void test_few_distinct_memory(void) {
    enum { N = 1000000, DISTINCT = 1000 };
    Column *a = col_new(TY_INT, N), *b = col_new(TY_INT, N);
    for (size_t i = 0; i < N; i++) {
        col_i64(a)[i] = (int64_t)(i % DISTINCT);
        col_i64(b)[i] = (int64_t)(i % DISTINCT) * 7;
    }
    static const int threads[] = {1, 2};
    for (size_t h = 0; h < sizeof threads / sizeof *threads; h++) {
        rx_set_threads(threads[h]);
        Table *t = table_new(2, N);
        col_retain(a), col_retain(b);
        table_set(t, 0, a, "a");
        table_set(t, 1, b, "b");
        RxError e;
        memset(&e, 0, sizeof e);
        size_t mark = rx_memory_peak_mark();
        Table *d = ops_dedup(t, &e);
        size_t peak = rx_memory_peak_since(mark), bound = (size_t)N * 14 + ((size_t)3 << 20);
        CHECK(d != NULL && d->n_rows == DISTINCT);
        for (size_t r = 0; d && r < d->n_rows && r < DISTINCT; r++)
            CHECK(col_i64(d->cols[0])[r] == (int64_t)r && col_i64(d->cols[1])[r] == (int64_t)r * 7);
        if (peak >= bound)
            fprintf(stderr, "%d threads: dedup of %d distinct rows peaked at %zu bytes\n", threads[h],
                    DISTINCT, peak);
        CHECK(peak < bound);
        table_free(d);
    }
    rx_set_threads(0);
    col_release(a), col_release(b);
}

int main(void) {
    rng_state = 7;
    test_against_reference(1000, VALUES);        /* one thread's path */
    test_against_reference(200000, VALUES);      /* parts on threads, every combination seen */
    test_against_reference(200000, 2);          /* few groups, long runs of duplicates */
    test_against_reference(70000, 3);
    test_few_distinct_memory();
    return check_report("dedup");
}
