/*
 * ijoin.c - the interval-join kernel of ijoin.h: every (left row, right row) pair whose
 * intervals satisfy one of the fourteen endpoint predicates of spec/interval-join.md, in
 * (left row, right row) order.
 *
 * The executor hands over int64 keys, validity bitmaps and optional partition ids; this file
 * relies on base.h (errors), pthreads and madvise. Every predicate is applied literally, also
 * to empty (s = e) and inverted (s > e) intervals; the one fast path that assumes s < e
 * (INTERSECTS) routes the other rows to the exact dominance sweep. docs/ijoin.md gives the
 * reasoning and the costs.
 *
 * Algorithm (n left rows, m right rows, k result pairs):
 *   1. Drop invalid rows; group both sides by partition id with a counting sort (O(n + m)).
 *      Each partition is joined on its own; a left row lies in one partition only, so its pairs
 *      come from one partition.
 *   2. Per partition, one of five engines, chosen by the relation. Sorting is an LSD radix sort
 *      of (key - min, position) packed into one 64-bit word, passes whose digit is constant
 *      skipped (sort_ids).
 *      a. "endpoint merge" (MEETS, MET_BY, STARTS, STARTED_BY, FINISHES, FINISHED_BY, EQUALS),
 *         a hash join on the shared endpoint (EQUALS: on both) with a range test on the other:
 *         bucket the right rows by hash with a stable counting sort (each bucket in row order);
 *         sort the buckets of more than EQ_SCAN_MAX rows by (k1, k2, row). Each left row, in
 *         row order, scans its bucket (or binary-searches a sorted one and sorts its slice), so
 *         runs come out in final order: O(n + m + k), plus O(g log g) per large bucket.
 *      b. "band" (PRECEDES, PRECEDED_BY): the matches are the rights whose key x exceeds a
 *         threshold t of the left row. Drop rows that cannot match (t >= max x, x <= min t),
 *         sort both, merge to count each left row's matches, then sweep t upwards deleting
 *         rights with x <= t from a doubly linked list kept in right row order; each left row
 *         walks the list, which holds exactly its matches, already in right order:
 *         O((n+m) log + k).
 *      c. "dominance sweep" (OVERLAPS, OVERLAPPED_BY, DURING, CONTAINS; the rows of INTERSECTS
 *         that are not proper intervals): each relation is x(r) in [xlo(l), xhi(l)] and
 *         y(r) >= ymin(l) for coordinates mapped from the endpoints (~k reverses order without
 *         overflow). Sort rights by x, sweep queries by ymin upwards deleting rights with
 *         y < ymin (a union-find "next alive" over the x order), then each query finds xlo
 *         (a fence of every 64th key, then a block) and walks alive rights up to xhi: every
 *         visited right is a match. O((n+m) log + k alpha).
 *      e. "range scan" (OVERLAPS, OVERLAPPED_BY): the x range of c is bounded on both sides, so
 *         sort rights by x and lefts by start, and scan x from xlo up to xhi keeping y >= ymin,
 *         the left rows in start order (xlo only grows, so the scans read x in sequence). A left
 *         row whose x range holds more than RS_SCAN_MAX rights goes to engine c instead:
 *         O((n+m) log + k).
 *      d. "sweep" (INTERSECTS, proper intervals): with ls < le and rs < re, a pair intersects
 *         iff rs in [ls, le) or ls in (rs, re), and the two cases are disjoint. Sort left starts
 *         and right starts, merge once to place every start of one side among the other's, then
 *         scan forward from that place: set 1 per left row, set 2 per right row. Counts come
 *         first (set 2 through a difference array over the sorted left starts), so each left
 *         row's run is reserved exactly and filled in place. Empty left rows take part in set 2
 *         unchanged (ls in (rs, re) is then their whole predicate); inverted left rows and
 *         non-proper right rows go to engine c. O((n+m) log + k).
 *   3. Assembly: each left row's run is sorted by right row (insertion sort when short, radix
 *      otherwise; a run already in order costs one check), runs laid out in left order. When the
 *      engine wrote the runs in left order (one partition, engines a, b, d, e) the buffer is the
 *      result; otherwise the runs are copied once into place.
 * Optimisations, not needed for correctness: independent halves of a phase run on two threads
 * (run_two; each writes its own arrays, so results do not depend on it; engines a and e probe
 * the two halves of the left rows into two buffers, appended in order), loops that index by
 * row ids prefetch ahead, and large buffers are requested in transparent huge pages (xmalloc).
 * No state outlives a call.
 * The nested loop (IJ_ALGO_NESTED_LOOP) is the reference: ij_holds over every valid pair.
 */
#include "exec/ijoin.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- relations ------------------------------------------------------------------------------ */

static const char *const relation_names[IJ_N_RELATIONS] = {
    "INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS",      "MET_BY",
    "OVERLAPS",   "OVERLAPPED_BY", "STARTS", "STARTED_BY", "DURING",
    "CONTAINS",   "FINISHES", "FINISHED_BY", "EQUALS",
};

const char *ij_relation_name(IjRelation r) {
    return (unsigned)r < IJ_N_RELATIONS ? relation_names[r] : "?";
}

