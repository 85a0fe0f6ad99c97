/*
 * test_stream_join.c - the one-pass AS-OF and interval joins (src/exec/stream_join.c) against
 * the in-memory operators.
 *
 * Differential: random inputs sorted by their match (start) column, with NULLs anywhere in
 * the keys and the match columns, few distinct values (so ties within and across the inputs
 * are frequent), several key types and counts (TEXT, INT, FLOAT with -0 and NaN, a FLOAT key
 * against an INT one), every match type the streaming form takes (TIMESTAMP, INT, FLOAT, DATE,
 * DATE against TIMESTAMP, INT against FLOAT, DURATION), run once through exec_run (the
 * in-memory operator of the same physical plan) and once through stream_join_open over the
 * same tables cut into chunks of random sizes (1, 2, 7, 1000, ...); the concatenated chunks
 * must equal the in-memory result cell for cell: names, types, NULLs, bits (so -0 and NaN
 * payloads too), pruned placeholders. AS-OF: every direction, strictness, tie rule, INNER and
 * WITHIN. Interval join: every supported relation, empty intervals and (where the relation
 * allows them) inverted ones. Then the errors: an input out of order names the input, the
 * column and the row; an inverted interval where a relation's sweep cannot hold it is refused;
 * Ctrl-C stops both joins; a forward AS-OF whose waiting rows pass the memory limit says what
 * waits. Last, 150,000-row inputs with long TEXT values, which make the AS-OF store compact.
 */
#include "exec/stream_join.h"

#include "check.h"

#include <math.h>
#include <stdlib.h>

#include "exec/exec.h"
#include "exec/ooc.h"
#include "types/compare.h"

static uint64_t rng_state = 12345;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

/* ---- building tables ------------------------------------------------------------------------ */

static const char *WORDS[] = {"A", "B", "CC", "", "a longer key than eight bytes", "D", "e"};

static StrHeap *text_heap;

static RxStr word(void) {
    const char *w = WORDS[below(RX_ARRAY_LEN(WORDS))];
    size_t n = strlen(w);
    int64_t off = heap_append(text_heap, w, n);
    (void)off;
    return (RxStr){NULL, (uint64_t)off << 8 | n};  /* fixed up in fix_text */
}

/* TEXT slices hold (offset << 8 | length) until the heap stops growing. */
static void fix_text(Column *c) {
    for (size_t i = 0; i < c->n; i++) {
        RxStr *s = &col_str(c)[i];
        uint64_t v = s->len;
        s->ptr = text_heap->data + (v >> 8);
        s->len = v & 255;
    }
}

/* A random value of type t: ints from [0, range), FLOATs with -0 and NaN among them. */
static void put_value(Column *c, size_t i, int64_t range) {
    int64_t v = (int64_t)below((uint64_t)range);
    switch (c->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: col_i64(c)[i] = v * (c->type == TY_TIMESTAMP ? 1000 : 1); break;
    case TY_DATE: col_i32(c)[i] = (int32_t)v; break;
    case TY_FLOAT: {
        double d = (double)v - (double)range / 2;
        uint64_t k = below(20);
        if (k == 0) d = -0.0;
        else if (k == 1) d = 0.0;
        else if (k == 2) d = NAN;
        col_f64(c)[i] = d;
        break;
    }
    case TY_BOOL: col_u8(c)[i] = (uint8_t)(v & 1); break;
    case TY_DURATION:
        /* P1D and PT24H are one value: mix both spellings */
        if (below(2)) col_dur(c)[i] = (RxDuration){0, v * US_PER_DAY};
        else col_dur(c)[i] = (RxDuration){v / 30, (v % 30) * US_PER_DAY};
        break;
    case TY_TEXT: col_str(c)[i] = word(); break;
    default: break;
    }
}

static int64_t sort_code(const Column *c, size_t i) {
    switch (c->type) {
    case TY_DATE: return (int64_t)col_i32(c)[i] * US_PER_DAY;
    case TY_FLOAT: return rx_float_order_key(col_f64(c)[i]);
    case TY_DURATION: {
        int64_t s = 0;
        rx_dur_span64(col_dur(c)[i], &s);
        return s;
    }
    default: return col_i64(c)[i];
    }
}

static Column *rand_col(RxType t, size_t n, int64_t range, int null_pct) {
    Column *c = col_new(t, n);
    for (size_t i = 0; i < n; i++) {
        put_value(c, i, range);
        if ((int)below(100) < null_pct) col_set_null(c, i);
    }
    return c;
}

typedef struct {
    int64_t key;
    size_t at;
} SortItem;

static int cmp_item(const void *a, const void *b) {
    const SortItem *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->at > y->at) - (x->at < y->at);
}

