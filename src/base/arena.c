/*
 * arena.c - bump allocation for one phase's objects, freed all at once.
 *
 * Blocks grow geometrically; a request larger than a block gets a block of its own. Memory is
 * zeroed so that AST and plan structs start with every optional field empty.
 */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t used, cap;
    max_align_t data[];
} Block;

struct Arena {
    Block *head;
    size_t next_cap;
    bool failed;
};

Arena *arena_new(void) {
    Arena *a = calloc(1, sizeof *a);
    if (a) a->next_cap = 16 * 1024;
    return a;
}

void arena_free(Arena *a) {
    if (!a) return;
    Block *b = a->head;
    while (b) {
        Block *next = b->next;
        rx_free(b);
        b = next;
    }
    free(a);
}

bool arena_failed(const Arena *a) { return a->failed; }

void *arena_alloc(Arena *a, size_t n) {
    size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX - sizeof(Block) - align) { /* rounding or the header would wrap around */
        a->failed = true;
        return NULL;
    }
    n = (n + align - 1) & ~(align - 1);
    if (n == 0) n = align;
    Block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = a->next_cap;
        if (cap < n) cap = n;
        b = rx_malloc(sizeof(Block) + cap);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
        if (a->next_cap < 1024 * 1024) a->next_cap *= 2;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = n >= 0 ? arena_alloc(a, (size_t)n + 1) : NULL;
    if (p) vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void ptrvec_push(Arena *a, PtrVec *v, void *item) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        void **items = arena_alloc(a, cap * sizeof *items);
        if (!items) return;
        if (v->n) memcpy(items, v->items, v->n * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = item;
}
