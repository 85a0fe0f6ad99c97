/*
 * test_ooc.c - the spill format (src/exec/spill.c) and the out-of-core AS-OF and interval
 * joins (src/exec/ooc.c).
 *
 * The spill round trip writes every type with NULLs (NaN, -0, long and empty TEXT, durations)
 * in records of random sizes, compressed and not, and reads it back both record by record and
 * whole. The joins are tested differentially against the in-memory operator (exec_run over the
 * same plan node): random inputs with NULLs, duplicates and ties, cut into random chunk sizes,
 * with a partition size small enough to force many partitions and recursive splits; AS-OF in
 * every direction, both tie rules, inner or not, with or without WITHIN, on one or two keys
 * (an INT key beside a FLOAT key, a DATE key beside a TIMESTAMP key); IJOIN in every supported
 * relation, with and without an equality key, on INT, FLOAT-beside-INT, DATE-beside-TIMESTAMP
 * and TEXT endpoints, including inverted and empty intervals. Every run checks that its
 * temporary directory is gone. Then the failures: one hot key too big for the budget, a full
 * temporary directory (an injected ENOSPC through rx_temp_fail_after: portable and exact, where
 * a tiny file system needs root), an interrupt (SIGINT raised in the middle of the spill, the
 * CLI's way: the handler sets the flag), and SIGTERM killing a child process mid-spill whose
 * handler is the CLI's (rx_outfile_signal_cleanup): no temporary file or directory remains.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/tempfile.h"
#include "check.h"
#include "exec/exec.h"
#include "exec/ooc.h"
#include "exec/spill.h"

static uint64_t rng_state = 0x1234567;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

static char base_dir[] = "/tmp/relix-test-ooc-XXXXXX";

/* Entries in base_dir besides . and .. */
static int leftovers(void) {
    DIR *d = opendir(base_dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* ---- random columns ------------------------------------------------------------------------- */

static const char *const WORDS[] = {"", "a", "b", "ab", "abcdefgh", "abcdefghi", "AAPL", "MSFT",
                                    "longer text with spaces and ünïcode", "z"};

/* A column of n random values of type t in [0, range) (TEXT: from WORDS), NULL with
 * probability null_pct percent. */
static Column *rand_col(RxType t, size_t n, int64_t range, int null_pct) {
    ColBuilder b;
    char buf[32];
    colb_init(&b, t, n);
    for (size_t i = 0; i < n; i++) {
        if ((int)below(100) < null_pct) {
            colb_push_null(&b);
            continue;
        }
        Value v = {.type = t};
        int64_t x = (int64_t)below((uint64_t)range);
        switch (t) {
        case TY_INT: case TY_TIMESTAMP: v.v.i = x; break;
        case TY_TIME: v.v.i = x % US_PER_DAY; break;
        case TY_DATE: v.v.date = (int32_t)x; break;
        case TY_FLOAT: {
            uint64_t k = below(20);
            v.v.f = k == 0 ? NAN : k == 1 ? -0.0 : k == 2 ? 0.0 : (double)x;
            break;
        }
        case TY_BOOL: v.v.b = x & 1; break;
        case TY_TEXT:
            if (range > 10) {   /* numbers as text, in order */
                snprintf(buf, sizeof buf, "%05lld", (long long)x);
                v.v.s.ptr = buf;
            } else {
                v.v.s.ptr = WORDS[x % 10];
            }
            v.v.s.len = strlen(v.v.s.ptr);
            break;
        case TY_DURATION: v.v.d.months = x % 3; v.v.d.us = (x % 5) * US_PER_DAY; break;
        case TY_NULL: break;
        }
        colb_push(&b, &v);
    }
    return colb_finish(&b);
}

static Table *make_table(int n_cols, size_t n, const RxType *types, const int64_t *ranges, const int *nulls,
                         const char *prefix) {
    Table *t = table_new(n_cols, n);
    for (int c = 0; c < n_cols; c++) {
        char name[32];
        snprintf(name, sizeof name, "%s%d", prefix, c);
        table_set(t, c, rand_col(types[c], n, ranges[c], nulls[c]), name);
    }
    return t;
}

static bool cell_equal(const Column *a, size_t i, const Column *b, size_t j) {
    bool na = col_is_null(a, i), nb = col_is_null(b, j);
    if (na || nb) return na == nb;
    if (a->type != b->type) return false;
    if (a->type == TY_TEXT) {
        RxStr x = col_str(a)[i], y = col_str(b)[j];
        return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
    }
    size_t w = type_width(a->type);
    return memcmp((const char *)a->data + i * w, (const char *)b->data + j * w, w) == 0;
}

/* The chunks of src concatenated, compared row by row with want; closes src. */
static bool same_rows(ChunkSrc *src, const Table *want, const char *what) {
    size_t at = 0;
    bool ok = true;
    for (;;) {
        Table *t;
        RxError err = {0};
        int rc = chunk_src_next(src, &t, &err);
        if (rc < 0) {
            fprintf(stderr, "%s: %s\n", what, err.msg);
            ok = false;
            break;
        }
        if (rc == 0) break;
        if (t->n_cols != want->n_cols || t->n_rows == 0) ok = false;
        for (size_t i = 0; ok && i < t->n_rows; i++, at++) {
            if (at >= want->n_rows) {
                ok = false;
                break;
            }
            for (int c = 0; ok && c < t->n_cols; c++)
                if (!t->cols[c]->pruned && !cell_equal(t->cols[c], i, want->cols[c], at)) {
                    fprintf(stderr, "%s: row %zu column %d differs\n", what, at, c);
                    ok = false;
                }
        }
        table_free(t);
        if (!ok) break;
    }
    chunk_src_close(src);
    if (ok && at != want->n_rows) {
        fprintf(stderr, "%s: %zu rows, want %zu\n", what, at, want->n_rows);
        ok = false;
    }
    return ok;
}

/* ---- the spill round trip ------------------------------------------------------------------- */

static void test_spill_roundtrip(void) {
    static const RxType types[] = {TY_INT, TY_FLOAT, TY_BOOL, TY_TEXT, TY_TIMESTAMP, TY_DATE, TY_TIME, TY_DURATION};
    static const int64_t ranges[] = {1000, 50, 2, 10, 1000000, 20000, 1000000000, 100};
    static const int nulls[] = {10, 10, 10, 20, 5, 5, 5, 5};
    for (int compress = 0; compress < 3; compress++) {
        spill_force_compress(compress == 2 ? -1 : compress);
        RxError err = {0};
        RxTempDir *d = rx_tempdir_open(base_dir, &err);
        CHECK(d != NULL);
        size_t n = 3000;
        Table *t = make_table(8, n, types, ranges, nulls, "c");
        SpillFile *f = spill_create(d, t, compress, &err);
        CHECK(f != NULL);
        /* records of random sizes, some of several slices */
        size_t sizes[] = {1, 7, 64, 65, 500, 1000};
        ChunkSrc *src = stream_table_src_sizes(t, sizes, 6);
        Table *chunk[3];
        int k = 0;
        for (;;) {
            int rc = chunk_src_next(src, &chunk[k], &err);
            if (rc > 0) k++;
            if (k == 3 || (rc == 0 && k > 0)) {
                CHECK(spill_write(f, chunk, k, &err) == 0);
                for (int i = 0; i < k; i++) table_free(chunk[i]);
                k = 0;
            }
            if (rc <= 0) break;
        }
        chunk_src_close(src);
        CHECK(spill_rows(f) == n);
        CHECK(same_rows(spill_src(f), t, "spill records"));
        Table *all = NULL;
        CHECK(spill_load(f, &all, &err) == 0);
        CHECK(all && all->n_rows == n);
        CHECK(all && same_rows(stream_table_src(all, 0), t, "spill whole"));
        for (int c = 0; all && c < 8; c++) CHECK(strcmp(all->names[c], t->names[c]) == 0);
        table_free(all);
        spill_close(f);
        table_free(t);
        rx_tempdir_close(d);
        CHECK(leftovers() == 0);
    }
    spill_force_compress(-1);
}

/* ---- plans ---------------------------------------------------------------------------------- */

typedef struct {
    LPlan lp, lin, rin;
    PNode p, pl, pr;
    ColInfo cols[32], lcols[16], rcols[16];
    int lkeys[2], rkeys[2];
    char names[32][16];
} Plan;

static void plan_init(Plan *pl, PnKind kind, Table *l, Table *r) {
    memset(pl, 0, sizeof *pl);
    for (int side = 0; side < 2; side++) {
        Table *t = side ? r : l;
        LPlan *in = side ? &pl->rin : &pl->lin;
        ColInfo *ci = side ? pl->rcols : pl->lcols;
        for (int c = 0; c < t->n_cols; c++) {
            ci[c].name = ci[c].base = t->names[c];
            ci[c].type = t->cols[c]->type;
        }
        in->kind = LP_SCAN;
        in->schema.n = t->n_cols;
        in->schema.cols = ci;
        in->table = t;
        in->rel_name = side ? "r" : "l";
        PNode *pn = side ? &pl->pr : &pl->pl;
        pn->kind = PN_SCAN;
        pn->lp = in;
        pn->id = side + 1;
    }
    int n = 0;
    for (int side = 0; side < 2; side++) {
        Table *t = side ? r : l;
        for (int c = 0; c < t->n_cols; c++, n++) {
            snprintf(pl->names[n], sizeof pl->names[n], "o%d", n);
            pl->cols[n].name = pl->cols[n].base = pl->names[n];
            pl->cols[n].type = t->cols[c]->type;
        }
    }
    pl->lp.kind = kind == PN_ASOF ? LP_ASOF : LP_IJOIN;
    pl->lp.schema.n = n;
    pl->lp.schema.cols = pl->cols;
    pl->lp.in[0] = &pl->lin;
    pl->lp.in[1] = &pl->rin;
    pl->lp.lkeys = pl->lkeys;
    pl->lp.rkeys = pl->rkeys;
    pl->p.kind = kind;
    pl->p.lp = &pl->lp;
    pl->p.in[0] = &pl->pl;
    pl->p.in[1] = &pl->pr;
}

static char temp_base[64];

/* Runs the plan in memory and out of core (chunks of random sizes) and compares. */
static bool differential(Plan *pl, Table *l, Table *r, const char *what) {
    ExecCtx x = {.temp_dir = temp_base};
    RxError err = {0};
    Table *want = NULL;
    if (exec_run(&x, &pl->p, &want, &err) < 0) {
        fprintf(stderr, "%s: in memory: %s\n", what, err.msg);
        return false;
    }
    size_t ls[3] = {1 + below(300), 1 + below(50), 1 + below(2000)}, rs[2] = {1 + below(500), 1 + below(7)};
    ChunkSrc *src = ooc_join_open(&x, &pl->p, stream_table_src_sizes(l, ls, 3), stream_table_src_sizes(r, rs, 2),
                                  &err);
    bool ok;
    if (!src) {
        fprintf(stderr, "%s: out of core: %s\n", what, err.msg);
        ok = false;
    } else {
        ok = same_rows(src, want, what);
    }
    table_free(want);
    if (leftovers() != 0) {
        fprintf(stderr, "%s: temporary files left\n", what);
        ok = false;
    }
    return ok;
}

/* ---- AS-OF ---------------------------------------------------------------------------------- */

static void test_asof(void) {
    int failures = 0;
    for (int round = 0; round < 240; round++) {
        size_t nl = below(4) == 0 ? below(20) : 200 + below(3000), nr = below(5) == 0 ? below(10) : 100 + below(3000);
        int variant = (int)below(3);
        /* left: key1, key2, match, payload TEXT, payload FLOAT; right: key1, key2, match, payload */
        RxType lt[] = {TY_INT, TY_TEXT, TY_TIMESTAMP, TY_TEXT, TY_FLOAT};
        RxType rt[] = {variant == 1 ? TY_FLOAT : TY_INT, TY_TEXT, variant == 2 ? TY_DATE : TY_TIMESTAMP, TY_INT};
        if (variant == 2) lt[2] = TY_TIMESTAMP;
        int64_t keys = 1 + (int64_t)below(below(2) ? 5 : 200);
        int64_t lr[] = {keys, 10, variant == 2 ? 30 * US_PER_DAY : 5000, 10, 100};
        int64_t rr[] = {keys, 10, variant == 2 ? 30 : 5000, 1000};
        int ln[] = {(int)below(10), (int)below(10), (int)below(10), 20, 10};
        int rn[] = {(int)below(10), (int)below(10), (int)below(10), 10};
        Table *l = make_table(5, nl, lt, lr, ln, "l");
        Table *r = make_table(4, nr, rt, rr, rn, "r");
        Plan pl;
        plan_init(&pl, PN_ASOF, l, r);
        pl.lp.dir = (AsofDir)below(4);
        pl.lp.ties_first = below(2);
        pl.lp.inner = below(2);
        pl.lp.has_within = below(3) == 0;
        pl.lp.within.us = (int64_t)below(variant == 2 ? 5 * US_PER_DAY : 300);
        pl.lp.n_keys = (int)below(3);
        pl.lkeys[0] = pl.rkeys[0] = 0;
        pl.lkeys[1] = pl.rkeys[1] = 1;
        pl.lp.lmatch = pl.lp.rmatch = 2;
        /* a partition holds at least a few keys' rows (one key's rows cannot be split) */
        size_t per_key = (nl * 100 + nr * 80) / (pl.lp.n_keys ? (size_t)keys : 20);
        ooc_set_partition_bytes(below(4) == 0 ? 0 : 4 * per_key + 2000 + below(30000));
        char what[128];
        snprintf(what, sizeof what, "asof round %d (%zu x %zu, %s%s%s, keys %d, variant %d)", round, nl, nr,
                 asof_dir_name(pl.lp.dir), pl.lp.inner ? " inner" : "", pl.lp.has_within ? " within" : "",
                 pl.lp.n_keys, variant);
        if (!differential(&pl, l, r, what)) failures++;
        table_free(l);
        table_free(r);
    }
    ooc_set_partition_bytes(0);
    CHECK(failures == 0);
}

/* ---- IJOIN ---------------------------------------------------------------------------------- */

static void test_ijoin(void) {
    int failures = 0;
    for (int round = 0; round < 160; round++) {
        IjRelation rel = (IjRelation)below(IJ_EQUALS + 1);
        if (rel == IJ_PRECEDES || rel == IJ_PRECEDED_BY) rel = IJ_INTERSECTS;
        int variant = (int)below(4);   /* INT; FLOAT beside INT; DATE beside TIMESTAMP; TEXT */
        RxType ls_t = variant == 2 ? TY_DATE : TY_INT;   /* TEXT: made from INT below */
        RxType rs_t = variant == 2 ? TY_TIMESTAMP : variant == 1 ? TY_FLOAT : TY_INT;
        size_t nl = below(5) == 0 ? below(30) : 100 + below(1500), nr = below(5) == 0 ? below(30) : 100 + below(1500);
        int64_t span = variant == 2 ? 200 : 2000;
        /* start, end, key, payload */
        RxType lt[] = {ls_t, ls_t, TY_INT, TY_TEXT};
        RxType rt[] = {rs_t, rs_t, TY_INT, TY_FLOAT};
        int64_t lr[] = {span, span, 4, 10}, rr[] = {variant == 2 ? span * US_PER_DAY : span, variant == 2 ? span * US_PER_DAY : span, 4, 100};
        int ln[] = {3, 3, 5, 10}, rn[] = {3, 3, 5, 10};
        Table *l = make_table(4, nl, lt, lr, ln, "l");
        Table *r = make_table(4, nr, rt, rr, rn, "r");
        /* mostly short intervals: end = start + a little, sometimes inverted or empty */
        for (int side = 0; side < 2; side++) {
            Table *t = side ? r : l;
            for (size_t i = 0; i < t->n_rows; i++) {
                int64_t len = (int64_t)below(6) - 1;
                if (below(50) == 0) len = (int64_t)below(span);
                Column *s = t->cols[0], *e = t->cols[1];
                if (s->type == TY_DATE) col_i32(e)[i] = col_i32(s)[i] + (int32_t)len;
                else if (s->type == TY_FLOAT) col_f64(e)[i] = col_f64(s)[i] + (double)len;
                else if (s->type == TY_TIMESTAMP) col_i64(e)[i] = col_i64(s)[i] + len * US_PER_DAY;
                else col_i64(e)[i] = col_i64(s)[i] + len;
            }
        }
        for (int side = 0; side < 2 && variant == 3; side++)
            for (int c = 0; c < 2; c++) {
                Table *t = side ? r : l;
                ColBuilder b;
                colb_init(&b, TY_TEXT, t->n_rows);
                for (size_t i = 0; i < t->n_rows; i++) {
                    char buf[32];
                    if (col_is_null(t->cols[c], i)) {
                        colb_push_null(&b);
                        continue;
                    }
                    snprintf(buf, sizeof buf, "%05lld", (long long)col_i64(t->cols[c])[i]);
                    Value v = {.type = TY_TEXT, .v.s = {buf, strlen(buf)}};
                    colb_push(&b, &v);
                }
                char name[16];
                snprintf(name, sizeof name, "%s", t->names[c]);   /* table_set frees the old name */
                table_set(t, c, colb_finish(&b), name);
            }
        Plan pl;
        plan_init(&pl, PN_IJOIN, l, r);
        pl.lp.relation = rel;
        pl.lp.ends[0] = 0, pl.lp.ends[1] = 1, pl.lp.ends[2] = 0, pl.lp.ends[3] = 1;
        pl.lp.n_keys = (int)below(2);
        pl.lkeys[0] = pl.rkeys[0] = 2;
        /* a partition holds the intervals that span everything and a few start points' rows */
        ooc_set_partition_bytes(below(4) == 0 ? 0 : 40000 + below(40000));
        char what[128];
        snprintf(what, sizeof what, "ijoin round %d (%zu x %zu, %s, keys %d, variant %d)", round, nl, nr,
                 ij_relation_name(rel), pl.lp.n_keys, variant);
        if (!differential(&pl, l, r, what)) failures++;
        table_free(l);
        table_free(r);
    }
    ooc_set_partition_bytes(0);
    CHECK(failures == 0);
    Plan pl;
    pl.p.kind = PN_IJOIN;
    pl.lp.relation = IJ_PRECEDES;
    pl.p.lp = &pl.lp;
    CHECK(!ooc_join_supported(&pl.p));
}

/* ---- failures ------------------------------------------------------------------------------- */

/* An AS-OF plan over l and r on key 0, match 2 (tables of test_asof's shape). */
static Table *fail_l, *fail_r;
static Plan fail_plan;
static void make_fail_inputs(size_t n, int64_t keys) {
    RxType lt[] = {TY_INT, TY_TEXT, TY_TIMESTAMP, TY_TEXT, TY_FLOAT}, rt[] = {TY_INT, TY_TEXT, TY_TIMESTAMP, TY_INT};
    int64_t lr[] = {keys, 10, 5000, 10, 100}, rr[] = {keys, 10, 5000, 1000};
    int ln[] = {0, 0, 0, 0, 0}, rn[] = {0, 0, 0, 0};
    fail_l = make_table(5, n, lt, lr, ln, "l");
    fail_r = make_table(4, n, rt, rr, rn, "r");
    plan_init(&fail_plan, PN_ASOF, fail_l, fail_r);
    fail_plan.lp.n_keys = 1;
    fail_plan.lp.lmatch = fail_plan.lp.rmatch = 2;
}
static void free_fail_inputs(void) {
    table_free(fail_l);
    table_free(fail_r);
}

static void test_hot_key(void) {
    make_fail_inputs(5000, 1);   /* one key: no split can divide it */
    ooc_set_partition_bytes(20000);
    ExecCtx x = {.temp_dir = temp_base};
    RxError err = {0};
    ChunkSrc *src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 700), stream_table_src(fail_r, 300), &err);
    CHECK(src == NULL);
    CHECK(err.code == RX_ENOMEM);
    CHECK(strstr(err.msg, "AsOfJoin") != NULL);
    CHECK(strstr(err.msg, "one join key") != NULL);
    CHECK(strstr(err.hint, "--memory-limit") != NULL);
    CHECK(leftovers() == 0);
    /* without keys, one match value (ranges cannot divide it) */
    fail_plan.lp.n_keys = 0;
    for (size_t i = 0; i < fail_l->n_rows; i++) col_i64(fail_l->cols[2])[i] = 7;
    for (size_t i = 0; i < fail_r->n_rows; i++) col_i64(fail_r->cols[2])[i] = 7;
    rx_error_clear(&err);
    src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 700), stream_table_src(fail_r, 300), &err);
    CHECK(src == NULL);
    CHECK(err.code == RX_ENOMEM);
    CHECK(strstr(err.msg, "the rows of one match value") != NULL);
    chunk_src_close(src);
    CHECK(leftovers() == 0);
    ooc_set_partition_bytes(0);
    free_fail_inputs();
    /* IJOIN: every interval starts at one point */
    RxType t[] = {TY_INT, TY_INT, TY_TEXT};
    int64_t range[] = {1, 1, 10};
    int nulls[] = {0, 0, 0};
    Table *l = make_table(3, 3000, t, range, nulls, "l"), *r = make_table(3, 3000, t, range, nulls, "r");
    Plan pl;
    plan_init(&pl, PN_IJOIN, l, r);
    pl.lp.relation = IJ_EQUALS;
    pl.lp.ends[0] = pl.lp.ends[2] = 0;
    pl.lp.ends[1] = pl.lp.ends[3] = 1;
    ooc_set_partition_bytes(20000);
    rx_error_clear(&err);
    src = ooc_join_open(&x, &pl.p, stream_table_src(l, 500), stream_table_src(r, 500), &err);
    CHECK(src == NULL);
    CHECK(err.code == RX_ENOMEM);
    CHECK(strstr(err.msg, "IntervalJoin EQUALS") == err.msg);
    CHECK(strstr(err.msg, "no split can divide") != NULL);
    CHECK(leftovers() == 0);
    ooc_set_partition_bytes(0);
    table_free(l);
    table_free(r);
}

