/*
 * test_iset.c - the interval-set kernels (src/exec/iset.h) against a brute-force oracle.
 *
 * Intervals lie on a small line of integer points, so the oracle can decide every question
 * point by point: [s, e) holds the points s <= x < e (none when s >= e). Thousands of random
 * cases mix several partitions, duplicates, equal and touching endpoints, empty and inverted
 * intervals and left rows without a partition; every kernel's output must equal the oracle's,
 * entry for entry and in the documented order. Finally, deliberately broken outputs (an end
 * moved by one, a piece dropped, two pieces swapped, touching packs left apart) must each be
 * caught by the same comparison, so that it is known to be able to fail.
 */
#include <stdlib.h>

#include "check.h"
#include "exec/iset.h"

#define D 40          /* points 0..D-1; endpoints 0..D */
#define MAXN 24
#define MAXP 4

static uint64_t rng = 88172645463325252ULL;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

typedef struct {
    size_t n;
    uint32_t part[MAXN];
    int64_t s[MAXN], e[MAXN];
} Side;

static void gen_side(Side *x, uint32_t n_parts, bool none_ok) {
    x->n = rnd(MAXN + 1);
    for (size_t i = 0; i < x->n; i++) {
        x->part[i] = none_ok && rnd(8) == 0 ? ROW_NONE : rnd(n_parts);
        switch (rnd(10)) {
        case 0: /* a duplicate of an earlier row */
            if (i > 0) {
                size_t j = rnd((uint32_t)i);
                x->s[i] = x->s[j], x->e[i] = x->e[j];
                break;
            }
            /* fall through */
        case 1: /* empty */
            x->s[i] = x->e[i] = rnd(D + 1);
            break;
        case 2: /* inverted */
            x->e[i] = rnd(D);
            x->s[i] = x->e[i] + 1 + rnd(D - (uint32_t)x->e[i]);
            break;
        case 3: /* touching an earlier row */
            if (i > 0) {
                size_t j = rnd((uint32_t)i);
                x->s[i] = x->e[j];
                x->e[i] = x->s[i] + 1 + rnd(4);
                if (x->e[i] > D) x->e[i] = D;
                break;
            }
            /* fall through */
        default: {
            int64_t a = rnd(D + 1), len = 1 + rnd(8);
            x->s[i] = a;
            x->e[i] = a + len > D ? D : a + len;
        }
        }
    }
}

/* cov[p][x]: some interval of partition p holds x */
static void coverage(const Side *x, uint32_t n_parts, bool cov[MAXP][D]) {
    memset(cov, 0, sizeof(bool) * MAXP * D);
    for (size_t i = 0; i < x->n; i++)
        if (x->part[i] != ROW_NONE && x->part[i] < n_parts)
            for (int64_t p = x->s[i]; p < x->e[i]; p++) cov[x->part[i]][p] = true;
}

/* Appends the maximal runs of pts[lo..hi) that are set as intervals of part/row. */
static void runs(const bool *pts, int64_t lo, int64_t hi, uint32_t part, uint32_t row, IsetList *out) {
    for (int64_t x = lo; x < hi;) {
        if (!pts[x]) {
            x++;
            continue;
        }
        int64_t a = x;
        while (x < hi && pts[x]) x++;
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 16;
            out->v = realloc(out->v, out->cap * sizeof *out->v);
        }
        out->v[out->n++] = (IsetIv){a, x, part, row};
    }
}

/* 0 when a and b hold the same intervals in the same order (rows compared when want_row). */
static int differ(const IsetList *a, const IsetList *b, bool want_row) {
    if (a->n != b->n) return 1;
    for (size_t i = 0; i < a->n; i++) {
        const IsetIv *x = &a->v[i], *y = &b->v[i];
        if (x->s != y->s || x->e != y->e || x->part != y->part || (want_row && x->row != y->row)) return 1;
    }
    return 0;
}

static void oracle_pack(const Side *x, uint32_t n_parts, IsetList *out) {
    bool cov[MAXP][D];
    coverage(x, n_parts, cov);
    for (uint32_t p = 0; p < n_parts; p++) runs(cov[p], 0, D, p, 0, out);
}

