/*
 * test_distinct.c - π's duplicate removal (ops_dedup, src/exec/exec.c) against a sort-based
 * oracle: random tables of every column type (INT, plain and dictionary-coded TEXT, FLOAT with
 * NaNs of several payloads and -0, BOOL, DATE, DURATION of one span written two ways,
 * TIMESTAMP, TIME, the NULL type) with NULLs, few or many duplicates, at sizes around the
 * filter's and the threads' thresholds, on 1, 2 and 3 threads. The oracle sorts the rows by
 * the language's equality (written here from the spec, not from exec.c) and keeps the first of
 * every run; the result must hold exactly those rows, in order, bit for bit (so that the first
 * of equal rows is the one kept: -0 against 0, one NaN against another, P1M against P30D).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exec/ops.h"

static uint64_t rng_state = 1;
static uint64_t rnd(void) { return check_splitmix(&rng_state); }

enum { NT = 10, NTEXT = 600 };
static const RxType TYPES[NT] = {TY_INT, TY_TEXT, TY_TEXT, TY_FLOAT, TY_BOOL,
                                 TY_DATE, TY_DURATION, TY_TIMESTAMP, TY_TIME, TY_NULL};
static char texts[NTEXT][40];

static RxStr text(unsigned v) {
    return (RxStr){texts[v % NTEXT], strlen(texts[v % NTEXT])};
}

/* ---- the oracle ------------------------------------------------------------------------------ */

static const Table *ot;   /* the table qsort compares rows of */