static int upper_ascii(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

int ij_relation_from_name(const char *s, size_t n, IjRelation *out) {
    for (int r = 0; r < IJ_N_RELATIONS; r++) {
        const char *name = relation_names[r];
        if (strlen(name) != n) continue;
        size_t i = 0;
        while (i < n && upper_ascii((unsigned char)s[i]) == name[i]) i++;
        if (i == n) {
            *out = (IjRelation)r;
            return 0;
        }
    }
    return -1;
}

IjRelation ij_converse(IjRelation r) {
    switch (r) {
    case IJ_INTERSECTS: return IJ_INTERSECTS;
    case IJ_PRECEDES: return IJ_PRECEDED_BY;
    case IJ_PRECEDED_BY: return IJ_PRECEDES;
    case IJ_MEETS: return IJ_MET_BY;
    case IJ_MET_BY: return IJ_MEETS;
    case IJ_OVERLAPS: return IJ_OVERLAPPED_BY;
    case IJ_OVERLAPPED_BY: return IJ_OVERLAPS;
    case IJ_STARTS: return IJ_STARTED_BY;
    case IJ_STARTED_BY: return IJ_STARTS;
    case IJ_DURING: return IJ_CONTAINS;
    case IJ_CONTAINS: return IJ_DURING;
    case IJ_FINISHES: return IJ_FINISHED_BY;
    case IJ_FINISHED_BY: return IJ_FINISHES;
    case IJ_EQUALS: return IJ_EQUALS;
    case IJ_N_RELATIONS: break;
    }
    return r;
}

bool ij_holds(IjRelation r, int64_t ls, int64_t le, int64_t rs, int64_t re) {
    switch (r) {
    case IJ_INTERSECTS: return ls < re && rs < le;
    case IJ_PRECEDES: return le < rs;
    case IJ_PRECEDED_BY: return ls > re;
    case IJ_MEETS: return le == rs;
    case IJ_MET_BY: return ls == re;
    case IJ_OVERLAPS: return ls < rs && le > rs && le < re;
    case IJ_OVERLAPPED_BY: return rs < ls && re > ls && re < le;
    case IJ_STARTS: return ls == rs && le < re;
    case IJ_STARTED_BY: return ls == rs && re < le;
    case IJ_DURING: return rs < ls && le < re;
    case IJ_CONTAINS: return ls < rs && re < le;
    case IJ_FINISHES: return le == re && rs < ls;
    case IJ_FINISHED_BY: return le == re && ls < rs;
    case IJ_EQUALS: return ls == rs && le == re;
    case IJ_N_RELATIONS: break;
    }
    return false;
}

typedef enum { ENG_NESTED, ENG_EQ, ENG_BAND, ENG_DOM, ENG_RANGE, ENG_SWEEP } Engine;

static Engine engine_of(IjRelation rel, const IjOptions *opt) {
    if (opt && opt->algo == IJ_ALGO_NESTED_LOOP) return ENG_NESTED;
    switch (rel) {
    case IJ_INTERSECTS: return ENG_SWEEP;
    case IJ_PRECEDES:
    case IJ_PRECEDED_BY: return ENG_BAND;
    case IJ_MEETS:
    case IJ_MET_BY:
    case IJ_STARTS:
    case IJ_STARTED_BY:
    case IJ_FINISHES:
    case IJ_FINISHED_BY:
    case IJ_EQUALS: return ENG_EQ;
    case IJ_OVERLAPS:
    case IJ_OVERLAPPED_BY: return ENG_RANGE;
    case IJ_DURING:
    case IJ_CONTAINS: return ENG_DOM;
    case IJ_N_RELATIONS: break;
    }
    return ENG_NESTED;
}

const char *ij_strategy(IjRelation rel, const IjOptions *opt) {
    switch (engine_of(rel, opt)) {
    case ENG_NESTED: return "nested loop";
    case ENG_EQ: return (rel == IJ_MEETS || rel == IJ_MET_BY) ? "endpoint merge"
                                                              : "endpoint merge+range";
    case ENG_BAND: return "band";
    case ENG_DOM: return "dominance sweep";
    case ENG_RANGE: return "range scan";
    case ENG_SWEEP: return "sweep";
    }
    return "nested loop";
}

void ij_pairs_free(IjPairs *p) {
    if (!p) return;
    rx_map_free(p->left);
    rx_map_free(p->right);
    p->left = p->right = NULL;
    p->n = p->cap = 0;
}

/* ---- small helpers -------------------------------------------------------------------------- */

#define SIGN64 0x8000000000000000ULL

static inline uint64_t flip(int64_t k) { return (uint64_t)k ^ SIGN64; }
static inline int64_t unflip(uint64_t u) { return (int64_t)(u ^ SIGN64); }
static inline int bits_for(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/* Strict bounds as inclusive ones: x > c is x >= c + 1, impossible when c is the maximum. */
static inline bool above(int64_t c, int64_t *out) {
    if (c == INT64_MAX) return false;
    *out = c + 1;
    return true;
}
static inline bool below(int64_t c, int64_t *out) {
    if (c == INT64_MIN) return false;
    *out = c - 1;
    return true;
}

static int oom(RxError *err) {
    return rx_error(err, RX_ENOMEM, NULL, rx_span(0, 0), "out of memory in the interval join");
}

/* n elements of size bytes, freed with xfree; large buffers are their own huge-page mappings
 * (rx_map_alloc: an optimisation, the first touches of fresh memory dominate a join that
 * touches ~100 MB of it, and cost less in huge pages). Every buffer of this file, the result's
 * included, is freed with xfree. */
static void *xmalloc(size_t n, size_t size) {
    if (n == 0) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    return rx_map_alloc(n * size);
}

static void *xcalloc(size_t n, size_t size) { return rx_map_calloc(n, size); }
static void *xrealloc(void *p, size_t bytes) { return rx_map_realloc(p, bytes); }
static void xfree(void *p) { rx_map_free(p); }

/* ---- two tasks at once ---------------------------------------------------------------------- */

/* The machine has two cores: independent halves of a phase (the two sides' sorts, the two
 * counting scans of the INTERSECTS sweep) run side by side. An optimisation only: each task
 * writes its own arrays, so the result does not depend on whether the thread started. */
typedef struct {
    int (*fn)(void *);
    void *arg;
    int rc;
} Task;

static void *task_main(void *p) {
    Task *t = p;
    t->rc = t->fn(t->arg);
    return NULL;
}

static int run_two(Task *a, Task *b, bool threaded) {
    pthread_t th;
    threaded = threaded && rx_threads() > 1 && pthread_create(&th, NULL, task_main, b) == 0;
    a->rc = a->fn(a->arg);
    if (threaded) pthread_join(th, NULL);
    else b->rc = b->fn(b->arg);
    return a->rc || b->rc ? -1 : 0;
}

/* Worth a thread: below this many rows the thread costs more than it saves. */
#define PARALLEL_ROWS 65536

/* ---- radix sort ----------------------------------------------------------------------------- */

/* The widest digit. With 2^11 buckets a scatter pass keeps its 2,048 write positions (128 KB of
 * cache lines) in L2; with 2^16, as before, it kept fewer passes but missed the cache on every
 * write. Measured on this machine, both sides of a join sorted side by side: the 1M x 1M
 * INTERSECTS sorts went from 15-46 ms to 8-15 ms, the 4M x 4M ones from 50-56 ms to 35-43 ms
 * (the fastest runs of five). */
#define RADIX_BITS 11

/* Sorts the words a[0..n) stably by their bits [lo, lo + nbits), LSD, using b as scratch;
 * returns the buffer holding the sorted words (a or b), NULL when out of memory. Digits of up
 * to RADIX_BITS bits, balanced over the passes; short arrays get narrower digits so that a
 * histogram never dwarfs its data. A pass whose digit is the same for every word is skipped. */
static uint64_t *radix_words(uint64_t *a, uint64_t *b, size_t n, int lo, int nbits) {
    if (nbits <= 0 || n < 2) return a;
    int wmax = bits_for(n) - 4;
    if (wmax > RADIX_BITS) wmax = RADIX_BITS;
    if (wmax < 4) wmax = 4;
    int passes = (nbits + wmax - 1) / wmax;
    int w = (nbits + passes - 1) / passes;
    size_t nb = (size_t)1 << w;
    uint32_t *hist = xcalloc((size_t)passes * nb, sizeof *hist);
    if (!hist) return NULL;
    uint64_t mask = nb - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = a[i] >> lo;
        for (int p = 0; p < passes; p++) hist[(size_t)p * nb + ((v >> (p * w)) & mask)]++;
    }
    uint64_t *src = a, *dst = b;
    for (int p = 0; p < passes; p++) {
        uint32_t *h = hist + (size_t)p * nb;
        int shift = lo + p * w;
        if (h[(src[0] >> shift) & mask] == n) continue;
        uint32_t sum = 0;
        for (size_t d = 0; d < nb; d++) {
            uint32_t c = h[d];
            h[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t v = src[i];
            dst[h[(v >> shift) & mask]++] = v;
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    xfree(hist);
    return src;
}

/* Sorts positions 0..n-1 stably by u[j] (nbits significant bits): perm[t] is the position of the
 * t-th smallest, and sorted[t] (if not NULL; it may be u itself) its value. */
static int sort_positions(const uint64_t *u, size_t n, int nbits, uint32_t *perm,
                          uint64_t *sorted) {
    int jb = bits_for(n - 1);
    uint64_t jmask = ((uint64_t)1 << jb) - 1;
    if (nbits + jb > 64) {
        /* Too wide to pack with the position: sort by the low 32 bits, then stably by the rest. */
        uint64_t *lo = xmalloc(n, sizeof *lo), *hi = xmalloc(n, sizeof *hi);
        uint32_t *p1 = xmalloc(n, sizeof *p1), *p2 = xmalloc(n, sizeof *p2);
        int rc = -1;
        if (lo && hi && p1 && p2) {
            for (size_t j = 0; j < n; j++) lo[j] = u[j] & 0xffffffffu;
            if (sort_positions(lo, n, 32, p1, NULL) == 0) {
                for (size_t t = 0; t < n; t++) hi[t] = u[p1[t]] >> 32;
                if (sort_positions(hi, n, nbits - 32, p2, NULL) == 0) {
                    /* sorted may alias u: gather into lo first. */
                    for (size_t t = 0; t < n; t++) {
                        perm[t] = p1[p2[t]];
                        lo[t] = u[perm[t]];
                    }
                    if (sorted) memcpy(sorted, lo, n * sizeof *sorted);
                    rc = 0;
                }
            }
        }
        xfree(lo);
        xfree(hi);
        xfree(p1);
        xfree(p2);
        return rc;
    }
    uint64_t *a = xmalloc(n, sizeof *a), *b = xmalloc(n, sizeof *b);
    if (!a || !b) {
        xfree(a);
        xfree(b);
        return -1;
    }
    for (size_t j = 0; j < n; j++) a[j] = (u[j] << jb) | j;
    const uint64_t *w = radix_words(a, b, n, jb, nbits);
    if (!w) {
        xfree(a);
        xfree(b);
        return -1;
    }
    for (size_t t = 0; t < n; t++) {
        perm[t] = (uint32_t)(w[t] & jmask);
        if (sorted) sorted[t] = w[t] >> jb;
    }
    xfree(a);
    xfree(b);
    return 0;
}

/* Sorts the ids seq[0..n) (NULL: 0..n-1) stably by key[id]: out_id[t] is the t-th id in key
 * order and out_key[t] (if not NULL) its key. scratch, when not NULL, holds n words the sort
 * may use as its radix buffer (their contents after it are undefined). Returns -1 when out of
 * memory. */
static int sort_ids(const int64_t *key, const uint32_t *seq, size_t n, uint32_t *out_id,
                    int64_t *out_key, uint64_t *scratch) {
    if (n == 0) return 0;
    uint64_t mn = UINT64_MAX, mx = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t u = flip(key[seq ? seq[j] : j]);
        if (u < mn) mn = u;
        if (u > mx) mx = u;
    }
    if (n <= 32) {
        uint64_t uk[32];
        uint32_t id[32];
        for (size_t j = 0; j < n; j++) {
            id[j] = seq ? seq[j] : (uint32_t)j;
            uk[j] = flip(key[id[j]]);
            size_t i = j;
            while (i > 0 && uk[i - 1] > uk[i]) {
                uint64_t tu = uk[i];
                uk[i] = uk[i - 1];
                uk[i - 1] = tu;
                uint32_t ti = id[i];
                id[i] = id[i - 1];
                id[i - 1] = ti;
                i--;
            }
        }
        for (size_t t = 0; t < n; t++) {
            out_id[t] = id[t];
            if (out_key) out_key[t] = unflip(uk[t]);
        }
        return 0;
    }
    int nbits = bits_for(mx - mn), jb = bits_for(n - 1);
    if (nbits + jb <= 64) {
        /* (key - min, position) packed in one word: the sort moves 8 bytes per row. The sorted
         * keys' array serves as one of the two radix buffers (an optimisation: 8 bytes a row
         * less of fresh memory); decoding in place reads each word before it writes it. */
        uint64_t *a = out_key ? (uint64_t *)out_key : xmalloc(n, sizeof *a);
        uint64_t *b = scratch ? scratch : xmalloc(n, sizeof *b);
        const uint64_t *w = a && b ? a : NULL;
        if (w) {
            for (size_t j = 0; j < n; j++)
                a[j] = ((flip(key[seq ? seq[j] : j]) - mn) << jb) | j;
            w = radix_words(a, b, n, jb, nbits);
        }
        if (w) {
            uint64_t jmask = ((uint64_t)1 << jb) - 1;
            for (size_t t = 0; t < n; t++) {
                uint64_t v = w[t];
                uint32_t j = (uint32_t)(v & jmask);
                out_id[t] = seq ? seq[j] : j;
                if (out_key) out_key[t] = unflip((v >> jb) + mn);
            }
        }
        if (a != (uint64_t *)out_key) xfree(a);
        if (b != scratch) xfree(b);
        return w ? 0 : -1;
    }
    uint64_t *u = xmalloc(n, sizeof *u);
    uint32_t *perm = xmalloc(n, sizeof *perm);
    if (!u || !perm) {
        xfree(u);
        xfree(perm);
        return -1;
    }
    for (size_t j = 0; j < n; j++) u[j] = flip(key[seq ? seq[j] : j]) - mn;
    int rc = sort_positions(u, n, nbits, perm, out_key ? u : NULL);
    if (rc == 0) {
        for (size_t t = 0; t < n; t++) {
            out_id[t] = seq ? seq[perm[t]] : perm[t];
            if (out_key) out_key[t] = unflip(u[t] + mn);
        }
    }
    xfree(u);
    xfree(perm);
    return rc;
}

typedef struct {
    const int64_t *key;
    const uint32_t *seq;
    size_t n;
    uint32_t *out_id;
    int64_t *out_key;
    uint64_t *scratch;   /* NULL, or n words for the sort's radix buffer */
} SortJob;

static int sort_job(void *p) {
    SortJob *j = p;
    return sort_ids(j->key, j->seq, j->n, j->out_id, j->out_key, j->scratch);
}

/* Two sort jobs one after the other (p points at the first). */
static int sort_jobs_yq(void *p) {
    SortJob *j = p;
    return sort_job(&j[0]) || sort_job(&j[1]) ? -1 : 0;
}

/* sort_ids on two inputs, side by side when both are large. */
static int sort_two(SortJob *a, SortJob *b) {
    Task ta = {sort_job, a, 0}, tb = {sort_job, b, 0};
    return run_two(&ta, &tb, a->n >= PARALLEL_ROWS && b->n >= PARALLEL_ROWS);
}

/* Sorts v[0..n) ascending (a left row's run of right rows); scratch holds n words if needed. */
static void sort_run(uint32_t *v, size_t n, uint32_t *scratch) {
    size_t i = 1;
    while (i < n && v[i - 1] < v[i]) i++;
    if (i >= n) return;
    if (n <= 16) {
        /* Each row goes to its rank, the count of rows before it in order (an optimisation:
         * the comparisons of a fixed 16 lanes run without a branch, where an insertion sort
         * mispredicted on most rows: OVERLAPS 1M x 1M from 0.080 s to 0.072, INTERSECTS from
         * 0.061 to 0.056). Padding sorts last and ranks no row. */
        uint32_t in[16], out[16];
        for (size_t t = 0; t < 16; t++) in[t] = t < n ? v[t] : UINT32_MAX;
        for (size_t t = 0; t < n; t++) {
            uint32_t x = in[t], r = 0;
            for (size_t u = 0; u < 16; u++) r += in[u] < x || (in[u] == x && u < t);
            out[r] = x;
        }
        memcpy(v, out, n * sizeof *v);
        return;
    }
    if (n <= 48) {
        for (; i < n; i++) {
            uint32_t x = v[i];
            size_t j = i;
            while (j > 0 && v[j - 1] > x) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        return;
    }
    uint32_t mx = 0;
    for (size_t t = 0; t < n; t++)
        if (v[t] > mx) mx = v[t];
    int nbits = bits_for(mx);
    uint32_t *src = v, *dst = scratch;
    for (int shift = 0; shift < nbits; shift += 8) {
        uint32_t h[256] = {0};
        for (size_t t = 0; t < n; t++) h[(src[t] >> shift) & 255]++;
        uint32_t sum = 0;
        for (int d = 0; d < 256; d++) {
            uint32_t c = h[d];
            h[d] = sum;
            sum += c;
        }
        for (size_t t = 0; t < n; t++) dst[h[(src[t] >> shift) & 255]++] = src[t];
        uint32_t *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}

/* Optimisation: the loops that index by a row id (sorted order to row order, or back, or
 * through a run's start) prefetch SW_AHEAD rows ahead; those cache misses bind them otherwise. */
#define SW_AHEAD 16

/* ---- output: one run of right rows per left row --------------------------------------------- */

typedef struct {
    uint32_t *cstart, *clen;     /* per left row (global): its run in tmp */
    uint32_t *tmp;               /* runs of right rows (global ids) */
    size_t n_tmp, cap_tmp;
    uint32_t *xl, *xr;           /* extra pairs, in any order, merged into the runs at the end */
    size_t n_x, cap_x;
    bool in_order;               /* runs were reserved in increasing left row order */
    bool lent;                   /* tmp is part of a buffer shared by two halves (see
                                  * halves_open): it grows into a new buffer, never in place */
    int64_t last_left;
    RxError *err;
} Out;

static int out_limit(Out *o, size_t add) {
    size_t have = o->n_tmp + o->n_x;
    if (add > (size_t)UINT32_MAX - have)
        return rx_error(o->err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "the interval join's result exceeds %u rows", (unsigned)UINT32_MAX);
    return 0;
}

static int tmp_grow(Out *o, size_t add) {
    if (out_limit(o, add) != 0) return -1;
    size_t need = o->n_tmp + add;
    if (need <= o->cap_tmp) return 0;
    size_t cap = o->cap_tmp + o->cap_tmp / 2 + 1024;
    if (cap < need || !o->tmp) cap = need > 1024 ? need : 1024;
    if (cap > (size_t)UINT32_MAX) cap = UINT32_MAX;
    uint32_t *p;
    if (o->lent) {
        /* The other half still writes into the shared buffer: leave it where it is. */
        if ((p = xmalloc(cap, sizeof *p))) memcpy(p, o->tmp, o->n_tmp * sizeof *p);
    } else {
        p = xrealloc(o->tmp, cap * sizeof *p);
    }
    if (!p) return oom(o->err);
    o->lent = false;
    o->tmp = p;
    o->cap_tmp = cap;
    return 0;
}

/* Opens left row gl's run at the end of tmp (each left row has at most one run). */
static void run_open(Out *o, uint32_t gl) {
    if ((int64_t)gl <= o->last_left) o->in_order = false;
    o->last_left = gl;
    o->cstart[gl] = (uint32_t)o->n_tmp;
}
static void run_close(Out *o, uint32_t gl) { o->clen[gl] = (uint32_t)(o->n_tmp - o->cstart[gl]); }

static inline int run_push(Out *o, uint32_t gr) {
    if (o->n_tmp == o->cap_tmp && tmp_grow(o, 1) != 0) return -1;
    if (o->n_tmp >= UINT32_MAX) return out_limit(o, 1);
    o->tmp[o->n_tmp++] = gr;
    return 0;
}

/* Reserves a run of cnt rows for left row gl (tmp must have room); returns its offset. */
static uint32_t run_reserve(Out *o, uint32_t gl, size_t cnt) {
    run_open(o, gl);
    o->n_tmp += cnt;
    run_close(o, gl);
    return o->cstart[gl];
}

static int extra_push(Out *o, uint32_t gl, uint32_t gr) {
    if (o->n_x == o->cap_x) {
        if (out_limit(o, 1) != 0) return -1;
        size_t cap = o->cap_x ? o->cap_x + o->cap_x / 2 + 1 : 256;
        uint32_t *a = xrealloc(o->xl, cap * sizeof *a);
        if (!a) return oom(o->err);
        o->xl = a;
        uint32_t *b = xrealloc(o->xr, cap * sizeof *b);
        if (!b) return oom(o->err);
        o->xr = b;
        o->cap_x = cap;
    }
    if (out_limit(o, 1) != 0) return -1;
    o->xl[o->n_x] = gl;
    o->xr[o->n_x] = gr;
    o->n_x++;
    return 0;
}

/* Fills left[] and sorts the runs of left rows [a, b), which start at right + pos. */
typedef struct {
    const uint32_t *clen;
    uint32_t *left, *right;
    size_t a, b, pos;
    size_t end;           /* the other task writes from here on */
} RunFix;

/* v[a], v[b] in order, without a branch. */
static inline void order2(uint32_t *v, int a, int b) {
    uint32_t x = v[a], y = v[b];
    v[a] = x < y ? x : y;
    v[b] = x < y ? y : x;
}

/* left has RUN_SLACK words of room past its end, so a run of up to RUN_SLACK rows gets its left
 * column in one fixed-length store, which the next runs overwrite (except near the end of a
 * task's part, where the other task writes). An optimisation, as are the sorting networks of
 * the runs of 2 to 4 rows: most runs are that short, and the loops mispredicted their length. */
#define RUN_SLACK 4

static int fix_runs(void *p) {
    RunFix *f = p;
    uint32_t *scratch = NULL;
    size_t cap = 0, pos = f->pos;
    for (size_t l = f->a; l < f->b; l++) {
        uint32_t c = f->clen[l];
        uint32_t *lp = f->left + pos, *v = f->right + pos;
        if (c <= RUN_SLACK && pos + RUN_SLACK <= f->end) {
            for (int t = 0; t < RUN_SLACK; t++) lp[t] = (uint32_t)l;
            if (c == 2) {
                order2(v, 0, 1);
            } else if (c == 3) {
                order2(v, 0, 1), order2(v, 1, 2), order2(v, 0, 1);
            } else if (c == 4) {
                order2(v, 0, 1), order2(v, 2, 3), order2(v, 0, 2), order2(v, 1, 3);
                order2(v, 1, 2);
            }
            pos += c;
            continue;
        }
        for (uint32_t t = 0; t < c; t++) lp[t] = (uint32_t)l;
        if (c > 48 && c > cap) {
            xfree(scratch);
            cap = c;
            scratch = xmalloc(cap, sizeof *scratch);
            if (!scratch) return -1;
        }
        if (c > 1) sort_run(f->right + pos, c, scratch);
        pos += c;
    }
    xfree(scratch);
    return 0;
}

/* Copies the runs of left rows [a, b) to right + pos on, in left order, with room after each
 * for its extra pairs (cur[l]: their count, then where they go); clen becomes the full length. */
typedef struct {
    Out *o;
    uint32_t *right, *cur;
    size_t a, b, pos;
} RunCopy;

static int copy_runs(void *p) {
    RunCopy *c = p;
    const uint32_t *tmp = c->o->tmp, *cstart = c->o->cstart;
    uint32_t *clen = c->o->clen, *cur = c->cur, *right = c->right;
    size_t pos = c->pos;
    for (size_t l = c->a; l < c->b; l++) {
        if (l + SW_AHEAD < c->b && clen[l + SW_AHEAD])
            __builtin_prefetch(tmp + cstart[l + SW_AHEAD]);
        uint32_t n = clen[l];
        if (n) {   /* tmp is NULL when only extra pairs exist */
            const uint32_t *src = tmp + cstart[l];
            for (uint32_t t = 0; t < n; t++) right[pos + t] = src[t];
        }
        size_t all = (size_t)n + cur[l];
        cur[l] = (uint32_t)(pos + n); /* where the extras go */
        clen[l] = (uint32_t)all;
        pos += all;
    }
    return 0;
}

/* Lays the runs (and the extra pairs) out in left order, each run sorted, into res. */
static int assemble(Out *o, size_t n_left, IjPairs *res) {
    size_t total = o->n_tmp + o->n_x;
    res->n = res->cap = 0;
    if (total == 0) return 0;
    uint32_t *left = xmalloc(total + RUN_SLACK, sizeof *left);
    if (!left) return oom(o->err);
    uint32_t *right;
    if (o->n_x == 0 && o->in_order) {
        /* The runs already lie in left order, back to back: tmp is the result. */
        right = o->tmp;
        o->tmp = NULL;
    } else {
        right = xmalloc(total, sizeof *right);
        uint32_t *cur = xcalloc(n_left, sizeof *cur);
        if (!right || !cur) {
            xfree(left);
            xfree(right);
            xfree(cur);
            return oom(o->err);
        }
        for (size_t i = 0; i < o->n_x; i++) cur[o->xl[i]]++;
        /* The two halves of the left rows copy side by side when large. */
        size_t mid = n_left / 2, pos_mid = 0;
        for (size_t l = 0; l < mid; l++) pos_mid += (size_t)o->clen[l] + cur[l];
        RunCopy c1 = {o, right, cur, 0, mid, 0}, c2 = {o, right, cur, mid, n_left, pos_mid};
        Task t1 = {copy_runs, &c1, 0}, t2 = {copy_runs, &c2, 0};
        run_two(&t1, &t2, total >= PARALLEL_ROWS);
        for (size_t i = 0; i < o->n_x; i++) right[cur[o->xl[i]]++] = o->xr[i];
        xfree(cur);
        xfree(o->tmp);
        o->tmp = NULL;
    }
    /* Two halves of the left rows, side by side when large. */
    size_t mid = n_left / 2, pos_mid = 0;
    for (size_t l = 0; l < mid; l++) pos_mid += o->clen[l];
    RunFix f1 = {o->clen, left, right, 0, mid, 0, pos_mid};
    RunFix f2 = {o->clen, left, right, mid, n_left, pos_mid, total + RUN_SLACK};
    Task t1 = {fix_runs, &f1, 0}, t2 = {fix_runs, &f2, 0};
    if (run_two(&t1, &t2, total >= PARALLEL_ROWS) != 0) {
        xfree(left);
        xfree(right);
        return oom(o->err);
    }
    res->left = left;
    res->right = right;
    res->n = res->cap = total;
    return 0;
}

/* ---- one partition's rows ------------------------------------------------------------------- */

typedef struct {
    const int64_t *s, *e;
    const uint32_t *gid;   /* local row -> input row; NULL: the same */
    size_t n;
} Sub;

static inline uint32_t gid_of(const Sub *x, size_t i) { return x->gid ? x->gid[i] : (uint32_t)i; }

/* ---- engine a: endpoint hash (equal shared endpoint, range on the other) -------------------- */

/* Right row's keys: k1 the shared endpoint, k2 the other. */
static void eq_point(IjRelation rel, int64_t rs, int64_t re, int64_t *k1, int64_t *k2) {
    bool end_shared = rel == IJ_MET_BY || rel == IJ_FINISHES || rel == IJ_FINISHED_BY;
    *k1 = end_shared ? re : rs;
    *k2 = end_shared ? rs : re;
}

/* Left row's query: k1 == q1 and k2 in [lo, hi]; false when no right row can match. */
static bool eq_query(IjRelation rel, int64_t ls, int64_t le, int64_t *q1, int64_t *lo,
                     int64_t *hi) {
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    switch (rel) {
    case IJ_MEETS: *q1 = le; return true;
    case IJ_MET_BY: *q1 = ls; return true;
    case IJ_STARTS: *q1 = ls; return above(le, lo);
    case IJ_STARTED_BY: *q1 = ls; return below(le, hi);
    case IJ_FINISHES: *q1 = le; return below(ls, hi);
    case IJ_FINISHED_BY: *q1 = le; return above(ls, lo);
    case IJ_EQUALS: *q1 = ls; *lo = *hi = le; return true;
    case IJ_INTERSECTS: case IJ_PRECEDES: case IJ_PRECEDED_BY: case IJ_OVERLAPS:
    case IJ_OVERLAPPED_BY: case IJ_DURING: case IJ_CONTAINS: case IJ_N_RELATIONS: break;
    }
    *q1 = 0;
    return false; /* not an endpoint-merge relation */
}

static size_t lower_bound(const int64_t *a, size_t lo, size_t hi, int64_t x) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* One right row in the hash table: its keys and its input row. */
typedef struct {
    int64_t k1, k2;     /* the shared endpoint; the other (0 for MEETS, MET_BY: no range) */
    uint32_t row;       /* input row (global id) */
    uint32_t bucket;    /* while the table is built */
} EqEntry;

/* A bucket of more entries than this is sorted by (k1, k2, row) and binary-searched, so that
 * no left row scans more than this many entries that it may not match. */
#define EQ_SCAN_MAX 32

/* Bucket of (k1) or, for EQUALS, of (k1, k2): the top bits of a multiplicative hash. */
static inline uint32_t eq_hash(int64_t k1, int64_t k2, bool pair, int shift) {
    uint64_t x = flip(k1) * 0x9E3779B97F4A7C15ULL;
    if (pair) x = (x ^ flip(k2)) * 0xC2B2AE3D27D4EB4FULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    return (uint32_t)(x >> shift);
}

static int eq_entry_cmp(const void *pa, const void *pb) {
    const EqEntry *a = pa, *b = pb;
    if (a->k1 != b->k1) return a->k1 < b->k1 ? -1 : 1;
    if (a->k2 != b->k2) return a->k2 < b->k2 ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* In e[lo, hi) sorted by (k1, k2): the first entry not below (k1, k2), or with after the first
 * entry above it. */
static size_t eq_search(const EqEntry *e, size_t lo, size_t hi, int64_t k1, int64_t k2,
                        bool after) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const EqEntry *x = &e[mid];
        if (x->k1 < k1 || (x->k1 == k1 && (after ? x->k2 <= k2 : x->k2 < k2))) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The built table and what a probe needs of the relation. */
typedef struct {
    IjRelation rel;
    const Sub *L;
    const EqEntry *E;
    const uint32_t *st;     /* bucket b is E[st[b], st[b + 1]) */
    int shift;
    bool ranged, pair;
    size_t big;             /* the largest sorted bucket */
} EqTable;

typedef struct {
    const EqTable *t;
    Out *o;
    size_t a, b;            /* the left rows to probe */
} EqProbe;

static inline uint32_t eq_left_hash(const EqTable *t, size_t i) {
    int64_t q1, lo, hi;
    eq_query(t->rel, t->L->s[i], t->L->e[i], &q1, &lo, &hi);
    return eq_hash(q1, lo, t->pair, t->shift);
}

/* Distance of the probe's prefetches: bucket offsets EQ_AHEAD rows ahead, entries half that. */
#define EQ_AHEAD 16

/* How many right rows left row i matches (the probe's test without its output). */
static size_t eq_count(const void *pt, size_t i) {
    const EqTable *t = pt;
    int64_t q1, lo, hi;
    if (!eq_query(t->rel, t->L->s[i], t->L->e[i], &q1, &lo, &hi)) return 0;
    uint32_t h = eq_hash(q1, lo, t->pair, t->shift);
    size_t s = t->st[h], e = t->st[h + 1], c = 0;
    if (e - s > EQ_SCAN_MAX)
        return eq_search(t->E, s, e, q1, hi, true) - eq_search(t->E, s, e, q1, lo, false);
    for (size_t u = s; u < e; u++)
        c += t->E[u].k1 == q1 && t->E[u].k2 >= lo && t->E[u].k2 <= hi;
    return c;
}

/* Room for the pairs of left rows [a, b) of n, from the counts of an evenly spaced sample of the
 * left rows, with a margin (an optimisation: each regrowth of a run buffer copies it). */
static size_t sampled_room(size_t (*count)(const void *, size_t), const void *t, size_t n,
                           size_t a, size_t b) {
    enum { SAMPLE = 2048 };
    if (n == 0 || b <= a) return 0;
    size_t step = n > SAMPLE ? n / SAMPLE : 1, seen = 0, c = 0;
    for (size_t i = step / 2; i < n; i += step, seen++) c += count(t, i);
    /* At most 4 pairs a row up front: a sample that hits a hot key must not reserve memory
     * the join never uses (beyond that, the buffer grows as it fills). */
    double est = (double)c / (double)seen * 1.1, cap = 4.0;
    return (size_t)((est < cap ? est : cap) * (double)(b - a)) + 4096;
}

/* Probes the left rows [a, b) in row order; each collects its bucket's matches into its run, in
 * right row order. */
static int eq_probe(void *p) {
    EqProbe *pr = p;
    const EqTable *t = pr->t;
    const EqEntry *E = t->E;
    const uint32_t *st = t->st;
    Out *o = pr->o;
    const Sub *L = t->L;
    int rc = -1;
    uint32_t *scratch = NULL;
    if (t->ranged && t->big > 48 && !(scratch = xmalloc(t->big, sizeof *scratch))) {
        oom(o->err);
        return -1;
    }
    /* Optimisation: bucket offsets and then entries are prefetched ahead of their row (the
     * probe is bound by these two cache misses per row otherwise). ring[i % EQ_AHEAD] holds
     * row i's bucket from EQ_AHEAD rows before i on. */
    uint32_t ring[EQ_AHEAD];
    for (size_t i = pr->a; i < pr->b && i < pr->a + EQ_AHEAD; i++) {
        ring[i % EQ_AHEAD] = eq_left_hash(t, i);
        __builtin_prefetch(&st[ring[i % EQ_AHEAD]]);
    }
    for (size_t i = pr->a; i < pr->b; i++) {
        uint32_t h = ring[i % EQ_AHEAD];
        if (i + EQ_AHEAD < pr->b) {
            uint32_t h2 = eq_left_hash(t, i + EQ_AHEAD);
            ring[i % EQ_AHEAD] = h2;
            __builtin_prefetch(&st[h2]);
        }
        if (i + EQ_AHEAD / 2 < pr->b) __builtin_prefetch(&E[st[ring[(i + EQ_AHEAD / 2) % EQ_AHEAD]]]);
        int64_t q1, lo, hi;
        if (!eq_query(t->rel, L->s[i], L->e[i], &q1, &lo, &hi)) continue;
        size_t s = st[h], e = st[h + 1];
        if (s == e) continue;
        uint32_t gl = gid_of(L, i);
        if (e - s > EQ_SCAN_MAX) {
            /* Sorted by (k1, k2, row): the matches are one slice, in row order within a k2. */
            size_t x = eq_search(E, s, e, q1, lo, false), z = eq_search(E, x, e, q1, hi, true);
            if (x == z) continue;
            if (tmp_grow(o, z - x) != 0) goto done;
            uint32_t *dst = o->tmp + run_reserve(o, gl, z - x);
            for (size_t u = x; u < z; u++) dst[u - x] = E[u].row;
            if (t->ranged) sort_run(dst, z - x, scratch);
            continue;
        }
        if (o->cap_tmp - o->n_tmp < e - s) {
            size_t c = 0;
            for (size_t u = s; u < e; u++) c += E[u].k1 == q1 && E[u].k2 >= lo && E[u].k2 <= hi;
            if (tmp_grow(o, c) != 0) goto done;
        }
        uint32_t *dst = o->tmp + o->n_tmp, *d = dst;
        for (size_t u = s; u < e; u++) {
            const EqEntry *x = &E[u];
            if (x->k1 == q1 && x->k2 >= lo && x->k2 <= hi) *d++ = x->row;
        }
        if (d == dst) continue;
        run_open(o, gl);
        o->n_tmp += (size_t)(d - dst);
        run_close(o, gl);
    }
    rc = 0;
done:
    xfree(scratch);
    return rc;
}

/* The two halves of a probe write into one buffer: o (the first half's rows) from its end, with
 * room g1, and o2 (the second half's, an Out of its own) from g1 further on, with room g2. When
 * both guesses hold, closing the gap is one move within memory already touched; a half that
 * outgrows its share moves to a buffer of its own. (An optimisation: appending a second buffer
 * cost a fresh buffer for the whole result and a copy of the first half.) *shared is the buffer
 * while o2 may still write into it. */
static int halves_open(Out *o, Out *o2, size_t g1, size_t g2, uint32_t **shared,
                       size_t *shared_cap) {
    size_t limit = (size_t)UINT32_MAX - o->n_tmp - o->n_x;
    if (g1 > limit) g1 = limit;
    if (g2 > limit - g1) g2 = limit - g1;
    if (tmp_grow(o, g1 + g2) != 0) return -1;
    *shared = o->tmp;
    *shared_cap = o->cap_tmp;
    o2->tmp = o->tmp + o->n_tmp + g1;
    o2->cap_tmp = o->cap_tmp - o->n_tmp - g1;
    o2->n_tmp = 0;
    o2->lent = o->lent = true;
    o->cap_tmp = o->n_tmp + g1;
    return 0;
}

/* Moves o2's runs (whose left rows are L's [i0, i1), or with ord the rows ord[i0, i1)) to the
 * end of o, and ends the sharing of halves_open. */
static int halves_close(Out *o, Out *o2, uint32_t *shared, size_t shared_cap, const Sub *L,
                        const uint32_t *ord, size_t i0, size_t i1) {
    if (o->tmp == shared) {
        /* o never moved: all of the shared buffer is o's again. */
        o->lent = false;
        o->cap_tmp = shared_cap;
        shared = NULL;
    }
    int rc = 0;
    if (o2->n_tmp) {
        if (tmp_grow(o, o2->n_tmp) != 0) {
            rc = -1;
        } else {
            uint32_t off = (uint32_t)o->n_tmp;
            memmove(o->tmp + o->n_tmp, o2->tmp, o2->n_tmp * sizeof *o->tmp);
            o->n_tmp += o2->n_tmp;
            for (size_t i = i0; i < i1; i++) {
                uint32_t gl = gid_of(L, ord ? ord[i] : i);
                if (o->clen[gl]) o->cstart[gl] += off;
            }
            if (!o2->in_order) o->in_order = false;
            o->last_left = o2->last_left;
        }
    }
    if (!o2->lent) xfree(o2->tmp);
    o2->tmp = NULL;
    o2->n_tmp = o2->cap_tmp = 0;
    xfree(shared);
    return rc;
}

/* Runs probe over L's rows [0, mid) into o and, when par, [mid, n) into o2 at the same time,
 * each with room for its sampled share (count estimates a row's pairs), then moves o2's runs
 * after o's. With ord the probes take the rows in that order (positions [0, mid) and
 * [mid, n) of ord). o2 is set up by the caller; on an error o2 owns nothing. */
static int probe_halves(Out *o, Out *o2, const Sub *L, const uint32_t *ord,
                        size_t (*count)(const void *, size_t), const void *tab,
                        int (*probe)(void *), void *p1, void *p2, size_t mid, bool par) {
    size_t n = L->n, g1 = sampled_room(count, tab, n, 0, mid);
    if (!par) {
        size_t limit = (size_t)UINT32_MAX - o->n_tmp - o->n_x;
        if (tmp_grow(o, g1 < limit ? g1 : limit) != 0) return -1;
        return probe(p1);
    }
    uint32_t *shared;
    size_t shared_cap;
    if (halves_open(o, o2, g1, sampled_room(count, tab, n, mid, n), &shared, &shared_cap) != 0)
        return -1;
    Task t1 = {probe, p1, 0}, t2 = {probe, p2, 0};
    int rc = run_two(&t1, &t2, true);
    if (rc != 0 && t2.rc && o->err && o->err->code == RX_OK) *o->err = *o2->err;
    if (rc != 0) o2->n_tmp = 0; /* the result is abandoned: close only frees */
    if (halves_close(o, o2, shared, shared_cap, L, ord, mid, n) != 0) return -1;
    return rc;
}

/* The buckets of a part: 2^EQ_PART_BITS of them (their counters and entries stay in the cache),
 * at most 2^EQ_PARTS_MAX_BITS parts (the first pass writes to each part's end at once). */
#define EQ_PART_BITS 12
#define EQ_PARTS_MAX_BITS 10

/* Lays out the entries of parts [p0, p1): st[b] is bucket b's first entry in E. */
typedef struct {
    const EqEntry *P;
    const size_t *pst;
    uint32_t *st;
    EqEntry *E;
    int lshift;
    size_t p0, p1;
} EqBuild;

static int eq_build(void *arg) {
    EqBuild *b = arg;
    size_t nbk = (size_t)1 << b->lshift, mask = nbk - 1;
    uint32_t *cur = xmalloc(nbk, sizeof *cur);
    if (!cur) return -1;
    const EqEntry *P = b->P;
    for (size_t q = b->p0; q < b->p1; q++) {
        size_t t0 = b->pst[q], t1 = b->pst[q + 1];
        uint32_t *st = b->st + (q << b->lshift);
        memset(cur, 0, nbk * sizeof *cur);
        for (size_t t = t0; t < t1; t++) cur[P[t].bucket & mask]++;
        uint32_t run = (uint32_t)t0;
        for (size_t k = 0; k < nbk; k++) {
            uint32_t c = cur[k];
            st[k] = cur[k] = run;
            run += c;
        }
        for (size_t t = t0; t < t1; t++) b->E[cur[P[t].bucket & mask]++] = P[t];
    }
    xfree(cur);
    return 0;
}

static int eq_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    bool ranged = rel != IJ_MEETS && rel != IJ_MET_BY;
    bool pair = rel == IJ_EQUALS;
    int bits = bits_for(m);
    if (bits < 1) bits = 1;
    if (bits > 30) bits = 30;
    int shift = 64 - bits;
    size_t nb = (size_t)1 << bits;
    int rc = -1;
    uint32_t *hb = xmalloc(m, sizeof *hb), *st = xcalloc(nb + 2, sizeof *st);
    EqEntry *E = xmalloc(m, sizeof *E);
    EqEntry *P = NULL;    /* the entries by part, in row order within a part */
    size_t *pst = NULL;   /* part q is P[pst[q], pst[q + 1]) */
    Out o2;
    memset(&o2, 0, sizeof o2);
    RxError err2;
    memset(&err2, 0, sizeof err2);
    if (!hb || !st || !E) {
        oom(o->err);
        goto done;
    }
    /* 1. Bucket every right row; a stable counting sort lays the buckets out in row order:
     *    bucket b is E[st[b], st[b + 1]). Two passes (an optimisation: one pass over all the
     *    buckets misses the cache on every row once the table outgrows it): the rows are
     *    first split by the top bits of their bucket into parts of EQ_PART_BUCKETS buckets,
     *    each of which is then counted and laid out within the cache, the parts of either
     *    half of the rows side by side. */
    int lshift = bits > EQ_PART_BITS ? EQ_PART_BITS : bits, pb = bits - lshift;
    if (pb > EQ_PARTS_MAX_BITS) {
        pb = EQ_PARTS_MAX_BITS;
        lshift = bits - pb;
    }
    size_t np = (size_t)1 << pb;
    pst = xcalloc(np + 1, sizeof *pst);
    P = xmalloc(m, sizeof *P);
    if (!pst || !P) {
        oom(o->err);
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        int64_t k1, k2;
        eq_point(rel, R->s[j], R->e[j], &k1, &k2);
        hb[j] = eq_hash(k1, k2, pair, shift);
        pst[(hb[j] >> lshift) + 1]++;
    }
    for (size_t q = 0; q < np; q++) pst[q + 1] += pst[q];
    {
        size_t *pos = xmalloc(np, sizeof *pos);
        if (!pos) {
            oom(o->err);
            goto done;
        }
        memcpy(pos, pst, np * sizeof *pos);
        for (size_t j = 0; j < m; j++) {
            if (j + EQ_AHEAD < m) __builtin_prefetch(&P[pos[hb[j + EQ_AHEAD] >> lshift]], 1);
            EqEntry *x = &P[pos[hb[j] >> lshift]++];
            eq_point(rel, R->s[j], R->e[j], &x->k1, &x->k2);
            if (!ranged) x->k2 = 0;
            x->row = gid_of(R, j);
            x->bucket = hb[j];
        }
        xfree(pos);
    }
    xfree(hb);
    hb = NULL;
    size_t half = 0;
    while (half < np && pst[half] < m / 2) half++;
    EqBuild b1 = {P, pst, st, E, lshift, 0, half}, b2 = {P, pst, st, E, lshift, half, np};
    Task tb1 = {eq_build, &b1, 0}, tb2 = {eq_build, &b2, 0};
    if (run_two(&tb1, &tb2, m >= 2 * PARALLEL_ROWS) != 0) {
        oom(o->err);
        goto done;
    }
    st[nb] = st[nb + 1] = (uint32_t)m;
    xfree(P);
    P = NULL;
    /* 2. Large buckets are sorted, so that their left rows binary-search them. */
    size_t big = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t sz = st[b + 1] - st[b];
        if (sz <= EQ_SCAN_MAX) continue;
        qsort(E + st[b], sz, sizeof *E, eq_entry_cmp);
        if (sz > big) big = sz;
    }
    /* 3. Probe, the two halves of the left rows side by side when large (each into its share
     *    of one buffer, see halves_open), each with room for its sampled share of the result. */
    EqTable tab = {rel, L, E, st, shift, ranged, pair, big};
    bool par = n >= 2 * PARALLEL_ROWS;
    size_t mid = par ? n / 2 : n;
    o2.cstart = o->cstart;
    o2.clen = o->clen;
    o2.in_order = true;
    o2.last_left = o->last_left;
    o2.err = &err2;
    o2.n_x = o->n_tmp + o->n_x; /* counts against the result limit */
    EqProbe p1 = {&tab, o, 0, mid}, p2 = {&tab, &o2, mid, n};
    if (probe_halves(o, &o2, L, NULL, eq_count, &tab, eq_probe, &p1, &p2, mid, par) != 0)
        goto done;
    rc = 0;
done:
    xfree(hb); xfree(st); xfree(E); xfree(P); xfree(pst);
    return rc;
}

/* ---- engine b: band (right key above a left threshold) -------------------------------------- */

static int band_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    /* PRECEDES: le < rs. PRECEDED_BY: ls > re, i.e. ~re > ~ls (~ reverses order). */
    bool pre = rel == IJ_PRECEDES;
#define BAND_X(j) (pre ? R->s[j] : ~R->e[j])
#define BAND_T(i) (pre ? L->e[i] : ~L->s[i])
    /* Pruning (an optimisation): a left row whose threshold is at least the largest x matches
     * nothing, and a right row whose x is at most the smallest threshold matches nothing. The
     * candidates are listed compactly (in row order), so that every array below is as long as
     * the candidates, not the inputs: on data where few rows can match, the join touches
     * little memory besides its result. */
    int64_t xmax = INT64_MIN, tmin = INT64_MAX;
    for (size_t j = 0; j < m; j++) {
        int64_t x = BAND_X(j);
        if (x > xmax) xmax = x;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t t = BAND_T(i);
        if (t < tmin) tmin = t;
    }
    size_t nc = 0, mc = 0;
    for (size_t i = 0; i < n; i++) nc += BAND_T(i) < xmax;
    for (size_t j = 0; j < m; j++) mc += BAND_X(j) > tmin;
    if (nc == 0 || mc == 0) return 0;
    int64_t *x = xmalloc(mc, sizeof *x), *X = xmalloc(mc, sizeof *X);
    int64_t *th = xmalloc(nc, sizeof *th), *T = xmalloc(nc, sizeof *T);
    uint32_t *gr = xmalloc(mc, sizeof *gr), *cl = xmalloc(nc, sizeof *cl);
    uint32_t *xid = xmalloc(mc, sizeof *xid), *tid = xmalloc(nc, sizeof *tid);
    uint32_t *cnt = xmalloc(nc, sizeof *cnt);
    uint32_t *nxt = xmalloc(mc + 1, sizeof *nxt), *prv = xmalloc(mc + 1, sizeof *prv);
    if (!x || !X || !th || !T || !gr || !cl || !xid || !tid || !cnt || !nxt || !prv) {
        oom(o->err);
        goto done;
    }
    nc = mc = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t t = BAND_T(i);
        if (t < xmax) {
            cl[nc] = (uint32_t)i;
            th[nc++] = t;
        }
    }
    for (size_t j = 0; j < m; j++) {
        int64_t v = BAND_X(j);
        if (v > tmin) {
            gr[mc] = gid_of(R, j);
            x[mc++] = v;
        }
    }
#undef BAND_X
#undef BAND_T
    /* Candidates by x and by threshold; xid and tid are candidate indexes. */
    SortJob jx = {x, NULL, mc, xid, X, NULL}, jt = {th, NULL, nc, tid, T, NULL};
    if (sort_two(&jx, &jt) != 0) {
        oom(o->err);
        goto done;
    }
    size_t j = 0, total = 0;
    for (size_t t = 0; t < nc; t++) {
        while (j < mc && X[j] <= T[t]) j++;
        cnt[tid[t]] = (uint32_t)(mc - j);
        total += mc - j;
    }
    if (tmp_grow(o, total) != 0) goto done;
    for (size_t c = 0; c < nc; c++)
        cnt[c] = cnt[c] ? run_reserve(o, gid_of(L, cl[c]), cnt[c]) : UINT32_MAX;
    /* Doubly linked list of the candidate right rows in row order; mc is the head. */
    for (size_t c = 0; c < mc; c++) {
        nxt[c] = (uint32_t)c + 1;
        prv[c + 1] = (uint32_t)c;
    }
    nxt[mc] = 0;
    prv[0] = (uint32_t)mc;
    j = 0;
    for (size_t t = 0; t < nc; t++) {
        while (j < mc && X[j] <= T[t]) {
            uint32_t r = xid[j++];
            nxt[prv[r]] = nxt[r];
            prv[nxt[r]] = prv[r];
        }
        uint32_t off = cnt[tid[t]];
        if (off == UINT32_MAX) continue;
        uint32_t *dst = o->tmp + off;
        for (uint32_t r = nxt[mc]; r != mc; r = nxt[r]) *dst++ = gr[r];
    }
    rc = 0;
done:
    xfree(x); xfree(X); xfree(th); xfree(T); xfree(gr); xfree(cl); xfree(xid); xfree(tid); xfree(cnt);
    xfree(nxt); xfree(prv);
    return rc;
}

/* ---- engine c: dominance sweep -------------------------------------------------------------- */

/* Right row's coordinates (x, y) for rel. */
static void dom_point(IjRelation rel, int64_t rs, int64_t re, int64_t *x, int64_t *y) {
    /* INTERSECTS, OVERLAPS, DURING: (rs, re). */
    *x = rel == IJ_OVERLAPPED_BY ? re : rs;
    *y = rel == IJ_OVERLAPPED_BY ? ~rs : rel == IJ_CONTAINS ? ~re : re;
}

/* Left row's query x in [xlo, xhi], y >= ymin; false when it is empty. */
static bool dom_query(IjRelation rel, int64_t ls, int64_t le, int64_t *xlo, int64_t *xhi,
                      int64_t *ymin) {
    *xlo = INT64_MIN;
    *xhi = INT64_MAX;
    bool ok = false;
    switch (rel) {
    case IJ_INTERSECTS: /* rs < le, re > ls */
        ok = below(le, xhi) && above(ls, ymin);
        break;
    case IJ_OVERLAPS: /* ls < rs < le, re > le */
        ok = above(ls, xlo) && below(le, xhi) && above(le, ymin);
        break;
    case IJ_OVERLAPPED_BY: /* ls < re < le, rs < ls: ~rs > ~ls */
        ok = above(ls, xlo) && below(le, xhi) && above(~ls, ymin);
        break;
    case IJ_DURING: /* rs < ls, re > le */
        ok = below(ls, xhi) && above(le, ymin);
        break;
    case IJ_CONTAINS: /* rs > ls, re < le: ~re > ~le */
        ok = above(ls, xlo) && above(~le, ymin);
        break;
    case IJ_PRECEDES: case IJ_PRECEDED_BY: case IJ_MEETS: case IJ_MET_BY: case IJ_STARTS:
    case IJ_STARTED_BY: case IJ_FINISHES: case IJ_FINISHED_BY: case IJ_EQUALS:
    case IJ_N_RELATIONS: ok = false; break; /* not a dominance relation */
    }
    return ok && *xlo <= *xhi;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The dominance sweep's gathers: the x position of each right row in y order, and the union-find
 * roots (dom_gather_x); each query's bounds and row in sweep order (dom_gather_q: xlo into
 * qmin, whose sorted values live on in QM, xhi into qlo). */
typedef struct {
    const uint32_t *xo;
    uint32_t *posx, *yo, *parent;
    size_t np;
    int64_t *qlo, *qhi, *qmin;
    const uint32_t *qid;
    uint32_t *qo;
    size_t nk;
} DomGather;

static int dom_gather_x(void *p) {
    DomGather *g = p;
    for (size_t t = 0; t < g->np; t++) g->posx[g->xo[t]] = (uint32_t)t;
    for (size_t t = 0; t <= g->np; t++) g->parent[t] = (uint32_t)t;
    for (size_t j = 0; j < g->np; j++) g->yo[j] = g->posx[g->yo[j]];
    return 0;
}

static int dom_gather_q(void *p) {
    DomGather *g = p;
    for (size_t t = 0; t < g->nk; t++) g->qmin[t] = g->qlo[g->qo[t]];
    for (size_t t = 0; t < g->nk; t++) g->qlo[t] = g->qhi[g->qo[t]];
    for (size_t t = 0; t < g->nk; t++) g->qo[t] = g->qid[g->qo[t]];
    return 0;
}

/* One stretch [t0, t1) of the dominance sweep's queries (in ymin order), with its own
 * union-find (parent; initialised here when init_parent) and output. First every query's lower
 * bound in X (X does not change): the fence, then the 64-key block, which is prefetched
 * DOM_AHEAD queries ahead (an optimisation, as are the sweep's prefetches: these loads miss the
 * cache at 4M rows, and one after another they left the core waiting). Then the sweep: before
 * each query the right rows with y below its ymin are deleted, then it walks the alive x
 * positions from its bound up to its xhi. */
#define DOM_AHEAD 8
typedef struct {
    const Sub *L, *R;
    const uint32_t *pr;
    const int64_t *X, *Y, *QM, *slo, *shi, *fence;
    const uint32_t *xo, *yo, *qo;
    uint32_t *qp, *parent;
    size_t np, nf, t0, t1;
    Out *o;
    bool extra, init_parent;
} DomSweep;

static int dom_sweep(void *p) {
    DomSweep *d = p;
    const int64_t *X = d->X, *Y = d->Y;
    const uint32_t *xo = d->xo, *yo = d->yo;
    uint32_t *qp = d->qp, *parent = d->parent;
    size_t np = d->np, nf = d->nf, t1 = d->t1;
    Out *o = d->o;
    if (d->init_parent)
        for (size_t t = 0; t <= np; t++) parent[t] = (uint32_t)t;
    for (size_t t = d->t0; t < t1; t++) qp[t] = (uint32_t)lower_bound(d->fence, 0, nf, d->slo[t]);
    for (size_t t = d->t0; t < t1; t++) {
        if (t + DOM_AHEAD < t1 && qp[t + DOM_AHEAD]) {
            const int64_t *b = X + (size_t)(qp[t + DOM_AHEAD] - 1) * 64;
            for (int c = 0; c < 8; c++) __builtin_prefetch(b + 8 * c);
        }
        size_t g = qp[t];
        qp[t] = (uint32_t)lower_bound(X, g ? (g - 1) * 64 : 0, g * 64 < np ? g * 64 : np, d->slo[t]);
    }
    size_t j = 0;
    for (size_t t = d->t0; t < t1; t++) {
        if (t + DOM_AHEAD < t1) {
            __builtin_prefetch(&parent[qp[t + DOM_AHEAD]]);
            __builtin_prefetch(&X[qp[t + DOM_AHEAD]]);
            __builtin_prefetch(&xo[qp[t + DOM_AHEAD]]);
        }
        while (j < np && Y[j] < d->QM[t]) {
            if (j + DOM_AHEAD < np) __builtin_prefetch(&parent[yo[j + DOM_AHEAD]], 1);
            uint32_t y = yo[j++];
            parent[y] = y + 1;
        }
        uint32_t gl = gid_of(d->L, d->qo[t]);
        int64_t hi = d->shi[t];
        uint32_t q = uf_find(parent, qp[t]);
        if (q >= np || X[q] > hi) continue;
        if (!d->extra) run_open(o, gl);
        for (; q < np && X[q] <= hi; q = uf_find(parent, q + 1)) {
            size_t r = d->pr ? d->pr[xo[q]] : xo[q];
            uint32_t gr = gid_of(d->R, r);
            if ((d->extra ? extra_push(o, gl, gr) : run_push(o, gr)) != 0) return -1;
        }
        if (!d->extra) run_close(o, gl);
    }
    return 0;
}

/* Joins the left rows ql[0..nq) (NULL: all) with the right rows pr[0..np) (NULL: all); pairs go
 * to runs (one per left row) or, with extra, to the extra pairs. */
static int dom_join(IjRelation rel, const Sub *L, const uint32_t *ql, size_t nq, const Sub *R,
                    const uint32_t *pr, size_t np, Out *o, bool extra) {
    int rc = -1;
    int64_t *px = xmalloc(np, sizeof *px), *py = xmalloc(np, sizeof *py);
    int64_t *X = xmalloc(np, sizeof *X), *Y = xmalloc(np, sizeof *Y);
    uint32_t *xo = xmalloc(np, sizeof *xo), *yo = xmalloc(np, sizeof *yo);
    uint32_t *posx = xmalloc(np, sizeof *posx), *parent = xmalloc(np + 1, sizeof *parent);
    uint32_t *parent2 = NULL;
    int64_t *qlo = xmalloc(nq, sizeof *qlo), *qhi = xmalloc(nq, sizeof *qhi);
    int64_t *qmin = xmalloc(nq, sizeof *qmin), *QM = xmalloc(nq, sizeof *QM);
    uint32_t *qid = xmalloc(nq, sizeof *qid), *qo = xmalloc(nq, sizeof *qo);
    int64_t *fence = xmalloc(np / 64 + 1, sizeof *fence);
    if (!px || !py || !X || !Y || !xo || !yo || !posx || !parent || !qlo || !qhi || !qmin ||
        !QM || !qid || !qo || !fence) {
        oom(o->err);
        goto done;
    }
    for (size_t j = 0; j < np; j++) {
        size_t r = pr ? pr[j] : j;
        dom_point(rel, R->s[r], R->e[r], &px[j], &py[j]);
    }
    size_t nk = 0;
    for (size_t i = 0; i < nq; i++) {
        size_t l = ql ? ql[i] : i;
        if (dom_query(rel, L->s[l], L->e[l], &qlo[nk], &qhi[nk], &qmin[nk]))
            qid[nk++] = (uint32_t)l;
    }
    /* x on one core; y, then the queries, on the other. py, once sorted, is the queries' radix
     * buffer (an optimisation: 8 bytes a query less of fresh memory). */
    SortJob jobs[3] = {{px, NULL, np, xo, X, NULL},
                       {py, NULL, np, yo, Y, NULL},
                       {qmin, NULL, nk, qo, QM, nk <= np ? (uint64_t *)py : NULL}};
    Task tx = {sort_job, &jobs[0], 0}, tyq = {sort_jobs_yq, &jobs[1], 0};
    if (run_two(&tx, &tyq, np >= PARALLEL_ROWS && np + nk >= 2 * PARALLEL_ROWS) != 0) {
        oom(o->err);
        goto done;
    }
    /* Optimisations, not needed for correctness: the deletion order as x positions and the
     * queries' bounds in sweep order are gathered up front (independent loads, so they overlap;
     * the right rows' on one core, the queries' on the other), and a lower bound in X first
     * searches every 64th key, which stays in cache. */
    DomGather dg = {xo, posx, yo, parent, np, qlo, qhi, qmin, qid, qo, nk};
    Task gx = {dom_gather_x, &dg, 0}, gq = {dom_gather_q, &dg, 0};
    run_two(&gx, &gq, np >= PARALLEL_ROWS && nk >= PARALLEL_ROWS);
    int64_t *slo = qmin, *shi = qlo;   /* as dom_gather_q leaves them */
    /* What the sweep no longer needs goes before the runs grow; qid becomes each query's first
     * x position (freed as qid). */
    uint32_t *qp = qid;
    xfree(px); xfree(py); xfree(posx); xfree(qhi);
    px = py = NULL;
    posx = NULL;
    qhi = NULL;
    size_t nf = (np + 63) / 64;
    for (size_t f = 0; f < nf; f++) fence[f] = X[f * 64];
    DomSweep d1 = {L, R, pr, X, Y, QM, slo, shi, fence, xo, yo, qo, qp, parent,
                   np, nf, 0, nk, o, extra, false};
    if (extra || np < PARALLEL_ROWS || nk < 2 * PARALLEL_ROWS) {
        if (dom_sweep(&d1) != 0) goto done;
    } else {
        /* Two halves of the queries on two cores: the second starts from its own union-find,
         * which its first query brings up to date (every deletion before it), and its own runs,
         * appended to the first half's after both are done. */
        RxError err2 = {0};
        Out o2;
        memset(&o2, 0, sizeof o2);
        o2.cstart = o->cstart;   /* each query is a distinct left row: disjoint entries */
        o2.clen = o->clen;
        o2.in_order = true;
        o2.last_left = -1;
        o2.err = &err2;
        parent2 = xmalloc(np + 1, sizeof *parent2);
        if (!parent2) {
            oom(o->err);
            goto done;
        }
        size_t mid = nk / 2;
        d1.t1 = mid;
        DomSweep d2 = d1;
        d2.t0 = mid;
        d2.t1 = nk;
        d2.parent = parent2;
        d2.o = &o2;
        d2.init_parent = true;
        Task ta = {dom_sweep, &d1, 0}, tb = {dom_sweep, &d2, 0};
        int rc2 = run_two(&ta, &tb, true);
        bool ok = rc2 == 0 && tmp_grow(o, o2.n_tmp) == 0;
        if (ok) {
            size_t off = o->n_tmp;
            if (o2.n_tmp) memcpy(o->tmp + off, o2.tmp, o2.n_tmp * sizeof *o2.tmp);
            o->n_tmp += o2.n_tmp;
            for (size_t t = mid; t < nk; t++) {
                uint32_t gl = gid_of(L, qo[t]);
                if (o->clen[gl]) o->cstart[gl] += (uint32_t)off;
            }
            if (o2.n_tmp) o->in_order = false;
        } else if (err2.code) {
            rx_error(o->err, err2.code, NULL, rx_span(0, 0), "%s", err2.msg);
        } else if (!o->err->code) {
            oom(o->err);
        }
        xfree(o2.tmp);
        if (!ok) goto done;
    }
    rc = 0;
done:
    xfree(px); xfree(py); xfree(X); xfree(Y); xfree(xo); xfree(yo); xfree(posx); xfree(parent);
    xfree(qlo); xfree(qhi); xfree(qmin); xfree(QM); xfree(qid); xfree(qo); xfree(fence);
    xfree(parent2);
    return rc;
}

/* The first position from h on whose key is not below x (K sorted, h <= n): eight keys at a time,
 * counted without a branch, so the loop's exit is predictable (an optimisation: the scans'
 * slices hold a few keys each, and a loop exiting after a random count mispredicted almost
 * every row). */
static inline size_t advance_below(const int64_t *K, size_t h, size_t n, int64_t x) {
    while (h + 8 <= n) {
        unsigned c = 0;
        for (int t = 0; t < 8; t++) c += K[h + t] < x;
        h += c;
        if (c < 8) return h;
    }
    while (h < n && K[h] < x) h++;
    return h;
}

/* ---- engine e: range scan (OVERLAPS, OVERLAPPED_BY) ---------------------------------------- */

/* A query whose x range holds more right rows than this goes to the dominance sweep, so that no
 * left row scans more than this many rows it may not match. */
#define RS_SCAN_MAX 64

typedef struct {
    IjRelation rel;
    const Sub *L;
    const uint32_t *LI;             /* the left rows by start */
    const int64_t *LS;              /* their starts */
    const int64_t *X, *Y;           /* x, y of the right rows in x order */
    const uint32_t *G;              /* their right rows (global ids) */
    size_t np;
    uint8_t *is_long;               /* per left row: sent to the dominance sweep */
} RangeTable;

typedef struct {
    const RangeTable *t;
    Out *o;
    size_t a, b;                    /* the positions of LI to probe */
} RangeProbe;

/* How many right rows left row i matches in the scan (0 for a row the scan leaves to the
 * dominance sweep). */
static size_t range_count(const void *pt, size_t i) {
    const RangeTable *t = pt;
    int64_t lo, hi, ymin;
    if (!dom_query(t->rel, t->L->s[i], t->L->e[i], &lo, &hi, &ymin)) return 0;
    size_t q = lower_bound(t->X, 0, t->np, lo), c = 0;
    size_t lim = t->np - q > RS_SCAN_MAX ? q + RS_SCAN_MAX : t->np, e = q;
    for (; e < lim && t->X[e] <= hi; e++) c += t->Y[e] >= ymin;
    return c;
}

/* Distance of the probe's prefetches of a left row's end and run, in rows. */
#define RS_AHEAD 16

/* Probes the left rows LI[a, b) in start order: each scans the right rows with x in [xlo, xhi]
 * and keeps those with y >= ymin; its run is in x order (assemble sorts it). xlo grows with the
 * start, so the first candidate only moves forward and the scans read X, Y and G in sequence
 * (an optimisation over probing in row order, whose scans each began at a random place:
 * OVERLAPS 1M x 1M from 0.108 s to 0.083, 4M x 4M from 0.61 to 0.43, side by side; the runs
 * then lie out of left order, and assemble copies them, unless the left rows came sorted). */
static int range_probe(void *p) {
    RangeProbe *pr = p;
    const RangeTable *t = pr->t;
    const int64_t *X = t->X, *Y = t->Y;
    const uint32_t *LI = t->LI;
    const Sub *L = t->L;
    Out *o = pr->o;
    size_t np = t->np, q = 0;
    bool started = false;
    for (size_t u = pr->a; u < pr->b; u++) {
        if (u + RS_AHEAD < pr->b) {
            uint32_t ahead = LI[u + RS_AHEAD];
            __builtin_prefetch(&L->e[ahead]);
            if (!L->gid) {
                __builtin_prefetch(&o->cstart[ahead], 1);
                __builtin_prefetch(&o->clen[ahead], 1);
            }
        }
        uint32_t i = LI[u];
        int64_t lo, hi, ymin;
        if (!dom_query(t->rel, t->LS[u], L->e[i], &lo, &hi, &ymin)) continue;
        q = started ? advance_below(X, q, np, lo) : lower_bound(X, 0, np, lo);
        started = true;
        size_t lim = np - q > RS_SCAN_MAX ? q + RS_SCAN_MAX : np;
        size_t e = q;
        while (e < lim && X[e] <= hi) e++;
        if (e == q) continue;
        if (e < np && e == q + RS_SCAN_MAX && X[e] <= hi) {
            t->is_long[i] = 1;
            continue;
        }
        if (o->cap_tmp - o->n_tmp < e - q) {
            size_t c = 0;
            for (size_t v = q; v < e; v++) c += Y[v] >= ymin;
            if (tmp_grow(o, c) != 0) return -1;
        }
        uint32_t *dst = o->tmp + o->n_tmp, *d = dst;
        for (size_t v = q; v < e; v++)
            if (Y[v] >= ymin) *d++ = t->G[v];
        if (d == dst) continue;
        uint32_t gl = gid_of(L, i);
        run_open(o, gl);
        o->n_tmp += (size_t)(d - dst);
        run_close(o, gl);
    }
    return 0;
}

static int range_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    int64_t *px = xmalloc(m, sizeof *px), *X = xmalloc(m, sizeof *X), *Y = xmalloc(m, sizeof *Y);
    int64_t *LS = xmalloc(n, sizeof *LS);
    uint32_t *G = xmalloc(m, sizeof *G), *LI = xmalloc(n, sizeof *LI), *ql = NULL;
    uint8_t *is_long = xcalloc(n, sizeof *is_long);
    Out o2;
    memset(&o2, 0, sizeof o2);
    RxError err2;
    memset(&err2, 0, sizeof err2);
    if (!px || !X || !Y || !LS || !G || !LI || !is_long) {
        oom(o->err);
        goto done;
    }
    /* 1. Right rows by x, y gathered into x order (Y holds the unsorted y first); left rows by
     *    start. The two sorts side by side. */
    for (size_t j = 0; j < m; j++) dom_point(rel, R->s[j], R->e[j], &px[j], &Y[j]);
    SortJob jr = {px, NULL, m, G, X, NULL}, jl = {L->s, NULL, n, LI, LS, NULL};
    if (sort_two(&jr, &jl) != 0) {
        oom(o->err);
        goto done;
    }
    for (size_t t = 0; t < m; t++) px[t] = Y[G[t]];
    memcpy(Y, px, m * sizeof *Y);
    xfree(px);
    px = NULL;
    if (R->gid)
        for (size_t t = 0; t < m; t++) G[t] = R->gid[G[t]];
    /* 2. Probe the left rows in start order, the two halves side by side when large (each into
     *    its share of one buffer, see halves_open), each with room for its sampled share. */
    RangeTable tab = {rel, L, LI, LS, X, Y, G, m, is_long};
    bool par = n >= 2 * PARALLEL_ROWS;
    size_t mid = par ? n / 2 : n;
    o2.cstart = o->cstart;
    o2.clen = o->clen;
    o2.in_order = true;
    o2.last_left = o->last_left;
    o2.err = &err2;
    o2.n_x = o->n_tmp + o->n_x; /* counts against the result limit */
    RangeProbe p1 = {&tab, o, 0, mid}, p2 = {&tab, &o2, mid, n};
    if (probe_halves(o, &o2, L, LI, range_count, &tab, range_probe, &p1, &p2, mid, par) != 0)
        goto done;
    /* 3. The left rows with long x ranges: the dominance sweep, which is output-sensitive. */
    xfree(X); xfree(Y); xfree(G); xfree(LI); xfree(LS);
    X = Y = LS = NULL;
    G = LI = NULL;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) nl += is_long[i];
    if (nl) {
        if (!(ql = xmalloc(nl, sizeof *ql))) {
            oom(o->err);
            goto done;
        }
        nl = 0;
        for (size_t i = 0; i < n; i++)
            if (is_long[i]) ql[nl++] = (uint32_t)i;
        if (dom_join(rel, L, ql, nl, R, NULL, m, o, false) != 0) goto done;
    }
    rc = 0;
done:
    xfree(px); xfree(X); xfree(Y); xfree(LS); xfree(G); xfree(LI); xfree(ql); xfree(is_long);
    return rc;
}

