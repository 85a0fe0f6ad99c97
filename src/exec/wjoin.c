/*
 * wjoin.c - the window join (docs/operators.md, "WJOIN"): for each left row, aggregates of the
 * right rows of its keys whose time lies in the row's window [t + lo, t + hi] (closed), and
 * under PREVAILING the right row in force at the window's start as well.
 *
 * The operator keeps its left operand's rows, in their order, and adds one column per
 * aggregate. Algorithm, one sweep rather than a join followed by γ:
 *
 *   1. Partition ids from the equality keys (keys_partition), ordered int64 keys of the two
 *      time columns (keys_encode_ordered). A row with a NULL key or time, or a left row whose
 *      keys no right row has, takes no part: its window is empty.
 *   2. One sort of each side's remaining rows by (partition, time, row): `rord` lists the right
 *      rows, `lord` the left ones. Partitions come in one order on both sides, so as the left
 *      rows are taken in `lord` order both ends of their windows (positions in `rord`) only move
 *      forward, found by two pointers.
 *   3. Per aggregate, one pass over `lord`: count, sum and avg add the rows that enter the
 *      window and subtract those that leave it (INT in 128 bits, exact; FLOAT with a
 *      compensated sum, NaN and the infinities counted apart); min and max keep a monotonic
 *      deque of positions; first and last take the first (last) position in the window whose
 *      value is not NULL, from arrays of the next (previous) such position.
 *   4. Each result is written at its left row's own place.
 *
 * PREVAILING: when the window holds no right row at its very start t + lo, the latest right
 * row before it (the last in input order among rows of one time) counts as the window's first
 * row. That position is the window's start position less one, so the start stays monotonic.
 *
 * Errors: an INT sum that does not fit 64 bits names the argument; out of memory; interrupt.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/exec.h"
#include "exec/keys.h"
#include "exec/ops.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    uint32_t part;
    uint32_t row;
    int64_t t;
} WjRow;

static int cmp_wjrow(const void *a, const void *b) {
    const WjRow *x = a, *y = b;
    if (x->part != y->part) return x->part < y->part ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The rows of one side that take part, sorted (step 2); *n_out of them. NULL on OOM. */
