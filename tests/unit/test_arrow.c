/*
 * test_arrow.c - the Arrow C data interface through the public API alone (relix.h): a record
 * batch built by hand (every format Relix takes, validity bitmaps, offsets, a dictionary) is
 * registered, queried and exported again, and the export equals the input; the producer's
 * release callbacks run exactly once each, at the moments relix.h promises; int64 and double
 * buffers are read in place (a pass-through column is the producer's own buffer, 10M rows
 * grow the engine's memory by no more than headers); bad input is an error naming the column,
 * with the structs released all the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "check.h"
#include "relix.h"

/* ---- a hand-made producer ------------------------------------------------------------------- */

static int schema_releases, array_releases;

static void rel_schema(struct ArrowSchema *s) {
    schema_releases++;
    for (int64_t i = 0; i < s->n_children; i++) {
        free(s->children[i]->dictionary);
        free(s->children[i]);
    }
    free(s->children);
    free(s->dictionary);
    s->release = NULL;
}

static void rel_array(struct ArrowArray *a) {
    array_releases++;
    for (int64_t i = 0; i < a->n_children; i++) {
        free((void *)a->children[i]->buffers);
        free(a->children[i]->dictionary);
        free(a->children[i]);
    }
    free(a->children);
    free((void *)a->buffers);
    a->release = NULL;
}

#define NCOL 11

/* The batch's data: 5 rows in the buffers, the batch starting at row 1 (offset 1): 4 rows. */
static int64_t id[5] = {99, 1, 2, 3, 4};
static uint8_t id_valid[1] = {0x17};              /* row 3 NULL: the batch's row 2 (id 3) */
static double px[5] = {0, 1.5, 2.5, -3.25, 1e300};
static int32_t n32[5] = {0, -7, 8, 9, 2147483647};
static uint8_t flag[1] = {0x0A};                  /* rows 1 and 3 true */
static int32_t sym_off[6] = {0, 1, 4, 4, 9, 12};  /* "x", "abc", "", "hello" (NULL), "日" */
static const char sym_data[] = "xabchello日";
static uint8_t sym_valid[1] = {0x17};             /* row 3 NULL */
static int64_t lsym_off[6] = {0, 0, 2, 4, 6, 8};
static const char lsym_data[] = "aabbccdd";
static int64_t ts_ns[5] = {0, 1767225600000000000, 1767225600000001000, 1767225660000000000, -1000};
static int32_t days[5] = {0, 20454, 20455, -1, 0};
static int64_t dur_ms[5] = {0, 1500, -2000, 0, 86400000};
static int8_t dsym_idx[5] = {0, 2, 1, 2, 0};
static int32_t dict_off[4] = {0, 3, 7, 12};
static const char dict_data[] = "IBMAAPLGOOGL";
static int64_t tm_us[5] = {0, 3600000000, 0, 86399999999, 1};

static const char *names[NCOL] = {"id", "px", "n32", "flag", "sym", "lsym", "ts", "d", "dur", "dsym", "tm"};
static const char *formats[NCOL] = {"l", "g", "i", "b", "u", "U", "tsn:America/New_York", "tdD", "tDm", "c", "ttu"};

static void make_batch(struct ArrowSchema *s, struct ArrowArray *a) {
    *s = (struct ArrowSchema){.format = "+s", .name = "", .n_children = NCOL, .release = rel_schema};
    *a = (struct ArrowArray){.length = 4, .offset = 1, .n_buffers = 1, .n_children = NCOL, .release = rel_array};
    s->children = calloc(NCOL, sizeof *s->children);
    a->children = calloc(NCOL, sizeof *a->children);
    a->buffers = calloc(1, sizeof *a->buffers);
    for (int j = 0; j < NCOL; j++) {
        struct ArrowSchema *cs = calloc(1, sizeof *cs);
        struct ArrowArray *ca = calloc(1, sizeof *ca);
        *cs = (struct ArrowSchema){.format = formats[j], .name = names[j], .flags = ARROW_FLAG_NULLABLE,
                                   .release = rel_schema};
        const void **b = calloc(3, sizeof *b);
        *ca = (struct ArrowArray){.length = 5, .n_buffers = 2, .buffers = b, .release = rel_array};
        switch (j) {
        case 0: b[0] = id_valid, b[1] = id, ca->null_count = 1; break;
        case 1: b[1] = px; break;
        case 2: b[1] = n32; break;
        case 3: b[1] = flag; break;
        case 4: b[0] = sym_valid, b[1] = sym_off, b[2] = sym_data, ca->n_buffers = 3, ca->null_count = -1; break;
        case 5: b[1] = lsym_off, b[2] = lsym_data, ca->n_buffers = 3; break;
        case 6: b[1] = ts_ns; break;
        case 7: b[1] = days; break;
        case 8: b[1] = dur_ms; break;
        case 9: {
            b[1] = dsym_idx;
            struct ArrowSchema *ds = calloc(1, sizeof *ds);
            *ds = (struct ArrowSchema){.format = "u", .name = "", .release = rel_schema};
            cs->dictionary = ds;
            struct ArrowArray *da = calloc(1, sizeof *da);
            static const void *db[3] = {NULL, dict_off, dict_data};
            *da = (struct ArrowArray){.length = 3, .n_buffers = 3, .buffers = db, .release = rel_array};
            ca->dictionary = da;
            break;
        }
        case 10: b[1] = tm_us; break;
        }
        s->children[j] = cs;
        a->children[j] = ca;
    }
}