/* ---- engine d: INTERSECTS sweep over sorted starts ------------------------------------------ */

/* i indexes the sorted non-inverted left rows (LK, LI), j the sorted proper right rows (RK, RI);
 * every per-row array of the scans and fills is in one of those two orders, so that the scans
 * and fills read them in sequence. */
typedef struct {
    const Sub *L, *R;
    const int64_t *LK, *RK;
    const uint32_t *LI, *RI;
    uint32_t *lo1, *hi1;   /* by i: set 1 is the sorted right rows [lo1, hi1) */
    uint32_t *lo2, *hi2;   /* by j: set 2 is the sorted left rows [lo2, hi2) */
    uint32_t *diff;        /* by i: set 2's difference array, then where set 1 goes in tmp */
    uint32_t *cur2;        /* by i: where the next set-2 pair goes in tmp */
    uint32_t *tmp, *cnt;   /* cnt: by left row, its run's length, then its start */
    size_t n2, m1, total1, total2;
    size_t mid;            /* the sorted left rows split in halves [0, mid), [mid, n2) ... */
    uint32_t cross;        /* ... and how many set-2 slices span the split */
} SweepScan;

/* Places every start among the other side's: lo1 = #RK < LK[i]. One merge step per element of
 * either side, without a branch on the comparison (an optimisation: the comparisons of two
 * random sides are unpredictable; 1M x 1M from 8.6 ms to 5.5). */
