/*
 * window.c - ω: window functions over partitions in an order (docs/operators.md, "ω").
 *
 * The operator adds one column per window function to its operand's columns, which it shares;
 * its rows stay in the operand's order. Algorithm:
 *
 *   1. One stable sort of the rows by the order keys (ops_sort_order), then one stable
 *      counting pass by partition id (keys_group): `ord` lists each partition's rows in order,
 *      rows with equal order values in input order.
 *   2. Per function and partition, the frame of each position as positions [lo, hi]: running
 *      (the partition's start .. the current row), ROWS n (n rows back .. the current row),
 *      RANGE d (the first row whose order value is at least v - d .. the current row's last
 *      peer; the rows whose order value is NULL are one another's frame). Both ends only move
 *      forward, so two pointers find every frame of a partition in one pass.
 *   3. Aggregates slide over the frames: count, sum and avg add the rows that enter at hi and
 *      subtract the rows that leave at lo (INT and DURATION in 128 bits, exact; FLOAT with a
 *      compensated sum, NaN and the infinities counted apart so that one which left the frame
 *      is gone); min and max keep a monotonic deque of positions, so each row enters and leaves
 *      it once. lag, lead, first_value and last_value pick a row; rank and dense_rank compare
 *      neighbours' order keys.
 *   4. Each result is written at its row's own place.
 *
 * Errors: an INT sum that does not fit 64 bits names the argument; out of memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/keys.h"
#include "exec/ops.h"
#include "types/compare.h"
#include "types/temporal.h"

typedef struct {
    size_t n;
    uint32_t *ord;        /* positions -> rows, partition after partition */
    uint32_t *bound;      /* partition g holds positions [bound[g], bound[g + 1]) */
    uint32_t n_parts;
    int n_sort;
    Column **ocols;       /* the order keys' values */
    KeySet *okeys;        /* ... as ordered int64 keys, for peers */
    int64_t *ov;          /* scratch: the first order key's values by position (frames) */
    int64_t *pv;          /* scratch: an argument's values by position (slide_column, pick_extreme) */
    bool have_frame;      /* lo/hi hold the frames of `frame` (frames() skips recomputing them) */
    WinSpec frame;
} Win;

static bool order_null(const Column *c, uint32_t r) { return c->type == TY_NULL || col_is_null(c, r); }

/* Rows a and b have equal order values in every key (NULL equal to NULL): peers. */
static bool peers(const Win *w, uint32_t a, uint32_t b) {
    for (int k = 0; k < w->n_sort; k++) {
        bool na = order_null(w->ocols[k], a), nb = order_null(w->ocols[k], b);
        if (na != nb) return false;
        if (!na && w->okeys[k].keys[0][a] != w->okeys[k].keys[0][b]) return false;
    }
    return true;
}

/* The order value of row r as microseconds or an integer (TIMESTAMP, DATE, INT). */
static int64_t order_i64(const Column *c, uint32_t r) {
    return c->type == TY_DATE ? (int64_t)col_i32(c)[r] * US_PER_DAY : col_i64(c)[r];
}

/* Whether frames a and b are the same (their lo/hi agree). */
static bool same_frame(const WinSpec *a, const WinSpec *b) {
    if (a->frame != b->frame) return false;
    if (a->frame == WF_ROWS) return a->rows == b->rows;
    if (a->frame == WF_RANGE) return a->range == b->range && (a->range_f == b->range_f || (isnan(a->range_f) && isnan(b->range_f)));
    return true;
}

/* lo[j], hi[j] for every position j of the frame `s` describes (step 2); kept in w (lo and hi
 * are w's scratch), so a second function over the same frame reuses them. */
