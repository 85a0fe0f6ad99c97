/*
 * eval.c - vectorized evaluation of typed expressions (exec.h).
 *
 * An expression is evaluated over a batch of rows at a time: a column reference is a view of
 * the column's data, a constant is broadcast, and each operator runs one tight loop per type
 * combination. NULL follows SQL: arithmetic and comparisons with NULL give NULL, ∧ and ∨ use
 * three-valued logic. Integer overflow, division by zero and failed conversions are errors
 * that point at the operator or call, never wrap-arounds; values in NULL rows are not checked.
 */
#include "exec/exec.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "io/tz.h"
#include "types/compare.h"
#include "types/number.h"
#include "types/temporal.h"

typedef struct {
    const Table *in;
    size_t off, n;
    Arena *a;
    RxError *err;
} Ev;

static int eval(Ev *v, const Expr *e, Vec *out);

static void *scratch(Ev *v, size_t bytes) {
    void *p = arena_alloc(v->a, bytes ? bytes : 1);
    if (!p) rx_error(v->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    return p;
}

static int new_vec(Ev *v, Vec *out, RxType t) {
    out->type = t;
    out->n = v->n;
    out->nulls = NULL;
    out->data = scratch(v, type_width(t) * v->n);
    return out->data ? 0 : -1;
}

static uint8_t *need_nulls(Ev *v, Vec *out) {
    if (!out->nulls) out->nulls = scratch(v, v->n);
    return out->nulls;
}

/* nulls of out = a's nulls OR b's nulls. */
static int merge_nulls(Ev *v, Vec *out, const Vec *a, const Vec *b) {
    if (!a->nulls && (!b || !b->nulls)) return 0;
    uint8_t *m = need_nulls(v, out);
    if (!m) return -1;
    for (size_t i = 0; i < v->n; i++)
        m[i] = (a->nulls ? a->nulls[i] : 0) | (b && b->nulls ? b->nulls[i] : 0);
    return 0;
}

static bool is_null(const Vec *x, size_t i) { return x->nulls && x->nulls[i]; }

static int run_error(Ev *v, const Expr *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run_error(Ev *v, const Expr *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rx_verror(v->err, RX_ERUNTIME, e->src, e->span, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- conversions between representations ------------------------------------------------------ */

static int to_float_vec(Ev *v, const Vec *in, Vec *out) {
    if (in->type == TY_FLOAT || in->type == TY_NULL) {
        *out = *in;
        if (in->type == TY_NULL) {
            if (new_vec(v, out, TY_FLOAT) < 0) return -1;
            out->nulls = in->nulls;
        }
        return 0;
    }
    if (new_vec(v, out, TY_FLOAT) < 0) return -1;
    out->nulls = in->nulls;
    const int64_t *s = in->data;
    double *d = out->data;
    for (size_t i = 0; i < v->n; i++) d[i] = (double)s[i];
    return 0;
}

static int date_to_ts_vec(Ev *v, const Vec *in, Vec *out) {
    if (new_vec(v, out, TY_TIMESTAMP) < 0) return -1;
    out->nulls = in->nulls;
    const int32_t *s = in->data;
    int64_t *d = out->data;
    for (size_t i = 0; i < v->n; i++) d[i] = (int64_t)s[i] * US_PER_DAY;
    return 0;
}

/* A NULL-typed vector (every row NULL) as type t. */
static int null_vec(Ev *v, Vec *out, RxType t) {
    if (new_vec(v, out, t) < 0) return -1;
    uint8_t *m = need_nulls(v, out);
    if (!m) return -1;
    memset(m, 1, v->n);
    return 0;
}

/* Brings two operands of a comparison to one representation. */
static int unify(Ev *v, Vec *a, Vec *b) {
    if (a->type == TY_NULL && b->type != TY_NULL) return null_vec(v, a, b->type);
    if (b->type == TY_NULL && a->type != TY_NULL) return null_vec(v, b, a->type);
    if (a->type == b->type) return 0;
    Vec t;
    if (type_is_numeric(a->type) && type_is_numeric(b->type)) {
        if (a->type == TY_INT) {
            if (to_float_vec(v, a, &t) < 0) return -1;
            *a = t;
        } else {
            if (to_float_vec(v, b, &t) < 0) return -1;
            *b = t;
        }
        return 0;
    }
    if (a->type == TY_DATE && b->type == TY_TIMESTAMP) {
        if (date_to_ts_vec(v, a, &t) < 0) return -1;
        *a = t;
        return 0;
    }
    if (b->type == TY_DATE && a->type == TY_TIMESTAMP) {
        if (date_to_ts_vec(v, b, &t) < 0) return -1;
        *b = t;
        return 0;
    }
    return 0;
}

/* ---- leaves --------------------------------------------------------------------------------- */

static int eval_col(Ev *v, const Expr *e, Vec *out) {
    const Column *c = v->in->cols[e->col];
    out->type = c->type;
    out->n = v->n;
    out->data = (char *)c->data + v->off * type_width(c->type);
    out->nulls = NULL;
    if (c->valid) {
        uint8_t *m = need_nulls(v, out);
        if (!m) return -1;
        for (size_t i = 0; i < v->n; i++) m[i] = !bitmap_get(c->valid, v->off + i);
    }
    return 0;
}

static int eval_const(Ev *v, const Expr *e, Vec *out) {
    if (new_vec(v, out, e->type) < 0) return -1;
    if (e->value.null || e->type == TY_NULL) {
        uint8_t *m = need_nulls(v, out);
        if (!m) return -1;
        memset(m, 1, v->n);
        return 0;
    }
    size_t w = type_width(e->type);
    const void *src;
    uint8_t b = 0;
    switch (e->type) {
    case TY_BOOL: b = e->value.v.b; src = &b; break;
    case TY_DATE: src = &e->value.v.date; break;
    case TY_FLOAT: src = &e->value.v.f; break;
    case TY_TEXT: src = &e->value.v.s; break;
    case TY_DURATION: src = &e->value.v.d; break;
    default: src = &e->value.v.i; break;
    }
    char *d = out->data;
    for (size_t i = 0; i < v->n; i++) memcpy(d + i * w, src, w);
    return 0;
}

/* ---- comparisons ---------------------------------------------------------------------------- */


static int text_cmp(RxStr a, RxStr b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

#define CMP_LOOPS(T, A, B)                                                                     \
    do {                                                                                       \
        const T *x_ = (const T *)(A), *y_ = (const T *)(B);                                    \
        switch (e->op) {                                                                       \
        case OP_EQ: for (size_t i = 0; i < n; i++) r[i] = x_[i] == y_[i]; break;               \
        case OP_NE: for (size_t i = 0; i < n; i++) r[i] = x_[i] != y_[i]; break;               \
        case OP_LT: for (size_t i = 0; i < n; i++) r[i] = x_[i] < y_[i]; break;                \
        case OP_LE: for (size_t i = 0; i < n; i++) r[i] = x_[i] <= y_[i]; break;               \
        case OP_GT: for (size_t i = 0; i < n; i++) r[i] = x_[i] > y_[i]; break;                \
        case OP_GE: for (size_t i = 0; i < n; i++) r[i] = x_[i] >= y_[i]; break;               \
        default: break;                                                                        \
        }                                                                                      \
    } while (0)

static bool cmp_holds(AstOp op, int c) {
    switch (op) {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    case OP_GE: return c >= 0;
    default: return false;
    }
}

static int eval_compare(Ev *v, const Expr *e, Vec *a, Vec *b, Vec *out) {
    if (unify(v, a, b) < 0) return -1;
    if (new_vec(v, out, TY_BOOL) < 0 || merge_nulls(v, out, a, b) < 0) return -1;
    uint8_t *r = out->data;
    size_t n = v->n;
    switch (a->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: CMP_LOOPS(int64_t, a->data, b->data); break;
    case TY_FLOAT: {
        /* the FLOAT rule (types/compare.h) without a branch per row: NaN = NaN, NaN above
         * every number; IEEE comparison already makes -0 = 0 */
        const double *x = a->data, *y = b->data;
        switch (e->op) {
        case OP_EQ: for (size_t i = 0; i < n; i++) r[i] = (x[i] == y[i]) | ((x[i] != x[i]) & (y[i] != y[i])); break;
        case OP_NE: for (size_t i = 0; i < n; i++) r[i] = !((x[i] == y[i]) | ((x[i] != x[i]) & (y[i] != y[i]))); break;
        case OP_LT: for (size_t i = 0; i < n; i++) r[i] = (x[i] < y[i]) | ((x[i] == x[i]) & (y[i] != y[i])); break;
        case OP_LE: for (size_t i = 0; i < n; i++) r[i] = (x[i] <= y[i]) | (y[i] != y[i]); break;
        case OP_GT: for (size_t i = 0; i < n; i++) r[i] = (x[i] > y[i]) | ((x[i] != x[i]) & (y[i] == y[i])); break;
        case OP_GE: for (size_t i = 0; i < n; i++) r[i] = (x[i] >= y[i]) | (x[i] != x[i]); break;
        default: break;
        }
        break;
    }
    case TY_DATE: CMP_LOOPS(int32_t, a->data, b->data); break;
    case TY_BOOL: CMP_LOOPS(uint8_t, a->data, b->data); break;
    case TY_TEXT: {
        const RxStr *x = a->data, *y = b->data;
        for (size_t i = 0; i < n; i++) r[i] = cmp_holds(e->op, text_cmp(x[i], y[i]));
        break;
    }
    case TY_DURATION: {
        const RxDuration *x = a->data, *y = b->data;
        for (size_t i = 0; i < n; i++) r[i] = cmp_holds(e->op, rx_dur_cmp(x[i], y[i]));
        break;
    }
    case TY_NULL: memset(r, 0, n); break;
    }
    return 0;
}

/* ---- arithmetic ----------------------------------------------------------------------------- */

static int eval_int_arith(Ev *v, const Expr *e, const Vec *a, const Vec *b, Vec *out) {
    if (new_vec(v, out, TY_INT) < 0 || merge_nulls(v, out, a, b) < 0) return -1;
    const int64_t *x = a->data, *y = b->data;
    int64_t *r = out->data;
    size_t n = v->n;
    for (size_t i = 0; i < n; i++) {
        if (is_null(out, i)) {
            r[i] = 0;
            continue;
        }
        bool ovf = false;
        switch (e->op) {
        case OP_ADD: ovf = __builtin_add_overflow(x[i], y[i], &r[i]); break;
        case OP_SUB: ovf = __builtin_sub_overflow(x[i], y[i], &r[i]); break;
        case OP_MUL: ovf = __builtin_mul_overflow(x[i], y[i], &r[i]); break;
        case OP_MOD:
            if (y[i] == 0) return run_error(v, e, "division by zero in '%%'");
            r[i] = y[i] == -1 ? 0 : x[i] % y[i];
            break;
        default: break;
        }
        if (ovf)
            return run_error(v, e, "integer overflow: %lld %s %lld does not fit in 64 bits",
                             (long long)x[i], op_text(e->op), (long long)y[i]);
    }
    return 0;
}

static int eval_float_arith(Ev *v, const Expr *e, Vec *a, Vec *b, Vec *out) {
    Vec fa, fb;
    if (to_float_vec(v, a, &fa) < 0 || to_float_vec(v, b, &fb) < 0) return -1;
    if (new_vec(v, out, TY_FLOAT) < 0 || merge_nulls(v, out, &fa, &fb) < 0) return -1;
    const double *x = fa.data, *y = fb.data;
    double *r = out->data;
    size_t n = v->n;
    switch (e->op) {
    case OP_ADD: for (size_t i = 0; i < n; i++) r[i] = x[i] + y[i]; break;
    case OP_SUB: for (size_t i = 0; i < n; i++) r[i] = x[i] - y[i]; break;
    case OP_MUL: for (size_t i = 0; i < n; i++) r[i] = x[i] * y[i]; break;
    case OP_DIV: case OP_MOD:
        for (size_t i = 0; i < n; i++) {
            if (is_null(out, i)) {
                r[i] = 0;
                continue;
            }
            if (y[i] == 0) return run_error(v, e, "division by zero in '%s'", op_text(e->op));
            r[i] = e->op == OP_DIV ? x[i] / y[i] : fmod(x[i], y[i]);
        }
        break;
    default: break;
    }
    return 0;
}

static int ts_range_error(Ev *v, const Expr *e) {
    return run_error(v, e, "timestamp out of range (years 0001 to 9999)");
}

/* Temporal and duration arithmetic, one row at a time. */
static int eval_temporal_arith(Ev *v, const Expr *e, Vec *a, Vec *b, Vec *out) {
    RxType ta = a->type, tb = b->type;
    if (new_vec(v, out, e->type) < 0 || merge_nulls(v, out, a, b) < 0) return -1;
    size_t n = v->n;
    bool sub = e->op == OP_SUB;
    for (size_t i = 0; i < n; i++) {
        if (is_null(out, i)) {
            memset((char *)out->data + i * type_width(e->type), 0, type_width(e->type));
            continue;
        }
        switch (e->type) {
        case TY_DURATION: {
            RxDuration r = {0, 0};
            if (ta == TY_TIMESTAMP || ta == TY_TIME) {
                int64_t x = ((int64_t *)a->data)[i], y = ((int64_t *)b->data)[i];
                if (__builtin_sub_overflow(x, y, &r.us)) return ts_range_error(v, e);
            } else if (ta == TY_DATE) {
                int64_t d = (int64_t)((int32_t *)a->data)[i] - ((int32_t *)b->data)[i];
                r.us = d * US_PER_DAY;
            } else if (ta == TY_DURATION && tb == TY_DURATION) {
                RxDuration x = ((RxDuration *)a->data)[i], y = ((RxDuration *)b->data)[i];
                bool o1 = sub ? __builtin_sub_overflow(x.months, y.months, &r.months)
                              : __builtin_add_overflow(x.months, y.months, &r.months);
                bool o2 = sub ? __builtin_sub_overflow(x.us, y.us, &r.us)
                              : __builtin_add_overflow(x.us, y.us, &r.us);
                if (o1 || o2) return run_error(v, e, "duration overflow in '%s'", op_text(e->op));
            } else {
                /* DURATION * number, number * DURATION, DURATION / number */
                RxDuration d = ta == TY_DURATION ? ((RxDuration *)a->data)[i] : ((RxDuration *)b->data)[i];
                const Vec *num = ta == TY_DURATION ? b : a;
                double f = num->type == TY_INT ? (double)((int64_t *)num->data)[i] : ((double *)num->data)[i];
                if (e->op == OP_DIV) {
                    if (f == 0) return run_error(v, e, "division by zero in '/'");
                    f = 1.0 / f;
                }
                double m = (double)d.months * f, u = (double)d.us * f;
                /* Fractional months are not representable; they become days of 30. */
                double whole = trunc(m), us = u + (m - whole) * 30.0 * (double)US_PER_DAY;
                if (!(fabs(us) < 9.2e18) || !(fabs(m) < 9.2e18))
                    return run_error(v, e, "duration overflow in '%s'", op_text(e->op));
                r.months = (int64_t)whole;
                r.us = (int64_t)llround(us);
            }
            ((RxDuration *)out->data)[i] = r;
            break;
        }
        case TY_TIMESTAMP: {
            int64_t ts;
            RxDuration d;
            if (ta == TY_TIMESTAMP) ts = ((int64_t *)a->data)[i], d = ((RxDuration *)b->data)[i];
            else if (ta == TY_DATE) ts = (int64_t)((int32_t *)a->data)[i] * US_PER_DAY, d = ((RxDuration *)b->data)[i];
            else if (tb == TY_TIMESTAMP) ts = ((int64_t *)b->data)[i], d = ((RxDuration *)a->data)[i];
            else ts = (int64_t)((int32_t *)b->data)[i] * US_PER_DAY, d = ((RxDuration *)a->data)[i];
            if (sub) {
                /* The most negative duration cannot be negated; subtracting it is out of
                 * range anyway. */
                if (d.months == INT64_MIN || d.us == INT64_MIN) return ts_range_error(v, e);
                d.months = -d.months, d.us = -d.us;
            }
            if (tm_ts_add(ts, d, &((int64_t *)out->data)[i]) < 0) return ts_range_error(v, e);
            break;
        }
        case TY_DATE: {
            int32_t date = ta == TY_DATE ? ((int32_t *)a->data)[i] : ((int32_t *)b->data)[i];
            int64_t days = ta == TY_DATE ? ((int64_t *)b->data)[i] : ((int64_t *)a->data)[i];
            if (sub) days = -days;
            if (tm_date_add_days(date, days, &((int32_t *)out->data)[i]) < 0)
                return run_error(v, e, "date out of range (years 0001 to 9999)");
            break;
        }
        case TY_TIME: {
            int64_t t = ta == TY_TIME ? ((int64_t *)a->data)[i] : ((int64_t *)b->data)[i];
            RxDuration d = ta == TY_TIME ? ((RxDuration *)b->data)[i] : ((RxDuration *)a->data)[i];
            int64_t us = d.us % US_PER_DAY;
            if (sub) us = -us;
            int64_t r = (t + us) % US_PER_DAY;
            if (r < 0) r += US_PER_DAY;
            ((int64_t *)out->data)[i] = r;
            break;
        }
        default:
            return run_error(v, e, "internal error: no arithmetic for %s", type_name(e->type));
        }
    }
    return 0;
}

RxStr vec_text(Arena *a, const Vec *x, size_t i) {
    RxStr s = {"", 0};
    if (x->type == TY_TEXT) return ((RxStr *)x->data)[i];
    /* Reuse the table writer's formatting through a one-row column view. */
    Column c = {0};
    c.type = x->type;
    c.n = 1;
    c.data = (char *)x->data + i * type_width(x->type);
    StrBuf b;
    sb_init(&b);
    out_value_text(&c, 0, "NULL", &b);
    if (b.p) {
        s.ptr = arena_strndup(a, b.p, b.n);
        s.len = b.n;
    }
    sb_free(&b);
    return s;
}

static int eval_concat(Ev *v, const Expr *e, Vec *a, Vec *b, Vec *out) {
    if (new_vec(v, out, TY_TEXT) < 0 || merge_nulls(v, out, a, b) < 0) return -1;
    RxStr *r = out->data;
    for (size_t i = 0; i < v->n; i++) {
        if (is_null(out, i)) {
            r[i].ptr = "";
            r[i].len = 0;
            continue;
        }
        RxStr x = vec_text(v->a, a, i), y = vec_text(v->a, b, i);
        char *p = scratch(v, x.len + y.len + 1);
        if (!p) return -1;
        memcpy(p, x.ptr, x.len);
        memcpy(p + x.len, y.ptr, y.len);
        r[i].ptr = p;
        r[i].len = x.len + y.len;
    }
    return 0;
}

static int eval_logic(Ev *v, const Expr *e, Vec *a, Vec *b, Vec *out) {
    if (new_vec(v, out, TY_BOOL) < 0) return -1;
    const uint8_t *x = a->data, *y = b->data;
    uint8_t *r = out->data;
    bool and_ = e->op == OP_AND;
    bool any_null = a->nulls || b->nulls || a->type == TY_NULL || b->type == TY_NULL;
    if (!any_null) {
        if (and_) for (size_t i = 0; i < v->n; i++) r[i] = x[i] & y[i];
        else for (size_t i = 0; i < v->n; i++) r[i] = x[i] | y[i];
        return 0;
    }
    uint8_t *m = need_nulls(v, out);
    if (!m) return -1;
    for (size_t i = 0; i < v->n; i++) {
        bool xn = a->type == TY_NULL || is_null(a, i), yn = b->type == TY_NULL || is_null(b, i);
        bool xv = !xn && x[i], yv = !yn && y[i];
        if (and_) {
            if ((!xn && !xv) || (!yn && !yv)) r[i] = 0, m[i] = 0;
            else if (xn || yn) r[i] = 0, m[i] = 1;
            else r[i] = 1, m[i] = 0;
        } else {
            if (xv || yv) r[i] = 1, m[i] = 0;
            else if (xn || yn) r[i] = 0, m[i] = 1;
            else r[i] = 0, m[i] = 0;
        }
    }
    return 0;
}

static int eval_binary(Ev *v, const Expr *e, Vec *out) {
    Vec a, b;
    if (eval(v, e->args[0], &a) < 0 || eval(v, e->args[1], &b) < 0) return -1;
    switch (e->op) {
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        return eval_compare(v, e, &a, &b, out);
    case OP_AND: case OP_OR:
        return eval_logic(v, e, &a, &b, out);
    case OP_CONCAT:
        return eval_concat(v, e, &a, &b, out);
    default:
        break;
    }
    if (e->type == TY_NULL || a.type == TY_NULL || b.type == TY_NULL)
        return null_vec(v, out, e->type == TY_NULL ? TY_INT : e->type);
    if (e->type == TY_INT && a.type == TY_INT && b.type == TY_INT) return eval_int_arith(v, e, &a, &b, out);
    if (e->type == TY_FLOAT) return eval_float_arith(v, e, &a, &b, out);
    return eval_temporal_arith(v, e, &a, &b, out);
}

static int eval_unary(Ev *v, const Expr *e, Vec *out) {
    Vec a;
    if (eval(v, e->args[0], &a) < 0) return -1;
    if (a.type == TY_NULL) return null_vec(v, out, e->type == TY_NULL ? TY_BOOL : e->type);
    if (new_vec(v, out, e->type) < 0) return -1;
    out->nulls = a.nulls;
    size_t n = v->n;
    if (e->op == OP_NOT) {
        const uint8_t *x = a.data;
        uint8_t *r = out->data;
        for (size_t i = 0; i < n; i++) r[i] = !x[i];
        return 0;
    }
    switch (e->type) {
    case TY_INT: {
        const int64_t *x = a.data;
        int64_t *r = out->data;
        for (size_t i = 0; i < n; i++) {
            if (!is_null(&a, i) && x[i] == INT64_MIN)
                return run_error(v, e, "integer overflow: -(%lld) does not fit in 64 bits", (long long)x[i]);
            r[i] = is_null(&a, i) ? 0 : -x[i];
        }
        break;
    }
    case TY_FLOAT: {
        const double *x = a.data;
        double *r = out->data;
        for (size_t i = 0; i < n; i++) r[i] = -x[i];
        break;
    }
    case TY_DURATION: {
        const RxDuration *x = a.data;
        RxDuration *r = out->data;
        for (size_t i = 0; i < n; i++) {
            if (!is_null(&a, i) && (x[i].us == INT64_MIN || x[i].months == INT64_MIN))
                return run_error(v, e, "duration overflow in '-'");
            r[i].months = is_null(&a, i) ? 0 : -x[i].months;
            r[i].us = is_null(&a, i) ? 0 : -x[i].us;
        }
        break;
    }
    default:
        return run_error(v, e, "internal error: cannot negate %s", type_name(e->type));
    }
    return 0;
}

/* ---- functions ------------------------------------------------------------------------------ */

/* x as the table prints it, in the scratch arena (for messages); "?" on OOM. */
static const char *fmt_num(Ev *v, double x) {
    char buf[NUM_BUF];
    size_t n = num_format_double(x, buf);
    char *p = arena_strndup(v->a, buf, n);
    return p ? p : "?";
}

static int conv_error(Ev *v, const Expr *e, const char *tname, RxStr s, const char *why) {
    return run_error(v, e, "cannot convert '%.*s' to %s: %s", (int)(s.len > 80 ? 80 : s.len),
                     s.ptr, tname, why);
}

/* Unicode-aware enough for ASCII case mapping; other bytes are kept as they are. */
static RxStr map_case(Ev *v, RxStr s, bool up) {
    char *p = scratch(v, s.len + 1);
    RxStr r = {"", 0};
    if (!p) return r;
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        p[i] = (char)(c < 0x80 ? (up ? toupper(c) : tolower(c)) : c);
    }
    r.ptr = p;
    r.len = s.len;
    return r;
}

/* Byte offset of code point k (0-based) in s, or s.len. */
static size_t cp_offset(RxStr s, int64_t k) {
    size_t i = 0;
    while (i < s.len && k > 0) {
        i++;
        while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80) i++;
        k--;
    }
    return i;
}

static double round_to(double x, int64_t digits, FuncId fn) {
    double scale = pow(10.0, (double)digits);
    double y = x * scale;
    if (!isfinite(x)) return x;
    if (scale == 0) {
        /* A power of ten past the largest double: round gives (signed) zero, floor and ceil
         * the infinity on the side away from zero. */
        if (fn == FN_ROUND || x == 0) return x * 0.0;
        if (fn == FN_FLOOR) return x < 0 ? -INFINITY : 0.0;
        return x > 0 ? INFINITY : -0.0;
    }
    if (!isfinite(y) || !isfinite(scale)) return x;
    y = fn == FN_ROUND ? round(y) : fn == FN_FLOOR ? floor(y) : ceil(y);
    return y / scale;
}

/* The number at row i of an INT or FLOAT vector, as a double. */
static double num_at(const Vec *x, size_t i) {
    return x->type == TY_INT ? (double)((int64_t *)x->data)[i] : ((double *)x->data)[i];
}

/* Compares row i of a and b, two vectors of one type, by the rules of types/compare.h. */
static int vec_cmp_at(const Vec *a, const Vec *b, size_t i) {
    switch (a->type) {
    case TY_INT: case TY_TIMESTAMP: case TY_TIME: {
        int64_t x = ((int64_t *)a->data)[i], y = ((int64_t *)b->data)[i];
        return (x > y) - (x < y);
    }
    case TY_FLOAT: return rx_float_cmp(((double *)a->data)[i], ((double *)b->data)[i]);
    case TY_DATE: {
        int32_t x = ((int32_t *)a->data)[i], y = ((int32_t *)b->data)[i];
        return (x > y) - (x < y);
    }
    case TY_BOOL: return (int)((uint8_t *)a->data)[i] - (int)((uint8_t *)b->data)[i];
    case TY_TEXT: return text_cmp(((RxStr *)a->data)[i], ((RxStr *)b->data)[i]);
    case TY_DURATION: return rx_dur_cmp(((RxDuration *)a->data)[i], ((RxDuration *)b->data)[i]);
    case TY_NULL: break;
    }
    return 0;
}

/* greatest(...) / least(...): per row the largest (smallest) argument that is not NULL, the
 * first of equal ones; NULL when every argument is. out is allocated with type rt. */
static int eval_extreme(Ev *v, const Expr *e, Vec *va, int na, RxType rt, Vec *out) {
    uint8_t *m = need_nulls(v, out);
    if (!m) return -1;
    for (int k = 0; k < na; k++)
        if (va[k].type == TY_INT && rt == TY_FLOAT) {
            Vec f;
            if (to_float_vec(v, &va[k], &f) < 0) return -1;
            va[k] = f;
        }
    size_t w = type_width(rt);
    int sign = e->fn == FN_GREATEST ? 1 : -1;
    for (size_t i = 0; i < v->n; i++) {
        int best = -1;
        for (int k = 0; k < na; k++) {
            if (va[k].type == TY_NULL || is_null(&va[k], i)) continue;
            if (best < 0 || sign * vec_cmp_at(&va[k], &va[best], i) > 0) best = k;
        }
        m[i] = best < 0;
        if (best >= 0) memcpy((char *)out->data + i * w, (char *)va[best].data + i * w, w);
        else memset((char *)out->data + i * w, 0, w);
        if (best < 0 && rt == TY_TEXT) ((RxStr *)out->data)[i].ptr = "";
    }
    return 0;
}

/* concat(...): the arguments' text joined, NULLs skipped (never NULL itself, as PostgreSQL). */
static int eval_concat_fn(Ev *v, Vec *va, int na, Vec *out) {
    RxStr *r = out->data;
    for (size_t i = 0; i < v->n; i++) {
        size_t len = 0;
        RxStr *parts = scratch(v, (size_t)na * sizeof *parts);
        if (!parts) return -1;
        for (int k = 0; k < na; k++) {
            parts[k] = (RxStr){"", 0};
            if (va[k].type == TY_NULL || is_null(&va[k], i)) continue;
            parts[k] = vec_text(v->a, &va[k], i);
            len += parts[k].len;
        }
        char *p = scratch(v, len + 1);
        if (!p) return -1;
        size_t o = 0;
        for (int k = 0; k < na; k++) {
            if (parts[k].len) memcpy(p + o, parts[k].ptr, parts[k].len);
            o += parts[k].len;
        }
        r[i] = (RxStr){p, len};
    }
    return 0;
}

/* The length of the UTF-8 code point starting at p[0] (1 for a stray byte), within n. */
static size_t cp_len(const char *p, size_t n) {
    size_t k = 1;
    while (k < n && ((unsigned char)p[k] & 0xC0) == 0x80) k++;
    return k;
}

/* Whether the code point c[0..n) is one of the code points of set. */
static bool in_set(const char *c, size_t n, RxStr set) {
    for (size_t i = 0; i < set.len;) {
        size_t k = cp_len(set.ptr + i, set.len - i);
        if (k == n && memcmp(set.ptr + i, c, n) == 0) return true;
        i += k;
    }
    return false;
}

/* trim / ltrim / rtrim: s without the leading and/or trailing code points of set. A view. */
static RxStr trim_set(RxStr s, RxStr set, bool left, bool right) {
    size_t b = 0, end = s.len;
    while (left && b < end) {
        size_t k = cp_len(s.ptr + b, end - b);
        if (!in_set(s.ptr + b, k, set)) break;
        b += k;
    }
    while (right && end > b) {
        size_t st = end - 1;
        while (st > b && ((unsigned char)s.ptr[st] & 0xC0) == 0x80) st--;
        if (!in_set(s.ptr + st, end - st, set)) break;
        end = st;
    }
    return (RxStr){s.ptr + b, end - b};
}

/* The first occurrence of n[0..nl) in h[0..hl) at or after from, or (size_t)-1. */
static size_t find_text(RxStr h, RxStr n, size_t from) {
    if (n.len == 0) return from <= h.len ? from : (size_t)-1;
    for (size_t i = from; i + n.len <= h.len; i++)
        if (h.ptr[i] == n.ptr[0] && memcmp(h.ptr + i, n.ptr, n.len) == 0) return i;
    return (size_t)-1;
}

/* replace(s, from, to): every occurrence of from replaced, left to right; s itself when from
 * is empty (as PostgreSQL). NULL ptr on OOM (error recorded). */
static RxStr replace_text(Ev *v, RxStr s, RxStr from, RxStr to) {
    if (from.len == 0) return s;
    size_t cnt = 0;
    for (size_t i = find_text(s, from, 0); i != (size_t)-1; i = find_text(s, from, i + from.len)) cnt++;
    if (cnt == 0) return s;
    size_t len = s.len - cnt * from.len + cnt * to.len;
    char *p = scratch(v, len + 1);
    if (!p) return (RxStr){NULL, 0};
    size_t o = 0, last = 0;
    for (size_t i = find_text(s, from, 0); i != (size_t)-1; i = find_text(s, from, i + from.len)) {
        memcpy(p + o, s.ptr + last, i - last);
        o += i - last;
        if (to.len) memcpy(p + o, to.ptr, to.len);
        o += to.len;
        last = i + from.len;
    }
    memcpy(p + o, s.ptr + last, s.len - last);
    return (RxStr){p, len};
}

/* split_part(s, delim, k): field k (1-based; negative counts from the end) of s split at delim,
 * "" when there is no such field; an empty delim makes s one field (as PostgreSQL). */
static RxStr split_field(RxStr s, RxStr d, int64_t k) {
    RxStr none = {"", 0};
    if (d.len == 0) return k == 1 || k == -1 ? s : none;
    int64_t nf = 1;
    for (size_t i = find_text(s, d, 0); i != (size_t)-1; i = find_text(s, d, i + d.len)) nf++;
    if (k < 0) k = nf + k + 1;
    if (k < 1 || k > nf) return none;
    size_t b = 0;
    for (int64_t f = 1; f < k; f++) b = find_text(s, d, b) + d.len;
    size_t e = find_text(s, d, b);
    return (RxStr){s.ptr + b, (e == (size_t)-1 ? s.len : e) - b};
}

/* A FLOAT result of a math function checked as PostgreSQL checks it: an infinite result of
 * finite arguments is an overflow, a zero of a non-zero one an underflow. */
static int math_range(Ev *v, const Expr *e, double r, double x, bool x_finite) {
    if (isinf(r) && x_finite) return run_error(v, e, "value out of range: overflow in %s", lang_function_name(e->fn));
    if (r == 0 && x != 0 && x_finite) return run_error(v, e, "value out of range: underflow in %s", lang_function_name(e->fn));
    return 0;
}

/* ASCII case folding for ILIKE (as lower() and upper() map letters). */
static int fold_ascii(int c, bool fold) { return fold && c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* Whether the code points s[0..sn) and p[0..pn) are equal, ASCII letters folded with fold. */
static bool cp_equal(const char *s, size_t sn, const char *p, size_t pn, bool fold) {
    if (sn != pn) return false;
    if (sn == 1) return fold_ascii((unsigned char)s[0], fold) == fold_ascii((unsigned char)p[0], fold);
    return memcmp(s, p, sn) == 0;
}

/* SQL LIKE: '%' matches any run of code points, '_' one, esc (0 or 1 code point) makes the next
 * pattern code point literal. Greedy with one backtracking point (the last '%'), so linear in
 * practice and O(|s|·|p|) at worst. 1 match, 0 no match, -1 when the pattern ends with esc. */
static int like_match(RxStr s, RxStr p, RxStr esc, bool fold) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    for (;;) {
        if (pi < p.len) {
            size_t pk = cp_len(p.ptr + pi, p.len - pi);
            bool is_esc = esc.len && pk == esc.len && memcmp(p.ptr + pi, esc.ptr, pk) == 0;
            if (!is_esc && pk == 1 && p.ptr[pi] == '%') {
                star_p = pi + 1;
                star_s = si;
                pi++;
                continue;
            }
            if (si < s.len) {
                size_t sk = cp_len(s.ptr + si, s.len - si);
                if (!is_esc && pk == 1 && p.ptr[pi] == '_') {
                    si += sk, pi++;
                    continue;
                }
                size_t lp = pi;
                if (is_esc) {
                    lp = pi + pk;
                    if (lp >= p.len) return -1;
                    pk = cp_len(p.ptr + lp, p.len - lp);
                }
                if (cp_equal(s.ptr + si, sk, p.ptr + lp, pk, fold)) {
                    si += sk, pi = lp + pk;
                    continue;
                }
            } else if (is_esc && pi + pk >= p.len) {
                return -1;
            }
        } else if (si == s.len) {
            return 1;
        }
        if (star_p == (size_t)-1 || star_s >= s.len) {
            /* no '%' to give more to: the rest of the pattern must be '%'s */
            if (si < s.len) return 0;
            while (pi < p.len && p.ptr[pi] == '%' && !(esc.len == 1 && esc.ptr[0] == '%')) pi++;
            if (pi < p.len) {
                /* a pattern that ends with its escape character is still an error */
                for (size_t k = pi; k < p.len;) {
                    size_t pk = cp_len(p.ptr + k, p.len - k);
                    if (esc.len && pk == esc.len && memcmp(p.ptr + k, esc.ptr, pk) == 0 && k + pk >= p.len) return -1;
                    k += pk;
                }
                return 0;
            }
            return 1;
        }
        star_s += cp_len(s.ptr + star_s, s.len - star_s);
        si = star_s;
        pi = star_p;
    }
}

/* A regular expression compiled for one batch: the pattern of row i when it differs from the
 * last one compiled (a constant pattern is compiled once per batch). */
typedef struct {
    regex_t re;
    bool live;
    RxStr pat;
    int cflags;
} BatchRe;

/* Compiles pattern p with cflags into r unless it holds it already; -1 with the error (an
 * invalid pattern of a row, which the analysis could not see). */
static int batch_re(Ev *v, const Expr *e, BatchRe *r, RxStr p, int cflags) {
    if (r->live && r->cflags == cflags && r->pat.len == p.len && memcmp(r->pat.ptr, p.ptr, p.len) == 0) return 0;
    if (r->live) regfree(&r->re);
    r->live = false;
    char *z = scratch(v, p.len + 1);
    if (!z) return -1;
    memcpy(z, p.ptr, p.len);
    z[p.len] = 0;
    int rc = regcomp(&r->re, z, cflags);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &r->re, msg, sizeof msg);
        return run_error(v, e, "invalid regular expression '%.*s': %s", (int)(p.len > 80 ? 80 : p.len), p.ptr, msg);
    }
    r->live = true;
    r->pat = p;
    r->cflags = cflags;
    return 0;
}

/* regexp_replace of s: the first match (every match with 'g') replaced by rep, where \1 … \9
 * and \& stand for the groups and the match and \\ for a backslash (as PostgreSQL). An empty
 * match advances one character. The result in the scratch arena; NULL ptr on OOM. */
static RxStr regex_replace(Ev *v, const regex_t *re, RxStr s, RxStr rep, bool global) {
    char *z = scratch(v, s.len + 1);
    if (!z) return (RxStr){NULL, 0};
    memcpy(z, s.ptr, s.len);
    z[s.len] = 0;
    StrBuf b;
    sb_init(&b);
    size_t at = 0;
    regmatch_t m[10];
    while (at <= s.len) {
        int ef = at > 0 ? REG_NOTBOL : 0;
        if (regexec(re, z + at, 10, m, ef) != 0) break;
        size_t ms = at + (size_t)m[0].rm_so, me = at + (size_t)m[0].rm_eo;
        sb_append(&b, z + at, ms - at);
        for (size_t k = 0; k < rep.len; k++) {
            char c = rep.ptr[k];
            if (c == '\\' && k + 1 < rep.len) {
                char d = rep.ptr[++k];
                if (d >= '0' && d <= '9') {
                    regmatch_t g = m[d - '0'];
                    if (g.rm_so >= 0) sb_append(&b, z + at + g.rm_so, (size_t)(g.rm_eo - g.rm_so));
                    continue;
                }
                if (d == '&') {
                    sb_append(&b, z + ms, me - ms);
                    continue;
                }
                c = d;
            }
            sb_putc(&b, c);
        }
        if (me == ms) {
            /* an empty match: keep the next character and go on after it */
            if (ms >= s.len) {
                at = s.len + 1;
                break;
            }
            size_t k = cp_len(z + ms, s.len - ms);
            sb_append(&b, z + ms, k);
            at = ms + k;
        } else {
            at = me;
        }
        if (!global) break;
    }
    if (at < s.len) sb_append(&b, z + at, s.len - at);
    RxStr r = {NULL, 0};
    if (!b.oom) {
        char *p = scratch(v, b.n + 1);
        if (p) {
            if (b.n) memcpy(p, b.p, b.n);
            r = (RxStr){p, b.n};
        }
    } else {
        rx_error(v->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    sb_free(&b);
    return r;
}

/* regexp_like and regexp_replace over the batch (POSIX extended expressions). */
static int eval_regex(Ev *v, const Expr *e, Vec *va, int na, Vec *out) {
    bool like = e->fn == FN_REGEXP_LIKE;
    int nt = like ? 2 : 3;
    BatchRe r = {0};
    int rc = 0;
    for (size_t i = 0; i < v->n && rc == 0; i++) {
        if (is_null(out, i)) {
            if (!like) ((RxStr *)out->data)[i] = (RxStr){"", 0};
            continue;
        }
        int cflags = REG_EXTENDED | (like ? REG_NOSUB : 0);
        bool global = false;
        if (na > nt) {
            RxStr f = ((RxStr *)va[nt].data)[i];
            for (size_t k = 0; k < f.len; k++) {
                if (f.ptr[k] == 'i') cflags |= REG_ICASE;
                else if (f.ptr[k] == 'g' && !like) global = true;
            }
        }
        RxStr s = ((RxStr *)va[0].data)[i];
        if ((rc = batch_re(v, e, &r, ((RxStr *)va[1].data)[i], cflags)) < 0) break;
        if (like) {
            char *z = scratch(v, s.len + 1);
            if (!z) {
                rc = -1;
                break;
            }
            memcpy(z, s.ptr, s.len);
            z[s.len] = 0;
            ((uint8_t *)out->data)[i] = regexec(&r.re, z, 0, NULL, 0) == 0;
        } else {
            RxStr x = regex_replace(v, &r.re, s, ((RxStr *)va[2].data)[i], global);
            if (!x.ptr) rc = -1;
            else ((RxStr *)out->data)[i] = x;
        }
    }
    if (r.live) regfree(&r.re);
    return rc;
}

static const char *const day_names[7] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
static const char *const month_names[12] = {"January", "February", "March", "April", "May", "June", "July",
                                            "August", "September", "October", "November", "December"};

/* strftime: ts (wall-clock microseconds: UTC, or a zone's local time off seconds east of UTC,
 * abbr its abbreviation) written by the format's directives; NULL ptr with the error for an
 * unknown directive (a format that is not a constant). */
static RxStr format_time(Ev *v, const Expr *e, int64_t ts, RxStr f, int32_t off, const char *abbr) {
    int64_t days = ts / US_PER_DAY - (ts % US_PER_DAY < 0), y;
    int64_t tod = ts - days * US_PER_DAY;
    int m, d;
    tm_civil_from_days(days, &y, &m, &d);
    int dow = (int)tm_extract_ts(TF_DOW, ts);
    StrBuf b;
    sb_init(&b);
    for (size_t i = 0; i < f.len; i++) {
        char c = f.ptr[i];
        if (c != '%' || i + 1 >= f.len) {
            if (c == '%') goto bad;
            sb_putc(&b, c);
            continue;
        }
        switch (f.ptr[++i]) {
        case 'Y': sb_printf(&b, "%04lld", (long long)y); break;
        case 'm': sb_printf(&b, "%02d", m); break;
        case 'd': sb_printf(&b, "%02d", d); break;
        case 'H': sb_printf(&b, "%02lld", (long long)(tod / US_PER_HOUR)); break;
        case 'M': sb_printf(&b, "%02lld", (long long)(tod / US_PER_MIN % 60)); break;
        case 'S': sb_printf(&b, "%02lld", (long long)(tod / US_PER_SEC % 60)); break;
        case 'f': sb_printf(&b, "%06lld", (long long)(tod % US_PER_SEC)); break;
        case 'j': sb_printf(&b, "%03lld", (long long)tm_extract_ts(TF_DOY, ts)); break;
        case 'u': sb_printf(&b, "%d", dow == 0 ? 7 : dow); break;
        case 'w': sb_printf(&b, "%d", dow); break;
        case 'a': sb_append(&b, day_names[dow], 3); break;
        case 'A': sb_puts(&b, day_names[dow]); break;
        case 'b': sb_append(&b, month_names[m - 1], 3); break;
        case 'B': sb_puts(&b, month_names[m - 1]); break;
        case 'F': sb_printf(&b, "%04lld-%02d-%02d", (long long)y, m, d); break;
        case 'T':
            sb_printf(&b, "%02lld:%02lld:%02lld", (long long)(tod / US_PER_HOUR),
                      (long long)(tod / US_PER_MIN % 60), (long long)(tod / US_PER_SEC % 60));
            break;
        case 's': {
            int64_t utc = ts - (int64_t)off * US_PER_SEC;
            sb_printf(&b, "%lld", (long long)(utc / US_PER_SEC - (utc % US_PER_SEC < 0)));
            break;
        }
        case 'z': {
            int32_t ao = off < 0 ? -off : off;
            sb_printf(&b, "%c%02d%02d", off < 0 ? '-' : '+', (int)(ao / 3600), (int)(ao / 60 % 60));
            if (ao % 60) sb_printf(&b, "%02d", (int)(ao % 60));
            break;
        }
        case 'Z': sb_puts(&b, abbr); break;
        case '%': sb_putc(&b, '%'); break;
        default: goto bad;
        }
    }
    RxStr r = {NULL, 0};
    char *p = b.oom ? NULL : scratch(v, b.n + 1);
    if (p) {
        if (b.n) memcpy(p, b.p, b.n);
        r = (RxStr){p, b.n};
    } else if (b.oom) {
        rx_error(v->err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory");
    }
    sb_free(&b);
    return r;
bad:
    sb_free(&b);
    run_error(v, e, "unknown directive in the format '%.*s' of strftime", (int)(f.len > 80 ? 80 : f.len), f.ptr);
    return (RxStr){NULL, 0};
}

/* Reads exactly `width` digits (at most, for %f: 1 to 6) of s at *i into *out. */
static bool read_digits(RxStr s, size_t *i, int width, bool upto, int64_t *out) {
    int64_t x = 0;
    int k = 0;
    while (k < width && *i < s.len && s.ptr[*i] >= '0' && s.ptr[*i] <= '9') x = x * 10 + (s.ptr[(*i)++] - '0'), k++;
    if (upto ? k == 0 : k != width) return false;
    if (upto)
        for (; k < width; k++) x *= 10;
    *out = x;
    return true;
}

/* strptime: s read by the format's directives into a UTC timestamp; -1 with the error naming
 * the value and what was expected. */
static int parse_time(Ev *v, const Expr *e, RxStr s, RxStr f, int64_t *out) {
    int64_t y = 1970, mo = 1, d = 1, h = 0, mi = 0, sec = 0, us = 0;
    size_t i = 0;
    const char *want = NULL;
    for (size_t k = 0; k < f.len && !want; k++) {
        char c = f.ptr[k];
        if (c != '%' || k + 1 >= f.len) {
            if (i < s.len && s.ptr[i] == c) i++;
            else want = "the format's literal text";
            continue;
        }
        switch (f.ptr[++k]) {
        case 'Y': if (!read_digits(s, &i, 4, false, &y)) want = "a 4-digit year (%Y)"; break;
        case 'm': if (!read_digits(s, &i, 2, false, &mo)) want = "a 2-digit month (%m)"; break;
        case 'd': if (!read_digits(s, &i, 2, false, &d)) want = "a 2-digit day (%d)"; break;
        case 'H': if (!read_digits(s, &i, 2, false, &h)) want = "a 2-digit hour (%H)"; break;
        case 'M': if (!read_digits(s, &i, 2, false, &mi)) want = "2-digit minutes (%M)"; break;
        case 'S': if (!read_digits(s, &i, 2, false, &sec)) want = "2-digit seconds (%S)"; break;
        case 'f': if (!read_digits(s, &i, 6, true, &us)) want = "1 to 6 digits of a fraction (%f)"; break;
        case 'F':
            if (!read_digits(s, &i, 4, false, &y) || i >= s.len || s.ptr[i++] != '-' || !read_digits(s, &i, 2, false, &mo) ||
                i >= s.len || s.ptr[i++] != '-' || !read_digits(s, &i, 2, false, &d))
                want = "YYYY-MM-DD (%F)";
            break;
        case 'T':
            if (!read_digits(s, &i, 2, false, &h) || i >= s.len || s.ptr[i++] != ':' || !read_digits(s, &i, 2, false, &mi) ||
                i >= s.len || s.ptr[i++] != ':' || !read_digits(s, &i, 2, false, &sec))
                want = "HH:MM:SS (%T)";
            break;
        case '%': if (i < s.len && s.ptr[i] == '%') i++; else want = "'%'"; break;
        default:
            return run_error(v, e, "unknown directive in the format '%.*s' of strptime", (int)(f.len > 80 ? 80 : f.len), f.ptr);
        }
    }
    if (!want && i < s.len) want = "the end of the text";
    if (!want && (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || !tm_valid_date(y, (int)mo, (int)d))) want = "a valid date";
    if (!want && (h > 23 || mi > 59 || sec > 59)) want = "a valid time of day";
    if (want)
        return run_error(v, e, "cannot read '%.*s' with the format '%.*s': expected %s", (int)(s.len > 80 ? 80 : s.len),
                         s.ptr, (int)(f.len > 80 ? 80 : f.len), f.ptr, want);
    *out = tm_days_from_civil(y, (int)mo, (int)d) * US_PER_DAY + h * US_PER_HOUR + mi * US_PER_MIN + sec * US_PER_SEC + us;
    return 0;
}

/* The last zone a column of zone names gave, so that a run of equal names is looked up once. */
typedef struct {
    RxStr name;
    const TzZone *z;
} ZoneMemo;

/* The zone named by row i of argument k of e (TEXT); 0 with *out, or -1 with the error at
 * the argument naming the zone. */
static int zone_arg(Ev *v, const Expr *e, int k, const Vec *names, size_t i, ZoneMemo *m, const TzZone **out) {
    RxStr name = ((RxStr *)names->data)[i];
    if (!(m->z && name.len == m->name.len && memcmp(name.ptr, m->name.ptr, name.len) == 0)) {
        const char *why = "";
        if (tz_find(name.ptr, name.len, &m->z, &why) < 0) {
            m->z = NULL;
            run_error(v, e->args[k], "unknown time zone '%.*s': %s", (int)(name.len > 80 ? 80 : name.len),
                      name.ptr, why);
            char near[128];
            if (strcmp(why, TZ_NO_SUCH_ZONE) == 0 && tz_nearest(name.ptr, name.len, near, sizeof near) > 0)
                rx_error_hint(v->err, "did you mean '%s'?", near);
            return -1;
        }
        m->name = name;
    }
    *out = m->z;
    return 0;
}

/* A result of a zone conversion must still be a TIMESTAMP (years 1 to 9999). */
static int zoned_range(Ev *v, const Expr *e, int64_t r) {
    if (r >= TM_TS_MIN && r <= TM_TS_MAX) return 0;
    return run_error(v, e, "%s: the result is outside the TIMESTAMP range (years 1 to 9999)", lang_function_name(e->fn));
}

static int eval_call(Ev *v, const Expr *e, Vec *out) {
    int na = e->n_args;
    Vec args[4];
    Vec *va = args;
    if (na > 4) {
        va = scratch(v, (size_t)na * sizeof *va);
        if (!va) return -1;
    }
    for (int i = 0; i < na; i++)
        if (eval(v, e->args[i], &va[i]) < 0) return -1;
    size_t n = v->n;
    RxType rt = e->type == TY_NULL ? TY_INT : e->type;
    if (new_vec(v, out, rt) < 0) return -1;
    if (e->fn == FN_COALESCE) {
        uint8_t *m = need_nulls(v, out);
        if (!m) return -1;
        for (int k = 0; k < na; k++) {
            if (va[k].type == TY_INT && rt == TY_FLOAT) {
                Vec f;
                if (to_float_vec(v, &va[k], &f) < 0) return -1;
                va[k] = f;
            }
        }
        size_t w = type_width(rt);
        for (size_t i = 0; i < n; i++) {
            m[i] = 1;
            for (int k = 0; k < na; k++) {
                if (va[k].type == TY_NULL || is_null(&va[k], i)) continue;
                memcpy((char *)out->data + i * w, (char *)va[k].data + i * w, w);
                m[i] = 0;
                break;
            }
        }
        return 0;
    }
    if (e->fn == FN_CONCAT) return eval_concat_fn(v, va, na, out);
    if (e->fn == FN_GREATEST || e->fn == FN_LEAST) return eval_extreme(v, e, va, na, rt, out);
    /* Every other function is NULL when any argument is NULL. */
    for (int k = 0; k < na; k++)
        if (va[k].type == TY_NULL) return null_vec(v, out, rt);
    if (na == 1) out->nulls = va[0].nulls;
    else {
        for (int k = 0; k < na; k++)
            if (va[k].nulls) {
                uint8_t *m = need_nulls(v, out);
                if (!m) return -1;
                for (size_t i = 0; i < n; i++) m[i] |= va[k].nulls[i];
            }
    }
    if (e->fn == FN_REGEXP_LIKE || e->fn == FN_REGEXP_REPLACE) return eval_regex(v, e, va, na, out);
    Vec *a = &va[0];
    ZoneMemo zm = {{NULL, 0}, NULL};
    const TzZone *zone = NULL;
    for (size_t i = 0; i < n; i++) {
        if (is_null(out, i)) {
            memset((char *)out->data + i * type_width(rt), 0, type_width(rt));
            if (rt == TY_TEXT) ((RxStr *)out->data)[i].ptr = "";
            continue;
        }
        const char *why = NULL;
        switch (e->fn) {
        case FN_TO_TIMESTAMP: {
            int64_t *r = &((int64_t *)out->data)[i];
            switch (a->type) {
            case TY_TEXT: {
                RxStr s = ((RxStr *)a->data)[i];
                if (tm_parse_timestamp(s.ptr, s.len, r, &why) < 0) return conv_error(v, e, "TIMESTAMP", s, why);
                break;
            }
            case TY_DATE: *r = (int64_t)((int32_t *)a->data)[i] * US_PER_DAY; break;
            case TY_INT: {
                int64_t sec = ((int64_t *)a->data)[i];
                if (__builtin_mul_overflow(sec, US_PER_SEC, r) || *r < TM_TS_MIN || *r > TM_TS_MAX)
                    return ts_range_error(v, e);
                break;
            }
            case TY_FLOAT: {
                /* Whole seconds and the fraction apart: sec * 1e6 as one double has steps of
                 * 32 µs near year 9999 (and rounded 253402300799.9999999 up to 10000-01-01).
                 * The range is checked on the rounded result. */
                double sec = ((double *)a->data)[i];
                if (!(fabs(sec) < 9.2e12)) return ts_range_error(v, e);
                double whole = floor(sec);
                *r = (int64_t)whole * US_PER_SEC + (int64_t)llround((sec - whole) * 1e6);
                if (*r < TM_TS_MIN || *r > TM_TS_MAX) return ts_range_error(v, e);
                break;
            }
            default: *r = ((int64_t *)a->data)[i]; break;
            }
            break;
        }
        case FN_TO_DATE: {
            int32_t *r = &((int32_t *)out->data)[i];
            if (a->type == TY_TEXT) {
                RxStr s = ((RxStr *)a->data)[i];
                if (tm_parse_date(s.ptr, s.len, r, &why) < 0) {
                    int64_t ts;
                    const char *why2;
                    if (tm_parse_timestamp(s.ptr, s.len, &ts, &why2) < 0) return conv_error(v, e, "DATE", s, why);
                    int64_t d = ts / US_PER_DAY - (ts % US_PER_DAY < 0);
                    *r = (int32_t)d;
                }
            } else if (a->type == TY_TIMESTAMP) {
                int64_t ts = ((int64_t *)a->data)[i];
                *r = (int32_t)(ts / US_PER_DAY - (ts % US_PER_DAY < 0));
            } else {
                *r = ((int32_t *)a->data)[i];
            }
            break;
        }
        case FN_TO_TIME: {
            int64_t *r = &((int64_t *)out->data)[i];
            if (a->type == TY_TEXT) {
                RxStr s = ((RxStr *)a->data)[i];
                if (tm_parse_time(s.ptr, s.len, r, &why) < 0) return conv_error(v, e, "TIME", s, why);
            } else if (a->type == TY_TIMESTAMP) {
                int64_t ts = ((int64_t *)a->data)[i];
                int64_t t = ts % US_PER_DAY;
                *r = t < 0 ? t + US_PER_DAY : t;
            } else {
                *r = ((int64_t *)a->data)[i];
            }
            break;
        }
        case FN_TO_DURATION: {
            RxDuration *r = &((RxDuration *)out->data)[i];
            if (a->type == TY_TEXT) {
                RxStr s = ((RxStr *)a->data)[i];
                if (tm_parse_duration(s.ptr, s.len, r, &why) < 0) {
                    char iso[TM_BUF];
                    if (tm_guess_duration(s.ptr, s.len, iso) == 0) return conv_error(v, e, "DURATION", s, why);
                    conv_error(v, e, "DURATION", s, tm_duration_forms);
                    rx_error_hint(v->err, "did you mean '%s'?", iso);
                    return -1;
                }
            } else if (a->type == TY_INT) {
                r->months = 0;
                if (__builtin_mul_overflow(((int64_t *)a->data)[i], US_PER_SEC, &r->us))
                    return run_error(v, e, "duration overflow");
            } else if (a->type == TY_FLOAT) {
                double us = ((double *)a->data)[i] * 1e6;
                if (!(fabs(us) < 9.2e18)) return run_error(v, e, "duration overflow");
                r->months = 0;
                r->us = (int64_t)llround(us);
            } else {
                *r = ((RxDuration *)a->data)[i];
            }
            break;
        }
        case FN_TO_TEXT: ((RxStr *)out->data)[i] = vec_text(v->a, a, i); break;
        case FN_TO_INT: {
            int64_t *r = &((int64_t *)out->data)[i];
            if (a->type == TY_TEXT) {
                RxStr s = ((RxStr *)a->data)[i];
                int rc = num_parse_int(s.ptr, s.len, r);
                if (rc == -2) return conv_error(v, e, "INT", s, "it does not fit in 64 bits");
                if (rc < 0) return conv_error(v, e, "INT", s, "not an integer");
            } else if (a->type == TY_FLOAT) {
                double d = ((double *)a->data)[i];
                if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
                    char nb[NUM_BUF];
                    num_format_double(d, nb);
                    return run_error(v, e, "cannot convert %s to INT: out of range", nb);
                }
                *r = (int64_t)d;
            } else if (a->type == TY_BOOL) {
                *r = ((uint8_t *)a->data)[i];
            } else {
                *r = ((int64_t *)a->data)[i];
            }
            break;
        }
        case FN_TO_FLOAT: {
            double *r = &((double *)out->data)[i];
            if (a->type == TY_TEXT) {
                RxStr s = ((RxStr *)a->data)[i];
                if (num_parse_float(s.ptr, s.len, r) < 0) return conv_error(v, e, "FLOAT", s, "not a number");
            } else if (a->type == TY_INT) {
                *r = (double)((int64_t *)a->data)[i];
            } else {
                *r = ((double *)a->data)[i];
            }
            break;
        }
        case FN_ABS:
            if (a->type == TY_INT) {
                int64_t x = ((int64_t *)a->data)[i];
                if (x == INT64_MIN) return run_error(v, e, "integer overflow: abs(%lld) does not fit in 64 bits", (long long)x);
                ((int64_t *)out->data)[i] = x < 0 ? -x : x;
            } else if (a->type == TY_FLOAT) {
                ((double *)out->data)[i] = fabs(((double *)a->data)[i]);
            } else {
                RxDuration d = ((RxDuration *)a->data)[i];
                if (rx_dur_span(d) < 0) {
                    if (d.us == INT64_MIN || d.months == INT64_MIN) return run_error(v, e, "duration overflow");
                    d.us = -d.us, d.months = -d.months;
                }
                ((RxDuration *)out->data)[i] = d;
            }
            break;
        case FN_ROUND: case FN_FLOOR: case FN_CEIL: {
            int64_t digits = na == 2 ? ((int64_t *)va[1].data)[i] : 0;
            if (a->type == TY_INT) {
                int64_t x = ((int64_t *)a->data)[i];
                if (digits >= 0) {
                    ((int64_t *)out->data)[i] = x;
                } else if (digits < -18) {
                    /* 10^19 and up do not fit: every |x| < 10^19 goes to 0 or to a multiple
                     * that overflows (round from 5·10^18 on, floor below 0, ceil above 0). */
                    bool up = e->fn == FN_ROUND ? digits == -19 && (x >= INT64_C(5000000000000000000) || x <= -INT64_C(5000000000000000000))
                            : e->fn == FN_FLOOR ? x < 0 : x > 0;
                    if (up) return run_error(v, e, "integer overflow in %s", e->fn == FN_ROUND ? "round" : e->fn == FN_FLOOR ? "floor" : "ceil");
                    ((int64_t *)out->data)[i] = 0;
                } else {
                    /* round an integer to tens, hundreds ... */
                    int64_t p = 1;
                    for (int64_t k = 0; k < -digits && p <= INT64_MAX / 10; k++) p *= 10;
                    int64_t q = x / p, rem = x % p;
                    if (e->fn == FN_FLOOR && rem < 0) q--;
                    else if (e->fn == FN_CEIL && rem > 0) q++;
                    else if (e->fn == FN_ROUND && (rem >= 0 ? rem * 2 >= p : -rem * 2 >= p)) q += rem >= 0 ? 1 : -1;
                    int64_t r;
                    if (__builtin_mul_overflow(q, p, &r)) return run_error(v, e, "integer overflow in %s", e->fn == FN_ROUND ? "round" : e->fn == FN_FLOOR ? "floor" : "ceil");
                    ((int64_t *)out->data)[i] = r;
                }
            } else {
                ((double *)out->data)[i] = round_to(((double *)a->data)[i], digits, e->fn);
            }
            break;
        }
        case FN_LOWER: case FN_UPPER:
            ((RxStr *)out->data)[i] = map_case(v, ((RxStr *)a->data)[i], e->fn == FN_UPPER);
            break;
        case FN_LENGTH: {
            RxStr s = ((RxStr *)a->data)[i];
            ((int64_t *)out->data)[i] = (int64_t)utf8_width(s.ptr, s.len);
            break;
        }
        case FN_SUBSTR: {
            RxStr s = ((RxStr *)a->data)[i];
            int64_t start = ((int64_t *)va[1].data)[i];
            int64_t len = na == 3 ? ((int64_t *)va[2].data)[i] : INT64_MAX;
            if (len < 0) return run_error(v, e, "substr length cannot be negative (%lld)", (long long)len);
            /* SQL semantics: characters from position start (1-based) for len characters; a
             * start before 1 shortens the length accordingly. */
            int64_t from = start - 1, to;
            if (len == INT64_MAX || __builtin_add_overflow(from, len, &to)) to = INT64_MAX;
            if (from < 0) from = 0;
            RxStr r = {"", 0};
            if (to > from) {
                size_t b0 = cp_offset(s, from), b1 = to == INT64_MAX ? s.len : cp_offset(s, to);
                r.ptr = s.ptr + b0;
                r.len = b1 - b0;
            }
            ((RxStr *)out->data)[i] = r;
            break;
        }
        case FN_EXTRACT: {
            Vec *x = &va[1];
            int64_t ts;
            if (x->type == TY_DATE) ts = (int64_t)((int32_t *)x->data)[i] * US_PER_DAY;
            else ts = ((int64_t *)x->data)[i];
            if (x->type == TY_TIME && e->field == TF_EPOCH) {
                ((int64_t *)out->data)[i] = ts / US_PER_SEC;
            } else {
                ((int64_t *)out->data)[i] = tm_extract_ts(e->field, ts);
            }
            break;
        }
        case FN_DATE_TRUNC: {
            Vec *x = &va[1];
            if (na == 3) {
                /* on the zone's wall clock, and back to the instant: from a day up through the
                 * zone's rules, below a day with the offset in effect at the value, so that
                 * an hour that happens twice truncates within itself (PostgreSQL's rule) */
                int64_t r, us = ((int64_t *)x->data)[i];
                if (zone_arg(v, e, 2, &va[2], i, &zm, &zone) < 0) return -1;
                int64_t off = (int64_t)tz_offset_at(zone, us, NULL) * US_PER_SEC;
                if (tm_trunc_ts(e->field, us + off, &r) < 0) return run_error(v, e, "date_trunc failed");
                r = e->field > TF_DAY ? r - off : tz_from_local(zone, r);
                if (zoned_range(v, e, r) < 0) return -1;
                ((int64_t *)out->data)[i] = r;
            } else if (x->type == TY_DATE) {
                int64_t ts = (int64_t)((int32_t *)x->data)[i] * US_PER_DAY, r;
                if (tm_trunc_ts(e->field, ts, &r) < 0) return run_error(v, e, "date_trunc failed");
                ((int32_t *)out->data)[i] = (int32_t)(r / US_PER_DAY - (r % US_PER_DAY < 0));
            } else {
                if (tm_trunc_ts(e->field, ((int64_t *)x->data)[i], &((int64_t *)out->data)[i]) < 0)
                    return run_error(v, e, "date_trunc failed");
            }
            break;
        }
        case FN_TIME_BUCKET: case FN_DATE_BIN: {
            RxDuration w = ((RxDuration *)va[0].data)[i];
            Vec *x = &va[1];
            int64_t ts = x->type == TY_DATE ? (int64_t)((int32_t *)x->data)[i] * US_PER_DAY
                                            : ((int64_t *)x->data)[i];
            int64_t origin = w.months ? TM_BUCKET_ORIGIN_MONTHS : TM_BUCKET_ORIGIN, r;
            /* a TEXT last argument is a zone: buckets laid on its wall clock */
            int zk = e->fn == FN_TIME_BUCKET && va[na - 1].type == TY_TEXT ? na - 1 : -1;
            if (zk > 0 && zone_arg(v, e, zk, &va[zk], i, &zm, &zone) < 0) return -1;
            if (na == 4 || (na == 3 && zk < 0)) {
                Vec *o = &va[2];
                origin = o->type == TY_DATE ? (int64_t)((int32_t *)o->data)[i] * US_PER_DAY
                                            : ((int64_t *)o->data)[i];
            }
            if (e->fn == FN_DATE_BIN && w.months != 0)
                return run_error(v, e, "date_bin takes a fixed width, not months");
            /* In a zone, months and whole days are counted on the zone's wall clock (a bucket
             * starts at local midnight, a day may last 23 or 25 hours); any other width is an
             * exact length laid from the origin, by default Monday 2000-01-03 (2000-01-01 for
             * months) at midnight in the zone. */
            bool wall = zk > 0 && (w.months != 0 || w.us % US_PER_DAY == 0);
            if (wall) {
                if (na == 4) origin = tz_to_local(zone, origin);
                ts = tz_to_local(zone, ts);
            } else if (zk > 0 && na != 4) {
                origin = tz_from_local(zone, origin);
            }
            if (tm_bucket_ts(w, ts, origin, &r, &why) < 0) {
                char at[TM_BUF];
                tm_format_timestamp(ts, at);
                return run_error(v, e, "%s of %s: %s", lang_function_name(e->fn), at, why);
            }
            if (wall) {
                r = tz_from_local(zone, r);
                if (zoned_range(v, e, r) < 0) return -1;
            }
            if (e->type == TY_DATE) ((int32_t *)out->data)[i] = (int32_t)(r / US_PER_DAY - (r % US_PER_DAY < 0));
            else ((int64_t *)out->data)[i] = r;
            break;
        }
        case FN_TRIM: case FN_LTRIM: case FN_RTRIM: {
            RxStr set = na == 2 ? ((RxStr *)va[1].data)[i] : (RxStr){" ", 1};
            ((RxStr *)out->data)[i] = trim_set(((RxStr *)a->data)[i], set, e->fn != FN_RTRIM, e->fn != FN_LTRIM);
            break;
        }
        case FN_REPLACE: {
            RxStr r = replace_text(v, ((RxStr *)a->data)[i], ((RxStr *)va[1].data)[i], ((RxStr *)va[2].data)[i]);
            if (!r.ptr) return -1;
            ((RxStr *)out->data)[i] = r;
            break;
        }
        case FN_STARTS_WITH: case FN_CONTAINS: {
            RxStr x = ((RxStr *)a->data)[i], y = ((RxStr *)va[1].data)[i];
            bool hit = e->fn == FN_STARTS_WITH ? y.len <= x.len && memcmp(x.ptr, y.ptr, y.len) == 0
                                               : find_text(x, y, 0) != (size_t)-1;
            ((uint8_t *)out->data)[i] = hit;
            break;
        }
        case FN_SPLIT_PART: {
            int64_t k = ((int64_t *)va[2].data)[i];
            if (k == 0) return run_error(v, e, "split_part: field position must not be zero");
            ((RxStr *)out->data)[i] = split_field(((RxStr *)a->data)[i], ((RxStr *)va[1].data)[i], k);
            break;
        }
        case FN_SQRT: {
            double x = num_at(a, i);
            if (x < 0) return run_error(v, e, "cannot take square root of a negative number (%s)", fmt_num(v, x));
            ((double *)out->data)[i] = sqrt(x);
            break;
        }
        case FN_EXP: {
            double x = num_at(a, i), r = isnan(x) ? x : exp(x);
            if (math_range(v, e, r, 1, isfinite(x)) < 0) return -1;
            ((double *)out->data)[i] = r;
            break;
        }
        case FN_LN: case FN_LOG10: {
            double x = num_at(a, i);
            if (x == 0) return run_error(v, e, "cannot take logarithm of zero");
            if (x < 0) return run_error(v, e, "cannot take logarithm of a negative number (%s)", fmt_num(v, x));
            ((double *)out->data)[i] = e->fn == FN_LN ? log(x) : log10(x);
            break;
        }
        case FN_POWER: {
            double x = num_at(a, i), y = num_at(&va[1], i);
            if (x == 0 && y < 0) return run_error(v, e, "zero raised to a negative power is undefined");
            if (x < 0 && isfinite(y) && floor(y) != y)
                return run_error(v, e, "a negative number raised to a non-integer power yields a complex result");
            double r = pow(x, y);
            if (isinf(r) && isfinite(x) && isfinite(y)) return run_error(v, e, "value out of range: overflow in power");
            if (r == 0 && x != 0 && isfinite(x) && isfinite(y)) return run_error(v, e, "value out of range: underflow in power");
            ((double *)out->data)[i] = r;
            break;
        }
        case FN_SIGN:
            if (a->type == TY_INT) {
                int64_t x = ((int64_t *)a->data)[i];
                ((int64_t *)out->data)[i] = (x > 0) - (x < 0);
            } else {
                double x = ((double *)a->data)[i];
                ((double *)out->data)[i] = isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
            }
            break;
        case FN_DIV:
            if (rt == TY_INT) {
                int64_t x = ((int64_t *)a->data)[i], y = ((int64_t *)va[1].data)[i];
                if (y == 0) return run_error(v, e, "division by zero");
                if (x == INT64_MIN && y == -1) return run_error(v, e, "integer overflow: div(%lld, -1) does not fit in 64 bits", (long long)x);
                ((int64_t *)out->data)[i] = x / y;
            } else {
                double x = num_at(a, i), y = num_at(&va[1], i);
                if (y == 0) return run_error(v, e, "division by zero");
                ((double *)out->data)[i] = trunc(x / y);
            }
            break;
        case FN_EPOCH: {
            int64_t us = a->type == TY_DATE ? (int64_t)((int32_t *)a->data)[i] * US_PER_DAY : ((int64_t *)a->data)[i];
            int64_t sec = us / US_PER_SEC, frac = us % US_PER_SEC;
            ((double *)out->data)[i] = (double)sec + (double)frac / 1e6;
            break;
        }
        case FN_TO_SECONDS: {
            __int128 span = rx_dur_span(((RxDuration *)a->data)[i]);
            __int128 sec = span / US_PER_SEC, frac = span % US_PER_SEC;
            ((double *)out->data)[i] = (double)sec + (double)frac / 1e6;
            break;
        }
        case FN_MAKE_TIMESTAMP: {
            int64_t y = ((int64_t *)a->data)[i], mo = ((int64_t *)va[1].data)[i], d = ((int64_t *)va[2].data)[i];
            int64_t h = ((int64_t *)va[3].data)[i], mi = ((int64_t *)va[4].data)[i];
            double sec = num_at(&va[5], i);
            if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || !tm_valid_date(y, (int)mo, (int)d))
                return run_error(v, e, "date field value out of range: %lld-%02lld-%02lld", (long long)y, (long long)mo, (long long)d);
            if (h < 0 || h > 23 || mi < 0 || mi > 59 || !(sec >= 0 && sec < 60))
                return run_error(v, e, "time field value out of range: hour %lld, minute %lld, second %s", (long long)h, (long long)mi, fmt_num(v, sec));
            int64_t us = (int64_t)llround(sec * 1e6);
            ((int64_t *)out->data)[i] = tm_days_from_civil(y, (int)mo, (int)d) * US_PER_DAY + h * US_PER_HOUR + mi * US_PER_MIN + us;
            break;
        }
        case FN_LIKE: case FN_ILIKE: {
            RxStr esc = na == 3 ? ((RxStr *)va[2].data)[i] : (RxStr){"\\", 1};
            int m = like_match(((RxStr *)a->data)[i], ((RxStr *)va[1].data)[i], esc, e->fn == FN_ILIKE);
            if (m < 0) {
                RxStr ps = ((RxStr *)va[1].data)[i];
                return run_error(v, e, "the LIKE pattern '%.*s' ends with its escape character", (int)(ps.len > 80 ? 80 : ps.len), ps.ptr);
            }
            ((uint8_t *)out->data)[i] = (uint8_t)m;
            break;
        }
        case FN_STRFTIME: {
            int64_t ts = a->type == TY_DATE ? (int64_t)((int32_t *)a->data)[i] * US_PER_DAY : ((int64_t *)a->data)[i];
            int32_t off = 0;
            const char *abbr = "UTC";
            if (na == 3) {
                if (zone_arg(v, e, 2, &va[2], i, &zm, &zone) < 0) return -1;
                off = tz_offset_at(zone, ts, &abbr);
                ts += (int64_t)off * US_PER_SEC;
            }
            RxStr r = format_time(v, e, ts, ((RxStr *)va[1].data)[i], off, abbr);
            if (!r.ptr) return -1;
            ((RxStr *)out->data)[i] = r;
            break;
        }
        case FN_AT_TIME_ZONE: case FN_TO_UTC_TIMESTAMP: {
            int64_t x = a->type == TY_DATE ? (int64_t)((int32_t *)a->data)[i] * US_PER_DAY : ((int64_t *)a->data)[i], r;
            if (zone_arg(v, e, 1, &va[1], i, &zm, &zone) < 0) return -1;
            r = e->fn == FN_AT_TIME_ZONE ? tz_to_local(zone, x) : tz_from_local(zone, x);
            if (zoned_range(v, e, r) < 0) return -1;
            ((int64_t *)out->data)[i] = r;
            break;
        }
        case FN_STRPTIME:
            if (parse_time(v, e, ((RxStr *)a->data)[i], ((RxStr *)va[1].data)[i], &((int64_t *)out->data)[i]) < 0) return -1;
            break;
        case FN_COALESCE: case FN_CONCAT: case FN_GREATEST: case FN_LEAST: case FN_MOD:
        case FN_NULLIF: case FN_SECONDS: case FN_NOW: case FN_REGEXP_LIKE: case FN_REGEXP_REPLACE:
            /* handled above, or rewritten by the analysis into other expressions */
            break;
        }
    }
    return 0;
}

/* CASE: every branch is evaluated over the batch, then each row takes the value of its first
 * true WHEN (or the ELSE). */
static int eval_case(Ev *v, const Expr *e, Vec *out) {
    int n_args = e->n_args;
    Vec *va = scratch(v, (size_t)n_args * sizeof *va);
    if (!va) return -1;
    for (int i = 0; i < n_args; i++) {
        if (eval(v, e->args[i], &va[i]) < 0) return -1;
        bool value = i == n_args - 1 || i % 2 == 1;
        if (!value) continue;
        if (va[i].type == TY_NULL) {
            if (null_vec(v, &va[i], e->type == TY_NULL ? TY_INT : e->type) < 0) return -1;
        } else if (e->type == TY_FLOAT && va[i].type == TY_INT) {
            Vec f;
            if (to_float_vec(v, &va[i], &f) < 0) return -1;
            va[i] = f;
        }
    }
    RxType t = e->type == TY_NULL ? TY_INT : e->type;
    if (new_vec(v, out, t) < 0) return -1;
    uint8_t *m = need_nulls(v, out);
    if (!m) return -1;
    size_t w = type_width(t);
    for (size_t r = 0; r < v->n; r++) {
        int pick = n_args - 1;
        for (int i = 0; i + 1 < n_args; i += 2) {
            const Vec *c = &va[i];
            if (c->type != TY_NULL && !is_null(c, r) && ((uint8_t *)c->data)[r]) {
                pick = i + 1;
                break;
            }
        }
        const Vec *src = &va[pick];
        m[r] = e->type == TY_NULL || is_null(src, r);
        memcpy((char *)out->data + r * w, (char *)src->data + r * w, w);
    }
    return 0;
}

static int eval(Ev *v, const Expr *e, Vec *out) {
    switch (e->kind) {
    case EX_CASE: return eval_case(v, e, out);
    case EX_COL: return eval_col(v, e, out);
    case EX_CONST: return eval_const(v, e, out);
    case EX_UNARY: return eval_unary(v, e, out);
    case EX_BINARY: return eval_binary(v, e, out);
    case EX_CALL: return eval_call(v, e, out);
    case EX_ISNULL: {
        Vec a;
        if (eval(v, e->args[0], &a) < 0) return -1;
        if (new_vec(v, out, TY_BOOL) < 0) return -1;
        uint8_t *r = out->data;
        for (size_t i = 0; i < v->n; i++) {
            bool nul = a.type == TY_NULL || is_null(&a, i);
            r[i] = e->negated ? !nul : nul;
        }
        return 0;
    }
    }
    return rx_error(v->err, RX_ERUNTIME, e->src, e->span, "internal error: unknown expression");
}

int eval_batch(const Expr *e, const Table *in, size_t off, size_t n, Arena *a, Vec *out,
               RxError *err) {
    Ev v = {.in = in, .off = off, .n = n, .a = a, .err = err};
    return eval(&v, e, out);
}

Column *eval_column(const Expr *e, const Table *in, RxError *err) {
    RxType t = e->type;
    size_t n = in->n_rows;
    Column *c = NULL;
    ColBuilder tb;
    bool text = t == TY_TEXT;
    if (text) colb_init(&tb, TY_TEXT, n ? n : 1);
    else {
        c = col_new(t, n);
        if (!c) {
            rx_error(err, RX_ENOMEM, NULL, e->span, "out of memory");
            return NULL;
        }
    }
    size_t w = type_width(t);
    for (size_t off = 0; off < n || (off == 0 && n == 0 && false); off += EXEC_BATCH) {
        size_t k = n - off < EXEC_BATCH ? n - off : EXEC_BATCH;
        Arena *a = arena_new();
        Vec v;
        if (!a || eval_batch(e, in, off, k, a, &v, err) < 0) {
            if (!a) rx_error(err, RX_ENOMEM, NULL, e->span, "out of memory");
            arena_free(a);
            if (text) colb_free(&tb);
            else col_release(c);
            return NULL;
        }
        if (text) {
            for (size_t i = 0; i < k; i++) {
                if (v.nulls && v.nulls[i]) {
                    colb_push_null(&tb);
                } else {
                    Value val = {.type = TY_TEXT};
                    val.v.s = ((RxStr *)v.data)[i];
                    colb_push(&tb, &val);
                }
            }
        } else {
            if (v.type == t) memcpy((char *)c->data + off * w, v.data, k * w);
            else if (t == TY_FLOAT && v.type == TY_INT)
                for (size_t i = 0; i < k; i++) col_f64(c)[off + i] = (double)((int64_t *)v.data)[i];
            else memset((char *)c->data + off * w, 0, k * w);
            if (v.nulls || v.type != t)
                for (size_t i = 0; i < k; i++)
                    if ((v.nulls && v.nulls[i]) || (v.type == TY_NULL)) {
                        if (col_set_null(c, off + i) < 0) {
                            arena_free(a);
                            col_release(c);
                            rx_error(err, RX_ENOMEM, NULL, e->span, "out of memory");
                            return NULL;
                        }
                    }
        }
        arena_free(a);
    }
    if (text) {
        c = colb_finish(&tb);
        if (!c) rx_error(err, RX_ENOMEM, NULL, e->span, "out of memory");
    }
    return c;
}
