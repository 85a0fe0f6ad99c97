/*
 * asof.c - the AS-OF join kernel of exec/asof.h: for each left (probe) row, the nearest right row
 * by match value within the probe's partition, in one of four directions, with the tie rule and
 * the WITHIN bound of spec/asof-join.md. The executor (exec/exec.c) maps the columns to int64
 * keys and dense partition ids and gathers the output from the match vector.
 *
 * Algorithm (docs/asof.md has the costs and the reasoning):
 *
 *   1. Scan each side once (O(n)): per partition the count, min and max of the valid rows,
 *      whether the values arrive non-decreasing, and whether the valid rows of each partition
 *      form one contiguous run. A side that is grouped by partition and non-decreasing within
 *      each group is "sorted" (AsofStats): no sort runs for it. If it has no invalid rows as
 *      well it is "direct": the kernel reads its partitions in place.
 *   2. Otherwise scatter the side by partition (a stable counting sort, O(n)), writing one
 *      64-bit key per row: (val - min_p) << b_p | local index, b_p = bits of (count_p - 1),
 *      whenever the range and the index fit in 64 bits ("packed"); else val - min_p alone.
 *      The right side also records each key's input row. (Optimisations: the cursors are a
 *      compact per-partition array that stays in L1, and the big arrays are asked for in
 *      transparent huge pages, which cuts the first-touch faults and the TLB misses of the
 *      1000 write streams.)
 *   3. For each partition with probes and candidates (two threads take contiguous halves of the
 *      partitions, balanced by rows; each partition's answer is independent, so the result
 *      does not depend on the split):
 *      a. Right: if its values did not arrive sorted, sort the partition's keys on the bits
 *         of (val - min) only: one counting pass on the top ~log2(k) bits, then a single
 *         insertion pass over the whole array when no bucket holds more than 48 keys (else
 *         each bucket on its own, a crowded one by LSD radix, digits of up to 11 bits,
 *         constant digits skipped). Stable, so rows with equal values stay in input order.
 *         Unpack the values and the rows.
 *      b. Left: BINARY_SEARCH answers each probe in scatter order. With at least a quarter as
 *         many probes as candidates it first builds a bucket index over the partition's value
 *         range (2^d <= k buckets, idx[b] = first candidate in bucket b or later), so a probe
 *         is one index load and up to four independent compares (a binary search in a bucket
 *         of more than four), branch-free for the two rules answered by the candidate itself;
 *         else a branch-free binary search. MERGE sorts the probes the same way (unless they
 *         arrived sorted) and answers the partition in one merge pass whose cursor gallops
 *         (exponential then binary search), so a few probes against many candidates cost
 *         O(k log(m/k)), not O(m). AUTO picks MERGE when the probes arrived sorted, else by a
 *         cost estimate per partition (the index probe, or probes * log2(candidates), against
 *         the radix passes plus the merge).
 *      c. Nearest candidate: b = the first right index not "before" the probe (before is
 *         r <= l for BACKWARD and FORWARD_STRICT, r < l for the other two); backward takes
 *         b - 1, forward takes b. The candidate's value is shared by a run of equal values;
 *         the stable sort put that run in input order, so TIES(LAST) backward and TIES(FIRST)
 *         forward are the candidate itself, and the other two find the run's other end by
 *         galloping from it (cached while consecutive probes hit the same candidate).
 *         WITHIN rejects the candidate if its distance, computed in uint64 (it is never
 *         negative after the direction test, so no overflow), exceeds the bound; there is no
 *         fallback to another row, as every other qualifying row is farther.
 *   4. A scattered left side wrote its answers by scatter position; one sequential pass over
 *      the left rows replays the counting sort's cursors to put them in row order.
 *
 * Cost: O(n + m) for the scans, the scatters and the replay; the radix sorts are O(k * w/11)
 * for w the bits of a partition's value range (at most 6 passes); binary search is O(log m) a
 * probe, O(1) through the bucket index on values spread evenly (O(log m) in a crowded bucket). A sorted side costs one scan. Memory: the scattered keys (8 bytes a row), the right
 * rows and the left answers (4 bytes a row each), and per thread a scratch of the largest
 * partition it sorts (and its bucket index, 4 bytes a candidate at most). NESTED_LOOP is the O(n * m) reference scan, for tests only.
 */
#include "exec/asof.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exec/kernel.h"
#include "exec/radix.h"
#include "types/column.h"

#define INDEX_CACHED (1u << 16)                  /* right rows whose bucket index stays in L2 */

/* ---- per-partition and per-side state -------------------------------------------------------- */

typedef struct {
    uint32_t cnt;      /* valid rows of the partition */
    uint32_t first;    /* first valid row: the partition's range on a direct side */
    uint32_t half;     /* valid rows among rows [0, n/2): the second replay half's offset */
    uint32_t start;    /* offset of the partition in the scattered arrays */
    uint32_t cur;      /* scatter cursor */
    uint8_t unsorted;  /* the values did not arrive non-decreasing */
    uint8_t packed;    /* the key holds (val - min) << shift | index (the row, or local) */
    uint8_t shift;     /* bits of that index when packed, else 0 */
    uint8_t kbits;     /* bits of max - min */
    uint8_t merge;     /* left: answered by the merge pass, else by binary search */
    int64_t min, max;
} PartInfo;

typedef struct {
    const AsofSide *s;
    bool is_left;
    uint32_t n_parts;   /* 1 when s->part is NULL */
    PartInfo *pi;
    size_t n_valid;
    bool any_invalid;
    bool sorted;        /* grouped by partition, non-decreasing within each */
    bool direct;        /* sorted and no invalid rows: partitions are read in place */
    bool rowkey;        /* every key packs the input row: no row array, no replay */
    bool failed;        /* an allocation failed */
    uint64_t *key;      /* scattered keys (n_valid), NULL when direct */
    uint32_t *row;      /* right: the input row of each scattered key */
    uint32_t *res;      /* left: the answer of each scattered position (may be the output) */
    uint32_t *match;    /* left: the caller's output */
} SideState;