static WjRow *sorted_rows(const int64_t *t, size_t n, const uint64_t *valid, const uint32_t *part,
                          size_t *n_out) {
    WjRow *v = rx_malloc((n ? n : 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (valid && !bitmap_get(valid, i)) continue;
        uint32_t p = part ? part[i] : 0;
        if (p == ROW_NONE) continue;
        v[k++] = (WjRow){p, (uint32_t)i, t[i]};
    }
    qsort(v, k, sizeof *v, cmp_wjrow);
    *n_out = k;
    return v;
}

/* The running state of a sliding count, sum or avg. */
typedef struct {
    int64_t cnt;
    __int128 isum;
    double fsum, comp;     /* Neumaier's compensated sum of the finite values */
    int64_t nan, pinf, ninf;
} WjSlide;

static void slide_add(WjSlide *st, const Column *a, uint32_t r, int sign) {
    if (a->type == TY_NULL || col_is_null(a, r)) return;
    st->cnt += sign;
    if (a->type == TY_INT) {
        st->isum += sign * (__int128)col_i64(a)[r];
    } else if (a->type == TY_FLOAT) {
        double x = col_f64(a)[r];
        if (isnan(x)) st->nan += sign;
        else if (isinf(x)) *(x > 0 ? &st->pinf : &st->ninf) += sign;
        else {
            x *= sign;
            double t = st->fsum + x;
            st->comp += fabs(st->fsum) >= fabs(x) ? (st->fsum - t) + x : (x - t) + st->fsum;
            st->fsum = t;
        }
    }
}

static double slide_float(const WjSlide *st) {
    if (st->nan || (st->pinf && st->ninf)) return NAN;
    if (st->pinf) return INFINITY;
    if (st->ninf) return -INFINITY;
    return st->fsum + st->comp;
}

/* The windows: left row lord[k] aggregates the right rows rord[wl[k] .. wh[k]) (step 2). */
typedef struct {
    const WjRow *lord, *rord;
    size_t nl, nr;         /* rows taking part on each side */
    uint32_t *wl, *wh;
} Windows;

/* count(*), count, sum or avg into out (nrows rows of the left input; rows outside lord keep
 * the empty window's value). -1 with err. */
static int slide_column(const LPlan *lp, const AggSpec *ag, const Windows *w, const Column *a,
                        Column *out, RxError *err) {
    WjSlide st = {0};
    uint32_t cl = 0, ch = 0;   /* the positions in the window so far: [cl, ch) */
    bool star = ag->fn == AGG_COUNT_STAR;
    for (size_t k = 0; k < w->nl; k++) {
        uint32_t lo = w->wl[k], hi = w->wh[k];
        uint32_t stop = lo < ch ? lo : ch;
        for (; cl < stop; cl++) {
            if (star) st.cnt--;
            else slide_add(&st, a, w->rord[cl].row, -1);
        }
        if (cl == ch || lo >= ch) {
            /* the window moved past every row it held: start afresh (no rounding carried) */
            memset(&st, 0, sizeof st);
            cl = ch = lo > ch ? lo : ch;
        }
        for (; ch < hi; ch++) {
            if (star) st.cnt++;
            else slide_add(&st, a, w->rord[ch].row, 1);
        }
        uint32_t r = w->lord[k].row;
        if (ag->fn == AGG_COUNT_STAR || ag->fn == AGG_COUNT) {
            col_i64(out)[r] = st.cnt;
            continue;
        }
        if (st.cnt == 0) continue;   /* NULL already */
        out->valid[r >> 6] |= UINT64_C(1) << (r & 63);
        if (ag->fn == AGG_SUM && a->type == TY_INT) {
            if (st.isum < INT64_MIN || st.isum > INT64_MAX)
                return rx_error(err, RX_ERUNTIME, lp->src, ag->arg->span,
                                "integer overflow in sum: the window's total does not fit in 64 bits");
            col_i64(out)[r] = (int64_t)st.isum;
        } else if (ag->fn == AGG_SUM) {
            col_f64(out)[r] = slide_float(&st);
        } else {
            double sum = a->type == TY_INT ? (double)st.isum : slide_float(&st);
            col_f64(out)[r] = sum / (double)st.cnt;
        }
    }
    return 0;
}

/* min or max: pick[row] = the right row holding the window's least (greatest) value, by a
 * monotonic deque of positions; first or last: the first (last) position whose value is not
 * NULL. ROW_NONE when the window has no value. -1 with err. */
static int pick_rows(const AggSpec *ag, const Windows *w, const Column *a, uint32_t *pick, RxError *err) {
    if (a->type == TY_NULL) return 0;
    size_t nr = w->nr;
    if (ag->fn == AGG_FIRST || ag->fn == AGG_LAST) {
        /* near[j]: the nearest position at or after j (first) or at or before j (last) whose
         * value is not NULL, ROW_NONE when none */
        uint32_t *near = rx_malloc((nr + 1) * sizeof *near);
        if (!near) return ops_oom(err);
        if (ag->fn == AGG_FIRST) {
            near[nr] = ROW_NONE;
            for (size_t j = nr; j-- > 0;) near[j] = col_is_null(a, w->rord[j].row) ? near[j + 1] : (uint32_t)j;
        } else {
            uint32_t last = ROW_NONE;
            for (size_t j = 0; j < nr; j++) {
                if (!col_is_null(a, w->rord[j].row)) last = (uint32_t)j;
                near[j] = last;
            }
        }
        for (size_t k = 0; k < w->nl; k++) {
            uint32_t lo = w->wl[k], hi = w->wh[k], j = ROW_NONE;
            if (lo < hi) {
                j = ag->fn == AGG_FIRST ? near[lo] : near[hi - 1];
                if (j != ROW_NONE && (j < lo || j >= hi)) j = ROW_NONE;
            }
            pick[w->lord[k].row] = j == ROW_NONE ? ROW_NONE : w->rord[j].row;
        }
        rx_free(near);
        return 0;
    }
    KeySet ks = {0};
    if (keys_encode_ordered(&a, 1, &ks, err) < 0) return -1;
    const int64_t *key = ks.keys[0];
    uint32_t *dq = rx_malloc((nr ? nr : 1) * sizeof *dq);
    if (!dq) {
        keys_free(&ks);
        return ops_oom(err);
    }
    bool is_min = ag->fn == AGG_MIN;
    size_t head = 0, tail = 0;
    uint32_t ch = 0;
    for (size_t k = 0; k < w->nl; k++) {
        uint32_t lo = w->wl[k], hi = w->wh[k];
        if (ch < lo) ch = lo;
        for (; ch < hi; ch++) {
            uint32_t r = w->rord[ch].row;
            if (col_is_null(a, r)) continue;
            while (tail > head) {
                int64_t b = key[w->rord[dq[tail - 1]].row];
                if (is_min ? b <= key[r] : b >= key[r]) break;
                tail--;
            }
            dq[tail++] = ch;
        }
        while (tail > head && dq[head] < lo) head++;
        pick[w->lord[k].row] = tail > head ? w->rord[dq[head]].row : ROW_NONE;
    }
    rx_free(dq);
    keys_free(&ks);
    return 0;
}

/* The column of aggregate ag over the windows, one row per left row (nl of them); NULL with
 * err. */
static Column *agg_column(const LPlan *lp, const AggSpec *ag, const Windows *w, const Table *r, size_t nl,
                          RxError *err) {
    Column *a = NULL, *out = NULL;
    uint32_t *pick = NULL;
    if (ag->arg && !(a = eval_column(ag->arg, r, err))) return NULL;
    switch (ag->fn) {
    case AGG_MIN: case AGG_MAX: case AGG_FIRST: case AGG_LAST:
        pick = rx_malloc((nl ? nl : 1) * sizeof *pick);
        if (!pick) goto oom;
        for (size_t i = 0; i < nl; i++) pick[i] = ROW_NONE;
        if (pick_rows(ag, w, a, pick, err) < 0) goto fail;
        if (!(out = col_gather(a, pick, nl))) goto oom;
        break;
    default: {
        bool count = ag->fn == AGG_COUNT_STAR || ag->fn == AGG_COUNT;
        RxType t = count ? TY_INT : ag->type;
        if (!(out = col_new(t, nl))) goto oom;
        memset(out->data, 0, nl * type_width(t));
        if (!count) {
            /* every row NULL until its window gives a value */
            uint64_t *v = nl ? col_valid(out) : NULL;
            if (!v && nl) goto oom;
            if (v) memset(v, 0, bitmap_words(nl) * sizeof *v);
        }
        if (count || a->type != TY_NULL) {
            static const Column none = {.type = TY_NULL};
            if (slide_column(lp, ag, w, a ? a : &none, out, err) < 0) goto fail;
        }
        break;
    }
    }
    rx_free(pick);
    col_release(a);
    return out;
oom:
    ops_oom(err);
fail:
    rx_free(pick);
    col_release(a);
    col_release(out);
    return NULL;
}

/* Each left row's window as positions of rord (step 2), into w->wl / w->wh. */
static void find_windows(const LPlan *lp, Windows *w) {
    size_t a = 0, b = 0;
    for (size_t k = 0; k < w->nl; k++) {
        const WjRow *L = &w->lord[k];
        __int128 lo = (__int128)L->t + lp->wj_lo, hi = (__int128)L->t + lp->wj_hi;
        /* both pointers stay in or move up to this row's partition */
        while (a < w->nr && (w->rord[a].part < L->part || (w->rord[a].part == L->part && w->rord[a].t < lo))) a++;
        if (b < a) b = a;
        while (b < w->nr && w->rord[b].part == L->part && w->rord[b].t <= hi) b++;
        size_t start = a;
        if (lp->prevailing && a > 0 && w->rord[a - 1].part == L->part &&
            !(a < w->nr && w->rord[a].part == L->part && w->rord[a].t == lo))
            start = a - 1;
        w->wl[k] = (uint32_t)start;
        w->wh[k] = (uint32_t)b;
    }
}

Table *ops_wjoin(ExecCtx *x, const PNode *p, Table *l, Table *r, RxError *err) {
    const LPlan *lp = p->lp;
    size_t nl = l->n_rows, nr = r->n_rows;
    KeyParts kp = {0};
    KeySet ks = {0};
    uint64_t *lv = NULL, *rv = NULL;
    Windows w = {0};
    WjRow *lord = NULL, *rord = NULL;
    Table *t = NULL;
    double t0 = now_s();
    if (nr > UINT32_MAX - 1) {
        rx_error(err, RX_ELIMIT, lp->src, lp->span, "WJOIN's right input has more than %u rows",
                 (unsigned)(UINT32_MAX - 1));
        return NULL;
    }
    if (ops_match_keys(lp, l, r, &kp, &ks, &lv, &rv, err) < 0) goto out;
    lord = sorted_rows(ks.keys[0], nl, lv, lp->n_keys ? kp.l : NULL, &w.nl);
    rord = sorted_rows(ks.keys[1], nr, rv, lp->n_keys ? kp.r : NULL, &w.nr);
    w.lord = lord;
    w.rord = rord;
    w.wl = rx_malloc((w.nl ? w.nl : 1) * sizeof *w.wl);
    w.wh = rx_malloc((w.nl ? w.nl : 1) * sizeof *w.wh);
    if (!lord || !rord || !w.wl || !w.wh) {
        ops_oom(err);
        goto out;
    }
    find_windows(lp, &w);
    if (ops_check_interrupt(x, err) < 0) goto out;
    if (x->on_join) {
        /* the report draws each left row with the latest right row of its window */
        uint32_t *last = rx_malloc((nl ? nl : 1) * sizeof *last);
        if (!last) {
            ops_oom(err);
            goto out;
        }
        for (size_t i = 0; i < nl; i++) last[i] = ROW_NONE;
        for (size_t k = 0; k < w.nl; k++)
            if (w.wh[k] > w.wl[k]) last[lord[k].row] = rord[w.wh[k] - 1].row;
        x->on_join(x->join_ud, p, l, r, NULL, last, nl);
        rx_free(last);
    }
    t = table_new(lp->schema.n, nl);
    if (!t) {
        ops_oom(err);
        goto out;
    }
    int n0 = l->n_cols;
    for (int i = 0; i < n0; i++) {
        col_retain(l->cols[i]);
        if (table_set(t, i, l->cols[i], lp->schema.cols[i].name) < 0) {
            col_release(l->cols[i]);
            goto fail;
        }
    }
    for (int k = 0; k < lp->n_aggs; k++) {
        Column *c = agg_column(lp, &lp->aggs[k], &w, r, nl, err);
        if (!c) goto fail_err;
        if (table_set(t, n0 + k, c, lp->schema.cols[n0 + k].name) < 0) {
            col_release(c);
            goto fail;
        }
        if (ops_check_interrupt(x, err) < 0) goto fail_err;
    }
    goto out;
fail:
    ops_oom(err);
fail_err:
    table_free(t);
    t = NULL;
out:
    x->t_join_s += now_s() - t0;
    keys_parts_free(&kp);
    keys_free(&ks);
    rx_free(lv);
    rx_free(rv);
    rx_free(lord);
    rx_free(rord);
    rx_free(w.wl);
    rx_free(w.wh);
    return t;
}