static int place_left(void *p) {
    SweepScan *c = p;
    const int64_t *LK = c->LK, *RK = c->RK;
    uint32_t *lo1 = c->lo1;
    size_t i = 0, j = 0, n = c->n2, m = c->m1;
    while (i < n && j < m) {
        bool right_first = RK[j] < LK[i];
        lo1[i] = (uint32_t)j;
        j += right_first;
        i += !right_first;
    }
    for (; i < n; i++) lo1[i] = (uint32_t)j;
    return 0;
}

/* lo2 = #LK <= RK[j], merged the same way. */
static int place_right(void *p) {
    SweepScan *c = p;
    const int64_t *LK = c->LK, *RK = c->RK;
    uint32_t *lo2 = c->lo2;
    size_t i = 0, j = 0, n = c->n2, m = c->m1;
    while (i < n && j < m) {
        bool left_first = LK[i] <= RK[j];
        lo2[j] = (uint32_t)i;
        i += left_first;
        j += !left_first;
    }
    for (; j < m; j++) lo2[j] = (uint32_t)i;
    return 0;
}

/* Set 1: rs in [ls, le), scanned from lo1. */
static int scan_set1(void *p) {
    SweepScan *c = p;
    size_t total = 0;
    for (size_t i = 0; i < c->n2; i++) {
        if (i + SW_AHEAD < c->n2) __builtin_prefetch(&c->L->e[c->LI[i + SW_AHEAD]]);
        int64_t le = c->L->e[c->LI[i]];
        size_t h = advance_below(c->RK, c->lo1[i], c->m1, le);
        c->hi1[i] = (uint32_t)h;
        total += h - c->lo1[i];
    }
    c->total1 = total;
    return 0;
}