typedef struct {
    bool upper;         /* "before" is r <= l (else r < l) */
    bool backward;
    bool ties_first;
    bool has_within;
    uint64_t within;
} Rule;

typedef struct {
    SideState l, r;
    Rule ru;
    AsofAlgo algo;
    uint32_t n_parts;
    uint32_t *match;
} Job;

/* One right partition, sorted: values v[0..k), rows row[j] (or base + j when row is NULL). */
typedef struct {
    const int64_t *v;
    const uint32_t *row;
    uint32_t base;
    size_t k;
} RPart;

typedef struct {
    const Job *J;
    uint32_t p0, p1;     /* partitions [p0, p1) */
    uint64_t *tmp;       /* radix ping-pong buffer */
    uint32_t *rrow;      /* right rows of a radix-sorted packed partition */
    uint32_t *lpos;      /* local positions of sorted probes */
    uint32_t *ptmp;      /* payload ping-pong buffer of unpacked keys */
    uint32_t *hist;      /* RADIX_HIST_SIZE counters, then 2^MSD_MAX_BITS */
    uint32_t *ix;        /* bucket index of the partition answered by binary search */
    size_t merge_probes, bs_probes;
} Worker;

static inline unsigned bitlen(uint64_t x) { return x ? 64u - (unsigned)__builtin_clzll(x) : 0u; }

/* The int64 with the bit pattern of u (two's complement), without implementation-defined
 * conversion. */