/* Sorts the rows of column c by value, NULLs left where they are (they may be anywhere). */
static void sort_col(Column *c) {
    size_t n = c->n, k = 0, w = type_width(c->type);
    SortItem *it = malloc((n + 1) * sizeof *it);
    size_t *pos = malloc((n + 1) * sizeof *pos);
    char *vals = malloc((n + 1) * 16);
    for (size_t i = 0; i < n; i++)
        if (!col_is_null(c, i)) pos[k] = i, it[k] = (SortItem){sort_code(c, i), i}, k++;
    qsort(it, k, sizeof *it, cmp_item);
    for (size_t a = 0; a < k; a++) memcpy(vals + a * w, (char *)c->data + it[a].at * w, w);
    for (size_t a = 0; a < k; a++) memcpy((char *)c->data + pos[a] * w, vals + a * w, w);
    free(it), free(pos), free(vals);
}

typedef struct {
    Table *t;
    Schema sc;
    LPlan lp;
    PNode pn;
} Input;

static void input_init(Input *in, Column **cols, const char **names, int n) {
    in->t = table_new(n, cols[0]->n);
    in->sc.n = n;
    in->sc.cols = calloc((size_t)n, sizeof *in->sc.cols);
    for (int i = 0; i < n; i++) {
        if (cols[i]->type == TY_TEXT) {
            fix_text(cols[i]);
            col_add_heap(cols[i], text_heap);
        }
        col_compact_validity(cols[i]);
        table_set(in->t, i, cols[i], names[i]);
        in->sc.cols[i] = (ColInfo){.name = names[i], .base = names[i], .type = cols[i]->type};
    }
    memset(&in->lp, 0, sizeof in->lp);
    in->lp.kind = LP_SCAN;
    in->lp.schema = in->sc;
    in->lp.table = in->t;
    memset(&in->pn, 0, sizeof in->pn);
    in->pn.kind = PN_SCAN;
    in->pn.lp = &in->lp;
}

static void input_free(Input *in) {
    table_free(in->t);
    free(in->sc.cols);
}

/* ---- comparing ------------------------------------------------------------------------------ */

static bool cell_eq(const Column *a, size_t i, const Column *b, size_t j) {
    bool na = col_is_null(a, i), nb = col_is_null(b, j);
    if (na || nb) return na == nb;
    if (a->type == TY_TEXT) {
        RxStr x = col_str(a)[i], y = col_str(b)[j];
        return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
    }
    size_t w = type_width(a->type);
    return memcmp((const char *)a->data + i * w, (const char *)b->data + j * w, w) == 0;
}

/* A source that gives its inner source's chunks with a dictionary on every TEXT column (the
 * distinct strings in order of first appearance and each row's code, as the CSV reader gives
 * them), so that the key map's per-dictionary path runs. */
typedef struct {
    ChunkSrc base;
    ChunkSrc *in;
} DictSrc;

static void add_dict(Column *c) {
    if (c->type != TY_TEXT || c->pruned || c->codes) return;
    c->codes = rx_malloc((c->n ? c->n : 1) * sizeof *c->codes);
    c->dict = rx_malloc((c->n ? c->n : 1) * sizeof *c->dict);
    c->n_dict = 0;
    for (size_t i = 0; i < c->n; i++) {
        c->codes[i] = 0;
        if (col_is_null(c, i)) continue;
        RxStr v = col_str(c)[i];
        uint32_t d = 0;
        while (d < c->n_dict && !(c->dict[d].len == v.len && memcmp(c->dict[d].ptr, v.ptr, v.len) == 0)) d++;
        if (d == c->n_dict) c->dict[c->n_dict++] = v;
        c->codes[i] = d;
    }
}

static int dict_next(ChunkSrc *s, Table **out, RxError *err) {
    int rc = chunk_src_next(((DictSrc *)s)->in, out, err);
    if (rc > 0)
        for (int c = 0; c < (*out)->n_cols; c++) add_dict((*out)->cols[c]);
    return rc;
}

static void dict_close(ChunkSrc *s) {
    chunk_src_close(((DictSrc *)s)->in);
    free(s);
}

static ChunkSrc *dict_src(ChunkSrc *in) {
    DictSrc *d = calloc(1, sizeof *d);
    d->base.next = dict_next;
    d->base.close = dict_close;
    d->in = in;
    return &d->base;
}

static bool use_dicts;

static char last_err[1100];

/* Runs the streaming form of p over l and r cut into chunks, compares with want. Returns 0
 * when equal, 1 on a difference (printed), -1 on an error (in last_err). */
