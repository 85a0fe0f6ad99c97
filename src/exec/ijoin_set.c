/*
 * ijoin_set.c - engine f of the interval-join kernel, "box scan": a set of relations
 * (IJOIN (PRECEDES | MEETS) ...), every pair for which some member holds, each pair once, in one
 * pass over the right rows when the members' boxes are tight (else member by member, ijoin.c).
 *
 * Each member relation bounds, for a left row (ls, le), the right row's start and end to an
 * inclusive box [xlo, xhi] x [ylo, yhi] (MEETS: rs = le; DURING: rs < ls, re > le; ...); the
 * set's box is the smallest holding every member's. A member's box is exactly where its
 * predicate can hold, so the set's pairs all lie in the set's box.
 *
 * Algorithm (n left rows, m right rows, c candidate pairs):
 *   1. Sort the right rows by one endpoint: the end when the set has PRECEDED_BY but not
 *      PRECEDES (the start is then unbounded), else the start.
 *   2. Per left row, binary-search its box's range on that endpoint, and test every right row in
 *      it against the box's other range and then the members' predicates (ij_holds_set),
 *      literally, so empty and inverted intervals are judged as the single relations judge them.
 *   Cost O((n + m) log m + c); c is the pairs when the members' boxes adjoin (MEETS | STARTS,
 *   the non-strict relations, neighbours in Allen's lattice), more when they lie apart or a
 *   member's box is open along the sorted endpoint (INTERSECTS bounds rs only from above, so
 *   its box holds every right row that starts before le).
 *   Before scanning, the candidates c are counted (two binary searches per left row); when they
 *   exceed SET_SCAN_LIMIT times (n + m) the box scan declines, and the caller runs the members
 *   one by one instead (set_join's contract below), which is output-sensitive for every set.
 */
#include "exec/ijoin_int.h"

#include <stdlib.h>
#include <string.h>

bool ij_member_box(IjRelation r, int64_t ls, int64_t le, int64_t b[4]) {
    int64_t xlo = INT64_MIN, xhi = INT64_MAX, ylo = INT64_MIN, yhi = INT64_MAX;
    bool ok = true;
    switch (r) {
    case IJ_INTERSECTS: ok = below(le, &xhi) && above(ls, &ylo); break;       /* rs < le, re > ls */
    case IJ_PRECEDES: ok = above(le, &xlo); break;                            /* rs > le */
    case IJ_PRECEDED_BY: ok = below(ls, &yhi); break;                         /* re < ls */
    case IJ_MEETS: xlo = xhi = le; break;                                     /* rs = le */
    case IJ_MET_BY: ylo = yhi = ls; break;                                    /* re = ls */
    case IJ_OVERLAPS: ok = above(ls, &xlo) && below(le, &xhi) && above(le, &ylo); break;
    case IJ_OVERLAPPED_BY: ok = below(ls, &xhi) && above(ls, &ylo) && below(le, &yhi); break;
    case IJ_STARTS: xlo = xhi = ls; ok = above(le, &ylo); break;
    case IJ_STARTED_BY: xlo = xhi = ls; ok = below(le, &yhi); break;
    case IJ_DURING: ok = below(ls, &xhi) && above(le, &ylo); break;
    case IJ_CONTAINS: ok = above(ls, &xlo) && below(le, &yhi); break;
    case IJ_FINISHES: ylo = yhi = le; ok = below(ls, &xhi); break;
    case IJ_FINISHED_BY: ylo = yhi = le; ok = above(ls, &xlo); break;
    case IJ_EQUALS: xlo = xhi = ls; ylo = yhi = le; break;
    case IJ_COVERS: xlo = ls; yhi = le; break;
    case IJ_COVERED_BY: xhi = ls; ylo = le; break;
    case IJ_N_RELATIONS: ok = false; break;
    }
    b[0] = xlo, b[1] = xhi, b[2] = ylo, b[3] = yhi;
    return ok && xlo <= xhi && ylo <= yhi;
}

/* The set's box for left row (ls, le); false when no member can hold. */
static bool set_box(IjRelSet set, int64_t ls, int64_t le, int64_t b[4]) {
    bool any = false;
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        int64_t m[4];
        if (!(set >> r & 1) || !ij_member_box((IjRelation)r, ls, le, m)) continue;
        if (!any) {
            memcpy(b, m, sizeof m);
            any = true;
            continue;
        }
        if (m[0] < b[0]) b[0] = m[0];
        if (m[1] > b[1]) b[1] = m[1];
        if (m[2] < b[2]) b[2] = m[2];
        if (m[3] > b[3]) b[3] = m[3];
    }
    return any;
}

/* The box scan's budget: candidates per input row beyond which the members run one by one. */
enum { SET_SCAN_LIMIT = 4 };

int set_join(IjRelSet set, const Sub *L, const Sub *R, Out *o, bool force) {
    size_t n = L->n, m = R->n;
    bool by_end = (set & IJ_SET_OF(IJ_PRECEDED_BY)) && !(set & IJ_SET_OF(IJ_PRECEDES));
    const int64_t *P = by_end ? R->e : R->s, *Q = by_end ? R->s : R->e;
    uint32_t *ids = xmalloc(m ? m : 1, sizeof *ids);
    int64_t *K = xmalloc(m ? m : 1, sizeof *K);
    int rc = -1;
    if (!ids || !K || sort_ids(P, NULL, m, ids, K, NULL) != 0) {
        oom(o->err);
        goto done;
    }
    /* Count the candidates first: a box open along P would make the scan quadratic. */
    size_t cand = 0, budget = SET_SCAN_LIMIT * (n + m);
    for (size_t i = 0; i < n && cand <= budget && !force; i++) {
        int64_t b[4] = {0};
        if (!set_box(set, L->s[i], L->e[i], b)) continue;
        int64_t plo = by_end ? b[2] : b[0], phi = by_end ? b[3] : b[1];
        size_t lo = lower_bound(K, 0, m, plo);
        size_t hi = phi == INT64_MAX ? m : lower_bound(K, lo, m, phi + 1);
        cand += hi - lo;
    }
    if (cand > budget) {
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t ls = L->s[i], le = L->e[i], b[4] = {0};
        if (!set_box(set, ls, le, b)) continue;
        int64_t plo = by_end ? b[2] : b[0], phi = by_end ? b[3] : b[1];
        int64_t qlo = by_end ? b[0] : b[2], qhi = by_end ? b[1] : b[3];
        uint32_t gl = gid_of(L, i);
        bool open = false;
        for (size_t t = lower_bound(K, 0, m, plo); t < m && K[t] <= phi; t++) {
            uint32_t j = ids[t];
            if (Q[j] < qlo || Q[j] > qhi || !ij_holds_set(set, ls, le, R->s[j], R->e[j])) continue;
            if (!open) {
                run_open(o, gl);
                open = true;
            }
            if (run_push(o, gid_of(R, j)) != 0) goto done;
        }
        if (open) run_close(o, gl);
    }
    rc = 0;
done:
    xfree(ids);
    xfree(K);
    return rc;
}