static inline int64_t to_i64(uint64_t u) {
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

static inline bool row_ok(const AsofSide *s, uint32_t n_parts, size_t i, uint32_t *p) {
    if (s->valid && !((s->valid[i >> 6] >> (i & 63)) & 1)) return false;
    uint32_t q = s->part ? s->part[i] : 0;
    if (q >= n_parts) return false;
    *p = q;
    return true;
}

/* ---- step 1 and 2: scan and scatter a side ------------------------------------------------------ */

/* What scanning rows [i0, i1) into a PartInfo array saw besides the per-partition figures. */
typedef struct {
    size_t runs;          /* runs of equal partition ids among the valid rows */
    uint32_t firstp;      /* partition of the first and of the last valid row, or UINT32_MAX */
    uint32_t lastp;
    bool any_invalid;
} ScanRun;

/* Step 1 over rows [i0, i1), accumulating into pi (which may hold earlier rows already). */
static void scan_rows(const SideState *S, PartInfo *pi, size_t i0, size_t i1, ScanRun *o) {
    const AsofSide side = *S->s, *s = &side; /* a local copy: stores cannot alias it */
    uint32_t n_parts = S->n_parts, prev = UINT32_MAX, firstp = UINT32_MAX;
    size_t runs = 0;
    bool any_invalid = false;
    for (size_t i = i0; i < i1; i++) {
        uint32_t p;
        if (!row_ok(s, n_parts, i, &p)) {
            any_invalid = true;
            continue;
        }
        int64_t v = s->val[i];
        PartInfo *c = &pi[p];
        if (c->cnt == 0) {
            c->first = (uint32_t)i;
            c->min = c->max = v;
        } else {
            if (v < c->max) c->unsorted = 1;
            else c->max = v;
            if (v < c->min) c->min = v;
        }
        c->cnt++;
        if (firstp == UINT32_MAX) firstp = p;
        runs += p != prev;
        prev = p;
    }
    o->runs = runs;
    o->firstp = firstp;
    o->lastp = prev;
    o->any_invalid = any_invalid;
}

/* The runs of rows [0, n) from those of two consecutive ranges a, b. */
static size_t join_runs(const ScanRun *a, const ScanRun *b) {
    return a->runs + b->runs - (a->lastp != UINT32_MAX && a->lastp == b->firstp);
}

/* Step 1 done: offsets, key layouts and the side's flags from the per-partition figures. */
static void finish_scan(SideState *S, size_t runs) {
    size_t n = S->s->n, nonempty = 0, off = 0;
    bool unsorted = false;
    unsigned kmax = 0, rb = bitlen(n ? n - 1 : 0);
    for (uint32_t p = 0; p < S->n_parts; p++) {
        PartInfo *c = &S->pi[p];
        if (!c->cnt) continue;
        nonempty++;
        unsorted |= c->unsorted;
        c->start = c->cur = (uint32_t)off;
        off += c->cnt;
        c->kbits = (uint8_t)bitlen((uint64_t)c->max - (uint64_t)c->min);
        if (c->kbits > kmax) kmax = c->kbits;
    }
    S->rowkey = kmax + rb <= 64;
    for (uint32_t p = 0; p < S->n_parts; p++) {
        PartInfo *c = &S->pi[p];
        if (!c->cnt) continue;
        unsigned ib = S->rowkey ? rb : bitlen(c->cnt - 1u);
        c->packed = c->kbits + ib <= 64;
        c->shift = c->packed ? (uint8_t)ib : 0;
    }
    S->n_valid = off;
    S->sorted = runs == nonempty && !unsorted;
    S->direct = S->sorted && !S->any_invalid;
}

/* Step 1 on one thread: the two halves of the rows in turn, recording each partition's count
 * in the first half (the second replay half's offset). */
static void scan_side(SideState *S) {
    size_t n = S->s->n, h = n / 2;
    ScanRun a, b;
    scan_rows(S, S->pi, 0, h, &a);
    for (uint32_t p = 0; p < S->n_parts; p++) S->pi[p].half = S->pi[p].cnt;
    scan_rows(S, S->pi, h, n, &b);
    S->any_invalid = a.any_invalid || b.any_invalid;
    finish_scan(S, join_runs(&a, &b));
}

/* A scatter cursor: compact, so that the cursors of a 1000-way scatter stay in L1 (an
 * optimisation; PartInfo is three times the size). */
typedef struct {
    uint64_t min;
    uint32_t cur, start;
    uint8_t shift, packed;
} Slot;

/* The scattered arrays of step 2. Returns false on OOM (S->failed set). */
static bool alloc_scatter(SideState *S) {
    const AsofSide *s = S->s;
    size_t nv = S->n_valid;
    S->key = xmalloc_whole(nv, sizeof *S->key);
    if (S->rowkey) S->res = S->match;
    else if (!S->is_left) S->row = xmalloc_whole(nv, sizeof *S->row);
    else if (!s->part && !S->any_invalid) S->res = S->match; /* scatter order is row order */
    else S->res = xmalloc_whole(nv, sizeof *S->res);
    if (!S->key || (!S->is_left && !S->rowkey && !S->row) || (S->is_left && !S->res)) {
        S->failed = true;
        return false;
    }
    return true;
}

/* Cursors for scattering rows [0, n/2) (or, second_half, rows [n/2, n)) of each partition. */
static void init_slots(const SideState *S, Slot *sl, bool second_half) {
    for (uint32_t p = 0; p < S->n_parts; p++) {
        const PartInfo *c = &S->pi[p];
        sl[p].min = (uint64_t)c->min;
        sl[p].start = c->start;
        sl[p].cur = c->start + (second_half ? c->half : 0);
        sl[p].shift = c->shift;
        sl[p].packed = c->packed;
    }
}

/* Step 2 over rows [i0, i1), with the cursors sl. */
static void scatter_rows(const SideState *S, Slot *sl, size_t i0, size_t i1) {
    const AsofSide side = *S->s, *s = &side; /* a local copy: the key stores cannot alias it, so
                                              * its fields stay in registers (an optimisation) */
    uint32_t n_parts = S->n_parts;
    uint64_t *key = S->key;
    if (S->rowkey) { /* every partition packed with the row: one output stream */
        for (size_t i = i0; i < i1; i++) {
            uint32_t p;
            if (!row_ok(s, n_parts, i, &p)) continue;
            Slot *c = &sl[p];
            key[c->cur++] = (((uint64_t)s->val[i] - c->min) << c->shift) | i;
        }
        return;
    }
    uint32_t *row = S->row;
    for (size_t i = i0; i < i1; i++) {
        uint32_t p;
        if (!row_ok(s, n_parts, i, &p)) continue;
        Slot *c = &sl[p];
        uint32_t pos = c->cur++;
        uint64_t local = c->packed ? (uint64_t)(pos - c->start) : 0;
        key[pos] = (((uint64_t)s->val[i] - c->min) << c->shift) | local;
        if (row) row[pos] = (uint32_t)i;
    }
}

static int prepare_side(void *arg) {
    SideState *S = arg;
    scan_side(S);
    if (S->direct || !alloc_scatter(S)) return 0;
    Slot *sl = malloc((size_t)S->n_parts * sizeof *sl);
    if (!sl) {
        S->failed = true;
        return 0;
    }
    init_slots(S, sl, false);
    scatter_rows(S, sl, 0, S->s->n);
    free(sl);
    return 0;
}

/* ---- searching ------------------------------------------------------------------------------- */

static inline bool before(int64_t x, int64_t v, bool upper) { return upper ? x <= v : x < v; }

/* The number of leading elements of sorted a[0..k) that are before v: branch-free. */
static inline size_t bound_bs(const int64_t *a, size_t k, int64_t v, bool upper) {
    if (k == 0) return 0;
    const int64_t *base = a;
    size_t n = k;
    while (n > 1) {
        size_t half = n >> 1;
        base = before(base[half], v, upper) ? base + half : base;
        n -= half;
    }
    return (size_t)(base - a) + before(base[0], v, upper);
}

/* The first index >= b of sorted a[0..k) not before v, given that all of a[0..b) are before v:
 * a few linear steps, then exponential and binary search. */
static inline size_t advance(const int64_t *a, size_t k, size_t b, int64_t v, bool upper) {
    for (int t = 0; t < 4; t++, b++)
        if (b >= k || !before(a[b], v, upper)) return b;
    size_t step = 4, hi;
    for (;;) {
        size_t q = b + step;
        if (q >= k) {
            hi = k;
            break;
        }
        if (!before(a[q], v, upper)) {
            hi = q;
            break;
        }
        b = q + 1;
        step <<= 1;
    }
    return b + bound_bs(a + b, hi - b, v, upper);
}

/* First index of the run of values equal to a[c]. */
static size_t run_start(const int64_t *a, size_t c) {
    int64_t x = a[c];
    if (c == 0 || a[c - 1] != x) return c;
    size_t eq = c - 1, step = 1;
    while (step <= eq && a[eq - step] == x) {
        eq -= step;
        step <<= 1;
    }
    size_t lo = step > eq ? 0 : eq - step + 1;
    return lo + bound_bs(a + lo, eq - lo, x, false);
}

/* Last index of the run of values equal to a[c], in a[0..k). */
static size_t run_end(const int64_t *a, size_t k, size_t c) {
    int64_t x = a[c];
    if (c + 1 >= k || a[c + 1] != x) return c;
    size_t eq = c + 1, step = 1;
    while (eq + step < k && a[eq + step] == x) {
        eq += step;
        step <<= 1;
    }
    size_t hi = eq + step < k ? eq + step : k;
    return eq + bound_bs(a + eq + 1, hi - eq - 1, x, true);
}

static inline uint32_t row_of(const RPart *rp, size_t c) {
    return rp->row ? rp->row[c] : rp->base + (uint32_t)c;
}

/* Step 3c: the answer for probe v given b, the first right index not before v. */
static inline uint32_t resolve(const RPart *rp, size_t b, int64_t v, const Rule *ru,
                               size_t *cache_c, uint32_t *cache_r) {
    size_t c;
    if (ru->backward) {
        if (b == 0) return ROW_NONE;
        c = b - 1;
    } else {
        if (b >= rp->k) return ROW_NONE;
        c = b;
    }
    int64_t x = rp->v[c];
    if (ru->has_within) {
        uint64_t d = ru->backward ? (uint64_t)v - (uint64_t)x : (uint64_t)x - (uint64_t)v;
        if (d > ru->within) return ROW_NONE;
    }
    if (ru->backward == ru->ties_first) { /* the run's other end: backward first, forward last */
        if (c != *cache_c) {
            *cache_c = c;
            *cache_r = row_of(rp, ru->backward ? run_start(rp->v, c) : run_end(rp->v, rp->k, c));
        }
        return *cache_r;
    }
    return row_of(rp, c);
}

static void answer_merge(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out,
                         const RPart *rp, const Rule *ru) {
    size_t b = 0, cc = SIZE_MAX;
    uint32_t cr = ROW_NONE;
    bool upper = ru->upper;
    for (size_t j = 0; j < kl; j++) {
        int64_t v = lv[j];
        b = advance(rp->v, rp->k, b, v, upper);
        out[lpos ? lpos[j] : j] = resolve(rp, b, v, ru, &cc, &cr);
    }
}

/* The merge without branches, for the rules whose answer is the candidate itself (backward
 * TIES(LAST), forward TIES(FIRST)): each step either moves the right cursor or emits the
 * current probe, selected arithmetically, so the cost is kl + kr steps with no mispredicted
 * branch (the branchy merge pays one per probe when the sides interleave). out[probe] is
 * written at every step and final at the step that emits it. */
static inline __attribute__((always_inline)) void
merge_core(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out, const RPart *rp,
           uint64_t lim, const bool backward, const bool upper, const bool has_row,
           const bool has_pos) {
    const int64_t *rv = rp->v;
    const uint32_t *row = rp->row;
    size_t kr = rp->k, i = 0, j = 0;
    uint32_t base = rp->base;
    while (i < kl) {
        int64_t v = lv[i];
        bool in = j < kr;
        size_t jc = in ? j : kr - 1;
        int64_t x = rv[jc];
        bool adv = in & (upper ? x <= v : x < v);
        bool has = backward ? j > 0 : in;
        size_t c = backward ? (j ? j - 1 : 0) : jc;
        int64_t cx = rv[c];
        uint64_t d = backward ? (uint64_t)v - (uint64_t)cx : (uint64_t)cx - (uint64_t)v;
        uint32_t r = has_row ? row[c] : base + (uint32_t)c;
        r = (has & (d <= lim)) ? r : ROW_NONE;
        out[has_pos ? lpos[i] : i] = r;
        j += adv;
        i += !adv;
    }
}

#define MERGE_CASE(bw, up)                                                                     \
    do {                                                                                       \
        if (rp->row) {                                                                         \
            if (lpos) merge_core(lv, lpos, kl, out, rp, lim, bw, up, true, true);              \
            else merge_core(lv, lpos, kl, out, rp, lim, bw, up, true, false);                  \
        } else {                                                                               \
            if (lpos) merge_core(lv, lpos, kl, out, rp, lim, bw, up, false, true);             \
            else merge_core(lv, lpos, kl, out, rp, lim, bw, up, false, false);                 \
        }                                                                                      \
    } while (0)

static void answer_merge_flat(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out,
                              const RPart *rp, const Rule *ru) {
    uint64_t lim = ru->has_within ? ru->within : UINT64_MAX;
    if (ru->backward) {
        if (ru->upper) MERGE_CASE(true, true);
        else MERGE_CASE(true, false);
    } else {
        if (ru->upper) MERGE_CASE(false, true);
        else MERGE_CASE(false, false);
    }
}

static void answer_bs(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out,
                      const RPart *rp, const Rule *ru) {
    size_t cc = SIZE_MAX;
    uint32_t cr = ROW_NONE;
    bool upper = ru->upper;
    for (size_t j = 0; j < kl; j++) {
        int64_t v = lv[j];
        out[lpos ? lpos[j] : j] = resolve(rp, bound_bs(rp->v, rp->k, v, upper), v, ru, &cc, &cr);
    }
}

/* The bucket index of a sorted right partition (an optimisation of the binary search):
 * 2^d buckets over [min, max], d = index_bits, idx[b] = the first index whose value is in
 * bucket b or later, bucket (val - min) >> sh. About one candidate a bucket on uniform values,
 * so a probe costs one index load and a step or two instead of log2(k) dependent loads. */
static unsigned index_bits(const PartInfo *c) {
    unsigned d = bitlen(c->cnt) - 1;
    return d < c->kbits ? d : c->kbits;
}

static void build_index(const RPart *rp, const PartInfo *c, uint32_t *idx) {
    unsigned d = index_bits(c), sh = c->kbits - d;
    size_t nb = (size_t)1 << d;
    uint64_t mn = (uint64_t)c->min;
    memset(idx, 0, (nb + 1) * sizeof *idx);
    for (size_t j = 0; j < rp->k; j++) idx[(((uint64_t)rp->v[j] - mn) >> sh) + 1]++;
    for (size_t b = 0; b < nb; b++) idx[b + 1] += idx[b];
}

/* answer_bs through the bucket index idx of build_index. */
static void answer_ix(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out,
                      const RPart *rp, const Rule *ru, const PartInfo *c, const uint32_t *idx) {
    size_t cc = SIZE_MAX, k = rp->k;
    uint32_t cr = ROW_NONE;
    bool upper = ru->upper;
    const int64_t *a = rp->v;
    int64_t mn = c->min, mx = c->max;
    unsigned sh = c->kbits - index_bits(c);
    for (size_t j = 0; j < kl; j++) {
        int64_t v = lv[j];
        size_t b;
        if (v < mn) {
            b = 0;
        } else if (v > mx) {
            b = k;
        } else {
            uint64_t bk = ((uint64_t)v - (uint64_t)mn) >> sh;
            size_t lo = idx[bk], hi = idx[bk + 1];
            if (hi - lo > 8) lo += bound_bs(a + lo, hi - lo, v, upper);
            else
                while (lo < hi && before(a[lo], v, upper)) lo++;
            b = lo;
        }
        out[lpos ? lpos[j] : j] = resolve(rp, b, v, ru, &cc, &cr);
    }
}

/* answer_ix without branches on the data, for the rules whose answer is the candidate itself
 * (as merge_core): the probe is clamped into [min, max] (a probe below min lands in bucket 0
 * and stops before its first candidate, one above max passes the whole last bucket), then up
 * to four conditional steps through its bucket; only a crowded bucket (rare on most inputs)
 * branches to a binary search. Consecutive probes do not wait for each other's mispredicts,
 * so their loads overlap (an optimisation over answer_ix). */
static inline __attribute__((always_inline)) void
ix_core(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out, const RPart *rp,
        const PartInfo *c, const uint32_t *idx, uint64_t lim, const bool backward,
        const bool upper, const bool has_row, const bool has_pos) {
    const int64_t *a = rp->v;
    const uint32_t *row = rp->row;
    size_t k = rp->k;
    uint32_t base = rp->base;
    int64_t mn = c->min, mx = c->max;
    unsigned sh = c->kbits - index_bits(c);
    for (size_t j = 0; j < kl; j++) {
        int64_t v = lv[j];
        int64_t vc = v < mn ? mn : v > mx ? mx : v;
        uint64_t bk = ((uint64_t)vc - (uint64_t)mn) >> sh;
        size_t lo = idx[bk], hi = idx[bk + 1];
        if (hi - lo > 4) {
            lo += bound_bs(a + lo, hi - lo, v, upper);
        } else {
            size_t cnt = 0; /* independent tests: the bucket is sorted */
            for (size_t t = 0; t < 4; t++) {
                size_t q = lo + t < k ? lo + t : k - 1;
                cnt += (lo + t < hi) & (upper ? a[q] <= v : a[q] < v);
            }
            lo += cnt;
        }
        bool has = backward ? lo > 0 : lo < k;
        size_t cx = backward ? (lo ? lo - 1 : 0) : (lo < k ? lo : k - 1);
        int64_t x = a[cx];
        uint64_t d = backward ? (uint64_t)v - (uint64_t)x : (uint64_t)x - (uint64_t)v;
        uint32_t r = has_row ? row[cx] : base + (uint32_t)cx;
        out[has_pos ? lpos[j] : j] = (has & (d <= lim)) ? r : ROW_NONE;
    }
}

#define IX_CASE(bw, up)                                                                        \
    do {                                                                                       \
        if (rp->row) {                                                                         \
            if (lpos) ix_core(lv, lpos, kl, out, rp, c, idx, lim, bw, up, true, true);         \
            else ix_core(lv, lpos, kl, out, rp, c, idx, lim, bw, up, true, false);             \
        } else {                                                                               \
            if (lpos) ix_core(lv, lpos, kl, out, rp, c, idx, lim, bw, up, false, true);        \
            else ix_core(lv, lpos, kl, out, rp, c, idx, lim, bw, up, false, false);            \
        }                                                                                      \
    } while (0)

static void answer_ix_flat(const int64_t *lv, const uint32_t *lpos, size_t kl, uint32_t *out,
                           const RPart *rp, const Rule *ru, const PartInfo *c,
                           const uint32_t *idx) {
    uint64_t lim = ru->has_within ? ru->within : UINT64_MAX;
    if (ru->backward) {
        if (ru->upper) IX_CASE(true, true);
        else IX_CASE(true, false);
    } else {
        if (ru->upper) IX_CASE(false, true);
        else IX_CASE(false, false);
    }
}

/* ---- step 3: one partition ------------------------------------------------------------------ */

static void prepare_right(Worker *w, uint32_t p, RPart *rp) {
    const SideState *S = &w->J->r;
    const PartInfo *c = &S->pi[p];
    size_t k = c->cnt;
    rp->k = k;
    if (S->direct) {
        rp->v = S->s->val + c->first;
        rp->row = NULL;
        rp->base = c->first;
        return;
    }
    uint64_t *a = S->key + c->start;
    uint64_t mn = (uint64_t)c->min;
    int64_t *v = (int64_t *)a;
    rp->v = v;
    rp->base = 0;
    if (!c->packed) {
        uint32_t *rows = S->row + c->start;
        if (c->unsorted) radix_kv(a, rows, w->tmp, w->ptmp, k, c->kbits, w->hist);
        for (size_t j = 0; j < k; j++) v[j] = to_i64(a[j] + mn);
        rp->row = rows;
        return;
    }
    unsigned sh = c->shift;
    uint64_t lmask = sh ? (UINT64_C(1) << sh) - 1 : 0;
    const uint64_t *sorted = c->unsorted ? sort_keys(a, w->tmp, k, sh, c->kbits, w->hist) : a;
    if (S->rowkey) {
        for (size_t j = 0; j < k; j++) {
            uint64_t x = sorted[j];
            w->rrow[j] = (uint32_t)(x & lmask);
            v[j] = to_i64((x >> sh) + mn);
        }
        rp->row = w->rrow;
    } else if (!c->unsorted) { /* arrived sorted: the local order is the sorted order */
        for (size_t j = 0; j < k; j++) v[j] = to_i64((a[j] >> sh) + mn);
        rp->row = S->row + c->start;
    } else {
        const uint32_t *rows = S->row + c->start;
        for (size_t j = 0; j < k; j++) {
            uint64_t x = sorted[j];
            w->rrow[j] = rows[x & lmask];
            v[j] = to_i64((x >> sh) + mn);
        }
        rp->row = w->rrow;
    }
}

/* The probes of partition p as values, in scatter order or (merge) sorted, with *lpos their
 * output positions: rows of the output when the keys carry rows, else scatter positions
 * (NULL: the identity). */
static const int64_t *prepare_left(Worker *w, uint32_t p, const uint32_t **lpos) {
    const SideState *S = &w->J->l;
    const PartInfo *c = &S->pi[p];
    size_t k = c->cnt;
    uint64_t *a = S->key + c->start;
    int64_t *v = (int64_t *)a;
    uint64_t mn = (uint64_t)c->min;
    unsigned sh = c->shift;
    bool sort = c->merge && c->unsorted;
    uint32_t *pos = w->lpos;
    *lpos = NULL;
    if (!c->packed) {
        if (!sort) {
            for (size_t j = 0; j < k; j++) v[j] = to_i64(a[j] + mn);
            return v;
        }
        for (size_t j = 0; j < k; j++) pos[j] = (uint32_t)j;
        radix_kv(a, pos, w->tmp, w->ptmp, k, c->kbits, w->hist);
        for (size_t j = 0; j < k; j++) v[j] = to_i64(a[j] + mn);
        *lpos = pos;
        return v;
    }
    if (!sort && !S->rowkey) {
        for (size_t j = 0; j < k; j++) v[j] = to_i64((a[j] >> sh) + mn);
        return v;
    }
    const uint64_t *sorted = sort ? sort_keys(a, w->tmp, k, sh, c->kbits, w->hist) : a;
    uint64_t lmask = sh ? (UINT64_C(1) << sh) - 1 : 0;
    for (size_t j = 0; j < k; j++) {
        uint64_t x = sorted[j];
        pos[j] = (uint32_t)(x & lmask);
        v[j] = to_i64((x >> sh) + mn);
    }
    *lpos = pos;
    return v;
}

static void run_partition(Worker *w, uint32_t p) {
    const Job *J = w->J;
    const PartInfo *L = &J->l.pi[p], *R = &J->r.pi[p];
    size_t kl = L->cnt;
    if (kl == 0) return;
    uint32_t *out = J->l.direct ? J->match + L->first : J->l.rowkey ? J->match : J->l.res + L->start;
    if (R->cnt == 0) { /* with row keys the output was filled with ROW_NONE */
        if (J->l.direct || !J->l.rowkey)
            for (size_t j = 0; j < kl; j++) out[j] = ROW_NONE;
        return;
    }
    RPart rp;
    prepare_right(w, p, &rp);
    const int64_t *lv;
    const uint32_t *lpos = NULL;
    if (J->l.direct) lv = J->l.s->val + L->first;
    else lv = prepare_left(w, p, &lpos);
    if (L->merge) {
        /* The flat merge walks all candidates; with many more candidates than probes the
         * galloping one is cheaper. */
        if (J->ru.backward != J->ru.ties_first && rp.k <= 16 * kl)
            answer_merge_flat(lv, lpos, kl, out, &rp, &J->ru);
        else
            answer_merge(lv, lpos, kl, out, &rp, &J->ru);
        w->merge_probes += kl;
    } else {
        if (w->ix && kl * 4 >= rp.k) {
            build_index(&rp, R, w->ix);
            if (J->ru.backward != J->ru.ties_first)
                answer_ix_flat(lv, lpos, kl, out, &rp, &J->ru, R, w->ix);
            else
                answer_ix(lv, lpos, kl, out, &rp, &J->ru, R, w->ix);
        } else {
            answer_bs(lv, lpos, kl, out, &rp, &J->ru);
        }
        w->bs_probes += kl;
    }
}

static int run_worker(void *arg) {
    Worker *w = arg;
    for (uint32_t p = w->p0; p < w->p1; p++) run_partition(w, p);
    return 0;
}

/* Scratch for partitions [p0, p1): radix buffers sized to the largest partition sorted there.
 * Returns false on OOM. */
static bool alloc_scratch(Worker *w) {
    const Job *J = w->J;
    size_t kt = 0, kr = 0, kl = 0, kp = 0, ki = 0;
    for (uint32_t p = w->p0; p < w->p1; p++) {
        const PartInfo *L = &J->l.pi[p], *R = &J->r.pi[p];
        if (!L->cnt || !R->cnt) continue;
        if (!J->r.direct && R->unsorted) {
            if (R->cnt > kt) kt = R->cnt;
            if (!R->packed && R->cnt > kp) kp = R->cnt;
        }
        if (!J->r.direct && R->packed && (R->unsorted || J->r.rowkey) && R->cnt > kr) kr = R->cnt;
        if (!J->l.direct && L->merge && L->unsorted) {
            if (L->cnt > kt) kt = L->cnt;
            if (L->cnt > kl) kl = L->cnt;
            if (!L->packed && L->cnt > kp) kp = L->cnt;
        }
        if (!J->l.direct && J->l.rowkey && L->cnt > kl) kl = L->cnt;
        size_t nix = ((size_t)1 << index_bits(R)) + 1;
        if (!L->merge && (uint64_t)L->cnt * 4 >= R->cnt && nix > ki) ki = nix;
    }
    if (ki && !(w->ix = rx_malloc(ki * sizeof *w->ix))) return false;
    if (kt) {
        w->tmp = rx_malloc(kt * sizeof *w->tmp);
        w->hist = rx_malloc((RADIX_HIST_SIZE + ((size_t)1 << MSD_MAX_BITS)) * sizeof *w->hist);
        if (!w->tmp || !w->hist) return false;
    }
    if (kr && !(w->rrow = rx_malloc(kr * sizeof *w->rrow))) return false;
    if (kl && !(w->lpos = rx_malloc(kl * sizeof *w->lpos))) return false;
    if (kp && !(w->ptmp = rx_malloc(kp * sizeof *w->ptmp))) return false;
    return true;
}

static void free_scratch(Worker *w) {
    rx_free(w->tmp);
    rx_free(w->hist);
    rx_free(w->rrow);
    rx_free(w->lpos);
    rx_free(w->ptmp);
    rx_free(w->ix);
}

/* The cost model's count of radix passes over k keys of `bits` significant bits: digits of up
 * to 11 bits, wider for larger k. */
static unsigned sort_passes(size_t k, unsigned bits) {
    unsigned dmax = bitlen(k);
    dmax = dmax > 6 ? dmax - 2 : 4;
    if (dmax > 11) dmax = 11;
    return (bits + dmax - 1) / dmax;
}

/* AUTO's choice for one partition of a scattered left side: binary search costs about two
 * units a probe and level, or through a bucket index that stays in L2 (INDEX_CACHED) six a
 * probe plus two a candidate (its build); the merge costs the probe sort's passes plus one
 * unit a row. */
static bool prefer_merge(const PartInfo *L, const PartInfo *R) {
    if (!L->unsorted) return true;
    unsigned np = sort_passes(L->cnt, L->kbits);
    uint64_t kl = L->cnt, kr = R->cnt;
    uint64_t bs = kl * 2 * (bitlen(kr) + 1);
    if (kl * 4 >= kr && kr <= INDEX_CACHED) bs = kl * 6 + 2 * kr; /* through the bucket index */
    uint64_t mg = kl * (2 * (uint64_t)np + 3) + kr;
    return mg < bs;
}

/* ---- step 4: replay the left scatter ----------------------------------------------------------- */

typedef struct {
    const SideState *S;
    size_t i0, i1;
    uint32_t *cur;
} Replay;

static int run_replay(void *arg) {
    const Replay *rp = arg;
    const SideState *S = rp->S;
    uint32_t *cur = rp->cur, *match = S->match;
    const uint32_t *res = S->res;
    for (size_t i = rp->i0; i < rp->i1; i++) {
        uint32_t p;
        match[i] = row_ok(S->s, S->n_parts, i, &p) ? res[cur[p]++] : ROW_NONE;
    }
    return 0;
}

/* ---- the reference loop --------------------------------------------------------------------- */

static void nested_loop(const AsofSide *l, const AsofSide *r, uint32_t n_parts, const Rule *ru,
                        AsofDir dir, uint32_t *match) {
    for (size_t i = 0; i < l->n; i++) {
        uint32_t pl, pr, best = ROW_NONE;
        match[i] = ROW_NONE;
        if (!row_ok(l, n_parts, i, &pl)) continue;
        int64_t v = l->val[i], bx = 0;
        for (size_t j = 0; j < r->n; j++) {
            if (!row_ok(r, n_parts, j, &pr) || pr != pl) continue;
            int64_t x = r->val[j];
            bool q = dir == ASOF_BACKWARD ? x <= v : dir == ASOF_BACKWARD_STRICT ? x < v
                   : dir == ASOF_FORWARD ? x >= v : x > v;
            if (!q) continue;
            if (best == ROW_NONE || (ru->backward ? x > bx : x < bx) || (x == bx && !ru->ties_first)) {
                best = (uint32_t)j;
                bx = x;
            }
        }
        if (best != ROW_NONE && ru->has_within) {
            uint64_t d = ru->backward ? (uint64_t)v - (uint64_t)bx : (uint64_t)bx - (uint64_t)v;
            if (d > ru->within) best = ROW_NONE;
        }
        match[i] = best;
    }
}

/* ---- entry point ---------------------------------------------------------------------------- */

static void free_side(SideState *S) {
    rx_free(S->pi);
    xfree_whole(S->key);
    xfree_whole(S->row);
    if (S->res != S->match) xfree_whole(S->res);
}

static int asof_one(const AsofSide *l, const AsofSide *r, const AsofOptions *opt, uint32_t *match,
                    AsofStats *stats, RxError *err) {
    AsofStats st = {false, false, opt->algo};
    if (l->n >= UINT32_MAX || r->n >= UINT32_MAX)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "AS-OF join input over %u rows", (unsigned)(UINT32_MAX - 1));
    Job J;
    memset(&J, 0, sizeof J);
    J.ru.backward = opt->dir == ASOF_BACKWARD || opt->dir == ASOF_BACKWARD_STRICT;
    J.ru.upper = opt->dir == ASOF_BACKWARD || opt->dir == ASOF_FORWARD_STRICT;
    J.ru.ties_first = opt->ties_first;
    J.ru.has_within = opt->has_within;
    J.ru.within = opt->has_within && opt->within > 0 ? (uint64_t)opt->within : 0;
    J.algo = opt->algo;
    J.match = match;
    /* A side without partition ids is all in partition 0. A negative bound rejects every
     * candidate, and with no partitions nothing pairs. */
    uint32_t n_parts = (l->part || r->part) ? opt->n_parts : 1;
    J.n_parts = n_parts;
    if ((opt->has_within && opt->within < 0) || n_parts == 0) {
        for (size_t i = 0; i < l->n; i++) match[i] = ROW_NONE;
        if (stats) *stats = st;
        return 0;
    }
    if (opt->algo == ASOF_ALGO_NESTED_LOOP) {
        nested_loop(l, r, n_parts, &J.ru, opt->dir, match);
        if (stats) *stats = st;
        return 0;
    }

    SideState *L = &J.l, *R = &J.r;
    L->s = l;
    L->is_left = true;
    L->match = match;
    R->s = r;
    L->n_parts = R->n_parts = n_parts;
    L->pi = rx_calloc(n_parts, sizeof *L->pi);
    R->pi = rx_calloc(n_parts, sizeof *R->pi);
    if (!L->pi || !R->pi) goto oom;
    bool par = l->n + r->n >= PARALLEL_JOIN_ROWS;

    /* Steps 1 and 2, the two sides at once. */
    run_two(&(Task){prepare_side, L, 0}, &(Task){prepare_side, R, 0}, par);
    if (L->failed || R->failed) goto oom;
    st.left_sorted = L->sorted;
    st.right_sorted = R->sorted;

    /* Step 3: choose per partition, then split the partitions between two workers. */
    uint64_t total = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        PartInfo *pl = &L->pi[p], *pr = &R->pi[p];
        pl->merge = 0;
        if (!pl->cnt || !pr->cnt) continue;
        switch (opt->algo) {
        case ASOF_ALGO_BINARY_SEARCH: pl->merge = 0; break;
        case ASOF_ALGO_MERGE: pl->merge = 1; break;
        case ASOF_ALGO_AUTO:
        case ASOF_ALGO_NESTED_LOOP: pl->merge = L->direct || prefer_merge(pl, pr); break;
        }
        total += (uint64_t)pl->cnt + pr->cnt;
    }
    if (!L->direct && L->rowkey) { /* answers go straight to the output: pre-fill the rows
                                      * no partition writes */
        bool gaps = L->any_invalid;
        for (uint32_t p = 0; p < n_parts && !gaps; p++) gaps = L->pi[p].cnt && !R->pi[p].cnt;
        if (gaps) memset(match, 0xFF, l->n * sizeof *match);
    }
    Worker w[2];
    memset(w, 0, sizeof w);
    w[0].J = w[1].J = &J;
    uint32_t split = n_parts;
    if (par && total > 0) {
        uint64_t acc = 0;
        for (uint32_t p = 0; p < n_parts; p++) {
            if (acc * 2 >= total) {
                split = p;
                break;
            }
            if (L->pi[p].cnt && R->pi[p].cnt) acc += (uint64_t)L->pi[p].cnt + R->pi[p].cnt;
        }
    }
    w[0].p0 = 0;
    w[0].p1 = split;
    w[1].p0 = split;
    w[1].p1 = n_parts;
    bool ok = alloc_scratch(&w[0]) && alloc_scratch(&w[1]);
    if (ok) run_two(&(Task){run_worker, &w[0], 0}, &(Task){run_worker, &w[1], 0}, par && split < n_parts);
    size_t merged = w[0].merge_probes + w[1].merge_probes;
    size_t searched = w[0].bs_probes + w[1].bs_probes;
    free_scratch(&w[0]);
    free_scratch(&w[1]);
    if (!ok) goto oom;

    /* Step 4. */
    if (!L->direct && L->res != match) {
        uint32_t *cur = malloc(2 * (size_t)n_parts * sizeof *cur);
        if (!cur) goto oom;
        for (uint32_t p = 0; p < n_parts; p++) {
            cur[p] = L->pi[p].start;
            cur[n_parts + p] = L->pi[p].start + L->pi[p].half;
        }
        Replay a = {L, 0, l->n / 2, cur}, b = {L, l->n / 2, l->n, cur + n_parts};
        run_two(&(Task){run_replay, &a, 0}, &(Task){run_replay, &b, 0}, par);
        free(cur);
    }
    if (opt->algo == ASOF_ALGO_AUTO)
        st.algo = merged >= searched ? ASOF_ALGO_MERGE : ASOF_ALGO_BINARY_SEARCH;
    if (stats) *stats = st;
    free_side(L);
    free_side(R);
    return 0;

