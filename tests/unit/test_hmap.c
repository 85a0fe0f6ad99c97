/*
 * test_hmap.c - the hash index (src/base/hmap.h): lookups and inserts agree with a brute-force
 * oracle over keys drawn so that many collide (equal hashes for different keys, equal home
 * slots, long runs), through growth from the smallest map and into a reserved one that never
 * grows; hmap_next yields every entry of a hash once and ends at an empty slot; hmap_add keeps
 * duplicates; clear empties the map and it takes entries again; a map that may not grow (no
 * hash_of) refuses to. The random seed is fixed.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "base/hmap.h"

static uint64_t rng = 0x853c49e6748fea9bULL;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A key's hash: deliberately poor in modes 1-3, so that keys share hashes and home slots. */
static uint64_t weak_hash(uint64_t key, int mode) {
    switch (mode) {
    case 0: return rx_hash64(key);
    case 1: return rx_hash64(key / 8);            /* 8 keys per hash */
    case 2: return (key % 64) << 40 | (key % 3);  /* 3 home slots: long runs */
    default: return 42;                           /* every key one hash */
    }
}

/* Finds key through the map as a caller does (stored hash, then key): its payload (its index
 * in keys) or UINT32_MAX, with *p where the probe stopped. */
static uint32_t find(const RxHMap *m, const uint64_t *keys, const uint64_t *hs, uint64_t key,
                     int mode, RxHProbe *p) {
    uint64_t h = weak_hash(key, mode);
    *p = hmap_probe(m, h);
    uint32_t v;
    while (hmap_next(m, p, &v))
        if (hs[v] == h && keys[v] == key) return v;
    return UINT32_MAX;
}

/* Random inserts and lookups against a brute-force scan of keys[0..n). */
static void test_oracle(int mode, size_t n_ops, size_t reserve) {
    RxHMap m;
    CHECK(hmap_init(&m, 0) == 0);
    uint64_t *keys = malloc(n_ops * sizeof *keys), *hs = malloc(n_ops * sizeof *hs);
    if (reserve) CHECK(hmap_reserve(&m, reserve, hmap_hash_array, hs) == 0);
    size_t cap0 = m.mask + 1;
    size_t n = 0;
    int agree = 1, ins_ok = 1;
    uint64_t range = mode == 3 ? 300 : n_ops;
    for (size_t op = 0; op < n_ops; op++) {
        uint64_t key = next_rand() % range;
        uint32_t want = UINT32_MAX;
        for (size_t i = 0; i < n; i++)
            if (keys[i] == key) want = (uint32_t)i;
        RxHProbe p;
        uint32_t got = find(&m, keys, hs, key, mode, &p);
        agree &= got == want;
        if (got == UINT32_MAX && (next_rand() & 1)) {
            keys[n] = key;
            hs[n] = weak_hash(key, mode);
            /* a reserved map is given no hash_of: it must not need one */
            ins_ok &= hmap_insert(&m, &p, (uint32_t)n, reserve ? NULL : hmap_hash_array, hs) == 0;
            n++;
        }
    }
    CHECK(agree);
    CHECK(ins_ok);
    CHECK(m.n == n);
    CHECK((m.mask + 1) >= 2 * n);                  /* at most half full */
    if (reserve) CHECK(m.mask + 1 == cap0);       /* reserved: never grew */
    else CHECK(m.mask + 1 > cap0 || n <= 8);
    /* every stored key is found at its own payload */
    int all = 1;
    for (size_t i = 0; i < n; i++) {
        RxHProbe p;
        all &= find(&m, keys, hs, keys[i], mode, &p) == i;
    }
    CHECK(all);
    /* cleared: nothing is found, and the map takes the keys again */
    hmap_clear(&m);
    CHECK(m.n == 0);
    int none = 1, again = 1;
    for (size_t i = 0; i < n; i++) {
        RxHProbe p;
        none &= find(&m, keys, hs, keys[i], mode, &p) == UINT32_MAX;
    }
    for (size_t i = 0; i < n; i++) again &= hmap_add(&m, hs[i], (uint32_t)i, hmap_hash_array, hs) == 0;
    for (size_t i = 0; i < n; i++) {
        RxHProbe p;
        again &= find(&m, keys, hs, keys[i], mode, &p) == i;
    }
    CHECK(none);
    CHECK(again);
    hmap_free(&m);
    CHECK(m.slot == NULL);
    free(keys);
    free(hs);
}

/* hmap_next yields every entry stored under one hash exactly once (among the others of its
 * run, which the caller tells apart by their hashes), and hmap_add keeps duplicates. */
static void test_equal_hashes(void) {
    RxHMap m;
    CHECK(hmap_init(&m, 4) == 0);
    enum { N = 1000 };
    static uint64_t hs[N];
    int ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        hs[i] = i % 2 ? 7 : 8;   /* two hashes with neighbouring home slots: one long run */
        ok &= hmap_add(&m, hs[i], i, hmap_hash_array, hs) == 0;
    }
    CHECK(ok);
    CHECK(m.n == N);
    static unsigned char seen[N];
    RxHProbe p = hmap_probe(&m, 7);
    uint32_t v;
    size_t count = 0, valid = 0;
    int once = 1;
    while (hmap_next(&m, &p, &v)) {
        valid += v < N;
        if (v >= N || hs[v] != 7) continue;
        count++;
        once &= !seen[v];
        seen[v] = 1;
    }
    CHECK(count == N / 2);
    CHECK(valid >= N / 2);
    CHECK(once);
    CHECK(m.slot[p.i] == 0);  /* the probe ended at an empty slot */
    hmap_free(&m);
}

/* A map without hash_of holds what it was made for and refuses to grow past it. */
static void test_no_growth(void) {
    RxHMap m;
    CHECK(hmap_init(&m, 8) == 0);
    size_t cap = m.mask + 1;
    int ok = 1;
    for (uint32_t i = 0; i < cap / 2; i++) ok &= hmap_add(&m, rx_hash64(i), i, NULL, NULL) == 0;
    CHECK(ok);
    CHECK(hmap_add(&m, rx_hash64(cap), (uint32_t)cap, NULL, NULL) < 0);   /* past half: cannot grow */
    CHECK(m.mask + 1 == cap);
    CHECK(hmap_grow(&m, NULL, NULL) < 0);
    hmap_free(&m);
}

int main(void) {
    for (int mode = 0; mode < 4; mode++) {
        test_oracle(mode, mode == 3 ? 2000 : 20000, 0);
        test_oracle(mode, mode == 3 ? 2000 : 20000, 30000);
    }
    test_equal_hashes();
    test_no_growth();
    RxHMap m = {0};
    hmap_free(&m);                                                 /* a map without slots */
    CHECK(hmap_reserve(&m, (size_t)1 << 40, NULL, NULL) < 0);      /* too many entries */
    CHECK(m.slot == NULL);
    return check_report("hmap");
}
