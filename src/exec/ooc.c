/*
 * ooc.c - see ooc.h: the out-of-core AS-OF and interval joins.
 *
 * Both run the same way. First both inputs are written to temporary files (spill.h), every
 * row tagged with its ordinal in its input (the left input for AS-OF, both for IJOIN); AS-OF
 * with equality keys under a budget splits them by key as they are read instead (split_inputs),
 * which saves writing and reading them once. Then a
 * task - a pair of files, left and right - is joined in memory by the in-memory operator's own
 * matching (exec_asof_match, exec_ijoin_pairs) when its estimated memory fits the budget, or
 * split into smaller tasks otherwise, recursively. Each joined task writes its output rows,
 * with their ordinals, to a file of its own, in ordinal order (its rows kept their input
 * order). The source ooc_join_open returns merges those files by ordinal, which is the
 * in-memory operator's order: left input order, then (IJOIN) right input order.
 *
 * AS-OF splits by a hash of the equality keys under the one equality rule (types/compare.h),
 * seeded by the depth so that a task splits differently from its parent. A right row with a
 * NULL key never matches and is dropped; a left row with one is spread by its ordinal (it
 * gives a row of NULLs, or nothing when inner, wherever it goes). A task that does not get
 * smaller by splitting holds one key too many rows for the budget: an error. So does a range
 * split that cannot divide a task (one match value, one start point, too many rows).
 *
 * AS-OF without equality keys splits by ranges of the match value's order key (below): a left
 * row goes to its range; a right row to its range and, holding the key nearest below a range
 * (backward; above it, forward) among the task's right rows, to that range too - with all the
 * right rows of that key, in order, so that ties and the tie rule resolve as in memory. A right
 * row with a NULL match value never matches and is dropped; a left row with one goes to the
 * first range.
 *
 * IJOIN splits by ranges of one order key of the endpoints (a non-decreasing int64 of the
 * value, common to both sides). Every interval goes to each range its hull [min(s,e),
 * max(s,e)] touches, and a pair is kept only by the task whose range holds max(lo_l, lo_r),
 * lo being the hull's low end: that point lies in both hulls whenever the two intersect, as
 * they do for every relation but PRECEDES and PRECEDED_BY (which are not supported), inverted
 * and empty intervals and MEETS/MET_BY's touching ends included. So every pair is found once.
 * A row with a NULL endpoint never matches (IJOIN is inner) and is dropped.
 */
#include "exec/ooc.h"

#include <stdlib.h>
#include <string.h>

#include "base/tempfile.h"
#include "exec/ijoin.h"
#include "exec/ops.h"
#include "exec/spill.h"
#include "types/compare.h"

#define MAX_FANOUT 64
#define MIN_TARGET ((size_t)4 << 20)   /* the least a task may take in memory */
#define MAX_DEPTH 6
#define SAMPLE 4096          /* the range split's reservoir of low ends */
#define OUT_ROWS 8192        /* rows per record of a task's output */

static size_t forced_partition_bytes;

void ooc_set_partition_bytes(size_t bytes) { forced_partition_bytes = bytes; }

bool ooc_join_supported(const PNode *p) {
    if (p->kind == PN_ASOF) return !p->lp->nearest && !p->lp->asof_k;
    if (p->kind == PN_IJOIN)
        return p->lp->relation != IJ_PRECEDES && p->lp->relation != IJ_PRECEDED_BY && p->lp->relation <= IJ_EQUALS &&
               !p->lp->point &&
               p->lp->join_kind == JOIN_INNER;
    return false;
}

/* ---- the run's state ------------------------------------------------------------------------ */

typedef struct {
    int64_t v[SAMPLE];
    size_t n;          /* values kept */
    uint64_t seen, rng;
} Sample;

typedef struct {
    ExecCtx *x;
    const PNode *p;
    bool ij;
    bool ranged;            /* split by ranges of a key (IJOIN, AS-OF without equality keys) */
    RxTempDir *dir;
    int lcols, rcols;       /* the inputs' own columns; the ordinal follows them */
    size_t target;          /* the estimated bytes a task may take in memory */
    bool fmode, tsmode;     /* IJOIN order key: INT as FLOAT; DATE as microseconds */
    Table *out_like;        /* the shape of the tasks' outputs: schema columns, then ordinals */
    SpillFile *out;         /* the joined tasks' outputs, one after the other */
    uint64_t *outs;         /* where each task's output starts and ends in it: 2 per task */
    int n_outs, cap_outs;
} Ooc;