/* Set 2: ls in (rs, re), scanned from lo2; counted per sorted left row through a difference
 * array (O(1) per right row, not per pair). */
static int scan_set2(void *p) {
    SweepScan *c = p;
    size_t total = 0;
    uint32_t cross = 0;
    for (size_t j = 0; j < c->m1; j++) {
        if (j + SW_AHEAD < c->m1) __builtin_prefetch(&c->R->e[c->RI[j + SW_AHEAD]]);
        int64_t re = c->R->e[c->RI[j]];
        size_t q = advance_below(c->LK, c->lo2[j], c->n2, re);
        c->hi2[j] = (uint32_t)q;
        c->diff[c->lo2[j]]++;
        c->diff[q]--;
        cross += c->lo2[j] < c->mid && q >= c->mid;
        total += q - c->lo2[j];
    }
    c->total2 = total;
    c->cross = cross;
    return 0;
}

/* Each sorted left row's run length, set 1's plus set 2's (the difference array's running sum),
 * scattered to row order; the sorted rows' first half (first = true) or second, which starts
 * from the slices that span the split. */
static void scatter_half(SweepScan *c, bool first) {
    size_t a = first ? 0 : c->mid, b = first ? c->mid : c->n2;
    uint32_t run = first ? 0 : c->cross;
    for (size_t i = a; i < b; i++) {
        if (i + SW_AHEAD < b) __builtin_prefetch(&c->cnt[c->LI[i + SW_AHEAD]], 1);
        run += c->diff[i];
        c->cnt[c->LI[i]] = c->hi1[i] - c->lo1[i] + run;
    }
}
static int scatter_first(void *p) { scatter_half(p, true); return 0; }
static int scatter_second(void *p) { scatter_half(p, false); return 0; }

