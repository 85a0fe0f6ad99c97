/*
 * radix.c - the join kernels' sorts (radix.h): one LSD radix sort of 64-bit words
 * (radix_words) and the variants the kernels need on top of it: ids by int64 key (sort_ids,
 * with the key and the position packed into one word), (key, payload) pairs (radix_kv), and
 * keys whose top digit spreads them evenly (sort_keys, a most-significant pass first).
 *
 * All sorts are stable. Relies on kernel.h for its buffers and the two-task runner.
 */
#include "exec/radix.h"

#include <string.h>

/* The widest digit (RADIX_BITS, radix.h): with 2^11 buckets a scatter pass keeps its 2,048
 * write positions (128 KB of cache lines) in L2; 2^16 buckets take fewer passes but miss the
 * cache on every write (bench/RESULTS.md has the measurement). */

/* The digit width for n words of nbits significant bits, and in *passes the number of passes:
 * digits of up to RADIX_BITS bits, balanced over the passes; short arrays get narrower digits
 * so that a histogram never dwarfs its data. nbits <= 0: no passes. */
static int radix_plan(size_t n, int nbits, int *passes) {
    if (nbits <= 0) {
        *passes = 0;
        return 0;
    }
    int wmax = bits_for(n) - 4;
    if (wmax > RADIX_BITS) wmax = RADIX_BITS;
    if (wmax < 4) wmax = 4;
    *passes = (nbits + wmax - 1) / wmax;
    return (nbits + *passes - 1) / *passes;
}

/* Turns the counts of a pass's nb buckets into each bucket's first position (an exclusive
 * prefix sum), where the scatter writes it. */
static inline void counts_to_starts(uint32_t *h, size_t nb) {
    uint32_t sum = 0;
    for (size_t d = 0; d < nb; d++) {
        uint32_t c = h[d];
        h[d] = sum;
        sum += c;
    }
}

/* ---- words -------------------------------------------------------------------------------- */