/* ---- reading the export --------------------------------------------------------------------- */

static int bit(const struct ArrowArray *a, int64_t i) {
    const uint8_t *v = a->buffers[0];
    return !v || (v[(a->offset + i) / 8] >> ((a->offset + i) % 8) & 1);
}

typedef struct {
    struct ArrowSchema s;
    struct ArrowArray a;
    int rc;
    const void *col0;   /* rx_result_column's data of column 0 */
} Exported;

static int take(void *ud, const RxResult *r) {
    Exported *e = ud;
    e->rc = rx_result_arrow(r, -1, &e->s, &e->a);
    RxColumnOut c;
    e->col0 = rx_result_column(r, 0, &c) == 0 ? c.data : NULL;
    return 0;
}

static void test_round_trip(void) {
    struct ArrowSchema s;
    struct ArrowArray a;
    make_batch(&s, &a);
    schema_releases = array_releases = 0;
    RxSession *x = rx_open();
    int rc = rx_register_arrow(x, "A", &s, &a);
    if (rc) fprintf(stderr, "%s", rx_errmsg(x));
    CHECK(rc == 0);
    CHECK(s.release == NULL && a.release == NULL);        /* moved */
    CHECK(schema_releases == 1 && array_releases == 0);  /* the schema at once, the array kept */
    Exported e = {0};
    const char *q = "query { A };";
    CHECK(rx_exec(x, q, strlen(q), "a.rx", take, &e) == 0);
    CHECK(e.rc == 0);
    CHECK(e.col0 == (const void *)(id + 1));   /* int64 read in place at the batch's offset */
    rx_close(x);
    CHECK(array_releases == 1);                          /* at rx_close, once */

    /* the export after its result and session are gone */
    CHECK(strcmp(e.s.format, "+s") == 0 && e.s.n_children == NCOL && e.a.length == 4 && e.a.n_children == NCOL);
    struct ArrowArray **c = e.a.children;
    struct ArrowSchema **cs = e.s.children;
    for (int j = 0; j < NCOL; j++) CHECK(strcmp(cs[j]->name, names[j]) == 0);
    CHECK(strcmp(cs[0]->format, "l") == 0 && c[0]->null_count == 1);
    const int64_t *oid = c[0]->buffers[1];
    CHECK(oid[0] == 1 && oid[1] == 2 && !bit(c[0], 2) && bit(c[0], 3) && oid[3] == 4);
    const double *opx = c[1]->buffers[1];
    CHECK(strcmp(cs[1]->format, "g") == 0 && opx[0] == 1.5 && opx[2] == -3.25 && opx[3] == 1e300);
    const int64_t *on = c[2]->buffers[1];
    CHECK(strcmp(cs[2]->format, "l") == 0 && on[0] == -7 && on[3] == 2147483647);
    const uint8_t *ob = c[3]->buffers[1];
    CHECK(strcmp(cs[3]->format, "b") == 0 && (ob[0] & 0xF) == 0x5);   /* rows 1 and 3 of 5 = batch rows 0, 2 */
    const int32_t *so = c[4]->buffers[1];
    const char *sd = c[4]->buffers[2];
    CHECK(strcmp(cs[4]->format, "u") == 0 && c[4]->null_count == 1);
    CHECK(so[1] - so[0] == 3 && memcmp(sd + so[0], "abc", 3) == 0 && so[2] == so[1]);
    CHECK(!bit(c[4], 2) && bit(c[4], 3) && memcmp(sd + so[3], "日", 3) == 0 && so[4] - so[3] == 3);
    const int32_t *lo = c[5]->buffers[1];
    CHECK(lo[1] - lo[0] == 2 && memcmp((const char *)c[5]->buffers[2] + lo[3], "dd", 2) == 0);
    const int64_t *ots = c[6]->buffers[1];
    CHECK(strcmp(cs[6]->format, "tsu:UTC") == 0 && ots[0] == 1767225600000000 && ots[1] == 1767225600000001 &&
          ots[3] == -1);
    const int32_t *od = c[7]->buffers[1];
    CHECK(strcmp(cs[7]->format, "tdD") == 0 && od[0] == 20454 && od[2] == -1);
    const int64_t *odur = c[8]->buffers[1];
    CHECK(strcmp(cs[8]->format, "tDu") == 0 && odur[0] == 1500000 && odur[1] == -2000000 && odur[3] == 86400000000);
    const int32_t *dso = c[9]->buffers[1];
    const char *dsd = c[9]->buffers[2];
    CHECK(strcmp(cs[9]->format, "u") == 0 && memcmp(dsd + dso[0], "GOOGL", 5) == 0 && memcmp(dsd + dso[1], "AAP", 3) == 0 &&
          memcmp(dsd + dso[3], "IBM", 3) == 0);
    const int64_t *otm = c[10]->buffers[1];
    CHECK(strcmp(cs[10]->format, "ttu") == 0 && otm[0] == 3600000000 && otm[2] == 86399999999);
    /* the consumer may move a child out before releasing the parent */
    struct ArrowArray moved = *c[3];
    c[3]->release = NULL;
    e.a.release(&e.a);
    e.s.release(&e.s);
    CHECK(e.a.release == NULL && e.s.release == NULL);
    CHECK(((const uint8_t *)moved.buffers[1])[0] == 0x5);
    moved.release(&moved);
    CHECK(moved.release == NULL);
}

