/*
 * stream_ops.c - a plan run chunk by chunk (stream.h): which plans can, the chunk sources of
 * their operators, and the driver that pulls the root's chunks into a sink or a fold.
 *
 * A plan streams when every operator has a streaming form:
 *   scan of a CSV file   csv_chunks_* (io.h): a block of the file at a time; standard input,
 *                        which cannot be read again, is loaded and cut into slices
 *   σ                    the in-memory σ over each chunk (ops_select); empty results skipped
 *   ρ                    the chunk renamed
 *   AS-OF, interval join stream_join_open when both inputs are known sorted by the match
 *                        (start) column and the variant has a one-pass form; otherwise
 *                        ooc_join_open when it has an out-of-core form
 *   γ without groups     at the root, count(*) and count(x) only: the counts of each chunk
 *                        (the in-memory γ over it) summed
 * π removes duplicates (a relation is a set), which needs every row seen so far: it stays in
 * memory, and so do δ, τ, TOP, set operations, equi-joins and pushed-down SQL. The order of
 * the chunks is the in-memory operator's row order, so the concatenated output is the same
 * table, row for row.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exec/ooc.h"
#include "exec/ops.h"
#include "exec/stream.h"
#include "exec/stream_join.h"
#include "io/io.h"

/* The CSV file behind scan p, or NULL when it reads something else. */
static CsvFile *scan_csv(const PNode *p) {
    const RelDef *d = p->lp->source;
    return d && !d->db && d->csv && d->table == csv_table(d->csv) ? d->csv : NULL;
}

/* Whether column col of p's output is known sorted (non-decreasing, no NULL) because it comes
 * unchanged from a sorted column of a scanned CSV file. A file read whole (small) knows it once
 * the column is loaded: it is loaded here (a bad value in it leaves the order unknown; the
 * stream reports the error). */
static bool sorted_col(const PNode *p, int col) {
    switch (p->kind) {
    case PN_SCAN: {
        CsvFile *f = scan_csv(p);
        if (!f) return false;
        int s = csv_column_sorted(f, col);
        if (s < 0 && !csv_streamed(f)) {
            int n = csv_table(f)->n_cols;
            uint8_t *want = rx_calloc((size_t)n + 1, 1);
            RxError e;
            rx_error_clear(&e);
            if (want) {
                want[col] = 1;
                if (csv_load(f, want, &e) == 0) s = csv_column_sorted(f, col);
            }
            rx_free(want);
        }
        return s == 1;
    }
    case PN_SELECT: case PN_RENAME: return sorted_col(p->in[0], col);
    default: return false;
    }
}

/* Whether join p runs in one pass: both inputs sorted by the column it sweeps. */
static bool join_sorted(const PNode *p) {
    const LPlan *lp = p->lp;
    if (p->kind == PN_ASOF) return sorted_col(p->in[0], lp->lmatch) && sorted_col(p->in[1], lp->rmatch);
    return sorted_col(p->in[0], lp->ends[0]) && sorted_col(p->in[1], lp->ends[2]);
}

static bool node_ok(const PNode *p, bool root) {
    switch (p->kind) {
    case PN_SCAN: return scan_csv(p) != NULL;
    case PN_SELECT: case PN_RENAME: return node_ok(p->in[0], false);
    case PN_ASOF:
    case PN_IJOIN:
        if (!node_ok(p->in[0], false) || !node_ok(p->in[1], false)) return false;
        return (join_sorted(p) && stream_join_supported(p)) || ooc_join_supported(p);
    case PN_GROUP:
        if (!root || p->lp->n_group > 0) return false;
        for (int a = 0; a < p->lp->n_aggs; a++) {
            const AggSpec *ag = &p->lp->aggs[a];
            if ((ag->fn != AGG_COUNT_STAR && ag->fn != AGG_COUNT) || ag->distinct || ag->type != TY_INT)
                return false;
        }
        return node_ok(p->in[0], false);
    case PN_PROJECT: case PN_HASHJOIN: case PN_LOOPJOIN: case PN_SETOP: case PN_DISTINCT:
    case PN_SORT: case PN_TOP: case PN_SQL: case PN_ISET: case PN_WINDOW: case PN_FILL:
    case PN_WJOIN:
        return false;
    }
    return false;
}