static int run_stream(PNode *p, const Table *l, const Table *r, const Table *want, const size_t *ls, size_t nls,
                      const size_t *rs, size_t nrs) {
    RxError err = {0};
    ExecCtx x = {0};
    ChunkSrc *lsrc = stream_table_src_sizes(l, ls, nls), *rsrc = stream_table_src_sizes(r, rs, nrs);
    if (use_dicts) lsrc = dict_src(lsrc), rsrc = dict_src(rsrc);
    ChunkSrc *src = stream_join_open(&x, p, lsrc, rsrc, &err);
    if (!src) {
        snprintf(last_err, sizeof last_err, "%s", err.msg);
        return -1;
    }
    size_t at = 0;
    int ret = 0;
    for (;;) {
        Table *t = NULL;
        int rc = chunk_src_next(src, &t, &err);
        if (rc < 0) {
            snprintf(last_err, sizeof last_err, "%s", err.msg);
            ret = -1;
            break;
        }
        if (rc == 0) break;
        if (t->n_rows == 0 || t->n_cols != want->n_cols) ret = 1;
        for (int c = 0; c < t->n_cols && ret == 0; c++) {
            const Column *g = t->cols[c], *w = want->cols[c];
            if (strcmp(t->names[c], want->names[c]) != 0 || g->type != w->type || g->pruned != w->pruned) ret = 1;
            for (size_t i = 0; i < t->n_rows && ret == 0 && !g->pruned; i++)
                if (at + i >= want->n_rows || !cell_eq(g, i, w, at + i)) {
                    fprintf(stderr, "  column %s row %zu differs\n", want->names[c], at + i);
                    ret = 1;
                }
        }
        at += t->n_rows;
        table_free(t);
        if (ret) break;
    }
    if (ret == 0 && at != want->n_rows) {
        fprintf(stderr, "  %zu rows streamed, %zu in memory\n", at, want->n_rows);
        ret = 1;
    }
    chunk_src_close(src);
    return ret;
}

static size_t pick_sizes(size_t *sz) {
    static const size_t fixed[] = {1, 2, 7, 1000};
    size_t n = 1 + below(3);
    for (size_t i = 0; i < n; i++) sz[i] = below(3) ? fixed[below(4)] : 1 + below(40);
    return n;
}

/* ---- AS-OF ---------------------------------------------------------------------------------- */

static const RxType MATCH[][2] = {
    {TY_TIMESTAMP, TY_TIMESTAMP}, {TY_INT, TY_INT}, {TY_FLOAT, TY_FLOAT}, {TY_DATE, TY_DATE},
    {TY_DATE, TY_TIMESTAMP}, {TY_INT, TY_FLOAT}, {TY_DURATION, TY_DURATION}, {TY_TIME, TY_TIME},
};
static const RxType KEYS[][2] = {{TY_TEXT, TY_TEXT}, {TY_INT, TY_INT}, {TY_FLOAT, TY_INT}, {TY_FLOAT, TY_FLOAT},
                                 {TY_BOOL, TY_BOOL}, {TY_DATE, TY_TIMESTAMP}};

typedef struct {
    int trials, diffs, errors;
} Tally;

static void asof_trial(Tally *tl, int dir, bool ties_first, bool inner, bool within, int nk) {
    size_t nl = below(120), nr = below(120);
    if (!below(10)) nl = 0;
    if (!below(10)) nr = 0;
    int mi = (int)below(RX_ARRAY_LEN(MATCH));
    if (within) {
        static const int w_ok[] = {0, 3, 6};
        mi = w_ok[below(3)];
    }
    int64_t range = 2 + (int64_t)below(40), krange = 1 + (int64_t)below(6);
    int null_pct = (int)below(3) * 5;
    int ki[2] = {(int)below(RX_ARRAY_LEN(KEYS)), (int)below(RX_ARRAY_LEN(KEYS))};
    /* left: k0 k1 ts v s; right: k0 k1 ts w s */
    Column *lc[5], *rc[5];
    for (int side = 0; side < 2; side++) {
        size_t n = side ? nr : nl;
        Column **c = side ? rc : lc;
        for (int k = 0; k < 2; k++) c[k] = rand_col(KEYS[ki[k]][side], n, krange, null_pct);
        c[2] = rand_col(MATCH[mi][side], n, range, null_pct);
        sort_col(c[2]);
        c[3] = rand_col(side ? TY_FLOAT : TY_INT, n, 1000, 10);
        c[4] = rand_col(TY_TEXT, n, 10, 10);
    }
    static const char *ln[] = {"k0", "k1", "ts", "v", "s"}, *rn[] = {"k0_r", "k1_r", "ts_r", "w", "s_r"};
    Input L, R;
    input_init(&L, lc, ln, 5);
    input_init(&R, rc, rn, 5);
    ColInfo oc[10];
    for (int i = 0; i < 5; i++) oc[i] = L.sc.cols[i], oc[5 + i] = R.sc.cols[i];
    int lk[2] = {0, 1}, rk[2] = {0, 1};
    if (nk == 1 && below(2)) lk[0] = rk[0] = 1;
    LPlan lp = {.kind = LP_ASOF, .schema = {10, oc}, .dir = (AsofDir)dir, .inner = inner, .ties_first = ties_first,
                .has_within = within, .within = {0, (int64_t)below(8) * (MATCH[mi][0] == TY_DATE ? US_PER_DAY : MATCH[mi][0] == TY_TIMESTAMP ? 1000 : US_PER_DAY)},
                .n_keys = nk, .lkeys = lk, .rkeys = rk, .lmatch = 2, .rmatch = 2};
    lp.in[0] = &L.lp, lp.in[1] = &R.lp;
    uint8_t needed[10];
    PNode p = {.kind = PN_ASOF, .lp = &lp, .in = {&L.pn, &R.pn}, .id = 2};
    if (below(3) == 0) {
        for (int i = 0; i < 10; i++) needed[i] = below(3) != 0;
        p.needed = needed;
    }
    L.pn.id = 0, R.pn.id = 1;
    CHECK(stream_join_supported(&p));
    RxError err = {0};
    ExecCtx x = {0};
    Table *want = NULL;
    if (exec_run(&x, &p, &want, &err) < 0) {
        fprintf(stderr, "in-memory ASOF failed: %s\n", err.msg);
        tl->errors++;
    } else {
        size_t ls[4], rs[4];
        size_t nls = pick_sizes(ls), nrs = pick_sizes(rs);
        use_dicts = below(2);
        int rc2 = run_stream(&p, L.t, R.t, want, ls, nls, rs, nrs);
        use_dicts = false;
        if (rc2 != 0) {
            fprintf(stderr, "ASOF dir=%d ties_first=%d inner=%d within=%d nk=%d match=%d keys=%d,%d nl=%zu nr=%zu: %s\n",
                    dir, ties_first, inner, within, nk, mi, ki[0], ki[1], nl, nr, rc2 < 0 ? last_err : "differs");
            if (rc2 < 0) tl->errors++;
            else tl->diffs++;
        }
        table_free(want);
    }
    tl->trials++;
    input_free(&L);
    input_free(&R);
}