/* One column exported alone, and a query's result that matches the input row for row. */
static int take_one(void *ud, const RxResult *r) {
    Exported *e = ud;
    e->rc = rx_result_arrow(r, 1, &e->s, &e->a);
    struct ArrowSchema s2;
    struct ArrowArray a2;
    CHECK(rx_result_arrow(r, 7, &s2, &a2) == -1 && s2.release == NULL && a2.release == NULL);
    return 0;
}

static void test_query_and_column(void) {
    struct ArrowSchema s;
    struct ArrowArray a;
    make_batch(&s, &a);
    RxSession *x = rx_open();
    CHECK(rx_register_arrow(x, "A", &s, &a) == 0);
    Exported e = {0};
    const char *q = "query { π n32, dsym, sym (σ ts >= TIMESTAMP '2026-01-01T00:00:00.000001Z' ∧ flag (A)) };";
    CHECK(rx_exec(x, q, strlen(q), "q.rx", take_one, &e) == 0);
    rx_close(x);
    CHECK(e.rc == 0 && strcmp(e.s.format, "u") == 0 && e.a.length == 1);   /* batch row 2: n32 9, dsym GOOGL */
    const int32_t *o = e.a.buffers[1];
    CHECK(e.a.length == 1 && o[1] - o[0] == 5 && memcmp((const char *)e.a.buffers[2] + o[0], "GOOGL", 5) == 0);
    e.a.release(&e.a);
    e.s.release(&e.s);
}