static void test_full_disk(void) {
    make_fail_inputs(20000, 50);
    ExecCtx x = {.temp_dir = temp_base};
    RxError err = {0};
    rx_temp_fail_after(50000, ENOSPC);
    ChunkSrc *src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 1000), stream_table_src(fail_r, 1000), &err);
    rx_temp_fail_after(0, 0);
    CHECK(src == NULL);
    CHECK(err.code == RX_EIO);
    CHECK(strstr(err.msg, "the temporary directory /tmp/relix-test-ooc-") == err.msg);
    CHECK(strstr(err.msg, "is full (wrote ") != NULL);
    CHECK(strstr(err.msg, "--temp-dir") != NULL);
    CHECK(leftovers() == 0);
    chunk_src_close(src);
    /* a temporary directory that cannot be made names its parent */
    ExecCtx bad = {.temp_dir = "/nonexistent-relix-dir"};
    rx_error_clear(&err);
    src = ooc_join_open(&bad, &fail_plan.p, stream_table_src(fail_l, 1000), stream_table_src(fail_r, 1000), &err);
    CHECK(src == NULL);
    CHECK(strstr(err.msg, "/nonexistent-relix-dir") != NULL);
    free_fail_inputs();
}

/* The budget itself (rx_set_memory_limit, no forced partition size): a join over inputs
 * larger than what the budget leaves runs in partitions and gives the in-memory result; a
 * budget with next to nothing left is an error naming the operator and the budget. */