static void test_asof_differential(void) {
    Tally tl = {0};
    for (int rep = 0; rep < 12; rep++)
        for (int dir = 0; dir < 4; dir++)
            for (int tf = 0; tf < 2; tf++)
                for (int inner = 0; inner < 2; inner++)
                    for (int within = 0; within < 2; within++)
                        for (int nk = 0; nk < 3; nk++) asof_trial(&tl, dir, tf, inner, within, nk);
    printf("asof: %d trials, %d differences, %d errors\n", tl.trials, tl.diffs, tl.errors);
    CHECK(tl.trials == 12 * 4 * 2 * 2 * 2 * 3);
    CHECK(tl.diffs == 0);
    CHECK(tl.errors == 0);
}

/* ---- interval join -------------------------------------------------------------------------- */

static const RxType ENDS[][2] = {{TY_INT, TY_INT}, {TY_TIMESTAMP, TY_TIMESTAMP}, {TY_FLOAT, TY_FLOAT},
                                 {TY_DATE, TY_TIMESTAMP}, {TY_INT, TY_FLOAT}, {TY_DATE, TY_DATE}};

static bool needs_forward(IjRelation r) {
    return r == IJ_DURING || r == IJ_CONTAINS || r == IJ_FINISHES || r == IJ_FINISHED_BY || r == IJ_MEETS ||
           r == IJ_MET_BY;
}

/* An end column: the start plus a small length (0 allowed; negative when inverted is set),
 * in the start's own type. */
static Column *end_col(const Column *s, RxType t, int64_t maxlen, bool inverted, int null_pct) {
    Column *e = col_new(t, s->n);
    for (size_t i = 0; i < s->n; i++) {
        int64_t len = (int64_t)below((uint64_t)maxlen + 1);
        if (inverted && !below(8)) len = -1 - (int64_t)below(3);
        switch (t) {
        case TY_DATE: col_i32(e)[i] = col_i32(s)[i] + (int32_t)len; break;
        case TY_FLOAT: {
            double d = col_f64(s)[i];
            col_f64(e)[i] = d != d ? d : d + (double)len;
            break;
        }
        case TY_TIMESTAMP: col_i64(e)[i] = col_i64(s)[i] + len * 1000; break;
        default: col_i64(e)[i] = col_i64(s)[i] + len; break;
        }
        if (col_is_null(s, i) || (int)below(100) < null_pct) col_set_null(e, i);
    }
    return e;
}

