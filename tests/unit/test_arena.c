/*
 * test_arena.c - the arena (src/base/arena.c): allocations are zeroed, aligned for any type and
 * never overlap, across many blocks and for requests larger than a block; the string helpers
 * copy; ptrvec_push keeps order while it grows; a request too large to serve fails cleanly
 * (NULL, arena_failed) instead of wrapping around its size computation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/base.h"

static void test_alloc(void) {
    Arena *a = arena_new();
    CHECK(a != NULL);
    if (!a) return;
    enum { N = 3000 };
    unsigned char *p[N];
    size_t len[N];
    int zeroed = 1, aligned = 1;
    for (size_t i = 0; i < N; i++) {
        len[i] = i % 97 == 0 ? 40000 + i : 1 + (i * 37) % 300; /* some larger than a block */
        p[i] = arena_alloc(a, len[i]);
        CHECK(p[i] != NULL);
        if (!p[i]) break;
        for (size_t k = 0; k < len[i]; k++) zeroed &= p[i][k] == 0;
        aligned &= (uintptr_t)p[i] % _Alignof(max_align_t) == 0;
        memset(p[i], (int)(i & 0xff), len[i]);
    }
    CHECK(zeroed);
    CHECK(aligned);
    /* every allocation still holds its own pattern: none overlaps another */
    int intact = 1;
    for (size_t i = 0; i < N && p[i]; i++)
        for (size_t k = 0; k < len[i]; k++) intact &= p[i][k] == (unsigned char)(i & 0xff);
    CHECK(intact);
    CHECK(arena_alloc(a, 0) != NULL);
    CHECK(!arena_failed(a));
    arena_free(a);
    arena_free(NULL);
}

static void test_strings(void) {
    Arena *a = arena_new();
    char src[] = "hello, world";
    char *s = arena_strndup(a, src, 5);
    CHECK_STR(s, "hello");
    char *t = arena_strdup(a, src);
    src[0] = 'J';
    CHECK_STR(t, "hello, world");
    CHECK(t != src);
    char *u = arena_printf(a, "%s=%d;%.2f", "x", 42, 1.5);
    CHECK_STR(u, "x=42;1.50");
    char big[5000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = 0;
    char *v = arena_printf(a, "<%s>", big);
    CHECK(v && strlen(v) == sizeof big + 1 && v[0] == '<' && v[sizeof big] == '>');
    arena_free(a);
}

static void test_ptrvec(void) {
    Arena *a = arena_new();
    PtrVec v = {0};
    static int items[1000];
    for (int i = 0; i < 1000; i++) ptrvec_push(a, &v, &items[i]);
    CHECK(v.n == 1000);
    CHECK(v.cap >= v.n);
    int order = 1;
    for (size_t i = 0; i < v.n; i++) order &= v.items[i] == &items[i];
    CHECK(order);
    arena_free(a);
}

/* Regression: a request near SIZE_MAX wrapped around when rounded up to the alignment (or
 * when the block header was added), so the arena returned a few bytes for it, and zeroing them
 * ran over the heap. It must fail instead, and the arena stay usable. */
static void test_huge(void) {
    Arena *a = arena_new();
    CHECK(arena_alloc(a, SIZE_MAX) == NULL);
    CHECK(arena_failed(a));
    CHECK(arena_alloc(a, SIZE_MAX - 20) == NULL);
    CHECK(arena_alloc(a, SIZE_MAX - sizeof(max_align_t)) == NULL);
    char *p = arena_alloc(a, 64);
    CHECK(p != NULL);
    arena_free(a);
}

int main(void) {
    test_alloc();
    test_strings();
    test_ptrvec();
    test_huge();
    return check_report("arena");
}