static void test_budget(void) {
    make_fail_inputs(300000, 3000);
    fail_plan.lp.n_keys = 1;
    ExecCtx x = {.temp_dir = temp_base};
    RxError err = {0};
    Table *want = NULL;
    CHECK(exec_run(&x, &fail_plan.p, &want, &err) == 0);
    size_t used = rx_memory_used();
    rx_set_memory_limit(used + ((size_t)24 << 20));
    ChunkSrc *src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 0), stream_table_src(fail_r, 0), &err);
    CHECK(src != NULL);
    if (!src) fprintf(stderr, "budget: %s\n", err.msg);
    if (src) CHECK(same_rows(src, want, "within a 24 MB budget"));
    CHECK(leftovers() == 0);
    rx_set_memory_limit(used + ((size_t)1 << 20));
    rx_error_clear(&err);
    src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 0), stream_table_src(fail_r, 0), &err);
    rx_set_memory_limit(0);
    CHECK(src == NULL);
    CHECK(err.code == RX_ENOMEM);
    CHECK(strstr(err.msg, "AsOfJoin") == err.msg);
    CHECK(strstr(err.msg, "the memory budget of ") != NULL);
    CHECK(leftovers() == 0);
    table_free(want);
    free_fail_inputs();
}

/* A source that raises a signal before its k-th chunk. */
typedef struct {
    ChunkSrc base;
    ChunkSrc *in;
    int k, sig;
} SigSrc;
static int sig_next(ChunkSrc *s, Table **out, RxError *err) {
    SigSrc *ss = (SigSrc *)s;
    if (--ss->k == 0) raise(ss->sig);
    return chunk_src_next(ss->in, out, err);
}
static void sig_close(ChunkSrc *s) {
    chunk_src_close(((SigSrc *)s)->in);
    free(s);
}
static ChunkSrc *sig_src(ChunkSrc *in, int k, int sig) {
    SigSrc *s = calloc(1, sizeof *s);
    s->base.next = sig_next;
    s->base.close = sig_close;
    s->in = in;
    s->k = k;
    s->sig = sig;
    return &s->base;
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}
/* The CLI's SIGTERM handler: remove the temporaries, then die of the signal. */
static void on_sigterm(int sig) {
    rx_outfile_signal_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void test_signals(void) {
    make_fail_inputs(20000, 50);
    /* Ctrl-C: the handler sets the flag, the join stops at its next check and cleans up */
    signal(SIGINT, on_sigint);
    ExecCtx x = {.temp_dir = temp_base, .interrupt = &interrupted};
    RxError err = {0};
    ChunkSrc *src = ooc_join_open(&x, &fail_plan.p, stream_table_src(fail_l, 1000),
                                  sig_src(stream_table_src(fail_r, 1000), 5, SIGINT), &err);
    CHECK(interrupted == 1);
    CHECK(src == NULL);
    CHECK(err.code == RX_EINTERRUPT);
    CHECK(leftovers() == 0);
    signal(SIGINT, SIG_DFL);
    interrupted = 0;
    /* SIGTERM in a child mid-spill: the process dies, and nothing is left */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGTERM, on_sigterm);
        ExecCtx cx = {.temp_dir = temp_base};
        RxError cerr = {0};
        ChunkSrc *s = ooc_join_open(&cx, &fail_plan.p, stream_table_src(fail_l, 1000),
                                    sig_src(stream_table_src(fail_r, 1000), 5, SIGTERM), &cerr);
        (void)s;
        _exit(0);   /* not reached */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    CHECK(leftovers() == 0);
    free_fail_inputs();
}

int main(void) {
    if (!mkdtemp(base_dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(temp_base, sizeof temp_base, "%s", base_dir);
    test_spill_roundtrip();
    test_asof();
    test_ijoin();
    test_hot_key();
    test_budget();
    test_full_disk();
    test_signals();
    spill_release_buffers();
    rmdir(base_dir);
    return check_report("test_ooc");
}
