/*
 * test_map.c - the mapped large buffers (util.c): small requests are malloc's, a large one is
 * whole huge pages at a huge-page boundary, counted until it is freed; calloc's are zero;
 * realloc keeps the contents of both kinds of pointer; rx_map_free frees malloc's pointers too;
 * two threads map and free side by side; a freed mapping is kept and reused (zeroed for calloc,
 * cut to fit), bounded under a memory limit and dropped when an allocation is refused.
 */
#include "base/base.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MB ((size_t)1 << 20)

#if !defined(__SANITIZE_ADDRESS__)
static void *churn(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    for (int i = 0; i < 200; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t bytes = (size_t)(seed >> 16) % (8 * MB) + 1;
        unsigned char *p = rx_map_alloc(bytes);
        if (!p) return (void *)1;
        memset(p, (int)(seed & 255), bytes);
        if (p[0] != (unsigned char)(seed & 255) || p[bytes - 1] != (unsigned char)(seed & 255))
            return (void *)1;
        rx_map_free(p);
    }
    return NULL;
}
#endif

int main(void) {
#if defined(__SANITIZE_ADDRESS__)
    /* Under AddressSanitizer the buffers are malloc's: the contents still hold. */
    unsigned char *z = rx_map_calloc(3 * MB, 1);
    CHECK(z && z[0] == 0 && z[3 * MB - 1] == 0);
    z = rx_map_realloc(z, 5 * MB);
    CHECK(z && z[3 * MB - 1] == 0);
    rx_map_free(z);
    return check_report("test_map");
#else
    /* Small requests are malloc's: not counted. */
    size_t base = rx_map_live();
    void *s = rx_map_alloc(1000);
    CHECK(s && rx_map_live() == base);
    rx_map_free(s);

    /* A large buffer: whole huge pages at a huge-page boundary, zero from calloc, counted until
     * it is freed. */
    unsigned char *a = rx_map_calloc(5 * MB, 1);
    CHECK(a && ((uintptr_t)a & (2 * MB - 1)) == 0);
    CHECK(rx_map_live() == base + 6 * MB);
    CHECK(a[0] == 0 && a[5 * MB - 1] == 0);
    memset(a, 7, 5 * MB);
    unsigned char *b = rx_map_alloc(2 * MB);
    CHECK(b && b != a && rx_map_live() == base + 8 * MB);
    rx_map_free(a);
    CHECK(rx_map_live() == base + 2 * MB);
    rx_map_free(b);
    CHECK(rx_map_live() == base);
    CHECK(rx_map_calloc(SIZE_MAX / 2, 4) == NULL);   /* overflow */

    /* The reserve: a freed mapping is kept and taken back by the next large request that fits,
     * rx_malloc's and rx_calloc's too; calloc's comes back zero; a larger one is cut and its
     * tail stays kept; kept bytes are not charged. */
    rx_map_drop_kept();
    CHECK(rx_map_kept() == 0);
    size_t used = rx_memory_used();
    unsigned char *k = rx_malloc(8 * MB);
    CHECK(k && ((uintptr_t)k & (2 * MB - 1)) == 0 && rx_memory_used() == used + 8 * MB);
    memset(k, 0xab, 8 * MB);
    size_t kept0 = rx_map_kept();
    CHECK(kept0 == 0);
    rx_free(k);
    CHECK(rx_map_kept() == kept0 + 8 * MB && rx_memory_used() == used);
    unsigned char *k2 = rx_calloc(8 * MB, 1);
    CHECK(k2 == k && rx_map_kept() == kept0);
    bool zero = true;
    for (size_t i = 0; i < 8 * MB; i += 4093) zero &= k2[i] == 0;
    CHECK(zero && k2[8 * MB - 1] == 0);
    memset(k2, 0xcd, 8 * MB);
    rx_free(k2);
    unsigned char *k3 = rx_malloc(3 * MB);   /* 4 MB of the 8 kept */
    CHECK(k3 == k && rx_map_kept() == kept0 + 4 * MB);
    unsigned char *k4 = rx_malloc(4 * MB);      /* the kept tail */
    CHECK(k4 == k + 4 * MB && rx_map_kept() == kept0);
    rx_free(k4);
    /* a kernel's buffer is never a kept one (a new mapping, which first unmaps as many kept
     * bytes), and is unmapped, not kept, when freed */
    unsigned char *km = rx_map_alloc(4 * MB);
    CHECK(km && km != k + 4 * MB && rx_map_kept() == kept0);
    rx_map_free(km);
    CHECK(rx_map_kept() == kept0);
    k4 = rx_malloc(4 * MB);
    k3 = rx_realloc(k3, 4 * MB);   /* fits its pages: stays */
    CHECK(k3 == k && k3[0] == 0xcd);
    rx_free(k3);
    rx_free(k4);
    CHECK(rx_map_kept() == kept0 + 8 * MB && rx_memory_used() == used);
    /* a request no kept mapping fits unmaps kept ones of as many bytes first (here all) */
    unsigned char *k5 = rx_malloc(10 * MB);
    CHECK(k5 && rx_map_kept() == 0);
    unsigned char *k6 = rx_malloc(4 * MB);
    rx_free(k5);
    rx_free(k6);
    CHECK(rx_map_kept() == 14 * MB);
    unsigned char *k7 = rx_malloc(16 * MB);   /* the oldest (10 MB) and then 4 MB go */
    CHECK(k7 && rx_map_kept() == 0);
    rx_free(k7);
    CHECK(rx_map_kept() == 16 * MB);

    /* Under a memory limit the reserve holds at most a quarter of it, and an allocation
     * refused at the limit empties it. */
    rx_set_memory_limit(used + 64 * MB);
    unsigned char *big = rx_malloc(20 * MB);
    CHECK(big != NULL);
    rx_free(big);
    CHECK(rx_map_kept() <= 16 * MB);
    unsigned char *small = rx_malloc(6 * MB);
    CHECK(small != NULL);
    rx_free(small);
    CHECK(rx_map_kept() > 0);
    CHECK(rx_malloc(100 * MB) == NULL && rx_memory_limit_hit(true));
    CHECK(rx_map_kept() == 0);
    rx_set_memory_limit(0);
    CHECK(rx_memory_used() == used && rx_map_live() == base);

    /* realloc: a mapping that grows moves with its contents, one that shrinks stays; a malloc'd
     * pointer that grows past the threshold becomes a mapping with its contents. */
    unsigned char *c = rx_map_alloc(3 * MB);
    memset(c, 5, 3 * MB);
    unsigned char *c2 = rx_map_realloc(c, 2 * MB);
    CHECK(c2 == c);
    c2 = rx_map_realloc(c, 9 * MB);
    CHECK(c2 && c2[0] == 5 && c2[3 * MB - 1] == 5);
    CHECK(rx_map_live() == base + 10 * MB);
    unsigned char *m = rx_map_alloc(100);
    memset(m, 9, 100);
    unsigned char *m2 = rx_map_realloc(m, 4 * MB);
    CHECK(m2 && m2[0] == 9 && m2[99] == 9 && ((uintptr_t)m2 & (2 * MB - 1)) == 0);
    CHECK(rx_map_live() == base + 14 * MB);
    rx_map_free(c2);
    rx_map_free(m2);
    /* rx_map_free frees what malloc returned. */
    rx_map_free(malloc(64));
    rx_map_free(NULL);
    CHECK(rx_map_live() == base);

    /* Two threads at once. */
    pthread_t t1, t2;
    void *r1 = (void *)1, *r2 = (void *)1;
    if (pthread_create(&t1, NULL, churn, (void *)(uintptr_t)1) == 0 &&
        pthread_create(&t2, NULL, churn, (void *)(uintptr_t)2) == 0) {
        pthread_join(t1, &r1);
        pthread_join(t2, &r2);
    }
    CHECK(r1 == NULL && r2 == NULL);
    CHECK(rx_map_live() == base);

    return check_report("test_map");
#endif
}
