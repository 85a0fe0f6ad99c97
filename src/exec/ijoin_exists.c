/*
 * ijoin_exists.c - the interval join's existence test, for IJOIN SEMI and ANTI: which left rows
 * have at least one partner, each decided without listing its pairs (ij_exists, ijoin.h).
 *
 * Every relation is a box: for a left row (ls, le) its partners are the right rows whose start
 * x and end y lie in inclusive ranges (member_box, ijoin_set.c). Each relation has an axis P
 * (x, or y for PRECEDED_BY, MET_BY, OVERLAPPED_BY, FINISHES, FINISHED_BY) on which its range is
 * a single value or along which its range on the other endpoint Q is one-sided:
 *   - P range a single value c: the right rows sorted by (P, Q) hold the rows with P = c as one
 *     block sorted by Q; a partner exists iff the first row at or after (c, qlo) has P = c and
 *     Q <= qhi (one binary search);
 *   - else Q's range is [qlo, +inf) or (-inf, qhi] (or everything): a partner exists iff the
 *     largest (smallest) Q over the rows with P in range reaches it: a range maximum (minimum)
 *     over the sorted rows, from a segment tree.
 * A set of relations tests its members in turn, stopping at the first that has a partner.
 * Cost O((n + m) log m) whatever the number of pairs; memory six words per right row.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

/* Right rows sorted by (P, Q), with a segment tree of Q's maximum and minimum. */
typedef struct {
    bool built;
    size_t m, size;          /* rows; leaves of the trees (a power of two >= m) */
    int64_t *P, *Q;          /* sorted */
    int64_t *mx, *mn;        /* trees: node k's children 2k, 2k+1; leaves from size */
} Axis;

static void axis_free(Axis *a) {
    xfree(a->P), xfree(a->Q), xfree(a->mx), xfree(a->mn);
    memset(a, 0, sizeof *a);
}

/* Sorts R's rows by (P, Q) (by Q, then stably by P) and builds the trees; 0 or -1 (OOM). */
static int axis_build(Axis *a, const int64_t *P, const int64_t *Q, size_t m) {
    a->built = true;
    a->m = m;
    a->size = 1;
    while (a->size < m) a->size *= 2;
    uint32_t *byq = xmalloc(m ? m : 1, sizeof *byq), *ord = xmalloc(m ? m : 1, sizeof *ord);
    a->P = xmalloc(m ? m : 1, sizeof *a->P);
    a->Q = xmalloc(m ? m : 1, sizeof *a->Q);
    a->mx = xmalloc(2 * a->size, sizeof *a->mx);
    a->mn = xmalloc(2 * a->size, sizeof *a->mn);
    int rc = -1;
    if (!byq || !ord || !a->P || !a->Q || !a->mx || !a->mn || sort_ids(Q, NULL, m, byq, NULL, NULL) != 0 ||
        sort_ids(P, byq, m, ord, a->P, NULL) != 0)
        goto done;
    for (size_t t = 0; t < m; t++) a->Q[t] = Q[ord[t]];
    for (size_t t = 0; t < a->size; t++) {
        a->mx[a->size + t] = t < m ? a->Q[t] : INT64_MIN;
        a->mn[a->size + t] = t < m ? a->Q[t] : INT64_MAX;
    }
    for (size_t k = a->size - 1; k >= 1; k--) {
        a->mx[k] = a->mx[2 * k] > a->mx[2 * k + 1] ? a->mx[2 * k] : a->mx[2 * k + 1];
        a->mn[k] = a->mn[2 * k] < a->mn[2 * k + 1] ? a->mn[2 * k] : a->mn[2 * k + 1];
    }
    rc = 0;
done:
    xfree(byq), xfree(ord);
    return rc;
}

/* The first position in the sorted rows whose (P, Q) is not below (p, q). */
static size_t lower_pair(const Axis *a, int64_t p, int64_t q) {
    size_t lo = 0, hi = a->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->P[mid] < p || (a->P[mid] == p && a->Q[mid] < q)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Max (want_max) or min of Q over sorted rows [lo, hi). */
static int64_t range_q(const Axis *a, size_t lo, size_t hi, bool want_max) {
    int64_t best = want_max ? INT64_MIN : INT64_MAX;
    const int64_t *t = want_max ? a->mx : a->mn;
    for (lo += a->size, hi += a->size; lo < hi; lo /= 2, hi /= 2) {
        if (lo & 1) {
            int64_t v = t[lo++];
            if (want_max ? v > best : v < best) best = v;
        }
        if (hi & 1) {
            int64_t v = t[--hi];
            if (want_max ? v > best : v < best) best = v;
        }
    }
    return best;
}

/* Whether some right row of axis a lies in P range [plo, phi] and Q range [qlo, qhi]; one of
 * them is a single value or the Q range is one-sided (see the head of this file). */
static bool axis_any(const Axis *a, int64_t plo, int64_t phi, int64_t qlo, int64_t qhi) {
    if (plo == phi) {
        size_t t = lower_pair(a, plo, qlo);
        return t < a->m && a->P[t] == plo && a->Q[t] <= qhi;
    }
    size_t lo = lower_pair(a, plo, INT64_MIN);
    size_t hi = phi == INT64_MAX ? a->m : lower_pair(a, phi + 1, INT64_MIN);
    if (lo >= hi) return false;
    if (qlo == INT64_MIN && qhi == INT64_MAX) return true;
    if (qhi == INT64_MAX) return range_q(a, lo, hi, true) >= qlo;
    if (qlo == INT64_MIN) return range_q(a, lo, hi, false) <= qhi;
    /* two-sided on both: no relation has it (member_box), but stay exact */
    for (size_t t = lo; t < hi; t++)
        if (a->Q[t] >= qlo && a->Q[t] <= qhi) return true;
    return false;
}

static bool on_end_axis(IjRelation r) {
    return r == IJ_PRECEDED_BY || r == IJ_MET_BY || r == IJ_OVERLAPPED_BY || r == IJ_FINISHES ||
           r == IJ_FINISHED_BY;
}

int exists_join(IjRelSet set, const Sub *L, const Sub *R, uint8_t *hit, RxError *err) {
    Axis ax[2];
    memset(ax, 0, sizeof ax);
    int rc = -1;
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        if (!(set >> r & 1)) continue;
        int k = on_end_axis((IjRelation)r);
        if (!ax[k].built && axis_build(&ax[k], k ? R->e : R->s, k ? R->s : R->e, R->n) != 0) {
            oom(err);
            goto done;
        }
    }
    for (size_t i = 0; i < L->n; i++) {
        uint32_t gl = gid_of(L, i);
        if (hit[gl]) continue;
        for (int r = 0; r < IJ_N_RELATIONS && !hit[gl]; r++) {
            int64_t b[4];
            if (!(set >> r & 1) || !ij_member_box((IjRelation)r, L->s[i], L->e[i], b)) continue;
            bool k = on_end_axis((IjRelation)r);
            hit[gl] = k ? axis_any(&ax[1], b[2], b[3], b[0], b[1]) : axis_any(&ax[0], b[0], b[1], b[2], b[3]);
        }
    }
    rc = 0;
done:
    axis_free(&ax[0]);
    axis_free(&ax[1]);
    return rc;
}
