/*
 * strbuf.c - a growable byte buffer for output and messages. The owner frees it with sb_free.
 * A failed allocation sets b->oom and later appends are dropped; the writer checks oom once.
 */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *b) { memset(b, 0, sizeof *b); }

void sb_free(StrBuf *b) {
    free(b->p);
    sb_init(b);
}

void sb_reserve(StrBuf *b, size_t extra) {
    if (b->oom || b->cap - b->n > extra) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->n <= extra) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->oom = true;
        return;
    }
    b->p = p;
    b->cap = cap;
}

void sb_append(StrBuf *b, const char *s, size_t n) {
    sb_reserve(b, n);
    if (b->oom) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void sb_puts(StrBuf *b, const char *s) { sb_append(b, s, strlen(s)); }

void sb_putc(StrBuf *b, char c) {
    sb_reserve(b, 1);
    if (b->oom) return;
    b->p[b->n++] = c;
    b->p[b->n] = 0;
}

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0) {
        sb_reserve(b, (size_t)n);
        if (!b->oom) {
            vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap2);
            b->n += (size_t)n;
        }
    }
    va_end(ap2);
}

void sb_printf(StrBuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void sb_repeat(StrBuf *b, const char *s, size_t n, size_t count) {
    sb_reserve(b, n * count);
    for (size_t i = 0; i < count; i++) sb_append(b, s, n);
}