static void frames(Win *w, const WinSpec *s, uint32_t *lo, uint32_t *hi) {
    if (w->have_frame && same_frame(&w->frame, s)) return;
    w->frame = *s;
    w->have_frame = true;
    const Column *oc = w->ocols[0];
    if (s->frame == WF_RANGE && oc->type != TY_FLOAT && oc->type != TY_NULL) {
        /* the order values by position, read sequentially by both pointers below */
        for (size_t j = 0; j < w->n; j++)
            w->ov[j] = order_null(oc, w->ord[j]) ? 0 : order_i64(oc, w->ord[j]);
    }
    for (uint32_t g = 0; g < w->n_parts; g++) {
        uint32_t ps = w->bound[g], pe = w->bound[g + 1];
        if (s->frame != WF_RANGE) {
            for (uint32_t j = ps; j < pe; j++) {
                hi[j] = j;
                lo[j] = s->frame == WF_RUNNING || (int64_t)(j - ps) <= s->rows ? ps : j - (uint32_t)s->rows;
            }
            continue;
        }
        const Column *c = w->ocols[0];
        /* NULL order values sort to one end of the partition: [vs, ve) holds the others */
        uint32_t vs = ps, ve = pe;
        while (vs < ve && order_null(c, w->ord[vs])) vs++;
        while (ve > vs && order_null(c, w->ord[ve - 1])) ve--;
        for (uint32_t j = ps; j < vs; j++) lo[j] = ps, hi[j] = vs - 1;
        for (uint32_t j = ve; j < pe; j++) lo[j] = ve, hi[j] = pe - 1;
        uint32_t l = vs, h = vs;
        for (uint32_t j = vs; j < ve; j++) {
            uint32_t r = w->ord[j];
            if (h < j) h = j;
            if (c->type == TY_FLOAT) {
                const double *v = col_f64(c);
                double cur = v[r];
                /* a NaN's frame is the NaNs (they sort above every number) */
                double from = isnan(cur) ? cur : isinf(s->range_f) ? -INFINITY : cur - s->range_f;
                while (l < j && (isnan(from) ? !isnan(v[w->ord[l]]) : rx_float_cmp(v[w->ord[l]], from) < 0)) l++;
                while (h + 1 < ve && rx_float_cmp(v[w->ord[h + 1]], cur) == 0) h++;
            } else {
                const int64_t *ov = w->ov;
                int64_t cur = ov[j], from;
                (void)r;
                if (__builtin_sub_overflow(cur, s->range, &from)) from = INT64_MIN;
                while (l < j && ov[l] < from) l++;
                while (h + 1 < ve && ov[h + 1] == cur) h++;
            }
            lo[j] = l;
            hi[j] = h;
        }
    }
}

/* The running state of a sliding count, sum or avg (step 3). */
typedef struct {
    int64_t cnt;
    __int128 isum, months, us;
    double fsum, comp;     /* Neumaier's compensated sum of the finite values */
    int64_t nan, pinf, ninf;
} Slide;

static void slide_add(Slide *st, const Column *a, uint32_t r, int sign) {
    if (a->type == TY_NULL || col_is_null(a, r)) return;
    st->cnt += sign;
    switch (a->type) {
    case TY_INT: st->isum += sign * (__int128)col_i64(a)[r]; break;
    case TY_DURATION:
        st->months += sign * (__int128)col_dur(a)[r].months;
        st->us += sign * (__int128)col_dur(a)[r].us;
        break;
    case TY_FLOAT: {
        double x = col_f64(a)[r];
        if (isnan(x)) st->nan += sign;
        else if (isinf(x)) *(x > 0 ? &st->pinf : &st->ninf) += sign;
        else {
            x *= sign;
            double t = st->fsum + x;
            st->comp += fabs(st->fsum) >= fabs(x) ? (st->fsum - t) + x : (x - t) + st->fsum;
            st->fsum = t;
        }
        break;
    }
    default: break;
    }
}

static double slide_float(const Slide *st) {
    if (st->nan || (st->pinf && st->ninf)) return NAN;
    if (st->pinf) return INFINITY;
    if (st->ninf) return -INFINITY;
    return st->fsum + st->comp;
}

/* count, sum or avg of an INT argument without NULLs: the values gathered by position first, so
 * the rows entering and leaving a frame are read in sequence; the same results as the general
 * loop below. -1 with err. */