bool stream_plan_ok(const PNode *p) { return node_ok(p, true); }

/* The bytes of the files under p that csv_open read by blocks. */
static size_t streamed_bytes(const PNode *p) {
    if (!p) return 0;
    if (p->kind == PN_SCAN) {
        CsvFile *f = scan_csv(p);
        return f ? csv_streamed_bytes(f) : 0;
    }
    return streamed_bytes(p->in[0]) + streamed_bytes(p->in[1]);
}

/* Whether a join that cannot run in one pass is better out of core than in memory: only when
 * its inputs, held whole (three to four times the files' size once converted), would not fit
 * in what is left of the memory limit. The out-of-core join writes and reads every row once
 * more. */
static bool ooc_needed(const PNode *p) {
    size_t lim = rx_memory_limit(), used = rx_memory_used();
    if (!lim) return false;
    size_t room = lim > used ? lim - used : 0;
    return streamed_bytes(p) > room / 4;
}

bool stream_plan_pays(const PNode *p) {
    if (!p) return false;
    if (p->kind == PN_SCAN) {
        CsvFile *f = scan_csv(p);
        return f && csv_streamed(f);
    }
    if ((p->kind == PN_ASOF || p->kind == PN_IJOIN) && !(join_sorted(p) && stream_join_supported(p)) &&
        !ooc_needed(p))
        return false;
    return stream_plan_pays(p->in[0]) || stream_plan_pays(p->in[1]);
}

/* ---- sources -------------------------------------------------------------------------------- */

/* A CSV file's rows: csv_chunks_* (io.h), or a table in memory for standard input. */
typedef struct {
    ChunkSrc base;
    CsvChunks *csv;
    ChunkSrc *mem;
} CsvSrc;

static int csv_next(ChunkSrc *s, Table **out, RxError *err) {
    CsvSrc *c = (CsvSrc *)s;
    return c->csv ? csv_chunks_next(c->csv, out, err) : chunk_src_next(c->mem, out, err);
}

static void csv_close_src(ChunkSrc *s) {
    CsvSrc *c = (CsvSrc *)s;
    csv_chunks_close(c->csv);
    chunk_src_close(c->mem);
    rx_free(c);
}

ChunkSrc *stream_csv_src(CsvFile *f, const uint8_t *want, uint64_t *done, RxError *err) {
    CsvSrc *c = rx_calloc(1, sizeof *c);
    if (!c) {
        ops_oom(err);
        return NULL;
    }
    c->base.next = csv_next;
    c->base.close = csv_close_src;
    if (csv_chunks_open(f, want, &c->csv, err) == 0) {
        csv_chunks_count_bytes(c->csv, done);
        return &c->base;
    }
    if (err->code == RX_EUNSUPPORTED) {
        /* standard input: it was read whole already; its columns are loaded now */
        rx_error_clear(err);
        if (csv_load(f, want, err) == 0 && (c->mem = stream_table_src(csv_table(f), 0)))
            return &c->base;
        if (!err->code) ops_oom(err);
    }
    rx_free(c);
    return NULL;
}

/* A scan, σ or ρ: the chunks of `in` (a scan: of the file), each passed through the operator. */
typedef struct {
    ChunkSrc base;
    ExecCtx *x;
    const PNode *p;
    ChunkSrc *in;
} OpSrc;

