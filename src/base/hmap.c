/*
 * hmap.c - growth and lifetime of the hash index (hmap.h); probing is inline in the header.
 */
#include "base/hmap.h"

#include <string.h>

/* The most entries a map may hold: half of 2^32 slots. */
#define HMAP_MAX_ENTRIES ((size_t)1 << 31)

uint64_t hmap_hash_array(const void *ctx, uint32_t payload) {
    return ((const uint64_t *)ctx)[payload];
}

/* The slots for n entries at most half full: a power of two, at least 16; 0 when too many. */
static size_t slots_for(size_t n) {
    if (n > HMAP_MAX_ENTRIES) return 0;
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    return cap;
}

/* Moves the entries of m into cap fresh slots, each to the home of hash_of(ctx, payload);
 * 0, or -1 when out of memory, or m has entries and no hash_of (m unchanged). */
static int rehash(RxHMap *m, size_t cap, RxHashOf hash_of, const void *ctx) {
    if (m->n && !hash_of) return -1;
    /* rx_malloc and memset rather than rx_calloc: rx_malloc aligns a large table to huge
     * pages, and random probes over small pages miss the TLB (an optimisation). */
    uint32_t *slot = rx_malloc(cap * sizeof *slot);
    if (!slot) return -1;
    memset(slot, 0, cap * sizeof *slot);
    size_t mask = cap - 1;
    if (m->n)
        for (size_t i = 0; i <= m->mask; i++) {
            uint32_t s = m->slot[i];
            if (!s) continue;
            size_t j = (size_t)hash_of(ctx, s - 1) & mask;
            while (slot[j]) j = (j + 1) & mask;
            slot[j] = s;
        }
    rx_free(m->slot);
    m->slot = slot;
    m->mask = mask;
    return 0;
}

int hmap_init(RxHMap *m, size_t n) {
    m->slot = NULL;
    m->mask = 0;
    m->n = 0;
    size_t cap = slots_for(n < 8 ? 8 : n);
    if (!cap) return -1;
    return rehash(m, cap, NULL, NULL);
}

int hmap_reserve(RxHMap *m, size_t n, RxHashOf hash_of, const void *ctx) {
    size_t cap = slots_for(n);
    if (!cap) return -1;
    if (m->slot && cap <= m->mask + 1) return 0;
    return rehash(m, cap, hash_of, ctx);
}

int hmap_grow(RxHMap *m, RxHashOf hash_of, const void *ctx) {
    if (!m->slot) return rehash(m, 16, hash_of, ctx);
    size_t cap = (m->mask + 1) * 2;
    if (cap / 2 > HMAP_MAX_ENTRIES) return -1;
    return rehash(m, cap, hash_of, ctx);
}

void hmap_clear(RxHMap *m) {
    if (m->slot) memset(m->slot, 0, (m->mask + 1) * sizeof *m->slot);
    m->n = 0;
}

void hmap_free(RxHMap *m) {
    rx_free(m->slot);
    m->slot = NULL;
    m->mask = 0;
    m->n = 0;
}