static void ijoin_trial(Tally *tl, IjRelation rel, int nk) {
    size_t nl = below(100), nr = below(100);
    if (!below(10)) nl = 0;
    int ei = (int)below(RX_ARRAY_LEN(ENDS));
    int64_t range = 2 + (int64_t)below(40), krange = 1 + (int64_t)below(4), maxlen = (int64_t)below(10);
    int null_pct = (int)below(3) * 4;
    int ki = (int)below(RX_ARRAY_LEN(KEYS));
    bool inv = !needs_forward(rel) && below(2);
    Column *lc[5], *rc[5];
    for (int side = 0; side < 2; side++) {
        size_t n = side ? nr : nl;
        Column **c = side ? rc : lc;
        RxType t = ENDS[ei][side];
        c[0] = rand_col(KEYS[ki][side], n, krange, null_pct);
        c[1] = rand_col(t, n, range, null_pct);
        sort_col(c[1]);
        c[2] = end_col(c[1], t, maxlen, inv, null_pct);
        c[3] = rand_col(side ? TY_FLOAT : TY_INT, n, 1000, 10);
        c[4] = rand_col(TY_TEXT, n, 10, 10);
    }
    static const char *ln[] = {"k", "s", "e", "v", "t"}, *rn[] = {"k_r", "s_r", "e_r", "w", "t_r"};
    Input L, R;
    input_init(&L, lc, ln, 5);
    input_init(&R, rc, rn, 5);
    ColInfo oc[10];
    for (int i = 0; i < 5; i++) oc[i] = L.sc.cols[i], oc[5 + i] = R.sc.cols[i];
    int lk[1] = {0}, rk[1] = {0};
    LPlan lp = {.kind = LP_IJOIN, .schema = {10, oc}, .relation = rel, .ends = {1, 2, 1, 2}, .n_keys = nk,
                .lkeys = lk, .rkeys = rk};
    lp.in[0] = &L.lp, lp.in[1] = &R.lp;
    uint8_t needed[10];
    PNode p = {.kind = PN_IJOIN, .lp = &lp, .in = {&L.pn, &R.pn}, .id = 2};
    if (below(3) == 0) {
        for (int i = 0; i < 10; i++) needed[i] = below(3) != 0;
        p.needed = needed;
    }
    L.pn.id = 0, R.pn.id = 1;
    CHECK(stream_join_supported(&p));
    RxError err = {0};
    ExecCtx x = {0};
    Table *want = NULL;
    if (exec_run(&x, &p, &want, &err) < 0) {
        fprintf(stderr, "in-memory IJOIN failed: %s\n", err.msg);
        tl->errors++;
    } else {
        size_t ls[4], rs[4];
        size_t nls = pick_sizes(ls), nrs = pick_sizes(rs);
        int rc2 = run_stream(&p, L.t, R.t, want, ls, nls, rs, nrs);
        if (rc2 != 0) {
            fprintf(stderr, "IJOIN %s nk=%d ends=%d keys=%d inv=%d nl=%zu nr=%zu: %s\n", ij_relation_name(rel), nk, ei,
                    ki, inv, nl, nr, rc2 < 0 ? last_err : "differs");
            if (rc2 < 0) tl->errors++;
            else tl->diffs++;
        }
        table_free(want);
    }
    tl->trials++;
    input_free(&L);
    input_free(&R);
}

static void test_ijoin_differential(void) {
    Tally tl = {0};
    int rels = 0;
    for (int rel = 0; rel <= IJ_EQUALS; rel++) {
        if (rel == IJ_PRECEDES || rel == IJ_PRECEDED_BY) continue;
        rels++;
        for (int rep = 0; rep < 150; rep++) ijoin_trial(&tl, (IjRelation)rel, (int)below(2));
    }
    printf("ijoin: %d relations, %d trials, %d differences, %d errors\n", rels, tl.trials, tl.diffs, tl.errors);
    CHECK(rels == 12);
    CHECK(tl.diffs == 0);
    CHECK(tl.errors == 0);
}

/* ---- errors and large inputs ---------------------------------------------------------------- */

/* An input of INT columns k, a, b from arrays (INT64_MIN: NULL) and a TEXT column. */
static void int_input(Input *in, const int64_t *a, const int64_t *b, size_t n, const char **names) {
    Column *c[4];
    for (int j = 0; j < 4; j++) c[j] = col_new(j == 3 ? TY_TEXT : TY_INT, n);
    for (size_t i = 0; i < n; i++) {
        col_i64(c[0])[i] = 1;
        col_i64(c[1])[i] = a[i];
        col_i64(c[2])[i] = b ? b[i] : a[i];
        if (a[i] == INT64_MIN) col_set_null(c[1], i);
        col_str(c[3])[i] = word();
    }
    input_init(in, c, names, 4);
}

/* Streams join p over l and r in chunks of one row to the end; the error message (or "") in
 * last_err. */
static void stream_error(PNode *p, const Table *l, const Table *r) {
    size_t one = 1;
    RxError err = {0};
    last_err[0] = 0;
    ChunkSrc *src = stream_join_open(NULL, p, stream_table_src_sizes(l, &one, 1), stream_table_src_sizes(r, &one, 1), &err);
    if (!src) {
        snprintf(last_err, sizeof last_err, "%s", err.msg);
        return;
    }
    Table *t = NULL;
    int rc;
    while ((rc = chunk_src_next(src, &t, &err)) > 0) table_free(t);
    if (rc < 0) snprintf(last_err, sizeof last_err, "%s", err.msg);
    chunk_src_close(src);
}