static int op_next(ChunkSrc *s, Table **out, RxError *err) {
    OpSrc *o = (OpSrc *)s;
    *out = NULL;
    for (;;) {
        if (ops_check_interrupt(o->x, err) < 0) return -1;
        Table *t = NULL;
        int rc = chunk_src_next(o->in, &t, err);
        if (rc <= 0) return rc;
        Table *r;
        if (o->p->kind == PN_SELECT) {
            r = ops_select(o->x, o->p, t, err);
        } else {
            r = ops_shared_table(t, &o->p->lp->schema);
            if (!r) ops_oom(err);
        }
        table_free(t);
        if (!r) return -1;
        if (r->n_rows == 0) {
            table_free(r);
            continue;
        }
        *out = r;
        return 1;
    }
}

static void op_close(ChunkSrc *s) {
    OpSrc *o = (OpSrc *)s;
    chunk_src_close(o->in);
    rx_free(o);
}

/* ---- figures per operator ------------------------------------------------------------------- */

/* What EXPLAIN ANALYZE shows of a streamed operator, kept by a wrapper around its source:
 * the rows it handed out, the time spent in its calls (inclusive: its inputs are pulled from
 * inside them), and the highest memory charged during them above what was charged at its first
 * call, so what it and its inputs came to hold since (chunks, blocks, state). The
 * wrapper lowers the accountant's one mark for its call and raises it again after, so that an
 * enclosing operator's measurement is not lost. */
typedef struct {
    ChunkSrc base;
    ChunkSrc *in;
    ExecCtx *x;
    const PNode *p;
    size_t base_bytes;   /* charged at its first call */
    bool called;
} StatSrc;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A join's own failure (a full temporary disk, out of memory), which has no position of its
 * own, points at the join. */
static void locate_join(const PNode *p, RxError *err) {
    if (!err->src && err->code != RX_EINTERRUPT && (p->kind == PN_ASOF || p->kind == PN_IJOIN)) {
        err->src = p->lp->src;
        err->span = p->lp->span;
    }
}

static int stat_next(ChunkSrc *s, Table **out, RxError *err) {
    StatSrc *w = (StatSrc *)s;
    size_t outer = rx_memory_peak();
    size_t now = rx_memory_peak_mark();
    if (!w->called) w->base_bytes = now, w->called = true;
    double t0 = now_s();
    int rc = chunk_src_next(w->in, out, err);
    ExecNodeStats *st = &w->x->stats[w->p->id];
    st->time_s += now_s() - t0;
    size_t hi = rx_memory_peak();
    size_t held = hi > w->base_bytes ? hi - w->base_bytes : 0;
    if (held > st->peak_bytes) st->peak_bytes = held;
    if (hi > w->x->peak_bytes) w->x->peak_bytes = hi;
    rx_memory_peak_raise(outer > hi ? outer : hi);
    st->ran = true;
    if (rc == 1) st->rows += (double)(*out)->n_rows;
    if (rc < 0) locate_join(w->p, err);
    return rc;
}

static void stat_close(ChunkSrc *s) {
    StatSrc *w = (StatSrc *)s;
    chunk_src_close(w->in);
    rx_free(w);
}

/* in wrapped to keep p's figures in x->stats (in itself when no figures are kept); NULL when
 * in is NULL, or on OOM with in closed and err set. */
static ChunkSrc *with_stats(ExecCtx *x, const PNode *p, ChunkSrc *in, RxError *err) {
    if (!in || !x->stats) return in;
    StatSrc *w = rx_calloc(1, sizeof *w);
    if (!w) {
        chunk_src_close(in);
        ops_oom(err);
        return NULL;
    }
    w->base.next = stat_next;
    w->base.close = stat_close;
    w->in = in;
    w->x = x;
    w->p = p;
    return &w->base;
}

/* After a streamed run: each operator's own time (its inclusive time less its inputs'), and
 * the joins' part of the run for --timing. */
static void finish_stats(ExecCtx *x, const PNode *p) {
    if (!p || !x->stats) return;
    ExecNodeStats *st = &x->stats[p->id];
    double below = 0;
    for (int i = 0; i < 2; i++) {
        if (!p->in[i]) continue;
        finish_stats(x, p->in[i]);
        below += x->stats[p->in[i]->id].time_s;
    }
    st->self_s = st->time_s > below ? st->time_s - below : 0;
    if (p->kind == PN_ASOF || p->kind == PN_IJOIN) x->t_join_s += st->self_s;
}