oom:
    free_side(L);
    free_side(R);
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the AS-OF join");
}

/* NEAREST: one pass per direction, then per left row the nearer candidate (asof.h). The
 * directions: the side dir prefers takes an equal value when dir is not strict, the other side
 * never does, so an exact match is counted once. */
static int asof_nearest(const AsofSide *l, const AsofSide *r, const AsofOptions *opt,
                        uint32_t *match, AsofStats *stats, RxError *err) {
    bool prefer_back = opt->dir == ASOF_BACKWARD || opt->dir == ASOF_BACKWARD_STRICT;
    bool exact = opt->dir == ASOF_BACKWARD || opt->dir == ASOF_FORWARD;
    AsofOptions ob = *opt, of = *opt;
    ob.nearest = of.nearest = false;
    ob.dir = exact && prefer_back ? ASOF_BACKWARD : ASOF_BACKWARD_STRICT;
    of.dir = exact && !prefer_back ? ASOF_FORWARD : ASOF_FORWARD_STRICT;
    uint32_t *fwd = xmalloc(l->n ? l->n : 1, sizeof *fwd);
    if (!fwd) return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the AS-OF join");
    AsofStats sf;
    if (asof_one(l, r, &ob, match, stats, err) < 0 || asof_one(l, r, &of, fwd, &sf, err) < 0) {
        xfree(fwd);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++) {
        uint32_t b = match[i], f = fwd[i];
        if (f == ROW_NONE) continue;
        if (b == ROW_NONE) {
            match[i] = f;
            continue;
        }
        /* Both exist: b's value <= l's <= f's, so the distances are non-negative. */
        uint64_t db = (uint64_t)l->val[i] - (uint64_t)r->val[b];
        uint64_t df = (uint64_t)r->val[f] - (uint64_t)l->val[i];
        if (df < db || (df == db && !prefer_back)) match[i] = f;
    }
    xfree(fwd);
    return 0;
}

int asof_join(const AsofSide *l, const AsofSide *r, const AsofOptions *opt, uint32_t *match,
              AsofStats *stats, RxError *err) {
    if (opt->nearest) return asof_nearest(l, r, opt, match, stats, err);
    return asof_one(l, r, opt, match, stats, err);
}

const char *asof_algo_name(AsofAlgo a) {
    switch (a) {
    case ASOF_ALGO_AUTO: return "auto";
    case ASOF_ALGO_NESTED_LOOP: return "nested_loop";
    case ASOF_ALGO_BINARY_SEARCH: return "binary_search";
    case ASOF_ALGO_MERGE: return "merge";
    }
    return "?";
}