static void test_errors(void) {
    static const char *ln[] = {"k", "ts", "e", "v"}, *rn[] = {"k_r", "ts_r", "e_r", "w"};
    const int64_t sorted[] = {1, 2, INT64_MIN, 2, 5}, unsorted[] = {1, 3, INT64_MIN, 2, 5};
    ColInfo oc[8];
    int lk[1] = {0}, rk[1] = {0};
    for (int side = 0; side < 2; side++) {
        Input L, R;
        int_input(&L, side ? sorted : unsorted, NULL, 5, ln);
        int_input(&R, side ? unsorted : sorted, NULL, 5, rn);
        for (int i = 0; i < 4; i++) oc[i] = L.sc.cols[i], oc[4 + i] = R.sc.cols[i];
        LPlan lp = {.kind = LP_ASOF, .schema = {8, oc}, .dir = ASOF_BACKWARD, .n_keys = 1, .lkeys = lk,
                    .rkeys = rk, .lmatch = 1, .rmatch = 1};
        lp.in[0] = &L.lp, lp.in[1] = &R.lp;
        PNode p = {.kind = PN_ASOF, .lp = &lp, .in = {&L.pn, &R.pn}};
        stream_error(&p, L.t, R.t);
        CHECK_STR(last_err, side ? "the right input of ASOF is not sorted by ts_r: row 4 has 2 after 3; sort it "
                                   "first, or run without declaring it sorted"
                                 : "the left input of ASOF is not sorted by ts: row 4 has 2 after 3; sort it "
                                   "first, or run without declaring it sorted");
        lp.kind = LP_IJOIN;
        lp.relation = IJ_INTERSECTS;
        lp.ends[0] = lp.ends[2] = 1;
        lp.ends[1] = lp.ends[3] = 2;
        p.kind = PN_IJOIN;
        stream_error(&p, L.t, R.t);
        CHECK_STR(last_err, side ? "the right input of IJOIN is not sorted by ts_r: row 4 has 2 after 3; sort it "
                                   "first, or run without declaring it sorted"
                                 : "the left input of IJOIN is not sorted by ts: row 4 has 2 after 3; sort it "
                                   "first, or run without declaring it sorted");
        input_free(&L);
        input_free(&R);
    }
    /* an inverted interval: refused where the sweep cannot hold it, joined where it can */
    const int64_t s[] = {1, 2, 3}, e_inv[] = {4, 1, 5}, e_ok[] = {4, 2, 5};
    for (int rel = 0; rel < 2; rel++) {
        Input L, R;
        int_input(&L, s, e_inv, 3, ln);
        int_input(&R, s, e_ok, 3, rn);
        for (int i = 0; i < 4; i++) oc[i] = L.sc.cols[i], oc[4 + i] = R.sc.cols[i];
        LPlan lp = {.kind = LP_IJOIN, .schema = {8, oc}, .relation = rel ? IJ_DURING : IJ_INTERSECTS,
                    .ends = {1, 2, 1, 2}};
        lp.in[0] = &L.lp, lp.in[1] = &R.lp;
        PNode p = {.kind = PN_IJOIN, .lp = &lp, .in = {&L.pn, &R.pn}};
        CHECK(stream_join_supported(&p));
        Table *want = NULL;
        RxError err = {0};
        ExecCtx x = {0};
        CHECK(exec_run(&x, &p, &want, &err) == 0);
        size_t one = 1;
        int rc = run_stream(&p, L.t, R.t, want, &one, 1, &one, 1);
        if (rel) {
            CHECK(rc == -1);
            CHECK_STR(last_err, "the one-pass interval join DURING needs intervals that do not end before they "
                                "start, but row 2 of the left input does; run without declaring the inputs sorted");
        } else {
            CHECK(rc == 0);
        }
        table_free(want);
        input_free(&L);
        input_free(&R);
    }
}