static int slide_int(const Win *w, const WinSpec *s, const LPlan *lp, const Column *a,
                     const uint32_t *lo, const uint32_t *hi, Column *out, RxError *err) {
    const int64_t *av = col_i64(a);
    int64_t *pv = w->pv;
    for (size_t j = 0; j < w->n; j++) pv[j] = av[w->ord[j]];
    for (uint32_t g = 0; g < w->n_parts; g++) {
        uint32_t ps = w->bound[g], pe = w->bound[g + 1], cl = ps, ch = ps;
        __int128 sum = 0;
        for (uint32_t j = ps; j < pe; j++) {
            for (; ch <= hi[j]; ch++) sum += pv[ch];
            for (; cl < lo[j]; cl++) sum -= pv[cl];
            uint32_t r = w->ord[j];
            int64_t cnt = (int64_t)(ch - cl);
            if (s->fn == WIN_COUNT) {
                col_i64(out)[r] = cnt;
            } else if (cnt == 0) {
                if (col_set_null(out, r) < 0) return ops_oom(err);
            } else if (s->fn == WIN_SUM) {
                if (sum < INT64_MIN || sum > INT64_MAX)
                    return rx_error(err, RX_ERUNTIME, lp->src, s->arg->span,
                                    "integer overflow in sum: the total does not fit in 64 bits");
                col_i64(out)[r] = (int64_t)sum;
            } else {
                col_f64(out)[r] = (double)sum / (double)cnt;
            }
        }
    }
    return 0;
}

/* count, sum or avg over the frames into out (of s->type, n rows); -1 with err. */
static int slide_column(const Win *w, const WinSpec *s, const LPlan *lp, const Column *a,
                        const uint32_t *lo, const uint32_t *hi, Column *out, RxError *err) {
    if (!s->star && a->type == TY_INT && !a->valid) return slide_int(w, s, lp, a, lo, hi, out, err);
    for (uint32_t g = 0; g < w->n_parts; g++) {
        uint32_t ps = w->bound[g], pe = w->bound[g + 1], cl = ps, ch = ps;
        Slide st = {0};
        for (uint32_t j = ps; j < pe; j++) {
            while (ch <= hi[j]) {
                if (s->star) st.cnt++;
                else slide_add(&st, a, w->ord[ch], 1);
                ch++;
            }
            while (cl < lo[j]) {
                if (s->star) st.cnt--;
                else slide_add(&st, a, w->ord[cl], -1);
                cl++;
            }
            uint32_t r = w->ord[j];
            if (s->fn == WIN_COUNT) {
                col_i64(out)[r] = st.cnt;
                continue;
            }
            if (st.cnt == 0) {
                if (col_set_null(out, r) < 0) return ops_oom(err);
                continue;
            }
            RxType at = a->type;
            if (s->fn == WIN_SUM) {
                if (at == TY_FLOAT) {
                    col_f64(out)[r] = slide_float(&st);
                } else if (at == TY_INT) {
                    if (st.isum < INT64_MIN || st.isum > INT64_MAX)
                        return rx_error(err, RX_ERUNTIME, lp->src, s->arg->span,
                                        "integer overflow in sum: the total does not fit in 64 bits");
                    col_i64(out)[r] = (int64_t)st.isum;
                } else {
                    if (st.months < INT64_MIN || st.months > INT64_MAX || st.us < INT64_MIN || st.us > INT64_MAX)
                        return rx_error(err, RX_ERUNTIME, lp->src, s->arg->span,
                                        "duration overflow in sum: the total does not fit in 64 bits");
                    col_dur(out)[r] = (RxDuration){(int64_t)st.months, (int64_t)st.us};
                }
            } else if (at == TY_DURATION) {
                __int128 span = st.months * 30 * US_PER_DAY + st.us;
                col_dur(out)[r] = (RxDuration){0, (int64_t)((double)span / (double)st.cnt)};
            } else {
                double sum = at == TY_INT ? (double)st.isum : slide_float(&st);
                col_f64(out)[r] = sum / (double)st.cnt;
            }
        }
    }
    return 0;
}

/* min or max: pick[row] = the row holding the frame's least (greatest) value, by a monotonic
 * deque of positions; ROW_NONE when the frame has no value. -1 on OOM. */
