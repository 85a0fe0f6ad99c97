/*
 * compare.h - the one rule per type for equality, order and hashing of values
 * (docs/semantics.md). Every operator that compares, groups, hashes or sorts values (σ, the
 * joins, δ, π, γ, the set operations, τ, min/max, IJOIN/ASOF keys, constant folding) goes
 * through these helpers, so that no two operators can disagree about whether two values are
 * equal or which one is smaller.
 *
 *   FLOAT     PostgreSQL's rule: NaN equals NaN (whatever its sign or payload) and sorts above
 *             +Infinity, so above every number; -0 equals 0.
 *   DURATION  PostgreSQL's interval rule: a duration is compared by its span, a month counting
 *             as 30 days (and a day as 24 hours), so P1D = PT24H and P1M = P30D. The span is
 *             computed in 128 bits and never overflows.
 *
 * NULL is not handled here: comparisons with NULL are unknown (the caller's validity bitmaps
 * say so), while δ, γ and the set operations put NULLs in one group of their own.
 */
#ifndef RX_COMPARE_H
#define RX_COMPARE_H

#include <stdint.h>
#include <string.h>

#include "types/value.h"

/* The representative of d's equality class: 0 for -0, the one positive quiet NaN for every
 * NaN, d itself otherwise. Equal FLOATs have the same bits after this. */
static inline double rx_float_canon(double d) {
    if (d != d) return __builtin_nan("");
    return d == 0 ? 0.0 : d;
}

/* -1, 0 or 1 as a is below, equal to or above b under the FLOAT rule. */
static inline int rx_float_cmp(double a, double b) {
    bool na = a != a, nb = b != b;
    if (na || nb) return na == nb ? 0 : na ? 1 : -1;
    return (a > b) - (a < b);
}

/* An int64 whose order and equality are those of the FLOAT rule: equal for equal doubles, in
 * the same order (the sign-adjusted bit pattern of the canonical double). */
static inline int64_t rx_float_order_key(double d) {
    d = rx_float_canon(d);
    uint64_t u;
    memcpy(&u, &d, 8);
    u = (u >> 63) ? ~u : (u | UINT64_C(0x8000000000000000));
    return (int64_t)(u ^ UINT64_C(0x8000000000000000));
}

/* The span of a duration in microseconds, a month counting as 30 days; exact (128 bits). */
static inline __int128 rx_dur_span(RxDuration d) { return (__int128)d.months * 30 * US_PER_DAY + d.us; }

/* -1, 0 or 1 as a is shorter than, as long as or longer than b under the DURATION rule. */
static inline int rx_dur_cmp(RxDuration a, RxDuration b) {
    __int128 p = rx_dur_span(a), q = rx_dur_span(b);
    return (p > q) - (p < q);
}

/* Whether a duration's span fits an int64 (every duration of less than about 290,000 years);
 * *out is the span then. Keys that must fit 64 bits check this rather than clamp. */
static inline bool rx_dur_span64(RxDuration d, int64_t *out) {
    __int128 s = rx_dur_span(d);
    if (s > INT64_MAX || s < INT64_MIN) return false;
    *out = (int64_t)s;
    return true;
}

#endif