static void test_supported(void) {
    static const char *names[] = {"k", "ts", "e", "v"};
    const int64_t a[] = {1};
    Input L, R;
    int_input(&L, a, NULL, 1, names);
    int_input(&R, a, NULL, 1, names);
    ColInfo oc[8];
    for (int i = 0; i < 4; i++) oc[i] = L.sc.cols[i], oc[4 + i] = R.sc.cols[i];
    LPlan lp = {.kind = LP_IJOIN, .schema = {8, oc}, .relation = IJ_PRECEDES, .ends = {1, 2, 1, 2}};
    lp.in[0] = &L.lp, lp.in[1] = &R.lp;
    PNode p = {.kind = PN_IJOIN, .lp = &lp, .in = {&L.pn, &R.pn}};
    CHECK(!stream_join_supported(&p));
    RxError err = {0};
    ChunkSrc *s = stream_join_open(NULL, &p, stream_table_src(L.t, 0), stream_table_src(R.t, 0), &err);
    CHECK(s == NULL && err.code == RX_EUNSUPPORTED);
    lp.relation = IJ_MEETS;
    CHECK(stream_join_supported(&p));
    /* Ctrl-C: the join stops at its next chunk */
    volatile sig_atomic_t stop = 1;
    ExecCtx x = {.interrupt = &stop};
    for (int k = 0; k < 2; k++) {
        lp.kind = k ? LP_ASOF : LP_IJOIN;
        p.kind = k ? PN_ASOF : PN_IJOIN;
        lp.lmatch = lp.rmatch = 1;
        memset(&err, 0, sizeof err);
        s = stream_join_open(&x, &p, stream_table_src(L.t, 0), stream_table_src(R.t, 0), &err);
        Table *t = NULL;
        CHECK(s && chunk_src_next(s, &t, &err) == -1 && err.code == RX_EINTERRUPT && !t);
        chunk_src_close(s);
    }
    /* a TEXT match column has no streaming form (its order needs every string at once) */
    lp.kind = LP_ASOF;
    p.kind = PN_ASOF;
    lp.lmatch = lp.rmatch = 3;
    CHECK(!stream_join_supported(&p));
    lp.lmatch = lp.rmatch = 1;
    CHECK(stream_join_supported(&p));
    /* the temporal forms without a one-pass form run in memory: NEAREST, IJOIN LEFT, SEMI,
     * ANTI and AT, COVERS and COVERED_BY (and none of them goes out of core either) */
    lp.nearest = true;
    CHECK(!stream_join_supported(&p) && !ooc_join_supported(&p));
    lp.nearest = false;
    lp.kind = LP_IJOIN;
    p.kind = PN_IJOIN;
    lp.relation = IJ_MEETS;
    CHECK(stream_join_supported(&p) && ooc_join_supported(&p));
    for (int k = JOIN_LEFT; k <= JOIN_ANTI; k++) {
        lp.join_kind = k;
        CHECK(!stream_join_supported(&p) && !ooc_join_supported(&p));
    }
    lp.join_kind = JOIN_INNER;
    lp.point = true;
    CHECK(!stream_join_supported(&p) && !ooc_join_supported(&p));
    lp.point = false;
    for (int rel = IJ_COVERS; rel <= IJ_COVERED_BY; rel++) {
        lp.relation = (IjRelation)rel;
        CHECK(!stream_join_supported(&p) && !ooc_join_supported(&p));
    }
    input_free(&L);
    input_free(&R);
}

/* Inputs of 150,000 rows with long TEXT payloads and few keys: the store of kept right rows
 * compacts its heaps many times over; chunks of the streaming default size and odd ones. */
static void test_large(void) {
    Tally tl = {0};
    size_t n = 150000;
    for (int dir = 0; dir < 4; dir++) {
        heap_release(text_heap);
        text_heap = heap_new(1 << 20);
        Column *lc[3], *rc[3];
        for (int side = 0; side < 2; side++) {
            Column **c = side ? rc : lc;
            c[0] = rand_col(TY_INT, n, 50, 1);
            c[1] = rand_col(TY_TIMESTAMP, n, 400000, 1);
            sort_col(c[1]);
            c[2] = col_new(TY_TEXT, n);
            for (size_t i = 0; i < n; i++) {
                char buf[120];
                int len = snprintf(buf, sizeof buf, "%0*zu", 60 + (int)below(50), i);
                int64_t off = heap_append(text_heap, buf, (size_t)len);
                col_str(c[2])[i] = (RxStr){NULL, (uint64_t)off << 8 | (uint64_t)len};
            }
        }
        static const char *ln[] = {"k", "ts", "s"}, *rn[] = {"k_r", "ts_r", "s_r"};
        Input L, R;
        input_init(&L, lc, ln, 3);
        input_init(&R, rc, rn, 3);
        ColInfo oc[6];
        for (int i = 0; i < 3; i++) oc[i] = L.sc.cols[i], oc[3 + i] = R.sc.cols[i];
        int lk[1] = {0}, rk[1] = {0};
        LPlan lp = {.kind = LP_ASOF, .schema = {6, oc}, .dir = (AsofDir)dir, .ties_first = dir & 1, .n_keys = 1,
                    .lkeys = lk, .rkeys = rk, .lmatch = 1, .rmatch = 1};
        lp.in[0] = &L.lp, lp.in[1] = &R.lp;
        PNode p = {.kind = PN_ASOF, .lp = &lp, .in = {&L.pn, &R.pn}};
        Table *want = NULL;
        RxError err = {0};
        ExecCtx x = {0};
        CHECK(exec_run(&x, &p, &want, &err) == 0);
        size_t ls[2] = {65536, 7}, rs[3] = {1, 2, 3};
        int rc2 = run_stream(&p, L.t, R.t, want, ls, 2, rs, 3);
        if (rc2) fprintf(stderr, "large ASOF dir=%d: %s\n", dir, rc2 < 0 ? last_err : "differs");
        tl.diffs += rc2 != 0;
        table_free(want);
        input_free(&L);
        input_free(&R);
    }
    CHECK(tl.diffs == 0);
}

/* Going forward, left rows whose key never comes again wait to the end of the right input: under
 * a memory limit that cannot hold them, the error says what waits and what bounds it. */
