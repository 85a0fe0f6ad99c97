/*
 * radix.h - the join kernels' sorts: an LSD radix sort of 64-bit words and its variants (ids
 * by int64 key, (key, payload) pairs, keys spread by a top-digit pass, a left row's run of
 * right rows). Every sort is stable. Internal to src/exec.
 */
#ifndef RX_RADIX_H
#define RX_RADIX_H

#include <string.h>

#include "exec/kernel.h"

#define SIGN64 0x8000000000000000ULL

/* int64 keys as uint64 in the same order, and back. */
static inline uint64_t flip(int64_t k) { return (uint64_t)k ^ SIGN64; }
static inline int64_t unflip(uint64_t u) { return (int64_t)(u ^ SIGN64); }
/* The number of significant bits of v (0 for 0). */
static inline int bits_for(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/* The widest digit of a radix pass (radix.c says why 11). */
#define RADIX_BITS 11
/* Histogram counters radix_words needs at most: ceil(64 / 11) passes of 2^11 buckets. */
#define RADIX_HIST_SIZE (6u << RADIX_BITS)
/* sort_keys: buckets of its first, top-digit pass (its hist has 2^MSD_MAX_BITS more). */
#define MSD_MAX_BITS 14
/* Insertion sort below this many keys. */
#define SMALL_SORT 48

/* Sorts the words a[0..n) stably by their bits [lo, lo + nbits), LSD, using b (room for n) as
 * scratch; returns the buffer holding the sorted words (a or b). hist: RADIX_HIST_SIZE counters
 * to use, or NULL to allocate them (then NULL is returned when out of memory). */
uint64_t *radix_words(uint64_t *a, uint64_t *b, size_t n, int lo, int nbits, uint32_t *hist);

/* Sorts the ids seq[0..n) (NULL: 0..n-1) stably by key[id]: out_id[t] is the t-th id in key
 * order and out_key[t] (if not NULL) its key. scratch, when not NULL, holds n words the sort
 * may use as its radix buffer (their contents after it are undefined). Returns -1 when out of
 * memory. */
int sort_ids(const int64_t *key, const uint32_t *seq, size_t n, uint32_t *out_id,
             int64_t *out_key, uint64_t *scratch);

/* One sort_ids call, as a task for run_two. */
typedef struct {
    const int64_t *key;
    const uint32_t *seq;
    size_t n;
    uint32_t *out_id;
    int64_t *out_key;
    uint64_t *scratch;   /* NULL, or n words for the sort's radix buffer */
} SortJob;

/* Runs the sort of job p (a SortJob *); 0 or -1 (out of memory). */
int sort_job(void *p);
/* Two sort jobs one after the other (p points at the first). */
int sort_jobs_yq(void *p);
/* sort_ids on two inputs, side by side when both are large. */
int sort_two(SortJob *a, SortJob *b);

/* Stable sort of a[0..k) by bits [lo, lo + bits): a top-digit pass, then insertion or radix per
 * bucket. tmp has room for k, hist RADIX_HIST_SIZE + 2^MSD_MAX_BITS counters. Returns the buffer
 * holding the result (a or tmp). */
uint64_t *sort_keys(uint64_t *a, uint64_t *tmp, size_t k, unsigned lo, unsigned bits,
                    uint32_t *hist);

/* Stable LSD radix sort of (key, pay) pairs by key's low `bits` bits (the rest zero); the
 * result is left in key and pay. ktmp and ptmp have room for k, hist RADIX_HIST_SIZE counters. */
void radix_kv(uint64_t *key, uint32_t *pay, uint64_t *ktmp, uint32_t *ptmp, size_t k, unsigned bits,
              uint32_t *hist);

/* Sorts v[0..n) ascending (a left row's run of right rows); scratch holds n words if needed. */
static inline void sort_run(uint32_t *v, size_t n, uint32_t *scratch) {
    size_t i = 1;
    while (i < n && v[i - 1] < v[i]) i++;
    if (i >= n) return;
    if (n <= 16) {
        /* Each row goes to its rank, the count of rows before it in order (an optimisation:
         * the comparisons of a fixed 16 lanes run without a branch, where an insertion sort
         * mispredicted on most rows). Padding sorts last and ranks no row. */
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

#endif