/* Errors name the column; the structs are released all the same. */
static void test_errors(void) {
    struct ArrowSchema s;
    struct ArrowArray a;
    RxSession *x = rx_open();
    make_batch(&s, &a);
    s.children[2]->format = "+l";
    schema_releases = array_releases = 0;
    CHECK(rx_register_arrow(x, "A", &s, &a) != 0);
    CHECK(rx_errcode(x) == RX_ERR_UNSUPPORTED);
    CHECK(strstr(rx_errmsg(x), "Arrow column 'n32' of 'A' has Arrow format '+l'") != NULL);
    CHECK(schema_releases == 1 && array_releases == 1 && s.release == NULL && a.release == NULL);
    /* nanoseconds that are not whole microseconds */
    make_batch(&s, &a);
    ts_ns[2] += 1;
    CHECK(rx_register_arrow(x, "A", &s, &a) != 0);
    CHECK(strstr(rx_errmsg(x), "'ts' of 'A' has nanoseconds that are not a whole microsecond") != NULL &&
          strstr(rx_errmsg(x), "at row 2") != NULL);
    ts_ns[2] -= 1;
    /* a dictionary index out of range */
    make_batch(&s, &a);
    dsym_idx[3] = 3;
    CHECK(rx_register_arrow(x, "A", &s, &a) != 0 && strstr(rx_errmsg(x), "'dsym' of 'A' has a dictionary index out of range at row 3"));
    dsym_idx[3] = 2;
    /* not a struct; a name taken */
    make_batch(&s, &a);
    CHECK(rx_register_arrow(x, "A", &s, &a) == 0);
    make_batch(&s, &a);
    CHECK(rx_register_arrow(x, "A", &s, &a) != 0 && rx_errcode(x) == RX_ERR_NAME && a.release == NULL);
    make_batch(&s, &a);
    s.format = "l";
    CHECK(rx_register_arrow(x, "B", &s, &a) != 0 && strstr(rx_errmsg(x), "record batch"));
    schema_releases = array_releases = 0;
    rx_close(x);
    CHECK(array_releases == 1);   /* the one registered */
}

/* n rows (10M unless the command line says fewer, as under valgrind) of int64 and double: read
 * in place, the engine's memory grows by headers only. */
static void release_big(struct ArrowArray *a) {
    array_releases++;
    for (int j = 0; j < 2; j++) {
        free((void *)a->children[j]->buffers);
        free(a->children[j]);
    }
    free(a->children);
    a->release = NULL;
}

static void test_big(size_t n) {
    int64_t *v = malloc(n * sizeof *v);
    double *f = malloc(n * sizeof *f);
    for (size_t i = 0; i < n; i++) v[i] = (int64_t)i, f[i] = (double)i * 0.25;
    static struct ArrowSchema c0 = {.format = "l", .name = "v"}, c1 = {.format = "g", .name = "f"};
    static struct ArrowSchema *sch[2] = {&c0, &c1};
    struct ArrowSchema s = {.format = "+s", .name = "", .n_children = 2, .children = sch, .release = rel_schema};
    struct ArrowArray **ch = malloc(2 * sizeof *ch);
    for (int j = 0; j < 2; j++) {
        ch[j] = calloc(1, sizeof **ch);
        const void **b = calloc(2, sizeof *b);
        b[1] = j ? (const void *)f : (const void *)v;
        *ch[j] = (struct ArrowArray){.length = (int64_t)n, .n_buffers = 2, .buffers = b};
    }
    struct ArrowArray a = {.length = (int64_t)n, .n_children = 2, .children = ch, .release = release_big};
    RxSession *x = rx_open();
    array_releases = 0;
    size_t before = rx_memory_used();
    /* rel_schema frees children and the pointer array: give it heap copies */
    s.children = malloc(2 * sizeof *s.children);
    s.children[0] = malloc(sizeof c0);
    s.children[1] = malloc(sizeof c1);
    *s.children[0] = c0;
    *s.children[1] = c1;
    CHECK(rx_register_arrow(x, "Big", &s, &a) == 0);
    size_t grew = rx_memory_used() - before;
    CHECK(grew < 65536);   /* 160 MB if copied */
    const char *q = "query { γ count(*) → n, sum(v) → s, max(f) → m (Big) };";
    Exported e = {0};
    CHECK(rx_exec(x, q, strlen(q), "big.rx", take, &e) == 0 && e.rc == 0);
    const int64_t *cnt = e.a.children[0]->buffers[1];
    const int64_t *sum = e.a.children[1]->buffers[1];
    const double *mx = e.a.children[2]->buffers[1];
    CHECK(cnt[0] == (int64_t)n && sum[0] == (int64_t)(n * (n - 1) / 2) && mx[0] == (double)(n - 1) * 0.25);
    e.a.release(&e.a);
    e.s.release(&e.s);
    rx_close(x);
    CHECK(array_releases == 1);
    free(v);
    free(f);
}

int main(int argc, char **argv) {
    test_round_trip();
    test_query_and_column();
    test_errors();
    test_big(argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 10000000);
    return check_report("arrow");
}