/* Each sorted left row's run start gathered back from row order: set 1 goes at diff[i], set 2
 * from cur2[i] on. */
static void gather_half(SweepScan *c, bool first) {
    size_t a = first ? 0 : c->mid, b = first ? c->mid : c->n2;
    for (size_t i = a; i < b; i++) {
        if (i + SW_AHEAD < b) __builtin_prefetch(&c->cnt[c->LI[i + SW_AHEAD]]);
        uint32_t base = c->cnt[c->LI[i]];
        c->diff[i] = base;
        c->cur2[i] = base + c->hi1[i] - c->lo1[i];
    }
}
static int gather_first(void *p) { gather_half(p, true); return 0; }
static int gather_second(void *p) { gather_half(p, false); return 0; }

/* Set 1's pairs: each sorted left row's slice of the sorted right rows, copied to its run. */
static int fill_set1(void *p) {
    SweepScan *c = p;
    const uint32_t *gid = c->R->gid;
    for (size_t i = 0; i < c->n2; i++) {
        if (i + SW_AHEAD < c->n2 && c->hi1[i + SW_AHEAD] > c->lo1[i + SW_AHEAD])
            __builtin_prefetch(&c->tmp[c->diff[i + SW_AHEAD]], 1);
        uint32_t n = c->hi1[i] - c->lo1[i];
        if (!n) continue;   /* tmp may be NULL when no pair exists */
        uint32_t *dst = c->tmp + c->diff[i];
        const uint32_t *src = c->RI + c->lo1[i];
        if (gid)
            for (uint32_t t = 0; t < n; t++) dst[t] = gid[src[t]];
        else
            for (uint32_t t = 0; t < n; t++) dst[t] = src[t];
    }
    return 0;
}