static ChunkSrc *open_node(ExecCtx *x, const PNode *p, RxError *err);

ChunkSrc *stream_open(ExecCtx *x, const PNode *p, RxError *err) {
    ChunkSrc *s = open_node(x, p, err);
    if (!s) locate_join(p, err);
    return with_stats(x, p, s, err);
}

static ChunkSrc *open_node(ExecCtx *x, const PNode *p, RxError *err) {
    if (p->kind == PN_ASOF || p->kind == PN_IJOIN) {
        ChunkSrc *l = stream_open(x, p->in[0], err);
        if (!l) return NULL;
        ChunkSrc *r = stream_open(x, p->in[1], err);
        if (!r) {
            chunk_src_close(l);
            return NULL;
        }
        if (join_sorted(p) && stream_join_supported(p)) return stream_join_open(x, p, l, r, err);
        return ooc_join_open(x, p, l, r, err);
    }
    OpSrc *o = rx_calloc(1, sizeof *o);
    if (!o) {
        ops_oom(err);
        return NULL;
    }
    o->base.next = op_next;
    o->base.close = op_close;
    o->x = x;
    o->p = p;
    if (!(o->in = p->kind == PN_SCAN ? stream_csv_src(scan_csv(p), p->needed, csv_streamed(scan_csv(p)) ? &x->stream_bytes : NULL, err)
                                     : stream_open(x, p->in[0], err))) {
        rx_free(o);
        return NULL;
    }
    return &o->base;
}

/* ---- the driver ----------------------------------------------------------------------------- */

/* An empty table of schema sc: what γ folds when no chunk came. */
static Table *empty_table(const Schema *sc) {
    Table *t = table_new(sc->n, 0);
    for (int i = 0; t && i < sc->n; i++) {
        Column *c = col_new(sc->cols[i].type == TY_NULL ? TY_TEXT : sc->cols[i].type, 0);
        if (!c || table_set(t, i, c, sc->cols[i].name) < 0) {
            col_release(c);
            table_free(t);
            t = NULL;
        }
    }
    return t;
}

/* γ without groups, counts only: the in-memory γ over each chunk, its counts summed into the
 * first result. */
static int fold_counts(ExecCtx *x, const PNode *p, ChunkSrc *in, Table **out, RxError *err) {
    Table *acc = NULL;
    for (;;) {
        Table *t = NULL;
        int rc = chunk_src_next(in, &t, err);
        if (rc < 0) goto fail;
        if (rc == 0) break;
        Table *g = ops_group(x, p, t, err);
        table_free(t);
        if (!g) goto fail;
        if (!acc) {
            acc = g;
            continue;
        }
        for (int a = 0; a < g->n_cols; a++) col_i64(acc->cols[a])[0] += col_i64(g->cols[a])[0];
        table_free(g);
    }
    if (!acc) {
        Table *e = empty_table(&p->in[0]->lp->schema);
        if (!e) {
            ops_oom(err);
            return -1;
        }
        acc = ops_group(x, p, e, err);
        table_free(e);
        if (!acc) return -1;
    }
    *out = acc;
    return 0;
fail:
    table_free(acc);
    return -1;
}