static void oracle_gaps(const Side *x, uint32_t n_parts, bool has_range, int64_t lo, int64_t hi, IsetList *out) {
    bool cov[MAXP][D];
    coverage(x, n_parts, cov);
    for (uint32_t p = 0; p < n_parts; p++) {
        bool free_[D];
        int64_t first = D, last = -1;
        for (int64_t q = 0; q < D; q++) {
            free_[q] = !cov[p][q];
            if (cov[p][q]) {
                if (first == D) first = q;
                last = q;
            }
        }
        if (has_range) runs(free_, lo < 0 ? 0 : lo, hi > D ? D : hi, p, ROW_NONE, out);
        else if (last >= 0) runs(free_, first, last + 1, p, ROW_NONE, out);
    }
}

static void oracle_minus(const Side *l, const Side *r, uint32_t n_parts, bool intersect, IsetList *out) {
    bool cov[MAXP][D];
    coverage(r, n_parts, cov);
    for (size_t i = 0; i < l->n; i++) {
        bool pts[D] = {0};
        for (int64_t q = l->s[i]; q < l->e[i]; q++) {
            bool c = l->part[i] != ROW_NONE && cov[l->part[i]][q];
            pts[q] = intersect ? c : !c;
        }
        runs(pts, 0, D, l->part[i], (uint32_t)i, out);
    }
}

static void oracle_normalize(const Side *l, const Side *r, uint32_t n_parts, IsetList *out) {
    for (size_t i = 0; i < l->n; i++) {
        if (l->s[i] >= l->e[i]) continue;
        bool cut[D + 1] = {0};
        for (size_t j = 0; j < r->n; j++)
            if (l->part[i] != ROW_NONE && r->part[j] == l->part[i] && r->part[j] < n_parts && r->s[j] < r->e[j])
                cut[r->s[j]] = cut[r->e[j]] = true;
        int64_t a = l->s[i];
        for (int64_t q = l->s[i] + 1; q <= l->e[i]; q++)
            if (q == l->e[i] || cut[q]) {
                if (out->n == out->cap) {
                    out->cap = out->cap ? out->cap * 2 : 16;
                    out->v = realloc(out->v, out->cap * sizeof *out->v);
                }
                out->v[out->n++] = (IsetIv){a, q, l->part[i], (uint32_t)i};
                a = q;
            }
    }
}

/* *out = x's rows sorted by (part, s, e) (insertion sort: stable), without the rows that hold
 * no point when valid_only. */
static void sorted_side(const Side *x, Side *out, bool valid_only) {
    out->n = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (valid_only && x->s[i] >= x->e[i]) continue;
        size_t j = out->n++;
        while (j > 0 && (out->part[j - 1] != x->part[i] ? out->part[j - 1] > x->part[i]
                         : out->s[j - 1] != x->s[i] ? out->s[j - 1] > x->s[i] : out->e[j - 1] > x->e[i])) {
            out->part[j] = out->part[j - 1], out->s[j] = out->s[j - 1], out->e[j] = out->e[j - 1];
            j--;
        }
        out->part[j] = x->part[i], out->s[j] = x->s[i], out->e[j] = x->e[i];
    }
}

/* PACK's side outputs: order lists every row holding a point once, sorted by (part, s, e,
 * row) (NULL: every row, in row order), and pack_of[k] is the pack that holds row order[k]'s
 * interval. 0 when they are right. */
static int check_pack_rows(const Side *x, const IsetList *packs, const uint32_t *order, const uint32_t *pack_of,
                           size_t n_order) {
    size_t valid = 0;
    for (size_t i = 0; i < x->n; i++) valid += x->s[i] < x->e[i];
    if (valid != n_order) return 1;
    if (!order && n_order != x->n) return 1;
    for (size_t k = 0; k < n_order; k++) {
        uint32_t i = order ? order[k] : (uint32_t)k;
        if (i >= x->n || pack_of[k] >= packs->n) return 1;
        const IsetIv *pk = &packs->v[pack_of[k]];
        if (pk->part != x->part[i] || x->s[i] < pk->s || x->e[i] > pk->e) return 1;
        if (k > 0) {
            uint32_t j = order ? order[k - 1] : (uint32_t)(k - 1);
            int c = x->part[j] != x->part[i] ? (x->part[j] < x->part[i] ? -1 : 1)
                  : x->s[j] != x->s[i] ? (x->s[j] < x->s[i] ? -1 : 1)
                  : x->e[j] != x->e[i] ? (x->e[j] < x->e[i] ? -1 : 1)
                  : (j < i ? -1 : 1);
            if (c > 0) return 1;
        }
    }
    return 0;
}

/* iset_minus's pieces in column form as a list (each piece's partition is its left row's),
 * for differ; frees c. */