static int pick_extreme(Win *w, const WinSpec *s, const Column *a, const uint32_t *lo,
                        const uint32_t *hi, uint32_t *pick, RxError *err) {
    KeySet ks = {0};
    if (keys_encode_ordered(&a, 1, &ks, err) < 0) return -1;
    const int64_t *key = ks.keys[0];
    uint32_t *dq = rx_malloc((w->n ? w->n : 1) * sizeof *dq);
    if (!dq) {
        keys_free(&ks);
        return ops_oom(err);
    }
    bool is_min = s->fn == WIN_MIN;
    /* the keys by position, read in sequence (a NULL's key is never read: it skips the deque) */
    int64_t *kp = w->pv;
    for (size_t j = 0; j < w->n; j++) kp[j] = key[w->ord[j]];
    for (uint32_t g = 0; g < w->n_parts; g++) {
        uint32_t ps = w->bound[g], pe = w->bound[g + 1], ch = ps;
        size_t head = 0, tail = 0;
        for (uint32_t j = ps; j < pe; j++) {
            for (; ch <= hi[j]; ch++) {
                if (a->valid && col_is_null(a, w->ord[ch])) continue;
                int64_t k = kp[ch];
                while (tail > head) {
                    int64_t b = kp[dq[tail - 1]];
                    if (is_min ? b < k : b > k) break;
                    tail--;
                }
                dq[tail++] = ch;
            }
            while (tail > head && dq[head] < lo[j]) head++;
            pick[w->ord[j]] = tail > head ? w->ord[dq[head]] : ROW_NONE;
        }
    }
    rx_free(dq);
    keys_free(&ks);
    return 0;
}

/* lag/lead with a default: the picked rows' values, the default's (at the row itself) where
 * no row is picked. A new column, or NULL with err. */
static Column *with_default(const WinSpec *s, const Column *a, const Column *def, const uint32_t *pick,
                            size_t n, RxError *err) {
    ColBuilder b;
    colb_init(&b, s->type, n);
    for (size_t i = 0; i < n; i++) {
        const Column *src = pick[i] != ROW_NONE ? a : def;
        size_t at = pick[i] != ROW_NONE ? pick[i] : i;
        if (src->type == TY_NULL || col_is_null(src, at)) {
            colb_push_null(&b);
            continue;
        }
        Value v = col_get(src, at);
        if (s->type == TY_FLOAT && v.type == TY_INT) {
            v.v.f = (double)v.v.i;
            v.type = TY_FLOAT;
        }
        colb_push(&b, &v);
    }
    Column *c = colb_finish(&b);
    if (!c) ops_oom(err);
    return c;
}

/* e's values over in's rows: in's own column, shared, when e is a column reference (ω only
 * reads its operands), else e evaluated. NULL with err. */
static Column *operand(const Expr *e, const Table *in, RxError *err) {
    if (e->kind == EX_COL) {
        col_retain(in->cols[e->col]);
        return in->cols[e->col];
    }
    return eval_column(e, in, err);
}

/* The column of window function s (n rows, in row order); NULL with err. */
static Column *win_column(ExecCtx *x, Win *w, const WinSpec *s, const LPlan *lp, const Table *in,
                          uint32_t *lo, uint32_t *hi, uint32_t *pick, RxError *err) {
    size_t n = w->n;
    Column *a = NULL, *def = NULL, *out = NULL;
    if (s->arg && !(a = operand(s->arg, in, err))) return NULL;
    switch (s->fn) {
    case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK: {
        if (!(out = col_new(TY_INT, n))) goto oom;
        int64_t *v = col_i64(out);
        for (uint32_t g = 0; g < w->n_parts; g++) {
            uint32_t ps = w->bound[g], pe = w->bound[g + 1];
            int64_t dense = 0, rank = 0;
            for (uint32_t j = ps; j < pe; j++) {
                bool tie = j > ps && peers(w, w->ord[j - 1], w->ord[j]);
                if (!tie) dense++, rank = j - ps + 1;
                v[w->ord[j]] = s->fn == WIN_ROW_NUMBER ? (int64_t)(j - ps + 1) : s->fn == WIN_RANK ? rank : dense;
            }
        }
        break;
    }
    case WIN_LAG: case WIN_LEAD:
        for (uint32_t g = 0; g < w->n_parts; g++) {
            uint32_t ps = w->bound[g], pe = w->bound[g + 1];
            for (uint32_t j = ps; j < pe; j++) {
                bool in_part = s->fn == WIN_LAG ? (int64_t)(j - ps) >= s->offset : (int64_t)(pe - 1 - j) >= s->offset;
                pick[w->ord[j]] = !in_part ? ROW_NONE
                                : w->ord[s->fn == WIN_LAG ? j - (uint32_t)s->offset : j + (uint32_t)s->offset];
            }
        }
        if (s->def && s->def->type != TY_NULL) {
            if (!(def = operand(s->def, in, err))) goto fail;
            out = with_default(s, a, def, pick, n, err);
            if (!out) goto fail;
        } else if (!(out = col_gather(a, pick, n))) {
            goto oom;
        }
        break;
    case WIN_FIRST_VALUE: case WIN_LAST_VALUE: case WIN_MIN: case WIN_MAX:
        frames(w, s, lo, hi);
        if (a->type == TY_NULL) {
            for (size_t i = 0; i < n; i++) pick[i] = ROW_NONE;
        } else if (s->fn == WIN_MIN || s->fn == WIN_MAX) {
            if (pick_extreme(w, s, a, lo, hi, pick, err) < 0) goto fail;
        } else {
            for (size_t j = 0; j < n; j++) pick[w->ord[j]] = w->ord[s->fn == WIN_FIRST_VALUE ? lo[j] : hi[j]];
        }
        if (!(out = col_gather(a, pick, n))) goto oom;
        break;
    case WIN_COUNT: case WIN_SUM: case WIN_AVG: {
        frames(w, s, lo, hi);
        RxType t = s->type == TY_NULL ? TY_INT : s->type;
        if (!(out = col_new(t, n))) goto oom;
        memset(out->data, 0, n * type_width(t));
        if (s->fn != WIN_COUNT && a->type == TY_NULL) {
            for (size_t i = 0; i < n; i++)
                if (col_set_null(out, i) < 0) goto oom;
        } else if (slide_column(w, s, lp, a, lo, hi, out, err) < 0) {
            goto fail;
        }
        break;
    }
    case WIN_N_FUNCTIONS: break;
    }
    col_release(a);
    col_release(def);
    (void)x;
    return out;
oom:
    ops_oom(err);
fail:
    col_release(a);
    col_release(def);
    col_release(out);
    return NULL;
}