/* The chunks concatenated into one table of p's schema. */
static Table *concat(const PNode *p, Table **ch, size_t n_ch) {
    const Schema *sc = &p->lp->schema;
    size_t rows = 0;
    for (size_t k = 0; k < n_ch; k++) rows += ch[k]->n_rows;
    if (n_ch == 0) return empty_table(sc);
    int nc = ch[0]->n_cols;
    Table *t = table_new(nc, rows);
    for (int j = 0; t && j < nc; j++) {
        const Column *c0 = ch[0]->cols[j];
        Column *c = c0->pruned ? col_placeholder(c0->type, rows) : col_new(c0->type, rows);
        bool ok = c != NULL;
        size_t at = 0, w = type_width(c0->type);
        for (size_t k = 0; ok && !c->pruned && k < n_ch; k++) {
            const Column *s = ch[k]->cols[j];
            if (s->type == TY_TEXT && col_share_heaps(c, s) < 0) ok = false;
            memcpy((char *)c->data + at * w, s->data, s->n * w);
            if (ok && s->valid) {
                uint64_t *v = col_valid(c);
                if (!v) ok = false;
                for (size_t i = 0; ok && i < s->n; i++) bitmap_set(v, at + i, bitmap_get(s->valid, i));
            }
            at += s->n;
        }
        if (ok && c->valid) col_compact_validity(c);
        if (!ok || table_set(t, j, c, ch[0]->names[j]) < 0) {
            col_release(c);
            table_free(t);
            t = NULL;
        }
    }
    return t;
}

/* What the progress meter calls a streamed run: its first join as EXPLAIN labels it ("AsOfJoin
 * backward"), else its root's label. Into buf (cap bytes). */
static const char *stream_what(const PNode *p, char *buf, size_t cap) {
    const PNode *q = p;
    while (q && q->kind != PN_ASOF && q->kind != PN_IJOIN) q = q->in[0];
    StrBuf b;
    sb_init(&b);
    plan_label(q ? q : p, &b);
    snprintf(buf, cap, "%s", b.p && !b.oom ? b.p : "query");
    sb_free(&b);
    return buf;
}

int stream_run(ExecCtx *x, const PNode *p, StreamSink sink, void *ud, Table **out, RxError *err) {
    *out = NULL;
    bool fold = p->kind == PN_GROUP;
    x->stream_base_bytes = rx_memory_used();
    x->stream_bytes = 0;
    size_t total = streamed_bytes(p);
    char what[96];
    if (total) progress_begin("B", total, "streaming: %s", stream_what(p, what, sizeof what));
    double t0 = now_s();
    size_t outer = rx_memory_peak();
    rx_memory_peak_mark();
    ChunkSrc *src = stream_open(x, fold ? p->in[0] : p, err);
    if (!src) return -1;
    if (fold) {
        int rc = fold_counts(x, p, src, out, err);
        chunk_src_close(src);
        if (x->stats) {
            ExecNodeStats *st = &x->stats[p->id];
            size_t hi = rx_memory_peak();
            st->ran = rc == 0;
            st->rows = rc == 0 ? (double)(*out)->n_rows : 0;
            st->time_s = now_s() - t0;
            st->peak_bytes = hi > x->stream_base_bytes ? hi - x->stream_base_bytes : 0;
            if (hi > x->peak_bytes) x->peak_bytes = hi;
            finish_stats(x, p);
        }
        rx_memory_peak_raise(outer);
        if (total) progress_end();
        return rc;
    }
    Table **ch = NULL;
    size_t n_ch = 0, cap = 0;
    int rc = -1;
    for (;;) {
        Table *t = NULL;
        int k = chunk_src_next(src, &t, err);
        if (k < 0) goto out;
        if (k == 0) break;
        if (sink) {
            int s = sink(ud, t, err);
            table_free(t);
            if (s < 0) goto out;
            continue;
        }
        if (n_ch == cap) {
            size_t nc = cap ? cap * 2 : 16;
            Table **v = rx_realloc(ch, nc * sizeof *v);
            if (!v) {
                table_free(t);
                ops_oom(err);
                goto out;
            }
            ch = v;
            cap = nc;
        }
        ch[n_ch++] = t;
    }
    if (!(*out = sink ? empty_table(&p->lp->schema) : concat(p, ch, n_ch))) {
        ops_oom(err);
        goto out;
    }
    rc = 0;
out:
    for (size_t k = 0; k < n_ch; k++) table_free(ch[k]);
    rx_free(ch);
    chunk_src_close(src);
    finish_stats(x, p);
    rx_memory_peak_raise(outer);
    if (total) progress_end();
    return rc;
}