static int cmp_str(RxStr a, RxStr b) {
    size_t m = a.len < b.len ? a.len : b.len;
    int c = m ? memcmp(a.ptr, b.ptr, m) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* Rows i and j of column c under the language's equality (with some order for the sort). */
static int cmp_cell(const Column *c, size_t i, size_t j) {
    bool ni = c->type == TY_NULL || col_is_null(c, i), nj = c->type == TY_NULL || col_is_null(c, j);
    if (ni || nj) return nj - ni;
    switch (c->type) {
    case TY_TEXT:
        if (c->codes) return cmp_str(c->dict[c->codes[i]], c->dict[c->codes[j]]);
        return cmp_str(col_str(c)[i], col_str(c)[j]);
    case TY_FLOAT: {
        double a = col_f64(c)[i], b = col_f64(c)[j];
        if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
        return (a > b) - (a < b);
    }
    case TY_BOOL: return (col_u8(c)[i] > col_u8(c)[j]) - (col_u8(c)[i] < col_u8(c)[j]);
    case TY_DATE: return (col_i32(c)[i] > col_i32(c)[j]) - (col_i32(c)[i] < col_i32(c)[j]);
    case TY_DURATION: {
        RxDuration a = col_dur(c)[i], b = col_dur(c)[j];
        __int128 x = (__int128)a.months * 30 * 86400000000 + a.us, y = (__int128)b.months * 30 * 86400000000 + b.us;
        return (x > y) - (x < y);
    }
    default: return (col_i64(c)[i] > col_i64(c)[j]) - (col_i64(c)[i] < col_i64(c)[j]);
    }
}

static int cmp_rows(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    for (int c = 0; c < ot->n_cols; c++) {
        int r = cmp_cell(ot->cols[c], a, b);
        if (r) return r;
    }
    return (a > b) - (a < b);
}

static int cmp_u32(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* Whether row r of a and row i of b hold the same bits (the same string for TEXT). */
static bool same_bits(const Column *a, size_t r, const Column *b, size_t i) {
    bool an = a->type == TY_NULL || col_is_null(a, r), bn = b->type == TY_NULL || col_is_null(b, i);
    if (an || bn) return an == bn;
    switch (a->type) {
    case TY_TEXT: {
        RxStr x = a->codes ? a->dict[a->codes[r]] : col_str(a)[r], y = b->codes ? b->dict[b->codes[i]] : col_str(b)[i];
        return x.len == y.len && (!x.len || memcmp(x.ptr, y.ptr, x.len) == 0);
    }
    case TY_BOOL: return col_u8(a)[r] == col_u8(b)[i];
    case TY_DATE: return col_i32(a)[r] == col_i32(b)[i];
    case TY_DURATION: return col_dur(a)[r].months == col_dur(b)[i].months && col_dur(a)[r].us == col_dur(b)[i].us;
    default: return memcmp(&col_i64(a)[r], &col_i64(b)[i], 8) == 0;   /* FLOAT's bits too */
    }
}

/* ---- random tables --------------------------------------------------------------------------- */

/* Row i's value of column c (type ty) from value number v (0 with nulls: NULL), in one of its
 * several representations. */
static void set_value(Column *c, size_t i, unsigned v, bool nulls, bool wide) {
    if (c->type == TY_NULL) {
        col_u8(c)[i] = 0;
        return;
    }
    if (nulls && v == 0) {
        col_set_null(c, i);
        if (c->codes) c->codes[i] = 0;
        return;
    }
    switch (c->type) {
    case TY_INT: col_i64(c)[i] = wide ? (int64_t)rnd() : (int64_t)v * -1000000007; break;
    case TY_TEXT:
        if (c->codes) {
            c->codes[i] = v % c->n_dict;
            col_str(c)[i] = c->dict[c->codes[i]];
        } else {
            col_str(c)[i] = text(v);
        }
        break;
    case TY_FLOAT: {
        double d = (double)v / 3;
        if (v % 7 == 1) d = rnd() & 1 ? -0.0 : 0.0;
        if (v % 7 == 2) {
            uint64_t bits = UINT64_C(0x7ff8000000000000) | (rnd() & 0xff) | (rnd() & 1 ? UINT64_C(1) << 63 : 0);
            memcpy(&d, &bits, 8);
        }
        col_f64(c)[i] = d;
        break;
    }
    case TY_BOOL: col_u8(c)[i] = v & 1; break;
    case TY_DATE: col_i32(c)[i] = (int32_t)v - 100; break;
    case TY_DURATION:
        /* v months, as months or as 30-day spans of microseconds */
        col_dur(c)[i] = rnd() & 1 ? (RxDuration){v, 0} : (RxDuration){0, (int64_t)v * 30 * 86400000000};
        break;
    case TY_TIMESTAMP: col_i64(c)[i] = 1772443800000000 + (int64_t)v; break;
    default: col_i64(c)[i] = (int64_t)v * 1000; break;
    }
}

/* One table of n rows: a random subset of the column kinds, values from pools of `pool`
 * (NULL among them), each row a copy of an earlier one (its values possibly in another
 * representation) with probability copy/100 (ONE_COPY: only the last row, with the INT column
 * among the columns); wide makes the INT column nearly distinct. */
enum { ONE_COPY = 1000 };
static void one_case(size_t n, unsigned pool, unsigned copy, bool wide) {
    int kinds[NT], nc = 0;
    for (int k = 0; k < NT; k++)
        if (rnd() % 10 < 6) kinds[nc++] = k;
    if (!nc || (copy == ONE_COPY && kinds[0] != 0)) kinds[nc++] = copy == ONE_COPY ? 0 : (int)(rnd() % NT);
    bool nulls = rnd() & 1;
    Column *cols[NT];
    for (int c = 0; c < nc; c++) {
        cols[c] = col_new(TYPES[kinds[c]], n);
        if (kinds[c] == 2) {   /* dictionary-coded TEXT: distinct strings, in random order */
            uint32_t nd = 1 + (uint32_t)(rnd() % (pool < NTEXT ? pool : NTEXT));
            cols[c]->codes = rx_malloc((n ? n : 1) * sizeof *cols[c]->codes);
            cols[c]->dict = rx_malloc(nd * sizeof *cols[c]->dict);
            uint32_t off = (uint32_t)(rnd() % NTEXT);
            for (uint32_t d = 0; d < nd; d++) cols[c]->dict[d] = text((off + d * 7) % NTEXT);
            cols[c]->n_dict = nd;
        }
    }
    for (size_t i = 0; i < n; i++) {
        bool dup = i && (copy == ONE_COPY ? i == n - 1 : rnd() % 100 < copy);
        size_t from = dup ? (size_t)(rnd() % i) : 0;
        for (int c = 0; c < nc; c++) {
            Column *col = cols[c];
            if (!dup) {
                set_value(col, i, (unsigned)(rnd() % pool), nulls, wide);
                continue;
            }
            if (col_is_null(col, from)) {
                col_set_null(col, i);
                if (col->codes) col->codes[i] = 0;
                continue;
            }
            memcpy((char *)col->data + i * type_width(col->type), (char *)col->data + from * type_width(col->type),
                   type_width(col->type));
            if (col->codes) col->codes[i] = col->codes[from];
            double d = 0;
            if (col->type == TY_FLOAT && (d = col_f64(col)[i]) == 0) col_f64(col)[i] = rnd() & 1 ? -0.0 : 0.0;
            if (col->type == TY_FLOAT && isnan(d)) {
                uint64_t bits = UINT64_C(0x7ff8000000000000) | (rnd() & 0xff);
                memcpy(&col_f64(col)[i], &bits, 8);
            }
            if (col->type == TY_DURATION && rnd() & 1) {
                RxDuration x = col_dur(col)[i];
                if (x.months) col_dur(col)[i] = (RxDuration){0, x.months * 30 * 86400000000};
            }
        }
    }
    static const char *const names[NT] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    Table *src = table_new(nc, n);
    for (int c = 0; c < nc; c++) {
        col_retain(cols[c]);
        table_set(src, c, cols[c], names[c]);
    }
    /* the oracle: sorted by value then row, the first row of every run, in row order */
    uint32_t *ord = malloc((n ? n : 1) * sizeof *ord), *want = malloc((n ? n : 1) * sizeof *want);
    for (size_t i = 0; i < n; i++) ord[i] = (uint32_t)i;
    ot = src;
    qsort(ord, n, sizeof *ord, cmp_rows);
    size_t want_n = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = i == 0;
        for (int c = 0; c < nc && !first; c++) first = cmp_cell(src->cols[c], ord[i - 1], ord[i]) != 0;
        if (first) want[want_n++] = ord[i];
    }
    qsort(want, want_n, sizeof *want, cmp_u32);
    static const int threads[] = {1, 2, 3};
    for (size_t h = 0; h < sizeof threads / sizeof *threads; h++) {
        rx_set_threads(threads[h]);
        Table *t = table_new(nc, n);
        for (int c = 0; c < nc; c++) {
            col_retain(cols[c]);
            table_set(t, c, cols[c], names[c]);
        }
        RxError e;
        memset(&e, 0, sizeof e);
        Table *d = ops_dedup(t, &e);
        CHECK(d != NULL);
        if (!d) continue;
        bool same = d->n_rows == want_n;
        size_t bad = 0;
        for (size_t r = 0; r < want_n && same; r++)
            for (int c = 0; c < nc && same; c++) same = same_bits(d->cols[c], r, cols[c], want[r]), bad = r;
        if (!same)
            fprintf(stderr, "%zu rows (pool %u, copies %u%%, %d columns), %d threads: %zu rows kept, want %zu; first difference at %zu\n",
                    n, pool, copy, nc, threads[h], d->n_rows, want_n, bad);
        CHECK(same);
        table_free(d);
    }
    rx_set_threads(0);
    table_free(src);
    for (int c = 0; c < nc; c++) col_release(cols[c]);
    free(ord);
    free(want);
}

/* col_hash_value of a dictionary-coded TEXT column (hashed through its dictionary) equals that
 * of a plain column of the same strings, row by row, NULLs included. */
static void test_coded_hash(void) {
    enum { N = 300, ND = 40 };
    Column *coded = col_new(TY_TEXT, N), *plain = col_new(TY_TEXT, N);
    coded->codes = rx_malloc(N * sizeof *coded->codes);
    coded->dict = rx_malloc(ND * sizeof *coded->dict);
    coded->n_dict = ND;
    for (uint32_t d = 0; d < ND; d++) coded->dict[d] = text(d * 3);
    bool same = true;
    for (size_t i = 0; i < N; i++) {
        coded->codes[i] = (uint32_t)(rnd() % ND);
        col_str(coded)[i] = col_str(plain)[i] = coded->dict[coded->codes[i]];
        if (i % 17 == 0) {
            col_set_null(coded, i), col_set_null(plain, i);
            coded->codes[i] = 0;
        }
    }
    for (size_t i = 0; i < N; i++) same &= col_hash_value(coded, i) == col_hash_value(plain, i);
    CHECK(same);
    col_release(coded);
    col_release(plain);
}

int main(void) {
    for (int i = 0; i < NTEXT; i++)
        snprintf(texts[i], sizeof texts[i], i % 5 == 0 ? "%d a text longer than sixteen bytes" : i == 1 ? "" : "t%d", i);
    rng_state = 11;
    test_coded_hash();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1000, 4095, 4096, 4097, 9000, 65535, 65536, 70001, 250000};
    static const unsigned pools[] = {2, 5, 40, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t p = 0; p < sizeof pools / sizeof *pools; p++) {
            one_case(sizes[s], pools[p], 0, false);
            one_case(sizes[s], pools[p], 3, rnd() & 1);
            if (sizes[s] < 100000) one_case(sizes[s], pools[p], 50, rnd() & 1);
            one_case(sizes[s], pools[p], ONE_COPY, true);   /* one duplicate among distinct rows */
        }
    return check_report("distinct");
}