static IsetList cols_list(IsetCols *c, const uint32_t *lpart) {
    IsetList l = {rx_malloc((c->n + 1) * sizeof *l.v), c->n, c->n + 1};
    for (size_t k = 0; k < c->n; k++) l.v[k] = (IsetIv){c->s[k], c->e[k], lpart[c->row[k]], c->row[k]};
    iset_cols_free(c);
    return l;
}

/* Packs or gaps in column form as a list, c kept: a pack's partition is its row's (part), a
 * gap's is its .row (part NULL; row then ROW_NONE). */
static IsetList as_list(const IsetCols *c, const uint32_t *part) {
    IsetList l = {rx_malloc((c->n + 1) * sizeof *l.v), c->n, c->n + 1};
    for (size_t k = 0; k < c->n; k++)
        l.v[k] = (IsetIv){c->s[k], c->e[k], part ? part[c->row[k]] : c->row[k], part ? c->row[k] : ROW_NONE};
    return l;
}

/* PACK's counts and pack rows: count[k] is the number of rows order lists in pack k, and
 * pack k's row is the first of them. 0 when right. */
static int check_pack_counts(const IsetCols *packs, const int64_t *count, const uint32_t *order,
                             const uint32_t *pack_of, size_t n_order) {
    int64_t seen[MAXN + 1] = {0};
    if (packs->n > MAXN) return 1;
    for (size_t k = 0; k < n_order; k++) {
        uint32_t i = order ? order[k] : (uint32_t)k;
        if (seen[pack_of[k]]++ == 0 && packs->row[pack_of[k]] != i) return 1;
    }
    for (size_t k = 0; k < packs->n; k++)
        if (seen[k] != count[k] || count[k] < 1) return 1;
    return 0;
}

/* The same comparison must notice each of these faults in a non-empty result. */
static void check_broken(const IsetList *good, bool want_row, int *caught, int *tried) {
    if (good->n == 0) return;
    IsetList bad = {malloc((good->n + 1) * sizeof *good->v), good->n, good->n + 1};
    for (int fault = 0; fault < 4; fault++) {
        memcpy(bad.v, good->v, good->n * sizeof *good->v);
        bad.n = good->n;
        size_t i = rnd((uint32_t)good->n);
        switch (fault) {
        case 0: bad.v[i].e += 1; break;                    /* an end one off */
        case 1:                                             /* a piece lost */
            memmove(&bad.v[i], &bad.v[i + 1], (bad.n - i - 1) * sizeof *bad.v);
            bad.n--;
            break;
        case 2:                                             /* two neighbours swapped */
            if (good->n < 2 || (good->v[0].s == good->v[1].s && good->v[0].e == good->v[1].e &&
                                good->v[0].part == good->v[1].part && good->v[0].row == good->v[1].row))
                continue;
            bad.v[0] = good->v[1], bad.v[1] = good->v[0];
            break;
        case 3: bad.v[i].s -= 1; break;                    /* a start one off */
        }
        (*tried)++;
        *caught += differ(good, &bad, want_row);
    }
    free(bad.v);
}

