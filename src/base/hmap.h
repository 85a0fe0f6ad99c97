/*
 * hmap.h - the one hash index every table in the engine is built on: 64-bit hash -> uint32
 * payload, by open addressing with linear probing.
 *
 * The map holds neither keys nor hashes. The caller keeps them (rows of a table and their
 * hashes, dictionary entries, names) and stores where they are as the payload; a probe walks
 * the entries of the run that starts at the hash's home slot and the caller tests each candidate
 * for equality itself (its stored hash first, then its key), in its own loop. Probing is inline
 * (no callback per candidate), so the join, grouping and dictionary loops keep their speed:
 *
 *     RxHProbe p = hmap_probe(&m, h);
 *     uint32_t v;
 *     while (hmap_next(&m, &p, &v))
 *         if (hash[v] == h && key_equal(v, key)) return v;     (found: v is its payload)
 *     if (hmap_insert(&m, &p, new_payload, hash_of, ctx) < 0)  (absent: p is at an empty slot)
 *         return out_of_memory;
 *
 * A slot is one uint32_t, payload + 1, 0 marking an empty slot: as small as an index can be,
 * since the big tables (a join's right side, a million distinct rows) are bounded by memory
 * traffic, not by comparisons. The slots are a power of two, at most half full; the home slot of
 * a hash is its low bits. Growth doubles the slots on the insert that passes half and rehashes
 * every entry through hash_of(ctx, payload), the caller's stored hash (called only then, never
 * per probe). A map made big enough up front (hmap_init or hmap_reserve with the final count)
 * never grows and needs no hash_of. Payloads run from 0 to UINT32_MAX - 1; a map holds at most
 * 2^31 entries. Equal hashes are allowed any number of times.
 *
 * Memory: the slots come from rx_malloc's family and hmap_free returns them. A map is not
 * thread-safe while it is written; any number of threads may probe a map nobody writes.
 */
#ifndef RX_HMAP_H
#define RX_HMAP_H

#include "base/base.h"

typedef struct {
    uint32_t *slot;   /* mask + 1 slots, or NULL before hmap_init */
    size_t mask;
    size_t n;         /* entries */
} RxHMap;

/* Where a probe stands: the next slot to look at. Once hmap_next has returned false, i is the
 * empty slot where the probed hash would go. */
typedef struct {
    size_t i;
} RxHProbe;

/* The hash an entry was stored under, for growth: ctx is the caller's (its hash array, its
 * dictionary). */
typedef uint64_t (*RxHashOf)(const void *ctx, uint32_t payload);

/* hash_of for a caller that keeps its hashes in an array indexed by payload (ctx). */
uint64_t hmap_hash_array(const void *ctx, uint32_t payload);

/* An empty map with room for n entries before it grows (at least 8). Returns 0, or -1 when out
 * of memory or past 2^31 entries (the map then has no slots, and hmap_free accepts it). */
int hmap_init(RxHMap *m, size_t n);
/* Makes room for n entries in all without growing again; hash_of(ctx, payload) gives the
 * hashes of the entries already in (NULL when there are none). Returns 0, or -1 when out of
 * memory or past 2^31 entries (the map is then unchanged). */
int hmap_reserve(RxHMap *m, size_t n, RxHashOf hash_of, const void *ctx);
/* Removes every entry and keeps the slots. */
void hmap_clear(RxHMap *m);
/* Frees the slots; the map is then as before hmap_init. Accepts a map that has no slots. */
void hmap_free(RxHMap *m);
/* Doubles the slots (hmap_insert calls it). 0, or -1 when out of memory, past 2^31 entries,
 * or without hash_of (the map is then unchanged). */
int hmap_grow(RxHMap *m, RxHashOf hash_of, const void *ctx);

/* Starts a probe for hash h. The map must have slots (hmap_init). */
static inline RxHProbe hmap_probe(const RxHMap *m, uint64_t h) {
    RxHProbe p = {(size_t)h & m->mask};
    return p;
}

/* The next candidate of probe p: true with its payload in *payload, or false when the probe has
 * reached an empty slot (then p->i is that slot). Candidates are the entries of the run from
 * the hash's home slot, in probe order, whatever their hashes: the caller tells them apart. */
static inline bool hmap_next(const RxHMap *m, RxHProbe *p, uint32_t *payload) {
    uint32_t s = m->slot[p->i];
    if (!s) return false;
    p->i = (p->i + 1) & m->mask;
    *payload = s - 1;
    return true;
}

/* Stores payload (< UINT32_MAX) in the empty slot where probe p stopped (hmap_next returned
 * false, and the map was not written since), growing the map when it passes half full; the
 * caller has stored the new entry's hash where hash_of finds it first. Returns 0, or -1 when
 * the growth failed: the entry is stored, but the map must take no more entries (the caller
 * treats it as out of memory). A map that was reserved for every entry it gets never grows:
 * hash_of may then be NULL. */
static inline int hmap_insert(RxHMap *m, const RxHProbe *p, uint32_t payload, RxHashOf hash_of,
                              const void *ctx) {
    m->slot[p->i] = payload + 1;
    if (++m->n * 2 > m->mask + 1) return hmap_grow(m, hash_of, ctx);
    return 0;
}

/* Adds an entry under hash h without looking for an equal one (the caller knows there is none,
 * or wants both). Returns as hmap_insert. */
static inline int hmap_add(RxHMap *m, uint64_t h, uint32_t payload, RxHashOf hash_of,
                           const void *ctx) {
    RxHProbe p = hmap_probe(m, h);
    while (m->slot[p.i]) p.i = (p.i + 1) & m->mask;
    return hmap_insert(m, &p, payload, hash_of, ctx);
}

#endif