Table *ops_window(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const LPlan *lp = p->lp;
    size_t n = in->n_rows;
    int nin = lp->in[0]->schema.n;
    Win w = {.n = n, .n_sort = lp->n_sort};
    uint32_t *perm = NULL, *ids = NULL, *lo = NULL, *hi = NULL, *pick = NULL;
    Column **gcols = NULL;
    Table *t = NULL;
    w.ocols = rx_calloc((size_t)lp->n_sort + 1, sizeof *w.ocols);
    w.okeys = rx_calloc((size_t)lp->n_sort + 1, sizeof *w.okeys);
    gcols = rx_calloc((size_t)lp->n_group + 1, sizeof *gcols);
    w.ord = rx_malloc((n ? n : 1) * sizeof *w.ord);
    lo = rx_malloc((n ? n : 1) * sizeof *lo);
    hi = rx_malloc((n ? n : 1) * sizeof *hi);
    pick = rx_malloc((n ? n : 1) * sizeof *pick);
    w.ov = rx_malloc((n ? n : 1) * sizeof *w.ov);
    w.pv = rx_malloc((n ? n : 1) * sizeof *w.pv);
    if (!w.ocols || !w.okeys || !gcols || !w.ord || !lo || !hi || !pick || !w.ov || !w.pv) {
        ops_oom(err);
        goto out;
    }
    /* step 1: the order, then the partitions (stable) */
    if (!(perm = ops_sort_order(x, lp->sort, lp->n_sort, in, err))) goto out;
    uint32_t ng = 1;
    if (lp->n_group) {
        for (int k = 0; k < lp->n_group; k++)
            if (!(gcols[k] = operand(lp->group[k], in, err))) goto out;
        if (keys_group((const Column *const *)gcols, lp->n_group, n, &ids, &ng, err) < 0) goto out;
    }
    if (n == 0) ng = 0;
    w.n_parts = ng;
    if (!(w.bound = rx_calloc((size_t)ng + 2, sizeof *w.bound))) {
        ops_oom(err);
        goto out;
    }
    if (ids) {
        for (size_t i = 0; i < n; i++) w.bound[ids[i] + 1]++;
        for (uint32_t g = 0; g < ng; g++) w.bound[g + 1] += w.bound[g];
        uint32_t *next = lo;   /* scratch until the frames use it */
        memcpy(next, w.bound, ng * sizeof *next);
        for (size_t i = 0; i < n; i++) w.ord[next[ids[perm[i]]]++] = perm[i];
    } else {
        memcpy(w.ord, perm, n * sizeof *w.ord);
        w.bound[1] = (uint32_t)n;
    }
    for (int k = 0; k < lp->n_sort; k++) {
        if (!(w.ocols[k] = operand(lp->sort[k].e, in, err))) goto out;
        if (w.ocols[k]->type != TY_NULL &&
            keys_encode_ordered((const Column *const *)&w.ocols[k], 1, &w.okeys[k], err) < 0)
            goto out;
    }
    /* steps 2-4, one function after another; the operand's columns are shared */
    t = table_new(lp->schema.n, n);
    if (!t) {
        ops_oom(err);
        goto out;
    }
    for (int i = 0; i < nin; i++) {
        col_retain(in->cols[i]);
        if (table_set(t, i, in->cols[i], lp->schema.cols[i].name) < 0) {
            ops_oom(err);
            goto fail;
        }
    }
    for (int i = 0; i < lp->n_wins; i++) {
        if (ops_check_interrupt(x, err) < 0) goto fail;
        Column *c = win_column(x, &w, &lp->wins[i], lp, in, lo, hi, pick, err);
        if (!c) goto fail;
        if (table_set(t, nin + i, c, lp->schema.cols[nin + i].name) < 0) {
            ops_oom(err);
            goto fail;
        }
    }
    goto out;
fail:
    table_free(t);
    t = NULL;
out:
    for (int k = 0; k < lp->n_sort && w.ocols; k++) {
        if (w.okeys) keys_free(&w.okeys[k]);
        col_release(w.ocols[k]);
    }
    for (int k = 0; k < lp->n_group && gcols; k++) col_release(gcols[k]);
    rx_free(w.ocols), rx_free(w.okeys), rx_free(gcols), rx_free(w.ord), rx_free(w.bound);
    rx_free(w.ov), rx_free(w.pv);
    rx_free(perm), rx_free(ids), rx_free(lo), rx_free(hi), rx_free(pick);
    return t;
}

