/*
 * util.c - byte hashing, UTF-8 helpers and large-buffer allocation shared by every stage.
 */
#include "base/base.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

uint64_t rx_hash_bytes(const void *p, size_t n) {
    const unsigned char *s = p;
    uint64_t h = 0x243f6a8885a308d3ULL ^ (n * 0x9e3779b97f4a7c15ULL);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ rx_hash64(w)) * 0x100000001b3ULL;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h ^= rx_hash64(w ^ n);
    return rx_hash64(h);
}

int utf8_seq_len(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int len;
    unsigned min;
    if ((c & 0xE0) == 0xC0) { len = 2; min = 0x80; c &= 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; c &= 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; min = 0x10000; c &= 0x07; }
    else return 0;
    if ((size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    return len;
}

size_t utf8_width(const char *s, size_t n) {
    size_t w = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++)
        if ((u[i] & 0xC0) != 0x80) w++;
    return w;
}

/* ---- large buffers -------------------------------------------------------------------------- */

#define HUGE_PAGE ((size_t)2 << 20)

/* Advises [p, p + bytes) into transparent huge pages when it is large, whole pages only (the
 * first page may hold malloc's header: advising it is harmless). */
static void *advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (p && bytes >= RX_HUGE_MIN) {
        uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;
        uintptr_t e = ((uintptr_t)p + bytes + 4095) & ~(uintptr_t)4095;
        madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}

void *rx_malloc(size_t bytes) {
    if (bytes < RX_HUGE_MIN || bytes > SIZE_MAX - HUGE_PAGE) return malloc(bytes ? bytes : 1);
    /* Aligned to a huge page and a whole number of them, so that every page can be huge. */
    bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    return advise_huge(aligned_alloc(HUGE_PAGE, bytes), bytes);
}

void *rx_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    /* calloc, not rx_malloc + memset: fresh memory from the system is zero already, and
     * calloc does not touch it, so the advice still comes before the first touch. */
    return advise_huge(calloc(n ? n : 1, size ? size : 1), n * size);
}

/* A large buffer that grows moves into a fresh advised one: realloc would copy it into memory
 * that the copy itself touches first, in small pages, before any advice could apply. */
void *rx_realloc(void *p, size_t bytes) {
    if (!p) return rx_malloc(bytes);
    if (bytes < RX_HUGE_MIN) return realloc(p, bytes ? bytes : 1);
    size_t have = malloc_usable_size(p);
    if (have >= bytes) return realloc(p, bytes); /* shrinks in place */
    void *q = rx_malloc(bytes);
    if (!q) return NULL;
    memcpy(q, p, have);
    free(p);
    return q;
}