int main(void) {
    int diffs[6] = {0}, cases = 0, caught = 0, tried = 0;
    for (int round = 0; round < 4000; round++) {
        uint32_t n_parts = 1 + rnd(MAXP);
        Side a, b;
        gen_side(&a, n_parts, false);
        gen_side(&b, n_parts, true);
        Side bb = b;   /* B's rows all have a partition for the unary kernels */
        for (size_t i = 0; i < bb.n; i++)
            if (bb.part[i] == ROW_NONE) bb.part[i] = 0;
        cases++;

        /* A as generated, sorted by (part, s, e) (the kernels sweep it in place), and sorted
         * without the rows that hold no point (PACK's order is then the row order: NULL) */
        Side as, av;
        sorted_side(&a, &as, false);
        sorted_side(&a, &av, true);
        const Side *forms[3] = {&a, &as, &av};
        for (int f = 0; f < 3; f++) {
            const Side *A = forms[f];
            IsetList want = {0};
            IsetCols pc = {0};
            uint32_t *order = NULL, *pack_of = NULL;
            int64_t *count = NULL;
            size_t n_order = 0;
            CHECK(iset_pack(A->part, A->s, A->e, A->n, &pc, &count, &order, &pack_of, &n_order) == 0);
            IsetList packs = as_list(&pc, A->part);
            oracle_pack(A, n_parts, &want);
            diffs[0] += differ(&packs, &want, false);
            diffs[0] += check_pack_rows(A, &packs, order, pack_of, n_order);
            diffs[0] += check_pack_counts(&pc, count, order, pack_of, n_order);
            rx_free(count);
            if (f == 2) diffs[0] += order != NULL;
            check_broken(&want, false, &caught, &tried);
            free(want.v);
            want = (IsetList){0};

            /* GAPS, without and with a range (which may be empty, or reach past the intervals) */
            for (int ranged = 0; ranged < 2; ranged++) {
                int64_t lo = rnd(D + 1), hi = rnd(D + 1);   /* hi <= lo: an empty range */
                IsetCols gc = {0};
                CHECK(iset_gaps(&pc, A->part, n_parts, ranged, lo, hi, &gc) == 0);
                IsetList got = as_list(&gc, NULL);
                iset_cols_free(&gc);
                oracle_gaps(A, n_parts, ranged, lo, hi, &want);
                diffs[1] += differ(&got, &want, false);
                check_broken(&want, false, &caught, &tried);
                iset_list_free(&got);
                free(want.v);
                want = (IsetList){0};
            }
            iset_list_free(&packs);
            iset_cols_free(&pc);
            free(order);
            free(pack_of);

            /* IMINUS and IINTERSECT, with the left rows as generated (a search per row) and
             * sorted by (part, s, e) (one merge sweep) */
            Side bs;
            sorted_side(&b, &bs, false);
            for (int in = 0; in < 4; in++) {
                Side l = in < 2 ? b : bs;   /* left rows may lack a partition */
                IsetCols gc = {0};
                CHECK(iset_minus(l.part, l.s, l.e, l.n, A->part, A->s, A->e, A->n, n_parts, in & 1, &gc) == 0);
                IsetList got = cols_list(&gc, l.part);
                oracle_minus(&l, A, n_parts, in & 1, &want);
                diffs[2 + (in & 1)] += differ(&got, &want, true);
                check_broken(&want, true, &caught, &tried);
                iset_list_free(&got);
                free(want.v);
                want = (IsetList){0};
            }
        }
        IsetList want = {0};

        /* NORMALIZE: by another side, and by itself (the unary form) */
        for (int self = 0; self < 2; self++) {
            const Side *l = self ? &bb : &b, *r = self ? &bb : &a;
            IsetList got = {0};
            CHECK(iset_normalize(l->part, l->s, l->e, l->n, r->part, r->s, r->e, r->n, n_parts, &got) == 0);
            oracle_normalize(l, r, n_parts, &want);
            diffs[4 + self] += differ(&got, &want, true);
            check_broken(&want, true, &caught, &tried);
            iset_list_free(&got);
            free(want.v);
            want = (IsetList){0};
        }
    }
    printf("iset: %d random cases; differences: pack %d, gaps %d, minus %d, intersect %d, normalize %d, "
           "normalize self %d; broken outputs caught %d of %d\n",
           cases, diffs[0], diffs[1], diffs[2], diffs[3], diffs[4], diffs[5], caught, tried);
    for (int k = 0; k < 6; k++) CHECK(diffs[k] == 0);
    CHECK(tried > 1000);
    CHECK(caught == tried);

    /* IMINUS and IINTERSECT at scale: a left side of many rows, sorted as files usually are,
     * with runs out of order and rows of other partitions between them, swept against many
     * right packs, must give for every row the pieces that a call for that row alone gives
     * (a search of its own), so that the sweep's cursor over the right side is checked over
     * long distances too */
    int scale_diffs = 0;
    for (int round = 0; round < 30; round++) {
        size_t nl = 1000 + rnd(2000), nr = 500 + rnd(2000);
        uint32_t np = 1 + rnd(5);
        int64_t span = 1000 + rnd(100000);
        uint32_t *lp = malloc(nl * sizeof *lp), *rp = malloc(nr * sizeof *rp);
        int64_t *ls = malloc(nl * sizeof *ls), *le = malloc(nl * sizeof *le);
        int64_t *rs = malloc(nr * sizeof *rs), *re = malloc(nr * sizeof *re);
        for (size_t i = 0; i < nr; i++) {
            rp[i] = rnd(8) == 0 ? ROW_NONE : rnd(np);
            rs[i] = rnd((uint32_t)span);
            re[i] = rs[i] + rnd(1 + (uint32_t)(span / 200));   /* zero-length too */
        }
        /* left: ascending starts per partition, partitions in order, with disorder mixed in */
        uint32_t p = 0;
        int64_t at = 0;
        for (size_t i = 0; i < nl; i++) {
            if (rnd(500) == 0 && p + 1 < np) p++, at = 0;
            at += rnd(1 + (uint32_t)(span / 1000));
            lp[i] = p, ls[i] = at, le[i] = at + rnd(1 + (uint32_t)(span / 100));
            switch (rnd(50)) {
            case 0: ls[i] = rnd((uint32_t)span); le[i] = ls[i] + rnd(50); break;   /* back in time */
            case 1: lp[i] = rnd(np); break;                                         /* another key */
            case 2: lp[i] = ROW_NONE; break;                                        /* no key */
            case 3: le[i] = ls[i]; break;                                           /* empty */
            case 4: if (i > 0) ls[i] = ls[i - 1], le[i] = le[i - 1]; break;         /* duplicate */
            }
        }
        /* the per-row calls read the right side sorted (the same union, swept in place) */
        int64_t *rs2 = malloc(nr * sizeof *rs2), *re2 = malloc(nr * sizeof *re2);
        uint32_t *rp2 = malloc(nr * sizeof *rp2);
        size_t n2 = 0;
        for (uint32_t q = 0; q < np; q++)
            for (size_t i = 0; i < nr; i++)
                if (rp[i] == q) rp2[n2] = q, rs2[n2] = rs[i], re2[n2++] = re[i];
        for (size_t i = 1; i < n2; i++)   /* insertion sort by (s, e) within each partition */
            for (size_t j = i; j > 0 && rp2[j - 1] == rp2[j] &&
                               (rs2[j - 1] > rs2[j] || (rs2[j - 1] == rs2[j] && re2[j - 1] > re2[j])); j--) {
                int64_t t1 = rs2[j], t2 = re2[j];
                rs2[j] = rs2[j - 1], re2[j] = re2[j - 1], rs2[j - 1] = t1, re2[j - 1] = t2;
            }
        for (int in = 0; in < 2; in++) {
            IsetList want = {0};
            IsetCols gc = {0};
            CHECK(iset_minus(lp, ls, le, nl, rp, rs, re, nr, np, in, &gc) == 0);
            IsetList got = cols_list(&gc, lp);
            for (size_t i = 0; i < nl; i++) {
                IsetCols oc = {0};
                CHECK(iset_minus(&lp[i], &ls[i], &le[i], 1, rp2, rs2, re2, n2, np, in, &oc) == 0);
                IsetList one = cols_list(&oc, &lp[i]);
                for (size_t k = 0; k < one.n; k++) {
                    if (want.n == want.cap) {
                        want.cap = want.cap ? want.cap * 2 : 64;
                        want.v = realloc(want.v, want.cap * sizeof *want.v);
                    }
                    want.v[want.n] = one.v[k];
                    want.v[want.n++].row = (uint32_t)i;
                }
                iset_list_free(&one);
            }
            scale_diffs += differ(&got, &want, true);
            if (round == 0) check_broken(&want, true, &caught, &tried);
            iset_list_free(&got);
            free(want.v);
        }
        free(lp), free(rp), free(ls), free(le), free(rs), free(re), free(rp2), free(rs2), free(re2);
    }
    printf("iset: 30 sorted sweeps at scale; differences %d\n", scale_diffs);
    CHECK(scale_diffs == 0);
    CHECK(caught == tried);

    /* a broken PACK that merges overlapping intervals only, not touching ones ([1,3) and
     * [3,5) stay apart), must differ from the oracle */
    Side t = {2, {0, 0}, {1, 3}, {3, 5}};
    IsetList want = {0};
    IsetCols tc = {0};
    CHECK(iset_pack(t.part, t.s, t.e, t.n, &tc, NULL, NULL, NULL, NULL) == 0);
    IsetList got = as_list(&tc, t.part);
    iset_cols_free(&tc);
    oracle_pack(&t, 1, &want);
    CHECK(got.n == 1 && got.v[0].s == 1 && got.v[0].e == 5);
    IsetList apart = {(IsetIv[]){{1, 3, 0, 0}, {3, 5, 0, 1}}, 2, 2};
    CHECK(differ(&apart, &want, false) == 1);
    CHECK(differ(&got, &want, false) == 0);
    iset_list_free(&got);
    free(want.v);
    return check_report("iset");
}