/* Set 2's pairs: each sorted right row appended to the runs of its slice of sorted left rows. */
static int fill_set2(void *p) {
    SweepScan *c = p;
    uint32_t *cur2 = c->cur2, *tmp = c->tmp;
    const uint32_t *lo2 = c->lo2, *hi2 = c->hi2;
    for (size_t j = 0; j < c->m1; j++) {
        if (j + SW_AHEAD < c->m1 && lo2[j + SW_AHEAD] < hi2[j + SW_AHEAD])
            __builtin_prefetch(&tmp[cur2[lo2[j + SW_AHEAD]]], 1);
        uint32_t gr = gid_of(c->R, c->RI[j]);
        for (uint32_t q = lo2[j]; q < hi2[j]; q++) tmp[cur2[q]++] = gr;
    }
    return 0;
}

static int sweep_join(const Sub *L, const Sub *R, Out *o) {
    size_t n = L->n, m = R->n;
    int rc = -1;
    /* Row classes (non-inverted / inverted left, proper / not right), listed only when a side
     * has rows of both of its classes; NULL stands for all rows. */
    size_t n2 = 0, ni = 0, m1 = 0, md = 0;
    for (size_t i = 0; i < n; i++) ni += L->s[i] > L->e[i];
    for (size_t j = 0; j < m; j++) md += R->s[j] >= R->e[j];
    uint32_t *lwe = NULL, *li = NULL, *rw = NULL, *rd = NULL;
    if (ni) {
        lwe = xmalloc(n, sizeof *lwe);
        li = xmalloc(ni, sizeof *li);
    }
    if (md) {
        rw = xmalloc(m, sizeof *rw);
        rd = xmalloc(md, sizeof *rd);
    }
    int64_t *LK = xmalloc(n, sizeof *LK), *RK = xmalloc(m, sizeof *RK);
    uint32_t *LI = xmalloc(n, sizeof *LI), *RI = xmalloc(m, sizeof *RI);
    uint32_t *lo1 = NULL, *hi1 = NULL, *cnt = NULL, *cur2 = NULL, *diff = NULL, *lo2 = NULL,
             *hi2 = NULL;
    if ((ni && (!lwe || !li)) || (md && (!rw || !rd)) || !LK || !RK || !LI || !RI) {
        oom(o->err);
        goto done;
    }
    if (ni) {
        ni = 0;
        for (size_t i = 0; i < n; i++) {
            if (L->s[i] <= L->e[i]) lwe[n2++] = (uint32_t)i;
            else li[ni++] = (uint32_t)i;
        }
    } else {
        n2 = n;
    }
    if (md) {
        md = 0;
        for (size_t j = 0; j < m; j++) {
            if (R->s[j] < R->e[j]) rw[m1++] = (uint32_t)j;
            else rd[md++] = (uint32_t)j;
        }
    } else {
        m1 = m;
    }
    /* The sorts' radix buffers become the scans' lo1, hi1 (n2 each) and lo2, hi2 (m1 each)
     * after them (an optimisation: 8 bytes a row less of fresh memory, whose first touch costs
     * this VM about 2 ms per MB). */
    uint64_t *lscr = xmalloc(n2 ? n2 : 1, sizeof *lscr), *rscr = xmalloc(m ? m : 1, sizeof *rscr);
    if (!lscr || !rscr) {
        xfree(lscr), xfree(rscr);
        oom(o->err);
        goto done;
    }
    lo1 = (uint32_t *)lscr;
    hi1 = lo1 + n2;
    lo2 = (uint32_t *)rscr;
    hi2 = lo2 + m1;
    SortJob jl = {L->s, lwe, n2, LI, LK, lscr};
    SortJob jr = {R->s, rw, m1, RI, RK, rscr};
    if (sort_two(&jl, &jr) != 0) {
        oom(o->err);
        goto done;
    }
    /* The scans' other arrays come after the sorts (peak memory). */
    cnt = xcalloc(n, sizeof *cnt);
    cur2 = xmalloc(n2, sizeof *cur2);
    diff = xcalloc(n + 1, sizeof *diff);
    if (!cnt || !cur2 || !diff) {
        oom(o->err);
        goto done;
    }
    bool par = n2 >= PARALLEL_ROWS && m1 >= PARALLEL_ROWS;
    SweepScan sc = {L,    R,    LK,  RK, LI, RI, lo1, hi1,    lo2, hi2,
                    diff, cur2, NULL, cnt, n2, m1, 0,   0,   n2 / 2, 0};
    Task t1 = {place_left, &sc, 0}, t2 = {place_right, &sc, 0};
    run_two(&t1, &t2, par);
    t1.fn = scan_set1;
    t2.fn = scan_set2;
    run_two(&t1, &t2, par);
    size_t total = sc.total1 + sc.total2;
    /* Each left row's run: its length scattered to row order (cnt), the runs reserved in row
     * order, and their starts gathered back to sorted order, so that the fills read their
     * cursors in sequence (an optimisation: the fills and the set-2 scan went from a cache miss
     * per row to reading in sequence). */
    t1.fn = scatter_first;
    t2.fn = scatter_second;
    run_two(&t1, &t2, par);
    xfree(LK); xfree(RK);
    LK = RK = NULL;
    sc.LK = sc.RK = NULL;
    if (tmp_grow(o, total) != 0) goto done;
    for (size_t l = 0; l < n; l++)
        if (cnt[l]) cnt[l] = run_reserve(o, gid_of(L, l), cnt[l]);
    t1.fn = gather_first;
    t2.fn = gather_second;
    run_two(&t1, &t2, par);
    xfree(cnt); xfree(LI);
    cnt = LI = NULL;
    sc.LI = NULL;
    sc.cnt = NULL;
    sc.tmp = o->tmp;
    t1.fn = fill_set1;
    t2.fn = fill_set2;
    run_two(&t1, &t2, par);
    /* The rows the split does not cover: inverted left rows with proper right rows, and
     * non-inverted left rows with non-proper right rows (two non-proper rows never intersect). */
    if (ni && m1 && dom_join(IJ_INTERSECTS, L, li, ni, R, rw, m1, o, true) != 0) goto done;
    if (md && n2 && dom_join(IJ_INTERSECTS, L, lwe, n2, R, rd, md, o, true) != 0) goto done;
    rc = 0;
done:
    xfree(lwe); xfree(li); xfree(rw); xfree(rd); xfree(LK); xfree(RK); xfree(LI); xfree(RI);
    xfree(lo1); xfree(cnt); xfree(cur2); xfree(diff); xfree(lo2);   /* hi1, hi2: within lo1, lo2 */
    return rc;
}