static size_t clamp(size_t v, size_t lo, size_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static int oom(RxError *err) { return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory"); }

static void sample_add(Sample *s, int64_t v) {
    s->seen++;
    if (s->n < SAMPLE) {
        s->v[s->n++] = v;
        return;
    }
    s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t j = (s->rng >> 11) % s->seen;
    if (j < SAMPLE) s->v[j] = v;
}

/* ---- keys ----------------------------------------------------------------------------------- */

/* A hash of row i's equality key column c, equal for values equal under types/compare.h across
 * the two sides' types (other: the type of the column it is compared with): INT beside FLOAT
 * as a double, DATE beside TIMESTAMP as microseconds. */
static uint64_t key_hash(const Column *c, size_t i, RxType other) {
    if (c->type == TY_FLOAT || (c->type == TY_INT && other == TY_FLOAT)) {
        double d = rx_float_canon(c->type == TY_FLOAT ? col_f64(c)[i] : (double)col_i64(c)[i]);
        uint64_t u;
        memcpy(&u, &d, 8);
        return rx_hash64(u);
    }
    if (c->type == TY_DATE && other == TY_TIMESTAMP)
        return rx_hash64((uint64_t)((int64_t)col_i32(c)[i] * US_PER_DAY));
    return col_hash_value(c, i);
}

/* AS-OF: the task row i of t (a side's columns, then the ordinal) goes to: its key's hash,
 * seeded by depth, modulo fanout; -1 for a right row with a NULL key (never matches). */
static int asof_route(const Ooc *o, const Table *t, bool left, size_t i, int depth, int fanout) {
    const LPlan *lp = o->p->lp;
    uint64_t h = 0x243f6a8885a308d3ULL + (uint64_t)depth;
    for (int k = 0; k < lp->n_keys; k++) {
        const Column *c = t->cols[left ? lp->lkeys[k] : lp->rkeys[k]];
        if (col_is_null(c, i)) {
            if (!left) return -1;
            h = rx_hash_combine(h, (uint64_t)col_i64(t->cols[o->lcols])[i]);   /* spread by ordinal */
            return (int)(h % (uint64_t)fanout);
        }
        RxType other = lp->in[left ? 1 : 0]->schema.cols[left ? lp->rkeys[k] : lp->lkeys[k]].type;
        h = rx_hash_combine(h, key_hash(c, i, other));
    }
    return (int)(h % (uint64_t)fanout);
}

/* IJOIN: the order key of row i of endpoint column c: non-decreasing in the value, common to
 * both sides (a DATE beside a TIMESTAMP in microseconds, an INT beside a FLOAT as a double,
 * TEXT by its first eight bytes), saturating where a value does not fit. */
static int64_t end_key(const Ooc *o, const Column *c, size_t i) {
    switch (c->type) {
    case TY_FLOAT: return rx_float_order_key(col_f64(c)[i]);
    case TY_INT: return o->fmode ? rx_float_order_key((double)col_i64(c)[i]) : col_i64(c)[i];
    case TY_TIMESTAMP: case TY_TIME: return col_i64(c)[i];
    case TY_DATE: {
        int64_t d = col_i32(c)[i];
        if (!o->tsmode) return d;
        int64_t us;
        if (__builtin_mul_overflow(d, US_PER_DAY, &us)) return d < 0 ? INT64_MIN : INT64_MAX;
        return us;
    }
    case TY_DURATION: {
        __int128 s = rx_dur_span(col_dur(c)[i]);
        return s > INT64_MAX ? INT64_MAX : s < INT64_MIN ? INT64_MIN : (int64_t)s;
    }
    case TY_BOOL: return col_u8(c)[i];
    case TY_TEXT: {
        RxStr s = col_str(c)[i];
        uint64_t u = 0;
        for (int b = 0; b < 8; b++) u = u << 8 | (b < (int)s.len ? (uint8_t)s.ptr[b] : 0);
        return (int64_t)(u ^ UINT64_C(0x8000000000000000));
    }
    case TY_NULL: break;
    }
    return 0;
}

/* The range key of row i of a side's table: IJOIN, its hull (NULL endpoints were dropped
 * before); AS-OF, its match value's key as both ends. */
static void hull(const Ooc *o, const Table *t, bool left, size_t i, int64_t *lo, int64_t *hi) {
    if (!o->ij) {
        *lo = *hi = end_key(o, t->cols[left ? o->p->lp->lmatch : o->p->lp->rmatch], i);
        return;
    }
    const int *ends = o->p->lp->ends;
    int64_t a = end_key(o, t->cols[ends[left ? 0 : 2]], i), b = end_key(o, t->cols[ends[left ? 1 : 3]], i);
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
}

/* ---- tables --------------------------------------------------------------------------------- */

/* A table sharing in's first n_cols columns, plus column extra (consumed) named name. */
static Table *with_column(const Table *in, int n_cols, Column *extra, const char *name) {
    Table *t = table_new(n_cols + (extra ? 1 : 0), in->n_rows);
    if (!t) {
        col_release(extra);
        return NULL;
    }
    for (int c = 0; c < n_cols; c++) {
        col_retain(in->cols[c]);
        if (table_set(t, c, in->cols[c], in->names[c]) < 0) {
            col_release(extra);
            table_free(t);
            return NULL;
        }
    }
    if (extra && table_set(t, n_cols, extra, name) < 0) {
        table_free(t);
        return NULL;
    }
    return t;
}

/* The rows idx[0..n) of every column of t, as a new table. */
static Table *gather_table(const Table *t, const uint32_t *idx, size_t n) {
    Table *g = table_new(t->n_cols, n);
    if (!g) return NULL;
    for (int c = 0; c < t->n_cols; c++) {
        Column *col = col_gather(t->cols[c], idx, n);
        if (!col || table_set(g, c, col, t->names[c]) < 0) {
            col_release(col);
            table_free(g);
            return NULL;
        }
    }
    return g;
}

/* ---- the first pass: each input to one file, tagged ----------------------------------------- */

/* An empty file of a side's columns (with the ordinal when tag), for an input without rows. */
static SpillFile *empty_file(Ooc *o, bool left, bool tag, RxError *err) {
    const Schema *sc = &o->p->lp->in[left ? 0 : 1]->schema;
    Table *t = table_new(sc->n + (tag ? 1 : 0), 0);
    bool ok = t != NULL;
    for (int c = 0; ok && c < t->n_cols; c++) {
        Column *col = col_new(c < sc->n ? sc->cols[c].type : TY_INT, 0);
        ok = col && table_set(t, c, col, c < sc->n ? sc->cols[c].name : "#ord") == 0;
        if (!ok) col_release(col);
    }
    SpillFile *f = NULL;
    if (!ok) oom(err);
    else f = spill_create(o->dir, t, true, err);
    table_free(t);
    return f;
}

/* The left input with each row's ordinal appended (AS-OF split by key straight from the
 * input). Owns in. */
typedef struct {
    ChunkSrc base;
    ChunkSrc *in;
    int64_t ord;
} TagSrc;

static int tag_next(ChunkSrc *s, Table **out, RxError *err) {
    TagSrc *ts = (TagSrc *)s;
    Table *chunk;
    int rc = chunk_src_next(ts->in, &chunk, err);
    *out = NULL;
    if (rc <= 0) return rc;
    Column *oc = col_new(TY_INT, chunk->n_rows);
    if (oc)
        for (size_t i = 0; i < chunk->n_rows; i++) col_i64(oc)[i] = ts->ord + (int64_t)i;
    ts->ord += (int64_t)chunk->n_rows;
    *out = oc ? with_column(chunk, chunk->n_cols, oc, "#ord") : NULL;
    table_free(chunk);
    return *out ? 1 : oom(err);
}

static void tag_close(ChunkSrc *s) {
    chunk_src_close(((TagSrc *)s)->in);
    rx_free(s);
}

static ChunkSrc *tag_src(ChunkSrc *in) {
    TagSrc *ts = rx_calloc(1, sizeof *ts);
    if (!ts) return NULL;
    ts->base.next = tag_next;
    ts->base.close = tag_close;
    ts->in = in;
    return &ts->base;
}

/* Reads src to its end into a new file *out: its rows with their ordinal appended when tag,
 * without (IJOIN) the rows that have a NULL endpoint; IJOIN's low ends go to sample. Takes
 * ownership of src. */
static int spill_input(Ooc *o, ChunkSrc *src, bool left, bool tag, SpillFile **out, Sample *sample,
                       RxError *err) {
    *out = NULL;
    int64_t ord = 0;
    int ret = -1;
    uint32_t *keep = NULL;
    size_t keep_cap = 0;
    for (;;) {
        if (ops_check_interrupt(o->x, err) < 0) goto done;
        Table *chunk;
        int rc = chunk_src_next(src, &chunk, err);
        if (rc < 0) goto done;
        if (rc == 0) break;
        Column *oc = NULL;
        if (tag) {
            oc = col_new(TY_INT, chunk->n_rows);
            if (!oc) {
                table_free(chunk);
                oom(err);
                goto done;
            }
            for (size_t i = 0; i < chunk->n_rows; i++) col_i64(oc)[i] = ord + (int64_t)i;
        }
        ord += (int64_t)chunk->n_rows;
        Table *t = with_column(chunk, chunk->n_cols, oc, "#ord");
        table_free(chunk);
        if (!t) {
            oom(err);
            goto done;
        }
        if (o->ranged) {
            /* drop the rows that never match (IJOIN: a NULL endpoint; AS-OF: a right row's
             * NULL match value); sample the others' low ends */
            const LPlan *lp = o->p->lp;
            const Column *s = t->cols[o->ij ? lp->ends[left ? 0 : 2] : left ? lp->lmatch : lp->rmatch];
            const Column *e = o->ij ? t->cols[lp->ends[left ? 1 : 3]] : s;
            if (keep_cap < t->n_rows) {
                rx_free(keep);
                keep_cap = t->n_rows;
                keep = rx_malloc(keep_cap * sizeof *keep);
                if (!keep) {
                    table_free(t);
                    oom(err);
                    goto done;
                }
            }
            size_t k = 0;
            for (size_t i = 0; i < t->n_rows; i++) {
                if (col_is_null(s, i) || col_is_null(e, i)) {
                    if (!o->ij && left) keep[k++] = (uint32_t)i;   /* gives its row of NULLs */
                    continue;
                }
                keep[k++] = (uint32_t)i;
                int64_t lo, hi;
                hull(o, t, left, i, &lo, &hi);
                sample_add(sample, lo);
            }
            if (k < t->n_rows) {
                Table *g = gather_table(t, keep, k);
                table_free(t);
                if (!g) {
                    oom(err);
                    goto done;
                }
                t = g;
            }
        }
        if (!*out && !(*out = spill_create(o->dir, t, true, err))) {
            table_free(t);
            goto done;
        }
        rc = spill_write(*out, &t, 1, err);
        table_free(t);
        if (rc < 0) goto done;
    }
    if (!*out && !(*out = empty_file(o, left, tag, err))) goto done;
    ret = 0;
done:
    rx_free(keep);
    chunk_src_close(src);
    if (ret < 0) {
        spill_close(*out);
        *out = NULL;
    }
    return ret;
}

/* ---- splitting a task ----------------------------------------------------------------------- */

typedef struct {
    SpillFile *f;
    Table **pending;      /* gathered rows not yet written */
    int n_pending, cap_pending;
    size_t pending_rows;
    int64_t lo, hi;       /* IJOIN: the range, inclusive */
    Sample *sample;       /* IJOIN: the low ends of its rows, clipped to its range */
} Child;

static int child_flush(Child *ch, RxError *err) {
    int rc = ch->n_pending ? spill_write(ch->f, ch->pending, ch->n_pending, err) : 0;
    for (int i = 0; i < ch->n_pending; i++) table_free(ch->pending[i]);
    ch->n_pending = 0;
    ch->pending_rows = 0;
    return rc;
}

/* Which child's range holds key v (the ranges are in order, the first starts at or below v). */
static int child_of(const Child *ch, int n, int64_t v) {
    int a = 0, b = n - 1;
    while (a < b) {
        int m = (a + b + 1) / 2;
        if (ch[m].lo <= v) a = m;
        else b = m - 1;
    }
    return a;
}

/* AS-OF without equality keys, the right side: carry[c] is the key whose right rows child c
 * needs from outside its range - backward, the largest key below its range; forward, the
 * smallest above - and has[c] whether there is one. All right rows of that key go to child c
 * too, so that each left row sees its true nearest, ties included. One pass over f. */
static int carries(Ooc *o, SpillFile *f, const Child *ch, int n, int64_t *carry, bool *has, RxError *err) {
    int64_t *mx = rx_malloc((size_t)n * 2 * sizeof *mx);
    bool *any = rx_calloc((size_t)n, sizeof *any);
    if (!mx || !any) {
        rx_free(mx), rx_free(any);
        return oom(err);
    }
    int64_t *mn = mx + n;
    SpillReader rd = {.f = f};
    for (;;) {
        Table *t;
        int rc = spill_read_next(&rd, &t, err);
        if (rc < 0) {
            rx_free(mx), rx_free(any);
            return -1;
        }
        if (rc == 0) break;
        for (size_t i = 0; i < t->n_rows; i++) {
            int64_t k, k2;
            hull(o, t, false, i, &k, &k2);
            int c = child_of(ch, n, k);
            if (!any[c] || k > mx[c]) mx[c] = k;
            if (!any[c] || k < mn[c]) mn[c] = k;
            any[c] = true;
        }
        table_free(t);
    }
    bool backward = o->p->lp->dir == ASOF_BACKWARD || o->p->lp->dir == ASOF_BACKWARD_STRICT;
    bool seen = false;
    int64_t best = 0;
    for (int step = 0; step < n; step++) {
        int c = backward ? step : n - 1 - step;
        has[c] = seen;
        carry[c] = best;
        if (any[c]) {
            seen = true;
            best = backward ? mx[c] : mn[c];
        }
    }
    rx_free(mx), rx_free(any);
    return 0;
}

/* Rows a child's buffer holds before they are written: 1 MB of them, or less when the budget
 * is small (all n children's together take at most a quarter of a task's share). */
static size_t flush_rows_for(const Ooc *o, uint64_t row_bytes, int n) {
    return clamp(clamp(o->target / 4 / (uint64_t)n, 1, (size_t)1 << 20) / (row_bytes + 1), 64, SIZE_MAX);
}

/* Bytes of a row of t, about (TEXT counted as its slice and 16 bytes of text). */
static uint64_t approx_row_bytes(const Table *t) {
    uint64_t b = 0;
    for (int c = 0; c < t->n_cols; c++) b += type_width(t->cols[c]->type) + (t->cols[c]->type == TY_TEXT ? 16 : 0);
    return b;
}

/* Distributes the rows of one side of a task - file f, or when f is NULL the source in - over
 * the children's files (made like the first chunk when a child has none yet). */
static int split_side(Ooc *o, SpillFile *f, ChunkSrc *in, bool left, Child *ch, int n, int depth,
                      RxError *err) {
    size_t flush_rows = f && spill_rows(f) ? flush_rows_for(o, spill_raw_bytes(f) / spill_rows(f), n) : 0;
    uint32_t *idx = NULL, *cnt = NULL, *start = NULL;
    int *da = NULL, *db = NULL;        /* per row: the children [da, db] it goes to; da < 0: none */
    int64_t *sk = NULL;                /* per row: its key for the children's samples */
    uint8_t *samp = NULL;              /* per row: whether it has one */
    int64_t *carry = NULL;
    bool *has = NULL;
    size_t cap = 0;
    int ret = -1;
    bool asof_ranged = o->ranged && !o->ij;
    bool backward = o->p->lp->dir == ASOF_BACKWARD || o->p->lp->dir == ASOF_BACKWARD_STRICT;
    SpillReader rd = {.f = f};
    cnt = rx_calloc((size_t)n + 1, sizeof *cnt);
    start = rx_calloc((size_t)n + 1, sizeof *start);
    if (!cnt || !start) {
        oom(err);
        goto done;
    }
    if (asof_ranged && !left) {
        carry = rx_malloc((size_t)n * sizeof *carry);
        has = rx_malloc((size_t)n * sizeof *has);
        if (!carry || !has) {
            oom(err);
            goto done;
        }
        if (carries(o, f, ch, n, carry, has, err) < 0) goto done;
    }
    for (;;) {
        if (ops_check_interrupt(o->x, err) < 0) goto done;
        Table *t;
        int rc = f ? spill_read_next(&rd, &t, err) : chunk_src_next(in, &t, err);
        if (rc < 0) goto done;
        if (rc == 0) break;
        if (!flush_rows) flush_rows = flush_rows_for(o, approx_row_bytes(t), n);
        for (int c = 0; c < n; c++)
            if (!ch[c].f && !(ch[c].f = spill_create(o->dir, t, true, err))) {
                table_free(t);
                goto done;
            }
        if (cap < t->n_rows) {
            rx_free(da), rx_free(db), rx_free(sk), rx_free(samp);
            cap = t->n_rows;
            da = rx_malloc(cap * sizeof *da);
            db = rx_malloc(cap * sizeof *db);
            sk = rx_malloc(cap * sizeof *sk);
            samp = rx_malloc(cap);
            if (!da || !db || !sk || !samp) {
                cap = 0;
                table_free(t);
                oom(err);
                goto done;
            }
        }
        /* a row may go to several children: count first, then place */
        memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
        size_t total = 0;
        for (size_t i = 0; i < t->n_rows; i++) {
            samp[i] = 0;
            if (!o->ranged) {
                da[i] = db[i] = asof_route(o, t, left, i, depth, n);
            } else if (asof_ranged && col_is_null(t->cols[left ? o->p->lp->lmatch : o->p->lp->rmatch], i)) {
                da[i] = db[i] = 0;   /* a left row with a NULL match value: no match anywhere */
            } else {
                int64_t lo, hi;
                hull(o, t, left, i, &lo, &hi);
                da[i] = child_of(ch, n, lo);
                db[i] = child_of(ch, n, hi);
                sk[i] = lo;
                samp[i] = 1;
                if (carry && backward)
                    while (db[i] + 1 < n && has[db[i] + 1] && carry[db[i] + 1] == lo) db[i]++;
                if (carry && !backward)
                    while (da[i] > 0 && has[da[i] - 1] && carry[da[i] - 1] == lo) da[i]--;
            }
            if (da[i] < 0) continue;
            for (int c = da[i]; c <= db[i]; c++) cnt[c]++;
            total += (size_t)(db[i] - da[i] + 1);
        }
        rx_free(idx);
        idx = rx_malloc((total ? total : 1) * sizeof *idx);
        if (!idx) {
            table_free(t);
            oom(err);
            goto done;
        }
        size_t at = 0;
        for (int c = 0; c < n; c++) start[c] = (uint32_t)at, at += cnt[c];
        for (size_t i = 0; i < t->n_rows; i++) {
            if (da[i] < 0) continue;
            for (int c = da[i]; c <= db[i]; c++) {
                idx[start[c]++] = (uint32_t)i;
                if (samp[i]) sample_add(ch[c].sample, sk[i] > ch[c].lo ? sk[i] : ch[c].lo);
            }
        }
        at = 0;
        for (int c = 0; c < n; c++) {
            size_t k = cnt[c];
            const uint32_t *ix = idx + at;
            at += k;
            if (!k) continue;
            Table *g = gather_table(t, ix, k);
            if (!g) {
                table_free(t);
                oom(err);
                goto done;
            }
            if (ch[c].n_pending == ch[c].cap_pending) {
                int nc = ch[c].cap_pending ? ch[c].cap_pending * 2 : 8;
                Table **np = rx_realloc(ch[c].pending, (size_t)nc * sizeof *np);
                if (!np) {
                    table_free(g);
                    table_free(t);
                    oom(err);
                    goto done;
                }
                ch[c].pending = np;
                ch[c].cap_pending = nc;
            }
            ch[c].pending[ch[c].n_pending++] = g;
            ch[c].pending_rows += k;
            if (ch[c].pending_rows >= flush_rows && child_flush(&ch[c], err) < 0) {
                table_free(t);
                goto done;
            }
        }
        table_free(t);
    }
    for (int c = 0; c < n; c++)
        if (child_flush(&ch[c], err) < 0) goto done;
    ret = 0;
done:
    rx_free(idx), rx_free(cnt), rx_free(start), rx_free(da), rx_free(db), rx_free(sk), rx_free(samp);
    rx_free(carry), rx_free(has);
    return ret;
}

/* ---- joining a task in memory --------------------------------------------------------------- */

/* Records the output a task wrote to o->out from offset start on. */
static int add_output(Ooc *o, uint64_t start, RxError *err) {
    if (spill_size(o->out) == start) return 0;   /* no rows */
    if (o->n_outs == o->cap_outs) {
        int nc = o->cap_outs ? o->cap_outs * 2 : 16;
        uint64_t *no = rx_realloc(o->outs, (size_t)nc * 2 * sizeof *no);
        if (!no) return oom(err);
        o->outs = no;
        o->cap_outs = nc;
    }
    o->outs[2 * o->n_outs] = start;
    o->outs[2 * o->n_outs + 1] = spill_size(o->out);
    o->n_outs++;
    return 0;
}

/* Writes the output rows li[i] (left) with ri[i] (right) for i in [0, n), with their
 * ordinals, to out in records of OUT_ROWS. */
static int write_output(Ooc *o, const Table *L, const Table *R, const uint32_t *li, const uint32_t *ri,
                        size_t n, SpillFile *out, RxError *err) {
    Table lv = *L, rv = *R;   /* the sides without their ordinals */
    lv.n_cols = o->lcols;
    rv.n_cols = o->rcols;
    for (size_t off = 0; off < n; off += OUT_ROWS) {
        if (ops_check_interrupt(o->x, err) < 0) return -1;
        size_t k = n - off < OUT_ROWS ? n - off : OUT_ROWS;
        Table *g = ops_gather_join(o->p, &lv, &rv, li + off, ri + off, k, err);
        if (!g) return -1;
        Table *t = table_new(g->n_cols + (o->ij ? 2 : 1), k);
        Column *lo = col_gather(L->cols[o->lcols], li + off, k);
        Column *ro = o->ij ? col_gather(R->cols[o->rcols], ri + off, k) : NULL;
        bool ok = t && lo && (!o->ij || ro);
        for (int c = 0; ok && c < g->n_cols; c++) {
            col_retain(g->cols[c]);
            ok = table_set(t, c, g->cols[c], g->names[c]) == 0;
        }
        if (ok) ok = table_set(t, g->n_cols, lo, "#lord") == 0;
        else col_release(lo);
        lo = NULL;
        if (o->ij) {
            if (ok) ok = table_set(t, g->n_cols + 1, ro, "#rord") == 0;
            else col_release(ro);
        }
        table_free(g);
        int rc = ok ? spill_write(out, &t, 1, err) : oom(err);
        table_free(t);
        if (rc < 0) return -1;
    }
    return 0;
}

/* Joins task (l, r) in memory; for IJOIN keeps the pairs whose max(lo_l, lo_r) lies in
 * [lo, hi]. The output goes to the end of o->out (add_output). */
static int join_task(Ooc *o, SpillFile *l, SpillFile *r, int64_t lo, int64_t hi, RxError *err) {
    Table *L = NULL, *R = NULL;
    uint32_t *li = NULL, *ri = NULL;
    IjPairs pairs = {0};
    int ret = -1;
    if (spill_load(l, &L, err) < 0 || spill_load(r, &R, err) < 0) goto done;
    Table lv = *L, rv = *R;
    lv.n_cols = o->lcols;
    rv.n_cols = o->rcols;
    size_t n = 0;
    if (!o->ij) {
        size_t nl = L->n_rows;
        li = rx_malloc((nl ? nl : 1) * sizeof *li);
        ri = rx_malloc((nl ? nl : 1) * sizeof *ri);
        if (!li || !ri) {
            oom(err);
            goto done;
        }
        int rc = exec_asof_match(o->x, o->p, &lv, &rv, ri, err);
        progress_end();
        if (rc < 0) goto done;
        for (size_t i = 0; i < nl; i++)
            if (!o->p->lp->inner || ri[i] != ROW_NONE) {
                li[n] = (uint32_t)i;
                ri[n] = ri[i];
                n++;
            }
    } else {
        int rc = exec_ijoin_pairs(o->x, o->p, &lv, &rv, &pairs, err);
        progress_end();
        if (rc < 0) goto done;
        for (size_t i = 0; i < pairs.n; i++) {
            int64_t a, b, x, y;
            hull(o, L, true, pairs.left[i], &a, &b);
            hull(o, R, false, pairs.right[i], &x, &y);
            int64_t m = a > x ? a : x;
            if (m < lo || m > hi) continue;
            pairs.left[n] = pairs.left[i];
            pairs.right[n] = pairs.right[i];
            n++;
        }
    }
    uint64_t start = spill_size(o->out);
    if (write_output(o, L, R, o->ij ? pairs.left : li, o->ij ? pairs.right : ri, n, o->out, err) < 0) goto done;
    ret = add_output(o, start, err);
done:
    ij_pairs_free(&pairs);
    rx_free(li), rx_free(ri);
    table_free(L), table_free(R);
    return ret;
}

/* ---- tasks ---------------------------------------------------------------------------------- */

/* About what joining l with r in memory takes: both sides loaded, plus the kernels' keys,
 * validity, partition ids and result per row. */
static uint64_t estimate(const SpillFile *l, const SpillFile *r) {
    return spill_raw_bytes(l) + spill_raw_bytes(r) + 40 * (spill_rows(l) + spill_rows(r));
}

/* The error of a task that cannot be made to fit: need is its estimate; what says what it
 * holds (NULL: the rows no split can divide, by the join's kind). */
static int too_big(Ooc *o, const char *what, uint64_t need, RxError *err) {
    StrBuf label;
    sb_init(&label);
    plan_label(o->p, &label);
    char need_s[16], left_s[16], limit_s[16];
    rx_format_bytes(need_s, sizeof need_s, need);
    rx_format_bytes(left_s, sizeof left_s, o->target);
    rx_format_bytes(limit_s, sizeof limit_s, rx_memory_limit());
    if (!what)
        what = o->ij ? "a range of start times that no split can divide (many intervals starting at one point, or "
                       "intervals spanning the others)"
               : o->ranged ? "the rows of one match value"
                           : "the rows of one join key";
    rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0),
             "%s: %s need about %s of memory at once, more than the %s that the memory budget%s%s leaves it",
             label.p ? label.p : "join", what, need_s, left_s, rx_memory_limit() ? " of " : "",
             rx_memory_limit() ? limit_s : "");
    rx_error_hint(err, "raise the budget with --memory-limit");
    sb_free(&label);
    return -1;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Joins the task (l, r) - owning both files - whose IJOIN range is [lo, hi], with sample its
 * low ends (IJOIN; may be NULL otherwise); joined in memory when it fits, else split. */
static int run_task(Ooc *o, SpillFile *l, SpillFile *r, int64_t lo, int64_t hi, Sample *sample, int depth,
                    RxError *err) {
    int ret = -1;
    Child *ch = NULL;
    int n = 0;
    if (spill_rows(l) == 0 || (o->ij && spill_rows(r) == 0)) {
        ret = 0;   /* no output: no left rows, or (IJOIN, inner) no right rows */
        goto done;
    }
    uint64_t need = estimate(l, r);
    if (need <= o->target) {
        ret = join_task(o, l, r, lo, hi, err);
        goto done;
    }
    if (depth >= MAX_DEPTH) {
        too_big(o, NULL, need, err);
        goto done;
    }
    /* the children: twice as many as the estimate asks for, for skew */
    uint64_t want = need / (o->target ? o->target : 1) * 2 + 2;
    n = want > MAX_FANOUT ? MAX_FANOUT : (int)want;
    int64_t *bounds = NULL;
    if (o->ranged) {
        /* ranges at the sample's quantiles, each starting above the one before */
        qsort(sample->v, sample->n, sizeof sample->v[0], cmp_i64);
        bounds = rx_malloc((size_t)n * sizeof *bounds);
        if (!bounds) {
            oom(err);
            goto done;
        }
        int k = 0;
        bounds[k++] = lo;
        for (int c = 1; c < n && sample->n; c++) {
            int64_t b = sample->v[(size_t)c * sample->n / (size_t)n];
            if (b > bounds[k - 1] && b <= hi) bounds[k++] = b;
        }
        n = k;
        if (n < 2) {
            rx_free(bounds);
            too_big(o, NULL, need, err);
            goto done;
        }
    }
    ch = rx_calloc((size_t)n, sizeof *ch);
    if (!ch) {
        rx_free(bounds);
        oom(err);
        goto done;
    }
    for (int c = 0; c < n; c++) {
        if (o->ranged) {
            ch[c].lo = bounds[c];
            ch[c].hi = c + 1 < n ? bounds[c + 1] - 1 : hi;
        }
        ch[c].sample = o->ranged ? rx_calloc(1, sizeof *ch[c].sample) : NULL;
        if (o->ranged && !ch[c].sample) {
            rx_free(bounds);
            oom(err);
            goto done;
        }
    }
    rx_free(bounds);
    /* the left side, then the right side: a parent's file is freed as soon as it is split */
    SpillFile *side[2] = {l, r};
    SpillFile **kids[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++) {
        kids[s] = rx_calloc((size_t)n, sizeof *kids[s]);
        if (!kids[s]) {
            oom(err);
            goto split_failed;
        }
        for (int c = 0; c < n; c++)
            if (!(ch[c].f = spill_create_as(side[s], err))) goto split_failed;
        if (split_side(o, side[s], NULL, s == 0, ch, n, depth, err) < 0) goto split_failed;
        for (int c = 0; c < n; c++) kids[s][c] = ch[c].f, ch[c].f = NULL;
        spill_close(side[s]);
        side[s] = NULL;
        if (s == 0) l = NULL;
        else r = NULL;
    }
    /* a split that leaves a child nearly as big as its parent makes too little progress (one
     * key, one point, intervals spanning the others): it would only recurse */
    for (int c = 0; c < n; c++)
        if (estimate(kids[0][c], kids[1][c]) > need / 10 * 9 && estimate(kids[0][c], kids[1][c]) > o->target) {
            too_big(o, NULL, estimate(kids[0][c], kids[1][c]), err);
            goto split_failed;
        }
    ret = 0;
    for (int c = 0; c < n; c++) {
        SpillFile *kl = kids[0][c], *kr = kids[1][c];
        kids[0][c] = kids[1][c] = NULL;
        if (ret == 0) ret = run_task(o, kl, kr, ch[c].lo, ch[c].hi, ch[c].sample, depth + 1, err);
        else spill_close(kl), spill_close(kr);
    }
split_failed:
    for (int s = 0; s < 2; s++) {
        for (int c = 0; kids[s] && c < n; c++) spill_close(kids[s][c]);
        rx_free(kids[s]);
    }
done:
    for (int c = 0; ch && c < n; c++) {
        spill_close(ch[c].f);
        for (int i = 0; i < ch[c].n_pending; i++) table_free(ch[c].pending[i]);
        rx_free(ch[c].pending);
        rx_free(ch[c].sample);
    }
    rx_free(ch);
    spill_close(l);
    spill_close(r);
    return ret;
}

/* AS-OF with equality keys under a budget: the inputs l and r (owned) split by key into
 * MAX_FANOUT tasks as they are read, each then run as run_task does at depth 1. */
static int split_inputs(Ooc *o, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    int n = MAX_FANOUT, ret = -1;
    Child *ch = rx_calloc((size_t)n, sizeof *ch);
    SpillFile **kids[2] = {rx_calloc((size_t)n, sizeof *kids[0]), rx_calloc((size_t)n, sizeof *kids[1])};
    ChunkSrc *src[2] = {l ? tag_src(l) : NULL, r};
    if (!src[0]) chunk_src_close(l);
    if (!ch || !kids[0] || !kids[1] || !src[0]) {
        oom(err);
        goto done;
    }
    for (int s = 0; s < 2; s++) {
        if (split_side(o, NULL, src[s], s == 0, ch, n, 0, err) < 0) goto done;
        chunk_src_close(src[s]);
        src[s] = NULL;
        for (int c = 0; c < n; c++) {
            kids[s][c] = ch[c].f ? ch[c].f : empty_file(o, s == 0, s == 0, err);
            ch[c].f = NULL;
            if (!kids[s][c]) goto done;
        }
    }
    ret = 0;
    for (int c = 0; c < n && ret == 0; c++) {
        SpillFile *kl = kids[0][c], *kr = kids[1][c];
        kids[0][c] = kids[1][c] = NULL;
        ret = run_task(o, kl, kr, 0, 0, NULL, 1, err);
    }
done:
    for (int s = 0; s < 2; s++) {
        chunk_src_close(src[s]);
        for (int c = 0; kids[s] && c < n; c++) spill_close(kids[s][c]);
        rx_free(kids[s]);
    }
    for (int c = 0; ch && c < n; c++) {
        spill_close(ch[c].f);
        for (int i = 0; i < ch[c].n_pending; i++) table_free(ch[c].pending[i]);
        rx_free(ch[c].pending);
    }
    rx_free(ch);
    return ret;
}

/* ---- the output: the tasks' files merged by ordinal ----------------------------------------- */

typedef struct {
    SpillReader rd;
    Table *cur;       /* the record being read, or NULL at the end */
    size_t pos;
    const int64_t *lord, *rord;
    unsigned long used_in;   /* the chunk number that last took a row of cur */
} MergeIn;

typedef struct {
    ChunkSrc base;
    Ooc o;
    MergeIn *in;
    int *heap;        /* indices into in, by their current row's ordinals */
    int n_heap;
    Table **retired;  /* records used up while the chunk being built still points into them */
    int n_retired, cap_retired;
    const Table **used;   /* the records the chunk being built takes rows from, once each */
    int n_used;
    unsigned long chunk_no;
    size_t chunk_rows;    /* rows per chunk given out */
    bool done;
} OocSrc;

static bool in_less(const MergeIn *a, const MergeIn *b) {
    int64_t x = a->lord[a->pos], y = b->lord[b->pos];
    if (x != y) return x < y;
    return a->rord && a->rord[a->pos] < b->rord[b->pos];
}

static void sift_down(OocSrc *s, int i) {
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < s->n_heap && in_less(&s->in[s->heap[l]], &s->in[s->heap[m]])) m = l;
        if (l + 1 < s->n_heap && in_less(&s->in[s->heap[l + 1]], &s->in[s->heap[m]])) m = l + 1;
        if (m == i) return;
        int t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

/* Reads in's next record; retires the one used up. 1, 0 at the end, -1 with err. */
static int in_advance(OocSrc *s, MergeIn *in, RxError *err) {
    if (in->cur) {
        if (s->n_retired == s->cap_retired) {
            int nc = s->cap_retired ? s->cap_retired * 2 : 16;
            Table **nr = rx_realloc(s->retired, (size_t)nc * sizeof *nr);
            if (!nr) return oom(err);
            s->retired = nr;
            s->cap_retired = nc;
        }
        s->retired[s->n_retired++] = in->cur;
        in->cur = NULL;
        in->used_in = 0;
    }
    int rc = spill_read_next(&in->rd, &in->cur, err);
    if (rc <= 0) return rc;
    int nc = s->o.out_like->n_cols;
    in->pos = 0;
    in->lord = col_i64(in->cur->cols[nc - (s->o.ij ? 2 : 1)]);
    in->rord = s->o.ij ? col_i64(in->cur->cols[nc - 1]) : NULL;
    return 1;
}

/* The rows (tab[i], row[i]) as a chunk of the schema's columns; s->used lists the tables. */
static Table *build_chunk(OocSrc *s, const Table *const *tab, const uint32_t *row, size_t n) {
    const Schema *sc = &s->o.p->lp->schema;
    Table *t = table_new(sc->n, n);
    if (!t) return NULL;
    for (int c = 0; c < sc->n; c++) {
        const Column *like = s->o.out_like->cols[c];
        Column *out = like->pruned ? col_placeholder(like->type, n) : col_new(like->type, n);
        if (!out) goto oom;
        if (!like->pruned) {
            size_t w = type_width(like->type);
            for (int u = 0; like->type == TY_TEXT && u < s->n_used; u++)
                if (col_share_heaps(out, s->used[u]->cols[c]) < 0) goto oom_col;
            for (size_t i = 0; i < n; i++) {
                const Column *from = tab[i]->cols[c];
                size_t j = row[i];
                switch (w) {   /* the widths of value.h, copied as such (no call per cell) */
                case 1: ((uint8_t *)out->data)[i] = ((const uint8_t *)from->data)[j]; break;
                case 4: ((uint32_t *)out->data)[i] = ((const uint32_t *)from->data)[j]; break;
                case 8: ((uint64_t *)out->data)[i] = ((const uint64_t *)from->data)[j]; break;
                case 16: ((RxStr *)out->data)[i] = ((const RxStr *)from->data)[j]; break;
                default: memcpy((char *)out->data + i * w, (const char *)from->data + j * w, w);
                }
                if (col_is_null(from, j) && col_set_null(out, i) < 0) goto oom_col;
            }
        }
        if (table_set(t, c, out, sc->cols[c].name) < 0) goto oom;
        continue;
    oom_col:
        col_release(out);
        goto oom;
    }
    return t;
oom:
    table_free(t);
    return NULL;
}

static int ooc_next(ChunkSrc *base, Table **out, RxError *err) {
    OocSrc *s = (OocSrc *)base;
    *out = NULL;
    if (s->done) return 0;
    if (ops_check_interrupt(s->o.x, err) < 0) return -1;
    size_t cap = s->chunk_rows, n = 0;
    const Table **tab = rx_malloc(cap * sizeof *tab);
    uint32_t *row = rx_malloc(cap * sizeof *row);
    int ret = -1;
    if (!tab || !row) {
        oom(err);
        goto done;
    }
    s->chunk_no++;
    s->n_used = 0;
    while (n < cap && s->n_heap > 0) {
        MergeIn *in = &s->in[s->heap[0]];
        if (in->used_in != s->chunk_no) {
            in->used_in = s->chunk_no;
            s->used[s->n_used++] = in->cur;
        }
        tab[n] = in->cur;
        row[n] = (uint32_t)in->pos;
        n++;
        if (++in->pos == in->cur->n_rows) {
            int rc = in_advance(s, in, err);
            if (rc < 0) goto done;
            if (rc == 0) s->heap[0] = s->heap[--s->n_heap];
        }
        if (s->n_heap > 0) sift_down(s, 0);
    }
    if (n == 0) {
        s->done = true;
        ret = 0;
        goto done;
    }
    if (!(*out = build_chunk(s, tab, row, n))) {
        oom(err);
        goto done;
    }
    ret = 1;
done:
    for (int i = 0; i < s->n_retired; i++) table_free(s->retired[i]);
    s->n_retired = 0;
    rx_free(tab), rx_free(row);
    if (ret < 0) s->done = true;
    return ret;
}

static void ooc_free(Ooc *o) {
    spill_release_buffers();
    spill_close(o->out);
    rx_free(o->outs);
    table_free(o->out_like);
    rx_tempdir_close(o->dir);
}

static void ooc_close(ChunkSrc *base) {
    OocSrc *s = (OocSrc *)base;
    for (int i = 0; s->in && i < s->o.n_outs; i++) table_free(s->in[i].cur);
    for (int i = 0; i < s->n_retired; i++) table_free(s->retired[i]);
    rx_free(s->retired);
    rx_free(s->used);
    rx_free(s->in);
    rx_free(s->heap);
    ooc_free(&s->o);
    rx_free(s);
}

/* ---- opening -------------------------------------------------------------------------------- */

/* A table of 0 rows with the tasks' output shape: p's schema (placeholders where no operator
 * above reads a column), then the ordinals. */
static Table *output_like(const PNode *p, bool ij) {
    const Schema *sc = &p->lp->schema;
    int n = sc->n + (ij ? 2 : 1);
    Table *t = table_new(n, 0);
    if (!t) return NULL;
    for (int c = 0; c < n; c++) {
        bool ord = c >= sc->n;
        RxType ty = ord ? TY_INT : sc->cols[c].type;
        Column *col = !ord && p->needed && !p->needed[c] ? col_placeholder(ty, 0) : col_new(ty, 0);
        if (!col || table_set(t, c, col, ord ? (c == sc->n ? "#lord" : "#rord") : sc->cols[c].name) < 0) {
            col_release(col);
            table_free(t);
            return NULL;
        }
    }
    return t;
}

ChunkSrc *ooc_join_open(ExecCtx *x, const PNode *p, ChunkSrc *l, ChunkSrc *r, RxError *err) {
    if (!ooc_join_supported(p)) {
        chunk_src_close(l);
        chunk_src_close(r);
        rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "this join has no out-of-core form");
        return NULL;
    }
    const LPlan *lp = p->lp;
    OocSrc *s = rx_calloc(1, sizeof *s);
    Sample *sample = rx_calloc(1, sizeof *sample);
    SpillFile *lf = NULL, *rf = NULL;
    if (!s || !sample) {
        rx_free(s), rx_free(sample);
        chunk_src_close(l);
        chunk_src_close(r);
        oom(err);
        return NULL;
    }
    s->base.next = ooc_next;
    s->base.close = ooc_close;
    Ooc *o = &s->o;
    o->x = x;
    o->p = p;
    o->ij = p->kind == PN_IJOIN;
    o->ranged = o->ij || lp->n_keys == 0;
    o->lcols = lp->in[0]->schema.n;
    o->rcols = lp->in[1]->schema.n;
    for (int k = 0; o->ranged && k < (o->ij ? 4 : 2); k++) {
        int col = o->ij ? lp->ends[k] : k == 0 ? lp->lmatch : lp->rmatch;
        RxType t = lp->in[(o->ij ? k >= 2 : k == 1) ? 1 : 0]->schema.cols[col].type;
        o->fmode |= t == TY_FLOAT;
        o->tsmode |= t == TY_TIMESTAMP;
    }
    size_t limit = rx_memory_limit(), used = rx_memory_used();
    o->target = forced_partition_bytes ? forced_partition_bytes
                : limit ? (limit > used ? (limit - used) / 2 : 0)
                        : SIZE_MAX;
    if (o->target < MIN_TARGET && !forced_partition_bytes) {
        /* too little left to join even small partitions, and to buffer the splits */
        too_big(o, "partitioning and joining its inputs", MIN_TARGET, err);
        goto fail;
    }
    if (!(o->out_like = output_like(p, o->ij))) {
        oom(err);
        goto fail;
    }
    if (!(o->dir = rx_tempdir_open(x->temp_dir, err))) goto fail;
    if (!(o->out = spill_create(o->dir, o->out_like, true, err))) goto fail;
    /* the merge holds a record of each task's output at once */
    spill_set_record_bytes(o->out, clamp(o->target / (2 * MAX_FANOUT), (size_t)16 << 10, (size_t)1 << 20));
    int rc;
    if (!o->ranged && o->target != SIZE_MAX) {
        /* split by key straight from the inputs: one pass over the data fewer */
        rc = split_inputs(o, l, r, err);
        l = r = NULL;
        if (rc < 0) goto fail;
    } else {
        rc = spill_input(o, l, true, true, &lf, sample, err);
        l = NULL;
        if (rc < 0) goto fail;
        rc = spill_input(o, r, false, o->ij, &rf, sample, err);
        r = NULL;
        if (rc < 0) goto fail;
        rc = run_task(o, lf, rf, INT64_MIN, INT64_MAX, sample, 0, err);
        lf = rf = NULL;
        if (rc < 0) goto fail;
    }
    spill_close(lf), spill_close(rf);
    lf = rf = NULL;
    rx_free(sample);
    sample = NULL;
    s->in = rx_calloc(o->n_outs ? (size_t)o->n_outs : 1, sizeof *s->in);
    s->heap = rx_calloc(o->n_outs ? (size_t)o->n_outs : 1, sizeof *s->heap);
    /* chunks of a quarter of a task's share at most */
    uint64_t row_bytes = spill_rows(o->out) ? spill_raw_bytes(o->out) / spill_rows(o->out) + 1 : 1;
    s->chunk_rows = clamp(o->target / 4 / row_bytes, 1024, STREAM_CHUNK_ROWS);
    s->used = rx_malloc(((size_t)o->n_outs + s->chunk_rows) * sizeof *s->used);
    if (!s->in || !s->heap || !s->used) {
        oom(err);
        goto fail;
    }
    for (int i = 0; i < o->n_outs; i++) {
        s->in[i].rd.f = o->out;
        s->in[i].rd.off = o->outs[2 * i];
        s->in[i].rd.end = o->outs[2 * i + 1];
        rc = in_advance(s, &s->in[i], err);
        if (rc < 0) goto fail;
        if (rc > 0) s->heap[s->n_heap++] = i;
    }
    for (int i = s->n_heap / 2 - 1; i >= 0; i--) sift_down(s, i);
    return &s->base;
fail:
    chunk_src_close(l);
    chunk_src_close(r);
    spill_close(lf), spill_close(rf);
    rx_free(sample);
    ooc_close(&s->base);
    return NULL;
}