uint64_t *radix_words(uint64_t *a, uint64_t *b, size_t n, int lo, int nbits, uint32_t *hist) {
    if (nbits <= 0 || n < 2) return a;
    int passes, w = radix_plan(n, nbits, &passes);
    size_t nb = (size_t)1 << w;
    uint32_t *own = NULL;
    if (hist) memset(hist, 0, (size_t)passes * nb * sizeof *hist);
    else if (!(hist = own = xcalloc((size_t)passes * nb, sizeof *hist))) return NULL;
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
        counts_to_starts(h, nb);
        for (size_t i = 0; i < n; i++) {
            uint64_t v = src[i];
            dst[h[(v >> shift) & mask]++] = v;
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    xfree(own);
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
    const uint64_t *w = radix_words(a, b, n, jb, nbits, NULL);
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

int sort_ids(const int64_t *key, const uint32_t *seq, size_t n, uint32_t *out_id,
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
            w = radix_words(a, b, n, jb, nbits, NULL);
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

int sort_job(void *p) {
    SortJob *j = p;
    return sort_ids(j->key, j->seq, j->n, j->out_id, j->out_key, j->scratch);
}

int sort_jobs_yq(void *p) {
    SortJob *j = p;
    return sort_job(&j[0]) || sort_job(&j[1]) ? -1 : 0;
}

int sort_two(SortJob *a, SortJob *b) {
    Task ta = {sort_job, a, 0}, tb = {sort_job, b, 0};
    return run_two(&ta, &tb, a->n >= PARALLEL_ROWS && b->n >= PARALLEL_ROWS);
}

/* ---- keys of one partition (the AS-OF join) ------------------------------------------------- */

static void insertion_u64(uint64_t *a, size_t k) {
    for (size_t i = 1; i < k; i++) {
        uint64_t x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Stable LSD radix sort of a[0..k) by bits [lo, lo + bits); the bits above are equal in all
 * keys and the bits below ascend in input order, so sorting whole words is the same order.
 * Returns the buffer that holds the result, a or tmp (room for k); hist has RADIX_HIST_SIZE
 * counters. */
static uint64_t *radix_u64(uint64_t *a, uint64_t *tmp, size_t k, unsigned lo, unsigned bits,
                           uint32_t *hist) {
    if (k <= SMALL_SORT) {
        insertion_u64(a, k);
        return a;
    }
    return radix_words(a, tmp, k, (int)lo, (int)bits, hist);
}

uint64_t *sort_keys(uint64_t *a, uint64_t *tmp, size_t k, unsigned lo, unsigned bits,
                    uint32_t *hist) {
    if (k <= SMALL_SORT) {
        insertion_u64(a, k);
        return a;
    }
    unsigned d = (unsigned)bits_for(k);
    if (d > MSD_MAX_BITS) d = MSD_MAX_BITS;
    if (d >= bits) return radix_u64(a, tmp, k, lo, bits, hist);
    uint32_t *mh = hist + RADIX_HIST_SIZE;
    unsigned top = lo + bits - d;
    size_t nb = (size_t)1 << d;
    memset(mh, 0, nb * sizeof *mh);
    for (size_t i = 0; i < k; i++) mh[a[i] >> top]++;
    uint32_t sum = 0, big = 0;
    for (size_t b = 0; b < nb; b++) {
        uint32_t t = mh[b];
        mh[b] = sum;
        sum += t;
        big = t > big ? t : big;
    }
    for (size_t i = 0; i < k; i++) tmp[mh[a[i] >> top]++] = a[i];
    if (big <= SMALL_SORT) { /* one insertion pass over all buckets: a key only moves within
                              * its own bucket, and there is no per-bucket loop (an
                              * optimisation: uniform keys leave one or two a bucket) */
        insertion_u64(tmp, k);
        return tmp;
    }
    size_t b0 = 0; /* mh[b] is now the end of bucket b */
    for (size_t b = 0; b < nb; b++) {
        size_t b1 = mh[b], m = b1 - b0;
        if (m > 1 && m <= SMALL_SORT) {
            insertion_u64(tmp + b0, m);
        } else if (m > SMALL_SORT) {
            const uint64_t *r = radix_u64(tmp + b0, a + b0, m, lo, bits - d, hist);
            if (r != tmp + b0) memcpy(tmp + b0, r, m * sizeof *tmp);
        }
        b0 = b1;
    }
    return tmp;
}

void radix_kv(uint64_t *key, uint32_t *pay, uint64_t *ktmp, uint32_t *ptmp, size_t k, unsigned bits,
              uint32_t *hist) {
    if (k <= SMALL_SORT) {
        for (size_t i = 1; i < k; i++) {
            uint64_t x = key[i];
            uint32_t y = pay[i];
            size_t j = i;
            for (; j > 0 && key[j - 1] > x; j--) {
                key[j] = key[j - 1];
                pay[j] = pay[j - 1];
            }
            key[j] = x;
            pay[j] = y;
        }
        return;
    }
    int passes;
    unsigned d = (unsigned)radix_plan(k, (int)bits, &passes), np = (unsigned)passes;
    size_t nb = (size_t)1 << d;
    uint64_t mask = nb - 1;
    memset(hist, 0, np * nb * sizeof *hist);
    for (size_t i = 0; i < k; i++)
        for (unsigned q = 0; q < np; q++) hist[q * nb + ((key[i] >> (q * d)) & mask)]++;
    uint64_t *ks = key, *kd = ktmp;
    uint32_t *ps = pay, *pd = ptmp;
    for (unsigned q = 0; q < np; q++) {
        uint32_t *hq = hist + q * nb;
        unsigned sh = q * d;
        if (hq[(ks[0] >> sh) & mask] == k) continue;
        counts_to_starts(hq, nb);
        for (size_t i = 0; i < k; i++) {
            uint32_t at = hq[(ks[i] >> sh) & mask]++;
            kd[at] = ks[i];
            pd[at] = ps[i];
        }
        uint64_t *kt = ks;
        ks = kd;
        kd = kt;
        uint32_t *pt = ps;
        ps = pd;
        pd = pt;
    }
    if (ks != key) {
        memcpy(key, ks, k * sizeof *key);
        memcpy(pay, ps, k * sizeof *pay);
    }
}