/* ---- nested loop ---------------------------------------------------------------------------- */

static int nested_join(IjRelation rel, const Sub *L, const Sub *R, Out *o) {
    for (size_t i = 0; i < L->n; i++) {
        uint32_t gl = gid_of(L, i);
        bool open = false;
        for (size_t j = 0; j < R->n; j++) {
            if (!ij_holds(rel, L->s[i], L->e[i], R->s[j], R->e[j])) continue;
            if (!open) {
                run_open(o, gl);
                open = true;
            }
            if (run_push(o, gid_of(R, j)) != 0) return -1;
        }
        if (open) run_close(o, gl);
    }
    return 0;
}

/* ---- partitions ----------------------------------------------------------------------------- */

static inline bool row_valid(const IjSide *x, size_t i) {
    return !x->valid || ((x->valid[i >> 6] >> (i & 63)) & 1);
}

/* Groups the valid rows of x by partition id (counting sort, stable): rows[start[p]..start[p+1])
 * are partition p's rows in input order. rows is NULL when every row is valid and there is one
 * partition (the identity). */
static int group_rows(const IjSide *x, uint32_t n_parts, uint32_t **rows, size_t **start) {
    *rows = NULL;
    *start = xcalloc((size_t)n_parts + 1, sizeof **start);
    if (!*start) return -1;
    size_t *st = *start;
    if (!x->part && !x->valid) {
        /* Without ids every row is in partition 0. */
        for (uint32_t p = 1; p <= n_parts; p++) st[p] = x->n;
        return 0;
    }
    *rows = xmalloc(x->n, sizeof **rows);
    if (!*rows) return -1;
    for (size_t i = 0; i < x->n; i++)
        if (row_valid(x, i)) st[(x->part ? x->part[i] : 0) + 1]++;
    for (uint32_t p = 0; p < n_parts; p++) st[p + 1] += st[p];
    size_t *pos = xmalloc((size_t)n_parts, sizeof *pos);
    if (!pos) return -1;
    memcpy(pos, st, (size_t)n_parts * sizeof *pos);
    for (size_t i = 0; i < x->n; i++)
        if (row_valid(x, i)) (*rows)[pos[x->part ? x->part[i] : 0]++] = (uint32_t)i;
    xfree(pos);
    return 0;
}

/* Makes partition rows[a..b) of x a Sub, gathering its keys into bs/be (room for b - a). */
static Sub make_sub(const IjSide *x, const uint32_t *rows, size_t a, size_t b, int64_t *bs,
                    int64_t *be) {
    Sub s;
    if (!rows) {
        s.s = x->s + a;
        s.e = x->e + a;
        s.gid = NULL;
        s.n = b - a;
        return s;
    }
    for (size_t t = a; t < b; t++) {
        bs[t - a] = x->s[rows[t]];
        be[t - a] = x->e[rows[t]];
    }
    s.s = bs;
    s.e = be;
    s.gid = rows + a;
    s.n = b - a;
    return s;
}

static int join_sub(IjRelation rel, Engine eng, const Sub *L, const Sub *R, Out *o) {
    switch (eng) {
    case ENG_NESTED: return nested_join(rel, L, R, o);
    case ENG_EQ: return eq_join(rel, L, R, o);
    case ENG_BAND: return band_join(rel, L, R, o);
    case ENG_DOM: return dom_join(rel, L, NULL, L->n, R, NULL, R->n, o, false);
    case ENG_RANGE: return range_join(rel, L, R, o);
    case ENG_SWEEP: return sweep_join(L, R, o);
    }
    return 0;
}

int ij_join(IjRelation rel, const IjSide *l, const IjSide *r, const IjOptions *opt,
            IjPairs *out, RxError *err) {
    if ((unsigned)rel >= IJ_N_RELATIONS)
        return rx_error(err, RX_EUNSUPPORTED, NULL, rx_span(0, 0), "unknown interval relation");
    if (l->n > UINT32_MAX || r->n > UINT32_MAX)
        return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                        "the interval join takes at most %u rows per side", (unsigned)UINT32_MAX);
    out->n = out->cap = 0;
    Engine eng = engine_of(rel, opt);
    /* Partition ids: a side without them is all partition 0. */
    uint32_t n_parts = 1;
    if (l->part || r->part) {
        const IjSide *sides[2] = {l, r};
        for (int k = 0; k < 2; k++)
            if (sides[k]->part)
                for (size_t i = 0; i < sides[k]->n; i++)
                    if (sides[k]->part[i] >= n_parts && row_valid(sides[k], i)) {
                        if (sides[k]->part[i] == UINT32_MAX)
                            return rx_error(err, RX_ELIMIT, NULL, rx_span(0, 0),
                                            "interval join: partition id out of range");
                        n_parts = sides[k]->part[i] + 1;
                    }
    }
    Out o;
    memset(&o, 0, sizeof o);
    o.in_order = true;
    o.last_left = -1;
    o.err = err;
    int rc = -1;
    uint32_t *lrows = NULL, *rrows = NULL;
    size_t *lst = NULL, *rst = NULL;
    int64_t *buf = NULL;
    o.cstart = xmalloc(l->n, sizeof *o.cstart);
    o.clen = xcalloc(l->n, sizeof *o.clen);
    if (!o.cstart || !o.clen || group_rows(l, n_parts, &lrows, &lst) != 0 ||
        group_rows(r, n_parts, &rrows, &rst) != 0) {
        oom(err);
        goto done;
    }
    size_t maxl = 0, maxr = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p + 1] - lst[p] > maxl) maxl = lst[p + 1] - lst[p];
        if (rst[p + 1] - rst[p] > maxr) maxr = rst[p + 1] - rst[p];
    }
    size_t nbuf = (lrows ? 2 * maxl : 0) + (rrows ? 2 * maxr : 0);
    buf = xmalloc(nbuf, sizeof *buf);
    if (!buf) {
        oom(err);
        goto done;
    }
    int64_t *lbs = buf, *lbe = lbs + (lrows ? maxl : 0);
    int64_t *rbs = lbe + (lrows ? maxl : 0), *rbe = rbs + (rrows ? maxr : 0);
    for (uint32_t p = 0; p < n_parts; p++) {
        if (lst[p] == lst[p + 1] || rst[p] == rst[p + 1]) continue;
        Sub L = make_sub(l, lrows, lst[p], lst[p + 1], lbs, lbe);
        Sub R = make_sub(r, rrows, rst[p], rst[p + 1], rbs, rbe);
        if (join_sub(rel, eng, &L, &R, &o) != 0) goto done;
    }
    if (assemble(&o, l->n, out) != 0) goto done;
    rc = 0;
done:
    xfree(o.cstart);
    xfree(o.clen);
    xfree(o.tmp);
    xfree(o.xl);
    xfree(o.xr);
    xfree(lrows);
    xfree(rrows);
    xfree(lst);
    xfree(rst);
    xfree(buf);
    return rc;
}
