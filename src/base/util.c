/*
 * util.c - byte hashing and UTF-8 helpers shared by every stage.
 */
#include "base/base.h"

#include <string.h>

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