static void test_forward_budget(void) {
    size_t n = 60000;
    Column *lc[2], *rc[2];
    for (int side = 0; side < 2; side++) {
        Column **c = side ? rc : lc;
        c[0] = col_new(TY_INT, n);
        c[1] = col_new(TY_TIMESTAMP, n);
        for (size_t i = 0; i < n; i++) col_i64(c[0])[i] = side, col_i64(c[1])[i] = (int64_t)i;
    }
    static const char *ln[] = {"k", "ts"}, *rn[] = {"k_r", "ts_r"};
    Input L, R;
    input_init(&L, lc, ln, 2);
    input_init(&R, rc, rn, 2);
    ColInfo oc[4] = {L.sc.cols[0], L.sc.cols[1], R.sc.cols[0], R.sc.cols[1]};
    int lk[1] = {0}, rk[1] = {0};
    LPlan lp = {.kind = LP_ASOF, .schema = {4, oc}, .dir = ASOF_FORWARD, .n_keys = 1, .lkeys = lk, .rkeys = rk,
                .lmatch = 1, .rmatch = 1};
    lp.in[0] = &L.lp, lp.in[1] = &R.lp;
    PNode p = {.kind = PN_ASOF, .lp = &lp, .in = {&L.pn, &R.pn}};
    rx_set_memory_limit(rx_memory_used() + ((size_t)2 << 20));
    stream_error(&p, L.t, R.t);
    rx_set_memory_limit(0);
    rx_memory_limit_hit(true);
    CHECK(strstr(last_err, "out of memory in the one-pass AS-OF join: going forward, ") == last_err);
    CHECK(strstr(last_err, "WITHIN bounds the wait") != NULL);
    printf("forward under a limit: %s\n", last_err);
    /* the same inputs without a limit: every left row comes out, unmatched */
    stream_error(&p, L.t, R.t);
    CHECK_STR(last_err, "");
    input_free(&L);
    input_free(&R);
}

/* Every allocation of the joins may fail: under limits rising from nothing to enough, each run
 * either gives the in-memory result or stops with RX_ENOMEM (never a crash, a leak or a partial
 * wrong answer; the sanitizer build checks the first two). */
static void test_oom_paths(void) {
    int bad = 0, failed = 0, ok = 0;
    for (int kind = 0; kind < 3; kind++) {
        size_t n = 3000;
        Column *lc[4], *rc[4];
        for (int side = 0; side < 2; side++) {
            Column **c = side ? rc : lc;
            c[0] = rand_col(TY_TEXT, n, 5, 2);
            c[1] = rand_col(TY_INT, n, 2000, 2);
            sort_col(c[1]);
            c[2] = end_col(c[1], TY_INT, 5, false, 2);
            c[3] = rand_col(TY_TEXT, n, 10, 10);
        }
        static const char *ln[] = {"k", "s", "e", "v"}, *rn[] = {"k_r", "s_r", "e_r", "w"};
        Input L, R;
        input_init(&L, lc, ln, 4);
        input_init(&R, rc, rn, 4);
        ColInfo oc[8];
        for (int i = 0; i < 4; i++) oc[i] = L.sc.cols[i], oc[4 + i] = R.sc.cols[i];
        int lk[1] = {0}, rk[1] = {0};
        LPlan lp = {.kind = kind == 2 ? LP_IJOIN : LP_ASOF, .schema = {8, oc}, .dir = kind ? ASOF_FORWARD : ASOF_BACKWARD,
                    .n_keys = 1, .lkeys = lk, .rkeys = rk, .lmatch = 1, .rmatch = 1, .relation = IJ_INTERSECTS,
                    .ends = {1, 2, 1, 2}};
        lp.in[0] = &L.lp, lp.in[1] = &R.lp;
        PNode p = {.kind = kind == 2 ? PN_IJOIN : PN_ASOF, .lp = &lp, .in = {&L.pn, &R.pn}};
        Table *want = NULL;
        RxError err = {0};
        ExecCtx x = {0};
        CHECK(exec_run(&x, &p, &want, &err) == 0);
        size_t base = rx_memory_used();
        for (size_t extra = 0; extra <= ((size_t)2 << 20); extra += extra < 65536 ? 2048 : 65536) {
            size_t ls[2] = {97, 1000}, rs[2] = {1000, 13};
            rx_set_memory_limit(base + extra + 1);
            int rc2 = run_stream(&p, L.t, R.t, want, ls, 2, rs, 2);
            rx_set_memory_limit(0);
            rx_memory_limit_hit(true);
            if (rc2 == 0) ok++;
            else if (rc2 < 0 && strstr(last_err, "out of memory")) failed++;
            else {
                fprintf(stderr, "kind %d limit +%zu: %s\n", kind, extra, rc2 < 0 ? last_err : "differs");
                bad++;
            }
        }
        table_free(want);
        input_free(&L);
        input_free(&R);
    }
    printf("under limits: %d runs complete, %d out of memory, %d wrong\n", ok, failed, bad);
    CHECK(bad == 0);
    CHECK(ok > 0 && failed > 0);
}

int main(void) {
    text_heap = heap_new(1 << 16);
    test_asof_differential();
    test_ijoin_differential();
    test_errors();
    test_supported();
    test_large();
    test_forward_budget();
    test_oom_paths();
    heap_release(text_heap);
    return check_report("test_stream_join");
}