/* ---- FILL ----------------------------------------------------------------------------------- */

/*
 * FILL ts EVERY w [PER keys] [USING col => rule, …] (R): one row per bucket of w per key, from
 * the key's first bucket to its last.
 *
 *   1. Each row's bucket (time_bucket(w, ts)), each row's key id (keys_group).
 *   2. Sort the rows by (key id, bucket), rows with a NULL time after their key's buckets in
 *      input order; two rows of one key in one bucket are an error (γ first).
 *   3. Walk each key's buckets from its first to its last: a bucket with a row takes it, a
 *      missing one gets a new row whose time is the bucket's start, whose keys are the key's, and
 *      whose other columns follow their rule: NULL, previous (the value of the key's last row
 *      before the gap) or linear (between the rows before and after the gap, by time).
 */
typedef struct {
    uint32_t g;
    uint32_t row;
    int64_t b;
    bool null;
} FillRow;

static int fill_cmp(const void *x, const void *y) {
    const FillRow *a = x, *b = y;
    if (a->g != b->g) return a->g < b->g ? -1 : 1;
    if (a->null != b->null) return a->null ? 1 : -1;
    if (!a->null && a->b != b->b) return a->b < b->b ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

static double num_at(const Column *c, uint32_t r) {
    return c->type == TY_INT ? (double)col_i64(c)[r] : col_f64(c)[r];
}

Table *ops_fill(ExecCtx *x, const PNode *p, Table *in, RxError *err) {
    const LPlan *lp = p->lp;
    size_t n = in->n_rows;
    int64_t w = lp->within.us;
    const Column *tc = in->cols[lp->fill_col];
    FillRow *rows = rx_malloc((n ? n : 1) * sizeof *rows);
    uint32_t *ids = NULL, ng = 1, *src = NULL, *prev = NULL, *next = NULL, *rep = NULL;
    size_t *pos = NULL;   /* the counting sort's positions per key id */
    /* which of the per-output-row arrays the rules read: only those are made */
    bool want_prev = false, want_next = false;
    for (int c = 0; c < lp->schema.n; c++) {
        bool key = c == lp->fill_col;
        for (int k = 0; k < lp->n_group; k++) key |= lp->group[k]->col == c;
        if (key) continue;
        want_prev |= lp->fill_rule[c] != FILL_NULL;
        want_next |= lp->fill_rule[c] == FILL_LINEAR;
    }
    int64_t *bucket = NULL, *rowb = want_next ? rx_malloc((n ? n : 1) * sizeof *rowb) : NULL;
    Column *tcol = NULL;   /* the time column of the result: each row's bucket */
    const Column **gcols = rx_calloc((size_t)lp->n_group + 1, sizeof *gcols);
    Table *t = NULL;
    if (!rows || !gcols || (want_next && !rowb)) {
        ops_oom(err);
        goto out;
    }
    /* step 1, each row placed among its key's rows at once (a counting sort by key id, which
     * keeps a key's rows in input order) */
    for (int k = 0; k < lp->n_group; k++) gcols[k] = in->cols[lp->group[k]->col];
    if (lp->n_group && keys_group(gcols, lp->n_group, n, &ids, &ng, err) < 0) goto out;
    if (!(pos = rx_calloc((size_t)ng + 1, sizeof *pos))) {
        ops_oom(err);
        goto out;
    }
    for (size_t i = 0; i < n; i++) pos[(ids ? ids[i] : 0) + 1]++;
    for (uint32_t g = 0; g < ng; g++) pos[g + 1] += pos[g];
    for (size_t i = 0; i < n; i++) {
        FillRow *fr = &rows[pos[ids ? ids[i] : 0]++];
        fr->g = ids ? ids[i] : 0;
        fr->row = (uint32_t)i;
        fr->null = col_is_null(tc, i);
        fr->b = 0;
        const char *why;
        if (!fr->null && tm_bucket_ts((RxDuration){0, w}, col_i64(tc)[i], TM_BUCKET_ORIGIN, &fr->b, &why) < 0) {
            char at[TM_BUF];
            tm_format_timestamp(col_i64(tc)[i], at);
            rx_error(err, RX_ERUNTIME, lp->src, lp->span, "FILL: the bucket of %s: %s", at, why);
            goto out;
        }
        if (rowb) rowb[i] = fr->b;
    }
    /* step 2: each key's rows (pos[g] is now where key g + 1's start) by time; a series that
     * comes in time order is in that order already */
    for (uint32_t g = 0; g < ng; g++) {
        size_t a = g ? pos[g - 1] : 0, b = pos[g];
        size_t i = a + 1;
        while (i < b && fill_cmp(&rows[i - 1], &rows[i]) < 0) i++;
        if (i < b) qsort(rows + a, b - a, sizeof *rows, fill_cmp);
    }
    for (size_t i = 1; i < n; i++)
        if (rows[i].g == rows[i - 1].g && !rows[i].null && !rows[i - 1].null && rows[i].b == rows[i - 1].b) {
            char at[TM_BUF];
            tm_format_timestamp(rows[i].b, at);
            rx_error(err, RX_EVALUE, lp->src, lp->span,
                     "FILL needs at most one row per key and bucket: rows %u and %u are both in the "
                     "bucket that starts at %s (aggregate them first: γ keys, time_bucket(…) → b; …)",
                     rows[i - 1].row + 1, rows[i].row + 1, at);
            goto out;
        }
    /* step 3: twice over the keys' runs, to count the rows, then to place them; a key's buckets
     * span its rows' buckets and FROM … TO … */
    int64_t from_b = 0, to_b = 0;
    const char *why;
    if (lp->fill_range && (tm_bucket_ts((RxDuration){0, w}, lp->fill_from, TM_BUCKET_ORIGIN, &from_b, &why) < 0 ||
                           tm_bucket_ts((RxDuration){0, w}, lp->fill_to, TM_BUCKET_ORIGIN, &to_b, &why) < 0)) {
        rx_error(err, RX_ERUNTIME, lp->src, lp->span, "FILL: FROM or TO: %s", why);
        goto out;
    }
    size_t total = 0, o = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (total > UINT32_MAX - 1) {
                rx_error(err, RX_ELIMIT, lp->src, lp->span, "FILL would make more than %u rows", UINT32_MAX - 1);
                goto out;
            }
            src = rx_malloc((total ? total : 1) * sizeof *src);
            prev = want_prev ? rx_malloc((total ? total : 1) * sizeof *prev) : NULL;
            next = want_next ? rx_malloc((total ? total : 1) * sizeof *next) : NULL;
            rep = lp->n_group ? rx_malloc((total ? total : 1) * sizeof *rep) : NULL;
            if ((tcol = col_new(TY_TIMESTAMP, total))) bucket = col_i64(tcol);
            if (!src || (want_prev && !prev) || (want_next && !next) || (lp->n_group && !rep) || !tcol) {
                ops_oom(err);
                goto out;
            }
        }
        for (size_t i0 = 0, i1; i0 < n; i0 = i1) {
            size_t j = i0;
            for (i1 = i0; i1 < n && rows[i1].g == rows[i0].g; i1++) j += !rows[i1].null;
            /* rows [i0, j) have times, [j, i1) not */
            bool any = j > i0;
            int64_t lo_b = any ? rows[i0].b : from_b, hi_b = any ? rows[j - 1].b : to_b;
            if (lp->fill_range) {
                if (from_b < lo_b) lo_b = from_b;
                if (to_b > hi_b) hi_b = to_b;
            }
            if (!any && !lp->fill_range) lo_b = 1, hi_b = 0;
            uint32_t before = ROW_NONE, r0 = rows[i0].row;
            size_t k = i0;
            for (int64_t b = lo_b; b <= hi_b; b += w) {
                bool has = k < j && rows[k].b == b;
                if (pass == 0) {
                    total++;
                } else {
                    src[o] = has ? rows[k].row : ROW_NONE;
                    if (prev) prev[o] = has ? rows[k].row : before;
                    if (next) next[o] = has ? rows[k].row : k < j ? rows[k].row : ROW_NONE;
                    if (rep) rep[o] = has ? rows[k].row : r0;
                    bucket[o] = b;
                    o++;
                }
                if (has) before = rows[k++].row;
                if (b > INT64_MAX - w) break;
            }
            for (size_t i = j; i < i1; i++) {
                if (pass == 0) {
                    total++;
                    continue;
                }
                src[o] = rows[i].row;
                if (prev) prev[o] = rows[i].row;
                if (next) next[o] = rows[i].row;
                if (rep) rep[o] = rows[i].row;
                bucket[o++] = 0;
            }
        }
    }
    if (ops_check_interrupt(x, err) < 0) goto out;
    t = table_new(lp->schema.n, total);
    if (!t) {
        ops_oom(err);
        goto out;
    }
    for (int c = 0; c < lp->schema.n; c++) {
        const Column *col = in->cols[c];
        Column *res = NULL;
        bool key = false;
        for (int k = 0; k < lp->n_group; k++) key |= lp->group[k]->col == c;
        if (c == lp->fill_col) {
            /* the buckets written in step 3; a row's own NULL time stays NULL */
            res = tcol;
            tcol = NULL;
            for (size_t i = 0; i < total; i++)
                if (src[i] != ROW_NONE && col_is_null(tc, src[i]) && col_set_null(res, i) < 0) {
                    col_release(res);
                    res = NULL;
                    break;
                }
        } else if (key) {
            res = col_gather(col, rep, total);
        } else if (lp->fill_rule[c] == FILL_NULL) {
            res = col_gather(col, src, total);
        } else if (lp->fill_rule[c] == FILL_PREVIOUS) {
            res = col_gather(col, prev, total);
        } else if ((res = col_new(TY_FLOAT, total))) {
            for (size_t i = 0; i < total; i++) {
                double v = 0;
                bool null;
                if (src[i] != ROW_NONE) {
                    null = col->type == TY_NULL || col_is_null(col, src[i]);
                    if (!null) v = num_at(col, src[i]);
                } else {
                    null = col->type == TY_NULL || prev[i] == ROW_NONE || next[i] == ROW_NONE ||
                           col_is_null(col, prev[i]) || col_is_null(col, next[i]);
                    if (!null) {
                        double v0 = num_at(col, prev[i]), v1 = num_at(col, next[i]);
                        int64_t b0 = rowb[prev[i]], b1 = rowb[next[i]];
                        v = v0 + (v1 - v0) * ((double)(bucket[i] - b0) / (double)(b1 - b0));
                    }
                }
                col_f64(res)[i] = v;
                if (null && col_set_null(res, i) < 0) {
                    col_release(res);
                    res = NULL;
                    break;
                }
            }
        }
        if (!res || table_set(t, c, res, lp->schema.cols[c].name) < 0) {
            col_release(res);
            table_free(t);
            t = NULL;
            ops_oom(err);
            goto out;
        }
    }
out:
    rx_free(rows), rx_free(ids), rx_free(gcols), rx_free(src), rx_free(prev), rx_free(next);
    rx_free(rep), rx_free(rowb), rx_free(pos);
    col_release(tcol);
    return t;
}
